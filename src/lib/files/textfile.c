/* segscan - the text files of a log directory and of its partition
 * directories, read by kind (checkpoint.c, properties.c, jsonfile.c read
 * each) and checked against what they describe: the spans of the partitions'
 * logs, read from their segments' batch headers.
 *
 * The facts the checks rest on (Kafka 4.0 sources):
 *  - LeaderEpochFileCache.assign removes every entry whose epoch or start
 *    offset is not below the new one's, so both increase strictly; an epoch
 *    starts at most at the log end offset (Partition.makeLeader assigns it
 *    the log end offset).
 *  - LogLoader takes the log start offset as max(log-start-offset-checkpoint,
 *    the first segment's base offset) and, when the log end offset is below
 *    the checkpointed log start, deletes every segment
 *    (deleteSegmentsIfLogStartGreaterThanLogEnd); it recovers from
 *    min(recovery point, log end offset).
 *  - UnifiedLog keeps the high watermark at most at the log end offset.
 *  - LogCleanerManager.cleanableOffsets resets a checkpointed dirty offset
 *    below the log start or past the log end offset to the log start, with a
 *    warning.
 *  - QuorumState.initialize: an epoch in quorum-state below the last epoch of
 *    the metadata log is stale (Kafka warns and starts at the log's epoch).
 *  - MetaPropertiesEnsemble.verify refuses a reserved directory.id
 *    (DirectoryId.reserved: most significant bits 0, least below 100).
 *  - OffsetCheckpointFile reads the entries into a map: a partition listed
 *    twice keeps its last entry; Kafka never writes one twice.
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error_set.h"
#include "base/javaint.h"
#include "base/map.h"
#include "base/paths.h"
#include "files/javatext.h"
#include "format/kafka_format.h"
#include "segscan/base.h"
#include "segscan/files.h"

/* ---- kinds ----------------------------------------------------------------------------- */

static const char *const kind_names[SS_TEXT_KIND_COUNT] = {
    NULL,
    "leader-epoch-checkpoint",
    "partition.metadata",
    "quorum-state",
    "recovery-point-offset-checkpoint",
    "replication-offset-checkpoint",
    "log-start-offset-checkpoint",
    "cleaner-offset-checkpoint",
    "meta.properties",
    ".kafka_cleanshutdown",
};

ss_text_kind ss_text_kind_of(const char *path) {
    const char *name = strrchr(path, '/');
    name = name ? name + 1 : path;
    for (int k = 1; k < SS_TEXT_KIND_COUNT; k++)
        if (!strcmp(name, kind_names[k])) return (ss_text_kind)k;
    return SS_TEXT_NONE;
}

const char *ss_text_kind_name(ss_text_kind kind) {
    return (int)kind > SS_TEXT_NONE && (int)kind < SS_TEXT_KIND_COUNT ? kind_names[kind] : NULL;
}

bool ss_text_kind_in_log_dir(ss_text_kind kind) {
    return kind >= SS_TEXT_RECOVERY_POINT && (int)kind < SS_TEXT_KIND_COUNT;
}

static bool is_offset_checkpoint(ss_text_kind k) { return k >= SS_TEXT_RECOVERY_POINT && k <= SS_TEXT_CLEANER_OFFSET; }

/* ---- reading --------------------------------------------------------------------------- */

void ss_textfile_free(ss_textfile *f) {
    if (!f) return;
    ss_checkpoint_free(&f->ckpt);
    free(f->line_pos);
    f->line_pos = NULL;
    ss_meta_properties_free(&f->meta);
    ss_quorum_state_free(&f->quorum);
}

/* The byte positions of the entries' lines: line i + 2 holds entry i. */
static bool entry_lines(const char *text, size_t len, ss_textfile *f) {
    f->line_pos = calloc(f->ckpt.n ? f->ckpt.n : 1, sizeof *f->line_pos);
    if (!f->line_pos) return false;
    ft_lines lr = {text, text, text + len};
    const char *s;
    size_t n, line = 0;
    for (;;) {
        uint64_t at = (uint64_t)(lr.p - text);
        if (!ft_next_line(&lr, &s, &n)) break;
        if (line >= 2 && line - 2 < f->ckpt.n) f->line_pos[line - 2] = at;
        line++;
    }
    return true;
}

