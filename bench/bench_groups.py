#!/usr/bin/env python3
"""Benchmark of 'segscan groups': a log directory of 50 __consumer_offsets partitions holding
--commits offset commits of --groups groups with rebalances (bench/gen-groups), read by
'segscan groups' with 1 and 2 threads, beside the default scan and 'dump --offsets-decoder --json'
of the same bytes. Rows are run in turn, --runs rounds (the host's speed drifts on a VM); the
table gives the median wall time, coordinator records/s and MB/s, and the largest peak RSS.

usage: bench_groups.py BUILD_DIR [--dir DIR] [--commits N] [--groups N] [--runs N]
"""
import argparse
import glob
import os
import statistics
import subprocess
import sys
import time


def timed(argv):
    t = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    return time.monotonic() - t, ru.ru_maxrss * 1024, os.waitstatus_to_exitcode(status)


def main():
    a = argparse.ArgumentParser()
    a.add_argument('build')
    a.add_argument('--dir', default='/tmp/segscan-bench-groups')
    a.add_argument('--commits', type=int, default=10000000)
    a.add_argument('--groups', type=int, default=2000)
    a.add_argument('--runs', type=int, default=3)
    o = a.parse_args()
    seg = os.path.join(o.build, 'src', 'cli', 'segscan')
    gen = os.path.join(o.build, 'bench', 'gen-groups')
    # v2: the data partitions hold the records the commits pass (gen-groups' layout since the findings)
    stamp = os.path.join(o.dir, '.generated-v2-%d-%d' % (o.commits, o.groups))
    if not os.path.exists(stamp):
        subprocess.run(['rm', '-rf', o.dir], check=True)
        out = subprocess.run([gen, o.dir, '--commits', str(o.commits), '--groups', str(o.groups)],
                             stdout=subprocess.PIPE, check=True).stdout.decode()
        with open(stamp, 'w') as f:
            f.write(out)
    truth = dict(l.split('=') for l in open(stamp).read().split())
    logs = sorted(glob.glob(os.path.join(o.dir, '__consumer_offsets-*', '*.log')))
    parts = sorted(glob.glob(os.path.join(o.dir, '__consumer_offsets-*')))
    nbytes = sum(os.path.getsize(f) for f in logs)
    records = int(truth['records'])
    # the (group, topic, partition) count the memory target is about: every group reads 8 partitions
    tps = int(truth['groups']) * 8
    for f in logs:   # into the page cache
        with open(f, 'rb') as fh:
            while fh.read(1 << 24):
                pass
    rows = [
        ('groups --threads 1', [seg, 'groups', '--threads', '1', o.dir]),
        ('groups --threads 2', [seg, 'groups', '--threads', '2', o.dir]),
        ('groups --json --threads 2', [seg, 'groups', '--json', '--threads', '2', o.dir]),
        ('groups --group grp-00007', [seg, 'groups', '--threads', '2', '--group', 'grp-00007', o.dir]),
        ('groups --commits --json --max-memory 64M', [seg, 'groups', '--commits', '--json', '--threads', '2',
                                                      '--max-memory', '64M', o.dir]),
        ('scan (default) of the partitions', [seg, 'scan', '--progress', 'never'] + parts),
        ('scan of the log directory (with the groups line)', [seg, 'scan', '--progress', 'never', o.dir]),
        ('dump --offsets-decoder --json', [seg, 'dump', '--offsets-decoder', '--json'] + logs),
    ]
    res = {name: [] for name, _ in rows}
    for _ in range(o.runs):
        for name, argv in rows:
            res[name].append(timed(argv))
    print('%d coordinator records (%d commits) of %d groups, %d (group, topic, partition), %.1f MB in 50 partitions; '
          '%d rounds, median wall time' % (records, int(truth['commits']), int(truth['groups']), tps, nbytes / 1e6, o.runs))
    print('| command | seconds | records/s | MB/s | peak RSS MiB | exit |')
    print('|---|---|---|---|---|---|')
    for name, _ in rows:
        secs = statistics.median(r[0] for r in res[name])
        rss = max(r[1] for r in res[name])
        print('| %s | %.2f | %.2fM | %.0f | %.1f | %s |' % (name, secs, records / secs / 1e6, nbytes / secs / 1e6,
                                                         rss / 2**20, ','.join(str(r[2]) for r in res[name])))
    print('memory target: 64 MiB + 128 B x %d = %.1f MiB' % (tps, 64 + 128 * tps / 2**20))


if __name__ == '__main__':
    sys.exit(main())
