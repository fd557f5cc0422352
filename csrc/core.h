/* cardlab._core: the compiled kernels.
 *
 * One kernel family per .c file; each file defines its method table cl_<family>_methods with
 * CL_METHODS (below) and lists it here and in module.c.  Kernels take
 * contiguous buffers of a known type (validated by their one Python wrapper),
 * never allocate per hand, and release the GIL while they run.
 */
#ifndef CARDLAB_CORE_H
#define CARDLAB_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>

#include "portable.h"

extern PyMethodDef cl_base_methods[];
extern PyMethodDef cl_video_methods[];
extern PyMethodDef cl_deal_methods[];
extern PyMethodDef cl_board_text_methods[];
extern PyMethodDef cl_deal_program_methods[];
extern PyMethodDef cl_poker_eval_methods[];
extern PyMethodDef cl_poker_sim_methods[];
extern PyMethodDef cl_draw_tally_methods[];
extern PyMethodDef cl_poker_equity_methods[];
extern PyMethodDef cl_tournament_methods[];
extern PyMethodDef cl_poker_range_methods[];
extern PyMethodDef cl_poker_games_methods[];
extern PyMethodDef cl_suitplay_methods[];
extern PyMethodDef cl_solver_river_methods[];
extern PyMethodDef cl_casino_methods[];
extern PyMethodDef cl_blackjack_sim_methods[];
extern PyMethodDef cl_casino_stud_methods[];
extern PyMethodDef cl_casino_holdem_methods[];
extern PyMethodDef cl_casino_uth_methods[];
extern PyMethodDef cl_casino_thb_methods[];

/* One entry of a kernel family's method table: the kernel under its own name, positional arguments. */
#define CL_METHOD(name, doc) {#name, name, METH_VARARGS, doc}

/* A kernel family's method table, its entries (CL_METHOD) and the closing sentinel, e.g.
 * ``CL_METHODS(video, CL_METHOD(video_hand, "..."), ...);`` defines cl_video_methods. */
#define CL_METHODS(family, ...) PyMethodDef cl_##family##_methods[] = {__VA_ARGS__, {NULL, NULL, 0, NULL}}

/* Inside a kernel: when ``failed``, raise ValueError(message) and go to the kernel's ``done`` tail. */
#define CL_FAIL_IF(failed, message) \
    do { \
        if (failed) { \
            PyErr_SetString(PyExc_ValueError, message); \
            goto done; \
        } \
    } while (0)

/* A kernel's result after its GIL-free loop: None, or NULL with ValueError(message) when the loop
 * met bad input (it cannot raise while the GIL is released). */
static inline PyObject *cl_none_or_error(int failed, const char *message)
{
    if (failed) {
        PyErr_SetString(PyExc_ValueError, message);
        return NULL;
    }
    return Py_NewRef(Py_None);
}

/* The tail of every kernel: release the buffers it parsed, in the order given, e.g.
 * ``done: CL_RELEASE(&in, &out); return result;`` (one line in place of a line per buffer). */
static inline void cl_release_views(Py_buffer *const *views, size_t n)
{
    for (size_t i = 0; i < n; i++)
        PyBuffer_Release(views[i]);
}
#define CL_RELEASE(...) \
    cl_release_views((Py_buffer *const[]){__VA_ARGS__}, \
                     sizeof((Py_buffer *const[]){__VA_ARGS__}) / sizeof(Py_buffer *))

/* The tail of a kernel that returns None: release its buffers (as CL_RELEASE) and return None, or
 * NULL when the way to the tail raised (every ``goto done`` sets an exception), e.g.
 * ``done: return CL_RELEASE_NONE(&in, &out);`` (no result variable to keep). */
static inline PyObject *cl_release_none(Py_buffer *const *views, size_t n)
{
    cl_release_views(views, n);
    return PyErr_Occurred() ? NULL : Py_NewRef(Py_None);
}
#define CL_RELEASE_NONE(...) \
    cl_release_none((Py_buffer *const[]){__VA_ARGS__}, \
                    sizeof((Py_buffer *const[]){__VA_ARGS__}) / sizeof(Py_buffer *))

/* The tail of a kernel that returns a count: release its buffers (as CL_RELEASE) and return the
 * count as an int, or NULL when the way to the tail raised, e.g.
 * ``done: return CL_RELEASE_COUNT(read, &in, &out);``. */
static inline PyObject *cl_release_count(Py_ssize_t count, Py_buffer *const *views, size_t n)
{
    cl_release_views(views, n);
    return PyErr_Occurred() ? NULL : PyLong_FromSsize_t(count);
}
#define CL_RELEASE_COUNT(count, ...) \
    cl_release_count(count, (Py_buffer *const[]){__VA_ARGS__}, \
                     sizeof((Py_buffer *const[]){__VA_ARGS__}) / sizeof(Py_buffer *))

/* Free the heap blocks given (any of them NULL), e.g. ``CL_FREE(t->low, t->high, t);``. */
static inline void cl_free_all(void *const *blocks, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(blocks[i]);
}
#define CL_FREE(...) \
    cl_free_all((void *const[]){__VA_ARGS__}, sizeof((void *const[]){__VA_ARGS__}) / sizeof(void *))

#endif
