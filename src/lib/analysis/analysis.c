/* segscan - forensic analysis: fingerprints, copies and their causes,
 * producer sessions and sequences, transactions and the LSO.
 *
 * Reading and deciding are split (units.h): the inputs are cut into units
 * (a small segment, or a few MiB of a large one at batch boundaries) that
 * reader threads turn into facts, and the coordinating thread (the caller of
 * ss_analysis_run) applies the facts of every unit in order: partitions in the
 * order ss_inputs_finish() gave, segments in offset order, batches in file
 * order. Everything that depends on order (the original of a group is its
 * first copy, sessions and sequences, transactions, compaction evidence) is
 * decided there, so the results do not depend on the number of threads. At
 * most a few units per thread are in flight, so memory does not grow with the
 * input's size.
 *
 * What is kept is fixed-size: one entry per batch (an_batch); per distinct
 * fingerprint an 8-byte slot of an open-addressing table (a 32-bit tag and an
 * index) and a 16-byte entry (fp_ent: 64 more bits of the fingerprint, where
 * its first copy is), so 27 to 32 bytes at the table's load of 50-75%; and one entry
 * per copy of a repeated fingerprint (an_occ). Payloads are never copied; what
 * an output needs from a record later (a value preview, a key) is read back
 * from the segment with ss_an_fetch(). Large tables sit on transparent huge
 * pages (ss_big_realloc).
 *
 * With opts.max_memory, the fingerprint tables stop growing at that size: the
 * fingerprints met so far and every later one are written to temporary bucket
 * files by their top hash bits ("spilling" below), and each bucket is then
 * grouped on its own, in order, with a table of its own; the groups come out
 * the same (their order does not depend on when they formed).
 *
 * Test hooks (segscan/test_hooks.h): unit_bytes N cuts units of N bytes that
 * start at a guessed batch boundary and hold a few records at most
 * (tests/speed); with walker_only every batch goes through the walker.
 *
 * Causes are decided once everything is read (a transaction's outcome is only
 * known at its marker), in the order DESIGN.md section 4 gives.
 *
 * The room's files: analysis.c (this: the life cycle and the run), units.c
 * (a unit of a segment into facts), pipeline.c (units planned, read by
 * threads, applied in order), apply.c (each batch), fptable.c (the
 * fingerprint table, spilling), producers.c (sessions and sequences), txns.c
 * (transactions, the LSO), results.c (causes, groups, totals, accessors),
 * fetch.c (a record read back), keymap.c; analysis.h is their shared state.
 * pidblocks.c (the producer-id blocks of __cluster_metadata) stands apart:
 * the CLI asks it which broker handed out a session's producer id.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "base/mem.h"
#include "base/test_hooks.h"
#include "segscan/analyze.h"

/* ---- names and options ------------------------------------------------------------ */

const char *ss_by_name(enum ss_by by) {
    switch (by) {
    case SS_BY_KEY: return "key";
    case SS_BY_KEY_VALUE: return "key+value";
    default: return "value";
    }
}

const char *ss_cause_name(enum ss_cause cause) {
    static const char *const names[] = {
        NULL,           "aborted",      "cross-partition", "retry",  "resend-no-idempotence",
        "dup-sequence", "same-session", "new-session",     "update", "cross-topic"};
    if (cause <= 0 || cause >= SS_CAUSE_COUNT) return NULL;
    return names[cause];
}

const char *ss_hang_rule_name(enum ss_hang_rule r) {
    switch (r) {
    case SS_HANG_AGE_UNKNOWN: return "age-unknown";
    case SS_HANG_WITHIN_TIMEOUT: return "within-timeout";
    case SS_HANG_TIMEOUT: return "timeout";
    case SS_HANG_COORD_LISTS: return "coordinator-lists-partition";
    case SS_HANG_COORD_COMPLETE: return "coordinator-complete";
    case SS_HANG_COORD_NOT_LISTED: return "coordinator-partition-not-listed";
    case SS_HANG_COORD_PARTIAL: return "coordinator-partly-read";
    default: return "not-open";
    }
}

const char *ss_txn_result_name(enum ss_txn_result r) {
    switch (r) {
    case SS_TXN_COMMIT: return "COMMIT";
    case SS_TXN_ABORT: return "ABORT";
    case SS_TXN_UNKNOWN: return "UNKNOWN";
    default: return "OPEN";
    }
}

void ss_an_opts_default(ss_an_opts *o) {
    memset(o, 0, sizeof *o);
    o->by = SS_BY_VALUE;
    o->txn_timeout_ms = 15 * 60 * 1000;
    o->since_ms = INT64_MIN;
    o->until_ms = INT64_MAX;
    o->from_offset = INT64_MIN;
    o->to_offset = INT64_MAX;
    o->match_offset = -1;
}

