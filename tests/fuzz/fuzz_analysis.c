/* Fuzz target: the analysis (include/segscan/analyze.h) of walked segments.
 *
 * Input: a whole .log segment, optionally followed by an options trailer:
 *
 *     SEGMENT  OPTIONS[FUZZ_OPT_LEN]  "SSfz"
 *
 * Without the trailer (every seed that is a plain segment) the whole input is
 * the segment, analysed as partition "t-0" held in memory (ss_inputs_add_memory)
 * with the options the target always used: duplicates by value, key or
 * key+value (the last byte picks) and an explain match on a value containing
 * the first byte. With it, the OPTIONS bytes (fixed layout, see fuzz_opts
 * below, so a mutation inside them changes one option) choose: by, min_bytes,
 * across_topics, a second partition (the same segment in the same or another
 * topic, or the segment cut in two), offset and time windows, no_seek, the
 * producer-id filter, "now" and the transaction timeout, max_batch_bytes, the
 * match kind and its bytes, partition, offset and max_matches; and the
 * run's shape: 2 threads, tiny units (the unit_bytes test hook, set
 * for every run) and a small max_memory, so more than 256 fingerprints spill to bucket
 * files (in a private directory under /dev/shm, else /tmp: fuzz_private_dir; the
 * library unlinks them at once).
 *
 * Checks: every result is read back, and every copy of every group is fetched
 * from the segment again (ss_an_fetch). When the shape differs from the plain
 * one (threads, units or spilling), the analysis is run a second time with one
 * thread, default units and no memory limit, and everything must come out the
 * same (analyze.h: results never depend on the number of threads; spilling
 * gives the same groups). A spilling run must leave no file and no open
 * descriptor behind.
 */
#define _GNU_SOURCE 1
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "segscan/analyze.h"
#include "segscan/test_hooks.h"

#define FUZZ_MAGIC "SSfz"
#define FUZZ_MAGIC_LEN 4
#define FUZZ_OPT_LEN 80

/* Option bytes (offsets into OPTIONS). */
enum {
    OB_FLAGS0 = 0,        /* bits 0-1 by (%3); 2 two threads; 3 spill; 4 across_topics; 5 filter_pid;
                         * 6 no_seek; 7 has_now */
    OB_FLAGS1 = 1,        /* bits 0-2 match kind (%5); 3-4 second partition (0 none, 1 same segment as
                         * t-1, 2 same segment as u-0, 3 segment cut in two: t-0, t-1); 5 offset window;
                         * 6 time window; 7 tiny units */
    OB_MIN_BYTES = 2,     /* % 17 */
    OB_MAX_MEMORY = 3,    /* max_memory = 1024 + 64 * b (with the spill bit): the tables start at 256
                         * fingerprints (~10 KiB), so more than that spill; far smaller limits
                         * make bucket_group split every bucket down to 48 hash bits */
    OB_UNIT = 4,          /* 2 bytes: unit bytes = 64 + le16 % 1024 (with the tiny-units bit) */
    OB_MAX_MATCHES = 6,   /* 1 + b % 16 */
    OB_MATCH_LEN = 7,     /* b % 9 match bytes from OB_MATCH_BYTES */
    OB_MATCH_BYTES = 8,   /* 8 bytes */
    OB_FROM = 16,         /* le64 from_offset */
    OB_TO = 24,           /* le64 to_offset */
    OB_SINCE = 32,        /* le64 since_ms */
    OB_UNTIL = 40,        /* le64 until_ms */
    OB_PID = 48,          /* le64 producer_id */
    OB_MATCH_OFFSET = 56, /* le64 match_offset */
    OB_NOW = 64,          /* le64 now_ms */
    OB_TXN_TIMEOUT = 72,  /* le32 txn_timeout_ms */
    OB_SPLIT = 76,        /* le16: where the segment is cut (modulo its length) */
    OB_MATCH_PART = 78,   /* % 5: "t-0", "t-1", "u-0", "x", NULL */
    OB_MAX_BATCH = 79,    /* 0: 1 MiB, else 32 * b */
};

static uint64_t le(const uint8_t *p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* A directory of this process's own for spills, removed at exit (or by the next process, after
 * a crash: fuzz_private_dir). */
static char spill_dir[512];

static void spill_dir_remove(void) {
    if (spill_dir[0]) rmdir(spill_dir);
}

static const char *spill_dir_get(void) {
    if (!spill_dir[0]) {
        fuzz_private_dir("analysis", spill_dir, sizeof spill_dir);
        atexit(spill_dir_remove);
    }
    return spill_dir;
}

