/* segscan - what the views of the analysis commands share: colour, times,
 * partition names, previews of keys and values, the JSON byte fields, the
 * transactional.id of a producer id. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"
#include "common/out.h"
#include "views/figures.h"
#include "views/scan.h"

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

size_t scan_first_of(const ss_analysis *an, size_t n, uint32_t (*partition_of)(const ss_analysis *, size_t),
                     uint32_t part) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (partition_of(an, mid) < part) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

const char *scan_part_name(const struct scan_cli *c, uint32_t part) {
    return ss_an_partition_at(c->an, part)->input->name;
}

const char *scan_temporary_meaning(const char *kind) {
    /* what the broker left it for: LogFileUtils (DELETE_DIR_SUFFIX, DELETED_FILE_SUFFIX,
     * CLEANED_FILE_SUFFIX, SWAP_FILE_SUFFIX), LocalLog (FutureDirSuffix, StrayDirSuffix) */
    static const struct {
        const char *kind, *meaning;
    } t[] = {
        {"-delete", "a partition directory renamed for deletion when its topic was deleted or the replica moved "
                    "away, removed after file.delete.delay.ms"},
        {"-future", "the copy an intra-broker move of the replica to another log directory is building"},
        {"-stray", "a replica this broker no longer hosts, found at startup, KIP-858"},
        {".deleted", "segments scheduled for deletion by retention or replaced by the cleaner's output, removed "
                     "after file.delete.delay.ms"},
        {".cleaned", "the log cleaner's output while it is written"},
        {".swap", "cleaned or split segments about to replace the ones they were made from"},
    };
    for (size_t i = 0; kind && i < sizeof t / sizeof *t; i++)
        if (!strcmp(t[i].kind, kind)) return t[i].meaning;
    return "a broker temporary";
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

/* "2024-04-19T13:29:51.413Z" for a record's time, "an unknown time" for none */
static void block_time(char *buf, size_t n, int64_t ms) {
    if (ms < 0) snprintf(buf, n, "an unknown time");
    else cli_format_time(ms, buf, n);
}

/* Where a block's record sits: "__cluster_metadata-0 offset 38", or the snapshot's file. */
static void block_place(const struct scan_cli *c, const ss_pid_block *k, sbuf *b) {
    if (k->partition != UINT32_MAX)
        sb_printf(b, "%s offset %" PRId64, ss_inputs_at(c->in, k->partition)->name, k->offset);
    else sb_printf(b, "%s offset %" PRId64, k->file, k->offset);
}

bool scan_pid_origin(const struct scan_cli *c, int64_t producer_id, sbuf *b) {
    const ss_pid_block *k;
    char t[48];
    switch (ss_pid_blocks_find(c->pid_blocks, producer_id, &k)) {
    case SS_PID_BLOCK:
        block_time(t, sizeof t, k->timestamp);
        sb_printf(b, "handed out by broker %" PRId32 " (its block [%" PRId64 ", %" PRId64 ") was allocated at %s, ",
                  k->broker_id, k->first, k->end, t);
        block_place(c, k, b);
        sb_printf(b, ")");
        return true;
    case SS_PID_UNKNOWN_EARLIER:
        sb_printf(b, "handed out by an unknown broker: its block's record is not among those read (a snapshot "
                     "replaced it, or its segment was not given)");
        if (k) {
            block_time(t, sizeof t, k->timestamp);
            sb_printf(b, "; it was allocated before %s (", t);
            if (k->from_snapshot) sb_printf(b, "the snapshot %s", k->file);
            else {
                sb_printf(b, "when broker %" PRId32 " was allocated [%" PRId64 ", %" PRId64 "), ", k->broker_id,
                          k->first, k->end);
                block_place(c, k, b);
            }
            sb_printf(b, ")");
        }
        return true;
    case SS_PID_NOT_FOUND:
        sb_printf(b, "handed out by an unknown broker: no producer-id block read holds it (allocated after the "
                     "metadata log read ends, or not by this cluster's controllers)");
        return true;
    default: return false;
    }
}

