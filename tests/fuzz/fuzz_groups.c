/* Fuzz target: the consumer groups' history and findings (segscan/groups.h,
 * segscan/findings.h, segscan/timeline.h) over a log directory.
 *
 * Input: up to three segments, cut by a 5-byte head:
 *
 *     le16 DATA_LEN  le16 TXN_LEN  u8 NAME  CO_SEGMENT  DATA_SEGMENT[DATA_LEN]  TXN_SEGMENT[TXN_LEN]
 *
 * (lengths beyond what is left are cut to it): __consumer_offsets-0, a data
 * partition (NAME % 5: t-0, events-0, items-0, items-1, in-0: the names the
 * seeds' commits use) and __transaction_state-0, read as `segscan groups` reads
 * a log directory: the data partitions' batch headers, the replay of
 * __consumer_offsets with them, the findings with __transaction_state. Seven
 * inputs in eight hold them in memory (ss_inputs_add_memory under those names: no
 * file written, no directory listed); the eighth, compared below, writes them as
 * the files of a private log directory (fuzz_private_dir: under /dev/shm, else
 * /tmp; the files are rewritten in place, and the data partition's directory
 * replaced only when NAME changes). The seeds are the corpus's groups-*
 * folders, a Streams group and a group subscribed by regular expression (whose
 * one-pass replay falls back to two passes), each cut to inputs of 4 KiB: the
 * logs in windows of whole entries, the data partition's batches slimmed to
 * their headers' worth (tests/fuzz/make_corpus.py; max_len says why 4 KiB).
 *
 * Checks: every view of every group is read (strings to their lengths, every
 * array to its count); every partition's lag (lag.c) at the newest timestamp
 * read and at the group's last time, measured from a committed offset and a
 * log end or not at all, and each group's sum; every finding's ranges are ordered, counted no lower
 * than -1 and, with the data partition read, within its offsets (every input);
 * and, for one input in eight (fuzz_input_hash, so an input always gets the
 * same checks), read from the files, the timelines and findings are the same
 * with one thread and with two (groups.h: the results never depend on the number of threads), with
 * the timelines taken from an analysis's batch headers (ss_timelines_read_with)
 * as read from the files, with the groups' replay in two passes (the test
 * hook groups_two_pass: the fallback of the one-pass replay) as in one, with every
 * array of the read log packed (the hook groups_pack_all; a short one is otherwise
 * read as it is: groups/pack.c) as with the short ones not, and with
 * __consumer_offsets-0 read from the copy that analysis kept
 * (ss_an_opts.keep_offsets_bytes, inputs/kept.h: what `segscan scan` does) as
 * from the file.
 */
#define _GNU_SOURCE 1
#include <dirent.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "fuzz_common.h"
#include "inputs/kept.h"
#include "segscan/lag.h"

/* the data partition's names (NAME % 5) */
static const char *const names[] = {"t-0", "events-0", "items-0", "items-1", "in-0"};
static char dir[512];
static int data_name = -1; /* the data partition written last (names[]), -1 none */

static void cleanup(void) {
    if (dir[0]) fuzz_rm_tree(dir);
}

static void put(const char *part, const uint8_t *p, size_t n, bool new_dir) {
    char path[1024];
    if (new_dir) {
        snprintf(path, sizeof path, "%s/%s", dir, part);
        mkdir(path, 0700);
    }
    snprintf(path, sizeof path, "%s/%s/00000000000000000000.log", dir, part);
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL);
    if (n) FUZZ_CHECK(fwrite(p, 1, n, f) == n);
    fclose(f);
}

/* A digest of every string and count of the groups' views read by the run under way (touch_str,
 * view_count): the comparisons see the whole history, not only the findings. */
static uint64_t view_sum;

static FUZZ_NO_COVERAGE void view_count(uint64_t v) { view_sum = (view_sum ^ v) * 0x100000001b3u; }

static FUZZ_NO_COVERAGE void view_bytes(const char *s, size_t n) {
    view_count(n);
    for (size_t i = 0; i < n; i++) view_sum = (view_sum ^ (uint8_t)s[i]) * 0x100000001b3u;
}

static void touch_str(const char *s, size_t n) {
    if (s) {
        fuzz_touch((const uint8_t *)s, (int64_t)n);
        view_bytes(s, n);
    } else view_count(UINT64_MAX);
}

