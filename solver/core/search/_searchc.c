/* The hot depth-first search of TileSearch (search.py, search_dfs.py) in C: the same algorithm, the
 * same leaf found. See docs/formulation.md sections 7 and 9 for what it enumerates and why it is
 * exact. This file is the Python glue; the search itself is in searchc_dfs.c.
 *
 * Narrow interface: Searcher(members, units_with, fill_order, kinds, reach_of, fill_reach) holds one
 * rule set's units;
 * Searcher.best(rest, cap, slots, budget, enough) runs the h search over one hand and returns the
 * first leaf of greatest kept count in the pure path's order, as plain ints and tuples, or None;
 * Searcher.accept(...) lists the leaves of the acceptance enumeration that draw a kind not found yet.
 * Only the CPython C API; optional at build time (the pure path is the fallback).
 */
#include "searchc.h"

/* --- Python glue --- */

/* a run over one hand: held tiles the search may keep, the hand's own counts, the caps */
static void start(Run *r, Searcher *s, const char *rest_b, const char *held_b, const char *cap_b, int slots,
                  int budget) {
    memset(r, 0, sizeof *r);
    r->s = s;
    for (int k = 0; k < s->K; k++) {
        r->rest[k] = (unsigned char)rest_b[k];
        r->held[k] = (unsigned char)held_b[k];
        r->cap[k] = r->free_[k] = (unsigned char)cap_b[k];
        if (r->rest[k]) r->rest_mask |= 1ULL << k;
    }
    r->slots = slots;
    r->budget = budget;
}

static PyObject *Searcher_best(Searcher *s, PyObject *args) {
    const char *rest_b, *cap_b;
    Py_ssize_t rest_n, cap_n;
    int slots, budget, enough;
    double deadline = 0.0;
    if (!PyArg_ParseTuple(args, "y#y#iii|d", &rest_b, &rest_n, &cap_b, &cap_n, &slots, &budget, &enough, &deadline))
        return NULL;
    if (rest_n != s->K || cap_n != s->K) {
        PyErr_SetString(PyExc_ValueError, "rest and cap must hold one byte per kind");
        return NULL;
    }
    if (slots < 0 || slots >= MAXSLOTS || budget < 0 || budget > 100) {
        PyErr_SetString(PyExc_ValueError, "slots or budget out of range");
        return NULL;
    }
    Run r;
    start(&r, s, rest_b, rest_b, cap_b, slots, budget);
    r.enough = enough;
    r.best = -1;
    r.threshold = -1;
    r.deadline = deadline;
    searchc_dfs(&r, 0, 0);
    if (PyErr_Occurred()) return NULL;  /* (a signal's) */
    PyObject *leaf = r.best < 0 ? Py_NewRef(Py_None) :
        Py_BuildValue("(iNNiNi)", r.best, searchc_int_tuple(r.b_placed, r.b_np), searchc_int_tuple(r.b_m, s->K),
                      r.b_slots, searchc_int_tuple(r.b_free, s->K), r.b_budget);
    if (!leaf || !r.timed_out) return leaf;
    /* ("stopped", the best leaf so far or None, the root's bound on the kept tiles) */
    start(&r, s, rest_b, rest_b, cap_b, slots, budget);  /* (the root again, for its bound) */
    return Py_BuildValue("(sNi)", "stopped", leaf, searchc_bound(&r));
}

/* accept(rest, held, cap, slots, budget, threshold, want, found, limit[, deadline]) -> (gave_up, [(kept, placed,
 * counts, slots, free, budget, new kinds mask), ...]): every leaf keeping >= threshold in the pure
 * path's order, those drawing a kind not in `found` listed, stopping once `want` is all found;
 * limit < 0: no node limit; past the deadline (time.monotonic seconds, 0: none) ("stopped", None). */
