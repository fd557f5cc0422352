/* The other poker games: seven-card stud high (the 7-card high evaluator of poker.h), stud
 * hi-lo (8 or better), razz and A-5 lowball (ace-to-five low), 2-7 lowball (deuce-to-seven)
 * and badugi.  Hand values, category tables, exact razz equity over rank multisets and
 * simulated equity (stud deals, draw rounds by a stated policy; docs/games.md).
 *
 * Every value is a uint32 where higher is better (a tie is equal values), and each hand also
 * has a category: its index in the game's category tuple of cardlab.poker.games, weakest first.
 * Low ranks count the ace as the lowest card: index 0 = ace, 1 = two .. 12 = king.
 */
#include "core.h"
#include "poker.h"
#include "subsets.h"

#include <string.h>

enum { G_STUD = 0, G_RAZZ = 1, G_A5 = 2, G_27 = 3, G_BADUGI = 4, G_STUD8 = 5, G_GAMES = 6 };

#define LOW_WORST UINT32_C(0xFFFFFF)
#define MAX_PLAYERS 8
#define SHARE_UNIT 5040  /* cardlab.poker.equity.UNIT */

static inline int low_rank(int card) { return (cl_card_rank(card) + 1) % 13; }  /* ace 0 .. king 12 */

/* The ranks of a five-card hand's 13 rank counts by count then rank, highest first, in order (their
 * number returned), and its two largest counts in top and second. */
static int by_count(const uint8_t *counts, int order[5], int *top, int *second)
{
    int n = 0;
    for (int count = 4; count >= 1; count--)
        for (int r = 12; r >= 0; r--)
            if (counts[r] == count)
                order[n++] = r;
    *top = *second = 0;
    for (int r = 0; r < 13; r++) {
        if (counts[r] > *top) {
            *second = *top;
            *top = counts[r];
        } else if (counts[r] > *second) {
            *second = counts[r];
        }
    }
    return n;
}

/* A value of ``category`` << 20, then the n ranks of order a nibble each, the first highest. */
static uint32_t ranked_value(uint32_t category, const int *order, int n)
{
    uint32_t value = category << 20;
    for (int i = 0; i < n; i++)
        value |= (uint32_t)order[i] << (16 - 4 * i);
    return value;
}

/* A five-card multiset's ace-to-five "badness" (lower is better): the pattern (0 no pair,
 * 1 pair, 2 two pair, 3 trips, 4 full house, 5 quads) << 20, then its ranks by count then rank,
 * highest first, a nibble each. */
static uint32_t a5_five(const uint8_t *take)
{
    int order[5], top, second;
    const int n = by_count(take, order, &top, &second);
    uint32_t pattern = top == 4 ? 5 : top == 3 ? (second == 2 ? 4 : 3) : top == 2 ? (second == 2 ? 2 : 1) : 0;
    return ranked_value(pattern, order, n);
}

/* The best (lowest) five-card sub-multiset of counts: every choice tried (few: at most 8 cards). */
static void a5_search(const uint8_t *counts, uint8_t *take, int rank, int left, uint32_t *best)
{
    if (left == 0) {
        uint32_t v = a5_five(take);
        if (v < *best)
            *best = v;
        return;
    }
    if (rank == 13)
        return;
    int most = counts[rank] < left ? counts[rank] : left;
    for (int k = most; k >= 0; k--) {
        take[rank] = (uint8_t)k;
        a5_search(counts, take, rank + 1, left - k, best);
    }
    take[rank] = 0;
}

/* Ace-to-five badness of the best five of a hand's low-rank counts (5 or more cards). */
static uint32_t a5_low(const uint8_t *counts)
{
    uint32_t value = 0;
    int n = 0;
    for (int r = 0; r < 13 && n < 5; r++)
        if (counts[r])
            value |= (uint32_t)r << (4 * n++);
    if (n == 5)  /* five different ranks: the five lowest, the highest in the top nibble */
        return value;
    uint8_t take[13] = {0};
    uint32_t best = LOW_WORST;
    a5_search(counts, take, 0, 5, &best);
    return best;
}

/* Category of an ace-to-five badness: razz (paired 0, king_high 1 .. 5_high 9) or A-5 lowball
 * (four_of_a_kind 0, full_house 1, three_of_a_kind 2, two_pair 3, one_pair 4, king_high 5 .. 5_high 13). */
static uint8_t a5_category(uint32_t bad, int razz)
{
    uint32_t pattern = bad >> 20, top = (bad >> 16) & 15u;
    if (razz)
        return pattern ? 0 : (uint8_t)(1 + (12 - top));
    return pattern ? (uint8_t)(5 - pattern) : (uint8_t)(5 + (12 - top));
}

/* Stud hi-lo's low: 0 (no 8-or-better low) or a value, higher better; category no_low 0,
 * 8_high 1 .. 5_high 4. */
static uint32_t eight_low(const uint8_t *counts, uint8_t *category)
{
    uint32_t value = 0;
    int n = 0, top = 0;
    for (int r = 0; r < 8 && n < 5; r++)
        if (counts[r]) {
            value |= (uint32_t)r << (4 * n++);
            top = r;
        }
    if (n < 5) {
        *category = 0;
        return 0;
    }
    *category = (uint8_t)(1 + (7 - top));  /* the fifth lowest is in the top nibble */
    return LOW_WORST - value;
}

/* A five-card high hand's value with no wheel (deuce-to-seven: the ace is only high):
 * category (0 high card, 1 pair, 2 two pair, 3 trips, 4 straight, 5 flush, 6 full house,
 * 7 quads, 8 straight flush) << 20, then the ranks by count then rank, highest first. */
static uint32_t high_no_wheel(const uint8_t *cards)
{
    uint8_t counts[13] = {0};
    int suits = 0;
    for (int i = 0; i < 5; i++) {
        counts[cl_card_rank(cards[i])]++;
        suits |= 1 << cl_card_suit(cards[i]);
    }
    int flush = (suits & (suits - 1)) == 0;
    int order[5], top, second;
    const int n = by_count(counts, order, &top, &second);
    int straight = n == 5 && order[0] - order[4] == 4;
    uint32_t category;
    if (straight && flush)
        category = 8;
    else if (top == 4)
        category = 7;
    else if (top == 3 && second == 2)
        category = 6;
    else if (flush)
        category = 5;
    else if (straight)
        category = 4;
    else if (top == 3)
        category = 3;
    else if (top == 2)
        category = second == 2 ? 2 : 1;
    else
        category = 0;
    return ranked_value(category, order, n);
}

