/* segscan groups - the small renderings and the selections the text and the JSON share (groups_cli.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"
#include "common/out.h"
#include "groups/gfindings.h"
#include "groups/groups_cli.h"
#include "segscan/base.h"
#include "segscan/groups.h"

void gc_tstr(char *buf, size_t n, int64_t ms) {
    if (ms < 0) snprintf(buf, n, "-");
    else cli_format_time(ms, buf, n);
}

void gc_text_bytes(ss_out *o, const char *s, size_t len) {
    if (!s) out_lit(o, "null");
    else out_text_escaped(o, (const uint8_t *)s, len, false);
}

void gc_json_bytes(ss_out *o, const char *s, size_t len) {
    if (!s) out_lit(o, "null");
    else out_json_utf8(o, (const uint8_t *)s, len);
}

void gc_json_key(ss_out *o, const char *k) {
    out_ch(o, ',');
    out_ch(o, '"');
    out_str(o, k);
    out_lit(o, "\":");
}

void gc_json_i64_or_null(ss_out *o, int64_t v) {
    if (v < 0) out_lit(o, "null");
    else out_i64(o, v);
}

void gc_text_tp(ss_out *o, const ss_gtp_ref *t) {
    if (t->topic) out_text_escaped(o, (const uint8_t *)t->topic, t->topic_len, false);
    else out_printf(o, "topic id %s", t->topic_id ? t->topic_id : "?");
    out_printf(o, "-%" PRId32, t->partition);
}

/* "<topic>-<p>" as a JSON string; a topic known by id only: "<id>-<p>" */
void gc_json_tp(ss_out *o, const ss_gtp_ref *t) {
    char num[16];
    snprintf(num, sizeof num, "-%" PRId32, t->partition);
    size_t tl = t->topic ? t->topic_len : (t->topic_id ? strlen(t->topic_id) : 1);
    size_t nl = strlen(num);
    char *buf = malloc(tl + nl + 1);
    if (!buf) {
        out_lit(o, "null");
        return;
    }
    memcpy(buf, t->topic ? t->topic : (t->topic_id ? t->topic_id : "?"), tl);
    memcpy(buf + tl, num, nl + 1);
    out_json_utf8(o, (const uint8_t *)buf, tl + nl);
    free(buf);
}

bool gc_tp_selected(const gcli *c, const ss_gtp_ref *t) {
    if (c->go.topic && (!t->topic || strcmp(c->go.topic, t->topic) != 0)) return false;
    if (c->go.partition >= 0 && t->partition != c->go.partition) return false;
    return true;
}

/* The events of the group's own timeline; the others (rewinds, commits past the data,
 * transactions aborted or open, epoch bumps) are what the findings rest on, and are
 * printed as findings. */
bool gc_timeline_event(const ss_gevent *e) { return e->kind >= SS_GEV_DELETED && e->kind <= SS_GEV_CREATED; }

bool gc_in_time(const gcli *c, int64_t t) { return t >= c->go.since_ms && t <= c->go.until_ms; }

const char *gc_log_name(char *buf, size_t n, int32_t p) {
    snprintf(buf, n, "__consumer_offsets-%" PRId32, p);
    return buf;
}

void gc_text_parts(ss_out *o, const ss_gtp_ref *v, size_t n, const gcli *c) {
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        if (!gc_tp_selected(c, &v[i])) continue;
        if (!first) out_lit(o, ", ");
        first = false;
        gc_text_tp(o, &v[i]);
    }
    if (first) out_lit(o, "nothing");
}

void gc_json_parts(ss_out *o, const ss_gtp_ref *v, size_t n, const gcli *c) {
    out_ch(o, '[');
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        if (!gc_tp_selected(c, &v[i])) continue;
        if (!first) out_ch(o, ',');
        first = false;
        gc_json_tp(o, &v[i]);
    }
    out_ch(o, ']');
}

bool gc_group_selected(const gcli *c, const ss_group *g) {
    if (!c->go.topic && c->go.partition < 0) return true;
    for (size_t i = 0; i < g->npartitions; i++)
        if (gc_tp_selected(c, &g->partitions[i].tp)) return true;
    return false;
}

/* The run of group gi among n items sorted by group (group_at: item i's group): its first in
 * *first, its length returned. */
static size_t group_run(const ss_findings *f, size_t n, size_t (*group_at)(const ss_findings *, size_t), size_t gi,
                        size_t *first) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (group_at(f, mid) < gi) lo = mid + 1;
        else hi = mid;
    }
    size_t k = lo;
    while (k < n && group_at(f, k) == gi) k++;
    *first = lo;
    return k - lo;
}

static size_t finding_group(const ss_findings *f, size_t i) { return ss_findings_at(f, i)->group; }
static size_t net_group(const ss_findings *f, size_t i) { return ss_findings_net_at(f, i)->group; }

