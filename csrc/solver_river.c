/* The river solver's engine: Discounted CFR over a betting tree, vectorised over the combos.
 * The wrapper is cardlab.solver.engine (the tree and the hands are built and checked there).
 *
 * Method: Discounted CFR (N. Brown and T. Sandholm, "Solving Imperfect-Information Games via
 * Discounted Regret Minimization", AAAI 2019) with their recommended alpha = 1.5, beta = 0,
 * gamma = 2 and alternating updates (gamma 3, b-inary's postflop-solver's choice, was measured
 * and not kept: docs/solver.md). Every decision node holds, per action and per combo of the
 * acting player, a regret and a strategy sum; one walk of the tree for player i carries the
 * opponent's reach of each of its combos down and brings back the counterfactual value of each
 * of i's combos.
 *
 * Precision: the regrets and strategy sums are stored as 4-byte floats (cell_t: half the memory
 * and memory traffic of doubles, as the fast open solvers do); everything computed from them is
 * double: the strategy played, the reaches, the values and their sums within a walk, the updates
 * before they are rounded into the tables, and the best response. The exploitability is thus
 * that of the strategy the 4-byte sums hold, computed in double: the rounding is certified too.
 * A regret whose size falls below FLT_MIN is stored as 0 (DCFR halves negative regrets every
 * iteration, and subnormal numbers are slow to compute with).
 *
 * Terminal values in O(n) per node (the usual blocker-aware technique): with both players'
 * combos sorted by strength, one sweep accumulates the opponent's reach of the weaker combos in
 * total and per card; a combo's "wins" are the total minus the reach of the combos holding one
 * of its two cards (a combo holding both is the same combo: equal strength, never weaker). The
 * same sweep, carried past the ties and to the end, gives the losses (see showdown), and a fold
 * node needs only the totals.
 *
 * A turn spot adds chance nodes: each child deals one river card, whose combos drop out, and
 * the showdowns below it read that board's strengths (one table of hand rows per river card).
 * A flop spot nests them (the turn card, then the river card; a table per pair of cards). Suit
 * isomorphism: a child of kind ISO deals a card that a suit permutation maps its representative
 * sibling onto; only the representative is walked, and its values reach each ISO card's combos
 * through the permutation's combo rows (cardlab.solver.suits).
 *
 * The tables (int32 rows, checked here once per call):
 *   nodes  n_nodes x 8: kind (0 decision, 1 fold, 2 showdown, 3 chance, 4 ISO), first child (in
 *          children; an ISO node: its representative sibling), number of children, offset of
 *          the node's rows in regrets/strategy sums (a chance node: its slot for the threaded
 *          walks if no chance node is above it, else -1; an ISO node: the offset in children of
 *          its permutation's rows, n0 + n1 combo indexes, OOP's then IP's), player (who acts; at
 *          a fold node who folded), locked (1: play the strategy sums as given), board (the table
 *          of hand rows its showdowns read), card (a chance node's child: the card it deals plus
 *          1); a child's index is above its parent's (pre-order).
 *   amount per node: at a terminal, what the winner takes from the loser (chips); at a chance
 *          node the probability of each card (1 / the cards left beside both hands). It may go
 *          on with a second row, each terminal's rake: the house's cut of the pot the two put in,
 *          so the winner takes amount - rake from the loser, and a tie costs each rake / 2.
 *   hands  boards x (n0 + n1) x 5: card, card (0..63: ids above 51 are private marks, for toy
 *          games), strength on that board (higher wins), the index of the same two cards among
 *          the other player's combos (-1: none), and in the k-th row of each player the index of
 *          its k-th weakest. The cards and the indexes of the same combos are board 0's.
 */
#include "core.h"

#include <float.h>
#include <math.h>
#include <string.h>

enum { DECISION = 0, FOLD = 1, SHOWDOWN = 2, CHANCE = 3, ISO = 4 };
enum { K_KIND, K_FIRST, K_COUNT, K_OFFSET, K_PLAYER, K_LOCKED, K_BOARD, K_CARD, NODE_WIDTH };
enum { MODE_CFR = 0, MODE_AVERAGE = 1, MODE_BEST = 2, MODE_SHOWDOWN = 3, MODE_COMPATIBLE = 4 };
#define HAND_WIDTH 5
#define CARD_SLOTS 64
#define MAX_ACTIONS 64
#define MAX_DEPTH 256 /* the walk recurses once a level */
#define MAX_BOARDS 1327 /* a table per pair of turn and river cards, and one */
#define MAX_PERMS 24
#define MAX_COMBOS 4096 /* a player's combos (the strategy's scratch row) */
/* Bounds on a terminal's amount (or rake) and a combo's weight: with at most 4096 combos a player
 * and 10^9 iterations, no regret or strategy sum can overflow a 4-byte float (3.4e38). */
#define MAX_CHIPS 1e12
#define MAX_WEIGHT 1e12

typedef float cell_t; /* a regret or a strategy sum */

