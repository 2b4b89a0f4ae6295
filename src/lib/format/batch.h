/* segscan - framing a log entry (internal): what the walker and the
 * analysis's reader ask of an entry header before they trust it (batch.c). */
#ifndef SS_FORMAT_BATCH_H
#define SS_FORMAT_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Does the entry header at p look like one Kafka writes? avail bytes of it can
 * be read (17 at least; the checks of fields beyond avail are left out), and
 * the entry may take up to `room` bytes (UINT64_MAX: any length, for a cut
 * tail). Sets *size to the entry's size. Cheap checks only, no CRC: for
 * resynchronising after damage, where a wrong start must be rare:
 *  - every entry: offset >= 0, magic 0..2, a length of at least 14;
 *  - v2: the 61-byte header fits, attribute bits 0-6 only and codec 0..4,
 *    lastOffsetDelta >= 0, 0 <= count <= lastOffsetDelta + 1, producer id,
 *    epoch and base sequence >= -1;
 *  - v0/v1: attribute bits 0-2 (codec 0..4) and, for v1, bit 3 only; key and
 *    value lengths >= -1 that add up to the entry's size. */
bool ss_entry_plausible(const uint8_t *p, size_t avail, uint64_t room, uint64_t *size);

#endif
