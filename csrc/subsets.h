/* The walks over k-subsets of n places: in lexicographic order of places, and in colex order.
 *
 *   int pos[K];
 *   cl_subset_first(pos, k);
 *   do { ... use d[pos[0]] .. d[pos[k - 1]] ... } while (cl_subset_next(pos, k, n));
 *
 * Needs 1 <= k <= n.  cl_subset_next moves pos to the next subset and returns 1, or returns 0
 * after the last one (n - k, ..., n - 1), leaving pos as it was.
 */
#ifndef CARDLAB_SUBSETS_H
#define CARDLAB_SUBSETS_H

static inline void cl_subset_first(int *pos, int k)
{
    for (int i = 0; i < k; i++)
        pos[i] = i;
}

static inline int cl_subset_next(int *pos, int k, int n)
{
    int i = k - 1;
    while (i >= 0 && pos[i] == n - k + i)
        i--;
    if (i < 0)
        return 0;
    pos[i]++;
    for (int j = i + 1; j < k; j++)
        pos[j] = pos[j - 1] + 1;
    return 1;
}

/* The same walk in colex order (by the highest place, then the next, ...), as the colex numbers
 * of cardlab.casino.simulation.colex count: 0 after the last subset, leaving pos as it was. */
static inline int cl_subset_next_colex(int *pos, int k, int n)
{
    for (int i = 0; i < k; i++) {
        const int limit = i + 1 < k ? pos[i + 1] : n;
        if (pos[i] + 1 < limit) {
            pos[i]++;
            for (int j = 0; j < i; j++)
                pos[j] = j;
            return 1;
        }
    }
    return 0;
}

#endif
