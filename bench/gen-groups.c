/* gen-groups - write a broker log directory for the benchmark of 'segscan groups':
 * 50 __consumer_offsets partitions holding --commits offset commits of --groups
 * consumer groups, with rebalances, plus the data partitions they read.
 *
 * Every group reads one topic of 8 partitions (topics in-0 .. in-9) with 2 or 3
 * members and commits every partition its members own in one OffsetCommit
 * request, one batch per member and commit round (as the coordinator appends a
 * request's records in one batch); a GroupMetadata record (value version 3,
 * consumer protocol v3 subscription and assignment) opens each generation, a
 * new one every --rebalance-every rounds. Every 20th group is an exactly-once
 * application: its commits are TxnOffsetCommits of its own producer id, each
 * followed by a COMMIT marker (an ABORT every 10th). A group lives in partition
 * Utils.abs(groupId.hashCode()) % 50, as Kafka places it. Keys and values are
 * those of GroupCoordinatorRecordHelpers at Kafka 4.0 (tests/lib/coordinator.py
 * writes the same). The data partitions hold the records the commits pass: a
 * batch of 37 records a round (every group's commit moves 37 on), appended
 * before the round's commits, so no commit lies past the log end at its time.
 * Deterministic: the output depends only on the options.
 *
 * usage: gen-groups DIR [--commits N] [--groups N] [--rebalance-every N]
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "segscan/decode.h"
#include "segscan/segscan.h"

#define GEN_NAME "gen-groups"
#include "genbuf.h"

static void putstr(buf *b, const char *s) {
    size_t n = strlen(s);
    put16(b, (uint16_t)n);
    put(b, s, n);
}

/* one record of a batch being built: (key, value) bytes */
typedef struct {
    buf recs;
    int32_t n;
} batchb;

static void rec_add(batchb *bb, const buf *key, const buf *value) {
    buf body = {0};
    put8(&body, 0);
    putvarlong(&body, 0);     /* timestampDelta */
    putvarlong(&body, bb->n); /* offsetDelta */
    putvarlong(&body, (int64_t)key->n);
    put(&body, key->p, key->n);
    if (value) {
        putvarlong(&body, (int64_t)value->n);
        put(&body, value->p, value->n);
    } else {
        putvarlong(&body, -1);
    }
    putvarlong(&body, 0); /* headers */
    putvarlong(&bb->recs, (int64_t)body.n);
    put(&bb->recs, body.p, body.n);
    free(body.p);
    bb->n++;
}

/* DefaultRecordBatch v2 around bb's records; appends to out. */
static void batch_out(buf *out, int64_t base, const batchb *bb, int64_t ts, int64_t pid, int16_t epoch, bool txn,
                      bool control) {
    size_t at = out->n;
    put64(out, (uint64_t)base);
    put32(out, 0); /* length, set below */
    put32(out, 0); /* partitionLeaderEpoch */
    put8(out, 2);
    put32(out, 0); /* crc, set below */
    size_t crc_from = out->n;
    put16(out, (uint16_t)((txn ? 0x10 : 0) | (control ? 0x20 : 0)));
    put32(out, (uint32_t)(bb->n - 1));
    put64(out, (uint64_t)ts);
    put64(out, (uint64_t)ts);
    put64(out, (uint64_t)pid);
    put16(out, (uint16_t)epoch);
    put32(out, control ? 0xffffffffu : 0);
    put32(out, (uint32_t)bb->n);
    put(out, bb->recs.p, bb->recs.n);
    set32(out->p + at + 8, (uint32_t)(out->n - at - 12));
    set32(out->p + at + 17, ss_crc32c(0, out->p + crc_from, out->n - crc_from));
}

typedef struct part {
    buf data;
    int64_t next;
} part;

#define NTOPICS 10
#define NPARTS 8

