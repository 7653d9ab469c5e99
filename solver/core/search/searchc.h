/* What the two C files of the native search share (see _searchc.c). */
#ifndef SEARCHC_H
#define SEARCHC_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAXK 64      /* kinds: bit masks are one 64-bit word (more kinds: the pure path) */
#define MAXSLOTS 64  /* concealed slots: placed units never exceed them (a unit has >= 1 member) */
#define FILL_CACHE (1 << 15)  /* direct-mapped memo of fillable(slots, free, budget) */

typedef struct {
    PyObject_HEAD
    int K, U;
    int *sizes;     /* U */
    int *mem_off;   /* U + 1: members of u are mem[mem_off[u] .. mem_off[u + 1]) */
    int *mem;
    uint64_t *umask; /* U */
    int *uw_off;    /* K + 1: units holding kind k, largest first, uw[uw_off[k] .. uw_off[k + 1]) */
    int *uw;
    int *fill_order; /* n_fill <= U: the units fillers may use (a restricted search lists fewer) */
    int n_fill;
    uint64_t *reach_of;   /* K: kinds in some unit holding kind k */
    uint64_t *fill_reach; /* n_fill_reach: kinds in some unit of at most s members */
    int n_fill_reach;
    int key_len;    /* K + 3: slots, budget, validity, free[K] */
    signed char *cache; /* FILL_CACHE entries of key_len bytes, then one byte of answer each */
} Searcher;

typedef struct {
    Searcher *s;
    int rest[MAXK], free_[MAXK], m[MAXK];
    char dropped[MAXK];
    int budget, slots, kept, enough, best;
    int placed[MAXSLOTS], np;
    uint64_t rest_mask, dropped_mask;
    /* acceptance (threshold >= 0): leaves keeping >= threshold, the kinds they draw */
    int threshold, stop, gave_up, held[MAXK], cap[MAXK], draws[MAXK];
    long long nodes; /* nodes left before giving up (< 0 from the start: no limit) */
    int limited;
    unsigned ticks; /* calls, for a look at pending signals every 2^16 (Ctrl-C: the search stops, its error set) */
    double deadline; /* CLOCK_MONOTONIC seconds (time.monotonic's clock on Linux); 0: none */
    int timed_out;   /* the search stopped at the deadline: its best is a bound, not the optimum */
    uint64_t want, found, drawn_mask;
    PyObject *out; /* list of (kept, placed, counts, slots, free, budget, new kinds mask) */
    /* the best leaf so far */
    int b_placed[MAXSLOTS], b_np, b_m[MAXK], b_free[MAXK], b_slots, b_budget;
} Run;

void searchc_dfs(Run *r, int kind, int start);
int searchc_bound(Run *r);
PyObject *searchc_int_tuple(const int *xs, int n);

#endif
