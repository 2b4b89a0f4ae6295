/* segscan - the analysis's key maps: (a, b) -> u32, open addressing; the
 * analysis keeps one per kind of key (struct ss_analysis), cleared for each
 * partition. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

static uint64_t km_hash(int64_t a, int64_t b) {
    uint64_t h = (uint64_t)a * 0x9E3779B97F4A7C15ULL;
    h ^= ((uint64_t)b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93ULL;
    h ^= h >> 32;
    return h;
}

static bool km_grow(keymap *m) {
    size_t nc = m->cap ? m->cap * 2 : 256;
    km_slot *ns = calloc(nc, sizeof *ns);
    if (!ns) return false;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->s[i].used) continue;
        size_t j = (size_t)km_hash(m->s[i].a, m->s[i].b) & (nc - 1);
        while (ns[j].used) j = (j + 1) & (nc - 1);
        ns[j] = m->s[i];
    }
    free(m->s);
    m->s = ns;
    m->cap = nc;
    return true;
}

/* The value slot for (a, b); created (with value NONE32) when create is set.
 * NULL when absent (or out of memory). */
uint32_t *km_get(keymap *m, int64_t a, int64_t b, bool create, bool *created) {
    if (created) *created = false;
    if (m->cap == 0 || (m->n + 1) * 4 > m->cap * 3) {
        if (!create && m->cap) goto lookup;
        if (!km_grow(m)) return NULL;
    }
lookup:
    if (!m->cap) return NULL;
    size_t j = (size_t)km_hash(a, b) & (m->cap - 1);
    while (m->s[j].used) {
        if (m->s[j].a == a && m->s[j].b == b) return &m->s[j].v;
        j = (j + 1) & (m->cap - 1);
    }
    if (!create) return NULL;
    m->s[j].used = 1;
    m->s[j].a = a;
    m->s[j].b = b;
    m->s[j].v = NONE32;
    m->n++;
    if (created) *created = true;
    return &m->s[j].v;
}

void km_clear(keymap *m) {
    if (m->cap > 4096) {
        free(m->s);
        m->s = NULL;
        m->cap = 0;
    } else if (m->n) {
        memset(m->s, 0, m->cap * sizeof *m->s);
    }
    m->n = 0;
}