typedef struct {
    const int32_t *nodes;
    const int32_t *children;
    const double *amount;
    const double *rake;      /* NULL: no rake */
    const int32_t *hands[2]; /* board 0's rows of each player */
    const double *weights[2];
    int n[2];
    int boards;              /* tables of hand rows: board b's rows are hands + b * (n0 + n1) rows */
    cell_t *regrets;
    cell_t *sums;
    double *arena;
    size_t top;
    int traverser;
    int mode;
    double positive, negative, average; /* this iteration's discounts */
    int phase;        /* 0 the whole walk; 1 stop at chance nodes and keep their reaches; 2 read their values */
    int chances;      /* chance nodes (a chance node's offset is its slot, 0 .. chances - 1) */
    double *slots;    /* per slot: the traverser's reach, the opponent's, the values (n_i, n_o, n_i) */
} walk_t;

/* The discounts of Discounted CFR's iteration t (alpha 1.5, beta 0, gamma 2). */
static void set_discounts(walk_t *w, int t)
{
    double before = (double)(t - 1), grown = pow(before, 1.5);
    w->positive = grown / (grown + 1.0);
    w->negative = 0.5;
    w->average = pow(before / (double)t, 2.0);
}

/* The slot of chance node ``node`` for the traverser: its reach, the opponent's, its values. */
static double *slot_of(const walk_t *w, const int32_t *node)
{
    int ni = w->n[w->traverser], no = w->n[1 - w->traverser];
    return w->slots + (size_t)node[K_OFFSET] * (size_t)(2 * ni + no);
}

static double *push(walk_t *w, size_t count)
{
    double *block = w->arena + w->top;
    w->top += count;
    return block;
}

/* out[h] = amount * (reach of the opponent's weaker combos - reach of its stronger ones), each
 * without the combos sharing a card with h. One sweep up both sorted lists: before each group of
 * h of equal strength it holds the weaker combos (the wins W), after it the weaker or equal ones
 * (E); at the end all of them (C), and the losses are C - E. The same combo (both cards of h:
 * equal strength) is in E and C alike, so the blocker corrections sum - card[h0] - card[h1]
 * over-subtract it equally in both and it cancels from C - E. */
static void showdown(const walk_t *w, int board, const double *r_opp, double amount, double *out)
{
    int i = w->traverser, o = 1 - i;
    size_t skip = (size_t)HAND_WIDTH * (size_t)board * (size_t)(w->n[0] + w->n[1]);
    const int32_t *me = w->hands[i] + skip, *op = w->hands[o] + skip;
    int ni = w->n[i], no = w->n[o];
    double card[CARD_SLOTS], wins[MAX_COMBOS], sum = 0.0;
    memset(card, 0, sizeof card);
    int j = 0;
    for (int k = 0; k < ni;) {
        int32_t strength = me[HAND_WIDTH * me[HAND_WIDTH * k + 4] + 2], end = k;
        for (int pass = 0; pass < 2; pass++) {
            /* pass 0: take in the weaker combos, note the wins; pass 1: the equal ones, note E */
            while (j < no) {
                int index = op[HAND_WIDTH * j + 4];
                const int32_t *q = op + HAND_WIDTH * index;
                if (pass ? q[2] > strength : q[2] >= strength)
                    break;
                double p = r_opp[index];
                sum += p;
                card[q[0]] += p;
                card[q[1]] += p;
                j++;
            }
            for (end = k; end < ni; end++) {
                int index = me[HAND_WIDTH * end + 4];
                const int32_t *h = me + HAND_WIDTH * index;
                if (h[2] != strength)
                    break;
                (pass ? out : wins)[index] = sum - card[h[0]] - card[h[1]];
            }
        }
        k = end;
    }
    for (; j < no; j++) {
        int index = op[HAND_WIDTH * j + 4];
        const int32_t *q = op + HAND_WIDTH * index;
        double p = r_opp[index];
        sum += p;
        card[q[0]] += p;
        card[q[1]] += p;
    }
    for (int h = 0; h < ni; h++) {
        const int32_t *row = me + HAND_WIDTH * h;
        out[h] = amount * (wins[h] - (sum - card[row[0]] - card[row[1]] - out[h]));
    }
}

/* out[h] = amount * (the opponent's reach of the combos sharing no card with h). */
static void compatible(const walk_t *w, const double *r_opp, double amount, double *out)
{
    int i = w->traverser, o = 1 - i;
    const int32_t *me = w->hands[i], *op = w->hands[o];
    double card[CARD_SLOTS], total = 0.0;
    memset(card, 0, sizeof card);
    for (int q = 0; q < w->n[o]; q++) {
        total += r_opp[q];
        card[op[HAND_WIDTH * q]] += r_opp[q];
        card[op[HAND_WIDTH * q + 1]] += r_opp[q];
    }
    for (int h = 0; h < w->n[i]; h++) {
        const int32_t *row = me + HAND_WIDTH * h;
        double same = row[3] >= 0 ? r_opp[row[3]] : 0.0;
        out[h] = amount * (total - card[row[0]] - card[row[1]] + same);
    }
}

