/* segscan - data partitions by time (segscan/timeline.h): the headers of every
 * batch of the data partitions among the inputs, kept as one fixed-size entry
 * per batch (no payload), with a prefix maximum of maxTimestamp per block of
 * batches for the log end at a time, and the transactions each producer ran.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "base/error_set.h"
#include "base/grow.h"
#include "base/javaint.h"
#include "base/reader.h"
#include "format/kafka_format.h"
#include "segscan/record.h"
#include "segscan/timeline.h"

/* control batches and legacy entries are read whole up to this size; a larger one is
 * kept by its header alone (a control batch holds one small record) */
#define WHOLE_MAX ((uint64_t)1 << 20)
/* batches per block of the prefix maximum */
#define BLOCK 16

enum { TB_CTRL = 1, TB_TXN = 2, TB_LAT = 4, TB_COMMIT = 8, TB_ABORT = 16, TB_NOTS = 32 };

typedef struct tlb {
    int64_t base, max_ts, pid;
    uint32_t last_delta;
    int32_t count; /* data records it holds */
    uint32_t seg, pos;
    int16_t epoch;
    uint8_t flags;
} tlb;

typedef struct tl_part {
    ss_tl_partition pub;
    size_t input;
    long an_part; /* the analysis's partition of the same files (ss_timelines_read_with), -1: none */
    tlb *b;
    size_t n, cap;
    int64_t *block_max; /* prefix maximum of maxTimestamp over blocks 0..k */
    uint64_t *cum;      /* data records in the batches before batch i (n + 1 entries) */
    ss_tl_txn *txns;
    size_t ntxns;
    bool nomem;
    ss_problems notes; /* this partition's, at most 20; merged into the timelines' in order */
} tl_part;

struct ss_timelines {
    const ss_inputs *in;
    const ss_analysis *an; /* ss_timelines_read_with: the batch headers it kept */
    size_t max_batch_bytes;
    tl_part *parts;
    size_t nparts;
    int64_t max_ts;
    ss_decoder *dec; /* ss_tl_records */
    uint8_t *buf;    /* ss_tl_records: a batch read whole */
    size_t bufcap;
    ss_problems problems; /* the partitions' notes, in partition order */
    atomic_size_t next;
};

const char *ss_tl_basis_name(enum ss_tl_basis b) {
    switch (b) {
    case SS_TL_LOG_APPEND: return "LogAppendTime";
    case SS_TL_CREATE: return "CreateTime";
    default: return "none";
    }
}

