/* Bridge deals in batches: shuffled decks straight into per-hand suit masks, and the
 * text formats of produced deals (PBN, the dealer program's printoneline / printall / ...).
 *
 * A batch of deals is held as masks[seat][suit][deal] (uint16, C order, 4 x 4 x n):
 * bit r of a mask is rank r (0 = the two .. 12 = the ace) of that suit (0 clubs .. 3
 * spades, as card ids: id = rank * 4 + suit).  Every per-hand feature a dealer script
 * reads (lengths, any point count, losers, controls, top cards, quality) is a table
 * lookup on one suit's mask, done by the Python layer over the whole batch.
 *
 * Dealing is a partial Fisher-Yates shuffle of the cards not predealt: the first seats' cards
 * are drawn one by one, uniformly from those left, and the last seat takes the rest.
 *
 * Random numbers: csrc/rng.h's xoshiro256** (Blackman and Vigna, 2018), its 256-bit state taken from
 * the chunk's SeedSequence (cardlab.engine.kernel_state block 1: words 4..7 of generate_state(8, uint64); words 0..3 seed the
 * numpy generator of the same chunk, for rnd() and the exact conditional draws), and
 * uniform integers below m by Lemire's multiply-and-reject method on 32-bit halves
 * (exactly uniform).  Each chunk has its own seed, so a batch depends on its seed only,
 * never on threads.  No global mutable state; the GIL is released while dealing and
 * formatting.
 */
#include "core.h"
#include "cards.h"
#include "deal.h"
#include "rng.h"

#include <stdio.h>
#include <string.h>

/* the generator and the carried half-word of cl_below_half (csrc/rng.h) */
typedef struct {
    cl_rng g;
    cl_halves half;
} rng_t;

static inline uint32_t below(rng_t *r, uint32_t m) { return cl_below_half(&r->g, &r->half, m); }

/* the first k positions of the deck shuffled (a partial Fisher-Yates shuffle over size cards):
 * two draws from each 64-bit random number */
static inline void draw_cards(rng_t *r, uint8_t *deck, int size, int k)
{
    int j = 0;
    for (; j + 1 < k; j += 2) {
        uint64_t bits = cl_next(&r->g);
        int pick = j + (int)cl_below_from(&r->g, (uint32_t)bits, (uint32_t)(size - j));
        uint8_t t = deck[j]; deck[j] = deck[pick]; deck[pick] = t;
        pick = j + 1 + (int)cl_below_from(&r->g, (uint32_t)(bits >> 32), (uint32_t)(size - j - 1));
        t = deck[j + 1]; deck[j + 1] = deck[pick]; deck[pick] = t;
    }
    if (j < k) {
        int pick = j + (int)cl_below_from(&r->g, (uint32_t)cl_next(&r->g), (uint32_t)(size - j));
        uint8_t t = deck[j]; deck[j] = deck[pick]; deck[pick] = t;
    }
}

static inline uint64_t hand_of(const uint8_t *cards, const uint64_t *bits)
{
    uint64_t hand = 0;
    for (int k = 0; k < 13; k++)
        hand |= bits[cards[k]];
    return hand;
}

static int seed_rng(rng_t *r, Py_buffer *state)
{
    if (state->len != 32) {
        PyErr_SetString(PyExc_ValueError, "the generator state is 32 bytes (4 uint64)");
        return -1;
    }
    cl_rng_seed(&r->g, state->buf);
    r->half.word = 0;
    r->half.halves = 0;
    return 0;
}


static inline void store(uint16_t *masks, Py_ssize_t n, Py_ssize_t i, int seat, uint64_t hand)
{
    for (int suit = 0; suit < 4; suit++)
        masks[(seat * 4 + suit) * n + i] = (uint16_t)((hand >> (16 * suit)) & 0x1FFF);
}

