/* The text summary's figures (src/cli/views/figures.c, figures_text.c): the tables'
 * text clauses are well formed (every clause reachable in its line, so none is
 * dropped), and figs_text over partitions and totals built by hand writes the
 * lines expected. The expected lines are written out from the constructed
 * values and the summary's wording (segscan(1)); every clause of the tables
 * is said in one of the cases below, and the test counts that too.
 * scan_sgr and scan_time (views.c) are stand-ins here:
 * the colours as views.c writes them, a time as T<ms>. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/out.h"
#include "views/figures.h"
#include "views/scan.h"

const char *scan_sgr(const struct scan_cli *c, const char *code) { return c->color ? code : ""; }
void scan_time(char *buf, size_t n, int64_t ms) { snprintf(buf, n, "T%" PRId64, ms); }

/* Every row with a text line: its place is one of 1..k of that line with none
 * left out or taken twice (figs_text stops at the first place missing), the
 * clause it comes after is of the same line and earlier, braces are closed. */
static void check_table(const char *what, const struct fig *figs, size_t n, int nlines) {
    for (size_t i = 0; i < n; i++) {
        const struct fig_text *t = &figs[i].text;
        if (!t->line) continue;
        CHECK_MSG(t->line > 0 && t->line < nlines, "%s row %zu: line %d", what, i, t->line);
        int same = 0, below = 0;
        for (size_t j = 0; j < n; j++)
            if (figs[j].text.line == t->line) {
                if (figs[j].text.pos == t->pos) same++;
                if (figs[j].text.pos < t->pos) below++;
            }
        CHECK_MSG(same == 1, "%s row %zu: place %d of line %d taken %d times", what, i, t->pos, t->line, same);
        CHECK_MSG(below == t->pos - 1, "%s row %zu: place %d of line %d after a gap", what, i, t->pos, t->line);
        if (t->after >= 0) {
            CHECK_MSG((size_t)t->after < n && figs[t->after].text.line == t->line && figs[t->after].text.pos < t->pos,
                      "%s row %zu: after row %d", what, i, t->after);
        }
        bool number = t->num == FN_U64 || t->num == FN_S64 || t->num == FN_TIME || t->num == FN_STR;
        CHECK_MSG(!number || (t->phrase && strchr(t->phrase, '#')), "%s row %zu: a number without '#'", what, i);
        for (const char *p = t->phrase; p && (p = strchr(p, '{')); p++) {
            const char *bar = strchr(p, '|'), *end = strchr(p, '}');
            CHECK_MSG(bar && end && bar < end, "%s row %zu: {one|many} not closed", what, i);
        }
    }
}

/* each row said at least once over the cases */
static bool said_p[FIG_MAX], said_t[FIG_MAX];

/* figs_text's output for lines FROM..TO */
static char *text(bool colour, const struct fig_line *lines, int from, int to, const struct fig *figs, size_t n,
                  const void *of) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ss_out o;
    out_init(&o, f);
    struct scan_cli c = {.color = colour, .out = &o};
    c.ao.by = SS_BY_VALUE;
    figs_text(&c, lines, from, to, figs, n, of);
    out_flush(&o);
    out_free(&o);
    fclose(f);
    return buf;
}

/* The longest literal run of a phrase (outside {one|many}) into LIT: the
 * mark that a case said the clause, beside the exact comparison. */
static size_t phrase_lit(const char *phrase, char *lit, size_t cap) {
    size_t best = 0;
    lit[0] = 0;
    for (const char *p = phrase; p && *p;) {
        if (*p == '{') {
            const char *end = strchr(p, '}');
            p = end ? end + 1 : p + strlen(p);
            continue;
        }
        size_t k = strcspn(p, "#{@<>");
        if (k > best && k < cap) {
            best = k;
            memcpy(lit, p, k);
            lit[k] = 0;
        }
        p += k ? k : 1;
    }
    return best;
}

static void mark(bool *said, const struct fig *figs, size_t n, const char *out, int from, int to) {
    for (size_t i = 0; i < n; i++) {
        const struct fig_text *t = &figs[i].text;
        if (t->line < from || t->line > to) continue;
        char lit[200];
        if (phrase_lit(t->phrase, lit, sizeof lit) >= 3 && strstr(out, lit)) said[i] = true;
    }
}

