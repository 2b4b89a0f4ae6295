/* segscan - the consumer groups beside the analysis commands: when a
 * __consumer_offsets partition is among the inputs (for explain and dups, also
 * when one lies beside a partition given, in its log directory), the groups'
 * history and findings (segscan/findings.h) tied to what the analysis found:
 *   - scan: a groups line in the summary, group-finding objects with --json,
 *     the group.* and total.groups.* report keys, --fail-on redelivered,
 *     skipped, rewind;
 *   - explain: for the matched record's partition and offset, every finding
 *     whose range holds it, or why none can be said;
 *   - explain and dups: a copy in an output topic (new-session, same-session)
 *     and the findings of consumed partitions between its time and the
 *     original's: it coincides in time, worded as a coincidence; a
 *     transactional copy whose transaction committed offsets too: the link is
 *     exact (the same producer id and epoch, between the same markers).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"
#include "common/out.h"
#include "groups/gfindings.h"
#include "groups/glag.h"
#include "views/scan.h"

struct scan_groups {
    ss_study *st; /* the PATHs again, the coordinators' partitions beside them, and what they say */
    ss_timelines *tl;
    ss_groups *g;
    ss_findings *f;
    size_t *by_tp;   /* finding indices by (topic, partition, time) */
    size_t *by_time; /* the handovers, rewinds, resets and offset deletions by time */
    size_t nby_time;
    size_t *net_by_tp; /* net answer indices by (topic, partition) */
};

static const ss_finding *at(const struct scan_groups *s, size_t i) { return ss_findings_at(s->f, i); }

/* a data partition against (topic, partition): by topic bytes, then partition */
static int cmp_ref(const ss_gtp_ref *r, const char *topic, size_t len, int32_t partition) {
    const char *t = r->topic ? r->topic : "";
    size_t tl = r->topic ? r->topic_len : 0;
    size_t m = tl < len ? tl : len;
    int c = memcmp(t, topic, m);
    if (c) return c;
    if (tl != len) return tl < len ? -1 : 1;
    return r->partition < partition ? -1 : r->partition > partition;
}

static int cmp_tp(const ss_finding *x, const char *topic, size_t len, int32_t partition) {
    return cmp_ref(&x->tp, topic, len, partition);
}

static const struct scan_groups *sort_ctx;

