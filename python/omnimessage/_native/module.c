/* omnimessage._accel: the canonical-form verifier (verify.c) as a Python function, for the
 * codec's fast path (python/omnimessage/_accel_select.py picks it). The limited API of 3.11, so
 * one abi3 wheel serves every CPython from 3.11 on. */
#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "verify.h"

static PyObject *canonical(PyObject *self, PyObject *arg) {
    char *buf;
    Py_ssize_t n;
    (void)self;
    if (!PyBytes_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "canonical() takes bytes");
        return NULL;
    }
    if (PyBytes_AsStringAndSize(arg, &buf, &n) < 0) return NULL;
    if (omv_canonical((const unsigned char *)buf, (size_t)n)) Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

static PyMethodDef methods[] = {
    {"canonical", canonical, METH_O,
     "canonical(line: bytes) -> bool\n--\n\n"
     "True when the line (one trailing line feed allowed), which msgspec has decoded into the\n"
     "generated structs, is the canonical encoding of that message; False when not proven (the\n"
     "slow path decides)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "omnimessage._accel", "The native canonical-form verifier (issue 26).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__accel(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddStringConstant(m, "TABLE_ID", omv_table_id) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
