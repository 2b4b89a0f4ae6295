/* segscan unit tests - index, time index, transaction index and producer
 * snapshot readers, on crafted good and bad inputs.
 *
 * usage: test_index CORPUS_DIR   (testdata/corpus: one real segment is used
 * for the index-against-log checks; crafted files go to a private temp dir)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "segscan/base.h"
#include "segscan/files.h"

static char tmpdir[256];

static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}
static void put64(uint8_t *p, uint64_t v) {
    put32(p, (uint32_t)(v >> 32));
    put32(p + 4, (uint32_t)v);
}
static void put16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static char *tmp_path(const char *name) {
    static char buf[512];
    snprintf(buf, sizeof buf, "%s/%s", tmpdir, name);
    return buf;
}

static void write_file(const char *name, const void *data, size_t len) {
    FILE *f = fopen(tmp_path(name), "wb");
    if (!f) {
        perror(name);
        exit(2);
    }
    if (len && fwrite(data, 1, len, f) != len) {
        perror(name);
        exit(2);
    }
    fclose(f);
}

/* ---- file names ------------------------------------------------------------------ */

static void test_names(void) {
    int64_t v = -7;
    CHECK(ss_offset_from_filename("00000000000000000042.index", &v) && v == 42);
    CHECK(ss_offset_from_filename("/a/b.c/00000000000000001050.snapshot", &v) && v == 1050);
    CHECK(ss_offset_from_filename("dir/00000000000000000007.index.deleted", &v) && v == 7);
    CHECK(ss_offset_from_filename("9223372036854775807.log", &v) && v == INT64_MAX);
    CHECK(ss_offset_from_filename("-9223372036854775808.log", &v) && v == INT64_MIN);
    CHECK(ss_offset_from_filename("+5.index", &v) && v == 5);
    CHECK(ss_offset_from_filename("12", &v) && v == 12);      /* no dot: the whole name */
    CHECK(ss_offset_from_filename("dir/12/", &v) && v == 12); /* trailing '/' dropped */
    CHECK(!ss_offset_from_filename("9223372036854775808.log", &v));
    /* LogFileUtils.filenamePrefixFromOffset ("%020d") of the largest offsets a long holds */
    CHECK(ss_name_offset20("09223372036854775807.log") == INT64_MAX);
    CHECK(ss_name_offset20("09223372036854775806.log") == INT64_MAX - 1);
    CHECK(ss_name_offset20("09223372036854775799.log") == 9223372036854775799);
    CHECK(ss_name_offset20("09223372036854775808.log") == -1);
    CHECK(ss_name_offset20("00000000000000000130.log") == 130);
    CHECK(!ss_offset_from_filename(".index", &v));
    CHECK(!ss_offset_from_filename("abc.index", &v));
    CHECK(!ss_offset_from_filename("1a.index", &v));
    CHECK(!ss_offset_from_filename("-.index", &v));
    CHECK(!ss_offset_from_filename(" 1.index", &v));
    CHECK(!ss_offset_from_filename("", &v));
    CHECK(!ss_offset_from_filename("/", &v));

    char *a = ss_java_absolute_path("/x//y/./z/");
    CHECK(a && !strcmp(a, "/x/y/./z"));
    free(a);
    char cwd[4096];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    a = ss_java_absolute_path("gen//a.index");
    char want[4200];
    snprintf(want, sizeof want, "%s/gen/a.index", strcmp(cwd, "/") ? cwd : "");
    CHECK_MSG(a && !strcmp(a, want), "got %s want %s", a ? a : "(null)", want);
    free(a);
}

/* ---- offset and time index --------------------------------------------------------- */

