/* segscan unit tests - checkpoint text files (offset checkpoints,
 * leader-epoch-checkpoint) and partition.metadata, read as Kafka reads them.
 *
 * usage: test_checkpoint CORPUS_DIR   (the real checkpoint files under
 * CORPUS_DIR/real must all parse)
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "segscan/files.h"

#define P(s) s, strlen(s)

static ss_errkind parse(const char *text, ss_checkpoint_kind kind, ss_checkpoint *c, ss_error *err) {
    return ss_checkpoint_parse(text, strlen(text), kind, "/logs/ckpt", c, err);
}

static void test_offsets(void) {
    ss_checkpoint c;
    ss_error err;
    CHECK_EQ_I(
        parse("0\n3\nfoo 0 12\n__consumer_offsets 49 0\nbar-baz 7 9223372036854775807\n", SS_CKPT_OFFSETS, &c, &err),
        SS_E_OK);
    CHECK_EQ_U(c.n, 3);
    CHECK(!c.empty);
    CHECK(!strcmp(c.offsets[0].topic, "foo") && c.offsets[0].partition == 0 && c.offsets[0].offset == 12);
    CHECK(!strcmp(c.offsets[1].topic, "__consumer_offsets") && c.offsets[1].partition == 49);
    CHECK(!strcmp(c.offsets[2].topic, "bar-baz") && c.offsets[2].offset == INT64_MAX);
    ss_checkpoint_free(&c);

    /* CRLF and CR line ends, tabs and runs of spaces, trailing blanks, no final newline */
    CHECK_EQ_I(parse("0\r\n2\rt\t1  5 \r\nu 2 -1", SS_CKPT_OFFSETS, &c, &err), SS_E_OK);
    CHECK_EQ_U(c.n, 2);
    CHECK(c.n == 2 && !strcmp(c.offsets[0].topic, "t") && c.offsets[0].partition == 1 && c.offsets[0].offset == 5);
    CHECK(c.n == 2 && !strcmp(c.offsets[1].topic, "u") && c.offsets[1].offset == -1);
    ss_checkpoint_free(&c);

    /* empty file, or only a version line: an empty list */
    CHECK_EQ_I(parse("", SS_CKPT_OFFSETS, &c, &err), SS_E_OK);
    CHECK(c.empty && c.n == 0);
    ss_checkpoint_free(&c);
    CHECK_EQ_I(parse("0\n", SS_CKPT_OFFSETS, &c, &err), SS_E_OK);
    CHECK(c.empty && c.n == 0);
    ss_checkpoint_free(&c);
    CHECK_EQ_I(parse("0\n0\n", SS_CKPT_OFFSETS, &c, &err), SS_E_OK);
    CHECK(!c.empty && c.n == 0);
    ss_checkpoint_free(&c);

    /* errors, with Kafka's messages */
    CHECK_EQ_I(parse("1\n0\n", SS_CKPT_OFFSETS, &c, &err), SS_E_BAD_CHECKPOINT);
    CHECK_MSG(!strcmp(err.msg, "Unrecognised version:1, expected version: 0 in checkpoint file at: /logs/ckpt"), "%s",
              err.msg);
    CHECK_EQ_I(parse("x\n0\n", SS_CKPT_OFFSETS, &c, &err), SS_E_BAD_CHECKPOINT);
    CHECK_MSG(!strcmp(err.msg, "Malformed line in checkpoint file [/logs/ckpt]: x"), "%s", err.msg);
    CHECK_EQ_I(parse(" 0\n0\n", SS_CKPT_OFFSETS, &c, &err), SS_E_BAD_CHECKPOINT); /* parseInt takes no blanks */
    CHECK_EQ_I(parse("0\n2\na 0 1\n", SS_CKPT_OFFSETS, &c, &err), SS_E_BAD_CHECKPOINT);
    CHECK_MSG(!strcmp(err.msg, "Expected [2] entries in checkpoint file [/logs/ckpt], but found only [1]"), "%s",
              err.msg);
    CHECK(c.offsets == NULL || c.n == 1);
    ss_checkpoint_free(&c);
    CHECK_EQ_I(parse("0\n1\na 0 1\nb 1 2\n", SS_CKPT_OFFSETS, &c, &err), SS_E_BAD_CHECKPOINT);
    CHECK(strstr(err.msg, "but found only [2]") != NULL);
    ss_checkpoint_free(&c);
    CHECK_EQ_I(parse("0\n1\na 0\n", SS_CKPT_OFFSETS, &c, &err), SS_E_BAD_CHECKPOINT);
    CHECK_MSG(!strcmp(err.msg, "Malformed line in checkpoint file [/logs/ckpt]: a 0"), "%s", err.msg);
    CHECK_EQ_I(parse("0\n1\n a 0 1\n", SS_CKPT_OFFSETS, &c, &err), SS_E_BAD_CHECKPOINT); /* leading blank: 4 fields */
    CHECK_EQ_I(parse("0\n1\na 0 1 2\n", SS_CKPT_OFFSETS, &c, &err), SS_E_BAD_CHECKPOINT);
    CHECK_EQ_I(parse("0\n1\na x 1\n", SS_CKPT_OFFSETS, &c, &err), SS_E_BAD_CHECKPOINT);
    CHECK_EQ_I(parse("0\n1\na 2147483648 1\n", SS_CKPT_OFFSETS, &c, &err), SS_E_BAD_CHECKPOINT);
    CHECK_EQ_I(parse("0\n1\na 0 9223372036854775808\n", SS_CKPT_OFFSETS, &c, &err), SS_E_BAD_CHECKPOINT);
    CHECK_EQ_I(parse("0\n1\n\n", SS_CKPT_OFFSETS, &c, &err), SS_E_BAD_CHECKPOINT); /* an empty line */
    CHECK_EQ_I(parse("0\n-1\n", SS_CKPT_OFFSETS, &c, &err), SS_E_BAD_CHECKPOINT);
    CHECK(strstr(err.msg, "Illegal Capacity: -1") == err.msg);
    CHECK_EQ_I(parse("0\n1\n\xc3\x28 0 1\n", SS_CKPT_OFFSETS, &c, &err), SS_E_BAD_CHECKPOINT); /* not UTF-8 */
    CHECK_EQ_U(err.position, 4);
    CHECK_EQ_I(parse("0\n1\nt\xc3\xa9st 0 1\n", SS_CKPT_OFFSETS, &c, &err), SS_E_OK); /* UTF-8 topic */
    CHECK(c.n == 1 && !strcmp(c.offsets[0].topic, "t\xc3\xa9st"));
    ss_checkpoint_free(&c);
    const char nul[] = "0\n1\na\0b 0 1\n";
    CHECK_EQ_I(ss_checkpoint_parse(nul, sizeof nul - 1, SS_CKPT_OFFSETS, "/x", &c, &err), SS_E_BAD_CHECKPOINT);
    CHECK_EQ_I(ss_checkpoint_parse(NULL, 0, SS_CKPT_OFFSETS, "/x", &c, &err), SS_E_OK);
    ss_checkpoint_free(&c);
    /* a long line is quoted shortened, the message stays within ss_error */
    char longline[2000];
    memset(longline, 'a', sizeof longline);
    memcpy(longline, "0\n1\n", 4);
    longline[sizeof longline - 1] = 0;
    CHECK_EQ_I(parse(longline, SS_CKPT_OFFSETS, &c, &err), SS_E_BAD_CHECKPOINT);
    CHECK(strlen(err.msg) < sizeof err.msg);
}

