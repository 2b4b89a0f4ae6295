/* segscan dump - what kafka-dump-log.sh prints, or JSON Lines.
 *
 * The text form reproduces Kafka's DumpLogSegments.dumpLog / printBatchLevel
 * (core/src/main/scala/kafka/tools/DumpLogSegments.scala, Kafka 4.0) byte for
 * byte. Where Kafka would die with a stack trace, segscan reports the damage
 * on stderr and goes on with the rest of the file.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands/commands.h"
#include "common/common.h"
#include "common/out.h"
#include "dump/dump.h"

static const char dump_usage[] = "usage: segscan dump [options] FILE...\n"
                                 "\n"
                                 "Print files of a partition as kafka-dump-log.sh (Kafka 4.2) prints them, or as\n"
                                 "JSON Lines: .log segments, KRaft .checkpoint snapshots, .index, .timeindex,\n"
                                 ".txnindex and producer .snapshot files. FILE may be '-' to read one segment from\n"
                                 "standard input. Also (kafka-dump-log.sh has no dumper for them) the text files,\n"
                                 "as parsed entries, checked as verify checks them: leader-epoch-checkpoint,\n"
                                 "partition.metadata, quorum-state, recovery-point-offset-checkpoint,\n"
                                 "replication-offset-checkpoint, log-start-offset-checkpoint,\n"
                                 "cleaner-offset-checkpoint, meta.properties, .kafka_cleanshutdown. FILE may be a\n"
                                 "partition or log directory: every file it holds, partitions first, then segments\n"
                                 "in offset order (each with its index files), snapshots, text files.\n"
                                 "\n"
                                 "  --files A,B,...          files to dump (as kafka-dump-log.sh; may be combined\n"
                                 "                           with FILE...)\n"
                                 "  --deep-iteration         print every record, not only batches\n"
                                 "  --print-data-log         print keys and values (implies --deep-iteration)\n"
                                 "  --skip-record-metadata   with --print-data-log: only keys and values\n"
                                 "  --max-bytes N            read at most N bytes of each file\n"
                                 "  --verify-index-only      .index/.timeindex: only check the entries against the\n"
                                 "                           .log\n"
                                 "  --index-sanity-check     .index/.timeindex: only run Kafka's sanity check\n"
                                 "  --max-message-size N     .index: bytes read at an entry's position (default\n"
                                 "                           5242880)\n"
                                 "  --offsets-decoder        __consumer_offsets: decode keys and values (implies\n"
                                 "                           --print-data-log)\n"
                                 "  --transaction-log-decoder  __transaction_state: decode keys and values\n"
                                 "  --cluster-metadata-decoder  __cluster_metadata and KRaft snapshots: decode\n"
                                 "                           metadata records\n"
                                 "  --remote-log-metadata-decoder  __remote_log_metadata: decode tiered-storage\n"
                                 "                           metadata records\n"
                                 "  --share-group-state-decoder  __share_group_state: decode keys and values (one\n"
                                 "                           decoder a run: with several, the first of this list\n"
                                 "                           wins, as in kafka-dump-log.sh; each implies\n"
                                 "                           --print-data-log)\n"
                                 "  --kafka-version V        print as kafka-dump-log.sh of Kafka V does where\n"
                                 "                           versions differ: 4.0 prints a KRaft leader change as\n"
                                 "                           controlType: LEADER_CHANGE(2) and a share-group-state\n"
                                 "                           value's version as \"type\"; 4.1 and later (the\n"
                                 "                           default, 4.2) print LeaderChange: {...} and \"version\"\n"
                                 "  --json                   JSON Lines: batch, record, error and end objects\n"
                                 "  --bytes utf8|hex|base64  how --json writes keys, values and header values\n"
                                 "                           (default utf8)\n"
                                 "  --max-batch-bytes N      cap on a batch's decompressed size (default\n"
                                 "                           67108864); a larger batch is reported and skipped\n"
                                 "  -h, --help               this help\n"
                                 "\n"
                                 "exit codes: 0 clean, 1 a text file failed a check, 2 a file could not be read,\n"
                                 "            3 damaged data was met (a text file Kafka's reader refuses included)\n";

enum {
    OPT_DEEP = 256,
    OPT_DATA,
    OPT_SKIPMETA,
    OPT_MAXBYTES,
    OPT_JSON,
    OPT_BYTES,
    OPT_MAXBATCH,
    OPT_FILES,
    OPT_VERIFY,
    OPT_SANITY,
    OPT_MAXMSG,
    OPT_KAFKA_VERSION,
    /* in Kafka's order of precedence */
    OPT_OFFSETS_DEC,
    OPT_TXN_DEC,
    OPT_CLUSTER_DEC,
    OPT_REMOTE_DEC,
    OPT_SHARE_DEC,
};

