/* segscan - records to a Parquet file, a row each (segscan/exports.h).
 *
 * Each partition is walked with the partition cursor as every reader of a log
 * is (inputs/cursor.h), or, with several CPUs, read in units by a team of row
 * makers that frame batches as the cursor's walker does and hand it the rest
 * of a segment where they meet anything else (below: "the two halves"); its
 * records are written as rows through the parquet room's writer, which
 * streams a row group out every SS_EXPORT_ROWS_PER_GROUP rows: memory holds
 * two row groups (one filled, one written) and a few slots of batches or
 * units with their rows, whatever the size of the input. Nothing is
 * allocated per record.
 *
 * The column names are those Kafka Connect's and Spark's Kafka source use for
 * the same fields (topic, partition, offset, timestamp, timestampType), and
 * Kafka's RecordBatch names for the batch's fields. A batch whose CRC does not
 * match gives no rows: its bytes are not what the producer sent, and the
 * damage is in the file's metadata and the problems.
 *
 * The fingerprints: valueFingerprint is the analysis's XXH3-128 of the value
 * (analysis/fingerprint.h, the `fingerprint` of `dups --json`) as 16 bytes in
 * the order of its 32 hex digits (the high 64 bits big-endian, then the low);
 * keyFingerprint is the high 64 bits of the XXH3-128 of the key (the first 16
 * hex digits of the `--by key` fingerprint), as a signed 64-bit integer. A
 * null key or value has none; a control record has none (a marker is not a
 * message: two COMMIT markers of one coordinator epoch hold the same bytes).
 */
#include "segscan/exports.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/fingerprint.h"
#include "analysis/units.h"
#include "base/error_set.h"
#include "base/grow.h"
#include "base/javaint.h"
#include "base/reader.h"
#include "base/test_hooks.h"
#include "format/batch.h"
#include "format/kafka_format.h"
#include "format/record.h"
#include "format/segment.h"
#include "format/walker.h"
#include "inputs/cursor.h"
#include "parquet/export_schema.h"
#include "parquet/thrift.h"
#include "parquet/writer.h"
#include "segscan/base.h"
#include "segscan/files.h"
#include "segscan/parquet.h"

size_t ss_export_column_count(void) { return C_COUNT; }
const char *ss_export_column_name(size_t i) { return i < C_COUNT ? ss_export_columns[i].name : NULL; }

struct ss_export {
    ss_export_stats st;
    ss_problems problems;
};

ss_export *ss_export_new(void) { return calloc(1, sizeof(ss_export)); }

void ss_export_free(ss_export *x) {
    if (!x) return;
    ss_problems_free(&x->problems);
    free(x);
}

const ss_export_stats *ss_export_stats_get(const ss_export *x) { return &x->st; }
const ss_problems *ss_export_problems(const ss_export *x) { return &x->problems; }

/* ---- the metadata's JSON --------------------------------------------------------------- */

static void json_str(ss_pqbuf *b, const char *s) {
    ss_pqbuf_byte(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            ss_pqbuf_byte(b, '\\');
            ss_pqbuf_byte(b, *p);
        } else if (*p < 0x20) {
            char e[8];
            snprintf(e, sizeof e, "\\u%04x", *p);
            ss_pqbuf_put(b, e, 6);
        } else {
            ss_pqbuf_byte(b, *p);
        }
    }
    ss_pqbuf_byte(b, '"');
}

static void json_lit(ss_pqbuf *b, const char *s) { ss_pqbuf_put(b, s, strlen(s)); }

static void json_i64(ss_pqbuf *b, int64_t v) {
    char t[24];
    int n = snprintf(t, sizeof t, "%" PRId64, v);
    ss_pqbuf_put(b, t, (size_t)n);
}

static void json_opt_i64(ss_pqbuf *b, int64_t v) {
    if (v < 0) json_lit(b, "null");
    else json_i64(b, v);
}

/* ---- a partition ----------------------------------------------------------------------- */

/* The log directory's meta.properties (KRaft's MetaProperties: node.id, cluster.id): the
 * directory holding a partition directory (a segment file's, two levels up). */
static void broker_of(const ss_input_partition *p, ss_textfile *tf, bool *read) {
    *read = false;
    if (!strcmp(p->path, "-")) return;
    char *dir = strdup(p->path);
    if (!dir) return;
    for (int up = p->is_dir ? 1 : 2; up > 0; up--) {
        char *slash = strrchr(dir, '/');
        if (slash == dir) slash[1] = '\0';
        else if (slash) *slash = '\0';
        else strcpy(dir, ".");
    }
    char *path = ss_path_join(dir, "meta.properties");
    free(dir);
    if (!path) return;
    ss_error e;
    memset(tf, 0, sizeof *tf);
    if (ss_textfile_read(path, SS_TEXT_META_PROPERTIES, tf, &e) == SS_E_OK) *read = true;
    else ss_textfile_free(tf);
    free(path);
}

typedef struct part_state {
    int64_t first, end; /* offsets seen: the first, and the one after the last */
    uint64_t rows, damage;
} part_state;

/* What the whole file says of its brokers: one node.id and one cluster.id when every
 * partition's log directory agrees. */
typedef struct file_ids {
    int64_t node;     /* -1 none yet, -2 several or a partition without one */
    ss_pqbuf cluster; /* empty: none yet */
    bool clusters_differ, cluster_missing;
} file_ids;

static void damage(ss_export *x, part_state *ps, ss_pqbuf *dj, const char *file, const ss_error *e) {
    ps->damage++;
    x->st.damage++;
    ss_error *p =
        ss_problems_add(&x->problems, SS_SEV_WARNING, e->kind, "%s: byte %" PRIu64 ": %s", file, e->position, e->msg);
    if (p) {
        p->position = e->position;
        p->base_offset = e->base_offset;
        p->length = e->length;
    }
    if (dj->n > 1) ss_pqbuf_byte(dj, ',');
    json_lit(dj, "{\"file\":");
    json_str(dj, file);
    json_lit(dj, ",\"position\":");
    json_i64(dj, (int64_t)e->position);
    json_lit(dj, ",\"kind\":");
    json_str(dj, ss_errkind_name(e->kind));
    json_lit(dj, ",\"reason\":");
    json_str(dj, e->msg);
    ss_pqbuf_byte(dj, '}');
}

/* What is the same on every row of a partition. */
typedef struct row_fixed {
    const char *topic;
    uint32_t topic_len;
    int32_t partition, broker, source; /* partition, broker: -1 null */
    bool internal;
} row_fixed;

/* The rows of one batch not yet given to the writer. A batch's own fields (topic, partition,
 * producer, epochs, base offset, flags, codec, ...) are the same on each of its records: they
 * are appended as runs when the batch's rows end (ss_pqw_*_run), not a row at a time; only
 * what differs from record to record is written per record. The output is the same file. */
typedef struct pending {
    size_t n;
    ss_batch b; /* the batch of the n rows */
} pending;

/* The columns the writer keeps as runs (ss_pqw_set_runs): a batch's fields, and the few that only
 * some batches' records give a value of their own (legacy batches' timestampType, markers'
 * controlType and coordinatorEpoch), appended by record_cells as runs of one. Written a row at a
 * time these were about 70 bytes a row (and a level a row each) filled, first touched and read
 * again by the encoder, and the merge of a team of makers' busiest work. */
static const uint8_t run_cols[] = {C_TOPIC,          C_PARTITION,    C_TIMESTAMP_TYPE,    C_PRODUCER_ID,
                                   C_PRODUCER_EPOCH, C_BASE_OFFSET,  C_LEADER_EPOCH,      C_IS_TRANSACTIONAL,
                                   C_IS_CONTROL,     C_CONTROL_TYPE, C_COORDINATOR_EPOCH, C_COMPRESSION,
                                   C_BROKER,         C_SOURCE};

