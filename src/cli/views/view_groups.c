/* segscan - a duplicate group, in text and as a JSON object: the copies with
 * their partition, offset, producer and cause, for dups, the summary and
 * explain. Values and keys are read back from the segments (ss_an_fetch): the
 * analysis keeps none.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/out.h"
#include "views/scan.h"

static void text_copy(struct scan_cli *c, const ss_an_copy *cp) {
    ss_out *o = c->out;
    char t[64];
    scan_time(t, sizeof t, cp->timestamp);
    out_printf(o, "    %s  offset %" PRId64 "  %s  ", scan_part_name(c, cp->partition), cp->offset, t);
    if (cp->producer_id < 0) out_str(o, "no producer id");
    else out_printf(o, "pid %" PRId64 " epoch %d seq %" PRId32, cp->producer_id, cp->producer_epoch, cp->sequence);
    if (cp->transactional) out_str(o, " txn");
    size_t tl;
    const char *tid = scan_txn_id(c, cp->producer_id, &tl);
    if (tid) {
        out_str(o, " transactional.id ");
        out_json_utf8(o, (const uint8_t *)tid, tl);
    }
    if (c->ao.by != SS_BY_KEY) { /* each copy's key (with --by key the group's header shows it) */
        ss_record r;
        ss_error err;
        if (ss_an_fetch(c->an, cp, &r, &err) == 1) {
            out_str(o, "  key ");
            scan_preview(o, r.key, r.key_len, 40);
        }
    }
    out_str(o, "  ");
    if (cp->cause == SS_CAUSE_NONE) {
        out_printf(o, "%soriginal%s", scan_sgr(c, SGR_BOLD), scan_sgr(c, SGR_RST));
    } else {
        out_printf(o, "%s%s%s", scan_sgr(c, SGR_RED), ss_cause_name(cp->cause), scan_sgr(c, SGR_RST));
        if (cp->cause == SS_CAUSE_NEW_SESSION) out_str(o, (cp->detail & SS_NEWSESS_PID) ? " (pid)" : " (epoch)");
    }
    if (cp->aborted && cp->cause != SS_CAUSE_ABORTED) out_str(o, " [aborted transaction]");
    if (cp->open) out_printf(o, " %s[open transaction]%s", scan_sgr(c, SGR_YEL), scan_sgr(c, SGR_RST));
    if (cp->outside_window) out_str(o, " [outside the window]");
    out_ch(o, '\n');
}

/* The distinct topics of a group's copies, in the order met: ", "-separated text, or a
 * JSON array. */
static void group_topics(struct scan_cli *c, size_t gi, bool json) {
    ss_out *o = c->out;
    const ss_an_dupgroup *g = ss_an_dupgroup_at(c->an, gi);
    const char *seen[16];
    size_t nseen = 0;
    if (json) out_ch(o, '[');
    for (size_t j = 0; j < g->copies; j++) {
        ss_an_copy cp;
        ss_an_dupgroup_copy(c->an, gi, j, &cp);
        const char *t = ss_an_partition_at(c->an, cp.partition)->input->topic;
        bool dup = false;
        for (size_t k = 0; k < nseen && !dup; k++) dup = !strcmp(seen[k], t);
        if (dup) continue;
        if (nseen == sizeof seen / sizeof *seen) break; /* as many as a header can name */
        if (nseen) out_str(o, json ? "," : ", ");
        if (json) out_json_cstr(o, t);
        else out_str(o, t);
        seen[nseen++] = t;
    }
    if (json) out_ch(o, ']');
}

static void group_topics_text(struct scan_cli *c, size_t gi) { group_topics(c, gi, false); }