/* ---- life cycle --------------------------------------------------------------------- */

ss_analysis *ss_analysis_new(const ss_an_opts *opts) {
    ss_analysis *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    if (opts) a->o = *opts;
    else ss_an_opts_default(&a->o);
    if (!a->o.max_batch_bytes) a->o.max_batch_bytes = SS_DEFAULT_MAX_BATCH_BYTES;
    if (!a->o.max_matches) a->o.max_matches = 10000;
    a->cur_part = -1;
    a->failure = SIZE_MAX;
    km_init(&a->km_session, true);
    km_init(&a->km_epoch, false);
    km_init(&a->km_producer, false);
    km_init(&a->km_txn, false);
    km_init(&a->km_hidden, false);
    const ss_an_opts *o = &a->o;
    a->windowed = o->filter_pid || o->since_ms != INT64_MIN || o->until_ms != INT64_MAX ||
                  o->from_offset != INT64_MIN || o->to_offset != INT64_MAX;
    return a;
}

uint64_t ss_an_keep_budget(uint64_t max_memory) {
    /* __consumer_offsets is compacted and its segments small beside the data's
     * (offsets.topic.segment.bytes is 100 MiB): keeping all of a 220 MB one measured no time gained
     * on a warm cache for twice the peak RSS (docs/design-notes.md) */
    const uint64_t most = (uint64_t)64 << 20;
    return max_memory && max_memory / 4 < most ? max_memory / 4 : most;
}

void ss_analysis_free(ss_analysis *a) {
    if (!a) return;
    ss_kept_free(a->kept);
    an_policies_free(&a->policies);
    free(a->parts);
    free(a->pinfo);
    free(a->topic_id);
    free(a->seg_base);
    free(a->seg_size);
    ss_big_free(a->batches.v);
    ss_big_free(a->slots);
    ss_big_free(a->ents);
    ss_big_free(a->far.v);
    ss_big_free(a->occs.v);
    ss_big_free(a->groups.v);
    an_buckets_close(a);
    for (size_t i = 0; i < a->sess.n; i++) {
        an_sess *s = a->sess.v[i];
        free(s->iv);
        free(s->gaps);
        free(s->gap_hole);
        free(s->ranges);
        free(s);
    }
    ss_big_free(a->sess.v);
    ss_big_free(a->txns.v);
    ss_big_free(a->txn_listed.v);
    ss_big_free(a->partial.v);
    ss_txn_ids_free(a->txn_ids);
    ss_big_free(a->damage.v);
    ss_big_free(a->holes.v);
    ss_problems_free(&a->problems);
    ss_big_free(a->matches.v);
    ss_map_free(&a->km_session);
    ss_map_free(&a->km_epoch);
    ss_map_free(&a->km_producer);
    ss_map_free(&a->km_txn);
    ss_map_free(&a->km_hidden);
    ss_big_free(a->arena);
    for (size_t i = 0; i < a->nowned; i++) ss_big_free(a->owned[i]);
    free(a->mpub);
    if (a->segcache) {
        for (size_t i = 0; i < a->nsegs_total; i++) ss_segment_close(a->segcache[i]);
        free(a->segcache);
    }
    for (size_t i = 0; i < FETCH_SLOTS; i++) {
        ss_decoder_free(a->fetched[i].dec);
        ss_big_free(a->fetched[i].buf);
    }
    free(a);
}

static bool partition_matches(const ss_an_opts *o, const ss_input_partition *ip) {
    if (o->match != SS_MATCH_OFFSET || !o->match_partition) return false;
    const char *want = o->match_partition;
    if (!strcmp(ip->name, want)) return true;
    const char *slash = strrchr(ip->name, '/');
    if (slash && !strcmp(slash + 1, want)) return true;
    return false;
}

/* A v2 batch as replicas hold it: Kafka's followers append the leader's batches as they
 * are (ReplicaFetcherThread.processPartitionData -> UnifiedLog.appendAsFollower, which keeps
 * the leader's offsets and partitionLeaderEpoch), so the same batch at the same offset with
 * the same leader epoch and CRC (which covers everything after it) is one batch of one log. */
typedef struct rep_batch {
    int64_t base_offset;
    int32_t leader_epoch;
    uint32_t crc;
} rep_batch;

/* How much of a log the batch check reads on each side: the first batches from a given
 * offset, within the first bytes of the segment holding it. Replicas share every batch, so
 * one is enough; a log whose batches were rewritten (the cleaner runs on each replica on its
 * own) may share none there, and then only the leader-epoch-checkpoints can tell. */
