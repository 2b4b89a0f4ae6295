/* segscan - the reading half of the analysis: a unit of a segment into facts.
 * See units.h for the design. */
#define _GNU_SOURCE 1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/fingerprint.h"
#include "analysis/units.h"
#include "base/reader.h"
#include "format/batch.h"
#include "format/kafka_format.h"
#include "format/record.h"
#include "format/walker.h"
#include "inputs/export_in.h"
#include "segscan/base.h"


/* A resync candidate larger than this is not checked: the start it would give
 * could only be wrong, and a wrong start is caught and read again anyway. */
#define RESYNC_MAX_ENTRY ((uint64_t)16 << 20)

/* ---- reader --------------------------------------------------------------------------- */

bool an_reader_init(an_reader *r, size_t max_batch_bytes, bool fast) {
    memset(r, 0, sizeof *r);
    r->fast = fast;
    r->dec = ss_decoder_new(max_batch_bytes);
    r->st128 = XXH3_createState();
    r->st64 = XXH3_createState();
    if (!r->dec || !r->st128 || !r->st64) {
        an_reader_free(r);
        return false;
    }
    return true;
}

void an_reader_free(an_reader *r) {
    ss_decoder_free(r->dec);
    XXH3_freeState(r->st128);
    XXH3_freeState(r->st64);
    ss_window_free(&r->win);
    memset(r, 0, sizeof *r);
}

void an_unit_clear(an_unit *u) {
    u->started = u->stopped = 0;
    u->ended = u->nomem = u->full = false;
    u->records = 0;
    u->nfp = 0;
    u->ev.n = u->rec.n = u->mark.n = u->err.n = 0;
}

void an_unit_free(an_unit *u) {
    ss_big_free(u->ev.v);
    ss_big_free(u->rec.v);
    ss_big_free(u->mark.v);
    ss_big_free(u->err.v);
    memset(u, 0, sizeof *u);
}

/* ---- one batch into facts ---------------------------------------------------------------- */

static bool in_time_window(const ss_an_opts *o, int64_t ts) { return ts >= o->since_ms && ts <= o->until_ms; }
static bool in_offset_window(const ss_an_opts *o, int64_t off) { return off >= o->from_offset && off <= o->to_offset; }

static void hash_be32(XXH3_state_t *st, int32_t v) {
    uint8_t b[4] = {(uint8_t)((uint32_t)v >> 24), (uint8_t)((uint32_t)v >> 16), (uint8_t)((uint32_t)v >> 8),
                    (uint8_t)v};
    XXH3_64bits_update(st, b, 4);
}

static void hash_be64(XXH3_state_t *st, int64_t v) {
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)((uint64_t)v >> (56 - 8 * i));
    XXH3_64bits_update(st, b, 8);
}

static bool record_matches(const ss_an_opts *o, const ss_record *r, bool part_match) {
    switch (o->match) {
    case SS_MATCH_VALUE:
        return r->value_len >= 0 && (size_t)r->value_len == o->match_len &&
               (o->match_len == 0 || !memcmp(r->value, o->match_bytes, o->match_len));
    case SS_MATCH_VALUE_CONTAINS:
        return r->value_len >= 0 &&
               (o->match_len == 0 || memmem(r->value, (size_t)r->value_len, o->match_bytes, o->match_len) != NULL);
    case SS_MATCH_KEY:
        return r->key_len >= 0 && (size_t)r->key_len == o->match_len &&
               (o->match_len == 0 || !memcmp(r->key, o->match_bytes, o->match_len));
    case SS_MATCH_OFFSET: return part_match && r->offset == o->match_offset;
    default: return false;
    }
}

/* A record rebuilt from an export: the value's fingerprint the export carries (the same
 * XXH3-128 ss_fp_record computes; --by value only: the CLI refuses the other modes). */
static bool export_fp(const ss_record *rec, const ss_an_opts *o, uint64_t *hi, uint64_t *lo) {
    int32_t vs;
    return o->by == SS_BY_VALUE && ss_xcell_read(rec->value, rec->value_len, hi, lo, &vs) &&
           (uint64_t)vs >= o->min_bytes;
}

