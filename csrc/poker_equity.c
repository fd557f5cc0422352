/* All-in equity: every completion of the board for each deal (exact), or random deals and
 * boards (simulation); hold'em (7 cards), Omaha (exactly two hole cards and three board
 * cards, 4 to 6 hole cards) and the 8-or-better low.  The wrapper is cardlab.poker.equity.
 *
 * A pot is UNIT share units; a player's share of a board is UNIT / (winners) of the pot, or
 * in hi-lo half a pot for the best high and half for the best low (the whole pot to the high
 * when no one has a low).  Per player the kernels add up: boards won outright, boards shared,
 * share units and squared share units (the simulation's variance); in hi-lo also the boards
 * where a low qualified and the player's share came from the high half alone, and from the low
 * half alone (a row of WIDTH_HI_LO sums instead of WIDTH, only then: hold'em's work unchanged). */
#include "core.h"
#include "poker.h"

#include <stdlib.h>
#include <string.h>

#define UNIT 5040
#define NO_LOW 512
#define MAX_PLAYERS 9
#define MAX_PAIRS 15
#define WIDTH 4        /* sums per player: wins, splits, units, squares */
#define WIDTH_HI_LO 6  /* and in hi-lo: high half alone, low half alone */

typedef struct {
    const cl_poker_tables *t;
    int players, hole, omaha, hi_lo;
    int width;              /* sums per player: WIDTH, or WIDTH_HI_LO in hi-lo */
    uint16_t low_bit[52];   /* ace 1, two 2, ..., eight 128; 0 for nine and up */
    uint16_t best_low[256]; /* the five lowest bits of a low mask with five or more, else NO_LOW */
} game;

typedef struct {  /* the hole cards of one deal, their part of every hand computed once */
    uint64_t key[MAX_PLAYERS], mask[MAX_PLAYERS];
    uint16_t low[MAX_PLAYERS];
    int pairs;
    uint64_t pkey[MAX_PLAYERS][MAX_PAIRS], pmask[MAX_PLAYERS][MAX_PAIRS];
    uint16_t plow[MAX_PLAYERS][MAX_PAIRS];  /* two different low ranks, else 0x8000 */
} deal_part;

static const int TRIPLES[10][3] = {
    {0, 1, 2}, {0, 1, 3}, {0, 1, 4}, {0, 2, 3}, {0, 2, 4},
    {0, 3, 4}, {1, 2, 3}, {1, 2, 4}, {1, 3, 4}, {2, 3, 4},
};

static void game_init(game *g, const cl_poker_tables *t, int players, int hole, int omaha, int hi_lo)
{
    g->t = t;
    g->players = players;
    g->hole = hole;
    g->omaha = omaha;
    g->hi_lo = hi_lo;
    g->width = hi_lo ? WIDTH_HI_LO : WIDTH;
    for (int c = 0; c < 52; c++) {
        int rank = c >> 2;
        g->low_bit[c] = rank == 12 ? 1 : rank <= 6 ? (uint16_t)(1 << (rank + 1)) : 0;
    }
    for (int m = 0; m < 256; m++) {
        int bits = 0, low = 0;
        for (int b = 0; b < 8 && bits < 5; b++)
            if (m >> b & 1) {
                low |= 1 << b;
                bits++;
            }
        g->best_low[m] = bits == 5 ? (uint16_t)low : NO_LOW;
    }
}

static void deal_prepare(const game *g, deal_part *d, const uint8_t *holes)
{
    const cl_poker_tables *t = g->t;
    for (int i = 0; i < g->players; i++) {
        const uint8_t *h = holes + i * g->hole;
        uint64_t key = CL_SUIT_START, mask = 0;
        uint16_t low = 0;
        for (int j = 0; j < g->hole; j++) {
            key += t->key[h[j]];
            mask |= t->bit[h[j]];
            low |= g->low_bit[h[j]];
        }
        d->key[i] = key;
        d->mask[i] = mask;
        d->low[i] = low;
        if (!g->omaha)
            continue;
        int p = 0;
        for (int a = 0; a < g->hole; a++)
            for (int b = a + 1; b < g->hole; b++, p++) {
                d->pkey[i][p] = CL_SUIT_START + t->key[h[a]] + t->key[h[b]];
                d->pmask[i][p] = t->bit[h[a]] | t->bit[h[b]];
                uint16_t la = g->low_bit[h[a]], lb = g->low_bit[h[b]];
                d->plow[i][p] = (la && lb && la != lb) ? (uint16_t)(la | lb) : 0x8000;
            }
        d->pairs = p;
    }
}

static void share_units(const game *g, const uint32_t *value, const uint16_t *low, int *units, int *side);

/* Omaha values (flushes counted) and lows of every player on one board. */
static void omaha_values(const game *g, const deal_part *d, const uint8_t *board, uint32_t *value, uint16_t *low)
{
    const cl_poker_tables *t = g->t;
    uint64_t tkey[10], tmask[10];
    uint16_t tlow[10];
    for (int j = 0; j < 10; j++) {
        const uint8_t a = board[TRIPLES[j][0]], b = board[TRIPLES[j][1]], c = board[TRIPLES[j][2]];
        tkey[j] = t->key[a] + t->key[b] + t->key[c];
        tmask[j] = t->bit[a] | t->bit[b] | t->bit[c];
        uint16_t la = g->low_bit[a], lb = g->low_bit[b], lc = g->low_bit[c];
        tlow[j] = (la && lb && lc && la != lb && la != lc && lb != lc) ? (uint16_t)(la | lb | lc) : 0x4000;
    }
    for (int i = 0; i < g->players; i++) {
        uint32_t best = 0;
        uint16_t best_low = NO_LOW;
        for (int p = 0; p < d->pairs; p++) {
            const uint64_t pk = d->pkey[i][p], pm = d->pmask[i][p];
            for (int j = 0; j < 10; j++) {
                uint32_t v = cl_poker_value(t, pk + tkey[j], pm | tmask[j]);
                best = v > best ? v : best;
            }
            if (g->hi_lo && d->plow[i][p] != 0x8000) {
                const uint16_t pl = d->plow[i][p];
                for (int j = 0; j < 10; j++)
                    if (tlow[j] != 0x4000 && !(tlow[j] & pl)) {
                        uint16_t l = (uint16_t)(tlow[j] | pl);
                        best_low = l < best_low ? l : best_low;
                    }
            }
        }
        value[i] = best;
        low[i] = best_low;
    }
}

/* Share units of each player on one board (5 cards; key and mask summed without the suit
 * counters' start). */
static void showdown(const game *g, const deal_part *d, const uint8_t *board, uint64_t bkey,
                     uint64_t bmask, int *units, int *side)
{
    const cl_poker_tables *t = g->t;
    const int n = g->players;
    uint32_t value[MAX_PLAYERS];
    uint16_t low[MAX_PLAYERS];
    if (!g->omaha) {
        for (int i = 0; i < n; i++)
            value[i] = cl_poker_value(t, d->key[i] + bkey, d->mask[i] | bmask);
        if (g->hi_lo) {
            uint16_t blow = 0;
            for (int j = 0; j < 5; j++)
                blow |= g->low_bit[board[j]];
            for (int i = 0; i < n; i++)
                low[i] = g->best_low[(d->low[i] | blow) & 0xff];
        }
    } else {
        omaha_values(g, d, board, value, low);
    }
    share_units(g, value, low, units, side);
}

/* Share units from each player's high value and (in hi-lo) low; in hi-lo also each player's
 * side: 1 when a low qualified and the share came from the high half alone, 2 from the low half
 * alone, else 0 (side is not written in a game without a low). */
static void share_units(const game *g, const uint32_t *value, const uint16_t *low, int *units, int *side)
{
    const int n = g->players;
    uint32_t top = 0;
    for (int i = 0; i < n; i++)
        top = value[i] > top ? value[i] : top;
    int winners = 0;
    for (int i = 0; i < n; i++)
        winners += value[i] == top;
    int high_pot = UNIT;
    int low_share = 0;
    uint16_t best_low = NO_LOW;
    if (g->hi_lo) {
        for (int i = 0; i < n; i++)
            best_low = low[i] < best_low ? low[i] : best_low;
        if (best_low < NO_LOW) {
            int lowers = 0;
            for (int i = 0; i < n; i++)
                lowers += low[i] == best_low;
            high_pot = UNIT / 2;
            low_share = UNIT / 2 / lowers;
        }
    }
    const int high_share = high_pot / winners;
    for (int i = 0; i < n; i++)
        units[i] = (value[i] == top ? high_share : 0) + (low_share && low[i] == best_low ? low_share : 0);
    if (g->hi_lo)
        for (int i = 0; i < n; i++) {
            const int high = value[i] == top, lowest = low_share && low[i] == best_low;
            side[i] = !low_share || high == lowest ? 0 : high ? 1 : 2;
        }
}

