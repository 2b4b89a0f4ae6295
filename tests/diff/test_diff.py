#!/usr/bin/env python3
"""Tests of `segscan diff`: pairs of logs built here, each with its figures derived by hand.

The logs are written with tests/lib/kafka.py (record batch v2 per DefaultRecordBatch.java).
Leader-epoch reconciliation (Kafka's LeaderEpochFileCache.endOffsetFor, used by a follower
after an election): the follower asks for the end offset of the latest epoch it holds; the
leader answers with the start offset of its next higher epoch (or its log end offset), and the
follower truncates to the smaller of that and its own end of that epoch.
usage: test_diff.py SEGSCAN CORPUS_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import kafka
import harness
from harness import tally as check

SEGSCAN = os.path.abspath(sys.argv[1])
CORPUS = os.path.abspath(sys.argv[2])
T0 = 1700000000000


def diff(*args):
    p = subprocess.run([SEGSCAN, 'diff', '--json'] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       check=False)
    objs = [json.loads(l) for l in p.stdout.decode().splitlines() if l.strip()]
    return p.returncode, objs, p.stderr.decode()


def diff_failing(*args):
    """diff() with every analysis failing as when memory runs out (the test hook)."""
    p = subprocess.run([SEGSCAN, 'diff', '--json'] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=dict(os.environ, SEGSCAN_TEST_FAIL_ANALYSIS='1'), check=False)
    objs = [json.loads(l) for l in p.stdout.decode().splitlines() if l.strip()]
    return p.returncode, objs, p.stderr.decode()


def summary(objs):
    s = [o for o in objs if o['type'] == 'summary']
    return s[0] if s else {}


def ranges(objs):
    return [(o['kind'], o['where'], o['from'], o['to'], o['records']) for o in objs if o['type'] == 'range']


def one_per_batch(base, values, epoch=0, ts0=T0):
    """One batch per record: offsets base.., leader epoch `epoch`, timestamp ts0 + offset."""
    out = b''
    for i, v in enumerate(values):
        off = base + i
        out += kafka.batch(off, [(None, v)], base_ts=ts0 + off, leader_epoch=epoch)
    return out


tmp = tempfile.mkdtemp(prefix='segscan-diff-')
try:
    v = [b'v%d' % i for i in range(10)]

    # 1. identical copies: a corpus partition against a copy of itself -> exit 0
    a = os.path.join(tmp, 'same-a', 'payments-0')
    b = os.path.join(tmp, 'same-b', 'payments-0')
    shutil.copytree(os.path.join(CORPUS, 'gen/lab/payments-0'), a)
    shutil.copytree(os.path.join(CORPUS, 'gen/lab/payments-0'), b)
    rc, objs, err = diff(a, b)
    s = summary(objs)
    check(rc == 0 and s.get('identical') is True and s.get('mode') == 'offset', 'identical copies: exit 0, offset mode')
    check(s.get('onlyInA') == 0 and s.get('onlyInB') == 0 and s.get('differing') == 0, 'identical: no difference')
    check(s.get('firstDivergentOffset') is None and s.get('truncationOffset') is None, 'identical: no divergence')

    # 2. a divergent tail under another leader epoch (unclean election): A (old leader) wrote
    #    a5..a7 in epoch 0 that B never got; B became leader in epoch 1 at offset 5 and wrote
    #    b5..b8. Offsets 5-7 differ, 8 is only in B; the last epoch both hold is 0; its end is
    #    8 on A and 5 on B (start of B's epoch 1), so the follower truncates to offset 5.
    a = kafka.write_partition(os.path.join(tmp, 'div-a', 'orders-0'),
                              {0: one_per_batch(0, v[:5]) + one_per_batch(5, [b'a5', b'a6', b'a7'])})
    b = kafka.write_partition(os.path.join(tmp, 'div-b', 'orders-0'),
                              {0: one_per_batch(0, v[:5]) + one_per_batch(5, [b'b5', b'b6', b'b7', b'b8'], epoch=1)})
    rc, objs, err = diff(a, b)
    s = summary(objs)
    check(rc == 1 and s.get('mode') == 'offset' and s.get('identical') is False, 'divergent: exit 1, offset mode')
    check(s.get('firstDivergentOffset') == 5, 'divergent: first divergent offset 5, got %s' % s.get('firstDivergentOffset'))
    check(s.get('partitionLeaderEpochA') == 0 and s.get('partitionLeaderEpochB') == 1, 'divergent: epochs 0 and 1 there')
    check(s.get('differing') == 3 and s.get('onlyInA') == 0 and s.get('onlyInB') == 1, 'divergent: 3 differ, 1 only in B')
    check(s.get('sharedLeaderEpoch') == 0 and s.get('truncationOffset') == 5, 'divergent: truncate to 5 (epoch 0)')
    check(('differing', 'inside', 5, 7, 3) in ranges(objs) and ('onlyInB', 'after', 8, 8, 1) in ranges(objs),
          'divergent: ranges 5..7 differing, 8 only in B after A\'s end: %s' % ranges(objs))
    check(s['b'].get('leaderEpochs') == [[0, 0], [1, 5]], 'divergent: B epochs from its batches')
    diffs = [o for o in objs if o['type'] == 'difference']
    check(len(diffs) == 4 and diffs[0]['kind'] == 'differing' and diffs[0]['a']['value'] == 'a5'
          and diffs[0]['b']['value'] == 'b5', 'divergent: differences listed with both sides')

    # ... and with a leader-epoch-checkpoint, that file is used (here it agrees)
    with open(os.path.join(b, 'leader-epoch-checkpoint'), 'w') as f:
        f.write('0\n2\n0 0\n1 5\n')
    rc, objs, err = diff(a, b)
    check(summary(objs).get('truncationOffset') == 5, 'divergent with leader-epoch-checkpoint: still 5')

    # 3. a truncated follower: B holds offsets 0-5 of A's 0-9 -> 4 only in A after B's end;
    #    shared epoch 0 ends at 10 on A and 6 on B -> truncation offset 6.
    a = kafka.write_partition(os.path.join(tmp, 'tr-a', 'orders-1'), {0: one_per_batch(0, v)})
    b = kafka.write_partition(os.path.join(tmp, 'tr-b', 'orders-1'), {0: one_per_batch(0, v[:6])})
    rc, objs, err = diff(a, b)
    s = summary(objs)
    check(rc == 1 and s.get('onlyInA') == 4 and s.get('onlyInB') == 0 and s.get('differing') == 0,
          'truncated: 4 only in A')
    check(s.get('firstDivergentOffset') is None and s.get('truncationOffset') == 6, 'truncated: truncation offset 6')
    check(ranges(objs) == [('onlyInA', 'after', 6, 9, 4)], 'truncated: one range 6..9 after B\'s end')
    rc, objs, err = diff('--stat', a, b)
    check(not [o for o in objs if o['type'] == 'difference'], '--stat lists no difference')

    # 4. a mirror at shifted offsets: A holds m0..m9 at 0-9; B (another topic name, offsets
    #    100..) lacks m3, holds m7 twice (the second a new batch with another timestamp: a
    #    resend without idempotence) and x1. -> content mode; 1 copy missing from B (m3), 2
    #    only in B (m7's second copy, x1).
    m = [b'm%d' % i for i in range(10)]
    bvals = [x for x in m if x != b'm3'] + [b'm7', b'x1']
    a = kafka.write_partition(os.path.join(tmp, 'mir-a', 'orders-2'), {0: one_per_batch(0, m)})
    b = kafka.write_partition(os.path.join(tmp, 'mir-b', 'orders.mirror-2'),
                              {100: one_per_batch(100, bvals, ts0=T0 + 5000)})
    rc, objs, err = diff(a, b)
    s = summary(objs)
    check(rc == 1 and s.get('mode') == 'content' and s.get('modeAuto') is True, 'mirror: content mode chosen')
    check(s.get('onlyInA') == 1 and s.get('onlyInB') == 2, 'mirror: 1 missing from B, 2 only in B: %s' % s)
    check(s.get('valuesMissingInB') == 1 and s.get('valuesOnlyInB') == 1 and s.get('valuesMoreCopiesInB') == 1,
          'mirror: m3 missing, x1 new, m7 with more copies')
    d = {(o['kind'], (o['a'] or o['b'])['value']): o for o in objs if o['type'] == 'difference'}
    check(('onlyInA', 'm3') in d and ('onlyInB', 'x1') in d and ('onlyInB', 'm7') in d, 'mirror: the three listed')
    if ('onlyInB', 'm7') in d:
        m7 = d[('onlyInB', 'm7')]['b']
        check(m7['offset'] == 109 and m7['copies'] == 2 and m7['cause'] == 'resend-no-idempotence',
              'mirror: the extra m7 is the later copy (B: m0 m1 m2 m4 m5 m6 m7 m8 m9 m7 x1 at 100.. puts it at 109), a resend: %s' % m7)
    check('analysisFailed' not in s, 'mirror: no analysis failed, no analysisFailed: %s' % s)
    # B's analysis failing (the test hook): only the cause of its surplus copy rests on it, and is
    # unknown; the counts (no --read-committed) do not rest on it and stay as above
    rc, objs, err = diff_failing(a, b)
    s = summary(objs)
    d = {(o['kind'], (o['a'] or o['b'])['value']): o for o in objs if o['type'] == 'difference'}
    check(rc == 2 and s.get('analysisFailed') == ['B'] and s.get('onlyInA') == 1 and s.get('onlyInB') == 2
          and s.get('valuesMoreCopiesInB') == 1 and s.get('identical') is False
          and s.get('ignoredAbortedA') == 0 and s.get('ignoredAbortedB') == 0
          and ('onlyInB', 'm7') in d and d[('onlyInB', 'm7')]['b']['cause'] is None,
          'mirror, B\'s analysis failed: analysisFailed ["B"], m7\'s cause null, counts known (rc %d): %s' % (rc, s))
    # forcing offset mode on the mirror gives nothing in common (different offsets)
    rc, objs, err = diff('--by', 'offset', a, b)
    s = summary(objs)
    check(s.get('mode') == 'offset' and s.get('modeAuto') is False and s.get('onlyInA') == 10
          and s.get('onlyInB') == 11, '--by offset on the mirror: 10 only in A, 11 only in B')

    # 4b. a larger mirror, counted in runs (src/lib/diff/diff.c counts fingerprints in runs of 32,
    #     prefetched): A holds k0000..k0999 in batches of 50; B holds them in reverse batch
    #     order without every value i % 7 == 0 (143: 0, 7, .., 994), with a second copy of
    #     every i % 10 == 1 not removed (100 minus the 14 with i = 21 mod 70: 86), and 40 new
    #     values. By construction: onlyInA 143, onlyInB 86 + 40 = 126, distinctA 1000,
    #     distinctB 1000 - 143 + 40 = 897.
    k = [b'k%04d' % i for i in range(1000)]
    adata = b''.join(kafka.batch(j, [(None, x) for x in k[j:j + 50]], base_ts=T0 + j) for j in range(0, 1000, 50))
    bv = []
    for j in reversed(range(0, 1000, 50)):
        for i in range(j, j + 50):
            if i % 7:
                bv.append(k[i])
                if i % 10 == 1:
                    bv.append(k[i])
    bv += [b'new-%02d' % i for i in range(40)]
    bdata = b''.join(kafka.batch(5000 + j, [(None, x) for x in bv[j:j + 50]], base_ts=T0 + 9000 + j)
                     for j in range(0, len(bv), 50))
    a = kafka.write_partition(os.path.join(tmp, 'big-mir-a', 'orders-3'), {0: adata})
    b = kafka.write_partition(os.path.join(tmp, 'big-mir-b', 'orders.mirror-3'), {5000: bdata})
    rc, objs, err = diff('--stat', a, b)
    s = summary(objs)
    got = tuple(s.get(f) for f in ('mode', 'onlyInA', 'onlyInB', 'distinctA', 'distinctB', 'valuesMissingInB',
                                   'valuesOnlyInB', 'valuesMoreCopiesInB', 'valuesMoreCopiesInA'))
    check(rc == 1 and got == ('content', 143, 126, 1000, 897, 143, 40, 86, 0), 'larger mirror: %s' % (got,))

    # 5. compacted vs uncompacted: B keeps offsets 0,2,4,6,8,9 of A's 0-9 (same records), and
    #    B's log directory has a cleaner-offset-checkpoint entry at 10: B shows cleaning there.
    #    The 4 missing offsets lie inside B's range and their records have no key, which
    #    LogCleaner.shouldRetainRecord drops: compaction, not a difference -> exit 0. (Without
    #    the checkpoint B shows no cleaning and they are lost: tests/analysis/test_verdicts.py.)
    keep = [0, 2, 4, 6, 8, 9]
    a = kafka.write_partition(os.path.join(tmp, 'cmp-a', 'users-0'), {0: one_per_batch(0, v)})
    b = kafka.write_partition(os.path.join(tmp, 'cmp-b', 'users-0'),
                              {0: b''.join(kafka.batch(o, [(None, v[o])], base_ts=T0 + o) for o in keep)})
    kafka.write_checkpoint(os.path.join(tmp, 'cmp-b', 'cleaner-offset-checkpoint'), [('users', 0, 10)])
    rc, objs, err = diff(a, b)
    s = summary(objs)
    check(rc == 0 and s.get('identical') is True and s.get('compactedInB') == 4 and s.get('onlyInA') == 0,
          'compacted: 4 compacted in B, identical in content, exit 0: %s' % s)
    check(ranges(objs) == [('compactedInB', 'inside', 1, 1, 1), ('compactedInB', 'inside', 3, 3, 1),
                           ('compactedInB', 'inside', 5, 5, 1), ('compactedInB', 'inside', 7, 7, 1)],
          'compacted: ranges %s' % ranges(objs))

    # 6. damaged one side: B is A with one byte of the batch at offset 3 flipped (inside its
    #    value, so its CRC-32C fails): offset 3 is missing from B through damage -> 1 only in
    #    A "damaged", exit 3 (damage wins over differences: DESIGN section 5).
    data = bytearray(one_per_batch(0, v))
    size_one = len(kafka.batch(0, [(None, v[0])], base_ts=T0))  # every batch here has this size
    data[3 * size_one + size_one - 2] ^= 0x01
    a = kafka.write_partition(os.path.join(tmp, 'dmg-a', 'orders-3'), {0: one_per_batch(0, v)})
    b = kafka.write_partition(os.path.join(tmp, 'dmg-b', 'orders-3'), {0: bytes(data)})
    rc, objs, err = diff(a, b)
    s = summary(objs)
    check(rc == 3, 'damaged: exit 3, got %d' % rc)
    check(s.get('onlyInA') == 1 and s.get('compactedInB') == 0 and s['b'].get('damagedBytes') == size_one,
          'damaged: 1 only in A, the damaged batch counted: %s' % s)
    check(ranges(objs) == [('onlyInA', 'damaged', 3, 3, 1)], 'damaged: range 3..3 damaged in B: %s' % ranges(objs))

    # 7. log directories: partitions paired by name, one present on A only
    la = os.path.join(tmp, 'dir-a')
    lb = os.path.join(tmp, 'dir-b')
    kafka.write_partition(os.path.join(la, 't-0'), {0: one_per_batch(0, v[:3])})
    kafka.write_partition(os.path.join(la, 't-1'), {0: one_per_batch(0, v[:2])})
    kafka.write_partition(os.path.join(lb, 't-0'), {0: one_per_batch(0, v[:3])})
    rc, objs, err = diff(la, lb)
    un = [o for o in objs if o['type'] == 'unpaired']
    check(rc == 1 and len(un) == 1 and un[0]['side'] == 'A' and un[0]['partition'] == 't-1',
          'log dirs: t-1 only in A: %s' % un)
    check(summary(objs).get('identical') is True, 'log dirs: t-0 identical')

    # 5. auto mode picks offset mode for a same-named partition with overlapping offsets; when
    #    what was read says the two are not replicas, it says so and points to content mode.
    #    (a) records differ at offsets 0-3 where both batches carry leader epoch 0: a follower
    #    appends the leader's batches of an epoch unchanged (KIP-101, KIP-279), so replicas cannot
    #    differ there; a mirror (another cluster numbering its own epochs) can.
    a = kafka.write_partition(os.path.join(tmp, 'mir-a', 'orders-2'), {0: one_per_batch(0, v[:6])})
    b = kafka.write_partition(os.path.join(tmp, 'mir-b', 'orders-2'),
                              {0: one_per_batch(0, [b'n0', b'n1', b'n2', b'n3']) + one_per_batch(4, v[4:6])})
    rc, objs, err = diff(a, b)
    s = summary(objs)
    check(s.get('mode') == 'offset' and s.get('modeAuto') is True and s.get('differing') == 4
          and s.get('differingInSharedEpoch') == 4 and s.get('looksLikeMirror') is True,
          'same epoch, records differ: looks like a mirror: %s' % s)
    p = subprocess.run([SEGSCAN, 'diff', a, b], stdout=subprocess.PIPE, check=False)
    out = p.stdout.decode()
    check('looks like a mirror' in out and '4 offsets\' records differ within a leader epoch both sides hold' in out
          and '--by content' in out, 'human output: the mirror hint: %s' % out)
    #    chosen by the user (--by offset), the mode is not second-guessed
    rc, objs, err = diff('--by', 'offset', a, b)
    s = summary(objs)
    check(s.get('differingInSharedEpoch') == 4 and s.get('looksLikeMirror') is False, '--by offset: no hint: %s' % s)
    #    (b) the divergent tail of test 2 differs under epochs 0 and 1: what an unclean election
    #    leaves between replicas, not a mirror
    rc, objs, err = diff(os.path.join(tmp, 'div-a', 'orders-0'), os.path.join(tmp, 'div-b', 'orders-0'))
    s = summary(objs)
    check(s.get('differingInSharedEpoch') == 0 and s.get('looksLikeMirror') is False, 'unclean election: replicas')
    #    (c) a truncated copy whose partition.metadata names another topic id: every replica of a
    #    topic keeps the id given at its creation (KIP-516, PartitionMetadataFile), so a different
    #    id is another topic (a mirror, or the topic deleted and created again); the same id is not
    def metadata(path, topic_id):
        with open(os.path.join(path, 'partition.metadata'), 'w') as f:
            f.write('version: 0\ntopic_id: %s\n' % topic_id)
    a = kafka.write_partition(os.path.join(tmp, 'id-a', 'orders-3'), {0: one_per_batch(0, v)})
    b = kafka.write_partition(os.path.join(tmp, 'id-b', 'orders-3'), {0: one_per_batch(0, v[:6])})
    metadata(a, 'MG2SJhvpZCQjALGzsYh4vA')
    metadata(b, 'RTqtE7gsXG0-grbJai7Ogg')
    rc, objs, err = diff(a, b)
    s = summary(objs)
    check(s.get('mode') == 'offset' and s.get('differing') == 0 and s.get('looksLikeMirror') is True
          and s['a'].get('topicId') == 'MG2SJhvpZCQjALGzsYh4vA' and s['b'].get('topicId') == 'RTqtE7gsXG0-grbJai7Ogg',
          'topic ids differ: looks like a mirror: %s' % s)
    p = subprocess.run([SEGSCAN, 'diff', a, b], stdout=subprocess.PIPE, check=False)
    out = p.stdout.decode()
    check('the topic ids differ (partition.metadata: A MG2SJhvpZCQjALGzsYh4vA, B RTqtE7gsXG0-grbJai7Ogg' in out
          and '--by content' in out, 'human output: the topic ids: %s' % out)
    metadata(b, 'MG2SJhvpZCQjALGzsYh4vA')
    rc, objs, err = diff(a, b)
    check(summary(objs).get('looksLikeMirror') is False, 'one topic id: replicas')

    # 8. offsets at the end of a long: a log whose last offset is Long.MAX_VALUE is legal (a base
    #    offset is any long; DefaultRecordBatch.lastOffset() = baseOffset + lastOffsetDelta). A and
    #    B both hold offsets 2^63-2 and 2^63-1: they overlap, so auto mode compares by offset (as in 5),
    #    and the records are identical -> exit 0. (The next offset after 2^63-1 overflowed once.)
    top = 2**63 - 1
    for side in ('top-a', 'top-b'):
        kafka.write_partition(os.path.join(tmp, side, 'edge-0'),
                              {top - 1: kafka.batch(top - 1, [(None, b'x'), (None, b'y')])})
    rc, objs, err = diff(os.path.join(tmp, 'top-a', 'edge-0'), os.path.join(tmp, 'top-b', 'edge-0'))
    s = summary(objs)
    check(rc == 0 and s.get('mode') == 'offset' and s.get('identical') is True,
          'a log ending at Long.MAX_VALUE: offset mode, identical: rc %d %s %s' % (rc, s, err))

    # usage
    p = subprocess.run([SEGSCAN, 'diff', a], stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    check(p.returncode == 2, 'diff with one path is a usage error')
    p = subprocess.run([SEGSCAN, 'diff', '--by', 'bogus', a, b], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check(p.returncode == 2, 'diff --by bogus is a usage error')
    p = subprocess.run([SEGSCAN, 'diff', os.path.join(tmp, 'no-such'), a], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    check(p.returncode == 2, 'diff of a missing path is exit 2')
    # the human form says the mode and the first difference
    p = subprocess.run([SEGSCAN, 'diff', os.path.join(tmp, 'div-a', 'orders-0'), os.path.join(tmp, 'div-b', 'orders-0')],
                       stdout=subprocess.PIPE, check=False)
    out = p.stdout.decode()
    check('mode offset' in out and 'first divergent offset 5' in out and 'truncate to offset 5' in out
          and '\n- 5 ' in out and '\n+ 5 ' in out, 'human output: mode, divergence, truncation and -/+ lines')

    # one analysis per side, not per pair: --read-committed (aborted transactions) and a surplus
    # copy's cause need one side's analysis, which reads every partition of that side; read per
    # pair, a log directory of N partitions had each segment opened 2N + 2 times. Six partitions
    # compared by content with themselves: each .log is opened by its pair's content pass (once per
    # side, and A and B are the same files here) and by its side's one analysis (once per side).
    strace = shutil.which('strace')
    if strace:
        many = os.path.join(tmp, 'many')
        for n in range(6):
            shutil.copytree(os.path.join(CORPUS, 'gen/txn-abort/txn-0'), os.path.join(many, 'txn-%d' % n))
        trace = os.path.join(tmp, 'trace')
        env = dict(os.environ)
        env['ASAN_OPTIONS'] = (env.get('ASAN_OPTIONS', '') + ':detect_leaks=0').lstrip(':')  # LSan cannot run under ptrace
        p = subprocess.run([strace, '-f', '-e', 'trace=openat', '-o', trace, SEGSCAN, 'diff', '--by', 'content',
                            '--read-committed', many, many], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        opens = {}
        with open(trace, encoding='utf-8', errors='replace') as f:
            for line in f:
                if '.log"' in line and 'openat(' in line and '= -1' not in line:
                    path = line.split('"')[1]
                    opens[path] = opens.get(path, 0) + 1
        check(p.returncode == 0 and len(opens) == 6 and max(opens.values()) == 4,
              'diff of 6 partitions by content, --read-committed: each .log opened 4 times (rc %d): %s'
              % (p.returncode, opens))
    else:
        print('SKIP: strace missing: the opens of diff by content are not counted')

    # a side's analysis that fails (the test hook: as when memory runs out) is said, naming the side
    # and its partition, and makes the exit status 2 (an input that cannot be read): its aborted
    # transactions are then not left out. gen/txn-abort/txn-0 holds an aborted
    # transaction (SCENARIOS.tsv: pid 3001, 2 batches, then an ABORT marker); compared with itself,
    # --read-committed leaves its records out of both sides.
    txn = os.path.join(CORPUS, 'gen/txn-abort/txn-0')
    rc, objs, err = diff('--by', 'content', '--read-committed', txn, txn)
    s = summary(objs)
    check(rc == 0 and 'analysis failed' not in err and s.get('ignoredAbortedA', 0) > 0,
          'diff --read-committed: the aborted records left out (rc %d): %s' % (rc, err))
    # nothing failed: every figure known, as before schema version 3 (no analysisFailed)
    known = ('onlyInA', 'onlyInB', 'distinctA', 'distinctB', 'valuesMissingInB', 'valuesOnlyInB',
             'valuesMoreCopiesInA', 'valuesMoreCopiesInB', 'ignoredAbortedA', 'ignoredAbortedB')
    check('analysisFailed' not in s and s.get('identical') is True and all(isinstance(s.get(k), int) for k in known)
          and s.get('ignoredAbortedA') == s.get('ignoredAbortedB'),
          'diff --read-committed, nothing failed: every figure an integer, no analysisFailed: %s' % s)
    env = dict(os.environ, SEGSCAN_TEST_FAIL_ANALYSIS='1')
    p = subprocess.run([SEGSCAN, 'diff', '--json', '--by', 'content', '--read-committed', txn, txn],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, check=False)
    err = p.stderr.decode()
    s = summary([json.loads(l) for l in p.stdout.decode().splitlines() if l.strip()])
    check(p.returncode == 2 and ('A: %s: its analysis failed' % txn) in err and ('B: %s: its analysis failed' % txn) in err,
          'diff --read-committed, a side\'s analysis failed: said, exit 2 (rc %d): %s' % (p.returncode, err))
    # ... and the JSON does not print as known what rests on it: which records --read-committed
    # leaves out is unknown on both sides, so are the counts left out and every count comparing them
    check(s.get('analysisFailed') == ['A', 'B'] and s.get('identical', False) is None
          and all(k in s and s[k] is None for k in known) and s.get('differing') == 0
          and isinstance(s.get('a', {}).get('records'), int) and isinstance(s.get('b', {}).get('records'), int),
          'diff --json --read-committed, both analyses failed: analysisFailed ["A", "B"]; identical, the counts '
          'and ignoredAborted null; the sides\' records (read, not analysed) known: %s' % s)
    p = subprocess.run([SEGSCAN, 'diff', '--by', 'content', '--read-committed', txn, txn],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, check=False)
    out = p.stdout.decode()
    check(p.returncode == 2 and 'differences unknown: the analysis of A and B failed' in out
          and 'identical' not in out and 'differ:' not in out,
          'diff --read-committed, text: the differences unknown, no count printed (rc %d):\n%s' % (p.returncode, out))
finally:
    shutil.rmtree(tmp, ignore_errors=True)

sys.exit(harness.tally_exit('test_diff'))