/* Category of a deuce-to-seven hand (straight_flush 0 .. one_pair 7, ace_high 8 .. 7_high 15). */
static uint8_t deuce_category(uint32_t high)
{
    static const uint8_t made[9] = {0, 7, 6, 5, 4, 3, 2, 1, 0};
    uint32_t category = high >> 20, top = (high >> 16) & 15u;
    return category ? made[category] : (uint8_t)(8 + (12 - top));
}

/* Badugi: the best set of cards of different ranks and different suits; more cards are better,
 * then the lower highest card, and so on (ace low).  Value: size << 20 | 0xFFFF - ranks
 * (highest first, a nibble each); category 1_card 0, 2_card 1, 3_card 2, king_high 3 .. 4_high 12.
 * used: the chosen cards' positions as a bit mask. */
static uint32_t badugi_value(const uint8_t *cards, uint8_t *category, int *used)
{
    uint32_t best = 0;
    int best_set = 0;
    for (int set = 1; set < 16; set++) {
        int ranks = 0, suits = 0, ok = 1, size = 0;
        for (int i = 0; i < 4 && ok; i++) {
            if (!(set >> i & 1))
                continue;
            int r = 1 << low_rank(cards[i]), s = 1 << cl_card_suit(cards[i]);
            ok = !(ranks & r) && !(suits & s);
            ranks |= r;
            suits |= s;
            size++;
        }
        if (!ok)
            continue;
        uint32_t read = 0;
        int n = 0;
        for (int r = 12; r >= 0; r--)
            if (ranks >> r & 1)
                read |= (uint32_t)r << (12 - 4 * n++);
        uint32_t value = (uint32_t)size << 20 | (0xFFFFu - read);
        if (value > best) {
            best = value;
            best_set = set;
        }
    }
    int size = (int)(best >> 20);
    int top = (int)((0xFFFFu - (best & 0xFFFFu)) >> 12);  /* the highest card's low rank */
    *category = (uint8_t)(size < 4 ? size - 1 : 3 + (12 - top));
    if (used)
        *used = best_set;
    return best;
}

/* The value (higher better) and category of one hand of k cards; stud8 gives its low here
 * (its high is the stud value). */
static uint32_t game_value(int game, const cl_poker_tables *t, const uint8_t *cards, int k, uint8_t *category)
{
    uint8_t counts[13] = {0};
    switch (game) {
    case G_STUD: {
        uint64_t key = CL_SUIT_START, mask = 0;
        for (int i = 0; i < k; i++) {
            key += t->key[cards[i]];
            mask |= t->bit[cards[i]];
        }
        uint32_t v = cl_poker_value(t, key, mask);
        *category = (uint8_t)(v >> CL_CATEGORY_SHIFT);
        return v;
    }
    case G_RAZZ:
    case G_A5: {
        for (int i = 0; i < k; i++)
            counts[low_rank(cards[i])]++;
        uint32_t bad = a5_low(counts);
        *category = a5_category(bad, game == G_RAZZ);
        return LOW_WORST - bad;
    }
    case G_STUD8:
        for (int i = 0; i < k; i++)
            counts[low_rank(cards[i])]++;
        return eight_low(counts, category);
    case G_27: {
        uint32_t best = UINT32_MAX;
        uint8_t five[5];
        for (int a = 0; a < k; a++)  /* the best five of k (5 to 7): every five tried */
            for (int b = a + 1; b < k; b++)
                for (int c = b + 1; c < k; c++)
                    for (int d = c + 1; d < k; d++)
                        for (int e = d + 1; e < k; e++) {
                            five[0] = cards[a], five[1] = cards[b], five[2] = cards[c];
                            five[3] = cards[d], five[4] = cards[e];
                            uint32_t v = high_no_wheel(five);
                            if (v < best)
                                best = v;
                        }
        *category = deuce_category(best);
        return LOW_WORST - best;
    }
    default:
        return badugi_value(cards, category, NULL);
    }
}

static int game_cards_ok(int game, int k)
{
    if (game == G_BADUGI)
        return k == 4;
    if (game == G_A5)  /* ace-to-five: the best five of up to 8 cards (an Omaha hi-lo low's) */
        return k >= 5 && k <= 8;
    return k >= 5 && k <= 7;
}

/* games_evaluate(game, tables, hands, k, values, categories)
 *   hands: n * k uint8 card ids (each below 52); values: n uint32; categories: n uint8. */
static PyObject *games_evaluate(PyObject *Py_UNUSED(self), PyObject *args)
{
    int game, k;
    const cl_poker_tables *t;
    Py_buffer hands, values, cats;
    if (!PyArg_ParseTuple(args, "iO&y*iw*w*", &game, cl_tables_arg, &t, &hands, &k, &values, &cats))
        return NULL;
    CL_FAIL_IF(game < 0 || game >= G_GAMES || !game_cards_ok(game, k) || hands.len % k
                   || values.len != (Py_ssize_t)(hands.len / k * 4) || cats.len != hands.len / k,
               "games_evaluate: bad arguments");
    const uint8_t *h = hands.buf;
    for (Py_ssize_t i = 0; i < hands.len; i++)
        CL_FAIL_IF(h[i] >= CL_CARDS, "games_evaluate: a card id past 51");
    Py_ssize_t n = hands.len / k;
    Py_BEGIN_ALLOW_THREADS
    uint32_t *v = values.buf;
    uint8_t *c = cats.buf;
    for (Py_ssize_t i = 0; i < n; i++)
        v[i] = game_value(game, t, h + i * k, k, c + i);
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&hands, &values, &cats);
}

/* games_count(game, tables, deck, k, counts): counts[category] += the k-card hands of the deck
 * (distinct cards, ids below 52) in each category: every subset enumerated. */
static PyObject *games_count(PyObject *Py_UNUSED(self), PyObject *args)
{
    int game, k;
    const cl_poker_tables *t;
    Py_buffer deck, counts;
    if (!PyArg_ParseTuple(args, "iO&y*iw*", &game, cl_tables_arg, &t, &deck, &k, &counts))
        return NULL;
    const uint8_t *d = deck.buf;
    uint64_t seen = 0;
    int ok = game >= 0 && game < G_GAMES && game_cards_ok(game, k) && deck.len >= k && deck.len <= CL_CARDS
             && counts.len == 16 * 8;
    for (Py_ssize_t i = 0; ok && i < deck.len; i++) {
        ok = d[i] < CL_CARDS && !(seen >> d[i] & 1);
        seen |= UINT64_C(1) << (d[i] & 63);
    }
    CL_FAIL_IF(!ok, "games_count: bad arguments");
    Py_BEGIN_ALLOW_THREADS
    int n = (int)deck.len, pos[8];
    uint8_t hand[8] = {0};
    int64_t tally[16] = {0};
    cl_subset_first(pos, k);
    do {
        uint8_t category;
        for (int i = 0; i < k; i++)
            hand[i] = d[pos[i]];
        game_value(game, t, hand, k, &category);
        tally[category & 15]++;
    } while (cl_subset_next(pos, k, n));
    int64_t *out = counts.buf;
    for (int c = 0; c < 16; c++)
        out[c] += tally[c];
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&deck, &counts);
}