void dups_text_group(struct scan_cli *c, size_t gi, size_t max_copies, bool sentences) {
    ss_out *o = c->out;
    const ss_an_dupgroup *g = ss_an_dupgroup_at(c->an, gi);
    ss_an_copy orig;
    ss_an_dupgroup_copy(c->an, gi, g->original, &orig);
    const ss_an_partition *P = ss_an_partition_at(c->an, orig.partition);
    out_printf(o, "  %s%" PRIu32 " copies%s of %s ", scan_sgr(c, SGR_BOLD), g->copies, scan_sgr(c, SGR_RST),
               ss_by_name(c->ao.by));
    ss_record r;
    ss_error err;
    if (ss_an_fetch(c->an, &orig, &r, &err) == 1) {
        if (c->ao.by == SS_BY_KEY) {
            scan_preview(o, r.key, r.key_len, 60);
        } else if (c->ao.by == SS_BY_KEY_VALUE) {
            out_str(o, "key ");
            scan_preview(o, r.key, r.key_len, 40);
            out_str(o, " value ");
            scan_preview(o, r.value, r.value_len, 40);
        } else {
            scan_preview(o, r.value, r.value_len, 60);
        }
    } else if (P->input->export_file) { /* an export holds a data topic's fingerprints, not its bytes */
        out_printf(o, "fingerprint %016" PRIx64 "%016" PRIx64 " (its bytes are not in the export)", g->fp_hi, g->fp_lo);
    } else {
        out_str(o, "(could not be read back)");
    }
    if (g->cross_topic) {
        out_printf(o, "  %stopics ", scan_sgr(c, SGR_DIM));
        group_topics_text(c, gi);
        out_str(o, scan_sgr(c, SGR_RST));
    } else {
        out_printf(o, "  %stopic %s%s", scan_sgr(c, SGR_DIM), P->input->topic, scan_sgr(c, SGR_RST));
    }
    if (g->identical_copies >= 0 && (uint64_t)g->identical_copies < g->copies)
        out_printf(o, "  (%" PRId64 " byte-identical %s)", g->identical_copies,
                   g->identical_copies == 1 ? "copy" : "copies");
    out_ch(o, '\n');
    size_t n = g->copies;
    for (size_t j = 0; j < n && j < max_copies; j++) {
        ss_an_copy cp;
        ss_an_dupgroup_copy(c->an, gi, j, &cp);
        text_copy(c, &cp);
        if (j != g->original) scan_copy_links_text(c, &orig, &cp, "        ");
    }
    if (n > max_copies) out_printf(o, "    ... %zu more (segscan dups)\n", n - max_copies);
    if (sentences) explain_group_text(c, gi, "    ");
}

/* The field that is not fingerprinted, for each copy. */
static void json_other_field(struct scan_cli *c, const ss_record *r) {
    if (c->ao.by == SS_BY_VALUE) scan_json_bytes(c->out, c->bytes, "key", r->key, r->key_len);
    else if (c->ao.by == SS_BY_KEY) scan_json_bytes(c->out, c->bytes, "value", r->value, r->value_len);
}

