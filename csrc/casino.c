/* Casino table games: exact counts for games played against a dealer or a pay table.
 * The wrappers are in cardlab.casino.kernel (every buffer is checked there and again here).
 *
 * A deck is n distinct cards (ids rank * 4 + suit) at positions 0..n-1, n <= 52.  k-card hands
 * are numbered in colex order of their positions, C(p0,1) + C(p1,2) + ... (as video.c numbers
 * its five-card hands, so its outcome array can be read here).
 *
 *   casino_three_cards  the value, fine code and suit-symmetry class of every three-card hand
 *   casino_versus       for each given player hand, the dealer hands from the rest of the deck
 *                       that do not qualify, lose to it, tie it and beat it
 *   casino_ride         Let It Ride: each start's ride decisions and the outcome counts under them
 *   casino_four_sums    the total pay of the fifth cards of every four-card hand
 *   casino_four_tallies the fifth cards of every four-card hand, by outcome
 *   casino_best_of_six  the best five-card outcome of every six-card hand (a six-card bonus bet)
 *   casino_baccarat     every coup of a baccarat shoe (by rank counts), by result and pairs
 *   casino_baccarat_coups  the same by final totals, third cards drawn and pairs (side bets)
 *   casino_superset_sums / casino_subset_sums
 *                       a table over k-card hands summed over each hand's one-card-larger
 *                       supersets / one-card-smaller subsets (the streets of Mississippi Stud)
 *
 * Three-card ranking (straights beat flushes): value = category << 12 | three 4-bit ranks, the
 * categories high card 0, pair 1, flush 2, straight 3, three of a kind 4, straight flush 5;
 * A-2-3 is the lowest straight.  Fine codes (cardlab.casino.paytable keeps the same numbers):
 * 0 high card, 1 + rank a pair, 14 flush, 15 straight, 16 three of a kind, 17 straight flush,
 * 18 A-K-Q suited.
 */
#include "cards.h"
#include "core.h"
#include "subsets.h"

#include <string.h>

#define CS_MAX_CARDS 52
#define CS_MAX_OUTCOMES 64

typedef int64_t cs_binom[CS_MAX_CARDS + 1][7];

static void cs_binomials(cs_binom b)
{
    for (int n = 0; n <= CS_MAX_CARDS; n++) {
        b[n][0] = 1;
        for (int k = 1; k < 7; k++)
            b[n][k] = n == 0 ? 0 : b[n - 1][k - 1] + b[n - 1][k];
    }
}

/* The colex number of k distinct positions in any order (k <= 5). */
static int64_t cs_colex(cs_binom b, const int *pos, int k)
{
    int s[5];
    for (int i = 0; i < k; i++) {
        int v = pos[i], j = i;
        while (j > 0 && s[j - 1] > v) {
            s[j] = s[j - 1];
            j--;
        }
        s[j] = v;
    }
    int64_t index = 0;
    for (int i = 0; i < k; i++)
        index += b[s[i]][i + 1];
    return index;
}

static void cs_three(const uint8_t *c, uint32_t *value, uint8_t *code)
{
    int r[3] = {c[0] >> 2, c[1] >> 2, c[2] >> 2};
    for (int i = 1; i < 3; i++)
        for (int j = i; j > 0 && r[j - 1] < r[j]; j--) {
            int t = r[j];
            r[j] = r[j - 1];
            r[j - 1] = t;
        }
    int suited = (c[0] & 3) == (c[1] & 3) && (c[1] & 3) == (c[2] & 3);
    int distinct = r[0] != r[1] && r[1] != r[2];
    int top = -1;
    if (distinct && r[0] - r[2] == 2)
        top = r[0];
    else if (r[0] == 12 && r[1] == 1 && r[2] == 0)
        top = 1;  /* A-2-3: the three is its top card */
    if (r[0] == r[2]) {
        *value = 4u << 12 | (uint32_t)r[0] << 8;
        *code = 16;
    } else if (top >= 0) {
        *value = (suited ? 5u : 3u) << 12 | (uint32_t)top << 8;
        *code = suited ? (top == 12 ? 18 : 17) : 15;
    } else if (!distinct) {
        int pair = r[1], kicker = r[0] == r[1] ? r[2] : r[0];
        *value = 1u << 12 | (uint32_t)pair << 8 | (uint32_t)kicker << 4;
        *code = (uint8_t)(1 + pair);
    } else {
        *value = (suited ? 2u : 0u) << 12 | (uint32_t)r[0] << 8 | (uint32_t)r[1] << 4 | (uint32_t)r[2];
        *code = suited ? 14 : 0;
    }
}

