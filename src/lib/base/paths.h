/* segscan - paths (internal): a directory and a name joined, and the offset
 * Kafka's file names start with, for the rooms that list a directory's files
 * (names.c). Both are public (segscan/base.h), for the CLI's directory listings too. */
#ifndef SEGSCAN_PATHS_H
#define SEGSCAN_PATHS_H

#include "segscan/base.h"

#endif
