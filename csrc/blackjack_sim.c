/* Blackjack shoe simulation: rounds dealt from a shoe with a cut card, played by a table strategy,
 * counted by a point count and bet by the true count.
 *
 * The wrapper is cardlab.casino.blackjack_sim (every buffer and value is checked there, and the
 * sizes again here).  One kernel:
 *
 *   blackjack_play(cards, stacked, rules, strategy, tags, spread, cut, rounds, whole_shoes, state,
 *                  totals, bins, trace, indexes)
 *
 * cards     uint8[n], rank codes 0 = ace .. 9 = ten: the shoe (stacked: in the order dealt)
 * stacked   1: deal cards[0], cards[1], ... once, never shuffle (a test's stacked shoe; running
 *           out is an error); 0: the shoe is shuffled, one uniform draw per card dealt (a lazy
 *           Fisher-Yates shuffle: a reshuffle costs nothing, so "reshuffle every round" is fast)
 * rules     int32[10]: h17, double (0 any two, 1 hard 9-11, 2 hard 10-11), das, peek, what a
 *           blackjack pays in tenths (15 = 3:2, 12 = 6:5), late surrender, early surrender (before
 *           the dealer checks for blackjack: half the bet whatever the hole card), the true count
 *           from which insurance is taken against an ace (INSURE_NEVER: never), the most hands a
 *           pair may make (2 split once, 3 or 4: resplits), aces resplit (0 or 1)
 * strategy  uint8[3 * 440 + 100]: first[soft][total][up] (the decision on two cards: 0 hit,
 *           1 stand, 2 double else the fallback, 3 surrender else the fallback), fallback[soft]
 *           [total][up] (1 hit, 0 stand), pair[rank][up] (the decision on a pair: the codes above
 *           and 4 split), hit[soft][total][up] (a hand of three or more cards: 1 hit); totals
 *           0..21, up cards 0 = ace .. 9 = ten
 *
 * A split deals each hand its second card in turn and plays it before the next; a second card of
 * the pair's rank is split again (the pair was split, so it is again) while fewer hands than the
 * rules' most are open (aces only when aces resplit), as the exact engine's split values assume.
 * tags      int8[10]: the count's value of each rank
 * spread    int32[2 * TC_MAX + 1]: the bet (1 to 1,000 units) at each true count -TC_MAX .. TC_MAX
 *           (counts beyond take the end values)
 * cut       reshuffle before a round once this many cards are dealt (0: before every round)
 * rounds    rounds to play; whole_shoes: then play on to the end of the shoe
 * state     32 bytes: the xoshiro256** state (csrc/rng.h)
 * totals    int64[11]: rounds, units bet, units won x 10, (won x 10)^2, flat won x 10 (one unit
 *           every round), (flat won x 10)^2, hands played (a split counts two), shoes, rounds
 *           in which the shoe ran out and the discards were shuffled back, rounds insured,
 *           index plays that fired
 * bins      int64[3 * (2 * TC_MAX + 1)]: per true count, rounds, flat won x 10, its square
 * trace     int64[rounds * 5] or empty: per round the running count and true count the bet was
 *           made at, the bet, the flat result x 10 and the cards dealt (stacked shoes only)
 *
 * indexes   int8[DEV_CELLS * DEV_SIZE] or empty: index plays, per cell (a hard or soft total
 *           against an up card, bj_at(); then DEV_PAIRS + rank x 10 + up for a pair) a count of
 *           rules (at most DEV_MAX) and per rule: direction (0: at a true count >= index, 1:
 *           below it), the index (-20..20) and the decision (the codes above)
 *
 * The true count is floor(running count x 52 / cards left), the cards left counted exactly (not
 * rounded to decks).  The count takes in every card of a round when the round ends; insurance
 * and index plays use the true count the round's bet was made at.
 *
 * Index plays: a hand's surrender decision (two cards, not split, surrender offered) is taken by
 * the cell's surrender rules when it has any (the first that fires: surrender; none fires: no
 * surrender, whatever the table says), else by the table.  Its play (hit, stand, double, split)
 * is that of the first of the cell's other rules that fires and is open to the hand (double on
 * two cards as the rules allow, split on an unsplit pair; a hand of three or more cards takes
 * hit and stand rules only), else the table's.  A pair takes its pair cell's rules first, then,
 * unless the table splits it, those of its total.
 */
#include "core.h"
#include "rng.h"

