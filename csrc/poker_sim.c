/* Simulated poker hands: k cards drawn from a deck (any multiset of cards), valued, counted by
 * category; the seed job's kernel ("10 million five-card hands, a category table"). */
#include "core.h"
#include "poker.h"

#include <string.h>

/* poker_simulate(tables, cards, k, n, seed, counts, spill) -> rows spilled
 *   cards: the deck's physical cards (uint8, a card may repeat); seed: 4 uint64 words;
 *   counts: 16 int64, += the category counts; spill: n * k uint8 when a card repeats in the
 *   deck (several decks), where a hand holding a card twice is written instead of counted,
 *   for the caller to value. */
static PyObject *poker_simulate(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *capsule;
    Py_buffer cards, seed, counts, spill;
    int k;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "Oy*iny*w*w*", &capsule, &cards, &k, &n, &seed, &counts, &spill))
        return NULL;
    PyObject *result = NULL;
    const cl_poker_tables *t = cl_poker_tables_of(capsule);
    if (t == NULL)
        goto done;
    int repeats = 0;
    if (cards.len <= 4096) {
        uint8_t seen[256] = {0};
        for (Py_ssize_t i = 0; i < cards.len; i++)
            repeats |= seen[((const uint8_t *)cards.buf)[i]]++;
    }
    if (k < 5 || k > 7 || cards.len < k || cards.len > 4096 || seed.len != 32 || counts.len != 128
        || n < 0 || (repeats && spill.len < n * k)) {
        PyErr_SetString(PyExc_ValueError, "poker_simulate: bad arguments");
        goto done;
    }
    Py_ssize_t spilled = 0;
    Py_BEGIN_ALLOW_THREADS
    uint8_t deck[4096];
    int size = (int)cards.len;
    memcpy(deck, cards.buf, (size_t)size);
    cl_rng rng;
    cl_rng_seed(&rng, seed.buf);
    int64_t tally[16] = {0};
    cl_halves half = {0, 0};
    uint8_t *out = spill.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t key = CL_SUIT_START, mask = 0, sum = 0;
        for (int j = 0; j < k; j++) {  /* a partial shuffle: the hand is deck[0..k) */
            int pick = j + (int)cl_below_half(&rng, &half, (uint32_t)(size - j));
            uint8_t c = deck[pick];
            deck[pick] = deck[j];
            deck[j] = c;
            key += t->key[c];
            mask |= t->bit[c];
            sum += t->bit[c];
        }
        if (CL_UNLIKELY(sum != mask)) {
            memcpy(out + spilled * k, deck, (size_t)k);
            spilled++;
            continue;
        }
        tally[t->category[cl_poker_value(t, key, mask) >> CL_CATEGORY_SHIFT]]++;
    }
    int64_t *total = counts.buf;
    for (int c = 0; c < 16; c++)
        total[c] += tally[c];
    Py_END_ALLOW_THREADS
    result = PyLong_FromSsize_t(spilled);
done:
    PyBuffer_Release(&cards);
    PyBuffer_Release(&seed);
    PyBuffer_Release(&counts);
    PyBuffer_Release(&spill);
    return result;
}

PyMethodDef cl_poker_sim_methods[] = {
    {"poker_simulate", poker_simulate, METH_VARARGS,
     "poker_simulate(tables, cards, k, n, seed, counts, spill) -> hands spilled (a card twice)."},
    {NULL, NULL, 0, NULL},
};
