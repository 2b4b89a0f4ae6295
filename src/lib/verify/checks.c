/* segscan - verify's checks and findings: the table of checks (name,
 * severity, kind, description), a finding handed to the caller's callback, the cap
 * on one check's findings in one file; and the small helpers and containers
 * the checkers share (paths, segment names, batch and marker lists, the
 * producer state map). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error_set.h"
#include "base/grow.h"
#include "verify/verify.h"

/* ---- the checks ------------------------------------------------------------------ */

/* A check's severity and kind give its findings' weight (ss_verify_level_name): a
 * damage check's kind is the damage class's kind of error it finds (its message
 * names the reader's own kind where there is one), "unreadable"'s SS_E_IO; the
 * others keep SS_E_OK unless a kind of error names what they note. */
typedef struct vcheck {
    const char *name;
    ss_severity severity;
    ss_errkind kind;
    const char *desc;
} vcheck;

static const vcheck checks[] = {
    {"unreadable", SS_SEV_ERROR, SS_E_IO, "a file could not be opened or read"},
    {"batch-crc", SS_SEV_ERROR, SS_E_CRC_MISMATCH, "a batch's stored CRC differs from the CRC of its bytes"},
    {"log-damage", SS_SEV_ERROR, SS_E_BAD_BATCH,
     "mid-file damage in a .log: bad length, bad magic, undecodable records, garbage, a file cut while read"},
    {"incomplete-tail", SS_SEV_WARNING, SS_E_INCOMPLETE_TAIL,
     "the last entry of a .log runs past the end of the file (unclean shutdown or a cut copy; Kafka's recovery "
     "would truncate it)"},
    {"log-zero-tail", SS_SEV_NOTICE, SS_E_ZERO_TAIL,
     "zero bytes after the last batch of a segment that is not the active one"},
    {"offset-order", SS_SEV_WARNING, SS_E_OK,
     "a batch's base offset is not above the last offset of the batch before it in the segment"},
    {"segment-overlap", SS_SEV_WARNING, SS_E_SEGMENT_OVERLAP,
     "a segment's first batch starts at or below the last offset of the segment before it"},
    {"segment-gap", SS_SEV_WARNING, SS_E_OK,
     "offsets between two segments that neither holds, where the log shows no cleaning there or files beside it "
     "(an index or snapshot without its .log, a leader-epoch-checkpoint entry) name the missing segment"},
    {"segment-name", SS_SEV_WARNING, SS_E_OK,
     "a segment's file name is above its first batch's base offset, or not above the previous segment's last "
     "offset"},
    {"index-missing", SS_SEV_NOTICE, SS_E_OK,
     "no .index or .timeindex beside a non-empty segment (the broker rebuilds it)"},
    {"index-size", SS_SEV_ERROR, SS_E_BAD_INDEX,
     "an .index or .timeindex whose size is not a multiple of its entry size"},
    {"index-order", SS_SEV_WARNING, SS_E_OK, "offset index entries whose offsets or positions do not increase"},
    {"index-entry", SS_SEV_WARNING, SS_E_OK,
     "an offset index entry not at a batch boundary, or whose batch starts above its offset, or whose offset is "
     "not the last offset of a batch at or after its position"},
    {"index-past-eof", SS_SEV_WARNING, SS_E_OK,
     "an offset index entry whose position or offset lies past the end of the log"},
    {"index-preallocated", SS_SEV_NOTICE, SS_E_OK,
     "a zero-filled preallocated index tail beside a segment that is not the active one"},
    {"timeindex-order", SS_SEV_WARNING, SS_E_OK, "time index entries whose timestamps or offsets do not increase"},
    {"timeindex-entry", SS_SEV_WARNING, SS_E_OK,
     "a time index entry (T, O) whose offset O is in no batch, or whose batch's maxTimestamp is not T"},
    {"timeindex-past-eof", SS_SEV_WARNING, SS_E_OK, "a time index entry whose offset lies past the end of the log"},
    {"txnindex-damage", SS_SEV_ERROR, SS_E_BAD_INDEX, "a .txnindex entry of an unknown version, or a partial entry"},
    {"txnindex-no-marker", SS_SEV_WARNING, SS_E_OK,
     "a .txnindex entry without the ABORT marker of its producer at its lastOffset in the segment"},
    {"txnindex-missing-entry", SS_SEV_WARNING, SS_E_OK,
     "an ABORT marker of a transaction with data in the log, without its .txnindex entry (info when the partition "
     "shows compaction)"},
    {"txnindex-entry", SS_SEV_WARNING, SS_E_OK,
     "a .txnindex entry whose firstOffset or lastStableOffset disagrees with the log (info when the partition "
     "shows compaction)"},
    {"snapshot-corrupt", SS_SEV_ERROR, SS_E_BAD_SNAPSHOT,
     "a producer snapshot that Kafka cannot read (schema, version or CRC)"},
    {"snapshot-state", SS_SEV_WARNING, SS_E_OK,
     "the newest producer snapshot disagrees with the producer state the log implies at its offset (info when "
     "the partition shows compaction: offset gaps, empty batches, a delete horizon)"},
    {"snapshot-unexplained", SS_SEV_NOTICE, SS_E_OK,
     "a snapshot entry the log cannot explain (data in deleted segments, no batch metadata)"},
    {"snapshot-missing-producer", SS_SEV_NOTICE, SS_E_OK,
     "a producer the log implies is not in the snapshot (expired: producer.id.expiration.ms)"},
    {"snapshot-beyond-log-end", SS_SEV_WARNING, SS_E_OK,
     "a producer snapshot whose offset is above the log end offset"},
    {"leader-epoch-damage", SS_SEV_ERROR, SS_E_BAD_CHECKPOINT, "a leader-epoch-checkpoint Kafka cannot read"},
    {"leader-epoch-order", SS_SEV_WARNING, SS_E_OK,
     "leader-epoch-checkpoint entries whose epochs or start offsets do not increase"},
    {"leader-epoch", SS_SEV_WARNING, SS_E_OK,
     "a batch's partitionLeaderEpoch differs from the epoch the leader-epoch-checkpoint gives its offset, an "
     "epoch starts inside a batch, or an epoch starts past the log end offset"},
    {"partition-metadata-damage", SS_SEV_ERROR, SS_E_BAD_CHECKPOINT, "a partition.metadata Kafka cannot read"},
    {"quorum-state-damage", SS_SEV_ERROR, SS_E_BAD_CHECKPOINT,
     "a quorum-state Kafka cannot read (FileQuorumStateStore)"},
    {"quorum-state-epoch", SS_SEV_WARNING, SS_E_OK,
     "the quorum-state's epoch is below the epoch of the metadata log's last batch (the file is older than the "
     "log)"},
    {"checkpoint-damage", SS_SEV_ERROR, SS_E_BAD_CHECKPOINT,
     "a recovery-point, replication, log-start or cleaner offset checkpoint Kafka cannot read"},
    {"checkpoint-offset", SS_SEV_WARNING, SS_E_OK,
     "a checkpoint entry past its partition's log end offset (recovery point, high watermark, log start offset, "
     "cleaner offset)"},
    {"checkpoint-duplicate", SS_SEV_WARNING, SS_E_OK, "a partition listed twice in one offset checkpoint"},
    {"checkpoint-no-partition", SS_SEV_NOTICE, SS_E_OK,
     "offset checkpoint entries naming partitions without a directory beside the checkpoint (not checked)"},
    {"cleaner-offset-below-log-start", SS_SEV_NOTICE, SS_E_OK,
     "a cleaner-offset-checkpoint entry below its partition's first segment (the log cleaner resets it)"},
    {"meta-properties-damage", SS_SEV_ERROR, SS_E_BAD_CHECKPOINT,
     "a meta.properties Kafka cannot read (MetaProperties)"},
    {"meta-properties-directory-id", SS_SEV_WARNING, SS_E_OK,
     "a meta.properties directory.id that is one of the reserved ids (the broker refuses it)"},
    {"clean-shutdown-damage", SS_SEV_ERROR, SS_E_BAD_CHECKPOINT,
     "a .kafka_cleanshutdown that is neither empty nor its JSON (Kafka then reads no broker epoch)"},
    {"incomplete-input", SS_SEV_NOTICE, SS_E_OK,
     "not every segment of the partition directory was given: the checks that need them all were left out"},
    {"file-grew", SS_SEV_NOTICE, SS_E_GREW, "a .log grew while it was read; only what it held at open was checked"},
    {"batch-too-large", SS_SEV_NOTICE, SS_E_TOO_LARGE,
     "a batch larger than --max-batch-bytes could not be decompressed to check it"},
    {"more-findings", SS_SEV_NOTICE, SS_E_OK, "more findings of one check in one file than are listed"},
};

