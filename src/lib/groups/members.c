/* segscan - consumer groups: the membership records of one __consumer_offsets
 * partition, replayed as Kafka's group coordinator replays them
 * (GroupCoordinatorShard.replay): a classic group's GroupMetadata record
 * (type 2) replaces the group whole (GroupMetadataManager.replay(
 * GroupMetadataKey, GroupMetadataValue)); the KIP-848 records (types 3..8)
 * update a consumer group piece by piece (ConsumerGroupMetadata: the group
 * epoch; ConsumerGroupPartitionMetadata: topic ids and names;
 * ConsumerGroupMemberMetadata: a member; ConsumerGroupCurrentMemberAssignment:
 * what a member owns). Beside Kafka's state it keeps every generation or group
 * epoch with its members, and who owned each partition when (replay.c's
 * owners).
 */
#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "groups_int.h"

/* ---- the group as a whole ---------------------------------------------------------------------- */

static void group_drop(glog *L, ggroup *g, int64_t time, int64_t offset);

/* A group record that makes (or keeps) the group of this protocol: a conversion when
 * the other protocol's group was removed in the same batch (GroupMetadataManager
 * convertToConsumerGroup / convertToClassicGroup write the tombstones and the new
 * group's records in one append), a re-creation after a deletion. */
static void group_made(glog *L, ggroup *g, int protocol, int64_t time, int64_t offset) {
    if (g->exists && g->protocol == protocol) return;
    if (g->deleted && g->removed_batch == L->batch_no && g->protocol != protocol && g->events.n &&
        g->events.v[g->events.n - 1].e.kind == SS_GEV_DELETED) {
        ss_gevent *ev = &g->events.v[g->events.n - 1].e;
        ev->kind = SS_GEV_PROTOCOL_CHANGE;
        ev->from_protocol = g->protocol;
        ev->to_protocol = protocol;
    } else if (g->exists && g->protocol != protocol) {
        /* a group of the other protocol without a tombstone before (compaction removed it) */
        gev *e = g_add_event(L, g, SS_GEV_PROTOCOL_CHANGE, time, offset);
        if (e) {
            e->e.from_protocol = g->protocol;
            e->e.to_protocol = protocol;
        }
    } else if (g->deleted) {
        gev *e = g_add_event(L, g, SS_GEV_CREATED, time, offset);
        if (e) e->e.to_protocol = protocol;
    }
    if ((g->protocol == SS_GPROTO_CONSUMER || g->protocol == SS_GPROTO_STREAMS) && protocol != g->protocol)
        m_close_open_epoch(L, g);
    g->exists = true;
    g->deleted = false;
    g->protocol = protocol;
}

static void group_removed(glog *L, ggroup *g, int64_t time, int64_t offset) {
    if (!g->exists) return; /* "If the group does not exist, we can ignore the tombstone." */
    gev *e = g_add_event(L, g, SS_GEV_DELETED, time, offset);
    if (e) e->e.from_protocol = g->protocol;
    g->exists = false;
    g->deleted = true;
    g->nmembers_now = 0;
    g->removed_batch = L->batch_no;
    g_group_emptied(L, g, time, offset);
}

