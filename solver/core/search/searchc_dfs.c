/* The depth-first search of the native TileSearch: fillers, the bound, the h run and the acceptance
 * run, step for step as search.py and search_dfs.py (docs/formulation.md sections 7 and 9). */
#include "searchc.h"

#include <time.h>

/* --- fillers: can `slots` be filled exactly by units within free copies (and budget stand-ins)? --- */

static int fill(Searcher *s, int slots, int *free_, int budget, int start) {
    for (int pos = start; pos < s->n_fill; pos++) {
        int u = s->fill_order[pos];
        if (s->sizes[u] > slots) continue;
        int over = 0;
        for (int j = s->mem_off[u]; j < s->mem_off[u + 1]; j++)
            if (free_[s->mem[j]] <= 0) over++;
        if (over > budget) continue;
        for (int j = s->mem_off[u]; j < s->mem_off[u + 1]; j++) free_[s->mem[j]]--;
        int ok = slots == s->sizes[u] || fill(s, slots - s->sizes[u], free_, budget - over, pos);
        for (int j = s->mem_off[u]; j < s->mem_off[u + 1]; j++) free_[s->mem[j]]++;
        if (ok) return 1;
    }
    return 0;
}

static int fillable(Searcher *s, int slots, const int *free_, int budget) {
    if (slots == 0) return 1;
    signed char key[MAXK + 3];
    key[0] = (signed char)slots;
    key[1] = (signed char)budget;
    key[2] = 1;
    uint64_t h = 1469598103934665603ULL;
    for (int k = 0; k < s->K; k++) {
        int f = free_[k];
        key[3 + k] = (signed char)(f < -100 ? -100 : (f > 100 ? 100 : f));
    }
    for (int i = 0; i < s->key_len; i++) h = (h ^ (unsigned char)key[i]) * 1099511628211ULL;
    signed char *entry = s->cache + (size_t)(h & (FILL_CACHE - 1)) * (s->key_len + 1);
    if (memcmp(entry, key, s->key_len) == 0) return entry[s->key_len];
    int work[MAXK];
    memcpy(work, free_, sizeof(int) * s->K);
    int ok = fill(s, slots, work, budget, 0);
    /* a free count clipped in the key would make two states share one entry: never store those */
    int exact = 1;
    for (int k = 0; k < s->K; k++)
        if (free_[k] < -100 || free_[k] > 100) exact = 0;
    if (exact && slots < 128 && budget < 128) {
        memcpy(entry, key, s->key_len);
        entry[s->key_len] = (signed char)ok;
    }
    return ok;
}

/* --- the bound: weights w_i = min over units u holding i the path may still place of |u|/|u ∩ R| --- */

static int weights(Run *r, double *w, int *kind) {
    Searcher *s = r->s;
    int n = 0;
    uint64_t mask = r->rest_mask;
    while (mask) {
        int k = __builtin_ctzll(mask);
        mask &= mask - 1;
        double best = (double)(r->slots + 1);
        for (int j = s->uw_off[k]; j < s->uw_off[k + 1]; j++) {
            int u = s->uw[j];
            uint64_t um = s->umask[u];
            if (s->sizes[u] <= r->slots && !(um & r->dropped_mask)) {
                double share = (double)s->sizes[u] / (double)__builtin_popcountll(um & r->rest_mask);
                if (share < best) best = share;
            }
        }
        best -= 1e-9; /* a hair under: float error only weakens the bound */
        /* insertion by (w, kind), as the pure path's sort */
        int i = n++;
        while (i > 0 && (w[i - 1] > best || (w[i - 1] == best && kind[i - 1] > k))) {
            w[i] = w[i - 1];
            kind[i] = kind[i - 1];
            i--;
        }
        w[i] = best;
        kind[i] = k;
    }
    return n;
}

static int bound(Run *r) {
    double w[MAXK];
    int kind[MAXK], n = weights(r, w, kind);
    double room = (double)r->slots;
    int more = 0;
    for (int i = 0; i < n; i++) {
        int c = r->rest[kind[i]];
        if (!c) continue;
        if (c * w[i] <= room) {
            room -= c * w[i];
            more += c;
        } else {
            return more + (int)(room / w[i]);
        }
    }
    return more;
}