#define TC_MAX 20
#define NBINS (2 * TC_MAX + 1)
#define MAX_SHOE 416
#define STRATEGY_SIZE (3 * 440 + 100)
#define INSURE_NEVER 1000
#define DEV_PAIRS 440
#define DEV_CELLS 540
#define DEV_MAX 4
#define DEV_SIZE (1 + 3 * DEV_MAX)

enum { HIT = 0, STAND = 1, DOUBLE = 2, SURRENDER = 3, SPLIT = 4 };

typedef struct {
    uint8_t a[MAX_SHOE];
    int n, pos, start, stacked, ran_out, failed;
    cl_rng rng;
    cl_halves halves;
} bj_shoe;

typedef struct {
    int h17, dbl, das, peek, bj10, surrender, early, insure, split_hands, resplit_aces;
    const uint8_t *first, *fallback, *pair, *hit;
    const int8_t *dev;      /* index plays (DEV_CELLS x DEV_SIZE) or NULL */
    int tc;                 /* this round's true count, clamped to +-TC_MAX */
    long long deviated;     /* decisions made by an index play */
} bj_table;

/* The next card.  A shuffled shoe that runs out mid-round takes its discards back (the cards of
 * this round stay out) and the round goes on; a stacked one fails. */
static inline int bj_draw(bj_shoe *s)
{
    if (CL_UNLIKELY(s->pos >= s->n)) {
        if (s->stacked || s->start == 0) {
            s->failed = 1;
            return 9;
        }
        /* rotate: this round's cards [start, n) to the front, the discards behind them */
        uint8_t keep[MAX_SHOE];
        int t = s->n - s->start;
        memcpy(keep, s->a + s->start, (size_t)t);
        memmove(s->a + t, s->a, (size_t)s->start);
        memcpy(s->a, keep, (size_t)t);
        s->pos = t;
        s->start = 0;
        s->ran_out = 1;
    }
    if (!s->stacked) {
        int j = s->pos + (int)cl_below_half(&s->rng, &s->halves, (uint32_t)(s->n - s->pos));
        uint8_t c = s->a[j];
        s->a[j] = s->a[s->pos];
        s->a[s->pos] = c;
    }
    return s->a[s->pos++];
}

typedef struct {
    int hard, aces, cards;
} bj_hand;

static inline void bj_add(bj_hand *h, int rank)
{
    h->hard += rank + 1;
    h->aces += rank == 0;
    h->cards++;
}

static inline int bj_soft(const bj_hand *h) { return h->aces > 0 && h->hard + 10 <= 21; }
static inline int bj_total(const bj_hand *h) { return bj_soft(h) ? h->hard + 10 : h->hard; }
static inline int bj_at(int soft, int total, int up) { return (soft * 22 + total) * 10 + up; }

static inline int bj_may_double(const bj_table *t, const bj_hand *h, int split)
{
    if (h->cards != 2 || (split && !t->das))
        return 0;
    if (t->dbl == 0)
        return 1;
    int total = bj_total(h);
    return !bj_soft(h) && total >= (t->dbl == 1 ? 9 : 10) && total <= 11;
}

/* The first of a cell's rules that fires at this round's true count, of the surrender rules
 * (surrender 1) or of the others open to the hand (double and split as said): its decision;
 * -1 none fires; -2 (surrender rules only) the cell has some and none fires. */
static int bj_dev(bj_table *t, int cell, int surrender, int may_double, int may_split, int two_cards)
{
    const int8_t *d = t->dev + cell * DEV_SIZE;
    int found = -1;
    for (int i = 0; i < d[0]; i++) {
        const int8_t *r = d + 1 + 3 * i;
        int code = r[2];
        if ((code == SURRENDER) != surrender)
            continue;
        if (surrender)
            found = -2;
        else if ((code == DOUBLE && !may_double) || (code == SPLIT && !may_split)
                 || (!two_cards && code != HIT && code != STAND))
            continue;
        if (r[0] == 0 ? t->tc >= r[1] : t->tc < r[1]) {
            t->deviated++;
            return code;
        }
    }
    return found;
}

/* Whether a hand of two cards surrenders (``pair`` its rank if a pair, else -1; ``code`` the
 * table's decision), surrender being offered. */
static int bj_surrenders(bj_table *t, int cell, int up, int pair, int code)
{
    if (t->dev) {
        int d = pair >= 0 ? bj_dev(t, DEV_PAIRS + pair * 10 + up, 1, 0, 0, 1) : -1;
        if (d == -1 && !(pair >= 0 && code == SPLIT))
            d = bj_dev(t, cell, 1, 0, 0, 1);
        if (d != -1)
            return d == SURRENDER;
    }
    return code == SURRENDER;
}

