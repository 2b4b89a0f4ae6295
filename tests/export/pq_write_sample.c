/* A Parquet file from the parquet room's writer with values chosen to try it: row groups of 7
 * rows, nulls in every pattern, INT64 and INT32 extremes next to each other (deltas that wrap),
 * booleans, strings, FIXED_LEN_BYTE_ARRAY(16), and a column of nulls only. Prints the row count;
 * test_export_duckdb.py reads the file with DuckDB and checks each value against the same
 * formula. usage: pq_write_sample FILE */
#include <stdint.h>
#include <stdio.h>

#include "segscan/parquet.h"

static const ss_pq_column cols[] = {
    {"i", SS_PQ_INT64, false, false, false},     {"a", SS_PQ_INT64, false, false, false},
    {"b", SS_PQ_INT32, false, false, false},     {"c", SS_PQ_BOOLEAN, false, false, false},
    {"s", SS_PQ_BYTE_ARRAY, true, false, false}, {"x", SS_PQ_FIXED16, false, false, false},
    {"z", SS_PQ_INT32, false, false, false},
};

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    ss_error err;
    ss_pq_writer *w = ss_pq_create(argv[1], cols, sizeof cols / sizeof *cols, 7, "segscan test", &err);
    if (!w) {
        fprintf(stderr, "create: %s\n", err.msg);
        return 1;
    }
    const int n = 1000;
    for (int i = 0; i < n; i++) {
        ss_pq_i64(w, i);
        switch (i % 5) {
        case 0: ss_pq_i64(w, INT64_MIN); break;
        case 1: ss_pq_i64(w, INT64_MAX); break;
        case 2: ss_pq_i64(w, -1); break;
        case 3: ss_pq_null(w); break;
        default: ss_pq_i64(w, (int64_t)i * 1000003); break;
        }
        if (i % 7 == 0) ss_pq_null(w);
        else {
            static const int32_t b[4] = {INT32_MIN, INT32_MAX, 0, 0};
            ss_pq_i32(w, i % 4 == 3 ? -i : b[i % 4]);
        }
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
        if (ss_pq_row_end(w, &err) != SS_E_OK) {
            fprintf(stderr, "row %d: %s\n", i, err.msg);
            ss_pq_abort(w);
            return 1;
        }
    }
    if (ss_pq_meta(w, "k", "v", &err) != SS_E_OK || ss_pq_finish(w, &err) != SS_E_OK) {
        fprintf(stderr, "finish: %s\n", err.msg);
        return 1;
    }
    printf("%d\n", n);
    return 0;
}
