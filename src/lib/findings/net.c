/* segscan - the net answer per (group, data partition) (segscan/findings.h,
 * ss_fnet): the ranges of a partition's findings merged by level, so that a
 * record two findings hold (a handover's range and a rewind's over the same
 * offsets) is counted once, and each level holds the ones before it (a record
 * certainly delivered again is also likely and possibly so).
 */
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/javaint.h"
#include "findings_int.h"

const char *ss_fnet_level_name(enum ss_fnet_level l) {
    static const char *const names[] = {"certain", "likely", "possible", "skipped", "skippedPossible"};
    return l < SS_FN_LEVELS ? names[l] : NULL;
}

static int cmp_tp(const ss_gtp_ref *x, const ss_gtp_ref *y) {
    int c = strcmp(x->topic ? x->topic : "", y->topic ? y->topic : "");
    if (!c) c = strcmp(x->topic_id ? x->topic_id : "", y->topic_id ? y->topic_id : "");
    if (c) return c;
    return x->partition < y->partition ? -1 : x->partition > y->partition;
}

/* in the findings' order (findings.c cmp_finding): group, topic, topic id, partition */
static int cmp_net(const void *a, const void *b) {
    const ss_fnet *x = a, *y = b;
    if (x->group != y->group) return x->group < y->group ? -1 : 1;
    return cmp_tp(&x->tp, &y->tp);
}

static bool has_tp(const ss_gtp_ref *t) { return t->topic || t->topic_id; }

typedef struct ivl {
    int64_t a, b; /* b INT64_MAX: the end unknown */
} ivl;

static int cmp_ivl(const void *p, const void *q) {
    const ivl *x = p, *y = q;
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    return x->b < y->b ? -1 : x->b > y->b;
}

typedef struct ivls {
    ivl *v;
    size_t n, cap;
} ivls;

static bool push(ivls *s, const ss_frange *r) {
    if (!r->set || (r->to >= 0 && r->to < r->from)) return true;
    if (!SS_GROW(s->v, s->n, s->cap, 8)) return false;
    s->v[s->n++] = (ivl){r->from, r->to < 0 ? INT64_MAX : r->to};
    return true;
}

/* sum + span, saturating at Long.MAX_VALUE (sum >= 0) */
static int64_t add_span(int64_t sum, uint64_t span) {
    return span > (uint64_t)(INT64_MAX - sum) ? INT64_MAX : sum + (int64_t)span;
}

/* The level's intervals merged into F->nr (neighbours joined: the offsets are whole numbers), counted. */
static bool merge_level(ss_findings *F, const ss_tl_partition *tl, ivls *s, ss_fnet *n, enum ss_fnet_level l) {
    n->records[l] = n->offsets[l] = n->offsets_known[l] = 0;
    n->nranges[l] = 0;
    /* the index of the first range, turned into a pointer once F->nr stops moving (net_build) */
    n->ranges[l] = (const ss_fnet_range *)(uintptr_t)F->nnr;
    if (!s->n) return true;
    qsort(s->v, s->n, sizeof *s->v, cmp_ivl);
    size_t i = 0;
    while (i < s->n) {
        /* the highest known end, if any; offsets are any long (a negative committed offset's
         * range starts at it), so the spans below are counted unsigned and the sums saturate */
        int64_t a = s->v[i].a, b = s->v[i].b, known = b;
        bool has_known = b != INT64_MAX;
        for (i++; i < s->n && (b == INT64_MAX || s->v[i].a <= b + 1); i++) {
            if (s->v[i].b > b) b = s->v[i].b;
            if (s->v[i].b != INT64_MAX && (!has_known || s->v[i].b > known)) known = s->v[i].b, has_known = true;
        }
        if (has_known) n->offsets_known[l] = add_span(n->offsets_known[l], ss_offset_span(a, known));
        if (!SS_GROW(F->nr, F->nnr, F->nrcap, 16)) return false;
        ss_fnet_range *r = &F->nr[F->nnr++];
        r->from = a;
        r->to = b == INT64_MAX ? -1 : b;
        r->records = tl && b != INT64_MAX ? ss_tl_records(F->data, tl, a, b) : -1;
        n->nranges[l]++;
        if (r->records < 0 || n->records[l] < 0) n->records[l] = -1;
        else n->records[l] = add_span(n->records[l], (uint64_t)r->records);
        if (b == INT64_MAX || n->offsets[l] < 0) n->offsets[l] = -1;
        else n->offsets[l] = add_span(n->offsets[l], ss_offset_span(a, b));
    }
    return true;
}

