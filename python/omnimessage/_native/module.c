/* omnimessage._accel: the canonical-form verifier (verify.c) as a Python function, for the
 * codec's fast path (python/omnimessage/codec/native.py picks it). The limited API of 3.11, so
 * one abi3 wheel serves every CPython from 3.11 on. */
#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

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

/* The runtime's typed decoder and the exceptions that send a line to the slow path (bind()); when the
 * decoder is a plain METH_FASTCALL builtin (msgspec's Decoder.decode is), its C function and self, called
 * directly: the call costs no dispatch through the method object. */
typedef PyObject *(*fastcall_fn)(PyObject *, PyObject *const *, Py_ssize_t);
static PyObject *bound_decode, *bound_errors;
static fastcall_fn bound_fn;
static PyObject *bound_self; /* borrowed: bound_decode holds it */

/* *slot = value, a new reference, and the old one released after (the same object again is safe). */
static void hold(PyObject **slot, PyObject *value) {
    PyObject *old = *slot;
    Py_INCREF(value);
    *slot = value;
    Py_XDECREF(old);
}

static PyObject *bind(PyObject *self, PyObject *args) {
    PyObject *decode, *errors;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO!", &decode, &PyTuple_Type, &errors)) return NULL;
    hold(&bound_decode, decode);
    hold(&bound_errors, errors);
    bound_fn = NULL;
    bound_self = NULL;
    if (PyCFunction_Check(decode) && PyCFunction_GetFlags(decode) == METH_FASTCALL) {
        bound_fn = (fastcall_fn)(void (*)(void))PyCFunction_GetFunction(decode);
        bound_self = PyCFunction_GetSelf(decode);
    }
    Py_RETURN_NONE;
}

/* The fast path: the bound decoder's message when it decodes the bytes `arg` and they are canonical;
 * None (a new reference) when the slow path must decide; NULL with an exception the bound decoder
 * raised that is not one of the bound errors. */
static PyObject *attempt(PyObject *arg) {
    char *buf;
    Py_ssize_t n;
    /* held for the call: a decoder that is Python code may bind() others while it runs */
    PyObject *decoder = bound_decode, *errors = bound_errors, *msg;
    Py_INCREF(decoder);
    Py_INCREF(errors);
    msg = bound_fn != NULL ? bound_fn(bound_self, &arg, 1) : PyObject_CallFunctionObjArgs(decoder, arg, NULL);
    Py_DECREF(decoder);
    if (msg == NULL) {
        int refused = PyErr_ExceptionMatches(errors);
        Py_DECREF(errors);
        if (!refused) return NULL;
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    Py_DECREF(errors);
    if (PyBytes_AsStringAndSize(arg, &buf, &n) < 0) {
        Py_DECREF(msg);
        return NULL;
    }
    if (omv_canonical((const unsigned char *)buf, (size_t)n)) return msg;
    Py_DECREF(msg);
    Py_RETURN_NONE;
}

static int bound(void) {
    if (bound_decode != NULL) return 1;
    PyErr_SetString(PyExc_RuntimeError, "omnimessage._accel used before bind()");
    return 0;
}

/* The fast path in one call (attempt()), for the codec's tables and the validator. */
static PyObject *decode(PyObject *self, PyObject *arg) {
    (void)self;
    if (!bound()) return NULL;
    if (!PyBytes_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "decode() takes bytes");
        return NULL;
    }
    return attempt(arg);
}

/* The public `omnimessage.decode` (entry() makes it): a call `decode(line)` or `decode(line,
 * lenient=x)` with `line` exactly bytes is the fast path, and a line it turns down goes to the codec's
 * `refused(line, lenient)` (the slow path, never the fast one again); any other call (other types, other
 * arguments, wrong ones) is the Python `decode` it stands for, called as it was: results and errors are
 * that function's. entry() binds both (one entry a process: a second entry() rebinds them). */
static PyObject *entry_fallback, *entry_refused;

static PyObject *entry_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PyObject *lenient = Py_False;
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_Size(kwnames);
    (void)self;
    if (nargs == 1 && PyBytes_CheckExact(args[0]) && bound_decode != NULL
        && (nkw == 0 || (nkw == 1 && PyUnicode_CompareWithASCIIString(PyTuple_GetItem(kwnames, 0), "lenient") == 0))) {
        if (nkw == 1) lenient = args[1];
        PyObject *msg = attempt(args[0]);
        if (msg != Py_None) return msg;
        Py_DECREF(msg);
        return PyObject_CallFunctionObjArgs(entry_refused, args[0], lenient, NULL);
    }
    PyObject *pos = PyTuple_New(nargs), *kw = nkw ? PyDict_New() : NULL, *out = NULL;
    if (pos == NULL || (nkw && kw == NULL)) goto done;
    for (Py_ssize_t i = 0; i < nargs; i++) {
        Py_INCREF(args[i]);
        PyTuple_SetItem(pos, i, args[i]);
    }
    for (Py_ssize_t i = 0; i < nkw; i++)
        if (PyDict_SetItem(kw, PyTuple_GetItem(kwnames, i), args[nargs + i]) < 0) goto done;
    out = PyObject_Call(entry_fallback, pos, kw);
