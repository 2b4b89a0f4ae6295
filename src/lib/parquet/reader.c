/* segscan - the Parquet reader (parquet/reader.h).
 *
 * From the Apache Parquet format specification (apache/parquet-format):
 *  - README.md "File format": 4 bytes "PAR1", the column chunks, the
 *    FileMetaData, its length as 4 bytes little-endian, "PAR1";
 *  - src/main/thrift/parquet.thrift: FileMetaData, SchemaElement, RowGroup,
 *    ColumnChunk, ColumnMetaData, PageHeader, DataPageHeader and their field
 *    ids, in the Thrift compact protocol (thrift.h);
 *  - README.md "Data Pages": a v1 page holds the repetition levels (none
 *    here: the columns are not nested), the definition levels (the
 *    RLE/bit-packed hybrid prefixed by its length in 4 bytes little-endian),
 *    then the non-null values;
 *  - Encodings.md: PLAIN (= 0), "Run Length Encoding / Bit-Packing Hybrid"
 *    (RLE = 3), DELTA_BINARY_PACKED (= 5), and "Dictionary Encoding"
 *    (RLE_DICTIONARY = 8, or PLAIN_DICTIONARY = 2 as older writers name it)
 *    of a BYTE_ARRAY column: a dictionary page (PLAIN values) first in its
 *    chunk, at its dictionary_page_offset, and in the data page a byte of bit
 *    width, then the values' indices in the hybrid.
 * The file is untrusted: every length and count is checked against the bytes
 * that hold it before it is used, and a refusal names the byte position.
 */
#include "parquet/reader.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "base/error_set.h"

enum { PQ_PLAIN = 0, PQ_PLAIN_DICTIONARY = 2, PQ_RLE = 3, PQ_DELTA_BINARY_PACKED = 5, PQ_RLE_DICTIONARY = 8 };
enum { PQ_CODEC_NONE = 0, PQ_CODEC_ZSTD = 6 };
enum { PQ_PAGE_DATA = 0, PQ_PAGE_DICTIONARY = 2 };
enum { PQ_OPTIONAL = 1 };

/* A row group holds at most this many rows, a page at most this many bytes decompressed:
 * far above what the writer writes (SS_EXPORT_ROWS_PER_GROUP rows, 64 MiB of values), and a
 * bound on what a crafted file can make us allocate. */
#define PQR_MAX_ROWS ((int64_t)1 << 24)
#define PQR_MAX_PAGE ((size_t)1 << 30)

/* 4 bytes little-endian at p: the footer's length, a v1 page's levels' length, a PLAIN
 * BYTE_ARRAY's length. */
static inline uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- Thrift compact protocol --------------------------------------------------------- */

void ss_tr_init(ss_tr *t, const uint8_t *file, size_t from, size_t to) {
    memset(t, 0, sizeof *t);
    t->base = file;
    t->p = file + from;
    t->end = file + to;
}

uint64_t ss_tr_pos(const ss_tr *t) { return t->bad ? t->bad_at : (uint64_t)(t->p - t->base); }

static void tr_fail(ss_tr *t, const char *why) {
    if (t->bad) return;
    t->bad = true;
    t->bad_at = (uint64_t)(t->p - t->base);
    t->why = why;
    t->p = t->end;
}

static uint64_t tr_uvarint(ss_tr *t) {
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 70; shift += 7) {
        if (t->p >= t->end) {
            tr_fail(t, "a varint runs past the end of the metadata");
            return 0;
        }
        uint8_t b = *t->p++;
        if (shift == 63 && b > 1) break;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) return v;
    }
    tr_fail(t, "a varint longer than 64 bits");
    return 0;
}