/* One board's units (and in hi-lo sides) added to the sums, a row of g->width per player. */
static inline void tally(const game *g, const int *units, const int *side, int64_t *acc)
{
    const int n = g->players;
    if (!g->hi_lo) {
        for (int i = 0; i < n; i++) {
            int64_t u = units[i];
            acc[WIDTH * i] += u == UNIT;
            acc[WIDTH * i + 1] += u > 0 && u < UNIT;
            acc[WIDTH * i + 2] += u;
            acc[WIDTH * i + 3] += u * u;
        }
        return;
    }
    for (int i = 0; i < n; i++) {
        int64_t u = units[i];
        int64_t *row = acc + WIDTH_HI_LO * i;
        row[0] += u == UNIT;
        row[1] += u > 0 && u < UNIT;
        row[2] += u;
        row[3] += u * u;
        row[4] += side[i] == 1;
        row[5] += side[i] == 2;
    }
}

/* The river: the one board of five known cards. */
static void river(const game *g, const deal_part *d, const uint8_t *board, int64_t *acc)
{
    const cl_poker_tables *t = g->t;
    uint64_t key = 0, mask = 0;
    for (int j = 0; j < 5; j++) {
        key += t->key[board[j]];
        mask |= t->bit[board[j]];
    }
    int units[MAX_PLAYERS], side[MAX_PLAYERS];
    showdown(g, d, board, key, mask, units, side);
    tally(g, units, side, acc);
}

/* --- by rank classes (hold'em and Omaha) ------------------------------------------------------
 * Without flushes a board's value to every player depends on its ranks alone, and so does the
 * low.  So the completions are counted by rank multiset, each weighted by the ways to take its
 * cards from the cards left (prod C(left of rank r, taken)), valued once for every player; then
 * the only boards where suits can matter are enumerated card by card: those holding three or
 * more cards of a suit of which some player holds enough for five (in Omaha: two).  There the
 * true showdown replaces the suit-blind one. */

/* The rank classes of `need` more board cards from rank r up (left[r] cards of rank r to take
 * from), each weighted by the ways to take its cards, prod C(left, taken), with the board's key
 * and low so far: visit() at each class (a pass embeds the walk as its first member). */
typedef struct rank_walk rank_walk;
struct rank_walk {
    const game *g;
    const int *left;
    int ranks[5];  /* the board's ranks so far (Omaha needs them for its triples) */
    void (*visit)(rank_walk *w, int64_t weight, uint64_t key, uint16_t low);
};

typedef struct {
    rank_walk walk;
    const deal_part *d;
    int left[13];
    int64_t *acc;
} rank_pass;

/* Omaha values ignoring suits (and the lows) from the board's five ranks. */
static void omaha_blind(const game *g, const deal_part *d, const int *ranks, uint32_t *value, uint16_t *low)
{
    const cl_poker_tables *t = g->t;
    uint64_t tkey[10];
    uint16_t tlow[10];
    for (int j = 0; j < 10; j++) {
        const int a = ranks[TRIPLES[j][0]], b = ranks[TRIPLES[j][1]], c = ranks[TRIPLES[j][2]];
        tkey[j] = (t->key[4 * a] + t->key[4 * b] + t->key[4 * c]) & 0xffffffffu;
        const uint16_t la = g->low_bit[4 * a], lb = g->low_bit[4 * b], lc = g->low_bit[4 * c];
        tlow[j] = (la && lb && lc && la != lb && la != lc && lb != lc) ? (uint16_t)(la | lb | lc) : 0x4000;
    }
    for (int i = 0; i < g->players; i++) {
        uint32_t best = 0;
        uint16_t best_low = NO_LOW;
        for (int p = 0; p < d->pairs; p++) {
            const uint64_t pk = d->pkey[i][p];
            for (int j = 0; j < 10; j++) {
                const uint32_t v = t->table[cl_poker_index(t, pk + tkey[j])];
                best = v > best ? v : best;
            }
            const uint16_t pl = d->plow[i][p];
            if (g->hi_lo && pl != 0x8000)
                for (int j = 0; j < 10; j++)
                    if (tlow[j] != 0x4000 && !(tlow[j] & pl)) {
                        const uint16_t l = (uint16_t)(tlow[j] | pl);
                        best_low = l < best_low ? l : best_low;
                    }
        }
        value[i] = best;
        low[i] = best_low;
    }
}

static const int64_t CHOOSE[5][5] = {
    {1, 0, 0, 0, 0}, {1, 1, 0, 0, 0}, {1, 2, 1, 0, 0}, {1, 3, 3, 1, 0}, {1, 4, 6, 4, 1},
};

/* `weight` boards' units (and in hi-lo sides; no squares) added to the sums. */
static void add_units(const game *g, const int *units, const int *side, int64_t weight, int64_t *acc)
{
    const int w = g->width;
    for (int i = 0; i < g->players; i++) {
        const int64_t u = units[i];
        acc[w * i] += weight * (u == UNIT);
        acc[w * i + 1] += weight * (u > 0 && u < UNIT);
        acc[w * i + 2] += weight * u;
        if (g->hi_lo) {
            acc[w * i + 4] += weight * (side[i] == 1);
            acc[w * i + 5] += weight * (side[i] == 2);
        }
    }
}

/* `weight` boards where the true values `real` replace the suit-blind ones counted before. */
static void add_difference(const game *g, const uint32_t *real, const uint32_t *blind, const uint16_t *lows,
                           int64_t weight, int64_t *acc)
{
    int units[MAX_PLAYERS], side[MAX_PLAYERS];
    share_units(g, real, lows, units, side);
    add_units(g, units, side, weight, acc);
    share_units(g, blind, lows, units, side);
    add_units(g, units, side, -weight, acc);
}

static void rank_class(rank_walk *w, int64_t weight, uint64_t key, uint16_t low)
{
    const rank_pass *rp = (const rank_pass *)w;
    const game *g = w->g;
    const cl_poker_tables *t = g->t;
    uint32_t value[MAX_PLAYERS] = {0};
    uint16_t lows[MAX_PLAYERS] = {0};
    int units[MAX_PLAYERS], side[MAX_PLAYERS];
    if (!g->omaha && !g->hi_lo) {  /* plain hold'em (rows of WIDTH): the tally in line */
        const int n = g->players;
        uint32_t top = 0;
        for (int i = 0; i < n; i++) {
            value[i] = t->table[cl_poker_index(t, rp->d->key[i] + key)];
            top = value[i] > top ? value[i] : top;
        }
        int winners = 0;
        for (int i = 0; i < n; i++)
            winners += value[i] == top;
        const int64_t part = weight * (UNIT / winners);
        int64_t *acc = rp->acc;
        for (int i = 0; i < n; i++)
            if (value[i] == top) {
                acc[WIDTH * i + (winners > 1)] += weight;
                acc[WIDTH * i + 2] += part;
            }
        return;
    }
    if (g->omaha) {
        omaha_blind(g, rp->d, w->ranks, value, lows);
    } else {
        for (int i = 0; i < g->players; i++) {
            value[i] = t->table[cl_poker_index(t, rp->d->key[i] + key)];
            lows[i] = g->hi_lo ? g->best_low[(rp->d->low[i] | low) & 0xff] : NO_LOW;
        }
    }
    share_units(g, value, lows, units, side);
    add_units(g, units, side, weight, rp->acc);
}