static void part_note(tl_part *P, ss_severity level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void part_note(tl_part *P, ss_severity level, const char *fmt, ...) {
    if (P->notes.n >= 20) return;
    char buf[600]; /* a note's length, as it always was */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    (void)ss_problems_add(&P->notes, level, SS_E_OK, "%s", buf);
}

ss_timelines *ss_timelines_new(size_t max_batch_bytes) {
    ss_timelines *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->max_batch_bytes = max_batch_bytes ? max_batch_bytes : SS_DEFAULT_MAX_BATCH_BYTES;
    t->max_ts = -1;
    return t;
}

void ss_timelines_free(ss_timelines *t) {
    if (!t) return;
    for (size_t i = 0; i < t->nparts; i++) {
        tl_part *P = &t->parts[i];
        free(P->b);
        free(P->block_max);
        free(P->cum);
        free(P->txns);
        ss_problems_free(&P->notes);
    }
    free(t->parts);
    ss_problems_free(&t->problems);
    ss_decoder_free(t->dec);
    free(t->buf);
    free(t);
}

/* ---- reading one partition ------------------------------------------------------------------- */

typedef struct tl_worker {
    ss_timelines *t;
    ss_decoder *dec;
    uint8_t *buf;
    size_t cap;
} tl_worker;

/* bytes [pos, pos + n) of a segment into the worker's buffer */
static const uint8_t *read_whole(tl_worker *w, const ss_segment *s, uint64_t pos, size_t n) {
    if (!SS_FIT(w->buf, n, w->cap)) return NULL;
    return ss_segment_read(s, pos, w->buf, n) == n ? w->buf : NULL;
}

/* The type of a control batch's record (COMMIT, ABORT, ...), -1 when it cannot be read. */
static int control_type(tl_worker *w, const ss_batch *b) {
    ss_rec_iter it;
    ss_record r;
    ss_error e;
    if (ss_records_begin(w->dec, b, &it, &e) != SS_E_OK) return -1;
    return ss_records_next(&it, &r, &e) == 1 ? r.control_type : -1;
}

static bool push(tl_part *P, const tlb *x) {
    if (!SS_GROW(P->b, P->n, P->cap, 256)) {
        P->nomem = true;
        return false;
    }
    P->b[P->n++] = *x;
    return true;
}

static void read_segment(tl_worker *w, tl_part *P, size_t j, const ss_segment *s, const char *file) {
    uint64_t size = ss_segment_size(s), pos = 0;
    while (pos + HEADER_UP_TO_MAGIC <= size) {
        uint8_t h[V2_OVERHEAD];
        size_t got = ss_segment_read(s, pos, h, sizeof h);
        if (got < HEADER_UP_TO_MAGIC) break;
        int32_t length = (int32_t)ss_be32(h + ENTRY_SIZE_OFF);
        int8_t magic = (int8_t)h[ENTRY_MAGIC_OFF];
        if (length <= 0 && ss_be64(h) == 0 && magic == 0) break; /* preallocated zeros: the end */
        ss_batch b;
        ss_error e;
        const uint8_t *data = h;
        uint64_t avail = size - pos;
        if (length > 0 && (uint64_t)length + LOG_OVERHEAD > avail) break; /* an incomplete tail */
        uint64_t esize = length > 0 ? (uint64_t)length + LOG_OVERHEAD : 0;
        if (magic == 2 && got < V2_OVERHEAD && esize) {
            part_note(P, SS_SEV_WARNING,
                      "%s: byte %" PRIu64 ": a batch header cut short; the rest of this segment is not used", file,
                      pos);
            P->pub.complete = false;
            return;
        }
        /* a legacy entry is parsed whole (its header runs into its key and value); a control
         * batch is read whole for its record's type */
        bool legacy = magic == 0 || magic == 1;
        bool whole = legacy || (magic == 2 && (ss_be16(h + V2_ATTR_OFF) & ATTR_CONTROL));
        if (whole && esize && (esize <= WHOLE_MAX || (legacy && esize <= w->t->max_batch_bytes))) {
            data = read_whole(w, s, pos, (size_t)esize);
            if (!data) {
                part_note(P, SS_SEV_WARNING,
                          "%s: byte %" PRIu64 ": could not be read; the rest of this segment is not used", file, pos);
                P->pub.complete = false;
                return;
            }
            avail = esize;
        } else if (legacy && esize) {
            part_note(P, SS_SEV_WARNING,
                      "%s: byte %" PRIu64 ": a legacy entry of %" PRIu64
                      " bytes (over --max-batch-bytes); the rest of this segment is not used",
                      file, pos, esize);
            P->pub.complete = false;
            return;
        }
        if (ss_batch_parse(data, avail, pos, false, magic < 2 ? w->dec : NULL, &b, &e) != SS_E_OK) {
            if (e.kind == SS_E_INCOMPLETE_TAIL) break;
            part_note(P, SS_SEV_WARNING,
                      "%s: byte %" PRIu64 ": %s; the rest of this segment is not used (segscan verify checks it)", file,
                      pos, e.msg);
            P->pub.complete = false;
            return;
        }
        if (!ss_input_segment_reads(&P->pub.input->segments[j], b.base_offset)) {
            if (!esize) break;
            pos += esize; /* offsets another copy of the partition gives (replicas read once) */
            continue;
        }
        int64_t prev_end = P->n ? P->b[P->n - 1].base + (int64_t)P->b[P->n - 1].last_delta : -1;
        if (b.base_offset <= prev_end || ss_offset_span(b.base_offset, b.last_offset) - 1u > INT32_MAX) {
            part_note(P, SS_SEV_WARNING,
                      "%s: byte %" PRIu64 ": offsets %" PRId64 "..%" PRId64 " do not follow %" PRId64
                      "; the rest of this segment is not used",
                      file, pos, b.base_offset, b.last_offset, prev_end);
            P->pub.complete = false;
            return;
        }
        tlb x;
        memset(&x, 0, sizeof x);
        x.base = b.base_offset;
        x.last_delta = (uint32_t)(b.last_offset - b.base_offset);
        x.max_ts = b.max_timestamp;
        x.pid = b.producer_id;
        x.epoch = b.producer_epoch;
        x.seg = (uint32_t)j;
        x.pos = (uint32_t)pos;
        if (b.control) x.flags |= TB_CTRL;
        if (b.transactional) x.flags |= TB_TXN;
        if (b.timestamp_type == SS_TS_LOG_APPEND) x.flags |= TB_LAT;
        if (b.max_timestamp < 0) x.flags |= TB_NOTS;
        if (b.magic < 2) {
            x.pid = -1;
            x.epoch = -1;
            x.count = b.codec == SS_CODEC_NONE
                          ? 1
                          : (b.legacy_inner_count > 0 ? b.legacy_inner_count : (int32_t)(x.last_delta + 1));
        } else if (b.control) {
            int ct = data != h ? control_type(w, &b) : -1;
            if (ct == SS_CTRL_COMMIT) x.flags |= TB_COMMIT;
            else if (ct == SS_CTRL_ABORT) x.flags |= TB_ABORT;
            x.count = 0;
        } else {
            x.count = b.count < 0 ? 0 : b.count;
        }
        /* a batch holds one record an offset at most (the header is not checked against its CRC
         * here: a count past its offsets is a damaged header) */
        if ((int64_t)x.count > (int64_t)x.last_delta + 1) {
            part_note(P, SS_SEV_WARNING,
                      "%s: byte %" PRIu64 ": a batch of %" PRId32 " records over %" PRIu32
                      " offsets: its count taken as its offsets (segscan verify checks it)",
                      file, pos, x.count, x.last_delta + 1);
            x.count = (int32_t)x.last_delta + 1;
        }
        if (pos > UINT32_MAX) {
            part_note(P, SS_SEV_WARNING, "%s: a segment over 4 GiB; its batches past 4 GiB are not used", file);
            P->pub.complete = false;
            return;
        }
        if (!push(P, &x)) return;
        if (!esize) break;
        pos += esize;
    }
}

static int cmp_txn(const void *a, const void *b) {
    const ss_tl_txn *x = a, *y = b;
    if (x->producer_id != y->producer_id) return x->producer_id < y->producer_id ? -1 : 1;
    return x->first_offset < y->first_offset ? -1 : x->first_offset > y->first_offset;
}

/* The transactions: a producer's transactional data batches up to its next marker. */
static void build_txns(tl_part *P) {
    size_t *open = NULL, nopen = 0, capopen = 0, cap = 0;
    for (size_t i = 0; i < P->n; i++) {
        const tlb *x = &P->b[i];
        if (!(x->flags & TB_TXN) || x->pid < 0) continue;
        size_t k = nopen;
        for (size_t q = 0; q < nopen; q++)
            if (P->txns[open[q]].producer_id == x->pid) k = q;
        if (x->flags & TB_CTRL) {
            if (!(x->flags & (TB_COMMIT | TB_ABORT)) || k == nopen) continue; /* a marker without data here */
            ss_tl_txn *tx = &P->txns[open[k]];
            tx->marker_offset = x->base;
            tx->marker_epoch = x->epoch;
            tx->marker_time = x->max_ts;
            tx->result = (x->flags & TB_COMMIT) ? SS_TL_COMMIT : SS_TL_ABORT;
            open[k] = open[--nopen];
            continue;
        }
        if (k == nopen) {
            if (!SS_GROW(P->txns, P->ntxns, cap, 16) || !SS_GROW(open, nopen, capopen, 8)) {
                P->nomem = true;
                break;
            }
            ss_tl_txn *tx = &P->txns[P->ntxns];
            memset(tx, 0, sizeof *tx);
            tx->producer_id = x->pid;
            tx->producer_epoch = x->epoch;
            tx->marker_epoch = -1;
            tx->first_offset = x->base;
            tx->marker_offset = -1;
            tx->first_time = x->max_ts;
            tx->marker_time = -1;
            tx->result = SS_TL_OPEN;
            open[nopen++] = P->ntxns++;
        }
        ss_tl_txn *tx = &P->txns[open[k]];
        tx->last_offset = x->base + (int64_t)x->last_delta;
        tx->records += (uint64_t)x->count;
    }
    free(open);
    if (P->ntxns > 1) qsort(P->txns, P->ntxns, sizeof *P->txns, cmp_txn);
}

static void finish_part(ss_timelines *t, tl_part *P) {
    ss_tl_partition *p = &P->pub;
    p->batches = P->n;
    bool create = false, lat = false;
    for (size_t i = 0; i < P->n; i++) {
        const tlb *x = &P->b[i];
        if (!(x->flags & TB_CTRL)) {
            p->records += (uint64_t)x->count;
            if (!(x->flags & TB_NOTS)) {
                if (x->flags & TB_LAT) lat = true;
                else create = true;
            }
        }
        if (x->max_ts > p->max_timestamp) p->max_timestamp = x->max_ts;
    }
    p->basis = create ? SS_TL_CREATE : lat ? SS_TL_LOG_APPEND : SS_TL_NONE;
    if (P->n) {
        p->first_offset = P->b[0].base;
        p->next_offset = ss_next_offset(P->b[P->n - 1].base + (int64_t)P->b[P->n - 1].last_delta);
        p->log_start = p->first_offset;
        if (p->input->log_start_offset > p->log_start) p->log_start = p->input->log_start_offset;
        if (p->log_start > p->next_offset) p->log_start = p->next_offset;
    }
    size_t nb = (P->n + BLOCK - 1) / BLOCK;
    P->block_max = malloc((nb ? nb : 1) * sizeof *P->block_max);
    if (!P->block_max) {
        P->nomem = true;
        return;
    }
    P->cum = malloc((P->n + 1) * sizeof *P->cum);
    if (!P->cum) {
        P->nomem = true;
        return;
    }
    P->cum[0] = 0;
    for (size_t i = 0; i < P->n; i++)
        P->cum[i + 1] = P->cum[i] + (P->b[i].flags & TB_CTRL ? 0 : (uint64_t)P->b[i].count);
    int64_t m = -1;
    for (size_t i = 0; i < P->n; i++) {
        if (P->b[i].max_ts > m) m = P->b[i].max_ts;
        if (i % BLOCK == BLOCK - 1 || i == P->n - 1) P->block_max[i / BLOCK] = m;
    }
    build_txns(P);
    (void)t;
}

/* ---- one partition from an analysis of the same files ------------------------------------------ */

/* Partition P's batch headers from the analysis's partition j, as read_segment would have read
 * them: false (P left empty) when the analysis did not keep every batch whole (an_batches_whole) or
 * one of them is what read_segment notes (a legacy entry, an offset going back, more records than
 * offsets, a control batch too large to be read for its marker, a position past 4 GiB) - reading
 * the files tells that. */
static bool from_analysis(ss_timelines *t, tl_part *P, size_t j) {
    const an_batch *v;
    size_t n;
    if (!an_batches_whole(t->an, j, &v, &n)) return false;
    const ss_input_partition *ip = P->pub.input, *aip = ss_inputs_at(t->an->in, j);
    if (aip->nsegments != ip->nsegments || ip->export_file) return false;
    /* Whole means no tail: the analysis read each segment to its last batch's end. A segment
     * that is longer now (a live log appended to since) is read again. */
    size_t bi = 0;
    for (size_t k = 0; k < ip->nsegments; k++) {
        if (!ip->segments[k].path || strcmp(ip->segments[k].path, aip->segments[k].path) != 0 ||
            ip->segments[k].read_from != INT64_MIN || ip->segments[k].read_to != INT64_MAX)
            return false;
        uint64_t end = 0;
        for (; bi < n && v[bi].seg == k; bi++) end = v[bi].position + v[bi].size;
        if (ss_inputs_segment_size(t->in, P->input, k) != end) return false;
    }
    if (n && !SS_GROW_TO(P->b, n, P->cap)) {
        P->nomem = true;
        return true; /* out of memory either way */
    }
    for (size_t i = 0; i < n; i++) {
        const an_batch *ab = &v[i];
        int64_t prev_end = P->n ? P->b[P->n - 1].base + (int64_t)P->b[P->n - 1].last_delta : -1;
        bool ctrl = ab->flags & BF_CTRL;
        if (ab->magic < 2 || ab->base_offset <= prev_end ||
            ss_offset_span(ab->base_offset, ab->last_offset) - 1u > INT32_MAX || ab->position > UINT32_MAX ||
            (ctrl && (ab->size > WHOLE_MAX || ab->base_seq == AN_CTRL_UNKNOWN)))
            break;
        tlb x;
        memset(&x, 0, sizeof x);
        x.base = ab->base_offset;
        x.last_delta = (uint32_t)(ab->last_offset - ab->base_offset);
        x.max_ts = ab->max_ts;
        x.pid = ab->pid;
        x.epoch = ab->epoch;
        x.seg = ab->seg;
        x.pos = (uint32_t)ab->position;
        if (ctrl) x.flags |= TB_CTRL;
        if (ab->flags & BF_TXN) x.flags |= TB_TXN;
        if (ab->flags & BF_LAT) x.flags |= TB_LAT;
        if (ab->max_ts < 0) x.flags |= TB_NOTS;
        if (ctrl && ab->base_seq == SS_CTRL_COMMIT) x.flags |= TB_COMMIT;
        else if (ctrl && ab->base_seq == SS_CTRL_ABORT) x.flags |= TB_ABORT;
        x.count = ctrl || ab->count < 0 ? 0 : ab->count;
        if ((int64_t)x.count > (int64_t)x.last_delta + 1) break;
        P->b[P->n++] = x;
    }
    if (P->n < n) {
        P->n = 0;
        return false;
    }
    P->pub.complete = true;
    return true;
}

static void read_part(tl_worker *w, tl_part *P) {
    const ss_input_partition *ip = P->pub.input;
    if (P->an_part >= 0 && from_analysis(w->t, P, (size_t)P->an_part)) {
        finish_part(w->t, P);
        return;
    }
    P->pub.complete = true;
    for (size_t j = 0; j < ip->nsegments && !P->nomem; j++) {
        ss_segment *s;
        ss_error e;
        const char *file = ip->segments[j].path ? ip->segments[j].path : ip->name;
        if (ss_inputs_open_segment(w->t->in, P->input, j, &s, &e) != SS_E_OK) {
            part_note(P, SS_SEV_WARNING, "%s: %s (its batches are not in the partition's timeline)", file, e.msg);
            P->pub.complete = false;
            continue;
        }
        read_segment(w, P, j, s, file);
        ss_segment_close(s);
    }
    finish_part(w->t, P);
}

static void *worker_main(void *arg) {
    tl_worker *w = arg;
    ss_timelines *t = w->t;
    for (;;) {
        size_t i = atomic_fetch_add(&t->next, 1);
        if (i >= t->nparts) break;
        read_part(w, &t->parts[i]);
    }
    return NULL;
}

static int64_t last_base(const ss_input_partition *ip) {
    return ip->nsegments ? ip->segments[ip->nsegments - 1].name_offset : -1;
}


/* The analysis's partition of each partition's files: both inputs are sorted by topic, then
 * partition; one of several copies (replicas) is not matched. */
static void match_analysis(ss_timelines *t) {
    const ss_inputs *ain = t->an->in;
    size_t na = ss_inputs_count(ain), j = 0;
    for (size_t i = 0; i < t->nparts; i++) {
        tl_part *P = &t->parts[i];
        while (j < na) {
            const ss_input_partition *q = ss_inputs_at(ain, j);
            int c = strcmp(q->topic, P->pub.topic);
            if (c > 0 || (!c && q->partition >= P->pub.partition)) break;
            j++;
        }
        if (P->pub.copies != 1 || j >= na) continue;
        const ss_input_partition *q = ss_inputs_at(ain, j);
        if (strcmp(q->topic, P->pub.topic) != 0 || q->partition != P->pub.partition) continue;
        const ss_input_partition *r = j + 1 < na ? ss_inputs_at(ain, j + 1) : NULL;
        if (r && !strcmp(r->topic, q->topic) && r->partition == q->partition) continue;
        P->an_part = (long)j;
    }
}

ss_errkind ss_timelines_read_with(ss_timelines *t, const ss_inputs *in, unsigned threads, const ss_analysis *an) {
    t->an = an;
    return ss_timelines_read(t, in, threads);
}

ss_errkind ss_timelines_read(ss_timelines *t, const ss_inputs *in, unsigned threads) {
    t->in = in;
    size_t n = ss_inputs_count(in);
    t->parts = calloc(n ? n : 1, sizeof *t->parts);
    if (!t->parts) return SS_E_NOMEM;
    /* one entry per (topic, partition); the inputs are sorted by topic, then partition */
    for (size_t i = 0; i < n; i++) {
        const ss_input_partition *ip = ss_inputs_at(in, i);
        /* a partition directory, an export's partition, or a partition held in memory under its
         * name (ss_inputs_add_memory: its segments have no path); not a lone segment file */
        bool mem = ip->nsegments && !ip->segments[0].path;
        if (ip->internal || ip->partition < 0 || (!ip->is_dir && !ip->export_file && !mem)) continue;
        tl_part *last = t->nparts ? &t->parts[t->nparts - 1] : NULL;
        if (last && last->pub.partition == ip->partition && !strcmp(last->pub.topic, ip->topic)) {
            last->pub.copies++;
            if (last_base(ip) > last_base(last->pub.input)) {
                last->pub.input = ip;
                last->input = i;
            }
            continue;
        }
        tl_part *P = &t->parts[t->nparts++];
        P->pub.input = ip;
        P->pub.topic = ip->topic;
        P->pub.partition = ip->partition;
        P->pub.copies = 1;
        P->pub.first_offset = P->pub.next_offset = P->pub.log_start = -1;
        P->pub.max_timestamp = -1;
        P->input = i;
        P->an_part = -1;
    }
    if (!t->nparts) return SS_E_OK;
    if (t->an) match_analysis(t);
    if (!threads) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        threads = c > 0 ? (unsigned)c : 1;
    }
    if (threads > 256) threads = 256;
    if (threads > t->nparts) threads = (unsigned)t->nparts;
    tl_worker *ws = calloc(threads, sizeof *ws);
    pthread_t *tids = calloc(threads, sizeof *tids);
    ss_errkind rc = ws && tids ? SS_E_OK : SS_E_NOMEM;
    for (unsigned k = 0; rc == SS_E_OK && k < threads; k++) {
        ws[k].t = t;
        ws[k].dec = ss_decoder_new(t->max_batch_bytes);
        if (!ws[k].dec) rc = SS_E_NOMEM;
    }
    if (rc == SS_E_OK) {
        atomic_store(&t->next, 0);
        unsigned started = 0;
        for (unsigned k = 1; k < threads; k++) {
            if (pthread_create(&tids[k], NULL, worker_main, &ws[k]) != 0) break;
            started = k;
        }
        worker_main(&ws[0]);
        for (unsigned k = 1; k <= started; k++) pthread_join(tids[k], NULL);
    }
    for (unsigned k = 0; ws && k < threads; k++) {
        ss_decoder_free(ws[k].dec);
        free(ws[k].buf);
    }
    free(ws);
    free(tids);
    if (rc != SS_E_OK) return rc;
    for (size_t i = 0; i < t->nparts; i++) {
        tl_part *P = &t->parts[i];
        if (P->nomem) rc = SS_E_NOMEM;
        if (P->pub.max_timestamp > t->max_ts) t->max_ts = P->pub.max_timestamp;
        for (size_t k = 0; k < P->notes.n; k++)
            (void)ss_problems_add(&t->problems, P->notes.v[k].severity, P->notes.v[k].kind, "%s", P->notes.v[k].msg);
    }
    return rc;
}

