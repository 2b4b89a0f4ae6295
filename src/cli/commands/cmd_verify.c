/* segscan verify - check the files of partition directories against each
 * other: the library (src/lib/verify.c) finds, this file prints.
 *
 * Text: one line per finding on stdout ("FILE: byte P (offset O): SEVERITY
 * CHECK: message"), then a summary of what was checked. JSON Lines: one
 * {"type":"finding"} object per finding ({"type":"error"} for a file that
 * could not be read) and a final {"type":"verify-summary"}.
 */
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "common/common.h"
#include "common/out.h"
#include "segscan/segscan.h"
#include "segscan/verify.h"

static const char verify_usage[] = "usage: segscan verify [options] PATH...\n"
                                   "\n"
                                   "Check a partition's files against each other: every .log (CRCs, framing, offsets\n"
                                   "within and across segments, file names, an incomplete tail), its .index,\n"
                                   ".timeindex and .txnindex, the producer .snapshot files, the\n"
                                   "leader-epoch-checkpoint, partition.metadata and quorum-state; of a log directory\n"
                                   "given, its checkpoints (each entry against its partition's log), meta.properties\n"
                                   "and .kafka_cleanshutdown. A PATH is a partition directory, a log directory of\n"
                                   "partition directories, or a segment file (then only what sits beside it).\n"
                                   "Nothing is written; no file is created.\n"
                                   "\n"
                                   "  --json                   JSON Lines: one finding object a line, then a\n"
                                   "                           verify-summary object\n"
                                   "  -q, --quiet              leave out findings of severity info\n"
                                   "  --max-batch-bytes N      cap on a batch's decompressed size (default 67108864)\n"
                                   "  --threads N              partitions checked at once, 1..256 (default 1); the\n"
                                   "                           output is the same whatever N\n"
                                   "  --list-checks            print the checks (name, severity, description) and\n"
                                   "                           exit\n"
                                   "  -h, --help               this help\n"
                                   "\n"
                                   "exit codes: 0 clean, 1 inconsistencies, 3 damaged data, 2 a file could not be\n"
                                   "            read (when several apply: the first of 2, 3, 1)\n";

enum { OPT_JSON = 256, OPT_MAXBATCH, OPT_LIST, OPT_THREADS };

