#!/usr/bin/env python3
"""segscan benchmark (run by hand, not by the test suite).

Generates standard-profile segments with bench/gen-segment (ground truth beside
each), checks segscan's findings against that truth, then times, warm page
cache, the median of --runs runs (and the best), with peak RSS (/usr/bin/time
%M: file pages mapped by the process included). The rows of a section (one
codec's file, its 4-partition directory, the diffs, the 1 GiB file) are run in
rounds, each row once a round in turn, so that a slow minute of the host hits
them all alike and the ratios between them hold:

  per codec (none, gzip, snappy, lz4, zstd), on one ~--size MiB segment:
    cat FILE                      the floor: reading the bytes
    <codec CLI> -dc RECORDS       the codec's own speed on the same records (the
                                  segment's uncompressed record sections, retried
                                  batches included, compressed as one file by the CLI
                                  at the level gen-segment used; snappy: bench/snappy-cli)
    floor: ...                    bench/floor, one thread: what reading (as the scan
                                  reads) + CRC, + decompressing every batch, + decoding
                                  every record, + XXH3 of every value cost alone
    segscan dump --json FILE
    segscan FILE                  the default scan (CRC, fingerprints, sessions), with
                                  --threads 1 and the default (one per online CPU)
    segscan dups FILE             --threads 1 and the default
    segscan export --fingerprints the Parquet export (its time against the scan's, and
                                  its file's bytes per record)
  and on a log directory of 4 partitions holding the same bytes in all
    cat, segscan --threads 1 and the default
  uncompressed only:
    a --big MiB single segment (1024: the 1 GiB target): cat, segscan --threads 1 and the default
    --parts small partitions (4,000) of one --part-bytes segment each (29,000 bytes; seeds 7, 8,
    ...): cat of the same files, segscan --threads 1, the default, dups
    segscan diff --by offset FULL CUT    a follower's copy with its tail cut (same seed, 90%)
    segscan diff FULL MIRROR              a mirror at shifted offsets (content mode)
    the same two on the 4-partition directory

A row whose findings differ from the truth (records, duplicate groups and
records from --report; for diff the records only in A, or 'identical') is
marked INVALID: it is not a result. Before each round it waits (--wait-quiet
seconds at most) until the CPU is idle, and says per row how idle it was (a
busy machine makes every wall-clock figure worse; the CPU seconds are shown
too).

Memory, like the page cache, is warmed (--memory warm, the default): before
each run `bench/floor --touch 512` maps, touches and frees 512 MiB, so that
the pages the run is given are backed already. On a VM whose host takes freed
guest memory back (free page reporting: here from about 2 to 10 s after it is
freed), a process's first touch of fresh memory otherwise costs ~2 ms per MiB,
30x the kernel's zeroing, and a run's time depends on how long ago the previous
one freed its memory. --memory cold pauses 15 s before each run instead (every
page costs its first touch; slow), --memory asis does neither. Below the 1 GiB rows a row
times that first touch alone, cold, for the scan's peak RSS. One table is printed and written to --out with the speed targets
checked against it.

--compare OLD_BUILD times the scan, export and floor rows with that build's segscan
and bench/floor as well, each twin right before or after its row (in turns),
so both meet the same minutes of the host, and ends the table with new/old.

usage: bench/bench.py [--build DIR] [--size MiB] [--big MiB] [--codecs none,gzip,...]
                      [--runs N] [--workdir DIR] [--out FILE] [--skip-big] [--skip-diff]
                      [--parts N] [--part-bytes BYTES] [--skip-many]
                      [--wait-quiet SECONDS] [--memory warm|cold|asis] [--compare OLD_BUILD]
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

# bench/floor depths: reading as the analysis does + CRC, + decompression, + record decoding, + XXH3
FLOORS = [('walk', 'read+crc'), ('decompress', '+decompress'), ('records', '+decode'), ('hash', '+xxh3')]

CLI = {  # codec -> (compress argv, decompress argv, extension); snappy: bench/snappy-cli
    'gzip': (['gzip', '-6', '-c'], ['gzip', '-dc'], 'gz'),
    'zstd': (['zstd', '-3', '-q', '-c'], ['zstd', '-dc', '-q'], 'zst'),
    'lz4': (['lz4', '-1', '-q', '-c'], ['lz4', '-dc', '-q'], 'lz4'),
}
JAVA_240MB = (0.75, 1.15)   # seconds: Kafka's Java reader iterating 240 MB uncompressed
MB = 1e6


def loadavg():
    try:
        return open('/proc/loadavg').read().split()[:3]
    except OSError:
        return ['?'] * 3


def cpu_idle(seconds=0.5):
    """Share of the machine's CPU time that was idle over the next `seconds` (/proc/stat)."""
    def sample():
        f = open('/proc/stat').readline().split()[1:]
        v = [int(x) for x in f]
        return sum(v), v[3] + (v[4] if len(v) > 4 else 0)
    t0, i0 = sample()
    time.sleep(seconds)
    t1, i1 = sample()
    return (i1 - i0) / (t1 - t0) if t1 > t0 else 1.0


