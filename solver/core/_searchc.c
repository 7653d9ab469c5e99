/* The hot depth-first search of TileSearch (search.py, search_dfs.py) in C: the same algorithm, the
 * same leaf found. See docs/formulation.md section 7 for what it enumerates and why it is exact.
 *
 * Narrow interface: Searcher(members, units_with, fill_order, kinds) holds one rule set's units;
 * Searcher.best(rest, cap, slots, budget, enough) runs the h search over one hand and returns the
 * first leaf of greatest kept count in the pure path's order, as plain ints and tuples, or None.
 * Only the CPython C API; optional at build time (the pure path is the fallback).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAXK 64      /* kinds: bit masks are one 64-bit word (more kinds: the pure path) */
#define MAXSLOTS 64  /* concealed slots: placed units never exceed them (a unit has >= 1 member) */
#define FILL_CACHE (1 << 15)  /* direct-mapped memo of fillable(slots, free, budget) */

typedef struct {
    PyObject_HEAD
    int K, U;
    int *sizes;     /* U */
    int *mem_off;   /* U + 1: members of u are mem[mem_off[u] .. mem_off[u + 1]) */
    int *mem;
    uint64_t *umask; /* U */
    int *uw_off;    /* K + 1: units holding kind k, largest first, uw[uw_off[k] .. uw_off[k + 1]) */
    int *uw;
    int *fill_order; /* U */
    int key_len;    /* K + 3: slots, budget, validity, free[K] */
    signed char *cache; /* FILL_CACHE entries of key_len bytes, then one byte of answer each */
} Searcher;

typedef struct {
    Searcher *s;
    int rest[MAXK], free_[MAXK], m[MAXK];
    char dropped[MAXK];
    int budget, slots, kept, enough, best;
    int placed[MAXSLOTS], np;
    uint64_t rest_mask, dropped_mask;
    /* the best leaf so far */
    int b_placed[MAXSLOTS], b_np, b_m[MAXK], b_free[MAXK], b_slots, b_budget;
} Run;

/* --- fillers: can `slots` be filled exactly by units within free copies (and budget stand-ins)? --- */

static int fill(Searcher *s, int slots, int *free_, int budget, int start) {
    for (int pos = start; pos < s->U; pos++) {
        int u = s->fill_order[pos];
        if (s->sizes[u] > slots) continue;
        int over = 0;
        for (int j = s->mem_off[u]; j < s->mem_off[u + 1]; j++)
            if (free_[s->mem[j]] <= 0) over++;
        if (over > budget) continue;
        for (int j = s->mem_off[u]; j < s->mem_off[u + 1]; j++) free_[s->mem[j]]--;
        int ok = slots == s->sizes[u] || fill(s, slots - s->sizes[u], free_, budget - over, pos);
        for (int j = s->mem_off[u]; j < s->mem_off[u + 1]; j++) free_[s->mem[j]]++;
        if (ok) return 1;
    }
    return 0;
}

static int fillable(Searcher *s, int slots, const int *free_, int budget) {
    if (slots == 0) return 1;
    signed char key[MAXK + 3];
    key[0] = (signed char)slots;
    key[1] = (signed char)budget;
    key[2] = 1;
    uint64_t h = 1469598103934665603ULL;
    for (int k = 0; k < s->K; k++) {
        int f = free_[k];
        key[3 + k] = (signed char)(f < -100 ? -100 : (f > 100 ? 100 : f));
    }
    for (int i = 0; i < s->key_len; i++) h = (h ^ (unsigned char)key[i]) * 1099511628211ULL;
    signed char *entry = s->cache + (size_t)(h & (FILL_CACHE - 1)) * (s->key_len + 1);
    if (memcmp(entry, key, s->key_len) == 0) return entry[s->key_len];
    int work[MAXK];
    memcpy(work, free_, sizeof(int) * s->K);
    int ok = fill(s, slots, work, budget, 0);
    /* a free count clipped in the key would make two states share one entry: never store those */
    int exact = 1;
    for (int k = 0; k < s->K; k++)
        if (free_[k] < -100 || free_[k] > 100) exact = 0;
    if (exact && slots < 128 && budget < 128) {
        memcpy(entry, key, s->key_len);
        entry[s->key_len] = (signed char)ok;
    }
    return ok;
}

/* --- the bound: weights w_i = min over units u holding i the path may still place of |u|/|u ∩ R| --- */

static int bound(Run *r) {
    Searcher *s = r->s;
    double w[MAXK];
    int kind[MAXK], n = 0;
    uint64_t mask = r->rest_mask;
    while (mask) {
        int k = __builtin_ctzll(mask);
        mask &= mask - 1;
        double best = (double)(r->slots + 1);
        for (int j = s->uw_off[k]; j < s->uw_off[k + 1]; j++) {
            int u = s->uw[j];
            uint64_t um = s->umask[u];
            if (s->sizes[u] <= r->slots && !(um & r->dropped_mask)) {
                double share = (double)s->sizes[u] / (double)__builtin_popcountll(um & r->rest_mask);
                if (share < best) best = share;
            }
        }
        best -= 1e-9; /* a hair under: float error only weakens the bound */
        /* insertion by (w, kind), as the pure path's sort */
        int i = n++;
        while (i > 0 && (w[i - 1] > best || (w[i - 1] == best && kind[i - 1] > k))) {
            w[i] = w[i - 1];
            kind[i] = kind[i - 1];
            i--;
        }
        w[i] = best;
        kind[i] = k;
    }
    double room = (double)r->slots;
    int more = 0;
    for (int i = 0; i < n; i++) {
        int c = r->rest[kind[i]];
        if (!c) continue;
        if (c * w[i] <= room) {
            room -= c * w[i];
            more += c;
        } else {
            return more + (int)(room / w[i]);
        }
    }
    return more;
}