/* A record's own cells (those of run_cols as runs of one). */
static void record_cells(ss_pq_writer *w, const row_fixed *f, const ss_batch *b, const ss_record *r, XXH3_state_t *st) {
    ss_pqw_i64(w, C_OFFSET, r->offset);
    ss_pqw_i64(w, C_TIMESTAMP, r->timestamp);
    if (b->magic < 2) { /* a legacy message's timestamp type is its own */
        const char *tt = ss_tstype_name((int)r->legacy_timestamp_type);
        if (tt) ss_pqw_bytes_run(w, C_TIMESTAMP_TYPE, tt, (uint32_t)strlen(tt), 1);
        else ss_pqw_null_run(w, C_TIMESTAMP_TYPE, 1);
    }
    ss_pqw_i32(w, C_SEQUENCE, r->sequence);
    if (b->control) {
        const char *ct = ss_control_type_name(r->control_type);
        if (ct) ss_pqw_bytes_run(w, C_CONTROL_TYPE, ct, (uint32_t)strlen(ct), 1);
        else ss_pqw_null_run(w, C_CONTROL_TYPE, 1);
        if (r->control_type == SS_CTRL_ABORT || r->control_type == SS_CTRL_COMMIT)
            ss_pqw_i32_run(w, C_COORDINATOR_EPOCH, r->coordinator_epoch, 1);
        else ss_pqw_null_run(w, C_COORDINATOR_EPOCH, 1);
    }
    ss_pqw_i32(w, C_KEY_SIZE, r->key_len);
    ss_pqw_i32(w, C_VALUE_SIZE, r->value_len);
    uint64_t hi, lo;
    if (!b->control && ss_fp_record(st, r, SS_BY_KEY, 0, &hi, &lo)) ss_pqw_i64(w, C_KEY_FP, (int64_t)hi);
    else ss_pqw_null(w, C_KEY_FP);
    if (!b->control && ss_fp_record(st, r, SS_BY_VALUE, 0, &hi, &lo)) {
        ss_pqw_hash128(w, C_VALUE_FP, hi, lo);
    } else {
        ss_pqw_null(w, C_VALUE_FP);
    }
    if (f->internal) {
        if (r->key_len >= 0) ss_pqw_bytes(w, C_KEY, r->key, (uint32_t)r->key_len);
        else ss_pqw_null(w, C_KEY);
        if (r->value_len >= 0) ss_pqw_bytes(w, C_VALUE, r->value, (uint32_t)r->value_len);
        else ss_pqw_null(w, C_VALUE);
    }
}

static void str_run(ss_pq_writer *w, size_t col, const char *s, size_t n) {
    if (s) ss_pqw_bytes_run(w, col, s, (uint32_t)strlen(s), n);
    else ss_pqw_null_run(w, col, n);
}

static void opt_i32_run(ss_pq_writer *w, size_t col, int32_t v, size_t n) {
    if (v >= 0) ss_pqw_i32_run(w, col, v, n);
    else ss_pqw_null_run(w, col, n);
}

/* The batch's cells of n rows. */
static void batch_runs(ss_pq_writer *w, const row_fixed *f, const ss_batch *b, size_t n) {
    ss_pqw_bytes_run(w, C_TOPIC, f->topic, f->topic_len, n);
    opt_i32_run(w, C_PARTITION, f->partition, n);
    if (b->magic >= 2) str_run(w, C_TIMESTAMP_TYPE, ss_tstype_name((int)b->timestamp_type), n);
    ss_pqw_i64_run(w, C_PRODUCER_ID, b->producer_id, n);
    ss_pqw_i32_run(w, C_PRODUCER_EPOCH, b->producer_epoch, n);
    ss_pqw_i64_run(w, C_BASE_OFFSET, b->base_offset, n);
    ss_pqw_i32_run(w, C_LEADER_EPOCH, b->partition_leader_epoch, n);
    ss_pqw_bool_run(w, C_IS_TRANSACTIONAL, b->transactional, n);
    ss_pqw_bool_run(w, C_IS_CONTROL, b->control, n);
    if (!b->control) {
        ss_pqw_null_run(w, C_CONTROL_TYPE, n);
        ss_pqw_null_run(w, C_COORDINATOR_EPOCH, n);
    }
    str_run(w, C_COMPRESSION, ss_codec_name(b->codec), n);
    opt_i32_run(w, C_BROKER, f->broker, n);
    ss_pqw_i32_run(w, C_SOURCE, f->source, n);
    if (!f->internal) {
        ss_pqw_null_run(w, C_KEY, n);
        ss_pqw_null_run(w, C_VALUE, n);
    }
}

/* The batch's cells of the pending rows, and the rows given to the writer. */
static ss_errkind rows_end(ss_pq_writer *w, const row_fixed *f, pending *pd, ss_error *err) {
    size_t n = pd->n;
    if (!n) return SS_E_OK;
    pd->n = 0;
    batch_runs(w, f, &pd->b, n);
    return ss_pqw_rows_done(w, n, err);
}

/* Is b the batch of the pending rows (the fields their runs are made of)? */
static bool same_batch(const ss_batch *a, const ss_batch *b) {
    return a->base_offset == b->base_offset && a->producer_id == b->producer_id &&
           a->producer_epoch == b->producer_epoch && a->partition_leader_epoch == b->partition_leader_epoch &&
           a->transactional == b->transactional && a->control == b->control && a->codec == b->codec &&
           a->magic == b->magic && a->timestamp_type == b->timestamp_type;
}

/* A record's row: its own cells now, its batch's when the batch's rows end (or the row group
 * is full). */
static ss_errkind row(ss_pq_writer *w, const row_fixed *f, pending *pd, const ss_batch *b, const ss_record *r,
                      XXH3_state_t *st, ss_error *err) {
    if (pd->n && !same_batch(&pd->b, b)) {
        ss_errkind k = rows_end(w, f, pd, err);
        if (k != SS_E_OK) return k;
    }
    if (!pd->n) pd->b = *b;
    record_cells(w, f, b, r, st);
    if (++pd->n >= ss_pqw_room(w)) return rows_end(w, f, pd, err);
    return SS_E_OK;
}

static void part_json(ss_pqbuf *pj, size_t i, const ss_input_partition *p, bool has_broker, int32_t broker,
                      const char *cluster_id, const part_state *ps, const ss_pqbuf *dj) {
    if (pj->n > 1) ss_pqbuf_byte(pj, ',');
    json_lit(pj, "{\"source\":");
    json_i64(pj, (int64_t)i);
    json_lit(pj, ",\"topic\":");
    json_str(pj, p->topic);
    json_lit(pj, ",\"partition\":");
    json_i64(pj, p->partition);
    json_lit(pj, ",\"path\":");
    json_str(pj, p->path);
    json_lit(pj, ",\"broker\":");
    if (has_broker) json_i64(pj, broker);
    else json_lit(pj, "null");
    json_lit(pj, ",\"clusterId\":");
    if (cluster_id) json_str(pj, cluster_id);
    else json_lit(pj, "null");
    json_lit(pj, ",\"topicId\":");
    if (p->topic_id) json_str(pj, p->topic_id);
    else json_lit(pj, "null");
    json_lit(pj, ",\"firstSegmentOffset\":");
    json_opt_i64(pj, p->nsegments ? p->segments[0].name_offset : -1);
    json_lit(pj, ",\"logStartOffsetCheckpoint\":");
    json_opt_i64(pj, p->log_start_offset);
    json_lit(pj, ",\"highWatermark\":");
    json_opt_i64(pj, p->high_watermark);
    json_lit(pj, ",\"firstOffset\":");
    json_opt_i64(pj, ps->first);
    json_lit(pj, ",\"logEndOffset\":");
    json_opt_i64(pj, ps->end);
    json_lit(pj, ",\"rows\":");
    json_i64(pj, (int64_t)ps->rows);
    json_lit(pj, ",\"damage\":");
    ss_pqbuf_put(pj, dj->p, dj->n);
    json_lit(pj, ",\"segmentsNotGiven\":");
    json_i64(pj, (int64_t)p->segments_not_given);
    ss_pqbuf_byte(pj, '}');
}

