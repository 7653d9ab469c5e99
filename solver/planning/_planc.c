/* The planner's hottest step in C (optional; closed.py's ClosedForms.two_draws_best is the same in Python and the
 * fallback): a 12-tile hand with three draws left draws kind k, and the 13-tile hand's best discard with two draws
 * left is valued in closed form (docs/formulation.md section 8, "The best discard with two draws left" and
 * "Pruning the discards with two draws left"). Exact integers, scaled by (W-1)(W-2), W the wall before the draw.
 *
 * drawn_best(hand, wall, W, ks, rows, costs, nr[, room, sora]) -> [value after drawing k for k in ks], or None
 * where the sizes do not fit (then Python answers); with room (over the relevant kinds) and sora (live そら), each
 * discard's value adds what a そら drawn next adds by a swap with a room tile (fetch_win.py)
 *   hand: counts over the search's positions (relevant kinds first, junk last), the 12-tile hand;
 *   wall: live counts over the nr relevant kinds; rows: the targets within reach of the 12-tile hand with three
 *   draws left, nr bytes each (their counts over the relevant kinds), costs: their costs from it (reach.Costed).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "planc.h"

typedef struct { int k, s; uint64_t mask; } Entry;

static int by_key(const void *a, const void *b) {
    const Entry *x = a, *y = b;
    if (x->k != y->k) return x->k - y->k;
    return x->s - y->s;
}

typedef struct { long long bound; int x; } Cand;

static int by_bound(const void *a, const void *b) {  /* highest bound first; ties: higher position first */
    const Cand *x = a, *y = b;
    if (x->bound != y->bound) return x->bound < y->bound ? 1 : -1;
    return y->x - x->x;
}

static long long live(uint64_t mask, const int *w) {
    long long n = 0;
    while (mask) {
        n += w[__builtin_ctzll(mask)];
        mask &= mask - 1;
    }
    return n;
}

typedef struct {
    int nr, npos, W;  /* W: the 13-tile state's wall */
    int w[MAXNR];
    int held[MAXPOS], nheld;
    uint64_t waits[MAXPOS];  /* s -> kinds completing hand - s */
    int *pa, *pb, *px, *ps, npairs;  /* targets two away: (a, b) missing, x an extra tile, s the other (spare) */
    int *low, nlow, *boff, *bidx;  /* targets within two draws of the 12-tile hand; per kind k, those three away
                                      that lack k (boff[k] .. boff[k+1] in bidx) */
    int *miss12, *ext12, *nmiss12, *next12;  /* per target, its missing and extra tiles from the 12-tile hand
                                                (at most 4 listed; more: never within two draws) */
    Entry *entries;
    int sora;  /* live そら (fetch_win): each draw's best discard adds sora x the best swap after a drawn one */
    int room[MAXNR];  /* the waiting room over the relevant kinds (with sora) */
} State;

/* two_draws of hand - x (closed.two_draw_value over two_draws_each's tables) */
static long long value_of(State *st, int x) {
    uint64_t wins = st->waits[x];
    long long ready = live(wins, st->w);
    int n = 0;
    for (int j = 0; j < st->nheld; j++) {
        int s = st->held[j];
        uint64_t kinds = st->waits[s];
        if (s == x || !kinds) continue;
        st->entries[n++] = (Entry){x, s, kinds};  /* a draw of x: discard s, back to waiting on kinds */
        for (uint64_t m = kinds; m; m &= m - 1)  /* a draw of b: discard s, wait on x (x < nr here) */
            st->entries[n++] = (Entry){__builtin_ctzll(m), s, x < st->nr ? 1ULL << x : 0};
    }
    for (int p = 0; p < st->npairs; p++) {
        if (st->px[p] != x) continue;
        st->entries[n++] = (Entry){st->pa[p], st->ps[p], 1ULL << st->pb[p]};
        st->entries[n++] = (Entry){st->pb[p], st->ps[p], 1ULL << st->pa[p]};
    }
    qsort(st->entries, n, sizeof(Entry), by_key);
    long long total = 0, covered = 0;
    for (uint64_t m = wins; m; m &= m - 1) {
        int k = __builtin_ctzll(m);
        total += (long long)st->w[k] * (st->W - 1);
        covered += st->w[k];
    }
    int i = 0;
    while (i < n) {
        int k = st->entries[i].k;
        long long best = ready;
        while (i < n && st->entries[i].k == k) {
            int s = st->entries[i].s;
            uint64_t mask = 0;
            while (i < n && st->entries[i].k == k && st->entries[i].s == s) mask |= st->entries[i++].mask;
            int has_k = (mask >> k) & 1;
            long long got = (s == k ? live(mask | wins, st->w) : live(mask, st->w)) - has_k;
            if (got > best) best = got;
        }
        long long wk = st->w[k];
        if (!wk || ((wins >> k) & 1)) continue;
        covered += wk;
        total += wk * best;
    }
    return total + (st->W - covered) * ready;
}

