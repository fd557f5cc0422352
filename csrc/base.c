/* Kernels every family shares: the build's own description, for checks and benchmarks. */
#include "core.h"

static PyObject *build_info(PyObject *self, PyObject *unused)
{
    return Py_BuildValue("{s:s,s:i}", "compiler", __VERSION__, "gil_released", 1);
}

PyMethodDef cl_base_methods[] = {
    {"build_info", build_info, METH_NOARGS, "The compiler that built the core."},
    {NULL, NULL, 0, NULL},
};