/* The strategy played at a decision node: regret matching in CFR (unless locked), else the
 * normalised strategy sums; uniform where there is nothing to go by. Row by row (one action's
 * combos at a time), each loop simple enough for the compiler to vectorise: a row's positive
 * parts in 4 bytes, then widened; each combo's total turned into a factor (1 / total, or 0 and
 * the uniform share where the total is 0). */
static void strategy(const walk_t *w, const int32_t *node, int np, double *sigma)
{
    int actions = node[K_COUNT];
    int current = w->mode == MODE_CFR && !node[K_LOCKED];
    const cell_t *table = (current ? w->regrets : w->sums) + node[K_OFFSET];
    double scale[MAX_COMBOS], fill[MAX_COMBOS];
    cell_t plus[MAX_COMBOS];
    for (int h = 0; h < np; h++)
        scale[h] = 0.0;
    for (int a = 0; a < actions; a++) {
        const cell_t *row = table + (size_t)a * np;
        for (int h = 0; h < np; h++)
            plus[h] = row[h] > 0.0f ? row[h] : 0.0f;
        for (int h = 0; h < np; h++)
            scale[h] += (double)plus[h];
    }
    double even = 1.0 / actions;
    for (int h = 0; h < np; h++) {
        double total = scale[h];
        fill[h] = total > 0.0 ? 0.0 : even;
        scale[h] = 1.0 / (total > 0.0 ? total : 1.0);
    }
    for (int a = 0; a < actions; a++) {
        const cell_t *row = table + (size_t)a * np;
        double *out = sigma + (size_t)a * np;
        for (int h = 0; h < np; h++)
            plus[h] = row[h] > 0.0f ? row[h] : 0.0f;
        for (int h = 0; h < np; h++)
            out[h] = (double)plus[h] * scale[h] + fill[h];
    }
}

static void walk(walk_t *w, int index, const double *r_own, const double *r_opp, double *out);

/* A chance node: each child deals one card; the combos holding it drop out, and each child counts
 * amount[node] (1 / the cards possible). An ISO child takes its representative's values, each
 * combo's value going to the combo the permutation maps it to. */
static void deal(walk_t *w, int index, const double *r_own, const double *r_opp, double *out)
{
    const int32_t *node = w->nodes + (size_t)NODE_WIDTH * index;
    int i = w->traverser, o = 1 - i, ni = w->n[i], no = w->n[o];
    size_t mark = w->top;
    double *own = push(w, (size_t)ni), *opp = push(w, (size_t)no), *values = push(w, (size_t)ni);
    double share = w->amount[index];
    memset(out, 0, sizeof(double) * (size_t)ni);
    for (int a = 0; a < node[K_COUNT]; a++) {
        int kid = w->children[node[K_FIRST] + a];
        if (w->nodes[(size_t)NODE_WIDTH * kid + K_KIND] == ISO)
            continue;
        int card = w->nodes[(size_t)NODE_WIDTH * kid + K_CARD] - 1;
        for (int h = 0; h < ni; h++) {
            const int32_t *row = w->hands[i] + HAND_WIDTH * h;
            own[h] = row[0] == card || row[1] == card ? 0.0 : r_own[h];
        }
        for (int q = 0; q < no; q++) {
            const int32_t *row = w->hands[o] + HAND_WIDTH * q;
            opp[q] = row[0] == card || row[1] == card ? 0.0 : r_opp[q];
        }
        walk(w, kid, own, opp, values);
        for (int h = 0; h < ni; h++) {
            const int32_t *row = w->hands[i] + HAND_WIDTH * h;
            if (row[0] != card && row[1] != card)
                out[h] += share * values[h];
        }
        for (int b = a + 1; b < node[K_COUNT]; b++) {
            const int32_t *twin = w->nodes + (size_t)NODE_WIDTH * w->children[node[K_FIRST] + b];
            if (twin[K_KIND] != ISO || twin[K_FIRST] != kid)
                continue;
            const int32_t *image = w->children + twin[K_OFFSET] + (i ? w->n[0] : 0);
            for (int h = 0; h < ni; h++) {
                const int32_t *row = w->hands[i] + HAND_WIDTH * h;
                if (row[0] != card && row[1] != card)
                    out[image[h]] += share * values[h];
            }
        }
    }
    w->top = mark;
}

