/* The parquet room's reader against its writer: a file of every column type, written with values
 * chosen to try the encodings (INT64 and INT32 extremes side by side, whose deltas wrap; nulls in
 * every pattern; booleans; strings; FIXED_LEN_BYTE_ARRAY(16); a column of nulls only), in row
 * groups of 7 rows and of 1000, read back value by value against the formula that wrote it (the
 * formula of pq_write_sample.c, which DuckDB checks in test_export_duckdb.py). Then the file cut at
 * every length and with every footer byte flipped: each is refused (bad-export, or usage for
 * a footer no longer segscan's) or read, never past its bytes (the ASan build watches). Then a
 * column of strings in runs, dictionary encoded, read back, and every byte of it flipped. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parquet/reader.h"
#include "parquet/writer.h"
#include "segscan/parquet.h"

static int failures, cuts, flips, flips_read;
#define CHECK(c, ...)                                                                                                  \
    do {                                                                                                               \
        if (!(c)) {                                                                                                    \
            failures++;                                                                                                \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                                       \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
        }                                                                                                              \
    } while (0)

static const ss_pq_column cols[] = {
    {"i", SS_PQ_INT64, false, false, false},     {"a", SS_PQ_INT64, false, false, false},
    {"b", SS_PQ_INT32, false, false, false},     {"c", SS_PQ_BOOLEAN, false, false, false},
    {"s", SS_PQ_BYTE_ARRAY, true, false, false}, {"x", SS_PQ_FIXED16, false, false, false},
    {"z", SS_PQ_INT32, false, false, false},
};
#define NCOLS (sizeof cols / sizeof *cols)
#define ROWS 1000

static bool a_null(int i) { return i % 5 == 3; }
static int64_t a_val(int i) {
    switch (i % 5) {
    case 0: return INT64_MIN;
    case 1: return INT64_MAX;
    case 2: return -1;
    default: return (int64_t)i * 1000003;
    }
}
static int32_t b_val(int i) {
    static const int32_t b[4] = {INT32_MIN, INT32_MAX, 0, 0};
    return i % 4 == 3 ? -i : b[i % 4];
}

static bool write_file(const char *path, size_t per_group) {
    ss_error err;
    ss_pq_writer *w = ss_pq_create(path, cols, NCOLS, per_group, "segscan test", &err);
    if (!w) return false;
    for (int i = 0; i < ROWS; i++) {
        ss_pq_i64(w, i);
        if (a_null(i)) ss_pq_null(w);
        else ss_pq_i64(w, a_val(i));
        if (i % 7 == 0) ss_pq_null(w);
        else ss_pq_i32(w, b_val(i));
        if (i % 3 == 0) ss_pq_null(w);
        else ss_pq_bool(w, i % 2 == 0);
        char s[32];
        snprintf(s, sizeof s, "v%d", i * i);
        ss_pq_str(w, i % 4 == 1 ? NULL : s);
        if (i % 6 == 5) ss_pq_null(w);
        else {
            uint8_t x[16];
            for (int k = 0; k < 16; k++) x[k] = (uint8_t)(i + k);
            ss_pq_bytes(w, x, 16);
        }
        ss_pq_null(w);
        if (ss_pq_row_end(w, &err) != SS_E_OK) return false;
    }
    return ss_pq_meta(w, "k", "v", &err) == SS_E_OK && ss_pq_finish(w, &err) == SS_E_OK;
}

static uint8_t *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc((size_t)len + 1);
    *n = p ? fread(p, 1, (size_t)len, f) : 0;
    fclose(f);
    return p;
}

static void read_back(const uint8_t *file, size_t n, size_t per_group) {
    ss_pq_reader r;
    ss_error err;
    ss_errkind k = ss_pqr_open(&r, file, n, cols, NCOLS, &err);
    CHECK(k == SS_E_OK, "open: %s", err.msg);
    if (k != SS_E_OK) {
        ss_pqr_close(&r);
        return;
    }
    CHECK(r.num_rows == ROWS, "num_rows %lld", (long long)r.num_rows);
    CHECK(r.ngroups == (ROWS + per_group - 1) / per_group, "%zu row groups", r.ngroups);
    CHECK(ss_pqr_meta(&r, "k") && !strcmp(ss_pqr_meta(&r, "k"), "v"), "the key-value metadata");
    CHECK(!ss_pqr_meta(&r, "absent"), "an absent key");
    int i = 0;
    for (size_t g = 0; g < r.ngroups; g++) {
        k = ss_pqr_read_group(&r, g, &err);
        CHECK(k == SS_E_OK, "group %zu: %s", g, err.msg);
        if (k != SS_E_OK) break;
        for (size_t row = 0; row < r.rows; row++, i++) {
            CHECK(!ss_pqr_null(&r, 0, row) && ss_pqr_int(&r, 0, row) == i, "i at %d", i);
            CHECK(ss_pqr_null(&r, 1, row) == a_null(i) && (a_null(i) || ss_pqr_int(&r, 1, row) == a_val(i)), "a at %d",
                  i);
            CHECK(ss_pqr_null(&r, 2, row) == (i % 7 == 0) && (i % 7 == 0 || ss_pqr_int(&r, 2, row) == b_val(i)),
                  "b at %d", i);
            CHECK(ss_pqr_null(&r, 3, row) == (i % 3 == 0) && (i % 3 == 0 || ss_pqr_int(&r, 3, row) == (i % 2 == 0)),
                  "c at %d", i);
            char s[32];
            snprintf(s, sizeof s, "v%d", i * i);
            uint32_t len;
            CHECK(ss_pqr_null(&r, 4, row) == (i % 4 == 1), "s null at %d", i);
            if (i % 4 != 1) {
                const uint8_t *p = ss_pqr_bytes(&r, 4, row, &len);
                CHECK(len == strlen(s) && !memcmp(p, s, len), "s at %d", i);
            }
            CHECK(ss_pqr_null(&r, 5, row) == (i % 6 == 5), "x null at %d", i);
            if (i % 6 != 5) {
                const uint8_t *p = ss_pqr_bytes(&r, 5, row, &len);
                bool same = len == 16;
                for (int q = 0; q < 16 && same; q++) same = p[q] == (uint8_t)(i + q);
                CHECK(same, "x at %d", i);
            }
            CHECK(ss_pqr_null(&r, 6, row), "z at %d", i);
        }
    }
    CHECK(i == ROWS, "%d rows read", i);
    ss_pqr_close(&r);
}

/* Every prefix and every footer byte flipped: refused with a reason, or read whole. */
static void damaged(const uint8_t *file, size_t n) {
    uint8_t *b = malloc(n);
    for (size_t cut = 0; cut < n; cut += cut < 64 || n - cut < 64 ? 1 : 97) {
        memcpy(b, file, cut);
        ss_pq_reader r;
        ss_error err;
        ss_errkind k = ss_pqr_open(&r, b, cut, cols, NCOLS, &err);
        cuts++;
        CHECK(k == SS_E_BAD_EXPORT, "cut at %zu: kind %d", cut, (int)k);
        CHECK(strstr(err.msg, "byte ") == err.msg, "cut at %zu: the byte named: %s", cut, err.msg);
        ss_pqr_close(&r);
    }
    size_t flen =
        (size_t)file[n - 8] | (size_t)file[n - 7] << 8 | (size_t)file[n - 6] << 16 | (size_t)file[n - 5] << 24;
    for (size_t at = n - 8 - flen; at < n; at++) {
        memcpy(b, file, n);
        b[at] ^= 0x5a;
        ss_pq_reader r;
        ss_error err;
        ss_errkind k = ss_pqr_open(&r, b, n, cols, NCOLS, &err);
        for (size_t g = 0; k == SS_E_OK && g < r.ngroups; g++) k = ss_pqr_read_group(&r, g, &err);
        flips++;
        flips_read += k == SS_E_OK;
        CHECK(k == SS_E_OK || k == SS_E_BAD_EXPORT || k == SS_E_USAGE, "byte %zu flipped: kind %d", at, (int)k);
        CHECK(k == SS_E_OK || strstr(err.msg, "byte ") == err.msg, "byte %zu flipped: %s", at, err.msg);
        ss_pqr_close(&r);
    }
    free(b);
}

