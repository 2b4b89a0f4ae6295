/* segscan explain (--value V | --value-hex H | --value-contains S | --key K |
 * --offset PARTITION:OFFSET) PATH... - every copy of the matching record(s),
 * and in plain language why each one exists.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "out.h"
#include "scan.h"

static void single_sentence(struct scan_cli *c, const ss_an_match *m, sbuf *b) {
    const ss_an_copy *cp = &m->copy;
    const ss_an_partition *P = ss_an_partition_at(c->an, cp->partition);
    if (!m->fingerprinted) {
        if (P->dups_excluded)
            sb_printf(b,
                      "%s is an internal topic, left out of the duplicate analysis (--include-internal, or name the "
                      "partition directory).",
                      P->input->topic);
        else
            sb_printf(b, "this record's %s is null (or shorter than --min-bytes): such records are never grouped.",
                      ss_by_name(c->ao.by));
        return;
    }
    sb_printf(b,
              "the log holds a single copy of this record (%s offset %" PRId64 "), so the duplicate did not happen "
              "in Kafka's log: it happened on the consumer side - the record was delivered again after a rebalance "
              "or a restart before the consumer committed its offset.",
              P->input->name, cp->offset);
    if (scan_groups_have(c))
        sb_printf(b, " What the consumer groups' history (__consumer_offsets) says of it is below.");
    else
        sb_printf(b, " Check the group's committed offsets ('segscan coordinator --group GROUP' names its "
                     "__consumer_offsets partition; with that partition among the inputs, or beside the partition "
                     "in its log directory, segscan says which of its records the group received twice) and commit "
                     "after processing, or make processing idempotent.");
    if (cp->aborted)
        sb_printf(b, " Note: it lies inside an aborted transaction, so read_committed consumers never see it.");
    if (cp->open) sb_printf(b, " Note: its transaction is still open.");
}

static void json_single(struct scan_cli *c, const ss_an_match *m) {
    ss_out *o = c->out;
    const ss_an_copy *cp = &m->copy;
    out_str(o, "{\"type\":\"single\",\"partition\":");
    out_json_cstr(o, scan_part_name(c, cp->partition));
    out_printf(o,
               ",\"offset\":%" PRId64 ",\"timestamp\":%" PRId64 ",\"producerId\":%" PRId64
               ",\"producerEpoch\":%d,\"sequence\":%" PRId32 ",\"transactional\":%s,\"aborted\":%s,\"open\":%s"
               ",\"grouped\":%s",
               cp->offset, cp->timestamp, cp->producer_id, cp->producer_epoch, cp->sequence,
               cp->transactional ? "true" : "false", cp->aborted ? "true" : "false", cp->open ? "true" : "false",
               m->fingerprinted ? "true" : "false");
    ss_record r;
    ss_error err;
    if (ss_an_fetch(c->an, cp, &r, &err) == 1) {
        scan_json_bytes(o, c->bytes, "key", r.key, r.key_len);
        scan_json_bytes(o, c->bytes, "value", r.value, r.value_len);
    }
    sbuf b = {0};
    single_sentence(c, m, &b);
    out_str(o, ",\"explanation\":");
    out_json_cstr(o, b.p ? b.p : "");
    free(b.p);
    scan_deliveries_json(c, cp);
    out_str(o, "}\n");
}

static void text_single(struct scan_cli *c, const ss_an_match *m) {
    ss_out *o = c->out;
    const ss_an_copy *cp = &m->copy;
    char t[64];
    scan_time(t, sizeof t, cp->timestamp);
    out_printf(o, "%s%s offset %" PRId64 "%s  %s  ", scan_sgr(c, SGR_BOLD), scan_part_name(c, cp->partition),
               cp->offset, scan_sgr(c, SGR_RST), t);
    if (cp->producer_id < 0) out_str(o, "no producer id");
    else out_printf(o, "pid %" PRId64 " epoch %d seq %" PRId32, cp->producer_id, cp->producer_epoch, cp->sequence);
    ss_record r;
    ss_error err;
    if (ss_an_fetch(c->an, cp, &r, &err) == 1) {
        out_str(o, "  key ");
        scan_preview(o, r.key, r.key_len, 40);
        out_str(o, " value ");
        scan_preview(o, r.value, r.value_len, 60);
    }
    out_ch(o, '\n');
    sbuf b = {0};
    single_sentence(c, m, &b);
    out_printf(o, "  %s\n", b.p ? b.p : "");
    free(b.p);
    scan_deliveries_text(c, cp, "  ");
}

static void explain_print(struct scan_cli *c) {
    ss_out *o = c->out;
    size_t n = ss_an_match_count(c->an);
    if (n == 0) {
        if (!c->json) out_str(o, "no record matched\n");
        return;
    }
    size_t ng = ss_an_group_count(c->an);
    bool *seen = calloc(ng ? ng : 1, sizeof *seen);
    size_t shown_groups = 0, singles = 0;
    for (size_t i = 0; i < n; i++) {
        const ss_an_match *m = ss_an_match_at(c->an, i);
        if (m->group >= 0) {
            if (seen && seen[m->group]) continue;
            if (seen) seen[m->group] = true;
            shown_groups++;
            if (c->json) {
                dups_json_group(c, (size_t)m->group, true);
            } else {
                if (shown_groups + singles > 1) out_ch(o, '\n');
                dups_text_group(c, (size_t)m->group, SIZE_MAX, false);
                explain_group_text(c, (size_t)m->group, "  ");
                /* the matched record's own deliveries (its copies' are the copies' lines) */
                scan_deliveries_text(c, &m->copy, "  ");
            }
        } else {
            singles++;
            if (c->json) json_single(c, m);
            else {
                if (shown_groups + singles > 1) out_ch(o, '\n');
                text_single(c, m);
            }
        }
    }
    uint64_t total = ss_an_match_total(c->an);
    if (!c->json && total > n)
        out_printf(o, "\n%" PRIu64 " %s matched; the first %zu %s shown\n", total, plural(total, "record", "records"),
                   n, plural(n, "is", "are"));
    free(seen);
}

static const struct scan_command explain_command = {
    .name = "explain",
    .usage_args = " (--value V|--value-hex H|--value-contains S|--key K|--offset P:O)",
    .description = "Every copy of the matching record(s) and, for each, why it exists.\n"
                   "  --value V | --value-hex HEX | --value-contains S | --key K | --offset PARTITION:OFFSET",
    .explain = true,
    .txn_ids = true,
    .print = explain_print,
};

int cmd_explain(int argc, char **argv) { return scan_run(&explain_command, argc, argv); }