done:
    Py_XDECREF(pos);
    Py_XDECREF(kw);
    return out;
}

static PyMethodDef entry_def = {"decode", (PyCFunction)(void (*)(void))entry_call, METH_FASTCALL | METH_KEYWORDS, NULL};
static char *entry_doc;

static PyObject *entry(PyObject *self, PyObject *args) {
    PyObject *fallback, *refused, *module;
    const char *doc;
    if (!PyArg_ParseTuple(args, "OOUs", &fallback, &refused, &module, &doc)) return NULL;
    if (entry_doc == NULL) { /* the one PyMethodDef keeps the first doc for the life of the process */
        size_t n = strlen(doc);
        entry_doc = PyMem_Malloc(n + 1);
        if (entry_doc == NULL) return PyErr_NoMemory();
        memcpy(entry_doc, doc, n + 1);
        entry_def.ml_doc = entry_doc;
    }
    hold(&entry_fallback, fallback);
    hold(&entry_refused, refused);
    return PyCFunction_NewEx(&entry_def, self, module); /* self: this module, so that it reads as a function */
}

/* The validator's timestamp fast path (omnimessage.validate.engine.fused): whether `ts` is in the second
 * `second` (its first 19 characters, an earlier timestamp's, already checked), ends in a fraction the
 * rules accept ("Z", or "." and 1 to 3 digits and "Z"), and is not earlier than `prev` (None, or 24
 * characters like `ts`). False whenever that is not proven (other lengths, other characters, a string
 * that has no UTF-8): the validator's own check then decides. Everything proven is ASCII, so bytes
 * compare as the characters do. */
static int ascii_utf8(PyObject *o, const char **buf, Py_ssize_t *n) {
    if (!PyUnicode_Check(o)) return 0;
    *buf = PyUnicode_AsUTF8AndSize(o, n);
    if (*buf == NULL) {
        PyErr_Clear(); /* a lone surrogate: not for the fast path */
        return 0;
    }
    return PyUnicode_GetLength(o) == *n; /* as many UTF-8 bytes as characters: ASCII */
}

static PyObject *ts_next(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    const char *ts, *second, *prev;
    Py_ssize_t n, m, k, i;
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "ts_next() takes 3 arguments");
        return NULL;
    }
    if (!ascii_utf8(args[0], &ts, &n) || !ascii_utf8(args[1], &second, &m) || m != 19 || n < 20 || n > 24
        || memcmp(ts, second, 19) != 0)
        Py_RETURN_FALSE;
    if (n == 20) {
        if (ts[19] != 'Z') Py_RETURN_FALSE;
    } else {
        if (n < 22 || ts[19] != '.' || ts[n - 1] != 'Z') Py_RETURN_FALSE;
        for (i = 20; i < n - 1; i++)
            if (ts[i] < '0' || ts[i] > '9') Py_RETURN_FALSE;
    }
    if (args[2] == Py_None) Py_RETURN_TRUE;
    if (n != 24 || !ascii_utf8(args[2], &prev, &k) || k != 24) Py_RETURN_FALSE;
    if (memcmp(ts, prev, 24) >= 0) Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

static PyMethodDef methods[] = {
    {"bind", bind, METH_VARARGS,
     "bind(decode, errors: tuple) -> None\n--\n\n"
     "The typed decoder decode() calls, and the exceptions of it that mean \"not for the fast path\"."},
    {"entry", entry, METH_VARARGS,
     "entry(fallback, refused, module: str, doc: str) -> decode\n--\n\n"
     "The public decode in one C call: the fast path for a line of bytes, refused(line, lenient) for a\n"
     "line it turns down, fallback(*args, **kwargs) for any other call. `module` and `doc` are its\n"
     "__module__ and __doc__ (a text signature first)."},
    {"decode", decode, METH_O,
     "decode(line: bytes) -> message | None\n--\n\n"
     "The bound decoder's message when the line decodes and is canonical (canonical()); None when\n"
     "the slow path must decide."},
    {"ts_next", (PyCFunction)(void (*)(void))ts_next, METH_FASTCALL,
     "ts_next(ts: str, second: str, prev: str | None) -> bool\n--\n\n"
     "The validator's timestamp fast path: ts[:19] == second, ts[19:] is Z or . and 1 to 3 digits and Z,\n"
     "and prev is None or both are 24 characters and ts >= prev; False when not proven."},
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
