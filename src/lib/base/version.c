/* segscan - the version: the release, and the git description of the build when known. */
#include <string.h>

#include "segscan/base.h"

#include "version.h"

/* The release once: "0.1.0" when git describes the build by its tag (v0.1.0), "0.1.0-3-gabc1234"
 * a few commits past it, "0.1.0 (abc1234)" when git knows no tag, "0.1.0" outside git. */
const char *ss_version(void) {
    static const char tag[] = SS_VCS_TAG, release[] = SS_VERSION;
    const char *t = tag[0] == 'v' ? tag + 1 : tag;
    size_t n = sizeof release - 1;
    if (!tag[0] || !strcmp(t, release)) return release;
    if (!strncmp(t, release, n) && t[n] == '-') return t;
    return SS_VERSION " (" SS_VCS_TAG ")";
}