/* One seat holds ``mine`` (13 cards); the other 39 go uniformly to the other three seats. */
static inline void deal_rest(rng_t *rng, uint8_t *deck, const uint64_t *bits, uint64_t mine, int held_seat,
                             const int *others, uint16_t *masks, Py_ssize_t n, Py_ssize_t i)
{
    int m = 0;
    for (int c = 0; c < 52; c++)
        if (!(mine & bits[c]))
            deck[m++] = (uint8_t)c;
    uint64_t hands[3] = {0, 0, 0}, drawn = 0;
    for (int j = 0; j < m - 13; j++) { /* m is 39 for a hand of 13; the last 13 are left */
        int pick = j + (int)below(rng, (uint32_t)(m - j));
        uint8_t t = deck[j]; deck[j] = deck[pick]; deck[pick] = t;
        hands[j / 13] |= bits[deck[j]];
        drawn |= bits[deck[j]];
    }
    hands[2] |= CL_FULL_DECK & ~mine & ~drawn;
    store(masks, n, i, held_seat, mine);
    for (int s = 0; s < 3; s++)
        store(masks, n, i, others[s], hands[s]);
}

/* deal_masks(state, n, fixed, seats, held, held_seat, out): seats is the bit set of the seats to deal
 * (0 or 15: all; one or two seats: only those, the others' masks 0) */
static PyObject *deal_masks(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer state, fixed, held, out;
    Py_ssize_t n;
    int only_seat, held_seat;
    if (!PyArg_ParseTuple(args, "y*ny*iy*iw*", &state, &n, &fixed, &only_seat, &held, &held_seat, &out))
        return NULL;
    PyObject *result = NULL;
    rng_t rng;
    if (seed_rng(&rng, &state) < 0)
        goto done;
    if (n < 0 || out.len != 32 * n || fixed.len != 52 || (held.len != 0 && held.len != 8 * n)
        || only_seat < 0 || only_seat > 15 || held_seat < -1 || held_seat > 3 || (held.len && held_seat < 0)) {
        PyErr_SetString(PyExc_ValueError, "deal_masks: buffers do not match n (masks 4x4xn uint16, fixed 52 int8)");
        goto done;
    }
    const int8_t *fx = (const int8_t *)fixed.buf;
    int free_cards[52], slot_seat[52], nfree = 0, need[4] = {13, 13, 13, 13};
    uint64_t base[4] = {0, 0, 0, 0};
    for (int c = 0; c < 52; c++) {
        if (fx[c] >= 0 && fx[c] < 4) {
            base[fx[c]] |= cl_card_bit(c);
            need[fx[c]]--;
        } else {
            free_cards[nfree++] = c;
        }
    }
    for (int s = 0, k = 0; s < 4; s++) {
        CL_FAIL_IF(need[s] < 0, "deal_masks: a seat is given more than 13 cards");
        for (int j = 0; j < need[s]; j++)
            slot_seat[k++] = s;
    }
    uint16_t *masks = (uint16_t *)out.buf;
    const uint16_t *hm = (const uint16_t *)held.buf;
    int use_held = held.len != 0;

    int bad_hand = 0;
    Py_BEGIN_ALLOW_THREADS
    uint64_t bits[52], free_mask = 0;
    for (int c = 0; c < 52; c++)
        bits[c] = cl_card_bit(c);
    uint8_t deck[52];
    for (int j = 0; j < nfree; j++) {
        deck[j] = (uint8_t)free_cards[j];
        free_mask |= bits[free_cards[j]];
    }
    if (use_held) {
        int others[3], k = 0;
        for (int s = 0; s < 4; s++)
            if (s != held_seat)
                others[k++] = s;
        for (Py_ssize_t i = 0; i < n; i++) {
            uint64_t mine = 0;
            for (int suit = 0; suit < 4; suit++)
                mine |= (uint64_t)(hm[suit * n + i] & 0x1FFF) << (16 * suit);
            if (cl_popcount64(mine) != 13) { /* deal_rest deals the other 39 into three hands */
                bad_hand = 1;
                break;
            }
            deal_rest(&rng, deck, bits, mine, held_seat, others, masks, n, i);
        }
    } else if (only_seat > 0 && nfree == 52 && cl_popcount32((uint32_t)only_seat) < 3) {
        /* only the seats in the bit set only_seat are looked at: a partial shuffle, 13 cards each */
        int wanted[2], count = 0;
        for (int s = 0; s < 4; s++)
            if (only_seat >> s & 1)
                wanted[count++] = s;
        for (Py_ssize_t i = 0; i < n; i++) {
            draw_cards(&rng, deck, 52, 13 * count);
            for (int w = 0; w < count; w++)
                store(masks, n, i, wanted[w], hand_of(deck + 13 * w, bits));
        }
        for (int s = 0; s < 4; s++)
            if (!(only_seat >> s & 1))
                memset(masks + (Py_ssize_t)s * 4 * n, 0, sizeof(uint16_t) * 4 * (size_t)n);
    } else if (nfree == 52) {
        /* nothing predealt: North, East and South draw 13 cards each, West takes the rest */
        for (Py_ssize_t i = 0; i < n; i++) {
            draw_cards(&rng, deck, 52, 39);
            uint64_t north = hand_of(deck, bits), east = hand_of(deck + 13, bits), south = hand_of(deck + 26, bits);
            store(masks, n, i, 0, north);
            store(masks, n, i, 1, east);
            store(masks, n, i, 2, south);
            store(masks, n, i, 3, CL_FULL_DECK & ~(north | east | south));
        }
    } else {
        /* a partial shuffle: the last seat's cards are the ones left when the others are drawn */
        int last = nfree ? slot_seat[nfree - 1] : 3;
        int limit = nfree ? nfree - need[last] : 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            uint64_t hands[4] = {base[0], base[1], base[2], base[3]}, drawn = 0;
            for (int j = 0; j < limit; j++) {
                int pick = j + (int)below(&rng, (uint32_t)(nfree - j));
                uint8_t t = deck[j]; deck[j] = deck[pick]; deck[pick] = t;
                hands[slot_seat[j]] |= bits[deck[j]];
                drawn |= bits[deck[j]];
            }
            hands[last] |= free_mask & ~drawn;
            for (int s = 0; s < 4; s++)
                store(masks, n, i, s, hands[s]);
        }
    }
    Py_END_ALLOW_THREADS
    result = cl_none_or_error(bad_hand, "deal_masks: a held hand that is not 13 cards of its own");
