/* E[score] over all play at one draw left with no fetch to come, in C (score_optimum.py ScoreOptimum: leaf,
 * last_draw, and v13 at one draw left; the same exact reductions, docs/formulation.md section 8, "E[score] over
 * all play", items 3 and 4). Python keeps the recursion above it, the fetches and the pure fallback.
 *
 * Tail(nowin, wins, kinds): nowin a NoWin (planc_nowin.c) over the rule set's scored units, wins {counts (bytes):
 * the best tsumo score} of every complete concealed hand within reach.
 *   last_draw(hand12, wall) -> sum_k w_k leaf(hand12 + k), scaled by W (the wall's tiles);
 *   after_draw(hand13, wall) -> max(tsumo score x W if complete, max_x last_draw(hand13 - x, wall));
 *   built() -> the 12-tile hands whose table (no-win score, and leaf(hand + k) per touching k) was built.
 * A hand is a byte of counts per kind: at most 64 kinds, 7 copies of a kind (a key: 3 bits a kind). */
#define PY_SSIZE_T_CLEAN
#include <string.h>

#include "planc.h"

#define PER_WORD 21  /* kinds in one 64-bit word of a key, 3 bits each (a count of at most 7) */

typedef struct { uint64_t w[3]; } Key;

/* the counts, 3 bits a kind; the top bit of the last word set, so no key is all zero (an empty slot) */
static int key_of(const unsigned char *c, int n, Key *key) {
    key->w[0] = key->w[1] = 0;
    key->w[2] = 1ULL << 63;
    for (int k = 0; k < n; k++) {
        if (c[k] > 7) return 0;
        key->w[k / PER_WORD] |= (uint64_t)c[k] << (3 * (k % PER_WORD));
    }
    return 1;
}

/* the key of the hand with one copy of kind k more (d = 1) or less (d = -1): counts stay within 0..7 */
static Key moved(Key key, int k, int d) {
    uint64_t one = 1ULL << (3 * (k % PER_WORD));
    key.w[k / PER_WORD] = d > 0 ? key.w[k / PER_WORD] + one : key.w[k / PER_WORD] - one;
    return key;
}

static int same(Key a, Key b) { return a.w[0] == b.w[0] && a.w[1] == b.w[1] && a.w[2] == b.w[2]; }

/* open addressing, linear probing; a key with a zero top bit marks an empty slot */
typedef struct {
    Key *keys;
    long long *value;
    size_t cap, n;
} Table;

typedef struct {
    PyObject_HEAD
    PyObject *nowin_obj;
    NoWin *nowin;
    int kinds;
    Table wins;     /* complete concealed hand -> its best tsumo score */
    Table leaves;   /* 13-tile hand -> leaf(): many 12-tile tables share one (hand + k = hand' + k') */
    Table tables;   /* 12-tile hand -> index of its table in the pool (table_of) */
    long long *pool;
    size_t used, room;
    long long built;
} Tail;

static size_t slot_of(const Table *t, Key key) {
    uint64_t h = key.w[0] ^ (key.w[1] * 0x9E3779B97F4A7C15ULL) ^ (key.w[2] * 0xC2B2AE3D27D4EB4FULL);
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL;  /* splitmix64's finaliser: every bit of the key moves the low ones */
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL;
    h ^= h >> 31;
    size_t i = (size_t)h & (t->cap - 1);
    while (t->keys[i].w[2] && !same(t->keys[i], key)) i = (i + 1) & (t->cap - 1);
    return i;
}

static int table_init(Table *t, size_t cap) {
    t->cap = cap;
    t->n = 0;
    t->keys = PyMem_Calloc(cap, sizeof *t->keys);
    t->value = PyMem_Calloc(cap, sizeof *t->value);
    return t->keys && t->value;
}

static long long *table_get(const Table *t, Key key) {
    size_t i = slot_of(t, key);
    return t->keys[i].w[2] ? &t->value[i] : NULL;
}

static int table_put(Table *t, Key key, long long value) {
    if (2 * (t->n + 1) > t->cap) {  /* at half full: twice the slots */
        Table bigger;
        if (!table_init(&bigger, 2 * t->cap)) {
            PyMem_Free(bigger.keys);
            PyMem_Free(bigger.value);
            return 0;
        }
        for (size_t i = 0; i < t->cap; i++)
            if (t->keys[i].w[2]) {
                size_t j = slot_of(&bigger, t->keys[i]);
                bigger.keys[j] = t->keys[i];
                bigger.value[j] = t->value[i];
            }
        bigger.n = t->n;
        PyMem_Free(t->keys);
        PyMem_Free(t->value);
        *t = bigger;
    }
    size_t i = slot_of(t, key);
    if (!t->keys[i].w[2]) t->n++;
    t->keys[i] = key;
    t->value[i] = value;
    return 1;
}

