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

#include <stddef.h>
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

/* A bound of integers(0, rng + 1): numpy's rejection threshold, found once per call of integers
 * (its division would otherwise cost more than the draws).  A word whose low part is below the
 * threshold is drawn again; numpy tests the bound excl first, which changes nothing (threshold <
 * excl). */
typedef struct {
    uint32_t rng, excl, threshold;
} np_bound;

static inline np_bound np_bound_of(uint32_t rng, uint32_t bits)
{
    np_bound b;
    const uint64_t top = bits == 32 ? UINT32_MAX : (UINT64_C(1) << bits) - 1;
    b.rng = rng;
    b.excl = rng + 1;
    b.threshold = rng == 0 || rng == top ? 0 : (uint32_t)((top - rng) % ((uint64_t)rng + 1));
    return b;
}

/* integers(0, rng + 1, dtype=uint8): one value of a fill. */
static inline uint32_t np_bounded8(np_pcg64 *g, np_fill *f, const np_bound *b)
{
    if (b->rng == 0)
        return 0;
    if (b->rng == 0xFF)
        return np_byte(g, f);
    uint32_t m = (uint32_t)np_byte(g, f) * b->excl;
    while (CL_UNLIKELY((m & 0xFF) < b->threshold))
        m = (uint32_t)np_byte(g, f) * b->excl;
    return m >> 8;
}

/* integers(0, rng + 1, dtype=uint16), rng below 0xFFFF: one value of a fill. */
static inline uint32_t np_bounded16(np_pcg64 *g, np_fill *f, const np_bound *b)
{
    if (b->rng == 0)
        return 0;
    uint32_t m = (uint32_t)np_half(g, f) * b->excl;
    while (CL_UNLIKELY((m & 0xFFFF) < b->threshold))
        m = (uint32_t)np_half(g, f) * b->excl;
    return m >> 16;
}

/* integers(0, rng + 1) (int64) for rng below 0xFFFFFFFF: one value. */
static inline uint32_t np_bounded32(np_pcg64 *g, const np_bound *b)
{
    if (b->rng == 0)
        return 0;
    uint64_t m = (uint64_t)np_pcg64_next32(g) * b->excl;
    while (CL_UNLIKELY((uint32_t)m < b->threshold))
        m = (uint64_t)np_pcg64_next32(g) * b->excl;
    return (uint32_t)(m >> 32);
}

/* --- a call of integers(0, rng + 1, dtype=uint8) read a 64-bit word at a time ------------------
 * The same values as np_bounded8 one by one, without its branches: a byte gives a value or is
 * rejected whatever came before it, so a word's eight bytes go through a table (value, accepted)
 * and the accepted values are appended without a branch.  The byte buffer of numpy's call is a
 * run of whole 32-bit words, so a 64-bit word is its two halves in order; at the end of the call
 * (np_stream8_end) the generator keeps the high half when the last value used came from the low
 * one, as numpy's has_uint32 does.  A kept half at the start is a word of four bytes. */
typedef struct {
    uint8_t value[256], ok[256];
} np_table8;

static inline void np_table8_of(np_table8 *t, const np_bound *b)  /* 2 <= b->excl <= 256 */
{
    for (uint32_t byte = 0; byte < 256; byte++) {
        const uint32_t m = byte * b->excl;
        t->value[byte] = (uint8_t)(m >> 8);
        t->ok[byte] = (m & 0xFF) >= b->threshold;
    }
}

typedef struct {
    uint8_t carry[8], byte_of[8];  /* the last word's accepted values and the byte of each */
    int accepted, used;            /* of the last word: values accepted, values handed out */
    uint64_t word;
    int half_word;                 /* the last word was a kept half (four bytes) */
} np_stream8;

static inline void np_stream8_start(np_stream8 *s)
{
    memset(s, 0, sizeof *s);
}

static inline int np_word_values(const np_table8 *t, uint64_t w, int nbytes, uint8_t *values, uint8_t *byte_of)
{
    int a = 0;
    for (int i = 0; i < nbytes; i++) {
        const uint8_t byte = (uint8_t)(w >> (8 * i));
        values[a] = t->value[byte];
        byte_of[a] = (uint8_t)i;
        a += t->ok[byte];
    }
    return a;
}

/* The next `want` values of the call into out. */
static inline void np_stream8_read(np_pcg64 *g, np_stream8 *s, const np_table8 *t, uint8_t *out, ptrdiff_t want)
{
    ptrdiff_t got = 0;
    while (got < want && s->used < s->accepted)
        out[got++] = s->carry[s->used++];
    while (got < want) {
        int nbytes = 8;
        s->half_word = g->has_half;
        if (g->has_half) {
            g->has_half = 0;
            s->word = g->half;
            nbytes = 4;
        } else {
            s->word = np_pcg64_next64(g);
        }
        if (want - got >= 8) {  /* straight into out: every value is used */
            s->accepted = s->used = np_word_values(t, s->word, nbytes, out + got, s->byte_of);
            got += s->accepted;
        } else {
            s->accepted = np_word_values(t, s->word, nbytes, s->carry, s->byte_of);
            s->used = 0;
            while (got < want && s->used < s->accepted)
                out[got++] = s->carry[s->used++];
        }
    }
}

/* The end of the call: the generator keeps the last word's high half when no byte of it was used. */
static inline void np_stream8_end(np_pcg64 *g, const np_stream8 *s)
{
    if (!s->half_word && s->used > 0 && s->byte_of[s->used - 1] <= 3) {
        g->has_half = 1;
        g->half = (uint32_t)(s->word >> 32);
    }
}

#endif
