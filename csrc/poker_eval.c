/* Poker hand evaluation: the tables (built once per rule variant from the rules' own values)
 * and the evaluator kernel over (n, k) arrays of card ids; see poker.h for the hand encoding. */
#include "core.h"
#include "poker.h"

#include <stdlib.h>
#include <string.h>

/* Rank keys: the rank counts in base 5 (at most four cards of a rank), the twos to eights in
 * the low 17 bits and the nines to aces from bit 17 on. */
static uint32_t rank_key(int rank)
{
    uint32_t key = 1;
    for (int r = rank < 7 ? 0 : 7; r < rank; r++)
        key *= 5;
    return rank < 7 ? key : key << CL_LOW_BITS;
}

#define CAPSULE_NAME "cardlab._core.poker_tables"

/* Free a set of tables (NULL, or built in part, is fine). */
static void tables_release(cl_poker_tables *t)
{
    if (t != NULL)
        CL_FREE(t->low, t->high, t->table, t->low5, t->high5, t->table5, t);
}

static void tables_free(PyObject *capsule)
{
    tables_release(PyCapsule_GetPointer(capsule, CAPSULE_NAME));
}

int cl_tables_arg(PyObject *capsule, void *tables)
{
    const cl_poker_tables *t = PyCapsule_GetPointer(capsule, CAPSULE_NAME);
    *(const cl_poker_tables **)tables = t;
    return t != NULL;
}

/* Base-5 codes of ``ranks`` ranks with at most seven cards in all, numbered smallest total first:
 * number[code] (or UINT32_MAX), and below[t]: how many codes total at most t cards. */
static void number_codes(int ranks, uint32_t *number, uint32_t *below)
{
    uint32_t codes = 1, next = 0;
    for (int r = 0; r < ranks; r++)
        codes *= 5;
    for (int total = 0; total <= 7; total++) {
        for (uint32_t code = 0; code < codes; code++) {
            int sum = 0;
            for (uint32_t c = code; c; c /= 5)
                sum += c % 5;
            if (sum == total)
                number[code] = next++;
            else if (total == 0)
                number[code] = UINT32_MAX;
        }
        below[total] = next;
    }
}

/* The two-part index: a nine-to-ace code picks a block holding every two-to-eight code with at
 * most 7 - (its cards) cards; the blocks are laid end to end, so the index is perfect and
 * minimal over the multisets of at most seven ranks.  Runs without the interpreter lock:
 * returns 0, or 1 (no memory). */
static int build_index(cl_poker_tables *t, const uint8_t *counts, const uint32_t *values, Py_ssize_t n)
{
    uint32_t below_low[8], below_high[8];
    /* room for every value of the key's fields, and past the last block for the largest low
     * number, so that a hand holding a card twice (counts past four) still reads in bounds */
    uint32_t *high = malloc(sizeof(uint32_t) * CL_HIGH_CODES);
    uint32_t *low = malloc(sizeof(uint32_t) * CL_LOW_CODES);
    t->low = calloc((size_t)1 << CL_LOW_BITS, sizeof(uint16_t));
    t->high = calloc((size_t)1 << 14, sizeof(uint32_t));
    if (!high || !low || !t->low || !t->high) {
        free(high);
        free(low);
        return 1;
    }
    number_codes(7, low, below_low);
    number_codes(6, high, below_high);
    uint32_t base = 0;
    for (int total = 0; total <= 7; total++) {  /* high codes in their numbering's order */
        for (uint32_t code = 0; code < CL_HIGH_CODES; code++) {
            if (high[code] == UINT32_MAX)
                continue;
            int sum = 0;
            for (uint32_t c = code; c; c /= 5)
                sum += c % 5;
            if (sum != total)
                continue;
            t->high[code] = base;
            base += below_low[7 - total];
        }
    }
    for (uint32_t code = 0; code < CL_HIGH_CODES; code++)
        if (high[code] == UINT32_MAX)
            t->high[code] = 0;
    for (uint32_t code = 0; code < CL_LOW_CODES; code++)  /* numbers below 3,432 */
        t->low[code] = low[code] == UINT32_MAX ? 0 : (uint16_t)low[code];
    free(high);
    free(low);
    t->size = base;
    t->table = calloc((size_t)base + below_low[7], sizeof(uint32_t));
    if (!t->table)
        return 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        uint32_t key = 0;
        for (int r = 0; r < 13; r++)
            key += counts[i * 13 + r] * rank_key(r);
        t->table[cl_poker_index(t, key)] = values[i];
    }
    return 0;
}