/* fetch_win's swap_last(hand - x) less the waits of hand - x (docs/formulation.md section 8, "P(win) with every
 * fetch", items 5-6): what a そら drawn next adds when x is discarded now, scaled by the last draw. From the tables:
 * a target one away from the 13 tiles (waits[s] holds b) is, after discarding x = s, a wait on b (then swap any y
 * for a room b, wait y), and after another x two away with surplus s, missing x and b (swap s for x, wait b; or
 * s for a room b, wait x); a pair entry with x extra is two away with surplus s (swap s for a room a, wait b). */
static long long swap_gain(State *st, int x, const int *hand) {
    int n = 0, nr = st->nr;
    const int *w = st->w, *room = st->room;
    long long ready = live(st->waits[x], w), best = ready;
    for (int j = 0; j < st->nheld; j++) {
        int s = st->held[j];
        for (uint64_t m = st->waits[s]; m; m &= m - 1) {
            int b = __builtin_ctzll(m);
            if (s == x) {
                if (!room[b]) continue;
                for (int i = 0; i < st->nheld; i++) {
                    int y = st->held[i];
                    if (y < nr && y != b && (y != x || hand[x] > 1)) ADD(y, b, w[y]);
                }
            } else if (x < nr) {  /* (b = x: two more x than hand - x, one fetched, one drawn: one option) */
                ADD(s, x, w[b]);
                if (b != x && room[b]) ADD(s, b, w[x]);
            }
        }
    }
    for (int p = 0; p < st->npairs; p++) {
        if (st->px[p] != x) continue;
        int s = st->ps[p], a = st->pa[p], b = st->pb[p];
        if (room[a]) ADD(s, a, w[b]);
        if (a != b && room[b]) ADD(s, b, w[a]);
    }
    return best_touched(n, best) - ready;
}

/* the best two-draw value of hand + k (13 tiles, wall w - k), from the parsed targets within reach of the 12-tile
 * hand with three draws left: -1 where a cost does not match the counts (never, for the lists reach.py keeps) */
