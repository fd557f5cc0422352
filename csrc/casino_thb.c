/* Texas Hold'em Bonus exactly: for each flop (one per suit class) and hole hand, every turn,
 * river and dealer hand, by the board sweep of holdem_board.h; and the turn choice of given deals
 * river card by river card and dealer hand by dealer hand (the simulation's own route).
 * Wrappers: cardlab.casino.kernel.thb, thb_turn.
 */
#include "cards.h"
#include "core.h"
#include "holdem_board.h"
#include "poker.h"

#include <stdlib.h>
#include <string.h>

/* casino_thb(tables, deck: uint8[n], flops: uint8[3f], weights: int64[f], line: uint8[16], ante: int64[L],
 *            scale, ties, stake: int8[f * holes] or empty, out: int64[f * holes * 2], tally: int64[9 L + 1])
 * Texas Hold'em Bonus, flop by flop (no dealer qualifier; the player's flop bet is 2 antes, the
 * turn and river bets 1 each, the ante pays its line's pay on a win).  Each unordered turn and
 * river is walked once and counted both ways round (either card the turn).  Without ``stake``:
 * out[i, h] = the value (times scale, summed over every turn, river and dealer hand) of playing
 * on without a turn bet and with one, each with the better river-bet choice per turn card.  With
 * ``stake`` (-1 folded before the flop, 0 played without the turn bet, 1 with it): the same walk
 * first makes each turn card's river-bet choice, a second tallies the deals: tally[(s - 2) * 3 L +
 * outcome * L + line] for s antes of play bets (2..4) and outcome win, tie, lose; tally[9 L] the
 * deals folded. */