static void walk(walk_t *w, int index, const double *r_own, const double *r_opp, double *out)
{
    const int32_t *node = w->nodes + (size_t)NODE_WIDTH * index;
    int i = w->traverser, ni = w->n[i];
    if (node[K_KIND] == FOLD) {
        double rake = w->rake ? w->rake[index] : 0.0;
        compatible(w, r_opp, node[K_PLAYER] == i ? -w->amount[index] : w->amount[index] - rake, out);
        return;
    }
    if (node[K_KIND] == SHOWDOWN) {
        double half = w->rake ? w->rake[index] / 2.0 : 0.0;
        /* (amount - rake) W - amount L - rake / 2 (C - W - L) = (amount - rake / 2) (W - L) - rake / 2 C */
        showdown(w, node[K_BOARD], r_opp, w->amount[index] - half, out);
        if (half > 0.0) {
            size_t mark = w->top;
            double *shared = push(w, (size_t)ni);
            compatible(w, r_opp, half, shared);
            for (int h = 0; h < ni; h++)
                out[h] -= shared[h];
            w->top = mark;
        }
        return;
    }
    if (node[K_KIND] == CHANCE) {
        int no = w->n[1 - i];
        double *slot = w->phase ? slot_of(w, node) : NULL;
        if (w->phase == 1) {
            memcpy(slot, r_own, sizeof(double) * (size_t)ni);
            memcpy(slot + ni, r_opp, sizeof(double) * (size_t)no);
            memset(out, 0, sizeof(double) * (size_t)ni);
        } else if (w->phase == 2) {
            memcpy(out, slot + ni + no, sizeof(double) * (size_t)ni);
        } else {
            deal(w, index, r_own, r_opp, out);
        }
        return;
    }
    size_t mark = w->top;
    int actions = node[K_COUNT], p = node[K_PLAYER], np = w->n[p];
    const int32_t *kids = w->children + node[K_FIRST];
    double *sigma = push(w, (size_t)actions * np);
    /* a best responder's own strategy is not needed: its value is the best action's, and its own
     * reach (passed on unchanged) enters no value */
    int best = p == i && w->mode == MODE_BEST && !node[K_LOCKED];
    if (!best)
        strategy(w, node, np, sigma);
    if (p == i) {
        double *values = push(w, (size_t)actions * ni), *reach = push(w, (size_t)ni);
        for (int a = 0; a < actions; a++) {
            for (int h = 0; h < ni && !best; h++)
                reach[h] = r_own[h] * sigma[(size_t)a * ni + h];
            walk(w, kids[a], best ? r_own : reach, r_opp, values + (size_t)a * ni);
        }
        if (best) {
            memcpy(out, values, sizeof(double) * (size_t)ni);
            for (int a = 1; a < actions; a++) {
                const double *x = values + (size_t)a * ni;
                for (int h = 0; h < ni; h++)
                    out[h] = x[h] > out[h] ? x[h] : out[h];
            }
        } else {
            for (int h = 0; h < ni; h++)
                out[h] = 0.0;
            for (int a = 0; a < actions; a++) {
                const double *x = values + (size_t)a * ni, *s = sigma + (size_t)a * ni;
                for (int h = 0; h < ni; h++)
                    out[h] += s[h] * x[h];
            }
        }
        if (w->mode == MODE_CFR && !node[K_LOCKED] && w->phase != 1) {
            double positive = w->positive, negative = w->negative, average = w->average;
            for (int a = 0; a < actions; a++) {
                size_t row = (size_t)a * ni;
                cell_t *regret = w->regrets + node[K_OFFSET] + row, *sum = w->sums + node[K_OFFSET] + row;
                const double *x = values + row, *s = sigma + row;
                /* two loops: the regrets and the sums are both 4-byte rows, and apart the compiler
                 * vectorises each without checking that they overlap */
                for (int h = 0; h < ni; h++) {
                    double r = regret[h];
                    cell_t next = (cell_t)(r * (r > 0.0 ? positive : negative) + x[h] - out[h]);
                    regret[h] = fabsf(next) < FLT_MIN ? 0.0f : next;
                }
                for (int h = 0; h < ni; h++)
                    sum[h] = (cell_t)((double)sum[h] * average + r_own[h] * s[h]);
            }
        }
    } else {
        double *reach = push(w, (size_t)np), *values = push(w, (size_t)ni);
        memset(out, 0, sizeof(double) * (size_t)ni);
        for (int a = 0; a < actions; a++) {
            int any = 0;
            for (int q = 0; q < np; q++) {
                reach[q] = r_opp[q] * sigma[(size_t)a * np + q];
                any |= reach[q] != 0.0;
            }
            if (!any && w->mode != MODE_CFR)
                continue; /* nothing reaches it; in CFR the traverser's sums below still age */
            walk(w, kids[a], r_own, reach, values);
            for (int h = 0; h < ni; h++)
                out[h] += values[h];
        }
    }
    w->top = mark;
}

