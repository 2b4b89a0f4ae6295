/* segscan - the analysis's pipeline: the inputs cut into units (a small
 * segment, or about UNIT_BYTES of a large one, cut at batch boundaries; every
 * segment is read whole, whatever the window: what lies outside it is known,
 * only not listed), reader threads turning
 * units into facts (units.c), and the coordinating thread (the caller of
 * ss_analysis_run) applying the facts of every unit strictly in partition and
 * offset order (apply.c, fptable.c), so that the results never depend on the
 * number of threads. At most a few units per thread are in flight. */
#define _GNU_SOURCE 1
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/units.h"
#include "base/test_hooks.h"

/* ---- the pipeline's shared state --------------------------------------------------------- */

/* A segment opened for reading, shared by its units. */
typedef struct segref {
    ss_segment *s;
    uint32_t part, seg;
    uint32_t refs; /* the planner's while it plans units of it, one per unit not consumed */
    uint64_t limit;
    bool over; /* the coordinator met its end: plan no more of it */
    /* the planner: where the last planned unit stops, once known */
    uint64_t last_seq;
    bool tail_known;
    uint64_t tail_stop;
    /* the coordinator: where the units applied so far stop */
    uint64_t vstop;
} segref;

enum { SLOT_FREE = 0, SLOT_BUSY, SLOT_DONE };

typedef struct slot {
    an_unit u;
    int state;
    uint64_t seq;
    uint32_t part, seg;
    segref *ref;      /* NULL: a note, nothing to read */
    bool first;       /* the first unit of its segment */
    char *unreadable; /* note: a segment that could not be opened, why */
    ss_errkind unreadable_kind;
} slot;

typedef struct pipeline {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    slot *slots;
    size_t nslots;
    uint64_t planned, consumed;
    bool plan_done, quit;
    /* the planner's position */
    uint32_t pp;
    size_t pj;
    segref *cur;
    uint64_t cur_next; /* nominal start of the next unit of cur */
    bool cur_first;
    an_reader *readers; /* [0] the coordinator's */
    size_t nreaders;
    pthread_t *threads;
    size_t nthreads;
} pipeline;

/* ---- planning units --------------------------------------------------------------------- */

static void segref_put(segref *g) {
    /* under the lock; the last reference closes */
    if (g && --g->refs == 0) {
        ss_segment_close(g->s);
        free(g);
    }
}

/* Plan the next unit into sl (under the lock). False when nothing is left. */
static bool plan_next(ss_analysis *a, pipeline *pl, slot *sl) {
    sl->ref = NULL;
    sl->first = false;
    sl->unreadable = NULL;
    for (;;) {
        segref *g = pl->cur;
        if (g) {
            if (g->over) {
                pl->cur = NULL;
                segref_put(g);
                continue;
            }
            an_unit *u = &sl->u;
            sl->ref = g;
            g->refs++;
            sl->part = u->part = g->part;
            sl->seg = u->seg = g->seg;
            const ss_input_segment *is = &a->parts[g->part].input->segments[g->seg];
            u->read_from = is->read_from;
            u->read_to = is->read_to;
            u->max_records = a->force_resync ? 7 : AN_UNIT_MAX_RECORDS;
            u->max_events = a->force_resync ? 5 : AN_UNIT_MAX_EVENTS;
            u->s = g->s;
            u->limit = g->limit;
            sl->first = pl->cur_first;
            uint64_t nominal = pl->cur_next;
            if (pl->cur_first || (g->tail_known && !a->force_resync)) {
                u->start = pl->cur_first ? nominal : g->tail_stop;
                u->resync = false;
            } else {
                u->start = nominal;
                u->resync = true;
            }
            pl->cur_first = false;
            g->last_seq = pl->planned;
            g->tail_known = false;
            uint64_t ub = a->unit_bytes;
            bool last = g->limit <= nominal || g->limit - nominal <= ub + ub / 2;
            if (last) {
                u->end = UINT64_MAX;
                pl->cur = NULL;
                segref_put(g);
            } else {
                u->end = nominal + ub;
                pl->cur_next = nominal + ub;
            }
            return true;
        }
        if (pl->pp >= a->nparts) return false;
        const ss_input_partition *ip = a->parts[pl->pp].input;
        size_t j = pl->pj;
        if (j >= ip->nsegments) {
            pl->pp++;
            pl->pj = 0;
            continue;
        }
        sl->part = pl->pp;
        sl->seg = (uint32_t)j;
        sl->u.part = pl->pp;
        sl->u.seg = (uint32_t)j;
        pl->pj++;
        ss_segment *seg;
        ss_error err;
        if (an_open_segment(a, pl->pp, (uint32_t)j, &seg, &err) != SS_E_OK) {
            const char *path = ip->segments[j].path ? ip->segments[j].path : ip->name;
            size_t n = strlen(path) + strlen(err.msg) + 3;
            char *m = malloc(n);
            if (m) snprintf(m, n, "%s: %s", path, err.msg);
            sl->unreadable = m ? m : strdup("out of memory");
            sl->unreadable_kind = m ? err.kind : SS_E_NOMEM;
            return true;
        }
        segref *ng = calloc(1, sizeof *ng);
        if (!ng) {
            ss_segment_close(seg);
            a->nomem = true;
            return false;
        }
        ng->s = seg;
        ng->part = pl->pp;
        ng->seg = (uint32_t)j;
        ng->refs = 1;
        ng->limit = ss_segment_size(seg);
        pl->cur = ng;
        pl->cur_next = 0;
        pl->cur_first = true;
    }
}

