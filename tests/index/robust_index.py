#!/usr/bin/env python3
"""`segscan dump` on damaged, odd and missing index / snapshot files (Python 3 standard library only).

Usage: robust_index.py SEGSCAN ROOT

ROOT is the corpus folder (testdata/corpus); one segment of it (gen/txn-abort) is copied to a private
temporary directory, and crafted files are written beside it: odd sizes, a 10 MB zero-filled
preallocated .index and .timeindex (next to the segment, and next to an empty active segment), empty
files, a missing .index beside a .timeindex, a directory named like an index, names without an
offset or without a dot, a snapshot with a bad CRC and a truncated one, a transaction index with an
unknown version. For each case segscan must not crash (no signal), must exit with the expected code
and print the expected lines, and must leave the directory exactly as it was (names, sizes, mtimes):
nothing created, nothing written. When strace is installed, every run is traced and must not open any
file for writing or creating.

Prints `ok`/`FAIL` per case and a summary; exits 1 when anything failed.
"""

import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import kafka
import harness

SEG = 'gen/txn-abort/txn-0'
WRITE_OPEN = re.compile(r'open(at)?\(.*(O_WRONLY|O_RDWR|O_CREAT|O_TRUNC)')


def snapshot(entries, version=1):
    body = struct.pack('>i', len(entries)) + b''.join(struct.pack('>qhiqiqiq', *e) for e in entries)
    return struct.pack('>hI', version, kafka.crc32c(body)) + body


