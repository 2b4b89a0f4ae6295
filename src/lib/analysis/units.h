/* segscan - the reading half of the analysis (internal).
 *
 * The analysis reads its inputs in units: a unit is a byte range of one
 * segment (a whole small segment, or about UNIT bytes of a large one, cut at
 * batch boundaries). A reader (one per thread) turns a unit into facts: one
 * an_ev per event in the segment (a batch, with what it holds, or damage, or
 * the end), one an_rec per record the analysis keeps (fingerprint, offset,
 * timestamp) and the transaction markers of control batches. Reading depends
 * only on the bytes and on options fixed for the run, never on what other
 * units hold, so units can be read by several threads in any order; the
 * coordinator (pipeline.c, apply.c) then applies their facts strictly in partition and
 * offset order, which keeps every result identical to a one-thread run.
 *
 * How a unit is read: a fast path copies the segment with pread(2) into a
 * small reused window (mapping every page of a large file costs several times
 * what copying it does) and frames batches there while every batch is whole and
 * passes its CRC; anything else (damage, a tail, the end, a file cut while it
 * is read) is handed to the segment walker over the mapping for exactly one
 * event, so damage reports, resync and live-file handling stay the walker's.
 */
#ifndef SS_ANREAD_H
#define SS_ANREAD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <xxhash.h>

#include "base/grow.h"
#include "segscan/analyze.h"

#define AN_NONE32 UINT32_MAX
/* A unit stops early with this many records or events (4 MiB of facts each), so
 * that highly compressed or tiny batches do not make a unit's facts large; the
 * coordinator reads on from where it stopped. */
#define AN_UNIT_MAX_RECORDS ((size_t)1 << 17)
#define AN_UNIT_MAX_EVENTS ((size_t)1 << 14)

/* A record kept by the analysis. */
enum { AR_FP = 1, AR_MATCH = 2 };
typedef struct an_rec {
    uint64_t lo, hi; /* XXH3-128 of the fingerprinted field, with AR_FP */
    int64_t ts;
    uint32_t delta; /* offset - batch base offset (mod 2^32) */
    uint32_t flags;
} an_rec;

/* A COMMIT or ABORT marker of a transactional control batch. */
typedef struct an_mark {
    int64_t offset;
    int32_t coordinator_epoch;
    int16_t type;
} an_mark;

enum an_ev_kind { AE_BATCH = 1, AE_DAMAGE, AE_END };

/* What became of a batch (the branches of the coordinator's apply_batch). Every batch is
 * read whatever the window: the window only decides what is listed (in_window, nin). */
enum an_verdict {
    AV_HIDDEN = 1, /* data batch below the log start offset: `count` records */
    AV_ERROR,      /* its records could not be read (err); markers before the error count */
    AV_CONTROL,    /* control batch read: `count` records, markers [first, first + n) */
    AV_DATA,       /* data batch read: kept records [first, first + n) */
};

typedef struct an_ev {
    ss_batch b; /* the header (b.data is NULL) */
    uint8_t kind, verdict;
    bool too_large; /* AV_ERROR: decompresses past --max-batch-bytes (skipped, not damage) */
    bool in_window; /* the batch's header is in the window (its producer, offsets, maxTimestamp) */
    bool has_hdr;   /* AE_DAMAGE: b holds the header of the entry whose CRC failed */
    uint32_t first, n;
    uint32_t err;  /* index in the unit's errors (AV_ERROR, AE_DAMAGE, the notice of AE_END) */
    uint32_t bi;   /* the coordinator's batch index once applied, else AN_NONE32 */
    int32_t total; /* AV_DATA: records read, kept or not */
    uint32_t nin;  /* AV_DATA: kept records inside the window */
    uint64_t count;
    uint64_t outside, hidden; /* AV_DATA: records outside the window (kept) / below the log start (not kept) */
    uint64_t content;         /* AV_DATA without producer id: hash of the stored records */
    int64_t first_ts;         /* AV_DATA: the first record's timestamp (-1: no record) */
    int64_t ts_min, ts_max;   /* AV_DATA: of the window's records' timestamps >= 0; ts_min > ts_max: none */
    uint64_t tail;            /* AE_END: unread bytes at the end */
    bool tail_zero;           /* AE_END: the tail is all zeros (preallocated), not cut data */
} an_ev;

/* A unit of work. The planner fills the first part, a reader the second. */
typedef struct an_unit {
    uint32_t part, seg; /* partition index, segment index in it */
    const ss_segment *s;
    uint64_t limit;                 /* the segment's size when opened */
    int64_t read_from, read_to;     /* the batches it gives (ss_input_segment_reads): another
                                     * replica gives the others */
    uint64_t start;                 /* where to start: a batch boundary, or (resync) a nominal position */
    bool resync;                    /* start is nominal: begin at the first plausible batch at or after it */
    uint64_t end;                   /* stop at the first event boundary at or after it; UINT64_MAX: the end */
    size_t max_records, max_events; /* ... or once it holds this many (then `full`) */
    /* results */
    uint64_t started, stopped; /* first and last position read (event boundaries) */
    bool ended;                /* an AE_END event: the segment is over */
    bool full;                 /* stopped before `end`: as many records or events as a unit holds */
    uint64_t records;          /* records read (for progress) */
    size_t nfp;                /* records with a fingerprint */
    bool nomem;
    SS_VEC(an_ev) ev;
    SS_VEC(an_rec) rec;
    SS_VEC(an_mark) mark;
    SS_VEC(ss_error) err;
} an_unit;

/* What a reader needs to know of a partition (fixed for the run). */
typedef struct an_pinfo {
    int64_t log_start;  /* checkpoint's log start offset, -1 */
    bool dups_excluded; /* internal topic left out of the duplicate analysis */
    bool part_match;    /* explain --offset names this partition */
    bool coordinator;   /* __consumer_offsets or __transaction_state: batches written by a coordinator */
    bool exported;      /* a data partition read from an export: records hold export cells (inputs/export_in.h) */
} an_pinfo;

/* Per thread. */
typedef struct an_reader {
    ss_decoder *dec;
    XXH3_state_t *st128, *st64;
    ss_window win; /* the window (ss_window_fill) */
    bool fast;     /* use the pread fast path */
} an_reader;

bool an_reader_init(an_reader *r, size_t max_batch_bytes, bool fast);
void an_reader_free(an_reader *r);

void an_unit_clear(an_unit *u); /* results emptied, capacity kept */
void an_unit_free(an_unit *u);

/* Read unit u. Results land in u (u->nomem when memory ran out). */
void an_unit_read(an_reader *r, const ss_an_opts *o, const an_pinfo *pi, an_unit *u);

/* The first position in [from, stop) holding a whole, CRC-valid entry that another plausible
 * entry follows (or the limit), read through win; `stop` when none there does (the limit when
 * stop is past it). Only a guess at a batch boundary: the reader of the unit before must end
 * exactly there (the analysis's coordinator checks it and reads the unit again from where it did
 * when not; so does the export's merge). A unit's reader passes its end as the stop: searching to
 * the limit made every unit of a long run of zeros (a segment preallocated by
 * log.preallocate=true) or of garbage scan the rest of the file. */
uint64_t an_find_boundary_before(ss_window *win, const ss_segment *s, uint64_t limit, uint64_t from, uint64_t stop);

#endif
