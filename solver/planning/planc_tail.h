/* What planc_tail.c (the search of the last two draws) and planc_hands.c (the tables of its 12-tile hands) share:
 * the Tail object and a table's row sum. */
#ifndef PLANC_TAIL_H
#define PLANC_TAIL_H
#include "planc.h"
#include "planc_table.h"

typedef struct {
    PyObject_HEAD
    PyObject *nowin_obj;
    NoWin *nowin;
    int kinds, sora;  /* sora: the fetch-mode そら's kind, or -1 */
    Table wins;     /* complete concealed hand -> its best tsumo score */
    Table tables;   /* 12-tile hand -> index of its table in the pool (table_of) */
    Table packs;    /* the counts on the kinds of the units held whole -> the no-win score (hands differ in junk) */
    int32_t *pool;
    size_t used, room;
} Tail;

/* planc_tail.c: the wall's tiles; the arguments (hand, wall[, room[, last]]); a room argument (NULL: None); a 13-tile
 * hand's value with one draw left (or its upper bound), 0 with an exception set */
long long tiles(const Tail *t, const unsigned char *w);
int hand_and_wall(Tail *t, PyObject *args, unsigned char *c, Key *key, const unsigned char **w, PyObject **room,
                  PyObject **last);
int room_of(Tail *t, PyObject *arg, const unsigned char **room);
int after_draw(Tail *t, unsigned char *c, Key key, const unsigned char *w, const unsigned char *room, int exact,
               long long *out);

/* planc_two.c: every discard's bound with two draws left */
PyObject *Tail_bounds(Tail *t, PyObject *args);

/* the index in the pool of a 12-tile hand's table (planc_hands.c), made exact if asked; -1 with an exception set */
long long table_of(Tail *t, unsigned char *c, Key key, int exact);

/* sum_k w_k leaf(c + k) over the table at (an upper bound where the table is not exact): the kinds that touch no
 * unit keep the 12 tiles' no-win score */
static inline long long summed(const Tail *t, long long at, const unsigned char *w, long long W) {
    const int32_t *row = t->pool + at;
    long long total = 0, rest = W;
    for (int32_t i = 0; i < row[1]; i++) {
        int k = row[3 + 2 * i];
        total += w[k] * row[4 + 2 * i];
        rest -= w[k];
    }
    return total + rest * row[0];
}

#endif
