/* segscan - the analysis's decisions on each batch read, in partition and
 * offset order: what it counts, which producer session and transaction it
 * goes to, the damage met, the evidence of compaction (offset holes, records
 * missing inside a batch, a delete horizon); and the partitions begun and
 * finished in turn.
 *
 * The window: every batch goes to its session and transaction, and every
 * compaction hole counts, wherever it lies; what lies in the window marks
 * its session, transaction and batch as listed, and the partition's figures
 * (records, batches, offsets, times, codecs, producers) count it only. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "base/error_set.h"
#include "base/javaint.h"

/* The records a damaged entry held, from its header: v2's recordsCount when it fits the
 * offsets the header spans, else that span; a legacy entry's inner messages when they were
 * counted (a compressed wrapper), else its one message; -1 when the header says nothing
 * usable. */
static int64_t header_records(const ss_batch *b) {
    if (b->last_offset < b->base_offset) return -1;
    uint64_t span = ss_offset_span(b->base_offset, b->last_offset);
    if (span > INT64_MAX) span = INT64_MAX;
    if (b->magic >= 2) return b->count >= 0 && (uint64_t)b->count <= span ? b->count : (int64_t)span;
    if (b->legacy_inner_count > 0) return b->legacy_inner_count;
    return b->codec == 0 ? 1 : -1;
}

void an_add_damage(ss_analysis *a, uint32_t part, uint32_t seg, const ss_error *e, const ss_batch *hdr) {
    ss_an_partition *p = &a->parts[part];
    int64_t first = -1, last = -1, nrec = -1;
    if (hdr && (nrec = header_records(hdr)) >= 0) {
        first = hdr->base_offset;
        last = hdr->last_offset;
    }
    if (ss_errkind_is_damage(e->kind)) {
        p->damage_events++;
        if (e->kind == SS_E_OFFSET_ORDER) { /* records repeated, not lost (an_offset_order) */
        } else if (nrec < 0) p->lost_unknown = true;
        else if (!hdr->control) { /* data records; a marker is not a record lost */ p->lost_records += (uint64_t)nrec;
            if (p->lost_first < 0 || first < p->lost_first) p->lost_first = first;
            if (last > p->lost_last) p->lost_last = last;
        }
    }
    size_t kept = 0;
    for (size_t i = a->damage.n; i > 0 && a->damage.v[i - 1].partition == part; i--) kept++;
    if (kept >= MAX_DAMAGE_KEPT) return;
    ss_an_damage d = {part, seg, *e, first, last, nrec};
    SS_VEC_PUSH(a->damage, d, a->nomem = true);
}

/* An error or notice of the analysis itself (not of the reader), for an_add_damage. */
ss_error an_error(ss_errkind kind, uint64_t position, int64_t base_offset, uint64_t length, const char *fmt, ...) {
    ss_error e;
    va_list ap;
    va_start(ap, fmt);
    ss_error_vset(&e, kind, position, base_offset, fmt, ap);
    va_end(ap);
    e.length = length;
    return e;
}

/* Damaged bytes met in partition part: counted, kept for the output, and
 * remembered, so that the offset hole after them is theirs (an_track_hole). */
void an_met_damage(ss_analysis *a, uint32_t part, uint32_t seg, const ss_error *e, const ss_batch *hdr) {
    a->parts[part].damaged_bytes += e->length;
    a->damage_seen++;
    an_add_damage(a, part, seg, e, hdr);
}

/* ---- one batch ------------------------------------------------------------------------ */
/* Every batch, in the window or not: "now" is the newest timestamp of them all, the LSO is
 * bounded by the log's end. */
static void seen_batch(ss_analysis *a, ss_an_partition *P, const ss_batch *b) {
    if (b->max_timestamp > P->max_batch_timestamp) P->max_batch_timestamp = b->max_timestamp;
    if (b->last_offset < INT64_MAX && b->last_offset + 1 > a->log_end) a->log_end = b->last_offset + 1;
}

