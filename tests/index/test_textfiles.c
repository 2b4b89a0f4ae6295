/* segscan unit tests - the text files of a log directory read as Kafka's
 * readers read them (meta.properties: java.util.Properties.load and
 * MetaProperties.Builder; quorum-state: FileQuorumStateStore and
 * QuorumStateData.json; .kafka_cleanshutdown: CleanShutdownFileHandler) and
 * the checks of ss_textfile_check (LeaderEpochFileCache, LogLoader,
 * UnifiedLog, LogCleanerManager, QuorumState.initialize, DirectoryId).
 * Every expected value is worked out by hand from those sources; the
 * comments say which rule each case exercises.
 *
 * usage: test_textfiles CORPUS_DIR   (every real text file under
 * CORPUS_DIR/real must read, and pass its checks)
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "segscan/files.h"

#define P(s) s, strlen(s)

static ss_errkind meta(const char *text, ss_meta_properties *m, ss_error *err) {
    return ss_meta_properties_parse(text, strlen(text), "/d/meta.properties", m, err);
}

static const char *prop(const ss_meta_properties *m, const char *key) {
    for (size_t i = 0; i < m->nprops; i++)
        if (!strcmp(m->props[i].key, key)) return m->props[i].value;
    return NULL;
}

static void test_meta_properties(void) {
    ss_meta_properties m;
    ss_error err;
    /* as Properties.store writes a KRaft v1 file: two comment lines, then key=value */
    CHECK_EQ_I(
        meta("#\n#Fri Apr 19 13:20:44 UTC 2024\nnode.id=1\nversion=1\ncluster.id=MkU3OEVBNTcwNTJENDM2Qg\n", &m, &err),
        SS_E_OK);
    CHECK_EQ_U(m.nprops, 3);
    CHECK_EQ_I(m.version, 1);
    CHECK(m.has_node_id && m.node_id == 1);
    CHECK(m.cluster_id && !strcmp(m.cluster_id, "MkU3OEVBNTcwNTJENDM2Qg"));
    CHECK(!m.has_directory_id);
    /* "#\n" is 2 bytes, "#Fri Apr 19 13:20:44 UTC 2024\n" 30: node.id's line starts at byte 32 */
    CHECK(m.nprops == 3 && m.props[0].position == 32);
    ss_meta_properties_free(&m);

    /* v0 (ZooKeeper era): no version means 0, broker.id optional, no cluster.id needed */
    CHECK_EQ_I(meta("broker.id=1001\n", &m, &err), SS_E_OK);
    CHECK(m.version == 0 && !m.has_version && m.has_node_id && m.node_id == 1001 && m.cluster_id == NULL);
    ss_meta_properties_free(&m);
    CHECK_EQ_I(meta("", &m, &err), SS_E_OK); /* an empty v0: MetaProperties(version=0) */
    CHECK(m.version == 0 && !m.has_node_id && m.nprops == 0);
    ss_meta_properties_free(&m);
    /* v0 reads broker.id only: a node.id beside it is kept as a property, not as the id */
    CHECK_EQ_I(meta("version=0\nnode.id=5\n", &m, &err), SS_E_OK);
    CHECK(!m.has_node_id);
    ss_meta_properties_free(&m);

    /* Properties.load's syntax: blanks before a line, '!' comments, ':' and blank separators, blanks
     * around the separator, a continuation ('\' at the end; the next line's leading blanks
     * dropped), escapes (\t, \uXXXX, '\' before another character), CR and CRLF line ends, the last
     * of a repeated key, ISO-8859-1 bytes */
    const char *syntax = "   ! a comment\r\n"
                         "\tcluster.id : abc\\\n"
                         "      def\r"
                         "version 1\n"
                         "node.id=7\n"
                         "node.id=8\n"
                         "k\\=ey=v\\u00e9\\tx\\y\n"
                         "latin=\xe9\n"
                         "empty\n";
    CHECK_EQ_I(meta(syntax, &m, &err), SS_E_OK);
    CHECK_MSG(m.cluster_id && !strcmp(m.cluster_id, "abcdef"), "%s", m.cluster_id ? m.cluster_id : "(null)");
    CHECK_EQ_I(m.version, 1);
    CHECK_EQ_I(m.node_id, 8);
    CHECK(prop(&m, "k=ey") && !strcmp(prop(&m, "k=ey"), "v\xc3\xa9\txy"));
    CHECK(prop(&m, "latin") && !strcmp(prop(&m, "latin"), "\xc3\xa9")); /* byte 0xE9 is U+00E9 */
    CHECK(prop(&m, "empty") && !strcmp(prop(&m, "empty"), ""));
    /* "   ! a comment\r\n" is 16 bytes: cluster.id's line starts at byte 16 (its blank skipped: 17) */
    CHECK(m.nprops > 0 && m.props[0].position == 17);
    ss_meta_properties_free(&m);
    /* a surrogate pair in escapes is one character (U+1F600: F0 9F 98 80) */
    CHECK_EQ_I(meta("x=\\ud83d\\ude00\n", &m, &err), SS_E_OK);
    CHECK(prop(&m, "x") && !strcmp(prop(&m, "x"), "\xf0\x9f\x98\x80"));
    ss_meta_properties_free(&m);

    /* directory.id (KIP-858): Uuid.fromString */
    CHECK_EQ_I(meta("version=1\nnode.id=1\ncluster.id=c\ndirectory.id=J8aAPcfLQt2bqs1JT_rMgQ\n", &m, &err), SS_E_OK);
    CHECK(m.has_directory_id && m.directory_id[0] == 0x27 && m.directory_id[1] == 0xc6);
    ss_meta_properties_free(&m);

    /* what MetaProperties.Builder refuses, with Kafka's messages */
    CHECK_EQ_I(meta("version=2\n", &m, &err), SS_E_BAD_CHECKPOINT);
    CHECK_MSG(strstr(err.msg, "Unknown meta.properties version number 2") != NULL, "%s", err.msg);
    ss_meta_properties_free(&m);
    CHECK_EQ_I(meta("version= 1 \nnode.id=1\ncluster.id=c\n", &m, &err), SS_E_OK); /* the version is trimmed */
    ss_meta_properties_free(&m);
    CHECK_EQ_I(meta("version=one\n", &m, &err), SS_E_BAD_CHECKPOINT);
    CHECK_MSG(strstr(err.msg, "Invalid meta.properties version string 'one'") != NULL, "%s", err.msg);
    ss_meta_properties_free(&m);
    CHECK_EQ_I(meta("version=1\ncluster.id=c\n", &m, &err), SS_E_BAD_CHECKPOINT);
    CHECK_MSG(strstr(err.msg, "Failed to find node.id") != NULL, "%s", err.msg);
    ss_meta_properties_free(&m);
    CHECK_EQ_I(meta("version=1\nnode.id=1\n", &m, &err), SS_E_BAD_CHECKPOINT);
    CHECK_MSG(strstr(err.msg, "cluster.id was not found.") != NULL, "%s", err.msg);
    ss_meta_properties_free(&m);
    /* blanks after the separator are skipped, a trailing one is kept: parseInt takes no blank */
    CHECK_EQ_I(meta("broker.id= 3\n", &m, &err), SS_E_OK);
    CHECK(m.node_id == 3);
    ss_meta_properties_free(&m);
    CHECK_EQ_I(meta("broker.id=3 \n", &m, &err), SS_E_BAD_CHECKPOINT);
    CHECK_MSG(strstr(err.msg, "Unable to read broker.id as a base-10 number.") != NULL, "%s", err.msg);
    CHECK_EQ_U(err.position, 0);
    ss_meta_properties_free(&m);
    CHECK_EQ_I(meta("version=1\nnode.id=1\ncluster.id=c\ndirectory.id=nope\n", &m, &err), SS_E_BAD_CHECKPOINT);
    CHECK_MSG(strstr(err.msg, "Unable to read directory.id as a Uuid") != NULL, "%s", err.msg);
    ss_meta_properties_free(&m);
    CHECK_EQ_I(meta("x=\\u00g0\n", &m, &err), SS_E_BAD_CHECKPOINT);
    CHECK_MSG(strstr(err.msg, "Malformed \\uxxxx encoding.") != NULL, "%s", err.msg);
    ss_meta_properties_free(&m);
}