static void test_leader_epoch(void) {
    ss_checkpoint c;
    ss_error err;
    CHECK_EQ_I(parse("0\n3\n0 0\n4 120\n-1 2147483648000\n", SS_CKPT_LEADER_EPOCH, &c, &err), SS_E_OK);
    CHECK_EQ_U(c.n, 3);
    CHECK(c.n == 3 && c.epochs[1].epoch == 4 && c.epochs[1].start_offset == 120);
    CHECK(c.n == 3 && c.epochs[2].epoch == -1 && c.epochs[2].start_offset == 2147483648000LL);
    ss_checkpoint_free(&c);
    CHECK_EQ_I(parse("0\n1\n0 0 0\n", SS_CKPT_LEADER_EPOCH, &c, &err), SS_E_BAD_CHECKPOINT);
    CHECK_EQ_I(parse("0\n1\n2147483648 0\n", SS_CKPT_LEADER_EPOCH, &c, &err), SS_E_BAD_CHECKPOINT);
    CHECK_EQ_I(parse("0\n1\n+7 -0\n", SS_CKPT_LEADER_EPOCH, &c, &err), SS_E_OK); /* Java accepts signs */
    CHECK(c.n == 1 && c.epochs[0].epoch == 7 && c.epochs[0].start_offset == 0);
    ss_checkpoint_free(&c);
    CHECK_EQ_I(parse("0\n1\n- 5\n", SS_CKPT_LEADER_EPOCH, &c, &err), SS_E_BAD_CHECKPOINT);

    ss_checkpoint_kind k;
    CHECK(ss_checkpoint_kind_for_name("/a/b/leader-epoch-checkpoint", &k) && k == SS_CKPT_LEADER_EPOCH);
    CHECK(ss_checkpoint_kind_for_name("recovery-point-offset-checkpoint", &k) && k == SS_CKPT_OFFSETS);
    CHECK(ss_checkpoint_kind_for_name("x/replication-offset-checkpoint", &k) && k == SS_CKPT_OFFSETS);
    CHECK(ss_checkpoint_kind_for_name("log-start-offset-checkpoint", &k) && k == SS_CKPT_OFFSETS);
    CHECK(ss_checkpoint_kind_for_name("cleaner-offset-checkpoint", &k) && k == SS_CKPT_OFFSETS);
    CHECK(!ss_checkpoint_kind_for_name("leader-epoch-checkpoint.tmp", &k));
    CHECK(!ss_checkpoint_kind_for_name("", &k));
}

