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
 * Strengths are those of cardlab.poker.kernel: category position << 20 | five 4-bit ranks.
 */
#ifndef CARDLAB_POKER_H
#define CARDLAB_POKER_H

#include <stdint.h>

#include "portable.h"

#define CL_LOW_BITS 17
#define CL_LOW_CODES 78125   /* 5 ** 7 */
#define CL_HIGH_CODES 15625  /* 5 ** 6 */
#define CL_SUIT_START (UINT64_C(0x3333) << 32)
#define CL_FLUSH_BITS (UINT64_C(0x8888) << 32)
#define CL_BAD_CARD (UINT64_C(1) << 63)

typedef struct {
    uint64_t key[256];      /* rank key + one in the card's suit counter (0 past card 51) */
    uint64_t bit[256];      /* 1 << (16 * suit + rank); CL_BAD_CARD for a byte past 51 */
    uint32_t flush[8192];   /* strength of five or more cards of one suit, by rank mask */
    uint8_t category[16];   /* Category value of each category position */
    uint16_t *low;          /* by the twos-to-eights code: its number within a block */
    uint32_t *high;         /* by the nines-to-aces code: where its block starts */
    uint32_t *table;        /* suit-blind strength, at low[...] + high[...] */
    uint32_t size;
} cl_poker_tables;

static inline uint32_t cl_poker_index(const cl_poker_tables *t, uint64_t key)
{
    return t->low[key & ((1u << CL_LOW_BITS) - 1)] + t->high[(key >> CL_LOW_BITS) & 0x3fff];
}

static inline uint32_t cl_poker_value(const cl_poker_tables *t, uint64_t key, uint64_t mask)
{
    uint64_t flush = key & CL_FLUSH_BITS;
    if (CL_UNLIKELY(flush != 0)) {
        int suit = (cl_ctz64(flush) - 35) >> 2;
        return t->flush[(mask >> (16 * suit)) & 0x1fff];
    }
    return t->table[cl_poker_index(t, key)];
}

/* xoshiro256**: the simulations' generator, seeded per chunk with four words of the chunk's
 * numpy SeedSequence (so a chunk's draws depend on the seed and the chunk number only). */
typedef struct {
    uint64_t s[4];
} cl_rng;

static inline uint64_t cl_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t cl_next(cl_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = cl_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = cl_rotl(s[3], 45);
    return result;
}

/* Uniform integer in [0, n), n >= 1, without bias (Lemire's multiply, with rejection). */
static inline uint32_t cl_below(cl_rng *r, uint32_t n)
{
    uint64_t m = (cl_next(r) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (CL_UNLIKELY(low < n)) {
        uint32_t floor = (uint32_t)(-n) % n;
        while (low < floor) {
            m = (cl_next(r) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* The same from half a generator word at a time (the generator is the costly part): `word`
 * and `halves` carry the unused half from one draw to the next. */
typedef struct {
    uint64_t word;
    int halves;
} cl_halves;

static inline uint32_t cl_below_half(cl_rng *r, cl_halves *h, uint32_t n)
{
    for (;;) {
        if (!h->halves) {
            h->word = cl_next(r);
            h->halves = 2;
        }
        const uint64_t m = (h->word & 0xffffffffu) * n;
        h->word >>= 32;
        h->halves--;
        const uint32_t low = (uint32_t)m;
        if (CL_LIKELY(low >= n) || low >= (uint32_t)(-n) % n)
            return (uint32_t)(m >> 32);
    }
}

/* Uniform double in [0, 1). */
static inline double cl_unit(cl_rng *r) { return (double)(cl_next(r) >> 11) * 0x1.0p-53; }

/* The tables of a capsule made by poker_tables(), or NULL with an exception set. */
const cl_poker_tables *cl_poker_tables_of(PyObject *capsule);

#endif
