/* segscan verify - the files beside a segment against its .log: the
 * .index and .timeindex entries (at batch boundaries, increasing, not past
 * the log; a preallocated zero tail beside the active segment is fine), the
 * .txnindex against the ABORT markers, and the newest producer snapshot
 * against the state the log implies at its offset. */
#include "base/reader.h"
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "verify/verify.h"

/* ---- batch lookups ---------------------------------------------------------------- */

/* The batch starting at byte pos, or -1. */
static long batch_at(const vbatches *bs, uint64_t pos) {
    size_t lo = 0, hi = bs->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (bs->v[mid].pos < pos) lo = mid + 1;
        else hi = mid;
    }
    return lo < bs->n && bs->v[lo].pos == pos ? (long)lo : -1;
}

/* A batch at index >= from whose last offset is o. With increasing offsets
 * (and no CRC-failed batch, whose header is not trusted and may break the
 * order) a binary search; else a scan. */
static bool ends_at_or_after(const vbatches *bs, size_t from, int64_t o, bool monotonic) {
    if (monotonic) {
        size_t lo = from, hi = bs->n;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (bs->v[mid].last < o) lo = mid + 1;
            else hi = mid;
        }
        return lo < bs->n && bs->v[lo].last == o;
    }
    for (size_t j = from; j < bs->n; j++)
        if (bs->v[j].last == o) return true;
    return false;
}

/* The valid batch holding offset o, or -1. */
static long batch_holding(const vbatches *bs, int64_t o, bool monotonic) {
    if (monotonic) {
        size_t lo = 0, hi = bs->n;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (bs->v[mid].last < o) lo = mid + 1;
            else hi = mid;
        }
        for (size_t j = lo; j < bs->n && bs->v[j].base <= o; j++)
            if ((bs->v[j].flags & VB_VALID) && bs->v[j].last >= o) return (long)j;
        return -1;
    }
    for (size_t j = 0; j < bs->n; j++)
        if ((bs->v[j].flags & VB_VALID) && bs->v[j].base <= o && o <= bs->v[j].last) return (long)j;
    return -1;
}

/* The largest record timestamp of the batch at b (Kafka's DumpLogSegments computes it so). */
static bool record_max_ts(vctx *c, ss_segment *seg, const vbatch *x, int64_t *out) {
    const uint8_t *data = ss_segment_data(seg);
    uint64_t size = ss_segment_size(seg);
    if (x->pos + x->size > size) return false;
    ss_batch b;
    ss_error err;
    if (ss_batch_parse(data + x->pos, x->size, x->pos, false, c->dec, &b, &err) != SS_E_OK) return false;
    ss_rec_iter it;
    ss_record r;
    if (ss_records_begin(c->dec, &b, &it, &err) != SS_E_OK) return false;
    int64_t m = -1;
    int n;
    while ((n = ss_records_next(&it, &r, &err)) == 1)
        if (r.timestamp > m) m = r.timestamp;
    if (n < 0) return false;
    *out = m;
    return true;
}

/* ---- .index and .timeindex --------------------------------------------------------- */

/* How many slots hold entries: a zero-filled preallocated tail is not entries. */
static uint64_t index_entries(const ss_index *ix, bool *prealloc) {
    *prealloc = false;
    if (!ix->zero_tail) return ix->entries;
    *prealloc = true;
    uint64_t n = ix->listed;
    if (n == 1) {
        bool zero = true;
        for (uint32_t i = 0; i < ix->entry_size && i < ix->file_size; i++)
            if (ix->data[i]) zero = false;
        if (zero) n = 0;
    }
    return n;
}