/* A batch in the window, in the partition's figures. */
static void count_batch(ss_an_partition *P, const ss_batch *b) {
    P->batches++;
    P->codec_batches[b->codec >= 0 && b->codec <= 4 ? b->codec : 7]++;
    if (b->magic >= 0 && b->magic <= 2) P->magic_batches[b->magic]++;
    if (P->first_offset < 0) P->first_offset = b->base_offset;
    if (b->last_offset < INT64_MAX && b->last_offset + 1 > P->next_offset) P->next_offset = b->last_offset + 1;
}

static void note_producer(ss_analysis *a, ss_an_partition *P, int64_t pid) {
    if (pid < 0) return;
    bool created;
    uint32_t *v = km_get(&a->km_producer, pid, true, &created);
    if (!v) {
        a->nomem = true;
        return;
    }
    if (created) P->producers++;
}

static bool push_batch(ss_analysis *a, uint32_t part, uint32_t seg, const ss_batch *b, int32_t nrec, uint64_t content) {
    an_batch ab;
    memset(&ab, 0, sizeof ab);
    ab.base_offset = b->base_offset;
    ab.last_offset = b->last_offset;
    ab.max_ts = b->max_timestamp;
    ab.pid = b->producer_id;
    ab.content = content;
    ab.position = b->position;
    ab.part = part;
    ab.seg = seg;
    ab.size = b->size;
    ab.txn = NONE32;
    ab.base_seq = b->base_sequence;
    ab.count = b->count;
    ab.nrec = nrec;
    ab.epoch = b->producer_epoch;
    ab.magic = (uint8_t)b->magic;
    ab.flags = (uint8_t)((b->transactional ? BF_TXN : 0) | (b->control ? BF_CTRL : 0) |
                         (b->timestamp_type == SS_TS_LOG_APPEND ? BF_LAT : 0) | (b->producer_id < 0 ? BF_NOPID : 0));
    size_t before = a->batches.n;
    if (before >= MAX_BATCHES) {
        a->nomem = true;
        return false;
    }
    SS_VEC_PUSH(a->batches, ab, a->nomem = true);
    return a->batches.n > before;
}

/* Compaction evidence (offset holes between batches, records missing inside a
 * batch, an empty batch, a delete horizon), over the whole partition, the
 * window's batches or not. an_track_hole() runs before the batch is processed
 * (a sequence gap after a hole is explained by it), an_track_batch() after. */
void an_track_hole(ss_analysis *a, ss_an_partition *P, const ss_batch *b, bool seg_first) {
    bool damaged = a->damage_seen > a->damage_mark; /* damage was skipped since the last batch */
    a->damage_mark = a->damage_seen;
    if (a->prev_last >= 0 && a->prev_last < INT64_MAX && b->base_offset > a->prev_last + 1) {
        if (damaged) { /* the offsets of what could not be read: not compaction's work */
            a->holes_damage++;
            return;
        }
        P->offset_gaps++;
        /* a hole, until the end of the partition's log says whether the cleaner's (an_finish_holes) */
        ss_an_hole h = {(uint32_t)(P - a->parts), a->prev_last + 1, b->base_offset - 1, 0, seg_first, false};
        h.records = ss_offset_span(h.from, h.to);
        SS_VEC_PUSH(a->holes, h, a->nomem = true);
        /* batches the cleaner dropped leave holes inside a segment, but so do records lost
         * otherwise: a hole is no evidence of the cleaner by itself (the evidence is read apart,
         * an_track_batch, and judged at the end: an_finish_sessions); a hole between two
         * segments may as well be a segment gone missing */
        if (seg_first) a->holes_boundary++;
        else a->holes_seg++;
    }
}