static ss_errkind quorum(const char *text, ss_quorum_state *q, ss_error *err) {
    return ss_quorum_state_parse(text, strlen(text), "/d/quorum-state", q, err);
}

static void test_quorum_state(void) {
    ss_quorum_state q;
    ss_error err;
    /* FileQuorumStateStore's example of version 0 (one line, as writeElectionStateToFile writes it) */
    CHECK_EQ_I(quorum("{\"clusterId\":\"\",\"leaderId\":1,\"leaderEpoch\":2,\"votedId\":-1,\"appliedOffset\":0,"
                      "\"currentVoters\":[{\"voterId\":1},{\"voterId\":3}],\"data_version\":0}",
                      &q, &err),
               SS_E_OK);
    CHECK(q.data_version == 0 && q.leader_id == 1 && q.leader_epoch == 2 && q.voted_id == -1);
    CHECK(q.cluster_id && !strcmp(q.cluster_id, ""));
    CHECK(q.nvoters == 2 && q.voters[0] == 1 && q.voters[1] == 3);
    ss_quorum_state_free(&q);
    /* version 1 (KRaft version 1, KIP-853): votedDirectoryId instead of the voters */
    CHECK_EQ_I(
        quorum("{\"leaderId\":-1,\"leaderEpoch\":2,\"votedId\":1,\"votedDirectoryId\":\"J8aAPcfLQt2bqs1JT_rMgQ\","
               "\"data_version\":1}\nignored second line",
               &q, &err),
        SS_E_OK);
    CHECK(q.data_version == 1 && q.leader_id == -1 && q.voted_id == 1 && q.has_voted_directory_id);
    CHECK(q.voted_directory_id[0] == 0x27 && q.nvoters == 0 && q.cluster_id == NULL);
    ss_quorum_state_free(&q);
    /* a null currentVoters (nullableVersions 0), blanks, a repeated member (the last wins) */
    CHECK_EQ_I(quorum(" { \"clusterId\" : \"x\\u0041\", \"leaderId\":1, \"leaderId\":4, \"leaderEpoch\":0, "
                      "\"votedId\":-1, \"appliedOffset\":9, \"currentVoters\":null, \"data_version\":0 } trailing",
                      &q, &err),
               SS_E_OK);
    CHECK(q.leader_id == 4 && q.voters_null && q.applied_offset == 9 && q.cluster_id && !strcmp(q.cluster_id, "xA"));
    ss_quorum_state_free(&q);

    /* what FileQuorumStateStore.readStateFromFile and the converter refuse */
    CHECK_EQ_I(quorum("", &q, &err), SS_E_BAD_CHECKPOINT);
    CHECK_MSG(strstr(err.msg, "File ended prematurely.") != NULL, "%s", err.msg);
    CHECK_EQ_I(quorum("[1]", &q, &err), SS_E_BAD_CHECKPOINT);
    CHECK_MSG(strstr(err.msg, "is not an object node") != NULL, "%s", err.msg);
    CHECK_EQ_I(quorum("{\"leaderId\":1}", &q, &err), SS_E_BAD_CHECKPOINT);
    CHECK_MSG(strstr(err.msg, "does not have data_version field") != NULL, "%s", err.msg);
    CHECK_EQ_I(quorum("{\"data_version\":2}", &q, &err), SS_E_BAD_CHECKPOINT);
    CHECK_MSG(strstr(err.msg, "data_version (2) is not within the min (0) and max (1) supported version") != NULL, "%s",
              err.msg);
    /* v1 without votedDirectoryId: mandatory in version 1 */
    CHECK_EQ_I(quorum("{\"leaderId\":-1,\"leaderEpoch\":2,\"votedId\":1,\"data_version\":1}", &q, &err),
               SS_E_BAD_CHECKPOINT);
    CHECK_MSG(strstr(err.msg, "unable to locate field 'votedDirectoryId', which is mandatory in version 1") != NULL,
              "%s", err.msg);
    /* MessageUtil.jsonNodeToInt refuses a string */
    CHECK_EQ_I(quorum("{\"leaderId\":\"1\",\"leaderEpoch\":2,\"votedId\":1,\"votedDirectoryId\":"
                      "\"J8aAPcfLQt2bqs1JT_rMgQ\",\"data_version\":1}",
                      &q, &err),
               SS_E_BAD_CHECKPOINT);
    CHECK_MSG(strstr(err.msg, "expected an integer or string type, but got STRING") != NULL, "%s", err.msg);
    CHECK_EQ_U(err.position, 12); /* '{' 0, "leaderId" 1..10, ':' 11: its value at byte 12 */
    /* an int32 field out of range, a leading zero (Jackson refuses it), a cut line */
    CHECK_EQ_I(quorum("{\"leaderId\":2147483648,\"leaderEpoch\":2,\"votedId\":1,\"votedDirectoryId\":"
                      "\"J8aAPcfLQt2bqs1JT_rMgQ\",\"data_version\":1}",
                      &q, &err),
               SS_E_BAD_CHECKPOINT);
    CHECK_EQ_I(quorum("{\"leaderId\":01,\"data_version\":1}", &q, &err), SS_E_BAD_CHECKPOINT);
    CHECK_EQ_I(quorum("{\"leaderId\":1,\"data_ver", &q, &err), SS_E_BAD_CHECKPOINT);
    /* a voter without voterId */
    CHECK_EQ_I(quorum("{\"clusterId\":\"\",\"leaderId\":1,\"leaderEpoch\":2,\"votedId\":-1,\"appliedOffset\":0,"
                      "\"currentVoters\":[{}],\"data_version\":0}",
                      &q, &err),
               SS_E_BAD_CHECKPOINT);
}

