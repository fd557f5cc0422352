/* The board sweep shared by the hold'em table games (casino_holdem.c, casino_uth.c, casino_thb.c):
 * for one flop and one turn and river, the two-card holdings of the cards left valued once,
 * radix-sorted by strength and swept, so each holding (a player hand) learns the dealer holdings
 * that miss its cards and are below it, equal to it and below a qualifier.  Every holding is both
 * a player hand and a dealer hand: those counted so far, less those holding either of its cards
 * (a count per card), plus the hand itself where it was taken off twice.  Also the argument
 * checks the kernels share (he_*_ok) and the keys of a flop, a board and a deal. */
#ifndef CARDLAB_HOLDEM_BOARD_H
#define CARDLAB_HOLDEM_BOARD_H

#include <stddef.h>
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

/* The argument checks the hold'em kernels share (each returns nonzero when all hold). */

/* A deck of 9..52 distinct card ids; *seen gets the deck's cards as bits. */
static inline int he_deck_ok(const uint8_t *cards, int n, uint64_t *seen)
{
    uint64_t s = 0;
    int ok = n >= 9 && n <= 52;
    for (int i = 0; ok && i < n; i++) {
        ok = cards[i] < 52 && !(s >> cards[i] & 1);
        s |= UINT64_C(1) << (cards[i] & 63);
    }
    *seen = s;
    return ok;
}

/* The pay line of each of the 16 categories (``length`` of them) below ``lines``, itself
 * 1..HE_MAX_LINES, and each line's pay in [0, 2^40] (the river and turn kernels too: a pay past
 * it would overflow their sums). */
static inline int he_lines_ok(const uint8_t *lineof, int64_t length, int lines, const int64_t *pay)
{
    int ok = length == 16 && lines >= 1 && lines <= HE_MAX_LINES;
    for (int i = 0; ok && i < 16; i++)
        ok = lineof[i] < lines;
    for (int i = 0; ok && i < lines; i++)
        ok = pay[i] >= 0 && pay[i] <= (INT64_C(1) << 40);
    return ok;
}

/* f flops of three distinct cards of the deck (``seen``), each weighing 0..2^20. */
static inline int he_flops_ok(const uint8_t *flop, int f, const int64_t *weight, uint64_t seen)
{
    int ok = 1;
    for (int i = 0; ok && i < f; i++) {
        ok = weight[i] >= 0 && weight[i] <= (INT64_C(1) << 20) && flop[3 * i] != flop[3 * i + 1]
             && flop[3 * i] != flop[3 * i + 2] && flop[3 * i + 1] != flop[3 * i + 2];
        for (int j = 0; ok && j < 3; j++)
            ok = flop[3 * i + j] < 52 && (seen >> flop[3 * i + j] & 1);
    }
    return ok;
}

/* m deals of ``per`` distinct cards of the deck (``seen``) each. */
static inline int he_deals_ok(const uint8_t *deal, int64_t m, int per, uint64_t seen)
{
    int ok = 1;
    for (int64_t i = 0; ok && i < m; i++) {
        uint64_t used = 0;
        for (int j = 0; ok && j < per; j++) {
            const uint8_t c = deal[per * i + j];
            ok = c < 52 && (seen >> c & 1) && !(used >> c & 1);
            used |= UINT64_C(1) << (c & 63);
        }
    }
    return ok;
}

/* The arguments the flop-by-flop kernels share: a deck (he_deck_ok), whole flops of its cards
 * with a weight each (``flops`` and ``weights`` bytes, he_flops_ok), the 16 pay lines
 * (he_lines_ok) and a pay per line (``pays`` bytes, 8 a line), a scale in 1..2^20. */
static inline int he_flop_args_ok(const uint8_t *cards, int n, const uint8_t *flop, int64_t flops, const int64_t *weight,
                                  int64_t weights, const uint8_t *lineof, int64_t line, const int64_t *pay, int64_t pays,
                                  long long scale)
{
    uint64_t seen = 0;
    const int f = (int)(flops / 3), lines = (int)(pays / 8);
    return flops % 3 == 0 && weights == (int64_t)f * 8 && pays % 8 == 0 && pays / 8 <= HE_MAX_LINES && scale >= 1
           && scale <= (1LL << 20) && he_deck_ok(cards, n, &seen) && he_lines_ok(lineof, line, lines, pay)
           && he_flops_ok(flop, f, weight, seen);
}

/* The evaluator's key (the return) and mask (*mask) of k cards (poker.h); *used gets their ids as bits. */
static inline uint64_t he_key(const cl_poker_tables *t, const uint8_t *c, int k, uint64_t *mask, uint64_t *used)
{
    uint64_t key = CL_SUIT_START;
    *mask = *used = 0;
    for (int j = 0; j < k; j++) {
        key += t->key[c[j]];
        *mask |= t->bit[c[j]];
        *used |= UINT64_C(1) << c[j];
    }
    return key;
}

/* A flop (three cards): its key and mask, and the deck's n cards off it in deck order (``rest``). */
static inline void he_flop(const cl_poker_tables *t, const uint8_t *flop, const uint8_t *cards, int n, uint64_t *key,
                           uint64_t *mask, uint8_t *rest)
{
    int m = 0;
    uint64_t used;
    *key = he_key(t, flop, 3, mask, &used);
    for (int j = 0; j < n; j++)
        if (cards[j] != flop[0] && cards[j] != flop[1] && cards[j] != flop[2])
            rest[m++] = cards[j];
}

/* he_board_counts of the board made of a flop (``key``, ``mask``) and cards ``turn`` and ``river``
 * of the r cards off it (``rest``), over the holdings of the others. */
static inline void he_board_of(const cl_poker_tables *t, he_board *w, uint64_t key, uint64_t mask, const uint8_t *rest,
                               int r, int turn, int river, uint32_t qualify)
{
    int avail[52], a = 0;
    for (int j = 0; j < r; j++)
        if (j != turn && j != river)
            avail[a++] = j;
    he_board_counts(t, w, key + t->key[rest[turn]] + t->key[rest[river]], mask | t->bit[rest[turn]] | t->bit[rest[river]],
                    avail, a, rest, qualify);
}

#endif
