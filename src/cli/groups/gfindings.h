/* segscan CLI - the consumer groups' findings (segscan/findings.h) as text and
 * as JSON group-finding objects, for groups, scan and explain
 * (view_gfindings.c), and the net answer per group and partition (view_gnet.c). */
#ifndef SS_CLI_GFINDINGS_H
#define SS_CLI_GFINDINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/out.h"
#include "segscan/findings.h"

/* --fail-on redelivered,skipped,rewind (bits beside the analysis's FAIL_* of scan.h) */
enum { FAIL_REDELIVERED = 0x100, FAIL_SKIPPED = 0x200, FAIL_REWIND = 0x400 };
/* Does finding x match one of the --fail-on bits? redelivered: a range of records
 * delivered again (certain or possible); skipped: records possibly never received;
 * rewind: a rewind or a reset. */
bool gf_fails(const ss_finding *x, unsigned fail_on);

/* "<topic>-<p>" of a finding's data partition (a topic known by id only: its id) */
void gf_tp_text(ss_out *o, const ss_gtp_ref *t);
/* The finding as lines of text, each starting with indent; the first names its time,
 * kind and partition, the next ones what it rests on and what it means. */
void gf_text(ss_out *o, const ss_finding *x, const char *indent);
/* The range of x that says most of a record at `offset`: a certain redelivery, then the likely
 * part, then the possible one, then a possible skip; NULL when none holds it. */
const ss_frange *gf_range_for(const ss_finding *x, int64_t offset);
/* a handover's "clean", "unclean" or "clean or not unknown" */
const char *gf_clean_word(const ss_finding *x);
/* r (a range of x) is not certain yet, and will be once the group commits past it */
bool gf_range_will(const ss_finding *x, const ss_frange *r);
/* One sentence for a record at `offset` covered by x (explain): "certainly delivered
 * again: reset at T from A to B" and the like. */
void gf_covering_text(ss_out *o, const ss_finding *x, int64_t offset);
/* The group-finding object, with its newline. */
void gf_json(ss_out *o, const ss_finding *x, int64_t now);
/* ,"name":{"from","to","records","certain"} or null */
void gf_json_range(ss_out *o, const char *name, const ss_frange *r);

/* the pieces of a finding's text, for the blocks of one rebalance (view_gblock.c): a member (and its
 * group.instance.id), a range with its records, the revocation line, how "present at a time" was decided */
void gf_owner_text(ss_out *o, const char *member, const char *instance);
void gf_range_text(ss_out *o, const ss_frange *r);
void gf_revocation_text(ss_out *o, const ss_finding *x, const char *indent);
const char *gf_basis_words(const ss_finding *x);

/* ---- the handovers of one rebalance as one block (view_gblock.c) ---- */
/* How many findings from x[0] on (x: n findings by time) are handovers of one rebalance: the same
 * __consumer_offsets record gave each its new owner (1 when x[0] is no such handover). */
size_t gb_run(const ss_finding *const *x, size_t n);
/* Handovers x[0..n) of one rebalance (n >= 2) as one block: a line for the rebalance, a line per
 * partition, then what the lines share said once. */
void gb_text(ss_out *o, const ss_finding *const *x, size_t n, const char *indent);

/* ---- the net answer of a group's data partition (view_gnet.c) ---- */
/* --fail-on redelivered: records possibly delivered again; skipped: possibly never delivered */
bool gn_fails(const ss_fnet *n, unsigned fail_on);
/* "net of <tp>: delivered twice: A..B certainly (N records); C..D possibly (M); never delivered: none" */
void gn_text(ss_out *o, const ss_fnet *n, const char *indent);
/* {"from","to","records"} of a merged range (null: unknown) */
void gn_json_range(ss_out *o, const ss_fnet_range *r);
/* The group-net object, with its newline. */
void gn_json(ss_out *o, const ss_fnet *n);
/* the records of level l (the offsets it spans when the data partition was not read) */
uint64_t gn_count(const ss_fnet *n, enum ss_fnet_level l);

#endif