def wait_quiet(limit):
    """Wait (at most `limit` seconds) until nothing else uses the CPU; the idle share last seen."""
    end = time.time() + limit
    idle = cpu_idle()
    while idle < 0.95 and time.time() < end:
        idle = cpu_idle(1.0)
    return idle


def stale(path, source):
    """path is missing, or older than the file it is made from (a segment generated again)."""
    return not os.path.exists(path) or os.path.getmtime(path) < os.path.getmtime(source)


def timed_once(argv, stdout=subprocess.DEVNULL):
    """One run: wall seconds, CPU seconds (user + system) or None, peak RSS (KiB)."""
    t0 = time.perf_counter()
    p = subprocess.run(['/usr/bin/time', '-f', '%U %S %M'] + argv, stdout=stdout, stderr=subprocess.PIPE, check=False)
    wall = time.perf_counter() - t0
    if p.returncode not in (0, 1):
        raise SystemExit('bench: %s failed (%d): %s' % (' '.join(argv), p.returncode, p.stderr.decode()[-500:]))
    try:
        u, s, m = p.stderr.decode().strip().splitlines()[-1].split()
        return wall, float(u) + float(s), int(m)
    except (ValueError, IndexError):
        return wall, None, 0


def truth_of(path):
    t = {}
    for line in open(path):
        k, _, v = line.strip().partition('=')
        t[k] = int(v)
    return t


def add_truths(ts):
    out = {}
    for t in ts:
        for k, v in t.items():
            out[k] = out.get(k, 0) + v
    return out


def report_of(path):
    r = {}
    for line in open(path):
        k, _, v = line.strip().partition('=')
        try:
            r[k] = int(v)
        except ValueError:
            pass
    return r


