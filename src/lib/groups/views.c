/* segscan - consumer groups: the public views of the history (segscan/groups.h).
 *
 * A group's view, its scalars and its arrays (generations with their members
 * and assignments, events, partitions with their owners), is built from the
 * log's state when the group is asked for (ss_groups_at) and freed when another
 * is: the history costs what its internal state costs (and 8 bytes a group for
 * the order), not that plus a copy in public structs.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "groups_int.h"

static bool keep_block(ss_groups *G, void *p) {
    if (!p) return false;
    if (!SS_GROW(G->blocks, G->nblocks, G->blockcap, 64)) {
        free(p);
        return false;
    }
    G->blocks[G->nblocks++] = p;
    return true;
}

static void *block(ss_groups *G, size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size);
    return keep_block(G, p) ? p : NULL;
}

static void drop_blocks(ss_groups *G) {
    for (size_t i = 0; i < G->nblocks; i++) free(G->blocks[i]);
    G->nblocks = 0;
}

void v_free(ss_groups *G) {
    drop_blocks(G);
    free(G->blocks);
    G->blocks = NULL;
    G->blockcap = 0;
}

const char *v_input_topic_name(const ss_groups *G, const char *topic_id, int *named_by) {
    if (!topic_id) return NULL;
    for (size_t i = 0; i < G->nids; i++)
        if (!strcmp(G->ids[i], topic_id)) {
            if (named_by) *named_by = G->id_src[i];
            return G->id_names[i];
        }
    return NULL;
}

static ss_gtp_ref ref_of(const ss_groups *G, const gpart *t) {
    ss_gtp_ref r;
    r.named_by = t->topic ? t->named_by : SS_GNAMED_NONE;
    r.topic = t->topic ? t->topic : v_input_topic_name(G, t->topic_id, &r.named_by);
    r.topic_len = r.topic ? strlen(r.topic) : 0;
    r.topic_id = t->topic_id;
    r.partition = t->partition;
    return r;
}

static const ss_gtp_ref *refs_of(ss_groups *G, glog *L, uint32_t at, uint32_t n) {
    ss_gtp_ref *v = block(G, n, sizeof *v);
    if (!v) return NULL;
    for (uint32_t i = 0; i < n; i++) v[i] = ref_of(G, gv_tp(L, gv_ref(L, at + i)));
    return v;
}

static int cmp_ref(const ss_gtp_ref *a, const ss_gtp_ref *b) {
    const char *ta = a->topic ? a->topic : "", *tb = b->topic ? b->topic : "";
    int c = strcmp(ta, tb);
    if (c) return c;
    if (!a->topic && !b->topic) {
        c = strcmp(a->topic_id ? a->topic_id : "", b->topic_id ? b->topic_id : "");
        if (c) return c;
    }
    return a->partition < b->partition ? -1 : a->partition > b->partition;
}

static int cmp_part(const void *a, const void *b) {
    return cmp_ref(&((const ss_gpartition *)a)->tp, &((const ss_gpartition *)b)->tp);
}

static int cmp_owner(const void *a, const void *b) {
    const ss_gowner *x = a, *y = b;
    return x->from_offset < y->from_offset ? -1 : x->from_offset > y->from_offset;
}

static void owner_view(glog *L, const gownership *o, ss_gowner *w) {
    memset(w, 0, sizeof *w);
    w->member_id = o->member;
    w->member_id_len = o->member ? gs_len(o->member) : 0;
    w->instance_id = o->instance;
    w->instance_id_len = o->instance ? gs_len(o->instance) : 0;
    gpoint none = {-1, -1};
    gpoint from = o->from ? *gv_point(L, o->from - 1) : none, to = o->to ? *gv_point(L, o->to - 1) : none;
    w->from_time = from.time;
    w->from_offset = from.offset;
    w->to_time = to.time;
    w->to_offset = to.offset;
    w->generation_from = o->gen_from;
    w->generation_to = o->gen_to;
    w->start_committed = o->start_committed;
    w->commits = o->commits;
    w->last_commit_time = o->last_commit_time;
    w->last_commit_offset = o->last_commit_offset;
    w->commit_interval_ms = o->interval_ms;
    gpoint empty = o->empty ? *gv_point(L, o->empty - 1) : none;
    w->empty_time = empty.time;
    w->empty_offset = empty.offset;
}

/* The group's partitions: one per (topic, partition), a partition known by topic id
 * and by name merged into one. */