done:
    CL_RELEASE(&state, &fixed, &held, &out);
    return result;
}

/* complete_deals(state, n, seats, masks): deals whose seats in the bit set ``seats`` (one or two)
 * hold their 13 cards in masks (4, 4, n), the other seats' masks being filled here: the cards left
 * shuffled to them uniformly (so dealt in two steps, a deal is as uniform as dealt at once). */
static PyObject *complete_deals(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer state, out;
    Py_ssize_t n;
    int seats;
    if (!PyArg_ParseTuple(args, "y*niw*", &state, &n, &seats, &out))
        return NULL;
    PyObject *result = NULL;
    rng_t rng;
    if (seed_rng(&rng, &state) < 0)
        goto done;
    CL_FAIL_IF(n < 0 || out.len != 32 * n || seats <= 0 || seats >= 15,
               "complete_deals: masks (4, 4, n) uint16 and one to three seats held");
    uint16_t *masks = (uint16_t *)out.buf;
    int empty[4], count = 0;
    for (int s = 0; s < 4; s++)
        if (!(seats >> s & 1))
            empty[count++] = s;
    int bad_hand = 0;
    Py_BEGIN_ALLOW_THREADS
    uint64_t bits[52];
    for (int c = 0; c < 52; c++)
        bits[c] = cl_card_bit(c);
    uint8_t deck[52];
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t held = 0;
        int overlap = 0;
        for (int s = 0; s < 4; s++)
            if (seats >> s & 1) {
                uint64_t hand = 0;
                for (int suit = 0; suit < 4; suit++)
                    hand |= (uint64_t)(masks[(s * 4 + suit) * n + i] & 0x1FFF) << (16 * suit);
                overlap |= cl_popcount64(hand) != 13 || (hand & held) != 0;
                held |= hand;
            }
        if (overlap) { /* each held seat must hold 13 cards of its own: the rest is dealt from 52 - 13k */
            bad_hand = 1;
            break;
        }
        int m = 0;
        for (int c = 0; c < 52; c++)
            if (!(held & bits[c]))
                deck[m++] = (uint8_t)c;
        draw_cards(&rng, deck, m, m - 13);
        uint64_t drawn = 0;
        for (int e = 0; e < count - 1; e++) {
            uint64_t hand = hand_of(deck + 13 * e, bits);
            drawn |= hand;
            store(masks, n, i, empty[e], hand);
        }
        store(masks, n, i, empty[count - 1], CL_FULL_DECK & ~held & ~drawn);
    }
    Py_END_ALLOW_THREADS
    result = cl_none_or_error(bad_hand, "complete_deals: a held hand that is not 13 cards of its own");