/* the findings of group gi: they are sorted by group */
size_t gc_findings_of(const gcli *c, size_t gi, size_t *first) {
    return group_run(c->f, ss_findings_count(c->f), finding_group, gi, first);
}

bool gc_finding_selected(const gcli *c, const ss_finding *x) {
    if ((x->tp.topic || x->tp.topic_id) && !gc_tp_selected(c, &x->tp)) return false;
    if (!x->tp.topic && !x->tp.topic_id && (c->go.topic || c->go.partition >= 0)) return false;
    return gc_in_time(c, x->time);
}

/* the net answers of group gi: they are sorted by group */
size_t gc_nets_of(const gcli *c, size_t gi, size_t *first) {
    return group_run(c->f, ss_findings_net_count(c->f), net_group, gi, first);
}

size_t gc_net_findings_selected(const gcli *c, const ss_fnet *n) {
    size_t k = 0;
    for (size_t i = n->first; i < n->first + n->nfindings; i++) k += gc_finding_selected(c, ss_findings_at(c->f, i));
    return k;
}

/* ---- a selection that matched nothing: the nearest names ----------------------------------------- */

/* Levenshtein distance over the first 128 bytes of each (names are short; a long one is cut) */
static size_t edit_distance(const char *a, size_t al, const char *b, size_t bl) {
    size_t row[129];
    if (al > 128) al = 128;
    if (bl > 128) bl = 128;
    for (size_t j = 0; j <= bl; j++) row[j] = j;
    for (size_t i = 1; i <= al; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= bl; j++) {
            size_t up = row[j], v = diag + (a[i - 1] != b[j - 1]);
            if (row[j - 1] + 1 < v) v = row[j - 1] + 1;
            if (up + 1 < v) v = up + 1;
            row[j] = v;
            diag = up;
        }
    }
    return row[bl];
}

void gc_near_add(gc_near *nr, const char *want, const char *name, size_t len) {
    if (!name) return;
    for (size_t i = 0; i < nr->n; i++)
        if (nr->len[i] == len && !memcmp(nr->name[i], name, len)) return;
    size_t d = edit_distance(want, strlen(want), name, len);
    size_t at = nr->n;
    while (at > 0 && nr->dist[at - 1] > d) at--;
    if (at >= 3) return;
    size_t last = nr->n < 3 ? nr->n : 2;
    for (size_t i = last; i > at; i--) {
        nr->name[i] = nr->name[i - 1];
        nr->len[i] = nr->len[i - 1];
        nr->dist[i] = nr->dist[i - 1];
    }
    nr->name[at] = name;
    nr->len[at] = len;
    nr->dist[at] = d;
    if (nr->n < 3) nr->n++;
}

void gc_near_print(FILE *f, const gc_near *nr) {
    for (size_t i = 0; i < nr->n; i++) {
        fputs(i ? ", " : "; nearest: ", f);
        for (size_t k = 0; k < nr->len[i]; k++) {
            unsigned char ch = (unsigned char)nr->name[i][k];
            if (ch < 0x20 || ch == 0x7f) fprintf(f, "\\x%02x", ch);
            else fputc(ch, f);
        }
    }
}

bool gc_tp_selection_matches(gcli *c) {
    if (!c->go.topic && c->go.partition < 0) return true;
    gc_near topics = {0};
    bool topic_seen = !c->go.topic;
    /* the partition numbers of the topic (or of every topic), for --partition */
    int32_t nums[16];
    size_t nnums = 0;
    for (size_t i = 0; i < ss_groups_count(c->g); i++) {
        const ss_group *g = ss_groups_at(c->g, i);
        for (size_t k = 0; k < g->npartitions; k++) {
            const ss_gtp_ref *t = &g->partitions[k].tp;
            if (gc_tp_selected(c, t)) return true;
            if (c->go.topic && (!t->topic || strcmp(c->go.topic, t->topic) != 0)) {
                gc_near_add(&topics, c->go.topic, t->topic, t->topic_len);
                continue;
            }
            topic_seen = true;
            bool have = false;
            for (size_t n = 0; n < nnums; n++) have = have || nums[n] == t->partition;
            if (!have && nnums < sizeof nums / sizeof *nums) nums[nnums++] = t->partition;
        }
    }
    fflush(stdout);
    if (!topic_seen) {
        fprintf(stderr, "segscan: groups: --topic %s: no group read has a partition of it", c->go.topic);
        gc_near_print(stderr, &topics);
        fputc('\n', stderr);
        return false;
    }
    fprintf(stderr, "segscan: groups: --partition %" PRId32 ": no group read has it%s%s", c->go.partition,
            c->go.topic ? " in topic " : "", c->go.topic ? c->go.topic : "");
    for (size_t n = 0; n < nnums; n++) fprintf(stderr, "%s%" PRId32, n ? ", " : "; partitions read: ", nums[n]);
    fputc('\n', stderr);
    return false;
}
