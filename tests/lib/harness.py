"""The test kit's runner (Python 3 standard library only): run segscan, read its JSON Lines and
report files, assert, and run a script's tests one by one.

call() is the one place the tests start segscan; every script's run() is built on it.
Two styles of assertion: check/eq/contains/absent raise Fail and end the test (with @test
and main()); tally() counts a failed check, prints it and goes on, and tally_exit() ends a
script that checks in that style with its summary line and exit status.

A test script registers its tests with @test, then calls main(__doc__), which takes
`SCRIPT SEGSCAN TESTDATA [-k SUBSTRING]` from the command line, gives each test a fresh
temporary directory (tmp()) and prints `ok NAME` / `FAIL NAME: why` and `N tests, M failed`.
Meson puts tests/lib on PYTHONPATH (tests/meson.build), so scripts import it by name.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import traceback

SEGSCAN = None     # the binary under test
TESTDATA = None    # the repository's testdata/
_TMP = None        # this run's temporary directory
_TESTS = []


class Fail(Exception):
    pass


def eq(got, want, what):
    if got != want:
        raise Fail('%s: got %r, want %r' % (what, got, want))


def check(cond, what):
    if not cond:
        raise Fail(what)


def contains(text, part, what):
    if part not in text:
        raise Fail('%s: %r not in %r' % (what, part, text))


def absent(text, part, what):
    if part in text:
        raise Fail('%s: %r should not be in %r' % (what, part, text))


CHECKS = 0         # tally(): checks made
FAILURES = []      # tally(): what failed
VERBOSE = False    # tally() prints passing checks too


def tally(cond, what):
    """Count a check; a failed one is printed and remembered, and the script goes on."""
    global CHECKS
    CHECKS += 1
    if not cond:
        FAILURES.append(what)
        print('FAIL: %s' % what)
    elif VERBOSE:
        print('ok   %s' % what)
    return cond


def tally_eq(got, want, what):
    return tally(got == want, '%s: got %r, want %r' % (what, got, want))


def tally_exit(name):
    """The summary line of tally()'s checks; the exit status (1 if any failed)."""
    print('%s: %d checks, %d failed' % (name, CHECKS, len(FAILURES)))
    return 1 if FAILURES else 0


def test(fn):
    _TESTS.append(fn)
    return fn


def tmp(*parts):
    """A path under this run's temporary directory."""
    return os.path.join(_TMP, *parts)


def gen(scenario, *parts):
    """A path in the corpus's generated scenarios (testdata/corpus/gen)."""
    return os.path.join(TESTDATA, 'corpus', 'gen', scenario, *parts)


def call(args, binary=None, stdin=None, env=None, unset=(), cwd=None, timeout=300, text=True, prefix=()):
    """BINARY ARGS (BINARY defaults to SEGSCAN): (exit code, stdout, stderr), decoded as UTF-8
    (invalid bytes replaced) unless text is False. stdin: bytes, or an open file; env: variables
    set, unset: variables removed, over this process's environment; prefix: a command that runs
    segscan (setpriv ...)."""
    e = dict(os.environ)
    for name in unset:
        e.pop(name, None)
    if env:
        e.update(env)
    kw = {'stdin': stdin} if stdin is not None and not isinstance(stdin, (bytes, bytearray)) else {'input': stdin}
    p = subprocess.run(list(prefix) + [binary or SEGSCAN] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=e, cwd=cwd, timeout=timeout, check=False, **kw)
    if not text:
        return p.returncode, p.stdout, p.stderr
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def run(args, stdin=None, env=None, cwd=None):
    """segscan ARGS: (exit code, stdout, stderr), text decoded as UTF-8; colours as on a terminal
    (NO_COLOR removed), TZ UTC unless env says otherwise."""
    return call(args, stdin=stdin, env=dict({'TZ': os.environ.get('TZ', 'UTC')}, **(env or {})),
                unset=('NO_COLOR',), cwd=cwd)