/* A batch whose base offset is not above `before`, the last offset read before it in its segment.
 * Kafka never writes one: an append whose first offset is not above the log end is refused
 * (UnifiedLog.append: UnexpectedAppendOffsetException across appends, OffsetsOutOfOrderException
 * within one), so the log was put together otherwise (a segment concatenated with itself by a
 * botched restore, a copy taken while the file was appended to). Its records sit at offsets
 * already read: not copies of them (a copy has an offset of its own), so they get no cause and
 * count in no figure (sessions, transactions, the LSO are built on the offsets read first). On
 * recovery (LogLoader.recoverLog, which runs over the segments above the recovery point, or
 * every one after an unclean shutdown) rebuilding the segment's offset index meets the offset
 * that is not above the last (OffsetIndex.append: InvalidOffsetException), truncates the
 * segment to its base offset and deletes the segments after it: Kafka would keep the offsets
 * below that base offset. One damage event a run of such batches; the partition keeps the span. */
void an_offset_order(ss_analysis *a, uint32_t part, uint32_t seg, const ss_batch *b, int64_t before) {
    ss_an_partition *P = &a->parts[part];
    const ss_input_partition *ip = P->input;
    int64_t seg_base = seg < ip->nsegments && ip->segments[seg].name_offset >= 0 ? ip->segments[seg].name_offset : -1;
    int64_t nrec = header_records(b);
    P->repeated_batches++;
    if (nrec > 0 && !b->control) P->repeated_records += (uint64_t)nrec;
    if (P->repeated_first < 0 || b->base_offset < P->repeated_first) P->repeated_first = b->base_offset;
    if (b->last_offset > P->repeated_last) P->repeated_last = b->last_offset;
    if (P->recovery_keeps_below < 0 && seg_base >= 0) P->recovery_keeps_below = seg_base;
    P->damaged_bytes += b->size;
    if (a->in_repeat) return;
    a->in_repeat = true;
    char keep[160] = "";
    if (seg_base >= 0)
        snprintf(keep, sizeof keep,
                 "; Kafka's recovery (LogLoader.recoverLog) would truncate this segment to its base "
                 "offset %" PRId64 ", keeping the offsets below it",
                 seg_base);
    ss_error e = an_error(SS_E_OFFSET_ORDER, b->position, b->base_offset, b->size,
                          "batch offsets %" PRId64 "..%" PRId64 " is not above offset %" PRId64
                          " read before it in this segment: offsets repeat (Kafka refuses such an append); the "
                          "records at offsets already read are not copies and are left out%s",
                          b->base_offset, b->last_offset, before, keep);
    an_add_damage(a, part, seg, &e, b);
}

/* damaged: the batch could not be read (its records are lost, said as damage): its header is no
 * evidence of the cleaner. A negative recordsCount, or one a damaged batch holds, is damage, not
 * records the cleaner removed (LogCleaner.cleanInto keeps a batch's offsets, writing fewer records). */
void an_track_batch(ss_analysis *a, ss_an_partition *P, const ss_batch *b, bool damaged) {
    if (b->last_offset > a->prev_last) a->prev_last = b->last_offset;
    if (damaged || b->magic < 2 || b->control) return;
    if ((b->count >= 0 && (int64_t)b->count < batch_span(b)) || b->has_delete_horizon) {
        P->compacted = true;
        P->cleaner_evidence = true;
    }
}

/* The batch last pushed: marked outside the window, or partly inside (nin of its nrec kept
 * records). */
static void mark_window(ss_analysis *a, uint32_t bi, uint32_t nin, int32_t nrec, bool header_in) {
    an_batch *ab = &a->batches.v[bi];
    if (ab->flags & BF_CTRL || nrec <= 0) {
        if (!header_in) ab->flags |= BF_OUT;
        return;
    }
    if (nin == 0) ab->flags |= BF_OUT;
    else if (nin < (uint32_t)nrec) {
        ab->flags |= BF_PART;
        an_partial pp = {bi, nin};
        SS_VEC_PUSH(a->partial, pp, a->nomem = true);
    }
}