static ss_errkind parse_kind(const char *text, size_t len, ss_text_kind kind, const char *display_path,
                             ss_textfile *out, ss_error *err);

ss_errkind ss_textfile_parse(const char *text, size_t len, ss_text_kind kind, const char *display_path,
                             ss_textfile *out, ss_error *err) {
    ss_errkind k = parse_kind(text, len, kind, display_path, out, err);
    /* Kafka's message for an empty partition.metadata or quorum-state does not say it is empty */
    if (k == SS_E_BAD_CHECKPOINT && len == 0) ss_error_append(err, " (the file is empty)");
    return k;
}

static ss_errkind parse_kind(const char *text, size_t len, ss_text_kind kind, const char *display_path,
                             ss_textfile *out, ss_error *err) {
    memset(out, 0, sizeof *out);
    out->kind = kind;
    out->size = len;
    out->empty = len == 0;
    if (!text) text = "";
    ss_errkind k;
    switch (kind) {
    case SS_TEXT_LEADER_EPOCH:
    case SS_TEXT_RECOVERY_POINT:
    case SS_TEXT_REPLICATION_OFFSET:
    case SS_TEXT_LOG_START_OFFSET:
    case SS_TEXT_CLEANER_OFFSET:
        k = ss_checkpoint_parse(text, len, kind == SS_TEXT_LEADER_EPOCH ? SS_CKPT_LEADER_EPOCH : SS_CKPT_OFFSETS,
                                display_path, &out->ckpt, err);
        if (k == SS_E_OK) {
            out->empty = out->ckpt.empty;
            if (!entry_lines(text, len, out)) {
                ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
                return SS_E_NOMEM;
            }
        }
        return k;
    case SS_TEXT_PARTITION_METADATA: return ss_partition_metadata_parse(text, len, display_path, &out->pm, err);
    case SS_TEXT_QUORUM_STATE: return ss_quorum_state_parse(text, len, display_path, &out->quorum, err);
    case SS_TEXT_META_PROPERTIES: return ss_meta_properties_parse(text, len, display_path, &out->meta, err);
    case SS_TEXT_CLEAN_SHUTDOWN: return ss_clean_shutdown_parse(text, len, display_path, &out->shutdown, err);
    default:
        ss_error_set(err, SS_E_USAGE, 0, -1, "%s: not a text file segscan knows", display_path ? display_path : "?");
        return SS_E_USAGE;
    }
}

ss_errkind ss_textfile_read(const char *path, ss_text_kind kind, ss_textfile *out, ss_error *err) {
    memset(out, 0, sizeof *out);
    if (kind == SS_TEXT_NONE) kind = ss_text_kind_of(path);
    out->kind = kind;
    if (kind == SS_TEXT_NONE) {
        ss_error_set(err, SS_E_USAGE, 0, -1, "%s: not a text file segscan knows", path);
        return SS_E_USAGE;
    }
    ss_segment *seg;
    ss_errkind k = ss_segment_open(path, &seg, err);
    if (k != SS_E_OK) return k;
    char *abs = ss_java_absolute_path(path);
    k = ss_textfile_parse((const char *)ss_segment_data(seg), (size_t)ss_segment_size(seg), kind, abs ? abs : path, out,
                          err);
    free(abs);
    ss_segment_close(seg);
    return k;
}

/* ---- the span of a partition's log ------------------------------------------------------- */

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static int64_t be64(const uint8_t *p) { return (int64_t)((uint64_t)be32(p) << 32 | be32(p + 4)); }

/* Are the bytes from pos to the end zero (a preallocated tail)? */
static bool zeros_from(const ss_segment *seg, uint64_t pos, uint64_t size) {
    uint8_t buf[4096];
    while (pos < size) {
        size_t want = size - pos < sizeof buf ? (size_t)(size - pos) : sizeof buf;
        size_t got = ss_segment_read(seg, pos, buf, want);
        if (got == 0) return false;
        for (size_t i = 0; i < got; i++)
            if (buf[i]) return false;
        pos += got;
    }
    return true;
}

