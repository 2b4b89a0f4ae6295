/* segscan - the topics' cleanup.policy as the KRaft metadata log says it:
 * evidence that the log cleaner may have worked on a topic's partitions.
 *
 * A topic's configuration is a ConfigRecord (apiKey 4) of __cluster_metadata:
 * ResourceType 2 (ConfigResource.Type.TOPIC), ResourceName the topic, Name
 * the key, Value the value or null when the key was deleted
 * (ConfigurationControlManager.incrementalAlterConfigs writes one a key; a
 * KRaft snapshot holds one a key set, ConfigurationsImage.write). A topic
 * deleted (RemoveTopicRecord, by topic id) loses its configuration
 * (ConfigurationControlManager.deleteTopicConfigs on its replay), and a topic
 * created again under the name is a new log. "compact" in the value (alone or
 * "compact,delete") lets the cleaner run on the topic (LogCleanerManager
 * picks the logs whose config.compact is set): that it was set at some offset
 * read, and not removed with its topic since, is evidence that a hole may be
 * the cleaner's. The records are read from every __cluster_metadata partition
 * among the inputs and from the KRaft snapshots the inputs hold, else from
 * the __cluster_metadata-0 directory beside a partition directory read (the
 * metadata log sits in the first log directory unless metadata.log.dir says
 * otherwise). A snapshot's records are its state at its end offset (its
 * file name <end offset>-<epoch>.checkpoint) less one, so the records of the
 * log and of snapshots are ordered by offset whichever is read first.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/analysis.h"
#include "inputs/cursor.h"
#include "segscan/base.h"
#include "segscan/decode.h"
#include "segscan/kafka_records.h"

enum { RESOURCE_TOPIC = 2 }; /* ConfigResource.Type.TOPIC in ConfigRecord.ResourceType */

static an_policy *policy_of(an_policies *t, const uint8_t *name, size_t len) {
    for (size_t i = 0; i < t->n; i++)
        if (strlen(t->v[i].topic) == len && !memcmp(t->v[i].topic, name, len)) return &t->v[i];
    if (!SS_GROW(t->v, t->n, t->cap, 8)) return NULL;
    char *s = malloc(len + 1);
    if (!s) return NULL;
    memcpy(s, name, len);
    s[len] = 0;
    an_policy *p = &t->v[t->n++];
    memset(p, 0, sizeof *p);
    p->topic = s;
    p->value_at = p->compact_at = p->removed_at = -1;
    return p;
}

/* Does a cleanup.policy value (a comma-separated list, ConfigDef.Type.LIST) hold "compact"? */
static bool holds_compact(const uint8_t *v, size_t len) {
    size_t i = 0;
    while (i < len) {
        while (i < len && (v[i] == ' ' || v[i] == ',')) i++;
        size_t b = i;
        while (i < len && v[i] != ',') i++;
        size_t e = i;
        while (e > b && v[e - 1] == ' ') e--;
        if (e - b == 7 && !memcmp(v + b, "compact", 7)) return true;
    }
    return false;
}

static bool config_record(an_policies *t, const ss_cdecoded *d, int64_t at) {
    const ss_jnode *n = d->nodes;
    int64_t type;
    const uint8_t *res, *key, *val = NULL;
    size_t rlen, klen, vlen = 0;
    if (!ss_jnode_int(n, ss_jnode_member(n, d->value, "resourceType"), &type) || type != RESOURCE_TOPIC) return true;
    if (!ss_jnode_str(n, ss_jnode_member(n, d->value, "resourceName"), &res, &rlen) ||
        !ss_jnode_str(n, ss_jnode_member(n, d->value, "name"), &key, &klen))
        return true;
    if (klen != 14 || memcmp(key, "cleanup.policy", 14) != 0) return true;
    bool has_value = ss_jnode_str(n, ss_jnode_member(n, d->value, "value"), &val, &vlen); /* null: deleted */
    an_policy *p = policy_of(t, res, rlen);
    if (!p) return false;
    if (has_value && holds_compact(val, vlen) && at > p->compact_at) p->compact_at = at;
    if (at >= p->value_at) {
        free(p->value);
        p->value = NULL;
        p->value_at = at;
        if (has_value) {
            if (!(p->value = malloc(vlen + 1))) return false;
            memcpy(p->value, val, vlen);
            p->value[vlen] = 0;
        }
    }
    return true;
}