static void test_clean_shutdown(void) {
    ss_clean_shutdown s;
    ss_error err;
    CHECK_EQ_I(ss_clean_shutdown_parse(P(""), "/d/.kafka_cleanshutdown", &s, &err), SS_E_OK);
    CHECK(s.empty && !s.has_broker_epoch);
    /* CleanShutdownFileHandler.write: Json.encodeAsString(new Content(0, brokerEpoch)) */
    CHECK_EQ_I(ss_clean_shutdown_parse(P("{\"version\":0,\"brokerEpoch\":42}"), "/x", &s, &err), SS_E_OK);
    CHECK(!s.empty && s.version == 0 && s.has_broker_epoch && s.broker_epoch == 42);
    CHECK_EQ_I(ss_clean_shutdown_parse(P("{\"version\":0,\"brokerEpoch\":null,\"other\":[1]}"), "/x", &s, &err),
               SS_E_OK); /* @JsonIgnoreProperties(ignoreUnknown = true) */
    CHECK(!s.has_broker_epoch);
    CHECK_EQ_I(ss_clean_shutdown_parse(P("clean"), "/x", &s, &err), SS_E_BAD_CHECKPOINT);
    CHECK_EQ_I(ss_clean_shutdown_parse(P("{\"brokerEpoch\":\"7\"}"), "/x", &s, &err), SS_E_BAD_CHECKPOINT);
}

