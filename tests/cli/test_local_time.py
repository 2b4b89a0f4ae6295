#!/usr/bin/env python3
"""--local-time: the human timestamps of the text output in the local time of TZ with its UTC
offset (scan, dups, txns, explain, diff); UTC ending in Z without it; JSON unchanged.

usage: test_local_time.py SEGSCAN SOURCE_ROOT

The segments are built here (tests/lib/kafka.py) with chosen timestamps. Every expected
string below is worked out by hand from those milliseconds and the zones' rules (the UTC date is
checked against calendar.timegm, which involves no time zone); none is taken from segscan.
Exits 77 (meson: skipped) when the zone files (tzdata) are missing.
"""
import calendar
import os
import shutil
import subprocess
import sys
import tempfile
import harness
from harness import tally as check

segscan, root = sys.argv[1], sys.argv[2]
import kafka

ZONES = ['UTC', 'Europe/Berlin', 'Asia/Kolkata', 'America/St_Johns']
zonedir = os.environ.get('TZDIR', '/usr/share/zoneinfo')
missing = [z for z in ZONES if not os.path.isfile(os.path.join(zonedir, z))]
if missing:
    print('test_local_time: skipped, no zone files for %s in %s (install tzdata)' % (', '.join(missing), zonedir))
    sys.exit(77)


def ms(y, mo, d, h, mi, s, milli):
    return calendar.timegm((y, mo, d, h, mi, s, 0, 0, 0)) * 1000 + milli


# The records' timestamps, with the UTC date each stands for (days since 1970-01-01 times
# 86400000 plus the time of day: 2024-01-01 is day 54*365+13 = 19723).
WINTER = 1705320000123     # day 19723+14 = 19737:  2024-01-15T12:00:00.123Z
SUMMER = 1719835200456     # day 19723+182 = 19905: 2024-07-01T12:00:00.456Z
NEWYEAR = 1735687800000    # day 19723+365 = 20088: 2024-12-31T23:30:00.000Z
DST_LAST = 1711846799999   # day 19723+90 = 19813:  2024-03-31T00:59:59.999Z, the last CET millisecond
DST_FIRST = 1711846800000  # 2024-03-31T01:00:00.000Z: Berlin goes from 02:00 CET to 03:00 CEST
TIMES = [WINTER, SUMMER, NEWYEAR, DST_LAST, DST_FIRST]

# Hand-derived: Berlin CET +01:00 in winter, CEST +02:00 from the last Sunday of March 01:00 UTC
# to the last Sunday of October; Kolkata +05:30 all year; St John's (Newfoundland) NST -03:30,
# NDT -02:30 from the second Sunday of March (2024-03-10) to the first Sunday of November.
WANT = {
    'UTC': ['2024-01-15T12:00:00.123Z', '2024-07-01T12:00:00.456Z', '2024-12-31T23:30:00.000Z',
            '2024-03-31T00:59:59.999Z', '2024-03-31T01:00:00.000Z'],
    'Europe/Berlin': ['2024-01-15T13:00:00.123+01:00', '2024-07-01T14:00:00.456+02:00',
                      '2025-01-01T00:30:00.000+01:00', '2024-03-31T01:59:59.999+01:00',
                      '2024-03-31T03:00:00.000+02:00'],
    'Asia/Kolkata': ['2024-01-15T17:30:00.123+05:30', '2024-07-01T17:30:00.456+05:30',
                     '2025-01-01T05:00:00.000+05:30', '2024-03-31T06:29:59.999+05:30',
                     '2024-03-31T06:30:00.000+05:30'],
    'America/St_Johns': ['2024-01-15T08:30:00.123-03:30', '2024-07-01T09:30:00.456-02:30',
                         '2024-12-31T20:00:00.000-03:30', '2024-03-30T22:29:59.999-02:30',
                         '2024-03-30T22:30:00.000-02:30'],
}
UTC_WANT = WANT['UTC']



# the hand derivations of the milliseconds
check(WINTER == ms(2024, 1, 15, 12, 0, 0, 123), 'WINTER is 2024-01-15T12:00:00.123Z')
check(SUMMER == ms(2024, 7, 1, 12, 0, 0, 456), 'SUMMER is 2024-07-01T12:00:00.456Z')
check(NEWYEAR == ms(2024, 12, 31, 23, 30, 0, 0), 'NEWYEAR is 2024-12-31T23:30:00.000Z')
check(DST_LAST == ms(2024, 3, 31, 0, 59, 59, 999), 'DST_LAST is 2024-03-31T00:59:59.999Z')
check(DST_FIRST == ms(2024, 3, 31, 1, 0, 0, 0), 'DST_FIRST is 2024-03-31T01:00:00.000Z')


def run(args, tz, rc=0):
    got, out, err = harness.call(args, binary=segscan, env=None if tz is None else {'TZ': tz},
                                 unset=('NO_COLOR',) + (('TZ',) if tz is None else ()), timeout=60)
    check(got == rc, '%s TZ=%s: exit %d, want %d (%s)' % (' '.join(args), tz, got, rc, err.strip()))
    return out