static ggen *gen_new(glog *L, uint32_t gi, int protocol, int32_t generation, int64_t time, int64_t offset) {
    if (!GVGROW(L, L->gens, L->ngens, L->gencap, 16)) {
        L->nomem = true;
        return NULL;
    }
    ggroup *g = &L->groups[gi];
    if (g->gens.n) {
        ggen *prev = &L->gens[g->gens.v[g->gens.n - 1]];
        if (prev->until_time < 0) prev->until_time = time;
    }
    ggen *x = &L->gens[L->ngens];
    memset(x, 0, sizeof *x);
    x->group = gi;
    x->protocol = (int8_t)protocol;
    x->generation = generation;
    x->time = time;
    x->offset = offset;
    x->until_time = -1;
    x->members_at = L->nmembers;
    x->assign_at = L->nassigns;
    if (!g_u32_push(L, &g->gens, L->ngens)) return NULL;
    L->ngens++;
    return x;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static gmem *member_new(glog *L) {
    if (!GVGROW(L, L->members, L->nmembers, L->memcap, 32)) {
        L->nomem = true;
        return NULL;
    }
    gmem *m = &L->members[L->nmembers++];
    memset(m, 0, sizeof *m);
    m->session_timeout_ms = m->rebalance_timeout_ms = -1;
    m->member_epoch = m->previous_member_epoch = -1;
    m->state = -1;
    m->topology_epoch = -1;
    m->owned_count = -1;
    m->parts_at = m->pending_at = L->refs.n;
    return m;
}

static bool ref_push(glog *L, uint32_t x) {
    if (!GVGROW(L, L->refs.v, L->refs.n, L->refs.cap, 64)) {
        L->nomem = true;
        return false;
    }
    L->refs.v[L->refs.n++] = x;
    return true;
}

/* ---- classic groups ---------------------------------------------------------------------------- */

/* GroupMetadataKey/Value (record type 2). The value replaces the group whole
 * (groups.put(groupId, classicGroup)); a tombstone removes it (removeGroup). */
void m_group_metadata(glog *L, const ss_record *r, jctx c, const ss_cdecoded *dec) {
    uint32_t gn = j_child(c, dec->key, "group");
    if (!gn || c.n[gn].kind != SS_J_STRING) return;
    uint32_t gi = g_group_get(L, c.n[gn].str, c.n[gn].len, r->offset, r->timestamp);
    if (gi == UINT32_MAX) return;
    ggroup *g = &L->groups[gi];
    if (r->timestamp > g->last_time) g->last_time = r->timestamp;
    if (dec->tombstone) {
        group_drop(L, g, r->timestamp, r->offset); /* removeGroup(groupId), whatever its type */
        return;
    }
    group_made(L, g, SS_GPROTO_CLASSIC, r->timestamp, r->offset);
    const char *ptype = j_str(L, c, dec->value, "protocolType");
    int32_t generation = (int32_t)j_num(c, dec->value, "generation", -1);
    const char *protocol = j_str(L, c, dec->value, "protocol");
    g->protocol_type = ptype && gs_len(ptype) ? ptype : NULL;
    if (protocol) g->assignor = protocol;
    ggen *x = gen_new(L, gi, SS_GPROTO_CLASSIC, generation, r->timestamp, r->offset);
    if (!x) return;
    uint32_t xi = (uint32_t)(x - L->gens);
    x->protocol_type = ptype;
    x->protocol_name = protocol;
    x->leader = j_str(L, c, dec->value, "leader");
    bool consumer = ptype && !strcmp(ptype, "consumer");
    uint32_t refs_from = L->refs.n; /* the partitions the members own follow */
    uint32_t members = j_child(c, dec->value, "members"), count = 0;
    for (uint32_t mn = members ? c.n[members].first : 0; mn; mn = c.n[mn].next) {
        gmem *m = member_new(L);
        if (!m) return;
        count++;
        m->member_id = j_str(L, c, mn, "memberId");
        m->instance_id = j_str(L, c, mn, "groupInstanceId");
        m->client_id = j_str(L, c, mn, "clientId");
        m->client_host = j_str(L, c, mn, "clientHost");
        m->session_timeout_ms = (int32_t)j_num(c, mn, "sessionTimeout", -1);
        /* GroupMetadataManager: "rebalanceTimeout == -1 ? sessionTimeout" (value version 0 has none) */
        m->rebalance_timeout_ms = (int32_t)j_num(c, mn, "rebalanceTimeout", -1);
        /* the assignment, decoded as ConsumerProtocolAssignment when protocolType is "consumer"
         * (kept as bytes by the decoder when that fails) */
        uint32_t asg = j_child(c, mn, "assignment");
        m->assignment_known = consumer && asg && c.n[asg].kind == SS_J_OBJECT;
        /* an empty assignment: the member joined and the leader's SyncGroup had given it none yet
         * (GroupMetadataManager stores the group with an empty assignment for such a member) */
        m->assignment_pending = !asg || c.n[asg].kind == SS_J_NULL || (c.n[asg].kind == SS_J_BYTES && !c.n[asg].len);
        /* the subscription, decoded as ConsumerProtocolSubscription: ownedPartitions (version 1+,
         * KIP-429) is what the member still owned when it joined this generation */
        uint32_t sub = consumer ? j_child(c, mn, "subscription") : 0;
        uint32_t own = sub && c.n[sub].kind == SS_J_OBJECT ? j_child(c, sub, "ownedPartitions") : 0;
        if (own && c.n[own].kind == SS_J_ARRAY) {
            int32_t n = 0;
            for (uint32_t tn = c.n[own].first; tn; tn = c.n[tn].next) {
                uint32_t parts = j_child(c, tn, "partitions");
                for (uint32_t pn = parts ? c.n[parts].first : 0; pn; pn = c.n[pn].next) n++;
            }
            m->owned_count = n;
        }
        if (!m->assignment_known) continue;
        const char *mid = m->member_id, *iid = m->instance_id;
        uint32_t tps = j_child(c, asg, "assignedPartitions");
        for (uint32_t tn = tps ? c.n[tps].first : 0; tn; tn = c.n[tn].next) {
            const char *topic = j_str(L, c, tn, "topic");
            uint32_t parts = j_child(c, tn, "partitions");
            if (!topic || !parts) continue;
            for (uint32_t pn = c.n[parts].first; pn; pn = c.n[pn].next) {
                uint32_t ti = g_tp_get(L, gi, topic, NULL, (int32_t)c.n[pn].num);
                if (ti == UINT32_MAX || !ref_push(L, ti)) return;
                L->members[L->nmembers - 1].nparts++;
                g_owner_set(L, ti, mid, iid, generation, r->timestamp, r->offset);
            }
        }
    }
    x = &L->gens[xi];
    x->nmembers = L->nmembers - x->members_at;
    g = &L->groups[gi];
    g->nmembers_now = count;
    /* an empty generation: its last member left or was removed (the coordinator writes the group
     * with no members then: GroupCoordinatorRecordHelpers.newEmptyGroupMetadataRecord) */
    if (!count) g_group_emptied(L, g, r->timestamp, r->offset);
    else g->empty_now = false;
    /* the partitions no member of this generation owns: those not among its members' */
    u32_v *sc = &L->scratch;
    sc->n = 0;
    for (uint32_t i = refs_from; i < L->refs.n; i++)
        if (!g_u32_push(L, sc, L->refs.v[i])) return;
    if (sc->n) qsort(sc->v, sc->n, sizeof *sc->v, cmp_u32);
    for (uint32_t i = 0; i < g->tps.n; i++)
        if (!sc->n || !bsearch(&g->tps.v[i], sc->v, sc->n, sizeof *sc->v, cmp_u32))
            g_owner_close(L, g->tps.v[i], r->timestamp, r->offset);
}

/* ---- KIP-848 consumer groups -------------------------------------------------------------------- */

static kmember *kmember_get(glog *L, ggroup *g, const char *member_id, bool create) {
    for (uint32_t i = 0; i < g->nkmembers; i++)
        if (g->kmembers[i].member_id == member_id) return &g->kmembers[i];
    if (!create) return NULL;
    if (!GROW32(g->kmembers, g->nkmembers, g->kcap, 4)) {
        L->nomem = true;
        return NULL;
    }
    kmember *k = &g->kmembers[g->nkmembers++];
    memset(k, 0, sizeof *k);
    k->member_id = member_id;
    k->session_timeout_ms = k->rebalance_timeout_ms = -1;
    k->epoch = k->previous_epoch = -1;
    k->state = -1;
    k->topology_epoch = -1;
    return k;
}

static void kmember_drop(ggroup *g, kmember *k) {
    free(k->owned.v);
    free(k->pending.v);
    *k = g->kmembers[--g->nkmembers];
}

/* members that joined (a ConsumerGroupMemberMetadata record): the group's members now */
static uint32_t kmembers_now(const ggroup *g) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < g->nkmembers; i++) n += g->kmembers[i].has_metadata;
    return n;
}

