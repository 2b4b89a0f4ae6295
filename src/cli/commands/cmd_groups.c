/* segscan groups PATH... - each consumer group's history from __consumer_offsets:
 * its coordinator partition, protocol and assignor, generations (classic) or
 * group epochs (KIP-848) with members and the partitions they owned, commits
 * and the committed offset at the end, deletions, offset deletions and
 * protocol conversions, and from where each partition's history is complete.
 * The library (include/segscan/groups.h) builds the history; this file prints
 * it as a timeline (text) or as JSON Lines.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands/commands.h"
#include "common/common.h"
#include "common/out.h"
#include "groups/gfindings.h"
#include "groups/glag.h"
#include "groups/groups_cli.h"
#include "html/html.h"
#include "segscan/base.h"
#include "segscan/groups.h"
#include "views/scan.h"

static const char groups_usage[] = "usage: segscan groups [options] PATH...\n"
                                   "\n"
                                   "Each consumer group's history from __consumer_offsets: coordinator partition,\n"
                                   "protocol and assignor, generations or group epochs with their members and the\n"
                                   "partitions each owned, commits (plain and transactional, with their outcome),\n"
                                   "the committed offset at the end (Kafka's rule), offset deletions, group\n"
                                   "deletions and protocol conversions; then its findings: which records it received\n"
                                   "twice or never, when and why (handover, rewind, reset, offsets-deleted,\n"
                                   "out-of-range, aborted-commit, open-commit, fencing, empty-group: no members\n"
                                   "between two owners, not a handover), counted in the data partitions beside\n"
                                   "__consumer_offsets when they are read. And each partition's lag (log end,\n"
                                   "lag in records and in time, at the last commit and at --now) with its status\n"
                                   "by Burrow's rules (OK, WARN, STOP, STALL, REWIND; unknown without the data\n"
                                   "partition), and the group's (its worst partition, ERR at most).\n"
                                   "\n"
                                   "  --group ID               this group only (repeatable; default every group)\n"
                                   "  --topic T                partitions of this data topic only\n"
                                   "  --partition P            this data partition number only (--group, --topic,\n"
                                   "                           --partition matching nothing: exit 2, with the\n"
                                   "                           nearest names)\n"
                                   "  --since TIME, --until TIME  list what happened in this time window only\n"
                                   "                           (ISO-8601 or epoch ms); the history is read whole\n"
                                   "  --from-offset N, --to-offset N   list commits of data offsets in this\n"
                                   "                           window only\n"
                                   "  --commits                list every commit (spilled to $TMPDIR past\n"
                                   "                           --max-memory)\n"
                                   "  --fail-on redelivered,skipped,rewind  exit 1 when a partition's net answer\n"
                                   "                           shows records delivered again (certainly or\n"
                                   "                           possibly), records possibly never received, or a\n"
                                   "                           finding is a rewind or reset of a committed offset\n"
                                   "                           (or a restart below a deleted one)\n"
                                   "  --txn-timeout DURATION   an open transactional commit older than this may hang\n"
                                   "                           (default 15m)\n"
                                   "  --now TIME               'now' for --txn-timeout and the lag (default: the\n"
                                   "                           newest timestamp read, never the wall clock)\n"
                                   "  --partitions N           partitions of __consumer_offsets, for the coordinator\n"
                                   "                           check (offsets.topic.num.partitions; default 50)\n"
                                   "  --json                   JSON Lines: offsets-partition, data-partition,\n"
                                   "                           consumer-group, generation, group-event,\n"
                                   "                           group-finding, group-net, group-lag, group-status\n"
                                   "                           and commit objects\n"
                                   "  --html FILE              also write one self-contained HTML page: each data\n"
                                   "                           partition's offsets over time with the groups'\n"
                                   "                           committed offsets, owners and findings, and the\n"
                                   "                           tables ('-': standard output, instead of the text)\n"
                                   "  --local-time             text times in the local time of TZ with its UTC\n"
                                   "                           offset\n"
                                   "  --threads N              reading threads, 1..256 (default: one per online CPU)\n"
                                   "  --max-memory SIZE        memory for the run: the history and the listed\n"
                                   "                           commits take it, less a reserve for the program and\n"
                                   "                           its threads; past it the commits go to temporary\n"
                                   "                           files (K, M, G suffixes; default half of the RAM; 0:\n"
                                   "                           no limit)\n"
                                   "  --include-temp           read broker temporaries (.deleted/.cleaned/.swap,\n"
                                   "                           -delete/-stray/-future)\n"
                                   "  -q, --quiet              no notes on stderr\n"
                                   "  -h, --help               this help\n"
                                   "\n"
                                   "A PATH is a log directory (its __consumer_offsets-N partitions and the data\n"
                                   "partitions beside them), a __consumer_offsets-N directory or a segment inside\n"
                                   "one, or an export of 'segscan export' holding them.\n"
                                   "exit codes: 0 done, 1 --fail-on matched, 2 usage, unreadable input or no\n"
                                   "            __consumer_offsets, 3 damaged input met\n";

enum {
    G_GROUP = 400,
    G_TOPIC,
    G_PARTITION,
    G_SINCE,
    G_UNTIL,
    G_FROM,
    G_TO,
    G_COMMITS,
    G_PARTS,
    G_JSON,
    G_LOCAL,
    G_THREADS,
    G_MAXMEM,
    G_TEMP,
    G_FAILON,
    G_TXNTIMEOUT,
    G_NOW,
    G_HTML,
};

static const struct option groups_longopts[] = {
    {"group", required_argument, NULL, G_GROUP},
    {"topic", required_argument, NULL, G_TOPIC},
    {"partition", required_argument, NULL, G_PARTITION},
    {"since", required_argument, NULL, G_SINCE},
    {"until", required_argument, NULL, G_UNTIL},
    {"from-offset", required_argument, NULL, G_FROM},
    {"to-offset", required_argument, NULL, G_TO},
    {"commits", no_argument, NULL, G_COMMITS},
    {"partitions", required_argument, NULL, G_PARTS},
    {"json", no_argument, NULL, G_JSON},
    {"local-time", no_argument, NULL, G_LOCAL},
    {"threads", required_argument, NULL, G_THREADS},
    {"max-memory", required_argument, NULL, G_MAXMEM},
    {"include-temp", no_argument, NULL, G_TEMP},
    {"fail-on", required_argument, NULL, G_FAILON},
    {"txn-timeout", required_argument, NULL, G_TXNTIMEOUT},
    {"now", required_argument, NULL, G_NOW},
    {"html", required_argument, NULL, G_HTML},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};


/* ---- __consumer_offsets partitions --------------------------------------------------------- */

