/* Single-suit play: the Pareto frontiers of per-layout outcomes over declarer's information
 * tree (docs/suitplay.md).  The wrapper is cardlab.bridge.suitplay (_solve_core); the Python
 * solver there (_Solver) is the same algorithm step for step and the tests' oracle: same
 * transposition keys, same order of moves, same stable sorts, so both give the same lines (the
 * pruning here finds the same undominated values faster: an index of the kept ones, and a
 * defender node's product pruned row by row and block by block instead of whole).
 *
 * A state is declarer's two hands (rank masks), the cards of the current trick, and the
 * layouts still possible, each with West's and East's remaining count per static group of
 * missing cards (4 bits a group).  A value is one bitmask over the layouts per trick threshold
 * k (the layouts where the line takes at least k more tricks); a frontier is the list of
 * undominated values, each with the plan that gets it.  Declarer nodes take the union of their
 * children's frontiers, defender nodes the product over the defender's cards (the bitwise AND
 * on the layouts of each branch); both are pruned to the undominated values.  Equal cards are
 * merged: declarer's cards with no missing card in play between them are one card, the
 * transposition key names declarer's cards by how many missing groups still in play rank above
 * them, and the defenders' equal cards are one group.
 *
 * Plans are kept in one table (play / defend / cash / stuck records, defend branches in a
 * second table); the kernel returns the root frontier and the plans reachable from it. */
#include "core.h"

#include <stdlib.h>
#include <string.h>

#define SP_MAXG 13
#define SP_MAXW 3 /* words in a set of layouts: every combination has at most 162 layouts */
#define SP_MAXL (64 * SP_MAXW)
#define SP_MAXD 13
#define SP_MAXCH (SP_MAXG + 1)

enum { P_PLAY = 1, P_DEFEND = 2, P_CASH = 3, P_STUCK = 4 };
enum { SEAT_N = 0, SEAT_E = 1, SEAT_S = 2, SEAT_W = 3 };

typedef struct {
    int32_t kind, seat, name, child, br_off, br_n;
} SpPlan;

typedef struct {
    int32_t token, plan;
} SpBranch;

typedef struct {
    int32_t n;
    int64_t off; /* values at vals[off * depth ..], plans at fplan[off ..] */
} SpFront;

typedef struct {
    int nl;
    uint8_t lid[SP_MAXL];
    uint64_t wc[SP_MAXL], ec[SP_MAXL];
} SpLive;

typedef struct {
    int n, leader;
    int card[4];
} SpTrick;

typedef struct {
    uint64_t hash;
    int64_t key_off;
    int32_t key_len, front;
} SpSlot;

typedef struct {
    int G, depth, W, DW, limited, random_equals; /* DW: words of a value (depth thresholds, W words each) */
    int ent0[2];
    int gtop[SP_MAXG], glow[SP_MAXG];
    uint32_t gmask[SP_MAXG];
    uint64_t *vals;
    int32_t *fplan;
    int64_t nent, capent, capfplan;
    SpFront *fronts;
    int64_t nfronts, capfronts;
    SpPlan *plans;
    int64_t nplans, capplans;
    SpBranch *brs;
    int64_t nbrs, capbrs;
    uint64_t *keys;
    int64_t nkeys, capkeys;
    SpSlot *table;
    int64_t tcap, tcount;
    size_t bytes, limit;
    int failed; /* 1: out of memory, 2: over the memory limit, 3: stopped by the caller */
    int64_t block; /* the products of a defender node pruned a block of about this many at a time */
    volatile int64_t *ctl; /* the caller's control words (CTL_*), or NULL */
    double pbase, pspan;   /* the share of the search done before this node, and this node's share */
} Sp;

/* the control words the caller may pass: it sets STOP, the search writes STATES and DONE (the
 * share of the search done, in parts per billion: an estimate from the first moves' counts) */
enum { CTL_STOP = 0, CTL_STATES = 1, CTL_DONE = 2, CTL_WORDS = 3 };

static int sp_grow(Sp *sp, void **p, int64_t *cap, int64_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    int64_t c = *cap ? *cap : 256;
    while (c < need)
        c *= 2;
    size_t add = (size_t)(c - *cap) * elem;
    if (sp->bytes + add > sp->limit) {
        sp->failed = 2;
        return -1;
    }
    void *q = realloc(*p, (size_t)c * elem);
    if (q == NULL) {
        sp->failed = 1;
        return -1;
    }
    sp->bytes += add;
    *p = q;
    *cap = c;
    return 0;
}

static inline unsigned nib(uint64_t code, int g) { return (unsigned)(code >> (4 * g)) & 15u; }

/* the set of live layouts, W words */
static void live_mask(const Sp *sp, const SpLive *lv, uint64_t *m)
{
    for (int w = 0; w < sp->W; w++)
        m[w] = 0;
    for (int i = 0; i < lv->nl; i++)
        m[lv->lid[i] >> 6] |= (uint64_t)1 << (lv->lid[i] & 63);
}

/* the share of the search done: this node's children are k of n; the child's share follows */
static void progress_child(Sp *sp, double base, double span, int k, int n)
{
    sp->pspan = span / n;
    sp->pbase = base + sp->pspan * k;
    if (sp->ctl != NULL && span > 1e-6)
        sp->ctl[CTL_DONE] = (int64_t)(sp->pbase * 1e9);
}

/* the groups with a card left in some live layout (bit g) */
static uint32_t active_groups(const Sp *sp, const SpLive *lv)
{
    uint64_t u = 0;
    for (int i = 0; i < lv->nl; i++)
        u |= lv->wc[i] | lv->ec[i];
    uint32_t a = 0;
    for (int g = 0; g < sp->G; g++)
        if (nib(u, g))
            a |= 1u << g;
    return a;
}

static inline int trick_seat(const SpTrick *t, int i) { return (t->leader + i) & 3; }
static inline int is_declarer(int seat) { return seat == SEAT_N || seat == SEAT_S; }

/* the top cards of the missing groups in play (held, or a defender's card on the table) */
static uint32_t tops_of(const Sp *sp, const SpLive *lv, const SpTrick *t)
{
    uint32_t act = active_groups(sp, lv), tops = 0;
    for (int g = 0; g < sp->G; g++)
        if (act >> g & 1)
            tops |= 1u << sp->gtop[g];
    for (int i = 0; i < t->n; i++)
        if (!is_declarer(trick_seat(t, i)) && t->card[i] >= 0)
            tops |= 1u << t->card[i];
    return tops;
}

static inline int slot(int card, uint32_t tops)
{
    return card < 0 ? -1 : cl_popcount32(tops >> (card + 1));
}

/* a hand by its cards' slots, highest card first, with its length */
static uint64_t hand_code(uint32_t hand, uint32_t tops)
{
    uint64_t code = 0;
    int n = 0;
    for (int r = 12; r >= 0; r--)
        if (hand >> r & 1) {
            code |= (uint64_t)slot(r, tops) << (4 + 4 * n);
            n++;
        }
    return code | (uint64_t)n;
}

static uint64_t hash_words(const uint64_t *w, int n)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)n;
    for (int i = 0; i < n; i++) {
        h ^= w[i];
        h *= 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    return h | 1; /* 0 marks an empty slot */
}