/* Check the tables (see the head of the file) and size the arena; 0 when they are sound. */
static int check_tables(walk_t *w, Py_ssize_t n_nodes, Py_ssize_t n_children, Py_ssize_t n_amount,
                        Py_ssize_t n_rows, Py_ssize_t n_weights, Py_ssize_t n_table, int n0)
{
    if (n_nodes < 1 || (n_amount != n_nodes && n_amount != 2 * n_nodes) || n0 < 1 || n0 >= n_weights || n_weights > 1 << 20
        || n_rows % n_weights || n_rows / n_weights > MAX_BOARDS)
        return 1;
    w->n[0] = n0;
    w->n[1] = (int)(n_weights - n0);
    if (w->n[0] > MAX_COMBOS || w->n[1] > MAX_COMBOS)
        return 1;
    w->boards = (int)(n_rows / n_weights);
    int *depth = calloc((size_t)n_nodes, sizeof(int)), *seen = calloc((size_t)n_weights, sizeof(int));
    char *below = calloc((size_t)n_nodes, 1); /* a chance node is above it */
    int bad = depth == NULL || seen == NULL || below == NULL, deepest = 0, widest = 1, perms = 0;
    Py_ssize_t used = 0; /* the end of the last decision node's rows: the tables' size exactly */
    int32_t checked[MAX_PERMS];
    for (Py_ssize_t x = 0; x < n_nodes && !bad; x++) {
        const int32_t *node = w->nodes + NODE_WIDTH * x;
        int kind = node[K_KIND], p = node[K_PLAYER];
        bad |= kind < 0 || kind > 4 || ((kind == DECISION || kind == FOLD) && (p < 0 || p > 1))
            || !(fabs(w->amount[x]) <= MAX_CHIPS) || node[K_BOARD] < 0 || node[K_BOARD] >= w->boards
            || (n_amount > n_nodes && !(w->amount[n_nodes + x] >= 0.0 && w->amount[n_nodes + x] <= MAX_CHIPS));
        if (n_amount > n_nodes)
            w->rake = w->amount + n_nodes;
        if (!bad && kind == ISO) {
            int known = 0;
            bad |= node[K_FIRST] < 0 || node[K_FIRST] >= x || w->nodes[NODE_WIDTH * node[K_FIRST] + K_KIND] == ISO
                || node[K_OFFSET] < 0 || (Py_ssize_t)node[K_OFFSET] > n_children - n_weights;
            for (int k = 0; k < perms && !bad; k++)
                known |= checked[k] == node[K_OFFSET];
            if (!bad && !known) {
                bad |= perms == MAX_PERMS;
                if (!bad)
                    checked[perms++] = node[K_OFFSET];
                for (Py_ssize_t h = 0; h < n_weights && !bad; h++) {
                    int32_t to = w->children[node[K_OFFSET] + h];
                    bad |= to < 0 || to >= w->n[h < n0 ? 0 : 1];
                }
            }
        }
        if (bad || kind == FOLD || kind == SHOWDOWN || kind == ISO)
            continue;
        int count = node[K_COUNT], limit = kind == CHANCE ? 52 : MAX_ACTIONS;
        bad |= count < 1 || count > limit || node[K_FIRST] < 0 || node[K_FIRST] > n_children - count;
        if (kind == DECISION) {
            Py_ssize_t end = (Py_ssize_t)node[K_OFFSET] + (Py_ssize_t)count * w->n[p];
            bad |= node[K_OFFSET] < 0 || end > n_table;
            used = end > used ? end : used;
        }
        else
            bad |= node[K_OFFSET] != (below[x] ? -1 : w->chances++);
        for (int a = 0; a < count && !bad; a++) {
            int32_t kid = w->children[node[K_FIRST] + a];
            bad |= kid <= x || kid >= n_nodes;
            if (!bad) {
                depth[kid] = depth[x] + 1;
                below[kid] = below[x] || kind == CHANCE;
                int card = w->nodes[NODE_WIDTH * kid + K_CARD];
                bad |= depth[kid] > MAX_DEPTH || (kind == CHANCE && (card < 1 || card > CARD_SLOTS))
                    || (kind != CHANCE && w->nodes[NODE_WIDTH * kid + K_KIND] == ISO);
            }
        }
        deepest = depth[x] > deepest ? depth[x] : deepest;
        widest = kind == DECISION && count > widest ? count : widest;
    }
    for (int b = 0; b < w->boards && !bad; b++) {
        memset(seen, 0, sizeof(int) * (size_t)n_weights);
        for (int p = 0; p < 2 && !bad; p++) {
            const int32_t *rows = w->hands[p] + (size_t)HAND_WIDTH * (size_t)b * (size_t)n_weights;
            for (int h = 0; h < w->n[p] && !bad; h++) {
                const int32_t *row = rows + HAND_WIDTH * h;
                bad |= row[0] < 0 || row[0] >= CARD_SLOTS || row[1] < 0 || row[1] >= CARD_SLOTS || row[0] == row[1]
                    || row[3] < -1 || row[3] >= w->n[1 - p] || row[4] < 0 || row[4] >= w->n[p]
                    || !(w->weights[p][h] >= 0.0 && w->weights[p][h] <= MAX_WEIGHT);
                if (bad)
                    break;
                int k = row[4];
                bad |= seen[(p ? n0 : 0) + k]++ != 0;
                if (h > 0 && !bad)
                    bad |= rows[HAND_WIDTH * rows[HAND_WIDTH * (h - 1) + 4] + 2] > rows[HAND_WIDTH * k + 2];
            }
        }
    }
    free(depth);
    free(seen);
    free(below);
    if (bad || used != n_table)
        return 1;
    int most = w->n[0] > w->n[1] ? w->n[0] : w->n[1];
    size_t cells = (size_t)(deepest + 2) * (size_t)(2 * (widest < 3 ? 3 : widest) + 2) * (size_t)most;
    w->arena = malloc(sizeof(double) * cells);
    w->top = 0;
    return w->arena == NULL;
}

typedef struct {
    Py_buffer nodes, children, amount, hands, weights, regrets, sums;
} views_t;

