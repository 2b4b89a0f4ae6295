#!/usr/bin/env python3
"""Run two segscan binaries over every testdata/ file and directory and compare what they print.

Usage:
  compare_binaries.py OLD NEW [--corpus DIR] [-j N] [--cache FILE] [--only SUBSTRING] [--list] [--names FILE]

For a refactoring that must not change behaviour: every case (a command line, with standard input
when the case reads '-') is run with OLD and with NEW, from the corpus folder (testdata/corpus, so
that paths are the relative ones the oracles name), and the exit code, standard output and standard
error of the two must be byte-identical. The cases:

  dump        every file: plain and --json; every Kafka file (not the oracles' text) also with
              --deep-iteration, --print-data-log, --print-data-log --skip-record-metadata,
              --offsets-decoder, --transaction-log-decoder, --verify-index-only,
              --index-sanity-check, --max-bytes, --max-message-size, --max-batch-bytes and --json
              with --bytes hex/base64 and the decoders; every partition directory's files at once
              (--files); every .log through standard input ('-')
  scan, dups, producers, txns
              every directory and .log file: text, --json, -v; every directory also with --by key,
              --by key+value, --bytes hex, windows (--from-offset/--to-offset, --since/--until,
              --producer-id), --include-internal, --across-topics, --top, --fail-on, --report -,
              --local-time (TZ=Asia/Kolkata), --max-memory 64K (spilling), --threads 1, --no-seek,
              --txn-timeout with --now, --min-bytes, --color always
  explain     every directory and .log file: --value-contains, --key, --value-hex (text and
              --json); every partition directory: --offset NAME:0 and NAME:5
  verify      every directory and .log file: text, --json, -q; --list-checks
  diff        every directory and .log file with itself; each with the next one of its kind
              (sorted order) in the modes offset, content and auto, --by key, --stat, --json,
              --read-committed, --max 3
  coordinator --group / --transactional-id, --partitions, --json, bad arguments
  usage       no arguments, --help and an unknown option of every command, a misspelt command

A cache (--cache FILE) keeps OLD's results (hashes) between runs; OLD is run again only for a case
whose NEW result differs, to print the difference. Exit status: 0 when every case is identical,
1 otherwise, 2 on a usage error.
"""

import argparse
import concurrent.futures
import difflib
import hashlib
import json
import os
import subprocess
import sys

COMMANDS_ANALYSIS = ['scan', 'dups', 'producers', 'txns']
TEXT_SUFFIXES = ('.jsonl', '.txt', '.gz', '.md', '.tsv')


def is_kafka_file(name):
    return not name.endswith(TEXT_SUFFIXES)


def walk(corpus):
    files, dirs = [], []
    for root, dnames, fnames in os.walk(corpus):
        dnames.sort()
        rel = os.path.relpath(root, corpus)
        if rel != '.':
            dirs.append(rel)
        for f in sorted(fnames):
            files.append(os.path.normpath(os.path.join(rel, f)))
    return sorted(files), sorted(dirs)