/* --- exact razz equity over rank multisets ------------------------------------------------- */

typedef struct {
    int players;
    uint8_t known[MAX_PLAYERS][13];  /* each player's low-rank counts so far */
    int need[MAX_PLAYERS];           /* cards still to come */
    uint8_t avail[13];               /* unseen cards of each low rank */
    uint32_t value[MAX_PLAYERS];
    int64_t wins[MAX_PLAYERS], ties[MAX_PLAYERS], units[MAX_PLAYERS];
    int64_t total;
} razz_exact;

static const int64_t choose[5][5] = {{1, 0, 0, 0, 0}, {1, 1, 0, 0, 0}, {1, 2, 1, 0, 0}, {1, 3, 3, 1, 0},
                                     {1, 4, 6, 4, 1}};

static void razz_player(razz_exact *e, int p, int rank, int left, int64_t weight);

static void razz_showdown(razz_exact *e, int64_t weight)
{
    uint32_t best = 0;
    int winners = 0;
    for (int p = 0; p < e->players; p++) {
        if (e->value[p] > best) {
            best = e->value[p];
            winners = 1;
        } else if (e->value[p] == best) {
            winners++;
        }
    }
    for (int p = 0; p < e->players; p++) {
        if (e->value[p] != best)
            continue;
        if (winners == 1)
            e->wins[p] += weight;
        else
            e->ties[p] += weight;
        e->units[p] += weight * (SHARE_UNIT / winners);
    }
    e->total += weight;
}

/* Player p's remaining cards, rank by rank (weight: ways of the suits so far). */
static void razz_player(razz_exact *e, int p, int rank, int left, int64_t weight)
{
    if (left == 0) {
        e->value[p] = LOW_WORST - a5_low(e->known[p]);
        if (p + 1 == e->players)
            razz_showdown(e, weight);
        else
            razz_player(e, p + 1, 0, e->need[p + 1], weight);
        return;
    }
    if (rank == 13)
        return;
    int have = e->avail[rank];
    for (int k = 0; k <= have && k <= left; k++) {
        e->avail[rank] = (uint8_t)(have - k);
        e->known[p][rank] = (uint8_t)(e->known[p][rank] + k);
        razz_player(e, p, rank + 1, left - k, weight * choose[have][k]);
        e->known[p][rank] = (uint8_t)(e->known[p][rank] - k);
    }
    e->avail[rank] = (uint8_t)have;
}

/* razz_equity_exact(known, need, avail, out)
 *   known: players * 13 uint8 low-rank counts; need: players int32 (cards to come, sum <= unseen);
 *   avail: 13 uint8 unseen cards by low rank; out: players * 3 int64 (+= wins, ties, share units),
 *   returns the number of deals (weighted). */
static PyObject *razz_equity_exact(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer known, need, avail, out;
    if (!PyArg_ParseTuple(args, "y*y*y*w*", &known, &need, &avail, &out))
        return NULL;
    PyObject *result = NULL;
    int players = (int)(need.len / 4);
    int ok = need.len % 4 == 0 && players >= 2 && players <= MAX_PLAYERS && known.len == players * 13
             && avail.len == 13 && out.len == players * 3 * 8;
    const uint8_t *a = avail.buf, *kn = known.buf;
    const int32_t *nd = need.buf;
    int unseen = 0, needed = 0;
    for (int r = 0; ok && r < 13; r++) {
        ok = a[r] <= 4;
        unseen += a[r];
    }
    for (int p = 0; ok && p < players; p++) {
        int held = 0;
        for (int r = 0; r < 13; r++)
            held += kn[p * 13 + r];
        ok = nd[p] >= 0 && held + nd[p] >= 5 && held + nd[p] <= 7;
        needed += ok ? nd[p] : 0;
    }
    CL_FAIL_IF(!ok || needed > unseen, "razz_equity_exact: bad arguments");
    razz_exact e;
    memset(&e, 0, sizeof e);
    e.players = players;
    memcpy(e.avail, a, 13);
    for (int p = 0; p < players; p++) {
        memcpy(e.known[p], kn + p * 13, 13);
        e.need[p] = nd[p];
    }
    Py_BEGIN_ALLOW_THREADS
    razz_player(&e, 0, 0, e.need[0], 1);
    Py_END_ALLOW_THREADS
    int64_t *o = out.buf;
    for (int p = 0; p < players; p++) {
        o[3 * p] += e.wins[p];
        o[3 * p + 1] += e.ties[p];
        o[3 * p + 2] += e.units[p];
    }
    result = PyLong_FromLongLong(e.total);
done:
    CL_RELEASE(&known, &need, &avail, &out);
    return result;
}

/* --- simulated equity ---------------------------------------------------------------------- */

/* The draw policy (docs/games.md): which of a lowball hand's cards to keep, as a bit mask of
 * positions.  A-5: one card of each rank ace to eight; 2-7: one card of each rank two to eight,
 * and a five-card keep that is a straight or a flush breaks its highest card; badugi: the cards
 * of the best badugi, those of a three- or fewer-card badugi above eight discarded. */
static int keep_mask(int game, const uint8_t *cards)
{
    int keep = 0, ranks = 0;
    if (game == G_BADUGI) {
        uint8_t category;
        int used;
        uint32_t v = badugi_value(cards, &category, &used);
        if ((v >> 20) == 4)
            return used;
        for (int i = 0; i < 4; i++)
            if ((used >> i & 1) && low_rank(cards[i]) <= 7)
                keep |= 1 << i;
        return keep;
    }
    for (int i = 0; i < 5; i++) {
        int r = game == G_A5 ? low_rank(cards[i]) : cl_card_rank(cards[i]);  /* 2-7: two 0 .. eight 6 */
        int top = game == G_A5 ? 7 : 6;
        if (r <= top && !(ranks >> r & 1)) {
            ranks |= 1 << r;
            keep |= 1 << i;
        }
    }
    if (game == G_27 && keep == 31) {
        uint8_t category;
        uint32_t v = LOW_WORST - game_value(G_27, NULL, cards, 5, &category);
        if ((v >> 20) == 4 || (v >> 20) == 5) {  /* a straight or a flush: break the highest card */
            int high = 0;
            for (int i = 1; i < 5; i++)
                if (cl_card_rank(cards[i]) > cl_card_rank(cards[high]))
                    high = i;
            keep &= ~(1 << high);
        }
    }
    return keep;
}