static const uint8_t SUIT_PERMS[24][4] = {
    {0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {0, 3, 2, 1},
    {1, 0, 2, 3}, {1, 0, 3, 2}, {1, 2, 0, 3}, {1, 2, 3, 0}, {1, 3, 0, 2}, {1, 3, 2, 0},
    {2, 0, 1, 3}, {2, 0, 3, 1}, {2, 1, 0, 3}, {2, 1, 3, 0}, {2, 3, 0, 1}, {2, 3, 1, 0},
    {3, 0, 1, 2}, {3, 0, 2, 1}, {3, 1, 0, 2}, {3, 1, 2, 0}, {3, 2, 0, 1}, {3, 2, 1, 0},
};

/* The deck's position of each card id (-1 if absent); 0 when a card is repeated or past 51. */
static int cs_positions(const uint8_t *deck, Py_ssize_t n, int *where)
{
    for (int i = 0; i < CL_CARDS; i++)
        where[i] = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (deck[i] >= CL_CARDS || where[deck[i]] >= 0)
            return 0;
        where[deck[i]] = (int)i;
    }
    return 1;
}

/* casino_three_cards(deck, symmetric, value: uint32[C(n,3)], code: uint8[C(n,3)],
 *                    klass: int32[C(n,3)]) -> None
 * klass[h] is the least colex number among the images of hand h under the 24 suit permutations
 * (the deck must hold all four suits of each of its ranks), or h itself when not symmetric. */
static PyObject *casino_three_cards(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer deck, value, code, klass;
    int symmetric;
    if (!PyArg_ParseTuple(args, "y*iw*w*w*", &deck, &symmetric, &value, &code, &klass))
        return NULL;
    cs_binom b;
    cs_binomials(b);
    int where[CL_CARDS];
    const uint8_t *d = deck.buf;
    Py_ssize_t n = deck.len;
    int bad = n < 3 || n > CS_MAX_CARDS || !cs_positions(d, n, where);
    int64_t total = bad ? 0 : b[n][3];
    bad = bad || value.len != total * 4 || code.len != total || klass.len != total * 4;
    for (Py_ssize_t i = 0; !bad && symmetric && i < n; i++)
        for (int s = 0; s < CL_SUITS; s++)
            bad = bad || where[(d[i] & ~3) | s] < 0;
    CL_FAIL_IF(bad, "casino_three_cards: bad arguments");
    Py_BEGIN_ALLOW_THREADS
    uint32_t *v = value.buf;
    uint8_t *c = code.buf;
    int32_t *k = klass.buf;
    int x[3] = {0, 1, 2};
    for (int64_t h = 0; h < total; h++, cl_subset_next_colex(x, 3, (int)n)) {
        uint8_t cards[3] = {d[x[0]], d[x[1]], d[x[2]]};
        cs_three(cards, &v[h], &c[h]);
        int64_t least = h;
        for (int p = 1; symmetric && p < 24; p++) {
            int image[3];
            for (int i = 0; i < 3; i++)
                image[i] = where[(cards[i] & ~3) | SUIT_PERMS[p][cards[i] & 3]];
            int64_t other = cs_colex(b, image, 3);
            if (other < least)
                least = other;
        }
        k[h] = (int32_t)least;
    }
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&deck, &value, &code, &klass);
}

/* casino_versus(n, value: uint32[C(n,3)], players: int32[m], qualify, out: int64[4m]) -> None
 * For player hand players[i]: out[4i..4i+3] = dealer hands (three cards of the other n - 3) that
 * do not qualify (value < qualify), that the player beats, ties, loses to. */