/* a 13-tile hand after the last draw: its tsumo or its best sub-hand's no-win score if complete, else its own */
/* (floor: the no-win score of a hand within it, which its own is at least) */
static long long leaf(Tail *t, unsigned char *c, Key key, long long floor) {
    long long *got = table_get(&t->leaves, key);
    if (got) return *got;
    long long *won = table_get(&t->wins, key), best;
    if (!won) {
        best = nowin_value(t->nowin, c, t->kinds, floor);
    } else {
        best = *won;
        for (int x = 0; x < t->kinds; x++)
            if (c[x]) {
                c[x]--;
                best = nowin_value(t->nowin, c, t->kinds, best);
                c[x]++;
            }
    }
    return table_put(&t->leaves, key, best) ? best : -1;
}

/* the table of a 12-tile hand (its index in the pool), built once: [base, count, exact, (k, value) x count], with
 * base its no-win score and a row per touching kind k. The value is leaf(hand + k) where exact, else an upper bound
 * of it: max(the tsumo score if complete, base + g_k) with g_k the most a unit holding k and fitting in hand + k
 * adds (points, and the favourite's bonus if it holds it): a best packing of hand + k less that unit is one of the
 * hand (docs/formulation.md section 8, item 5). A bound row becomes exact when asked. -1: an exception set. */
static long long table_of(Tail *t, unsigned char *c, Key key, int exact) {
    long long *got = table_get(&t->tables, key), at;
    if (!got) {
        NoWin *nw = t->nowin;
        uint64_t support = 0, touch = 0;
        long long gain[NW_MAXK] = {0};
        for (int k = 0; k < t->kinds; k++)
            if (c[k]) support |= 1ULL << k;
        for (int u = 0; u < nw->U; u++) {  /* k touches when a unit holding k has its other members held */
            uint64_t miss = nw->mask[u] & ~support, in = !miss ? nw->mask[u] : !(miss & (miss - 1)) ? miss : 0;
            long long g = nw->points[u] + (nw->fav[u] ? nw->bonus : 0);
            touch |= in;
            for (; in; in &= in - 1)
                if (g > gain[__builtin_ctzll(in)]) gain[__builtin_ctzll(in)] = g;
        }
        size_t need = 3 + 2 * (size_t)__builtin_popcountll(touch);
        if (t->used + need > t->room) {
            size_t room = 2 * (t->room + need);
            long long *pool = PyMem_Realloc(t->pool, room * sizeof *pool);
            if (!pool) {
                PyErr_NoMemory();
                return -1;
            }
            t->pool = pool;
            t->room = room;
        }
        at = (long long)t->used;
        long long *row = t->pool + at, base = nowin_value(nw, c, t->kinds, 0);
        row[0] = base;
        row[1] = 0;
        row[2] = 0;
        for (; touch; touch &= touch - 1) {
            int k = __builtin_ctzll(touch);
            long long *won = table_get(&t->wins, moved(key, k, 1));
            long long bound = base + gain[k];
            row[3 + 2 * row[1]] = k;
            row[4 + 2 * row[1]] = won && *won > bound ? *won : bound;
            row[1]++;
        }
        t->used += 3 + 2 * (size_t)row[1];
        if (!table_put(&t->tables, key, at)) {
            PyErr_NoMemory();
            return -1;
        }
    } else {
        at = *got;
    }
    long long *row = t->pool + at;
    if (exact && !row[2]) {
        for (long long i = 0; i < row[1]; i++) {
            int k = (int)row[3 + 2 * i];
            c[k]++;
            row[4 + 2 * i] = leaf(t, c, moved(key, k, 1), row[0]);
            c[k]--;
            if (row[4 + 2 * i] < 0) {
                PyErr_NoMemory();
                return -1;
            }
        }
        row[2] = 1;
        t->built++;
    }
    return at;
}

/* sum_k w_k leaf(c + k) (an upper bound where the table is not exact, *exact says which): the kinds that touch no
 * unit keep the 12 tiles' no-win score. 0: an exception set. */
static int last_draw(Tail *t, unsigned char *c, Key key, const unsigned char *w, int *exact, long long *out) {
    long long at = table_of(t, c, key, *exact);
    if (at < 0) return 0;
    const long long *row = t->pool + at;
    long long total = 0, rest = 0;
    for (int k = 0; k < t->kinds; k++) rest += w[k];
    for (long long i = 0; i < row[1]; i++) {
        int k = (int)row[3 + 2 * i];
        total += w[k] * row[4 + 2 * i];
        rest -= w[k];
    }
    *out = total + rest * row[0];
    *exact = (int)row[2];
    return 1;
}

/* the arguments (hand, wall) into c, its key and w; 0 with an exception set */
static int hand_and_wall(Tail *t, PyObject *args, unsigned char *c, Key *key, const unsigned char **w) {
    const char *h, *wall;
    Py_ssize_t n, m;
    if (!PyArg_ParseTuple(args, "y#y#", &h, &n, &wall, &m)) return 0;
    if (n != t->kinds || m != t->kinds) {
        PyErr_SetString(PyExc_ValueError, "hand and wall: a byte per kind");
        return 0;
    }
    memcpy(c, h, n);
    for (int k = 0; k < n; k++)
        if (c[k] > 6) {  /* (a drawn copy more still fits a key's 3 bits) */
            PyErr_SetString(PyExc_ValueError, "hand: at most 6 copies of a kind");
            return 0;
        }
    key_of(c, t->kinds, key);
    *w = (const unsigned char *)wall;
    return 1;
}