/* ---- the two halves of an export ---------------------------------------------------------
 *
 * The walk of a partition's log (reading, framing, CRCs: the cursor) and the making of its
 * rows (the records decoded, their fingerprints, the cells) run on threads of their own, the
 * parquet room's writer on another: one thread doing both halves took twice the time of the
 * scan, which reads with two. The walker copies each CRC-valid batch (the entry's bytes) and
 * each damage event into a slot; a full slot goes to the rows' side, which handles its items
 * in order, exactly as one thread would have (same rows, same damage, same order). Slots of
 * 256 KiB took 8% less CPU time than slots of 1 MiB, 16% less than 4 MiB: a slot is copied in
 * by one core and read by the other while it is still in their caches.
 *
 * The rows' side is one thread (X_SLOTS slots), or with several CPUs a team of "row makers"
 * (workers + 2 slots): the one rows' thread was the export's bottleneck, and then the walker
 * (its pread's copy, the page cache's look-ups, the copy into slots, the CRCs: one thread).
 * A team reads as the analysis does (analysis/units.h): each segment is cut into units of
 * X_UNIT_BYTES, and each maker reads the next unit itself, with pread into a window of its
 * own, framing its entries as the walker's copying path does (ss_walker_next_copy, the same
 * conditions) and making their rows into the slot's own set of columns (a piece), through a
 * writer of its own (the same inline appends). A unit but a segment's first begins at a guess
 * (an_find_boundary_before) and ends at the first batch boundary at or after its end. The pieces go
 * to the file's writer in unit order, by whichever maker finds the next one done ("merging":
 * one at a time), and each unit is checked then: one that did not begin where the unit
 * before it stopped is read again from there (in turn); where a unit met what the fast path
 * does not take (a CRC mismatch, a bad length, a cut or grown file, the tail, the segment's
 * end) the walker goes on from that byte to the segment's end (in turn, its rows made by the
 * merging maker), and the later units of the segment give nothing. So the batches, the
 * damage and their order are those of the partition cursor's walk. A piece holds
 * each batch's rows whole, and what decides where the file's row groups end (each row's
 * bytes, the batch's ends) is replayed as the merge appends them, so that the row groups end
 * where one thread's would have: the file is the same, byte for byte. A piece that grows past
 * X_PIECE_ROWS rows or X_PIECE_BYTES bytes (a unit of small records compressed very well)
 * waits for its turn and is merged before its unit is read, so memory stays bounded. */

#define X_SLOTS 3
#define X_WORKERS_MAX 4
#define X_SLOTS_MAX (X_WORKERS_MAX + 2)
#define X_SLOT_BYTES ((size_t)256 << 10)
#define X_SLOT_ITEMS 8192
#define X_PIECE_ROWS ((size_t)32768)
#define X_PIECE_BYTES ((size_t)16 << 20)
#define X_UNIT_BYTES ((uint64_t)1 << 20)

enum { IT_BATCH = 1, IT_DAMAGE };

typedef struct xitem {
    int kind;
    size_t seg; /* the segment of the event */
    size_t at;  /* IT_BATCH: its bytes in the slot; IT_DAMAGE: its error in errs */
    ss_batch b;
} xitem;

typedef struct xslot {
    xitem *it;
    size_t n, cap;
    uint8_t *bytes;
    size_t nbytes, bytes_cap;
    ss_error *errs;
    size_t nerrs, errs_cap;
    bool full; /* handed to the rows' thread */
    bool nomem;
} xslot;

/* A team's unit of work: a byte range of one segment, read by a maker itself (below: "units"). */
enum { U_READ = 1, U_UNREADABLE, U_CLOSE };

typedef struct xunit {
    int kind;
    size_t seg;
    ss_segment *s;  /* U_READ, U_CLOSE: the segment, closed by the merge of its last unit */
    uint64_t limit; /* its size when opened */
    uint64_t start; /* a batch boundary, or (resync) a nominal position */
    uint64_t end;   /* stop at the first batch boundary at or after it; UINT64_MAX: none */
    bool resync, first, last;
    ss_error err; /* U_UNREADABLE: why the segment could not be opened */
    /* the maker's */
    uint64_t started, stopped; /* where it began (a guess when resync), where it stopped */
    bool stuck;                /* stopped at what the fast path does not take: the walker goes on there */
    bool verified;             /* its start checked against where the unit before stopped */
    bool discard;              /* the segment's walker went on from a unit before: nothing of it */
} xunit;

/* Rows of one batch in a piece, in order: `ends` when the batch's rows end with them. */
typedef struct xrun {
    size_t rows;
    uint64_t bytes; /* what their own cells added to the writer's group_bytes */
    bool ends;
    ss_batch b; /* its cells (runs) are the merge's */
} xrun;

typedef struct xdmg {
    size_t seg;
    ss_error e;
} xdmg;

/* A slot's rows made by a maker, waiting to be merged. */
typedef struct xpiece {
    ss_pq_writer sh; /* its c: the piece's columns; group_bytes: the bytes appended so far */
    uint64_t *rb;    /* each row: what its own cells added to group_bytes */
    size_t rows, rb_cap;
    xrun *runs;
    size_t nruns, runs_cap;
    xdmg *dmg; /* the damage met, in order */
    size_t ndmg, dmg_cap;
    int64_t first, end; /* the rows' first offset, and the one after the last */
    uint64_t markers;
    bool nomem;
    bool in_turn; /* made by the maker merging (a unit read again): a large piece is merged at once */
} xpiece;

/* The rows' half: touched by the rows' thread while it holds a slot (in a team: the maker
 * merging), by the walker only when every slot is back (the partition's end). */
typedef struct xrows {
    ss_export *x;
    ss_pq_writer *w;
    const ss_input_partition *p;
    row_fixed rf;
    part_state ps;
    ss_pqbuf dj;
    pending pd;
    ss_decoder *dec; /* the rows' own: the walker's decodes legacy wrappers meanwhile */
    XXH3_state_t *st;
    ss_errkind k;
    ss_error err;
    /* merging: the batch being merged, its rows not yet given to the writer, and of them those
     * whose own cells of mixed_cols are in the writer's columns (a piece merged early) */
    ss_batch mb;
    size_t mpend, mcopied;
    /* the units merged: where the segment's last one stopped; the walker read the rest of it */
    uint64_t vstop;
    bool seg_over;
} xrows;

struct xpipe;

typedef struct xworker {
    struct xpipe *xp;
    ss_decoder *dec;
    XXH3_state_t *st;
    ss_window win; /* its units' bytes (pread) */
    pthread_t th;
    bool started;
} xworker;

