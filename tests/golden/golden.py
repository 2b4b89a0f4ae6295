#!/usr/bin/env python3
"""Golden tests: segscan against the corpus oracles (Python 3 standard library only).

Usage:
  golden.py json     SEGSCAN ROOT [--only PREFIX]... [-j N]
  golden.py dumplog  SEGSCAN ROOT [--only PREFIX]... [-j N]
  golden.py decoded  SEGSCAN ROOT [--only PREFIX]... [-j N]
  golden.py damaged  SEGSCAN ROOT
  golden.py selftest ROOT

ROOT is the corpus folder (testdata/corpus). segscan always runs with ROOT as its working
directory and the path relative to ROOT (e.g. gen/lab/payments-0/00000000000000000000.log), because
the corpus's dumplog files begin with `Dumping <that relative path>`. PREFIX restricts the run to
paths under ROOT/PREFIX (e.g. --only gen).

json: for every `<name>.log` with a `<name>.oracle.jsonl[.gz]`, run `SEGSCAN dump --json --bytes hex`
and compare with the oracle:
  * every field the oracle prints must have the same value in segscan's object (segscan may print
    more fields); the oracle's header `valueHex` is segscan's header `value`; every segscan object
    has a "file" field.
  * oracle ending with {"type":"end"}: same number of objects, all equal, no error object, exit 0.
  * oracle ending with {"type":"error", "endOfLastCompleteBatch": E}: the objects before it match one
    for one, then segscan's next object is an error object {"position","reason","kind"} whose
    position lies within the failing batch, what follows is free (segscan resyncs) except that the
    last object is an end object; exit 3. The failing batch: when the oracle printed it (the
    object just before the error is a batch with crcValid false; Kafka then reports E = the END of
    that batch), [its position, position + sizeInBytes); otherwise the batch starting at E:
    [E, fileSize).
  * zero tail: when the bytes from E to the end of the file are all zero (a preallocated tail),
    segscan reports no error but ends with {"type":"end","endOfLastBatch":E,
    "unreadTailBytes":fileSize-E}; exit 0.
dumplog: for every `<name>.dumplog.<set>.txt[.gz]` beside a `<name>.log` (or a KRaft snapshot
`<name>.checkpoint`), run `SEGSCAN dump` with the flags of that set (the decoder sets included) and
compare stdout byte for byte; the exit code must be the one the oracle implies. Where Kafka 4.0 as
released prints otherwise than the corpus's renderings, the expected text is first changed as the
release's sources say (release_text: each change cited).
decoded: for every decoder rendering (offsets, cluster-metadata, share-group-state,
remote-log-metadata), `SEGSCAN dump --json` with that decoder must carry, record by record, what the
text prints: the same key and value JSON, the same error text, the same toString text, the same
KRaft control record JSON.
damaged: exit codes of the gen/damaged-* scenarios, and the batches segscan finds after resyncing in
the CRC-flip scenarios against the oracle of the undamaged original.
selftest: feeds the comparators streams built from the oracles, then mutated ones, and checks that
every mutation is reported (so that these tests can fail).

Exit status: 0 when everything passed, 1 when something failed, 2 on a usage error.
"""

import argparse
import concurrent.futures
import copy
import gzip
import json
import os
import re
import subprocess
import sys

DUMPLOG_SETS = {
    'plain': [],
    'deep': ['--deep-iteration'],
    'data': ['--deep-iteration', '--print-data-log'],
    'data-nometa': ['--print-data-log', '--skip-record-metadata'],
    # the decoder sets (corpus README, "Decoder renderings"): each decoder implies --print-data-log
    'offsets': ['--offsets-decoder'],
    'offsets-skip': ['--offsets-decoder', '--skip-record-metadata'],
    'cluster-metadata': ['--cluster-metadata-decoder'],
    'cluster-metadata-skip': ['--cluster-metadata-decoder', '--skip-record-metadata'],
    'share-group-state': ['--share-group-state-decoder'],
    'share-group-state-skip': ['--share-group-state-decoder', '--skip-record-metadata'],
    'remote-log-metadata': ['--remote-log-metadata-decoder'],
    'remote-log-metadata-skip': ['--remote-log-metadata-decoder', '--skip-record-metadata'],
}
DUMPLOG_RE = re.compile(r'^(?P<base>.+)\.dumplog\.(?P<set>%s)\.txt(?:\.gz)?$'
                        % '|'.join(re.escape(k) for k in sorted(DUMPLOG_SETS, key=len, reverse=True)))

EXIT_OK = 0
EXIT_DAMAGED = 3

# The texts under gen-kafka42/ are Kafka 4.2's kafka-dump-log.sh (segscan's default); the others were
# rendered from Kafka of October 2024 (1eb7644), i.e. 4.0's output: segscan prints as 4.0 did where the
# versions differ (a KRaft LeaderChange, KAFKA-19069; the share-group-state value's "type" label).
KAFKA42_PREFIX = 'gen-kafka42/'


def version_args(rel):
    return [] if rel.startswith(KAFKA42_PREFIX) else ['--kafka-version', '4.0']

# gen/damaged-* scenarios whose damage is an incomplete or zero tail: not an error, exit 0.
DAMAGED_EXIT_0 = {'damaged-len-past-eof', 'damaged-trailing-zeros', 'damaged-trailing-zeros-small',
                  'damaged-truncated'}
# CRC-flip scenario -> the undamaged scenario it was made from.
RESYNC_ORIGINAL = {'damaged-crc-flip': 'codec-none', 'damaged-crc-flip-zstd': 'codec-zstd',
                   'damaged-crc-flip-legacy': 'legacy-v1-none'}

RUN_TIMEOUT = 900  # seconds for one segscan run


class Mismatch(Exception):
    """The first difference found; str() is the message printed after FAIL."""


# ----------------------------------------------------------------------------- helpers

def read_maybe_gz(path):
    with open(path, 'rb') as f:
        data = f.read()
    if path.endswith('.gz'):
        data = gzip.decompress(data)
    return data


