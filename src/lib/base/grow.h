/* segscan - arrays that grow (internal), after git's ALLOC_GROW.
 *
 * SS_GROW(v, n, cap, first): room for the item v[n] of an array of `cap` items
 * from malloc, doubling from `first` items; false when memory runs out, with v
 * and cap as they were. v is a pointer lvalue, cap a size_t lvalue.
 * (The analysis's large tables use VEC in analysis/units.h and their own allocator.) */
#ifndef SS_GROW_H
#define SS_GROW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* vp: the address of the array's pointer (copied with memcpy: it may be any object pointer type). */
static inline bool ss_grow_(void *vp, size_t *cap, size_t size, size_t first) {
    void *v;
    memcpy(&v, vp, sizeof v);
    size_t nc = *cap ? *cap * 2 : first;
    if (nc <= *cap || nc > SIZE_MAX / size) return false;
    void *nv = realloc(v, nc * size);
    if (!nv) return false;
    memcpy(vp, &nv, sizeof nv);
    *cap = nc;
    return true;
}

#define SS_GROW(v, n, cap, first) ((n) < (cap) || ss_grow_(&(v), &(cap), sizeof *(v), (first)))

#endif