static int cmp_by_tp(const void *a, const void *b) {
    const ss_finding *x = at(sort_ctx, *(const size_t *)a), *y = at(sort_ctx, *(const size_t *)b);
    int c = cmp_tp(x, y->tp.topic ? y->tp.topic : "", y->tp.topic ? y->tp.topic_len : 0, y->tp.partition);
    if (c) return c;
    if (x->time != y->time) return x->time < y->time ? -1 : 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int cmp_net_tp(const ss_fnet *x, const char *topic, size_t len, int32_t partition) {
    return cmp_ref(&x->tp, topic, len, partition);
}

static int cmp_net_by_tp(const void *a, const void *b) {
    const ss_fnet *x = ss_findings_net_at(sort_ctx->f, *(const size_t *)a),
                  *y = ss_findings_net_at(sort_ctx->f, *(const size_t *)b);
    int c = cmp_net_tp(x, y->tp.topic ? y->tp.topic : "", y->tp.topic ? y->tp.topic_len : 0, y->tp.partition);
    if (c) return c;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int cmp_by_time(const void *a, const void *b) {
    const ss_finding *x = at(sort_ctx, *(const size_t *)a), *y = at(sort_ctx, *(const size_t *)b);
    if (x->time != y->time) return x->time < y->time ? -1 : 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* a finding that can make a consumer read records again: a copy written after it may come of that */
/* a finding after which a consumer may have read its input again: one with records delivered
 * again (possibly), or a handover (or a member after an empty group) where auto.offset.reset
 * decided (earliest reads everything again); not a handover with nothing to deliver twice, nor a deletion or reset that only
 * skipped records */
static bool moves_consumers(const ss_finding *x) {
    if (x->kind != SS_FK_HANDOVER && x->kind != SS_FK_REWIND && x->kind != SS_FK_RESET &&
        x->kind != SS_FK_OFFSETS_DELETED && x->kind != SS_FK_EMPTY_GROUP)
        return false;
    if (x->redelivered.set) return true;
    return (x->kind == SS_FK_HANDOVER || x->kind == SS_FK_EMPTY_GROUP) && x->resumed_offset < 0 && !x->shared;
}

int scan_groups_read(struct scan_cli *c, char **paths, int npaths, bool include_temp, bool beside,
                     const ss_inputs *read) {
    struct scan_groups *s = calloc(1, sizeof *s);
    if (!s) return EXIT_TROUBLE;
    c->sg = s;
    ss_study_opts so;
    ss_study_opts_default(&so);
    ss_study_opts_from_analysis(&so, &c->ao);
    so.include_temp = include_temp;
    so.beside = beside;
    so.inputs_reported = true;
    so.read_before = read;
    so.analysis = c->an; /* of `read`: the data partitions' batch headers it read */
    so.groups.groups = c->group_ids;
    so.groups.ngroups = c->ngroup_ids;
    /* --html draws the committed offsets over time: every commit, within --max-memory */
    so.groups.commits = c->html != NULL;
    if (c->html) so.groups.max_memory = c->ao.max_memory;
    if (ss_study_run((const char *const *)paths, (size_t)npaths, &so, &s->st) != SS_E_OK) {
        warnx_("out of memory reading the consumer groups");
        return EXIT_TROUBLE;
    }
    warn_problems(ss_study_problems(s->st), c->quiet);
    if (!ss_study_has_groups(s->st)) return EXIT_OK;
    s->tl = ss_study_timelines(s->st);
    s->g = ss_study_groups(s->st);
    s->f = ss_study_findings(s->st);
    int rc = ss_study_incomplete(s->st) ? EXIT_TROUBLE : EXIT_OK;
    /* a damaged batch of __consumer_offsets is the analysis's damage (it reads the same
     * segments); a coordinator record whose payload cannot be decoded only leaves the
     * groups' history short, and says so */
    if (s->g && ss_groups_damage(s->g) && !c->quiet)
        warnx_("note: some __consumer_offsets records could not be read: the groups' findings may be incomplete");
    if (!s->f) return rc;
    size_t n = ss_findings_count(s->f);
    s->by_tp = malloc((n ? n : 1) * sizeof *s->by_tp);
    s->by_time = malloc((n ? n : 1) * sizeof *s->by_time);
    if (!s->by_tp || !s->by_time) return exit_merge(rc, EXIT_TROUBLE);
    for (size_t i = 0; i < n; i++) {
        s->by_tp[i] = i;
        if (moves_consumers(at(s, i))) s->by_time[s->nby_time++] = i;
    }
    size_t nn = ss_findings_net_count(s->f);
    s->net_by_tp = malloc((nn ? nn : 1) * sizeof *s->net_by_tp);
    if (!s->net_by_tp) return exit_merge(rc, EXIT_TROUBLE);
    for (size_t i = 0; i < nn; i++) s->net_by_tp[i] = i;
    sort_ctx = s;
    qsort(s->net_by_tp, nn, sizeof *s->net_by_tp, cmp_net_by_tp);
    qsort(s->by_tp, n, sizeof *s->by_tp, cmp_by_tp);
    qsort(s->by_time, s->nby_time, sizeof *s->by_time, cmp_by_time);
    return rc;
}

void scan_groups_parts(const struct scan_cli *c, ss_timelines **tl, ss_groups **g, ss_findings **f) {
    const struct scan_groups *s = c->sg;
    *tl = s && s->g ? s->tl : NULL;
    *g = s ? s->g : NULL;
    *f = s ? s->f : NULL;
}

void scan_groups_free(struct scan_cli *c) {
    struct scan_groups *s = c->sg;
    if (!s) return;
    ss_study_free(s->st);
    free(s->by_tp);
    free(s->by_time);
    free(s->net_by_tp);
    free(s);
    c->sg = NULL;
}

static bool have(const struct scan_cli *c) { return c->sg && c->sg->f; }
bool scan_groups_have(const struct scan_cli *c) { return have(c); }

/* ---- scan --------------------------------------------------------------------------------------- */

/* figures of a set of findings (one group's partition, or all) */
typedef struct gsum {
    uint64_t handovers, unclean, rewinds, resets, deleted, aborted, certain, possible, skipped;
    uint64_t twice_likely, twice_possible, never_certain; /* the net answer's levels (certain, skipped: above) */
} gsum;

/* the kinds of a finding (its ranges: the net answers, sum_net) */
static void sum_add(gsum *s, const ss_finding *x) {
    switch (x->kind) {
    case SS_FK_HANDOVER:
        if (x->shared) break; /* a note: two members given it by one record */
        s->handovers++;
        if (x->clean == 0) s->unclean++;
        break;
    case SS_FK_REWIND: s->rewinds++; break;
    case SS_FK_RESET: s->resets++; break;
    case SS_FK_OFFSETS_DELETED: s->deleted++; break;
    case SS_FK_ABORTED_COMMIT: s->aborted++; break;
    default: break;
    }
}

/* a net answer's records (offsets when the data partition was not read): certainly and possibly again (the
 * possible less the certain), possibly never received; and the levels of the report's twice_* and never_* keys */
static void sum_net(gsum *m, const ss_fnet *n) {
    uint64_t certain = gn_count(n, SS_FN_CERTAIN), all = gn_count(n, SS_FN_POSSIBLE);
    m->certain += certain;
    m->possible += all > certain ? all - certain : 0;
    m->skipped += gn_count(n, SS_FN_SKIPPED_POSSIBLE);
    m->twice_likely += gn_count(n, SS_FN_LIKELY);
    m->twice_possible += all;
    m->never_certain += gn_count(n, SS_FN_SKIPPED);
}

/* every finding's kinds, and every net answer's records */
static void sum_all(struct scan_groups *s, gsum *m) {
    for (size_t i = 0; i < ss_findings_count(s->f); i++) sum_add(m, at(s, i));
    for (size_t i = 0; i < ss_findings_net_count(s->f); i++) sum_net(m, ss_findings_net_at(s->f, i));
}

void scan_groups_summary(struct scan_cli *c) {
    if (!have(c)) return;
    struct scan_groups *s = c->sg;
    ss_out *o = c->out;
    gsum t = {0};
    sum_all(s, &t);
    size_t nl = ss_groups_log_count(s->g);
    out_printf(o,
               "  groups        %zu read (%zu of %" PRId32 " __consumer_offsets partitions): %" PRIu64 " %s (%" PRIu64
               " unclean), %" PRIu64 " %s, %" PRIu64 " %s, %" PRIu64 " %s deleted, %" PRIu64 " aborted %s; %" PRIu64
               " %s certainly delivered again, %" PRIu64 " possibly; %" PRIu64 " possibly never received\n",
               ss_groups_count(s->g), nl, ss_groups_partition_count(s->g), t.handovers,
               plural(t.handovers, "handover", "handovers"), t.unclean, t.rewinds,
               plural(t.rewinds, "rewind", "rewinds"), t.resets, plural(t.resets, "reset", "resets"), t.deleted,
               plural(t.deleted, "offset", "offsets"), t.aborted, plural(t.aborted, "commit", "commits"), t.certain,
               plural(t.certain, "record", "records"), t.possible, t.skipped);
}

void scan_groups_json(struct scan_cli *c) {
    if (!have(c)) return;
    for (size_t i = 0; i < ss_findings_count(c->sg->f); i++) gf_json(c->out, at(c->sg, i), ss_findings_now(c->sg->f));
    /* the net answers of the partitions with findings (groups --json writes every partition's) */
    for (size_t i = 0; i < ss_findings_net_count(c->sg->f); i++) {
        const ss_fnet *n = ss_findings_net_at(c->sg->f, i);
        if (n->nfindings) gn_json(c->out, n);
    }
}

bool scan_groups_failed(const struct scan_cli *c) {
    if (!have(c)) return false;
    for (size_t i = 0; i < ss_findings_count(c->sg->f); i++)
        if (gf_fails(at(c->sg, i), c->fail_on & FAIL_REWIND)) return true;
    for (size_t i = 0; i < ss_findings_net_count(c->sg->f); i++)
        if (gn_fails(ss_findings_net_at(c->sg->f, i), c->fail_on)) return true;
    return false;
}

/* a group id in a report key: every byte outside [A-Za-z0-9_-] percent-encoded */
static void key_id(FILE *f, const char *id, size_t len) {
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)id[i];
        if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-')
            fputc(ch, f);
        else fprintf(f, "%%%02X", ch);
    }
}

/* the report's keys of a set of findings: their kinds, then the net answer's levels (twice_*, never_*: records
 * counted once per level, the levels nesting) */
static const char *const report_names[] = {
    "handovers",           "unclean_handovers",    "rewinds",       "resets",          "offsets_deleted",
    "redelivered_certain", "redelivered_possible", "skipped",       "aborted_commits", "twice_certain",
    "twice_likely",        "twice_possible",       "never_certain", "never_possible"};

static void report_values(const gsum *m, uint64_t *v) {
    const uint64_t w[] = {m->handovers,    m->unclean,        m->rewinds,       m->resets,  m->deleted,
                          m->certain,      m->possible,       m->skipped,       m->aborted, m->certain,
                          m->twice_likely, m->twice_possible, m->never_certain, m->skipped};
    memcpy(v, w, sizeof w);
}

void scan_groups_report(const struct scan_cli *c, FILE *f) {
    if (!have(c)) return;
    struct scan_groups *s = c->sg;
    enum { NKEYS = sizeof report_names / sizeof *report_names };
    uint64_t v[NKEYS];
    gsum total = {0};
    for (size_t gi = 0; gi < ss_groups_count(s->g); gi++) {
        const ss_group *g = ss_groups_at(s->g, gi);
        for (size_t k = 0; k < g->npartitions; k++) {
            const ss_gpartition *p = &g->partitions[k];
            if (!p->tp.topic) continue;
            gsum m = {0};
            const ss_fnet *n = ss_findings_net_of(s->f, gi, p->tp.topic, p->tp.topic_len, p->tp.partition);
            if (n) {
                for (size_t i = n->first; i < n->first + n->nfindings; i++) sum_add(&m, at(s, i));
                sum_net(&m, n);
            }
            report_values(&m, v);
            fputs("group.", f);
            key_id(f, g->id, g->id_len);
            fprintf(f, ".%s-%" PRId32 ".committed=%" PRId64 "\n", p->tp.topic, p->tp.partition, p->offset);
            for (size_t i = 0; i < NKEYS; i++) {
                fputs("group.", f);
                key_id(f, g->id, g->id_len);
                fprintf(f, ".%s-%" PRId32 ".%s=%" PRIu64 "\n", p->tp.topic, p->tp.partition, report_names[i], v[i]);
            }
        }
        gl_report(f, s->g, gi, s->tl, ss_findings_now(s->f), key_id);
    }
    sum_all(s, &total);
    report_values(&total, v);
    fprintf(f, "total.groups.groups=%zu\n", ss_groups_count(s->g));
    for (size_t i = 0; i < NKEYS; i++) fprintf(f, "total.groups.%s=%" PRIu64 "\n", report_names[i], v[i]);
}

/* ---- explain: the deliveries of a record ----------------------------------------------------------- */

/* the findings of one data partition: [*first, return) of by_tp */
static size_t of_partition(const struct scan_groups *s, const char *topic, int32_t partition, size_t *first) {
    size_t n = ss_findings_count(s->f), lo = 0, hi = n, len = strlen(topic);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_tp(at(s, s->by_tp[mid]), topic, len, partition) < 0) lo = mid + 1;
        else hi = mid;
    }
    size_t k = lo;
    while (k < n && !cmp_tp(at(s, s->by_tp[k]), topic, len, partition)) k++;
    *first = lo;
    return k;
}