tmp = tempfile.mkdtemp(prefix='segscan-lt-')
try:
    # lt-0: one value written five times without a producer id, at the five times
    batches = b''.join(kafka.batch(i, [(None, b'same')], base_ts=t, ts_deltas=[0]) for i, t in enumerate(TIMES))
    lt0 = kafka.write_partition(os.path.join(tmp, 'lt-0'), {0: batches})
    # nots-0: two copies of a value without a timestamp (-1)
    nots = kafka.write_partition(os.path.join(tmp, 'nots-0'), {0: b''.join(
        kafka.batch(i, [(None, b'none')], base_ts=-1, max_ts=-1, ts_deltas=[0]) for i in range(2))})
    # tx-0: a transaction of producer 7 left open, its one batch at SUMMER
    tx0 = kafka.write_partition(os.path.join(tmp, 'tx-0'), {0: kafka.batch(
        0, [(None, b'open')], pid=7, epoch=0, base_seq=0, base_ts=SUMMER, ts_deltas=[0], transactional=True)})
    # short-0: lt-0's first batch only (a follower that lags: diff lists offsets 1..4 as only in A)
    short = os.path.join(tmp, 'short', 'lt-0')
    kafka.write_partition(short, {0: kafka.batch(0, [(None, b'same')], base_ts=WINTER, ts_deltas=[0])})

    for tz, want in WANT.items():
        for cmd in (['dups'], ['explain', '--value', 'same']):
            out = run(cmd + ['--local-time', lt0], tz)
            for off, w in enumerate(want):
                line = '    lt-0  offset %d  %s (%d)  no producer id  ' % (off, w, TIMES[off])
                check(line in out, '%s --local-time TZ=%s: %r in\n%s' % (cmd[0], tz, line, out))
        # the summary's time range: the smallest (WINTER) .. the largest (NEWYEAR) timestamp
        out = run(['--local-time', lt0], tz)
        line = '  time          %s (%d) .. %s (%d)\n' % (want[0], WINTER, want[2], NEWYEAR)
        check(line in out, 'scan --local-time TZ=%s: %r in\n%s' % (tz, line, out))
        # no timestamp: "-" as without the option
        out = run(['dups', '--local-time', nots], tz)
        for off in range(2):
            line = '    nots-0  offset %d  -  no producer id  ' % off
            check(line in out, 'dups --local-time TZ=%s, no timestamp: %r in\n%s' % (tz, line, out))
        # an open transaction since SUMMER
        out = run(['txns', '--local-time', tx0], tz)
        line = 'OPEN since %s (%d)' % (want[1], SUMMER)
        check(line in out, 'txns --local-time TZ=%s: %r in\n%s' % (tz, line, out))
        # diff: the offsets only in A, with their times (no milliseconds beside them)
        out = run(['diff', '--by', 'offset', '--local-time', lt0, short], tz, rc=1)
        for off in range(1, 5):
            line = '- %d %s value="same"\n' % (off, want[off])
            check(line in out, 'diff --local-time TZ=%s: %r in\n%s' % (tz, line, out))

    # Without --local-time: UTC whatever TZ says, byte for byte the same output; with TZ=UTC
    # --local-time changes nothing either.
    for args, rc in ((['dups', lt0], 0), ([lt0], 0), (['txns', tx0], 0), (['explain', '--value', 'same', lt0], 0),
                     (['diff', '--by', 'offset', lt0, short], 1)):
        base = run(args, None, rc)
        for off, w in enumerate(UTC_WANT):
            if args[0] in ('dups', 'explain'):
                check('  %s (%d)  ' % (w, TIMES[off]) in base, '%s without --local-time: %s in\n%s' % (args[0], w, base))
        for tz in ('Europe/Berlin', 'America/St_Johns', 'Asia/Kolkata'):
            check(run(args, tz, rc) == base, '%s without --local-time, TZ=%s: the UTC output' % (args[0], tz))
        check(run(args[:1] + ['--local-time'] + args[1:], 'UTC', rc) == base,
              '%s --local-time, TZ=UTC: the UTC output' % args[0])

    # JSON keeps the epoch milliseconds: the same bytes with the option and another zone
    for args in (['dups', '--json', lt0], ['--json', lt0], ['txns', '--json', tx0]):
        base = run(args, None)
        check(run(args[:1] + ['--local-time'] + args[1:], 'Europe/Berlin') == base,
              '%s --local-time, TZ=Europe/Berlin: the same JSON' % ' '.join(args[:2]))
    check('"timestamp":%d' % WINTER in run(['dups', '--json', '--local-time', lt0], 'Europe/Berlin'),
          'dups --json --local-time: the epoch milliseconds')
finally:
    shutil.rmtree(tmp, ignore_errors=True)

sys.exit(harness.tally_exit('test_local_time'))
