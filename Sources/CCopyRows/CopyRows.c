#include "CCopyRows.h"
#include <stdint.h>
#include <string.h>

typedef uint8_t block16 __attribute__((vector_size(16)));

/// One row with non-temporal stores in whole 64-byte lines; the part of a line at either end by memcpy. A line
/// written partly both ways would be read in and flushed in pieces: twice as slow as memcpy, not a third faster.
static void stream_row(uint8_t *d, const uint8_t *s, size_t n) {
    size_t head = (64 - ((uintptr_t)d & 63)) & 63;
    if (head > n) head = n;
    memcpy(d, s, head);
    d += head;
    s += head;
    n -= head;
    for (; n >= 64; n -= 64, d += 64, s += 64) {
        block16 a, b, c, e;
        memcpy(&a, s, 16);
        memcpy(&b, s + 16, 16);
        memcpy(&c, s + 32, 16);
        memcpy(&e, s + 48, 16);
        __builtin_nontemporal_store(a, (block16 *)d);
        __builtin_nontemporal_store(b, (block16 *)(d + 16));
        __builtin_nontemporal_store(c, (block16 *)(d + 32));
        __builtin_nontemporal_store(e, (block16 *)(d + 48));
    }
    memcpy(d, s, n);
}

void kiosk_copy_rows(void *dst, ptrdiff_t dstPitch, const void *src, ptrdiff_t srcPitch, size_t rowBytes,
                     size_t rows, int stream) {
    uint8_t *d = dst;
    const uint8_t *s = src;
    for (size_t y = 0; y < rows; y++, d += dstPitch, s += srcPitch) {
        if (stream)
            stream_row(d, s, rowBytes);
        else
            memcpy(d, s, rowBytes);
    }
    // Non-temporal stores are ordered with nothing else until a fence: the presenting code (another thread, the
    // X server) must see them.
    if (stream) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_sfence();
#else
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
    }
}
