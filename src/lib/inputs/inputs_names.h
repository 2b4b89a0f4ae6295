/* segscan - PATHs to partitions: what a file's or a directory's name says (inputs_names.c). */
#ifndef SS_INPUTS_NAMES_H
#define SS_INPUTS_NAMES_H

#include <stdbool.h>
#include <stdint.h>

const char *in_base_name(const char *path);
bool in_has_suffix(const char *s, const char *suf);
int64_t in_segment_name_offset(const char *name, bool *is_temp);
bool in_is_temp_file(const char *name);
bool in_is_temp_dir(const char *name);
bool in_is_known_non_segment(const char *name);
bool in_is_kraft_snapshot(const char *name, bool *bootstrap);
void in_parse_topic(const char *name, char **topic, int32_t *partno);

#endif
