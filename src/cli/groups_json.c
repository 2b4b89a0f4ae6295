/* segscan groups - the history and the findings as JSON Lines objects: offsets-partition,
 * consumer-group, generation, group-event, group-finding and commit (groups_cli.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "gfindings.h"
#include "groups_cli.h"
#include "out.h"
#include "segscan/base.h"
#include "segscan/groups.h"

void json_log(gcli *c, const ss_glog *l) {
    ss_out *o = c->o;
    char nm[48];
    out_lit(o, "{\"type\":\"offsets-partition\",\"partition\":");
    out_json_cstr(o, log_name(nm, sizeof nm, l->partition));
    json_key(o, "path");
    out_json_utf8(o, (const uint8_t *)l->input->path, strlen(l->input->path));
    json_key(o, "records");
    out_u64(o, l->records);
    json_key(o, "markers");
    out_u64(o, l->control_records);
    json_key(o, "tombstones");
    out_u64(o, l->tombstones);
    json_key(o, "unknownRecords");
    out_u64(o, l->unknown_records);
    json_key(o, "badRecords");
    out_u64(o, l->bad_records);
    json_key(o, "firstOffset");
    json_i64_or_null(o, l->first_offset);
    json_key(o, "nextOffset");
    json_i64_or_null(o, l->next_offset);
    json_key(o, "historyCompleteFrom");
    out_printf(o, "{\"offset\":%" PRId64 ",\"time\":", l->complete_from);
    json_i64_or_null(o, l->complete_from_time);
    out_ch(o, '}');
    json_key(o, "compacted");
    out_bool(o, l->compacted);
    json_key(o, "missingOffsets");
    out_u64(o, l->missing_offsets);
    json_key(o, "cleanerCheckpoint");
    json_i64_or_null(o, l->cleaner_checkpoint);
    json_key(o, "copies");
    out_ch(o, '[');
    for (size_t i = 0; i < l->ncopies; i++) {
        const ss_glog_copy *cp = &l->copies[i];
        if (i) out_ch(o, ',');
        out_lit(o, "{\"path\":");
        out_json_utf8(o, (const uint8_t *)cp->input->path, strlen(cp->input->path));
        json_key(o, "read");
        out_bool(o, cp->read);
        if (!cp->read) {
            json_key(o, "firstOffset");
            json_i64_or_null(o, cp->first_offset);
            json_key(o, "nextOffset");
            json_i64_or_null(o, cp->next_offset);
            out_printf(o,
                       ",\"same\":%" PRIu64 ",\"differing\":%" PRIu64 ",\"onlyHere\":%" PRIu64
                       ",\"onlyInRead\":%" PRIu64 ",\"firstDifference\":",
                       cp->same, cp->differing, cp->only_here, cp->only_read);
            json_i64_or_null(o, cp->first_difference);
        }
        out_ch(o, '}');
    }
    out_lit(o, "]}\n");
}

static void json_findings(gcli *c, size_t gi) {
    if (!c->f) return;
    if (!ss_findings_select(c->f, gi)) warnx_("groups: out of memory building the findings; some are not listed");
    size_t first, n = findings_of(c, gi, &first);
    for (size_t i = first; i < first + n; i++) {
        const ss_finding *x = ss_findings_at(c->f, i);
        if (!finding_selected(c, x)) continue;
        gf_json(c->o, x, ss_findings_now(c->f));
        if (gf_fails(x, c->fail_on)) c->failed = true;
    }
}

static void json_member(gcli *c, const ss_gmember *m, bool consumer) {
    ss_out *o = c->o;
    out_lit(o, "{\"memberId\":");
    json_bytes(o, m->member_id, m->member_id_len);
    json_key(o, "groupInstanceId");
    json_bytes(o, m->instance_id, m->instance_id_len);
    json_key(o, "clientId");
    json_bytes(o, m->client_id, m->client_id_len);
    json_key(o, "clientHost");
    json_bytes(o, m->client_host, m->client_host_len);
    json_key(o, "sessionTimeoutMs");
    json_i64_or_null(o, m->session_timeout_ms);
    json_key(o, "rebalanceTimeoutMs");
    json_i64_or_null(o, m->rebalance_timeout_ms);
    json_key(o, "partitions");
    if (m->assignment_known) json_parts(o, m->parts, m->nparts, c);
    else out_lit(o, "null");
    if (consumer) {
        json_key(o, "memberEpoch");
        out_i64(o, m->member_epoch);
        json_key(o, "state");
        const char *st = ss_gmember_state_name(m->state);
        if (st) out_json_cstr(o, st);
        else out_lit(o, "null");
        json_key(o, "pendingRevocation");
        json_parts(o, m->pending, m->npending, c);
    }
    out_ch(o, '}');
}

static void json_group_head(ss_out *o, const char *type, const ss_group *g) {
    out_lit(o, "{\"type\":\"");
    out_str(o, type);
    out_lit(o, "\",\"group\":");
    json_bytes(o, g->id, g->id_len);
}

static void json_generation(gcli *c, const ss_group *g, const ss_ggeneration *x) {
    ss_out *o = c->o;
    char nm[48];
    json_group_head(o, "generation", g);
    json_key(o, "protocol");
    out_json_cstr(o, ss_gprotocol_name(x->protocol));
    json_key(o, x->protocol == SS_GPROTO_CONSUMER ? "epoch" : "generation");
    if (x->protocol == SS_GPROTO_CONSUMER && x->generation < 0) out_lit(o, "null");
    else out_i64(o, x->generation);
    json_key(o, "time");
    out_i64(o, x->time);
    json_key(o, "untilTime");
    json_i64_or_null(o, x->until_time);
    json_key(o, "coordinatorPartition");
    out_json_cstr(o, log_name(nm, sizeof nm, g->coordinator_partition));
    json_key(o, "recordOffset");
    out_i64(o, x->offset);
    if (x->protocol == SS_GPROTO_CLASSIC) {
        json_key(o, "protocolType");
        json_bytes(o, x->protocol_type, x->protocol_type ? strlen(x->protocol_type) : 0);
        json_key(o, "assignor");
        json_bytes(o, x->protocol_name, x->protocol_name ? strlen(x->protocol_name) : 0);
    }
    json_key(o, "leader");
    json_bytes(o, x->leader, x->leader ? strlen(x->leader) : 0);
    json_key(o, "members");
    out_ch(o, '[');
    for (size_t m = 0; m < x->nmembers; m++) {
        if (m) out_ch(o, ',');
        json_member(c, &x->members[m], x->protocol == SS_GPROTO_CONSUMER);
    }
    out_ch(o, ']');
    if (x->protocol == SS_GPROTO_CONSUMER) {
        json_key(o, "assignments");
        out_ch(o, '[');
        bool first = true;
        for (size_t a = 0; a < x->nassign; a++) {
            const ss_gassign *s = &x->assignments[a];
            if (!in_time(c, s->time)) continue;
            if (!first) out_ch(o, ',');
            first = false;
            out_printf(o, "{\"time\":%" PRId64 ",\"recordOffset\":%" PRId64 ",\"memberId\":", s->time, s->offset);
            json_bytes(o, s->member_id, s->member_id_len);
            json_key(o, "left");
            out_bool(o, s->left);
            json_key(o, "memberEpoch");
            out_i64(o, s->member_epoch);
            json_key(o, "previousMemberEpoch");
            out_i64(o, s->previous_member_epoch);
            json_key(o, "state");
            const char *st = ss_gmember_state_name(s->state);
            if (st && !s->left) out_json_cstr(o, st);
            else out_lit(o, "null");
            json_key(o, "partitions");
            json_parts(o, s->parts, s->nparts, c);
            json_key(o, "pendingRevocation");
            json_parts(o, s->pending, s->npending, c);
            out_ch(o, '}');
        }
        out_ch(o, ']');
    }
    out_lit(o, "}\n");
}

static void json_event(gcli *c, const ss_group *g, const ss_gevent *e) {
    ss_out *o = c->o;
    char nm[48];
    json_group_head(o, "group-event", g);
    json_key(o, "kind");
    out_json_cstr(o, ss_gevent_kind_name(e->kind));
    json_key(o, "time");
    out_i64(o, e->time);
    json_key(o, "coordinatorPartition");
    out_json_cstr(o, log_name(nm, sizeof nm, g->coordinator_partition));
    json_key(o, "recordOffset");
    out_i64(o, e->offset);
    if (e->kind == SS_GEV_OFFSETS_DELETED) {
        json_key(o, "topic");
        json_bytes(o, e->tp.topic, e->tp.topic_len);
        json_key(o, "partition");
        out_i64(o, e->tp.partition);
        json_key(o, "lastCommittedOffset");
        json_i64_or_null(o, e->last_offset);
        json_key(o, "pendingRemoved");
        out_u64(o, e->pending_removed);
    }
    if (e->kind == SS_GEV_PROTOCOL_CHANGE) {
        json_key(o, "from");
        out_json_cstr(o, ss_gprotocol_name(e->from_protocol));
    }
    if (e->kind == SS_GEV_PROTOCOL_CHANGE || e->kind == SS_GEV_CREATED) {
        json_key(o, "to");
        out_json_cstr(o, ss_gprotocol_name(e->to_protocol));
    }
    out_lit(o, "}\n");
}

static void json_owner(ss_out *o, const ss_gowner *w) {
    out_lit(o, "{\"memberId\":");
    json_bytes(o, w->member_id, w->member_id_len);
    json_key(o, "groupInstanceId");
    json_bytes(o, w->instance_id, w->instance_id_len);
    out_printf(o, ",\"from\":%" PRId64 ",\"fromRecordOffset\":%" PRId64 ",\"to\":", w->from_time, w->from_offset);
    json_i64_or_null(o, w->to_time);
    json_key(o, "toRecordOffset");
    json_i64_or_null(o, w->to_offset);
    out_printf(o, ",\"generationFrom\":%" PRId32 ",\"generationTo\":%" PRId32, w->generation_from, w->generation_to);
    json_key(o, "resumedFrom");
    json_i64_or_null(o, w->start_committed);
    json_key(o, "commits");
    out_u64(o, w->commits);
    json_key(o, "lastCommit");
    if (w->last_commit_time < 0) out_lit(o, "null");
    else out_printf(o, "{\"time\":%" PRId64 ",\"offset\":%" PRId64 "}", w->last_commit_time, w->last_commit_offset);
    json_key(o, "commitIntervalMs");
    json_i64_or_null(o, w->commit_interval_ms);
    out_ch(o, '}');
}

static void json_group(gcli *c, const ss_group *g) {
    ss_out *o = c->o;
    const ss_glog *l = ss_groups_log_at(c->g, g->log);
    char nm[48];
    json_group_head(o, "consumer-group", g);
    json_key(o, "coordinatorPartition");
    out_json_cstr(o, log_name(nm, sizeof nm, g->coordinator_partition));
    json_key(o, "expectedCoordinatorPartition");
    out_i64(o, g->expected_partition);
    json_key(o, "partitionCount");
    out_i64(o, c->go.partitions);
    json_key(o, "protocolType");
    json_bytes(o, g->protocol_type, g->protocol_type ? strlen(g->protocol_type) : 0);
    json_key(o, "protocol");
    if (g->protocol == SS_GPROTO_NONE) out_lit(o, "null");
    else out_json_cstr(o, ss_gprotocol_name(g->protocol));
    json_key(o, "assignor");
    json_bytes(o, g->assignor, g->assignor ? strlen(g->assignor) : 0);
    json_key(o, "deleted");
    out_bool(o, g->deleted);
    json_key(o, "generations");
    out_u64(o, g->ngenerations);
    json_key(o, "members");
    out_u64(o, g->nmembers_distinct);
    json_key(o, "commits");
    out_u64(o, g->commits);
    json_key(o, "transactionalCommits");
    out_u64(o, g->txn_commits);
    json_key(o, "undecodedRecords");
    out_u64(o, g->undecoded_records);
    json_key(o, "committed");
    out_ch(o, '{');
    bool first = true;
    for (size_t i = 0; i < g->npartitions; i++) {
        const ss_gpartition *p = &g->partitions[i];
        if (!p->committed || !tp_selected(c, &p->tp)) continue;
        if (!first) out_ch(o, ',');
        first = false;
        json_tp(o, &p->tp);
        out_ch(o, ':');
        out_i64(o, p->offset);
    }
    out_ch(o, '}');
    json_key(o, "historyCompleteFrom");
    out_lit(o, "{");
    out_json_cstr(o, nm);
    out_printf(o, ":{\"offset\":%" PRId64 ",\"time\":", l->complete_from);
    json_i64_or_null(o, l->complete_from_time);
    out_lit(o, "}}");
    json_key(o, "historyPartial");
    out_bool(o, g->first_offset < l->complete_from);
    json_key(o, "partitions");
    out_ch(o, '[');
    first = true;
    for (size_t i = 0; i < g->npartitions; i++) {
        const ss_gpartition *p = &g->partitions[i];
        if (!tp_selected(c, &p->tp)) continue;
        if (!first) out_ch(o, ',');
        first = false;
        out_lit(o, "{\"topic\":");
        json_bytes(o, p->tp.topic, p->tp.topic_len);
        json_key(o, "topicId");
        json_bytes(o, p->tp.topic_id, p->tp.topic_id ? strlen(p->tp.topic_id) : 0);
        json_key(o, "partition");
        out_i64(o, p->tp.partition);
        json_key(o, "committed");
        json_i64_or_null(o, p->offset);
        json_key(o, "commitTime");
        json_i64_or_null(o, p->commit_time);
        json_key(o, "leaderEpoch");
        if (p->committed && p->leader_epoch >= 0) out_i64(o, p->leader_epoch);
        else out_lit(o, "null");
        json_key(o, "metadata");
        json_bytes(o, p->metadata, p->metadata_len);
        json_key(o, "transactional");
        out_bool(o, p->transactional);
        out_printf(o,
                   ",\"commits\":%" PRIu64 ",\"transactionalCommits\":%" PRIu64 ",\"transactionsCommitted\":%" PRIu64
                   ",\"transactionsAborted\":%" PRIu64 ",\"transactionsOpen\":%" PRIu64 ",\"deletions\":%" PRIu64,
                   p->commits, p->txn_commits, p->txn_committed, p->txn_aborted, p->txn_open, p->deletions);
        json_key(o, "owners");
        out_ch(o, '[');
        for (size_t k = 0; k < p->nowners; k++) {
            if (k) out_ch(o, ',');
            json_owner(o, &p->owners[k]);
        }
        out_lit(o, "]}");
    }
    out_lit(o, "]}\n");
}

static void json_commit(gcli *c, const ss_group *g, const ss_gcommit *k) {
    ss_out *o = c->o;
    char nm[48];
    json_group_head(o, "commit", g);
    json_key(o, "topic");
    json_bytes(o, k->tp.topic, k->tp.topic_len);
    json_key(o, "partition");
    out_i64(o, k->tp.partition);
    json_key(o, "time");
    out_i64(o, k->time);
    json_key(o, "offset");
    out_i64(o, k->offset);
    json_key(o, "leaderEpoch");
    if (k->leader_epoch >= 0) out_i64(o, k->leader_epoch);
    else out_lit(o, "null");
    json_key(o, "metadata");
    json_bytes(o, k->metadata, k->metadata_len);
    json_key(o, "transactional");
    out_bool(o, k->transactional);
    json_key(o, "producerId");
    if (k->transactional) out_i64(o, k->producer_id);
    else out_lit(o, "null");
    json_key(o, "producerEpoch");
    if (k->transactional) out_i64(o, k->producer_epoch);
    else out_lit(o, "null");
    json_key(o, "transactionalId");
    json_bytes(o, k->transactional_id, k->transactional_id ? strlen(k->transactional_id) : 0);
    json_key(o, "outcome");
    out_json_cstr(o, ss_goutcome_name(k->outcome));
    json_key(o, "effective");
    out_bool(o, k->effective);
    json_key(o, "effectiveTime");
    json_i64_or_null(o, k->effective_time);
    json_key(o, "attributedTo");
    if (k->attributed_to) {
        out_lit(o, "{\"memberId\":");
        json_bytes(o, k->attributed_to, strlen(k->attributed_to));
        json_key(o, "groupInstanceId");
        json_bytes(o, k->attributed_instance, k->attributed_instance ? strlen(k->attributed_instance) : 0);
        json_key(o, "generation");
        if (k->attributed_generation >= 0) out_i64(o, k->attributed_generation);
        else out_lit(o, "null");
        out_lit(o, ",\"attribution\":true}");
    } else {
        out_lit(o, "null");
    }
    json_key(o, "coordinatorPartition");
    out_json_cstr(o, log_name(nm, sizeof nm, g->coordinator_partition));
    json_key(o, "recordOffset");
    out_i64(o, k->record_offset);
    if (k->expire_time >= 0) {
        json_key(o, "expireTimestamp");
        out_i64(o, k->expire_time);
    }
    out_lit(o, "}\n");
}

int json_group_all(gcli *c, size_t gi) {
    const ss_group *g = ss_groups_at(c->g, gi);
    json_group(c, g);
    size_t ei = 0;
    for (size_t k = 0; k <= g->ngenerations; k++) {
        int64_t until = k < g->ngenerations ? g->generations[k].offset : INT64_MAX;
        for (; ei < g->nevents && g->events[ei].offset <= until; ei++) {
            const ss_gevent *e = &g->events[ei];
            if (!timeline_event(e) || !in_time(c, e->time)) continue;
            if (e->kind == SS_GEV_OFFSETS_DELETED && !tp_selected(c, &e->tp)) continue;
            json_event(c, g, e);
        }
        if (k == g->ngenerations) break;
        const ss_ggeneration *x = &g->generations[k];
        bool shown = in_time(c, x->time) ||
                     (x->time <= c->go.until_ms && (x->until_time < 0 || x->until_time >= c->go.since_ms));
        if (shown) json_generation(c, g, x);
    }
    json_findings(c, gi);
    int rc = EXIT_OK;
    if (c->list_commits) {
        ss_gcommit_iter *it = ss_group_commits(c->g, gi);
        ss_gcommit k;
        int r = 0;
        while (it && (r = ss_gcommit_next(it, &k)) == 1) json_commit(c, g, &k);
        if (!it || r < 0) rc = EXIT_TROUBLE;
        ss_gcommit_iter_free(it);
    }
    return rc;
}
