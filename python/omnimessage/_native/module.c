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

/* The runtime's typed decoder and the exceptions that send a line to the slow path (bind()). */
static PyObject *bound_decode, *bound_errors;

static PyObject *bind(PyObject *self, PyObject *args) {
    PyObject *decode, *errors;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO!", &decode, &PyTuple_Type, &errors)) return NULL;
    Py_INCREF(decode);
    Py_INCREF(errors);
    Py_XDECREF(bound_decode);
    Py_XDECREF(bound_errors);
    bound_decode = decode;
    bound_errors = errors;
    Py_RETURN_NONE;
}

/* The fast path in one call: the bound decoder's message when it decodes the line and the line
 * is canonical; None when the slow path must decide. */
static PyObject *decode(PyObject *self, PyObject *arg) {
    char *buf;
    Py_ssize_t n;
    (void)self;
    if (bound_decode == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "omnimessage._accel.decode before bind()");
        return NULL;
    }
    if (!PyBytes_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "decode() takes bytes");
        return NULL;
    }
    PyObject *msg = PyObject_CallFunctionObjArgs(bound_decode, arg, NULL);
    if (msg == NULL) {
        if (!PyErr_ExceptionMatches(bound_errors)) return NULL;
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    if (PyBytes_AsStringAndSize(arg, &buf, &n) < 0) {
        Py_DECREF(msg);
        return NULL;
    }
    if (omv_canonical((const unsigned char *)buf, (size_t)n)) return msg;
    Py_DECREF(msg);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"bind", bind, METH_VARARGS,
     "bind(decode, errors: tuple) -> None\n--\n\n"
     "The typed decoder decode() calls, and the exceptions of it that mean \"not for the fast path\"."},
    {"decode", decode, METH_O,
     "decode(line: bytes) -> message | None\n--\n\n"
     "The bound decoder's message when the line decodes and is canonical (canonical()); None when\n"
     "the slow path must decide."},
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