static PyObject *Tail_last_draw(Tail *t, PyObject *args) {
    unsigned char c[NW_MAXK];
    const unsigned char *w;
    Key key;
    long long v;
    int exact = 1;
    if (!hand_and_wall(t, args, c, &key, &w) || !last_draw(t, c, key, w, &exact, &v)) return NULL;
    return PyLong_FromLongLong(v);
}

/* The best discard by branch and bound: each discard's upper bound first (its table's bound rows: one no-win score
 * each), then exact values in the order of their bounds while a bound passes the best exact value so far. */
static PyObject *Tail_after_draw(Tail *t, PyObject *args) {
    unsigned char c[NW_MAXK];
    const unsigned char *w;
    Key key;
    if (!hand_and_wall(t, args, c, &key, &w)) return NULL;
    long long W = 0, best = -1, bound[NW_MAXK];
    for (int k = 0; k < t->kinds; k++) W += w[k];
    long long *won = table_get(&t->wins, key);
    if (won) best = *won * W;
    int open[NW_MAXK], n = 0;
    for (int x = 0; x < t->kinds; x++)
        if (c[x]) {
            int exact = 0;
            c[x]--;
            int ok = last_draw(t, c, moved(key, x, -1), w, &exact, &bound[x]);
            c[x]++;
            if (!ok) return NULL;
            if (exact) {
                if (bound[x] > best) best = bound[x];
            } else {
                open[n++] = x;
            }
        }
    for (;;) {  /* the open discard of the highest bound, while it can pass the best */
        int at = -1;
        for (int i = 0; i < n; i++)
            if (open[i] >= 0 && bound[open[i]] > best && (at < 0 || bound[open[i]] > bound[open[at]])) at = i;
        if (at < 0) break;
        int x = open[at], exact = 1;
        long long v;
        open[at] = -1;
        c[x]--;
        int ok = last_draw(t, c, moved(key, x, -1), w, &exact, &v);
        c[x]++;
        if (!ok) return NULL;
        if (v > best) best = v;
    }
    return PyLong_FromLongLong(best);
}

static PyObject *Tail_built(Tail *t, PyObject *unused) { return PyLong_FromLongLong(t->built); }

static void Tail_dealloc(Tail *t) {
    Py_XDECREF(t->nowin_obj);
    PyMem_Free(t->wins.keys);
    PyMem_Free(t->wins.value);
    PyMem_Free(t->leaves.keys);
    PyMem_Free(t->leaves.value);
    PyMem_Free(t->tables.keys);
    PyMem_Free(t->tables.value);
    PyMem_Free(t->pool);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static int Tail_init(Tail *t, PyObject *args, PyObject *kwds) {
    PyObject *nowin, *wins, *hand, *score;
    if (!PyArg_ParseTuple(args, "O!O!i", &NoWinType, &nowin, &PyDict_Type, &wins, &t->kinds)) return -1;
    if (t->kinds < 1 || t->kinds > NW_MAXK) {
        PyErr_SetString(PyExc_ValueError, "kinds: from 1 to 64");
        return -1;
    }
    Py_INCREF(nowin);
    t->nowin_obj = nowin;
    t->nowin = (NoWin *)nowin;
    if (!table_init(&t->wins, 1024) || !table_init(&t->tables, 1 << 16) || !table_init(&t->leaves, 1 << 16)) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t pos = 0;
    while (PyDict_Next(wins, &pos, &hand, &score)) {
        Key key;
        if (!PyBytes_Check(hand) || PyBytes_GET_SIZE(hand) != t->kinds ||
            !key_of((const unsigned char *)PyBytes_AS_STRING(hand), t->kinds, &key)) {
            PyErr_SetString(PyExc_ValueError, "wins: counts of at most 7 copies, a byte per kind");
            return -1;
        }
        long long v = PyLong_AsLongLong(score);
        if (v == -1 && PyErr_Occurred()) return -1;
        if (!table_put(&t->wins, key, v)) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

static PyMethodDef Tail_methods[] = {
    {"last_draw", (PyCFunction)Tail_last_draw, METH_VARARGS,
     "last_draw(hand12, wall) -> sum over the wall's tiles of the 13-tile hand's value after the last draw"},
    {"after_draw", (PyCFunction)Tail_after_draw, METH_VARARGS,
     "after_draw(hand13, wall) -> the 13-tile hand's value with one draw left: its tsumo or its best discard"},
    {"built", (PyCFunction)Tail_built, METH_NOARGS, "built() -> the 12-tile hands whose table was built"},
    {NULL, NULL, 0, NULL},
};

PyTypeObject TailType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "solver.planning._planc.Tail",
    .tp_basicsize = sizeof(Tail),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "E[score] over all play at one draw left with no fetch to come (score_optimum.py).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Tail_init,
    .tp_dealloc = (destructor)Tail_dealloc,
    .tp_methods = Tail_methods,
};
