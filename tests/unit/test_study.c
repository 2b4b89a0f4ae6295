/* segscan unit tests - the consumer-groups study in one call (segscan/study.h,
 * src/lib/findings/study.c), on testdata/groups-worked (tests/groups/make_worked.py:
 * the data partitions orders-0 and enriched-0 and the coordinator's partition
 * __consumer_offsets-18 of group "enricher", side by side in one log directory).
 *
 * What it must keep: a data partition given with `beside` brings the coordinators'
 * partitions of its log directory (the inputs room lists them, not the caller), and
 * with them the timelines, the groups and the findings; without `beside` there are
 * none; a PATH that cannot be read is a failed input with an error in the one
 * problem list; with inputs_reported, "-" is the caller's and the inputs' notes are
 * not repeated. ss_inputs_add_coordinators looks beside a partition only: a log directory
 * given brings nothing from its parent, and a coordinator's partition found there that
 * cannot be read is noted as found, not as a PATH given. With read_before (the caller's
 * inputs of the same PATHs) the study reads nothing again only when no __consumer_offsets
 * partition can be among its inputs: none in read_before and, with beside, none beside.
 * Each segment is opened once by the study (ss_test_files_opened counts the openings), and
 * with the caller's analysis the data partitions not at all; when that analysis kept the
 * __consumer_offsets segments it read (ss_an_opts.keep_offsets_bytes) the study opens none and
 * finds what it finds reading the file; past the budget it reads the file again. The groups'
 * replay of a __consumer_offsets segment held in memory under its partition's name finds what it
 * finds in the partition directory.
 * usage: test_study TESTDATA_DIR
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "segscan/study.h"
#include "segscan/test_hooks.h"
#include "segscan/timeline.h"

static char *join(const char *a, const char *b) {
    size_t n = strlen(a) + strlen(b) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s", a, b);
    return p;
}

/* What a study found of __consumer_offsets: its groups, the findings, the records and batches
 * its replay read. */
struct seen {
    uint64_t groups, findings, logs, records, batches, control_records;
};

static struct seen seen_of(ss_study *s) {
    struct seen v = {0};
    ss_groups *g = ss_study_groups(s);
    if (!g) return v;
    v.groups = ss_groups_count(g);
    v.findings = ss_study_findings(s) ? ss_findings_count(ss_study_findings(s)) : UINT64_MAX;
    v.logs = ss_groups_log_count(g);
    for (size_t i = 0; i < ss_groups_log_count(g); i++) {
        v.records += ss_groups_log_at(g, i)->records;
        v.batches += ss_groups_log_at(g, i)->batches;
        v.control_records += ss_groups_log_at(g, i)->control_records;
    }
    return v;
}

/* Bytes of a file, whole. */
/* The study of the one PATH paths[0] with the caller's analysis an: it opens `opens` segment
 * files, and finds what the study reading the files found (want). */
static void study_as_read(const char *const *paths, ss_study_opts *o, const ss_analysis *an, uint64_t opens,
                          const struct seen *want) {
    ss_study *s = NULL;
    o->analysis = an;
    uint64_t opened = ss_test_files_opened();
    CHECK(ss_study_run(paths, 1, o, &s) == SS_E_OK && s);
    CHECK_EQ_U(ss_test_files_opened() - opened, opens);
    if (s) {
        struct seen got = seen_of(s);
        CHECK(!memcmp(&got, want, sizeof got));
        ss_study_free(s);
    }
    o->analysis = NULL;
}

static uint8_t *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *b = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (b = malloc((size_t)n)) && fread(b, 1, (size_t)n, f) != (size_t)n) {
            free(b);
            b = NULL;
        }
        *len = n > 0 ? (size_t)n : 0;
    }
    fclose(f);
    return b;
}