typedef struct xpipe {
    xslot slot[X_SLOTS_MAX];
    size_t nslots;
    size_t slot_bytes; /* X_SLOT_BYTES, or the test hook's */
    size_t piece_rows; /* X_PIECE_ROWS, or the slot test hook's when smaller (merged row by row) */
    size_t fill, take; /* the walker's slot; the rows' thread's next */
    xrows r;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv; /* the walker's (and the one rows' thread's) */
    bool started, quit;
    /* a team of makers (nworkers > 1): slots by sequence number, slot seq % nslots */
    size_t nworkers;
    xworker wk[X_WORKERS_MAX];
    xunit unit[X_SLOTS_MAX];
    xpiece piece[X_SLOTS_MAX];
    uint64_t unit_bytes; /* X_UNIT_BYTES, or the slot test hook's (64 at least) */
    uint64_t filled, taken, merged;
    bool done[X_SLOTS_MAX]; /* the slot's piece made */
    bool merging;
    /* the makers wait on work for a slot, and on turn for a piece's early merge (turn_waits of
     * them): each wakes only the threads its change concerns */
    pthread_cond_t work, turn;
    size_t turn_waits;
    ss_errkind k; /* the merges' error so far (with one rows thread: its error, after each slot) */
} xpipe;

static const char *seg_file(const ss_input_partition *p, size_t seg) {
    return seg < p->nsegments && p->segments[seg].path ? p->segments[seg].path : p->path;
}

static void rows_of_batch(xrows *r, size_t seg, const ss_batch *bp) {
    const char *file = seg_file(r->p, seg);
    ss_batch b = *bp;
    ss_rec_iter iter;
    ss_error e;
    if (ss_records_begin(r->dec, &b, &iter, &e) != SS_E_OK) {
        damage(r->x, &r->ps, &r->dj, file, &e);
        return;
    }
    ss_record rec;
    int n;
    while ((n = ss_records_next(&iter, &rec, &e)) == 1) {
        r->k = row(r->w, &r->rf, &r->pd, &b, &rec, r->st, &r->err);
        if (r->k != SS_E_OK) return;
        if (r->ps.first < 0) r->ps.first = rec.offset;
        r->ps.end = ss_next_offset(rec.offset); /* an offset of INT64_MAX is legal input */
        r->ps.rows++;
        r->x->st.rows++;
        if (b.control) r->x->st.markers++;
    }
    r->k = rows_end(r->w, &r->rf, &r->pd, &r->err);
    if (r->k == SS_E_OK && n < 0) damage(r->x, &r->ps, &r->dj, file, &e);
}

static void rows_of_slot(xrows *r, xslot *s) {
    if (s->nomem && r->k == SS_E_OK) r->k = ss_error_set(&r->err, SS_E_NOMEM, 0, -1, "out of memory");
    for (size_t i = 0; i < s->n && r->k == SS_E_OK; i++) {
        const xitem *it = &s->it[i];
        if (it->kind == IT_DAMAGE) damage(r->x, &r->ps, &r->dj, seg_file(r->p, it->seg), &s->errs[it->at]);
        else {
            ss_batch b = it->b;
            b.data = s->bytes + it->at;
            rows_of_batch(r, it->seg, &b);
        }
    }
    s->n = s->nbytes = s->nerrs = 0;
    s->nomem = false;
}

static void *rows_thread(void *arg) {
    xpipe *xp = arg;
    pthread_mutex_lock(&xp->mu);
    for (;;) {
        xslot *s = &xp->slot[xp->take];
        while (!s->full && !xp->quit) pthread_cond_wait(&xp->cv, &xp->mu);
        if (!s->full) break;
        pthread_mutex_unlock(&xp->mu);
        rows_of_slot(&xp->r, s);
        pthread_mutex_lock(&xp->mu);
        xp->k = xp->r.k; /* what the walker reads (hand_over): r.k is this thread's while it runs */
        s->full = false;
        xp->take = (xp->take + 1) % X_SLOTS;
        pthread_cond_broadcast(&xp->cv);
    }
    pthread_mutex_unlock(&xp->mu);
    return NULL;
}

/* ---- a team of row makers ---- */

static void piece_clear(xpiece *pc) {
    for (size_t i = 0; i < C_COUNT; i++) pq_col_clear(&pc->sh.c[i]);
    pc->sh.group_bytes = 0;
    pc->rows = pc->nruns = pc->ndmg = 0;
    pc->first = pc->end = -1;
    pc->markers = 0;
    pc->nomem = false;
}

static void piece_damage(xpiece *pc, size_t seg, const ss_error *e) {
    if (!SS_GROW(pc->dmg, pc->ndmg, pc->dmg_cap, 16)) {
        pc->nomem = true;
        return;
    }
    pc->dmg[pc->ndmg++] = (xdmg){.seg = seg, .e = *e};
}

/* The batch's last k rows in the piece (bytes: what their own cells added), a run. */
static void piece_run(xpiece *pc, const ss_batch *b, size_t k, uint64_t bytes, bool ends) {
    if (!SS_GROW(pc->runs, pc->nruns, pc->runs_cap, 64)) {
        pc->nomem = true;
        return;
    }
    pc->runs[pc->nruns++] = (xrun){.rows = k, .bytes = bytes, .ends = ends, .b = *b};
}

/* The merge's place in a piece's columns: each column's rows, bytes and values copied. */
typedef struct xmerge {
    size_t row[C_COUNT], at[C_COUNT], vat[C_COUNT];
} xmerge;

/* The columns whose cells record_cells gives on every row: a piece's are copied in bulk. The
 * makers do not write the batch's runs (batch_runs): the merge does, as rows_end did, so a
 * piece's other columns hold only the cells record_cells gives in some batches (mixed_cols). */
static const uint8_t rec_cols[] = {C_OFFSET, C_TIMESTAMP, C_SEQUENCE, C_KEY_SIZE, C_VALUE_SIZE, C_KEY_FP, C_VALUE_FP};

/* The columns of which record_cells gives batch b's rows their cells (batch_runs the others'). */
static size_t mixed_cols(const row_fixed *f, const ss_batch *b, uint8_t out[5]) {
    size_t n = 0;
    if (b->magic < 2) out[n++] = C_TIMESTAMP_TYPE;
    if (b->control) {
        out[n++] = C_CONTROL_TYPE;
        out[n++] = C_COORDINATOR_EPOCH;
    }
    if (f->internal) {
        out[n++] = C_KEY;
        out[n++] = C_VALUE;
    }
    return n;
}

static bool copy_cols(ss_pq_writer *w, xpiece *pc, xmerge *m, const uint8_t *cols, size_t ncols, size_t n) {
    bool ok = true;
    for (size_t j = 0; j < ncols; j++) {
        size_t i = cols[j];
        ok &= ss_pqw_copy_col(w, i, &pc->sh.c[i], &m->row[i], &m->at[i], &m->vat[i], n);
    }
    return ok;
}

/* The pending rows of the batch being merged given to the writer, as rows_end gives them: the
 * batch's runs, their own cells of mixed_cols; the piece's rows up to `cur` copied first when
 * they end the row group. */
static ss_errkind merge_end(xpipe *xp, xpiece *pc, xmerge *m, size_t cur) {
    xrows *r = &xp->r;
    ss_pq_writer *w = r->w;
    size_t n = r->mpend;
    uint8_t mc[5];
    batch_runs(w, &r->rf, &r->mb, n);
    bool ok = copy_cols(w, pc, m, mc, mixed_cols(&r->rf, &r->mb, mc), n - r->mcopied);
    r->mpend = r->mcopied = 0;
    if (w->group_rows + n >= w->rows_per_group || w->group_bytes + w->ncols * 8 * n >= PQ_GROUP_BYTES)
        ok &= copy_cols(w, pc, m, rec_cols, sizeof rec_cols, cur - m->row[C_OFFSET]);
    if (!ok) return ss_error_set(&r->err, SS_E_NOMEM, 0, -1, "out of memory");
    return ss_pqw_rows_done(w, n, &r->err);
}