/* A column of strings kept as runs, as the export's topic, timestampType, compression and
 * controlType are: dictionary encoded (parquet.c dict_build, dict_pages). Runs of 3 rows; run k
 * null when k % 5 == 4, else "t<k * 7 % 300>": a row group of 1000 rows holds 267 distinct values
 * (indices of 9 bits), one of 7 rows 2 or 3 (indices of 1 or 2 bits). */
static const ss_pq_column dcols[] = {{"i", SS_PQ_INT64, false, false, false},
                                     {"r", SS_PQ_BYTE_ARRAY, true, false, true}};
static bool r_null(int i) { return i / 3 % 5 == 4; }
static size_t r_val(int i, char *s, size_t n) { return (size_t)snprintf(s, n, "t%d", i / 3 * 7 % 300); }
static int dict_refusals;

static bool write_dict(const char *path, size_t per_group) {
    ss_error err;
    ss_pq_writer *w = ss_pq_create(path, dcols, 2, per_group, "segscan test", &err);
    if (!w) return false;
    ss_pqw_set_runs(w, 1);
    for (int i = 0; i < ROWS; i++) {
        char s[32];
        size_t len = r_val(i, s, sizeof s);
        ss_pqw_i64_run(w, 0, i, 1);
        if (r_null(i)) ss_pqw_null_run(w, 1, 1);
        else ss_pqw_bytes_run(w, 1, s, (uint32_t)len, 1);
        if (ss_pqw_rows_done(w, 1, &err) != SS_E_OK) {
            ss_pq_abort(w);
            return false;
        }
    }
    return ss_pq_finish(w, &err) == SS_E_OK;
}

