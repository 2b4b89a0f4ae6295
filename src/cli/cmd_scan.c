/* segscan [scan] PATH... - what is in these partitions, and what is duplicated?
 *
 * Also the shared front end of dups, producers, txns and explain: one option
 * parser, one run of the library's analysis, the exit code. This file prints
 * the summary (text) and the partition / total objects (JSON Lines).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "common.h"
#include "out.h"
#include "progress.h"
#include "scan.h"

static const char scan_usage_common[] =
    "  --json                   JSON Lines, one object per partition/group/session/transaction,\n"
    "                           each with a \"type\"\n"
    "  --report FILE            also write the key=value report to FILE ('-': standard output)\n"
    "  --by value|key|key+value what identifies a copy (default value)\n"
    "  --bytes utf8|hex|base64  how --json writes keys and values (default utf8)\n"
    "  --min-bytes N            do not group fingerprinted fields shorter than N bytes\n"
    "  --across-topics          group copies across topics too\n"
    "  --include-internal       include internal topics (__*) found in a log directory\n"
    "  --include-temp           read broker temporaries (.deleted/.cleaned/.swap, -delete/-stray/-future)\n"
    "  --since TIME, --until TIME   records in this time window only (ISO-8601 or epoch ms)\n"
    "  --from-offset N, --to-offset N   records in this offset window only\n"
    "  --producer-id N          batches of this producer only\n"
    "  --no-seek                read whole segments even with a window (by default the\n"
    "                           .index/.timeindex files let segscan skip to the window)\n"
    "  --txn-timeout DURATION   open transactions older than this hang (default 15m)\n"
    "  --now TIME               'now' for --txn-timeout (default: the partition's largest maxTimestamp)\n"
    "  --top N                  duplicate groups shown: in scan's summary (default 10), by dups\n"
    "                           (default all)\n"
    "  --fail-on dups,gaps,open-txn  exit 1 when these are found\n"
    "  --color auto|always|never  colour on a terminal (NO_COLOR honoured)\n"
    "  --local-time             text times in the local time of TZ with its UTC offset\n"
    "                           (default UTC, ...Z); JSON keeps epoch milliseconds\n"
    "  --max-batch-bytes N      cap on a batch's decompressed size (default 67108864)\n"
    "  --threads N              reading threads, 1..256 (default: one per online CPU); results\n"
    "                           are the same for every N\n"
    "  --max-memory SIZE        memory for the fingerprint tables (K, M, G, T suffixes; default half\n"
    "                           of the RAM; 0: no limit); past it they spill to temporary files\n"
    "                           in $TMPDIR, with the same results\n"
    "  --progress auto|always|never  a progress line on stderr (auto: when stderr is a\n"
    "                           terminal, not in CI, and the run takes over a second)\n"
    "  -v, --verbose            more detail;  -q, --quiet: no notes on stderr\n"
    "  -h, --help               this help\n"
    "\n"
    "A PATH is a segment file, a partition directory or a log directory; '-' reads a segment\n"
    "from standard input.\n"
    "exit codes: 0 done, 1 --fail-on matched, 2 usage or unreadable input, 3 damaged input met\n";

static const char *const mode_names[] = {"scan", "dups", "producers", "txns", "explain"};
static const char *const mode_lines[] = {
    "Summarise partitions: records, producers, duplicate copies and their causes, sequences,\n"
    "transactions, damage.",
    "Every duplicate group with every copy (partition, offset, timestamp, producer, sequence, cause).",
    "The producer sessions: (producer id, epoch) per partition with sequence ranges, gaps and repeats.",
    "The transactions per producer and partition, the last stable offset and read_committed counts.",
    "Every copy of the matching record(s) and, for each, why it exists.\n"
    "  --value V | --value-hex HEX | --value-contains S | --key K | --offset PARTITION:OFFSET",
};

static void usage(FILE *f, int mode) {
    fprintf(f, "usage: segscan %s%s [options] PATH...\n\n%s\n\n", mode_names[mode],
            mode == MODE_EXPLAIN ? " (--value V|--value-hex H|--value-contains S|--key K|--offset P:O)" : "",
            mode_lines[mode]);
    fputs(scan_usage_common, f);
}

enum {
    O_JSON = 300,
    O_REPORT,
    O_BY,
    O_BYTES,
    O_MINBYTES,
    O_ACROSS,
    O_INTERNAL,
    O_TEMP,
    O_SINCE,
    O_UNTIL,
    O_FROM,
    O_TO,
    O_PID,
    O_TXNTIMEOUT,
    O_NOW,
    O_TOP,
    O_FAILON,
    O_COLOR,
    O_MAXBATCH,
    O_VALUE,
    O_VALUEHEX,
    O_VALUECONTAINS,
    O_KEY,
    O_OFFSET,
    O_NOSEEK,
    O_THREADS,
    O_MAXMEM,
    O_PROGRESS,
    O_LOCALTIME,
};

static const struct option scan_longopts[] = {
    {"json", no_argument, NULL, O_JSON},
    {"report", required_argument, NULL, O_REPORT},
    {"by", required_argument, NULL, O_BY},
    {"bytes", required_argument, NULL, O_BYTES},
    {"min-bytes", required_argument, NULL, O_MINBYTES},
    {"across-topics", no_argument, NULL, O_ACROSS},
    {"include-internal", no_argument, NULL, O_INTERNAL},
    {"include-temp", no_argument, NULL, O_TEMP},
    {"since", required_argument, NULL, O_SINCE},
    {"until", required_argument, NULL, O_UNTIL},
    {"from-offset", required_argument, NULL, O_FROM},
    {"to-offset", required_argument, NULL, O_TO},
    {"producer-id", required_argument, NULL, O_PID},
    {"txn-timeout", required_argument, NULL, O_TXNTIMEOUT},
    {"now", required_argument, NULL, O_NOW},
    {"top", required_argument, NULL, O_TOP},
    {"fail-on", required_argument, NULL, O_FAILON},
    {"color", required_argument, NULL, O_COLOR},
    {"colour", required_argument, NULL, O_COLOR},
    {"local-time", no_argument, NULL, O_LOCALTIME},
    {"max-batch-bytes", required_argument, NULL, O_MAXBATCH},
    {"value", required_argument, NULL, O_VALUE},
    {"value-hex", required_argument, NULL, O_VALUEHEX},
    {"value-contains", required_argument, NULL, O_VALUECONTAINS},
    {"key", required_argument, NULL, O_KEY},
    {"offset", required_argument, NULL, O_OFFSET},
    {"no-seek", no_argument, NULL, O_NOSEEK},
    {"threads", required_argument, NULL, O_THREADS},
    {"max-memory", required_argument, NULL, O_MAXMEM},
    {"progress", required_argument, NULL, O_PROGRESS},
    {"verbose", no_argument, NULL, 'v'},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* ---- shared helpers ---------------------------------------------------------------- */

