/* Ultimate Texas Hold'em exactly: for each flop (one per suit class) and hole hand, every turn,
 * river and dealer hand, by the board sweep of holdem_board.h; and the river choice of given deals
 * dealer hand by dealer hand (the simulation's own route).  Wrappers: cardlab.casino.kernel.uth,
 * uth_river.
 */
#include "cards.h"
#include "core.h"
#include "holdem_board.h"
#include "poker.h"

#include <stdlib.h>
#include <string.h>

/* Ultimate Texas Hold'em's five outcome counts of holding h (win with the dealer qualifying, win
 * against a dealer who does not, tie, lose to a qualifying dealer, lose to one who does not). */
static void he_uth_outcomes(const he_board *w, int h, uint32_t qualify, int64_t o[5])
{
    const int64_t below = w->below[h], equal = w->equal[h], nq = w->nq[h];
    if (w->strength[h] >= qualify) {
        o[0] = below - nq, o[1] = nq, o[2] = equal, o[3] = w->dealer - below - equal, o[4] = 0;
    } else {
        o[0] = 0, o[1] = below, o[2] = equal, o[3] = w->dealer - nq, o[4] = nq - below - equal;
    }
}

/* The value (times scale) of playing ``play`` antes with these outcomes: the ante wins or loses
 * only against a qualifying dealer, the blind pays ``blind`` (scaled) on a win and loses on a loss. */
static inline int64_t he_uth_value(const int64_t o[5], int64_t play, int64_t blind, int64_t scale)
{
    return o[0] * ((1 + play) * scale + blind) + o[1] * (play * scale + blind) - o[3] * (2 + play) * scale
           - o[4] * (1 + play) * scale;
}

/* casino_uth(tables, deck: uint8[n], flops: uint8[3f], weights: int64[f], qualify, line: uint8[16],
 *            blind: int64[L], scale, ties, stake: int8[f * holes] or empty, out: int64[f * holes * 4],
 *            tally: int64[20 L + 1]) -> None
 * Ultimate Texas Hold'em, flop by flop.  Without ``stake``: out[i, h] = the value (times scale),
 * summed over every turn, river and dealer hand, of playing 4x and 3x before the flop, 2x on the
 * flop, and of checking to the river and then playing 1x or folding (-2), whichever is better.
 * With ``stake`` (4, 3, 2 or 0: to the river): tally[((p - 1) * 5 + outcome) * L + line] counts
 * the deals played with p antes by outcome and the player's pay line, tally[20 L] the river folds,
 * each weighted by its flop's weight. */
static PyObject *casino_uth(PyObject *Py_UNUSED(self), PyObject *args)
{
    const cl_poker_tables *t;
    Py_buffer deck, flops, weights, line, blind, stake, out, tally;
    unsigned int qualify;
    long long scale;
    int ties;
    if (!PyArg_ParseTuple(args, "O&y*y*y*Iy*y*Liy*w*w*", cl_tables_arg, &t, &deck, &flops, &weights, &qualify, &line,
                          &blind, &scale, &ties, &stake, &out, &tally))
        return NULL;
    int64_t *acc = NULL;
    he_board *w = NULL;
    const int n = deck.len > 52 ? 53 : (int)deck.len, f = (int)(flops.len / 3), r = n - 3, lines = (int)(blind.len / 8);
    const int holes = r * (r - 1) / 2, tallying = stake.len > 0;
    const uint8_t *cards = deck.buf, *flop = flops.buf, *lineof = line.buf;
    const int8_t *stakes = stake.buf;
    const int64_t *weight = weights.buf, *pays = blind.buf;
    int bad = !he_flop_args_ok(cards, n, flop, flops.len, weight, weights.len, lineof, line.len, pays, blind.len, scale)
              || out.len != (tallying ? 0 : (Py_ssize_t)f * holes * 32)
              || tally.len != (tallying ? (20 * lines + 1) * 8 : 0)
              || (tallying && stake.len != (Py_ssize_t)f * holes);
    for (Py_ssize_t i = 0; !bad && i < stake.len; i++)
        bad = !(stakes[i] == 0 || (stakes[i] >= 2 && stakes[i] <= 4));
    CL_FAIL_IF(bad, "casino_uth: bad arguments");
    acc = malloc((size_t)holes * 4 * sizeof *acc);
    w = malloc(sizeof *w);
    if (acc == NULL || w == NULL) {
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
        memset(acc, 0, (size_t)holes * 4 * sizeof *acc);
        for (int river = 1; river < r; river++)
            for (int turn = 0; turn < river; turn++) {
                he_board_of(t, w, key, mask, rest, r, turn, river, qualify);
                const int64_t fold = -2 * scale * w->dealer;
                for (int h = 0; h < w->count; h++) {
                    int64_t o[5];
                    he_uth_outcomes(w, h, qualify, o);
                    const int l = lineof[w->strength[h] >> CL_CATEGORY_SHIFT];
                    const int hole = (w->second[h] * (w->second[h] - 1)) / 2 + w->first[h];
                    const int64_t one = he_uth_value(o, 1, pays[l], scale);
                    const int bets = ties ? one >= fold : one > fold;
                    if (!tallying) {
                        int64_t *row = acc + (size_t)hole * 4;
                        row[0] += he_uth_value(o, 4, pays[l], scale);
                        row[1] += he_uth_value(o, 3, pays[l], scale);
                        row[2] += he_uth_value(o, 2, pays[l], scale);
                        row[3] += bets ? one : fold;
                        continue;
                    }
                    const int play = stakes[(size_t)i * holes + hole] ? stakes[(size_t)i * holes + hole] : bets ? 1 : 0;
                    if (play == 0) {
                        sum[20 * lines] += weight[i] * w->dealer;
                        continue;
                    }
                    for (int c = 0; c < 5; c++)
                        sum[((play - 1) * 5 + c) * lines + l] += weight[i] * o[c];
                }
            }
        if (!tallying)
            memcpy((int64_t *)out.buf + (size_t)i * holes * 4, acc, (size_t)holes * 4 * sizeof *acc);
    }
    Py_END_ALLOW_THREADS
done:
    free(acc);
    free(w);
    return CL_RELEASE_NONE(&deck, &flops, &weights, &line, &blind, &stake, &out, &tally);
}