/* The file read back value by value (each row group's strings from its dictionary: a chunk
 * written PLAIN would pass the values but fail here), or, flipped, refused or read. */
static ss_errkind read_dict(const uint8_t *file, size_t n, size_t per_group, bool whole, ss_error *err) {
    ss_pq_reader r;
    ss_errkind k = ss_pqr_open(&r, file, n, dcols, 2, err);
    int i = 0;
    for (size_t g = 0; k == SS_E_OK && g < r.ngroups; g++) {
        k = ss_pqr_read_group(&r, g, err);
        if (k != SS_E_OK || !whole) continue;
        CHECK(r.chunks[g * 2 + 1].dict >= 0, "per %zu group %zu: a dictionary page", per_group, g);
        CHECK(r.chunks[g * 2].dict < 0, "per %zu group %zu: no dictionary for integers", per_group, g);
        for (size_t row = 0; row < r.rows; row++, i++) {
            char s[32];
            size_t len = r_val(i, s, sizeof s);
            uint32_t got;
            CHECK(ss_pqr_int(&r, 0, row) == i, "i at %d", i);
            CHECK(ss_pqr_null(&r, 1, row) == r_null(i), "r null at %d", i);
            const uint8_t *p = r_null(i) ? NULL : ss_pqr_bytes(&r, 1, row, &got);
            CHECK(r_null(i) || (got == len && !memcmp(p, s, len)), "r at %d (per %zu)", i, per_group);
        }
    }
    CHECK(!whole || k != SS_E_OK || i == ROWS, "dictionary: %d rows read", i);
    ss_pqr_close(&r);
    return k;
}

/* A column whose every value is the empty string, kept as runs (a dictionary of one empty entry)
 * or not (PLAIN): each row's bytes are a pointer (not NULL: ss_pqr_bytes adds the offset to the
 * column's data, which holds no byte) and no length. */
static void empty_strings(const char *path, bool runs) {
    ss_error err;
    ss_pq_writer *w = ss_pq_create(path, dcols, 2, ROWS, "segscan test", &err);
    CHECK(w != NULL, "empty strings: create");
    if (!w) return;
    if (runs) ss_pqw_set_runs(w, 1);
    for (int i = 0; i < 10; i++) {
        ss_pqw_i64_run(w, 0, i, 1);
        ss_pqw_bytes_run(w, 1, "", 0, 1);
        CHECK(ss_pqw_rows_done(w, 1, &err) == SS_E_OK, "empty strings: row %d", i);
    }
    CHECK(ss_pq_finish(w, &err) == SS_E_OK, "empty strings: finish");
    size_t n;
    uint8_t *file = slurp(path, &n);
    ss_pq_reader r;
    ss_errkind k = file ? ss_pqr_open(&r, file, n, dcols, 2, &err) : SS_E_IO;
    CHECK(k == SS_E_OK && r.ngroups == 1, "empty strings: open");
    if (k == SS_E_OK && r.ngroups == 1) {
        k = ss_pqr_read_group(&r, 0, &err);
        CHECK(k == SS_E_OK && r.rows == 10, "empty strings (runs %d): %s", runs, err.msg);
        CHECK(k != SS_E_OK || (r.chunks[1].dict >= 0) == runs, "empty strings (runs %d): a dictionary", runs);
        for (size_t row = 0; k == SS_E_OK && row < r.rows; row++) {
            uint32_t len = 1;
            const uint8_t *p = ss_pqr_null(&r, 1, row) ? NULL : ss_pqr_bytes(&r, 1, row, &len);
            CHECK(p != NULL && len == 0, "empty strings (runs %d): row %zu", runs, row);
        }
    }
    if (file) ss_pqr_close(&r);
    free(file);
}

