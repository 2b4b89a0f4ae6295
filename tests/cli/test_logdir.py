#!/usr/bin/env python3
"""`segscan dump` of directories and of the text files of a log directory, and `verify` of the same
files: one log directory built here (Python standard library only; never in testdata/), then
copies of it with one fault planted each.

Expected values are derived by hand from the bytes written here and from Kafka's sources:
  - the order of a directory's dump: segscan's rule (docs: segscan(1), dump), partitions by topic
    and partition number (t-2 before t-10), each segment's .log before its .index, .timeindex and
    .txnindex, producer snapshots, KRaft snapshots, then the text files;
  - the text files' formats: CheckpointFile (version line, count line, one entry a line;
    OffsetCheckpointFile "topic partition offset", LeaderEpochCheckpointFile "epoch startOffset"),
    PartitionMetadataFile ("version: 0", "topic_id: <base64 Uuid>"), MetaProperties
    (Properties.load, MetaProperties.toString), FileQuorumStateStore (QuorumStateData.json with
    data_version), CleanShutdownFileHandler ({"version":0,"brokerEpoch":N}, or empty);
  - the checks: LeaderEpochFileCache keeps epochs and start offsets increasing; LogLoader deletes
    every segment when the log end offset is below the checkpointed log start offset; the high
    watermark stays at most at the log end offset; QuorumState.initialize warns when quorum-state's
    epoch is below the log's last epoch; DirectoryId.reserved; CheckpointReadBuffer refuses an entry
    count that differs from the lines (malformed: exit 3).
The log end offsets (LEO) of the partitions follow from the batches written: t-0 holds offsets 0..6
(LEO 7), t-2 offset 0 (LEO 1), t-10 offsets 0..1 (LEO 2); __cluster_metadata-0 offsets 0..2, its
last batch with partitionLeaderEpoch 2.
usage: test_logdir.py SEGSCAN SOURCE_ROOT
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import harness
from harness import tally as check

SEGSCAN = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(sys.argv[2])
import kafka



def run(*args, cwd):
    return harness.call(args, binary=SEGSCAN, cwd=cwd, timeout=120)


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(data.encode() if isinstance(data, str) else data)


TS = 1700000000000
TEXT = {
    'meta.properties': '#\n#Tue Nov 14 22:13:20 UTC 2023\nnode.id=2\nversion=1\ncluster.id=MkU3OEVBNTcwNTJENDM2Qg\n',
    'recovery-point-offset-checkpoint': '0\n3\nt 0 5\nt 2 1\nt 10 0\n',
    'replication-offset-checkpoint': '0\n3\nt 0 7\nt 2 1\nt 10 2\n',
    'log-start-offset-checkpoint': '0\n3\nt 0 0\nt 2 0\nt 10 0\n',
    'cleaner-offset-checkpoint': '',
    '.kafka_cleanshutdown': '{"version":0,"brokerEpoch":42}',
}
EPOCHS_T0 = '0\n2\n0 0\n1 5\n'
PM_T0 = 'version: 0\ntopic_id: vqSmEBIuSwm33bh8npzjMw\n'
QUORUM = ('{"clusterId":"","leaderId":1,"leaderEpoch":2,"votedId":-1,"appliedOffset":0,'
          '"currentVoters":[{"voterId":1}],"data_version":0}\n')


def build(root):
    L = os.path.join(root, 'logs')
    # t-0: segment 0 holds 0..2 and 3..4, segment 5 holds 5..6
    b0 = kafka.batch(0, [(None, b'a'), (None, b'b'), (None, b'c')], base_ts=TS)
    b1 = kafka.batch(3, [(None, b'd'), (None, b'e')], base_ts=TS + 10)
    b2 = kafka.batch(5, [(None, b'f'), (None, b'g')], base_ts=TS + 20, leader_epoch=1)
    t0 = os.path.join(L, 't-0')
    write(os.path.join(t0, '00000000000000000000.log'), b0 + b1)
    # OffsetIndex entry (relative offset 2, position 0): the batch at 0 ends at offset 2
    write(os.path.join(t0, '00000000000000000000.index'), struct.pack('>ii', 2, 0))
    write(os.path.join(t0, '00000000000000000000.timeindex'), b'')
    write(os.path.join(t0, '00000000000000000000.txnindex'), b'')
    write(os.path.join(t0, '00000000000000000005.log'), b2)
    write(os.path.join(t0, '00000000000000000005.index'), b'')
    write(os.path.join(t0, '00000000000000000005.snapshot'), kafka.producer_snapshot())
    write(os.path.join(t0, 'leader-epoch-checkpoint'), EPOCHS_T0)
    write(os.path.join(t0, 'partition.metadata'), PM_T0)
    write(os.path.join(t0, 'notes.txt'), 'not Kafka\'s\n')
    write(os.path.join(t0, '00000000000000000000.log.deleted'), b0)
    write(os.path.join(L, 't-2', '00000000000000000000.log'), kafka.batch(0, [(None, b'x')], base_ts=TS))
    write(os.path.join(L, 't-10', '00000000000000000000.log'),
          kafka.batch(0, [(None, b'y'), (None, b'z')], base_ts=TS))
    write(os.path.join(L, 'old-3-delete', '00000000000000000000.log'), b0)
    # the metadata log: three ProducerIdsRecords, the last batch in epoch 2
    cm = os.path.join(L, '__cluster_metadata-0')
    m = (kafka.batch(0, [(None, kafka.producer_ids_record(1, 5, 1000))], base_ts=TS, leader_epoch=1) +
         kafka.batch(1, [(None, kafka.producer_ids_record(2, 7, 2000))], base_ts=TS + 1000, leader_epoch=1) +
         kafka.batch(2, [(None, kafka.producer_ids_record(1, 5, 3000))], base_ts=TS + 2000, leader_epoch=2))
    write(os.path.join(cm, '00000000000000000000.log'), m)
    write(os.path.join(cm, '00000000000000000003-0000000002.checkpoint'),
          kafka.batch(0, [(None, kafka.producer_ids_record(-1, -1, 3000))], base_ts=TS + 3000, leader_epoch=2))
    write(os.path.join(cm, 'quorum-state'), QUORUM)
    write(os.path.join(cm, 'leader-epoch-checkpoint'), '0\n2\n1 0\n2 2\n')
    write(os.path.join(cm, 'partition.metadata'), 'version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAQ\n')
    for name, text in TEXT.items():
        write(os.path.join(L, name), text)
    write(os.path.join(L, 'bootstrap.checkpoint'), kafka.batch(0, [(None, b'boot')], base_ts=TS))
    return L


def dumping(out):
    return [l[len('Dumping '):] for l in out.splitlines() if l.startswith('Dumping ')]


def section(out, path):
    """The lines a dump prints for one file (after its Dumping line, up to the next)."""
    lines, on = [], False
    for l in out.splitlines():
        if l.startswith('Dumping '):
            on = l == 'Dumping ' + path
            continue
        if on:
            lines.append(l)
    return lines


def findings_of(objs):
    return [(o['file'].split('/')[-1], o['check'], o['position'], o['offset']) for o in objs
            if o.get('type') == 'finding' and o.get('severity') != 'info']


def main():
    tmp = tempfile.mkdtemp(prefix='segscan-logdir-')
    try:
        L = build(tmp)
        # ---- the order of a log directory's dump --------------------------------------------------
        rc, out, err = run('dump', 'logs', cwd=tmp)
        want = ['logs/__cluster_metadata-0/00000000000000000000.log',
                'logs/__cluster_metadata-0/00000000000000000003-0000000002.checkpoint',
                'logs/__cluster_metadata-0/leader-epoch-checkpoint',
                'logs/__cluster_metadata-0/partition.metadata',
                'logs/__cluster_metadata-0/quorum-state',
                'logs/t-0/00000000000000000000.log', 'logs/t-0/00000000000000000000.index',
                'logs/t-0/00000000000000000000.timeindex', 'logs/t-0/00000000000000000000.txnindex',
                'logs/t-0/00000000000000000005.log', 'logs/t-0/00000000000000000005.index',
                'logs/t-0/00000000000000000005.snapshot',
                'logs/t-0/leader-epoch-checkpoint', 'logs/t-0/partition.metadata',
                'logs/t-2/00000000000000000000.log', 'logs/t-10/00000000000000000000.log',
                'logs/bootstrap.checkpoint',
                'logs/recovery-point-offset-checkpoint', 'logs/replication-offset-checkpoint',
                'logs/log-start-offset-checkpoint', 'logs/cleaner-offset-checkpoint',
                'logs/meta.properties', 'logs/.kafka_cleanshutdown']
        got = dumping(out)
        check(got == want, 'the files of a log directory in order:\n  got  %r\n  want %r' % (got, want))
        check(rc == 0, 'a sound log directory dumps with exit 0 (got %d; stderr %s)' % (rc, err))
        check('Ignoring unknown file logs/t-0/notes.txt' in err, 'a file not Kafka\'s: "Ignoring unknown file"')
        check('logs/t-0/00000000000000000000.log.deleted: broker temporary skipped' in err,
              'a .deleted segment is skipped with a note')
        check('logs/old-3-delete: broker temporary skipped' in err, 'a -delete directory is skipped with a note')
        # a partition directory alone: the same files as in the log directory's dump
        rc, out2, _ = run('dump', 'logs/t-0', cwd=tmp)
        check(dumping(out2) == [p for p in want if p.startswith('logs/t-0/')], 'a partition directory alone')
        # a file named on its own keeps kafka-dump-log.sh's per-file behaviour
        rc, out3, _ = run('dump', 'logs/t-0/00000000000000000005.log', cwd=tmp)
        check(out3 == '\n'.join(['Dumping logs/t-0/00000000000000000005.log'] +
                                 section(out, 'logs/t-0/00000000000000000005.log')) + '\n',
              'a segment named alone prints as in the directory dump')

        # ---- the text files as parsed entries -----------------------------------------------------
        check(section(out, 'logs/replication-offset-checkpoint') == [
            'replication-offset-checkpoint version: 0 entries: 3', 'topic: t partition: 0 offset: 7',
            'topic: t partition: 2 offset: 1', 'topic: t partition: 10 offset: 2'], 'replication-offset-checkpoint')
        check(section(out, 'logs/cleaner-offset-checkpoint') ==
              ['cleaner-offset-checkpoint: empty file (Kafka reads no entries)'], 'an empty checkpoint said empty')
        check(section(out, 'logs/t-0/leader-epoch-checkpoint') == [
            'leader-epoch-checkpoint version: 0 entries: 2', 'epoch: 0 startOffset: 0', 'epoch: 1 startOffset: 5'],
            'leader-epoch-checkpoint')
        check(section(out, 'logs/t-0/partition.metadata') ==
              ['partition.metadata version: 0 topicId: vqSmEBIuSwm33bh8npzjMw'], 'partition.metadata')
        check(section(out, 'logs/meta.properties') == [
            'MetaProperties(version=1, clusterId=MkU3OEVBNTcwNTJENDM2Qg, nodeId=2)', 'property: node.id=2',
            'property: version=1', 'property: cluster.id=MkU3OEVBNTcwNTJENDM2Qg'], 'meta.properties')
        check(section(out, 'logs/__cluster_metadata-0/quorum-state') == [
            'quorum-state data_version: 0 leaderId: 1 leaderEpoch: 2 votedId: -1 clusterId: "" appliedOffset: 0 '
            'currentVoters: [1]'], 'quorum-state')
        check(section(out, 'logs/.kafka_cleanshutdown') == ['.kafka_cleanshutdown version: 0 brokerEpoch: 42'],
              '.kafka_cleanshutdown')
        write(os.path.join(tmp, 'empty', '.kafka_cleanshutdown'), '')
        rc, o4, _ = run('dump', 'empty/.kafka_cleanshutdown', cwd=tmp)
        check(rc == 0 and 'empty file' in o4, 'an empty .kafka_cleanshutdown is said to be empty')

        # JSON: one textfile object a file, with the entries and their lines' byte positions
        rc, jout, jerr = run('dump', '--json', 'logs/replication-offset-checkpoint', 'logs/meta.properties',
                             'logs/__cluster_metadata-0/quorum-state', 'logs/cleaner-offset-checkpoint', cwd=tmp)
        objs = [json.loads(l) for l in jout.splitlines()]
        check(rc == 0 and [o['type'] for o in objs] == ['textfile'] * 4, 'JSON: a textfile object a file')
        if len(objs) == 4:
            r = objs[0]
            check(r['kind'] == 'replication-offset-checkpoint' and r['version'] == 0 and r['count'] == 3 and
                  r['size'] == len(TEXT['replication-offset-checkpoint']) and not r['empty'], 'replication: header')
            # entry lines start at bytes 4 ("0\n3\n"), 4 + len("t 0 7\n") = 10, 10 + 6 = 16
            check(r['entries'] == [{'topic': 't', 'partition': 0, 'offset': 7, 'position': 4},
                                   {'topic': 't', 'partition': 2, 'offset': 1, 'position': 10},
                                   {'topic': 't', 'partition': 10, 'offset': 2, 'position': 16}],
                  'replication: entries %r' % r['entries'])
            m = objs[1]
            check(m['version'] == 1 and m['nodeId'] == 2 and m['clusterId'] == 'MkU3OEVBNTcwNTJENDM2Qg' and
                  m['directoryId'] is None, 'meta.properties: parsed')
            # "#\n" 2 bytes, "#Tue Nov 14 22:13:20 UTC 2023\n" 30: node.id at 32, version at 42, cluster.id at 52
            check([(p['key'], p['position']) for p in m['properties']] ==
                  [('node.id', 32), ('version', 42), ('cluster.id', 52)], 'meta.properties: properties')
            q = objs[2]
            check((q['dataVersion'], q['leaderId'], q['leaderEpoch'], q['votedId'], q['currentVoters'],
                   q['clusterId'], q['appliedOffset'], q['votedDirectoryId']) == (0, 1, 2, -1, [1], '', 0, None),
                  'quorum-state: parsed %r' % q)
            c = objs[3]
            check(c['empty'] and c['size'] == 0 and c['version'] is None and c['count'] is None and
                  c['entries'] == [], 'an empty checkpoint in JSON')

        # ---- verify: the sound log directory is clean ----------------------------------------------
        rc, vout, verr = run('verify', '--json', 'logs', cwd=tmp)
        vobjs = [json.loads(l) for l in vout.splitlines()]
        bad = [o for o in vobjs if o['type'] == 'finding' and o['severity'] != 'info']
        check(rc == 0 and not bad, 'verify of the sound log directory: exit 0, no finding (%d: %r)' % (rc, bad))
        summ = vobjs[-1] if vobjs else {}
        # partition.metadata of t-0 and of __cluster_metadata-0, quorum-state, and the 6 files of the log dir
        check(summ.get('textFiles') == 9, 'verify read 9 text files (got %r)' % summ.get('textFiles'))

        # ---- faults: each found by dump (exit 1) and by verify (the same check and position) -----------
        F = os.path.join(tmp, 'faulty')
        shutil.copytree(L, F)
        # a high watermark past t-0's log end offset 7 (line 1 of the entries, at byte 4)
        write(os.path.join(F, 'replication-offset-checkpoint'), '0\n3\nt 0 8\nt 2 1\nt 10 2\n')
        # a log start offset past t-10's log end offset 2 (entry 3 at byte 4 + 6 + 6 = 16)
        write(os.path.join(F, 'log-start-offset-checkpoint'), '0\n3\nt 0 0\nt 2 0\nt 10 3\n')
        # epochs not increasing: the second entry (at byte 8) repeats epoch 0
        write(os.path.join(F, 't-0', 'leader-epoch-checkpoint'), '0\n2\n0 0\n0 5\n')
        # the quorum's epoch 1 below the metadata log's last batch's epoch 2
        write(os.path.join(F, '__cluster_metadata-0', 'quorum-state'), QUORUM.replace('"leaderEpoch":2', '"leaderEpoch":1'))
        # a reserved directory.id (most significant bits 0, least 5), its line at byte 52 + len("cluster.id=...\n") = 86
        write(os.path.join(F, 'meta.properties'), TEXT['meta.properties'] + 'directory.id=AAAAAAAAAAAAAAAAAAAABQ\n')
        want_f = sorted([('replication-offset-checkpoint', 'checkpoint-offset', 4, 8),
                         ('log-start-offset-checkpoint', 'checkpoint-offset', 16, 3),
                         ('leader-epoch-checkpoint', 'leader-epoch-order', 8, 5),
                         ('quorum-state', 'quorum-state-epoch', 0, None),
                         ('meta.properties', 'meta-properties-directory-id', 86, None)])
        rc, dout, derr = run('dump', '--json', 'faulty', cwd=tmp)
        dobjs = [json.loads(l) for l in dout.splitlines()]
        check(rc == 1, 'dump of the faulty log directory exits 1 (got %d)' % rc)
        got_f = sorted(findings_of(dobjs))
        check(got_f == want_f, 'dump\'s findings:\n  got  %r\n  want %r' % (got_f, want_f))
        rc, vout, verr = run('verify', '--json', 'faulty', cwd=tmp)
        vobjs = [json.loads(l) for l in vout.splitlines()]
        check(rc == 1, 'verify of the faulty log directory exits 1 (got %d)' % rc)
        got_v = sorted(findings_of(vobjs))
        # dump's, and one more that needs the batches: the entry "0 5" gives offset 5 epoch 0, the batch
        # at 5 has partitionLeaderEpoch 1 (verify's leader-epoch check, at the entry's line)
        want_v = sorted(want_f + [('leader-epoch-checkpoint', 'leader-epoch', 8, 5)])
        check(got_v == want_v, 'verify\'s findings are dump\'s:\n  got  %r\n  want %r' % (got_v, want_v))
        # text form of a finding, on stderr
        rc, tout, terr = run('dump', 'faulty/replication-offset-checkpoint', cwd=tmp)
        check(rc == 1 and 'faulty/replication-offset-checkpoint: byte 4 (offset 8): inconsistency checkpoint-offset: '
              'the high watermark 8 of t-0 is past its log end offset 7' in terr, 'a finding in text: %r' % terr)
        # a leader-epoch-checkpoint named alone is checked against its own partition's log (t-2: LEO 1)
        write(os.path.join(F, 't-2', 'leader-epoch-checkpoint'), '0\n1\n0 9\n')
        rc, tout, terr = run('dump', 'faulty/t-2/leader-epoch-checkpoint', cwd=tmp)
        check(rc == 1 and 'leader-epoch: epoch 0 starts at offset 9, past the log end offset 1' in terr,
              'leader-epoch-checkpoint named alone, against its log: %r' % terr)

        # ---- malformed: exit 3 (as verify calls it damage); unreadable: exit 2 -------------------------
        M = os.path.join(tmp, 'malformed')
        shutil.copytree(L, M)
        write(os.path.join(M, 'recovery-point-offset-checkpoint'), '0\n2\nt 0 5\n')
        rc, mout, merr = run('dump', 'malformed/recovery-point-offset-checkpoint', cwd=tmp)
        check(rc == 3 and 'Expected [2] entries in checkpoint file [' in merr and '[bad-checkpoint]' in merr,
              'an entry count against the lines: exit 3 with Kafka\'s message (%d, %r)' % (rc, merr))
        rc, vout, _ = run('verify', '--json', 'malformed', cwd=tmp)
        vobjs = [json.loads(l) for l in vout.splitlines()]
        check(rc == 3 and any(o.get('check') == 'checkpoint-damage' and o['severity'] == 'damage' for o in vobjs),
              'verify: the same file is checkpoint-damage (exit 3)')
        write(os.path.join(M, 'quorum-state'), '')
        rc, _, merr = run('dump', 'malformed/quorum-state', cwd=tmp)
        check(rc == 3 and 'File ended prematurely.' in merr, 'an empty quorum-state is malformed (%d)' % rc)
        write(os.path.join(M, 't-0', 'partition.metadata'), 'version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAA\n')
        rc, _, merr = run('dump', 'malformed/t-0/partition.metadata', cwd=tmp)
        check(rc == 3 and 'Invalid topic ID' in merr, 'a zero topic id is malformed (%d)' % rc)
        os.makedirs(os.path.join(M, 'sub', 'meta.properties'))
        rc, _, merr = run('dump', 'malformed/sub/meta.properties', cwd=tmp)
        check(rc == 2, 'a text file that cannot be read: exit 2 (got %d)' % rc)
        rc, jout, _ = run('dump', '--json', 'malformed/recovery-point-offset-checkpoint', cwd=tmp)
        e = [json.loads(l) for l in jout.splitlines()]
        check(len(e) == 1 and e[0]['type'] == 'error' and e[0]['kind'] == 'bad-checkpoint' and e[0]['position'] == 0,
              'JSON: a malformed text file is one error object (%r)' % e)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return harness.tally_exit('test_logdir')


if __name__ == '__main__':
    sys.exit(main())
