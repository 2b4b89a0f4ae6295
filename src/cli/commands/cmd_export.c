/* segscan export - a row per record into a Parquet file (segscan/exports.h), for
 * the analysis of many brokers' exports together (DuckDB, Spark, Trino).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "common/common.h"
#include "segscan/segscan.h"

static const char export_usage[] = "usage: segscan export --fingerprints -o FILE.parquet [options] PATH...\n"
                                   "\n"
                                   "Write a row per record of the partitions in PATH (transaction markers as control\n"
                                   "rows) to a Parquet file: topic, partition, offset, timestamp, timestampType,\n"
                                   "producerId, producerEpoch, sequence, baseOffset, leaderEpoch, isTransactional,\n"
                                   "isControl, controlType, coordinatorEpoch, compression, keySize, valueSize,\n"
                                   "keyFingerprint, valueFingerprint (the XXH3-128 dups prints), broker, source,\n"
                                   "and key and value for the internal topics. The file's metadata names the\n"
                                   "partitions read, their offsets and damage.\n"
                                   "\n"
                                   "  --fingerprints           the fingerprint export (the one kind there is)\n"
                                   "  -o, --output FILE        the Parquet file to write (replaced)\n"
                                   "  --broker-id N            the broker column (default: node.id of the log\n"
                                   "                           directory's meta.properties, else null)\n"
                                   "  -q, --quiet              no notes about the inputs\n"
                                   "  -h, --help               this help\n"
                                   "\n"
                                   "exit codes: 0 done, 2 usage or I/O error, 3 damaged input met (the file is\n"
                                   "written without the damaged batches)\n";

enum { OPT_FINGERPRINTS = 256, OPT_BROKER_ID };

static const struct option export_longopts[] = {
    {"fingerprints", no_argument, NULL, OPT_FINGERPRINTS},
    {"output", required_argument, NULL, 'o'},
    {"broker-id", required_argument, NULL, OPT_BROKER_ID},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* The command line as one string for the file's metadata, arguments quoted as a shell would
 * need them. NULL when out of memory. */
static char *command_line(int argc, char **argv) {
    size_t n = sizeof "segscan";
    for (int i = 0; i < argc; i++) n += 4 * strlen(argv[i]) + 3;
    char *s = malloc(n), *p = s;
    if (!s) return NULL;
    p += sprintf(p, "segscan");
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        bool plain = *a != '\0';
        for (const char *c = a; *c; c++)
            if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,+-", *c)) plain = false;
        *p++ = ' ';
        if (plain) {
            p += sprintf(p, "%s", a);
            continue;
        }
        *p++ = '\'';
        for (const char *c = a; *c; c++) {
            if (*c == '\'') p += sprintf(p, "'\\''");
            else *p++ = *c;
        }
        *p++ = '\'';
    }
    *p = '\0';
    return s;
}

int cmd_export(int argc, char **argv) {
    bool fingerprints = false, quiet = false;
    const char *output = NULL;
    ss_export_opts xo;
    memset(&xo, 0, sizeof xo);
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "ho:q", export_longopts, NULL)) != -1) {
        switch (c) {
        case OPT_FINGERPRINTS: fingerprints = true; break;
        case 'o': output = optarg; break;
        case OPT_BROKER_ID: {
            int64_t id;
            if (!parse_i64(optarg, &id) || id < 0 || id > INT32_MAX) {
                warnx_("export: --broker-id needs a number from 0 to %d", INT32_MAX);
                return EXIT_TROUBLE;
            }
            xo.has_broker_id = true;
            xo.broker_id = (int32_t)id;
            break;
        }
        case 'q': quiet = true; break;
        case 'h': fputs(export_usage, stdout); return EXIT_OK;
        default: return bad_option("export", argv, optind, optopt);
        }
    }
    if (!fingerprints || !output || optind >= argc) {
        warnx_("export: %s", !fingerprints ? "give --fingerprints (the kind of export)"
                             : !output     ? "give the file to write with -o FILE"
                                           : "give a PATH to export");
        fputs(export_usage, stderr);
        return EXIT_TROUBLE;
    }
    int rc = EXIT_OK;
    ss_inputs *in = ss_inputs_new(false);
    ss_export *x = ss_export_new();
    char *cmdline = command_line(argc, argv);
    if (!in || !x || !cmdline) {
        warnx_("out of memory");
        ss_inputs_free(in);
        ss_export_free(x);
        free(cmdline);
        return EXIT_TROUBLE;
    }
    xo.command_line = cmdline;
    for (int i = optind; i < argc; i++) {
        if (!strcmp(argv[i], "-")) {
            warnx_("export: '-' (standard input) cannot be exported: give the partition directory");
            rc = exit_merge(rc, EXIT_TROUBLE);
            continue;
        }
        if (ss_inputs_is_export(argv[i])) { /* its rows hold fingerprints: exported again they would be wrong */
            warnx_("export: %s is an export already: its data topics' values are not in it to be fingerprinted "
                   "again; give the log directory it was made from, or read it as it is",
                   argv[i]);
            rc = exit_merge(rc, EXIT_TROUBLE);
            continue;
        }
        if (ss_inputs_add(in, argv[i]) != SS_E_OK) rc = exit_merge(rc, EXIT_TROUBLE);
    }
    ss_inputs_finish(in);
    warn_problems(ss_inputs_problems(in), quiet);
    if (!ss_inputs_count(in)) { /* no file of a partition that nothing was read of */
        warnx_("export: no partition to export: %s not written", output);
        ss_export_free(x);
        ss_inputs_free(in);
        free(cmdline);
        return EXIT_TROUBLE;
    }
    ss_error err;
    memset(&err, 0, sizeof err);
    if (ss_export_write(x, in, output, &xo, &err) != SS_E_OK) {
        report_error(output, &err);
        rc = exit_merge(rc, EXIT_TROUBLE);
    } else {
        const ss_problems *dp = ss_export_problems(x);
        for (size_t i = 0; i < ss_problems_count(dp); i++) warnx_("%s", ss_problems_at(dp, i)->msg);
        if (ss_export_stats_get(x)->damage) rc = exit_merge(rc, EXIT_DAMAGE);
        if (!quiet) {
            const ss_export_stats *st = ss_export_stats_get(x);
            warnx_("export: %" PRIu64 " rows (%" PRIu64 " markers) of %" PRIu64 " partitions to %s", st->rows,
                   st->markers, st->partitions, output);
        }
    }
    ss_export_free(x);
    ss_inputs_free(in);
    free(cmdline);
    return rc;
}
