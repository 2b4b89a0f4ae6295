/* segscan diff - where two segments, replicas or mirrors of a partition differ. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands/commands.h"
#include "common/common.h"
#include "common/out.h"
#include "segscan/analyze.h"
#include "segscan/diff.h"
#include "segscan/segscan.h"

static const char diff_usage[] = "usage: segscan diff [options] A B\n"
                                 "\n"
                                 "Compare two logs. A and B are each a segment file, a partition directory or a\n"
                                 "log directory (then partitions are paired by name).\n"
                                 "\n"
                                 "  --by offset             replicas: walk both by offset; records present on one\n"
                                 "                          side only, records that differ, the first divergent\n"
                                 "                          offset and where a follower would truncate\n"
                                 "                          (leader-epoch reconciliation)\n"
                                 "  --by content            mirrors: compare the multisets of record fingerprints,\n"
                                 "                          whatever the offsets (records missing from B, only in\n"
                                 "                          B, extra copies)\n"
                                 "  --by value|key|key+value  content mode on that field (default value)\n"
                                 "  --by-key                = --by key\n"
                                 "                          default: offset when both sides are the same\n"
                                 "                          partition and their offsets overlap, content\n"
                                 "                          otherwise; the output says which\n"
                                 "  --read-committed        content mode: leave out records of aborted\n"
                                 "                          transactions\n"
                                 "  --stat                  the summary only\n"
                                 "  --max N                 list at most N differences per partition (default 20)\n"
                                 "  --json                  JSON Lines: summary, range, difference and unpaired\n"
                                 "                          objects\n"
                                 "  --bytes utf8|hex|base64 how --json writes keys and values (default utf8);\n"
                                 "                          JSON carries them whole\n"
                                 "  --preview-bytes N       bytes of a key or value shown in a text line (default\n"
                                 "                          40)\n"
                                 "  --include-temp          also read broker temporaries (.deleted/.cleaned/.swap,\n"
                                 "                          -delete/-stray/-future)\n"
                                 "  --local-time            text times in the local time of TZ with its UTC offset\n"
                                 "                          (default UTC, ...Z)\n"
                                 "  --max-batch-bytes N     cap on a batch's decompressed size (default 67108864)\n"
                                 "  -h, --help              this help\n"
                                 "\n"
                                 "exit codes: 0 identical, 1 different, 2 usage or I/O trouble,\n"
                                 "            3 damaged input met\n";

enum {
    OPT_BY = 256,
    OPT_BYKEY,
    OPT_RC,
    OPT_STAT,
    OPT_MAX,
    OPT_JSON,
    OPT_BYTES,
    OPT_TEMP,
    OPT_MAXBATCH,
    OPT_LOCALTIME,
    OPT_PREVIEW
};

static const struct option diff_longopts[] = {
    {"by", required_argument, NULL, OPT_BY},
    {"by-key", no_argument, NULL, OPT_BYKEY},
    {"read-committed", no_argument, NULL, OPT_RC},
    {"stat", no_argument, NULL, OPT_STAT},
    {"max", required_argument, NULL, OPT_MAX},
    {"json", no_argument, NULL, OPT_JSON},
    {"bytes", required_argument, NULL, OPT_BYTES},
    {"include-temp", no_argument, NULL, OPT_TEMP},
    {"max-batch-bytes", required_argument, NULL, OPT_MAXBATCH},
    {"local-time", no_argument, NULL, OPT_LOCALTIME},
    {"preview-bytes", required_argument, NULL, OPT_PREVIEW},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Bytes of a key or value shown in a text line (--preview-bytes); the JSON form
 * carries them whole. */
static size_t preview_bytes = 40;

/* A path or partition name in a text line, its control characters escaped. */
static void out_name(ss_out *o, const char *s) { out_text_cstr(o, s ? s : "-"); }

typedef struct diff_cli {
    bool json, stat;
    enum bytes_mode bytes;
    ss_diff_opts o;
} diff_cli;

