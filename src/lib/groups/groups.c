/* segscan - consumer groups: the run. Find the __consumer_offsets partitions
 * among the inputs, choose one copy of each (replicas: the same partition from
 * several log directories), read each in a thread of its own and replay it
 * (replay.c), compare the other copies with it, then assemble the public
 * views: groups by id, their generations, partitions, owners and events.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>

#include "base/grow.h"
#include "base/javaint.h"
#include "base/test_hooks.h"
#include "groups_int.h"
#include "inputs/cursor.h"
#include "segscan/files.h"


const char *ss_gnamed_name(int named_by) {
    switch (named_by) {
    case SS_GNAMED_RECORD: return "record";
    case SS_GNAMED_GROUP_METADATA: return "group-metadata";
    case SS_GNAMED_OFFSET_COMMIT: return "offset-commit";
    case SS_GNAMED_PARTITION_METADATA: return "partition.metadata";
    case SS_GNAMED_CLUSTER_METADATA: return "cluster-metadata";
    default: return "none";
    }
}

const char *ss_gprotocol_name(int p) {
    switch (p) {
    case SS_GPROTO_NONE: return "none";
    case SS_GPROTO_CLASSIC: return "classic";
    case SS_GPROTO_CONSUMER: return "consumer";
    case SS_GPROTO_STREAMS: return "streams";
    default: return "unknown";
    }
}

const char *ss_goutcome_name(enum ss_goutcome o) {
    switch (o) {
    case SS_GOUT_PLAIN: return "plain";
    case SS_GOUT_COMMITTED: return "committed";
    case SS_GOUT_ABORTED: return "aborted";
    case SS_GOUT_OPEN: return "open";
    default: return "unknown";
    }
}

/* MemberState.java (group-coordinator modern/MemberState) */
const char *ss_gmember_state_name(int s) {
    switch (s) {
    case 0: return "STABLE";
    case 1: return "UNREVOKED_PARTITIONS";
    case 2: return "UNRELEASED_PARTITIONS";
    case 127: return "UNKNOWN";
    default: return s < 0 ? NULL : "UNKNOWN";
    }
}

const char *ss_gstreams_member_state_name(int s) {
    switch (s) {
    case 1: return "STABLE";
    case 2: return "UNREVOKED_TASKS";
    case 3: return "UNRELEASED_TASKS";
    default: return s < 0 ? NULL : "UNKNOWN";
    }
}

const char *ss_gevent_kind_name(enum ss_gevent_kind k) {
    switch (k) {
    case SS_GEV_DELETED: return "deleted";
    case SS_GEV_OFFSETS_DELETED: return "offsets-deleted";
    case SS_GEV_PROTOCOL_CHANGE: return "protocol-change";
    case SS_GEV_CREATED: return "created";
    case SS_GEV_REWIND: return "rewind";
    case SS_GEV_OUT_OF_RANGE: return "out-of-range";
    case SS_GEV_TXN_ABORTED: return "transaction-aborted";
    case SS_GEV_TXN_OPEN: return "transaction-open";
    case SS_GEV_EPOCH_BUMP: return "epoch-bump";
    case SS_GEV_ADVANCED: return "advanced";
    default: return "unknown";
    }
}

void ss_groups_opts_default(ss_groups_opts *o) {
    memset(o, 0, sizeof *o);
    o->partitions = 50;
    o->partition = -1;
    o->since_ms = INT64_MIN;
    o->until_ms = INT64_MAX;
    o->from_offset = INT64_MIN;
    o->to_offset = INT64_MAX;
}

/* ---- which inputs are __consumer_offsets ------------------------------------------------------ */

static const char CO[] = "__consumer_offsets";

/* The partition number of an input that is a __consumer_offsets partition, or -1:
 * a partition directory named __consumer_offsets-N, or segments inside one, or a segment
 * held in memory (ss_inputs_add_memory) given that partition's name, as the analysis takes
 * it (the study skips "-": only a library caller gives one). */
static int32_t co_partition(const ss_input_partition *ip) {
    bool memory = ip->nsegments && !ip->segments[0].path;
    if (ip->is_dir || ip->export_file || memory) return !strcmp(ip->topic, CO) ? ip->partition : -1;
    if (!ip->path) return -1;
    const char *slash = strrchr(ip->path, '/');
    if (!slash) return -1;
    const char *dir = slash;
    while (dir > ip->path && dir[-1] != '/') dir--;
    size_t n = (size_t)(slash - dir);
    size_t cl = sizeof CO - 1;
    if (n <= cl + 1 || strncmp(dir, CO, cl) != 0 || dir[cl] != '-') return -1;
    int32_t p = 0;
    for (size_t i = cl + 1; i < n; i++) {
        if (dir[i] < '0' || dir[i] > '9' || p > 100000000) return -1;
        p = p * 10 + (dir[i] - '0');
    }
    return p;
}

static uint64_t input_bytes(const ss_inputs *in, size_t i) {
    uint64_t b = 0;
    const ss_input_partition *ip = ss_inputs_at(in, i);
    for (size_t j = 0; j < ip->nsegments; j++) b += ss_inputs_segment_size(in, i, j);
    return b;
}

