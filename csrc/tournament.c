/* Tournament equity: the finishing-place probabilities of the Malmuth-Harville model (and of
 * Malmuth-Weitzman, the same programme with inverse stacks, places read from the bottom).
 * The wrapper is cardlab.poker.icm.
 *
 * P(S), the probability that the players of the set S take the first |S| places, is pushed
 * from each S (masks in increasing order: every subset of S comes before S) to S + {j} with
 * weight w_j / (W - w(S)); that step is also player j's chance of place |S| + 1.  O(2^n * n). */
#include "core.h"
#include "poker.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ICM_PLAYERS 24

/* icm_places(weights, places): weights n doubles (positive), places n * n doubles (out,
 * row = player, column = place). */
static PyObject *icm_places(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer weights, places;
    if (!PyArg_ParseTuple(args, "y*w*", &weights, &places))
        return NULL;
    const Py_ssize_t n = weights.len / (Py_ssize_t)sizeof(double);
    if (n < 1 || n > MAX_ICM_PLAYERS || weights.len != n * (Py_ssize_t)sizeof(double)
        || places.len != n * n * (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "icm_places: buffers of the wrong size");
        goto done;
    }
    const double *w = weights.buf;
    for (Py_ssize_t j = 0; j < n; j++)
        CL_FAIL_IF(!(w[j] > 0), "icm_places: weights must be positive");
    const size_t size = (size_t)1 << n;
    double *prob = calloc(size, sizeof(double));
    double *sums = malloc(size * sizeof(double));
    if (prob == NULL || sums == NULL) {
        free(prob);
        free(sums);
        PyErr_NoMemory();
        goto done;
    }
    double *out = places.buf;
    Py_BEGIN_ALLOW_THREADS
    memset(out, 0, (size_t)(n * n) * sizeof(double));
    /* sums[m]: the weight of the players in m, a sum of positive terms.  The weight still in
     * play after the players of `mask` is sums[full ^ mask], never total - placed: that
     * difference cancels (1 + 1e17 - 1e17 is 0 in doubles, and 1 + 1e-12 - 1 is 1e-12 only to
     * four digits), so every number below stays a sum, product or quotient of positives. */
    sums[0] = 0.0;
    for (size_t mask = 1; mask < size; mask++) {
        size_t low = mask & (~mask + 1);
        sums[mask] = sums[mask ^ low] + w[cl_ctz64((uint64_t)low)];
    }
    const size_t full = size - 1;
    prob[0] = 1.0;
    for (size_t mask = 0; mask < size; mask++) {
        const double p = prob[mask];
        if (p == 0.0)
            continue;
        const double left = sums[full ^ mask];
        if (!(left > 0))
            continue;
        const double share = p / left;
        const int k = cl_popcount64((uint64_t)mask);
        for (Py_ssize_t j = 0; j < n; j++) {
            const size_t bit = (size_t)1 << j;
            if (mask & bit)
                continue;
            const double c = share * w[j];
            prob[mask | bit] += c;
            out[j * n + k] += c;
        }
    }
    Py_END_ALLOW_THREADS
    free(prob);
    free(sums);
done:
    return CL_RELEASE_NONE(&weights, &places);
}

/* pushfold_regret(base, m_sb, m_bb, rounds, s_avg, c_avg): regret matching+ for the push/fold
 * game (alternating updates, linearly weighted averages), the loop of
 * cardlab.poker.pushfold._regret_matching in one call.  base n doubles, m_sb and m_bb n * n
 * (row = small blind class); s_avg and c_avg n doubles (out). */
#define MAX_PUSHFOLD_CLASSES 1024

static void regret_strategy(const double *plus, const double *minus, double *out, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        const double total = plus[i] + minus[i];
        out[i] = total > 0 ? plus[i] / total : 0.5;
    }
}