static long long best_after(State *st, const int *hand12, const int *wall12, int k, const unsigned char *rows,
                            const int *costs12) {
    int nr = st->nr, npos = st->npos;
    int hand[MAXPOS];
    memcpy(hand, hand12, sizeof(int) * npos);
    memcpy(st->w, wall12, sizeof(int) * nr);
    hand[k] += 1;  /* the draw */
    st->w[k] -= 1;
    st->nheld = 0;
    st->npairs = 0;
    for (int i = 0; i < npos; i++) {
        st->waits[i] = 0;
        if (hand[i]) st->held[st->nheld++] = i;
    }
    /* the targets within two draws of hand + k: those within two of the hand, then those three away that lack k */
    int nlow = st->nlow, nk = st->boff[k + 1] - st->boff[k];
    for (int j = 0; j < nlow + nk; j++) {
        int t = j < nlow ? st->low[j] : st->bidx[st->boff[k] + j - nlow];
        const unsigned char *dense = rows + (size_t)t * nr;
        int cost = costs12[t] - (dense[k] > hand[k] - 1);  /* the drawn tile is one it lacked */
        if (cost > 2) continue;
        if (cost <= 0) return (long long)st->W * (st->W - 1);  /* the 13 tiles are this target: a win at once */
        /* the 13-tile hand's missing and extra tiles, from the 12-tile hand's (prepared once a call) */
        const int *m12 = st->miss12 + 4 * t, *e12 = st->ext12 + 4 * t;
        int missing[4], nm = 0, extra[4], ne = 0, dropped = 0;
        for (int j = 0; j < st->nmiss12[t]; j++) {
            if (m12[j] == k && !dropped) dropped = 1;  /* the drawn tile was one of them */
            else missing[nm++] = m12[j];
        }
        for (int j = 0; j < st->next12[t]; j++) extra[ne++] = e12[j];
        if (!dropped && ne < 4) extra[ne++] = k;  /* a tile it has no use for */
        if (cost == 1 && nm == 1 && ne == 1) {
            st->waits[extra[0]] |= 1ULL << missing[0];
        } else if (cost == 2 && nm == 2 && ne == 2) {
            st->pa[st->npairs] = missing[0], st->pb[st->npairs] = missing[1];
            st->px[st->npairs] = extra[0], st->ps[st->npairs++] = extra[1];
            if (extra[1] != extra[0]) {
                st->pa[st->npairs] = missing[0], st->pb[st->npairs] = missing[1];
                st->px[st->npairs] = extra[1], st->ps[st->npairs++] = extra[0];
            }
        } else {
            return -1;
        }
    }
    if (st->sora) {  /* every discard, with what a drawn そら adds (no bound: the swap's gain is not in it) */
        long long best = 0;
        for (int j = 0; j < st->nheld; j++) {
            int x = st->held[j];
            long long v = value_of(st, x) + st->sora * swap_gain(st, x, hand);
            if (v > best) best = v;
        }
        return best;
    }
    uint64_t uni = 0;
    for (int j = 0; j < st->nheld; j++) uni |= st->waits[st->held[j]];
    long long one = live(uni, st->w), best = 0;
    Cand cands[MAXPOS];
    for (int j = 0; j < st->nheld; j++) {  /* closed.two_draw_bounds */
        int x = st->held[j];
        long long ready = live(st->waits[x], st->w);
        uint64_t kinds = 0;
        for (int p = 0; p < st->npairs; p++)
            if (st->px[p] == x) kinds |= (1ULL << st->pa[p]) | (1ULL << st->pb[p]);
        long long most = (x < nr ? st->w[x] : 0) + one + live(kinds, st->w);
        long long some = most < st->W - ready ? most : st->W - ready;
        cands[j].bound = ready * (st->W - 1) + (st->W - ready - some) * ready + some * (most > ready ? most : ready);
        cands[j].x = x;
    }
    qsort(cands, st->nheld, sizeof(Cand), by_bound);
    for (int j = 0; j < st->nheld; j++) {
        if (cands[j].bound <= best) break;  /* it, and every later one, cannot beat the best found */
        long long v = value_of(st, cands[j].x);
        if (v > best) best = v;
    }
    return best;
}