const char *scan_sgr(const struct scan_cli *c, const char *code) { return c->color ? code : ""; }

void scan_time(char *buf, size_t n, int64_t ms) {
    if (ms < 0) {
        snprintf(buf, n, "-");
        return;
    }
    char iso[40];
    cli_format_time(ms, iso, sizeof iso);
    snprintf(buf, n, "%s (%" PRId64 ")", iso, ms);
}

const char *scan_part_name(const struct scan_cli *c, uint32_t part) {
    return ss_an_partition_at(c->an, part)->input->name;
}

static bool looks_binary(const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i] < 0x09 || (p[i] > 0x0d && p[i] < 0x20) || p[i] == 0x7f) return true;
    return false;
}

void scan_preview(ss_out *o, const uint8_t *p, int32_t len, size_t max) {
    if (len < 0) {
        out_str(o, "null");
        return;
    }
    size_t n = (size_t)len, k = n < max ? n : max;
    if (looks_binary(p, k)) {
        size_t h = k < max / 2 ? k : max / 2;
        out_str(o, "0x");
        out_hex(o, p, h);
        if (h < n) out_str(o, "\xe2\x80\xa6");
    } else {
        /* do not cut inside a UTF-8 sequence */
        while (k < n && k > 0 && (p[k] & 0xc0) == 0x80) k--;
        out_json_utf8(o, p, k);
        if (k < n) out_str(o, "\xe2\x80\xa6");
    }
    if (n > max || n == 0) out_printf(o, " (%zu %s)", n, plural(n, "byte", "bytes"));
}

const char *scan_txn_id(const struct scan_cli *c, int64_t producer_id, size_t *len) {
    if (!c->txn_ids || producer_id < 0) return NULL;
    const ss_txn_id *t = ss_txn_ids_find(c->txn_ids, producer_id);
    if (!t) return NULL;
    *len = t->transactional_id_len;
    return t->transactional_id;
}

void scan_json_bytes(ss_out *o, enum bytes_mode m, const char *name, const uint8_t *p, int32_t len) {
    out_json_key(o, name);
    if (out_json_bytes(o, m, p, len)) {
        out_str(o, ",\"");
        out_str(o, name);
        out_str(o, "Lossy\":true");
    }
}

/* ---- JSON objects ------------------------------------------------------------------ */

void scan_json_partition(struct scan_cli *c, uint32_t i) {
    ss_out *o = c->out;
    const ss_an_partition *P = ss_an_partition_at(c->an, i);
    const ss_input_partition *ip = P->input;
    out_str(o, "{\"type\":\"partition\",\"partition\":");
    out_json_cstr(o, ip->name);
    out_json_key(o, "topic");
    out_json_cstr(o, ip->topic);
    out_kv_opt(o, "partitionNumber", ip->partition);
    out_json_key(o, "path");
    out_json_cstr(o, ip->path);
    out_kv_u64(o, "segments", P->segments);
    out_kv_u64(o, "records", P->records);
    out_kv_u64(o, "batches", P->batches);
    out_kv_u64(o, "controlRecords", P->control_records);
    out_kv_u64(o, "controlBatches", P->control_batches);
    out_kv_opt(o, "firstOffset", P->first_offset);
    out_kv_opt(o, "nextOffset", P->next_offset);
    out_kv_opt(o, "firstTimestamp", P->has_timestamps ? P->min_timestamp : -1);
    out_kv_opt(o, "lastTimestamp", P->has_timestamps ? P->max_timestamp : -1);
    out_str(o, ",\"codecs\":{");
    bool first = true;
    for (int k = 0; k < 8; k++) {
        if (!P->codec_batches[k]) continue;
        if (!first) out_ch(o, ',');
        first = false;
        out_json_cstr(o, k < 5 ? ss_codec_name(k) : "unknown");
        out_ch(o, ':');
        out_u64(o, P->codec_batches[k]);
    }
    out_ch(o, '}');
    out_kv_u64(o, "duplicateGroups", P->duplicate_groups);
    out_kv_u64(o, "duplicateRecords", P->duplicate_records);
    out_kv_u64(o, "maxCopies", P->max_copies);
    out_kv_bool(o, "duplicatesExcluded", P->dups_excluded);
    out_kv_u64(o, "producers", P->producers);
    out_kv_u64(o, "sessions", P->sessions);
    out_kv_u64(o, "nonIdempotentRecords", P->non_idempotent_records);
    out_kv_u64(o, "sequenceGaps", P->sequence_gaps);
    out_kv_u64(o, "sequenceGapsExplained", P->sequence_gaps_explained);
    out_kv_u64(o, "duplicateSequences", P->duplicate_sequences);
    out_kv_u64(o, "outOfOrderBatches", P->out_of_order_batches);
    out_kv_u64(o, "epochBumps", P->epoch_bumps);
    out_kv_bool(o, "compacted", P->compacted);
    out_kv_opt(o, "lastStableOffset", P->lso);
    out_kv_opt(o, "highWatermark", ip->high_watermark);
    out_kv_opt(o, "logStartOffset", ip->log_start_offset);
    out_kv_u64(o, "readCommittedRecords", P->read_committed_records);
    out_kv_u64(o, "committed", P->txn_committed);
    out_kv_u64(o, "aborted", P->txn_aborted);
    out_kv_u64(o, "open", P->txn_open);
    out_kv_u64(o, "hanging", P->txn_hanging);
    out_kv_u64(o, "empty", P->txn_empty);
    out_kv_u64(o, "abortedRecords", P->aborted_records);
    out_kv_opt(o, "now", P->now_ms);
    out_kv_u64(o, "damagedBytes", P->damaged_bytes);
    out_kv_u64(o, "tailBytes", P->tail_bytes);
    out_kv_u64(o, "skippedLargeBatches", P->skipped_large_batches);
    out_kv_u64(o, "hiddenBelowLogStart", P->hidden_below_log_start);
    out_kv_u64(o, "outsideWindow", P->outside_window);
    out_kv_u64(o, "segmentsSkipped", P->segments_skipped);
    out_kv_u64(o, "bytesSkipped", P->bytes_skipped);
    out_str(o, "}\n");
}