static PyObject *casino_versus(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer value, players, out;
    int n;
    unsigned int qualify;
    if (!PyArg_ParseTuple(args, "iy*y*Iw*", &n, &value, &players, &qualify, &out))
        return NULL;
    cs_binom b;
    cs_binomials(b);
    uint64_t *mask = NULL;
    int bad = n < 6 || n > CS_MAX_CARDS;
    int64_t total = bad ? 0 : b[n][3];
    Py_ssize_t m = players.len / 4;
    bad = bad || value.len != total * 4 || players.len % 4 != 0 || out.len != m * 32;
    const int32_t *p = players.buf;
    for (Py_ssize_t i = 0; !bad && i < m; i++)
        bad = p[i] < 0 || p[i] >= total;
    CL_FAIL_IF(bad, "casino_versus: bad arguments");
    mask = malloc((size_t)total * sizeof *mask);
    if (mask == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    const uint32_t *v = value.buf;
    int64_t *o = out.buf;
    int x[3] = {0, 1, 2};
    for (int64_t h = 0; h < total; h++, cl_subset_next_colex(x, 3, n))
        mask[h] = UINT64_C(1) << x[0] | UINT64_C(1) << x[1] | UINT64_C(1) << x[2];
    for (Py_ssize_t i = 0; i < m; i++) {
        const uint64_t mine = mask[p[i]];
        const uint32_t strength = v[p[i]];
        int64_t tally[4] = {0, 0, 0, 0};
        for (int64_t h = 0; h < total; h++) {
            if (mask[h] & mine)
                continue;
            const uint32_t dealer = v[h];
            tally[dealer < qualify ? 0 : strength > dealer ? 1 : strength == dealer ? 2 : 3]++;
        }
        memcpy(o + 4 * i, tally, sizeof tally);
    }
    Py_END_ALLOW_THREADS
done:
    free(mask);
    return CL_RELEASE_NONE(&value, &players, &out);
}

/* The checks casino_ride and casino_four_sums share: 5 <= n <= 52, one outcome byte per
 * five-card hand, each below the number of pays (K <= CS_MAX_OUTCOMES). */
static int cs_ride_args(cs_binom b, int n, const Py_buffer *outcomes, const Py_buffer *pays)
{
    if (n < 5 || n > CS_MAX_CARDS || outcomes->len != b[n][5] || pays->len % 8 != 0 || pays->len == 0
        || pays->len / 8 > CS_MAX_OUTCOMES)
        return 0;
    const uint8_t *o = outcomes->buf;
    for (Py_ssize_t i = 0; i < outcomes->len; i++)
        if (o[i] >= pays->len / 8)
            return 0;
    return 1;
}

/* casino_ride(n, outcomes: uint8[C(n,5)], pays: int64[K], starts: int32[m], weights: int64[m],
 *             counts: int64[3K], sums: int64[m], ties) -> None
 * For each start (a three-card hand, by colex number): over every fourth card d and fifth card e,
 * the four-card sum s4(d) (pays of the fifth cards) rides the second bet when > 0 (>= 0 with
 * ties = 1); the start's sum s3 = sum over d of s4(d) rides the first likewise.  counts[(r - 1) K + o] adds weight times
 * the final hands of outcome o played with r bets riding; sums[i] = s3. */
static PyObject *casino_ride(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer outcomes, pays, starts, weights, counts, sums;
    int n, ties;
    if (!PyArg_ParseTuple(args, "iy*y*y*y*w*w*p", &n, &outcomes, &pays, &starts, &weights, &counts, &sums, &ties))
        return NULL;
    cs_binom b;
    cs_binomials(b);
    int bad = !cs_ride_args(b, n, &outcomes, &pays);
    Py_ssize_t K = pays.len / 8, m = starts.len / 4;
    bad = bad || starts.len % 4 != 0 || weights.len != m * 8 || counts.len != 3 * K * 8 || sums.len != m * 8;
    const int32_t *st = starts.buf;
    for (Py_ssize_t i = 0; !bad && i < m; i++)
        bad = st[i] < 0 || st[i] >= b[n][3];
    CL_FAIL_IF(bad, "casino_ride: bad arguments");
    Py_BEGIN_ALLOW_THREADS
    const uint8_t *out5 = outcomes.buf;
    const int64_t *pay = pays.buf, *w = weights.buf;
    int64_t *total = counts.buf, *s3 = sums.buf;
    memset(total, 0, (size_t)(3 * K) * sizeof *total);
    int64_t tally[CS_MAX_CARDS][CS_MAX_OUTCOMES];
    int64_t s4[CS_MAX_CARDS];
    for (Py_ssize_t i = 0; i < m; i++) {
        /* the start's positions: undo the colex number */
        int pos[5], rest = st[i];
        for (int j = 2; j >= 0; j--) {
            int p = j;
            while (b[p + 1][j + 1] <= rest)
                p++;
            pos[j] = p;
            rest -= (int)b[p][j + 1];
        }
        int64_t sum3 = 0;
        for (int d = 0; d < n; d++) {
            s4[d] = 0;
            if (d == pos[0] || d == pos[1] || d == pos[2])
                continue;
            memset(tally[d], 0, (size_t)K * sizeof tally[d][0]);
            pos[3] = d;
            for (int e = 0; e < n; e++) {
                if (e == pos[0] || e == pos[1] || e == pos[2] || e == d)
                    continue;
                pos[4] = e;
                int o = out5[cs_colex(b, pos, 5)];
                tally[d][o]++;
                s4[d] += pay[o];
            }
            sum3 += s4[d];
        }
        s3[i] = sum3;
        for (int d = 0; d < n; d++) {
            if (d == pos[0] || d == pos[1] || d == pos[2])
                continue;
            int riding = 1 + (sum3 > 0 || (ties && sum3 == 0)) + (s4[d] > 0 || (ties && s4[d] == 0));
            for (Py_ssize_t o = 0; o < K; o++)
                total[(riding - 1) * K + o] += w[i] * tally[d][o];
        }
    }
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&outcomes, &pays, &starts, &weights, &counts, &sums);
}

