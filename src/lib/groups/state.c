/* segscan - consumer groups: the state a log's replay shares (groups_int.h):
 * interned strings, the notes, the decoded messages' nodes, the groups and
 * their partitions, the events, and the owners of each partition with their
 * commits' cadence. offsets.c (commits and transaction markers) and members.c
 * (classic and KIP-848 membership) build on it; replay.c dispatches records.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <xxhash.h>

#include "base/grow.h"
#include "base/javaint.h"
#include "groups_int.h"

/* ---- interned strings ---------------------------------------------------------------------- */

struct gs_chunk {
    gs_chunk *next;
    size_t size;
    uint8_t data[];
};

static uint64_t gs_hash(const uint8_t *s, size_t len) { return XXH3_64bits(s, len); }

/* The slots, twice as many; the aux numbers beside them when the table keeps them (with_aux:
 * a caller asks for them; the other strings' table never does, and goes without) */
static bool gs_grow(gstrtab *t, bool with_aux) {
    /* from 64 slots: a log of a few groups (a fuzz input, a small cluster's partition) pays
     * for the slots it fills, not for a thousand */
    size_t nc = t->cap ? t->cap * 2 : 64;
    const char **ns = calloc(nc, sizeof *ns);
    uint32_t *na = with_aux ? calloc(nc, sizeof *na) : NULL;
    if (!ns || (with_aux && !na)) {
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
        if (na) na[k] = t->aux[i];
    }
    free(t->slots);
    free(t->aux);
    t->slots = ns;
    t->aux = na;
    t->cap = nc;
    return true;
}

