/* segscan - the library's hash map (map.h says how it is laid out). */
#include <stdlib.h>
#include <string.h>

#include "base/map.h"
#include "base/mem.h"


void ss_map_init(ss_map *m, size_t key_size, size_t val_size, size_t first, unsigned load) {
    memset(m, 0, sizeof *m);
    m->key_size = (uint32_t)key_size;
    m->val_at = (uint32_t)(8 + SS_MAP_ROUND8(key_size));
    m->size = (uint32_t)SS_MAP_SLOT_SIZE(key_size, val_size);
    m->first = (uint32_t)first;
    m->load = load;
}

void ss_map_free(ss_map *m) {
    if (m->big) ss_big_free(m->s);
    else free(m->s);
    m->s = NULL;
    m->cap = m->n = 0;
}

void ss_map_clear(ss_map *m, size_t keep) {
    if (m->cap > keep) ss_map_free(m);
    else if (m->n) memset(m->s, 0, m->cap * m->size);
    m->n = 0;
}

#define TOP SS_MAP_TOP
#define word ss_map_word_

/* The map's one probe loop (map.h), with the usual key sizes (a hash, a pair
 * of them) known to the compiler: no call to memcmp. */
static unsigned char *probe(const ss_map *m, const void *key, uint64_t h) {
    switch (m->key_size) {
    case 8: return ss_map_probe_(m, key, h, 8, m->size);
    case 16: return ss_map_probe_(m, key, h, 16, m->size);
    default: return ss_map_probe_(m, key, h, m->key_size, m->size);
    }
}

void *ss_map_find(const ss_map *m, const void *key, uint64_t h) {
    if (!m->cap) return NULL;
    unsigned char *s = probe(m, key, h);
    return word(s) ? s + m->val_at : NULL;
}

/* Doubles the table: the slots are moved in slot order, each to the first empty
 * slot from its home (which its word gives: no key is hashed again). */
static bool grow(ss_map *m) {
    size_t nc = m->cap ? m->cap * 2 : m->first;
    if (nc <= m->cap || nc > SIZE_MAX / m->size) return false;
    unsigned char *ns = m->big ? ss_big_calloc(nc, m->size) : calloc(nc, m->size);
    if (!ns) return false;
    for (size_t i = 0; i < m->cap; i++) {
        const unsigned char *s = m->s + i * m->size;
        uint64_t w = word(s);
        if (!w) continue;
        size_t j = (size_t)w & (nc - 1);
        while (word(ns + j * m->size)) j = (j + 1) & (nc - 1);
        memcpy(ns + j * m->size, s, m->size);
    }
    if (m->big) ss_big_free(m->s);
    else free(m->s);
    m->s = ns;
    m->cap = nc;
    return true;
}

static inline bool fits(const ss_map *m, size_t n) { return (uint64_t)n * 100 <= (uint64_t)m->cap * m->load; }

bool ss_map_reserve(ss_map *m, size_t n) {
    while (!fits(m, n))
        if (!grow(m)) return false;
    return true;
}

void *ss_map_put(ss_map *m, const void *key, uint64_t h, bool *created) {
    if (created) *created = false;
    unsigned char *s = NULL;
    if (m->cap) {
        s = probe(m, key, h);
        if (word(s)) return s + m->val_at;
    }
    /* the empty slot found is the key's unless the table grows first */
    if (!s || !fits(m, m->n + 1)) {
        if (!ss_map_reserve(m, m->n + 1)) return NULL;
        s = probe(m, key, h);
    }
    uint64_t w = h | TOP;
    memcpy(s, &w, sizeof w);
    memcpy(s + 8, key, m->key_size);
    m->n++;
    if (created) *created = true;
    return s + m->val_at;
}

bool ss_map_copy(ss_map *dst, const ss_map *src) {
    *dst = *src;
    dst->s = NULL;
    if (!src->cap) return true;
    dst->s = src->big ? ss_big_calloc(src->cap, src->size) : malloc(src->cap * src->size);
    if (!dst->s) {
        dst->cap = dst->n = 0;
        return false;
    }
    memcpy(dst->s, src->s, src->cap * src->size);
    return true;
}