bool an_copy_in_window(const ss_analysis *a, uint32_t batch, uint32_t delta, int64_t ts) {
    const an_batch *b = &a->batches.v[batch];
    if (b->flags & BF_OUT) return false;
    if (!(b->flags & BF_PART)) return true;
    const ss_an_opts *o = &a->o;
    int64_t off = ss_add64(b->base_offset, (int64_t)delta);
    return off >= o->from_offset && off <= o->to_offset && ts >= o->since_ms && ts <= o->until_ms;
}

/* The transaction a data batch of a producer belongs to: its figures, and listed when the batch
 * lies in the window. */
static void txn_data(ss_analysis *a, uint32_t part, const ss_batch *b, uint32_t bi, int32_t nrec, int64_t first_ts,
                     bool in_window) {
    uint32_t ti = an_txn_for_data(a, part, b);
    if (ti == NONE32) return;
    ss_an_txn *t = &a->txns.v[ti];
    if (t->batches == 0)
        t->first_record_timestamp = b->timestamp_type == SS_TS_LOG_APPEND ? b->max_timestamp : first_ts;
    t->records += (uint64_t)nrec;
    t->batches++;
    if (b->last_offset > t->last_offset) t->last_offset = b->last_offset;
    t->producer_last_timestamp = b->max_timestamp;
    if (in_window) a->txn_listed.v[ti] = 1;
    a->batches.v[bi].txn = ti;
}

