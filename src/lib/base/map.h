/* segscan - the library's hash map (internal): open addressing with linear
 * probing over a power-of-two table, keys of a fixed size.
 *
 * A slot is a word, the key (padded to 8 bytes) and the value (padded to 8):
 * the word is 0 for an empty slot, else the key's hash with its top bit set
 * (a home is hash & (cap - 1), so the top bit never moves one; comparing words
 * first skips most other keys without reading them). The caller hashes: a map
 * keyed by something that is already a hash passes it as it is. Keys compare
 * with memcmp, or with `eq` for keys that point at what they name (strings).
 *
 * The layout is a function of the keys inserted, in order, with the table's
 * first size and its load: two maps given the same keys hold them in the same
 * slots, so a walk over the slots (ss_map_slot) is the same every run. A table
 * grows (doubles) before an insertion would fill more than `load` percent.
 * Values are zeroed when their key is inserted. Pointers into the map hold
 * until the next insertion. A map with `big` set (after ss_map_init, before
 * the first insertion) takes its tables from ss_big_calloc (base/mem.h: zero
 * pages, on huge pages when large): diff's fingerprint table.
 */
#ifndef SS_MAP_H
#define SS_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct ss_map {
    unsigned char *s;                              /* cap slots of `size` bytes; NULL until the first insertion */
    size_t cap, n;                                 /* cap: 0 or a power of two; n: keys held */
    uint32_t key_size, val_at, size;               /* the key's size, the value's place in a slot, a slot's size */
    uint32_t first, load;                          /* the first table's slots; the greatest load, in percent */
    bool (*eq)(const void *held, const void *key); /* NULL: memcmp of key_size bytes */
    bool big;                                      /* tables from ss_big_calloc, freed with ss_big_free */
} ss_map;

/* An empty map (no memory until the first insertion). first: a power of two. */
void ss_map_init(ss_map *m, size_t key_size, size_t val_size, size_t first, unsigned load);
void ss_map_free(ss_map *m);
/* Forget every key; the table is kept when it has at most keep slots, else freed. */
void ss_map_clear(ss_map *m, size_t keep);
/* The value of key (of hash h), NULL when absent. */
void *ss_map_find(const ss_map *m, const void *key, uint64_t h);
/* The value of key, inserted (zeroed; *created set) when absent; NULL when memory ran out. */
void *ss_map_put(ss_map *m, const void *key, uint64_t h, bool *created);
/* Room for n keys in all without growing; false when memory ran out. */
bool ss_map_reserve(ss_map *m, size_t n);
/* A copy of src (dst uninitialised or freed); false when memory ran out (dst empty). */
bool ss_map_copy(ss_map *dst, const ss_map *src);
/* The bytes the map's table takes. */
static inline size_t ss_map_bytes(const ss_map *m) { return m->cap * m->size; }

/* Slot i (i < cap): its value, NULL when it is empty; *key (if key) the key held. */
static inline void *ss_map_slot(const ss_map *m, size_t i, const void **key) {
    unsigned char *s = m->s + i * m->size;
    uint64_t w;
    memcpy(&w, s, sizeof w);
    if (!w) return NULL;
    if (key) *key = s + 8;
    return s + m->val_at;
}
/* ---- the lookup inline, for a hot loop's map ---- */

#define SS_MAP_TOP ((uint64_t)1 << 63)
#define SS_MAP_ROUND8(n) (((size_t)(n) + 7) & ~(size_t)7)
/* The size of a slot of a map of keys of ks bytes and values of vs bytes. */
#define SS_MAP_SLOT_SIZE(ks, vs) (8 + SS_MAP_ROUND8(ks) + SS_MAP_ROUND8(vs))

static inline uint64_t ss_map_word_(const unsigned char *s) {
    uint64_t w;
    memcpy(&w, s, sizeof w);
    return w;
}

/* The slot of key, or the empty slot where it goes (the table has one): the
 * map's one probe loop (map.c calls it too). ks and size are m's key and slot
 * sizes, passed so that a caller that knows them as constants has them folded. */
static inline unsigned char *ss_map_probe_(const ss_map *m, const void *key, uint64_t h, size_t ks, size_t size) {
    uint64_t w = h | SS_MAP_TOP;
    size_t mask = m->cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        unsigned char *s = m->s + i * size;
        uint64_t v = ss_map_word_(s);
        if (!v) return s;
        if (v == w && (m->eq ? m->eq(s + 8, key) : !memcmp(s + 8, key, ks))) return s;
    }
}

/* ss_map_put, for a map whose key size ks and value size vs the caller passes
 * as constants (sizeof): the lookup and the insertion inline, ss_map_put when
 * the table must grow first. Same layout as ss_map_put. */
static inline void *ss_map_put_sized(ss_map *m, const void *key, uint64_t h, size_t ks, size_t vs, bool *created) {
    if (!m->cap || (uint64_t)(m->n + 1) * 100 > (uint64_t)m->cap * m->load) return ss_map_put(m, key, h, created);
    unsigned char *s = ss_map_probe_(m, key, h, ks, SS_MAP_SLOT_SIZE(ks, vs));
    bool fresh = !ss_map_word_(s);
    if (fresh) {
        uint64_t w = h | SS_MAP_TOP;
        memcpy(s, &w, sizeof w);
        memcpy(s + 8, key, ks);
        m->n++;
    }
    if (created) *created = fresh;
    return s + 8 + SS_MAP_ROUND8(ks);
}

/* Ask for the home slot of hash h ahead of a lookup (a table larger than the caches). */
static inline void ss_map_prefetch(const ss_map *m, uint64_t h) {
#if defined(__GNUC__)
    if (m->cap) __builtin_prefetch(m->s + ((size_t)h & (m->cap - 1)) * m->size);
#else
    (void)m;
    (void)h;
#endif
}
/* The slot index of a value the map returned. */
static inline size_t ss_map_index(const ss_map *m, const void *val) {
    return (size_t)((const unsigned char *)val - m->val_at - m->s) / m->size;
}

#endif