/* Hit by the three-card rule (and the hit and stand index plays) until it stands, reaches 21
 * or busts. */
static inline void bj_hit_on(bj_table *restrict t, bj_shoe *restrict s, bj_hand *h, int up)
{
    const int8_t *dev = t->dev;
    for (;;) {
        int total = bj_total(h);
        if (total >= 21)
            return;
        int cell = bj_at(bj_soft(h), total, up), code = -1;
        if (dev && dev[cell * DEV_SIZE])
            code = bj_dev(t, cell, 0, 0, 0, 0);
        if (code == -1 ? !t->hit[cell] : code == STAND)
            return;
        bj_add(h, bj_draw(s));
    }
}

/* bj_decide with index plays (``cell`` the hand's, ``code`` the table's decision). */
static int bj_decide_indexed(bj_table *t, const bj_hand *h, int up, int pair, int split, int cell, int code)
{
    int may_double = bj_may_double(t, h, split);
    if (!split) {
        int offered = t->surrender && !t->early;
        if (offered && bj_surrenders(t, cell, up, pair, code))
            return SURRENDER;
    }
    if (code == SURRENDER)
        code = t->fallback[cell] ? HIT : STAND;
    int d = pair >= 0 ? bj_dev(t, DEV_PAIRS + pair * 10 + up, 0, may_double, 1, 1) : -1;
    if (d < 0 && !(pair >= 0 && code == SPLIT))
        d = bj_dev(t, cell, 0, may_double, 0, 1);
    if (d >= 0)
        return d;
    if ((code == DOUBLE && !may_double) || (code == SPLIT && pair < 0))
        return t->fallback[cell] ? HIT : STAND;
    return code;
}

/* The decision on a hand of two cards (``pair``: its rank when it may be split, else -1) by the
 * table and the index plays, open to the hand. */
static inline int bj_decide(bj_table *t, const bj_hand *h, int up, int pair, int split)
{
    int cell = bj_at(bj_soft(h), bj_total(h), up);
    int code = pair >= 0 ? t->pair[pair * 10 + up] : t->first[cell];
    if (CL_UNLIKELY(t->dev != NULL))
        return bj_decide_indexed(t, h, up, pair, split, cell, code);
    switch (code) {
    case DOUBLE:
        return bj_may_double(t, h, split) ? DOUBLE : t->fallback[cell] ? HIT : STAND;
    case SURRENDER:
        return !split && t->surrender && !t->early ? SURRENDER : t->fallback[cell] ? HIT : STAND;
    case SPLIT:
        return pair >= 0 ? SPLIT : t->fallback[cell] ? HIT : STAND;
    default:
        return code;
    }
}

/* Play a two-card hand by its decision ``code``; returns the bet multiplier (1, 2 doubled) or
 * 0 surrendered. */
static inline int bj_play(bj_table *restrict t, bj_shoe *restrict s, bj_hand *h, int up, int code)
{
    switch (code) {
    case SURRENDER:
        return 0;
    case DOUBLE:
        bj_add(h, bj_draw(s));
        return 2;
    case HIT:
        bj_add(h, bj_draw(s));
        bj_hit_on(t, s, h, up);
        return 1;
    default:
        return 1;
    }
}