static PyObject *casino_thb(PyObject *Py_UNUSED(self), PyObject *args)
{
    const cl_poker_tables *t;
    Py_buffer deck, flops, weights, line, ante, stake, out, tally;
    long long scale;
    int ties;
    if (!PyArg_ParseTuple(args, "O&y*y*y*y*y*Liy*w*w*", cl_tables_arg, &t, &deck, &flops, &weights, &line, &ante, &scale,
                          &ties, &stake, &out, &tally))
        return NULL;
    int64_t *turns = NULL;
    he_board *w = NULL;
    const int n = deck.len > 52 ? 53 : (int)deck.len, f = (int)(flops.len / 3), r = n - 3, lines = (int)(ante.len / 8);
    const int holes = r * (r - 1) / 2, tallying = stake.len > 0;
    const uint8_t *cards = deck.buf, *flop = flops.buf, *lineof = line.buf;
    const int8_t *stakes = stake.buf;
    const int64_t *weight = weights.buf, *pays = ante.buf;
    int bad = !he_flop_args_ok(cards, n, flop, flops.len, weight, weights.len, lineof, line.len, pays, ante.len, scale)
              || out.len != (tallying ? 0 : (Py_ssize_t)f * holes * 16) || tally.len != (tallying ? (9 * lines + 1) * 8 : 0)
              || (tallying && stake.len != (Py_ssize_t)f * holes);
    for (Py_ssize_t i = 0; !bad && i < stake.len; i++)
        bad = stakes[i] < -1 || stakes[i] > 1;
    CL_FAIL_IF(bad, "casino_thb: bad arguments");
    turns = malloc((size_t)r * (size_t)holes * 3 * sizeof *turns);
    w = malloc(sizeof *w);
    if (turns == NULL || w == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    int64_t *sum = tally.buf;
    if (tallying)
        memset(sum, 0, (size_t)tally.len);
    memset(w->group, 0, sizeof w->group);
    for (int i = 0; i < f; i++) {
        uint8_t rest[52];
        uint64_t key, mask;
        he_flop(t, flop + 3 * i, cards, n, &key, &mask, rest);
        memset(turns, 0, (size_t)r * (size_t)holes * 3 * sizeof *turns);
        for (int walk = 0; walk < 1 + tallying; walk++)
            for (int river = 1; river < r; river++)
                for (int turn = 0; turn < river; turn++) {
                    he_board_of(t, w, key, mask, rest, r, turn, river, 0);
                    for (int h = 0; h < w->count; h++) {
                        const int hole = (w->second[h] * (w->second[h] - 1)) / 2 + w->first[h];
                        const int l = lineof[w->strength[h] >> CL_CATEGORY_SHIFT];
                        const int64_t win = w->below[h], tie = w->equal[h], lose = w->dealer - win - tie;
                        if (walk == 0) {
                            for (int s = 2; s <= 4; s++) {
                                const int64_t v = win * (s * scale + pays[l]) - lose * (1 + s) * scale;
                                turns[((size_t)turn * holes + hole) * 3 + s - 2] += v;
                                turns[((size_t)river * holes + hole) * 3 + s - 2] += v;
                            }
                            continue;
                        }
                        const int st = stakes[(size_t)i * holes + hole];
                        if (st < 0)
                            continue;
                        const int64_t o[3] = {win, tie, lose};
                        for (int side = 0; side < 2; side++) {  /* either card the turn */
                            const int64_t *v = turns + ((size_t)(side ? river : turn) * holes + hole) * 3 + st;
                            const int more = ties ? v[1] >= v[0] : v[1] > v[0];
                            const int s = 2 + st + more;
                            for (int c = 0; c < 3; c++)
                                sum[(s - 2) * 3 * lines + c * lines + l] += weight[i] * o[c];
                        }
                    }
                }
        if (tallying) {
            const int64_t deals = (int64_t)(r - 2) * (r - 3) * ((r - 4) * (r - 5) / 2);
            for (int h = 0; h < holes; h++)
                if (stakes[(size_t)i * holes + h] < 0)
                    sum[9 * lines] += weight[i] * deals;
            continue;
        }
        int64_t *o = (int64_t *)out.buf + (size_t)i * holes * 2;
        for (int h = 0; h < holes; h++) {
            int a = 0, b = 1;
            while ((b * (b - 1)) / 2 + a != h) {  /* the hole's two cards, by its colex index */
                if (++a == b) {
                    a = 0;
                    b++;
                }
            }
            int64_t plain = 0, bet = 0;
            for (int c = 0; c < r; c++) {
                if (c == a || c == b)
                    continue;
                const int64_t *v = turns + ((size_t)c * holes + h) * 3;
                plain += (ties ? v[1] >= v[0] : v[1] > v[0]) ? v[1] : v[0];
                bet += (ties ? v[2] >= v[1] : v[2] > v[1]) ? v[2] : v[1];
            }
            o[2 * h] = plain;
            o[2 * h + 1] = bet;
        }
    }
    Py_END_ALLOW_THREADS
done:
    free(turns);
    free(w);
    return CL_RELEASE_NONE(&deck, &flops, &weights, &line, &ante, &stake, &out, &tally);
}

/* casino_thb_turn(tables, deck: uint8[n], deals: uint8[6m] (hole cards, flop, turn), bets: int8[m]
 *                 (0 or 1: the flop's turn bet made), line: uint8[16], ante: int64[L], scale, ties,
 *                 out: uint8[m] or int64[2m]) -> None
 * Texas Hold'em Bonus's river-bet choice after the turn for given deals, every river card and
 * dealer hand counted one by one (the seeded simulation's own route): out[i] = 1 to bet; or, when
 * out holds two int64 per deal, the two values (times scale, summed over every river card and
 * dealer hand) of checking and of betting: out[2 i], out[2 i + 1]. */
static PyObject *casino_thb_turn(PyObject *Py_UNUSED(self), PyObject *args)
{
    const cl_poker_tables *t;
    Py_buffer deck, deals, bets, line, ante, out;
    long long scale;
    int ties;
    if (!PyArg_ParseTuple(args, "O&y*y*y*y*y*Liw*", cl_tables_arg, &t, &deck, &deals, &bets, &line, &ante, &scale, &ties,
                          &out))
        return NULL;
    const int n = deck.len > 52 ? 53 : (int)deck.len, lines = (int)(ante.len / 8);
    const Py_ssize_t m = deals.len / 6;
    const uint8_t *cards = deck.buf, *deal = deals.buf, *lineof = line.buf;
    const int8_t *made = bets.buf;
    const int64_t *pays = ante.buf;
    const int values = m > 0 && out.len == 16 * m;
    uint64_t seen = 0;
    int bad = deals.len % 6 != 0 || bets.len != m || ante.len % 8 != 0 || (out.len != m && !values) || scale < 1
              || scale > (1LL << 20) || !he_deck_ok(cards, n, &seen) || !he_lines_ok(lineof, line.len, lines, pays)
              || !he_deals_ok(deal, m, 6, seen);
    for (Py_ssize_t i = 0; !bad && i < m; i++)
        bad = made[i] < 0 || made[i] > 1;
    CL_FAIL_IF(bad, "casino_thb_turn: bad arguments");
    Py_BEGIN_ALLOW_THREADS
    uint8_t *o = out.buf;
    for (Py_ssize_t i = 0; i < m; i++) {
        const uint8_t *d = deal + 6 * i;
        uint64_t bmask, used;
        const uint64_t board = he_key(t, d + 2, 4, &bmask, &used);
        used |= UINT64_C(1) << d[0] | UINT64_C(1) << d[1];
        int64_t value[2] = {0, 0};
        for (int river = 0; river < n; river++) {
            const uint8_t c = cards[river];
            if (used >> c & 1)
                continue;
            const uint64_t key = board + t->key[c], mask = bmask | t->bit[c];
            const uint32_t me = cl_poker_value(t, key + t->key[d[0]] + t->key[d[1]], mask | t->bit[d[0]] | t->bit[d[1]]);
            const int64_t pay = pays[lineof[me >> CL_CATEGORY_SHIFT]];
            for (int b = 1; b < n; b++)
                for (int a = 0; a < b; a++) {
                    if ((used >> cards[a] & 1) || (used >> cards[b] & 1) || a == river || b == river)
                        continue;
                    const uint32_t them = cl_poker_value(t, key + t->key[cards[a]] + t->key[cards[b]],
                                                         mask | t->bit[cards[a]] | t->bit[cards[b]]);
                    for (int more = 0; more < 2; more++) {
                        const int64_t s = 2 + made[i] + more;
                        value[more] += me > them ? s * scale + pay : me == them ? 0 : -(1 + s) * scale;
                    }
                }
        }
        if (values)
            memcpy((int64_t *)out.buf + 2 * i, value, sizeof value);
        else
            o[i] = (uint8_t)(ties ? value[1] >= value[0] : value[1] > value[0]);
    }
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&deck, &deals, &bets, &line, &ante, &out);
}

CL_METHODS(casino_thb,
    CL_METHOD(casino_thb, "casino_thb(tables, deck, flops, weights, line, ante, scale, ties, stake, out, tally): "
                          "Texas Hold'em Bonus exactly, flop by flop."),
    CL_METHOD(casino_thb_turn, "casino_thb_turn(tables, deck, deals, bets, line, ante, scale, ties, out): "
                               "Texas Hold'em Bonus's turn decisions of given deals."));
