/* segscan explain (--value V | --value-hex H | --value-contains S | --key K |
 * --offset PARTITION:OFFSET) PATH... - every copy of the matching record(s),
 * and in plain language why each one exists.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "common/common.h"
#include "common/out.h"
#include "views/scan.h"

/* What a single copy means, and what that rests on. */
static void consumer_side(struct scan_cli *c, sbuf *b) {
    /* with the groups' history read, its findings say what happened (or that nothing covers the
     * record): no guessed cause beside them */
    if (scan_groups_have(c)) {
        sb_printf(b, " If these partitions are the whole log, a duplicate of it did not happen in Kafka's log: if it "
                     "was received twice, that happened on the consumer side. What the consumer groups' history "
                     "(__consumer_offsets) says of it is below.");
    } else {
        sb_printf(b, " If these partitions are the whole log, the duplicate did not happen in Kafka's log but on the "
                     "consumer side - the record was delivered again after a rebalance or a restart before the "
                     "consumer committed its offset.");
        sb_printf(b, " Check the group's committed offsets ('segscan coordinator --group GROUP' names its "
                     "__consumer_offsets partition; with that partition among the inputs, or beside the partition "
                     "in its log directory, segscan says which of its records the group received twice) and commit "
                     "after processing, or make processing idempotent.");
    }
    scan_scope_sentence(c, b);
}

static void single_sentence(struct scan_cli *c, const ss_an_match *m, sbuf *b) {
    const ss_an_copy *cp = &m->copy;
    const ss_an_partition *P = ss_an_partition_at(c->an, cp->partition);
    if (!m->fingerprinted) {
        if (P->dups_excluded)
            sb_printf(b,
                      "%s is an internal topic, left out of the duplicate analysis: its records are identical by "
                      "design (--include-internal groups them anyway).",
                      P->input->topic);
        else
            sb_printf(b, "this record's %s is null (or shorter than --min-bytes): such records are never grouped.",
                      ss_by_name(c->ao.by));
        return;
    }
    sb_printf(b, "the partitions read hold a single copy of this record (%s offset %" PRId64 ").", P->input->name,
              cp->offset);
    consumer_side(c, b);
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
    scan_json_scope(c);
    scan_deliveries_json(c, cp);
    out_str(o, "}\n");
}

static void text_single(struct scan_cli *c, const ss_an_match *m, bool sentence) {
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
    if (!sentence) return;
    sbuf b = {0};
    single_sentence(c, m, &b);
    out_printf(o, "  %s\n", b.p ? b.p : "");
    free(b.p);
    scan_deliveries_text(c, cp, "  ");
}

/* No record matched: why, when the inputs can tell. */
static void why_no_match(struct scan_cli *c) {
    ss_out *o = c->out;
    size_t np = ss_an_partition_count(c->an);
    if (c->ao.match == SS_MATCH_OFFSET) {
        const char *want = c->ao.match_partition;
        for (size_t i = 0; i < np; i++) {
            const ss_an_partition *P = ss_an_partition_at(c->an, i);
            if (strcmp(P->input->name, want) != 0) continue;
            int64_t off = c->ao.match_offset;
            if (P->next_offset < 0) out_printf(o, "no record matched: %s holds no batch\n", want);
            else if (off >= P->next_offset)
                out_printf(o,
                           "no record matched: offset %" PRId64
                           " is past the log end of %s (its next offset is %" PRId64 ")\n",
                           off, want, P->next_offset);
            else if (off < P->first_offset)
                out_printf(o,
                           "no record matched: offset %" PRId64
                           " is below the log start of %s (its first offset is %" PRId64
                           ": older segments were deleted or not given)\n",
                           off, want, P->first_offset);
            else
                out_printf(o,
                           "no record matched: %s holds no data record at offset %" PRId64 " (a control record, "
                           "compacted away, lost, or outside the window)\n",
                           want, off);
            return;
        }
        out_printf(o, "no record matched: no partition named %s among the partitions read (", want);
        for (size_t i = 0; i < np && i < 10; i++)
            out_printf(o, "%s%s", i ? ", " : "", ss_an_partition_at(c->an, i)->input->name);
        out_str(o, np > 10 ? ", ...)\n" : ")\n");
        return;
    }
    const char *what = c->ao.match == SS_MATCH_KEY              ? "that key"
                       : c->ao.match == SS_MATCH_VALUE_CONTAINS ? "a value containing that text"
                                                                : "that value";
    out_printf(o, "no record matched: no record with %s in the %zu %s read\n", what, np,
               np == 1 ? "partition" : "partitions");
}

static void explain_print(struct scan_cli *c) {
    ss_out *o = c->out;
    size_t n = ss_an_match_count(c->an);
    if (n == 0) {
        if (!c->json) why_no_match(c);
        return;
    }
    /* many single copies (a --key or --value-contains matching many records): their lines,
     * then one paragraph for all, not one per record */
    size_t nsingle = 0;
    for (size_t i = 0; i < n; i++) nsingle += ss_an_match_at(c->an, i)->group < 0;
    bool summarise = !c->json && nsingle > 1;
    size_t ng = ss_an_dupgroup_count(c->an);
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
            else if (summarise) {
                if (singles <= 10) text_single(c, m, false);
            } else {
                if (shown_groups + singles > 1) out_ch(o, '\n');
                text_single(c, m, true);
            }
        }
    }
    if (summarise) {
        if (nsingle > 10) out_printf(o, "... %zu more\n", nsingle - 10);
        sbuf b = {0};
        sb_printf(&b, "%zu matching records each have a single copy in the partitions read.", nsingle);
        consumer_side(c, &b);
        out_printf(o, "  %s\n", b.p ? b.p : "");
        free(b.p);
    }
    uint64_t total = ss_an_match_total(c->an);
    if (!c->json && total > n)
        out_printf(o, "\n%" PRIu64 " %s matched; the first %zu %s shown\n", total, plural(total, "record", "records"),
                   n, plural(n, "is", "are"));
    free(seen);
}

static const struct scan_command explain_command = {
    .name = "explain",
    .usage_args = " SELECTOR",
    .description = "Every copy of the matching record(s) and, for each, why it exists.\n"
                   "SELECTOR, one of:\n"
                   "  --value V | --value-hex HEX | --value-contains S | --key K\n"
                   "  --offset PARTITION:OFFSET",
    .explain = true,
    .txn_ids = true,
    .print = explain_print,
};

int cmd_explain(int argc, char **argv) { return scan_run(&explain_command, argc, argv); }