static bool covers(const ss_finding *x, int64_t offset) { return gf_range_for(x, offset) != NULL; }

/* the findings of a record's partition that hold it, by covering_next, one per call */
struct covering {
    size_t k, end;
    int64_t offset;
};

static struct covering covering_of(const struct scan_cli *c, const ss_input_partition *ip, int64_t offset) {
    struct covering it = {0, 0, offset};
    if (have(c) && ip->partition >= 0) it.end = of_partition(c->sg, ip->topic, ip->partition, &it.k);
    return it;
}

static const ss_finding *covering_next(const struct scan_cli *c, struct covering *it) {
    while (it->k < it->end) {
        const ss_finding *x = at(c->sg, c->sg->by_tp[it->k++]);
        if (covers(x, it->offset)) return x;
    }
    return NULL;
}

/* "deliveries: ..." when no finding holds a record: why nothing can be said */
static void why_text(const struct scan_cli *c, ss_out *o, enum ss_fwhy w, const ss_input_partition *ip, int32_t cpn,
                     int64_t from);

static const char *why_key(enum ss_fwhy w) {
    switch (w) {
    case SS_FW_NO_HISTORY: return "no-history";
    case SS_FW_NOT_READ: return "coordinator-not-read";
    case SS_FW_NO_GROUP: return "no-group";
    case SS_FW_COMPACTED: return "compacted";
    default: return "nothing";
    }
}

