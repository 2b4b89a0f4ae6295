/* segscan - the front end of the analysis commands (scan, dups, producers,
 * txns, explain): one option parser, one run of the library's analysis, the
 * damage met, the --report file, the exit code. What each command prints is
 * its own (struct scan_command in scan.h: cmd_<name>.c). */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/common.h"
#include "common/out.h"
#include "common/progress.h"
#include "groups/gfindings.h"
#include "html/html.h"
#include "views/scan.h"

static const char scan_usage_common[] =
    "  --json                   JSON Lines, one object per\n"
    "                           partition/group/session/transaction, each with a\n"
    "                           \"type\"\n"
    "  --report FILE            also write the key=value report to FILE ('-':\n"
    "                           standard output)\n"
    "  --html FILE              also write one self-contained HTML page with charts\n"
    "                           of offsets over time and the tables ('-': standard\n"
    "                           output, instead of the text)\n"
    "  --by value|key|key+value what identifies a copy (default value)\n"
    "  --bytes utf8|hex|base64  how --json writes keys and values (default utf8)\n"
    "  --min-bytes N            do not group fingerprinted fields shorter than N\n"
    "                           bytes\n"
    "  --across-topics          group copies across topics too\n"
    "  --include-internal       internal topics (__*) in the duplicate analysis too\n"
    "                           (their records are identical by design: left out by\n"
    "                           default, with a note)\n"
    "  --include-temp           read broker temporaries (.deleted/.cleaned/.swap,\n"
    "                           -delete/-stray/-future)\n"
    "  --stdin-name TOPIC-N     the partition the segment read from '-' belongs to\n"
    "                           (e.g. orders-3): its topic and number, as a partition\n"
    "                           directory's name gives them\n"
    "  --since TIME, --until TIME   list what lies in this time window (ISO-8601 or\n"
    "                               epoch ms)\n"
    "  --from-offset N, --to-offset N   list what lies in this offset window\n"
    "  --producer-id N          list this producer's batches, sessions, transactions\n"
    "                           and the groups holding a copy by it (a window\n"
    "                           restricts what is listed, never what is known: every\n"
    "                           batch of every partition is read, so a window costs a\n"
    "                           full read)\n"
    "  --no-seek                accepted for dump's sake; the analysis reads every\n"
    "                           batch anyway\n"
    "  --txn-timeout DURATION   an open transaction whose producer wrote nothing in\n"
    "                           its partition for longer hangs (as find-hanging's\n"
    "                           maximum transaction timeout; 15m)\n"
    "  --now TIME|now           'now' for the age of open transactions ('now': the\n"
    "                           wall clock; default: the newest timestamp of every\n"
    "                           batch read, in any input)\n"
    "  --top N                  duplicate groups shown: in scan's summary (default\n"
    "                           10), by dups (default all)\n"
    "  --fail-on dups,gaps,open-txn,hanging,holes,redelivered,skipped,rewind\n"
    "                           exit 1 when these are found (holes: offsets missing\n"
    "                           that no evidence of the cleaner explains; the last\n"
    "                           three: findings of the consumer groups, with\n"
    "                           __consumer_offsets)\n";
/* (three strings: a C11 compiler need take no literal over 4095 bytes) */
static const char scan_usage_common2[] =
    "  --group ID               the consumer groups' findings of this group only\n"
    "                           (repeatable); explain and dups also read\n"
    "                           __consumer_offsets beside the partitions given\n"
    "  --color auto|always|never  colour (auto: on a terminal, unless NO_COLOR is set\n"
    "                           or TERM is dumb or unset)\n"
    "  --local-time             text times in the local time of TZ with its UTC\n"
    "                           offset (default UTC, ...Z); JSON keeps epoch\n"
    "                           milliseconds\n"
    "  --max-batch-bytes N      cap on a batch's decompressed size (default 67108864)\n"
    "  --threads N              reading threads, 1..256 (default: one per online\n"
    "                           CPU); results are the same for every N\n"
    "  --max-memory SIZE        memory for the fingerprint tables (K, M, G, T\n"
    "                           suffixes; default half of the RAM; 0: no limit); past\n"
    "                           it they spill to temporary files in $TMPDIR, with the\n"
    "                           same results\n"
    "  --progress auto|always|never  a progress line on stderr (auto: when stderr is\n"
    "                           a terminal, TERM is not dumb, not in CI, no -q, and\n"
    "                           the run takes over a second)\n"
    "  -v, --verbose            more detail\n"
    "  -q, --quiet              no notes on stderr, no progress line (unless\n"
    "                           --progress always)\n"
    "  -h, --help               this help\n";
static const char scan_usage_tail[] =
    "\n"
    "A PATH is a segment file, a partition directory or a log directory; '-' reads a\n"
    "segment from standard input; a .parquet file of 'segscan export' is read as the\n"
    "partitions it holds (a data topic's keys and values are not in the export).\n";

/* Options explain does not take: it lists the copies of one record, so there is
 * neither a list of groups to cut (--top) nor a finding to fail on (--fail-on). */
static bool explain_lacks(const char *line) {
    return !strncmp(line, "  --top ", 8) || !strncmp(line, "  --fail-on ", 12);
}

