#!/usr/bin/env python3
"""Golden tests of `segscan dump` on index, time-index, transaction-index and producer-snapshot files
(Python 3 standard library only).

Usage:
  golden_index.py run      SEGSCAN ROOT [--only PREFIX]... [-j N]
  golden_index.py selftest ROOT

ROOT is the corpus folder (testdata/corpus). Beside every `.index`, `.timeindex`, `.txnindex` and
`.snapshot` file under ROOT, the corpus holds what Kafka's own classes make of it:

  <file>.dumplog.txt          stdout of `kafka-dump-log.sh --files <file>`
  <file>.dumplog.verify.txt   (.index/.timeindex) stdout of `--verify-index-only`, a line
                              `--- stderr ---`, then its stderr, where `<ROOT>` stands for the absolute
                              path of the corpus folder (the tool's working directory)
  <file>.oracle.jsonl         one object per entry, then an end (or error) object

segscan runs with ROOT as its working directory and the path relative to ROOT, so that the first line
reads `Dumping gen/...` as in the corpus. For each file (a .gz variant of an expected file is read too):

  * `segscan dump FILE`: stdout byte for byte equal to .dumplog.txt; exit 0.
  * `segscan dump --verify-index-only FILE`: stdout equal to the part before `--- stderr ---`; stderr
    equal to the part after it with <ROOT> replaced, once segscan's own diagnostics (lines starting
    "segscan: ", which Kafka does not print) are set aside; exit 0.
  * `segscan dump --json FILE`: as many objects as the oracle; object i has every field of oracle
    object i with the same value and JSON type (strings compared after the <ROOT> replacement;
    nested objects field by field); extra fields are allowed; every object has "file" equal to the
    path given; exit 0 (3 when the oracle ends with an error object).

Prints `ok` or `FAIL <reason>` per file and a summary line; exits 1 when anything failed, 2 on a usage
error. `selftest` feeds the comparators the oracles themselves (must pass) and mutated copies (every
changed value, dropped field, changed type, extra or missing object and changed text byte must be
reported), so that these tests can fail.
"""

import argparse
import harness
import concurrent.futures
import copy
import gzip
import json
import os
import subprocess
import sys

SUFFIXES = ('.index', '.timeindex', '.txnindex', '.snapshot')
STDERR_MARK = '--- stderr ---\n'
RUN_TIMEOUT = 600
EXIT_OK, EXIT_DAMAGE = 0, 3


class Mismatch(Exception):
    """The first difference found; str() is printed after FAIL."""


# ------------------------------------------------------------------------------------------- helpers

def read_expected(path):
    """Bytes of path or path.gz, or None when neither exists."""
    for p in (path, path + '.gz'):
        if os.path.exists(p):
            with open(p, 'rb') as f:
                data = f.read()
            return gzip.decompress(data) if p.endswith('.gz') else data
    return None


def find_files(root, only):
    found = []
    for prefix in only or ['']:
        top = os.path.join(root, prefix)
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(SUFFIXES):
                    found.append(os.path.relpath(os.path.join(dirpath, name), root))
    return sorted(set(found))


def run(segscan, root, args):
    return harness.call(['dump'] + args, binary=segscan, cwd=root, timeout=RUN_TIMEOUT, text=False)


def first_diff(a, b):
    """A short description of where byte strings a (got) and b (expected) differ."""
    n = min(len(a), len(b))
    i = next((k for k in range(n) if a[k] != b[k]), n)
    line = b.count(b'\n', 0, i) + 1
    return 'first difference at byte %d (line %d): got %r, expected %r' % (
        i, line, a[max(0, i - 20):i + 40], b[max(0, i - 20):i + 40])


def compare_text(got, expected, what):
    if got != expected:
        raise Mismatch('%s: %s' % (what, first_diff(got, expected)))


def same_json_value(got, want, root_abs):
    """True when got has want's value and JSON type (bool is not a number here)."""
    if isinstance(want, str):
        return isinstance(got, str) and got == want.replace('<ROOT>', root_abs)
    if isinstance(want, bool) or want is None:
        return got is want
    if isinstance(want, (int, float)):
        return not isinstance(got, bool) and isinstance(got, (int, float)) and got == want
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(
            same_json_value(g, w, root_abs) for g, w in zip(got, want))
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and same_json_value(got[k], v, root_abs)
                                             for k, v in want.items())
    return False


