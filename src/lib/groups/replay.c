/* segscan - consumer groups: replay the records of one __consumer_offsets
 * partition, in log order, as Kafka's group coordinator replays them when it
 * loads the partition (CoordinatorLoaderImpl -> GroupCoordinatorShard.replay,
 * by record type: 0/1 OffsetMetadataManager.replay, 2 and 3..8 the membership
 * records of members.c; control batches -> replayEndTransactionMarker).
 * Beside Kafka's state (what the coordinator holds at the end) it keeps the
 * history an operator asks about: who owned each partition when and how it
 * committed, every move back of the committed offset, where a group restarted
 * after a deletion of its offsets, commits past the data's end, transactions
 * aborted or still open, producer epochs raised past their markers.
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

bool grow32_(void *vp, uint32_t *cap, size_t size, size_t first) {
    size_t c = *cap;
    if (!ss_grow_(vp, &c, size, first) || c > UINT32_MAX) return false;
    *cap = (uint32_t)c;
    return true;
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

const char *g_intern(glog *L, const uint8_t *s, size_t len) {
    const char *p = gs_intern(&L->strs, s, len, NULL);
    if (!p) L->nomem = true;
    return p;
}

bool g_u32_push(glog *L, u32_v *v, uint32_t x) {
    if (!GROW32(v->v, v->n, v->cap, 4)) {
        L->nomem = true;
        return false;
    }
    v->v[v->n++] = x;
    return true;
}

/* ---- decoded messages ------------------------------------------------------------------------------ */

uint32_t j_child(jctx c, uint32_t obj, const char *name) {
    if (!obj) return 0;
    for (uint32_t x = c.n[obj].first; x; x = c.n[x].next)
        if (c.n[x].name && !strcmp(c.n[x].name, name)) return x;
    return 0;
}

int64_t j_num(jctx c, uint32_t obj, const char *name, int64_t dflt) {
    uint32_t x = j_child(c, obj, name);
    return x && (c.n[x].kind == SS_J_INT || c.n[x].kind == SS_J_BOOL) ? c.n[x].num : dflt;
}

/* A string member: interned, NULL when null or absent. */
const char *j_str(glog *L, jctx c, uint32_t obj, const char *name) {
    uint32_t x = j_child(c, obj, name);
    if (!x || c.n[x].kind != SS_J_STRING) return NULL;
    return g_intern(L, c.n[x].str, c.n[x].len);
}

/* A topic id: a uuid field (16 bytes, as the decoder gives it), or the text Kafka
 * prints (Uuid.toString()). Interned text. */
const char *j_uuid(glog *L, jctx c, uint32_t x) {
    if (!x) return NULL;
    const ss_jnode *n = &c.n[x];
    if ((n->kind == SS_J_UUID || n->kind == SS_J_BYTES) && n->len == 16) {
        char t[23];
        ss_uuid_string(n->str, t);
        return g_intern(L, (const uint8_t *)t, strlen(t));
    }
    if (n->kind == SS_J_STRING) return g_intern(L, n->str, n->len);
    return NULL;
}

/* ---- groups and their partitions ----------------------------------------------------------------- */

static bool wanted(const glog *L, const uint8_t *id, size_t len) {
    const ss_groups_opts *o = L->opts;
    if (!o->ngroups) return true;
    for (size_t i = 0; i < o->ngroups; i++)
        if (strlen(o->groups[i]) == len && !memcmp(o->groups[i], id, len)) return true;
    return false;
}

bool glog_wanted_key(const glog *L, const ss_record *r) {
    if (!L->opts->ngroups || r->key_len < 4) return true;
    int16_t n = (int16_t)((unsigned)r->key[2] << 8 | r->key[3]);
    if (n < 0 || 4 + (int32_t)n > r->key_len) return true;
    return wanted(L, r->key + 4, (size_t)n);
}

