/* The perfect-information relaxation's count in C (bounds.py win_upper: the same states, the same order, the same
 * exact integers; docs/formulation.md section 8, "Bounds past the budget").
 *
 * count_needs(asks, needs, steps, walls, free, t, gains, limit, deadline) -> (total, scored, stop, tops)
 *   asks: bytes, needs x steps, each need's copies of each step's kind (the kinds in the count's order, the needs
 *     best first: bit j of a mask is need j); walls, free: per step the kind's live copies and the tiles not chosen
 *     after it; gains: per need its score less the floor, or None (P(win) alone);
 *   total: the draw sets (of t) that hold a need, scored: the sum over them of the best held need's gain; tops
 *     (with gains, else None): per need, the draw sets whose best held need it is;
 *   stop: 0 done, 1 past `limit` states in one step, 2 past `deadline` (time.monotonic(); negative: none).
 * The caller checks that C(W, t) fits in 63 bits, so every count of draw sets does. */
#define PY_SSIZE_T_CLEAN
#include <stdint.h>
#include <string.h>

#include "planc.h"

#define MAXT 16

typedef struct {
    int L;           /* 64-bit words of a mask */
    size_t n, cap;   /* states, and room for them */
    uint64_t *bits;  /* cap x L */
    int *used;
    uint64_t *ways;
    size_t *slot, slots;  /* open addressing: a state's index + 1, 0 empty */
} States;

static int states_init(States *s, int L, size_t cap) {
    memset(s, 0, sizeof *s);
    s->L = L;
    s->cap = cap;
    s->slots = 2 * cap;
    s->bits = PyMem_Malloc(cap * L * sizeof *s->bits);
    s->used = PyMem_Malloc(cap * sizeof *s->used);
    s->ways = PyMem_Malloc(cap * sizeof *s->ways);
    s->slot = PyMem_Calloc(s->slots, sizeof *s->slot);
    return s->bits && s->used && s->ways && s->slot;
}

static void states_free(States *s) {
    PyMem_Free(s->bits);
    PyMem_Free(s->used);
    PyMem_Free(s->ways);
    PyMem_Free(s->slot);
}

static size_t hash_of(const uint64_t *m, int L, int used) {
    uint64_t h = 0x9E3779B97F4A7C15ULL * (uint64_t)(used + 1);
    for (int i = 0; i < L; i++) h = (h ^ m[i]) * 0xBF58476D1CE4E5B9ULL, h ^= h >> 29;
    return (size_t)h;
}

/* ways added to the state (used, m), made if new; 0: out of memory */
static int add_state(States *s, const uint64_t *m, int used, uint64_t ways) {
    if (2 * (s->n + 1) > s->slots || s->n == s->cap) {  /* twice the room: states and slots rebuilt */
        size_t cap = 2 * s->cap;
        uint64_t *bits = PyMem_Realloc(s->bits, cap * s->L * sizeof *bits);
        if (!bits) return 0;
        s->bits = bits;
        int *u = PyMem_Realloc(s->used, cap * sizeof *u);
        if (!u) return 0;
        s->used = u;
        uint64_t *w = PyMem_Realloc(s->ways, cap * sizeof *w);
        if (!w) return 0;
        s->ways = w;
        size_t *slot = PyMem_Calloc(2 * cap, sizeof *slot);
        if (!slot) return 0;
        PyMem_Free(s->slot);
        s->slot = slot;
        s->cap = cap;
        s->slots = 2 * cap;
        for (size_t j = 0; j < s->n; j++) {
            size_t i = hash_of(s->bits + j * s->L, s->L, s->used[j]) & (s->slots - 1);
            while (s->slot[i]) i = (i + 1) & (s->slots - 1);
            s->slot[i] = j + 1;
        }
    }
    size_t i = hash_of(m, s->L, used) & (s->slots - 1);
    for (; s->slot[i]; i = (i + 1) & (s->slots - 1)) {
        size_t j = s->slot[i] - 1;
        if (s->used[j] == used && !memcmp(s->bits + j * s->L, m, s->L * sizeof *m)) {
            s->ways[j] += ways;
            return 1;
        }
    }
    memcpy(s->bits + s->n * s->L, m, s->L * sizeof *m);
    s->used[s->n] = used;
    s->ways[s->n] = ways;
    s->slot[i] = ++s->n;
    return 1;
}