/* The hybrid's bit-packed runs, which the writer does not write (its indices are RLE runs): the
 * example of Encodings.md ("Bit-packed (Deprecated) (BIT_PACKED = 4)" and the hybrid's
 * bit-packed-run: 0..7 at bit width 3, least significant bit first, are the bytes 10001000
 * 11000110 11111010), its header (1 group of 8) << 1 | 1; then an RLE run of 5 values of 300 at
 * bit width 9 (two bytes, little-endian), and 8 values of 32 bits bit-packed. */
static void hybrid(void) {
    static const uint8_t a[] = {0x03, 0x88, 0xc6, 0xfa};
    int64_t out[16];
    const uint8_t *p = a;
    const char *why = ss_pqr_hybrid(&p, a + sizeof a, 3, out, 8);
    bool ok = !why && p == a + sizeof a;
    for (int i = 0; i < 8 && ok; i++) ok = out[i] == i;
    CHECK(ok, "bit-packed 0..7 at width 3: %s", why ? why : "values");
    /* 6 of the 8: the rest of the group is padding, and read past */
    p = a;
    why = ss_pqr_hybrid(&p, a + sizeof a, 3, out, 6);
    CHECK(!why && p == a + sizeof a && out[5] == 5, "6 values of a group of 8");
    static const uint8_t b[] = {0x0a, 0x2c, 0x01};
    p = b;
    why = ss_pqr_hybrid(&p, b + sizeof b, 9, out, 5);
    ok = !why && p == b + sizeof b;
    for (int i = 0; i < 5 && ok; i++) ok = out[i] == 300;
    CHECK(ok, "an RLE run of 300 at width 9: %s", why ? why : "values");
    uint8_t c[1 + 32];
    c[0] = 0x03;
    for (int i = 0; i < 8; i++) {
        uint32_t v = 0xfffffff0u + (uint32_t)i;
        memcpy(c + 1 + 4 * i, (uint8_t[4]){(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)}, 4);
    }
    p = c;
    why = ss_pqr_hybrid(&p, c + sizeof c, 32, out, 8);
    ok = !why;
    for (int i = 0; i < 8 && ok; i++) ok = out[i] == (int64_t)0xfffffff0u + i;
    CHECK(ok, "bit-packed at width 32: %s", why ? why : "values");
    /* cut short, too many, too wide */
    p = a;
    CHECK(ss_pqr_hybrid(&p, a + 3, 3, out, 8) != NULL, "a bit-packed group cut short");
    p = b;
    CHECK(ss_pqr_hybrid(&p, b + sizeof b, 9, out, 4) != NULL, "an RLE run of more values than asked");
    p = b;
    CHECK(ss_pqr_hybrid(&p, b + sizeof b, 33, out, 5) != NULL, "a bit width of 33");
}

/* A dictionary in a column whose descriptor does not allow one (dict false: key, value, ...) is
 * refused: rows that all stand for one large entry would make a small file read as a large one. */
static void dict_where_none(const char *path) {
    CHECK(write_dict(path, ROWS), "written");
    size_t n;
    uint8_t *file = slurp(path, &n);
    static const ss_pq_column nodict[] = {{"i", SS_PQ_INT64, false, false, false},
                                          {"r", SS_PQ_BYTE_ARRAY, true, false, false}};
    ss_pq_reader r;
    ss_error err;
    ss_errkind k = file ? ss_pqr_open(&r, file, n, nodict, 2, &err) : SS_E_IO;
    CHECK(k == SS_E_BAD_EXPORT && strstr(err.msg, "a dictionary page in a column segscan writes none for"),
          "a dictionary where the column has none: %d %s", (int)k, k == SS_E_OK ? "read" : err.msg);
    if (file) ss_pqr_close(&r);
    free(file);
}

/* Strings in runs whose dictionary would pass SS_PQ_DICT_MAX_BYTES (5,000 distinct values of 250
 * bytes, as a row group of very many topics): that chunk is PLAIN, and reads back. */