static void human_time(ss_out *o, int64_t ms) {
    char buf[40];
    if (ms < 0) {
        out_i64(o, ms);
        return;
    }
    cli_format_time(ms, buf, sizeof buf);
    out_str(o, buf);
}

static const char *where_text(enum ss_diff_kind kind, enum ss_diff_where where) {
    bool a = kind == SS_DK_ONLY_A;
    switch (where) {
    case SS_DW_BEFORE: return a ? "before B's first offset" : "before A's first offset";
    case SS_DW_AFTER: return a ? "after B's end" : "after A's end";
    case SS_DW_DAMAGED: return a ? "damaged in B" : "damaged in A";
    default: return "";
    }
}

static void human_rec_line(ss_out *o, char sign, const ss_diff_rec *r, const char *side_cause) {
    out_ch(o, sign);
    out_ch(o, ' ');
    out_i64(o, r->offset);
    out_ch(o, ' ');
    human_time(o, r->timestamp);
    if (r->key_len >= 0) {
        out_lit(o, " key=");
        out_preview(o, r->key, r->key_len, preview_bytes);
    }
    out_lit(o, " value=");
    out_preview(o, r->value, r->value_len, preview_bytes);
    if (r->copies > 1) out_printf(o, " (%u copies here)", r->copies);
    if (side_cause) out_printf(o, " [%s]", side_cause);
    out_ch(o, '\n');
}

/* Offset mode was chosen for a same-named partition with overlapping offsets, but what was
 * read says the two are not replicas of one partition: say why, and what compares them. */
static void mirror_hint(ss_out *o, const ss_diff_pair *p) {
    bool ids_differ = p->a.topic_id && p->b.topic_id && strcmp(p->a.topic_id, p->b.topic_id) != 0;
    out_lit(o, "  this looks like a mirror, not replicas of one partition:");
    if (ids_differ) {
        /* KIP-516: a topic's id is given at its creation and kept by every replica */
        out_lit(o, " the topic ids differ (partition.metadata: A ");
        out_text_cstr(o, p->a.topic_id);
        out_lit(o, ", B ");
        out_text_cstr(o, p->b.topic_id);
        out_lit(o, "; or the topic was deleted and created again)");
    }
    if (p->differing_same_epoch) {
        /* a follower appends the leader's batches of an epoch unchanged (KIP-101, KIP-279) */
        out_printf(o, "%s %llu %s differ within a leader epoch both sides hold, which replicas cannot",
                   ids_differ ? ";" : "", (unsigned long long)p->differing_same_epoch,
                   plural(p->differing_same_epoch, "offset's records", "offsets' records"));
    }
    out_lit(o, "; 'segscan diff --by content' compares the records whatever their offsets\n");
}

/* Content mode with --read-committed: the counts comparing the sides rest on the aborted
 * transactions of both, which a failed analysis of either leaves unknown (diff.h). */
static bool counts_unknown(const diff_cli *c, const ss_diff_pair *p) {
    return p->mode == SS_DIFF_CONTENT && c->o.read_committed && (p->analysis_failed_a || p->analysis_failed_b);
}