static PyObject *drawn_best(PyObject *self, PyObject *args) {
    PyObject *hand_o, *wall_o, *ks, *costs, *room_o = NULL;
    const char *rows_b;
    Py_ssize_t nbytes;
    int W0, nr, sora = 0;
    if (!PyArg_ParseTuple(args, "OOiOy#Oi|Oi", &hand_o, &wall_o, &W0, &ks, &rows_b, &nbytes, &costs, &nr, &room_o,
                          &sora))
        return NULL;
    if (!PyTuple_Check(hand_o) || !PyTuple_Check(wall_o) || !PyList_Check(ks) || !PyList_Check(costs) ||
        (room_o && (!PyTuple_Check(room_o) || PyTuple_GET_SIZE(room_o) != PyTuple_GET_SIZE(wall_o)))) {
        PyErr_SetString(PyExc_TypeError, "drawn_best(tuple, tuple, int, list, bytes, list, int[, tuple, int])");
        return NULL;
    }
    Py_ssize_t npos = PyTuple_GET_SIZE(hand_o), nt = PyList_GET_SIZE(costs), nk = PyList_GET_SIZE(ks);
    if (npos > MAXPOS || nr < 1 || nr > MAXNR || nr > npos || PyTuple_GET_SIZE(wall_o) != nr || nbytes != nt * nr)
        Py_RETURN_NONE;
    const unsigned char *rows = (const unsigned char *)rows_b;
    State st;
    memset(&st, 0, sizeof st);
    st.nr = nr;
    st.npos = (int)npos;
    st.W = W0 - 1;
    int hand[MAXPOS], wall[MAXNR];
    for (Py_ssize_t i = 0; i < npos; i++) hand[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(hand_o, i));
    for (int i = 0; i < nr; i++) wall[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(wall_o, i));
    if (room_o) {
        st.sora = sora;
        for (int i = 0; i < nr; i++) st.room[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(room_o, i));
    }
    if (PyErr_Occurred()) return NULL;
    int *costs12 = malloc(sizeof(int) * (nt + 1));
    st.pa = malloc(sizeof(int) * (8 * nt + 8));  /* at most two pairs a target */
    st.entries = malloc(sizeof(Entry) * (4 * nt + MAXPOS * (MAXNR + 1) + 4));
    PyObject *out = NULL;
    if (!costs12 || !st.pa || !st.entries) {
        PyErr_NoMemory();
        goto done;
    }
    st.pb = st.pa + 2 * nt + 2;
    st.px = st.pb + 2 * nt + 2;
    st.ps = st.px + 2 * nt + 2;
    for (Py_ssize_t t = 0; t < nt; t++) costs12[t] = (int)PyLong_AsLong(PyList_GET_ITEM(costs, t));
    if (PyErr_Occurred()) goto done;
    st.miss12 = malloc(sizeof(int) * (10 * nt + 10));
    if (!st.miss12) {
        PyErr_NoMemory();
        goto done;
    }
    st.ext12 = st.miss12 + 4 * nt + 4;
    st.nmiss12 = st.ext12 + 4 * nt + 4;
    st.next12 = st.nmiss12 + nt + 1;
    int held12[MAXPOS], nheld12 = 0;
    for (int i = 0; i < npos; i++)
        if (hand[i]) held12[nheld12++] = i;
    for (Py_ssize_t t = 0; t < nt; t++) {
        const unsigned char *dense = rows + (size_t)t * nr;
        int nm = 0, ne = 0, want = costs12[t] < 4 ? costs12[t] : 4;  /* its cost is the number it lacks */
        for (int i = 0; i < nr && nm < want; i++)
            for (int d = dense[i] - hand[i]; d > 0 && nm < 4; d--) st.miss12[4 * t + nm++] = i;
        for (int j = 0; j < nheld12; j++) {
            int i = held12[j];
            for (int d = hand[i] - (i < nr ? dense[i] : 0); d > 0 && ne < 4; d--) st.ext12[4 * t + ne++] = i;
        }
        st.nmiss12[t] = nm;
        st.next12[t] = ne;
    }
    st.low = malloc(sizeof(int) * (5 * nt + nr + 2));
    if (!st.low) {
        PyErr_NoMemory();
        goto done;
    }
    st.boff = st.low + nt + 1;
    st.bidx = st.boff + nr + 1;
    memset(st.boff, 0, sizeof(int) * (nr + 1));
    for (Py_ssize_t t = 0; t < nt; t++) {  /* a kind listed once per target (a target may lack two of one kind) */
        const int *m = st.miss12 + 4 * t;
        if (costs12[t] <= 2) st.low[st.nlow++] = (int)t;
        else if (costs12[t] == 3)
            for (int j = 0; j < st.nmiss12[t]; j++)
                if (j == 0 || m[j] != m[j - 1]) st.boff[m[j] + 1]++;
    }
    for (int i = 0; i < nr; i++) st.boff[i + 1] += st.boff[i];
    {
        int *fill = malloc(sizeof(int) * (nr + 1));
        if (!fill) {
            PyErr_NoMemory();
            goto done;
        }
        memcpy(fill, st.boff, sizeof(int) * (nr + 1));
        for (Py_ssize_t t = 0; t < nt; t++) {
            const int *m = st.miss12 + 4 * t;
            if (costs12[t] == 3)
                for (int j = 0; j < st.nmiss12[t]; j++)
                    if (j == 0 || m[j] != m[j - 1]) st.bidx[fill[m[j]]++] = (int)t;
        }
        free(fill);
    }
    out = PyList_New(nk);
    if (!out) goto done;
    for (Py_ssize_t j = 0; j < nk; j++) {
        long k = PyLong_AsLong(PyList_GET_ITEM(ks, j));
        if (k < 0 || k >= nr || !wall[k]) {
            Py_CLEAR(out);
            if (!PyErr_Occurred()) goto none;
            goto done;
        }
        long long v = best_after(&st, hand, wall, (int)k, rows, costs12);
        if (v < 0) {
            Py_CLEAR(out);
            goto none;
        }
        PyList_SET_ITEM(out, j, PyLong_FromLongLong(v));
    }
    goto done;
none:
    if (!PyErr_Occurred()) {
        free(costs12), free(st.pa), free(st.entries), free(st.miss12), free(st.low);
        Py_RETURN_NONE;
    }
done:
    free(costs12), free(st.pa), free(st.entries), free(st.miss12), free(st.low);
    return out;
}