static void usage(FILE *f, const struct scan_command *cmd) {
    fprintf(f, "usage: segscan %s%s [options] PATH...\n\n%s\n\n", cmd->name, cmd->usage_args, cmd->description);
    if (!cmd->explain) {
        fputs(scan_usage_common, f);
        fputs(scan_usage_common2, f);
        fputs(scan_usage_tail, f);
        fputs("exit codes: 0 done, 1 --fail-on matched, 2 usage or unreadable input,\n"
              "            3 damaged input met\n",
              f);
        return;
    }
    /* each option's line, and the lines continuing it (indented further), only if taken */
    bool skip = false;
    for (int part = 0; part < 2; part++)
        for (const char *l = part ? scan_usage_common2 : scan_usage_common; *l;) {
            const char *e = strchr(l, '\n');
            size_t n = e ? (size_t)(e - l + 1) : strlen(l);
            if (!strncmp(l, "  -", 3)) skip = explain_lacks(l);
            else if (strncmp(l, "    ", 4) != 0) skip = false;
            if (!skip) fwrite(l, 1, n, f);
            l += n;
        }
    fputs(scan_usage_tail, f);
    fputs("exit codes: 0 done, 2 usage or unreadable input, 3 damaged input met\n", f);
}

enum {
    O_JSON = 300,
    O_REPORT,
    O_BY,
    O_BYTES,
    O_MINBYTES,
    O_ACROSS,
    O_INTERNAL,
    O_TEMP,
    O_SINCE,
    O_UNTIL,
    O_FROM,
    O_TO,
    O_PID,
    O_TXNTIMEOUT,
    O_NOW,
    O_TOP,
    O_FAILON,
    O_COLOR,
    O_MAXBATCH,
    O_VALUE,
    O_VALUEHEX,
    O_VALUECONTAINS,
    O_KEY,
    O_OFFSET,
    O_NOSEEK,
    O_THREADS,
    O_MAXMEM,
    O_PROGRESS,
    O_LOCALTIME,
    O_GROUP,
    O_HTML,
    O_STDINNAME,
};