static void human_pair(ss_out *o, const diff_cli *c, const ss_diff_pair *p) {
    out_name(o, p->partition);
    out_printf(o, ": mode %s%s\n", ss_diff_mode_name(p->mode),
               p->mode_auto ? (p->mode == SS_DIFF_OFFSET ? " (same partition, overlapping offsets)"
                                                         : " (different partitions or offsets: a mirror)")
                            : "");
    for (int s = 0; s < 2; s++) {
        const ss_diff_side *sd = s ? &p->b : &p->a;
        out_printf(o, "  %c: ", s ? 'B' : 'A');
        out_name(o, sd->path);
        out_lit(o, ": ");
        if (sd->first_offset >= 0)
            out_printf(o, "offsets %lld..%lld, %llu %s", (long long)sd->first_offset, (long long)sd->next_offset - 1,
                       (unsigned long long)sd->records, plural(sd->records, "record", "records"));
        else out_lit(o, "empty");
        if (sd->damaged_bytes)
            out_printf(o, ", %llu damaged %s", (unsigned long long)sd->damaged_bytes,
                       plural(sd->damaged_bytes, "byte", "bytes"));
        out_ch(o, '\n');
    }
    if (counts_unknown(c, p)) {
        out_printf(o,
                   "  differences unknown: the analysis of %s failed, and the records of aborted transactions "
                   "--read-committed leaves out are unknown there\n",
                   p->analysis_failed_a && p->analysis_failed_b ? "A and B"
                   : p->analysis_failed_a                       ? "A"
                                                                : "B");
    } else if (p->identical) {
        out_lit(o, "  identical");
        if (p->mode == SS_DIFF_OFFSET && (p->compacted_a || p->compacted_b))
            out_printf(o, " in content (compaction removed %llu %s in A, %llu in B)",
                       (unsigned long long)p->compacted_a, plural(p->compacted_a, "record", "records"),
                       (unsigned long long)p->compacted_b);
        out_ch(o, '\n');
    } else if (p->mode == SS_DIFF_OFFSET) {
        out_printf(o, "  differ: %llu %s only in A, %llu only in B, %llu differing", (unsigned long long)p->only_a,
                   plural(p->only_a, "record", "records"), (unsigned long long)p->only_b,
                   (unsigned long long)p->differing);
        if (p->compacted_a || p->compacted_b)
            out_printf(o, "; compaction (not a difference): %llu in A, %llu in B", (unsigned long long)p->compacted_a,
                       (unsigned long long)p->compacted_b);
        out_ch(o, '\n');
        for (int s = 0; s < 2; s++) {
            uint64_t n = s ? p->lost_b : p->lost_a;
            if (n)
                out_printf(o,
                           "  %llu %s lost in %c: missing inside its offsets where the log shows no cleaning that "
                           "would remove %s (not compaction)\n",
                           (unsigned long long)n, plural(n, "record", "records"), s ? 'B' : 'A',
                           n == 1 ? "it" : "them");
        }
        if (p->first_divergent_offset >= 0)
            out_printf(o, "  first divergent offset %lld (partitionLeaderEpoch A %d, B %d)\n",
                       (long long)p->first_divergent_offset, p->divergent_epoch_a, p->divergent_epoch_b);
        if (p->truncation_offset >= 0)
            out_printf(o, "  last leader epoch both hold: %d; a follower would truncate to offset %lld%s\n",
                       p->shared_epoch, (long long)p->truncation_offset,
                       p->a.epochs_from_checkpoint || p->b.epochs_from_checkpoint ? " (leader-epoch-checkpoint)" : "");
        else if (p->a.nepochs && p->b.nepochs)
            out_lit(o, "  no leader epoch in common: a follower would truncate to its log start\n");
    } else {
        out_printf(o,
                   "  differ: %llu %s missing from B (%llu %s absent, %llu with fewer copies), "
                   "%llu %s only in B (%llu %s absent from A, %llu with more copies)\n",
                   (unsigned long long)p->missing_in_b, plural(p->missing_in_b, "copy", "copies"),
                   (unsigned long long)p->values_missing_in_b, plural(p->values_missing_in_b, "value", "values"),
                   (unsigned long long)p->values_more_copies_a, (unsigned long long)p->only_in_b,
                   plural(p->only_in_b, "copy", "copies"), (unsigned long long)p->values_only_in_b,
                   plural(p->values_only_in_b, "value", "values"), (unsigned long long)p->values_more_copies_b);
    }
    if (p->looks_like_mirror) mirror_hint(o, p);
    if (p->mode == SS_DIFF_CONTENT && !counts_unknown(c, p) && (p->ignored_aborted_a || p->ignored_aborted_b))
        out_printf(o, "  left out as aborted: %llu in A, %llu in B\n", (unsigned long long)p->ignored_aborted_a,
                   (unsigned long long)p->ignored_aborted_b);
    for (size_t i = 0; i < p->nranges; i++) {
        const ss_diff_range *r = &p->ranges[i];
        out_printf(o, "  %s %lld..%lld (%llu %s)", ss_diff_kind_name(r->kind), (long long)r->from, (long long)r->to,
                   (unsigned long long)r->records, plural(r->records, "record", "records"));
        const char *w = where_text(r->kind, r->where);
        if (*w) out_printf(o, ", %s", w);
        out_ch(o, '\n');
    }
    if (p->ranges_total > p->nranges)
        out_printf(o, "  ... %llu more %s\n", (unsigned long long)(p->ranges_total - p->nranges),
                   plural(p->ranges_total - p->nranges, "range", "ranges"));
    if (c->stat || p->nitems == 0) return;
    out_lit(o, "--- A ");
    out_name(o, p->a.path);
    out_lit(o, "\n+++ B ");
    out_name(o, p->b.path);
    out_ch(o, '\n');
    for (size_t i = 0; i < p->nitems; i++) {
        const ss_diff_item *it = &p->items[i];
        if (it->a.present) human_rec_line(o, '-', &it->a, it->a.cause ? ss_cause_name(it->a.cause) : NULL);
        if (it->b.present) human_rec_line(o, '+', &it->b, it->b.cause ? ss_cause_name(it->b.cause) : NULL);
    }
    if (p->items_total > p->nitems)
        out_printf(o, "... %llu more %s (--max)\n", (unsigned long long)(p->items_total - p->nitems),
                   plural(p->items_total - p->nitems, "difference", "differences"));
}


