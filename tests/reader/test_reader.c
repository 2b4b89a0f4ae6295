/* Unit tests of the bounds-checked cursor, the varints and the v2 record decoder.
 * Expected values are derived by hand from Kafka's ByteUtils (zig-zag varints,
 * at most 5 bytes for an int32, 10 for an int64) and DefaultRecord.java. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/units.h"
#include "base/reader.h"
#include "check.h"
#include "format/walker.h"
#include "segscan/segscan.h"


static void test_be(void) {
    const uint8_t b[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0xff};
    ss_rd r = ss_rd_make(b, sizeof b);
    CHECK(ss_rd_u16(&r) == 0x0102);
    CHECK(ss_rd_u32(&r) == 0x03040506u);
    CHECK(ss_rd_left(&r) == 3);
    CHECK(ss_rd_u32(&r) == 0 && r.bad); /* only 3 left */
    CHECK(ss_rd_u8(&r) == 0 && r.bad);  /* sticky */
    ss_rd r2 = ss_rd_make(b, 8);
    CHECK(ss_rd_i64(&r2) == 0x0102030405060708ll && !r2.bad);
    ss_rd r3 = ss_rd_make(b + 8, 1);
    CHECK(ss_rd_i16(&r3) == 0 && r3.bad);
}

static void test_sub(void) {
    const uint8_t b[] = {1, 2, 3, 4, 5};
    ss_rd r = ss_rd_make(b, sizeof b);
    ss_rd s = ss_rd_sub(&r, 2);
    CHECK(!s.bad && ss_rd_left(&s) == 2 && ss_rd_left(&r) == 3);
    CHECK(ss_rd_u16(&s) == 0x0102);
    CHECK(ss_rd_u8(&s) == 0 && s.bad); /* cannot read past its window */
    CHECK(ss_rd_u8(&r) == 3);          /* parent unaffected */
    ss_rd t = ss_rd_sub(&r, 3);        /* only 2 left */
    CHECK(t.bad && r.bad);
}

static int32_t v32(const uint8_t *b, size_t n, bool *bad) {
    ss_rd r = ss_rd_make(b, n);
    int32_t v = ss_rd_varint(&r);
    *bad = r.bad;
    return v;
}
static int64_t v64(const uint8_t *b, size_t n, bool *bad) {
    ss_rd r = ss_rd_make(b, n);
    int64_t v = ss_rd_varlong(&r);
    *bad = r.bad;
    return v;
}

