/* segscan - the version: the release, and the git description of the build when known. */
#include "segscan/base.h"

#include "version.h"

const char *ss_version(void) { return SS_VCS_TAG[0] ? SS_VERSION " (" SS_VCS_TAG ")" : SS_VERSION; }
