/* segscan - the JSON object of a partition (type "partition"): what the
 * analysis found in it, for scan --json and txns --json; its figures are
 * described in figures.c. */
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "common/out.h"
#include "views/figures.h"
#include "views/scan.h"

static uint32_t hole_partition(const ss_analysis *an, size_t i) { return ss_an_hole_at(an, i)->partition; }

/* The holes of partition `part`, in ss_an_hole order (partitions in order: found by a search) */
static size_t holes_from(const ss_analysis *an, uint32_t part) {
    return scan_first_of(an, ss_an_hole_count(an), hole_partition, part);
}

void scan_holes_json(struct scan_cli *c, uint32_t part) {
    ss_out *o = c->out;
    out_lit(o, ",\"holes\":[");
    size_t n = ss_an_hole_count(c->an);
    for (size_t i = holes_from(c->an, part), k = 0; i < n && ss_an_hole_at(c->an, i)->partition == part; i++, k++) {
        const ss_an_hole *h = ss_an_hole_at(c->an, i);
        out_printf(o, "%s{\"from\":%" PRId64 ",\"to\":%" PRId64 ",\"records\":%" PRIu64 ",\"between\":\"%s\"}",
                   k ? "," : "", h->from, h->to, h->records, h->between_segments ? "segments" : "batches");
    }
    out_ch(o, ']');
}

/* "holes  offsets 130..246 (117 records) between segments, ...": what is missing, and what it
 * means: lost records, unless the cleaner removed them (no evidence of it was read) */
void scan_holes_text(struct scan_cli *c, uint32_t part) {
    ss_out *o = c->out;
    const ss_an_partition *P = ss_an_partition_at(c->an, part);
    if (!P->holes) return;
    size_t n = ss_an_hole_count(c->an), k = 0;
    bool named = false;
    out_printf(o, "  %sholes         ", scan_sgr(c, SGR_RED));
    for (size_t i = holes_from(c->an, part); i < n && ss_an_hole_at(c->an, i)->partition == part; i++, k++) {
        const ss_an_hole *h = ss_an_hole_at(c->an, i);
        named |= h->segment_named;
        if (k == 5) continue;
        out_printf(o, "%soffsets %" PRId64 "..%" PRId64 " (%" PRIu64 " %s) between %s%s", k ? ", " : "", h->from, h->to,
                   h->records, h->records == 1 ? "record" : "records", h->between_segments ? "segments" : "batches",
                   h->segment_named ? " (a file beside names a segment there)" : "");
    }
    if (k > 5) out_printf(o, ", and %zu more", k - 5);
    out_printf(o, ": %" PRIu64 " %s missing", P->hole_records, P->hole_records == 1 ? "record" : "records");
    if (!P->cleaner_evidence && !named && P->cleanup_policy && !P->compact_policy) {
        out_str(o, " (no evidence of the cleaner read; cleanup.policy \"");
        out_text_escaped(o, (const uint8_t *)P->cleanup_policy, strlen(P->cleanup_policy), true);
        out_str(o, "\" in the __cluster_metadata read)");
    } else if (!P->cleaner_evidence && !named)
        out_str(o, ", unless the topic is compacted (no evidence of the cleaner read)");
    out_printf(o, "%s\n", scan_sgr(c, SGR_RST));
}

static void opt_i64(ss_out *o, const char *key, int64_t v) {
    out_printf(o, ",\"%s\":", key);
    if (v >= 0) out_i64(o, v);
    else out_lit(o, "null");
}

/* The copies of a partition given from several directories (replicas): where each came from,
 * what it holds, what was read of it, how it compares with the leader; [] when given once
 * (scan's partition objects, groups' data-partition objects). */
