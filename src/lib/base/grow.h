/* segscan - arrays that grow (internal): the one way the library grows an
 * array, after git's ALLOC_GROW.
 *
 * SS_GROW(v, n, cap, first): room for the item v[n] of an array of `cap` items,
 * doubling from `first` items; false when memory runs out or the size would
 * overflow, with v and cap as they were. v is a pointer lvalue, cap a size_t
 * lvalue. The array is from malloc (free it with free).
 * SS_GROW_BIG: the same from an_realloc (base/mem.h: a large array is a mapping
 * of its own, on huge pages, grown without a copy); free it with an_free. The
 * analysis's tables grow so, and count what they take themselves.
 * SS_VEC(T): an array with its count and room; SS_VEC_PUSH appends an item
 * (SS_GROW_BIG, from 64 items), or runs `fail` when there is no room for it. */
#ifndef SS_GROW_H
#define SS_GROW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/* vp: the address of the array's pointer (copied with memcpy: it may be any object pointer type). */
static inline bool ss_grow_(void *vp, size_t *cap, size_t size, size_t first, void *(*re)(void *, size_t)) {
    void *v;
    memcpy(&v, vp, sizeof v);
    size_t nc = *cap ? *cap * 2 : first;
    if (nc <= *cap || nc > SIZE_MAX / size) return false;
    void *nv = re(v, nc * size);
    if (!nv) return false;
    memcpy(vp, &nv, sizeof nv);
    *cap = nc;
    return true;
}

#define SS_GROW(v, n, cap, first) ((n) < (cap) || ss_grow_(&(v), &(cap), sizeof *(v), (first), realloc))
#define SS_GROW_BIG(v, n, cap, first) ((n) < (cap) || ss_grow_(&(v), &(cap), sizeof *(v), (first), an_realloc))

#define SS_VEC(T)                                                                                                      \
    struct {                                                                                                           \
        T *v;                                                                                                          \
        size_t n, cap;                                                                                                 \
    }
#define SS_VEC_PUSH(vec, item, fail)                                                                                   \
    do {                                                                                                               \
        if (SS_GROW_BIG((vec).v, (vec).n, (vec).cap, 64)) (vec).v[(vec).n++] = (item);                                 \
        else { fail; }                                                                                                 \
    } while (0)

#endif
