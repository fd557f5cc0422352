/* Shared by the deal kernels (deal.c, deal_program.c): suit masks to a shape key. */
#ifndef CARDLAB_DEAL_H
#define CARDLAB_DEAL_H

#include <stdint.h>

#include "portable.h"

/* ((spades * 14 + hearts) * 14 + diamonds) * 14 + clubs of four 13-bit suit masks, the four
 * lengths counted at once in the 16-bit lanes of one word */
static inline int shape_key(uint64_t clubs, uint64_t diamonds, uint64_t hearts, uint64_t spades)
{
    /* only the 13 rank bits count (a stray high bit would index past the 14^4 table) */
    const uint64_t x = cl_popcount_lanes16((clubs & 0x1FFF) | (diamonds & 0x1FFF) << 16 | (hearts & 0x1FFF) << 32 |
                                           (spades & 0x1FFF) << 48);
    int c = (int)(x & 0xFF), d = (int)(x >> 16 & 0xFF), h = (int)(x >> 32 & 0xFF), s = (int)(x >> 48 & 0xFF);
    return ((s * 14 + h) * 14 + d) * 14 + c;
}

#endif
