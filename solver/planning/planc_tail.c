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
 *   each with exact=False: an upper bound of the value instead (the branch and bound one level up);
 *   bounds(hand13, wall[, room[, asked]]) -> each discard's draw(..., exact=False), their tables shared
 *     (planc_two.c).
 * The tables of the 12-tile hands are planc_hands.c's. A hand is a byte of counts per kind (at most 4 copies of a
 * kind given: a key holds 7). */
#define PY_SSIZE_T_CLEAN
#include <string.h>

#include "planc_tail.h"


long long tiles(const Tail *t, const unsigned char *w) {
    long long W = 0;
    for (int k = 0; k < t->kinds; k++) W += w[k];
    return W;
}

/* the arguments (hand, wall[, room[, last]]) into c, its key, w and room; *last: the fourth, or NULL (exact,
 * true by default; for bounds the discards asked). 0 with an exception set */
int hand_and_wall(Tail *t, PyObject *args, unsigned char *c, Key *key, const unsigned char **w, PyObject **room,
                  PyObject **last) {
    const char *h, *wall;
    Py_ssize_t n, m;
    if (!PyArg_ParseTuple(args, "y#y#|OO", &h, &n, &wall, &m, room, last)) return 0;
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
    PyObject *room = NULL, *last = NULL;
    if (!hand_and_wall(t, args, c, &key, &w, &room, &last)) return NULL;
    long long at = table_of(t, c, key, 1);
    return at < 0 ? NULL : PyLong_FromLongLong(summed(t, at, w, tiles(t, w)));
}

/* a move of a 13-tile hand with one draw left: discard x, then fetch y with a held そら (-1: no fetch); the key of
 * the 12 tiles it keeps, their table (at) and its sum */
typedef struct { long long bound, at; Key held; int x, y; } Cand;

/* the table of the 12 tiles a move keeps (table_of: its index, -1 with an exception set) */
static long long table_after(Tail *t, unsigned char *c, const Cand *d, int exact) {
    int s = t->sora;
    c[d->x]--;
    if (d->y >= 0) {
        c[s]--;
        c[d->y]++;
    }
    long long at = table_of(t, c, d->held, exact);
    if (d->y >= 0) {
        c[d->y]--;
        c[s]++;
    }
    c[d->x]++;
    return at;
}

/* A 13-tile hand's value with one draw left: its tsumo (x W) or its best discard, and with a そら held after it
 * and a room (counts, or NULL: no fetch), its best fetch before the last draw. Exact: by branch and bound, each
 * move's upper bound first (its table's bound rows: one no-win score each), then exact values in the order of
 * their bounds while a bound passes the best exact value so far. Not exact: the best of those bounds, an upper
 * bound of the value. The moves' tables are looked up in passes, each starting the next one's loads (their cache
 * misses overlap: the tables are far larger than the cache). 0: an exception set. */
int after_draw(Tail *t, unsigned char *c, Key key, const unsigned char *w, const unsigned char *room, int exact,
               long long *out) {
    long long W = tiles(t, w), best = -1;
    long long *won = table_get(&t->wins, key);
    if (won) best = *won * W;
    Cand moves[14 * (NW_MAXK + 1)];  /* (a 13-tile hand holds at most 13 kinds) */
    int m = 0, s = t->sora;
    for (int x = 0; x < t->kinds; x++) {
        if (!c[x]) continue;
        int fetch = room && s >= 0 && c[s] > (x == s);
        Key held = moved(key, x, -1);
        for (int y = -1; y < (fetch ? t->kinds : 0); y++) {
            if (y >= 0 && (y == s || !(room[y] + (y == x)))) continue;  /* (the discard joins the room) */
            Cand *d = &moves[m++];
            *d = (Cand){0, 0, y < 0 ? held : moved(moved(held, s, -1), y, 1), x, y};
            table_prefetch(&t->tables, d->held);
        }
    }
    for (int i = 0; i < m; i++) {
        if ((moves[i].at = table_after(t, c, &moves[i], 0)) < 0) return 0;
        __builtin_prefetch(t->pool + moves[i].at);
    }
    int n = 0;
    for (int i = 0; i < m; i++) {
        Cand d = moves[i];
        d.bound = summed(t, d.at, w, W);
        if (t->pool[d.at + 2] || !exact) {
            if (d.bound > best) best = d.bound;
        } else {
            moves[n++] = d;  /* (open: an upper bound) */
        }
    }
    for (;;) {  /* the open move of the highest bound, while it can pass the best */
        int at = -1;
        for (int i = 0; i < n; i++)
            if (moves[i].x >= 0 && moves[i].bound > best && (at < 0 || moves[i].bound > moves[at].bound)) at = i;
        if (at < 0) break;
        long long table = table_after(t, c, &moves[at], 1);
        if (table < 0) return 0;
        long long v = summed(t, table, w, W);
        moves[at].x = -1;
        if (v > best) best = v;
    }
    *out = best;
    return 1;
}

/* exact: the optional argument's truth, true where not given; -1 with an exception set */
static int truth(PyObject *last) { return last ? PyObject_IsTrue(last) : 1; }

/* the optional room argument: counts, a byte per kind, or None (no fetch); 0 with an exception set */
int room_of(Tail *t, PyObject *arg, const unsigned char **room) {
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
    PyObject *r = NULL, *last = NULL;
    Key key;
    long long v;
    int exact;
    if (!hand_and_wall(t, args, c, &key, &w, &r, &last) || !room_of(t, r, &room) || (exact = truth(last)) < 0 ||
        !after_draw(t, c, key, w, room, exact, &v))
        return NULL;
    return PyLong_FromLongLong(v);
}

/* A 12-tile hand's value with two draws left, no fetch before the first: sum_k w_k after_draw(hand + k, wall - k),
 * scaled by W (W - 1); with exact false an upper bound of it (each after_draw's bound). */
static PyObject *Tail_draw(Tail *t, PyObject *args) {
    unsigned char c[NW_MAXK], wall[NW_MAXK];
    const unsigned char *w, *room;
    PyObject *r = NULL, *last = NULL;
    Key key;
    int exact, ok;
    if (!hand_and_wall(t, args, c, &key, &w, &r, &last) || !room_of(t, r, &room) || (exact = truth(last)) < 0)
        return NULL;
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
    table_free(&t->wins);
    table_free(&t->packs);
    table_free(&t->tables);
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
    if (!table_init(&t->wins, 1024) || !table_init(&t->tables, 1 << 16) ||
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
    {"bounds", (PyCFunction)Tail_bounds, METH_VARARGS,
     "bounds(hand13, wall[, room[, asked]]) -> {discard: the upper bound of draw(hand13 less it, wall, room with "
     "it, exact=False)}, the hand holding no そら; asked: a bitmask of the discards (default: all)"},
    {"draw", (PyCFunction)Tail_draw, METH_VARARGS,
     "draw(hand12, wall[, room[, exact]]) -> the 12-tile hand's value with two draws left"},
    {NULL, NULL, 0, NULL},
};

PLANC_TYPE(Tail, "E[score] over all play at the last two draws (score_optimum.py).");