/* Hop over the batch headers from pos (a batch boundary) to the end of the
 * segment: the last batch's last offset and epoch. True when the hop reached
 * the end (or a zero tail); false when the framing stopped before it. */
static bool hop(const ss_segment *seg, uint64_t pos, int64_t *last, int32_t *epoch) {
    uint64_t size = ss_segment_size(seg);
    uint8_t h[V2_LAST_DELTA_OFF + 4]; /* up to and with lastOffsetDelta */
    while (pos < size) {
        if (size - pos < LOG_OVERHEAD) return zeros_from(seg, pos, size);
        size_t got = ss_segment_read(seg, pos, h, sizeof h);
        if (got < LOG_OVERHEAD) return false;
        int64_t off = be64(h);
        int32_t len = (int32_t)be32(h + ENTRY_SIZE_OFF);
        /* the smallest legacy message: crc, magic, attributes, key and value lengths */
        if (len < MIN_ENTRY) return zeros_from(seg, pos, size);
        if ((uint64_t)len > size - pos - LOG_OVERHEAD || got < HEADER_UP_TO_MAGIC) return false;
        int magic = h[ENTRY_MAGIC_OFF];
        if (magic == 2) {
            if (len < V2_OVERHEAD - LOG_OVERHEAD || got < sizeof h) return false;
            *last = off + (int32_t)be32(h + V2_LAST_DELTA_OFF);
            *epoch = (int32_t)be32(h + V2_PLE_OFF);
        } else if (magic == 0 || magic == 1) {
            *last = off; /* a legacy entry's offset is its last (inner) offset */
            *epoch = -1;
        } else {
            return false;
        }
        pos += LOG_OVERHEAD + (uint64_t)len;
    }
    return true;
}

static bool digits20_log(const char *n, int64_t *off) {
    int64_t v = ss_name_offset20(n);
    if (v < 0 || strcmp(n + 20, ".log") != 0) return false;
    *off = v;
    return true;
}

bool ss_log_span_read(const char *dir, ss_log_span *out) {
    memset(out, 0, sizeof *out);
    out->last_epoch = -1;
    DIR *d = opendir(dir);
    if (!d) return false;
    int64_t first = -1, lastseg = -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        int64_t off;
        if (strlen(e->d_name) != 24 || !digits20_log(e->d_name, &off)) continue;
        if (first < 0 || off < first) first = off;
        if (off > lastseg) lastseg = off;
    }
    closedir(d);
    if (first < 0) return false;
    out->known = true;
    out->start = first;
    out->end = lastseg;
    char name[32];
    snprintf(name, sizeof name, "%020" PRId64 ".log", lastseg);
    char *path = ss_path_join(dir, name);
    if (!path) return true;
    ss_segment *seg;
    ss_error err;
    if (ss_segment_open(path, &seg, &err) != SS_E_OK) {
        out->cut = true;
        free(path);
        return true;
    }
    /* Start at the last entry of the .index that names a batch holding its offset. */
    uint64_t from = 0;
    snprintf(name, sizeof name, "%020" PRId64 ".index", lastseg);
    char *ipath = ss_path_join(dir, name);
    ss_index *ix = NULL;
    if (ipath && ss_index_open(ipath, SS_INDEX_OFFSET, lastseg, &ix, &err) == SS_E_OK && ix->listed > 0) {
        ss_offset_entry en = ss_index_offset_entry(ix, ix->listed - 1);
        uint8_t h[V2_LAST_DELTA_OFF + 4];
        if (en.position > 0 && ss_segment_read(seg, (uint64_t)en.position, h, sizeof h) == sizeof h &&
            h[ENTRY_MAGIC_OFF] == 2 && be64(h) <= en.offset &&
            be64(h) + (int32_t)be32(h + V2_LAST_DELTA_OFF) >= en.offset)
            from = (uint64_t)en.position;
    }
    if (ix) ss_index_close(ix);
    free(ipath);
    int64_t last = -1;
    int32_t epoch = -1;
    bool clean = hop(seg, from, &last, &epoch);
    if (!clean && from > 0) {
        last = -1;
        epoch = -1;
        clean = hop(seg, 0, &last, &epoch);
    }
    out->cut = !clean;
    if (last >= 0) {
        out->end = ss_next_offset(last);
        out->last_epoch = epoch;
    }
    ss_segment_close(seg);
    free(path);
    return true;
}