done:
    CL_RELEASE(&state, &out);
    return result;
}

/* deal_classes(state, n, seat, lengths, points, weights, cumulative, honours, out)
 *
 * The exact conditional draw (cardlab/bridge/dealer/conditional.py): deal i gives ``seat``, in
 * each suit, lengths[suit][i] cards worth points[suit][i] high-card points (int8, 4 x n): an
 * honour set (J=1 Q=2 K=4 A=8) of that value with probability proportional to its spot-card
 * completions (weights[l][h] holdings in all, cumulative[l][h][k] up to honour set k =
 * honours[l][h][k]; int64 tables 14 x 11 (x 16)), then the spot cards uniformly; the other 39
 * cards go uniformly to the other seats.  Writes masks (4, 4, n). */
static PyObject *deal_classes(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer state, lb, pb, wb, cb, hb, out;
    Py_ssize_t n;
    int seat;
    if (!PyArg_ParseTuple(args, "y*niy*y*y*y*y*w*", &state, &n, &seat, &lb, &pb, &wb, &cb, &hb, &out))
        return NULL;
    PyObject *result = NULL;
    rng_t rng;
    if (seed_rng(&rng, &state) < 0)
        goto done;
    if (n < 0 || seat < 0 || seat > 3 || lb.len != 4 * n || pb.len != 4 * n || wb.len != 8 * 14 * 11
        || cb.len != 8 * 14 * 11 * 16 || hb.len != 8 * 14 * 11 * 16 || out.len != 32 * n) {
        PyErr_SetString(PyExc_ValueError, "deal_classes: buffers do not match n");
        goto done;
    }
    const int8_t *lengths = (const int8_t *)lb.buf, *points = (const int8_t *)pb.buf;
    const int64_t *weights = (const int64_t *)wb.buf, *cumulative = (const int64_t *)cb.buf;
    const int64_t *honours = (const int64_t *)hb.buf;
    uint16_t *masks = (uint16_t *)out.buf;
    int bad = 0;

    Py_BEGIN_ALLOW_THREADS
    uint64_t bits[52];
    for (int c = 0; c < 52; c++)
        bits[c] = cl_card_bit(c);
    uint8_t deck[52], spots[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    int others[3], k = 0;
    for (int s = 0; s < 4; s++)
        if (s != seat)
            others[k++] = s;
    for (Py_ssize_t i = 0; i < n && !bad; i++) {
        uint64_t mine = 0;
        int cards = 0;
        for (int suit = 0; suit < 4; suit++) {
            int l = lengths[suit * n + i], h = points[suit * n + i];
            if (l < 0 || l > 13 || h < 0 || h > 10 || weights[l * 11 + h] <= 0 || weights[l * 11 + h] > 0x7FFFFFFF) {
                bad = 1;
                break;
            }
            const int64_t *cum = cumulative + (l * 11 + h) * 16;
            uint32_t u = below(&rng, (uint32_t)weights[l * 11 + h]);
            int slot = 0;
            while (slot < 15 && cum[slot] <= (int64_t)u)
                slot++;
            unsigned honour = (unsigned)honours[(l * 11 + h) * 16 + slot] & 15;
            unsigned mask = honour << 9;
            int need = l - ((honour & 1) + (honour >> 1 & 1) + (honour >> 2 & 1) + (honour >> 3 & 1));
            if (need < 0 || need > 9) {
                bad = 1;
                break;
            }
            for (int j = 0; j < need; j++) { /* the spot cards: a partial shuffle of the nine */
                int pick = j + (int)below(&rng, (uint32_t)(9 - j));
                uint8_t t = spots[j]; spots[j] = spots[pick]; spots[pick] = t;
                mask |= 1u << spots[j];
            }
            mine |= (uint64_t)mask << (16 * suit);
            cards += l;
        }
        if (bad || cards != 13) {
            bad = 1;
            break;
        }
        deal_rest(&rng, deck, bits, mine, seat, others, masks, n, i);
    }
    Py_END_ALLOW_THREADS
    result = cl_none_or_error(bad, "deal_classes: a class outside the tables (lengths must add up to 13)");
done:
    CL_RELEASE(&state, &lb, &pb, &wb, &cb, &hb, &out);
    return result;
}

/* --- text ----------------------------------------------------------------------------------- */

static const char RANKS[] = "23456789TJQKA";
static const char SEAT_LETTERS[] = "NESW";
static const char *const VULS[16] = {"None", "NS", "EW", "All", "NS", "EW", "All", "None",
                                     "EW", "All", "None", "NS", "All", "None", "NS", "EW"};

/* Holdings as text by table: the ranks A..8 of a mask (its high 7 bits) and 7..2 (its low 6),
 * each written as 8 bytes at once (the output has room to spare) and advanced by its length. */
typedef struct {
    char hi[128][8];
    char lo[64][8];
    uint8_t hi_len[128];
    uint8_t lo_len[64];
} holdings_t;

static void holding_tables(holdings_t *h)
{
    for (int m = 0; m < 128; m++) {
        int k = 0;
        memset(h->hi[m], 0, 8);
        for (int r = 6; r >= 0; r--)
            if (m >> r & 1)
                h->hi[m][k++] = RANKS[r + 6];
        h->hi_len[m] = (uint8_t)k;
    }
    for (int m = 0; m < 64; m++) {
        int k = 0;
        memset(h->lo[m], 0, 8);
        for (int r = 5; r >= 0; r--)
            if (m >> r & 1)
                h->lo[m][k++] = RANKS[r];
        h->lo_len[m] = (uint8_t)k;
    }
}

/* a holding, highest rank first; returns the end */
static inline char *holding(char *p, const holdings_t *h, unsigned mask)
{
    unsigned high = (mask >> 6) & 127, low = mask & 63;
    memcpy(p, h->hi[high], 8);
    p += h->hi_len[high];
    memcpy(p, h->lo[low], 8);
    return p + h->lo_len[low];
}

/* a hand "S.H.D.C" */
static inline char *hand_text(char *p, const holdings_t *h, const uint16_t *masks, Py_ssize_t n, Py_ssize_t i,
                              int seat)
{
    for (int suit = 3; suit >= 0; suit--) {
        p = holding(p, h, masks[(seat * 4 + suit) * n + i]);
        if (suit)
            *p++ = '.';
    }
    return p;
}

static inline char *decimal(char *p, long long v)
{
    char tmp[24];
    int k = 0;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        tmp[k++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *p++ = '-';
    while (k)
        *p++ = tmp[--k];
    return p;
}

/* one row of hands side by side, as the dealer program prints them: "K J 7 " in 20 columns, "- " for a void */
static char *side_by_side(char *p, const uint16_t *masks, Py_ssize_t n, Py_ssize_t i, const int *seats, int count,
                          int suit)
{
    for (int k = 0; k < count; k++) {
        char *start = p;
        unsigned mask = masks[(seats[k] * 4 + suit) * n + i];
        if (mask == 0) {
            *p++ = '-';
            *p++ = ' ';
        } else {
            for (int r = 12; r >= 0; r--)
                if (mask >> r & 1) {
                    *p++ = RANKS[r];
                    *p++ = ' ';
                }
        }
        if (k < count - 1)
            while (p - start < 20)
                *p++ = ' ';
    }
    return p;
}

/* The most one placeholder can write. */
static Py_ssize_t placeholder_bound(char code)
{
    switch (code) {
    case 'b': case 'x': return 21;
    case 'd': return 1;
    case 'v': return 4;
    case 'D': case 'N': return 2 + 4 * 16 + 3;
    case 'o': return 4 * 19;
    case 'a': return 32 + 4 * (3 * 26 + 27) + 8;
    case 'w': return 4 * (26 + 27) + 8;
    case 'c': return 4 * 20;
    default: return 1;
    }
}

/* format_deals(masks, n, template, first_number, extras, columns) -> bytes
 *
 * The template is written once per deal; byte 0x01 starts a placeholder:
 *   b the deal's number (first_number + i), d its dealer (N E S W by board number),
 *   v its vulnerability (the 16-board cycle), D the PBN deal from the dealer ("E:..."),
 *   N the PBN deal from North, o the printoneline hands ("n ... e ... s ... w ... "),
 *   x<j> the j-th extra value of the deal (extras[i * columns + j], int64),
 *   a printall (number and four hands side by side), w printew, c printcompact's four lines,
 *   0x01 a literal 0x01.
 */
static PyObject *format_deals(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer mb, tb, eb;
    Py_ssize_t n, columns;
    long long first;
    if (!PyArg_ParseTuple(args, "y*ny*Ly*n", &mb, &n, &tb, &first, &eb, &columns))
        return NULL;
    PyObject *result = NULL;
    const char *tpl = (const char *)tb.buf;
    Py_ssize_t tlen = tb.len, per = 0;
    CL_FAIL_IF(n < 0 || mb.len != 32 * n || columns < 0 || eb.len != 8 * n * columns,
               "format_deals: buffers do not match n");
    /* the output bound below assumes at most 13 cards a hand, 13 bits a mask: check every deal */
    const uint16_t *given = (const uint16_t *)mb.buf;
    for (Py_ssize_t i = 0; i < n; i++)
        for (int seat = 0; seat < 4; seat++) {
            int cards = 0;
            for (int suit = 0; suit < 4; suit++) {
                unsigned mask = given[(seat * 4 + suit) * n + i];
                if (mask & ~0x1FFFu)
                    cards = 99;
                cards += cl_popcount32(mask);
            }
            if (cards > 13) {
                PyErr_Format(PyExc_ValueError, "format_deals: deal %zd: a seat holds more than 13 cards", i + 1);
                goto done;
            }
        }
    for (Py_ssize_t t = 0; t < tlen; t++) {
        if (tpl[t] == 1) {
            CL_FAIL_IF(t + 1 >= tlen, "format_deals: the template ends inside a placeholder");
            char code = tpl[++t];
            if (code == 'x') {
                CL_FAIL_IF(t + 1 >= tlen || (unsigned char)tpl[t + 1] >= columns,
                           "format_deals: an extra value out of range");
                t++;
            } else if (!strchr("bdvDNoawc\x01", code)) {
                PyErr_SetString(PyExc_ValueError, "format_deals: unknown placeholder");
                goto done;
            }
            per += placeholder_bound(code);
        } else {
            per += 1;
        }
    }
    /* the template cut once into literal runs and placeholders */
    Py_ssize_t *segments = PyMem_Malloc(sizeof(Py_ssize_t) * 3 * (size_t)(tlen + 1));
    if (segments == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t count = 0;
    for (Py_ssize_t t = 0; t < tlen;) {
        if (tpl[t] == 1) {
            segments[3 * count] = -1;
            segments[3 * count + 1] = (unsigned char)tpl[t + 1];
            segments[3 * count + 2] = tpl[t + 1] == 'x' ? (unsigned char)tpl[t + 2] : 0;
            t += tpl[t + 1] == 'x' ? 3 : 2;
        } else {
            Py_ssize_t start = t;
            while (t < tlen && tpl[t] != 1)
                t++;
            segments[3 * count] = start;
            segments[3 * count + 1] = t - start;
            segments[3 * count + 2] = 0;
        }
        count++;
    }
    result = PyBytes_FromStringAndSize(NULL, per * n + 16);
    if (result == NULL) {
        PyMem_Free(segments);
        goto done;
    }
    char *out = PyBytes_AS_STRING(result), *p = out;
    holdings_t texts;
    holding_tables(&texts);
    const uint16_t *masks = (const uint16_t *)mb.buf;
    const int64_t *extras = (const int64_t *)eb.buf;
    static const int all_seats[4] = {0, 1, 2, 3}, west_east[2] = {3, 1};

    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        long long number = first + i;
        long long cycle = ((number - 1) % 16 + 16) % 16;
        for (Py_ssize_t g = 0; g < count; g++) {
            if (segments[3 * g] >= 0) {
                memcpy(p, tpl + segments[3 * g], (size_t)segments[3 * g + 1]);
                p += segments[3 * g + 1];
                continue;
            }
            char code = (char)segments[3 * g + 1];
            switch (code) {
            case 'b': p = decimal(p, number); break;
            case 'd': *p++ = SEAT_LETTERS[cycle % 4]; break;
            case 'v': { const char *v = VULS[cycle]; while (*v) *p++ = *v++; } break;
            case 'D': case 'N': {
                int start = code == 'D' ? (int)(cycle % 4) : 0;
                *p++ = SEAT_LETTERS[start];
                *p++ = ':';
                for (int k = 0; k < 4; k++) {
                    if (k)
                        *p++ = ' ';
                    p = hand_text(p, &texts, masks, n, i, (start + k) % 4);
                }
            } break;
            case 'o':
                for (int s = 0; s < 4; s++) {
                    *p++ = "nesw"[s];
                    *p++ = ' ';
                    p = hand_text(p, &texts, masks, n, i, s);
                    *p++ = ' ';
                }
                break;
            case 'x': p = decimal(p, extras[i * columns + segments[3 * g + 2]]); break;
            case 'a': {
                char head[32];
                int len = snprintf(head, sizeof head, "%4lld.", number);
                memcpy(p, head, (size_t)len);
                p += len;
                for (int suit = 3; suit >= 0; suit--) {
                    *p++ = '\n';
                    p = side_by_side(p, masks, n, i, all_seats, 4, suit);
                }
                *p++ = '\n';
                *p++ = '\n';
            } break;
            case 'w':
                for (int suit = 3; suit >= 0; suit--) {
                    p = side_by_side(p, masks, n, i, west_east, 2, suit);
                    *p++ = '\n';
                }
                *p++ = '\n';
                break;
            case 'c':
                for (int s = 0; s < 4; s++) {
                    *p++ = "nesw"[s];
                    *p++ = ' ';
                    p = hand_text(p, &texts, masks, n, i, s);
                    *p++ = '\n';
                }
                break;
            default: *p++ = 1; break;
            }
        }
    }
    Py_END_ALLOW_THREADS
    PyMem_Free(segments);
    if (_PyBytes_Resize(&result, p - out) < 0)
        result = NULL;
done:
    CL_RELEASE(&mb, &tb, &eb);
    return result;
}

/* A table of 8192 int64 looked up by suit masks (uint16, ``suits`` rows of n masks), the rows
 * summed: out[i] = sum over the rows r of table[masks[r][i] & 0x1FFF]. One row is a value per
 * suit (suit_values), four rows a hand's total over its suits (hand_values). */
static PyObject *table_sums(PyObject *args, int suits, const char *usage)
{
    Py_buffer mb, tb, ob;
    if (!PyArg_ParseTuple(args, "y*y*w*", &mb, &tb, &ob))
        return NULL;
    Py_ssize_t n = ob.len / 8;
    CL_FAIL_IF(tb.len != 8 * 8192 || mb.len != 2 * suits * n || ob.len % 8, usage);
    const uint16_t *m = (const uint16_t *)mb.buf;
    const int64_t *table = (const int64_t *)tb.buf;
    int64_t *o = (int64_t *)ob.buf;
    Py_BEGIN_ALLOW_THREADS
    if (suits == 1)
        for (Py_ssize_t i = 0; i < n; i++)
            o[i] = table[m[i] & 0x1FFF];
    else
        for (Py_ssize_t i = 0; i < n; i++)
            o[i] = table[m[i] & 0x1FFF] + table[m[n + i] & 0x1FFF] + table[m[2 * n + i] & 0x1FFF]
                   + table[m[3 * n + i] & 0x1FFF];
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&mb, &tb, &ob);
}

/* suit_values(masks, table, out): out[i] = table[masks[i] & 0x1FFF] (int64), for any number of masks */
static PyObject *suit_values(PyObject *Py_UNUSED(self), PyObject *args)
{
    return table_sums(args, 1, "suit_values: masks uint16, a table of 8192 int64, out int64 like masks");
}

/* hand_values(masks, table, out): out[i] = sum over the 4 suits of table[masks[suit][i]] for masks (4, n) */
static PyObject *hand_values(PyObject *Py_UNUSED(self), PyObject *args)
{
    return table_sums(args, 4, "hand_values: masks (4, n) uint16, a table of 8192 int64, out n int64");
}

/* shape_values(masks, table, out): out[i] = table[key] for masks (4, n) of one seat, key the suit
 * lengths ((spades * 14 + hearts) * 14 + diamonds) * 14 + clubs, table 14^4 bytes, out n bytes */
static PyObject *shape_values(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer mb, tb, ob;
    if (!PyArg_ParseTuple(args, "y*y*w*", &mb, &tb, &ob))
        return NULL;
    Py_ssize_t n = ob.len;
    CL_FAIL_IF(tb.len != 14 * 14 * 14 * 14 || mb.len != 8 * n,
               "shape_values: masks (4, n) uint16, a table of 14^4 bytes, out n bytes");
    const uint16_t *m = (const uint16_t *)mb.buf;
    const uint8_t *table = (const uint8_t *)tb.buf;
    uint8_t *o = (uint8_t *)ob.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        o[i] = table[shape_key(m[i], m[n + i], m[2 * n + i], m[3 * n + i])];
    }
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&mb, &tb, &ob);
}