def oracle_for(root, rel_log):
    if not rel_log.endswith('.log'):
        return None  # KRaft snapshots (.checkpoint) have renderings but no oracle
    base = os.path.join(root, rel_log[:-len('.log')])
    for cand in (base + '.oracle.jsonl', base + '.oracle.jsonl.gz'):
        if os.path.isfile(cand):
            return cand
    return None


def load_jsonl(data, what):
    objs = []
    lines = data.split(b'\n')
    if lines and lines[-1] == b'':
        lines.pop()
    for i, line in enumerate(lines, 1):
        try:
            o = json.loads(line.decode('utf-8'))
        except (UnicodeDecodeError, ValueError) as e:
            raise Mismatch('%s line %d is not JSON (%s): %s' % (what, i, e, shorten(line)))
        if not isinstance(o, dict):
            raise Mismatch('%s line %d is not a JSON object: %s' % (what, i, shorten(line)))
        objs.append(o)
    return objs


def shorten(v, n=100):
    s = v.decode('utf-8', 'backslashreplace') if isinstance(v, bytes) else json.dumps(v, ensure_ascii=False)
    return s if len(s) <= n else s[:n] + '...(%d chars)' % len(s)


def describe_diff(exp, got):
    if isinstance(exp, str) and isinstance(got, str) and (len(exp) > 60 or len(got) > 60):
        i = 0
        while i < min(len(exp), len(got)) and exp[i] == got[i]:
            i += 1
        lo = max(0, i - 20)
        return 'expected %s, got %s (first difference at char %d; lengths %d/%d)' % (
            shorten(exp[lo:i + 40]), shorten(got[lo:i + 40]), i, len(exp), len(got))
    return 'expected %s, got %s' % (shorten(exp), shorten(got))


def same_scalar(exp, got):
    # JSON true/false must not compare equal to 1/0 as they do in Python.
    if isinstance(exp, bool) or isinstance(got, bool):
        return type(exp) is type(got) and exp == got
    if isinstance(exp, (int, float)) and isinstance(got, (int, float)):
        return exp == got
    return type(exp) is type(got) and exp == got


def compare_value(exp, got, path):
    """Raises Mismatch at the first field of exp that got lacks or has with another value."""
    if isinstance(exp, dict):
        if not isinstance(got, dict):
            raise Mismatch('field %s: %s' % (path, describe_diff(exp, got)))
        for k, v in exp.items():
            gk = 'value' if k == 'valueHex' else k  # oracle header valueHex == segscan header value
            sub = '%s.%s' % (path, gk) if path else gk
            if gk not in got:
                raise Mismatch('field %s missing (expected %s)' % (sub, shorten(v)))
            compare_value(v, got[gk], sub)
    elif isinstance(exp, list):
        if not isinstance(got, list):
            raise Mismatch('field %s: %s' % (path, describe_diff(exp, got)))
        if len(exp) != len(got):
            raise Mismatch('field %s: expected %d elements, got %d (%s vs %s)' % (
                path, len(exp), len(got), shorten(exp), shorten(got)))
        for i, (e, g) in enumerate(zip(exp, got)):
            compare_value(e, g, '%s[%d]' % (path, i))
    elif not same_scalar(exp, got):
        raise Mismatch('field %s: %s' % (path, describe_diff(exp, got)))


def label(o):
    t = o.get('type')
    if t == 'batch':
        return 'batch at position %s' % o.get('position')
    if t == 'record':
        return 'record offset %s' % o.get('offset')
    return str(t)


def compare_object(exp, got, lineno, skip=()):
    e = {k: v for k, v in exp.items() if k not in skip}
    try:
        compare_value(e, got, '')
    except Mismatch as m:
        raise Mismatch('line %d (%s): %s' % (lineno, label(exp), m))


def check_file_fields(objs, rel, root):
    want = os.path.realpath(os.path.join(root, rel))
    for i, o in enumerate(objs, 1):
        f = o.get('file')
        if not isinstance(f, str):
            raise Mismatch('line %d (%s): no "file" field' % (i, label(o)))
        if f != rel and os.path.realpath(os.path.join(root, f)) != want:
            raise Mismatch('line %d (%s): "file" is %s, expected %s' % (i, label(o), shorten(f), shorten(rel)))


def failing_range(oracle):
    """[lo, hi) where segscan's error position must lie, for an oracle ending with an error."""
    err = oracle[-1]
    E, size = err['endOfLastCompleteBatch'], err['fileSize']
    prev = oracle[-2] if len(oracle) >= 2 else None
    if prev is not None and prev.get('type') == 'batch' and prev.get('crcValid') is False:
        return prev['position'], prev['position'] + prev['sizeInBytes']
    return E, max(size, E + 1)


def tail_is_zero(path, start):
    with open(path, 'rb') as f:
        f.seek(start)
        while True:
            chunk = f.read(1 << 20)
            if not chunk:
                return True
            if chunk.count(0) != len(chunk):
                return False


def expected_exit(oracle, zero_tail):
    last = oracle[-1] if oracle else {'type': 'end'}
    return EXIT_OK if last.get('type') == 'end' or zero_tail else EXIT_DAMAGED