/* The digit sum of a base-5 code (its number of cards). */
static int code_cards(uint32_t code)
{
    int sum = 0;
    for (; code; code /= 5)
        sum += code % 5;
    return sum;
}

/* The index over the multisets of exactly `cards` ranks (five; seven measured no faster): low[code] numbers a low
 * code among the low codes with as many cards (at most `cards`; 0 for the others), high[code]
 * starts the block, for a high code of h <= `cards` cards, of the low codes of `cards` - h
 * cards; table holds the strengths of the rows of that many ranks, padded past the last block
 * by the most low codes of one size, so that a hand holding a card twice (whose digits may
 * carry) still reads in bounds.  Returns 0, or 1 (no memory). */
static int build_exact_index(int cards, uint16_t **low_out, uint32_t **high_out, uint32_t **table_out,
                             const uint8_t *counts, const uint32_t *values, Py_ssize_t n)
{
    uint32_t of_size[8] = {0}, pad = 0, base = 0;
    uint16_t *low = *low_out = calloc((size_t)1 << CL_LOW_BITS, sizeof(uint16_t));
    uint32_t *high = *high_out = calloc((size_t)1 << 14, sizeof(uint32_t));
    if (!low || !high)
        return 1;
    for (uint32_t code = 0; code < CL_LOW_CODES; code++) {
        const int size = code_cards(code);
        if (size <= cards)
            low[code] = (uint16_t)of_size[size]++;
    }
    for (int size = 0; size <= cards; size++)
        pad = of_size[size] > pad ? of_size[size] : pad;
    for (uint32_t code = 0; code < CL_HIGH_CODES; code++) {
        const int size = code_cards(code);
        if (size <= cards) {
            high[code] = base;
            base += of_size[cards - size];
        }
    }
    uint32_t *table = *table_out = calloc((size_t)base + pad, sizeof(uint32_t));
    if (!table)
        return 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        uint32_t key = 0;
        int size = 0;
        for (int r = 0; r < 13; r++) {
            key += counts[i * 13 + r] * rank_key(r);
            size += counts[i * 13 + r];
        }
        if (size == cards)
            table[low[key & ((1u << CL_LOW_BITS) - 1)] + high[key >> CL_LOW_BITS]] = values[i];
    }
    return 0;
}

/* poker_tables(counts, values, flush, categories) -> capsule
 *   counts: (n, 13) uint8 rank counts of every rank multiset to look up (sizes 5 to 7);
 *   values: (n,) uint32 their suit-blind strengths; flush: (8192,) uint32 by rank mask;
 *   categories: bytes, the Category value of each category position. */
static PyObject *poker_tables(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer counts, values, flush, cats;
    if (!PyArg_ParseTuple(args, "y*y*y*y*", &counts, &values, &flush, &cats))
        return NULL;
    PyObject *result = NULL;
    cl_poker_tables *t = NULL;
    Py_ssize_t n = values.len / 4;
    CL_FAIL_IF(counts.len != n * 13 || flush.len != 8192 * 4 || cats.len > 16,
               "poker_tables: buffers of the wrong size");
    const uint8_t *c = counts.buf;
    for (Py_ssize_t i = 0; i < counts.len; i++) {
        CL_FAIL_IF(c[i] > 4, "poker_tables: a rank counted more than four times");
    }
    t = calloc(1, sizeof(cl_poker_tables));
    if (!t) {
        PyErr_NoMemory();
        goto done;
    }
    for (int card = 52; card < 256; card++)
        t->bit[card] = CL_BAD_CARD;
    for (int card = 0; card < 52; card++) {
        t->key[card] = rank_key(card >> 2) + (UINT64_C(1) << (32 + 4 * (card & 3)));
        t->bit[card] = UINT64_C(1) << (16 * (card & 3) + (card >> 2));
    }
    memcpy(t->flush, flush.buf, sizeof(t->flush));
    memcpy(t->category, cats.buf, (size_t)cats.len);
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = build_index(t, c, values.buf, n) || build_exact_index(5, &t->low5, &t->high5, &t->table5, c, values.buf, n);
    Py_END_ALLOW_THREADS
    if (failed) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyCapsule_New(t, CAPSULE_NAME, tables_free);
    if (result != NULL)
        t = NULL;
done:
    tables_release(t);
    CL_RELEASE(&counts, &values, &flush, &cats);
    return result;
}

