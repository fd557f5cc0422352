/* The kernels' one random generator and their one unbiased bounded draw.
 *
 * Generator: xoshiro256** (Blackman and Vigna, 2018).  Seed convention, the same for every
 * kernel: the caller passes the 256-bit state as 32 bytes, four native-order uint64 words of
 * the chunk's numpy SeedSequence (cardlab.engine.kernel_state), so a chunk's draws depend on
 * the seed and the chunk number only, never on threads.  cl_rng_seed is the one place that
 * guards xoshiro's one forbidden state, all zero.
 *
 * Bounded draw: a uniform integer in [0, n), n >= 1, by Lemire's multiply-and-reject on 32 bits
 * ("Fast random integer generation in an interval", 2019): exactly uniform.  CL_LEMIRE_ACCEPTS is
 * the one acceptance test; the two draws differ only in where their 32-bit words come from:
 *   cl_below_half  half a generator word at a time (the generator is the costly part); a
 *                  cl_halves carries the unused half from one draw to the next, low half first;
 *   cl_below_from  from 32 bits the caller already has (two draws from one word, the low half
 *                  then the high half); a rejection takes the low half of a fresh word.
 * Batched draw (cl_batch_draw): several bounded integers from one 64-bit word, the same test on
 * the product of their bounds (Brackett-Rozinsky and Lemire, "Batched ranged random integer
 * generation", 2024): exactly uniform too, and one generator call for a whole poker hand.
 */
#ifndef CARDLAB_RNG_H
#define CARDLAB_RNG_H

#include <stdint.h>
#include <string.h>

#include "portable.h"

typedef struct {
    uint64_t s[4];
} cl_rng;

/* The state from 32 bytes of seed words; all zero (never reached from a SeedSequence in
 * practice) becomes a fixed non-zero state. */
static inline void cl_rng_seed(cl_rng *r, const void *words32)
{
    memcpy(r->s, words32, sizeof r->s);
    if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0)
        r->s[0] = UINT64_C(0x9E3779B97F4A7C15);
}

static inline uint64_t cl_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t cl_next(cl_rng *r)
{
    uint64_t *s = r->s;
    const uint64_t result = cl_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = cl_rotl(s[3], 45);
    return result;
}

/* Lemire's acceptance test of m = bits * n: the draw is floor(m / 2^32) unless the low word falls
 * in the small biased zone (below 2^32 mod n); the costly modulo runs only when low < n. */
#define CL_LEMIRE_ACCEPTS(m, n) (CL_LIKELY((uint32_t)(m) >= (n)) || (uint32_t)(m) >= (uint32_t)(-(n)) % (n))

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
        if (CL_LEMIRE_ACCEPTS(m, n))
            return (uint32_t)(m >> 32);
    }
}

static inline uint32_t cl_below_from(cl_rng *r, uint32_t bits, uint32_t n)
{
    uint64_t m = (uint64_t)bits * n;
    while (!CL_LEMIRE_ACCEPTS(m, n))
        m = (uint64_t)(uint32_t)cl_next(r) * n;
    return (uint32_t)(m >> 32);
}

/* k uniform integers out[j] in [0, bound[j]) from one generator word x, the product P of the
 * bounds at most 2^64: x * bound[0] = out[0] 2^64 + l_0, l_0 * bound[1] = out[1] 2^64 + l_1, ...
 * is floor(x P / 2^64) in mixed radix with l_{k-1} = x P mod 2^64, so Lemire's test on the last
 * low word (at least 2^64 mod P, `threshold` = cl_batch_threshold(P), found once by the caller)
 * makes the k draws exactly uniform; a rejection (probability below P / 2^64) draws a fresh word. */
static inline uint64_t cl_batch_threshold(uint64_t product) { return (0 - product) % product; }

static inline void cl_batch_draw(cl_rng *r, const uint32_t *bound, int k, uint64_t threshold, uint32_t *out)
{
    for (;;) {
        uint64_t low = cl_next(r);
        for (int j = 0; j < k; j++)
            out[j] = (uint32_t)cl_mul64_wide(low, bound[j], &low);
        if (CL_LIKELY(low >= threshold))
            return;
    }
}

/* The draws of k bounded integers with bounds size, size - 1, ..., size - k + 1 (a partial shuffle's
 * or an ordered sample's), size at most CL_PLAN_SIZE: the bounds cut, in order, into groups whose
 * product is at most 2^48 (a rejection below 2^-16 a word), each group drawn from one generator
 * word by cl_batch_draw.  Five cards of 52 are one group (3.1e8), seven one (6.7e11), a bridge hand
 * two (52..45, 44..40). */
#define CL_PLAN_MAX 64
#define CL_PLAN_SIZE 4096
#define CL_GROUP_PRODUCT (UINT64_C(1) << 48)

typedef struct {
    int groups, first[CL_PLAN_MAX + 1];
    uint32_t bound[CL_PLAN_MAX];
    uint64_t threshold[CL_PLAN_MAX];
} cl_draw_plan;

static inline void cl_plan_draws(cl_draw_plan *p, int size, int k)  /* 1 <= k <= min(size, CL_PLAN_MAX) */
{
    p->groups = 0;
    uint64_t product = 1;  /* at most 2^48 * 4096: no overflow */
    for (int j = 0; j < k; j++) {
        p->bound[j] = (uint32_t)(size - j);
        if (j == 0 || product * p->bound[j] > CL_GROUP_PRODUCT) {
            if (j > 0)
                p->threshold[p->groups - 1] = cl_batch_threshold(product);
            p->first[p->groups++] = j;
            product = 1;
        }
        product *= p->bound[j];
    }
    p->threshold[p->groups - 1] = cl_batch_threshold(product);
    p->first[p->groups] = k;
}

/* The plan's k draws into out[0..k). */
static inline void cl_plan_draw(cl_rng *r, const cl_draw_plan *p, uint32_t *out)
{
    for (int g = 0; g < p->groups; g++)
        cl_batch_draw(r, p->bound + p->first[g], p->first[g + 1] - p->first[g], p->threshold[g], out + p->first[g]);
}

/* Uniform double in [0, 1). */
static inline double cl_unit(cl_rng *r) { return (double)(cl_next(r) >> 11) * (1.0 / 9007199254740992.0); }

#endif
