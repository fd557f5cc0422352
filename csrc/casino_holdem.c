/* Casino Hold'em exactly: for each flop (given, e.g. one per suit class) and each two-card hole
 * hand, every turn and river and every dealer hand, counted by outcome; the call decided by the
 * exact expectation.  The wrapper is cardlab.casino.kernel.holdem (every buffer checked there
 * and here).
 *
 * For one flop and one turn-and-river (the board), the C(r, 2) two-card holdings of the r cards
 * left are valued once (cardlab's evaluator, poker.h) and sorted by strength (a radix sort).
 * Every holding is both a player hand and a dealer hand, so one sweep up the sorted list gives
 * each player hand the dealer holdings below it, equal to it and below the qualifier that miss
 * its two cards: those counted so far, less those holding either of its cards (a count per card),
 * plus the hand itself where it was taken off twice.  C(n-3, 2) boards per flop, each
 * C(n-5, 2) evaluations, a sort and a sweep, instead of C(n-5, 2) * C(n-7, 2) comparisons.
 *
 * Outcome counters per hole hand (K = 2 * L + 2 for L ante pay lines): the dealer does not
 * qualify, by the player's pay line (L); the player wins, by pay line (L); tie; dealer wins.
 * The ante pays its line's pay when the dealer does not qualify or the player wins; the call
 * (``call`` antes) pays even money when the player wins, pushes when the dealer does not qualify.
 */
#include "cards.h"
#include "core.h"
#include "poker.h"

#include <stdlib.h>
#include <string.h>

#define HE_MAX_LINES 16
#define HE_MAX_HOLES 1326

typedef struct {
    uint64_t sort[HE_MAX_HOLES], spare[HE_MAX_HOLES];
    uint32_t strength[HE_MAX_HOLES];
    uint8_t first[HE_MAX_HOLES], second[HE_MAX_HOLES];
    int cnt[52], group[52], below_q[52];
    int count;            /* holdings on this board */
    int64_t dealer;       /* dealer hands against each holding: C(m - 2, 2) */
    int64_t below[HE_MAX_HOLES], equal[HE_MAX_HOLES], nq[HE_MAX_HOLES];  /* by holding */
} he_board;

/* Sort the low ``count`` keys (strength << 11 | holding) by strength: three 8-bit LSD passes. */
static void he_sort(he_board *w, int count)
{
    uint64_t *from = w->sort, *to = w->spare;
    for (int shift = 11; shift < 35; shift += 8) {
        int bucket[257] = {0};
        for (int i = 0; i < count; i++)
            bucket[((from[i] >> shift) & 255) + 1]++;
        for (int d = 0; d < 256; d++)
            bucket[d + 1] += bucket[d];
        for (int i = 0; i < count; i++)
            to[bucket[(from[i] >> shift) & 255]++] = from[i];
        uint64_t *swap = from;
        from = to;
        to = swap;
    }
    if (from != w->sort)
        memcpy(w->sort, from, (size_t)count * sizeof *from);
}

/* One board: value the two-card holdings of the m cards ``avail`` (indices among the r cards off
 * the flop; ``cards`` the card id of each index), and give each holding h the dealer holdings that
 * miss its cards and are below it (w->below[h]), equal to it (w->equal[h]) and below ``qualify``
 * (w->nq[h]); w->dealer is the number of such dealer holdings. */