static void text_log(gcli *c, const ss_glog *l) {
    ss_out *o = c->o;
    char nm[48], t[64];
    gc_log_name(nm, sizeof nm, l->partition);
    out_printf(o, "%s  %" PRIu64 " %s", nm, l->records, plural(l->records, "record", "records"));
    if (l->control_records)
        out_printf(o, ", %" PRIu64 " transaction %s", l->control_records,
                   plural(l->control_records, "marker", "markers"));
    if (l->first_offset >= 0) out_printf(o, ", offsets %" PRId64 "..%" PRId64, l->first_offset, l->next_offset - 1);
    gc_tstr(t, sizeof t, l->complete_from_time);
    out_printf(o, "; history complete from offset %" PRId64 " (%s)", l->complete_from, t);
    out_ch(o, '\n');
    if (l->unknown_records) {
        /* by type, not one line each: a newer Kafka's records are many */
        out_printf(o, "  %" PRIu64 " %s of record types segscan does not know:", l->unknown_records,
                   plural(l->unknown_records, "record", "records"));
        for (uint32_t i = 0; i < l->n_unknown_types; i++)
            out_printf(o, "%s type %d (%" PRIu64 ")", i ? "," : "", (int)l->unknown_types[i].type,
                       l->unknown_types[i].count);
        if (l->unknown_other_types) out_printf(o, ", %" PRIu64 " of other types", l->unknown_other_types);
        out_ch(o, '\n');
    }
    if (l->compacted || l->first_offset > 0 || l->cleaner_checkpoint >= 0) {
        out_lit(o, "  ");
        if (l->first_offset > 0) out_printf(o, "no offset below %" PRId64 " is on disk; ", l->first_offset);
        if (l->missing_offsets)
            out_printf(o,
                       "compacted: %" PRIu64 " %s missing below %" PRId64
                       " (the cleaner keeps only the last record of each key there)",
                       l->missing_offsets, plural(l->missing_offsets, "offset", "offsets"), l->complete_from);
        else if (l->compacted) out_lit(o, "batches rewritten by the cleaner (delete horizon set), no offset missing");
        else out_lit(o, "no offset missing");
        if (l->cleaner_checkpoint >= 0) out_printf(o, "; cleaner-offset-checkpoint %" PRId64, l->cleaner_checkpoint);
        out_ch(o, '\n');
    }
    if (l->ncopies > 1) {
        out_printf(o, "  %zu copies (replicas): read %s\n", l->ncopies, l->input->name);
        for (size_t i = 0; i < l->ncopies; i++) {
            const ss_glog_copy *cp = &l->copies[i];
            if (cp->read) continue;
            out_printf(o, "    %s: offsets ", cp->input->name);
            if (cp->first_offset >= 0) out_printf(o, "%" PRId64 "..%" PRId64, cp->first_offset, cp->next_offset - 1);
            else out_lit(o, "none");
            if (cp->first_difference < 0) {
                out_printf(o, ", the same records at the %" PRIu64 " %s both hold", cp->same,
                           plural(cp->same, "offset", "offsets"));
            } else {
                out_printf(o,
                           ", diverges from offset %" PRId64 ": %" PRIu64 " %s differ, %" PRIu64 " only here, %" PRIu64
                           " only in the copy read",
                           cp->first_difference, cp->differing, plural(cp->differing, "offset", "offsets"),
                           cp->only_here, cp->only_read);
            }
            if (cp->next_offset != l->next_offset && cp->first_offset >= 0)
                out_printf(o, "; ends at %" PRId64 " (the copy read at %" PRId64 ")", cp->next_offset, l->next_offset);
            out_ch(o, '\n');
        }
    }
}

/* ---- a group --------------------------------------------------------------------------------- */