typedef struct {
    uint8_t cards[CL_CARDS];
    int size;
    uint8_t discards[CL_CARDS];
    int discarded;
} stub;

/* One card off a shuffled stub; an empty stub takes the discards, reshuffled (the draw games'
 * rule).  Returns 255 when no card is left at all. */
static uint8_t stub_draw(stub *s, cl_rng *rng, cl_halves *half)
{
    if (s->size == 0) {
        memcpy(s->cards, s->discards, (size_t)s->discarded);
        s->size = s->discarded;
        s->discarded = 0;
        if (s->size == 0)
            return 255;
    }
    int pick = (int)cl_below_half(rng, half, (uint32_t)s->size);
    uint8_t c = s->cards[pick];
    s->cards[pick] = s->cards[--s->size];
    return c;
}

/* games_simulate(game, tables, hands, known, final, draws, deck, n, seed, out)
 *   hands: players * final uint8, each row's first known[p] cards given; known: players int32;
 *   final: cards a hand ends with (7 stud games, 5 lowball, 4 badugi); draws: 0, 1 or 3;
 *   deck: the unseen cards (distinct); out: players * 6 int64 (+= wins, ties, units, squares, and in
 *   stud8 the deals where the player's share came from the high alone and from the low alone).
 *   Returns 0, or -1 if a deal ran out of cards. */
static PyObject *games_simulate(PyObject *Py_UNUSED(self), PyObject *args)
{
    int game, final, draws;
    Py_ssize_t n;
    const cl_poker_tables *t;
    Py_buffer hands, known, deck, seed, out;
    if (!PyArg_ParseTuple(args, "iO&y*y*iiy*ny*w*", &game, cl_tables_arg, &t, &hands, &known, &final, &draws, &deck,
                          &n, &seed, &out))
        return NULL;
    PyObject *result = NULL;
    int players = (int)(known.len / 4);
    const int32_t *kn = known.buf;
    int ok = game >= 0 && game < G_GAMES && known.len % 4 == 0 && players >= 2 && players <= MAX_PLAYERS
             && hands.len == players * final && deck.len <= CL_CARDS && seed.len == 32 && n >= 0
             && out.len == players * 6 * 8 && (draws == 0 || draws == 1 || draws == 3)
             && (game == G_BADUGI ? final == 4 : (game == G_A5 || game == G_27) ? final == 5 : final == 7)
             && (draws == 0 || game == G_A5 || game == G_27 || game == G_BADUGI);
    int dealt = 0;
    for (int p = 0; ok && p < players; p++) {
        ok = kn[p] >= 0 && kn[p] <= final;
        dealt += final - kn[p];
    }
    for (Py_ssize_t i = 0; ok && i < hands.len; i++)
        ok = ((const uint8_t *)hands.buf)[i] < CL_CARDS;
    for (Py_ssize_t i = 0; ok && i < deck.len; i++)
        ok = ((const uint8_t *)deck.buf)[i] < CL_CARDS;
    CL_FAIL_IF(!ok || dealt > deck.len, "games_simulate: bad arguments");
    int status = 0;
    Py_BEGIN_ALLOW_THREADS
    cl_rng rng;
    cl_rng_seed(&rng, seed.buf);
    cl_halves half = {0, 0};
    int64_t wins[MAX_PLAYERS] = {0}, ties[MAX_PLAYERS] = {0}, units[MAX_PLAYERS] = {0}, squares[MAX_PLAYERS] = {0};
    int64_t high_only[MAX_PLAYERS] = {0}, low_only[MAX_PLAYERS] = {0};
    uint8_t hand[MAX_PLAYERS][7];
    uint32_t high[MAX_PLAYERS], low[MAX_PLAYERS];
    stub s;
    for (Py_ssize_t trial = 0; trial < n && !status; trial++) {
        memcpy(s.cards, deck.buf, (size_t)deck.len);
        s.size = (int)deck.len;
        s.discarded = 0;
        for (int p = 0; p < players; p++) {
            memcpy(hand[p], (const uint8_t *)hands.buf + p * final, (size_t)final);
            for (int j = kn[p]; j < final; j++)
                hand[p][j] = stub_draw(&s, &rng, &half);
        }
        for (int round = 0; round < draws && !status; round++)
            for (int p = 0; p < players && !status; p++) {
                int keep = keep_mask(game, hand[p]);
                for (int j = 0; j < final; j++) {
                    if (keep >> j & 1)
                        continue;
                    uint8_t c = stub_draw(&s, &rng, &half);
                    if (c == 255) {
                        status = -1;
                        break;
                    }
                    s.discards[s.discarded++] = hand[p][j];
                    hand[p][j] = c;
                }
            }
        if (status)
            break;
        uint32_t best_high = 0, best_low = 0;
        int n_high = 0, n_low = 0;
        for (int p = 0; p < players; p++) {
            uint8_t category;
            high[p] = game_value(game == G_STUD8 ? G_STUD : game, t, hand[p], final, &category);
            low[p] = game == G_STUD8 ? game_value(G_STUD8, t, hand[p], final, &category) : 0;
            if (high[p] > best_high) {
                best_high = high[p];
                n_high = 1;
            } else if (high[p] == best_high) {
                n_high++;
            }
            if (low[p] > best_low) {
                best_low = low[p];
                n_low = 1;
            } else if (low[p] == best_low && low[p]) {
                n_low++;
            }
        }
        for (int p = 0; p < players; p++) {
            int64_t u = 0;
            if (best_low == 0) {
                u = high[p] == best_high ? SHARE_UNIT / n_high : 0;
            } else {
                u = (high[p] == best_high ? SHARE_UNIT / 2 / n_high : 0) +
                    (low[p] == best_low ? SHARE_UNIT / 2 / n_low : 0);
            }
            if (u == SHARE_UNIT)
                wins[p]++;
            else if (u > 0)
                ties[p]++;
            units[p] += u;
            squares[p] += u * u;
            /* a low qualified and the share came from one half alone */
            const int high_share = high[p] == best_high, low_share = best_low && low[p] == best_low;
            high_only[p] += best_low && high_share && !low_share;
            low_only[p] += low_share && !high_share;
        }
    }
    int64_t *o = out.buf;
    for (int p = 0; p < players; p++) {
        o[6 * p] += wins[p];
        o[6 * p + 1] += ties[p];
        o[6 * p + 2] += units[p];
        o[6 * p + 3] += squares[p];
        o[6 * p + 4] += high_only[p];
        o[6 * p + 5] += low_only[p];
    }
    Py_END_ALLOW_THREADS
    result = PyLong_FromLong(status);
done:
    CL_RELEASE(&hands, &known, &deck, &seed, &out);
    return result;
}

