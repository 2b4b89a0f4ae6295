/* segscan - verify's state (internal): what its files share. */
#ifndef SS_VERIFY_VERIFY_H
#define SS_VERIFY_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/map.h"
#include "base/paths.h"
#include "inputs/cursor.h"
#include "segscan/files.h"
#include "segscan/inputs.h"
#include "segscan/verify.h"

/* At most this many findings of one check in one file are listed; the rest are counted in one more. */
#define FILE_CHECK_CAP 200

enum { VB_VALID = 1, VB_CONTROL = 2, VB_TXN = 4 };

/* What verify keeps of one batch of a segment. */
typedef struct vbatch {
    uint64_t pos;
    int64_t base, last;
    int64_t max_ts;
    uint32_t size;
    int32_t ple; /* partitionLeaderEpoch, -1 for legacy */
    int8_t magic;
    uint8_t flags;
} vbatch;

typedef struct vbatches {
    vbatch *v;
    size_t n, cap;
} vbatches;

/* Producer state of one producer id, as ProducerStateManager keeps it. */
typedef struct vproducer {
    int64_t pid; /* -1: empty slot */
    int16_t epoch;
    bool has_batch;
    int32_t last_seq;
    int64_t last_offset;
    int32_t offset_delta;
    int64_t timestamp;
    int32_t coord_epoch;
    int64_t txn_first; /* currentTxnFirstOffset, -1 none */
} vproducer;

/* Producer id -> its state (base/map.h; walked in slot order: vf_pmap_at). */
typedef struct pmap {
    ss_map m;
    /* Entries asked for a negative producer id (none): a fresh one each time, never
     * held, but counted toward the table's growth as they always were, so that the
     * slots, in whose order findings are listed, stay where they were. */
    size_t ghosts;
    vproducer ghost;
} pmap;

/* An ABORT or COMMIT marker of the segment being read. */
typedef struct vmarker {
    int64_t pid;
    int64_t offset;
    uint64_t pos;
    bool abort;
    bool matched;
    bool open;     /* the log shows data of the transaction this marker ends */
    int64_t first; /* the aborted transaction's first offset the log implies */
    int64_t lso;   /* the last stable offset the log implies */
} vmarker;

typedef struct mvec {
    vmarker *v;
    size_t n, cap;
} mvec;

/* A snapshot file of the partition directory. */
typedef struct vsnap {
    char *path;
    int64_t offset;
    ss_errkind kind;
    ss_error err;
    ss_snapshot snap;
} vsnap;

/* Per leader-epoch-checkpoint entry: what the batches said about it. */
typedef struct epinfo {
    uint64_t bad;           /* batches whose epoch differs */
    uint64_t first_bad_pos; /* the first of them */
    int64_t first_bad_offset;
    int32_t first_bad_epoch;
    const char *first_bad_file;
    bool inside; /* the epoch starts inside a batch */
    uint64_t inside_pos;
    const char *inside_file;
    int64_t inside_base, inside_last;
} epinfo;

typedef struct vctx {
    const ss_input_partition *ip;
    ss_verify_cb cb;
    void *cbctx;
    ss_vstats *st;
    ss_decoder *dec;
    bool nomem;

    bool complete;         /* every segment of the directory is among the inputs */
    int64_t active_offset; /* name offset of the directory's last segment, -1 unknown */

    pmap ps;            /* producer state so far */
    int64_t log_first;  /* first base offset of a valid batch in the partition, -1 none */
    int64_t log_end;    /* last offset + 1 of the last valid batch, -1 none */
    int32_t last_epoch; /* partitionLeaderEpoch of the last valid batch, -1 none (or legacy) */
    bool have_prev;
    int64_t prev_last; /* last offset of the previous valid batch (partition-wide) */
    /* signs of the cleaner: records missing inside batches, empty batches, a delete horizon, a
     * segment starting after its name, or a cleaner-offset-checkpoint entry (an offset hole alone
     * is not one: records lost leave one too) */
    bool compacted;
    /* offset holes between two segments: [first, last] missing, and the segment after them */
    struct vgap {
        int64_t first, last;
        const char *path;
    } gaps[16];
    size_t ngaps;
    uint64_t more_gaps;
    const char *prev_seg_path;
    int64_t prev_seg_last; /* last offset of the previous segment holding a valid batch */

    /* the producer snapshot compared with the log */
    vsnap *snaps;
    size_t nsnaps, capsnaps;
    vsnap *newest; /* the newest readable snapshot, or NULL */
    bool captured;
    pmap at_snap; /* producer state at newest->offset */

    /* leader-epoch-checkpoint */
    char *epoch_path;
    bool have_epochs;
    ss_textfile epoch_file;      /* read by the files room (ss_textfile_read) */
    const char *text_path;       /* the text file whose checks run (vf_text_finding) */
    const ss_checkpoint *epochs; /* &epoch_file.ckpt when have_epochs */
    epinfo *epi;
    uint64_t noentry_batches; /* batches with an epoch but no entry covering them */
    uint64_t noentry_pos;
    int64_t noentry_offset;
    int32_t noentry_epoch;
    const char *noentry_file;

    /* per-file caps */
    const char *cap_file;
    struct {
        const char *check;
        uint64_t n;
    } caps[8];
    size_t ncaps;
} vctx;