static void text_member(gcli *c, const ss_gmember *m, int protocol) {
    bool consumer = gc_epochs(protocol);
    ss_out *o = c->o;
    out_lit(o, "      ");
    gc_text_bytes(o, m->member_id, m->member_id_len);
    if (m->instance_id) {
        out_lit(o, "  instance ");
        gc_text_bytes(o, m->instance_id, m->instance_id_len);
    }
    if (m->client_id) {
        out_lit(o, "  client ");
        gc_text_bytes(o, m->client_id, m->client_id_len);
    }
    if (m->client_host) {
        out_ch(o, ' ');
        gc_text_bytes(o, m->client_host, m->client_host_len);
    }
    if (m->session_timeout_ms >= 0) out_printf(o, "  session %" PRId32 " ms", m->session_timeout_ms);
    if (m->rebalance_timeout_ms >= 0) out_printf(o, "  rebalance %" PRId32 " ms", m->rebalance_timeout_ms);
    if (consumer) {
        out_printf(o, "  epoch %" PRId32, m->member_epoch);
        const char *st = gc_state_name(protocol, m->state);
        if (st) out_printf(o, " %s", st);
    }
    if (protocol == SS_GPROTO_STREAMS) {
        if (m->process_id) out_printf(o, "  process %s", m->process_id);
        if (m->user_endpoint) out_printf(o, "  endpoint %s", m->user_endpoint);
        if (m->client_tags) out_printf(o, "  tags %s", m->client_tags);
        if (m->topology_epoch >= 0) out_printf(o, "  topology epoch %" PRId32, m->topology_epoch);
        out_printf(o, "  tasks active %s, standby %s, warm-up %s", m->active_tasks ? m->active_tasks : "-",
                   m->standby_tasks ? m->standby_tasks : "-", m->warmup_tasks ? m->warmup_tasks : "-");
        if (m->target_known)
            out_printf(o, "  target active %s, standby %s, warm-up %s",
                       m->target_active_tasks ? m->target_active_tasks : "-",
                       m->target_standby_tasks ? m->target_standby_tasks : "-",
                       m->target_warmup_tasks ? m->target_warmup_tasks : "-");
    }
    out_lit(o, " -> ");
    if (!m->assignment_known)
        out_str(o, m->assignment_pending ? "(no assignment yet: it had not joined)" : "(assignment not decoded)");
    else gc_text_parts(o, m->parts, m->nparts, c);
    if (m->npending) {
        out_lit(o, "; revoking ");
        gc_text_parts(o, m->pending, m->npending, c);
    }
    out_ch(o, '\n');
}

static void text_generation(gcli *c, const ss_ggeneration *x) {
    ss_out *o = c->o;
    char t[64];
    gc_tstr(t, sizeof t, x->time);
    bool consumer = gc_epochs(x->protocol);
    if (consumer) {
        if (x->generation < 0) out_printf(o, "  epoch ?  %s  (no group epoch record read before)", t);
        else out_printf(o, "  epoch %" PRId32 "  %s", x->generation, t);
    } else {
        out_printf(o, "  gen %" PRId32 "  %s", x->generation, t);
    }
    if (x->leader) {
        out_lit(o, "  leader ");
        gc_text_bytes(o, x->leader, strlen(x->leader));
    }
    if (x->protocol_name) {
        out_lit(o, "  (");
        gc_text_bytes(o, x->protocol_name, strlen(x->protocol_name));
        out_ch(o, ')');
    }
    if (!x->nmembers) {
        out_lit(o, "  no members");
        if (!consumer && x->protocol_type && !x->protocol_type[0]) out_lit(o, " (a new group)");
    } else if (consumer) {
        out_printf(o, "  members at the end of the epoch:");
    }
    out_ch(o, '\n');
    for (size_t m = 0; m < x->nmembers; m++) text_member(c, &x->members[m], x->protocol);
    for (size_t a = 0; a < x->nassign; a++) {
        const ss_gassign *s = &x->assignments[a];
        if (!gc_in_time(c, s->time)) continue;
        gc_tstr(t, sizeof t, s->time);
        out_printf(o, "    %s  ", t);
        gc_text_bytes(o, s->member_id, s->member_id_len);
        if (s->left) {
            out_lit(o, "  left (its assignment removed)\n");
            continue;
        }
        out_printf(o, "  member epoch %" PRId32 " (previous %" PRId32 ")", s->member_epoch, s->previous_member_epoch);
        const char *st = gc_state_name(x->protocol, s->state);
        if (st) out_printf(o, " %s", st);
        out_lit(o, " -> ");
        gc_text_parts(o, s->parts, s->nparts, c);
        if (s->npending) {
            out_lit(o, "; revoking ");
            gc_text_parts(o, s->pending, s->npending, c);
        }
        out_ch(o, '\n');
    }
}

static void text_event(gcli *c, const ss_gevent *e) {
    ss_out *o = c->o;
    char t[64];
    gc_tstr(t, sizeof t, e->time);
    out_printf(o, "  %s  ", t);
    switch (e->kind) {
    case SS_GEV_OFFSETS_DELETED:
        out_lit(o, "offsets deleted: ");
        gc_text_tp(o, &e->tp);
        if (e->last_offset >= 0) out_printf(o, " (committed %" PRId64 " before)", e->last_offset);
        else out_lit(o, " (no committed offset before)");
        if (e->pending_removed)
            out_printf(o, ", %" PRIu64 " pending transactional %s removed", e->pending_removed,
                       plural(e->pending_removed, "offset", "offsets"));
        out_lit(o, "; the reason is not in the log (expiry, admin deletion and topic deletion look alike)");
        break;
    case SS_GEV_DELETED:
        out_lit(o, "group deleted (group tombstone; its offsets go only by their own tombstones)");
        break;
    case SS_GEV_PROTOCOL_CHANGE:
        out_printf(o, "protocol conversion %s -> %s (offsets kept)", ss_gprotocol_name(e->from_protocol),
                   ss_gprotocol_name(e->to_protocol));
        break;
    case SS_GEV_CREATED: out_printf(o, "group created again (%s)", ss_gprotocol_name(e->to_protocol)); break;
    default: break;
    }
    out_printf(o, "  [record %" PRId64 "]\n", e->offset);
}

