/* segscan - paths (internal): a directory and a name joined, and the offset
 * Kafka's file names start with, for the rooms that list a directory's files
 * (names.c). */
#ifndef SEGSCAN_PATHS_H
#define SEGSCAN_PATHS_H

#include <stdint.h>

/* "dir/name" (no second '/' when dir ends in one), malloc'd; NULL when memory runs out. */
char *ss_path_join(const char *dir, const char *name);

/* The offset a segment, index or snapshot file name starts with: 20 ASCII digits,
 * as Kafka's LogFileUtils.filenamePrefixFromOffset writes them ("%020d"). -1 when
 * the name does not start so, or the value is too large for a long. */
int64_t ss_name_offset20(const char *name);

#endif
