/* Shared by the deal kernels (deal.c, deal_program.c, board_text.c): suit masks to a shape key, and
 * one PBN deal string in the plain form read into the seat of each card. */
#ifndef CARDLAB_DEAL_H
#define CARDLAB_DEAL_H

#include <stdint.h>
#include <string.h>

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

/* One PBN deal string (p .. end) in the plain form into owner[52] (the seat of each card id):
 * spaces, a first seat (N E S W, any case), ':', four hands clockwise from it separated by
 * spaces or tabs, each "S.H.D.C" of ranks AKQJT98765432 (any case) or "-" (at most one: it
 * takes the 13 cards left); every card once and 13 a hand.  1 when read, 0 for anything else. */
static inline int pbn_rank(unsigned char c)
{
    if (c >= '2' && c <= '9')
        return c - '2';
    switch (c) {
    case 'T': case 't': return 8;
    case 'J': case 'j': return 9;
    case 'Q': case 'q': return 10;
    case 'K': case 'k': return 11;
    case 'A': case 'a': return 12;
    default: return -1;
    }
}

static inline int plain_pbn_deal(const unsigned char *p, const unsigned char *end, uint8_t *owner)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (end - p < 2 || p[1] != ':')
        return 0;
    int first;
    switch (*p | 0x20) {
    case 'n': first = 0; break;
    case 'e': first = 1; break;
    case 's': first = 2; break;
    case 'w': first = 3; break;
    default: return 0;
    }
    p += 2;
    memset(owner, 0xFF, 52);
    int counts[4] = {0, 0, 0, 0}, left_out = -1;
    for (int h = 0; h < 4; h++) {
        const int seat = (first + h) & 3;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (p == end)
            return 0;
        if (*p == '-' && (p + 1 == end || p[1] == ' ' || p[1] == '\t')) {
            if (left_out >= 0)
                return 0;
            left_out = seat;
            p++;
            continue;
        }
        int suit = 3;  /* spades first, clubs last */
        while (p < end && *p != ' ' && *p != '\t') {
            const unsigned char c = *p++;
            if (c == '.') {
                if (--suit < 0)
                    return 0;
                continue;
            }
            const int r = pbn_rank(c);
            if (r < 0)
                return 0;
            const int card = r * 4 + suit;
            if (owner[card] != 0xFF)
                return 0;
            owner[card] = (uint8_t)seat;
            counts[seat]++;
        }
        if (suit != 0)
            return 0;
    }
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    if (p != end)
        return 0;
    if (left_out >= 0)
        for (int c = 0; c < 52; c++)
            if (owner[c] == 0xFF) {
                owner[c] = (uint8_t)left_out;
                counts[left_out]++;
            }
    for (int s = 0; s < 4; s++)
        if (counts[s] != 13)
            return 0;
    return 1;
}

#endif
