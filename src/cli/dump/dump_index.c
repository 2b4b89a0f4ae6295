/* segscan dump - index, time index, transaction index and producer snapshot files.
 *
 * The text form is what kafka-dump-log.sh (DumpLogSegments.scala: dumpIndex,
 * dumpTimeIndex, dumpTxnIndex, dumpProducerIdSnapshot; Kafka 4.0) prints, byte
 * for byte on stdout, and its findings on stderr. Kafka prints those findings
 * once, after all files; segscan prints them after each file. Where Kafka's
 * tool would die (a missing .log, an entry pointing at no batch, a corrupt
 * transaction index), segscan says why on stderr and goes on. It never creates
 * a missing .index as Kafka's tool does.
 *
 * --json prints one object per entry and a final end object (or an error
 * object), with the fields of the corpus oracles (*.oracle.jsonl) plus a few.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"
#include "common/out.h"
#include "dump/dump.h"
#include "segscan/files.h"

enum idx_type { T_NONE, T_INDEX, T_TIMEINDEX, T_TXNINDEX, T_SNAPSHOT };

/* Kafka: filename.substring(filename.lastIndexOf(".")) */
static enum idx_type type_of(const char *path) {
    const char *dot = strrchr(dump_base_name(path), '.');
    if (!dot) return T_NONE;
    if (!strcmp(dot, ".index")) return T_INDEX;
    if (!strcmp(dot, ".timeindex")) return T_TIMEINDEX;
    if (!strcmp(dot, ".txnindex")) return T_TXNINDEX;
    if (!strcmp(dot, ".snapshot")) return T_SNAPSHOT;
    return T_NONE;
}

bool is_index_file(const char *path) { return type_of(path) != T_NONE; }

/* ---- small helpers ----------------------------------------------------------------- */

/* The file beside path with the same offset prefix and another suffix
 * (Kafka: new File(parent, name.split("\\.")(0) + suffix)). */
static char *sibling(const char *path, const char *suffix) {
    const char *name = dump_base_name(path);
    size_t dirlen = (size_t)(name - path);
    const char *dot = strchr(name, '.');
    size_t stem = dot ? (size_t)(dot - name) : strlen(name);
    size_t slen = strlen(suffix);
    char *s = malloc(dirlen + stem + slen + 1);
    if (!s) return NULL;
    memcpy(s, path, dirlen + stem);
    memcpy(s + dirlen + stem, suffix, slen + 1);
    return s;
}

static void ji64(ss_out *o, const char *k, int64_t v) {
    out_json_key(o, k);
    out_i64(o, v);
}

static void jnull(ss_out *o, const char *k) {
    out_json_key(o, k);
    out_str(o, "null");
}

static void jbool(ss_out *o, const char *k, bool v) {
    out_json_key(o, k);
    out_bool(o, v);
}

static void jstr(ss_out *o, const char *k, const char *v) {
    out_json_key(o, k);
    if (v) out_json_utf8(o, (const uint8_t *)v, strlen(v));
    else out_str(o, "null");
}

static void jend(ss_out *o) { out_str(o, "}\n"); }

/* {"type":"error",...} in the oracle's shape (exception, message) plus kind and position. */
static void json_error(ss_out *o, const char *file, const char *exception, const char *message, const ss_error *e) {
    dump_json_head(o, "error", file);
    jstr(o, "exception", exception);
    jstr(o, "message", message);
    if (e) {
        jstr(o, "kind", ss_errkind_name(e->kind));
        ji64(o, "position", (int64_t)e->position);
    }
    jend(o);
}

/* A file that cannot be opened: exit 2. */
static int open_failed(const char *path, const struct dump_opts *opt, ss_out *o, const ss_error *e) {
    if (opt->json) {
        json_error(o, path, NULL, e->msg, e);
        return EXIT_TROUBLE;
    }
    out_flush(o);
    warnx_("%s: %s", path, e->msg);
    return EXIT_TROUBLE;
}

