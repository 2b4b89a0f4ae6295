#!/usr/bin/env python3
"""The reading commands on a log directory of many small partitions (goal: txns and producers
within 1.5x verify's time). Builds LOGDIR (once) with tests/lib/kafka.py: PARTS partitions of one
segment each, 10 batches of 10 records (idempotent producer, 100-byte values), then times
`verify`, `txns`, `producers` and the default scan, alternating the commands run by run (the
machine is shared: a burst of load then falls on every command alike), and prints each one's
best and median wall time and CPU time (user + system, of every thread) and their ratios to
verify's: on a loaded machine the CPU time says more than the wall time.

With --as-is, LOGDIR is read as it is and nothing is built (e.g. 4,000 partitions of 29 KB, each
written by `bench/gen-segment --size 29000` as DIR/t0-N/00000000000000000000.log).

Usage: bench_partitions.py SEGSCAN LOGDIR [--parts 3000] [--runs 7] [--threads N] [--as-is]
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'lib'))
import kafka  # noqa: E402


def build(logdir, parts):
    stamp = os.path.join(logdir, '.built-%d' % parts)
    if os.path.exists(stamp):
        return
    for p in range(parts):
        seg = b''
        for i in range(10):
            recs = [(None, (b'p%05d-o%04d-' % (p, i * 10 + k)).ljust(100, b'x')) for k in range(10)]
            seg += kafka.batch(i * 10, recs, pid=1000 + p, epoch=0, base_seq=i * 10)
        kafka.write_partition(os.path.join(logdir, 'bench-%d' % p), {0: seg})
    open(stamp, 'w').close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('segscan')
    ap.add_argument('logdir')
    ap.add_argument('--parts', type=int, default=3000)
    ap.add_argument('--runs', type=int, default=7)
    ap.add_argument('--threads', type=int, default=0)
    ap.add_argument('--as-is', action='store_true', help='read LOGDIR as it is, build nothing')
    a = ap.parse_args()
    if a.as_is:
        a.parts = sum(1 for e in os.scandir(a.logdir) if e.is_dir())
    else:
        build(a.logdir, a.parts)
    threads = ['--threads', str(a.threads)] if a.threads else []
    cmds = {'verify': ['verify'], 'txns': ['txns'], 'producers': ['producers'], 'scan': ['scan']}
    times = {k: [] for k in cmds}
    cpu = {k: [] for k in cmds}
    for r in range(a.runs):
        order = list(cmds) if r % 2 == 0 else list(reversed(list(cmds)))
        for k in order:
            t = time.perf_counter()
            p = subprocess.Popen([a.segscan] + cmds[k] + threads + [a.logdir], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
            _, status, ru = os.wait4(p.pid, 0)
            times[k].append(time.perf_counter() - t)
            cpu[k].append(ru.ru_utime + ru.ru_stime)
            rc = os.waitstatus_to_exitcode(status)
            if rc not in (0, 1):
                sys.exit('%s exited %d' % (k, rc))
    v = statistics.median(times['verify'])
    vc = statistics.median(cpu['verify'])
    print('%d partitions, %d runs alternated%s' % (a.parts, a.runs, ', --threads %d' % a.threads if a.threads else ''))
    for k in cmds:
        m = statistics.median(times[k])
        c = statistics.median(cpu[k])
        print('%-10s wall best %.3f s median %.3f s (%.2fx verify)   cpu best %.3f s median %.3f s (%.2fx verify)'
              % (k, min(times[k]), m, m / v, min(cpu[k]), c, c / vc))


if __name__ == '__main__':
    main()
