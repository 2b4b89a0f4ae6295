#!/usr/bin/env python3
"""The sealed library: what libsegscan.so exports, and public headers that stand alone.

Usage:
  test_api.py exports LIBSEGSCAN_SO INCLUDE_DIR
      `nm -D --defined-only` of the shared library must list ss_* symbols only, and exactly the
      functions the public headers declare with SS_API (a function declared without SS_API is
      not exported, since the library is built with -fvisibility=hidden; one exported without a
      declaration is a leak).
  test_api.py headers INCLUDE_DIR CC [CC ARGS...]
      every include/segscan/*.h compiles on its own as C11 with -Wall -Wextra -Wpedantic -Werror
      (it includes what it uses), twice in a row (its include guard), and segscan.h includes
      every other header.
  test_api.py selftest
      both checks fail on planted faults (a leaked symbol, a missing export, a header that needs
      another), so that they can fail.
Exit status 0 when the check passes, 1 when it fails.
"""

import os
import re
import subprocess
import sys
import tempfile

DECL = re.compile(r'\bSS_API\b[^;{]*?\b(ss_\w+)\s*\(', re.S)


def declared(include_dir):
    names = set()
    for h in sorted(os.listdir(os.path.join(include_dir, 'segscan'))):
        if h.endswith('.h'):
            with open(os.path.join(include_dir, 'segscan', h)) as f:
                text = re.sub(r'/\*.*?\*/', ' ', f.read(), flags=re.S)
            names.update(m.group(1) for m in DECL.finditer(text) if '#define' not in text[max(0, m.start() - 20):m.start()])
    return names


def exported(lib):
    out = subprocess.run(['nm', '-D', '--defined-only', lib], check=True, capture_output=True, text=True).stdout
    return set(line.split()[-1] for line in out.splitlines() if line.strip())


def check_exports(names, symbols):
    problems = []
    for s in sorted(symbols):
        if not s.startswith('ss_'):
            problems.append('exported, not an ss_ symbol: ' + s)
        elif s not in names:
            problems.append('exported, but no public header declares it with SS_API: ' + s)
    for n in sorted(names - symbols):
        problems.append('declared with SS_API, not exported: ' + n)
    return problems


def check_headers(include_dir, cc):
    problems = []
    hdir = os.path.join(include_dir, 'segscan')
    headers = sorted(h for h in os.listdir(hdir) if h.endswith('.h'))
    with tempfile.TemporaryDirectory() as tmp:
        for h in headers:
            src = os.path.join(tmp, 'one.c')
            with open(src, 'w') as f:
                f.write('#include "segscan/%s"\n#include "segscan/%s"\nint ss_header_check_%s;\n'
                        % (h, h, re.sub(r'\W', '_', h)))
            p = subprocess.run(cc + ['-std=c11', '-Wall', '-Wextra', '-Wpedantic', '-Werror', '-I', include_dir,
                                     '-c', src, '-o', os.path.join(tmp, 'one.o')], capture_output=True, text=True)
            if p.returncode != 0:
                problems.append('segscan/%s does not compile on its own:\n%s' % (h, p.stderr.strip()))
        with open(os.path.join(hdir, 'segscan.h')) as f:
            umbrella = f.read()
        for h in headers:
            if h != 'segscan.h' and '#include "segscan/%s"' % h not in umbrella:
                problems.append('segscan/segscan.h does not include segscan/%s' % h)
    return problems


def selftest():
    failed = []
    names = {'ss_a', 'ss_b'}
    if check_exports(names, {'ss_a', 'ss_b'}):
        failed.append('exports: a clean library is reported')
    for symbols, what in (({'ss_a', 'ss_b', 'ss_big_calloc'}, 'a leaked private symbol'),
                          ({'ss_a', 'ss_b', 'ss_c'}, 'an export without SS_API'), ({'ss_a'}, 'a missing export')):
        if not check_exports(names, symbols):
            failed.append('exports: not reported: ' + what)
    text = 'SS_API const char *ss_x(int a);\n/* SS_API int ss_comment(void); */\nSS_API ss_errkind\nss_y(void);\n'
    with tempfile.TemporaryDirectory() as tmp:
        os.mkdir(os.path.join(tmp, 'segscan'))
        with open(os.path.join(tmp, 'segscan', 'a.h'), 'w') as f:
            f.write(text)
        if declared(tmp) != {'ss_x', 'ss_y'}:
            failed.append('declared(): %s' % sorted(declared(tmp)))
        with open(os.path.join(tmp, 'segscan', 'b.h'), 'w') as f:
            f.write('#ifndef B_H\n#define B_H\nstatic inline size_t b(void) { return 0; }\n#endif\n')
        with open(os.path.join(tmp, 'segscan', 'segscan.h'), 'w') as f:
            f.write('#include "segscan/b.h"\n')
        probs = check_headers(tmp, ['cc'])
        if not any('b.h does not compile' in p for p in probs):
            failed.append('headers: a header needing <stddef.h> is not reported')
        if not any('does not include segscan/a.h' in p for p in probs):
            failed.append('headers: the umbrella missing a header is not reported')
    for f in failed:
        print('FAIL (selftest): ' + f)
    return 1 if failed else 0


def main(argv):
    if len(argv) >= 2 and argv[1] == 'selftest':
        return selftest()
    if len(argv) == 4 and argv[1] == 'exports':
        problems = check_exports(declared(argv[3]), exported(argv[2]))
        what = 'exports'
    elif len(argv) >= 4 and argv[1] == 'headers':
        problems = check_headers(argv[2], argv[3:])
        what = 'headers'
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for p in problems:
        print('FAIL: ' + p)
    if not problems:
        print('test_api %s: ok' % what)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