static const struct option scan_longopts[] = {
    {"json", no_argument, NULL, O_JSON},
    {"report", required_argument, NULL, O_REPORT},
    {"html", required_argument, NULL, O_HTML},
    {"by", required_argument, NULL, O_BY},
    {"bytes", required_argument, NULL, O_BYTES},
    {"min-bytes", required_argument, NULL, O_MINBYTES},
    {"across-topics", no_argument, NULL, O_ACROSS},
    {"include-internal", no_argument, NULL, O_INTERNAL},
    {"include-temp", no_argument, NULL, O_TEMP},
    {"stdin-name", required_argument, NULL, O_STDINNAME},
    {"since", required_argument, NULL, O_SINCE},
    {"until", required_argument, NULL, O_UNTIL},
    {"from-offset", required_argument, NULL, O_FROM},
    {"to-offset", required_argument, NULL, O_TO},
    {"producer-id", required_argument, NULL, O_PID},
    {"txn-timeout", required_argument, NULL, O_TXNTIMEOUT},
    {"now", required_argument, NULL, O_NOW},
    {"top", required_argument, NULL, O_TOP},
    {"fail-on", required_argument, NULL, O_FAILON},
    {"color", required_argument, NULL, O_COLOR},
    {"colour", required_argument, NULL, O_COLOR},
    {"local-time", no_argument, NULL, O_LOCALTIME},
    {"max-batch-bytes", required_argument, NULL, O_MAXBATCH},
    {"value", required_argument, NULL, O_VALUE},
    {"value-hex", required_argument, NULL, O_VALUEHEX},
    {"value-contains", required_argument, NULL, O_VALUECONTAINS},
    {"key", required_argument, NULL, O_KEY},
    {"offset", required_argument, NULL, O_OFFSET},
    {"no-seek", no_argument, NULL, O_NOSEEK},
    {"group", required_argument, NULL, O_GROUP},
    {"threads", required_argument, NULL, O_THREADS},
    {"max-memory", required_argument, NULL, O_MAXMEM},
    {"progress", required_argument, NULL, O_PROGRESS},
    {"verbose", no_argument, NULL, 'v'},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* ---- damage, as JSON objects ----------------------------------------------------------- */

static void json_damage(struct scan_cli *c) {
    ss_out *o = c->out;
    for (size_t i = 0; i < ss_an_damage_count(c->an); i++) {
        const ss_an_damage *d = ss_an_damage_at(c->an, i);
        const ss_input_partition *ip = ss_an_partition_at(c->an, d->partition)->input;
        const char *file = ip->segments[d->segment].path;
        out_str(o, ss_errkind_is_damage(d->err.kind) ? "{\"type\":\"error\",\"partition\":"
                                                     : "{\"type\":\"notice\",\"partition\":");
        out_json_cstr(o, ip->name);
        out_json_key(o, "file");
        out_json_cstr(o, file ? file : "-");
        out_kv_u64(o, "position", d->err.position);
        out_kv_opt(o, "baseOffset", d->err.base_offset);
        out_kv_opt(o, "firstOffset", d->first_offset);
        out_kv_opt(o, "lastOffset", d->last_offset);
        out_kv_u64(o, "length", d->err.length);
        out_json_key(o, "kind");
        out_json_cstr(o, ss_errkind_name(d->err.kind));
        out_json_key(o, "reason");
        out_json_cstr(o, d->err.msg);
        out_str(o, "}\n");
    }
}

/* ---- --html ------------------------------------------------------------------------------ */

/* The page: the command's text output (printed again, into memory, without colour) and the
 * results it came from; the data partitions' batch headers are those the groups read, else
 * read here. */
static bool scan_html(struct scan_cli *c, const struct scan_command *cmd, int argc, char **argv, int rc) {
    struct html_src hs;
    memset(&hs, 0, sizeof hs);
    ss_timelines *own = NULL;
    scan_groups_parts(c, &hs.tl, &hs.g, &hs.f);
    if (!hs.tl) {
        own = ss_timelines_new(c->ao.max_batch_bytes);
        if (!own || ss_timelines_read(own, c->in, c->ao.threads) != SS_E_OK) {
            warnx_("--html: out of memory reading the batch headers");
            ss_timelines_free(own);
            return false;
        }
        hs.tl = own;
    }
    struct html_capture cap = {0};
    FILE *mf = html_capture_open(&cap);
    if (mf) {
        ss_out mo, *saved = c->out;
        out_init(&mo, mf);
        bool json = c->json, color = c->color;
        c->json = false;
        c->color = false;
        c->out = &mo;
        cmd->print(c);
        out_free(&mo);
        fclose(mf);
        c->out = saved;
        c->json = json;
        c->color = color;
    }
    hs.command = cmd->name;
    hs.argc = argc;
    hs.argv = argv;
    hs.in = c->in;
    hs.an = c->an;
    hs.by = c->ao.by;
    hs.since_ms = c->ao.since_ms;
    hs.until_ms = c->ao.until_ms;
    hs.from_offset = c->ao.from_offset;
    hs.to_offset = c->ao.to_offset;
    hs.filter_pid = c->ao.filter_pid;
    hs.producer_id = c->ao.producer_id;
    hs.group_ids = c->group_ids;
    hs.ngroup_ids = c->ngroup_ids;
    hs.text = cap.buf;
    hs.text_len = cap.len;
    hs.text_total = cap.total;
    hs.rc = rc;
    bool ok = html_write(&hs, c->html);
    free(cap.buf);
    ss_timelines_free(own);
    return ok;
}

/* ---- running ---------------------------------------------------------------------------- */

static int hexval(char ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* The live partition a temporary directory is a copy of, among the inputs: a partition of
 * the same topic name and number that is no temporary; the one whose partition.metadata
 * names a topic id first. NULL when none was read. */
static const ss_input_partition *temporary_live(const ss_inputs *in, const ss_input_partition *tp) {
    const ss_input_partition *live = NULL;
    for (size_t i = 0; i < ss_inputs_count(in); i++) {
        const ss_input_partition *ip = ss_inputs_at(in, i);
        if (ip->temporary || ip->partition != tp->partition || strcmp(ip->topic, tp->topic) != 0) continue;
        if (!live || (!live->topic_id && ip->topic_id)) live = ip;
    }
    return live;
}

/* A temporary is grouped on its own (a record in it and in its partition is one record of
 * that log) unless it is of another topic of the same name: a -delete directory outlives its
 * topic until file.delete.delay.ms, so the topic may have been re-created beside it, and a
 * -stray directory is a partition the controller's metadata no longer holds (LogManager); a
 * re-created topic has another topic id in partition.metadata (KIP-516). Temporary segment
 * files (.deleted, .cleaned, .swap) lie in the partition's own directory. */
static void temporary_note(const ss_inputs *in, const ss_input_partition *ip) {
    const char *of = ip->temporary_of ? ip->temporary_of : "its partition";
    const char *meaning = scan_temporary_meaning(ip->temporary);
    const ss_input_partition *live = ip->temporary[0] == '-' ? temporary_live(in, ip) : NULL;
    if (live && ip->topic_id && live->topic_id && strcmp(ip->topic_id, live->topic_id) != 0)
        warnx_("note: %s is a temporary copy of a partition %s of another topic (%s: %s): its topic id %s is not "
               "%s's %s, so the topic was deleted and re-created; it was grouped on its own, and a record in both is "
               "in two topics of one name, not two copies in one log",
               ip->name, of, ip->temporary, meaning, ip->topic_id, live->name, live->topic_id);
    else if (live && (!ip->topic_id || !live->topic_id))
        warnx_("note: %s is a temporary copy of %s (%s: %s): it was grouped on its own; whether it is of the same "
               "topic is not known (%s has no topic id in partition.metadata), so a record in both is one record of "
               "that log or, if the topic was re-created, a record of each topic",
               ip->name, of, ip->temporary, meaning, ip->topic_id ? live->name : ip->name);
    else
        warnx_("note: %s is a temporary copy of %s (%s: %s): it was grouped on its own, so a record in both is "
               "one record of that log, not a copy",
               ip->name, of, ip->temporary, meaning);
}

static bool parse_fail_on(const char *s, unsigned *f) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (!strcmp(tok, "dups")) *f |= FAIL_DUPS;
        else if (!strcmp(tok, "gaps")) *f |= FAIL_GAPS;
        else if (!strcmp(tok, "open-txn")) *f |= FAIL_OPEN_TXN;
        else if (!strcmp(tok, "hanging")) *f |= FAIL_HANGING;
        else if (!strcmp(tok, "holes")) *f |= FAIL_HOLES;
        else if (!strcmp(tok, "redelivered")) *f |= FAIL_REDELIVERED;
        else if (!strcmp(tok, "skipped")) *f |= FAIL_SKIPPED;
        else if (!strcmp(tok, "rewind")) *f |= FAIL_REWIND;
        else return false;
    }
    return true;
}