bool ss_vcheck_at(size_t i, const char **name, ss_severity *severity, ss_errkind *kind, const char **desc) {
    if (i >= sizeof checks / sizeof checks[0]) return false;
    if (name) *name = checks[i].name;
    if (severity) *severity = checks[i].severity;
    if (kind) *kind = checks[i].kind;
    if (desc) *desc = checks[i].desc;
    return true;
}

static const vcheck *check_row(const char *name) {
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
        if (!strcmp(checks[i].name, name)) return &checks[i];
    return NULL;
}

ss_severity vf_check_severity(const char *name) {
    const vcheck *row = check_row(name);
    return row ? row->severity : SS_SEV_NOTICE;
}

const char *ss_verify_level_name(ss_severity severity, ss_errkind kind) {
    switch (severity) {
    case SS_SEV_NOTICE: return "info";
    case SS_SEV_WARNING: return "inconsistency";
    case SS_SEV_ERROR: return ss_errkind_is_damage(kind) ? "damage" : "error";
    }
    return "unknown";
}

/* ---- small containers ---------------------------------------------------------- */

bool vf_vb_push(vbatches *a, const vbatch *b) {
    if (!SS_GROW(a->v, a->n, a->cap, 256)) return false;
    a->v[a->n++] = *b;
    return true;
}