/* the bound at the root: no target keeps more held tiles (h's lower side where the search stopped early) */
int searchc_bound(Run *r) { return bound(r); }

/* fewest slots that keeping `need` more held tiles takes (their weights, rounded down) */
static int room_for(Run *r, int need) {
    if (need <= 0) return 0;
    double w[MAXK], total = 0.0;
    int kind[MAXK], n = weights(r, w, kind);
    for (int i = 0; i < n; i++) {
        int c = r->rest[kind[i]] < need ? r->rest[kind[i]] : need;
        if (c) {
            total += c * w[i];
            need -= c;
            if (!need) break;
        }
    }
    return (int)total;
}

/* kinds this subtree's leaves can draw: drawn already, in units holding a held kind left, fillers' */
static uint64_t reach(Run *r, int kind) {
    Searcher *s = r->s;
    int idx = r->slots - room_for(r, r->threshold - r->kept);
    if (idx < 0) idx = 0;
    if (idx >= s->n_fill_reach) idx = s->n_fill_reach - 1;
    uint64_t mask = r->drawn_mask | s->fill_reach[idx];
    for (int k = kind; k < s->K; k++)
        if (r->rest[k]) mask |= s->reach_of[k];
    return mask;
}

/* kinds a filler can draw for real (within its cap) in some exact filling of `slots` */
static uint64_t filler_kinds(Searcher *s, int slots, const int *free_, int budget) {
    uint64_t kinds = 0;
    if (slots == 0) return 0;
    int rest[MAXK];
    for (int pos = 0; pos < s->n_fill; pos++) {
        int u = s->fill_order[pos];
        if (s->sizes[u] > slots) continue;
        int over = 0, useful = 0;
        for (int j = s->mem_off[u]; j < s->mem_off[u + 1]; j++) {
            int k = s->mem[j];
            if (free_[k] <= 0) over++;
            else if (!(kinds >> k & 1)) useful = 1;
        }
        if (!useful || over > budget) continue;
        memcpy(rest, free_, sizeof(int) * s->K);
        for (int j = s->mem_off[u]; j < s->mem_off[u + 1]; j++) rest[s->mem[j]]--;
        for (int k = 0; k < s->K; k++)
            if (rest[k] < 0) rest[k] = 0;
        if (fillable(s, slots - s->sizes[u], rest, budget - over))
            for (int j = s->mem_off[u]; j < s->mem_off[u + 1]; j++)
                if (free_[s->mem[j]] > 0) kinds |= 1ULL << s->mem[j];
    }
    return kinds;
}

/* acceptance: a leaf keeping >= threshold whose fillers exist; record it if it draws a kind not found yet */
static void accept_leaf(Run *r) {
    Searcher *s = r->s;
    if (r->kept < r->threshold) return;
    if (!fillable(s, r->slots, r->free_, r->budget)) return;
    uint64_t draws = filler_kinds(s, r->slots, r->free_, r->budget);
    for (int k = 0; k < s->K; k++)
        if (r->m[k] > r->held[k] && r->held[k] < r->cap[k]) draws |= 1ULL << k;
    uint64_t fresh = draws & ~r->found;
    if (fresh) {
        r->found |= fresh;
        r->want &= ~fresh;
        PyObject *item = Py_BuildValue("(iNNiNiK)", r->kept, searchc_int_tuple(r->placed, r->np), searchc_int_tuple(r->m, s->K),
                                       r->slots, searchc_int_tuple(r->free_, s->K), r->budget, (unsigned long long)fresh);
        if (!item || PyList_Append(r->out, item) < 0) {
            r->stop = 1; /* the error stays set; best/accept return NULL */
        }
        Py_XDECREF(item);
    }
    if (!r->want) r->stop = 1;
}

/* --- the search --- */

static void leaf(Run *r) {
    if (r->kept <= r->best) return;
    if (!fillable(r->s, r->slots, r->free_, r->budget)) return;
    int K = r->s->K;
    r->best = r->kept;
    r->b_np = r->np;
    memcpy(r->b_placed, r->placed, sizeof(int) * r->np);
    memcpy(r->b_m, r->m, sizeof(int) * K);
    memcpy(r->b_free, r->free_, sizeof(int) * K);
    r->b_slots = r->slots;
    r->b_budget = r->budget;
}