/* pbn_deals(text, n, out, ok) -> the number read
 *
 * text holds n PBN deal strings, each ended by '\n'.  Each one in the plain form (see
 * plain_pbn_deal in deal.h) is read into out[52 i .. 52 i + 51] (the seat 0 N .. 3 W of each card id) and
 * ok[i] set to 1; any other is left for the caller to read (and explain), ok[i] = 0. */
static PyObject *pbn_deals(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer tb, ob, kb;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "y*nw*w*", &tb, &n, &ob, &kb))
        return NULL;
    Py_ssize_t read = 0;
    CL_FAIL_IF(n < 0 || ob.len != 52 * n || kb.len != n, "pbn_deals: out is n x 52 bytes, ok n bytes");
    const unsigned char *text = (const unsigned char *)tb.buf, *end = text + tb.len;
    Py_ssize_t lines = 0;
    for (const unsigned char *q = text; q < end; q++)
        lines += *q == '\n';
    CL_FAIL_IF(lines != n || (tb.len && end[-1] != '\n'),
               "pbn_deals: the text is not n lines, each ended by a newline");
    uint8_t *out = (uint8_t *)ob.buf, *ok = (uint8_t *)kb.buf;
    Py_BEGIN_ALLOW_THREADS
    const unsigned char *p = text;
    for (Py_ssize_t i = 0; i < n; i++) {
        const unsigned char *eol = memchr(p, '\n', (size_t)(end - p));
        ok[i] = (uint8_t)plain_pbn_deal(p, eol, out + 52 * i);
        read += ok[i];
        p = eol + 1;
    }
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_COUNT(read, &tb, &ob, &kb);
}

CL_METHODS(deal,
    CL_METHOD(pbn_deals, "pbn_deals(text, n, out, ok) -> int: n PBN deal strings (one a line) as the seat of each card."),
    CL_METHOD(complete_deals, "complete_deals(state, n, seats, masks): the seats not in the bit set dealt the cards left."),
    CL_METHOD(deal_classes,
              "deal_classes(state, n, seat, lengths, points, weights, cumulative, honours, out): exact conditional deals."),
    CL_METHOD(shape_values, "shape_values(masks, table, out): a shape table per hand."),
    CL_METHOD(deal_masks, "deal_masks(state, n, fixed, seats, held, held_seat, out): n shuffled deals as suit masks."),
    CL_METHOD(format_deals, "format_deals(masks, n, template, first_number, extras, columns) -> bytes: deals as text."),
    CL_METHOD(suit_values, "suit_values(masks, table, out): a table lookup per suit mask."),
    CL_METHOD(hand_values, "hand_values(masks, table, out): a table summed over four suits."));
