#!/usr/bin/env python3
"""Exports are inputs: a .parquet file written by `segscan export --fingerprints` is read by scan,
dups, producers, txns, groups and explain like the partition directories it was made from.

The directory is the truth: for each scenario (a worked example with __consumer_offsets, the
corpus's transactional ones with __transaction_state, idempotent sessions, retries, LogAppendTime,
legacy formats, compression) every JSON object of `scan`, `dups`, `producers`, `txns` and `groups`
on the export equals the one on the directory, except the fields documented as not in the export
(docs/json.md "Exports as inputs"): a copy's key and value bytes and sizes (`notInExport` says so),
`identicalCopies`, paths, the segment count, the cleaner's checkpoint, and the scope's `exports`
(which names each export and its broker). Then what an export cannot be:
- verify, diff, dump and export refuse it (exit 2, the reason); --by key, --by key+value and
  --value-contains refuse an export's data partitions (exit 2);
- a truncated export, a corrupted footer, a Parquet file from another writer (written here by
  hand, Thrift compact protocol and all) and one claiming segscan with another schema: an error
  naming the file and the byte, exit 2, and a directory given beside it is still read;
- exports of two clusters (meta.properties' cluster.id) given together: a warning; the scope
  names each one's broker (node.id), and same-named partitions are told apart by file;
- two exports of one partition (replicas) give what the two directories give: one partition read
  once, its copies compared (replicas once), each export's copy named by its file;
- the rebuilt logs go to a temporary file in $TMPDIR (docs/design-notes.md "Exports as
  inputs"): one that cannot be made there is an error naming the export and the directory
  (exit 2, kind io-error), a directory beside it still read; with $TMPDIR a directory of its
  own, the output is the one with the default and nothing is left in it.

usage: test_export_inputs.py SEGSCAN SOURCE_ROOT
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from harness import tally as check, tally_eq, tally_exit  # noqa: E402

SEGSCAN, ROOT = (os.path.abspath(a) for a in sys.argv[1:3])
GEN = os.path.join(ROOT, 'testdata', 'corpus', 'gen')
SCENARIOS = [os.path.join(ROOT, 'testdata', 'groups-worked')] + [os.path.join(GEN, s) for s in (
    'groups-eos', 'groups-classic', 'txn-commit', 'txn-abort', 'txn-interleaved', 'txn-open', 'idem-dup-batch',
    'idem-epoch-bump', 'idem-seq-gap', 'idem-seq-wrap', 'payments-dup', 'payments-app', 'lab',
    'ts-logappendtime-zstd', 'legacy-v1-gzip', 'legacy-v0-none', 'codec-zstd', 'empty')]
# not in the export (docs/json.md): the bytes of a data topic's records, what reading them back
# compares, where the files were, how the log was cut into segments, the cleaner's checkpoint
NOT_IN_EXPORT = {'key', 'value', 'keySize', 'valueSize', 'keyLossy', 'valueLossy', 'notInExport',
                 'identicalCopies', 'path', 'segments', 'cleanerCheckpoint'}


def run(args):
    p = subprocess.run([SEGSCAN] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def jsonl(args):
    rc, out, err = run(args)
    return rc, [json.loads(line) for line in out.splitlines() if line.strip()], err


# the scope's sentence names each export a partition came from, and its broker
FROM_EXPORT = re.compile(r' from the export \S+ (\(broker unknown\)|of broker \d+)')


def strip(v):
    if isinstance(v, str):
        return FROM_EXPORT.sub('', v)
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in NOT_IN_EXPORT and not (k == 'exports')}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v


def has_key(v, key):
    if isinstance(v, dict):
        return key in v or any(has_key(x, key) for x in v.values())
    if isinstance(v, list):
        return any(has_key(x, key) for x in v)
    return False


def export(paths, out, *extra):
    rc, _, err = run(['export', '--fingerprints', '-q', '-o', out] + list(extra) + list(paths))
    return rc, err


def same_as_directory(tmp):
    for d in SCENARIOS:
        name = os.path.basename(d)
        x = os.path.join(tmp, name + '.parquet')
        rc, err = export([d], x)
        check(rc == 0 and os.path.exists(x), '%s: exported (rc %d %s)' % (name, rc, err.strip()[:200]))
        for cmd in ('scan', 'dups', 'producers', 'txns', 'groups'):
            ra, a, _ = jsonl([cmd, '--json', d])
            rb, b, eb = jsonl([cmd, '--json', x])
            tally_eq(rb, ra, '%s %s: exit code of the export = of the directory' % (name, cmd))
            tally_eq(strip(b), strip(a), '%s %s: JSON of the export = of the directory (but what it lacks)'
                     % (name, cmd))
            if cmd == 'dups' and any(o.get('type') == 'group' for o in a):
                groups = [o for o in b if o.get('type') == 'group']
                check(groups and all(g.get('notInExport') is True and g.get('value') is None for g in groups),
                      '%s dups: each group of the export says its value is not in the export' % name)
            if cmd in ('scan', 'dups', 'producers') and a:
                scopes = [o['scope'] for o in b if 'scope' in o]
                check(scopes and all(any(e['file'] == x for e in s.get('exports', [])) for s in scopes),
                      '%s %s: the scope names the export' % (name, cmd))
        # explain by offset and by value: the same copies (the value matched by its fingerprint)
        for sel in (['--offset', 'enriched-0:40'], ['--value', 'enriched-order-40'], ['--key', 'o-41']):
            if name != 'groups-worked':
                break
            ra, a, _ = jsonl(['explain', '--json'] + sel + [d])
            rb, b, _ = jsonl(['explain', '--json'] + sel + [x])
            tally_eq(rb, ra, 'explain %s: exit code' % ' '.join(sel))
            tally_eq(strip(b), strip(a), 'explain %s: the same copies, causes and deliveries' % ' '.join(sel))
            check(any(o.get('type') == 'group' for o in b), 'explain %s: the group found' % ' '.join(sel))


def refusals(tmp):
    d = os.path.join(ROOT, 'testdata', 'groups-worked')
    x = os.path.join(tmp, 'gw.parquet')
    export([d], x)
    for args, what in ((['verify', x], 'verify'), (['dump', x], 'dump'), (['diff', x, d], 'diff'),
                       (['diff', d, x], 'diff (second side)'),
                       (['export', '--fingerprints', '-o', os.path.join(tmp, 'again.parquet'), x], 'export')):
        rc, out, err = run(args)
        tally_eq(rc, 2, '%s of an export: exit 2' % what)
        check(('is an export' in err) and x in err, '%s of an export: the reason, naming the file: %r'
              % (what, err[:200]))
    check(not os.path.exists(os.path.join(tmp, 'again.parquet')), 'export of an export: no file written')
    for opt in (['dups', '--by', 'key'], ['dups', '--by', 'key+value'], ['explain', '--value-contains', 'o']):
        rc, out, err = run(opt + [x])
        tally_eq(rc, 2, '%s on an export: exit 2' % ' '.join(opt))
        check('not in the export' in err and out == '' if opt[-1] != 'key' else
              # the key's fingerprint is there, but half of it (XXH3-128's high 64 bits, exports.c)
              'the export holds the high 64 bits (keyFingerprint), and groups by all 128' in err and out == '',
              '%s on an export: why, and no output: %r' % (' '.join(opt), err[:300]))
    # internal topics' records are whole: groups reads the export's __consumer_offsets
    rc, out, err = run(['dups', '--by', 'key', '--include-internal', os.path.join(d, '__consumer_offsets-18')])
    tally_eq(rc, 0, 'dups --by key of a directory still works')


# ---- files that are not segscan exports -----------------------------------------------------

def varint(n):
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7f) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def zz(n):
    return varint((n << 1) ^ (n >> 63))


class Compact:
    """Thrift's compact protocol (doc/specs/thrift-compact-protocol.md), the few forms needed."""
    def __init__(self):
        self.b = bytearray()
        self.last = [0]

    def field(self, fid, t):
        d = fid - self.last[-1]
        self.b += bytes([d << 4 | t]) if 0 < d <= 15 else bytes([t]) + zz(fid)
        self.last[-1] = fid

    def i32(self, fid, v):
        self.field(fid, 5)
        self.b += zz(v)

    def i64(self, fid, v):
        self.field(fid, 6)
        self.b += zz(v)

    def string(self, fid, s):
        self.field(fid, 8)
        s = s.encode()
        self.b += varint(len(s)) + s

    def list(self, fid, etype, n):
        self.field(fid, 9)
        self.b += bytes([n << 4 | etype]) if n < 15 else bytes([0xF0 | etype]) + varint(n)

    def begin(self):
        self.last.append(0)

    def end(self):
        self.b.append(0)
        self.last.pop()