static void he_board_counts(const cl_poker_tables *t, he_board *w, uint64_t key, uint64_t mask,
                            const int *avail, int m, const uint8_t *cards, uint32_t qualify)
{
    int count = 0;
    for (int j = 1; j < m; j++)
        for (int i = 0; i < j; i++) {
            const uint8_t a = cards[avail[i]], b = cards[avail[j]];
            const uint32_t s = cl_poker_value(t, key + t->key[a] + t->key[b], mask | t->bit[a] | t->bit[b]);
            w->strength[count] = s;
            w->first[count] = (uint8_t)avail[i];
            w->second[count] = (uint8_t)avail[j];
            w->sort[count] = (uint64_t)s << 11 | (uint64_t)count;
            count++;
        }
    w->count = count;
    w->dealer = (int64_t)(m - 2) * (m - 3) / 2;
    he_sort(w, count);
    int qualified_below = 0;
    memset(w->below_q, 0, sizeof w->below_q);
    memset(w->cnt, 0, sizeof w->cnt);
    for (int h = 0; h < count; h++)
        if (w->strength[h] < qualify) {
            qualified_below++;
            w->below_q[w->first[h]]++;
            w->below_q[w->second[h]]++;
        }
    int done = 0;
    for (int start = 0; start < count;) {
        const uint32_t s = (uint32_t)(w->sort[start] >> 11);
        int end = start;
        while (end < count && (uint32_t)(w->sort[end] >> 11) == s)
            end++;
        for (int g = start; g < end; g++) {
            const int h = (int)(w->sort[g] & 2047);
            w->group[w->first[h]]++;
            w->group[w->second[h]]++;
        }
        for (int g = start; g < end; g++) {
            const int h = (int)(w->sort[g] & 2047), a = w->first[h], b = w->second[h];
            w->below[h] = done - w->cnt[a] - w->cnt[b];
            w->equal[h] = (end - start) - w->group[a] - w->group[b] + 1;
            w->nq[h] = qualified_below - w->below_q[a] - w->below_q[b] + (s < qualify);
        }
        for (int g = start; g < end; g++) {
            const int h = (int)(w->sort[g] & 2047);
            w->group[w->first[h]] = w->group[w->second[h]] = 0;
            w->cnt[w->first[h]]++;
            w->cnt[w->second[h]]++;
        }
        done += end - start;
        start = end;
    }
}

/* Casino Hold'em's counters of one board, added to each hole hand's row of acc (k per row). */
static void he_casino_rows(const he_board *w, uint32_t qualify, const uint8_t *line, int lines, int64_t *acc, int k)
{
    for (int h = 0; h < w->count; h++) {
        const uint32_t s = w->strength[h];
        const int a = w->first[h], b = w->second[h];
        const int64_t nq = w->nq[h];
        const int64_t win = s >= qualify ? w->below[h] - nq : 0, tie = s >= qualify ? w->equal[h] : 0;
        const int l = line[s >> CL_CATEGORY_SHIFT];
        int64_t *row = acc + (size_t)((b * (b - 1)) / 2 + a) * (size_t)k;
        row[l] += nq;
        row[lines + l] += win;
        row[2 * lines] += tie;
        row[2 * lines + 1] += w->dealer - nq - win - tie;
    }
}

/* casino_holdem(tables, deck: uint8[n], flops: uint8[3f], weights: int64[f], qualify, line: uint8[16],
 *               lines, pays: int64[lines], scale, call, ties, ev: int64[f * C(n-3,2)],
 *               tally: int64[2k + 1]) -> None
 * For flop i and hole hand h (colex index among the deck's cards off the flop, in deck order):
 * ev[i, h] = the expected result of calling, times scale, summed over every turn, river and
 * dealer hand (folding gives -scale per deal).  Calls when ev beats folding (or equals it, with
 * ties).  tally[0..k) = the counters of the calls and tally[k..2k) those of the folds (each deal
 * once, weighted by the flop's weight), tally[2k] the deals folded. */
