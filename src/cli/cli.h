/* segscan CLI - what the subcommands share. */
#ifndef SS_CLI_H
#define SS_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "out.h"
#include "segscan/segscan.h"

/* Exit codes (DESIGN section 5): when several apply, the first of 2, 3, 1, 0 wins. */
enum { EXIT_OK = 0, EXIT_FINDINGS = 1, EXIT_TROUBLE = 2, EXIT_DAMAGE = 3 };
int exit_merge(int a, int b);

/* Diagnostics on stderr, prefixed "segscan: ". */
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "segscan: FILE: byte P (baseOffset B): reason [kind]" */
void report_error(const char *file, const ss_error *e);

bool parse_u64(const char *s, uint64_t *v);

struct dump_opts {
    bool deep;            /* --deep-iteration (implied by --print-data-log) */
    bool data;            /* --print-data-log */
    bool skip_meta;       /* --skip-record-metadata */
    bool json;
    bool verify_index_only, index_sanity_check;
    bool offsets_decoder, txn_log_decoder;
    uint64_t max_bytes;   /* UINT64_MAX: whole file */
    uint64_t max_message_size;
    enum bytes_mode bytes;
    uint64_t max_batch_bytes;
};

int cmd_dump(int argc, char **argv);

/* Index, time index, transaction index and producer snapshot files
 * (cmd_dump_index.c). Returns an exit code. */
int dump_index_file(const char *path, const struct dump_opts *o, ss_out *out);
bool is_index_file(const char *path);

#endif