static int64_t tr_zigzag(ss_tr *t) {
    uint64_t u = tr_uvarint(t);
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

bool ss_tr_field(ss_tr *t, int16_t *last, int16_t *id, uint8_t *type) {
    if (t->p >= t->end) {
        tr_fail(t, "a struct runs past the end of the metadata");
        return false;
    }
    uint8_t b = *t->p++;
    if (b == SS_TC_STOP) return false;
    *type = b & 0x0f;
    unsigned delta = b >> 4;
    if (*type > SS_TC_STRUCT) {
        t->p--;
        tr_fail(t, "a field of an unknown Thrift type");
        return false;
    }
    if (delta) {
        *id = (int16_t)(*last + (int16_t)delta);
    } else { /* the long form: the id as a zigzag varint */
        int64_t v = tr_zigzag(t);
        if (v < INT16_MIN || v > INT16_MAX) tr_fail(t, "a field id out of range");
        *id = (int16_t)v;
    }
    *last = *id;
    return !t->bad;
}

int64_t ss_tr_int(ss_tr *t, uint8_t type) {
    switch (type) {
    case SS_TC_TRUE: return 1;
    case SS_TC_FALSE: return 0;
    case SS_TC_BYTE:
        if (t->p >= t->end) {
            tr_fail(t, "a byte runs past the end of the metadata");
            return 0;
        }
        return (int8_t)*t->p++;
    case SS_TC_I16:
    case SS_TC_I32:
    case SS_TC_I64: {
        int64_t v = tr_zigzag(t);
        if ((type == SS_TC_I16 && (v < INT16_MIN || v > INT16_MAX)) ||
            (type == SS_TC_I32 && (v < INT32_MIN || v > INT32_MAX)))
            tr_fail(t, "an integer out of its type's range");
        return v;
    }
    default:
        ss_tr_skip(t, type);
        tr_fail(t, "a field of an unexpected type");
        return 0;
    }
}

const uint8_t *ss_tr_binary(ss_tr *t, size_t *n) {
    uint64_t len = tr_uvarint(t);
    if (t->bad || len > (uint64_t)(t->end - t->p)) {
        tr_fail(t, "a string runs past the end of the metadata");
        *n = 0;
        return NULL;
    }
    const uint8_t *p = t->p;
    t->p += len;
    *n = (size_t)len;
    return p;
}

bool ss_tr_list(ss_tr *t, uint8_t *etype, size_t *n) {
    if (t->p >= t->end) {
        tr_fail(t, "a list runs past the end of the metadata");
        return false;
    }
    uint8_t h = *t->p++;
    *etype = h & 0x0f;
    uint64_t size = h >> 4;
    if (size == 15) size = tr_uvarint(t);
    /* every element takes a byte at least */
    if (t->bad || size > (uint64_t)(t->end - t->p)) {
        tr_fail(t, "a list longer than the bytes that would hold it");
        return false;
    }
    *n = (size_t)size;
    return true;
}

static void tr_skip_elem(ss_tr *t, uint8_t type) {
    /* a bool element of a list or map is a byte (the compact protocol) */
    if (type == SS_TC_TRUE || type == SS_TC_FALSE) {
        if (t->p >= t->end) tr_fail(t, "a list runs past the end of the metadata");
        else t->p++;
        return;
    }
    ss_tr_skip(t, type);
}

void ss_tr_skip(ss_tr *t, uint8_t type) {
    if (++t->depth > SS_TR_DEPTH) {
        tr_fail(t, "structs nested deeper than Parquet's");
        return;
    }
    switch (type) {
    case SS_TC_TRUE:
    case SS_TC_FALSE: break;
    case SS_TC_BYTE:
    case SS_TC_I16:
    case SS_TC_I32:
    case SS_TC_I64: (void)ss_tr_int(t, type); break;
    case SS_TC_DOUBLE:
        if ((size_t)(t->end - t->p) < 8) tr_fail(t, "a double runs past the end of the metadata");
        else t->p += 8;
        break;
    case SS_TC_BINARY: {
        size_t n = 0;
        (void)ss_tr_binary(t, &n);
        break;
    }
    case SS_TC_LIST:
    case SS_TC_SET: {
        uint8_t et = 0;
        size_t n = 0;
        if (ss_tr_list(t, &et, &n))
            for (size_t i = 0; i < n && !t->bad; i++) tr_skip_elem(t, et);
        break;
    }
    case SS_TC_MAP: {
        uint64_t n = tr_uvarint(t);
        if (n > (uint64_t)(t->end - t->p)) {
            tr_fail(t, "a map longer than the bytes that would hold it");
            break;
        }
        if (!n) break;
        if (t->p >= t->end) {
            tr_fail(t, "a map runs past the end of the metadata");
            break;
        }
        uint8_t kv = *t->p++;
        for (uint64_t i = 0; i < n && !t->bad; i++) {
            tr_skip_elem(t, kv >> 4);
            tr_skip_elem(t, kv & 0x0f);
        }
        break;
    }
    case SS_TC_STRUCT: {
        int16_t last = 0, id;
        uint8_t ft;
        while (ss_tr_field(t, &last, &id, &ft)) ss_tr_skip(t, ft);
        break;
    }
    default: tr_fail(t, "a value of an unknown Thrift type"); break;
    }
    t->depth--;
}

/* ---- the footer ------------------------------------------------------------------------- */

static char *dup_n(const uint8_t *p, size_t n) {
    char *s = malloc(n + 1);
    if (!s) return NULL;
    if (n) memcpy(s, p, n);
    s[n] = 0;
    return s;
}

static bool is_int(uint8_t type) { return type == SS_TC_I16 || type == SS_TC_I32 || type == SS_TC_I64; }

/* What a SchemaElement says (parquet.thrift). */
typedef struct schema_el {
    int64_t type, type_length, repetition, num_children;
    const uint8_t *name;
    size_t name_n;
    bool has_type;
} schema_el;

static void read_schema_el(ss_tr *t, schema_el *e) {
    memset(e, 0, sizeof *e);
    e->type = e->type_length = e->repetition = -1;
    int16_t last = 0, id;
    uint8_t ft;
    while (ss_tr_field(t, &last, &id, &ft)) {
        if (id == 1 && is_int(ft)) {
            e->type = ss_tr_int(t, ft);
            e->has_type = true;
        } else if (id == 2 && is_int(ft)) e->type_length = ss_tr_int(t, ft);
        else if (id == 3 && is_int(ft)) e->repetition = ss_tr_int(t, ft);
        else if (id == 4 && ft == SS_TC_BINARY) e->name = ss_tr_binary(t, &e->name_n);
        else if (id == 5 && is_int(ft)) e->num_children = ss_tr_int(t, ft);
        else ss_tr_skip(t, ft);
    }
}

/* The reason the schema is not the one expected, or NULL. */
static const char *check_schema(ss_tr *t, const ss_pq_reader *r, size_t *bad_col) {
    uint8_t et = 0;
    size_t n = 0;
    *bad_col = SIZE_MAX;
    if (!ss_tr_list(t, &et, &n)) return NULL;
    if (et != SS_TC_STRUCT) return "the schema is not a list of structs";
    if (n != r->ncols + 1) {
        for (size_t i = 0; i < n && !t->bad; i++) ss_tr_skip(t, SS_TC_STRUCT);
        return "its columns are not a segscan export's (another number of columns)";
    }
    const char *why = NULL;
    for (size_t i = 0; i < n && !t->bad; i++) {
        schema_el e;
        read_schema_el(t, &e);
        if (t->bad || why) continue;
        if (i == 0) {
            if (e.has_type || e.num_children != (int64_t)r->ncols) why = "its schema's root is not a segscan export's";
            continue;
        }
        const ss_pq_column *c = &r->cols[i - 1];
        bool same = e.has_type && e.type == (int64_t)c->type && e.repetition == PQ_OPTIONAL && e.num_children <= 0 &&
                    e.name_n == strlen(c->name) && !memcmp(e.name, c->name, e.name_n) &&
                    (c->type != SS_PQ_FIXED16 || e.type_length == 16);
        if (!same) {
            *bad_col = i - 1;
            why = "its columns are not a segscan export's";
        }
    }
    return why;
}

static bool read_column_meta(ss_tr *t, ss_pqr_chunk *ch, const ss_pq_column *c, const char **why) {
    int16_t last = 0, id;
    uint8_t ft;
    int64_t data_off = -1, dict_off = -1, type = -1;
    ch->size = ch->nvalues = -1;
    ch->codec = -1;
    while (ss_tr_field(t, &last, &id, &ft)) {
        if (id == 1 && is_int(ft)) type = ss_tr_int(t, ft);
        else if (id == 3 && ft == SS_TC_LIST) {
            /* path_in_schema: the column's name, the schema being flat */
            uint8_t et = 0;
            size_t n = 0;
            bool ok = ss_tr_list(t, &et, &n) && et == SS_TC_BINARY && n == 1;
            for (size_t i = 0; i < n && !t->bad; i++) {
                size_t ln;
                const uint8_t *s = ss_tr_binary(t, &ln);
                if (ok && (ln != strlen(c->name) || memcmp(s, c->name, ln))) ok = false;
            }
            if (!ok && !t->bad) *why = "a column chunk's path is not its column's";
        } else if (id == 4 && is_int(ft)) ch->codec = (int32_t)ss_tr_int(t, ft);
        else if (id == 5 && is_int(ft)) ch->nvalues = ss_tr_int(t, ft);
        else if (id == 7 && is_int(ft)) ch->size = ss_tr_int(t, ft);
        else if (id == 9 && is_int(ft)) data_off = ss_tr_int(t, ft);
        else if (id == 11 && is_int(ft)) dict_off = ss_tr_int(t, ft);
        else ss_tr_skip(t, ft);
    }
    if (t->bad || *why) return false;
    if (type != (int64_t)c->type) *why = "a column chunk's type is not its column's";
    else if (ch->codec != PQ_CODEC_ZSTD && ch->codec != PQ_CODEC_NONE) *why = "a column chunk's codec is not zstd";
    else if (data_off < 4 || ch->size < 0 || ch->nvalues < 0) *why = "a column chunk lacks a required field";
    else if (dict_off >= 0 && (c->type != SS_PQ_BYTE_ARRAY || !c->dict))
        *why = "a dictionary page in a column segscan writes none for";
    else if (dict_off >= 0 && (dict_off < 4 || dict_off >= data_off))
        *why = "a column chunk's dictionary page is not before its data page";
    ch->dict = dict_off >= 0 ? dict_off : -1;
    ch->start = dict_off >= 0 ? dict_off : data_off;
    return !*why;
}

static bool read_row_group(ss_tr *t, ss_pq_reader *r, size_t g, const char **why) {
    int16_t last = 0, id;
    uint8_t ft;
    int64_t rows = -1;
    bool have_cols = false;
    while (ss_tr_field(t, &last, &id, &ft)) {
        if (id == 1 && ft == SS_TC_LIST) {
            uint8_t et = 0;
            size_t n = 0;
            if (!ss_tr_list(t, &et, &n)) return false;
            if (et != SS_TC_STRUCT || n != r->ncols) {
                *why = "a row group's columns are not the schema's";
                return false;
            }
            for (size_t i = 0; i < n && !t->bad; i++) {
                ss_pqr_chunk *ch = &r->chunks[g * r->ncols + i];
                int16_t l2 = 0, id2;
                uint8_t ft2;
                bool have_meta = false;
                while (ss_tr_field(t, &l2, &id2, &ft2)) {
                    if (id2 == 1 && ft2 == SS_TC_BINARY) {
                        ss_tr_skip(t, ft2);
                        *why = "a column chunk in another file (file_path)";
                    } else if (id2 == 3 && ft2 == SS_TC_STRUCT) {
                        if (!read_column_meta(t, ch, &r->cols[i], why)) return false;
                        have_meta = true;
                    } else ss_tr_skip(t, ft2);
                }
                if (!have_meta && !t->bad && !*why) *why = "a column chunk without its metadata";
                if (*why) return false;
            }
            have_cols = true;
        } else if (id == 3 && is_int(ft)) rows = ss_tr_int(t, ft);
        else ss_tr_skip(t, ft);
    }
    if (t->bad) return false;
    if (!have_cols || rows < 0) *why = "a row group lacks a required field";
    else if (rows > PQR_MAX_ROWS) *why = "a row group of more rows than segscan writes";
    r->group_rows[g] = rows;
    return !*why;
}

static ss_errkind refuse(ss_error *err, ss_errkind k, uint64_t pos, const char *why) {
    return ss_error_set(err, k, pos, -1, "byte %" PRIu64 ": %s", pos, why);
}

ss_errkind ss_pqr_open(ss_pq_reader *r, const uint8_t *file, size_t len, const ss_pq_column *cols, size_t ncols,
                       ss_error *err) {
    memset(r, 0, sizeof *r);
    r->file = file;
    r->len = len;
    r->cols = cols;
    r->ncols = ncols;
    if (len < 4 || memcmp(file, "PAR1", 4))
        return refuse(err, SS_E_BAD_EXPORT, 0, "not a Parquet file (no \"PAR1\" at its start)");
    if (len < 12 || memcmp(file + len - 4, "PAR1", 4))
        return refuse(err, SS_E_BAD_EXPORT, len < 4 ? 0 : len - 4,
                      "no \"PAR1\" at the end of the Parquet file (cut short?)");
    uint32_t flen = le32(file + len - 8);
    if (flen > len - 12)
        return refuse(err, SS_E_BAD_EXPORT, len - 8, "the footer's length runs before the start of the file");
    size_t fstart = len - 8 - flen;
    /* the footer is read twice: once to count the row groups and find created_by, once to fill */
    ss_tr t;
    ss_tr_init(&t, file, fstart, len - 8);
    int16_t last = 0, id;
    uint8_t ft;
    const char *why = NULL;
    size_t bad_col = SIZE_MAX;
    bool have_schema = false, have_rows = false, have_groups = false, have_version = false;
    size_t ngroups = 0;
    const uint8_t *rg_at = NULL;
    /* read to the end even once the schema is known not to be ours: created_by says whose it is */
    while (ss_tr_field(&t, &last, &id, &ft)) {
        if (id == 1 && is_int(ft)) {
            (void)ss_tr_int(&t, ft);
            have_version = true;
        } else if (id == 2 && ft == SS_TC_LIST) {
            const char *w = check_schema(&t, r, &bad_col);
            if (!why) why = w;
            have_schema = true;
        } else if (id == 3 && is_int(ft)) {
            r->num_rows = ss_tr_int(&t, ft);
            have_rows = true;
        } else if (id == 4 && ft == SS_TC_LIST && !rg_at) {
            rg_at = t.p;
            uint8_t et = 0;
            if (ss_tr_list(&t, &et, &ngroups) && et != SS_TC_STRUCT && !why) why = "the row groups are not structs";
            for (size_t i = 0; i < ngroups && !t.bad; i++) tr_skip_elem(&t, et);
            have_groups = true;
        } else if (id == 5 && ft == SS_TC_LIST) {
            uint8_t et = 0;
            size_t n = 0;
            bool structs = ss_tr_list(&t, &et, &n) && et == SS_TC_STRUCT;
            if (!structs && !t.bad && !why) why = "the key-value metadata are not structs";
            for (size_t i = 0; i < n && !structs && !t.bad; i++) tr_skip_elem(&t, et);
            if (!structs || r->kv) continue; /* a second list: the first is kept */
            r->kv = n ? calloc(n, sizeof *r->kv) : NULL;
            if (n && !r->kv) return ss_error_set(err, SS_E_NOMEM, fstart, -1, "out of memory");
            for (size_t i = 0; i < n && !t.bad; i++) {
                int16_t l2 = 0, id2;
                uint8_t ft2;
                const uint8_t *k = NULL, *v = NULL;
                size_t kn = 0, vn = 0;
                while (ss_tr_field(&t, &l2, &id2, &ft2)) {
                    if (id2 == 1 && ft2 == SS_TC_BINARY) k = ss_tr_binary(&t, &kn);
                    else if (id2 == 2 && ft2 == SS_TC_BINARY) v = ss_tr_binary(&t, &vn);
                    else ss_tr_skip(&t, ft2);
                }
                if (t.bad || !k) continue;
                r->kv[r->nkv].key = dup_n(k, kn);
                r->kv[r->nkv].value = v ? dup_n(v, vn) : NULL;
                if (!r->kv[r->nkv].key || (v && !r->kv[r->nkv].value)) {
                    free(r->kv[r->nkv].key);
                    free(r->kv[r->nkv].value);
                    return ss_error_set(err, SS_E_NOMEM, fstart, -1, "out of memory");
                }
                r->nkv++;
            }
        } else if (id == 6 && ft == SS_TC_BINARY) {
            size_t n = 0;
            const uint8_t *s = ss_tr_binary(&t, &n);
            if (s && !r->created_by && !(r->created_by = dup_n(s, n)))
                return ss_error_set(err, SS_E_NOMEM, fstart, -1, "out of memory");
        } else {
            ss_tr_skip(&t, ft);
        }
    }
    if (t.bad) return refuse(err, SS_E_BAD_EXPORT, t.bad_at, t.why);
    /* another writer's file first: its schema is not ours either way */
    if (!r->created_by || strncmp(r->created_by, "segscan", 7) != 0) {
        char msg[200];
        snprintf(msg, sizeof msg, "a Parquet file written by %.80s%s%s, not by segscan export",
                 r->created_by ? "\"" : "an unnamed writer", r->created_by ? r->created_by : "",
                 r->created_by ? "\"" : "");
        return refuse(err, SS_E_USAGE, fstart, msg);
    }
    if (why) {
        char msg[300];
        if (bad_col < ncols)
            snprintf(msg, sizeof msg, "%s (column %zu is not %s as segscan writes it)", why, bad_col + 1,
                     cols[bad_col].name);
        else snprintf(msg, sizeof msg, "%s", why);
        return refuse(err, SS_E_USAGE, fstart, msg);
    }
    if (!have_version || !have_schema || !have_rows || !have_groups)
        return refuse(err, SS_E_BAD_EXPORT, fstart, "the footer lacks a required field of FileMetaData");
    if (ngroups) {
        r->group_rows = calloc(ngroups, sizeof *r->group_rows);
        r->chunks = calloc(ngroups * ncols, sizeof *r->chunks);
        if (!r->group_rows || !r->chunks) return ss_error_set(err, SS_E_NOMEM, fstart, -1, "out of memory");
    }
    r->ngroups = ngroups;
    ss_tr_init(&t, file, (size_t)(rg_at - file), len - 8);
    uint8_t et = 0;
    size_t n = 0;
    (void)ss_tr_list(&t, &et, &n);
    int64_t total = 0;
    for (size_t g = 0; g < ngroups && !why; g++) {
        if (!read_row_group(&t, r, g, &why)) break;
        total += r->group_rows[g];
        for (size_t i = 0; i < ncols && !why; i++) {
            const ss_pqr_chunk *ch = &r->chunks[g * ncols + i];
            if (ch->start > (int64_t)fstart || ch->size > (int64_t)fstart - ch->start)
                why = "a column chunk runs past the start of the footer";
            else if (ch->nvalues != r->group_rows[g]) why = "a column chunk's value count is not its row group's";
        }
    }
    if (t.bad) return refuse(err, SS_E_BAD_EXPORT, t.bad_at, t.why);
    if (why) return refuse(err, SS_E_BAD_EXPORT, ss_tr_pos(&t), why);
    if (total != r->num_rows) return refuse(err, SS_E_BAD_EXPORT, fstart, "the row groups' rows are not num_rows");
    r->col = calloc(ncols, sizeof *r->col);
    r->zd = ZSTD_createDCtx();
    if (!r->col || !r->zd) return ss_error_set(err, SS_E_NOMEM, fstart, -1, "out of memory");
    return SS_E_OK;
}

void ss_pqr_close(ss_pq_reader *r) {
    for (size_t i = 0; i < r->nkv; i++) {
        free(r->kv[i].key);
        free(r->kv[i].value);
    }
    free(r->kv);
    free(r->created_by);
    free(r->group_rows);
    free(r->chunks);
    if (r->col)
        for (size_t i = 0; i < r->ncols; i++) {
            ss_pqr_col *c = &r->col[i];
            free(c->defs);
            free(c->iv);
            free(c->off);
            free(c->len);
            free(c->data);
        }
    free(r->col);
    free(r->dict.off);
    free(r->dict.len);
    ss_pqbuf_free(&r->page);
    ZSTD_freeDCtx(r->zd);
    memset(r, 0, sizeof *r);
}

const char *ss_pqr_meta(const ss_pq_reader *r, const char *key) {
    for (size_t i = 0; i < r->nkv; i++)
        if (!strcmp(r->kv[i].key, key)) return r->kv[i].value;
    return NULL;
}

/* ---- pages ------------------------------------------------------------------------------- */

typedef struct bytes_in {
    const uint8_t *p, *end;
} bytes_in;

static bool in_uvarint(bytes_in *b, uint64_t *v) {
    *v = 0;
    for (unsigned shift = 0; shift < 64 && b->p < b->end; shift += 7) {
        uint8_t c = *b->p++;
        *v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) return true;
    }
    return false;
}