def check_json_stream(oracle, out, rc, rel, root, zero_tail):
    """Compares segscan's JSON Lines (bytes) and exit code with the oracle; raises Mismatch."""
    objs = load_jsonl(out, 'segscan output')
    check_file_fields(objs, rel, root)
    last = oracle[-1]
    if last['type'] == 'end':
        for i, exp in enumerate(oracle):
            if i >= len(objs):
                raise Mismatch('line %d: segscan output ends; expected %s' % (i + 1, shorten(exp)))
            compare_object(exp, objs[i], i + 1)
        if len(objs) > len(oracle):
            raise Mismatch('line %d: unexpected extra object %s' % (len(oracle) + 1, shorten(objs[len(oracle)])))
        want_rc = EXIT_OK
    elif last['type'] == 'error':
        prefix = oracle[:-1]
        for i, exp in enumerate(prefix):
            if i >= len(objs):
                raise Mismatch('line %d: segscan output ends; expected %s' % (i + 1, shorten(exp)))
            if objs[i].get('type') == 'error' and exp.get('type') != 'error':
                raise Mismatch('line %d: segscan reports an error %s where the oracle has %s' % (
                    i + 1, shorten(objs[i]), label(exp)))
            compare_object(exp, objs[i], i + 1)
        n = len(prefix)
        E, size = last['endOfLastCompleteBatch'], last['fileSize']
        if zero_tail:
            want = {'type': 'end', 'fileSize': size, 'endOfLastBatch': E, 'unreadTailBytes': size - E}
            if n >= len(objs):
                raise Mismatch('line %d: segscan output ends; expected %s (zero tail)' % (n + 1, shorten(want)))
            if objs[n].get('type') == 'error':
                raise Mismatch('line %d: segscan reports an error %s, but bytes %d..%d are all zero '
                               '(zero tail: expected %s)' % (n + 1, shorten(objs[n]), E, size, shorten(want)))
            compare_object(want, objs[n], n + 1)
            if len(objs) > n + 1:
                raise Mismatch('line %d: unexpected object after end: %s' % (n + 2, shorten(objs[n + 1])))
            want_rc = EXIT_OK
        else:
            lo, hi = failing_range(oracle)
            if n >= len(objs):
                raise Mismatch('line %d: segscan output ends; expected an error object at position %d..%d '
                               '(oracle: %s)' % (n + 1, lo, hi - 1, last.get('message')))
            got = objs[n]
            if got.get('type') != 'error':
                raise Mismatch('line %d: expected an error object at position %d..%d (oracle: %s), got %s' % (
                    n + 1, lo, hi - 1, last.get('message'), shorten(got)))
            for k in ('position', 'reason', 'kind'):
                if k not in got:
                    raise Mismatch('line %d (error): field %s missing' % (n + 1, k))
            pos = got['position']
            if isinstance(pos, bool) or not isinstance(pos, int) or not lo <= pos < hi:
                raise Mismatch('line %d (error): position %s is not within the failing batch [%d, %d) '
                               '(oracle: %s)' % (n + 1, shorten(pos), lo, hi, last.get('message')))
            if objs[-1].get('type') != 'end':
                raise Mismatch('line %d: the last object is %s, not an end object' % (len(objs), shorten(objs[-1])))
            want_rc = EXIT_DAMAGED
    else:
        raise Mismatch('oracle ends with an object of type %r' % last.get('type'))
    if rc != want_rc:
        raise Mismatch('exit code %d, expected %d' % (rc, want_rc))


def check_text(expected, got):
    """Byte-for-byte comparison of two texts; raises Mismatch naming the first differing line."""
    if expected == got:
        return
    el, gl = expected.split(b'\n'), got.split(b'\n')
    for i in range(max(len(el), len(gl))):
        e = el[i] if i < len(el) else None
        g = gl[i] if i < len(gl) else None
        if e == g:
            continue
        last_e, last_g = i == len(el) - 1, i == len(gl) - 1
        if g is None and last_e and e == b'':
            raise Mismatch('line %d: the output lacks the final newline' % i)
        if e is None and last_g and g == b'':
            raise Mismatch('line %d: the output has a newline too many at its end' % i)
        if e is None or (last_e and e == b''):
            raise Mismatch('line %d: unexpected extra line\n  got:      %s' % (i + 1, shorten(g, 300)))
        if g is None or (last_g and g == b''):
            raise Mismatch('line %d: the output ends early\n  expected: %s' % (i + 1, shorten(e, 300)))
        c = 0
        while c < min(len(e), len(g)) and e[c] == g[c]:
            c += 1
        lo = max(0, c - 60)
        cut = '...' if lo else ''
        raise Mismatch('line %d, column %d:\n  expected: %s\n  got:      %s' % (
            i + 1, c + 1, cut + shorten(e[lo:], 300), cut + shorten(g[lo:], 300)))
    raise Mismatch('the outputs differ')  # not reached: equal line lists mean equal bytes


# ----------------------------------------------------------------------------- running segscan

def run_segscan(segscan, root, args):
    env = dict(os.environ)
    env['NO_COLOR'] = '1'
    try:
        p = subprocess.run([segscan] + args, cwd=root, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=RUN_TIMEOUT, env=env)
    except subprocess.TimeoutExpired:
        raise Mismatch('segscan %s: timed out after %d s' % (' '.join(args), RUN_TIMEOUT))
    except OSError as e:
        raise Mismatch('cannot run %s: %s' % (segscan, e))
    if p.returncode < 0 or p.returncode == 2:
        err = p.stderr.decode('utf-8', 'backslashreplace').strip().splitlines()
        raise Mismatch('segscan %s: %s; stderr: %s' % (
            ' '.join(args), 'killed by signal %d' % -p.returncode if p.returncode < 0 else 'exit code 2',
            ' | '.join(err[-5:]) or '(empty)'))
    return p.stdout, p.returncode


def find_logs(root, only, snapshots=False):
    """The .log files under ROOT (and, with snapshots, the KRaft .checkpoint files)."""
    prefixes = [p.strip('/') for p in (only or [])]
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for fn in sorted(filenames):
            if not (fn.endswith('.log') or (snapshots and fn.endswith('.checkpoint'))):
                continue
            rel = os.path.relpath(os.path.join(dirpath, fn), root).replace(os.sep, '/')
            if prefixes and not any(rel.startswith(p + '/') for p in prefixes):
                continue
            found.append(rel)
    return found


def load_oracle(root, rel):
    path = oracle_for(root, rel)
    if path is None:
        return None, False
    oracle = load_jsonl(read_maybe_gz(path), os.path.relpath(path, root))
    if not oracle:
        raise Mismatch('empty oracle %s' % path)
    last = oracle[-1]
    zero_tail = (last['type'] == 'error'
                 and tail_is_zero(os.path.join(root, rel), last['endOfLastCompleteBatch']))
    return oracle, zero_tail