/* The base offset from the file name; 0 when the name does not start with one. */
static int64_t base_offset_of(const char *path, bool *named) {
    int64_t base = 0;
    *named = ss_offset_from_filename(path, &base);
    return *named ? base : 0;
}

static void warn_unnamed(const char *path, bool named, ss_out *o) {
    if (named) return;
    out_flush(o);
    warnx_("%s: the file name does not start with an offset (kafka-dump-log.sh stops here); using base offset 0", path);
}

static void note_entry_problem(ss_out *o, const char *path, const char *what, uint64_t slot, const ss_icheck *c) {
    out_flush(o);
    warnx_("%s: %s entry %" PRIu64 ": %s [%s]", path, what, slot, c->err.msg, ss_errkind_name(c->err.kind));
}

static const char *check_name(ss_icheck_status s) {
    switch (s) {
    case SS_ICHECK_MATCH: return "match";
    case SS_ICHECK_MISMATCH: return "mismatch";
    case SS_ICHECK_NOT_FOUND: return "not-found";
    case SS_ICHECK_NO_BATCH: return "no-batch";
    default: return "error";
    }
}

/* Kafka's sanityCheck() result. When it fails only because of a zero-filled
 * preallocated tail (the entries before it pass), *by_tail is set. */
static bool run_sanity(const ss_index *ix, const char *abs, ss_error *e, bool *by_tail) {
    *by_tail = false;
    if (ss_index_sanity_check(ix, abs, e) == SS_E_OK) {
        snprintf(e->msg, sizeof e->msg, "passed");
        return true;
    }
    if (ix->zero_tail) {
        ss_index *trimmed;
        ss_error te;
        if (ss_index_from_memory(ix->data, (size_t)(ix->listed * ix->entry_size), ix->kind, ix->base_offset, &trimmed,
                                 &te) == SS_E_OK) {
            *by_tail = ss_index_sanity_check(trimmed, abs, &te) == SS_E_OK;
            ss_index_close(trimmed);
        }
    }
    return false;
}

/* --index-sanity-check in text mode: "<file> passed sanity check." or Kafka's
 * CorruptIndexException message on stderr. */
static int text_sanity(const char *path, const ss_index *ix, const char *abs, ss_out *o) {
    ss_error e;
    bool by_tail;
    int rc = EXIT_OK;
    if (run_sanity(ix, abs, &e, &by_tail)) {
        out_str(o, path);
        out_str(o, " passed sanity check.\n");
    } else {
        out_flush(o);
        fprintf(stderr, "%s\n", e.msg);
        if (by_tail)
            warnx_("%s: the check fails on the zero-filled preallocated tail from slot %" PRId64
                   " (an active segment's index); the %" PRIu64 " %s before it %s",
                   path, ix->stopped_at_slot, ix->listed, plural(ix->listed, "entry", "entries"),
                   plural(ix->listed, "passes", "pass"));
        else rc = EXIT_DAMAGE;
    }
    return rc;
}

/* The end object's "sanityCheck" field. Returns true when the check fails for
 * more than a zero-filled preallocated tail. */
static bool json_sanity_field(ss_out *o, const ss_index *ix, const char *abs) {
    ss_error e;
    bool by_tail;
    bool ok = run_sanity(ix, abs, &e, &by_tail);
    jstr(o, "sanityCheck", e.msg);
    if (!ok) jbool(o, "sanityFailsOnZeroTailOnly", by_tail);
    return !ok && !by_tail;
}

/* Tell about bytes after the last whole entry (Kafka ignores them silently). */
static void note_partial_tail(ss_out *o, const char *path, uint64_t tail, uint64_t entry_size) {
    if (!tail) return;
    out_flush(o);
    warnx_("%s: %" PRIu64 " %s after the last whole %" PRIu64 "-byte entry (ignored, as Kafka does)", path, tail,
           plural(tail, "byte", "bytes"), entry_size);
}

/* ---- .index ---------------------------------------------------------------------------- */

