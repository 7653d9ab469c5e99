/* A hash table of hands for planc_tail.c and planc_hands.c: a hand's counts as a key of 3 bits a kind (at most 64
 * kinds, 7 copies), open addressing with linear probing, a key and its value in one slot. Static functions. */
#ifndef PLANC_TABLE_H
#define PLANC_TABLE_H
#include <Python.h>
#include <stdint.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#define HUGE_FROM (4u << 20)  /* bytes from which a table is its own mapping (huge pages: two at least) */

#define PER_WORD 21  /* kinds in one 64-bit word of a key, 3 bits each (a count of at most 7) */

typedef struct { uint64_t w[3]; } Key;

/* the counts, 3 bits a kind; the top bit of the last word set, so no key is all zero (an empty slot) */
static inline int key_of(const unsigned char *c, int n, Key *key) {
    key->w[0] = key->w[1] = 0;
    key->w[2] = 1ULL << 63;
    for (int k = 0; k < n; k++) {
        if (c[k] > 7) return 0;
        key->w[k / PER_WORD] |= (uint64_t)c[k] << (3 * (k % PER_WORD));
    }
    return 1;
}

/* the key of the hand with one copy of kind k more (d = 1) or less (d = -1): counts stay within 0..7 */
static inline Key moved(Key key, int k, int d) {
    uint64_t one = 1ULL << (3 * (k % PER_WORD));
    key.w[k / PER_WORD] = d > 0 ? key.w[k / PER_WORD] + one : key.w[k / PER_WORD] - one;
    return key;
}

/* the count of kind k in a key */
static inline int count_in(Key key, int k) { return (int)(key.w[k / PER_WORD] >> (3 * (k % PER_WORD)) & 7); }

static inline int same(Key a, Key b) { return a.w[0] == b.w[0] && a.w[1] == b.w[1] && a.w[2] == b.w[2]; }

/* open addressing, linear probing; a key with a zero top bit marks an empty slot. A key and its value share a
 * slot (32 bytes): a probe reads one cache line. */
typedef struct {
    Key key;
    long long value;
} Slot;

typedef struct {
    Slot *slots;
    size_t cap, n;
} Table;

static inline size_t home_of(const Table *t, Key key) {
    uint64_t h = key.w[0] ^ (key.w[1] * 0x9E3779B97F4A7C15ULL) ^ (key.w[2] * 0xC2B2AE3D27D4EB4FULL);
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL;  /* splitmix64's finaliser: every bit of the key moves the low ones */
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL;
    h ^= h >> 31;
    return (size_t)h & (t->cap - 1);
}

/* start loading the slot a key's probe starts at: the lookups of a batch of keys then overlap their cache misses */
static inline void table_prefetch(const Table *t, Key key) { __builtin_prefetch(&t->slots[home_of(t, key)]); }

static inline size_t slot_of(const Table *t, Key key) {
    size_t i = home_of(t, key);
    while (t->slots[i].key.w[2] && !same(t->slots[i].key, key)) i = (i + 1) & (t->cap - 1);
    return i;
}

/* Zeroed slots. A large table is its own mapping, asking for huge pages where the system has them (Linux's
 * transparent huge pages on madvise): a probe into tens of megabytes otherwise misses the TLB as well as the cache. */
static inline Slot *slots_new(size_t cap) {
#ifdef MADV_HUGEPAGE
    size_t bytes = cap * sizeof(Slot);
    if (bytes >= HUGE_FROM) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
        madvise(p, bytes, MADV_HUGEPAGE);  /* (a hint: refused, the pages stay small) */
        return p;
    }
#endif
    return PyMem_Calloc(cap, sizeof(Slot));
}

static inline void slots_free(Slot *slots, size_t cap) {
#ifdef MADV_HUGEPAGE
    if (cap * sizeof(Slot) >= HUGE_FROM) {
        munmap(slots, cap * sizeof(Slot));
        return;
    }
#endif
    PyMem_Free(slots);
}

static inline int table_init(Table *t, size_t cap) {
    t->cap = cap;
    t->n = 0;
    t->slots = slots_new(cap);
    return t->slots != NULL;
}

static inline void table_free(Table *t) {
    if (t->slots) slots_free(t->slots, t->cap);
    t->slots = NULL;
}

static inline long long *table_get(const Table *t, Key key) {
    size_t i = slot_of(t, key);
    return t->slots[i].key.w[2] ? &t->slots[i].value : NULL;
}

static inline int table_put(Table *t, Key key, long long value) {
    if (2 * (t->n + 1) > t->cap) {  /* at half full: twice the slots */
        Table bigger;
        if (!table_init(&bigger, 2 * t->cap)) return 0;
        for (size_t i = 0; i < t->cap; i++)
            if (t->slots[i].key.w[2]) bigger.slots[slot_of(&bigger, t->slots[i].key)] = t->slots[i];
        bigger.n = t->n;
        table_free(t);
        *t = bigger;
    }
    size_t i = slot_of(t, key);
    if (!t->slots[i].key.w[2]) t->n++;
    t->slots[i].key = key;
    t->slots[i].value = value;
    return 1;
}

#endif
