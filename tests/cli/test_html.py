#!/usr/bin/env python3
"""--html in a real browser: pages of built scenarios rendered by headless Chromium.

For each scenario the page segscan writes is loaded by Debian's `chromium` (--headless
--no-sandbox --disable-gpu --no-first-run --disable-background-networking, a fresh
--user-data-dir, every host name mapped to nothing: no network), and
  - `--dump-dom` of the rendered page must hold the marks the scenario was built to show: the
    elements' data-kind / data-offset / data-cause / ... attributes are compared with what the
    construction below says (each expectation cites the construction or Kafka's own files in
    the corpus: the .txnindex oracle, the dumplog), never with segscan's JSON;
  - `--enable-logging=stderr` must show no console message and nothing blocked by the
    Content-Security-Policy (the page has no script and loads nothing);
  - a `--screenshot` must not be blank (decoded here: enough pixels that are not white, and
    several colours). The screenshots are kept in OUT_DIR.
The page has no src or href attribute (nothing external) and stays under 5 MB, also for a
partition with more batches than a chart has columns (drawn in bins).

Exit 77 (skipped) when chromium is not installed, except under .ci/run (SEGSCAN_CI=1), where it
must be: there its absence fails the test.

usage: test_html.py SEGSCAN SOURCE_ROOT OUT_DIR
"""
import html.parser
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
import harness
from harness import tally as check, tally_eq as eq

segscan, root, outdir = sys.argv[1], sys.argv[2], sys.argv[3]
import kafka
import scenarios

T0 = kafka.T0
TMP = tempfile.mkdtemp(prefix='segscan-html-')
SCRIPTS = []  # script elements of each page rendered


chromium = shutil.which('chromium') or shutil.which('chromium-browser')
if not chromium:
    if os.environ.get('SEGSCAN_CI'):
        print('FAIL: chromium is not installed (.ci/run installs it)')
        sys.exit(1)
    print('SKIP: chromium is not installed (apt-get install chromium)')
    sys.exit(77)
os.makedirs(outdir, exist_ok=True)


# ---- the browser ----------------------------------------------------------------------------------

def browser(page, *extra):
    ud = tempfile.mkdtemp(dir=TMP, prefix='profile-')
    cmd = [chromium, '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
           '--disable-background-networking', '--user-data-dir=' + ud, '--host-resolver-rules=MAP * ~NOTFOUND',
           '--enable-logging=stderr', '--v=0'] + list(extra) + ['file://' + os.path.abspath(page)]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120, check=False)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


class Marks(html.parser.HTMLParser):
    """Every element with a data-kind, with its attributes and the partition (data-partition of the
    enclosing details: its chart and legend) it lies in; every src/href attribute."""

    def __init__(self):
        super().__init__()
        self.marks, self.external, self.stack, self.csp, self.scripts = [], [], [], None, 0
        self.open = []  # the data-kind elements open: their text is gathered

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'details':
            self.stack.append(a.get('data-partition'))
        if tag == 'meta' and (a.get('http-equiv') or '').lower() == 'content-security-policy':
            self.csp = a.get('content')
        for k in ('src', 'href'):
            if k in a:
                self.external.append((tag, k, a[k]))
        if tag == 'script':
            self.scripts += 1
        if 'data-kind' in a:
            a['_tag'] = tag
            a['_chart'] = self.stack[-1] if self.stack else None
            a['_text'] = ''
            self.marks.append(a)
            self.open.append((tag, a))

    def handle_data(self, data):
        for _, a in self.open:
            a['_text'] += data

    def handle_endtag(self, tag):
        if self.open and self.open[-1][0] == tag:
            self.open.pop()
        if tag == 'details' and self.stack:
            self.stack.pop()