static void walk_ranks(rank_walk *w, int r, int need, int64_t weight, uint64_t key, uint16_t low)
{
    if (need == 0) {
        w->visit(w, weight, key, low);
        return;
    }
    if (r == 13)
        return;
    const uint64_t rank_key = w->g->t->key[4 * r] & 0xffffffffu;
    const uint16_t rank_low = w->g->low_bit[4 * r];
    const int most = w->left[r] < need ? w->left[r] : need;
    for (int m = 0; m <= most; m++) {
        for (int j = 0; j < m; j++)
            w->ranks[5 - need + j] = r;
        walk_ranks(w, r + 1, need - m, weight * CHOOSE[w->left[r]][m], key + m * rank_key,
                   m ? (uint16_t)(low | rank_low) : low);
    }
}

typedef struct {
    const game *g;
    const deal_part *d;
    const uint8_t *pool[2];
    int size[2], take[2];
    uint8_t board[5];
    int nknown;
    int64_t *acc;
    int suit;
    int rest_left[13];  /* cards of each rank in pool 1 */
} flush_pass;

/* Hold'em, the suited cards of the board chosen: the rest of the board counted by rank classes.
 * With distinct cards a player who makes the flush holds nothing better whatever the other
 * cards are (no full house or four of a kind is left for him), so his value is the flush's;
 * everyone else's, and every suit-blind value, depends on the ranks alone. */
typedef struct {
    rank_walk walk;
    const flush_pass *fp;
    const uint32_t *flush;  /* each player's flush strength, or 0 */
} rest_walk;

static void rest_class(rank_walk *w, int64_t weight, uint64_t key, uint16_t low)
{
    const flush_pass *fp = ((const rest_walk *)w)->fp;
    const uint32_t *flush = ((const rest_walk *)w)->flush;
    const game *g = fp->g;
    const cl_poker_tables *t = g->t;
    uint32_t real[MAX_PLAYERS] = {0}, blind[MAX_PLAYERS] = {0};
    uint16_t lows[MAX_PLAYERS] = {0};
    for (int i = 0; i < g->players; i++) {
        blind[i] = t->table[cl_poker_index(t, fp->d->key[i] + key)];
        real[i] = flush[i] ? flush[i] : blind[i];
        lows[i] = g->hi_lo ? g->best_low[(fp->d->low[i] | low) & 0xff] : NO_LOW;
    }
    add_difference(g, real, blind, lows, weight, fp->acc);
}

/* Boards taking take[0] cards of pool 0 (the suit) and take[1] of pool 1 (the rest). */
static void flush_boards(flush_pass *fp, int part, int start, int filled)
{
    if (filled == fp->take[0] + fp->take[1]) {
        const game *g = fp->g;
        const cl_poker_tables *t = g->t;
        uint64_t bkey = 0, bmask = 0;
        uint16_t blow = 0;
        for (int j = 0; j < 5; j++) {
            bkey += t->key[fp->board[j]];
            bmask |= t->bit[fp->board[j]];
            blow |= g->low_bit[fp->board[j]];
        }
        uint32_t real[MAX_PLAYERS], blind[MAX_PLAYERS];
        uint16_t lows[MAX_PLAYERS];
        int differ = 0;
        if (g->omaha) {
            int ranks[5];
            for (int j = 0; j < 5; j++)
                ranks[j] = fp->board[j] >> 2;
            omaha_blind(g, fp->d, ranks, blind, lows);
            omaha_values(g, fp->d, fp->board, real, lows);
            for (int i = 0; i < g->players; i++)
                differ |= real[i] != blind[i];
        }
        for (int i = 0; i < g->players && !g->omaha; i++) {
            const uint64_t key = fp->d->key[i] + bkey;
            real[i] = cl_poker_value(t, key, fp->d->mask[i] | bmask);
            blind[i] = t->table[cl_poker_index(t, key)];
            differ |= real[i] != blind[i];
            lows[i] = g->hi_lo ? g->best_low[(fp->d->low[i] | blow) & 0xff] : NO_LOW;
        }
        if (!differ)
            return;
        add_difference(g, real, blind, lows, 1, fp->acc);
        return;
    }
    if (filled == fp->take[0] && part == 0) {
        const game *g = fp->g;
        if (g->omaha || fp->take[1] == 0) {
            flush_boards(fp, 1, 0, filled);
            return;
        }
        const cl_poker_tables *t = g->t;
        uint64_t key = 0, mask = 0;
        uint16_t low = 0;
        for (int j = 0; j < fp->nknown + filled; j++) {
            key += t->key[fp->board[j]];
            mask |= t->bit[fp->board[j]];
            low |= g->low_bit[fp->board[j]];
        }
        uint32_t flush[MAX_PLAYERS];
        const int s = fp->suit;
        for (int i = 0; i < g->players; i++) {
            const uint32_t suited = (uint32_t)((fp->d->mask[i] | mask) >> (16 * s)) & 0x1fff;
            flush[i] = cl_popcount32(suited) >= 5 ? t->flush[suited] : 0;
        }
        rest_walk rw = {{g, fp->rest_left, {0}, rest_class}, fp, flush};
        walk_ranks(&rw.walk, 0, fp->take[1], 1, key & 0xffffffffu, low);
        return;
    }
    const int want = part == 0 ? fp->take[0] : fp->take[0] + fp->take[1];
    for (int i = start; i <= fp->size[part] - (want - filled); i++) {
        fp->board[fp->nknown + filled] = fp->pool[part][i];
        flush_boards(fp, part, i + 1, filled + 1);
    }
}

static void by_rank_classes(const game *g, const deal_part *d, const uint8_t *known, int nknown,
                            const uint8_t *cards, int ncards, int64_t *acc)
{
    const cl_poker_tables *t = g->t;
    const int k = 5 - nknown;
    rank_pass rp = {{g, NULL, {0}, rank_class}, d, {0}, acc};
    rp.walk.left = rp.left;
    for (int j = 0; j < ncards; j++)
        rp.left[cards[j] >> 2]++;
    for (int j = 0; j < nknown; j++)
        rp.walk.ranks[j] = known[j] >> 2;
    uint64_t key = 0;
    uint16_t low = 0;
    int known_suit[4] = {0};
    for (int j = 0; j < nknown; j++) {
        key += t->key[known[j]];
        low |= g->low_bit[known[j]];
        known_suit[known[j] & 3]++;
    }
    key &= 0xffffffffu;
    if (k <= 2) {  /* the turn and the flop: the classes in plain loops (no recursion) */
        for (int r = 0; r < 13; r++) {
            if (!rp.left[r])
                continue;
            const uint64_t kr = key + (t->key[4 * r] & 0xffffffffu);
            const uint16_t lr = (uint16_t)(low | g->low_bit[4 * r]);
            rp.walk.ranks[nknown] = r;
            if (k == 1) {
                rank_class(&rp.walk, rp.left[r], kr, lr);
                continue;
            }
            for (int q = r; q < 13; q++) {
                const int64_t w = q == r ? CHOOSE[rp.left[r]][2] : (int64_t)rp.left[r] * rp.left[q];
                if (!w)
                    continue;
                rp.walk.ranks[nknown + 1] = q;
                rank_class(&rp.walk, w, kr + (t->key[4 * q] & 0xffffffffu), (uint16_t)(lr | g->low_bit[4 * q]));
            }
        }
    } else {
        walk_ranks(&rp.walk, 0, k, 1, key, low);
    }
    flush_pass fp;
    fp.g = g;
    fp.d = d;
    fp.nknown = nknown;
    fp.acc = acc;
    memcpy(fp.board, known, (size_t)nknown);
    uint8_t suited[13], rest[52];
    for (int s = 0; s < 4; s++) {
        int most = 0;  /* the most cards of this suit any player holds */
        for (int i = 0; i < g->players; i++) {
            const int held = cl_popcount32((unsigned)(d->mask[i] >> (16 * s)) & 0x1fff);
            most = held > most ? held : most;
        }
        int ns = 0, nr = 0;
        for (int j = 0; j < ncards; j++) {
            if ((cards[j] & 3) == s)
                suited[ns++] = cards[j];
            else
                rest[nr++] = cards[j];
        }
        fp.pool[0] = suited;
        fp.pool[1] = rest;
        fp.size[0] = ns;
        fp.size[1] = nr;
        fp.suit = s;
        memset(fp.rest_left, 0, sizeof fp.rest_left);
        for (int j = 0; j < nr; j++)
            fp.rest_left[rest[j] >> 2]++;
        for (int a = 0; a <= k; a++) {
            const int on_board = known_suit[s] + a;
            /* a flush needs five of the suit: hold'em from any of the seven cards, Omaha from
             * exactly two hole cards and three board cards */
            const int can = g->omaha ? most >= 2 : most >= 5 - on_board;
            if (on_board < 3 || !can || a > ns || k - a > nr)
                continue;
            fp.take[0] = a;
            fp.take[1] = k - a;
            flush_boards(&fp, 0, 0, 0);
        }
    }
}

