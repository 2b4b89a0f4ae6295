#!/usr/bin/env python3
"""Threads never change a result.

usage: test_threads.py SEGSCAN TESTDATA GEN_SEGMENT

For every input below, `scan --report`, `dups --json`, `producers --json` and
`txns --json` must print exactly the same bytes (and write the same report)
with --threads 1 and --threads 4, both with the default unit size and with the
test hook SEGSCAN_TEST_UNIT_BYTES, which cuts even the corpus's small segments
into units of a few hundred bytes and starts each unit but a segment's first
at a guessed batch boundary (as a reader thread does when the unit before is
still being read): the coordinator must notice every wrong guess (a unit that
did not begin where the unit before ended) and read it again.

Inputs: every generated corpus scenario (a log directory each), all of them at
once, the real brokers' log directories, several multi-partition sets, a
partition whose record values are themselves whole, CRC-valid batches (false
boundaries for the guess), and a gen-segment file with retried batches.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import harness

HERE = os.path.dirname(os.path.abspath(__file__))
import kafka

SEGSCAN, TESTDATA, GEN = (os.path.abspath(a) for a in sys.argv[1:4])
CORPUS = os.path.join(TESTDATA, 'corpus')
COMMANDS = [['scan', '--color', 'never', '-v'], ['dups', '--json'], ['producers', '--json'], ['txns', '--json']]
failures = []
checks = 0


def run(cmd, paths, threads, unit, tmp):
    report = os.path.join(tmp, 'report-%s-%s-%s.txt' % (cmd[0], threads, unit))
    args = cmd + ['--threads', str(threads), '--progress', 'never']
    if cmd[0] == 'scan':
        args += ['--report', report]
    rc, out, err = harness.call(args + paths, binary=SEGSCAN, env={'SEGSCAN_TEST_UNIT_BYTES': str(unit)} if unit else None,
                                unset=('SEGSCAN_TEST_UNIT_BYTES',), cwd=CORPUS, text=False)
    rep = open(report, 'rb').read() if cmd[0] == 'scan' and os.path.exists(report) else b''
    return rc, out, err, rep


def same(name, paths, tmp, units=(0, 300, 4096)):
    global checks
    for cmd in COMMANDS:
        ref = run(cmd, paths, 1, 0, tmp)
        if cmd[0] == 'scan' and not ref[1]:
            failures.append('%s %s: no output (exit %d): %s' % (name, cmd[0], ref[0], ref[2][-300:]))
        for threads in (1, 4):
            for unit in units:
                if threads == 1 and unit == 0:
                    continue
                checks += 1
                got = run(cmd, paths, threads, unit, tmp)
                if got != ref:
                    what = [k for k, a, b in zip(('exit', 'stdout', 'stderr', 'report'), got, ref) if a != b]
                    failures.append('%s: %s --threads %d, units %s: %s differ' % (name, ' '.join(cmd), threads,
                                                                                 unit or 'default', ', '.join(what)))


def embedded_batches(tmp):
    """A partition whose values are whole v2 batches (valid CRC): a reader guessing a
    unit's start finds them; two segments, retries and a transaction around them."""
    inner = [kafka.batch(1000 + i, [(b'ik', b'inner value %d' % i)]) for i in range(40)]
    segs = {}
    off = 0
    for s in range(2):
        batches = []
        base = off
        for i in range(60):
            recs = [(b'k%d' % (i % 7), inner[(i + j) % len(inner)] * (1 + (i % 3))) for j in range(1 + i % 4)]
            batches.append(kafka.batch(off, recs))
            off += len(recs)
            if i % 9 == 4:  # a retry of the batch just written, at the next offsets
                batches.append(kafka.batch(off, recs))
                off += len(recs)
        pid = 7000 + s
        batches.append(kafka.batch(off, [(b'tk', inner[s])], pid=pid, epoch=0, base_seq=0, transactional=True))
        off += 1
        batches.append(kafka.marker(off, pid, 0, commit=(s == 0)))
        off += 1
        segs[base] = b''.join(batches)
    d = os.path.join(tmp, 'embedded', 'nested-0')
    kafka.write_partition(d, segs)
    return d


def main():
    tmp = tempfile.mkdtemp(prefix='segscan-threads-')
    try:
        gen = sorted(d for d in os.listdir(os.path.join(CORPUS, 'gen')) if os.path.isdir(os.path.join(CORPUS, 'gen', d)))
        for d in gen:
            same('gen/' + d, ['gen/' + d], tmp, units=(0, 300))
        same('all generated scenarios', ['gen/' + d for d in gen], tmp, units=(0, 700))
        real = sorted(d for d in os.listdir(os.path.join(CORPUS, 'real'))
                      if os.path.isdir(os.path.join(CORPUS, 'real', d)))
        for d in real:
            same('real/' + d, ['real/' + d], tmp, units=(0, 2000))
        same('lab partitions', ['gen/payments-dup/payments-dup-0', 'gen/payments-idem/payments-idem-0',
                                'gen/payments-app/payments-app-0'], tmp)
        same('idem and txn scenarios', ['gen/' + d for d in gen if d.startswith(('idem-', 'txn-'))], tmp)
        same('codecs, across topics', ['--across-topics'] + ['gen/' + d for d in gen if d.startswith('codec-')], tmp)
        same('damaged scenarios', ['gen/' + d for d in gen if d.startswith('damaged-')], tmp)
        nested = embedded_batches(tmp)
        same('values holding batches', [nested], tmp, units=(0, 100, 257, 1000))
        seg = os.path.join(tmp, 'big', 'generated-0', '00000000000000000000.log')
        os.makedirs(os.path.dirname(seg))
        subprocess.run([GEN, '--out', seg, '--size', str(3 << 20), '--seed', '7'], check=True)
        same('gen-segment, 3 MiB', [os.path.dirname(seg)], tmp, units=(0, 65536, 300000))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print('FAIL', f)
    print('test_threads: %d comparisons, %d failed' % (checks, len(failures)))
    sys.exit(1 if failures else 0)


main()