static int table_insert(Sp *sp, uint64_t h, const uint64_t *key, int klen, int32_t front)
{
    if ((sp->tcount + 1) * 2 > sp->tcap) {
        int64_t ncap = sp->tcap ? sp->tcap * 2 : 4096;
        size_t add = (size_t)ncap * sizeof(SpSlot);
        if (sp->bytes + add > sp->limit) {
            sp->failed = 2;
            return -1;
        }
        SpSlot *nt = calloc((size_t)ncap, sizeof(SpSlot));
        if (nt == NULL) {
            sp->failed = 1;
            return -1;
        }
        sp->bytes += add;
        for (int64_t i = 0; i < sp->tcap; i++) {
            if (!sp->table[i].hash)
                continue;
            int64_t j = (int64_t)(sp->table[i].hash & (uint64_t)(ncap - 1));
            while (nt[j].hash)
                j = (j + 1) & (ncap - 1);
            nt[j] = sp->table[i];
        }
        sp->bytes -= (size_t)sp->tcap * sizeof(SpSlot);
        free(sp->table);
        sp->table = nt;
        sp->tcap = ncap;
    }
    if (sp_grow(sp, (void **)&sp->keys, &sp->capkeys, sp->nkeys + klen, sizeof(uint64_t)) < 0)
        return -1;
    memcpy(sp->keys + sp->nkeys, key, (size_t)klen * sizeof(uint64_t));
    int64_t j = (int64_t)(h & (uint64_t)(sp->tcap - 1));
    while (sp->table[j].hash)
        j = (j + 1) & (sp->tcap - 1);
    sp->table[j].hash = h;
    sp->table[j].key_off = sp->nkeys;
    sp->table[j].key_len = klen;
    sp->table[j].front = front;
    sp->nkeys += klen;
    sp->tcount++;
    if (sp->ctl != NULL && !(sp->tcount & 4095))
        sp->ctl[CTL_STATES] = sp->tcount;
    return 0;
}

static int32_t table_find(const Sp *sp, uint64_t h, const uint64_t *key, int klen)
{
    if (!sp->tcap)
        return -1;
    int64_t j = (int64_t)(h & (uint64_t)(sp->tcap - 1));
    while (sp->table[j].hash) {
        const SpSlot *s = &sp->table[j];
        if (s->hash == h && s->key_len == klen && !memcmp(sp->keys + s->key_off, key, (size_t)klen * sizeof(uint64_t)))
            return s->front;
        j = (j + 1) & (sp->tcap - 1);
    }
    return -1;
}

static int32_t new_plan(Sp *sp, int kind, int seat, int name, int32_t child, int64_t br_off, int br_n)
{
    if (sp_grow(sp, (void **)&sp->plans, &sp->capplans, sp->nplans + 1, sizeof(SpPlan)) < 0)
        return -2;
    SpPlan *p = &sp->plans[sp->nplans];
    p->kind = kind;
    p->seat = seat;
    p->name = name;
    p->child = child;
    p->br_off = (int32_t)br_off;
    p->br_n = br_n;
    return (int32_t)sp->nplans++;
}

/* a new frontier of n entries (values and plans filled by the caller) */
static int32_t new_front(Sp *sp, int32_t n)
{
    if (sp_grow(sp, (void **)&sp->vals, &sp->capent, sp->nent + n, (size_t)sp->DW * sizeof(uint64_t)) < 0
        || sp_grow(sp, (void **)&sp->fplan, &sp->capfplan, sp->nent + n, sizeof(int32_t)) < 0
        || sp_grow(sp, (void **)&sp->fronts, &sp->capfronts, sp->nfronts + 1, sizeof(SpFront)) < 0)
        return -1;
    sp->fronts[sp->nfronts].n = n;
    sp->fronts[sp->nfronts].off = sp->nent;
    sp->nent += n;
    return (int32_t)sp->nfronts++;
}

static inline uint32_t between(int lo, int hi)
{
    /* the ranks strictly between lo and hi (lo < hi; lo may be -1) */
    if (hi <= lo + 1)
        return 0;
    return (((uint32_t)1 << hi) - 1) & ~(((uint32_t)2 << lo) - 1);
}

/* The kept values so far, indexed by bit: row p (bit p of a value: word p / 64, threshold-major)
 * is the set of kept values holding that bit, KW words; count[p] is its size.  A value x is
 * covered by a kept y only if y holds every bit of x, so the kept values that may cover x are the
 * AND of x's rows: starting from its rarest bit, a few rows leave none or a handful, each then
 * compared in full.  Only the highest threshold of x in each layout is needed (a value holding a
 * threshold holds the ones below), but any subset of x's bits gives a superset of its coverers,
 * so the full comparison keeps the answer exact whatever the values. */
typedef struct {
    int DW;
    int64_t KW, nk, last; /* last: the kept value that covered the last covered one, or -1 */
    uint64_t *rows, *cand;
    int64_t *count;
} SpIndex;

static int index_init(SpIndex *ix, int DW, int64_t n)
{
    ix->DW = DW;
    ix->KW = (n + 63) / 64;
    ix->nk = 0;
    ix->last = -1;
    ix->rows = calloc((size_t)DW * 64 * (size_t)ix->KW, sizeof(uint64_t));
    ix->cand = malloc((size_t)ix->KW * sizeof(uint64_t));
    ix->count = calloc((size_t)DW * 64, sizeof(int64_t));
    return ix->rows != NULL && ix->cand != NULL && ix->count != NULL ? 0 : -1;
}

static void index_free(SpIndex *ix) { CL_FREE(ix->rows, ix->cand, ix->count); }

static void index_add(SpIndex *ix, const uint64_t *x)
{
    const int64_t k = ix->nk++;
    for (int d = 0; d < ix->DW; d++)
        for (uint64_t m = x[d]; m; m &= m - 1) {
            const int64_t p = (int64_t)d * 64 + cl_ctz64(m);
            ix->rows[p * ix->KW + (k >> 6)] |= (uint64_t)1 << (k & 63);
            ix->count[p]++;
        }
}

/* whether y holds every bit of x: the highest thresholds first, where values differ most */
static inline int covers(const uint64_t *y, const uint64_t *x, int DW)
{
    for (int d = DW - 1; d >= 0; d--)
        if ((y[d] & x[d]) != x[d])
            return 0;
    return 1;
}

/* whether a kept value (its values in kv, DW words each, in the order added) covers x; W words
 * a threshold */
