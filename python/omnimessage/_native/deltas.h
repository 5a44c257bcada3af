/* The validator's common stream line in C (deltas.c), and what it takes of module.c. */
#ifndef OM_DELTAS_H
#define OM_DELTAS_H

/* module.c: the bound decoder's canonical message for a line of bytes, None (a new reference) when the
 * slow path must decide, NULL with an exception (also when nothing is bound). */
PyObject *om_attempt(PyObject *raw);
/* module.c: the timestamp fast path (`ts_next`): 1 when proven, 0 when not. */
int om_ts_plain(PyObject *ts, PyObject *second, PyObject *prev);

/* deltas.c: `deltas(item, items, v, main, budget, spec, with_lf, stripped)`, and its interned names. */
PyObject *om_deltas(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
int om_deltas_init(void);

#endif
