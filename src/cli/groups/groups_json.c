/* segscan groups - the history and the findings as JSON Lines objects: offsets-partition,
 * consumer-group, generation, group-event, group-finding and commit (groups_cli.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"
#include "common/out.h"
#include "groups/gfindings.h"
#include "groups/glag.h"
#include "groups/groups_cli.h"
#include "segscan/base.h"
#include "segscan/groups.h"

void gc_json_log(gcli *c, const ss_glog *l) {
    ss_out *o = c->o;
    char nm[48];
    out_lit(o, "{\"type\":\"offsets-partition\",\"partition\":");
    out_json_cstr(o, gc_log_name(nm, sizeof nm, l->partition));
    gc_json_key(o, "path");
    out_json_utf8(o, (const uint8_t *)l->input->path, strlen(l->input->path));
    gc_json_key(o, "records");
    out_u64(o, l->records);
    gc_json_key(o, "markers");
    out_u64(o, l->control_records);
    gc_json_key(o, "tombstones");
    out_u64(o, l->tombstones);
    gc_json_key(o, "unknownRecords");
    out_u64(o, l->unknown_records);
    gc_json_key(o, "unknownRecordTypes");
    out_ch(o, '[');
    for (uint32_t i = 0; i < l->n_unknown_types; i++) {
        if (i) out_ch(o, ',');
        out_printf(o, "{\"recordType\":%d,\"records\":%" PRIu64 "}", (int)l->unknown_types[i].type,
                   l->unknown_types[i].count);
    }
    out_ch(o, ']');
    gc_json_key(o, "unknownRecordsOfOtherTypes");
    out_u64(o, l->unknown_other_types);
    gc_json_key(o, "badRecords");
    out_u64(o, l->bad_records);
    gc_json_key(o, "firstOffset");
    gc_json_i64_or_null(o, l->first_offset);
    gc_json_key(o, "nextOffset");
    gc_json_i64_or_null(o, l->next_offset);
    gc_json_key(o, "historyCompleteFrom");
    out_printf(o, "{\"offset\":%" PRId64 ",\"time\":", l->complete_from);
    gc_json_i64_or_null(o, l->complete_from_time);
    out_ch(o, '}');
    gc_json_key(o, "compacted");
    out_bool(o, l->compacted);
    gc_json_key(o, "missingOffsets");
    out_u64(o, l->missing_offsets);
    gc_json_key(o, "cleanerCheckpoint");
    gc_json_i64_or_null(o, l->cleaner_checkpoint);
    gc_json_key(o, "copies");
    out_ch(o, '[');
    for (size_t i = 0; i < l->ncopies; i++) {
        const ss_glog_copy *cp = &l->copies[i];
        if (i) out_ch(o, ',');
        out_lit(o, "{\"path\":");
        out_json_utf8(o, (const uint8_t *)cp->input->path, strlen(cp->input->path));
        gc_json_key(o, "read");
        out_bool(o, cp->read);
        if (!cp->read) {
            gc_json_key(o, "firstOffset");
            gc_json_i64_or_null(o, cp->first_offset);
            gc_json_key(o, "nextOffset");
            gc_json_i64_or_null(o, cp->next_offset);
            out_printf(o,
                       ",\"same\":%" PRIu64 ",\"differing\":%" PRIu64 ",\"onlyHere\":%" PRIu64
                       ",\"onlyInRead\":%" PRIu64 ",\"firstDifference\":",
                       cp->same, cp->differing, cp->only_here, cp->only_read);
            gc_json_i64_or_null(o, cp->first_difference);
        }
        out_ch(o, '}');
    }
    out_lit(o, "]}\n");
}

/* the group-net objects of group gi's selected partitions; --fail-on redelivered and skipped by them */
static void json_nets(gcli *c, size_t gi) {
    size_t first, n = gc_nets_of(c, gi, &first);
    for (size_t i = first; i < first + n; i++) {
        const ss_fnet *x = ss_findings_net_at(c->f, i);
        if (!gc_tp_selected(c, &x->tp)) continue;
        gn_json(c->o, x);
        if (gc_net_findings_selected(c, x) && gn_fails(x, c->fail_on)) c->failed = true;
    }
}