void dups_json_group(struct scan_cli *c, size_t gi, bool sentences) {
    ss_out *o = c->out;
    const ss_an_dupgroup *g = ss_an_dupgroup_at(c->an, gi);
    ss_an_copy orig;
    ss_an_dupgroup_copy(c->an, gi, g->original, &orig);
    const ss_an_partition *P = ss_an_partition_at(c->an, orig.partition);
    out_str(o, "{\"type\":\"group\",\"topic\":");
    out_json_cstr(o, P->input->topic);
    out_json_key(o, "copies");
    out_u64(o, g->copies);
    out_json_key(o, "by");
    out_json_cstr(o, ss_by_name(c->ao.by));
    out_printf(o, ",\"fingerprint\":\"%016" PRIx64 "%016" PRIx64 "\"", g->fp_hi, g->fp_lo);
    ss_record r;
    ss_error err;
    bool have = ss_an_fetch(c->an, &orig, &r, &err) == 1;
    if (!have && P->input->export_file) out_str(o, ",\"notInExport\":true");
    if (c->ao.by == SS_BY_KEY || c->ao.by == SS_BY_KEY_VALUE) {
        if (have) {
            scan_json_bytes(o, c->bytes, "key", r.key, r.key_len);
            out_json_key(o, "keySize");
            out_i64(o, r.key_len);
        } else {
            out_str(o, ",\"key\":null");
        }
    }
    if (c->ao.by == SS_BY_VALUE || c->ao.by == SS_BY_KEY_VALUE) {
        if (have) {
            scan_json_bytes(o, c->bytes, "value", r.value, r.value_len);
            out_json_key(o, "valueSize");
            out_i64(o, r.value_len);
        } else {
            out_str(o, ",\"value\":null");
        }
    }
    out_lit(o, ",\"identicalCopies\":");
    if (g->identical_copies >= 0) out_i64(o, g->identical_copies);
    else out_lit(o, "null");
    out_lit(o, ",\"topics\":");
    if (g->cross_topic) group_topics(c, gi, true);
    else {
        out_ch(o, '[');
        out_json_cstr(o, P->input->topic);
        out_ch(o, ']');
    }
    out_str(o, ",\"causes\":{");
    bool first = true;
    for (enum ss_cause k = SS_CAUSE_ABORTED; k < SS_CAUSE_COUNT; k++) {
        if (!(g->causes & (1u << k))) continue;
        size_t cnt = 0;
        for (size_t j = 0; j < g->copies; j++) {
            ss_an_copy cp;
            ss_an_dupgroup_copy(c->an, gi, j, &cp);
            if (cp.cause == k && j != g->original) cnt++;
        }
        if (!first) out_ch(o, ',');
        first = false;
        out_json_cstr(o, ss_cause_name(k));
        out_ch(o, ':');
        out_u64(o, cnt);
    }
    out_str(o, "},\"occurrences\":[");
    for (size_t j = 0; j < g->copies; j++) {
        ss_an_copy cp;
        ss_an_dupgroup_copy(c->an, gi, j, &cp);
        if (j) out_ch(o, ',');
        out_str(o, "{\"partition\":");
        out_json_cstr(o, scan_part_name(c, cp.partition));
        /* no printf here: a group object per duplicate, thousands of them */
        KV_I64(o, "offset", cp.offset);
        KV_I64(o, "timestamp", cp.timestamp);
        KV_I64(o, "producerId", cp.producer_id);
        KV_I64(o, "producerEpoch", cp.producer_epoch);
        KV_I64(o, "sequence", cp.sequence);
        out_lit(o, ",\"cause\":");
        if (j == g->original) out_str(o, "null");
        else out_json_cstr(o, ss_cause_name(cp.cause));
        size_t tl;
        const char *tid = scan_txn_id(c, cp.producer_id, &tl);
        out_lit(o, ",\"transactionalId\":");
        if (tid) out_json_utf8(o, (const uint8_t *)tid, tl);
        else out_lit(o, "null");
        if (j != g->original && cp.cause == SS_CAUSE_NEW_SESSION) {
            out_str(o, ",\"causeDetail\":");
            out_json_cstr(o, (cp.detail & SS_NEWSESS_PID) ? "pid" : "epoch");
            if (cp.detail & SS_NEWSESS_TXN_V2_HINT) out_str(o, ",\"transactionsV2Hint\":true");
        }
        KV_BOOL(o, "transactional", cp.transactional);
        KV_BOOL(o, "aborted", cp.aborted);
        KV_BOOL(o, "open", cp.open);
        KV_BOOL(o, "outsideWindow", cp.outside_window);
        if (c->ao.by != SS_BY_KEY_VALUE) {
            if (ss_an_fetch(c->an, &cp, &r, &err) == 1) json_other_field(c, &r);
            else out_str(o, c->ao.by == SS_BY_VALUE ? ",\"key\":null" : ",\"value\":null");
        }
        if (sentences && j != g->original) {
            char buf[1024];
            explain_copy_sentence(c, gi, &cp, buf, sizeof buf);
            out_str(o, ",\"explanation\":");
            out_json_cstr(o, buf);
        }
        if (j != g->original) scan_copy_links_json(c, &orig, &cp);
        if (sentences) scan_deliveries_json(c, &cp);
        out_ch(o, '}');
    }
    out_str(o, "]}\n");
}