def cases(corpus):
    files, dirs = walk(corpus)
    logs = [f for f in files if f.endswith('.log')]
    part_dirs = [d for d in dirs if any(os.path.dirname(f) == d for f in logs)]
    out = []

    def add(args, stdin=None, env=None):
        out.append({'args': args, 'stdin': stdin, 'env': env or {}})

    # ---- dump
    kafka_sets = [[], ['--deep-iteration'], ['--print-data-log'], ['--print-data-log', '--skip-record-metadata'],
                  ['--offsets-decoder'], ['--transaction-log-decoder'], ['--verify-index-only'],
                  ['--index-sanity-check'], ['--max-bytes', '3000'], ['--max-message-size', '100'],
                  ['--max-batch-bytes', '2000'], ['--json'], ['--json', '--bytes', 'hex'],
                  ['--json', '--bytes', 'base64'], ['--json', '--offsets-decoder'],
                  ['--json', '--transaction-log-decoder'], ['--json', '--max-bytes', '3000']]
    for f in files:
        for s in (kafka_sets if is_kafka_file(os.path.basename(f)) else [[], ['--json']]):
            add(['dump'] + s + [f])
    for d in part_dirs:
        members = [f for f in files if os.path.dirname(f) == d and is_kafka_file(os.path.basename(f))]
        add(['dump', '--files', ','.join(members)])
        add(['dump', '--json', '--files', ','.join(members)])
    for f in logs:
        add(['dump', '--deep-iteration', '-'], stdin=f)
        add(['dump', '--json', '-'], stdin=f)

    # ---- analysis commands
    paths = dirs + logs
    for p in paths:
        for c in COMMANDS_ANALYSIS:
            add([c, p])
            add([c, '--json', p])
            add([c, '-v', p])
        add(['explain', '--value-contains', 'e', p])
        add(['explain', '--json', '--value-contains', 'e', p])
        add(['explain', '--key', 'k1', p])
        add(['explain', '--value-hex', '00', '--json', p])
        add(['explain', '--color', 'always', '--value-contains', 'a', p])
        add(['verify', p])
        add(['verify', '--json', p])
        add(['verify', '-q', p])
    per_dir = [['--by', 'key'], ['--by', 'key+value'], ['--json', '--bytes', 'hex'], ['--json', '--bytes', 'base64'],
               ['--from-offset', '5', '--to-offset', '40'], ['--since', '2020-01-01', '--until', '2030-01-01T00:00Z'],
               ['--since', '1700000000000'], ['--producer-id', '0'], ['--include-internal'], ['--across-topics'],
               ['--top', '2'], ['--fail-on', 'dups,gaps,open-txn'], ['--report', '-'], ['--json', '--report', '-'],
               ['--max-memory', '64K'], ['--threads', '1'], ['--no-seek', '--from-offset', '10'],
               ['--txn-timeout', '1s', '--now', '2035-01-01'], ['--min-bytes', '8'], ['--include-temp'],
               ['--max-batch-bytes', '2000'], ['--color', 'always'], ['-v', '--color', 'always']]
    for d in dirs:
        for c in COMMANDS_ANALYSIS:
            for s in per_dir:
                add([c] + s + [d])
            add([c, '--local-time', d], env={'TZ': 'Asia/Kolkata'})
            add([c, '-v', '--json', '--include-internal', d])
    for d in part_dirs:
        name = os.path.basename(d)
        for off in ('0', '5'):
            add(['explain', '--offset', name + ':' + off, d])
            add(['explain', '--json', '--offset', name + ':' + off, d])
    for f in logs[:20]:
        add(['scan', '-'], stdin=f)
        add(['dups', '--json', '-'], stdin=f)
    add(['verify', '--list-checks'])
    add(['scan', 'gen', 'real'])
    add(['scan', '--json', 'gen', 'real'])

    # ---- diff
    def diff_cases(a, b, full):
        add(['diff', a, b])
        add(['diff', '--json', a, b])
        if full:
            for s in (['--by', 'offset'], ['--by', 'content'], ['--by', 'key'], ['--stat'], ['--read-committed'],
                      ['--max', '3'], ['--json', '--by', 'content', '--bytes', 'hex'], ['--by', 'key+value']):
                add(['diff'] + s + [a, b])
    for p in paths:
        diff_cases(p, p, False)
    for group in (part_dirs, logs, dirs):
        for a, b in zip(group, group[1:]):
            diff_cases(a, b, group is not dirs)

    # ---- coordinator
    for s in (['--group', 'g1'], ['--group', 'payments-consumer', '--json'], ['--transactional-id', 'txn-1'],
              ['--transactional-id', 'tx', '--partitions', '7', '--json'], ['--group', '\u00e9t\u00e9'],
              ['--partitions', '0', '--group', 'x'], [], ['--group']):
        add(['coordinator'] + s)

    # ---- usage
    add([])
    add(['--help'])
    add(['help'])
    add(['dup', 'gen'])
    add(['--json', 'txns', 'gen'])
    for c in COMMANDS_ANALYSIS + ['explain', 'dump', 'diff', 'verify', 'coordinator']:
        add([c, '--help'])
        add([c])
        add([c, '--no-such-option', 'gen'])
    return out


def run(binary, corpus, case):
    env = dict(os.environ)
    for k in ('NO_COLOR', 'SEGSCAN_TEST_UNIT_BYTES', 'SEGSCAN_TEST_PAUSE_AFTER_BATCHES', 'SEGSCAN_TEST_PAUSE_FIFO',
              'SEGSCAN_TEST_EXPORT_SLOT_BYTES', 'SEGSCAN_TEST_EXPORT_THREADS', 'SEGSCAN_TEST_EXPORT_ROWS_PER_GROUP',
              'SEGSCAN_TEST_FAIL_ANALYSIS'):
        env.pop(k, None)
    env.update({'LC_ALL': 'C', 'TZ': 'UTC', 'CI': 'true', 'TMPDIR': os.environ.get('TMPDIR', '/tmp')})
    env.update(case['env'])
    stdin = open(os.path.join(corpus, case['stdin']), 'rb') if case['stdin'] else subprocess.DEVNULL
    try:
        p = subprocess.run([binary] + case['args'], cwd=corpus, stdin=stdin, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env, timeout=600)
    finally:
        if case['stdin']:
            stdin.close()
    return p.returncode, p.stdout, p.stderr


