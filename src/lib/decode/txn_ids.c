/* segscan - the transactional ids of producer ids, from __transaction_state:
 * every record of a transactional id (TransactionLog's key and value, decoded
 * by internal_topics.c), the latest state of each, found by producer id as
 * kafka-transactions.sh's listTransactions filterProducerIds finds them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error_set.h"
#include "base/grow.h"
#include "decode/txn_ids.h"
#include "inputs/cursor.h"
#include "segscan/decode.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- transactional ids of producer ids ---------------------------------------------- */

struct ss_txn_ids {
    ss_txn_id *v;
    size_t n, cap;
    /* every record of a transactional id (its key), then the latest one of each, by producer id */
    ss_txn_state *st;
    size_t nst, cst;
};

size_t ss_txn_ids_count(const ss_txn_ids *t) { return t ? t->n : 0; }
const ss_txn_id *ss_txn_ids_at(const ss_txn_ids *t, size_t i) { return &t->v[i]; }

const ss_txn_id *ss_txn_ids_find(const ss_txn_ids *t, int64_t producer_id) {
    if (!t) return NULL;
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->v[mid].producer_id < producer_id) lo = mid + 1;
        else hi = mid;
    }
    return lo < t->n && t->v[lo].producer_id == producer_id ? &t->v[lo] : NULL;
}

static void state_free(ss_txn_state *e) {
    free((char *)e->transactional_id);
    for (size_t k = 0; k < e->npartitions; k++) free((char *)e->partitions[k].topic);
    free((ss_txn_partition *)e->partitions);
}

void ss_txn_ids_free(ss_txn_ids *t) {
    if (!t) return;
    for (size_t i = 0; i < t->n; i++) free((char *)t->v[i].transactional_id);
    free(t->v);
    for (size_t i = 0; i < t->nst; i++) state_free(&t->st[i]);
    free(t->st);
    free(t);
}

const ss_txn_state *ss_txn_ids_state(const ss_txn_ids *t, int64_t producer_id) {
    if (!t) return NULL;
    size_t lo = 0, hi = t->nst;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->st[mid].producer_id < producer_id) lo = mid + 1;
        else hi = mid;
    }
    return lo < t->nst && t->st[lo].producer_id == producer_id ? &t->st[lo] : NULL;
}

bool ss_txn_state_lists(const ss_txn_state *s, const char *topic, int32_t partition) {
    for (size_t k = 0; k < s->npartitions; k++)
        if (s->partitions[k].partition == partition && !strcmp(s->partitions[k].topic, topic)) return true;
    return false;
}

/* Append an entry; a later one of the same pid wins when they are compacted at the end. */
static bool ids_put(ss_txn_ids *t, int64_t pid, int16_t epoch, const uint8_t *id, size_t len, int state, uint32_t part,
                    int64_t offset) {
    char *copy = malloc(len + 1);
    if (!copy) return false;
    memcpy(copy, id, len);
    copy[len] = 0;
    if (!SS_GROW(t->v, t->n, t->cap, 32)) {
        free(copy);
        return false;
    }
    ss_txn_id *e = &t->v[t->n++];
    e->producer_id = pid;
    e->producer_epoch = epoch;
    e->transactional_id = copy;
    e->transactional_id_len = len;
    e->state = state;
    e->partition = part;
    e->offset = offset;
    return true;
}

/* By pid, then by the order they were read (partition, offset): the last of a pid wins. */
static int cmp_id(const void *a, const void *b) {
    const ss_txn_id *x = a, *y = b;
    if (x->producer_id != y->producer_id) return x->producer_id < y->producer_id ? -1 : 1;
    if (x->partition != y->partition) return x->partition < y->partition ? -1 : 1;
    if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
    return x < y ? -1 : x > y;
}

static void ids_compact(ss_txn_ids *t) {
    if (t->n > 1) qsort(t->v, t->n, sizeof *t->v, cmp_id);
    size_t w = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (i + 1 < t->n && t->v[i + 1].producer_id == t->v[i].producer_id) {
            free((char *)t->v[i].transactional_id);
            continue;
        }
        t->v[w++] = t->v[i];
    }
    t->n = w;
}