static void why_text(const struct scan_cli *c, ss_out *o, enum ss_fwhy w, const ss_input_partition *ip, int32_t cpn,
                     int64_t from) {
    char t[64];
    switch (w) {
    case SS_FW_NO_HISTORY:
        out_str(o, "no group history read (no __consumer_offsets partition among the inputs or beside them)");
        break;
    case SS_FW_NOT_READ:
        if (cpn >= 0)
            out_printf(o, "the group's coordinator partition __consumer_offsets-%" PRId32 " was not read", cpn);
        else
            out_printf(o,
                       "none known: %zu of the %" PRId32 " __consumer_offsets partitions read, and a group of the "
                       "others may read %s",
                       ss_groups_log_count(c->sg->g), ss_groups_partition_count(c->sg->g), ip->name);
        break;
    case SS_FW_NO_GROUP: out_printf(o, "no group read committed or owned %s", ip->name); break;
    case SS_FW_COMPACTED:
        cli_format_time(from, t, sizeof t);
        out_printf(o,
                   "history compacted before %s: __consumer_offsets-%" PRId32
                   " keeps only the last commit of each partition before it",
                   t, cpn);
        break;
    default:
        /* ConsumerCoordinator.onJoinPrepare (EAGER) revokes every partition, so a member that keeps one
         * across an eager rebalance resumes from its last commit too: the history keeps one ownership
         * per run of a member, so that case is not looked for, and the sentence says so */
        out_str(o, "no finding covers it: the groups read show no handover, rewind, reset or deletion that "
                   "re-delivers or skips it (not looked for: a member that kept the partition across an eager "
                   "rebalance, which resumes from its last commit)");
        break;
    }
}