static void test_index_sizes(void) {
    uint8_t buf[64];
    memset(buf, 0xAB, sizeof buf);
    /* Every size from 0 to 40 bytes: entries = floor(size / entry), no reads past the end. */
    for (size_t len = 0; len <= 40; len++) {
        for (int kind = SS_INDEX_OFFSET; kind <= SS_INDEX_TIME; kind++) {
            ss_index *ix;
            ss_error err;
            CHECK(ss_index_from_memory(buf, len, (ss_index_kind)kind, 100, &ix, &err) == SS_E_OK);
            uint32_t es = kind == SS_INDEX_OFFSET ? 8 : 12;
            CHECK_EQ_U(ix->entries, len / es);
            CHECK_EQ_U(ix->listed, ix->entries); /* 0xAB.. never has relative offset 0 */
            /* reading any slot, even out of range, is safe */
            for (uint64_t n = 0; n < 8; n++) {
                if (kind == SS_INDEX_OFFSET) (void)ss_index_offset_entry(ix, n);
                else (void)ss_index_time_entry(ix, n);
            }
            const char *msg = err.msg;
            ss_errkind k = ss_index_sanity_check(ix, "/p", &err);
            if (len % es != 0) {
                CHECK_EQ_I(k, SS_E_BAD_INDEX);
                char want[200];
                snprintf(want, sizeof want,
                         "%s file /p is corrupt, found %zu bytes which is neither positive nor a multiple of %u",
                         kind == SS_INDEX_OFFSET ? "Index" : "Time index", len, es);
                /* an odd-sized file whose last whole entry is fine fails on the size */
                if (kind == SS_INDEX_OFFSET && len >= 8) {
                    /* last offset = 100 + 0xABABABAB (negative int): below the base, reported first */
                    CHECK(strstr(msg, "which is less than the base offset 100") != NULL);
                } else if (kind == SS_INDEX_OFFSET || len < 12) {
                    CHECK_MSG(!strcmp(msg, want), "%s", msg);
                }
            }
            (void)ss_index_lookup(ix, 100, 12345);
            ss_index_close(ix);
        }
    }
}

