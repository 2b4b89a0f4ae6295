/* segscan - command line entry point: dispatch to a subcommand. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "common/common.h"
#include "segscan/segscan.h"
#include "segscan/test_hooks.h"

static const char usage_text[] = "usage: segscan [scan] [options] PATH...\n"
                                 "       segscan <command> [options] PATH...\n"
                                 "\n"
                                 "Read Apache Kafka log segments straight from a broker's disk.\n"
                                 "\n"
                                 "commands:\n"
                                 "  scan      (the default) summary: records, producers, duplicates and why,\n"
                                 "            sequences, transactions, damage\n"
                                 "  dups      every duplicate group with every copy and its cause\n"
                                 "  producers producer sessions: sequence ranges, gaps, repeated sequences, epoch\n"
                                 "            bumps\n"
                                 "  txns      transactions, last stable offset, what read_committed consumers see\n"
                                 "  explain   every copy of one record and why it exists (--value, --key,\n"
                                 "            --offset, ...)\n"
                                 "  dump      print segments as kafka-dump-log.sh does, or as JSON Lines (--json)\n"
                                 "  diff      where two segments, replicas or mirrors of a partition differ\n"
                                 "  verify    check .log, .index, .timeindex, .txnindex, producer snapshots and\n"
                                 "            the leader-epoch-checkpoint against each other\n"
                                 "  coordinator  which __consumer_offsets / __transaction_state partition holds a\n"
                                 "            group or transactional id (--group ID | --transactional-id ID)\n"
                                 "  groups    each consumer group's history from __consumer_offsets: generations,\n"
                                 "            members, owners, commits, the committed offset, deletions\n"
                                 "  export    a row per record to a Parquet file, value fingerprints included\n"
                                 "            (--fingerprints -o FILE.parquet), for many brokers' analysis\n"
                                 "\n"
                                 "options:\n"
                                 "  -h, --help     this help\n"
                                 "  help COMMAND   a command's options, as 'segscan COMMAND --help' prints them\n"
                                 "  -V, --version  the version, and those of the libraries it runs with\n"
                                 "\n"
                                 "exit codes: 0 done, 1 findings or differences, 2 usage or I/O error,\n"
                                 "            3 damaged input met\n"
                                 "See segscan(1).\n";

static const struct cli_command commands[] = {
    {"scan", cmd_scan},     {"dups", cmd_dups},       {"producers", cmd_producers},
    {"txns", cmd_txns},     {"explain", cmd_explain}, {"dump", cmd_dump},
    {"diff", cmd_diff},     {"verify", cmd_verify},   {"coordinator", cmd_coordinator},
    {"groups", cmd_groups}, {"export", cmd_export},
};

/* The test hooks (segscan/test_hooks.h) from the environment, for the tests
 * that run this binary (tests/hostile/live.py, tests/speed/, tests/export). */
static void test_hooks_from_env(void) {
    ss_test_hooks h = {.pause_after_batches = UINT64_MAX};
    const char *n = getenv("SEGSCAN_TEST_PAUSE_AFTER_BATCHES"), *fifo = getenv("SEGSCAN_TEST_PAUSE_FIFO");
    h.walker_only = n != NULL;
    if (n && fifo && *n) {
        char *end;
        unsigned long long v = strtoull(n, &end, 10);
        if (!*end) {
            h.pause_after_batches = v;
            h.pause_fifo = fifo;
        }
    }
    const char *ub = getenv("SEGSCAN_TEST_UNIT_BYTES");
    if (ub && *ub) h.unit_bytes = strtoull(ub, NULL, 10);
    const char *xs = getenv("SEGSCAN_TEST_EXPORT_SLOT_BYTES");
    if (xs && *xs) h.export_slot_bytes = strtoull(xs, NULL, 10);
    const char *xt = getenv("SEGSCAN_TEST_EXPORT_THREADS");
    if (xt && *xt) h.export_threads = strtoull(xt, NULL, 10);
    const char *xg = getenv("SEGSCAN_TEST_EXPORT_ROWS_PER_GROUP");
    if (xg && *xg) h.export_rows_per_group = strtoull(xg, NULL, 10);
    const char *fa = getenv("SEGSCAN_TEST_FAIL_ANALYSIS");
    h.fail_analysis = fa && !strcmp(fa, "1");
    if (n || ub || xs || xt || xg || h.fail_analysis) ss_test_hooks_set(&h);
}

/* 'segscan help CMD': what 'segscan CMD --help' prints. */
static int help_command(const char *name) {
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(name, commands[i].name)) {
            char help[] = "--help", *args[] = {(char *)commands[i].name, help, NULL};
            return commands[i].run(2, args);
        }
    warnx_("help: no command '%s' ('segscan --help' lists the commands)", name);
    return EXIT_TROUBLE;
}

int main(int argc, char **argv) {
    test_hooks_from_env();
    cli_commands_set(commands, sizeof commands / sizeof *commands);
    if (argc < 2) {
        fputs(usage_text, stderr);
        return EXIT_TROUBLE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "help") && argc > 2) return help_command(argv[2]);
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
        ss_lib_versions v;
        ss_lib_versions_get(&v);
        printf("segscan %s\nlibraries: zstd %s, lz4 %s, zlib %s, xxhash %s, snappy %s (build)\n", ss_version(), v.zstd,
               v.lz4, v.zlib, v.xxhash, v.snappy);
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(cmd, commands[i].name)) return commands[i].run(argc - 1, argv + 1);
    /* not a command: 'segscan PATH...' is 'segscan scan PATH...' */
    return cmd_scan(argc, argv);
}