/* ---- checks ---------------------------------------------------------------------------------- */

typedef struct seen {
    char checks[16][40];
    bool info[16];
    uint64_t pos[16];
    int64_t off[16];
    size_t n;
} seen;

static void on_finding(void *arg, const ss_text_finding *f) {
    seen *s = arg;
    if (s->n >= 16) return;
    snprintf(s->checks[s->n], sizeof s->checks[0], "%s", f->check);
    s->info[s->n] = f->problem.severity == SS_SEV_NOTICE;
    s->pos[s->n] = f->problem.position;
    s->off[s->n] = f->offset;
    s->n++;
}

/* A log directory of two partitions: t-0 holds offsets 10..19 (log end 20), t-1 is empty at 5. */
static bool fake_span(void *arg, const char *topic, int32_t partition, ss_log_span *out) {
    (void)arg;
    memset(out, 0, sizeof *out);
    if (strcmp(topic, "t") != 0) return false;
    if (partition == 0) *out = (ss_log_span){.known = true, .start = 10, .end = 20, .last_epoch = 3};
    else if (partition == 1) *out = (ss_log_span){.known = true, .start = 5, .end = 5, .last_epoch = -1};
    else return false;
    return true;
}

static size_t run_check(const char *text, ss_text_kind kind, const ss_log_span *dir, seen *s) {
    ss_textfile f;
    ss_error err;
    memset(s, 0, sizeof *s);
    ss_errkind k = ss_textfile_parse(text, strlen(text), kind, "/d/f", &f, &err);
    CHECK_MSG(k == SS_E_OK, "%s", err.msg);
    size_t failed = k == SS_E_OK ? ss_textfile_check(&f, dir, fake_span, NULL, on_finding, s) : 99;
    ss_textfile_free(&f);
    return failed;
}