class Runner:
    def __init__(self, segscan, workdir):
        self.segscan = segscan
        self.workdir = workdir
        self.strace = shutil.which('strace')
        if self.strace:
            # ptrace may be forbidden (containers): then compare directory states only
            probe = subprocess.run([self.strace, '-qq', '-o', os.devnull, 'true'], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
            if probe.returncode != 0:
                self.strace = None
        self.failed = 0
        self.total = 0

    def run(self, args):
        cmd = [self.segscan, 'dump'] + args
        p = subprocess.run(cmd, cwd=self.workdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
        writes = []
        if self.strace:
            # A second, traced run (LeakSanitizer cannot run under ptrace: off for this one).
            fd, trace = tempfile.mkstemp(prefix='segscan-strace-')
            os.close(fd)
            env = dict(os.environ)
            env['ASAN_OPTIONS'] = (env.get('ASAN_OPTIONS', '') + ':detect_leaks=0').lstrip(':')
            subprocess.run([self.strace, '-f', '-qq', '-e', 'trace=open,openat,creat,truncate,ftruncate', '-o',
                            trace] + cmd, cwd=self.workdir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           env=env, timeout=300)
            with open(trace, encoding='utf-8', errors='replace') as f:
                for line in f:
                    if WRITE_OPEN.search(line) or 'creat(' in line or 'truncate(' in line:
                        writes.append(line.strip())
            os.unlink(trace)
        return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace'), writes

    def case(self, name, args, rc, stdout_has=(), stderr_has=(), stdout_is=None):
        self.total += 1
        before = harness.tree_state(self.workdir)
        got_rc, out, err, writes = self.run(args)
        after = harness.tree_state(self.workdir)
        why = None
        if got_rc < 0:
            why = 'killed by signal %d' % -got_rc
        elif got_rc != rc:
            why = 'exit %d, expected %d' % (got_rc, rc)
        elif stdout_is is not None and out != stdout_is:
            why = 'stdout %r, expected %r' % (out[:300], stdout_is[:300])
        elif before != after:
            why = 'the directory changed: %s' % sorted(set(before.items()) ^ set(after.items()))[:4]
        elif writes:
            why = 'opened for writing: %s' % writes[:3]
        else:
            for s in stdout_has:
                if s not in out:
                    why = 'stdout lacks %r' % s
                    break
            for s in stderr_has:
                if why is None and s not in err:
                    why = 'stderr lacks %r' % s
        if why:
            self.failed += 1
            print('FAIL %s: %s\n     stdout: %r\n     stderr: %r' % (name, why, out[:400], err[:400]))
        else:
            print('ok   %s' % name)


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    segscan, root = os.path.abspath(argv[0]), argv[1]
    src = os.path.join(root, SEG)
    work = tempfile.mkdtemp(prefix='segscan-robust-index-')
    try:
        d = os.path.join(work, 'p-0')
        os.mkdir(d)
        for n in ('00000000000000000000.log', '00000000000000000000.txnindex', '00000000000000000009.snapshot'):
            shutil.copyfile(os.path.join(src, n), os.path.join(d, n))
        log_size = os.path.getsize(os.path.join(d, '00000000000000000000.log'))

        def write(name, data):
            with open(os.path.join(d, name), 'wb') as f:
                f.write(data)

        def sparse(name, size):
            with open(os.path.join(d, name), 'wb') as f:
                f.truncate(size)

        # the segment with 10 MB zero-filled preallocated indexes
        sparse('00000000000000000000.index', 10 * 1024 * 1024)
        sparse('00000000000000000000.timeindex', 10485756)
        # an empty active segment with preallocated indexes
        write('00000000000000000100.log', b'')
        sparse('00000000000000000100.index', 10 * 1024 * 1024)
        sparse('00000000000000000100.timeindex', 10485756)
        # odd sizes (no .log beside)
        write('00000000000000000200.index', b'\x00\x00\x00\x01\x00\x00\x00\x00\x07')
        write('00000000000000000200.timeindex', b'\x01' * 13)
        write('00000000000000000200.txnindex', b'\x00' * 35)
        # empty files
        for suf in ('index', 'timeindex', 'txnindex', 'snapshot'):
            write('00000000000000000300.' + suf, b'')
        # a time index whose .index is missing (another partition directory)
        d1 = os.path.join(work, 'p-1')
        os.mkdir(d1)
        for n in ('00000000000000000000.log', '00000000000000000000.timeindex'):
            shutil.copyfile(os.path.join(src, n), os.path.join(d1, n))
        # snapshots: good, bad CRC, truncated, version 2
        good = snapshot([(77, 0, 4, 10, 4, 1700000000000, -1, -1), (78, 1, -1, -1, 0, 1700000000001, 3, 5)])
        write('00000000000000000500.snapshot', good)
        bad = bytearray(good)
        bad[-1] ^= 1
        write('00000000000000000501.snapshot', bytes(bad))
        write('00000000000000000502.snapshot', good[:40])
        write('00000000000000000503.snapshot', struct.pack('>h', 2) + good[2:])
        # transaction index: version 1 in the second entry, then 5 stray bytes
        txn = open(os.path.join(src, '00000000000000000000.txnindex'), 'rb').read()
        write('00000000000000000600.txnindex', txn + b'\x01' + txn[1:] + b'12345')
        # an index entry past the end of the log, and one at the wrong batch
        os.link(os.path.join(d, '00000000000000000000.log'), os.path.join(d, '00000000000000000700.log'))
        write('00000000000000000700.index', struct.pack('>iiii', 0, 0, 8, log_size + 100))
        # odd names
        os.mkdir(os.path.join(d, '00000000000000000800.index'))
        write('noname.index', b'\x00' * 8)
        write('nodot', b'x')
        for dd in (d, d1):
            for n in os.listdir(dd):
                p = os.path.join(dd, n)
                if os.path.isfile(p):
                    os.chmod(p, 0o444)
            os.chmod(dd, 0o555)

        r = Runner(segscan, work)
        P = 'p-0/'
        r.case('preallocated .index', [P + '00000000000000000000.index'], 0,
               stdout_has=['offset: 0 position: 0\n'], stderr_has=['Mismatches in :'])
        r.case('preallocated .index --json', ['--json', P + '00000000000000000000.index'], 0,
               stdout_has=['"indexEntries":1310720', '"stoppedAtSlot":1', '"zeroTail":true'])
        r.case('preallocated .timeindex sanity (fails only on the zero tail)',
               ['--index-sanity-check', P + '00000000000000000000.timeindex'], 0)
        r.case('preallocated .index --verify-index-only', ['--verify-index-only', P + '00000000000000000000.index'], 0,
               stdout_is='Dumping %s00000000000000000000.index\n' % P)
        r.case('preallocated .index beside an empty .log', [P + '00000000000000000100.index'], 0,
               stderr_has=['preallocated index of an empty segment'])
        r.case('preallocated .timeindex beside an empty .log', ['--json', P + '00000000000000000100.timeindex'], 0,
               stdout_has=['"indexEntries":873813'])
        r.case('odd-size .index without .log', [P + '00000000000000000200.index'], 0,
               stdout_has=['offset: 201 position: 0\n'], stderr_has=['1 byte after the last whole'])
        r.case('odd-size .index --verify-index-only without .log',
               ['--verify-index-only', P + '00000000000000000200.index'], 2, stderr_has=['not checked'])
        r.case('odd-size .index sanity', ['--index-sanity-check', P + '00000000000000000200.index'], 3,
               stderr_has=['is corrupt, found 9 bytes which is neither positive nor a multiple of 8'])
        r.case('odd-size .timeindex', ['--json', P + '00000000000000000200.timeindex'], 0,
               stdout_has=['"unreadTailBytes":1'])
        r.case('odd-size .txnindex', [P + '00000000000000000200.txnindex'], 0,
               stdout_has=['version: 0 producerId: 0 firstOffset: 0 lastOffset: 0 lastStableOffset: 0\n'])
        r.case('empty .index', [P + '00000000000000000300.index'], 0,
               stdout_is='Dumping %s00000000000000000300.index\n%s00000000000000000300.index is empty.\n' % (P, P))
        r.case('empty .timeindex', [P + '00000000000000000300.timeindex'], 0,
               stdout_is='Dumping %s00000000000000000300.timeindex\n' % P)
        r.case('empty .timeindex sanity', ['--index-sanity-check', P + '00000000000000000300.timeindex'], 0,
               stdout_has=['00000000000000000300.timeindex passed sanity check.\n'])
        r.case('empty .txnindex', [P + '00000000000000000300.txnindex'], 0,
               stdout_is='Dumping %s00000000000000000300.txnindex\n' % P)
        r.case('empty .snapshot', [P + '00000000000000000300.snapshot'], 3,
               stderr_has=["00000000000000000300.snapshot: byte 0: Snapshot failed schema validation: Error reading "
                           "field 'version': java.nio.BufferUnderflowException [bad-snapshot]\n"])
        r.case('missing .index beside a .timeindex', ['p-1/00000000000000000000.timeindex'], 0,
               stdout_has=['timestamp: 1700000500004 offset: 8\n'])
        r.case('missing .index beside a .timeindex, verify',
               ['--verify-index-only', 'p-1/00000000000000000000.timeindex'], 0,
               stdout_is='Dumping p-1/00000000000000000000.timeindex\n')
        r.case('missing .index beside a .timeindex, json', ['--json', 'p-1/00000000000000000000.timeindex'], 0,
               stdout_has=['"check":"match"', '"logMaxTimestamp":1700000500004'])
        r.case('missing .index', ['p-1/00000000000000000000.index'], 2, stderr_has=['cannot open'])
        r.case('missing .snapshot, json', ['--json', P + '00000000000000000999.snapshot'], 2,
               stdout_has=['"type":"error"'])
        r.case('snapshot', [P + '00000000000000000500.snapshot'], 0,
               stdout_has=['producerId: 77 producerEpoch: 0 coordinatorEpoch: -1 currentTxnFirstOffset: '
                           'OptionalLong.empty lastTimestamp: 1700000000000 firstSequence: 0 lastSequence: 4 '
                           'lastOffset: 10 offsetDelta: 4 timestamp: 1700000000000\n',
                           'producerId: 78 producerEpoch: 1 coordinatorEpoch: 3 currentTxnFirstOffset: '
                           'OptionalLong[5] lastTimestamp: 1700000000001 \n'])
        r.case('snapshot with a bad CRC', [P + '00000000000000000501.snapshot'], 3,
               stderr_has=['00000000000000000501.snapshot: byte 2: Snapshot is corrupt (CRC is no longer valid). '
                           'Stored crc: ', '[bad-snapshot]'])
        r.case('snapshot with a bad CRC, json', ['--json', P + '00000000000000000501.snapshot'], 3,
               stdout_has=['"exception":"CorruptSnapshotException"'])
        r.case('truncated snapshot', [P + '00000000000000000502.snapshot'], 3,
               stderr_has=["Error reading field 'producer_entries': Error reading field 'timestamp'"])
        r.case('snapshot version 2', [P + '00000000000000000503.snapshot'], 3,
               stderr_has=['00000000000000000503.snapshot: byte 0: Snapshot contained an unknown file version 2 '
                           '[bad-snapshot]\n'])
        r.case('txnindex with version 1', [P + '00000000000000000600.txnindex'], 3,
               stdout_has=['version: 0 producerId: 3001'], stderr_has=['Unexpected aborted transaction version 1'])
        r.case('index entry past the end of the log', [P + '00000000000000000700.index'], 3,
               stdout_has=['offset: 708 position: %d\n' % (log_size + 100)], stderr_has=['outside the log'])
        r.case('directory named .index', [P + '00000000000000000800.index'], 2)
        r.case('index name without an offset', [P + 'noname.index'], 0,
               stderr_has=['does not start with an offset'])
        r.case('file name without a dot', [P + 'nodot'], 0, stderr_has=['Ignoring unknown file'])
        r.case('a bare ".index"', ['.index'], 2)
        r.case('all at once (a directory among them: exit 2)', ['--json'] + [P + n for n in sorted(os.listdir(d))], 2)
        if not r.strace:
            print('note: strace not found; opens for writing were not traced (directory state still compared)')
        print('robust_index: %d cases, %d ok, %d failed' % (r.total, r.total - r.failed, r.failed))
        return 1 if r.failed else 0
    finally:
        for dirpath, dirnames, filenames in os.walk(work):
            os.chmod(dirpath, 0o755)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