/* A piece's rows to the writer: where one thread's rows_end calls would have fallen (row()'s
 * test of ss_pqw_room after each row, each batch's end) replayed from each row's bytes. */
static ss_errkind merge_rows(xpipe *xp, xpiece *pc) {
    xrows *r = &xp->r;
    ss_pq_writer *w = r->w;
    xmerge m = {0};
    size_t cur = 0;
    for (size_t i = 0; i < pc->nruns; i++) {
        const xrun *run = &pc->runs[i];
        r->mb = run->b;
        if (w->group_bytes + run->bytes < PQ_GROUP_BYTES && r->mpend + run->rows < ss_pqw_room(w)) {
            /* no row of the run fills the row group: ss_pqw_room stays what it is */
            w->group_bytes += run->bytes;
            r->mpend += run->rows;
            cur += run->rows;
        } else {
            for (size_t j = 0; j < run->rows; j++) {
                w->group_bytes += pc->rb[cur++];
                if (++r->mpend >= ss_pqw_room(w)) {
                    ss_errkind k = merge_end(xp, pc, &m, cur);
                    if (k != SS_E_OK) return k;
                }
            }
        }
        if (run->ends && r->mpend) {
            ss_errkind k = merge_end(xp, pc, &m, cur);
            if (k != SS_E_OK) return k;
        }
    }
    /* the rest of the piece: its rows' own cells (of a batch not ended, those of mixed_cols too:
     * the piece is emptied) */
    uint8_t mc[5];
    bool ok = copy_cols(w, pc, &m, rec_cols, sizeof rec_cols, pc->rows - m.row[C_OFFSET]);
    if (r->mpend) {
        ok &= copy_cols(w, pc, &m, mc, mixed_cols(&r->rf, &r->mb, mc), r->mpend - r->mcopied);
        r->mcopied = r->mpend;
    }
    if (!ok) return ss_error_set(&r->err, SS_E_NOMEM, 0, -1, "out of memory");
    return SS_E_OK;
}

/* A piece merged (by the maker holding `merging`): its damage, its counts, its rows. */
static void merge_piece(xpipe *xp, xpiece *pc, bool nomem) {
    xrows *r = &xp->r;
    if ((nomem || pc->nomem) && r->k == SS_E_OK) r->k = ss_error_set(&r->err, SS_E_NOMEM, 0, -1, "out of memory");
    if (r->k == SS_E_OK) {
        for (size_t i = 0; i < pc->ndmg; i++)
            damage(r->x, &r->ps, &r->dj, seg_file(r->p, pc->dmg[i].seg), &pc->dmg[i].e);
        if (pc->rows) {
            if (r->ps.first < 0) r->ps.first = pc->first;
            r->ps.end = pc->end;
            r->ps.rows += pc->rows;
            r->x->st.rows += pc->rows;
            r->x->st.markers += pc->markers;
        }
        r->k = merge_rows(xp, pc);
    }
    piece_clear(pc);
}

/* ---- units: a maker reads its own ---- */

enum { X_GO, X_RESTART, X_DISCARD };

/* Is the unit's piece the next rows of its segment: did it begin where the unit before it stopped
 * (its start was a guess, an_find_boundary_before's)? X_RESTART: read it again from there; X_DISCARD:
 * nothing of it, the walker went on from a unit before. Once a unit, by the thread merging. */
static int unit_check(xrows *r, xunit *u) {
    u->verified = true;
    if (u->first) {
        r->seg_over = false;
        r->vstop = u->started;
        return X_GO;
    }
    if (r->seg_over) {
        u->discard = true;
        return X_DISCARD;
    }
    if (u->started == r->vstop) return X_GO;
    u->start = r->vstop;
    u->resync = false;
    return X_RESTART;
}

/* A piece grown too large merged before its unit is read, once every unit before it is. Not
 * X_GO when its start is found wrong (unit_check): nothing of it was merged. */
static int merge_early(xworker *wk, xunit *u, xpiece *pc, uint64_t seq) {
    xpipe *xp = wk->xp;
    if (pc->in_turn) { /* this thread is merging, and it is this unit's turn */
        merge_piece(xp, pc, false);
        return X_GO;
    }
    pthread_mutex_lock(&xp->mu);
    xp->turn_waits++;
    while (xp->merging || xp->merged != seq) pthread_cond_wait(&xp->turn, &xp->mu);
    xp->turn_waits--;
    xp->merging = true;
    pthread_mutex_unlock(&xp->mu);
    int v = u->verified ? X_GO : unit_check(&xp->r, u);
    if (v == X_GO) merge_piece(xp, pc, false);
    pthread_mutex_lock(&xp->mu);
    xp->merging = false;
    xp->k = xp->r.k;
    if (xp->turn_waits) pthread_cond_broadcast(&xp->turn);
    pthread_mutex_unlock(&xp->mu);
    return v;
}

static int piece_batch(xworker *wk, xunit *u, const ss_batch *b, xpiece *pc, uint64_t seq) {
    const row_fixed *f = &wk->xp->r.rf;
    ss_rec_iter iter;
    ss_error e;
    if (ss_records_begin(wk->dec, b, &iter, &e) != SS_E_OK) {
        piece_damage(pc, u->seg, &e);
        return X_GO;
    }
    ss_record rec;
    int n;
    size_t k = 0;    /* rows of the batch in the piece */
    uint64_t kb = 0; /* what their own cells added */
    bool split = false;
    /* the parser inline, as the analysis's reader calls it (format/record.h) */
    while ((n = ss_records_next_inline(&iter, &rec, &e)) == 1) {
        if (!SS_GROW(pc->rb, pc->rows, pc->rb_cap, 4096)) {
            pc->nomem = true;
            return X_GO;
        }
        uint64_t before = pc->sh.group_bytes;
        record_cells(&pc->sh, f, b, &rec, wk->st);
        uint64_t added = pc->sh.group_bytes - before;
        pc->rb[pc->rows++] = added;
        kb += added;
        k++;
        if (pc->first < 0) pc->first = rec.offset;
        pc->end = ss_next_offset(rec.offset); /* an offset of INT64_MAX is legal input */
        if (b->control) pc->markers++;
        if (pc->rows >= wk->xp->piece_rows || pc->sh.group_bytes >= X_PIECE_BYTES) {
            piece_run(pc, b, k, kb, false);
            int v = merge_early(wk, u, pc, seq);
            if (v != X_GO) return v;
            k = 0;
            kb = 0;
            split = true;
        }
    }
    if (k || split) piece_run(pc, b, k, kb, true);
    if (n < 0) piece_damage(pc, u->seg, &e);
    return X_GO;
}

/* The entry at pos, as the walker's copying path takes it (ss_window_batch, and no segment paused
 * by the test hook); anything else is the walker's to tell (walk_rest). */
static bool fast_batch(xworker *wk, const xunit *u, uint64_t pos, ss_batch *b) {
    return u->s->pause_after == UINT64_MAX && ss_window_batch(&wk->win, u->s, u->limit, pos, wk->dec, b);
}

/* A unit's rows into its piece: its batches while the fast path takes them, up to the first
 * batch boundary at or after its end. */