static int dump_offset_index(const char *path, const struct dump_opts *opt, ss_out *o) {
    ss_error err;
    bool named;
    int64_t base = base_offset_of(path, &named);
    ss_index *ix;
    if (ss_index_open(path, SS_INDEX_OFFSET, base, &ix, &err) != SS_E_OK) return open_failed(path, opt, o, &err);
    warn_unnamed(path, named, o);
    char *abs = ss_java_absolute_path(path);
    char *log_path = sibling(path, ".log");
    if (!abs || !log_path) {
        free(abs);
        free(log_path);
        ss_index_close(ix);
        warnx_("out of memory");
        return EXIT_TROUBLE;
    }
    int rc = EXIT_OK;
    bool text = !opt->json;

    if (text && ix->entries == 0) {
        out_str(o, path);
        out_str(o, " is empty.\n");
        goto done;
    }
    if (text && opt->index_sanity_check) {
        rc = text_sanity(path, ix, abs, o);
        goto done;
    }

    ss_segment *log = NULL;
    ss_error log_err;
    bool have_log = ix->listed > 0 && ss_segment_open(log_path, &log, &log_err) == SS_E_OK;
    ss_index_checker *chk = have_log ? ss_index_checker_new(log, NULL, NULL) : NULL;
    offset_pairs mism = {0};
    uint64_t problems = 0;
    for (uint64_t i = 0; i < ix->listed; i++) {
        ss_offset_entry e = ss_index_offset_entry(ix, i);
        ss_icheck c;
        bool checked = false;
        if (chk) {
            checked = true;
            ss_index_check_offset(chk, e, opt->max_message_size, &c);
            if (c.status == SS_ICHECK_MISMATCH) {
                offset_pairs_add(&mism, e.offset, c.log_last_offset);
            } else if (c.status != SS_ICHECK_MATCH) {
                /* An all-zero slot 0 beside an empty log: a preallocated index of a
                 * segment nothing was written to yet, not damage. */
                if (i == 0 && e.offset == ix->base_offset && e.position == 0 && ss_segment_size(log) == 0) {
                    if (text) {
                        out_flush(o);
                        warnx_("%s: slot 0 is zero and %s is empty: a preallocated index of an empty segment", path,
                               log_path);
                    }
                } else {
                    problems++;
                    rc = exit_merge(rc, EXIT_DAMAGE);
                    if (text) note_entry_problem(o, path, "index", i, &c);
                }
            }
        }
        if (opt->json) {
            dump_json_head(o, "index", path);
            ji64(o, "offset", e.offset);
            ji64(o, "position", e.position);
            ji64(o, "slot", (int64_t)i);
            if (checked) {
                jstr(o, "check", check_name(c.status));
                if (c.log_last_offset >= 0 || c.status == SS_ICHECK_MISMATCH || c.status == SS_ICHECK_MATCH)
                    ji64(o, "logLastOffset", c.log_last_offset);
                if (c.status == SS_ICHECK_NO_BATCH || c.status == SS_ICHECK_ERROR) jstr(o, "reason", c.err.msg);
            }
            jend(o);
        } else if (!opt->verify_index_only) {
            LIT_I64(o, "offset: ", e.offset);
            LIT_I64(o, " position: ", e.position);
            out_ch(o, '\n');
        }
    }
    if (opt->json) {
        dump_json_head(o, "end", path);
        ji64(o, "entries", (int64_t)ix->listed);
        ji64(o, "fileSize", (int64_t)ix->file_size);
        ji64(o, "indexEntries", (int64_t)ix->entries);
        if (ix->stopped_at_slot >= 0) ji64(o, "stoppedAtSlot", ix->stopped_at_slot);
        else jnull(o, "stoppedAtSlot");
        ji64(o, "baseOffset", ix->base_offset);
        ji64(o, "lastOffset", ss_index_last_offset(ix));
        if (json_sanity_field(o, ix, abs) && opt->index_sanity_check) rc = exit_merge(rc, EXIT_DAMAGE);
        jbool(o, "zeroTail", ix->zero_tail);
        ji64(o, "unreadTailBytes", (int64_t)(ix->file_size % ix->entry_size));
        jbool(o, "logChecked", chk != NULL);
        ji64(o, "mismatches", (int64_t)mism.n);
        ji64(o, "problems", (int64_t)problems);
        jend(o);
    } else {
        if (mism.n) {
            /* Kafka prepends each mismatch to a list: newest first. */
            out_flush(o);
            fprintf(stderr, "Mismatches in :%s\n", abs);
            for (size_t k = mism.n; k-- > 0;)
                fprintf(stderr, "  Index offset: %" PRId64 ", log offset: %" PRId64 "\n", mism.v[k][0], mism.v[k][1]);
        }
        note_partial_tail(o, path, ix->file_size % ix->entry_size, ix->entry_size);
    }
    if (ix->listed > 0 && !have_log) {
        if (!opt->json) {
            out_flush(o);
            warnx_("%s: entries not checked against %s: %s", path, log_path, log_err.msg);
        }
        if (opt->verify_index_only) rc = exit_merge(rc, EXIT_TROUBLE);
    }
    free(mism.v);
    ss_index_checker_free(chk);
    ss_segment_close(log);
done:
    free(abs);
    free(log_path);
    ss_index_close(ix);
    return rc;
}