static void states_clear(States *s) {
    s->n = 0;
    memset(s->slot, 0, s->slots * sizeof *s->slot);
}

static uint64_t choose(int n, int k) {
    if (k < 0 || k > n) return 0;
    uint64_t c = 1;
    for (int i = 1; i <= k; i++)  /* (exact: c is C(n - k + i, i); the product in 128 bits) */
        c = (uint64_t)((unsigned __int128)c * (uint64_t)(n - k + i) / (uint64_t)i);
    return c;
}

/* an unsigned 128-bit integer as a Python int */
static PyObject *long_of(unsigned __int128 v) {
    PyObject *hi = PyLong_FromUnsignedLongLong((uint64_t)(v >> 64)), *lo = PyLong_FromUnsignedLongLong((uint64_t)v);
    PyObject *shift = PyLong_FromLong(64), *out = NULL;
    if (hi && lo && shift) {
        PyObject *up = PyNumber_Lshift(hi, shift);
        if (up) out = PyNumber_Or(up, lo);
        Py_XDECREF(up);
    }
    Py_XDECREF(hi);
    Py_XDECREF(lo);
    Py_XDECREF(shift);
    return out;
}

typedef struct {
    int N, S, L, t;
    const signed char *asks;
    int walls[NW_MAXK], free[NW_MAXK];
    long long *gains;  /* NULL: P(win) alone */
    int *tie_end;      /* with gains: per need, the first need after it scoring less (gains never rise) */
    unsigned __int128 *tops;  /* with gains: per need, the draw sets whose best held need it is */
    int *rest;         /* N x (S + 1): a need's copies of the step's kind and the later ones */
    uint64_t *masks;   /* settled, keep[0..t], room_for[0..t]: (2 t + 3) x L */
} Count;

/* whether some need among bits [from, to) is held and settled */
static int any_settled(const uint64_t *held, const uint64_t *settled, int from, int to) {
    for (int i = from / 64; i <= (to - 1) / 64; i++) {
        uint64_t m = held[i] & settled[i];
        if (i == from / 64) m &= ~0ULL << (from % 64);
        if (i == (to - 1) / 64 && to % 64) m &= (1ULL << (to % 64)) - 1;
        if (m) return 1;
    }
    return 0;
}