/* Of several copies, read the one that reaches furthest (its last segment's base
 * offset), then the larger, then the first. */
static int64_t last_base(const ss_input_partition *ip) {
    return ip->nsegments ? ip->segments[ip->nsegments - 1].name_offset : -1;
}

/* ---- reading one copy --------------------------------------------------------------------------- */

typedef struct worker {
    ss_groups *g;
    ss_decoder *dec;
    ss_cdecoder *cd;
} worker;

static void hole(glog *L, int64_t from, int64_t to) {
    L->info.missing_offsets += (uint64_t)to - (uint64_t)from; /* to > from: never wraps, unlike to - from */
    L->last_hole_end = to;
    L->info.complete_from_time = -1;
}

/* Records of unknown types: noted one by one up to this many a log, then counted (by type) */
#define UNKNOWN_NOTES 10

static void count_unknown_type(ss_glog *g, int16_t type) {
    for (uint32_t i = 0; i < g->n_unknown_types; i++)
        if (g->unknown_types[i].type == type) {
            g->unknown_types[i].count++;
            return;
        }
    if (g->n_unknown_types < SS_GLOG_UNKNOWN_TYPES) {
        g->unknown_types[g->n_unknown_types].type = type;
        g->unknown_types[g->n_unknown_types++].count = 1;
        return;
    }
    g->unknown_other_types++;
}

static bool names_record(const ss_record *r);
static void names_of(glog *L, const ss_cdecoded *d);

/* A record of a __consumer_offsets log (batch b of file), into the log's history. */
static void log_record(worker *w, glog *L, const char *file, const ss_batch *b, const ss_record *r) {
    if (r->offset > L->expect_next) hole(L, L->expect_next, r->offset);
    if (r->offset >= L->expect_next) L->expect_next = ss_next_offset(r->offset);
    if (L->info.complete_from_time < 0) L->info.complete_from_time = r->timestamp;
    if (b->control) {
        L->info.control_records++;
        glog_marker(L, b, r);
        return;
    }
    L->info.records++;
    if (r->value_len < 0) L->info.tombstones++;
    /* one pass: what the walk before the replay would have gathered of this record (of every
     * group's, as that walk does), from the one decoding the replay uses too */
    ss_cdecoded d;
    bool decoded = L->one_pass && names_record(r);
    int st = decoded ? ss_cdecode(w->cd, SS_CTOPIC_OFFSETS, r, &d) : SS_CDEC_OK;
    if (decoded && st == SS_CDEC_OK) names_of(L, &d);
    /* --group: the records of other groups are not decoded (a group's history
     * is made of its own records only) */
    if (!glog_wanted_key(L, r)) {
        L->skipped_records++;
        return;
    }
    if (!decoded) st = ss_cdecode(w->cd, SS_CTOPIC_OFFSETS, r, &d);
    switch (st) {
    case SS_CDEC_OK: glog_record(L, b, r, &d); break;
    case SS_CDEC_UNKNOWN_TYPE:
        count_unknown_type(&L->info, d.record_type);
        if (L->info.unknown_records++ < UNKNOWN_NOTES) glog_note(L, SS_SEV_NOTICE, "%s: %s", file, d.message);
        if (d.known_to_kafka) glog_undecoded(L, r);
        break;
    default:
        if (L->info.bad_records++ < 20) glog_note(L, SS_SEV_ERROR, "%s: %s", file, d.message);
        break;
    }
}

/* One walk of the log's records before the replay, each record handed to each (damage is left to
 * the replay). */
static void prewalk(worker *w, glog *L, void (*each)(worker *w, glog *L, const ss_record *r)) {
    ss_pcursor c;
    ss_pcursor_open(&c, w->g->in, L->input, w->dec, UINT64_MAX);
    for (ss_pc_kind k; (k = ss_pcursor_next(&c)) != SS_PC_END && !L->nomem;) {
        if (k == SS_PC_BATCH && c.ev.batch.crc_valid && !c.ev.batch.control) (void)ss_pcursor_records(&c);
        if (k == SS_PC_RECORD) each(w, L, &c.rec);
    }
    ss_pcursor_close(&c);
}

/* A StreamsGroupTopology record (decoded) with a SourceTopicRegex: its group is one whose commits
 * are read. */
static void regex_group(glog *L, const ss_cdecoded *d) {
    if (d->tombstone) return;
    jctx jc = {d->nodes};
    uint32_t subs = j_child(jc, d->value, "subtopologies");
    bool rx = false;
    for (uint32_t sn = subs ? jc.n[subs].first : 0; sn && !rx; sn = jc.n[sn].next)
        rx = ss_jnode_count(jc.n, j_child(jc, sn, "sourceTopicRegex")) > 0;
    const char *gid = rx ? j_str(L, jc, d->key, "groupId") : NULL;
    if (!gid) return;
    /* its topics are those the group commits anywhere in the log: known only after a walk */
    if (L->one_pass) {
        L->redo = true;
        return;
    }
    for (uint32_t i = 0; i < L->nrx_groups; i++)
        if (L->rx_groups[i] == gid) return;
    if (!GROW32(L->rx_groups, L->nrx_groups, L->rx_groups_cap, 4)) {
        L->nomem = true;
        return;
    }
    L->rx_groups[L->nrx_groups++] = gid;
}

