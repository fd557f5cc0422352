/* The card encoding and the facts every kernel family shares, in one place.
 *
 * Each value mirrors a Python constant; tests/test_core_build.py reads this file and checks
 * every one against the package (cardlab.cards, cardlab.poker.kernel, cardlab.casino.video), so
 * the two cannot drift apart.
 *
 * A card is the int rank * 4 + suit (rank 0 = the two .. 12 = the ace; suit 0 clubs .. 3
 * spades), as cardlab.cards.  A hand or a set of cards is one 64-bit word: suit s holds bits
 * 16 s .. 16 s + 12, bit r of a suit's 13-bit mask being rank r.
 */
#ifndef CARDLAB_CARDS_H
#define CARDLAB_CARDS_H

#include <stdint.h>

#define CL_RANKS 13       /* len(cardlab.cards.RANKS) */
#define CL_SUITS 4        /* len(cardlab.cards.SUITS) */
#define CL_CARDS 52       /* CL_RANKS * CL_SUITS card ids, 0..51 */
#define CL_JOKER 52       /* cardlab.casino.video.JOKER: the card type of a joker */
#define CL_SUIT_LANE 16   /* bits per suit in a hand word */
#define CL_HOLDINGS 8192  /* 1 << CL_RANKS: the holdings of one suit, the length of a per-suit table */
#define CL_SUIT_MASK 0x1FFF                 /* CL_HOLDINGS - 1: a suit's 13 rank bits */
#define CL_FULL_DECK UINT64_C(0x1FFF1FFF1FFF1FFF) /* the word of all 52 cards */
#define CL_SHAPES 38416   /* 14 ** 4: the shape keys of four suit lengths 0..13 */
#define CL_CATEGORY_SHIFT 20 /* cardlab.poker.kernel.CATEGORY_SHIFT: strength >> it is the category position */

static inline int cl_card_rank(int card) { return card >> 2; }
static inline int cl_card_suit(int card) { return card & 3; }

/* The bit of a card in a hand word. */
static inline uint64_t cl_card_bit(int card)
{
    return UINT64_C(1) << (CL_SUIT_LANE * cl_card_suit(card) + cl_card_rank(card));
}

#endif
