/* segscan verify - one segment's .log: CRCs and framing, offsets within
 * and across segments, the file name against its first batch, an incomplete
 * tail; each batch also goes to the producer state (verify_state.c) and the
 * leader-epoch check (verify_epochs.c), and its position and offsets to the
 * index checks (verify_files.c). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/javaint.h"
#include "verify/verify.h"

/* ---- one segment: the .log -------------------------------------------------------- */

/* Start reading batch b's records; false (a finding made) when they cannot be. */
static bool records_begin(vctx *c, const char *path, const ss_batch *b, ss_rec_iter *it) {
    ss_error err;
    if (ss_records_begin(c->dec, b, it, &err) == SS_E_OK) return true;
    if (err.kind == SS_E_TOO_LARGE) FIND(c, "batch-too-large", path, b->position, b->base_offset, "%s", err.msg);
    else FIND(c, "log-damage", path, b->position, b->base_offset, "%s [%s]", err.msg, ss_errkind_name(err.kind));
    return false;
}

/* Every record of data batch b decodes (a consumer could read them all), as
 * kafka-dump-log --deep-iteration reads them: a CRC proves the bytes are the
 * ones written, not that a consumer can read them. */
static void data_records(vctx *c, const char *path, const ss_batch *b) {
    ss_rec_iter it;
    ss_record r;
    ss_error err;
    if (!records_begin(c, path, b, &it)) return;
    int n;
    while ((n = ss_records_next(&it, &r, &err)) == 1) {}
    if (n < 0) FIND(c, "log-damage", path, b->position, b->base_offset, "%s [%s]", err.msg, ss_errkind_name(err.kind));
}

static void control_batch(vctx *c, const char *path, const ss_batch *b, mvec *markers) {
    ss_rec_iter it;
    ss_record r;
    ss_error err;
    if (!records_begin(c, path, b, &it)) return;
    int n = ss_records_next(&it, &r, &err);
    if (n < 0) {
        FIND(c, "log-damage", path, b->position, b->base_offset, "%s [%s]", err.msg, ss_errkind_name(err.kind));
        return;
    }
    /* An empty control batch: the cleaner removed the marker, nothing to apply. */
    if (n == 0 || b->producer_id < 0) return;
    if (r.control_type == SS_CTRL_ABORT || r.control_type == SS_CTRL_COMMIT) {
        if (r.control_type == SS_CTRL_ABORT) c->st->abort_markers++;
        vf_state_marker(c, b, &r, markers, b->position);
    }
}