static bool in_zigzag(bytes_in *b, int64_t *v) {
    uint64_t u;
    if (!in_uvarint(b, &u)) return false;
    *v = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
    return true;
}

/* `width` bits at bit `bit` of p (the caller checked the bytes), least significant first. */
static uint64_t unpack(const uint8_t *p, uint64_t bit, unsigned width) {
    uint64_t v = 0;
    for (unsigned got = 0; got < width;) {
        unsigned shift = (unsigned)(bit & 7), take = 8 - shift < width - got ? 8 - shift : width - got;
        v |= (uint64_t)(((unsigned)p[bit >> 3] >> shift) & ((1u << take) - 1)) << got;
        got += take;
        bit += take;
    }
    return v;
}

/* Encodings.md, the hybrid with bit width 1 (definition levels 0 and 1): n levels into out;
 * the number of 1s in *ones. NULL, or the reason. */
static const char *levels_decode(bytes_in *b, uint8_t *out, size_t n, size_t *ones) {
    size_t i = 0;
    *ones = 0;
    while (i < n) {
        uint64_t h;
        if (!in_uvarint(b, &h)) return "definition levels cut short";
        if (h & 1) { /* bit-packed: (h >> 1) groups of 8 values, a byte each at width 1 */
            uint64_t groups = h >> 1;
            if (groups > (uint64_t)(b->end - b->p)) return "definition levels cut short";
            for (uint64_t k = 0; k < groups * 8 && i < n; k++) {
                uint8_t v = (uint8_t)((b->p[k >> 3] >> (k & 7)) & 1);
                out[i++] = v;
                *ones += v;
            }
            b->p += groups;
        } else { /* a run: the count, then the value in one byte (bit width 1 rounded up) */
            uint64_t run = h >> 1;
            if (b->p >= b->end) return "definition levels cut short";
            uint8_t v = *b->p++;
            if (v > 1) return "a definition level above 1";
            if (run > n - i) return "more definition levels than values";
            memset(out + i, v, (size_t)run);
            i += (size_t)run;
            if (v) *ones += (size_t)run;
        }
    }
    return NULL;
}

