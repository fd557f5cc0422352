/* Video poker kernels: exact analysis of a pay table by the subset (inclusion-exclusion) method.
 *
 * A deck is n physical cards (n <= 64), each of a card type 0..51 (rank * 4 + suit) or 52 (a
 * joker, always wild); with deuces wild the four twos are wild too.  Five-card hands of positions
 * p0 < p1 < ... < p4 are numbered in colex order: C(p0,1) + C(p1,2) + ... + C(p4,5).
 *
 *   video_outcomes   the outcome (pay-table line) of every five-card hand of the deck
 *   video_analyse    the best hold of every dealt hand and the weighted count of each outcome
 *   video_hand       for one dealt hand, the count of each outcome for each of its 32 holds
 *
 * A hand is first given a fine code (a category, with the rank of a pair and the ranks of four
 * of a kind and its kicker); the pay table maps codes to outcomes.  A hand with wild cards takes
 * the best-paying code any substitution of its wild cards reaches (ties: the higher code).
 * The Python wrapper (cardlab.casino.video) validates every buffer; these functions trust it.
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>

enum {
    VC_NOTHING = 0,
    VC_PAIR = 1,          /* + rank 0..12 */
    VC_TWO_PAIR = 14,
    VC_TRIPS = 15,
    VC_STRAIGHT = 16,
    VC_FLUSH = 17,
    VC_FULL_HOUSE = 18,
    VC_QUADS = 19,        /* + quad rank * 13 + kicker rank */
    VC_STRAIGHT_FLUSH = 188,
    VC_WILD_ROYAL = 189,
    VC_FIVE_KIND = 190,
    VC_FOUR_DEUCES = 191,
    VC_ROYAL = 192,
    VC_NCODES = 193,
};

#define VC_MAX_CARDS 64
#define VC_MAX_OUTCOMES 64

/* What one classification call needs, built once per kernel call (no global state). */
typedef struct {
    const uint8_t *code_out;   /* code -> outcome */
    const int64_t *out_pay;    /* outcome -> pay (scaled to integers) */
    int deuces_wild;
    int best_kicker[13];
} vc_rules;

/* Binomial coefficients C(n, k) for k < 6 and n up to 255 (the most copies of a card type the
 * multiset kernel takes); each kernel call fills its own (no global state). */
#define VC_BINOM_ROWS 256
typedef int64_t vc_binom[VC_BINOM_ROWS][6];

static void vc_binomials(vc_binom binom64)
{
    for (int n = 0; n < VC_BINOM_ROWS; n++) {
        binom64[n][0] = 1;
        for (int k = 1; k < 6; k++)
            binom64[n][k] = n == 0 ? 0 : binom64[n - 1][k - 1] + binom64[n - 1][k];
    }
}

static inline int64_t pay_of(const vc_rules *r, int code)
{
    return r->out_pay[r->code_out[code]];
}

static inline void consider(const vc_rules *r, int code, int *best, int64_t *best_pay)
{
    int64_t p = pay_of(r, code);
    if (p > *best_pay || (p == *best_pay && code > *best)) {
        *best = code;
        *best_pay = p;
    }
}

static const unsigned STRAIGHT_WINDOWS[10] = {
    0x100F, 0x001F, 0x003E, 0x007C, 0x00F8, 0x01F0, 0x03E0, 0x07C0, 0x0F80, 0x1F00,
};
#define ROYAL_RANKS 0x1F00u

static int popcount13(unsigned x)
{
    return cl_popcount32(x);
}

/* The code of five cards of the given types. */
static int vc_classify(const vc_rules *r, const uint8_t t[5])
{
    int cnt[13] = {0};
    unsigned ranks = 0, suits = 0;
    int wild = 0, deuces = 0;
    for (int i = 0; i < 5; i++) {
        int type = t[i];
        if (type >= 52) {
            wild++;
            continue;
        }
        int rank = type >> 2;
        if (r->deuces_wild && rank == 0) {
            wild++;
            deuces++;
            continue;
        }
        cnt[rank]++;
        ranks |= 1u << rank;
        suits |= 1u << (type & 3);
    }
    int natural = 5 - wild, distinct = popcount13(ranks);
    int one_suit = popcount13(suits) <= 1;
    int maxc = 0;
    for (int k = 0; k < 13; k++)
        if (cnt[k] > maxc)
            maxc = cnt[k];
    int best = VC_NOTHING;
    int64_t best_pay = pay_of(r, VC_NOTHING);

    int straight = 0;
    if (distinct == natural) {
        for (int w = 0; w < 10; w++)
            if ((ranks & ~STRAIGHT_WINDOWS[w]) == 0) {
                straight = 1;
                break;
            }
    }
    if (wild == 0) {
        if (straight && one_suit)
            consider(r, ranks == ROYAL_RANKS ? VC_ROYAL : VC_STRAIGHT_FLUSH, &best, &best_pay);
        if (straight)
            consider(r, VC_STRAIGHT, &best, &best_pay);
        if (one_suit)
            consider(r, VC_FLUSH, &best, &best_pay);
        /* the rank pattern (several decks allow five of a kind and a flush with a pair) */
        int pairs = 0, trips = 0, quad = -1, kicker = -1, high_pair = -1;
        for (int k = 0; k < 13; k++) {
            if (cnt[k] == 5) {  /* several decks: five of a kind, or four with a kicker of the rank */
                consider(r, VC_FIVE_KIND, &best, &best_pay);
                consider(r, VC_QUADS + k * 13 + k, &best, &best_pay);
            }
            else if (cnt[k] == 4)
                quad = k;
            else if (cnt[k] == 3)
                trips++;
            else if (cnt[k] == 2) {
                pairs++;
                high_pair = k;
            } else if (cnt[k] == 1)
                kicker = k;
        }
        if (quad >= 0)
            consider(r, VC_QUADS + quad * 13 + kicker, &best, &best_pay);
        else if (trips && pairs)
            consider(r, VC_FULL_HOUSE, &best, &best_pay);
        else if (trips)
            consider(r, VC_TRIPS, &best, &best_pay);
        else if (pairs == 2)
            consider(r, VC_TWO_PAIR, &best, &best_pay);
        else if (pairs == 1)
            consider(r, VC_PAIR + high_pair, &best, &best_pay);
        return best;
    }

    /* wild cards: every code some substitution reaches */
    if (deuces == 4)
        consider(r, VC_FOUR_DEUCES, &best, &best_pay);
    if (one_suit && straight) {
        if ((ranks & ~ROYAL_RANKS) == 0)
            consider(r, VC_WILD_ROYAL, &best, &best_pay);
        consider(r, VC_STRAIGHT_FLUSH, &best, &best_pay);
    }
    if (straight)
        consider(r, VC_STRAIGHT, &best, &best_pay);
    if (one_suit)
        consider(r, VC_FLUSH, &best, &best_pay);
    if (maxc + wild >= 5)
        consider(r, VC_FIVE_KIND, &best, &best_pay);
    for (int q = 0; q < 13; q++) {
        int need = 4 - cnt[q];
        if (need < 0 || need > wild)
            continue;
        int others = natural - cnt[q];
        if (others == 1) {
            for (int k = 0; k < 13; k++)
                if (k != q && cnt[k])
                    consider(r, VC_QUADS + q * 13 + k, &best, &best_pay);
        } else {  /* a spare wild card: any kicker, or the quads' own rank (five of a kind) */
            consider(r, VC_QUADS + q * 13 + r->best_kicker[q], &best, &best_pay);
            consider(r, VC_QUADS + q * 13 + q, &best, &best_pay);
        }
    }
    /* the lower patterns: every one the natural cards fit into is reachable (the wild cards
     * fill it), whatever the pay table says about it, so none is assumed beaten */
    int paired = 0, paired_rank = -1;
    for (int k = 0; k < 13; k++)
        if (cnt[k] >= 2) {
            paired++;
            paired_rank = k;
        }
    if (distinct <= 2 && maxc <= 3)
        consider(r, VC_FULL_HOUSE, &best, &best_pay);
    if (maxc <= 3 && paired <= 1 && distinct <= 3 && maxc + wild >= 3)  /* 3-1-1 */
        consider(r, VC_TRIPS, &best, &best_pay);
    if (maxc <= 2 && distinct <= 3)  /* 2-2-1 */
        consider(r, VC_TWO_PAIR, &best, &best_pay);
    if (maxc <= 2 && paired <= 1 && distinct <= 4) {  /* 2-1-1-1: which ranks can be the pair */
        for (int k = 0; k < 13; k++)
            if (paired ? k == paired_rank : (cnt[k] ? 1 : wild >= 2))
                consider(r, VC_PAIR + k, &best, &best_pay);
    }
    return best;
}