static const struct option verify_longopts[] = {
    {"json", no_argument, NULL, OPT_JSON},
    {"quiet", no_argument, NULL, 'q'},
    {"max-batch-bytes", required_argument, NULL, OPT_MAXBATCH},
    {"list-checks", no_argument, NULL, OPT_LIST},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

typedef struct check_count {
    const char *name;
    uint64_t n;
} check_count;

typedef struct vcli {
    ss_out *o;
    bool json, quiet;
    check_count counts[64];
    size_t ncounts;
} vcli;

static void count_check(vcli *v, const char *name) {
    for (size_t i = 0; i < v->ncounts; i++)
        if (!strcmp(v->counts[i].name, name)) {
            v->counts[i].n++;
            return;
        }
    if (v->ncounts < sizeof v->counts / sizeof v->counts[0]) {
        v->counts[v->ncounts].name = name;
        v->counts[v->ncounts].n = 1;
        v->ncounts++;
    }
}

static void on_finding(void *ctx, const ss_vfinding *f) {
    vcli *v = ctx;
    count_check(v, f->check);
    const ss_error *p = &f->problem;
    if (v->quiet && p->severity == SS_SEV_NOTICE) return;
    ss_out *o = v->o;
    const char *level = ss_verify_level_name(p->severity, p->kind);
    if (v->json) {
        out_lit(o, "{\"type\":");
        out_str(o, p->severity == SS_SEV_ERROR && !ss_errkind_is_damage(p->kind) ? "\"error\"" : "\"finding\"");
        out_lit(o, ",\"check\":");
        out_json_cstr(o, f->check);
        out_lit(o, ",\"severity\":");
        out_json_cstr(o, level);
        out_lit(o, ",\"partition\":");
        out_json_cstr(o, f->partition);
        out_lit(o, ",\"file\":");
        out_json_cstr(o, f->file);
        out_lit(o, ",\"position\":");
        out_u64(o, p->position);
        out_lit(o, ",\"offset\":");
        if (f->offset >= 0) out_i64(o, f->offset);
        else out_lit(o, "null");
        out_lit(o, ",\"message\":");
        out_json_cstr(o, p->msg);
        out_lit(o, "}\n");
        return;
    }
    /* file names and messages (which quote file names) with their control characters escaped */
    out_text_cstr(o, f->file);
    out_lit(o, ": byte ");
    out_u64(o, p->position);
    if (f->offset >= 0) {
        out_lit(o, " (offset ");
        out_i64(o, f->offset);
        out_ch(o, ')');
    }
    out_lit(o, ": ");
    out_str(o, level);
    out_ch(o, ' ');
    out_str(o, f->check);
    out_lit(o, ": ");
    out_text_cstr(o, p->msg);
    out_ch(o, '\n');
}

static void list_checks(void) {
    const char *name, *desc;
    ss_severity sev;
    ss_errkind kind;
    for (size_t i = 0; ss_vcheck_at(i, &name, &sev, &kind, &desc); i++)
        printf("%-26s %-14s %s\n", name, ss_verify_level_name(sev, kind), desc);
}

static void text_summary(vcli *v, const ss_vstats *s, int rc) {
    ss_out *o = v->o;
    out_printf(o,
               "checked: %" PRIu64 " %s, %" PRIu64 " %s (%" PRIu64 " %s, %" PRIu64 " %s, %" PRIu64 " control, %" PRIu64
               " ABORT %s)\n",
               s->partitions, plural(s->partitions, "partition", "partitions"), s->segments,
               plural(s->segments, "segment", "segments"), s->log_bytes, plural(s->log_bytes, "byte", "bytes"),
               s->batches, plural(s->batches, "batch", "batches"), s->control_batches, s->abort_markers,
               plural(s->abort_markers, "marker", "markers"));
    out_printf(o, "  offset indexes: %" PRIu64 " (%" PRIu64 " %s)\n", s->index_files, s->index_entries,
               plural(s->index_entries, "entry", "entries"));
    out_printf(o, "  time indexes: %" PRIu64 " (%" PRIu64 " %s)\n", s->timeindex_files, s->timeindex_entries,
               plural(s->timeindex_entries, "entry", "entries"));
    out_printf(o, "  transaction indexes: %" PRIu64 " (%" PRIu64 " %s)\n", s->txnindex_files, s->txnindex_entries,
               plural(s->txnindex_entries, "entry", "entries"));
    out_printf(o,
               "  producer snapshots: %" PRIu64 " read, %" PRIu64 " compared with the log (%" PRIu64 " %s; %" PRIu64
               " %s in the log)\n",
               s->snapshot_files, s->snapshots_compared, s->snapshot_entries,
               plural(s->snapshot_entries, "entry", "entries"), s->producers,
               plural(s->producers, "producer", "producers"));
    out_printf(o, "  leader-epoch checkpoints: %" PRIu64 " (%" PRIu64 " %s)\n", s->epoch_files, s->epoch_entries,
               plural(s->epoch_entries, "entry", "entries"));
    out_printf(o, "  other text files: %" PRIu64 "\n", s->text_files);
    uint64_t total = s->damage + s->inconsistencies + s->info + s->errors;
    if (!total && rc == EXIT_OK) {
        out_lit(o, "findings: none: clean\n");
        return;
    }
    out_printf(o,
               "findings: %" PRIu64 " damage, %" PRIu64 " inconsistency, %" PRIu64 " info, %" PRIu64
               " unreadable (exit %d)\n",
               s->damage, s->inconsistencies, s->info, s->errors, rc);
    for (size_t i = 0; i < v->ncounts; i++) out_printf(o, "  %s: %" PRIu64 "\n", v->counts[i].name, v->counts[i].n);
}


static void json_summary(vcli *v, const ss_vstats *s, int rc) {
    ss_out *o = v->o;
    out_lit(o, "{\"type\":\"verify-summary\"");
    KV_U64(o, "partitions", s->partitions);
    KV_U64(o, "segments", s->segments);
    KV_U64(o, "logBytes", s->log_bytes);
    KV_U64(o, "batches", s->batches);
    KV_U64(o, "controlBatches", s->control_batches);
    KV_U64(o, "abortMarkers", s->abort_markers);
    KV_U64(o, "indexFiles", s->index_files);
    KV_U64(o, "indexEntries", s->index_entries);
    KV_U64(o, "timeIndexFiles", s->timeindex_files);
    KV_U64(o, "timeIndexEntries", s->timeindex_entries);
    KV_U64(o, "txnIndexFiles", s->txnindex_files);
    KV_U64(o, "txnIndexEntries", s->txnindex_entries);
    KV_U64(o, "snapshotFiles", s->snapshot_files);
    KV_U64(o, "snapshotsCompared", s->snapshots_compared);
    KV_U64(o, "snapshotEntries", s->snapshot_entries);
    KV_U64(o, "producers", s->producers);
    KV_U64(o, "leaderEpochFiles", s->epoch_files);
    KV_U64(o, "leaderEpochEntries", s->epoch_entries);
    KV_U64(o, "textFiles", s->text_files);
    out_lit(o, ",\"findings\":{\"damage\":");
    out_u64(o, s->damage);
    out_lit(o, ",\"inconsistency\":");
    out_u64(o, s->inconsistencies);
    out_lit(o, ",\"info\":");
    out_u64(o, s->info);
    out_lit(o, ",\"error\":");
    out_u64(o, s->errors);
    out_lit(o, "},\"checks\":{");
    for (size_t i = 0; i < v->ncounts; i++) {
        if (i) out_ch(o, ',');
        out_json_cstr(o, v->counts[i].name);
        out_ch(o, ':');
        out_u64(o, v->counts[i].n);
    }
    out_lit(o, "},\"exitCode\":");
    out_i64(o, rc);
    out_lit(o, "}\n");
}

/* --threads: partitions checked at once, each into its own list of findings and figures, printed
 * in partition order afterwards, so that the output never depends on the number of threads. */
typedef struct vkept {
    ss_vfinding f; /* file copied (valid during the callback only); check, partition: the library's */
} vkept;
typedef struct vpart {
    vkept *v;
    size_t n, cap;
    ss_vstats st;
    ss_errkind rc;
    bool nomem;
} vpart;
typedef struct vpool {
    const ss_inputs *in;
    const ss_verify_opts *vo;
    vpart *parts;
    atomic_size_t next;
} vpool;

static void keep_finding(void *ctx, const ss_vfinding *f) {
    vpart *p = ctx;
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 16;
        vkept *v = realloc(p->v, cap * sizeof *v);
        if (!v) {
            p->nomem = true;
            return;
        }
        p->v = v;
        p->cap = cap;
    }
    vkept *k = &p->v[p->n];
    k->f = *f;
    k->f.file = f->file ? strdup(f->file) : NULL;
    if (f->file && !k->f.file) {
        p->nomem = true;
        return;
    }
    p->n++;
}