static void commit_record(batchb *bb, const char *group, int topic, int p, int64_t offset, int64_t ts) {
    buf k = {0}, v = {0};
    char tn[16];
    snprintf(tn, sizeof tn, "in-%d", topic);
    put16(&k, 1);
    putstr(&k, group);
    putstr(&k, tn);
    put32(&k, (uint32_t)p);
    put16(&v, 3);
    put64(&v, (uint64_t)offset);
    put32(&v, 0);
    putstr(&v, "");
    put64(&v, (uint64_t)ts);
    rec_add(bb, &k, &v);
    free(k.p);
    free(v.p);
}

/* GroupMetadataValue v3 with consumer protocol v3 subscriptions and assignments:
 * member m of n owns the partitions p with p % n == m. */
static void group_record(batchb *bb, const char *group, int gen, int nmem, int topic, int64_t ts, char ids[][64]) {
    buf k = {0}, v = {0};
    char tn[16];
    snprintf(tn, sizeof tn, "in-%d", topic);
    put16(&k, 2);
    putstr(&k, group);
    put16(&v, 3);
    putstr(&v, "consumer");
    put32(&v, (uint32_t)gen);
    putstr(&v, "range");
    putstr(&v, ids[0]);
    put64(&v, (uint64_t)ts);
    put32(&v, (uint32_t)nmem);
    for (int m = 0; m < nmem; m++) {
        putstr(&v, ids[m]);
        put16(&v, 0xffff); /* groupInstanceId null */
        putstr(&v, group); /* clientId */
        putstr(&v, "/10.1.2.3");
        put32(&v, 300000);
        put32(&v, 45000);
        buf sub = {0}, asg = {0};
        put16(&sub, 3);
        put32(&sub, 1);
        putstr(&sub, tn);
        put32(&sub, 0xffffffffu); /* userData null */
        put32(&sub, 0);           /* ownedPartitions */
        put32(&sub, (uint32_t)gen);
        put16(&sub, 0xffff); /* rackId null */
        put16(&asg, 3);
        put32(&asg, 1);
        putstr(&asg, tn);
        int cnt = 0;
        for (int p = 0; p < NPARTS; p++) cnt += p % nmem == m;
        put32(&asg, (uint32_t)cnt);
        for (int p = 0; p < NPARTS; p++)
            if (p % nmem == m) put32(&asg, (uint32_t)p);
        put32(&asg, 0xffffffffu);
        put32(&v, (uint32_t)sub.n);
        put(&v, sub.p, sub.n);
        put32(&v, (uint32_t)asg.n);
        put(&v, asg.p, asg.n);
        free(sub.p);
        free(asg.p);
    }
    rec_add(bb, &k, &v);
    free(k.p);
    free(v.p);
}

static void marker(part *P, int64_t pid, bool commit, int64_t ts) {
    batchb bb = {0};
    buf k = {0}, v = {0};
    put16(&k, 0);
    put16(&k, commit ? 1 : 0);
    put16(&v, 0);
    put32(&v, 0);
    rec_add(&bb, &k, &v);
    batch_out(&P->data, P->next, &bb, ts, pid, 0, true, true);
    P->next++;
    free(bb.recs.p);
    free(k.p);
    free(v.p);
}

static void write_file(const char *dir, const char *name, const buf *b) {
    char path[4096];
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b->p, 1, b->n, f) != b->n || fclose(f) != 0) {
        fprintf(stderr, "gen-groups: %s: %s\n", path, strerror(errno));
        exit(2);
    }
}