static PyObject *Searcher_accept(Searcher *s, PyObject *args) {
    const char *rest_b, *held_b, *cap_b;
    Py_ssize_t rest_n, held_n, cap_n;
    int slots, budget, threshold;
    unsigned long long want, found;
    long long limit;
    double deadline = 0.0;
    if (!PyArg_ParseTuple(args, "y#y#y#iiiKKL|d", &rest_b, &rest_n, &held_b, &held_n, &cap_b, &cap_n, &slots,
                          &budget, &threshold, &want, &found, &limit, &deadline))
        return NULL;
    if (rest_n != s->K || held_n != s->K || cap_n != s->K) {
        PyErr_SetString(PyExc_ValueError, "rest, held and cap must hold one byte per kind");
        return NULL;
    }
    if (slots < 0 || slots >= MAXSLOTS || budget < 0 || budget > 100 || threshold < 0) {
        PyErr_SetString(PyExc_ValueError, "slots, budget or threshold out of range");
        return NULL;
    }
    Run r;
    start(&r, s, rest_b, held_b, cap_b, slots, budget);
    r.threshold = threshold;
    r.best = threshold - 1;
    r.want = want;
    r.found = found;
    r.limited = limit >= 0;
    r.nodes = limit;
    r.deadline = deadline;
    r.out = PyList_New(0);
    if (!r.out) return NULL;
    searchc_dfs(&r, 0, 0);
    if (PyErr_Occurred()) {
        Py_DECREF(r.out);
        return NULL;
    }
    if (r.timed_out) {
        Py_DECREF(r.out);
        return Py_BuildValue("(sO)", "stopped", Py_None);
    }
    return Py_BuildValue("(iN)", r.gave_up, r.out);
}

static int read_ints(PyObject *seq, int *out, int n, int limit, const char *what) {
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0 || v >= limit) {
            PyErr_Format(PyExc_ValueError, "%s out of range", what);
            return -1;
        }
        out[i] = (int)v;
    }
    return 0;
}

/* a tuple of tuples of ints -> offsets and a flat array */
static int read_lists(PyObject *outer, int n, int limit, int **off, int **flat, const char *what) {
    if (!PyTuple_Check(outer) || PyTuple_GET_SIZE(outer) != n) {
        PyErr_Format(PyExc_ValueError, "%s: a tuple of %d tuples expected", what, n);
        return -1;
    }
    Py_ssize_t total = 0;
    for (int i = 0; i < n; i++) {
        PyObject *t = PyTuple_GET_ITEM(outer, i);
        if (!PyTuple_Check(t)) {
            PyErr_Format(PyExc_ValueError, "%s: tuples expected", what);
            return -1;
        }
        total += PyTuple_GET_SIZE(t);
    }
    *off = PyMem_Calloc(n + 1, sizeof(int));
    *flat = PyMem_Calloc(total + 1, sizeof(int));
    if (!*off || !*flat) {
        PyErr_NoMemory();
        return -1;
    }
    int at = 0;
    for (int i = 0; i < n; i++) {
        PyObject *t = PyTuple_GET_ITEM(outer, i);
        (*off)[i] = at;
        if (read_ints(t, *flat + at, (int)PyTuple_GET_SIZE(t), limit, what) < 0) return -1;
        at += (int)PyTuple_GET_SIZE(t);
    }
    (*off)[n] = at;
    return 0;
}

static void Searcher_dealloc(Searcher *s) {
    PyMem_Free(s->sizes);
    PyMem_Free(s->mem_off);
    PyMem_Free(s->mem);
    PyMem_Free(s->umask);
    PyMem_Free(s->uw_off);
    PyMem_Free(s->uw);
    PyMem_Free(s->fill_order);
    PyMem_Free(s->cache);
    PyMem_Free(s->reach_of);
    PyMem_Free(s->fill_reach);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int read_masks(PyObject *seq, uint64_t **out, int n) {
    *out = PyMem_Calloc(n + 1, sizeof(uint64_t));
    if (!*out) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < n; i++) {
        unsigned long long v = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(seq, i));
        if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
        (*out)[i] = v;
    }
    return 0;
}