static void vc_rules_init(vc_rules *r, const uint8_t *code_out, const int64_t *out_pay, int deuces_wild)
{
    r->code_out = code_out;
    r->out_pay = out_pay;
    r->deuces_wild = deuces_wild;
    for (int q = 0; q < 13; q++) {
        int best = q == 0 ? 1 : 0;
        for (int k = 0; k < 13; k++)
            if (k != q && pay_of(r, VC_QUADS + q * 13 + k) > pay_of(r, VC_QUADS + q * 13 + best))
                best = k;
        r->best_kicker[q] = best;
    }
}

/* Whether every byte of a buffer is below limit (the values index arrays of that length). */
static int all_below(const Py_buffer *view, Py_ssize_t len, int limit)
{
    const uint8_t *b = view->buf;
    for (Py_ssize_t i = 0; i < len && i < view->len; i++)
        if (b[i] >= limit)
            return 0;
    return 1;
}

/* Buffers: borrowed views released by the caller. */
static int get_buffer(PyObject *obj, Py_buffer *view, int writable, Py_ssize_t itemsize, Py_ssize_t min_len,
                      const char *what)
{
    if (PyObject_GetBuffer(obj, view, writable ? PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS : PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if (view->len < min_len * itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: buffer too short", what);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* A buffer of a kernel's argument list: the object, whether it is written, its item size and
 * the fewest items it must hold. */
typedef struct {
    PyObject *obj;
    int writable;
    Py_ssize_t itemsize, min_len;
    const char *what;
} vc_arg;

/* Views of args[0..count) into views (released again, and -1 returned, when one fails). */
static int get_buffers(const vc_arg *args, Py_buffer *views, int count)
{
    for (int i = 0; i < count; i++)
        if (get_buffer(args[i].obj, &views[i], args[i].writable, args[i].itemsize, args[i].min_len,
                       args[i].what) < 0) {
            while (i--)
                PyBuffer_Release(&views[i]);
            return -1;
        }
    return 0;
}

static void release_buffers(Py_buffer *views, int count)
{
    for (int i = 0; i < count; i++)
        PyBuffer_Release(&views[i]);
}

/* The symbol of a card type: its rank 0..12, 13 for a wild deuce, 14 for a joker. */
static inline int vc_symbol(int type, int deuces_wild)
{
    if (type >= 52)
        return 14;
    if (deuces_wild && type >> 2 == 0)
        return 13;
    return type >> 2;
}

#define VC_KEYS (15 * 15 * 15 * 15 * 15)

/* video_outcomes(types: bytes[n], deuces_wild: int, code_out: bytes[193], out_pay: int64[K],
 *                out: uint8[C(n,5)] writable) -> None
 *
 * The types must be in order of their symbol (rank, then wild deuces, then jokers), so the
 * symbols of a hand enumerated by increasing positions never decrease: a hand's outcome is then
 * a lookup by its sorted symbols (base 15) in one table for hands whose natural cards share a
 * suit and one for the others, both filled for the 11,628 multisets of five symbols. */
static PyObject *video_outcomes(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *types_obj, *code_obj, *pay_obj, *out_obj;
    int deuces_wild;
    if (!PyArg_ParseTuple(args, "OiOOO", &types_obj, &deuces_wild, &code_obj, &pay_obj, &out_obj))
        return NULL;
    vc_binom binom64;
    vc_binomials(binom64);
    enum { TYPES, CODE, PAY, OUT, NBUF };
    Py_buffer view[NBUF];
    vc_arg in_args[] = {{types_obj, 0, 1, 5, "types"}, {code_obj, 0, 1, VC_NCODES, "code_out"},
                        {pay_obj, 0, 8, 1, "out_pay"}};
    if (get_buffers(in_args, view, OUT) < 0)
        return NULL;
    Py_buffer code = view[CODE], pay = view[PAY];
    int n = (int)view[TYPES].len;
    const uint8_t *t = view[TYPES].buf;
    int sorted = n <= VC_MAX_CARDS;
    for (int i = 1; sorted && i < n; i++)
        sorted = vc_symbol(t[i - 1], deuces_wild) <= vc_symbol(t[i], deuces_wild);
    vc_arg out_arg = {out_obj, 1, 1, sorted ? binom64[n][5] : 0, "out"};
    if (!sorted || get_buffers(&out_arg, view + OUT, 1) < 0) {
        release_buffers(view, OUT);
        if (!sorted)
            PyErr_SetString(PyExc_ValueError, "at most 64 cards, in order of their symbol");
        return NULL;
    }
    uint8_t *plain = NULL;
    if (!all_below(&code, VC_NCODES, (int)(pay.len / 8 < 256 ? pay.len / 8 : 256)))
        PyErr_SetString(PyExc_ValueError, "video_outcomes: an outcome index past the pay table");
    else if ((plain = malloc(2 * (size_t)VC_KEYS)) == NULL)
        PyErr_NoMemory();
    if (plain == NULL) {
        release_buffers(view, NBUF);
        return NULL;
    }
    uint8_t *flush = plain + VC_KEYS;
    uint8_t *o = view[OUT].buf;
    Py_BEGIN_ALLOW_THREADS
    vc_rules rules;
    vc_rules_init(&rules, code.buf, pay.buf, deuces_wild);
    /* a representative hand of each multiset of symbols, suited and not */
    int sym[5];
    for (sym[4] = 0; sym[4] < 15; sym[4]++)
        for (sym[3] = 0; sym[3] <= sym[4]; sym[3]++)
            for (sym[2] = 0; sym[2] <= sym[3]; sym[2]++)
                for (sym[1] = 0; sym[1] <= sym[2]; sym[1]++)
                    for (sym[0] = 0; sym[0] <= sym[1]; sym[0]++) {
                        uint8_t suited[5], mixed[5];
                        int key = 0, natural = 0;
                        for (int j = 4; j >= 0; j--) {
                            key = key * 15 + sym[j];
                            if (sym[j] == 14)
                                suited[j] = mixed[j] = 52;
                            else if (sym[j] == 13)
                                suited[j] = mixed[j] = (uint8_t)(j & 3);  /* a deuce */
                            else {
                                suited[j] = (uint8_t)(sym[j] * 4);
                                mixed[j] = (uint8_t)(sym[j] * 4 + (natural++ & 3));
                            }
                        }
                        flush[key] = rules.code_out[vc_classify(&rules, suited)];
                        plain[key] = rules.code_out[vc_classify(&rules, mixed)];
                    }
    int symbol[VC_MAX_CARDS];
    unsigned suitbit[VC_MAX_CARDS];
    for (int i = 0; i < n; i++) {
        symbol[i] = vc_symbol(t[i], deuces_wild);
        suitbit[i] = symbol[i] >= 13 ? 0u : 1u << (t[i] & 3);
    }
    int64_t index = 0;
    for (int e = 4; e < n; e++) {
        int ke = symbol[e] * 15 * 15 * 15 * 15;
        unsigned se = suitbit[e];
        for (int d = 3; d < e; d++) {
            int kd = ke + symbol[d] * 15 * 15 * 15;
            unsigned sd = se | suitbit[d];
            for (int c = 2; c < d; c++) {
                int kc = kd + symbol[c] * 15 * 15;
                unsigned sc = sd | suitbit[c];
                for (int b = 1; b < c; b++) {
                    int kb = kc + symbol[b] * 15;
                    unsigned sb = sc | suitbit[b];
                    for (int a = 0; a < b; a++) {
                        unsigned s = sb | suitbit[a];
                        int key = kb + symbol[a];
                        o[index++] = (s & (s - 1)) ? plain[key] : flush[key];
                    }
                }
            }
        }
    }
    Py_END_ALLOW_THREADS
    free(plain);
    release_buffers(view, NBUF);
    Py_RETURN_NONE;
}

/* The 32 colex indices (within the table of their size) of the subsets of positions p[0..4]. */
static inline void subset_indices(vc_binom binom64, const int p[5], int64_t idx[32], int size[32])
{
    for (int m = 0; m < 32; m++) {
        int64_t v = 0;
        int k = 0;
        for (int j = 0; j < 5; j++)
            if (m >> j & 1) {
                k++;
                v += binom64[p[j]][k];
            }
        idx[m] = v;
        size[m] = k;
    }
}

/* The number of draws of each outcome for hold h of a dealt hand, by inclusion-exclusion over
 * the supersets of h inside the dealt hand (own = the dealt hand's own outcome); one body for
 * the tables of both kernels (32-bit counts of physical cards, 64-bit of multisets). */
#define VC_HOLD_COUNTS(NAME, CELL)                                                                        \
    static void NAME(int h, const int size[32], const int64_t idx[32], int own, CELL *const tab[5], int K, \
                     int64_t c[])                                                                         \
    {                                                                                                     \
        memset(c, 0, sizeof(int64_t) * (size_t)K);                                                        \
        int free_mask = 31 & ~h;                                                                          \
        for (int sub = free_mask;; sub = (sub - 1) & free_mask) {                                         \
            int t = h | sub;                                                                              \
            int sign = (cl_popcount32(sub) & 1) ? -1 : 1;                                                 \
            if (t == 31)                                                                                  \
                c[own] += sign;                                                                           \
            else {                                                                                        \
                const CELL *row = tab[size[t]] + idx[t] * K;                                              \
                for (int o = 0; o < K; o++)                                                               \
                    c[o] += sign * (int64_t)row[o];                                                       \
            }                                                                                             \
            if (sub == 0)                                                                                 \
                break;                                                                                    \
        }                                                                                                 \
    }
VC_HOLD_COUNTS(hold_counts, uint32_t)
VC_HOLD_COUNTS(hold_counts_multi, uint64_t)

/* The tables of one whole-game analysis: for subsets of 0..4 positions, the count of each
 * outcome among the final hands that contain the subset (tab, K cells a subset, colex order)
 * and their total pay (tsum). */
typedef struct {
    uint32_t *tab[5];
    int64_t *tsum[5];
    const int64_t *pay, *w;
    int K, volatile_first;
} vc_game;

/* The positions x[0] < ... < x[k-1] of the next k-subset of 0..n-1 in colex order (0 at the end). */
static int next_subset(int *x, int k, int n)
{
    for (int j = 0; j < k; j++)
        if (x[j] + 1 < (j + 1 < k ? x[j + 1] : n)) {
            x[j]++;
            for (int i = 0; i < j; i++)
                x[i] = i;
            return 1;
        }
    return 0;
}

/* Fill the tables from every final hand's outcome: each final hand onto its five 4-subsets
 * (one count each), then each level from the one above: the rows of the k-subsets summed onto
 * their (k-1)-subsets count every final hand containing a (k-1)-subset 6 - k times. */
static void fill_tables(vc_binom binom64, int n, const uint8_t *oc, vc_game *g)
{
    const int K = g->K;
    uint32_t *t4 = g->tab[4];
    int64_t index = 0;
    for (int e = 4; e < n; e++) {
        int64_t ce = binom64[e][4];
        for (int d = 3; d < e; d++) {
            int64_t cd3 = binom64[d][3], cd4 = binom64[d][4];
            for (int c = 2; c < d; c++) {
                int64_t cc2 = binom64[c][2], cc3 = binom64[c][3];
                for (int b = 1; b < c; b++) {
                    int64_t cb1 = binom64[b][1], cb2 = binom64[b][2];
                    /* the 4-subsets without a, and with a and without b, c, d or e */
                    int64_t no_a = (cb1 + cc2 + cd3 + ce) * K;
                    int64_t no_b = (cc2 + cd3 + ce) * K, no_c = (cb2 + cd3 + ce) * K;
                    int64_t no_d = (cb2 + cc3 + ce) * K, no_e = (cb2 + cc3 + cd4) * K;
                    for (int a = 0; a < b; a++) {
                        int o = oc[index++];
                        t4[no_a + o]++;
                        t4[no_b + a * K + o]++;
                        t4[no_c + a * K + o]++;
                        t4[no_d + a * K + o]++;
                        t4[no_e + a * K + o]++;
                    }
                }
            }
        }
    }
    for (int k = 4; k >= 1; k--) {
        int x[4];
        for (int i = 0; i < k; i++)
            x[i] = i;
        const uint32_t *row = g->tab[k];
        uint32_t *below = g->tab[k - 1];
        do {
            for (int j = 0; j < k; j++) {
                int64_t v = 0;
                for (int i = 0; i < k; i++)
                    if (i != j)
                        v += binom64[x[i]][i < j ? i + 1 : i];
                uint32_t *dst = below + v * K;
                for (int o = 0; o < K; o++)
                    dst[o] += row[o];
            }
            row += K;
        } while (next_subset(x, k, n));
        int64_t cells = binom64[n][k - 1] * K;
        for (int64_t i = 0; i < cells; i++)
            below[i] /= (uint32_t)(6 - k);
    }
    for (int k = 0; k < 5; k++)
        for (int64_t i = 0; i < binom64[n][k]; i++) {
            int64_t s = 0;
            for (int o = 0; o < K; o++)
                s += g->pay[o] * (int64_t)g->tab[k][i * K + o];
            g->tsum[k][i] = s;
        }
}

/* The weighted mean square pay of hold h (the volatility the tie rule compares). */
static cl_i128 hold_square(const vc_game *g, int h, const int size[32], const int64_t idx[32], int own)
{
    int64_t c[VC_MAX_OUTCOMES];
    hold_counts(h, size, idx, own, g->tab, g->K, c);
    cl_i128 s = cl_i128_of(0);
    for (int o = 0; o < g->K; o++)
        s = cl_i128_add(s, cl_i128_mul(cl_i128_mul64(g->pay[o], g->pay[o]), c[o]));
    return cl_i128_mul(s, g->w[5 - size[h]]);
}

/* Between two holds of equal expected pay: is hold a better than hold b?  The less volatile one
 * (lower mean square pay), then the one keeping more cards, then the lower bit mask. */
static int better_tie(const vc_game *g, int a, int b, const int size[32], const int64_t idx[32], int own)
{
    const int vol = cl_i128_cmp(hold_square(g, a, size, idx, own), hold_square(g, b, size, idx, own));
    if (vol != 0)
        return g->volatile_first ? vol > 0 : vol < 0;
    if (size[a] != size[b])
        return size[a] > size[b];
    return a < b;
}

/* The best hold of the dealt hand at positions pos (own: its outcome), with the subsets' indices
 * and sizes, each hold's weighted pay (value), and whether another hold has the best pay (tied). */
static int best_hold(vc_binom binom64, const vc_game *g, const int pos[5], int own, int64_t idx[32], int size[32],
                     int64_t value[32], int *tied)
{
    int64_t v[32];
    subset_indices(binom64, pos, idx, size);
    for (int m = 0; m < 31; m++)
        v[m] = g->tsum[size[m]][idx[m]];
    v[31] = g->pay[own];
    /* superset Moebius transform: v[h] = pay over draws avoiding the discards */
    for (int j = 0; j < 5; j++)
        for (int m = 0; m < 32; m++)
            if (!(m >> j & 1))
                v[m] -= v[m | 1 << j];
    for (int m = 0; m < 32; m++)
        value[m] = v[m] * g->w[5 - size[m]];
    int best = 31;
    *tied = 0;
    for (int m = 30; m >= 0; m--) {
        if (value[m] > value[best]) {
            best = m;
            *tied = 0;
        } else if (value[m] == value[best]) {
            *tied = 1;
            if (better_tie(g, m, best, size, idx, own))
                best = m;
        }
    }
    return best;
}

/* counts += weight x the outcome counts of hold h */
static void add_hold(const vc_game *g, int h, const int size[32], const int64_t idx[32], int own, int64_t times,
                     int64_t *counts)
{
    int64_t c[VC_MAX_OUTCOMES];
    hold_counts(h, size, idx, own, g->tab, g->K, c);
    int64_t weight = g->w[5 - size[h]] * times;
    for (int o = 0; o < g->K; o++)
        counts[o] += c[o] * weight;
}

static const uint8_t SUIT_PERMS[24][4] = {
    {0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {0, 3, 2, 1},
    {1, 0, 2, 3}, {1, 0, 3, 2}, {1, 2, 0, 3}, {1, 2, 3, 0}, {1, 3, 0, 2}, {1, 3, 2, 0},
    {2, 0, 1, 3}, {2, 0, 3, 1}, {2, 1, 0, 3}, {2, 1, 3, 0}, {2, 3, 0, 1}, {2, 3, 1, 0},
    {3, 0, 1, 2}, {3, 0, 2, 1}, {3, 1, 0, 2}, {3, 1, 2, 0}, {3, 2, 0, 1}, {3, 2, 1, 0},
};

/* A folded dealt hand whose best holds tie down to the bit mask (equal pay, volatility and
 * size: the holds in `same`): the mask is over each member's own cards in deck order, so each
 * distinct member of the suit orbit picks its own lowest and adds its counts. */
static void add_members(const vc_game *g, const uint8_t *types, const int pos_of[53], const int pos[5], int own,
                        uint32_t same, const int size[32], const int64_t idx[32], int64_t *counts)
{
    uint64_t seen[24];
    int distinct = 0;
    for (int q = 0; q < 24; q++) {
        int mpos[5];
        uint64_t key = 0;
        for (int j = 0; j < 5; j++) {
            int t = types[pos[j]];
            mpos[j] = t >= 52 ? pos[j] : pos_of[(t >> 2) * 4 + SUIT_PERMS[q][t & 3]];
            key |= 1ull << mpos[j];
        }
        int dup = 0;
        for (int i = 0; i < distinct && !dup; i++)
            dup = seen[i] == key;
        if (dup)
            continue;
        seen[distinct++] = key;
        int bit[5];
        for (int j = 0; j < 5; j++) {
            bit[j] = 0;
            for (int i = 0; i < 5; i++)
                bit[j] += mpos[i] < mpos[j];
        }
        int chosen = -1, chosen_mask = 32;
        for (int h = 0; h < 32; h++)
            if (same >> h & 1) {
                int mask = 0;
                for (int j = 0; j < 5; j++)
                    if (h >> j & 1)
                        mask |= 1 << bit[j];
                if (mask < chosen_mask) {
                    chosen_mask = mask;
                    chosen = h;
                }
            }
        add_hold(g, chosen, size, idx, own, 1, counts);
    }
}

/* video_analyse(n, outcomes: uint8[C(n,5)], out_pay: int64[K], weights: int64[6],
 *               counts: int64[K] writable, strategy: uint8[C(n,5)] writable, volatile_first: bool,
 *               fold: bytes) -> (ties, total)
 *
 * weights[k] = L / C(n-5, k) for k cards drawn, L their least common multiple, so each dealt
 * hand counts L draws whatever it holds.  The best hold maximises the expected pay; among holds
 * of equal expected pay the less volatile wins (lower mean square pay; the more volatile with
 * volatile_first), then the one keeping more cards, then the lowest bit mask (bit j = the j-th
 * card of the dealt hand in deck order).  Returns the number of dealt hands whose best expected
 * pay was reached by more than one hold, and the sum of the best holds' weighted pays.
 *
 * fold empty: every dealt hand is solved and its best hold written to strategy.  fold = the
 * deck's card types (a deck in which every rank present has its four suits once, and at most one
 * joker): the dealt hands are folded by suit symmetry (a permutation of the suits changes no
 * outcome), only the one of each orbit whose suit masks (clubs, diamonds, hearts, spades) do
 * not increase is solved, counted as many times as its orbit has members (134,459 orbits for 52
 * cards), and strategy is not written (it may be empty). */
static PyObject *video_analyse(PyObject *Py_UNUSED(self), PyObject *args)
{
    int n, volatile_first;
    PyObject *outc_obj, *pay_obj, *w_obj, *cnt_obj, *strat_obj, *fold_obj;
    if (!PyArg_ParseTuple(args, "iOOOOOpO", &n, &outc_obj, &pay_obj, &w_obj, &cnt_obj, &strat_obj, &volatile_first,
                          &fold_obj))
        return NULL;
    if (n < 10 || n > VC_MAX_CARDS) {
        PyErr_SetString(PyExc_ValueError, "between 10 and 64 cards");
        return NULL;
    }
    vc_binom binom64;
    vc_binomials(binom64);
    int64_t hands = binom64[n][5];
    enum { OUTC, PAY, WEIGHTS, FOLD, COUNTS, STRATEGY, NBUF };
    Py_buffer view[NBUF];
    vc_arg first[] = {
        {outc_obj, 0, 1, hands, "outcomes"}, {pay_obj, 0, 8, 1, "out_pay"}, {w_obj, 0, 8, 6, "weights"},
        {fold_obj, 0, 1, 0, "fold"},
    };
    if (get_buffers(first, view, FOLD + 1) < 0)
        return NULL;
    int K = (int)(view[PAY].len / 8);
    int fold = view[FOLD].len > 0;
    vc_arg out_args[] = {{cnt_obj, 1, 8, K, "counts"}, {strat_obj, 1, 1, fold ? 0 : hands, "strategy"}};
    if (K > VC_MAX_OUTCOMES) {
        release_buffers(view, FOLD + 1);
        PyErr_SetString(PyExc_ValueError, "at most 64 outcomes");
        return NULL;
    }
    if (get_buffers(out_args, view + COUNTS, 2) < 0) {
        release_buffers(view, FOLD + 1);
        return NULL;
    }
    const char *bad = NULL;
    if (!all_below(&view[OUTC], hands, K))
        bad = "video_analyse: an outcome index past the pay table";
    /* folding: position of each card type; every rank present with its four suits, one joker */
    const uint8_t *types = view[FOLD].buf;
    int pos_of[53];
    for (int t = 0; t < 53; t++)
        pos_of[t] = -1;
    if (fold && !bad) {
        if (view[FOLD].len != n)
            bad = "video_analyse: fold takes the n card types";
        for (int i = 0; i < n && !bad; i++) {
            if (types[i] > 52 || pos_of[types[i]] >= 0)
                bad = "video_analyse: fold takes distinct card types 0..52";
            else
                pos_of[types[i]] = i;
        }
        for (int r = 0; r < 13 && !bad; r++)
            for (int s = 1; s < 4; s++)
                if ((pos_of[4 * r + s] < 0) != (pos_of[4 * r] < 0))
                    bad = "video_analyse: fold needs a deck with all four suits of each rank";
    }
    if (bad) {
        release_buffers(view, NBUF);
        PyErr_SetString(PyExc_ValueError, bad);
        return NULL;
    }
    vc_game g = {.pay = view[PAY].buf, .w = view[WEIGHTS].buf, .K = K, .volatile_first = volatile_first};
    int ok = 1;
    for (int k = 0; k < 5; k++) {
        g.tab[k] = calloc((size_t)binom64[n][k] * (size_t)K, sizeof(uint32_t));
        g.tsum[k] = calloc((size_t)binom64[n][k], sizeof(int64_t));
        ok = ok && g.tab[k] && g.tsum[k];
    }
    int64_t ties = 0, total = 0;
    if (ok) {
        const uint8_t *oc = view[OUTC].buf;
        int64_t *counts = view[COUNTS].buf;
        uint8_t *st = view[STRATEGY].buf;
        Py_BEGIN_ALLOW_THREADS
        memset(counts, 0, sizeof(int64_t) * (size_t)K);
        fill_tables(binom64, n, oc, &g);
        int64_t index = 0;
        int pos[5];
        int64_t idx[32], value[32];
        int size[32];
        for (pos[4] = 4; pos[4] < n; pos[4]++)
            for (pos[3] = 3; pos[3] < pos[4]; pos[3]++)
                for (pos[2] = 2; pos[2] < pos[3]; pos[2]++)
                    for (pos[1] = 1; pos[1] < pos[2]; pos[1]++)
                        for (pos[0] = 0; pos[0] < pos[1]; pos[0]++) {
                            int own = oc[index++];
                            int64_t orbit = 1;
                            if (fold) {
                                unsigned m[4] = {0, 0, 0, 0};
                                for (int j = 0; j < 5; j++)
                                    if (types[pos[j]] < 52)
                                        m[types[pos[j]] & 3] |= 1u << (types[pos[j]] >> 2);
                                if (m[0] < m[1] || m[1] < m[2] || m[2] < m[3])
                                    continue;
                                /* 24 / (the factorial of each run of equal masks) */
                                int run = 1;
                                orbit = 24;
                                for (int s = 1; s < 4; s++) {
                                    run = m[s] == m[s - 1] ? run + 1 : 1;
                                    orbit /= run;
                                }
                            }
                            int tied;
                            int best = best_hold(binom64, &g, pos, own, idx, size, value, &tied);
                            ties += tied * orbit;
                            total += value[best] * orbit;
                            uint32_t same = 0;
                            if (fold && tied) {  /* holds equal to the best down to the mask */
                                cl_i128 square = hold_square(&g, best, size, idx, own);
                                for (int h = 0; h < 32; h++)
                                    if (value[h] == value[best] && size[h] == size[best]
                                        && cl_i128_cmp(hold_square(&g, h, size, idx, own), square) == 0)
                                        same |= 1u << h;
                            }
                            if (fold && (same & (same - 1)))
                                add_members(&g, types, pos_of, pos, own, same, size, idx, counts);
                            else
                                add_hold(&g, best, size, idx, own, orbit, counts);
                            if (!fold)
                                st[index - 1] = (uint8_t)best;
                        }
        Py_END_ALLOW_THREADS
    }
    for (int k = 0; k < 5; k++) {
        free(g.tab[k]);
        free(g.tsum[k]);
    }
    release_buffers(view, NBUF);
    if (!ok)
        return PyErr_NoMemory();
    return Py_BuildValue("(LL)", (long long)ties, (long long)total);
}

/* video_hand(n, outcomes: uint8[C(n,5)], K, dealt: bytes[5] positions ascending,
 *            counts: int64[32*K] writable): counts[h*K + o] = final hands with outcome o whose
 * intersection with the dealt hand is exactly the hold h (bit j = dealt[j]). */
static PyObject *video_hand(PyObject *Py_UNUSED(self), PyObject *args)
{
    int n, K;
    PyObject *outc_obj, *dealt_obj, *cnt_obj;
    if (!PyArg_ParseTuple(args, "iOiOO", &n, &outc_obj, &K, &dealt_obj, &cnt_obj))
        return NULL;
    if (n < 5 || n > VC_MAX_CARDS || K < 1 || K > VC_MAX_OUTCOMES) {
        PyErr_SetString(PyExc_ValueError, "bad deck size or number of outcomes");
        return NULL;
    }
    vc_binom binom64;
    vc_binomials(binom64);
    enum { OUTC, DEALT, COUNTS, NBUF };
    Py_buffer view[NBUF];
    vc_arg bufs[] = {{outc_obj, 0, 1, binom64[n][5], "outcomes"}, {dealt_obj, 0, 1, 5, "dealt"},
                     {cnt_obj, 1, 8, 32 * (Py_ssize_t)K, "counts"}};
    if (get_buffers(bufs, view, NBUF) < 0)
        return NULL;
    const uint8_t *oc = view[OUTC].buf, *dp = view[DEALT].buf;
    int ascending = dp[4] < n;
    for (int j = 1; j < 5; j++)
        ascending = ascending && dp[j - 1] < dp[j];
    if (!ascending || !all_below(&view[OUTC], binom64[n][5], K)) {
        release_buffers(view, NBUF);
        PyErr_SetString(PyExc_ValueError, "video_hand: dealt positions ascending below n, outcomes below K");
        return NULL;
    }
    int64_t *counts = view[COUNTS].buf;
    Py_BEGIN_ALLOW_THREADS
    uint8_t bit[VC_MAX_CARDS];
    memset(bit, 0, sizeof bit);
    for (int j = 0; j < 5; j++)
        bit[dp[j]] = (uint8_t)(1u << j);
    memset(counts, 0, sizeof(int64_t) * 32 * (size_t)K);
    int64_t index = 0;
    for (int e = 4; e < n; e++)
        for (int d = 3; d < e; d++) {
            int me = bit[e] | bit[d];
            for (int c = 2; c < d; c++) {
                int mc = me | bit[c];
                for (int b = 1; b < c; b++) {
                    int mb = mc | bit[b];
                    for (int a = 0; a < b; a++)
                        counts[(mb | bit[a]) * K + oc[index++]]++;
                }
            }
        }
    Py_END_ALLOW_THREADS
    release_buffers(view, NBUF);
    Py_RETURN_NONE;
}

/* ---- decks with repeated cards (several decks): the same method over multisets of types ----
 *
 * The deck has mult[i] physical copies of type index i (0 <= i < T, types in symbol order).
 * Physical cards of one type are interchangeable, so A(T) for a physical subset depends only
 * on its multiset of types, and the tables are indexed by multisets: a sorted multiset
 * a0 <= a1 <= ... of size k has index sum C(a_i + i, i + 1) among the C(T + k - 1, k).
 * For a final multiset phi and a sub-multiset tau, the number of physical final hands with
 * types phi containing a fixed physical subset with types tau is prod C(m_t - tau_t, phi_t - tau_t).
 */

#define VC_MAX_TYPES 53

static inline int64_t multiset_index(vc_binom b, const int *a, int k)
{
    int64_t v = 0;
    for (int i = 0; i < k; i++)
        v += b[a[i] + i][i + 1];
    return v;
}

/* more draws of hold a than b on average?  compare x_a / d_a with x_b / d_b exactly */
static inline int cmp_ratio(cl_i128 xa, int64_t da, cl_i128 xb, int64_t db)
{
    return cl_i128_cmp(cl_i128_mul(xa, db), cl_i128_mul(xb, da));
}

/* video_analyse_multi(types: bytes[T], mult: bytes[T], deuces_wild, code_out, out_pay: int64[K],
 *     draws: int64[6] (C(N-5, k)), volatile_first, counts: uint64[6*K*2] writable (per number of
 *     cards drawn, each outcome's weighted count as an unsigned 128-bit lo, hi pair),
 *     strategy: uint8[C(T+4,5)] writable, outcomes: uint8[C(T+4,5)] writable,
 *     dealt: bytes (empty, or 5 sorted type indices), hand: int64[32*K] writable) -> ties
 * With a dealt hand only its 32 holds are counted (into hand, by physical mask over its sorted
 * cards); otherwise the whole game (counts, strategy). */
static PyObject *video_analyse_multi(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *types_obj, *mult_obj, *code_obj, *pay_obj, *draws_obj, *cnt_obj, *strat_obj, *outc_obj,
        *dealt_obj, *hand_obj;
    int deuces_wild, volatile_first;
    if (!PyArg_ParseTuple(args, "OOiOOOpOOOOO", &types_obj, &mult_obj, &deuces_wild, &code_obj, &pay_obj,
                          &draws_obj, &volatile_first, &cnt_obj, &strat_obj, &outc_obj, &dealt_obj, &hand_obj))
        return NULL;
    vc_binom binom64;
    vc_binomials(binom64);
    Py_buffer views[10];
    const vc_arg bufs[10] = {
        {types_obj, 0, 1, 0, "types"}, {mult_obj, 0, 1, 0, "mult"}, {code_obj, 0, 1, 0, "code_out"},
        {pay_obj, 0, 1, 0, "out_pay"}, {draws_obj, 0, 1, 0, "draws"}, {cnt_obj, 1, 1, 0, "counts"},
        {strat_obj, 1, 1, 0, "strategy"}, {outc_obj, 1, 1, 0, "outcomes"}, {dealt_obj, 0, 1, 0, "dealt"},
        {hand_obj, 1, 1, 0, "hand"},
    };
    if (get_buffers(bufs, views, 10) < 0)
        return NULL;
    Py_buffer bt = views[0], bm = views[1], bc = views[2], bp = views[3], bd = views[4], bcnt = views[5],
              bst = views[6], boc = views[7], bdl = views[8], bh = views[9];
    PyObject *result = NULL;
    int T = (int)bt.len;
    int K = (int)(bp.len / 8);
    if (T < 1 || T > VC_MAX_TYPES || bm.len != T || K < 1 || K > VC_MAX_OUTCOMES || bc.len < VC_NCODES
        || bd.len < 48 || bcnt.len < 6 * K * 16 || (bdl.len != 0 && bdl.len != 5) || bh.len < 32 * K * 8) {
        PyErr_SetString(PyExc_ValueError, "video_analyse_multi: bad buffer sizes");
        goto done;
    }
    int64_t finals = binom64[T + 4][5];
    CL_FAIL_IF(bst.len < finals || boc.len < finals, "video_analyse_multi: strategy/outcomes too short");
    int sorted_dealt = 1;
    for (Py_ssize_t j = 0; j < bdl.len; j++)
        sorted_dealt = sorted_dealt && ((const uint8_t *)bdl.buf)[j] < T
                       && (j == 0 || ((const uint8_t *)bdl.buf)[j - 1] <= ((const uint8_t *)bdl.buf)[j]);
    if (!all_below(&bc, VC_NCODES, K) || !all_below(&bt, T, 53) || !sorted_dealt) {
        PyErr_SetString(PyExc_ValueError,
                        "video_analyse_multi: outcomes below K, types below 53, dealt types sorted below T");
        goto done;
    }
    const uint8_t *types = bt.buf, *mult = bm.buf, *dealt = bdl.buf;
    const int64_t *pay = bp.buf, *draws = bd.buf;
    uint64_t *out = bcnt.buf;
    uint8_t *st = bst.buf, *oc = boc.buf;
    int64_t *hand = bh.buf;
    int one_hand = bdl.len == 5;
    uint64_t *tab[5];
    int64_t *tsum[5];
    int ok = 1;
    for (int k = 0; k < 5; k++) {
        tab[k] = calloc((size_t)binom64[T + k - 1 < 0 ? 0 : T + k - 1][k] * (size_t)K + 1, sizeof(uint64_t));
        tsum[k] = calloc((size_t)binom64[T + k - 1 < 0 ? 0 : T + k - 1][k] + 1, sizeof(int64_t));
        ok = ok && tab[k] && tsum[k];
    }
    int64_t ties = 0;
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        vc_rules rules;
        vc_rules_init(&rules, bc.buf, pay, deuces_wild);
        memset(out, 0, (size_t)6 * K * 16);
        cl_i128 acc[6][VC_MAX_OUTCOMES];
        for (int h = 0; h < 6; h++)
            for (int o = 0; o < VC_MAX_OUTCOMES; o++)
                acc[h][o] = cl_i128_of(0);
        int a[5];
        /* 1. the outcome of every final multiset, summed onto its sub-multisets */
        for (a[4] = 0; a[4] < T; a[4]++)
            for (a[3] = 0; a[3] <= a[4]; a[3]++)
                for (a[2] = 0; a[2] <= a[3]; a[2]++)
                    for (a[1] = 0; a[1] <= a[2]; a[1]++)
                        for (a[0] = 0; a[0] <= a[1]; a[0]++) {
                            /* distinct types and their counts */
                            int dt[5], dc[5], nd = 0;
                            for (int i = 0; i < 5; i++) {
                                if (nd && dt[nd - 1] == a[i])
                                    dc[nd - 1]++;
                                else {
                                    dt[nd] = a[i];
                                    dc[nd++] = 1;
                                }
                            }
                            int valid = 1;
                            for (int j = 0; j < nd; j++)
                                valid = valid && dc[j] <= mult[dt[j]];
                            int64_t idx5 = multiset_index(binom64, a, 5);
                            if (!valid) {
                                oc[idx5] = 0;
                                continue;
                            }
                            uint8_t hand_types[5];
                            for (int i = 0; i < 5; i++)
                                hand_types[i] = types[a[i]];
                            int o = rules.code_out[vc_classify(&rules, hand_types)];
                            oc[idx5] = (uint8_t)o;
                            /* every sub-multiset: take[j] of the dc[j] copies of dt[j] */
                            int take[5] = {0, 0, 0, 0, 0};
                            for (;;) {
                                int sub[5], k = 0;
                                int64_t weight = 1;
                                for (int j = 0; j < nd; j++) {
                                    for (int c = 0; c < take[j]; c++)
                                        sub[k++] = dt[j];
                                    weight *= binom64[mult[dt[j]] - take[j]][dc[j] - take[j]];
                                }
                                if (k < 5) {
                                    int64_t idx = multiset_index(binom64, sub, k);
                                    tab[k][idx * K + o] += (uint64_t)weight;
                                    tsum[k][idx] += weight * pay[o];
                                }
                                int j = 0;
                                while (j < nd && take[j] == dc[j])
                                    take[j++] = 0;
                                if (j == nd)
                                    break;
                                take[j]++;
                            }
                        }
        /* 2. every dealt multiset (or the one dealt hand): the best of its 32 holds */
        for (a[4] = 0; a[4] < T; a[4]++)
            for (a[3] = 0; a[3] <= a[4]; a[3]++)
                for (a[2] = 0; a[2] <= a[3]; a[2]++)
                    for (a[1] = 0; a[1] <= a[2]; a[1]++)
                        for (a[0] = 0; a[0] <= a[1]; a[0]++) {
                            if (one_hand) {
                                int same = 1;
                                for (int i = 0; i < 5; i++)
                                    same = same && a[i] == dealt[i];
                                if (!same)
                                    continue;
                            }
                            int64_t W = 1;
                            int valid = 1;
                            for (int i = 0; i < 5;) {
                                int j = i;
                                while (j < 5 && a[j] == a[i])
                                    j++;
                                if (j - i > mult[a[i]])
                                    valid = 0;
                                else
                                    W *= binom64[mult[a[i]]][j - i];
                                i = j;
                            }
                            if (!valid)
                                continue;
                            int64_t idx5 = multiset_index(binom64, a, 5);
                            int own = oc[idx5];
                            int64_t idx[32];
                            int size[32];
                            int64_t v[32];
                            for (int m = 0; m < 32; m++) {
                                int sub[5], k = 0;
                                for (int j = 0; j < 5; j++)
                                    if (m >> j & 1)
                                        sub[k++] = a[j];
                                size[m] = k;
                                idx[m] = k < 5 ? multiset_index(binom64, sub, k) : 0;
                                v[m] = k < 5 ? tsum[k][idx[m]] : pay[own];
                            }
                            for (int j = 0; j < 5; j++)
                                for (int m = 0; m < 32; m++)
                                    if (!(m >> j & 1))
                                        v[m] -= v[m | 1 << j];
                            if (one_hand) {
                                for (int m = 0; m < 32; m++) {
                                    int64_t c[VC_MAX_OUTCOMES];
                                    hold_counts_multi(m, size, idx, own, tab, K, c);
                                    for (int o = 0; o < K; o++)
                                        hand[m * K + o] = c[o];
                                }
                                continue;
                            }
                            int best = 31, tied = 0;
                            for (int m = 30; m >= 0; m--) {
                                int cmp = cmp_ratio(cl_i128_of(v[m]), draws[5 - size[m]], cl_i128_of(v[best]), draws[5 - size[best]]);
                                if (cmp > 0) {
                                    best = m;
                                    tied = 0;
                                } else if (cmp == 0) {
                                    tied = 1;
                                    int64_t ca[VC_MAX_OUTCOMES], cb[VC_MAX_OUTCOMES];
                                    hold_counts_multi(m, size, idx, own, tab, K, ca);
                                    hold_counts_multi(best, size, idx, own, tab, K, cb);
                                    cl_i128 sa = cl_i128_of(0), sb = cl_i128_of(0);
                                    for (int o = 0; o < K; o++) {
                                        sa = cl_i128_add(sa, cl_i128_mul(cl_i128_mul64(pay[o], pay[o]), ca[o]));
                                        sb = cl_i128_add(sb, cl_i128_mul(cl_i128_mul64(pay[o], pay[o]), cb[o]));
                                    }
                                    int vol = cmp_ratio(sa, draws[5 - size[m]], sb, draws[5 - size[best]]);
                                    int better = vol != 0 ? (volatile_first ? vol > 0 : vol < 0)
                                                          : (size[m] != size[best] ? size[m] > size[best] : m < best);
                                    if (better)
                                        best = m;
                                }
                            }
                            ties += tied ? W : 0;
                            st[idx5] = (uint8_t)best;
                            int64_t c[VC_MAX_OUTCOMES];
                            hold_counts_multi(best, size, idx, own, tab, K, c);
                            for (int o = 0; o < K; o++)
                                acc[5 - size[best]][o] = cl_i128_add(acc[5 - size[best]][o], cl_i128_mul64(c[o], W));
                        }
        for (int h = 0; h < 6; h++)
            for (int o = 0; o < K; o++) {
                out[(h * K + o) * 2] = cl_i128_lo(acc[h][o]);
                out[(h * K + o) * 2 + 1] = cl_i128_hi(acc[h][o]);
            }
        Py_END_ALLOW_THREADS
    }
    for (int k = 0; k < 5; k++) {
        free(tab[k]);
        free(tsum[k]);
    }
    if (!ok)
        PyErr_NoMemory();
    else
        result = PyLong_FromLongLong((long long)ties);
done:
    release_buffers(views, 10);
    return result;
}

CL_METHODS(video,
    CL_METHOD(video_outcomes, "Outcome of every five-card hand of a deck."),
    CL_METHOD(video_analyse, "Best hold of every dealt hand; outcome counts."),
    CL_METHOD(video_hand, "Outcome counts of the 32 holds of one dealt hand."),
    CL_METHOD(video_analyse_multi, "The analysis for decks with repeated cards."));
