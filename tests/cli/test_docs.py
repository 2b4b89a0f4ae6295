#!/usr/bin/env python3
"""The manual and the shell completions follow the program.

- the manual documents every error kind of include/segscan/errors.h (the one list the library
  uses) and every subcommand of `segscan --help`, each in a section of its own that the
  SYNOPSIS names;
- every long option of a subcommand's --help is documented in that subcommand's section of the
  manual (for scan, dups, producers, txns and explain: their section or the section of the
  options they share);
- the bash completion offers, for each subcommand, exactly the long options its --help lists
  (no fewer, and none the subcommand would reject); the zsh and fish completions offer each of
  them.

usage: test_docs.py SEGSCAN SOURCE_ROOT"""
import re
import subprocess
import sys
import harness
from harness import tally as check

segscan, root = sys.argv[1], sys.argv[2]
man = open(root + '/man/segscan.1').read().replace('\\-', '-')
ANALYSIS = ('scan', 'dups', 'producers', 'txns', 'explain')


def section(title_re):
    """The text of the manual's .SS section whose title matches, up to the next .SS or .SH."""
    m = re.search(r'^\.SS (%s)[^\n]*\n(.*?)(?=^\.S[SH] )' % title_re, man, re.M | re.S)
    return m.group(0) if m else ''


def long_options(cmd):
    h = subprocess.run([segscan, cmd, '--help'], stdout=subprocess.PIPE, check=False).stdout.decode()
    return sorted(set(re.findall(r'(?<![\w-])(--[a-z][a-z0-9-]+)', h)))


for num, name in re.findall(r'X\(\w+,\s*(\d+),\s*"([a-z-]+)"', open(root + '/include/segscan/errors.h').read()):
    check(re.search(r'\b%s\b' % re.escape(name), man) and ('(%s)' % num) in man,
          'error kind %s (%s) in the manual' % (name, num))
top = subprocess.run([segscan, '--help'], stdout=subprocess.PIPE, check=False).stdout.decode()
cmds = re.findall(r'^  ([a-z]+)\s+\S', top.split('commands:')[1].split('options:')[0], re.M)
# (test_options.py checks these against main.c's table of commands)
check(set(ANALYSIS) <= set(cmds), 'segscan --help lists the analysis commands: %s' % cmds)
synopsis = man.split('.SH SYNOPSIS')[1].split('.SH ')[0]
shared = section(r'Options of scan, dups, producers, txns and explain')
check(shared, 'the manual has the section of the options the analysis commands share')

bash = open(root + '/completions/segscan.bash').read()
zsh = open(root + '/completions/_segscan').read()
fish = open(root + '/completions/segscan.fish').read()


def bash_options(cmd):
    out = subprocess.run(['bash', '-c', 'source "$1"; _segscan_opts "$2"', 'x', root + '/completions/segscan.bash',
                          cmd], stdout=subprocess.PIPE, check=False).stdout.decode()
    return set(out.split())


for c in cmds:
    sec = section(r'segscan (\[)?%s\b' % c)
    check(sec, 'command %s has a section in the manual' % c)
    check(re.search(r'\b%s\b' % c, synopsis), 'command %s is in the SYNOPSIS' % c)
    opts = long_options(c)
    check(opts, '%s --help lists options' % c)
    for opt in opts:
        where = sec + (shared if c in ANALYSIS else '')
        check(opt == '--help' or opt in where, '%s %s is documented in the manual\'s %s section' % (c, opt, c))
        check(re.search(r"'\(?[^']*%s\b" % re.escape(opt), zsh) or ('{%s' % opt) in zsh or ("'%s[" % opt) in zsh,
              'zsh completion offers %s' % opt)
        check(re.search(r'-l %s\b' % re.escape(opt[2:]), fish), 'fish completion offers %s' % opt)
    offered = bash_options(c)
    check(set(opts) <= offered, 'bash completion of %s offers every option: missing %s'
          % (c, sorted(set(opts) - offered)))
    check(offered <= set(opts) | {'--help', '--colour'}, 'bash completion of %s offers only %s\'s options: extra %s'
          % (c, c, sorted(offered - set(opts) - {'--help', '--colour'})))
# every --fail-on word a subcommand's --help names is offered by each shell's completion
for sub in ('scan', 'groups'):
    h = subprocess.run([segscan, sub, '--help'], stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout.decode()
    m = re.search(r'--fail-on ([a-z,-]+)', h)
    check(m is not None, '%s --help names the --fail-on words' % sub)
    for word in (m.group(1).split(',') if m else []):
        for name, text in (('bash', bash), ('zsh', zsh), ('fish', fish)):
            near = ' '.join(text[k.start():k.start() + 400] for k in re.finditer('fail-on', text))
            check(re.search(r'\b%s\b' % re.escape(word), near) is not None,
                  '%s completion offers --fail-on %s (%s)' % (name, word, sub))

sys.exit(harness.tally_exit('test_docs'))
