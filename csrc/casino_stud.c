/* Five-card stud against a dealer (Caribbean Stud): for a player hand and the dealer's up card,
 * how many of the dealer's four hidden cards do not qualify, lose to the player, tie, win.
 * The wrapper is cardlab.casino.kernel.stud_versus (every buffer is checked there and here).
 *
 * The deck is n distinct cards at positions 0..n-1; five-card hands are numbered in colex order
 * of their positions (as csrc/casino.c numbers them) and ranked by ``rank``: 0..R-1, higher is
 * better, equal is a tie.
 *
 * Counting by inclusion-exclusion.  For one up card u, every dealer hand holding u is listed
 * once (C(n-1, 4) of them) and tallied under each subset S of its four other cards: for |S| <= 2
 * a cumulative histogram over ranks, for |S| = 3 the sorted ranks of the n-4 hands holding it.
 * The dealer hands below rank t that miss the player's five cards P are then
 *     sum over S subset of P, |S| <= 4, of (-1)^|S| * #{hands holding u and S, rank < t}
 * (|S| = 4 is the single hand u + S): 31 look-ups for each threshold, instead of walking the
 * C(n-6, 4) hands one by one.  The thresholds are the qualifying rank q, max(v, q) and
 * max(v + 1, q) for the player's rank v, which split the hands into the four outcomes (all three
 * are q for a player below q).
 */
#include "cards.h"
#include "core.h"
#include "subsets.h"

#include <stdlib.h>
#include <string.h>

#define SV_MAX_CARDS 52
#define SV_MAX_RANKS 7462

typedef int64_t sv_binom[SV_MAX_CARDS + 1][6];

static void sv_binomials(sv_binom b)
{
    for (int n = 0; n <= SV_MAX_CARDS; n++) {
        b[n][0] = 1;
        for (int k = 1; k < 6; k++)
            b[n][k] = n == 0 ? 0 : b[n - 1][k - 1] + b[n - 1][k];
    }
}

/* The tallies of the dealer hands holding one up card (indices are of the other n - 1 cards). */
typedef struct {
    int ranks;          /* R */
    int32_t *one;       /* [R + 1] hands below each rank */
    int32_t *two;       /* [(n - 1) * (R + 1)] the same, holding one more card */
    uint16_t *three;    /* [C(n-1, 2) * (R + 1)] holding two more cards */
    uint16_t *four;     /* [C(n-1, 3) * (n - 4)] sorted ranks of the hands holding three more */
    int *fill;          /* [C(n-1, 3)] entries of each ``four`` row filled so far */
} sv_tally;

static void sv_free(sv_tally *t)
{
    free(t->one);
    free(t->two);
    free(t->three);
    free(t->four);
    free(t->fill);
}

static int sv_alloc(sv_tally *t, sv_binom b, int n, int ranks)
{
    const size_t width = (size_t)ranks + 1;
    t->ranks = ranks;
    t->one = calloc(width, sizeof *t->one);
    t->two = calloc((size_t)(n - 1) * width, sizeof *t->two);
    t->three = calloc((size_t)b[n - 1][2] * width, sizeof *t->three);
    t->four = malloc((size_t)b[n - 1][3] * (size_t)(n - 4) * sizeof *t->four);
    t->fill = calloc((size_t)b[n - 1][3], sizeof *t->fill);
    return t->one && t->two && t->three && t->four && t->fill;
}