/* What a consumer group's and a Streams group's member metadata records both carry
 * (ConsumerGroupMemberMetadataValue, StreamsGroupMemberMetadataValue). */
static void member_metadata(glog *L, kmember *k, jctx c, uint32_t value) {
    k->has_metadata = true;
    k->instance_id = j_str(L, c, value, "instanceId");
    k->client_id = j_str(L, c, value, "clientId");
    k->client_host = j_str(L, c, value, "clientHost");
    k->rebalance_timeout_ms = (int32_t)j_num(c, value, "rebalanceTimeoutMs", -1);
}

const char *m_topic_name_of(const ggroup *g, const char *topic_id) {
    for (uint32_t i = 0; i < g->nnames; i++)
        if (g->names[i].id == topic_id) return g->names[i].name;
    return NULL;
}

static bool copy_refs(glog *L, const gref_v *src) {
    for (uint32_t j = 0; j < src->n; j++)
        if (!ref_push(L, src->v[j])) return false;
    return true;
}

/* The snapshot of the members when a group epoch ends. */
void m_close_open_epoch(glog *L, ggroup *g) {
    if (g->open_gen < 0) return;
    uint32_t xi = (uint32_t)g->open_gen;
    g->open_gen = -1;
    L->gens[xi].members_at = L->nmembers;
    for (uint32_t i = 0; i < g->nkmembers; i++) {
        const kmember *k = &g->kmembers[i];
        gmem *m = member_new(L);
        if (!m) return;
        m->member_id = k->member_id;
        m->instance_id = k->instance_id;
        m->client_id = k->client_id;
        m->client_host = k->client_host;
        m->session_timeout_ms = k->session_timeout_ms;
        m->rebalance_timeout_ms = k->rebalance_timeout_ms;
        m->member_epoch = k->epoch;
        m->previous_member_epoch = k->previous_epoch;
        m->state = (int8_t)k->state;
        m->assignment_known = k->has_assignment;
        m->assignment_pending = !k->assignment_read; /* no current-assignment record yet: not joined */
        m->process_id = k->process_id;
        m->user_endpoint = k->user_endpoint;
        m->client_tags = k->client_tags;
        m->topology_epoch = k->topology_epoch;
        m->active_tasks = k->active_tasks;
        m->standby_tasks = k->standby_tasks;
        m->warmup_tasks = k->warmup_tasks;
        m->target_active = k->target_active;
        m->target_standby = k->target_standby;
        m->target_warmup = k->target_warmup;
        m->has_target = k->has_target;
        m->parts_at = L->refs.n;
        if (!copy_refs(L, &k->owned)) return;
        m = &L->members[L->nmembers - 1];
        m->nparts = k->owned.n;
        m->pending_at = L->refs.n;
        if (!copy_refs(L, &k->pending)) return;
        m->npending = k->pending.n;
    }
    L->gens[xi].nmembers = L->nmembers - L->gens[xi].members_at;
    L->gens[xi].open = false;
}

/* The group goes: nobody owns its partitions any more, its generation ends. */
static void group_drop(glog *L, ggroup *g, int64_t time, int64_t offset) {
    if (!g->exists) return; /* "If the group does not exist, we can ignore the tombstone." */
    m_close_open_epoch(L, g);
    if (g->gens.n) {
        ggen *prev = &L->gens[g->gens.v[g->gens.n - 1]];
        if (prev->until_time < 0) prev->until_time = time;
    }
    for (uint32_t i = 0; i < g->tps.n; i++) g_owner_close(L, g->tps.v[i], time, offset);
    while (g->nkmembers) kmember_drop(g, &g->kmembers[g->nkmembers - 1]);
    group_removed(L, g, time, offset);
}