def json_job(segscan, root, rel):
    oracle, zero_tail = load_oracle(root, rel)
    out, rc = run_segscan(segscan, root, ['dump', '--json', '--bytes', 'hex', rel])
    check_json_stream(oracle, out, rc, rel, root, zero_tail)


# Where Kafka 4.0 as released prints otherwise than the sources of October 2024 that rendered the corpus
# (corpus README), the expected text is changed as the release's sources say, line by line:
#
# share-group-state: the corpus's ShareUpdate records carry value version 1 (as Kafka wrote them then).
# ShareUpdateValue.json's validVersions is "0" (KAFKA-18437, 4.0 branch: the writer was fixed to write
# version 0), and 4.0's CoordinatorRecordSerde.deserialize refuses a value version outside validVersions
# before reading it (KAFKA-18672, cherry-picked to 4.0: UnknownRecordVersionException "Found an unknown
# record version %d for %d type"), which ShareGroupStateMessageParser prints as "Error at offset O,
# skipping. <message>" in place of the key, with no payload.
SHARE_UPDATE_V1 = re.compile(rb'^(?P<head>.*?)key: \{"type":"1",.*\} payload: \{"type":"1",.*$')


def release_text(dset, text):
    if not dset.startswith('share-group-state'):
        return text
    out = []
    for line in text.split(b'\n'):
        m = SHARE_UPDATE_V1.match(line)
        if m:
            off = re.search(rb'offset: (\d+)', line)
            if off is None:  # --skip-record-metadata: the offset comes from the unskipped rendering
                raise Mismatch('cannot place the 4.0 error without the record offset')
            line = m.group('head') + b'key: Error at offset ' + off.group(1) + \
                b', skipping. Found an unknown record version 1 for 1 type'
        out.append(line)
    return b'\n'.join(out)


def dumplog_job(segscan, root, rel, dset, expected_path):
    oracle, zero_tail = load_oracle(root, rel)
    want_rc = expected_exit(oracle, zero_tail) if oracle else EXIT_OK
    out, rc = run_segscan(segscan, root, ['dump'] + version_args(rel) + DUMPLOG_SETS[dset] + [rel])
    expected = read_maybe_gz(expected_path)
    if rel.startswith(KAFKA42_PREFIX):
        pass  # Kafka 4.2's own text, as it is
    elif dset.endswith('-skip') and dset.startswith('share-group-state'):
        # the record offsets of the skipped lines, from the rendering with metadata (same records, same order)
        full = read_maybe_gz(expected_path.replace('.dumplog.%s.' % dset, '.dumplog.%s.' % dset[:-len('-skip')]))
        offs = [re.search(rb'\| offset: (\d+) ', l).group(1) for l in full.split(b'\n')
                if l.startswith(b'| offset: ')]
        lines, k = [], 0
        for line in expected.split(b'\n'):
            if line.startswith(b'| '):
                if SHARE_UPDATE_V1.match(line):
                    line = b'| key: Error at offset ' + offs[k] + b', skipping. Found an unknown record version 1 ' \
                        b'for 1 type'
                k += 1
            lines.append(line)
        expected = b'\n'.join(lines)
    else:
        expected = release_text(dset, expected)
    check_text(expected, out)
    if rc != want_rc:
        raise Mismatch('exit code %d, expected %d' % (rc, want_rc))


DECODER_SETS = ('offsets', 'cluster-metadata', 'share-group-state', 'remote-log-metadata')
CONTROL_LABELS = (b' SnapshotHeader ', b' SnapshotFooter ', b' KRaftVersion ', b' KRaftVoters ', b' LeaderChange: ')


def text_records(text):
    """offset -> the rest of its line after the record's metadata ("key: ..."/"payload: ..."), from a
    decoder rendering with metadata; control records: offset -> ('control', JSON text)."""
    out = {}
    for line in text.split(b'\n'):
        if not line.startswith(b'| offset: '):
            continue
        off = int(line.split(b' ')[2])
        if b' headerKeys: [' in line:
            tail = line.split(b' headerKeys: [', 1)[1]
        else:  # magic 0/1: "... isValid: B crc: N}" ends the metadata
            tail = line.split(b' crc: ', 1)[1]
        tail = tail.split(b'] ' if b' headerKeys: [' in line else b'} ', 1)[1] if (
            b'] ' if b' headerKeys: [' in line else b'} ') in tail else b''
        if tail.startswith((b'endTxnMarker: ', b'controlType: ')):
            continue  # a transaction marker, a leader change: no decoded member, nothing decoded
        for lab in CONTROL_LABELS:
            if tail.startswith(lab[1:]):
                out[off] = ('control', tail[len(lab) - 1:])
                break
        else:
            out[off] = ('data', tail)
    return out