static void text_owner(ss_out *o, const ss_gowner *w, bool consumer) {
    gc_text_bytes(o, w->member_id, w->member_id_len);
    if (w->instance_id) {
        out_lit(o, " [instance ");
        gc_text_bytes(o, w->instance_id, w->instance_id_len);
        out_ch(o, ']');
    }
    out_printf(o, " (%s %" PRId32, consumer ? "epoch" : "gen", w->generation_from);
    if (w->to_offset < 0) out_lit(o, "-");
    else if (w->generation_to != w->generation_from) out_printf(o, "-%" PRId32, w->generation_to);
    out_ch(o, ')');
}

static const char *named_by_text(int by) {
    switch (by) {
    case SS_GNAMED_GROUP_METADATA: return "the group's partition metadata record";
    case SS_GNAMED_OFFSET_COMMIT: return "an offset commit";
    case SS_GNAMED_PARTITION_METADATA: return "partition.metadata";
    case SS_GNAMED_CLUSTER_METADATA: return "__cluster_metadata";
    default: return "the records";
    }
}

static void text_partition(gcli *c, const ss_group *g, const ss_gpartition *p) {
    ss_out *o = c->o;
    char t[64];
    out_lit(o, "  ");
    gc_text_tp(o, &p->tp);
    /* a topic named by id only in the assignments: what mapped the id to the name */
    if (p->tp.topic_id && !p->tp.topic) out_lit(o, " (nothing read names this topic id)");
    else if (p->tp.topic_id && p->tp.named_by != SS_GNAMED_RECORD)
        out_printf(o, " (topic id %s named by %s)", p->tp.topic_id, named_by_text(p->tp.named_by));
    if (p->committed) {
        gc_tstr(t, sizeof t, p->commit_time);
        out_printf(o, "  committed %" PRId64 " at %s", p->offset, t);
        if (p->leader_epoch >= 0) out_printf(o, " (leader epoch %" PRId32 ")", p->leader_epoch);
        if (p->transactional) out_lit(o, " by a transaction");
    } else {
        out_lit(o, "  no committed offset");
    }
    out_printf(o, "; %" PRIu64 " %s", p->commits, plural(p->commits, "commit", "commits"));
    if (p->txn_commits)
        out_printf(o, " (%" PRIu64 " transactional: %" PRIu64 " committed, %" PRIu64 " aborted, %" PRIu64 " open)",
                   p->txn_commits, p->txn_committed, p->txn_aborted, p->txn_open);
    if (p->deletions) out_printf(o, ", deleted %" PRIu64 " %s", p->deletions, plural(p->deletions, "time", "times"));
    bool consumer = gc_epochs(g->protocol);
    if (p->nowners) {
        out_lit(o, "; owners ");
        for (size_t i = 0; i < p->nowners; i++) {
            if (i) out_lit(o, ", ");
            text_owner(o, &p->owners[i], consumer);
        }
    } else if (g->protocol == SS_GPROTO_NONE && !g->undecoded_records) {
        out_lit(o, "; no owner (the group has no members)");
    }
    out_ch(o, '\n');
}

static void text_commit(gcli *c, const ss_gcommit *k) {
    ss_out *o = c->o;
    char t[64];
    gc_tstr(t, sizeof t, k->time);
    out_printf(o, "    %s  offset %" PRId64, t, k->offset);
    if (k->leader_epoch >= 0) out_printf(o, "  leader epoch %" PRId32, k->leader_epoch);
    if (k->metadata && k->metadata_len) {
        out_lit(o, "  metadata \"");
        out_text_escaped(o, (const uint8_t *)k->metadata, k->metadata_len, true);
        out_ch(o, '"');
    }
    if (k->transactional) {
        out_printf(o, "  transactional pid %" PRId64 " epoch %d", k->producer_id, k->producer_epoch);
        if (k->transactional_id) {
            out_lit(o, " (");
            gc_text_bytes(o, k->transactional_id, strlen(k->transactional_id));
            out_ch(o, ')');
        }
        out_printf(o, " %s", ss_goutcome_name(k->outcome));
    }
    if (k->effective) {
        if (k->transactional) {
            gc_tstr(t, sizeof t, k->effective_time);
            out_printf(o, ", committed offset from %s", t);
        }
    } else {
        out_lit(o, ", never the committed offset");
    }
    out_printf(o, "  [record %" PRId64 "]", k->record_offset);
    if (k->attributed_to) {
        out_lit(o, "  attributed to ");
        gc_text_bytes(o, k->attributed_to, strlen(k->attributed_to));
        if (k->attributed_generation >= 0)
            out_printf(o, " (owner then, generation %" PRId32 ")", k->attributed_generation);
        else out_lit(o, " (owner then)");
    }
    out_ch(o, '\n');
}

/* ---- findings -------------------------------------------------------------------------------- */

/* one line per data partition whose findings were listed: their net answer (--fail-on redelivered and skipped
 * by it) */
