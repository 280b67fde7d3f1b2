#define _GNU_SOURCE
#include <sched.h>
#include <unistd.h>
// Interposes malloc, calloc and realloc in the benchmark binary (an executable's definitions take precedence
// over libc's for every shared library too) and counts the calls, so the benchmark can show that a step of
// the engine does not allocate. glibc exports its own implementations as __libc_*.
#include <stddef.h>
#include <stdint.h>
#include "CAllocCounter.h"

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);

static uint64_t allocations;

void *malloc(size_t size) {
    __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED);
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size) {
    __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED);
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size) {
    __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED);
    return __libc_realloc(p, size);
}

uint64_t kiosk_allocation_count(void) { return __atomic_load_n(&allocations, __ATOMIC_RELAXED); }

int kiosk_pin_to_last_cpu(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(n > 0 ? (int)n - 1 : 0, &one);
    return sched_setaffinity(0, sizeof one, &one);
}

void kiosk_unpin(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t all;
    CPU_ZERO(&all);
    for (int i = 0; i < n; i++) CPU_SET(i, &all);
    sched_setaffinity(0, sizeof all, &all);
}
