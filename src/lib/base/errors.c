/* segscan - the error kind table, generated from SS_ERROR_LIST. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error_set.h"
#include "base/grow.h"
#include "segscan/errors.h"

typedef struct {
    ss_errkind kind;
    const char *name;
    const char *desc;
    char cls;
} errinfo;

#define SS_ERROR_ROW_(name, num, str, cls, desc) {SS_E_##name, str, desc, #cls[0]},
static const errinfo error_table[] = {SS_ERROR_LIST(SS_ERROR_ROW_)};
#undef SS_ERROR_ROW_

static const errinfo *find(ss_errkind k) {
    for (size_t i = 0; i < sizeof error_table / sizeof error_table[0]; i++)
        if (error_table[i].kind == k) return &error_table[i];
    return NULL;
}

const char *ss_errkind_name(ss_errkind k) {
    const errinfo *e = find(k);
    return e ? e->name : "unknown";
}
const char *ss_errkind_desc(ss_errkind k) {
    const errinfo *e = find(k);
    return e ? e->desc : "unknown error";
}
bool ss_errkind_is_damage(ss_errkind k) {
    const errinfo *e = find(k);
    return e && e->cls == 'D';
}

ss_severity ss_errkind_severity(ss_errkind k) {
    const errinfo *e = find(k);
    return e && (e->cls == 'D' || e->cls == 'E') ? SS_SEV_ERROR : SS_SEV_NOTICE;
}

const char *ss_severity_name(ss_severity s) {
    switch (s) {
    case SS_SEV_NOTICE: return "notice";
    case SS_SEV_WARNING: return "warning";
    case SS_SEV_ERROR: return "error";
    }
    return "unknown";
}

bool ss_errkind_at(size_t i, ss_errkind *kind, const char **name, const char **desc, char *cls) {
    if (i >= sizeof error_table / sizeof error_table[0]) return false;
    if (kind) *kind = error_table[i].kind;
    if (name) *name = error_table[i].name;
    if (desc) *desc = error_table[i].desc;
    if (cls) *cls = error_table[i].cls;
    return true;
}

ss_errkind ss_error_vset(ss_error *err, ss_errkind kind, uint64_t position, int64_t base_offset, const char *fmt,
                         va_list ap) {
    if (err == NULL) return kind;
    err->kind = kind;
    err->severity = ss_errkind_severity(kind);
    err->position = position;
    err->base_offset = base_offset;
    err->length = 0;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    return kind;
}

ss_errkind ss_error_set(ss_error *err, ss_errkind kind, uint64_t position, int64_t base_offset, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ss_error_vset(err, kind, position, base_offset, fmt, ap);
    va_end(ap);
    return kind;
}

void ss_error_append(ss_error *err, const char *fmt, ...) {
    if (err == NULL) return;
    size_t n = strnlen(err->msg, sizeof err->msg - 1);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg + n, sizeof err->msg - n, fmt, ap);
    va_end(ap);
}

void ss_error_rekind(ss_error *err, ss_errkind kind) {
    if (err == NULL) return;
    err->kind = kind;
    err->severity = ss_errkind_severity(kind);
}

ss_error *ss_problems_vadd(ss_problems *p, ss_severity severity, ss_errkind kind, const char *fmt, va_list ap) {
    if (!SS_GROW(p->v, p->n, p->cap, 8)) return NULL;
    ss_error *e = &p->v[p->n++];
    ss_error_vset(e, kind, 0, -1, fmt, ap);
    e->severity = severity;
    return e;
}

ss_error *ss_problems_add(ss_problems *p, ss_severity severity, ss_errkind kind, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ss_error *e = ss_problems_vadd(p, severity, kind, fmt, ap);
    va_end(ap);
    return e;
}

ss_error *ss_problems_push(ss_problems *p, const ss_error *e) {
    if (!SS_GROW(p->v, p->n, p->cap, 8)) return NULL;
    p->v[p->n] = *e;
    return &p->v[p->n++];
}

void ss_problems_free(ss_problems *p) {
    free(p->v);
    p->v = NULL;
    p->n = p->cap = 0;
}

size_t ss_problems_count(const ss_problems *p) { return p ? p->n : 0; }
const ss_error *ss_problems_at(const ss_problems *p, size_t i) { return &p->v[i]; }