static void touch_refs(const ss_gtp_ref *v, size_t n) {
    for (size_t i = 0; i < n; i++) {
        touch_str(v[i].topic, v[i].topic_len);
        touch_str(v[i].topic_id, v[i].topic_id ? strlen(v[i].topic_id) : 0);
        view_count((uint64_t)v[i].partition << 8 | (uint64_t)(unsigned)v[i].named_by);
    }
}

static void check_range(const ss_frange *r, const ss_tl_partition *tl) {
    if (!r->set) return;
    FUZZ_CHECK(r->records >= -1);
    if (r->to >= 0) FUZZ_CHECK(r->from <= r->to);
    if (tl) {
        FUZZ_CHECK(r->to >= 0);
        FUZZ_CHECK(r->from >= tl->log_start && r->to < tl->next_offset);
        /* -1: a batch the range cuts through does not decode (findings.h); never more than it spans */
        FUZZ_CHECK(r->records >= -1 && r->records <= r->to - r->from + 1);
    }
}

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3u; }

/* A digest of every field of the timelines: each partition's figures, batch headers,
 * transactions and the notes. */
static uint64_t tl_digest(const ss_timelines *tl) {
    uint64_t h = mix(0xcbf29ce484222325u, (uint64_t)ss_timelines_max_timestamp(tl));
    for (size_t i = 0; i < ss_timelines_count(tl); i++) {
        const ss_tl_partition *p = ss_timelines_at(tl, i);
        h = mix(h, (uint64_t)(uintptr_t)p->input);
        h = mix(h, (uint64_t)strlen(p->topic));
        h = mix(h, (uint64_t)p->partition);
        h = mix(h, p->copies);
        h = mix(h, p->batches);
        h = mix(h, p->records);
        h = mix(h, (uint64_t)p->first_offset);
        h = mix(h, (uint64_t)p->next_offset);
        h = mix(h, (uint64_t)p->log_start);
        h = mix(h, (uint64_t)p->max_timestamp);
        h = mix(h, (uint64_t)p->basis * 2u + p->complete);
        for (size_t k = 0; k < ss_tl_batch_count(p); k++) {
            ss_tl_batch b;
            ss_tl_batch_at(p, k, &b);
            h = mix(h, (uint64_t)b.base_offset);
            h = mix(h, (uint64_t)b.last_offset);
            h = mix(h, (uint64_t)b.max_timestamp);
            h = mix(h, (uint64_t)b.producer_id);
            h = mix(h, (uint64_t)b.producer_epoch);
            h = mix(h, (uint64_t)b.records);
            h = mix(h, b.segment);
            h = mix(h, (uint64_t)b.control | (uint64_t)b.transactional << 1 | (uint64_t)b.log_append_time << 2 |
                           (uint64_t)b.commit << 3 | (uint64_t)b.abort << 4);
        }
        for (size_t k = 0; k < ss_tl_txn_count(p); k++) {
            const ss_tl_txn *x = ss_tl_txn_at(p, k);
            h = mix(h, (uint64_t)x->producer_id);
            h = mix(h, (uint64_t)x->producer_epoch << 16 | (uint16_t)x->marker_epoch);
            h = mix(h, (uint64_t)x->first_offset);
            h = mix(h, (uint64_t)x->last_offset);
            h = mix(h, (uint64_t)x->marker_offset);
            h = mix(h, (uint64_t)x->first_time);
            h = mix(h, (uint64_t)x->marker_time);
            h = mix(h, (uint64_t)x->result);
            h = mix(h, x->records);
        }
    }
    const ss_problems *n = ss_timelines_problems(tl);
    for (size_t i = 0; i < ss_problems_count(n); i++)
        for (const char *c = ss_problems_at(n, i)->msg; *c; c++) h = mix(h, (uint8_t)*c);
    return h;
}

/* One run over the log directory's inputs (read once for every run: the studies take them
 * const), the timelines read from the files, or taken from `an` (an analysis of the same
 * inputs) where it kept them; returns a digest of the timelines, the groups' views and the
 * findings (for the comparisons of thread counts and of the ways of reading). */
