/* segscan unit tests - the timelines taken from an analysis (ss_timelines_read_with) are the
 * timelines read from the files (ss_timelines_read), on every directory of the corpus and of
 * testdata/groups-worked: each partition's figures, each batch header, each transaction, the
 * records counted in its whole range and in ranges that cut a batch (ss_tl_records, which reads
 * a compacted batch at the position kept) and the notes. The analysis keeps every
 * batch header it read (an_batch); where it did not keep all of them as a reader of headers meets
 * them (damage, a tail, replicas, a legacy entry...) the files are read, and the answer is the
 * same. Sharing must also happen: groups-worked's data partitions are read by the analysis only,
 * and over the corpus fewer files are opened than by reading them again.
 * usage: test_timeline_shared TESTDATA_DIR
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "segscan/analyze.h"
#include "segscan/test_hooks.h"
#include "segscan/timeline.h"

static unsigned long dirs_compared;
static uint64_t opened_read, opened_shared;

static void same_partition(ss_timelines *ta, const ss_tl_partition *a, ss_timelines *tb, const ss_tl_partition *b,
                           const char *dir) {
    CHECK(!strcmp(a->topic, b->topic) && a->partition == b->partition && a->input == b->input);
    CHECK_EQ_U(a->copies, b->copies);
    CHECK_EQ_U(a->batches, b->batches);
    CHECK_EQ_U(a->records, b->records);
    CHECK_EQ_I(a->first_offset, b->first_offset);
    CHECK_EQ_I(a->next_offset, b->next_offset);
    CHECK_EQ_I(a->log_start, b->log_start);
    CHECK_EQ_I(a->max_timestamp, b->max_timestamp);
    CHECK_EQ_I(a->basis, b->basis);
    CHECK_EQ_I(a->complete, b->complete);
    size_t n = ss_tl_batch_count(a);
    CHECK_EQ_U(n, ss_tl_batch_count(b));
    bool batches_same = n == ss_tl_batch_count(b);
    for (size_t i = 0; i < n && batches_same; i++) {
        ss_tl_batch x, y;
        ss_tl_batch_at(a, i, &x);
        ss_tl_batch_at(b, i, &y);
        batches_same = x.base_offset == y.base_offset && x.last_offset == y.last_offset &&
                       x.max_timestamp == y.max_timestamp && x.producer_id == y.producer_id &&
                       x.producer_epoch == y.producer_epoch && x.records == y.records && x.segment == y.segment &&
                       x.control == y.control && x.transactional == y.transactional &&
                       x.log_append_time == y.log_append_time && x.commit == y.commit && x.abort == y.abort;
    }
    CHECK(batches_same);
    size_t nt = ss_tl_txn_count(a);
    CHECK_EQ_U(nt, ss_tl_txn_count(b));
    for (size_t i = 0; i < nt && nt == ss_tl_txn_count(b); i++)
        CHECK(!memcmp(ss_tl_txn_at(a, i), ss_tl_txn_at(b, i), sizeof(ss_tl_txn)));
    if (a->first_offset >= 0)
        CHECK_EQ_I(ss_tl_records(ta, a, a->first_offset, a->next_offset - 1),
                   ss_tl_records(tb, b, b->first_offset, b->next_offset - 1));
    /* a range that cuts a batch: one with offsets missing (compacted) is read to count them, at
     * the position kept */
    for (size_t i = 0; i < n && i < 64 && batches_same; i++) {
        ss_tl_batch x;
        ss_tl_batch_at(a, i, &x);
        if (x.last_offset > x.base_offset)
            CHECK_EQ_I(ss_tl_records(ta, a, x.base_offset + 1, x.last_offset),
                       ss_tl_records(tb, b, x.base_offset + 1, x.last_offset));
    }
    if (!batches_same) fprintf(stderr, "  in %s, %s-%d\n", dir, a->topic, (int)a->partition);
}

