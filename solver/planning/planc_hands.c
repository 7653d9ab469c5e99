/* The tables of the 12-tile hands of the last draw (planc_tail.c's search; docs/formulation.md section 8, "E[score]
 * over all play", items 3 to 5): per hand its no-win score and one row per kind whose draw touches a unit, first as
 * upper bounds, exact when asked. Leaves (13-tile hands) are not memoised: a leaf's value is its no-win score, found
 * in the memo of packings keyed by the counts on the kinds of the units it holds whole. */
#include <string.h>

#include "planc_tail.h"

/* the 3-bit fields of these kinds as a mask of keys, the mark bit of a key kept */
static inline Key fields(uint64_t kinds) {
    Key m = {{0, 0, 1ULL << 63}};
    for (; kinds; kinds &= kinds - 1) {
        int k = __builtin_ctzll(kinds);
        m.w[k / PER_WORD] |= 7ULL << (3 * (k % PER_WORD));
    }
    return m;
}

static inline Key masked(Key key, Key m) {
    for (int i = 0; i < 3; i++) key.w[i] &= m.w[i];
    return key;
}

/* the no-win score of a hand into *out, by its key masked to the kinds of the units it holds whole (nowin_kinds):
 * shared by the hands equal on those kinds (most leaves differ in a tile no unit uses); 0: out of memory */
static int packed_key(Tail *t, Key only, long long *out) {
    long long *got = table_get(&t->packs, only);
    if (got) {
        *out = *got;
        return 1;
    }
    unsigned char c[NW_MAXK];
    for (int k = 0; k < t->kinds; k++) c[k] = count_in(only, k);
    *out = nowin_value(t->nowin, c, t->kinds);
    return table_put(&t->packs, only, *out);
}

/* What a 12-tile hand's units reach, in one pass over the units: the kinds of the units held whole (returned),
 * *touch the kinds k whose draw completes a unit (one holding k with its other members held), gain[k] the most
 * such a unit adds, and extra[k] for a k not held the kinds of the units a copy of k makes whole. */
static uint64_t reach(const Tail *t, uint64_t support, uint64_t *touch, long long *gain, uint64_t *extra) {
    const NoWin *nw = t->nowin;
    uint64_t whole = 0;
    *touch = 0;
    for (int u = 0; u < nw->U; u++) {
        uint64_t mask = nw->mask[u], miss = mask & ~support, in;
        if (!miss) {
            whole |= in = mask;
        } else if (!(miss & (miss - 1))) {
            in = miss;
            extra[__builtin_ctzll(miss)] |= mask;
        } else {
            continue;
        }
        long long g = nw->points[u] + (nw->fav[u] ? nw->bonus : 0);
        *touch |= in;
        for (; in; in &= in - 1)
            if (g > gain[__builtin_ctzll(in)]) gain[__builtin_ctzll(in)] = g;
    }
    return whole;
}

/* leaf(hand + k) into *out, its key and counts c given, only: its key masked to the kinds of the units it holds
 * whole. 0: out of memory */
static int leaf(Tail *t, unsigned char *c, Key key, Key only, long long *out) {
    long long *won = table_get(&t->wins, key), v;
    if (!won) return packed_key(t, only, out);
    *out = *won;  /* a complete hand (a few hundred at most): its tsumo, or the best 12 tiles of it */
    for (int x = 0; x < t->kinds; x++)
        if (c[x]) {
            c[x]--;
            int ok = packed_key(t, masked(moved(key, x, -1), fields(nowin_kinds(t->nowin, c, t->kinds))), &v);
            c[x]++;
            if (!ok) return 0;
            if (v > *out) *out = v;
        }
    return 1;
}

/* the table of a 12-tile hand (its index in the pool), built once: [base, count, exact, (k, value) x count], with
 * base its no-win score and a row per touching kind k. The value is leaf(hand + k) where exact, else an upper bound
 * of it: max(the tsumo score if complete, base + g_k) with g_k the most a unit holding k and fitting in hand + k
 * adds (points, and the favourite's bonus if it holds it): a best packing of hand + k less that unit is one of the
 * hand (docs/formulation.md section 8, item 5). A bound row becomes exact when asked. Scores fit in 32 bits (a
 * smaller pool: fewer cache misses). -1: an exception set. */
long long table_of(Tail *t, unsigned char *c, Key key, int exact) {
    long long *got = table_get(&t->tables, key), at;
    if (got && (!exact || t->pool[*got + 2])) return *got;
    uint64_t support = 0, touch, whole, extra[NW_MAXK];
    long long gain[NW_MAXK];
    memset(extra, 0, t->kinds * sizeof *extra);
    memset(gain, 0, t->kinds * sizeof *gain);
    for (int k = 0; k < t->kinds; k++)
        if (c[k]) support |= 1ULL << k;
    if (!got) {
        whole = reach(t, support, &touch, gain, extra);
        size_t need = 3 + 2 * (size_t)__builtin_popcountll(touch);
        if (t->used + need > t->room) {
            size_t room = 2 * (t->room + need);
            int32_t *pool = PyMem_Realloc(t->pool, room * sizeof *pool);
            if (!pool) {
                PyErr_NoMemory();
                return -1;
            }
            t->pool = pool;
            t->room = room;
        }
        at = (long long)t->used;
        int32_t *row = t->pool + at;
        long long base;
        if (!packed_key(t, masked(key, fields(whole)), &base)) {
            PyErr_NoMemory();
            return -1;
        }
        row[0] = (int32_t)base;
        row[1] = 0;
        row[2] = 0;
        for (; touch; touch &= touch - 1) {
            int k = __builtin_ctzll(touch);
            long long *won = table_get(&t->wins, moved(key, k, 1));
            long long bound = base + gain[k];
            if (bound > INT32_MAX || (won && *won > INT32_MAX)) {
                PyErr_SetString(PyExc_OverflowError, "a score past 32 bits");
                return -1;
            }
            row[3 + 2 * row[1]] = k;
            row[4 + 2 * row[1]] = (int32_t)(won && *won > bound ? *won : bound);
            row[1]++;
        }
        t->used += need;
        if (!table_put(&t->tables, key, at)) {
            PyErr_NoMemory();
            return -1;
        }
        if (!exact) return at;
    } else {
        at = *got;
        whole = reach(t, support, &touch, gain, extra);
    }
    int32_t *row = t->pool + at;
    Key held = fields(whole), only[NW_MAXK];
    for (int32_t i = 0; i < row[1]; i++) {  /* (the memo's probes started together: their misses overlap) */
        int k = row[3 + 2 * i];
        Key m = held, more = fields(c[k] ? 0 : extra[k]);
        for (int j = 0; j < 3; j++) m.w[j] |= more.w[j];
        only[i] = masked(moved(key, k, 1), m);
        table_prefetch(&t->packs, only[i]);
    }
    for (int32_t i = 0; i < row[1]; i++) {
        int k = row[3 + 2 * i];
        long long v;
        c[k]++;
        int ok = leaf(t, c, moved(key, k, 1), only[i], &v);
        c[k]--;
        if (!ok) {
            PyErr_NoMemory();
            return -1;
        }
        row[4 + 2 * i] = (int32_t)v;
    }
    row[2] = 1;
    return at;
}