static uint64_t run(const ss_inputs *in, unsigned threads, const ss_analysis *an, uint64_t *tl_out) {
    ss_timelines *tl = ss_timelines_new(1 << 20);
    FUZZ_CHECK(tl != NULL);
    FUZZ_CHECK((an ? ss_timelines_read_with(tl, in, threads, an) : ss_timelines_read(tl, in, threads)) == SS_E_OK);
    uint64_t tl_sum = tl_digest(tl);
    *tl_out = tl_sum;
    view_sum = 0;
    ss_groups_opts o;
    ss_groups_opts_default(&o);
    o.threads = threads;
    o.commits = true;
    o.data = tl;
    o.max_batch_bytes = 1 << 20;
    ss_groups *g = ss_groups_new(&o);
    FUZZ_CHECK(g != NULL);
    ss_errkind rc = ss_groups_run(g, in);
    FUZZ_CHECK(rc == SS_E_OK || rc == SS_E_NOMEM);
    const ss_problems *problems = ss_groups_problems(g);
    for (size_t i = 0; i < ss_problems_count(problems); i++) {
        const ss_error *p = ss_problems_at(problems, i);
        FUZZ_CHECK(memchr(p->msg, 0, sizeof p->msg) != NULL);
        touch_str(p->msg, strlen(p->msg));
    }
    for (size_t i = 0; i < ss_groups_count(g); i++) {
        const ss_group *grp = ss_groups_at(g, i);
        touch_str(grp->id, grp->id_len);
        view_count(grp->ngenerations);
        view_count(grp->nevents);
        view_count(grp->npartitions);
        view_count(grp->commits);
        view_count(grp->txn_commits);
        view_count((uint64_t)grp->first_offset);
        view_count((uint64_t)grp->last_time);
        for (size_t k = 0; k < grp->ngenerations; k++) {
            const ss_ggeneration *x = &grp->generations[k];
            for (size_t m = 0; m < x->nmembers; m++) {
                touch_str(x->members[m].member_id, x->members[m].member_id_len);
                touch_refs(x->members[m].parts, x->members[m].nparts);
                touch_refs(x->members[m].pending, x->members[m].npending);
            }
            for (size_t a = 0; a < x->nassign; a++) {
                touch_refs(x->assignments[a].parts, x->assignments[a].nparts);
                touch_refs(x->assignments[a].pending, x->assignments[a].npending);
            }
        }
        for (size_t k = 0; k < grp->nevents; k++) touch_refs(&grp->events[k].tp, 1);
        for (size_t k = 0; k < grp->npartitions; k++) {
            const ss_gpartition *p = &grp->partitions[k];
            touch_refs(&p->tp, 1);
            view_count((uint64_t)p->offset);
            view_count(p->commits);
            for (size_t w = 0; w < p->nowners; w++) {
                touch_str(p->owners[w].member_id, p->owners[w].member_id_len);
                FUZZ_CHECK(p->owners[w].commits == 0 || p->owners[w].last_commit_time >= -1);
            }
        }
        /* the lag (lag.c) at the newest timestamp read, as `segscan groups` gives it, and at a
         * "now" the input picks among the group's own times (a window cut before its end) */
        int64_t nows[2] = {ss_timelines_max_timestamp(tl), grp->last_time};
        for (size_t k = 0; k < grp->npartitions; k++)
            for (int t = 0; t < 2; t++) {
                ss_plag l;
                FUZZ_CHECK(ss_group_lag(g, i, k, tl, nows[t], &l));
                FUZZ_CHECK(l.ncommits <= SS_LAG_INTERVALS);
                /* a lag is measured from a committed offset and a log end, or not at all, and
                 * then no status either */
                if (l.lag >= 0) FUZZ_CHECK(l.committed >= 0 && l.log_end >= 0 && l.why == SS_LAGW_KNOWN);
                if (l.why != SS_LAGW_KNOWN) FUZZ_CHECK(l.lag == -1 && l.status == SS_LAG_UNKNOWN);
                else FUZZ_CHECK(l.ncommits >= 1 && l.lag >= 0 && l.status != SS_LAG_UNKNOWN);
                /* the rule that decided says which status (lag.h: burrow_status) */
                if (l.status == SS_LAG_STOP) FUZZ_CHECK(l.rule == 3);
                if (l.status == SS_LAG_REWIND) FUZZ_CHECK(l.rule == 2);
                for (size_t w = 0; w < l.ncommits; w++) {
                    FUZZ_CHECK(l.commits[w].lag >= 0);
                    view_count((uint64_t)l.commits[w].lag);
                }
                view_count((uint64_t)l.lag ^ (uint64_t)l.status << 56 ^ (uint64_t)l.rule << 48);
                view_count((uint64_t)l.age_ms);
            }
        ss_glag gl;
        FUZZ_CHECK(ss_group_lag_sum(g, i, tl, nows[0], &gl));
        FUZZ_CHECK(gl.evaluated <= gl.partitions && (gl.evaluated == 0) == (gl.total_lag == -1));
        view_count((uint64_t)gl.total_lag ^ (uint64_t)gl.status << 56);
        ss_gcommit_iter *it = ss_group_commits(g, i);
        ss_gcommit c;
        while (it && ss_gcommit_next(it, &c) == 1) {
            touch_refs(&c.tp, 1);
            view_count((uint64_t)c.record_offset);
            view_count((uint64_t)c.outcome << 1 | c.effective);
            view_count((uint64_t)c.effective_time);
            /* named from __transaction_state (ss_txn_state_ids): the kept copy's comparison */
            touch_str(c.transactional_id, c.transactional_id ? strlen(c.transactional_id) : 0);
        }
        ss_gcommit_iter_free(it);
    }
    uint64_t digest = 0;
    ss_findings_opts fo;
    ss_findings_opts_default(&fo);
    ss_findings *f = ss_findings_build(g, tl, in, &fo);
    for (size_t i = 0; f && i < ss_findings_count(f); i++) {
        const ss_finding *x = ss_findings_at(f, i);
        FUZZ_CHECK(ss_fkind_name(x->kind) != NULL);
        FUZZ_CHECK(x->group < ss_groups_count(g));
        touch_str(x->group_id, x->group_id_len);
        touch_refs(&x->tp, 1);
        const ss_tl_partition *p =
            x->tp.topic ? ss_timelines_find(tl, x->tp.topic, x->tp.topic_len, x->tp.partition) : NULL;
        FUZZ_CHECK(x->data_read == (p != NULL) || x->kind == SS_FK_FENCING);
        check_range(&x->redelivered, p);
        check_range(&x->likely, p);
        check_range(&x->skipped, p);
        for (size_t k = 0; k < x->noutputs; k++) {
            FUZZ_CHECK(x->outputs[k].from <= x->outputs[k].to);
            touch_str(x->outputs[k].topic, strlen(x->outputs[k].topic));
        }
        digest = digest * 1000003u + (uint64_t)x->kind * 31u + (uint64_t)x->time + (uint64_t)x->redelivered.from +
                 (uint64_t)x->redelivered.records;
        /* what __transaction_state says of it (txnstate.c, ss_txn_state_ids) */
        touch_str(x->transactional_id, x->transactional_id ? strlen(x->transactional_id) : 0);
        digest = digest * 1000003u + (uint64_t)(x->hanging_confirmed + 1) * 7u + (uint64_t)x->bump;
        int32_t cp;
        int64_t from;
        if (x->tp.topic)
            ss_findings_why_none(f, x->tp.topic, x->tp.topic_len, x->tp.partition, x->time, NULL, &cp, &from);
    }
    ss_findings_free(f);
    ss_groups_free(g);
    ss_timelines_free(tl);
    return mix(mix(digest, tl_sum), view_sum);
}

