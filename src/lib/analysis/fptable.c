/* segscan - the analysis's fingerprint table: a distinct fingerprint takes an
 * 8-byte slot (a 32-bit tag and an index) and a 16-byte entry (64 more bits of
 * the fingerprint, where its first copy is); a repeated one becomes a group
 * with the list of its copies. And spilling: past opts.max_memory the
 * fingerprints go to temporary bucket files by their top hash bits, and each
 * bucket is grouped on its own afterwards, in order, with the same groups.
 * analysis.c's head says more.
 *
 * Why this is not a base/map.h map (diff's fingerprint table is one): a map's
 * slot holds its key and value (a word, 16 bytes of fingerprint, 16 of entry:
 * 40 bytes), this table 24 bytes a fingerprint (an 8-byte slot, a 16-byte
 * entry in the order fingerprints were first met, the order spill_start writes
 * them out in and the groups' order); its size at any load (homes scaled, not
 * masked) is what max_memory counts, so another layout would spill at another
 * point; a slot's tag matches before the entry is read, and the entry's
 * topic decides a match (same_topic), which a fixed-size key cannot say.
 * docs/design-notes.md ("One hash map") says more.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "base/mem.h"

/* ---- fingerprint table ----------------------------------------------------------------- */

/* The home slot: the tag (uniform: hash bits) scaled to the table, so any
 * size works (the table holds 50-75% of its slots, not 35-70% as with powers
 * of two) and homes grow with tags: a rehash writes the new table in one
 * sequential stream. Growing never reads the entries. */
static inline size_t slot_home(uint32_t tag, size_t cap) { return (size_t)(((uint64_t)tag * cap) >> 32); }
static inline size_t slot_next(size_t j, size_t cap) { return j + 1 == cap ? 0 : j + 1; }

static bool slots_resize(ss_analysis *a, size_t nc) {
    uint64_t *ns = ss_big_calloc(nc, sizeof *ns);
    if (!ns) return false;
    for (size_t i = 0; i < a->slot_cap; i++) {
        uint64_t v = a->slots[i];
        if (!v) continue;
        size_t j = slot_home((uint32_t)(v >> 32), nc);
        while (ns[j]) j = slot_next(j, nc);
        ns[j] = v;
    }
    ss_big_free(a->slots);
    a->slots = ns;
    a->slot_cap = nc;
    a->slot_grow_at = nc / 4 * 3;
    return true;
}

/* Slots for n fingerprints at about 60% load. */
static size_t slots_for(uint64_t n) {
    uint64_t c = n / 3 * 5 + 64;
    if (c > UINT32_MAX) c = UINT32_MAX;
    return (size_t)c;
}

/* Empty tables sized for about `n` distinct fingerprints. */
bool an_table_reset(ss_analysis *a, uint64_t n) {
    ss_big_free(a->slots);
    a->slots = NULL;
    a->slot_cap = a->slot_used = a->slot_grow_at = 0;
    a->nents = 0;
    a->far.n = 0;
    size_t ec = (size_t)(n < 256 ? 256 : n);
    if (!slots_resize(a, slots_for(ec))) return false;
    if (ec > a->ents_cap || ec * 4 < a->ents_cap) {
        ss_big_free(a->ents);
        a->ents = NULL;
        a->ents_cap = 0;
        if (!SS_GROW_TO_BIG(a->ents, ec, a->ents_cap)) return false; /* from no room: exactly ec */
    }
    return true;
}

void an_table_free(ss_analysis *a) {
    ss_big_free(a->slots);
    ss_big_free(a->ents);
    ss_big_free(a->far.v);
    a->slots = NULL;
    a->ents = NULL;
    a->far.v = NULL;
    a->slot_cap = a->slot_used = a->slot_grow_at = a->nents = a->ents_cap = 0;
    a->far.n = a->far.cap = 0;
}

/* The far side of entry ei (delta == ENT_FAR): appended in entry order, so binary search. */
static const far_ent *ent_far(const ss_analysis *a, uint32_t ei) {
    size_t lo = 0, hi = a->far.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (a->far.v[mid].ent < ei) lo = mid + 1;
        else hi = mid;
    }
    return lo < a->far.n && a->far.v[lo].ent == ei ? &a->far.v[lo] : NULL;
}

