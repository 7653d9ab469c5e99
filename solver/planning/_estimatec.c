/* The estimate's policy played in sampled walls, in C (optional; estimate.py's play() and Policy are the same in
 * Python and the fallback, and the tests compare the two game by game). Same walls, same tie-breaks, same outcomes.
 *
 * play_root(matrix, T, nr, scores, start_wall, root, wall, walls, turns)
 *   -> (wins, sum of win scores, sum of their squares, {final 12-tile hand: games lost with it})
 *   matrix: T targets x nr bytes (their counts over the relevant kinds); scores: each target's tsumo score;
 *   start_wall: live copies per relevant kind at the start (the policy's tie-break); root: the 12-tile hand over
 *   the search's positions (relevant kinds first, junk last); wall: the live wall over the relevant kinds;
 *   walls: games x turns bytes, each draw's position + 1 (0: a tile of no relevant kind, discarded at once).
 * The lost games' hands are returned, not scored: the no-win score is Python's (search.nowin, memoised there).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "planc_seq.h"

#define MAXPOS 128
#define MAXNR 64
#define MAXC 8  /* copies of a kind a hand or target may hold (more: ValueError, Python answers) */

/* Counts as bit planes: plane c holds the kinds with at least c + 1 copies, so a target's cost from the hand, the
 * kinds it lacks and those the hand holds more of are a few word operations per target. */
typedef struct { uint64_t fewer, lack; int cost; } Diff;

typedef struct {
    const uint64_t *r;  /* T x MAXC planes of the targets */
    int T, nr, planes;  /* planes in use: the most copies of a kind anywhere */
    long long start[MAXNR];
    Diff *d;  /* each target against the hand of the moment (differ()) */
} Game;

static Diff diff(const uint64_t *r, const uint64_t *h, int planes) {
    Diff d = {0, 0, 0};
    for (int c = 0; c < planes; c++) {
        uint64_t lack = r[c] & ~h[c];
        d.lack |= lack;
        d.fewer |= h[c] & ~r[c];
        d.cost += __builtin_popcountll(lack);
    }
    return d;
}

/* Policy.lowest_h: the discard leaving the lowest h over the targets, ties by the live copies (at the start) of
 * the kinds that lower it after, then the lowest position (numpy's argmax). */
static int differ(const Game *g, const uint64_t *h) {  /* fills g->d; the least cost */
    int m = 1 << 30;
    for (int t = 0; t < g->T; t++) {
        g->d[t] = diff(g->r + (size_t)t * MAXC, h, g->planes);
        if (g->d[t].cost < m) m = g->d[t].cost;
    }
    return m;
}

static int lowest_h(const Game *g, const int *hand, int m) {
    int nr = g->nr;
    if (g->T == 0) {
        for (int x = 0; x < nr; x++)
            if (hand[x] > 0) return x;
        return 0;
    }
    uint64_t keeps = 0, lack_c = 0, keep_low[MAXNR], raise_low[MAXNR];
    memset(keep_low, 0, sizeof keep_low);
    memset(raise_low, 0, sizeof raise_low);
    for (int t = 0; t < g->T; t++) {
        Diff d = g->d[t];
        if (d.cost != m && d.cost != m + 1) continue;
        uint64_t *into = d.cost == m ? keep_low : raise_low;
        if (d.cost == m) {
            keeps |= d.fewer;
            lack_c |= d.lack;
        }
        for (uint64_t f = d.fewer; f; f &= f - 1) into[__builtin_ctzll(f)] |= d.lack;
    }
    long long best = 0;
    int choice = -1;
    for (int x = 0; x < nr; x++) {
        long long key;
        if (hand[x] <= 0) {
            key = -1000000000LL;
        } else {
            int keep = (keeps >> x) & 1;
            uint64_t lowering = keep ? keep_low[x] : (raise_low[x] | lack_c | (1ULL << x));
            long long accept = 0;
            for (; lowering; lowering &= lowering - 1) accept += g->start[__builtin_ctzll(lowering)];
            key = (keep ? 0 : -10000) + accept;
        }
        if (choice < 0 || key > best) {
            best = key;
            choice = x;
        }
    }
    return choice;
}

/* Policy.last: with one draw left, the discard leaving the most live winning tiles; -1 where none leaves any.
 * The hand (13 relevant tiles, not complete) less x, plus i, is a target iff that target is one draw away
 * (cost 1) lacking i, with its one surplus tile at x. */
static int last(const Game *g, const int *hand, const int *wall) {
    long long live[MAXNR];
    memset(live, 0, sizeof live);
    for (int t = 0; t < g->T; t++) {
        Diff d = g->d[t];
        if (d.cost == 1 && d.fewer) live[__builtin_ctzll(d.fewer)] += wall[__builtin_ctzll(d.lack)];
    }
    long long best = 0;
    int choice = -1;
    for (int x = 0; x < g->nr; x++)
        if (hand[x] && live[x] > best) {
            best = live[x];
            choice = x;
        }
    return choice;
}

/* a draw (+1) or a discard (-1) of a relevant kind, in the counts and their planes */
static void move(int *hand, uint64_t *h, int k, int by) {
    if (by < 0) h[hand[k] - 1] &= ~(1ULL << k);
    hand[k] += by;
    if (by > 0) h[hand[k] - 1] |= 1ULL << k;
}