static void test_partition_metadata(void) {
    ss_partition_metadata m;
    ss_error err;
    CHECK_EQ_I(ss_partition_metadata_parse(P("version: 0\ntopic_id: vqSmEBIuSwm33bh8npzjMw"), "/p", &m, &err), SS_E_OK);
    CHECK_EQ_I(m.version, 0);
    CHECK(!strcmp(m.topic_id_str, "vqSmEBIuSwm33bh8npzjMw"));
    CHECK_EQ_U(m.topic_id[0], 0xbe);
    CHECK_EQ_U(m.topic_id[1], 0xa4);
    CHECK_EQ_U(m.topic_id[15], 0x33);
    /* padded base64 too, later versions accepted, extra lines ignored */
    CHECK_EQ_I(
        ss_partition_metadata_parse(P("version:  3\r\ntopic_id:\tvqSmEBIuSwm33bh8npzjMw==\nmore\n"), "/p", &m, &err),
        SS_E_OK);
    CHECK_EQ_I(m.version, 3);
    CHECK_EQ_U(m.topic_id[15], 0x33);
    /* errors */
    CHECK_EQ_I(ss_partition_metadata_parse(P(""), "/p", &m, &err), SS_E_BAD_CHECKPOINT);
    CHECK_MSG(!strcmp(err.msg, "Malformed line in partition metadata file [/p]: null"), "%s", err.msg);
    CHECK_EQ_I(ss_partition_metadata_parse(P("version: 0\n"), "/p", &m, &err), SS_E_BAD_CHECKPOINT);
    CHECK_MSG(!strcmp(err.msg, "Malformed line in partition metadata file [/p]: null"), "%s", err.msg);
    CHECK_EQ_I(ss_partition_metadata_parse(P("version:0\ntopic_id: vqSmEBIuSwm33bh8npzjMw"), "/p", &m, &err),
               SS_E_BAD_CHECKPOINT);
    CHECK_MSG(!strcmp(err.msg, "Malformed line in partition metadata file [/p]: version:0"), "%s", err.msg);
    CHECK_EQ_I(ss_partition_metadata_parse(P("Version: 0\ntopic_id: vqSmEBIuSwm33bh8npzjMw"), "/p", &m, &err),
               SS_E_BAD_CHECKPOINT);
    CHECK_EQ_I(ss_partition_metadata_parse(P("version: -1\ntopic_id: vqSmEBIuSwm33bh8npzjMw"), "/p", &m, &err),
               SS_E_BAD_CHECKPOINT);
    CHECK_MSG(!strcmp(err.msg, "Unrecognized version of partition metadata file (/p): -1"), "%s", err.msg);
    CHECK_EQ_I(ss_partition_metadata_parse(P("version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAA"), "/p", &m, &err),
               SS_E_BAD_CHECKPOINT);
    CHECK_MSG(!strcmp(err.msg, "Invalid topic ID in partition metadata file (/p)"), "%s", err.msg);
    static const char *const bad_ids[] = {
        "vqSmEBIuSwm33bh8npzjM",    /* 21 characters: 15 bytes and a lone character */
        "vqSmEBIuSwm33bh8npzjMwAA", /* 18 bytes */
        "vqSmEBIuSwm33bh8npzj+w",   /* '+' is not in the URL alphabet */
        "vqSmEBIuSwm33bh8npzjMw=",  /* wrong padding */
        "vqSmEBIuSwm33bh8npzjMw===x", "",
    };
    for (size_t i = 0; i < sizeof bad_ids / sizeof bad_ids[0]; i++) {
        char text[100];
        snprintf(text, sizeof text, "version: 0\ntopic_id: %s\n", bad_ids[i]);
        CHECK_MSG(ss_partition_metadata_parse(P(text), "/p", &m, &err) == SS_E_BAD_CHECKPOINT, "%s", bad_ids[i]);
    }
    CHECK_EQ_I(ss_partition_metadata_parse(NULL, 0, "/p", &m, &err), SS_E_BAD_CHECKPOINT);
}

