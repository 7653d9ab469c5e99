/* The hot depth-first search of TileSearch (search.py, search_dfs.py) in C: the same algorithm, the
 * same leaf found. See docs/formulation.md section 7 for what it enumerates and why it is exact.
 *
 * Narrow interface: Searcher(members, units_with, fill_order, kinds) holds one rule set's units;
 * Searcher.best(rest, cap, slots, budget, enough) runs the h search over one hand and returns the
 * first leaf of greatest kept count in the pure path's order, as plain ints and tuples, or None;
 * Searcher.accept(...) lists the leaves of the acceptance enumeration that draw a kind not found yet.
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
    uint64_t *reach_of;   /* K: kinds in some unit holding kind k */
    uint64_t *fill_reach; /* n_fill_reach: kinds in some unit of at most s members */
    int n_fill_reach;
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
    /* acceptance (threshold >= 0): leaves keeping >= threshold, the kinds they draw */
    int threshold, stop, gave_up, held[MAXK], cap[MAXK], draws[MAXK];
    long long nodes; /* nodes left before giving up (< 0 from the start: no limit) */
    int limited;
    uint64_t want, found, drawn_mask;
    PyObject *out; /* list of (kept, placed, counts, slots, free, budget, new kinds mask) */
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

static int weights(Run *r, double *w, int *kind) {
    Searcher *s = r->s;
    int n = 0;
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
    return n;
}

static int bound(Run *r) {
    double w[MAXK];
    int kind[MAXK], n = weights(r, w, kind);
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

/* fewest slots that keeping `need` more held tiles takes (their weights, rounded down) */
static int room_for(Run *r, int need) {
    if (need <= 0) return 0;
    double w[MAXK], total = 0.0;
    int kind[MAXK], n = weights(r, w, kind);
    for (int i = 0; i < n; i++) {
        int c = r->rest[kind[i]] < need ? r->rest[kind[i]] : need;
        if (c) {
            total += c * w[i];
            need -= c;
            if (!need) break;
        }
    }
    return (int)total;
}

/* kinds this subtree's leaves can draw: drawn already, in units holding a held kind left, fillers' */
static uint64_t reach(Run *r, int kind) {
    Searcher *s = r->s;
    int idx = r->slots - room_for(r, r->threshold - r->kept);
    if (idx < 0) idx = 0;
    if (idx >= s->n_fill_reach) idx = s->n_fill_reach - 1;
    uint64_t mask = r->drawn_mask | s->fill_reach[idx];
    for (int k = kind; k < s->K; k++)
        if (r->rest[k]) mask |= s->reach_of[k];
    return mask;
}

/* kinds a filler can draw for real (within its cap) in some exact filling of `slots` */
static uint64_t filler_kinds(Searcher *s, int slots, const int *free_, int budget) {
    uint64_t kinds = 0;
    if (slots == 0) return 0;
    int rest[MAXK];
    for (int pos = 0; pos < s->U; pos++) {
        int u = s->fill_order[pos];
        if (s->sizes[u] > slots) continue;
        int over = 0, useful = 0;
        for (int j = s->mem_off[u]; j < s->mem_off[u + 1]; j++) {
            int k = s->mem[j];
            if (free_[k] <= 0) over++;
            else if (!(kinds >> k & 1)) useful = 1;
        }
        if (!useful || over > budget) continue;
        memcpy(rest, free_, sizeof(int) * s->K);
        for (int j = s->mem_off[u]; j < s->mem_off[u + 1]; j++) rest[s->mem[j]]--;
        for (int k = 0; k < s->K; k++)
            if (rest[k] < 0) rest[k] = 0;
        if (fillable(s, slots - s->sizes[u], rest, budget - over))
            for (int j = s->mem_off[u]; j < s->mem_off[u + 1]; j++)
                if (free_[s->mem[j]] > 0) kinds |= 1ULL << s->mem[j];
    }
    return kinds;
}

static PyObject *int_tuple(const int *xs, int n);

/* acceptance: a leaf keeping >= threshold whose fillers exist; record it if it draws a kind not found yet */
static void accept_leaf(Run *r) {
    Searcher *s = r->s;
    if (r->kept < r->threshold) return;
    if (!fillable(s, r->slots, r->free_, r->budget)) return;
    uint64_t draws = filler_kinds(s, r->slots, r->free_, r->budget);
    for (int k = 0; k < s->K; k++)
        if (r->m[k] > r->held[k] && r->held[k] < r->cap[k]) draws |= 1ULL << k;
    uint64_t fresh = draws & ~r->found;
    if (fresh) {
        r->found |= fresh;
        r->want &= ~fresh;
        PyObject *item = Py_BuildValue("(iNNiNiK)", r->kept, int_tuple(r->placed, r->np), int_tuple(r->m, s->K),
                                       r->slots, int_tuple(r->free_, s->K), r->budget, (unsigned long long)fresh);
        if (!item || PyList_Append(r->out, item) < 0) {
            r->stop = 1; /* the error stays set; best/accept return NULL */
        }
        Py_XDECREF(item);
    }
    if (!r->want) r->stop = 1;
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
        if (r->threshold >= 0) accept_leaf(r);
        else leaf(r);
        return;
    }
    if (r->threshold >= 0) {
        if (r->stop || r->kept + bound(r) <= r->best) return;
        if (r->want && !(r->want & reach(r, kind))) return;
        if (r->limited && --r->nodes < 0) {
            r->stop = r->gave_up = 1;
            return;
        }
    } else if (r->best >= r->enough || r->kept + bound(r) <= r->best) {
        return;
    }
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
                if (++r->draws[k] == 1) r->drawn_mask |= 1ULL << k;
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
                if (--r->draws[k] == 0) r->drawn_mask &= ~(1ULL << k);
            }
        }
        if (r->stop || (r->threshold < 0 && r->best >= r->enough)) return;
    }
    /* drop the remaining copies of this kind */
    if (r->stop) return;
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
    r.threshold = -1;
    dfs(&r, 0, 0);
    if (r.best < 0) Py_RETURN_NONE;
    return Py_BuildValue("(iNNiNi)", r.best, int_tuple(r.b_placed, r.b_np), int_tuple(r.b_m, s->K),
                         r.b_slots, int_tuple(r.b_free, s->K), r.b_budget);
}