/* Claim the next unit (under the lock). Returns the slot to read, or NULL
 * (nothing to read: nothing left, too many in flight, or a note planned). */
static slot *claim(ss_analysis *a, pipeline *pl, bool *progress) {
    *progress = false;
    if (pl->plan_done || pl->quit || pl->planned >= pl->consumed + pl->nslots) return NULL;
    slot *sl = &pl->slots[pl->planned % pl->nslots];
    if (!plan_next(a, pl, sl)) {
        pl->plan_done = true;
        pthread_cond_broadcast(&pl->cv);
        return NULL;
    }
    sl->seq = pl->planned++;
    *progress = true;
    if (!sl->ref) {
        sl->state = SLOT_DONE;
        pthread_cond_broadcast(&pl->cv);
        return NULL;
    }
    sl->state = SLOT_BUSY;
    return sl;
}

/* Read a claimed unit (without the lock), then mark it done. */
static void read_claimed(ss_analysis *a, pipeline *pl, an_reader *r, slot *sl) {
    an_unit_read(r, &a->o, &a->pinfo[sl->part], &sl->u);
    pthread_mutex_lock(&pl->mu);
    sl->state = SLOT_DONE;
    segref *g = sl->ref;
    if (g->last_seq == sl->seq) {
        g->tail_known = true;
        g->tail_stop = sl->u.stopped;
    }
    pthread_cond_broadcast(&pl->cv);
}

/* What a reading thread is started with. */
typedef struct worker_args {
    ss_analysis *a;
    pipeline *pl;
    an_reader *r; /* its own reader (buffers, decompressor) */
} worker_args;

static void *worker_main(void *arg) {
    const worker_args *w = arg;
    ss_analysis *a = w->a;
    pipeline *pl = w->pl;
    an_reader *r = w->r;
    pthread_mutex_lock(&pl->mu);
    for (;;) {
        bool progress;
        slot *sl = claim(a, pl, &progress);
        if (sl) {
            pthread_mutex_unlock(&pl->mu);
            read_claimed(a, pl, r, sl);
            continue;
        }
        if (progress) continue;
        if (pl->quit || pl->plan_done) break;
        pthread_cond_wait(&pl->cv, &pl->mu);
    }
    pthread_mutex_unlock(&pl->mu);
    return NULL;
}

/* ---- applying units, in order ------------------------------------------------------------------- */

static void report_progress(ss_analysis *a, const char *file, bool done) {
    if (!a->o.progress) return;
    ss_an_progress p;
    memset(&p, 0, sizeof p);
    p.bytes_done = a->bytes_done < a->bytes_total ? a->bytes_done : a->bytes_total;
    p.bytes_total = a->bytes_total;
    p.records = a->records_read;
    p.file = file;
    p.done = done;
    a->o.progress(a->o.progress_arg, &p);
}

static void apply_unit(ss_analysis *a, pipeline *pl, slot *sl, segref *g, an_unit *u);

static void consume(ss_analysis *a, pipeline *pl, slot *sl) {
    uint32_t part = sl->part;
    an_advance_to(a, part);
    ss_an_partition *P = &a->parts[part];
    if (!sl->ref) {
        if (sl->unreadable) {
            P->segments_unreadable++;
            (void)ss_problems_add(&a->problems, SS_SEV_ERROR, sl->unreadable_kind, "%s", sl->unreadable);
            free(sl->unreadable);
            sl->unreadable = NULL;
            a->bytes_done += a->seg_size[a->seg_base[part] + sl->seg];
        }
        return;
    }
    segref *g = sl->ref;
    an_unit *u = &sl->u;
    if (sl->first) {
        P->segments++;
        a->seg_first = true;
        a->seg_max_last = -1;
        a->in_repeat = false;
        g->vstop = u->start;
    }
    if (g->over) return;
    for (bool again = u->started != g->vstop; !a->nomem; again = true) {
        if (again) {
            /* it began elsewhere than where the unit before it ended (or it is the
             * segment's last and stopped short, full): read it again from there */
            u->start = g->vstop;
            u->resync = false;
            an_unit_read(&pl->readers[0], &a->o, &a->pinfo[part], u);
            pthread_mutex_lock(&pl->mu);
            if (g->last_seq == sl->seq) {
                g->tail_known = true;
                g->tail_stop = u->stopped;
            }
            pthread_mutex_unlock(&pl->mu);
        }
        apply_unit(a, pl, sl, g, u);
        if (g->over || !u->full || u->end != UINT64_MAX) break;
    }
}