void scan_json_pid_block(const struct scan_cli *c, int64_t producer_id) {
    ss_out *o = c->out;
    const ss_pid_block *k;
    enum ss_pid_origin why = ss_pid_blocks_find(c->pid_blocks, producer_id, &k);
    out_str(o, ",\"producerIdBlock\":");
    if (why == SS_PID_NO_METADATA) {
        out_str(o, "null");
        return;
    }
    out_str(o, "{\"origin\":");
    out_json_cstr(o, why == SS_PID_BLOCK ? "block" : why == SS_PID_UNKNOWN_EARLIER ? "unknown-earlier" : "not-found");
    if (why == SS_PID_BLOCK) out_printf(o, ",\"broker\":%" PRId32 ",\"brokerEpoch\":", k->broker_id);
    else out_str(o, ",\"broker\":null,\"brokerEpoch\":");
    if (why == SS_PID_BLOCK && k->broker_epoch >= 0) out_i64(o, k->broker_epoch);
    else out_str(o, "null");
    if (why == SS_PID_BLOCK) out_printf(o, ",\"blockFirst\":%" PRId64 ",\"blockEnd\":%" PRId64, k->first, k->end);
    else out_str(o, ",\"blockFirst\":null,\"blockEnd\":null");
    /* the record: the block's, or (unknown-earlier) the nearest later one */
    if (k) {
        out_str(o, ",\"recordTimestamp\":");
        if (k->timestamp >= 0) out_i64(o, k->timestamp);
        else out_str(o, "null");
        out_str(o, ",\"recordFile\":");
        out_json_cstr(o, k->file);
        out_printf(o, ",\"recordOffset\":%" PRId64, k->offset);
    } else {
        out_str(o, ",\"recordTimestamp\":null,\"recordFile\":null,\"recordOffset\":null");
    }
    out_ch(o, '}');
}

void scan_json_bytes(ss_out *o, enum bytes_mode m, const char *name, const uint8_t *p, int32_t len) {
    out_json_key(o, name);
    if (out_json_bytes(o, m, p, len)) {
        out_str(o, ",\"");
        out_str(o, name);
        out_str(o, "Lossy\":true");
    }
}

void sb_printf(sbuf *b, const char *fmt, ...) {
    va_list ap;
    for (;;) {
        size_t room = b->cap - b->n;
        va_start(ap, fmt);
        int k = vsnprintf(b->p ? b->p + b->n : NULL, room, fmt, ap);
        va_end(ap);
        if (k < 0) return;
        if ((size_t)k < room) {
            b->n += (size_t)k;
            return;
        }
        /* doubled (from 256) until the text and its NUL fit */
        while (b->cap - b->n <= (size_t)k)
            if (!SS_ARRAY_GROW(b->p, b->cap, b->cap, 256)) return;
    }
}

/* ---- what a verdict rests on -------------------------------------------------------------- */

static size_t sibling_count(struct scan_cli *c) {
    /* the inputs look for siblings on first asking (read-only directory listings) */
    return ss_inputs_sibling_count((ss_inputs *)c->in);
}

void scan_json_scope(struct scan_cli *c) {
    ss_out *o = c->out;
    out_lit(o, ",\"scope\":{\"partitionsRead\":[");
    for (size_t i = 0; i < ss_an_partition_count(c->an); i++) {
        if (i) out_ch(o, ',');
        out_json_cstr(o, ss_an_partition_at(c->an, i)->input->name);
    }
    out_lit(o, "],\"siblingsNotRead\":[");
    size_t ns = sibling_count(c);
    for (size_t i = 0; i < ns; i++) {
        if (i) out_ch(o, ',');
        out_json_cstr(o, ss_inputs_sibling_at(c->in, i)->name);
    }
    /* the copies of partitions given from several directories, and where each came from */
    out_lit(o, "],\"replicas\":[");
    bool first = true;
    for (size_t i = 0; i < ss_an_partition_count(c->an); i++) {
        const ss_input_partition *ip = ss_an_partition_at(c->an, i)->input;
        for (size_t k = 0; k < ip->nreplicas; k++, first = false) {
            const ss_input_replica *r = &ip->replicas[k];
            out_str(o, first ? "{\"partition\":" : ",{\"partition\":");
            out_json_cstr(o, ip->name);
            out_lit(o, ",\"name\":");
            out_json_cstr(o, r->name);
            out_lit(o, ",\"path\":");
            out_json_cstr(o, r->path);
            if (r->node_id >= 0) out_printf(o, ",\"broker\":%" PRId32 "}", r->node_id);
            else out_lit(o, ",\"broker\":null}");
        }
    }
    out_lit(o, "]");
    /* the partitions read from exports: each with its file and the broker it names */
    bool any = false;
    for (size_t i = 0; i < ss_an_partition_count(c->an); i++) {
        const ss_input_partition *ip = ss_an_partition_at(c->an, i)->input;
        if (!ip->export_file) continue;
        out_str(o, any ? ",{\"partition\":" : ",\"exports\":[{\"partition\":");
        any = true;
        out_json_cstr(o, ip->name);
        out_lit(o, ",\"file\":");
        out_json_cstr(o, ip->export_file);
        out_lit(o, ",\"broker\":");
        if (ip->export_broker >= 0) out_printf(o, "%d", ip->export_broker);
        else out_lit(o, "null");
        out_ch(o, '}');
    }
    if (any) out_ch(o, ']');
    out_lit(o, ",\"otherBrokers\":\"unknown\"}");
}

