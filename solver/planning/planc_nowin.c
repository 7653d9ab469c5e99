/* The score of a hand that did not win (targets.py NoWinScore, D4) in C: the best total of disjoint complete units
 * among the tiles, the same depth-first search over the units held whole (every member present), in the same order.
 *
 * NoWin(units, bonus, fav_called, base): units a sequence of (members, points, holds the favourite), in the order the
 * pure search tries them; NoWin.score(counts[, most]) -> base + the best packing's points (+ bonus where a unit of
 * it, or a called one, holds the favourite), of at most `most` tiles where given; NoWin.complete(counts, slots) ->
 * the same over packings filling exactly `slots` tiles (with the won points: the best tsumo score of a complete hand
 * within the counts, PoolWin), or None. At most 64 kinds (a unit is a bit mask). */
#define PY_SSIZE_T_CLEAN
#include "planc.h"

typedef struct {
    const NoWin *s;
    const int *fits;
    int n;
    int counts[NW_MAXK];
    int best;
} Pack;

/* the best packing of units within the counts: of at most `left` tiles, or (exact) filling exactly `left` tiles, a
 * complete hand's concealed part (-1 where none does). Branch and bound: past a packing found, a branch whose points
 * plus the most any units could add in `left` tiles (copies ignored) and the bonus cannot pass it is cut. */
static void search(Pack *p, int start, int left, int points, int fav, int exact) {
    if (!exact || left == 0) {
        int total = points + ((fav || p->s->fav_called) ? p->s->bonus : 0);
        if (total > p->best) p->best = total;
        if (left == 0) return;
    }
    int capped = left > NW_MAXK ? NW_MAXK : left;
    int most = exact ? p->s->most[capped] : p->s->most_le[capped];
    if (p->best >= 0 && (most < 0 || points + most + p->s->bonus <= p->best)) return;
    for (int i = start; i < p->n; i++) {
        int u = p->fits[i], ok = p->s->size[u] <= left;
        const int *m = p->s->members[u];
        for (int j = 0; ok && j < p->s->size[u]; j++)
            if (!p->counts[m[j]]) ok = 0;
        if (!ok) continue;
        for (int j = 0; j < p->s->size[u]; j++) p->counts[m[j]]--;
        search(p, i, left - p->s->size[u], points + p->s->points[u], fav || p->s->fav[u], exact);
        for (int j = 0; j < p->s->size[u]; j++) p->counts[m[j]]++;
    }
}

/* the counts (a byte per kind, n kinds, at most 64) and the units held whole among them, into p */
static void start_pack(Pack *p, NoWin *s, const unsigned char *b, Py_ssize_t n) {
    p->s = s;
    p->fits = s->fits;
    p->n = 0;
    uint64_t support = 0;
    for (int k = 0; k < NW_MAXK; k++) {
        p->counts[k] = k < n ? b[k] : 0;
        if (p->counts[k]) support |= 1ULL << k;
    }
    for (int u = 0; u < s->U; u++)
        if (!(s->mask[u] & ~support)) s->fits[p->n++] = u;
}

static int too_many(Py_ssize_t n) {
    if (n <= NW_MAXK) return 0;
    PyErr_SetString(PyExc_ValueError, "counts: at most 64 kinds");
    return 1;
}

uint64_t nowin_kinds(NoWin *s, const unsigned char *counts, int n) {
    uint64_t support = 0, kinds = 0;
    for (int k = 0; k < n; k++)
        if (counts[k]) support |= 1ULL << k;
    for (int u = 0; u < s->U; u++)
        if (!(s->mask[u] & ~support)) kinds |= s->mask[u];
    return kinds;
}

long long nowin_value(NoWin *s, const unsigned char *counts, int n) { return nowin_within(s, counts, n, 255, 0); }

long long nowin_within(NoWin *s, const unsigned char *counts, int n, int most, long long least) {
    Pack p;
    start_pack(&p, s, counts, n);
    p.best = least > s->base ? (int)(least - s->base) : 0;  /* (a packing known to score it: a tighter bound to cut) */
    search(&p, 0, most, 0, 0, 0);
    return s->base + p.best;
}

long long nowin_filled(NoWin *s, const unsigned char *counts, int n, int slots) {
    Pack p;
    start_pack(&p, s, counts, n);
    p.best = -1;
    search(&p, 0, slots, 0, 0, 1);
    return p.best < 0 ? -1 : s->base + p.best;
}