static void note_prealloc(vctx *c, const char *path, const ss_index *ix, uint64_t n, bool prealloc, bool active) {
    if (prealloc && !active && ix->file_size > n * ix->entry_size)
        FIND(c, "index-preallocated", path, n * ix->entry_size, -1,
             "%" PRIu64 " zero bytes from entry %" PRIu64 " on: the preallocated space of an active segment, but this "
             "segment is not the active one (indexes are trimmed when a segment rolls)",
             ix->file_size - n * ix->entry_size, n);
    if (!prealloc && ix->file_size % ix->entry_size)
        FIND(c, "index-size", path, ix->entries * ix->entry_size, -1,
             "%" PRIu64 " bytes, not a multiple of the %" PRIu32 "-byte entry (%" PRIu64 " bytes after the last "
             "whole entry)",
             ix->file_size, ix->entry_size, ix->file_size % ix->entry_size);
}

/* The index of kind `kind` beside log_path (suffix ".index" or ".timeindex", `what` its name in
 * messages), opened for checking: a missing one is reported when the log holds bytes, an
 * unreadable one is reported, and the entries in use are counted (*n) with the preallocated tail
 * noted. NULL when there is nothing to check; else close it with index_end. */
static ss_index *index_begin(vctx *c, const char *log_path, const char *suffix, ss_index_kind kind, const char *what,
                             int64_t base, bool active, const segres *R, char **path, uint64_t *n) {
    *path = vf_sibling(log_path, suffix);
    if (!*path) return NULL;
    struct stat st;
    ss_index *ix = NULL;
    ss_error err;
    if (stat(*path, &st) != 0 && errno == ENOENT) {
        if (R->file_size > 0)
            FIND(c, "index-missing", *path, 0, -1, "no %s beside %s (%" PRIu64 " bytes); not checked", what, log_path,
                 R->file_size);
    } else if (ss_index_open(*path, kind, base, &ix, &err) != SS_E_OK) {
        FIND(c, "unreadable", *path, 0, -1, "%s", err.msg);
        ix = NULL;
    }
    if (!ix) {
        free(*path);
        *path = NULL;
        return NULL;
    }
    vf_caps_reset(c, *path);
    bool prealloc;
    *n = index_entries(ix, &prealloc);
    note_prealloc(c, *path, ix, *n, prealloc, active);
    return ix;
}

static void index_end(vctx *c, ss_index *ix, char *path) {
    vf_caps_flush(c);
    ss_index_close(ix);
    free(path);
}

