/* segscan - checksums (internal). The functions are declared in segscan/segscan.h:
 * ss_crc32c (hardware CRC-32C chosen at run time), ss_crc32c_sw (portable
 * slicing-by-8 tables), ss_crc32c_hw_available, ss_crc32 (IEEE, via zlib).
 * ss_crc32c_by, for the tests, is declared here. */
#ifndef SS_CRC_H
#define SS_CRC_H
#include "segscan/base.h"

/* For the tests: the CRC-32C by one path; false when this CPU lacks it. */
typedef enum ss_crc32c_path {
    SS_CRC32C_TABLES, /* slicing-by-8 */
    SS_CRC32C_LANES,  /* the crc32 instruction in three lanes (x86 SSE4.2, ARMv8 CRC) */
    SS_CRC32C_FOLD    /* x86 AVX-512 VPCLMULQDQ folding (from 256 bytes; lanes below) */
} ss_crc32c_path;
bool ss_crc32c_by(ss_crc32c_path path, uint32_t crc, const void *buf, size_t len, uint32_t *out);
#endif
