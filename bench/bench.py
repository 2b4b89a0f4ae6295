#!/usr/bin/env python3
"""segscan throughput benchmark (run by hand, not by the test suite).

Generates large segments with bench/gen-segment (standard profile), then times,
warm page cache, the median of --runs runs, with peak RSS from /usr/bin/time:
  cat FILE > /dev/null                 the floor: reading the bytes
  <codec CLI> -dc RECORDS.<ext>        the codec's own speed on the same records
  segscan dump --json FILE > /dev/null
and prints one table (MB/s of segment, records/s, ratio to cat and to the codec
CLI). Before timing, segscan's findings are checked against the generator's
ground truth; a run whose findings differ is reported as INVALID, not as a result.

usage: bench/bench.py [--build DIR] [--size MiB] [--codecs none,zstd,...] [--runs N]
                      [--workdir DIR] [--out FILE]
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

CLI = {  # codec -> (compress argv, decompress argv, extension)
    'gzip': (['gzip', '-6', '-c'], ['gzip', '-dc'], 'gz'),
    'zstd': (['zstd', '-3', '-q', '-c'], ['zstd', '-dc', '-q'], 'zst'),
    'lz4': (['lz4', '-1', '-q', '-c'], ['lz4', '-dc', '-q'], 'lz4'),
}


def sh(argv, stdout=subprocess.DEVNULL, stdin=None):
    return subprocess.run(argv, stdout=stdout, stdin=stdin, stderr=subprocess.PIPE, check=False)


def timed(argv, stdin_path=None, runs=5):
    """Median wall time (s) and max peak RSS (KiB) of argv, stdout to /dev/null."""
    times, rss = [], 0
    for _ in range(runs):
        fin = open(stdin_path, 'rb') if stdin_path else None
        t0 = time.perf_counter()
        p = subprocess.run(['/usr/bin/time', '-f', '%M'] + argv, stdin=fin, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, check=False)
        dt = time.perf_counter() - t0
        if fin:
            fin.close()
        if p.returncode not in (0, 1):
            raise SystemExit('bench: %s failed (%d): %s' % (' '.join(argv), p.returncode, p.stderr.decode()[-500:]))
        times.append(dt)
        try:
            rss = max(rss, int(p.stderr.decode().strip().splitlines()[-1]))
        except (ValueError, IndexError):
            pass
    return statistics.median(times), rss


def truth_of(path):
    t = {}
    for line in open(path):
        k, _, v = line.strip().partition('=')
        t[k] = int(v)
    return t


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument('--build', default=os.path.join(root, 'build-rel'), help='meson build dir (release)')
    ap.add_argument('--size', type=int, default=200, help='segment size in MiB')
    ap.add_argument('--codecs', default='none,zstd')
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--workdir', default='/tmp/segscan-bench')
    ap.add_argument('--out', default=os.path.join(root, 'bench', 'results.txt'))
    a = ap.parse_args()

    segscan = os.path.join(a.build, 'src', 'cli', 'segscan')
    gen = os.path.join(a.build, 'bench', 'gen-segment')
    for p in (segscan, gen):
        if not os.access(p, os.X_OK):
            raise SystemExit('bench: %s missing; build first: meson setup %s --buildtype=release && ninja -C %s'
                             % (p, a.build, a.build))
    os.makedirs(a.workdir, exist_ok=True)
    rows = []
    for codec in a.codecs.split(','):
        seg = os.path.join(a.workdir, '%s.log' % codec)
        raw = os.path.join(a.workdir, '%s.records' % codec)
        truth_path = os.path.join(a.workdir, '%s.truth' % codec)
        if not os.path.exists(truth_path):
            r = sh([gen, '--out', seg, '--codec', codec, '--size', str(a.size << 20), '--raw', raw,
                    '--truth', truth_path])
            if r.returncode:
                raise SystemExit('bench: gen-segment failed: %s' % r.stderr.decode())
        truth = truth_of(truth_path)
        size = os.path.getsize(seg)

        # findings first: dump --json must see every record and no damage
        p = subprocess.run([segscan, 'dump', '--json', seg], stdout=subprocess.PIPE, check=False)
        nrec = p.stdout.count(b'"type":"record"')
        end = json.loads(p.stdout.rstrip(b'\n').rsplit(b'\n', 1)[-1])
        valid = p.returncode == 0 and nrec == truth['records'] and end.get('damagedBytes') == 0
        if not valid:
            print('bench: INVALID: dump --json saw %d records (truth %d), exit %d' % (nrec, truth['records'],
                                                                                  p.returncode))

        sh(['cat', seg])  # warm the page cache
        t_cat, rss_cat = timed(['cat', seg], runs=a.runs)
        rows.append((codec, 'cat FILE', size, truth['records'], t_cat, rss_cat, t_cat, None))
        t_cli = None
        if codec in CLI and shutil.which(CLI[codec][0][0]):
            comp, dec, ext = CLI[codec]
            cfile = raw + '.' + ext
            if not os.path.exists(cfile):
                with open(raw, 'rb') as fin, open(cfile, 'wb') as fout:
                    subprocess.run(comp, stdin=fin, stdout=fout, check=True)
            t_cli, rss = timed(dec + [cfile], runs=a.runs)
            rows.append((codec, ' '.join(dec) + ' (same records)', size, truth['records'], t_cli, rss, t_cat, None))
        t, rss = timed([segscan, 'dump', '--json', seg], runs=a.runs)
        rows.append((codec, 'segscan dump --json' + ('' if valid else ' INVALID'), size, truth['records'], t, rss,
                     t_cat, t_cli))

    lines = ['segscan benchmark  %s  %s  (%d runs, median, warm cache; MB = 10^6 bytes)'
             % (time.strftime('%Y-%m-%d %H:%M'), os.uname().nodename, a.runs),
             'cpus: %d' % os.cpu_count(),
             '%-6s %-40s %9s %9s %12s %9s %9s %9s' % ('codec', 'command', 'seconds', 'MB/s', 'records/s',
                                                      'x cat', 'x cli', 'RSS MiB')]
    for codec, cmd, size, recs, t, rss, t_cat, t_cli in rows:
        lines.append('%-6s %-40s %9.3f %9.1f %12.0f %9.2f %9s %9.1f' % (
            codec, cmd, t, size / t / 1e6, recs / t, t / t_cat, '%.2f' % (t / t_cli) if t_cli else '-',
            rss / 1024))
    text = '\n'.join(lines) + '\n'
    sys.stdout.write(text)
    with open(a.out, 'w') as f:
        f.write(text)
    print('written to %s' % a.out)


if __name__ == '__main__':
    main()