static void *verify_worker(void *arg) {
    vpool *pool = arg;
    size_t n = ss_inputs_count(pool->in);
    for (size_t i; (i = atomic_fetch_add(&pool->next, 1)) < n;)
        pool->parts[i].rc =
            ss_verify_partition(pool->in, i, pool->vo, keep_finding, &pool->parts[i], &pool->parts[i].st);
    return NULL;
}

static void add_stats(ss_vstats *to, const ss_vstats *from) {
    _Static_assert(sizeof(ss_vstats) % sizeof(uint64_t) == 0, "ss_vstats holds counters only");
    uint64_t *t = (uint64_t *)(void *)to;
    const uint64_t *f = (const uint64_t *)(const void *)from;
    for (size_t k = 0; k < sizeof(ss_vstats) / sizeof(uint64_t); k++) t[k] += f[k];
}

/* The partitions with `threads` threads; returns false when out of memory. */
static bool verify_threaded(const ss_inputs *in, const ss_verify_opts *vo, unsigned threads, vcli *v, ss_vstats *st,
                            int *rc) {
    size_t n = ss_inputs_count(in);
    vpool pool = {in, vo, calloc(n ? n : 1, sizeof *pool.parts), 0};
    if (!pool.parts) return false;
    pthread_t tid[256];
    unsigned started = 0;
    for (; started < threads && started < n; started++)
        if (pthread_create(&tid[started], NULL, verify_worker, &pool) != 0) break;
    if (!started) verify_worker(&pool);
    for (unsigned t = 0; t < started; t++) pthread_join(tid[t], NULL);
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        vpart *p = &pool.parts[i];
        for (size_t k = 0; k < p->n; k++) {
            on_finding(v, &p->v[k].f);
            free((char *)p->v[k].f.file);
        }
        free(p->v);
        add_stats(st, &p->st);
        if (p->rc == SS_E_NOMEM) *rc = exit_merge(*rc, EXIT_TROUBLE);
        if (p->nomem) ok = false;
    }
    free(pool.parts);
    return ok;
}