/* By transactional id, then in the order they were read: the last record of an id is its
 * state (a tombstone: the id was removed), as TransactionStateManager.loadTransactionMetadata
 * ends with it. */
static int cmp_state_id(const void *a, const void *b) {
    const ss_txn_state *x = a, *y = b;
    size_t n = x->transactional_id_len < y->transactional_id_len ? x->transactional_id_len : y->transactional_id_len;
    int c = memcmp(x->transactional_id, y->transactional_id, n);
    if (c) return c;
    if (x->transactional_id_len != y->transactional_id_len)
        return x->transactional_id_len < y->transactional_id_len ? -1 : 1;
    if (x->partition != y->partition) return x->partition < y->partition ? -1 : 1;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* By current producer id; of two ids naming one (which a coordinator never does), the later record first. */
static int cmp_state_pid(const void *a, const void *b) {
    const ss_txn_state *x = a, *y = b;
    if (x->producer_id != y->producer_id) return x->producer_id < y->producer_id ? -1 : 1;
    if (x->partition != y->partition) return x->partition > y->partition ? -1 : 1;
    return x->offset > y->offset ? -1 : x->offset < y->offset;
}

static void states_compact(ss_txn_ids *t) {
    if (t->nst > 1) qsort(t->st, t->nst, sizeof *t->st, cmp_state_id);
    size_t w = 0;
    for (size_t i = 0; i < t->nst; i++) {
        ss_txn_state *e = &t->st[i];
        const ss_txn_state *next = i + 1 < t->nst ? &t->st[i + 1] : NULL;
        bool superseded = next && next->transactional_id_len == e->transactional_id_len &&
                          !memcmp(next->transactional_id, e->transactional_id, e->transactional_id_len);
        if (superseded || e->producer_id < 0) { /* a later record of the id, or a tombstone */
            state_free(e);
            continue;
        }
        t->st[w++] = *e;
    }
    t->nst = w;
    if (t->nst > 1) qsort(t->st, t->nst, sizeof *t->st, cmp_state_pid);
}

static int64_t num_of(const ss_jnode *nodes, uint32_t obj, const char *name, int64_t dflt) {
    int64_t v;
    return ss_jnode_int(nodes, ss_jnode_member(nodes, obj, name), &v) ? v : dflt;
}

static char *copy_bytes(const uint8_t *p, size_t len) {
    char *c = malloc(len + 1);
    if (!c) return NULL;
    if (len) memcpy(c, p, len);
    c[len] = 0;
    return c;
}

/* The state a record of transactional id `id` gives it (a tombstone: producer_id -1): its
 * producer id and epoch, TransactionState and transactionPartitions. */
static bool state_put(ss_txn_ids *t, const ss_cdecoded *dec, const uint8_t *id, size_t len, uint32_t part,
                      int64_t offset) {
    if (!SS_GROW(t->st, t->nst, t->cst, 32)) return false;
    ss_txn_state e;
    memset(&e, 0, sizeof e);
    e.producer_id = -1;
    e.producer_epoch = -1;
    e.state = -1;
    e.partition = part;
    e.offset = offset;
    e.transactional_id = copy_bytes(id, len);
    e.transactional_id_len = len;
    if (!e.transactional_id) return false;
    if (!dec->tombstone) {
        e.producer_id = num_of(dec->nodes, dec->value, "producerId", -1);
        e.producer_epoch = (int16_t)num_of(dec->nodes, dec->value, "producerEpoch", -1);
        e.state = (int)num_of(dec->nodes, dec->value, "transactionStatus", -1);
        uint32_t arr = ss_jnode_member(dec->nodes, dec->value, "transactionPartitions");
        size_t n = 0;
        for (uint32_t x = arr ? dec->nodes[arr].first : 0; x; x = dec->nodes[x].next) {
            uint32_t ids = ss_jnode_member(dec->nodes, x, "partitionIds");
            n += ss_jnode_count(dec->nodes, ids);
        }
        ss_txn_partition *ps = n ? calloc(n, sizeof *ps) : NULL;
        if (n && !ps) {
            state_free(&e);
            return false;
        }
        e.partitions = ps;
        for (uint32_t x = arr ? dec->nodes[arr].first : 0; x; x = dec->nodes[x].next) {
            const uint8_t *tp;
            size_t tl;
            if (!ss_jnode_str(dec->nodes, ss_jnode_member(dec->nodes, x, "topic"), &tp, &tl)) continue;
            uint32_t ids = ss_jnode_member(dec->nodes, x, "partitionIds");
            for (uint32_t y = ids ? dec->nodes[ids].first : 0; y && e.npartitions < n; y = dec->nodes[y].next) {
                int64_t v;
                if (!ss_jnode_int(dec->nodes, y, &v)) continue;
                char *topic = copy_bytes(tp, tl);
                if (!topic) {
                    state_free(&e);
                    return false;
                }
                ps[e.npartitions].topic = topic;
                ps[e.npartitions].partition = (int32_t)v;
                e.npartitions++;
            }
        }
    }
    t->st[t->nst++] = e;
    return true;
}

/* One record of __transaction_state. */
static bool txn_record(ss_txn_ids *t, ss_cdecoder *cd, const ss_record *rec, uint32_t part) {
    ss_cdecoded dec;
    if (ss_cdecode(cd, SS_CTOPIC_TXN_LOG, rec, &dec) != SS_CDEC_OK) return true;
    uint32_t idn = ss_jnode_member(dec.nodes, dec.key, "transactionalId");
    if (!idn || dec.nodes[idn].kind != SS_J_STRING) return true;
    const uint8_t *id = dec.nodes[idn].str;
    size_t len = dec.nodes[idn].len;
    if (!state_put(t, &dec, id, len, part, rec->offset)) return false;
    if (dec.tombstone) return true;
    int16_t epoch = (int16_t)num_of(dec.nodes, dec.value, "producerEpoch", -1);
    int state = (int)num_of(dec.nodes, dec.value, "transactionStatus", -1);
    static const char *const pid_fields[] = {"previousProducerId", "nextProducerId", "producerId"};
    for (size_t k = 0; k < N(pid_fields); k++) {
        int64_t pid = num_of(dec.nodes, dec.value, pid_fields[k], -1);
        if (pid < 0) continue;
        if (!ids_put(t, pid, k == 2 ? epoch : -1, id, len, state, part, rec->offset)) return false;
    }
    return true;
}

ss_errkind ss_txn_state_ids(const ss_inputs *in, ss_txn_ids **out, ss_error *err) {
    return ss_txn_state_ids_kept(in, NULL, out, err);
}

ss_errkind ss_txn_state_ids_kept(const ss_inputs *in, const ss_kept *kept, ss_txn_ids **out, ss_error *err) {
    ss_txn_ids *t = calloc(1, sizeof *t);
    *out = t;
    if (err) {
        memset(err, 0, sizeof *err);
        err->base_offset = -1;
    }
    ss_cdecoder *cd = ss_cdecoder_new();
    ss_decoder *dec = ss_decoder_new(SS_DEFAULT_MAX_BATCH_BYTES);
    ss_errkind rc = SS_E_OK;
    if (!t || !cd || !dec) {
        rc = SS_E_NOMEM;
        goto done;
    }
    for (size_t i = 0; i < ss_inputs_count(in) && rc == SS_E_OK; i++) {
        const ss_input_partition *ip = ss_inputs_at(in, i);
        if (strcmp(ip->topic, "__transaction_state") != 0) continue;
        ss_pcursor c;
        ss_pcursor_open(&c, in, i, dec, UINT64_MAX);
        ss_pcursor_use_kept(&c, kept);
        for (ss_pc_kind k; rc == SS_E_OK && (k = ss_pcursor_next(&c)) != SS_PC_END;) {
            if (k == SS_PC_BATCH && c.ev.batch.crc_valid && !c.ev.batch.control) (void)ss_pcursor_records(&c);
            else if (k == SS_PC_RECORD && !txn_record(t, cd, &c.rec, (uint32_t)i)) rc = SS_E_NOMEM;
        }
        ss_pcursor_close(&c);
    }
    if (t) {
        ids_compact(t);
        states_compact(t);
    }
done:
    if (rc == SS_E_NOMEM && err)
        ss_error_set(err, SS_E_NOMEM, err->position, err->base_offset, "out of memory reading __transaction_state");
    ss_cdecoder_free(cd);
    ss_decoder_free(dec);
    return rc;
}
