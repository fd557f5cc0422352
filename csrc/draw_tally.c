/* A chunk of a simulation in one loop: draw the hands of a cardlab.dealing.Draw from the chunk's
 * stream, value them, count them; the hands never reach Python (the engine's fused route,
 * cardlab.drawing).  draw_hands writes the same hands out for the engine's generic route, so both
 * routes count the same hands for the same seed.
 *
 * The stream (one definition; tests/stream_reference.py is a plain-Python copy of it):
 *   the generator is xoshiro256** seeded with the chunk's 4 seed words (rng.h);
 *   a hand is k ranks r_j uniform in [0, size - j), j = 0 .. k - 1, drawn by rng.h's plan (the
 *   bounds cut in order into groups whose product is at most 2^48, each group from one generator
 *   word by the batched Lemire draw, a rejected group drawn again from the next word);
 *   place j of the hand is the r_j-th (from 0) of the deck's places not yet taken, in deck order
 *   (Python's remaining.pop(r_j)), and its card is cards[place].
 * Hands are drawn in row order, each from fresh places: a hand depends on its own draws only.
 *
 * In a deck of at most 64 cards the r-th place left is the r-th set bit of a word of the places
 * left (BMI2's PDEP, portable.h), where the processor has it; otherwise, and in a larger deck,
 * the hand's places taken are kept sorted and a rank counted past each one at or below it.
 *
 * Valuers: poker (the category position of the evaluator's strength, poker.h; a hand holding a
 * card twice, from several decks, is copied to spill for the caller to value), weights (the sum
 * of a weight per card id, counted in a table: a bridge hand's points, or its suit lengths as one
 * number), or none (the hands written out only).
 */
#include "core.h"
#include "poker.h"

#include <string.h>

#define MAX_CARDS CL_PLAN_SIZE
#define MAX_K CL_PLAN_MAX
#define BLOCK 128  /* hands whose draws are made before they are dealt (the two loops pipeline) */

typedef struct {
    const cl_poker_tables *t;  /* the poker valuer, or NULL */
    int64_t tally16[16];       /* poker: by category position */
    int repeats;               /* the deck holds a card twice */
    uint8_t *spill;
    Py_ssize_t spilled;
    const int32_t *weights;    /* the weights valuer (per card id), or NULL */
    int64_t *tally;
    Py_ssize_t tally_len;
    int out_of_range;
    uint8_t *hands;            /* every hand at its row, or NULL */
} valuer;

static inline void take(valuer *v, Py_ssize_t row, const uint8_t *hand, const int k)
{
    if (v->hands)
        memcpy(v->hands + row * k, hand, (size_t)k);
    if (v->t) {
        const cl_poker_tables *t = v->t;
        uint64_t key = CL_SUIT_START, mask = 0, sum = 0;
        for (int j = 0; j < k; j++) {
            key += t->key[hand[j]];
            mask |= t->bit[hand[j]];
            sum += t->bit[hand[j]];
        }
        if (v->repeats && CL_UNLIKELY(sum != mask)) {
            memcpy(v->spill + v->spilled * k, hand, (size_t)k);
            v->spilled++;
            return;
        }
        const uint32_t value = k == 5 ? cl_poker_exact(t, t->low5, t->high5, t->table5, key, mask)  /* 24 KB */
                                      : cl_poker_value(t, key, mask);
        v->tally16[value >> CL_CATEGORY_SHIFT]++;
        return;
    }
    if (v->weights) {
        int64_t total = 0;
        for (int j = 0; j < k; j++)
            total += v->weights[hand[j]];
        if (CL_UNLIKELY(total >= v->tally_len)) {
            v->out_of_range = 1;
            return;
        }
        v->tally[total]++;
    }
}

/* The places of one hand from its ranks, in a deck of more than 64 cards: sorted[] keeps the
 * places taken so far in order, and a rank moves past each one at or below it. */