static void json_side(ss_out *o, const char *k, const ss_diff_side *s) {
    out_printf(o, ",\"%s\":{\"path\":", k);
    if (s->path) out_json_cstr(o, s->path);
    else out_lit(o, "null");
    KV_OPT(o, "firstOffset", s->first_offset);
    KV_OPT(o, "nextOffset", s->next_offset);
    KV_U64(o, "records", s->records);
    KV_U64(o, "controlRecords", s->control_records);
    KV_U64(o, "damagedBytes", s->damaged_bytes);
    out_lit(o, ",\"topicId\":");
    if (s->topic_id) out_json_cstr(o, s->topic_id);
    else out_lit(o, "null");
    out_lit(o, ",\"leaderEpochs\":[");
    for (size_t i = 0; i < s->nepochs; i++) {
        if (i) out_ch(o, ',');
        out_printf(o, "[%d,%lld]", s->epochs[i], (long long)s->epoch_starts[i]);
    }
    out_lit(o, "]}");
}

/* One side of a listed difference. copies and cause belong to content mode:
 * they follow the mode the pair was compared in, not the one asked for. */
static void json_rec(ss_out *o, const diff_cli *c, enum ss_diff_mode mode, const char *k, const ss_diff_rec *r) {
    out_printf(o, ",\"%s\":", k);
    if (!r->present) {
        out_lit(o, "null");
        return;
    }
    out_lit(o, "{\"offset\":");
    out_i64(o, r->offset);
    KV_I64(o, "timestamp", r->timestamp);
    KV_I64(o, "partitionLeaderEpoch", r->partition_leader_epoch);
    KV_I64(o, "keySize", r->key_len);
    KV_I64(o, "valueSize", r->value_len);
    /* whole keys and values: a machine re-produces the missing records from them */
    out_lit(o, ",\"key\":");
    if (out_json_bytes(o, c->bytes, r->key, r->key && r->key_len >= 0 ? r->key_len : -1))
        out_lit(o, ",\"keyLossy\":true");
    out_lit(o, ",\"value\":");
    if (out_json_bytes(o, c->bytes, r->value, r->value && r->value_len >= 0 ? r->value_len : -1))
        out_lit(o, ",\"valueLossy\":true");
    out_lit(o, ",\"truncated\":false");
    if (mode == SS_DIFF_CONTENT) {
        KV_U64(o, "copies", r->copies);
        out_lit(o, ",\"cause\":");
        if (r->cause) out_json_cstr(o, ss_cause_name(r->cause));
        else out_lit(o, "null");
    }
    out_ch(o, '}');
}

