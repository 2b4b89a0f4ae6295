/* segscan's C tests - the one assertion kit (tests/lib; meson's test_kit_dep puts
 * this folder on the include path).
 *
 * CHECK(cond) and the CHECK_EQ_* variants print file:line and the values on
 * failure and count the failure; the test goes on. check_exit() prints a
 * summary and returns the process exit status (1 if anything failed).
 * Tests are single-threaded, so the counters are plain statics.
 */
#ifndef SEGSCAN_TEST_CHECK_H
#define SEGSCAN_TEST_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static unsigned long check_total, check_failed;

#define CHECK(cond)                                                                                                    \
    do {                                                                                                               \
        check_total++;                                                                                                 \
        if (!(cond)) {                                                                                                 \
            check_failed++;                                                                                            \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);                                   \
        }                                                                                                              \
    } while (0)

/* Unsigned integers (any width up to 64 bits). */
#define CHECK_EQ_U(a, b)                                                                                               \
    do {                                                                                                               \
        uint64_t check_a_ = (uint64_t)(a), check_b_ = (uint64_t)(b);                                                   \
        check_total++;                                                                                                 \
        if (check_a_ != check_b_) {                                                                                    \
            check_failed++;                                                                                            \
            fprintf(stderr, "%s:%d: check failed: %s == %s (0x%" PRIx64 " != 0x%" PRIx64 ")\n", __FILE__, __LINE__,    \
                    #a, #b, check_a_, check_b_);                                                                       \
        }                                                                                                              \
    } while (0)

/* Signed integers and enums. */
#define CHECK_EQ_I(a, b)                                                                                               \
    do {                                                                                                               \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);                                                \
        check_total++;                                                                                                 \
        if (check_a_ != check_b_) {                                                                                    \
            check_failed++;                                                                                            \
            fprintf(stderr, "%s:%d: check failed: %s == %s (%lld != %lld)\n", __FILE__, __LINE__, #a, #b, check_a_,    \
                    check_b_);                                                                                         \
        }                                                                                                              \
    } while (0)

/* C strings; a NULL on the left fails. */
#define CHECK_EQ_S(a, b)                                                                                               \
    do {                                                                                                               \
        const char *check_a_ = (a), *check_b_ = (b);                                                                   \
        check_total++;                                                                                                 \
        if (!check_a_ || strcmp(check_a_, check_b_)) {                                                                 \
            check_failed++;                                                                                            \
            fprintf(stderr, "%s:%d: check failed: %s == %s (\"%s\" != \"%s\")\n", __FILE__, __LINE__, #a, #b,          \
                    check_a_ ? check_a_ : "(null)", check_b_);                                                         \
        }                                                                                                              \
    } while (0)

/* Like CHECK, with a printf-style context line printed on failure. */
#define CHECK_MSG(cond, ...)                                                                                           \
    do {                                                                                                               \
        check_total++;                                                                                                 \
        if (!(cond)) {                                                                                                 \
            check_failed++;                                                                                            \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);                                   \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
        }                                                                                                              \
    } while (0)

static inline int check_exit(const char *name) {
    printf("%s: %lu checks, %lu failed\n", name, check_total, check_failed);
    return check_failed == 0 ? 0 : 1;
}

/* xorshift64*: deterministic test data. */
static inline uint64_t test_rand(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

#endif