/* --- board statistics over many flops ------------------------------------------------------ */

/* The classes of cardlab.poker.board_stats (CLASSES), in its order: 9 made hands (straight flush
 * .. high card), 3 three of a kind (set, trips, trips on the board), 6 one pair (overpair, top,
 * middle, bottom, underpair, board pair), 3 underpairs by overcards (1, 2, 3+), 8 draws (flush
 * draw, nut flush draw, open-ended, double gutshot, gutshot, combo draw, backdoor flush draw,
 * backdoor straight draw). */
enum { BC_MADE = 0, BC_SET = 9, BC_TRIPS, BC_BOARD_TRIPS, BC_OVER, BC_TOP, BC_MIDDLE, BC_BOTTOM, BC_UNDER,
       BC_BOARD_PAIR, BC_UNDER1, BC_UNDER2, BC_UNDER3, BC_FD, BC_NUT, BC_OE, BC_DOUBLE_GUT, BC_GUT, BC_COMBO,
       BC_BDF, BC_BDS, BC_CLASSES };
enum { CAT_HIGH = 0, CAT_PAIR, CAT_TWO_PAIR, CAT_TRIPS, CAT_STRAIGHT, CAT_FLUSH, CAT_FULL, CAT_QUADS, CAT_SF };

typedef struct {
    const int8_t *tops;     /* 8192: top rank of the best straight in a rank mask, -1 if none */
    const int8_t *position; /* 16: place of each Category value in the rules' order */
    int lowest;             /* lowest rank of the deck */
    int opens[13][3];       /* four consecutive ranks two straights share: the four, the rank */
    int n_opens;            /* that completes the lower straight, the one for the higher */
} board_rules;

/* The rules' open ends, from its straights' five ranks (board_stats._open_ends). */
static void open_ends_of(board_rules *r, const int *windows, int n_windows)
{
    r->n_opens = 0;
    for (int a = 0; a < n_windows; a++)
        for (int b = 0; b < n_windows; b++) {
            int inner = windows[a] & windows[b];
            if (cl_popcount32((uint32_t)inner) == 4 && r->tops[windows[a]] < r->tops[windows[b]] && r->n_opens < 13) {
                r->opens[r->n_opens][0] = inner;
                r->opens[r->n_opens][1] = windows[a] & ~inner;
                r->opens[r->n_opens][2] = windows[b] & ~inner;
                r->n_opens++;
            }
        }
}

/* The one-pair, three-of-a-kind and straight-draw classes both games share, from what decides
 * them (board_stats._sets, _overcards, _straight_draws). */
static uint32_t shared_classes(int cat, int pocket_on_board, int pairing, int under, int above, int completing,
                               int four, int no_straight, int fd)
{
    uint32_t c = 0;
    if (cat == CAT_TRIPS) {
        c |= (uint32_t)pocket_on_board << BC_SET;
        c |= (uint32_t)(!pocket_on_board && pairing >= 0) << BC_TRIPS;
        c |= (uint32_t)(!pocket_on_board && pairing < 0) << BC_BOARD_TRIPS;
    }
    if (under) {
        c |= (uint32_t)1 << BC_UNDER;
        c |= (uint32_t)1 << (above >= 3 ? BC_UNDER3 : above == 2 ? BC_UNDER2 : BC_UNDER1);
    }
    c |= (uint32_t)(completing >= 2 && four && no_straight) << BC_OE;
    c |= (uint32_t)(completing >= 2 && !four && no_straight) << BC_DOUBLE_GUT;
    c |= (uint32_t)(completing == 1 && no_straight) << BC_GUT;
    c |= (uint32_t)(fd && completing >= 1 && no_straight) << BC_COMBO;
    return c;
}

/* Category value (rules.Category) of five distinct cards, given their rank counts, rank mask
 * and whether they share one suit. */
static int five_category(const uint8_t *count, int mask, int flush, const board_rules *r)
{
    int pairs = 0, trips = 0, quads = 0;
    for (int x = 0; x < 13; x++) {
        pairs += count[x] == 2;
        trips += count[x] == 3;
        quads += count[x] == 4;
    }
    int straight = pairs + trips + quads == 0 && r->tops[mask] >= 0;
    if (straight && flush)
        return CAT_SF;
    if (quads)
        return CAT_QUADS;
    if (trips && pairs)
        return CAT_FULL;
    if (flush)
        return CAT_FLUSH;
    if (straight)
        return CAT_STRAIGHT;
    if (trips)
        return CAT_TRIPS;
    return pairs == 2 ? CAT_TWO_PAIR : pairs == 1 ? CAT_PAIR : CAT_HIGH;
}

/* The highest rank from r->lowest up not in mask, or -1. */
static int highest_missing(int mask, const board_rules *r)
{
    for (int x = 12; x >= r->lowest; x--)
        if (!(mask >> x & 1))
            return x;
    return -1;
}

/* Whether adding the ranks of extra makes a straight of hand_mask better than the board's own. */
static inline int improves(int hand_mask, int board_mask, int extra, const board_rules *r)
{
    int with_hand = r->tops[hand_mask | extra];
    return with_hand >= 0 && with_hand > r->tops[board_mask | extra];
}

/* One hold'em combo on a flop: bit c set for each class c it is in.  straight_cache holds,
 * per rank mask of the five cards (this flop only: stamp == flop_stamp), the completing ranks
 * count (bits 0-4) and the backdoor straight (bit 5). */
