#!/usr/bin/env python3
"""Text output of diff and verify is safe to show on a terminal: value previews escape control
bytes and cut long values between characters with their full length shown; file and partition
names and messages escape control characters, so no input can break a line, recolour the
terminal or reorder text (bidirectional overrides). Well-formed UTF-8 stays readable.

Rules (src/cli/out.c, out_text_escaped and out_preview): C0 controls, DEL, C1 controls,
U+2028/U+2029, U+061C, U+200E/U+200F, U+202A-U+202E, U+2066-U+2069 and malformed bytes are
written as \\xNN per byte (\\t, \\n, \\r as such); in a preview also \\" and \\\\; a preview holds at
most 40 bytes (diff), cut before a character that would not fit, then "... (N bytes)".
usage: test_text_escape.py SEGSCAN SOURCE_ROOT
"""
import os
import shutil
import subprocess
import sys
import tempfile
import harness
from harness import tally as check

SEGSCAN = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(sys.argv[2])
import kafka



def run(*args):
    return harness.call(args, binary=SEGSCAN, text=False, timeout=None)


def unsafe(out):
    """Bytes of out that a terminal would act on (all but printable text and line ends)."""
    text = out.decode('utf-8')   # must be valid UTF-8 too
    bad = [c for c in text if (ord(c) < 0x20 and c != '\n') or 0x7f <= ord(c) < 0xa0 or
           c in '\u2028\u2029\u061c\u200e\u200f' or 0x202a <= ord(c) <= 0x202e or 0x2066 <= ord(c) <= 0x2069]
    return bad


# value -> the preview diff prints for it
CASES = [
    (b'plain text', '"plain text"'),
    (b'a"b\\c', '"a\\"b\\\\c"'),
    (b'x\ty\nz\r', '"x\\ty\\nz\\r"'),
    (b'a\x1b[31mred\x00\x7f', '"a\\x1b[31mred\\x00\\x7f"'),
    ('caf\u00e9 \u00fcber \u2603'.encode(), '"caf\u00e9 \u00fcber \u2603"'),
    ('x\u202eevil\u2066'.encode(), '"x\\xe2\\x80\\xaeevil\\xe2\\x81\\xa6"'),
    ('c1\u0085\u2028'.encode(), '"c1\\xc2\\x85\\xe2\\x80\\xa8"'),
    (b'bad\xff\xc3(\xed\xa0\x80', '"bad\\xff\\xc3(\\xed\\xa0\\x80"'),
    (b'y' * 40, '"' + 'y' * 40 + '"'),
    (b'z' * 41, '"' + 'z' * 40 + '"... (41 bytes)'),
    ('\u00e9'.encode() * 30, '"' + '\u00e9' * 20 + '"... (60 bytes)'),
    (b'ab' + '\u20ac'.encode() * 20, '"ab' + '\u20ac' * 12 + '"... (62 bytes)'),
    (b'\x01' * 50, '"' + '\\x01' * 40 + '"... (50 bytes)'),
    (b'', '""'),
]


def main():
    tmp = tempfile.mkdtemp(prefix='segscan-escape-')
    try:
        a = kafka.write_partition(os.path.join(tmp, 'a', 'pv-0'), {
            0: b''.join(kafka.batch(i, [(None, v)]) for i, (v, _) in enumerate(CASES))})
        b = kafka.write_partition(os.path.join(tmp, 'b', 'pv-0'), {0: kafka.batch(0, [(None, b'other')])})
        rc, out, err = run('diff', '--by', 'content', '--max', '100', a, b)
        check(rc == 1, 'diff exits 1 (%d, %r)' % (rc, err))
        check(unsafe(out) == [], 'diff output holds no control characters: %r' % unsafe(out))
        lines = out.decode().split('\n')
        for i, (v, want) in enumerate(CASES):
            got = [ln for ln in lines if ln.startswith('- %d ' % i)]
            check(len(got) == 1 and got[0].endswith(' value=' + want),
                  'preview of %r: want value=%s, got %s' % (v, want, got))

        # names: a partition directory whose name holds an escape sequence, a newline and an override
        name = 'pay\x1b[2J\n\u202e-0'
        odd = os.path.join(tmp, 'c', name)
        shutil.copytree(os.path.join(ROOT, 'testdata', 'corpus', 'gen', 'damaged-crc-flip', 'codec-none-0'), odd)
        rc, out, err = run('verify', odd)
        check(rc == 3, 'verify exits 3 on the damaged copy (%d)' % rc)
        check(unsafe(out) == [], 'verify output holds no control characters: %r' % unsafe(out))
        want = 'pay\\x1b[2J\\n\\xe2\\x80\\xae-0/00000000000000000000.log: byte 0 (offset 0): damage batch-crc: '
        check(any(want in ln for ln in out.decode().split('\n')), 'verify names the file escaped: %r' % out[:300])
        rc, out, err = run('diff', '--stat', odd, os.path.join(ROOT, 'testdata', 'corpus', 'gen', 'codec-none',
                                                                'codec-none-0'))
        check(unsafe(out) == [], 'diff names hold no control characters: %r' % unsafe(out))
        check(('A = ' + os.path.join(tmp, 'c', 'pay\\x1b[2J\\n\\xe2\\x80\\xae-0')) in out.decode(),
              'diff names A escaped: %r' % out[:300])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return harness.tally_exit('test_text_escape')


sys.exit(main())
