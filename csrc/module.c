/* The module object of cardlab._core: gathers every kernel family's method table. */
#include "core.h"

static PyMethodDef *const families[] = {
    cl_base_methods,
    cl_video_methods,
    cl_deal_methods,
    cl_board_text_methods,
    cl_deal_program_methods,
    cl_poker_eval_methods,
    cl_poker_sim_methods,
    cl_draw_tally_methods,
    cl_poker_equity_methods,
    cl_tournament_methods,
    cl_poker_range_methods,
    cl_poker_games_methods,
    cl_suitplay_methods,
    cl_solver_river_methods,
    cl_casino_methods,
    cl_blackjack_sim_methods,
    cl_casino_stud_methods,
    cl_casino_holdem_methods,
    cl_casino_uth_methods,
    cl_casino_thb_methods,
    NULL,
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "cardlab._core",
    "cardlab's compiled kernels (private: call them through their Python wrappers).",
    -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void)
{
    PyObject *module = PyModule_Create(&core_module);
    if (module == NULL)
        return NULL;
    for (PyMethodDef *const *family = families; *family != NULL; family++) {
        if (PyModule_AddFunctions(module, *family) < 0) {
            Py_DECREF(module);
            return NULL;
        }
    }
    return module;
}
