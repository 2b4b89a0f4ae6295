/* Unit tests of include/segscan/verify.h: the check table, severities, and
 * ss_verify_partition's callback and figures on a corpus partition whose
 * contents are known from corpus/README.md (gen/txn-abort: 5 batches, 2 of
 * them control batches, one ABORT marker, one .txnindex entry, one producer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "segscan/verify.h"


typedef struct seen {
    int n;
    int by_sev[SS_VSEV_COUNT];
    char last_check[64];
} seen;

static void cb(void *ctx, const ss_vfinding *f) {
    seen *s = ctx;
    s->n++;
    if (f->severity >= 0 && f->severity < SS_VSEV_COUNT) s->by_sev[f->severity]++;
    snprintf(s->last_check, sizeof s->last_check, "%s", f->check);
    fprintf(stderr, "  finding: %s %s %s @%llu: %s\n", ss_vseverity_name(f->severity), f->check, f->file,
            (unsigned long long)f->position, f->message);
}

static void test_table(void) {
    const char *name, *desc;
    enum ss_vseverity sev;
    size_t n = 0;
    for (size_t i = 0; ss_vcheck_at(i, &name, &sev, &desc); i++, n++) {
        CHECK_MSG(name && *name && desc && *desc, "check %zu has no name or description", i);
        CHECK_MSG(sev >= SS_VSEV_INFO && sev < SS_VSEV_COUNT, "check %s: severity %d", name, sev);
        for (size_t j = 0; j < i; j++) {
            const char *other;
            ss_vcheck_at(j, &other, NULL, NULL);
            CHECK_MSG(strcmp(name, other) != 0, "check name %s twice", name);
        }
        for (const char *p = name; *p; p++)
            CHECK_MSG((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-', "check name %s", name);
    }
    CHECK_MSG(n >= 25, "only %zu checks", n);
    CHECK_MSG(!ss_vcheck_at(n, NULL, NULL, NULL), "past the end");
    CHECK_MSG(!strcmp(ss_vseverity_name(SS_VSEV_INFO), "info"), "info");
    CHECK_MSG(!strcmp(ss_vseverity_name(SS_VSEV_INCONSISTENCY), "inconsistency"), "inconsistency");
    CHECK_MSG(!strcmp(ss_vseverity_name(SS_VSEV_DAMAGE), "damage"), "damage");
    CHECK_MSG(!strcmp(ss_vseverity_name(SS_VSEV_ERROR), "error"), "error");
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
    CHECK_MSG(s.by_sev[SS_VSEV_DAMAGE] >= 1 && st.findings[SS_VSEV_DAMAGE] == (uint64_t)s.by_sev[SS_VSEV_DAMAGE],
              "damage findings %d / %llu", s.by_sev[SS_VSEV_DAMAGE], (unsigned long long)st.findings[SS_VSEV_DAMAGE]);
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