void vf_check_offset_index(vctx *c, const char *log_path, int64_t base, bool active, const segres *R) {
    char *path;
    uint64_t n;
    ss_index *ix = index_begin(c, log_path, ".index", SS_INDEX_OFFSET, "offset index", base, active, R, &path, &n);
    if (!ix) return;
    c->st->index_files++;
    c->st->index_entries += n;
    const vbatches *bs = &R->bs;
    ss_offset_entry prev = {0, 0};
    for (uint64_t i = 0; i < n; i++) {
        ss_offset_entry e = ss_index_offset_entry(ix, i);
        uint64_t at = i * ix->entry_size;
        if (i > 0 && (e.offset <= prev.offset || e.position <= prev.position))
            FIND_CAPPED(c, "index-order", path, at, e.offset,
                        "entry %" PRIu64 " (offset %" PRId64 ", position %" PRId32 ") does not follow entry %" PRIu64
                        " (offset %" PRId64 ", position %" PRId32 "): offsets and positions must increase",
                        i, e.offset, e.position, i - 1, prev.offset, prev.position);
        prev = e;
        if (e.offset < base) {
            FIND_CAPPED(c, "index-entry", path, at, e.offset,
                        "entry %" PRIu64 ": offset %" PRId64 " is below the segment's base offset %" PRId64, i,
                        e.offset, base);
            continue;
        }
        if (e.position < 0 || (uint64_t)e.position >= R->end_complete) {
            FIND_CAPPED(c, "index-past-eof", path, at, e.offset,
                        "entry %" PRIu64 " (offset %" PRId64 ", position %" PRId32
                        "): the position is past the end of the "
                        "log's batches (byte %" PRIu64 " of %" PRIu64 ")",
                        i, e.offset, e.position, R->end_complete, R->file_size);
            continue;
        }
        if (R->last_offset < 0 || e.offset > R->last_offset) {
            FIND_CAPPED(c, "index-past-eof", path, at, e.offset,
                        "entry %" PRIu64 " (offset %" PRId64 ", position %" PRId32
                        "): the offset is past the log's last "
                        "offset %" PRId64,
                        i, e.offset, e.position, R->last_offset);
            continue;
        }
        long k = batch_at(bs, (uint64_t)e.position);
        if (k < 0) {
            FIND_CAPPED(c, "index-entry", path, at, e.offset,
                        "entry %" PRIu64 " (offset %" PRId64 ", position %" PRId32
                        "): no batch starts at that position",
                        i, e.offset, e.position);
            continue;
        }
        const vbatch *x = &bs->v[k];
        if (x->base > e.offset) {
            FIND_CAPPED(c, "index-entry", path, at, e.offset,
                        "entry %" PRIu64 " (offset %" PRId64 ", position %" PRId32
                        "): the batch there holds offsets %" PRId64 "..%" PRId64 ", above the entry's offset",
                        i, e.offset, e.position, x->base, x->last);
            continue;
        }
        if (!ends_at_or_after(bs, (size_t)k, e.offset, R->monotonic))
            FIND_CAPPED(c, "index-entry", path, at, e.offset,
                        "entry %" PRIu64 " (offset %" PRId64 ", position %" PRId32
                        "): no batch at or after that position "
                        "ends at offset %" PRId64 " (the batch there holds %" PRId64 "..%" PRId64 ")",
                        i, e.offset, e.position, e.offset, x->base, x->last);
    }
    index_end(c, ix, path);
}

void vf_check_time_index(vctx *c, const char *log_path, ss_segment *seg, int64_t base, bool active, const segres *R) {
    char *path;
    uint64_t n;
    ss_index *ix = index_begin(c, log_path, ".timeindex", SS_INDEX_TIME, "time index", base, active, R, &path, &n);
    if (!ix) return;
    c->st->timeindex_files++;
    c->st->timeindex_entries += n;
    const vbatches *bs = &R->bs;
    ss_time_entry prev = {0, 0};
    for (uint64_t i = 0; i < n; i++) {
        ss_time_entry e = ss_index_time_entry(ix, i);
        uint64_t at = i * ix->entry_size;
        if (i > 0 && (e.timestamp <= prev.timestamp || e.offset < prev.offset))
            FIND_CAPPED(c, "timeindex-order", path, at, e.offset,
                        "entry %" PRIu64 " (timestamp %" PRId64 ", offset %" PRId64 ") does not follow entry %" PRIu64
                        " (timestamp %" PRId64 ", offset %" PRId64
                        "): timestamps must increase, offsets must not decrease",
                        i, e.timestamp, e.offset, i - 1, prev.timestamp, prev.offset);
        prev = e;
        if (e.offset < base) {
            FIND_CAPPED(c, "timeindex-entry", path, at, e.offset,
                        "entry %" PRIu64 ": offset %" PRId64 " is below the segment's base offset %" PRId64, i,
                        e.offset, base);
            continue;
        }
        if (R->last_offset < 0 || e.offset > R->last_offset) {
            FIND_CAPPED(c, "timeindex-past-eof", path, at, e.offset,
                        "entry %" PRIu64 " (timestamp %" PRId64 ", offset %" PRId64
                        "): the offset is past the log's last "
                        "offset %" PRId64,
                        i, e.timestamp, e.offset, R->last_offset);
            continue;
        }
        long k = batch_holding(bs, e.offset, R->monotonic);
        if (k < 0) {
            FIND_CAPPED(c, "timeindex-entry", path, at, e.offset,
                        "entry %" PRIu64 " (timestamp %" PRId64 ", offset %" PRId64 "): no batch holds that offset", i,
                        e.timestamp, e.offset);
            continue;
        }
        const vbatch *x = &bs->v[k];
        if (x->max_ts == e.timestamp) continue;
        int64_t m;
        if (record_max_ts(c, seg, x, &m) && m == e.timestamp) continue;
        FIND_CAPPED(c, "timeindex-entry", path, at, e.offset,
                    "entry %" PRIu64 " (timestamp %" PRId64 ", offset %" PRId64 "): the batch %" PRId64 "..%" PRId64
                    " at byte %" PRIu64 " has maxTimestamp %" PRId64,
                    i, e.timestamp, e.offset, x->base, x->last, x->pos, x->max_ts);
    }
    index_end(c, ix, path);
}