static void unit_read(xworker *wk, xunit *u, xpiece *pc, uint64_t seq) {
    const ss_input_segment *is = &wk->xp->r.p->segments[u->seg];
    wk->win.read_to = u->end == UINT64_MAX ? 0 : u->end;
    for (;;) {
        uint64_t pos = u->resync ? an_find_boundary_before(&wk->win, u->s, u->limit, u->start, u->end) : u->start;
        u->started = pos;
        u->stuck = false;
        int v = X_GO;
        while (v == X_GO && !pc->nomem && (u->end == UINT64_MAX || pos < u->end)) {
            ss_batch b;
            if (!fast_batch(wk, u, pos, &b)) {
                u->stuck = true;
                break;
            }
            pos += b.size;
            /* offsets another copy of the partition gives (replicas read once) */
            if (ss_input_segment_reads(is, b.base_offset)) v = piece_batch(wk, u, &b, pc, seq);
        }
        u->stopped = pos;
        if (v != X_RESTART) return;
        piece_clear(pc); /* merge_early set the start it begins at */
    }
}

/* The rest of a unit's segment from where its fast path stopped: the walker's events, as the
 * partition cursor gives them, their rows made here (in turn). */
static void walk_rest(xrows *r, xworker *wk, const xunit *u) {
    ss_walker w;
    ss_walker_init(&w, u->s, UINT64_MAX);
    ss_walker_set_decoder(&w, wk->dec);
    ss_walker_seek(&w, u->stopped);
    wk->win.read_to = 0; /* to the segment's end */
    const ss_input_segment *is = &r->p->segments[u->seg];
    ss_event ev;
    for (ss_event_kind k; r->k == SS_E_OK && (k = ss_walker_next_copy(&w, &wk->win, &ev)) != SS_EV_END;) {
        if (k == SS_EV_DAMAGE) damage(r->x, &r->ps, &r->dj, seg_file(r->p, u->seg), &ev.err);
        else if (k != SS_EV_BATCH) break;
        else if (ev.batch.crc_valid && ss_input_segment_reads(is, ev.batch.base_offset)) /* else damage follows */
            rows_of_batch(r, u->seg, &ev.batch);
    }
}

/* A unit merged in its turn (by the maker holding `merging`): its piece (read again when it began
 * elsewhere than where the unit before stopped), then the walker's events where it got stuck. */
static void merge_unit(xpipe *xp, xworker *wk, xunit *u, xpiece *pc, uint64_t seq) {
    xrows *r = &xp->r;
    if (u->kind == U_UNREADABLE) {
        if (r->k == SS_E_OK) damage(r->x, &r->ps, &r->dj, seg_file(r->p, u->seg), &u->err);
    } else if (u->kind == U_READ && r->k == SS_E_OK && !u->discard) {
        int v = u->verified ? X_GO : unit_check(r, u);
        if (v == X_RESTART) {
            piece_clear(pc);
            pc->in_turn = true;
            unit_read(wk, u, pc, seq);
            pc->in_turn = false;
        }
        if (v != X_DISCARD) {
            merge_piece(xp, pc, false);
            r->vstop = u->stopped;
            if (u->stuck && r->k == SS_E_OK) {
                walk_rest(r, wk, u);
                r->seg_over = true;
            }
        }
    }
    piece_clear(pc);
    if (u->last) ss_segment_close(u->s);
}

/* The units read, merged in order (mu held; it is let go while a unit is merged). */
static void merge_ready(xpipe *xp, xworker *wk) {
    if (xp->merging) return; /* the maker merging takes them */
    xp->merging = true;
    while (xp->merged < xp->taken && xp->done[xp->merged % xp->nslots]) {
        size_t i = (size_t)(xp->merged % xp->nslots);
        pthread_mutex_unlock(&xp->mu);
        merge_unit(xp, wk, &xp->unit[i], &xp->piece[i], xp->merged);
        pthread_mutex_lock(&xp->mu);
        xp->done[i] = false;
        xp->merged++;
        xp->k = xp->r.k;
        pthread_cond_signal(&xp->cv); /* a slot free: the planner */
    }
    xp->merging = false;
    if (xp->turn_waits) pthread_cond_broadcast(&xp->turn);
}

static void *maker_thread(void *arg) {
    xworker *wk = arg;
    xpipe *xp = wk->xp;
    pthread_mutex_lock(&xp->mu);
    for (;;) {
        while (xp->taken == xp->filled && !xp->quit) pthread_cond_wait(&xp->work, &xp->mu);
        if (xp->taken == xp->filled) break;
        uint64_t seq = xp->taken++;
        size_t i = (size_t)(seq % xp->nslots);
        pthread_mutex_unlock(&xp->mu);
        if (xp->unit[i].kind == U_READ) unit_read(wk, &xp->unit[i], &xp->piece[i], seq);
        pthread_mutex_lock(&xp->mu);
        xp->done[i] = true;
        merge_ready(xp, wk);
    }
    pthread_mutex_unlock(&xp->mu);
    return NULL;
}

/* A unit to the makers, once a slot is free. The merges' error so far. */
static ss_errkind submit(xpipe *xp, const xunit *u) {
    pthread_mutex_lock(&xp->mu);
    while (xp->filled - xp->merged >= xp->nslots) pthread_cond_wait(&xp->cv, &xp->mu);
    xp->unit[xp->filled % xp->nslots] = *u;
    xp->filled++;
    pthread_cond_signal(&xp->work); /* one maker */
    ss_errkind k = xp->k;
    pthread_mutex_unlock(&xp->mu);
    return k;
}

/* Segment j of partition i cut into units (a small one is one unit; units end at the first batch
 * boundary after unit_bytes, the next one begins at a guess of it, checked when merged). */
static ss_errkind plan_segment(xpipe *xp, const ss_inputs *in, size_t i, size_t j) {
    ss_segment *s;
    ss_error e;
    if (ss_inputs_open_segment(in, i, j, &s, &e) != SS_E_OK)
        return submit(xp, &(xunit){.kind = U_UNREADABLE, .seg = j, .err = e});
    uint64_t limit = ss_segment_size(s), ub = xp->unit_bytes;
    ss_errkind k = SS_E_OK;
    for (uint64_t at = 0;; at += ub) {
        /* the walker alone reads a segment paused by the test hook (a file changed while read) */
        bool last = s->pause_after != UINT64_MAX || limit <= at || limit - at <= ub + ub / 2;
        if (k != SS_E_OK) return submit(xp, &(xunit){.kind = U_CLOSE, .s = s, .last = true});
        k = submit(xp, &(xunit){.kind = U_READ,
                                .seg = j,
                                .s = s,
                                .limit = limit,
                                .start = at,
                                .end = last ? UINT64_MAX : at + ub,
                                .resync = at > 0,
                                .first = at == 0,
                                .last = last});
        if (last) return k;
    }
}

/* Every unit merged: the rows' half is the planner's again. */
static ss_errkind team_drain(xpipe *xp) {
    pthread_mutex_lock(&xp->mu);
    while (xp->merged != xp->filled) pthread_cond_wait(&xp->cv, &xp->mu);
    ss_errkind k = xp->r.k;
    pthread_mutex_unlock(&xp->mu);
    return k;
}

/* ---- one rows' thread: the walker copies batches into slots ---- */

/* The walker's slot to the rows (its thread, or this one without it); then the next slot, once
 * it is free. The rows' error so far. */
static ss_errkind hand_over(xpipe *xp) {
    xslot *s = &xp->slot[xp->fill];
    if (!xp->started) {
        rows_of_slot(&xp->r, s);
        return xp->r.k;
    }
    pthread_mutex_lock(&xp->mu);
    if (s->n || s->nomem) {
        s->full = true;
        xp->fill = (xp->fill + 1) % X_SLOTS;
        pthread_cond_broadcast(&xp->cv);
    }
    while (xp->slot[xp->fill].full) pthread_cond_wait(&xp->cv, &xp->mu);
    ss_errkind k = xp->k;
    pthread_mutex_unlock(&xp->mu);
    return k;
}