/* What scan_run's steps share: the options parsed, and what the run builds and frees. */
struct scan_args {
    struct scan_cli c;
    int color; /* --color: -1 auto, 0 never, 1 always */
    bool include_temp;
    size_t group_ids_cap;   /* room of c.group_ids */
    const char *stdin_name; /* --stdin-name: the partition '-' belongs to */
    bool max_memory_set;
    struct progress prog;
    uint8_t *match_buf; /* --value-hex's bytes */
    int nmatch;         /* explain's selectors given */
    ss_inputs *in;
    ss_analysis *an;
    ss_txn_ids *txn_ids;
    ss_pid_blocks *pid_blocks;
};

/* A step's "go on"; any other value is the exit code. */
#define SCAN_GO (-1)

#define BAD(...)                                                                                                       \
    do {                                                                                                               \
        warnx_(__VA_ARGS__);                                                                                           \
        return EXIT_TROUBLE;                                                                                           \
    } while (0)

/* explain's selectors: --value, --value-contains, --key, --value-hex, --offset. */
static int scan_parse_selector(const struct scan_command *cmd, int opt, char *arg, struct scan_args *a) {
    struct scan_cli *c = &a->c;
    switch (opt) {
    case O_VALUE:
    case O_VALUECONTAINS:
    case O_KEY:
        if (!cmd->explain)
            BAD("%s: --%s belongs to 'segscan explain'", cmd->name,
                opt == O_VALUE ? "value"
                : opt == O_KEY ? "key"
                               : "value-contains");
        a->nmatch++;
        c->ao.match = opt == O_VALUE ? SS_MATCH_VALUE : opt == O_KEY ? SS_MATCH_KEY : SS_MATCH_VALUE_CONTAINS;
        c->ao.match_bytes = (const uint8_t *)arg;
        c->ao.match_len = strlen(arg);
        return SCAN_GO;
    case O_VALUEHEX: {
        if (!cmd->explain) BAD("%s: --value-hex belongs to 'segscan explain'", cmd->name);
        size_t n = strlen(arg);
        if (n % 2) BAD("explain: --value-hex needs an even number of hex digits");
        free(a->match_buf);
        a->match_buf = malloc(n / 2 + 1);
        if (!a->match_buf) BAD("out of memory");
        for (size_t k = 0; k < n / 2; k++) {
            int hi = hexval(arg[2 * k]), lo = hexval(arg[2 * k + 1]);
            if (hi < 0 || lo < 0) BAD("explain: --value-hex: not hex: %s", arg);
            a->match_buf[k] = (uint8_t)(hi << 4 | lo);
        }
        a->nmatch++;
        c->ao.match = SS_MATCH_VALUE;
        c->ao.match_bytes = a->match_buf;
        c->ao.match_len = n / 2;
        return SCAN_GO;
    }
    case O_OFFSET: {
        if (!cmd->explain) BAD("%s: --offset belongs to 'segscan explain'", cmd->name);
        char *colon = strrchr(arg, ':');
        if (!colon || colon == arg || !parse_i64(colon + 1, &c->ao.match_offset))
            BAD("explain: --offset takes PARTITION:OFFSET, e.g. orders-3:4711");
        *colon = 0;
        c->ao.match_partition = arg;
        c->ao.match = SS_MATCH_OFFSET;
        a->nmatch++;
        return SCAN_GO;
    }
    }
    return SCAN_GO;
}