/* The spans read so far, in a map by (topic, partition) (base/map.h): the four
 * offset checkpoints of a log directory name the same partitions. */
typedef struct span_key {
    char *topic; /* held: the map's own copy */
    int32_t partition;
} span_key;

typedef struct span_val {
    bool have;
    ss_log_span span;
} span_val;

struct ss_log_dir_spans {
    char *dir;
    ss_map m; /* span_key -> span_val */
};

static uint64_t span_hash(const char *topic, int32_t partition) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)topic; *p; p++) h = (h ^ *p) * 1099511628211ull;
    h = (h ^ (uint32_t)partition) * 1099511628211ull;
    return h ^ (h >> 29);
}

static bool span_eq(const void *held, const void *key) {
    const span_key *a = held, *b = key;
    return a->partition == b->partition && !strcmp(a->topic, b->topic);
}

ss_log_dir_spans *ss_log_dir_spans_new(const char *log_dir) {
    ss_log_dir_spans *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    size_t n = strlen(log_dir);
    s->dir = malloc(n + 1);
    if (!s->dir) {
        free(s);
        return NULL;
    }
    memcpy(s->dir, log_dir, n + 1);
    ss_map_init(&s->m, sizeof(span_key), sizeof(span_val), 64, 50);
    s->m.eq = span_eq;
    return s;
}

void ss_log_dir_spans_free(ss_log_dir_spans *s) {
    if (!s) return;
    for (size_t i = 0; i < s->m.cap; i++) {
        const void *k;
        if (ss_map_slot(&s->m, i, &k)) free(((const span_key *)k)->topic);
    }
    ss_map_free(&s->m);
    free(s->dir);
    free(s);
}

bool ss_log_dir_span(void *arg, const char *topic, int32_t partition, ss_log_span *out) {
    ss_log_dir_spans *s = arg;
    span_key key = {(char *)topic, partition};
    uint64_t h = span_hash(topic, partition);
    const span_val *x = ss_map_find(&s->m, &key, h);
    if (x) {
        *out = x->span;
        return x->have;
    }
    /* <topic>-<partition>: the directory Kafka names a partition's log by (UnifiedLog.logDirName) */
    size_t tl = strlen(topic);
    char *name = malloc(tl + 16);
    if (!name) return false;
    snprintf(name, tl + 16, "%s-%" PRId32, topic, partition);
    char *dir = ss_path_join(s->dir, name);
    free(name);
    ss_log_span sp;
    bool have = dir && ss_log_span_read(dir, &sp);
    free(dir);
    if (!have) memset(&sp, 0, sizeof sp);
    *out = sp;
    /* kept for the next file's lookups (not kept when memory runs out: read again then) */
    key.topic = malloc(tl + 1);
    if (!key.topic) return have;
    memcpy(key.topic, topic, tl + 1);
    span_val *v = ss_map_put(&s->m, &key, h, NULL);
    if (!v) {
        free(key.topic);
        return have;
    }
    v->have = have;
    v->span = sp;
    return have;
}

/* ---- checks ----------------------------------------------------------------------------- */

typedef struct checker {
    const ss_textfile *f;
    ss_text_finding_fn cb;
    void *arg;
    size_t failed;
} checker;

