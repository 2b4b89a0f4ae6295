/* segscan CLI - the dump command's parts: cmd_dump.c (segments), dump_index.c
 * (the files beside them), dump_internal.c (the internal topics' decoders). */
#ifndef SS_CLI_DUMP_H
#define SS_CLI_DUMP_H

#include <stdbool.h>
#include <stdint.h>

#include "common/out.h"
#include "segscan/decode.h"
#include "segscan/segscan.h"

/* kafka-dump-log.sh's decoders; when several are given, the first of this
 * order is used, as DumpLogSegmentsOptions.messageParser chooses. */
enum dump_decoder {
    DUMP_DEC_NONE = 0,
    DUMP_DEC_OFFSETS,             /* --offsets-decoder */
    DUMP_DEC_TXN_LOG,             /* --transaction-log-decoder */
    DUMP_DEC_CLUSTER_METADATA,    /* --cluster-metadata-decoder */
    DUMP_DEC_REMOTE_LOG_METADATA, /* --remote-log-metadata-decoder */
    DUMP_DEC_SHARE_GROUP_STATE,   /* --share-group-state-decoder */
};

struct dump_opts {
    bool deep;      /* --deep-iteration (implied by --print-data-log) */
    bool data;      /* --print-data-log */
    bool skip_meta; /* --skip-record-metadata */
    bool json;
    bool verify_index_only, index_sanity_check;
    int decoder;        /* enum dump_decoder: the one decoder of the run (Kafka's precedence) */
    uint64_t max_bytes; /* UINT64_MAX: whole file */
    uint64_t max_message_size;
    enum bytes_mode bytes;
    uint64_t max_batch_bytes;
    /* --kafka-version: print as that kafka-dump-log.sh does where versions differ on records
     * both know; 40 for 4.0, 0 (the default) for the newest (4.2) */
    int kafka_version;
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

/* The files of a partition directory or log directory, in the order they are
 * dumped (dump_dir.c), and those left out with the reason. */
enum dump_step {
    DUMP_FILE,           /* dump it */
    DUMP_UNKNOWN,        /* "Ignoring unknown file", as kafka-dump-log.sh */
    DUMP_TEMPORARY,      /* a broker temporary (.deleted, .cleaned, .swap, .tmp; -delete, -stray, -future) */
    DUMP_TOO_DEEP,       /* a directory more levels down than are searched */
    DUMP_UNREADABLE_DIR, /* a directory that cannot be listed */
};
typedef struct dump_plan {
    struct dump_plan_item {
        char *path;
        enum dump_step step;
        int err; /* DUMP_UNREADABLE_DIR: errno */
    } * v;
    size_t n, cap;
} dump_plan;
/* False when memory ran out (the plan holds what was listed). Free with dump_plan_free. */
bool dump_dir_plan(const char *path, dump_plan *out);
void dump_plan_free(dump_plan *p);
/* The text files of a log directory (dump_text.c): their entries, and the
 * checks verify runs on them (exit 1 when one fails, 3 when Kafka's reader
 * refuses the file, 2 when it cannot be read). */
bool dump_is_text_file(const char *path);
int dump_text_file(const char *path, const struct dump_opts *opt, ss_out *o);

/* Index, time index, transaction index and producer snapshot files
 * (dump_index.c). Returns an exit code. */
int dump_index_file(const char *path, const struct dump_opts *o, ss_out *out);
bool is_index_file(const char *path);

/* The decoders (dump_internal.c): the key and payload of a record of an
 * internal topic (__consumer_offsets, __transaction_state, __cluster_metadata,
 * __remote_log_metadata, __share_group_state). Text: what kafka-dump-log.sh
 * prints after the record's metadata (prefix, then "key: ..." and " payload:
 * ..."); JSON: a ,"decoded":{...} member of the record object. */
void dump_internal_text(ss_out *o, const struct dump_opts *opt, const char *file, const ss_record *r,
                        const char *prefix);
void dump_internal_json(ss_out *o, const struct dump_opts *opt, const ss_record *r);
/* A KRaft control record (snapshot header and footer, KRaft version, voters):
 * text " SnapshotHeader {...}" as DumpLogSegments prints it, or (json) a
 * ,"kraftControl":{...} member. False when the record is not one of those or
 * cannot be read. */
bool dump_kraft_control(ss_out *o, const ss_record *r, bool json, int kafka_version);
/* A decoded message's node as Kafka's JSON converters + Jackson write it. */
void dump_jnode(ss_out *o, const ss_jnode *nodes, uint32_t x);

#endif