static PyObject *casino_holdem(PyObject *Py_UNUSED(self), PyObject *args)
{
    const cl_poker_tables *t;
    Py_buffer deck, flops, weights, line, pays, ev, tally;
    unsigned int qualify;
    int lines, ties;
    long long scale, call;
    if (!PyArg_ParseTuple(args, "O&y*y*y*Iy*iy*LLiw*w*", cl_tables_arg, &t, &deck, &flops, &weights, &qualify, &line,
                          &lines, &pays, &scale, &call, &ties, &ev, &tally))
        return NULL;
    int64_t *acc = NULL;
    he_board *w = NULL;
    const int n = (int)deck.len, f = (int)(flops.len / 3), r = n - 3, k = 2 * lines + 2;
    const int holes = r * (r - 1) / 2;
    const uint8_t *cards = deck.buf, *flop = flops.buf, *lineof = line.buf;
    const int64_t *weight = weights.buf, *pay = pays.buf;
    int bad = n < 9 || n > 52 || flops.len % 3 != 0 || weights.len != (Py_ssize_t)f * 8 || line.len != 16
              || lines < 1 || lines > HE_MAX_LINES || pays.len != lines * 8 || scale < 1 || scale > (1LL << 20)
              || call < 0 || call > 100 || ev.len != (Py_ssize_t)f * holes * 8 || tally.len != (2 * k + 1) * 8;
    uint64_t seen = 0;
    for (int i = 0; !bad && i < n; i++) {
        bad = cards[i] >= 52 || (seen >> cards[i] & 1);
        seen |= UINT64_C(1) << (cards[i] & 63);
    }
    for (int i = 0; !bad && i < 16; i++)
        bad = lineof[i] >= lines;
    for (int i = 0; !bad && i < lines; i++)
        bad = pay[i] < 0 || pay[i] > (INT64_C(1) << 40);
    for (int i = 0; !bad && i < f; i++) {
        bad = weight[i] < 0 || weight[i] > (INT64_C(1) << 20) || flop[3 * i] == flop[3 * i + 1]
              || flop[3 * i] == flop[3 * i + 2] || flop[3 * i + 1] == flop[3 * i + 2];
        for (int j = 0; !bad && j < 3; j++)
            bad = flop[3 * i + j] >= 52 || !(seen >> flop[3 * i + j] & 1);
    }
    CL_FAIL_IF(bad, "casino_holdem: bad arguments");
    acc = malloc((size_t)holes * (size_t)k * sizeof *acc);
    w = malloc(sizeof *w);
    if (acc == NULL || w == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    int64_t *out = ev.buf, *sum = tally.buf;
    memset(sum, 0, (size_t)tally.len);
    memset(w->group, 0, sizeof w->group);
    const int64_t deals = (int64_t)(r - 2) * (r - 3) / 2 * ((r - 4) * (r - 5) / 2);
    for (int i = 0; i < f; i++) {
        uint8_t rest[52];
        int m = 0;
        uint64_t key = CL_SUIT_START, mask = 0;
        for (int j = 0; j < 3; j++) {
            key += t->key[flop[3 * i + j]];
            mask |= t->bit[flop[3 * i + j]];
        }
        for (int j = 0; j < n; j++)
            if (cards[j] != flop[3 * i] && cards[j] != flop[3 * i + 1] && cards[j] != flop[3 * i + 2])
                rest[m++] = cards[j];
        memset(acc, 0, (size_t)holes * (size_t)k * sizeof *acc);
        for (int river = 1; river < r; river++)
            for (int turn = 0; turn < river; turn++) {
                int avail[52], a = 0;
                for (int j = 0; j < r; j++)
                    if (j != turn && j != river)
                        avail[a++] = j;
                he_board_counts(t, w, key + t->key[rest[turn]] + t->key[rest[river]],
                                mask | t->bit[rest[turn]] | t->bit[rest[river]], avail, a, rest, qualify);
                he_casino_rows(w, qualify, lineof, lines, acc, k);
            }
        for (int h = 0; h < holes; h++) {
            const int64_t *row = acc + (size_t)h * (size_t)k;
            int64_t value = -row[2 * lines + 1] * (1 + call) * scale;
            for (int l = 0; l < lines; l++)
                value += row[l] * pay[l] + row[lines + l] * (pay[l] + call * scale);
            out[(size_t)i * holes + h] = value;
            const int calls = ties ? value >= -deals * scale : value > -deals * scale;
            int64_t *into = sum + (calls ? 0 : k);
            for (int c = 0; c < k; c++)
                into[c] += weight[i] * row[c];
            if (!calls)
                sum[2 * k] += weight[i] * deals;
        }
    }
    Py_END_ALLOW_THREADS
done:
    free(acc);
    free(w);
    return CL_RELEASE_NONE(&deck, &flops, &weights, &line, &pays, &ev, &tally);
}

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
    const int n = (int)deck.len, f = (int)(flops.len / 3), r = n - 3, lines = (int)(blind.len / 8);
    const int holes = r * (r - 1) / 2, tallying = stake.len > 0;
    const uint8_t *cards = deck.buf, *flop = flops.buf, *lineof = line.buf;
    const int8_t *stakes = stake.buf;
    const int64_t *weight = weights.buf, *pays = blind.buf;
    int bad = n < 9 || n > 52 || flops.len % 3 != 0 || weights.len != (Py_ssize_t)f * 8 || line.len != 16
              || lines < 1 || lines > HE_MAX_LINES || blind.len % 8 != 0 || scale < 1 || scale > (1LL << 20)
              || out.len != (tallying ? 0 : (Py_ssize_t)f * holes * 32)
              || tally.len != (tallying ? (20 * lines + 1) * 8 : 0)
              || (tallying && stake.len != (Py_ssize_t)f * holes);
    uint64_t seen = 0;
    for (int i = 0; !bad && i < n; i++) {
        bad = cards[i] >= 52 || (seen >> cards[i] & 1);
        seen |= UINT64_C(1) << (cards[i] & 63);
    }
    for (int i = 0; !bad && i < 16; i++)
        bad = lineof[i] >= lines;
    for (int i = 0; !bad && i < lines; i++)
        bad = pays[i] < 0 || pays[i] > (INT64_C(1) << 40);
    for (Py_ssize_t i = 0; !bad && i < stake.len; i++)
        bad = !(stakes[i] == 0 || (stakes[i] >= 2 && stakes[i] <= 4));
    for (int i = 0; !bad && i < f; i++) {
        bad = weight[i] < 0 || weight[i] > (INT64_C(1) << 20) || flop[3 * i] == flop[3 * i + 1]
              || flop[3 * i] == flop[3 * i + 2] || flop[3 * i + 1] == flop[3 * i + 2];
        for (int j = 0; !bad && j < 3; j++)
            bad = flop[3 * i + j] >= 52 || !(seen >> flop[3 * i + j] & 1);
    }
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
        int m = 0;
        uint64_t key = CL_SUIT_START, mask = 0;
        for (int j = 0; j < 3; j++) {
            key += t->key[flop[3 * i + j]];
            mask |= t->bit[flop[3 * i + j]];
        }
        for (int j = 0; j < n; j++)
            if (cards[j] != flop[3 * i] && cards[j] != flop[3 * i + 1] && cards[j] != flop[3 * i + 2])
                rest[m++] = cards[j];
        memset(acc, 0, (size_t)holes * 4 * sizeof *acc);
        for (int river = 1; river < r; river++)
            for (int turn = 0; turn < river; turn++) {
                int avail[52], a = 0;
                for (int j = 0; j < r; j++)
                    if (j != turn && j != river)
                        avail[a++] = j;
                he_board_counts(t, w, key + t->key[rest[turn]] + t->key[rest[river]],
                                mask | t->bit[rest[turn]] | t->bit[rest[river]], avail, a, rest, qualify);
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
    const int n = (int)deck.len, lines = (int)(blind.len / 8);
    const Py_ssize_t m = deals.len / 7;
    const uint8_t *cards = deck.buf, *deal = deals.buf, *lineof = line.buf;
    const int64_t *pays = blind.buf;
    int bad = n < 9 || n > 52 || deals.len % 7 != 0 || line.len != 16 || lines < 1 || lines > HE_MAX_LINES
              || blind.len % 8 != 0 || out.len != m || scale < 1 || scale > (1LL << 20);
    uint64_t seen = 0;
    for (int i = 0; !bad && i < n; i++) {
        bad = cards[i] >= 52 || (seen >> cards[i] & 1);
        seen |= UINT64_C(1) << (cards[i] & 63);
    }
    for (int i = 0; !bad && i < 16; i++)
        bad = lineof[i] >= lines;
    for (Py_ssize_t i = 0; !bad && i < m; i++) {
        uint64_t used = 0;
        for (int j = 0; !bad && j < 7; j++) {
            bad = deal[7 * i + j] >= 52 || !(seen >> deal[7 * i + j] & 1) || (used >> deal[7 * i + j] & 1);
            used |= UINT64_C(1) << (deal[7 * i + j] & 63);
        }
    }
    CL_FAIL_IF(bad, "casino_uth_river: bad arguments");
    Py_BEGIN_ALLOW_THREADS
    uint8_t *o = out.buf;
    for (Py_ssize_t i = 0; i < m; i++) {
        const uint8_t *d = deal + 7 * i;
        uint64_t board = CL_SUIT_START, bmask = 0, used = 0;
        for (int j = 2; j < 7; j++) {
            board += t->key[d[j]];
            bmask |= t->bit[d[j]];
        }
        for (int j = 0; j < 7; j++)
            used |= UINT64_C(1) << d[j];
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
    const int n = (int)deck.len, f = (int)(flops.len / 3), r = n - 3, lines = (int)(ante.len / 8);
    const int holes = r * (r - 1) / 2, tallying = stake.len > 0;
    const uint8_t *cards = deck.buf, *flop = flops.buf, *lineof = line.buf;
    const int8_t *stakes = stake.buf;
    const int64_t *weight = weights.buf, *pays = ante.buf;
    int bad = n < 9 || n > 52 || flops.len % 3 != 0 || weights.len != (Py_ssize_t)f * 8 || line.len != 16
              || lines < 1 || lines > HE_MAX_LINES || ante.len % 8 != 0 || scale < 1 || scale > (1LL << 20)
              || out.len != (tallying ? 0 : (Py_ssize_t)f * holes * 16)
              || tally.len != (tallying ? (9 * lines + 1) * 8 : 0)
              || (tallying && stake.len != (Py_ssize_t)f * holes);
    uint64_t seen = 0;
    for (int i = 0; !bad && i < n; i++) {
        bad = cards[i] >= 52 || (seen >> cards[i] & 1);
        seen |= UINT64_C(1) << (cards[i] & 63);
    }
    for (int i = 0; !bad && i < 16; i++)
        bad = lineof[i] >= lines;
    for (int i = 0; !bad && i < lines; i++)
        bad = pays[i] < 0 || pays[i] > (INT64_C(1) << 40);
    for (Py_ssize_t i = 0; !bad && i < stake.len; i++)
        bad = stakes[i] < -1 || stakes[i] > 1;
    for (int i = 0; !bad && i < f; i++) {
        bad = weight[i] < 0 || weight[i] > (INT64_C(1) << 20) || flop[3 * i] == flop[3 * i + 1]
              || flop[3 * i] == flop[3 * i + 2] || flop[3 * i + 1] == flop[3 * i + 2];
        for (int j = 0; !bad && j < 3; j++)
            bad = flop[3 * i + j] >= 52 || !(seen >> flop[3 * i + j] & 1);
    }
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
        int m = 0;
        uint64_t key = CL_SUIT_START, mask = 0;
        for (int j = 0; j < 3; j++) {
            key += t->key[flop[3 * i + j]];
            mask |= t->bit[flop[3 * i + j]];
        }
        for (int j = 0; j < n; j++)
            if (cards[j] != flop[3 * i] && cards[j] != flop[3 * i + 1] && cards[j] != flop[3 * i + 2])
                rest[m++] = cards[j];
        memset(turns, 0, (size_t)r * (size_t)holes * 3 * sizeof *turns);
        for (int walk = 0; walk < 1 + tallying; walk++)
            for (int river = 1; river < r; river++)
                for (int turn = 0; turn < river; turn++) {
                    int avail[52], a = 0;
                    for (int j = 0; j < r; j++)
                        if (j != turn && j != river)
                            avail[a++] = j;
                    he_board_counts(t, w, key + t->key[rest[turn]] + t->key[rest[river]],
                                    mask | t->bit[rest[turn]] | t->bit[rest[river]], avail, a, rest, 0);
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
 *                 out: uint8[m]) -> None
 * Texas Hold'em Bonus's river-bet choice after the turn for given deals, every river card and
 * dealer hand counted one by one (the seeded simulation's own route): out[i] = 1 to bet. */
static PyObject *casino_thb_turn(PyObject *Py_UNUSED(self), PyObject *args)
{
    const cl_poker_tables *t;
    Py_buffer deck, deals, bets, line, ante, out;
    long long scale;
    int ties;
    if (!PyArg_ParseTuple(args, "O&y*y*y*y*y*Liw*", cl_tables_arg, &t, &deck, &deals, &bets, &line, &ante, &scale, &ties,
                          &out))
        return NULL;
    const int n = (int)deck.len, lines = (int)(ante.len / 8);
    const Py_ssize_t m = deals.len / 6;
    const uint8_t *cards = deck.buf, *deal = deals.buf, *lineof = line.buf;
    const int8_t *made = bets.buf;
    const int64_t *pays = ante.buf;
    int bad = n < 9 || n > 52 || deals.len % 6 != 0 || bets.len != m || line.len != 16 || lines < 1
              || lines > HE_MAX_LINES || ante.len % 8 != 0 || out.len != m || scale < 1 || scale > (1LL << 20);
    uint64_t seen = 0;
    for (int i = 0; !bad && i < n; i++) {
        bad = cards[i] >= 52 || (seen >> cards[i] & 1);
        seen |= UINT64_C(1) << (cards[i] & 63);
    }
    for (int i = 0; !bad && i < 16; i++)
        bad = lineof[i] >= lines;
    for (Py_ssize_t i = 0; !bad && i < m; i++) {
        uint64_t used = 0;
        bad = made[i] < 0 || made[i] > 1;
        for (int j = 0; !bad && j < 6; j++) {
            bad = deal[6 * i + j] >= 52 || !(seen >> deal[6 * i + j] & 1) || (used >> deal[6 * i + j] & 1);
            used |= UINT64_C(1) << (deal[6 * i + j] & 63);
        }
    }
    CL_FAIL_IF(bad, "casino_thb_turn: bad arguments");
    Py_BEGIN_ALLOW_THREADS
    uint8_t *o = out.buf;
    for (Py_ssize_t i = 0; i < m; i++) {
        const uint8_t *d = deal + 6 * i;
        uint64_t board = CL_SUIT_START, bmask = 0, used = 0;
        for (int j = 2; j < 6; j++) {
            board += t->key[d[j]];
            bmask |= t->bit[d[j]];
        }
        for (int j = 0; j < 6; j++)
            used |= UINT64_C(1) << d[j];
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
        o[i] = (uint8_t)(ties ? value[1] >= value[0] : value[1] > value[0]);
    }
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&deck, &deals, &bets, &line, &ante, &out);
}

CL_METHODS(casino_holdem,
    CL_METHOD(casino_holdem, "casino_holdem(tables, deck, flops, weights, qualify, line, lines, pays, scale, call, ties, ev, "
                             "tally): Casino Hold'em exactly, flop by flop."),
    CL_METHOD(casino_uth, "casino_uth(tables, deck, flops, weights, qualify, line, blind, scale, ties, stake, out, tally): "
                          "Ultimate Texas Hold'em exactly, flop by flop."),
    CL_METHOD(casino_uth_river, "casino_uth_river(tables, deck, deals, qualify, line, blind, scale, ties, out): "
                                "Ultimate Texas Hold'em's river decisions of given deals."),
    CL_METHOD(casino_thb, "casino_thb(tables, deck, flops, weights, line, ante, scale, ties, stake, out, tally): "
                          "Texas Hold'em Bonus exactly, flop by flop."),
    CL_METHOD(casino_thb_turn, "casino_thb_turn(tables, deck, deals, bets, line, ante, scale, ties, out): "
                               "Texas Hold'em Bonus's turn decisions of given deals."));
