/* segscan - the consumer-groups study in one call (segscan/study.h): the
 * stages wired once, for every command that shows consumer groups. */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "base/error_set.h"
#include "inputs/kept.h"
#include "segscan/study.h"

struct ss_study {
    ss_inputs *in;
    ss_timelines *tl;
    ss_groups *g;
    ss_findings *f;
    bool has_groups, input_failed, incomplete;
    ss_problems problems;
    ss_kept *kept; /* __transaction_state's segments, read once for its two readers (keep_txn_state) */
};

/* Two readers of the study read __transaction_state: the groups (the transactional ids of the
 * producers that committed offsets, ss_txn_state_ids) and the findings (each transaction's
 * state, txnstate.c). Without an analysis that kept its segments, the study reads each whole
 * once into a copy (within the budget; past it a file is read by each reader) that both read. */
static void keep_txn_state(ss_study *s, uint64_t max_memory) {
    uint64_t budget = ss_an_keep_budget(max_memory); /* as the scan's analysis keeps them */
    for (size_t i = 0; i < ss_inputs_count(s->in); i++) {
        const ss_input_partition *ip = ss_inputs_at(s->in, i);
        if (strcmp(ip->topic, "__transaction_state") != 0) continue;
        if (!s->kept && !(s->kept = ss_kept_new(budget))) return; /* out of memory: the files, as before */
        for (size_t j = 0; j < ip->nsegments; j++) {
            ss_segment *seg;
            ss_error err;
            /* an error here is the readers' to report: they meet it again opening the file */
            if (ss_kept_open(s->kept, s->in, i, j, true, &seg, &err) == SS_E_OK) ss_segment_close(seg);
        }
    }
    if (s->kept) ss_inputs_use_kept(s->in, s->kept);
}

void ss_study_opts_default(ss_study_opts *o) {
    memset(o, 0, sizeof *o);
    ss_groups_opts_default(&o->groups);
    ss_findings_opts_default(&o->findings);
}

void ss_study_opts_from_analysis(ss_study_opts *o, const ss_an_opts *ao) {
    o->groups.threads = ao->threads;
    o->groups.max_batch_bytes = ao->max_batch_bytes;
    o->findings.txn_timeout_ms = ao->txn_timeout_ms;
    o->findings.has_now = ao->has_now;
    o->findings.now_ms = ao->now_ms;
}

/* Copy a stage's problems into the study's list (not the notes the caller asked to leave out). */
static void take(ss_study *s, const ss_problems *from, const ss_inputs *notes_of) {
    for (size_t i = 0; i < ss_problems_count(from); i++) {
        if (notes_of && ss_inputs_note_kind(notes_of, i) == SS_INOTE_REPLICAS) continue;
        ss_problems_push(&s->problems, ss_problems_at(from, i));
    }
}

static void fail(ss_study *s, const char *msg) {
    ss_problems_add(&s->problems, SS_SEV_ERROR, SS_E_NOMEM, "%s", msg);
    s->incomplete = true;
}

static bool any_consumer_offsets(const ss_inputs *in) {
    for (size_t i = 0; i < ss_inputs_count(in); i++)
        if (!strcmp(ss_inputs_at(in, i)->topic, "__consumer_offsets")) return true;
    return false;
}

/* Can the study find a __consumer_offsets partition? Not when the caller's own inputs of the
 * same PATHs hold none (the study reads the same directories; it only keeps that topic's
 * copies apart, ss_inputs_replicas_once, and skips "-") and no log directory beside a PATH has
 * one to add: then building the inputs again would only list every directory a second time. */
static bool may_have_groups(const char *const *paths, size_t npaths, const ss_study_opts *o) {
    if (!o->read_before || !o->inputs_reported || any_consumer_offsets(o->read_before)) return true;
    for (size_t i = 0; i < npaths && o->beside; i++)
        if (strcmp(paths[i], "-") != 0 && ss_inputs_offsets_beside(paths[i])) return true;
    return false;
}

