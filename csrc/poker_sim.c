/* Simulated poker hands: k cards drawn from a deck (any multiset of cards), valued, counted by
 * category; the seed job's kernel ("10 million five-card hands, a category table").
 *
 * A hand is a partial shuffle of the deck (its first k places), and its k shuffle positions come
 * from one generator word (rng.h's batched draw) instead of one bounded draw each: the bounds
 * size, size - 1, ... multiply to 3.1e8 for five cards of 52 and 6.7e11 for seven, far below
 * 2^64, so a hand costs one generator call and k multiplications.  Bigger decks (several packs)
 * split the positions into groups whose bounds multiply to at most 2^48. */
#include "core.h"
#include "poker.h"

#include <string.h>

/* n hands of K cards by a partial shuffle of the deck (a card may repeat in it), counted by
 * strength category position in `tally`; with `repeats` a hand holding a card twice is copied
 * to `out` instead. */
static inline Py_ssize_t shuffle_hands(const cl_poker_tables *t, uint8_t *deck, const cl_draw_plan *p, const int K,
                                       const int repeats, Py_ssize_t n, cl_rng *rng, int64_t *tally, uint8_t *out)
{
    Py_ssize_t spilled = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        uint32_t pick[8];
        cl_plan_draw(rng, p, pick);
        uint64_t key = CL_SUIT_START, mask = 0, sum = 0;
        for (int j = 0; j < K; j++) {  /* the hand is deck[0..K) */
            const uint8_t c = cl_deal_card(deck, j, j + (int)pick[j]);
            key += t->key[c];
            mask |= t->bit[c];
            if (repeats)
                sum += t->bit[c];
        }
        if (repeats && CL_UNLIKELY(sum != mask)) {
            memcpy(out + spilled * K, deck, (size_t)K);
            spilled++;
            continue;
        }
        tally[cl_poker_value(t, key, mask) >> CL_CATEGORY_SHIFT]++;
    }
    return spilled;
}

/* A deck of distinct cards (at most 52) is one hand word, `left`; a hand takes its pick[j]-th
 * remaining card (in the word's bit order) for j = 0 .. K - 1: no deck in memory, so the hands
 * are independent of each other (the processor overlaps them), and the selected bit is the
 * card's bit in the hand's mask.  by_bit[b] is the key of the card whose bit is b.  The draws
 * are those of a partial shuffle (uniform over ordered hands) but not the same cards. */

#define BLOCK 256  /* hands whose draws are made before they are dealt (the two loops pipeline) */

#define SELECT_HANDS(NAME, ATTRIBUTE, SELECT)                                                          \
    ATTRIBUTE static void NAME(const cl_poker_tables *t, const uint64_t *by_bit, uint64_t left,           \
                               const cl_draw_plan *p, const int K, Py_ssize_t n, cl_rng *rng, int64_t *tally) \
    {                                                                                                  \
        uint32_t pick[BLOCK][8];                                                                       \
        for (Py_ssize_t start = 0; start < n; start += BLOCK) {                                        \
            const int size = n - start < BLOCK ? (int)(n - start) : BLOCK;                             \
            for (int i = 0; i < size; i++)                                                             \
                cl_batch_draw(rng, p->bound, K, p->threshold[0], pick[i]);                             \
            for (int i = 0; i < size; i++) {                                                           \
                uint64_t key = CL_SUIT_START, mask = 0, rest = left;                                   \
                for (int j = 0; j < K; j++) {                                                          \
                    const uint64_t bit = SELECT(rest, pick[i][j]);                                     \
                    rest ^= bit;                                                                       \
                    mask |= bit;                                                                       \
                    key += by_bit[cl_ctz64(bit)];                                                      \
                }                                                                                      \
                tally[cl_poker_value(t, key, mask) >> CL_CATEGORY_SHIFT]++;                            \
            }                                                                                          \
        }                                                                                              \
    }

SELECT_HANDS(select_hands_plain, , cl_select_bit_plain)

#ifdef CL_DISPATCH
SELECT_HANDS(select_hands_native, CL_TARGET_NATIVE, cl_select_bit_native)
#endif

/* poker_simulate(tables, cards, k, n, seed, counts, spill) -> rows spilled
 *   cards: the deck's physical cards (uint8, a card may repeat); seed: 4 uint64 words;
 *   counts: 16 int64, += the category counts; spill: n * k uint8 when a card repeats in the
 *   deck (several decks), where a hand holding a card twice is written instead of counted,
 *   for the caller to value. */
