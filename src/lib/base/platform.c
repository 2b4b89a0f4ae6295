/* segscan - platform services: the SIGBUS guard of mapped files (see platform.h). */
#include "base/platform.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define GUARD_SLOTS 256
#define SLOT_CLAIMED ((uintptr_t)1) /* start value while a slot is being filled */

typedef struct guard_slot {
    _Atomic uintptr_t start; /* 0: free */
    _Atomic uintptr_t end;
    _Atomic uint64_t fault; /* offset of the first faulting page, UINT64_MAX: none */
} guard_slot;

static guard_slot slots[GUARD_SLOTS];
static struct sigaction previous;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static _Atomic bool installed;
static uintptr_t page_size = 4096;

static void on_sigbus(int sig, siginfo_t *si, void *uctx) {
    int saved = errno;
    uintptr_t a = (uintptr_t)si->si_addr;
    for (int i = 0; i < GUARD_SLOTS; i++) {
        uintptr_t s = atomic_load(&slots[i].start);
        if (s <= SLOT_CLAIMED) continue;
        uintptr_t e = atomic_load(&slots[i].end);
        if (a < s || a >= e) continue;
        uintptr_t from = a - (a - s) % page_size;
        /* Zero pages over the rest of the mapping: the read that faulted is
         * restarted when the handler returns and now reads zeros. */
        void *m = mmap((void *)from, e - from, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (m == MAP_FAILED) break;
        uint64_t off = (uint64_t)(from - s), cur = atomic_load(&slots[i].fault);
        while (off < cur && !atomic_compare_exchange_weak(&slots[i].fault, &cur, off)) {}
        errno = saved;
        return;
    }
    /* Not ours: hand it to the previous disposition and let the access fault again. */
    errno = saved;
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction) {
            previous.sa_sigaction(sig, si, uctx);
            return;
        }
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(sig);
        return;
    }
    signal(SIGBUS, SIG_DFL);
}

static void install(void) {
    long pg = sysconf(_SC_PAGESIZE);
    if (pg > 0) page_size = (uintptr_t)pg;
    for (int i = 0; i < GUARD_SLOTS; i++) atomic_store(&slots[i].fault, UINT64_MAX);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGBUS, &sa, &previous) == 0) atomic_store(&installed, true);
}

int ss_guard_register(void *addr, size_t len) {
    pthread_once(&install_once, install);
    if (!atomic_load(&installed) || len == 0) return -1;
    for (int i = 0; i < GUARD_SLOTS; i++) {
        uintptr_t expect = 0;
        if (!atomic_compare_exchange_strong(&slots[i].start, &expect, SLOT_CLAIMED)) continue;
        atomic_store(&slots[i].fault, UINT64_MAX);
        atomic_store(&slots[i].end, (uintptr_t)addr + len);
        atomic_store(&slots[i].start, (uintptr_t)addr);
        return i;
    }
    return -1;
}

void ss_guard_unregister(int slot) {
    if (slot < 0 || slot >= GUARD_SLOTS) return;
    atomic_store(&slots[slot].start, SLOT_CLAIMED);
    atomic_store(&slots[slot].end, 0);
    atomic_store(&slots[slot].fault, UINT64_MAX);
    atomic_store(&slots[slot].start, 0);
}

uint64_t ss_guard_fault(int slot) {
    if (slot < 0 || slot >= GUARD_SLOTS) return UINT64_MAX;
    return atomic_load_explicit(&slots[slot].fault, memory_order_relaxed);
}
