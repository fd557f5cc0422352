/* Tournament equity: the finishing-place probabilities of the Malmuth-Harville model (and of
 * Malmuth-Weitzman, the same programme with inverse stacks, places read from the bottom).
 * The wrapper is cardlab.poker.icm.
 *
 * P(S), the probability that the players of the set S take the first |S| places, is pushed
 * from each S (masks in increasing order: every subset of S comes before S) to S + {j} with
 * weight w_j / (W - w(S)); that step is also player j's chance of place |S| + 1.  O(2^n * n). */
#include "core.h"

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
    PyObject *result = NULL;
    const Py_ssize_t n = weights.len / (Py_ssize_t)sizeof(double);
    if (n < 1 || n > MAX_ICM_PLAYERS || weights.len != n * (Py_ssize_t)sizeof(double)
        || places.len != n * n * (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "icm_places: buffers of the wrong size");
        goto done;
    }
    const double *w = weights.buf;
    for (Py_ssize_t j = 0; j < n; j++)
        if (!(w[j] > 0)) {
            PyErr_SetString(PyExc_ValueError, "icm_places: weights must be positive");
            goto done;
        }
    const size_t size = (size_t)1 << n;
    double *prob = calloc(size, sizeof(double));
    double *used = malloc(size * sizeof(double));
    if (prob == NULL || used == NULL) {
        free(prob);
        free(used);
        PyErr_NoMemory();
        goto done;
    }
    double *out = places.buf;
    Py_BEGIN_ALLOW_THREADS
    memset(out, 0, (size_t)(n * n) * sizeof(double));
    double total = 0;
    for (Py_ssize_t j = 0; j < n; j++)
        total += w[j];
    prob[0] = 1.0;
    used[0] = 0.0;
    for (size_t mask = 0; mask < size; mask++) {
        if (mask) {
            size_t low = mask & (~mask + 1);
            used[mask] = used[mask ^ low] + w[cl_ctz64((uint64_t)low)];
        }
        const double p = prob[mask];
        if (p == 0.0)
            continue;
        const double left = total - used[mask];
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
    free(used);
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&weights);
    PyBuffer_Release(&places);
    return result;
}

PyMethodDef cl_tournament_methods[] = {
    {"icm_places", icm_places, METH_VARARGS,
     "icm_places(weights, places): finishing-place probabilities by the subset programme."},
    {NULL, NULL, 0, NULL},
};