class Bench:
    def __init__(self, a):
        self.a = a
        self.segscan = os.path.join(a.build, 'src', 'cli', 'segscan')
        self.gen = os.path.join(a.build, 'bench', 'gen-segment')
        self.snappy = os.path.join(a.build, 'bench', 'snappy-cli')
        self.floor = os.path.join(a.build, 'bench', 'floor')
        # --compare: the scan and floor rows run with the other build's binaries too
        self.old = {}
        if a.compare:
            self.old = {self.segscan: os.path.join(a.compare, 'src', 'cli', 'segscan'),
                        self.floor: os.path.join(a.compare, 'bench', 'floor')}
        self.rows = []
        self.queued = []
        self.notes = []

    def truth_path(self, path):
        """Beside the inputs, not in a partition directory (where it would be a stray file)."""
        d = os.path.join(self.a.workdir, 'truth')
        os.makedirs(d, exist_ok=True)
        return os.path.join(d, os.path.relpath(path, self.a.workdir).replace('/', '_') + '.truth')

    def gen_file(self, path, codec, size, seed, raw=None, base=None):
        truth = self.truth_path(path)
        if not os.path.exists(truth):
            argv = [self.gen, '--out', path, '--codec', codec, '--size', str(size), '--seed', str(seed),
                    '--truth', truth]
            if raw:
                argv += ['--raw', raw]
            if base is not None:
                argv += ['--base-offset', str(base)]
            r = subprocess.run(argv, stderr=subprocess.PIPE, check=False)
            if r.returncode:
                raise SystemExit('bench: gen-segment failed: %s' % r.stderr.decode())
        return truth_of(truth)

    def check_scan(self, paths, truth, extra=()):
        """segscan's findings against the truth: records, duplicate groups, duplicate records."""
        rep = os.path.join(self.a.workdir, 'report.txt')
        p = subprocess.run([self.segscan, '--report', rep, '--progress', 'never'] + list(extra) + paths,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
        r = report_of(rep) if os.path.exists(rep) else {}
        got = (r.get('total.records'), r.get('total.duplicate_groups'), r.get('total.duplicate_records'))
        want = (truth['records'], truth['duplicate_groups'], truth['duplicate_records'])
        ok = p.returncode == 0 and got == want and r.get('total.damaged_bytes') == 0
        if not ok:
            self.notes.append('INVALID: %s: records/groups/dup records %s, truth %s (exit %d)'
                              % (' '.join(paths), got, want, p.returncode))
        return ok

    def memory(self, mode=None):
        """Before a run: warm memory (touched and freed, so backed by the host) or cold (freed pages returned)."""
        mode = mode or self.a.memory
        if mode == 'warm':
            subprocess.run([self.floor, '--touch', '512'], stdout=subprocess.DEVNULL, check=False)
        elif mode == 'cold':
            time.sleep(15)

    def row(self, codec, inp, cmd, argv, size, records, cat=None, cli=None, valid=True, memory=None):
        """A row to time at the next measure(); cat, cli: the rows its ratios are to (measured with it or before)."""
        r = dict(codec=codec, input=inp, cmd=cmd + ('' if valid else ' INVALID'), argv=argv, size=size,
                 records=records, cat=cat, cli=cli, valid=valid, memory=memory, walls=[], cpus=[], rss=0)
        self.rows.append(r)
        self.queued.append(r)
        if argv[0] in self.old and (cmd.startswith('floor: ') or cmd in ('segscan', 'segscan --threads 1') or
                                    cmd.startswith('segscan --from-offset') or cmd.startswith('segscan export')):
            # an export's twin writes a file of its own (the row's file is measured after)
            targv = [a + '.old.parquet' if a.endswith('.parquet') else a for a in argv[1:]]
            twin = dict(r, cmd=r['cmd'] + ' [old]', argv=[self.old[argv[0]]] + targv, walls=[], cpus=[],
                        twin_of=r)
            r['twin'] = twin
            self.rows.append(twin)
            self.queued.append(twin)
        return r

    def table_model(self, truth):
        """bench/floor --table for the segment's fingerprints and share of repeats: the inserts of the
        analysis's fingerprint table alone (a model; its memory touched first), median CPU seconds of 5."""
        n = truth['records']
        pct = round(100 * truth['duplicate_records'] / n) if n else 0
        secs = []
        for _ in range(5):
            wait_quiet(self.a.wait_quiet)
            self.memory('warm')
            p = subprocess.run([self.floor, '--table', str(n), '--repeats', str(min(pct, 90))],
                               stdout=subprocess.PIPE, check=False)
            f = p.stdout.decode().split()
            if p.returncode == 0 and len(f) > 1:
                secs.append(float(f[1]))
        return dict(n=n, pct=pct, secs=statistics.median(secs)) if secs else None

    def measure(self):
        """Time the rows queued since the last call, --runs rounds, each round running every row once in
        turn: the host's speed drifts from minute to minute on a VM, and this way all the rows of a section
        (and their ratios) meet the same minutes. A row's figures are the medians of its runs."""
        rows, self.queued = self.queued, []
        for k in range(self.a.runs):
            idle = wait_quiet(self.a.wait_quiet)
            # a row and its --compare twin run one after the other, in turns first
            order = []
            for r in rows:
                if 'twin_of' in r:
                    continue
                order += [r, r['twin']] if 'twin' in r and k % 2 == 0 else [r['twin'], r] if 'twin' in r else [r]
            for r in order:
                r['idle'] = min(r.get('idle', 1.0), idle)
                self.memory(r['memory'])
                wall, cpu, rss = timed_once(r['argv'])
                r['walls'].append(wall)
                if cpu is not None:
                    r['cpus'].append(cpu)
                r['rss'] = max(r['rss'], rss)
        for r in rows:
            r['wall'] = statistics.median(r['walls'])
            r['best'] = min(r['walls'])
            r['cpu'] = statistics.median(r['cpus']) if r['cpus'] else 0.0
        for r in rows:
            r['x_cat'] = r['wall'] / r['cat']['wall'] if r['cat'] else None
            r['x_cli'] = r['wall'] / r['cli']['wall'] if r['cli'] else None

    def run(self):
        a = self.a
        os.makedirs(a.workdir, exist_ok=True)
        size = a.size << 20
        self.load0 = loadavg()
        results = {}
        for codec in a.codecs.split(','):
            seg = os.path.join(a.workdir, '%s.log' % codec)
            raw = os.path.join(a.workdir, '%s.records' % codec)
            truth = self.gen_file(seg, codec, size, 1, raw=raw)
            fsize = os.path.getsize(seg)
            recs = truth['records']
            valid = self.check_scan([seg], truth)
            subprocess.run(['cat', seg], stdout=subprocess.DEVNULL, check=False)  # warm the page cache
            cat = self.row(codec, 'file', 'cat FILE', ['cat', seg], fsize, recs)
            cli = None
            if codec in CLI and shutil.which(CLI[codec][0][0]):
                comp, dec, ext = CLI[codec]
                cfile = raw + '.' + ext
                if stale(cfile, raw):
                    with open(raw, 'rb') as fin, open(cfile, 'wb') as fout:
                        subprocess.run(comp, stdin=fin, stdout=fout, check=True)
                cli = self.row(codec, 'file', ' '.join(dec) + ' RECORDS', dec + [cfile], fsize, recs, cat)
            elif codec == 'snappy' and os.access(self.snappy, os.X_OK):
                cfile = raw + '.sz'
                if stale(cfile, raw):
                    with open(cfile, 'wb') as fout:
                        subprocess.run([self.snappy, '-c', raw], stdout=fout, check=True)
                cli = self.row(codec, 'file', 'snappy-cli -d RECORDS', [self.snappy, '-d', cfile], fsize, recs, cat)
            # what the layers under the scan cost alone (bench/floor.c), one thread
            floors = {}
            for depth, what in FLOORS:
                floors[depth] = self.row(codec, 'file', 'floor: ' + what,
                                         [self.floor, seg, '--runs', '1', '--no-warm', '--depth', depth],
                                         fsize, recs, cat, cli)
            self.row(codec, 'file', 'segscan dump --json', [self.segscan, 'dump', '--json', seg], fsize, recs, cat, cli)
            s1 = self.row(codec, 'file', 'segscan --threads 1', [self.segscan, '--threads', '1', seg], fsize, recs, cat,
                          cli, valid)
            sd = self.row(codec, 'file', 'segscan', [self.segscan, seg], fsize, recs, cat, cli, valid)
            # a window lists less but reads everything (the analysis knows the whole log): about the
            # cost of no window (gen-segment's offsets run from 0 without holes)
            lo, hi = recs * 45 // 100, recs * 55 // 100
            self.row(codec, 'file', 'segscan --from-offset (the middle 10%)',
                     [self.segscan, '--from-offset', str(lo), '--to-offset', str(hi), seg], fsize, recs, cat, cli)
            self.row(codec, 'file', 'segscan dups --threads 1', [self.segscan, 'dups', '--threads', '1', seg], fsize,
                     recs, cat, cli, valid)
            self.row(codec, 'file', 'segscan dups', [self.segscan, 'dups', seg], fsize, recs, cat, cli, valid)
            # the Parquet export of every record with its fingerprints (its file: bytes per record)
            xfile = os.path.join(a.workdir, 'export-%s.parquet' % codec)
            xr = self.row(codec, 'file', 'segscan export --fingerprints',
                          [self.segscan, 'export', '--fingerprints', '-q', '-o', xfile, seg], fsize, recs, cat, cli)
            self.measure()
            xbytes = os.path.getsize(xfile) if os.path.exists(xfile) else 0
            # a log directory of 4 partitions holding the same bytes in all
            d = os.path.join(a.workdir, 'dir-%s' % codec)
            parts = []
            truths = []
            for i in range(4):
                pd = os.path.join(d, 'bench-%d' % i)
                os.makedirs(pd, exist_ok=True)
                p = os.path.join(pd, '%020d.log' % 0)
                truths.append(self.gen_file(p, codec, size // 4, 11 + i))
                parts.append(p)
            dtruth = add_truths(truths)
            dsize = sum(os.path.getsize(p) for p in parts)
            dvalid = self.check_scan([d], dtruth)
            subprocess.run(['cat'] + parts, stdout=subprocess.DEVNULL, check=False)
            dcat = self.row(codec, 'dir4', 'cat FILES', ['cat'] + parts, dsize, dtruth['records'])
            d1 = self.row(codec, 'dir4', 'segscan --threads 1', [self.segscan, '--threads', '1', d], dsize,
                          dtruth['records'], dcat, None, dvalid)
            dd = self.row(codec, 'dir4', 'segscan', [self.segscan, d], dsize, dtruth['records'], dcat, None, dvalid)
            self.measure()
            results[codec] = dict(floors={k: v['wall'] for k, v in floors.items()}, t_cat=cat['wall'],
                                  t_cli=cli['wall'] if cli else None, s1=s1['wall'], s1_best=s1['best'],
                                  sd=sd['wall'], rss1=s1['rss'], rssd=sd['rss'], d1=d1['wall'], dd=dd['wall'],
                                  recs=recs, truth=truth, fsize=fsize, valid=valid and dvalid, export=xr['wall'],
                                  export_bytes=xbytes)
            if codec == 'none':
                results[codec]['table'] = self.table_model(truth)
                if not a.skip_diff:
                    self.diff_rows(seg, truth, d, parts, cat, size)
        if not a.skip_many and 'none' in a.codecs.split(','):
            results['many'] = self.many_rows()
        if not a.skip_big and 'none' in a.codecs.split(','):
            big = os.path.join(a.workdir, 'none-big.log')
            btruth = self.gen_file(big, 'none', a.big << 20, 1)
            bsize = os.path.getsize(big)
            bvalid = self.check_scan([big], btruth)
            subprocess.run(['cat', big], stdout=subprocess.DEVNULL, check=False)
            bcat = self.row('none', 'big', 'cat FILE', ['cat', big], bsize, btruth['records'])
            b1 = self.row('none', 'big', 'segscan --threads 1', [self.segscan, '--threads', '1', big], bsize,
                          btruth['records'], bcat, None, bvalid)
            bd = self.row('none', 'big', 'segscan', [self.segscan, big], bsize, btruth['records'], bcat, None, bvalid)
            self.measure()
            mib = max(1, bd['rss'] // 1024)
            touch = self.row('none', 'big', 'floor: touch %d MiB, cold' % mib, [self.floor, '--touch', str(mib)],
                             bsize, btruth['records'], bcat, None, True, memory='cold')
            self.measure()
            results['big'] = dict(t_cat=bcat['wall'], s1=b1['wall'], sd=bd['wall'], sd_best=bd['best'],
                                  rssd=bd['rss'], size=bsize, truth=btruth, valid=bvalid, touch=touch['cpu'],
                                  touch_mib=mib)
        self.load1 = loadavg()
        return results

    def many_rows(self):
        """A log directory of --parts small partitions, one segment each (distinct records: every
        partition has a seed of its own): what a broker with thousands of quiet partitions holds, where
        the cost per file and per partition counts, not the cost per byte."""
        a = self.a
        d = os.path.join(a.workdir, 'many-%d' % a.parts)
        files, truths = [], []
        for i in range(a.parts):
            pd = os.path.join(d, 'many-%d' % i)
            os.makedirs(pd, exist_ok=True)
            p = os.path.join(pd, '%020d.log' % 0)
            truths.append(self.gen_file(p, 'none', a.part_bytes, 7 + i))
            files.append(p)
        truth = add_truths(truths)
        size = sum(os.path.getsize(p) for p in files)
        recs = truth['records']
        valid = self.check_scan([d], truth)
        subprocess.run(['cat'] + files, stdout=subprocess.DEVNULL, check=False)  # warm the page cache
        what = '%d partitions' % a.parts
        cat = self.row('none', 'many', 'cat FILES (%s)' % what, ['cat'] + files, size, recs)
        s1 = self.row('none', 'many', 'segscan --threads 1', [self.segscan, '--threads', '1', d], size, recs, cat,
                      None, valid)
        sd = self.row('none', 'many', 'segscan', [self.segscan, d], size, recs, cat, None, valid)
        self.row('none', 'many', 'segscan dups', [self.segscan, 'dups', d], size, recs, cat, None, valid)
        self.measure()
        return dict(t_cat=cat['wall'], s1=s1['wall'], sd=sd['wall'], rssd=sd['rss'], truth=truth, valid=valid,
                    parts=a.parts, size=size)

    def diff_rows(self, seg, truth, d, parts, cat, size):
        """A follower's copy with its tail cut (offset mode) and a mirror at shifted offsets (content mode)."""
        a = self.a
        cut = os.path.join(a.workdir, 'none-cut.log')
        ctruth = self.gen_file(cut, 'none', size * 9 // 10, 1)
        mirror = os.path.join(a.workdir, 'none-mirror.log')
        self.gen_file(mirror, 'none', size, 1, base=1000000000)
        dcut = os.path.join(a.workdir, 'dir-none-cut')
        cut_records = 0
        for i, p in enumerate(parts):
            pd = os.path.join(dcut, 'bench-%d' % i)
            os.makedirs(pd, exist_ok=True)
            cut_records += truth_of(self.truth_path(p))['records'] - \
                self.gen_file(os.path.join(pd, '%020d.log' % 0), 'none', size // 4 * 9 // 10, 11 + i)['records']
        fsize = os.path.getsize(seg)
        dsize = sum(os.path.getsize(p) for p in parts)

        def check(argv, want_only_a, identical):
            p = subprocess.run([self.segscan, 'diff', '--json', '--stat'] + argv, stdout=subprocess.PIPE,
                               check=False)
            sums = [l for l in p.stdout.decode().splitlines() if '"type":"summary"' in l]
            only_a = sum(int(re.search(r'"onlyInA":(\d+)', l).group(1)) for l in sums)
            ok = bool(sums) and (all('"identical":true' in l for l in sums) if identical else only_a == want_only_a)
            if not ok:
                self.notes.append('INVALID: diff %s: onlyInA %d, want %s' % (' '.join(argv), only_a,
                                                                           'identical' if identical else want_only_a))
            return ok

        for inp, argv, want, ident, sz in (
                ('file', ['--by', 'offset', seg, cut], truth['records'] - ctruth['records'], False, fsize),
                ('file', [seg, mirror], 0, True, fsize),
                ('dir4', ['--by', 'offset', d, dcut], cut_records, False, dsize)):
            ok = check(argv, want, ident)
            mode = 'offset, tail cut' if '--by' in argv else 'content, mirror'
            self.row('none', inp, 'segscan diff (%s)' % mode, [self.segscan, 'diff', '--stat'] + argv, sz,
                     truth['records'], cat if inp == 'file' else None, None, ok)
        self.measure()

    def table(self, results):
        a = self.a
        lines = ['segscan benchmark  %s  %s  (%d rounds, every row of a section once a round in turn; '
                 'median, and the best run; warm page cache; MB = 10^6 bytes)'
                 % (time.strftime('%Y-%m-%d %H:%M'), os.uname().nodename, a.runs),
                 'cpus: %d (default --threads); load average before %s, after %s'
                 % (os.cpu_count(), ' '.join(self.load0), ' '.join(self.load1))]
        # before each round the benchmark waits (--wait-quiet) until the CPU is >= 95% idle
        loud = [r for r in self.rows if r['idle'] < 0.95]
        if loud:
            lines.append('machine: NOT quiet: %d of %d rows began while other work used the CPU (idle share '
                         'before them marked *)' % (len(loud), len(self.rows)))
        else:
            lines.append('machine: quiet (every row began with the CPU >= 95% idle)')
        lines.append({'warm': 'memory: warm (before each run 512 MiB were touched and freed: the run\'s pages are '
                              'backed by the host already)',
                      'cold': 'memory: cold (15 s pause before each run: the host has taken freed memory back, every '
                              'page costs its first touch)',
                      'asis': 'memory: as is (no control; runs that follow one another reuse each other\'s pages)'}
                     [a.memory])
        lines.append('%-6s %-5s %-34s %8s %8s %8s %8s %12s %7s %7s %8s %5s' % (
            'codec', 'input', 'command', 'seconds', 'best s', 'cpu s', 'MB/s', 'records/s', 'x cat', 'x cli',
            'RSS MiB', 'idle'))
        for r in self.rows:
            lines.append('%-6s %-5s %-34s %8.3f %8.3f %8.3f %8.1f %12.0f %7s %7s %8.1f %4.0f%%%s' % (
                r['codec'], r['input'], r['cmd'], r['wall'], r['best'], r['cpu'], r['size'] / r['wall'] / MB,
                r['records'] / r['wall'], '%.2f' % r['x_cat'] if r['x_cat'] else '-',
                '%.2f' % r['x_cli'] if r['x_cli'] else '-', r['rss'] / 1024, 100 * r['idle'],
                ' *' if r in loud else ''))
        lines += [''] + self.notes
        lines += ['', 'targets (the default scan of a ~200 MB segment, default threads):']

        def target(ok, text):
            lines.append('  [%s] %s' % ('met' if ok else 'NOT met', text))

        for codec, limit, versus in (('none', 4.0, 't_cat'), ('zstd', 1.5, 't_cli')):
            if codec in results and results[codec][versus]:
                r = results[codec]
                dump = next((x['wall'] for x in self.rows if x['codec'] == codec and x['input'] == 'file'
                             and x['cmd'] == 'segscan dump --json'), None)
                target(r['valid'] and r['sd'] <= limit * r[versus],
                       '%s: %.3f s = %.2fx %s (%.3f s), %.2fx dump --json (%.3f s), %.0f MB/s; target <= %.1fx %s'
                       % (codec, r['sd'], r['sd'] / r[versus], 'cat' if versus == 't_cat' else 'zstd -dc',
                          r[versus], r['sd'] / dump if dump else 0, dump or 0, r['fsize'] / r['sd'] / MB, limit,
                          'cat' if versus == 't_cat' else 'zstd -dc'))
        if lines[-1].startswith('targets (the default scan'):
            del lines[-2:]  # neither codec was measured
        lines += ['', 'targets (export --fingerprints, against the default scan of the same segment):']
        for codec, r in results.items():
            if 'export' in r:
                target(r['export'] <= 1.5 * r['sd'], '%s: %.3f s = %.2fx the scan (%.3f s); target <= 1.5x'
                       % (codec, r['export'], r['export'] / r['sd'], r['sd']))
                target(0 < r['export_bytes'] <= 36 * r['recs'], '%s: %d bytes for %d records = %.1f bytes a record; '
                       'target <= 36' % (codec, r['export_bytes'], r['recs'], r['export_bytes'] / r['recs']))
        lines += ['', 'targets (large inputs, memory, threads):']

        if 'many' in results:
            m = results['many']
            target(m['valid'] and m['sd'] <= 2 * m['t_cat'], '%d partitions of %.0f KB, default threads: %.3f s = %.2fx '
                   'cat of the same files (%.3f s); target <= 2x' % (m['parts'], m['size'] / m['parts'] / 1e3, m['sd'],
                                                                   m['sd'] / m['t_cat'], m['t_cat']))
        if 'big' in results:
            b = results['big']
            target(b['valid'] and b['sd'] <= 4 * b['t_cat'], 'uncompressed %.0f MiB, default threads: %.3f s = %.2fx cat '
                   '(%.3f s); target <= 4x' % (b['size'] / 2**20, b['sd'], b['sd'] / b['t_cat'], b['t_cat']))
            lines.append('        fresh memory: the scan\'s peak RSS (%d MiB) first touched cold takes %.3f s CPU here '
                         '(bench/floor --touch)' % (b['touch_mib'], b['touch']))
            j = [x * b['size'] / 240e6 for x in JAVA_240MB]
            target(b['sd'] * 10 <= j[0], 'vs Kafka\'s Java reader scaled to the same bytes (%.2f-%.2f s): %.1f-%.1fx '
                   'faster; target >= 10x' % (j[0], j[1], j[0] / b['sd'], j[1] / b['sd']))
        if 'none' in results:
            r = results['none']
            f = r['floors']
            target(r['valid'] and r['sd'] <= 2.0 * r['t_cat'], 'none, default threads: %.3f s = %.2fx cat (%.3f s); '
                   'target <= 2.0x' % (r['sd'], r['sd'] / r['t_cat'], r['t_cat']))
            target(r['valid'] and r['s1'] <= 1.15 * f['hash'], 'none, one thread: %.3f s = %.2fx the floor '
                   '(read+CRC+decode+XXH3, %.3f s); target <= 1.15x' % (r['s1'], r['s1'] / f['hash'], f['hash']))
            t = r.get('table')
            if t:
                lines.append('        the fingerprint table\'s inserts alone (bench/floor --table %d --repeats %d, a model, '
                             'memory touched first): %.3f s = %.0f%% of the floor; the target leaves %.3f s for the '
                             'whole analysis' % (t['n'], t['pct'], t['secs'], 100 * t['secs'] / f['hash'],
                                                 0.15 * f['hash']))
        for codec in ('zstd', 'gzip'):
            if codec in results and results[codec]['t_cli']:
                r = results[codec]
                target(r['valid'] and r['s1'] <= 1.15 * r['t_cli'], '%s, one thread: %.3f s = %.2fx the CLI (%.3f s); '
                       'target <= 1.15x' % (codec, r['s1'], r['s1'] / r['t_cli'], r['t_cli']))
                f = r['floors']
                lines.append('        floor: batches decompressed alone %.3f s = %.2fx the CLI; with record decoding '
                             'and XXH3 %.3f s = %.2fx' % (f['decompress'], f['decompress'] / r['t_cli'], f['hash'],
                                                         f['hash'] / r['t_cli']))
                target(r['valid'] and r['d1'] >= 1.7 * r['dd'], '%s, 4 partitions: --threads 1 %.3f s, default %.3f s: '
                       '%.2fx faster; target >= 1.7x' % (codec, r['d1'], r['dd'], r['d1'] / r['dd']))
        for codec in ('lz4', 'snappy'):
            if codec in results:
                r = results[codec]
                rate = r['recs'] / r['s1']
                target(r['valid'] and rate >= 8e6, '%s, one thread: %.2f M records/s (best run %.2f M); target >= 8 M '
                       'records/s per thread' % (codec, rate / 1e6, r['recs'] / r['s1_best'] / 1e6))
                f = r['floors']
                lines.append('        floor: read+CRC+decompress+decode+XXH3 alone %.2f M records/s (%.0f ns a record); '
                             'the analysis adds %.0f ns a record' % (r['recs'] / f['hash'] / 1e6, f['hash'] / r['recs'] * 1e9,
                                                                    (r['s1'] - f['hash']) / r['recs'] * 1e9))
        for rr in self.rows:
            if rr['codec'] == 'none' and rr['input'] == 'file' and rr['cmd'] == 'segscan dump --json':
                mbs = rr['size'] / rr['wall'] / MB
                target(mbs >= 300, 'dump --json, uncompressed: %.0f MB/s; target >= 300 MB/s' % mbs)
        for codec, r in results.items():
            t = r['truth']
            distinct = t['records'] - t['duplicate_records']
            limit = 96 * 2**20 + 48 * distinct
            rss = r['rssd'] * 1024
            target(rss < limit, '%s peak RSS of the scan: %.1f MiB; target < 96 MiB + 48 B x %d distinct = %.1f MiB'
                   % ({'big': 'none (big)', 'many': 'none (%d partitions)' % a.parts}.get(codec, codec),
                      rss / 2**20, distinct, limit / 2**20))
        pairs = [r for r in self.rows if 'twin' in r]
        if pairs:
            lines += ['', '--compare: new/old of the median seconds, each row and its old twin run in turns in '
                      'every round (new: %s, old: %s)' % (a.build, a.compare)]
            ratios = []
            for r in pairs:
                o = r['twin']
                ratios.append(r['wall'] / o['wall'])
                lines.append('  %-6s %-5s %-22s old %7.3f  new %7.3f  new/old %.3f   runs old %s | new %s' % (
                    r['codec'], r['input'], r['cmd'], o['wall'], r['wall'], ratios[-1],
                    ' '.join('%.3f' % w for w in o['walls']), ' '.join('%.3f' % w for w in r['walls'])))
            lines.append('  new/old over the %d rows: median %.3f, min %.3f, max %.3f' % (
                len(ratios), statistics.median(ratios), min(ratios), max(ratios)))
        return '\n'.join(lines) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument('--build', default=os.path.join(root, 'build-rel'), help='meson build dir (release)')
    ap.add_argument('--size', type=int, default=200, help='segment size in MiB (the 4-partition directory: the same '
                                                          'in all)')
    ap.add_argument('--big', type=int, default=1024, help='the large uncompressed segment, MiB')
    ap.add_argument('--codecs', default='none,gzip,snappy,lz4,zstd')
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--workdir', default='/tmp/segscan-bench')
    ap.add_argument('--out', default=os.path.join(root, 'bench', 'results.txt'))
    ap.add_argument('--skip-big', action='store_true')
    ap.add_argument('--skip-diff', action='store_true')
    ap.add_argument('--parts', type=int, default=4000, help='small partitions in the many-partitions directory')
    ap.add_argument('--part-bytes', type=int, default=29000, help='bytes of each small partition\'s segment')
    ap.add_argument('--skip-many', action='store_true', help='no many-partitions rows')
    ap.add_argument('--wait-quiet', type=float, default=300, help='seconds to wait before each round for the CPU to '
                                                                   'be idle (other work running)')
    ap.add_argument('--compare', metavar='OLD_BUILD', help='another build dir: its segscan and bench/floor run the '
                    'scan and floor rows too, in turns with this build\'s, and the table ends with new/old')
    ap.add_argument('--memory', choices=('warm', 'cold', 'asis'), default='warm',
                    help='before each run: touch and free 512 MiB (warm), pause 15 s (cold), or nothing (asis)')
    a = ap.parse_args()
    b = Bench(a)
    for p in (b.segscan, b.gen):
        if not os.access(p, os.X_OK):
            raise SystemExit('bench: %s missing; build first: meson setup %s --buildtype=release && ninja -C %s'
                             % (p, a.build, a.build))
    results = b.run()
    text = b.table(results)
    sys.stdout.write(text)
    with open(a.out, 'w') as f:
        f.write(text)
    print('written to %s' % a.out)


if __name__ == '__main__':
    main()