static bool build_partitions(ss_groups *G, glog *L, const gdone *gg, ss_group *out) {
    ss_gpartition *v = block(G, gg->ntps, sizeof *v);
    if (!v) return false;
    for (uint32_t i = 0; i < gg->ntps; i++) {
        /* a copy: the owners' and their points' entries are read before it is done */
        const gpart tc = *gv_tp(L, gv_list(L, gg->tps_at + i)), *t = &tc;
        ss_gpartition *p = &v[i];
        p->tp = ref_of(G, t);
        p->committed = t->flags & TP_COMMITTED;
        p->offset = p->committed ? t->offset : -1;
        p->commit_time = p->committed ? t->commit_time : -1;
        p->record_offset = p->committed ? t->record_offset : -1;
        p->leader_epoch = t->leader_epoch;
        p->metadata = p->committed ? t->metadata : NULL;
        p->metadata_len = p->metadata ? gs_len(p->metadata) : 0;
        p->transactional = t->flags & TP_TXN;
        p->commits = (uint64_t)t->commits_hi << 32 | t->commits_lo;
        const gpart_ext *x = gv_tpx(L, t);
        if (x) {
            p->txn_commits = x->txn_commits;
            p->txn_committed = x->txn_committed;
            p->txn_aborted = x->txn_aborted;
            p->txn_open = x->txn_open;
            p->deletions = x->deletions;
        }
        p->first_commit_time = t->first_commit_time;
        p->last_commit_time = t->last_commit_time;
        size_t n = 0;
        for (uint32_t o = t->owner_last; o; o = gv_owner(L, o - 1)->prev) n++;
        ss_gowner *w = block(G, n, sizeof *w);
        if (!w) return false;
        /* the owners in the order they came */
        size_t k = n;
        for (uint32_t o = t->owner_last; o;) {
            const gownership *ow = gv_owner(L, o - 1);
            owner_view(L, ow, &w[--k]);
            o = ow->prev;
        }
        p->nowners = n;
        p->owners = w;
    }
    qsort(v, gg->ntps, sizeof *v, cmp_part);
    size_t w = 0;
    for (size_t i = 0; i < gg->ntps; i++) {
        if (w && v[i].tp.topic && v[w - 1].tp.topic && !cmp_ref(&v[w - 1].tp, &v[i].tp)) {
            ss_gpartition *d = &v[w - 1], *s = &v[i];
            if (!d->tp.topic_id) d->tp.topic_id = s->tp.topic_id;
            if (s->committed && (!d->committed || s->record_offset > d->record_offset)) {
                d->committed = true;
                d->offset = s->offset;
                d->commit_time = s->commit_time;
                d->record_offset = s->record_offset;
                d->leader_epoch = s->leader_epoch;
                d->metadata = s->metadata;
                d->metadata_len = s->metadata_len;
                d->transactional = s->transactional;
            }
            d->commits += s->commits;
            d->txn_commits += s->txn_commits;
            d->txn_committed += s->txn_committed;
            d->txn_aborted += s->txn_aborted;
            d->txn_open += s->txn_open;
            d->deletions += s->deletions;
            if (s->nowners) {
                ss_gowner *o = block(G, d->nowners + s->nowners, sizeof *o);
                if (!o) return false;
                memcpy(o, d->owners, d->nowners * sizeof *o);
                memcpy(o + d->nowners, s->owners, s->nowners * sizeof *o);
                d->nowners += s->nowners;
                qsort(o, d->nowners, sizeof *o, cmp_owner);
                d->owners = o;
            }
            continue;
        }
        v[w++] = v[i];
    }
    out->npartitions = w;
    out->partitions = v;
    return true;
}

static void member_view(ss_groups *G, glog *L, const gmem *im, ss_gmember *m) {
    memset(m, 0, sizeof *m);
    m->member_id = im->member_id;
    m->member_id_len = im->member_id ? gs_len(im->member_id) : 0;
    m->instance_id = im->instance_id;
    m->instance_id_len = im->instance_id ? gs_len(im->instance_id) : 0;
    m->client_id = im->client_id;
    m->client_id_len = im->client_id ? gs_len(im->client_id) : 0;
    m->client_host = im->client_host;
    m->client_host_len = im->client_host ? gs_len(im->client_host) : 0;
    m->session_timeout_ms = im->session_timeout_ms;
    m->rebalance_timeout_ms = im->rebalance_timeout_ms;
    m->member_epoch = im->member_epoch;
    m->previous_member_epoch = im->previous_member_epoch;
    m->state = im->state;
    m->assignment_known = im->assignment_known;
    m->assignment_pending = im->assignment_pending;
    m->owned_count = im->owned_count;
    m->nparts = im->nparts;
    m->parts = refs_of(G, L, im->parts_at, im->nparts);
    m->npending = im->npending;
    m->pending = refs_of(G, L, im->pending_at, im->npending);
    m->process_id = im->process_id;
    m->user_endpoint = im->user_endpoint;
    m->client_tags = im->client_tags;
    m->topology_epoch = im->topology_epoch;
    m->active_tasks = im->active_tasks;
    m->standby_tasks = im->standby_tasks;
    m->warmup_tasks = im->warmup_tasks;
    m->target_known = im->has_target;
    m->target_active_tasks = im->target_active;
    m->target_standby_tasks = im->target_standby;
    m->target_warmup_tasks = im->target_warmup;
}