static void test_index_entries_and_sanity(void) {
    /* base 1000: entries (5, 0) (9, 120) (20, 400), then a zero-filled tail of 5 slots */
    uint8_t b[64] = {0};
    put32(b + 0, 5);
    put32(b + 4, 0);
    put32(b + 8, 9);
    put32(b + 12, 120);
    put32(b + 16, 20);
    put32(b + 20, 400);
    ss_index *ix;
    ss_error err;
    CHECK(ss_index_from_memory(b, 64, SS_INDEX_OFFSET, 1000, &ix, &err) == SS_E_OK);
    CHECK_EQ_U(ix->entries, 8);
    CHECK_EQ_U(ix->listed, 3);
    CHECK_EQ_I(ix->stopped_at_slot, 3);
    CHECK(ix->zero_tail);
    ss_offset_entry e = ss_index_offset_entry(ix, 1);
    CHECK_EQ_I(e.offset, 1009);
    CHECK_EQ_I(e.position, 120);
    CHECK_EQ_I(ss_index_last_offset(ix), 1000); /* the last slot is zero: the base offset */
    CHECK_EQ_I(ss_index_sanity_check(ix, "/x", &err), SS_E_OK);
    ss_index_close(ix);

    /* without the tail */
    CHECK(ss_index_from_memory(b, 24, SS_INDEX_OFFSET, 1000, &ix, &err) == SS_E_OK);
    CHECK_EQ_I(ix->stopped_at_slot, -1);
    CHECK(!ix->zero_tail);
    CHECK_EQ_I(ss_index_last_offset(ix), 1020);
    /* lookup = largest offset <= target, (base, 0) below the first */
    CHECK_EQ_I(ss_index_lookup(ix, 1000, 999).position, 0);
    CHECK_EQ_I(ss_index_lookup(ix, 1000, 999).offset, 1000);
    CHECK_EQ_I(ss_index_lookup(ix, 1000, 1005).position, 0);
    CHECK_EQ_I(ss_index_lookup(ix, 1000, 1008).position, 0);
    CHECK_EQ_I(ss_index_lookup(ix, 1000, 1009).position, 120);
    CHECK_EQ_I(ss_index_lookup(ix, 1000, 1019).position, 120);
    CHECK_EQ_I(ss_index_lookup(ix, 1000, 1020).position, 400);
    CHECK_EQ_I(ss_index_lookup(ix, 1000, INT64_MAX).position, 400);
    CHECK_EQ_I(ss_index_lookup(NULL, 77, 5).offset, 77);
    ss_index_close(ix);

    /* a negative relative offset as last entry: Kafka's "less than the base offset" */
    put32(b + 16, 0xFFFFFFFFu);
    CHECK(ss_index_from_memory(b, 24, SS_INDEX_OFFSET, 1000, &ix, &err) == SS_E_OK);
    const char *msg = err.msg;
    CHECK_EQ_I(ss_index_sanity_check(ix, "/d/0.index", &err), SS_E_BAD_INDEX);
    CHECK_MSG(!strcmp(msg, "Corrupt index found, index file /d/0.index has non-zero size but the last offset is 999 "
                           "which is less than the base offset 1000"),
              "%s", msg);
    CHECK(!strcmp(err.msg, msg));
    ss_index_close(ix);

    /* time index: (T0+5, 1), (T0+9, 4), then the zero tail: Kafka's sanityCheck fails on the tail */
    uint8_t t[12 * 6] = {0};
    put64(t, 1700000000005ull);
    put32(t + 8, 1);
    put64(t + 12, 1700000000009ull);
    put32(t + 20, 4);
    CHECK(ss_index_from_memory(t, sizeof t, SS_INDEX_TIME, 0, &ix, &err) == SS_E_OK);
    CHECK_EQ_U(ix->entries, 6);
    CHECK_EQ_U(ix->listed, 2);
    CHECK(ix->zero_tail);
    ss_time_entry last = ss_index_last_time_entry(ix);
    CHECK_EQ_I(last.timestamp, 0);
    CHECK_EQ_I(ss_index_sanity_check(ix, "/d/0.timeindex", &err), SS_E_BAD_INDEX);
    CHECK_MSG(!strcmp(msg, "Corrupt time index found, time index file (/d/0.timeindex) has non-zero size but the last "
                           "timestamp is 0 which is less than the first timestamp 1700000000005"),
              "%s", msg);
    ss_index_close(ix);
    CHECK(ss_index_from_memory(t, 24, SS_INDEX_TIME, 0, &ix, &err) == SS_E_OK);
    CHECK_EQ_I(ss_index_sanity_check(ix, "/d/0.timeindex", &err), SS_E_OK);
    last = ss_index_last_time_entry(ix);
    CHECK_EQ_I(last.timestamp, 1700000000009);
    CHECK_EQ_I(last.offset, 4);
    ss_index_close(ix);
    /* last offset below the base */
    put32(t + 20, 0x80000000u);
    CHECK(ss_index_from_memory(t, 24, SS_INDEX_TIME, 10, &ix, &err) == SS_E_OK);
    CHECK_EQ_I(ss_index_sanity_check(ix, "/q", &err), SS_E_BAD_INDEX);
    CHECK_MSG(!strcmp(msg, "Corrupt time index found, time index file (/q) has non-zero size but the last offset is "
                           "-2147483638 which is less than the first offset 10"),
              "%s", msg);
    ss_index_close(ix);
    /* empty time index: lastEntry (-1, base) */
    CHECK(ss_index_from_memory(t, 0, SS_INDEX_TIME, 33, &ix, &err) == SS_E_OK);
    last = ss_index_last_time_entry(ix);
    CHECK_EQ_I(last.timestamp, -1);
    CHECK_EQ_I(last.offset, 33);
    CHECK_EQ_I(ss_index_sanity_check(ix, "/q", &err), SS_E_OK);
    ss_index_close(ix);
}

/* Reference: the largest slot whose offset <= target in a sorted index, by a linear scan. */
static void test_lookup_reference(void) {
    uint64_t seed = 42;
    for (int round = 0; round < 40; round++) {
        size_t n = 1 + (size_t)(test_rand(&seed) % 3000);
        uint8_t *b = malloc(n * 8);
        int64_t *offs = malloc(n * sizeof *offs);
        int32_t rel = 0;
        for (size_t i = 0; i < n; i++) {
            rel += 1 + (int32_t)(test_rand(&seed) % 50);
            offs[i] = rel;
            put32(b + i * 8, (uint32_t)rel);
            put32(b + i * 8 + 4, (uint32_t)i * 16u);
        }
        ss_index *ix;
        ss_error err;
        CHECK(ss_index_from_memory(b, n * 8, SS_INDEX_OFFSET, 0, &ix, &err) == SS_E_OK);
        for (int q = 0; q < 200; q++) {
            int64_t target = (int64_t)(test_rand(&seed) % (uint64_t)(rel + 60)) - 5;
            int64_t want = -1;
            for (size_t i = 0; i < n; i++)
                if (offs[i] <= target) want = (int64_t)i;
            ss_offset_entry got = ss_index_lookup(ix, 0, target);
            int32_t want_pos = want < 0 ? 0 : (int32_t)want * 16;
            CHECK_MSG(got.position == want_pos, "n=%zu target=%lld got %d want %d", n, (long long)target, got.position,
                      want_pos);
        }
        ss_index_close(ix);
        free(b);
        free(offs);
    }
}

