/* segscan - consumer groups: replay the records of one __consumer_offsets
 * partition, in log order, as Kafka's group coordinator replays them when it
 * loads the partition (CoordinatorLoaderImpl -> GroupCoordinatorShard.replay,
 * by record type: 0/1 OffsetMetadataManager.replay, 2 the classic
 * GroupMetadataManager.replay(GroupMetadataKey, GroupMetadataValue), 3..8 the
 * KIP-848 consumer group replays; control batches ->
 * replayEndTransactionMarker). Beside Kafka's state (what the coordinator
 * holds at the end) it keeps the history an operator asks about: every
 * generation or group epoch with its members, who owned each partition when,
 * every change of the committed offset.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "base/grow.h"
#include "groups_int.h"

/* ---- interned strings ---------------------------------------------------------------------- */

struct gs_chunk {
    gs_chunk *next;
    size_t size;
    uint8_t data[];
};

static uint64_t gs_hash(const uint8_t *s, size_t len) { return XXH3_64bits(s, len); }

static bool gs_grow(gstrtab *t) {
    size_t nc = t->cap ? t->cap * 2 : 1024;
    const char **ns = calloc(nc, sizeof *ns);
    uint32_t *na = calloc(nc, sizeof *na);
    if (!ns || !na) {
        free(ns);
        free(na);
        return false;
    }
    for (size_t i = 0; i < t->cap; i++) {
        const char *s = t->slots[i];
        if (!s) continue;
        size_t k = gs_hash((const uint8_t *)s, gs_len(s)) & (nc - 1);
        while (ns[k]) k = (k + 1) & (nc - 1);
        ns[k] = s;
        na[k] = t->aux[i];
    }
    free(t->slots);
    free(t->aux);
    t->slots = ns;
    t->aux = na;
    t->cap = nc;
    return true;
}

static char *gs_store(gstrtab *t, const uint8_t *s, size_t len) {
    size_t need = 4 + len + 1;
    need = (need + 7) & ~(size_t)7;
    if ((size_t)(t->end - t->cur) < need) {
        size_t size = need > 60000 ? need : 60000;
        gs_chunk *c = malloc(sizeof *c + size);
        if (!c) return NULL;
        c->next = t->chunks;
        c->size = size;
        t->chunks = c;
        t->cur = c->data;
        t->end = c->data + size;
        t->bytes += size;
    }
    uint8_t *p = t->cur;
    uint32_t n = (uint32_t)len;
    memcpy(p, &n, 4);
    if (len) memcpy(p + 4, s, len);
    p[4 + len] = 0;
    t->cur += need;
    return (char *)p + 4;
}

const char *gs_intern(gstrtab *t, const uint8_t *s, size_t len, uint32_t **aux) {
    if (len > UINT32_MAX - 16) {
        t->nomem = true;
        return NULL;
    }
    if ((t->n + 1) * 4 > t->cap * 3 && !gs_grow(t)) {
        t->nomem = true;
        return NULL;
    }
    size_t k = gs_hash(s, len) & (t->cap - 1);
    for (;;) {
        const char *x = t->slots[k];
        if (!x) break;
        if (gs_len(x) == len && (len == 0 || memcmp(x, s, len) == 0)) {
            if (aux) *aux = &t->aux[k];
            return x;
        }
        k = (k + 1) & (t->cap - 1);
    }
    char *p = gs_store(t, s, len);
    if (!p) {
        t->nomem = true;
        return NULL;
    }
    t->slots[k] = p;
    t->aux[k] = 0;
    t->n++;
    if (aux) *aux = &t->aux[k];
    return p;
}