/* The decisions on one batch read by a unit (an_ev, units.c's read_batch). */
void an_apply_batch(ss_analysis *a, uint32_t part, uint32_t seg, an_ev *e, const an_unit *u) {
    ss_an_partition *P = &a->parts[part];
    const ss_batch *b = &e->b;
    seen_batch(a, P, b);
    switch (e->verdict) {
    case AV_HIDDEN:
        P->hidden_below_log_start += e->count;
        if (b->transactional && b->producer_id >= 0) {
            /* remembered for the marker that closes its transaction (an_txn_marker) */
            uint32_t *h = km_get(&a->km_hidden, b->producer_id, true, NULL);
            if (h) *h = 1;
            else a->nomem = true;
        }
        return;
    case AV_ERROR:
    case AV_CONTROL:
        for (uint32_t i = 0; i < e->n; i++) an_txn_marker(a, part, b, &u->mark.v[e->first + i], e->in_window);
        if (e->verdict == AV_ERROR) {
            if (e->err != AN_NONE32) an_add_damage(a, part, seg, &u->err.v[e->err], e->too_large ? NULL : b);
            if (!e->too_large) {
                P->damaged_bytes += b->size;
                a->damage_seen++;
                if (!b->control) a->holes_damage++; /* its records are missing: a sequence gap over them is damage's */
                return;
            }
            P->skipped_large_batches++;
            if (b->control) return;
            /* Skipped for --max-batch-bytes, not damaged: its header still counts
             * (offsets, the producer session and its sequences, the transaction),
             * only its records are not read. */
            if (!push_batch(a, part, seg, b, 0, 0)) return;
            uint32_t bi = (uint32_t)(a->batches.n - 1);
            mark_window(a, bi, 0, 0, e->in_window);
            if (e->in_window) count_batch(P, b);
            if (b->producer_id >= 0) {
                if (e->in_window) note_producer(a, P, b->producer_id);
                an_session_batch(a, part, b, 0, e->in_window);
            }
            if (b->transactional && b->producer_id >= 0) txn_data(a, part, b, bi, 0, -1, e->in_window);
            return;
        }
        if (!push_batch(a, part, seg, b, 0, 0)) return;
        /* its first record's type (an_batch.base_seq): the markers are its COMMIT and ABORT
         * records, taken only in a transactional batch of a producer */
        an_batch *cb = &a->batches.v[a->batches.n - 1];
        if (!b->transactional || b->producer_id < 0) cb->base_seq = AN_CTRL_UNKNOWN;
        else if (e->count == 0 || e->n == 0) cb->base_seq = AN_CTRL_OTHER;
        else if (e->n == e->count) cb->base_seq = u->mark.v[e->first].type;
        else cb->base_seq = AN_CTRL_UNKNOWN;
        mark_window(a, (uint32_t)(a->batches.n - 1), 0, 0, e->in_window);
        if (!e->in_window) return;
        count_batch(P, b);
        P->control_batches++;
        P->control_records += e->count;
        note_producer(a, P, b->producer_id);
        return;
    default: break;
    }
    /* AV_DATA */
    P->outside_window += e->outside;
    P->hidden_below_log_start += e->hidden;
    int32_t nrec = (int32_t)e->n;
    if (nrec == 0 && e->total > 0) return; /* every record below the log start */
    if (!push_batch(a, part, seg, b, nrec, e->content)) return;
    uint32_t bi = (uint32_t)(a->batches.n - 1);
    e->bi = bi;
    bool in = e->nin > 0 || (e->total == 0 && e->in_window); /* an empty batch: by its header */
    mark_window(a, bi, e->nin, nrec, in);
    if (in) count_batch(P, b);
    P->records += e->nin;
    if (e->ts_min <= e->ts_max) {
        if (!P->has_timestamps || e->ts_min < P->min_timestamp) P->min_timestamp = e->ts_min;
        if (!P->has_timestamps || e->ts_max > P->max_timestamp) P->max_timestamp = e->ts_max;
        P->has_timestamps = true;
    }
    if (b->producer_id >= 0) {
        if (in) note_producer(a, P, b->producer_id);
        if (e->hidden && nrec > 0) {
            /* part of the batch is below the log start: the session holds the records
             * kept, their offsets and sequences only */
            const an_rec *R = u->rec.v + e->first;
            uint32_t dlo = R[0].delta, dhi = R[0].delta;
            int64_t ts_max = INT64_MIN;
            for (int32_t i = 0; i < nrec; i++) {
                if (R[i].delta < dlo) dlo = R[i].delta;
                if (R[i].delta > dhi) dhi = R[i].delta;
                if (R[i].ts > ts_max) ts_max = R[i].ts;
            }
            ss_batch kept = *b;
            kept.base_offset = ss_add64(b->base_offset, (int64_t)dlo);
            kept.last_offset = ss_add64(b->base_offset, (int64_t)dhi);
            if (b->base_sequence >= 0)
                kept.base_sequence = ss_increment_sequence(b->base_sequence, (int32_t)mod_seq(dlo));
            if (ts_max >= 0) kept.max_timestamp = ts_max;
            an_session_batch(a, part, &kept, nrec, in);
        } else {
            an_session_batch(a, part, b, nrec, in);
        }
    } else {
        P->non_idempotent_records += e->nin;
    }
    if (b->transactional && b->producer_id >= 0) txn_data(a, part, b, bi, nrec, e->first_ts, in);
}

static void begin_partition(ss_analysis *a, uint32_t part) {
    a->cur_part = part;
    km_clear(&a->km_session);
    km_clear(&a->km_epoch);
    km_clear(&a->km_producer);
    km_clear(&a->km_txn);
    km_clear(&a->km_hidden);
    a->prev_last = -1;
    a->log_end = -1;
    a->holes_seg = a->holes_boundary = a->holes_damage = 0;
    a->damage_seen = a->damage_mark = 0;
    a->part_first_batch = (uint32_t)a->batches.n;
    a->txn_first = a->txns.n;
    if (part == 0 || a->topic_id[part] != a->topic_id[part - 1]) a->topic_first = (uint32_t)a->batches.n;
}

/* Finish partitions up to (not including) `upto`, beginning each in turn. */
void an_advance_to(ss_analysis *a, int64_t upto) {
    while (a->cur_part < upto) {
        if (a->cur_part >= 0) an_finish_partition(a, (uint32_t)a->cur_part, a->txn_first);
        if (a->cur_part + 1 >= (int64_t)a->nparts) {
            a->cur_part = (int64_t)a->nparts;
            break;
        }
        begin_partition(a, (uint32_t)(a->cur_part + 1));
    }
}
