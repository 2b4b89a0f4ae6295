/* segscan CLI - the net answer of a group's data partition (segscan/findings.h,
 * ss_fnet: its findings' ranges merged by the library) as one line of text, as
 * a group-net JSON object and as report keys.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/common.h"
#include "groups/gfindings.h"

bool gn_fails(const ss_fnet *n, unsigned fail_on) {
    if (!n) return false;
    if ((fail_on & FAIL_REDELIVERED) && n->nranges[SS_FN_POSSIBLE]) return true;
    if ((fail_on & FAIL_SKIPPED) && n->nranges[SS_FN_SKIPPED_POSSIBLE]) return true;
    return false;
}

static bool same_ranges(const ss_fnet *n, enum ss_fnet_level a, enum ss_fnet_level b) {
    return n->nranges[a] == n->nranges[b] &&
           (!n->nranges[a] || !memcmp(n->ranges[a], n->ranges[b], n->nranges[a] * sizeof *n->ranges[a]));
}

/* "94..113, 120..130 likely (25 records)" */
static void level_text(ss_out *o, const ss_fnet *n, enum ss_fnet_level l, const char *word) {
    for (size_t i = 0; i < n->nranges[l]; i++) {
        const ss_fnet_range *r = &n->ranges[l][i];
        if (i) out_str(o, ", ");
        if (r->to < 0) out_printf(o, "%" PRId64 " on", r->from);
        else out_printf(o, "%" PRId64 "..%" PRId64, r->from, r->to);
    }
    out_printf(o, " %s", word);
    if (n->records[l] >= 0)
        out_printf(o, " (%" PRId64 " %s)", n->records[l], plural((uint64_t)n->records[l], "record", "records"));
}

/* the levels from..to of one kind (delivered twice, never delivered), a level said only where it adds to the
 * one before (they nest) */
static void kind_text(ss_out *o, const ss_fnet *n, enum ss_fnet_level from, enum ss_fnet_level to,
                      const char *const *words) {
    bool any = false;
    for (int l = (int)from; l <= (int)to; l++) {
        if (!n->nranges[l]) continue;
        if (l > (int)from && n->nranges[l - 1] && same_ranges(n, (enum ss_fnet_level)(l - 1), (enum ss_fnet_level)l))
            continue;
        if (any) out_str(o, "; ");
        level_text(o, n, (enum ss_fnet_level)l, words[l - (int)from]);
        any = true;
    }
    if (!any) out_str(o, "none");
}

void gn_text(ss_out *o, const ss_fnet *n, const char *indent) {
    static const char *const twice[] = {"certainly", "likely", "possibly"};
    static const char *const never[] = {"certainly", "possibly"};
    out_printf(o, "%snet of ", indent);
    gf_tp_text(o, &n->tp);
    out_str(o, ": delivered twice: ");
    kind_text(o, n, SS_FN_CERTAIN, SS_FN_POSSIBLE, twice);
    out_str(o, "; never delivered: ");
    kind_text(o, n, SS_FN_SKIPPED, SS_FN_SKIPPED_POSSIBLE, never);
    if (!n->data_read) out_str(o, " (the data partition was not read: offsets only)");
    out_ch(o, '\n');
}

static void json_i64_or_null(ss_out *o, int64_t v) {
    if (v < 0) out_str(o, "null");
    else out_i64(o, v);
}

void gn_json_range(ss_out *o, const ss_fnet_range *r) {
    out_printf(o, "{\"from\":%" PRId64 ",\"to\":", r->from);
    json_i64_or_null(o, r->to);
    out_str(o, ",\"records\":");
    json_i64_or_null(o, r->records);
    out_ch(o, '}');
}

void gn_json(ss_out *o, const ss_fnet *n) {
    out_str(o, "{\"type\":\"group-net\",\"group\":");
    out_json_utf8(o, (const uint8_t *)n->group_id, n->group_id_len);
    out_json_key(o, "topic");
    if (n->tp.topic) out_json_utf8(o, (const uint8_t *)n->tp.topic, n->tp.topic_len);
    else out_str(o, "null");
    out_json_key(o, "topicId");
    if (n->tp.topic_id) out_json_cstr(o, n->tp.topic_id);
    else out_str(o, "null");
    out_json_key(o, "partition");
    out_i64(o, n->tp.partition);
    out_kv_bool(o, "dataRead", n->data_read);
    out_kv_u64(o, "findings", n->nfindings);
    for (int l = 0; l < SS_FN_LEVELS; l++) {
        out_json_key(o, ss_fnet_level_name((enum ss_fnet_level)l));
        out_ch(o, '[');
        for (size_t i = 0; i < n->nranges[l]; i++) {
            if (i) out_ch(o, ',');
            gn_json_range(o, &n->ranges[l][i]);
        }
        out_ch(o, ']');
    }
    for (int l = 0; l < SS_FN_LEVELS; l++) {
        char k[48];
        snprintf(k, sizeof k, "%sRecords", ss_fnet_level_name((enum ss_fnet_level)l));
        out_json_key(o, k);
        json_i64_or_null(o, n->records[l]);
        snprintf(k, sizeof k, "%sOffsets", ss_fnet_level_name((enum ss_fnet_level)l));
        out_json_key(o, k);
        json_i64_or_null(o, n->offsets[l]);
    }
    out_str(o, "}\n");
}

/* records of a level: its count when the data partition was read, else the offsets known to lie in it (a range
 * whose end is unknown up to the highest known end merged into it) */
uint64_t gn_count(const ss_fnet *n, enum ss_fnet_level l) {
    if (n->records[l] >= 0) return (uint64_t)n->records[l];
    return n->offsets_known[l] > 0 ? (uint64_t)n->offsets_known[l] : 0;
}
