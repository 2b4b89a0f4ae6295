/* segscan CLI - a consumer group's lag and Burrow status (segscan/lag.h) as
 * text, as JSON group-lag and group-status objects, as --report keys and as a
 * table of the HTML page (view_glag.c). */
#ifndef SS_CLI_GLAG_H
#define SS_CLI_GLAG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/out.h"
#include "groups/groups_cli.h"
#include "segscan/lag.h"

/* "now" of the lag: --now, else the newest timestamp read (the findings' "now") */
int64_t gl_now(const gcli *c);
/* The lag lines of group gi (its partitions selected), then its status. */
void gl_text(gcli *c, size_t gi);
/* A group-lag object per partition selected, then the group's group-status object. */
void gl_json(gcli *c, size_t gi);
/* --report keys group.<id>.<topic>-<p>.lag= ... of each partition of group gi with a topic name, then
 * group.<id>.status=; key writes the group id as the report's keys do. */
void gl_report(FILE *f, ss_groups *g, size_t gi, const ss_timelines *tl, int64_t now,
               void (*key)(FILE *, const char *, size_t));
/* The page's table: each group's partitions with their lag and status (groups selected by ids,
 * NULL: all). */
void gl_html_table(ss_out *o, ss_groups *g, const ss_timelines *tl, int64_t now, const char *const *ids, size_t nids);

#endif