/* Parse the seven shared buffers and check them; 0 on success (else an exception is set). */
static int open_tables(PyObject *args, const char *format, views_t *v, walk_t *w, int *n0, int *a, int *b,
                       Py_buffer *extra)
{
    memset(w, 0, sizeof *w);
    int ok = extra ? PyArg_ParseTuple(args, format, &v->nodes, &v->children, &v->amount, &v->hands, &v->weights,
                                      n0, &v->regrets, &v->sums, a, b, extra)
           : a    ? PyArg_ParseTuple(args, format, &v->nodes, &v->children, &v->amount, &v->hands, &v->weights,
                                      n0, &v->regrets, &v->sums, a, b)
                  : PyArg_ParseTuple(args, format, &v->nodes, &v->children, &v->amount, &v->hands, &v->weights,
                                      n0, &v->regrets, &v->sums);
    if (!ok)
        return 1;
    w->nodes = v->nodes.buf;
    w->children = v->children.buf;
    w->amount = v->amount.buf;
    w->hands[0] = v->hands.buf;
    w->hands[1] = (const int32_t *)v->hands.buf + (size_t)HAND_WIDTH * (*n0 > 0 ? *n0 : 0);
    w->weights[0] = v->weights.buf;
    w->weights[1] = (const double *)v->weights.buf + (*n0 > 0 ? *n0 : 0);
    w->regrets = v->regrets.buf;
    w->sums = v->sums.buf;
    int bad = v->nodes.len % (NODE_WIDTH * 4) || v->hands.len % (HAND_WIDTH * 4) || v->regrets.len != v->sums.len
        || v->weights.len % 8 || v->children.len % 4 || v->amount.len % 8 || v->regrets.len % (Py_ssize_t)sizeof(cell_t)
        || check_tables(w, v->nodes.len / (NODE_WIDTH * 4), v->children.len / 4, v->amount.len / 8,
                        v->hands.len / (HAND_WIDTH * 4), v->weights.len / 8,
                        v->regrets.len / (Py_ssize_t)sizeof(cell_t), *n0);
    if (bad)
        PyErr_SetString(PyExc_ValueError, "solver tables are malformed");
    return bad;
}

/* solver_iterate(nodes, children, amount, hands, weights, n0, regrets, sums, first, count):
 * iterations first+1 .. first+count of Discounted CFR, each a walk for player 0 then player 1. */
static PyObject *solver_iterate(PyObject *self, PyObject *args)
{
    (void)self;
    views_t v = {0};
    walk_t w;
    int n0 = 0, first = 0, count = 0;
    if (open_tables(args, "y*y*y*y*y*iw*w*ii", &v, &w, &n0, &first, &count, NULL))
        goto done;
    CL_FAIL_IF(first < 0 || count < 0, "iterations are counted from 0 up");
    Py_BEGIN_ALLOW_THREADS
    int most = w.n[0] > w.n[1] ? w.n[0] : w.n[1];
    double *out = malloc(sizeof(double) * (size_t)most);
    for (int t = first + 1; out != NULL && t <= first + count; t++) {
        set_discounts(&w, t);
        w.mode = MODE_CFR;
        for (int i = 0; i < 2; i++) {
            w.traverser = i;
            w.top = 0;
            walk(&w, 0, w.weights[i], w.weights[1 - i], out);
        }
    }
    free(out);
    Py_END_ALLOW_THREADS
done:
    free(w.arena);
    return CL_RELEASE_NONE(&v.nodes, &v.children, &v.amount, &v.hands, &v.weights, &v.regrets, &v.sums);
}

/* The slots buffer of a kernel: (2 n_i + n_o) doubles per chance node. */
static int check_slots(walk_t *w, const Py_buffer *slots, int traverser)
{
    if (traverser < 0 || traverser > 1 || w->chances < 1
        || slots->len != (Py_ssize_t)sizeof(double) * w->chances * (2 * w->n[traverser] + w->n[1 - traverser])) {
        PyErr_SetString(PyExc_ValueError, "the slots hold each chance node's reaches and values");
        return 1;
    }
    w->traverser = traverser;
    w->slots = slots->buf;
    return 0;
}

/* solver_step(nodes, children, amount, hands, weights, n0, regrets, sums, traverser, t, phase, slots
 * [, mode, out]): one half of a walk from the root for the traverser when the chance nodes'
 * subtrees are walked apart (on threads, by solver_deal): phase 1 walks down to the chance nodes
 * and keeps the reaches there in the slots (updating nothing); phase 2 walks again and reads each
 * chance node's values from its slot. In mode 0 (CFR, the default) it is iteration t's walk, and
 * phase 2 updates the regrets and strategy sums above the chance nodes; in mode 1 (average play)
 * or 2 (best response) t is ignored and phase 2 writes the root's value of each of the
 * traverser's combos into ``out`` (as solver_values would). */