static void json_total(struct scan_cli *c) {
    ss_out *o = c->out;
    const ss_an_totals *t = ss_an_totals_get(c->an);
    out_str(o, "{\"type\":\"total\"");
    out_kv_u64(o, "partitions", t->partitions);
    out_kv_u64(o, "segments", t->segments);
    out_kv_u64(o, "records", t->records);
    out_kv_u64(o, "batches", t->batches);
    out_kv_u64(o, "controlRecords", t->control_records);
    out_kv_u64(o, "duplicateGroups", t->duplicate_groups);
    out_kv_u64(o, "duplicateRecords", t->duplicate_records);
    out_kv_u64(o, "maxCopies", t->max_copies);
    out_kv_u64(o, "producers", t->producers);
    out_kv_u64(o, "sessions", t->sessions);
    out_kv_u64(o, "nonIdempotentRecords", t->non_idempotent_records);
    out_kv_u64(o, "sequenceGaps", t->sequence_gaps);
    out_kv_u64(o, "sequenceGapsExplained", t->sequence_gaps_explained);
    out_kv_u64(o, "duplicateSequences", t->duplicate_sequences);
    out_kv_u64(o, "outOfOrderBatches", t->out_of_order_batches);
    out_kv_u64(o, "epochBumps", t->epoch_bumps);
    out_kv_u64(o, "readCommittedRecords", t->read_committed_records);
    out_kv_u64(o, "committed", t->txn_committed);
    out_kv_u64(o, "aborted", t->txn_aborted);
    out_kv_u64(o, "open", t->txn_open);
    out_kv_u64(o, "hanging", t->txn_hanging);
    out_kv_u64(o, "empty", t->txn_empty);
    out_kv_u64(o, "damagedBytes", t->damaged_bytes);
    out_kv_u64(o, "tailBytes", t->tail_bytes);
    out_kv_u64(o, "skippedLargeBatches", t->skipped_large_batches);
    out_kv_u64(o, "copiesInOpenTransactions", t->open_copies);
    out_str(o, ",\"causes\":{");
    for (int k = 1; k < SS_CAUSE_COUNT; k++) {
        if (k > 1) out_ch(o, ',');
        out_json_cstr(o, ss_cause_name(k));
        out_ch(o, ':');
        out_u64(o, t->cause[k]);
    }
    out_str(o, "}}\n");
}

static void json_damage(struct scan_cli *c) {
    ss_out *o = c->out;
    for (size_t i = 0; i < ss_an_damage_count(c->an); i++) {
        const ss_an_damage *d = ss_an_damage_at(c->an, i);
        const ss_input_partition *ip = ss_an_partition_at(c->an, d->partition)->input;
        const char *file = ip->segments[d->segment].path;
        out_str(o, ss_errkind_is_damage(d->err.kind) ? "{\"type\":\"error\",\"partition\":"
                                                     : "{\"type\":\"notice\",\"partition\":");
        out_json_cstr(o, ip->name);
        out_json_key(o, "file");
        out_json_cstr(o, file ? file : "-");
        out_kv_u64(o, "position", d->err.position);
        out_kv_opt(o, "baseOffset", d->err.base_offset);
        out_kv_u64(o, "length", d->err.length);
        out_json_key(o, "kind");
        out_json_cstr(o, ss_errkind_name(d->err.kind));
        out_json_key(o, "reason");
        out_json_cstr(o, d->err.msg);
        out_str(o, "}\n");
    }
}

/* ---- text summary -------------------------------------------------------------------- */

#define BOLD "\033[1m"
#define RED "\033[31m"
#define YEL "\033[33m"
#define GRN "\033[32m"
#define DIM "\033[2m"
#define RST "\033[0m"