def decoded_job(segscan, root, rel, dset, expected_path):
    """--json with the decoder carries what the text prints, record by record."""
    text = read_maybe_gz(expected_path)
    if not rel.startswith(KAFKA42_PREFIX):
        text = release_text(dset, text)
    want = text_records(text)
    out, rc = run_segscan(segscan, root, ['dump', '--json'] + version_args(rel) + DUMPLOG_SETS[dset] + [rel])
    objs = [o for o in load_jsonl(out, 'segscan output') if o.get('type') == 'record']
    got = {o['offset']: o for o in objs}
    missing = sorted(set(want) - set(got))
    extra = sorted(o for o in got if o not in want and 'decoded' in got[o])
    if missing or extra:
        raise Mismatch('records decoded in the text only: %s; in the JSON only: %s' % (missing[:5], extra[:5]))
    dec = json.JSONDecoder()
    for off in sorted(want):
        kind, tail = want[off]
        o = got[off]
        where = 'offset %d: ' % off
        if kind == 'control':
            if o.get('kraftControl', {}).get('data') != json.loads(tail):
                raise Mismatch(where + 'kraftControl %s, text %s' % (shorten(o.get('kraftControl')), shorten(tail)))
            continue
        d = o.get('decoded')
        if d is None:
            raise Mismatch(where + 'no decoded member')
        t = tail.decode('utf-8')
        if dset in ('cluster-metadata', 'remote-log-metadata'):
            if not t.startswith('payload: '):
                raise Mismatch(where + 'text without payload: %s' % shorten(t))
            t = t[len('payload: '):]
            if t.startswith('Error at '):
                if d.get('error') != t:
                    raise Mismatch(where + 'error %s, text %s' % (shorten(d.get('error')), shorten(t)))
            elif dset == 'remote-log-metadata':
                if d.get('text') != t:
                    raise Mismatch(where + 'text member %s, text %s' % (shorten(d.get('text')), shorten(t)))
            elif d.get('value') != json.loads(t):
                raise Mismatch(where + 'value %s, text %s' % (shorten(d.get('value')), shorten(t)))
            continue
        if not t.startswith('key: '):
            raise Mismatch(where + 'text without key: %s' % shorten(t))
        t = t[len('key: '):]
        if not t.startswith('{'):
            if d.get('error') != t:
                raise Mismatch(where + 'error %s, text %s' % (shorten(d.get('error')), shorten(t)))
            continue
        key, end = dec.raw_decode(t)
        rest = t[end:]
        if d.get('key') != key:
            raise Mismatch(where + 'key %s, text %s' % (shorten(d.get('key')), shorten(key)))
        if not rest.startswith(' payload: '):
            raise Mismatch(where + 'text without payload')
        rest = rest[len(' payload: '):]
        if rest == '<DELETE>':
            if d.get('value') is not None:
                raise Mismatch(where + 'a tombstone with a value in the JSON')
            continue
        val = json.loads(rest)
        if dset == 'share-group-state' and 'type' in val:  # Kafka 4.0's text labels the value's version "type"
            val = {'version': val.pop('type'), 'data': val['data']}
        if d.get('value') != val:
            raise Mismatch(where + 'value %s, text %s' % (shorten(d.get('value')), shorten(val)))


def cmd_decoded(a):
    jobs = []
    for rel in find_logs(a.root, a.only, snapshots=True):
        d, base = os.path.split(os.path.join(a.root, rel))
        if base.endswith('.log'):
            base = base[:-len('.log')]
        for fn in sorted(os.listdir(d)):
            m = DUMPLOG_RE.match(fn)
            if m and m.group('base') == base and m.group('set') in DECODER_SETS:
                dset = m.group('set')
                jobs.append(('%s [%s --json]' % (rel, dset),
                             lambda rel=rel, dset=dset, p=os.path.join(d, fn): decoded_job(a.segscan, a.root, rel, dset, p)))
    return run_jobs('golden-decoded', jobs, a.jobs)


def run_jobs(name, jobs, nthreads):
    """jobs: list of (title, callable). Prints ok/FAIL per job and a summary; returns exit status."""
    def one(job):
        title, fn = job
        try:
            fn()
            return 'ok %s' % title, True
        except Mismatch as m:
            return 'FAIL %s: %s' % (title, m), False
        except Exception as e:  # a harness bug must show, not pass
            return 'FAIL %s: harness error %s: %s' % (title, type(e).__name__, e), False
    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, nthreads)) as ex:
        for line, ok in ex.map(one, jobs):
            print(line, flush=True)
            if ok:
                passed += 1
            else:
                failed += 1
    print('%s: %d passed, %d failed' % (name, passed, failed), flush=True)
    if passed + failed == 0:
        print('%s: nothing to test (wrong ROOT or --only?)' % name, flush=True)
        return 1
    return 1 if failed else 0


def cmd_json(a):
    jobs = []
    for rel in find_logs(a.root, a.only):
        if oracle_for(a.root, rel):
            jobs.append((rel, lambda rel=rel: json_job(a.segscan, a.root, rel)))
    return run_jobs('golden-json', jobs, a.jobs)


def cmd_dumplog(a):
    jobs = []
    for rel in find_logs(a.root, a.only, snapshots=True):
        d, base = os.path.split(os.path.join(a.root, rel))
        if base.endswith('.log'):
            base = base[:-len('.log')]  # a snapshot's renderings keep its whole name
        for fn in sorted(os.listdir(d)):
            m = DUMPLOG_RE.match(fn)
            if m and m.group('base') == base:
                dset = m.group('set')
                jobs.append(('%s [%s]' % (rel, dset),
                             lambda rel=rel, dset=dset, p=os.path.join(d, fn): dumplog_job(a.segscan, a.root, rel, dset, p)))
    return run_jobs('golden-dumplog', jobs, a.jobs)


# ----------------------------------------------------------------------------- damaged scenarios

def split_after_first_error(objs):
    for i, o in enumerate(objs):
        if o.get('type') == 'error':
            return objs[:i], objs[i + 1:]
    return objs, None


