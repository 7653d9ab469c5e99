/* Python sequences of counts read into C arrays, for the planner's extensions (_planc's planc_rows.c, _estimatec.c).
 * read_longs: the first n items (exactly n with `exact`, else at least n); -1 with a Python error set otherwise. */
#ifndef PLANC_SEQ_H
#define PLANC_SEQ_H
#include <Python.h>

static inline int read_longs(PyObject *seq, long long *out, Py_ssize_t n, int exact, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
    if (exact ? size != n : size < n) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: expected %s%zd values", what, exact ? "" : "at least ", n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) out[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
    Py_DECREF(fast);
    return PyErr_Occurred() ? -1 : 0;
}

/* the same into ints, for short sequences (n <= 128: hands and walls) */
static inline int read_ints(PyObject *seq, int *out, int n, int exact, const char *what) {
    long long buf[128];
    if (n > 128) {
        PyErr_Format(PyExc_ValueError, "%s: more than 128 values", what);
        return -1;
    }
    if (read_longs(seq, buf, n, exact, what) < 0) return -1;
    for (int i = 0; i < n; i++) out[i] = (int)buf[i];
    return 0;
}

#endif
