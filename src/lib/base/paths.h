/* segscan - paths (internal): a directory and a name joined, for the rooms
 * that list a directory's files (names.c). */
#ifndef SEGSCAN_PATHS_H
#define SEGSCAN_PATHS_H

/* "dir/name" (no second '/' when dir ends in one), malloc'd; NULL when memory runs out. */
char *ss_path_join(const char *dir, const char *name);

#endif