static char *gs_store(gstrtab *t, const uint8_t *s, size_t len) {
    /* not aligned: the length is read with memcpy (gs_len) */
    size_t need = 4 + len + 1;
    if ((size_t)(t->end - t->cur) < need) {
        /* the chunks double from 256 bytes to 60,000 (as many bytes as the table holds):
         * the strings of a small log take a few hundred bytes, not 60,000 */
        size_t size = t->bytes < 256 ? 256 : t->bytes < 60000 ? (size_t)t->bytes : 60000;
        if (size < need) size = need;
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
    if (len > UINT32_MAX - 16 || t->sealed) {
        t->nomem = true;
        return NULL;
    }
    if (!t->cap) t->with_aux = aux != NULL; /* a table asks for them from its first string on, or never */
    if ((t->n + 1) * 4 > t->cap * 3 && !gs_grow(t, t->with_aux)) {
        t->nomem = true;
        return NULL;
    }
    size_t k = gs_hash(s, len) & (t->cap - 1);
    for (;;) {
        const char *x = t->slots[k];
        if (!x) break;
        if (gs_len(x) == len && (len == 0 || memcmp(x, s, len) == 0)) {
            if (aux) *aux = t->aux ? &t->aux[k] : NULL;
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
    if (t->aux) t->aux[k] = 0;
    t->n++;
    if (aux) *aux = t->aux ? &t->aux[k] : NULL;
    return p;
}

void gs_seal(gstrtab *t) {
    free(t->slots);
    free(t->aux);
    t->slots = NULL;
    t->aux = NULL;
    t->cap = 0;
    t->sealed = true;
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
    if (!ss_grow_(vp, &c, size, first, realloc) || c > UINT32_MAX) return false;
    *cap = (uint32_t)c;
    return true;
}

/* ---- the log's large arrays ---------------------------------------------------------------------
 * The arrays that grow with a log's partitions, members and generations double
 * as they grow. From 64 KiB on such an array is a mapping of its own grown with
 * mremap: the pages past its last item are never touched, so the doubling's
 * room costs address space, not memory (from malloc, realloc copies into a new
 * block, the old one stays in the heap, and the slack is half the array on
 * average). No huge pages, unlike base/mem.h's ss_big_realloc: a 2 MiB page per
 * array of each of 50 logs would cost more than the slack. Under the
 * sanitizers every array comes from malloc (they watch it there). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define GV_MALLOC_ONLY 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define GV_MALLOC_ONLY 1
#endif
#endif
#ifndef GV_MALLOC_ONLY
#define GV_MALLOC_ONLY 0
#endif

typedef struct gv_hdr {
    size_t mapped; /* bytes mapped, header included; 0: from malloc */
    size_t used;   /* bytes asked for */
} gv_hdr;

#define GV_MAP_MIN ((size_t)64 << 10)

static void *gv_resize(void *p, size_t n) {
    gv_hdr *h = p ? (gv_hdr *)p - 1 : NULL;
    size_t need = n + sizeof *h;
    if (need < n) return NULL;
    if (GV_MALLOC_ONLY || (need < GV_MAP_MIN && (!h || !h->mapped))) {
        gv_hdr *nh = realloc(h, need);
        if (!nh) return NULL;
        nh->mapped = 0;
        nh->used = n;
        return nh + 1;
    }
    size_t m = (need + 4095) / 4096 * 4096;
    void *q;
    if (h && h->mapped) q = mremap(h, h->mapped, m, MREMAP_MAYMOVE);
    else {
        q = mmap(NULL, m, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (q != MAP_FAILED && h) {
            memcpy((gv_hdr *)q + 1, h + 1, h->used);
            free(h);
        }
    }
    if (q == MAP_FAILED) return NULL;
    gv_hdr *nh = q;
    nh->mapped = m;
    nh->used = n;
    return nh + 1;
}

bool gvgrow_(gcount *acct, void *vp, uint32_t *cap, size_t size, size_t first) {
    void *v;
    memcpy(&v, vp, sizeof v);
    size_t nc = *cap ? (size_t)*cap * 2 : first;
    if (nc > UINT32_MAX || nc > SIZE_MAX / size) return false;
    void *nv = gv_resize(v, nc * size);
    if (!nv) return false;
    memcpy(vp, &nv, sizeof nv);
    g_count(acct, (nc - *cap) * size);
    *cap = (uint32_t)nc;
    return true;
}

void g_vfree(void *p) {
    if (!p) return;
    gv_hdr *h = (gv_hdr *)p - 1;
    if (h->mapped) munmap(h, h->mapped);
    else free(h);
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

void glog_note(glog *L, ss_severity severity, const char *fmt, ...) {
    if (L->notes.n >= 100) {
        L->notes_dropped++;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    (void)ss_problems_vadd(&L->notes, severity, SS_E_OK, fmt, ap);
    va_end(ap);
}

/* the bytes of a string table: its arena and its slots */
static size_t gs_bytes(const gstrtab *t) {
    return (size_t)t->bytes + t->cap * (sizeof *t->slots + (t->with_aux ? sizeof *t->aux : 0));
}

const char *g_intern(glog *L, const uint8_t *s, size_t len) {
    size_t before = gs_bytes(&L->strs);
    const char *p = gs_intern(&L->strs, s, len, NULL);
    g_count(L->in_memory, gs_bytes(&L->strs) - before);
    if (!p) L->nomem = true;
    return p;
}

bool g_u32_push(glog *L, u32_v *v, uint32_t x) {
    uint32_t cap = v->cap;
    if (!GROW32(v->v, v->n, v->cap, 4)) {
        L->nomem = true;
        return false;
    }
    g_count(L->in_memory, (size_t)(v->cap - cap) * sizeof *v->v);
    v->v[v->n++] = x;
    return true;
}

/* ---- decoded messages ------------------------------------------------------------------------------ */

uint32_t j_child(jctx c, uint32_t obj, const char *name) {
    if (!obj) return 0;
    /* the first letter first: a value's fields mostly differ there (offset, leaderEpoch,
     * metadata, commitTimestamp), and this runs a few times for every commit */
    for (uint32_t x = c.n[obj].first; x; x = c.n[x].next) {
        const char *m = c.n[x].name;
        if (m && (m == name || (m[0] == name[0] && !strcmp(m, name)))) return x;
    }
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

/* a topic id's name from the log's own offset commits (groups.c reads them before the replay) */
const char *g_commit_topic_name(const glog *L, const char *topic_id) {
    for (uint32_t i = 0; i < L->ncommit_names; i++)
        if (L->commit_names[i].id == topic_id) return L->commit_names[i].name;
    return NULL;
}

void g_commit_name_missed(glog *L, const char *topic_id) {
    if (!L->one_pass) return;
    for (uint32_t i = 0; i < L->nmissed; i++)
        if (L->missed[i] == topic_id) return;
    if (!GROW32(L->missed, L->nmissed, L->missed_cap, 8)) {
        L->redo = true; /* cannot remember it: the other way needs no list */
        return;
    }
    L->missed[L->nmissed++] = topic_id;
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
    size_t before = gs_bytes(&L->groups_tab);
    const char *s = gs_intern(&L->groups_tab, id, len, &aux);
    g_count(L->in_memory, gs_bytes(&L->groups_tab) - before);
    if (!s) {
        L->nomem = true;
        return UINT32_MAX;
    }
    if (*aux) return *aux - 1;
    if (!GVGROW(L, L->groups, L->ngroups, L->gcap, 16)) {
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
    g->topology_epoch = -1;
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
        const gpart *t = &L->tps[i];
        size_t k = tp_hash(t->group, t->topic, t->topic ? NULL : t->topic_id, t->partition) & (nc - 1);
        while (ns[k]) k = (k + 1) & (nc - 1);
        ns[k] = i + 1;
    }
    free(L->tp_slots);
    g_count(L->in_memory, (nc - L->tp_slot_cap) * sizeof *ns);
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
        gpart *t = &L->tps[x - 1];
        if (t->group == group && t->partition == partition && t->topic == topic && (topic || t->topic_id == kid)) {
            if (topic_id && !t->topic_id) t->topic_id = topic_id;
            return x - 1;
        }
        k = (k + 1) & (L->tp_slot_cap - 1);
    }
    if (!GVGROW(L, L->tps, L->ntps, L->tcap, 64)) {
        L->nomem = true;
        return UINT32_MAX;
    }
    gpart *t = &L->tps[L->ntps];
    memset(t, 0, sizeof *t);
    t->group = group;
    t->partition = partition;
    t->topic = topic;
    t->topic_id = topic_id;
    t->offset = t->commit_time = t->record_offset = -1;
    t->leader_epoch = -1;
    t->first_commit_time = t->last_commit_time = -1;
    t->reader_max = -1;
    L->tp_slots[k] = ++L->ntps;
    g_u32_push(L, &L->groups[group].tps, L->ntps - 1);
    return L->ntps - 1;
}

/* The data partition of a group's partition, when the data partitions were read: from a
 * small cache by (interned topic, partition), else found and remembered there (a partition
 * not read is remembered too). */
const ss_tl_partition *g_tl_of(glog *L, const gpart *t) {
    if (!t->topic || !L->opts->data) return NULL;
    if (!L->tl_cache && !(L->tl_cache = calloc(GTL_SLOTS, sizeof *L->tl_cache)))
        return ss_timelines_find(L->opts->data, t->topic, gs_len(t->topic), t->partition);
    uint64_t h = ((uint64_t)(uintptr_t)t->topic ^ (uint64_t)(uint32_t)t->partition << 40) * 0x9E3779B97F4A7C15u;
    gtl_slot *c = &L->tl_cache[h >> 56 & (GTL_SLOTS - 1)];
    if (c->topic != t->topic || c->partition != t->partition) {
        c->topic = t->topic;
        c->partition = t->partition;
        c->tl = ss_timelines_find(L->opts->data, t->topic, gs_len(t->topic), t->partition);
    }
    return c->tl;
}

/* ---- events -------------------------------------------------------------------------------------- */

gev *g_add_event(glog *L, ggroup *g, enum ss_gevent_kind kind, int64_t time, int64_t offset) {
    uint32_t cap = g->events.cap;
    if (!GROW32(g->events.v, g->events.n, g->events.cap, 4)) {
        L->nomem = true;
        return NULL;
    }
    g_count(L->in_memory, (size_t)(g->events.cap - cap) * sizeof *g->events.v);
    gev *e = &g->events.v[g->events.n++];
    memset(e, 0, sizeof *e);
    e->e.kind = kind;
    e->e.time = time;
    e->e.offset = offset;
    e->e.last_offset = e->e.new_offset = -1;
    e->e.restart_offset = e->e.restart_time = e->e.restart_record = -1;
    e->e.later_max = e->e.reader_max = e->e.old_time = e->e.step_max = -1;
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

void g_set_tp(const gpart *t, ss_gtp_ref *r) {
    r->topic = t->topic;
    r->topic_len = t->topic ? gs_len(t->topic) : 0;
    r->topic_id = t->topic_id;
    r->partition = t->partition;
}

/* An event of partition ti that asks what the partition committed after it
 * (later_max): the events of a partition are chained, and each keeps the
 * highest committed offset up to the next (seg_max); glog_end takes the
 * maximum over the rest of the chain. */
gev *g_tp_event(glog *L, uint32_t ti, enum ss_gevent_kind kind, int64_t time, int64_t offset, bool watch) {
    gpart *t = &L->tps[ti];
    ggroup *g = &L->groups[t->group];
    gev *e = g_add_event(L, g, kind, time, offset);
    if (!e) return NULL;
    g_set_tp(t, &e->e.tp);
    if (watch) {
        uint32_t idx = g->events.n;
        gpart_ext *x = g_tpx(L, ti);
        if (!x) return e;
        if (x->watch) {
            gev *p = &g->events.v[x->watch - 1];
            p->seg_max = x->run_max;
            p->next_watch = idx;
        }
        x->watch = idx;
        x->run_max = -1;
    }
    return e;
}

gpart_ext *g_tpx(glog *L, uint32_t tp) {
    gpart *t = &L->tps[tp];
    if (t->ext) return &L->tpx[t->ext - 1];
    if (!GVGROW(L, L->tpx, L->ntpx, L->tpxcap, 16)) {
        L->nomem = true;
        return NULL;
    }
    gpart_ext *x = &L->tpx[L->ntpx];
    memset(x, 0, sizeof *x);
    x->run_max = -1;
    t->ext = ++L->ntpx;
    return x;
}

/* ---- owners ------------------------------------------------------------------------------------ */

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* the median of the intervals in a ring (the mean of the middle two when even), -1 when none */
int32_t g_ring_median(const gring *r, unsigned n) {
    if (!r || !n) return -1;
    uint32_t v[CADENCE];
    memcpy(v, r->iv, n * sizeof *v);
    qsort(v, n, sizeof *v, cmp_u32);
    uint64_t m = n % 2 ? v[n / 2] : ((uint64_t)v[n / 2 - 1] + v[n / 2]) / 2;
    return m > INT32_MAX ? INT32_MAX : (int32_t)m;
}

static void ring_release(glog *L, gpart *t) {
    if (!t->ring) return;
    L->rings[t->ring - 1].iv[0] = L->ring_free;
    L->ring_free = t->ring;
    t->ring = 0;
}

static gring *ring_of(glog *L, gpart *t) {
    if (t->ring) return &L->rings[t->ring - 1];
    uint32_t i;
    if (L->ring_free) {
        i = L->ring_free - 1;
        L->ring_free = L->rings[i].iv[0];
    } else {
        if (!GVGROW(L, L->rings, L->nrings, L->ringcap, 64)) {
            L->nomem = true;
            return NULL;
        }
        i = L->nrings++;
    }
    memset(&L->rings[i], 0, sizeof L->rings[i]);
    t->ring = i + 1;
    t->ring_n = t->ring_pos = 0;
    return &L->rings[i];
}

/* The point of a record (the last one made, when it is that record's), index + 1; 0 when
 * memory ran out. */
static uint32_t point_of(glog *L, int64_t time, int64_t offset) {
    if (L->npoints) {
        const gpoint *p = &L->points[L->npoints - 1];
        if (p->time == time && p->offset == offset) return L->npoints;
    }
    if (!GVGROW(L, L->points, L->npoints, L->pointcap, 64)) {
        L->nomem = true;
        return 0;
    }
    L->points[L->npoints].time = time;
    L->points[L->npoints].offset = offset;
    return ++L->npoints;
}

void g_owner_close(glog *L, uint32_t tp, int64_t time, int64_t offset) {
    gpart *t = &L->tps[tp];
    if (!(t->flags & TP_OPEN_OWNER)) return;
    uint32_t pt = point_of(L, time, offset);
    gownership *o = &L->owners[t->owner_last - 1];
    o->to = pt;
    o->interval_ms = g_ring_median(t->ring ? &L->rings[t->ring - 1] : NULL, t->ring_n);
    ring_release(L, t);
    t->flags &= (uint8_t) ~(TP_OPEN_OWNER | TP_START_PENDING);
}

/* the first record of a stretch without members (a group tombstone after an empty generation
 * does not move it) */
void g_group_emptied(glog *L, ggroup *g, int64_t time, int64_t offset) {
    if (!g->empty_now) g->empty_pt = point_of(L, time, offset);
    g->empty_now = true;
}

/* member owns tp from this record on (or goes on owning it: the interval grows). */
void g_owner_set(glog *L, uint32_t tp, const char *member, const char *instance, int32_t gen, int64_t time,
                 int64_t offset) {
    gpart *t = &L->tps[tp];
    if (t->flags & TP_OPEN_OWNER) {
        gownership *o = &L->owners[t->owner_last - 1];
        if (o->member == member) {
            if (gen >= 0) o->gen_to = gen;
            if (instance && !o->instance) o->instance = instance;
            return;
        }
        g_owner_close(L, tp, time, offset);
    }
    uint32_t pt = point_of(L, time, offset);
    if (!GVGROW(L, L->owners, L->nowners, L->owncap, 64)) {
        L->nomem = true;
        return;
    }
    gownership *o = &L->owners[L->nowners++];
    memset(o, 0, sizeof *o);
    o->member = member;
    o->instance = instance;
    o->from = pt;
    o->gen_from = o->gen_to = gen;
    o->start_committed = t->flags & TP_COMMITTED ? t->offset : -1;
    /* a transactional commit pending: the consumer's OffsetFetch asks for stable offsets
     * (ConsumerCoordinator.sendOffsetFetchRequest: requireStable true) and gets
     * UNSTABLE_OFFSET_COMMIT until the marker; it resumes from what the marker leaves */
    const gpart_ext *px = g_tpx_if(L, t);
    if (px && px->pending) t->flags |= TP_START_PENDING;
    else t->flags &= (uint8_t)~TP_START_PENDING;
    o->last_commit_time = o->last_commit_offset = -1;
    o->interval_ms = -1;
    o->prev = t->owner_last;
    /* the group had no members after the owner before lost it: no handover from one to the other */
    const ggroup *g = &L->groups[t->group];
    if (o->prev && g->empty_pt && L->owners[o->prev - 1].to && g->empty_pt >= L->owners[o->prev - 1].to)
        o->empty = g->empty_pt;
    t->owner_last = L->nowners;
    t->flags |= TP_OPEN_OWNER;
}

/* A commit of tp, counted for its owner then: its cadence. A commit while nobody owns the
 * partition is its last owner's (a cooperative rebalance takes a partition away in one
 * generation and gives it in the next; the member that lost it commits it in between, from
 * its ConsumerRebalanceListener.onPartitionsRevoked) - but only while the group has members:
 * an empty group takes only commits without a generation, an admin's or a consumer's without
 * group management (ClassicGroup.validateOffsetCommit: generationId < 0 && EMPTY), never a
 * former member's. */
void g_owner_commit(glog *L, gpart *t, int64_t ctime, int64_t offset) {
    if (!t->owner_last) return;
    gownership *o = &L->owners[t->owner_last - 1];
    if (!(t->flags & TP_OPEN_OWNER)) {
        if (!L->groups[t->group].nmembers_now) return;
        o->commits++;
        o->last_commit_time = ctime;
        o->last_commit_offset = offset;
        return;
    }
    if (o->commits) {
        gring *r = ring_of(L, t);
        if (r) {
            int64_t d = ss_sat_sub64(ctime, o->last_commit_time); /* commit timestamps: any long */
            r->iv[t->ring_pos] = d < 0 ? 0 : d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
            t->ring_pos = (uint8_t)((t->ring_pos + 1) % CADENCE);
            if (t->ring_n < CADENCE) t->ring_n++;
        }
    }
    o->commits++;
    o->last_commit_time = ctime;
    o->last_commit_offset = offset;
}
