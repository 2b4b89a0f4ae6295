/* segscan - verify a partition: the .log segments against themselves and
 * against the files beside them (.index, .timeindex, .txnindex, producer
 * .snapshot, leader-epoch-checkpoint). See include/segscan/verify.h for the
 * list of checks; the Kafka facts they rest on are in DESIGN.md section 3:
 *
 *  - OffsetIndex: LogSegment.append adds (largest offset of the append,
 *    position of its first batch) every index.interval.bytes; on a follower an
 *    append holds several batches. The log cleaner appends the same way.
 *  - TimeIndex: (max timestamp so far, offset of that timestamp) at the same
 *    moments; TimeIndex.maybeAppend only appends a larger timestamp and never
 *    a smaller offset. Which offset "holds" the timestamp differs by version
 *    (the record carrying it, or the batch's last offset).
 *  - Both are preallocated (10 MiB by default) and zero-filled while their
 *    segment is the active one; they are trimmed when it rolls or closes.
 *  - TransactionIndex: one AbortedTxn(producerId, firstOffset, lastOffset =
 *    the marker's offset, lastStableOffset) per ABORT marker, in the segment
 *    holding the marker. firstOffset is the producer's currentTxnFirstOffset
 *    (the marker's own offset for an empty transaction); lastStableOffset is
 *    the first offset of the earliest other open transaction, else the
 *    marker's offset + 1 (ProducerStateManager.lastStableOffset).
 *  - ProducerStateManager: every batch with a producer id updates its entry
 *    (a data batch with another epoch replaces the batch metadata; a
 *    transactional data batch opens a transaction when none is open; a marker
 *    closes it, sets the coordinator epoch and, with another epoch, clears the
 *    batch metadata). A snapshot at offset N holds the state after every batch
 *    below N.
 *  - LeaderEpochFileCache: (epoch, first offset written in that epoch),
 *    strictly increasing in both; truncated from the start to the log start
 *    offset, so the first entry may start before (or inside) the first batch.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/grow.h"
#include "base/reader.h"
#include "format/walker.h"
#include "segscan/base.h"
#include "segscan/files.h"
#include "segscan/verify.h"
#include "verify/verify.h"

void ss_verify_opts_default(ss_verify_opts *o) {
    memset(o, 0, sizeof *o);
    o->max_batch_bytes = SS_DEFAULT_MAX_BATCH_BYTES;
}

/* ---- the partition directory ------------------------------------------------------ */

static int cmp_snap(const void *a, const void *b) {
    const vsnap *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Count the directory's segments, note the last one, read its snapshots. */
static void scan_dir(vctx *c) {
    const ss_input_partition *ip = c->ip;
    c->complete = false;
    c->active_offset = ip->nsegments ? ip->segments[ip->nsegments - 1].name_offset : -1;
    if (!ip->is_dir) return;
    DIR *d = opendir(ip->path);
    if (!d) {
        FIND(c, "unreadable", ip->path, 0, -1, "cannot list the partition directory: %s", strerror(errno));
        return;
    }
    size_t logs = 0;
    int64_t max_log = -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *n = e->d_name;
        if (strlen(n) < 20 || !vf_digits20(n)) continue;
        if (!strcmp(n + 20, ".log")) {
            logs++;
            int64_t o = vf_offset20(n);
            if (o > max_log) max_log = o;
        } else if (!strcmp(n + 20, ".snapshot")) {
            vsnap *ns = realloc(c->snaps, (c->nsnaps + 1) * sizeof *ns);
            if (!ns) {
                c->nomem = true;
                break;
            }
            c->snaps = ns;
            vsnap *s = &c->snaps[c->nsnaps];
            memset(s, 0, sizeof *s);
            s->path = vf_path_join(ip->path, n);
            if (!s->path) {
                c->nomem = true;
                break;
            }
            s->offset = vf_offset20(n);
            c->nsnaps++;
        }
    }
    closedir(d);
    size_t given = 0;
    for (size_t j = 0; j < ip->nsegments; j++)
        if (!ip->segments[j].temporary) given++;
    c->complete = given == logs;
    if (max_log >= 0) c->active_offset = max_log;
    if (c->nsnaps > 1) qsort(c->snaps, c->nsnaps, sizeof *c->snaps, cmp_snap);
    for (size_t k = 0; k < c->nsnaps; k++) {
        vsnap *s = &c->snaps[k];
        s->kind = ss_snapshot_read(s->path, &s->snap, &s->err);
        c->st->snapshot_files++;
        if (s->kind == SS_E_OK) c->newest = s;
    }
    if (!c->complete) {
        c->newest = NULL;
        if (c->nsnaps || vf_file_exists(c->epoch_path ? c->epoch_path : ""))
            FIND(c, "incomplete-input", ip->path, 0, -1,
                 "%zu of the directory's %zu segments were given: the producer snapshot and "
                 "leader-epoch-checkpoint are not compared with the log",
                 given, logs);
    }
}

