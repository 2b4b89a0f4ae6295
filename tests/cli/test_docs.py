#!/usr/bin/env python3
"""The manual documents every error kind of include/segscan/errors.h (the one list the library
uses), every subcommand of `segscan --help`, and every long option of each subcommand's --help.
usage: test_docs.py SEGSCAN SOURCE_ROOT"""
import re
import subprocess
import sys

segscan, root = sys.argv[1], sys.argv[2]
man = open(root + '/man/segscan.1').read().replace('\\-', '-')
fails = checks = 0


def check(c, what):
    global fails, checks
    checks += 1
    if not c:
        fails += 1
        print('FAIL:', what)


for num, name in re.findall(r'X\(\w+,\s*(\d+),\s*"([a-z-]+)"', open(root + '/include/segscan/errors.h').read()):
    check(re.search(r'\b%s\b' % re.escape(name), man) and ('(%s)' % num) in man,
          'error kind %s (%s) in the manual' % (name, num))
top = subprocess.run([segscan, '--help'], stdout=subprocess.PIPE, check=False).stdout.decode()
cmds = re.findall(r'^  ([a-z]+)\s{2,}', top.split('commands:')[1].split('options:')[0], re.M)
check(len(cmds) >= 6, 'segscan --help lists the commands: %s' % cmds)
for c in cmds:
    check(re.search(r'\.SS segscan (\[)?%s\b' % c, man), 'command %s has a section in the manual' % c)
    h = subprocess.run([segscan, c, '--help'], stdout=subprocess.PIPE, check=False).stdout.decode()
    for opt in sorted(set(re.findall(r'(--[a-z][a-z0-9-]+)', h))):
        check(opt in man, '%s %s is in the manual' % (c, opt))
print('test_docs: %d checks, %d failed' % (checks, fails))
sys.exit(1 if fails else 0)
