/* The complete hands within a budget of exchanges, in C (targets.py enumerate_targets: the same depth-first search
 * over unit multisets in index order, the same pruning, the same best tsumo points per hand).
 *
 * list_complete(units, held, cap, slots, budget, limit, deadline, bonus, extra[, matrix]) -> (found, stop, kinds)
 *   units: (members, points, holds the favourite, members the hand lacks) in the search's order (largest first);
 *   held, cap: bytes, a count per kind (the hand's concealed tiles; the copies a hand may hold);
 *   bonus: the favourite's, added where a unit placed holds it (0 where a called unit does: the caller adds it);
 *   found: {counts tuple: extra + the best points of its units, with that bonus}; with matrix true instead
 *     (counts, scores): bytes of a count per kind for each hand, and bytes of its score (native int64) each;
 *   stop: 0 done, 1 past `limit` hands, 2 past `deadline` (time.monotonic(), or a negative number: none); a signal
 *   (Ctrl-C) stops it with its exception raised;
 *   kinds: the kinds some hand found holds, as a bitmask. */
#define PY_SSIZE_T_CLEAN
#include <string.h>

#include "planc.h"
#include "planc_table.h"

#define LIST_MAXU 4096

typedef struct {
    int n, kinds, slots, budget, bonus;
    int members[LIST_MAXU][NW_MAXM], size[LIST_MAXU], points[LIST_MAXU], fav[LIST_MAXU], outside[LIST_MAXU];
    int first[NW_MAXK + 1];
    /* sums[s][r]: r slots are some units' sizes, each at most s (the units after one of size s are no larger):
     * a node whose slots left no sum meets is never entered (QA: trios alone never make 13, and listing that took
     * minutes) */
    unsigned char sums[NW_MAXM + 1][NW_MAXK + 1];
    unsigned char held[NW_MAXK], cap[NW_MAXK], counts[NW_MAXK];
    Table found;  /* counts -> the best points */
    size_t limit;
    long long nodes;
    double deadline;
    int stop;
} Lister;

static void dfs(Lister *L, int start, int remaining, int cost, int free, long long points, int fav) {
    if (L->stop) return;
    if (!(++L->nodes & 4095)) {
        if (L->deadline >= 0 && planc_now() > L->deadline) {
            L->stop = 2;
            return;
        }
        if (PyErr_CheckSignals() < 0) {  /* (Ctrl-C: its KeyboardInterrupt raised as the listing returns) */
            L->stop = 4;
            return;
        }
    }
    if (remaining == 0) {
        Key key;
        key_of(L->counts, L->kinds, &key);
        long long v = points + (fav ? L->bonus : 0), *got = table_get(&L->found, key);
        if (got) {
            if (*got < v) *got = v;
        } else if (L->found.n >= L->limit) {
            L->stop = 1;
        } else if (!table_put(&L->found, key, v)) {
            L->stop = 3;
        }
        return;
    }
    for (int j = start > L->first[remaining] ? start : L->first[remaining]; j < L->n; j++) {
        if (cost + L->outside[j] > L->budget) continue;
        int extra = 0, used = 0, fits = 1, n = L->size[j];
        for (int i = 0; i < n; i++) {
            int k = L->members[j][i];
            L->counts[k]++;
            if (L->counts[k] > L->cap[k]) fits = 0;
            if (L->counts[k] > L->held[k]) extra++;
            else used++;
        }
        int rest = remaining - n, short_by = rest - (free - used);
        if (fits && L->sums[n][rest] && cost + extra + (short_by > 0 ? short_by : 0) <= L->budget)
            dfs(L, j, rest, cost + extra, free - used, points + L->points[j], fav || L->fav[j]);
        for (int i = 0; i < n; i++) L->counts[L->members[j][i]]--;
    }
}

/* the units argument into L; 0 with an exception set */
static int units_of(Lister *L, PyObject *units) {
    PyObject *seq = PySequence_Fast(units, "units: a sequence");
    if (!seq) return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > LIST_MAXU) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "units: at most 4096");
        return 0;
    }
    L->n = (int)n;
    for (Py_ssize_t j = 0; j < n; j++) {
        PyObject *members;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, j), "Oiii", &members, &L->points[j], &L->fav[j],
                              &L->outside[j])) {
            Py_DECREF(seq);
            return 0;
        }
        Py_ssize_t m = PySequence_Size(members);
        if (m < 1 || m > NW_MAXM) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a unit: 1 to 16 members");
            return 0;
        }
        L->size[j] = (int)m;
        for (Py_ssize_t i = 0; i < m; i++) {
            PyObject *item = PySequence_GetItem(members, i);
            long k = item ? PyLong_AsLong(item) : -1;
            Py_XDECREF(item);
            if (k < 0 || k >= L->kinds) {
                Py_DECREF(seq);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a member: a kind");
                return 0;
            }
            L->members[j][i] = (int)k;
        }
    }
    Py_DECREF(seq);
    return 1;
}