static void test_index_files(void) {
    ss_index *ix;
    ss_error err;
    /* missing file, directory: errors, nothing created */
    CHECK_EQ_I(ss_index_open(tmp_path("00000000000000000000.index"), SS_INDEX_OFFSET, 0, &ix, &err), SS_E_IO);
    CHECK(ix == NULL);
    CHECK(access(tmp_path("00000000000000000000.index"), F_OK) != 0);
    CHECK(mkdir(tmp_path("d.index"), 0755) == 0);
    CHECK_EQ_I(ss_index_open(tmp_path("d.index"), SS_INDEX_OFFSET, 0, &ix, &err), SS_E_IO);
    /* empty file */
    write_file("00000000000000000000.timeindex", "", 0);
    CHECK_EQ_I(ss_index_open(tmp_path("00000000000000000000.timeindex"), SS_INDEX_TIME, 0, &ix, &err), SS_E_OK);
    CHECK_EQ_U(ix->entries, 0);
    CHECK_EQ_U(ix->listed, 0);
    ss_index_close(ix);
    /* a 10 MB zero-filled preallocated index (sparse) */
    int fd = open(tmp_path("00000000000000000100.index"), O_CREAT | O_WRONLY | O_TRUNC, 0644);
    CHECK(fd >= 0 && ftruncate(fd, 10 * 1024 * 1024) == 0);
    close(fd);
    CHECK_EQ_I(ss_index_open(tmp_path("00000000000000000100.index"), SS_INDEX_OFFSET, 100, &ix, &err), SS_E_OK);
    CHECK_EQ_U(ix->entries, 1310720);
    CHECK_EQ_U(ix->listed, 1);
    CHECK_EQ_I(ix->stopped_at_slot, 1);
    CHECK(ix->zero_tail);
    CHECK_EQ_I(ss_index_offset_entry(ix, 0).offset, 100);
    CHECK_EQ_I(ss_index_last_offset(ix), 100);
    CHECK_EQ_I(ss_index_sanity_check(ix, "/z", &err), SS_E_OK);
    CHECK_EQ_I(ss_index_lookup(ix, 100, 5000).position, 0);
    ss_index_close(ix);
    /* 10 MB zero-filled time index (Kafka preallocates a multiple of 12) */
    fd = open(tmp_path("00000000000000000100.timeindex"), O_CREAT | O_WRONLY | O_TRUNC, 0644);
    CHECK(fd >= 0 && ftruncate(fd, 10485756) == 0);
    close(fd);
    CHECK_EQ_I(ss_index_open(tmp_path("00000000000000000100.timeindex"), SS_INDEX_TIME, 100, &ix, &err), SS_E_OK);
    CHECK_EQ_U(ix->entries, 873813);
    CHECK_EQ_U(ix->listed, 1);
    CHECK(ix->zero_tail);
    ss_index_close(ix);
}

/* ---- checks against a real log ---------------------------------------------------------- */