uint32_t g_group_get(glog *L, const uint8_t *id, size_t len, int64_t offset, int64_t time) {
    uint32_t *aux;
    const char *s = gs_intern(&L->groups_tab, id, len, &aux);
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
    g->wanted = wanted(L, id, len);
    *aux = ++L->ngroups;
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
uint32_t g_tp_get(glog *L, uint32_t group, const char *topic, const char *topic_id, int32_t partition) {
    const char *kid = topic ? NULL : topic_id;
    /* a load of 3/4 at most: 5.3 bytes of slots per partition */
    if (((size_t)L->ntps + 1) * 4 > L->tp_slot_cap * 3 && !tp_slots_grow(L)) {
        L->nomem = true;
        return UINT32_MAX;
    }
    size_t k = tp_hash(group, topic, kid, partition) & (L->tp_slot_cap - 1);
    for (;;) {
        uint32_t x = L->tp_slots[k];
        if (!x) break;
        gtp *t = &L->tps[x - 1];
        if (t->group == group && t->partition == partition && t->topic == topic && (topic || t->topic_id == kid)) {
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
    t->run_max = -1;
    L->tp_slots[k] = ++L->ntps;
    g_u32_push(L, &L->groups[group].tps, L->ntps - 1);
    return L->ntps - 1;
}

/* The data partition of a group's partition, when the data partitions were read. */
static const ss_tl_partition *tl_of(glog *L, gtp *t) {
    if (!(t->flags & TP_TL)) {
        t->flags |= TP_TL;
        t->tl = t->topic && L->opts->data ? ss_timelines_find(L->opts->data, t->topic, gs_len(t->topic), t->partition)
                                          : NULL;
    }
    return t->tl;
}

/* ---- events -------------------------------------------------------------------------------------- */

gev *g_add_event(glog *L, ggroup *g, int kind, int64_t time, int64_t offset) {
    if (!GROW32(g->events.v, g->events.n, g->events.cap, 4)) {
        L->nomem = true;
        return NULL;
    }
    gev *e = &g->events.v[g->events.n++];
    memset(e, 0, sizeof *e);
    e->e.kind = kind;
    e->e.time = time;
    e->e.offset = offset;
    e->e.last_offset = e->e.new_offset = -1;
    e->e.restart_offset = e->e.restart_time = e->e.restart_record = -1;
    e->e.later_max = -1;
    e->e.commit_offset = e->e.log_start = e->e.log_end = -1;
    e->e.last_time = -1;
    e->e.producer_id = -1;
    e->e.producer_epoch = e->e.marker_epoch = e->e.old_epoch = -1;
    e->e.marker_time = e->e.marker_offset = -1;
    e->e.committed_before = e->e.first_time = -1;
    e->e.prev_marker_time = e->e.next_marker_time = -1;
    e->e.from_protocol = e->e.to_protocol = -1;
    e->seg_max = -1;
    return e;
}

static void set_tp(const gtp *t, ss_gtp_ref *r) {
    r->topic = t->topic;
    r->topic_len = t->topic ? gs_len(t->topic) : 0;
    r->topic_id = t->topic_id;
    r->partition = t->partition;
}

/* An event of partition ti that asks what the partition committed after it
 * (later_max): the events of a partition are chained, and each keeps the
 * highest committed offset up to the next (seg_max); glog_end takes the
 * maximum over the rest of the chain. */
static gev *tp_event(glog *L, uint32_t ti, int kind, int64_t time, int64_t offset, bool watch) {
    gtp *t = &L->tps[ti];
    ggroup *g = &L->groups[t->group];
    gev *e = g_add_event(L, g, kind, time, offset);
    if (!e) return NULL;
    set_tp(t, &e->e.tp);
    if (watch) {
        uint32_t idx = g->events.n;
        if (t->watch) {
            gev *p = &g->events.v[t->watch - 1];
            p->seg_max = t->run_max;
            p->next_watch = idx;
        }
        t->watch = idx;
        t->run_max = -1;
    }
    return e;
}

/* ---- owners ------------------------------------------------------------------------------------ */

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* the median of the intervals in a ring (the mean of the middle two when even), -1 when none */
static int32_t ring_median(const gring *r) {
    if (!r || !r->n) return -1;
    uint32_t v[CADENCE];
    memcpy(v, r->iv, r->n * sizeof *v);
    qsort(v, r->n, sizeof *v, cmp_u32);
    uint64_t m = r->n % 2 ? v[r->n / 2] : ((uint64_t)v[r->n / 2 - 1] + v[r->n / 2]) / 2;
    return m > INT32_MAX ? INT32_MAX : (int32_t)m;
}

static void ring_release(glog *L, gtp *t) {
    if (!t->ring) return;
    L->rings[t->ring - 1].next_free = L->ring_free;
    L->ring_free = t->ring;
    t->ring = 0;
}

static gring *ring_of(glog *L, gtp *t) {
    if (t->ring) return &L->rings[t->ring - 1];
    uint32_t i;
    if (L->ring_free) {
        i = L->ring_free - 1;
        L->ring_free = L->rings[i].next_free;
    } else {
        if (!GROW32(L->rings, L->nrings, L->ringcap, 64)) {
            L->nomem = true;
            return NULL;
        }
        i = L->nrings++;
    }
    memset(&L->rings[i], 0, sizeof L->rings[i]);
    t->ring = i + 1;
    return &L->rings[i];
}

void g_owner_close(glog *L, uint32_t tp, int64_t time, int64_t offset) {
    gtp *t = &L->tps[tp];
    if (!(t->flags & TP_OPEN_OWNER)) return;
    gown *o = &L->owners[t->owner_last - 1];
    o->to_time = time;
    o->to_offset = offset;
    o->interval_ms = ring_median(t->ring ? &L->rings[t->ring - 1] : NULL);
    ring_release(L, t);
    t->flags &= ~(uint32_t)TP_OPEN_OWNER;
}

/* member owns tp from this record on (or goes on owning it: the interval grows). */
void g_owner_set(glog *L, uint32_t tp, const char *member, const char *instance, int32_t gen, int64_t time,
                 int64_t offset) {
    gtp *t = &L->tps[tp];
    if (t->flags & TP_OPEN_OWNER) {
        gown *o = &L->owners[t->owner_last - 1];
        if (o->member == member) {
            if (gen >= 0) o->gen_to = gen;
            if (instance && !o->instance) o->instance = instance;
            return;
        }
        g_owner_close(L, tp, time, offset);
    }
    if (!GROW32(L->owners, L->nowners, L->owncap, 64)) {
        L->nomem = true;
        return;
    }
    gown *o = &L->owners[L->nowners++];
    memset(o, 0, sizeof *o);
    o->member = member;
    o->instance = instance;
    o->from_time = time;
    o->from_offset = offset;
    o->to_time = o->to_offset = -1;
    o->gen_from = o->gen_to = gen;
    o->start_committed = t->flags & TP_COMMITTED ? t->offset : -1;
    o->last_commit_time = o->last_commit_offset = -1;
    o->interval_ms = -1;
    if (t->owner_last) L->owners[t->owner_last - 1].next = L->nowners;
    else t->owner_first = L->nowners;
    t->owner_last = L->nowners;
    t->flags |= TP_OPEN_OWNER;
}

/* A commit of tp, counted for its owner then: its cadence. A commit while nobody owns the
 * partition is its last owner's (a cooperative rebalance takes a partition away in one
 * generation and gives it in the next; the member that lost it commits it in between, from
 * its ConsumerRebalanceListener.onPartitionsRevoked). */
static void owner_commit(glog *L, gtp *t, int64_t ctime, int64_t offset) {
    if (!t->owner_last) return;
    gown *o = &L->owners[t->owner_last - 1];
    if (!(t->flags & TP_OPEN_OWNER)) {
        o->commits++;
        o->last_commit_time = ctime;
        o->last_commit_offset = offset;
        return;
    }
    if (o->commits) {
        gring *r = ring_of(L, t);
        if (r) {
            int64_t d = ctime - o->last_commit_time;
            r->iv[r->pos] = d < 0 ? 0 : d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
            r->pos = (uint8_t)((r->pos + 1) % CADENCE);
            if (r->n < CADENCE) r->n++;
        }
    }
    o->commits++;
    o->last_commit_time = ctime;
    o->last_commit_offset = offset;
}

/* ---- the committed offset --------------------------------------------------------------------------- */

/* The partition's committed offset is now `offset` (a plain commit, or a transaction's
 * at its COMMIT marker): a move back is a rewind; the first after a deletion of the
 * partition's offset is where the group restarted. */
static void set_committed(glog *L, uint32_t ti, int64_t offset, int64_t commit_time, int64_t record_offset,
                          int32_t leader_epoch, const char *metadata, bool txn, int64_t step_time,
                          int64_t step_offset) {
    gtp *t = &L->tps[ti];
    bool had = t->flags & TP_COMMITTED;
    int64_t old = t->offset;
    t->offset = offset;
    t->commit_time = commit_time;
    t->record_offset = record_offset;
    t->leader_epoch = leader_epoch;
    t->metadata = metadata;
    t->flags |= TP_COMMITTED;
    if (txn) t->flags |= TP_TXN;
    else t->flags &= ~(uint32_t)TP_TXN;
    if (offset > t->run_max) t->run_max = offset;
    if (t->del_pending) {
        ss_gevent *d = &L->groups[t->group].events.v[t->del_pending - 1].e;
        d->restart_offset = offset;
        d->restart_time = step_time;
        d->restart_record = step_offset;
        t->del_pending = 0;
    }
    if (had && offset < old) {
        uint32_t members = L->groups[t->group].nmembers_now;
        gev *e = tp_event(L, ti, SS_GEV_REWIND, step_time, step_offset, true);
        if (e) {
            e->e.last_offset = old;
            e->e.new_offset = offset;
            e->e.had_members = members > 0;
            e->e.transactional = txn;
        }
    }
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

/* Committed offsets past the data partition's log end at the commit's time: one
 * event for a run of them. */
static void check_range(glog *L, uint32_t ti, int64_t ctime, int64_t offset, int64_t record_offset) {
    gtp *t = &L->tps[ti];
    const ss_tl_partition *tl = tl_of(L, t);
    if (!tl || tl->next_offset < 0) return;
    int64_t end = ss_tl_end_at(tl, ctime);
    if (offset <= end) {
        t->oor = 0;
        return;
    }
    ggroup *g = &L->groups[t->group];
    if (t->oor) {
        ss_gevent *e = &g->events.v[t->oor - 1].e;
        e->count++;
        e->last_time = ctime;
        return;
    }
    gev *e = tp_event(L, ti, SS_GEV_OUT_OF_RANGE, ctime, record_offset, false);
    if (!e) return;
    e->e.commit_offset = offset;
    e->e.log_start = tl->log_start;
    e->e.log_end = end;
    e->e.count = 1;
    e->e.last_time = ctime;
    t->oor = L->groups[t->group].events.n;
}

/* ---- producers ------------------------------------------------------------------------------------- */

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
    p->producer_epoch = p->marker_epoch = -1;
    p->marker_time = p->marker_record = p->first_time = p->prev_marker_time = -1;
    return p;
}

static void await_marker(glog *L, gpid *p, uint32_t group, uint32_t event) {
    if (!GROW32(p->awaiting, p->nawait, p->capawait, 4)) {
        L->nomem = true;
        return;
    }
    p->awaiting[p->nawait++] = (uint64_t)group << 32 | event;
}

/* The first offset commit of a producer's transaction, under `epoch`: Kafka's
 * TransactionCoordinator raises a producer's epoch in three ways, and only one
 * of them is a new instance:
 *   - transaction version 2 (KIP-890) raises it at the end of every
 *     transaction: the markers carry epoch + 1 (prepareAbortOrCommit with
 *     supportEpochBump) and its next transaction writes under that epoch;
 *   - a transaction that timed out (abortTimedOutTransactions) or that was
 *     open when another instance called initTransactions (handleInitProducerId
 *     -> prepareFenceProducerEpoch) is aborted with the epoch raised; the
 *     producer that ran it is fenced;
 *   - initTransactions raises it (prepareIncrementProducerEpoch): the
 *     producer writing under the new epoch is a new instance (or the same one
 *     restarted), and a producer still holding the old one is fenced.
 * An epoch past what the last marker allows is the last kind: an epoch-bump
 * event, judged further (timeout or fencing) by the findings from
 * __transaction_state. */
static void txn_begin(glog *L, gpid *p, uint32_t gi, int16_t epoch, const ss_record *r) {
    bool bump = false, open_before = p->open;
    if (p->open) bump = epoch > p->producer_epoch; /* a new epoch while a transaction is open here */
    else if (p->producer_epoch >= 0)
        bump = epoch != p->producer_epoch &&
               !(p->marker && epoch == p->marker_epoch && p->marker_epoch == p->producer_epoch + 1) &&
               epoch > p->producer_epoch && epoch > p->marker_epoch;
    if (bump) {
        ggroup *g = &L->groups[gi];
        gev *e = g_add_event(L, g, SS_GEV_EPOCH_BUMP, r->timestamp, r->offset);
        if (e) {
            e->e.producer_id = p->producer_id;
            e->e.producer_epoch = epoch;
            e->e.old_epoch = p->producer_epoch;
            e->e.marker_epoch = p->marker ? p->marker_epoch : -1;
            e->e.marker_time = p->marker ? p->marker_time : -1;
            e->e.marker_offset = p->marker ? p->marker_record : -1;
            e->e.marker_aborted = p->marker == 2;
            e->e.open_before = open_before;
            e->e.txn_versions = p->tv;
        }
    }
    if (!p->open) {
        p->open = true;
        p->first_time = r->timestamp;
        p->prev_marker_time = p->marker_time;
    }
}

/* OffsetCommitKey/Value (record types 0 and 1): OffsetMetadataManager.replay. */
static void offset_commit(glog *L, const ss_batch *b, const ss_record *r, jctx c, const ss_cdecoded *dec) {
    uint32_t gn = j_child(c, dec->key, "group");
    if (!gn || c.n[gn].kind != SS_J_STRING) return;
    uint32_t gi = g_group_get(L, c.n[gn].str, c.n[gn].len, r->offset, r->timestamp);
    if (gi == UINT32_MAX) return;
    const char *topic = j_str(L, c, dec->key, "topic");
    int32_t part = (int32_t)j_num(c, dec->key, "partition", -1);
    if (!topic) return;
    uint32_t ti = g_tp_get(L, gi, topic, NULL, part);
    if (ti == UINT32_MAX) return;
    ggroup *g = &L->groups[gi];
    gtp *t = &L->tps[ti];
    if (r->timestamp > g->last_time) g->last_time = r->timestamp;
    if (dec->tombstone) {
        /* offsets.remove(group, topic, partition), and the pending offsets of the
         * group's open transactions for it */
        int64_t last = t->flags & TP_COMMITTED ? t->offset : -1;
        uint64_t removed = 0;
        if (t->pending) {
            for (uint32_t i = 0; i < L->npids; i++)
                for (uint32_t k = 0; k < L->pids[i].n; k++) {
                    gpending *pe = &L->pids[i].v[k];
                    if (pe->tp == ti && !pe->removed) {
                        pe->removed = true;
                        removed++;
                    }
                }
            t->pending = 0;
        }
        t->flags &= ~(uint32_t)(TP_COMMITTED | TP_TXN);
        t->offset = -1;
        t->deletions++;
        t->oor = 0;
        gev *e = tp_event(L, ti, SS_GEV_OFFSETS_DELETED, r->timestamp, r->offset, true);
        if (e) {
            e->e.last_offset = last;
            e->e.pending_removed = removed;
            t = &L->tps[ti];
            t->del_pending = L->groups[gi].events.n;
        }
        return;
    }
    m_group_exists(L, &L->groups[gi], r->timestamp, r->offset);
    g = &L->groups[gi];
    t = &L->tps[ti];
    int64_t offset = j_num(c, dec->value, "offset", -1);
    int32_t leader_epoch = (int32_t)j_num(c, dec->value, "leaderEpoch", -1);
    int64_t ctime = j_num(c, dec->value, "commitTimestamp", r->timestamp);
    int64_t expire = j_num(c, dec->value, "expireTimestamp", -1);
    const char *metadata = j_str(L, c, dec->value, "metadata");
    bool txn = b->producer_id != -1; /* RecordBatch.NO_PRODUCER_ID */
    t = &L->tps[ti];
    t->commits++;
    g->commits++;
    if (t->first_commit_time < 0) t->first_commit_time = ctime;
    t->last_commit_time = ctime;
    owner_commit(L, t, ctime, offset);
    check_range(L, ti, ctime, offset, r->offset);
    t = &L->tps[ti];
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
            const gown *o = &L->owners[t->owner_last - 1];
            cr.member = o->member;
            cr.instance = o->instance;
            cr.generation = o->gen_to;
        }
    }
    if (!txn) {
        set_committed(L, ti, offset, ctime, r->offset, leader_epoch, metadata, false, ctime, r->offset);
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
    L->groups[gi].txn_commits++;
    gpid *p = pid_get(L, b->producer_id, true);
    if (!p) return;
    txn_begin(L, p, gi, b->producer_epoch, r);
    p->producer_epoch = b->producer_epoch;
    p->group = gi;
    for (uint32_t k = 0; k < p->n; k++)
        if (p->v[k].tp == ti) p->v[k].superseded = true;
    if (!GROW32(p->v, p->n, p->cap, 4)) {
        L->nomem = true;
        return;
    }
    gpending *pe = &p->v[p->n++];
    memset(pe, 0, sizeof *pe);
    t = &L->tps[ti];
    pe->tp = ti;
    pe->record_offset = r->offset;
    pe->offset = offset;
    pe->commit_time = ctime;
    pe->committed_before = t->flags & TP_COMMITTED ? t->offset : -1;
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

/* the pending offset of a transaction that is about a partition's last commit in it */
static bool last_of_txn(const gpending *pe) { return !pe->removed && !pe->superseded; }

static void txn_event(glog *L, gpid *p, const gpending *pe, int kind, int64_t time, int64_t record) {
    gev *e = tp_event(L, pe->tp, kind, time, record, kind == SS_GEV_TXN_ABORTED);
    if (!e) return;
    e->e.commit_offset = pe->offset;
    e->e.producer_id = p->producer_id;
    e->e.producer_epoch = p->producer_epoch;
    e->e.committed_before = pe->committed_before;
    e->e.first_time = p->first_time;
    e->e.prev_marker_time = p->prev_marker_time;
    e->e.txn_versions = p->tv;
    uint32_t gi = L->tps[pe->tp].group;
    if (kind == SS_GEV_TXN_ABORTED) await_marker(L, p, gi, L->groups[gi].events.n - 1);
}

/* A COMMIT or ABORT marker of a producer: OffsetMetadataManager.replayEndTransactionMarker. */
void glog_marker(glog *L, const ss_batch *b, const ss_record *r) {
    if (r->control_type != SS_CTRL_COMMIT && r->control_type != SS_CTRL_ABORT) return;
    gpid *p = pid_get(L, b->producer_id, false);
    if (!p) return; /* "no pending offsets are present. Ignoring it." */
    bool commit = r->control_type == SS_CTRL_COMMIT;
    int64_t mtime = b->max_timestamp;
    /* the producer's earlier aborted transactions learn when its next marker came */
    for (uint32_t i = 0; i < p->nawait; i++) {
        uint32_t gi = (uint32_t)(p->awaiting[i] >> 32), ei = (uint32_t)p->awaiting[i];
        if (gi < L->ngroups && ei < L->groups[gi].events.n) L->groups[gi].events.v[ei].e.next_marker_time = mtime;
    }
    p->nawait = 0;
    if (p->open && commit) {
        /* what the COMMIT marker's epoch says of the producer's transaction version */
        if (b->producer_epoch == p->producer_epoch) p->tv |= 1;
        else if (b->producer_epoch == p->producer_epoch + 1) p->tv |= 2;
    }
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
            set_committed(L, pe->tp, pe->offset, pe->commit_time, pe->record_offset, pe->leader_epoch, pe->metadata,
                          true, mtime, r->offset);
            effective = true;
        }
        if (!commit && last_of_txn(pe)) {
            txn_event(L, p, pe, SS_GEV_TXN_ABORTED, mtime, r->offset);
            ggroup *g = &L->groups[L->tps[pe->tp].group];
            ss_gevent *e = &g->events.v[g->events.n - 1].e;
            e->marker_epoch = b->producer_epoch;
            e->marker_time = mtime;
            e->marker_offset = r->offset;
        }
        if (pe->held >= 0)
            gc_resolve(L, pe->held, commit ? SS_GOUT_COMMITTED : SS_GOUT_ABORTED, effective, effective ? mtime : -1);
    }
    p->n = 0;
    p->open = false;
    p->marker = commit ? 1 : 2;
    p->marker_epoch = b->producer_epoch;
    p->marker_time = mtime;
    p->marker_record = r->offset;
}

/* ---- one record ----------------------------------------------------------------------------------- */

void glog_undecoded(glog *L, const ss_record *r) {
    /* the key: int16 type, then the group id as a non-flexible string (int16 length) */
    if (r->key_len < 4) return;
    const uint8_t *k = r->key;
    int16_t n = (int16_t)((unsigned)k[2] << 8 | k[3]);
    if (n < 0 || 4 + (int32_t)n > r->key_len) return;
    uint32_t gi = g_group_get(L, k + 4, (size_t)n, r->offset, r->timestamp);
    if (gi == UINT32_MAX) return;
    L->groups[gi].undecoded++;
    if (r->timestamp > L->groups[gi].last_time) L->groups[gi].last_time = r->timestamp;
}

void glog_record(glog *L, const ss_batch *b, const ss_record *r, const ss_cdecoded *dec) {
    jctx c = {dec->nodes};
    switch (dec->record_type) {
    case 0:
    case 1: offset_commit(L, b, r, c, dec); break;
    case 2: m_group_metadata(L, r, c, dec); break;
    case 3:
    case 4:
    case 5:
    case 6:
    case 7:
    case 8: m_consumer_group_record(L, r, c, dec); break;
    default: break; /* share groups (9..15): not consumer groups */
    }
}

/* ---- the end ----------------------------------------------------------------------------------- */

void glog_end(glog *L) {
    for (uint32_t i = 0; i < L->ngroups; i++) m_close_open_epoch(L, &L->groups[i]);
    /* name the partitions known by topic id only: a ConsumerGroupPartitionMetadata
     * record read later in the log */
    for (uint32_t i = 0; i < L->ntps; i++) {
        gtp *t = &L->tps[i];
        if (t->topic || !t->topic_id) continue;
        const char *name = m_topic_name_of(&L->groups[t->group], t->topic_id);
        if (name) t->topic = name;
    }
    /* transactions still open: their offsets stay pending */
    for (uint32_t i = 0; i < L->npids; i++) {
        gpid *p = &L->pids[i];
        for (uint32_t k = 0; k < p->n; k++) {
            gpending *pe = &p->v[k];
            if (!pe->removed) L->tps[pe->tp].txn_open++;
            if (last_of_txn(pe)) txn_event(L, p, pe, SS_GEV_TXN_OPEN, pe->commit_time, pe->record_offset);
            if (pe->held >= 0) gc_resolve(L, pe->held, SS_GOUT_OPEN, false, -1);
        }
    }
    /* the cadence of the owners that still own their partitions; what was committed after
     * each event that asks (the chain of its partition's events, from its end) */
    for (uint32_t i = 0; i < L->ntps; i++) {
        gtp *t = &L->tps[i];
        if ((t->flags & TP_OPEN_OWNER) && t->ring)
            L->owners[t->owner_last - 1].interval_ms = ring_median(&L->rings[t->ring - 1]);
        if (t->watch) L->groups[t->group].events.v[t->watch - 1].seg_max = t->run_max;
    }
    for (uint32_t i = 0; i < L->ngroups; i++) {
        gevent_v *ev = &L->groups[i].events;
        for (uint32_t k = ev->n; k-- > 0;) {
            gev *e = &ev->v[k];
            int64_t m = e->seg_max;
            if (e->next_watch && ev->v[e->next_watch - 1].e.later_max > m) m = ev->v[e->next_watch - 1].e.later_max;
            e->e.later_max = m;
        }
    }
    if (!gc_finish(L)) L->nomem = L->nomem || !L->commits.failed;
}

void glog_free(glog *L) {
    for (uint32_t i = 0; i < L->ngroups; i++) m_free_group(&L->groups[i]);
    free(L->groups);
    free(L->tps);
    free(L->tp_slots);
    free(L->owners);
    free(L->rings);
    free(L->gens);
    free(L->members);
    free(L->assigns);
    free(L->refs.v);
    for (uint32_t i = 0; i < L->npids; i++) {
        free(L->pids[i].v);
        free(L->pids[i].awaiting);
    }
    free(L->pids);
    gc_free(&L->commits);
    for (size_t i = 0; i < L->nnotes; i++) free(L->notes[i]);
    free(L->notes);
    free(L->note_levels);
    gs_free(&L->groups_tab);
    gs_free(&L->strs);
}
