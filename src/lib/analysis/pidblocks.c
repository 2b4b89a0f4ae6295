/* segscan - which broker a producer id came from: the producer-id blocks of
 * the KRaft metadata log.
 *
 * A broker answers InitProducerId with an id of a block the controller
 * allocated to it: ProducerIdControlManager.generateNextProducerId gives the
 * asking broker the block [next, next + 1000) (ProducerIdsBlock
 * .PRODUCER_ID_BLOCK_SIZE) and appends a ProducerIdsRecord (apiKey 15) whose
 * NextProducerId is the first id after it, with the broker's id and epoch. So a
 * record in the log says: the broker BrokerId was allocated
 * [NextProducerId - 1000, NextProducerId) when the record was appended.
 * ProducerIdsImage.write puts the same record in a snapshot with BrokerId and
 * BrokerEpoch -1: a snapshot tells that every id below NextProducerId was
 * handed out, not by whom. A block whose record is no longer in the log (a
 * snapshot replaced it, or the segment was not given) is unknown.
 *
 * Records are read from every __cluster_metadata partition among the inputs
 * and from the KRaft snapshots the inputs hold; only records whose value
 * starts as a ProducerIdsRecord's does (frame version 1, apiKey 15) are
 * decoded, with the decode room's cluster-metadata decoder.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error_set.h"
#include "base/grow.h"
#include "inputs/cursor.h"
#include "segscan/analyze.h"
#include "segscan/decode.h"
#include "segscan/inputs.h"
#include "segscan/record.h"
#include "segscan/segment.h"

enum { PID_BLOCK_SIZE = 1000 }; /* ProducerIdsBlock.PRODUCER_ID_BLOCK_SIZE */

struct ss_pid_blocks {
    ss_pid_block *v;
    size_t n, cap;
    char **files; /* the paths the blocks name */
    size_t nfiles, fcap;
    bool has_metadata; /* a __cluster_metadata partition or a KRaft snapshot was among the inputs */
    int64_t max_next;  /* the largest NextProducerId read, -1 none */
};

size_t ss_pid_blocks_count(const ss_pid_blocks *b) { return b ? b->n : 0; }
const ss_pid_block *ss_pid_blocks_at(const ss_pid_blocks *b, size_t i) { return &b->v[i]; }
bool ss_pid_blocks_have_metadata(const ss_pid_blocks *b) { return b && b->has_metadata; }

void ss_pid_blocks_free(ss_pid_blocks *b) {
    if (!b) return;
    for (size_t i = 0; i < b->nfiles; i++) free(b->files[i]);
    free(b->files);
    free(b->v);
    free(b);
}

static const char *keep_file(ss_pid_blocks *b, const char *path) {
    if (b->nfiles && !strcmp(b->files[b->nfiles - 1], path)) return b->files[b->nfiles - 1];
    if (!SS_GROW(b->files, b->nfiles, b->fcap, 8)) return NULL;
    size_t n = strlen(path) + 1;
    char *c = malloc(n);
    if (!c) return NULL;
    memcpy(c, path, n);
    b->files[b->nfiles++] = c;
    return c;
}

/* A record that may be a ProducerIdsRecord: frame version 1 and apiKey 15 as
 * unsigned varints (AbstractApiMessageSerde), each one byte. */
static bool maybe_producer_ids(const ss_record *r) {
    return r->value_len >= 3 && r->value[0] == 1 && r->value[1] == 15;
}

/* The file the cursor reads, as it was given. */
static const char *seg_path(const ss_pcursor *c) {
    if (c->path) return c->path;
    return c->p->segments[c->seg].path ? c->p->segments[c->seg].path : c->p->name;
}

/* The ProducerIdsRecords of a metadata log's segments or a KRaft snapshot (c). */
static bool read_pids(ss_pid_blocks *b, ss_cdecoder *cd, ss_pcursor *c, uint32_t partition, bool snapshot) {
    const char *file = NULL;
    bool ok = true;
    for (ss_pc_kind k; ok && (k = ss_pcursor_next(c)) != SS_PC_END;) {
        if (k == SS_PC_SEGMENT) file = NULL; /* kept when it holds a block */
        if (k == SS_PC_BATCH && c->ev.batch.crc_valid && !c->ev.batch.control) (void)ss_pcursor_records(c);
        if (k == SS_PC_RECORD) {
            const ss_record r = c->rec;
            if (!maybe_producer_ids(&r)) continue;
            ss_cdecoded d;
            if (ss_cdecode(cd, SS_CTOPIC_CLUSTER_METADATA, &r, &d) != SS_CDEC_OK ||
                d.record_type != SS_MD_PRODUCER_IDS_RECORD)
                continue;
            int64_t broker, epoch = -1, next;
            if (!ss_jnode_int(d.nodes, ss_jnode_member(d.nodes, d.value, "brokerId"), &broker) ||
                !ss_jnode_int(d.nodes, ss_jnode_member(d.nodes, d.value, "nextProducerId"), &next))
                continue;
            (void)ss_jnode_int(d.nodes, ss_jnode_member(d.nodes, d.value, "brokerEpoch"), &epoch);
            if (!file && !(file = keep_file(b, seg_path(c)))) {
                ok = false;
                break;
            }
            if (!SS_GROW(b->v, b->n, b->cap, 16)) {
                ok = false;
                break;
            }
            ss_pid_block *x = &b->v[b->n++];
            memset(x, 0, sizeof *x);
            x->first = next - PID_BLOCK_SIZE;
            x->end = next;
            x->broker_id = snapshot || broker < 0 ? -1 : (int32_t)broker;
            x->broker_epoch = snapshot ? -1 : epoch;
            x->timestamp = r.timestamp;
            x->offset = r.offset;
            x->partition = partition;
            x->file = file;
            x->from_snapshot = snapshot;
            if (next > b->max_next) b->max_next = next;
        }
    }
    return ok;
}