/* accept(rest, held, cap, slots, budget, threshold, want, found, limit) -> (gave_up, [(kept, placed,
 * counts, slots, free, budget, new kinds mask), ...]): every leaf keeping >= threshold in the pure
 * path's order, those drawing a kind not in `found` listed, stopping once `want` is all found;
 * limit < 0: no node limit. */
static PyObject *Searcher_accept(Searcher *s, PyObject *args) {
    const char *rest_b, *held_b, *cap_b;
    Py_ssize_t rest_n, held_n, cap_n;
    int slots, budget, threshold;
    unsigned long long want, found;
    long long limit;
    if (!PyArg_ParseTuple(args, "y#y#y#iiiKKL", &rest_b, &rest_n, &held_b, &held_n, &cap_b, &cap_n, &slots,
                          &budget, &threshold, &want, &found, &limit))
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
    memset(&r, 0, sizeof r);
    r.s = s;
    for (int k = 0; k < s->K; k++) {
        r.rest[k] = (unsigned char)rest_b[k];
        r.held[k] = (unsigned char)held_b[k];
        r.cap[k] = r.free_[k] = (unsigned char)cap_b[k];
        if (r.rest[k]) r.rest_mask |= 1ULL << k;
    }
    r.slots = slots;
    r.budget = budget;
    r.threshold = threshold;
    r.best = threshold - 1;
    r.want = want;
    r.found = found;
    r.limited = limit >= 0;
    r.nodes = limit;
    r.out = PyList_New(0);
    if (!r.out) return NULL;
    dfs(&r, 0, 0);
    if (PyErr_Occurred()) {
        Py_DECREF(r.out);
        return NULL;
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
     "best(rest, cap, slots, budget, enough) -> (kept, placed, counts, slots, free, budget) or None"},
    {"accept", (PyCFunction)Searcher_accept, METH_VARARGS,
     "accept(rest, held, cap, slots, budget, threshold, want, found, limit) -> (gave_up, leaves)"},
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