static inline void places_sorted(const uint32_t *rank, uint16_t *place, const int k)
{
    uint16_t sorted[MAX_K];
    for (int j = 0; j < k; j++) {
        uint32_t p = rank[j];
        int i = 0;
        while (i < j && sorted[i] <= p) {
            p++;
            i++;
        }
        memmove(sorted + i + 1, sorted + i, (size_t)(j - i) * sizeof *sorted);
        sorted[i] = (uint16_t)p;
        place[j] = (uint16_t)p;
    }
}

/* n hands of K cards, a block of draws at a time.  Compiled per hand size (5, 6, 7, 13 and any)
 * and, for decks of at most 64 cards, with each way of selecting a set bit. */
#define DRAW_ROWS(NAME, ATTRIBUTE, PLACES)                                                                 \
    ATTRIBUTE static inline void NAME(cl_rng *g, const cl_draw_plan *p, const uint8_t *cards, int size,  \
                                      Py_ssize_t n, valuer *v, const int K)                               \
    {                                                                                                    \
        uint32_t rank[BLOCK * MAX_K];                                                                    \
        const uint64_t all = size == 64 ? ~UINT64_C(0) : (UINT64_C(1) << (size & 63)) - 1;               \
        const int one_group = p->groups == 1;                                                            \
        for (Py_ssize_t start = 0; start < n; start += BLOCK) {                                          \
            const int count = n - start < BLOCK ? (int)(n - start) : BLOCK;                              \
            for (int i = 0; i < count; i++) {                                                            \
                if (one_group)                                                                           \
                    cl_batch_draw(g, p->bound, K, p->threshold[0], rank + i * K);                        \
                else                                                                                     \
                    cl_plan_draw(g, p, rank + i * K);                                                    \
            }                                                                                            \
            for (int i = 0; i < count; i++) {                                                            \
                const uint32_t *r = rank + i * K;                                                        \
                uint8_t hand[MAX_K];                                                                     \
                uint16_t place[MAX_K];                                                                   \
                if (size <= 64)                                                                          \
                    PLACES(r, all, place, K);                                                            \
                else                                                                                     \
                    places_sorted(r, place, K);                                                          \
                for (int j = 0; j < K; j++)                                                              \
                    hand[j] = cards[place[j]];                                                           \
                take(v, start + i, hand, K);                                                             \
            }                                                                                            \
        }                                                                                                \
    }                                                                                                    \
                                                                                                         \
    ATTRIBUTE static void NAME##_k(cl_rng *g, const cl_draw_plan *p, const uint8_t *cards, int size,     \
                                   Py_ssize_t n, valuer *v, int k)                                       \
    {                                                                                                    \
        switch (k) {                                                                                     \
        case 5:                                                                                          \
            NAME(g, p, cards, size, n, v, 5);                                                            \
            break;                                                                                       \
        case 6:                                                                                          \
            NAME(g, p, cards, size, n, v, 6);                                                            \
            break;                                                                                       \
        case 7:                                                                                          \
            NAME(g, p, cards, size, n, v, 7);                                                            \
            break;                                                                                       \
        case 13:                                                                                         \
            NAME(g, p, cards, size, n, v, 13);                                                           \
            break;                                                                                       \
        default:                                                                                         \
            NAME(g, p, cards, size, n, v, k);                                                            \
        }                                                                                                \
    }

/* The places of one hand in a deck of at most 64 cards (all: a bit per place): without BMI2 as in
 * a larger deck (measured: 43 ns a five-card hand counted, against 52 ns for a broadword selection
 * of set bits and 135 ns for a binary search on counts without a popcount instruction); with it,
 * the r-th place left is the r-th set bit of a word of the places left (PDEP: 8 ns). */
#define places_plain(rank, all, place, K) ((void)(all), places_sorted(rank, place, K))

DRAW_ROWS(rows_plain, , places_plain)

#ifdef CL_DISPATCH
CL_TARGET_NATIVE static inline void places_native(const uint32_t *rank, uint64_t rest, uint16_t *place, const int k)
{
    for (int j = 0; j < k; j++) {
        const uint64_t bit = cl_select_bit_native(rest, rank[j]);
        rest ^= bit;
        place[j] = (uint16_t)cl_ctz64(bit);
    }
}