/* the inputs that could not be read, every one (the text summary: the first 10) */
static void scan_json_unreadable(struct scan_cli *c) {
    ss_out *o = c->out;
    out_lit(o, ",\"unreadable\":[");
    for (size_t i = 0; i < ss_inputs_unreadable_count(c->in); i++) {
        const ss_input_unreadable *u = ss_inputs_unreadable_at(c->in, i);
        out_str(o, i ? ",{\"path\":" : "{\"path\":");
        out_json_cstr(o, u->path);
        out_lit(o, ",\"reason\":");
        out_json_cstr(o, u->reason);
        out_ch(o, '}');
    }
    out_ch(o, ']');
}

void scan_unreadable_text(struct scan_cli *c) {
    size_t n = ss_inputs_unreadable_count(c->in);
    if (!n) return;
    ss_out *o = c->out;
    out_printf(o, "  unreadable    %zu %s not read:", n, n == 1 ? "input" : "inputs");
    for (size_t i = 0; i < n && i < 10; i++) {
        const ss_input_unreadable *u = ss_inputs_unreadable_at(c->in, i);
        out_printf(o, "%s%s (%s)", i ? "; " : " ", u->path, u->reason);
    }
    if (n > 10) out_printf(o, "; and %zu more (--json lists every one)", n - 10);
    out_ch(o, '\n');
}

void scan_scope_sentence(struct scan_cli *c, sbuf *b) {
    size_t np = ss_an_partition_count(c->an), ns = sibling_count(c);
    sb_printf(b, " This rests on the %s read (", np == 1 ? "partition" : "partitions");
    for (size_t i = 0; i < np && i < 10; i++) {
        const ss_input_partition *ip = ss_an_partition_at(c->an, i)->input;
        sb_printf(b, "%s%s", i ? ", " : "", ip->name);
        if (ip->export_file && ip->export_broker >= 0)
            sb_printf(b, " from the export %s of broker %d", ip->export_file, ip->export_broker);
        else if (ip->export_file) sb_printf(b, " from the export %s (broker unknown)", ip->export_file);
    }
    if (np > 10) sb_printf(b, " and %zu more", np - 10);
    sb_printf(b, ")");
    if (ns) {
        /* siblings that could not be read are among them (ss_inputs_sibling_at) */
        sb_printf(b, "; %s of the same topic %s beside %s and %s not read (", ns == 1 ? "a partition" : "partitions",
                  ns == 1 ? "sits" : "sit", np == 1 ? "it" : "them", ns == 1 ? "was" : "were");
        for (size_t i = 0; i < ns && i < 10; i++)
            sb_printf(b, "%s%s", i ? ", " : "", ss_inputs_sibling_at(c->in, i)->name);
        if (ns > 10) sb_printf(b, " and %zu more", ns - 10);
        sb_printf(b, "): a copy there was not looked for");
    }
    for (size_t i = 0; i < np; i++) {
        const ss_input_partition *ip = ss_an_partition_at(c->an, i)->input;
        if (!ip->nreplicas) continue;
        sb_printf(b, "; %s read as one from %zu replicas (", ip->name, ip->nreplicas);
        for (size_t k = 0; k < ip->nreplicas; k++) {
            const ss_input_replica *r = &ip->replicas[k];
            if (r->node_id >= 0) sb_printf(b, "%s%s, broker %d", k ? "; " : "", r->path, (int)r->node_id);
            else sb_printf(b, "%s%s, broker unknown", k ? "; " : "", r->path);
        }
        sb_printf(b, ")");
    }
    sb_printf(b, "; partitions on other brokers are unknown.");
}

void scan_json_total(struct scan_cli *c) {
    ss_out *o = c->out;
    const ss_an_totals *t = ss_an_totals_get(c->an);
    out_str(o, "{\"type\":\"total\"");
    figs_json(o, total_figs, ntotal_figs, t);
    out_str(o, ",\"causes\":{");
    for (enum ss_cause k = SS_CAUSE_ABORTED; k < SS_CAUSE_COUNT; k++) {
        if (k > 1) out_ch(o, ',');
        out_json_cstr(o, ss_cause_name(k));
        out_ch(o, ':');
        out_u64(o, t->cause[k]);
    }
    out_ch(o, '}');
    scan_json_scope(c);
    scan_json_unreadable(c);
    out_str(o, "}\n");
}
