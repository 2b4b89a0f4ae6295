/* segscan - read Apache Kafka log segments: the public API of libsegscan.
 *
 * The library never prints, never exits, keeps no global state and never
 * opens an input for writing. Every length read from a file is untrusted and
 * checked against what encloses it.
 *
 * This header includes every other; each can also be included on its own.
 * One header per room of the library, lower to higher (src/README.md):
 *   segscan/errors.h   error kinds and ss_error
 *   segscan/base.h     checksums, Kafka file names, times, the version
 *   segscan/segment.h  segment files, the walker, batches
 *   segscan/record.h   the records of a batch
 *   segscan/files.h    the files beside a segment: indexes, snapshots, checkpoints
 *   segscan/inputs.h   PATHs resolved into partitions
 *   segscan/decode.h   the records of the internal topics
 *   segscan/analyze.h  the analysis: copies and their causes, producers, transactions
 *   segscan/verify.h   the checks of a partition's files against each other
 *   segscan/diff.h     comparing two logs
 * SS_API (segscan/export.h) marks what the library exports.
 */
#ifndef SEGSCAN_H
#define SEGSCAN_H

#include "segscan/analyze.h"
#include "segscan/base.h"
#include "segscan/decode.h"
#include "segscan/diff.h"
#include "segscan/errors.h"
#include "segscan/export.h"
#include "segscan/exports.h"
#include "segscan/files.h"
#include "segscan/findings.h"
#include "segscan/groups.h"
#include "segscan/inputs.h"
#include "segscan/kafka_records.h"
#include "segscan/lag.h"
#include "segscan/parquet.h"
#include "segscan/record.h"
#include "segscan/segment.h"
#include "segscan/study.h"
#include "segscan/test_hooks.h"
#include "segscan/timeline.h"
#include "segscan/verify.h"

#endif