static PyObject *NoWin_complete(NoWin *s, PyObject *args) {
    const char *b;
    Py_ssize_t n;
    int slots;
    if (!PyArg_ParseTuple(args, "y#i", &b, &n, &slots)) return NULL;
    if (slots < 0 || slots > NW_MAXK) {
        PyErr_SetString(PyExc_ValueError, "slots: from 0 to 64");
        return NULL;
    }
    if (too_many(n)) return NULL;
    long long best = nowin_filled(s, (const unsigned char *)b, (int)n, slots);
    if (best < 0) Py_RETURN_NONE;
    return PyLong_FromLongLong(best);
}

static PyObject *NoWin_score(NoWin *s, PyObject *args) {
    const char *b;
    Py_ssize_t n;
    int most = 255;  /* the most tiles the packing may use (default: any) */
    if (!PyArg_ParseTuple(args, "y#|i", &b, &n, &most)) return NULL;
    if (most < 0) {
        PyErr_SetString(PyExc_ValueError, "most: 0 or more tiles");
        return NULL;
    }
    if (too_many(n)) return NULL;
    return PyLong_FromLongLong(nowin_within(s, (const unsigned char *)b, (int)n, most, 0));
}

static void NoWin_dealloc(NoWin *s) {
    PyMem_Free(s->mask);
    PyMem_Free(s->points);
    PyMem_Free(s->fav);
    PyMem_Free(s->size);
    PyMem_Free(s->members);
    PyMem_Free(s->fits);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int NoWin_init(NoWin *s, PyObject *args, PyObject *kwds) {
    PyObject *units;
    if (!PyArg_ParseTuple(args, "Oiii", &units, &s->bonus, &s->fav_called, &s->base)) return -1;
    PyObject *seq = PySequence_Fast(units, "units must be a sequence");
    if (!seq) return -1;
    int U = (int)PySequence_Fast_GET_SIZE(seq);
    s->U = U;
    s->mask = PyMem_Calloc(U + 1, sizeof *s->mask);
    s->points = PyMem_Calloc(U + 1, sizeof *s->points);
    s->fav = PyMem_Calloc(U + 1, 1);
    s->size = PyMem_Calloc(U + 1, sizeof *s->size);
    s->members = PyMem_Calloc(U + 1, sizeof *s->members);
    s->fits = PyMem_Calloc(U + 1, sizeof *s->fits);
    if (!s->mask || !s->points || !s->fav || !s->size || !s->members || !s->fits) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (int u = 0; u < U; u++) {
        PyObject *members, *item = PySequence_Fast_GET_ITEM(seq, u);
        int points, fav;
        if (!PyArg_ParseTuple(item, "Oip", &members, &points, &fav)) goto fail;
        PyObject *ms = PySequence_Fast(members, "members must be a sequence");
        if (!ms) goto fail;
        int m = (int)PySequence_Fast_GET_SIZE(ms);
        if (m < 1 || m > NW_MAXM) {
            Py_DECREF(ms);
            PyErr_SetString(PyExc_ValueError, "a unit has 1 to 16 members");
            goto fail;
        }
        for (int j = 0; j < m; j++) {
            long k = PyLong_AsLong(PySequence_Fast_GET_ITEM(ms, j));
            if (k < 0 || k >= NW_MAXK) {
                Py_DECREF(ms);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a member is a kind from 0 to 63");
                goto fail;
            }
            s->members[u][j] = (int)k;
            s->mask[u] |= 1ULL << k;
        }
        Py_DECREF(ms);
        s->size[u] = m;
        s->points[u] = points;
        s->fav[u] = (char)fav;
    }
    Py_DECREF(seq);
    for (int t = 0; t <= NW_MAXK; t++) {  /* an unbounded knapsack over the units' sizes: a bound, never a value */
        s->most[t] = t == 0 ? 0 : -1;
        for (int u = 0; u < U; u++)
            if (s->size[u] <= t && s->most[t - s->size[u]] >= 0 && s->most[t - s->size[u]] + s->points[u] > s->most[t])
                s->most[t] = s->most[t - s->size[u]] + s->points[u];
        s->most_le[t] = t == 0 ? 0 : s->most_le[t - 1];
        if (s->most[t] > s->most_le[t]) s->most_le[t] = s->most[t];
    }
    return 0;
fail:
    Py_DECREF(seq);
    return -1;
}

static PyMethodDef NoWin_methods[] = {
    {"score", (PyCFunction)NoWin_score, METH_VARARGS,
     "score(counts[, most]) -> the score of the hand that did not win (a packing of at most `most` tiles)"},
    {"complete", (PyCFunction)NoWin_complete, METH_VARARGS,
     "complete(counts, slots) -> the best total of units filling `slots` exactly within the counts, or None"},
    {NULL, NULL, 0, NULL},
};

PLANC_TYPE(NoWin, "One rule set's units for the score of a hand that did not win.");
