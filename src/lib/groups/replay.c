/* segscan - consumer groups: replay the records of one __consumer_offsets
 * partition, in log order, as Kafka's group coordinator replays them when it
 * loads the partition (CoordinatorLoaderImpl -> GroupCoordinatorShard.replay,
 * by record type: 0/1 OffsetMetadataManager.replay (offsets.c), 2, 3..8 and the
 * streams groups' 17..23 the membership records (members.c); control batches ->
 * replayEndTransactionMarker (offsets.c)), then end it and free it.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "base/grow.h"
#include "groups_int.h"

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
    case SS_GROUP_LEGACY_OFFSET_COMMIT:
    case SS_GROUP_OFFSET_COMMIT: o_offset_commit(L, b, r, c, dec); break;
    case SS_GROUP_GROUP_METADATA: m_group_metadata(L, r, c, dec); break;
    case SS_GROUP_CONSUMER_GROUP_METADATA:
    case SS_GROUP_CONSUMER_GROUP_PARTITION_METADATA:
    case SS_GROUP_CONSUMER_GROUP_MEMBER_METADATA:
    case SS_GROUP_CONSUMER_GROUP_TARGET_ASSIGNMENT_METADATA:
    case SS_GROUP_CONSUMER_GROUP_TARGET_ASSIGNMENT_MEMBER:
    case SS_GROUP_CONSUMER_GROUP_CURRENT_MEMBER_ASSIGNMENT: m_consumer_group_record(L, r, c, dec); break;
    case SS_GROUP_STREAMS_GROUP_METADATA:
    case SS_GROUP_STREAMS_GROUP_PARTITION_METADATA:
    case SS_GROUP_STREAMS_GROUP_MEMBER_METADATA:
    case SS_GROUP_STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA:
    case SS_GROUP_STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER:
    case SS_GROUP_STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT:
    case SS_GROUP_STREAMS_GROUP_TOPOLOGY: m_streams_group_record(L, r, c, dec); break;
    default: break; /* share groups (9..15), regular expressions (16) */
    }
}

/* ---- the end ----------------------------------------------------------------------------------- */

void glog_end(glog *L) {
    for (uint32_t i = 0; i < L->ngroups; i++) m_close_open_epoch(L, &L->groups[i]);
    /* name the partitions known by topic id only: a ConsumerGroupPartitionMetadata
     * record read later in the log */
    for (uint32_t i = 0; i < L->ntps; i++) {
        gpart *t = &L->tps[i];
        if (t->topic || !t->topic_id) continue;
        const char *name = m_topic_name_of(&L->groups[t->group], t->topic_id);
        if (name) {
            t->topic = name;
            t->named_by = SS_GNAMED_GROUP_METADATA;
        }
    }
    o_end(L);
    if (!gc_finish(L)) L->nomem = L->nomem || !L->commits.failed;
    /* What only the replay needed goes now, not when the run ends: the logs read stay in
     * memory until every one is, and these took about 50 bytes of each (group, topic,
     * partition) - the owners' cadence rings (their medians are in the owners now), the
     * partitions' hash slots and the string tables' slots. (Not taken off L->in_memory:
     * the budget counts what was allocated, as g_vfree does.) */
    g_vfree(L->rings);
    L->rings = NULL;
    L->nrings = L->ringcap = L->ring_free = 0;
    free(L->tp_slots);
    L->tp_slots = NULL;
    L->tp_slot_cap = 0;
    free(L->commit_names);
    L->commit_names = NULL;
    L->ncommit_names = L->commit_names_cap = 0;
    free(L->rx_groups);
    L->rx_groups = NULL;
    L->nrx_groups = L->rx_groups_cap = 0;
    free(L->rx_topics);
    L->rx_topics = NULL;
    L->nrx_topics = L->rx_topics_cap = 0;
    free(L->missed);
    L->missed = NULL;
    L->nmissed = L->missed_cap = 0;
    free(L->tl_cache);
    L->tl_cache = NULL;
    gs_seal(&L->strs);
    gs_seal(&L->groups_tab);
    g_pack_log(L);
}

void glog_free(glog *L) {
    if (L->groups)
        for (uint32_t i = 0; i < L->ngroups; i++) m_free_group(&L->groups[i]);
    g_pack_free(L);
    g_vfree(L->groups);
    g_vfree(L->tps);
    free(L->tp_slots);
    free(L->commit_names);
    free(L->rx_groups);
    free(L->rx_topics);
    free(L->missed);
    free(L->tl_cache);
    g_vfree(L->owners);
    g_vfree(L->points);
    g_vfree(L->rings);
    g_vfree(L->tpx);
    free(L->scratch.v);
    g_vfree(L->gens);
    g_vfree(L->members);
    g_vfree(L->assigns);
    g_vfree(L->refs.v);
    o_free(L);
    gc_free(&L->commits);
    g_vfree(L->lagw);
    ss_problems_free(&L->notes);
    gs_free(&L->groups_tab);
    gs_free(&L->strs);
}