enum { REP_BATCHES = 64, REP_BYTES = 4 << 20 };

/* The first v2 batches with a valid CRC at or after offset `from` of input i (in the
 * segment whose name is the last at or below it), into v; their count. */
static size_t rep_collect(const ss_inputs *in, size_t i, int64_t from, rep_batch *v) {
    const ss_input_partition *ip = ss_inputs_at(in, i);
    size_t j = 0;
    for (size_t k = 0; k < ip->nsegments; k++)
        if (ip->segments[k].name_offset >= 0 && ip->segments[k].name_offset <= from) j = k;
    if (j >= ip->nsegments) return 0;
    ss_segment *seg;
    ss_error e;
    if (ss_inputs_open_segment(in, i, j, &seg, &e) != SS_E_OK) return 0;
    size_t n = 0;
    ss_walker *w = ss_walker_new(seg, REP_BYTES);
    ss_event ev;
    while (w && n < REP_BATCHES && ss_walker_next(w, &ev) != SS_EV_END) {
        const ss_batch *b = &ev.batch;
        if (ev.kind != SS_EV_BATCH || b->magic < 2 || !b->crc_valid || b->base_offset < from) continue;
        v[n++] = (rep_batch){b->base_offset, b->partition_leader_epoch, b->crc};
    }
    ss_walker_free(w);
    ss_segment_close(seg);
    return n;
}

/* Do inputs i and j hold one batch alike (rep_batch) where their logs overlap? */
static bool batches_shared(const ss_inputs *in, size_t i, size_t j) {
    const ss_input_partition *x = ss_inputs_at(in, i), *y = ss_inputs_at(in, j);
    if (!x->nsegments || !y->nsegments) return false;
    int64_t from = x->segments[0].name_offset > y->segments[0].name_offset ? x->segments[0].name_offset
                                                                           : y->segments[0].name_offset;
    rep_batch *v = malloc(2 * REP_BATCHES * sizeof *v);
    if (!v) return false;
    size_t nx = rep_collect(in, i, from, v), ny = rep_collect(in, j, from, v + REP_BATCHES);
    bool shared = false;
    for (size_t a = 0; a < nx && !shared; a++)
        for (size_t b = 0; b < ny && !shared; b++)
            shared = v[a].base_offset == v[REP_BATCHES + b].base_offset &&
                     v[a].leader_epoch == v[REP_BATCHES + b].leader_epoch && v[a].crc == v[REP_BATCHES + b].crc;
    free(v);
    return shared;
}

/* Two inputs holding the same partition (topic and number) in two directories are
 * replicas of one log when they share leader epochs: their leader-epoch-checkpoints hold an
 * epoch starting at the same offset (Kafka's followers copy the leader's epochs:
 * LeaderEpochFileCache), or their batches where the logs overlap carry the same leader
 * epoch at the same offset with the same bytes (rep_batch); unless their partition.metadata
 * name different topic ids (a re-created topic, a mirror). A record in both is one record:
 * each replica is grouped on its own. */
static bool are_replicas(const ss_inputs *in, size_t i, size_t j) {
    const ss_input_partition *x = ss_inputs_at(in, i), *y = ss_inputs_at(in, j);
    /* a partition of an export stands for the directory it was read from (its rebuilt batches
     * carry the leader's offsets, epochs and, both sides alike, the same bytes). Replicas read
     * once merge two exports' copies before this; what reaches here is still two inputs: copies
     * a library caller did not ask to merge, or an export and a directory (never merged: read
     * otherwise), which share no batch (the rebuilt CRCs cover the cells) */
    if ((!x->is_dir && !x->export_file) || (!y->is_dir && !y->export_file) || x->partition < 0 ||
        x->partition != y->partition || strcmp(x->topic, y->topic))
        return false;
    if (x->topic_id && y->topic_id && strcmp(x->topic_id, y->topic_id) != 0) return false;
    if (x->temporary || y->temporary) return false; /* a domain of its own anyway (assign_domains) */
    /* the inputs compared them (replicas read once) and found other logs */
    if (x->not_a_replica || y->not_a_replica) return false;
    for (size_t a = 0; a < x->nepochs; a++)
        for (size_t b = 0; b < y->nepochs; b++)
            if (x->epochs[a].epoch == y->epochs[b].epoch && x->epochs[a].start_offset == y->epochs[b].start_offset)
                return true;
    return batches_shared(in, i, j);
}

/* The directory holding a partition directory, for the replica domains. */
static size_t parent_len(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? (size_t)(s - path) : 0;
}

