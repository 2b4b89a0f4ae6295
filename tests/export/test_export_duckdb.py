#!/usr/bin/env python3
"""`segscan export --fingerprints` read back by a real Parquet engine, DuckDB (the npm package
@duckdb/node-api that .ci/run installs into the build directory, node_modules/).

For every scenario of testdata/corpus/gen, and the worked example testdata/groups-worked:
- the export exits as `dump` does over the same files (0, or 3 with damage met);
- DuckDB reads it, and every row equals what `segscan dump --json --deep-iteration` says of the
  same record (dump is checked against kafka-dump-log.sh's own output by the golden tests), in
  the log's order, partition by partition: topic, partition, offset, timestamp, timestampType,
  producerId, producerEpoch, sequence, baseOffset, leaderEpoch (partitionLeaderEpoch),
  isTransactional, isControl, controlType, coordinatorEpoch, compression, keySize, valueSize,
  and for the internal topics key and value; a batch whose CRC does not match gives no row;
- valueFingerprint (as 32 hex digits) equals the `fingerprint` of the `dups --json` group each
  record is in, and keyFingerprint the first 16 hex digits of the `dups --by key --json` one: the
  partitions are grouped with a copy of themselves under another topic name (--across-topics),
  so that every record with a value (a key) is in a group;
- the file's metadata: created_by names segscan, segscan.version, segscan.command,
  segscan.partitions (its rows per partition are the rows read), segscan.notRead; every column
  chunk zstd-compressed but the fingerprints and the dictionary-encoded strings (uncompressed), with
  no min/max statistics.
And 300 partitions of 300 topics (a dictionary of 9-bit indices) row by row as dump gives them.
README's "Many brokers" SQL, run by DuckDB over the exports of three brokers holding
testdata/groups-worked with replication factor 2, finds the groups `dups --json` finds in the data
given once. And the writer's own sample (pq_write_sample: row groups of 7 rows, nulls, extreme integers whose
deltas wrap) read back with every value as the sample's formula gives it.

Without DuckDB (or node) the test is skipped (exit 77), and fails under CI (SEGSCAN_CI=1).

usage: test_export_duckdb.py SEGSCAN SOURCE_ROOT BUILD_ROOT PQ_WRITE_SAMPLE
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from harness import tally as check, tally_eq, tally_exit  # noqa: E402

SEGSCAN, ROOT, BUILD, SAMPLE = (os.path.abspath(a) for a in sys.argv[1:5])
QUERY = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'duckdb_query.js')
GEN = os.path.join(ROOT, 'testdata', 'corpus', 'gen')


def no_duckdb(why):
    if os.environ.get('SEGSCAN_CI') == '1':
        print('FAIL: DuckDB is needed under CI (.ci/run installs it): %s' % why)
        sys.exit(1)
    print('skipped: %s' % why)
    sys.exit(77)


NODE = shutil.which('node') or shutil.which('nodejs')
if not NODE:
    no_duckdb('no node on PATH')
if not os.path.isdir(os.path.join(BUILD, 'node_modules', '@duckdb', 'node-api')):
    no_duckdb('%s/node_modules/@duckdb/node-api is not installed (.ci/run installs it)' % BUILD)


def duck(*sql, cwd=None):
    """The rows of each statement, run in one DuckDB (one node process: it takes a while to start)."""
    p = subprocess.run([NODE, QUERY, BUILD] + list(sql), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       check=False, timeout=300, cwd=cwd)
    if p.returncode != 0:
        check(False, 'DuckDB ran %r: %s' % (sql[-1][:200], p.stderr.decode(errors='replace')[-2000:]))
        return [[] for _ in sql]
    return json.loads(p.stdout)


def seg(args):
    p = subprocess.run([SEGSCAN] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False, timeout=300)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def sql_str(s):
    return "'" + s.replace("'", "''") + "'"


def expected_rows(path):
    """{partition directory name: [row...]} from dump --json of every segment under path."""
    rc, out, _ = seg(['dump', '--json', '--deep-iteration', '--bytes', 'hex', path])
    parts, batch = {}, None
    for line in out.splitlines():
        o = json.loads(line)
        if o.get('type') == 'batch':
            batch = o
        if o.get('type') != 'record' or batch is None or not batch['crcValid']:
            continue
        name = os.path.basename(os.path.dirname(o['file']))
        topic = name.rsplit('-', 1)[0] if name.rsplit('-', 1)[-1].isdigit() else name
        internal = topic.startswith('__')
        ts_type = batch['timestampType'] if batch['magic'] >= 2 else o['legacyTimestampType']
        control = batch['isControl']
        parts.setdefault(name, []).append({
            'topic': topic, 'offset': o['offset'], 'timestamp': o['timestamp'], 'timestampType': ts_type,
            'producerId': batch['producerId'], 'producerEpoch': batch['producerEpoch'],
            'sequence': o['sequence'], 'baseOffset': batch['baseOffset'],
            'leaderEpoch': batch['partitionLeaderEpoch'], 'isTransactional': batch['isTransactional'],
            'isControl': control, 'controlType': o.get('controlType') if control else None,
            'coordinatorEpoch': o.get('coordinatorEpoch') if control else None,
            'compression': batch['compression'], 'keySize': o['keySize'], 'valueSize': o['valueSize'],
            'key': o['key'].upper() if internal and o['keySize'] >= 0 else None,
            'value': o['value'].upper() if internal and o['valueSize'] >= 0 else None,
        })
    return rc, parts


INTS = ('offset', 'timestamp', 'producerId', 'baseOffset')


def rows_sql(f):
    return ("SELECT topic, \"partition\", \"offset\", \"timestamp\", timestampType, producerId, producerEpoch, "
            "sequence, baseOffset, leaderEpoch, isTransactional, isControl, controlType, coordinatorEpoch, "
            "compression, keySize, valueSize, keyFingerprint, lower(hex(valueFingerprint)) AS fp, broker, "
            "source, hex(key) AS key, hex(value) AS value, file_row_number "
            "FROM read_parquet(%s, file_row_number = true) ORDER BY file_row_number" % sql_str(f))


def int_columns(rows):
    for r in rows:
        for k in INTS + ('keyFingerprint',):
            if r[k] is not None:
                r[k] = int(r[k])
    return rows


def copy_under_other_topic(src, dst):
    """Each partition directory under src (or src itself) copied as segscancopy.TOPIC-N."""
    dirs = [src] if os.path.basename(src).rsplit('-', 1)[-1].isdigit() else \
        [os.path.join(src, d) for d in sorted(os.listdir(src)) if os.path.isdir(os.path.join(src, d))]
    for d in dirs:
        name = os.path.basename(d)
        os.makedirs(os.path.join(dst, 'segscancopy.' + name))
        for f in os.listdir(d):
            if f.endswith('.log'):
                shutil.copy(os.path.join(d, f), os.path.join(dst, 'segscancopy.' + name, f))


def fingerprints(path, copy, by):
    """{(partition name, offset): fingerprint} from dups --json --by BY over path and its copy."""
    rc, out, _ = seg(['dups', '--json', '--by', by, '--across-topics', '--min-bytes', '0', '--include-internal',
                      path, copy])
    fps = {}
    for line in out.splitlines():
        o = json.loads(line)
        if o.get('type') == 'group':
            for occ in o['occurrences']:
                fps[(occ['partition'], occ['offset'])] = o['fingerprint']
    return fps


def check_export(name, path, tmp):
    f = os.path.join(tmp, name + '.parquet')
    rc, _, err = seg(['export', '--fingerprints', '-o', f, path])
    dump_rc, want = expected_rows(path)
    check(rc == dump_rc and rc in (0, 3), '%s: export exits as dump does: %d, dump %d (%s)' % (name, rc, dump_rc,
                                                                                           err[-300:]))
    if not os.path.exists(f):
        check(False, '%s: the file was written' % name)
        return 0
    got_all, kv, md, fm = duck(
        rows_sql(f),
        "SELECT decode(key) AS key, decode(value) AS value FROM parquet_kv_metadata(%s)" % sql_str(f),
        # no statistics; every chunk zstd but the fingerprints (hashes: left uncompressed) and the
        # dictionary-encoded ones (src/lib/parquet/parquet.c: a batch's strings, in runs; only
        # those, and the topic's in every row group: it is never null)
        "SELECT count(*) AS chunks, count(stats_min) + count(stats_max) + count(stats_min_value) + "
        "count(stats_max_value) AS stats, count(*) FILTER (WHERE compression <> (CASE WHEN path_in_schema IN "
        "('keyFingerprint', 'valueFingerprint') OR dictionary_page_offset IS NOT NULL THEN 'UNCOMPRESSED' "
        "ELSE 'ZSTD' END)) AS other, "
        "count(*) FILTER (WHERE dictionary_page_offset IS NOT NULL AND (path_in_schema NOT IN ('topic', "
        "'timestampType', 'controlType', 'compression') OR dictionary_page_offset >= data_page_offset OR "
        "encodings NOT LIKE '%%RLE_DICTIONARY%%')) AS bad_dict, "
        "count(DISTINCT row_group_id) FILTER (WHERE row_group_num_rows > 0) - "
        "count(*) FILTER (WHERE path_in_schema = 'topic' AND dictionary_page_offset IS NOT NULL) AS topic_no_dict "
        "FROM parquet_metadata(%s)" % sql_str(f),
        "SELECT created_by FROM parquet_file_metadata(%s)" % sql_str(f))
    got_all = int_columns(got_all)
    meta = {r['key']: r['value'] for r in kv}
    try:
        parts = json.loads(meta.get('segscan.partitions', 'null'))
    except ValueError:
        parts = None
    check(isinstance(parts, list), '%s: segscan.partitions is a JSON list' % name)
    sources = {}
    for p in parts or []:
        pname = os.path.basename(p['path'])
        sources[p['source']] = pname
        tally_eq(p['rows'], sum(1 for r in got_all if r['source'] == p['source']), '%s: %s rows in the metadata'
                 % (name, pname))
    for k in ('segscan.version', 'segscan.command', 'segscan.notRead'):
        check(k in meta, '%s: metadata %s' % (name, k))
    got = {}
    for r in got_all:
        got.setdefault(sources.get(r['source']), []).append(r)
    tally_eq(sorted(got), sorted(want), '%s: the partitions exported' % name)
    # the fingerprints of the same records, from dups
    copy = os.path.join(tmp, name + '.copy')
    copy_under_other_topic(path, copy)
    vfp, kfp = fingerprints(path, copy, 'value'), fingerprints(path, copy, 'key')
    nfp = 0
    for pname in sorted(want):
        w, g = want[pname], got.get(pname, [])
        tally_eq(len(g), len(w), '%s %s: rows' % (name, pname))
        bad = 0
        for e, r in zip(w, g):
            diff = {k: (r.get(k), v) for k, v in e.items() if r.get(k) != v}
            part = pname.rsplit('-', 1)
            want_part = int(part[1]) if len(part) == 2 and part[1].isdigit() else None
            if r['partition'] != want_part:
                diff['partition'] = (r['partition'], want_part)
            fp = vfp.get((pname, e['offset']))
            if fp is not None and not e['isControl']:
                nfp += 1
                if r['fp'] != fp:
                    diff['valueFingerprint'] = (r['fp'], fp)
            if not e['isControl'] and e['valueSize'] >= 0 and fp is None:
                diff['valueFingerprint in a dups group'] = (r['fp'], None)
            if e['isControl'] and (r['fp'] is not None or r['keyFingerprint'] is not None):
                diff['control row fingerprints'] = (r['fp'], r['keyFingerprint'])
            kf = kfp.get((pname, e['offset']))
            if kf is not None and not e['isControl']:
                if r['keyFingerprint'] is None or '%016x' % (r['keyFingerprint'] & (2 ** 64 - 1)) != kf[:16]:
                    diff['keyFingerprint'] = (r['keyFingerprint'], kf[:16])
            if e['keySize'] < 0 and r['keyFingerprint'] is not None:
                diff['null key fingerprint'] = r['keyFingerprint']
            if r['broker'] is not None:
                diff['broker (no meta.properties here)'] = r['broker']
            if diff and bad < 3:
                check(False, '%s %s offset %s: %s' % (name, pname, e['offset'], diff))
            bad += bool(diff)
        check(bad == 0, '%s %s: %d rows differ from dump' % (name, pname, bad))
    if md:
        check(int(md[0]['stats']) == 0 and int(md[0]['other']) == 0,
              '%s: no statistics; zstd chunks, the fingerprints and dictionaries uncompressed: %s' % (name, md[0]))
        check(int(md[0]['bad_dict']) == 0 and int(md[0]['topic_no_dict']) == 0,
              '%s: dictionaries (before their data page, RLE_DICTIONARY) in the strings of runs only, the '
              'topic\'s in every row group: %s' % (name, md[0]))
    check(fm and fm[0]['created_by'].startswith('segscan version '), '%s: created_by names segscan: %s' % (name, fm))
    return nfp


def check_sample(tmp):
    f = os.path.join(tmp, 'sample.parquet')
    p = subprocess.run([SAMPLE, f], stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    check(p.returncode == 0, 'pq_write_sample: %s' % p.stderr.decode(errors='replace'))
    rows, groups = duck("SELECT i, a, b, c, s, hex(x) AS x, z, file_row_number FROM read_parquet(%s, "
                        "file_row_number = true) ORDER BY file_row_number" % sql_str(f),
                        "SELECT count(DISTINCT row_group_id) AS g FROM parquet_metadata(%s)" % sql_str(f))
    n = int(p.stdout.decode().strip() or 0)
    tally_eq(len(rows), n, 'sample: rows')
    tally_eq(int(groups[0]['g']) if groups else 0, (n + 6) // 7, 'sample: row groups of 7 rows')
    bad = 0
    for r in rows:
        i = int(r['i'])
        # the sample's formula (tests/export/pq_write_sample.c)
        a = None if i % 5 == 3 else {0: -2 ** 63, 1: 2 ** 63 - 1, 2: -1, 4: i * 1000003}[i % 5]
        b = None if i % 7 == 0 else [-2 ** 31, 2 ** 31 - 1, 0, -i][i % 4]
        c = None if i % 3 == 0 else (i % 2 == 0)
        s = None if i % 4 == 1 else 'v%d' % (i * i)
        x = None if i % 6 == 5 else ''.join('%02X' % ((i + k) & 0xFF) for k in range(16))
        gotr = (None if r['a'] is None else int(r['a']), r['b'], r['c'], r['s'], r['x'], r['z'])
        if gotr != (a, b, c, s, x, None):
            bad += 1
            if bad <= 3:
                check(False, 'sample row %d: got %r, want %r' % (i, gotr, (a, b, c, s, x, None)))
    check(bad == 0, 'sample: %d rows differ' % bad)


def check_readme_sql(tmp):
    """README's "Many brokers" SQL over exports of three brokers holding testdata/groups-worked with
    replication factor 2 (each partition on two of them), against dups --json over the data once."""
    readme = open(os.path.join(ROOT, 'README.md')).read()
    sec = readme[readme.index('## Many brokers at once'):]
    sql = sec.split('```sql\n', 1)[1].split('```', 1)[0]
    check("read_parquet(['b1.parquet', 'b2.parquet', 'b3.parquet'])" in sql and '"offset"' in sql
          and '"partition"' in sql, 'README: the SQL reads b1..b3.parquet and quotes "offset" and "partition"')
    src = os.path.join(ROOT, 'testdata', 'groups-worked')
    split = {'b1': ['orders-0', 'enriched-0'], 'b2': ['orders-0', '__consumer_offsets-18'],
             'b3': ['enriched-0', '__consumer_offsets-18']}
    work = os.path.join(tmp, 'readme')
    for b, parts in split.items():
        for part in parts:
            shutil.copytree(os.path.join(src, part), os.path.join(work, b, part))
        rc, _, err = seg(['export', '--fingerprints', '-q', '--broker-id', b[1:], '-o',
                          os.path.join(work, b + '.parquet'), os.path.join(work, b)])
        check(rc == 0, 'README: export of %s: %d %s' % (b, rc, err))
    (got,) = duck(sql, cwd=work)
    got = sorted((r['topic'], r['fingerprint'], int(r['copies'])) for r in got)
    _, out, _ = seg(['dups', '--json', src])
    want = sorted((o['topic'], o['fingerprint'], o['copies']) for o in map(json.loads, out.splitlines())
                  if o.get('type') == 'group' and not o['topic'].startswith('__'))
    check(len(want) >= 5, 'README: dups finds groups in groups-worked: %d' % len(want))
    tally_eq(got, want, "README's SQL over three brokers' exports: the groups of dups")


def many_topics(tmp):
    """300 partitions of 300 topics (copies of payments-app-0): one row group whose topic column's
    dictionary holds 300 values, indices of 9 bits (src/lib/parquet/parquet.c dict_pages), which
    DuckDB reads row by row as dump gives them (check_export)."""
    src = os.path.join(GEN, 'payments-app', 'payments-app-0', '%020d.log' % 0)
    d = os.path.join(tmp, 'many-topics')
    for i in range(300):
        os.makedirs(os.path.join(d, 'topic%03d-0' % i))
        shutil.copy(src, os.path.join(d, 'topic%03d-0' % i, '%020d.log' % 0))
    return d


def main():
    tmp = tempfile.mkdtemp(prefix='segscan-export-')
    try:
        check_sample(tmp)
        check_readme_sql(tmp)
        total = 0
        names = sorted(d for d in os.listdir(GEN) if os.path.isdir(os.path.join(GEN, d)) and d != 'empty')
        for name in names:
            total += check_export(name, os.path.join(GEN, name), tmp)
        total += check_export('groups-worked', os.path.join(ROOT, 'testdata', 'groups-worked'), tmp)
        total += check_export('many-topics', many_topics(tmp), tmp)
        check(total > 500, 'fingerprints compared with dups: %d' % total)
        print('fingerprints compared with dups --json: %d' % total)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(tally_exit('test_export_duckdb'))


main()