static ggen *open_epoch(glog *L, uint32_t gi, int32_t epoch, int64_t time, int64_t offset) {
    m_close_open_epoch(L, &L->groups[gi]);
    int proto = L->groups[gi].protocol == SS_GPROTO_STREAMS ? SS_GPROTO_STREAMS : SS_GPROTO_CONSUMER;
    ggen *x = gen_new(L, gi, proto, epoch, time, offset);
    if (!x) return NULL;
    x->open = true;
    L->groups[gi].open_gen = (int32_t)(x - L->gens);
    return x;
}

/* The keys of types 3..8 carry "groupId" (and "memberId"). */
static uint32_t kgroup(glog *L, const ss_record *r, jctx c, const ss_cdecoded *dec) {
    uint32_t gn = j_child(c, dec->key, "groupId");
    if (!gn || c.n[gn].kind != SS_J_STRING) return UINT32_MAX;
    uint32_t gi = g_group_get(L, c.n[gn].str, c.n[gn].len, r->offset, r->timestamp);
    if (gi == UINT32_MAX) return gi;
    if (r->timestamp > L->groups[gi].last_time) L->groups[gi].last_time = r->timestamp;
    return gi;
}

/* a list of TopicPartitions {topicId, partitions[]} into gpart indices */
static bool kparts(glog *L, uint32_t gi, jctx c, uint32_t list, gref_v *out) {
    out->n = 0;
    for (uint32_t tn = list ? c.n[list].first : 0; tn; tn = c.n[tn].next) {
        const char *id = j_uuid(L, c, j_child(c, tn, "topicId"));
        uint32_t parts = j_child(c, tn, "partitions");
        if (!id || !parts) continue;
        int by = SS_GNAMED_GROUP_METADATA;
        const char *name = m_topic_name_of(&L->groups[gi], id);
        if (!name) {
            name = g_commit_topic_name(L, id);
            by = SS_GNAMED_OFFSET_COMMIT;
            if (!name) g_commit_name_missed(L, id);
        }
        if (!name && L->input_name) {
            const char *n = L->input_name(L->input_name_ctx, id, &by);
            if (n) name = g_intern(L, (const uint8_t *)n, strlen(n));
        }
        for (uint32_t pn = c.n[parts].first; pn; pn = c.n[pn].next) {
            uint32_t ti = g_tp_get(L, gi, name, id, (int32_t)c.n[pn].num);
            if (ti == UINT32_MAX) return false;
            /* the first source that mapped the id to this partition's name */
            if (name && L->tps[ti].named_by == SS_GNAMED_RECORD) L->tps[ti].named_by = (uint8_t)by;
            if (!GROW32(out->v, out->n, out->cap, 8)) {
                L->nomem = true;
                return false;
            }
            out->v[out->n++] = ti;
        }
    }
    return true;
}

static bool ref_in(const gref_v *v, uint32_t x) {
    for (uint32_t i = 0; i < v->n; i++)
        if (v->v[i] == x) return true;
    return false;
}

static void record_assignment(glog *L, uint32_t gi, const kmember *k, bool left, int64_t time, int64_t offset) {
    if (L->groups[gi].open_gen < 0) {
        /* no group epoch read yet (compaction can leave it later in the log) */
        if (!open_epoch(L, gi, -1, time, offset)) return;
    }
    if (!GVGROW(L, L->assigns, L->nassigns, L->assigncap, 16)) {
        L->nomem = true;
        return;
    }
    gassign_int *a = &L->assigns[L->nassigns++];
    memset(a, 0, sizeof *a);
    a->time = time;
    a->offset = offset;
    a->member_id = k->member_id;
    a->left = left;
    a->member_epoch = k->epoch;
    a->previous_member_epoch = k->previous_epoch;
    a->state = (int8_t)k->state;
    a->parts_at = L->refs.n;
    if (!copy_refs(L, &k->owned)) return;
    a = &L->assigns[L->nassigns - 1];
    a->nparts = k->owned.n;
    a->pending_at = L->refs.n;
    if (!copy_refs(L, &k->pending)) return;
    a->npending = k->pending.n;
    L->gens[L->groups[gi].open_gen].nassign++;
}

/* A member's partitions are now nw (and np pending revocation, still owned): the partitions it no
 * longer has lose their owner, the others have it as owner, the change is recorded. */
static void owned_now(glog *L, uint32_t gi, kmember *k, gref_v nw, gref_v np, bool left, const ss_record *r) {
    gref_v old = k->owned, oldp = k->pending;
    const char *mid = k->member_id;
    for (uint32_t i = 0; i < old.n; i++)
        if (!ref_in(&nw, old.v[i]) && !ref_in(&np, old.v[i])) g_owner_close(L, old.v[i], r->timestamp, r->offset);
    for (uint32_t i = 0; i < oldp.n; i++)
        if (!ref_in(&nw, oldp.v[i]) && !ref_in(&np, oldp.v[i])) g_owner_close(L, oldp.v[i], r->timestamp, r->offset);
    for (int w = 0; w < 2; w++) {
        const gref_v *v = w ? &np : &nw;
        for (uint32_t i = 0; i < v->n; i++)
            g_owner_set(L, v->v[i], mid, k->instance_id, k->epoch, r->timestamp, r->offset);
    }
    free(old.v);
    free(oldp.v);
    k->owned = nw;
    k->pending = np;
    record_assignment(L, gi, k, left, r->timestamp, r->offset);
}