/* The first copy of entry ei (not grouped): its offset delta and timestamp. */
static void ent_first(const ss_analysis *a, uint32_t ei, uint32_t *delta, int64_t *ts) {
    const fp_ent *e = &a->ents[ei];
    if (e->delta != ENT_FAR) {
        *delta = e->delta;
        *ts = ss_sub64(a->batches.v[e->batch].max_ts, e->tsd);
        return;
    }
    const far_ent *f = ent_far(a, ei);
    *delta = f ? f->delta : 0;
    *ts = f ? f->ts : -1;
}

/* Is entry e of the topic of `batch`? In order, the current topic's batches
 * are the ones from topic_first on; when buckets are grouped, ask the batches. */
static inline bool same_topic(const ss_analysis *a, const fp_ent *e, uint32_t batch) {
    /* across topics, a replica or a temporary copy is still a domain of its own (the low 8 bits) */
    if (a->o.across_topics)
        return !a->split_domains || (topic_of_batch(a, ent_batch(e)) & 0xff) == (topic_of_batch(a, batch) & 0xff);
    if (!a->by_topic_of_batch && !a->split_domains) return ent_batch(e) >= a->topic_first;
    return topic_of_batch(a, ent_batch(e)) == topic_of_batch(a, batch);
}

/* Room for n more fingerprints; false when the tables would pass max_memory
 * (entries in use and slots; while slots are rehashed, both tables), or
 * memory ran out (then a->nomem). */
static bool table_room(ss_analysis *a, size_t n) {
    bool grow_slots = a->slot_used + n > a->slot_grow_at, grow_ents = a->nents + n > a->ents_cap;
    size_t nc = a->slot_cap;
    if (grow_slots) {
        nc = a->slot_cap + a->slot_cap / 2;
        if (nc < slots_for(a->slot_used + n)) nc = slots_for(a->slot_used + n);
    }
    if (a->o.max_memory && !a->by_topic_of_batch) {
        uint64_t bytes = (uint64_t)nc * sizeof *a->slots + (uint64_t)(a->nents + n) * sizeof *a->ents +
                         a->far.cap * sizeof *a->far.v;
        if (grow_slots) bytes += (uint64_t)a->slot_cap * sizeof *a->slots;
        if (bytes > a->o.max_memory) return false; /* also the first table, when the limit is below it */
    }
    if (!grow_slots && !grow_ents) return true;
    if (a->nents + n >= (size_t)UINT32_MAX - 1) {
        a->nomem = true;
        return false;
    }
    if (grow_slots && !slots_resize(a, nc)) {
        a->nomem = true;
        return false;
    }
    if (grow_ents && !SS_GROW_TO_BIG(a->ents, a->nents + n, a->ents_cap)) {
        a->nomem = true;
        return false;
    }
    return true;
}

/* Entry ei seen again, at batch/delta with timestamp ts and ordinal seq: a
 * group forms with its second copy. Out of line: a tenth of the records come
 * here, and the loop of the others stays small. */
static __attribute__((noinline)) void fp_repeat(ss_analysis *a, uint32_t ei, uint64_t lo, uint64_t hi, uint32_t batch,
                                                uint32_t delta, int64_t ts, uint64_t seq) {
    fp_ent *e = &a->ents[ei];
    an_occ occ = {ts, batch, delta, NONE32, 0, 0};
    uint32_t oi = (uint32_t)a->occs.n;
    if (!ent_grouped(e)) {
        an_occ first = {0, e->batch, 0, oi + 1, 0, 0};
        ent_first(a, ei, &first.delta, &first.ts);
        SS_VEC_PUSH(a->occs, first, a->nomem = true; return );
        SS_VEC_PUSH(a->occs, occ, a->nomem = true; return );
        an_dupgroup g = {lo, hi, oi, oi + 1, 2, oi, seq};
        SS_VEC_PUSH(a->groups, g, a->nomem = true; return );
        ent_set_group(e, (uint32_t)(a->groups.n - 1));
    } else {
        an_dupgroup *g = &a->groups.v[ent_group(e)];
        SS_VEC_PUSH(a->occs, occ, a->nomem = true; return );
        a->occs.v[g->last].next = oi;
        g->last = oi;
        g->count++;
    }
}

/* Occurrence (lo, hi) at batch/delta with timestamp ts and ordinal seq; the
 * batch's maxTimestamp is max_ts. With group != NONE32: the head of a group
 * formed before a spill. Call table_room first. */