/* The topics the groups of rx_groups commit (OffsetCommitKey's topic): a SourceTopicRegex's
 * candidates, read in a third walk, only when a topology reads by regular expression. */
static void regex_group_topic(worker *w, glog *L, const ss_record *r) {
    if (r->key_len < 2 || r->key[0] || r->key[1] > SS_GROUP_OFFSET_COMMIT) return;
    ss_cdecoded d;
    if (ss_cdecode(w->cd, SS_CTOPIC_OFFSETS, r, &d) != SS_CDEC_OK) return;
    jctx jc = {d.nodes};
    const char *gid = j_str(L, jc, d.key, "group"), *topic = j_str(L, jc, d.key, "topic");
    bool wanted = false;
    for (uint32_t i = 0; i < L->nrx_groups && gid && topic; i++) wanted = wanted || L->rx_groups[i] == gid;
    for (uint32_t i = 0; i < L->nrx_topics && wanted; i++)
        if (L->rx_topics[i].id == gid && L->rx_topics[i].name == topic) wanted = false;
    if (!wanted) return;
    if (!GROW32(L->rx_topics, L->nrx_topics, L->rx_topics_cap, 8)) {
        L->nomem = true;
        return;
    }
    L->rx_topics[L->nrx_topics].id = gid;
    L->rx_topics[L->nrx_topics++].name = topic;
}

/* Before the replay: the topic ids that the log's offset commits name (OffsetCommitValue version 4+
 * carries the committed topic's id, a tagged field, beside the topic name of its key; Kafka 4.1,
 * KIP-848's assignments by topic id). Only those records are decoded; damage is left to the replay.
 * Streams topologies that read by regular expression are noted on the way. */
/* A record the walk before the replay reads: a StreamsGroupTopology with a value, or an
 * OffsetCommit (key type 1) whose value is of version 4 or later. */
static bool names_record(const ss_record *r) {
    if (r->key_len < 2 || r->key[0]) return false;
    if (r->key[1] == SS_GROUP_STREAMS_GROUP_TOPOLOGY) return r->value_len != 0;
    return r->key[1] == SS_GROUP_OFFSET_COMMIT && r->value_len >= 2 && !r->value[0] && r->value[1] >= 4;
}

/* What such a record (decoded) tells: a topology's regular expression (regex_group), or the topic
 * id an offset commit names. */
static void names_of(glog *L, const ss_cdecoded *d) {
    if (d->record_type == SS_GROUP_STREAMS_GROUP_TOPOLOGY) {
        regex_group(L, d);
        return;
    }
    jctx jc = {d->nodes};
    const char *id = j_uuid(L, jc, j_child(jc, d->value, "topicId"));
    const char *name = j_str(L, jc, d->key, "topic");
    if (!id || !name || g_commit_topic_name(L, id)) return;
    /* one pass: an assignment met before this record left the id unnamed, which the walk before
     * the replay would have named */
    for (uint32_t i = 0; i < L->nmissed && !L->redo; i++) L->redo = L->missed[i] == id;
    if (!GROW32(L->commit_names, L->ncommit_names, L->commit_names_cap, 8)) {
        L->nomem = true;
        return;
    }
    L->commit_names[L->ncommit_names].id = id;
    L->commit_names[L->ncommit_names++].name = name;
}

/* The walk before the replay's look at one record. */
static void commit_topic_id(worker *w, glog *L, const ss_record *r) {
    ss_cdecoded d;
    if (names_record(r) && ss_cdecode(w->cd, SS_CTOPIC_OFFSETS, r, &d) == SS_CDEC_OK) names_of(L, &d);
}

static void commit_topic_ids(worker *w, glog *L) {
    prewalk(w, L, commit_topic_id);
    if (L->nrx_groups) prewalk(w, L, regex_group_topic);
}

/* Replay the log. The replay names a topic id by the log's offset commits (commit_names) and a
 * regular expression's topics by the group's commits (rx_topics), anywhere in the log: a walk
 * before the replay gathers them. With L->one_pass they are gathered as the replay goes, one
 * reading of the log instead of two; when that could give another answer (L->redo) the replay
 * stops and false is returned: the caller starts the log again, without one_pass. */