static bool spit(const char *path, const uint8_t *b, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(b, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

/* A kept __consumer_offsets segment replaced after the analysis read it (the log cleaner renames
 * its .swap over the segment: a new file under the same name) or grown since (a live broker's
 * active segment): the study reads the file as it is now, not the copy. co: groups-worked's
 * __consumer_offsets-18 segment, copied into a directory of our own. The file put in its place
 * holds its first batch only: batchLength at bytes 8..11 of the batch (DefaultRecordBatch.java:
 * baseOffset int64, then batchLength int32, the bytes after that field). */
static void kept_changed(const char *co) {
    size_t len = 0;
    uint8_t *b = slurp(co, &len);
    CHECK(b && len > 12);
    if (!b || len <= 12) {
        free(b);
        return;
    }
    size_t first = 12 + ((size_t)b[8] << 24 | (size_t)b[9] << 16 | (size_t)b[10] << 8 | b[11]);
    CHECK(first < len); /* make_worked.py: more than one batch */
    const char *tmp = getenv("TMPDIR");
    char dir[512];
    snprintf(dir, sizeof dir, "%s/test_study-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    CHECK(mkdtemp(dir) != NULL);
    char part[600], seg[700], swap[700];
    snprintf(part, sizeof part, "%s/__consumer_offsets-18", dir);
    snprintf(seg, sizeof seg, "%s/00000000000000000000.log", part);
    snprintf(swap, sizeof swap, "%s/00000000000000000000.log.swap", part);
    CHECK(mkdir(part, 0700) == 0);
    for (int grow = 0; grow < 2; grow++) {
        CHECK(spit(seg, b, grow ? first : len));
        ss_inputs *in = ss_inputs_new(false);
        CHECK(in && ss_inputs_add(in, dir) == SS_E_OK);
        if (in) ss_inputs_finish(in);
        ss_an_opts ao;
        ss_an_opts_default(&ao);
        ao.keep_offsets_bytes = 1 << 20;
        ss_analysis *an = ss_analysis_new(&ao);
        CHECK(an && in && ss_analysis_run(an, in) == SS_E_OK);
        /* replaced by a file of its first batch (renamed over it), or grown from its first batch
         * to all of them (appended to, in place) */
        if (grow) {
            FILE *f = fopen(seg, "ab");
            CHECK(f && fwrite(b + first, 1, len - first, f) == len - first);
            if (f) fclose(f);
        } else {
            CHECK(spit(swap, b, first) && rename(swap, seg) == 0);
        }
        ss_study_opts o;
        ss_study_opts_default(&o);
        o.inputs_reported = true;
        o.read_before = in;
        o.analysis = an;
        const char *paths[] = {dir};
        ss_study *s = NULL;
        uint64_t opened = ss_test_files_opened();
        CHECK(ss_study_run(paths, 1, &o, &s) == SS_E_OK && s);
        CHECK_EQ_U(ss_test_files_opened() - opened, 1); /* the file, not the copy */
        ss_groups *g = s ? ss_study_groups(s) : NULL;
        CHECK(g && ss_groups_log_count(g) == 1);
        /* what the file holds now: one batch (replaced), or all of them (grown) */
        if (g && ss_groups_log_count(g) == 1) {
            if (grow) CHECK(ss_groups_log_at(g, 0)->batches > 1);
            else CHECK_EQ_U(ss_groups_log_at(g, 0)->batches, 1);
        }
        ss_study_free(s);
        ss_analysis_free(an);
        ss_inputs_free(in);
        unlink(seg);
    }
    rmdir(part);
    rmdir(dir);
    free(b);
}

static bool has_input(const ss_inputs *in, const char *topic, int32_t partition) {
    for (size_t i = 0; i < ss_inputs_count(in); i++) {
        const ss_input_partition *p = ss_inputs_at(in, i);
        if (p->topic && !strcmp(p->topic, topic) && p->partition == partition) return true;
    }
    return false;
}

static size_t errors(const ss_problems *p) {
    size_t n = 0;
    for (size_t i = 0; i < ss_problems_count(p); i++) n += ss_problems_at(p, i)->severity == SS_SEV_ERROR;
    return n;
}

/* tmp/logs/orders-0/<segment> (a symbolic link to seg), tmp/logs/__consumer_offsets-3 with no
 * segment, and tmp/__consumer_offsets-7/<segment> above the log directory. */
static bool make_tree(const char *tmp, const char *seg) {
    char p[4096];
    static const char *const dirs[] = {"logs", "logs/orders-0", "logs/__consumer_offsets-3", "__consumer_offsets-7"};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        snprintf(p, sizeof p, "%s/%s", tmp, dirs[i]);
        if (mkdir(p, 0700) != 0) return false;
    }
    snprintf(p, sizeof p, "%s/logs/orders-0/00000000000000000000.log", tmp);
    if (symlink(seg, p) != 0) return false;
    snprintf(p, sizeof p, "%s/__consumer_offsets-7/00000000000000000000.log", tmp);
    return symlink(seg, p) == 0;
}

static void beside_only(const char *seg) {
    char tmp[] = "/tmp/segscan-test-study-XXXXXX";
    CHECK(mkdtemp(tmp) != NULL);
    CHECK(make_tree(tmp, seg));
    char logs[4096], part[4096];
    snprintf(logs, sizeof logs, "%s/logs", tmp);
    snprintf(part, sizeof part, "%s/logs/orders-0", tmp);

    /* a log directory: its coordinators were read with it; its parent's are not its own */
    ss_inputs *in = ss_inputs_new(false);
    CHECK(in);
    if (in) {
        CHECK_EQ_U(ss_inputs_add_coordinators(in, logs), 0);
        ss_inputs_finish(in);
        CHECK(!has_input(in, "__consumer_offsets", 7));
        ss_inputs_free(in);
    }

    /* a partition directory: __consumer_offsets-3 beside it has no segment; found, not given */
    in = ss_inputs_new(false);
    CHECK(in);
    if (in) {
        CHECK_EQ_U(ss_inputs_add_coordinators(in, part), 0);
        ss_inputs_finish(in);
        CHECK_EQ_U(ss_inputs_unreadable_count(in), 1);
        if (ss_inputs_unreadable_count(in) == 1) CHECK(!ss_inputs_unreadable_at(in, 0)->given);
        ss_inputs_free(in);
    }
    static const char *const rm[] = {"logs/orders-0/00000000000000000000.log",
                                     "__consumer_offsets-7/00000000000000000000.log",
                                     "logs/orders-0",
                                     "logs/__consumer_offsets-3",
                                     "logs",
                                     "__consumer_offsets-7",
                                     ""};
    for (size_t i = 0; i < sizeof rm / sizeof *rm; i++) {
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", tmp, rm[i]);
        CHECK(remove(p) == 0);
    }
}

/* What the groups' replay finds in a __consumer_offsets segment held in memory
 * (ss_inputs_add_memory) under its partition's name: what it finds in the partition directory
 * (the fuzz target fuzz_groups reads its inputs so). A memory input has no directory for its
 * name to come from: the name given is the partition's, as the analysis takes it. */
static struct seen groups_of(const ss_inputs *in) {
    struct seen v = {0};
    ss_groups_opts go;
    ss_groups_opts_default(&go);
    ss_groups *g = ss_groups_new(&go);
    CHECK(g && ss_groups_run(g, in) == SS_E_OK);
    if (!g) return v;
    v.groups = ss_groups_count(g);
    v.logs = ss_groups_log_count(g);
    for (size_t i = 0; i < v.logs; i++) {
        v.records += ss_groups_log_at(g, i)->records;
        v.batches += ss_groups_log_at(g, i)->batches;
        v.control_records += ss_groups_log_at(g, i)->control_records;
    }
    ss_groups_free(g);
    return v;
}

static void offsets_in_memory(const char *co_dir) {
    char *seg = join(co_dir, "00000000000000000000.log");
    size_t len = 0;
    uint8_t *b = seg ? slurp(seg, &len) : NULL;
    ss_inputs *file = ss_inputs_new(false), *mem = ss_inputs_new(false);
    CHECK(b && file && mem);
    if (b && file && mem) {
        CHECK(ss_inputs_add(file, co_dir) == SS_E_OK);
        CHECK(ss_inputs_add_memory(mem, "__consumer_offsets-18", b, len) == SS_E_OK);
        ss_inputs_finish(file);
        ss_inputs_finish(mem);
        struct seen want = groups_of(file), got = groups_of(mem);
        CHECK_EQ_U(want.logs, 1);
        CHECK(want.groups > 0 && want.records > 0);
        CHECK_EQ_U(got.logs, want.logs);
        CHECK_EQ_U(got.groups, want.groups);
        CHECK_EQ_U(got.records, want.records);
        CHECK_EQ_U(got.batches, want.batches);
        CHECK_EQ_U(got.control_records, want.control_records);
    }
    ss_inputs_free(file);
    ss_inputs_free(mem);
    free(b);
    free(seg);
}

/* A data partition held in memory under its name is a data partition of the timelines (the
 * groups' lag and findings read it: fuzz_groups' inputs): the same figures as its directory's. */
static void data_in_memory(const char *dir) {
    char *seg = join(dir, "00000000000000000000.log");
    size_t len = 0;
    uint8_t *b = seg ? slurp(seg, &len) : NULL;
    ss_inputs *file = ss_inputs_new(false), *mem = ss_inputs_new(false);
    ss_timelines *tf = ss_timelines_new(1 << 20), *tm = ss_timelines_new(1 << 20);
    CHECK(b && file && mem && tf && tm);
    if (b && file && mem && tf && tm) {
        CHECK(ss_inputs_add(file, dir) == SS_E_OK);
        CHECK(ss_inputs_add_memory(mem, "orders-0", b, len) == SS_E_OK);
        ss_inputs_finish(file);
        ss_inputs_finish(mem);
        CHECK(ss_timelines_read(tf, file, 1) == SS_E_OK && ss_timelines_read(tm, mem, 1) == SS_E_OK);
        CHECK_EQ_U(ss_timelines_count(tf), 1);
        CHECK_EQ_U(ss_timelines_count(tm), 1);
        if (ss_timelines_count(tf) == 1 && ss_timelines_count(tm) == 1) {
            const ss_tl_partition *f = ss_timelines_at(tf, 0), *m = ss_timelines_at(tm, 0);
            CHECK(f->records > 0 && f->next_offset > 0);
            CHECK_EQ_U(m->records, f->records);
            CHECK_EQ_U(m->batches, f->batches);
            CHECK_EQ_U((uint64_t)m->first_offset, (uint64_t)f->first_offset);
            CHECK_EQ_U((uint64_t)m->next_offset, (uint64_t)f->next_offset);
            CHECK_EQ_U((uint64_t)m->max_timestamp, (uint64_t)f->max_timestamp);
        }
    }
    ss_timelines_free(tf);
    ss_timelines_free(tm);
    ss_inputs_free(file);
    ss_inputs_free(mem);
    free(b);
    free(seg);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_study TESTDATA_DIR\n");
        return 2;
    }
    char *orders = join(argv[1], "groups-worked/orders-0");
    char *missing = join(argv[1], "groups-worked/no-such-partition-0");
    CHECK(orders && missing);
    ss_study_opts o;
    ss_study *s = NULL;

    /* beside: orders-0 brings __consumer_offsets-18 from its log directory */
    ss_study_opts_default(&o);
    o.beside = true;
    const char *one[] = {orders};
    CHECK(ss_study_run(one, 1, &o, &s) == SS_E_OK && s);
    if (s) {
        const ss_inputs *in = ss_study_inputs(s);
        CHECK(has_input(in, "orders", 0));
        CHECK(has_input(in, "__consumer_offsets", 18));
        CHECK_EQ_U(ss_inputs_count(in), 2);
        CHECK(ss_study_has_groups(s));
        CHECK(ss_study_timelines(s) && ss_study_groups(s) && ss_study_findings(s));
        ss_groups *g = ss_study_groups(s);
        bool enricher = false;
        for (size_t i = 0; g && i < ss_groups_count(g); i++) {
            const ss_group *gr = ss_groups_at(g, i);
            enricher = enricher || (gr->id_len == 8 && !memcmp(gr->id, "enricher", 8));
        }
        CHECK(enricher);
        CHECK(!ss_study_input_failed(s) && !ss_study_incomplete(s));
        CHECK_EQ_U(errors(ss_study_problems(s)), 0);
        ss_study_free(s);
    }

    /* without beside: no coordinator's partition, so no groups */
    ss_study_opts_default(&o);
    CHECK(ss_study_run(one, 1, &o, &s) == SS_E_OK && s);
    if (s) {
        CHECK_EQ_U(ss_inputs_count(ss_study_inputs(s)), 1);
        CHECK(!ss_study_has_groups(s));
        CHECK(!ss_study_timelines(s) && !ss_study_groups(s) && !ss_study_findings(s));
        ss_study_free(s);
    }

    /* a PATH that cannot be read: a failed input, said in the one list */
    const char *bad[] = {missing, orders};
    CHECK(ss_study_run(bad, 2, &o, &s) == SS_E_OK && s);
    if (s) {
        CHECK(ss_study_input_failed(s));
        CHECK_EQ_U(errors(ss_study_problems(s)), 1);
        CHECK(has_input(ss_study_inputs(s), "orders", 0));
        ss_study_free(s);
    }

    /* inputs_reported: the caller read the PATHs ("-" is its standard input) and said their notes */
    o.inputs_reported = true;
    const char *dash[] = {"-", missing};
    CHECK(ss_study_run(dash, 2, &o, &s) == SS_E_OK && s);
    if (s) {
        CHECK_EQ_U(ss_problems_count(ss_study_problems(s)), 0);
        CHECK_EQ_U(ss_inputs_count(ss_study_inputs(s)), 0);
        ss_study_free(s);
    }

    /* read_before: the caller's own inputs of the same PATHs */
    ss_inputs *before = ss_inputs_new(false);
    CHECK(before && ss_inputs_add(before, orders) == SS_E_OK);
    if (before) ss_inputs_finish(before);
    char *logdir = join(argv[1], "groups-worked");
    ss_inputs *before_all = ss_inputs_new(false);
    CHECK(logdir && before_all && ss_inputs_add(before_all, logdir) == SS_E_OK);
    if (before_all) ss_inputs_finish(before_all);
    CHECK(ss_inputs_offsets_beside(orders));  /* __consumer_offsets-18 beside orders-0 */
    CHECK(!ss_inputs_offsets_beside(logdir)); /* a log directory: nothing beside it is its own */
    CHECK(!ss_inputs_offsets_beside(missing));

    /* no __consumer_offsets in them, none looked for beside: nothing is read again, no groups */
    ss_study_opts_default(&o);
    o.inputs_reported = true;
    o.read_before = before;
    CHECK(ss_study_run(one, 1, &o, &s) == SS_E_OK && s);
    if (s) {
        CHECK_EQ_U(ss_inputs_count(ss_study_inputs(s)), 0);
        CHECK(!ss_study_has_groups(s) && !ss_study_findings(s));
        ss_study_free(s);
    }
    /* beside: __consumer_offsets-18 beside orders-0 is found, and read with it */
    o.beside = true;
    CHECK(ss_study_run(one, 1, &o, &s) == SS_E_OK && s);
    if (s) {
        CHECK(has_input(ss_study_inputs(s), "__consumer_offsets", 18));
        CHECK(ss_study_has_groups(s) && ss_study_findings(s));
        ss_study_free(s);
    }
    /* the caller's inputs hold __consumer_offsets: the study reads them, each segment once: the
     * timelines orders-0's and enriched-0's, the groups __consumer_offsets-18's (its offset commits
     * name no topic id and it has no topology read by regular expression, so the replay gathers
     * what it names as it goes: no walk of the log before it) */
    o.beside = false;
    o.read_before = before_all;
    const char *all[] = {logdir};
    uint64_t opened = ss_test_files_opened();
    CHECK(ss_study_run(all, 1, &o, &s) == SS_E_OK && s);
    CHECK_EQ_U(ss_test_files_opened() - opened, 3);
    if (s) {
        CHECK_EQ_U(ss_inputs_count(ss_study_inputs(s)), 3);
        CHECK(ss_study_has_groups(s) && ss_study_findings(s));
        ss_study_free(s);
    }
    /* with the caller's analysis of before_all too: the data partitions' batch headers come from
     * it, and the study opens __consumer_offsets-18's segment only, once */
    ss_an_opts ao;
    ss_an_opts_default(&ao);
    ss_analysis *an = ss_analysis_new(&ao);
    CHECK(an && ss_analysis_run(an, before_all) == SS_E_OK);
    o.analysis = an;
    opened = ss_test_files_opened();
    CHECK(ss_study_run(all, 1, &o, &s) == SS_E_OK && s);
    CHECK_EQ_U(ss_test_files_opened() - opened, 1);
    struct seen read_files = {0};
    if (s) {
        const ss_tl_partition *p = ss_timelines_find(ss_study_timelines(s), "enriched", 8, 0);
        /* make_worked.py: enriched-0 holds A's 5 batches and B's 4, of 10 records each */
        CHECK(p && p->batches == 9 && p->records == 90 && p->complete);
        CHECK(ss_study_findings(s) != NULL);
        read_files = seen_of(s);
        ss_study_free(s);
    }
    o.analysis = NULL;
    ss_analysis_free(an);
    /* the analysis keeps the __consumer_offsets segments it reads (keep_offsets_bytes): it opens
     * each of the 3 segments once, and the study none (the groups' replay reads the kept copy of
     * __consumer_offsets-18's), with what the study found reading the file */
    ao.keep_offsets_bytes = 1 << 20;
    an = ss_analysis_new(&ao);
    opened = ss_test_files_opened();
    CHECK(an && ss_analysis_run(an, before_all) == SS_E_OK);
    CHECK_EQ_U(ss_test_files_opened() - opened, 3);
    CHECK(read_files.groups == 1 && read_files.records > 0); /* make_worked.py: group "enricher" */
    study_as_read(all, &o, an, 0, &read_files);
    ss_analysis_free(an);
    /* a budget one byte short of the segment: nothing is kept, the study reads the file again */
    char *co = join(logdir, "__consumer_offsets-18/00000000000000000000.log");
    struct stat st;
    CHECK(co && stat(co, &st) == 0 && st.st_size > 0);
    ao.keep_offsets_bytes = co ? (uint64_t)st.st_size - 1 : 1;
    free(co);
    an = ss_analysis_new(&ao);
    CHECK(an && ss_analysis_run(an, before_all) == SS_E_OK);
    study_as_read(all, &o, an, 1, &read_files);
    ss_analysis_free(an);
    co = join(logdir, "__consumer_offsets-18/00000000000000000000.log");
    if (co) kept_changed(co);
    free(co);
    /* without inputs_reported read_before is not used ("-" and the notes are the study's) */
    o.inputs_reported = false;
    o.read_before = before;
    CHECK(ss_study_run(one, 1, &o, &s) == SS_E_OK && s);
    if (s) {
        CHECK_EQ_U(ss_inputs_count(ss_study_inputs(s)), 1);
        ss_study_free(s);
    }
    ss_inputs_free(before);
    ss_inputs_free(before_all);
    free(logdir);

    char *seg = join(argv[1], "groups-worked/orders-0/00000000000000000000.log");
    char *abs = seg ? realpath(seg, NULL) : NULL;
    CHECK(abs);
    if (abs) beside_only(abs);
    free(abs);
    free(seg);
    char *co_dir = join(argv[1], "groups-worked/__consumer_offsets-18");
    CHECK(co_dir);
    if (co_dir) offsets_in_memory(co_dir);
    data_in_memory(orders);
    free(co_dir);
    free(orders);
    free(missing);
    return check_exit("test_study");
}