/* casino_four_sums(n, outcomes: uint8[C(n,5)], pays: int64[K], out: int64[C(n,4)]) -> None
 * out[h] = the total pay of the n - 4 fifth cards of four-card hand h (colex numbers). */
static PyObject *casino_four_sums(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer outcomes, pays, out;
    int n;
    if (!PyArg_ParseTuple(args, "iy*y*w*", &n, &outcomes, &pays, &out))
        return NULL;
    cs_binom b;
    cs_binomials(b);
    int bad = !cs_ride_args(b, n, &outcomes, &pays);
    CL_FAIL_IF(bad || out.len != b[n][4] * 8, "casino_four_sums: bad arguments");
    Py_BEGIN_ALLOW_THREADS
    const uint8_t *out5 = outcomes.buf;
    const int64_t *pay = pays.buf;
    int64_t *o = out.buf;
    int x[5] = {0, 1, 2, 3, 0};
    for (int64_t h = 0; h < b[n][4]; h++, cl_subset_next_colex(x, 4, n)) {
        int64_t sum = 0;
        for (int e = 0; e < n; e++) {
            if (e == x[0] || e == x[1] || e == x[2] || e == x[3])
                continue;
            x[4] = e;
            sum += pay[out5[cs_colex(b, x, 5)]];
        }
        o[h] = sum;
    }
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&outcomes, &pays, &out);
}

/* casino_four_tallies(n, outcomes: uint8[C(n,5)], K, out: int32[C(n,4) * K]) -> None
 * out[h * K + o] = the fifth cards that make four-card hand h a final hand of outcome o. */
static PyObject *casino_four_tallies(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer outcomes, out;
    int n, K;
    if (!PyArg_ParseTuple(args, "iy*iw*", &n, &outcomes, &K, &out))
        return NULL;
    cs_binom b;
    cs_binomials(b);
    int bad = n < 5 || n > CS_MAX_CARDS || K < 1 || K > CS_MAX_OUTCOMES || outcomes.len != b[n][5];
    const uint8_t *o5 = outcomes.buf;
    for (Py_ssize_t i = 0; !bad && i < outcomes.len; i++)
        bad = o5[i] >= K;
    CL_FAIL_IF(bad || out.len != b[n][4] * K * 4, "casino_four_tallies: bad arguments");
    Py_BEGIN_ALLOW_THREADS
    int32_t *o = out.buf;
    memset(o, 0, (size_t)out.len);
    int x[5] = {0, 1, 2, 3, 0};
    for (int64_t h = 0; h < b[n][4]; h++, cl_subset_next_colex(x, 4, n))
        for (int e = 0; e < n; e++) {
            if (e == x[0] || e == x[1] || e == x[2] || e == x[3])
                continue;
            x[4] = e;
            o[h * K + o5[cs_colex(b, x, 5)]]++;
        }
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&outcomes, &out);
}

