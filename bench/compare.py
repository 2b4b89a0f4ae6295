#!/usr/bin/env python3
"""Compare the speed of two builds: bench/bench.py over each, in alternating rounds.

Usage:
  bench/compare.py OLD_BUILD NEW_BUILD [--rounds N] [--runs N] [--rows REGEX] [--out FILE]
                   [-- BENCH.PY OPTIONS...]

OLD_BUILD and NEW_BUILD are meson build directories (release builds, as bench/README.md says),
each with src/cli/segscan and the bench tools (bench/floor, bench/gen-segment, bench/snappy-cli).
Each round runs bench.py once over each build, the order alternating from one round to the
next (old then new, new then old, ...), so that a slow minute of the host falls on both alike.
Then, for every row of bench.py's table whose command matches --rows (default: the floor rows
and the scans), the median over the rounds of each build's seconds, and new/old. Options after
'--' go to bench.py (e.g. --codecs none,zstd --skip-big --skip-diff). The table is printed and
written to --out. Exit status 0; the figures are for a reader to judge (the host is noisy).
"""

import argparse
import os
import re
import statistics
import subprocess
import sys

ROW = re.compile(r'^(\S+)\s+(file|dir4|big)\s+(.+?)\s{2,}(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s')


def rows_of(path):
    out = {}
    with open(path) as f:
        for line in f:
            m = ROW.match(line)
            if m:
                out[(m.group(1), m.group(2), m.group(3).strip())] = float(m.group(4))
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    argv = sys.argv[1:]
    extra = []
    if '--' in argv:
        i = argv.index('--')
        argv, extra = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('old')
    ap.add_argument('new')
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--runs', type=int, default=1, help='bench.py --runs within a round')
    ap.add_argument('--rows', default=r'^(floor: |segscan( --threads 1)?$)')
    ap.add_argument('--out', default='/tmp/segscan-compare.txt')
    ap.add_argument('--workdir', default='/tmp/segscan-compare')
    a = ap.parse_args(argv)
    os.makedirs(a.workdir, exist_ok=True)
    results = {'old': [], 'new': []}
    for r in range(a.rounds):
        order = ('old', 'new') if r % 2 == 0 else ('new', 'old')
        for which in order:
            build = a.old if which == 'old' else a.new
            out = os.path.join(a.workdir, 'round%d-%s.txt' % (r + 1, which))
            cmd = [sys.executable, os.path.join(here, 'bench.py'), '--build', os.path.abspath(build), '--runs',
                   str(a.runs), '--out', out] + extra
            print('compare: round %d/%d, %s: %s' % (r + 1, a.rounds, which, ' '.join(cmd)), flush=True)
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            results[which].append(rows_of(out))
    want = re.compile(a.rows)
    keys = [k for k in results['old'][0] if want.search(k[2]) and all(k in x for x in results['old'] + results['new'])]
    lines = ['new/old: median seconds over %d alternating rounds (bench.py --runs %d %s)' %
             (a.rounds, a.runs, ' '.join(extra)),
             'old: %s' % os.path.abspath(a.old), 'new: %s' % os.path.abspath(a.new), '',
             '%-6s %-5s %-26s %9s %9s %8s   %s' % ('codec', 'input', 'command', 'old s', 'new s', 'new/old',
                                                  'rounds old | new')]
    ratios = []
    for k in keys:
        o = [x[k] for x in results['old']]
        n = [x[k] for x in results['new']]
        mo, mn = statistics.median(o), statistics.median(n)
        ratios.append(mn / mo)
        lines.append('%-6s %-5s %-26s %9.3f %9.3f %8.3f   %s | %s' % (
            k[0], k[1], k[2], mo, mn, mn / mo, ' '.join('%.3f' % v for v in o), ' '.join('%.3f' % v for v in n)))
    if ratios:
        lines += ['', 'new/old over all rows: median %.3f, min %.3f, max %.3f' %
                  (statistics.median(ratios), min(ratios), max(ratios))]
    text = '\n'.join(lines) + '\n'
    print(text)
    with open(a.out, 'w') as f:
        f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
