/* numpy's own generator and bounded draws, bit for bit, for kernels that must reproduce a stream
 * numpy already makes (draw_tally.c: the hands of cardlab.dealing.Draw.sample).
 *
 * Generator: PCG64 (XSL-RR output, 128-bit LCG), as numpy.random.PCG64 seeded from a SeedSequence:
 * the 32 bytes are seed.generate_state(4, uint64), words 0-1 the initial state (high word first),
 * words 2-3 the stream (high first).  A 32-bit draw takes the low half of a fresh 64-bit word and
 * keeps the high half for the next one (numpy's has_uint32 buffer, kept for the generator's life).
 *
 * Bounded draws: Generator.integers(0, size, ...) with Lemire's rejection, as numpy does it:
 *   8 and 16 bits (dtype uint8/uint16): the bits come from a 32-bit word used a byte (or half) at
 *   a time, low part first; the buffer belongs to one call of integers (a fill), so the caller
 *   starts a fresh np_fill for each call it mirrors;
 *   32 bits (dtype int64 with a range below 2^32): one 32-bit draw each, no buffer.
 * A range of one value (rng == 0) draws nothing; rng == 0xFF (8 bits) takes a byte as it is.
 */
#ifndef CARDLAB_NUMPY_RNG_H
#define CARDLAB_NUMPY_RNG_H

#include <stdint.h>
#include <string.h>

#include "portable.h"

#define NP_PCG_MUL_HI UINT64_C(2549297995355413924)
#define NP_PCG_MUL_LO UINT64_C(4865540595714422341)

typedef struct {
    uint64_t hi, lo, inc_hi, inc_lo;
    uint32_t half;      /* the kept high half of the last 64-bit word */
    int has_half;
} np_pcg64;

typedef struct {        /* the byte buffer of one call of integers() */
    uint32_t buf;
    int count;
} np_fill;

static inline void np_pcg64_step(np_pcg64 *g)
{
    uint64_t lo;
    uint64_t hi = cl_mul64_wide(g->lo, NP_PCG_MUL_LO, &lo);
    hi += g->lo * NP_PCG_MUL_HI + g->hi * NP_PCG_MUL_LO;
    const uint64_t sum = lo + g->inc_lo;
    g->hi = hi + g->inc_hi + (sum < lo);
    g->lo = sum;
}

static inline void np_pcg64_seed(np_pcg64 *g, const void *words32)
{
    uint64_t w[4];
    memcpy(w, words32, sizeof w);
    g->inc_hi = (w[2] << 1) | (w[3] >> 63);
    g->inc_lo = (w[3] << 1) | 1u;
    g->hi = 0;
    g->lo = 0;
    np_pcg64_step(g);
    const uint64_t lo = g->lo + w[1];
    g->hi += w[0] + (lo < g->lo);
    g->lo = lo;
    np_pcg64_step(g);
    g->half = 0;
    g->has_half = 0;
}

static inline uint64_t np_pcg64_next64(np_pcg64 *g)
{
    np_pcg64_step(g);
    const uint64_t x = g->hi ^ g->lo;
    const unsigned rot = (unsigned)(g->hi >> 58);
    return (x >> rot) | (x << ((64u - rot) & 63u));
}

static inline uint32_t np_pcg64_next32(np_pcg64 *g)
{
    if (g->has_half) {
        g->has_half = 0;
        return g->half;
    }
    const uint64_t x = np_pcg64_next64(g);
    g->has_half = 1;
    g->half = (uint32_t)(x >> 32);
    return (uint32_t)x;
}

static inline uint8_t np_byte(np_pcg64 *g, np_fill *f)
{
    if (f->count == 0) {
        f->buf = np_pcg64_next32(g);
        f->count = 3;
    } else {
        f->buf >>= 8;
        f->count--;
    }
    return (uint8_t)f->buf;
}

static inline uint16_t np_half(np_pcg64 *g, np_fill *f)
{
    if (f->count == 0) {
        f->buf = np_pcg64_next32(g);
        f->count = 1;
    } else {
        f->buf >>= 16;
        f->count--;
    }
    return (uint16_t)f->buf;
}

/* integers(0, rng + 1, dtype=uint8): one value of a fill. */
static inline uint32_t np_bounded8(np_pcg64 *g, np_fill *f, uint32_t rng)
{
    if (rng == 0)
        return 0;
    if (rng == 0xFF)
        return np_byte(g, f);
    const uint32_t excl = rng + 1;
    uint32_t m = (uint32_t)np_byte(g, f) * excl;
    if ((m & 0xFF) < excl) {
        const uint32_t threshold = (0xFFu - rng) % excl;
        while ((m & 0xFF) < threshold)
            m = (uint32_t)np_byte(g, f) * excl;
    }
    return m >> 8;
}

/* integers(0, rng + 1, dtype=uint16), rng below 0xFFFF: one value of a fill. */
static inline uint32_t np_bounded16(np_pcg64 *g, np_fill *f, uint32_t rng)
{
    if (rng == 0)
        return 0;
    const uint32_t excl = rng + 1;
    uint32_t m = (uint32_t)np_half(g, f) * excl;
    if ((m & 0xFFFF) < excl) {
        const uint32_t threshold = (0xFFFFu - rng) % excl;
        while ((m & 0xFFFF) < threshold)
            m = (uint32_t)np_half(g, f) * excl;
    }
    return m >> 16;
}

/* integers(0, rng + 1) (int64) for rng below 0xFFFFFFFF: one value. */
static inline uint32_t np_bounded32(np_pcg64 *g, uint32_t rng)
{
    if (rng == 0)
        return 0;
    const uint64_t excl = (uint64_t)rng + 1;
    uint64_t m = (uint64_t)np_pcg64_next32(g) * excl;
    if ((uint32_t)m < excl) {
        const uint32_t threshold = (uint32_t)((UINT32_MAX - rng) % excl);
        while ((uint32_t)m < threshold)
            m = (uint64_t)np_pcg64_next32(g) * excl;
    }
    return (uint32_t)(m >> 32);
}

#endif