/* explain's selectors on a record rebuilt from an export: a value or key asked for is
 * fingerprinted as the export's writer did (the value's XXH3-128, the key's high 64 bits) and
 * compared with the cell, sizes included; a substring cannot be (the CLI refuses it). */
static bool export_matches(const ss_an_opts *o, const ss_record *r, bool part_match) {
    const uint8_t *v = r->value;
    if (o->match == SS_MATCH_OFFSET) return part_match && r->offset == o->match_offset;
    if (r->value_len != SS_XCELL_SIZE || !v) return false;
    XXH128_hash_t h = XXH3_128bits(o->match_bytes, o->match_len);
    if (o->match == SS_MATCH_VALUE) {
        uint64_t hi, lo;
        int32_t vs;
        return ss_xcell_read(v, r->value_len, &hi, &lo, &vs) && (size_t)vs == o->match_len && hi == h.high64 &&
               lo == h.low64;
    }
    if (o->match == SS_MATCH_KEY) {
        int32_t ks = (int32_t)((uint32_t)v[25] << 24 | (uint32_t)v[26] << 16 | (uint32_t)v[27] << 8 | v[28]);
        return (v[0] & 2) && (size_t)ks == o->match_len && ss_xcell_be64(v + 17) == h.high64;
    }
    return false;
}

static void push_err(an_unit *u, an_ev *e, const ss_error *err) {
    size_t before = u->err.n;
    SS_VEC_PUSH(u->err, *err, u->nomem = true);
    e->err = u->err.n > before ? (uint32_t)(u->err.n - 1) : AN_NONE32;
}

static void push_ev(an_unit *u, const an_ev *e) { SS_VEC_PUSH(u->ev, *e, u->nomem = true); }

static void ev_init(an_ev *e, int kind) {
    memset(e, 0, sizeof *e);
    e->kind = (uint8_t)kind;
    e->err = AN_NONE32;
    e->bi = AN_NONE32;
    e->first_ts = -1;
    e->ts_min = INT64_MAX;
    e->ts_max = INT64_MIN;
}

static void batch_error(an_unit *u, an_ev *e, ss_error *err, const ss_batch *b) {
    e->verdict = AV_ERROR;
    e->too_large = err->kind == SS_E_TOO_LARGE;
    err->length = b->size;
    push_err(u, e, err);
    push_ev(u, e);
}

/* The decisions of the coordinator's apply_batch that need the batch's bytes,
 * made here; the rest is made there. Every batch and every record is read,
 * whatever the window: what lies outside it is known (markers, sessions,
 * fingerprints), only not listed; the window's records are counted (nin). */
