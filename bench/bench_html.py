#!/usr/bin/env python3
"""The size and build time of the --html page for a large input.

usage: bench_html.py [BUILD_DIR] [--size MiB] [--runs N] [--workdir DIR] [--keep] [--out FILE]

bench/gen-segment writes one uncompressed partition of --size MiB (1024: the 1 GiB target;
the standard profile of bench/bench.py: batches of 1-20 records, 15% re-appended as retries, so
the page has duplicate groups, sessions and copies to draw) into --workdir, which is removed at
the end unless --keep (a 1 GiB file is not left behind). Rows, each the median of --runs runs
(warm page cache): the default scan (text), the scan with --html PAGE (the page written beside
the text), and dups with --html PAGE; columns: wall seconds, CPU seconds, peak RSS (MiB), the
page's size. The page must stay under 5 MB: a row whose page is larger is marked OVER. Appends
its table to --out (bench/results-html.txt).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(argv):
    t0 = time.perf_counter()
    p = subprocess.run(['/usr/bin/time', '-f', '%U %S %M'] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       check=False)
    wall = time.perf_counter() - t0
    if p.returncode not in (0, 1):
        raise SystemExit('bench_html: %s failed (%d): %s' % (' '.join(argv), p.returncode, p.stderr.decode()[-500:]))
    u, s, m = p.stderr.decode().strip().splitlines()[-1].split()
    return wall, float(u) + float(s), int(m)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('build', nargs='?', default=os.path.join(root, 'build-rel'))
    ap.add_argument('--size', type=int, default=1024)
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--workdir', default='/tmp/segscan-bench-html')
    ap.add_argument('--keep', action='store_true')
    ap.add_argument('--out', default=os.path.join(root, 'bench', 'results-html.txt'))
    a = ap.parse_args()
    segscan = os.path.join(a.build, 'src', 'cli', 'segscan')
    gen = os.path.join(a.build, 'bench', 'gen-segment')
    part = os.path.join(a.workdir, 'bench-0')
    os.makedirs(part, exist_ok=True)
    seg = os.path.join(part, '%020d.log' % 0)
    page = os.path.join(a.workdir, 'page.html')
    try:
        if not os.path.exists(seg) or os.path.getsize(seg) < (a.size << 20) * 9 // 10:
            t0 = time.perf_counter()
            subprocess.run([gen, '--out', seg, '--size', str(a.size << 20), '--codec', 'none', '--seed', '1'],
                           check=True, stdout=subprocess.DEVNULL)
            print('bench_html: wrote %s (%d bytes) in %.1f s' % (seg, os.path.getsize(seg), time.perf_counter() - t0))
        subprocess.run(['cat', seg], stdout=subprocess.DEVNULL, check=False)
        rows = [('segscan', [segscan, '--progress', 'never', part], False),
                ('segscan --html PAGE', [segscan, '--progress', 'never', '--html', page, part], True),
                ('segscan dups --html PAGE', [segscan, 'dups', '--progress', 'never', '--html', page, part], True)]
        lines = []
        hdr = '%-28s %8s %8s %9s %12s' % ('row', 'wall s', 'cpu s', 'RSS MiB', 'page bytes')
        for name, argv, html in rows:
            walls, cpus, rss, size = [], [], 0, None
            for _ in range(a.runs):
                if os.path.exists(page):
                    os.unlink(page)
                w, c, m = timed(argv)
                walls.append(w)
                cpus.append(c)
                rss = max(rss, m)
                if html:
                    size = os.path.getsize(page)
            over = html and size >= 5 * 1024 * 1024
            lines.append('%-28s %8.2f %8.2f %9d %12s%s' % (name, statistics.median(walls), statistics.median(cpus),
                                                            rss // 1024, size if html else '-', ' OVER' if over else ''))
        out = ['', '%s: %d MiB uncompressed partition (bench/gen-segment --seed 1), %s, %d runs (median); build %s; '
               'load %.2f' % (time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()), a.size, os.uname().nodename,
                              a.runs, a.build, os.getloadavg()[0]), hdr] + lines
        print('\n'.join(out))
        with open(a.out, 'a') as f:
            f.write('\n'.join(out) + '\n')
    finally:
        if not a.keep:
            shutil.rmtree(a.workdir, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