static bool topic_record(an_policies *t, const ss_cdecoded *d) {
    const ss_jnode *n = d->nodes;
    uint32_t id = ss_jnode_member(n, d->value, "topicId");
    const uint8_t *name;
    size_t len;
    if (!id || n[id].len != 16 || !ss_jnode_str(n, ss_jnode_member(n, d->value, "name"), &name, &len)) return true;
    for (size_t i = 0; i < t->nids; i++)
        if (!memcmp(t->ids[i].id, n[id].str, 16)) return true;
    if (!SS_GROW(t->ids, t->nids, t->cids, 8)) return false;
    an_policy *p = policy_of(t, name, len);
    if (!p) return false;
    memcpy(t->ids[t->nids].id, n[id].str, 16);
    t->ids[t->nids++].policy = (size_t)(p - t->v);
    return true;
}

static void remove_topic(an_policies *t, const ss_cdecoded *d, int64_t at) {
    const ss_jnode *n = d->nodes;
    uint32_t id = ss_jnode_member(n, d->value, "topicId");
    if (!id || n[id].len != 16) return;
    for (size_t i = 0; i < t->nids; i++)
        if (!memcmp(t->ids[i].id, n[id].str, 16) && at > t->v[t->ids[i].policy].removed_at)
            t->v[t->ids[i].policy].removed_at = at;
}

/* The metadata records of a log's segments or of a snapshot (snapshot_at >= 0: every record at
 * that offset). Only TopicRecord, ConfigRecord and RemoveTopicRecord values are decoded
 * (MetadataRecordSerde: frame version 1, then the apiKey, each a one-byte varint). */
static bool read_records(an_policies *t, ss_cdecoder *cd, ss_pcursor *c, int64_t snapshot_at) {
    for (ss_pc_kind k; (k = ss_pcursor_next(c)) != SS_PC_END;) {
        if (k == SS_PC_BATCH && c->ev.batch.crc_valid && !c->ev.batch.control) (void)ss_pcursor_records(c);
        if (k != SS_PC_RECORD) continue;
        const ss_record *r = &c->rec;
        if (r->value_len < 3 || r->value[0] != 1) continue;
        if (r->value[1] != SS_MD_CONFIG_RECORD && r->value[1] != SS_MD_TOPIC_RECORD &&
            r->value[1] != SS_MD_REMOVE_TOPIC_RECORD)
            continue;
        ss_cdecoded d;
        if (ss_cdecode(cd, SS_CTOPIC_CLUSTER_METADATA, r, &d) != SS_CDEC_OK) continue;
        int64_t at = snapshot_at >= 0 ? snapshot_at : r->offset;
        bool ok = true;
        if (d.record_type == SS_MD_CONFIG_RECORD) ok = config_record(t, &d, at);
        else if (d.record_type == SS_MD_TOPIC_RECORD) ok = topic_record(t, &d);
        else if (d.record_type == SS_MD_REMOVE_TOPIC_RECORD) remove_topic(t, &d, at);
        if (!ok) return false;
    }
    return true;
}

/* The offset a snapshot's records stand at: its end offset (its name <20 digits>-<10
 * digits>.checkpoint) less one; 0 for bootstrap.checkpoint (the state before the log's first
 * record: the log's records, read after the snapshots, win a tie). */
static int64_t snapshot_end(const char *path) {
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    int64_t v = 0;
    size_t i = 0;
    for (; b[i] >= '0' && b[i] <= '9' && i < 19; i++) v = v * 10 + (b[i] - '0');
    if (i == 0 || b[i] != '-') return 0;
    return v > 0 ? v - 1 : 0;
}