static void text_partition(struct scan_cli *c, uint32_t i) {
    ss_out *o = c->out;
    const ss_an_partition *P = ss_an_partition_at(c->an, i);
    const ss_input_partition *ip = P->input;
    char t1[64], t2[64];
    out_printf(o, "%s%s%s  %s%s%s (%" PRIu64 " %s)\n", scan_sgr(c, BOLD), ip->name, scan_sgr(c, RST), scan_sgr(c, DIM),
               ip->path, scan_sgr(c, RST), P->segments, plural(P->segments, "segment", "segments"));
    if (P->batches == 0) {
        out_str(o, "  no batches");
        if (P->outside_window)
            out_printf(o, " in the window (%" PRIu64 " %s outside)", P->outside_window,
                       plural(P->outside_window, "record", "records"));
        out_ch(o, '\n');
    } else {
        out_printf(o, "  records       %" PRIu64 " in %" PRIu64 " %s", P->records, P->batches,
                   plural(P->batches, "batch", "batches"));
        if (P->control_batches)
            out_printf(o, " (%" PRIu64 " control %s)", P->control_batches,
                       plural(P->control_batches, "batch", "batches"));
        out_printf(o, ", offsets %" PRId64 "..%" PRId64 ", next %" PRId64 "\n", P->first_offset, P->next_offset - 1,
                   P->next_offset);
        if (P->has_timestamps) {
            scan_time(t1, sizeof t1, P->min_timestamp);
            scan_time(t2, sizeof t2, P->max_timestamp);
            out_printf(o, "  time          %s .. %s\n", t1, t2);
        }
        out_str(o, "  codecs       ");
        for (int k = 0; k < 8; k++)
            if (P->codec_batches[k])
                out_printf(o, " %s %" PRIu64, k < 5 ? ss_codec_name(k) : "unknown", P->codec_batches[k]);
        if (P->magic_batches[0] || P->magic_batches[1])
            out_printf(o, "  (magic 0: %" PRIu64 ", magic 1: %" PRIu64 ", magic 2: %" PRIu64 ")", P->magic_batches[0],
                       P->magic_batches[1], P->magic_batches[2]);
        out_ch(o, '\n');
        out_str(o, "  producers     ");
        if (P->producers)
            out_printf(o, "%" PRIu64 " with a producer id, %" PRIu64 " %s", P->producers, P->sessions,
                       plural(P->sessions, "session", "sessions"));
        if (P->producers && P->non_idempotent_records) out_str(o, "; ");
        if (P->non_idempotent_records)
            out_printf(o, "%" PRIu64 " %s without producer id (idempotence off)", P->non_idempotent_records,
                       plural(P->non_idempotent_records, "record", "records"));
        if (!P->producers && !P->non_idempotent_records) out_str(o, "none");
        if (P->epoch_bumps)
            out_printf(o, "; %" PRIu64 " epoch %s", P->epoch_bumps, plural(P->epoch_bumps, "bump", "bumps"));
        out_ch(o, '\n');
        if (!c->verbose && P->sessions && P->sessions <= 3) {
            /* a few sessions: name them (-v and 'segscan producers' say more) */
            for (size_t k = 0; k < ss_an_session_count(c->an); k++) {
                const ss_an_session *s = ss_an_session_at(c->an, k);
                if (s->partition != i) continue;
                out_printf(o, "                pid %" PRId64 " epoch %d%s: %" PRIu64 " %s", s->producer_id,
                           s->producer_epoch, s->transactional ? " (transactional)" : "", s->records,
                           plural(s->records, "record", "records"));
                if (s->nranges) {
                    out_str(o, ", sequences");
                    for (size_t r = 0; r < s->nranges; r++)
                        out_printf(o, "%s[%" PRId32 ",%" PRId32 "]", r ? "," : " ", s->ranges[r].first,
                                   s->ranges[r].last);
                }
                out_ch(o, '\n');
            }
        }
        out_str(o, "  duplicates    ");
        if (P->dups_excluded) out_str(o, "not analysed (internal topic; --include-internal)");
        else if (P->duplicate_groups)
            out_printf(o, "%s%" PRIu64 " %s, %" PRIu64 " extra %s%s, at most %" PRIu64 " copies of one %s",
                       scan_sgr(c, RED), P->duplicate_groups, plural(P->duplicate_groups, "group", "groups"),
                       P->duplicate_records, plural(P->duplicate_records, "copy", "copies"), scan_sgr(c, RST),
                       P->max_copies, ss_by_name(c->ao.by));
        else out_printf(o, "%snone%s", scan_sgr(c, GRN), scan_sgr(c, RST));
        out_ch(o, '\n');
        out_str(o, "  sequences     ");
        bool any = false;
        if (P->sequence_gaps) {
            out_printf(o, "%s%" PRIu64 " %s%s", scan_sgr(c, RED), P->sequence_gaps,
                       plural(P->sequence_gaps, "gap", "gaps"), scan_sgr(c, RST));
            any = true;
        }
        if (P->sequence_gaps_explained) {
            out_printf(o, "%s%" PRIu64 " %s explained by compaction, retention or damage", any ? ", " : "",
                       P->sequence_gaps_explained, plural(P->sequence_gaps_explained, "gap", "gaps"));
            any = true;
        }
        if (P->duplicate_sequences) {
            out_printf(o, "%s%s%" PRIu64 " %s with a sequence already seen%s", any ? ", " : "", scan_sgr(c, RED),
                       P->duplicate_sequences, plural(P->duplicate_sequences, "record", "records"), scan_sgr(c, RST));
            any = true;
        }
        if (P->out_of_order_batches) {
            out_printf(o, "%s%" PRIu64 " out-of-order %s", any ? ", " : "", P->out_of_order_batches,
                       plural(P->out_of_order_batches, "batch", "batches"));
            any = true;
        }
        if (!any) out_str(o, P->sessions ? "in order" : "-");
        if (P->compacted) out_str(o, "  (compacted log)");
        out_ch(o, '\n');
        out_str(o, "  transactions  ");
        if (P->txn_committed || P->txn_aborted || P->txn_open) {
            txns_text_counts(c, i);
            out_printf(o, ", %s%" PRIu64 " open%s", P->txn_open ? scan_sgr(c, YEL) : "", P->txn_open,
                       P->txn_open ? scan_sgr(c, RST) : "");
            if (P->txn_hanging)
                out_printf(o, " (%s%" PRIu64 " hanging%s)", scan_sgr(c, RED), P->txn_hanging, scan_sgr(c, RST));
            out_str(o, "; ");
        } else {
            out_str(o, "none; ");
        }
        out_printf(o, "LSO %" PRId64 "%s, read_committed sees %" PRIu64 " %s\n", P->lso,
                   P->lso_bounded_by_hw ? " (bounded by the high watermark)" : "", P->read_committed_records,
                   plural(P->read_committed_records, "record", "records"));
    }
    if (ip->high_watermark >= 0 || ip->log_start_offset >= 0) {
        out_str(o, "  checkpoints  ");
        if (ip->high_watermark >= 0)
            out_printf(o, " high watermark %" PRId64 " (replication-offset-checkpoint)", ip->high_watermark);
        if (ip->log_start_offset >= 0)
            out_printf(o, " log start %" PRId64 " (log-start-offset-checkpoint, %" PRIu64 " %s below it not shown)",
                       ip->log_start_offset, P->hidden_below_log_start,
                       plural(P->hidden_below_log_start, "record", "records"));
        out_ch(o, '\n');
    }
    if (P->damaged_bytes || P->damage_events)
        out_printf(o, "  %sdamaged       %" PRIu64 " %s in %" PRIu64 " %s (skipped; the rest was analysed)%s\n",
                   scan_sgr(c, RED), P->damaged_bytes, plural(P->damaged_bytes, "byte", "bytes"), P->damage_events,
                   plural(P->damage_events, "place", "places"), scan_sgr(c, RST));
    if (P->tail_bytes)
        out_printf(o, "  tail          %" PRIu64 " unread %s at the end (incomplete or preallocated)\n", P->tail_bytes,
                   plural(P->tail_bytes, "byte", "bytes"));
    if (P->skipped_large_batches)
        out_printf(o, "  skipped       %" PRIu64 " %s larger than --max-batch-bytes\n", P->skipped_large_batches,
                   plural(P->skipped_large_batches, "batch", "batches"));
    if ((P->outside_window && P->batches) || P->segments_skipped || P->bytes_skipped) {
        out_str(o, "  window        ");
        if (P->outside_window)
            out_printf(o, "%" PRIu64 " %s read outside the window left out; ", P->outside_window,
                       plural(P->outside_window, "record", "records"));
        out_printf(o, "%" PRIu64 " %s and %" PRIu64 " %s not read (index files and segment names)\n",
                   P->segments_skipped, plural(P->segments_skipped, "segment", "segments"), P->bytes_skipped,
                   plural(P->bytes_skipped, "byte", "bytes"));
    }
    if (c->verbose) producers_text_partition(c, i);
    out_ch(o, '\n');
}

