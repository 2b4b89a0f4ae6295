/* segscan dump - index, time index, transaction index and producer snapshot files. */
#include <string.h>

#include "cli.h"

bool is_index_file(const char *path) {
    (void)path;
    return false;
}

int dump_index_file(const char *path, const struct dump_opts *o, ss_out *out) {
    (void)path; (void)o; (void)out;
    return EXIT_TROUBLE;
}