void view_replicas_json(ss_out *o, const ss_input_partition *ip) {
    out_lit(o, ",\"replicas\":[");
    for (size_t k = 0; k < ip->nreplicas; k++) {
        const ss_input_replica *r = &ip->replicas[k];
        out_str(o, k ? ",{\"name\":" : "{\"name\":");
        out_json_cstr(o, r->name);
        out_lit(o, ",\"path\":");
        out_json_cstr(o, r->path);
        opt_i64(o, "broker", r->node_id);
        out_printf(o, ",\"leader\":%s,\"segments\":%zu", r->leader ? "true" : "false", r->nsegments);
        opt_i64(o, "logStart", r->log_start);
        opt_i64(o, "logEnd", r->log_end);
        opt_i64(o, "lastLeaderEpoch", r->last_epoch);
        opt_i64(o, "highWatermark", r->high_watermark);
        bool read = r->read_from >= 0 && r->read_to > r->read_from;
        opt_i64(o, "readFrom", read ? r->read_from : -1);
        opt_i64(o, "readTo", read ? r->read_to : -1);
        out_printf(o, ",\"behind\":%" PRId64, r->behind);
        opt_i64(o, "divergedAt", r->diverged_at);
        opt_i64(o, "divergedEpoch", r->diverged_at >= 0 ? r->diverged_epoch : -1);
        opt_i64(o, "leaderEpoch", r->diverged_at >= 0 ? r->leader_epoch : -1);
        out_printf(o, ",\"divergedBatches\":%" PRIu64 ",\"damage\":%" PRIu64 "}", r->diverged_batches, r->damage);
    }
    out_ch(o, ']');
}

void scan_replicas_json(struct scan_cli *c, uint32_t part) {
    view_replicas_json(c->out, ss_an_partition_at(c->an, part)->input);
}

/* " b1/orders-0 (broker 1, leader): 0..79 read; b2/orders-0 (broker 2): ends at 60, 20 offsets
 * before the leader" (scan's replicas line, groups' data partitions) */
void view_replicas_list(ss_out *o, const ss_input_partition *ip) {
    for (size_t k = 0; k < ip->nreplicas; k++) {
        const ss_input_replica *r = &ip->replicas[k];
        out_printf(o, "%s%s (", k ? "; " : " ", r->name);
        if (r->node_id >= 0) out_printf(o, "broker %" PRId32, r->node_id);
        else out_str(o, "broker unknown");
        out_printf(o, "%s)", r->leader ? ", leader" : "");
        if (r->read_from >= 0 && r->read_to > r->read_from)
            out_printf(o, ": %" PRId64 "..%" PRId64 " read", r->read_from, r->read_to - 1);
        else out_str(o, ": compared only");
        if (r->diverged_at >= 0)
            out_printf(o, ", diverges at %" PRId64 " (leader epochs %" PRId32 " and %" PRId32 ")", r->diverged_at,
                       r->leader_epoch, r->diverged_epoch);
        else if (r->behind > 0)
            out_printf(o, ", ends at %" PRId64 ", %" PRId64 " %s before the leader", r->log_end, r->behind,
                       r->behind == 1 ? "offset" : "offsets");
        if (r->damage) out_printf(o, ", %" PRIu64 " damaged", r->damage);
    }
}

/* "replicas  b1/orders-0 (broker 1, leader): 0..79 read; b2/orders-0 (broker 2): ends at 60, 20
 * offsets before the leader" */
void scan_replicas_text(struct scan_cli *c, uint32_t part) {
    ss_out *o = c->out;
    const ss_input_partition *ip = ss_an_partition_at(c->an, part)->input;
    if (!ip->nreplicas) return;
    out_str(o, "  replicas     ");
    view_replicas_list(o, ip);
    out_ch(o, '\n');
}

void scan_json_partition(struct scan_cli *c, uint32_t i) {
    ss_out *o = c->out;
    out_str(o, "{\"type\":\"partition\"");
    figs_json(o, partition_figs, npartition_figs, ss_an_partition_at(c->an, i));
    scan_holes_json(c, i);
    scan_replicas_json(c, i);
    const ss_an_partition *P = ss_an_partition_at(c->an, i);
    out_lit(o, ",\"cleanupPolicy\":");
    if (P->cleanup_policy) out_json_cstr(o, P->cleanup_policy);
    else out_lit(o, "null");
    out_str(o, "}\n");
}