def compare_json(got_lines, oracle_lines, path, root_abs):
    """got_lines, oracle_lines: lists of str (one JSON object each)."""
    got = []
    for i, line in enumerate(got_lines):
        try:
            got.append(json.loads(line))
        except ValueError as e:
            raise Mismatch('json: object %d is not JSON (%s): %r' % (i, e, line[:120]))
    want = [json.loads(line) for line in oracle_lines]
    for i, (g, w) in enumerate(zip(got, want)):
        if not isinstance(g, dict):
            raise Mismatch('json: object %d is not an object' % i)
        if g.get('file') != path:
            raise Mismatch('json: object %d has file %r, expected %r' % (i, g.get('file'), path))
        for k, v in w.items():
            if k not in g:
                raise Mismatch('json: object %d (%s): field %r missing' % (i, w.get('type'), k))
            if not same_json_value(g[k], v, root_abs):
                raise Mismatch('json: object %d (%s): field %r is %s, expected %s' % (
                    i, w.get('type'), k, json.dumps(g[k]), json.dumps(v)))
    if len(got) != len(want):
        raise Mismatch('json: %d objects, expected %d%s' % (
            len(got), len(want), ' (first extra: %s)' % json.dumps(got[len(want)])[:160] if len(got) > len(want)
            else ''))


def split_verify(expected):
    """(stdout, stderr) parts of a .dumplog.verify.txt."""
    text = expected.decode('utf-8')
    if STDERR_MARK not in text:
        raise Mismatch('verify oracle has no %r line' % STDERR_MARK.strip())
    out, err = text.split(STDERR_MARK, 1)
    return out.encode('utf-8'), err


def kafka_stderr(stderr):
    """segscan's stderr without its own diagnostics."""
    text = stderr.decode('utf-8', 'replace')
    return ''.join(line for line in text.splitlines(True) if not line.startswith('segscan: '))


# ------------------------------------------------------------------------------------------- one file

def check_file(segscan, root, root_abs, path):
    """Returns None when everything matched, else the failure message."""
    full = os.path.join(root, path)
    try:
        oracle = read_expected(full + '.oracle.jsonl')
        if oracle is None:
            raise Mismatch('no oracle %s.oracle.jsonl' % path)
        oracle_lines = [l for l in oracle.decode('utf-8').splitlines() if l.strip()]
        ends_in_error = bool(oracle_lines) and json.loads(oracle_lines[-1]).get('type') == 'error'

        expected = read_expected(full + '.dumplog.txt')
        if expected is not None:
            rc, out, err = run(segscan, root, [path])
            compare_text(out, expected, 'dump')
            if rc != EXIT_OK:
                raise Mismatch('dump: exit %d, expected 0 (stderr: %s)' % (rc, err.decode('utf-8', 'replace')[:200]))

        expected = read_expected(full + '.dumplog.verify.txt')
        if expected is not None:
            want_out, want_err = split_verify(expected)
            rc, out, err = run(segscan, root, ['--verify-index-only', path])
            compare_text(out, want_out, 'verify stdout')
            compare_text(kafka_stderr(err).encode('utf-8'), want_err.replace('<ROOT>', root_abs).encode('utf-8'),
                         'verify stderr')
            if rc != EXIT_OK:
                raise Mismatch('verify: exit %d, expected 0' % rc)

        rc, out, err = run(segscan, root, ['--json', path])
        compare_json([l for l in out.decode('utf-8').splitlines() if l.strip()], oracle_lines, path, root_abs)
        want_rc = EXIT_DAMAGE if ends_in_error else EXIT_OK
        if rc != want_rc:
            raise Mismatch('json: exit %d, expected %d (stderr: %s)' % (rc, want_rc,
                                                                         err.decode('utf-8', 'replace')[:200]))
    except Mismatch as e:
        return str(e)
    except (OSError, subprocess.SubprocessError, ValueError) as e:
        return '%s: %s' % (type(e).__name__, e)
    return None


def cmd_run(args):
    root = args.root
    if not os.path.isdir(root):
        print('golden_index: no corpus folder %s' % root, file=sys.stderr)
        return 2
    root_abs = os.path.realpath(root)
    files = find_files(root, args.only)
    if not files:
        print('golden_index: no index or snapshot files under %s' % root, file=sys.stderr)
        return 1
    segscan = os.path.abspath(args.segscan)
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = pool.map(lambda p: (p, check_file(segscan, root, root_abs, p)), files)
        for path, why in results:
            if why is None:
                print('ok   %s' % path)
            else:
                failed += 1
                print('FAIL %s: %s' % (path, why))
    print('golden_index: %d files, %d ok, %d failed' % (len(files), len(files) - failed, failed))
    return 1 if failed else 0


