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

PyObject *sparse_rows(PyObject *self, PyObject *args);
PyObject *reach_rows(PyObject *self, PyObject *args);
PyObject *narrowed_rows(PyObject *self, PyObject *args);
PyObject *most_rows(PyObject *self, PyObject *args);

/* planc_nowin.c: the score of a hand that did not win */
#include <stdint.h>
#define NW_MAXK 64
#define NW_MAXM 16  /* members of one unit */

typedef struct {
    PyObject_HEAD
    int U;
    uint64_t *mask;   /* U */
    int *points;      /* U */
    char *fav;        /* U */
    int *size;        /* U */
    int (*members)[NW_MAXM];
    int *fits;        /* U: the units held whole, per call (the GIL is held throughout) */
    int bonus, fav_called, base;
    int most[NW_MAXK + 1]; /* most[s]: the most points of units filling exactly s slots, any copies (-1: none) */
    int most_le[NW_MAXK + 1]; /* the most of units of at most s tiles (0: none) */
} NoWin;

extern PyTypeObject NoWinType;

/* a type of this module: Name with Name_init, Name_dealloc and Name_methods, made by PyType_GenericNew */
#define PLANC_TYPE(Name, doc)                                 \
    PyTypeObject Name##Type = {                               \
        PyVarObject_HEAD_INIT(NULL, 0)                        \
        .tp_name = "solver.planning._planc." #Name,           \
        .tp_basicsize = sizeof(Name),                         \
        .tp_flags = Py_TPFLAGS_DEFAULT,                       \
        .tp_doc = doc,                                        \
        .tp_new = PyType_GenericNew,                          \
        .tp_init = (initproc)Name##_init,                     \
        .tp_dealloc = (destructor)Name##_dealloc,             \
        .tp_methods = Name##_methods,                         \
    }
/* base + the best packing of any size within the counts (n kinds, at most 64) */
long long nowin_value(NoWin *s, const unsigned char *counts, int n);
/* the kinds of the units held whole: the score depends on the counts of these alone */
uint64_t nowin_kinds(NoWin *s, const unsigned char *counts, int n);
/* base + the best packing of at most `most` tiles (NoWin.score with `most`); `least`: a score some such packing is
 * known to reach (0: none), a bound the search starts from */
long long nowin_within(NoWin *s, const unsigned char *counts, int n, int most, long long least);
/* base + the best packing filling exactly `slots` tiles, or -1 where none does (NoWin.complete) */
long long nowin_filled(NoWin *s, const unsigned char *counts, int n, int slots);

/* planc_relax.c: E[score]'s relaxation counted over every multiset of draws (counted_upper.py) */
PyObject *relax_count(PyObject *self, PyObject *args);

/* seconds on time.monotonic()'s clock (CLOCK_MONOTONIC on Linux): the deadlines Python hands to C */
#include <time.h>
static inline double planc_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* planc_count.c: the relaxation's count (bounds.py win_upper) */
PyObject *count_needs(PyObject *self, PyObject *args);
PyObject *tile_lists(PyObject *self, PyObject *args);

/* planc_list.c: the complete hands within a budget (targets.py enumerate_targets) */
PyObject *list_complete(PyObject *self, PyObject *args);

/* planc_tail.c: E[score] at one draw left, no fetch to come (score_optimum.py) */
extern PyTypeObject TailType;

#endif
