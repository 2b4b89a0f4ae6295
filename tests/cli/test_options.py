#!/usr/bin/env python3
"""Each command's option table (its `struct option` array, the one getopt_long reads) against
what the command says and accepts.

- the commands of main.c's table are the commands `segscan --help` lists, in the same order;
- every long option of every table is tried on every command (`segscan CMD --OPT 1 PATH`, in an
  empty directory, PATH missing): the options a command accepts, whatever becomes of the value,
  are exactly the options its --help lists; a rejected one is said as an unknown option, or as
  one that belongs to another command, naming the command;
- test_docs.py then checks the manual and the three completions against --help, so that the
  table, --help, the manual and the completions say the same.

usage: test_options.py SEGSCAN SOURCE_ROOT"""
import glob
import os
import re
import subprocess
import sys
import tempfile

import harness
from harness import tally as check

segscan, root = os.path.abspath(sys.argv[1]), sys.argv[2]

main_c = open(os.path.join(root, 'src/cli/main.c')).read()
table = main_c.split('struct cli_command commands[]')[1].split('};')[0]
table_cmds = re.findall(r'\{"([a-z]+)",\s*cmd_\w+', table)
top = subprocess.run([segscan, '--help'], stdout=subprocess.PIPE, check=False).stdout.decode()
help_cmds = re.findall(r'^  ([a-z]+)\s+\S', top.split('commands:')[1].split('options:')[0], re.M)
check(table_cmds and table_cmds == help_cmds,
      "main.c's commands are the ones segscan --help lists, in its order: %s / %s" % (table_cmds, help_cmds))

universe = set()
for f in glob.glob(os.path.join(root, 'src/cli/**/*.c'), recursive=True):
    src = open(f).read()
    for arr in re.findall(r'struct option \w+\[\] = \{(.*?)\n\};', src, re.S):
        universe |= set(re.findall(r'\{"([a-z][a-z0-9-]*)",', arr))
check(len(universe) > 40, 'the option tables were found in src/cli (%d options)' % len(universe))
universe -= {'help', 'version'}


def help_options(cmd):
    h = subprocess.run([segscan, cmd, '--help'], stdout=subprocess.PIPE, check=False).stdout.decode()
    return set(o[2:] for o in re.findall(r'(?<![\w-])(--[a-z][a-z0-9-]+)', h)) - {'help'}


with tempfile.TemporaryDirectory(prefix='segscan-options-') as tmp:
    for cmd in table_cmds:
        listed = help_options(cmd)
        accepted = set()
        for opt in sorted(universe):
            p = subprocess.run([segscan, cmd, '--' + opt, '1', os.path.join(tmp, 'no-such-path')], cwd=tmp,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
            err = p.stderr.decode()
            rejected = 'unknown option' in err or 'belongs to' in err
            if rejected:
                check(p.returncode == 2 and cmd in err, '%s --%s: rejected with exit 2, naming the command: %s'
                      % (cmd, opt, err.strip()[:200]))
            elif opt in listed or not any(o.startswith(opt) for o in listed):
                accepted.add(opt)  # (getopt_long takes an unambiguous abbreviation: --partition for --partitions)
        # a spelling the table keeps for another's sake (--colour for --color) need not be listed twice
        check(accepted - {'colour'} == listed - {'colour'},
              '%s accepts exactly the options its --help lists: accepted, not listed %s; listed, not accepted %s'
              % (cmd, sorted(accepted - listed - {'colour'}), sorted(listed - accepted - {'colour'})))

sys.exit(harness.tally_exit('test_options'))