/* A count, or null when it is unknown. */
static void kv_count(ss_out *o, const char *k, uint64_t v, bool known) {
    out_printf(o, ",\"%s\":", k);
    if (known) out_printf(o, "%llu", (unsigned long long)v);
    else out_lit(o, "null");
}

static void json_pair(ss_out *o, const diff_cli *c, const ss_diff_pair *p) {
    bool unknown = counts_unknown(c, p);
    out_lit(o, "{\"type\":\"summary\",\"partition\":");
    out_json_cstr(o, p->partition);
    out_printf(o, ",\"mode\":\"%s\",\"modeAuto\":%s,\"identical\":%s", ss_diff_mode_name(p->mode),
               p->mode_auto ? "true" : "false",
               unknown        ? "null"
               : p->identical ? "true"
                              : "false");
    KV_OPT(o, "firstDivergentOffset", p->first_divergent_offset);
    if (p->mode == SS_DIFF_OFFSET) {
        KV_U64(o, "onlyInA", p->only_a);
        KV_U64(o, "onlyInB", p->only_b);
        KV_U64(o, "differing", p->differing);
        KV_U64(o, "compactedInA", p->compacted_a);
        KV_U64(o, "compactedInB", p->compacted_b);
        KV_U64(o, "lostInA", p->lost_a);
        KV_U64(o, "lostInB", p->lost_b);
        if (p->first_divergent_offset >= 0) {
            KV_I64(o, "partitionLeaderEpochA", p->divergent_epoch_a);
            KV_I64(o, "partitionLeaderEpochB", p->divergent_epoch_b);
        }
        KV_OPT(o, "sharedLeaderEpoch", p->shared_epoch);
        KV_OPT(o, "truncationOffset", p->truncation_offset);
        KV_U64(o, "differingInSharedEpoch", p->differing_same_epoch);
        out_printf(o, ",\"looksLikeMirror\":%s", p->looks_like_mirror ? "true" : "false");
    } else {
        out_printf(o, ",\"by\":\"%s\"", ss_by_name(c->o.by));
        bool rc = c->o.read_committed, fa = p->analysis_failed_a, fb = p->analysis_failed_b;
        kv_count(o, "onlyInA", p->missing_in_b, !unknown);
        kv_count(o, "onlyInB", p->only_in_b, !unknown);
        KV_U64(o, "differing", 0);
        kv_count(o, "distinctA", p->distinct_a, !(rc && fa));
        kv_count(o, "distinctB", p->distinct_b, !(rc && fb));
        kv_count(o, "valuesMissingInB", p->values_missing_in_b, !unknown);
        kv_count(o, "valuesOnlyInB", p->values_only_in_b, !unknown);
        kv_count(o, "valuesMoreCopiesInA", p->values_more_copies_a, !unknown);
        kv_count(o, "valuesMoreCopiesInB", p->values_more_copies_b, !unknown);
        kv_count(o, "ignoredAbortedA", p->ignored_aborted_a, !(rc && fa));
        kv_count(o, "ignoredAbortedB", p->ignored_aborted_b, !(rc && fb));
        /* only when a side's analysis failed: the output is otherwise as before */
        if (fa || fb) out_printf(o, ",\"analysisFailed\":[%s]", fa && fb ? "\"A\",\"B\"" : fa ? "\"A\"" : "\"B\"");
    }
    json_side(o, "a", &p->a);
    json_side(o, "b", &p->b);
    out_lit(o, "}\n");
    for (size_t i = 0; i < p->nranges; i++) {
        const ss_diff_range *r = &p->ranges[i];
        out_lit(o, "{\"type\":\"range\",\"partition\":");
        out_json_cstr(o, p->partition);
        out_printf(o, ",\"kind\":\"%s\",\"where\":\"%s\"", ss_diff_kind_name(r->kind),
                   r->where == SS_DW_BEFORE    ? "before"
                   : r->where == SS_DW_AFTER   ? "after"
                   : r->where == SS_DW_DAMAGED ? "damaged"
                                               : "inside");
        KV_I64(o, "from", r->from);
        KV_I64(o, "to", r->to);
        KV_U64(o, "records", r->records);
        out_lit(o, "}\n");
    }
    if (c->stat) return;
    for (size_t i = 0; i < p->nitems; i++) {
        const ss_diff_item *it = &p->items[i];
        out_lit(o, "{\"type\":\"difference\",\"partition\":");
        out_json_cstr(o, p->partition);
        out_printf(o, ",\"kind\":\"%s\"", ss_diff_kind_name(it->kind));
        json_rec(o, c, p->mode, "a", &it->a);
        json_rec(o, c, p->mode, "b", &it->b);
        out_lit(o, "}\n");
    }
}