/* found as a dict {counts tuple: extra + points}, *kinds the kinds held; NULL with an exception set */
static PyObject *found_dict(const Lister *L, long long extra, uint64_t *kinds) {
    PyObject *out = PyDict_New();
    *kinds = 0;
    for (size_t i = 0; out && i < L->found.cap; i++) {
        const Slot *s = &L->found.slots[i];
        if (!s->key.w[2]) continue;
        PyObject *key = PyTuple_New(L->kinds), *v = PyLong_FromLongLong(extra + s->value);
        for (int k = 0; key && k < L->kinds; k++) {
            int n = count_in(s->key, k);
            PyObject *c = PyLong_FromLong(n);
            if (n) *kinds |= 1ULL << k;
            if (!c) Py_CLEAR(key);
            else PyTuple_SET_ITEM(key, k, c);
        }
        if (!key || !v || PyDict_SetItem(out, key, v) < 0) Py_CLEAR(out);
        Py_XDECREF(key);
        Py_XDECREF(v);
    }
    return out;
}

/* found as (counts, scores) bytes, a row of kinds bytes and an int64 per hand, *kinds the kinds held; NULL with an
 * exception set (no Python object per hand: the relaxation reads them as matrices) */
static PyObject *found_bytes(const Lister *L, long long extra, uint64_t *kinds) {
    PyObject *counts = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(L->found.n * L->kinds));
    PyObject *scores = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(L->found.n * sizeof(int64_t)));
    if (!counts || !scores) {
        Py_XDECREF(counts);
        Py_XDECREF(scores);
        return NULL;
    }
    unsigned char *row = (unsigned char *)PyBytes_AS_STRING(counts);
    int64_t *score = (int64_t *)PyBytes_AS_STRING(scores);
    *kinds = 0;
    for (size_t i = 0; i < L->found.cap; i++) {
        const Slot *s = &L->found.slots[i];
        if (!s->key.w[2]) continue;
        for (int k = 0; k < L->kinds; k++) {
            row[k] = (unsigned char)count_in(s->key, k);
            if (row[k]) *kinds |= 1ULL << k;
        }
        row += L->kinds;
        *score++ = extra + s->value;
    }
    return Py_BuildValue("(NN)", counts, scores);
}

PyObject *list_complete(PyObject *self, PyObject *args) {
    PyObject *units;
    const char *held, *cap;
    Py_ssize_t nh, nc, limit;
    int slots, budget, bonus;
    long long extra;
    double deadline;
    int matrix = 0;
    if (!PyArg_ParseTuple(args, "Oy#y#iindiL|p", &units, &held, &nh, &cap, &nc, &slots, &budget, &limit, &deadline,
                          &bonus, &extra, &matrix))
        return NULL;
    if (nh != nc || nh < 1 || nh > NW_MAXK || slots < 0 || slots > NW_MAXK || limit < 0) {
        PyErr_SetString(PyExc_ValueError, "held and cap: a byte per kind (at most 64); slots: 0 to 64");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < nc; k++)
        if ((unsigned char)cap[k] > 7) {
            PyErr_SetString(PyExc_ValueError, "cap: at most 7 copies of a kind");
            return NULL;
        }
    Lister *L = PyMem_Calloc(1, sizeof *L);
    if (!L) return PyErr_NoMemory();
    L->kinds = (int)nh;
    L->slots = slots;
    L->budget = budget;
    L->bonus = bonus;
    L->limit = (size_t)limit;
    L->deadline = deadline;
    memcpy(L->held, held, nh);
    memcpy(L->cap, cap, nc);
    PyObject *out = NULL;
    if (units_of(L, units) && table_init(&L->found, 1024)) {
        for (int r = 0; r <= slots; r++) {  /* a node with r slots left starts at the first unit of size <= r */
            L->first[r] = L->n;
            for (int j = 0; j < L->n; j++)
                if (L->size[j] <= r) {
                    L->first[r] = j;
                    break;
                }
        }
        int sized[NW_MAXM + 1] = {0};
        for (int j = 0; j < L->n; j++) sized[L->size[j]] = 1;
        L->sums[0][0] = 1;
        for (int z = 1; z <= NW_MAXM; z++)
            for (int r = 0; r <= slots; r++)
                L->sums[z][r] = L->sums[z - 1][r] || (sized[z] && r >= z && L->sums[z][r - z]);
        int free = 0;
        for (int k = 0; k < L->kinds; k++) free += L->held[k];
        dfs(L, 0, slots, 0, free, 0, 0);
        if (L->stop == 3) {
            PyErr_NoMemory();
        } else if (L->stop == 4) {
            /* the signal's exception is set */
        } else {
            uint64_t kinds;
            PyObject *found = matrix ? found_bytes(L, extra, &kinds) : found_dict(L, extra, &kinds);
            if (found) out = Py_BuildValue("(NiK)", found, L->stop, (unsigned long long)kinds);
        }
    } else if (!PyErr_Occurred()) {
        PyErr_NoMemory();
    }
    table_free(&L->found);
    PyMem_Free(L);
    return out;
}