/* Evaluate rows of K cards.  With `check`, a row holding a card twice gets strength 0 (no
 * real hand has it: high card needs five different ranks) and is counted.  Returns -1 when a
 * byte is not a card id (the rows are then not all valued).  A row holds a card twice when its
 * mask has fewer than K bits: the plain path sees it as the sum of the card bits differing from
 * their or (adds only), the native one counts the bits (POPCNT); both flag the same rows. */
#define EVAL_ROWS(K, TWICE)                                                                  \
    for (Py_ssize_t i = 0; i < n; i++) {                                                    \
        const uint8_t *h = hands + i * (K);                                                 \
        uint64_t key = CL_SUIT_START, mask = 0, sum = 0;                                    \
        for (int j = 0; j < (K); j++) {                                                     \
            key += t->key[h[j]];                                                            \
            mask |= t->bit[h[j]];                                                           \
            if (check && !native)                                                           \
                sum += t->bit[h[j]];                                                        \
        }                                                                                   \
        (void)sum;                                                                          \
        uint32_t v = (K) == 5 ? cl_poker_exact(t, t->low5, t->high5, t->table5, key, mask)   \
                              : cl_poker_value(t, key, mask);                                \
        if (check && CL_UNLIKELY(TWICE)) {                                                  \
            v = 0;                                                                          \
            repeats++;                                                                      \
        }                                                                                   \
        seen |= mask;                                                                       \
        out[i] = v;                                                                         \
        if (cats)                                                                           \
            cats[i] = t->category[v >> CL_CATEGORY_SHIFT];                                  \
    }

#define EVAL_FUNCTION(NAME, ATTRIBUTE, NATIVE, TWICE)                                        \
    ATTRIBUTE static Py_ssize_t NAME(const cl_poker_tables *t, const uint8_t *hands, Py_ssize_t n, int k, \
                                     uint32_t *out, uint8_t *cats, int check)               \
    {                                                                                       \
        const int native = NATIVE;                                                          \
        Py_ssize_t repeats = 0;                                                             \
        uint64_t seen = 0;                                                                  \
        if (check) {                                                                        \
            switch (k) {                                                                    \
            case 5: EVAL_ROWS(5, TWICE(5)) break;                                           \
            case 6: EVAL_ROWS(6, TWICE(6)) break;                                           \
            default: EVAL_ROWS(7, TWICE(7)) break;                                          \
            }                                                                               \
        } else {                                                                            \
            switch (k) {                                                                    \
            case 5: EVAL_ROWS(5, 0) break;                                                  \
            case 6: EVAL_ROWS(6, 0) break;                                                  \
            default: EVAL_ROWS(7, 0) break;                                                 \
            }                                                                               \
        }                                                                                   \
        return (seen & CL_BAD_CARD) ? -1 : repeats;                                         \
    }

#define TWICE_BY_SUM(K) (sum != mask)
#define TWICE_BY_COUNT(K) (cl_popcount64(mask) != (K))

EVAL_FUNCTION(eval_rows_plain, , 0, TWICE_BY_SUM)
#ifdef CL_DISPATCH
EVAL_FUNCTION(eval_rows_native, CL_TARGET_NATIVE, 1, TWICE_BY_COUNT)
#endif

static Py_ssize_t eval_rows(const cl_poker_tables *t, const uint8_t *hands, Py_ssize_t n, int k, uint32_t *out,
                            uint8_t *cats, int check, int native)
{
#ifdef CL_DISPATCH
    if (native)
        return eval_rows_native(t, hands, n, k, out, cats, check);
#endif
    (void)native;
    return eval_rows_plain(t, hands, n, k, out, cats, check);
}

/* poker_evaluate(tables, hands, k, strengths, categories, check[, cursor, block]) -> rows holding a card twice
 *   hands: n * k uint8 card ids 0..51 (trusted: the wrapper checks them); strengths: n uint32
 *   (written); categories: n uint8 (written) or None.  With cursor (one int64, shared by the
 *   threads that evaluate the same arrays) the rows are taken `block` at a time from the cursor
 *   until none are left: a thread that runs faster (its core less loaded) takes more blocks. */