static void text_nets(gcli *c, size_t gi) {
    size_t first, n = gc_nets_of(c, gi, &first), shown = 0;
    for (size_t i = first; i < first + n; i++) {
        const ss_fnet *x = ss_findings_net_at(c->f, i);
        if (!gc_tp_selected(c, &x->tp) || !gc_net_findings_selected(c, x)) continue;
        if (!shown++) out_lit(c->o, "  net, per partition (its findings' ranges merged):\n");
        gn_text(c->o, x, "    ");
        if (gn_fails(x, c->fail_on)) c->failed = true;
    }
}

/* findings by time (then record, kind, partition: the library's order within a time) */
static int cmp_finding_time(const void *a, const void *b) {
    const ss_finding *x = *(const ss_finding *const *)a, *y = *(const ss_finding *const *)b;
    if (x->time != y->time) return x->time < y->time ? -1 : 1;
    if (x->record_offset != y->record_offset) return x->record_offset < y->record_offset ? -1 : 1;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* the group's findings listed, in time order; the handovers one record of a rebalance made, as one block */
static void text_findings(gcli *c, size_t gi) {
    if (!c->f) return;
    if (!ss_findings_select(c->f, gi)) warnx_("groups: out of memory building the findings; some are not listed");
    size_t first, n = gc_findings_of(c, gi, &first), shown = 0;
    const ss_finding **v = malloc((n ? n : 1) * sizeof *v);
    if (!v) {
        warnx_("groups: out of memory listing the findings");
        return;
    }
    for (size_t i = first; i < first + n; i++) {
        const ss_finding *x = ss_findings_at(c->f, i);
        if (!gc_finding_selected(c, x)) continue;
        v[shown++] = x;
        if (gf_fails(x, c->fail_on & FAIL_REWIND)) c->failed = true;
    }
    qsort(v, shown, sizeof *v, cmp_finding_time);
    if (shown) out_lit(c->o, "  findings:\n");
    for (size_t i = 0, k; i < shown; i += k) {
        k = gb_run(v + i, shown - i);
        if (k > 1) gb_text(c->o, v + i, k, "    ");
        else gf_text(c->o, v[i], "    ");
    }
    free(v);
    text_nets(c, gi);
}

static bool parse_fail_on(const char *s, unsigned *v) {
    *v = 0;
    while (*s) {
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n == 11 && !strncmp(s, "redelivered", n)) *v |= FAIL_REDELIVERED;
        else if (n == 7 && !strncmp(s, "skipped", n)) *v |= FAIL_SKIPPED;
        else if (n == 6 && !strncmp(s, "rewind", n)) *v |= FAIL_REWIND;
        else return false;
        s += n;
        if (*s == ',') s++;
    }
    return *v != 0;
}

static void text_topics(ss_out *o, bool *first, const char *what, const char *const *v, size_t n) {
    if (!n) return;
    out_printf(o, "%s%s ", *first ? " " : "; ", what);
    *first = false;
    for (size_t i = 0; i < n; i++) {
        if (i) out_ch(o, ',');
        gc_text_bytes(o, v[i], strlen(v[i]));
    }
}

/* a streams group's topology: which topics each subtopology's task s_p reads partition p of */
static void text_topology(ss_out *o, const ss_group *g) {
    if (!g->nsubtopologies) return;
    out_printf(o, "  topology epoch %" PRId32 ", %zu %s\n", g->topology_epoch, g->nsubtopologies,
               plural(g->nsubtopologies, "subtopology", "subtopologies"));
    for (size_t i = 0; i < g->nsubtopologies; i++) {
        const ss_gsubtopology *s = &g->subtopologies[i];
        out_lit(o, "    subtopology ");
        gc_text_bytes(o, s->id, s->id ? strlen(s->id) : 0);
        out_ch(o, ':');
        bool first = true;
        text_topics(o, &first, "source", s->source_topics, s->nsource);
        text_topics(o, &first, "repartition source", s->repartition_source_topics, s->nrepartition);
        text_topics(o, &first, "source regex", s->source_topic_regex, s->nregex);
        if (s->nregex) {
            /* regcomp's extended expressions stand in for java.util.regex */
            if (s->nmatched) text_topics(o, &first, "matching committed topics", s->regex_matched, s->nmatched);
            else out_lit(o, "; the regex matches no topic the group commits");
            out_lit(o, " (POSIX extended regex, an approximation of java.util.regex)");
            text_topics(o, &first, "unresolved regex (not a POSIX extended expression)", s->unresolved_regex,
                        s->nunresolved);
        }
        if (first) out_lit(o, " no input topic");
        out_ch(o, '\n');
    }
}