static void test_checks(void) {
    seen s;
    ss_log_span dir = {.known = true, .start = 0, .end = 120, .last_epoch = 4};
    /* leader-epoch-checkpoint: strictly increasing epochs and start offsets (LeaderEpochFileCache.assign) */
    CHECK_EQ_U(run_check("0\n3\n0 0\n2 50\n4 120\n", SS_TEXT_LEADER_EPOCH, &dir, &s), 0);
    CHECK_EQ_U(s.n, 0);
    /* entry 2 repeats epoch 2; entry 3 starts at 130, past the log end 120 (the lines of the
     * entries start at bytes 4, 8, 13 and 18) */
    CHECK_EQ_U(run_check("0\n4\n0 0\n2 50\n2 60\n4 130\n", SS_TEXT_LEADER_EPOCH, &dir, &s), 2);
    CHECK(s.n == 2 && !strcmp(s.checks[0], "leader-epoch-order") && s.pos[0] == 13 && s.off[0] == 60);
    CHECK(s.n == 2 && !strcmp(s.checks[1], "leader-epoch") && s.pos[1] == 18 && s.off[1] == 130);
    /* without a span, only the order is checked */
    CHECK_EQ_U(run_check("0\n1\n4 130\n", SS_TEXT_LEADER_EPOCH, NULL, &s), 0);
    /* an empty file: Kafka reads no entries; nothing to check */
    CHECK_EQ_U(run_check("", SS_TEXT_LEADER_EPOCH, &dir, &s), 0);

    /* offset checkpoints against t-0 (10..19, end 20) and t-1 (empty at 5); u-0 has no directory
     * (entry lines at bytes 4, 11, 17) */
    CHECK_EQ_U(run_check("0\n3\nt 0 20\nt 1 5\nu 0 7\n", SS_TEXT_REPLICATION_OFFSET, NULL, &s), 0);
    CHECK(s.n == 1 && !strcmp(s.checks[0], "checkpoint-no-partition") && s.info[0] && s.pos[0] == 17);
    /* a high watermark past the log end offset (UnifiedLog keeps it at most there) */
    CHECK_EQ_U(run_check("0\n1\nt 0 21\n", SS_TEXT_REPLICATION_OFFSET, NULL, &s), 1);
    CHECK(s.n == 1 && !strcmp(s.checks[0], "checkpoint-offset") && s.off[0] == 21 && s.pos[0] == 4);
    /* a log start offset past the log end: LogLoader would delete every segment */
    CHECK_EQ_U(run_check("0\n2\nt 0 10\nt 1 6\n", SS_TEXT_LOG_START_OFFSET, NULL, &s), 1);
    CHECK(s.n == 1 && !strcmp(s.checks[0], "checkpoint-offset") && s.off[0] == 6 && s.pos[0] == 11);
    /* a recovery point at the log end is fine, past it is not */
    CHECK_EQ_U(run_check("0\n2\nt 0 20\nt 1 9\n", SS_TEXT_RECOVERY_POINT, NULL, &s), 1);
    /* the cleaner's offset below the first segment: information (LogCleanerManager resets it) */
    CHECK_EQ_U(run_check("0\n2\nt 0 3\nt 1 5\n", SS_TEXT_CLEANER_OFFSET, NULL, &s), 0);
    CHECK(s.n == 1 && !strcmp(s.checks[0], "cleaner-offset-below-log-start") && s.info[0] && s.off[0] == 3);
    /* a partition listed twice */
    CHECK_EQ_U(run_check("0\n3\nt 0 12\nx 4 1\nt 0 13\n", SS_TEXT_RECOVERY_POINT, NULL, &s), 1);
    CHECK(s.n >= 1 && !strcmp(s.checks[0], "checkpoint-duplicate") && s.pos[0] == 17 && s.off[0] == 13);

    /* quorum-state: the quorum's epoch below the log's last epoch (QuorumState.initialize warns) */
    const char *q0 = "{\"clusterId\":\"\",\"leaderId\":1,\"leaderEpoch\":3,\"votedId\":-1,\"appliedOffset\":0,"
                     "\"currentVoters\":[{\"voterId\":1}],\"data_version\":0}";
    CHECK_EQ_U(run_check(q0, SS_TEXT_QUORUM_STATE, &dir, &s), 1); /* the log's last epoch is 4 */
    CHECK(s.n == 1 && !strcmp(s.checks[0], "quorum-state-epoch"));
    dir.last_epoch = 3;
    CHECK_EQ_U(run_check(q0, SS_TEXT_QUORUM_STATE, &dir, &s), 0);

    /* meta.properties: a reserved directory.id (most significant bits 0, least 99: ...AAAAAAAAAAYw) */
    CHECK_EQ_U(run_check("version=1\nnode.id=1\ncluster.id=c\ndirectory.id=AAAAAAAAAAAAAAAAAAAAYw\n",
                         SS_TEXT_META_PROPERTIES, NULL, &s),
               1);
    CHECK(s.n == 1 && !strcmp(s.checks[0], "meta-properties-directory-id") && s.pos[0] == 33);
    /* 100 (...AAAAAAAAAAZA) is the first id that is not reserved */
    CHECK_EQ_U(run_check("version=1\nnode.id=1\ncluster.id=c\ndirectory.id=AAAAAAAAAAAAAAAAAAAAZA\n",
                         SS_TEXT_META_PROPERTIES, NULL, &s),
               0);
}