/* The options (scan_longopts) into a. */
static int scan_parse(const struct scan_command *cmd, int argc, char **argv, struct scan_args *a) {
    struct scan_cli *c = &a->c;
    int opt;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, "vqh", scan_longopts, NULL)) != -1) {
        switch (opt) {
        case O_JSON: c->json = true; break;
        case O_REPORT: c->report = optarg; break;
        case O_HTML: c->html = optarg; break;
        case O_BY:
            if (!strcmp(optarg, "value")) c->ao.by = SS_BY_VALUE;
            else if (!strcmp(optarg, "key")) c->ao.by = SS_BY_KEY;
            else if (!strcmp(optarg, "key+value")) c->ao.by = SS_BY_KEY_VALUE;
            else BAD("%s: --by takes value, key or key+value", cmd->name);
            break;
        case O_BYTES:
            if (parse_bytes_mode(optarg, &c->bytes) != 0) BAD("%s: --bytes takes utf8, hex or base64", cmd->name);
            break;
        case O_MINBYTES:
            if (!parse_u64(optarg, &c->ao.min_bytes)) BAD("%s: --min-bytes needs a number", cmd->name);
            break;
        case O_ACROSS: c->ao.across_topics = true; break;
        case O_INTERNAL: c->ao.include_internal = true; break;
        case O_TEMP: a->include_temp = true; break;
        case O_STDINNAME:
            if (!cli_partition_name_ok(optarg))
                BAD("%s: --stdin-name takes a partition name, TOPIC-N (e.g. orders-3): a topic of 1 to 249 "
                    "characters of [a-zA-Z0-9._-], not . or .., then '-' and the partition number: %s",
                    cmd->name, optarg);
            a->stdin_name = optarg;
            break;
        case O_SINCE:
            if (!ss_parse_time(optarg, &c->ao.since_ms)) BAD("%s: --since: not a time: %s", cmd->name, optarg);
            break;
        case O_UNTIL:
            if (!ss_parse_time(optarg, &c->ao.until_ms)) BAD("%s: --until: not a time: %s", cmd->name, optarg);
            break;
        case O_NOW:
            if (!strcmp(optarg, "now")) {
                struct timespec ts;
                clock_gettime(CLOCK_REALTIME, &ts);
                c->ao.now_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
                c->ao.now_wall_clock = true;
            } else if (!ss_parse_time(optarg, &c->ao.now_ms))
                BAD("%s: --now: not a time (or 'now'): %s", cmd->name, optarg);
            c->ao.has_now = true;
            break;
        case O_FROM:
            if (!parse_i64(optarg, &c->ao.from_offset)) BAD("%s: --from-offset needs a number", cmd->name);
            break;
        case O_TO:
            if (!parse_i64(optarg, &c->ao.to_offset)) BAD("%s: --to-offset needs a number", cmd->name);
            break;
        case O_PID:
            if (!parse_i64(optarg, &c->ao.producer_id)) BAD("%s: --producer-id needs a number", cmd->name);
            c->ao.filter_pid = true;
            break;
        case O_TXNTIMEOUT:
            if (!ss_parse_duration(optarg, &c->ao.txn_timeout_ms))
                BAD("%s: --txn-timeout: not a duration (e.g. 15m, 900s, 900000): %s", cmd->name, optarg);
            break;
        case O_TOP:
            if (cmd->explain) BAD("explain: --top belongs to scan and dups");
            if (!parse_u64(optarg, &c->top)) BAD("%s: --top needs a number", cmd->name);
            c->top_set = true;
            break;
        case O_FAILON:
            if (cmd->explain) BAD("explain: --fail-on belongs to scan, dups, producers and txns");
            if (!parse_fail_on(optarg, &c->fail_on))
                BAD("%s: --fail-on takes dups, gaps, open-txn, hanging, holes, redelivered, skipped, rewind (comma "
                    "separated)",
                    cmd->name);
            break;
        case O_COLOR:
            if (!strcmp(optarg, "auto")) a->color = -1;
            else if (!strcmp(optarg, "always")) a->color = 1;
            else if (!strcmp(optarg, "never")) a->color = 0;
            else BAD("%s: --color takes auto, always or never", cmd->name);
            break;
        case O_LOCALTIME: cli_local_time = true; break;
        case O_MAXBATCH: {
            uint64_t v;
            if (!parse_u64(optarg, &v) || v == 0) BAD("%s: --max-batch-bytes needs a positive number", cmd->name);
            c->ao.max_batch_bytes = (size_t)v;
            break;
        }
        case O_VALUE:
        case O_VALUECONTAINS:
        case O_KEY:
        case O_VALUEHEX:
        case O_OFFSET:
            if (scan_parse_selector(cmd, opt, optarg, a) != SCAN_GO) return EXIT_TROUBLE;
            break;
        case O_NOSEEK: c->ao.no_seek = true; break;
        case O_GROUP: {
            if (!SS_ARRAY_GROW(c->group_ids, c->ngroup_ids, a->group_ids_cap, 8)) BAD("out of memory");
            c->group_ids[c->ngroup_ids++] = optarg;
            break;
        }
        case O_THREADS: {
            uint64_t v;
            if (!parse_u64(optarg, &v) || v == 0 || v > 256)
                BAD("%s: --threads takes a number from 1 to 256", cmd->name);
            c->ao.threads = (unsigned)v;
            break;
        }
        case O_MAXMEM:
            if (!parse_size(optarg, &c->ao.max_memory))
                BAD("%s: --max-memory takes a size, e.g. 512M or 2G (0: no limit)", cmd->name);
            a->max_memory_set = true;
            break;
        case O_PROGRESS:
            if (!strcmp(optarg, "auto")) a->prog.mode = PROGRESS_AUTO;
            else if (!strcmp(optarg, "always")) a->prog.mode = PROGRESS_ALWAYS;
            else if (!strcmp(optarg, "never")) a->prog.mode = PROGRESS_NEVER;
            else BAD("%s: --progress takes auto, always or never", cmd->name);
            break;
        case 'v': c->verbose = true; break;
        case 'q': c->quiet = true; break;
        case 'h': usage(stdout, cmd); return EXIT_OK;
        default: return bad_option(cmd->name, argv, optind, optopt);
        }
    }
    return SCAN_GO;
}

/* What the options say together and of the PATHs, before anything is read; the colour decided. */
static int scan_check(const struct scan_command *cmd, int argc, char **argv, struct scan_args *a) {
    struct scan_cli *c = &a->c;
    /* the report's key=value lines would be mixed into the JSON Lines */
    if (c->json && c->report && !strcmp(c->report, "-"))
        BAD("%s: --json and --report - both write to standard output: give the report a file (--report FILE)",
            cmd->name);
    if (cmd->explain && a->nmatch != 1)
        BAD("explain: give exactly one of --value, --value-hex, --value-contains, --key, --offset");
    if (optind >= argc) {
        warnx_("%s: no PATH given", cmd->name);
        usage(stderr, cmd);
        return EXIT_TROUBLE;
    }
    if (c->html && !strcmp(c->html, "-") && ((c->report && !strcmp(c->report, "-")) || c->json))
        BAD("%s: --html - writes the page to standard output: not with --json or --report -", cmd->name);
    if (c->ao.since_ms > c->ao.until_ms || c->ao.from_offset > c->ao.to_offset)
        BAD("%s: the window is empty", cmd->name);
    /* A PATH that does not exist but names a command: options were put before it
     * ('segscan --json txns DIR'), or a command was misspelt ('segscan dup DIR').
     * Said before any reading, instead of a whole scan and then 'No such file'. */
    for (int i = optind; i < argc; i++) {
        struct stat st;
        if (!strcmp(argv[i], "-") || stat(argv[i], &st) == 0) continue;
        size_t n = strlen(argv[i]);
        const char *name;
        for (size_t k = 0; (name = cli_command_name(k)) != NULL; k++) {
            if (!strcmp(argv[i], name))
                BAD("'%s' is a command, and no such file exists: the command comes first "
                    "(segscan %s [options] PATH...)",
                    argv[i], name);
            if (n >= 3 && !strncmp(argv[i], name, n) && i == optind)
                BAD("%s: no such file or directory; did you mean the command '%s'?", argv[i], name);
        }
    }
    if (a->stdin_name) {
        bool dash = false;
        for (int i = optind; i < argc && !dash; i++) dash = !strcmp(argv[i], "-");
        if (!dash) BAD("%s: --stdin-name names the segment read from '-', and no '-' is given", cmd->name);
    }
    if (a->color < 0) {
        /* no-color.org; and a terminal that says it takes no escape sequences (TERM=dumb, as
         * Emacs's shell sets it) or says nothing (no TERM: cron, systemd, a bare exec) */
        const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");
        a->color = (!nc || !*nc) && term && *term && strcmp(term, "dumb") != 0 && isatty(STDOUT_FILENO) && !c->json;
    }
    c->color = a->color > 0 && !c->json;
    return SCAN_GO;
}

