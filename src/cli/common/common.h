/* segscan CLI - what every command shares (common.c). */
#ifndef SS_CLI_COMMON_H
#define SS_CLI_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/base.h" /* ss_next_offset, ss_sat_sub64, ss_sat_add64 */
#include "segscan/errors.h"

/* Exit codes (DESIGN section 5): when several apply, the first of 2, 3, 1, 0 wins. */
enum { EXIT_OK = 0, EXIT_FINDINGS = 1, EXIT_TROUBLE = 2, EXIT_DAMAGE = 3 };
int exit_merge(int a, int b);

/* Diagnostics on stderr, prefixed "segscan: ". */
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* An option getopt_long did not take (call with opterr 0, after it returned '?'
 * or ':'): one line naming it and the hint to --help. Returns EXIT_TROUBLE. */
int bad_option(const char *cmd, char **argv, int optind_now, int optopt_now);
/* A library run's problems on stderr, one line each: every error, and the notes and
 * warnings unless quiet. */
void warn_problems(const ss_problems *p, bool quiet);
/* "segscan: FILE: byte P (baseOffset B): reason [kind]" */
void report_error(const char *file, const ss_error *e);

bool parse_u64(const char *s, uint64_t *v);
/* A decimal number, '-' allowed. */
bool parse_i64(const char *s, int64_t *v);
/* A size: "512M", "2G", "1048576", "64MiB" (K, M, G, T: binary multiples). */
bool parse_size(const char *s, uint64_t *v);
/* Half of the RAM, or 0 (no limit) when unknown. */
uint64_t default_max_memory(void);
/* All of stdin into a new buffer (free it); 0, or -1 when reading failed or memory ran out. */
int cli_read_stdin(uint8_t **buf, size_t *len);
/* A partition directory's name as Kafka writes it, TOPIC-N (--stdin-name): a legal topic name
 * (Topic.validate: [a-zA-Z0-9._-], 1 to 249 characters, not "." or "..") and the partition
 * number in decimal without a leading zero (LocalLog.logDirName: topic + "-" + partition). */
bool cli_partition_name_ok(const char *s);

/* --local-time (scan, dups, producers, txns, explain, diff): human timestamps in the local
 * time of TZ with its UTC offset instead of UTC. Set by the option parsers. */
extern bool cli_local_time;
/* A time for text output: "2023-11-14T22:13:20.000Z", or with cli_local_time the local time
 * and its offset, "2023-11-14T23:13:20.000+01:00" ("Z" when the offset is 0). ms >= 0. */
void cli_format_time(int64_t ms, char *buf, size_t n);

/* The commands, as main.c dispatches them: main.c's table is registered here
 * before a command runs, so that a command can name the others (the check
 * for a PATH that names a command) without calling back into main.c. */
struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
};
void cli_commands_set(const struct cli_command *table, size_t n);
/* The name of command i, NULL past the last. */
const char *cli_command_name(size_t i);

#endif
