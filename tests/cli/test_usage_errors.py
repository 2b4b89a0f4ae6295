#!/usr/bin/env python3
"""Usage-error goldens (tests/cli/usage-errors.txt): each command line's exit code and standard
error, exactly (or up to a "..." line), and nothing on standard output.

usage: test_usage_errors.py SEGSCAN SOURCE_ROOT [GOLDENS]
"""
import os
import shlex
import sys
import harness
from harness import tally as check

SEGSCAN, ROOT = (os.path.abspath(a) for a in sys.argv[1:3])
GOLDENS = sys.argv[3] if len(sys.argv) > 3 else os.path.join(ROOT, 'tests', 'cli', 'usage-errors.txt')


def cases(text):
    """(line number, argv, exit code, stderr lines, prefix only) of each case."""
    out, cur = [], None
    for n, line in enumerate(text.split('\n'), 1):
        if line.startswith('#'):
            continue
        if line.startswith('$ '):
            argv = shlex.split(line[2:])
            if not argv or argv[0] != 'segscan':
                raise SystemExit('%s:%d: a case begins "$ segscan"' % (GOLDENS, n))
            cur = [n, argv[1:], None, [], False]
            out.append(cur)
        elif cur is None:
            if line.strip():
                raise SystemExit('%s:%d: text outside a case' % (GOLDENS, n))
        elif cur[2] is None:
            if not line.startswith('exit '):
                raise SystemExit('%s:%d: "exit N" after the command line' % (GOLDENS, n))
            cur[2] = int(line[5:])
        elif line == '...':
            cur[4] = True
        elif line == '':
            cur = None
        elif cur[4]:
            raise SystemExit('%s:%d: "..." ends a case' % (GOLDENS, n))
        else:
            cur[3].append(line)
    return out


def main():
    all_cases = cases(open(GOLDENS, encoding='utf-8').read())
    check(len(all_cases) >= 30, '%d cases read' % len(all_cases))
    for n, args, want_rc, want_err, prefix in all_cases:
        rc, out, err = harness.call(args, binary=SEGSCAN, cwd=ROOT, unset=('NO_COLOR', 'CI'), timeout=60)
        got = err.split('\n')
        if got and got[-1] == '':
            got.pop()
        same = got[:len(want_err)] == want_err if prefix else got == want_err
        what = 'line %d: segscan %s' % (n, shlex.join(args))
        check(rc == want_rc, '%s: exit %d (want %d)' % (what, rc, want_rc))
        check(same, '%s: standard error\n  got:  %r\n  want: %r%s' % (what, got[:len(want_err) + 1], want_err,
                                                                   ' ...' if prefix else ''))
        check(out == '', '%s: nothing on standard output: %r' % (what, out[:200]))
    sys.exit(harness.tally_exit('test_usage_errors'))


main()