/* ConsumerGroupCurrentMemberAssignment (type 8): the partitions a member owns are
 * its assigned partitions and those pending revocation (ConsumerGroupMember: the
 * member keeps them until it acknowledges their revocation). */
static void current_assignment(glog *L, uint32_t gi, const ss_record *r, jctx c, const ss_cdecoded *dec) {
    const char *mid = j_str(L, c, dec->key, "memberId");
    if (!mid) return;
    kmember *k = kmember_get(L, &L->groups[gi], mid, !dec->tombstone);
    if (!k) return; /* "If the member does not exist, we can ignore the tombstone." */
    gref_v nw = {0}, np = {0};
    if (!dec->tombstone) {
        if (!kparts(L, gi, c, j_child(c, dec->value, "assignedPartitions"), &nw) ||
            !kparts(L, gi, c, j_child(c, dec->value, "partitionsPendingRevocation"), &np)) {
            free(nw.v);
            free(np.v);
            return;
        }
        k = kmember_get(L, &L->groups[gi], mid, false);
        k->epoch = (int32_t)j_num(c, dec->value, "memberEpoch", -1);
        k->previous_epoch = (int32_t)j_num(c, dec->value, "previousMemberEpoch", -1);
        k->state = (int)j_num(c, dec->value, "state", -1);
        k->has_assignment = true;
        k->assignment_read = true;
    } else {
        /* LEAVE_GROUP_MEMBER_EPOCH, nothing assigned nor pending */
        k->epoch = k->previous_epoch = -1;
    }
    owned_now(L, gi, k, nw, np, dec->tombstone, r);
}

/* ConsumerGroupPartitionMetadata (4) and the early StreamsGroupPartitionMetadata (18): topic ids
 * and names {topics: [{topicId, topicName, ...}]}; a later record's name wins */
static void topic_names(glog *L, uint32_t gi, jctx c, uint32_t value) {
    uint32_t topics = j_child(c, value, "topics");
    for (uint32_t tn = topics ? c.n[topics].first : 0; tn; tn = c.n[tn].next) {
        const char *id = j_uuid(L, c, j_child(c, tn, "topicId"));
        const char *name = j_str(L, c, tn, "topicName");
        if (!id || !name) continue;
        ggroup *g = &L->groups[gi];
        bool known = false;
        for (uint32_t i = 0; i < g->nnames; i++)
            if (g->names[i].id == id) {
                g->names[i].name = name;
                known = true;
            }
        if (known) continue;
        if (!GROW32(g->names, g->nnames, g->ncap, 4)) {
            L->nomem = true;
            return;
        }
        g->names[g->nnames].id = id;
        g->names[g->nnames++].name = name;
    }
}

/* A KIP-848 or Streams member's metadata record (5, 19): the member it names, or NULL after its
 * tombstone dropped it. The last member gone leaves the group empty until the next joins
 * (GroupMetadataManager.removeMember / removeStreamsMember: the member's assignment tombstones and
 * its metadata tombstone, then a new group epoch). */
static kmember *member_record(glog *L, uint32_t gi, const ss_record *r, jctx c, const ss_cdecoded *dec) {
    const char *mid = j_str(L, c, dec->key, "memberId");
    if (!mid) return NULL;
    ggroup *g = &L->groups[gi];
    kmember *k = kmember_get(L, g, mid, !dec->tombstone);
    if (!k || !dec->tombstone) return k;
    kmember_drop(g, k);
    g->nmembers_now = kmembers_now(g);
    if (!g->nmembers_now) g_group_emptied(L, g, r->timestamp, r->offset);
    return NULL;
}

void m_consumer_group_record(glog *L, const ss_record *r, jctx c, const ss_cdecoded *dec) {
    uint32_t gi = kgroup(L, r, c, dec);
    if (gi == UINT32_MAX) return;
    ggroup *g = &L->groups[gi];
    int type = dec->record_type;
    if (!dec->tombstone) {
        /* getOrMaybeCreatePersistedConsumerGroup(groupId, value != null) */
        group_made(L, g, SS_GPROTO_CONSUMER, r->timestamp, r->offset);
    } else if (!g->exists || g->protocol != SS_GPROTO_CONSUMER) {
        return; /* a tombstone of a group that does not exist is ignored */
    }
    g = &L->groups[gi];
    switch (type) {
    case SS_GROUP_CONSUMER_GROUP_METADATA: /* the group epoch; its tombstone removes the group */
        if (dec->tombstone) {
            group_drop(L, g, r->timestamp, r->offset);
            return;
        }
        open_epoch(L, gi, (int32_t)j_num(c, dec->value, "epoch", -1), r->timestamp, r->offset);
        return;
    case SS_GROUP_CONSUMER_GROUP_PARTITION_METADATA: /* topic ids and names */
        if (!dec->tombstone) topic_names(L, gi, c, dec->value);
        return;
    case SS_GROUP_CONSUMER_GROUP_MEMBER_METADATA: {
        kmember *k = member_record(L, gi, r, c, dec);
        if (!k) return;
        member_metadata(L, k, c, dec->value);
        k->assignor = j_str(L, c, dec->value, "serverAssignor");
        uint32_t cm = j_child(c, dec->value, "classicMemberMetadata");
        k->session_timeout_ms = cm ? (int32_t)j_num(c, cm, "sessionTimeoutMs", -1) : -1;
        g = &L->groups[gi];
        if (k->assignor) g->assignor = k->assignor;
        g->nmembers_now = kmembers_now(g);
        g->empty_now = false;
        return;
    }
    case SS_GROUP_CONSUMER_GROUP_CURRENT_MEMBER_ASSIGNMENT: current_assignment(L, gi, r, c, dec); return;
    default: return; /* 6, 7: the target assignment, not what members own */
    }
}