static void test_checker(const char *corpus) {
    char path[1024];
    snprintf(path, sizeof path, "%s/gen/txn-abort/txn-0/00000000000000000000.log", corpus);
    ss_segment *log;
    ss_error err;
    if (ss_segment_open(path, &log, &err) != SS_E_OK) {
        fprintf(stderr, "test_index: cannot open %s: %s\n", path, err.msg);
        check_failed++;
        return;
    }
    /* Learn the batches: position and last offset of each. */
    ss_walker *w = ss_walker_new(log, UINT64_MAX);
    ss_event ev;
    uint64_t pos[16];
    int64_t last[16];
    size_t nb = 0;
    CHECK(w != NULL);
    while (w && ss_walker_next(w, &ev) != SS_EV_END)
        if (ev.kind == SS_EV_BATCH && nb < 16) {
            pos[nb] = ev.batch.position;
            last[nb] = ev.batch.last_offset;
            nb++;
        }
    ss_walker_free(w);
    CHECK(nb >= 3);
    ss_decoder *dec = ss_decoder_new(0);
    ss_index_checker *c = ss_index_checker_new(log, NULL, dec);
    ss_icheck r;
    for (size_t i = 0; i < nb; i++) {
        ss_offset_entry e = {last[i], (int32_t)pos[i]};
        CHECK_EQ_I(ss_index_check_offset(c, e, 5u << 20, &r), SS_ICHECK_MATCH);
        e.offset = last[i] + 1;
        CHECK_EQ_I(ss_index_check_offset(c, e, 5u << 20, &r), SS_ICHECK_MISMATCH);
        CHECK_EQ_I(r.log_last_offset, last[i]);
        /* a max message size below the batch: no batch in the slice */
        CHECK_EQ_I(ss_index_check_offset(c, e, 20, &r), SS_ICHECK_NO_BATCH);
    }
    ss_offset_entry bad = {0, (int32_t)ss_segment_size(log)};
    CHECK_EQ_I(ss_index_check_offset(c, bad, 5u << 20, &r), SS_ICHECK_NO_BATCH);
    bad.position = (int32_t)ss_segment_size(log) + 1;
    CHECK_EQ_I(ss_index_check_offset(c, bad, 5u << 20, &r), SS_ICHECK_ERROR);
    bad.position = -1;
    CHECK_EQ_I(ss_index_check_offset(c, bad, 5u << 20, &r), SS_ICHECK_ERROR);
    bad.position = 1; /* inside the first batch header */
    ss_icheck_status st = ss_index_check_offset(c, bad, 5u << 20, &r);
    CHECK(st == SS_ICHECK_ERROR || st == SS_ICHECK_NO_BATCH || st == SS_ICHECK_MISMATCH);

    /* time checks without an offset index: searched from position 0 */
    for (size_t i = 0; i < nb; i++) {
        ss_time_entry te = {0, last[i]};
        CHECK_EQ_I(ss_index_check_time(c, te, &r), SS_ICHECK_MATCH);
        CHECK_EQ_I(r.batch_position, pos[i]);
        CHECK(r.log_max_timestamp >= -1);
    }
    ss_time_entry te = {0, last[nb - 1] + 1};
    CHECK_EQ_I(ss_index_check_time(c, te, &r), SS_ICHECK_NOT_FOUND);
    CHECK_EQ_I(r.log_last_offset, -1);
    /* a search after a larger target must not reuse the resume point */
    te.offset = last[0];
    CHECK_EQ_I(ss_index_check_time(c, te, &r), SS_ICHECK_MATCH);
    CHECK_EQ_I(r.batch_position, pos[0]);
    if (last[0] > 0) {
        te.offset = last[0] - 1; /* inside batch 0 (if it has several offsets): found, not its last offset */
        st = ss_index_check_time(c, te, &r);
        CHECK(st == SS_ICHECK_MISMATCH || st == SS_ICHECK_MATCH);
    }
    ss_index_checker_free(c);
    ss_decoder_free(dec);
    ss_segment_close(log);
}

/* ---- transaction index ---------------------------------------------------------------- */

static void make_txn(uint8_t *p, uint16_t version, int64_t pid, int64_t first, int64_t last, int64_t lso) {
    put16(p, version);
    put64(p + 2, (uint64_t)pid);
    put64(p + 10, (uint64_t)first);
    put64(p + 18, (uint64_t)last);
    put64(p + 26, (uint64_t)lso);
}