/* ---- .txnindex ------------------------------------------------------------------ */

void vf_check_txn_index(vctx *c, const char *log_path, int64_t base, segres *R) {
    char *path = vf_sibling(log_path, ".txnindex");
    if (!path) return;
    ss_txnindex *t = NULL;
    ss_error err;
    bool present = vf_file_exists(path);
    if (present && ss_txnindex_open(path, base, &t, &err) != SS_E_OK) {
        FIND(c, "unreadable", path, 0, -1, "%s", err.msg);
        free(path);
        return;
    }
    vf_caps_reset(c, path);
    if (t) {
        c->st->txnindex_files++;
        c->st->txnindex_entries += t->entries;
        for (uint64_t i = 0; i < t->entries; i++) {
            ss_aborted_txn a;
            uint64_t at = i * SS_ABORTED_TXN_SIZE;
            if (ss_txnindex_entry(t, i, path, &a, &err) != SS_E_OK) {
                FIND_CAPPED(c, "txnindex-damage", path, at, -1, "entry %" PRIu64 ": %s", i, err.msg);
                continue;
            }
            vmarker *m = NULL, *other = NULL;
            for (size_t k = 0; k < R->markers.n; k++) {
                vmarker *x = &R->markers.v[k];
                if (x->offset != a.last_offset) continue;
                if (x->pid == a.producer_id && x->abort) m = x;
                else other = x;
            }
            if (!m) {
                if (other)
                    FIND_CAPPED(c, "txnindex-no-marker", path, at, a.last_offset,
                                "entry %" PRIu64 " (producerId %" PRId64 ", firstOffset %" PRId64
                                ", lastOffset %" PRId64 "): the marker at offset %" PRId64
                                " is %s of producer %" PRId64,
                                i, a.producer_id, a.first_offset, a.last_offset, a.last_offset,
                                other->abort ? "an ABORT" : "a COMMIT", other->pid);
                else
                    FIND_CAPPED(c, "txnindex-no-marker", path, at, a.last_offset,
                                "entry %" PRIu64 " (producerId %" PRId64 ", firstOffset %" PRId64
                                ", lastOffset %" PRId64 "): no ABORT marker of that producer at offset %" PRId64
                                " in %s",
                                i, a.producer_id, a.first_offset, a.last_offset, a.last_offset, log_path);
                continue;
            }
            m->matched = true;
            /* Only what the log can show: a marker of a transaction without data in the log (its data
             * in deleted segments), a first offset or LSO below the log start (deleted data). */
            if (!m->open) continue;
            if (a.first_offset != m->first && a.first_offset >= c->log_first)
                FIND_STATE_CAPPED(c, "txnindex-entry", path, at, a.last_offset,
                                  "entry %" PRIu64 " (producerId %" PRId64 ", lastOffset %" PRId64
                                  "): firstOffset %" PRId64 ", the log says the transaction began at offset %" PRId64,
                                  i, a.producer_id, a.last_offset, a.first_offset, m->first);
            if (a.last_stable_offset != m->lso && a.last_stable_offset >= c->log_first)
                FIND_STATE_CAPPED(c, "txnindex-entry", path, at, a.last_offset,
                                  "entry %" PRIu64 " (producerId %" PRId64 ", lastOffset %" PRId64
                                  "): lastStableOffset %" PRId64 ", the log implies %" PRId64,
                                  i, a.producer_id, a.last_offset, a.last_stable_offset, m->lso);
        }
        if (t->tail_bytes)
            FIND_CAPPED(c, "txnindex-damage", path, t->entries * SS_ABORTED_TXN_SIZE, -1,
                        "%" PRIu64 " bytes after the last whole %d-byte entry (a partly written entry)", t->tail_bytes,
                        SS_ABORTED_TXN_SIZE);
        ss_txnindex_close(t);
    }
    vf_caps_flush(c);
    vf_caps_reset(c, log_path);
    for (size_t k = 0; k < R->markers.n; k++) {
        const vmarker *m = &R->markers.v[k];
        /* Kafka indexes only transactions with data (ProducerAppendInfo.appendEndTxnMarker emits no
         * CompletedTxn for an empty one). */
        if (!m->abort || m->matched || !m->open) continue;
        FIND_STATE_CAPPED(c, "txnindex-missing-entry", log_path, m->pos, m->offset,
                          "the ABORT marker of producer %" PRId64 " at offset %" PRId64 " has no entry in %s%s", m->pid,
                          m->offset, path, present ? "" : " (the file does not exist)");
    }
    vf_caps_flush(c);
    free(path);
}