static bool has_findings(const ss_an_partition *P) {
    return P->duplicate_groups || P->sequence_gaps || P->duplicate_sequences || P->txn_open || P->damage_events ||
           P->tail_bytes || P->segments_unreadable || P->skipped_large_batches;
}

static void text_summary(struct scan_cli *c) {
    ss_out *o = c->out;
    size_t np = ss_an_partition_count(c->an);
    /* many partitions: one line for each without findings (-v: every block) */
    bool compact = np > 20 && !c->verbose;
    size_t quiet = 0;
    for (uint32_t i = 0; i < np; i++) {
        const ss_an_partition *P = ss_an_partition_at(c->an, i);
        if (compact && !has_findings(P)) {
            quiet++;
            out_printf(o, "%s%s%s  %" PRIu64 " %s", scan_sgr(c, BOLD), P->input->name, scan_sgr(c, RST), P->records,
                       plural(P->records, "record", "records"));
            if (P->batches) out_printf(o, ", offsets %" PRId64 "..%" PRId64, P->first_offset, P->next_offset - 1);
            out_str(o, ", nothing to report\n");
            continue;
        }
        text_partition(c, i);
    }
    if (quiet) out_ch(o, '\n');
    const ss_an_totals *t = ss_an_totals_get(c->an);
    out_printf(o, "%stotal%s  %" PRIu64 " %s, %" PRIu64 " %s, %" PRIu64 " %s in %" PRIu64 " %s\n", scan_sgr(c, BOLD),
               scan_sgr(c, RST), t->partitions, plural(t->partitions, "partition", "partitions"), t->segments,
               plural(t->segments, "segment", "segments"), t->records, plural(t->records, "record", "records"),
               t->batches, plural(t->batches, "batch", "batches"));
    out_str(o, "  duplicates    ");
    if (t->duplicate_groups) {
        out_printf(o, "%s%" PRIu64 " %s, %" PRIu64 " extra %s%s:", scan_sgr(c, RED), t->duplicate_groups,
                   plural(t->duplicate_groups, "group", "groups"), t->duplicate_records,
                   plural(t->duplicate_records, "copy", "copies"), scan_sgr(c, RST));
        for (int k = 1; k < SS_CAUSE_COUNT; k++)
            if (t->cause[k]) out_printf(o, " %s %" PRIu64, ss_cause_name(k), t->cause[k]);
        if (t->open_copies) out_printf(o, " (%" PRIu64 " in open transactions)", t->open_copies);
    } else {
        out_str(o, "none");
    }
    out_ch(o, '\n');
    out_printf(o, "  sequences     %" PRIu64 " %s, %" PRIu64 " explained, %" PRIu64 " %s with a repeated sequence\n",
               t->sequence_gaps, plural(t->sequence_gaps, "gap", "gaps"), t->sequence_gaps_explained,
               t->duplicate_sequences, plural(t->duplicate_sequences, "record", "records"));
    out_printf(o,
               "  transactions  %" PRIu64 " committed, %" PRIu64 " aborted, %" PRIu64 " open (%" PRIu64 " hanging)\n",
               t->txn_committed, t->txn_aborted, t->txn_open, t->txn_hanging);
    out_printf(o, "  damaged       %" PRIu64 " %s\n", t->damaged_bytes, plural(t->damaged_bytes, "byte", "bytes"));
    size_t ng = ss_an_group_count(c->an);
    if (ng) {
        size_t show = ng < c->top ? ng : (size_t)c->top;
        out_printf(o, "\n%sduplicate groups%s (largest first; %zu of %zu shown", scan_sgr(c, BOLD), scan_sgr(c, RST),
                   show, ng);
        if (show < ng) out_str(o, "; --top N or 'segscan dups' for more");
        out_str(o, ")\n");
        for (size_t g = 0; g < show; g++) dups_text_group(c, g, c->verbose ? SIZE_MAX : 5, false);
    }
}

