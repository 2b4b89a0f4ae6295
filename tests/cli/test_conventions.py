#!/usr/bin/env python3
"""The command-line conventions operators expect (as kcat, jq, ripgrep and zstd keep them).

usage: test_conventions.py SEGSCAN SOURCE_ROOT

- 'segscan help CMD' prints exactly what 'segscan CMD --help' prints, for every command the
  top-level help lists; 'segscan help NOSUCH' is a usage error (exit 2);
- every line of every --help (top level and each command) fits 80 columns;
- --version names the release once, then the zstd, lz4, zlib and xxhash versions segscan runs
  with (here those pkg-config gives: the libraries installed are those it runs with) and snappy's
  build-time version, labelled "(build)";
- colour (--color auto, stdout a terminal): on with TERM=xterm, off with TERM=dumb, with no TERM
  and with NO_COLOR;
- the progress line (--progress auto, stderr a terminal, a run held over a second with the
  SEGSCAN_TEST_PAUSE_* hooks): drawn without -q, not with -q; --progress always -q draws it;
- the man page's ENVIRONMENT section names every variable the sources read with getenv();
- the bash completion completes files (dump: segment and index files) in a bash without the
  bash-completion package (no _init_completion, no extglob set beforehand), and 'help COMMAND'.
"""
import glob
import os
import pty
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import harness
from harness import tally as check

SEGSCAN, ROOT = (os.path.abspath(a) for a in sys.argv[1:3])
LAB = os.path.join(ROOT, 'testdata', 'corpus', 'gen', 'lab')


def call(args, **kw):
    return harness.call(args, binary=SEGSCAN, **kw)


def commands():
    rc, out, _ = call(['--help'])
    cmds = re.findall(r'^  ([a-z]+) ', out[out.index('commands:'):out.index('options:')], re.M)
    check(rc == 0 and len(cmds) >= 10, 'the top-level help lists the commands: %s' % cmds)
    return cmds


def test_help(cmds):
    for c in cmds:
        rc1, out1, err1 = call(['help', c])
        rc2, out2, _ = call([c, '--help'])
        check(rc1 == 0 and rc2 == 0 and out1 == out2 and out1.startswith('usage: segscan ' + c) and err1 == '',
              "'segscan help %s' prints what 'segscan %s --help' prints" % (c, c))
    rc, out, err = call(['help', 'nosuch'])
    check(rc == 2 and out == '' and 'nosuch' in err, "'segscan help nosuch': exit 2 naming it (%d, %r)" % (rc, err))
    rc, out, _ = call(['help'])
    check(rc == 0 and out == call(['--help'])[1], "'segscan help' is 'segscan --help'")


def test_width(cmds):
    for args in [['--help']] + [[c, '--help'] for c in cmds]:
        rc, out, _ = call(args)
        long = [line for line in out.split('\n') if len(line) > 80]
        check(rc == 0 and not long, 'segscan %s: every line within 80 columns (%d over: %r)'
              % (' '.join(args), len(long), long[:2]))


def modversion(pkg):
    p = subprocess.run(['pkg-config', '--modversion', pkg], stdout=subprocess.PIPE, text=True, check=False)
    return p.stdout.strip() if p.returncode == 0 else None


def test_version():
    meson_version = re.search(r"version : '([^']+)'", open(os.path.join(ROOT, 'meson.build')).read()).group(1)
    for flag in ('--version', '-V'):
        rc, out, _ = call([flag])
        lines = out.split('\n')
        check(rc == 0 and lines[0].startswith('segscan ' + meson_version) and out.count(meson_version) == 1,
              '%s names the release %s once: %r' % (flag, meson_version, out))
        for name, pkg in (('zstd', 'libzstd'), ('lz4', 'liblz4'), ('zlib', 'zlib'), ('xxhash', 'libxxhash')):
            want = modversion(pkg)
            m = re.search(r'\b%s (\d+\.\d+\.\d+)' % name, out)
            check(m is not None and (want is None or m.group(1) == want),
                  '%s names %s %s: %r' % (flag, name, want, out))
        want = modversion('snappy')
        check(re.search(r'\bsnappy %s \(build\)' % re.escape(want or 'unknown'), out) is not None,
              '%s names snappy %s, labelled (build): %r' % (flag, want, out))