static void dict_too_large(const char *path) {
    ss_error err;
    ss_pq_writer *w = ss_pq_create(path, dcols, 2, 10000, "segscan test", &err);
    CHECK(w != NULL, "create");
    if (!w) return;
    ss_pqw_set_runs(w, 1);
    char s[251];
    for (int i = 0; i < 5000; i++) {
        memset(s, 'a' + i % 26, 250);
        snprintf(s, sizeof s, "%d", i);
        s[strlen(s)] = 'x';
        ss_pqw_i64_run(w, 0, i, 1);
        ss_pqw_bytes_run(w, 1, s, 250, 1);
        CHECK(ss_pqw_rows_done(w, 1, &err) == SS_E_OK, "row %d", i);
    }
    CHECK(ss_pq_finish(w, &err) == SS_E_OK, "finish");
    size_t n;
    uint8_t *file = slurp(path, &n);
    ss_pq_reader r;
    ss_errkind k = file ? ss_pqr_open(&r, file, n, dcols, 2, &err) : SS_E_IO;
    if (k == SS_E_OK && r.ngroups == 1) k = ss_pqr_read_group(&r, 0, &err);
    CHECK(k == SS_E_OK && r.rows == 5000, "a dictionary too large: %s", err.msg);
    if (k == SS_E_OK && r.rows == 5000) {
        CHECK(r.chunks[1].dict < 0, "no dictionary past SS_PQ_DICT_MAX_BYTES");
        bool same = true;
        for (int i = 0; i < 5000 && same; i++) {
            memset(s, 'a' + i % 26, 250);
            snprintf(s, sizeof s, "%d", i);
            s[strlen(s)] = 'x';
            uint32_t len;
            const uint8_t *p = ss_pqr_bytes(&r, 1, (size_t)i, &len);
            same = len == 250 && !memcmp(p, s, 250);
        }
        CHECK(same, "the values read back");
    }
    if (file) ss_pqr_close(&r);
    free(file);
}

static void dictionary(const char *path) {
    hybrid();
    dict_where_none(path);
    dict_too_large(path);
    empty_strings(path, true);
    empty_strings(path, false);
    for (size_t per = 7; per <= ROWS; per = per == 7 ? ROWS : ROWS + 1) {
        CHECK(write_dict(path, per), "dictionary written with %zu rows a group", per);
        size_t n;
        uint8_t *file = slurp(path, &n);
        CHECK(file != NULL, "read");
        if (!file) continue;
        ss_error err;
        CHECK(read_dict(file, n, per, true, &err) == SS_E_OK, "dictionary, per %zu: %s", per, err.msg);
        /* every byte flipped (the pages' too): refused, naming the byte, or read */
        uint8_t *b = malloc(n);
        for (size_t at = 4; per == ROWS && b && at < n; at++) {
            memcpy(b, file, n);
            b[at] ^= 0x5a;
            ss_errkind k = read_dict(b, n, per, false, &err);
            CHECK(k == SS_E_OK || k == SS_E_BAD_EXPORT || k == SS_E_USAGE, "byte %zu flipped: kind %d", at, (int)k);
            CHECK(k == SS_E_OK || strstr(err.msg, "byte ") == err.msg, "byte %zu flipped: %s", at, err.msg);
            dict_refusals += k != SS_E_OK && strstr(err.msg, "dictionar") != NULL;
        }
        free(b);
        free(file);
    }
    /* the refusals of the dictionary's own checks were reached (bit width, indices, its page) */
    CHECK(dict_refusals > 0, "no flip was refused by a dictionary check");
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    char path[4096];
    snprintf(path, sizeof path, "%s/test_pq_reader.parquet", dir);
    for (size_t per = 7; per <= ROWS; per = per == 7 ? ROWS : ROWS + 1) {
        CHECK(write_file(path, per), "written with %zu rows a group", per);
        size_t n;
        uint8_t *file = slurp(path, &n);
        CHECK(file != NULL, "read");
        if (file) {
            read_back(file, n, per);
            if (per == ROWS) damaged(file, n); /* one row group: a footer of a few hundred bytes */
        }
        free(file);
    }
    dictionary(path);
    remove(path);
    printf("test_pq_reader: %d prefixes refused, %d footer bytes flipped (%d of them still read), %d refused by a "
           "dictionary check, %d failed\n",
           cuts, flips, flips_read, dict_refusals, failures);
    return failures ? 1 : 0;
}