/* ---- running ---------------------------------------------------------------------------- */

static int hexval(char ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}


static bool parse_fail_on(const char *s, unsigned *f) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (!strcmp(tok, "dups")) *f |= FAIL_DUPS;
        else if (!strcmp(tok, "gaps")) *f |= FAIL_GAPS;
        else if (!strcmp(tok, "open-txn")) *f |= FAIL_OPEN_TXN;
        else return false;
    }
    return true;
}

static int scan_main(int mode, int argc, char **argv) {
    struct scan_cli c;
    memset(&c, 0, sizeof c);
    c.mode = mode;
    c.bytes = BYTES_UTF8;
    c.top = 10;
    ss_an_opts_default(&c.ao);
    int color = -1; /* auto */
    bool include_temp = false;
    bool max_memory_set = false;
    struct progress prog;
    memset(&prog, 0, sizeof prog);
    prog.mode = PROGRESS_AUTO;
    uint8_t *match_buf = NULL;
    int nmatch = 0;
    int opt;
    optind = 1;
#define BAD(...)                                                                                                       \
    do {                                                                                                               \
        warnx_(__VA_ARGS__);                                                                                           \
        free(match_buf);                                                                                               \
        return EXIT_TROUBLE;                                                                                           \
    } while (0)
    while ((opt = getopt_long(argc, argv, "vqh", scan_longopts, NULL)) != -1) {
        switch (opt) {
        case O_JSON: c.json = true; break;
        case O_REPORT: c.report = optarg; break;
        case O_BY:
            if (!strcmp(optarg, "value")) c.ao.by = SS_BY_VALUE;
            else if (!strcmp(optarg, "key")) c.ao.by = SS_BY_KEY;
            else if (!strcmp(optarg, "key+value")) c.ao.by = SS_BY_KEY_VALUE;
            else BAD("%s: --by takes value, key or key+value", mode_names[mode]);
            break;
        case O_BYTES:
            if (parse_bytes_mode(optarg, &c.bytes) != 0) BAD("%s: --bytes takes utf8, hex or base64", mode_names[mode]);
            break;
        case O_MINBYTES:
            if (!parse_u64(optarg, &c.ao.min_bytes)) BAD("%s: --min-bytes needs a number", mode_names[mode]);
            break;
        case O_ACROSS: c.ao.across_topics = true; break;
        case O_INTERNAL: c.ao.include_internal = true; break;
        case O_TEMP: include_temp = true; break;
        case O_SINCE:
            if (!ss_parse_time(optarg, &c.ao.since_ms)) BAD("%s: --since: not a time: %s", mode_names[mode], optarg);
            break;
        case O_UNTIL:
            if (!ss_parse_time(optarg, &c.ao.until_ms)) BAD("%s: --until: not a time: %s", mode_names[mode], optarg);
            break;
        case O_NOW:
            if (!ss_parse_time(optarg, &c.ao.now_ms)) BAD("%s: --now: not a time: %s", mode_names[mode], optarg);
            c.ao.has_now = true;
            break;
        case O_FROM:
            if (!parse_i64(optarg, &c.ao.from_offset)) BAD("%s: --from-offset needs a number", mode_names[mode]);
            break;
        case O_TO:
            if (!parse_i64(optarg, &c.ao.to_offset)) BAD("%s: --to-offset needs a number", mode_names[mode]);
            break;
        case O_PID:
            if (!parse_i64(optarg, &c.ao.producer_id)) BAD("%s: --producer-id needs a number", mode_names[mode]);
            c.ao.filter_pid = true;
            break;
        case O_TXNTIMEOUT:
            if (!ss_parse_duration(optarg, &c.ao.txn_timeout_ms))
                BAD("%s: --txn-timeout: not a duration (e.g. 15m, 900s, 900000): %s", mode_names[mode], optarg);
            break;
        case O_TOP:
            if (!parse_u64(optarg, &c.top)) BAD("%s: --top needs a number", mode_names[mode]);
            c.top_set = true;
            break;
        case O_FAILON:
            if (!parse_fail_on(optarg, &c.fail_on))
                BAD("%s: --fail-on takes dups, gaps, open-txn (comma separated)", mode_names[mode]);
            break;
        case O_COLOR:
            if (!strcmp(optarg, "auto")) color = -1;
            else if (!strcmp(optarg, "always")) color = 1;
            else if (!strcmp(optarg, "never")) color = 0;
            else BAD("%s: --color takes auto, always or never", mode_names[mode]);
            break;
        case O_LOCALTIME: cli_local_time = true; break;
        case O_MAXBATCH: {
            uint64_t v;
            if (!parse_u64(optarg, &v) || v == 0)
                BAD("%s: --max-batch-bytes needs a positive number", mode_names[mode]);
            c.ao.max_batch_bytes = (size_t)v;
            break;
        }
        case O_VALUE:
        case O_VALUECONTAINS:
        case O_KEY:
            if (mode != MODE_EXPLAIN)
                BAD("%s: --%s belongs to 'segscan explain'", mode_names[mode],
                    opt == O_VALUE ? "value"
                    : opt == O_KEY ? "key"
                                   : "value-contains");
            nmatch++;
            c.ao.match = opt == O_VALUE ? SS_MATCH_VALUE : opt == O_KEY ? SS_MATCH_KEY : SS_MATCH_VALUE_CONTAINS;
            c.ao.match_bytes = (const uint8_t *)optarg;
            c.ao.match_len = strlen(optarg);
            break;
        case O_VALUEHEX: {
            if (mode != MODE_EXPLAIN) BAD("%s: --value-hex belongs to 'segscan explain'", mode_names[mode]);
            size_t n = strlen(optarg);
            if (n % 2) BAD("explain: --value-hex needs an even number of hex digits");
            free(match_buf);
            match_buf = malloc(n / 2 + 1);
            if (!match_buf) BAD("out of memory");
            for (size_t k = 0; k < n / 2; k++) {
                int hi = hexval(optarg[2 * k]), lo = hexval(optarg[2 * k + 1]);
                if (hi < 0 || lo < 0) BAD("explain: --value-hex: not hex: %s", optarg);
                match_buf[k] = (uint8_t)(hi << 4 | lo);
            }
            nmatch++;
            c.ao.match = SS_MATCH_VALUE;
            c.ao.match_bytes = match_buf;
            c.ao.match_len = n / 2;
            break;
        }
        case O_OFFSET: {
            if (mode != MODE_EXPLAIN) BAD("%s: --offset belongs to 'segscan explain'", mode_names[mode]);
            char *colon = strrchr(optarg, ':');
            if (!colon || colon == optarg || !parse_i64(colon + 1, &c.ao.match_offset))
                BAD("explain: --offset takes PARTITION:OFFSET, e.g. orders-3:4711");
            *colon = 0;
            c.ao.match_partition = optarg;
            c.ao.match = SS_MATCH_OFFSET;
            nmatch++;
            break;
        }
        case O_NOSEEK: c.ao.no_seek = true; break;
        case O_THREADS: {
            uint64_t v;
            if (!parse_u64(optarg, &v) || v == 0 || v > 256)
                BAD("%s: --threads takes a number from 1 to 256", mode_names[mode]);
            c.ao.threads = (unsigned)v;
            break;
        }
        case O_MAXMEM:
            if (!parse_size(optarg, &c.ao.max_memory))
                BAD("%s: --max-memory takes a size, e.g. 512M or 2G (0: no limit)", mode_names[mode]);
            max_memory_set = true;
            break;
        case O_PROGRESS:
            if (!strcmp(optarg, "auto")) prog.mode = PROGRESS_AUTO;
            else if (!strcmp(optarg, "always")) prog.mode = PROGRESS_ALWAYS;
            else if (!strcmp(optarg, "never")) prog.mode = PROGRESS_NEVER;
            else BAD("%s: --progress takes auto, always or never", mode_names[mode]);
            break;
        case 'v': c.verbose = true; break;
        case 'q': c.quiet = true; break;
        case 'h':
            usage(stdout, mode);
            free(match_buf);
            return EXIT_OK;
        default:
            usage(stderr, mode);
            free(match_buf);
            return EXIT_TROUBLE;
        }
    }
    if (mode == MODE_EXPLAIN && nmatch != 1)
        BAD("explain: give exactly one of --value, --value-hex, --value-contains, --key, --offset");
    if (optind >= argc) {
        warnx_("%s: no PATH given", mode_names[mode]);
        usage(stderr, mode);
        free(match_buf);
        return EXIT_TROUBLE;
    }
    if (c.ao.since_ms > c.ao.until_ms || c.ao.from_offset > c.ao.to_offset)
        BAD("%s: the window is empty", mode_names[mode]);
    /* A PATH that does not exist but names a command: options were put before it
     * ('segscan --json txns DIR'), or a command was misspelt ('segscan dup DIR').
     * Said before any reading, instead of a whole scan and then 'No such file'. */
    for (int i = optind; i < argc; i++) {
        struct stat st;
        if (!strcmp(argv[i], "-") || stat(argv[i], &st) == 0) continue;
        size_t n = strlen(argv[i]);
        const char *cmd;
        for (size_t k = 0; (cmd = cli_command_name(k)) != NULL; k++) {
            if (!strcmp(argv[i], cmd))
                BAD("'%s' is a command, and no such file exists: the command comes first "
                    "(segscan %s [options] PATH...)",
                    argv[i], cmd);
            if (n >= 3 && !strncmp(argv[i], cmd, n) && i == optind)
                BAD("%s: no such file or directory; did you mean the command '%s'?", argv[i], cmd);
        }
    }
#undef BAD
    if (color < 0) {
        const char *nc = getenv("NO_COLOR");
        color = (!nc || !*nc) && isatty(STDOUT_FILENO) && !c.json;
    }
    c.color = color > 0 && !c.json;

    int rc = EXIT_OK;
    ss_inputs *in = ss_inputs_new(include_temp);
    if (!in) {
        warnx_("out of memory");
        free(match_buf);
        return EXIT_TROUBLE;
    }
    bool stdin_used = false;
    for (int i = optind; i < argc; i++) {
        if (!strcmp(argv[i], "-")) {
            if (stdin_used) {
                warnx_("'-' (standard input) given twice");
                rc = exit_merge(rc, EXIT_TROUBLE);
                continue;
            }
            stdin_used = true;
            uint8_t *buf;
            size_t len;
            if (cli_read_stdin(&buf, &len) != 0) {
                warnx_("-: cannot read standard input");
                rc = exit_merge(rc, EXIT_TROUBLE);
                continue;
            }
            if (ss_inputs_add_memory(in, "-", buf, len) != SS_E_OK) rc = exit_merge(rc, EXIT_TROUBLE);
            free(buf);
            continue;
        }
        if (ss_inputs_add(in, argv[i]) != SS_E_OK) rc = exit_merge(rc, EXIT_TROUBLE);
    }
    ss_inputs_finish(in);
    for (size_t i = 0; i < ss_inputs_note_count(in); i++) {
        int level;
        const char *msg = ss_inputs_note(in, i, &level);
        if (level == SS_NOTE_ERROR || !c.quiet) warnx_("%s", msg);
    }
    if (!max_memory_set) c.ao.max_memory = default_max_memory();
    progress_start(&prog);
    if (prog.enabled) {
        c.ao.progress = progress_cb;
        c.ao.progress_arg = &prog;
    }
    ss_analysis *an = ss_analysis_new(&c.ao);
    if (!an) {
        warnx_("out of memory");
        ss_inputs_free(in);
        free(match_buf);
        return EXIT_TROUBLE;
    }
    if (ss_analysis_run(an, in) != SS_E_OK) {
        progress_clear(&prog);
        const char *why = ss_analysis_failure(an);
        warnx_("%s", why ? why : "the analysis failed; results are incomplete");
        rc = exit_merge(rc, EXIT_TROUBLE);
    }
    progress_clear(&prog);
    uint64_t spilled = ss_analysis_spilled(an);
    if (spilled && !c.quiet)
        warnx_("note: the fingerprint tables reached --max-memory (%llu %s): %llu %s went through temporary files",
               (unsigned long long)c.ao.max_memory, plural(c.ao.max_memory, "byte", "bytes"),
               (unsigned long long)spilled, plural(spilled, "fingerprint", "fingerprints"));
    c.in = in;
    c.an = an;
    ss_txn_ids *txn_ids = NULL;
    if (mode == MODE_SCAN || mode == MODE_PRODUCERS || mode == MODE_DUPS || mode == MODE_EXPLAIN) {
        ss_error terr;
        if (ss_txn_state_ids(in, &txn_ids, &terr) != SS_E_OK && !c.quiet) warnx_("__transaction_state: %s", terr.msg);
    }
    c.txn_ids = txn_ids;
    for (size_t i = 0; i < ss_an_unreadable_count(an); i++) {
        warnx_("%s", ss_an_unreadable_at(an, i));
        rc = exit_merge(rc, EXIT_TROUBLE);
    }
    size_t np = ss_an_partition_count(an);
    for (size_t i = 0; i < np; i++)
        if (ss_an_partition_at(an, i)->damage_events) rc = exit_merge(rc, EXIT_DAMAGE);
    ss_out o;
    out_init(&o, stdout);
    c.out = &o;
    /* damage: JSON objects on stdout, or lines on stderr */
    if (c.json) {
        json_damage(&c);
    } else {
        for (size_t i = 0; i < ss_an_damage_count(an); i++) {
            const ss_an_damage *d = ss_an_damage_at(an, i);
            const ss_input_partition *ip = ss_an_partition_at(an, d->partition)->input;
            const char *file = ip->segments[d->segment].path;
            if (!ss_errkind_is_damage(d->err.kind) && c.quiet) continue;
            report_error(file ? file : "-", &d->err);
        }
    }
    switch (mode) {
    case MODE_SCAN:
        if (c.json) {
            for (uint32_t i = 0; i < np; i++) scan_json_partition(&c, i);
            size_t ng = ss_an_group_count(an);
            if (c.top_set && c.top < ng) ng = (size_t)c.top;
            for (size_t g = 0; g < ng; g++) dups_json_group(&c, g, false);
            for (size_t s = 0; s < ss_an_session_count(an); s++) producers_json_session(&c, ss_an_session_at(an, s));
            for (size_t t = 0; t < ss_an_txn_count(an); t++) txns_json_txn(&c, ss_an_txn_at(an, t));
            json_total(&c);
        } else {
            text_summary(&c);
        }
        break;
    case MODE_DUPS: dups_print(&c); break;
    case MODE_PRODUCERS: producers_print(&c); break;
    case MODE_TXNS: txns_print(&c); break;
    case MODE_EXPLAIN: explain_print(&c); break;
    default: break;
    }
    out_flush(&o);
    if (o.failed) rc = exit_merge(rc, EXIT_TROUBLE);
    if (c.report && !report_write(&c, c.report)) rc = exit_merge(rc, EXIT_TROUBLE);
    const ss_an_totals *t = ss_an_totals_get(an);
    if (((c.fail_on & FAIL_DUPS) && t->duplicate_groups) || ((c.fail_on & FAIL_GAPS) && t->sequence_gaps) ||
        ((c.fail_on & FAIL_OPEN_TXN) && t->txn_open))
        rc = exit_merge(rc, EXIT_FINDINGS);
    out_free(&o);
    ss_txn_ids_free(txn_ids);
    ss_analysis_free(an);
    ss_inputs_free(in);
    free(match_buf);
    return rc;
}

int cmd_scan(int argc, char **argv) { return scan_main(MODE_SCAN, argc, argv); }
int cmd_dups(int argc, char **argv) { return scan_main(MODE_DUPS, argc, argv); }
int cmd_producers(int argc, char **argv) { return scan_main(MODE_PRODUCERS, argc, argv); }
int cmd_txns(int argc, char **argv) { return scan_main(MODE_TXNS, argc, argv); }
int cmd_explain(int argc, char **argv) { return scan_main(MODE_EXPLAIN, argc, argv); }