static int load_side(const char *path, bool include_temp, ss_inputs **out) {
    ss_inputs *in = ss_inputs_new(include_temp);
    if (!in) return EXIT_TROUBLE;
    if (ss_inputs_is_export(path)) {
        warnx_("diff: %s is an export (segscan export): it holds the records' fingerprints, not the bytes diff "
               "compares; diff the log directories, or compare exports in SQL (README, Many brokers)",
               path);
        ss_inputs_finish(in);
        *out = in; /* none read */
        return EXIT_TROUBLE;
    }
    int rc = EXIT_OK;
    if (ss_inputs_add(in, path) != SS_E_OK) rc = EXIT_TROUBLE;
    ss_inputs_finish(in);
    warn_problems(ss_inputs_problems(in), false);
    *out = in;
    return rc;
}

int cmd_diff(int argc, char **argv) {
    diff_cli c;
    memset(&c, 0, sizeof c);
    ss_diff_opts_default(&c.o);
    c.o.max_items = 20;
    c.bytes = BYTES_UTF8;
    bool include_temp = false;
    int opt;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, "h", diff_longopts, NULL)) != -1) {
        switch (opt) {
        case OPT_BY:
            if (!strcmp(optarg, "offset")) c.o.mode = SS_DIFF_OFFSET;
            else if (!strcmp(optarg, "content")) c.o.mode = SS_DIFF_CONTENT;
            else if (!strcmp(optarg, "value")) c.o.mode = SS_DIFF_CONTENT, c.o.by = SS_BY_VALUE;
            else if (!strcmp(optarg, "key")) c.o.mode = SS_DIFF_CONTENT, c.o.by = SS_BY_KEY;
            else if (!strcmp(optarg, "key+value")) c.o.mode = SS_DIFF_CONTENT, c.o.by = SS_BY_KEY_VALUE;
            else {
                warnx_("diff: --by takes offset, content, value, key or key+value");
                return EXIT_TROUBLE;
            }
            break;
        case OPT_BYKEY:
            c.o.mode = SS_DIFF_CONTENT;
            c.o.by = SS_BY_KEY;
            break;
        case OPT_RC: c.o.read_committed = true; break;
        case OPT_STAT: c.stat = true; break;
        case OPT_JSON: c.json = true; break;
        case OPT_TEMP: include_temp = true; break;
        case OPT_LOCALTIME: cli_local_time = true; break;
        case OPT_PREVIEW: {
            uint64_t v;
            if (!parse_u64(optarg, &v) || v > 1000000) {
                warnx_("diff: --preview-bytes needs a number up to 1000000");
                return EXIT_TROUBLE;
            }
            preview_bytes = (size_t)v;
            break;
        }
        case OPT_MAX: {
            uint64_t v;
            if (!parse_u64(optarg, &v) || v > 1000000) {
                warnx_("diff: --max needs a number up to 1000000");
                return EXIT_TROUBLE;
            }
            c.o.max_items = (size_t)v;
            break;
        }
        case OPT_MAXBATCH: {
            uint64_t v;
            if (!parse_u64(optarg, &v) || v == 0) {
                warnx_("diff: --max-batch-bytes needs a positive number");
                return EXIT_TROUBLE;
            }
            c.o.max_batch_bytes = (size_t)v;
            break;
        }
        case OPT_BYTES:
            if (parse_bytes_mode(optarg, &c.bytes) != 0) {
                warnx_("diff: --bytes takes utf8, hex or base64");
                return EXIT_TROUBLE;
            }
            break;
        case 'h': fputs(diff_usage, stdout); return EXIT_OK;
        default: return bad_option("diff", argv, optind, optopt);
        }
    }
    if (argc - optind != 2) {
        warnx_("diff: give exactly two paths, A and B");
        fputs(diff_usage, stderr);
        return EXIT_TROUBLE;
    }
    if (c.stat) c.o.max_items = 0;
    const char *pa = argv[optind], *pb = argv[optind + 1];
    if (!strcmp(pa, "-") || !strcmp(pb, "-")) {
        /* the two sides are paired by their paths (partitions, log directories) */
        warnx_("diff: '-' (standard input) cannot be compared: give two segment files, partitions or log "
               "directories");
        return EXIT_TROUBLE;
    }
    ss_inputs *A = NULL, *B = NULL;
    int rc = exit_merge(load_side(pa, include_temp, &A), load_side(pb, include_temp, &B));
    if (rc == EXIT_TROUBLE && (!ss_inputs_count(A) || !ss_inputs_count(B))) {
        ss_inputs_free(A);
        ss_inputs_free(B);
        return EXIT_TROUBLE;
    }
    ss_diff *d = NULL;
    if (ss_diff_run(A, B, &c.o, &d) != SS_E_OK) {
        warnx_("diff: out of memory");
        ss_inputs_free(A);
        ss_inputs_free(B);
        return EXIT_TROUBLE;
    }
    ss_out o;
    out_init(&o, stdout);
    bool different = ss_diff_unpaired_count(d) > 0;
    bool damaged = false, unreadable = false;
    if (!c.json) {
        out_lit(&o, "segscan diff\n  A = ");
        out_name(&o, pa);
        out_lit(&o, "\n  B = ");
        out_name(&o, pb);
        out_ch(&o, '\n');
    }
    for (size_t i = 0; i < ss_diff_pair_count(d); i++) {
        const ss_diff_pair *p = ss_diff_pair_at(d, i);
        if (!p->identical) different = true;
        if (p->a.damaged_bytes || p->b.damaged_bytes || p->a.damage_events || p->b.damage_events) damaged = true;
        if (p->a.unreadable || p->b.unreadable) unreadable = true;
        if (c.json) json_pair(&o, &c, p);
        else human_pair(&o, &c, p);
    }
    for (size_t i = 0; i < ss_diff_unpaired_count(d); i++) {
        char side;
        const ss_input_partition *p = ss_diff_unpaired_at(d, i, &side);
        if (c.json) {
            out_printf(&o, "{\"type\":\"unpaired\",\"side\":\"%c\",\"partition\":", side);
            out_json_cstr(&o, p->name);
            out_lit(&o, ",\"path\":");
            out_json_cstr(&o, p->path ? p->path : "-");
            out_lit(&o, "}\n");
        } else {
            out_name(&o, p->name);
            out_printf(&o, ": only in %c (", side);
            out_name(&o, p->path);
            out_lit(&o, ")\n");
        }
    }
    if (!c.json && ss_diff_pair_count(d) == 0 && ss_diff_unpaired_count(d) == 0) out_lit(&o, "nothing to compare\n");
    out_free(&o);
    /* a side's analysis that failed: what it would have told is unknown, as for an input that
     * cannot be read */
    warn_problems(ss_diff_problems(d), false);
    if (ss_problems_count(ss_diff_problems(d))) unreadable = true;
    ss_diff_free(d);
    ss_inputs_free(A);
    ss_inputs_free(B);
    if (o.failed || unreadable) rc = exit_merge(rc, EXIT_TROUBLE);
    if (damaged) rc = exit_merge(rc, EXIT_DAMAGE);
    if (different) rc = exit_merge(rc, EXIT_FINDINGS);
    return rc;
}