/* Every slot handled: the rows' half is the walker's again. */
static ss_errkind drain(xpipe *xp) {
    ss_errkind k = hand_over(xp);
    if (!xp->started) return k;
    pthread_mutex_lock(&xp->mu);
    for (size_t i = 0; i < X_SLOTS; i++)
        while (xp->slot[i].full) pthread_cond_wait(&xp->cv, &xp->mu);
    k = xp->k;
    pthread_mutex_unlock(&xp->mu);
    return k;
}
static bool slot_item(xslot *s, xitem **out) {
    if (!SS_GROW(s->it, s->n, s->cap, 256)) return s->nomem = true, false;
    *out = &s->it[s->n++];
    return true;
}

static void slot_batch(xslot *s, size_t seg, const ss_batch *b) {
    size_t need = s->nbytes + b->size;
    if (!SS_GROW_TO(s->bytes, need < X_SLOT_BYTES ? X_SLOT_BYTES : need, s->bytes_cap)) {
        s->nomem = true;
        return;
    }
    xitem *it;
    if (!slot_item(s, &it)) return;
    it->kind = IT_BATCH;
    it->seg = seg;
    it->at = s->nbytes;
    it->b = *b;
    memcpy(s->bytes + s->nbytes, b->data, b->size);
    s->nbytes += b->size;
}

static void slot_damage(xslot *s, size_t seg, const ss_error *e) {
    if (!SS_GROW(s->errs, s->nerrs, s->errs_cap, 16)) {
        s->nomem = true;
        return;
    }
    xitem *it;
    if (!slot_item(s, &it)) return;
    it->kind = IT_DAMAGE;
    it->seg = seg;
    it->at = s->nerrs;
    s->errs[s->nerrs++] = *e;
}

static void pipe_start(xpipe *xp) {
    if (pthread_mutex_init(&xp->mu, NULL) != 0) return;
    int c = 0; /* the condition variables made */
    if (pthread_cond_init(&xp->cv, NULL) == 0 && ++c && pthread_cond_init(&xp->work, NULL) == 0 && ++c &&
        pthread_cond_init(&xp->turn, NULL) == 0)
        c++;
    if (c < 3) {
        if (c > 1) pthread_cond_destroy(&xp->work);
        if (c > 0) pthread_cond_destroy(&xp->cv);
        pthread_mutex_destroy(&xp->mu);
        return;
    }
    if (xp->nworkers > 1) {
        for (size_t i = 0; i < xp->nworkers; i++) {
            xworker *wk = &xp->wk[i];
            if (pthread_create(&wk->th, NULL, maker_thread, wk) != 0) break;
            wk->started = true;
            xp->started = true;
        }
        if (xp->started) return;
    } else if (pthread_create(&xp->th, NULL, rows_thread, xp) == 0) {
        xp->started = true;
        return;
    }
    pthread_cond_destroy(&xp->turn);
    pthread_cond_destroy(&xp->work);
    pthread_cond_destroy(&xp->cv);
    pthread_mutex_destroy(&xp->mu);
}

static void pipe_stop(xpipe *xp) {
    if (xp->started) {
        pthread_mutex_lock(&xp->mu);
        xp->quit = true;
        pthread_cond_broadcast(&xp->cv);
        pthread_cond_broadcast(&xp->work);
        pthread_mutex_unlock(&xp->mu);
        if (xp->nworkers > 1) {
            for (size_t i = 0; i < xp->nworkers; i++)
                if (xp->wk[i].started) pthread_join(xp->wk[i].th, NULL);
        } else {
            pthread_join(xp->th, NULL);
        }
        pthread_cond_destroy(&xp->turn);
        pthread_cond_destroy(&xp->work);
        pthread_cond_destroy(&xp->cv);
        pthread_mutex_destroy(&xp->mu);
        xp->started = false;
    }
    for (size_t i = 0; i < X_SLOTS_MAX; i++) {
        free(xp->slot[i].it);
        free(xp->slot[i].bytes);
        free(xp->slot[i].errs);
        xpiece *pc = &xp->piece[i];
        for (size_t c = 0; pc->sh.c && c < C_COUNT; c++) {
            ss_pqbuf_free(&pc->sh.c[c].vals);
            ss_pqbuf_free(&pc->sh.c[c].defs);
        }
        free(pc->sh.c);
        free(pc->rb);
        free(pc->runs);
        free(pc->dmg);
    }
    for (size_t i = 0; i < X_WORKERS_MAX; i++) {
        if (xp->wk[i].st) XXH3_freeState(xp->wk[i].st);
        ss_window_free(&xp->wk[i].win);
        ss_decoder_free(xp->wk[i].dec);
    }
}

/* The rows' side: one thread, or a team of n makers with their decoders and slots' pieces.
 * False when memory ran out. */
static bool pipe_init(xpipe *xp, size_t n, size_t max_batch) {
    xp->nworkers = n;
    xp->nslots = n > 1 ? n + 2 : X_SLOTS;
    if (n <= 1) return true;
    for (size_t i = 0; i < n; i++) {
        xworker *wk = &xp->wk[i];
        wk->xp = xp;
        wk->dec = ss_decoder_new(max_batch);
        wk->st = XXH3_createState();
        if (!wk->dec || !wk->st) return false;
    }
    for (size_t i = 0; i < xp->nslots; i++) {
        xpiece *pc = &xp->piece[i];
        pc->sh.c = calloc(C_COUNT, sizeof *pc->sh.c);
        if (!pc->sh.c) return false;
        pc->sh.cols = ss_export_columns;
        pc->sh.ncols = C_COUNT;
        piece_clear(pc);
    }
    return true;
}

/* The makers: one a CPU, at most X_WORKERS_MAX (the test hook's count if set). */
static size_t makers(void) {
    uint64_t hook = ss_test_hooks_get()->export_threads;
    long c = hook ? (long)(hook < X_WORKERS_MAX ? hook : X_WORKERS_MAX) : sysconf(_SC_NPROCESSORS_ONLN);
    return c < 1 ? 1 : c > X_WORKERS_MAX ? X_WORKERS_MAX : (size_t)c;
}

static ss_errkind partition_end(ss_export *x, xpipe *xp, size_t i, const ss_input_partition *p, bool has_broker,
                                int32_t broker, const char *cid, ss_pqbuf *pj, bool meta_read, ss_textfile *tf,
                                ss_errkind k, ss_error *err);