static inline void fp_insert(ss_analysis *a, uint64_t lo, uint64_t hi, uint32_t batch, uint32_t delta, int64_t ts,
                             int64_t max_ts, uint64_t seq, uint32_t group) {
    uint32_t tag = (uint32_t)lo;
    size_t cap = a->slot_cap;
    size_t j = slot_home(tag, cap);
    for (uint64_t v; (v = a->slots[j]) != 0; j = slot_next(j, cap)) {
        if ((uint32_t)(v >> 32) != tag) continue;
        uint32_t ei = (uint32_t)(v & 0xffffffffu) - 1;
        const fp_ent *e = &a->ents[ei];
        if (e->hi != hi || !same_topic(a, e, batch)) continue;
        fp_repeat(a, ei, lo, hi, batch, delta, ts, seq);
        return;
    }
    /* a new fingerprint */
    uint32_t ei = (uint32_t)a->nents++;
    fp_ent *e = &a->ents[ei];
    e->hi = hi;
    e->batch = batch;
    if (group != NONE32) {
        ent_set_group(e, group);
    } else {
        int64_t d = sat_sub(max_ts, ts);
        if (delta < ENT_FAR && d >= 0 && d < ENT_FAR) {
            e->delta = (uint16_t)delta;
            e->tsd = (uint16_t)d;
        } else {
            e->delta = ENT_FAR;
            e->tsd = 0;
            far_ent f = {ei, delta, ts};
            SS_VEC_PUSH(a->far, f, a->nomem = true);
        }
    }
    a->slots[j] = (uint64_t)tag << 32 | (ei + 1);
    a->slot_used++;
}

/* ---- spilling ------------------------------------------------------------------------------ */

#define BUCKET_BUF 2048 /* records buffered per bucket */
#define MAX_BUCKETS 64

static int spill_file(ss_analysis *a) {
    const char *dir = a->o.tmpdir;
    if (!dir || !*dir) dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    char path[4096];
    snprintf(path, sizeof path, "%s/segscan-spill-XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd < 0) {
        a->io_error = true;
        ss_error_set(&a->io_err, SS_E_IO, 0, -1, "cannot create a temporary file in %.120s: %s", dir, strerror(errno));
        return -1;
    }
    unlink(path); /* gone when closed, whatever happens */
    return fd;
}

/* All n bytes at p written to fd, or read from it; false (a->io_error) when they cannot be. */
static bool io_all(ss_analysis *a, int fd, void *p, size_t n, bool writing) {
    uint8_t *q = p;
    while (n) {
        ssize_t k = writing ? write(fd, q, n) : read(fd, q, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            a->io_error = true;
            const char *why = k < 0 ? strerror(errno) : writing ? "disk full" : "short file";
            ss_error_set(&a->io_err, SS_E_IO, 0, -1, "%s: %s",
                         writing ? "cannot write a temporary file" : "cannot read a temporary file back", why);
            return false;
        }
        q += k;
        n -= (size_t)k;
    }
    return true;
}

static void bucket_flush(ss_analysis *a, bucket *b) {
    if (b->nbuf && !a->io_error) io_all(a, b->fd, b->buf, b->nbuf * sizeof *b->buf, true);
    b->nbuf = 0;
}

static void bucket_put(ss_analysis *a, bucket *b, const spill_rec *r) {
    if (!a->by_topic_of_batch) a->spilled_records++;
    b->buf[b->nbuf++] = *r;
    b->n++;
    if (b->nbuf == BUCKET_BUF) bucket_flush(a, b);
}

static bool buckets_open(ss_analysis *a, bucket **out, unsigned n) {
    bucket *bs = calloc(n, sizeof *bs);
    if (!bs) {
        a->nomem = true;
        return false;
    }
    for (unsigned i = 0; i < n; i++) bs[i].fd = -1;
    *out = bs;
    for (unsigned i = 0; i < n; i++) {
        bs[i].buf = malloc(BUCKET_BUF * sizeof *bs[i].buf);
        if (!bs[i].buf) {
            a->nomem = true;
            return false;
        }
        if ((bs[i].fd = spill_file(a)) < 0) return false;
    }
    return true;
}