/* ---- batch lookups ---------------------------------------------------------------- */

/* The batch starting at byte pos, or -1. */
static long batch_at(const vbvec *bs, uint64_t pos) {
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
static bool ends_at_or_after(const vbvec *bs, size_t from, int64_t o, bool monotonic) {
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
static long batch_holding(const vbvec *bs, int64_t o, bool monotonic) {
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
static bool record_max_ts(vctx *c, ss_segment *seg, const vb *x, int64_t *out) {
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

static void check_offset_index(vctx *c, const char *log_path, int64_t base, bool active, const segres *R) {
    char *path;
    uint64_t n;
    ss_index *ix = index_begin(c, log_path, ".index", SS_INDEX_OFFSET, "offset index", base, active, R, &path, &n);
    if (!ix) return;
    c->st->index_files++;
    c->st->index_entries += n;
    const vbvec *bs = &R->bs;
    ss_offset_entry prev = {0, 0};
    for (uint64_t i = 0; i < n; i++) {
        ss_offset_entry e = ss_index_offset_entry(ix, i);
        uint64_t at = i * 8;
        if (i > 0 && (e.offset <= prev.offset || e.position <= prev.position))
            FINDC(c, "index-order", path, at, e.offset,
                  "entry %" PRIu64 " (offset %" PRId64 ", position %" PRId32 ") does not follow entry %" PRIu64
                  " (offset %" PRId64 ", position %" PRId32 "): offsets and positions must increase",
                  i, e.offset, e.position, i - 1, prev.offset, prev.position);
        prev = e;
        if (e.offset < base) {
            FINDC(c, "index-entry", path, at, e.offset,
                  "entry %" PRIu64 ": offset %" PRId64 " is below the segment's base offset %" PRId64, i, e.offset,
                  base);
            continue;
        }
        if (e.position < 0 || (uint64_t)e.position >= R->end_complete) {
            FINDC(c, "index-past-eof", path, at, e.offset,
                  "entry %" PRIu64 " (offset %" PRId64 ", position %" PRId32 "): the position is past the end of the "
                  "log's batches (byte %" PRIu64 " of %" PRIu64 ")",
                  i, e.offset, e.position, R->end_complete, R->file_size);
            continue;
        }
        if (R->last_offset < 0 || e.offset > R->last_offset) {
            FINDC(c, "index-past-eof", path, at, e.offset,
                  "entry %" PRIu64 " (offset %" PRId64 ", position %" PRId32 "): the offset is past the log's last "
                  "offset %" PRId64,
                  i, e.offset, e.position, R->last_offset);
            continue;
        }
        long k = batch_at(bs, (uint64_t)e.position);
        if (k < 0) {
            FINDC(c, "index-entry", path, at, e.offset,
                  "entry %" PRIu64 " (offset %" PRId64 ", position %" PRId32 "): no batch starts at that position", i,
                  e.offset, e.position);
            continue;
        }
        const vb *x = &bs->v[k];
        if (x->base > e.offset) {
            FINDC(c, "index-entry", path, at, e.offset,
                  "entry %" PRIu64 " (offset %" PRId64 ", position %" PRId32 "): the batch there holds offsets %" PRId64
                  "..%" PRId64 ", above the entry's offset",
                  i, e.offset, e.position, x->base, x->last);
            continue;
        }
        if (!ends_at_or_after(bs, (size_t)k, e.offset, R->monotonic))
            FINDC(c, "index-entry", path, at, e.offset,
                  "entry %" PRIu64 " (offset %" PRId64 ", position %" PRId32 "): no batch at or after that position "
                  "ends at offset %" PRId64 " (the batch there holds %" PRId64 "..%" PRId64 ")",
                  i, e.offset, e.position, e.offset, x->base, x->last);
    }
    index_end(c, ix, path);
}

static void check_time_index(vctx *c, const char *log_path, ss_segment *seg, int64_t base, bool active,
                             const segres *R) {
    char *path;
    uint64_t n;
    ss_index *ix = index_begin(c, log_path, ".timeindex", SS_INDEX_TIME, "time index", base, active, R, &path, &n);
    if (!ix) return;
    c->st->timeindex_files++;
    c->st->timeindex_entries += n;
    const vbvec *bs = &R->bs;
    ss_time_entry prev = {0, 0};
    for (uint64_t i = 0; i < n; i++) {
        ss_time_entry e = ss_index_time_entry(ix, i);
        uint64_t at = i * 12;
        if (i > 0 && (e.timestamp <= prev.timestamp || e.offset < prev.offset))
            FINDC(c, "timeindex-order", path, at, e.offset,
                  "entry %" PRIu64 " (timestamp %" PRId64 ", offset %" PRId64 ") does not follow entry %" PRIu64
                  " (timestamp %" PRId64 ", offset %" PRId64 "): timestamps must increase, offsets must not decrease",
                  i, e.timestamp, e.offset, i - 1, prev.timestamp, prev.offset);
        prev = e;
        if (e.offset < base) {
            FINDC(c, "timeindex-entry", path, at, e.offset,
                  "entry %" PRIu64 ": offset %" PRId64 " is below the segment's base offset %" PRId64, i, e.offset,
                  base);
            continue;
        }
        if (R->last_offset < 0 || e.offset > R->last_offset) {
            FINDC(c, "timeindex-past-eof", path, at, e.offset,
                  "entry %" PRIu64 " (timestamp %" PRId64 ", offset %" PRId64 "): the offset is past the log's last "
                  "offset %" PRId64,
                  i, e.timestamp, e.offset, R->last_offset);
            continue;
        }
        long k = batch_holding(bs, e.offset, R->monotonic);
        if (k < 0) {
            FINDC(c, "timeindex-entry", path, at, e.offset,
                  "entry %" PRIu64 " (timestamp %" PRId64 ", offset %" PRId64 "): no batch holds that offset", i,
                  e.timestamp, e.offset);
            continue;
        }
        const vb *x = &bs->v[k];
        if (x->max_ts == e.timestamp) continue;
        int64_t m;
        if (record_max_ts(c, seg, x, &m) && m == e.timestamp) continue;
        FINDC(c, "timeindex-entry", path, at, e.offset,
              "entry %" PRIu64 " (timestamp %" PRId64 ", offset %" PRId64 "): the batch %" PRId64 "..%" PRId64
              " at byte %" PRIu64 " has maxTimestamp %" PRId64,
              i, e.timestamp, e.offset, x->base, x->last, x->pos, x->max_ts);
    }
    index_end(c, ix, path);
}

/* ---- .txnindex ------------------------------------------------------------------ */

static void check_txn_index(vctx *c, const char *log_path, int64_t base, segres *R) {
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
            if (ss_txnindex_entry(t, i, path, &a, &err, NULL, 0) != SS_E_OK) {
                FINDC(c, "txnindex-damage", path, at, -1, "entry %" PRIu64 ": %s", i, err.msg);
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
                    FINDC(c, "txnindex-no-marker", path, at, a.last_offset,
                          "entry %" PRIu64 " (producerId %" PRId64 ", firstOffset %" PRId64 ", lastOffset %" PRId64
                          "): the marker at offset %" PRId64 " is %s of producer %" PRId64,
                          i, a.producer_id, a.first_offset, a.last_offset, a.last_offset,
                          other->abort ? "an ABORT" : "a COMMIT", other->pid);
                else
                    FINDC(c, "txnindex-no-marker", path, at, a.last_offset,
                          "entry %" PRIu64 " (producerId %" PRId64 ", firstOffset %" PRId64 ", lastOffset %" PRId64
                          "): no ABORT marker of that producer at offset %" PRId64 " in %s",
                          i, a.producer_id, a.first_offset, a.last_offset, a.last_offset, log_path);
                continue;
            }
            m->matched = true;
            /* Only what the log can show: a marker of a transaction without data in the log (its data
             * in deleted segments), a first offset or LSO below the log start (deleted data). */
            if (!m->open) continue;
            if (a.first_offset != m->first && a.first_offset >= c->log_first)
                FINDSC(c, "txnindex-entry", path, at, a.last_offset,
                       "entry %" PRIu64 " (producerId %" PRId64 ", lastOffset %" PRId64 "): firstOffset %" PRId64
                       ", the log says the transaction began at offset %" PRId64,
                       i, a.producer_id, a.last_offset, a.first_offset, m->first);
            if (a.last_stable_offset != m->lso && a.last_stable_offset >= c->log_first)
                FINDSC(c, "txnindex-entry", path, at, a.last_offset,
                       "entry %" PRIu64 " (producerId %" PRId64 ", lastOffset %" PRId64 "): lastStableOffset %" PRId64
                       ", the log implies %" PRId64,
                       i, a.producer_id, a.last_offset, a.last_stable_offset, m->lso);
        }
        if (t->tail_bytes)
            FINDC(c, "txnindex-damage", path, t->entries * SS_ABORTED_TXN_SIZE, -1,
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
        FINDSC(c, "txnindex-missing-entry", log_path, m->pos, m->offset,
               "the ABORT marker of producer %" PRId64 " at offset %" PRId64 " has no entry in %s%s", m->pid, m->offset,
               path, present ? "" : " (the file does not exist)");
    }
    vf_caps_flush(c);
    free(path);
}

/* ---- the producer snapshot ------------------------------------------------------- */

static void check_snapshots(vctx *c) {
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
    bool *seen = calloc(m->cap ? m->cap : 1, sizeof *seen);
    if (!seen) {
        c->nomem = true;
        return;
    }
    vf_caps_reset(c, s->path);
    for (size_t i = 0; i < s->snap.n; i++) {
        const ss_producer_entry *e = &s->snap.entries[i];
        uint64_t at = 10 + (uint64_t)i * SS_SNAPSHOT_ENTRY_SIZE;
        const pst *p = vf_pmap_find(m, e->producer_id);
        if (p) seen[p - m->slots] = true;
        if (!p) {
            if (!e->has_batch)
                FINDC(c, "snapshot-unexplained", s->path, at, -1,
                      "producer %" PRId64 " (epoch %d) has no batch metadata and no batch in the log below offset "
                      "%" PRId64,
                      e->producer_id, (int)e->producer_epoch, s->offset);
            else if (c->log_first < 0 || e->last_offset < c->log_first)
                FINDC(c, "snapshot-unexplained", s->path, at, e->last_offset,
                      "producer %" PRId64 ": its last batch (offset %" PRId64
                      ") is below the log's first offset%s%" PRId64 "%s: data in deleted segments",
                      e->producer_id, e->last_offset, c->log_first < 0 ? " (none" : " ",
                      c->log_first < 0 ? (int64_t)0 : c->log_first, c->log_first < 0 ? ")" : "");
            else
                FINDSC(c, "snapshot-state", s->path, at, e->last_offset,
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
            FINDSC(c, "snapshot-state", s->path, at, e->has_batch ? e->last_offset : -1,
                   "producer %" PRId64 " at offset %" PRId64 ": %s", e->producer_id, s->offset, diff);
        else if (batch_info)
            FINDC(c, "snapshot-unexplained", s->path, at, -1,
                  "producer %" PRId64 " has no batch metadata in the snapshot; the log's last batch of it ends at "
                  "offset %" PRId64,
                  e->producer_id, p->last_offset);
    }
    vf_caps_flush(c);
    vf_caps_reset(c, s->path);
    for (size_t i = 0; i < m->cap; i++) {
        const pst *p = &m->slots[i];
        if (p->pid < 0 || seen[i]) continue;
        if (p->txn_first >= 0)
            FINDSC(c, "snapshot-state", s->path, 0, p->txn_first,
                   "producer %" PRId64 " has a transaction open since offset %" PRId64 " in the log, but is not in the "
                   "snapshot at offset %" PRId64,
                   p->pid, p->txn_first, s->offset);
        else
            FINDC(c, "snapshot-missing-producer", s->path, 0, p->last_offset,
                  "producer %" PRId64 " (epoch %d, last offset %" PRId64 ") is not in the snapshot at offset %" PRId64
                  ": expired, or removed by the broker",
                  p->pid, (int)p->epoch, p->last_offset, s->offset);
    }
    vf_caps_flush(c);
    free(seen);
}

/* ---- one partition ----------------------------------------------------------------- */

ss_errkind ss_verify_partition(const ss_inputs *in, size_t i, const ss_verify_opts *opts, ss_verify_cb cb, void *ctx,
                               ss_vstats *stats) {
    ss_verify_opts def;
    if (!opts) {
        ss_verify_opts_default(&def);
        opts = &def;
    }
    vctx c;
    memset(&c, 0, sizeof c);
    c.ip = ss_inputs_at(in, i);
    c.cb = cb;
    c.cbctx = ctx;
    c.st = stats;
    c.log_first = -1;
    c.log_end = -1;
    c.dec = ss_decoder_new(opts->max_batch_bytes ? opts->max_batch_bytes : SS_DEFAULT_MAX_BATCH_BYTES);
    stats->partitions++;
    if (!c.dec) {
        FIND(&c, "unreadable", c.ip->path, 0, -1, "out of memory");
        return SS_E_NOMEM;
    }
    vf_epoch_path_init(&c);
    scan_dir(&c);
    vf_load_epochs(&c);
    const ss_input_partition *ip = c.ip;
    for (size_t j = 0; j < ip->nsegments && !c.nomem; j++) {
        const ss_input_segment *sg = &ip->segments[j];
        const char *path = sg->path ? sg->path : ip->name;
        ss_segment *seg;
        ss_error err;
        if (ss_inputs_open_segment(in, i, j, &seg, &err) != SS_E_OK) {
            FIND(&c, "unreadable", path, 0, -1, "%s", err.msg);
            continue;
        }
        stats->segments++;
        int64_t base = sg->name_offset;
        if (base < 0 && sg->path && !ss_offset_from_filename(sg->path, &base)) base = -1;
        bool active = sg->name_offset >= 0 ? sg->name_offset == c.active_offset : j + 1 == ip->nsegments;
        segres R;
        memset(&R, 0, sizeof R);
        bool had_prev = c.have_prev;
        int64_t prev_last = c.prev_last;
        const char *prev_path = c.prev_seg_path;
        if (had_prev && sg->name_offset >= 0 && sg->name_offset <= prev_last)
            FIND(&c, "segment-name", path, 0, sg->name_offset,
                 "the file name says offset %" PRId64 ", not above the last offset %" PRId64 " of %s", sg->name_offset,
                 prev_last, prev_path);
        vf_caps_reset(&c, path);
        vf_walk_log(&c, path, seg, sg->name_offset, active, &R);
        vf_caps_flush(&c);
        if (sg->path && base >= 0 && !sg->temporary && !c.nomem) {
            check_offset_index(&c, sg->path, base, active, &R);
            check_time_index(&c, sg->path, seg, base, active, &R);
            check_txn_index(&c, sg->path, base, &R);
        }
        free(R.bs.v);
        free(R.markers.v);
        ss_segment_close(seg);
    }
    if (!c.nomem) {
        check_snapshots(&c);
        vf_finish_epochs(&c);
    }
    for (size_t k = 0; k < c.ps.cap; k++)
        if (c.ps.slots[k].pid >= 0) stats->producers++;
    if (c.nomem) FIND(&c, "unreadable", ip->path, 0, -1, "out of memory: the checks of this partition are incomplete");
    ss_errkind rc = c.nomem ? SS_E_NOMEM : SS_E_OK;
    for (size_t k = 0; k < c.nsnaps; k++) {
        ss_snapshot_free(&c.snaps[k].snap);
        free(c.snaps[k].path);
    }
    free(c.snaps);
    free(c.ps.slots);
    free(c.at_snap.slots);
    if (c.have_epochs || c.epochs.n) ss_checkpoint_free(&c.epochs);
    free(c.epi);
    free(c.epoch_path);
    ss_decoder_free(c.dec);
    ss_window_free(&c.win);
    return rc;
}