static PyObject *solver_step(PyObject *self, PyObject *args)
{
    (void)self;
    views_t v = {0};
    Py_buffer slots = {0}, given = {0};
    walk_t w;
    int n0 = 0, traverser = 0, t = 0, phase = 0, mode = MODE_CFR;
    PyObject *head = PyTuple_GetSlice(args, 0, 8), *tail = PyTuple_GetSlice(args, 8, PyTuple_GET_SIZE(args));
    memset(&w, 0, sizeof w);
    if (head == NULL || tail == NULL || open_tables(head, "y*y*y*y*y*iw*w*", &v, &w, &n0, NULL, NULL, NULL)
        || !PyArg_ParseTuple(tail, "iiiw*|iw*", &traverser, &t, &phase, &slots, &mode, &given)
        || check_slots(&w, &slots, traverser))
        goto done;
    CL_FAIL_IF(t < 1 || (phase != 1 && phase != 2), "t counts from 1; the phase is 1 or 2");
    CL_FAIL_IF(mode < MODE_CFR || mode > MODE_BEST || (given.buf != NULL) != (mode != MODE_CFR)
               || (given.buf != NULL && given.len != (Py_ssize_t)sizeof(double) * w.n[traverser]),
               "mode 0 (CFR) takes no out; modes 1 and 2 a value per combo of the traverser");
    Py_BEGIN_ALLOW_THREADS
    double *out = given.buf != NULL ? given.buf : malloc(sizeof(double) * (size_t)w.n[traverser]);
    set_discounts(&w, t);
    w.mode = mode;
    w.phase = phase;
    if (out != NULL)
        walk(&w, 0, w.weights[traverser], w.weights[1 - traverser], out);
    if (given.buf == NULL)
        free(out);
    Py_END_ALLOW_THREADS
done:
    Py_XDECREF(head);
    Py_XDECREF(tail);
    free(w.arena);
    return CL_RELEASE_NONE(&v.nodes, &v.children, &v.amount, &v.hands, &v.weights, &v.regrets, &v.sums, &slots,
                           &given);
}

/* solver_deal(nodes, children, amount, hands, weights, n0, regrets, sums, traverser, t, slots,
 * units, values, cursor[, mode]): the subtrees below the chance nodes for iteration t (mode 0,
 * CFR, the default) or for the average play (1) or the best response (2), one unit (a chance
 * node, a child) at a time from the shared cursor (an int64), so several threads share them; a
 * unit's row of values is the child's value of each combo times its chance, 0 for the combos
 * holding its card. */
static PyObject *solver_deal(PyObject *self, PyObject *args)
{
    (void)self;
    views_t v = {0};
    Py_buffer slots = {0}, units = {0}, values = {0}, cursor = {0};
    walk_t w;
    int n0 = 0, traverser = 0, t = 0, mode = MODE_CFR;
    PyObject *head = PyTuple_GetSlice(args, 0, 8), *tail = PyTuple_GetSlice(args, 8, PyTuple_GET_SIZE(args));
    memset(&w, 0, sizeof w);
    if (head == NULL || tail == NULL || open_tables(head, "y*y*y*y*y*iw*w*", &v, &w, &n0, NULL, NULL, NULL)
        || !PyArg_ParseTuple(tail, "iiw*y*w*w*|i", &traverser, &t, &slots, &units, &values, &cursor, &mode)
        || check_slots(&w, &slots, traverser))
        goto done;
    CL_FAIL_IF(mode < MODE_CFR || mode > MODE_BEST, "the mode is 0 (CFR), 1 (average play) or 2 (best response)");
    Py_ssize_t n_units = units.len / 8;
    int ni = w.n[traverser], no = w.n[1 - traverser];
    CL_FAIL_IF(t < 1 || units.len % 8 || values.len != (Py_ssize_t)sizeof(double) * n_units * ni
               || cursor.len != 8 || ((uintptr_t)cursor.buf & 7), "units are (chance node, child) pairs, a row each");
    const int32_t *pairs = units.buf;
    Py_ssize_t n_nodes = v.nodes.len / (NODE_WIDTH * 4);
    for (Py_ssize_t u = 0; u < n_units; u++) {
        int node = pairs[2 * u], a = pairs[2 * u + 1];
        CL_FAIL_IF(node < 0 || node >= n_nodes || w.nodes[(size_t)NODE_WIDTH * node + K_KIND] != CHANCE || a < 0
                   || a >= w.nodes[(size_t)NODE_WIDTH * node + K_COUNT] || w.nodes[(size_t)NODE_WIDTH * node + K_OFFSET] < 0
                   || w.nodes[(size_t)NODE_WIDTH * w.children[w.nodes[(size_t)NODE_WIDTH * node + K_FIRST] + a] + K_KIND] == ISO,
                   "a unit names a first-level chance node's child that is walked");
    }
    Py_BEGIN_ALLOW_THREADS
    set_discounts(&w, t);
    w.mode = mode;
    for (;;) {
        int64_t u = cl_atomic_fetch_add64(cursor.buf, 1);
        if (u >= n_units)
            break;
        const int32_t *node = w.nodes + (size_t)NODE_WIDTH * pairs[2 * u];
        int kid = w.children[node[K_FIRST] + pairs[2 * u + 1]];
        int card = w.nodes[(size_t)NODE_WIDTH * kid + K_CARD] - 1;
        const double *slot = slot_of(&w, node);
        double *row = (double *)values.buf + (size_t)u * (size_t)ni;
        w.top = 0;
        double *own = push(&w, (size_t)ni), *opp = push(&w, (size_t)no), *out = push(&w, (size_t)ni);
        for (int h = 0; h < ni; h++) {
            const int32_t *hand = w.hands[traverser] + HAND_WIDTH * h;
            own[h] = hand[0] == card || hand[1] == card ? 0.0 : slot[h];
        }
        int any = 0;
        for (int q = 0; q < no; q++) {
            const int32_t *hand = w.hands[1 - traverser] + HAND_WIDTH * q;
            opp[q] = hand[0] == card || hand[1] == card ? 0.0 : slot[ni + q];
            any |= opp[q] != 0.0;
        }
        /* outside CFR nothing below changes and an unreached subtree is worth 0 (its walk would
         * give 0 for every combo); in CFR its strategy sums still age */
        if (!any && mode != MODE_CFR) {
            memset(row, 0, sizeof(double) * (size_t)ni);
            continue;
        }
        walk(&w, kid, own, opp, out);
        double share = w.amount[pairs[2 * u]];
        for (int h = 0; h < ni; h++) {
            const int32_t *hand = w.hands[traverser] + HAND_WIDTH * h;
            row[h] = hand[0] == card || hand[1] == card ? 0.0 : share * out[h];
        }
    }
    Py_END_ALLOW_THREADS
done:
    Py_XDECREF(head);
    Py_XDECREF(tail);
    free(w.arena);
    return CL_RELEASE_NONE(&v.nodes, &v.children, &v.amount, &v.hands, &v.weights, &v.regrets, &v.sums, &slots,
                           &units, &values, &cursor);
}

