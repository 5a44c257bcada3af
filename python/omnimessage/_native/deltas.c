/* The validator's most common stream line in C: a `delta` of an open streaming segment of the main
 * session (omnimessage.validate.engine.fused, whose loop `run` calls `deltas`).
 *
 * deltas(item, items, v, main, budget, spec, with_lf, stripped) takes `item`, then the lines of the
 * iterator `items`, as long as each is such a line that no rule reports on: a line of bytes the bound
 * decoder decodes (module.c, om_attempt), of the main session (no origin), with a timestamp the fast path
 * proves (om_ts_plain), whose payload is a partial of `spec`'s table with event_type "delta", of a segment
 * open in `main.segs`, whose fragment is appended without a flush (the budget and the caps hold). For
 * such a line it does what the Python loop does (the line counters, the session's timestamp, the
 * fragment appended, the size and the budget): state it keeps in locals and writes back when it returns.
 * It returns None when `items` is exhausted, else (item, msg) for the first line it does not finish,
 * having changed nothing for that line: msg is its decoded message (the loop goes on from the envelope),
 * False when the decoder turned it down, None when it did not try (not bytes, CR LF, no line feed...).
 * Whatever it does not prove goes back to Python, which decides; any unexpected type is a fallback or a
 * TypeError, never an assumption. The Python loop alone does the same when this is not built
 * (python/tests/test_validate_fused.py holds both to the general path). */
#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "deltas.h"

enum {
    N_LINE, N_LINES, N_FILE_LINES, N_MESSAGES, N_TS_SECOND, N_TS, N_TS_LINE, N_OPENING, N_EXPECT, N_USAGE,
    N_USAGE_REPORTED, N_SEGS, N_CALLS, N_LEFT, N_ORIGIN, N_TIMESTAMP, N_PAYLOAD, N_EVENT_TYPE, N_IMAGES,
    N_TOOL_CALL_ID, N_NAME, N_PARTS, N_SIZE, N_DIGEST, N_STARTED, N_FIELD, N_COUNT
};
static const char *const NAMES[N_COUNT] = {
    "line", "lines", "file_lines", "messages", "ts_second", "ts", "ts_line", "opening", "expect", "usage",
    "usage_reported", "segs", "calls", "left", "origin", "timestamp", "payload", "event_type", "images",
    "tool_call_id", "name", "parts", "size", "digest", "started", "(fragment field)",
};
static PyObject *name[N_COUNT];

/* The flags of a partial class in spec's table (fused.py, _traits). */
enum { KEYED = 1, TOOL_SIDE = 2, NAMED = 4, WITH_IMAGES = 8 };

int om_deltas_init(void) {
    for (int i = 0; i < N_FIELD; i++)
        if (name[i] == NULL && (name[i] = PyUnicode_InternFromString(NAMES[i])) == NULL) return -1;
    return 0;
}

/* Attribute reads without the generic lookup: for each name, the member descriptor (`__slots__`, a
 * msgspec field) of the last few exact types read, called directly. Filled on a miss only when the
 * type's attribute lookup is the generic one and the class attribute is a member descriptor (exactly
 * types.MemberDescriptorType, the spec's), which then is what the generic lookup calls too; the cache
 * holds its types and descriptors (a fixed number: WAYS a name). It assumes the classes are not
 * changed after the fact (a slot replaced on the class), as the interpreter's own caches do not. */
#define WAYS 4
typedef struct {
    PyObject *type, *descr;
} way;
static way cache[N_COUNT][WAYS];
static unsigned next_way[N_COUNT];
static PyObject *member_type; /* types.MemberDescriptorType (held) */
static descrgetfunc member_get;
static descrsetfunc member_set;

static void learn(PyObject *o, int n, PyObject *attr) {
    PyTypeObject *t = Py_TYPE(o);
    PyObject *d;
    if (member_get == NULL || member_set == NULL || PyType_GetSlot(t, Py_tp_getattro) != (void *)PyObject_GenericGetAttr) return;
    if ((d = PyObject_GetAttr((PyObject *)t, attr)) == NULL) {
        PyErr_Clear();
        return;
    }
    if (Py_TYPE(d) != (PyTypeObject *)member_type) {
        Py_DECREF(d);
        return;
    }
    way *w = &cache[n][next_way[n]++ % WAYS];
    Py_INCREF((PyObject *)t);
    PyObject *old_type = w->type, *old_descr = w->descr;
    w->type = (PyObject *)t;
    w->descr = d; /* the reference moves */
    Py_XDECREF(old_type);
    Py_XDECREF(old_descr);
}