/* the count itself; 0 out of memory, else 1 with *stop set */
static int count(Count *c, size_t limit, double deadline, unsigned __int128 *total, unsigned __int128 *scored,
                 int *stop) {
    int L = c->L, t = c->t;
    States now_s = {0}, next = {0};  /* (zero: freeing one never made is safe) */
    if (!states_init(&now_s, L, 1024) || !states_init(&next, L, 1024)) {
        states_free(&now_s);
        states_free(&next);
        return 0;
    }
    uint64_t *all = PyMem_Calloc(L, sizeof *all), *held = PyMem_Calloc(L, sizeof *held);
    int lo = 0, hi = 0;  /* the words of `held` written for the last state (the rest stay 0) */
    int ok = all && held;
    for (int j = 0; ok && j < c->N; j++) all[j / 64] |= 1ULL << (j % 64);
    ok = ok && add_state(&now_s, all, 0, 1);
    *total = *scored = 0;
    *stop = 0;
    for (int step = 0; ok && step < c->S; step++) {
        uint64_t *settled = c->masks, *keep = settled + L, *room_for = keep + (size_t)(t + 1) * L;
        memset(c->masks, 0, (size_t)(2 * t + 3) * L * sizeof *c->masks);
        int most = c->walls[step] < t ? c->walls[step] : t;
        for (int j = 0; j < c->N; j++) {
            uint64_t bit = 1ULL << (j % 64);
            int after = c->rest[j * (c->S + 1) + step + 1], ask = c->asks[j * c->S + step];
            if (!after) settled[j / 64] |= bit;
            for (int r = ask; r <= most; r++) keep[(size_t)r * L + j / 64] |= bit;
            for (int u = 0; u <= t - after; u++) room_for[(size_t)u * L + j / 64] |= bit;
        }
        uint64_t ways_of[MAXT + 1];
        for (int r = 0; r <= most; r++) ways_of[r] = choose(c->walls[step], r);
        states_clear(&next);
        for (size_t s = 0; ok && s < now_s.n; s++) {
            if (deadline >= 0 && (s & 4095) == 4095 && planc_now() > deadline) {  /* (a step can take seconds) */
                *stop = 2;
                break;
            }
            const uint64_t *alive = now_s.bits + s * L;
            int used = now_s.used[s];
            /* (only the words from the first to the last one held: the needs are ordered so that they narrow) */
            memset(held + lo, 0, (size_t)(hi - lo) * sizeof *held);
            for (lo = 0; lo < L && !alive[lo]; lo++) {}
            for (hi = L; hi > lo && !alive[hi - 1]; hi--) {}
            for (int r = 0; ok && r <= most && used + r <= t; r++) {
                const uint64_t *k = keep + (size_t)r * L, *f = room_for + (size_t)(used + r) * L;
                int any = 0, top = -1, hit = 0;
                for (int i = lo; i < hi; i++) {
                    held[i] = alive[i] & k[i] & f[i];
                    if (held[i] && top < 0) top = i * 64 + __builtin_ctzll(held[i]);
                    any |= held[i] != 0;
                    hit |= (held[i] & settled[i]) != 0;
                }
                if (!any) continue;  /* (no need can be held any more) */
                uint64_t w = now_s.ways[s] * ways_of[r];
                /* held, none better to hope for: with scores, a settled need scoring as much as the best held */
                if (c->gains ? any_settled(held, settled, top, c->tie_end[top]) : hit) {
                    unsigned __int128 n = (unsigned __int128)w * choose(c->free[step], t - used - r);
                    *total += n;
                    if (c->gains) {
                        *scored += n * (unsigned __int128)c->gains[top];
                        c->tops[top] += n;
                    }
                    continue;
                }
                ok = add_state(&next, held, used + r, w);
            }
        }
        if (!ok || *stop) break;
        if (next.n > limit) {
            *stop = 1;
            break;
        }
        if (deadline >= 0 && planc_now() > deadline) {
            *stop = 2;
            break;
        }
        States swap = now_s;
        now_s = next;
        next = swap;
    }
    PyMem_Free(all);
    PyMem_Free(held);
    states_free(&now_s);
    states_free(&next);
    return ok;
}

/* a list of S ints (each within 0..bound) into out; 0 with an exception set */
static int ints_of(PyObject *seq, int S, int *out, int bound) {
    if (!PyList_Check(seq) || PyList_GET_SIZE(seq) != S) {
        PyErr_SetString(PyExc_ValueError, "walls and free: a list of an int per step");
        return 0;
    }
    for (int i = 0; i < S; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) return 0;
        if (v < 0 || v > bound) {
            PyErr_SetString(PyExc_ValueError, "walls and free: counts of tiles");
            return 0;
        }
        out[i] = (int)v;
    }
    return 1;
}