static int index_covered(SpIndex *ix, const uint64_t *kv, const uint64_t *x, int W)
{
    enum { SMALL = 12 };
    const int DW = ix->DW, depth = DW / W;
    const int64_t kw = (ix->nk + 63) / 64;
    if (!ix->nk)
        return 0;
    /* the top bits of x (at most one a layout), rarest first: insertion by count */
    int64_t bit[SP_MAXL], cnt[SP_MAXL];
    int nb = 0;
    for (int d = depth - 1; d >= 0; d--)
        for (int w = 0; w < W; w++) {
            uint64_t m = x[d * W + w] & (d + 1 < depth ? ~x[(d + 1) * W + w] : ~(uint64_t)0);
            for (; m && nb < SP_MAXL; m &= m - 1) {
                const int64_t p = (int64_t)(d * W + w) * 64 + cl_ctz64(m), k = ix->count[p];
                if (!k)
                    return 0; /* no kept value reaches x there */
                int i = nb++;
                for (; i > 0 && cnt[i - 1] > k; i--) {
                    bit[i] = bit[i - 1];
                    cnt[i] = cnt[i - 1];
                }
                bit[i] = p;
                cnt[i] = k;
            }
        }
    if (!nb) /* x is empty: every kept value covers it */
        return 1;
    if (ix->last >= 0 && covers(kv + ix->last * DW, x, DW)) /* the last cover found: values come in runs */
        return 1;
    uint64_t *c = ix->cand;
    memcpy(c, ix->rows + bit[0] * ix->KW, (size_t)kw * sizeof(uint64_t));
    /* the candidates lie in words lo..hi-1, nz of them not empty; once few words hold any, or
     * few candidates are left, they are compared one by one (cheaper than another row) */
    int64_t lo = 0, hi = kw, nz = kw;
    for (int b = 1; b < nb && cnt[0] > SMALL; b++) {
        const uint64_t *r = ix->rows + bit[b] * ix->KW;
        int64_t nlo = hi, nhi = lo;
        nz = 0;
        for (int64_t i = lo; i < hi; i++)
            if ((c[i] &= r[i])) {
                nz++;
                nhi = i + 1;
                if (nlo == hi)
                    nlo = i;
            }
        if (!nz)
            return 0;
        lo = nlo;
        hi = nhi;
        if (nz * 8 <= kw || nz <= 2)
            break;
        if (!(b & (b - 1))) { /* rows 1, 2, 4, ...: try the first few candidates */
            int tried = 0;
            for (int64_t i = lo; i < hi && tried < 4; i++)
                for (uint64_t q = c[i]; q && tried < 4; q &= q - 1, tried++) {
                    const int64_t j = i * 64 + cl_ctz64(q);
                    if (covers(kv + j * DW, x, DW)) {
                        ix->last = j;
                        return 1;
                    }
                }
        }
    }
    for (int64_t i = lo; i < hi; i++)
        for (uint64_t m = c[i]; m; m &= m - 1)
            if (covers(kv + (i * 64 + cl_ctz64(m)) * DW, x, DW)) {
                ix->last = i * 64 + cl_ctz64(m);
                return 1;
            }
    return 0;
}

/* Stable order of n values (depth thresholds of W words each) by the popcounts of their masks,
 * most first (lexicographic over the thresholds), then the values that no earlier kept one
 * covers: their indices, in that order, go to kept; returns how many (-1 when out of memory;
 * -2 when the caller's stop word, ctl[CTL_STOP] if ctl, was set: a large set takes seconds).
 * A kept value can only be covered by an earlier one (a cover has at least its popcounts, so it
 * sorts before it, or is equal), so the kept values are the distinct undominated ones, each the
 * first of its equals; the index above finds the covers without comparing with every kept one. */
static int64_t pareto(int depth, int W, const uint64_t *v, int64_t n, int64_t *kept, volatile const int64_t *ctl)
{
    const int DW = depth * W;
    if (n <= 1) {
        if (n == 1)
            kept[0] = 0;
        return n;
    }
    uint16_t *pc = malloc((size_t)n * (size_t)depth * sizeof(uint16_t));
    int64_t *order = malloc((size_t)n * sizeof(int64_t));
    int64_t *tmp = malloc((size_t)n * sizeof(int64_t));
    uint64_t *kv = malloc((size_t)n * (size_t)DW * sizeof(uint64_t));
    SpIndex ix;
    if (pc == NULL || order == NULL || tmp == NULL || kv == NULL || index_init(&ix, DW, n) < 0) {
        free(pc);
        free(order);
        free(tmp);
        free(kv);
        return -1;
    }
    for (int64_t i = 0; i < n; i++) {
        order[i] = i;
        if (W == 1)
            for (int d = 0; d < depth; d++)
                pc[i * depth + d] = (uint16_t)cl_popcount64(v[i * DW + d]);
        else
            for (int d = 0; d < depth; d++) {
                int c = 0;
                for (int w = 0; w < W; w++)
                    c += cl_popcount64(v[i * DW + d * W + w]);
                pc[i * depth + d] = (uint16_t)c;
            }
    }
    /* bottom-up merge sort: stable */
    for (int64_t width = 1; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t a = lo, b = mid, k = lo;
            while (a < mid && b < hi) {
                const uint16_t *pa = pc + order[a] * depth, *pb = pc + order[b] * depth;
                int take_b = 0;
                for (int d = 0; d < depth; d++)
                    if (pa[d] != pb[d]) {
                        take_b = pb[d] > pa[d];
                        break;
                    }
                tmp[k++] = take_b ? order[b++] : order[a++];
            }
            while (a < mid)
                tmp[k++] = order[a++];
            while (b < hi)
                tmp[k++] = order[b++];
        }
        int64_t *swap = order;
        order = tmp;
        tmp = swap;
    }
    int64_t nk = 0;
    for (int64_t i = 0; i < n; i++) {
        if (ctl != NULL && !(i & 255) && ctl[CTL_STOP]) {
            nk = -2;
            break;
        }
        const uint64_t *x = v + order[i] * DW;
        if (index_covered(&ix, kv, x, W))
            continue;
        memcpy(kv + nk * DW, x, (size_t)DW * sizeof(uint64_t));
        index_add(&ix, x);
        kept[nk++] = order[i];
    }
    free(pc);
    free(order);
    free(tmp);
    free(kv);
    index_free(&ix);
    return nk;
}

/* options of a declarer node: values and (seat, name, child plan) */
typedef struct {
    uint64_t *v;
    int32_t *info; /* 3 per option */
    int64_t n, cap;
} SpOpts;

/* the bytes of n options of a value of `words` words */
static size_t opts_bytes(int64_t n, int words) { return (size_t)n * ((size_t)words * sizeof(uint64_t) + 3 * sizeof(int32_t)); }

/* add an option; its memory counts against the limit while the node is solved (-1: failed set) */
static int opts_push(Sp *sp, SpOpts *o, const uint64_t *v, int seat, int name, int32_t child)
{
    const int words = sp->DW;
    if (o->n == o->cap) {
        int64_t c = o->cap ? 2 * o->cap : 64;
        const size_t add = opts_bytes(c - o->cap, words);
        if (sp->bytes + add > sp->limit) {
            sp->failed = 2;
            return -1;
        }
        uint64_t *nv = realloc(o->v, (size_t)c * (size_t)words * sizeof(uint64_t));
        if (nv == NULL) {
            sp->failed = 1;
            return -1;
        }
        o->v = nv;
        int32_t *ni = realloc(o->info, (size_t)c * 3 * sizeof(int32_t));
        if (ni == NULL) {
            sp->failed = 1;
            return -1;
        }
        o->info = ni;
        sp->bytes += add;
        o->cap = c;
    }
    memcpy(o->v + o->n * words, v, (size_t)words * sizeof(uint64_t));
    o->info[o->n * 3] = seat;
    o->info[o->n * 3 + 1] = name;
    o->info[o->n * 3 + 2] = child;
    o->n++;
    return 0;
}