static const struct option dump_longopts[] = {
    {"deep-iteration", no_argument, NULL, OPT_DEEP},
    {"print-data-log", no_argument, NULL, OPT_DATA},
    {"skip-record-metadata", no_argument, NULL, OPT_SKIPMETA},
    {"max-bytes", required_argument, NULL, OPT_MAXBYTES},
    {"json", no_argument, NULL, OPT_JSON},
    {"bytes", required_argument, NULL, OPT_BYTES},
    {"max-batch-bytes", required_argument, NULL, OPT_MAXBATCH},
    {"files", required_argument, NULL, OPT_FILES},
    {"verify-index-only", no_argument, NULL, OPT_VERIFY},
    {"index-sanity-check", no_argument, NULL, OPT_SANITY},
    {"offsets-decoder", no_argument, NULL, OPT_OFFSETS_DEC},
    {"transaction-log-decoder", no_argument, NULL, OPT_TXN_DEC},
    {"cluster-metadata-decoder", no_argument, NULL, OPT_CLUSTER_DEC},
    {"remote-log-metadata-decoder", no_argument, NULL, OPT_REMOTE_DEC},
    {"share-group-state-decoder", no_argument, NULL, OPT_SHARE_DEC},
    {"max-message-size", required_argument, NULL, OPT_MAXMSG},
    {"kafka-version", required_argument, NULL, OPT_KAFKA_VERSION},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Java's Long.parseLong of the file name up to the first '.', as DumpLogSegments does. */
static bool start_offset_of(const char *path, int64_t *v) {
    const char *name = dump_base_name(path);
    const char *dot = strchr(name, '.');
    size_t n = dot ? (size_t)(dot - name) : strlen(name);
    if (n == 0 || n > 20) return false;
    char tmp[24];
    memcpy(tmp, name, n);
    tmp[n] = 0;
    char *end;
    long long x = strtoll(tmp, &end, 10);
    if (*end || tmp[0] == ' ') return false;
    *v = x;
    return true;
}

/* ---- text form --------------------------------------------------------------- */

static void text_batch(ss_out *o, const ss_batch *b) {
    if (b->magic >= 2) {
        LIT_I64(o, "baseOffset: ", b->base_offset);
        LIT_I64(o, " lastOffset: ", b->last_offset);
        LIT_I64(o, " count: ", b->count);
        LIT_I64(o, " baseSequence: ", b->base_sequence);
        LIT_I64(o, " lastSequence: ", b->last_sequence);
        LIT_I64(o, " producerId: ", b->producer_id);
        LIT_I64(o, " producerEpoch: ", b->producer_epoch);
        LIT_I64(o, " partitionLeaderEpoch: ", b->partition_leader_epoch);
        LIT_BOOL(o, " isTransactional: ", b->transactional);
        LIT_BOOL(o, " isControl: ", b->control);
        out_lit(o, " deleteHorizonMs: ");
        if (b->has_delete_horizon) {
            LIT_I64(o, "OptionalLong[", b->delete_horizon_ms);
            out_ch(o, ']');
        } else {
            out_lit(o, "OptionalLong.empty");
        }
    } else {
        LIT_I64(o, "offset: ", b->last_offset);
    }
    LIT_U64(o, " position: ", b->position);
    out_ch(o, ' ');
    out_str(o, ss_tstype_name(b->timestamp_type));
    LIT_I64(o, ": ", b->max_timestamp);
    LIT_U64(o, " size: ", b->size);
    LIT_I64(o, " magic: ", b->magic);
    out_lit(o, " compresscodec: ");
    out_str(o, ss_codec_label((int)b->codec));
    LIT_U64(o, " crc: ", b->crc);
    LIT_BOOL(o, " isvalid: ", b->crc_valid);
    out_ch(o, '\n');
}

static void text_record(ss_out *o, const struct dump_opts *opt, const ss_batch *b, const ss_record *r) {
    const char *prefix = "| ";
    if (!opt->skip_meta) {
        LIT_I64(o, "| offset: ", r->offset);
        out_ch(o, ' ');
        out_str(o, ss_tstype_name(b->timestamp_type));
        LIT_I64(o, ": ", r->timestamp);
        LIT_I64(o, " keySize: ", r->key_len);
        LIT_I64(o, " valueSize: ", r->value_len);
        prefix = " ";
        if (b->magic >= 2) {
            LIT_I64(o, " sequence: ", r->sequence);
            out_lit(o, " headerKeys: [");
            size_t pos = 0;
            ss_header h;
            bool first = true;
            while (ss_header_next(r, &pos, &h)) {
                if (!first) out_ch(o, ',');
                first = false;
                out_java_utf8(o, h.key, (size_t)h.key_len);
            }
            out_ch(o, ']');
        } else {
            LIT_BOOL(o, " isValid: ", r->legacy_crc_valid);
            LIT_U64(o, " crc: ", r->legacy_crc);
            out_ch(o, '}');
        }
        if (b->control) {
            if (r->control_type == SS_CTRL_ABORT || r->control_type == SS_CTRL_COMMIT) {
                out_lit(o, " endTxnMarker: ");
                out_str(o, ss_control_type_name(r->control_type));
                LIT_I64(o, " coordinatorEpoch: ", r->coordinator_epoch);
            } else if (!dump_kraft_control(o, r, false, opt->kafka_version)) {
                out_lit(o, " controlType: ");
                out_str(o, ss_control_type_name(r->control_type));
                out_ch(o, '(');
                out_i64(o, r->control_type);
                out_ch(o, ')');
            }
        }
    }
    if (opt->data && !b->control && opt->decoder != DUMP_DEC_NONE) {
        dump_internal_text(o, opt, NULL, r, prefix);
    } else if (opt->data && !b->control) {
        if (r->key_len >= 0) {
            out_str(o, prefix);
            out_lit(o, "key: ");
            out_java_utf8(o, r->key, (size_t)r->key_len);
            prefix = " ";
        }
        if (r->value_len >= 0) {
            out_lit(o, " payload: ");
            out_java_utf8(o, r->value, (size_t)r->value_len);
        }
    }
    out_ch(o, '\n');
}

/* ---- JSON form ------------------------------------------------------------------ */

/* ,"key":value with the key a string literal (no strlen on the hot path). */
#define KV_STR(o, k, v) (out_lit((o), ",\"" k "\":"), json_str_or_null((o), (v)))

static void json_str_or_null(ss_out *o, const char *v) {
    if (v) out_json_cstr(o, v);
    else out_lit(o, "null");
}

static void json_batch(ss_out *o, const char *file, const ss_batch *b) {
    dump_json_head(o, "batch", file);
    KV_I64(o, "position", (int64_t)b->position);
    KV_I64(o, "sizeInBytes", b->size);
    KV_I64(o, "baseOffset", b->base_offset);
    KV_I64(o, "lastOffset", b->last_offset);
    if (b->magic >= 2) KV_I64(o, "count", b->count);
    else out_lit(o, ",\"count\":null");
    KV_I64(o, "magic", b->magic);
    KV_I64(o, "attributes", b->attributes);
    KV_STR(o, "compression", ss_codec_name(b->codec));
    KV_STR(o, "timestampType", ss_tstype_name(b->timestamp_type));
    KV_BOOL(o, "isTransactional", b->transactional);
    KV_BOOL(o, "isControl", b->control);
    KV_BOOL(o, "hasDeleteHorizon", b->has_delete_horizon);
    if (b->has_delete_horizon) KV_I64(o, "deleteHorizonMs", b->delete_horizon_ms);
    else out_lit(o, ",\"deleteHorizonMs\":null");
    KV_I64(o, "partitionLeaderEpoch", b->partition_leader_epoch);
    KV_I64(o, "producerId", b->producer_id);
    KV_I64(o, "producerEpoch", b->producer_epoch);
    KV_I64(o, "baseSequence", b->base_sequence);
    KV_I64(o, "lastSequence", b->last_sequence);
    if (b->magic >= 2) KV_I64(o, "baseTimestamp", b->base_timestamp);
    else out_lit(o, ",\"baseTimestamp\":null");
    KV_I64(o, "maxTimestamp", b->max_timestamp);
    KV_I64(o, "crc", b->crc);
    KV_BOOL(o, "crcValid", b->crc_valid);
    if (!b->crc_valid) KV_I64(o, "computedCrc", b->crc_computed);
    out_lit(o, "}\n");
}

static void json_bytes_field(ss_out *o, enum bytes_mode m, const char *k, const uint8_t *p, int32_t len) {
    out_lit(o, ",\"");
    out_str(o, k);
    out_lit(o, "\":");
    if (out_json_bytes(o, m, p, len)) {
        out_lit(o, ",\"");
        out_str(o, k);
        out_lit(o, "Lossy\":true");
    }
}

static void json_record(ss_out *o, const char *file, const struct dump_opts *opt, const ss_batch *b,
                        const ss_record *r) {
    dump_json_head(o, "record", file);
    KV_I64(o, "offset", r->offset);
    KV_I64(o, "timestamp", r->timestamp);
    KV_I64(o, "sequence", r->sequence);
    KV_I64(o, "sizeInBytes", r->size);
    KV_I64(o, "keySize", r->key_len);
    KV_I64(o, "valueSize", r->value_len);
    json_bytes_field(o, opt->bytes, "key", r->key, r->key_len);
    json_bytes_field(o, opt->bytes, "value", r->value, r->value_len);
    out_lit(o, ",\"headers\":[");
    size_t pos = 0;
    ss_header h;
    bool first = true;
    while (ss_header_next(r, &pos, &h)) {
        if (!first) out_ch(o, ',');
        first = false;
        out_lit(o, "{\"key\":");
        if (out_json_utf8(o, h.key, (size_t)h.key_len)) out_lit(o, ",\"keyLossy\":true");
        json_bytes_field(o, opt->bytes, "value", h.value, h.value_len);
        out_ch(o, '}');
    }
    out_ch(o, ']');
    if (b->magic < 2) {
        KV_I64(o, "legacyMagic", r->legacy_magic);
        KV_I64(o, "legacyAttributes", r->legacy_attributes);
        KV_I64(o, "legacyCrc", r->legacy_crc);
        KV_STR(o, "legacyTimestampType", ss_tstype_name(r->legacy_timestamp_type));
        KV_BOOL(o, "legacyCrcValid", r->legacy_crc_valid);
    }
    if (b->control) {
        KV_STR(o, "controlType", ss_control_type_name(r->control_type));
        if (r->control_type == SS_CTRL_ABORT || r->control_type == SS_CTRL_COMMIT)
            KV_I64(o, "coordinatorEpoch", r->coordinator_epoch);
    }
    if (b->control) (void)dump_kraft_control(o, r, true, opt->kafka_version);
    if (!b->control && opt->decoder != DUMP_DEC_NONE) dump_internal_json(o, opt, r);
    out_lit(o, "}\n");
}

static void json_error(ss_out *o, const char *file, const char *type, const ss_error *e) {
    dump_json_head(o, type, file);
    KV_I64(o, "position", (int64_t)e->position);
    if (e->base_offset >= 0) KV_I64(o, "baseOffset", e->base_offset);
    else out_lit(o, ",\"baseOffset\":null");
    KV_I64(o, "length", (int64_t)e->length);
    KV_STR(o, "kind", ss_errkind_name(e->kind));
    KV_STR(o, "reason", e->msg);
    out_lit(o, "}\n");
}

static void json_end(ss_out *o, const char *file, const ss_event *ev, uint64_t damaged) {
    dump_json_head(o, "end", file);
    KV_I64(o, "fileSize", (int64_t)ev->file_size);
    KV_I64(o, "endOfLastBatch", (int64_t)ev->end_of_last_batch);
    KV_I64(o, "unreadTailBytes", (int64_t)ev->tail_bytes);
    KV_STR(o, "tail",
           ev->tail_kind == SS_E_ZERO_TAIL         ? "zeros"
           : ev->tail_kind == SS_E_INCOMPLETE_TAIL ? "incomplete"
                                                   : "none");
    KV_I64(o, "damagedBytes", (int64_t)damaged);
    out_lit(o, "}\n");
}

static bool has_suffix(const char *s, const char *suf) {
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && !strcmp(s + n - m, suf);
}

/* ---- one .log file ----------------------------------------------------------------- */

static int dump_log(const char *path, const struct dump_opts *opt, ss_decoder *dec, ss_out *o) {
    ss_segment *seg = NULL;
    ss_error err;
    int rc = EXIT_OK;
    bool is_stdin = !strcmp(path, "-");
    if (is_stdin) {
        uint8_t *buf;
        size_t len;
        if (cli_read_stdin(&buf, &len) != 0) {
            warnx_("-: cannot read standard input");
            return EXIT_TROUBLE;
        }
        ss_errkind k = ss_segment_from_memory(buf, len, true, &seg, &err);
        free(buf);
        if (k != SS_E_OK) {
            warnx_("-: %s", err.msg);
            return EXIT_TROUBLE;
        }
    } else if (ss_segment_open(path, &seg, &err) != SS_E_OK) {
        out_flush(o);
        warnx_("%s: %s", path, err.msg);
        return EXIT_TROUBLE;
    }

    if (!opt->json && has_suffix(path, ".checkpoint")) {
        /* KRaft snapshot: DumpLogSegments names it by Snapshots.parse */
        long long end_offset, epoch;
        char tail;
        const char *name = dump_base_name(path);
        if (!strcmp(name, "bootstrap.checkpoint")) {
            out_lit(o, "KRaft bootstrap snapshot\n");
        } else if (strlen(name) == 20 + 1 + 10 + 11 &&
                   sscanf(name, "%20lld-%10lld.checkpoin%c", &end_offset, &epoch, &tail) == 3) {
            out_printf(o, "Snapshot end offset: %lld, epoch: %lld\n", end_offset, epoch);
        } else {
            out_flush(o);
            warnx_("%s: not a KRaft snapshot name (<offset>-<epoch>.checkpoint); header line left out", path);
        }
    } else if (!opt->json && !is_stdin) {
        int64_t start;
        if (start_offset_of(path, &start)) {
            LIT_I64(o, "Log starting offset: ", start);
            out_ch(o, '\n');
        } else {
            out_flush(o);
            warnx_("%s: file name does not start with an offset; 'Log starting offset' left out", path);
        }
    }

    ss_walker *w = ss_walker_new(seg, opt->max_bytes);
    if (!w) {
        out_flush(o);
        warnx_("%s: out of memory", path);
        ss_segment_close(seg);
        return EXIT_TROUBLE;
    }
    ss_walker_set_decoder(w, dec);
    ss_window win = {0}; /* batches copied with pread, not read through the mapping */
    ss_event ev;
    offset_pairs gaps = {0};
    int64_t last_offset = -1;
    bool have_last = false;
    uint64_t undecodable = 0; /* bytes of batches whose records could not be decoded */
    for (;;) {
        ss_event_kind k = ss_walker_next_copy(w, &win, &ev);
        if (k == SS_EV_END) break;
        if (k == SS_EV_DAMAGE) {
            rc = exit_merge(rc, EXIT_DAMAGE);
            if (opt->json) json_error(o, path, "error", &ev.err);
            else {
                out_flush(o);
                report_error(path, &ev.err);
            }
            continue;
        }
        const ss_batch *b = &ev.batch;
        if (opt->json) json_batch(o, path, b);
        else text_batch(o, b);
        /* The JSON form follows the oracle: a batch failing its CRC is not iterated. */
        bool iterate = opt->json ? b->crc_valid : opt->deep;
        if (!iterate) continue;
        ss_rec_iter it;
        ss_record r;
        if (ss_records_begin(dec, b, &it, &err) != SS_E_OK) {
            if (err.kind == SS_E_TOO_LARGE) {
                err.length = b->size; /* the whole batch is skipped, as the analysis reports it */
                if (opt->json) json_error(o, path, "notice", &err);
                else {
                    out_flush(o);
                    report_error(path, &err);
                }
                continue;
            }
        } else {
            int n;
            while ((n = ss_records_next(&it, &r, &err)) == 1) {
                if (opt->json) {
                    json_record(o, path, opt, b, &r);
                } else {
                    if (have_last && (last_offset == INT64_MAX || r.offset != last_offset + 1))
                        offset_pairs_add(&gaps, last_offset, r.offset);
                    last_offset = r.offset;
                    have_last = true;
                    text_record(o, opt, b, &r);
                }
            }
            if (n == 0) continue;
        }
        /* records could not be decoded: damage inside a batch with a valid frame */
        rc = exit_merge(rc, EXIT_DAMAGE);
        err.length = b->size;
        undecodable += b->size;
        if (opt->json) json_error(o, path, "error", &err);
        else {
            out_flush(o);
            report_error(path, &err);
        }
    }
    if (ev.err.kind == SS_E_GREW) {
        /* the file grew while it was read: only its size at open was read */
        if (opt->json) json_error(o, path, "notice", &ev.err);
        else {
            out_flush(o);
            report_error(path, &ev.err);
        }
    }
    if (opt->json) {
        json_end(o, path, &ev, ss_walker_damaged_bytes(w) + undecodable);
    } else if (ev.tail_bytes > 0 && opt->max_bytes == UINT64_MAX) {
        LIT_U64(o, "Found ", ev.tail_bytes);
        out_lit(o, " invalid bytes at the end of ");
        out_str(o, dump_base_name(path));
        out_ch(o, '\n');
    }
    if (gaps.n) {
        /* Kafka prepends to a list, so the pairs come out newest first. */
        out_flush(o);
        char *abs = is_stdin ? NULL : realpath(path, NULL);
        fprintf(stderr, "Non-consecutive offsets in %s\n", abs ? abs : path);
        for (size_t i = gaps.n; i-- > 0;)
            fprintf(stderr, "  %lld is followed by %lld\n", (long long)gaps.v[i][0], (long long)gaps.v[i][1]);
        free(abs);
    }
    free(gaps.v);
    ss_window_free(&win);
    ss_walker_free(w);
    ss_segment_close(seg);
    return rc;
}

static int dump_path(const char *path, const struct dump_opts *opt, ss_decoder *dec, ss_out *o);

/* A directory's files in order (dump_dir.c's plan), each dumped as when it is named. */
static int dump_directory(const char *path, const struct dump_opts *opt, ss_decoder *dec, ss_out *o) {
    dump_plan p;
    int rc = EXIT_OK;
    if (!dump_dir_plan(path, &p)) {
        out_flush(o);
        warnx_("%s: out of memory listing the directory", path);
        rc = EXIT_TROUBLE;
    }
    for (size_t i = 0; i < p.n; i++) {
        const char *f = p.v[i].path;
        if (p.v[i].step == DUMP_FILE) {
            rc = exit_merge(rc, dump_path(f, opt, dec, o));
            continue;
        }
        out_flush(o);
        switch (p.v[i].step) {
        case DUMP_UNKNOWN: fprintf(stderr, "Ignoring unknown file %s\n", f); break;
        case DUMP_TEMPORARY: warnx_("%s: broker temporary skipped (name it to dump it)", f); break;
        case DUMP_TOO_DEEP: warnx_("%s: more directory levels down than are searched, not dumped", f); break;
        default:
            warnx_("%s: cannot read directory: %s", f, strerror(p.v[i].err));
            rc = exit_merge(rc, EXIT_TROUBLE);
            break;
        }
    }
    dump_plan_free(&p);
    return rc;
}

/* One PATH: a file as kafka-dump-log.sh dumps it (a segment, a KRaft snapshot,
 * an index or snapshot file), a text file (dump_text.c), or a directory. */
static int dump_path(const char *path, const struct dump_opts *opt, ss_decoder *dec, ss_out *o) {
    /* a directory: its files (a directory named like one of the files below is
     * that file, which cannot be read: exit 2, as before) */
    bool file_name =
        has_suffix(path, ".log") || has_suffix(path, ".checkpoint") || is_index_file(path) || dump_is_text_file(path);
    struct stat st;
    if (!file_name && strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return dump_directory(path, opt, dec, o);
    if (!opt->json) {
        out_lit(o, "Dumping ");
        out_str(o, path);
        out_ch(o, '\n');
    }
    if (!strcmp(path, "-") || has_suffix(path, ".log") || has_suffix(path, ".checkpoint"))
        return dump_log(path, opt, dec, o);
    if (is_index_file(path)) return dump_index_file(path, opt, o);
    /* a departure from kafka-dump-log.sh, which has no dumper for the text files */
    if (dump_is_text_file(path)) return dump_text_file(path, opt, o);
    out_flush(o);
    fprintf(stderr, "Ignoring unknown file %s\n", path);
    return EXIT_OK;
}

int cmd_dump(int argc, char **argv) {
    struct dump_opts opt = {.max_bytes = UINT64_MAX,
                            .bytes = BYTES_UTF8,
                            .max_batch_bytes = SS_DEFAULT_MAX_BATCH_BYTES,
                            .max_message_size = 5 * 1024 * 1024};
    char **files = NULL;
    size_t nfiles = 0, files_cap = 0;
    unsigned decoders = 0;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", dump_longopts, NULL)) != -1) {
        switch (c) {
        case OPT_DEEP: opt.deep = true; break;
        case OPT_DATA:
            opt.data = true;
            opt.deep = true;
            break;
        case OPT_SKIPMETA: opt.skip_meta = true; break;
        case OPT_JSON: opt.json = true; break;
        case OPT_VERIFY: opt.verify_index_only = true; break;
        case OPT_SANITY: opt.index_sanity_check = true; break;
        case OPT_OFFSETS_DEC:
        case OPT_TXN_DEC:
        case OPT_CLUSTER_DEC:
        case OPT_REMOTE_DEC:
        case OPT_SHARE_DEC:
            /* DumpLogSegmentsOptions.messageParser: offsets, transaction log, cluster
             * metadata, remote log metadata, share group state, the first given wins;
             * every decoder implies --print-data-log (and so --deep-iteration) */
            decoders |= 1u << (c - OPT_OFFSETS_DEC);
            opt.data = opt.deep = true;
            break;
        case OPT_MAXBYTES: {
            uint64_t v;
            if (!parse_u64(optarg, &v) || v > INT32_MAX) {
                warnx_("dump: --max-bytes needs a number from 0 to %d", INT32_MAX);
                free(files);
                return EXIT_TROUBLE;
            }
            opt.max_bytes = v;
            break;
        }
        case OPT_MAXMSG:
            if (!parse_u64(optarg, &opt.max_message_size)) {
                warnx_("dump: --max-message-size needs a number");
                free(files);
                return EXIT_TROUBLE;
            }
            break;
        case OPT_MAXBATCH:
            if (!parse_u64(optarg, &opt.max_batch_bytes) || opt.max_batch_bytes == 0) {
                warnx_("dump: --max-batch-bytes needs a positive number");
                free(files);
                return EXIT_TROUBLE;
            }
            break;
        case OPT_KAFKA_VERSION: {
            /* MAJOR.MINOR[.PATCH...]: only whether it is before 4.1 matters (KAFKA-19069) */
            unsigned maj = 0, min = 0;
            int used = 0;
            if (sscanf(optarg, "%u.%u%n", &maj, &min, &used) != 2 || (optarg[used] && optarg[used] != '.') || maj < 4 ||
                maj > 99 || min > 99) {
                warnx_("dump: --kafka-version takes a Kafka version from 4.0 on, e.g. 4.0 or 4.2");
                free(files);
                return EXIT_TROUBLE;
            }
            opt.kafka_version = maj == 4 && min == 0 ? 40 : 0;
            break;
        }
        case OPT_BYTES:
            if (parse_bytes_mode(optarg, &opt.bytes) != 0) {
                warnx_("dump: --bytes takes utf8, hex or base64");
                free(files);
                return EXIT_TROUBLE;
            }
            break;
        case OPT_FILES: {
            /* comma separated, as kafka-dump-log.sh */
            char *s = optarg;
            for (;;) {
                char *comma = strchr(s, ',');
                if (comma) *comma = 0;
                if (*s) {
                    if (!SS_ARRAY_GROW(files, nfiles, files_cap, 8)) {
                        free(files);
                        return EXIT_TROUBLE;
                    }
                    files[nfiles++] = s;
                }
                if (!comma) break;
                s = comma + 1;
            }
            break;
        }
        case 'h':
            fputs(dump_usage, stdout);
            free(files);
            return EXIT_OK;
        default: free(files); return bad_option("dump", argv, optind, optopt);
        }
    }
    for (int i = optind; i < argc; i++) {
        if (ss_inputs_is_export(argv[i])) {
            warnx_("dump: %s is an export (segscan export), not a log's file: read its rows with any Parquet "
                   "reader (DuckDB: SELECT * FROM '%s')",
                   argv[i], argv[i]);
            free(files);
            return EXIT_TROUBLE;
        }
        if (!SS_ARRAY_GROW(files, nfiles, files_cap, 8)) {
            free(files);
            return EXIT_TROUBLE;
        }
        files[nfiles++] = argv[i];
    }
    for (int k = 0; k < 5; k++)
        if (decoders & 1u << k) {
            opt.decoder = DUMP_DEC_OFFSETS + k;
            break;
        }
    if (nfiles == 0) {
        warnx_("dump: no file given");
        fputs(dump_usage, stderr);
        return EXIT_TROUBLE;
    }
    ss_decoder *dec = ss_decoder_new((size_t)opt.max_batch_bytes);
    if (!dec) {
        warnx_("out of memory");
        free(files);
        return EXIT_TROUBLE;
    }
    ss_out o;
    out_init(&o, stdout);
    int rc = EXIT_OK;
    for (size_t i = 0; i < nfiles; i++) rc = exit_merge(rc, dump_path(files[i], &opt, dec, &o));
    out_free(&o);
    if (o.failed) rc = exit_merge(rc, EXIT_TROUBLE);
    ss_decoder_free(dec);
    free(files);
    return rc;
}