static void text_group(gcli *c, size_t gi) {
    ss_out *o = c->o;
    const ss_group *g = ss_groups_at(c->g, gi);
    const ss_glog *l = ss_groups_log_at(c->g, g->log);
    char nm[48], t[64];
    gc_text_bytes(o, g->id, g->id_len);
    if (g->undecoded_records && g->protocol == SS_GPROTO_NONE)
        out_printf(o, "  membership unknown (%" PRIu64 " %s of types segscan does not decode)", g->undecoded_records,
                   plural(g->undecoded_records, "record", "records"));
    else
        out_printf(o, "  %s",
                   g->protocol == SS_GPROTO_NONE ? "no membership (only commits)" : ss_gprotocol_name(g->protocol));
    if (g->protocol_type) {
        out_ch(o, ' ');
        gc_text_bytes(o, g->protocol_type, strlen(g->protocol_type));
    }
    if (g->assignor) {
        out_lit(o, " (");
        gc_text_bytes(o, g->assignor, strlen(g->assignor));
        out_ch(o, ')');
    }
    out_printf(o, "  %s", gc_log_name(nm, sizeof nm, g->coordinator_partition));
    if (g->ngenerations) {
        const ss_ggeneration *a = &g->generations[0], *b = &g->generations[g->ngenerations - 1];
        bool consumer = gc_epochs(b->protocol);
        out_printf(o, "  %s %" PRId32 "..%" PRId32, consumer ? "epochs" : "generations", a->generation, b->generation);
    }
    out_printf(o, ", %zu %s, %" PRIu64 " %s", g->nmembers_distinct, plural(g->nmembers_distinct, "member", "members"),
               g->commits, plural(g->commits, "commit", "commits"));
    if (g->txn_commits) out_printf(o, " (%" PRIu64 " transactional)", g->txn_commits);
    if (g->deleted) out_lit(o, ", deleted");
    out_ch(o, '\n');
    if (g->expected_partition != g->coordinator_partition)
        out_printf(o,
                   "  note: Utils.abs(groupId.hashCode()) %% %" PRId32 " is %" PRId32 ", not %" PRId32
                   ": __consumer_offsets has another partition count (--partitions), or "
                   "these records are not the coordinator's\n",
                   c->go.partitions, g->expected_partition, g->coordinator_partition);
    if (g->first_offset < l->complete_from) {
        gc_tstr(t, sizeof t, l->complete_from_time);
        out_printf(o,
                   "  history partial before %s (offset %" PRId64 " of %s): compaction kept only the last "
                   "record of each key below it\n",
                   t, l->complete_from, nm);
    }
    text_topology(o, g);
    /* the timeline: generations and events in log order */
    size_t gi_ = 0, ei = 0;
    while (gi_ < g->ngenerations || ei < g->nevents) {
        bool gen = ei >= g->nevents || (gi_ < g->ngenerations && g->generations[gi_].offset < g->events[ei].offset);
        if (gen) {
            const ss_ggeneration *x = &g->generations[gi_++];
            bool shown = gc_in_time(c, x->time) ||
                         (x->until_time < 0 ? x->time <= c->go.until_ms
                                            : x->until_time >= c->go.since_ms && x->time <= c->go.until_ms);
            if (shown) text_generation(c, x);
        } else {
            const ss_gevent *e = &g->events[ei++];
            if (!gc_timeline_event(e) || !gc_in_time(c, e->time)) continue;
            if (e->kind == SS_GEV_OFFSETS_DELETED && !gc_tp_selected(c, &e->tp)) continue;
            text_event(c, e);
        }
    }
    for (size_t i = 0; i < g->npartitions; i++)
        if (gc_tp_selected(c, &g->partitions[i].tp)) text_partition(c, g, &g->partitions[i]);
    gl_text(c, gi);
    text_findings(c, gi);
    if (c->list_commits) {
        ss_gcommit_iter *it = ss_group_commits(c->g, gi);
        ss_gcommit k;
        const char *last_topic = NULL;
        int32_t last_part = -1;
        int rc;
        while (it && (rc = ss_gcommit_next(it, &k)) == 1) {
            if (k.tp.topic != last_topic || k.tp.partition != last_part) {
                out_lit(o, "  commits of ");
                gc_text_tp(o, &k.tp);
                out_lit(o, ":\n");
                last_topic = k.tp.topic;
                last_part = k.tp.partition;
            }
            text_commit(c, &k);
        }
        ss_gcommit_iter_free(it);
    }
}

/* The other partitions given from several directories (replicas once: each offset read from one
 * copy): which copies, from which broker, what was read of each, as scan says it (a line, or a
 * data-partition object with scan's replicas array). The __consumer_offsets partitions' copies
 * are text_log's and gc_json_log's. */
static void data_replicas(gcli *c) {
    for (size_t i = 0; c->in && i < ss_inputs_count(c->in); i++) {
        const ss_input_partition *ip = ss_inputs_at(c->in, i);
        if (!ip->nreplicas || !strcmp(ip->topic, "__consumer_offsets")) continue;
        if (c->json) {
            out_lit(c->o, "{\"type\":\"data-partition\",\"partition\":");
            out_json_cstr(c->o, ip->name);
            view_replicas_json(c->o, ip);
            out_lit(c->o, "}\n");
            continue;
        }
        out_printf(c->o, "%s  %zu copies (replicas), read as one partition:", ip->name, ip->nreplicas);
        view_replicas_list(c->o, ip);
        out_ch(c->o, '\n');
    }
}

/* every __consumer_offsets partition, then every group selected: text or JSON */
static int list_all(gcli *c) {
    int rc = EXIT_OK;
    for (size_t i = 0; i < ss_groups_log_count(c->g); i++) {
        if (c->json) gc_json_log(c, ss_groups_log_at(c->g, i));
        else text_log(c, ss_groups_log_at(c->g, i));
    }
    data_replicas(c);
    size_t shown = 0;
    for (size_t i = 0; i < ss_groups_count(c->g); i++) {
        const ss_group *grp = ss_groups_at(c->g, i);
        if (!gc_group_selected(c, grp)) continue;
        shown++;
        if (c->json) {
            rc = exit_merge(rc, gc_json_group_all(c, i));
        } else {
            out_ch(c->o, '\n');
            text_group(c, i);
        }
    }
    if (!c->json && !shown) out_lit(c->o, "\nno group matched\n");
    return rc;
}