static PyObject *pushfold_regret(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer base, m_sb, m_bb, s_out, c_out;
    int rounds;
    if (!PyArg_ParseTuple(args, "y*y*y*iw*w*", &base, &m_sb, &m_bb, &rounds, &s_out, &c_out))
        return NULL;
    PyObject *result = NULL;
    double *work = NULL;
    const Py_ssize_t n = base.len / (Py_ssize_t)sizeof(double);
    const Py_ssize_t bytes = n * (Py_ssize_t)sizeof(double);
    if (n < 1 || n > MAX_PUSHFOLD_CLASSES || base.len != bytes || m_sb.len != n * bytes
        || m_bb.len != n * bytes || s_out.len != bytes || c_out.len != bytes) {
        PyErr_SetString(PyExc_ValueError, "pushfold_regret: buffers of the wrong size");
        goto done;
    }
    CL_FAIL_IF(rounds < 1 || rounds > 1000000, "pushfold_regret: rounds must be 1 to 1,000,000");
    work = calloc((size_t)(8 * n), sizeof(double));
    if (work == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    const double *b = base.buf, *a = m_sb.buf, *m = m_bb.buf;
    double *s_avg = s_out.buf, *c_avg = c_out.buf;
    double *sp = work, *sf = work + n, *cp = work + 2 * n, *cf = work + 3 * n;
    double *s = work + 4 * n, *c = work + 5 * n, *margin = work + 6 * n;
    for (Py_ssize_t i = 0; i < n; i++) {
        c[i] = 0.5;
        s_avg[i] = 0.0;
        c_avg[i] = 0.0;
    }
    for (int t = 1; t <= rounds; t++) {
        regret_strategy(sp, sf, s, n);
        for (Py_ssize_t i = 0; i < n; i++) {
            const double *row = a + i * n;
            double sum0 = 0.0, sum1 = 0.0, sum2 = 0.0, sum3 = 0.0;  /* four chains: no wait on one sum */
            Py_ssize_t j = 0;
            for (; j + 4 <= n; j += 4) {
                sum0 += row[j] * c[j];
                sum1 += row[j + 1] * c[j + 1];
                sum2 += row[j + 2] * c[j + 2];
                sum3 += row[j + 3] * c[j + 3];
            }
            for (; j < n; j++)
                sum0 += row[j] * c[j];
            const double mg = b[i] + ((sum0 + sum1) + (sum2 + sum3)), value = s[i] * mg;
            sp[i] = sp[i] + mg - value > 0 ? sp[i] + mg - value : 0.0;
            sf[i] = sf[i] - value > 0 ? sf[i] - value : 0.0;
        }
        regret_strategy(sp, sf, s, n);
        for (Py_ssize_t j = 0; j < n; j++) {
            s_avg[j] += t * s[j];
            margin[j] = 0.0;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            const double *row = m + i * n, si = s[i];
            for (Py_ssize_t j = 0; j < n; j++)
                margin[j] += row[j] * si;
        }
        for (Py_ssize_t j = 0; j < n; j++) {
            const double value = c[j] * margin[j];
            cp[j] = cp[j] + margin[j] - value > 0 ? cp[j] + margin[j] - value : 0.0;
            cf[j] = cf[j] - value > 0 ? cf[j] - value : 0.0;
        }
        regret_strategy(cp, cf, c, n);
        for (Py_ssize_t j = 0; j < n; j++)
            c_avg[j] += t * c[j];
    }
    const double weight = (double)rounds * (rounds + 1) / 2;
    for (Py_ssize_t i = 0; i < n; i++) {
        s_avg[i] /= weight;
        c_avg[i] /= weight;
    }
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    free(work);
    CL_RELEASE(&base, &m_sb, &m_bb, &s_out, &c_out);
    return result;
}

/* The largest amount by which a hand played with probability p misses its best response. */
static double violation(const double *margin, const double *p, Py_ssize_t n)
{
    double worst = -HUGE_VAL;
    for (Py_ssize_t i = 0; i < n; i++) {
        const double v = p[i] <= 0 ? margin[i] : p[i] >= 1 ? -margin[i] : fabs(margin[i]);
        if (v > worst)
            worst = v;
    }
    return worst;
}

/* sb_margin = base + m_sb @ c, bb_margin = m_bb^T @ s. */
static void sb_margins(const double *base, const double *m_sb, const double *c, double *out, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        const double *row = m_sb + i * n;
        double sum = 0.0;
        for (Py_ssize_t j = 0; j < n; j++)
            sum += row[j] * c[j];
        out[i] = base[i] + sum;
    }
}

static void bb_margins(const double *m_bb, const double *s, double *out, Py_ssize_t n)
{
    for (Py_ssize_t j = 0; j < n; j++)
        out[j] = 0.0;
    for (Py_ssize_t i = 0; i < n; i++) {
        const double *row = m_bb + i * n, si = s[i];
        for (Py_ssize_t j = 0; j < n; j++)
            out[j] += row[j] * si;
    }
}