static const ss_input_partition *input_of(const struct scan_cli *c, const ss_an_copy *cp) {
    return ss_an_partition_at(c->an, cp->partition)->input;
}

static enum ss_fwhy why_none(struct scan_cli *c, const ss_an_copy *cp, int32_t *coordinator, int64_t *from) {
    const ss_input_partition *ip = input_of(c, cp);
    if (!have(c)) {
        *coordinator = -1;
        *from = -1;
        if (c->ngroup_ids) {
            *coordinator = ss_coordinator_partition((const uint8_t *)c->group_ids[0], strlen(c->group_ids[0]), 50);
            return SS_FW_NOT_READ;
        }
        return SS_FW_NO_HISTORY;
    }
    return ss_findings_why_none(c->sg->f, ip->topic, strlen(ip->topic), ip->partition, cp->timestamp,
                                c->ngroup_ids ? c->group_ids[0] : NULL, coordinator, from);
}

/* the net answers (one per group) of a record's partition that hold it, by net_next, one per call */
struct net_it {
    size_t k;
    const char *topic;
    size_t topic_len;
    int32_t partition;
    int64_t offset;
    enum ss_fnet_level level;
};

static const ss_fnet *net_next(const struct scan_cli *c, struct net_it *it) {
    if (!have(c) || !it->topic || it->partition < 0 || !c->sg->net_by_tp) return NULL;
    const struct scan_groups *s = c->sg;
    size_t n = ss_findings_net_count(s->f);
    if (it->k == SIZE_MAX) {
        /* the first of the partition's, by net_by_tp */
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (cmp_net_tp(ss_findings_net_at(s->f, s->net_by_tp[mid]), it->topic, it->topic_len, it->partition) < 0)
                lo = mid + 1;
            else hi = mid;
        }
        it->k = lo;
    }
    while (it->k < n) {
        const ss_fnet *x = ss_findings_net_at(s->f, s->net_by_tp[it->k++]);
        if (cmp_net_tp(x, it->topic, it->topic_len, it->partition)) break;
        it->level = ss_fnet_level_of(x, it->offset);
        if (it->level < SS_FN_LEVELS) return x;
    }
    it->k = n;
    return NULL;
}

static struct net_it net_it_of(const ss_input_partition *ip, int64_t offset) {
    return (struct net_it){SIZE_MAX, ip->topic, ip->topic ? strlen(ip->topic) : 0, ip->partition, offset, SS_FN_LEVELS};
}

static const char *level_words(enum ss_fnet_level l) {
    switch (l) {
    case SS_FN_CERTAIN: return "certainly delivered again";
    case SS_FN_LIKELY: return "likely delivered twice";
    case SS_FN_POSSIBLE: return "possibly delivered twice";
    case SS_FN_SKIPPED: return "certainly never received";
    default: return "possibly never received";
    }
}