/* Each --group ID names a group read; a typo (a group that matched nothing) would otherwise pass
 * --fail-on silently. The groups were read for those ids alone: the names to offer come from
 * reading the history again without them (only on this error path). False: an id matched nothing
 * (said on stderr with the nearest names). */
static bool groups_match(gcli *c, const char *const *ids, size_t nids, char **paths, size_t npaths,
                         const ss_study_opts *so) {
    ss_study *all = NULL;
    bool ok = true;
    for (size_t k = 0; k < nids; k++) {
        bool found = false;
        for (size_t i = 0; i < ss_groups_count(c->g) && !found; i++) {
            const ss_group *g = ss_groups_at(c->g, i);
            found = g->id_len == strlen(ids[k]) && !memcmp(g->id, ids[k], g->id_len);
        }
        if (found) continue;
        ok = false;
        if (!all) {
            ss_study_opts o2 = *so;
            o2.groups.groups = NULL;
            o2.groups.ngroups = 0;
            o2.groups.commits = false;
            if (ss_study_run((const char *const *)paths, npaths, &o2, &all) != SS_E_OK) all = NULL;
        }
        ss_groups *ga = all ? ss_study_groups(all) : NULL;
        gc_near nr = {0};
        for (size_t i = 0; ga && i < ss_groups_count(ga); i++) {
            const ss_group *g = ss_groups_at(ga, i);
            gc_near_add(&nr, ids[k], g->id, g->id_len);
        }
        fflush(stdout);
        fprintf(stderr, "segscan: groups: --group %s: no such group in the __consumer_offsets partitions read", ids[k]);
        gc_near_print(stderr, &nr);
        fputc('\n', stderr);
    }
    ss_study_free(all);
    return ok;
}

/* --html: the text listing (again, into memory) and every group's findings at once (the listing
 * builds them one group at a time) */
static bool groups_html(gcli *c, const ss_inputs *in, ss_timelines *tl, int argc, char **argv, const char *path,
                        int *rc) {
    struct html_capture cap = {0};
    FILE *mf = html_capture_open(&cap);
    if (mf) {
        ss_out mo, *saved = c->o;
        out_init(&mo, mf);
        bool json = c->json;
        c->json = false;
        c->o = &mo;
        *rc = exit_merge(*rc, list_all(c));
        out_free(&mo);
        fclose(mf);
        c->o = saved;
        c->json = json;
    }
    ss_findings_opts fo = c->fo;
    fo.per_group = false;
    ss_findings *all = c->f ? ss_findings_build(c->g, tl, in, &fo) : NULL;
    struct html_src hs;
    memset(&hs, 0, sizeof hs);
    hs.command = "groups";
    hs.argc = argc;
    hs.argv = argv;
    hs.in = in;
    hs.tl = tl;
    hs.g = c->g;
    hs.f = all;
    hs.since_ms = c->go.since_ms;
    hs.until_ms = c->go.until_ms;
    hs.from_offset = c->go.from_offset;
    hs.to_offset = c->go.to_offset;
    hs.group_ids = c->go.groups;
    hs.ngroup_ids = c->go.ngroups;
    hs.text = cap.buf;
    hs.text_len = cap.len;
    hs.text_total = cap.total;
    hs.rc = exit_merge(*rc, c->failed ? EXIT_FINDINGS : EXIT_OK);
    bool ok = html_write(&hs, path);
    ss_findings_free(all);
    free(cap.buf);
    return ok;
}

/* ---- the command ------------------------------------------------------------------------------- */

