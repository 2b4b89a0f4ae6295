/* segscan dump - what the dumps of segments (cmd_dump.c) and of the files
 * beside them (dump_index.c) share. */
#include <stdlib.h>
#include <string.h>

#include "common/out.h"
#include "dump/dump.h"

const char *dump_base_name(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

void dump_json_head(ss_out *o, const char *type, const char *file) {
    out_lit(o, "{\"type\":\"");
    out_str(o, type);
    out_lit(o, "\",\"file\":");
    out_json_cstr(o, file);
}

void offset_pairs_add(offset_pairs *p, int64_t a, int64_t b) {
    if (!SS_ARRAY_GROW(p->v, p->n, p->cap, 64)) return;
    p->v[p->n][0] = a;
    p->v[p->n][1] = b;
    p->n++;
}
