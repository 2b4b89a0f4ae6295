/* segscan - arrays that grow (internal): the one way the library grows an
 * array, after git's ALLOC_GROW.
 *
 * SS_GROW(v, n, cap, first): room for the item v[n] of an array of `cap` items,
 * doubling from `first` items; false when memory runs out or the size would
 * overflow, with v and cap as they were. v is a pointer lvalue, cap a size_t
 * lvalue. The array is from malloc (free it with free).
 * SS_GROW_BIG: the same from ss_big_realloc (base/mem.h: a large array is a mapping
 * of its own, on huge pages, grown without a copy); free it with ss_big_free. The
 * analysis's tables grow so, and count what they take themselves.
 * SS_GROW_TO(v, need, cap): room for `need` items in all: the room doubles, or
 * becomes `need` when that is more (a buffer that must hold a batch). SS_FIT(v,
 * need, cap): room for exactly `need` items when there is less (a buffer grown
 * to what it is asked to hold, no more). Both are true, changing nothing, when
 * need <= cap; _BIG variants as above.
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

/* Room for need items (need > *cap): exactly need, or the room doubled when that is more and !exact. */
static inline bool ss_grow_to_(void *vp, size_t *cap, size_t size, size_t need, bool exact,
                               void *(*re)(void *, size_t)) {
    void *v;
    memcpy(&v, vp, sizeof v);
    size_t nc = !exact && *cap <= SIZE_MAX / 2 && *cap * 2 > need ? *cap * 2 : need;
    if (nc > SIZE_MAX / size) return false;
    void *nv = re(v, nc * size);
    if (!nv) return false;
    memcpy(vp, &nv, sizeof nv);
    *cap = nc;
    return true;
}

#define SS_GROW(v, n, cap, first) ((n) < (cap) || ss_grow_(&(v), &(cap), sizeof *(v), (first), realloc))
#define SS_GROW_BIG(v, n, cap, first) ((n) < (cap) || ss_grow_(&(v), &(cap), sizeof *(v), (first), ss_big_realloc))

#define SS_GROW_TO(v, need, cap) ((need) <= (cap) || ss_grow_to_(&(v), &(cap), sizeof *(v), (need), false, realloc))
#define SS_GROW_TO_BIG(v, need, cap)                                                                                   \
    ((need) <= (cap) || ss_grow_to_(&(v), &(cap), sizeof *(v), (need), false, ss_big_realloc))
#define SS_FIT(v, need, cap) ((need) <= (cap) || ss_grow_to_(&(v), &(cap), sizeof *(v), (need), true, realloc))
#define SS_FIT_BIG(v, need, cap)                                                                                       \
    ((need) <= (cap) || ss_grow_to_(&(v), &(cap), sizeof *(v), (need), true, ss_big_realloc))

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
