/* segscan CLI - the dump command's parts: cmd_dump.c (segments), dump_index.c
 * (the files beside them), dump_internal.c (the internal topics' decoders). */
#ifndef SS_CLI_DUMP_H
#define SS_CLI_DUMP_H

#include <stdbool.h>
#include <stdint.h>

#include "out.h"
#include "segscan/segscan.h"

struct dump_opts {
    bool deep;      /* --deep-iteration (implied by --print-data-log) */
    bool data;      /* --print-data-log */
    bool skip_meta; /* --skip-record-metadata */
    bool json;
    bool verify_index_only, index_sanity_check;
    bool offsets_decoder, txn_log_decoder;
    uint64_t max_bytes; /* UINT64_MAX: whole file */
    uint64_t max_message_size;
    enum bytes_mode bytes;
    uint64_t max_batch_bytes;
};

/* What the dumps of segments and of index files share (dump_common.c). */
const char *dump_base_name(const char *path);                       /* after the last '/' */
void dump_json_head(ss_out *o, const char *type, const char *file); /* {"type":"T","file":F */
/* Pairs of offsets (or timestamps) a dump reports after a file, in the order found. */
typedef struct offset_pairs {
    int64_t (*v)[2];
    size_t n, cap;
} offset_pairs;
void offset_pairs_add(offset_pairs *p, int64_t a, int64_t b); /* dropped when memory runs out */

/* Index, time index, transaction index and producer snapshot files
 * (dump_index.c). Returns an exit code. */
int dump_index_file(const char *path, const struct dump_opts *o, ss_out *out);
bool is_index_file(const char *path);

/* --offsets-decoder / --transaction-log-decoder (dump_internal.c): the key and
 * payload of a record of __consumer_offsets or __transaction_state. Text: what
 * kafka-dump-log.sh prints after the record's metadata (prefix, then "key: ..."
 * and " payload: ..."); JSON: a ,"decoded":{...} member of the record object. */
void dump_internal_text(ss_out *o, const struct dump_opts *opt, const char *file, const ss_record *r,
                        const char *prefix);
void dump_internal_json(ss_out *o, const struct dump_opts *opt, const ss_record *r);

#endif