/* The checks of the two street sums: 1 <= k <= 4, k + 1 <= n <= 52, w >= 1 columns, the small
 * table C(n,k) x w and the large one C(n,k+1) x w int64. */
static int cs_street_args(cs_binom b, int n, int k, int w, const Py_buffer *small, const Py_buffer *large)
{
    return k >= 1 && k <= 4 && n >= k + 1 && n <= CS_MAX_CARDS && w >= 1 && w <= 64
           && small->len == b[n][k] * w * 8 && large->len == b[n][k + 1] * w * 8;
}

/* casino_superset_sums(n, k, w, large: int64[C(n,k+1) * w], out: int64[C(n,k) * w]) -> None
 * out[h] = the sum of the rows large[h + c] over every card c outside k-card hand h. */
static PyObject *casino_superset_sums(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer large, out;
    int n, k, w;
    if (!PyArg_ParseTuple(args, "iiiy*w*", &n, &k, &w, &large, &out))
        return NULL;
    cs_binom b;
    cs_binomials(b);
    CL_FAIL_IF(!cs_street_args(b, n, k, w, &out, &large), "casino_superset_sums: bad arguments");
    Py_BEGIN_ALLOW_THREADS
    const int64_t *f = large.buf;
    int64_t *o = out.buf;
    memset(o, 0, (size_t)out.len);
    int x[5];
    for (int i = 0; i < k; i++)
        x[i] = i;
    for (int64_t h = 0; h < b[n][k]; h++, cl_subset_next_colex(x, k, n))
        for (int c = 0; c < n; c++) {
            int inside = 0;
            for (int i = 0; i < k; i++)
                inside |= x[i] == c;
            if (inside)
                continue;
            x[k] = c;
            const int64_t *row = f + cs_colex(b, x, k + 1) * w;
            for (int j = 0; j < w; j++)
                o[h * w + j] += row[j];
        }
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&large, &out);
}

/* casino_subset_sums(n, k, w, small: int64[C(n,k) * w], out: int64[C(n,k+1) * w]) -> None
 * out[h] = the sum of the rows small[h - c] over every card c of (k+1)-card hand h. */
static PyObject *casino_subset_sums(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer small, out;
    int n, k, w;
    if (!PyArg_ParseTuple(args, "iiiy*w*", &n, &k, &w, &small, &out))
        return NULL;
    cs_binom b;
    cs_binomials(b);
    CL_FAIL_IF(!cs_street_args(b, n, k, w, &small, &out), "casino_subset_sums: bad arguments");
    Py_BEGIN_ALLOW_THREADS
    const int64_t *f = small.buf;
    int64_t *o = out.buf;
    memset(o, 0, (size_t)out.len);
    int x[5], rest[5];
    for (int i = 0; i <= k; i++)
        x[i] = i;
    for (int64_t h = 0; h < b[n][k + 1]; h++, cl_subset_next_colex(x, k + 1, n))
        for (int drop = 0; drop <= k; drop++) {
            for (int i = 0, j = 0; i <= k; i++)
                if (i != drop)
                    rest[j++] = x[i];
            const int64_t *row = f + cs_colex(b, rest, k) * w;
            for (int j = 0; j < w; j++)
                o[h * w + j] += row[j];
        }
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&small, &out);
}

/* casino_best_of_six(n, outcomes: uint8[C(n,5)], pays: int64[K], out: int64[K]) -> None
 * out[o] = the six-card hands whose best five cards (the highest pay; between equal pays the
 * first outcome) are of outcome o. */