/* o.<attr> (name n, attr its string), as PyObject_GetAttr gives it: a new reference, or NULL. */
static PyObject *get_attr(PyObject *o, int n, PyObject *attr) {
    PyObject *t = (PyObject *)Py_TYPE(o), *r;
    for (int i = 0; i < WAYS; i++)
        if (cache[n][i].type == t) return member_get(cache[n][i].descr, o, t);
    if ((r = PyObject_GetAttr(o, attr)) != NULL) learn(o, n, attr);
    return r;
}
#define GET(o, n) get_attr((o), (n), name[n])

/* o.<name n> = value, as PyObject_SetAttr does it (the cached member descriptor's setter, or that). */
static int set_attr(PyObject *o, int n, PyObject *value) {
    PyObject *t = (PyObject *)Py_TYPE(o);
    for (int i = 0; i < WAYS; i++)
        if (cache[n][i].type == t) return member_set(cache[n][i].descr, o, value);
    return PyObject_SetAttr(o, name[n], value);
}

typedef struct {
    PyObject *v, *main, *budget, *table, *unset;
    PyObject *second, *ts, *segs, *calls; /* owned */
    PyObject *last_cls, *last_tid, *last_seg; /* owned: the segment of the last line taken, and its key */
    Py_ssize_t line, lines, file_lines, messages, ts_line, left, frag_cap, prefix_cap;
    int ready, usage_open, handled, left_changed; /* ready: 0 not read yet, 1 read, -1 no line for this path */
} run_state;

