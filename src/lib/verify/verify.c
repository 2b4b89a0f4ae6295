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
 *
 * The room's files: verify.c (this: a partition, its directory listed for
 * the segments not given and the snapshots), verify_log.c (each .log),
 * verify_files.c (.index, .timeindex, .txnindex, the producer snapshot),
 * verify_state.c (the producer state the log implies), verify_epochs.c (the
 * leader-epoch-checkpoint), verify_text.c (partition.metadata, quorum-state
 * and the log directories' text files, through the files room's checks),
 * checks.c (the checks, findings, shared helpers); verify.h is their shared
 * state.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/grow.h"
#include "base/javaint.h"
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
/* Offsets between two segments that neither holds. Retention deletes only the oldest
 * segments (UnifiedLog.deleteOldSegments moves the log start), so a hole between two
 * segments is the cleaner's work or a segment gone missing. It is the cleaner's only where
 * the log shows cleaning there (below its cleaner-offset-checkpoint entry when it has one)
 * and no file beside it names the missing segment: Kafka deletes a segment's .log, .index,
 * .timeindex and .txnindex together (LogSegment.deleteIfExists) and its producer snapshot
 * with them (UnifiedLog.deleteProducerSnapshots), and a leader-epoch-checkpoint entry
 * starting in the hole says a batch was appended there (LeaderEpochFileCache.assign). */
static void vf_check_gaps(vctx *c) {
    const ss_input_partition *ip = c->ip;
    if (ip->cleaner_offset > 0 && c->log_first >= 0 && ip->cleaner_offset > c->log_first) c->compacted = true;
    for (size_t k = 0; k < c->ngaps; k++) {
        const struct vgap *g = &c->gaps[k];
        const char *named = NULL;
        int64_t at = -1;
        for (size_t j = 0; j < ip->norphans && !named; j++)
            if (ip->orphans[j] >= g->first && ip->orphans[j] <= g->last)
                named = "an index or snapshot file without its .log names", at = ip->orphans[j];
        for (size_t j = 0; j < ip->nepochs && !named; j++)
            if (ip->epochs[j].start_offset >= g->first && ip->epochs[j].start_offset <= g->last)
                named = "a leader-epoch-checkpoint entry starts at", at = ip->epochs[j].start_offset;
        bool cleaned = c->compacted && (ip->cleaner_offset < 0 || g->first < ip->cleaner_offset);
        if (named)
            FIND(c, "segment-gap", g->path, 0, g->last + 1,
                 "offsets %" PRId64 "..%" PRId64 " (%" PRIu64 " offsets) are in no segment, and %s offset %" PRId64
                 ": a missing segment, its records lost",
                 g->first, g->last, ss_offset_span(g->first, g->last), named, at);
        else if (!cleaned)
            FIND(c, "segment-gap", g->path, 0, g->last + 1,
                 "offsets %" PRId64 "..%" PRId64 " (%" PRIu64 " offsets) are in no segment, and the log shows no "
                 "cleaning there: a missing segment, its records lost (retention removes only the oldest segments)",
                 g->first, g->last, ss_offset_span(g->first, g->last));
    }
}

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
            int64_t o = ss_name_offset20(n);
            if (o > max_log) max_log = o;
        } else if (!strcmp(n + 20, ".snapshot")) {
            if (!SS_GROW(c->snaps, c->nsnaps, c->capsnaps, 8)) {
                c->nomem = true;
                break;
            }
            vsnap *s = &c->snaps[c->nsnaps];
            memset(s, 0, sizeof *s);
            s->path = ss_path_join(ip->path, n);
            if (!s->path) {
                c->nomem = true;
                break;
            }
            s->offset = ss_name_offset20(n);
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
    vf_pmap_init(&c.ps);
    vf_pmap_init(&c.at_snap);
    c.ip = ss_inputs_at(in, i);
    c.cb = cb;
    c.cbctx = ctx;
    c.st = stats;
    c.log_first = -1;
    c.log_end = -1;
    c.last_epoch = -1;
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
    ss_pcursor pc;
    ss_pcursor_open(&pc, in, i, c.dec, UINT64_MAX);
    for (ss_pc_kind k; !c.nomem && (k = ss_pcursor_next(&pc)) != SS_PC_END;) {
        size_t j = pc.seg;
        const ss_input_segment *sg = &ip->segments[j];
        const char *path = sg->path ? sg->path : ip->name;
        if (k == SS_PC_UNREADABLE) {
            FIND(&c, "unreadable", path, 0, -1, "%s", pc.err.msg);
            continue;
        }
        if (k != SS_PC_SEGMENT) continue;
        ss_segment *seg = pc.s;
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
        vf_walk_log(&c, path, &pc, sg->name_offset, active, &R);
        vf_caps_flush(&c);
        if (sg->path && base >= 0 && !sg->temporary && !c.nomem) {
            vf_check_offset_index(&c, sg->path, base, active, &R);
            vf_check_time_index(&c, sg->path, seg, base, active, &R);
            vf_check_txn_index(&c, sg->path, base, &R);
        }
        free(R.bs.v);
        free(R.markers.v);
    }
    ss_pcursor_close(&pc);
    if (!c.nomem) {
        vf_check_gaps(&c);
        vf_check_snapshots(&c);
        vf_finish_epochs(&c);
        int64_t leo = c.log_end > c.active_offset ? c.log_end : c.active_offset;
        ss_log_span span = {
            .known = c.complete && leo >= 0, .start = c.log_first, .end = leo, .last_epoch = c.last_epoch};
        vf_check_partition_text(&c, &span);
    }
    stats->producers += c.ps.m.n;
    if (c.nomem) FIND(&c, "unreadable", ip->path, 0, -1, "out of memory: the checks of this partition are incomplete");
    ss_errkind rc = c.nomem ? SS_E_NOMEM : SS_E_OK;
    for (size_t k = 0; k < c.nsnaps; k++) {
        ss_snapshot_free(&c.snaps[k].snap);
        free(c.snaps[k].path);
    }
    free(c.snaps);
    vf_pmap_free(&c.ps);
    vf_pmap_free(&c.at_snap);
    ss_textfile_free(&c.epoch_file);
    free(c.epi);
    free(c.epoch_path);
    ss_decoder_free(c.dec);
    return rc;
}