static int sv_cmp(const void *a, const void *b)
{
    return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* Fill the tallies for up card ``up``: counts by rank, then cumulative (entry t = below t). */
static void sv_fill(sv_tally *t, sv_binom b, int n, int up, const uint16_t *rank)
{
    const size_t width = (size_t)t->ranks + 1;
    const int others = n - 1, per_three = n - 4;
    int *fill = t->fill;
    int x[4] = {0, 1, 2, 3};
    do {
        int pos[5], k = 0, placed = 0;
        for (int i = 0; i < 4; i++) {
            int p = x[i] < up ? x[i] : x[i] + 1;
            if (!placed && up < p) {
                pos[k++] = up;
                placed = 1;
            }
            pos[k++] = p;
        }
        if (!placed)
            pos[k++] = up;
        int64_t h = 0;
        for (int i = 0; i < 5; i++)
            h += b[pos[i]][i + 1];
        const uint16_t r = rank[h];
        t->one[r + 1]++;
        for (int i = 0; i < 4; i++)
            t->two[(size_t)x[i] * width + r + 1]++;
        for (int i = 0; i < 4; i++)
            for (int j = i + 1; j < 4; j++)
                t->three[(size_t)(b[x[i]][1] + b[x[j]][2]) * width + r + 1]++;
        for (int skip = 0; skip < 4; skip++) {
            int y[3], m = 0;
            for (int i = 0; i < 4; i++)
                if (i != skip)
                    y[m++] = x[i];
            const int64_t c = b[y[0]][1] + b[y[1]][2] + b[y[2]][3];
            t->four[c * per_three + fill[c]++] = r;
        }
    } while (cl_subset_next_colex(x, 4, others));
    for (size_t i = 1; i < width; i++)
        t->one[i] += t->one[i - 1];
    for (int a = 0; a < others; a++)
        for (size_t i = 1; i < width; i++)
            t->two[a * width + i] += t->two[a * width + i - 1];
    for (int64_t c = 0; c < b[others][2]; c++)
        for (size_t i = 1; i < width; i++)
            t->three[c * width + i] += t->three[c * width + i - 1];
    for (int64_t c = 0; c < b[others][3]; c++)
        qsort(t->four + c * per_three, (size_t)per_three, sizeof *t->four, sv_cmp);
}

/* How many of the sorted ranks ``r[0..m)`` are below ``t``. */
static inline int sv_below(const uint16_t *r, int m, int t)
{
    int lo = 0, hi = m;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (r[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The dealer hands holding the up card and none of the player's cards ``o`` (other-card indices,
 * ascending) below each of the three thresholds ``t``: inclusion-exclusion over o's subsets. */
static void sv_count(const sv_tally *t, sv_binom b, int n, int up, const int *o,
                     const uint16_t *rank, const int th[3], int64_t below[3], int kn)
{
    const size_t width = (size_t)t->ranks + 1;
    const int per_three = n - 4;
    for (int k = 0; k < kn; k++)
        below[k] = t->one[th[k]];
    for (int i = 0; i < 5; i++)
        for (int k = 0; k < kn; k++)
            below[k] -= t->two[(size_t)o[i] * width + th[k]];
    for (int i = 0; i < 5; i++)
        for (int j = i + 1; j < 5; j++) {
            const uint16_t *row = t->three + (size_t)(b[o[i]][1] + b[o[j]][2]) * width;
            for (int k = 0; k < kn; k++)
                below[k] += row[th[k]];
        }
    for (int i = 0; i < 5; i++)
        for (int j = i + 1; j < 5; j++)
            for (int l = j + 1; l < 5; l++) {
                const uint16_t *row = t->four + (b[o[i]][1] + b[o[j]][2] + b[o[l]][3]) * per_three;
                for (int k = 0; k < kn; k++)
                    below[k] -= sv_below(row, per_three, th[k]);
            }
    for (int skip = 0; skip < 5; skip++) {
        int pos[5], m = 0, placed = 0;
        for (int i = 0; i < 5; i++) {
            if (i == skip)
                continue;
            int p = o[i] < up ? o[i] : o[i] + 1;
            if (!placed && up < p) {
                pos[m++] = up;
                placed = 1;
            }
            pos[m++] = p;
        }
        if (!placed)
            pos[m++] = up;
        int64_t h = 0;
        for (int i = 0; i < 5; i++)
            h += b[pos[i]][i + 1];
        for (int k = 0; k < kn; k++)
            below[k] += rank[h] < th[k];
    }
}

/* casino_stud_versus(n, rank: uint16[C(n,5)], R, up, players: uint8[5m], qualify, out: int64[4m])
 * For player hand i (five positions, none the up card): out[4i..4i+3] = the dealer's four hidden
 * cards (from the other n - 6) that leave the dealer not qualifying (rank < qualify), losing to
 * the player, tying, winning. */
static PyObject *casino_stud_versus(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer rank, players, out;
    int n, ranks, up, qualify;
    if (!PyArg_ParseTuple(args, "iy*iiy*iw*", &n, &rank, &ranks, &up, &players, &qualify, &out))
        return NULL;
    sv_binom b;
    sv_binomials(b);
    sv_tally t = {0};
    int bad = n < 10 || n > SV_MAX_CARDS || ranks < 1 || ranks > SV_MAX_RANKS || up < 0 || up >= n
              || qualify < 0 || qualify > ranks;
    const Py_ssize_t m = players.len / 5;
    bad = bad || rank.len != b[n][5] * 2 || players.len % 5 != 0 || out.len != m * 32;
    const uint16_t *r = rank.buf;
    for (Py_ssize_t i = 0; !bad && i < rank.len / 2; i++)
        bad = r[i] >= ranks;
    const uint8_t *p = players.buf;
    for (Py_ssize_t i = 0; !bad && i < m; i++) {
        uint64_t seen = UINT64_C(1) << up;
        for (int j = 0; !bad && j < 5; j++) {
            bad = p[5 * i + j] >= n || (seen >> p[5 * i + j] & 1);
            seen |= UINT64_C(1) << (p[5 * i + j] & 63);
        }
    }
    CL_FAIL_IF(bad, "casino_stud_versus: bad arguments");
    if (!sv_alloc(&t, b, n, ranks)) {
        PyErr_NoMemory();
        goto done;
    }
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    sv_fill(&t, b, n, up, r);
    int64_t *o = out.buf;
    for (Py_ssize_t i = 0; i < m; i++) {
        int pos[5], own[5];
        for (int j = 0; j < 5; j++)
            pos[j] = p[5 * i + j];
        for (int j = 1; j < 5; j++)  /* sort the five positions */
            for (int k = j; k > 0 && pos[k - 1] > pos[k]; k--) {
                int s = pos[k];
                pos[k] = pos[k - 1];
                pos[k - 1] = s;
            }
        int64_t h = 0;
        for (int j = 0; j < 5; j++) {
            h += b[pos[j]][j + 1];
            own[j] = pos[j] < up ? pos[j] : pos[j] - 1;
        }
        const int v = r[h];
        const int th[3] = {qualify, v > qualify ? v : qualify, v + 1 > qualify ? v + 1 : qualify};
        int64_t below[3];
        /* a player below the qualifying rank wins and ties nothing: one threshold will do */
        const int kn = v + 1 <= qualify ? 1 : 3;
        sv_count(&t, b, n, up, own, r, th, below, kn);
        if (kn == 1)
            below[1] = below[2] = below[0];
        const int64_t total = b[n - 6][4];
        o[4 * i] = below[0];
        o[4 * i + 1] = below[1] - below[0];
        o[4 * i + 2] = below[2] - below[1];
        o[4 * i + 3] = total - below[2];
        failed |= below[0] < 0 || below[1] < below[0] || below[2] < below[1] || below[2] > total;
    }
    Py_END_ALLOW_THREADS
    if (failed)
        PyErr_SetString(PyExc_RuntimeError, "casino_stud_versus: inconsistent counts");
done:
    sv_free(&t);
    return CL_RELEASE_NONE(&rank, &players, &out);
}

CL_METHODS(casino_stud,
    CL_METHOD(casino_stud_versus,
              "casino_stud_versus(n, rank, R, up, players, qualify, out): the dealer's hidden cards against each player hand."));