static void assign_view(ss_groups *G, glog *L, const gassign_int *ia, ss_gassign *a) {
    memset(a, 0, sizeof *a);
    a->time = ia->time;
    a->offset = ia->offset;
    a->member_id = ia->member_id;
    a->member_id_len = ia->member_id ? gs_len(ia->member_id) : 0;
    a->left = ia->left;
    a->member_epoch = ia->member_epoch;
    a->previous_member_epoch = ia->previous_member_epoch;
    a->state = ia->state;
    a->nparts = ia->nparts;
    a->parts = refs_of(G, L, ia->parts_at, ia->nparts);
    a->npending = ia->npending;
    a->pending = refs_of(G, L, ia->pending_at, ia->npending);
}

/* distinct member ids over the group's generations and assignments (interned: pointers compare) */
static size_t distinct_members(glog *L, const gdone *gg) {
    const char **seen = NULL;
    size_t nseen = 0, cap = 0;
    for (uint32_t k = 0; k < gg->ngens; k++) {
        const ggen *x = gv_gen(L, gv_list(L, gg->gens_at + k));
        for (uint32_t i = 0; i < x->nmembers + x->nassign; i++) {
            const char *id = i < x->nmembers ? gv_member(L, x->members_at + i)->member_id
                                             : gv_assign(L, x->assign_at + i - x->nmembers)->member_id;
            bool dup = !id;
            for (size_t s = 0; s < nseen && !dup; s++) dup = seen[s] == id;
            if (!dup && SS_GROW(seen, nseen, cap, 16)) seen[nseen++] = id;
        }
    }
    free(seen);
    return nseen;
}

void v_group_head(const ss_groups *G, glog_slot *S, uint32_t gi, ss_group *out) {
    glog *L = &S->L;
    const gdone gc = *gv_group(L, gi), *gg = &gc;
    memset(out, 0, sizeof *out);
    out->id = gg->id;
    out->id_len = gs_len(gg->id);
    out->log = (uint32_t)(S - G->logs);
    out->coordinator_partition = L->partition;
    out->expected_partition = ss_coordinator_partition((const uint8_t *)gg->id, out->id_len, G->opts.partitions);
    out->protocol = gg->protocol;
    out->protocol_type = gg->protocol_type;
    out->assignor = gg->assignor;
    out->deleted = gg->deleted;
    out->commits = gg->commits;
    out->txn_commits = gg->txn_commits;
    out->undecoded_records = gg->undecoded;
    out->first_offset = gg->first_offset;
    out->topology_epoch = -1;
    out->first_time = gg->first_time;
    out->last_time = gg->last_time;
    out->ngenerations = gg->ngens;
    out->nevents = gg->nevents;
    out->nmembers_distinct = distinct_members(L, gg);
}

static bool build_group(ss_groups *G, glog_slot *S, uint32_t gi, ss_group *out) {
    glog *L = &S->L;
    const gdone gc = *gv_group(L, gi), *gg = &gc;
    ss_gevent *ev = block(G, gg->nevents, sizeof *ev);
    ss_ggeneration *gens = block(G, gg->ngens, sizeof *gens);
    if (!ev || !gens) return false;
    for (uint32_t k = 0; k < gg->nevents; k++) ev[k] = gg->events[k].e;
    for (uint32_t k = 0; k < gg->ngens; k++) {
        const ggen xc = *gv_gen(L, gv_list(L, gg->gens_at + k)), *x = &xc;
        ss_ggeneration *y = &gens[k];
        y->protocol = x->protocol;
        y->generation = x->generation;
        y->time = x->time;
        y->offset = x->offset;
        y->until_time = x->until_time;
        y->protocol_type = x->protocol_type;
        y->protocol_name = x->protocol_name;
        y->leader = x->leader;
        ss_gmember *mv = block(G, x->nmembers, sizeof *mv);
        ss_gassign *av = block(G, x->nassign, sizeof *av);
        if (!mv || !av) return false;
        for (uint32_t m = 0; m < x->nmembers; m++) member_view(G, L, gv_member(L, x->members_at + m), &mv[m]);
        for (uint32_t a = 0; a < x->nassign; a++) assign_view(G, L, gv_assign(L, x->assign_at + a), &av[a]);
        y->nmembers = x->nmembers;
        y->members = mv;
        y->nassign = x->nassign;
        y->assignments = av;
    }
    out->events = ev;
    out->generations = gens;
    if (gg->nsubs) {
        ss_gsubtopology *st = block(G, gg->nsubs, sizeof *st);
        if (!st) return false;
        for (uint32_t k = 0; k < gg->nsubs; k++) {
            const gsubtopo *x = &gg->subs[k];
            st[k].id = x->id;
            st[k].nsource = x->nsource;
            st[k].source_topics = (const char *const *)x->topics;
            st[k].nrepartition = x->nrepartition;
            st[k].repartition_source_topics = x->topics ? (const char *const *)x->topics + x->nsource : NULL;
            st[k].nregex = x->nregex;
            st[k].source_topic_regex = (const char *const *)x->regex;
            st[k].nmatched = x->nmatched;
            st[k].regex_matched = x->topics ? (const char *const *)x->topics + x->nsource + x->nrepartition : NULL;
            st[k].nunresolved = x->nbad;
            st[k].unresolved_regex = (const char *const *)x->bad;
        }
        out->nsubtopologies = gg->nsubs;
        out->subtopologies = st;
        out->topology_epoch = gg->topology_epoch;
    }
    return build_partitions(G, L, gg, out);
}