def digest(result):
    rc, out, err = result
    h = hashlib.sha256()
    h.update(str(rc).encode() + b'\0' + hashlib.sha256(out).digest() + hashlib.sha256(err).digest())
    return h.hexdigest()


def case_key(case):
    return json.dumps([case['args'], case['stdin'], sorted(case['env'].items())])


def file_hash(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def show(case, old, new):
    lines = ['--- case: %s%s%s' % (' '.join(case['args']), ' < ' + case['stdin'] if case['stdin'] else '',
                                    ' ' + str(case['env']) if case['env'] else '')]
    if old[0] != new[0]:
        lines.append('exit code: old %d, new %d' % (old[0], new[0]))
    for name, a, b in (('stdout', old[1], new[1]), ('stderr', old[2], new[2])):
        if a != b:
            d = list(difflib.unified_diff(a.decode('utf-8', 'replace').splitlines(),
                                          b.decode('utf-8', 'replace').splitlines(), 'old ' + name, 'new ' + name,
                                          lineterm='', n=1))
            lines.extend(d[:40])
            if len(d) > 40:
                lines.append('... (%d more lines of difference)' % (len(d) - 40))
    return '\n'.join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('old')
    ap.add_argument('new')
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument('--corpus', default=os.path.join(here, '..', '..', 'testdata', 'corpus'))
    ap.add_argument('-j', type=int, default=2)
    ap.add_argument('--cache', help="file keeping OLD's results between runs")
    ap.add_argument('--only', help='cases whose command line contains this')
    ap.add_argument('--list', action='store_true', help='print the cases and exit')
    ap.add_argument('--names', help='write the command lines of the cases that differ to this file')
    a = ap.parse_args()
    corpus = os.path.abspath(a.corpus)
    old, new = os.path.abspath(a.old), os.path.abspath(a.new)
    for b in (old, new):
        if not os.access(b, os.X_OK):
            print('compare_binaries: not an executable: ' + b, file=sys.stderr)
            return 2
    todo = cases(corpus)
    if a.only:
        todo = [c for c in todo if a.only in ' '.join(c['args'])]
    if a.list:
        for c in todo:
            print(' '.join(c['args']) + (' < ' + c['stdin'] if c['stdin'] else ''))
        return 0
    cache, old_id = {}, file_hash(old)
    if a.cache and os.path.exists(a.cache):
        with open(a.cache) as f:
            stored = json.load(f)
        if stored.get('old') == old_id:
            cache = stored['results']

    def one(case):
        k = case_key(case)
        n = run(new, corpus, case)
        o_digest = cache.get(k)
        o = None
        if o_digest is None:
            o = run(old, corpus, case)
            o_digest = digest(o)
        if digest(n) == o_digest:
            return k, o_digest, None
        if o is None:
            # A cached result can be stale (OLD's output names the corpus by its absolute
            # path, and the corpus may have moved): OLD runs again before a difference counts.
            o = run(old, corpus, case)
            if digest(o) == digest(n):
                return k, digest(o), None
        return k, digest(o), (' '.join(case['args']), show(case, o, n))

    differ = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.j)) as ex:
        for k, d, problem in ex.map(one, todo):
            cache[k] = d
            if problem:
                differ.append(problem)
    if a.cache:
        with open(a.cache, 'w') as f:
            json.dump({'old': old_id, 'results': cache}, f)
    if a.names:
        with open(a.names, 'w') as f:
            for name, _ in differ:
                f.write(name + '\n')
    for _, p in differ[:30]:
        print(p)
    if len(differ) > 30:
        print('... and %d more cases differ' % (len(differ) - 30))
    print('compare_binaries: %d cases, %d identical, %d differ' % (len(todo), len(todo) - len(differ), len(differ)))
    return 1 if differ else 0


if __name__ == '__main__':
    sys.exit(main())
