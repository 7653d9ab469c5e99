/* E[score] over all play at the last two draws, in C (score_optimum.py ScoreOptimum: leaf, last_draw, v13 at one
 * draw left, draw at two; the same exact reductions, docs/formulation.md section 8, "E[score] over all play",
 * items 3 to 5). Python keeps the recursion above it, the fetches with a そら held at two draws or more, and the
 * pure fallback. Hands are keyed by planc_table.h.
 *
 * Tail(nowin, wins, kinds[, sora]): nowin a NoWin (planc_nowin.c) over the rule set's scored units, wins {counts
 * (bytes): the best tsumo score} of every complete concealed hand within reach, sora the fetch-mode そら's kind.
 *   last_draw(hand12, wall) -> sum_k w_k leaf(hand12 + k), scaled by W (the wall's tiles);
 *   after_draw(hand13, wall[, room]) -> max(tsumo score x W if complete, max over each discard x, and with a そら
 *     held after it each fetch from the room (the discard in it), of last_draw(the 12 tiles, wall));
 *   draw(hand12, wall[, room]) -> sum_k w_k after_draw(hand12 + k, wall - k): two draws left, a fetch only after
 *     the first (a そら drawn then, or held);
 *   each with exact=False: an upper bound of the value instead (the branch and bound one level up).
 * A hand is a byte of counts per kind (at most 4 copies of a kind given: a key holds 7). */
#define PY_SSIZE_T_CLEAN
#include <string.h>

#include "planc.h"
#include "planc_table.h"

typedef struct {
    PyObject_HEAD
    PyObject *nowin_obj;
    NoWin *nowin;
    int kinds, sora;  /* sora: the fetch-mode そら's kind, or -1 */
    Table wins;     /* complete concealed hand -> its best tsumo score */
    Table leaves;   /* 13-tile hand -> leaf(): many 12-tile tables share one (hand + k = hand' + k') */
    Table tables;   /* 12-tile hand -> index of its table in the pool (table_of) */
    Table packs;    /* the counts on the kinds of the units held whole -> the no-win score (hands differ in junk) */
    long long *pool;
    size_t used, room;
} Tail;

/* the no-win score of c into *out, shared by the hands equal on the kinds of the units they hold whole (most
 * leaves differ in a tile no unit uses); 0: out of memory */
static int packed(Tail *t, unsigned char *c, long long *out) {
    uint64_t kinds = nowin_kinds(t->nowin, c, t->kinds);
    unsigned char only[NW_MAXK];
    for (int k = 0; k < t->kinds; k++) only[k] = kinds >> k & 1 ? c[k] : 0;
    Key key;
    key_of(only, t->kinds, &key);
    long long *got = table_get(&t->packs, key);
    if (got) {
        *out = *got;
        return 1;
    }
    *out = nowin_value(t->nowin, only, t->kinds);
    return table_put(&t->packs, key, *out);
}

/* leaf(c) into *out; 0: out of memory */
static int leaf(Tail *t, unsigned char *c, Key key, long long *out) {
    long long *got = table_get(&t->leaves, key);
    if (got) {
        *out = *got;
        return 1;
    }
    long long *won = table_get(&t->wins, key), best, v;
    if (!won) {
        if (!packed(t, c, &best)) return 0;
    } else {
        best = *won;
        for (int x = 0; x < t->kinds; x++)
            if (c[x]) {
                c[x]--;
                int ok = packed(t, c, &v);
                c[x]++;
                if (!ok) return 0;
                if (v > best) best = v;
            }
    }
    *out = best;
    return table_put(&t->leaves, key, best);
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
        long long *row = t->pool + at, base;
        if (!packed(t, c, &base)) {
            PyErr_NoMemory();
            return -1;
        }
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
            int ok = leaf(t, c, moved(key, k, 1), &row[4 + 2 * i]);
            c[k]--;
            if (!ok) {
                PyErr_NoMemory();
                return -1;
            }
        }
        row[2] = 1;
    }
    return at;
}

static long long tiles(const Tail *t, const unsigned char *w) {
    long long W = 0;
    for (int k = 0; k < t->kinds; k++) W += w[k];
    return W;
}