/* o.<name> as a Py_ssize_t: 0, or -1 with an exception (TypeError when it is not an int). */
static PyObject *get_attr(PyObject *o, int n, PyObject *attr);
static int get_ssize(PyObject *o, int n, Py_ssize_t *out) {
    PyObject *x = get_attr(o, n, name[n]);
    if (x == NULL) return -1;
    if (!PyLong_Check(x)) {
        Py_DECREF(x);
        PyErr_Format(PyExc_TypeError, "deltas(): %s is not an int", NAMES[n]);
        return -1;
    }
    *out = PyLong_AsSsize_t(x);
    Py_DECREF(x);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static int set_attr(PyObject *o, int n, PyObject *value);
static int set_ssize(PyObject *o, int n, Py_ssize_t value) {
    PyObject *x = PyLong_FromSsize_t(value);
    if (x == NULL) return -1;
    int r = set_attr(o, n, x);
    Py_DECREF(x);
    return r;
}

/* The truth of o.<name>: 1, 0, or -1 with an exception. */
static int truth(PyObject *o, int n) {
    PyObject *x = get_attr(o, n, name[n]);
    if (x == NULL) return -1;
    int r = PyObject_IsTrue(x);
    Py_DECREF(x);
    return r;
}

/* What the lines taken depend on, read once: 1, 0 when no line is for this path now (an opening, an
 * expectation, state of other types), -1 with an exception. */
static int read_state(run_state *st) {
    int t;
    if (get_ssize(st->v, N_LINE, &st->line) < 0 || get_ssize(st->v, N_LINES, &st->lines) < 0
        || get_ssize(st->v, N_FILE_LINES, &st->file_lines) < 0 || get_ssize(st->v, N_MESSAGES, &st->messages) < 0
        || get_ssize(st->main, N_TS_LINE, &st->ts_line) < 0 || get_ssize(st->budget, N_LEFT, &st->left) < 0)
        return -1;
    if ((st->second = GET(st->v, N_TS_SECOND)) == NULL) return -1;
    if ((st->ts = GET(st->main, N_TS)) == NULL) return -1;
    if ((st->segs = GET(st->main, N_SEGS)) == NULL) return -1;
    if ((st->calls = GET(st->main, N_CALLS)) == NULL) return -1;
    if (!PyDict_CheckExact(st->segs) || !PyDict_CheckExact(st->calls)) return 0;
    if ((t = truth(st->main, N_OPENING)) != 0) return t < 0 ? -1 : 0;
    PyObject *expect = GET(st->main, N_EXPECT);
    if (expect == NULL) return -1;
    Py_DECREF(expect);
    if (expect != Py_None) return 0;
    if ((t = truth(st->main, N_USAGE)) < 0) return -1;
    st->usage_open = t;
    if (t) {
        if ((t = truth(st->main, N_USAGE_REPORTED)) < 0) return -1;
        st->usage_open = !t;
    }
    return 1;
}

/* *slot = value (a reference that moves), the old one released after. */
#define Py_XSETREF_(slot, value)                                                                              \
    do {                                                                                                       \
        PyObject *old_ = (slot);                                                                               \
        (slot) = (value);                                                                                      \
        Py_XDECREF(old_);                                                                                      \
    } while (0)

/* The lines taken, written back: the counters, the session's last timestamp, the budget. */
static int write_back(run_state *st) {
    if (!st->handled) return 0;
    if (set_ssize(st->v, N_LINE, st->line) < 0 || set_ssize(st->v, N_LINES, st->lines) < 0
        || set_ssize(st->v, N_FILE_LINES, st->file_lines) < 0 || set_ssize(st->v, N_MESSAGES, st->messages) < 0
        || set_attr(st->main, N_TS, st->ts) < 0 || set_ssize(st->main, N_TS_LINE, st->ts_line) < 0)
        return -1;
    if (st->left_changed && set_ssize(st->budget, N_LEFT, st->left) < 0) return -1;
    st->handled = 0;
    return 0;
}

/* A decoded line: 1 when it is a delta this path takes (and taken: its state changed), 0 when Python
 * decides (nothing changed), -1 with an exception. */
static int delta(run_state *st, PyObject *msg) {
    PyObject *x = NULL, *ts = NULL, *p = NULL, *tid = NULL, *key = NULL, *seg = NULL, *text = NULL, *parts = NULL,
             *digest = NULL, *size_obj = NULL;
    PyObject *spec, *field;
    Py_ssize_t size, tn, np;
    long flags;
    int r = -1, t;

    if ((x = GET(msg, N_ORIGIN)) == NULL) goto out;
    if (x != st->unset) goto pass;
    Py_CLEAR(x);
    if ((p = GET(msg, N_PAYLOAD)) == NULL) goto out;
    spec = PyDict_GetItemWithError(st->table, (PyObject *)Py_TYPE(p)); /* borrowed */
    if (spec == NULL) {
        if (PyErr_Occurred()) goto out;
        goto pass;
    }
    if (!PyTuple_Check(spec) || PyTuple_Size(spec) != 2 || !PyUnicode_Check(field = PyTuple_GetItem(spec, 0))
        || !PyLong_Check(PyTuple_GetItem(spec, 1))) {
        PyErr_SetString(PyExc_TypeError, "deltas(): the table holds (field, flags) pairs");
        goto out;
    }
    if ((flags = PyLong_AsLong(PyTuple_GetItem(spec, 1))) == -1 && PyErr_Occurred()) goto out;
    if ((x = GET(p, N_EVENT_TYPE)) == NULL) goto out;
    if (!PyUnicode_Check(x) || PyUnicode_CompareWithASCIIString(x, "delta") != 0) goto pass;
    Py_CLEAR(x);
    if (st->ready == 0) { /* read at the first delta: the state as it was when deltas() was called */
        if ((t = read_state(st)) < 0) goto out;
        st->ready = t ? 1 : -1;
    }
    if (st->ready < 0) goto pass;
    if ((ts = GET(msg, N_TIMESTAMP)) == NULL) goto out;
    if (!om_ts_plain(ts, st->second, st->ts)) goto pass;
    if (!(flags & TOOL_SIDE) && st->usage_open) goto pass; /* OM407 */
    if (flags & WITH_IMAGES) {
        if ((x = GET(p, N_IMAGES)) == NULL) goto out;
        if (x != st->unset) goto pass; /* OM307 */
        Py_CLEAR(x);
    }
    if (flags & KEYED) {
        if ((tid = GET(p, N_TOOL_CALL_ID)) == NULL) goto out;
        if (!PyUnicode_CheckExact(tid)) goto pass;
    } else {
        tid = Py_None;
        Py_INCREF(tid);
    }
    if (st->last_seg != NULL && st->last_cls == (PyObject *)Py_TYPE(p)
        && (tid == st->last_tid || (tid != Py_None && st->last_tid != Py_None && PyUnicode_Compare(tid, st->last_tid) == 0))) {
        seg = st->last_seg; /* the same key as the last line taken: segs has not changed since */
    } else {
        if ((key = PyTuple_Pack(2, (PyObject *)Py_TYPE(p), tid)) == NULL) goto out;
        if ((seg = PyDict_GetItemWithError(st->segs, key)) == NULL) {
            if (PyErr_Occurred()) goto out;
            goto pass; /* OM301, or a segment not tracked */
        }
    }
    Py_INCREF(seg);
    if (flags & NAMED) { /* a name on a delta: OM306 may apply, Python decides */
        if ((t = truth(p, N_NAME)) != 0) {
            if (t < 0) goto out;
            goto pass;
        }
    }
    if (flags & TOOL_SIDE) { /* the call's output started: Python marks it */
        PyObject *c = PyDict_GetItemWithError(st->calls, tid); /* borrowed */
        if (c == NULL && PyErr_Occurred()) goto out;
        if (c != NULL && c != Py_None) {
            Py_INCREF(c);
            t = truth(c, N_STARTED);
            Py_DECREF(c);
            if (t <= 0) {
                if (t < 0) goto out;
                goto pass;
            }
        }
    }
    /* Segment.add without a flush (state.py), or Python's */
    if ((text = get_attr(p, N_FIELD, field)) == NULL) goto out;
    if (!PyUnicode_Check(text) || (tn = PyUnicode_GetLength(text)) < 0) goto pass;
    if ((parts = GET(seg, N_PARTS)) == NULL) goto out;
    if (!PyList_CheckExact(parts)) goto pass;
    np = PyList_Size(parts);
    if ((size_obj = GET(seg, N_SIZE)) == NULL) goto out;
    if (!PyLong_Check(size_obj)) goto pass;
    if ((size = PyLong_AsSsize_t(size_obj)) == -1 && PyErr_Occurred()) goto out;
    if ((digest = GET(seg, N_DIGEST)) == NULL) goto out;
    if (np >= st->frag_cap || size > PY_SSIZE_T_MAX - tn) goto pass;
    if (digest == Py_None ? st->left - tn < 0 : size + tn > st->prefix_cap) goto pass;
    /* taken: nothing below decides any more */
    Py_CLEAR(size_obj);
    if ((size_obj = PyLong_FromSsize_t(size + tn)) == NULL) goto out;
    if (PyList_Append(parts, text) < 0 || set_attr(seg, N_SIZE, size_obj) < 0) goto out;
    if (seg != st->last_seg) {
        Py_INCREF(seg);
        Py_XSETREF_(st->last_seg, seg);
        Py_INCREF((PyObject *)Py_TYPE(p));
        Py_XSETREF_(st->last_cls, (PyObject *)Py_TYPE(p));
        Py_INCREF(tid);
        Py_XSETREF_(st->last_tid, tid);
    }
    if (digest == Py_None) {
        st->left -= tn;
        st->left_changed = 1;
    }
    st->line++;
    st->lines++;
    st->file_lines++;
    st->messages++;
    x = st->ts;
    st->ts = ts; /* the reference moves */
    ts = NULL;
    Py_XDECREF(x);
    x = NULL;
    st->ts_line = st->line;
    st->handled++;
    r = 1;
    goto out;
pass:
    r = 0;
out:
    Py_XDECREF(x);
    Py_XDECREF(ts);
    Py_XDECREF(p);
    Py_XDECREF(tid);
    Py_XDECREF(key);
    Py_XDECREF(seg);
    Py_XDECREF(text);
    Py_XDECREF(parts);
    Py_XDECREF(digest);
    Py_XDECREF(size_obj);
    return r;
}

/* One item: 1 taken, 0 for Python (*out: a new reference to the message, False or None), -1 error. */
static int one(run_state *st, PyObject *item, int with_lf, int stripped, PyObject **out) {
    char *buf;
    Py_ssize_t n;
    PyObject *raw, *msg;
    int r;
    *out = Py_None;
    if (!PyBytes_CheckExact(item)) goto python;
    if (PyBytes_AsStringAndSize(item, &buf, &n) < 0) return -1;
    if (!stripped && n > 0 && buf[n - 1] == '\n') {
        if ((raw = PyBytes_FromStringAndSize(buf, --n)) == NULL) return -1;
    } else if (!stripped && with_lf) {
        goto python; /* a last line without its line feed */
    } else {
        raw = item;
        Py_INCREF(raw);
    }
    if (n > 0 && buf[n - 1] == '\r') {
        Py_DECREF(raw);
        goto python;
    }
    msg = om_attempt(raw);
    Py_DECREF(raw);
    if (msg == NULL) return -1;
    if (msg == Py_None) {
        Py_DECREF(msg);
        *out = Py_False;
        goto python;
    }
    if ((r = delta(st, msg)) != 0) {
        Py_DECREF(msg);
        return r;
    }
    *out = msg;
    return 0;
python:
    Py_INCREF(*out);
    return 0;
}

PyObject *om_deltas(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    run_state st = {0};
    PyObject *item, *items, *spec, *msg = NULL, *result = NULL;
    int with_lf, stripped, r;
    (void)self;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "deltas() takes 8 arguments");
        return NULL;
    }
    item = args[0];
    items = args[1];
    st.v = args[2];
    st.main = args[3];
    st.budget = args[4];
    spec = args[5];
    if (!PyIter_Check(items) || !PyTuple_Check(spec) || PyTuple_Size(spec) != 5
        || !PyDict_Check(st.table = PyTuple_GetItem(spec, 0)) || !PyType_Check(PyTuple_GetItem(spec, 4))) {
        PyErr_SetString(PyExc_TypeError,
                        "deltas(): an iterator and a (table, unset, fragments, prefix, member descriptor type) spec");
        return NULL;
    }
    if (member_type == NULL) {
        PyTypeObject *m = (PyTypeObject *)PyTuple_GetItem(spec, 4);
        descrgetfunc f = (descrgetfunc)PyType_GetSlot(m, Py_tp_descr_get);
        descrsetfunc g = (descrsetfunc)PyType_GetSlot(m, Py_tp_descr_set);
        if (f == NULL || g == NULL) {
            PyErr_Clear();
        } else {
            member_type = (PyObject *)m;
            Py_INCREF(member_type);
            member_get = f;
            member_set = g;
        }
    }
    st.unset = PyTuple_GetItem(spec, 1);
    st.frag_cap = PyLong_AsSsize_t(PyTuple_GetItem(spec, 2));
    st.prefix_cap = PyLong_AsSsize_t(PyTuple_GetItem(spec, 3));
    if (PyErr_Occurred() || (with_lf = PyObject_IsTrue(args[6])) < 0 || (stripped = PyObject_IsTrue(args[7])) < 0)
        return NULL;
    Py_INCREF(item);
    for (;;) {
        if ((r = one(&st, item, with_lf, stripped, &msg)) < 0) {
            Py_DECREF(item);
            goto done;
        }
        if (r == 0) goto give;
        Py_DECREF(item);
        if ((item = PyIter_Next(items)) == NULL) {
            if (!PyErr_Occurred()) {
                result = Py_None;
                Py_INCREF(result);
            }
            goto done;
        }
    }
give:
    result = PyTuple_Pack(2, item, msg);
    Py_DECREF(item);
    Py_DECREF(msg);
done:
    if (result != NULL) {
        if (write_back(&st) < 0) Py_CLEAR(result);
    } else if (st.handled) { /* the lines taken stay taken; the error stays the one raised */
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        if (write_back(&st) < 0) PyErr_Clear();
        PyErr_Restore(type, value, tb);
    }
    Py_XDECREF(st.second);
    Py_XDECREF(st.ts);
    Py_XDECREF(st.segs);
    Py_XDECREF(st.calls);
    Py_XDECREF(st.last_cls);
    Py_XDECREF(st.last_tid);
    Py_XDECREF(st.last_seg);
    return result;
}