static uint32_t holdem_flop(const uint8_t *hole, const uint8_t *flop, const board_rules *r,
                            int32_t *cache, int32_t *stamp, int32_t flop_stamp)
{
    uint8_t count[13] = {0};
    int suit_count[4] = {0}, hand_mask = 0, board_mask = 0;
    for (int i = 0; i < 3; i++) {
        count[cl_card_rank(flop[i])]++;
        suit_count[cl_card_suit(flop[i])]++;
        board_mask |= 1 << cl_card_rank(flop[i]);
    }
    for (int i = 0; i < 2; i++) {
        count[cl_card_rank(hole[i])]++;
        suit_count[cl_card_suit(hole[i])]++;
    }
    hand_mask = board_mask | 1 << cl_card_rank(hole[0]) | 1 << cl_card_rank(hole[1]);
    int flush = 0;
    for (int s = 0; s < 4; s++)
        flush |= suit_count[s] == 5;
    int cat = five_category(count, hand_mask, flush, r);
    int pos = r->position[cat];
    uint32_t classes = UINT32_C(1) << (BC_MADE + CAT_SF - cat);
    int one = cat == CAT_PAIR;
    int no_flush = pos < r->position[CAT_FLUSH], no_straight = pos < r->position[CAT_STRAIGHT];

    int h0 = cl_card_rank(hole[0]), h1 = cl_card_rank(hole[1]), top = 0, low = 12;
    for (int i = 0; i < 3; i++) {
        int x = cl_card_rank(flop[i]);
        top = x > top ? x : top;
        low = x < low ? x : low;
    }
    int pocket = h0 == h1, pairing = -1;
    if (board_mask >> h0 & 1)
        pairing = h0;
    if ((board_mask >> h1 & 1) && h1 > pairing)
        pairing = h1;
    classes |= (uint32_t)(one && pocket && h0 > top) << BC_OVER;
    classes |= (uint32_t)(one && pairing == top) << BC_TOP;
    classes |= (uint32_t)(one && pairing >= 0 && pairing != top && pairing != low) << BC_MIDDLE;
    classes |= (uint32_t)(one && pairing == low && low != top) << BC_BOTTOM;
    classes |= (uint32_t)(one && !pocket && pairing < 0) << BC_BOARD_PAIR;
    int under = one && pocket && h0 < top;
    int above = cl_popcount32((uint32_t)board_mask >> (h0 + 1));

    int fd_any = 0, three_any = 0, nut = 0;
    for (int s = 0; s < 4; s++) {
        int hole_suit = cl_card_suit(hole[0]) == s || cl_card_suit(hole[1]) == s;
        int fd_suit = suit_count[s] == 4 && hole_suit;
        fd_any |= fd_suit;
        three_any |= suit_count[s] == 3 && hole_suit;
        if (fd_suit) {
            int in_suit = 0;
            for (int i = 0; i < 3; i++)
                if (cl_card_suit(flop[i]) == s)
                    in_suit |= 1 << cl_card_rank(flop[i]);
            int best = highest_missing(in_suit, r);
            nut |= best >= 0 && (hole[0] == best * 4 + s || hole[1] == best * 4 + s);
        }
    }
    int fd = fd_any && no_flush;
    classes |= (uint32_t)fd << BC_FD;
    classes |= (uint32_t)(fd && nut) << BC_NUT;

    if (stamp[hand_mask] != flop_stamp) {
        int completing = 0, backdoor = 0, four = 0;
        for (int x = r->lowest; x < 13; x++)
            completing += !(hand_mask >> x & 1) && improves(hand_mask, board_mask, 1 << x, r);
        for (int x = r->lowest; x < 13 && !backdoor; x++)
            for (int y = x + 1; y < 13 && !backdoor; y++)
                backdoor = improves(hand_mask, board_mask, 1 << x | 1 << y, r);
        for (int o = 0; o < r->n_opens && !four; o++)
            four = (hand_mask & r->opens[o][0]) == r->opens[o][0] && !(hand_mask & (r->opens[o][1] | r->opens[o][2]))
                   && improves(hand_mask, board_mask, r->opens[o][1], r)
                   && improves(hand_mask, board_mask, r->opens[o][2], r);
        cache[hand_mask] = completing | backdoor << 5 | four << 6;
        stamp[hand_mask] = flop_stamp;
    }
    int completing = cache[hand_mask] & 31, backdoor = cache[hand_mask] >> 5 & 1, four = cache[hand_mask] >> 6 & 1;
    classes |= shared_classes(cat, pocket && (board_mask >> h0 & 1), pairing, under, above, completing, four,
                              no_straight, fd);
    classes |= (uint32_t)(three_any && !fd_any && no_flush) << BC_BDF;
    classes |= (uint32_t)(backdoor && completing == 0 && no_straight) << BC_BDS;
    return classes;
}

/* What an Omaha hand's ranks alone decide on one flop: the best category of every two hole
 * cards with the flop as if no flush (and its place), the highest and lowest rank two hole cards
 * share (-1 / 99 if none), the highest hole rank the flop pairs (-1) and the straight draws:
 * bits 0-12 the ranks that complete a straight of two hole cards and the flop (one rank
 * missing), bit 13 some straight misses two. */
typedef struct {
    int8_t pos, cat, pocket_high, pocket_low, pairing, pocket_on_board;
    int32_t straights;
} omaha_ranks;

/* One Omaha flop: what every combo's classes need of it. */
typedef struct {
    int board_suits[4], best[4];  /* cards of each suit; the highest rank of the suit not on it */
    int board_mask, top, low, suited;  /* suited: the suit of a monotone flop, else -1 */
    int8_t pair_cat[13][13];      /* two hole ranks x <= y with the flop: category, no flush */
    int16_t pair_straights[13][13]; /* x < y: as omaha_ranks.straights, for these two ranks */
    int8_t pair_four[13][13];       /* x < y: these two ranks and two flop ranks are an open end */
} omaha_board;

static void omaha_board_of(const uint8_t *flop, const board_rules *r, const int *windows, int n_windows,
                           omaha_board *b)
{
    memset(b, 0, sizeof *b);
    b->low = 12;
    int in_suit[4] = {0};
    uint8_t count[13] = {0};
    for (int i = 0; i < 3; i++) {
        int x = cl_card_rank(flop[i]), s = cl_card_suit(flop[i]);
        count[x]++;
        b->board_suits[s]++;
        in_suit[s] |= 1 << x;
        b->board_mask |= 1 << x;
        b->top = x > b->top ? x : b->top;
        b->low = x < b->low ? x : b->low;
    }
    b->suited = -1;
    for (int s = 0; s < 4; s++) {
        b->best[s] = highest_missing(in_suit[s], r);
        if (b->board_suits[s] == 3)
            b->suited = s;
    }
    for (int x = 0; x < 13; x++)
        for (int y = x; y < 13; y++) {
            count[x]++;
            count[y]++;
            b->pair_cat[x][y] = (int8_t)five_category(count, b->board_mask | 1 << x | 1 << y, 0, r);
            count[x]--;
            count[y]--;
            if (x == y)
                continue;
            int pm = 1 << x | 1 << y, completing = 0, two_more = 0;
            for (int i = 0; i < n_windows; i++) {
                if ((windows[i] & pm) != pm)
                    continue;
                int need = windows[i] & ~pm & ~b->board_mask, missing = cl_popcount32((uint32_t)need);
                if (missing == 1)
                    completing |= need;
                two_more |= missing == 2;
            }
            b->pair_straights[x][y] = (int16_t)(completing | two_more << 13);
            for (int o = 0; o < r->n_opens; o++) {
                int inner = r->opens[o][0], ends = r->opens[o][1] | r->opens[o][2];
                b->pair_four[x][y] |= (inner & pm) == pm && !(inner & ~pm & ~b->board_mask) && !(b->board_mask & ends);
            }
        }
}