/* Grouping domains (topic_id): a topic; with replicas among the inputs, a topic and the
 * log directory of the replica (other partitions join the first one's). */
static void assign_domains(ss_analysis *a, const ss_inputs *in) {
    uint32_t tid = 0;
    for (size_t i = 0; i < a->nparts; i++) {
        const ss_input_partition *ip = ss_inputs_at(in, i);
        if (i > 0 && strcmp(ip->topic, ss_inputs_at(in, i - 1)->topic) != 0) tid++;
        a->topic_id[i] = tid << 8;
    }
    bool *rep = calloc(a->nparts ? a->nparts : 1, sizeof *rep); /* a replica of another input */
    if (!rep) return;
    for (size_t i = 0; i + 1 < a->nparts; i++) {
        const ss_input_partition *x = ss_inputs_at(in, i);
        for (size_t j = i + 1; j < a->nparts; j++) {
            const ss_input_partition *y = ss_inputs_at(in, j);
            if (strcmp(x->topic, y->topic) != 0 || y->partition != x->partition) break; /* sorted */
            if (!are_replicas(in, i, j)) continue;
            if (!a->replicas) a->replica_of[0] = (uint32_t)i, a->replica_of[1] = (uint32_t)j;
            a->replicas = true;
            rep[i] = rep[j] = true;
        }
    }
    /* A broker's temporary copy of a partition read with --include-temp (a -delete, -future
     * or -stray directory, .deleted, .cleaned or .swap segments) holds records of that log,
     * not other records with the same content: each temporary is a domain of its own, as a
     * replica is, so a record in it and in its partition is not a copy of the other. */
    bool split = a->replicas;
    for (size_t i = 0; i < a->nparts && !split; i++) split = ss_inputs_at(in, i)->temporary != NULL;
    if (!split) {
        free(rep);
        return;
    }
    a->split_domains = true;
    /* the log directories of the replicas, and the temporaries, in order met: up to 255
     * domains a topic. Domain 0 is every other partition's and the first replica's log
     * directory (the partitions read from it join its replica); a temporary never joins. */
    const char *dirs[255], *dtemp[255];
    size_t dlen[255], nd = 1;
    dirs[0] = dtemp[0] = NULL;
    dlen[0] = 0;
    for (size_t i = 0; i < a->nparts; i++) {
        const ss_input_partition *x = ss_inputs_at(in, i);
        if (!rep[i] && !x->temporary) continue;
        /* a replica: its log directory (an export: its file); a temporary: its own path and kind */
        size_t l = x->temporary || x->export_file ? strlen(x->path) : parent_len(x->path), d;
        for (d = 0; d < nd; d++)
            if (dirs[d] && dtemp[d] == x->temporary && dlen[d] == l && !strncmp(dirs[d], x->path, l)) break;
        if (d == nd && !x->temporary && !dirs[0]) d = 0, dirs[0] = x->path, dlen[0] = l;
        else if (d == nd && nd < 255) dirs[nd] = x->path, dtemp[nd] = x->temporary, dlen[nd++] = l;
        if (d < 255) a->topic_id[i] |= (uint32_t)d;
    }
    free(rep);
}

