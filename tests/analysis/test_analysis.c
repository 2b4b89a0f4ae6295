/* Unit tests of the analysis library (include/segscan/analyze.h): times,
 * durations, partition discovery and naming, and the analysis of small
 * segments built here batch by batch (v2 batches with their CRC-32C).
 * Expected figures follow from how each segment is built.
 */
#define _GNU_SOURCE 1
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "segscan/analyze.h"
#include "segscan/base.h"

/* calloc can be made to fail (the test of an out-of-memory error while a copy
 * is read back); not under a sanitizer, whose own calloc this would bypass */
#if defined(__SANITIZE_ADDRESS__)
#define SS_TEST_NO_CALLOC_FAIL 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define SS_TEST_NO_CALLOC_FAIL 1
#endif
#endif
#ifndef SS_TEST_NO_CALLOC_FAIL
extern void *__libc_calloc(size_t n, size_t size);
static volatile int fail_calloc;
void *calloc(size_t n, size_t size) {
    if (fail_calloc) return NULL;
    return __libc_calloc(n, size);
}
#endif

/* ---- building segments ------------------------------------------------------------------------ */

typedef struct buf {
    uint8_t *p;
    size_t n, cap;
} buf;

static void put(buf *b, const void *d, size_t n) {
    if (b->n + n > b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 1024;
        while (nc < b->n + n) nc *= 2;
        b->p = realloc(b->p, nc);
        if (!b->p) abort();
        b->cap = nc;
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
}

static void put_be(buf *b, uint64_t v, int bytes) {
    uint8_t t[8];
    for (int i = 0; i < bytes; i++) t[i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
    put(b, t, (size_t)bytes);
}

static void put_varint(buf *b, int64_t v) {
    uint64_t u = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
    do {
        uint8_t c = (uint8_t)(u & 0x7f);
        u >>= 7;
        if (u) c |= 0x80;
        put(b, &c, 1);
    } while (u);
}

static void put_field(buf *b, const char *s) {
    if (!s) {
        put_varint(b, -1);
        return;
    }
    put_varint(b, (int64_t)strlen(s));
    put(b, s, strlen(s));
}

typedef struct rec {
    const char *key, *value;
    int64_t ts_delta;
} rec;

typedef struct bopts {
    int64_t pid;
    int16_t epoch;
    int32_t seq;
    int64_t base_ts, max_ts;
    bool lat, txn;
} bopts;

static const bopts NOPID = {-1, -1, -1, 1700000000000, -1, false, false};

/* One uncompressed v2 batch at base_offset with records recs[0..n). */
static void add_batch(buf *seg, int64_t base_offset, const rec *recs, int n, bopts o) {
    buf body = {0};
    int64_t maxd = 0;
    for (int i = 0; i < n; i++) {
        buf r = {0};
        uint8_t attr = 0;
        put(&r, &attr, 1);
        put_varint(&r, recs[i].ts_delta);
        put_varint(&r, i);
        put_field(&r, recs[i].key);
        put_field(&r, recs[i].value);
        put_varint(&r, 0);
        put_varint(&body, (int64_t)r.n);
        put(&body, r.p, r.n);
        free(r.p);
        if (recs[i].ts_delta > maxd) maxd = recs[i].ts_delta;
    }
    buf after = {0};
    int16_t attrs = (int16_t)((o.lat ? 0x08 : 0) | (o.txn ? 0x10 : 0));
    put_be(&after, (uint16_t)attrs, 2);
    put_be(&after, (uint32_t)(n ? n - 1 : 0), 4);
    put_be(&after, (uint64_t)o.base_ts, 8);
    put_be(&after, (uint64_t)(o.max_ts >= 0 ? o.max_ts : o.base_ts + maxd), 8);
    put_be(&after, (uint64_t)o.pid, 8);
    put_be(&after, (uint16_t)o.epoch, 2);
    put_be(&after, (uint32_t)o.seq, 4);
    put_be(&after, (uint32_t)n, 4);
    put(&after, body.p, body.n);
    uint32_t crc = ss_crc32c(0, after.p, after.n);
    put_be(seg, (uint64_t)base_offset, 8);
    put_be(seg, (uint32_t)(4 + 1 + 4 + after.n), 4);
    put_be(seg, 0, 4);
    uint8_t magic = 2;
    put(seg, &magic, 1);
    put_be(seg, crc, 4);
    put(seg, after.p, after.n);
    free(body.p);
    free(after.p);
}

static ss_analysis *analyse(const buf *seg, const ss_an_opts *o, ss_inputs **inp) {
    ss_inputs *in = ss_inputs_new(false);
    CHECK(ss_inputs_add_memory(in, "mem", seg->p, seg->n) == SS_E_OK);
    ss_inputs_finish(in);
    ss_an_opts def;
    ss_an_opts_default(&def);
    ss_analysis *a = ss_analysis_new(o ? o : &def);
    CHECK(a != NULL);
    CHECK(ss_analysis_run(a, in) == SS_E_OK);
    *inp = in;
    return a;
}

/* ---- tests ---------------------------------------------------------------------------------- */

static void test_times(void) {
    int64_t ms;
    CHECK(ss_parse_time("2023-11-14T22:13:20Z", &ms));
    CHECK_EQ_I(ms, 1700000000000LL);
    CHECK(ss_parse_time("2023-11-14T22:13:20.5Z", &ms));
    CHECK_EQ_I(ms, 1700000000500LL);
    CHECK(ss_parse_time("2023-11-14 23:13:20.123+01:00", &ms));
    CHECK_EQ_I(ms, 1700000000123LL);
    CHECK(ss_parse_time("2023-11-14T20:13:20-0200", &ms));
    CHECK_EQ_I(ms, 1700000000000LL);
    CHECK(ss_parse_time("2023-11-14", &ms));
    CHECK_EQ_I(ms, 1699920000000LL);
    CHECK(ss_parse_time("1700000000000", &ms));
    CHECK_EQ_I(ms, 1700000000000LL);
    CHECK(ss_parse_time("-5", &ms));
    CHECK_EQ_I(ms, -5);
    CHECK(!ss_parse_time("", &ms));
    CHECK(!ss_parse_time("yesterday", &ms));
    CHECK(!ss_parse_time("2023-13-01", &ms));
    CHECK(!ss_parse_time("2023-11-14T25:00", &ms));
    CHECK(!ss_parse_time("2023-11-14T22:13:20Zjunk", &ms));
    char b[40];
    ss_format_time(1700000000000LL, b, sizeof b);
    CHECK_EQ_S(b, "2023-11-14T22:13:20.000Z");
    ss_format_time(0, b, sizeof b);
    CHECK_EQ_S(b, "1970-01-01T00:00:00.000Z");
    ss_format_time(-1, b, sizeof b);
    CHECK_EQ_S(b, "1969-12-31T23:59:59.999Z");
    ss_format_time(951782400123LL, b, sizeof b); /* a leap day */
    CHECK_EQ_S(b, "2000-02-29T00:00:00.123Z");
    CHECK(ss_parse_time("2000-02-29T00:00:00.123Z", &ms));
    CHECK_EQ_I(ms, 951782400123LL);
    CHECK(ss_parse_duration("15m", &ms));
    CHECK_EQ_I(ms, 900000);
    CHECK(ss_parse_duration("900s", &ms));
    CHECK_EQ_I(ms, 900000);
    CHECK(ss_parse_duration("250", &ms));
    CHECK_EQ_I(ms, 250);
    CHECK(ss_parse_duration("1.5h", &ms));
    CHECK_EQ_I(ms, 5400000);
    CHECK(ss_parse_duration("2d", &ms));
    CHECK_EQ_I(ms, 172800000);
    CHECK(!ss_parse_duration("-1s", &ms));
    CHECK(!ss_parse_duration("5 weeks", &ms));
    CHECK_EQ_S(ss_cause_name(SS_CAUSE_RESEND), "resend-no-idempotence");
    CHECK(ss_cause_name(SS_CAUSE_NONE) == NULL);
    CHECK_EQ_S(ss_txn_result_name(SS_TXN_ABORT), "ABORT");
    CHECK_EQ_S(ss_by_name(SS_BY_KEY_VALUE), "key+value");
}

/* retry survives LogAppendTime: the broker rewrote maxTimestamp and the CRC */
static void test_retry_lat(void) {
    buf seg = {0};
    rec r1[] = {{"k1", "R", 0}, {"k2", "S", 3}};
    bopts o = NOPID;
    o.lat = true;
    o.max_ts = 1700000001000;
    add_batch(&seg, 0, r1, 2, o);
    o.max_ts = 1700000002000;
    add_batch(&seg, 2, r1, 2, o);
    /* the same values with another producer timestamp: a newly built batch */
    rec r2[] = {{"k1", "R", 5}, {"k2", "S", 3}};
    add_batch(&seg, 4, r2, 2, o);
    ss_inputs *in;
    ss_analysis *a = analyse(&seg, NULL, &in);
    CHECK_EQ_I(ss_an_dupgroup_count(a), 2);
    for (size_t g = 0; g < ss_an_dupgroup_count(a); g++) {
        const ss_an_dupgroup *gr = ss_an_dupgroup_at(a, g);
        CHECK_EQ_I(gr->copies, 3);
        CHECK_EQ_I(gr->original, 0);
        ss_an_copy c;
        ss_an_dupgroup_copy(a, g, 1, &c);
        CHECK_EQ_I(c.cause, SS_CAUSE_RETRY);
        CHECK_EQ_I(c.timestamp, 1700000002000LL); /* LogAppendTime: the record's time is the batch's */
        ss_an_dupgroup_copy(a, g, 2, &c);
        CHECK_EQ_I(c.cause, SS_CAUSE_RESEND);
        CHECK_EQ_I(c.offset, 4 + (int64_t)g);
        /* reading the record back */
        ss_record r;
        ss_error err;
        CHECK_EQ_I(ss_an_fetch(a, &c, &r, &err), 1);
        CHECK_EQ_I(r.value_len, 1);
        CHECK(r.value && (r.value[0] == 'R' || r.value[0] == 'S'));
    }
    const ss_an_totals *t = ss_an_totals_get(a);
    CHECK_EQ_I(t->cause[SS_CAUSE_RETRY], 2);
    CHECK_EQ_I(t->cause[SS_CAUSE_RESEND], 2);
    CHECK_EQ_I(t->duplicate_records, 4);
    CHECK_EQ_I(t->max_copies, 3);
    const ss_an_partition *p = ss_an_partition_at(a, 0);
    CHECK_EQ_I(p->records, 6);
    CHECK_EQ_I(p->non_idempotent_records, 6);
    CHECK_EQ_I(p->max_copies, 3);
    CHECK_EQ_S(p->input->name, "mem");
    ss_analysis_free(a);
    ss_inputs_free(in);
    free(seg.p);
}

/* retry under CreateTime (the default): the producer's batch sent again byte for
 * byte; the broker gave it new offsets (outside the CRC) and nothing else, so the
 * CRC and size match (DESIGN.md section 4: "re-sent byte-identical (same CRC and
 * size)"). The same values in a batch built anew (another key beside them, or
 * another base timestamp) are a resend. */
static void test_retry_create_time(void) {
    buf seg = {0};
    rec r1[] = {{"k1", "R", 0}, {"k2", "S", 3}};
    rec r3[] = {{"k9", "R", 0}, {"k2", "S", 3}};
    bopts o = NOPID;
    add_batch(&seg, 0, r1, 2, o);
    add_batch(&seg, 2, r1, 2, o); /* the retry */
    add_batch(&seg, 4, r3, 2, o); /* another key: rebuilt */
    o.base_ts += 7;
    add_batch(&seg, 6, r1, 2, o); /* other producer timestamps: rebuilt */
    ss_inputs *in;
    ss_analysis *a = analyse(&seg, NULL, &in);
    CHECK_EQ_I(ss_an_dupgroup_count(a), 2);
    for (size_t g = 0; g < ss_an_dupgroup_count(a); g++) {
        const ss_an_dupgroup *gr = ss_an_dupgroup_at(a, g);
        CHECK_EQ_I(gr->copies, 4);
        CHECK_EQ_I(gr->original, 0);
        int want[] = {SS_CAUSE_NONE, SS_CAUSE_RETRY, SS_CAUSE_RESEND, SS_CAUSE_RESEND};
        for (uint32_t k = 1; k < 4 && k < gr->copies; k++) {
            ss_an_copy c;
            ss_an_dupgroup_copy(a, g, k, &c);
            CHECK_EQ_I(c.offset, 2 * (int64_t)k + (int64_t)g);
            CHECK_EQ_I(c.cause, want[k]);
        }
    }
    CHECK_EQ_I(ss_an_totals_get(a)->cause[SS_CAUSE_RETRY], 2);
    CHECK_EQ_I(ss_an_totals_get(a)->cause[SS_CAUSE_RESEND], 4);
    ss_analysis_free(a);
    ss_inputs_free(in);
    free(seg.p);
}

/* key+value is length-prefixed; null and empty differ; null values never group */
static void test_fingerprints(void) {
    buf seg = {0};
    rec r[] = {{"ab", "c", 0}, {"a", "bc", 0}, {"x", "", 0},  {"y", "", 0},
               {"x", NULL, 0}, {"y", NULL, 0}, {NULL, "c", 0}};
    add_batch(&seg, 0, r, 7, NOPID);
    ss_an_opts o;
    ss_an_opts_default(&o);
    ss_inputs *in;
    ss_analysis *a = analyse(&seg, &o, &in);
    /* by value: "c" twice ("ab"/"c" and null/"c"), "" twice */
    CHECK_EQ_I(ss_an_dupgroup_count(a), 2);
    CHECK_EQ_I(ss_an_totals_get(a)->cause[SS_CAUSE_RESEND], 2); /* equal values in one batch */
    ss_analysis_free(a);
    ss_inputs_free(in);
    o.by = SS_BY_KEY_VALUE;
    a = analyse(&seg, &o, &in);
    CHECK_EQ_I(ss_an_dupgroup_count(a), 0); /* ("ab","c") != ("a","bc"); ("x","") != ("y","") */
    ss_analysis_free(a);
    ss_inputs_free(in);
    o.by = SS_BY_KEY;
    a = analyse(&seg, &o, &in);
    CHECK_EQ_I(ss_an_dupgroup_count(a), 2); /* "x" twice, "y" twice; the null key is not grouped */
    ss_analysis_free(a);
    ss_inputs_free(in);
    o.by = SS_BY_VALUE;
    o.min_bytes = 1;
    a = analyse(&seg, &o, &in);
    CHECK_EQ_I(ss_an_dupgroup_count(a), 1); /* the empty values are too short */
    ss_analysis_free(a);
    ss_inputs_free(in);
    free(seg.p);
}

/* sequences: ranges split at the wrap, a gap, repeats, the epoch bump; and
 * a gap with an offset hole inside the segment (compaction) */
static void test_sequences(void) {
    const int32_t MAX = 2147483647;
    buf seg = {0};
    rec r3[] = {{NULL, "a", 0}, {NULL, "b", 0}, {NULL, "c", 0}};
    bopts o = {42, 0, MAX - 1, 1700000000000, -1, false, false};
    add_batch(&seg, 0, r3, 3, o); /* MAX-1, MAX, 0 */
    o.seq = 1;
    rec r2[] = {{NULL, "d", 0}, {NULL, "e", 0}};
    add_batch(&seg, 3, r2, 2, o); /* 1, 2 */
    o.seq = 6;
    add_batch(&seg, 5, r2, 2, o); /* 6, 7: gap 3..5 (values repeat: same-session) */
    o.seq = 0;
    add_batch(&seg, 7, r2, 2, o); /* 0, 1 again */
    o.epoch = 1;
    o.seq = 0;
    rec r1[] = {{NULL, "f", 0}};
    add_batch(&seg, 9, r1, 1, o);
    ss_inputs *in;
    ss_analysis *a = analyse(&seg, NULL, &in);
    CHECK_EQ_I(ss_an_session_count(a), 2);
    const ss_an_session *s = ss_an_session_at(a, 0);
    CHECK_EQ_I(s->producer_id, 42);
    CHECK_EQ_I(s->producer_epoch, 0);
    CHECK_EQ_I(s->records, 9);
    CHECK_EQ_I(s->batches, 4);
    CHECK_EQ_I(s->nranges, 3);
    if (s->nranges == 3) {
        CHECK_EQ_I(s->ranges[0].first, MAX - 1);
        CHECK_EQ_I(s->ranges[0].last, MAX);
        CHECK_EQ_I(s->ranges[1].first, 0);
        CHECK_EQ_I(s->ranges[1].last, 2);
        CHECK_EQ_I(s->ranges[2].first, 6);
        CHECK_EQ_I(s->ranges[2].last, 7);
    }
    CHECK_EQ_I(s->ngaps, 1);
    if (s->ngaps == 1) {
        CHECK_EQ_I(s->gaps[0].from, 3);
        CHECK_EQ_I(s->gaps[0].to, 5);
        CHECK_EQ_I(s->gaps[0].explained, SS_GAP_UNEXPLAINED);
        CHECK_EQ_I(s->gaps[0].after_offset, 4);
        CHECK_EQ_I(s->gaps[0].before_offset, 5);
    }
    CHECK_EQ_I(s->repeated_sequences, 2);
    /* the repeated 0, 1 starts below the next expected sequence (8) and is not one of the
     * earlier batches [MAX-1..0], [1..2], [6..7] stored again: out of order. The batch after
     * the gap (6, 7) jumps forward: a gap, not out of order. */
    CHECK_EQ_I(s->out_of_order_batches, 1);
    CHECK(!s->epoch_bump);
    s = ss_an_session_at(a, 1);
    CHECK(s->epoch_bump);
    CHECK_EQ_I(s->previous_epoch, 0);
    const ss_an_partition *p = ss_an_partition_at(a, 0);
    CHECK_EQ_I(p->sequence_gaps, 1);
    CHECK_EQ_I(p->duplicate_sequences, 2);
    CHECK_EQ_I(p->epoch_bumps, 1);
    CHECK_EQ_I(p->producers, 1);
    CHECK_EQ_I(p->sessions, 2);
    CHECK(!p->compacted);
    /* d and e were sent at sequences 1,2 then 6,7 then 0,1 (a sequence seen twice: dup for d? no:
     * d's original is seq 1, its copies have seq 6 (same-session) and seq 0 (same-session);
     * e: seq 2, then 7 (same-session), then 1 (same-session) */
    CHECK_EQ_I(ss_an_totals_get(a)->cause[SS_CAUSE_SAME_SESSION], 4);
    CHECK(p->duplicate_groups > 0);
    ss_analysis_free(a);
    ss_inputs_free(in);

    /* the same log without fingerprints (txns and producers as text): no copy is grouped, and
     * the sessions, their sequences and the partition's figures of them are the same */
    ss_an_opts nofp;
    ss_an_opts_default(&nofp);
    nofp.no_fingerprints = true;
    a = analyse(&seg, &nofp, &in);
    p = ss_an_partition_at(a, 0);
    CHECK_EQ_I(p->fingerprinted_records, 0);
    CHECK_EQ_I(p->duplicate_groups, 0);
    CHECK_EQ_I(ss_an_dupgroup_count(a), 0);
    CHECK_EQ_I(ss_an_totals_get(a)->cause[SS_CAUSE_SAME_SESSION], 0);
    CHECK(!p->dups_excluded); /* not an internal topic: only not fingerprinted */
    CHECK_EQ_I(ss_an_session_count(a), 2);
    CHECK_EQ_I(p->sequence_gaps, 1);
    CHECK_EQ_I(p->duplicate_sequences, 2);
    CHECK_EQ_I(p->epoch_bumps, 1);
    CHECK_EQ_I(p->records, 9 + 1);
    ss_analysis_free(a);
    ss_inputs_free(in);

    /* the same gap with an offset hole inside the segment (offsets 2..9): the cleaner can drop
     * whole batches (LogCleaner.cleanInto), and lost records leave the same hole; nothing read is
     * the cleaner's (no batch holding fewer records than its offsets, no delete horizon, no
     * checkpoint), so the log is not called compacted and the gap is the hole's: unexplained */
    buf seg2 = {0};
    o.epoch = 0;
    o.seq = 0;
    add_batch(&seg2, 0, r2, 2, o);
    o.seq = 5;
    add_batch(&seg2, 10, r1, 1, o);
    a = analyse(&seg2, NULL, &in);
    p = ss_an_partition_at(a, 0);
    CHECK(!p->compacted);
    CHECK_EQ_I(p->sequence_gaps, 1);
    CHECK_EQ_I(p->sequence_gaps_explained, 0);
    CHECK_EQ_I(p->offset_gaps, 1);
    CHECK_EQ_I(p->holes, 1);
    s = ss_an_session_at(a, 0);
    CHECK_EQ_I(s->ngaps, 1);
    if (s->ngaps) CHECK_EQ_I(s->gaps[0].explained, SS_GAP_HOLE);
    CHECK(s->spans_hole); /* the hole lies between its batches: the session is incomplete */
    ss_analysis_free(a);
    ss_inputs_free(in);
    free(seg.p);
    free(seg2.p);
}

/* windows: offsets and producer ids; matches for explain */
static void test_windows_and_matches(void) {
    buf seg = {0};
    for (int i = 0; i < 6; i++) {
        rec r[] = {{"k", i % 2 ? "odd" : "even", 0}};
        bopts o = NOPID;
        o.base_ts = 1700000000000 + i * 1000;
        if (i >= 3) {
            o.pid = 77;
            o.epoch = 0;
            o.seq = i - 3;
        }
        add_batch(&seg, i, r, 1, o);
    }
    ss_an_opts o;
    ss_an_opts_default(&o);
    o.from_offset = 1;
    o.to_offset = 4;
    ss_inputs *in;
    ss_analysis *a = analyse(&seg, &o, &in);
    const ss_an_partition *p = ss_an_partition_at(a, 0);
    CHECK_EQ_I(p->records, 4);
    CHECK_EQ_I(p->outside_window, 2); /* offsets 0 and 5: every batch is read, whatever the window */
    CHECK_EQ_I(p->first_offset, 1);
    CHECK_EQ_I(p->next_offset, 5);
    ss_analysis_free(a);
    ss_inputs_free(in);
    o.no_seek = true;
    a = analyse(&seg, &o, &in);
    p = ss_an_partition_at(a, 0);
    CHECK_EQ_I(p->records, 4);
    CHECK_EQ_I(p->outside_window, 2); /* the same without seeking */
    ss_analysis_free(a);
    ss_inputs_free(in);
    ss_an_opts_default(&o);
    o.filter_pid = true;
    o.producer_id = 77;
    o.match = SS_MATCH_VALUE;
    o.match_bytes = (const uint8_t *)"odd";
    o.match_len = 3;
    a = analyse(&seg, &o, &in);
    p = ss_an_partition_at(a, 0);
    CHECK_EQ_I(p->records, 3);
    CHECK_EQ_I(p->non_idempotent_records, 0);
    CHECK_EQ_I(ss_an_match_count(a), 2); /* offsets 3 and 5 */
    /* the groups holding a copy by pid 77, known whole: "even" 0, 2, 4 and "odd" 1, 3, 5 (3
     * copies each; "even" first, by its first copy's offset) */
    CHECK_EQ_I(ss_an_dupgroup_count(a), 2);
    if (ss_an_match_count(a) == 2) {
        CHECK_EQ_I(ss_an_match_at(a, 0)->copy.offset, 3);
        CHECK_EQ_I(ss_an_match_at(a, 0)->group, 1);
        /* the original of "odd" is offset 1, without producer id: pid 77's copies are a new session's */
        CHECK_EQ_I(ss_an_match_at(a, 1)->copy.cause, SS_CAUSE_NEW_SESSION);
    }
    if (ss_an_dupgroup_count(a) == 2) {
        ss_an_copy cp;
        ss_an_dupgroup_copy(a, 1, 0, &cp);
        CHECK_EQ_I(cp.offset, 1);
        CHECK(cp.outside_window); /* not pid 77's: listed with its group, outside the window */
        ss_an_dupgroup_copy(a, 1, 1, &cp);
        CHECK(!cp.outside_window);
    }
    ss_analysis_free(a);
    ss_inputs_free(in);
    ss_an_opts_default(&o);
    o.match = SS_MATCH_OFFSET;
    o.match_partition = "mem";
    o.match_offset = 2;
    o.since_ms = 1700000001000;
    a = analyse(&seg, &o, &in);
    CHECK_EQ_I(ss_an_partition_at(a, 0)->records, 5);
    CHECK_EQ_I(ss_an_match_count(a), 1);
    if (ss_an_match_count(a) == 1) {
        const ss_an_match *m = ss_an_match_at(a, 0);
        CHECK_EQ_I(m->copy.offset, 2);
        /* "even" at 0, 2 and 4 (offset 0, before --since, is known too) comes first by its first
         * copy's offset; "odd" at 1, 3, 5 */
        CHECK_EQ_I(m->group, 0);
        if (m->group == 0) {
            CHECK_EQ_I(ss_an_dupgroup_at(a, 0)->copies, 3);
            CHECK_EQ_I(ss_an_dupgroup_at(a, 1)->copies, 3);
        }
    }
    ss_analysis_free(a);
    ss_inputs_free(in);
    free(seg.p);
}

/* discovery: log directories, partition names, order, temporaries */
static void mkfile(const char *dir, const char *name, const buf *data) {
    char p[2100];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    CHECK(f != NULL);
    if (!f) return;
    if (data && data->n) fwrite(data->p, 1, data->n, f);
    fclose(f);
}

static void mkdirs(const char *root, const char *rel) {
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    for (char *q = p + strlen(root) + 1; *q; q++)
        if (*q == '/') {
            *q = 0;
            mkdir(p, 0755);
            *q = '/';
        }
    mkdir(p, 0755);
}

static void test_inputs(void) {
    char root[] = "/tmp/segscan-test-analysis-XXXXXX";
    if (!mkdtemp(root)) {
        CHECK(false);
        return;
    }
    buf seg = {0};
    rec r[] = {{NULL, "v", 0}};
    add_batch(&seg, 0, r, 1, NOPID);
    const char *dirs[] = {
        "b1/orders-10",           "b1/orders-3", "b2/orders-3", "b1/alpha-0", "b1/orders-2.abc-future",
        "b1/orders-4.abc-delete", "b1/empty-0"};
    char p[1024];
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        mkdirs(root, dirs[i]);
        snprintf(p, sizeof p, "%s/%s", root, dirs[i]);
        if (strcmp(dirs[i], "b1/empty-0")) mkfile(p, "00000000000000000000.log", &seg);
        mkfile(p, "00000000000000000000.index", NULL);
    }
    snprintf(p, sizeof p, "%s/b1/orders-10", root);
    mkfile(p, "00000000000000000001.log.deleted", &seg);
    mkfile(p, "leader-epoch-checkpoint", NULL);
    ss_inputs *in = ss_inputs_new(false);
    snprintf(p, sizeof p, "%s/b1", root);
    CHECK(ss_inputs_add(in, p) == SS_E_OK);
    snprintf(p, sizeof p, "%s/b2/orders-3/", root);
    CHECK(ss_inputs_add(in, p) == SS_E_OK);
    snprintf(p, sizeof p, "%s/nonexistent", root);
    CHECK(ss_inputs_add(in, p) == SS_E_IO);
    ss_inputs_finish(in);
    /* the -future directory (alter-log-dirs copying orders-2 in) is a broker temporary too */
    CHECK_EQ_I(ss_inputs_count(in), 4);
    const char *want[] = {"alpha-0", "b1/orders-3", "b2/orders-3", "orders-10"};
    for (size_t i = 0; i < 4 && i < ss_inputs_count(in); i++) CHECK_EQ_S(ss_inputs_at(in, i)->name, want[i]);
    if (ss_inputs_count(in) == 4) {
        CHECK_EQ_S(ss_inputs_at(in, 1)->topic, "orders");
        CHECK_EQ_I(ss_inputs_at(in, 1)->partition, 3);
        CHECK_EQ_I(ss_inputs_at(in, 3)->partition, 10);
        CHECK_EQ_I(ss_inputs_at(in, 3)->nsegments, 1);
        CHECK(!ss_inputs_at(in, 0)->named);
        CHECK(ss_inputs_at(in, 2)->named);
    }
    bool noted_delete = false, noted_deleted_file = false, noted_missing = false, noted_future = false;
    const ss_problems *problems = ss_inputs_problems(in);
    for (size_t i = 0; i < ss_problems_count(problems); i++) {
        const ss_error *note = ss_problems_at(problems, i);
        const char *m = note->msg;
        ss_severity level = note->severity;
        CHECK_EQ_I(note->kind, SS_E_OK);
        if (strstr(m, "orders-4.abc-delete")) noted_delete = true;
        if (strstr(m, "orders-2.abc-future") && strstr(m, "temporar")) noted_future = true;
        if (strstr(m, "orders-10") && strstr(m, "temporar")) noted_deleted_file = true;
        if (strstr(m, "nonexistent") && level == SS_SEV_ERROR) noted_missing = true;
    }
    CHECK(noted_delete);
    CHECK(noted_future);
    CHECK(noted_deleted_file);
    CHECK(noted_missing);
    ss_inputs_free(in);
    in = ss_inputs_new(true);
    snprintf(p, sizeof p, "%s/b1", root);
    CHECK(ss_inputs_add(in, p) == SS_E_OK);
    ss_inputs_finish(in);
    /* b1's four partitions, the -delete directory, and orders-10's .deleted segment as a
     * temporary copy of orders-10 of its own: a .deleted segment is not a segment of the log
     * (LogFileUtils.DELETED_FILE_SUFFIX: scheduled for deletion) */
    CHECK_EQ_I(ss_inputs_count(in), 6);
    for (size_t i = 0; i < ss_inputs_count(in); i++)
        if (ss_inputs_at(in, i)->partition == 2) CHECK_EQ_S(ss_inputs_at(in, i)->name, "orders-2.abc-future");
    bool seen_deleted = false;
    for (size_t i = 0; i < ss_inputs_count(in); i++) {
        const ss_input_partition *ip = ss_inputs_at(in, i);
        if (!strcmp(ip->name, "orders-10")) {
            CHECK_EQ_I(ip->nsegments, 1);
            CHECK(ip->temporary == NULL);
        }
        if (!strcmp(ip->name, "orders-10[.deleted]")) {
            seen_deleted = true;
            CHECK_EQ_I(ip->nsegments, 1);
            CHECK_EQ_S(ip->temporary, ".deleted");
            CHECK_EQ_S(ip->temporary_of, "orders-10");
            CHECK_EQ_I(ip->partition, 10);
        }
        if (strstr(ip->name, "-delete")) CHECK_EQ_S(ip->temporary, "-delete");
    }
    CHECK(seen_deleted);
    ss_inputs_free(in);
    free(seg.p);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", root);
}

/* A copy read back when memory runs out: -1, and an error that says so. The
 * first fetch sets up the segment cache and one fetch slot; the second batch
 * takes another slot, whose decoder is allocated then (ss_an_fetch_offset),
 * and that calloc fails. */
static void test_fetch_nomem(void) {
#ifndef SS_TEST_NO_CALLOC_FAIL
    buf seg = {0};
    rec r1[] = {{"k1", "R", 0}};
    add_batch(&seg, 0, r1, 1, NOPID);
    add_batch(&seg, 1, r1, 1, NOPID);
    ss_inputs *in;
    ss_analysis *a = analyse(&seg, NULL, &in);
    CHECK_EQ_I(ss_an_dupgroup_count(a), 1);
    if (ss_an_dupgroup_count(a) == 1) {
        ss_an_copy c0, c1;
        ss_an_dupgroup_copy(a, 0, 0, &c0);
        ss_an_dupgroup_copy(a, 0, 1, &c1);
        CHECK_EQ_I(c1.offset, 1);
        ss_record r;
        ss_error err;
        CHECK_EQ_I(ss_an_fetch(a, &c0, &r, &err), 1);
        memset(&err, 0, sizeof err);
        fail_calloc = 1;
        int k = ss_an_fetch(a, &c1, &r, &err);
        fail_calloc = 0;
        CHECK_EQ_I(k, -1);
        CHECK_EQ_I(err.kind, SS_E_NOMEM);
        CHECK(strstr(err.msg, "out of memory") != NULL);
        CHECK_EQ_I(err.position, c1.batch_position);
        /* and once memory is there again, the copy reads */
        CHECK_EQ_I(ss_an_fetch(a, &c1, &r, &err), 1);
        CHECK(r.value_len == 1 && r.value[0] == 'R');
    }
    ss_analysis_free(a);
    ss_inputs_free(in);
    free(seg.p);
#endif
}

int main(void) {
    test_times();
    test_retry_lat();
    test_retry_create_time();
    test_fingerprints();
    test_sequences();
    test_windows_and_matches();
    test_inputs();
    test_fetch_nomem();
    return check_exit("test_analysis");
}