def check_resync(dmg_oracle, orig_oracle, out):
    """After the first error object, segscan's stream must equal the original's from the first batch
    after the damaged one on (all fields, with the records), ending with the original's end object;
    segscan's damaged batch itself must equal the original's batch except crc/crcValid."""
    objs = load_jsonl(out, 'segscan output')
    bad = dmg_oracle[-2]
    if not (bad.get('type') == 'batch' and bad.get('crcValid') is False):
        raise Mismatch('oracle of the damaged file does not end with a crcValid:false batch')
    bad_pos, bad_end = bad['position'], bad['position'] + bad['sizeInBytes']
    before, after = split_after_first_error(objs)
    if after is None:
        raise Mismatch('segscan reported no error')
    orig_bad = [o for o in orig_oracle if o.get('type') == 'batch' and o.get('position') == bad_pos]
    got_bad = [(i, o) for i, o in enumerate(before) if o.get('type') == 'batch' and o.get('position') == bad_pos]
    if not orig_bad:
        raise Mismatch('original has no batch at position %d' % bad_pos)
    if not got_bad:
        raise Mismatch('segscan printed no batch at the damaged position %d before its error' % bad_pos)
    compare_object(orig_bad[0], got_bad[0][1], got_bad[0][0] + 1, skip=('crc', 'crcValid'))
    start = next((i for i, o in enumerate(orig_oracle) if o.get('type') == 'batch' and o['position'] >= bad_end),
                 None)
    want = orig_oracle[start:] if start is not None else [orig_oracle[-1]]
    first = len(before) + 2  # line number of the first object after the error
    for j, exp in enumerate(want):
        if j >= len(after):
            raise Mismatch('after the error: segscan output ends at line %d; expected %s' % (
                first + j, shorten(exp)))
        try:
            compare_object(exp, after[j], first + j)
        except Mismatch as m:
            raise Mismatch('after the error (vs the undamaged original): %s' % m)
    if len(after) > len(want):
        raise Mismatch('after the error: unexpected extra object at line %d: %s' % (
            first + len(want), shorten(after[len(want)])))


def damaged_jobs(segscan, root):
    gen = os.path.join(root, 'gen')
    jobs = []
    scenarios = sorted(d for d in os.listdir(gen) if d.startswith('damaged-') and os.path.isdir(os.path.join(gen, d)))
    for scen in scenarios:
        want_rc = EXIT_OK if scen in DAMAGED_EXIT_0 else EXIT_DAMAGED
        logs = find_logs(root, ['gen/' + scen])
        if not logs:
            def missing(scen=scen):
                raise Mismatch('no .log under gen/' + scen)
            jobs.append(('gen/' + scen, missing))
        for rel in logs:
            for mode, args in (('json', ['dump', '--json', '--bytes', 'hex', rel]), ('text', ['dump', rel])):
                def job(rel=rel, args=args, want_rc=want_rc):
                    out, rc = run_segscan(segscan, root, args)
                    if rc != want_rc:
                        raise Mismatch('exit code %d, expected %d' % (rc, want_rc))
                    if args[1] == '--json':
                        objs = load_jsonl(out, 'segscan output')
                        if not objs or objs[-1].get('type') != 'end':
                            raise Mismatch('the last object is not an end object')
                        errors = [o for o in objs if o.get('type') == 'error']
                        if want_rc == EXIT_DAMAGED and not errors:
                            raise Mismatch('exit code 3 but no error object')
                        if want_rc == EXIT_OK and errors:
                            raise Mismatch('exit code 0 but an error object: %s' % shorten(errors[0]))
                jobs.append(('%s [%s exit %d]' % (rel, mode, want_rc), job))
        if scen in RESYNC_ORIGINAL:
            orig = RESYNC_ORIGINAL[scen]
            def rjob(scen=scen, orig=orig, logs=logs):
                orig_logs = find_logs(root, ['gen/' + orig])
                if len(logs) != 1 or len(orig_logs) != 1:
                    raise Mismatch('expected one .log in gen/%s and one in gen/%s' % (scen, orig))
                dmg_oracle, _ = load_oracle(root, logs[0])
                orig_oracle, _ = load_oracle(root, orig_logs[0])
                out, rc = run_segscan(segscan, root, ['dump', '--json', '--bytes', 'hex', logs[0]])
                check_resync(dmg_oracle, orig_oracle, out)
            jobs.append(('gen/%s [resync vs gen/%s]' % (scen, orig), rjob))
    return jobs


def cmd_damaged(a):
    return run_jobs('golden-damaged', damaged_jobs(a.segscan, a.root), a.jobs)


# ----------------------------------------------------------------------------- self-test

def fake_stream(oracle, rel, zero_tail, original=None):
    """What a correct segscan prints for this oracle (objects, exit code). `original`: the undamaged
    original's oracle, to continue after a CRC error as a resyncing segscan would."""
    out = []
    for o in oracle:
        o = copy.deepcopy(o)
        o['file'] = rel
        for h in o.get('headers') or []:
            h['value'] = h.pop('valueHex')
        if o['type'] != 'error':
            out.append(o)
            continue
        E, size = o['endOfLastCompleteBatch'], o['fileSize']
        if zero_tail:
            out.append({'type': 'end', 'file': rel, 'fileSize': size, 'endOfLastBatch': E, 'unreadTailBytes': size - E})
            return out, EXIT_OK
        lo, hi = failing_range(oracle)
        out.append({'type': 'error', 'file': rel, 'position': lo, 'reason': o['message'], 'kind': 'corrupt'})
        if original is not None:
            start = next((i for i, x in enumerate(original) if x['type'] == 'batch' and x['position'] >= hi),
                         None)
            rest, _ = fake_stream(original[start:] if start is not None else original[-1:], rel, False)
            out.extend(rest)
        else:
            out.append({'type': 'end', 'file': rel, 'fileSize': size, 'endOfLastBatch': E, 'unreadTailBytes': 0})
        return out, EXIT_DAMAGED
    return out, EXIT_OK


def dump_lines(objs):
    return b''.join(json.dumps(o, ensure_ascii=False).encode('utf-8') + b'\n' for o in objs)