static uint64_t pid_hash(int64_t pid) {
    uint64_t x = (uint64_t)pid;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

void vf_pmap_init(pmap *m) {
    memset(m, 0, sizeof *m);
    ss_map_init(&m->m, sizeof(int64_t), sizeof(vproducer), 64, 50);
}

void vf_pmap_free(pmap *m) { ss_map_free(&m->m); }

vproducer *vf_pmap_find(const pmap *m, int64_t pid) {
    if (pid < 0) return NULL;
    return ss_map_find(&m->m, &pid, pid_hash(pid));
}

static void pst_empty(vproducer *p, int64_t pid) {
    memset(p, 0, sizeof *p);
    p->pid = pid;
    p->epoch = -1;
    p->last_seq = -1;
    p->last_offset = -1;
    p->coord_epoch = -1;
    p->txn_first = -1;
    p->timestamp = -1;
}

/* The entry of pid, created as ProducerStateEntry.empty when absent; NULL when out of memory. */
vproducer *vf_pmap_get(pmap *m, int64_t pid) {
    vproducer *p = vf_pmap_find(m, pid);
    if (p) return p;
    if (!ss_map_reserve(&m->m, m->m.n + m->ghosts + 1)) return NULL;
    if (pid < 0) {
        m->ghosts++;
        pst_empty(&m->ghost, pid);
        return &m->ghost;
    }
    p = ss_map_put(&m->m, &pid, pid_hash(pid), NULL);
    if (p) pst_empty(p, pid);
    return p;
}

bool vf_pmap_copy(pmap *dst, const pmap *src) {
    *dst = *src;
    return ss_map_copy(&dst->m, &src->m);
}

bool vf_mk_push(mvec *a, const vmarker *m) {
    if (!SS_GROW(a->v, a->n, a->cap, 16)) return false;
    a->v[a->n++] = *m;
    return true;
}

/* ---- the verification context ----------------------------------------------------- */

void vf_emit(vctx *c, const char *check, ss_severity sev, const char *file, uint64_t pos, int64_t off, const char *fmt,
             ...) {
    const vcheck *row = check_row(check);
    ss_vfinding f;
    f.check = check;
    f.partition = c->ip->name;
    f.file = file ? file : c->ip->path;
    f.offset = off;
    va_list ap;
    va_start(ap, fmt);
    ss_error_vset(&f.problem, row ? row->kind : SS_E_OK, pos, -1, fmt, ap);
    va_end(ap);
    f.problem.severity = sev;
    ss_vstats *st = c->st;
    if (sev == SS_SEV_NOTICE) st->info++;
    else if (sev == SS_SEV_WARNING) st->inconsistencies++;
    else if (ss_errkind_is_damage(f.problem.kind)) st->damage++;
    else st->errors++;
    if (c->cb) c->cb(c->cbctx, &f);
}

/* Findings of one check in one file beyond FILE_CHECK_CAP are counted, not listed. */
void vf_caps_reset(vctx *c, const char *file) {
    c->cap_file = file;
    c->ncaps = 0;
}

bool vf_cap_ok(vctx *c, const char *check) {
    for (size_t i = 0; i < c->ncaps; i++)
        if (c->caps[i].check == check) return ++c->caps[i].n <= FILE_CHECK_CAP;
    if (c->ncaps < sizeof c->caps / sizeof c->caps[0]) {
        c->caps[c->ncaps].check = check;
        c->caps[c->ncaps].n = 1;
        c->ncaps++;
    }
    return true;
}

void vf_caps_flush(vctx *c) {
    for (size_t i = 0; i < c->ncaps; i++)
        if (c->caps[i].n > FILE_CHECK_CAP)
            FIND(c, "more-findings", c->cap_file, 0, -1,
                 "%" PRIu64 " more %s findings in this file are not listed (%" PRIu64 " in all)",
                 c->caps[i].n - FILE_CHECK_CAP, c->caps[i].check, c->caps[i].n);
    c->ncaps = 0;
}

/* The file beside a segment: "<dir>/<20 digits>.log" -> "<dir>/<20 digits><suffix>". */
char *vf_sibling(const char *log_path, const char *suffix) {
    size_t n = strlen(log_path);
    if (n < 4 || strcmp(log_path + n - 4, ".log") != 0) return NULL;
    size_t m = strlen(suffix);
    char *s = malloc(n - 4 + m + 1);
    if (!s) return NULL;
    memcpy(s, log_path, n - 4);
    memcpy(s + n - 4, suffix, m + 1);
    return s;
}

bool vf_file_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

bool vf_digits20(const char *name) {
    for (int i = 0; i < 20; i++)
        if (name[i] < '0' || name[i] > '9') return false;
    return true;
}