/* "net: group G: certainly delivered again (offsets A..B, its findings merged)", a line per group holding it */
static size_t nets_text(struct scan_cli *c, const ss_input_partition *ip, int64_t offset, const char *indent) {
    ss_out *o = c->out;
    size_t shown = 0;
    struct net_it it = net_it_of(ip, offset);
    for (const ss_fnet *x; (x = net_next(c, &it));) {
        const ss_fnet_range *r = ss_fnet_range_at(x, it.level, offset);
        out_printf(o, "%s%s net of group ", indent, shown++ ? "           " : "deliveries:");
        out_text_escaped(o, (const uint8_t *)x->group_id, x->group_id_len, false);
        out_printf(o, ": %s (", level_words(it.level));
        if (r->to < 0) out_printf(o, "offsets from %" PRId64 " on", r->from);
        else out_printf(o, "offsets %" PRId64 "..%" PRId64, r->from, r->to);
        out_printf(o, ", its %zu %s merged)\n", x->nfindings, plural(x->nfindings, "finding", "findings"));
    }
    return shown;
}

void scan_deliveries_text(struct scan_cli *c, const ss_an_copy *cp, const char *indent) {
    ss_out *o = c->out;
    const ss_input_partition *ip = input_of(c, cp);
    size_t shown = nets_text(c, ip, cp->offset, indent);
    struct covering it = covering_of(c, ip, cp->offset);
    for (const ss_finding *x; (x = covering_next(c, &it));) {
        out_printf(o, "%s%s ", indent, shown++ ? "           " : "deliveries:");
        out_str(o, "group ");
        out_text_escaped(o, (const uint8_t *)x->group_id, x->group_id_len, false);
        out_str(o, ": ");
        gf_covering_text(o, x, cp->offset);
        out_ch(o, '\n');
    }
    if (shown) return;
    int32_t cpn;
    int64_t from;
    enum ss_fwhy w = why_none(c, cp, &cpn, &from);
    out_printf(o, "%sdeliveries: ", indent);
    why_text(c, o, w, ip, cpn, from);
    out_ch(o, '\n');
}

void scan_deliveries_json(struct scan_cli *c, const ss_an_copy *cp) {
    ss_out *o = c->out;
    const ss_input_partition *ip = input_of(c, cp);
    out_json_key(o, "deliveries");
    out_ch(o, '[');
    size_t shown = 0;
    struct covering it = covering_of(c, ip, cp->offset);
    for (const ss_finding *x; (x = covering_next(c, &it));) {
        const ss_frange *r = gf_range_for(x, cp->offset);
        if (shown++) out_ch(o, ',');
        out_str(o, "{\"group\":");
        out_json_utf8(o, (const uint8_t *)x->group_id, x->group_id_len);
        out_json_key(o, "kind");
        out_json_cstr(o, ss_fkind_name(x->kind));
        out_json_key(o, "time");
        out_i64(o, x->time);
        out_kv_bool(o, "certain", r->certain);
        out_json_key(o, "what");
        out_json_cstr(o, r == &x->skipped           ? "skipped"
                         : r == &x->certain_skipped ? "certainSkipped"
                         : r == &x->likely          ? "likelyRedelivered"
                         : r == &x->certain_part    ? "certainRedelivered"
                                                    : "redelivered");
        gf_json_range(o, "range", r);
        out_ch(o, '}');
    }
    out_ch(o, ']');
    /* the net answer of each group whose findings hold it: its strongest level */
    out_json_key(o, "deliveriesNet");
    out_ch(o, '[');
    size_t nn = 0;
    struct net_it nit = net_it_of(ip, cp->offset);
    for (const ss_fnet *x; (x = net_next(c, &nit));) {
        const ss_fnet_range *r = ss_fnet_range_at(x, nit.level, cp->offset);
        if (nn++) out_ch(o, ',');
        out_str(o, "{\"group\":");
        out_json_utf8(o, (const uint8_t *)x->group_id, x->group_id_len);
        out_json_key(o, "level");
        out_json_cstr(o, ss_fnet_level_name(nit.level));
        out_json_key(o, "range");
        gn_json_range(o, r);
        out_ch(o, '}');
    }
    out_ch(o, ']');
    out_json_key(o, "deliveriesNone");
    if (shown) {
        out_str(o, "null");
        return;
    }
    int32_t cpn;
    int64_t from;
    enum ss_fwhy w = why_none(c, cp, &cpn, &from);
    out_str(o, "{\"why\":");
    out_json_cstr(o, why_key(w));
    out_json_key(o, "coordinatorPartition");
    if (cpn >= 0) out_printf(o, "\"__consumer_offsets-%" PRId32 "\"", cpn);
    else out_str(o, "null");
    out_kv_opt(o, "completeFrom", from);
    out_ch(o, '}');
}

