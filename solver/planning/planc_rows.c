/* The compact fetch search's row filters in C (part of _planc; fetch_win.py's numpy lines are the same and the
 * fallback): a list within reach is an array of row indices into the targets' matrix (T x nr bytes, counts over
 * the relevant kinds), kept as numpy intp; each filter returns the kept indices as bytes of intp, in order. The
 * filters read the matrix as its rows' nonzero entries (a complete hand holds at most 13 kinds of the 40-60
 * relevant ones, so a row is read in a quarter of the steps), built once per search by sparse_rows.
 *
 * sparse_rows(matrix, nr) -> the matrix's rows as their nonzero (kind, count) pairs (an opaque object).
 * reach_rows(sparse, rows, hand, available, cap[, less_hand]): the rows whose missing copies (row - hand)^+ are
 *   each at most `available` (less the hand's own copies where less_hand: a constant base - hand) and sum to at
 *   most cap.
 * narrowed_rows(sparse, rows, hand, p, cap): after discarding position p of `hand` (p >= nr: a junk slot), the
 *   rows whose cost from hand - p is at most cap (a row holding as many p as the hand needs one more).
 * most_rows(sparse, rows): per kind the most copies any row holds (a list of nr ints).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "planc.h"
#include "planc_seq.h"

#define SPARSE "planc.sparse_rows"

typedef struct {
    Py_ssize_t T;
    int nr;
    int32_t *off;        /* row j's pairs: pair[2 off[j]] .. pair[2 off[j + 1]] (exclusive) */
    unsigned char *pair; /* (kind, count) */
} Sparse;

static void sparse_free(PyObject *capsule) {
    Sparse *s = PyCapsule_GetPointer(capsule, SPARSE);
    if (s) {
        free(s->off);
        free(s->pair);
        free(s);
    }
}

PyObject *sparse_rows(PyObject *self, PyObject *args) {
    PyObject *matrix;
    int nr;
    Py_buffer m;
    if (!PyArg_ParseTuple(args, "Oi", &matrix, &nr)) return NULL;
    if (PyObject_GetBuffer(matrix, &m, PyBUF_SIMPLE) < 0) return NULL;
    if (nr <= 0 || nr > MAXNR || m.len % nr || m.len / nr >= INT32_MAX / MAXNR) {
        PyBuffer_Release(&m);
        PyErr_SetString(PyExc_ValueError, "sparse_rows: sizes do not fit");
        return NULL;
    }
    const unsigned char *cell = m.buf;
    Py_ssize_t T = m.len / nr, nonzero = 0;
    for (Py_ssize_t i = 0; i < m.len; i++) nonzero += cell[i] != 0;
    Sparse *s = calloc(1, sizeof *s);
    if (s) {
        s->off = malloc((size_t)(T + 1) * sizeof *s->off);
        s->pair = malloc((size_t)(2 * nonzero + 1));
    }
    if (!s || !s->off || !s->pair) {
        if (s) {
            free(s->off);
            free(s->pair);
            free(s);
        }
        PyBuffer_Release(&m);
        return PyErr_NoMemory();
    }
    s->T = T;
    s->nr = nr;
    int32_t e = 0;
    for (Py_ssize_t j = 0; j < T; j++) {
        s->off[j] = e;
        for (int k = 0; k < nr; k++) {
            unsigned char c = cell[j * nr + k];
            if (c) {
                s->pair[2 * e] = (unsigned char)k;
                s->pair[2 * e + 1] = c;
                e++;
            }
        }
    }
    s->off[T] = e;
    PyBuffer_Release(&m);
    PyObject *out = PyCapsule_New(s, SPARSE, sparse_free);
    if (!out) {
        free(s->off);
        free(s->pair);
        free(s);
    }
    return out;
}

typedef struct {
    const Sparse *s;
    Py_buffer r;
    Py_ssize_t n;
} Rows;

static int open_rows(Rows *x, PyObject *sparse, PyObject *rows) {
    x->s = PyCapsule_GetPointer(sparse, SPARSE);
    if (!x->s) return -1;
    if (PyObject_GetBuffer(rows, &x->r, PyBUF_SIMPLE) < 0) return -1;
    x->n = x->r.len / (Py_ssize_t)sizeof(Py_ssize_t);
    if (x->r.len % (Py_ssize_t)sizeof(Py_ssize_t)) {
        PyBuffer_Release(&x->r);
        PyErr_SetString(PyExc_ValueError, "row filter: the rows are not intp");
        return -1;
    }
    const Py_ssize_t *idx = x->r.buf;
    for (Py_ssize_t i = 0; i < x->n; i++)
        if (idx[i] < 0 || idx[i] >= x->s->T) {
            PyBuffer_Release(&x->r);
            PyErr_SetString(PyExc_IndexError, "row filter: a row outside the matrix");
            return -1;
        }
    return 0;
}