static bool read_log(worker *w, glog *L) {
    ss_groups *G = w->g;
    const ss_input_partition *ip = ss_inputs_at(G->in, L->input);
    if (!L->one_pass) commit_topic_ids(w, L);
    ss_pcursor c;
    ss_pcursor_open(&c, G->in, L->input, w->dec, UINT64_MAX);
    const ss_batch *b = &c.ev.batch;
    for (ss_pc_kind k; !L->redo && (k = ss_pcursor_next(&c)) != SS_PC_END;) {
        const char *file = ip->segments[c.seg].path ? ip->segments[c.seg].path : ip->name;
        switch (k) {
        case SS_PC_UNREADABLE:
            glog_note(L, SS_SEV_ERROR, "%s: %s", file, c.err.msg);
            L->unreadable++;
            break;
        case SS_PC_DAMAGE:
            L->info.damage_events++;
            glog_note(L, SS_SEV_ERROR, "%s: byte %" PRIu64 ": %s [%s]", file, c.ev.err.position, c.ev.err.msg,
                      ss_errkind_name(c.ev.err.kind));
            break;
        case SS_PC_BATCH:
            if (!b->crc_valid) break; /* its damage event follows */
            L->info.batches++;
            L->batch_no++;
            if (L->expect_next < 0) {
                L->info.first_offset = b->base_offset;
                L->info.complete_from = b->base_offset;
            } else if (b->base_offset > L->expect_next) {
                hole(L, L->expect_next, b->base_offset);
            }
            if (b->has_delete_horizon) L->info.compacted = true;
            if (L->expect_next < b->base_offset) L->expect_next = b->base_offset;
            if (ss_pcursor_records(&c) != SS_E_OK) {
                L->info.damage_events++;
                glog_note(L, SS_SEV_ERROR, "%s: byte %" PRIu64 ": %s [%s]", file, b->position, c.err.msg,
                          ss_errkind_name(c.err.kind));
                L->expect_next = ss_next_offset(b->last_offset);
            }
            break;
        case SS_PC_RECORD: log_record(w, L, file, b, &c.rec); break;
        case SS_PC_RECORDS_END:
            if (c.rec_failed) {
                L->info.damage_events++;
                glog_note(L, SS_SEV_ERROR, "%s: byte %" PRIu64 ": %s [%s]", file, b->position, c.err.msg,
                          ss_errkind_name(c.err.kind));
            }
            /* the cleaner keeps a batch's last offset when it removes its last records */
            if (ss_next_offset(b->last_offset) > L->expect_next)
                hole(L, L->expect_next, ss_next_offset(b->last_offset));
            break;
        default: break;
        }
    }
    ss_pcursor_close(&c);
    if (L->redo) return false;
    if (L->info.unknown_records > UNKNOWN_NOTES)
        glog_note(L, SS_SEV_NOTICE, "%s: and %" PRIu64 " more records of unknown types", ip->name,
                  L->info.unknown_records - UNKNOWN_NOTES);
    L->info.next_offset = L->expect_next;
    if (L->last_hole_end > L->info.complete_from) L->info.complete_from = L->last_hole_end;
    if (ip->log_start_offset > L->info.complete_from) L->info.complete_from = ip->log_start_offset;
    if (L->info.missing_offsets) L->info.compacted = true;
    glog_end(L);
    return true;
}

/* ---- comparing a copy with the one read ------------------------------------------------------------ */

/* The next record of a copy (c, its decoder given): its offset and a hash of what it holds. */
static bool rcur_next(ss_pcursor *c, int64_t *offset, uint64_t *hash) {
    for (ss_pc_kind k; (k = ss_pcursor_next(c)) != SS_PC_END;) {
        if (k == SS_PC_BATCH && c->ev.batch.crc_valid) (void)ss_pcursor_records(c);
        if (k != SS_PC_RECORD) continue;
        const ss_record *r = &c->rec;
        int64_t meta[4] = {c->ev.batch.producer_id, c->ev.batch.control, r->timestamp,
                           (int64_t)r->key_len << 32 ^ (uint32_t)r->value_len};
        uint64_t h = XXH3_64bits(meta, sizeof meta);
        if (r->key_len > 0) h = XXH3_64bits_withSeed(r->key, (size_t)r->key_len, h);
        if (r->value_len > 0) h = XXH3_64bits_withSeed(r->value, (size_t)r->value_len, h);
        *offset = r->offset;
        *hash = h;
        return true;
    }
    return false;
}

static void compare_copy(ss_groups *G, glog_slot *S, size_t ci) {
    ss_glog_copy *cp = &S->copies[ci];
    size_t ia = S->input, ib = (size_t)(cp->input - ss_inputs_at(G->in, 0));
    for (size_t i = 0; i < ss_inputs_count(G->in); i++)
        if (ss_inputs_at(G->in, i) == cp->input) ib = i;
    size_t mb = G->opts.max_batch_bytes ? G->opts.max_batch_bytes : SS_DEFAULT_MAX_BATCH_BYTES;
    ss_decoder *da = ss_decoder_new(mb), *db = ss_decoder_new(mb);
    ss_pcursor a, b;
    ss_pcursor_open(&a, G->in, ia, da, UINT64_MAX);
    ss_pcursor_open(&b, G->in, ib, db, UINT64_MAX);
    cp->first_offset = cp->next_offset = -1;
    cp->first_difference = -1;
    if (da && db) {
        int64_t oa = 0, ob = 0;
        uint64_t ha = 0, hb = 0;
        bool ra = rcur_next(&a, &oa, &ha), rb = rcur_next(&b, &ob, &hb);
        int64_t a_first = ra ? oa : -1;
        if (rb) cp->first_offset = ob;
        int64_t lo = a_first > cp->first_offset ? a_first : cp->first_offset;
        while (ra || rb) {
            if (ra && rb && oa == ob) {
                if (ha == hb) cp->same++;
                else {
                    cp->differing++;
                    if (cp->first_difference < 0) cp->first_difference = oa;
                }
                cp->records++;
                cp->next_offset = ss_next_offset(ob);
                ra = rcur_next(&a, &oa, &ha);
                rb = rcur_next(&b, &ob, &hb);
            } else if (rb && (!ra || ob < oa)) {
                /* only in this copy: inside the range of the one read, a difference */
                if (ra && ob >= lo) {
                    cp->only_here++;
                    if (cp->first_difference < 0) cp->first_difference = ob;
                }
                cp->records++;
                cp->next_offset = ss_next_offset(ob);
                rb = rcur_next(&b, &ob, &hb);
            } else {
                if (rb && oa >= lo) {
                    cp->only_read++;
                    if (cp->first_difference < 0) cp->first_difference = oa;
                }
                ra = rcur_next(&a, &oa, &ha);
            }
        }
    }
    ss_pcursor_close(&a);
    ss_pcursor_close(&b);
    ss_decoder_free(da);
    ss_decoder_free(db);
}