void searchc_dfs(Run *r, int kind, int start) {
    Searcher *s = r->s;
    int K = s->K;
    int *rest = r->rest, *free_ = r->free_, *m = r->m;
    while (kind < K && rest[kind] == 0) {
        kind++;
        start = 0;
    }
    if (r->stop) return;
    if (!(++r->ticks & 0xFFFF) && PyErr_CheckSignals() < 0) {  /* (QA: a house of 1,000 units ignored Ctrl-C) */
        r->stop = 1;
        return;
    }
    if (r->deadline > 0 && !(r->ticks & 0xFFF)) {  /* (a house's h may take seconds: the caller's budget) */
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((double)now.tv_sec + 1e-9 * (double)now.tv_nsec > r->deadline) {
            r->stop = r->timed_out = 1;
            return;
        }
    }
    if (kind == K || r->slots == 0) {
        if (r->threshold >= 0) accept_leaf(r);
        else leaf(r);
        return;
    }
    if (r->threshold >= 0) {
        if (r->stop || r->kept + bound(r) <= r->best) return;
        if (r->want && !(r->want & reach(r, kind))) return;
        if (r->limited && --r->nodes < 0) {
            r->stop = r->gave_up = 1;
            return;
        }
    } else if (r->best >= r->enough || r->kept + bound(r) <= r->best) {
        return;
    }
    for (int pos = s->uw_off[kind] + start; pos < s->uw_off[kind + 1]; pos++) {
        int u = s->uw[pos];
        if (s->sizes[u] > r->slots) continue;
        /* place u: held members are kept, others drawn within caps (or stood in for by そら) */
        int stood = 0, ok = 1;
        int lo = s->mem_off[u], hi = s->mem_off[u + 1];
        for (int j = lo; j < hi; j++) {
            int k = s->mem[j];
            if (r->dropped[k]) { ok = 0; break; } /* a canonical path never places a unit holding a dropped kind */
            if (rest[k] == 0 && free_[k] <= 0) stood++;
        }
        if (!ok || stood > r->budget) continue;
        char act[MAXSLOTS]; /* per member: 1 kept, 2 drawn, 0 stood in for */
        int gained = 0;
        for (int j = lo; j < hi; j++) {
            int k = s->mem[j];
            m[k]++;
            if (rest[k] > 0) {
                rest[k]--;
                free_[k]--;
                act[j - lo] = 1;
                gained++;
                if (!rest[k]) r->rest_mask ^= 1ULL << k;
            } else if (free_[k] > 0) {
                free_[k]--;
                act[j - lo] = 2;
                if (++r->draws[k] == 1) r->drawn_mask |= 1ULL << k;
            } else {
                act[j - lo] = 0;
            }
        }
        r->kept += gained;
        r->slots -= s->sizes[u];
        r->budget -= stood;
        r->placed[r->np++] = u;
        searchc_dfs(r, kind, pos - s->uw_off[kind]);
        r->np--;
        r->budget += stood;
        r->slots += s->sizes[u];
        r->kept -= gained;
        for (int j = lo; j < hi; j++) {
            int k = s->mem[j];
            m[k]--;
            if (act[j - lo] == 1) {
                if (!rest[k]) r->rest_mask |= 1ULL << k;
                rest[k]++;
                free_[k]++;
            } else if (act[j - lo] == 2) {
                free_[k]++;
                if (--r->draws[k] == 0) r->drawn_mask &= ~(1ULL << k);
            }
        }
        if (r->stop || (r->threshold < 0 && r->best >= r->enough)) return;
    }
    /* drop the remaining copies of this kind */
    if (r->stop) return;
    int n = rest[kind];
    rest[kind] = 0;
    r->dropped[kind] = 1;
    r->rest_mask ^= 1ULL << kind;
    r->dropped_mask |= 1ULL << kind;
    searchc_dfs(r, kind + 1, 0);
    r->dropped_mask ^= 1ULL << kind;
    r->rest_mask |= 1ULL << kind;
    r->dropped[kind] = 0;
    rest[kind] = n;
}

PyObject *searchc_int_tuple(const int *xs, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(xs[i]);
        if (!v) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

/* best(rest: bytes, cap: bytes, slots, budget, enough) -> (kept, placed, counts, slots, free, budget) | None */