static void test_varints(void) {
    bool bad;
    /* zig-zag: 0->0, -1->1, 1->2, -2->3, 63->126, -64->127, 64->128 (0x80 0x01) */
    CHECK(v32((const uint8_t[]){0x00}, 1, &bad) == 0 && !bad);
    CHECK(v32((const uint8_t[]){0x01}, 1, &bad) == -1 && !bad);
    CHECK(v32((const uint8_t[]){0x02}, 1, &bad) == 1 && !bad);
    CHECK(v32((const uint8_t[]){0x7f}, 1, &bad) == -64 && !bad);
    CHECK(v32((const uint8_t[]){0x80, 0x01}, 2, &bad) == 64 && !bad);
    /* INT32_MAX = zig-zag 0xFFFFFFFE = fe ff ff ff 0f; INT32_MIN = ff ff ff ff 0f */
    CHECK(v32((const uint8_t[]){0xfe, 0xff, 0xff, 0xff, 0x0f}, 5, &bad) == INT32_MAX && !bad);
    CHECK(v32((const uint8_t[]){0xff, 0xff, 0xff, 0xff, 0x0f}, 5, &bad) == INT32_MIN && !bad);
    /* 6-byte int32 varint: Kafka's readVarint throws (IllegalArgumentException) */
    v32((const uint8_t[]){0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, 6, &bad);
    CHECK(bad);
    /* truncated */
    v32((const uint8_t[]){0x80, 0x80}, 2, &bad);
    CHECK(bad);
    /* INT64_MIN = ten bytes ff..ff 01 */
    const uint8_t lmin[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    CHECK(v64(lmin, 10, &bad) == INT64_MIN && !bad);
    /* 11-byte varlong: too long */
    const uint8_t l11[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
    v64(l11, 11, &bad);
    CHECK(bad);
    CHECK(v64((const uint8_t[]){0x96, 0x01}, 2, &bad) == 75 && !bad); /* 150 zig-zag -> 75 */
    /* Every encoding of 1 to 11 bytes (each byte 0x00, 0x7f, 0x80 or 0xff), read with
     * nothing after it (the careful path), then with 16 bytes after it (the fast
     * paths: one byte anywhere, more with ten bytes left): the same value, the same
     * length read, the same error. */
    unsigned differ = 0, total = 0;
    const uint8_t pick[4] = {0x00, 0x7f, 0x80, 0xff};
    for (size_t n = 1; n <= 11; n++) {
        size_t combos = n <= 6 ? (size_t)1 << (2 * n) : 4096;
        for (size_t c = 0; c < combos; c++) {
            uint8_t buf[32] = {0};
            size_t x = c * 2654435761u;
            for (size_t i = 0; i < n; i++) buf[i] = pick[n <= 6 ? (c >> (2 * i)) & 3 : (x >> (3 * i % 29)) & 3];
            memset(buf + n, 0x80, 16); /* continuation bytes after: a read past n shows */
            for (int wide = 0; wide < 2; wide++) {
                ss_rd a = ss_rd_make(buf, n), b = ss_rd_make(buf, n + 16);
                uint64_t va = wide ? (uint64_t)ss_rd_varlong(&a) : (uint64_t)(uint32_t)ss_rd_varint(&a);
                uint64_t vb = wide ? (uint64_t)ss_rd_varlong(&b) : (uint64_t)(uint32_t)ss_rd_varint(&b);
                bool same = a.bad == b.bad && (a.bad || (va == vb && a.p == b.p));
                /* the short read fails only where the encoding runs past n bytes */
                differ += !same && !(a.bad && !b.bad);
                total++;
            }
        }
    }
    CHECK(total > 20000);
    CHECK(differ == 0);
}

/* Build a v2 batch around `recs` (uncompressed) with count `count`. */
static size_t make_batch(uint8_t *out, const uint8_t *recs, size_t rlen, int32_t count, int16_t attrs) {
    memset(out, 0, 61);
    uint32_t len = (uint32_t)(49 + rlen);
    out[8] = (uint8_t)(len >> 24);
    out[9] = (uint8_t)(len >> 16);
    out[10] = (uint8_t)(len >> 8);
    out[11] = (uint8_t)len;
    out[16] = 2;
    out[21] = (uint8_t)(attrs >> 8);
    out[22] = (uint8_t)attrs;
    int32_t last = count > 0 ? count - 1 : 0;
    out[26] = (uint8_t)last;
    memset(out + 43, 0xff, 8 + 2 + 4); /* no producer */
    out[57] = (uint8_t)((uint32_t)count >> 24);
    out[58] = (uint8_t)((uint32_t)count >> 16);
    out[59] = (uint8_t)((uint32_t)count >> 8);
    out[60] = (uint8_t)count;
    memcpy(out + 61, recs, rlen);
    uint32_t crc = ss_crc32c(0, out + 21, 61 + rlen - 21);
    out[17] = (uint8_t)(crc >> 24);
    out[18] = (uint8_t)(crc >> 16);
    out[19] = (uint8_t)(crc >> 8);
    out[20] = (uint8_t)crc;
    return 61 + rlen;
}

static int decode_all(const uint8_t *batch, size_t n, ss_record *last, ss_error *err) {
    ss_decoder *d = ss_decoder_new(0);
    ss_batch b;
    int got = 0;
    if (ss_batch_parse(batch, n, 0, true, d, &b, err) != SS_E_OK) {
        ss_decoder_free(d);
        return -100;
    }
    CHECK(b.crc_valid);
    ss_rec_iter it;
    if (ss_records_begin(d, &b, &it, err) != SS_E_OK) {
        ss_decoder_free(d);
        return -200;
    }
    int r;
    while ((r = ss_records_next(&it, last, err)) == 1) got++;
    ss_decoder_free(d);
    return r < 0 ? -1 - got : got;
}

static void test_records(void) {
    uint8_t buf[512];
    ss_record rec;
    ss_error err;
    /* one record: length 8 (varint 0x10): attrs 0, tsDelta 0, offDelta 0, key null (0x01),
     * value "ab" (len 2 -> 0x04), headers 0 */
    const uint8_t ok[] = {0x10, 0x00, 0x00, 0x00, 0x01, 0x04, 'a', 'b', 0x00};
    size_t n = make_batch(buf, ok, sizeof ok, 1, 0);
    CHECK(decode_all(buf, n, &rec, &err) == 1);
    CHECK(rec.key_len == -1 && rec.value_len == 2 && memcmp(rec.value, "ab", 2) == 0 && rec.size == 9);

    /* header count larger than the bytes left */
    const uint8_t hdr[] = {0x10, 0x00, 0x00, 0x00, 0x01, 0x04, 'a', 'b', 0x14};
    n = make_batch(buf, hdr, sizeof hdr, 1, 0);
    CHECK(decode_all(buf, n, &rec, &err) == -1 && err.kind == SS_E_BAD_RECORD);

    /* negative record length */
    const uint8_t neg[] = {0x03, 0x00};
    n = make_batch(buf, neg, sizeof neg, 1, 0);
    CHECK(decode_all(buf, n, &rec, &err) == -1 && err.kind == SS_E_BAD_RECORD);

    /* record length past the end of the batch */
    const uint8_t past[] = {0x7e, 0x00, 0x00};
    n = make_batch(buf, past, sizeof past, 1, 0);
    CHECK(decode_all(buf, n, &rec, &err) == -1 && err.kind == SS_E_BAD_RECORD);

    /* a key length varint of 11 bytes inside the record */
    const uint8_t longvar[] = {0x1c, 0x00, 0x00, 0x00, 0x80, 0x80, 0x80, 0x80,
                               0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
    n = make_batch(buf, longvar, sizeof longvar, 1, 0);
    CHECK(decode_all(buf, n, &rec, &err) == -1 && err.kind == SS_E_BAD_RECORD);

    /* record count 2^31-1 with one record: the records run out */
    n = make_batch(buf, ok, sizeof ok, INT32_MAX, 0);
    CHECK(decode_all(buf, n, &rec, &err) == -2 && err.kind == SS_E_BAD_RECORD);

    /* declared count 1 but two records: Kafka's "records still remaining" */
    uint8_t two[sizeof ok * 2];
    memcpy(two, ok, sizeof ok);
    memcpy(two + sizeof ok, ok, sizeof ok);
    n = make_batch(buf, two, sizeof two, 1, 0);
    CHECK(decode_all(buf, n, &rec, &err) == -1 && err.kind == SS_E_BAD_BATCH);

    /* negative count */
    n = make_batch(buf, ok, sizeof ok, -5, 0);
    CHECK(decode_all(buf, n, &rec, &err) == -200 && err.kind == SS_E_BAD_BATCH);

    /* control batch whose key is shorter than 4 bytes */
    const uint8_t ctl[] = {0x12, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x04, 'a', 'b', 0x00};
    n = make_batch(buf, ctl, sizeof ctl, 1, 0x30);
    CHECK(decode_all(buf, n, &rec, &err) == -1 && err.kind == SS_E_BAD_RECORD);
}

static void test_batch_header(void) {
    uint8_t buf[128];
    ss_batch b;
    ss_error err;
    const uint8_t ok[] = {0x10, 0x00, 0x00, 0x00, 0x01, 0x04, 'a', 'b', 0x00};
    size_t n = make_batch(buf, ok, sizeof ok, 1, 0);
    /* length field 0, 13, 2^31-1 and negative */
    const int32_t lens[] = {0, 13, INT32_MAX, -1, -2147483647 - 1};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        uint8_t c[128];
        memcpy(c, buf, n);
        uint32_t v = (uint32_t)lens[i];
        c[8] = (uint8_t)(v >> 24);
        c[9] = (uint8_t)(v >> 16);
        c[10] = (uint8_t)(v >> 8);
        c[11] = (uint8_t)v;
        ss_errkind k = ss_batch_parse(c, n, 0, true, NULL, &b, &err);
        CHECK(k == (lens[i] == INT32_MAX ? SS_E_INCOMPLETE_TAIL : SS_E_BAD_LENGTH));
    }
    /* bad magic */
    buf[16] = 7;
    CHECK(ss_batch_parse(buf, n, 0, true, NULL, &b, &err) == SS_E_BAD_MAGIC);
    buf[16] = 2;
    /* a v2 batch shorter than the 61-byte header */
    uint8_t small[40] = {0};
    small[11] = 28;
    small[16] = 2;
    CHECK(ss_batch_parse(small, sizeof small, 0, true, NULL, &b, &err) == SS_E_BAD_LENGTH);
    /* CRC flip is detected */
    buf[n - 2] ^= 1;
    CHECK(ss_batch_parse(buf, n, 0, true, NULL, &b, &err) == SS_E_OK && !b.crc_valid);
}

static void test_walker_resync(void) {
    /* three copies of a batch with garbage between the first and second */
    uint8_t one[128], file[512];
    const uint8_t ok[] = {0x10, 0x00, 0x00, 0x00, 0x01, 0x04, 'a', 'b', 0x00};
    size_t n = make_batch(one, ok, sizeof ok, 1, 0);
    size_t pos = 0;
    memcpy(file, one, n);
    pos += n;
    memset(file + pos, 0xab, 37);
    pos += 37;
    memcpy(file + pos, one, n);
    pos += n;
    memcpy(file + pos, one, n);
    pos += n;
    ss_segment *s;
    ss_error err;
    CHECK(ss_segment_from_memory(file, pos, false, &s, &err) == SS_E_OK);
    ss_walker w;
    ss_walker_init(&w, s, UINT64_MAX);
    ss_event ev;
    int batches = 0, damage = 0;
    uint64_t dpos = 0, dlen = 0;
    while (ss_walker_next(&w, &ev) != SS_EV_END) {
        if (ev.kind == SS_EV_BATCH) batches++;
        else {
            damage++;
            dpos = ev.err.position;
            dlen = ev.err.length;
        }
    }
    CHECK(batches == 3 && damage == 1 && dpos == n && dlen == 37);
    CHECK(ev.tail_bytes == 0 && ev.end_of_last_batch == pos);
    ss_segment_close(s);
}

/* The boundary guess of a unit's reader (analysis/units.c): the first whole, CRC-valid batch at or
 * after `from`; with a stop, none at or past it is looked at and the stop is returned instead.
 * Without the stop each unit of a run of zeros (log.preallocate=true fills a segment with them
 * up to segment.bytes) searched to the file's end: quadratic in the file's size. */
static void test_find_boundary(void) {
    uint8_t one[128], file[1024];
    const uint8_t ok[] = {0x10, 0x00, 0x00, 0x00, 0x01, 0x04, 'a', 'b', 0x00};
    size_t n = make_batch(one, ok, sizeof ok, 1, 0);
    memset(file, 0, sizeof file);
    memcpy(file + 200, one, n); /* zeros, two batches, zeros to the end */
    memcpy(file + 200 + n, one, n);
    ss_segment *s;
    ss_error err;
    CHECK(ss_segment_from_memory(file, sizeof file, false, &s, &err) == SS_E_OK);
    ss_window win = {0};
    uint64_t lim = sizeof file;
    CHECK(an_find_boundary_before(&win, s, lim, 0, UINT64_MAX) == 200);
    CHECK(an_find_boundary_before(&win, s, lim, 0, 201) == 200);
    CHECK(an_find_boundary_before(&win, s, lim, 0, 100) == 100); /* the batch at 200 not looked at */
    CHECK(an_find_boundary_before(&win, s, lim, 1, 200) == 200);
    CHECK(an_find_boundary_before(&win, s, lim, 201, 200 + n) == 200 + n); /* inside the first */
    CHECK(an_find_boundary_before(&win, s, lim, 201, lim) == 200 + n);
    /* the zeros after the batches: nothing, the stop or (without one) the limit */
    uint64_t z = 200 + 2 * (uint64_t)n;
    CHECK(an_find_boundary_before(&win, s, lim, z, UINT64_MAX) == lim);
    CHECK(an_find_boundary_before(&win, s, lim, z, z + 64) == z + 64);
    CHECK(an_find_boundary_before(&win, s, lim, z, lim + 5) == lim);
    ss_window_free(&win);
    ss_segment_close(s);
}

/* Unsigned LEB128 of the zig-zag of v (Kafka's ByteUtils.writeVarint). */
static size_t put_varint(uint8_t *p, int32_t v) {
    uint32_t u = ((uint32_t)v << 1) ^ (uint32_t)(v >> 31);
    size_t n = 0;
    while (u >= 0x80) {
        p[n++] = (uint8_t)(u | 0x80);
        u >>= 7;
    }
    p[n++] = (uint8_t)u;
    return n;
}

/* One record (offset delta 0, null key, no headers) with a value of vlen bytes of fill. */
static size_t put_record(uint8_t *p, int32_t vlen, uint8_t fill) {
    uint8_t body[16];
    size_t b = 0;
    body[b++] = 0;                 /* attributes */
    body[b++] = 0;                 /* timestamp delta */
    body[b++] = 0;                 /* offset delta */
    b += put_varint(body + b, -1); /* null key */
    b += put_varint(body + b, vlen);
    size_t n = put_varint(p, (int32_t)(b + (size_t)vlen + 1));
    memcpy(p + n, body, b);
    n += b;
    memset(p + n, fill, (size_t)vlen);
    n += (size_t)vlen;
    p[n++] = 0; /* no headers */
    return n;
}

/* A file of: small batches, one batch larger than the copy window (512 KiB), a
 * batch with a broken CRC, 37 bytes of garbage, more batches and a cut tail.
 * Returns its size; fill tells two such files apart. */
static size_t make_file(uint8_t *file, uint8_t fill, size_t *nbatches) {
    static uint8_t rec[700000];
    size_t pos = 0, nb = 0;
    for (int i = 0; i < 40; i++) {
        size_t r = put_record(rec, 100 + i * 97, (uint8_t)(fill + i));
        pos += make_batch(file + pos, rec, r, 1, 0);
        nb++;
    }
    size_t r = put_record(rec, 600000, fill);
    pos += make_batch(file + pos, rec, r, 1, 0);
    nb++;
    r = put_record(rec, 5000, fill);
    size_t n = make_batch(file + pos, rec, r, 1, 0);
    file[pos + 61 + 100] ^= 0x55; /* the CRC no longer matches */
    pos += n;
    nb++; /* reported as a batch (crc_valid false), then damage */
    memset(file + pos, 0xab, 37);
    pos += 37;
    for (int i = 0; i < 300; i++) {
        r = put_record(rec, 1000 + i, (uint8_t)(fill ^ i));
        pos += make_batch(file + pos, rec, r, 1, 0);
        nb++;
    }
    r = put_record(rec, 3000, fill);
    n = make_batch(file + pos, rec, r, 1, 0);
    pos += n / 2; /* a cut tail */
    *nbatches = nb;
    return pos;
}

typedef struct walk_ev {
    int kind;
    uint64_t position, size, err_pos, err_len;
    int64_t base;
    bool crc_valid;
    int err_kind;
    uint64_t data_hash;
} walk_ev;

static uint64_t fnv(const uint8_t *p, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* Every event of a walk, the batch bytes' hash included; the END event last. */
static size_t walk(ss_segment *s, uint64_t limit, ss_window *win, walk_ev *out, size_t max, ss_event *end) {
    ss_walker w;
    ss_walker_init(&w, s, limit);
    ss_event ev;
    size_t n = 0;
    for (;;) {
        ss_event_kind k = win ? ss_walker_next_copy(&w, win, &ev) : ss_walker_next(&w, &ev);
        if (n == max) break;
        walk_ev *e = &out[n++];
        memset(e, 0, sizeof *e);
        e->kind = (int)k;
        if (k == SS_EV_BATCH) {
            e->position = ev.batch.position;
            e->size = ev.batch.size;
            e->base = ev.batch.base_offset;
            e->crc_valid = ev.batch.crc_valid;
            e->data_hash = fnv(ev.batch.data, ev.batch.size);
        } else {
            e->err_kind = (int)ev.err.kind;
            e->err_pos = ev.err.position;
            e->err_len = ev.err.length;
        }
        if (k == SS_EV_END) break;
    }
    *end = ev;
    return n;
}

/* The copying walker (ss_walker_next_copy, with pread into a window) gives the
 * walker's events, byte for byte, over a file with damage, a batch larger than
 * the window and a cut tail, with and without a byte limit; and a window used
 * for one file and then another (segments opened and closed in turn, as dump,
 * verify and diff do) reads the second file, not what it held of the first. */
static void test_walker_copy(void) {
    static uint8_t f1[2 << 20], f2[2 << 20];
    size_t nb1, nb2;
    size_t n1 = make_file(f1, 0x11, &nb1), n2 = make_file(f2, 0x77, &nb2);
    char p1[] = "/tmp/segscan-test-XXXXXX", p2[] = "/tmp/segscan-test-XXXXXX";
    int fd1 = mkstemp(p1), fd2 = mkstemp(p2);
    CHECK(fd1 >= 0 && fd2 >= 0);
    if (fd1 < 0 || fd2 < 0) return;
    CHECK(write(fd1, f1, n1) == (ssize_t)n1 && write(fd2, f2, n2) == (ssize_t)n2);
    close(fd1);
    close(fd2);
    enum { MAXEV = 1000 };
    static walk_ev a[MAXEV], b[MAXEV];
    ss_window win = {0};
    uint64_t limits[] = {UINT64_MAX, 300000, 61};
    for (size_t li = 0; li < 3; li++) {
        for (int f = 0; f < 2; f++) {
            ss_segment *s;
            ss_error err;
            CHECK(ss_segment_open(f ? p2 : p1, &s, &err) == SS_E_OK);
            ss_event ea, eb;
            size_t na = walk(s, limits[li], NULL, a, MAXEV, &ea);
            size_t nb = walk(s, limits[li], &win, b, MAXEV, &eb);
            CHECK(na == nb);
            CHECK(na > 0 && a[na - 1].kind == SS_EV_END);
            CHECK(memcmp(a, b, (na < nb ? na : nb) * sizeof *a) == 0);
            CHECK(ea.tail_bytes == eb.tail_bytes && ea.tail_kind == eb.tail_kind &&
                  ea.end_of_last_batch == eb.end_of_last_batch && ea.file_size == eb.file_size);
            if (li == 0) {
                /* by construction: every batch, one damage event (the broken CRC's batch and
                 * the garbage after it, as the walker joins them), a cut tail */
                size_t batches = 0, damage = 0;
                for (size_t i = 0; i < na; i++) {
                    batches += a[i].kind == SS_EV_BATCH;
                    damage += a[i].kind == SS_EV_DAMAGE;
                }
                CHECK(batches == (f ? nb2 : nb1));
                CHECK(damage == 1);
                CHECK(ea.tail_bytes > 0 && ea.tail_kind == SS_E_INCOMPLETE_TAIL);
            }
            ss_segment_close(s);
        }
    }
    /* a length field damaged to claim 20 MiB inside a file that long: both walks give
     * the same events, and the window never grows past SS_COPY_MAX_ENTRY for it */
    size_t big = (size_t)21 << 20;
    uint8_t *f3 = malloc(big);
    CHECK(f3 != NULL);
    if (f3) {
        size_t nb3;
        size_t n3 = make_file(f3, 0x33, &nb3);
        uint32_t bogus = (uint32_t)20 << 20;
        f3[8] = (uint8_t)(bogus >> 24);
        f3[9] = (uint8_t)(bogus >> 16);
        f3[10] = (uint8_t)(bogus >> 8);
        f3[11] = (uint8_t)bogus;
        memset(f3 + n3, 0xab, big - n3);
        char p3[] = "/tmp/segscan-test-XXXXXX";
        int fd3 = mkstemp(p3);
        CHECK(fd3 >= 0 && write(fd3, f3, big) == (ssize_t)big);
        if (fd3 >= 0) close(fd3);
        ss_segment *s;
        ss_error err;
        CHECK(ss_segment_open(p3, &s, &err) == SS_E_OK);
        ss_event ea, eb;
        size_t na = walk(s, UINT64_MAX, NULL, a, MAXEV, &ea);
        size_t nb = walk(s, UINT64_MAX, &win, b, MAXEV, &eb);
        CHECK(na == nb && na > 2);
        CHECK(memcmp(a, b, (na < nb ? na : nb) * sizeof *a) == 0);
        CHECK(a[0].kind == SS_EV_BATCH && !a[0].crc_valid && a[1].kind == SS_EV_DAMAGE);
        CHECK(win.cap <= SS_COPY_MAX_ENTRY);
        /* the analysis's reader (analysis/units.c) has its own fast path: the same file, read
         * as one unit, gives the damage the walker gave, through a capped window too */
        an_reader ar;
        CHECK(an_reader_init(&ar, 0, true));
        an_unit u;
        memset(&u, 0, sizeof u);
        u.s = s;
        u.limit = ss_segment_size(s);
        u.end = UINT64_MAX;
        u.max_records = u.max_events = 1u << 20;
        ss_an_opts o;
        ss_an_opts_default(&o);
        an_pinfo pi = {-1, false, false, false, false};
        an_unit_read(&ar, &o, &pi, &u);
        CHECK(!u.nomem && u.ended && u.ev.n >= 2);
        size_t damage = 0;
        for (size_t i = 0; i < u.ev.n; i++) damage += u.ev.v[i].kind == AE_DAMAGE;
        CHECK(damage >= 1);
        CHECK(ar.win.cap <= SS_COPY_MAX_ENTRY);
        an_unit_free(&u);
        an_reader_free(&ar);
        ss_segment_close(s);
        unlink(p3);
        free(f3);
    }
    ss_window_free(&win);
    unlink(p1);
    unlink(p2);
}

int main(void) {
    test_be();
    test_sub();
    test_varints();
    test_records();
    test_batch_header();
    test_walker_resync();
    test_find_boundary();
    test_walker_copy();
    return check_exit("test_reader");
}