static void json_findings(gcli *c, size_t gi) {
    if (!c->f) return;
    if (!ss_findings_select(c->f, gi)) warnx_("groups: out of memory building the findings; some are not listed");
    size_t first, n = gc_findings_of(c, gi, &first);
    for (size_t i = first; i < first + n; i++) {
        const ss_finding *x = ss_findings_at(c->f, i);
        if (!gc_finding_selected(c, x)) continue;
        gf_json(c->o, x, ss_findings_now(c->f));
        if (gf_fails(x, c->fail_on & FAIL_REWIND)) c->failed = true;
    }
    json_nets(c, gi);
}

/* "s_p,s_p" as a JSON array of strings */
static void json_tasks(ss_out *o, const char *t) {
    out_ch(o, '[');
    while (t && *t) {
        const char *e = strchr(t, ',');
        size_t n = e ? (size_t)(e - t) : strlen(t);
        out_ch(o, '"');
        out_raw(o, t, n);
        out_ch(o, '"');
        if (!e) break;
        out_ch(o, ',');
        t = e + 1;
    }
    out_ch(o, ']');
}

static void json_member(gcli *c, const ss_gmember *m, int protocol) {
    bool consumer = gc_epochs(protocol);
    ss_out *o = c->o;
    out_lit(o, "{\"memberId\":");
    gc_json_bytes(o, m->member_id, m->member_id_len);
    gc_json_key(o, "groupInstanceId");
    gc_json_bytes(o, m->instance_id, m->instance_id_len);
    gc_json_key(o, "clientId");
    gc_json_bytes(o, m->client_id, m->client_id_len);
    gc_json_key(o, "clientHost");
    gc_json_bytes(o, m->client_host, m->client_host_len);
    gc_json_key(o, "sessionTimeoutMs");
    gc_json_i64_or_null(o, m->session_timeout_ms);
    gc_json_key(o, "rebalanceTimeoutMs");
    gc_json_i64_or_null(o, m->rebalance_timeout_ms);
    gc_json_key(o, "partitions");
    if (m->assignment_known) gc_json_parts(o, m->parts, m->nparts, c);
    else out_lit(o, "null");
    if (consumer) {
        gc_json_key(o, "memberEpoch");
        out_i64(o, m->member_epoch);
        gc_json_key(o, "state");
        const char *st = gc_state_name(protocol, m->state);
        if (st) out_json_cstr(o, st);
        else out_lit(o, "null");
        gc_json_key(o, "pendingRevocation");
        gc_json_parts(o, m->pending, m->npending, c);
    }
    if (protocol == SS_GPROTO_STREAMS) {
        gc_json_key(o, "processId");
        gc_json_bytes(o, m->process_id, m->process_id ? strlen(m->process_id) : 0);
        gc_json_key(o, "userEndpoint");
        gc_json_bytes(o, m->user_endpoint, m->user_endpoint ? strlen(m->user_endpoint) : 0);
        gc_json_key(o, "clientTags");
        gc_json_bytes(o, m->client_tags, m->client_tags ? strlen(m->client_tags) : 0);
        gc_json_key(o, "topologyEpoch");
        gc_json_i64_or_null(o, m->topology_epoch);
        gc_json_key(o, "activeTasks");
        json_tasks(o, m->active_tasks);
        gc_json_key(o, "standbyTasks");
        json_tasks(o, m->standby_tasks);
        gc_json_key(o, "warmupTasks");
        json_tasks(o, m->warmup_tasks);
        gc_json_key(o, "targetAssignment");
        if (!m->target_known) {
            out_lit(o, "null");
        } else {
            out_lit(o, "{\"activeTasks\":");
            json_tasks(o, m->target_active_tasks);
            gc_json_key(o, "standbyTasks");
            json_tasks(o, m->target_standby_tasks);
            gc_json_key(o, "warmupTasks");
            json_tasks(o, m->target_warmup_tasks);
            out_ch(o, '}');
        }
    }
    out_ch(o, '}');
}