/* ---- explain, dups: a copy's links -------------------------------------------------------------------- */

/* the finding whose transaction wrote this copy (its outputs hold it), or NULL */
static const ss_finding *link_of(const struct scan_cli *c, const ss_an_copy *cp) {
    if (!have(c) || !cp->transactional || cp->producer_id < 0) return NULL;
    const ss_input_partition *ip = input_of(c, cp);
    for (size_t i = 0; i < ss_findings_count(c->sg->f); i++) {
        const ss_finding *x = at(c->sg, i);
        if (x->producer_id != cp->producer_id || x->producer_epoch != cp->producer_epoch) continue;
        for (size_t k = 0; k < x->noutputs; k++) {
            const ss_foutput *w = &x->outputs[k];
            if (w->partition == ip->partition && !strcmp(w->topic, ip->topic) && cp->offset >= w->from &&
                cp->offset <= w->to)
                return x;
        }
    }
    return NULL;
}

/* the findings of consumed partitions (not the copy's topic) between two times: [*first, return) of by_time */
static size_t between(const struct scan_groups *s, int64_t t1, int64_t t2, size_t *first) {
    size_t lo = 0, hi = s->nby_time;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (at(s, s->by_time[mid])->time < t1) lo = mid + 1;
        else hi = mid;
    }
    size_t k = lo;
    while (k < s->nby_time && at(s, s->by_time[k])->time <= t2) k++;
    *first = lo;
    return k;
}

static bool coincides(const struct scan_cli *c, const ss_an_copy *cp, const ss_finding *x) {
    const ss_input_partition *ip = input_of(c, cp);
    return !(x->tp.topic && !strcmp(x->tp.topic, ip->topic));
}

enum { MAX_COINCIDENCES = 5 };

/* The findings of consumed partitions between the two copies' times, nearest the copy first: the
 * consumer whose input came again shortly before a copy is the likelier writer of it (a group's
 * events seconds away say less). Indices into by_time, malloc'ed ([0, *n)); NULL: none or no memory. */
static int64_t near_ts;
static const struct scan_groups *near_ctx;

static int64_t gap_of(const ss_finding *x, int64_t ts) { return ts >= x->time ? ts - x->time : x->time - ts; }