static bool dir_empty(const char *path) {
    DIR *d = opendir(path);
    if (!d) return false;
    struct dirent *e;
    bool empty = true;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) empty = false;
    closedir(d);
    return empty;
}

/* The lowest free descriptor (a leaked one takes it). */
static int lowest_free_fd(void) {
    int fd = dup(0);
    if (fd >= 0) close(fd);
    return fd;
}

static void set_unit_bytes(unsigned v) {
    ss_test_hooks h = {.pause_after_batches = UINT64_MAX, .unit_bytes = v};
    ss_test_hooks_set(&h);
}

/* Read every result back (and fetch the copies from the segments again). */
static void check_results(ss_analysis *a, size_t total_size) {
    const ss_an_totals *t = ss_an_totals_get(a);
    FUZZ_CHECK(t->damaged_bytes + t->tail_bytes <= total_size);
    for (size_t p = 0; p < ss_an_partition_count(a); p++) {
        const ss_an_partition *P = ss_an_partition_at(a, p);
        FUZZ_CHECK(P->damaged_bytes <= total_size);
    }
    size_t ng = ss_an_dupgroup_count(a);
    for (size_t g = 0; g < ng && g < 64; g++) {
        const ss_an_dupgroup *G = ss_an_dupgroup_at(a, g);
        FUZZ_CHECK(G->copies >= 2 && G->original < G->copies);
        for (size_t j = 0; j < G->copies && j < 16; j++) {
            ss_an_copy c;
            ss_record r;
            ss_error err;
            ss_an_dupgroup_copy(a, g, j, &c);
            FUZZ_CHECK(c.partition < ss_an_partition_count(a));
            if (ss_an_fetch(a, &c, &r, &err) == 1) {
                fuzz_touch(r.key, r.key_len);
                fuzz_touch(r.value, r.value_len);
            }
        }
    }
    for (size_t i = 0; i < ss_an_session_count(a); i++) {
        const ss_an_session *s = ss_an_session_at(a, i);
        for (size_t j = 0; j < s->nranges; j++) fuzz_sink += (uint32_t)s->ranges[j].first;
        for (size_t j = 0; j < s->ngaps; j++) fuzz_sink += (uint32_t)s->gaps[j].from;
    }
    for (size_t i = 0; i < ss_an_txn_count(a); i++) fuzz_sink += (uint32_t)ss_an_txn_at(a, i)->result;
    for (size_t i = 0; i < ss_an_damage_count(a); i++)
        FUZZ_CHECK(memchr(ss_an_damage_at(a, i)->err.msg, 0, sizeof ss_an_damage_at(a, i)->err.msg) != NULL);
    for (size_t i = 0; i < ss_an_match_count(a); i++) {
        const ss_an_match *m = ss_an_match_at(a, i);
        ss_record r;
        ss_error err;
        if (ss_an_fetch(a, &m->copy, &r, &err) == 1) fuzz_touch(r.value, r.value_len);
    }
}

static bool same_copy(const ss_an_copy *x, const ss_an_copy *y) {
    return x->partition == y->partition && x->offset == y->offset && x->timestamp == y->timestamp &&
           x->producer_id == y->producer_id && x->producer_epoch == y->producer_epoch && x->sequence == y->sequence &&
           x->transactional == y->transactional && x->aborted == y->aborted && x->open == y->open &&
           x->cause == y->cause && x->detail == y->detail && x->batch_base_offset == y->batch_base_offset &&
           x->batch_last_offset == y->batch_last_offset && x->batch_position == y->batch_position &&
           x->segment == y->segment && x->batch_records == y->batch_records && x->outside_window == y->outside_window;
}

#define SAME(f) FUZZ_CHECK(x->f == y->f)

