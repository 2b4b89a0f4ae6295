#!/usr/bin/env python3
"""Read-only guarantee: segscan never writes, creates, truncates, removes,
renames or touches any input, and never maps one writable and shared.

usage: readonly.py SEGSCAN TESTDATA_CORPUS

A log directory is put together in a temporary directory from testdata (a real broker's
log dir with its checkpoint files, plus gen/txn-abort's partition with every file kind:
.log, .index, .timeindex, .txnindex, .snapshot), and the .index files of the txn
partition are removed (the read-only readers must not recreate them, as a broker would).
Then, each under `strace -f -y -e trace=%file,%desc,mmap`, segscan runs: dump of every
file (plus --deep-iteration --print-data-log, --verify-index-only, --index-sanity-check),
and each analysis command that exists (scan with --report to a file outside the inputs,
dups, producers, txns, explain, verify, diff, coordinator). From the traces:
  - no open/openat/creat of a path inside the inputs with O_WRONLY, O_RDWR, O_CREAT or O_TRUNC;
  - no unlink, rename, truncate, ftruncate, fallocate, utime(s), utimensat, futimesat,
    chmod, chown, mkdir, mknod, link, symlink or *xattr call naming an input (strace -y
    names a descriptor's file), and no write to an input's descriptor;
  - no mmap of an input with PROT_WRITE and MAP_SHARED.
Before and after: the directory listing, and each file's size, mtime, mode and SHA-256.
Skipped (exit 77) when strace is missing.
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import harness
from harness import tally as check

SEGSCAN, CORPUS = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
STRACE = shutil.which('strace')


def snapshot(root):
    out = {}
    for d, dirs, files in os.walk(root):
        dirs.sort()
        out[os.path.relpath(d, root) + '/'] = sorted(dirs + files)
        for f in files:
            p = os.path.join(d, f)
            st = os.lstat(p)
            with open(p, 'rb') as fh:
                h = hashlib.sha256(fh.read()).hexdigest()
            out[os.path.relpath(p, root)] = (st.st_size, st.st_mtime_ns, st.st_mode, h)
    return out


FORBIDDEN = re.compile(r'^(?:\[pid +\d+\] |\d+ +)?(unlink|unlinkat|rename|renameat2?|truncate|ftruncate|fallocate|'
                       r'utime|utimes|utimensat|futimesat|chmod|fchmod|fchmodat|chown|fchown|lchown|fchownat|'
                       r'mkdir|mkdirat|mknod|mknodat|link|linkat|symlink|symlinkat|setxattr|lsetxattr|fsetxattr|'
                       r'removexattr|lremovexattr|fremovexattr|write|pwrite64|writev|pwritev|pwritev2|sendfile|'
                       r'copy_file_range)\(')
FD_CALLS = {'ftruncate', 'fallocate', 'fchmod', 'fchown', 'fsetxattr', 'fremovexattr', 'write', 'pwrite64',
            'writev', 'pwritev', 'pwritev2', 'sendfile', 'copy_file_range'}
OPEN = re.compile(r'^(?:\[pid +\d+\] |\d+ +)?(open|openat|openat2|creat)\((?:[^,]*, )?"((?:[^"\\]|\\.)*)"(?:, ([A-Z_|0-9]+))?')
MMAP = re.compile(r'^(?:\[pid +\d+\] |\d+ +)?mmap\([^,]*, [^,]*, ([A-Z_|]+), ([A-Z_|]+), (-?\d+)(<[^>]*>)?')


def analyse(trace, inputs, cwd, label):
    with open(trace, encoding='utf-8', errors='replace') as f:
        lines = f.read().splitlines()
    opens = 0
    for line in lines:
        m = OPEN.match(line)
        if m:
            path = m.group(2)
            path = os.path.normpath(os.path.join(cwd, path))
            flags = m.group(3) or ''
            if path == inputs or path.startswith(inputs + '/'):
                opens += 1
                bad = [fl for fl in ('O_WRONLY', 'O_RDWR', 'O_CREAT', 'O_TRUNC') if fl in flags.split('|')]
                check(not bad, '%s: input opened with %s: %s' % (label, bad, line))
            continue
        m = FORBIDDEN.match(line)
        if m:
            call = m.group(1)
            # descriptor calls: only the descriptor's file (strace -y: "3</path>") counts, not the
            # bytes written (segscan's output names its inputs); path calls: the whole line
            target = line[m.end():].split(', ', 1)[0] if call in FD_CALLS else line
            check(inputs not in target, '%s: %s on an input: %s' % (label, call, line[:300]))
            continue
        m = MMAP.match(line)
        if m and m.group(4) and inputs in m.group(4):
            prot, flags = m.group(1).split('|'), m.group(2).split('|')
            check(not ('PROT_WRITE' in prot and 'MAP_SHARED' in flags), '%s: writable shared mapping of an input: %s' % (label, line))
    return opens


def main():
    if not STRACE:
        print('SKIP: strace is not installed')
        return 77
    tmp = tempfile.mkdtemp(prefix='segscan-ro-')
    try:
        logdir = os.path.join(tmp, 'kafka-logs')
        shutil.copytree(os.path.join(CORPUS, 'real/seanorth__kafka-server/kafka-logs'), logdir)
        part = os.path.join(logdir, 'txn-0')
        os.mkdir(part)
        src = os.path.join(CORPUS, 'gen/txn-abort/txn-0')
        for f in sorted(os.listdir(src)):
            if f.endswith(('.log', '.timeindex', '.txnindex', '.snapshot')):
                shutil.copy2(os.path.join(src, f), part)
        # missing .index beside a .log: the readers must not recreate it
        check(not any(f.endswith('.index') for f in os.listdir(part)), 'setup: no .index in txn-0')
        outside = os.path.join(tmp, 'out')
        os.mkdir(outside)
        inputs = os.path.realpath(logdir)

        files = []
        for d, dirs, fs in os.walk(logdir):
            dirs.sort()
            files += [os.path.join(d, f) for f in sorted(fs)]
        runs = []
        for f in files:
            runs.append(['dump', f])
            if f.endswith('.log'):
                runs.append(['dump', '--deep-iteration', '--print-data-log', f])
                runs.append(['dump', '--json', f])
            if f.endswith(('.index', '.timeindex')):
                runs.append(['dump', '--verify-index-only', f])
                runs.append(['dump', '--index-sanity-check', f])
        # the index dumps of the partition whose .index is missing
        runs.append(['dump', '--verify-index-only', os.path.join(part, '00000000000000000000.timeindex')])
        runs.append(['scan', '--report', os.path.join(outside, 'report.txt'), logdir])
        runs.append(['scan', '--json', logdir])
        for cmd in ('dups', 'producers', 'txns', 'verify', 'diff', 'coordinator'):
            h = subprocess.run([SEGSCAN, cmd, '--help'], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
            if h.returncode == 0 and h.stdout.decode(errors='replace').startswith('usage: segscan ' + cmd):
                runs.append([cmd, logdir] if cmd != 'diff' else [cmd, part, part])
            else:
                print('note: no "%s" command yet' % cmd)
        runs.append(['explain', '--offset', 'txn-0:0', logdir])

        before = snapshot(logdir)
        env = dict(os.environ)
        env['ASAN_OPTIONS'] = (env.get('ASAN_OPTIONS', '') + ':detect_leaks=0').lstrip(':')  # LSan cannot run under ptrace
        total_opens = 0
        for i, r in enumerate(runs):
            trace = os.path.join(outside, 'trace-%d.txt' % i)
            p = subprocess.run([STRACE, '-f', '-y', '-qq', '-s', '4096', '-o', trace, '-e', 'trace=%file,%desc,mmap',
                                SEGSCAN] + r, cwd=outside, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                               timeout=300, check=False)
            label = 'segscan ' + ' '.join(os.path.relpath(a, tmp) if a.startswith(tmp) else a for a in r)
            check(p.returncode in (0, 1, 2, 3), '%s: exit %d (%s)' % (label, p.returncode, p.stderr.decode(errors='replace')[-500:]))
            total_opens += analyse(trace, inputs, outside, label)
        after = snapshot(logdir)
        check(total_opens >= len(files), 'the inputs were opened (%d opens seen in the traces)' % total_opens)
        for k in sorted(set(before) | set(after)):
            check(before.get(k) == after.get(k), 'unchanged: %s (%s -> %s)' % (k, before.get(k), after.get(k)))
        check(os.path.exists(os.path.join(outside, 'report.txt')), 'the --report file was written (outside the inputs)')
        print('%d runs under strace' % len(runs))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return harness.tally_exit('read-only')


sys.exit(main())
