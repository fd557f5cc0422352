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
#include "holdem_board.h"
#include "poker.h"

#include <stdlib.h>
#include <string.h>

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
    const int n = deck.len > 52 ? 53 : (int)deck.len, f = (int)(flops.len / 3), r = n - 3,
              k = lines >= 1 && lines <= HE_MAX_LINES ? 2 * lines + 2 : 0; /* no overflow before the check */
    const int holes = r * (r - 1) / 2;
    const uint8_t *cards = deck.buf, *flop = flops.buf, *lineof = line.buf;
    const int64_t *weight = weights.buf, *pay = pays.buf;
    const int bad = lines < 1 || lines > HE_MAX_LINES || pays.len != lines * 8
                    || !he_flop_args_ok(cards, n, flop, flops.len, weight, weights.len, lineof, line.len, pay, pays.len,
                                        scale)
                    || call < 0 || call > 100 || ev.len != (Py_ssize_t)f * holes * 8 || tally.len != (2 * k + 1) * 8;
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
        uint64_t key, mask;
        he_flop(t, flop + 3 * i, cards, n, &key, &mask, rest);
        memset(acc, 0, (size_t)holes * (size_t)k * sizeof *acc);
        for (int river = 1; river < r; river++)
            for (int turn = 0; turn < river; turn++) {
                he_board_of(t, w, key, mask, rest, r, turn, river, qualify);
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

CL_METHODS(casino_holdem,
    CL_METHOD(casino_holdem, "casino_holdem(tables, deck, flops, weights, qualify, line, lines, pays, scale, call, ties, ev, "
                             "tally): Casino Hold'em exactly, flop by flop."));