static void test_txnindex(void) {
    uint8_t b[34 * 4 + 7];
    memset(b, 0, sizeof b);
    make_txn(b, 0, 3001, 0, 5, 6);
    make_txn(b + 34, 0x0001, 3002, 7, 9, 10);    /* Kafka reads the first byte only: version 0 */
    make_txn(b + 68, 0xFF00, 3003, 11, 12, 13);  /* first byte 0xFF: version -1, accepted */
    make_txn(b + 102, 0x0100, 3004, 14, 15, 16); /* version 1: refused */
    ss_txnindex *t;
    ss_error err;
    const char *msg = err.msg;
    CHECK(ss_txnindex_from_memory(b, sizeof b, 0, &t, &err) == SS_E_OK);
    CHECK_EQ_U(t->entries, 4);
    CHECK_EQ_U(t->tail_bytes, 7);
    ss_aborted_txn a;
    CHECK_EQ_I(ss_txnindex_entry(t, 0, "/t", &a, &err), SS_E_OK);
    CHECK_EQ_I(a.producer_id, 3001);
    CHECK_EQ_I(a.last_stable_offset, 6);
    CHECK_EQ_I(ss_txnindex_entry(t, 1, "/t", &a, &err), SS_E_OK);
    CHECK_EQ_I(a.version, 0);
    CHECK_EQ_I(a.version_field, 1);
    CHECK_EQ_I(ss_txnindex_entry(t, 2, "/t", &a, &err), SS_E_OK);
    CHECK_EQ_I(a.version, -1);
    CHECK_EQ_I(ss_txnindex_entry(t, 3, "/t", &a, &err), SS_E_BAD_INDEX);
    CHECK_MSG(!strcmp(msg, "Unexpected aborted transaction version 1 in transaction index /t, current version is 0"),
              "%s", msg);
    CHECK_EQ_U(err.position, 102);
    CHECK_EQ_I(ss_txnindex_entry(t, 4, "/t", &a, &err), SS_E_USAGE);
    CHECK_EQ_I(ss_txnindex_sanity_check(t, "/t", &err), SS_E_BAD_INDEX);
    ss_txnindex_close(t);

    /* sanity: last offset below the start offset */
    CHECK(ss_txnindex_from_memory(b, 68, 9, &t, &err) == SS_E_OK);
    CHECK_EQ_I(ss_txnindex_sanity_check(t, "/d/9.txnindex", &err), SS_E_BAD_INDEX);
    CHECK_MSG(!strcmp(msg, "Last offset of aborted transaction AbortedTxn(version=0, producerId=3001, firstOffset=0, "
                           "lastOffset=5, lastStableOffset=6) in index /d/9.txnindex is less than start offset 9"),
              "%s", msg);
    ss_txnindex_close(t);
    CHECK(ss_txnindex_from_memory(b, 68, 5, &t, &err) == SS_E_OK);
    CHECK_EQ_I(ss_txnindex_sanity_check(t, "/x", &err), SS_E_OK);
    ss_txnindex_close(t);
    /* every length up to 3 entries: never a read past the end */
    for (size_t len = 0; len < 103; len++) {
        CHECK(ss_txnindex_from_memory(b, len, 0, &t, &err) == SS_E_OK);
        CHECK_EQ_U(t->entries * 34 + t->tail_bytes, len);
        for (uint64_t i = 0; i < t->entries; i++) (void)ss_txnindex_entry(t, i, "/x", &a, &err);
        ss_txnindex_close(t);
    }
    CHECK_EQ_I(ss_txnindex_open(tmp_path("missing.txnindex"), 0, &t, &err), SS_E_IO);
}

/* ---- producer snapshot ------------------------------------------------------------------ */

typedef struct pe {
    int64_t pid;
    int16_t epoch;
    int32_t last_seq;
    int64_t last_offset;
    int32_t delta;
    int64_t ts;
    int32_t coord;
    int64_t txn;
} pe;

static size_t make_snapshot(uint8_t *buf, int16_t version, const pe *e, int32_t n, size_t trailing) {
    put16(buf, (uint16_t)version);
    put32(buf + 6, (uint32_t)n);
    size_t p = 10;
    for (int32_t i = 0; i < n; i++) {
        put64(buf + p, (uint64_t)e[i].pid);
        put16(buf + p + 8, (uint16_t)e[i].epoch);
        put32(buf + p + 10, (uint32_t)e[i].last_seq);
        put64(buf + p + 14, (uint64_t)e[i].last_offset);
        put32(buf + p + 22, (uint32_t)e[i].delta);
        put64(buf + p + 26, (uint64_t)e[i].ts);
        put32(buf + p + 34, (uint32_t)e[i].coord);
        put64(buf + p + 38, (uint64_t)e[i].txn);
        p += 46;
    }
    memset(buf + p, 0x5A, trailing);
    p += trailing;
    put32(buf + 2, ss_crc32c(0, buf + 6, p - 6));
    return p;
}