/* Every real checkpoint and partition.metadata under CORPUS/real parses (they came from brokers). */
static unsigned real_files;

static void walk(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            walk(path);
            continue;
        }
        ss_checkpoint_kind k;
        ss_error err;
        if (ss_checkpoint_kind_for_name(path, &k)) {
            ss_checkpoint c;
            real_files++;
            CHECK_MSG(ss_checkpoint_read(path, k, &c, &err) == SS_E_OK, "%s: %s", path, err.msg);
            ss_checkpoint_free(&c);
        } else if (!strcmp(de->d_name, "partition.metadata")) {
            ss_partition_metadata m;
            real_files++;
            CHECK_MSG(ss_partition_metadata_read(path, &m, &err) == SS_E_OK, "%s: %s", path, err.msg);
        }
    }
    closedir(d);
}

int main(int argc, char **argv) {
    test_offsets();
    test_leader_epoch();
    test_partition_metadata();
    ss_checkpoint c;
    ss_error err;
    CHECK_EQ_I(ss_checkpoint_read("/nonexistent/leader-epoch-checkpoint", SS_CKPT_LEADER_EPOCH, &c, &err), SS_E_IO);
    if (argc > 1) {
        char real[4096];
        snprintf(real, sizeof real, "%s/real", argv[1]);
        walk(real);
        CHECK_MSG(real_files > 0, "no checkpoint files under %s", real);
        printf("test_checkpoint: %u real checkpoint files read\n", real_files);
    }
    return check_exit("test_checkpoint");
}