static omaha_ranks omaha_rank_info(const uint8_t *hole, int k, const omaha_board *b, const board_rules *r)
{
    omaha_ranks o = {-1, CAT_HIGH, -1, 99, -1, 0, 0};
    for (int i = 0; i < k; i++) {
        int x = cl_card_rank(hole[i]);
        if ((b->board_mask >> x & 1) && x > o.pairing)
            o.pairing = (int8_t)x;
        for (int j = i + 1; j < k; j++) {
            int y = cl_card_rank(hole[j]), lo = x < y ? x : y, hi = x < y ? y : x;
            if (x == y) {
                o.pocket_high = (int8_t)(x > o.pocket_high ? x : o.pocket_high);
                o.pocket_low = (int8_t)(x < o.pocket_low ? x : o.pocket_low);
                o.pocket_on_board |= (int8_t)(b->board_mask >> x & 1);
            } else {
                o.straights |= b->pair_straights[lo][hi];
                o.straights |= (int32_t)b->pair_four[lo][hi] << 14;
            }
            int c = b->pair_cat[lo][hi];
            if (r->position[c] > o.pos) {
                o.pos = r->position[c];
                o.cat = (int8_t)c;
            }
        }
    }
    return o;
}

/* One Omaha combo (k hole cards, cards: their bits, suits: cards of each suit) on a flop, by
 * cardlab.poker.board_stats._classify_omaha: the made hand is the best of every two hole cards
 * with the three flop cards; o is omaha_rank_info of its ranks on this flop.  Bit c set for each
 * class c it is in. */
static uint32_t omaha_flop(const uint8_t *hole, int k, uint64_t cards, const uint8_t *suits, const omaha_board *b,
                           omaha_ranks o, const board_rules *r)
{
    int pos = o.pos, cat = o.cat;
    if (b->suited >= 0 && suits[b->suited] >= 2) {  /* a flush, or a straight flush */
        int flush = CAT_FLUSH;
        for (int i = 0; i < k && flush == CAT_FLUSH; i++)
            for (int j = i + 1; j < k && flush == CAT_FLUSH; j++) {
                int x = cl_card_rank(hole[i]), y = cl_card_rank(hole[j]);
                int mask = b->board_mask | 1 << x | 1 << y;
                if (cl_card_suit(hole[i]) == b->suited && cl_card_suit(hole[j]) == b->suited && x != y
                    && !(b->board_mask >> x & 1) && !(b->board_mask >> y & 1) && r->tops[mask] >= 0)
                    flush = CAT_SF;
            }
        if (r->position[flush] > pos) {
            pos = r->position[flush];
            cat = flush;
        }
    }
    uint32_t classes = UINT32_C(1) << (BC_MADE + CAT_SF - cat);
    int one = cat == CAT_PAIR;
    int no_flush = pos < r->position[CAT_FLUSH], no_straight = pos < r->position[CAT_STRAIGHT];
    int over = one && o.pocket_high > b->top;
    classes |= (uint32_t)over << BC_OVER;
    classes |= (uint32_t)(one && !over && o.pairing == b->top) << BC_TOP;
    classes |= (uint32_t)(one && !over && o.pairing >= 0 && o.pairing != b->top && o.pairing != b->low) << BC_MIDDLE;
    classes |= (uint32_t)(one && !over && o.pairing == b->low && b->low != b->top) << BC_BOTTOM;
    classes |= (uint32_t)(one && !over && o.pairing < 0 && o.pocket_high < 0) << BC_BOARD_PAIR;
    int under = one && !over && o.pairing < 0 && o.pocket_high >= 0;
    int above = o.pocket_high >= 0 ? cl_popcount32((uint32_t)b->board_mask >> (o.pocket_high + 1)) : 0;

    int fd_any = 0, nut = 0, backdoor_flush = 0;
    for (int s = 0; s < 4; s++) {
        int fd_suit = suits[s] >= 2 && b->board_suits[s] == 2;
        fd_any |= fd_suit;
        backdoor_flush |= suits[s] >= 2 && b->board_suits[s] == 1;
        if (fd_suit && b->best[s] >= 0)
            nut |= (int)(cards >> (b->best[s] * 4 + s) & 1);
    }
    int fd = fd_any && no_flush;
    classes |= (uint32_t)fd << BC_FD;
    classes |= (uint32_t)(fd && nut) << BC_NUT;
    int completing = cl_popcount32((uint32_t)o.straights & 8191);
    classes |= shared_classes(cat, o.pocket_on_board, o.pairing, under, above, completing, o.straights >> 14 & 1,
                              no_straight, fd);
    classes |= (uint32_t)(backdoor_flush && !fd && no_flush) << BC_BDF;
    classes |= (uint32_t)((o.straights >> 13 & 1) && completing == 0 && no_straight) << BC_BDS;
    return classes;
}

/* board_flops(holes, k, counts, weights, flops, tops, positions, lowest, combos, shares, live):
 * for each flop f (rows of 3 uint8) and every combo i of the range (rows of k uint8: k = 2
 * hold'em, 4 to 6 Omaha) that shares no card with it, combos[f * 29 + c] += counts[i] (int64) and
 * shares[f * 29 + c] += weights[i] for each class c it is in, live[f] += weights[i]. */