void m_free_group(ggroup *g) {
    free(g->tps.v);
    free(g->gens.v);
    free(g->events.v);
    for (uint32_t k = 0; k < g->nkmembers; k++) {
        free(g->kmembers[k].owned.v);
        free(g->kmembers[k].pending.v);
    }
    free(g->kmembers);
    free(g->names);
    m_free_subs(g->subs, g->nsubs);
}

void m_free_subs(gsubtopo *subs, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        free(subs[i].topics);
        free(subs[i].regex);
        free(subs[i].bad);
    }
    free(subs);
}

/* ---- streams groups (KIP-1071) ----------------------------------------------------------------- */

/* The partitions a streams member processes are its active tasks' (GroupMetadataManager's streams
 * replay; StreamsGroupMember): task s_p reads partition p of every SourceTopics and
 * RepartitionSourceTopics entry of subtopology s (the topology record). Standby and warm-up tasks
 * restore state stores and read no input partition: they own nothing here. A subtopology that reads
 * by regular expression reads topics the record does not name; those stay unresolved. */

/* A SourceTopicRegex's topics: those the group commits (read before the replay) that the expression
 * matches whole, as Kafka Streams matches a topic name (Pattern.matcher(topic).matches()). POSIX
 * extended expressions (regcomp REG_EXTENDED) approximate java.util.regex: the common forms (., *, +,
 * ?, |, groups, classes, {n,m}) agree; Java's own (\\d, (?i), lookarounds, possessive quantifiers) are
 * refused by regcomp or mean something else. One regcomp refuses is listed as unresolved. A topic
 * the group never committed is not found: a matched topic is one the group is seen to have read. */
static bool regex_topics(glog *L, const char *group, gsubtopo *st) {
    for (uint32_t i = 0; i < st->nregex; i++) {
        size_t len = strlen(st->regex[i]);
        char *anchored = malloc(len + 5);
        if (!anchored) return !(L->nomem = true);
        snprintf(anchored, len + 5, "^(%s)$", st->regex[i]);
        regex_t re;
        int rc = regcomp(&re, anchored, REG_EXTENDED | REG_NOSUB);
        free(anchored);
        if (rc != 0) {
            const char **v = realloc(st->bad, (st->nbad + 1) * sizeof *v);
            if (!v) return !(L->nomem = true);
            st->bad = v;
            st->bad[st->nbad++] = st->regex[i];
            continue;
        }
        for (uint32_t t = 0; t < L->nrx_topics; t++) {
            const gtopic_name *x = &L->rx_topics[t];
            if (strcmp(x->id, group) != 0 || regexec(&re, x->name, 0, NULL, 0) != 0) continue;
            bool dup = false;
            for (uint32_t k = 0; k < st->ntopics && !dup; k++) dup = st->topics[k] == x->name;
            if (dup) continue;
            const char **v = realloc(st->topics, (st->ntopics + 1) * sizeof *v);
            if (!v) {
                regfree(&re);
                return !(L->nomem = true);
            }
            st->topics = v;
            st->topics[st->ntopics++] = x->name;
            st->nmatched++;
        }
        regfree(&re);
    }
    return true;
}

static void topology(glog *L, uint32_t gi, jctx c, const ss_cdecoded *dec) {
    ggroup *g = &L->groups[gi];
    m_free_subs(g->subs, g->nsubs);
    g->subs = NULL;
    g->nsubs = 0;
    g->topology_epoch = -1;
    if (dec->tombstone) return;
    uint32_t subs = j_child(c, dec->value, "subtopologies");
    uint32_t n = (uint32_t)ss_jnode_count(c.n, subs);
    if (!n) return;
    gsubtopo *v = calloc(n, sizeof *v);
    if (!v) {
        L->nomem = true;
        return;
    }
    uint32_t k = 0;
    for (uint32_t sn = c.n[subs].first; sn && k < n; sn = c.n[sn].next, k++) {
        gsubtopo *st = &v[k];
        st->id = j_str(L, c, sn, "subtopologyId");
        uint32_t src = j_child(c, sn, "sourceTopics"), rep = j_child(c, sn, "repartitionSourceTopics");
        uint32_t rx = j_child(c, sn, "sourceTopicRegex");
        uint32_t nt = (uint32_t)(ss_jnode_count(c.n, src) + ss_jnode_count(c.n, rep));
        uint32_t nr = (uint32_t)ss_jnode_count(c.n, rx);
        st->topics = nt ? calloc(nt, sizeof *st->topics) : NULL;
        st->regex = nr ? calloc(nr, sizeof *st->regex) : NULL;
        if ((nt && !st->topics) || (nr && !st->regex)) {
            L->nomem = true;
            k++;
            break;
        }
        for (uint32_t tn = src ? c.n[src].first : 0; tn; tn = c.n[tn].next)
            if (c.n[tn].kind == SS_J_STRING) st->topics[st->ntopics++] = g_intern(L, c.n[tn].str, c.n[tn].len);
        st->nsource = st->ntopics;
        for (uint32_t tn = rx ? c.n[rx].first : 0; tn && st->nregex < nr; tn = c.n[tn].next)
            if (c.n[tn].kind == SS_J_STRING) st->regex[st->nregex++] = g_intern(L, c.n[tn].str, c.n[tn].len);
        for (uint32_t tn = rep ? c.n[rep].first : 0; tn; tn = c.n[tn].next) {
            const char *name = j_str(L, c, tn, "name");
            if (name) st->topics[st->ntopics++] = name;
        }
        st->nrepartition = st->ntopics - st->nsource;
        if (st->nregex && !regex_topics(L, L->groups[gi].id, st)) {
            k++;
            break;
        }
    }
    g = &L->groups[gi];
    g->subs = v;
    g->nsubs = k;
    g->topology_epoch = (int32_t)j_num(c, dec->value, "epoch", -1);
}