def cmd_selftest(a):
    root = a.root
    results = []

    def expect(title, fn, fail_contains=None):
        """fail_contains None: fn must pass; else fn must raise Mismatch containing that text."""
        try:
            fn()
        except Mismatch as m:
            ok = fail_contains is not None and fail_contains in str(m)
            results.append((ok, '%s: %s' % (title, m) if ok else '%s: unexpected failure: %s' % (title, m)))
            return
        ok = fail_contains is None
        results.append((ok, title if ok else '%s: mutation NOT detected (expected a failure naming %r)'
                        % (title, fail_contains)))

    def scen_log(scen):
        logs = find_logs(root, ['gen/' + scen])
        if len(logs) != 1:
            raise SystemExit('selftest: expected one .log under gen/%s in %s' % (scen, root))
        return logs[0]

    def check(oracle, objs, rc, rel, zero_tail):
        return lambda: check_json_stream(oracle, dump_lines(objs), rc, rel, root, zero_tail)

    # 1. every clean gen scenario and a few real files: the oracle rendered as segscan output passes,
    #    and changing any one field of the oracle (in memory) is reported, naming that field.
    samples = [scen_log(s) for s in ('lab', 'codec-none', 'legacy-v1-none', 'legacy-v0-gzip', 'txn-abort',
                                     'compacted', 'format-upgrade', 'empty', 'damaged-len-past-eof')]
    samples += [r for r in find_logs(root, ['real'])][:3]
    for rel in samples:
        oracle, zt = load_oracle(root, rel)
        objs, rc = fake_stream(oracle, rel, zt)
        expect('pass %s' % rel, check(oracle, objs, rc, rel, zt))
        picks = [i for i, o in enumerate(oracle) if o['type'] == 'batch'][:2]
        picks += [i for i, o in enumerate(oracle) if o['type'] == 'record'][:2]
        picks += [len(oracle) - 1]
        for i in picks:
            for k, v in oracle[i].items():
                if k == 'type':
                    continue
                mutated = copy.deepcopy(oracle)
                if isinstance(v, bool):
                    nv = not v
                elif isinstance(v, int):
                    nv = v + 1
                elif isinstance(v, str):
                    nv = v + '0'
                elif v is None:
                    nv = 0
                elif isinstance(v, list):
                    nv = v + [{'key': 'x', 'valueHex': None}]
                else:
                    continue
                mutated[i][k] = nv
                expect('oracle %s line %d field %s changed' % (rel, i + 1, k),
                       check(mutated, objs, rc, rel, zt), k)
        if len(objs) > 1:
            expect('drop last object of %s' % rel, check(oracle, objs[:-1], rc, rel, zt), 'line')
        expect('extra error object in %s' % rel,
               check(oracle, objs[:-1] + [{'type': 'error', 'file': rel, 'position': 0, 'reason': 'x', 'kind': 'x'}]
                     + objs[-1:], rc, rel, zt), 'line')
        expect('exit code 3 on %s' % rel, check(oracle, objs, EXIT_DAMAGED, rel, zt), 'exit code')
        nofile = copy.deepcopy(objs)
        del nofile[-1]['file']
        expect('no file field in %s' % rel, check(oracle, nofile, rc, rel, zt), '"file"')

    # 2. headers: oracle valueHex is segscan value
    rel = scen_log('codec-none')
    oracle, zt = load_oracle(root, rel)
    objs, rc = fake_stream(oracle, rel, zt)
    hi = next(i for i, o in enumerate(objs) if o.get('headers'))
    bad = copy.deepcopy(objs)
    bad[hi]['headers'][0]['value'] = (bad[hi]['headers'][0]['value'] or '') + '00'
    expect('header value changed', check(oracle, bad, rc, rel, zt), 'headers[0].value')
    bad = copy.deepcopy(objs)
    bad[hi]['headers'][0]['valueHex'] = bad[hi]['headers'][0].pop('value')
    expect('header value printed as valueHex', check(oracle, bad, rc, rel, zt), 'headers[0].value missing')
    bad = copy.deepcopy(objs)
    bad[0]['isControl'] = 0
    expect('false printed as 0', check(oracle, bad, rc, rel, zt), 'isControl')
    bad = copy.deepcopy(objs)
    bad[0]['extraField'] = 1
    expect('extra fields are allowed', check(oracle, bad, rc, rel, zt))
    expect('not JSON', lambda: check_json_stream(oracle, b'{"type":"batch"\n', rc, rel, root, zt), 'not JSON')

    # 3. oracle ending with an error
    for scen in ('damaged-crc-flip', 'damaged-crc-flip-zstd', 'damaged-crc-flip-legacy', 'damaged-bad-magic',
                 'damaged-garbage', 'damaged-len-too-small'):
        rel = scen_log(scen)
        oracle, zt = load_oracle(root, rel)
        lo, hi_ = failing_range(oracle)
        objs, rc = fake_stream(oracle, rel, zt)
        n = len(oracle) - 1
        expect('pass %s (error at %d)' % (rel, lo), check(oracle, objs, rc, rel, zt))
        last_in = copy.deepcopy(objs)
        last_in[n]['position'] = hi_ - 1
        expect('%s error at last byte of failing batch' % rel, check(oracle, last_in, rc, rel, zt))
        for p in (lo - 1, hi_):
            moved = copy.deepcopy(objs)
            moved[n]['position'] = p
            if p >= 0:
                expect('%s error position %d outside [%d,%d)' % (rel, p, lo, hi_),
                       check(oracle, moved, rc, rel, zt), 'not within the failing batch')
        resync = objs[:n + 1] + [{'type': 'batch', 'file': rel, 'position': 12345}] + objs[n + 1:]
        expect('%s anything may follow the error' % rel, check(oracle, resync, rc, rel, zt))
        expect('%s exit code 0' % rel, check(oracle, objs, EXIT_OK, rel, zt), 'exit code')
        expect('%s no error object' % rel, check(oracle, objs[:n] + objs[n + 1:], rc, rel, zt), 'expected an error')
        expect('%s no end object' % rel, check(oracle, objs[:-1], rc, rel, zt), 'end object')
        nokind = copy.deepcopy(objs)
        del nokind[n]['kind']
        expect('%s error without kind' % rel, check(oracle, nokind, rc, rel, zt), 'kind')
        if n > 0:
            bad = copy.deepcopy(objs)
            bad[n - 1]['offset' if bad[n - 1]['type'] == 'record' else 'position'] = -7
            expect('%s object before the error changed' % rel, check(oracle, bad, rc, rel, zt), 'line %d' % n)

    # 4. zero tail
    rel = scen_log('damaged-trailing-zeros')
    oracle, zt = load_oracle(root, rel)
    if not zt:
        results.append((False, 'damaged-trailing-zeros: tail not recognised as zero'))
    objs, rc = fake_stream(oracle, rel, zt)
    expect('pass zero tail %s' % rel, check(oracle, objs, rc, rel, zt))
    bad = copy.deepcopy(objs)
    bad[-1]['unreadTailBytes'] -= 1
    expect('zero tail wrong unreadTailBytes', check(oracle, bad, rc, rel, zt), 'unreadTailBytes')
    errobjs, _ = fake_stream(oracle, rel, False)
    expect('zero tail reported as an error', check(oracle, errobjs, EXIT_DAMAGED, rel, zt), 'zero tail')
    expect('zero tail exit 3', check(oracle, objs, EXIT_DAMAGED, rel, zt), 'exit code')
    garbage_rel = scen_log('damaged-garbage')
    if tail_is_zero(os.path.join(root, garbage_rel), 0):
        results.append((False, 'damaged-garbage recognised as zero tail'))

    # 5. resync comparison against the undamaged original
    for scen, orig in sorted(RESYNC_ORIGINAL.items()):
        rel, orel = scen_log(scen), scen_log(orig)
        d_oracle, _ = load_oracle(root, rel)
        o_oracle, _ = load_oracle(root, orel)
        objs, rc = fake_stream(d_oracle, rel, False, original=o_oracle)
        expect('pass %s (stream)' % scen, check(d_oracle, objs, rc, rel, False))
        expect('pass %s resync' % scen, lambda: check_resync(d_oracle, o_oracle, dump_lines(objs)))
        n = len(d_oracle)  # index of first object after the error
        if len(objs) > n + 2:
            bad = copy.deepcopy(objs)
            k = next(i for i in range(n, len(bad)) if bad[i]['type'] == 'record')
            bad[k]['value'] = '00' + (bad[k]['value'] or '')
            expect('%s resync record changed' % scen, lambda: check_resync(d_oracle, o_oracle, dump_lines(bad)),
                   'value')
            bad2 = objs[:n] + objs[n + 1:]
            expect('%s resync first batch missing' % scen,
                   lambda: check_resync(d_oracle, o_oracle, dump_lines(bad2)), 'after the error')
            bad3 = copy.deepcopy(objs)
            bad3[-1]['endOfLastBatch'] -= 1
            expect('%s resync end changed' % scen, lambda: check_resync(d_oracle, o_oracle, dump_lines(bad3)),
                   'endOfLastBatch')
        bad4 = copy.deepcopy(objs)
        bad4[n - 2]['baseOffset'] += 1
        expect('%s damaged batch changed' % scen, lambda: check_resync(d_oracle, o_oracle, dump_lines(bad4)),
               'baseOffset')

    # 6. dumplog text comparison
    rel = scen_log('lab')
    d = os.path.join(root, os.path.dirname(rel))
    texts = [os.path.join(d, f) for f in sorted(os.listdir(d)) if DUMPLOG_RE.match(f)]
    if len(texts) != 4:
        results.append((False, 'expected 4 dumplog sets beside %s, found %d' % (rel, len(texts))))
    for p in texts:
        exp = read_maybe_gz(p)
        name = os.path.basename(p)
        expect('dumplog %s identical' % name, lambda: check_text(exp, exp))
        lines = exp.split(b'\n')
        mutated = b'\n'.join(lines[:2] + [lines[2].replace(b'0', b'1', 1)] + lines[3:])
        expect('dumplog %s line 3 changed' % name, lambda: check_text(exp, mutated), 'line 3')
        expect('dumplog %s no final newline' % name, lambda: check_text(exp, exp[:-1]), 'line')
        expect('dumplog %s extra line' % name, lambda: check_text(exp, exp + b'x\n'), 'line %d' % len(lines))
        expect('dumplog %s missing last line' % name,
               lambda: check_text(exp, b'\n'.join(lines[:-2]) + b'\n'), 'line %d' % (len(lines) - 1))
        expect('dumplog %s CRLF' % name, lambda: check_text(exp, exp.replace(b'\n', b'\r\n')), 'line 1')
    first = read_maybe_gz(texts[0]).split(b'\n')[0]
    if first != b'Dumping ' + rel.encode():
        results.append((False, 'dumplog first line %r does not name %s: ROOT is not the corpus folder' % (first, rel)))

    failed = 0
    for ok, msg in results:
        if not ok:
            failed += 1
            print('FAIL ' + msg)
    if a.verbose:
        for ok, msg in results:
            if ok:
                print('ok ' + msg)
    print('golden-selftest: %d passed, %d failed' % (len(results) - failed, failed))
    return 1 if failed or not results else 0


# ----------------------------------------------------------------------------- main

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    for name, fn, with_segscan in (('json', cmd_json, True), ('dumplog', cmd_dumplog, True),
                                   ('decoded', cmd_decoded, True), ('damaged', cmd_damaged, True),
                                   ('selftest', cmd_selftest, False)):
        p = sub.add_parser(name)
        if with_segscan:
            p.add_argument('segscan', help='the segscan executable')
        p.add_argument('root', help='the corpus folder (testdata/corpus)')
        p.add_argument('--only', action='append', metavar='PREFIX', help='only paths under ROOT/PREFIX')
        p.add_argument('-j', '--jobs', type=int, default=min(8, os.cpu_count() or 1))
        p.add_argument('-v', '--verbose', action='store_true')
        p.set_defaults(fn=fn)
    a = ap.parse_args(argv)
    if not os.path.isdir(a.root):
        print('golden.py: no such folder: %s' % a.root, file=sys.stderr)
        return 2
    a.root = os.path.abspath(a.root)
    if getattr(a, 'segscan', None):
        a.segscan = os.path.abspath(a.segscan) if os.sep in a.segscan else a.segscan
    return a.fn(a)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