DRAW_ROWS(rows_native, CL_TARGET_NATIVE, places_native)
#endif

/* The seed job's loop: poker hands of K (5..7) cards from a deck of at most 64 distinct cards,
 * counted only (the same hands as DRAW_ROWS draws: one generator group, places by set bits).
 * key_at and bit_at are the evaluator's key and bit of the card at each place; a block's keys are
 * found first, their index entries prefetched (six and seven cards: the index is 320 KB), then
 * valued; the counts go to four tallies in turn, so that a run of hands of one category does not
 * wait on its own count. */
#define POKER_ROWS(NAME, ATTRIBUTE, PLACES)                                                                \
    ATTRIBUTE static inline void NAME(cl_rng *g, const cl_draw_plan *p, const cl_poker_tables *t,          \
                                      const uint64_t *key_at, const uint64_t *bit_at, uint64_t all,        \
                                      Py_ssize_t n, int64_t (*tally)[16], const int K)                     \
    {                                                                                                    \
        uint32_t rank[BLOCK * 8];                                                                        \
        uint64_t keys[BLOCK], masks[BLOCK];                                                              \
        const uint16_t *low = t->low, *low5 = t->low5;                                                   \
        const uint32_t *high = t->high, *table = t->table, *high5 = t->high5, *table5 = t->table5;       \
        uint32_t index[BLOCK];                                                                           \
        for (Py_ssize_t start = 0; start < n; start += BLOCK) {                                          \
            const int count = n - start < BLOCK ? (int)(n - start) : BLOCK;                              \
            for (int i = 0; i < count; i++)                                                              \
                cl_batch_draw(g, p->bound, K, p->threshold[0], rank + i * K);                            \
            for (int i = 0; i < count; i++) {                                                            \
                uint16_t place[8];                                                                       \
                PLACES(rank + i * K, all, place, K);                                                     \
                uint64_t key = CL_SUIT_START, mask = 0;                                                  \
                for (int j = 0; j < K; j++) {                                                            \
                    key += key_at[place[j]];                                                             \
                    mask |= bit_at[place[j]];                                                            \
                }                                                                                        \
                keys[i] = key;                                                                           \
                masks[i] = mask;                                                                         \
                if (K != 5) { /* the index's two parts, for the pass below (the five-card one is 24 KB) */ \
                    CL_PREFETCH(low + (key & ((1u << CL_LOW_BITS) - 1)));                                \
                    CL_PREFETCH(high + ((key >> CL_LOW_BITS) & 0x3fff));                                 \
                }                                                                                        \
            }                                                                                            \
            if (K != 5)                                                                                  \
                for (int i = 0; i < count; i++) { /* the table entries, prefetched in turn */            \
                    const uint64_t key = keys[i];                                                        \
                    index[i] = low[key & ((1u << CL_LOW_BITS) - 1)] + high[(key >> CL_LOW_BITS) & 0x3fff]; \
                    CL_PREFETCH(table + index[i]);                                                       \
                }                                                                                        \
            for (int i = 0; i < count; i++) {                                                            \
                uint32_t value;                                                                          \
                if (K == 5)                                                                              \
                    value = cl_poker_exact(t, low5, high5, table5, keys[i], masks[i]);                   \
                else if (CL_UNLIKELY(keys[i] & CL_FLUSH_BITS))                                           \
                    value = cl_poker_value(t, keys[i], masks[i]);                                        \
                else                                                                                     \
                    value = table[index[i]];                                                             \
                tally[i & 3][value >> CL_CATEGORY_SHIFT]++;                                              \
            }                                                                                            \
        }                                                                                                \
    }                                                                                                    \
                                                                                                         \
    ATTRIBUTE static void NAME##_k(cl_rng *g, const cl_draw_plan *p, const cl_poker_tables *t,             \
                                   const uint64_t *key_at, const uint64_t *bit_at, uint64_t all,           \
                                   Py_ssize_t n, int64_t (*tally)[16], int k)                              \
    {                                                                                                    \
        if (k == 5)                                                                                      \
            NAME(g, p, t, key_at, bit_at, all, n, tally, 5);                                             \
        else if (k == 6)                                                                                 \
            NAME(g, p, t, key_at, bit_at, all, n, tally, 6);                                             \
        else                                                                                             \
            NAME(g, p, t, key_at, bit_at, all, n, tally, 7);                                             \
    }