void vf_walk_log(vctx *c, const char *path, ss_pcursor *pc, int64_t name_offset, bool active, segres *R) {
    const ss_event *ev = &pc->ev;
    bool first_in_seg = true;
    int64_t seg_prev_last = 0;
    bool seg_have_prev = false;
    R->monotonic = true;
    R->last_offset = -1;
    R->first_offset = -1;
    R->file_size = ss_segment_size(pc->s);
    c->st->log_bytes += R->file_size;
    for (;;) {
        ss_pc_kind k = ss_pcursor_next(pc);
        if (k == SS_PC_SEGMENT_END) break;
        if (k == SS_PC_DAMAGE) {
            if (ev->err.kind == SS_E_CRC_MISMATCH)
                FIND_CAPPED(c, "batch-crc", path, ev->err.position, ev->err.base_offset, "%s", ev->err.msg);
            else
                FIND_CAPPED(c, "log-damage", path, ev->err.position, ev->err.base_offset, "%s (%" PRIu64 " bytes) [%s]",
                            ev->err.msg, ev->err.length, ss_errkind_name(ev->err.kind));
            continue;
        }
        const ss_batch *b = &ev->batch;
        c->st->batches++;
        if (b->control) c->st->control_batches++;
        vbatch x = {.pos = b->position,
                    .base = b->base_offset,
                    .last = b->last_offset,
                    .max_ts = b->max_timestamp,
                    .size = b->size,
                    .ple = b->partition_leader_epoch,
                    .magic = b->magic};
        if (b->crc_valid) x.flags |= VB_VALID;
        if (b->control) x.flags |= VB_CONTROL;
        if (b->transactional) x.flags |= VB_TXN;
        if (!vf_vb_push(&R->bs, &x)) {
            c->nomem = true;
            return;
        }
        if (!b->crc_valid) {
            R->monotonic = false; /* its header is not trusted: no binary searches over it */
            continue;             /* its damage event follows */
        }

        /* offsets */
        bool first_seen = first_in_seg;
        if (first_in_seg) {
            first_in_seg = false;
            R->first_offset = b->base_offset;
            if (name_offset >= 0 && name_offset > b->base_offset)
                FIND(c, "segment-name", path, 0, b->base_offset,
                     "the file name says offset %" PRId64 ", above its first batch's base offset %" PRId64, name_offset,
                     b->base_offset);
            if (c->have_prev && b->base_offset <= c->prev_last)
                FIND(c, "segment-overlap", path, b->position, b->base_offset,
                     "the first batch (offsets %" PRId64 "..%" PRId64 ") overlaps %s, whose last offset is %" PRId64,
                     b->base_offset, b->last_offset, c->prev_seg_path, c->prev_last);
        } else if (seg_have_prev && b->base_offset <= seg_prev_last) {
            R->monotonic = false;
            FIND_CAPPED(c, "offset-order", path, b->position, b->base_offset,
                        "batch %" PRId64 "..%" PRId64 " does not follow the previous batch's last offset %" PRId64,
                        b->base_offset, b->last_offset, seg_prev_last);
        }
        if (b->last_offset < b->base_offset) R->monotonic = false;
        /* Signs of the log cleaner, which removes data and transaction markers: the state the log
         * implies is then not the state the broker had, and findings built on it are information.
         * An offset hole is none by itself: the cleaner's dropped batches leave one, and so do
         * records lost. */
        bool hole = c->have_prev && c->prev_last != INT64_MAX && b->base_offset > c->prev_last + 1;
        if (b->has_delete_horizon || (b->magic >= 2 && b->count == 0) ||
            (b->magic >= 2 && (uint64_t)(uint32_t)b->count < ss_offset_span(b->base_offset, b->last_offset)) ||
            (first_seen && name_offset >= 0 && b->base_offset > name_offset))
            c->compacted = true;
        if (hole && first_seen) { /* cleaning, or a segment gone: decided at the end (vf_check_gaps) */
            if (c->ngaps < sizeof c->gaps / sizeof *c->gaps)
                c->gaps[c->ngaps++] = (struct vgap){c->prev_last + 1, b->base_offset - 1, path};
            else c->more_gaps++;
        }
        seg_have_prev = true;
        seg_prev_last = b->last_offset;
        R->last_offset = b->last_offset;
        if (c->log_first < 0) c->log_first = b->base_offset;
        if (ss_next_offset(b->last_offset) > c->log_end) c->log_end = ss_next_offset(b->last_offset);
        c->last_epoch = b->magic >= 2 ? b->partition_leader_epoch : -1;
        c->have_prev = true;
        c->prev_last = b->last_offset;

        /* producer state, the snapshot's view of it, leader epochs */
        if (c->newest && !c->captured && b->base_offset >= c->newest->offset) vf_capture_snapshot_state(c);
        bool producer = b->magic >= 2 && b->producer_id >= 0;
        if (producer && b->control) {
            control_batch(c, path, b, &R->markers);
        } else {
            data_records(c, path, b);
            if (producer) vf_state_data(c, b);
        }
        vf_epoch_batch(c, path, &R->bs.v[R->bs.n - 1]);
    }
    R->end_complete = ev->file_size - ev->tail_bytes;
    if (ev->tail_kind == SS_E_INCOMPLETE_TAIL)
        FIND(c, "incomplete-tail", path, R->end_complete, -1,
             "%" PRIu64 " %s after the last complete batch %s not form a complete batch (unclean shutdown or a "
             "cut copy; Kafka's recovery would truncate %s)",
             ev->tail_bytes, ev->tail_bytes == 1 ? "byte" : "bytes", ev->tail_bytes == 1 ? "does" : "do",
             ev->tail_bytes == 1 ? "it" : "them");
    else if (ev->tail_kind == SS_E_ZERO_TAIL && !active)
        FIND(c, "log-zero-tail", path, R->end_complete, -1,
             "%" PRIu64 " zero bytes after the last batch of a segment that is not the active one", ev->tail_bytes);
    if (ev->err.kind == SS_E_GREW) FIND(c, "file-grew", path, ev->err.position, -1, "%s", ev->err.msg);
    if (R->last_offset >= 0) {
        c->prev_seg_path = path;
        c->prev_seg_last = R->last_offset;
    }
}
