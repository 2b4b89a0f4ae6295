#!/usr/bin/env python3
"""Run every example of the manual's EXAMPLES section and compare its output, as jq tests its
manual.

Markup (described in a comment at the top of the section in man/segscan.1): an example is in a
.EX/.EE block; a line starting with "$ " is a command (a line ending in a backslash goes on on
the next line), the lines after it up to the next "$ " line or .EE are its standard output,
exactly; a comment line '.\\" exit: N' gives its exit status when that is not 0. Inside a block
the roff escapes \\e \\- \\(aq \\(ga \\(ti \\(ha \\[uXXXX] and a leading \\& are allowed; any other
escape fails the test, so that what the reader sees is what is compared.

Each command runs with sh, from the top of the source tree, with `segscan` the binary under test
(first on PATH) and standard output a pipe; standard error must stay empty. When groff is
installed the page must also render without warnings.

KNOWN_BUGS lists examples whose output in the manual is what segscan should print and does not
yet; the test checks that they still differ, so that a fix is noticed.
usage: test_man_examples.py SEGSCAN SOURCE_ROOT
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import harness
from harness import tally as check

SEGSCAN = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(sys.argv[2])
MAN = os.path.join(ROOT, 'man', 'segscan.1')

# command -> why its output differs from the manual (reported; remove when fixed)
KNOWN_BUGS = {
}



ESCAPES = {'e': '\\', '-': '-', '(aq': "'", '(ga': '`', '(ti': '~', '(ha': '^', '&': ''}
ESCAPE_RE = re.compile(r'\\(\[u([0-9A-Fa-f]{4,6})\]|\(..|.)')


def unroff(line, where):
    """The text a reader sees for one line of an .EX block."""
    def one(m):
        if m.group(2):
            return chr(int(m.group(2), 16))
        esc = m.group(1)
        if esc not in ESCAPES:
            check(False, '%s: roff escape \\%s is not allowed in an example' % (where, esc))
            return ''
        return ESCAPES[esc]
    return ESCAPE_RE.sub(one, line)


def examples():
    """[(command, expected stdout, exit status, line number)] of the EXAMPLES section."""
    lines = open(MAN, encoding='utf-8').read().split('\n')
    try:
        start = lines.index('.SH EXAMPLES')
    except ValueError:
        check(False, 'the manual has an EXAMPLES section')
        return []
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith('.SH ')), len(lines))
    out = []
    cur = None
    in_block = False
    continuing = False
    for n in range(start + 1, end):
        raw = lines[n]
        where = 'man/segscan.1:%d' % (n + 1)
        if raw == '.EX':
            check(not in_block, '%s: .EX inside an example block' % where)
            in_block, cur = True, None
            continue
        if raw == '.EE':
            check(in_block, '%s: .EE without .EX' % where)
            in_block = False
            continue
        if not in_block:
            continue
        m = re.match(r'^\.\\" exit: (\d+)$', raw)
        if m:
            check(cur is not None, '%s: exit status before any command' % where)
            if cur is not None:
                cur[2] = int(m.group(1))
            continue
        check(not raw.startswith('.') and not raw.startswith("'"),
              '%s: a roff request inside an example block: %s' % (where, raw))
        text = unroff(raw, where)
        if continuing:
            cur[0] += '\n' + text
            continuing = text.endswith('\\')
            continue
        if text.startswith('$ '):
            cur = [text[2:], [], 0, n + 1]
            out.append(cur)
            continuing = text.endswith('\\')
            continue
        check(cur is not None, '%s: output before any command in the block' % where)
        if cur is not None:
            cur[1].append(text)
    check(not in_block, 'the last example block is closed with .EE')
    return [(c, ''.join(l + '\n' for l in o), rc, ln) for c, o, rc, ln in out]


def main():
    exs = examples()
    check(len(exs) >= 12, 'the EXAMPLES section holds at least 12 examples (%d found)' % len(exs))
    tmp = tempfile.mkdtemp(prefix='segscan-man-')
    try:
        os.symlink(SEGSCAN, os.path.join(tmp, 'segscan'))
        env = dict(os.environ)
        env['PATH'] = tmp + os.pathsep + env.get('PATH', '')
        for var in ('NO_COLOR', 'TZ', 'LC_ALL', 'LANG'):
            env.pop(var, None)
        commands = set()
        for cmd, want, want_rc, line in exs:
            where = 'man/segscan.1:%d: %s' % (line, cmd.split('\n')[0])
            check(cmd.startswith('segscan'), '%s: an example runs segscan' % where)
            flat = re.sub(r'\\\n\s*', '', cmd)
            commands.add(flat)
            p = subprocess.run(['sh', '-c', cmd], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               check=False)
            got = p.stdout.decode('utf-8', 'replace')
            if flat in KNOWN_BUGS:
                check(got != want, '%s: known bug fixed (%s): remove it from KNOWN_BUGS' % (where, KNOWN_BUGS[flat]))
                print('known bug: %s: %s' % (where, KNOWN_BUGS[flat]))
                continue
            if got != want:
                wl, gl = want.split('\n'), got.split('\n')
                k = next((i for i in range(max(len(wl), len(gl)))
                          if i >= len(wl) or i >= len(gl) or wl[i] != gl[i]), 0)
                check(False, '%s: output differs at line %d:\n  manual:  %r\n  segscan: %r'
                      % (where, k + 1, wl[k] if k < len(wl) else '<end>', gl[k] if k < len(gl) else '<end>'))
            else:
                check(True, where)
            check(p.returncode == want_rc, '%s: exit status %d, the manual says %d' % (where, p.returncode, want_rc))
            check(p.stderr == b'', '%s: nothing on standard error (%r)' % (where, p.stderr[:200]))
        for k in KNOWN_BUGS:
            check(k in commands, 'KNOWN_BUGS entry %r is an example of the manual' % k)
        groff = shutil.which('groff')
        if groff:
            p = subprocess.run([groff, '-man', '-Tutf8', '-ww', '-z', MAN], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, check=False)
            check(p.returncode == 0 and p.stderr == b'', 'groff renders the manual without warnings: %r' % p.stderr[:300])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return harness.tally_exit('test_man_examples: %d examples' % len(exs))


sys.exit(main())