void gs_free(gstrtab *t) {
    for (gs_chunk *c = t->chunks, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    free(t->slots);
    free(t->aux);
    memset(t, 0, sizeof *t);
}

/* ---- the log's state ---------------------------------------------------------------------------- */

void glog_init(glog *L, const ss_groups_opts *opts, uint32_t input, int32_t partition) {
    memset(L, 0, sizeof *L);
    L->opts = opts;
    L->input = input;
    L->partition = partition;
    L->expect_next = -1;
    L->last_hole_end = -1;
    L->info.partition = partition;
    L->info.first_offset = L->info.next_offset = -1;
    L->info.complete_from = 0;
    L->info.complete_from_time = -1;
    L->info.cleaner_checkpoint = -1;
}

void glog_note(glog *L, int level, const char *fmt, ...) {
    if (L->nnotes >= 100) {
        L->notes_dropped++;
        return;
    }
    char buf[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char *s = strdup(buf);
    if (!s) return;
    if (!SS_GROW(L->notes, L->nnotes, L->notecap, 8)) {
        free(s);
        return;
    }
    size_t cap = L->notecap;
    int *nl = realloc(L->note_levels, cap * sizeof *nl);
    if (!nl) {
        free(s);
        return;
    }
    L->note_levels = nl;
    L->notes[L->nnotes] = s;
    L->note_levels[L->nnotes++] = level;
}

static const char *intern(glog *L, const uint8_t *s, size_t len) {
    const char *p = gs_intern(&L->strs, s, len, NULL);
    if (!p) L->nomem = true;
    return p;
}

#define GROW32(v, n, cap, first)                                                                       \
    ((n) < (cap) || grow32_(&(v), &(cap), sizeof *(v), (first)))
static bool grow32_(void *vp, uint32_t *cap, size_t size, size_t first) {
    size_t c = *cap;
    if (!ss_grow_(vp, &c, size, first) || c > UINT32_MAX) return false;
    *cap = (uint32_t)c;
    return true;
}

static bool u32_push(glog *L, u32_v *v, uint32_t x) {
    if (!GROW32(v->v, v->n, v->cap, 4)) {
        L->nomem = true;
        return false;
    }
    v->v[v->n++] = x;
    return true;
}

/* ---- decoded messages ------------------------------------------------------------------------------ */

typedef struct jctx {
    const ss_jnode *n;
} jctx;

static uint32_t child(jctx c, uint32_t obj, const char *name) {
    if (!obj) return 0;
    for (uint32_t x = c.n[obj].first; x; x = c.n[x].next)
        if (c.n[x].name && !strcmp(c.n[x].name, name)) return x;
    return 0;
}

static int64_t num(jctx c, uint32_t obj, const char *name, int64_t dflt) {
    uint32_t x = child(c, obj, name);
    return x && (c.n[x].kind == SS_J_INT || c.n[x].kind == SS_J_BOOL) ? c.n[x].num : dflt;
}

/* A string member: interned, NULL when null or absent. */
static const char *str(glog *L, jctx c, uint32_t obj, const char *name) {
    uint32_t x = child(c, obj, name);
    if (!x || c.n[x].kind != SS_J_STRING) return NULL;
    return intern(L, c.n[x].str, c.n[x].len);
}

/* A topic id: a uuid field (16 bytes, as the decoder gives it), or the text Kafka
 * prints (Uuid.toString()). Interned text. */
static const char *uuid_of(glog *L, jctx c, uint32_t x) {
    if (!x) return NULL;
    const ss_jnode *n = &c.n[x];
    if ((n->kind == SS_J_UUID || n->kind == SS_J_BYTES) && n->len == 16) {
        char t[23];
        ss_uuid_string(n->str, t);
        return intern(L, (const uint8_t *)t, strlen(t));
    }
    if (n->kind == SS_J_STRING) return intern(L, n->str, n->len);
    return NULL;
}

/* ---- groups and their partitions ----------------------------------------------------------------- */

static uint32_t group_get(glog *L, const uint8_t *id, size_t len, int64_t offset, int64_t time, bool *fresh) {
    uint32_t *aux;
    const char *s = gs_intern(&L->groups_tab, id, len, &aux);
    if (fresh) *fresh = false;
    if (!s) {
        L->nomem = true;
        return UINT32_MAX;
    }
    if (*aux) return *aux - 1;
    if (!GROW32(L->groups, L->ngroups, L->gcap, 16)) {
        L->nomem = true;
        return UINT32_MAX;
    }
    ggroup *g = &L->groups[L->ngroups];
    memset(g, 0, sizeof *g);
    g->id = s;
    g->first_offset = offset;
    g->first_time = time;
    g->last_time = time;
    g->open_gen = -1;
    *aux = ++L->ngroups;
    if (fresh) *fresh = true;
    return L->ngroups - 1;
}

static uint64_t tp_hash(uint32_t group, const char *topic, const char *topic_id, int32_t partition) {
    uint64_t k[4] = {group, (uint64_t)(uintptr_t)topic, (uint64_t)(uintptr_t)topic_id, (uint32_t)partition};
    return XXH3_64bits(k, sizeof k);
}

static bool tp_slots_grow(glog *L) {
    size_t nc = L->tp_slot_cap ? L->tp_slot_cap * 2 : 1024;
    uint32_t *ns = calloc(nc, sizeof *ns);
    if (!ns) return false;
    for (uint32_t i = 0; i < L->ntps; i++) {
        const gtp *t = &L->tps[i];
        size_t k = tp_hash(t->group, t->topic, t->topic ? NULL : t->topic_id, t->partition) & (nc - 1);
        while (ns[k]) k = (k + 1) & (nc - 1);
        ns[k] = i + 1;
    }
    free(L->tp_slots);
    L->tp_slots = ns;
    L->tp_slot_cap = nc;
    return true;
}

/* The partition of a group: by topic name when known (topic_id then only
 * recorded), else by topic id. UINT32_MAX when memory ran out. */
static uint32_t tp_get(glog *L, uint32_t group, const char *topic, const char *topic_id, int32_t partition) {
    const char *kid = topic ? NULL : topic_id;
    if (((size_t)L->ntps + 1) * 2 > L->tp_slot_cap && !tp_slots_grow(L)) {
        L->nomem = true;
        return UINT32_MAX;
    }
    size_t k = tp_hash(group, topic, kid, partition) & (L->tp_slot_cap - 1);
    for (;;) {
        uint32_t x = L->tp_slots[k];
        if (!x) break;
        gtp *t = &L->tps[x - 1];
        if (t->group == group && t->partition == partition && t->topic == topic &&
            (topic || t->topic_id == kid)) {
            if (topic_id && !t->topic_id) t->topic_id = topic_id;
            return x - 1;
        }
        k = (k + 1) & (L->tp_slot_cap - 1);
    }
    if (!GROW32(L->tps, L->ntps, L->tcap, 64)) {
        L->nomem = true;
        return UINT32_MAX;
    }
    gtp *t = &L->tps[L->ntps];
    memset(t, 0, sizeof *t);
    t->group = group;
    t->partition = partition;
    t->topic = topic;
    t->topic_id = topic_id;
    t->offset = t->commit_time = t->record_offset = -1;
    t->leader_epoch = -1;
    t->first_commit_time = t->last_commit_time = -1;
    L->tp_slots[k] = ++L->ntps;
    u32_push(L, &L->groups[group].tps, L->ntps - 1);
    return L->ntps - 1;
}

/* ---- owners ------------------------------------------------------------------------------------ */

static void owner_close(glog *L, uint32_t tp, int64_t time, int64_t offset) {
    gtp *t = &L->tps[tp];
    if (!(t->flags & TP_OPEN_OWNER)) return;
    ss_gowner *o = &t->owners.v[t->owners.n - 1];
    o->to_time = time;
    o->to_offset = offset;
    t->flags &= ~(uint32_t)TP_OPEN_OWNER;
}

/* member owns tp from this record on (or goes on owning it: the interval grows). */
static void owner_set(glog *L, uint32_t tp, const char *member, const char *instance, int32_t gen, int64_t time,
                      int64_t offset) {
    gtp *t = &L->tps[tp];
    if (t->flags & TP_OPEN_OWNER) {
        ss_gowner *o = &t->owners.v[t->owners.n - 1];
        if (o->member_id == member) {
            if (gen >= 0) o->generation_to = gen;
            if (instance && !o->instance_id) {
                o->instance_id = instance;
                o->instance_id_len = gs_len(instance);
            }
            return;
        }
        owner_close(L, tp, time, offset);
    }
    if (!GROW32(t->owners.v, t->owners.n, t->owners.cap, 2)) {
        L->nomem = true;
        return;
    }
    ss_gowner *o = &t->owners.v[t->owners.n++];
    memset(o, 0, sizeof *o);
    o->member_id = member;
    o->member_id_len = member ? gs_len(member) : 0;
    o->instance_id = instance;
    o->instance_id_len = instance ? gs_len(instance) : 0;
    o->from_time = time;
    o->from_offset = offset;
    o->to_time = o->to_offset = -1;
    o->generation_from = o->generation_to = gen;
    t->flags |= TP_OPEN_OWNER;
}

/* ---- the committed offset --------------------------------------------------------------------------- */

static void step(glog *L, gtp *t, int64_t time, int64_t record_offset, int64_t offset, bool txn) {
    if (!L->opts->steps) return;
    if (!GROW32(t->steps.v, t->steps.n, t->steps.cap, 4)) {
        L->nomem = true;
        return;
    }
    ss_gstep *s = &t->steps.v[t->steps.n++];
    s->time = time;
    s->record_offset = record_offset;
    s->offset = offset;
    s->transactional = txn;
}

static void set_committed(glog *L, gtp *t, int64_t offset, int64_t commit_time, int64_t record_offset,
                          int32_t leader_epoch, const char *metadata, bool txn, int64_t step_time,
                          int64_t step_offset) {
    t->offset = offset;
    t->commit_time = commit_time;
    t->record_offset = record_offset;
    t->leader_epoch = leader_epoch;
    t->metadata = metadata;
    t->flags |= TP_COMMITTED;
    if (txn) t->flags |= TP_TXN;
    else t->flags &= ~(uint32_t)TP_TXN;
    step(L, t, step_time, step_offset, offset, txn);
}

/* Is a commit of this partition and time kept in the list (opts.commits and the listing filters)? */
static bool keep_commit(const glog *L, const gtp *t, int64_t time, int64_t offset) {
    const ss_groups_opts *o = L->opts;
    if (!o->commits) return false;
    if (o->topic && (!t->topic || strcmp(o->topic, t->topic) != 0)) return false;
    if (o->partition >= 0 && t->partition != o->partition) return false;
    if (time < o->since_ms || time > o->until_ms) return false;
    if (offset < o->from_offset || offset > o->to_offset) return false;
    return true;
}

static gpid *pid_get(glog *L, int64_t pid, bool create) {
    for (uint32_t i = 0; i < L->npids; i++)
        if (L->pids[i].producer_id == pid) return &L->pids[i];
    if (!create) return NULL;
    if (!GROW32(L->pids, L->npids, L->pidcap, 8)) {
        L->nomem = true;
        return NULL;
    }
    gpid *p = &L->pids[L->npids++];
    memset(p, 0, sizeof *p);
    p->producer_id = pid;
    return p;
}

/* OffsetCommitKey/Value (record types 0 and 1): OffsetMetadataManager.replay. */
static void offset_commit(glog *L, const ss_batch *b, const ss_record *r, jctx c, const ss_cdecoded *dec) {
    uint32_t gn = child(c, dec->key, "group");
    if (!gn || c.n[gn].kind != SS_J_STRING) return;
    uint32_t gi = group_get(L, c.n[gn].str, c.n[gn].len, r->offset, r->timestamp, NULL);
    if (gi == UINT32_MAX) return;
    const char *topic = str(L, c, dec->key, "topic");
    int32_t part = (int32_t)num(c, dec->key, "partition", -1);
    if (!topic) return;
    uint32_t ti = tp_get(L, gi, topic, NULL, part);
    if (ti == UINT32_MAX) return;
    ggroup *g = &L->groups[gi];
    gtp *t = &L->tps[ti];
    if (r->timestamp > g->last_time) g->last_time = r->timestamp;
    if (dec->tombstone) {
        /* offsets.remove(group, topic, partition), and the pending offsets of the
         * group's open transactions for it */
        ss_gevent ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = SS_GEV_OFFSETS_DELETED;
        ev.time = r->timestamp;
        ev.offset = r->offset;
        ev.tp.topic = topic;
        ev.tp.topic_len = gs_len(topic);
        ev.tp.partition = part;
        ev.last_offset = t->flags & TP_COMMITTED ? t->offset : -1;
        if (t->pending) {
            for (uint32_t i = 0; i < L->npids; i++)
                for (uint32_t k = 0; k < L->pids[i].n; k++) {
                    gpending *pe = &L->pids[i].v[k];
                    if (pe->tp == ti && !pe->removed) {
                        pe->removed = true;
                        ev.pending_removed++;
                    }
                }
            t->pending = 0;
        }
        if (t->flags & TP_COMMITTED) step(L, t, r->timestamp, r->offset, -1, false);
        t->flags &= ~(uint32_t)(TP_COMMITTED | TP_TXN);
        t->offset = -1;
        t->deletions++;
        if (GROW32(g->events.v, g->events.n, g->events.cap, 4)) g->events.v[g->events.n++] = ev;
        else L->nomem = true;
        return;
    }
    /* a commit of a group that has no group record: Kafka creates an empty classic
     * group without protocol type ("simple consumer group") */
    if (!g->exists) {
        if (g->deleted) {
            ss_gevent ev;
            memset(&ev, 0, sizeof ev);
            ev.kind = SS_GEV_CREATED;
            ev.time = r->timestamp;
            ev.offset = r->offset;
            ev.to_protocol = SS_GPROTO_NONE;
            if (GROW32(g->events.v, g->events.n, g->events.cap, 4)) g->events.v[g->events.n++] = ev;
            g->deleted = false;
        }
        g->exists = true;
    }
    int64_t offset = num(c, dec->value, "offset", -1);
    int32_t leader_epoch = (int32_t)num(c, dec->value, "leaderEpoch", -1);
    int64_t ctime = num(c, dec->value, "commitTimestamp", r->timestamp);
    int64_t expire = num(c, dec->value, "expireTimestamp", -1);
    const char *metadata = str(L, c, dec->value, "metadata");
    bool txn = b->producer_id != -1;   /* RecordBatch.NO_PRODUCER_ID */
    t->commits++;
    g->commits++;
    if (t->first_commit_time < 0) t->first_commit_time = ctime;
    t->last_commit_time = ctime;
    gcrec cr;
    bool keep = keep_commit(L, t, ctime, offset);
    if (keep) {
        memset(&cr, 0, sizeof cr);
        cr.tp = ti;
        cr.record_offset = r->offset;
        cr.time = ctime;
        cr.offset = offset;
        cr.leader_epoch = leader_epoch;
        cr.metadata = metadata;
        cr.expire_time = expire;
        cr.producer_id = txn ? b->producer_id : -1;
        cr.producer_epoch = txn ? b->producer_epoch : -1;
        cr.generation = -1;
        cr.effective_time = -1;
        if (t->flags & TP_OPEN_OWNER) {
            const ss_gowner *o = &t->owners.v[t->owners.n - 1];
            cr.member = o->member_id;
            cr.instance = o->instance_id;
            cr.generation = o->generation_to;
        }
    }
    if (!txn) {
        set_committed(L, t, offset, ctime, r->offset, leader_epoch, metadata, false, ctime, r->offset);
        if (keep) {
            cr.outcome = SS_GOUT_PLAIN;
            cr.effective = 1;
            cr.effective_time = ctime;
            if (!gc_add(L, &cr)) L->nomem = true;
        }
        return;
    }
    /* pendingTransactionalOffsets[producerId].put(group, topic, partition, ...) */
    t->txn_commits++;
    g->txn_commits++;
    gpid *p = pid_get(L, b->producer_id, true);
    if (!p) return;
    p->producer_epoch = b->producer_epoch;
    for (uint32_t k = 0; k < p->n; k++)
        if (p->v[k].tp == ti) p->v[k].superseded = true;
    if (!GROW32(p->v, p->n, p->cap, 4)) {
        L->nomem = true;
        return;
    }
    gpending *pe = &p->v[p->n++];
    memset(pe, 0, sizeof *pe);
    pe->tp = ti;
    pe->record_offset = r->offset;
    pe->offset = offset;
    pe->commit_time = ctime;
    pe->leader_epoch = leader_epoch;
    pe->metadata = metadata;
    pe->held = -1;
    t->pending++;
    if (keep) {
        cr.outcome = SS_GOUT_OPEN;
        pe->held = gc_hold(L, &cr);
        if (pe->held < 0) L->nomem = true;
    }
}

/* A COMMIT or ABORT marker of a producer: OffsetMetadataManager.replayEndTransactionMarker. */
void glog_marker(glog *L, const ss_batch *b, const ss_record *r) {
    if (r->control_type != SS_CTRL_COMMIT && r->control_type != SS_CTRL_ABORT) return;
    gpid *p = pid_get(L, b->producer_id, false);
    if (!p) return;   /* "no pending offsets are present. Ignoring it." */
    bool commit = r->control_type == SS_CTRL_COMMIT;
    int64_t mtime = b->max_timestamp;
    for (uint32_t k = 0; k < p->n; k++) {
        gpending *pe = &p->v[k];
        gtp *t = &L->tps[pe->tp];
        bool effective = false;
        if (!pe->removed) {
            if (t->pending) t->pending--;
            if (commit) t->txn_committed++;
            else t->txn_aborted++;
        }
        /* "We always keep the most recent committed offset when we have a mix of
         * transactional and regular offset commits": only a record offset later
         * than the current committed offset's record offset replaces it. */
        if (commit && !pe->removed && !pe->superseded &&
            (!(t->flags & TP_COMMITTED) || pe->record_offset > t->record_offset)) {
            set_committed(L, t, pe->offset, pe->commit_time, pe->record_offset, pe->leader_epoch, pe->metadata, true,
                          mtime, r->offset);
            effective = true;
        }
        if (pe->held >= 0)
            gc_resolve(L, pe->held, commit ? SS_GOUT_COMMITTED : SS_GOUT_ABORTED, effective, effective ? mtime : -1);
    }
    free(p->v);
    *p = L->pids[--L->npids];
}

/* ---- classic groups ---------------------------------------------------------------------------- */

static void add_event(glog *L, ggroup *g, int kind, int64_t time, int64_t offset, int from, int to) {
    if (!GROW32(g->events.v, g->events.n, g->events.cap, 4)) {
        L->nomem = true;
        return;
    }
    ss_gevent *ev = &g->events.v[g->events.n++];
    memset(ev, 0, sizeof *ev);
    ev->kind = kind;
    ev->time = time;
    ev->offset = offset;
    ev->last_offset = -1;
    ev->from_protocol = from;
    ev->to_protocol = to;
}

static void close_open_epoch(glog *L, ggroup *g, int64_t time);
static void group_drop(glog *L, ggroup *g, int64_t time, int64_t offset);

/* A group record that makes (or keeps) the group of this protocol: a conversion when
 * the other protocol's group was removed in the same batch (GroupMetadataManager
 * convertToConsumerGroup / convertToClassicGroup write the tombstones and the new
 * group's records in one append), a re-creation after a deletion. */
static void group_made(glog *L, ggroup *g, int protocol, int64_t time, int64_t offset) {
    if (g->exists && g->protocol == protocol) return;
    if (g->deleted && g->removed_batch == L->batch_no && g->protocol != protocol && g->events.n &&
        g->events.v[g->events.n - 1].kind == SS_GEV_DELETED) {
        ss_gevent *ev = &g->events.v[g->events.n - 1];
        ev->kind = SS_GEV_PROTOCOL_CHANGE;
        ev->from_protocol = g->protocol;
        ev->to_protocol = protocol;
    } else if (g->exists && g->protocol != protocol) {
        /* a group of the other protocol without a tombstone before (compaction removed it) */
        add_event(L, g, SS_GEV_PROTOCOL_CHANGE, time, offset, g->protocol, protocol);
    } else if (g->deleted) {
        add_event(L, g, SS_GEV_CREATED, time, offset, -1, protocol);
    }
    if (g->protocol == SS_GPROTO_CONSUMER && protocol != SS_GPROTO_CONSUMER) close_open_epoch(L, g, time);
    g->exists = true;
    g->deleted = false;
    g->protocol = protocol;
}

static void group_removed(glog *L, ggroup *g, int64_t time, int64_t offset) {
    if (!g->exists) return;   /* "If the group does not exist, we can ignore the tombstone." */
    add_event(L, g, SS_GEV_DELETED, time, offset, g->protocol, -1);
    g->exists = false;
    g->deleted = true;
    g->removed_batch = L->batch_no;
}

static ggen *gen_new(glog *L, uint32_t gi, int protocol, int32_t generation, int64_t time, int64_t offset) {
    if (!GROW32(L->gens, L->ngens, L->gencap, 16)) {
        L->nomem = true;
        return NULL;
    }
    ggroup *g = &L->groups[gi];
    if (g->gens.n) {
        ggen *prev = &L->gens[g->gens.v[g->gens.n - 1]];
        if (prev->g.until_time < 0) prev->g.until_time = time;
    }
    ggen *x = &L->gens[L->ngens];
    memset(x, 0, sizeof *x);
    x->group = gi;
    x->g.protocol = protocol;
    x->g.generation = generation;
    x->g.time = time;
    x->g.offset = offset;
    x->g.until_time = -1;
    x->members_at = L->nmembers;
    x->assign_at = L->nassigns;
    if (!u32_push(L, &g->gens, L->ngens)) return NULL;
    L->ngens++;
    return x;
}

static gmem *member_new(glog *L) {
    if (!GROW32(L->members, L->nmembers, L->memcap, 32)) {
        L->nomem = true;
        return NULL;
    }
    gmem *m = &L->members[L->nmembers++];
    memset(m, 0, sizeof *m);
    m->m.session_timeout_ms = m->m.rebalance_timeout_ms = -1;
    m->m.member_epoch = m->m.previous_member_epoch = -1;
    m->m.state = -1;
    m->parts_at = m->pending_at = L->refs.n;
    return m;
}

static void set_str(const char *s, const char **p, size_t *len) {
    *p = s;
    *len = s ? gs_len(s) : 0;
}

/* GroupMetadataKey/Value (record type 2). The value replaces the group whole
 * (groups.put(groupId, classicGroup)); a tombstone removes it (removeGroup). */
static void group_metadata(glog *L, const ss_record *r, jctx c, const ss_cdecoded *dec) {
    uint32_t gn = child(c, dec->key, "group");
    if (!gn || c.n[gn].kind != SS_J_STRING) return;
    uint32_t gi = group_get(L, c.n[gn].str, c.n[gn].len, r->offset, r->timestamp, NULL);
    if (gi == UINT32_MAX) return;
    ggroup *g = &L->groups[gi];
    if (r->timestamp > g->last_time) g->last_time = r->timestamp;
    if (dec->tombstone) {
        group_drop(L, g, r->timestamp, r->offset);   /* removeGroup(groupId), whatever its type */
        return;
    }
    group_made(L, g, SS_GPROTO_CLASSIC, r->timestamp, r->offset);
    const char *ptype = str(L, c, dec->value, "protocolType");
    int32_t generation = (int32_t)num(c, dec->value, "generation", -1);
    const char *protocol = str(L, c, dec->value, "protocol");
    g->protocol_type = ptype && gs_len(ptype) ? ptype : NULL;
    if (protocol) g->assignor = protocol;
    ggen *x = gen_new(L, gi, SS_GPROTO_CLASSIC, generation, r->timestamp, r->offset);
    if (!x) return;
    uint32_t xi = (uint32_t)(x - L->gens);
    x->g.protocol_type = ptype;
    x->g.protocol_name = protocol;
    x->g.leader = str(L, c, dec->value, "leader");
    bool consumer = ptype && !strcmp(ptype, "consumer");
    uint32_t stamp = ++g->stamp;
    uint32_t members = child(c, dec->value, "members");
    for (uint32_t mn = members ? c.n[members].first : 0; mn; mn = c.n[mn].next) {
        gmem *m = member_new(L);
        if (!m) return;
        set_str(str(L, c, mn, "memberId"), &m->m.member_id, &m->m.member_id_len);
        set_str(str(L, c, mn, "groupInstanceId"), &m->m.instance_id, &m->m.instance_id_len);
        set_str(str(L, c, mn, "clientId"), &m->m.client_id, &m->m.client_id_len);
        set_str(str(L, c, mn, "clientHost"), &m->m.client_host, &m->m.client_host_len);
        m->m.session_timeout_ms = (int32_t)num(c, mn, "sessionTimeout", -1);
        /* GroupMetadataManager: "rebalanceTimeout == -1 ? sessionTimeout" (value version 0 has none) */
        m->m.rebalance_timeout_ms = (int32_t)num(c, mn, "rebalanceTimeout", -1);
        /* the assignment, decoded as ConsumerProtocolAssignment when protocolType is "consumer"
         * (kept as bytes by the decoder when that fails) */
        uint32_t asg = child(c, mn, "assignment");
        m->m.assignment_known = consumer && asg && c.n[asg].kind == SS_J_OBJECT;
        if (!m->m.assignment_known) continue;
        uint32_t tps = child(c, asg, "assignedPartitions");
        for (uint32_t tn = tps ? c.n[tps].first : 0; tn; tn = c.n[tn].next) {
            const char *topic = str(L, c, tn, "topic");
            uint32_t parts = child(c, tn, "partitions");
            if (!topic || !parts) continue;
            for (uint32_t pn = c.n[parts].first; pn; pn = c.n[pn].next) {
                uint32_t ti = tp_get(L, gi, topic, NULL, (int32_t)c.n[pn].num);
                if (ti == UINT32_MAX) return;
                m = &L->members[L->nmembers - 1];   /* tp_get may not move members; refs may move */
                if (!GROW32(L->refs.v, L->refs.n, L->refs.cap, 64)) {
                    L->nomem = true;
                    return;
                }
                L->refs.v[L->refs.n++] = ti;
                m->nparts++;
                owner_set(L, ti, m->m.member_id, m->m.instance_id, generation, r->timestamp, r->offset);
                L->tps[ti].seen = stamp;
            }
        }
    }
    x = &L->gens[xi];
    x->nmembers = L->nmembers - x->members_at;
    /* the partitions no member of this generation owns */
    for (uint32_t i = 0; i < g->tps.n; i++) {
        gtp *t = &L->tps[g->tps.v[i]];
        if (t->seen != stamp) owner_close(L, g->tps.v[i], r->timestamp, r->offset);
    }
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
    return k;
}

static void kmember_drop(ggroup *g, kmember *k) {
    free(k->owned.v);
    free(k->pending.v);
    *k = g->kmembers[--g->nkmembers];
}

static const char *topic_name_of(const ggroup *g, const char *topic_id) {
    for (uint32_t i = 0; i < g->nnames; i++)
        if (g->names[i].id == topic_id) return g->names[i].name;
    return NULL;
}

/* The snapshot of the members when a group epoch ends. */
static void close_open_epoch(glog *L, ggroup *g, int64_t time) {
    if (g->open_gen < 0) return;
    uint32_t xi = (uint32_t)g->open_gen;
    g->open_gen = -1;
    L->gens[xi].members_at = L->nmembers;
    for (uint32_t i = 0; i < g->nkmembers; i++) {
        const kmember *k = &g->kmembers[i];
        gmem *m = member_new(L);
        if (!m) return;
        set_str(k->member_id, &m->m.member_id, &m->m.member_id_len);
        set_str(k->instance_id, &m->m.instance_id, &m->m.instance_id_len);
        set_str(k->client_id, &m->m.client_id, &m->m.client_id_len);
        set_str(k->client_host, &m->m.client_host, &m->m.client_host_len);
        m->m.session_timeout_ms = k->session_timeout_ms;
        m->m.rebalance_timeout_ms = k->rebalance_timeout_ms;
        m->m.member_epoch = k->epoch;
        m->m.previous_member_epoch = k->previous_epoch;
        m->m.state = k->state;
        m->m.assignment_known = k->has_assignment;
        for (int w = 0; w < 2; w++) {
            const gref_v *src = w ? &k->pending : &k->owned;
            if (w) m->pending_at = L->refs.n;
            for (uint32_t j = 0; j < src->n; j++) {
                if (!GROW32(L->refs.v, L->refs.n, L->refs.cap, 64)) {
                    L->nomem = true;
                    return;
                }
                L->refs.v[L->refs.n++] = src->v[j];
            }
            if (w) m->npending = src->n;
            else m->nparts = src->n;
        }
    }
    L->gens[xi].nmembers = L->nmembers - L->gens[xi].members_at;
    L->gens[xi].open = false;
    (void)time;
}

/* The group goes: nobody owns its partitions any more, its generation ends. */
static void group_drop(glog *L, ggroup *g, int64_t time, int64_t offset) {
    if (!g->exists) return;   /* "If the group does not exist, we can ignore the tombstone." */
    close_open_epoch(L, g, time);
    if (g->gens.n) {
        ggen *prev = &L->gens[g->gens.v[g->gens.n - 1]];
        if (prev->g.until_time < 0) prev->g.until_time = time;
    }
    for (uint32_t i = 0; i < g->tps.n; i++) owner_close(L, g->tps.v[i], time, offset);
    while (g->nkmembers) kmember_drop(g, &g->kmembers[g->nkmembers - 1]);
    group_removed(L, g, time, offset);
}

static ggen *open_epoch(glog *L, uint32_t gi, int32_t epoch, int64_t time, int64_t offset) {
    ggroup *g = &L->groups[gi];
    close_open_epoch(L, g, time);
    ggen *x = gen_new(L, gi, SS_GPROTO_CONSUMER, epoch, time, offset);
    if (!x) return NULL;
    x->open = true;
    g = &L->groups[gi];
    g->open_gen = (int32_t)(x - L->gens);
    return x;
}

/* The keys of types 3..8 carry "groupId" (and "memberId"). */
static uint32_t kgroup(glog *L, const ss_record *r, jctx c, const ss_cdecoded *dec) {
    uint32_t gn = child(c, dec->key, "groupId");
    if (!gn || c.n[gn].kind != SS_J_STRING) return UINT32_MAX;
    uint32_t gi = group_get(L, c.n[gn].str, c.n[gn].len, r->offset, r->timestamp, NULL);
    if (gi == UINT32_MAX) return gi;
    if (r->timestamp > L->groups[gi].last_time) L->groups[gi].last_time = r->timestamp;
    return gi;
}

/* a list of TopicPartitions {topicId, partitions[]} into gtp indices */
static bool kparts(glog *L, uint32_t gi, jctx c, uint32_t list, gref_v *out) {
    out->n = 0;
    for (uint32_t tn = list ? c.n[list].first : 0; tn; tn = c.n[tn].next) {
        const char *id = uuid_of(L, c, child(c, tn, "topicId"));
        uint32_t parts = child(c, tn, "partitions");
        if (!id || !parts) continue;
        const char *name = topic_name_of(&L->groups[gi], id);
        if (!name && L->input_name) {
            const char *n = L->input_name(L->input_name_ctx, id);
            if (n) name = intern(L, (const uint8_t *)n, strlen(n));
        }
        for (uint32_t pn = c.n[parts].first; pn; pn = c.n[pn].next) {
            uint32_t ti = tp_get(L, gi, name, id, (int32_t)c.n[pn].num);
            if (ti == UINT32_MAX) return false;
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
    ggroup *g = &L->groups[gi];
    if (g->open_gen < 0) {
        /* no group epoch read yet (compaction can leave it later in the log) */
        if (!open_epoch(L, gi, -1, time, offset)) return;
        g = &L->groups[gi];
    }
    if (!GROW32(L->assigns, L->nassigns, L->assigncap, 16)) {
        L->nomem = true;
        return;
    }
    gassign_int *a = &L->assigns[L->nassigns++];
    memset(a, 0, sizeof *a);
    a->a.time = time;
    a->a.offset = offset;
    set_str(k->member_id, &a->a.member_id, &a->a.member_id_len);
    a->a.left = left;
    a->a.member_epoch = k->epoch;
    a->a.previous_member_epoch = k->previous_epoch;
    a->a.state = k->state;
    a->parts_at = L->refs.n;
    for (int w = 0; w < 2; w++) {
        const gref_v *src = w ? &k->pending : &k->owned;
        if (w) a->pending_at = L->refs.n;
        for (uint32_t j = 0; j < src->n; j++) {
            if (!GROW32(L->refs.v, L->refs.n, L->refs.cap, 64)) {
                L->nomem = true;
                return;
            }
            L->refs.v[L->refs.n++] = src->v[j];
        }
        if (w) a->npending = src->n;
        else a->nparts = src->n;
    }
    L->gens[g->open_gen].nassign++;
}

/* ConsumerGroupCurrentMemberAssignment (type 8): the partitions a member owns are
 * its assigned partitions and those pending revocation (ConsumerGroupMember: the
 * member keeps them until it acknowledges their revocation). */
static void current_assignment(glog *L, uint32_t gi, const ss_record *r, jctx c, const ss_cdecoded *dec) {
    const char *mid = str(L, c, dec->key, "memberId");
    if (!mid) return;
    ggroup *g = &L->groups[gi];
    kmember *k = kmember_get(L, g, mid, !dec->tombstone);
    if (!k) return;   /* "If the member does not exist, we can ignore the tombstone." */
    gref_v old = k->owned, oldp = k->pending;
    gref_v nw = {0}, np = {0};
    if (!dec->tombstone) {
        if (!kparts(L, gi, c, child(c, dec->value, "assignedPartitions"), &nw) ||
            !kparts(L, gi, c, child(c, dec->value, "partitionsPendingRevocation"), &np)) {
            free(nw.v);
            free(np.v);
            return;
        }
        g = &L->groups[gi];
        k = kmember_get(L, g, mid, false);
        k->epoch = (int32_t)num(c, dec->value, "memberEpoch", -1);
        k->previous_epoch = (int32_t)num(c, dec->value, "previousMemberEpoch", -1);
        k->state = (int)num(c, dec->value, "state", -1);
        k->has_assignment = true;
    } else {
        /* LEAVE_GROUP_MEMBER_EPOCH, nothing assigned nor pending */
        k->epoch = k->previous_epoch = -1;
    }
    for (uint32_t i = 0; i < old.n; i++)
        if (!ref_in(&nw, old.v[i]) && !ref_in(&np, old.v[i])) owner_close(L, old.v[i], r->timestamp, r->offset);
    for (uint32_t i = 0; i < oldp.n; i++)
        if (!ref_in(&nw, oldp.v[i]) && !ref_in(&np, oldp.v[i])) owner_close(L, oldp.v[i], r->timestamp, r->offset);
    for (int w = 0; w < 2; w++) {
        const gref_v *v = w ? &np : &nw;
        for (uint32_t i = 0; i < v->n; i++)
            owner_set(L, v->v[i], mid, k->instance_id, k->epoch, r->timestamp, r->offset);
    }
    free(old.v);
    free(oldp.v);
    k->owned = nw;
    k->pending = np;
    record_assignment(L, gi, k, dec->tombstone, r->timestamp, r->offset);
}

static void consumer_group_record(glog *L, const ss_record *r, jctx c, const ss_cdecoded *dec) {
    uint32_t gi = kgroup(L, r, c, dec);
    if (gi == UINT32_MAX) return;
    ggroup *g = &L->groups[gi];
    int type = dec->record_type;
    if (!dec->tombstone || type == 3) {
        /* getOrMaybeCreatePersistedConsumerGroup(groupId, value != null) */
        if (!dec->tombstone) group_made(L, g, SS_GPROTO_CONSUMER, r->timestamp, r->offset);
        else if (!g->exists || g->protocol != SS_GPROTO_CONSUMER) return;
    } else if (!g->exists || g->protocol != SS_GPROTO_CONSUMER) {
        return;   /* a tombstone of a group that does not exist is ignored */
    }
    g = &L->groups[gi];
    switch (type) {
    case 3:   /* ConsumerGroupMetadata: the group epoch; its tombstone removes the group */
        if (dec->tombstone) {
            group_drop(L, g, r->timestamp, r->offset);
            return;
        }
        open_epoch(L, gi, (int32_t)num(c, dec->value, "epoch", -1), r->timestamp, r->offset);
        return;
    case 4: {   /* ConsumerGroupPartitionMetadata: topic ids and names */
        if (dec->tombstone) return;
        uint32_t topics = child(c, dec->value, "topics");
        for (uint32_t tn = topics ? c.n[topics].first : 0; tn; tn = c.n[tn].next) {
            const char *id = uuid_of(L, c, child(c, tn, "topicId"));
            const char *name = str(L, c, tn, "topicName");
            if (!id || !name) continue;
            g = &L->groups[gi];
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
        return;
    }
    case 5: {   /* ConsumerGroupMemberMetadata */
        const char *mid = str(L, c, dec->key, "memberId");
        if (!mid) return;
        g = &L->groups[gi];
        kmember *k = kmember_get(L, g, mid, !dec->tombstone);
        if (!k) return;
        if (dec->tombstone) {
            kmember_drop(g, k);
            return;
        }
        k->has_metadata = true;
        k->instance_id = str(L, c, dec->value, "instanceId");
        k->client_id = str(L, c, dec->value, "clientId");
        k->client_host = str(L, c, dec->value, "clientHost");
        k->rebalance_timeout_ms = (int32_t)num(c, dec->value, "rebalanceTimeoutMs", -1);
        k->assignor = str(L, c, dec->value, "serverAssignor");
        uint32_t cm = child(c, dec->value, "classicMemberMetadata");
        k->session_timeout_ms = cm ? (int32_t)num(c, cm, "sessionTimeoutMs", -1) : -1;
        if (k->assignor) L->groups[gi].assignor = k->assignor;
        return;
    }
    case 8: current_assignment(L, gi, r, c, dec); return;
    default: return;   /* 6, 7: the target assignment, not what members own */
    }
}

void glog_undecoded(glog *L, const ss_record *r) {
    /* the key: int16 type, then the group id as a non-flexible string (int16 length) */
    if (r->key_len < 4) return;
    const uint8_t *k = r->key;
    int16_t n = (int16_t)((unsigned)k[2] << 8 | k[3]);
    if (n < 0 || 4 + (int32_t)n > r->key_len) return;
    uint32_t gi = group_get(L, k + 4, (size_t)n, r->offset, r->timestamp, NULL);
    if (gi == UINT32_MAX) return;
    L->groups[gi].undecoded++;
    if (r->timestamp > L->groups[gi].last_time) L->groups[gi].last_time = r->timestamp;
}

/* ---- one record ----------------------------------------------------------------------------------- */

void glog_record(glog *L, const ss_batch *b, const ss_record *r, const ss_cdecoded *dec) {
    jctx c = {dec->nodes};
    switch (dec->record_type) {
    case 0:
    case 1: offset_commit(L, b, r, c, dec); break;
    case 2: group_metadata(L, r, c, dec); break;
    case 3:
    case 4:
    case 5:
    case 6:
    case 7:
    case 8: consumer_group_record(L, r, c, dec); break;
    default: break;   /* share groups (9..15): not consumer groups */
    }
}

/* ---- the end ----------------------------------------------------------------------------------- */

void glog_end(glog *L) {
    for (uint32_t i = 0; i < L->ngroups; i++) close_open_epoch(L, &L->groups[i], -1);
    /* name the partitions known by topic id only: a ConsumerGroupPartitionMetadata
     * record read later in the log */
    for (uint32_t i = 0; i < L->ntps; i++) {
        gtp *t = &L->tps[i];
        if (t->topic || !t->topic_id) continue;
        const char *name = topic_name_of(&L->groups[t->group], t->topic_id);
        if (name) t->topic = name;
    }
    /* transactions still open: their offsets stay pending */
    for (uint32_t i = 0; i < L->npids; i++) {
        for (uint32_t k = 0; k < L->pids[i].n; k++) {
            gpending *pe = &L->pids[i].v[k];
            if (!pe->removed) L->tps[pe->tp].txn_open++;
            if (pe->held >= 0) gc_resolve(L, pe->held, SS_GOUT_OPEN, false, -1);
        }
    }
    if (!gc_finish(L)) L->nomem = L->nomem || !L->commits.failed;
}

void glog_free(glog *L) {
    for (uint32_t i = 0; i < L->ngroups; i++) {
        ggroup *g = &L->groups[i];
        free(g->tps.v);
        free(g->gens.v);
        free(g->events.v);
        for (uint32_t k = 0; k < g->nkmembers; k++) {
            free(g->kmembers[k].owned.v);
            free(g->kmembers[k].pending.v);
        }
        free(g->kmembers);
        free(g->names);
    }
    free(L->groups);
    for (uint32_t i = 0; i < L->ntps; i++) {
        free(L->tps[i].owners.v);
        free(L->tps[i].steps.v);
    }
    free(L->tps);
    free(L->tp_slots);
    free(L->gens);
    free(L->members);
    free(L->assigns);
    free(L->refs.v);
    for (uint32_t i = 0; i < L->npids; i++) free(L->pids[i].v);
    free(L->pids);
    gc_free(&L->commits);
    for (size_t i = 0; i < L->nnotes; i++) free(L->notes[i]);
    free(L->notes);
    free(L->note_levels);
    gs_free(&L->groups_tab);
    gs_free(&L->strs);
}