#undef BAD

/* The PATHs as inputs ('-': standard input), their problems said; NULL (and *rc 2) when none
 * could be read. */
/* What an export cannot answer among the options given (a data topic's records there hold the
 * value's XXH3-128 and the key's high 64 bits, not their bytes: inputs/export_in.h), or NULL;
 * *why: what it needs that the export lacks. */
static const char *export_refusal(const struct scan_cli *c, const char **why) {
    /* --by key groups by the key's whole XXH3-128 (the fingerprint it prints); the export keeps
     * the high 64 bits (keyFingerprint): two keys alike in those would be taken for one */
    *why = "needs each key's 128-bit fingerprint, of which the export holds the high 64 bits "
           "(keyFingerprint), and groups by all 128";
    if (c->ao.by == SS_BY_KEY) return "--by key";
    *why = "needs the records' keys or values, which are not in the export (it holds the values' fingerprints)";
    if (c->ao.by == SS_BY_KEY_VALUE) return "--by key+value";
    /* --value and --key are fingerprinted as the export's writer did, and compared (units.c) */
    return c->ao.match == SS_MATCH_VALUE_CONTAINS ? "--value-contains" : NULL;
}

static ss_inputs *scan_inputs(int argc, char **argv, struct scan_args *a, int *rc) {
    struct scan_cli *c = &a->c;
    ss_inputs *in = ss_inputs_new(a->include_temp);
    if (in) ss_inputs_replicas_once(in, true, NULL); /* a partition from several brokers: one, with replicas */
    if (!in) {
        warnx_("out of memory");
        *rc = EXIT_TROUBLE;
        return NULL;
    }
    bool stdin_used = false;
    for (int i = optind; i < argc; i++) {
        if (!strcmp(argv[i], "-")) {
            if (stdin_used) {
                warnx_("'-' (standard input) given twice");
                *rc = exit_merge(*rc, EXIT_TROUBLE);
                continue;
            }
            stdin_used = true;
            uint8_t *buf;
            size_t len;
            if (cli_read_stdin(&buf, &len) != 0) {
                warnx_("-: cannot read standard input");
                *rc = exit_merge(*rc, EXIT_TROUBLE);
                continue;
            }
            if (ss_inputs_add_memory(in, a->stdin_name ? a->stdin_name : "-", buf, len) != SS_E_OK)
                *rc = exit_merge(*rc, EXIT_TROUBLE);
            free(buf);
            continue;
        }
        if (ss_inputs_add(in, argv[i]) != SS_E_OK) *rc = exit_merge(*rc, EXIT_TROUBLE);
    }
    ss_inputs_finish(in);
    /* damage an export's writer met: the exit code says it, as it would of the log itself */
    for (size_t i = 0; i < ss_inputs_count(in); i++)
        if (ss_inputs_at(in, i)->export_damage) *rc = exit_merge(*rc, EXIT_DAMAGE);
    const char *why;
    const char *needs = export_refusal(c, &why);
    for (size_t i = 0; i < ss_inputs_count(in) && needs; i++) {
        const ss_input_partition *ip = ss_inputs_at(in, i);
        if (!ip->export_file || ip->internal) continue;
        warnx_("%s: %s %s: give the log directory it was made from", ip->export_file, needs, why);
        ss_inputs_free(in);
        *rc = EXIT_TROUBLE;
        return NULL;
    }
    const ss_problems *in_problems = ss_inputs_problems(in);
    for (size_t i = 0; i < ss_problems_count(in_problems); i++) {
        const ss_error *p = ss_problems_at(in_problems, i);
        /* same-named partitions: said after the analysis, which tells replicas apart */
        if (ss_inputs_note_kind(in, i) == SS_INOTE_REPLICAS) continue;
        if (p->severity == SS_SEV_ERROR || !c->quiet) warnx_("%s", p->msg);
    }
    if (*rc == EXIT_TROUBLE && ss_inputs_count(in) == 0 && ss_inputs_kraft_snapshot_count(in) == 0) {
        /* every input failed: no summary of nothing (a "total 0 partitions" would read as an
         * empty log); the errors above say why */
        ss_inputs_free(in);
        return NULL;
    }
    /* some failed: the rest is read, the summary names them, and the exit code says so */
    if (ss_inputs_unreadable_count(in)) *rc = exit_merge(*rc, EXIT_TROUBLE);
    return in;
}

