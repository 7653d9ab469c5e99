/* The compact fetch search's row filters in C (part of _planc; fetch_win.py's numpy lines are the same and the
 * fallback): a list within reach is an array of row indices into the targets' matrix (T x nr bytes, counts over
 * the relevant kinds), kept as numpy intp; each filter returns the kept indices as bytes of intp, in order.
 *
 * reach_rows(matrix, nr, rows, hand, available, cap[, less_hand]): the rows whose missing copies (row - hand)^+ are
 *   each at most `available` (less the hand's own copies where less_hand: a constant base - hand) and sum to at
 *   most cap.
 * narrowed_rows(matrix, nr, rows, hand, p, cap): after discarding position p of `hand` (p >= nr: a junk slot),
 *   the rows whose cost from hand - p is at most cap (a row holding as many p as the hand needs one more).
 * most_rows(matrix, nr, rows): per kind the most copies any row holds (a list of nr ints).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "planc.h"
#include "planc_seq.h"


typedef struct {
    Py_buffer m, r;
    int nr;
    Py_ssize_t n;
} Rows;

static int open_rows(Rows *x, PyObject *matrix, PyObject *rows, int nr) {
    if (PyObject_GetBuffer(matrix, &x->m, PyBUF_SIMPLE) < 0) return -1;
    if (PyObject_GetBuffer(rows, &x->r, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&x->m);
        return -1;
    }
    x->nr = nr;
    x->n = x->r.len / (Py_ssize_t)sizeof(Py_ssize_t);
    if (nr <= 0 || nr > MAXNR || x->m.len % nr || x->r.len % (Py_ssize_t)sizeof(Py_ssize_t)) {
        PyBuffer_Release(&x->m);
        PyBuffer_Release(&x->r);
        PyErr_SetString(PyExc_ValueError, "row filter: sizes do not fit");
        return -1;
    }
    const Py_ssize_t *idx = x->r.buf, T = x->m.len / nr;
    for (Py_ssize_t i = 0; i < x->n; i++)
        if (idx[i] < 0 || idx[i] >= T) {
            PyBuffer_Release(&x->m);
            PyBuffer_Release(&x->r);
            PyErr_SetString(PyExc_IndexError, "row filter: a row outside the matrix");
            return -1;
        }
    return 0;
}

static void close_rows(Rows *x) {
    PyBuffer_Release(&x->m);
    PyBuffer_Release(&x->r);
}

/* the kept indices (a bytes object of intp) from a keep(row) test, by macro so the inner loop stays inline */
#define FILTER(KEEP)                                                                         \
    do {                                                                                     \
        PyObject *out = PyBytes_FromStringAndSize(NULL, x.n * (Py_ssize_t)sizeof(Py_ssize_t)); \
        if (!out) break;                                                                     \
        Py_ssize_t *dst = (Py_ssize_t *)PyBytes_AS_STRING(out), kept = 0;                    \
        const Py_ssize_t *idx = x.r.buf;                                                     \
        const unsigned char *m = x.m.buf;                                                    \
        for (Py_ssize_t i = 0; i < x.n; i++) {                                               \
            const unsigned char *row = m + (size_t)idx[i] * nr;                              \
            if (KEEP) dst[kept++] = idx[i];                                                  \
        }                                                                                    \
        close_rows(&x);                                                                      \
        if (_PyBytes_Resize(&out, kept * (Py_ssize_t)sizeof(Py_ssize_t)) < 0) return NULL;  \
        return out;                                                                          \
    } while (0)

static int within(const unsigned char *row, const int *hand, const int *avail, int nr, int cap) {
    int cost = 0;
    for (int k = 0; k < nr; k++) {
        int need = row[k] - hand[k];
        if (need > 0) {
            if (need > avail[k] || (cost += need) > cap) return 0;
        }
    }
    return 1;
}

static int narrow(const unsigned char *row, const int *hand, int p, int nr, int cap) {
    int cost = p < nr && row[p] >= hand[p];
    for (int k = 0; k < nr; k++) {
        int need = row[k] - hand[k];
        if (need > 0 && (cost += need) > cap) return 0;
    }
    return 1;
}

PyObject *reach_rows(PyObject *self, PyObject *args) {
    PyObject *matrix, *rows, *hand_o, *avail_o;
    int nr, cap, less_hand = 0, hand[MAXNR], avail[MAXNR];
    Rows x;
    if (!PyArg_ParseTuple(args, "OiOOOi|p", &matrix, &nr, &rows, &hand_o, &avail_o, &cap, &less_hand)) return NULL;
    if (open_rows(&x, matrix, rows, nr) < 0) return NULL;
    if (read_ints(hand_o, hand, nr, 0, "hand") < 0 || read_ints(avail_o, avail, nr, 0, "available") < 0) {
        close_rows(&x);
        return NULL;
    }
    if (less_hand)
        for (int k = 0; k < nr; k++) avail[k] -= hand[k];
    FILTER(within(row, hand, avail, nr, cap));
    close_rows(&x);
    return NULL;
}

PyObject *narrowed_rows(PyObject *self, PyObject *args) {
    PyObject *matrix, *rows, *hand_o;
    int nr, p, cap, hand[MAXNR];
    Rows x;
    if (!PyArg_ParseTuple(args, "OiOOii", &matrix, &nr, &rows, &hand_o, &p, &cap)) return NULL;
    if (open_rows(&x, matrix, rows, nr) < 0) return NULL;
    if (read_ints(hand_o, hand, nr, 0, "hand") < 0) {
        close_rows(&x);
        return NULL;
    }
    FILTER(narrow(row, hand, p, nr, cap));
    close_rows(&x);
    return NULL;
}

PyObject *most_rows(PyObject *self, PyObject *args) {
    PyObject *matrix, *rows;
    int nr, most[MAXNR];
    Rows x;
    if (!PyArg_ParseTuple(args, "OiO", &matrix, &nr, &rows)) return NULL;
    if (open_rows(&x, matrix, rows, nr) < 0) return NULL;
    memset(most, 0, sizeof most);
    const Py_ssize_t *idx = x.r.buf;
    const unsigned char *m = x.m.buf;
    for (Py_ssize_t i = 0; i < x.n; i++) {
        const unsigned char *row = m + (size_t)idx[i] * nr;
        for (int k = 0; k < nr; k++)
            if (row[k] > most[k]) most[k] = row[k];
    }
    close_rows(&x);
    PyObject *out = PyList_New(nr);
    if (!out) return NULL;
    for (int k = 0; k < nr; k++) PyList_SET_ITEM(out, k, PyLong_FromLong(most[k]));
    return out;
}