static const gsubtopo *subtopology(const ggroup *g, const char *id) {
    for (uint32_t i = 0; i < g->nsubs; i++)
        if (g->subs[i].id == id) return &g->subs[i];
    return NULL;
}

/* A list of TaskIds {subtopologyId, partitions[]}: the input partitions of its tasks into out
 * (with_parts), and the tasks as text "s_p,..." appended to buf. */
static bool ktasks(glog *L, uint32_t gi, jctx c, uint32_t list, gref_v *out, char *buf, size_t cap, size_t *len) {
    for (uint32_t tn = list ? c.n[list].first : 0; tn; tn = c.n[tn].next) {
        const char *sid = j_str(L, c, tn, "subtopologyId");
        uint32_t parts = j_child(c, tn, "partitions");
        if (!sid || !parts) continue;
        const gsubtopo *st = subtopology(&L->groups[gi], sid);
        for (uint32_t pn = c.n[parts].first; pn; pn = c.n[pn].next) {
            int32_t p = (int32_t)c.n[pn].num;
            int w = snprintf(buf + *len, cap - *len, "%s%s_%" PRId32, *len ? "," : "", sid, p);
            if (w > 0 && (size_t)w < cap - *len) *len += (size_t)w;
            if (!out || !st) continue; /* no topology read (yet): the task's partitions are unknown */
            for (uint32_t t = 0; t < st->ntopics; t++) {
                uint32_t ti = g_tp_get(L, gi, st->topics[t], NULL, p);
                if (ti == UINT32_MAX) return false;
                if (!GROW32(out->v, out->n, out->cap, 8)) {
                    L->nomem = true;
                    return false;
                }
                out->v[out->n++] = ti;
            }
        }
    }
    return true;
}

static const char *tasks_text(glog *L, const char *buf, size_t len) {
    return len ? g_intern(L, (const uint8_t *)buf, len) : NULL;
}

/* StreamsGroupCurrentMemberAssignment (type 22): as a KIP-848 current assignment (current_assignment
 * above), with the active tasks' input partitions for the partitions (those pending revocation still
 * owned until the member acknowledges their revocation). */
static void streams_assignment(glog *L, uint32_t gi, const ss_record *r, jctx c, const ss_cdecoded *dec) {
    const char *mid = j_str(L, c, dec->key, "memberId");
    if (!mid) return;
    kmember *k = kmember_get(L, &L->groups[gi], mid, !dec->tombstone);
    if (!k) return;
    gref_v nw = {0}, np = {0};
    if (!dec->tombstone) {
        char buf[3][1024];
        size_t len[3] = {0, 0, 0};
        uint32_t v = dec->value;
        if (!ktasks(L, gi, c, j_child(c, v, "activeTasks"), &nw, buf[0], sizeof buf[0], &len[0]) ||
            !ktasks(L, gi, c, j_child(c, v, "activeTasksPendingRevocation"), &np, buf[0], sizeof buf[0], &len[0]) ||
            !ktasks(L, gi, c, j_child(c, v, "standbyTasks"), NULL, buf[1], sizeof buf[1], &len[1]) ||
            !ktasks(L, gi, c, j_child(c, v, "standbyTasksPendingRevocation"), NULL, buf[1], sizeof buf[1], &len[1]) ||
            !ktasks(L, gi, c, j_child(c, v, "warmupTasks"), NULL, buf[2], sizeof buf[2], &len[2]) ||
            !ktasks(L, gi, c, j_child(c, v, "warmupTasksPendingRevocation"), NULL, buf[2], sizeof buf[2], &len[2])) {
            free(nw.v);
            free(np.v);
            return;
        }
        k = kmember_get(L, &L->groups[gi], mid, false);
        k->epoch = (int32_t)j_num(c, v, "memberEpoch", -1);
        k->previous_epoch = (int32_t)j_num(c, v, "previousMemberEpoch", -1);
        k->state = (int)j_num(c, v, "state", -1);
        k->active_tasks = tasks_text(L, buf[0], len[0]);
        k->standby_tasks = tasks_text(L, buf[1], len[1]);
        k->warmup_tasks = tasks_text(L, buf[2], len[2]);
        k->has_assignment = L->groups[gi].nsubs > 0;
        k->assignment_read = true;
    } else {
        k->epoch = k->previous_epoch = -1;
        k->active_tasks = k->standby_tasks = k->warmup_tasks = NULL;
    }
    owned_now(L, gi, k, nw, np, dec->tombstone, r);
}