static bool read_inputs(an_policies *t, ss_cdecoder *cd, ss_decoder *dec, const ss_inputs *in, bool *any) {
    for (size_t i = 0; i < ss_inputs_kraft_snapshot_count(in); i++) { /* first: the ids of the topics */
        *any = true;
        ss_pcursor c;
        ss_pcursor_open_file(&c, ss_inputs_kraft_snapshot(in, i), dec);
        bool ok = read_records(t, cd, &c, snapshot_end(ss_inputs_kraft_snapshot(in, i)));
        ss_pcursor_close(&c);
        if (!ok) return false;
    }
    for (size_t i = 0; i < ss_inputs_count(in); i++) {
        const ss_input_partition *ip = ss_inputs_at(in, i);
        if (!ip->topic || strcmp(ip->topic, "__cluster_metadata") != 0) continue;
        *any = true;
        ss_pcursor c;
        ss_pcursor_open(&c, in, i, dec, UINT64_MAX);
        bool ok = read_records(t, cd, &c, -1);
        ss_pcursor_close(&c);
        if (!ok) return false;
    }
    return true;
}

/* The __cluster_metadata-0 directories beside the partition directories read, each once. */
static bool read_beside(an_policies *t, ss_cdecoder *cd, ss_decoder *dec, const ss_inputs *in) {
    char **seen = NULL;
    size_t nseen = 0, cseen = 0;
    bool ok = true;
    for (size_t i = 0; i < ss_inputs_count(in) && ok; i++) {
        const ss_input_partition *ip = ss_inputs_at(in, i);
        if (!ip->is_dir || !ip->path) continue;
        size_t n = strlen(ip->path);
        while (n > 1 && ip->path[n - 1] == '/') n--;
        while (n > 0 && ip->path[n - 1] != '/') n--;
        char *dir = malloc(n + 2);
        if (!dir) {
            ok = false;
            break;
        }
        if (n) memcpy(dir, ip->path, n);
        else dir[n++] = '.';
        dir[n] = 0;
        bool again = false;
        for (size_t k = 0; k < nseen && !again; k++) again = !strcmp(seen[k], dir);
        if (again || !SS_GROW(seen, nseen, cseen, 4)) {
            free(dir);
            ok = again;
            continue;
        }
        seen[nseen++] = dir;
        char *md = ss_path_join(dir, "__cluster_metadata-0");
        struct stat st;
        if (!md) ok = false;
        else if (stat(md, &st) == 0 && S_ISDIR(st.st_mode)) {
            ss_inputs *beside = ss_inputs_new(false);
            if (!beside) ok = false;
            else {
                bool any = false;
                if (ss_inputs_add(beside, md) == SS_E_OK) {
                    ss_inputs_finish(beside);
                    ok = read_inputs(t, cd, dec, beside, &any);
                }
                ss_inputs_free(beside);
            }
        }
        free(md);
    }
    for (size_t k = 0; k < nseen; k++) free(seen[k]);
    free(seen);
    return ok;
}

/* Is there a metadata log to read among the inputs, or beside them? (The decoders are made only
 * then: an analysis of other topics, the fuzz targets' first of all, pays nothing.) */
static bool metadata_near(const ss_inputs *in) {
    if (ss_inputs_kraft_snapshot_count(in)) return true;
    for (size_t i = 0; i < ss_inputs_count(in); i++) {
        const ss_input_partition *ip = ss_inputs_at(in, i);
        if (ip->is_dir || (ip->topic && !strcmp(ip->topic, "__cluster_metadata"))) return true;
    }
    return false;
}

bool an_read_policies(an_policies *t, const ss_inputs *in) {
    if (!metadata_near(in)) return true;
    ss_cdecoder *cd = ss_cdecoder_new();
    ss_decoder *dec = ss_decoder_new(SS_DEFAULT_MAX_BATCH_BYTES);
    bool any = false;
    bool ok = cd && dec && read_inputs(t, cd, dec, in, &any);
    if (ok && !any) ok = read_beside(t, cd, dec, in);
    ss_cdecoder_free(cd);
    ss_decoder_free(dec);
    return ok;
}

const an_policy *an_policy_find(const an_policies *t, const char *topic) {
    for (size_t i = 0; topic && i < t->n; i++)
        if (!strcmp(t->v[i].topic, topic)) return &t->v[i];
    return NULL;
}

void an_policies_free(an_policies *t) {
    for (size_t i = 0; i < t->n; i++) {
        free(t->v[i].topic);
        free(t->v[i].value);
    }
    free(t->v);
    free(t->ids);
    memset(t, 0, sizeof *t);
}