/* Whether every byte of the buffers is a card id 0..51 (they index 52-entry arrays and shift
 * 64-bit masks). */
static int all_cards(const Py_buffer *const *views, int count)
{
    for (int v = 0; v < count; v++) {
        const uint8_t *b = views[v]->buf;
        for (Py_ssize_t i = 0; i < views[v]->len; i++)
            if (b[i] > 51)
                return 0;
    }
    return 1;
}

/* The checks of an equity kernel's buffers before its loop: ValueError "<kernel>: buffers of the
 * wrong size" when ``bad_size``, else "<kernel>: a card id outside 0..51<more>" when a byte of
 * the ``count`` views is not a card id or ``more_ok`` is 0.  Returns whether it raised. */
static int buffers_bad(const char *kernel, int bad_size, const Py_buffer *const *views, int count, int more_ok,
                       const char *more)
{
    if (bad_size)
        PyErr_Format(PyExc_ValueError, "%s: buffers of the wrong size", kernel);
    else if (!all_cards(views, count) || !more_ok)
        PyErr_Format(PyExc_ValueError, "%s: a card id outside 0..51%s", kernel, more);
    else
        return 0;
    return 1;
}

static int parse_game(PyObject *spec, const cl_poker_tables *t, game *g)
{
    int players, hole, omaha, hi_lo;
    if (!PyArg_ParseTuple(spec, "iipp", &players, &hole, &omaha, &hi_lo))
        return -1;
    if (players < 2 || players > MAX_PLAYERS || hole < 2 || hole > 6 || (!omaha && hole != 2)
        || (omaha && hole < 4)) {
        PyErr_SetString(PyExc_ValueError, "poker equity: bad game");
        return -1;
    }
    game_init(g, t, players, hole, omaha, hi_lo);
    return 0;
}

/* A PyArg_ParseTuple "O&" converter: the game of a spec, for the tables in g->t (the argument just
 * before it, read by cl_tables_arg into &g.t); 0 with an exception set on a bad spec. */
static int game_arg(PyObject *spec, void *g)
{
    return parse_game(spec, ((game *)g)->t, g) == 0;
}

/* poker_equity_exact(tables, (players, hole, omaha, hi_lo), deals, board, deck, acc)
 *   deals: D * players * hole uint8; board: the known cards; deck: the cards a board may be
 *   completed from (no board or dead card; a deal's own cards are skipped); acc: D * players
 *   * 4 int64, += wins, splits, share units (and squared units, not kept for plain hold'em);
 *   in hi-lo D * players * 6, += also the boards of the high half alone and of the low alone. */
static PyObject *poker_equity_exact(PyObject *Py_UNUSED(self), PyObject *args)
{
    game g;
    Py_buffer deals, board, deck, acc;
    if (!PyArg_ParseTuple(args, "O&O&y*y*y*w*", cl_tables_arg, &g.t, game_arg, &g, &deals, &board, &deck, &acc))
        return NULL;
    const Py_ssize_t per = (Py_ssize_t)g.players * g.hole;
    const Py_ssize_t n = deals.len / per;
    const int bad = deals.len != n * per || board.len > 5 || deck.len > 52 || acc.len != n * g.players * g.width * 8;
    const Py_buffer *const card_views[3] = {&deals, &board, &deck};
    if (buffers_bad("poker_equity_exact", bad, card_views, 3, 1, ""))
        goto done;
    Py_BEGIN_ALLOW_THREADS
    deal_part d;
    uint8_t cards[52];
    const uint8_t *all = deals.buf, *dk = deck.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        const uint8_t *holes = all + i * per;
        uint64_t taken = 0;
        for (Py_ssize_t j = 0; j < per; j++)
            taken |= UINT64_C(1) << holes[j];
        int m = 0;
        for (Py_ssize_t j = 0; j < deck.len; j++)
            if (!(taken >> dk[j] & 1))
                cards[m++] = dk[j];
        deal_prepare(&g, &d, holes);
        int64_t *sums = (int64_t *)acc.buf + i * g.players * g.width;
        if (board.len < 5)
            by_rank_classes(&g, &d, board.buf, (int)board.len, cards, m, sums);
        else
            river(&g, &d, board.buf, sums);
    }
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&deals, &board, &deck, &acc);
}

/* --- exact equity of ranges: the deals walked in C ------------------------------------------
 * Every assignment of combos to players sharing no card (a deal, weighted by the product of its
 * combos' weights) in lexicographic order of the combos, each deal's boards counted as above and
 * added, weighted, into per-player totals.  Plain hold'em on the flop or the turn takes a faster
 * route: each combo's suit-blind value for every rank class of the cards to come is looked up
 * once per call (a combo sits in many deals), so a deal costs only its class weights (the ranks
 * its cards leave in the deck) and the few boards where some player's flush changes a value. */
typedef struct {
    const game *g;
    int P;
    const uint8_t *combos;  /* every player's combos in turn, hole cards each */
    const int64_t *off;     /* P + 1 rows */
    const double *weight;
    uint64_t *cmask;        /* each combo's cards, bit c for card c */
    uint64_t *lanes;        /* each combo's cards as rank bits in suit lanes (t->bit) */
    uint8_t *held;          /* each combo's cards of each suit, four counts */
    const uint8_t *known, *deck;
    int nknown, ndeck;
    uint64_t deck_mask;
    /* the fast route (plain hold'em, one or two cards to come) */
    int fast, k, nclass;
    uint32_t *cache;        /* per combo, nclass suit-blind values */
    int left0[13];          /* deck cards of each rank */
    uint64_t known_lanes;
    int known_suit[4];
    uint8_t cls2[13][13];   /* class of the two ranks r <= q to come */
    /* totals */
    double *totals;         /* per player: wins, splits, share units (weighted); the deals' weight,
                             * the deals of a weight not a whole number */
    double *grid;           /* per combo of player 2: weighted units of player 1, weights; or NULL */
    int64_t deals;
    int64_t pick[MAX_PLAYERS];
} deal_walk;

/* A pot's share units among 1 to 9 winners (UNIT / winners, without a division in the loop). */
static const int64_t SHARE[MAX_PLAYERS + 1] = {0, UNIT, UNIT / 2, UNIT / 3, UNIT / 4, UNIT / 5, UNIT / 6,
                                               UNIT / 7, UNIT / 8, UNIT / 9};

/* Plain hold'em: the players holding the best of `value` (a bit each), and how many. */
static inline unsigned best_of(int P, const uint32_t *value, int *count)
{
    uint32_t top = 0;
    for (int i = 0; i < P; i++)
        top = value[i] > top ? value[i] : top;
    unsigned mask = 0;
    int n = 0;
    for (int i = 0; i < P; i++)
        if (value[i] == top) {
            mask |= 1u << i;
            n++;
        }
    *count = n;
    return mask;
}

/* `weight` boards (negative to take them away) won by the players of `mask` (n of them), added
 * to the sums (boards won outright or split, share units). */
static inline void tally_mask(unsigned mask, int n, int64_t weight, int64_t *acc)
{
    const int64_t part = weight * SHARE[n];
    for (; mask; mask &= mask - 1) {
        const int i = cl_ctz64(mask);
        acc[WIDTH * i + (n > 1)] += weight;
        acc[WIDTH * i + 2] += part;
    }
}

/* A deal's boards counted by who wins them: weight[mask] boards won by the players of mask. */
typedef struct {
    int64_t weight[1 << MAX_PLAYERS];
    uint32_t top[91];     /* per rank class, the best suit-blind value */
    uint16_t mask[91];    /* and who holds it */
} deal_counts;

/* `weight` boards of rank class `cls` on which the players of `flushers` (n of them) make a
 * flush with the suit's rank bits `lanes` (lane s): their flush replaces the suit-blind value.
 * (With five suited cards of seven, no full house or four of a kind is left, so a player's flush
 * beats his suit-blind value: when the best flush is below the best suit-blind value nothing
 * changes; when above, its holders win instead; a suit-blind value never equals a flush's, the
 * categories differ, but that case is counted in full all the same.) */