static void test_snapshot(void) {
    static const pe entries[] = {
        {3001, 0, 6, 7, 1, 1700000500004, 5, -1},
        {3002, 2, 4, 5, 0, 1700000000020, 1, 3},
        {3006, 0, -1, -1, 0, 1700000500009, 7, -1}, /* no batch metadata */
        {9, 1, 2, 100, 5, 1, -1, -1},               /* first sequence wraps: MAX - 2 */
        {10, 0, -1, 50, 0, 1, -1, -1},              /* lastSeq -1, delta 0: firstSeq MAX */
    };
    uint8_t buf[10 + 46 * 5 + 16];
    size_t len = make_snapshot(buf, 1, entries, 5, 0);
    ss_snapshot s;
    ss_error err;
    CHECK_EQ_I(ss_snapshot_parse(buf, len, &s, &err), SS_E_OK);
    CHECK_EQ_U(s.n, 5);
    CHECK_EQ_U(s.crc, s.crc_computed);
    CHECK_EQ_I(s.entries[0].first_sequence, 5);
    CHECK(s.entries[0].has_batch && !s.entries[0].has_txn);
    CHECK(s.entries[1].has_txn && s.entries[1].current_txn_first_offset == 3);
    CHECK(!s.entries[2].has_batch);
    CHECK_EQ_I(s.entries[3].first_sequence, 2147483645);
    CHECK_EQ_I(s.entries[4].first_sequence, 2147483647);
    ss_snapshot_free(&s);

    /* trailing bytes are covered by the CRC and otherwise ignored */
    len = make_snapshot(buf, 1, entries, 2, 16);
    CHECK_EQ_I(ss_snapshot_parse(buf, len, &s, &err), SS_E_OK);
    CHECK_EQ_U(s.trailing_bytes, 16);
    CHECK_EQ_U(s.n, 2);
    ss_snapshot_free(&s);

    /* bad CRC: one flipped byte anywhere after the CRC field */
    len = make_snapshot(buf, 1, entries, 2, 0);
    for (size_t i = 6; i < len; i++) {
        buf[i] ^= 0x10;
        ss_errkind k = ss_snapshot_parse(buf, len, &s, &err);
        CHECK_EQ_I(k, SS_E_BAD_SNAPSHOT);
        if (i >= 10)
            CHECK_MSG(!strncmp(err.msg, "Snapshot is corrupt (CRC is no longer valid). Stored crc: ", 58),
                      "byte %zu: %s", i, err.msg);
        ss_snapshot_free(&s);
        buf[i] ^= 0x10;
    }
    char want[200];
    buf[len - 1] ^= 1;
    CHECK_EQ_I(ss_snapshot_parse(buf, len, &s, &err), SS_E_BAD_SNAPSHOT);
    snprintf(want, sizeof want, "Snapshot is corrupt (CRC is no longer valid). Stored crc: %u. Computed crc: %u",
             (unsigned)s.crc, (unsigned)s.crc_computed);
    CHECK_MSG(!strcmp(err.msg, want), "%s", err.msg);
    ss_snapshot_free(&s);
    buf[len - 1] ^= 1;

    /* truncated at every length: the schema error names the field that does not fit */
    for (size_t cut = 0; cut < len; cut++) {
        ss_errkind k = ss_snapshot_parse(buf, cut, &s, &err);
        CHECK_EQ_I(k, SS_E_BAD_SNAPSHOT);
        const char *field = cut < 2 ? "'version'" : cut < 6 ? "'crc'" : "'producer_entries'";
        CHECK_MSG(strstr(err.msg, "Snapshot failed schema validation: Error reading field ") == err.msg &&
                      strstr(err.msg, field) != NULL,
                  "cut %zu: %s", cut, err.msg);
        CHECK(s.entries == NULL);
        ss_snapshot_free(&s);
    }
    CHECK_EQ_I(ss_snapshot_parse(buf, 30, &s, &err), SS_E_BAD_SNAPSHOT);
    CHECK_MSG(!strcmp(err.msg, "Snapshot failed schema validation: Error reading field 'producer_entries': Error "
                               "reading field 'last_offset': java.nio.BufferUnderflowException"),
              "%s", err.msg);
    CHECK_EQ_I(ss_snapshot_parse(buf, 11, &s, &err), SS_E_BAD_SNAPSHOT);
    CHECK_MSG(!strcmp(err.msg, "Snapshot failed schema validation: Error reading field 'producer_entries': Error "
                               "reading array of size 2, only 1 bytes available"),
              "%s", err.msg);
    CHECK_EQ_I(ss_snapshot_parse(buf, 0, &s, &err), SS_E_BAD_SNAPSHOT);
    CHECK_MSG(!strcmp(err.msg, "Snapshot failed schema validation: Error reading field 'version': "
                               "java.nio.BufferUnderflowException"),
              "%s", err.msg);
    CHECK_EQ_I(ss_snapshot_parse(NULL, 0, &s, &err), SS_E_BAD_SNAPSHOT);

    /* negative count, wrong version (checked after the schema, before the CRC) */
    len = make_snapshot(buf, 1, entries, 0, 0);
    put32(buf + 6, 0xFFFFFFFDu);
    CHECK_EQ_I(ss_snapshot_parse(buf, len, &s, &err), SS_E_BAD_SNAPSHOT);
    CHECK_MSG(!strcmp(err.msg,
                      "Snapshot failed schema validation: Error reading field 'producer_entries': Array size -3 "
                      "cannot be negative"),
              "%s", err.msg);
    len = make_snapshot(buf, 2, entries, 1, 0);
    put32(buf + 2, 0); /* a bad CRC too: the version is reported first */
    CHECK_EQ_I(ss_snapshot_parse(buf, len, &s, &err), SS_E_BAD_SNAPSHOT);
    CHECK_MSG(!strcmp(err.msg, "Snapshot contained an unknown file version 2"), "%s", err.msg);
    len = make_snapshot(buf, -1, entries, 0, 0);
    CHECK_EQ_I(ss_snapshot_parse(buf, len, &s, &err), SS_E_BAD_SNAPSHOT);
    CHECK_MSG(!strcmp(err.msg, "Snapshot contained an unknown file version -1"), "%s", err.msg);
    /* an empty snapshot (10 bytes) */
    len = make_snapshot(buf, 1, entries, 0, 0);
    CHECK_EQ_I(ss_snapshot_parse(buf, len, &s, &err), SS_E_OK);
    CHECK_EQ_U(s.n, 0);
    ss_snapshot_free(&s);

    /* files */
    len = make_snapshot(buf, 1, entries, 3, 0);
    write_file("00000000000000000009.snapshot", buf, len);
    CHECK_EQ_I(ss_snapshot_read(tmp_path("00000000000000000009.snapshot"), &s, &err), SS_E_OK);
    CHECK_EQ_U(s.n, 3);
    ss_snapshot_free(&s);
    CHECK_EQ_I(ss_snapshot_read(tmp_path("nope.snapshot"), &s, &err), SS_E_IO);
    ss_snapshot_free(&s);
    CHECK_EQ_I(ss_snapshot_read(tmpdir, &s, &err), SS_E_IO);
    ss_snapshot_free(&s);
}

