/* segscan dump --offsets-decoder / --transaction-log-decoder: the key and
 * value of __consumer_offsets and __transaction_state records, printed as
 * Kafka 4.0's kafka-dump-log.sh prints them.
 *
 * The library (src/lib/internal_topics.c) decodes a record into a tree in
 * schema order; this file writes it as Kafka does: the key as
 * {"type":"<record type>","data":<key>}, the value as
 * {"version":"<version>","data":<value>}, each data object as the generated
 * JSON converters write it and Jackson's ObjectNode.toString() renders it
 * (no spaces; strings escaped as Jackson does: \" \\ \b \t \n \f \r, other
 * control characters as \u00XX with upper-case hex, everything else as is;
 * bytes in base64 with padding). A null value is "<DELETE>". A record Kafka
 * cannot decode prints its message in place of the key and no payload.
 */
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "dump.h"
#include "out.h"
#include "segscan/decode.h"

/* One decoder for the process, created on first use (still reachable at exit). */
static ss_cdecoder *decoder(void) {
    static ss_cdecoder *d;
    if (!d) d = ss_cdecoder_new();
    return d;
}

static void jackson_string(ss_out *o, const uint8_t *p, size_t n) {
    static const char hex[] = "0123456789ABCDEF";
    out_ch(o, '"');
    size_t i = 0;
    while (i < n) {
        if (p[i] >= 0x80) {
            size_t j = i;
            while (j < n && p[j] >= 0x80) j++;
            out_java_utf8(o, p + i, j - i);
            i = j;
            continue;
        }
        size_t j = i;
        while (j < n && p[j] >= 0x20 && p[j] < 0x80 && p[j] != '"' && p[j] != '\\') j++;
        if (j > i) {
            out_raw(o, p + i, j - i);
            i = j;
            continue;
        }
        uint8_t c = p[i++];
        switch (c) {
        case '"': out_lit(o, "\\\""); break;
        case '\\': out_lit(o, "\\\\"); break;
        case '\b': out_lit(o, "\\b"); break;
        case '\t': out_lit(o, "\\t"); break;
        case '\n': out_lit(o, "\\n"); break;
        case '\f': out_lit(o, "\\f"); break;
        case '\r': out_lit(o, "\\r"); break;
        default: {
            char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            out_raw(o, u, 6);
        }
        }
    }
    out_ch(o, '"');
}

static void render(ss_out *o, const ss_jnode *nodes, uint32_t x) {
    const ss_jnode *n = &nodes[x];
    switch (n->kind) {
    case SS_J_NULL: out_lit(o, "null"); break;
    case SS_J_BOOL: out_str(o, n->num ? "true" : "false"); break;
    case SS_J_INT: out_i64(o, n->num); break;
    case SS_J_STRING: jackson_string(o, n->str, n->len); break;
    case SS_J_BYTES:
        out_ch(o, '"');
        out_base64(o, n->str, n->len);
        out_ch(o, '"');
        break;
    case SS_J_ARRAY:
        out_ch(o, '[');
        for (uint32_t c = n->first; c; c = nodes[c].next) {
            if (c != n->first) out_ch(o, ',');
            render(o, nodes, c);
        }
        out_ch(o, ']');
        break;
    default:
        out_ch(o, '{');
        for (uint32_t c = n->first; c; c = nodes[c].next) {
            if (c != n->first) out_ch(o, ',');
            jackson_string(o, (const uint8_t *)nodes[c].name, strlen(nodes[c].name));
            out_ch(o, ':');
            render(o, nodes, c);
        }
        out_ch(o, '}');
        break;
    }
}

static void render_key(ss_out *o, const ss_cdecoded *d) {
    out_lit(o, "{\"type\":\"");
    out_i64(o, d->record_type);
    out_lit(o, "\",\"data\":");
    render(o, d->nodes, d->key);
    out_ch(o, '}');
}

static void render_value(ss_out *o, const ss_cdecoded *d) {
    out_lit(o, "{\"version\":\"");
    out_i64(o, d->value_version);
    out_lit(o, "\",\"data\":");
    render(o, d->nodes, d->value);
    out_ch(o, '}');
}

static int kind_of(const struct dump_opts *opt) { return opt->offsets_decoder ? SS_CTOPIC_OFFSETS : SS_CTOPIC_TXN_LOG; }

void dump_internal_text(ss_out *o, const struct dump_opts *opt, const char *file, const ss_record *r,
                        const char *prefix) {
    ss_cdecoder *cd = decoder();
    if (!cd) return;
    ss_cdecoded d;
    int st = ss_cdecode(cd, kind_of(opt), r, &d);
    if (st == SS_CDEC_NO_KEY) {
        /* Kafka's tool throws here and stops; segscan says so and goes on. */
        out_flush(o);
        if (file) warnx_("%s: %s (kafka-dump-log.sh stops here)", file, d.message);
        else warnx_("%s (kafka-dump-log.sh stops here)", d.message);
        return;
    }
    out_str(o, prefix);
    out_lit(o, "key: ");
    if (st != SS_CDEC_OK) {
        out_str(o, d.message);
        return;
    }
    render_key(o, &d);
    out_lit(o, " payload: ");
    if (d.tombstone) out_lit(o, "<DELETE>");
    else render_value(o, &d);
}

void dump_internal_json(ss_out *o, const struct dump_opts *opt, const ss_record *r) {
    ss_cdecoder *cd = decoder();
    if (!cd) return;
    ss_cdecoded d;
    int st = ss_cdecode(cd, kind_of(opt), r, &d);
    out_lit(o, ",\"decoded\":{");
    if (st != SS_CDEC_OK) {
        out_lit(o, "\"error\":");
        out_json_cstr(o, d.message);
        out_lit(o, ",\"recordType\":");
        if (d.record_type >= 0) out_i64(o, d.record_type);
        else out_lit(o, "null");
        if (d.known_to_kafka) out_lit(o, ",\"unsupported\":true");
        out_ch(o, '}');
        return;
    }
    out_lit(o, "\"key\":");
    render_key(o, &d);
    out_lit(o, ",\"value\":");
    if (d.tombstone) out_lit(o, "null");
    else render_value(o, &d);
    out_ch(o, '}');
}
