/* segscan - reading a copy's record back from its segment (the analysis
 * keeps no payload): the last FETCH_SLOTS batches read back stay decompressed,
 * with the position after the last record asked for, since copies are asked
 * for in offset order and mostly in the same few batches. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "base/error_set.h"
#include "base/mem.h"

/* ---- reading a record back ---------------------------------------------------------------- */

#define MAX_OPEN_FETCH 256

static void fetched_forget(ss_analysis *a) {
    for (size_t i = 0; i < FETCH_SLOTS; i++) a->fetched[i].batch = NONE32;
}

/* -1, with err telling that memory ran out while batch b was fetched. */
static int fetch_nomem(const an_batch *b, ss_error *err, const char *what) {
    ss_error_set(err, SS_E_NOMEM, b->position, b->base_offset, "out of memory (%s)", what);
    return -1;
}

int ss_an_fetch_offset(ss_analysis *a, uint32_t batch, int64_t offset, ss_record *r, ss_error *err) {
    if (batch >= a->batches.n) return 0;
    const an_batch *b = &a->batches.v[batch];
    if (a->pinfo[b->part].exported) { /* a data topic's keys and values are not in an export */
        ss_error_set(err, SS_E_OK, 0, b->base_offset, "not in the export");
        return 0;
    }
    if (!a->segcache) {
        a->segcache = calloc(a->nsegs_total ? a->nsegs_total : 1, sizeof *a->segcache);
        if (!a->segcache) return fetch_nomem(b, err, "open segments");
        fetched_forget(a);
    }
    struct fetched *f = NULL, *lru = &a->fetched[0];
    for (size_t i = 0; i < FETCH_SLOTS; i++) {
        if (a->fetched[i].batch == batch) f = &a->fetched[i];
        if (a->fetched[i].used < lru->used) lru = &a->fetched[i];
    }
    if (!f) {
        size_t gi = a->seg_base[b->part] + b->seg;
        if (!a->segcache[gi]) {
            if (a->segs_open >= MAX_OPEN_FETCH) {
                /* close them all, and forget the batches read from them */
                for (size_t i = 0; i < a->nsegs_total; i++) {
                    ss_segment_close(a->segcache[i]);
                    a->segcache[i] = NULL;
                }
                a->segs_open = 0;
                fetched_forget(a);
            }
            if (an_open_segment(a, b->part, b->seg, &a->segcache[gi], err) != SS_E_OK) return -1;
            a->segs_open++;
        }
        f = lru;
        f->batch = NONE32;
        if (!f->dec && !(f->dec = ss_decoder_new(a->o.max_batch_bytes))) return fetch_nomem(b, err, "a decoder");
        /* the batch is copied with pread: reading it through the mapping would make every
         * page touched resident, and a first touch costs more than a copy */
        const ss_segment *seg = a->segcache[gi];
        uint64_t size = ss_segment_size(seg);
        if (b->position >= size) return 0;
        uint64_t want = size - b->position < b->size ? size - b->position : b->size;
        if (!SS_FIT_BIG(f->buf, (size_t)want, f->cap)) return fetch_nomem(b, err, "a batch's copy");
        size_t got = ss_segment_read(seg, b->position, f->buf, (size_t)want);
        if (ss_batch_parse(f->buf, got, b->position, false, f->dec, &f->b, err) != SS_E_OK) return -1;
        if (ss_records_begin(f->dec, &f->b, &f->it, err) != SS_E_OK) return -1;
        f->batch = batch;
        f->after_offset = INT64_MAX;
    }
    f->used = ++a->fetch_tick;
    /* iterate a copy of a saved state: from the record after the last one asked
     * for when this one comes later (copies are asked for in offset order), else
     * from the first */
    bool from_after = f->after_offset < offset;
    ss_rec_iter it = from_after ? f->after : f->it;
    int k;
    for (;;) {
        while ((k = ss_records_next(&it, r, err)) == 1) {
            if (r->offset == offset) {
                f->after = it;
                f->after_offset = offset;
                return 1;
            }
        }
        if (k < 0 || !from_after) break;
        /* offsets out of order in the batch (a crafted one): from the first after all */
        from_after = false;
        it = f->it;
    }
    return k < 0 ? -1 : 0;
}

int ss_an_fetch(ss_analysis *a, const ss_an_copy *c, ss_record *r, ss_error *err) {
    return ss_an_fetch_offset(a, c->batch, c->offset, r, err);
}