/* sum_k w_k leaf(c + k) (an upper bound where the table is not exact, *exact says which): the kinds that touch no
 * unit keep the 12 tiles' no-win score. 0: an exception set. */
static int last_draw(Tail *t, unsigned char *c, Key key, const unsigned char *w, long long W, int *exact,
                     long long *out) {
    long long at = table_of(t, c, key, *exact);
    if (at < 0) return 0;
    const long long *row = t->pool + at;
    long long total = 0, rest = W;
    for (long long i = 0; i < row[1]; i++) {
        int k = (int)row[3 + 2 * i];
        total += w[k] * row[4 + 2 * i];
        rest -= w[k];
    }
    *out = total + rest * row[0];
    *exact = (int)row[2];
    return 1;
}

/* the arguments (hand, wall[, room[, exact]]) into c, its key, w, room and exact; 0 with an exception set */
static int hand_and_wall(Tail *t, PyObject *args, unsigned char *c, Key *key, const unsigned char **w,
                         PyObject **room, int *exact) {
    const char *h, *wall;
    Py_ssize_t n, m;
    if (!PyArg_ParseTuple(args, "y#y#|Op", &h, &n, &wall, &m, room, exact)) return 0;
    if (n != t->kinds || m != t->kinds) {
        PyErr_SetString(PyExc_ValueError, "hand and wall: a byte per kind");
        return 0;
    }
    memcpy(c, h, n);
    for (int k = 0; k < n; k++)
        if (c[k] > 4) {  /* (a draw, a fetch and a last draw more still fit a key's 3 bits) */
            PyErr_SetString(PyExc_ValueError, "hand: at most 4 copies of a kind");
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
    PyObject *room = NULL;
    long long v;
    int exact = 1;
    if (!hand_and_wall(t, args, c, &key, &w, &room, &exact) || !last_draw(t, c, key, w, tiles(t, w), &exact, &v))
        return NULL;
    return PyLong_FromLongLong(v);
}

typedef struct { long long bound; int x, y; } Cand;  /* discard x, then fetch y with a held そら (-1: no fetch) */

/* last_draw of c less x, after the fetch of y (y >= 0: a そら to the room, a y from it) */
static int valued(Tail *t, unsigned char *c, Key key, Cand d, const unsigned char *w, long long W, int *known,
                  long long *v) {
    int s = t->sora, ok;
    c[d.x]--;
    key = moved(key, d.x, -1);
    if (d.y < 0) {
        ok = last_draw(t, c, key, w, W, known, v);
    } else {
        c[s]--;
        c[d.y]++;
        ok = last_draw(t, c, moved(moved(key, s, -1), d.y, 1), w, W, known, v);
        c[d.y]--;
        c[s]++;
    }
    c[d.x]++;
    return ok;
}

/* A 13-tile hand's value with one draw left: its tsumo (x W) or its best discard, and with a そら held after it
 * and a room (counts, or NULL: no fetch), its best fetch before the last draw. Exact: by branch and bound, each
 * move's upper bound first (its table's bound rows: one no-win score each), then exact values in the order of
 * their bounds while a bound passes the best exact value so far. Not exact: the best of those bounds, an upper
 * bound of the value. 0: an exception set. */
static int after_draw(Tail *t, unsigned char *c, Key key, const unsigned char *w, const unsigned char *room,
                      int exact, long long *out) {
    long long W = tiles(t, w), best = -1;
    long long *won = table_get(&t->wins, key);
    if (won) best = *won * W;
    Cand open[NW_MAXK * NW_MAXK];
    int n = 0, s = t->sora;
    for (int x = 0; x < t->kinds; x++) {
        if (!c[x]) continue;
        int fetch = room && s >= 0 && c[s] > (x == s);
        for (int y = -1; y < (fetch ? t->kinds : 0); y++) {
            if (y >= 0 && (y == s || !(room[y] + (y == x)))) continue;  /* (the discard joins the room) */
            Cand d = {0, x, y};
            int known = 0;
            if (!valued(t, c, key, d, w, W, &known, &d.bound)) return 0;
            if (known || !exact) {
                if (d.bound > best) best = d.bound;
            } else {
                open[n++] = d;
            }
        }
    }
    for (;;) {  /* the open move of the highest bound, while it can pass the best */
        int at = -1;
        for (int i = 0; i < n; i++)
            if (open[i].x >= 0 && open[i].bound > best && (at < 0 || open[i].bound > open[at].bound)) at = i;
        if (at < 0) break;
        int known = 1;
        long long v;
        if (!valued(t, c, key, open[at], w, W, &known, &v)) return 0;
        open[at].x = -1;
        if (v > best) best = v;
    }
    *out = best;
    return 1;
}

/* the optional room argument: counts, a byte per kind, or None (no fetch); 0 with an exception set */
static int room_of(Tail *t, PyObject *arg, const unsigned char **room) {
    *room = NULL;
    if (arg == NULL || arg == Py_None) return 1;
    if (!PyBytes_Check(arg) || PyBytes_GET_SIZE(arg) != t->kinds) {
        PyErr_SetString(PyExc_ValueError, "room: None or a byte per kind");
        return 0;
    }
    *room = (const unsigned char *)PyBytes_AS_STRING(arg);
    return 1;
}

static PyObject *Tail_after_draw(Tail *t, PyObject *args) {
    unsigned char c[NW_MAXK];
    const unsigned char *w, *room;
    PyObject *r = NULL;
    Key key;
    long long v;
    int exact = 1;
    if (!hand_and_wall(t, args, c, &key, &w, &r, &exact) || !room_of(t, r, &room) ||
        !after_draw(t, c, key, w, room, exact, &v))
        return NULL;
    return PyLong_FromLongLong(v);
}

/* A 12-tile hand's value with two draws left, no fetch before the first: sum_k w_k after_draw(hand + k, wall - k),
 * scaled by W (W - 1); with exact false an upper bound of it (each after_draw's bound). */
static PyObject *Tail_draw(Tail *t, PyObject *args) {
    unsigned char c[NW_MAXK], wall[NW_MAXK];
    const unsigned char *w, *room;
    PyObject *r = NULL;
    Key key;
    int exact = 1, ok;
    if (!hand_and_wall(t, args, c, &key, &w, &r, &exact) || !room_of(t, r, &room)) return NULL;
    memcpy(wall, w, t->kinds);
    long long total = 0, v;
    for (int k = 0; k < t->kinds; k++)
        if (wall[k]) {
            long long n = wall[k];
            wall[k]--;
            c[k]++;
            ok = after_draw(t, c, moved(key, k, 1), wall, room, exact, &v);
            c[k]--;
            wall[k]++;
            if (!ok) return NULL;
            total += n * v;
        }
    return PyLong_FromLongLong(total);
}

static void Tail_dealloc(Tail *t) {
    Py_XDECREF(t->nowin_obj);
    PyMem_Free(t->wins.slots);
    PyMem_Free(t->leaves.slots);
    PyMem_Free(t->packs.slots);
    PyMem_Free(t->tables.slots);
    PyMem_Free(t->pool);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static int Tail_init(Tail *t, PyObject *args, PyObject *kwds) {
    PyObject *nowin, *wins, *hand, *score;
    t->sora = -1;
    if (!PyArg_ParseTuple(args, "O!O!i|i", &NoWinType, &nowin, &PyDict_Type, &wins, &t->kinds, &t->sora)) return -1;
    if (t->kinds < 1 || t->kinds > NW_MAXK || t->sora < -1 || t->sora >= t->kinds) {
        PyErr_SetString(PyExc_ValueError, "kinds: from 1 to 64; sora: -1 or a kind");
        return -1;
    }
    Py_INCREF(nowin);
    t->nowin_obj = nowin;
    t->nowin = (NoWin *)nowin;
    if (!table_init(&t->wins, 1024) || !table_init(&t->tables, 1 << 16) || !table_init(&t->leaves, 1 << 16) ||
        !table_init(&t->packs, 1 << 16)) {
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
     "after_draw(hand13, wall[, room[, exact]]) -> the 13-tile hand's value with one draw left"},
    {"draw", (PyCFunction)Tail_draw, METH_VARARGS,
     "draw(hand12, wall[, room[, exact]]) -> the 12-tile hand's value with two draws left"},
    {NULL, NULL, 0, NULL},
};

PLANC_TYPE(Tail, "E[score] over all play at the last two draws (score_optimum.py).");