def on_pty(args, env, which):
    """segscan ARGS with stdout (which=1) or stderr (which=2) on a terminal; the other to a
    pipe. Returns (exit code, what the terminal got, what the pipe got). args may be a function
    of the running process (for the pause FIFO) given as (args, during)."""
    args, during = args if isinstance(args, tuple) else (args, None)
    master, slave = pty.openpty()
    pipes = {'stdout': subprocess.PIPE, 'stderr': subprocess.PIPE}
    pipes['stdout' if which == 1 else 'stderr'] = slave
    p = subprocess.Popen([SEGSCAN] + args, env=env, stdin=subprocess.DEVNULL, **pipes)
    os.close(slave)
    got = []

    def drain():
        while True:
            try:
                b = os.read(master, 65536)
            except OSError:  # EIO: the last writer closed the terminal
                break
            if not b:
                break
            got.append(b)
    t = threading.Thread(target=drain)
    t.start()
    other_pipe = p.stderr if which == 1 else p.stdout
    got_other = []
    reader = threading.Thread(target=lambda: got_other.append(other_pipe.read()))
    reader.start()
    if during:
        during(p)
    reader.join(timeout=120)
    other = got_other[0] if got_other else b''
    p.wait(timeout=120)
    t.join(timeout=30)
    os.close(master)
    return p.returncode, b''.join(got).decode('utf-8', 'replace'), other.decode('utf-8', 'replace')


def base_env(**kw):
    env = {k: v for k, v in os.environ.items() if k not in ('NO_COLOR', 'TERM', 'CI')}
    env.update(kw)
    return env


def test_color():
    args = ['scan', '--color', 'auto', LAB]
    rc, out, _ = on_pty(args, base_env(TERM='xterm'), 1)
    check(rc == 0 and '\x1b[' in out, 'TERM=xterm, stdout a terminal: colour (%d)' % rc)
    for what, env in (('TERM=dumb', base_env(TERM='dumb')), ('no TERM', base_env()),
                      ('NO_COLOR=1', base_env(TERM='xterm', NO_COLOR='1'))):
        rc, out, _ = on_pty(args, env, 1)
        check(rc == 0 and '\x1b[' not in out and 'records' in out, '%s: no colour (%d)' % (what, rc))
    rc, out, _ = on_pty(['scan', '--color', 'always', LAB], base_env(TERM='dumb'), 1)
    check(rc == 0 and '\x1b[' in out, 'TERM=dumb, --color always: colour (%d)' % rc)


def test_quiet_progress(tmp):
    """--progress auto draws after a second: the walker is held after its first batches until
    the test writes to a FIFO, 1.5 s later."""
    fifo = os.path.join(tmp, 'pause')
    os.mkfifo(fifo)

    def release(p):
        """After 1.5 s, a byte for every walker held, as long as segscan runs (each walker that
        reaches the count opens the FIFO and reads one byte)."""
        time.sleep(1.5)
        while p.poll() is None:
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)  # ENXIO while no reader has it open
            except OSError:
                time.sleep(0.02)
                continue
            try:
                os.write(fd, b'x')
            finally:
                os.close(fd)
            time.sleep(0.02)

    env = base_env(TERM='xterm', SEGSCAN_TEST_PAUSE_AFTER_BATCHES='2', SEGSCAN_TEST_PAUSE_FIFO=fifo)
    results = {}
    for name, extra in (('default', []), ('-q', ['-q']), ('-q --progress always', ['-q', '--progress', 'always'])):
        rc, err, out = on_pty((['scan', '--color', 'never', '--threads', '1'] + extra + [LAB], release), env, 2)
        results[name] = (rc, '%' in err and 'MB/s' in err)
        check(rc == 0 and 'records' in out, '%s: the run held by the FIFO ends (%d): %r' % (name, rc, err[-200:]))
    check(results['default'][1], 'stderr a terminal, a run over a second: the progress line is drawn')
    check(not results['-q'][1], '-q: no progress line')
    check(results['-q --progress always'][1], '-q --progress always: the progress line is drawn')