size_t ss_timelines_count(const ss_timelines *t) { return t->nparts; }
const ss_tl_partition *ss_timelines_at(const ss_timelines *t, size_t i) { return &t->parts[i].pub; }
int64_t ss_timelines_max_timestamp(const ss_timelines *t) { return t->max_ts; }
const ss_problems *ss_timelines_problems(const ss_timelines *t) { return &t->problems; }

static int cmp_key(const char *topic, size_t len, int32_t partition, const ss_tl_partition *p) {
    size_t pl = strlen(p->topic);
    size_t m = len < pl ? len : pl;
    int c = memcmp(topic, p->topic, m);
    if (c) return c;
    if (len != pl) return len < pl ? -1 : 1;
    return partition < p->partition ? -1 : partition > p->partition;
}

const ss_tl_partition *ss_timelines_find(const ss_timelines *t, const char *topic, size_t len, int32_t partition) {
    if (!t || !topic) return NULL;
    size_t lo = 0, hi = t->nparts;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = cmp_key(topic, len, partition, &t->parts[mid].pub);
        if (!c) return &t->parts[mid].pub;
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    return NULL;
}

static const tl_part *part_of(const ss_tl_partition *p) {
    /* pub is the first member of tl_part */
    return (const tl_part *)(const void *)p;
}

