/* The poker evaluator's tables and its inline hand evaluation, shared by the poker kernels.
 *
 * A hand is two 64-bit words built by adding (or or-ing) one pair of words per card:
 *   key:  bits 0..16 the counts of the twos to eights in base 5, bits 17..30 those of the nines
 *         to aces, bits 32..47 four 4-bit suit counters that start at 3, so a suit holding five
 *         or more cards sets its top bit;
 *   mask: bit 16 * suit + rank of each card (a suit's 13-bit rank mask is one shift away).
 * The suit-blind strength is one lookup at a perfect, minimal index of the rank multiset: the
 * low code's number plus the start of the high code's block (two small tables); a hand with
 * five or more cards of a suit is one lookup of that suit's rank mask instead (with distinct
 * cards a flush always beats the suit-blind value).
 * Strengths are those of cardlab.poker.kernel: category position << CL_CATEGORY_SHIFT | five 4-bit ranks.
 */
#ifndef CARDLAB_POKER_H
#define CARDLAB_POKER_H

#include <stdint.h>

#include "cards.h"
#include "portable.h"
#include "rng.h"

#define CL_LOW_BITS 17
#define CL_LOW_CODES 78125   /* 5 ** 7 */
#define CL_HIGH_CODES 15625  /* 5 ** 6 */
#define CL_SUIT_START (UINT64_C(0x3333) << 32)
#define CL_FLUSH_BITS (UINT64_C(0x8888) << 32)
#define CL_BAD_CARD (UINT64_C(1) << 63)

typedef struct {
    uint64_t key[256];      /* rank key + one in the card's suit counter (0 past card 51) */
    uint64_t bit[256];      /* 1 << (16 * suit + rank); CL_BAD_CARD for a byte past 51 */
    uint32_t flush[CL_HOLDINGS];   /* strength of five or more cards of one suit, by rank mask */
    uint8_t category[16];   /* Category value of each category position */
    uint16_t *low;          /* by the twos-to-eights code: its number within a block */
    uint32_t *high;         /* by the nines-to-aces code: where its block starts */
    uint32_t *table;        /* suit-blind strength, at low[...] + high[...] */
    uint32_t size;
    /* the same index over the multisets of exactly five ranks (6,175 strengths, 24 KB, instead
     * of five-card entries spread over the whole table): low5 numbers a low code among those
     * with its own number of cards, high5 starts a block of the low codes that make it five
     * (poker_eval.c, build_exact_index) */
    uint16_t *low5;
    uint32_t *high5;
    uint32_t *table5;
} cl_poker_tables;

/* Deal the card at ``at`` (>= j) of a deck to place j, swapping the two; returns it. */
static inline uint8_t cl_deal_card(uint8_t *deck, int j, int at)
{
    const uint8_t c = deck[at];
    deck[at] = deck[j];
    deck[j] = c;
    return c;
}

static inline uint32_t cl_poker_index(const cl_poker_tables *t, uint64_t key)
{
    return t->low[key & ((1u << CL_LOW_BITS) - 1)] + t->high[(key >> CL_LOW_BITS) & 0x3fff];
}

static inline uint32_t cl_poker_value(const cl_poker_tables *t, uint64_t key, uint64_t mask)
{
    uint64_t flush = key & CL_FLUSH_BITS;
    if (CL_UNLIKELY(flush != 0)) {
        int suit = (cl_ctz64(flush) - 35) >> 2;
        return t->flush[(mask >> (CL_SUIT_LANE * suit)) & CL_SUIT_MASK];
    }
    return t->table[cl_poker_index(t, key)];
}

/* The strength of a hand of exactly the cards of an exact-size index (low5, high5, table5):
 * cl_poker_value over that index. */
static inline uint32_t cl_poker_exact(const cl_poker_tables *t, const uint16_t *low, const uint32_t *high,
                                      const uint32_t *table, uint64_t key, uint64_t mask)
{
    uint64_t flush = key & CL_FLUSH_BITS;
    if (CL_UNLIKELY(flush != 0)) {
        int suit = (cl_ctz64(flush) - 35) >> 2;
        return t->flush[(mask >> (CL_SUIT_LANE * suit)) & CL_SUIT_MASK];
    }
    return table[low[key & ((1u << CL_LOW_BITS) - 1)] + high[(key >> CL_LOW_BITS) & 0x3fff]];
}

/* Every k-card subset of n distinct cards (k <= 7), in lexicographic order of their places, the
 * partial sums of the outer cards kept from one subset to the next: each one's category position
 * written in turn to positions[] (when not NULL) and counted by Category value in counts[16]
 * (when not NULL). */
static inline void cl_poker_subsets(const cl_poker_tables *t, const uint8_t *cards, int n, int k,
                                    uint8_t *positions, int64_t *counts)
{
    uint64_t key[8], mask[8];
    int at[8];
    key[0] = CL_SUIT_START;
    mask[0] = 0;
    int depth = 0;
    at[0] = -1;
    while (depth >= 0) {
        const int next = ++at[depth];
        if (next > n - (k - depth)) {
            depth--;
            continue;
        }
        key[depth + 1] = key[depth] + t->key[cards[next]];
        mask[depth + 1] = mask[depth] | t->bit[cards[next]];
        if (depth + 1 == k) {
            const uint32_t position = cl_poker_value(t, key[k], mask[k]) >> CL_CATEGORY_SHIFT;
            if (positions)
                *positions++ = (uint8_t)position;
            if (counts)
                counts[t->category[position]]++;
            continue;
        }
        depth++;
        at[depth] = next;
    }
}

/* A PyArg_ParseTuple "O&" converter: the tables of a capsule made by poker_tables(), stored in
 * the ``const cl_poker_tables *`` that ``tables`` points to; 0 with an exception set if it is not one. */
int cl_tables_arg(PyObject *capsule, void *tables);

#endif
