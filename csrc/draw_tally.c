/* A chunk of a simulation in one loop: draw each hand exactly as cardlab.dealing.Draw.sample
 * draws it from the chunk's numpy generator (numpy_rng.h), value it, count it; the hands never
 * reach Python.  So the engine's fused route (cardlab.drawing) gives the counts of its generic
 * route, Draw.sample then the feature's encode, for the same seed, bit for bit.
 *
 * The two ways Draw.sample draws, mirrored:
 *   positions (k(k-1) <= size): integers(0, size, (n, k)) in uint8 (size <= 256) or uint16,
 *     row by row; the rows that picked a position twice are drawn again, in row order, by a new
 *     call of integers on just those rows, until none is left;
 *   shuffle (larger draws): a partial Fisher-Yates shuffle of every row at once, column by column:
 *     pick j of every row is j + integers(0, size - j, n) (int64), then row i swaps places j and
 *     pick.  The picks are made first (n * k of them, the only buffer), the rows dealt after.
 * A hand is the physical cards at its positions (cards[], card ids, a card may repeat).
 *
 * Two valuers: poker (the category position of the evaluator's strength, poker.h; a hand holding a
 * card twice is copied to spill for the caller to value) and weights (the sum of a weight per card
 * id, counted in a table: a bridge hand's points, or its suit lengths as one number).
 */
#include "core.h"
#include "numpy_rng.h"
#include "poker.h"

#include <string.h>

#define MAX_CARDS 4096
#define MAX_K 64

typedef struct {
    const cl_poker_tables *t;  /* the poker valuer, or NULL for weights */
    int64_t tally16[16];       /* poker: by category position */
    int repeats;               /* poker: the deck holds a card twice */
    uint8_t *spill;
    Py_ssize_t spilled;
    const int32_t *weights;    /* weights: per card id */
    int64_t *tally;
    Py_ssize_t tally_len;
    int out_of_range;
    uint8_t *hands;            /* every hand at its row, or NULL */
    int k;
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
    int64_t total = 0;
    for (int j = 0; j < k; j++)
        total += v->weights[hand[j]];
    if (CL_UNLIKELY(total >= v->tally_len)) {
        v->out_of_range = 1;
        return;
    }
    v->tally[total]++;
}

#define BLOCK_ROWS 256

/* One hand of the positions route: its row's positions checked (a repeat sends the row to
 * rows[*again]) and the hand valued. */
static inline void position_row(const uint32_t *pos, const uint8_t *cards, Py_ssize_t row, Py_ssize_t *rows,
                                Py_ssize_t *again, valuer *v, const int k)
{
    int repeat = 0;
    for (int j = 1; j < k; j++)
        for (int i = 0; i < j; i++)
            repeat |= pos[i] == pos[j];
    if (repeat) {
        rows[(*again)++] = row;  /* again <= the row's place: the places still to read are kept */
        return;
    }
    uint8_t hand[MAX_K];
    for (int j = 0; j < k; j++)
        hand[j] = cards[pos[j]];
    take(v, row, hand, k);
}

/* `count` poker hands of cards from a deck of distinct cards (the by-card table): row r is
 * from[r], or first + r when from is NULL. */
static inline void card_rows(const uint8_t *block, Py_ssize_t count, const Py_ssize_t *from, Py_ssize_t first,
                             Py_ssize_t *rows, Py_ssize_t *again, valuer *v, const int k)
{
    const cl_poker_tables *t = v->t;
    for (Py_ssize_t r = 0; r < count; r++) {
        const uint8_t *hand = block + r * k;
        const Py_ssize_t row = from ? from[r] : first + r;
        uint64_t key = CL_SUIT_START, mask = 0, sum = 0;
        for (int j = 0; j < k; j++) {
            key += t->key[hand[j]];
            mask |= t->bit[hand[j]];
            sum += t->bit[hand[j]];
        }
        if (sum != mask) {
            rows[(*again)++] = row;  /* as position_row */
            continue;
        }
        if (v->hands)
            memcpy(v->hands + row * k, hand, (size_t)k);
        const uint32_t value = k == 5 ? cl_poker_exact(t, t->low5, t->high5, t->table5, key, mask)
                                      : cl_poker_value(t, key, mask);
        v->tally16[value >> CL_CATEGORY_SHIFT]++;
    }
}

/* The positions route; -1 when its row list cannot be allocated.  Decks of 2 to 256 cards read
 * their bytes a word at a time (np_stream8), larger ones a value at a time.  Compiled for each
 * poker hand size (the compiler unrolls the row's checks) and once for any k. */
