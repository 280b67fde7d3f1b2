#ifndef LAST_WORDS_H
#define LAST_WORDS_H
#include <stddef.h>
#include <stdint.h>

/// What a file still holds in memory, kept current by its writer, for a crash to write out: a Swift runtime
/// trap (SIGILL on x86-64, SIGTRAP on arm64), a fault (SIGSEGV, SIGBUS, SIGFPE) or an abort (SIGABRT).
typedef struct {
    int fd;
    const uint8_t *bytes;
    volatile size_t count;
} kiosk_pending;

/// A slot for `fd` with room for `capacity` bytes (the writer appends into `bytes` then raises `count`), or NULL
/// when all are taken.
kiosk_pending *kiosk_last_words_slot(int fd, size_t capacity);
/// The slot is given back (its file closed): a crash no longer writes it.
void kiosk_last_words_release(kiosk_pending *slot);
/// Handlers for the crash signals: each slot's bytes written to its file with write(2), one line on stderr
/// naming the signal, then the handler that was there before (the Swift runtime's backtracer, or the default:
/// the process ends by the same signal).
void kiosk_last_words_install(void);
#endif