POKER_ROWS(poker_plain, , places_plain)

#ifdef CL_DISPATCH
POKER_ROWS(poker_native, CL_TARGET_NATIVE, places_native)
#endif

/* The poker loop for a deck of distinct cards, at most 64, when no hand is written out. */
static void count_poker(cl_rng *g, const cl_draw_plan *p, const uint8_t *cards, int size, Py_ssize_t n,
                        valuer *v, int k, int native)
{
    const cl_poker_tables *t = v->t;
    uint64_t key_at[64], bit_at[64];
    for (int c = 0; c < size; c++) {
        key_at[c] = t->key[cards[c]];
        bit_at[c] = t->bit[cards[c]];
    }
    const uint64_t all = size == 64 ? ~UINT64_C(0) : (UINT64_C(1) << size) - 1;
    int64_t tally[4][16];
    memset(tally, 0, sizeof tally);
    (void)native;
#ifdef CL_DISPATCH
    if (native)
        poker_native_k(g, p, t, key_at, bit_at, all, n, tally, k);
    else
#endif
        poker_plain_k(g, p, t, key_at, bit_at, all, n, tally, k);
    for (int c = 0; c < 16; c++)
        v->tally16[c] += tally[0][c] + tally[1][c] + tally[2][c] + tally[3][c];
}

/* Checks shared by the kernels; the deck's repeats in *repeats. */
static int bad_draw(const Py_buffer *cards, int k, Py_ssize_t n, const Py_buffer *seed, const Py_buffer *hands,
                    int *repeats)
{
    if (cards->len < 1 || cards->len > MAX_CARDS || k < 1 || k > MAX_K || k > cards->len || n < 0
        || n > PY_SSIZE_T_MAX / MAX_K || seed->len != 32 || (hands->len != 0 && hands->len != n * k))
        return 1;
    uint8_t seen[256] = {0};
    int bad = 0;
    for (Py_ssize_t i = 0; i < cards->len; i++) {
        const uint8_t card = ((const uint8_t *)cards->buf)[i];
        *repeats |= seen[card]++ > 0;
        bad |= card >= CL_CARDS;
    }
    return bad;
}

/* The chunk's hands through the valuer (native: cl_native(), asked before the lock was released). */
static void run_draws(const Py_buffer *cards, int k, Py_ssize_t n, const Py_buffer *seed, valuer *v, int native)
{
    cl_rng g;
    cl_rng_seed(&g, seed->buf);
    cl_draw_plan plan;
    const int size = (int)cards->len;
    cl_plan_draws(&plan, size, k);
    if (v->t && !v->repeats && !v->hands && size <= 64) {  /* one generator group: 64^7 < 2^48 */
        count_poker(&g, &plan, cards->buf, size, n, v, k, native);
        return;
    }
#ifdef CL_DISPATCH
    if (native && size <= 64) {
        rows_native_k(&g, &plan, cards->buf, size, n, v, k);
        return;
    }
#endif
    rows_plain_k(&g, &plan, cards->buf, size, n, v, k);
}

/* draw_poker(tables, cards, k, n, seed, counts, spill, hands) -> hands spilled
 *   cards: the deck's physical cards (card ids, in deck order); k: 5..7; seed: the chunk's 4
 *   generator words; counts: 16 int64 by category position (+=); spill: n * k bytes when the deck
 *   holds a card twice (a hand holding one twice is written there, not counted); hands: empty, or
 *   n * k bytes for every hand drawn, at its row. */