/* One round; returns the result in tenths of the initial bet (insurance included). */
static int bj_round(bj_table *restrict t, bj_shoe *restrict s, long long *hands, long long *insured)
{
    bj_hand player = {0, 0, 0}, dealer = {0, 0, 0};
    int p1 = bj_draw(s), up = bj_draw(s), p2 = bj_draw(s), hole = bj_draw(s);
    bj_add(&player, p1);
    bj_add(&player, p2);
    bj_add(&dealer, up);
    bj_add(&dealer, hole);
    int player_bj = bj_total(&player) == 21, dealer_bj = bj_total(&dealer) == 21;
    int pair = p1 == p2 ? p1 : -1;
    *hands += 1;
    if (t->early && !player_bj) {
        int cell = bj_at(bj_soft(&player), bj_total(&player), up);
        if (bj_surrenders(t, cell, up, pair, pair >= 0 ? t->pair[pair * 10 + up] : t->first[cell]))
            return -5;
    }
    int result = 0;
    if (up == 0 && t->tc >= t->insure) {  /* half the bet on the hole card, paid 2 to 1 */
        result = dealer_bj ? 10 : -5;
        *insured += 1;
    }
    if (player_bj)
        return result + (dealer_bj ? 0 : t->bj10);
    if (dealer_bj && t->peek)
        return result - 10;
    bj_hand played[4];
    int mult[4], n = 1;
    int code = bj_decide(t, &player, up, pair, 0);
    if (code == SPLIT) {
        int open = 2;  /* hands made from the pair so far; hand i is dealt and played before i + 1 */
        int resplits = p1 != 0 || t->resplit_aces;
        *hands += 1;
        for (n = 0; n < open; n++) {
            bj_hand h = {0, 0, 0};
            bj_add(&h, p1);
            int next = bj_draw(s);
            while (next == p1 && resplits && open < t->split_hands) {  /* the card starts a new hand */
                open++;
                *hands += 1;
                next = bj_draw(s);
            }
            bj_add(&h, next);
            mult[n] = 1;
            if (p1 != 0 && bj_total(&h) != 21)  /* split aces take one card; 21 stands */
                mult[n] = bj_play(t, s, &h, up, bj_decide(t, &h, up, -1, 1));
            played[n] = h;
        }
    } else {
        played[0] = player;
        mult[0] = bj_play(t, s, &played[0], up, code);
    }
    int live = 0;
    for (int i = 0; i < n; i++) {
        if (mult[i] == 0)
            result -= 5;
        else if (bj_total(&played[i]) > 21)
            result -= 10 * mult[i];
        else
            live = 1;
    }
    if (!live)
        return result;
    if (dealer_bj) {  /* no hole card: the dealer's blackjack takes every bet */
        for (int i = 0; i < n; i++)
            if (mult[i] && bj_total(&played[i]) <= 21)
                result -= 10 * mult[i];
        return result;
    }
    for (;;) {
        int d = bj_total(&dealer);
        if (d > 17 || (d == 17 && !(t->h17 && bj_soft(&dealer))))
            break;
        bj_add(&dealer, bj_draw(s));
    }
    int d = bj_total(&dealer);
    for (int i = 0; i < n; i++) {
        if (mult[i] == 0 || bj_total(&played[i]) > 21)
            continue;
        int p = bj_total(&played[i]);
        if (d > 21 || p > d)
            result += 10 * mult[i];
        else if (p < d)
            result -= 10 * mult[i];
    }
    return result;
}

static inline int bj_floor_div(long long a, long long b)
{
    long long q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return (int)q;
}

