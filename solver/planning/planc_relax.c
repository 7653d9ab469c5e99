/* E[score]'s perfect-information relaxation counted over every multiset of t draws (counted_upper.py), in C:
 *
 * relax_count(win, nowin, hand, wall, t, slots, room, sora, rows, deadline) -> per row, in order, the sum over the
 * multisets D of prod_k C(w_k, r_k) * g(pool(D)); the rows not reached by the deadline are left out (a row is given
 * whole or not at all). `win` and `nowin` are NoWin objects (PoolWin's and NoWinScore's units), `rows` a sequence
 * of (discard kind or -1, そら held after the discard, floor N). The pool is the hand and the draws, less the
 * discard; where a fetch can happen (a そら held after the discard, or drawn; `room` given and `sora` >= 0) the hand,
 * the draws and the room. g = max(min(N, the best packing of slots - 1 tiles within the pool), the best tsumo score
 * of a complete hand within it).
 *
 * Both searches use only the units held whole in the pool, so g depends on the counts of those units' kinds alone:
 * pools equal there share one search (a memo keyed by those counts). */
#define PY_SSIZE_T_CLEAN
#include "planc.h"
#include "planc_table.h"
#include <string.h>

/* the units that can be held whole in a pool of a row: a base (the hand less the discard, or with a fetch the hand
 * and the room) and any draws. A unit fits iff its kinds missing from the base are all drawn. */
typedef struct {
    unsigned char base[NW_MAXK];
    long long least;              /* the base's own no-win score: every pool holds the base, so at least it */
    uint64_t always;              /* the kinds of the units the base holds whole */
    /* the units missing from 1 to t kinds of the base (both NoWin objects' units), by the set of kinds missing:
     * open addressing, a set (never 0) -> the kinds of its units; drawn kinds D then complete those of the subsets of
     * D, at most 2^t - 1 lookups instead of a pass over the units */
    size_t cap;
    uint64_t *missing, *kinds;
} Variant;

typedef struct {
    NoWin *win, *nowin;
    int n, t, slots, sora, kept;
    long long floor;
    const unsigned char *wall;
    Variant *plain, *fetched;     /* the row's pools without and with a fetch (NULL where none) */
    unsigned char draws[NW_MAXK];
    uint64_t drawn;               /* the kinds drawn */
    int live[NW_MAXK], nlive;
    Table memo;  /* counts on the kinds of the units held whole -> (won + 1) << 32 | no-win score */
    long long sum, visits;
    double deadline;
    int stopped, overflow, nomem;
} Relax;

static const long long CHOOSE[4][4] = {{1, 0, 0, 0}, {1, 1, 0, 0}, {1, 2, 1, 0}, {1, 3, 3, 1}};

static inline size_t spot(const Variant *v, uint64_t miss) {
    size_t i = (size_t)((miss * 0x9E3779B97F4A7C15ULL) >> 32) & (v->cap - 1);
    while (v->missing[i] && v->missing[i] != miss) i = (i + 1) & (v->cap - 1);
    return i;
}

static void add_units(Variant *v, NoWin *s, uint64_t support, int t) {
    for (int u = 0; u < s->U; u++) {
        uint64_t miss = s->mask[u] & ~support;
        if (!miss) v->always |= s->mask[u];
        else if (__builtin_popcountll(miss) <= t) {
            size_t i = spot(v, miss);
            v->missing[i] = miss;
            v->kinds[i] |= s->mask[u];
        }
    }
}

/* a row's variant from its base counts (both NoWin objects' units: their members may differ) */
static void variant_init(Variant *v, Relax *r, const unsigned char *base) {
    uint64_t support = 0;
    for (int k = 0; k < r->n; k++) {
        v->base[k] = base[k];
        if (base[k]) support |= 1ULL << k;
    }
    v->always = 0;
    memset(v->missing, 0, v->cap * sizeof *v->missing);
    memset(v->kinds, 0, v->cap * sizeof *v->kinds);
    add_units(v, r->nowin, support, r->t);
    add_units(v, r->win, support, r->t);
    v->least = nowin_within(r->nowin, v->base, r->n, r->slots - 1, 0);
}

/* g of the row's pool with the draws in r */
static long long g_of(Relax *r, const Variant *v) {
    uint64_t kinds = v->always;
    for (uint64_t sub = r->drawn; sub; sub = (sub - 1) & r->drawn) {
        size_t i = spot(v, sub);
        kinds |= v->kinds[i];  /* (0 at an empty slot) */
    }
    Key key = {{0, 0, 1ULL << 63}};
    for (uint64_t rest = kinds; rest; rest &= rest - 1) {
        int k = __builtin_ctzll(rest);
        key.w[k / PER_WORD] |= (uint64_t)(v->base[k] + r->draws[k]) << (3 * (k % PER_WORD));
    }
    long long won, nw, *got = table_get(&r->memo, key);
    if (got) {
        won = (*got >> 32) - 1;
        nw = *got & 0xFFFFFFFFLL;
    } else {
        unsigned char pool[NW_MAXK] = {0};
        int tiles = 0;
        for (uint64_t rest = kinds; rest; rest &= rest - 1) {
            int k = __builtin_ctzll(rest);
            tiles += pool[k] = (unsigned char)(v->base[k] + r->draws[k]);
        }
        /* (a complete hand is units held whole filling every slot: not within fewer tiles than slots) */
        won = tiles < r->slots ? -1 : nowin_filled(r->win, pool, r->n, r->slots);
        nw = nowin_within(r->nowin, pool, r->n, r->slots - 1, v->least);
        if (won < (1LL << 30) && nw >= 0 && nw < (1LL << 31) && !table_put(&r->memo, key, ((won + 1) << 32) | nw))
            r->nomem = 1;
    }
    long long g = nw < r->floor ? nw : r->floor;
    return won > g ? won : g;
}

