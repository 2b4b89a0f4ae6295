/* segscan groups - what the command's files share: the command's state (gcli),
 * the small renderings and selections of the text and the JSON (groups_common.c)
 * and the JSON Lines objects (groups_json.c); cmd_groups.c parses the options and
 * prints the text. */
#ifndef SS_CLI_GROUPS_CLI_H
#define SS_CLI_GROUPS_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/out.h"
#include "segscan/findings.h"
#include "segscan/groups.h"

typedef struct gcli {
    ss_groups_opts go;
    ss_findings_opts fo;
    ss_findings *f;
    unsigned fail_on;
    bool failed; /* a finding listed matched --fail-on */
    bool json, quiet;
    bool list_commits; /* --commits (the history keeps them for --html too) */
    ss_groups *g;
    ss_timelines *tl;    /* the data partitions read (lag), NULL: none */
    const ss_inputs *in; /* the inputs (their replicas), NULL: not known */
    ss_out *o;
} gcli;

/* groups_common.c */
void gc_tstr(char *buf, size_t n, int64_t ms);
void gc_text_bytes(ss_out *o, const char *s, size_t len);
void gc_json_bytes(ss_out *o, const char *s, size_t len);
void gc_json_key(ss_out *o, const char *k);
void gc_json_i64_or_null(ss_out *o, int64_t v);
void gc_text_tp(ss_out *o, const ss_gtp_ref *t);
void gc_json_tp(ss_out *o, const ss_gtp_ref *t);
bool gc_tp_selected(const gcli *c, const ss_gtp_ref *t);
bool gc_timeline_event(const ss_gevent *e);
bool gc_in_time(const gcli *c, int64_t t);
const char *gc_log_name(char *buf, size_t n, int32_t p);
void gc_text_parts(ss_out *o, const ss_gtp_ref *v, size_t n, const gcli *c);
void gc_json_parts(ss_out *o, const ss_gtp_ref *v, size_t n, const gcli *c);
bool gc_group_selected(const gcli *c, const ss_group *g);
size_t gc_findings_of(const gcli *c, size_t gi, size_t *first);
bool gc_finding_selected(const gcli *c, const ss_finding *x);
/* the net answers of group gi (ss_findings_net_at's [*first, *first + return)) */
size_t gc_nets_of(const gcli *c, size_t gi, size_t *first);
/* how many of a net answer's findings the selection (--topic, --partition, --since, --until) shows */
size_t gc_net_findings_selected(const gcli *c, const ss_fnet *n);

/* The names nearest a name given that matched nothing (a typo): the three closest by edit distance. */
typedef struct gc_near {
    const char *name[3];
    size_t len[3], dist[3];
    size_t n;
} gc_near;
void gc_near_add(gc_near *nr, const char *want, const char *name, size_t len);
/* ", nearest: a, b" (nothing when none), to a FILE */
void gc_near_print(FILE *f, const gc_near *nr);
/* --topic / --partition that match no partition of the groups read: a message on stderr naming the
 * nearest (topics, or the partition numbers of the topic); true when the selection matched */
bool gc_tp_selection_matches(gcli *c);

/* groups_json.c */
void gc_json_log(gcli *c, const ss_glog *l);
int gc_json_group_all(gcli *c, size_t gi);

/* KIP-848 consumer groups and KIP-1071 streams groups have group epochs, member epochs and states */
static inline bool gc_epochs(int protocol) { return protocol == SS_GPROTO_CONSUMER || protocol == SS_GPROTO_STREAMS; }
static inline const char *gc_state_name(int protocol, int state) {
    return protocol == SS_GPROTO_STREAMS ? ss_gstreams_member_state_name(state) : ss_gmember_state_name(state);
}

#endif