def foreign_parquet(path, created_by, columns):
    """A Parquet file of no rows: FileMetaData (parquet.thrift: version, schema, num_rows,
    row_groups, created_by) between the magics, as any writer would end one."""
    t = Compact()
    t.begin()
    t.i32(1, 1)
    t.list(2, 12, len(columns) + 1)
    t.begin()
    t.string(4, 'schema')
    t.i32(5, len(columns))
    t.end()
    for name, ptype in columns:
        t.begin()
        t.i32(1, ptype)
        t.i32(3, 1)  # OPTIONAL
        t.string(4, name)
        t.end()
    t.i64(3, 0)
    t.list(4, 12, 0)
    t.string(6, created_by)
    t.end()
    with open(path, 'wb') as f:
        f.write(b'PAR1' + bytes(t.b) + struct.pack('<I', len(t.b)) + b'PAR1')
    return 4  # the footer's first byte


def bad_files(tmp):
    d = os.path.join(ROOT, 'testdata', 'groups-worked')
    x = os.path.join(tmp, 'good.parquet')
    export([d], x)
    data = open(x, 'rb').read()
    flen = struct.unpack('<I', data[-8:-4])[0]
    fstart = len(data) - 8 - flen
    cases = []
    cut = os.path.join(tmp, 'cut.parquet')
    open(cut, 'wb').write(data[:len(data) // 2])
    cases.append((cut, 'bad-export', 'byte %d' % (len(data) // 2 - 4), 'cut short'))
    # the footer's first field header: type 15 is no Thrift type
    bad = bytearray(data)
    bad[fstart] = (bad[fstart] & 0xF0) | 0x0F
    badf = os.path.join(tmp, 'footer.parquet')
    open(badf, 'wb').write(bytes(bad))
    cases.append((badf, 'bad-export', 'byte %d' % fstart, 'unknown Thrift type'))
    # the footer's length pointing before the file's start
    big = bytearray(data)
    big[-8:-4] = struct.pack('<I', len(data))
    bigf = os.path.join(tmp, 'length.parquet')
    open(bigf, 'wb').write(bytes(big))
    cases.append((bigf, 'bad-export', 'byte %d' % (len(data) - 8), "footer's length"))
    other = os.path.join(tmp, 'arrow.parquet')
    at = foreign_parquet(other, 'parquet-cpp-arrow version 14.0.1', [('x', 1)])
    cases.append((other, 'usage', 'byte %d' % at, 'written by "parquet-cpp-arrow version 14.0.1", not by segscan'))
    schema = os.path.join(tmp, 'schema.parquet')
    at = foreign_parquet(schema, 'segscan version 0.1.0', [('topic', 6), ('partition', 1)])
    cases.append((schema, 'usage', 'byte %d' % at, "not a segscan export's"))
    for path, kind, byte, words in cases:
        name = os.path.basename(path)
        for cmd in ('dups', 'scan', 'groups'):
            rc, out, err = run([cmd, path])
            tally_eq(rc, 2, '%s %s: exit 2' % (cmd, name))
            check(path in err and byte in err and words in err and '[%s]' % kind in err,
                  '%s %s: the file, %s, why (%s) and the kind: %r' % (cmd, name, byte, words, err[:300]))
        # nothing else lost: a directory beside it is read, and the bad file listed as unreadable
        rc, objs, err = jsonl(['dups', '--json', path, os.path.join(d, 'enriched-0')])
        tally_eq(rc, 2, 'dups %s beside a directory: exit 2' % name)
        total = [o for o in objs if o.get('type') == 'total']
        check(total and total[0]['scope']['partitionsRead'] == ['enriched-0']
              and [u['path'] for u in total[0]['unreadable']] == [path]
              and sum(1 for o in objs if o.get('type') == 'group') == 10,
              '%s beside a directory: the directory read (10 groups), the export unreadable' % name)


def clusters(tmp):
    src = os.path.join(GEN, 'txn-commit')
    files = []
    for node, cluster in ((1, 'q1CJQWbUS3yDqyHbKyHq6A'), (2, 'ZvQ1vY9uT6mSfy6L9bX2gQ')):
        logdir = os.path.join(tmp, 'broker%d' % node)
        shutil.copytree(src, logdir)
        with open(os.path.join(logdir, 'meta.properties'), 'w') as f:
            f.write('#\nversion=1\ncluster.id=%s\nnode.id=%d\n' % (cluster, node))
        x = os.path.join(tmp, 'b%d.parquet' % node)
        rc, err = export([logdir], x)
        tally_eq(rc, 0, 'export of broker %d' % node)
        files.append(x)
    rc, objs, err = jsonl(['dups', '--json'] + files)
    check('exports of different clusters' in err and 'q1CJQWbUS3yDqyHbKyHq6A' in err
          and 'ZvQ1vY9uT6mSfy6L9bX2gQ' in err, 'two clusters: a warning naming both cluster ids: %r' % err[:300])
    total = [o for o in objs if o.get('type') == 'total']
    check(total and sorted((e['file'], e['broker']) for e in total[0]['scope']['exports'])
          == [(files[0], 1), (files[1], 2)], 'the scope names each export and its broker (node.id)')
    check(total and total[0]['scope']['partitionsRead'] == ['b1.parquet:txn-0', 'b2.parquet:txn-0'],
          'same-named partitions of two exports told apart by file: %r'
          % (total[0]['scope']['partitionsRead'] if total else None))
    # one cluster: no warning
    rc, objs, err = jsonl(['dups', '--json', files[0]])
    check('different clusters' not in err, 'one cluster: no warning')


REPLICA_NAME = re.compile(r'\bb([12])(\.parquet:|/)')


def same_names(v):
    """b1/orders-0 (a directory told apart by its parent) and b1.parquet:orders-0 (by its export)"""
    if isinstance(v, str):
        return REPLICA_NAME.sub(r'b\1|', v)
    if isinstance(v, dict):
        return {k: same_names(x) for k, x in v.items()}
    if isinstance(v, list):
        return [same_names(x) for x in v]
    return v


def replicas(tmp):
    """Two exports of one partition are as two directories holding it are: one input read once,
    the copies compared as a follower with its leader (the inputs' replicas once)."""
    d = os.path.join(ROOT, 'testdata', 'groups-worked')
    dirs, files = [], []
    for b in ('b1', 'b2'):
        dst = os.path.join(tmp, 'rep', b)
        shutil.copytree(d, dst)
        dirs.append(dst)
        files.append(os.path.join(tmp, 'rep', b + '.parquet'))
        export([dst], files[-1])
    for cmd in ('scan', 'dups', 'producers', 'txns'):
        ra, a, ea = jsonl([cmd, '--json'] + dirs)
        rb, b, eb = jsonl([cmd, '--json'] + files)
        tally_eq(rb, ra, 'replicas %s: exit code' % cmd)
        tally_eq(same_names(strip(b)), same_names(strip(a)), 'replicas %s: the JSON of two exports = of two '
                 'directories' % cmd)
        check(re.search(r'orders-0: 2 copies read as one partition \(replicas\): b1\.parquet:orders-0 '
                        r'\(broker unknown, leader, offsets 0\.\.79 read\); b2\.parquet:orders-0 '
                        r'\(broker unknown, compared only\)', eb),
              'replicas %s: the scope note names each export\'s copy: %r' % (cmd, eb[-300:]))
    # each copy holds the 10 groups of enriched-0 (the same_as_directory check of groups-worked); the
    # partition read once, they are 10, not 20 (a copy's record is not a duplicate of the other's)
    total = [o for o in jsonl(['dups', '--json'] + files)[1] if o.get('type') == 'total']
    check(total and total[0]['duplicateGroups'] == 10, 'replicas: the 10 groups of the partition read once')
    # a directory and an export of one partition: not one input (one is read from fingerprints, the
    # other from bytes), and a note says their records count as copies of each other
    rc, objs, err = jsonl(['scan', '--json', dirs[0], files[1]])
    names = sorted(o['partition'] for o in objs if o.get('type') == 'partition' and o['topic'] == 'orders')
    tally_eq(names, ['b2.parquet:orders-0', 'orders-0'], 'a directory and an export: two inputs of orders-0')
    check('orders-0 and b2.parquet:orders-0 hold the same partition, a directory and an export' in err,
          'a directory and an export: the note: %r' % err[-300:])


def slots(tmp):
    """The export's rows are made by one rows' thread, to which the thread that walks the log hands
    its batches in slots, or by a team of row makers that read units of each segment themselves
    and whose pieces are merged in unit order, the ends of the row groups replayed (exports.c).
    Whatever the slots or units, the makers and the row groups' size, the file, the damage
    reported and the exit status must be those of one rows' thread with the default slots. The
    test hook's size of one byte makes slots of one batch (the threads take turn at every batch)
    and units of 64 bytes, most of them starting at a guessed boundary that the merge must check
    (one that began elsewhere than where the unit before it stopped is read again), and the makers merge
    their pieces row by row; row groups of 1, 3 and 7 rows end inside batches, slots and units.
    Every scenario of the corpus at once: damaged files, legacy formats, control batches,
    internal topics, many partitions."""
    paths = sorted(os.path.join(GEN, s) for s in os.listdir(GEN) if os.path.isdir(os.path.join(GEN, s)))

    def export_with(slot, threads, rows):
        env = dict(os.environ)
        for k, v in (('SEGSCAN_TEST_EXPORT_SLOT_BYTES', slot), ('SEGSCAN_TEST_EXPORT_THREADS', threads),
                     ('SEGSCAN_TEST_EXPORT_ROWS_PER_GROUP', rows)):
            env.pop(k, None)
            if v:
                env[k] = v
        # the same output name in every run: the command line is in the file's metadata
        y = os.path.join(tmp, 'slots.parquet')
        p = subprocess.run([SEGSCAN, 'export', '--fingerprints', '-o', y] + paths, capture_output=True, text=True,
                           env=env)
        with open(y, 'rb') as f:
            data = f.read()
        os.remove(y)
        return p.returncode, p.stderr, data

    for rows in (None, '1', '3', '7'):
        base = export_with(None, '1', rows)
        what = 'row groups of %s rows' % (rows or 'the default')
        # the corpus's damaged scenarios (damaged-*): exit 3, a line each naming file and byte
        check(base[0] == 3 and ': byte ' in base[1], 'slots, %s: the corpus exported, its damage reported (rc %d)'
              % (what, base[0]))
        if rows:  # more row groups: a longer file
            check(len(base[2]) > len(ref[2]), '%s: more row groups than the default' % what)
        else:
            ref = base
        for slot in (None, '1', '700'):
            for threads in (None, '1', '2', '3', '4'):
                if (slot, threads) == (None, '1'):
                    continue
                got = export_with(slot, threads, rows)
                how = '%s, slots of %s bytes, %s row makers' % (what, slot or 'the default', threads or 'the default')
                tally_eq(got[:2], base[:2], '%s: the exit status and messages of one rows\' thread' % how)
                check(got[2] == base[2], '%s: the same file, byte for byte (%d and %d bytes)'
                      % (how, len(got[2]), len(base[2])))


def false_boundaries(tmp):
    """A unit of a segment but its first begins at a guess (an_find_boundary_before: the first whole,
    CRC-valid entry that another plausible entry follows), which the merge must check against
    where the unit before it stopped. Here most records' values are whole, CRC-valid v2 batches
    of other offsets (from 1,000,000: a log's bytes produced as a record, as a tool that mirrors
    segments does), so that many units guess a boundary inside a value, where the one rows'
    thread's walk never looks. Every batch of the log is valid (built to Kafka's
    DefaultRecordBatch layout, tests/lib/kafka.py), so: exit 0, no message, and read back, the
    export holds the records and batches built at offsets 0 to N-1, none of the values' own;
    and the file is the one rows' thread's, byte for byte, with units of 64 and 333 bytes and the
    default, and 2 and 4 row makers. The corpus has no such value: a merge that took a guess
    inside the batch before it went unseen there."""
    import random
    import kafka
    rnd = random.Random(34)

    def inner(base, n):
        return b''.join(kafka.batch(base + 10 * i, [(b'in', b'v%d' % i * rnd.randint(1, 20))]) for i in range(n))

    log = os.path.join(tmp, 'lies', 'lies-0')
    segments, off, batches = {}, 0, 0
    for seg in range(2):
        data, first = b'', off
        for i in range(150):
            recs = [(b'k%d' % j, inner(1000000 + 1000 * batches + 100 * j, rnd.randint(1, 6)) if rnd.random() < 0.8
                     else bytes(rnd.randrange(256) for _ in range(rnd.randint(0, 200))))
                    for j in range(rnd.randint(1, 3))]
            data += kafka.batch(off, recs)
            off += len(recs)
            batches += 1
        segments[first] = data
    kafka.write_partition(log, segments)

    def export_with(slot, threads):
        env = dict(os.environ, SEGSCAN_TEST_EXPORT_THREADS=threads)
        env.pop('SEGSCAN_TEST_EXPORT_SLOT_BYTES', None)
        if slot:
            env['SEGSCAN_TEST_EXPORT_SLOT_BYTES'] = slot
        y = os.path.join(tmp, 'lies.parquet')  # one name: the command line is in the file's metadata
        p = subprocess.run([SEGSCAN, 'export', '--fingerprints', '-q', '-o', y, log], capture_output=True, text=True,
                           env=env)
        with open(y, 'rb') as f:
            data = f.read()
        return p.returncode, p.stderr, data

    base = export_with(None, '1')
    tally_eq(base[:2], (0, ''), 'values holding batches, one rows\' thread: exit 0, no message')
    rc, objs, err = jsonl(['scan', '--json', os.path.join(tmp, 'lies.parquet')])
    part = [o for o in objs if o.get('type') == 'partition']
    tally_eq([(o['records'], o['batches'], o['firstOffset'], o['nextOffset']) for o in part], [(off, batches, 0, off)],
             'values holding batches: the records and batches built, offsets 0 to %d' % (off - 1))
    for slot in ('1', '333', None):
        for threads in ('2', '4'):
            got = export_with(slot, threads)
            how = 'values holding batches, units of %s bytes, %s row makers' % (
                {'1': '64', None: 'the default'}.get(slot, slot), threads)
            tally_eq(got[:2], base[:2], '%s: the exit status and messages of one rows\' thread' % how)
            check(got[2] == base[2], '%s: the same file, byte for byte (%d and %d bytes)' % (how, len(got[2]),
                                                                                           len(base[2])))


def temp_file(tmp):
    d = os.path.join(ROOT, 'testdata', 'groups-worked')
    x = os.path.join(tmp, 'tmpdir.parquet')
    export([d], x)
    gone = os.path.join(tmp, 'no-such-dir')
    env = dict(os.environ, TMPDIR=gone)
    for cmd in ('dups', 'scan', 'groups'):
        p = subprocess.run([SEGSCAN, cmd, x], capture_output=True, text=True, env=env)
        tally_eq(p.returncode, 2, '%s with $TMPDIR missing: exit 2' % cmd)
        check(x in p.stderr and gone in p.stderr and 'temporary file' in p.stderr and '[io-error]' in p.stderr,
              '%s with $TMPDIR missing: the export, the directory, why and the kind: %r' % (cmd, p.stderr[:300]))
    p = subprocess.run([SEGSCAN, 'dups', '--json', x, os.path.join(d, 'enriched-0')], capture_output=True, text=True,
                       env=env)
    tally_eq(p.returncode, 2, 'dups with $TMPDIR missing beside a directory: exit 2')
    objs = [json.loads(line) for line in p.stdout.splitlines() if line.strip()]
    total = [o for o in objs if o.get('type') == 'total']
    check(total and total[0]['scope']['partitionsRead'] == ['enriched-0']
          and [u['path'] for u in total[0]['unreadable']] == [x],
          'dups with $TMPDIR missing beside a directory: the directory read, the export unreadable')
    own = os.path.join(tmp, 'own-tmp')
    os.mkdir(own)
    for cmd in ('dups', 'scan', 'groups', 'txns', 'producers'):
        want = run([cmd, '--json', x])
        p = subprocess.run([SEGSCAN, cmd, '--json', x], capture_output=True, text=True,
                           env=dict(os.environ, TMPDIR=own))
        tally_eq((p.returncode, p.stdout, p.stderr), want, '%s --json with $TMPDIR its own: as with the default' % cmd)
        tally_eq(os.listdir(own), [], '%s: nothing left in $TMPDIR' % cmd)


def main():
    tmp = tempfile.mkdtemp(prefix='segscan-xin-')
    try:
        same_as_directory(tmp)
        refusals(tmp)
        bad_files(tmp)
        clusters(tmp)
        replicas(tmp)
        slots(tmp)
        false_boundaries(tmp)
        temp_file(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return tally_exit('export-inputs')


if __name__ == '__main__':
    sys.exit(main())