/* n's levels from its findings */
static bool net_ranges(ss_findings *F, ss_fnet *n, ivls *lv) {
    for (int l = 0; l < SS_FN_LEVELS; l++) lv[l].n = 0;
    bool ok = true;
    for (size_t i = n->first; i < n->first + n->nfindings && ok; i++) {
        const ss_finding *x = &F->v[i];
        const ss_frange *redo[] = {&x->redelivered, &x->certain_part};
        for (size_t k = 0; k < 2 && ok; k++) {
            /* every level from the range's own up: certain is likely and possible too */
            int from = redo[k]->certain ? SS_FN_CERTAIN : SS_FN_POSSIBLE;
            for (int l = from; l <= SS_FN_POSSIBLE && ok; l++) ok = push(&lv[l], redo[k]);
        }
        ok = ok && push(&lv[SS_FN_LIKELY], &x->likely) && push(&lv[SS_FN_POSSIBLE], &x->likely);
        if (x->skipped.certain) ok = ok && push(&lv[SS_FN_SKIPPED], &x->skipped);
        ok = ok && push(&lv[SS_FN_SKIPPED], &x->certain_skipped) &&
             push(&lv[SS_FN_SKIPPED_POSSIBLE], &x->certain_skipped) && push(&lv[SS_FN_SKIPPED_POSSIBLE], &x->skipped);
    }
    const ss_tl_partition *tl =
        F->data && n->tp.topic ? ss_timelines_find(F->data, n->tp.topic, n->tp.topic_len, n->tp.partition) : NULL;
    n->data_read = tl != NULL;
    for (int l = 0; l < SS_FN_LEVELS && ok; l++) ok = merge_level(F, tl, &lv[l], n, (enum ss_fnet_level)l);
    return ok;
}

static ss_fnet *add_net(ss_findings *F, size_t gi, const ss_gtp_ref *tp) {
    if (!SS_GROW(F->nets, F->nnets, F->netcap, 16)) return NULL;
    const ss_group *grp = ss_groups_at(F->g, gi);
    ss_fnet *n = &F->nets[F->nnets++];
    memset(n, 0, sizeof *n);
    n->group = gi;
    n->group_id = grp->id;
    n->group_id_len = grp->id_len;
    n->tp = *tp;
    return n;
}

bool net_build(ss_findings *F, size_t g_from, size_t g_to) {
    F->nnets = F->nnr = 0;
    /* the runs of one group's data partition among the findings (sorted by group, partition, time) */
    for (size_t i = 0; i < F->n;) {
        size_t j = i + 1;
        const ss_finding *x = &F->v[i];
        while (j < F->n && F->v[j].group == x->group && !cmp_tp(&F->v[j].tp, &x->tp)) j++;
        if (has_tp(&x->tp)) {
            ss_fnet *n = add_net(F, x->group, &x->tp);
            if (!n) return false;
            n->first = i;
            n->nfindings = j - i;
        }
        i = j;
    }
    /* the partitions of the groups with no finding: an answer too ("nothing") */
    size_t with = F->nnets;
    for (size_t gi = g_from; gi < g_to; gi++) {
        const ss_group *grp = ss_groups_at(F->g, gi);
        for (size_t k = 0; k < grp->npartitions; k++) {
            const ss_gtp_ref *tp = &grp->partitions[k].tp;
            if (!has_tp(tp)) continue;
            ss_fnet key = {.group = gi, .tp = *tp};
            if (with && bsearch(&key, F->nets, with, sizeof *F->nets, cmp_net)) continue;
            if (!add_net(F, gi, tp)) return false;
        }
    }
    if (F->nnets > 1) qsort(F->nets, F->nnets, sizeof *F->nets, cmp_net);
    ivls lv[SS_FN_LEVELS] = {{0}};
    bool ok = true;
    for (size_t i = 0; i < F->nnets && ok; i++) ok = net_ranges(F, &F->nets[i], lv);
    for (int l = 0; l < SS_FN_LEVELS; l++) free(lv[l].v);
    if (!ok) return false;
    /* no pointer into F->nr for an empty level (F->nr may be NULL: no range at all) */
    for (size_t i = 0; i < F->nnets; i++)
        for (int l = 0; l < SS_FN_LEVELS; l++)
            F->nets[i].ranges[l] = F->nets[i].nranges[l] ? F->nr + (uintptr_t)F->nets[i].ranges[l] : NULL;
    return true;
}

