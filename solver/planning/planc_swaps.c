/* The swap tables of a fetch-mode そら, in C (part of _planc; fetch_closed.py's FetchClosed is the same in Python and
 * the fallback): the gains of each swap (a held tile y for a waiting-room tile r), shared with drawn_best's swap
 * gain in _planc.c, and swaps_drawn (docs/formulation.md section 8, "P(win) with every fetch", item 7). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "planc.h"

long long gain[MAXPOS][MAXNR];
int touched[MAXPOS * MAXNR];
/* the best pair's value among those touched (at least `best`), every gain set back to zero */
long long best_touched(int n, long long best) {
    for (int i = 0; i < n; i++) {
        long long *g = &gain[touched[i] / MAXNR][touched[i] % MAXNR];
        if (*g > best) best = *g;
        *g = 0;
    }
    return best;
}

/* fetch_win.FetchWin.drawn_swaps in C: a 12-tile hand holding one そら (position sp) with two draws left draws at
 * once; per relevant draw k, the best of the waits of G + k (G = hand - そら) and of G + k with one tile swapped
 * for a waiting-room tile; returns (sum over k of w_k times that, the live copies of the relevant kinds). rows: the
 * targets within three tiles of G (nr bytes each). */
PyObject *swaps_drawn(PyObject *self, PyObject *args) {
    PyObject *hand_o, *wall_o, *room_o;
    const char *rows_b;
    Py_ssize_t nbytes;
    int nr, sp;
    if (!PyArg_ParseTuple(args, "OOOiy#i", &hand_o, &wall_o, &room_o, &nr, &rows_b, &nbytes, &sp)) return NULL;
    if (!PyTuple_Check(hand_o) || !PyTuple_Check(wall_o) || !PyTuple_Check(room_o)) {
        PyErr_SetString(PyExc_TypeError, "swaps_drawn(tuple, tuple, tuple, int, bytes, int)");
        return NULL;
    }
    Py_ssize_t npos = PyTuple_GET_SIZE(hand_o);
    if (npos > MAXPOS || nr < 1 || nr > MAXNR || nr > npos || PyTuple_GET_SIZE(wall_o) != nr ||
        PyTuple_GET_SIZE(room_o) != nr || nbytes % nr || sp < 0 || sp >= npos)
        Py_RETURN_NONE;
    int hand[MAXPOS], wall[MAXNR], room[MAXNR], held[MAXPOS], nheld = 0;
    for (Py_ssize_t i = 0; i < npos; i++) hand[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(hand_o, i));
    for (int i = 0; i < nr; i++) {
        wall[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(wall_o, i));
        room[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(room_o, i));
    }
    if (PyErr_Occurred()) return NULL;
    for (int i = 0; i < npos; i++)
        if (hand[i] && i != sp) held[nheld++] = i;
    Py_ssize_t nt = nbytes / nr;
    /* per target: one away after drawing k (kind k, wait m), or three tiles from G (k, then r, b and the surplus s) */
    int *ek = malloc(sizeof(int) * (5 * 3 * nt + 5));
    long long *spared = calloc(MAXNR + MAXNR * MAXNR, sizeof(long long));
    if (!ek || !spared) {
        free(ek), free(spared);
        return PyErr_NoMemory();
    }
    int *em = ek + 3 * nt + 1, *er = em + 3 * nt + 1, *eb = er + 3 * nt + 1, *es = eb + 3 * nt + 1, ne = 0;
    long long *paired = spared + MAXNR;  /* (a, k) -> w_k of the target G + a + k with a in the room */
    for (Py_ssize_t t = 0; t < nt; t++) {
        const unsigned char *row = (const unsigned char *)rows_b + (size_t)t * nr;
        int miss[4], nm = 0;
        for (int i = 0; i < nr && nm < 4; i++)
            for (int d = row[i] - hand[i]; d > 0 && nm < 4; d--) miss[nm++] = i;
        if (nm == 2) {
            int a = miss[0], b = miss[1];
            for (int o = 0; o < (a != b ? 2 : 1); o++) {
                int x = o ? b : a, y = o ? a : b;
                if (room[x]) {
                    spared[x] += wall[y];
                    paired[x * MAXNR + y] = wall[y];
                }
                ek[ne] = x, em[ne] = y, es[ne++] = -1;
            }
        } else if (nm == 3) {
            int s = -1;
            for (int j = 0; j < nheld && s < 0; j++) {
                int p = held[j];
                if (hand[p] > (p < nr ? row[p] : 0)) s = p;
            }
            for (int j = 0; j < 3; j++) {
                if (j && miss[j] == miss[j - 1]) continue;
                int r = miss[j ? 0 : 1], b = miss[j == 2 ? 1 : 2];
                ek[ne] = miss[j], er[ne] = r, eb[ne] = b, es[ne++] = s;
            }
        }
    }
    long long total = 0, live_n = 0;
    int w[MAXNR];
    for (int k = 0; k < nr; k++) {
        if (!wall[k]) continue;
        live_n += wall[k];
        memcpy(w, wall, sizeof(int) * nr);
        w[k] -= 1;
        long long ready = 0;
        int n = 0;
        for (int e = 0; e < ne; e++) {
            if (ek[e] != k) continue;
            if (es[e] < 0) {  /* G + k one away, missing m: its wait, or swap any y for a room m, wait y */
                int m = em[e];
                ready += w[m];
                if (!room[m]) continue;
                for (int j = 0; j <= nheld; j++) {
                    int y = j < nheld ? held[j] : k;
                    if (j == nheld && hand[k]) break;  /* (k held already: listed) */
                    if (y != m && y < nr) ADD(y, m, w[y]);
                }
            } else {
                int r = er[e], b = eb[e], s = es[e];
                if (s < 0) continue;
                if (room[r]) ADD(s, r, w[b]);
                if (r != b && room[b]) ADD(s, b, w[r]);
            }
        }
        for (int a = 0; a < nr; a++) {  /* the drawn k swapped for a room a (targets G + a + k are counted above) */
            if (a == k || !room[a]) continue;
            long long v = spared[a] - paired[a * MAXNR + k];
            ADD(k, a, v);
        }
        total += wall[k] * best_touched(n, ready);
    }
    free(ek), free(spared);
    return Py_BuildValue("(LL)", total, live_n);
}