static void read_batch(an_reader *r, const ss_an_opts *o, const an_pinfo *pi, an_unit *u, const ss_batch *b) {
    /* offsets another copy of the partition gives (replicas read once) */
    if (!ss_offset_range_has(u->read_from, u->read_to, b->base_offset)) return;
    an_ev e;
    ev_init(&e, AE_BATCH);
    e.b = *b;
    e.b.data = NULL;
    /* a batch rebuilt from an export: its compression in attribute bits 8-10 (its records are not) */
    if (pi->exported) e.b.codec = (enum ss_codec)(((uint16_t)b->attributes >> SS_XCELL_CODEC_SHIFT) & 7);
    bool pid_ok = !o->filter_pid || b->producer_id == o->producer_id;
    int64_t ls = pi->log_start;
    bool off_any = b->last_offset >= o->from_offset && b->base_offset <= o->to_offset;
    bool below_ls = ls >= 0 && b->last_offset < ls;
    e.in_window = pid_ok && off_any && !below_ls && in_time_window(o, b->max_timestamp);
    ss_error err;
    ss_rec_iter it;
    /* once a batch (the parser's early error returns leave a record unset, which
     * GCC cannot tell is then never read) */
    ss_record rec = {0};
    int k;

    if (b->control) {
        if (ss_records_begin(r->dec, b, &it, &err) != SS_E_OK) {
            batch_error(u, &e, &err, b);
            return;
        }
        e.first = (uint32_t)u->mark.n;
        uint64_t n = 0;
        while ((k = ss_records_next_inline(&it, &rec, &err)) == 1) {
            n++;
            if (b->transactional && b->producer_id >= 0 &&
                (rec.control_type == SS_CTRL_ABORT || rec.control_type == SS_CTRL_COMMIT)) {
                an_mark m = {rec.offset, rec.coordinator_epoch, rec.control_type};
                SS_VEC_PUSH(u->mark, m, u->nomem = true; return );
            }
        }
        e.n = (uint32_t)(u->mark.n - e.first);
        if (k < 0) {
            e.too_large = false;
            e.verdict = AV_ERROR;
            err.length = b->size;
            push_err(u, &e, &err);
            push_ev(u, &e);
            return;
        }
        e.verdict = AV_CONTROL;
        e.count = n;
        push_ev(u, &e);
        return;
    }

    if (below_ls) {
        /* records not read: a v2 batch's count, a v0/v1 wrapper's inner messages (when parsing counted them) */
        int32_t declared = b->count > 0                ? b->count
                           : b->magic >= 2             ? 0
                           : b->legacy_inner_count > 0 ? b->legacy_inner_count
                                                       : 1;
        e.verdict = AV_HIDDEN;
        e.count = (uint64_t)declared;
        push_ev(u, &e);
        return;
    }
    if (ss_records_begin(r->dec, b, &it, &err) != SS_E_OK) {
        batch_error(u, &e, &err, b);
        return;
    }
    bool nopid = b->producer_id < 0;
    /* The content of a batch without producer id, to recognise a retry: the
     * same records (keys, values, headers, timestamp and offset deltas) and
     * the same stored producer timestamps.
     *  - v2, CreateTime: the batch's CRC-32C (checked) and its size. A retry
     *    is the producer's batch sent again byte for byte, and the broker
     *    rewrites only the base offset and the leader epoch, which the CRC
     *    does not cover (LogValidator: maxTimestamp is set to what it was). No
     *    pass over the records: XXH3 of every byte took 3.5% of a scan.
     *  - v2, LogAppendTime: the broker rewrote maxTimestamp, and so the CRC:
     *    the XXH3-64 of the records section and the base timestamp instead.
     *  - legacy: field by field (each message carries its offset and CRC). */
    bool field_hash = nopid && b->magic < 2;
    if (nopid && !field_hash && b->timestamp_type != SS_TS_LOG_APPEND)
        e.content = (uint64_t)b->crc << 32 | (uint32_t)b->size;
    else if (nopid && !field_hash) {
        const ss_rec_state *rs = ss_rec_state_of(&it);
        e.content = XXH3_64bits_withSeed(rs->p, (size_t)(rs->end - rs->p), (uint64_t)b->base_timestamp) ^
                    (uint64_t)(uint32_t)b->count * 0x9E3779B97F4A7C15ULL;
    }
    if (field_hash) XXH3_64bits_reset(r->st64);
    size_t first = u->rec.n;
    bool want_match = o->match != SS_MATCH_NONE;
    int32_t total = 0;
    uint32_t nin = 0;
    for (;;) {
        k = ss_records_next_inline(&it, &rec, &err);
        if (k != 1) break;
        if (total++ == 0) e.first_ts = rec.timestamp;
        if (field_hash) {
            hash_be32(r->st64, rec.key_len);
            if (rec.key_len > 0) XXH3_64bits_update(r->st64, rec.key, (size_t)rec.key_len);
            hash_be32(r->st64, rec.value_len);
            if (rec.value_len > 0) XXH3_64bits_update(r->st64, rec.value, (size_t)rec.value_len);
            hash_be32(r->st64, rec.header_count);
            if (rec.headers_len) XXH3_64bits_update(r->st64, rec.headers, rec.headers_len);
            hash_be64(r->st64, rec.timestamp); /* legacy: the message's own timestamp */
        }
        if (ls >= 0 && rec.offset < ls) {
            e.hidden++;
            continue;
        }
        if (!SS_GROW_BIG(u->rec.v, u->rec.n, u->rec.cap, 1024)) {
            u->nomem = true;
            return;
        }
        an_rec *s = &u->rec.v[u->rec.n++];
        int64_t delta = ss_sub64(rec.offset, b->base_offset);
        s->ts = rec.timestamp;
        s->delta = (uint32_t)delta;
        s->flags = 0;
        if (!pi->dups_excluded && delta >= 0 && delta < (int64_t)UINT32_MAX - 1 &&
            (pi->exported ? export_fp(&rec, o, &s->hi, &s->lo)
                          : ss_fp_record(r->st128, &rec, o->by, o->min_bytes, &s->hi, &s->lo))) {
            s->flags = AR_FP;
            u->nfp++;
        }
        if (!pid_ok || !in_offset_window(o, rec.offset) || !in_time_window(o, rec.timestamp)) {
            e.outside++;
            continue;
        }
        nin++;
        if (want_match &&
            (pi->exported ? export_matches(o, &rec, pi->part_match) : record_matches(o, &rec, pi->part_match)))
            s->flags |= AR_MATCH;
        if (rec.timestamp >= 0) {
            if (rec.timestamp < e.ts_min) e.ts_min = rec.timestamp;
            if (rec.timestamp > e.ts_max) e.ts_max = rec.timestamp;
        }
    }
    if (k < 0) {
        u->rec.n = first;
        batch_error(u, &e, &err, b);
        return;
    }
    if (field_hash) {
        hash_be32(r->st64, total);
        e.content = XXH3_64bits_digest(r->st64);
    }
    e.verdict = AV_DATA;
    e.first = (uint32_t)first;
    e.n = (uint32_t)(u->rec.n - first);
    e.nin = nin;
    e.total = total;
    u->records += (uint64_t)total;
    push_ev(u, &e);
}

