/* segscan CLI - the analysis commands: scan (the default), dups, producers,
 * txns and explain. scan_run.c parses the options and runs the library's
 * analysis; each cmd_<name>.c prints its view, from the shared renderers
 * (views.c, view_*.c) and report.c (--report). The library computes, these
 * files only print. */
#ifndef SS_CLI_SCAN_H
#define SS_CLI_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/out.h"
#include "segscan/segscan.h"

enum { FAIL_DUPS = 1, FAIL_GAPS = 2, FAIL_OPEN_TXN = 4, FAIL_HANGING = 8, FAIL_HOLES = 16 };

struct scan_cli {
    bool json, verbose, quiet, color;
    enum bytes_mode bytes;
    const char *report; /* --report FILE, or NULL */
    const char *html;   /* --html FILE, or NULL */
    uint64_t top;       /* groups shown in the summary */
    bool top_set;
    unsigned fail_on; /* FAIL_* */
    ss_an_opts ao;
    const ss_inputs *in;
    ss_analysis *an;
    ss_out *out;
    /* producer id -> transactional.id, when a __transaction_state partition is among the inputs */
    const ss_txn_ids *txn_ids;
    /* consumer groups (scan_groups.c): --group IDs, and when a __consumer_offsets partition is among the
     * inputs (or, for explain and dups, beside them in their log directory) the groups' history, the data
     * partitions' timelines and the findings; NULL otherwise */
    const char **group_ids;
    size_t ngroup_ids;
    struct scan_groups *sg;
    /* the producer-id blocks of a __cluster_metadata partition or KRaft snapshot among the inputs */
    const ss_pid_blocks *pid_blocks;
};

/* A growing string for building sentences: zero-initialise, sb_printf to it, free(p).
 * Memory running out leaves it shorter. */
typedef struct sbuf {
    char *p;
    size_t n, cap;
} sbuf;
void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* An analysis command (cmd_<name>.c): its name, its --help, and what it prints
 * once the analysis has run. */
struct scan_command {
    const char *name;
    const char *usage_args;  /* after the name in the usage line */
    const char *description; /* the paragraph of --help */
    bool explain;            /* takes --value, --value-hex, --value-contains, --key, --offset */
    bool txn_ids;            /* names the transactional.id of producer ids (from __transaction_state) */
    bool text_has_no_copies; /* its text prints no duplicate figure, group or cause (txns, producers) */
    void (*print)(struct scan_cli *c);
};
/* Parse the options, run the analysis, print the damage met, then cmd->print,
 * then the --report file; returns the exit code (scan_run.c). */
int scan_run(const struct scan_command *cmd, int argc, char **argv);

/* The transactional.id of a producer id, or NULL. */
const char *scan_txn_id(const struct scan_cli *c, int64_t producer_id, size_t *len);
/* Which broker handed out a producer id (its producer-id block), when the
 * metadata log is among the inputs: false when it is not. The text, for a
 * sentence: "handed out by broker 2 (its block [1000, 2000) was allocated at
 * T, __cluster_metadata-0 offset 38)", or why that is unknown. */
bool scan_pid_origin(const struct scan_cli *c, int64_t producer_id, sbuf *b);
/* JSON: ,"producerIdBlock":{...} or null (docs/json.md, session). */
void scan_json_pid_block(const struct scan_cli *c, int64_t producer_id);


/* Colours (SGR escape sequences), for scan_sgr. */
#define SGR_BOLD "\033[1m"
#define SGR_DIM "\033[2m"
#define SGR_RED "\033[31m"
#define SGR_GRN "\033[32m"
#define SGR_YEL "\033[33m"
#define SGR_RST "\033[0m"
/* colour: the escape sequence when colour is on, else "" */
const char *scan_sgr(const struct scan_cli *c, const char *code);
/* "2023-11-14T22:13:20.000Z (1700000000000)", or "-" for a negative time */
void scan_time(char *buf, size_t n, int64_t ms);
const char *scan_part_name(const struct scan_cli *c, uint32_t part);
/* What a broker temporary is ("-delete", ".deleted", ...: ss_input_partition.temporary), in words. */
const char *scan_temporary_meaning(const char *kind);
/* A short, quoted, escaped preview of bytes for a terminal. */
void scan_preview(ss_out *o, const uint8_t *p, int32_t len, size_t max);
/* JSON: ,"name":<bytes> and ,"nameLossy":true when the utf8 rendering replaced bytes */
void scan_json_bytes(ss_out *o, enum bytes_mode m, const char *name, const uint8_t *p, int32_t len);


/* What a verdict rests on: the partitions read, the partitions of the same topics found
 * beside them and not read, other brokers unknown. As the JSON member ,"scope":{...}, and
 * as a sentence (with a leading space). */
