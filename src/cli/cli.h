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
/* All of stdin into a new buffer (free it); 0, or -1 when reading failed or memory ran out. */
int cli_read_stdin(uint8_t **buf, size_t *len);

/* --local-time (scan, dups, producers, txns, explain, diff): human timestamps in the local
 * time of TZ with its UTC offset instead of UTC. Set by the option parsers (main.c). */
extern bool cli_local_time;
/* A time for text output: "2023-11-14T22:13:20.000Z", or with cli_local_time the local time
 * and its offset, "2023-11-14T23:13:20.000+01:00" ("Z" when the offset is 0). ms >= 0. */
void cli_format_time(int64_t ms, char *buf, size_t n);

#include "segscan/decode.h"

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
};

int cmd_dump(int argc, char **argv);

/* What the dumps of segments and of index files share (cmd_dump.c). */
const char *dump_base_name(const char *path);                       /* after the last '/' */
void dump_json_head(ss_out *o, const char *type, const char *file); /* {"type":"T","file":F */
/* Pairs of offsets (or timestamps) a dump reports after a file, in the order found. */
typedef struct offset_pairs {
    int64_t (*v)[2];
    size_t n, cap;
} offset_pairs;
void offset_pairs_add(offset_pairs *p, int64_t a, int64_t b); /* dropped when memory runs out */
int cmd_verify(int argc, char **argv);                        /* cmd_verify.c */
int cmd_coordinator(int argc, char **argv);                   /* cmd_coordinator.c */

/* Index, time index, transaction index and producer snapshot files
 * (cmd_dump_index.c). Returns an exit code. */
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
bool dump_kraft_control(ss_out *o, const ss_record *r, bool json);
/* A decoded message's node as Kafka's JSON converters + Jackson write it. */
void dump_jnode(ss_out *o, const ss_jnode *nodes, uint32_t x);

/* ---- analysis commands: scan (default), dups, producers, txns, explain ----
 * cmd_scan.c parses the options, runs the library's analysis and prints the
 * summary; cmd_dups.c, cmd_producers.c, cmd_explain.c and cmd_report.c print
 * the other views. The library computes, these files only print. */
#include "segscan/analyze.h"

enum scan_mode { MODE_SCAN, MODE_DUPS, MODE_PRODUCERS, MODE_TXNS, MODE_EXPLAIN };
enum { FAIL_DUPS = 1, FAIL_GAPS = 2, FAIL_OPEN_TXN = 4 };

struct scan_cli {
    int mode;
    bool json, verbose, quiet, color;
    enum bytes_mode bytes;
    const char *report; /* --report FILE, or NULL */
    uint64_t top;       /* groups shown in the summary */
    bool top_set;
    unsigned fail_on; /* FAIL_* */
    ss_an_opts ao;
    const ss_inputs *in;
    ss_analysis *an;
    ss_out *out;
    /* producer id -> transactional.id, when a __transaction_state partition is among the inputs */
    const ss_txn_ids *txn_ids;
};

/* The transactional.id of a producer id, or NULL. */
const char *scan_txn_id(const struct scan_cli *c, int64_t producer_id, size_t *len);

/* The name of command i (main.c's table), NULL past the last. */
const char *cli_command_name(size_t i);

int cmd_scan(int argc, char **argv);
int cmd_dups(int argc, char **argv);
int cmd_producers(int argc, char **argv);
int cmd_txns(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_diff(int argc, char **argv); /* cmd_diff.c */

/* colour: the escape sequence when colour is on, else "" */
const char *scan_sgr(const struct scan_cli *c, const char *code);
/* "2023-11-14T22:13:20.000Z (1700000000000)", or "-" for a negative time */
void scan_time(char *buf, size_t n, int64_t ms);
const char *scan_part_name(const struct scan_cli *c, uint32_t part);
/* A short, quoted, escaped preview of bytes for a terminal. */
void scan_preview(ss_out *o, const uint8_t *p, int32_t len, size_t max);
/* JSON: ,"name":<bytes> and ,"nameLossy":true when the utf8 rendering replaced bytes */
void scan_json_bytes(ss_out *o, enum bytes_mode m, const char *name, const uint8_t *p, int32_t len);
void scan_json_key(ss_out *o, const char *k); /* ,"k": */

void dups_text_group(struct scan_cli *c, size_t gi, size_t max_copies, bool sentences);
void dups_json_group(struct scan_cli *c, size_t gi, bool sentences);
void dups_print(struct scan_cli *c);
void producers_print(struct scan_cli *c);
void producers_json_session(struct scan_cli *c, const ss_an_session *s);
void producers_text_partition(struct scan_cli *c, uint32_t part);
void txns_print(struct scan_cli *c);
void txns_json_txn(struct scan_cli *c, const ss_an_txn *t);
/* "N committed (E empty), M aborted (F empty)" of partition part: each empty transaction
 * (a marker without data) beside the result it ended with; "(0 empty)" left out. */
void txns_text_counts(struct scan_cli *c, uint32_t part);
void scan_json_partition(struct scan_cli *c, uint32_t part);
void explain_print(struct scan_cli *c);
/* Plain-language sentences for the causes in group gi, one per line, each
 * starting with `indent` (explain, dups -v). */
void explain_group_text(struct scan_cli *c, size_t gi, const char *indent);
/* The sentence for one copy (JSON "explanation"); NULL for the original. */
void explain_copy_sentence(struct scan_cli *c, size_t gi, const ss_an_copy *copy, char *buf, size_t n);
/* Writes the key=value report; returns false (after a message) when FILE cannot be written. */
bool report_write(const struct scan_cli *c, const char *path);

#endif