static PyObject *blackjack_play(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer cards, rules, strategy, tags, spread, state, totals, bins, trace, indexes;
    int stacked, cut, whole_shoes;
    long long rounds;
    if (!PyArg_ParseTuple(args, "y*py*y*y*y*iLpy*w*w*w*y*", &cards, &stacked, &rules, &strategy, &tags, &spread,
                          &cut, &rounds, &whole_shoes, &state, &totals, &bins, &trace, &indexes))
        return NULL;
    int failed = 0;
    CL_FAIL_IF(cards.len < 1 || cards.len > MAX_SHOE, "blackjack_play: the shoe holds 1 to 416 cards");
    CL_FAIL_IF(rules.len != 10 * 4 || strategy.len != STRATEGY_SIZE || tags.len != 10 || spread.len != NBINS * 4
               || state.len != 32 || totals.len != 11 * 8 || bins.len != 3 * NBINS * 8
               || (indexes.len != 0 && indexes.len != DEV_CELLS * DEV_SIZE),
               "blackjack_play: a buffer has the wrong size");
    CL_FAIL_IF(rounds < 0 || rounds > 100000000 || cut < 0 || cut > cards.len, "blackjack_play: rounds or cut out of range");
    CL_FAIL_IF(trace.len != 0 && (!stacked || trace.len != rounds * 5 * 8), "blackjack_play: bad trace buffer");
    const uint8_t *c = cards.buf;
    for (Py_ssize_t i = 0; i < cards.len; i++)
        CL_FAIL_IF(c[i] > 9, "blackjack_play: a card code is not 0..9");
    const int32_t *r = rules.buf;
    CL_FAIL_IF(r[1] < 0 || r[1] > 2 || (r[4] != 15 && r[4] != 12) || r[7] < -TC_MAX || r[7] > INSURE_NEVER
               || r[8] < 2 || r[8] > 4 || r[9] < 0 || r[9] > 1, "blackjack_play: bad rules");
    const int8_t *dv = indexes.len ? indexes.buf : NULL;
    for (int cell = 0; dv && cell < DEV_CELLS; cell++) {
        const int8_t *d = dv + cell * DEV_SIZE;
        CL_FAIL_IF(d[0] < 0 || d[0] > DEV_MAX, "blackjack_play: bad index plays");
        for (int i = 0; i < d[0]; i++)
            CL_FAIL_IF(d[1 + 3 * i] < 0 || d[1 + 3 * i] > 1 || d[2 + 3 * i] < -TC_MAX || d[2 + 3 * i] > TC_MAX
                       || d[3 + 3 * i] < 0 || d[3 + 3 * i] > SPLIT, "blackjack_play: bad index plays");
    }
    const uint8_t *st = strategy.buf;
    for (int i = 0; i < STRATEGY_SIZE; i++)
        CL_FAIL_IF(st[i] > 4, "blackjack_play: a strategy code is not 0..4");
    const int32_t *bet = spread.buf;
    for (int i = 0; i < NBINS; i++)
        CL_FAIL_IF(bet[i] < 1 || bet[i] > 1000, "blackjack_play: a bet is not 1..1000");

    bj_table t = {r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], st, st + 440, st + 880, st + 980, dv, 0, 0};
    const int8_t *tag = tags.buf;
    int64_t *tot = totals.buf, *bin = bins.buf, *tr = trace.len ? trace.buf : NULL;
    bj_shoe *s = malloc(sizeof *s);
    CL_FAIL_IF(s == NULL, "blackjack_play: out of memory");
    s->n = (int)cards.len;
    memcpy(s->a, c, (size_t)s->n);
    s->pos = s->start = 0;
    s->stacked = stacked;
    s->failed = 0;
    s->ran_out = 0;
    cl_rng_seed(&s->rng, state.buf);
    s->halves.halves = 0;
    s->halves.word = 0;

    Py_BEGIN_ALLOW_THREADS
    long long rc = 0, played = 0, hands = 0, shoes = 1, ran_out = 0, sum_bet = 0;
    long long won = 0, won2 = 0, flat = 0, flat2 = 0, insured = 0;
    for (;;) {
        int reshuffle = !stacked && (s->pos >= cut || s->pos >= s->n || s->ran_out);
        if (played >= rounds && (!whole_shoes || stacked || reshuffle || cut == 0))
            break;
        if (reshuffle && played > 0) {
            s->pos = 0;
            rc = 0;
            s->ran_out = 0;
            shoes++;
        }
        int left = s->n - s->pos;
        int tc = left > 0 ? bj_floor_div(rc * 52, left) : 0;
        int b = tc < -TC_MAX ? 0 : tc > TC_MAX ? NBINS - 1 : tc + TC_MAX;
        long long units = bet[b];
        s->start = s->pos;
        t.tc = b - TC_MAX;
        int net = bj_round(&t, s, &hands, &insured);
        if (s->failed) {
            failed = 1;
            break;
        }
        long long before = rc;
        for (int i = s->start; i < s->pos; i++)
            rc += tag[s->a[i]];
        if (tr) {
            int64_t *row = tr + played * 5;
            row[0] = before;
            row[1] = tc;
            row[2] = units;
            row[3] = net;
            row[4] = s->pos - s->start;
        }
        ran_out += s->ran_out;
        played++;
        sum_bet += units;
        won += units * net;
        won2 += units * net * units * net;
        flat += net;
        flat2 += (long long)net * net;
        bin[b] += 1;
        bin[NBINS + b] += net;
        bin[2 * NBINS + b] += (long long)net * net;
    }
    tot[0] += played;
    tot[1] += sum_bet;
    tot[2] += won;
    tot[3] += won2;
    tot[4] += flat;
    tot[5] += flat2;
    tot[6] += hands;
    tot[7] += shoes;
    tot[8] += ran_out;
    tot[9] += insured;
    tot[10] += t.deviated;
    Py_END_ALLOW_THREADS
    free(s);
    CL_FAIL_IF(failed, "blackjack_play: the shoe ran out of cards in a round");
done:
    return CL_RELEASE_NONE(&cards, &rules, &strategy, &tags, &spread, &state, &totals, &bins, &trace, &indexes);
}

CL_METHODS(blackjack_sim,
           CL_METHOD(blackjack_play, "Blackjack rounds from a shoe by a table strategy: totals, per true count bins, "
                                     "an optional trace (csrc/blackjack_sim.c)."));