void an_buckets_close(ss_analysis *a) {
    for (unsigned i = 0; i < a->nbuckets; i++) {
        if (a->buckets[i].fd >= 0) close(a->buckets[i].fd);
        free(a->buckets[i].buf);
    }
    free(a->buckets);
    a->buckets = NULL;
    a->nbuckets = 0;
}

/* The tables reached max_memory: from now on fingerprints go to bucket files,
 * beginning with the ones in the table, in the order they were first met. */
static void spill_start(ss_analysis *a) {
    /* buckets enough for each to fit in half the limit, at ~48 bytes a fingerprint,
     * if the rest of the input holds as many new fingerprints per byte */
    double done = a->bytes_total ? (double)a->bytes_done / (double)a->bytes_total : 1.0;
    if (done < 0.01) done = 0.01;
    double need = (double)a->nents / done * 48.0;
    unsigned k = 2;
    while (k < MAX_BUCKETS && (double)k * (double)(a->o.max_memory / 2) < need) k *= 2;
    unsigned bits = 0;
    while ((1u << bits) < k) bits++;
    a->spilled = true;
    a->nbuckets = k;
    a->bucket_shift = 64 - bits;
    if (!buckets_open(a, &a->buckets, k)) return;
    uint32_t *tags = malloc((a->nents ? a->nents : 1) * sizeof *tags);
    if (!tags) {
        a->nomem = true;
        return;
    }
    for (size_t i = 0; i < a->slot_cap; i++)
        if (a->slots[i]) tags[(uint32_t)a->slots[i] - 1] = (uint32_t)(a->slots[i] >> 32);
    for (uint32_t ei = 0; ei < a->nents; ei++) {
        const fp_ent *e = &a->ents[ei];
        spill_rec r;
        r.lo = tags[ei]; /* the entry does not keep lo's high bits: buckets go by hi */
        r.hi = e->hi;
        r.batch = ent_batch(e);
        if (ent_grouped(e)) {
            r.seq = SPILL_GROUP;
            r.ts = ent_group(e);
            r.delta = 0;
        } else {
            r.seq = 0;
            ent_first(a, ei, &r.delta, &r.ts);
        }
        bucket_put(a, &a->buckets[r.hi >> a->bucket_shift], &r);
    }
    free(tags);
    an_table_free(a);
}

/* One fingerprinted record, in order, to its bucket (after a spill). */
static void fp_spill(ss_analysis *a, const an_rec *s, uint32_t bi) {
    spill_rec r = {s->lo, s->hi, s->ts, a->fp_seq++, bi, s->delta};
    if (!a->io_error && !a->nomem) bucket_put(a, &a->buckets[s->hi >> a->bucket_shift], &r);
}

/* Back to the start of bucket file fd, to read it; false (a->io_error) when it cannot be. */
static bool rewind_file(ss_analysis *a, int fd) {
    if (lseek(fd, 0, SEEK_SET) == 0) return true;
    a->io_error = true;
    ss_error_set(&a->io_err, SS_E_IO, 0, -1, "cannot read a temporary file back: %s", strerror(errno));
    return false;
}

/* Group the n records of bucket file fd (bits: hash bits that chose it). A
 * bucket too large for max_memory is split four ways by the next two bits
 * first; order is kept, so each fingerprint still meets its copies in order. */