int main(int argc, char **argv) {
    /* DIR first: an option in its place ("--help") would otherwise become a 700 MB directory. */
    if (argc < 2 || argv[1][0] == '-' || argc % 2 != 0) {
        fputs("usage: gen-groups DIR [--commits N] [--groups N] [--rebalance-every N]\n", stderr);
        return 2;
    }
    const char *dir = argv[1];
    uint64_t commits = 10000000, groups = 2000, every = 100;
    for (int i = 2; i + 1 < argc; i += 2) {
        uint64_t v = strtoull(argv[i + 1], NULL, 10);
        if (!strcmp(argv[i], "--commits")) commits = v;
        else if (!strcmp(argv[i], "--groups")) groups = v;
        else if (!strcmp(argv[i], "--rebalance-every")) every = v ? v : 1;
        else {
            fprintf(stderr, "gen-groups: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    mkdir(dir, 0755);
    part P[50];
    memset(P, 0, sizeof P);
    int64_t ts = 1700000000000;
    uint64_t rounds = commits / (groups * NPARTS) + 1, written = 0, records = 0;
    int64_t *pos = calloc(groups * NPARTS, sizeof *pos);
    int64_t *round_ts = calloc(rounds + 1, sizeof *round_ts);
    uint64_t rounds_done = 0;
    char(*ids)[64] = malloc(3 * 64);
    for (uint64_t r = 0; r < rounds && written < commits; r++) {
        round_ts[r] = ts;
        rounds_done = r + 1;
        for (uint64_t g = 0; g < groups && written < commits; g++) {
            char gid[32];
            snprintf(gid, sizeof gid, "grp-%05" PRIu64, g);
            int32_t cp = ss_coordinator_partition((const uint8_t *)gid, strlen(gid), 50);
            part *L = &P[cp];
            int topic = (int)(g % NTOPICS);
            int gen = (int)(r / every) + 1;
            int nmem = 2 + (int)((r / every + g) % 2);
            for (int m = 0; m < nmem; m++)
                snprintf(ids[m], 64, "%s-%d-%08" PRIx64, gid, m, (uint64_t)(gen * 7919 + m) * 2654435761u);
            ts += 1;
            if (r % every == 0) {
                batchb bb = {0};
                group_record(&bb, gid, gen, nmem, topic, ts, ids);
                batch_out(&L->data, L->next, &bb, ts, -1, -1, false, false);
                L->next += bb.n;
                records += (uint64_t)bb.n;
                free(bb.recs.p);
            }
            bool eos = g % 20 == 0;
            int64_t pid = 100000 + (int64_t)g;
            for (int m = 0; m < nmem; m++) {
                batchb bb = {0};
                for (int p = 0; p < NPARTS; p++) {
                    if (p % nmem != m || written >= commits) continue;
                    pos[g * NPARTS + (uint64_t)p] += 37;
                    commit_record(&bb, gid, topic, p, pos[g * NPARTS + (uint64_t)p], ts);
                    written++;
                }
                if (!bb.n) continue;
                batch_out(&L->data, L->next, &bb, ts, eos ? pid : -1, eos ? 0 : -1, eos, false);
                L->next += bb.n;
                records += (uint64_t)bb.n;
                free(bb.recs.p);
                if (eos) marker(L, pid, r % 10 != 9, ts), records++;
            }
        }
    }
    for (int i = 0; i < 50; i++) {
        char d[4096];
        snprintf(d, sizeof d, "%s/__consumer_offsets-%d", dir, i);
        write_file(d, "00000000000000000000.log", &P[i].data);
        free(P[i].data.p);
    }
    /* the data partitions the groups read: a batch of 37 records a round, appended at the round's
     * start (each group's commit of a partition moves 37 on per round) */
    for (int t = 0; t < NTOPICS; t++)
        for (int p = 0; p < NPARTS; p++) {
            buf out = {0};
            buf k = {0}, v = {0};
            put(&k, "k", 1);
            put(&v, "value", 5);
            for (uint64_t r = 0; r < rounds_done; r++) {
                batchb bb = {0};
                for (int i = 0; i < 37; i++) rec_add(&bb, &k, &v);
                batch_out(&out, (int64_t)(37 * r), &bb, round_ts[r], -1, -1, false, false);
                free(bb.recs.p);
            }
            char d[4096];
            snprintf(d, sizeof d, "%s/in-%d-%d", dir, t, p);
            write_file(d, "00000000000000000000.log", &out);
            free(out.p);
            free(k.p);
            free(v.p);
        }
    printf("commits=%" PRIu64 "\nrecords=%" PRIu64 "\ngroups=%" PRIu64 "\n", written, records, groups);
    free(pos);
    free(round_ts);
    free(ids);
    return 0;
}
