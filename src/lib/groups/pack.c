/* segscan - consumer groups: a read log's arrays, packed (groups_int.h).
 *
 * Once a __consumer_offsets partition is replayed, its groups, partitions,
 * owners, generations and members are read again only to build a group's
 * view, one group at a time, and every log read stays in memory until the last
 * one is. Kept as they were built they took about 270 bytes a (group, topic,
 * partition), while most of their words repeat the entry before (the same
 * group, topic, member, time) or differ from it by a little (the next
 * partition, offset, index). So a packed array is blocks of GP_BLOCK entries;
 * an entry is stored as the 32-bit words that differ from the entry before it
 * (a block's first: from the array's first entry, kept as it is): a mask of
 * those words, then each difference as a zigzag varint. Any struct of whole
 * words packs this way and comes back bit for bit, whatever its fields mean;
 * an array of single words (lists of indices) goes without the mask.
 *
 * Reading an entry decodes its block, up to it, into one of the array's two
 * cached blocks (the one read less recently goes): the entries a view reads lie
 * together (a group's partitions were made together, its members are
 * consecutive), at most across two blocks, and the views are built by one
 * thread.
 */
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/reader.h"
#include "base/test_hooks.h"
#include "groups_int.h"

/* at most a word's mask byte share and five varint bytes a word */
static size_t worst_entry(uint32_t words) { return (words > 1 ? (words + 7) / 8 : 0) + 5 * (size_t)words; }

/* a difference as Kafka writes a varint (ByteUtils.writeVarint: zigzag, then LEB128) */
static size_t put_diff(uint8_t *q, uint32_t d) {
    uint32_t z = (d << 1) ^ (0u - (d >> 31));
    size_t n = 0;
    while (z >= 0x80) {
        q[n++] = (uint8_t)(z | 0x80);
        z >>= 7;
    }
    q[n++] = (uint8_t)z;
    return n;
}

static size_t encode(uint8_t *o, const uint8_t *e, const uint8_t *prev, uint32_t words) {
    uint32_t a, b;
    if (words == 1) {
        memcpy(&a, e, 4);
        memcpy(&b, prev, 4);
        return put_diff(o, a - b);
    }
    size_t mb = (words + 7) / 8, n = mb;
    memset(o, 0, mb);
    for (uint32_t k = 0; k < words; k++) {
        memcpy(&a, e + 4 * (size_t)k, 4);
        memcpy(&b, prev + 4 * (size_t)k, 4);
        if (a == b) continue;
        o[k >> 3] |= (uint8_t)(1u << (k & 7));
        n += put_diff(o + n, a - b);
    }
    return n;
}

bool gp_pack(gpack *p, const void *v, uint32_t n, size_t size, gcount *acct) {
    memset(p, 0, sizeof *p);
    if (!n) return true;
    if (!size || size % 4 || size > UINT32_MAX / GP_BLOCK) return false;
    uint32_t words = (uint32_t)(size / 4), nb = (uint32_t)(((uint64_t)n + GP_BLOCK - 1) / GP_BLOCK);
    size_t worst = worst_entry(words), len = 0, cap = 0;
    uint8_t *out = NULL;
    p->block_at = malloc(((size_t)nb + 1) * sizeof *p->block_at);
    p->base = malloc(size);
    p->slot[0].cache = malloc(2 * GP_BLOCK * size);
    if (!p->block_at || !p->base || !p->slot[0].cache) goto fail;
    p->slot[1].cache = p->slot[0].cache + GP_BLOCK * size;
    memcpy(p->base, v, size);
    for (uint32_t b = 0; b < nb; b++) {
        p->block_at[b] = (uint32_t)len;
        uint32_t first = b * GP_BLOCK, last = n - first < GP_BLOCK ? n : first + GP_BLOCK;
        for (uint32_t i = first; i < last; i++) {
            if (len + worst > UINT32_MAX || !SS_GROW_TO(out, len + worst, cap)) goto fail;
            const uint8_t *e = (const uint8_t *)v + (size_t)i * size;
            len += encode(out + len, e, i == first ? p->base : e - size, words);
        }
    }
    p->block_at[nb] = (uint32_t)len;
    uint8_t *fit = realloc(out, len);
    p->bytes = fit ? fit : out;
    p->n = n;
    p->size = (uint32_t)size;
    g_count(acct, len + ((size_t)nb + 1) * sizeof *p->block_at + size + 2 * GP_BLOCK * size);
    return true;
fail:
    free(out);
    gp_free(p);
    return false;
}