/* solver_values(nodes, children, amount, hands, weights, n0, regrets, sums, player, mode, start,
 * own, opp, out): the counterfactual value of each of player's combos from node ``start``, its
 * combos reaching it with weights ``own`` and the other's with ``opp``: mode 1 both play the
 * average strategy, 2 player best-responds, 3 a showdown for 1 chip on board 0, 4 the weight of
 * the opponent's combos compatible with each. */
static PyObject *solver_values(PyObject *self, PyObject *args)
{
    (void)self;
    views_t v = {0};
    Py_buffer own = {0}, opp = {0}, out = {0};
    walk_t w;
    int n0 = 0, player = 0, mode = 0, start = 0;
    PyObject *head = PyTuple_GetSlice(args, 0, 8), *tail = PyTuple_GetSlice(args, 8, PyTuple_GET_SIZE(args));
    memset(&w, 0, sizeof w);
    if (head == NULL || tail == NULL || open_tables(head, "y*y*y*y*y*iw*w*", &v, &w, &n0, NULL, NULL, NULL)
        || !PyArg_ParseTuple(tail, "iiiy*y*w*", &player, &mode, &start, &own, &opp, &out))
        goto done;
    CL_FAIL_IF(player < 0 || player > 1 || mode < MODE_AVERAGE || mode > MODE_COMPATIBLE,
               "player is 0 or 1, mode 1 to 4");
    CL_FAIL_IF(start < 0 || start >= v.nodes.len / (NODE_WIDTH * 4) || w.nodes[(size_t)NODE_WIDTH * start + K_KIND] == ISO,
               "start is a node walked");
    CL_FAIL_IF(out.len != (Py_ssize_t)sizeof(double) * w.n[player] || own.len != out.len
               || opp.len != (Py_ssize_t)sizeof(double) * w.n[1 - player], "a value and a reach per combo");
    const double *r_own = own.buf, *r_opp = opp.buf;
    for (int h = 0; h < w.n[player]; h++)
        CL_FAIL_IF(!(r_own[h] >= 0.0) || !isfinite(r_own[h]), "reaches are finite and from 0 up");
    for (int q = 0; q < w.n[1 - player]; q++)
        CL_FAIL_IF(!(r_opp[q] >= 0.0) || !isfinite(r_opp[q]), "reaches are finite and from 0 up");
    Py_BEGIN_ALLOW_THREADS
    w.traverser = player;
    w.mode = mode;
    if (mode == MODE_SHOWDOWN)
        showdown(&w, 0, r_opp, 1.0, out.buf);
    else if (mode == MODE_COMPATIBLE)
        compatible(&w, r_opp, 1.0, out.buf);
    else
        walk(&w, start, r_own, r_opp, out.buf);
    Py_END_ALLOW_THREADS
done:
    Py_XDECREF(head);
    Py_XDECREF(tail);
    free(w.arena);
    return CL_RELEASE_NONE(&v.nodes, &v.children, &v.amount, &v.hands, &v.weights, &v.regrets, &v.sums, &own, &opp,
                           &out);
}

CL_METHODS(solver_river,
           CL_METHOD(solver_iterate, "Discounted CFR iterations over a river tree (cardlab.solver.engine)."),
           CL_METHOD(solver_values, "Values of one player's combos: average play, best response, showdown."),
           CL_METHOD(solver_step, "Half of a CFR iteration's walk above the chance nodes (phase 1 or 2)."),
           CL_METHOD(solver_deal, "The subtrees below the chance nodes, shared by threads through a cursor."));