static int cmp_near(const void *a, const void *b) {
    const ss_finding *x = at(near_ctx, near_ctx->by_time[*(const size_t *)a]);
    const ss_finding *y = at(near_ctx, near_ctx->by_time[*(const size_t *)b]);
    int64_t gx = gap_of(x, near_ts), gy = gap_of(y, near_ts);
    if (gx != gy) return gx < gy ? -1 : 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static size_t *nearest_first(const struct scan_cli *c, const ss_an_copy *orig, const ss_an_copy *cp, size_t *n) {
    int64_t t1 = orig->timestamp < cp->timestamp ? orig->timestamp : cp->timestamp;
    int64_t t2 = orig->timestamp < cp->timestamp ? cp->timestamp : orig->timestamp;
    size_t first, end = between(c->sg, t1, t2, &first);
    *n = 0;
    size_t *v = malloc((end > first ? end - first : 1) * sizeof *v);
    if (!v) return NULL;
    for (size_t k = first; k < end; k++)
        if (coincides(c, cp, at(c->sg, c->sg->by_time[k]))) v[(*n)++] = k;
    near_ts = cp->timestamp;
    near_ctx = c->sg;
    qsort(v, *n, sizeof *v, cmp_near);
    return v;
}

/* "70 ms before the copy", "9.5 s before the copy (seconds away)" */
static void gap_text(ss_out *o, const ss_finding *x, int64_t ts) {
    int64_t g = gap_of(x, ts);
    const char *side = x->time <= ts ? "before" : "after";
    if (g < 1000) out_printf(o, "%" PRId64 " ms %s the copy", g, side);
    else out_printf(o, "%" PRId64 ".%" PRId64 " s %s the copy (seconds away)", g / 1000, g % 1000 / 100, side);
}

void scan_copy_links_text(struct scan_cli *c, const ss_an_copy *orig, const ss_an_copy *cp, const char *indent) {
    if (!have(c)) return;
    ss_out *o = c->out;
    char t[64];
    const ss_finding *l = link_of(c, cp);
    if (l) {
        cli_format_time(l->time, t, sizeof t);
        out_printf(o, "%sexact link: written by the transaction that carried group ", indent);
        out_text_escaped(o, (const uint8_t *)l->group_id, l->group_id_len, false);
        out_str(o, "'s offset commit of ");
        gf_tp_text(o, &l->tp);
        out_printf(o, " to %" PRId64 " (the same producer id and epoch, between the same markers); ", l->commit_offset);
        if (l->kind == SS_FK_ABORTED_COMMIT)
            out_printf(o,
                       "aborted at %s: its input is read again if the application rewinds to the committed offset "
                       "(Kafka Streams and Kafka's exactly-once example do)\n",
                       t);
        else out_printf(o, "no marker yet (its commit at %s)\n", t);
    }
    if (cp->cause != SS_CAUSE_NEW_SESSION && cp->cause != SS_CAUSE_SAME_SESSION) return;
    size_t n, shown = 0, more = 0;
    size_t *v = nearest_first(c, orig, cp, &n);
    for (size_t i = 0; v && i < n; i++) {
        const ss_finding *x = at(c->sg, c->sg->by_time[v[i]]);
        if (shown >= MAX_COINCIDENCES) {
            more++;
            continue;
        }
        cli_format_time(x->time, t, sizeof t);
        out_printf(o, "%s%s in time: %s of ", indent, shown++ ? "    and" : "coincides", ss_fkind_name(x->kind));
        gf_tp_text(o, &x->tp);
        out_str(o, " in group ");
        out_text_escaped(o, (const uint8_t *)x->group_id, x->group_id_len, false);
        out_printf(o, " at %s, ", t);
        gap_text(o, x, cp->timestamp);
        if (x->kind == SS_FK_HANDOVER && x->resumed_offset >= 0)
            out_printf(o, " (resumed at %" PRId64 ", %s)", x->resumed_offset, gf_clean_word(x));
        out_str(o, ": a consumer that read its input again would write it again; a coincidence, not a proof\n");
    }
    if (more) out_printf(o, "%s    and %zu more\n", indent, more);
    free(v);
}

void scan_copy_links_json(struct scan_cli *c, const ss_an_copy *orig, const ss_an_copy *cp) {
    if (!have(c)) return;
    ss_out *o = c->out;
    const ss_finding *l = link_of(c, cp);
    out_json_key(o, "transactionLink");
    if (l) {
        out_str(o, "{\"group\":");
        out_json_utf8(o, (const uint8_t *)l->group_id, l->group_id_len);
        out_json_key(o, "kind");
        out_json_cstr(o, ss_fkind_name(l->kind));
        out_json_key(o, "topic");
        out_json_utf8(o, (const uint8_t *)l->tp.topic, l->tp.topic_len);
        out_json_key(o, "partition");
        out_i64(o, l->tp.partition);
        out_kv_opt(o, "commitOffset", l->commit_offset);
        out_json_key(o, "time");
        out_i64(o, l->time);
        out_str(o, ",\"exact\":true}");
    } else {
        out_str(o, "null");
    }
    if (cp->cause != SS_CAUSE_NEW_SESSION && cp->cause != SS_CAUSE_SAME_SESSION) return;
    size_t n, shown = 0;
    size_t *v = nearest_first(c, orig, cp, &n);
    out_json_key(o, "coincidences");
    out_ch(o, '[');
    for (size_t i = 0; v && i < n; i++) {
        const ss_finding *x = at(c->sg, c->sg->by_time[v[i]]);
        if (shown++) out_ch(o, ',');
        out_str(o, "{\"group\":");
        out_json_utf8(o, (const uint8_t *)x->group_id, x->group_id_len);
        out_json_key(o, "kind");
        out_json_cstr(o, ss_fkind_name(x->kind));
        out_json_key(o, "topic");
        if (x->tp.topic) out_json_utf8(o, (const uint8_t *)x->tp.topic, x->tp.topic_len);
        else out_str(o, "null");
        out_json_key(o, "partition");
        out_i64(o, x->tp.partition);
        out_json_key(o, "time");
        out_i64(o, x->time);
        out_json_key(o, "gapMs");
        out_i64(o, cp->timestamp - x->time);
        out_ch(o, '}');
    }
    out_ch(o, ']');
    free(v);
}