static PyObject *draw_poker(PyObject *Py_UNUSED(self), PyObject *args)
{
    const cl_poker_tables *t;
    Py_buffer cards, seed, counts, spill, hands;
    int k;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "O&y*iny*w*w*w*", cl_tables_arg, &t, &cards, &k, &n, &seed, &counts, &spill,
                          &hands))
        return NULL;
    valuer v;
    memset(&v, 0, sizeof v);
    v.t = t;
    CL_FAIL_IF(bad_draw(&cards, k, n, &seed, &hands, &v.repeats) || k < 5 || k > 7 || counts.len != 128
               || (v.repeats && spill.len < n * k), "draw_poker: bad arguments");
    v.spill = spill.buf;
    v.hands = hands.len ? hands.buf : NULL;
    const int native = cl_native();
    Py_BEGIN_ALLOW_THREADS
    run_draws(&cards, k, n, &seed, &v, native);
    int64_t *total = counts.buf;
    for (int c = 0; c < 16; c++)
        total[c] += v.tally16[c];
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_COUNT(v.spilled, &cards, &seed, &counts, &spill, &hands);
}

/* draw_weights(cards, k, n, seed, weights, tally, hands)
 *   weights: 52 int32 (>= 0) by card id; tally: int64, tally[sum of a hand's weights] += 1 (a sum
 *   past its end is an error); the rest as draw_poker (k: 1..64). */
static PyObject *draw_weights(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer cards, seed, weights, tally, hands;
    int k;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "y*iny*y*w*w*", &cards, &k, &n, &seed, &weights, &tally, &hands))
        return NULL;
    valuer v;
    memset(&v, 0, sizeof v);
    CL_FAIL_IF(bad_draw(&cards, k, n, &seed, &hands, &v.repeats) || weights.len != 4 * CL_CARDS
               || tally.len < 8 || tally.len % 8, "draw_weights: bad arguments");
    int32_t weight[CL_CARDS];  /* copied: the buffer need not be aligned */
    memcpy(weight, weights.buf, sizeof weight);
    for (int c = 0; c < CL_CARDS; c++)
        CL_FAIL_IF(weight[c] < 0, "draw_weights: a negative weight");
    v.weights = weight;
    v.tally = tally.buf;
    v.tally_len = tally.len / 8;
    v.hands = hands.len ? hands.buf : NULL;
    const int native = cl_native();
    Py_BEGIN_ALLOW_THREADS
    run_draws(&cards, k, n, &seed, &v, native);
    Py_END_ALLOW_THREADS
    CL_FAIL_IF(v.out_of_range, "draw_weights: a hand's sum past the tally");
done:
    return CL_RELEASE_NONE(&cards, &seed, &weights, &tally, &hands);
}

/* draw_hands(cards, k, n, seed, hands): the n hands of k cards (1..64) written to hands (n * k
 * bytes), nothing counted: the generic route's hands, the same as the other two kernels draw. */
static PyObject *draw_hands(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer cards, seed, hands;
    int k;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "y*iny*w*", &cards, &k, &n, &seed, &hands))
        return NULL;
    valuer v;
    memset(&v, 0, sizeof v);
    CL_FAIL_IF(bad_draw(&cards, k, n, &seed, &hands, &v.repeats) || hands.len != n * k, "draw_hands: bad arguments");
    v.hands = hands.buf;
    const int native = cl_native();
    Py_BEGIN_ALLOW_THREADS
    run_draws(&cards, k, n, &seed, &v, native);
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&cards, &seed, &hands);
}

CL_METHODS(draw_tally,
    CL_METHOD(draw_poker,
              "draw_poker(tables, cards, k, n, seed, counts, spill, hands) -> hands spilled (a card twice)."),
    CL_METHOD(draw_weights,
              "draw_weights(cards, k, n, seed, weights, tally, hands): sums of card weights counted."),
    CL_METHOD(draw_hands, "draw_hands(cards, k, n, seed, hands): the hands of the draw's stream written out."));