void net_free(ss_findings *F) {
    free(F->nets);
    free(F->nr);
    F->nets = NULL;
    F->nr = NULL;
    F->nnets = F->netcap = F->nnr = F->nrcap = 0;
}

size_t ss_findings_net_count(const ss_findings *f) { return f ? f->nnets : 0; }
const ss_fnet *ss_findings_net_at(const ss_findings *f, size_t i) { return &f->nets[i]; }

/* n against (group gi, topic): the nets' order (cmp_net), topic ids aside */
static int cmp_group_topic(const ss_fnet *n, size_t gi, const char *topic, size_t len) {
    if (n->group != gi) return n->group < gi ? -1 : 1;
    const char *t = n->tp.topic ? n->tp.topic : "";
    size_t tl = n->tp.topic ? n->tp.topic_len : 0, m = tl < len ? tl : len;
    int c = memcmp(t, topic, m);
    if (c) return c;
    return tl < len ? -1 : tl > len;
}

const ss_fnet *ss_findings_net_of(const ss_findings *f, size_t gi, const char *topic, size_t topic_len,
                                  int32_t partition) {
    if (!f || !topic) return NULL;
    size_t lo = 0, hi = f->nnets;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_group_topic(&f->nets[mid], gi, topic, topic_len) < 0) lo = mid + 1;
        else hi = mid;
    }
    /* the topic's partitions, by topic id then partition: one id (or none), the usual case, by halves */
    size_t end = lo;
    for (size_t h = f->nnets; end < h;) {
        size_t mid = end + (h - end) / 2;
        if (cmp_group_topic(&f->nets[mid], gi, topic, topic_len) <= 0) end = mid + 1;
        else h = mid;
    }
    if (end > lo) {
        const char *a = f->nets[lo].tp.topic_id, *b = f->nets[end - 1].tp.topic_id;
        if (a == b || (a && b && !strcmp(a, b))) {
            size_t l = lo, h = end;
            while (l < h) {
                size_t mid = l + (h - l) / 2;
                if (f->nets[mid].tp.partition < partition) l = mid + 1;
                else h = mid;
            }
            return l < end && f->nets[l].tp.partition == partition ? &f->nets[l] : NULL;
        }
    }
    for (size_t i = lo; i < end; i++)
        if (f->nets[i].tp.partition == partition) return &f->nets[i];
    return NULL;
}

const ss_fnet_range *ss_fnet_range_at(const ss_fnet *n, enum ss_fnet_level l, int64_t offset) {
    if (!n || l >= SS_FN_LEVELS) return NULL;
    for (size_t i = 0; i < n->nranges[l]; i++) {
        const ss_fnet_range *r = &n->ranges[l][i];
        if (offset >= r->from && (r->to < 0 || offset <= r->to)) return r;
    }
    return NULL;
}

enum ss_fnet_level ss_fnet_level_of(const ss_fnet *n, int64_t offset) {
    for (int l = 0; l < SS_FN_LEVELS; l++)
        if (ss_fnet_range_at(n, (enum ss_fnet_level)l, offset)) return (enum ss_fnet_level)l;
    return SS_FN_LEVELS;
}