static void flush_fix(const deal_walk *w, const uint32_t *const *val, deal_counts *dc, int cls,
                      const int *flushers, int n, uint64_t lanes, int s, int64_t weight)
{
    const cl_poker_tables *t = w->g->t;
    uint32_t real[MAX_PLAYERS], top = 0;
    unsigned won = 0;
    for (int j = 0; j < n; j++) {
        const int i = flushers[j];
        real[i] = t->flush[(uint32_t)((w->lanes[w->pick[i]] | lanes) >> (16 * s)) & 0x1fff];
        if (real[i] > top) {
            top = real[i];
            won = 1u << i;
        } else if (real[i] == top) {
            won |= 1u << i;
        }
    }
    if (top < dc->top[cls])
        return;
    if (top == dc->top[cls]) {
        uint32_t value[MAX_PLAYERS];
        for (int i = 0; i < w->P; i++)
            value[i] = val[i][cls];
        for (int j = 0; j < n; j++)
            value[flushers[j]] = real[flushers[j]];
        int count;
        won = best_of(w->P, value, &count);
    }
    dc->weight[won] += weight;
    dc->weight[dc->mask[cls]] -= weight;
}

static void fast_deal(const deal_walk *w, uint64_t taken, int64_t *acc)
{
    const cl_poker_tables *t = w->g->t;
    const int P = w->P, k = w->k;
    int left[13];
    memcpy(left, w->left0, sizeof left);
    for (uint64_t m = taken & w->deck_mask; m; m &= m - 1)  /* (the deal's cards are the deck's) */
        left[cl_ctz64(m) >> 2]--;
    const uint32_t *val[MAX_PLAYERS];
    for (int i = 0; i < P; i++)
        val[i] = w->cache + w->pick[i] * w->nclass;
    deal_counts dc;
    memset(dc.weight, 0, sizeof(int64_t) << P);
    /* the rank classes, suits ignored */
    for (int r = 0, cls = 0; r < 13; r++)
        for (int q = k == 2 ? r : 12; q < 13; q++, cls++) {
            const int64_t weight = k == 1 ? left[r] : q == r ? CHOOSE[left[r]][2] : (int64_t)left[r] * left[q];
            uint32_t top = 0;
            for (int i = 0; i < P; i++)
                top = val[i][cls] > top ? val[i][cls] : top;
            unsigned mask = 0;
            for (int i = 0; i < P; i++)
                mask |= (unsigned)(val[i][cls] == top) << i;
            dc.top[cls] = top;
            dc.mask[cls] = (uint16_t)mask;
            dc.weight[mask] += weight;
        }
    /* the boards where a flush is made: a suited cards of the suit to come, chosen card by card,
     * and the rest by rank classes of the other suits' cards */
    const uint64_t remaining = w->deck_mask & ~taken;
    for (int s = 0; s < 4; s++) {
        int most = 0;
        for (int i = 0; i < P; i++) {
            const int held = w->held[4 * w->pick[i] + s];
            most = held > most ? held : most;
        }
        if (most + w->known_suit[s] + k < 5)
            continue;
        int suited[13], ns = 0, rest_left[13], nr = 0;
        for (int r = 0; r < 13; r++) {
            const int here = (int)(remaining >> (4 * r + s) & 1);
            if (here)
                suited[ns++] = r;
            rest_left[r] = left[r] - here;
            nr += rest_left[r];
        }
        for (int a = 0; a <= k; a++) {
            const int on_board = w->known_suit[s] + a;
            if (on_board < 3 || most < 5 - on_board || a > ns || k - a > nr)
                continue;
            int flushers[MAX_PLAYERS], nf = 0;
            for (int i = 0; i < P; i++)
                if (w->held[4 * w->pick[i] + s] >= 5 - on_board)
                    flushers[nf++] = i;
            const uint64_t known = w->known_lanes;
            if (a == 0) {
                for (int r = 0; r < 13; r++) {
                    if (!rest_left[r])
                        continue;
                    if (k == 1) {
                        flush_fix(w, val, &dc, r, flushers, nf, known, s, rest_left[r]);
                        continue;
                    }
                    for (int q = r; q < 13; q++) {
                        const int64_t weight = q == r ? CHOOSE[rest_left[r]][2] : (int64_t)rest_left[r] * rest_left[q];
                        if (weight)
                            flush_fix(w, val, &dc, w->cls2[r][q], flushers, nf, known, s, weight);
                    }
                }
            } else if (a == 1) {
                for (int x = 0; x < ns; x++) {
                    const int rx = suited[x];
                    const uint64_t lanes = known | t->bit[4 * rx + s];
                    if (k == 1) {
                        flush_fix(w, val, &dc, rx, flushers, nf, lanes, s, 1);
                        continue;
                    }
                    for (int r = 0; r < 13; r++)
                        if (rest_left[r])
                            flush_fix(w, val, &dc, w->cls2[r][rx], flushers, nf, lanes, s, rest_left[r]);
                }
            } else {
                for (int x = 0; x < ns; x++)
                    for (int y = x + 1; y < ns; y++) {
                        const int rx = suited[x], ry = suited[y];
                        flush_fix(w, val, &dc, w->cls2[rx][ry], flushers, nf,
                                  known | t->bit[4 * rx + s] | t->bit[4 * ry + s], s, 1);
                    }
            }
        }
    }
    for (unsigned mask = 1; mask < 1u << P; mask++)
        if (dc.weight[mask]) {
            int n = 0;
            for (unsigned m = mask; m; m &= m - 1)
                n++;
            tally_mask(mask, n, dc.weight[mask], acc);
        }
}

static void walk_one_deal(deal_walk *w, uint64_t taken, double weight)
{
    const game *g = w->g;
    const int P = w->P, H = g->hole;
    int64_t acc[MAX_PLAYERS * WIDTH_HI_LO] = {0};
    if (w->fast) {
        fast_deal(w, taken, acc);
    } else {
        uint8_t holes[MAX_PLAYERS * 6], cards[52];
        for (int i = 0; i < P; i++)
            memcpy(holes + i * H, w->combos + w->pick[i] * H, (size_t)H);
        deal_part d;
        deal_prepare(g, &d, holes);
        int m = 0;
        for (int j = 0; j < w->ndeck; j++)
            if (!(taken >> w->deck[j] & 1))
                cards[m++] = w->deck[j];
        if (w->nknown < 5)
            by_rank_classes(g, &d, w->known, w->nknown, cards, m, acc);
        else
            river(g, &d, w->known, acc);
    }
    const int width = g->width, cols = width - 1;  /* the sums but the squares */
    for (int i = 0; i < P; i++) {
        for (int j = 0; j < 3; j++)
            w->totals[cols * i + j] += weight * (double)acc[width * i + j];
        for (int j = 4; j < width; j++)
            w->totals[cols * i + j - 1] += weight * (double)acc[width * i + j];
    }
    w->totals[cols * P] += weight;
    w->totals[cols * P + 1] += !(weight < 9.0e15 && weight == (double)(int64_t)weight);
    if (w->grid) {
        const int64_t n2 = w->off[2] - w->off[1], j = w->pick[1] - w->off[1];
        w->grid[j] += weight * (double)acc[2];
        w->grid[n2 + j] += weight;
    }
    w->deals++;
}

static void walk_deals(deal_walk *w, int i, uint64_t taken, double weight)
{
    if (i == w->P) {
        walk_one_deal(w, taken, weight);
        return;
    }
    for (int64_t c = w->off[i]; c < w->off[i + 1]; c++) {
        if (w->cmask[c] & taken)
            continue;
        w->pick[i] = c;
        walk_deals(w, i + 1, taken | w->cmask[c], weight * w->weight[c]);
    }
}

/* poker_equity_ranges(tables, game, combos, offsets, weights, board, deck, totals, grid) -> deals
 *   combos: every player's combos in turn (uint8, hole cards each; none holding a board or dead
 *   card), offsets: P + 1 int64, weights: float64 per combo; board: the known cards; deck: the
 *   cards a board may be completed from; totals: P * 3 + 2 float64, += weighted wins, splits and
 *   share units over every deal and board (hi-lo: P * 5 + 2, each player's row adding the boards
 *   of the high half alone and of the low alone), then the deals' weights and the number of deals
 *   whose weight is not a whole number; grid: empty, or 2 * (combos of player 2) float64,
 *   += player 1's weighted units and the deal weights, by player 2's combo.  Returns the number
 *   of deals (conflict-free assignments of combos). */