static ss_errkind run(ss_analysis *a, const ss_inputs *in) {
    a->in = in;
    if (ss_test_hooks_get()->fail_analysis) {
        a->nomem = true;
        return SS_E_NOMEM;
    }
    a->nparts = ss_inputs_count(in);
    size_t np = a->nparts ? a->nparts : 1;
    a->parts = calloc(np, sizeof *a->parts);
    a->pinfo = calloc(np, sizeof *a->pinfo);
    a->topic_id = calloc(np, sizeof *a->topic_id);
    a->seg_base = calloc(np + 1, sizeof *a->seg_base);
    if (!a->parts || !a->pinfo || !a->topic_id || !a->seg_base) return SS_E_NOMEM;
    assign_domains(a, in);
    for (size_t i = 0; i < a->nparts; i++) {
        const ss_input_partition *ip = ss_inputs_at(in, i);
        a->seg_base[i + 1] = a->seg_base[i] + ip->nsegments;
        ss_an_partition *P = &a->parts[i];
        P->input = ip;
        P->first_offset = P->next_offset = P->lso = -1;
        P->lost_first = P->lost_last = -1;
        P->repeated_first = P->repeated_last = P->recovery_keeps_below = -1;
        P->max_batch_timestamp = -1;
        /* Kafka's internal topics hold records identical by design (a controller's NoOpRecord
         * every metadata.max.idle.interval.ms, KIP-835; a consumer committing the same offset
         * again; a coordinator writing the same state): no copy there is a re-delivery, so they
         * stay out of the duplicate analysis, named or not, unless --include-internal */
        P->dups_excluded = ip->internal && !a->o.include_internal;
        a->pinfo[i].log_start = ip->log_start_offset;
        a->pinfo[i].dups_excluded = P->dups_excluded || a->o.no_fingerprints; /* no fingerprint taken */
        a->pinfo[i].part_match = partition_matches(&a->o, ip);
        a->pinfo[i].coordinator = !strcmp(ip->topic, "__consumer_offsets") || !strcmp(ip->topic, "__transaction_state");
        a->pinfo[i].exported = ip->export_file && !ip->internal;
    }
    if (a->o.keep_offsets_bytes && !(a->kept = ss_kept_new(a->o.keep_offsets_bytes))) return SS_E_NOMEM;
    if (!an_read_policies(&a->policies, in)) return SS_E_NOMEM;
    for (size_t i = 0; i < a->nparts; i++) {
        const an_policy *pol = an_policy_find(&a->policies, a->parts[i].input->topic);
        if (!pol) continue;
        a->parts[i].cleanup_policy = pol->value_at > pol->removed_at ? pol->value : NULL;
        a->parts[i].compact_policy = pol->compact_at > pol->removed_at;
    }
    a->nsegs_total = a->seg_base[a->nparts];
    /* the sizes: for progress, and to size the table */
    a->seg_size = calloc(a->nsegs_total ? a->nsegs_total : 1, sizeof *a->seg_size);
    if (!a->seg_size) return SS_E_NOMEM;
    for (size_t i = 0; i < a->nparts; i++) {
        const ss_input_partition *ip = ss_inputs_at(in, i);
        for (size_t j = 0; j < ip->nsegments; j++) {
            uint64_t size = ss_inputs_segment_size(in, i, j);
            a->seg_size[a->seg_base[i] + j] = size;
            a->bytes_total += size;
        }
    }
    /* about 256 bytes a record on disk (the standard profile's records take ~220): a
     * table that is large enough from the start is never rehashed, and for larger
     * records the slots (~13 bytes a fingerprint) are all that is too large */
    uint64_t est = a->o.no_fingerprints ? 0 : a->bytes_total / 256;
    if (est > ((uint64_t)1 << 23)) est = (uint64_t)1 << 23;
    if (a->o.max_memory && est > a->o.max_memory / 72) est = a->o.max_memory / 72;
    if (!an_table_reset(a, est)) return SS_E_NOMEM;
    an_pipeline_run(a);
    if (a->spilled && !a->nomem && !a->io_error) an_buckets_group(a);
    /* groups hold what is left to know; the entries' pages will hold the results */
    a->arena = (uint8_t *)a->ents;
    a->arena_cap = a->ents_cap * sizeof *a->ents;
    a->ents = NULL;
    a->ents_cap = 0;
    an_table_free(a);
    if (!a->nomem && !a->io_error) an_finish_txns(a);
    if (!a->nomem && !a->io_error) an_finish_sessions(a);
    if (!a->nomem && !a->io_error) an_finish_groups(a);
    if (!a->nomem && !a->io_error) an_finish_matches(a);
    an_finish_totals(a);
    if (a->nomem) return SS_E_NOMEM;
    return a->io_error ? SS_E_IO : SS_E_OK;
}

ss_errkind ss_analysis_run(ss_analysis *a, const ss_inputs *in) {
    ss_errkind k = run(a, in);
    /* the run's failure, when it knows one: the last problem of the list */
    size_t at = a->problems.n;
    if (a->nomem) {
        if (ss_problems_add(&a->problems, SS_SEV_ERROR, SS_E_NOMEM,
                            "out of memory during the analysis; results are incomplete"))
            a->failure = at;
    } else if (a->io_error) {
        if (ss_problems_add(&a->problems, SS_SEV_ERROR, SS_E_IO, "%s", a->io_err.msg)) a->failure = at;
    }
    return k;
}

uint64_t ss_analysis_spilled(const ss_analysis *a) { return a->spilled_records; }
bool ss_analysis_replicas(const ss_analysis *a, size_t *first, size_t *second) {
    if (!a->replicas) return false;
    if (first) *first = a->replica_of[0];
    if (second) *second = a->replica_of[1];
    return true;
}

const ss_problems *ss_analysis_problems(const ss_analysis *a) { return &a->problems; }
const ss_error *ss_analysis_failure(const ss_analysis *a) {
    return a->failure < a->problems.n ? &a->problems.v[a->failure] : NULL;
}