static void json_group_head(ss_out *o, const char *type, const ss_group *g) {
    out_lit(o, "{\"type\":\"");
    out_str(o, type);
    out_lit(o, "\",\"group\":");
    gc_json_bytes(o, g->id, g->id_len);
}

static void json_generation(gcli *c, const ss_group *g, const ss_ggeneration *x) {
    ss_out *o = c->o;
    char nm[48];
    json_group_head(o, "generation", g);
    gc_json_key(o, "protocol");
    out_json_cstr(o, ss_gprotocol_name(x->protocol));
    gc_json_key(o, gc_epochs(x->protocol) ? "epoch" : "generation");
    if (gc_epochs(x->protocol) && x->generation < 0) out_lit(o, "null");
    else out_i64(o, x->generation);
    gc_json_key(o, "time");
    out_i64(o, x->time);
    gc_json_key(o, "untilTime");
    gc_json_i64_or_null(o, x->until_time);
    gc_json_key(o, "coordinatorPartition");
    out_json_cstr(o, gc_log_name(nm, sizeof nm, g->coordinator_partition));
    gc_json_key(o, "recordOffset");
    out_i64(o, x->offset);
    if (x->protocol == SS_GPROTO_CLASSIC) {
        gc_json_key(o, "protocolType");
        gc_json_bytes(o, x->protocol_type, x->protocol_type ? strlen(x->protocol_type) : 0);
        gc_json_key(o, "assignor");
        gc_json_bytes(o, x->protocol_name, x->protocol_name ? strlen(x->protocol_name) : 0);
    }
    gc_json_key(o, "leader");
    gc_json_bytes(o, x->leader, x->leader ? strlen(x->leader) : 0);
    gc_json_key(o, "members");
    out_ch(o, '[');
    for (size_t m = 0; m < x->nmembers; m++) {
        if (m) out_ch(o, ',');
        json_member(c, &x->members[m], x->protocol);
    }
    out_ch(o, ']');
    if (gc_epochs(x->protocol)) {
        gc_json_key(o, "assignments");
        out_ch(o, '[');
        bool first = true;
        for (size_t a = 0; a < x->nassign; a++) {
            const ss_gassign *s = &x->assignments[a];
            if (!gc_in_time(c, s->time)) continue;
            if (!first) out_ch(o, ',');
            first = false;
            out_printf(o, "{\"time\":%" PRId64 ",\"recordOffset\":%" PRId64 ",\"memberId\":", s->time, s->offset);
            gc_json_bytes(o, s->member_id, s->member_id_len);
            gc_json_key(o, "left");
            out_bool(o, s->left);
            gc_json_key(o, "memberEpoch");
            out_i64(o, s->member_epoch);
            gc_json_key(o, "previousMemberEpoch");
            out_i64(o, s->previous_member_epoch);
            gc_json_key(o, "state");
            const char *st = gc_state_name(x->protocol, s->state);
            if (st && !s->left) out_json_cstr(o, st);
            else out_lit(o, "null");
            gc_json_key(o, "partitions");
            gc_json_parts(o, s->parts, s->nparts, c);
            gc_json_key(o, "pendingRevocation");
            gc_json_parts(o, s->pending, s->npending, c);
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
    gc_json_key(o, "kind");
    out_json_cstr(o, ss_gevent_kind_name(e->kind));
    gc_json_key(o, "time");
    out_i64(o, e->time);
    gc_json_key(o, "coordinatorPartition");
    out_json_cstr(o, gc_log_name(nm, sizeof nm, g->coordinator_partition));
    gc_json_key(o, "recordOffset");
    out_i64(o, e->offset);
    if (e->kind == SS_GEV_OFFSETS_DELETED) {
        gc_json_key(o, "topic");
        gc_json_bytes(o, e->tp.topic, e->tp.topic_len);
        gc_json_key(o, "partition");
        out_i64(o, e->tp.partition);
        gc_json_key(o, "lastCommittedOffset");
        gc_json_i64_or_null(o, e->last_offset);
        gc_json_key(o, "pendingRemoved");
        out_u64(o, e->pending_removed);
    }
    if (e->kind == SS_GEV_PROTOCOL_CHANGE) {
        gc_json_key(o, "from");
        out_json_cstr(o, ss_gprotocol_name(e->from_protocol));
    }
    if (e->kind == SS_GEV_PROTOCOL_CHANGE || e->kind == SS_GEV_CREATED) {
        gc_json_key(o, "to");
        out_json_cstr(o, ss_gprotocol_name(e->to_protocol));
    }
    out_lit(o, "}\n");
}

static void json_owner(ss_out *o, const ss_gowner *w) {
    out_lit(o, "{\"memberId\":");
    gc_json_bytes(o, w->member_id, w->member_id_len);
    gc_json_key(o, "groupInstanceId");
    gc_json_bytes(o, w->instance_id, w->instance_id_len);
    out_printf(o, ",\"from\":%" PRId64 ",\"fromRecordOffset\":%" PRId64 ",\"to\":", w->from_time, w->from_offset);
    gc_json_i64_or_null(o, w->to_time);
    gc_json_key(o, "toRecordOffset");
    gc_json_i64_or_null(o, w->to_offset);
    out_printf(o, ",\"generationFrom\":%" PRId32 ",\"generationTo\":%" PRId32, w->generation_from, w->generation_to);
    gc_json_key(o, "resumedFrom");
    gc_json_i64_or_null(o, w->start_committed);
    gc_json_key(o, "commits");
    out_u64(o, w->commits);
    gc_json_key(o, "lastCommit");
    if (w->last_commit_time < 0) out_lit(o, "null");
    else out_printf(o, "{\"time\":%" PRId64 ",\"offset\":%" PRId64 "}", w->last_commit_time, w->last_commit_offset);
    gc_json_key(o, "commitIntervalMs");
    gc_json_i64_or_null(o, w->commit_interval_ms);
    out_ch(o, '}');
}

static void json_strings(ss_out *o, const char *const *v, size_t n) {
    out_ch(o, '[');
    for (size_t i = 0; i < n; i++) {
        if (i) out_ch(o, ',');
        gc_json_bytes(o, v[i], strlen(v[i]));
    }
    out_ch(o, ']');
}

/* a streams group's topology: null when no topology record stands */
static void json_topology(ss_out *o, const ss_group *g) {
    if (!g->nsubtopologies) {
        out_lit(o, "null");
        return;
    }
    out_lit(o, "{\"epoch\":");
    out_i64(o, g->topology_epoch);
    gc_json_key(o, "subtopologies");
    out_ch(o, '[');
    for (size_t i = 0; i < g->nsubtopologies; i++) {
        const ss_gsubtopology *s = &g->subtopologies[i];
        if (i) out_ch(o, ',');
        out_lit(o, "{\"subtopologyId\":");
        gc_json_bytes(o, s->id, s->id ? strlen(s->id) : 0);
        gc_json_key(o, "sourceTopics");
        json_strings(o, s->source_topics, s->nsource);
        gc_json_key(o, "repartitionSourceTopics");
        json_strings(o, s->repartition_source_topics, s->nrepartition);
        gc_json_key(o, "sourceTopicRegex");
        json_strings(o, s->source_topic_regex, s->nregex);
        gc_json_key(o, "sourceTopicRegexMatched");
        json_strings(o, s->regex_matched, s->nmatched);
        gc_json_key(o, "sourceTopicRegexUnresolved");
        json_strings(o, s->unresolved_regex, s->nunresolved);
        out_ch(o, '}');
    }
    out_lit(o, "]}");
}

static void json_group(gcli *c, const ss_group *g) {
    ss_out *o = c->o;
    const ss_glog *l = ss_groups_log_at(c->g, g->log);
    char nm[48];
    json_group_head(o, "consumer-group", g);
    gc_json_key(o, "coordinatorPartition");
    out_json_cstr(o, gc_log_name(nm, sizeof nm, g->coordinator_partition));
    gc_json_key(o, "expectedCoordinatorPartition");
    out_i64(o, g->expected_partition);
    gc_json_key(o, "partitionCount");
    out_i64(o, c->go.partitions);
    gc_json_key(o, "protocolType");
    gc_json_bytes(o, g->protocol_type, g->protocol_type ? strlen(g->protocol_type) : 0);
    gc_json_key(o, "protocol");
    if (g->protocol == SS_GPROTO_NONE) out_lit(o, "null");
    else out_json_cstr(o, ss_gprotocol_name(g->protocol));
    gc_json_key(o, "assignor");
    gc_json_bytes(o, g->assignor, g->assignor ? strlen(g->assignor) : 0);
    gc_json_key(o, "deleted");
    out_bool(o, g->deleted);
    gc_json_key(o, "generations");
    out_u64(o, g->ngenerations);
    gc_json_key(o, "members");
    out_u64(o, g->nmembers_distinct);
    gc_json_key(o, "commits");
    out_u64(o, g->commits);
    gc_json_key(o, "transactionalCommits");
    out_u64(o, g->txn_commits);
    gc_json_key(o, "undecodedRecords");
    out_u64(o, g->undecoded_records);
    if (g->protocol == SS_GPROTO_STREAMS) {
        gc_json_key(o, "topology");
        json_topology(o, g);
    }
    gc_json_key(o, "committed");
    out_ch(o, '{');
    bool first = true;
    for (size_t i = 0; i < g->npartitions; i++) {
        const ss_gpartition *p = &g->partitions[i];
        if (!p->committed || !gc_tp_selected(c, &p->tp)) continue;
        if (!first) out_ch(o, ',');
        first = false;
        gc_json_tp(o, &p->tp);
        out_ch(o, ':');
        out_i64(o, p->offset);
    }
    out_ch(o, '}');
    gc_json_key(o, "historyCompleteFrom");
    out_lit(o, "{");
    out_json_cstr(o, nm);
    out_printf(o, ":{\"offset\":%" PRId64 ",\"time\":", l->complete_from);
    gc_json_i64_or_null(o, l->complete_from_time);
    out_lit(o, "}}");
    gc_json_key(o, "historyPartial");
    out_bool(o, g->first_offset < l->complete_from);
    gc_json_key(o, "partitions");
    out_ch(o, '[');
    first = true;
    for (size_t i = 0; i < g->npartitions; i++) {
        const ss_gpartition *p = &g->partitions[i];
        if (!gc_tp_selected(c, &p->tp)) continue;
        if (!first) out_ch(o, ',');
        first = false;
        out_lit(o, "{\"topic\":");
        gc_json_bytes(o, p->tp.topic, p->tp.topic_len);
        gc_json_key(o, "topicId");
        gc_json_bytes(o, p->tp.topic_id, p->tp.topic_id ? strlen(p->tp.topic_id) : 0);
        gc_json_key(o, "topicNamedBy");
        if (p->tp.topic_id) out_json_cstr(o, ss_gnamed_name(p->tp.named_by));
        else out_lit(o, "null");
        gc_json_key(o, "partition");
        out_i64(o, p->tp.partition);
        gc_json_key(o, "committed");
        gc_json_i64_or_null(o, p->offset);
        gc_json_key(o, "commitTime");
        gc_json_i64_or_null(o, p->commit_time);
        gc_json_key(o, "leaderEpoch");
        if (p->committed && p->leader_epoch >= 0) out_i64(o, p->leader_epoch);
        else out_lit(o, "null");
        gc_json_key(o, "metadata");
        gc_json_bytes(o, p->metadata, p->metadata_len);
        gc_json_key(o, "transactional");
        out_bool(o, p->transactional);
        out_printf(o,
                   ",\"commits\":%" PRIu64 ",\"transactionalCommits\":%" PRIu64 ",\"transactionsCommitted\":%" PRIu64
                   ",\"transactionsAborted\":%" PRIu64 ",\"transactionsOpen\":%" PRIu64 ",\"deletions\":%" PRIu64,
                   p->commits, p->txn_commits, p->txn_committed, p->txn_aborted, p->txn_open, p->deletions);
        gc_json_key(o, "owners");
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
    gc_json_key(o, "topic");
    gc_json_bytes(o, k->tp.topic, k->tp.topic_len);
    gc_json_key(o, "partition");
    out_i64(o, k->tp.partition);
    gc_json_key(o, "time");
    out_i64(o, k->time);
    gc_json_key(o, "offset");
    out_i64(o, k->offset);
    gc_json_key(o, "leaderEpoch");
    if (k->leader_epoch >= 0) out_i64(o, k->leader_epoch);
    else out_lit(o, "null");
    gc_json_key(o, "metadata");
    gc_json_bytes(o, k->metadata, k->metadata_len);
    gc_json_key(o, "transactional");
    out_bool(o, k->transactional);
    gc_json_key(o, "producerId");
    if (k->transactional) out_i64(o, k->producer_id);
    else out_lit(o, "null");
    gc_json_key(o, "producerEpoch");
    if (k->transactional) out_i64(o, k->producer_epoch);
    else out_lit(o, "null");
    gc_json_key(o, "transactionalId");
    gc_json_bytes(o, k->transactional_id, k->transactional_id ? strlen(k->transactional_id) : 0);
    gc_json_key(o, "outcome");
    out_json_cstr(o, ss_goutcome_name(k->outcome));
    gc_json_key(o, "effective");
    out_bool(o, k->effective);
    gc_json_key(o, "effectiveTime");
    gc_json_i64_or_null(o, k->effective_time);
    gc_json_key(o, "attributedTo");
    if (k->attributed_to) {
        out_lit(o, "{\"memberId\":");
        gc_json_bytes(o, k->attributed_to, strlen(k->attributed_to));
        gc_json_key(o, "groupInstanceId");
        gc_json_bytes(o, k->attributed_instance, k->attributed_instance ? strlen(k->attributed_instance) : 0);
        gc_json_key(o, "generation");
        if (k->attributed_generation >= 0) out_i64(o, k->attributed_generation);
        else out_lit(o, "null");
        out_lit(o, ",\"attribution\":true}");
    } else {
        out_lit(o, "null");
    }
    gc_json_key(o, "coordinatorPartition");
    out_json_cstr(o, gc_log_name(nm, sizeof nm, g->coordinator_partition));
    gc_json_key(o, "recordOffset");
    out_i64(o, k->record_offset);
    if (k->expire_time >= 0) {
        gc_json_key(o, "expireTimestamp");
        out_i64(o, k->expire_time);
    }
    out_lit(o, "}\n");
}

int gc_json_group_all(gcli *c, size_t gi) {
    const ss_group *g = ss_groups_at(c->g, gi);
    json_group(c, g);
    size_t ei = 0;
    for (size_t k = 0; k <= g->ngenerations; k++) {
        int64_t until = k < g->ngenerations ? g->generations[k].offset : INT64_MAX;
        for (; ei < g->nevents && g->events[ei].offset <= until; ei++) {
            const ss_gevent *e = &g->events[ei];
            if (!gc_timeline_event(e) || !gc_in_time(c, e->time)) continue;
            if (e->kind == SS_GEV_OFFSETS_DELETED && !gc_tp_selected(c, &e->tp)) continue;
            json_event(c, g, e);
        }
        if (k == g->ngenerations) break;
        const ss_ggeneration *x = &g->generations[k];
        bool shown = gc_in_time(c, x->time) ||
                     (x->time <= c->go.until_ms && (x->until_time < 0 || x->until_time >= c->go.since_ms));
        if (shown) json_generation(c, g, x);
    }
    json_findings(c, gi);
    gl_json(c, gi);
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
