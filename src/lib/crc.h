/* segscan - checksums (internal). The functions are declared in segscan/segscan.h:
 * ss_crc32c (hardware CRC-32C chosen at run time), ss_crc32c_sw (portable
 * slicing-by-8 tables), ss_crc32c_hw_available, ss_crc32 (IEEE, via zlib). */
#ifndef SS_CRC_H
#define SS_CRC_H
#include "segscan/segscan.h"
#endif