ss_errkind ss_study_run(const char *const *paths, size_t npaths, const ss_study_opts *o, ss_study **out) {
    *out = NULL;
    ss_study *s = calloc(1, sizeof *s);
    if (!s) return SS_E_NOMEM;
    s->in = ss_inputs_new(o->include_temp);
    if (!s->in) {
        free(s);
        return SS_E_NOMEM;
    }
    *out = s;
    /* a partition from several brokers' directories is one partition with replicas; the
     * copies of __consumer_offsets stay apart: the groups room reads the furthest and
     * compares the others record by record */
    ss_inputs_replicas_once(s->in, true, "__consumer_offsets");
    if (!may_have_groups(paths, npaths, o)) {
        ss_inputs_finish(s->in); /* none read: no groups */
        return SS_E_OK;
    }
    for (size_t i = 0; i < npaths; i++) {
        if (o->inputs_reported && !strcmp(paths[i], "-")) continue;
        if (ss_inputs_add(s->in, paths[i]) != SS_E_OK) s->input_failed = true;
        if (o->beside) ss_inputs_add_coordinators(s->in, paths[i]);
    }
    ss_inputs_finish(s->in);
    if (!o->inputs_reported) take(s, ss_inputs_problems(s->in), s->in);
    s->has_groups = any_consumer_offsets(s->in);
    if (!s->has_groups) return SS_E_OK;

    /* the data partitions beside __consumer_offsets: what they held when (their batch headers) */
    ss_groups_opts go = o->groups;
    s->tl = ss_timelines_new(go.max_batch_bytes);
    const ss_analysis *an = o->read_before && o->inputs_reported ? o->analysis : NULL;
    /* the __consumer_offsets and __transaction_state segments the analysis read and kept
     * (ss_an_opts.keep_offsets_bytes): the groups and the findings read them there, not from the
     * files again. An analysis that kept none was told to keep none (its keep_offsets_bytes, a
     * quarter of the scan's --max-memory): the study keeps none either. */
    if (an && an->kept) ss_inputs_use_kept(s->in, an->kept);
    else if (!an) keep_txn_state(s, go.max_memory);
    if (!s->tl || ss_timelines_read_with(s->tl, s->in, go.threads, an) != SS_E_OK) {
        fail(s, "out of memory reading the data partitions");
        return SS_E_OK;
    }
    take(s, ss_timelines_problems(s->tl), NULL);
    go.data = s->tl;
    s->g = ss_groups_new(&go);
    if (!s->g) {
        fail(s, "out of memory reading the consumer groups");
        return SS_E_OK;
    }
    ss_errkind er = ss_groups_run(s->g, s->in);
    if (er != SS_E_OK) {
        const char *why = ss_groups_failure(s->g);
        ss_problems_add(&s->problems, SS_SEV_ERROR, er, "groups: %s",
                        why                ? why
                        : er == SS_E_NOMEM ? "out of memory; results are incomplete"
                                           : "the run failed; results are incomplete");
        s->incomplete = true;
    }
    take(s, ss_groups_problems(s->g), NULL);
    s->f = ss_findings_build(s->g, s->tl, s->in, &o->findings);
    if (!s->f) fail(s, "groups: out of memory building the findings; none are listed");
    return SS_E_OK;
}

void ss_study_free(ss_study *s) {
    if (!s) return;
    ss_findings_free(s->f);
    ss_groups_free(s->g);
    ss_timelines_free(s->tl);
    ss_inputs_free(s->in);
    ss_kept_free(s->kept); /* after the inputs that read it */
    ss_problems_free(&s->problems);
    free(s);
}

const ss_inputs *ss_study_inputs(const ss_study *s) { return s->in; }
bool ss_study_has_groups(const ss_study *s) { return s->has_groups; }
ss_timelines *ss_study_timelines(const ss_study *s) { return s->tl; }
ss_groups *ss_study_groups(const ss_study *s) { return s->g; }
ss_findings *ss_study_findings(const ss_study *s) { return s->f; }
const ss_problems *ss_study_problems(const ss_study *s) { return &s->problems; }
bool ss_study_input_failed(const ss_study *s) { return s->input_failed; }
bool ss_study_incomplete(const ss_study *s) { return s->incomplete; }