int cmd_groups(int argc, char **argv) {
    gcli c;
    memset(&c, 0, sizeof c);
    ss_groups_opts_default(&c.go);
    ss_findings_opts_default(&c.fo);
    c.fo.per_group = true; /* listed one group at a time */
    const char **ids = NULL;
    size_t nids = 0, ids_cap = 0;
    bool include_temp = false, maxmem_set = false;
    const char *html = NULL;
    int opt;
    optind = 1;
#define BAD(...)                                                                                                       \
    do {                                                                                                               \
        warnx_(__VA_ARGS__);                                                                                           \
        free(ids);                                                                                                     \
        return EXIT_TROUBLE;                                                                                           \
    } while (0)
    opterr = 0; /* an unknown option is said as every command says it (bad_option) */
    while ((opt = getopt_long(argc, argv, "qh", groups_longopts, NULL)) != -1) {
        switch (opt) {
        case G_GROUP: {
            if (!SS_ARRAY_GROW(ids, nids, ids_cap, 8)) BAD("out of memory");
            ids[nids++] = optarg;
            break;
        }
        case G_TOPIC: c.go.topic = optarg; break;
        case G_PARTITION: {
            int64_t v;
            if (!parse_i64(optarg, &v) || v < 0 || v > INT32_MAX) BAD("groups: --partition needs a partition number");
            c.go.partition = (int32_t)v;
            break;
        }
        case G_SINCE:
            if (!ss_parse_time(optarg, &c.go.since_ms)) BAD("groups: --since: not a time: %s", optarg);
            break;
        case G_UNTIL:
            if (!ss_parse_time(optarg, &c.go.until_ms)) BAD("groups: --until: not a time: %s", optarg);
            break;
        case G_FROM:
            if (!parse_i64(optarg, &c.go.from_offset)) BAD("groups: --from-offset needs a number");
            break;
        case G_TO:
            if (!parse_i64(optarg, &c.go.to_offset)) BAD("groups: --to-offset needs a number");
            break;
        case G_COMMITS: c.list_commits = true; break;
        case G_HTML: html = optarg; break;
        case G_PARTS: {
            uint64_t v;
            if (!parse_u64(optarg, &v) || v == 0 || v > INT32_MAX)
                BAD("groups: --partitions needs a number from 1 to %d", INT32_MAX);
            c.go.partitions = (int32_t)v;
            break;
        }
        case G_JSON: c.json = true; break;
        case G_LOCAL: cli_local_time = true; break;
        case G_THREADS: {
            uint64_t v;
            if (!parse_u64(optarg, &v) || v == 0 || v > 256) BAD("groups: --threads takes a number from 1 to 256");
            c.go.threads = (unsigned)v;
            break;
        }
        case G_MAXMEM:
            if (!parse_size(optarg, &c.go.max_memory))
                BAD("groups: --max-memory takes a size, e.g. 512M or 2G (0: no limit)");
            maxmem_set = true;
            break;
        case G_TEMP: include_temp = true; break;
        case G_FAILON:
            if (!parse_fail_on(optarg, &c.fail_on))
                BAD("groups: --fail-on takes redelivered, skipped, rewind (comma separated)");
            break;
        case G_TXNTIMEOUT:
            if (!ss_parse_duration(optarg, &c.fo.txn_timeout_ms))
                BAD("groups: --txn-timeout: not a duration (e.g. 15m, 900s, 900000): %s", optarg);
            break;
        case G_NOW:
            if (!ss_parse_time(optarg, &c.fo.now_ms)) BAD("groups: --now: not a time: %s", optarg);
            c.fo.has_now = true;
            break;
        case 'q': c.quiet = true; break;
        case 'h':
            fputs(groups_usage, stdout);
            free(ids);
            return EXIT_OK;
        default: free(ids); return bad_option("groups", argv, optind, optopt);
        }
    }
    if (optind >= argc) {
        warnx_("groups: no PATH given");
        fputs(groups_usage, stderr);
        free(ids);
        return EXIT_TROUBLE;
    }
    if (c.go.since_ms > c.go.until_ms || c.go.from_offset > c.go.to_offset) BAD("groups: the window is empty");
    if (html && !strcmp(html, "-") && c.json)
        BAD("groups: --html - writes the page to standard output: not with --json");
#undef BAD
    /* the page draws the committed offsets over time: every commit is kept */
    c.go.commits = c.list_commits || html;
    c.go.groups = ids;
    c.go.ngroups = nids;
    if (!maxmem_set) c.go.max_memory = default_max_memory();
    ss_study_opts so;
    ss_study_opts_default(&so);
    so.groups = c.go;
    so.findings = c.fo;
    so.include_temp = include_temp;
    ss_study *st = NULL;
    if (ss_study_run((const char *const *)argv + optind, (size_t)(argc - optind), &so, &st) != SS_E_OK) {
        warnx_("out of memory");
        free(ids);
        return EXIT_TROUBLE;
    }
    int rc = ss_study_input_failed(st) ? EXIT_TROUBLE : EXIT_OK;
    warn_problems(ss_study_problems(st), c.quiet);
    ss_groups *g = ss_study_groups(st);
    if (!g || ss_groups_log_count(g) == 0) {
        /* there is one, but memory ran out before its groups: the study said so (above) */
        if (g || !ss_study_has_groups(st))
            warnx_("groups: no __consumer_offsets partition among the inputs (give a log directory, a "
                   "__consumer_offsets-N directory or a segment inside one)");
        ss_study_free(st);
        free(ids);
        return EXIT_TROUBLE;
    }
    const ss_inputs *in = ss_study_inputs(st);
    ss_timelines *tl = ss_study_timelines(st);
    c.g = g;
    c.tl = tl;
    c.in = in;
    c.f = ss_study_findings(st);
    if (ss_study_incomplete(st)) rc = exit_merge(rc, EXIT_TROUBLE);
    if (ss_groups_unreadable(g)) rc = exit_merge(rc, EXIT_TROUBLE);
    if (ss_groups_damage(g)) rc = exit_merge(rc, EXIT_DAMAGE);
    uint64_t spilled = ss_groups_spilled(g);
    if (spilled && !c.quiet)
        warnx_("note: the listed commits reached --max-memory: %" PRIu64 " %s went through temporary files", spilled,
               plural(spilled, "commit", "commits"));
    /* a --group, --topic or --partition that matches nothing is a usage error (a typo), with the
     * nearest names */
    if (!groups_match(&c, ids, nids, argv + optind, (size_t)(argc - optind), &so) || !gc_tp_selection_matches(&c)) {
        ss_study_free(st);
        free(ids);
        return EXIT_TROUBLE;
    }
    ss_out o;
    out_init(&o, stdout);
    c.o = &o;
    bool html_stdout = html && !strcmp(html, "-");
    if (!html_stdout) rc = exit_merge(rc, list_all(&c));
    out_flush(&o);
    if (o.failed) rc = exit_merge(rc, EXIT_TROUBLE);
    out_free(&o);
    if (html && !groups_html(&c, in, tl, argc, argv, html, &rc)) rc = exit_merge(rc, EXIT_TROUBLE);
    if (c.failed) rc = exit_merge(rc, EXIT_FINDINGS);
    ss_study_free(st);
    free(ids);
    return rc;
}