static inline int positions_of(np_pcg64 *g, const uint8_t *cards, int size, Py_ssize_t n, valuer *v, const int k)
{
    Py_ssize_t *rows = malloc((size_t)(n > 0 ? n : 1) * sizeof *rows);
    if (rows == NULL)
        return -1;
    const int narrow = size <= 256;
    const np_bound bound = np_bound_of((uint32_t)size - 1, narrow ? 8 : 16);
    np_table8 table;
    const int by_word = narrow && size >= 2;
    /* poker hands from distinct cards: the table gives the card itself, and a row repeats a
     * place exactly when its cards' bits add up to more than their union (no compares) */
    const int by_card = by_word && v->t != NULL && !v->repeats;
    if (by_word)
        np_table8_of(&table, &bound);
    if (by_card)
        for (int byte = 0; byte < 256; byte++)
            table.value[byte] = cards[table.value[byte]];  /* value < size for every byte */
    Py_ssize_t m = n;
    int first = 1;
    while (m > 0) {
        Py_ssize_t again = 0;
        if (by_word) {
            np_stream8 stream;
            np_stream8_start(&stream);
            uint8_t block[BLOCK_ROWS * MAX_K];
            for (Py_ssize_t start = 0; start < m; start += BLOCK_ROWS) {
                const Py_ssize_t count = m - start < BLOCK_ROWS ? m - start : BLOCK_ROWS;
                np_stream8_read(g, &stream, &table, block, count * k);
                if (by_card) {
                    card_rows(block, count, first ? NULL : rows + start, start, rows, &again, v, k);
                    continue;
                }
                for (Py_ssize_t r = 0; r < count; r++) {
                    uint32_t pos[MAX_K];
                    for (int j = 0; j < k; j++)
                        pos[j] = block[r * k + j];
                    position_row(pos, cards, first ? start + r : rows[start + r], rows, &again, v, k);
                }
            }
            np_stream8_end(g, &stream);
        } else {
            np_fill fill = {0, 0};
            for (Py_ssize_t r = 0; r < m; r++) {
                uint32_t pos[MAX_K];
                for (int j = 0; j < k; j++)
                    pos[j] = narrow ? np_bounded8(g, &fill, &bound) : np_bounded16(g, &fill, &bound);
                position_row(pos, cards, first ? r : rows[r], rows, &again, v, k);
            }
        }
        m = again;
        first = 0;
    }
    free(rows);
    return 0;
}

static int draw_positions(np_pcg64 *g, const uint8_t *cards, int size, Py_ssize_t n, valuer *v)
{
    switch (v->k) {
    case 5:
        return positions_of(g, cards, size, n, v, 5);
    case 6:
        return positions_of(g, cards, size, n, v, 6);
    case 7:
        return positions_of(g, cards, size, n, v, 7);
    default:
        return positions_of(g, cards, size, n, v, v->k);
    }
}

/* The shuffle route; -1 when its picks cannot be allocated (compiled for seven cards, bridge
 * hands and any k, as positions_of). */
static inline int shuffled_of(np_pcg64 *g, const uint8_t *cards, int size, Py_ssize_t n, valuer *v, const int k)
{
    uint16_t *picks = malloc((size_t)(n > 0 ? n : 1) * (size_t)k * sizeof *picks);
    if (picks == NULL)
        return -1;
    for (int j = 0; j < k; j++) {
        const np_bound bound = np_bound_of((uint32_t)(size - j - 1), 32);
        for (Py_ssize_t i = 0; i < n; i++)
            picks[i * k + j] = (uint16_t)((uint32_t)j + np_bounded32(g, &bound));
    }
    uint16_t place[MAX_CARDS];
    for (int c = 0; c < size; c++)
        place[c] = (uint16_t)c;
    for (Py_ssize_t i = 0; i < n; i++) {
        const uint16_t *pick = picks + i * k;
        uint8_t hand[MAX_K];
        for (int j = 0; j < k; j++) {
            const uint16_t chosen = place[pick[j]];
            place[pick[j]] = place[j];
            place[j] = chosen;
            hand[j] = cards[chosen];
        }
        for (int j = k - 1; j >= 0; j--) {  /* undo the swaps: the next row starts from 0..size-1 */
            const uint16_t chosen = place[j];
            place[j] = place[pick[j]];
            place[pick[j]] = chosen;
        }
        take(v, i, hand, k);
    }
    free(picks);
    return 0;
}