static PyObject *casino_best_of_six(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer outcomes, pays, out;
    int n;
    if (!PyArg_ParseTuple(args, "iy*y*w*", &n, &outcomes, &pays, &out))
        return NULL;
    cs_binom b;
    cs_binomials(b);
    int bad = n < 6 || !cs_ride_args(b, n, &outcomes, &pays);
    CL_FAIL_IF(bad || out.len != pays.len, "casino_best_of_six: bad arguments");
    Py_BEGIN_ALLOW_THREADS
    const uint8_t *o5 = outcomes.buf;
    const int64_t *pay = pays.buf;
    int64_t *o = out.buf;
    memset(o, 0, (size_t)out.len);
    int x[6] = {0, 1, 2, 3, 4, 5}, five[5];
    for (int64_t h = 0; h < b[n][6]; h++, cl_subset_next_colex(x, 6, n)) {
        int best = -1;
        for (int drop = 0; drop < 6; drop++) {
            for (int i = 0, j = 0; i < 6; i++)
                if (i != drop)
                    five[j++] = x[i];
            int64_t index = 0;
            for (int i = 0; i < 5; i++)
                index += b[five[i]][i + 1];
            int outcome = o5[index];
            if (best < 0 || pay[outcome] > pay[best] || (pay[outcome] == pay[best] && outcome < best))
                best = outcome;
        }
        o[best]++;
    }
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&outcomes, &pays, &out);
}

/* The baccarat value of a rank (0 = two .. 12 = ace). */
static inline int cs_bac_value(int rank)
{
    return rank == 12 ? 1 : rank >= 8 ? 0 : rank + 2;
}

/* Whether the banker draws on ``total`` when the player drew a third card of value ``x``. */
static inline int cs_banker_draws(int total, int x)
{
    switch (total) {
    case 0: case 1: case 2: return 1;
    case 3: return x != 8;
    case 4: return x >= 2 && x <= 7;
    case 5: return x >= 4 && x <= 7;
    case 6: return x == 6 || x == 7;
    default: return 0;
    }
}

/* One finished coup: add ``w`` to its bin of cs_baccarat_walk's tally. */
static inline void cs_coup(int64_t *out, int pt, int bt, int p3, int b3, int ppair, int bpair, int64_t w)
{
    out[((((pt * 10 + bt) * 2 + p3) * 2 + b3) * 2 + ppair) * 2 + bpair] += w;
}

#define CS_BACCARAT_BINS 1600

/* Every ordered deal of the shoe's first six cards (player, banker, player, banker, then the
 * third cards as the tableau draws them), a coup of fewer cards weighted by the orderings of the
 * cards it leaves, into o[((((player total * 10 + banker total) * 2 + player drew) * 2 + banker
 * drew) * 2 + player pair) * 2 + banker pair] (pairs: the first two cards of a side of one rank).
 * ``c`` holds at most 32 of each rank and ``n`` >= 6 cards in all (sums stay below 2^63). */
static void cs_baccarat_walk(int64_t *c, int64_t n, int64_t *o)
{
    memset(o, 0, CS_BACCARAT_BINS * sizeof *o);
    for (int p1 = 0; p1 < 13; p1++) {
        int64_t w1 = c[p1]--;
        for (int b1 = 0; w1 && b1 < 13; b1++) {
            int64_t w2 = w1 * c[b1]--;
            for (int p2 = 0; w2 && p2 < 13; p2++) {
                int64_t w3 = w2 * c[p2]--;
                for (int b2 = 0; w3 && b2 < 13; b2++) {
                    int64_t w4 = w3 * c[b2]--;
                    if (w4) {
                        int pt = (cs_bac_value(p1) + cs_bac_value(p2)) % 10;
                        int bt = (cs_bac_value(b1) + cs_bac_value(b2)) % 10;
                        int pp = p1 == p2, bp = b1 == b2;
                        if (pt >= 8 || bt >= 8) {
                            cs_coup(o, pt, bt, 0, 0, pp, bp, w4 * (n - 4) * (n - 5));
                        } else if (pt >= 6) {
                            if (bt <= 5) {
                                for (int b3 = 0; b3 < 13; b3++)
                                    cs_coup(o, pt, (bt + cs_bac_value(b3)) % 10, 0, 1, pp, bp, w4 * c[b3] * (n - 5));
                            } else {
                                cs_coup(o, pt, bt, 0, 0, pp, bp, w4 * (n - 4) * (n - 5));
                            }
                        } else {
                            for (int p3 = 0; p3 < 13; p3++) {
                                int64_t w5 = w4 * c[p3]--;
                                if (w5) {
                                    int x = cs_bac_value(p3), total = (pt + x) % 10;
                                    if (cs_banker_draws(bt, x)) {
                                        for (int b3 = 0; b3 < 13; b3++)
                                            cs_coup(o, total, (bt + cs_bac_value(b3)) % 10, 1, 1, pp, bp, w5 * c[b3]);
                                    } else {
                                        cs_coup(o, total, bt, 1, 0, pp, bp, w5 * (n - 5));
                                    }
                                }
                                c[p3]++;
                            }
                        }
                    }
                    c[b2]++;
                }
                c[p2]++;
            }
            c[b1]++;
        }
        c[p1]++;
    }
}

