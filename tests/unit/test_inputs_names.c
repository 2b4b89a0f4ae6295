/* segscan unit tests - the names of partition directories given together (segscan/inputs.h):
 * a directory is named by its base name (orders-0), and several directories of one base name
 * (replicas copied from brokers) by the shortest path suffix that tells each from the others.
 *
 * The tree, under a temporary directory T (each partition holds a link to one segment of
 * testdata/groups-worked/orders-0):
 *   T/b1/orders-0, T/b2/orders-0, T/c/b1/orders-0, T/b1/pay-0
 * Names expected, by the rule: pay-0 is alone ("pay-0"); b2's suffix "b2/orders-0" is no other's;
 * "b1/orders-0" ends both T/b1/orders-0 and T/c/b1/orders-0, so those two take one more
 * component: the last component of T, and "c/b1/orders-0".
 * usage: test_inputs_names TESTDATA_DIR
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "segscan/inputs.h"

static const char *const dirs[] = {"b1", "b2", "c", "c/b1", "b1/orders-0", "b2/orders-0", "c/b1/orders-0", "b1/pay-0"};
static const char *const parts[] = {"b1/orders-0", "b2/orders-0", "c/b1/orders-0", "b1/pay-0"};

static const char *name_of(const ss_inputs *in, const char *path) {
    for (size_t i = 0; i < ss_inputs_count(in); i++)
        if (!strcmp(ss_inputs_at(in, i)->path, path)) return ss_inputs_at(in, i)->name;
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_inputs_names TESTDATA_DIR\n");
        return 2;
    }
    char seg[4096], p[4096];
    snprintf(seg, sizeof seg, "%s/groups-worked/orders-0/00000000000000000000.log", argv[1]);
    char *abs = realpath(seg, NULL);
    CHECK(abs);
    char tmp[] = "/tmp/segscan-test-names-XXXXXX";
    CHECK(mkdtemp(tmp) != NULL);
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        snprintf(p, sizeof p, "%s/%s", tmp, dirs[i]);
        CHECK(mkdir(p, 0700) == 0);
    }
    for (size_t i = 0; abs && i < sizeof parts / sizeof *parts; i++) {
        snprintf(p, sizeof p, "%s/%s/00000000000000000000.log", tmp, parts[i]);
        CHECK(symlink(abs, p) == 0);
    }
    ss_inputs *in = ss_inputs_new(false);
    CHECK(in);
    if (in) {
        for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
            snprintf(p, sizeof p, "%s/%s", tmp, parts[i]);
            CHECK(ss_inputs_add(in, p) == SS_E_OK);
        }
        ss_inputs_finish(in);
        CHECK_EQ_U(ss_inputs_count(in), 4);
        char want_t[4096];
        snprintf(want_t, sizeof want_t, "%s/b1/orders-0", strrchr(tmp, '/') + 1);
        static const char *const want[] = {NULL, "b2/orders-0", "c/b1/orders-0", "pay-0"};
        for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
            snprintf(p, sizeof p, "%s/%s", tmp, parts[i]);
            const char *got = name_of(in, p), *w = i == 0 ? want_t : want[i];
            CHECK(got && !strcmp(got, w));
            if (got && strcmp(got, w)) fprintf(stderr, "%s: named %s, want %s\n", p, got, w);
        }
        ss_inputs_free(in);
    }
    for (size_t i = sizeof parts / sizeof *parts; i-- > 0;) {
        snprintf(p, sizeof p, "%s/%s/00000000000000000000.log", tmp, parts[i]);
        CHECK(remove(p) == 0);
    }
    for (size_t i = sizeof dirs / sizeof *dirs; i-- > 0;) {
        snprintf(p, sizeof p, "%s/%s", tmp, dirs[i]);
        CHECK(remove(p) == 0);
    }
    CHECK(rmdir(tmp) == 0);
    free(abs);
    return check_exit("test_inputs_names");
}