/* The analysis of a->in, its notes said, and what lies beside it: the transactional ids of
 * __transaction_state and the producer-id blocks of __cluster_metadata. */
static int scan_analyse(const struct scan_command *cmd, struct scan_args *a, int rc) {
    struct scan_cli *c = &a->c;
    ss_inputs *in = a->in;
    const ss_problems *in_problems = ss_inputs_problems(in);
    if (!a->max_memory_set) c->ao.max_memory = default_max_memory();
    /* the consumer groups are read after the analysis (scan_output) from the same
     * __consumer_offsets segments, and the transactional ids (scan_analyse) from the same
     * __transaction_state segments: the analysis keeps them in memory for them, read once,
     * within ss_an_keep_budget (64 MiB or a quarter of --max-memory); past it they are read again */
    c->ao.keep_offsets_bytes = ss_an_keep_budget(c->ao.max_memory);
    /* -q silences the progress line too, unless it was asked for (--progress always, as zstd's) */
    if (c->quiet && a->prog.mode == PROGRESS_AUTO) a->prog.mode = PROGRESS_NEVER;
    progress_start(&a->prog);
    if (a->prog.enabled) {
        c->ao.progress = progress_cb;
        c->ao.progress_arg = &a->prog;
    }
    /* what is printed needs no fingerprint: the text of txns and producers, without --report,
     * --html or --fail-on dups (JSON, the report and the page have the duplicate figures) */
    c->ao.no_fingerprints = cmd->text_has_no_copies && !c->json && !c->report && !c->html && !(c->fail_on & FAIL_DUPS);
    ss_analysis *an = ss_analysis_new(&c->ao);
    if (!an) {
        warnx_("out of memory");
        return EXIT_TROUBLE;
    }
    c->an = a->an = an;
    if (ss_analysis_run(an, in) != SS_E_OK) {
        progress_clear(&a->prog);
        const ss_error *why = ss_analysis_failure(an);
        warnx_("%s", why ? why->msg : "the analysis failed; results are incomplete");
        rc = exit_merge(rc, EXIT_TROUBLE);
    }
    progress_clear(&a->prog);
    uint64_t spilled = ss_analysis_spilled(an);
    if (spilled && !c->quiet)
        warnx_("note: the fingerprint tables reached --max-memory (%llu %s): %llu %s went through temporary files",
               (unsigned long long)c->ao.max_memory, plural(c->ao.max_memory, "byte", "bytes"),
               (unsigned long long)spilled, plural(spilled, "fingerprint", "fingerprints"));
    for (size_t i = 0; i < ss_an_partition_count(an) && !c->quiet; i++) {
        const ss_an_partition *P = ss_an_partition_at(an, i);
        if (P->dups_excluded && P->input->named)
            warnx_("note: %s is an internal topic (%s): left out of the duplicate analysis, since its records are "
                   "identical by design (NoOpRecords, repeated commits and state); --include-internal groups them",
                   P->input->name, P->input->topic);
    }
    size_t r1, r2;
    bool replicas = ss_analysis_replicas(an, &r1, &r2);
    for (size_t i = 0; i < ss_problems_count(in_problems) && !replicas && !c->quiet; i++)
        if (ss_inputs_note_kind(in, i) == SS_INOTE_REPLICAS) warnx_("%s", ss_problems_at(in_problems, i)->msg);
    for (size_t i = 0; i < ss_inputs_count(in) && !c->quiet; i++) {
        const ss_input_partition *ip = ss_inputs_at(in, i);
        if (ip->temporary) temporary_note(in, ip);
    }
    const ss_input_partition *x1 = replicas ? ss_inputs_at(in, r1) : NULL, *x2 = replicas ? ss_inputs_at(in, r2) : NULL;
    if (replicas && !c->quiet && (x1->export_file || x2->export_file)) /* diff needs the logs' bytes */
        warnx_("note: %s (%s) and %s (%s) are replicas of one partition (they share leader epochs): a record in both "
               "is one record, so each replica was grouped on its own; 'segscan diff' on the log directories they "
               "were exported from compares replicas",
               x1->name, x1->path, x2->name, x2->path);
    else if (replicas && !c->quiet)
        warnx_("note: %s and %s are replicas of one partition (they share leader epochs): a record in both is one "
               "record, so each replica was grouped on its own; 'segscan diff %s %s' compares replicas",
               ss_inputs_at(in, r1)->path, ss_inputs_at(in, r2)->path, ss_inputs_at(in, r1)->path,
               ss_inputs_at(in, r2)->path);
    ss_txn_ids *txn_ids = NULL;
    if (cmd->txn_ids) {
        ss_error terr;
        if (ss_analysis_txn_state_ids(an, &txn_ids, &terr) != SS_E_OK && !c->quiet)
            warnx_("__transaction_state: %s", terr.msg);
    }
    c->txn_ids = a->txn_ids = txn_ids;
    ss_pid_blocks *pid_blocks = NULL;
    ss_error perr;
    if (ss_pid_blocks_read(in, &pid_blocks, &perr) != SS_E_OK && !c->quiet) warnx_("__cluster_metadata: %s", perr.msg);
    c->pid_blocks = a->pid_blocks = pid_blocks;
    /* the segments that could not be opened (the failure was said above) */
    const ss_problems *an_problems = ss_analysis_problems(an);
    for (size_t i = 0; i < ss_problems_count(an_problems); i++) {
        const ss_error *p = ss_problems_at(an_problems, i);
        if (p == ss_analysis_failure(an)) continue;
        warnx_("%s", p->msg);
        rc = exit_merge(rc, EXIT_TROUBLE);
    }
    size_t np = ss_an_partition_count(an);
    for (size_t i = 0; i < np; i++) {
        const ss_an_partition *P = ss_an_partition_at(an, i);
        if (P->damage_events) rc = exit_merge(rc, EXIT_DAMAGE);
        /* damage in a replica is damage on the disks read, whether or not its offsets were
         * read from it (the inputs' notes say where) */
        for (size_t k = 0; k < P->input->nreplicas; k++)
            if (P->input->replicas[k].damage) rc = exit_merge(rc, EXIT_DAMAGE);
    }
    return rc;
}