static PyObject *board_flops(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer holes, counts, weights, flops, tops, positions, combos, shares, live;
    int k, lowest;
    if (!PyArg_ParseTuple(args, "y*iy*y*y*y*y*iw*w*w*", &holes, &k, &counts, &weights, &flops, &tops, &positions,
                          &lowest, &combos, &shares, &live))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = k > 0 ? holes.len / k : 0, m = flops.len / 3;
    int ok = (k == 2 || (k >= 4 && k <= 6)) && holes.len == n * k && counts.len == n * 8 && weights.len == n * 8 && flops.len == m * 3 && tops.len == 8192
             && positions.len == 16 && lowest >= 0 && lowest < 13 && combos.len == m * BC_CLASSES * 8
             && shares.len == m * BC_CLASSES * 8 && live.len == m * 8;
    for (Py_ssize_t i = 0; ok && i < holes.len; i++)
        ok = ((const uint8_t *)holes.buf)[i] < CL_CARDS;
    for (Py_ssize_t i = 0; ok && i < flops.len; i++)
        ok = ((const uint8_t *)flops.buf)[i] < CL_CARDS;
    for (Py_ssize_t i = 0; ok && i < 8192; i++)
        ok = ((const int8_t *)tops.buf)[i] >= -1 && ((const int8_t *)tops.buf)[i] < 13;
    for (Py_ssize_t i = 0; ok && i < 16; i++)
        ok = ((const int8_t *)positions.buf)[i] >= 0;
    CL_FAIL_IF(!ok, "board_flops: bad arguments");
    /* hold'em: the straight cache per rank mask; Omaha: per combo its cards' bits, suits and
     * rank class (the sorted ranks, numbered densely through code_ids), and per rank class its
     * omaha_rank_info on the current flop (stamped with the flop's number + 1) */
    size_t nn = (size_t)(n ? n : 1), codes = 1;
    for (int j = 0; k > 2 && j < k; j++)
        codes *= 13;
    int32_t *cache = PyMem_Calloc(8192, sizeof(int32_t));
    int32_t *stamp = PyMem_Calloc(8192 > nn ? 8192 : nn, sizeof(int32_t));
    uint64_t *bits = PyMem_Malloc(nn * sizeof(uint64_t));
    uint8_t *suits = PyMem_Calloc(nn * 4, 1);
    int32_t *rank_id = PyMem_Malloc(nn * sizeof(int32_t));
    int32_t *code_ids = PyMem_Malloc(codes * sizeof(int32_t));
    Py_ssize_t *rep = PyMem_Malloc(nn * sizeof(Py_ssize_t));
    omaha_ranks *info = PyMem_Malloc(nn * sizeof(omaha_ranks));
    if (cache == NULL || stamp == NULL || bits == NULL || suits == NULL || rank_id == NULL || code_ids == NULL
        || rep == NULL || info == NULL) {
        PyErr_NoMemory();
        goto release;
    }
    Py_BEGIN_ALLOW_THREADS
    board_rules r = {tops.buf, positions.buf, lowest, {{0}}, 0};
    const uint8_t *h = holes.buf, *f = flops.buf;
    const double *w = weights.buf;
    const int64_t *cnt = counts.buf;
    int64_t *cb = combos.buf;
    double *sh = shares.buf, *lv = live.buf;
    int windows[13], n_windows = 0;  /* each straight's five ranks */
    for (int mask = 0; mask < 8192; mask++) {
        int ranks = 0;
        for (int x = mask; x; x &= x - 1)
            ranks++;
        if (ranks == 5 && r.tops[mask] >= 0 && n_windows < 13)
            windows[n_windows++] = mask;
    }
    open_ends_of(&r, windows, n_windows);
    for (size_t c = 0; c < codes; c++)
        code_ids[c] = -1;
    int32_t classes_seen = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        bits[i] = 0;
        uint8_t ranks[6];
        for (int j = 0; j < k; j++) {
            bits[i] |= UINT64_C(1) << h[i * k + j];
            suits[i * 4 + cl_card_suit(h[i * k + j])]++;
            ranks[j] = (uint8_t)cl_card_rank(h[i * k + j]);
        }
        if (k == 2)
            continue;
        for (int a = 1; a < k; a++)  /* insertion sort: at most six ranks */
            for (int b = a; b > 0 && ranks[b - 1] > ranks[b]; b--) {
                uint8_t t = ranks[b];
                ranks[b] = ranks[b - 1];
                ranks[b - 1] = t;
            }
        size_t code = 0;
        for (int j = 0; j < k; j++)
            code = code * 13 + ranks[j];
        if (code_ids[code] < 0) {
            rep[classes_seen] = i;
            code_ids[code] = classes_seen++;
        }
        rank_id[i] = code_ids[code];
    }
    for (Py_ssize_t j = 0; j < m; j++) {
        const uint8_t *fl = f + j * 3;
        uint64_t fb = UINT64_C(1) << fl[0] | UINT64_C(1) << fl[1] | UINT64_C(1) << fl[2];
        int64_t tally[BC_CLASSES] = {0};
        double weight[BC_CLASSES] = {0}, total = 0;
        omaha_board board = {0};
        if (k > 2)
            omaha_board_of(fl, &r, windows, n_windows, &board);
        for (Py_ssize_t i = 0; i < n; i++) {
            if (bits[i] & fb)
                continue;
            uint32_t classes;
            if (k == 2)
                classes = holdem_flop(h + i * 2, fl, &r, cache, stamp, (int32_t)(j + 1));
            else {
                int32_t id = rank_id[i];
                if (stamp[id] != (int32_t)(j + 1)) {
                    info[id] = omaha_rank_info(h + rep[id] * k, k, &board, &r);
                    stamp[id] = (int32_t)(j + 1);
                }
                classes = omaha_flop(h + i * k, k, bits[i], suits + i * 4, &board, info[id], &r);
            }
            total += w[i];
            for (uint64_t left = classes; left; left &= left - 1) {
                int c = cl_ctz64(left);
                tally[c] += cnt[i];
                weight[c] += w[i];
            }
        }
        for (int c = 0; c < BC_CLASSES; c++) {
            cb[j * BC_CLASSES + c] += tally[c];
            sh[j * BC_CLASSES + c] += weight[c];
        }
        lv[j] += total;
    }
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
release:
    PyMem_Free(cache);
    PyMem_Free(stamp);
    PyMem_Free(bits);
    PyMem_Free(suits);
    PyMem_Free(rank_id);
    PyMem_Free(code_ids);
    PyMem_Free(rep);
    PyMem_Free(info);
done:
    CL_RELEASE(&holes, &counts, &weights, &flops, &tops, &positions, &combos, &shares, &live);
    return result;
}

CL_METHODS(poker_games,
    CL_METHOD(games_evaluate,
              "games_evaluate(game, tables, hands, k, values, categories): value and category of each hand."),
    CL_METHOD(games_count, "games_count(game, tables, deck, k, counts): += the deck's k-card hands in each category."),
    CL_METHOD(razz_equity_exact,
              "razz_equity_exact(known, need, avail, out) -> weighted deals; += wins, ties, share units."),
    CL_METHOD(games_simulate,
              "games_simulate(game, tables, hands, known, final, draws, deck, n, seed, out) -> 0 or -1 (out of cards)."),
    CL_METHOD(board_flops,
              "board_flops(holes, k, counts, weights, flops, tops, positions, lowest, combos, shares, live): += per flop."));