/* Two runs over the same inputs with the same semantic options. */
static void check_same(ss_analysis *A, ss_analysis *B) {
    FUZZ_CHECK(!memcmp(ss_an_totals_get(A), ss_an_totals_get(B), sizeof(ss_an_totals)));
    FUZZ_CHECK(ss_an_partition_count(A) == ss_an_partition_count(B));
    for (size_t p = 0; p < ss_an_partition_count(A); p++) {
        const ss_an_partition *x = ss_an_partition_at(A, p), *y = ss_an_partition_at(B, p);
        SAME(segments);
        SAME(records);
        SAME(batches);
        SAME(control_records);
        SAME(first_offset);
        SAME(next_offset);
        SAME(has_timestamps);
        SAME(min_timestamp);
        SAME(max_timestamp);
        SAME(max_batch_timestamp);
        SAME(duplicate_groups);
        SAME(duplicate_records);
        SAME(max_copies);
        SAME(fingerprinted_records);
        SAME(producers);
        SAME(sessions);
        SAME(non_idempotent_records);
        SAME(sequence_gaps);
        SAME(sequence_gaps_explained);
        SAME(duplicate_sequences);
        SAME(out_of_order_batches);
        SAME(epoch_bumps);
        SAME(compacted);
        SAME(offset_gaps);
        SAME(txn_committed);
        SAME(txn_aborted);
        SAME(txn_open);
        SAME(txn_empty);
        SAME(txn_hanging);
        SAME(txn_empty_aborted);
        SAME(aborted_records);
        SAME(open_txn_records);
        SAME(now_ms);
        SAME(lso);
        SAME(read_committed_records);
        SAME(damaged_bytes);
        SAME(damage_events);
        SAME(tail_bytes);
        SAME(skipped_large_batches);
        SAME(outside_window);
        SAME(txn_unknown);
        SAME(txn_age_unknown);
        SAME(lso_unknown);
    }
    FUZZ_CHECK(ss_an_dupgroup_count(A) == ss_an_dupgroup_count(B));
    for (size_t g = 0; g < ss_an_dupgroup_count(A); g++) {
        const ss_an_dupgroup *x = ss_an_dupgroup_at(A, g), *y = ss_an_dupgroup_at(B, g);
        SAME(fp_hi);
        SAME(fp_lo);
        SAME(copies);
        SAME(original);
        SAME(partition);
        SAME(causes);
        SAME(has_open);
        for (size_t j = 0; j < x->copies && j < 16; j++) {
            ss_an_copy cx, cy;
            ss_an_dupgroup_copy(A, g, j, &cx);
            ss_an_dupgroup_copy(B, g, j, &cy);
            FUZZ_CHECK(same_copy(&cx, &cy));
        }
    }
    FUZZ_CHECK(ss_an_session_count(A) == ss_an_session_count(B));
    for (size_t i = 0; i < ss_an_session_count(A); i++) {
        const ss_an_session *x = ss_an_session_at(A, i), *y = ss_an_session_at(B, i);
        SAME(partition);
        SAME(producer_id);
        SAME(producer_epoch);
        SAME(first_offset);
        SAME(last_offset);
        SAME(records);
        SAME(batches);
        SAME(nranges);
        SAME(ngaps);
        SAME(more_gaps);
        SAME(repeated_sequences);
        SAME(out_of_order_batches);
        SAME(first_sequence);
    }
    FUZZ_CHECK(ss_an_txn_count(A) == ss_an_txn_count(B));
    for (size_t i = 0; i < ss_an_txn_count(A); i++) {
        const ss_an_txn *x = ss_an_txn_at(A, i), *y = ss_an_txn_at(B, i);
        SAME(partition);
        SAME(producer_id);
        SAME(first_offset);
        SAME(last_offset);
        SAME(marker_offset);
        SAME(result);
        SAME(records);
        SAME(batches);
        SAME(empty);
        SAME(hanging);
    }
    FUZZ_CHECK(ss_an_damage_count(A) == ss_an_damage_count(B));
    FUZZ_CHECK(ss_an_match_total(A) == ss_an_match_total(B));
    FUZZ_CHECK(ss_an_match_count(A) == ss_an_match_count(B));
    for (size_t i = 0; i < ss_an_match_count(A); i++) {
        const ss_an_match *x = ss_an_match_at(A, i), *y = ss_an_match_at(B, i);
        SAME(group);
        SAME(fingerprinted);
        FUZZ_CHECK(x->copy.partition == y->copy.partition && x->copy.offset == y->copy.offset);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ss_an_opts o;
    ss_an_opts_default(&o);
    o.max_batch_bytes = 1u << 20;
    uint8_t needle = size ? data[0] : 0;
    const uint8_t *ob = NULL;
    size_t seglen = size;
    if (size >= FUZZ_OPT_LEN + FUZZ_MAGIC_LEN && !memcmp(data + size - FUZZ_MAGIC_LEN, FUZZ_MAGIC, FUZZ_MAGIC_LEN)) {
        seglen = size - FUZZ_OPT_LEN - FUZZ_MAGIC_LEN;
        ob = data + seglen;
    }
    unsigned threads = 1, unit = 0, second = 0;
    size_t split = 0;
    static const char *const match_parts[] = {"t-0", "t-1", "u-0", "x", NULL};
    if (!ob) {
        o.by = size ? data[size - 1] % 3 : SS_BY_VALUE;
        o.match = SS_MATCH_VALUE_CONTAINS;
        o.match_bytes = &needle;
        o.match_len = 1;
        o.max_matches = 50;
    } else {
        uint8_t f0 = ob[OB_FLAGS0], f1 = ob[OB_FLAGS1];
        o.by = (f0 & 3) % 3;
        if (f0 & 4) threads = 2;
        if (f0 & 8) {
            o.max_memory = 1024 + 64 * (uint64_t)ob[OB_MAX_MEMORY];
            o.tmpdir = spill_dir_get();
        }
        o.across_topics = f0 & 16;
        if (f0 & 32) {
            o.filter_pid = true;
            o.producer_id = (int64_t)le(ob + OB_PID, 8);
        }
        o.no_seek = f0 & 64;
        if (f0 & 128) {
            o.has_now = true;
            o.now_ms = (int64_t)le(ob + OB_NOW, 8);
        }
        o.txn_timeout_ms = (int64_t)le(ob + OB_TXN_TIMEOUT, 4);
        o.match = (f1 & 7) % 5;
        second = (f1 >> 3) & 3;
        if (f1 & 32) {
            o.from_offset = (int64_t)le(ob + OB_FROM, 8);
            o.to_offset = (int64_t)le(ob + OB_TO, 8);
        }
        if (f1 & 64) {
            o.since_ms = (int64_t)le(ob + OB_SINCE, 8);
            o.until_ms = (int64_t)le(ob + OB_UNTIL, 8);
        }
        if (f1 & 128) unit = 64 + (unsigned)le(ob + OB_UNIT, 2) % 1024;
        o.min_bytes = ob[OB_MIN_BYTES] % 17;
        o.max_matches = 1 + ob[OB_MAX_MATCHES] % 16;
        o.match_bytes = ob + OB_MATCH_BYTES;
        o.match_len = ob[OB_MATCH_LEN] % 9;
        o.match_offset = (int64_t)le(ob + OB_MATCH_OFFSET, 8);
        o.match_partition = match_parts[ob[OB_MATCH_PART] % 5];
        if (ob[OB_MAX_BATCH]) o.max_batch_bytes = 32 * (size_t)ob[OB_MAX_BATCH];
        split = seglen ? (size_t)le(ob + OB_SPLIT, 2) % seglen : 0;
    }
    o.threads = threads;

    ss_inputs *in = ss_inputs_new(false);
    if (!in) abort();
    ss_errkind ak;
    switch (second) {
    case 1:
        ak = ss_inputs_add_memory(in, "t-0", data, seglen);
        if (ak == SS_E_OK) ak = ss_inputs_add_memory(in, "t-1", data, seglen);
        break;
    case 2:
        ak = ss_inputs_add_memory(in, "t-0", data, seglen);
        if (ak == SS_E_OK) ak = ss_inputs_add_memory(in, "u-0", data, seglen);
        break;
    case 3:
        ak = ss_inputs_add_memory(in, "t-0", data, split);
        if (ak == SS_E_OK) ak = ss_inputs_add_memory(in, "t-1", data + split, seglen - split);
        break;
    default: ak = ss_inputs_add_memory(in, "t-0", data, seglen); break;
    }
    if (ak != SS_E_OK) {
        ss_inputs_free(in);
        return 0;
    }
    ss_inputs_finish(in);
    size_t total = second == 1 || second == 2 ? 2 * seglen : seglen;

    bool varied = threads > 1 || unit || o.max_memory;
    int fd0 = varied ? lowest_free_fd() : -1;
    set_unit_bytes(unit);
    ss_analysis *a = ss_analysis_new(&o);
    if (!a) abort();
    ss_errkind k = ss_analysis_run(a, in);
    set_unit_bytes(0);
    FUZZ_CHECK(k == SS_E_OK || k == SS_E_NOMEM);
    FUZZ_CHECK(o.max_memory || ss_analysis_spilled(a) == 0);
    check_results(a, total);
    if (o.max_memory) FUZZ_CHECK(dir_empty(o.tmpdir));
    if (varied && k == SS_E_OK) {
        /* the same analysis the plain way */
        ss_an_opts p = o;
        p.threads = 1;
        p.max_memory = 0;
        ss_analysis *b = ss_analysis_new(&p);
        if (!b) abort();
        ss_errkind kb = ss_analysis_run(b, in);
        FUZZ_CHECK(kb == SS_E_OK || kb == SS_E_NOMEM);
        if (kb == SS_E_OK) check_same(b, a);
        ss_analysis_free(b);
    }
    ss_analysis_free(a);
    ss_inputs_free(in);
    if (varied) FUZZ_CHECK(lowest_free_fd() == fd0);
    return 0;
}