/* the next entry of the cached block: from the one before it (the first: from the base);
 * the differences are Kafka's zigzag varints, read as a record's fields are */
static void decode_next(gpack *p, gpslot *c) {
    uint32_t words = p->size / 4, j = c->ready, b = c->block - 1;
    ss_rd r = ss_rd_make(p->bytes + c->next_at, p->block_at[b + 1] - c->next_at);
    uint8_t *e = c->cache + (size_t)j * p->size;
    memcpy(e, j ? e - p->size : p->base, p->size);
    if (words == 1) {
        uint32_t w;
        memcpy(&w, e, 4);
        w += (uint32_t)ss_rd_varint(&r);
        memcpy(e, &w, 4);
    } else {
        const uint8_t *mask = ss_rd_bytes(&r, (words + 7) / 8);
        for (uint32_t k0 = 0; mask && k0 < words && !r.bad; k0 += 8) {
            for (unsigned m = mask[k0 >> 3]; m; m &= m - 1) {
                size_t at = 4 * ((size_t)k0 + (unsigned)__builtin_ctz(m));
                uint32_t w;
                memcpy(&w, e + at, 4);
                w += (uint32_t)ss_rd_varint(&r);
                memcpy(e + at, &w, 4);
            }
        }
    }
    c->next_at = (uint32_t)(r.p - p->bytes);
    c->ready = j + 1;
}

/* gp_at when the entry is not decoded yet: its block's entries up to it are (a view reads
 * a group's entries, which lie together, mostly in order) */
const void *gp_at_slow(gpack *p, uint32_t i) {
    uint32_t b = i / GP_BLOCK, j = i % GP_BLOCK;
    unsigned s = p->slot[0].block == b + 1 ? 0 : p->slot[1].block == b + 1 ? 1 : 1 - p->last;
    gpslot *c = &p->slot[s];
    if (c->block != b + 1) {
        c->block = b + 1;
        c->ready = 0;
        c->next_at = p->block_at[b];
    }
    while (c->ready <= j) decode_next(p, c);
    p->last = s;
    return c->cache + (size_t)j * p->size;
}

void gp_free(gpack *p) {
    if (p->raw) {
        memset(p, 0, sizeof *p);
        return;
    }
    free(p->bytes);
    free(p->block_at);
    free(p->base);
    free(p->slot[0].cache);
    memset(p, 0, sizeof *p);
}

/* ---- a log's arrays ------------------------------------------------------------------------ */

/* p reads array v as it is */
static void gp_raw(gpack *p, const void *v, uint32_t n, size_t size) {
    memset(p, 0, sizeof *p);
    p->raw = v;
    p->n = n;
    p->size = (uint32_t)size;
}

/* Pack array *v of n entries into p (its packed bytes counted in L->in_memory). Packed:
 * the array is freed (g_vfree when gv, else free) and *v set to NULL; else p reads it as it is. */
static void pack_one(glog *L, gpack *p, void *vp, uint32_t n, size_t size, bool gv) {
    void *v;
    memcpy(&v, vp, sizeof v);
    if (!v) {
        memset(p, 0, sizeof *p);
        return;
    }
    /* An array of at most two blocks' entries is read as it is: packed, it would take about as
     * much (its two cached blocks and the base an entry is read from are 33 entries) and five
     * allocations, and its entries would be decoded again at each view. A small log (a fuzz
     * input's, a small cluster's partition) packed every array for nothing. The fuzz target
     * packs them all on the inputs it compares (groups_pack_all) and checks that the views are
     * the same. */
    if (n <= 2 * GP_BLOCK && !ss_test_hooks_get()->groups_pack_all) {
        gp_raw(p, v, n, size);
        return;
    }
    if (!gp_pack(p, v, n, size, L->in_memory)) {
        gp_raw(p, v, n, size);
        return;
    }
    /* what the array took stays counted: --max-memory counts what the history allocated (the
     * memory a log frees is not all given back, and the next logs' replays reuse it) */
    if (gv) g_vfree(v);
    else free(v);
    v = NULL;
    memcpy(vp, &v, sizeof v);
}

