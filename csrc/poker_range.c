/* Ranges in the generic syntax: every hand of a game, and which hands a pattern matches.
 * The wrapper is cardlab.poker.generic (parsing, set algebra and weights are done there).
 *
 * A pattern is m cards; each card allows a set of ranks (a 13-bit mask) and a set of suits (a
 * 4-bit mask), and may name a rank variable and a suit variable.  A hand matches when its cards
 * can be given to the pattern's cards one to one (the hand may have more cards than the pattern)
 * with every rank and suit allowed, each variable standing for one rank (or suit) throughout,
 * different variables for different ranks (suits), and no variable for a rank (suit) in the
 * pattern's forbidden mask (the ranks and suits it names outright). */
#include "core.h"
#include "subsets.h"

#include <string.h>

#define MAX_HOLE 7
#define MAX_VARS 16

typedef struct {
    int m;
    uint16_t rank_mask[MAX_HOLE];
    int8_t rank_var[MAX_HOLE];
    uint8_t suit_mask[MAX_HOLE];
    int8_t suit_var[MAX_HOLE];
    uint16_t rank_forbid;
    uint8_t suit_forbid;
} pattern;

typedef struct {
    const pattern *p;
    const uint8_t *hand;
    int k;
    int used;                 /* hand cards taken, a bit each */
    int8_t rank_of[MAX_VARS]; /* -1 unbound */
    int8_t suit_of[MAX_VARS];
    uint16_t ranks_bound;     /* ranks some variable stands for */
    uint8_t suits_bound;
} search;

/* Whether a card's rank (or suit) ``value`` fits pattern variable ``var`` (-1: none): bound to it
 * already, or unbound and ``value`` in no mask bit of ``taken`` (forbidden, or another variable's);
 * *bind is set to whether the variable must be bound to it. */
static int fits(int var, const int8_t *of, unsigned taken, int value, int *bind)
{
    *bind = 0;
    if (var < 0)
        return 1;
    if (of[var] >= 0)
        return of[var] == value;
    if (taken >> value & 1)
        return 0;
    *bind = 1;
    return 1;
}

static int place(search *s, int i)
{
    if (i == s->p->m)
        return 1;
    const pattern *p = s->p;
    for (int j = 0; j < s->k; j++) {
        if (s->used >> j & 1)
            continue;
        int rank = s->hand[j] >> 2, suit = s->hand[j] & 3;
        if (!(p->rank_mask[i] >> rank & 1) || !(p->suit_mask[i] >> suit & 1))
            continue;
        int rv = p->rank_var[i], sv = p->suit_var[i];
        int bind_rank = 0, bind_suit = 0;
        if (!fits(rv, s->rank_of, p->rank_forbid | s->ranks_bound, rank, &bind_rank)
            || !fits(sv, s->suit_of, p->suit_forbid | s->suits_bound, suit, &bind_suit))
            continue;
        if (bind_rank) {
            s->rank_of[rv] = (int8_t)rank;
            s->ranks_bound |= (uint16_t)(1 << rank);
        }
        if (bind_suit) {
            s->suit_of[sv] = (int8_t)suit;
            s->suits_bound |= (uint8_t)(1 << suit);
        }
        s->used |= 1 << j;
        int ok = place(s, i + 1);
        s->used &= ~(1 << j);
        if (bind_rank) {
            s->rank_of[rv] = -1;
            s->ranks_bound &= (uint16_t)~(1 << rank);
        }
        if (bind_suit) {
            s->suit_of[sv] = -1;
            s->suits_bound &= (uint8_t)~(1 << suit);
        }
        if (ok)
            return 1;
    }
    return 0;
}

/* poker_range_match(hands, k, cards, forbid, out)
 *   hands: N * k uint8 card ids; cards: m * 4 int32 rows (rank mask, rank variable or -1, suit
 *   mask, suit variable or -1); forbid: (rank mask, suit mask); out: N uint8, set to 1 where the
 *   hand matches (0 elsewhere). */
static PyObject *poker_range_match(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer hands, cards, out;
    int k, rank_forbid, suit_forbid;
    if (!PyArg_ParseTuple(args, "y*iy*(ii)w*", &hands, &k, &cards, &rank_forbid, &suit_forbid, &out))
        return NULL;
    pattern p;
    memset(&p, 0, sizeof p);
    p.m = (int)(cards.len / 16);
    int bad = k < 1 || k > MAX_HOLE || hands.len % k != 0 || cards.len % 16 != 0 || p.m > k
              || out.len != hands.len / k || rank_forbid < 0 || rank_forbid >= (1 << 13)
              || suit_forbid < 0 || suit_forbid >= 16;
    const int32_t *row = cards.buf;
    for (int i = 0; !bad && i < p.m; i++) {
        const int32_t *c = row + 4 * i;
        bad = c[0] < 0 || c[0] >= (1 << 13) || c[1] < -1 || c[1] >= MAX_VARS || c[2] < 0 || c[2] >= 16
              || c[3] < -1 || c[3] >= MAX_VARS;
        p.rank_mask[i] = (uint16_t)c[0];
        p.rank_var[i] = (int8_t)c[1];
        p.suit_mask[i] = (uint8_t)c[2];
        p.suit_var[i] = (int8_t)c[3];
    }
    const uint8_t *h = hands.buf;
    for (Py_ssize_t i = 0; !bad && i < hands.len; i++)
        bad = h[i] >= 52;
    CL_FAIL_IF(bad, "poker_range_match: bad arguments");
    p.rank_forbid = (uint16_t)rank_forbid;
    p.suit_forbid = (uint8_t)suit_forbid;
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t n = hands.len / k;
    uint8_t *o = out.buf;
    search s;
    s.p = &p;
    s.k = k;
    for (Py_ssize_t i = 0; i < n; i++) {
        s.hand = h + i * k;
        s.used = 0;
        memset(s.rank_of, -1, sizeof s.rank_of);
        memset(s.suit_of, -1, sizeof s.suit_of);
        s.ranks_bound = 0;
        s.suits_bound = 0;
        o[i] = (uint8_t)place(&s, 0);
    }
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&hands, &cards, &out);
}

/* poker_hands(deck, k, out): every k-card hand of the deck (distinct card ids, ascending) in
 *   lexicographic order of positions, written as rows of k uint8; out holds C(n, k) * k bytes. */
static PyObject *poker_hands(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer deck, out;
    int k;
    if (!PyArg_ParseTuple(args, "y*iw*", &deck, &k, &out))
        return NULL;
    Py_ssize_t n = deck.len, total = 1;
    int bad = k < 1 || k > MAX_HOLE || n < k || n > 52;
    for (Py_ssize_t i = 0; !bad && i < k; i++)
        total = total * (n - i) / (i + 1);
    CL_FAIL_IF(bad || out.len != total * k, "poker_hands: bad arguments");
    Py_BEGIN_ALLOW_THREADS
    const uint8_t *d = deck.buf;
    uint8_t *o = out.buf;
    int pos[MAX_HOLE];
    cl_subset_first(pos, k);
    for (Py_ssize_t row = 0; row < total; row++) {
        for (int i = 0; i < k; i++)
            o[row * k + i] = d[pos[i]];
        if (!cl_subset_next(pos, k, (int)n))
            break;
    }
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&deck, &out);
}

CL_METHODS(poker_range,
    CL_METHOD(poker_range_match,
              "poker_range_match(hands, k, cards, forbid, out): 1 where a hand matches a generic pattern."),
    CL_METHOD(poker_hands, "poker_hands(deck, k, out): every k-card hand of the deck, in lexicographic order."));