/* ---- .timeindex ---------------------------------------------------------------------------- */

static int dump_time_index(const char *path, const struct dump_opts *opt, ss_out *o) {
    ss_error err;
    bool named;
    int64_t base = base_offset_of(path, &named);
    ss_index *tix;
    if (ss_index_open(path, SS_INDEX_TIME, base, &tix, &err) != SS_E_OK) return open_failed(path, opt, o, &err);
    warn_unnamed(path, named, o);
    char *abs = ss_java_absolute_path(path);
    char *log_path = sibling(path, ".log");
    char *idx_path = sibling(path, ".index");
    ss_decoder *dec = ss_decoder_new((size_t)opt->max_batch_bytes);
    if (!abs || !log_path || !idx_path || !dec) {
        free(abs);
        free(log_path);
        free(idx_path);
        ss_decoder_free(dec);
        ss_index_close(tix);
        warnx_("out of memory");
        return EXIT_TROUBLE;
    }
    int rc = EXIT_OK;
    bool text = !opt->json;
    ss_segment *log = NULL;
    ss_index *offsets = NULL;
    ss_index_checker *chk = NULL;
    ss_error log_err, idx_err;
    bool have_log = false;
    offset_pairs ts_mism = {0}, out_of_order = {0}, not_found = {0};
    uint64_t problems = 0;

    /* Kafka runs the time index's sanity check without an "is empty" test first. */
    if (text && opt->index_sanity_check) {
        rc = text_sanity(path, tix, abs, o);
        goto done;
    }
    if (tix->listed > 0) {
        have_log = ss_segment_open(log_path, &log, &log_err) == SS_E_OK;
        if (have_log) {
            /* Kafka opens (and would create) the .index beside; a missing one answers as empty. */
            if (ss_index_open(idx_path, SS_INDEX_OFFSET, base, &offsets, &idx_err) != SS_E_OK) {
                offsets = NULL;
                if (text) {
                    out_flush(o);
                    warnx_("%s: %s: %s; positions are looked up from the start of the log", path, idx_path,
                           idx_err.msg);
                }
            }
            chk = ss_index_checker_new(log, offsets, dec);
        }
    }
    int64_t prev = -1; /* RecordBatch.NO_TIMESTAMP */
    for (uint64_t i = 0; i < tix->listed; i++) {
        ss_time_entry e = ss_index_time_entry(tix, i);
        ss_icheck c;
        bool checked = false;
        if (chk) {
            checked = true;
            switch (ss_index_check_time(chk, e, &c)) {
            case SS_ICHECK_NOT_FOUND: offset_pairs_add(&not_found, e.offset, -1); break;
            case SS_ICHECK_MISMATCH: offset_pairs_add(&not_found, e.offset, c.log_last_offset); break;
            case SS_ICHECK_MATCH:
                if (c.log_max_timestamp != e.timestamp) offset_pairs_add(&ts_mism, e.timestamp, c.log_max_timestamp);
                if (prev >= e.timestamp) offset_pairs_add(&out_of_order, e.timestamp, prev);
                break;
            default:
                problems++;
                rc = exit_merge(rc, EXIT_DAMAGE);
                if (text) note_entry_problem(o, path, "time index", i, &c);
                break;
            }
        }
        if (opt->json) {
            dump_json_head(o, "timeindex", path);
            ji64(o, "timestamp", e.timestamp);
            ji64(o, "offset", e.offset);
            ji64(o, "slot", (int64_t)i);
            if (checked) {
                jstr(o, "check", check_name(c.status));
                ji64(o, "lookupPosition", c.lookup_position);
                if (c.status == SS_ICHECK_MATCH || c.status == SS_ICHECK_MISMATCH)
                    ji64(o, "logLastOffset", c.log_last_offset);
                if (c.status == SS_ICHECK_MATCH) ji64(o, "logMaxTimestamp", c.log_max_timestamp);
                if (c.status == SS_ICHECK_ERROR || c.status == SS_ICHECK_NO_BATCH) jstr(o, "reason", c.err.msg);
            }
            jend(o);
        } else if (!opt->verify_index_only) {
            LIT_I64(o, "timestamp: ", e.timestamp);
            LIT_I64(o, " offset: ", e.offset);
            out_ch(o, '\n');
        }
        prev = e.timestamp;
    }
    if (opt->json) {
        ss_time_entry last = ss_index_last_time_entry(tix);
        dump_json_head(o, "end", path);
        ji64(o, "entries", (int64_t)tix->listed);
        ji64(o, "fileSize", (int64_t)tix->file_size);
        ji64(o, "indexEntries", (int64_t)tix->entries);
        if (tix->stopped_at_slot >= 0) ji64(o, "stoppedAtSlot", tix->stopped_at_slot);
        else jnull(o, "stoppedAtSlot");
        ji64(o, "baseOffset", tix->base_offset);
        LIT_I64(o, ",\"lastEntry\":{\"timestamp\":", last.timestamp);
        LIT_I64(o, ",\"offset\":", last.offset);
        out_ch(o, '}');
        if (json_sanity_field(o, tix, abs) && opt->index_sanity_check) rc = exit_merge(rc, EXIT_DAMAGE);
        jbool(o, "zeroTail", tix->zero_tail);
        ji64(o, "unreadTailBytes", (int64_t)(tix->file_size % tix->entry_size));
        jbool(o, "logChecked", chk != NULL);
        ji64(o, "timestampMismatches", (int64_t)ts_mism.n);
        ji64(o, "outOfOrder", (int64_t)out_of_order.n);
        ji64(o, "notFound", (int64_t)not_found.n);
        ji64(o, "problems", (int64_t)problems);
        jend(o);
    } else {
        /* TimeIndexDumpErrors.printErrors, in its order. */
        if (ts_mism.n || out_of_order.n || not_found.n) out_flush(o);
        if (ts_mism.n) {
            fprintf(stderr, "Found timestamp mismatch in :%s\n", abs);
            for (size_t k = 0; k < ts_mism.n; k++)
                fprintf(stderr, "  Index timestamp: %" PRId64 ", log timestamp: %" PRId64 "\n", ts_mism.v[k][0],
                        ts_mism.v[k][1]);
        }
        if (out_of_order.n) {
            fprintf(stderr, "Found out of order timestamp in :%s\n", abs);
            for (size_t k = 0; k < out_of_order.n; k++)
                fprintf(stderr, "  Index timestamp: %" PRId64 ", Previously indexed timestamp: %" PRId64 "\n",
                        out_of_order.v[k][0], out_of_order.v[k][1]);
        }
        if (not_found.n) {
            fprintf(stderr, "The following indexed offsets are not found in the log.\n");
            for (size_t k = 0; k < not_found.n; k++)
                fprintf(stderr, "Indexed offset: %" PRId64 ", found log offset: %" PRId64 "\n", not_found.v[k][0],
                        not_found.v[k][1]);
        }
        note_partial_tail(o, path, tix->file_size % tix->entry_size, tix->entry_size);
    }
    if (tix->listed > 0 && !have_log) {
        if (text) {
            out_flush(o);
            warnx_("%s: entries not checked against %s: %s", path, log_path, log_err.msg);
        }
        if (opt->verify_index_only) rc = exit_merge(rc, EXIT_TROUBLE);
    }
done:
    free(ts_mism.v);
    free(out_of_order.v);
    free(not_found.v);
    ss_index_checker_free(chk);
    ss_index_close(offsets);
    ss_segment_close(log);
    ss_decoder_free(dec);
    free(abs);
    free(log_path);
    free(idx_path);
    ss_index_close(tix);
    return rc;
}

