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
 * not repeated.
 * usage: test_study TESTDATA_DIR
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "segscan/study.h"

static char *join(const char *a, const char *b) {
    size_t n = strlen(a) + strlen(b) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s", a, b);
    return p;
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
    free(orders);
    free(missing);
    return check_exit("test_study");
}