/* Damage, the consumer groups beside the analysis, the command's view, the report, --fail-on and
 * the page. */
static int scan_output(const struct scan_command *cmd, int argc, char **argv, struct scan_args *a, int rc) {
    struct scan_cli *c = &a->c;
    ss_analysis *an = a->an;
    ss_out o;
    out_init(&o, stdout);
    c->out = &o;
    /* damage: JSON objects on stdout, or lines on stderr */
    if (c->json) {
        json_damage(c);
    } else {
        /* the same kind of damage in one partition: the first DAMAGE_SHOWN lines, then their
         * number (80 CRC failures are one finding, not 80 lines); --json lists each */
        enum { DAMAGE_SHOWN = 10, KINDS = 64 };
        uint64_t seen[KINDS] = {0};
        size_t nd = ss_an_damage_count(an);
        for (size_t i = 0; i < nd; i++) {
            const ss_an_damage *d = ss_an_damage_at(an, i);
            const ss_input_partition *ip = ss_an_partition_at(an, d->partition)->input;
            const char *file = ip->segments[d->segment].path;
            if (!ss_errkind_is_damage(d->err.kind) && c->quiet) continue;
            unsigned k = (unsigned)d->err.kind < KINDS ? (unsigned)d->err.kind : 0;
            if (++seen[k] <= DAMAGE_SHOWN) report_error(file ? file : "-", &d->err);
            if (i + 1 == nd || ss_an_damage_at(an, i + 1)->partition != d->partition) {
                for (unsigned q = 0; q < KINDS; q++) {
                    if (seen[q] > DAMAGE_SHOWN)
                        warnx_("%s: %llu more [%s] not shown (the first %d above; --json lists each)", ip->name,
                               (unsigned long long)(seen[q] - DAMAGE_SHOWN), ss_errkind_name((ss_errkind)q),
                               DAMAGE_SHOWN);
                    seen[q] = 0;
                }
            }
        }
    }
    /* the consumer groups beside the analysis; explain and dups also look for __consumer_offsets
     * beside the partitions given (their log directory) */
    rc = exit_merge(rc, scan_groups_read(c, argv + optind, argc - optind, a->include_temp,
                                         cmd->explain || !strcmp(cmd->name, "dups"), a->in));
    bool html_stdout = c->html && !strcmp(c->html, "-");
    if (!html_stdout) cmd->print(c);
    out_flush(&o);
    if (o.failed) rc = exit_merge(rc, EXIT_TROUBLE);
    if (c->report && !report_write(c, c->report)) rc = exit_merge(rc, EXIT_TROUBLE);
    const ss_an_totals *t = ss_an_totals_get(an);
    /* hanging: find-hanging's candidates, less those __transaction_state says the coordinator
     * will end (it lists their partition) */
    bool hanging = false;
    for (size_t i = 0; i < ss_an_txn_count(an) && !hanging; i++) {
        const ss_an_txn *x = ss_an_txn_at(an, i);
        hanging = x->hanging && x->hanging_confirmed != 0;
    }
    if (((c->fail_on & FAIL_DUPS) && t->duplicate_groups) || ((c->fail_on & FAIL_GAPS) && t->sequence_gaps) ||
        ((c->fail_on & FAIL_OPEN_TXN) && t->txn_open) || ((c->fail_on & FAIL_HANGING) && hanging) ||
        ((c->fail_on & FAIL_HOLES) && ss_an_hole_count(an)) || scan_groups_failed(c))
        rc = exit_merge(rc, EXIT_FINDINGS);
    if (c->html && !scan_html(c, cmd, argc, argv, rc)) rc = exit_merge(rc, EXIT_TROUBLE);
    out_free(&o);
    c->out = NULL;
    return rc;
}

int scan_run(const struct scan_command *cmd, int argc, char **argv) {
    struct scan_args a;
    memset(&a, 0, sizeof a);
    a.c.bytes = BYTES_UTF8;
    a.c.top = 10;
    ss_an_opts_default(&a.c.ao);
    a.color = -1;
    a.prog.mode = PROGRESS_AUTO;
    int rc = scan_parse(cmd, argc, argv, &a);
    if (rc == SCAN_GO) rc = scan_check(cmd, argc, argv, &a);
    if (rc == SCAN_GO) {
        rc = EXIT_OK;
        a.in = scan_inputs(argc, argv, &a, &rc);
        if (a.in) {
            a.c.in = a.in;
            rc = scan_analyse(cmd, &a, rc);
            if (a.an) rc = scan_output(cmd, argc, argv, &a, rc);
        }
    }
    scan_groups_free(&a.c);
    free(a.c.group_ids);
    ss_txn_ids_free(a.txn_ids);
    ss_pid_blocks_free(a.pid_blocks);
    ss_analysis_free(a.an);
    ss_inputs_free(a.in);
    free(a.match_buf);
    return rc;
}