static void check_partition(const char *name, bool colour, const ss_an_partition *P, const char *want) {
    char *got = text(colour, partition_lines, PL_HEAD, PL_COUNT - 1, partition_figs, npartition_figs, P);
    CHECK_MSG(got && !strcmp(got, want), "%s:\n--- got\n%s--- want\n%s", name, got ? got : "", want);
    if (got && !strcmp(got, want)) mark(said_p, partition_figs, npartition_figs, got, PL_HEAD, PL_COUNT - 1);
    free(got);
}

static void check_totals(const char *name, bool colour, const ss_an_totals *t, const char *want) {
    char *got = text(colour, total_lines, TL_HEAD, TL_COUNT - 1, total_figs, ntotal_figs, t);
    CHECK_MSG(got && !strcmp(got, want), "%s:\n--- got\n%s--- want\n%s", name, got ? got : "", want);
    if (got && !strcmp(got, want)) mark(said_t, total_figs, ntotal_figs, got, TL_HEAD, TL_COUNT - 1);
    free(got);
}

#define B "\033[1m"
#define D "\033[2m"
#define R "\033[31m"
#define G "\033[32m"
#define Y "\033[33m"
#define X "\033[0m"

/* every figure of the text non-zero (and each alternative wording that can be) */
static void case_full(void) {
    ss_input_partition ip = {
        .name = "t-0", .path = "/d/t-0", .high_watermark = 50, .log_start_offset = 3, .segments_not_given = 2};
    ss_an_partition P = {.input = &ip};
    P.segments = 2;
    P.records = 40, P.batches = 7, P.control_batches = 1, P.first_offset = 3, P.next_offset = 50;
    P.has_timestamps = true, P.min_timestamp = 1000, P.max_timestamp = 2000;
    P.codec_batches[0] = 5, P.codec_batches[1] = 2; /* CompressionType: 0 none, 1 gzip */
    P.magic_batches[0] = 1, P.magic_batches[1] = 1, P.magic_batches[2] = 5;
    P.producers = 2, P.sessions = 3, P.non_idempotent_records = 4, P.epoch_bumps = 1;
    P.duplicate_groups = 2, P.duplicate_records = 3, P.max_copies = 2;
    P.sequence_gaps = 1, P.sequence_gaps_explained = 2, P.duplicate_sequences = 1, P.out_of_order_batches = 3;
    P.compacted = true;
    P.txn_committed = 3, P.txn_aborted = 2, P.txn_open = 1, P.txn_hanging = 1;
    P.txn_empty = 2, P.txn_empty_aborted = 1; /* one empty commit, one empty abort */
    P.lso = 45, P.lso_bounded_by_hw = true, P.read_committed_records = 30;
    P.hidden_below_log_start = 1;
    P.damaged_bytes = 100, P.damage_events = 2;
    P.lost_records = 4, P.lost_first = 10, P.lost_last = 13, P.lost_unknown = true;
    P.tail_bytes = 9, P.incomplete_tail_bytes = 1; /* 1 cut short, 8 zeros */
    P.skipped_large_batches = 1, P.outside_window = 5;
    check_partition("full", true, &P,
                    B "t-0" X "  " D "/d/t-0" X " (2 segments)\n"
                      "  records       40 in 7 batches (1 control batch), offsets 3..49, next 50\n"
                      "  time          T1000 .. T2000\n"
                      "  codecs        none 5 gzip 2  (magic 0: 1, magic 1: 1, magic 2: 5)\n"
                      "  producers     2 with a producer id, 3 sessions; 4 records without producer id "
                      "(idempotence off); 1 epoch bump\n"
                      "  duplicates    " R "2 groups, 3 extra copies" X ", at most 2 copies of one value\n"
                      "  sequences     " R "1 gap" X ", 2 gaps consistent with compaction or explained by damage, " R
                      "1 record with a sequence already seen" X ", 3 out-of-order batches  (compacted log)\n"
                      "  transactions  3 committed (1 empty), 2 aborted (1 empty), " Y "1 open" X " (" R "1 hanging" X
                      "); LSO 45 (bounded by the high watermark), read_committed sees 30 records\n"
                      "  checkpoints   high watermark 50 (replication-offset-checkpoint) log start 3 "
                      "(log-start-offset-checkpoint, 1 record below it not shown)\n"
                      "  " R "damaged       100 bytes in 2 places (skipped; the rest was analysed)" X "\n"
                      "                4 records in the damaged batches at offsets 10..13 could not be read, "
                      "and more in damage whose offsets are unknown\n"
                      "  tail          1 byte after the last complete batch does not form a complete batch "
                      "(unclean shutdown or a cut copy; Kafka's recovery would truncate it)\n"
                      "  tail          8 zero bytes at the end (preallocated)\n"
                      "  skipped       1 batch larger than --max-batch-bytes\n"
                      "  window        5 records outside the window: read and known, not listed\n"
                      "  part          2 other segment files of the partition's directory not given: their "
                      "markers, sessions and copies are not known\n");
}