static PyMethodDef methods[] = {
    {"drawn_best", drawn_best, METH_VARARGS,
     "drawn_best(hand, wall, W, ks, rows, costs, nr[, room, sora]) -> per k in ks, the best two-draw value after "
     "drawing k (with room and sora: a drawn そら may swap for a room tile before the last draw)"},
    {"swaps_drawn", swaps_drawn, METH_VARARGS,
     "swaps_drawn(hand, wall, room, nr, rows, sp) -> (sum over draws k of w_k x the best swap after k, live)"},
    {"sparse_rows", sparse_rows, METH_VARARGS,
     "sparse_rows(matrix, nr) -> the matrix's rows as their nonzero entries, for the filters below (planc_rows.c)"},
    {"reach_rows", reach_rows, METH_VARARGS,
     "reach_rows(sparse, rows, hand, available, cap[, less_hand]) -> the rows within reach (bytes of intp)"},
    {"narrowed_rows", narrowed_rows, METH_VARARGS,
     "narrowed_rows(sparse, rows, hand, p, cap) -> the rows within reach after discarding p (bytes of intp)"},
    {"most_rows", most_rows, METH_VARARGS, "most_rows(sparse, rows) -> per kind the most copies a row holds"},
    {"count_needs", count_needs, METH_VARARGS,
     "count_needs(asks, needs, steps, walls, free, t, gains, limit, deadline) -> (total, scored, stop)"},
    {"tile_lists", tile_lists, METH_VARARGS,
     "tile_lists(counts, N, n, width) -> (tiles, ranks): count rows as tile lists (needs.py lists_of)"},
    {"list_complete", list_complete, METH_VARARGS,
     "list_complete(units, held, cap, slots, budget, limit, deadline, bonus, extra[, matrix]) -> ({counts: score} "
     "or (counts bytes, scores bytes), stop, kinds)"},
    {"relax_count", relax_count, METH_VARARGS,
     "relax_count(win, nowin, hand, wall, t, slots, room, sora, rows, deadline) -> per row (discard or -1, そら kept, "
     "floor) reached, E[score]'s relaxation summed over every multiset of t draws (planc_relax.c)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_planc", "The planner's two-draw closed form in C (optional; closed.py is the fallback).",
    -1, methods,
};

PyMODINIT_FUNC PyInit__planc(void) {
    if (PyType_Ready(&NoWinType) < 0 || PyType_Ready(&TailType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddType(m, &NoWinType) < 0 || PyModule_AddType(m, &TailType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
