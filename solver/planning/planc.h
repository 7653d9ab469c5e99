/* What _planc's files share: planc_rows.c (the fetch search's row filters), planc_swaps.c (the swap tables of a
 * drawn or held そら and swaps_drawn), planc_nowin.c (the score of a hand that did not win), _planc.c (drawn_best
 * and the module). */
#ifndef PLANC_H
#define PLANC_H
#include <Python.h>

#define MAXPOS 128
#define MAXNR 64

extern long long gain[MAXPOS][MAXNR];  /* swap (y for a room r) -> the live waits it leaves; zero between calls */
extern int touched[MAXPOS * MAXNR];
/* gain[y][r] += v (v > 0), the pair noted in touched[n++] the first time (the caller's n) */
#define ADD(y, r, v)                                           \
    do {                                                       \
        if ((v) > 0) {                                         \
            if (!gain[y][r]) touched[n++] = (y) * MAXNR + (r); \
            gain[y][r] += (v);                                 \
        }                                                      \
    } while (0)

long long best_touched(int n, long long best);
PyObject *swaps_drawn(PyObject *self, PyObject *args);

PyObject *reach_rows(PyObject *self, PyObject *args);
PyObject *narrowed_rows(PyObject *self, PyObject *args);
PyObject *most_rows(PyObject *self, PyObject *args);

extern PyTypeObject NoWinType;  /* planc_nowin.c: the score of a hand that did not win */

#endif