static void opts_free(Sp *sp, SpOpts *o)
{
    sp->bytes -= opts_bytes(o->cap, sp->DW);
    free(o->v);
    free(o->info);
}

static int32_t solve(Sp *sp, uint32_t north, uint32_t south, const SpTrick *t, const SpLive *lv, const int ent[2],
                     int last);

/* a frontier of one entry: every threshold `full` (W words) below `top`, none from it */
static int32_t single(Sp *sp, const uint64_t *full, int top, int32_t plan)
{
    if (plan == -2)
        return -1;
    int32_t f = new_front(sp, 1);
    if (f < 0)
        return -1;
    const SpFront *fr = &sp->fronts[f];
    for (int d = 0; d < sp->depth; d++)
        for (int w = 0; w < sp->W; w++)
            sp->vals[fr->off * sp->DW + d * sp->W + w] = d < top ? full[w] : 0;
    sp->fplan[fr->off] = plan;
    return f;
}

/* one card of each run of equal cards in the hand (the lowest), lowest first */
static int choices(const Sp *sp, uint32_t hand, uint32_t north, uint32_t south, const SpTrick *t, const SpLive *lv,
                   int seat, int *out)
{
    uint32_t others = 0, act = active_groups(sp, lv);
    for (int g = 0; g < sp->G; g++)
        if (act >> g & 1)
            others |= sp->gmask[g];
    for (int i = 0; i < t->n; i++)
        if (t->card[i] >= 0 && (!is_declarer(trick_seat(t, i)) || sp->limited))
            others |= (uint32_t)1 << t->card[i];
    if (sp->limited)
        others |= seat == SEAT_N ? south : north;
    int n = 0, prev = -1;
    for (int r = 0; r < 13; r++) {
        if (!(hand >> r & 1))
            continue;
        if (n && !(others & between(prev, r)))
            continue;
        out[n++] = r;
        prev = r;
    }
    return n;
}

static int32_t finish_options(Sp *sp, SpOpts *o)
{
    const int D = sp->DW;
    int64_t *kept = malloc((size_t)(o->n ? o->n : 1) * sizeof(int64_t));
    if (kept == NULL) {
        sp->failed = 1;
        return -1;
    }
    int64_t nk = pareto(sp->depth, sp->W, o->v, o->n, kept, sp->ctl);
    if (nk < 0) {
        free(kept);
        sp->failed = nk == -2 ? 3 : 1;
        return -1;
    }
    int32_t f = new_front(sp, (int32_t)nk);
    if (f < 0) {
        free(kept);
        return -1;
    }
    for (int64_t j = 0; j < nk; j++) {
        const int32_t *info = o->info + kept[j] * 3;
        int32_t p = new_plan(sp, P_PLAY, info[0], info[1], info[2], 0, 0);
        if (p < 0) {
            free(kept);
            return -1;
        }
        const SpFront *fr = &sp->fronts[f];
        memcpy(sp->vals + (fr->off + j) * D, o->v + kept[j] * D, (size_t)D * sizeof(uint64_t));
        sp->fplan[fr->off + j] = p;
    }
    free(kept);
    return f;
}

static int add_child_options(Sp *sp, SpOpts *o, int32_t f, int seat, int name)
{
    if (f < 0)
        return -1;
    const SpFront fr = sp->fronts[f];
    for (int32_t j = 0; j < fr.n; j++)
        if (opts_push(sp, o, sp->vals + (fr.off + j) * sp->DW, seat, name, sp->fplan[fr.off + j]) < 0)
            return -1;
    return 0;
}

/* the products of acc rows a0..a1 with the branch's frontier fr (the rows' choices, the branch's
 * at index c) into v and ch from entry `at` on */
static void product_rows(const Sp *sp, const uint64_t *acc_v, const int32_t *acc_c, int64_t a0, int64_t a1,
                         const SpFront *fr, const uint64_t *keep, int c, int nch, uint64_t *v, int32_t *ch, int64_t at)
{
    const int D = sp->DW, W = sp->W;
    int64_t idx = at;
    for (int64_t a = a0; a < a1; a++)
        for (int32_t b = 0; b < fr->n; b++, idx++) {
            const uint64_t *x = acc_v + a * D, *y = sp->vals + (fr->off + b) * D;
            if (W == 1)
                for (int d = 0; d < D; d++)
                    v[idx * D + d] = x[d] & (y[d] | keep[0]);
            else
                for (int d = 0; d < D; d++)
                    v[idx * D + d] = x[d] & (y[d] | keep[d % W]);
            memcpy(ch + idx * nch, acc_c + a * nch, (size_t)c * sizeof(int32_t));
            ch[idx * nch + c] = b;
        }
}