/* ---- where a unit starts ----------------------------------------------------------------- */

/* Is the entry at `at` (size bytes) followed by another plausible entry (or
 * zeros, or the end), and CRC-valid? Reads in window-sized pieces, so a false
 * candidate with a large length does not grow the window. */
static bool entry_ok(ss_window *win, const ss_segment *s, uint64_t limit, uint64_t at, uint64_t size) {
    if (size > RESYNC_MAX_ENTRY) return false;
    uint64_t next = at + size;
    uint64_t tail = limit - next < V2_OVERHEAD ? limit - next : V2_OVERHEAD;
    if (tail) {
        uint8_t q[V2_OVERHEAD];
        if (ss_segment_read(s, next, q, (size_t)tail) != tail) return false;
        uint64_t nsize;
        bool zeros = true;
        for (uint64_t i = 0; i < tail && zeros; i++) zeros = q[i] == 0;
        if (!zeros && !ss_entry_plausible(q, (size_t)tail, limit - next, &nsize)) return false;
    }
    if (!ss_window_fill(win, s, limit, at, HEADER_UP_TO_MAGIC + 4)) return false;
    const uint8_t *p = win->buf + (at - win->at);
    bool v2 = p[ENTRY_MAGIC_OFF] == 2;
    uint32_t want = v2 ? ss_be32(p + V2_CRC_OFF) : ss_be32(p + LEGACY_CRC_OFF);
    uint64_t from = at + (v2 ? 21 : 16);
    uint32_t crc = 0;
    while (from < next) {
        uint64_t n = next - from < SS_WINDOW_BYTES ? next - from : SS_WINDOW_BYTES;
        if (!ss_window_fill(win, s, limit, from, n)) return false;
        const uint8_t *c = win->buf + (from - win->at);
        crc = v2 ? ss_crc32c(crc, c, (size_t)n) : ss_crc32(crc, c, (size_t)n);
        from += n;
    }
    return crc == want;
}

uint64_t an_find_boundary_before(ss_window *win, const ss_segment *s, uint64_t limit, uint64_t from, uint64_t stop) {
    uint64_t q = from;
    if (stop > limit) stop = limit;
    while (q + HEADER_UP_TO_MAGIC <= limit && q < stop) {
        uint64_t want = limit - q < V2_OVERHEAD ? limit - q : V2_OVERHEAD;
        if (!ss_window_fill(win, s, limit, q, want)) return limit;
        const uint8_t *w = win->buf + (q - win->at);
        size_t avail = win->len - (size_t)(q - win->at);
        size_t i = 0;
        bool moved = false;
        /* the magic byte first: it rules out almost every position; near the
         * window's end the window moves on, unless the file ends there */
        for (; i + HEADER_UP_TO_MAGIC <= avail && q + i < stop; i++) {
            if (w[i + 16] > 2) continue;
            if (avail - i < V2_OVERHEAD && q + i + V2_OVERHEAD <= limit) break;
            uint64_t size;
            if (!ss_entry_plausible(w + i, avail - i, limit - (q + i), &size)) continue;
            if (entry_ok(win, s, limit, q + i, size)) return q + i;
            q += i + 1;
            moved = true;
            break;
        }
        if (!moved) q += i ? i : 1;
    }
    return q < stop ? limit : stop;
}