/* ---- threads ---------------------------------------------------------------------------------------- */

/* What the process takes beside the history and the kept commits, and that --max-memory
 * counts too: the program (code, libraries, the heap before the run, the data partitions'
 * timelines: 4.4 MiB for the corpus's small directories, about 6 on the benchmark's 80 data
 * partitions) and each thread's read window (SS_WINDOW_BYTES, grown to a batch's size), record
 * decoder and coordinator decoder. Measured, not counted: without it `groups --commits
 * --max-memory 64M` peaked 9 MiB over the limit on the benchmark's 10 million commits. */
enum { RESERVE_BASE = 6 << 20, RESERVE_THREAD = 2 << 20 };

/* The bytes the history and the kept commits may take (0: no limit): --max-memory less the
 * reserve, or half of it when it is less than twice the reserve (a small limit still spills). */
static size_t history_budget(uint64_t max_memory, unsigned threads) {
    if (!max_memory) return 0;
    uint64_t reserve = RESERVE_BASE + (uint64_t)RESERVE_THREAD * threads;
    uint64_t b = max_memory >= 2 * reserve ? max_memory - reserve : max_memory / 2;
    if (!b) b = 1;
    return b > SIZE_MAX ? SIZE_MAX : (size_t)b;
}

/* Over --max-memory: the logs read so far write the commits they keep sorted in memory
 * to files (they kept them while the histories of the logs read after them were small). */
static void spill_done(ss_groups *G) {
    for (size_t li = 0; li < G->nlogs && atomic_load(&G->in_memory.n) > G->budget; li++) {
        glog_slot *S = &G->logs[li];
        if (atomic_load(&S->done) && !atomic_exchange(&S->spilling, true)) gc_spill_sorted(&S->L);
    }
}

static const char *input_name_cb(const void *ctx, const char *topic_id, int *named_by);
static int64_t cleaner_checkpoint(const ss_input_partition *ip, int32_t partition);

/* The log of slot S, to be read from input `input` (its furthest copy), in one pass or not
 * (read_log). */
static void log_start(ss_groups *G, glog_slot *S, uint32_t input, bool one_pass) {
    glog_init(&S->L, &G->opts, input, S->L.partition);
    const ss_input_partition *ip = ss_inputs_at(G->in, input);
    S->L.one_pass = one_pass;
    S->L.txn_ids = G->txn_ids;
    S->L.input_name = input_name_cb;
    S->L.input_name_ctx = G;
    S->L.info.input = ip;
    S->L.info.cleaner_checkpoint = cleaner_checkpoint(ip, S->L.partition);
    S->L.commits.tmpdir = G->opts.tmpdir;
    /* --max-memory bounds the history (every log's state) and the kept commits
     * together: the commits go to temporary files when both reach it. The log counts its
     * own too: read again, it takes its first reading's bytes off the run's. */
    S->L.own.up = &G->in_memory;
    S->L.in_memory = &S->L.own;
    S->L.commits.in_memory = &S->L.own;
    S->L.commits.budget = G->budget;
}

static void *worker_main(void *arg) {
    worker *w = arg;
    ss_groups *G = w->g;
    for (;;) {
        size_t i = atomic_fetch_add(&G->next_work, 1);
        if (i >= G->nwork) break;
        const gwork *wk = &G->work[i];
        glog_slot *S = &G->logs[wk->log];
        if (wk->compare) compare_copy(G, S, wk->copy);
        else {
            if (!read_log(w, &S->L)) {
                /* one pass could not answer as the walk first would: the log again, that way */
                glog_free(&S->L);
                g_uncount(&G->in_memory, atomic_load(&S->L.own.n)); /* the history's (glog_free: the commits') */
                log_start(G, S, S->input, false);
                (void)read_log(w, &S->L);
            }
            atomic_store(&S->done, true);
            if (G->opts.max_memory) spill_done(G);
        }
    }
    return NULL;
}

static int cmp_work(const void *a, const void *b) {
    const gwork *x = a, *y = b;
    if (x->bytes != y->bytes) return x->bytes > y->bytes ? -1 : 1;
    return x->log < y->log ? -1 : x->log > y->log;
}

/* ---- the run ------------------------------------------------------------------------------------------ */