def run_rc(args, want_rc, **kw):
    """run(), checking the exit code; returns (stdout, stderr)."""
    rc, out, err = run(args, **kw)
    if rc != want_rc:
        raise Fail('exit code of segscan %s: got %d, want %d\nstdout: %s\nstderr: %s'
                   % (' '.join(args), rc, want_rc, out[-2000:], err[-2000:]))
    return out, err


def parse_jsonl(out):
    """segscan's --json output: the objects, each checked to have a type."""
    objs = [json.loads(line) for line in out.split('\n') if line.strip()]  # not splitlines(): U+2028 is valid JSON
    for o in objs:
        check('type' in o, 'object without type: %r' % o)
    return objs


def jsonl(args, want_rc=0, **kw):
    """segscan ARGS --json: the objects, each checked to have a type."""
    out, _ = run_rc(list(args) + ['--json'], want_rc, **kw)
    return parse_jsonl(out)


def of_type(objs, t):
    return [o for o in objs if o['type'] == t]


def one(objs, t):
    got = of_type(objs, t)
    eq(len(got), 1, 'number of %s objects' % t)
    return got[0]


def report(args, want_rc=0):
    """segscan ARGS --report FILE: the key=value lines as a dict (each key once)."""
    path = tmp('report.txt')
    if os.path.exists(path):
        os.unlink(path)
    run_rc(list(args) + ['--report', path], want_rc)
    return read_report(path)


def read_report(path):
    """A --report file: its key=value lines as a dict (each key once)."""
    d = {}
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            check('=' in line, 'report line without "=": %r' % line)
            k, v = line.split('=', 1)
            check(k not in d, 'report key %s twice' % k)
            d[k] = v
    return d


def tree_state(root):
    """Every file and folder below root: relative path -> (size, mtime in ns, mode), to show that a
    run left them as they were."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            p = os.path.join(dirpath, n)
            st = os.lstat(p)
            out[os.path.relpath(p, root)] = (st.st_size, st.st_mtime_ns, st.st_mode)
    return out


def take_k(args):
    """Take `-k SUBSTRING` out of args (a list): the substring, or None."""
    if '-k' not in args:
        return None
    i = args.index('-k')
    only = args[i + 1]
    del args[i:i + 2]
    return only


def tests_in(namespace):
    """The test_* functions of a module's globals(), by name: [(name, function)]."""
    return [(n, f) for n, f in sorted(namespace.items()) if n.startswith('test_') and callable(f)]


def run_tests(tests, only=None):
    """Run each (name, function) whose name holds only: `ok NAME` or `FAIL NAME: why` (a traceback
    for an exception that is not a Fail), then `N tests, M failed`; the exit status."""
    failed = ran = 0
    for name, fn in tests:
        if only and only not in name:
            continue
        ran += 1
        try:
            fn()
            print('ok   %s' % name)
        except Fail as e:
            failed += 1
            print('FAIL %s: %s' % (name, e))
        except Exception as e:  # noqa: BLE001 - a test that crashes fails, the others still run
            failed += 1
            print('FAIL %s: exception %r' % (name, e))
            traceback.print_exc(file=sys.stdout)
    print('%d tests, %d failed' % (ran, failed))
    return 1 if failed else 0


def main(doc):
    global SEGSCAN, TESTDATA
    args = sys.argv[1:]
    only = take_k(args)
    if len(args) != 2:
        print(doc)
        return 2
    SEGSCAN = os.path.abspath(args[0])
    TESTDATA = os.path.abspath(args[1])
    with tempfile.TemporaryDirectory(prefix='segscan-test-') as top:
        def in_own_tmp(t):
            def go():
                global _TMP
                _TMP = os.path.join(top, t.__name__)
                os.makedirs(_TMP)
                try:
                    t()
                finally:
                    shutil.rmtree(_TMP, ignore_errors=True)
            return go
        return run_tests([(t.__name__, in_own_tmp(t)) for t in _TESTS], only)
