#!/usr/bin/env python3
"""--progress (drawn by the CLI from the analysis's callback).

usage: test_progress.py SEGSCAN TESTDATA GEN_SEGMENT

--progress always to a pipe: stderr holds progress lines, each begun with a
carriage return (redrawn in place), of the form
  segscan:  42% 1.2 MB of 3.1 MB, 0.01M records, 35 MB/s, ETA 0:01  00000000000000000000.log
and ends with the line blanked (\\r, spaces, \\r); stdout is the same as
without it. auto (the default) and never write nothing of it to a pipe.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import harness
from harness import tally as check

SEGSCAN, TESTDATA, GEN = (os.path.abspath(a) for a in sys.argv[1:4])
LINE = re.compile(r'segscan: +(\d+)% (\d+\.\d+ [MG]B) of (\d+\.\d+ [MG]B), (\d+\.\d\d)M records, (\d+) MB/s, '
                  r'ETA (\d+:\d\d|-)  (\S*)$')


def run(args, env=None):
    rc, out, err = harness.call(args, binary=SEGSCAN, env=env, unset=('CI',), timeout=120, text=False)
    return rc, out, err.decode('utf-8', 'replace')


def main():
    tmp = tempfile.mkdtemp(prefix='segscan-progress-')
    try:
        d = os.path.join(tmp, 'events-0')
        os.makedirs(d)
        for i, base in enumerate((0, 100000, 200000)):
            subprocess.run([GEN, '--out', os.path.join(d, '%020d.log' % base), '--size', str(1 << 20),
                            '--seed', str(i + 1), '--base-offset', str(base)], check=True)
        paths = [d, os.path.join(TESTDATA, 'corpus', 'gen', 'lab')]
        rc0, out0, err0 = run(['scan', '--color', 'never', '--progress', 'never'] + paths)
        check(rc0 == 0 and '\r' not in err0, 'never: no progress (%d) %r' % (rc0, err0[:200]))
        rc, out, err = run(['scan', '--color', 'never', '--progress', 'always'] + paths)
        check(rc == rc0 and out == out0, 'always: the same stdout and exit')
        check(err.startswith('\r'), 'always: the first line begins with \\r: %r' % err[:80])
        check(err.endswith('\r') and '\n' not in err, 'always: the line is redrawn in place, never a new line: %r'
              % err[-80:])
        parts = err.split('\r')
        lines = [p for p in parts if p.strip()]
        check(len(lines) >= 1, 'always: at least one progress line: %r' % err[:200])
        for line in lines:
            m = LINE.match(line.rstrip(' '))
            check(m is not None, 'line format: %r' % line)
            if m:
                check(0 <= int(m.group(1)) <= 100, 'a percentage: %r' % line)
                check(m.group(7) == '' or m.group(7).endswith('.log'), 'the current file: %r' % line)
        # blanked at the end: the last drawn line overwritten with spaces, cursor back at the start
        check(len(parts) >= 3 and parts[-1] == '' and parts[-2] and set(parts[-2]) == {' '}
              and len(parts[-2]) >= len(lines[-1].rstrip(' ')) if lines else False,
              'always: blanked at the end: %r' % err[-120:])
        for args, env in ((['--progress', 'auto'], None), ([], None), (['--progress', 'always'], {'CI': 'true'})):
            rc, out, err = run(['scan', '--color', 'never'] + args + paths, env)
            if args == ['--progress', 'always']:
                check('\r' in err, 'always prints even under CI')
            else:
                check('\r' not in err and out == out0, '%s: nothing on a pipe' % (args or 'default'))
        for cmd in ('dups', 'producers', 'txns'):
            rc, out, err = run([cmd, '--json', '--progress', 'always'] + paths)
            check(rc == 0 and '\r' in err and out.startswith(b'{'), '%s --progress always' % cmd)
        rc, out, err = run(['scan', '--progress', 'sometimes'] + paths)
        check(rc == 2 and '--progress' in err, 'a bad --progress value: exit 2 (%d)' % rc)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(harness.tally_exit('test_progress'))


main()