static void test_kinds(void) {
    CHECK_EQ_I(ss_text_kind_of("/x/quorum-state"), SS_TEXT_QUORUM_STATE);
    CHECK_EQ_I(ss_text_kind_of("meta.properties"), SS_TEXT_META_PROPERTIES);
    CHECK_EQ_I(ss_text_kind_of("a/.kafka_cleanshutdown"), SS_TEXT_CLEAN_SHUTDOWN);
    CHECK_EQ_I(ss_text_kind_of("a/leader-epoch-checkpoint.tmp"), SS_TEXT_NONE);
    CHECK_EQ_I(ss_text_kind_of("a/00000000000000000000.log"), SS_TEXT_NONE);
    for (int k = 1; k < SS_TEXT_KIND_COUNT; k++) CHECK_EQ_I(ss_text_kind_of(ss_text_kind_name((ss_text_kind)k)), k);
    CHECK(ss_text_kind_in_log_dir(SS_TEXT_META_PROPERTIES) && !ss_text_kind_in_log_dir(SS_TEXT_QUORUM_STATE));
    /* an empty file: said to be empty where Kafka's message does not say it (partition.metadata:
     * readLine() returns null), or read as no entries (a checkpoint) */
    ss_textfile f;
    ss_error err;
    CHECK_EQ_I(ss_textfile_parse("", 0, SS_TEXT_PARTITION_METADATA, "/p", &f, &err), SS_E_BAD_CHECKPOINT);
    CHECK_MSG(strstr(err.msg, ": null (the file is empty)") != NULL, "%s", err.msg);
    ss_textfile_free(&f);
    CHECK_EQ_I(ss_textfile_parse("", 0, SS_TEXT_CLEANER_OFFSET, "/c", &f, &err), SS_E_OK);
    CHECK(f.empty && f.ckpt.n == 0);
    ss_textfile_free(&f);
    CHECK_EQ_I(ss_textfile_parse(P("0\n"), SS_TEXT_RECOVERY_POINT, "/c", &f, &err), SS_E_OK);
    CHECK(f.empty && f.size == 2); /* a version line and no count line: no entries */
    ss_textfile_free(&f);
}

/* Every real text file under CORPUS/real reads, and passes its checks against the logs beside it. */
static unsigned real_files;

static void count_failed(void *arg, const ss_text_finding *f) {
    if (f->problem.severity != SS_SEV_NOTICE) {
        (*(unsigned *)arg)++;
        fprintf(stderr, "  %s: %s\n", f->check, f->problem.msg);
    }
}

static void walk(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *de;
    ss_log_dir_spans *spans = ss_log_dir_spans_new(dir);
    ss_log_span own;
    bool have_own = ss_log_span_read(dir, &own);
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            walk(path);
            continue;
        }
        if (ss_text_kind_of(path) == SS_TEXT_NONE) continue;
        ss_textfile f;
        ss_error err;
        real_files++;
        ss_errkind k = ss_textfile_read(path, SS_TEXT_NONE, &f, &err);
        CHECK_MSG(k == SS_E_OK, "%s: %s", path, err.msg);
        unsigned failed = 0;
        if (k == SS_E_OK) ss_textfile_check(&f, have_own ? &own : NULL, ss_log_dir_span, spans, count_failed, &failed);
        CHECK_MSG(failed == 0, "%s: %u failed checks", path, failed);
        ss_textfile_free(&f);
    }
    ss_log_dir_spans_free(spans);
    closedir(d);
}

int main(int argc, char **argv) {
    test_meta_properties();
    test_quorum_state();
    test_clean_shutdown();
    test_checks();
    test_kinds();
    if (argc > 1) {
        char root[4096];
        snprintf(root, sizeof root, "%s/real", argv[1]);
        walk(root);
        CHECK_MSG(real_files >= 40, "only %u real text files found under %s", real_files, root);
    }
    return check_exit("test_textfiles");
}