/* Encodings.md "Delta Encoding (DELTA_BINARY_PACKED = 5)": nv values into vals (wrapping in
 * 32 bits when !wide). NULL, or the reason. */
static const char *delta_decode(bytes_in *b, int64_t *vals, size_t nv, bool wide) {
    uint64_t block, minis, count;
    int64_t first;
    if (!in_uvarint(b, &block) || !in_uvarint(b, &minis) || !in_uvarint(b, &count) || !in_zigzag(b, &first))
        return "a DELTA_BINARY_PACKED header cut short";
    if (!block || block % 128 || !minis || block % minis || (block / minis) % 32 || block > 1u << 16)
        return "a DELTA_BINARY_PACKED block size the encoding does not allow";
    if (count != nv) return "a DELTA_BINARY_PACKED value count that is not the page's";
    if (!nv) return NULL;
    uint64_t per_mini = block / minis;
    uint64_t prev = (uint64_t)first;
    vals[0] = wide ? first : (int32_t)(uint32_t)prev;
    size_t i = 1;
    while (i < nv) {
        int64_t min;
        if (!in_zigzag(b, &min)) return "a DELTA_BINARY_PACKED block cut short";
        if ((uint64_t)(b->end - b->p) < minis) return "a DELTA_BINARY_PACKED block cut short";
        const uint8_t *widths = b->p;
        b->p += minis;
        for (uint64_t m = 0; m < minis && i < nv; m++) {
            unsigned w = widths[m];
            if (w > (wide ? 64u : 32u)) return "a DELTA_BINARY_PACKED bit width above the type's";
            uint64_t bytes = per_mini * w / 8;
            if (bytes > (uint64_t)(b->end - b->p)) return "a DELTA_BINARY_PACKED miniblock cut short";
            for (uint64_t j = 0; j < per_mini && i < nv; j++) {
                uint64_t d = (uint64_t)min + (w ? unpack(b->p, j * w, w) : 0);
                prev += d;
                vals[i++] = wide ? (int64_t)prev : (int32_t)(uint32_t)prev;
            }
            b->p += bytes;
        }
    }
    return NULL;
}