# ------------------------------------------------------------------------------------------- selftest

def expect_caught(what, fn):
    try:
        fn()
    except Mismatch:
        return True
    print('selftest: NOT caught: %s' % what)
    return False


def json_mutations(objs):
    """(description, mutated list of objects) pairs: every value changed once, and more."""
    for i, o in enumerate(objs):
        for k, v in o.items():
            if k == 'file':
                continue
            m = copy.deepcopy(objs)
            if isinstance(v, bool):
                m[i][k] = not v
            elif isinstance(v, int):
                m[i][k] = v + 1
            elif isinstance(v, str):
                m[i][k] = v + 'x'
            elif v is None:
                m[i][k] = 0
            elif isinstance(v, dict):
                m[i][k] = dict(v, **{next(iter(v)): 'changed'}) if v else {'x': 1}
            else:
                m[i][k] = None
            yield 'object %d field %s changed' % (i, k), m
            m = copy.deepcopy(objs)
            del m[i][k]
            yield 'object %d field %s dropped' % (i, k), m
            if isinstance(v, int) and not isinstance(v, bool):
                m = copy.deepcopy(objs)
                m[i][k] = str(v)
                yield 'object %d field %s as a string' % (i, k), m
        m = copy.deepcopy(objs)
        m[i]['file'] = 'elsewhere'
        yield 'object %d file changed' % i, m
    yield 'an object missing', objs[:-1]
    yield 'an extra object', objs + [copy.deepcopy(objs[-1])]


def cmd_selftest(args):
    root = args.root
    root_abs = os.path.realpath(root)
    files = find_files(root, args.only)
    if not files:
        print('golden_index selftest: no files under %s' % root, file=sys.stderr)
        return 1
    # A few files of each kind, with entries where possible.
    picked = {}
    for path in files:
        kind = os.path.splitext(path)[1]
        data = read_expected(os.path.join(root, path + '.oracle.jsonl'))
        lines = [l for l in data.decode('utf-8').splitlines() if l.strip()]
        if len(picked.setdefault(kind, [])) < 3 and len(lines) > 1:
            picked[kind].append((path, lines))
    ok = True
    checks = 0
    for kind, items in sorted(picked.items()):
        for path, lines in items:
            objs = [dict(json.loads(l), file=path) for l in lines]
            good = [json.dumps(o) for o in objs]
            try:
                compare_json(good, lines, path, root_abs)      # the oracle itself passes
                checks += 1
            except Mismatch as e:
                print('selftest: the oracle of %s does not pass: %s' % (path, e))
                ok = False
            for what, mutated in json_mutations(objs):
                checks += 1
                ok &= expect_caught('%s: %s' % (path, what),
                                    lambda m=mutated: compare_json([json.dumps(o) for o in m], lines, path,
                                                                   root_abs))
            text = read_expected(os.path.join(root, path + '.dumplog.txt'))
            if text:
                compare_text(text, text, 'dump')
                for pos in (0, len(text) // 2, len(text) - 1):
                    changed = bytearray(text)
                    changed[pos] ^= 0x01
                    checks += 1
                    ok &= expect_caught('%s: text byte %d flipped' % (path, pos),
                                        lambda c=bytes(changed): compare_text(c, text, 'dump'))
                checks += 1
                ok &= expect_caught('%s: text line dropped' % path,
                                    lambda: compare_text(text[:text.rfind(b'\n', 0, len(text) - 1) + 1], text, 'dump'))
    # <ROOT> substitution works both ways: the replaced path matches, the placeholder itself does not.
    checks += 2
    if not same_json_value(root_abs + '/x', '<ROOT>/x', root_abs) or same_json_value('<ROOT>/x', '<ROOT>/x',
                                                                                    root_abs + 'y'):
        print('selftest: <ROOT> substitution is wrong')
        ok = False
    print('golden_index selftest: %d checks on %d files: %s' % (
        checks, sum(len(v) for v in picked.values()), 'ok' if ok else 'FAIL'))
    return 0 if ok else 1


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd')
    r = sub.add_parser('run')
    r.add_argument('segscan')
    r.add_argument('root')
    r.add_argument('--only', action='append', default=[])
    r.add_argument('-j', '--jobs', type=int, default=os.cpu_count() or 1)
    s = sub.add_parser('selftest')
    s.add_argument('root')
    s.add_argument('--only', action='append', default=[])
    args = ap.parse_args(argv)
    if args.cmd == 'run':
        return cmd_run(args)
    if args.cmd == 'selftest':
        return cmd_selftest(args)
    ap.print_usage(sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
