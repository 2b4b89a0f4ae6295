/* segscan CLI - what every command shares: exit codes, diagnostics, number
 * parsing, standard input, times for text output, the names of the commands. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/common.h"
#include "segscan/base.h"

int exit_merge(int a, int b) {
    static const int rank[] = {[EXIT_OK] = 0, [EXIT_FINDINGS] = 1, [EXIT_DAMAGE] = 2, [EXIT_TROUBLE] = 3};
    return rank[b] > rank[a] ? b : a;
}

void warn_problems(const ss_problems *p, bool quiet) {
    for (size_t i = 0; i < ss_problems_count(p); i++) {
        const ss_error *e = ss_problems_at(p, i);
        if (e->severity == SS_SEV_ERROR || !quiet) warnx_("%s", e->msg);
    }
}

int bad_option(const char *cmd, char **argv, int optind_now, int optopt_now) {
    const char *arg = optind_now > 0 ? argv[optind_now - 1] : "?";
    char shortopt[3] = {'-', (char)optopt_now, 0};
    /* a short option (perhaps stuck to others, "-qx") is named alone */
    if (optopt_now > ' ' && optopt_now < 127 && strncmp(arg, "--", 2) != 0) arg = shortopt;
    warnx_("%s: unknown option or missing argument: %s ('segscan %s --help' lists the options)", cmd, arg, cmd);
    return EXIT_TROUBLE;
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

bool parse_i64(const char *s, int64_t *v) {
    if (!s || !*s) return false;
    char *end;
    long long x = strtoll(s, &end, 10);
    if (*end) return false;
    *v = x;
    return true;
}

/* "512M", "2G", "1048576", "64MiB": bytes (binary multiples). */
bool parse_size(const char *s, uint64_t *v) {
    if (!s || !*s || *s == '-') return false;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || end == s) return false;
    unsigned shift = 0;
    switch (*end) {
    case 'k':
    case 'K':
        shift = 10;
        end++;
        break;
    case 'm':
    case 'M':
        shift = 20;
        end++;
        break;
    case 'g':
    case 'G':
        shift = 30;
        end++;
        break;
    case 't':
    case 'T':
        shift = 40;
        end++;
        break;
    default: break;
    }
    if (shift && *end == 'i') end++;
    if (*end == 'B' || *end == 'b') end++;
    if (*end) return false;
    if (shift && x > (UINT64_MAX >> shift)) return false;
    *v = (uint64_t)x << shift;
    return true;
}

/* Half of the RAM, or no limit when unknown. */
uint64_t default_max_memory(void) {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0) return 0;
    return (uint64_t)pages * (uint64_t)size / 2;
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

bool cli_partition_name_ok(const char *s) {
    const char *dash = strrchr(s, '-');
    if (!dash || dash == s) return false;
    size_t tn = (size_t)(dash - s), dn = strlen(dash + 1);
    /* up to 9 digits: a partition number fits an int32 (and the inputs' parser takes 9) */
    if (tn > 249 || dn == 0 || dn > 9 || (dn > 1 && dash[1] == '0')) return false;
    for (const char *q = dash + 1; *q; q++)
        if (*q < '0' || *q > '9') return false;
    if ((tn == 1 && s[0] == '.') || (tn == 2 && s[0] == '.' && s[1] == '.')) return false;
    for (const char *q = s; q < dash; q++) {
        char c = *q;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
              c == '-'))
            return false;
    }
    return true;
}

int cli_read_stdin(uint8_t **buf, size_t *len) {
    size_t cap = 0, n = 0;
    uint8_t *b = NULL;
    for (;;) {
        if (!SS_ARRAY_GROW(b, n, cap, 1 << 20)) { /* 1 MiB, then doubled */
            free(b);
            return -1;
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

static const struct cli_command *commands;
static size_t ncommands;

void cli_commands_set(const struct cli_command *table, size_t n) {
    commands = table;
    ncommands = n;
}

const char *cli_command_name(size_t i) { return i < ncommands ? commands[i].name : NULL; }