static PyObject *poker_equity_ranges(PyObject *Py_UNUSED(self), PyObject *args)
{
    game g;
    Py_buffer combos, offsets, weights, board, deck, totals, grid;
    if (!PyArg_ParseTuple(args, "O&O&y*y*y*y*y*w*w*", cl_tables_arg, &g.t, game_arg, &g, &combos, &offsets, &weights,
                          &board, &deck, &totals, &grid))
        return NULL;
    PyObject *result = NULL;
    const cl_poker_tables *t = g.t;
    const int P = g.players, H = g.hole;
    const int64_t *off = offsets.buf;
    int bad = offsets.len != (P + 1) * 8 || board.len > 5 || deck.len > 52 || totals.len != (P * (g.width - 1) + 2) * 8;
    if (!bad) {
        bad = off[0] != 0 || off[P] * H != combos.len || off[P] * 8 != weights.len;
        for (int i = 0; i < P && !bad; i++)
            bad = off[i + 1] < off[i];
    }
    if (!bad)
        bad = grid.len != 0 && grid.len != 2 * (off[2] - off[1]) * 8;
    const Py_buffer *const card_views[3] = {&combos, &board, &deck};
    if (buffers_bad("poker_equity_ranges", bad, card_views, 3, 1, ""))
        goto done;
    /* distinct cards: each combo's own, the board's, the deck's, none of the board in a combo or
     * the deck (a rank held five times would index past the evaluator's tables) */
    uint64_t board_mask = 0, deck_seen = 0;
    int distinct = 1;
    for (Py_ssize_t j = 0; j < board.len; j++) {
        const uint64_t bit = UINT64_C(1) << ((const uint8_t *)board.buf)[j];
        distinct &= !(board_mask & bit);
        board_mask |= bit;
    }
    for (Py_ssize_t j = 0; j < deck.len; j++) {
        const uint64_t bit = UINT64_C(1) << ((const uint8_t *)deck.buf)[j];
        distinct &= !((board_mask | deck_seen) & bit);
        deck_seen |= bit;
    }
    for (int64_t c = 0; c < off[P] && distinct; c++) {
        uint64_t m = board_mask;
        for (int j = 0; j < H; j++) {
            const uint64_t bit = UINT64_C(1) << ((const uint8_t *)combos.buf)[c * H + j];
            distinct &= !(m & bit);
            m |= bit;
        }
    }
    CL_FAIL_IF(!distinct, "poker_equity_ranges: a card given twice");
    deal_walk w;
    memset(&w, 0, sizeof w);
    w.g = &g;
    w.P = P;
    w.combos = combos.buf;
    w.off = off;
    w.weight = weights.buf;
    w.known = board.buf;
    w.nknown = (int)board.len;
    w.deck = deck.buf;
    w.ndeck = (int)deck.len;
    w.totals = totals.buf;
    w.grid = grid.len ? grid.buf : NULL;
    w.k = 5 - w.nknown;
    w.fast = !g.omaha && !g.hi_lo && (w.k == 1 || w.k == 2);
    w.nclass = w.k == 1 ? 13 : 91;
    const int64_t n = off[P];
    w.cmask = malloc(sizeof(uint64_t) * (size_t)(3 * n + 1));  /* masks, lanes, suit counts */
    w.cache = w.fast ? malloc(sizeof(uint32_t) * (size_t)(n * w.nclass + 1)) : NULL;
    if (w.cmask == NULL || (w.fast && w.cache == NULL)) {
        free(w.cmask);
        free(w.cache);
        PyErr_NoMemory();
        goto done;
    }
    w.lanes = w.cmask + n;
    w.held = (uint8_t *)(w.lanes + n);
    Py_BEGIN_ALLOW_THREADS
    const uint8_t *cb = combos.buf;
    for (int64_t c = 0; c < n; c++) {
        uint64_t m = 0, l = 0;
        for (int j = 0; j < H; j++) {
            m |= UINT64_C(1) << cb[c * H + j];
            l |= t->bit[cb[c * H + j]];
        }
        w.cmask[c] = m;
        w.lanes[c] = l;
        const uint64_t lengths = cl_popcount_lanes16(l);
        for (int suit = 0; suit < 4; suit++)
            w.held[4 * c + suit] = (uint8_t)(lengths >> (16 * suit));
    }
    for (int j = 0; j < w.ndeck; j++) {
        w.deck_mask |= UINT64_C(1) << w.deck[j];
        w.left0[w.deck[j] >> 2]++;
    }
    if (w.fast) {
        uint64_t key = 0;
        for (int j = 0; j < w.nknown; j++) {
            key += t->key[w.known[j]];
            w.known_lanes |= t->bit[w.known[j]];
            w.known_suit[w.known[j] & 3]++;
        }
        key &= 0xffffffffu;
        uint64_t class_key[91];
        if (w.k == 1) {
            for (int r = 0; r < 13; r++)
                class_key[r] = key + (t->key[4 * r] & 0xffffffffu);
        } else {
            for (int r = 0, cls = 0; r < 13; r++)
                for (int q = r; q < 13; q++, cls++) {
                    w.cls2[r][q] = w.cls2[q][r] = (uint8_t)cls;
                    class_key[cls] = key + (t->key[4 * r] & 0xffffffffu) + (t->key[4 * q] & 0xffffffffu);
                }
        }
        for (int64_t c = 0; c < n; c++) {
            uint64_t dkey = CL_SUIT_START;
            for (int j = 0; j < H; j++)
                dkey += t->key[cb[c * H + j]];
            uint32_t *row = w.cache + c * w.nclass;
            for (int x = 0; x < w.nclass; x++)
                row[x] = t->table[cl_poker_index(t, dkey + class_key[x])];
        }
    }
    walk_deals(&w, 0, 0, 1.0);
    Py_END_ALLOW_THREADS
    free(w.cmask);
    free(w.cache);
    result = PyLong_FromLongLong(w.deals);
done:
    CL_RELEASE(&combos, &offsets, &weights, &board, &deck, &totals, &grid);
    return result;
}

/* A guide to a cumulative array (the alias-free O(1) way to draw by weight): guide[b] is the
 * first index whose cumulative weight exceeds the b-th of g equal parts of the total. */
static void guide_build(const double *cum, Py_ssize_t n, int32_t *guide, Py_ssize_t g)
{
    const double total = cum[n - 1];
    Py_ssize_t i = 0;
    for (Py_ssize_t b = 0; b < g; b++) {
        const double threshold = total * (double)b / (double)g;
        while (i < n - 1 && cum[i] <= threshold)
            i++;
        guide[b] = (int32_t)i;
    }
}

/* The first index whose cumulative weight exceeds u * total (numpy's searchsorted side="right"),
 * u in [0, 1): the guide's bucket, then a step or two (either way, for rounding). */
static inline Py_ssize_t pick_guided(const double *cum, Py_ssize_t n, const int32_t *guide, double u)
{
    const double x = u * cum[n - 1];
    Py_ssize_t i = guide[(Py_ssize_t)(u * (double)n)];
    while (i > 0 && cum[i - 1] > x)
        i--;
    while (i < n - 1 && cum[i] <= x)
        i++;
    return i;
}

/* poker_equity_simulate(tables, game, combos, offsets, cumulative, deals, deal_cumulative,
 *                       board, common, classes, n, seed, acc, grid) -> 0, or -1 when the
 *                       ranges almost never leave the players different cards, -2 when the
 *                       players' cards leave the pool too few cards to complete the board
 *   combos: every player's combos in turn (uint8, hole cards each), offsets: P + 1 int64 rows,
 *   cumulative: their cumulative weights (float64, per player); or, when deals is not empty,
 *   one listed deal (P * hole uint8) per trial drawn by deal_cumulative.  board: known cards;
 *   common: the cards the board is completed from (a range player's cards are skipped);
 *   classes: int16 class of player 2's combo (or of each deal), empty for no grid;
 *   acc: P * 4 int64 (+= wins, splits, units, squares; hi-lo P * 6, + high alone, low alone); grid: 2 * 169 int64 (+= player 1's
 *   units by class, boards by class). */