/* batches and nothing else: the fallbacks; an internal topic's duplicates not analysed */
static void case_quiet(void) {
    ss_input_partition ip = {.name = "t-1", .path = "/d/t-1", .high_watermark = -1, .log_start_offset = -1};
    ss_an_partition P = {.input = &ip};
    P.segments = 1, P.records = 1, P.batches = 1, P.first_offset = 0, P.next_offset = 1;
    P.codec_batches[0] = 1, P.magic_batches[2] = 1;
    P.dups_excluded = true;
    P.lso = 1, P.read_committed_records = 1;
    check_partition("quiet", false, &P,
                    "t-1  /d/t-1 (1 segment)\n"
                    "  records       1 in 1 batch, offsets 0..0, next 1\n"
                    "  codecs        none 1\n"
                    "  producers     none\n"
                    "  duplicates    not analysed (internal topic; --include-internal)\n"
                    "  sequences     -\n"
                    "  transactions  none; LSO 1, read_committed sees 1 record\n");
}

/* copies whose others are in other partitions, sequences in order, damage whose records are unknown */
static void case_other(void) {
    ss_input_partition ip = {.name = "t-2", .path = "/d/t-2", .high_watermark = -1, .log_start_offset = -1};
    ss_an_partition P = {.input = &ip};
    P.segments = 1, P.records = 2, P.batches = 2, P.first_offset = 4, P.next_offset = 6;
    P.codec_batches[4] = 2; /* CompressionType: 4 zstd */
    P.producers = 1, P.sessions = 1;
    P.duplicate_groups = 1, P.duplicate_records = 1, P.max_copies = 1;
    P.lso = 6, P.read_committed_records = 2;
    P.damage_events = 1, P.lost_unknown = true;
    check_partition("other", true, &P,
                    B "t-2" X "  " D "/d/t-2" X " (1 segment)\n"
                      "  records       2 in 2 batches, offsets 4..5, next 6\n"
                      "  codecs        zstd 2\n"
                      "  producers     1 with a producer id, 1 session\n"
                      "  duplicates    " R "1 group, 1 extra copy" X
                      ", each value once here (its other copies in other partitions)\n"
                      "  sequences     in order\n"
                      "  transactions  none; LSO 6, read_committed sees 2 records\n"
                      "  " R "damaged       0 bytes in 1 place (skipped; the rest was analysed)" X "\n"
                      "                the records in the damaged bytes are unknown: their headers cannot be read\n");
}

/* no batch: the records outside the window said twice; no duplicates line (nothing was read) */
static void case_empty(void) {
    ss_input_partition ip = {.name = "t-3", .path = "/d/t-3", .high_watermark = -1, .log_start_offset = -1};
    ss_an_partition P = {.input = &ip};
    P.segments = 1, P.outside_window = 3;
    check_partition("empty", false, &P,
                    "t-3  /d/t-3 (1 segment)\n"
                    "  no batches in the window (3 records outside)\n"
                    "  window        3 records outside the window: read and known, not listed\n");
}

/* offsets going backwards: the offset order line after the damaged one (its batches' bytes) */
static void case_repeat(void) {
    ss_input_partition ip = {.name = "t-4", .path = "/d/t-4", .high_watermark = -1, .log_start_offset = -1};
    ss_an_partition P = {.input = &ip};
    P.segments = 1, P.records = 5, P.batches = 5, P.first_offset = 0, P.next_offset = 5, P.lso = 5;
    P.read_committed_records = 5, P.non_idempotent_records = 5, P.codec_batches[0] = 5;
    P.lost_first = P.lost_last = -1;
    P.damaged_bytes = 350, P.damage_events = 1;
    P.repeated_batches = 5, P.repeated_records = 5, P.repeated_first = 0, P.repeated_last = 4;
    P.recovery_keeps_below = 0;
    check_partition("repeat", false, &P,
                    "t-4  /d/t-4 (1 segment)\n"
                    "  records       5 in 5 batches, offsets 0..4, next 5\n"
                    "  codecs        none 5\n"
                    "  producers     5 records without producer id (idempotence off)\n"
                    "  duplicates    none\n"
                    "  sequences     -\n"
                    "  transactions  none; LSO 5, read_committed sees 5 records\n"
                    "  damaged       350 bytes in 1 place (skipped; the rest was analysed)\n"
                    "  offset order  5 batches at offsets 0..4 repeat offsets read before them (5 records: not copies, "
                    "left out); Kafka's recovery would keep the offsets below 0\n");
}