const ss_group *ss_groups_at(ss_groups *G, size_t i) {
    ss_group *g = &G->cur;
    if (G->built == i + 1) return g;
    drop_blocks(G);
    G->built = 0;
    const struct gpub *x = &G->groups[i];
    v_group_head(G, &G->logs[x->log], x->local, g);
    G->built = i + 1;
    if (!build_group(G, &G->logs[x->log], x->local, g)) {
        /* out of memory: the scalars, no arrays */
        drop_blocks(G);
        g->generations = NULL;
        g->events = NULL;
        g->partitions = NULL;
        g->npartitions = 0;
        g->subtopologies = NULL;
        g->nsubtopologies = 0;
        g->ngenerations = g->nevents = 0;
        G->built = 0;
    }
    return g;
}

/* ---- commits ------------------------------------------------------------------------------------------ */

struct ss_gcommit_iter {
    ss_groups *g;
    glog *L;
    size_t at, left;
    size_t have, pos;
    size_t room; /* buf's records: 256, or the group's commits when fewer (a small group's
                  * iterator is not 22 KiB) */
    gcommit buf[];
};

ss_gcommit_iter *ss_group_commits(ss_groups *g, size_t i) {
    glog *L = &g->logs[g->groups[i].log].L;
    uint32_t local = g->groups[i].local;
    size_t at = 0, left = 0;
    if (L->commits.group_n) {
        at = L->commits.group_at[local];
        left = L->commits.group_n[local];
    }
    size_t room = left < 256 ? left : 256;
    ss_gcommit_iter *it = calloc(1, sizeof *it + room * sizeof *it->buf);
    if (!it) return NULL;
    it->g = g;
    it->L = L;
    it->at = at;
    it->left = left;
    it->room = room;
    return it;
}

int ss_gcommit_next(ss_gcommit_iter *it, ss_gcommit *out) {
    if (it->pos == it->have) {
        if (!it->left) return 0;
        size_t want = it->left < it->room ? it->left : it->room;
        size_t got = gc_read(it->L, it->at, it->buf, want);
        if (got != want) return -1;
        it->at += want;
        it->left -= want;
        it->have = want;
        it->pos = 0;
    }
    const gcommit *r = &it->buf[it->pos++];
    memset(out, 0, sizeof *out);
    out->tp = ref_of(it->g, gv_tp(it->L, r->tp));
    out->time = r->time;
    out->record_offset = r->record_offset;
    out->offset = r->offset;
    out->leader_epoch = r->leader_epoch;
    out->metadata = r->metadata;
    out->metadata_len = r->metadata ? gs_len(r->metadata) : 0;
    out->expire_time = r->expire_time;
    out->transactional = r->producer_id != -1;
    out->producer_id = r->producer_id;
    out->producer_epoch = r->producer_epoch;
    if (out->transactional) {
        const ss_txn_id *t = ss_txn_ids_find(it->g->txn_ids, r->producer_id);
        out->transactional_id = t ? t->transactional_id : NULL;
    }
    out->outcome = r->outcome;
    out->effective = r->effective;
    out->effective_time = r->effective_time;
    out->attributed_to = r->member;
    out->attributed_instance = r->instance;
    out->attributed_generation = r->generation;
    return 1;
}

void ss_gcommit_iter_free(ss_gcommit_iter *it) { free(it); }
