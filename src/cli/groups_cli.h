/* segscan groups - what the command's files share: the command's state (gcli),
 * the small renderings and selections of the text and the JSON (groups_common.c)
 * and the JSON Lines objects (groups_json.c); cmd_groups.c parses the options and
 * prints the text. */
#ifndef SS_CLI_GROUPS_CLI_H
#define SS_CLI_GROUPS_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "out.h"
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
    ss_out *o;
} gcli;

/* groups_common.c */
void tstr(char *buf, size_t n, int64_t ms);
void text_bytes(ss_out *o, const char *s, size_t len);
void json_bytes(ss_out *o, const char *s, size_t len);
void json_key(ss_out *o, const char *k);
void json_i64_or_null(ss_out *o, int64_t v);
void text_tp(ss_out *o, const ss_gtp_ref *t);
void json_tp(ss_out *o, const ss_gtp_ref *t);
bool tp_selected(const gcli *c, const ss_gtp_ref *t);
bool timeline_event(const ss_gevent *e);
bool in_time(const gcli *c, int64_t t);
const char *log_name(char *buf, size_t n, int32_t p);
void text_parts(ss_out *o, const ss_gtp_ref *v, size_t n, const gcli *c);
void json_parts(ss_out *o, const ss_gtp_ref *v, size_t n, const gcli *c);
bool group_selected(const gcli *c, const ss_group *g);
size_t findings_of(const gcli *c, size_t gi, size_t *first);
bool finding_selected(const gcli *c, const ss_finding *x);

/* groups_json.c */
void json_log(gcli *c, const ss_glog *l);
int json_group_all(gcli *c, size_t gi);

#endif