int64_t ss_tl_end_at(const ss_tl_partition *p, int64_t time) {
    const tl_part *P = part_of(p);
    if (!P->n || !P->block_max) return p->log_start < 0 ? 0 : p->log_start;
    size_t nb = (P->n + BLOCK - 1) / BLOCK, lo = 0, hi = nb;
    while (lo < hi) { /* the first block whose prefix maximum is past `time` */
        size_t mid = lo + (hi - lo) / 2;
        if (P->block_max[mid] > time) hi = mid;
        else lo = mid + 1;
    }
    if (lo == nb) return p->next_offset;
    size_t end = (lo + 1) * BLOCK < P->n ? (lo + 1) * BLOCK : P->n;
    for (size_t i = lo * BLOCK; i < end; i++)
        if (P->b[i].max_ts > time) return P->b[i].base > p->log_start ? P->b[i].base : p->log_start;
    return p->next_offset; /* not reached: the block's maximum is one of its batches' */
}

/* the first batch whose last offset is at or after `offset` */
static size_t batch_from(const tl_part *P, int64_t offset) {
    size_t lo = 0, hi = P->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (P->b[mid].base + (int64_t)P->b[mid].last_delta < offset) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The records of batch x at offsets [lo, hi], read from its segment. */
static int64_t count_in_batch(ss_timelines *t, const tl_part *P, const tlb *x, int64_t lo, int64_t hi) {
    if (!t->dec) t->dec = ss_decoder_new(t->max_batch_bytes);
    if (!t->dec) return -1;
    ss_segment *s;
    ss_error e;
    if (ss_inputs_open_segment(t->in, P->input, x->seg, &s, &e) != SS_E_OK) return -1;
    int64_t n = -1;
    uint8_t h[V2_OVERHEAD];
    if (ss_segment_read(s, x->pos, h, HEADER_UP_TO_MAGIC) == HEADER_UP_TO_MAGIC) {
        uint64_t esize = (uint64_t)(uint32_t)ss_be32(h + ENTRY_SIZE_OFF) + LOG_OVERHEAD;
        if (esize <= t->max_batch_bytes) (void)SS_FIT(t->buf, (size_t)esize, t->bufcap); /* else too large: skipped */
        ss_batch b;
        if (esize <= t->bufcap && ss_segment_read(s, x->pos, t->buf, (size_t)esize) == esize &&
            ss_batch_parse(t->buf, esize, x->pos, false, t->dec, &b, &e) == SS_E_OK) {
            ss_rec_iter it;
            ss_record r;
            if (ss_records_begin(t->dec, &b, &it, &e) == SS_E_OK) {
                int rc;
                int64_t prev = INT64_MIN;
                bool ordered = true;
                n = 0;
                /* The timeline reads headers without their CRC: a batch whose records' offsets do
                 * not increase (DefaultRecord's offsetDelta, ascending as the producer wrote them)
                 * is damaged, and could count more records than the range spans: unknown. */
                while ((rc = ss_records_next(&it, &r, &e)) == 1) {
                    if (r.offset <= prev) ordered = false;
                    prev = r.offset;
                    if (r.offset >= lo && r.offset <= hi) n++;
                }
                if (rc < 0 || !ordered) n = -1;
            }
        }
    }
    ss_segment_close(s);
    return n;
}

/* the records of batch i at offsets [from, to] */
static int64_t part_of_batch(ss_timelines *t, const tl_part *P, size_t i, int64_t from, int64_t to) {
    const tlb *x = &P->b[i];
    if (x->flags & TB_CTRL) return 0;
    int64_t last = x->base + (int64_t)x->last_delta;
    int64_t lo = x->base > from ? x->base : from, hi = last < to ? last : to;
    if (lo > hi) return 0;
    if (lo == x->base && hi == last) return x->count;
    if ((int64_t)x->last_delta + 1 == x->count) return hi - lo + 1;
    return count_in_batch(t, P, x, lo, hi);
}

int64_t ss_tl_records(ss_timelines *t, const ss_tl_partition *p, int64_t from, int64_t to) {
    const tl_part *P = part_of(p);
    if (from < p->log_start) from = p->log_start;
    if (to >= p->next_offset) to = p->next_offset - 1;
    if (!P->n || from > to || !P->cum) return 0;
    /* the first and the last batch the range meets, counted in part; those between whole */
    size_t i = batch_from(P, from), j = batch_from(P, to);
    if (i >= P->n) return 0;
    if (j >= P->n) j = P->n - 1;
    if (P->b[j].base > to) {
        if (j == 0) return 0;
        j--;
    }
    if (j < i) return 0;
    int64_t a = part_of_batch(t, P, i, from, to);
    if (a < 0) return -1;
    if (i == j) return a;
    int64_t b = part_of_batch(t, P, j, from, to);
    if (b < 0) return -1;
    return a + b + (int64_t)(P->cum[j] - P->cum[i + 1]);
}

size_t ss_tl_batch_count(const ss_tl_partition *p) { return part_of(p)->n; }

void ss_tl_batch_at(const ss_tl_partition *p, size_t i, ss_tl_batch *out) {
    const tlb *x = &part_of(p)->b[i];
    out->base_offset = x->base;
    out->last_offset = x->base + (int64_t)x->last_delta;
    out->max_timestamp = (x->flags & TB_NOTS) ? -1 : x->max_ts;
    out->producer_id = x->pid;
    out->producer_epoch = x->epoch;
    out->records = x->count;
    out->segment = x->seg;
    out->control = (x->flags & TB_CTRL) != 0;
    out->transactional = (x->flags & TB_TXN) != 0;
    out->log_append_time = (x->flags & TB_LAT) != 0;
    out->commit = (x->flags & TB_COMMIT) != 0;
    out->abort = (x->flags & TB_ABORT) != 0;
}

size_t ss_tl_txn_count(const ss_tl_partition *p) { return part_of(p)->ntxns; }
const ss_tl_txn *ss_tl_txn_at(const ss_tl_partition *p, size_t i) { return &part_of(p)->txns[i]; }

size_t ss_tl_txns_of(const ss_tl_partition *p, int64_t pid, size_t *first) {
    const tl_part *P = part_of(p);
    size_t lo = 0, hi = P->ntxns;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (P->txns[mid].producer_id < pid) lo = mid + 1;
        else hi = mid;
    }
    size_t k = lo;
    while (k < P->ntxns && P->txns[k].producer_id == pid) k++;
    if (first) *first = lo;
    return k - lo;
}

const ss_tl_txn *ss_tl_txn_holding(const ss_tl_partition *p, int64_t pid, int64_t offset) {
    size_t first, n = ss_tl_txns_of(p, pid, &first);
    for (size_t i = first; i < first + n; i++) {
        const ss_tl_txn *x = ss_tl_txn_at(p, i);
        if (offset >= x->first_offset && offset <= x->last_offset) return x;
    }
    return NULL;
}
