/* segscan - findings: the records of __transaction_state, each transactional
 * id's TransactionMetadata over time (TransactionStateManager writes one record
 * per transition: TransactionLog.valueToBytes), for the judgements of the
 * findings: which transaction version a producer ran (clientTransactionVersion,
 * KIP-890), why an epoch was raised (an abort of a transaction open past its
 * timeout, TransactionCoordinator.abortTimedOutTransactions, or another
 * instance's initTransactions), and whether an open transaction is hanging
 * (kafka-transactions.sh find-hanging: the coordinator does not list the
 * partition in the id's current transaction).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "findings_int.h"
#include "inputs/cursor.h"
#include "segscan/decode.h"
#include "segscan/record.h"

static int64_t num(const ss_jnode *n, uint32_t obj, const char *name, int64_t dflt) {
    int64_t v;
    return ss_jnode_int(n, ss_jnode_member(n, obj, name), &v) ? v : dflt;
}

static tid *tid_get(txnstate *t, const uint8_t *id, size_t len, int32_t part) {
    for (size_t i = t->n; i-- > 0;)
        if (t->v[i].len == len && !memcmp(t->v[i].id, id, len)) return &t->v[i];
    if (!SS_GROW(t->v, t->n, t->cap, 16)) return NULL;
    tid *x = &t->v[t->n];
    memset(x, 0, sizeof *x);
    x->id = malloc(len + 1);
    if (!x->id) return NULL;
    memcpy(x->id, id, len);
    x->id[len] = 0;
    x->len = len;
    x->state_partition = part;
    t->n++;
    return x;
}

static void parts_free(tid *x) {
    for (size_t i = 0; i < x->nparts; i++) free(x->parts[i]);
    free(x->parts);
    x->parts = NULL;
    x->nparts = 0;
}

static bool record(txnstate *t, ss_cdecoder *cd, const ss_record *rec, int32_t part) {
    ss_cdecoded dec;
    if (ss_cdecode(cd, SS_CTOPIC_TXN_LOG, rec, &dec) != SS_CDEC_OK) return true;
    const ss_jnode *n = dec.nodes;
    const uint8_t *id;
    size_t len;
    if (!ss_jnode_str(n, ss_jnode_member(n, dec.key, "transactionalId"), &id, &len)) return true;
    tid *x = tid_get(t, id, len, part);
    if (!x) return false;
    if (rec->timestamp > t->max_ts) t->max_ts = rec->timestamp;
    if (dec.tombstone) {
        x->deleted = true;
        parts_free(x);
        return true;
    }
    x->deleted = false;
    if (!SS_GROW(x->r, x->n, x->cap, 8)) return false;
    trec *r = &x->r[x->n++];
    r->producer_id = num(n, dec.value, "producerId", -1);
    r->epoch = (int16_t)num(n, dec.value, "producerEpoch", -1);
    r->state = (int8_t)num(n, dec.value, "transactionStatus", -1);
    r->client_version = (int16_t)num(n, dec.value, "clientTransactionVersion", 0);
    r->timeout_ms = (int32_t)num(n, dec.value, "transactionTimeoutMs", -1);
    r->start = num(n, dec.value, "transactionStartTimestampMs", -1);
    r->update = num(n, dec.value, "transactionLastUpdateTimestampMs", -1);
    parts_free(x);
    uint32_t tps = ss_jnode_member(n, dec.value, "transactionPartitions");
    size_t cap = 0;
    for (uint32_t tn = tps ? n[tps].first : 0; tn; tn = n[tn].next) {
        const uint8_t *topic;
        size_t tl;
        if (!ss_jnode_str(n, ss_jnode_member(n, tn, "topic"), &topic, &tl)) continue;
        uint32_t ps = ss_jnode_member(n, tn, "partitionIds");
        for (uint32_t pn = ps ? n[ps].first : 0; pn; pn = n[pn].next) {
            if (!SS_GROW(x->parts, x->nparts, cap, 4)) return false;
            char *s = malloc(tl + 16);
            if (!s) return false;
            memcpy(s, topic, tl);
            snprintf(s + tl, 16, "-%" PRId64, n[pn].num);
            x->parts[x->nparts++] = s;
        }
    }
    return true;
}

bool ts_read(txnstate *t, const ss_inputs *in) {
    memset(t, 0, sizeof *t);
    t->max_ts = -1;
    ss_cdecoder *cd = ss_cdecoder_new();
    ss_decoder *dec = ss_decoder_new(SS_DEFAULT_MAX_BATCH_BYTES);
    bool ok = cd && dec;
    /* of several copies of one partition (replicas), the first is read: the same records */
    int32_t last_part = -1;
    for (size_t i = 0; ok && in && i < ss_inputs_count(in); i++) {
        const ss_input_partition *ip = ss_inputs_at(in, i);
        if (strcmp(ip->topic, "__transaction_state") != 0) continue;
        if (ip->partition >= 0 && ip->partition == last_part) continue;
        last_part = ip->partition;
        t->read = true;
        ss_pcursor c;
        ss_pcursor_open(&c, in, i, dec, UINT64_MAX);
        for (ss_pc_kind k; ok && (k = ss_pcursor_next(&c)) != SS_PC_END;) {
            if (k == SS_PC_BATCH && c.ev.batch.crc_valid && !c.ev.batch.control) (void)ss_pcursor_records(&c);
            else if (k == SS_PC_RECORD) ok = record(t, cd, &c.rec, ip->partition);
        }
        ss_pcursor_close(&c);
    }
    ss_cdecoder_free(cd);
    ss_decoder_free(dec);
    return ok;
}

void ts_free(txnstate *t) {
    for (size_t i = 0; i < t->n; i++) {
        free(t->v[i].id);
        free(t->v[i].r);
        parts_free(&t->v[i]);
    }
    free(t->v);
    memset(t, 0, sizeof *t);
}

const tid *ts_of_pid(const txnstate *t, int64_t pid) {
    for (size_t i = 0; i < t->n; i++)
        for (size_t k = t->v[i].n; k-- > 0;)
            if (t->v[i].r[k].producer_id == pid) return &t->v[i];
    return NULL;
}