static void finding(checker *c, const char *check, bool info, uint64_t pos, int64_t off, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static void finding(checker *c, const char *check, bool info, uint64_t pos, int64_t off, const char *fmt, ...) {
    ss_text_finding f;
    f.check = check;
    f.offset = off;
    va_list ap;
    va_start(ap, fmt);
    ss_error_vset(&f.problem, SS_E_OK, pos, -1, fmt, ap);
    va_end(ap);
    f.problem.severity = info ? SS_SEV_NOTICE : SS_SEV_WARNING;
    if (!info) c->failed++;
    if (c->cb) c->cb(c->arg, &f);
}

static uint64_t line_of(const ss_textfile *f, size_t i) { return f->line_pos ? f->line_pos[i] : 0; }

static void check_epochs(checker *c, const ss_log_span *span) {
    const ss_checkpoint *e = &c->f->ckpt;
    for (size_t i = 1; i < e->n; i++) {
        const ss_epoch_entry *a = &e->epochs[i - 1], *b = &e->epochs[i];
        if (b->epoch <= a->epoch || b->start_offset <= a->start_offset)
            finding(c, "leader-epoch-order", false, line_of(c->f, i), b->start_offset,
                    "entry %zu (epoch %" PRId32 ", start offset %" PRId64 ") does not follow entry %zu (epoch %" PRId32
                    ", start offset %" PRId64 "): both must increase",
                    i, b->epoch, b->start_offset, i - 1, a->epoch, a->start_offset);
    }
    if (!span || !span->known) return;
    for (size_t i = 0; i < e->n; i++) {
        const ss_epoch_entry *en = &e->epochs[i];
        if (en->start_offset > span->end)
            finding(c, "leader-epoch", false, line_of(c->f, i), en->start_offset,
                    "epoch %" PRId32 " starts at offset %" PRId64 ", past the log end offset %" PRId64, en->epoch,
                    en->start_offset, span->end);
    }
}

typedef struct ent_ref {
    const ss_ckpt_offset *e;
    size_t i;
} ent_ref;

static int cmp_ent(const void *a, const void *b) {
    const ent_ref *x = a, *y = b;
    int k = strcmp(x->e->topic, y->e->topic);
    if (k) return k;
    if (x->e->partition != y->e->partition) return x->e->partition < y->e->partition ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static const char *what_offset(ss_text_kind k) {
    switch (k) {
    case SS_TEXT_RECOVERY_POINT: return "recovery point";
    case SS_TEXT_REPLICATION_OFFSET: return "high watermark";
    case SS_TEXT_LOG_START_OFFSET: return "log start offset";
    default: return "cleaner offset (first dirty offset)";
    }
}

static const char *why_past_end(ss_text_kind k) {
    switch (k) {
    case SS_TEXT_RECOVERY_POINT: return "data the broker had flushed is not in the log (a cut or restored copy?)";
    case SS_TEXT_REPLICATION_OFFSET:
        return "records the broker counted as committed are not in its log (a cut or restored copy?)";
    case SS_TEXT_LOG_START_OFFSET:
        return "at startup Kafka would delete every segment of the partition (LogLoader: log end offset below the "
               "log start offset)";
    default: return "the log cleaner resets it to the log start offset (LogCleanerManager)";
    }
}

static void check_offsets(checker *c, ss_span_fn span, void *span_arg) {
    const ss_textfile *f = c->f;
    const ss_checkpoint *ck = &f->ckpt;
    if (ck->n > 1) {
        ent_ref *v = malloc(ck->n * sizeof *v);
        if (v) {
            for (size_t i = 0; i < ck->n; i++) {
                v[i].e = &ck->offsets[i];
                v[i].i = i;
            }
            qsort(v, ck->n, sizeof *v, cmp_ent);
            for (size_t i = 1; i < ck->n; i++)
                if (v[i].e->partition == v[i - 1].e->partition && !strcmp(v[i].e->topic, v[i - 1].e->topic))
                    finding(c, "checkpoint-duplicate", false, line_of(f, v[i].i), v[i].e->offset,
                            "%s-%" PRId32 " is listed again (entries %zu and %zu): Kafka never writes a partition "
                            "twice, and reading keeps the last entry",
                            v[i].e->topic, v[i].e->partition, v[i - 1].i, v[i].i);
            free(v);
        }
    }
    if (!span) return;
    size_t missing = 0;
    char names[200] = "";
    size_t nl = 0;
    uint64_t first_missing = 0;
    for (size_t i = 0; i < ck->n; i++) {
        const ss_ckpt_offset *e = &ck->offsets[i];
        ss_log_span sp;
        if (!span(span_arg, e->topic, e->partition, &sp) || !sp.known) {
            if (!missing++) first_missing = line_of(f, i);
            if (missing <= 5 && nl < sizeof names - 1) {
                int w = snprintf(names + nl, sizeof names - nl, "%s%s-%" PRId32, missing > 1 ? ", " : "", e->topic,
                                 e->partition);
                if (w > 0) nl += (size_t)w < sizeof names - nl ? (size_t)w : sizeof names - nl - 1;
            }
            continue;
        }
        const char *cut = sp.cut ? " (its last segment's batches end before the file does)" : "";
        if (e->offset > sp.end)
            finding(c, "checkpoint-offset", false, line_of(f, i), e->offset,
                    "the %s %" PRId64 " of %s-%" PRId32 " is past its log end offset %" PRId64 "%s: %s",
                    what_offset(f->kind), e->offset, e->topic, e->partition, sp.end, cut, why_past_end(f->kind));
        else if (f->kind == SS_TEXT_CLEANER_OFFSET && e->offset < sp.start)
            finding(c, "cleaner-offset-below-log-start", true, line_of(f, i), e->offset,
                    "the cleaner offset %" PRId64 " of %s-%" PRId32 " is below its first segment's base offset %" PRId64
                    " (retention removed what it pointed at): the log cleaner resets it to the log start offset",
                    e->offset, e->topic, e->partition, sp.start);
    }
    if (missing)
        finding(c, "checkpoint-no-partition", true, first_missing, -1,
                "%zu %s without a partition directory beside the checkpoint, not checked against a log: %s%s", missing,
                missing == 1 ? "entry names a partition" : "entries name partitions", names,
                missing > 5 ? ", ..." : "");
}

size_t ss_textfile_check(const ss_textfile *f, const ss_log_span *dir_span, ss_span_fn span, void *span_arg,
                         ss_text_finding_fn cb, void *cb_arg) {
    checker c = {f, cb, cb_arg, 0};
    switch (f->kind) {
    case SS_TEXT_LEADER_EPOCH: check_epochs(&c, dir_span); break;
    case SS_TEXT_QUORUM_STATE:
        if (dir_span && dir_span->known && dir_span->last_epoch >= 0 && f->quorum.leader_epoch < dir_span->last_epoch)
            finding(&c, "quorum-state-epoch", false, 0, -1,
                    "the quorum's epoch %" PRId32 " is below the epoch %" PRId32 " of the metadata log's last batch: "
                    "the file is older than the log (Kafka warns and starts unattached at the log's epoch)",
                    f->quorum.leader_epoch, dir_span->last_epoch);
        break;
    case SS_TEXT_META_PROPERTIES:
        if (f->meta.has_directory_id) {
            const uint8_t *id = f->meta.directory_id;
            bool hi_zero = true;
            for (int k = 0; k < 8; k++) hi_zero = hi_zero && id[k] == 0;
            bool lo_small = true;
            for (int k = 8; k < 15; k++) lo_small = lo_small && id[k] == 0;
            if (hi_zero && lo_small && id[15] < 100) {
                const ss_property *p = NULL;
                for (size_t k = 0; k < f->meta.nprops; k++)
                    if (!strcmp(f->meta.props[k].key, "directory.id")) p = &f->meta.props[k];
                finding(&c, "meta-properties-directory-id", false, p ? p->position : 0, -1,
                        "directory.id %s is one of the 100 reserved ids (DirectoryId.reserved): the broker refuses "
                        "to start with it",
                        p ? p->value : "?");
            }
        }
        break;
    default:
        if (is_offset_checkpoint(f->kind)) check_offsets(&c, span, span_arg);
        break;
    }
    return c.failed;
}