static void compare_dir(const char *dir) {
    ss_inputs *in = ss_inputs_new(false);
    if (!in) return;
    if (ss_inputs_add(in, dir) != SS_E_OK || !ss_inputs_count(in)) {
        ss_inputs_free(in);
        return;
    }
    ss_inputs_finish(in);
    ss_an_opts ao;
    ss_an_opts_default(&ao);
    ao.threads = 1;
    ss_analysis *an = ss_analysis_new(&ao);
    CHECK(an != NULL);
    if (an) (void)ss_analysis_run(an, in);
    ss_timelines *ta = ss_timelines_new(0), *tb = ss_timelines_new(0);
    CHECK(ta && tb);
    if (an && ta && tb) {
        uint64_t o0 = ss_test_files_opened();
        CHECK(ss_timelines_read(ta, in, 1) == SS_E_OK);
        uint64_t o1 = ss_test_files_opened();
        CHECK(ss_timelines_read_with(tb, in, 1, an) == SS_E_OK);
        uint64_t o2 = ss_test_files_opened();
        opened_read += o1 - o0;
        opened_shared += o2 - o1;
        CHECK(o2 - o1 <= o1 - o0);
        size_t n = ss_timelines_count(ta);
        CHECK_EQ_U(n, ss_timelines_count(tb));
        for (size_t i = 0; i < n && n == ss_timelines_count(tb); i++)
            same_partition(ta, ss_timelines_at(ta, i), tb, ss_timelines_at(tb, i), dir);
        CHECK_EQ_I(ss_timelines_max_timestamp(ta), ss_timelines_max_timestamp(tb));
        const ss_problems *pa = ss_timelines_problems(ta), *pb = ss_timelines_problems(tb);
        CHECK_EQ_U(ss_problems_count(pa), ss_problems_count(pb));
        for (size_t i = 0; i < ss_problems_count(pa) && i < ss_problems_count(pb); i++)
            CHECK(!strcmp(ss_problems_at(pa, i)->msg, ss_problems_at(pb, i)->msg));
        dirs_compared++;
    }
    ss_timelines_free(ta);
    ss_timelines_free(tb);
    ss_analysis_free(an);
    ss_inputs_free(in);
}

/* A live log: the analysis read orders-0, then a producer appended to its segment (here: its
 * own bytes again). The analysis's headers end before the segment does now: the timelines read
 * the file again and give what reading it gives. */
static void grown_segment(const char *testdata) {
    char src[4096], dir[] = "/tmp/segscan-tl-grownXXXXXX", part[4200], seg[4300];
    snprintf(src, sizeof src, "%s/groups-worked/orders-0/00000000000000000000.log", testdata);
    bool made = mkdtemp(dir) != NULL;
    CHECK(made);
    if (!made) return;
    snprintf(part, sizeof part, "%s/orders-0", dir);
    snprintf(seg, sizeof seg, "%s/00000000000000000000.log", part);
    FILE *f = fopen(src, "rb");
    CHECK(f != NULL);
    static unsigned char buf[1 << 20];
    size_t len = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f) fclose(f);
    CHECK(len > 0 && len < sizeof buf);
    FILE *g = mkdir(part, 0700) == 0 ? fopen(seg, "wb") : NULL;
    CHECK(g && fwrite(buf, 1, len, g) == len);
    if (g) fclose(g);
    ss_inputs *in = ss_inputs_new(false);
    ss_an_opts ao;
    ss_an_opts_default(&ao);
    ao.threads = 1;
    ss_analysis *an = ss_analysis_new(&ao);
    ss_timelines *ta = ss_timelines_new(0), *tb = ss_timelines_new(0);
    CHECK(in && an && ta && tb);
    if (in && an && ta && tb && ss_inputs_add(in, part) == SS_E_OK) {
        ss_inputs_finish(in);
        (void)ss_analysis_run(an, in);
        g = fopen(seg, "ab");
        CHECK(g && fwrite(buf, 1, len, g) == len);
        if (g) fclose(g);
        CHECK(ss_timelines_read(ta, in, 1) == SS_E_OK);
        CHECK(ss_timelines_read_with(tb, in, 1, an) == SS_E_OK);
        CHECK_EQ_U(ss_timelines_count(ta), 1);
        CHECK_EQ_U(ss_timelines_count(tb), 1);
        if (ss_timelines_count(ta) == 1 && ss_timelines_count(tb) == 1)
            same_partition(ta, ss_timelines_at(ta, 0), tb, ss_timelines_at(tb, 0), part);
    }
    ss_timelines_free(ta);
    ss_timelines_free(tb);
    ss_analysis_free(an);
    ss_inputs_free(in);
    unlink(seg);
    rmdir(part);
    rmdir(dir);
}

/* Every directory below root, to depth levels: each is given as a PATH (a log directory, a
 * partition directory, or one holding them). */
static void walk(const char *root, int depth) {
    compare_dir(root);
    if (depth == 0) return;
    DIR *d = opendir(root);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", root, e->d_name);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) walk(p, depth - 1);
    }
    closedir(d);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_timeline_shared TESTDATA_DIR\n");
        return 2;
    }
    char p[4096];
    /* groups-worked: two data partitions read whole by the analysis, none read again */
    snprintf(p, sizeof p, "%s/groups-worked", argv[1]);
    compare_dir(p);
    CHECK_EQ_U(opened_read, 2);
    CHECK_EQ_U(opened_shared, 0);
    grown_segment(argv[1]);
    snprintf(p, sizeof p, "%s/corpus", argv[1]);
    walk(p, 3);
    CHECK(dirs_compared > 100);
    CHECK(opened_shared < opened_read);
    printf("test_timeline_shared: %lu directories; files opened: %" PRIu64 " reading, %" PRIu64 " after the analysis\n",
           dirs_compared, opened_read, opened_shared);
    return check_exit("test_timeline_shared");
}