ss_groups *ss_groups_new(const ss_groups_opts *opts) {
    ss_groups *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    if (opts) g->opts = *opts;
    else ss_groups_opts_default(&g->opts);
    if (g->opts.partitions <= 0) g->opts.partitions = 50;
    if (g->opts.ngroups) {
        g->group_filter = calloc(g->opts.ngroups, sizeof *g->group_filter);
        if (!g->group_filter) {
            free(g);
            return NULL;
        }
        for (size_t i = 0; i < g->opts.ngroups; i++) g->group_filter[i] = strdup(g->opts.groups[i]);
        g->opts.groups = (const char *const *)g->group_filter;
    }
    if (g->opts.topic) g->opts.topic = strdup(g->opts.topic);
    if (g->opts.tmpdir) g->opts.tmpdir = strdup(g->opts.tmpdir);
    return g;
}

const char *ss_groups_failure(const ss_groups *g) { return g->failure[0] ? g->failure : NULL; }

static const char *input_name_cb(const void *ctx, const char *topic_id, int *named_by) {
    return v_input_topic_name(ctx, topic_id, named_by);
}

static bool id_add(ss_groups *G, const char *id, const char *name, int src) {
    if (strlen(id) >= sizeof G->ids[0]) return true;
    for (size_t k = 0; k < G->nids; k++)
        if (!strcmp(G->ids[k], id)) return true; /* the first source that names it */
    if (G->nids == G->idcap) {
        size_t cap = G->idcap ? 2 * G->idcap : 16;
        char(*ids)[25] = realloc(G->ids, cap * sizeof *ids);
        if (ids) G->ids = ids;
        const char **names = realloc(G->id_names, cap * sizeof *names);
        if (names) G->id_names = names;
        uint8_t *srcs = realloc(G->id_src, cap * sizeof *srcs);
        if (srcs) G->id_src = srcs;
        if (!ids || !names || !srcs) return false;
        G->idcap = cap;
    }
    if (src == SS_GNAMED_CLUSTER_METADATA && !(name = strdup(name))) return false;
    strcpy(G->ids[G->nids], id);
    G->id_names[G->nids] = name;
    G->id_src[G->nids++] = (uint8_t)src;
    return true;
}

/* The topic ids a KIP-848 or streams assignment may name: partition.metadata of each partition
 * directory among the inputs (the inputs room reads it), then the TopicRecords (metadata record type
 * 2: name, topicId) of a __cluster_metadata partition among them. A topic deleted and created again
 * has a new id: each id names one topic. */
static void read_topic_ids(ss_groups *G) {
    size_t n = ss_inputs_count(G->in);
    for (size_t i = 0; i < n; i++) {
        const ss_input_partition *ip = ss_inputs_at(G->in, i);
        if (ip->internal || !ip->topic_id || !ip->topic) continue;
        if (!id_add(G, ip->topic_id, ip->topic, SS_GNAMED_PARTITION_METADATA)) return;
    }
    ss_cdecoder *cd = NULL;
    ss_decoder *dec = NULL;
    for (size_t i = 0; i < n; i++) {
        const ss_input_partition *ip = ss_inputs_at(G->in, i);
        if (!ip->topic || strcmp(ip->topic, "__cluster_metadata") != 0) continue;
        if (!cd) cd = ss_cdecoder_new();
        if (!dec) dec = ss_decoder_new(SS_DEFAULT_MAX_BATCH_BYTES);
        if (!cd || !dec) break;
        ss_pcursor c;
        ss_pcursor_open(&c, G->in, i, dec, UINT64_MAX);
        bool ok = true;
        for (ss_pc_kind k; ok && (k = ss_pcursor_next(&c)) != SS_PC_END;) {
            if (k == SS_PC_BATCH && c.ev.batch.crc_valid && !c.ev.batch.control) (void)ss_pcursor_records(&c);
            if (k != SS_PC_RECORD) continue;
            const ss_record *r = &c.rec;
            /* MetadataRecordSerde: frame version 1, then the record type (varint) 2 = TopicRecord */
            if (r->value_len < 3 || r->value[0] != 1 || r->value[1] != 2) continue;
            ss_cdecoded d;
            if (ss_cdecode(cd, SS_CTOPIC_CLUSTER_METADATA, r, &d) != SS_CDEC_OK) continue;
            uint32_t name = 0, id = 0;
            for (uint32_t x = d.value ? d.nodes[d.value].first : 0; x; x = d.nodes[x].next) {
                if (d.nodes[x].name && !strcmp(d.nodes[x].name, "name")) name = x;
                if (d.nodes[x].name && !strcmp(d.nodes[x].name, "topicId")) id = x;
            }
            if (!name || !id || d.nodes[name].kind != SS_J_STRING || d.nodes[id].len != 16) continue;
            char idt[25], nm[256];
            ss_uuid_string(d.nodes[id].str, idt);
            if (d.nodes[name].len >= sizeof nm) continue; /* Kafka's topic names are at most 249 bytes */
            memcpy(nm, d.nodes[name].str, d.nodes[name].len);
            nm[d.nodes[name].len] = 0;
            ok = id_add(G, idt, nm, SS_GNAMED_CLUSTER_METADATA);
        }
        ss_pcursor_close(&c);
        if (!ok) break;
    }
    ss_cdecoder_free(cd);
    ss_decoder_free(dec);
}