static PyObject *play_root(PyObject *self, PyObject *args) {
    Py_buffer mb, wb;
    int T, nr, turns;
    PyObject *scores_o, *start_o, *root_o, *wall_o;
    if (!PyArg_ParseTuple(args, "y*iiOOOOy*i", &mb, &T, &nr, &scores_o, &start_o, &root_o, &wall_o, &wb, &turns))
        return NULL;
    PyObject *out = NULL, *lost = NULL;
    uint64_t *planes = NULL;
    long long *scores = NULL;
    Game g = {NULL, T, nr, 0, {0}, NULL};
    int root[MAXPOS], wall0[MAXNR], start[MAXNR], npos = (int)PySequence_Size(root_o);
    if (npos < 0) goto done;
    if (nr <= 0 || nr > MAXNR || npos > MAXPOS || npos < nr || T < 0 || mb.len != (Py_ssize_t)T * nr ||
        turns <= 0 || wb.len % turns) {
        PyErr_SetString(PyExc_ValueError, "play_root: sizes do not fit");
        goto done;
    }
    planes = calloc((size_t)(T + 1) * MAXC, sizeof *planes);
    scores = calloc(T + 1, sizeof *scores);
    g.d = calloc(T + 1, sizeof *g.d);
    if (!planes || !scores || !g.d) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_ints(root_o, root, npos, 1, "root") || read_ints(wall_o, wall0, nr, 1, "wall") ||
        read_ints(start_o, start, nr, 1, "start_wall") || read_longs(scores_o, scores, T, 1, "scores"))
        goto done;
    for (int i = 0; i < npos; i++)
        if (root[i] < 0 || (i < nr && (wall0[i] < 0 || start[i] < 0))) {
            PyErr_SetString(PyExc_ValueError, "play_root: a negative count");
            goto done;
        }
    for (Py_ssize_t i = 0; i < wb.len; i++)
        if (((const unsigned char *)wb.buf)[i] > nr) {
            PyErr_SetString(PyExc_ValueError, "play_root: a draw outside the relevant kinds");
            goto done;
        }
    int most = 0;  /* the most copies a hand can hold: the root's plus the wall's */
    for (int k = 0; k < nr; k++) {
        g.start[k] = start[k];
        if (root[k] + wall0[k] > most) most = root[k] + wall0[k];
    }
    const unsigned char *m = mb.buf;
    for (int t = 0; t < T; t++)
        for (int k = 0; k < nr; k++) {
            int c = m[(size_t)t * nr + k];
            if (c > most) most = c;
            for (int i = 0; i < c && i < MAXC; i++) planes[(size_t)t * MAXC + i] |= 1ULL << k;
        }
    if (most > MAXC) {
        PyErr_SetString(PyExc_ValueError, "play_root: too many copies of a kind");
        goto done;
    }
    g.r = planes;
    g.planes = most;
    lost = PyDict_New();
    if (!lost) goto done;
    long long wins = 0, total = 0, squares = 0;
    const unsigned char *draws = wb.buf;
    Py_ssize_t games = wb.len / turns;
    for (Py_ssize_t game = 0; game < games; game++, draws += turns) {
        int hand[MAXPOS], wall[MAXNR], won = 0;
        uint64_t h[MAXC] = {0};
        memcpy(hand, root, sizeof(int) * npos);
        memcpy(wall, wall0, sizeof(int) * nr);
        for (int k = 0; k < nr; k++)
            for (int i = 0; i < hand[k]; i++) h[i] |= 1ULL << k;
        for (int n = 0; n < turns && !won; n++) {
            int pos = draws[n] - 1;
            if (pos < 0) continue;  /* a tile of no relevant kind: discarded at once */
            wall[pos]--;
            move(hand, h, pos, 1);
            int x = -1;
            for (int i = nr; i < npos; i++)
                if (hand[i]) { x = i; break; }  /* junk first */
            if (x < 0) {
                int least = differ(&g, h);
                for (int t = 0; t < T && !least; t++)
                    if (!g.d[t].cost) {  /* 13 relevant tiles hold it: it is the hand */
                        wins++;
                        total += scores[t];
                        squares += scores[t] * scores[t];
                        won = 1;
                        break;
                    }
                if (won) break;
                if (turns - n - 1 == 1) x = last(&g, hand, wall);
                if (x < 0) x = lowest_h(&g, hand, least);
            }
            if (x < nr) move(hand, h, x, -1);
            else hand[x]--;
        }
        if (won) continue;
        PyObject *key = PyTuple_New(npos);
        if (!key) goto done;
        for (int i = 0; i < npos; i++) PyTuple_SET_ITEM(key, i, PyLong_FromLong(hand[i]));
        PyObject *had = PyDict_GetItemWithError(lost, key);
        long n = had ? PyLong_AsLong(had) : 0;
        PyObject *count = PyErr_Occurred() ? NULL : PyLong_FromLong(n + 1);
        int bad = !count || PyDict_SetItem(lost, key, count) < 0;
        Py_XDECREF(count);
        Py_DECREF(key);
        if (bad) goto done;
    }
    out = Py_BuildValue("LLLO", wins, total, squares, lost);
done:
    Py_XDECREF(lost);
    free(planes);
    free(scores);
    free(g.d);
    PyBuffer_Release(&mb);
    PyBuffer_Release(&wb);
    return out;
}

static PyMethodDef methods[] = {
    {"play_root", play_root, METH_VARARGS,
     "play_root(matrix, T, nr, scores, start_wall, root, wall, walls, turns) -> (wins, total, squares, lost)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_estimatec", "The estimate's policy in sampled walls, in C (optional; estimate.py is the fallback).",
    -1, methods};

PyMODINIT_FUNC PyInit__estimatec(void) { return PyModule_Create(&module); }