static PyObject *poker_simulate(PyObject *Py_UNUSED(self), PyObject *args)
{
    const cl_poker_tables *t;
    Py_buffer cards, seed, counts, spill;
    int k;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "O&y*iny*w*w*", cl_tables_arg, &t, &cards, &k, &n, &seed, &counts, &spill))
        return NULL;
    PyObject *result = NULL;
    int repeats = 0, bad_card = 0;
    if (cards.len <= 4096) {
        uint8_t seen[256] = {0};
        for (Py_ssize_t i = 0; i < cards.len; i++) {
            const uint8_t card = ((const uint8_t *)cards.buf)[i];
            repeats |= seen[card]++;
            bad_card |= card >= CL_CARDS;
        }
    }
    if (k < 5 || k > 7 || cards.len < k || cards.len > 4096 || seed.len != 32 || counts.len != 128
        || n < 0 || bad_card || (repeats && spill.len < n * k)) {
        PyErr_SetString(PyExc_ValueError, "poker_simulate: bad arguments");
        goto done;
    }
    Py_ssize_t spilled = 0;
    const int native = cl_native();
    (void)native;
    Py_BEGIN_ALLOW_THREADS
    uint8_t deck[4096];
    const int size = (int)cards.len;
    memcpy(deck, cards.buf, (size_t)size);
    cl_draw_plan plan;
    cl_plan_draws(&plan, size, k);
    cl_rng rng;
    cl_rng_seed(&rng, seed.buf);
    int64_t tally[16] = {0};  /* by category position */
    uint8_t *out = spill.buf;
    if (repeats || plan.groups > 1) {
        spilled = shuffle_hands(t, deck, &plan, k, repeats, n, &rng, tally, out);
    } else {
        uint64_t by_bit[64] = {0}, left = 0;
        for (int c = 0; c < size; c++) {
            const uint64_t bit = t->bit[deck[c]];
            left |= bit;
            by_bit[cl_ctz64(bit)] = t->key[deck[c]];
        }
#ifdef CL_DISPATCH
        if (native)
            select_hands_native(t, by_bit, left, &plan, k, n, &rng, tally);
        else
#endif
            select_hands_plain(t, by_bit, left, &plan, k, n, &rng, tally);
    }
    int64_t *total = counts.buf;
    for (int c = 0; c < 16; c++)
        total[t->category[c]] += tally[c];
    Py_END_ALLOW_THREADS
    result = PyLong_FromSsize_t(spilled);
done:
    CL_RELEASE(&cards, &seed, &counts, &spill);
    return result;
}

/* --- hands by number: a table of every hand's category -----------------------------------------
 * For a small hand space (five cards of a 52-card deck: 2,598,960 hands) the categories of all
 * hands are found once, in a fixed order (the subsets of the deck's places in lexicographic
 * order; poker_count_subsets in poker_eval.c), into a byte table; a simulated hand is then a
 * uniform integer below the number of hands and one byte read: the hand is the subset of that
 * number, its category that of the evaluator.  The numbers come three to a generator word when
 * the cube of the table's size is below 2^64 (2,598,960^3 = 1.76e19: 4.8% of words are
 * rejected), else two: rng.h's batched draw, exactly uniform, so a hand costs a third of a
 * generator call and one multiplication.  A chunk's last word may leave draws unused. */

#define TABLE_TALLIES 3

/* n hands by number, BATCH to a generator word, counted in tally (one per place in the batch,
 * so that equal categories in a row do not wait on each other; a bin for every byte, so that
 * the table needs no check). */
static inline void table_hands(const uint8_t *cat, uint32_t size, const int BATCH, Py_ssize_t n, cl_rng *rng,
                               int64_t tally[TABLE_TALLIES][256])
{
    uint64_t product = 1;
    uint32_t bound[TABLE_TALLIES] = {0};
    for (int j = 0; j < BATCH; j++) {
        bound[j] = size;
        product *= size;
    }
    const uint64_t threshold = cl_batch_threshold(product);
    uint32_t pick[TABLE_TALLIES] = {0};  /* (all written by the draw; set for the compiler) */
    Py_ssize_t i = 0;
    for (; i + BATCH <= n; i += BATCH) {
        cl_batch_draw(rng, bound, BATCH, threshold, pick);
        for (int j = 0; j < BATCH; j++)
            tally[j][cat[pick[j]]]++;
    }
    if (i < n) {
        cl_batch_draw(rng, bound, BATCH, threshold, pick);
        for (int j = 0; i < n; i++, j++)
            tally[j][cat[pick[j]]]++;
    }
}

/* The number of hands drawn from one generator word for a table of `size` hands: three when
 * size^3 < 2^64, else two (size < 2^32). */
static int table_batch(uint32_t size)
{
    return (uint64_t)size * size <= UINT64_MAX / size ? 3 : 2;
}

/* poker_simulate_table(table, n, seed, counts): counts (16 int64, by category position) += the
 * categories of n hands drawn uniformly by number from a poker_category_table. */
static PyObject *poker_simulate_table(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer table, seed, counts;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "y*ny*w*", &table, &n, &seed, &counts))
        return NULL;
    const uint8_t *cat = table.buf;
    CL_FAIL_IF(table.len < 1 || table.len > (Py_ssize_t)UINT32_MAX || seed.len != 32 || counts.len != 128 || n < 0,
               "poker_simulate_table: bad arguments");
    int64_t stray = 0;
    Py_BEGIN_ALLOW_THREADS
    cl_rng rng;
    cl_rng_seed(&rng, seed.buf);
    const uint32_t size = (uint32_t)table.len;
    int64_t tally[TABLE_TALLIES][256] = {{0}};
    if (table_batch(size) == 3)
        table_hands(cat, size, 3, n, &rng, tally);
    else
        table_hands(cat, size, 2, n, &rng, tally);
    int64_t *total = counts.buf;
    for (int c = 0; c < 256; c++) {
        int64_t sum = 0;
        for (int j = 0; j < TABLE_TALLIES; j++)
            sum += tally[j][c];
        if (c < 16)
            total[c] += sum;
        else
            stray += sum;
    }
    Py_END_ALLOW_THREADS
    CL_FAIL_IF(stray, "poker_simulate_table: a table byte past 15");
done:
    return CL_RELEASE_NONE(&table, &seed, &counts);
}

CL_METHODS(poker_sim,
    CL_METHOD(poker_simulate,
              "poker_simulate(tables, cards, k, n, seed, counts, spill) -> hands spilled (a card twice)."),
    CL_METHOD(poker_simulate_table,
              "poker_simulate_table(table, n, seed, counts): categories of n hands drawn by number."));
