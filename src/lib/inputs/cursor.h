/* segscan - the partition cursor (internal): every reader of a partition's
 * log (diff, verify, the decoders of the internal topics, the transaction and
 * group readers) walks it through one of these, so that the order of its
 * segments, the copying path (ss_walker_next_copy), unreadable segments,
 * damage and the records of a batch are handled in one place.
 *
 * One call, one event:
 *
 *   ss_pcursor c;
 *   ss_pcursor_open(&c, in, part, dec, UINT64_MAX);
 *   for (ss_pc_kind k; (k = ss_pcursor_next(&c)) != SS_PC_END;)
 *       switch (k) {
 *       case SS_PC_SEGMENT: ...      c.seg, c.s: a segment opened, its events follow
 *       case SS_PC_UNREADABLE: ...   c.seg, c.err: it could not be opened (skipped)
 *       case SS_PC_BATCH: ...        c.ev.batch (crc_valid false: its damage event follows);
 *                                    ss_pcursor_records(&c) makes its records the next events
 *       case SS_PC_RECORD: ...       c.rec, of that batch (c.ev.batch)
 *       case SS_PC_RECORDS_END: ...  the batch's records are over; c.rec_failed: c.err says why
 *       case SS_PC_DAMAGE: ...       c.ev.err, as the walker reports it
 *       case SS_PC_SEGMENT_END: ...  c.ev is the walker's END event (tail, growth); c.s is
 *                                    still open, closed by the next call
 *       }
 *   ss_pcursor_close(&c);
 *
 * A reader may stop anywhere (ss_pcursor_close). Nothing is allocated per
 * event: the window holding copied batches is the cursor's, reused from
 * segment to segment. */
#ifndef SS_INPUTS_CURSOR_H
#define SS_INPUTS_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/walker.h"
#include "segscan/inputs.h"
#include "segscan/record.h"
#include "segscan/segment.h"

typedef enum ss_pc_kind {
    SS_PC_END = 0,
    SS_PC_SEGMENT,
    SS_PC_UNREADABLE,
    SS_PC_BATCH,
    SS_PC_RECORD,
    SS_PC_RECORDS_END,
    SS_PC_DAMAGE,
    SS_PC_SEGMENT_END,
} ss_pc_kind;

typedef struct ss_kept ss_kept;

typedef struct ss_pcursor {
    /* read by the caller */
    const ss_inputs *in;
    const ss_input_partition *p; /* NULL for a cursor over one file */
    const char *path;            /* that file */
    size_t part;
    size_t seg;    /* the segment the last event is about */
    ss_segment *s; /* open from SS_PC_SEGMENT to the call after SS_PC_SEGMENT_END */
    ss_event ev;   /* BATCH, DAMAGE, SEGMENT_END; a record's batch */
    ss_record rec; /* RECORD */
    ss_error err;  /* UNREADABLE; RECORDS_END when rec_failed */
    bool rec_failed;
    /* the cursor's own */
    ss_decoder *dec;     /* the caller's, or NULL (no legacy inner offsets, no records) */
    const ss_kept *kept; /* segments read before and kept (ss_pcursor_use_kept), or NULL */
    uint64_t limit;      /* bytes read of each segment at most */
    size_t next_seg, nsegs;
    ss_walker w;
    ss_window win;
    ss_rec_iter it;
    bool in_batch, seg_ended;
} ss_pcursor;

/* A cursor over the segments of partition `part` of `in`, in order. dec: the
 * decoder given to the walker and used for records (it stays the caller's);
 * limit: bytes of each segment read at most (UINT64_MAX for all). */
void ss_pcursor_open(ss_pcursor *c, const ss_inputs *in, size_t part, ss_decoder *dec, uint64_t limit);
/* The segments the cursor opens from here on are read from their copies in k where k kept them
 * (inputs/kept.h), the others from their files. */
static inline void ss_pcursor_use_kept(ss_pcursor *c, const ss_kept *k) { c->kept = k; }
/* The next event (the walker's part out of line; a record inline, as readers
 * that compare records call it once per record). */
ss_pc_kind ss_pcursor_next_walk(ss_pcursor *c);
static inline ss_pc_kind ss_pcursor_next(ss_pcursor *c) {
    if (c->in_batch) {
        int n = ss_records_next(&c->it, &c->rec, &c->err);
        if (n == 1) return SS_PC_RECORD;
        c->in_batch = false;
        c->rec_failed = n < 0;
        return SS_PC_RECORDS_END;
    }
    return ss_pcursor_next_walk(c);
}
/* A cursor over one segment file that is not a partition's (a KRaft snapshot):
 * the events of a partition of that one segment. path must outlive the cursor. */
void ss_pcursor_open_file(ss_pcursor *c, const char *path, ss_decoder *dec);
/* After SS_PC_BATCH: its records come next (SS_PC_RECORD..., SS_PC_RECORDS_END).
 * SS_E_OK, or why they cannot be read (c->err filled; no record event follows). */
ss_errkind ss_pcursor_records(ss_pcursor *c);
/* The rest of the current batch's records are skipped. */
static inline void ss_pcursor_skip_records(ss_pcursor *c) { c->in_batch = false; }
/* Closes the open segment and frees the window (not the decoder). */
void ss_pcursor_close(ss_pcursor *c);

#endif