void g_pack_log(glog *L) {
    uint64_t nlist = 0;
    for (uint32_t i = 0; i < L->ngroups; i++) nlist += (uint64_t)L->groups[i].tps.n + L->groups[i].gens.n;
    gdone *d = calloc(L->ngroups ? L->ngroups : 1, sizeof *d);
    uint32_t *lists = nlist < UINT32_MAX ? malloc(nlist ? nlist * sizeof *lists : 1) : NULL;
    if (!d || !lists) {
        /* no views without them: the run fails for want of memory, and lists none of them */
        free(d);
        free(lists);
        for (uint32_t i = 0; i < L->ngroups; i++) m_free_group(&L->groups[i]);
        g_vfree(L->groups);
        L->groups = NULL;
        L->ngroups = L->gcap = 0;
        L->nomem = true;
        return;
    }
    uint32_t at = 0;
    for (uint32_t i = 0; i < L->ngroups; i++) {
        ggroup *g = &L->groups[i];
        gdone *x = &d[i];
        x->id = g->id;
        x->protocol_type = g->protocol_type;
        x->assignor = g->assignor;
        x->events = g->events.v;
        x->nevents = g->events.n;
        g->events.v = NULL;
        x->first_offset = g->first_offset;
        x->first_time = g->first_time;
        x->last_time = g->last_time;
        x->commits = g->commits;
        x->txn_commits = g->txn_commits;
        x->undecoded = g->undecoded;
        x->protocol = g->protocol;
        x->deleted = g->deleted;
        x->wanted = g->wanted;
        x->subs = g->subs;
        x->nsubs = g->nsubs;
        x->topology_epoch = g->topology_epoch;
        g->subs = NULL;
        g->nsubs = 0;
        x->tps_at = at;
        x->ntps = g->tps.n;
        if (g->tps.n) memcpy(lists + at, g->tps.v, g->tps.n * sizeof *lists);
        at += g->tps.n;
        x->gens_at = at;
        x->ngens = g->gens.n;
        if (g->gens.n) memcpy(lists + at, g->gens.v, g->gens.n * sizeof *lists);
        at += g->gens.n;
        m_free_group(g);
    }
    g_vfree(L->groups);
    L->groups = NULL;
    L->gcap = 0;
    /* the producers' transactions were resolved (o_end): nothing reads them again */
    o_free(L);
    L->pids = NULL;
    L->npids = L->pidcap = 0;
    /* what only the replay read: not packed, and zero packs to nothing */
    for (uint32_t i = 0; i < L->ntps; i++) {
        L->tps[i].ring = 0;
        L->tps[i].ring_n = L->tps[i].ring_pos = 0;
    }
    L->done = d;
    L->lists = lists;
    /* The groups stay as they are (about 14 bytes a partition): the runs and the findings pass
     * over every group's scalars several times, in the order of their ids, which is no order in
     * the log, and a packed one would decode the groups before it in its block each time. */
    g_count(L->in_memory, (size_t)L->ngroups * sizeof *d);
    pack_one(L, &L->p_lists, &L->lists, at, sizeof *lists, false);
    pack_one(L, &L->p_tps, &L->tps, L->ntps, sizeof *L->tps, true);
    pack_one(L, &L->p_owners, &L->owners, L->nowners, sizeof *L->owners, true);
    pack_one(L, &L->p_points, &L->points, L->npoints, sizeof *L->points, true);
    pack_one(L, &L->p_tpx, &L->tpx, L->ntpx, sizeof *L->tpx, true);
    pack_one(L, &L->p_gens, &L->gens, L->ngens, sizeof *L->gens, true);
    pack_one(L, &L->p_members, &L->members, L->nmembers, sizeof *L->members, true);
    pack_one(L, &L->p_assigns, &L->assigns, L->nassigns, sizeof *L->assigns, true);
    pack_one(L, &L->p_refs, &L->refs.v, L->refs.n, sizeof *L->refs.v, true);
}

void g_pack_free(glog *L) {
    if (L->done)
        for (uint32_t i = 0; i < L->ngroups; i++) {
            free(L->done[i].events);
            m_free_subs(L->done[i].subs, L->done[i].nsubs);
        }
    gpack *all[] = {&L->p_lists, &L->p_tps,     &L->p_owners,  &L->p_points, &L->p_tpx,
                    &L->p_gens,  &L->p_members, &L->p_assigns, &L->p_refs};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) gp_free(all[i]);
    free(L->done);
    free(L->lists);
    L->done = NULL;
    L->lists = NULL;
}