/* cleaner-offset-checkpoint of the log directory that holds a partition directory */
static int64_t cleaner_checkpoint(const ss_input_partition *ip, int32_t partition) {
    if (!ip->is_dir || !ip->path) return -1;
    size_t n = strlen(ip->path);
    while (n > 1 && ip->path[n - 1] == '/') n--;
    size_t d = n;
    while (d > 0 && ip->path[d - 1] != '/') d--;
    char *path = malloc(d + 40);
    if (!path) return -1;
    if (d) memcpy(path, ip->path, d);
    else path[d++] = '.', path[d++] = '/';
    memcpy(path + d, "cleaner-offset-checkpoint", sizeof "cleaner-offset-checkpoint");
    int64_t v = -1;
    ss_checkpoint ck;
    ss_error e;
    if (access(path, R_OK) == 0 && ss_checkpoint_read(path, SS_CKPT_OFFSETS, &ck, &e) == SS_E_OK) {
        for (size_t i = 0; i < ck.n; i++)
            if (!strcmp(ck.offsets[i].topic, CO) && ck.offsets[i].partition == partition) v = ck.offsets[i].offset;
        ss_checkpoint_free(&ck);
    }
    free(path);
    return v;
}

/* a group as it is sorted: its id and coordinator partition beside its place */
struct gsort {
    const char *id;
    int32_t partition;
    struct gpub at;
};

static int cmp_group(const void *a, const void *b) {
    const struct gsort *x = a, *y = b;
    size_t xl = gs_len(x->id), yl = gs_len(y->id);
    int c = memcmp(x->id, y->id, xl < yl ? xl : yl);
    if (c) return c;
    if (xl != yl) return xl < yl ? -1 : 1;
    return x->partition < y->partition ? -1 : x->partition > y->partition;
}

ss_errkind ss_groups_run(ss_groups *G, const ss_inputs *in) {
    G->in = in;
    size_t n = ss_inputs_count(in);
    read_topic_ids(G);
    {
        ss_error te;
        if (ss_txn_state_ids(in, &G->txn_ids, &te) != SS_E_OK) {
            /* the groups are read all the same: their transactional ids are left unnamed */
            te.severity = SS_SEV_WARNING;
            (void)ss_problems_push(&G->problems, &te);
        }
    }
    /* one log per partition number; its copies */
    G->logs = calloc(n ? n : 1, sizeof *G->logs);
    G->work = calloc(n ? n : 1, sizeof *G->work);
    if (!G->logs || !G->work) return SS_E_NOMEM;
    for (size_t i = 0; i < n; i++) {
        int32_t p = co_partition(ss_inputs_at(in, i));
        if (p < 0) continue;
        size_t li = G->nlogs;
        for (size_t k = 0; k < G->nlogs; k++)
            if (G->logs[k].L.partition == p) li = k;
        glog_slot *S = &G->logs[li];
        if (li == G->nlogs) {
            G->nlogs++;
            glog_init(&S->L, &G->opts, (uint32_t)i, p);
            S->copies = calloc(n, sizeof *S->copies);
            if (!S->copies) return SS_E_NOMEM;
        }
        S->copies[S->ncopies++].input = ss_inputs_at(in, i);
    }
    if (!G->nlogs) return SS_E_OK;
    unsigned threads = G->opts.threads;
    if (!threads) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        threads = c > 0 ? (unsigned)c : 1;
    }
    if (threads > 256) threads = 256;
    G->budget = history_budget(G->opts.max_memory, threads);
    for (size_t li = 0; li < G->nlogs; li++) {
        glog_slot *S = &G->logs[li];
        size_t best = 0;
        for (size_t c = 1; c < S->ncopies; c++) {
            const ss_input_partition *a = S->copies[c].input, *b = S->copies[best].input;
            if (last_base(a) > last_base(b)) best = c;
        }
        S->copies[best].read = true;
        uint32_t input = S->L.input;
        for (size_t i = 0; i < n; i++)
            if (ss_inputs_at(in, i) == S->copies[best].input) input = (uint32_t)i;
        S->input = input;
        log_start(G, S, input, !ss_test_hooks_get()->groups_two_pass);
        gwork *w = &G->work[G->nwork++];
        w->log = (uint32_t)li;
        w->input = S->L.input;
        w->bytes = input_bytes(in, S->L.input);
        /* one piece of work per copy: at most one per input (G->work holds as many) */
        for (size_t c = 0; c < S->ncopies; c++) {
            if (S->copies[c].read) continue;
            gwork *x = &G->work[G->nwork++];
            memset(x, 0, sizeof *x);
            x->log = (uint32_t)li;
            x->copy = c;
            x->compare = true;
            x->bytes = input_bytes(in, S->L.input);
        }
    }
    qsort(G->work, G->nwork, sizeof *G->work, cmp_work);
    if (threads > G->nwork) threads = (unsigned)G->nwork;
    worker *ws = calloc(threads, sizeof *ws);
    pthread_t *tids = calloc(threads, sizeof *tids);
    if (!ws || !tids) {
        free(ws);
        free(tids);
        return SS_E_NOMEM;
    }
    size_t mb = G->opts.max_batch_bytes ? G->opts.max_batch_bytes : SS_DEFAULT_MAX_BATCH_BYTES;
    ss_errkind rc = SS_E_OK;
    for (unsigned t = 0; t < threads; t++) {
        ws[t].g = G;
        ws[t].dec = ss_decoder_new(mb);
        ws[t].cd = ss_cdecoder_new();
        if (!ws[t].dec || !ws[t].cd) rc = SS_E_NOMEM;
    }
    atomic_store(&G->next_work, 0);
    atomic_store(&G->in_memory.n, 0);
    unsigned started = 0;
    if (rc == SS_E_OK) {
        for (unsigned t = 1; t < threads; t++) {
            if (pthread_create(&tids[t], NULL, worker_main, &ws[t]) != 0) break;
            started = t;
        }
        worker_main(&ws[0]);
        for (unsigned t = 1; t <= started; t++) pthread_join(tids[t], NULL);
    }
    for (unsigned t = 0; t < threads; t++) {
        ss_decoder_free(ws[t].dec);
        ss_cdecoder_free(ws[t].cd);
    }
    free(ws);
    free(tids);
    if (rc != SS_E_OK) return rc;
    /* the logs read last took the memory the commits of those read first keep */
    if (G->opts.max_memory) spill_done(G);
    /* public views */
    G->pub_logs = calloc(G->nlogs, sizeof *G->pub_logs);
    if (!G->pub_logs) return SS_E_NOMEM;
    size_t total = 0;
    for (size_t li = 0; li < G->nlogs; li++) {
        glog *L = &G->logs[li].L;
        if (L->nomem || L->strs.nomem || L->groups_tab.nomem) rc = SS_E_NOMEM;
        if (L->commits.failed) {
            rc = SS_E_IO;
            snprintf(G->failure, sizeof G->failure, "a temporary file for the commits could not be written or read");
        }
        G->pub_logs[li] = L->info;
        G->pub_logs[li].ncopies = G->logs[li].ncopies;
        G->pub_logs[li].copies = G->logs[li].copies;
        G->damage += L->info.damage_events + L->info.bad_records;
        G->unreadable += L->unreadable;
        for (size_t k = 0; k < L->notes.n; k++) (void)ss_problems_push(&G->problems, &L->notes.v[k]);
        ss_problems_free(&L->notes);
        if (L->notes_dropped)
            (void)ss_problems_add(&G->problems, SS_SEV_WARNING, SS_E_OK, "%s-%d: %" PRIu64 " more notes not shown", CO,
                                  (int)L->partition, L->notes_dropped);
        for (uint32_t k = 0; k < L->ngroups; k++)
            if (gv_group(L, k)->wanted) total++;
    }
    /* the groups' order; their views are built when they are asked for (ss_groups_at) */
    struct gsort *order = malloc((total ? total : 1) * sizeof *order);
    G->groups = malloc((total ? total : 1) * sizeof *G->groups);
    if (!order || !G->groups) {
        free(order);
        return SS_E_NOMEM;
    }
    size_t no = 0;
    for (size_t li = 0; li < G->nlogs; li++) {
        glog *L = &G->logs[li].L;
        for (uint32_t k = 0; k < L->ngroups; k++) {
            const gdone *d = gv_group(L, k);
            if (d->wanted) order[no++] = (struct gsort){d->id, L->partition, {(uint32_t)li, k}};
        }
    }
    qsort(order, no, sizeof *order, cmp_group);
    for (size_t i = 0; i < no; i++) G->groups[i] = order[i].at;
    G->ngroups = no;
    free(order);
    return rc;
}

