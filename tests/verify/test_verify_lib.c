/* Unit tests of include/segscan/verify.h: the check table, severities, and
 * ss_verify_partition's callback and figures on a corpus partition whose
 * contents are known from corpus/README.md (gen/txn-abort: 5 batches, 2 of
 * them control batches, one ABORT marker, one .txnindex entry, one producer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "segscan/verify.h"


/* verify's four weights (ss_verify_level_name), in the order of this array */
static const char *const levels[] = {"info", "inconsistency", "damage", "error"};
enum { L_INFO, L_INCONSISTENCY, L_DAMAGE, L_ERROR, L_COUNT };

static int level_of(ss_severity sev, ss_errkind kind) {
    const char *name = ss_verify_level_name(sev, kind);
    for (int i = 0; i < L_COUNT; i++)
        if (!strcmp(name, levels[i])) return i;
    return -1;
}

typedef struct seen {
    int n;
    int by_level[L_COUNT];
    char last_check[64];
} seen;

static void cb(void *ctx, const ss_vfinding *f) {
    seen *s = ctx;
    s->n++;
    int l = level_of(f->problem.severity, f->problem.kind);
    CHECK_MSG(l >= 0, "finding %s: severity %d kind %d", f->check, f->problem.severity, f->problem.kind);
    if (l >= 0) s->by_level[l]++;
    CHECK_MSG(memchr(f->problem.msg, 0, sizeof f->problem.msg) != NULL, "message not terminated");
    snprintf(s->last_check, sizeof s->last_check, "%s", f->check);
    fprintf(stderr, "  finding: %s %s %s @%llu: %s\n", ss_verify_level_name(f->problem.severity, f->problem.kind),
            f->check, f->file, (unsigned long long)f->problem.position, f->problem.msg);
}

static void test_table(void) {
    const char *name, *desc;
    ss_severity sev;
    ss_errkind kind;
    size_t n = 0;
    for (size_t i = 0; ss_vcheck_at(i, &name, &sev, &kind, &desc); i++, n++) {
        CHECK_MSG(name && *name && desc && *desc, "check %zu has no name or description", i);
        CHECK_MSG(level_of(sev, kind) >= 0, "check %s: severity %d kind %d", name, sev, kind);
        /* a check of a file Kafka's reader refuses is damage (DESIGN.md section 5: exit 3) */
        size_t len = strlen(name);
        if (len > 7 && !strcmp(name + len - 7, "-damage"))
            CHECK_MSG(level_of(sev, kind) == L_DAMAGE, "check %s: %s", name, ss_verify_level_name(sev, kind));
        for (size_t j = 0; j < i; j++) {
            const char *other;
            ss_vcheck_at(j, &other, NULL, NULL, NULL);
            CHECK_MSG(strcmp(name, other) != 0, "check name %s twice", name);
        }
        for (const char *p = name; *p; p++)
            CHECK_MSG((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-', "check name %s", name);
    }
    CHECK_MSG(n >= 25, "only %zu checks", n);
    CHECK_MSG(!ss_vcheck_at(n, NULL, NULL, NULL, NULL), "past the end");
    /* the mapping the header documents: severity, and for an error the kind's class */
    CHECK_MSG(!strcmp(ss_verify_level_name(SS_SEV_NOTICE, SS_E_OK), "info"), "info");
    CHECK_MSG(!strcmp(ss_verify_level_name(SS_SEV_WARNING, SS_E_OK), "inconsistency"), "inconsistency");
    CHECK_MSG(!strcmp(ss_verify_level_name(SS_SEV_ERROR, SS_E_CRC_MISMATCH), "damage"), "damage");
    CHECK_MSG(!strcmp(ss_verify_level_name(SS_SEV_ERROR, SS_E_IO), "error"), "error");
    CHECK_MSG(!strcmp(ss_verify_level_name(SS_SEV_ERROR, SS_E_NOMEM), "error"), "error (memory)");
}

static void test_partition(const char *corpus) {
    char path[4096];
    snprintf(path, sizeof path, "%s/gen/txn-abort/txn-0", corpus);
    ss_inputs *in = ss_inputs_new(false);
    CHECK_MSG(in && ss_inputs_add(in, path) == SS_E_OK, "add %s", path);
    ss_inputs_finish(in);
    CHECK_MSG(ss_inputs_count(in) == 1, "partitions: %zu", ss_inputs_count(in));
    ss_vstats st;
    memset(&st, 0, sizeof st);
    seen s;
    memset(&s, 0, sizeof s);
    CHECK_MSG(ss_verify_partition(in, 0, NULL, cb, &s, &st) == SS_E_OK, "verify");
    CHECK_MSG(s.n == 0, "%d findings on a healthy partition", s.n);
    CHECK_MSG(st.partitions == 1 && st.segments == 1, "partitions %llu segments %llu",
              (unsigned long long)st.partitions, (unsigned long long)st.segments);
    CHECK_MSG(st.batches == 5 && st.control_batches == 2 && st.abort_markers == 1,
              "batches %llu control %llu aborts %llu", (unsigned long long)st.batches,
              (unsigned long long)st.control_batches, (unsigned long long)st.abort_markers);
    CHECK_MSG(st.txnindex_files == 1 && st.txnindex_entries == 1, "txnindex %llu/%llu",
              (unsigned long long)st.txnindex_files, (unsigned long long)st.txnindex_entries);
    CHECK_MSG(st.snapshots_compared == 1 && st.snapshot_entries == 1 && st.producers == 1, "snapshot %llu/%llu/%llu",
              (unsigned long long)st.snapshots_compared, (unsigned long long)st.snapshot_entries,
              (unsigned long long)st.producers);
    CHECK_MSG(st.timeindex_entries == 1, "time index entries %llu", (unsigned long long)st.timeindex_entries);
    /* a NULL callback is allowed: only the figures */
    ss_vstats st2;
    memset(&st2, 0, sizeof st2);
    CHECK_MSG(ss_verify_partition(in, 0, NULL, NULL, NULL, &st2) == SS_E_OK, "verify without callback");
    CHECK_MSG(st2.batches == 5, "batches without callback");
    ss_inputs_free(in);

    /* damage: a CRC flip */
    snprintf(path, sizeof path, "%s/gen/damaged-crc-flip", corpus);
    in = ss_inputs_new(false);
    CHECK_MSG(in && ss_inputs_add(in, path) == SS_E_OK, "add %s", path);
    ss_inputs_finish(in);
    memset(&st, 0, sizeof st);
    memset(&s, 0, sizeof s);
    for (size_t i = 0; i < ss_inputs_count(in); i++) ss_verify_partition(in, i, NULL, cb, &s, &st);
    CHECK_MSG(s.by_level[L_DAMAGE] >= 1 && st.damage == (uint64_t)s.by_level[L_DAMAGE], "damage findings %d / %llu",
              s.by_level[L_DAMAGE], (unsigned long long)st.damage);
    CHECK_MSG(st.info == (uint64_t)s.by_level[L_INFO] && st.inconsistencies == (uint64_t)s.by_level[L_INCONSISTENCY] &&
                  st.errors == (uint64_t)s.by_level[L_ERROR],
              "findings by weight: %llu/%llu/%llu", (unsigned long long)st.info, (unsigned long long)st.inconsistencies,
              (unsigned long long)st.errors);
    ss_inputs_free(in);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS\n", argv[0]);
        return 2;
    }
    test_table();
    test_partition(argv[1]);
    return check_exit("test_verify_lib");
}
