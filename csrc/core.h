/* cardlab._core: the compiled kernels.
 *
 * One kernel family per .c file; each file defines a NULL-terminated method table
 * named cl_<family>_methods and lists it here and in module.c.  Kernels take
 * contiguous buffers of a known type (validated by their one Python wrapper),
 * never allocate per hand, and release the GIL while they run.
 */
#ifndef CARDLAB_CORE_H
#define CARDLAB_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "portable.h"

extern PyMethodDef cl_base_methods[];
extern PyMethodDef cl_video_methods[];
extern PyMethodDef cl_deal_methods[];
extern PyMethodDef cl_deal_program_methods[];
extern PyMethodDef cl_poker_eval_methods[];
extern PyMethodDef cl_poker_sim_methods[];
extern PyMethodDef cl_poker_equity_methods[];
extern PyMethodDef cl_tournament_methods[];
extern PyMethodDef cl_poker_range_methods[];
extern PyMethodDef cl_poker_games_methods[];
extern PyMethodDef cl_suitplay_methods[];

#endif