static void visit(Relax *r, long long ways) {
    if (!(++r->visits & 4095) && r->deadline > 0 && planc_now() > r->deadline) r->stopped = 1;
    int fetch = r->fetched && r->kept + r->draws[r->sora] > 0;
    long long term;
    if (__builtin_mul_overflow(ways, g_of(r, fetch ? r->fetched : r->plain), &term) ||
        __builtin_add_overflow(r->sum, term, &r->sum))
        r->overflow = 1;
}

/* every multiset of `left` more draws from the live kinds from index i on */
static void draws_from(Relax *r, int i, int left, long long ways) {
    if (r->stopped || r->overflow || r->nomem) return;
    if (left == 0) {
        visit(r, ways);
        return;
    }
    for (int j = i; j < r->nlive; j++) {
        int k = r->live[j], most = r->wall[k] < left ? r->wall[k] : left;
        r->drawn |= 1ULL << k;
        for (int c = 1; c <= most; c++) {
            r->draws[k] = (unsigned char)c;
            draws_from(r, j + 1, left - c, ways * CHOOSE[r->wall[k]][c]);
        }
        r->draws[k] = 0;
        r->drawn &= ~(1ULL << k);
    }
}

PyObject *relax_count(PyObject *self, PyObject *args) {
    NoWin *win, *nowin;
    const char *hand, *wall, *room = NULL;
    Py_ssize_t nh, nw, nr = 0;
    int t, slots, sora;
    PyObject *rows;
    double deadline;
    if (!PyArg_ParseTuple(args, "O!O!y#y#iiz#iOd", &NoWinType, &win, &NoWinType, &nowin, &hand, &nh, &wall, &nw, &t,
                          &slots, &room, &nr, &sora, &rows, &deadline))
        return NULL;
    if (nh != nw || nh > 3 * PER_WORD || (room && nr != nh) || t < 0 || t > 8 || slots < 1 || slots > NW_MAXK ||
        sora >= nh) {
        PyErr_SetString(PyExc_ValueError, "relax_count: hand, wall and room of one length (at most 63 kinds), "
                                          "0 to 8 draws, 1 to 64 slots");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < nh; k++)
        if ((unsigned char)wall[k] > 3 || (unsigned char)hand[k] + (unsigned char)wall[k] +
                                                   (room ? (unsigned char)room[k] : 0) > 7) {
            PyErr_SetString(PyExc_ValueError, "relax_count: at most 3 live copies and 7 in a pool of a kind");
            return NULL;
        }
    PyObject *seq = PySequence_Fast(rows, "rows must be a sequence");
    if (!seq) return NULL;
    Relax r = {.win = win, .nowin = nowin, .n = (int)nh, .t = t, .slots = slots, .sora = sora,
               .wall = (const unsigned char *)wall, .deadline = deadline};
    for (int k = 0; k < r.n; k++)
        if (r.wall[k]) r.live[r.nlive++] = k;
    PyObject *out = PyList_New(0);
    size_t cap = 16;
    while (cap < 2 * ((size_t)win->U + (size_t)nowin->U)) cap *= 2;  /* (at most half full) */
    Variant plain_v = {.cap = cap}, fetched_v = {.cap = cap}, *plain = &plain_v, *fetched = &fetched_v;
    uint64_t *space = PyMem_Calloc(4 * cap, sizeof(uint64_t));
    int memo = table_init(&r.memo, 1 << 12);
    if (!out || !space || !memo) {
        Py_XDECREF(out);
        PyMem_Free(space);
        if (memo) table_free(&r.memo);
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    plain->missing = space, plain->kinds = space + cap, fetched->missing = space + 2 * cap;
    fetched->kinds = space + 3 * cap;
    unsigned char base[NW_MAXK];
    for (int k = 0; k < r.n; k++) base[k] = (unsigned char)(hand[k] + (room ? room[k] : 0));
    int fetch_ok = room && sora >= 0;
    if (fetch_ok) variant_init(fetched, &r, base);  /* (the same for every row) */
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        int row;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "iiL", &row, &r.kept, &r.floor)) goto fail;
        if (row >= r.n || (row >= 0 && !hand[row])) {
            PyErr_SetString(PyExc_ValueError, "relax_count: a row's discard is a kind the hand holds");
            goto fail;
        }
        for (int k = 0; k < r.n; k++) base[k] = (unsigned char)(hand[k] - (k == row));
        variant_init(plain, &r, base);
        r.plain = plain;
        r.fetched = fetch_ok ? fetched : NULL;
        if (deadline > 0 && planc_now() > deadline) break;  /* (a row is begun only within the clock) */
        r.sum = 0;
        draws_from(&r, 0, t, 1);
        if (r.overflow) {
            PyErr_SetString(PyExc_OverflowError, "relax_count: the sum passed 64 bits");
            goto fail;
        }
        if (r.nomem) {
            PyErr_NoMemory();
            goto fail;
        }
        if (r.stopped) break;
        PyObject *v = PyLong_FromLongLong(r.sum);
        if (!v || PyList_Append(out, v) < 0) {
            Py_XDECREF(v);
            goto fail;
        }
        Py_DECREF(v);
    }
    table_free(&r.memo);
    PyMem_Free(space);
    Py_DECREF(seq);
    return out;
fail:
    table_free(&r.memo);
    PyMem_Free(space);
    Py_DECREF(seq);
    Py_DECREF(out);
    return NULL;
}