/* The three segments as a log directory's files (the eighth of inputs compared: the kept copies
 * are of files), read as `segscan groups` reads one. */
static ss_inputs *as_files(const uint8_t *co, size_t col, int name, const uint8_t *dp, size_t dl, const uint8_t *tp,
                           size_t tl) {
    if (!dir[0]) {
        fuzz_private_dir("groups", dir, sizeof dir);
        atexit(cleanup);
        put("__consumer_offsets-0", NULL, 0, true);
        put("__transaction_state-0", NULL, 0, true);
    }
    put("__consumer_offsets-0", co, col, false);
    if (name != data_name && data_name >= 0) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[data_name]);
        fuzz_rm_tree(path);
    }
    put(names[name], dp, dl, name != data_name);
    data_name = name;
    put("__transaction_state-0", tp, tl, false);
    ss_inputs *in = ss_inputs_new(false);
    FUZZ_CHECK(in != NULL);
    ss_inputs_add(in, dir);
    ss_inputs_finish(in);
    return in;
}

/* The same three held in memory (ss_inputs_add_memory, under the partitions' names): the other
 * seven inputs in eight, with no file written and no directory listed. */
static ss_inputs *in_memory(const uint8_t *co, size_t col, int name, const uint8_t *dp, size_t dl, const uint8_t *tp,
                            size_t tl) {
    ss_inputs *in = ss_inputs_new(false);
    FUZZ_CHECK(in != NULL);
    FUZZ_CHECK(ss_inputs_add_memory(in, "__consumer_offsets-0", co, col) == SS_E_OK);
    FUZZ_CHECK(ss_inputs_add_memory(in, names[name], dp, dl) == SS_E_OK);
    FUZZ_CHECK(ss_inputs_add_memory(in, "__transaction_state-0", tp, tl) == SS_E_OK);
    ss_inputs_finish(in);
    return in;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 5) return 0;
    size_t dl = (size_t)(data[0] | data[1] << 8), tl = (size_t)(data[2] | data[3] << 8);
    int name = data[4] % 5;
    const uint8_t *p = data + 5;
    size_t left = size - 5;
    if (dl > left) dl = left;
    if (tl > left - dl) tl = left - dl;
    size_t col = left - dl - tl;
    uint64_t tl_one, tl_other;
    /* Which inputs are also read from files, with two threads, with the timelines from an
     * analysis and with the replay in two passes (fuzz_input_hash). Each of these studies costs
     * what the first does, and the analysis and the files more: on one input in four they were
     * about as much work again as the three other inputs' studies, and CI's 20 s runs reached
     * too few inputs; one in eight still compares over a thousand inputs in a short run
     * (tests/fuzz/speed.txt). */
    if (fuzz_input_hash(data, size) % 8 != 0) {
        ss_inputs *in = in_memory(p, col, name, p + col, dl, p + col + dl, tl);
        run(in, 1, NULL, &tl_one);
        ss_inputs_free(in);
        return 0;
    }
    ss_inputs *in = as_files(p, col, name, p + col, dl, p + col + dl, tl);
    uint64_t one = run(in, 1, NULL, &tl_one);
    FUZZ_CHECK(run(in, 2, NULL, &tl_other) == one);
    /* one more study, not two (each is a third of the input's time): the timelines taken from
     * an analysis's batch headers (ss_timelines_read_with), as read from the files, and the
     * groups' replay in two passes (the one-pass replay's fallback, L->redo), as in one, with
     * every array packed (groups_pack_all), as with the short ones read as they are */
    ss_an_opts ao;
    ss_an_opts_default(&ao);
    ao.threads = 1;
    ao.max_batch_bytes = 1 << 20;
    ao.keep_offsets_bytes = 1 << 20; /* more than the input */
    ss_analysis *an = ss_analysis_new(&ao);
    FUZZ_CHECK(an != NULL);
    ss_errkind rc = ss_analysis_run(an, in);
    FUZZ_CHECK(rc == SS_E_OK || rc == SS_E_NOMEM);
    /* the replay reads __consumer_offsets-0, and the groups' transactional ids
     * __transaction_state-0, from the analysis's copies (the study's way), and only there:
     * the files are overwritten in place with as many zero bytes (the next input writes them
     * again); the same files of the same sizes, so the copies are still taken for them (a file
     * grown or replaced since is read again: inputs/kept.h) */
    if (rc == SS_E_OK) {
        FUZZ_CHECK(an->kept && ss_kept_files(an->kept) == 2 && ss_kept_bytes(an->kept) == col + tl);
        ss_inputs_use_kept(in, an->kept);
        uint8_t *zeros = calloc(col + tl ? col + tl : 1, 1);
        FUZZ_CHECK(zeros != NULL);
        put("__consumer_offsets-0", zeros, col, false);
        put("__transaction_state-0", zeros, tl, false);
        free(zeros);
    }
    ss_test_hooks h = {.pause_after_batches = UINT64_MAX, .groups_two_pass = true, .groups_pack_all = true};
    ss_test_hooks_set(&h);
    uint64_t other = run(in, 1, rc == SS_E_OK ? an : NULL, &tl_other);
    ss_test_hooks_set(NULL);
    ss_inputs_use_kept(in, NULL);
    FUZZ_CHECK(tl_other == tl_one);
    FUZZ_CHECK(other == one);
    ss_analysis_free(an);
    ss_inputs_free(in);
    return 0;
}
