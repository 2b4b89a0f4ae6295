/* snappy-cli - the snappy command line that snappy lacks, for the benchmark only.
 *
 *   snappy-cli -c FILE > FILE.sz    compress, xerial framing (snappy-java's, as Kafka
 *                                   producers write it): a 16-byte header, then blocks
 *                                   of at most 32 KiB, each a 4-byte big-endian length
 *                                   and a raw snappy block
 *   snappy-cli -d FILE.sz > FILE    decompress it
 *
 * "-d" reads and writes block by block through small buffers, as a codec CLI
 * does; bench.py times it as the codec's own speed on the same records.
 */
#include <errno.h>
#include <snappy-c.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t XERIAL[16] = {0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0, 0, 0, 0, 1, 0, 0, 0, 1};
enum { BLOCK = 32768 };

static uint8_t *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 20, n = 0;
    uint8_t *b = malloc(cap);
    while (b) {
        size_t r = fread(b + n, 1, cap - n, f);
        n += r;
        if (n < cap) break;
        uint8_t *nb = realloc(b, cap * 2);
        if (!nb) {
            free(b);
            b = NULL;
            break;
        }
        b = nb;
        cap *= 2;
    }
    fclose(f);
    *len = n;
    return b;
}

static void die(const char *what) {
    fprintf(stderr, "snappy-cli: %s\n", what);
    exit(2);
}

int main(int argc, char **argv) {
    if (argc != 3 || (strcmp(argv[1], "-c") && strcmp(argv[1], "-d"))) die("usage: snappy-cli -c|-d FILE");
    static char out[1 << 20];
    setvbuf(stdout, NULL, _IOFBF, 1 << 20);
    if (!strcmp(argv[1], "-c")) {
        size_t len;
        uint8_t *in = slurp(argv[2], &len);
        if (!in) die(strerror(errno));
        fwrite(XERIAL, 1, sizeof XERIAL, stdout);
        for (size_t off = 0; off < len; off += BLOCK) {
            size_t n = len - off < BLOCK ? len - off : BLOCK, clen = sizeof out;
            if (snappy_compress((const char *)in + off, n, out, &clen) != SNAPPY_OK) die("compress failed");
            uint8_t be[4] = {(uint8_t)(clen >> 24), (uint8_t)(clen >> 16), (uint8_t)(clen >> 8), (uint8_t)clen};
            fwrite(be, 1, 4, stdout);
            fwrite(out, 1, clen, stdout);
        }
        free(in);
        return fflush(stdout) == 0 ? 0 : 2;
    }
    /* -d: streaming, block by block, as a codec CLI reads its input */
    FILE *f = fopen(argv[2], "rb");
    if (!f) die(strerror(errno));
    static char block[1 << 17];
    uint8_t hdr[sizeof XERIAL], be[4];
    if (fread(hdr, 1, sizeof hdr, f) != sizeof hdr || memcmp(hdr, XERIAL, 8) != 0) die("not a xerial snappy file");
    while (fread(be, 1, 4, f) == 4) {
        size_t clen = (size_t)be[0] << 24 | (size_t)be[1] << 16 | (size_t)be[2] << 8 | be[3];
        if (clen > sizeof block || fread(block, 1, clen, f) != clen) die("truncated or oversized block");
        size_t n = sizeof out;
        if (snappy_uncompress(block, clen, out, &n) != SNAPPY_OK) die("corrupt block");
        fwrite(out, 1, n, stdout);
    }
    fclose(f);
    return fflush(stdout) == 0 ? 0 : 2;
}