static bool col_fit(ss_pqr_col *c, size_t rows) {
    if (c->cap >= rows) return true;
    size_t cap = rows;
    uint8_t *d = realloc(c->defs, cap);
    if (d) c->defs = d;
    int64_t *iv = d ? realloc(c->iv, cap * sizeof *iv) : NULL;
    if (iv) c->iv = iv;
    uint32_t *off = iv ? realloc(c->off, cap * sizeof *off) : NULL;
    if (off) c->off = off;
    uint32_t *len = off ? realloc(c->len, cap * sizeof *len) : NULL;
    if (len) c->len = len;
    if (!len) return false;
    c->cap = cap;
    return true;
}

/* n bytes appended to the column's data (n may be 0: the buffer made, see read_chunk). */
static bool data_put(ss_pqr_col *c, const uint8_t *p, size_t n) {
    if (n > UINT32_MAX - c->data_n) return false;
    if (c->data_cap - c->data_n < n || !c->data) {
        size_t cap = c->data_cap ? c->data_cap : 4096;
        while (cap - c->data_n < n) cap *= 2;
        uint8_t *d = realloc(c->data, cap);
        if (!d) return false;
        c->data = d;
        c->data_cap = cap;
    }
    if (n) memcpy(c->data + c->data_n, p, n);
    c->data_n += n;
    return true;
}