static int draw_shuffled(np_pcg64 *g, const uint8_t *cards, int size, Py_ssize_t n, valuer *v)
{
    switch (v->k) {
    case 7:
        return shuffled_of(g, cards, size, n, v, 7);
    case 13:
        return shuffled_of(g, cards, size, n, v, 13);
    default:
        return shuffled_of(g, cards, size, n, v, v->k);
    }
}

/* Checks shared by both kernels; the deck's repeats and its card check in *repeats. */
static int bad_draw(const Py_buffer *cards, int k, Py_ssize_t n, const Py_buffer *seed, const Py_buffer *hands,
                    int *repeats)
{
    if (cards->len < 1 || cards->len > MAX_CARDS || k < 1 || k > MAX_K || k > cards->len || n < 0
        || seed->len != 32 || (hands->len != 0 && hands->len != n * k))
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

static int run_draws(const Py_buffer *cards, int shuffle, Py_ssize_t n, const Py_buffer *seed, valuer *v)
{
    np_pcg64 g;
    np_pcg64_seed(&g, seed->buf);
    const int size = (int)cards->len;
    return shuffle ? draw_shuffled(&g, cards->buf, size, n, v) : draw_positions(&g, cards->buf, size, n, v);
}

/* draw_poker(tables, cards, k, shuffle, n, seed, counts, spill, hands) -> hands spilled
 *   cards: the deck's physical cards (card ids); k: 5..7; shuffle: the route (as Draw.sample);
 *   seed: the chunk's 4 PCG64 seed words; counts: 16 int64 by category position (+=);
 *   spill: n * k bytes when the deck holds a card twice (a hand holding one twice is written
 *   there, not counted); hands: empty, or n * k bytes for every hand drawn, at its row. */
static PyObject *draw_poker(PyObject *Py_UNUSED(self), PyObject *args)
{
    const cl_poker_tables *t;
    Py_buffer cards, seed, counts, spill, hands;
    int k, shuffle;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "O&y*ipny*w*w*w*", cl_tables_arg, &t, &cards, &k, &shuffle, &n, &seed, &counts,
                          &spill, &hands))
        return NULL;
    valuer v;
    memset(&v, 0, sizeof v);
    v.t = t;
    v.k = k;
    int failed = 0;
    CL_FAIL_IF(bad_draw(&cards, k, n, &seed, &hands, &v.repeats) || k < 5 || k > 7 || counts.len != 128
               || (v.repeats && spill.len < n * k), "draw_poker: bad arguments");
    v.spill = spill.buf;
    v.hands = hands.len ? hands.buf : NULL;
    Py_BEGIN_ALLOW_THREADS
    failed = run_draws(&cards, shuffle, n, &seed, &v);
    if (!failed) {
        int64_t *total = counts.buf;
        for (int c = 0; c < 16; c++)
            total[c] += v.tally16[c];
    }
    Py_END_ALLOW_THREADS
    if (failed)
        PyErr_NoMemory();
done:
    return CL_RELEASE_COUNT(v.spilled, &cards, &seed, &counts, &spill, &hands);
}

/* draw_weights(cards, k, shuffle, n, seed, weights, tally, hands)
 *   weights: 52 int32 (>= 0) by card id; tally: int64, tally[sum of a hand's weights] += 1 (a sum
 *   past its end is an error); the rest as draw_poker. */
static PyObject *draw_weights(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer cards, seed, weights, tally, hands;
    int k, shuffle;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "y*ipny*y*w*w*", &cards, &k, &shuffle, &n, &seed, &weights, &tally, &hands))
        return NULL;
    valuer v;
    memset(&v, 0, sizeof v);
    v.k = k;
    int failed = 0;
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
    Py_BEGIN_ALLOW_THREADS
    failed = run_draws(&cards, shuffle, n, &seed, &v);
    Py_END_ALLOW_THREADS
    if (failed)
        PyErr_NoMemory();
    else
        CL_FAIL_IF(v.out_of_range, "draw_weights: a hand's sum past the tally");
done:
    return CL_RELEASE_NONE(&cards, &seed, &weights, &tally, &hands);
}

CL_METHODS(draw_tally,
    CL_METHOD(draw_poker,
              "draw_poker(tables, cards, k, shuffle, n, seed, counts, spill, hands) -> hands spilled (a card twice)."),
    CL_METHOD(draw_weights,
              "draw_weights(cards, k, shuffle, n, seed, weights, tally, hands): sums of card weights counted."));
