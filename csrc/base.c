/* Kernels every family shares: the build's own description, for checks and benchmarks. */
#include "core.h"

static PyObject *build_info(PyObject *Py_UNUSED(self), PyObject *Py_UNUSED(unused))
{
#ifdef CL_I128_NATIVE
    const char *i128 = "native";
#else
    const char *i128 = "two words";
#endif
    return Py_BuildValue("{s:s,s:s,s:s,s:i}", "compiler", CL_COMPILER, "route", CL_ROUTE, "int128", i128,
                         "gil_released", 1);
}

CL_METHODS(base,
    {"build_info", build_info, METH_NOARGS, "The compiler that built the core and the portability routes it took."});