typedef struct segres {
    vbatches bs;
    mvec markers;
    uint64_t end_complete; /* end of the last complete batch (where a tail starts) */
    uint64_t file_size;
    bool monotonic;       /* valid batches' offsets increase */
    int64_t last_offset;  /* last offset of the last valid batch, -1 none */
    int64_t first_offset; /* base offset of the first valid batch, -1 none */
} segres;

#define FIND(c, check, file, pos, off, ...)                                                                            \
    vf_emit((c), (check), vf_check_severity(check), (file), (pos), (off), __VA_ARGS__)

/* A finding about state the log implies: information when the partition shows compaction. */
#define STATE_SEV(c, check) ((c)->compacted ? SS_SEV_NOTICE : vf_check_severity(check))
#define FIND_STATE_CAPPED(c, check, file, pos, off, ...)                                                               \
    do {                                                                                                               \
        if (vf_cap_ok((c), (check))) vf_emit((c), (check), STATE_SEV(c, check), (file), (pos), (off), __VA_ARGS__);    \
    } while (0)

#define FIND_CAPPED(c, check, file, pos, off, ...)                                                                     \
    do {                                                                                                               \
        if (vf_cap_ok((c), (check))) FIND((c), (check), (file), (pos), (off), __VA_ARGS__);                            \
    } while (0)

/* ---- checks and findings (checks.c) ---- */
ss_severity vf_check_severity(const char *name);
/* A finding of check: the check's kind, severity sev (the check's, or information). */
void vf_emit(vctx *c, const char *check, ss_severity sev, const char *file, uint64_t pos, int64_t off, const char *fmt,
             ...) __attribute__((format(printf, 7, 8)));
/* Findings of one check in one file past FILE_CHECK_CAP are counted, not listed:
 * vf_caps_reset when a file begins, vf_cap_ok before a capped finding, vf_caps_flush at its end. */
void vf_caps_reset(vctx *c, const char *file);
bool vf_cap_ok(vctx *c, const char *check);
void vf_caps_flush(vctx *c);
char *vf_sibling(const char *log_path, const char *suffix);
bool vf_file_exists(const char *path);
bool vf_digits20(const char *name);
bool vf_vb_push(vbatches *a, const vbatch *b);
bool vf_mk_push(mvec *a, const vmarker *m);
void vf_pmap_init(pmap *m);
void vf_pmap_free(pmap *m);
vproducer *vf_pmap_find(const pmap *m, int64_t pid);
vproducer *vf_pmap_get(pmap *m, int64_t pid);
bool vf_pmap_copy(pmap *dst, const pmap *src);
/* Slot i of cap (vf_pmap_slots): its entry, NULL when empty; vf_pmap_slot: the slot of an entry. */
static inline size_t vf_pmap_slots(const pmap *m) { return m->m.cap; }
static inline const vproducer *vf_pmap_at(const pmap *m, size_t i) { return ss_map_slot(&m->m, i, NULL); }
static inline size_t vf_pmap_slot(const pmap *m, const vproducer *p) { return ss_map_index(&m->m, p); }

/* ---- the leader-epoch-checkpoint (verify_epochs.c) ---- */
void vf_epoch_path_init(vctx *c);
void vf_load_epochs(vctx *c);
/* A valid batch of the log, in order, against the checkpoint. */
void vf_epoch_batch(vctx *c, const char *file, const vbatch *b);
void vf_finish_epochs(vctx *c);

/* ---- the other text files (verify_text.c) ---- */
/* A text file's findings from ss_textfile_check, as verify's findings. */
void vf_text_finding(void *vctx_, const ss_text_finding *f);
/* partition.metadata and, in __cluster_metadata-0, quorum-state (span: the log
 * the partition's walk found). */
void vf_check_partition_text(vctx *c, const ss_log_span *span);

/* ---- the producer state (verify_state.c) ---- */
/* The state so far, kept as the newest snapshot's offset is reached. */
void vf_capture_snapshot_state(vctx *c);
void vf_state_data(vctx *c, const ss_batch *b);
/* A COMMIT or ABORT marker (the txnindex's entries follow from the ABORTs). */
void vf_state_marker(vctx *c, const ss_batch *b, const ss_record *r, mvec *markers, uint64_t pos);

/* ---- one segment's .log (verify_log.c) ---- */
/* Walk the .log at path (opened as seg; name_offset from its name, -1 none;
 * active: the directory's last segment), filling R for the index checks. */
/* Reads the segment the cursor opened (SS_PC_SEGMENT) up to its SS_PC_SEGMENT_END. */
void vf_walk_log(vctx *c, const char *path, ss_pcursor *pc, int64_t name_offset, bool active, segres *R);

/* ---- the files beside a segment (verify_files.c) ---- */
void vf_check_offset_index(vctx *c, const char *log_path, int64_t base, bool active, const segres *R);
void vf_check_time_index(vctx *c, const char *log_path, ss_segment *seg, int64_t base, bool active, const segres *R);
void vf_check_txn_index(vctx *c, const char *log_path, int64_t base, segres *R);
/* The newest readable producer snapshot against the state the log implies. */
void vf_check_snapshots(vctx *c);

#endif
