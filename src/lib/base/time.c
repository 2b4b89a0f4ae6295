/* segscan - times and durations for the analysis options and summaries. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "segscan/base.h"

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian), no libc time zone involved. */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = (unsigned)(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? (unsigned)-3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d) {
    z += 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const unsigned doe = (unsigned)(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static bool digits(const char **p, int n, int *v) {
    int x = 0;
    for (int i = 0; i < n; i++) {
        if (!isdigit((unsigned char)(*p)[i])) return false;
        x = x * 10 + ((*p)[i] - '0');
    }
    *p += n;
    *v = x;
    return true;
}

bool ss_parse_time(const char *s, int64_t *ms) {
    if (!s || !*s) return false;
    /* epoch milliseconds */
    const char *q = s;
    if (*q == '-') q++;
    bool all = *q != 0;
    for (const char *t = q; *t; t++)
        if (!isdigit((unsigned char)*t)) all = false;
    if (all) {
        char *end;
        long long v = strtoll(s, &end, 10);
        if (*end) return false;
        *ms = v;
        return true;
    }
    const char *p = s;
    int y, mo, d, h = 0, mi = 0, se = 0, frac = 0;
    if (!digits(&p, 4, &y) || *p++ != '-' || !digits(&p, 2, &mo) || *p++ != '-' || !digits(&p, 2, &d)) return false;
    if (mo < 1 || mo > 12 || d < 1 || d > 31) return false;
    int64_t tz = 0;
    if (*p == 'T' || *p == 't' || *p == ' ') {
        p++;
        if (!digits(&p, 2, &h) || *p++ != ':' || !digits(&p, 2, &mi)) return false;
        if (*p == ':') {
            p++;
            if (!digits(&p, 2, &se)) return false;
            if (*p == '.' || *p == ',') {
                p++;
                int n = 0;
                while (isdigit((unsigned char)*p)) {
                    if (n < 3) frac = frac * 10 + (*p - '0');
                    n++;
                    p++;
                }
                if (n == 0) return false;
                for (; n < 3; n++) frac *= 10;
            }
        }
        if (h > 23 || mi > 59 || se > 60) return false;
        if (*p == 'Z' || *p == 'z') {
            p++;
        } else if (*p == '+' || *p == '-') {
            int sign = *p == '-' ? -1 : 1;
            p++;
            int th, tm = 0;
            if (!digits(&p, 2, &th)) return false;
            if (*p == ':') p++;
            if (*p && !digits(&p, 2, &tm)) return false;
            tz = sign * ((int64_t)th * 3600 + (int64_t)tm * 60);
        }
    }
    if (*p) return false;
    int64_t days = days_from_civil(y, (unsigned)mo, (unsigned)d);
    int64_t secs = days * 86400 + (int64_t)h * 3600 + (int64_t)mi * 60 + se - tz;
    *ms = secs * 1000 + frac;
    return true;
}

bool ss_parse_duration(const char *s, int64_t *ms) {
    if (!s || !*s || *s == '-') return false;
    char *end;
    double v = strtod(s, &end);
    if (end == s || v < 0) return false;
    double mult = 1;
    if (!*end || !strcmp(end, "ms")) mult = 1;
    else if (!strcmp(end, "s")) mult = 1000;
    else if (!strcmp(end, "m") || !strcmp(end, "min")) mult = 60000;
    else if (!strcmp(end, "h")) mult = 3600000;
    else if (!strcmp(end, "d")) mult = 86400000;
    else return false;
    double r = v * mult;
    if (r > 9.2e18) return false;
    *ms = (int64_t)r;
    return true;
}

void ss_format_time(int64_t ms, char *buf, size_t bufsz) {
    int64_t secs = ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000);
    int64_t msr = ms - secs * 1000;
    int64_t days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
    int64_t sod = secs - days * 86400;
    int64_t y;
    unsigned m, d;
    civil_from_days(days, &y, &m, &d);
    snprintf(buf, bufsz, "%04lld-%02u-%02uT%02d:%02d:%02d.%03dZ", (long long)y, m, d, (int)(sod / 3600),
             (int)(sod / 60 % 60), (int)(sod % 60), (int)msr);
}