/* n values of bw bits (32 at most) in the RLE/bit-packed hybrid (Encodings.md) into out. */
static const char *hybrid_decode(bytes_in *b, unsigned bw, int64_t *out, size_t n) {
    if (bw > 32) return "dictionary indices of more than 32 bits";
    size_t i = 0, vb = (bw + 7) / 8;
    uint64_t mask = bw == 32 ? UINT32_MAX : ((uint64_t)1 << bw) - 1;
    while (i < n) {
        uint64_t h;
        if (!in_uvarint(b, &h)) return "dictionary indices cut short";
        if (h & 1) { /* bit-packed: (h >> 1) groups of 8 values, bw bytes each */
            uint64_t groups = h >> 1, left = (uint64_t)(b->end - b->p);
            if (bw && groups > left / bw) return "dictionary indices cut short";
            uint64_t bytes = groups * bw;
            for (uint64_t k = 0; k < groups * 8 && i < n; k++) {
                uint64_t bit = k * bw, x = 0;
                for (uint64_t q = 0; q < 5 && (bit >> 3) + q < bytes; q++)
                    x |= (uint64_t)b->p[(bit >> 3) + q] << (8 * q);
                out[i++] = (int64_t)((x >> (bit & 7)) & mask);
            }
            b->p += bytes;
        } else { /* a run: the count, then the value in bw bits rounded up to bytes, little-endian */
            uint64_t run = h >> 1, v = 0;
            if (vb > (size_t)(b->end - b->p)) return "dictionary indices cut short";
            for (size_t q = 0; q < vb; q++) v |= (uint64_t)b->p[q] << (8 * q);
            b->p += vb;
            if (run > n - i) return "more dictionary indices than values";
            for (uint64_t k = 0; k < run; k++) out[i++] = (int64_t)(v & mask);
        }
    }
    return NULL;
}

const char *ss_pqr_hybrid(const uint8_t **p, const uint8_t *end, unsigned bw, int64_t *out, size_t n) {
    bytes_in b = {*p, end};
    const char *why = hybrid_decode(&b, bw, out, n);
    *p = b.p;
    return why;
}

/* The indices of a page's nv values into the chunk's dictionary d (a byte of bit width, then
 * the hybrid), made the rows' values. */
static const char *dict_values(ss_pqr_col *c, const ss_pqr_dict *d, bytes_in *b, size_t at, size_t rows, size_t nv,
                               int64_t *tmp, uint64_t *expanded) {
    for (size_t r = at; r < at + rows; r++) c->off[r] = c->len[r] = 0;
    if (!nv) return NULL; /* nulls only: the bit width may be left out */
    if (!d->n) return "dictionary indices without a dictionary page";
    if (b->p >= b->end) return "dictionary indices without their bit width";
    const char *why = hybrid_decode(b, *b->p++, tmp, nv);
    if (why) return why;
    size_t v = 0;
    for (size_t r = at; r < at + rows; r++) {
        if (!c->defs[r]) continue;
        if ((uint64_t)tmp[v] >= d->n) return "a dictionary index past its dictionary's values";
        c->off[r] = d->off[tmp[v]];
        c->len[r] = d->len[tmp[v]];
        /* the values a chunk's rows stand for are bounded as its PLAIN pages' bytes are (4 GiB,
         * data_put): one entry repeated on every row must not make a small file read as more */
        *expanded += c->len[r];
        if (*expanded > UINT32_MAX) return "a column chunk's values take more than 4 GiB";
        v++;
    }
    return NULL;
}

/* The non-null values of a page (nv of them, for the rows whose level is 1 from row `at`); of a
 * dictionary's indices, the bytes they stand for added to *expanded. */