/* ---- .txnindex ---------------------------------------------------------------------------- */

static int dump_txn_index(const char *path, const struct dump_opts *opt, ss_out *o) {
    ss_error err;
    bool named;
    int64_t start = base_offset_of(path, &named);
    ss_txnindex *t;
    if (ss_txnindex_open(path, start, &t, &err) != SS_E_OK) return open_failed(path, opt, o, &err);
    warn_unnamed(path, named, o);
    char *abs = ss_java_absolute_path(path);
    if (!abs) {
        ss_txnindex_close(t);
        warnx_("out of memory");
        return EXIT_TROUBLE;
    }
    int rc = EXIT_OK;
    uint64_t listed = 0;
    for (uint64_t i = 0; i < t->entries; i++) {
        ss_aborted_txn a;
        if (ss_txnindex_entry(t, i, abs, &a, &err) != SS_E_OK) {
            /* Kafka's iterator throws a KafkaException here. */
            rc = EXIT_DAMAGE;
            if (opt->json) {
                json_error(o, path, "KafkaException", err.msg, &err);
            } else {
                out_flush(o);
                warnx_("%s: entry %" PRIu64 " (byte %" PRIu64 "): %s", path, i, err.position, err.msg);
            }
            break;
        }
        listed++;
        if (opt->json) {
            dump_json_head(o, "abortedTxn", path);
            ji64(o, "version", a.version);
            ji64(o, "producerId", a.producer_id);
            ji64(o, "firstOffset", a.first_offset);
            ji64(o, "lastOffset", a.last_offset);
            ji64(o, "lastStableOffset", a.last_stable_offset);
            jend(o);
        } else {
            LIT_I64(o, "version: ", a.version);
            LIT_I64(o, " producerId: ", a.producer_id);
            LIT_I64(o, " firstOffset: ", a.first_offset);
            LIT_I64(o, " lastOffset: ", a.last_offset);
            LIT_I64(o, " lastStableOffset: ", a.last_stable_offset);
            out_ch(o, '\n');
        }
    }
    if (rc == EXIT_OK) {
        if (opt->json) {
            dump_json_head(o, "end", path);
            ji64(o, "entries", (int64_t)listed);
            ji64(o, "fileSize", (int64_t)t->file_size);
            ji64(o, "unreadTailBytes", (int64_t)t->tail_bytes);
            jstr(o, "sanityCheck", ss_txnindex_sanity_check(t, abs, &err) == SS_E_OK ? "passed" : err.msg);
            ji64(o, "startOffset", t->start_offset);
            jend(o);
        } else {
            note_partial_tail(o, path, t->tail_bytes, SS_ABORTED_TXN_SIZE);
        }
    }
    free(abs);
    ss_txnindex_close(t);
    return rc;
}