/* the kept indices (a bytes object of intp) from a keep(row j) test, by macro so the inner loop stays inline */
#define FILTER(KEEP)                                                                         \
    do {                                                                                     \
        PyObject *out = PyBytes_FromStringAndSize(NULL, x.n * (Py_ssize_t)sizeof(Py_ssize_t)); \
        if (!out) break;                                                                     \
        Py_ssize_t *dst = (Py_ssize_t *)PyBytes_AS_STRING(out), kept = 0;                    \
        const Py_ssize_t *idx = x.r.buf;                                                     \
        for (Py_ssize_t i = 0; i < x.n; i++) {                                               \
            const Py_ssize_t j = idx[i];                                                     \
            if (KEEP) dst[kept++] = j;                                                       \
        }                                                                                    \
        PyBuffer_Release(&x.r);                                                              \
        if (_PyBytes_Resize(&out, kept * (Py_ssize_t)sizeof(Py_ssize_t)) < 0) return NULL;  \
        return out;                                                                          \
    } while (0)

static int within(const Sparse *s, Py_ssize_t j, const int *hand, const int *avail, int cap) {
    int cost = 0;
    for (int32_t e = s->off[j]; e < s->off[j + 1]; e++) {
        int k = s->pair[2 * e], need = s->pair[2 * e + 1] - hand[k];
        if (need > 0 && (need > avail[k] || (cost += need) > cap)) return 0;
    }
    return 1;
}

static int narrow(const Sparse *s, Py_ssize_t j, const int *hand, int p, int cap) {
    int cost = 0, at_p = 0;  /* (the row's copies of p: 0 unless among its pairs) */
    for (int32_t e = s->off[j]; e < s->off[j + 1]; e++) {
        int k = s->pair[2 * e], c = s->pair[2 * e + 1], need = c - hand[k];
        if (k == p) at_p = c;
        if (need > 0 && (cost += need) > cap) return 0;  /* (the discard's term only adds) */
    }
    return cost + (p < s->nr && at_p >= hand[p]) <= cap;
}

PyObject *reach_rows(PyObject *self, PyObject *args) {
    PyObject *sparse, *rows, *hand_o, *avail_o;
    int cap, less_hand = 0, hand[MAXNR], avail[MAXNR];
    Rows x;
    if (!PyArg_ParseTuple(args, "OOOOi|p", &sparse, &rows, &hand_o, &avail_o, &cap, &less_hand)) return NULL;
    if (open_rows(&x, sparse, rows) < 0) return NULL;
    int nr = x.s->nr;
    if (read_ints(hand_o, hand, nr, 0, "hand") < 0 || read_ints(avail_o, avail, nr, 0, "available") < 0) {
        PyBuffer_Release(&x.r);
        return NULL;
    }
    if (less_hand)
        for (int k = 0; k < nr; k++) avail[k] -= hand[k];
    FILTER(within(x.s, j, hand, avail, cap));
    PyBuffer_Release(&x.r);
    return NULL;
}

PyObject *narrowed_rows(PyObject *self, PyObject *args) {
    PyObject *sparse, *rows, *hand_o;
    int p, cap, hand[MAXNR + 1];
    Rows x;
    if (!PyArg_ParseTuple(args, "OOOii", &sparse, &rows, &hand_o, &p, &cap)) return NULL;
    if (open_rows(&x, sparse, rows) < 0) return NULL;
    if (read_ints(hand_o, hand, x.s->nr, 0, "hand") < 0) {
        PyBuffer_Release(&x.r);
        return NULL;
    }
    FILTER(narrow(x.s, j, hand, p, cap));
    PyBuffer_Release(&x.r);
    return NULL;
}

PyObject *most_rows(PyObject *self, PyObject *args) {
    PyObject *sparse, *rows;
    int most[MAXNR];
    Rows x;
    if (!PyArg_ParseTuple(args, "OO", &sparse, &rows)) return NULL;
    if (open_rows(&x, sparse, rows) < 0) return NULL;
    const Sparse *s = x.s;
    memset(most, 0, sizeof most);
    const Py_ssize_t *idx = x.r.buf;
    for (Py_ssize_t i = 0; i < x.n; i++)
        for (int32_t e = s->off[idx[i]]; e < s->off[idx[i] + 1]; e++)
            if (s->pair[2 * e + 1] > most[s->pair[2 * e]]) most[s->pair[2 * e]] = s->pair[2 * e + 1];
    PyBuffer_Release(&x.r);
    PyObject *out = PyList_New(s->nr);
    if (!out) return NULL;
    for (int k = 0; k < s->nr; k++) PyList_SET_ITEM(out, k, PyLong_FromLong(most[k]));
    return out;
}
