#!/usr/bin/env python3
"""--max-memory: fingerprint tables that spill give the same results.

usage: test_spill.py SEGSCAN TESTDATA GEN_SEGMENT

A log directory of two topics (three partitions: gen-segment output with
retried batches, and a copy of one partition's segment under another topic, so
that the same values exist in two topics) is scanned without a limit and with
--max-memory far below what its tables need (a few KiB: the tables then spill to
temporary files after the first fingerprints and are grouped bucket by bucket,
buckets split further when they are still too large). scan --report, dups,
producers, txns (--json) and explain must print the same bytes, per topic and
--across-topics, with one and four threads; stderr must carry the note that
says the tables spilled. A spill that cannot create its file fails with exit 2
and says why.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import harness
from harness import tally as check

SEGSCAN, TESTDATA, GEN = (os.path.abspath(a) for a in sys.argv[1:4])


def run(args, env=None):
    rc, out, err = harness.call(args + ['--progress', 'never'], binary=SEGSCAN, env=env,
                                unset=('SEGSCAN_TEST_UNIT_BYTES',), text=False)
    return rc, out, err.decode('utf-8', 'replace')


def outputs(cmd, paths, extra, tmp):
    report = os.path.join(tmp, 'report.txt')
    args = list(cmd) + extra + paths
    if cmd[0] == 'scan':
        args = list(cmd) + extra + ['--report', report] + paths
    rc, out, err = run(args)
    rep = open(report, 'rb').read() if cmd[0] == 'scan' else b''
    return rc, out, rep, err


def main():
    tmp = tempfile.mkdtemp(prefix='segscan-spill-')
    try:
        logdir = os.path.join(tmp, 'logs')
        for name, seed, size in (('orders-0', 1, 1 << 20), ('orders-1', 2, 600 << 10), ('audit-0', 1, 1 << 20)):
            d = os.path.join(logdir, name)
            os.makedirs(d)
            # audit-0 is orders-0 again (same seed): every value of it exists in two topics
            subprocess.run([GEN, '--out', os.path.join(d, '%020d.log' % 0), '--size', str(size), '--seed', str(seed)],
                           check=True)
        paths = [logdir]
        commands = [['scan', '--color', 'never'], ['dups', '--json'], ['producers', '--json'], ['txns', '--json'],
                    ['explain', '--offset', 'orders-0:1234']]
        for across in ([], ['--across-topics']):
            for cmd in commands:
                ref = outputs(cmd, paths, across + ['--threads', '1', '--max-memory', '0'], tmp)
                check(ref[0] == 0 and ref[1], '%s %s: runs (exit %d: %s)' % (' '.join(cmd), across, ref[0], ref[3][-200:]))
                check('spill' not in ref[3] and 'temporary files' not in ref[3], 'no spill without a limit')
                for threads in ('1', '4'):
                    for limit in ('16K', '3000'):
                        got = outputs(cmd, paths, across + ['--threads', threads, '--max-memory', limit], tmp)
                        what = '%s %s --threads %s --max-memory %s' % (' '.join(cmd), ' '.join(across), threads, limit)
                        check(got[0] == ref[0], what + ': exit %d, want %d' % (got[0], ref[0]))
                        check(got[1] == ref[1], what + ': stdout differs')
                        check(got[2] == ref[2], what + ': report differs')
                        check('went through temporary files' in got[3], what + ': no note of the spill: ' + got[3][-300:])
        # one value with thousands of copies (a hot key re-sent by an application): a bucket
        # of one fingerprint cannot be split, and is grouped as it is; the result must equal
        # the one without a limit. Built here: 40 batches of 100 records, no producer id,
        # each record's value b'hot' (4,000 copies), plus 300 distinct values in 3 batches.
        import kafka
        data, off = b'', 0
        for _ in range(40):
            data += kafka.batch(off, [(None, b'hot')] * 100)
            off += 100
        for k in range(3):
            data += kafka.batch(off, [(None, b'cold-%04d' % (k * 100 + i)) for i in range(100)])
            off += 100
        hot = kafka.write_partition(os.path.join(tmp, 'hot', 'hot-0'), {0: data})
        ref = outputs(['dups', '--json'], [hot], ['--threads', '1', '--max-memory', '0'], tmp)
        groups = [l for l in ref[1].decode().splitlines() if '"type":"group"' in l]
        check(len(groups) == 1 and '"copies":4000' in groups[0], 'hot value: one group of 4000 copies: %r'
              % [g[:120] for g in groups])
        for limit in ('3000', '16K'):
            got = outputs(['dups', '--json'], [hot], ['--threads', '1', '--max-memory', limit], tmp)
            check(got[0] == ref[0] and got[1] == ref[1], 'hot value, --max-memory %s: same groups as without' % limit)
            check('went through temporary files' in got[3], 'hot value, --max-memory %s: spilled' % limit)
        # a spill that cannot create its file
        rc, out, err = run(['scan', '--max-memory', '1K', logdir], env={'TMPDIR': os.path.join(tmp, 'missing')})
        check(rc == 2 and 'cannot create a temporary file' in err, 'no place to spill: exit 2 (%d): %s' % (rc, err))
        # the size syntax
        for good in ('0', '512', '64K', '64KiB', '2M', '1G', '1GB'):
            rc, out, err = run(['scan', '--max-memory', good, logdir])
            check(rc == 0, '--max-memory %s accepted (%d: %s)' % (good, rc, err))
        for bad in ('', 'x', '-1', '5Q', '1.5G'):
            rc, out, err = run(['scan', '--max-memory', bad, logdir])
            check(rc == 2 and '--max-memory' in err, '--max-memory %r refused (%d)' % (bad, rc))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(harness.tally_exit('test_spill'))


main()