PyObject *count_needs(PyObject *self, PyObject *args) {
    const char *asks;
    Py_ssize_t size, limit;
    int N, S, t;
    PyObject *walls, *frees, *gains;
    double deadline;
    if (!PyArg_ParseTuple(args, "y#iiOOiOnd", &asks, &size, &N, &S, &walls, &frees, &t, &gains, &limit, &deadline))
        return NULL;
    if (N < 1 || S < 1 || S > NW_MAXK || t < 1 || t > MAXT || size != (Py_ssize_t)N * S || limit < 0) {
        PyErr_SetString(PyExc_ValueError, "count_needs: asks of needs x steps (steps <= 64, t <= 16)");
        return NULL;
    }
    Count c = {.N = N, .S = S, .L = (N + 63) / 64, .t = t, .asks = (const signed char *)asks};
    if (!ints_of(walls, S, c.walls, 1 << 20) || !ints_of(frees, S, c.free, 1 << 20)) return NULL;
    if (gains != Py_None && (!PyList_Check(gains) || PyList_GET_SIZE(gains) != N)) {
        PyErr_SetString(PyExc_ValueError, "gains: None or a list of an int per need");
        return NULL;
    }
    c.rest = PyMem_Calloc((size_t)N * (S + 1), sizeof *c.rest);
    c.masks = PyMem_Malloc((size_t)(2 * t + 3) * c.L * sizeof *c.masks);
    c.gains = gains == Py_None ? NULL : PyMem_Malloc(N * sizeof *c.gains);
    c.tops = gains == Py_None ? NULL : PyMem_Calloc(N, sizeof *c.tops);
    c.tie_end = gains == Py_None ? NULL : PyMem_Malloc(N * sizeof *c.tie_end);
    PyObject *out = NULL;
    if (!c.rest || !c.masks || (gains != Py_None && (!c.gains || !c.tops || !c.tie_end))) {
        PyErr_NoMemory();
        goto done;
    }
    for (int j = 0; j < N; j++) {
        for (int step = S - 1; step >= 0; step--)
            c.rest[j * (S + 1) + step] = c.rest[j * (S + 1) + step + 1] + c.asks[j * S + step];
        if (c.gains) {
            c.gains[j] = PyLong_AsLongLong(PyList_GET_ITEM(gains, j));
            if (c.gains[j] < 0) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "gains: 0 or more");
                goto done;
            }
        }
    }
    for (int j = N - 1; c.gains && j >= 0; j--) {
        if (j + 1 < N && c.gains[j + 1] > c.gains[j]) {
            PyErr_SetString(PyExc_ValueError, "gains: never rising (the needs best first)");
            goto done;
        }
        c.tie_end[j] = j + 1 < N && c.gains[j + 1] == c.gains[j] ? c.tie_end[j + 1] : j + 1;
    }
    unsigned __int128 total, scored;
    int stop;
    if (!count(&c, (size_t)limit, deadline, &total, &scored, &stop)) {
        PyErr_NoMemory();
        goto done;
    }
    /* (tops: the other floors' means come from these, E[max(N, best)] for any N at least the floor) */
    PyObject *a = long_of(total), *b = long_of(scored), *tops = c.tops ? PyList_New(N) : Py_NewRef(Py_None);
    for (int j = 0; c.tops && tops && j < N; j++) {
        PyObject *v = long_of(c.tops[j]);
        if (!v) Py_CLEAR(tops);
        else PyList_SET_ITEM(tops, j, v);
    }
    if (a && b && tops) out = Py_BuildValue("(NNiN)", a, b, stop, tops);
    else {
        Py_XDECREF(a);
        Py_XDECREF(b);
        Py_XDECREF(tops);
    }
done:
    PyMem_Free(c.rest);
    PyMem_Free(c.masks);
    PyMem_Free(c.gains);
    PyMem_Free(c.tops);
    PyMem_Free(c.tie_end);
    return out;
}

/* tile_lists(counts, N, n, width) -> (tiles, ranks): count rows (bytes of int16, N x n) as tile lists (bytes of
 * int16, N x width): per row the kind of each copy, ascending (n past its end), and the copy's index among its
 * kind's (needs.py lists_of: one pass, where numpy takes a pass per kind and copy) */
PyObject *tile_lists(PyObject *self, PyObject *args) {
    const char *raw;
    Py_ssize_t size;
    int N, n, width;
    if (!PyArg_ParseTuple(args, "y#iii", &raw, &size, &N, &n, &width)) return NULL;
    if (N < 0 || n < 1 || n > 32000 || width < 0 || size != (Py_ssize_t)N * n * 2) {
        PyErr_SetString(PyExc_ValueError, "tile_lists: counts of N x n int16");
        return NULL;
    }
    PyObject *tiles = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)N * width * 2);
    PyObject *ranks = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)N * width * 2);
    if (!tiles || !ranks) {
        Py_XDECREF(tiles);
        Py_XDECREF(ranks);
        return NULL;
    }
    const int16_t *counts = (const int16_t *)raw;
    int16_t *t = (int16_t *)PyBytes_AS_STRING(tiles), *r = (int16_t *)PyBytes_AS_STRING(ranks);
    for (Py_ssize_t i = 0; i < N; i++) {
        int16_t *ti = t + i * width, *ri = r + i * width;
        int j = 0;
        for (int k = 0; k < n; k++)
            for (int c = 0; c < counts[i * n + k]; c++) {
                if (j == width) {
                    Py_DECREF(tiles);
                    Py_DECREF(ranks);
                    PyErr_SetString(PyExc_ValueError, "tile_lists: a row holds more than width tiles");
                    return NULL;
                }
                ti[j] = (int16_t)k;
                ri[j++] = (int16_t)c;
            }
        for (; j < width; j++) {
            ti[j] = (int16_t)n;
            ri[j] = 0;
        }
    }
    return Py_BuildValue("(NN)", tiles, ranks);
}