static PyObject *poker_evaluate(PyObject *Py_UNUSED(self), PyObject *args)
{
    const cl_poker_tables *t;
    PyObject *cats_obj, *cursor_obj = Py_None;
    Py_buffer hands, out, cats = {0}, cursor = {0};
    int k, check;
    Py_ssize_t block = 0;
    if (!PyArg_ParseTuple(args, "O&y*iw*Op|On", cl_tables_arg, &t, &hands, &k, &out, &cats_obj, &check, &cursor_obj,
                          &block))
        return NULL;
    PyObject *result = NULL;
    if (cats_obj != Py_None && PyObject_GetBuffer(cats_obj, &cats, PyBUF_WRITABLE) < 0)
        goto done;
    if (cursor_obj != Py_None && PyObject_GetBuffer(cursor_obj, &cursor, PyBUF_WRITABLE) < 0)
        goto done;
    Py_ssize_t n = k > 0 ? hands.len / k : 0;
    if (k < 5 || k > 7 || hands.len != n * k || out.len != n * 4 || (cats.buf && cats.len != n)
        || (cursor.buf && (cursor.len != 8 || ((uintptr_t)cursor.buf & 7) || block < 1))) {
        PyErr_SetString(PyExc_ValueError, "poker_evaluate: buffers of the wrong size");
        goto done;
    }
    Py_ssize_t repeats = 0;
    const int native = cl_native();
    const uint8_t *h = hands.buf;
    uint32_t *o = out.buf;
    uint8_t *c = cats.buf;
    if (block > n)
        block = n > 0 ? n : 1;
    Py_BEGIN_ALLOW_THREADS
    if (!cursor.buf) {
        repeats = eval_rows(t, h, n, k, o, c, check, native);
    } else {
        for (;;) {
            const int64_t start = cl_atomic_fetch_add64(cursor.buf, (int64_t)block);
            if (start < 0 || start >= (int64_t)n)  /* done (or a cursor not started at 0) */
                break;
            const Py_ssize_t rows = (Py_ssize_t)start + block <= n ? block : n - (Py_ssize_t)start;
            const Py_ssize_t got = eval_rows(t, h + start * k, rows, k, o + start, c ? c + start : NULL, check, native);
            if (got < 0 || repeats < 0)
                repeats = -1;
            else
                repeats += got;
        }
    }
    Py_END_ALLOW_THREADS
    result = PyLong_FromSsize_t(repeats);
done:
    CL_RELEASE(&hands, &out, &cats, &cursor);  /* the optional two may be unset ({0}): a no-op */
    return result;
}

/* poker_count_subsets(tables, cards, k, counts[, positions]): counts (16 int64) += categories of
 * every k-card subset of the distinct cards; positions (C(len(cards), k) uint8, or None) gets the
 * category position of each subset in lexicographic order of places (the simulation's table of
 * every hand, cardlab.poker.odds.hand_categories). */
static PyObject *poker_count_subsets(PyObject *Py_UNUSED(self), PyObject *args)
{
    const cl_poker_tables *t;
    PyObject *positions_obj = Py_None;
    Py_buffer cards, counts, positions = {0};
    int k;
    if (!PyArg_ParseTuple(args, "O&y*iw*|O", cl_tables_arg, &t, &cards, &k, &counts, &positions_obj))
        return NULL;
    PyObject *result = NULL;
    if (positions_obj != Py_None && PyObject_GetBuffer(positions_obj, &positions, PyBUF_WRITABLE) < 0)
        goto done;
    const uint8_t *c = cards.buf;
    uint64_t seen = 0;
    int bad = k < 5 || k > 7 || cards.len > CL_CARDS || counts.len != 16 * 8;
    for (Py_ssize_t i = 0; i < cards.len && !bad; i++) {
        bad = c[i] >= CL_CARDS || (seen >> c[i] & 1);
        seen |= UINT64_C(1) << (c[i] & 63);
    }
    if (!bad && positions.buf) {
        double subsets = cards.len >= k;
        for (int j = 0; j < k && subsets; j++)
            subsets = subsets * (double)(cards.len - j) / (double)(j + 1);
        bad = (double)positions.len != subsets;
    }
    CL_FAIL_IF(bad, "poker_count_subsets: bad arguments");
    Py_BEGIN_ALLOW_THREADS
    cl_poker_subsets(t, c, (int)cards.len, k, positions.buf, counts.buf);
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    CL_RELEASE(&cards, &counts, &positions);  /* positions may be unset ({0}): a no-op */
    return result;
}

CL_METHODS(poker_eval,
    CL_METHOD(poker_count_subsets,
              "poker_count_subsets(tables, cards, k, counts[, positions]): categories of every k-card subset."),
    CL_METHOD(poker_tables, "poker_tables(counts, values, flush, categories) -> the evaluator's tables (a capsule)."),
    CL_METHOD(poker_evaluate,
              "poker_evaluate(tables, hands, k, strengths, categories, check[, cursor, block]) -> rows holding a card twice."));