static ss_errkind export_partition(ss_export *x, xpipe *xp, const ss_inputs *in, size_t i, ss_decoder *dec,
                                   const ss_export_opts *o, ss_pqbuf *pj, file_ids *ids, ss_error *err) {
    const ss_input_partition *p = ss_inputs_at(in, i);
    ss_textfile tf;
    bool meta_read;
    broker_of(p, &tf, &meta_read);
    bool has_broker = o->has_broker_id || (meta_read && tf.meta.has_node_id);
    int32_t broker = o->has_broker_id ? o->broker_id : meta_read ? tf.meta.node_id : -1;
    if (!has_broker) ids->node = -2;
    else if (ids->node == -1) ids->node = broker;
    else if (ids->node != broker) ids->node = -2;
    const char *cid = meta_read ? tf.meta.cluster_id : NULL;
    if (!cid) ids->cluster_missing = true;
    else if (!ids->cluster.n) json_lit(&ids->cluster, cid);
    else if (ids->cluster.n != strlen(cid) || memcmp(ids->cluster.p, cid, ids->cluster.n)) ids->clusters_differ = true;
    /* every slot is free: the rows' half is this thread's until the first hand-over */
    xrows *r = &xp->r;
    r->p = p;
    r->rf = (row_fixed){.topic = p->topic,
                        .topic_len = (uint32_t)strlen(p->topic),
                        .partition = p->partition,
                        .broker = has_broker ? broker : -1,
                        .source = (int32_t)i,
                        .internal = p->internal};
    r->ps = (part_state){.first = -1, .end = -1};
    memset(&r->dj, 0, sizeof r->dj);
    memset(&r->pd, 0, sizeof r->pd);
    ss_pqbuf_byte(&r->dj, '[');
    ss_errkind k = SS_E_OK;
    if (xp->started && xp->nworkers > 1) {
        for (size_t j = 0; k == SS_E_OK && j < p->nsegments; j++) k = plan_segment(xp, in, i, j);
        ss_errkind kd = team_drain(xp);
        if (k == SS_E_OK) k = kd;
        return partition_end(x, xp, i, p, has_broker, broker, cid, pj, meta_read, &tf, k, err);
    }
    ss_pcursor c;
    ss_pcursor_open(&c, in, i, dec, UINT64_MAX);
    for (ss_pc_kind ev; k == SS_E_OK && (ev = ss_pcursor_next(&c)) != SS_PC_END;) {
        xslot *s = &xp->slot[xp->fill];
        switch (ev) {
        case SS_PC_UNREADABLE: slot_damage(s, c.seg, &c.err); break;
        case SS_PC_DAMAGE: slot_damage(s, c.seg, &c.ev.err); break;
        case SS_PC_BATCH:
            if (c.ev.batch.crc_valid) slot_batch(s, c.seg, &c.ev.batch); /* else its damage event follows */
            break;
        default: break;
        }
        if (s->nbytes >= xp->slot_bytes || s->n >= X_SLOT_ITEMS || s->nomem) k = hand_over(xp);
    }
    ss_pcursor_close(&c);
    ss_errkind kd = drain(xp);
    if (k == SS_E_OK) k = kd;
    return partition_end(x, xp, i, p, has_broker, broker, cid, pj, meta_read, &tf, k, err);
}

/* A partition's rows made: its metadata's JSON. */
static ss_errkind partition_end(ss_export *x, xpipe *xp, size_t i, const ss_input_partition *p, bool has_broker,
                                int32_t broker, const char *cid, ss_pqbuf *pj, bool meta_read, ss_textfile *tf,
                                ss_errkind k, ss_error *err) {
    xrows *r = &xp->r;
    if (k != SS_E_OK && err) *err = r->err;
    ss_pqbuf_byte(&r->dj, ']');
    x->st.partitions++;
    part_json(pj, i, p, has_broker, broker, cid, &r->ps, &r->dj);
    if (r->dj.failed && k == SS_E_OK) k = ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
    ss_pqbuf_free(&r->dj);
    if (meta_read) ss_textfile_free(tf);
    return k;
}

/* The file's key-value metadata. */
static ss_errkind file_meta(ss_pq_writer *w, const ss_inputs *in, const ss_export_opts *o, ss_pqbuf *pj, file_ids *ids,
                            ss_error *err) {
    ss_pqbuf notes = {0};
    /* what was not read: the inputs' notes (files skipped, paths unreadable) */
    ss_pqbuf_byte(&notes, '[');
    const ss_problems *np = ss_inputs_problems(in);
    for (size_t i = 0; i < ss_problems_count(np); i++) {
        if (i) ss_pqbuf_byte(&notes, ',');
        json_str(&notes, ss_problems_at(np, i)->msg);
    }
    ss_pqbuf_byte(&notes, ']');
    ss_pqbuf_byte(&notes, 0);
    ss_pqbuf_byte(pj, 0);
    ss_pqbuf_byte(&ids->cluster, 0);
    ss_errkind k = SS_E_OK;
    if (pj->failed || ids->cluster.failed || notes.failed) k = ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
    if (k == SS_E_OK) k = ss_pq_meta(w, "segscan.version", ss_version(), err);
    if (k == SS_E_OK && o->command_line) k = ss_pq_meta(w, "segscan.command", o->command_line, err);
    if (k == SS_E_OK) k = ss_pq_meta(w, "segscan.partitions", (const char *)pj->p, err);
    if (k == SS_E_OK) k = ss_pq_meta(w, "segscan.notRead", (const char *)notes.p, err);
    if (k == SS_E_OK && ids->cluster.n > 1 && !ids->clusters_differ && !ids->cluster_missing)
        k = ss_pq_meta(w, "kafka.cluster.id", (const char *)ids->cluster.p, err);
    if (k == SS_E_OK && ids->node >= 0) {
        char id[24];
        snprintf(id, sizeof id, "%" PRId64, ids->node);
        k = ss_pq_meta(w, "kafka.node.id", id, err);
    }
    ss_pqbuf_free(&notes);
    return k;
}

ss_errkind ss_export_write(ss_export *x, const ss_inputs *in, const char *path, const ss_export_opts *o,
                           ss_error *err) {
    char created_by[96];
    snprintf(created_by, sizeof created_by, "segscan version %s", ss_version());
    uint64_t hook_rows = ss_test_hooks_get()->export_rows_per_group;
    size_t rows = o->rows_per_group ? o->rows_per_group : hook_rows ? (size_t)hook_rows : SS_EXPORT_ROWS_PER_GROUP;
    ss_pq_writer *w = ss_pq_create(path, ss_export_columns, C_COUNT, rows, created_by, err);
    if (!w) return err ? err->kind : SS_E_IO;
    for (size_t i = 0; i < sizeof run_cols; i++) ss_pqw_set_runs(w, run_cols[i]);
    size_t max_batch = o->max_batch_bytes ? o->max_batch_bytes : (size_t)256 << 20;
    ss_decoder *dec = ss_decoder_new(max_batch);
    xpipe *xp = calloc(1, sizeof *xp);
    ss_pqbuf pj = {0};
    file_ids ids = {.node = -1};
    ss_errkind k = SS_E_OK;
    if (xp) {
        uint64_t hook = ss_test_hooks_get()->export_slot_bytes;
        xp->slot_bytes = hook ? (size_t)hook : X_SLOT_BYTES;
        xp->piece_rows = hook && hook < X_PIECE_ROWS ? (size_t)hook : X_PIECE_ROWS;
        xp->unit_bytes = !hook ? X_UNIT_BYTES : hook < 64 ? 64 : hook;
        xp->r.x = x;
        xp->r.w = w;
        xp->r.dec = ss_decoder_new(max_batch);
        xp->r.st = XXH3_createState();
    }
    if (!dec || !xp || !xp->r.dec || !xp->r.st || !pipe_init(xp, makers(), max_batch))
        k = ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
    else pipe_start(xp);
    ss_pqbuf_byte(&pj, '[');
    for (size_t i = 0; k == SS_E_OK && i < ss_inputs_count(in); i++)
        k = export_partition(x, xp, in, i, dec, o, &pj, &ids, err);
    ss_pqbuf_byte(&pj, ']');
    if (k == SS_E_OK) k = file_meta(w, in, o, &pj, &ids, err);
    if (k == SS_E_OK) k = ss_pq_finish(w, err);
    else ss_pq_abort(w);
    ss_pqbuf_free(&pj);
    ss_pqbuf_free(&ids.cluster);
    if (xp) {
        pipe_stop(xp);
        if (xp->r.st) XXH3_freeState(xp->r.st);
        ss_decoder_free(xp->r.dec);
        free(xp);
    }
    ss_decoder_free(dec);
    return k;
}