static void bucket_group(ss_analysis *a, int fd, uint64_t n, unsigned bits) {
    if (!n || a->nomem || a->io_error) return;
    spill_rec *buf = malloc(BUCKET_BUF * sizeof *buf);
    if (!buf) {
        a->nomem = true;
        return;
    }
    if (!rewind_file(a, fd)) {
        free(buf);
        return;
    }
    /* one fingerprint throughout: a split cannot part its copies (it would go on to 48
     * bits, rewriting every record at each level), and it is one table entry */
    bool one_fp = true;
    if (n * 48 > a->o.max_memory && bits + 2 <= 48) {
        bucket *sub = NULL;
        if (buckets_open(a, &sub, 4)) {
            uint64_t lo0 = 0, hi0 = 0;
            for (uint64_t done = 0; done < n && !a->io_error;) {
                size_t m = n - done < BUCKET_BUF ? (size_t)(n - done) : BUCKET_BUF;
                if (!io_all(a, fd, buf, m * sizeof *buf, false)) break;
                if (done == 0) lo0 = buf[0].lo, hi0 = buf[0].hi;
                for (size_t i = 0; i < m; i++) {
                    one_fp = one_fp && (uint32_t)buf[i].lo == (uint32_t)lo0 && buf[i].hi == hi0;
                    bucket_put(a, &sub[(buf[i].hi << bits) >> 62], &buf[i]);
                }
                done += m;
            }
            for (unsigned i = 0; i < 4; i++) bucket_flush(a, &sub[i]);
            for (unsigned i = 0; i < 4; i++) {
                if (!one_fp) bucket_group(a, sub[i].fd, sub[i].n, bits + 2);
                close(sub[i].fd);
                free(sub[i].buf);
            }
        } else if (sub) {
            for (unsigned i = 0; i < 4; i++) {
                if (sub[i].fd >= 0) close(sub[i].fd);
                free(sub[i].buf);
            }
        }
        free(sub);
        if (!one_fp || a->nomem || a->io_error) {
            free(buf);
            return;
        }
        if (!rewind_file(a, fd)) {
            free(buf);
            return;
        }
    } else {
        one_fp = false;
    }
    if (!an_table_reset(a, one_fp ? 1 : n)) {
        a->nomem = true;
        free(buf);
        return;
    }
    for (uint64_t done = 0; done < n && !a->nomem;) {
        size_t m = n - done < BUCKET_BUF ? (size_t)(n - done) : BUCKET_BUF;
        if (!io_all(a, fd, buf, m * sizeof *buf, false)) break;
        for (size_t i = 0; i < m && !a->nomem; i++) {
            const spill_rec *r = &buf[i];
            if (!table_room(a, 1)) break;
            if (r->seq == SPILL_GROUP) fp_insert(a, r->lo, r->hi, r->batch, 0, 0, 0, 0, (uint32_t)r->ts);
            else fp_insert(a, r->lo, r->hi, r->batch, r->delta, r->ts, a->batches.v[r->batch].max_ts, r->seq, NONE32);
        }
        done += m;
    }
    free(buf);
}

/* After the last partition: group every bucket. */
void an_buckets_group(ss_analysis *a) {
    a->by_topic_of_batch = true;
    unsigned bits = 64 - a->bucket_shift;
    for (unsigned i = 0; i < a->nbuckets && !a->nomem && !a->io_error; i++) {
        bucket_flush(a, &a->buckets[i]);
        bucket_group(a, a->buckets[i].fd, a->buckets[i].n, bits);
    }
    an_buckets_close(a);
    an_table_free(a);
}

/* The kept records of a unit's batches, in order: fingerprints into the table
 * (asking for the slot of a record a few places ahead, since the table is
 * larger than the caches), matches kept. */
void an_apply_records(ss_analysis *a, ss_an_partition *P, const an_unit *u) {
    enum { AHEAD = 16 };
    const an_rec *R = u->rec.v;
    size_t nr = u->rec.n;
    /* room for the unit's fingerprints at once, or spill from here on */
    if (!a->spilled && u->nfp && !table_room(a, u->nfp)) {
        if (a->nomem) return;
        spill_start(a);
    }
    for (size_t k = 0; k < u->ev.n && !a->nomem && !a->io_error; k++) {
        const an_ev *e = &u->ev.v[k];
        if (e->kind != AE_BATCH || e->verdict != AV_DATA || e->bi == AN_NONE32) continue;
        int64_t max_ts = a->batches.v[e->bi].max_ts;
        for (uint32_t i = e->first; i < e->first + e->n; i++) {
            const an_rec *s = &R[i];
            if (s->flags & AR_FP) {
                P->fingerprinted_records++;
                if (a->spilled) {
                    fp_spill(a, s, e->bi);
                } else {
#if defined(__GNUC__)
                    if (i + AHEAD < nr && (R[i + AHEAD].flags & AR_FP))
                        __builtin_prefetch(&a->slots[slot_home((uint32_t)R[i + AHEAD].lo, a->slot_cap)]);
#endif
                    fp_insert(a, s->lo, s->hi, e->bi, s->delta, s->ts, max_ts, a->fp_seq++, NONE32);
                }
            }
            if (s->flags & AR_MATCH) {
                a->match_total++;
                if (a->matches.n < a->o.max_matches) {
                    an_match m = {s->lo, s->hi, s->ts, e->bi, s->delta, (s->flags & AR_FP) != 0};
                    SS_VEC_PUSH(a->matches, m, a->nomem = true);
                }
            }
        }
    }
}