/* a x = b for k = 1 or 2 (Cramer's rule); 0 when singular. */
static int small_solve(int k, double a[2][2], const double b[2], double x[2])
{
    if (k == 1) {
        if (a[0][0] == 0)
            return 0;
        x[0] = b[0] / a[0][0];
        return 1;
    }
    const double det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    if (det == 0)
        return 0;
    x[0] = (b[0] * a[1][1] - a[0][1] * b[1]) / det;
    x[1] = (a[0][0] * b[1] - a[1][0] * b[0]) / det;
    return 1;
}

/* pushfold_support(base, m_sb, m_bb, mixed, s, c, rounds, tol) -> bool: the body of
 * cardlab.poker.pushfold._support.  mixed holds k small blind hands then k big blind hands
 * (int64, k = 0, 1 or 2) that mix, each solving the other player's indifference equations;
 * every other hand plays its best response, recomputed up to `rounds` times from the start s,
 * c (n doubles each, overwritten).  True when s, c is then an equilibrium (every margin within
 * tol of its best response). */
static PyObject *pushfold_support(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer base, m_sb, m_bb, mixed, s_buf, c_buf;
    int rounds;
    double tol;
    if (!PyArg_ParseTuple(args, "y*y*y*y*w*w*id", &base, &m_sb, &m_bb, &mixed, &s_buf, &c_buf, &rounds, &tol))
        return NULL;
    PyObject *result = NULL;
    double *work = NULL;
    const Py_ssize_t n = base.len / (Py_ssize_t)sizeof(double);
    const Py_ssize_t bytes = n * (Py_ssize_t)sizeof(double);
    const Py_ssize_t count = mixed.len / (Py_ssize_t)sizeof(int64_t);
    if (n < 1 || n > MAX_PUSHFOLD_CLASSES || base.len != bytes || m_sb.len != n * bytes
        || m_bb.len != n * bytes || s_buf.len != bytes || c_buf.len != bytes
        || mixed.len != count * (Py_ssize_t)sizeof(int64_t) || count % 2 || count > 4) {
        PyErr_SetString(PyExc_ValueError, "pushfold_support: buffers of the wrong size");
        goto done;
    }
    const int k = (int)(count / 2);
    int64_t idx[4] = {0, 0, 0, 0};
    memcpy(idx, mixed.buf, (size_t)count * sizeof(int64_t));
    for (int x = 0; x < 2 * k; x++)
        CL_FAIL_IF(idx[x] < 0 || idx[x] >= n, "pushfold_support: a mixed hand out of range");
    CL_FAIL_IF(rounds < 1 || rounds > 1000 || !(tol >= 0), "pushfold_support: rounds 1 to 1000 and a tolerance >= 0");
    work = malloc((size_t)(4 * n) * sizeof(double));
    if (work == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int found = 0;
    Py_BEGIN_ALLOW_THREADS
    const double *b = base.buf, *a_sb = m_sb.buf, *a_bb = m_bb.buf;
    double *s = s_buf.buf, *c = c_buf.buf;
    double *sbm = work, *bbm = work + n, *new_s = work + 2 * n, *new_c = work + 3 * n;
    const int64_t *rows = idx, *cols = idx + k;
    for (int round = 0; round < rounds; round++) {
        if (k) {
            for (int x = 0; x < k; x++) {
                s[rows[x]] = 0.0;
                c[cols[x]] = 0.0;
            }
            double a1[2][2], b1[2], a2[2][2], b2[2], ps[2], pc[2];
            for (int x = 0; x < k; x++) {
                double sum_s = 0.0, sum_c = 0.0;
                for (Py_ssize_t r = 0; r < n; r++) {
                    sum_s += a_bb[r * n + cols[x]] * s[r];
                    sum_c += a_sb[rows[x] * n + r] * c[r];
                }
                b1[x] = -sum_s;
                b2[x] = -(b[rows[x]] + sum_c);
                for (int y = 0; y < k; y++) {
                    a1[x][y] = a_bb[rows[y] * n + cols[x]];
                    a2[x][y] = a_sb[rows[x] * n + cols[y]];
                }
            }
            if (!small_solve(k, a1, b1, ps) || !small_solve(k, a2, b2, pc))
                break;
            int inside = 1;
            for (int x = 0; x < k; x++)
                if (!(ps[x] > 0 && ps[x] < 1 && pc[x] > 0 && pc[x] < 1))
                    inside = 0;
            if (!inside)
                break;
            for (int x = 0; x < k; x++) {
                s[rows[x]] = ps[x];
                c[cols[x]] = pc[x];
            }
        }
        sb_margins(b, a_sb, c, sbm, n);
        bb_margins(a_bb, s, bbm, n);
        if (violation(sbm, s, n) <= tol && violation(bbm, c, n) <= tol) {
            found = 1;
            break;
        }
        int same = 1;
        for (Py_ssize_t i = 0; i < n; i++) {
            new_s[i] = sbm[i] > 0 ? 1.0 : 0.0;
            new_c[i] = bbm[i] > 0 ? 1.0 : 0.0;
        }
        for (int x = 0; x < k; x++) {
            new_s[rows[x]] = s[rows[x]];
            new_c[cols[x]] = c[cols[x]];
        }
        for (Py_ssize_t i = 0; i < n; i++)
            if (new_s[i] != s[i] || new_c[i] != c[i])
                same = 0;
        if (same)
            break;
        memcpy(s, new_s, (size_t)bytes);
        memcpy(c, new_c, (size_t)bytes);
    }
    Py_END_ALLOW_THREADS
    result = PyBool_FromLong(found);
done:
    free(work);
    CL_RELEASE(&base, &m_sb, &m_bb, &mixed, &s_buf, &c_buf);
    return result;
}

/* pushfold_triples(tables, combos, offsets, triples, samples, seed, weights, counts): the
 * three-way all-in of class triples for three-handed push/fold (cardlab.poker.pushfold3).
 * combos: the 1,326 hold'em combos (two card ids each) grouped by class, offsets[c] .. offsets[c
 * + 1] those of class c (170 int64); triples: int16 (n, 3) class triples.  For each triple:
 * weights[t] (int64, exact) = the ordered combo triples, one of each class, that share no card;
 * counts[t, 0..6] (int64) over `samples` random deals, each a combo triple drawn uniformly among
 * those and a board drawn uniformly from the 46 other cards: seat 0, 1 or 2 wins alone, seats
 * 0-1, 0-2 or 1-2 split, all three split. */
#define TRIPLE_OUTCOMES 7
#define MAX_CLASS_COMBOS 12

static PyObject *pushfold_triples(PyObject *Py_UNUSED(self), PyObject *args)
{
    const cl_poker_tables *t;
    Py_buffer combos, offsets, triples, seed, weights, counts;
    Py_ssize_t samples;
    if (!PyArg_ParseTuple(args, "O&y*y*y*ny*w*w*", cl_tables_arg, &t, &combos, &offsets, &triples, &samples, &seed,
                          &weights, &counts))
        return NULL;
    const Py_ssize_t n = triples.len / (Py_ssize_t)(3 * sizeof(int16_t));
    if (combos.len != 1326 * 2 || offsets.len != 170 * (Py_ssize_t)sizeof(int64_t) || seed.len != 32
        || triples.len != n * (Py_ssize_t)(3 * sizeof(int16_t)) || weights.len != n * (Py_ssize_t)sizeof(int64_t)
        || counts.len != n * TRIPLE_OUTCOMES * (Py_ssize_t)sizeof(int64_t) || samples < 1 || samples > 100000000) {
        PyErr_SetString(PyExc_ValueError, "pushfold_triples: buffers of the wrong size");
        goto done;
    }
    const uint8_t *cards = combos.buf;
    const int64_t *off = offsets.buf;
    const int16_t *tri = triples.buf;
    int ok = off[0] == 0 && off[169] == 1326;
    for (int c = 0; c < 169 && ok; c++)
        ok = off[c + 1] > off[c] && off[c + 1] - off[c] <= MAX_CLASS_COMBOS;
    for (Py_ssize_t i = 0; i < 1326 * 2 && ok; i++)
        ok = cards[i] < 52;
    for (Py_ssize_t i = 0; i < 3 * n && ok; i++)
        ok = tri[i] >= 0 && tri[i] < 169;
    CL_FAIL_IF(!ok, "pushfold_triples: a card, class or class offset out of range");
    Py_BEGIN_ALLOW_THREADS
    int32_t valid[3 * MAX_CLASS_COMBOS * MAX_CLASS_COMBOS * MAX_CLASS_COMBOS];  /* one class triple's combos, 20 KiB */
    cl_rng rng;
    cl_rng_seed(&rng, seed.buf);
    int64_t *w_out = weights.buf, *c_out = counts.buf;
    for (Py_ssize_t x = 0; x < n; x++) {
        const int16_t *cls = tri + 3 * x;
        int64_t *tally = c_out + TRIPLE_OUTCOMES * x;
        memset(tally, 0, TRIPLE_OUTCOMES * sizeof(int64_t));
        uint32_t count = 0;
        for (int64_t a = off[cls[0]]; a < off[cls[0] + 1]; a++) {
            const uint64_t ma = (UINT64_C(1) << cards[2 * a]) | (UINT64_C(1) << cards[2 * a + 1]);
            for (int64_t b = off[cls[1]]; b < off[cls[1] + 1]; b++) {
                const uint64_t mb = (UINT64_C(1) << cards[2 * b]) | (UINT64_C(1) << cards[2 * b + 1]);
                if (ma & mb)
                    continue;
                for (int64_t c = off[cls[2]]; c < off[cls[2] + 1]; c++) {
                    const uint64_t mc = (UINT64_C(1) << cards[2 * c]) | (UINT64_C(1) << cards[2 * c + 1]);
                    if ((ma | mb) & mc)
                        continue;
                    valid[3 * count] = (int32_t)a;
                    valid[3 * count + 1] = (int32_t)b;
                    valid[3 * count + 2] = (int32_t)c;
                    count++;
                }
            }
        }
        w_out[x] = count;
        if (!count)
            continue;
        for (Py_ssize_t s = 0; s < samples; s++) {
            const uint32_t pick = cl_below_from(&rng, (uint32_t)cl_next(&rng), count);
            uint64_t used = 0, key[3], mask[3];
            for (int seat = 0; seat < 3; seat++) {
                const uint8_t c0 = cards[2 * valid[3 * pick + seat]], c1 = cards[2 * valid[3 * pick + seat] + 1];
                used |= (UINT64_C(1) << c0) | (UINT64_C(1) << c1);
                key[seat] = CL_SUIT_START + t->key[c0] + t->key[c1];
                mask[seat] = t->bit[c0] | t->bit[c1];
            }
            uint64_t bkey = 0, bmask = 0;
            for (int k = 0; k < 5;) {
                const uint32_t card = (uint32_t)(cl_next(&rng) >> 32) % 52u;  /* 2^32 mod 52 != 0: bias < 1e-8 */
                if (used >> card & 1)
                    continue;
                used |= UINT64_C(1) << card;
                bkey += t->key[card];
                bmask |= t->bit[card];
                k++;
            }
            const uint32_t v0 = cl_poker_value(t, key[0] + bkey, mask[0] | bmask);
            const uint32_t v1 = cl_poker_value(t, key[1] + bkey, mask[1] | bmask);
            const uint32_t v2 = cl_poker_value(t, key[2] + bkey, mask[2] | bmask);
            const uint32_t top = v0 > v1 ? (v0 > v2 ? v0 : v2) : (v1 > v2 ? v1 : v2);
            const int w0 = v0 == top, w1 = v1 == top, w2 = v2 == top;
            const int outcome = w0 + w1 + w2 == 3 ? 6 : w0 && w1 ? 3 : w0 && w2 ? 4 : w1 && w2 ? 5 : w0 ? 0 : w1 ? 1 : 2;
            tally[outcome]++;
        }
    }
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_NONE(&combos, &offsets, &triples, &seed, &weights, &counts);
}

CL_METHODS(tournament,
    CL_METHOD(icm_places, "icm_places(weights, places): finishing-place probabilities by the subset programme."),
    CL_METHOD(pushfold_regret, "pushfold_regret(base, m_sb, m_bb, rounds, s_avg, c_avg): regret matching+ for push/fold."),
    CL_METHOD(pushfold_support, "pushfold_support(base, m_sb, m_bb, mixed, s, c, rounds, tol) -> bool: one support tried."),
    CL_METHOD(pushfold_triples,
              "pushfold_triples(tables, combos, offsets, triples, samples, seed, weights, counts): three-way all-ins."));