int cmd_verify(int argc, char **argv) {
    unsigned threads = 1;
    vcli v;
    memset(&v, 0, sizeof v);
    ss_verify_opts vo;
    ss_verify_opts_default(&vo);
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "hq", verify_longopts, NULL)) != -1) {
        switch (c) {
        case OPT_JSON: v.json = true; break;
        case 'q': v.quiet = true; break;
        case OPT_MAXBATCH: {
            uint64_t n;
            if (!parse_u64(optarg, &n) || n == 0 || n > SIZE_MAX) {
                warnx_("verify: --max-batch-bytes needs a positive number");
                return EXIT_TROUBLE;
            }
            vo.max_batch_bytes = (size_t)n;
            break;
        }
        case OPT_THREADS: {
            uint64_t n;
            if (!parse_u64(optarg, &n) || n == 0 || n > 256) {
                warnx_("verify: --threads takes a number from 1 to 256");
                return EXIT_TROUBLE;
            }
            threads = (unsigned)n;
            break;
        }
        case OPT_LIST: list_checks(); return EXIT_OK;
        case 'h': fputs(verify_usage, stdout); return EXIT_OK;
        default: return bad_option("verify", argv, optind, optopt);
        }
    }
    if (optind >= argc) {
        warnx_("verify: no PATH given");
        fputs(verify_usage, stderr);
        return EXIT_TROUBLE;
    }
    int rc = EXIT_OK;
    uint64_t unreadable = 0; /* paths not read at all: findings of severity error too */
    ss_inputs *in = ss_inputs_new(false);
    if (!in) {
        warnx_("out of memory");
        return EXIT_TROUBLE;
    }
    ss_out o;
    out_init(&o, stdout);
    v.o = &o;
    for (int i = optind; i < argc; i++) {
        if (!strcmp(argv[i], "-")) {
            warnx_("verify: '-' (standard input) cannot be verified: give the partition directory");
            rc = exit_merge(rc, EXIT_TROUBLE);
            unreadable++;
            continue;
        }
        if (ss_inputs_is_export(argv[i])) {
            warnx_("verify: %s is an export (segscan export): it holds the records' fingerprints, not the log's "
                   "bytes, CRCs and index files that verify checks; verify the log directory it was made from",
                   argv[i]);
            rc = exit_merge(rc, EXIT_TROUBLE);
            unreadable++;
            continue;
        }
        if (ss_inputs_add(in, argv[i]) != SS_E_OK) rc = exit_merge(rc, EXIT_TROUBLE);
    }
    ss_inputs_finish(in);
    const ss_problems *in_problems = ss_inputs_problems(in);
    for (size_t i = 0; i < ss_problems_count(in_problems); i++) {
        const ss_error *p = ss_problems_at(in_problems, i);
        const char *msg = p->msg;
        if (p->severity == SS_SEV_ERROR) unreadable++;
        if (v.json && p->severity == SS_SEV_ERROR) {
            out_lit(&o, "{\"type\":\"error\",\"message\":");
            out_json_cstr(&o, msg);
            out_lit(&o, "}\n");
        } else if (p->severity == SS_SEV_ERROR || (p->severity == SS_SEV_NOTICE && !v.quiet)) {
            /* warnings are about the duplicate analysis (replicas given together) or the log
             * directory's offset checkpoints, which verify does not use */
            out_flush(&o);
            warnx_("%s", msg);
        }
    }
    ss_vstats st;
    memset(&st, 0, sizeof st);
    if (threads > 1) {
        if (!verify_threaded(in, &vo, threads, &v, &st, &rc)) {
            warnx_("out of memory: findings of verify --threads were lost");
            rc = exit_merge(rc, EXIT_TROUBLE);
        }
    } else {
        for (size_t i = 0; i < ss_inputs_count(in); i++)
            if (ss_verify_partition(in, i, &vo, on_finding, &v, &st) == SS_E_NOMEM) rc = exit_merge(rc, EXIT_TROUBLE);
    }
    if (ss_verify_log_dirs(in, &vo, on_finding, &v, &st) == SS_E_NOMEM) rc = exit_merge(rc, EXIT_TROUBLE);
    st.errors += unreadable;
    if (st.errors) rc = exit_merge(rc, EXIT_TROUBLE);
    if (st.damage) rc = exit_merge(rc, EXIT_DAMAGE);
    if (st.inconsistencies) rc = exit_merge(rc, EXIT_FINDINGS);
    if (v.json) json_summary(&v, &st, rc);
    else text_summary(&v, &st, rc);
    out_flush(&o);
    if (o.failed) rc = exit_merge(rc, EXIT_TROUBLE);
    out_free(&o);
    ss_inputs_free(in);
    return rc;
}