/* Apply what a unit read (in order, after the units before it). */
static void apply_unit(ss_analysis *a, pipeline *pl, slot *sl, segref *g, an_unit *u) {
    uint32_t part = sl->part;
    ss_an_partition *P = &a->parts[part];
    const ss_input_partition *ip = P->input;
    if (u->nomem) a->nomem = true;
    bool over = false;
    for (size_t k = 0; k < u->ev.n && !a->nomem; k++) {
        an_ev *e = &u->ev.v[k];
        switch (e->kind) {
        case AE_BATCH: {
            if (a->seg_first && a->prev_last >= 0 && e->b.base_offset <= a->prev_last) {
                /* a notice, not damage: the records in both segments are read, and their
                 * copies show as such; verify says more (segment-overlap) */
                ss_error ov = an_error(SS_E_SEGMENT_OVERLAP, e->b.position, e->b.base_offset, 0,
                                       "first batch (offsets %" PRId64 "..%" PRId64 ") at or below offset %" PRId64
                                       " of the segments before it: they overlap (a file copied twice?); records in "
                                       "both count as copies (segscan verify)",
                                       e->b.base_offset, e->b.last_offset, a->prev_last);
                an_add_damage(a, part, sl->seg, &ov, NULL);
            }
            if (!a->seg_first && e->verdict != AV_ERROR && a->seg_max_last >= 0 &&
                e->b.base_offset <= a->seg_max_last) {
                /* offsets going backwards inside a segment: damage of its own, not applied */
                an_offset_order(a, part, sl->seg, &e->b, a->seg_max_last);
                break;
            }
            a->in_repeat = false;
            if (e->verdict != AV_ERROR && e->b.last_offset > a->seg_max_last) a->seg_max_last = e->b.last_offset;
            an_track_hole(a, P, &e->b, a->seg_first);
            an_apply_batch(a, part, sl->seg, e, u);
            an_track_batch(a, P, &e->b, e->verdict == AV_ERROR && !e->too_large);
            a->seg_first = false;
            break;
        }
        case AE_DAMAGE: an_met_damage(a, part, sl->seg, &u->err.v[e->err], e->has_hdr ? &e->b : NULL); break;
        case AE_END:
            if (e->tail && !e->tail_zero && sl->seg + 1 < ip->nsegments) {
                /* Only the active (last) segment may end in a batch being written: an
                 * older one that does, with later segments after it, was cut (a copy
                 * stopped short, a file truncated): its tail is damage, the records in
                 * it are lost. */
                ss_error cut = an_error(SS_E_CUT_SEGMENT, e->b.position, -1, e->tail,
                                        "%" PRIu64 " bytes after the last complete batch do not form a batch, in a "
                                        "segment that is not the last of its partition: a cut file; the records in "
                                        "them are lost",
                                        e->tail);
                an_met_damage(a, part, sl->seg, &cut, NULL);
            } else {
                P->tail_bytes += e->tail;
                if (!e->tail_zero) P->incomplete_tail_bytes += e->tail;
            }
            if (e->err != AN_NONE32) an_add_damage(a, part, sl->seg, &u->err.v[e->err], NULL);
            over = true;
            break;
        default: break;
        }
    }
    an_apply_records(a, P, u);
    a->records_read += u->records;
    a->bytes_done += u->stopped - u->started;
    g->vstop = u->stopped;
    if (over) {
        /* the rest of the segment was not read by this unit: count it as done */
        if (u->limit > u->stopped) a->bytes_done += u->limit - u->stopped;
        pthread_mutex_lock(&pl->mu);
        g->over = true;
        pthread_mutex_unlock(&pl->mu);
    }
}

/* Online CPUs, at least 1. */
static unsigned online_cpus(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1u;
}