/* ---- a unit ---------------------------------------------------------------------------------- */

void an_unit_read(an_reader *r, const ss_an_opts *o, const an_pinfo *pi, an_unit *u) {
    an_unit_clear(u);
    const ss_segment *s = u->s;
    uint64_t limit = u->limit;
    uint64_t pos = u->start;
    /* the guess looks only inside the unit: one past it would be checked and read again anyway,
     * and each unit in flight searching to the end of a preallocated segment's zeros made the
     * scan of a 1 GiB one take 3.6 s of CPU with two threads against 0.9 s with one */
    r->win.read_to = u->end == UINT64_MAX ? 0 : u->end;
    if (u->resync) pos = an_find_boundary_before(&r->win, s, limit, pos, u->end);
    u->started = pos;
    ss_walker w;
    bool walking = false;
    ss_event ev;
    ss_batch b;
    ss_batch bad; /* the header of the last entry whose CRC failed (its damage event follows) */
    bool have_bad = false;
    for (;;) {
        if (u->nomem) break;
        if (u->end != UINT64_MAX && pos >= u->end) break;
        if (u->rec.n >= u->max_records || u->ev.n >= u->max_events) {
            u->full = true; /* memory stays bounded whatever the compression ratio */
            break;
        }
        if (r->fast && ss_window_batch(&r->win, s, limit, pos, r->dec, &b)) {
            /* the fast path: a whole entry in the window with a valid CRC */
            read_batch(r, o, pi, u, &b);
            pos += b.size;
            continue;
        }
        /* anything else: one event of the walker over the mapping */
        if (!walking) {
            ss_walker_init(&w, s, UINT64_MAX);
            ss_walker_set_decoder(&w, r->dec);
            walking = true;
        }
        if (ss_walker_limit(&w) < limit) limit = ss_walker_limit(&w); /* the walker found the file cut */
        ss_walker_seek(&w, pos);
        bool stop = false;
        for (;;) {
            ss_event_kind k = ss_walker_next(&w, &ev);
            if (k == SS_EV_END) {
                an_ev e;
                ev_init(&e, AE_END);
                e.tail = ev.tail_bytes;
                e.tail_zero = ev.tail_kind == SS_E_ZERO_TAIL;
                e.b.position = ev.file_size - ev.tail_bytes; /* where the tail begins */
                /* a notice: the file grew while it was read (other kinds there are left over
                 * from the parse that found the tail) */
                if (ev.err.kind == SS_E_GREW) push_err(u, &e, &ev.err);
                push_ev(u, &e);
                u->ended = true;
                pos = ss_walker_pos(&w) > pos ? ss_walker_pos(&w) : pos;
                stop = true;
                break;
            }
            if (k == SS_EV_DAMAGE) {
                an_ev e;
                ev_init(&e, AE_DAMAGE);
                if (have_bad && ev.err.kind == SS_E_CRC_MISMATCH && ev.err.position == bad.position) {
                    e.b = bad; /* its offsets, as Kafka's RecordBatch.baseOffset()/lastOffset() read them */
                    e.has_hdr = true;
                }
                have_bad = false;
                push_err(u, &e, &ev.err);
                push_ev(u, &e);
                pos = ss_walker_pos(&w);
                break;
            }
            if (!ev.batch.crc_valid) { /* its damage event follows */
                bad = ev.batch;
                bad.data = NULL;
                have_bad = true;
                continue;
            }
            read_batch(r, o, pi, u, &ev.batch);
            pos = ss_walker_pos(&w);
            break;
        }
        if (ss_walker_limit(&w) < limit) limit = ss_walker_limit(&w);
        if (stop) break;
    }
    u->stopped = pos;
}