static const char *values_decode(ss_pqr_col *c, enum ss_pq_type type, int32_t enc, bytes_in *b, size_t at, size_t rows,
                                 size_t nv, int64_t *tmp, const ss_pqr_dict *d, uint64_t *expanded, bool *nomem) {
    size_t v = 0;
    if (type == SS_PQ_INT32 || type == SS_PQ_INT64) {
        bool wide = type == SS_PQ_INT64;
        if (enc == PQ_DELTA_BINARY_PACKED) {
            const char *why = delta_decode(b, tmp, nv, wide);
            if (why) return why;
        } else if (enc == PQ_PLAIN) {
            size_t w = wide ? 8 : 4;
            if (nv > (size_t)(b->end - b->p) / w) return "PLAIN values cut short";
            for (size_t i = 0; i < nv; i++, b->p += w) {
                uint64_t x = 0;
                for (size_t k = 0; k < w; k++) x |= (uint64_t)b->p[k] << (8 * k);
                tmp[i] = wide ? (int64_t)x : (int32_t)(uint32_t)x;
            }
        } else return "an integer encoding segscan does not write";
        for (size_t r = at; r < at + rows; r++) c->iv[r] = c->defs[r] ? tmp[v++] : 0;
        return NULL;
    }
    if (type == SS_PQ_BYTE_ARRAY && (enc == PQ_RLE_DICTIONARY || enc == PQ_PLAIN_DICTIONARY))
        return dict_values(c, d, b, at, rows, nv, tmp, expanded);
    if (enc != PQ_PLAIN) return "a value encoding segscan does not write";
    if (type == SS_PQ_BOOLEAN) {
        if ((nv + 7) / 8 > (size_t)(b->end - b->p)) return "PLAIN booleans cut short";
        for (size_t r = at; r < at + rows; r++) {
            c->iv[r] = c->defs[r] ? (b->p[v >> 3] >> (v & 7)) & 1 : 0;
            if (c->defs[r]) v++;
        }
        b->p += (nv + 7) / 8;
        return NULL;
    }
    for (size_t r = at; r < at + rows; r++) {
        c->off[r] = c->len[r] = 0;
        if (!c->defs[r]) continue;
        size_t n = 16;
        if (type == SS_PQ_BYTE_ARRAY) {
            if (b->end - b->p < 4) return "a PLAIN BYTE_ARRAY length cut short";
            n = le32(b->p);
            b->p += 4;
        }
        if (n > (size_t)(b->end - b->p)) return "a PLAIN value runs past its page";
        c->off[r] = (uint32_t)c->data_n;
        c->len[r] = (uint32_t)n;
        if (!data_put(c, b->p, n)) {
            *nomem = true;
            return "out of memory";
        }
        b->p += n;
    }
    return NULL;
}

/* A page header (parquet.thrift PageHeader with its DataPageHeader). */
typedef struct page_hdr {
    int64_t type, usize, csize, nvalues, enc, def_enc;
    bool has_data;
    bool has_dict; /* a DictionaryPageHeader: its num_values and encoding */
    int64_t dict_n, dict_enc;
} page_hdr;

static void read_page_hdr(ss_tr *t, page_hdr *h) {
    memset(h, 0, sizeof *h);
    h->type = h->usize = h->csize = h->nvalues = h->enc = h->def_enc = -1;
    h->dict_n = h->dict_enc = -1;
    int16_t last = 0, id;
    uint8_t ft;
    while (ss_tr_field(t, &last, &id, &ft)) {
        if (id == 1 && is_int(ft)) h->type = ss_tr_int(t, ft);
        else if (id == 2 && is_int(ft)) h->usize = ss_tr_int(t, ft);
        else if (id == 3 && is_int(ft)) h->csize = ss_tr_int(t, ft);
        else if (id == 5 && ft == SS_TC_STRUCT) {
            int16_t l2 = 0, id2;
            uint8_t ft2;
            h->has_data = true;
            while (ss_tr_field(t, &l2, &id2, &ft2)) {
                if (id2 == 1 && is_int(ft2)) h->nvalues = ss_tr_int(t, ft2);
                else if (id2 == 2 && is_int(ft2)) h->enc = ss_tr_int(t, ft2);
                else if (id2 == 3 && is_int(ft2)) h->def_enc = ss_tr_int(t, ft2);
                else ss_tr_skip(t, ft2);
            }
        } else if (id == 7 && ft == SS_TC_STRUCT) {
            int16_t l2 = 0, id2;
            uint8_t ft2;
            h->has_dict = true;
            while (ss_tr_field(t, &l2, &id2, &ft2)) {
                if (id2 == 1 && is_int(ft2)) h->dict_n = ss_tr_int(t, ft2);
                else if (id2 == 2 && is_int(ft2)) h->dict_enc = ss_tr_int(t, ft2);
                else ss_tr_skip(t, ft2);
            }
        } else ss_tr_skip(t, ft);
    }
}

/* A dictionary page's n PLAIN values (BYTE_ARRAY: a 4-byte length, the bytes) into the column's
 * data, and each one's place into d. */
static const char *dict_read(ss_pqr_col *c, ss_pqr_dict *d, bytes_in *b, int64_t n, bool *nomem) {
    d->n = 0;
    if (n < 0 || (uint64_t)n > (uint64_t)(b->end - b->p) / 4) return "a dictionary of more values than its page holds";
    if ((size_t)n > d->cap) {
        uint32_t *off = realloc(d->off, (size_t)n * sizeof *off);
        if (off) d->off = off;
        uint32_t *len = off ? realloc(d->len, (size_t)n * sizeof *len) : NULL;
        if (len) d->len = len;
        if (!len) {
            *nomem = true;
            return "out of memory";
        }
        d->cap = (size_t)n;
    }
    for (int64_t i = 0; i < n; i++) {
        if (b->end - b->p < 4) return "a dictionary value's length cut short";
        size_t len = le32(b->p);
        b->p += 4;
        if (len > (size_t)(b->end - b->p)) return "a dictionary value runs past its page";
        d->off[i] = (uint32_t)c->data_n;
        d->len[i] = (uint32_t)len;
        if (!data_put(c, b->p, len)) {
            *nomem = true;
            return "out of memory";
        }
        b->p += len;
        d->n = (size_t)i + 1;
    }
    return NULL;
}