/* casino_uth_river(tables, deck: uint8[n], deals: uint8[7m] (hole cards then the board), qualify,
 *                  line: uint8[16], blind: int64[L], scale, ties, out: uint8[m]) -> None
 * Ultimate Texas Hold'em's river decision for given deals, dealer hand by dealer hand (the
 * seeded simulation's own route): out[i] = 1 to play 1x, 0 to fold. */
static PyObject *casino_uth_river(PyObject *Py_UNUSED(self), PyObject *args)
{
    const cl_poker_tables *t;
    Py_buffer deck, deals, line, blind, out;
    unsigned int qualify;
    long long scale;
    int ties;
    if (!PyArg_ParseTuple(args, "O&y*y*Iy*y*Liw*", cl_tables_arg, &t, &deck, &deals, &qualify, &line, &blind, &scale,
                          &ties, &out))
        return NULL;
    const int n = deck.len > 52 ? 53 : (int)deck.len, lines = (int)(blind.len / 8);
    const Py_ssize_t m = deals.len / 7;
    const uint8_t *cards = deck.buf, *deal = deals.buf, *lineof = line.buf;
    const int64_t *pays = blind.buf;
    uint64_t seen = 0;
    const int bad = deals.len % 7 != 0 || blind.len % 8 != 0 || out.len != m || scale < 1 || scale > (1LL << 20)
                    || !he_deck_ok(cards, n, &seen) || !he_lines_ok(lineof, line.len, lines, pays)
                    || !he_deals_ok(deal, m, 7, seen);
    CL_FAIL_IF(bad, "casino_uth_river: bad arguments");
    Py_BEGIN_ALLOW_THREADS
    uint8_t *o = out.buf;
    for (Py_ssize_t i = 0; i < m; i++) {
        const uint8_t *d = deal + 7 * i;
        uint64_t bmask, used;
        const uint64_t board = he_key(t, d + 2, 5, &bmask, &used);
        used |= UINT64_C(1) << d[0] | UINT64_C(1) << d[1];
        const uint32_t me = cl_poker_value(t, board + t->key[d[0]] + t->key[d[1]], bmask | t->bit[d[0]] | t->bit[d[1]]);
        const int64_t blind_pay = pays[lineof[me >> CL_CATEGORY_SHIFT]];
        int64_t outcome[5] = {0, 0, 0, 0, 0}, dealers = 0;
        for (int b = 1; b < n; b++)
            for (int a = 0; a < b; a++) {
                if ((used >> cards[a] & 1) || (used >> cards[b] & 1))
                    continue;
                const uint32_t them = cl_poker_value(t, board + t->key[cards[a]] + t->key[cards[b]],
                                                     bmask | t->bit[cards[a]] | t->bit[cards[b]]);
                const int q = them >= qualify;
                outcome[me > them ? (q ? 0 : 1) : me == them ? 2 : (q ? 3 : 4)]++;
                dealers++;
            }
        const int64_t value = he_uth_value(outcome, 1, blind_pay, scale), fold = -2 * scale * dealers;
        o[i] = (uint8_t)(ties ? value >= fold : value > fold);
    }
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&deck, &deals, &line, &blind, &out);
}

CL_METHODS(casino_uth,
    CL_METHOD(casino_uth, "casino_uth(tables, deck, flops, weights, qualify, line, blind, scale, ties, stake, out, tally): "
                          "Ultimate Texas Hold'em exactly, flop by flop."),
    CL_METHOD(casino_uth_river, "casino_uth_river(tables, deck, deals, qualify, line, blind, scale, ties, out): "
                                "Ultimate Texas Hold'em's river decisions of given deals."));