/* --- the search --- */

static void leaf(Run *r) {
    if (r->kept <= r->best) return;
    if (!fillable(r->s, r->slots, r->free_, r->budget)) return;
    int K = r->s->K;
    r->best = r->kept;
    r->b_np = r->np;
    memcpy(r->b_placed, r->placed, sizeof(int) * r->np);
    memcpy(r->b_m, r->m, sizeof(int) * K);
    memcpy(r->b_free, r->free_, sizeof(int) * K);
    r->b_slots = r->slots;
    r->b_budget = r->budget;
}

static void dfs(Run *r, int kind, int start) {
    Searcher *s = r->s;
    int K = s->K;
    int *rest = r->rest, *free_ = r->free_, *m = r->m;
    while (kind < K && rest[kind] == 0) {
        kind++;
        start = 0;
    }
    if (kind == K || r->slots == 0) {
        leaf(r);
        return;
    }
    if (r->best >= r->enough || r->kept + bound(r) <= r->best) return;
    for (int pos = s->uw_off[kind] + start; pos < s->uw_off[kind + 1]; pos++) {
        int u = s->uw[pos];
        if (s->sizes[u] > r->slots) continue;
        /* place u: held members are kept, others drawn within caps (or stood in for by そら) */
        int stood = 0, ok = 1;
        int lo = s->mem_off[u], hi = s->mem_off[u + 1];
        for (int j = lo; j < hi; j++) {
            int k = s->mem[j];
            if (r->dropped[k]) { ok = 0; break; } /* a canonical path never places a unit holding a dropped kind */
            if (rest[k] == 0 && free_[k] <= 0) stood++;
        }
        if (!ok || stood > r->budget) continue;
        char act[MAXSLOTS]; /* per member: 1 kept, 2 drawn, 0 stood in for */
        int gained = 0;
        for (int j = lo; j < hi; j++) {
            int k = s->mem[j];
            m[k]++;
            if (rest[k] > 0) {
                rest[k]--;
                free_[k]--;
                act[j - lo] = 1;
                gained++;
                if (!rest[k]) r->rest_mask ^= 1ULL << k;
            } else if (free_[k] > 0) {
                free_[k]--;
                act[j - lo] = 2;
            } else {
                act[j - lo] = 0;
            }
        }
        r->kept += gained;
        r->slots -= s->sizes[u];
        r->budget -= stood;
        r->placed[r->np++] = u;
        dfs(r, kind, pos - s->uw_off[kind]);
        r->np--;
        r->budget += stood;
        r->slots += s->sizes[u];
        r->kept -= gained;
        for (int j = lo; j < hi; j++) {
            int k = s->mem[j];
            m[k]--;
            if (act[j - lo] == 1) {
                if (!rest[k]) r->rest_mask |= 1ULL << k;
                rest[k]++;
                free_[k]++;
            } else if (act[j - lo] == 2) {
                free_[k]++;
            }
        }
        if (r->best >= r->enough) return;
    }
    /* drop the remaining copies of this kind */
    int n = rest[kind];
    rest[kind] = 0;
    r->dropped[kind] = 1;
    r->rest_mask ^= 1ULL << kind;
    r->dropped_mask |= 1ULL << kind;
    dfs(r, kind + 1, 0);
    r->dropped_mask ^= 1ULL << kind;
    r->rest_mask |= 1ULL << kind;
    r->dropped[kind] = 0;
    rest[kind] = n;
}

/* --- Python glue --- */

static PyObject *int_tuple(const int *xs, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(xs[i]);
        if (!v) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

/* best(rest: bytes, cap: bytes, slots, budget, enough) -> (kept, placed, counts, slots, free, budget) | None */
static PyObject *Searcher_best(Searcher *s, PyObject *args) {
    const char *rest_b, *cap_b;
    Py_ssize_t rest_n, cap_n;
    int slots, budget, enough;
    if (!PyArg_ParseTuple(args, "y#y#iii", &rest_b, &rest_n, &cap_b, &cap_n, &slots, &budget, &enough))
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
    memset(&r, 0, sizeof r);
    r.s = s;
    for (int k = 0; k < s->K; k++) {
        r.rest[k] = (unsigned char)rest_b[k];
        r.free_[k] = (unsigned char)cap_b[k];
        if (r.rest[k]) r.rest_mask |= 1ULL << k;
    }
    r.slots = slots;
    r.budget = budget;
    r.enough = enough;
    r.best = -1;
    dfs(&r, 0, 0);
    if (r.best < 0) Py_RETURN_NONE;
    return Py_BuildValue("(iNNiNi)", r.best, int_tuple(r.b_placed, r.b_np), int_tuple(r.b_m, s->K),
                         r.b_slots, int_tuple(r.b_free, s->K), r.b_budget);
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
    Py_TYPE(s)->tp_free((PyObject *)s);
}

/* Searcher(members, units_with, fill_order, kinds) */
static int Searcher_init(Searcher *s, PyObject *args, PyObject *kwds) {
    PyObject *members, *units_with, *fill_order;
    int K;
    if (!PyArg_ParseTuple(args, "O!O!O!i", &PyTuple_Type, &members, &PyTuple_Type, &units_with,
                          &PyTuple_Type, &fill_order, &K))
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
    if (PyTuple_GET_SIZE(fill_order) != U) {
        PyErr_SetString(PyExc_ValueError, "fill_order must list every unit");
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
    if (read_ints(fill_order, s->fill_order, U, U, "fill_order") < 0) return -1;
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
     "best(rest, cap, slots, budget, enough) -> (kept, placed, counts, slots, free, budget) or None"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearcherType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "solver.core._searchc.Searcher",
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