def png_pixels(path):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA PNG (what Chromium writes)."""
    data = open(path, 'rb').read()
    check(data[:8] == b'\x89PNG\r\n\x1a\n', '%s is a PNG' % path)
    pos, idat, w = 8, b'', 0
    while pos < len(data):
        n, typ = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if typ == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        elif typ == b'IDAT':
            idat += body
        pos += 12 + n
    bpp = {2: 3, 6: 4}[ctype]
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def render(name, args, want_rc=0):
    """Run segscan with --html, load the page; return its marks."""
    page = os.path.join(TMP, name + '.html')
    p = subprocess.run([segscan] + args[:1] + ['--html', page] + args[1:], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, check=False)
    eq(p.returncode, want_rc, '%s: exit code (%s)' % (name, p.stderr.decode(errors='replace').strip()))
    check(os.path.exists(page), '%s: the page was written' % name)
    if not os.path.exists(page):
        return []
    size = os.path.getsize(page)
    check(size < 5 * 1024 * 1024, '%s: the page is under 5 MB (%d bytes)' % (name, size))
    rc, dom, err = browser(page, '--dump-dom')
    eq(rc, 0, '%s: chromium --dump-dom exit code' % name)
    bad = [line for line in err.splitlines()
           if 'CONSOLE' in line or 'Content Security Policy' in line or 'Refused to' in line]
    eq(bad, [], '%s: no console message, nothing blocked by the CSP' % name)
    m = Marks()
    m.feed(dom)
    SCRIPTS.append(m.scripts)
    eq(m.external, [], '%s: no external resource' % name)
    check(m.csp and "default-src 'none'" in m.csp, '%s: the CSP meta: %r' % (name, m.csp))
    shot = os.path.join(outdir, name + '.png')
    if os.path.exists(shot):
        os.unlink(shot)
    rc, _, err = browser(page, '--screenshot=' + shot, '--window-size=1000,1400', '--hide-scrollbars')
    check(rc == 0 and os.path.exists(shot), '%s: a screenshot was taken' % name)
    if os.path.exists(shot):
        w, h, bpp, rows = png_pixels(shot)
        colours, ink = set(), 0
        for y in range(0, h, 3):
            line = rows[y]
            for x in range(0, w, 3):
                px = tuple(line[x * bpp:x * bpp + 3])
                colours.add(px)
                ink += px != (255, 255, 255)
        total = len(range(0, h, 3)) * len(range(0, w, 3))
        check(ink > total // 50 and len(colours) > 8,
              '%s: the screenshot is not blank (%d of %d pixels inked, %d colours)' % (name, ink, total, len(colours)))
    return m.marks


def kind(marks, k, chart=None):
    return [x for x in marks if x['data-kind'] == k and (chart is None or x['_chart'] == chart)]


# ---- 1. every cause of a copy, sequence gaps, epoch bumps, transactions of every outcome ----------

def scenario_causes():
    d = os.path.join(TMP, 'causes')
    scenarios.write_causes(d)   # same-0, xp-0/1, abort-0, lat-0, v2-0: tests/lib/scenarios.py
    # dup-sequence: pid 8000 stores D with sequence 0 twice
    ds = kafka.batch(0, [(None, b'D')], pid=8000, epoch=0, base_seq=0)
    ds += kafka.batch(1, [(None, b'D')], pid=8000, epoch=0, base_seq=0)
    kafka.write_partition(os.path.join(d, 'ds-0'), {0: ds})
    # a sequence gap: pid 9000 epoch 0 sends sequences 0, 1 (offsets 0, 1), then 5 (offset 2):
    # 2..4 missing between offsets 1 and 2 (no offset is missing: not compaction); then epoch 1
    # (offset 3): an epoch bump
    gp = kafka.batch(0, [(None, b'g0'), (None, b'g1')], pid=9000, epoch=0, base_seq=0)
    gp += kafka.batch(2, [(None, b'g5')], pid=9000, epoch=0, base_seq=5)
    gp += kafka.batch(3, [(None, b'g6')], pid=9000, epoch=1, base_seq=0)
    kafka.write_partition(os.path.join(d, 'gap-0'), {0: gp})
    return d


WANT_COPIES = {  # (chart, offset) -> (cause, original partition, original offset)
    ('same-0', 2): ('same-session', 'same-0', 0),
    ('xp-1', 0): ('cross-partition', 'xp-0', 0),
    ('abort-0', 0): ('aborted', 'abort-0', 2),   # the committed copy is the original
    ('lat-0', 2): ('retry', 'lat-0', 0),
    ('lat-0', 3): ('retry', 'lat-0', 1),
    ('lat-0', 4): ('resend-no-idempotence', 'lat-0', 0),
    ('lat-0', 6): ('resend-no-idempotence', 'lat-0', 5),
    ('v2-0', 2): ('new-session', 'v2-0', 0),
    ('v2-0', 4): ('new-session', 'v2-0', 0),
    ('ds-0', 1): ('dup-sequence', 'ds-0', 0),
}


def copies_of(marks):
    return {(x['_chart'], int(x['data-offset'])): (x['data-cause'], x['data-original-partition'],
                                                   int(x['data-original'])) for x in kind(marks, 'copy')}


def txns_of(marks):
    return sorted((x['_chart'], x['data-result'], int(x['data-offset']), int(x['data-last']), x['data-hanging'])
                  for x in kind(marks, 'txn'))


def test_causes():
    d = scenario_causes()
    m = render('causes-scan', ['scan', d])
    eq(copies_of(m), WANT_COPIES, 'causes: every copy, its cause and its original')
    eq(len(kind(m, 'copy-link')), 9, 'causes: a link from each copy to its original in its partition (not xp-1)')
    # transactions: abort-0 aborted 0..1 (marker 1), committed 2..3; v2-0 committed 0..1, 2..3,
    # open at 4 (500 s old at "now", the markers' time: not hanging under the 15 min default)
    eq(txns_of(m), [('abort-0', 'abort', 0, 1, 'false'), ('abort-0', 'commit', 2, 3, 'false'),
                    ('v2-0', 'commit', 0, 1, 'false'), ('v2-0', 'commit', 2, 3, 'false'),
                    ('v2-0', 'open', 4, 4, 'false')], 'causes: transactions')
    eq(sorted((x['_chart'], x['data-result'], int(x['data-offset'])) for x in kind(m, 'marker')),
       [('abort-0', 'abort', 1), ('abort-0', 'commit', 3), ('v2-0', 'commit', 1), ('v2-0', 'commit', 3)],
       'causes: the markers')
    eq(sorted((x['_chart'], int(x['data-after']), int(x['data-before']), x['data-explained'])
              for x in kind(m, 'gap')), [('gap-0', 1, 2, 'unexplained')], 'causes: the sequence gap')
    eq(sorted((x['_chart'], int(x['data-pid']), int(x['data-epoch']), int(x['data-offset']))
              for x in kind(m, 'epoch-bump')), [('gap-0', 9000, 1, 3), ('v2-0', 7000, 1, 2)],
       'causes: epoch bumps (an earlier epoch of the pid in the partition)')
    eq(sorted((x['data-pid'], x['data-epoch']) for x in kind(m, 'session', 'gap-0')), [('9000', '0'), ('9000', '1')],
       'causes: the sessions of gap-0 in its legend')
    charts = sorted(x['_chart'] for x in kind(m, 'chart'))
    eq(charts, sorted(['same-0', 'xp-0', 'xp-1', 'abort-0', 'lat-0', 'v2-0', 'ds-0', 'gap-0']), 'causes: the charts')
    # batches as built: lat-0 4 data batches, v2-0 3 (and 2 markers), gap-0 3
    eq(sorted((x['_chart'], int(x['data-offset'])) for x in kind(m, 'batch') if x['_chart'] in ('lat-0', 'gap-0')),
       [('gap-0', 0), ('gap-0', 2), ('gap-0', 3), ('lat-0', 0), ('lat-0', 2), ('lat-0', 4), ('lat-0', 5)],
       'causes: the batches of lat-0 and gap-0')
    eq(sorted(x['_chart'] for x in kind(m, 'segment')), charts, 'causes: one segment start in each chart')
    eq({x['data-cause']: int(x['data-count']) for x in kind(m, 'cause-total')},
       {'same-session': 1, 'cross-partition': 1, 'aborted': 1, 'retry': 2, 'resend-no-idempotence': 2,
        'new-session': 2, 'dup-sequence': 1}, 'causes: the verdict\'s counts by cause')
    # dups draws the same copies
    m = render('causes-dups', ['dups', d])
    eq(copies_of(m), WANT_COPIES, 'causes (dups): every copy')
    # txns with a 1 min timeout: the open transaction (created at T0, "now" T0 + 500 s) hangs
    m = render('causes-txns', ['txns', '--txn-timeout', '1m', d])
    eq([x[4] for x in txns_of(m) if x[1] == 'open'], ['true'], 'txns --txn-timeout 1m: the open one hangs')
    m = render('causes-producers', ['producers', d])
    eq(len(kind(m, 'epoch-bump')), 2, 'producers: the epoch bumps')


# ---- 2. damage ----------------------------------------------------------------------------------

def test_damage():
    d = os.path.join(TMP, 'damage')
    b1 = kafka.batch(0, [(None, b'a'), (None, b'b')])
    b2 = bytearray(kafka.batch(2, [(None, b'c')]))
    b2[-2] ^= 0x40   # a byte of the record flipped: its CRC fails
    b3 = kafka.batch(3, [(None, b'd')])
    kafka.write_partition(os.path.join(d, 'dmg-0'), {0: b1 + bytes(b2) + b3})
    m = render('damage', ['scan', d], want_rc=3)
    eq([(x['_chart'], int(x['data-position']), int(x['data-offset']), x['data-damage']) for x in kind(m, 'damage')],
       [('dmg-0', len(b1), 2, 'damage')], 'damage: the CRC-failed batch at its byte position and base offset')


# ---- 3. the worked example: a handover, explain ---------------------------------------------------

def test_worked():
    d = os.path.join(root, 'testdata', 'groups-worked')
    # tests/groups/make_worked.py: A owns orders-0 from generation 1 (T0 + 0.5 s), B from
    # generation 2 (T0 + 16 s), resuming from 40; every order (0..79) was present then: 40..79
    # possibly delivered twice. enriched-0 holds orders 40..49 twice (45: A, pid 7001; 55: B,
    # pid 7002: new-session). The key o-45 is orders-0 offset 45 and enriched-0 45 and 55.
    m = render('worked-explain', ['explain', '--key', 'o-45', d])
    eq(sorted((x['_chart'], int(x['data-offset'])) for x in kind(m, 'match')),
       [('enriched-0', 45), ('enriched-0', 55), ('orders-0', 45)], 'worked: the matched records')
    eq(copies_of(m), {('enriched-0', 55): ('new-session', 'enriched-0', 45)}, 'worked: the matched group\'s copy')
    eq([(x['_chart'], x['data-group'], int(x['data-time']), int(x['data-offset'])) for x in kind(m, 'handover')],
       [('orders-0', 'enricher', T0 + 16000, 40)], 'worked: the handover')
    r = [(x['_chart'], int(x['data-from']), int(x['data-to']), x['data-certain'], x['data-covers-match'])
         for x in kind(m, 'redelivered')]
    eq(r, [('orders-0', 40, 79, 'false', 'true')], 'worked: possibly delivered twice, covering the matched record')
    eq(sorted((int(x['data-generation']), int(x['data-time'])) for x in kind(m, 'owner')),
       [(1, T0 + 500), (2, T0 + 16000)], 'worked: the owners by generation')
    # the commits: A 10, 20, 30, 40; B 50, 60, 80
    eq([(x['_chart'], int(x['data-commits'])) for x in kind(m, 'committed')], [('orders-0', 7)],
       'worked: the committed offset line')
    text = [x for x in kind(m, 'text-output')]
    eq(len(text), 1, 'worked: the explanation beside the charts')
    m = render('worked-groups', ['groups', d])
    eq(len(kind(m, 'handover')), 1, 'worked (groups): the handover')
    eq(len(kind(m, 'owner')), 2, 'worked (groups): the owners')


# ---- 4. rewind, reset, offsets deleted (a classic group) ---------------------------------------------

def test_matrix():
    """As tests/groups/test_findings.py test_matrix (classic eager): mx-a-1 owns mx-0 from
    generation 1 (T0 + 0.5 s) and commits 100 (+1 s), 200 (+2 s), 150 (+3 s: a rewind, the group
    has a member); generation 2 has no member (+4 s) and an admin commits 50 (+4.5 s: a reset);
    the offset is deleted (+5 s) and the group commits 300 (+6 s): 50..299 possibly skipped.
    The rewind's 150..199 is not certain: no later commit by a member steps between 150 and 200,
    and a late commit of 150 (a commit sent before the one of 200, arriving after it) leaves the
    same history without re-reading anything (docs/design-notes.md, the findings' rules).
    mx-0: 10 batches of 100 records, batch k appended at T0 + (k+1) s (LogAppendTime)."""
    d = os.path.join(TMP, 'matrix')
    g = 'mx-eager'
    L = kafka.Log()
    L.append([kafka.group_metadata(g, 1, T0 + 500, [kafka.Member('mx-a-1', {'mx': [0]})])], T0 + 500)
    for t, off in ((1000, 100), (2000, 200), (3000, 150)):
        L.append([kafka.offset_commit(g, 'mx', 0, off, T0 + t)], T0 + t)
    L.append([kafka.group_metadata(g, 2, T0 + 4000, [])], T0 + 4000)
    L.append([kafka.offset_commit(g, 'mx', 0, 50, T0 + 4500, leader_epoch=-1)], T0 + 4500)
    L.append([kafka.offset_tombstone(g, 'mx', 0)], T0 + 5000)
    L.append([kafka.offset_commit(g, 'mx', 0, 300, T0 + 6000)], T0 + 6000)
    L.write(os.path.join(d, '__consumer_offsets-%d' % kafka.coordinator_partition(g)))
    # a group and a member whose ids hold markup and a right-to-left override: escaped, never markup
    # (the page must hold no script element and say the override as text)
    hostile, hm = 'x"><script>alert(1)</script>\u202e', '<b>m</b>'
    H = kafka.Log()
    H.append([kafka.group_metadata(hostile, 1, T0 + 500, [kafka.Member(hm, {'mx': [0]})])], T0 + 500)
    H.append([kafka.offset_commit(hostile, 'mx', 0, 10, T0 + 1000)], T0 + 1000)
    H.write(os.path.join(d, '__consumer_offsets-%d' % kafka.coordinator_partition(hostile)))
    out, at = b'', 0
    for k in range(10):
        out += kafka.batch(at, [(None, b'mx-%d' % (at + i)) for i in range(100)], base_ts=T0 + 1000 * (k + 1),
                           max_ts=T0 + 1000 * (k + 1), ts_deltas=[0] * 100, log_append_time=True)
        at += 100
    kafka.write_partition(os.path.join(d, 'mx-0'), {0: out})
    for cmd in ('groups', 'scan'):
        m = render('matrix-' + cmd, [cmd, d])
        eq([(x['data-kind'], int(x['data-time']), int(x['data-offset']), x.get('data-from-offset'))
            for x in m if x['data-kind'] in ('rewind', 'reset', 'offsets-deleted') and x['_chart'] == 'mx-0'],
           [('rewind', T0 + 3000, 150, '200'), ('reset', T0 + 4500, 50, '150'), ('offsets-deleted', T0 + 5000, 50, None)],
           'matrix (%s): rewind, reset, offsets deleted' % cmd)
        eq(sorted((x['data-kind'], x['data-finding'], int(x['data-from']), int(x['data-to']), x['data-certain'])
                  for x in m if x['data-kind'] in ('redelivered', 'likely', 'skipped')),
           [('redelivered', 'reset', 50, 149, 'true'), ('redelivered', 'rewind', 150, 199, 'false'),
            ('skipped', 'offsets-deleted', 50, 299, 'false')], 'matrix (%s): the bands' % cmd)
        lines = [x for x in kind(m, 'committed', 'mx-0') if x['data-group'] == g]
        # two lines: the offset deletion breaks it; five commits in all
        eq((len(lines), sum(int(x['data-commits']) for x in lines)), (2, 5), 'matrix (%s): committed offset' % cmd)
        eq(sorted((x['data-group'], x['data-member'], int(x['data-generation'])) for x in kind(m, 'owner')),
           [(g, 'mx-a-1', 1), ('x"><script>alert(1)</script>\\u{202e}', hm, 1)],
           'matrix (%s): the owners, the hostile ids as text' % cmd)
        eq(SCRIPTS[-1], 0, 'matrix (%s): no script element' % cmd)
        # the owner's title says the ids as they are (the override as \\u{202e}): no markup came of them
        ht = [x['_text'] for x in kind(m, 'owner') if x['data-member'] == hm]
        check(len(ht) == 1 and 'to <b>m</b>, group x"><script>alert(1)</script>\\u{202e}' in ht[0],
              'matrix (%s): the hostile ids in the owner\'s title as text: %r' % (cmd, ht))


# ---- 5. an exactly-once application (the corpus's groups-eos), a KIP-848 group -----------------------

def test_eos():
    d = os.path.join(root, 'testdata', 'corpus', 'gen', 'groups-eos')
    m = render('eos', ['scan', d])
    # __consumer_offsets-0 (dumplog, as tests/groups/test_groups.py): pid 6100's commits of
    # offsets 24 and 40 were aborted (ABORT markers at 7 and 13)
    eq(sorted((x['_chart'], int(x['data-offset'])) for x in kind(m, 'aborted-commit')),
       [('events-0', 24), ('events-0', 40)], 'eos: the aborted offset commits')
    # items-0's .txnindex (Kafka's TransactionIndex, its oracle): aborted transactions of pid 6100
    # from 18 and from 45; its log oracle: 9 COMMIT markers
    ab = sorted(int(x['data-offset']) for x in kind(m, 'txn', 'items-0') if x['data-result'] == 'abort')
    eq(ab, [18, 45], 'eos: the aborted transactions of items-0')
    eq(len([x for x in kind(m, 'txn', 'items-0') if x['data-result'] == 'commit']), 9, 'eos: committed transactions')
    cp = [x for x in kind(m, 'copy', 'items-0')]
    check(cp and all(x['data-cause'] == 'aborted' and (18 <= int(x['data-offset']) <= 26 or
                                                       45 <= int(x['data-offset']) <= 53) for x in cp),
          'eos: the copies in items-0 are the aborted transactions\' records')
    eq(len(kind(m, 'committed', 'events-0')), 1, 'eos: the group\'s committed offset on events-0')


def test_kip848():
    d = os.path.join(root, 'testdata', 'corpus', 'gen', 'groups-consumer-protocol')
    m = render('kip848', ['groups', d])
    # as tests/groups/test_groups.py (the dumplog): a owns items-0 and items-1 from group epoch 1, b
    # gets items-1 at record 21 (epoch 2) and items-0 at record 36, after a left
    a, b = 'MHO6rHZuAIjZ9a6tNNsLeg', '_u1ZFAgS1DNn3-IK9UCY2w'
    for part in ('items-0', 'items-1'):
        eq([x['data-member'] for x in kind(m, 'owner', part)], [a, b], 'kip848: the owners of %s in turn' % part)
        eq(len(kind(m, 'committed', part)), 1, 'kip848: the committed offset of %s' % part)


# ---- 6. more batches than columns: bins -------------------------------------------------------------

def test_bins():
    d = os.path.join(TMP, 'bins')
    n = 3000
    out = b''.join(kafka.batch(i, [(None, b'v%d' % i)], base_ts=T0 + 10 * i, max_ts=T0 + 10 * i) for i in range(n))
    kafka.write_partition(os.path.join(d, 'big-0'), {0: out})
    m = render('bins', ['scan', d])
    b = kind(m, 'batches', 'big-0')
    eq([(x['data-count'], x['data-binned']) for x in b], [(str(n), 'true')], 'bins: the batches, binned')
    eq(sum(int(x['data-batches']) for x in kind(m, 'batch-bin')), n, 'bins: every batch in a bin')
    eq(kind(m, 'batch'), [], 'bins: no batch drawn alone')


# ---- 7. what cannot be written, and standard output asked twice: exit 2 (usage or output) ---------

def test_errors():
    d = os.path.join(root, 'testdata', 'groups-worked')
    for args, what in ((['scan', '--html', os.path.join(TMP, 'no', 'such', 'dir', 'p.html'), d], 'an unwritable page'),
                       (['scan', '--json', '--html', '-', d], '--json with --html -'),
                       (['groups', '--json', '--html', '-', d], 'groups --json with --html -')):
        p = subprocess.run([segscan] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
        eq(p.returncode, 2, '%s: exit code' % what)
        check(b'--html' in p.stderr, '%s: the message names --html: %r' % (what, p.stderr))
    # --html -: the page alone on standard output
    p = subprocess.run([segscan, 'scan', '--html', '-', d], stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    check(p.returncode == 0 and p.stdout.startswith(b'<!DOCTYPE html>') and p.stdout.rstrip().endswith(b'</html>'),
          '--html -: the page on standard output, nothing else')


def test_missing_segment():
    """One producer session, sequences 0..9 at offsets 0..9 (segment 0) and 20..29 at offsets 20..29
    (segment 20), the segment of offsets 10..19 missing and no cleaning shown: the gap is a missing
    segment, counted as unexplained (retention deletes only the oldest segments,
    UnifiedLog.deleteOldSegments; compaction needs a cleaned log)."""
    d = os.path.join(TMP, 'missing')
    seg0 = kafka.batch(0, [(None, b'm-%d' % i) for i in range(10)], pid=9, epoch=0, base_seq=0)
    seg20 = kafka.batch(20, [(None, b'm-%d' % i) for i in range(20, 30)], pid=9, epoch=0, base_seq=20)
    kafka.write_partition(os.path.join(d, 'ms-0'), {0: seg0, 20: seg20})
    m = render('missing-segment', ['scan', d])
    eq(sorted((x['_chart'], int(x['data-after']), int(x['data-before']), x['data-explained'], 'explained' in x.get('class', ''))
              for x in kind(m, 'gap')), [('ms-0', 9, 20, 'missing-segment', False)],
       'missing segment: the gap between offsets 9 and 20, not explained')


only = os.environ.get('SEGSCAN_HTML_ONLY')   # a scenario's name, to run it alone by hand
for t in (test_causes, test_damage, test_missing_segment, test_worked, test_matrix, test_eos, test_kip848, test_bins, test_errors):
    if only and only not in t.__name__:
        continue
    try:
        t()
    except Exception as e:  # a scenario that crashes fails, the others still run
        import traceback
        traceback.print_exc()
        check(False, '%s raised %r' % (t.__name__, e))
shutil.rmtree(TMP, ignore_errors=True)
sys.exit(harness.tally_exit('test_html (screenshots in %s)' % outdir))
