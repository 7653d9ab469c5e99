/* A 13-tile hand with two draws left and no そら held (no fetch before the next draw), in C: every discard's upper
 * bound at once (bounds; score_optimum.py's best_of_two values them exactly in their order); docs/formulation.md
 * section 8, "E[score] over all play", item 5.
 *
 * After discard x and draw k the hand's next discard x' keeps hand + k - x - x', the same 12 tiles as discarding x'
 * first and x second: per draw, the bound sum of each pair {x, x'} (its table summed over the wall left) is found
 * once for both, in passes that overlap the tables' cache misses. A drawn そら (a room given) is valued per x: its
 * fetches take from a room that holds x. */
#define PY_SSIZE_T_CLEAN
#include <string.h>

#include "planc_tail.h"

#define PMAX 15  /* kinds of a 14-tile hand, at most */

typedef long long Pairs[PMAX][PMAX];

/* the 13-tile hand's arguments (hand, wall[, room[, last]]): c, key, a copy of the wall, room and the kinds held
 * (held, d of them); 0 with an exception set */
static int thirteen(Tail *t, PyObject *args, unsigned char *c, Key *key, unsigned char *wall,
                    const unsigned char **room, PyObject **last, int *held, int *d) {
    const unsigned char *w;
    PyObject *r = NULL;
    if (!hand_and_wall(t, args, c, key, &w, &r, last) || !room_of(t, r, room)) return 0;
    if (*room && t->sora >= 0 && c[t->sora]) {
        PyErr_SetString(PyExc_ValueError, "a hand holding a そら fetches before the draw");
        return 0;
    }
    memcpy(wall, w, t->kinds);
    *d = 0;
    for (int k = 0; k < t->kinds; k++)
        if (c[k]) {
            if (*d == PMAX - 1) {
                PyErr_SetString(PyExc_ValueError, "a 13-tile hand: at most 14 kinds");
                return 0;
            }
            held[(*d)++] = k;
        }
    return 1;
}

/* After draw k (c, its key `drawn`: 14 tiles; wall: the wall less k, W1 tiles): kinds[] the 14 tiles' kinds (held[]
 * first, then k if new), *m of them, and pair[i][j] = pair[j][i] the sum of the table of the 14 tiles less kinds[i]
 * and kinds[j], for i < asked (held[i] among the discards asked; j from i). 0 with an exception set. */
static int draw_pairs(Tail *t, unsigned char *c, Key drawn, const unsigned char *wall, long long W1, int k,
                      const int *held, int d, int asked, int *kinds, int *m, Pairs pair) {
    *m = 0;
    for (int i = 0; i < d; i++) kinds[(*m)++] = held[i];
    if (c[k] == 1) kinds[(*m)++] = k;
    Key keys[PMAX * PMAX];
    int pa[PMAX * PMAX], pb[PMAX * PMAX], np = 0;
    for (int i = 0; i < asked; i++)
        for (int j = i; j < *m; j++) {
            int a = kinds[i], b = kinds[j];
            if (a == b && c[a] < 2) continue;
            pa[np] = i, pb[np] = j;
            keys[np] = moved(moved(drawn, a, -1), b, -1);
            table_prefetch(&t->tables, keys[np++]);
        }
    long long at[PMAX * PMAX];
    for (int p = 0; p < np; p++) {
        int a = kinds[pa[p]], b = kinds[pb[p]];
        c[a]--, c[b]--;
        at[p] = table_of(t, c, keys[p], 0);
        c[a]++, c[b]++;
        if (at[p] < 0) return 0;
        __builtin_prefetch(t->pool + at[p]);
    }
    for (int p = 0; p < np; p++) pair[pa[p]][pb[p]] = pair[pb[p]][pa[p]] = summed(t, at[p], wall, W1);
    return 1;
}

/* the best of the 13-tile hand c (its key; x = held[i] discarded after draw k) over its tsumo and each next discard
 * x' = kinds[j] held, from the pair sums: an upper bound of its value with one draw left */
static long long pair_bound(Tail *t, const unsigned char *c, Key key, long long W1, const int *kinds, int m,
                            const long long *row) {
    long long *won = table_get(&t->wins, key), best = won ? *won * W1 : -1;
    for (int j = 0; j < m; j++)
        if (c[kinds[j]] && row[j] > best) best = row[j];
    return best;
}

/* bounds(hand13, wall[, room[, asked]]) -> {x: the bound of draw(hand13 - x, wall, room + x, exact=False)}, the
 * same numbers, for the kinds x in the bitmask asked (default: every one) */
PyObject *Tail_bounds(Tail *t, PyObject *args) {
    unsigned char c[NW_MAXK], wall[NW_MAXK], later[NW_MAXK];
    const unsigned char *room;
    PyObject *last = NULL;
    Key key;
    int all[PMAX], held[PMAX], d, asked_n = 0, kinds[PMAX], m, s = t->sora;
    if (!thirteen(t, args, c, &key, wall, &room, &last, all, &d)) return NULL;
    uint64_t asked = last && last != Py_None ? PyLong_AsUnsignedLongLong(last) : ~0ULL;
    if (asked == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    for (int i = 0; i < d; i++)  /* (the discards asked first: a pair needs one of them) */
        if (asked >> all[i] & 1) held[asked_n++] = all[i];
    for (int i = 0, n = asked_n; i < d; i++)
        if (!(asked >> all[i] & 1)) held[n++] = all[i];
    long long W = tiles(t, wall), bound[NW_MAXK] = {0}, v;
    Pairs pair;
    for (int k = 0; k < t->kinds; k++) {
        if (!wall[k]) continue;
        long long n = wall[k];
        wall[k]--;
        c[k]++;
        Key drawn = moved(key, k, 1);
        int ok = 1;
        if (room && k == s) {
            memcpy(later, room, t->kinds);
            for (int i = 0; ok && i < asked_n; i++) {
                int x = held[i];
                c[x]--, later[x]++;
                ok = after_draw(t, c, moved(drawn, x, -1), wall, later, 0, &v);
                c[x]++, later[x]--;
                bound[x] += n * v;
            }
        } else if ((ok = draw_pairs(t, c, drawn, wall, W - 1, k, held, d, asked_n, kinds, &m, pair))) {
            for (int i = 0; i < asked_n; i++) {  /* discard x = held[i] first, then the best of tsumo and each x' */
                c[held[i]]--;
                bound[held[i]] += n * pair_bound(t, c, moved(drawn, held[i], -1), W - 1, kinds, m, pair[i]);
                c[held[i]]++;
            }
        }
        c[k]--;
        wall[k]++;
        if (!ok) return NULL;
    }
    PyObject *out = PyDict_New();
    for (int i = 0; out && i < asked_n; i++) {
        PyObject *x = PyLong_FromLong(held[i]), *b = PyLong_FromLongLong(bound[held[i]]);
        if (!x || !b || PyDict_SetItem(out, x, b) < 0) Py_CLEAR(out);
        Py_XDECREF(x);
        Py_XDECREF(b);
    }
    return out;
}