/* The rank counts of a baccarat shoe from ``counts`` (int64[13], each 0..32, at least 6 in
 * all) into ``c``; its size, or -1 when the counts are out of range. */
static int64_t cs_baccarat_shoe(const Py_buffer *counts, int64_t *c)
{
    if (counts->len != 13 * 8)
        return -1;
    int64_t n = 0;
    for (int r = 0; r < 13; r++) {
        c[r] = ((const int64_t *)counts->buf)[r];
        if (c[r] < 0 || c[r] > 32)
            return -1;
        n += c[r];
    }
    return n < 6 ? -1 : n;
}

/* casino_baccarat(counts: int64[13], out: int64[12]) -> None
 * Every coup of the shoe (cs_baccarat_walk) by result and pairs: out[(result * 2 + player pair)
 * * 2 + banker pair], result 0 the player wins, 1 the banker, 2 a tie. */
static PyObject *casino_baccarat(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer counts, out;
    if (!PyArg_ParseTuple(args, "y*w*", &counts, &out))
        return NULL;
    int64_t c[13], n = cs_baccarat_shoe(&counts, c);
    CL_FAIL_IF(n < 0 || out.len != 12 * 8, "casino_baccarat: bad arguments");
    Py_BEGIN_ALLOW_THREADS
    int64_t bins[CS_BACCARAT_BINS], *o = out.buf;
    cs_baccarat_walk(c, n, bins);
    memset(o, 0, 12 * sizeof *o);
    for (int i = 0; i < CS_BACCARAT_BINS; i++) {
        int pt = i / 160, bt = i / 16 % 10, result = pt > bt ? 0 : bt > pt ? 1 : 2;
        o[result * 4 + (i & 3)] += bins[i];
    }
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&counts, &out);
}

/* casino_baccarat_coups(counts: int64[13], out: int64[1600]) -> None
 * Every coup of the shoe by final totals, third cards drawn and pairs (cs_baccarat_walk's bins):
 * what the side bets on margins, three-card totals and naturals are paid from. */
static PyObject *casino_baccarat_coups(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer counts, out;
    if (!PyArg_ParseTuple(args, "y*w*", &counts, &out))
        return NULL;
    int64_t c[13], n = cs_baccarat_shoe(&counts, c);
    CL_FAIL_IF(n < 0 || out.len != CS_BACCARAT_BINS * 8, "casino_baccarat_coups: bad arguments");
    Py_BEGIN_ALLOW_THREADS
    cs_baccarat_walk(c, n, out.buf);
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&counts, &out);
}

CL_METHODS(casino,
    CL_METHOD(casino_three_cards, "casino_three_cards(deck, symmetric, value, code, klass): every three-card hand."),
    CL_METHOD(casino_versus, "casino_versus(n, value, players, qualify, out): dealer hands against each player hand."),
    CL_METHOD(casino_ride, "casino_ride(n, outcomes, pays, starts, weights, counts, sums, ties): Let It Ride exactly."),
    CL_METHOD(casino_four_sums, "casino_four_sums(n, outcomes, pays, out): pay of every four-card hand's fifth cards."),
    CL_METHOD(casino_best_of_six, "casino_best_of_six(n, outcomes, pays, out): six-card hands by best outcome."),
    CL_METHOD(casino_baccarat, "casino_baccarat(counts, out): every coup of a baccarat shoe by result and pairs."),
    CL_METHOD(casino_baccarat_coups, "casino_baccarat_coups(counts, out): every coup by totals, third cards and pairs."),
    CL_METHOD(casino_four_tallies, "casino_four_tallies(n, outcomes, K, out): every four-card hand's fifth cards by outcome."),
    CL_METHOD(casino_superset_sums, "casino_superset_sums(n, k, w, large, out): rows summed over one-card-larger hands."),
    CL_METHOD(casino_subset_sums, "casino_subset_sums(n, k, w, small, out): rows summed over one-card-smaller hands."));