size_t ss_groups_log_count(const ss_groups *g) { return g->nlogs; }
int32_t ss_groups_partition_count(const ss_groups *g) { return g->opts.partitions; }
const ss_glog *ss_groups_log_at(const ss_groups *g, size_t i) { return &g->pub_logs[i]; }
size_t ss_groups_count(const ss_groups *g) { return g->ngroups; }
const ss_problems *ss_groups_problems(const ss_groups *g) { return &g->problems; }
uint64_t ss_groups_damage(const ss_groups *g) { return g->damage; }
uint64_t ss_groups_unreadable(const ss_groups *g) { return g->unreadable; }

uint64_t ss_groups_spilled(const ss_groups *g) {
    uint64_t s = 0;
    for (size_t i = 0; i < g->nlogs; i++) s += g->logs[i].L.commits.spilled;
    return s;
}

void ss_groups_free(ss_groups *g) {
    if (!g) return;
    for (size_t i = 0; i < g->nlogs; i++) {
        glog_free(&g->logs[i].L);
        free(g->logs[i].copies);
    }
    free(g->logs);
    free(g->pub_logs);
    free(g->work);
    v_free(g);
    free(g->groups);
    ss_problems_free(&g->problems);
    for (size_t i = 0; i < g->nids; i++)
        if (g->id_src[i] == SS_GNAMED_CLUSTER_METADATA) free((char *)g->id_names[i]);
    free(g->ids);
    free(g->id_names);
    free(g->id_src);
    ss_txn_ids_free(g->txn_ids);
    for (size_t i = 0; i < g->opts.ngroups; i++) free(g->group_filter[i]);
    free(g->group_filter);
    free((char *)g->opts.topic);
    free((char *)g->opts.tmpdir);
    free(g);
}