/* ---- the producer snapshot ------------------------------------------------------- */

void vf_check_snapshots(vctx *c) {
    for (size_t k = 0; k < c->nsnaps; k++) {
        vsnap *s = &c->snaps[k];
        if (s->kind == SS_E_OK) continue;
        if (s->kind == SS_E_BAD_SNAPSHOT)
            FIND(c, "snapshot-corrupt", s->path, s->err.position, s->offset, "%s", s->err.msg);
        else FIND(c, "unreadable", s->path, 0, -1, "%s", s->err.msg);
    }
    vsnap *s = c->newest;
    if (!s) return;
    vf_capture_snapshot_state(c);
    c->st->snapshots_compared++;
    c->st->snapshot_entries += s->snap.n;
    int64_t leo = c->log_end;
    if (c->active_offset > leo) leo = c->active_offset;
    if (leo >= 0 && s->offset > leo)
        FIND(c, "snapshot-beyond-log-end", s->path, 0, s->offset,
             "the snapshot is at offset %" PRId64 ", above the log end offset %" PRId64
             " (Kafka deletes such snapshots when it loads the log)",
             s->offset, leo);
    const pmap *m = &c->at_snap;
    bool *seen = calloc(vf_pmap_slots(m) ? vf_pmap_slots(m) : 1, sizeof *seen);
    if (!seen) {
        c->nomem = true;
        return;
    }
    vf_caps_reset(c, s->path);
    for (size_t i = 0; i < s->snap.n; i++) {
        const ss_producer_entry *e = &s->snap.entries[i];
        uint64_t at = 10 + (uint64_t)i * SS_SNAPSHOT_ENTRY_SIZE;
        const vproducer *p = vf_pmap_find(m, e->producer_id);
        if (p) seen[vf_pmap_slot(m, p)] = true;
        if (!p) {
            if (!e->has_batch)
                FIND_CAPPED(c, "snapshot-unexplained", s->path, at, -1,
                            "producer %" PRId64
                            " (epoch %d) has no batch metadata and no batch in the log below offset "
                            "%" PRId64,
                            e->producer_id, (int)e->producer_epoch, s->offset);
            else if (c->log_first < 0 || e->last_offset < c->log_first)
                FIND_CAPPED(c, "snapshot-unexplained", s->path, at, e->last_offset,
                            "producer %" PRId64 ": its last batch (offset %" PRId64
                            ") is below the log's first offset%s%" PRId64 "%s: data in deleted segments",
                            e->producer_id, e->last_offset, c->log_first < 0 ? " (none" : " ",
                            c->log_first < 0 ? (int64_t)0 : c->log_first, c->log_first < 0 ? ")" : "");
            else
                FIND_STATE_CAPPED(c, "snapshot-state", s->path, at, e->last_offset,
                                  "producer %" PRId64 ": the snapshot says its last batch ends at offset %" PRId64
                                  ", but the log has no batch of this producer below offset %" PRId64,
                                  e->producer_id, e->last_offset, s->offset);
            continue;
        }
        char diff[400];
        size_t dl = 0;
        diff[0] = 0;
#define DIFF(...)                                                                                                      \
    do {                                                                                                               \
        if (dl < sizeof diff) {                                                                                        \
            int w_ = snprintf(diff + dl, sizeof diff - dl, __VA_ARGS__);                                               \
            if (w_ > 0) dl += (size_t)w_;                                                                              \
        }                                                                                                              \
    } while (0)
        if (e->producer_epoch != p->epoch) DIFF("%sepoch %d (log: %d)", dl ? ", " : "", e->producer_epoch, p->epoch);
        int64_t snap_txn = e->has_txn ? e->current_txn_first_offset : -1;
        bool txn_diff = snap_txn != p->txn_first;
        /* an open transaction that began in deleted data: the log shows a later first offset */
        if (txn_diff && snap_txn >= 0 && snap_txn < c->log_first && p->txn_first >= 0) txn_diff = false;
        if (txn_diff)
            DIFF("%scurrentTxnFirstOffset %" PRId64 " (log: %" PRId64 ")", dl ? ", " : "", snap_txn, p->txn_first);
        bool batch_info = false;
        if (e->has_batch && p->has_batch) {
            if (e->last_offset != p->last_offset)
                DIFF("%slastOffset %" PRId64 " (log: %" PRId64 ")", dl ? ", " : "", e->last_offset, p->last_offset);
            if (e->last_sequence != p->last_seq)
                DIFF("%slastSequence %" PRId32 " (log: %" PRId32 ")", dl ? ", " : "", e->last_sequence, p->last_seq);
        } else if (e->has_batch != p->has_batch) {
            if (e->has_batch) DIFF("%slastOffset %" PRId64 " (log: no batch metadata)", dl ? ", " : "", e->last_offset);
            else batch_info = true;
        }
#undef DIFF
        if (dl)
            FIND_STATE_CAPPED(c, "snapshot-state", s->path, at, e->has_batch ? e->last_offset : -1,
                              "producer %" PRId64 " at offset %" PRId64 ": %s", e->producer_id, s->offset, diff);
        else if (batch_info)
            FIND_CAPPED(c, "snapshot-unexplained", s->path, at, -1,
                        "producer %" PRId64
                        " has no batch metadata in the snapshot; the log's last batch of it ends at "
                        "offset %" PRId64,
                        e->producer_id, p->last_offset);
    }
    vf_caps_flush(c);
    vf_caps_reset(c, s->path);
    for (size_t i = 0; i < vf_pmap_slots(m); i++) {
        const vproducer *p = vf_pmap_at(m, i);
        if (!p || seen[i]) continue;
        if (p->txn_first >= 0)
            FIND_STATE_CAPPED(c, "snapshot-state", s->path, 0, p->txn_first,
                              "producer %" PRId64 " has a transaction open since offset %" PRId64
                              " in the log, but is not in the "
                              "snapshot at offset %" PRId64,
                              p->pid, p->txn_first, s->offset);
        else
            FIND_CAPPED(c, "snapshot-missing-producer", s->path, 0, p->last_offset,
                        "producer %" PRId64 " (epoch %d, last offset %" PRId64
                        ") is not in the snapshot at offset %" PRId64 ": expired, or removed by the broker",
                        p->pid, (int)p->epoch, p->last_offset, s->offset);
    }
    vf_caps_flush(c);
    free(seen);
}