/* ---- producer .snapshot ---------------------------------------------------------------------- */

static int dump_snapshot(const char *path, const struct dump_opts *opt, ss_out *o) {
    ss_snapshot s;
    ss_error err;
    ss_errkind k = ss_snapshot_read(path, &s, &err);
    if (k == SS_E_IO || k == SS_E_NOMEM) {
        ss_snapshot_free(&s);
        return open_failed(path, opt, o, &err);
    }
    if (k != SS_E_OK) {
        /* DumpLogSegments catches CorruptSnapshotException and prints its message on stderr */
        if (opt->json) {
            dump_json_head(o, "error", path);
            jstr(o, "exception", "CorruptSnapshotException");
            jstr(o, "message", err.msg);
            jstr(o, "kind", ss_errkind_name(err.kind));
            ji64(o, "position", (int64_t)err.position);
            ji64(o, "fileSize", (int64_t)s.file_size);
            if (s.file_size >= 10) {
                ji64(o, "version", s.version);
                ji64(o, "crc", s.crc);
                ji64(o, "computedCrc", s.crc_computed);
            }
            jend(o);
        } else {
            /* Kafka's message, in the form of every other damage report (file, byte, kind) */
            out_flush(o);
            report_error(path, &err);
        }
        ss_snapshot_free(&s);
        return EXIT_DAMAGE;
    }
    for (size_t i = 0; i < s.n; i++) {
        const ss_producer_entry *e = &s.entries[i];
        if (opt->json) {
            dump_json_head(o, "producer", path);
            ji64(o, "producerId", e->producer_id);
            ji64(o, "producerEpoch", e->producer_epoch);
            ji64(o, "coordinatorEpoch", e->coordinator_epoch);
            if (e->has_txn) ji64(o, "currentTxnFirstOffset", e->current_txn_first_offset);
            else jnull(o, "currentTxnFirstOffset");
            ji64(o, "lastTimestamp", e->timestamp);
            if (e->has_batch) {
                ji64(o, "firstSequence", e->first_sequence);
                ji64(o, "lastSequence", e->last_sequence);
                ji64(o, "lastOffset", e->last_offset);
                ji64(o, "offsetDelta", e->offset_delta);
                ji64(o, "timestamp", e->timestamp);
            } else {
                jnull(o, "firstSequence");
                jnull(o, "lastSequence");
                jnull(o, "lastOffset");
                jnull(o, "offsetDelta");
                jnull(o, "timestamp");
                /* the stored fields, which Kafka drops without batch metadata */
                ji64(o, "storedLastSequence", e->last_sequence);
                ji64(o, "storedLastOffset", e->last_offset);
                ji64(o, "storedOffsetDelta", e->offset_delta);
            }
            jend(o);
        } else {
            LIT_I64(o, "producerId: ", e->producer_id);
            LIT_I64(o, " producerEpoch: ", e->producer_epoch);
            LIT_I64(o, " coordinatorEpoch: ", e->coordinator_epoch);
            out_str(o, " currentTxnFirstOffset: ");
            if (e->has_txn) {
                LIT_I64(o, "OptionalLong[", e->current_txn_first_offset);
                out_ch(o, ']');
            } else {
                out_str(o, "OptionalLong.empty");
            }
            LIT_I64(o, " lastTimestamp: ", e->timestamp);
            out_ch(o, ' ');
            if (e->has_batch) {
                LIT_I64(o, "firstSequence: ", e->first_sequence);
                LIT_I64(o, " lastSequence: ", e->last_sequence);
                LIT_I64(o, " lastOffset: ", e->last_offset);
                LIT_I64(o, " offsetDelta: ", e->offset_delta);
                LIT_I64(o, " timestamp: ", e->timestamp);
            }
            out_ch(o, '\n');
        }
    }
    if (opt->json) {
        dump_json_head(o, "end", path);
        ji64(o, "entries", (int64_t)s.n);
        ji64(o, "fileSize", (int64_t)s.file_size);
        ji64(o, "version", s.version);
        ji64(o, "crc", s.crc);
        ji64(o, "trailingBytes", (int64_t)s.trailing_bytes);
        jend(o);
    }
    ss_snapshot_free(&s);
    return EXIT_OK;
}

int dump_index_file(const char *path, const struct dump_opts *o, ss_out *out) {
    switch (type_of(path)) {
    case T_INDEX: return dump_offset_index(path, o, out);
    case T_TIMEINDEX: return dump_time_index(path, o, out);
    case T_TXNINDEX: return dump_txn_index(path, o, out);
    case T_SNAPSHOT: return dump_snapshot(path, o, out);
    default:
        out_flush(out);
        fprintf(stderr, "Ignoring unknown file %s\n", path);
        return EXIT_OK;
    }
}