/* By block, the records of the log before those of snapshots, then in the order read. */
static int cmp_block(const void *a, const void *b) {
    const ss_pid_block *x = a, *y = b;
    if (x->end != y->end) return x->end < y->end ? -1 : 1;
    if ((x->broker_id < 0) != (y->broker_id < 0)) return x->broker_id >= 0 ? -1 : 1;
    return x < y ? -1 : x > y;
}

ss_errkind ss_pid_blocks_read(const ss_inputs *in, ss_pid_blocks **out, ss_error *err) {
    if (err) {
        memset(err, 0, sizeof *err);
        err->base_offset = -1;
    }
    ss_pid_blocks *b = calloc(1, sizeof *b);
    *out = b;
    ss_cdecoder *cd = ss_cdecoder_new();
    ss_decoder *dec = ss_decoder_new(SS_DEFAULT_MAX_BATCH_BYTES);
    ss_errkind rc = SS_E_OK;
    if (!b || !cd || !dec) {
        rc = SS_E_NOMEM;
        goto done;
    }
    b->max_next = -1;
    for (size_t i = 0; i < ss_inputs_count(in) && rc == SS_E_OK; i++) {
        const ss_input_partition *ip = ss_inputs_at(in, i);
        if (strcmp(ip->topic, "__cluster_metadata") != 0) continue;
        b->has_metadata = true;
        ss_pcursor c;
        ss_pcursor_open(&c, in, i, dec, UINT64_MAX);
        if (!read_pids(b, cd, &c, (uint32_t)i, false)) rc = SS_E_NOMEM;
        ss_pcursor_close(&c);
    }
    for (size_t i = 0; i < ss_inputs_kraft_snapshot_count(in) && rc == SS_E_OK; i++) {
        b->has_metadata = true;
        ss_pcursor c;
        ss_pcursor_open_file(&c, ss_inputs_kraft_snapshot(in, i), dec);
        if (!read_pids(b, cd, &c, UINT32_MAX, true)) rc = SS_E_NOMEM;
        ss_pcursor_close(&c);
    }
    if (rc == SS_E_OK && b->n > 1) {
        qsort(b->v, b->n, sizeof *b->v, cmp_block);
        /* one entry a block: the same record read from several replicas of the log */
        size_t w = 0;
        for (size_t i = 0; i < b->n; i++) {
            if (w && b->v[w - 1].end == b->v[i].end &&
                (b->v[i].broker_id < 0 || b->v[w - 1].broker_id == b->v[i].broker_id))
                continue;
            b->v[w++] = b->v[i];
        }
        b->n = w;
    }
done:
    if (rc == SS_E_NOMEM && err)
        ss_error_set(err, SS_E_NOMEM, err->position, err->base_offset, "out of memory reading __cluster_metadata");
    ss_cdecoder_free(cd);
    ss_decoder_free(dec);
    return rc;
}

enum ss_pid_origin ss_pid_blocks_find(const ss_pid_blocks *b, int64_t pid, const ss_pid_block **block) {
    *block = NULL;
    if (!b || !b->has_metadata || pid < 0) return SS_PID_NO_METADATA;
    /* the first block (by end) whose end is above pid; blocks do not overlap in a sound log */
    size_t lo = 0, hi = b->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (b->v[mid].end <= pid) lo = mid + 1;
        else hi = mid;
    }
    for (size_t i = lo; i < b->n && b->v[i].end == b->v[lo].end; i++)
        if (b->v[i].first <= pid && b->v[i].broker_id >= 0) {
            *block = &b->v[i];
            return SS_PID_BLOCK;
        }
    if (pid < b->max_next) {
        /* handed out before what was read: the nearest record above tells when at the latest */
        if (lo < b->n) *block = &b->v[lo];
        return SS_PID_UNKNOWN_EARLIER;
    }
    return SS_PID_NOT_FOUND;
}
