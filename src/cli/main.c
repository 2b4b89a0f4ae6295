/* segscan - command line entry point: dispatch to a subcommand. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const char usage_text[] =
    "usage: segscan [scan] [options] PATH...\n"
    "       segscan <command> [options] PATH...\n"
    "\n"
    "Read Apache Kafka log segments straight from a broker's disk.\n"
    "\n"
    "commands:\n"
    "  scan      (the default) summary: records, producers, duplicates and why, sequences,\n"
    "            transactions, damage\n"
    "  dups      every duplicate group with every copy and its cause\n"
    "  producers producer sessions: sequence ranges, gaps, repeated sequences, epoch bumps\n"
    "  txns      transactions, last stable offset, what read_committed consumers see\n"
    "  explain   every copy of one record and why it exists (--value, --key, --offset, ...)\n"
    "  dump      print segments as kafka-dump-log.sh does, or as JSON Lines (--json)\n"
    "  diff      where two segments, replicas or mirrors of a partition differ\n"
    "  verify    check .log, .index, .timeindex, .txnindex, producer snapshots and the\n"
    "            leader-epoch-checkpoint against each other\n"
    "  coordinator  which __consumer_offsets / __transaction_state partition holds a group or\n"
    "            transactional id (--group ID | --transactional-id ID)\n"
    "\n"
    "options:\n"
    "  -h, --help     this help; 'segscan <command> --help' for a command's options\n"
    "  -V, --version  print the version\n"
    "\n"
    "exit codes: 0 done, 1 findings or differences, 2 usage or I/O error, 3 damaged input met\n"
    "See segscan(1).\n";

int exit_merge(int a, int b) {
    static const int rank[] = {[EXIT_OK] = 0, [EXIT_FINDINGS] = 1, [EXIT_DAMAGE] = 2, [EXIT_TROUBLE] = 3};
    return rank[b] > rank[a] ? b : a;
}

void warnx_(const char *fmt, ...) {
    va_list ap;
    fflush(stdout);
    fputs("segscan: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void report_error(const char *file, const ss_error *e) {
    if (e->base_offset >= 0)
        warnx_("%s: byte %llu (baseOffset %lld): %s [%s]", file, (unsigned long long)e->position,
               (long long)e->base_offset, e->msg, ss_errkind_name(e->kind));
    else warnx_("%s: byte %llu: %s [%s]", file, (unsigned long long)e->position, e->msg, ss_errkind_name(e->kind));
}

bool parse_u64(const char *s, uint64_t *v) {
    if (!s || !*s || *s == '-') return false;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end) return false;
    *v = x;
    return true;
}

bool cli_local_time;

void cli_format_time(int64_t ms, char *buf, size_t n) {
    static bool tz_read;
    if (cli_local_time && ms >= 0) {
        if (!tz_read) {
            tzset();
            tz_read = true;
        }
        time_t t = (time_t)(ms / 1000);
        struct tm tm;
        if ((int64_t)t == ms / 1000 && localtime_r(&t, &tm)) {
            long off = tm.tm_gmtoff, a = off < 0 ? -off : off;
            char zone[40];
            if (off == 0) snprintf(zone, sizeof zone, "Z");
            else if (a % 60)
                snprintf(zone, sizeof zone, "%c%02ld:%02ld:%02ld", off < 0 ? '-' : '+', a / 3600, a / 60 % 60, a % 60);
            else snprintf(zone, sizeof zone, "%c%02ld:%02ld", off < 0 ? '-' : '+', a / 3600, a / 60 % 60);
            snprintf(buf, n, "%04lld-%02d-%02dT%02d:%02d:%02d.%03d%s", (long long)tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ms % 1000), zone);
            return;
        }
    }
    ss_format_time(ms, buf, n);
}

int cli_read_stdin(uint8_t **buf, size_t *len) {
    size_t cap = 1 << 20, n = 0;
    uint8_t *b = malloc(cap);
    if (!b) return -1;
    for (;;) {
        if (n == cap) {
            uint8_t *nb = realloc(b, cap * 2);
            if (!nb) {
                free(b);
                return -1;
            }
            b = nb;
            cap *= 2;
        }
        size_t r = fread(b + n, 1, cap - n, stdin);
        n += r;
        if (r == 0) break;
    }
    if (ferror(stdin)) {
        free(b);
        return -1;
    }
    *buf = b;
    *len = n;
    return 0;
}

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"scan", cmd_scan}, {"dups", cmd_dups},       {"producers", cmd_producers},
    {"txns", cmd_txns}, {"explain", cmd_explain}, {"dump", cmd_dump},
    {"diff", cmd_diff}, {"verify", cmd_verify},   {"coordinator", cmd_coordinator},
};

const char *cli_command_name(size_t i) { return i < sizeof commands / sizeof *commands ? commands[i].name : NULL; }

int main(int argc, char **argv) {
    if (argc < 2) {
        fputs(usage_text, stderr);
        return EXIT_TROUBLE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
        printf("segscan %s\n", ss_version());
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(cmd, commands[i].name)) return commands[i].run(argc - 1, argv + 1);
    /* not a command: 'segscan PATH...' is 'segscan scan PATH...' */
    return cmd_scan(argc, argv);
}