/* ---- random bytes into every reader ------------------------------------------------------------ */

static void test_random(void) {
    uint64_t seed = 7;
    uint8_t buf[600];
    for (int round = 0; round < 3000; round++) {
        size_t len = (size_t)(test_rand(&seed) % sizeof buf);
        for (size_t i = 0; i < len; i++) buf[i] = (uint8_t)test_rand(&seed);
        if (round % 3 == 0 && len >= 10) put32(buf + 6, (uint32_t)(test_rand(&seed) % 14)); /* plausible count */
        ss_error err;
        ss_snapshot s;
        (void)ss_snapshot_parse(buf, len, &s, &err);
        ss_snapshot_free(&s);
        ss_index *ix;
        for (int kind = SS_INDEX_OFFSET; kind <= SS_INDEX_TIME; kind++) {
            CHECK(ss_index_from_memory(buf, len, (ss_index_kind)kind, (int64_t)test_rand(&seed), &ix, &err) == SS_E_OK);
            (void)ss_index_sanity_check(ix, "/r", &err);
            (void)ss_index_lookup(ix, 0, (int64_t)test_rand(&seed));
            ss_index_close(ix);
        }
        ss_txnindex *t;
        CHECK(ss_txnindex_from_memory(buf, len, 0, &t, &err) == SS_E_OK);
        (void)ss_txnindex_sanity_check(t, "/r", &err);
        ss_txnindex_close(t);
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: test_index CORPUS_DIR\n");
        return 2;
    }
    snprintf(tmpdir, sizeof tmpdir, "%s/segscan-test-index-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 2;
    }
    test_names();
    test_index_sizes();
    test_index_entries_and_sanity();
    test_lookup_reference();
    test_index_files();
    test_checker(argv[1]);
    test_txnindex();
    test_snapshot();
    test_random();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "test_index: could not remove %s\n", tmpdir);
    return check_exit("test_index");
}