static ss_errkind read_chunk(ss_pq_reader *r, size_t ci, const ss_pqr_chunk *ch, int64_t *tmp, ss_error *err) {
    ss_pqr_col *c = &r->col[ci];
    enum ss_pq_type type = r->cols[ci].type;
    size_t pos = (size_t)ch->start, end = (size_t)(ch->start + ch->size), row = 0;
    c->data_n = 0;
    r->dict.n = 0;
    /* the data buffer exists whatever the values (all null, all empty): a row's bytes are
     * data + off (ss_pqr_bytes), never an offset from a null pointer */
    if ((type == SS_PQ_BYTE_ARRAY || type == SS_PQ_FIXED16) && !data_put(c, NULL, 0))
        return ss_error_set(err, SS_E_NOMEM, pos, -1, "out of memory");
    bool dict_read_yet = false;
    uint64_t expanded = 0;
    while (row < r->rows) {
        if (pos >= end) return refuse(err, SS_E_BAD_EXPORT, pos, "a column chunk ends before its values");
        ss_tr t;
        ss_tr_init(&t, r->file, pos, end);
        page_hdr h;
        read_page_hdr(&t, &h);
        if (t.bad) return refuse(err, SS_E_BAD_EXPORT, t.bad_at, t.why);
        bool dict = h.type == PQ_PAGE_DICTIONARY && h.has_dict;
        if (dict && (ch->dict < 0 || dict_read_yet))
            return refuse(err, SS_E_BAD_EXPORT, pos, "a dictionary page where its column chunk has none");
        if (!dict && ch->dict >= 0 && !dict_read_yet)
            return refuse(err, SS_E_BAD_EXPORT, pos, "a column chunk's dictionary page is not at its start");
        if (dict && h.dict_enc != PQ_PLAIN && h.dict_enc != PQ_PLAIN_DICTIONARY)
            return refuse(err, SS_E_BAD_EXPORT, pos, "a dictionary page whose values are not PLAIN");
        /* no larger than segscan writes one, and an entry a row at most */
        if (dict && ((uint64_t)h.usize > SS_PQ_DICT_MAX_BYTES || h.dict_n < 0 || (uint64_t)h.dict_n > r->rows))
            return refuse(err, SS_E_BAD_EXPORT, pos, "a dictionary larger than segscan writes");
        if (!dict && (h.type != PQ_PAGE_DATA || !h.has_data))
            return refuse(err, SS_E_BAD_EXPORT, pos, "a page that is not a v1 data page (segscan writes no other)");
        size_t body = (size_t)(t.p - r->file);
        if (h.csize < 0 || h.usize < 0 || (uint64_t)h.csize > end - body || (uint64_t)h.usize > PQR_MAX_PAGE)
            return refuse(err, SS_E_BAD_EXPORT, pos, "a page's size runs past its column chunk");
        if (!dict && (h.nvalues < 0 || (uint64_t)h.nvalues > r->rows - row))
            return refuse(err, SS_E_BAD_EXPORT, pos, "a page of more values than its row group's rows");
        if (!dict && h.def_enc != PQ_RLE) return refuse(err, SS_E_BAD_EXPORT, pos, "definition levels not RLE");
        const uint8_t *pg = r->file + body;
        size_t pn = (size_t)h.csize;
        if (ch->codec == PQ_CODEC_ZSTD) {
            r->page.n = 0;
            if (!ss_pqbuf_reserve(&r->page, (size_t)h.usize + 1))
                return ss_error_set(err, SS_E_NOMEM, pos, -1, "out of memory for a page");
            size_t got = ZSTD_decompressDCtx(r->zd, r->page.p, (size_t)h.usize, pg, pn);
            if (ZSTD_isError(got) || got != (size_t)h.usize)
                return refuse(err, SS_E_BAD_EXPORT, body, "a page's zstd frame does not decompress to its size");
            pg = r->page.p;
            pn = got;
        } else if (pn != (size_t)h.usize) {
            return refuse(err, SS_E_BAD_EXPORT, pos, "an uncompressed page whose two sizes differ");
        }
        bytes_in b = {pg, pg + pn};
        if (dict) {
            bool nomem = false;
            const char *why = dict_read(c, &r->dict, &b, h.dict_n, &nomem);
            if (nomem) return ss_error_set(err, SS_E_NOMEM, pos, -1, "out of memory for a page");
            if (why) return refuse(err, SS_E_BAD_EXPORT, body, why);
            dict_read_yet = true;
            pos = body + (size_t)h.csize;
            continue;
        }
        if (pn < 4) return refuse(err, SS_E_BAD_EXPORT, body, "a page without its definition levels' length");
        size_t dl = le32(pg);
        if (dl > pn - 4) return refuse(err, SS_E_BAD_EXPORT, body, "definition levels longer than their page");
        bytes_in lv = {pg + 4, pg + 4 + dl};
        size_t nv;
        const char *why = levels_decode(&lv, c->defs + row, (size_t)h.nvalues, &nv);
        if (why) return refuse(err, SS_E_BAD_EXPORT, body, why);
        b.p = pg + 4 + dl;
        bool nomem = false;
        why = values_decode(c, type, (int32_t)h.enc, &b, row, (size_t)h.nvalues, nv, tmp, &r->dict, &expanded, &nomem);
        if (nomem) return ss_error_set(err, SS_E_NOMEM, pos, -1, "out of memory for a page");
        if (why) return refuse(err, SS_E_BAD_EXPORT, body, why);
        row += (size_t)h.nvalues;
        pos = body + (size_t)h.csize;
        if (!h.nvalues && row < r->rows)
            return refuse(err, SS_E_BAD_EXPORT, body, "a page of no values before its chunk's end");
    }
    return SS_E_OK;
}

ss_errkind ss_pqr_read_group(ss_pq_reader *r, size_t g, ss_error *err) {
    r->rows = 0;
    if (g >= r->ngroups) return ss_error_set(err, SS_E_USAGE, 0, -1, "no row group %zu", g);
    size_t rows = (size_t)r->group_rows[g];
    for (size_t i = 0; i < r->ncols; i++)
        if (!col_fit(&r->col[i], rows ? rows : 1)) return ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
    int64_t *tmp = malloc((rows ? rows : 1) * sizeof *tmp);
    if (!tmp) return ss_error_set(err, SS_E_NOMEM, 0, -1, "out of memory");
    r->rows = rows;
    ss_errkind k = SS_E_OK;
    for (size_t i = 0; i < r->ncols && k == SS_E_OK; i++) k = read_chunk(r, i, &r->chunks[g * r->ncols + i], tmp, err);
    free(tmp);
    if (k != SS_E_OK) r->rows = 0;
    return k;
}