def test_man_environment():
    man = open(os.path.join(ROOT, 'man', 'segscan.1')).read()
    m = re.search(r'^\.SH ENVIRONMENT\n(.*?)(?=^\.SH )', man, re.M | re.S)
    check(m is not None, 'the man page has an ENVIRONMENT section')
    section = m.group(1).replace('\\-', '-').replace('\\&', '') if m else ''
    names = set()
    for path in glob.glob(os.path.join(ROOT, 'src', '**', '*.c'), recursive=True):
        names |= set(re.findall(r'getenv\("([A-Z_a-z0-9]+)"\)', open(path, encoding='utf-8').read()))
    check(len(names) >= 5, 'getenv() names found in the sources: %s' % sorted(names))
    for n in sorted(names | {'NO_COLOR', 'TERM', 'TZ', 'TMPDIR', 'CI'}):
        check(re.search(r'^\.TP\n\.B %s\b' % re.escape(n), section, re.M) is not None or
              re.search(r'\b%s\b' % re.escape(n), section) is not None,
              'the ENVIRONMENT section names %s' % n)


def test_bash_completion(tmp):
    """A bash with no bash-completion loaded: complete 'segscan dump DIR/' and 'segscan scan DIR/'."""
    d = os.path.join(tmp, 'orders-0')
    os.makedirs(d)
    for f in ('00000000000000000000.log', '00000000000000000000.index', '00000000000000000000.timeindex',
              'leader-epoch-checkpoint', 'notes.txt'):
        open(os.path.join(d, f), 'w').close()
    os.makedirs(os.path.join(d, 'sub'))
    script = ('source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); '
              'declare -F _init_completion >/dev/null && echo HAS_INIT; '
              'shopt -q extglob && echo HAS_EXTGLOB; '
              '_segscan; printf "%s\\n" "${COMPREPLY[@]}"; shopt -q extglob && echo EXTGLOB_AFTER; true')
    for cmd, want, not_want in (('dump', {'00000000000000000000.log', '00000000000000000000.index',
                                          '00000000000000000000.timeindex', 'leader-epoch-checkpoint', 'sub'},
                                 {'notes.txt'}),
                                ('scan', {'00000000000000000000.log', 'sub'}, {'notes.txt', '00000000000000000000.index'})):
        p = subprocess.run(['bash', '--norc', '--noprofile', '-c', script, 'x',
                            os.path.join(ROOT, 'completions', 'segscan.bash'), 'segscan', cmd, d + '/'],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=False)
        lines = p.stdout.split('\n')
        got = {os.path.basename(x.rstrip('/')) for x in lines if x.startswith(d)}
        check('HAS_INIT' not in lines and 'HAS_EXTGLOB' not in lines,
              'bash --norc: no bash-completion loaded, extglob off (the case tested)')
        check(p.returncode == 0 and want <= got and not (got & not_want),
              'bash completion without bash-completion: segscan %s DIR/ offers %s (got %s; %s)'
              % (cmd, sorted(want), sorted(got), p.stderr.strip()[:200]))
        check('EXTGLOB_AFTER' not in lines, 'the completion leaves extglob as it found it')
    # 'segscan help <TAB>' offers the commands, 'segscan he<TAB>' offers help
    for words, want in ((['segscan', 'help', 'd'], {'dump', 'dups', 'diff'}), (['segscan', 'he'], {'help'})):
        p = subprocess.run(['bash', '--norc', '--noprofile', '-c', script, 'x',
                            os.path.join(ROOT, 'completions', 'segscan.bash')] + words,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=False)
        got = {x for x in p.stdout.split('\n') if x and x.isalpha()}
        check(got == want, 'bash completion of %r: %s (got %s)' % (' '.join(words), sorted(want), sorted(got)))


def main():
    cmds = commands()
    test_help(cmds)
    test_width(cmds)
    test_version()
    test_man_environment()
    tmp = tempfile.mkdtemp(prefix='segscan-conventions-')
    try:
        test_bash_completion(tmp)
        test_color()
        test_quiet_progress(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(harness.tally_exit('test_conventions'))


main()