/* StreamsGroupTargetAssignmentMember (type 21): the tasks the assignor gave the member, which it
 * owns only once its current assignment says so (type 22); a tombstone: it has no target any more. */
static void streams_target(glog *L, uint32_t gi, jctx c, const ss_cdecoded *dec) {
    const char *mid = j_str(L, c, dec->key, "memberId");
    if (!mid) return;
    kmember *k = kmember_get(L, &L->groups[gi], mid, !dec->tombstone);
    if (!k) return;
    if (dec->tombstone) {
        k->target_active = k->target_standby = k->target_warmup = NULL;
        k->has_target = false;
        return;
    }
    char buf[3][1024];
    size_t len[3] = {0, 0, 0};
    static const char *const lists[3] = {"activeTasks", "standbyTasks", "warmupTasks"};
    for (int i = 0; i < 3; i++)
        if (!ktasks(L, gi, c, j_child(c, dec->value, lists[i]), NULL, buf[i], sizeof buf[i], &len[i])) return;
    k = kmember_get(L, &L->groups[gi], mid, false);
    k->target_active = tasks_text(L, buf[0], len[0]);
    k->target_standby = tasks_text(L, buf[1], len[1]);
    k->target_warmup = tasks_text(L, buf[2], len[2]);
    k->has_target = true;
}

/* clientTags [{key, value}] as "k=v,k=v" */
static const char *client_tags(glog *L, jctx c, uint32_t list) {
    char buf[512];
    size_t len = 0;
    for (uint32_t tn = list ? c.n[list].first : 0; tn; tn = c.n[tn].next) {
        uint32_t kx = j_child(c, tn, "key"), vx = j_child(c, tn, "value");
        if (!kx || !vx || c.n[kx].kind != SS_J_STRING || c.n[vx].kind != SS_J_STRING) continue;
        int w = snprintf(buf + len, sizeof buf - len, "%s%.*s=%.*s", len ? "," : "", (int)c.n[kx].len,
                         (const char *)c.n[kx].str, (int)c.n[vx].len, (const char *)c.n[vx].str);
        if (w > 0 && (size_t)w < sizeof buf - len) len += (size_t)w;
    }
    return len ? g_intern(L, (const uint8_t *)buf, len) : NULL;
}

void m_streams_group_record(glog *L, const ss_record *r, jctx c, const ss_cdecoded *dec) {
    uint32_t gi = kgroup(L, r, c, dec);
    if (gi == UINT32_MAX) return;
    ggroup *g = &L->groups[gi];
    if (!dec->tombstone) {
        /* getOrMaybeCreatePersistedStreamsGroup(groupId, value != null) */
        group_made(L, g, SS_GPROTO_STREAMS, r->timestamp, r->offset);
    } else if (!g->exists || g->protocol != SS_GPROTO_STREAMS) {
        return; /* a tombstone of a group that does not exist is ignored */
    }
    g = &L->groups[gi];
    switch (dec->record_type) {
    case SS_GROUP_STREAMS_GROUP_METADATA:
        if (dec->tombstone) {
            group_drop(L, g, r->timestamp, r->offset);
            return;
        }
        open_epoch(L, gi, (int32_t)j_num(c, dec->value, "epoch", -1), r->timestamp, r->offset);
        return;
    case SS_GROUP_STREAMS_GROUP_PARTITION_METADATA: /* early 4.x: topic ids and names */
        if (!dec->tombstone) topic_names(L, gi, c, dec->value);
        return;
    case SS_GROUP_STREAMS_GROUP_MEMBER_METADATA: {
        kmember *k = member_record(L, gi, r, c, dec);
        if (!k) return;
        member_metadata(L, k, c, dec->value);
        k->topology_epoch = (int32_t)j_num(c, dec->value, "topologyEpoch", -1);
        k->process_id = j_str(L, c, dec->value, "processId");
        k->user_endpoint = NULL;
        uint32_t ep = j_child(c, dec->value, "userEndpoint");
        uint32_t host = ep ? j_child(c, ep, "host") : 0;
        if (host && c.n[host].kind == SS_J_STRING) {
            char buf[300];
            int w = snprintf(buf, sizeof buf, "%.*s:%" PRId64, (int)c.n[host].len, (const char *)c.n[host].str,
                             j_num(c, ep, "port", 0));
            if (w > 0 && (size_t)w < sizeof buf) k->user_endpoint = g_intern(L, (const uint8_t *)buf, (size_t)w);
        }
        k->client_tags = client_tags(L, c, j_child(c, dec->value, "clientTags"));
        g = &L->groups[gi];
        g->nmembers_now = kmembers_now(g);
        g->empty_now = false;
        return;
    }
    case SS_GROUP_STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT: streams_assignment(L, gi, r, c, dec); return;
    case SS_GROUP_STREAMS_GROUP_TOPOLOGY: topology(L, gi, c, dec); return;
    case SS_GROUP_STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER: streams_target(L, gi, c, dec); return;
    default: return; /* 20: the target assignment's epoch */
    }
}