/* a coordinator's partition: its records without a producer id are the coordinator's own (CoordinatorRuntime
 * appends non-transactional records with RecordBatch.NO_PRODUCER_ID), not a producer's "idempotence off" */
static void case_coordinator(void) {
    ss_input_partition ip = {.name = "__consumer_offsets-3",
                             .topic = "__consumer_offsets",
                             .partition = 3,
                             .path = "/d/__consumer_offsets-3",
                             .high_watermark = -1,
                             .log_start_offset = -1};
    ss_an_partition P = {.input = &ip};
    P.segments = 1, P.records = 4, P.batches = 4, P.first_offset = 0, P.next_offset = 4, P.lso = 4;
    P.read_committed_records = 4, P.non_idempotent_records = 4, P.codec_batches[0] = 4;
    P.lost_first = P.lost_last = -1;
    check_partition("coordinator", false, &P,
                    "__consumer_offsets-3  /d/__consumer_offsets-3 (1 segment)\n"
                    "  records       4 in 4 batches, offsets 0..3, next 4\n"
                    "  codecs        none 4\n"
                    "  producers     4 records without producer id (written by the coordinator, which uses none)\n"
                    "  duplicates    none\n"
                    "  sequences     -\n"
                    "  transactions  none; LSO 4, read_committed sees 4 records\n");
}

static void case_totals(void) {
    ss_an_totals t = {.partitions = 2, .segments = 3, .records = 41, .batches = 8};
    t.duplicate_groups = 1, t.duplicate_records = 2, t.cause[SS_CAUSE_RETRY] = 2, t.open_copies = 1;
    t.sequence_gaps = 1, t.duplicate_sequences = 2;
    t.txn_committed = 1, t.txn_open = 1, t.damaged_bytes = 1;
    check_totals("totals", true, &t,
                 B "total" X "  2 partitions, 3 segments, 41 records in 8 batches\n"
                   "  duplicates    " R "1 group, 2 extra copies" X ": retry 2 (1 in open transactions)\n"
                   "  sequences     1 gap, 0 explained, 2 records with a repeated sequence\n"
                   "  transactions  1 committed, 0 aborted, 1 open (0 hanging)\n"
                   "  damaged       1 byte\n");
    ss_an_totals z = {.partitions = 1, .segments = 1, .records = 1, .batches = 1};
    check_totals("totals without copies", false, &z,
                 "total  1 partition, 1 segment, 1 record in 1 batch\n"
                 "  duplicates    none\n"
                 "  sequences     0 gaps, 0 explained, 0 records with a repeated sequence\n"
                 "  transactions  0 committed, 0 aborted, 0 open (0 hanging)\n"
                 "  damaged       0 bytes\n");
}

int main(void) {
    check_table("partition_figs", partition_figs, npartition_figs, PL_COUNT);
    check_table("total_figs", total_figs, ntotal_figs, TL_COUNT);
    case_full();
    case_quiet();
    case_other();
    case_empty();
    case_repeat();
    case_coordinator();
    case_totals();
    /* a clause of the tables said in none of the cases is untested: a new one needs a case above */
    char lit[200];
    for (size_t i = 0; i < npartition_figs; i++) {
        const struct fig_text *t = &partition_figs[i].text;
        if (t->line && phrase_lit(t->phrase, lit, sizeof lit) >= 3)
            CHECK_MSG(said_p[i], "partition row %zu (\"%s\") said in no case", i, t->phrase);
    }
    for (size_t i = 0; i < ntotal_figs; i++) {
        const struct fig_text *t = &total_figs[i].text;
        if (t->line && phrase_lit(t->phrase, lit, sizeof lit) >= 3)
            CHECK_MSG(said_t[i], "total row %zu (\"%s\") said in no case", i, t->phrase);
    }
    return check_exit("figures-text");
}