void an_pipeline_run(ss_analysis *a) {
    pipeline pl;
    memset(&pl, 0, sizeof pl);
    /* test hook: tiny units, so that the corpus's small segments are cut too, each
     * (but a segment's first) starting at a guessed boundary, as when threads race,
     * and holding a few records and events at most (stopping short, full) */
    a->unit_bytes = UNIT_BYTES;
    const ss_test_hooks *hooks = ss_test_hooks_get();
    if (hooks->unit_bytes >= 64) {
        a->unit_bytes = hooks->unit_bytes;
        a->force_resync = true;
    }
    /* no more threads than units to read (small inputs: no thread at all, and no
     * asking the system how many CPUs it has, which reads a file every run) */
    uint64_t units = 0;
    for (size_t i = 0; i < a->nsegs_total && units < 256; i++) units += a->seg_size[i] / a->unit_bytes + 1;
    unsigned nt = a->o.threads ? a->o.threads : units > 1 ? online_cpus() : 1;
    if (nt > 256) nt = 256;
    if (units < nt) nt = units ? (unsigned)units : 1;
    /* Units in flight. Each slot's unit keeps its arrays for the next unit it
     * holds, and their first touch is most of the page faults of a large scan
     * (about 110 a slot, 7-15 us each on a VM with shadow paging: the events grow
     * to ~250 KiB on small pages, the records through 64-256 KiB before their huge
     * pages); so no more than the threads need: one thread reads and applies in
     * turn, one slot; with more, one unit being applied, one being read by each
     * thread and one read and waiting. */
    pl.nslots = nt == 1 ? 1 : (size_t)nt + 2;
    pl.slots = calloc(pl.nslots, sizeof *pl.slots);
    pl.readers = calloc(nt, sizeof *pl.readers);
    pl.threads = calloc(nt, sizeof *pl.threads);
    worker_args *args = calloc(nt, sizeof *args);
    /* the walker's test hook counts batch events: without the fast path, every batch is one */
    bool fast = !hooks->walker_only;
    if (!pl.slots || !pl.readers || !pl.threads || !args) {
        a->nomem = true;
        goto out;
    }
    for (unsigned i = 0; i < nt; i++) {
        if (!an_reader_init(&pl.readers[i], a->o.max_batch_bytes, fast)) {
            a->nomem = true;
            goto out;
        }
        pl.nreaders = i + 1;
    }
    pthread_mutex_init(&pl.mu, NULL);
    pthread_cond_init(&pl.cv, NULL);
    for (unsigned i = 1; i < nt; i++) {
        args[i] = (worker_args){a, &pl, &pl.readers[i]};
        if (pthread_create(&pl.threads[pl.nthreads], NULL, worker_main, &args[i]) != 0) break;
        pl.nthreads++;
    }
    for (;;) {
        pthread_mutex_lock(&pl.mu);
        slot *sl = &pl.slots[pl.consumed % pl.nslots];
        bool finished = false;
        while (sl->state != SLOT_DONE || sl->seq != pl.consumed) {
            /* nothing to apply yet: read a unit meanwhile */
            bool progress;
            slot *mine = claim(a, &pl, &progress);
            if (mine) {
                pthread_mutex_unlock(&pl.mu);
                read_claimed(a, &pl, &pl.readers[0], mine);
                continue;
            }
            if (progress) continue;
            if (pl.plan_done && pl.consumed == pl.planned) {
                finished = true;
                break;
            }
            pthread_cond_wait(&pl.cv, &pl.mu);
        }
        pthread_mutex_unlock(&pl.mu);
        if (finished) break;
        consume(a, &pl, sl);
        const char *file = NULL;
        if (sl->ref) {
            const ss_input_partition *ip = a->parts[sl->part].input;
            file = ip->segments[sl->seg].path ? ip->segments[sl->seg].path : ip->name;
        }
        report_progress(a, file, false);
        pthread_mutex_lock(&pl.mu);
        segref_put(sl->ref);
        sl->ref = NULL;
        free(sl->unreadable);
        sl->unreadable = NULL;
        sl->state = SLOT_FREE;
        pl.consumed++;
        if (a->nomem || a->io_error) pl.quit = true;
        pthread_cond_broadcast(&pl.cv);
        pthread_mutex_unlock(&pl.mu);
        if (pl.quit) break;
    }
    pthread_mutex_lock(&pl.mu);
    pl.quit = true;
    pthread_cond_broadcast(&pl.cv);
    pthread_mutex_unlock(&pl.mu);
    for (size_t i = 0; i < pl.nthreads; i++) pthread_join(pl.threads[i], NULL);
    /* units planned and not applied (after running out of memory) */
    for (uint64_t q = pl.consumed; q < pl.planned; q++) {
        slot *sl = &pl.slots[q % pl.nslots];
        segref_put(sl->ref);
        free(sl->unreadable);
    }
    segref_put(pl.cur);
    pthread_cond_destroy(&pl.cv);
    pthread_mutex_destroy(&pl.mu);
    if (!a->nomem) an_advance_to(a, (int64_t)a->nparts);
out:
    for (size_t i = 0; i < pl.nreaders; i++) an_reader_free(&pl.readers[i]);
    if (pl.slots)
        for (size_t i = 0; i < pl.nslots; i++) an_unit_free(&pl.slots[i].u);
    free(pl.slots);
    free(pl.readers);
    free(pl.threads);
    free(args);
    report_progress(a, NULL, true);
}