/* Searcher(members, units_with, fill_order, kinds, reach_of, fill_reach) */
static int Searcher_init(Searcher *s, PyObject *args, PyObject *kwds) {
    PyObject *members, *units_with, *fill_order, *reach_of, *fill_reach;
    int K;
    if (!PyArg_ParseTuple(args, "O!O!O!iO!O!", &PyTuple_Type, &members, &PyTuple_Type, &units_with,
                          &PyTuple_Type, &fill_order, &K, &PyTuple_Type, &reach_of, &PyTuple_Type, &fill_reach))
        return -1;
    if (s->sizes) {
        PyErr_SetString(PyExc_RuntimeError, "Searcher already initialised");
        return -1;
    }
    if (K < 1 || K > MAXK) {
        PyErr_Format(PyExc_ValueError, "kinds must be 1..%d", MAXK);
        return -1;
    }
    int U = (int)PyTuple_GET_SIZE(members);
    s->K = K;
    s->U = U;
    s->key_len = K + 3;
    if (read_lists(members, U, K, &s->mem_off, &s->mem, "members") < 0) return -1;
    if (read_lists(units_with, K, U, &s->uw_off, &s->uw, "units_with") < 0) return -1;
    s->n_fill = (int)PyTuple_GET_SIZE(fill_order);
    if (s->n_fill > U) {
        PyErr_SetString(PyExc_ValueError, "fill_order lists more units than there are");
        return -1;
    }
    s->sizes = PyMem_Calloc(U + 1, sizeof(int));
    s->umask = PyMem_Calloc(U + 1, sizeof(uint64_t));
    s->fill_order = PyMem_Calloc(U + 1, sizeof(int));
    s->cache = PyMem_Calloc((size_t)FILL_CACHE, (size_t)(s->key_len + 1));
    if (!s->sizes || !s->umask || !s->fill_order || !s->cache) {
        PyErr_NoMemory();
        return -1;
    }
    if (read_ints(fill_order, s->fill_order, s->n_fill, U, "fill_order") < 0) return -1;
    if (PyTuple_GET_SIZE(reach_of) != K || PyTuple_GET_SIZE(fill_reach) < 1) {
        PyErr_SetString(PyExc_ValueError, "reach_of must have one mask per kind, fill_reach at least one");
        return -1;
    }
    s->n_fill_reach = (int)PyTuple_GET_SIZE(fill_reach);
    if (read_masks(reach_of, &s->reach_of, K) < 0 || read_masks(fill_reach, &s->fill_reach, s->n_fill_reach) < 0)
        return -1;
    for (int u = 0; u < U; u++) {
        s->sizes[u] = s->mem_off[u + 1] - s->mem_off[u];
        if (s->sizes[u] < 1 || s->sizes[u] >= MAXSLOTS) {
            PyErr_SetString(PyExc_ValueError, "unit sizes must be 1..63");
            return -1;
        }
        for (int j = s->mem_off[u]; j < s->mem_off[u + 1]; j++) s->umask[u] |= 1ULL << s->mem[j];
    }
    return 0;
}

static PyMethodDef Searcher_methods[] = {
    {"best", (PyCFunction)Searcher_best, METH_VARARGS,
     "best(rest, cap, slots, budget, enough[, deadline]) -> (kept, placed, counts, slots, free, budget), None, "
     "or ('stopped', the best of those so far or None, a bound on kept) past the deadline (time.monotonic seconds)"},
    {"accept", (PyCFunction)Searcher_accept, METH_VARARGS,
     "accept(rest, held, cap, slots, budget, threshold, want, found, limit) -> (gave_up, leaves)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearcherType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "solver.core.search._searchc.Searcher",
    .tp_basicsize = sizeof(Searcher),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One rule set's units for the native h search.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Searcher_init,
    .tp_dealloc = (destructor)Searcher_dealloc,
    .tp_methods = Searcher_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_searchc", "The native DFS of TileSearch (optional; search.py is the fallback).", -1, NULL,
};

PyMODINIT_FUNC PyInit__searchc(void) {
    if (PyType_Ready(&SearcherType) < 0) return NULL;
    PyObject *mod = PyModule_Create(&module);
    if (!mod) return NULL;
    Py_INCREF(&SearcherType);
    if (PyModule_AddObject(mod, "Searcher", (PyObject *)&SearcherType) < 0) {
        Py_DECREF(&SearcherType);
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