static int cmp_index(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* the products of a defender node's lines so far (acc) with one more branch's frontier, pruned
 * to the undominated ones when the branch has several answers (out: values, choices, count; -1
 * with sp->failed set).  Pruned as the whole product would be, without holding it: each row's
 * products (one line so far with every answer of the branch) are pruned first, those a product
 * of the same row covers being covered in the whole product too (equal ones: the first kept),
 * and the row's kept ones stay in the product's order; a block of rows is then pruned together
 * with the values kept from the blocks before it, those first.  So the stable order is still
 * that of the whole product (popcounts, then the index in the product), and the values kept at
 * the end are those the pruning of the whole product keeps, in the same order. */
static int product_step(Sp *sp, const uint64_t *acc_v, const int32_t *acc_c, int64_t acc_n, const SpFront *fr,
                        const uint64_t *keep, int c, int nch, uint64_t **out_v, int32_t **out_c, int64_t *out_n)
{
    const int D = sp->DW;
    const size_t entry = (size_t)D * sizeof(uint64_t) + (size_t)nch * sizeof(int32_t);
    /* per value while pruned: its copy after pruning, the sort keys and orders, the kept
     * values and their index (csrc: pareto) */
    const size_t work = entry + (size_t)sp->depth * sizeof(uint16_t) + 3 * sizeof(int64_t) + 2 * (size_t)D * sizeof(uint64_t);
    uint64_t *rv = NULL, *rowv = NULL;
    int32_t *rc = NULL, *rowc = NULL;
    int64_t *rowk = NULL, rn = 0, a0 = 0;
    if (fr->n == 1) { /* one answer: every product stays, in order */
        if ((double)sp->bytes + 2.0 * (double)acc_n * (double)entry > (double)sp->limit) {
            sp->failed = 2;
            return -1;
        }
        rv = malloc((size_t)(acc_n ? acc_n : 1) * (size_t)D * sizeof(uint64_t));
        rc = malloc((size_t)(acc_n ? acc_n : 1) * (size_t)nch * sizeof(int32_t));
        if (rv == NULL || rc == NULL) {
            sp->failed = 1;
            goto fail;
        }
        product_rows(sp, acc_v, acc_c, 0, acc_n, fr, keep, c, nch, rv, rc, 0);
        *out_v = rv;
        *out_c = rc;
        *out_n = acc_n;
        return 0;
    }
    rowv = malloc((size_t)fr->n * (size_t)D * sizeof(uint64_t));
    rowc = malloc((size_t)fr->n * (size_t)nch * sizeof(int32_t));
    rowk = malloc((size_t)fr->n * sizeof(int64_t));
    if (rowv == NULL || rowc == NULL || rowk == NULL) {
        sp->failed = 1;
        goto fail;
    }
    while (a0 < acc_n) {
        const int64_t left = (acc_n - a0) * fr->n, block = rn > sp->block ? rn : sp->block;
        const int64_t target = block < left ? block : left, cap = rn + target + fr->n;
        const double temp = (double)acc_n * (double)entry + (double)cap * (double)(entry + work);
        if ((double)sp->bytes + temp > (double)sp->limit) {
            sp->failed = 2;
            goto fail;
        }
        uint64_t *tv = malloc((size_t)cap * (size_t)D * sizeof(uint64_t));
        int32_t *tc = malloc((size_t)cap * (size_t)nch * sizeof(int32_t));
        if (tv == NULL || tc == NULL) {
            free(tv);
            free(tc);
            sp->failed = 1;
            goto fail;
        }
        if (rn) {
            memcpy(tv, rv, (size_t)rn * (size_t)D * sizeof(uint64_t));
            memcpy(tc, rc, (size_t)rn * (size_t)nch * sizeof(int32_t));
        }
        free(rv);
        free(rc);
        rv = tv;
        rc = tc;
        int64_t tn = rn;
        while (a0 < acc_n && tn - rn < target) {
            product_rows(sp, acc_v, acc_c, a0, a0 + 1, fr, keep, c, nch, rowv, rowc, 0);
            a0++;
            const int64_t k = pareto(sp->depth, sp->W, rowv, fr->n, rowk, sp->ctl);
            if (k < 0) {
                sp->failed = k == -2 ? 3 : 1;
                goto fail;
            }
            qsort(rowk, (size_t)k, sizeof(int64_t), cmp_index);
            for (int64_t j = 0; j < k; j++, tn++) {
                memcpy(tv + tn * D, rowv + rowk[j] * D, (size_t)D * sizeof(uint64_t));
                memcpy(tc + tn * nch, rowc + rowk[j] * nch, (size_t)nch * sizeof(int32_t));
            }
        }
        int64_t *kept = malloc((size_t)(tn ? tn : 1) * sizeof(int64_t));
        const int64_t nk = kept == NULL ? -1 : pareto(sp->depth, sp->W, tv, tn, kept, sp->ctl);
        uint64_t *kv = nk < 0 ? NULL : malloc((size_t)(nk ? nk : 1) * (size_t)D * sizeof(uint64_t));
        int32_t *kc = nk < 0 ? NULL : malloc((size_t)(nk ? nk : 1) * (size_t)nch * sizeof(int32_t));
        if (kv == NULL || kc == NULL) {
            free(kv);
            free(kc);
            free(kept);
            sp->failed = nk == -2 ? 3 : 1;
            goto fail;
        }
        /* compact in the kept order (kept indices are distinct; copy through new buffers) */
        for (int64_t j = 0; j < nk; j++) {
            memcpy(kv + j * D, tv + kept[j] * D, (size_t)D * sizeof(uint64_t));
            memcpy(kc + j * nch, tc + kept[j] * nch, (size_t)nch * sizeof(int32_t));
        }
        free(kept);
        free(rv);
        free(rc);
        rv = kv;
        rc = kc;
        rn = nk;
    }
    CL_FREE(rowv, rowc, rowk);
    *out_v = rv;
    *out_c = rc;
    *out_n = rn;
    return 0;
fail:
    CL_FREE(rv, rc, rowv, rowc, rowk);
    return -1;
}

static int32_t defend(Sp *sp, uint32_t north, uint32_t south, const SpTrick *t, const SpLive *lv, const int ent[2],
                      int last, int seat)
{
    const int D = sp->DW, W = sp->W, G = sp->G;
    uint32_t ours = north | south;
    for (int i = 0; i < t->n; i++)
        if (is_declarer(trick_seat(t, i)) && t->card[i] >= 0)
            ours |= (uint32_t)1 << t->card[i];
    int32_t tok[SP_MAXCH], cfront[SP_MAXCH];
    uint64_t cmask[SP_MAXCH][SP_MAXW];
    int nch = 0;
    const double base = sp->pbase, span = sp->pspan;
    const int nbranches = 1 + cl_popcount32(active_groups(sp, lv));
    SpLive *sub = malloc(sizeof(SpLive));
    if (sub == NULL) {
        sp->failed = 1;
        return -1;
    }
    SpTrick t2 = *t;
    t2.n = t->n + 1;
    sub->nl = 0;
    for (int i = 0; i < lv->nl; i++)
        if ((seat == SEAT_W ? lv->wc[i] : lv->ec[i]) == 0) {
            sub->lid[sub->nl] = lv->lid[i];
            sub->wc[sub->nl] = lv->wc[i];
            sub->ec[sub->nl] = lv->ec[i];
            sub->nl++;
        }
    if (sub->nl) {
        t2.card[t->n] = -1;
        progress_child(sp, base, span, 0, nbranches);
        int32_t f = solve(sp, north, south, &t2, sub, ent, last);
        if (f < 0) {
            free(sub);
            return -1;
        }
        tok[nch] = -1;
        live_mask(sp, sub, cmask[nch]);
        cfront[nch++] = f;
    }
    uint32_t act = active_groups(sp, lv), runs[SP_MAXG];
    int nruns = 0, prev = -1;
    for (int g = 0; g < G; g++) {
        if (!(act >> g & 1))
            continue;
        if (sp->random_equals && nruns && !(ours & between(sp->gtop[g], sp->glow[prev])))
            runs[nruns - 1] |= 1u << g;
        else
            runs[nruns++] = 1u << g;
        prev = g;
    }
    for (int r = 0; r < nruns; r++) {
        sub->nl = 0;
        for (int i = 0; i < lv->nl; i++) {
            uint64_t mine = seat == SEAT_W ? lv->wc[i] : lv->ec[i];
            int g = -1;
            for (int h = G - 1; h >= 0; h--)
                if ((runs[r] >> h & 1) && nib(mine, h)) {
                    g = h;
                    break;
                }
            if (g < 0)
                continue;
            mine -= (uint64_t)1 << (4 * g);
            sub->lid[sub->nl] = lv->lid[i];
            sub->wc[sub->nl] = seat == SEAT_W ? mine : lv->wc[i];
            sub->ec[sub->nl] = seat == SEAT_W ? lv->ec[i] : mine;
            sub->nl++;
        }
        if (!sub->nl)
            continue;
        t2.card[t->n] = sp->gtop[cl_ctz64(runs[r])];
        progress_child(sp, base, span, 1 + r, nbranches);
        int32_t f = solve(sp, north, south, &t2, sub, ent, last);
        if (f < 0) {
            free(sub);
            return -1;
        }
        tok[nch] = (int32_t)runs[r];
        live_mask(sp, sub, cmask[nch]);
        cfront[nch++] = f;
    }
    free(sub);
    sp->pbase = base;
    sp->pspan = span;
    /* stable sort by frontier size: single answers first, the products stay small */
    for (int i = 1; i < nch; i++) {
        int32_t a = tok[i], b = cfront[i];
        uint64_t m[SP_MAXW];
        memcpy(m, cmask[i], sizeof m);
        int j = i - 1;
        while (j >= 0 && sp->fronts[cfront[j]].n > sp->fronts[b].n) {
            tok[j + 1] = tok[j];
            cfront[j + 1] = cfront[j];
            memcpy(cmask[j + 1], cmask[j], sizeof m);
            j--;
        }
        tok[j + 1] = a;
        cfront[j + 1] = b;
        memcpy(cmask[j + 1], m, sizeof m);
    }
    uint64_t full[SP_MAXW];
    live_mask(sp, lv, full);
    int64_t acc_n = 1;
    uint64_t *acc_v = malloc((size_t)D * sizeof(uint64_t));
    int32_t *acc_c = malloc((size_t)(nch ? nch : 1) * sizeof(int32_t));
    if (acc_v == NULL || acc_c == NULL)
        goto oom;
    for (int d = 0; d < D; d++)
        acc_v[d] = full[d % W];
    for (int c = 0; c < nch; c++) {
        const SpFront fr = sp->fronts[cfront[c]];
        uint64_t keep[SP_MAXW];
        for (int w = 0; w < W; w++)
            keep[w] = ~cmask[c][w];
        uint64_t *nv = NULL;
        int32_t *nc = NULL;
        int64_t idx = 0;
        if (product_step(sp, acc_v, acc_c, acc_n, &fr, keep, c, nch, &nv, &nc, &idx) < 0)
            goto fail;
        free(acc_v);
        free(acc_c);
        acc_v = nv;
        acc_c = nc;
        acc_n = idx;
    }
    int32_t f = new_front(sp, (int32_t)acc_n);
    if (f < 0)
        goto fail;
    for (int64_t e = 0; e < acc_n; e++) {
        if (sp_grow(sp, (void **)&sp->brs, &sp->capbrs, sp->nbrs + nch, sizeof(SpBranch)) < 0)
            goto fail;
        int64_t br = sp->nbrs;
        for (int c = 0; c < nch; c++) {
            sp->brs[br + c].token = tok[c];
            sp->brs[br + c].plan = sp->fplan[sp->fronts[cfront[c]].off + acc_c[e * nch + c]];
        }
        sp->nbrs += nch;
        int32_t p = new_plan(sp, P_DEFEND, seat, 0, -1, br, nch);
        if (p < 0)
            goto fail;
        const SpFront *fr = &sp->fronts[f];
        memcpy(sp->vals + (fr->off + e) * D, acc_v + e * D, (size_t)D * sizeof(uint64_t));
        sp->fplan[fr->off + e] = p;
    }
    free(acc_v);
    free(acc_c);
    return f;
oom:
    sp->failed = 1;
fail:
    free(acc_v);
    free(acc_c);
    return -1;
}

static int32_t solve_inner(Sp *sp, uint32_t north, uint32_t south, const SpTrick *t, const SpLive *lv,
                           const int ent[2], int last)
{
    const int D = sp->depth, W = sp->W;
    uint64_t full[SP_MAXW];
    live_mask(sp, lv, full);
    const double base = sp->pbase, span = sp->pspan;
    int cards[13];
    if (t->n == 0) {
        if (!north && !south)
            return single(sp, full, 0, -1);
        const int pn = cl_popcount32(north), ps = cl_popcount32(south), top = pn > ps ? pn : ps;
        if (!sp->limited) {
            int empty = 1;
            for (int i = 0; i < lv->nl && empty; i++)
                empty = !lv->wc[i] && !lv->ec[i];
            if (empty)
                return single(sp, full, top, new_plan(sp, P_CASH, 0, top, -1, 0, 0));
        }
        SpOpts o = {NULL, NULL, 0, 0};
        const int nall = cl_popcount32(north) + cl_popcount32(south);
        int done = 0;
        for (int seat = SEAT_N; seat <= SEAT_S; seat += 2) {
            const uint32_t hand = seat == SEAT_N ? north : south;
            if (!hand)
                continue;
            const int index = seat == SEAT_N ? 0 : 1;
            int new_ent[2] = {ent[0], ent[1]};
            if (sp->ent0[index] >= 0 && last != seat) {
                if (ent[index] <= 0)
                    continue;
                new_ent[index] = ent[index] - 1;
            }
            const uint32_t tops = tops_of(sp, lv, t);
            const int nc = choices(sp, hand, north, south, t, lv, seat, cards);
            for (int k = 0; k < nc; k++) {
                const uint32_t bit = (uint32_t)1 << cards[k];
                SpTrick t2 = {1, seat, {cards[k], 0, 0, 0}};
                progress_child(sp, base, span, done++, nall);
                int32_t f = solve(sp, seat == SEAT_N ? north & ~bit : north, seat == SEAT_S ? south & ~bit : south,
                                  &t2, lv, new_ent, last);
                if (add_child_options(sp, &o, f, seat, sp->limited ? cards[k] : slot(cards[k], tops)) < 0) {
                    opts_free(sp, &o);
                    return -1;
                }
            }
        }
        sp->pbase = base;
        sp->pspan = span;
        int32_t f = o.n ? finish_options(sp, &o) : single(sp, full, 0, new_plan(sp, P_STUCK, 0, 0, -1, 0, 0));
        opts_free(sp, &o);
        return f;
    }
    if (t->n == 4) {
        int w = 0;
        for (int i = 1; i < 4; i++)
            if (t->card[i] > t->card[w])
                w = i;
        const int wseat = trick_seat(t, w), mine = is_declarer(wseat);
        SpTrick none = {0, 0, {0, 0, 0, 0}};
        int32_t f = solve(sp, north, south, &none, lv, ent, mine ? wseat : -1);
        if (f < 0 || !mine)
            return f;
        const SpFront src = sp->fronts[f];
        int32_t g = new_front(sp, src.n);
        if (g < 0)
            return -1;
        const SpFront dst = sp->fronts[g];
        for (int32_t j = 0; j < src.n; j++) {
            uint64_t *out = sp->vals + (dst.off + j) * sp->DW;
            const uint64_t *in = sp->vals + (src.off + j) * sp->DW;
            memcpy(out + W, in, (size_t)(D - 1) * (size_t)W * sizeof(uint64_t));
            memcpy(out, full, (size_t)W * sizeof(uint64_t));
            sp->fplan[dst.off + j] = sp->fplan[src.off + j];
        }
        return g;
    }
    const int seat = trick_seat(t, t->n);
    if (!is_declarer(seat))
        return defend(sp, north, south, t, lv, ent, last, seat);
    const uint32_t hand = seat == SEAT_N ? north : south;
    SpTrick t2 = *t;
    t2.n = t->n + 1;
    if (!hand) {
        t2.card[t->n] = -1;
        int32_t f = solve(sp, north, south, &t2, lv, ent, last);
        if (f < 0)
            return -1;
        const int32_t n = sp->fronts[f].n;
        int32_t g = new_front(sp, n);
        if (g < 0)
            return -1;
        for (int32_t j = 0; j < n; j++) {
            const int64_t so = sp->fronts[f].off + j;
            int32_t p = new_plan(sp, P_PLAY, seat, -1, sp->fplan[so], 0, 0);
            if (p < 0)
                return -1;
            const int64_t dof = sp->fronts[g].off + j;
            memcpy(sp->vals + dof * sp->DW, sp->vals + so * sp->DW, (size_t)sp->DW * sizeof(uint64_t));
            sp->fplan[dof] = p;
        }
        return g;
    }
    SpOpts o = {NULL, NULL, 0, 0};
    const uint32_t tops = tops_of(sp, lv, t);
    const int nc = choices(sp, hand, north, south, t, lv, seat, cards);
    for (int k = 0; k < nc; k++) {
        const uint32_t bit = (uint32_t)1 << cards[k];
        t2.card[t->n] = cards[k];
        progress_child(sp, base, span, k, nc);
        int32_t f = solve(sp, seat == SEAT_N ? north & ~bit : north, seat == SEAT_S ? south & ~bit : south, &t2, lv,
                          ent, last);
        if (add_child_options(sp, &o, f, seat, sp->limited ? cards[k] : slot(cards[k], tops)) < 0) {
            opts_free(sp, &o);
            return -1;
        }
    }
    sp->pbase = base;
    sp->pspan = span;
    int32_t f = finish_options(sp, &o);
    opts_free(sp, &o);
    return f;
}

static int32_t solve(Sp *sp, uint32_t north, uint32_t south, const SpTrick *t, const SpLive *lv, const int ent[2],
                     int last)
{
    if (sp->ctl != NULL && sp->ctl[CTL_STOP]) {
        sp->failed = 3;
        return -1;
    }
    uint64_t key[3 + SP_MAXW + 2 * SP_MAXL];
    const int klen = 3 + sp->W + 2 * lv->nl;
    uint64_t tk = (uint64_t)t->n | (uint64_t)(t->n ? t->leader : 0) << 2;
    if (!sp->limited) {
        const uint32_t tops = tops_of(sp, lv, t);
        key[0] = hand_code(north, tops);
        key[1] = hand_code(south, tops);
        for (int i = 0; i < t->n; i++) {
            const int v = is_declarer(trick_seat(t, i)) ? slot(t->card[i], tops) : t->card[i];
            tk |= (uint64_t)(v + 1) << (4 + 5 * i);
        }
    } else {
        key[0] = north;
        key[1] = south;
        for (int i = 0; i < t->n; i++)
            tk |= (uint64_t)(t->card[i] + 1) << (4 + 5 * i);
        tk |= (uint64_t)(ent[0] + 1) << 32 | (uint64_t)(ent[1] + 1) << 40 | (uint64_t)(last + 1) << 48;
    }
    key[2] = tk;
    live_mask(sp, lv, key + 3);
    uint64_t *counts = key + 3 + sp->W;
    for (int i = 0; i < lv->nl; i++) {
        counts[2 * i] = lv->wc[i];
        counts[2 * i + 1] = lv->ec[i];
    }
    const uint64_t h = hash_words(key, klen);
    int32_t hit = table_find(sp, h, key, klen);
    if (hit >= 0)
        return hit;
    int32_t f = solve_inner(sp, north, south, t, lv, ent, last);
    if (f < 0 || table_insert(sp, h, key, klen, f) < 0)
        return -1;
    return f;
}

static void sp_free(Sp *sp)
{
    CL_FREE(sp->vals, sp->fplan, sp->fronts, sp->plans, sp->brs, sp->keys, sp->table);
}

/* suitplay_search(north, south, groups, layouts, n_layouts, depth, entries_north, entries_south,
 * random_equals, limit_mb[, control[, block]]): north and south rank masks (bit r: rank r, 0 the two); groups 13
 * bytes, the static group of each missing rank (0 the highest group) or 255; layouts
 * n_layouts * G bytes, West's count in each group (1..SP_MAXL layouts, a set of them W = n_layouts
 * / 64 words rounded up); control, a writable buffer of CTL_WORDS int64 the caller may read while
 * the search runs (the GIL released): the search stops (RuntimeError "stopped") once the caller
 * sets its first word; block, the products of a defender node pruned about this many at a time
 * (default 2^18, or as many as the values kept so far; the tests make it 1: the answer is the same).  Returns (root values: n * depth * W uint64, threshold-major, word 0 the
 * layouts 0..63,
 * root plans: n int32, plans: 6 int32 each (kind, seat, name, child, first branch, branches),
 * branches: 2 int32 each (token: bitmask of the run's groups or -1 for a void; plan), states). */
static PyObject *suitplay_search(PyObject *Py_UNUSED(self), PyObject *args)
{
    unsigned long north, south;
    Py_buffer groups, layouts;
    int n_layouts, depth, ent_n, ent_s, random_equals, limit_mb, block = 1 << 18;
    Py_buffer control = {0};
    if (!PyArg_ParseTuple(args, "kky*y*iiiiii|w*i", &north, &south, &groups, &layouts, &n_layouts, &depth, &ent_n,
                          &ent_s, &random_equals, &limit_mb, &control, &block))
        return NULL;
    PyObject *result = NULL;
    Sp sp;
    memset(&sp, 0, sizeof sp);
    int32_t *remap = NULL, *stack = NULL, *order = NULL;
    SpPlan *outp = NULL;
    SpBranch *outb = NULL;
    const char *bad = NULL;
    const uint8_t *gb = groups.buf;
    int G = 0;
    if (north > 0x1FFF || south > 0x1FFF || (north & south))
        bad = "north and south must be disjoint 13-bit rank masks";
    else if (groups.len != 13)
        bad = "groups must be 13 bytes";
    else if (depth < 1 || depth > SP_MAXD || ent_n < -1 || ent_n > 13 || ent_s < -1 || ent_s > 13
             || (random_equals != 0 && random_equals != 1) || limit_mb < 1 || limit_mb > 1 << 20)
        bad = "depth, entries, random_equals or limit out of range";
    else if (block < 1)
        bad = "block must be at least 1";
    else if (n_layouts < 1 || n_layouts > SP_MAXL)
        bad = "n_layouts must be 1..192";
    else if (control.buf != NULL
             && (control.len != CTL_WORDS * (Py_ssize_t)sizeof(int64_t) || ((uintptr_t)control.buf & 7)))
        bad = "control must be 3 aligned int64 words";
    if (bad == NULL) {
        /* group ranks: descending groups, each rank missing (not in a hand) */
        int prev_group = -1;
        for (int r = 12; r >= 0 && bad == NULL; r--) {
            if (gb[r] == 255)
                continue;
            if (((north | south) >> r & 1) || gb[r] >= SP_MAXG || (gb[r] != prev_group && gb[r] != prev_group + 1))
                bad = "groups must number the missing ranks 0, 1, ... from the highest, none held";
            prev_group = gb[r];
        }
        G = prev_group + 1;
    }
    if (bad == NULL) {
        for (int g = 0; g < G; g++) {
            sp.gtop[g] = -1;
            sp.gmask[g] = 0;
        }
        for (int r = 12; r >= 0; r--)
            if (gb[r] != 255) {
                if (sp.gtop[gb[r]] < 0)
                    sp.gtop[gb[r]] = r;
                sp.glow[gb[r]] = r;
                sp.gmask[gb[r]] |= 1u << r;
            }
        if (layouts.len != (Py_ssize_t)n_layouts * G)
            bad = "layouts must be n_layouts * groups bytes";
        else {
            const uint8_t *lb = layouts.buf;
            for (int i = 0; i < n_layouts * G && bad == NULL; i++)
                if (lb[i] > cl_popcount32(sp.gmask[i % G]))
                    bad = "a layout gives West more cards of a group than it has";
        }
    }
    if (bad != NULL) {
        PyErr_Format(PyExc_ValueError, "suitplay_search: %s", bad);
        goto done;
    }
    sp.G = G;
    sp.depth = depth;
    sp.W = (n_layouts + 63) / 64;
    sp.DW = depth * sp.W;
    sp.pbase = 0.0;
    sp.pspan = 1.0;
    if (control.buf != NULL) {
        sp.ctl = control.buf;
        sp.ctl[CTL_STATES] = 0;
        sp.ctl[CTL_DONE] = 0;
    }
    sp.ent0[0] = ent_n;
    sp.ent0[1] = ent_s;
    sp.limited = ent_n >= 0 || ent_s >= 0;
    sp.random_equals = random_equals;
    sp.limit = (size_t)limit_mb << 20;
    sp.block = block;
    SpLive *root = malloc(sizeof(SpLive));
    if (root == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    root->nl = n_layouts;
    const uint8_t *lb = layouts.buf;
    for (int i = 0; i < n_layouts; i++) {
        root->lid[i] = (uint8_t)i;
        root->wc[i] = root->ec[i] = 0;
        for (int g = 0; g < G; g++) {
            const unsigned w = lb[i * G + g], e = (unsigned)cl_popcount32(sp.gmask[g]) - w;
            root->wc[i] |= (uint64_t)w << (4 * g);
            root->ec[i] |= (uint64_t)e << (4 * g);
        }
    }
    int32_t front = -1;
    int64_t nout = 0, nbout = 0;
    Py_BEGIN_ALLOW_THREADS
    const int ent[2] = {ent_n, ent_s};
    SpTrick none = {0, 0, {0, 0, 0, 0}};
    front = solve(&sp, (uint32_t)north, (uint32_t)south, &none, root, ent, -1);
    if (front >= 0) {
        /* the plans reachable from the root, renumbered in visiting order */
        remap = malloc((size_t)(sp.nplans ? sp.nplans : 1) * sizeof(int32_t));
        stack = malloc((size_t)(sp.nplans ? sp.nplans : 1) * sizeof(int32_t));
        order = malloc((size_t)(sp.nplans ? sp.nplans : 1) * sizeof(int32_t));
        if (remap == NULL || stack == NULL || order == NULL)
            sp.failed = 1;
        else {
            int64_t top = 0;
            for (int64_t i = 0; i < sp.nplans; i++)
                remap[i] = -1;
            const SpFront fr = sp.fronts[front];
            for (int32_t j = 0; j < fr.n; j++) {
                const int32_t p = sp.fplan[fr.off + j];
                if (p >= 0 && remap[p] < 0) {
                    remap[p] = (int32_t)nout;
                    order[nout++] = p;
                    stack[top++] = p;
                }
            }
            while (top) {
                const SpPlan *p = &sp.plans[stack[--top]];
                if (p->kind == P_PLAY && p->child >= 0 && remap[p->child] < 0) {
                    remap[p->child] = (int32_t)nout;
                    order[nout++] = p->child;
                    stack[top++] = p->child;
                }
                if (p->kind == P_DEFEND) {
                    nbout += p->br_n;
                    for (int b = 0; b < p->br_n; b++) {
                        const int32_t c = sp.brs[p->br_off + b].plan;
                        if (c >= 0 && remap[c] < 0) {
                            remap[c] = (int32_t)nout;
                            order[nout++] = c;
                            stack[top++] = c;
                        }
                    }
                }
            }
            outp = malloc((size_t)(nout ? nout : 1) * sizeof(SpPlan));
            outb = malloc((size_t)(nbout ? nbout : 1) * sizeof(SpBranch));
            if (outp == NULL || outb == NULL)
                sp.failed = 1;
            else {
                int64_t nb = 0;
                for (int64_t i = 0; i < nout; i++) {
                    SpPlan p = sp.plans[order[i]];
                    if (p.kind == P_PLAY && p.child >= 0)
                        p.child = remap[p.child];
                    if (p.kind == P_DEFEND) {
                        for (int b = 0; b < p.br_n; b++) {
                            outb[nb + b] = sp.brs[p.br_off + b];
                            if (outb[nb + b].plan >= 0)
                                outb[nb + b].plan = remap[outb[nb + b].plan];
                        }
                        p.br_off = (int32_t)nb;
                        nb += p.br_n;
                    }
                    outp[i] = p;
                }
            }
        }
    }
    Py_END_ALLOW_THREADS
    free(root);
    if (front < 0 || sp.failed) {
        if (sp.failed == 2)
            PyErr_Format(PyExc_MemoryError, "suitplay_search: the search needs more than %d MB", limit_mb);
        else if (sp.failed == 3)
            PyErr_SetString(PyExc_RuntimeError, "suitplay_search: stopped");
        else
            PyErr_NoMemory();
        goto done;
    }
    {
        const SpFront fr = sp.fronts[front];
        int32_t *rp = malloc((size_t)(fr.n ? fr.n : 1) * sizeof(int32_t));
        if (rp == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        for (int32_t j = 0; j < fr.n; j++) {
            const int32_t p = sp.fplan[fr.off + j];
            rp[j] = p < 0 ? -1 : remap[p];
        }
        result = Py_BuildValue("(y#y#y#y#L)", (const char *)(sp.vals + fr.off * sp.DW),
                               (Py_ssize_t)((size_t)fr.n * (size_t)sp.DW * sizeof(uint64_t)), (const char *)rp,
                               (Py_ssize_t)((size_t)fr.n * sizeof(int32_t)), (const char *)outp,
                               (Py_ssize_t)((size_t)nout * sizeof(SpPlan)), (const char *)outb,
                               (Py_ssize_t)((size_t)nbout * sizeof(SpBranch)), (long long)sp.tcount);
        free(rp);
    }
done:
    sp_free(&sp);
    free(remap);
    free(stack);
    free(order);
    free(outp);
    free(outb);
    if (control.buf != NULL)
        PyBuffer_Release(&control);
    CL_RELEASE(&groups, &layouts);
    return result;
}

CL_METHODS(suitplay,
    CL_METHOD(suitplay_search,
              "suitplay_search(north, south, groups, layouts, n_layouts, depth, entries_north, entries_south, "
              "random_equals, limit_mb[, control[, block]]): the root frontier of single-suit play and its plans."));
