/* segscan coordinator - which partition of __consumer_offsets or
 * __transaction_state holds a group id or a transactional id, so the operator
 * knows which directory to open: Kafka's Utils.abs(id.hashCode()) % N, with
 * Java's String.hashCode over UTF-16 code units (ss_coordinator_partition).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "common/common.h"
#include "common/out.h"
#include "segscan/decode.h"
#include "segscan/segscan.h"

static const char coordinator_usage[] =
    "usage: segscan coordinator (--group ID | --transactional-id ID)\n"
    "                           [--partitions N] [--json]\n"
    "\n"
    "Print the partition of __consumer_offsets (--group) or __transaction_state\n"
    "(--transactional-id) that holds the id, as Kafka computes it:\n"
    "Utils.abs(id.hashCode()) % N, with Java's String.hashCode over the id's UTF-16\n"
    "code units.\n"
    "\n"
    "  --group ID               a consumer group id (group.id)\n"
    "  --transactional-id ID    a producer's transactional.id\n"
    "  --partitions N           partitions of the topic (offsets.topic.num.partitions\n"
    "                           or transaction.state.log.num.partitions; default 50)\n"
    "  --json                   one JSON object\n"
    "  -h, --help               this help\n"
    "\n"
    "exit codes: 0 done, 2 usage error\n";

enum { OPT_GROUP = 256, OPT_TXN, OPT_PARTS, OPT_JSON };

static const struct option coordinator_longopts[] = {
    {"group", required_argument, NULL, OPT_GROUP},
    {"transactional-id", required_argument, NULL, OPT_TXN},
    {"partitions", required_argument, NULL, OPT_PARTS},
    {"json", no_argument, NULL, OPT_JSON},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

int cmd_coordinator(int argc, char **argv) {
    const char *id = NULL, *topic = NULL, *kind = NULL;
    uint64_t parts = 50;
    bool json = false;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", coordinator_longopts, NULL)) != -1) {
        switch (c) {
        case OPT_GROUP:
        case OPT_TXN:
            if (id) {
                warnx_("coordinator: give one of --group and --transactional-id, once");
                return EXIT_TROUBLE;
            }
            id = optarg;
            topic = c == OPT_GROUP ? "__consumer_offsets" : "__transaction_state";
            kind = c == OPT_GROUP ? "group" : "transactional-id";
            break;
        case OPT_PARTS:
            if (!parse_u64(optarg, &parts) || parts == 0 || parts > INT32_MAX) {
                warnx_("coordinator: --partitions needs a number from 1 to %d", INT32_MAX);
                return EXIT_TROUBLE;
            }
            break;
        case OPT_JSON: json = true; break;
        case 'h': fputs(coordinator_usage, stdout); return EXIT_OK;
        default: return bad_option("coordinator", argv, optind, optopt);
        }
    }
    if (!id || optind < argc) {
        warnx_(!id ? "coordinator: give --group ID or --transactional-id ID" : "coordinator: unexpected argument %s",
               !id ? "" : argv[optind]);
        fputs(coordinator_usage, stderr);
        return EXIT_TROUBLE;
    }
    size_t len = strlen(id);
    int32_t hash = ss_java_string_hash((const uint8_t *)id, len);
    int32_t p = ss_coordinator_partition((const uint8_t *)id, len, (int32_t)parts);
    ss_out o;
    out_init(&o, stdout);
    if (json) {
        out_lit(&o, "{\"type\":\"coordinator\",\"kind\":");
        out_json_cstr(&o, kind);
        out_lit(&o, ",\"id\":");
        out_json_utf8(&o, (const uint8_t *)id, len);
        out_lit(&o, ",\"hashCode\":");
        out_i64(&o, hash);
        out_lit(&o, ",\"topic\":");
        out_json_cstr(&o, topic);
        out_lit(&o, ",\"partitions\":");
        out_u64(&o, parts);
        out_lit(&o, ",\"partition\":");
        out_i64(&o, p);
        out_lit(&o, ",\"name\":\"");
        out_str(&o, topic);
        out_ch(&o, '-');
        out_i64(&o, p);
        out_lit(&o, "\"}\n");
    } else {
        out_str(&o, topic);
        out_ch(&o, '-');
        out_i64(&o, p);
        out_ch(&o, '\n');
    }
    out_flush(&o);
    int rc = o.failed ? EXIT_TROUBLE : EXIT_OK;
    out_free(&o);
    return rc;
}
