/* The board sweep shared by the hold'em table games (casino_holdem.c, casino_uth.c, casino_thb.c):
 * for one flop and one turn and river, the two-card holdings of the cards left valued once,
 * radix-sorted by strength and swept, so each holding (a player hand) learns the dealer holdings
 * that miss its cards and are below it, equal to it and below a qualifier.  Every holding is both
 * a player hand and a dealer hand: those counted so far, less those holding either of its cards
 * (a count per card), plus the hand itself where it was taken off twice. */
#ifndef CARDLAB_HOLDEM_BOARD_H
#define CARDLAB_HOLDEM_BOARD_H

#include <stdint.h>
#include <string.h>

#include "poker.h"

#define HE_MAX_LINES 16
#define HE_MAX_HOLES 1326

typedef struct {
    uint64_t sort[HE_MAX_HOLES], spare[HE_MAX_HOLES];
    uint32_t strength[HE_MAX_HOLES];
    uint8_t first[HE_MAX_HOLES], second[HE_MAX_HOLES];
    int cnt[52], group[52], below_q[52];
    int count;            /* holdings on this board */
    int64_t dealer;       /* dealer hands against each holding: C(m - 2, 2) */
    int64_t below[HE_MAX_HOLES], equal[HE_MAX_HOLES], nq[HE_MAX_HOLES];  /* by holding */
} he_board;

/* Sort the low ``count`` keys (strength << 11 | holding) by strength: three 8-bit LSD passes. */
static inline void he_sort(he_board *w, int count)
{
    uint64_t *from = w->sort, *to = w->spare;
    for (int shift = 11; shift < 35; shift += 8) {
        int bucket[257] = {0};
        for (int i = 0; i < count; i++)
            bucket[((from[i] >> shift) & 255) + 1]++;
        for (int d = 0; d < 256; d++)
            bucket[d + 1] += bucket[d];
        for (int i = 0; i < count; i++)
            to[bucket[(from[i] >> shift) & 255]++] = from[i];
        uint64_t *swap = from;
        from = to;
        to = swap;
    }
    if (from != w->sort)
        memcpy(w->sort, from, (size_t)count * sizeof *from);
}

/* One board: value the two-card holdings of the m cards ``avail`` (indices among the r cards off
 * the flop; ``cards`` the card id of each index), and give each holding h the dealer holdings that
 * miss its cards and are below it (w->below[h]), equal to it (w->equal[h]) and below ``qualify``
 * (w->nq[h]); w->dealer is the number of such dealer holdings. */
static inline void he_board_counts(const cl_poker_tables *t, he_board *w, uint64_t key, uint64_t mask,
                            const int *avail, int m, const uint8_t *cards, uint32_t qualify)
{
    int count = 0;
    for (int j = 1; j < m; j++)
        for (int i = 0; i < j; i++) {
            const uint8_t a = cards[avail[i]], b = cards[avail[j]];
            const uint32_t s = cl_poker_value(t, key + t->key[a] + t->key[b], mask | t->bit[a] | t->bit[b]);
            w->strength[count] = s;
            w->first[count] = (uint8_t)avail[i];
            w->second[count] = (uint8_t)avail[j];
            w->sort[count] = (uint64_t)s << 11 | (uint64_t)count;
            count++;
        }
    w->count = count;
    w->dealer = (int64_t)(m - 2) * (m - 3) / 2;
    he_sort(w, count);
    int qualified_below = 0;
    memset(w->below_q, 0, sizeof w->below_q);
    memset(w->cnt, 0, sizeof w->cnt);
    for (int h = 0; h < count; h++)
        if (w->strength[h] < qualify) {
            qualified_below++;
            w->below_q[w->first[h]]++;
            w->below_q[w->second[h]]++;
        }
    int done = 0;
    for (int start = 0; start < count;) {
        const uint32_t s = (uint32_t)(w->sort[start] >> 11);
        int end = start;
        while (end < count && (uint32_t)(w->sort[end] >> 11) == s)
            end++;
        for (int g = start; g < end; g++) {
            const int h = (int)(w->sort[g] & 2047);
            w->group[w->first[h]]++;
            w->group[w->second[h]]++;
        }
        for (int g = start; g < end; g++) {
            const int h = (int)(w->sort[g] & 2047), a = w->first[h], b = w->second[h];
            w->below[h] = done - w->cnt[a] - w->cnt[b];
            w->equal[h] = (end - start) - w->group[a] - w->group[b] + 1;
            w->nq[h] = qualified_below - w->below_q[a] - w->below_q[b] + (s < qualify);
        }
        for (int g = start; g < end; g++) {
            const int h = (int)(w->sort[g] & 2047);
            w->group[w->first[h]] = w->group[w->second[h]] = 0;
            w->cnt[w->first[h]]++;
            w->cnt[w->second[h]]++;
        }
        done += end - start;
        start = end;
    }
}

#endif