void scan_json_scope(struct scan_cli *c);
void scan_scope_sentence(struct scan_cli *c, sbuf *b);
/* The total object of scan and dups --json, with its scope. */
void scan_json_total(struct scan_cli *c);
/* the summary's line of the inputs that could not be read (none: nothing) */
void scan_unreadable_text(struct scan_cli *c);
/* a partition's holes (ss_an_hole): the summary's line, and the JSON array */
void scan_holes_text(struct scan_cli *c, uint32_t part);
void scan_holes_json(struct scan_cli *c, uint32_t part);
void scan_replicas_text(struct scan_cli *c, uint32_t part);
/* a partition's copies, where each came from and what was read of it (no prefix, no newline) */
void view_replicas_list(ss_out *o, const ss_input_partition *ip);
void view_replicas_json(ss_out *o, const ss_input_partition *ip);
void scan_replicas_json(struct scan_cli *c, uint32_t part);

void dups_text_group(struct scan_cli *c, size_t gi, size_t max_copies, bool sentences);
void dups_json_group(struct scan_cli *c, size_t gi, bool sentences);
void producers_json_session(struct scan_cli *c, const ss_an_session *s);
/* A session's lines, each starting with indent; every session of a partition under "  sessions". */
void producers_text_session(struct scan_cli *c, const ss_an_session *s, const char *indent);
void producers_text_partition(struct scan_cli *c, uint32_t part);
void txns_json_txn(struct scan_cli *c, const ss_an_txn *t);
/* The first session (ss_an_session_at) and the first transaction (ss_an_txn_at) of partition
 * part, or the count when it has none: both lists are in partition order (analyze.h), so a
 * partition's items follow from there, and printing every partition's stays linear (a scan
 * of the whole list per partition took 10% of `producers` on 4,000 partitions). */
size_t scan_sessions_from(const ss_analysis *an, uint32_t part);
size_t scan_txns_from(const ss_analysis *an, uint32_t part);
/* The first of n items in partition order whose partition (partition_of(an, i)) is part or
 * later: a binary search. */
size_t scan_first_of(const ss_analysis *an, size_t n, uint32_t (*partition_of)(const ss_analysis *, size_t),
                     uint32_t part);
/* "N committed (E empty), M aborted (F empty)" of partition part: each empty transaction
 * (a marker without data) beside the result it ended with; "(0 empty)" left out. */
void txns_text_counts(struct scan_cli *c, uint32_t part);
/* The analysis's "now" and where it came from, in words. */
const char *txns_now_text(struct scan_cli *c, char *buf, size_t n);
void scan_json_partition(struct scan_cli *c, uint32_t part);
/* Plain-language sentences for the causes in group gi, one per line, each
 * starting with `indent` (explain, dups -v). */
void explain_group_text(struct scan_cli *c, size_t gi, const char *indent);
/* The sentence for one copy (JSON "explanation"); NULL for the original. */
void explain_copy_sentence(struct scan_cli *c, size_t gi, const ss_an_copy *copy, char *buf, size_t n);
/* ---- consumer groups beside the analysis (scan_groups.c) ---------------------------------- */

/* Read the groups' history and findings when a __consumer_offsets partition is among
 * the PATHs (beside: also those in the log directory of a partition given); returns
 * the exit code it adds (2: unreadable, 3: damage). */
/* read: the scan's own inputs of the same paths (none of __consumer_offsets there and beside
 * them: the study reads nothing again) */
int scan_groups_read(struct scan_cli *c, char **paths, int npaths, bool include_temp, bool beside,
                     const ss_inputs *read);
void scan_groups_free(struct scan_cli *c);
/* what --html draws of the groups: the data partitions' timelines, the history (with its commits)
 * and the findings; each NULL when no __consumer_offsets partition was read */
void scan_groups_parts(const struct scan_cli *c, ss_timelines **tl, ss_groups **g, ss_findings **f);
/* the groups' history was read */
bool scan_groups_have(const struct scan_cli *c);
/* scan: the summary's groups line; --json: the group-finding objects */
void scan_groups_summary(struct scan_cli *c);
void scan_groups_json(struct scan_cli *c);
/* --report: the group.<id>.<topic>-<p>.<name> and total.groups.<name> keys */
void scan_groups_report(const struct scan_cli *c, FILE *f);
/* --fail-on redelivered, skipped, rewind matched a finding */
bool scan_groups_failed(const struct scan_cli *c);
/* explain: the deliveries of a record (lines each starting with indent; JSON ,"deliveries":[...] and
 * ,"deliveriesNone":...) */
void scan_deliveries_text(struct scan_cli *c, const ss_an_copy *cp, const char *indent);
void scan_deliveries_json(struct scan_cli *c, const ss_an_copy *cp);
/* explain, dups: what a copy coincides with in the groups' history (a new-session or same-session
 * copy: the findings of the consumed partitions between its time and the original's), and the
 * transaction that wrote a transactional copy with an offset commit (JSON ,"coincidences":[...]
 * and ,"transactionLink":...) */
void scan_copy_links_text(struct scan_cli *c, const ss_an_copy *orig, const ss_an_copy *cp, const char *indent);
void scan_copy_links_json(struct scan_cli *c, const ss_an_copy *orig, const ss_an_copy *cp);

/* Writes the key=value report; returns false (after a message) when FILE cannot be written. */
bool report_write(const struct scan_cli *c, const char *path);

#endif