static PyObject *poker_equity_simulate(PyObject *Py_UNUSED(self), PyObject *args)
{
    game g;
    Py_buffer combos, offsets, cumulative, deals, deal_cum, board, common, classes, seed, acc, grid;
    Py_ssize_t trials;
    if (!PyArg_ParseTuple(args, "O&O&y*y*y*y*y*y*y*y*ny*w*w*", cl_tables_arg, &g.t, game_arg, &g, &combos, &offsets,
                          &cumulative, &deals, &deal_cum, &board, &common, &classes, &trials, &seed, &acc, &grid))
        return NULL;
    PyObject *result = NULL;
    const cl_poker_tables *t = g.t;
    const int P = g.players, H = g.hole;
    const Py_ssize_t n_deals = deal_cum.len / 8;
    const int64_t *off = offsets.buf;
    int bad = offsets.len != (P + 1) * 8 || seed.len != 32 || acc.len != P * g.width * 8 || grid.len != 2 * 169 * 8
              || board.len > 5 || common.len > 52 || deals.len != n_deals * P * H || trials < 0;
    if (!bad && !n_deals) {
        bad = off[0] != 0 || off[P] * H != combos.len || off[P] * 8 != cumulative.len;
        for (int i = 0; i < P && !bad; i++)
            bad = off[i + 1] <= off[i];
    }
    const int grid_on = classes.len > 0;
    if (!bad && grid_on)
        bad = classes.len != 2 * (n_deals ? n_deals : off[2] - off[1]);
    const Py_buffer *const card_views[4] = {&combos, &deals, &board, &common};
    int classes_ok = 1;
    for (Py_ssize_t i = 0; i < classes.len / 2; i++)
        classes_ok = classes_ok && ((const int16_t *)classes.buf)[i] >= 0 && ((const int16_t *)classes.buf)[i] < 169;
    if (buffers_bad("poker_equity_simulate", bad, card_views, 4, classes_ok, " or a class outside 0..168"))
        goto done;
    int failed = 0;
    int32_t *guides = malloc(sizeof(int32_t) * (size_t)(n_deals + (n_deals ? 0 : off[P]) + 1));
    if (guides == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    if (n_deals)
        guide_build(deal_cum.buf, n_deals, guides, n_deals);
    else
        for (int i = 0; i < P; i++)
            guide_build((const double *)cumulative.buf + off[i], off[i + 1] - off[i], guides + off[i],
                        off[i + 1] - off[i]);
    cl_rng rng;
    cl_rng_seed(&rng, seed.buf);
    const uint8_t *cb = combos.buf, *db = deals.buf, *known = board.buf;
    const double *cum = cumulative.buf, *dcum = deal_cum.buf;
    const int16_t *cls = classes.buf;
    int64_t *sums = acc.buf, *gsum = grid.buf;
    uint8_t pool[52], holes[MAX_PLAYERS * 6], cards[5];
    const int npool = (int)common.len, nknown = (int)board.len, k = 5 - nknown;
    memcpy(pool, common.buf, (size_t)npool);
    uint64_t pool_mask = 0;
    for (int j = 0; j < npool; j++)
        pool_mask |= UINT64_C(1) << pool[j];
    memcpy(cards, known, (size_t)nknown);
    deal_part d;
    int units[MAX_PLAYERS], side[MAX_PLAYERS];
    /* the board: a partial Fisher-Yates shuffle of the pool with the players' cards moved past
     * its end first (pos[] follows every card), its k places drawn at once from one generator
     * word (cl_batch_draw; the threshold for each count of places kept once found) */
    int pos[52];
    for (int c = 0; c < 52; c++)
        pos[c] = -1;
    for (int j = 0; j < npool; j++)
        pos[pool[j]] = j;
    uint64_t threshold[53];
    uint8_t threshold_known[53] = {0};
    uint64_t known_key = 0, known_mask = 0;
    for (int j = 0; j < nknown; j++) {
        known_key += t->key[cards[j]];
        known_mask |= t->bit[cards[j]];
    }
    const int heads_up = P == 2 && !g.omaha && !g.hi_lo;
    int64_t won0 = 0, won1 = 0;
    Py_ssize_t done_trials = 0;
    int all_fixed = !n_deals;
    for (int i = 0; i < P && all_fixed; i++)
        all_fixed = off[i + 1] - off[i] == 1;
    if (all_fixed) {  /* the same hole cards every trial: their part once */
        memcpy(holes, cb, (size_t)(P * H));
        deal_prepare(&g, &d, holes);
    }
    /* heads-up over listed deals: every deal's two hands and card mask made once per chunk
     * (when the list is short enough to be worth it) */
    uint64_t *listed = NULL;
    if (heads_up && n_deals && n_deals <= 65536 && (listed = malloc(sizeof(uint64_t) * 5 * (size_t)n_deals))) {
        for (Py_ssize_t i = 0; i < n_deals; i++) {
            deal_prepare(&g, &d, db + i * P * H);
            uint64_t taken = 0;
            for (int j = 0; j < P * H; j++)
                taken |= UINT64_C(1) << db[i * P * H + j];
            uint64_t *e = listed + 5 * i;
            e[0] = d.key[0], e[1] = d.mask[0], e[2] = d.key[1], e[3] = d.mask[1], e[4] = taken;
        }
    }
    /* equal deal weights (a plain range): the deal drawn by index in the board's own generator
     * word, when every deal leaves the pool the same number of cards */
    int by_index = listed != NULL && n_deals > 0 && k > 0;
    for (Py_ssize_t i = 0; i < n_deals && by_index; i++)
        by_index = dcum[i] == dcum[0] * (double)(i + 1)
                   && cl_popcount64(pool_mask & listed[5 * i + 4]) == cl_popcount64(pool_mask & listed[4]);
    uint32_t listed_bound[6];
    uint64_t listed_threshold = 0;
    if (by_index) {
        const int avail = npool - cl_popcount64(pool_mask & listed[4]);
        by_index = avail >= k;
        uint64_t product = (uint64_t)n_deals;
        listed_bound[0] = (uint32_t)n_deals;
        for (int j = 0; j < k; j++) {
            listed_bound[1 + j] = (uint32_t)(avail - j);
            product *= (uint64_t)(avail - j);
        }
        listed_threshold = cl_batch_threshold(product);
    }
    /* and each deal's own pool (the pool without its cards), shuffled in place trial by trial:
     * no card of the players to move aside, while the pools stay small enough for the cache */
    const int deal_avail = by_index ? npool - cl_popcount64(pool_mask & listed[4]) : 0;
    uint8_t *deal_pools = NULL;
    if (by_index && (size_t)n_deals * (size_t)deal_avail <= (size_t)1 << 20
        && (deal_pools = malloc((size_t)n_deals * (size_t)deal_avail + 1)) != NULL)
        for (Py_ssize_t i = 0; i < n_deals; i++) {
            uint8_t *own = deal_pools + i * deal_avail;
            for (int j = 0, m = 0; j < npool; j++)
                if (!(listed[5 * i + 4] >> pool[j] & 1))
                    own[m++] = pool[j];
        }
    /* heads-up over listed deals with their own pools: the same draws in the same order, but in
     * blocks, every trial's keys first and then their lookups, independent of one another, so
     * the table misses of a block overlap instead of waiting on the draws between them */
    const int blocks = heads_up && k > 0 && (deal_pools || (all_fixed && npool >= k));
    uint32_t fixed_bound[5];
    uint64_t fixed_threshold = 0;
    if (blocks && !deal_pools) {  /* the same two hands every trial, the board from the pool */
        uint64_t product = 1;
        for (int j = 0; j < k; j++) {
            fixed_bound[j] = (uint32_t)(npool - j);
            product *= fixed_bound[j];
        }
        fixed_threshold = cl_batch_threshold(product);
    }
    if (blocks) {
        enum { BLOCK = 64 };
        uint64_t key_a[BLOCK], mask_a[BLOCK], key_b[BLOCK], mask_b[BLOCK];
        int32_t picked[BLOCK];
        for (Py_ssize_t start = 0; start < trials; start += BLOCK) {
            const int nb = trials - start < BLOCK ? (int)(trials - start) : BLOCK;
            for (int b = 0; b < nb; b++) {
                uint32_t draw[6];
                Py_ssize_t pick = 0;
                uint8_t *own = pool;
                const uint32_t *places = draw;
                if (deal_pools) {
                    cl_batch_draw(&rng, listed_bound, k + 1, listed_threshold, draw);
                    pick = draw[0];
                    own = deal_pools + pick * deal_avail;
                    places = draw + 1;
                } else {
                    cl_batch_draw(&rng, fixed_bound, k, fixed_threshold, draw);
                }
                uint64_t bkey = known_key, bmask = known_mask;
                for (int j = 0; j < k; j++) {
                    const uint8_t c = cl_deal_card(own, j, j + (int)places[j]);
                    bkey += t->key[c];
                    bmask |= t->bit[c];
                }
                if (deal_pools) {
                    const uint64_t *e = listed + 5 * pick;
                    key_a[b] = e[0] + bkey;
                    mask_a[b] = e[1] | bmask;
                    key_b[b] = e[2] + bkey;
                    mask_b[b] = e[3] | bmask;
                } else {
                    key_a[b] = d.key[0] + bkey;
                    mask_a[b] = d.mask[0] | bmask;
                    key_b[b] = d.key[1] + bkey;
                    mask_b[b] = d.mask[1] | bmask;
                }
                picked[b] = (int32_t)pick;
            }
            for (int b = 0; b < nb; b++) {
                const uint32_t va = cl_poker_value(t, key_a[b], mask_a[b]);
                const uint32_t vb = cl_poker_value(t, key_b[b], mask_b[b]);
                won0 += va > vb;
                won1 += vb > va;
                if (grid_on) {
                    const int c = cls[picked[b]];
                    gsum[c] += va > vb ? UNIT : va == vb ? UNIT / 2 : 0;
                    gsum[169 + c] += 1;
                }
            }
        }
        done_trials = trials;
    }
    for (Py_ssize_t trial = 0; trial < trials && !failed && !blocks; trial++) {
        done_trials = trial + 1;
        uint64_t taken = 0;
        Py_ssize_t grid_index = 0;
        uint32_t draw[6];
        int board_drawn = 0;
        if (all_fixed) {
            for (int j = 0; j < P * H; j++)
                taken |= UINT64_C(1) << holes[j];
        } else if (listed) {
            Py_ssize_t pick;
            if (by_index) {
                cl_batch_draw(&rng, listed_bound, k + 1, listed_threshold, draw);
                pick = draw[0];
                board_drawn = 1;
                if (deal_pools) {
                    uint8_t *own = deal_pools + pick * deal_avail;
                    for (int j = 0; j < k; j++)
                        cards[nknown + j] = cl_deal_card(own, j, j + (int)draw[1 + j]);
                    board_drawn = 2;
                }
            } else {
                pick = pick_guided(dcum, n_deals, guides, cl_unit(&rng));
            }
            const uint64_t *e = listed + 5 * pick;
            d.key[0] = e[0], d.mask[0] = e[1], d.key[1] = e[2], d.mask[1] = e[3];
            taken = e[4];
            grid_index = pick;
        } else if (n_deals) {
            Py_ssize_t pick = pick_guided(dcum, n_deals, guides, cl_unit(&rng));
            memcpy(holes, db + pick * P * H, (size_t)(P * H));
            grid_index = pick;
            for (int j = 0; j < P * H; j++)
                taken |= UINT64_C(1) << holes[j];
        } else {
            int tries = 0;
            for (;;) {
                taken = 0;
                int clash = 0;
                for (int i = 0; i < P && !clash; i++) {
                    const Py_ssize_t size = off[i + 1] - off[i];
                    Py_ssize_t pick = 0;
                    if (size > 1)
                        pick = pick_guided(cum + off[i], size, guides + off[i], cl_unit(&rng));
                    if (i == 1)
                        grid_index = pick;
                    const uint8_t *h = cb + (off[i] + pick) * H;
                    for (int j = 0; j < H; j++) {
                        const uint64_t bit = UINT64_C(1) << h[j];
                        clash |= (taken & bit) != 0;
                        taken |= bit;
                        holes[i * H + j] = h[j];
                    }
                }
                if (!clash)
                    break;
                if (++tries == 100000) {
                    failed = 1;
                    break;
                }
            }
            if (failed)
                break;
        }
        /* the board (see pos[] above), unless drawn from the deal's own pool */
        uint64_t bkey = known_key, bmask = known_mask;
        if (board_drawn == 2) {
            for (int j = nknown; j < 5; j++) {
                bkey += t->key[cards[j]];
                bmask |= t->bit[cards[j]];
            }
        } else {
            int avail = npool;
            for (uint64_t m = pool_mask & taken; m; m &= m - 1) {
                const int c = cl_ctz64(m), at = pos[c];
                const uint8_t other = pool[--avail];
                pool[avail] = (uint8_t)c;
                pos[c] = avail;
                pool[at] = other;
                pos[other] = at;
            }
            if (avail < k) {  /* too few cards left to complete the board: refused */
                failed = 2;
                break;
            }
            const uint32_t *places = draw + 1;
            if (!board_drawn && k > 0) {
                uint32_t bound[5];
                uint64_t product = 1;
                for (int j = 0; j < k; j++) {
                    bound[j] = (uint32_t)(avail - j);
                    product *= bound[j];
                }
                if (!threshold_known[avail]) {
                    threshold[avail] = cl_batch_threshold(product);
                    threshold_known[avail] = 1;
                }
                cl_batch_draw(&rng, bound, k, threshold[avail], draw);
                places = draw;
            }
            for (int j = 0; j < k; j++) {
                const int at = j + (int)places[j];
                const uint8_t c = pool[at], other = pool[j];
                pool[at] = other;
                pos[other] = at;
                pool[j] = c;
                pos[c] = j;
                cards[nknown + j] = c;
                bkey += t->key[c];
                bmask |= t->bit[c];
            }
        }
        if (!all_fixed && !listed)
            deal_prepare(&g, &d, holes);
        if (heads_up) {  /* plain hold'em heads-up: two lookups, counts kept in registers */
            const uint32_t a = cl_poker_value(t, d.key[0] + bkey, d.mask[0] | bmask);
            const uint32_t b = cl_poker_value(t, d.key[1] + bkey, d.mask[1] | bmask);
            won0 += a > b;
            won1 += b > a;
            if (!grid_on)
                continue;
            units[0] = a > b ? UNIT : a == b ? UNIT / 2 : 0;
        } else {
            showdown(&g, &d, cards, bkey, bmask, units, side);
            tally(&g, units, side, sums);
        }
        if (grid_on) {
            const int c = cls[grid_index];
            gsum[c] += units[0];
            gsum[169 + c] += 1;
        }
    }
    if (heads_up && !failed) {  /* the sums the plain path adds trial by trial */
        const int64_t ties = (int64_t)done_trials - won0 - won1, half_pot = UNIT / 2;
        const int64_t won[2] = {won0, won1};
        for (int i = 0; i < 2; i++) {
            sums[WIDTH * i] += won[i];
            sums[WIDTH * i + 1] += ties;
            sums[WIDTH * i + 2] += won[i] * UNIT + ties * half_pot;
            sums[WIDTH * i + 3] += won[i] * UNIT * UNIT + ties * half_pot * half_pot;
        }
    }
    free(listed);
    free(deal_pools);
    Py_END_ALLOW_THREADS
    free(guides);
    result = PyLong_FromLong(failed == 2 ? -2 : failed ? -1 : 0);
done:
    CL_RELEASE(&combos, &offsets, &cumulative, &deals, &deal_cum, &board,
               &common, &classes, &seed, &acc, &grid);
    return result;
}

CL_METHODS(poker_equity,
    CL_METHOD(poker_equity_exact,
              "poker_equity_exact(tables, game, deals, board, deck, acc): every board for each deal."),
    CL_METHOD(poker_equity_ranges,
              "poker_equity_ranges(tables, game, combos, offsets, weights, board, deck, totals, grid) -> deals: "
              "every deal of the ranges and every board, in C."),
    CL_METHOD(poker_equity_simulate,
              "poker_equity_simulate(tables, game, combos, offsets, cumulative, deals, deal_cumulative, "
              "board, common, classes, n, seed, acc, grid) -> 0, or -1 if the ranges keep colliding."));
