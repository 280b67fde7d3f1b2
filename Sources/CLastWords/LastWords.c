#include "LastWords.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { SLOTS = 4 };
static kiosk_pending slots[SLOTS] = {{-1, NULL, 0}, {-1, NULL, 0}, {-1, NULL, 0}, {-1, NULL, 0}};
static const int crashes[] = {SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT};
enum { CRASHES = sizeof crashes / sizeof crashes[0] };
static struct sigaction before[CRASHES];
static volatile sig_atomic_t installed = 0;

kiosk_pending *kiosk_last_words_slot(int fd, size_t capacity) {
    for (int i = 0; i < SLOTS; i++) {
        if (slots[i].fd >= 0) continue;
        uint8_t *bytes = malloc(capacity);
        if (!bytes) return NULL;
        slots[i].count = 0;
        slots[i].bytes = bytes;
        slots[i].fd = fd;
        return &slots[i];
    }
    return NULL;
}

void kiosk_last_words_release(kiosk_pending *slot) {
    if (!slot) return;
    const uint8_t *bytes = slot->bytes;
    slot->fd = -1;
    slot->count = 0;
    slot->bytes = NULL;
    free((void *)bytes);
}

static void say(const char *text) {
    ssize_t ignored = write(2, text, strlen(text));
    (void)ignored;
}

/// `n` in decimal into `out` (at least 21 bytes), without the C library (a signal handler's rule).
static const char *decimal(size_t n, char *out) {
    char *p = out + 20;
    *p = 0;
    do {
        *--p = (char)('0' + n % 10);
        n /= 10;
    } while (n > 0);
    return p;
}

static void crashed(int sig, siginfo_t *info, void *context) {
    (void)context;
    size_t written = 0;
    for (int i = 0; i < SLOTS; i++) {
        int fd = slots[i].fd;
        const uint8_t *bytes = slots[i].bytes;
        size_t count = slots[i].count;
        if (fd < 0 || !bytes) continue;
        size_t done = 0;
        while (done < count) {
            ssize_t n = write(fd, bytes + done, count - done);
            if (n <= 0) break;
            done += (size_t)n;
        }
        slots[i].count = 0;
        written += done;
    }
    const char *name = sig == SIGILL    ? "SIGILL"
                       : sig == SIGTRAP ? "SIGTRAP"
                       : sig == SIGSEGV ? "SIGSEGV"
                       : sig == SIGBUS  ? "SIGBUS"
                       : sig == SIGFPE  ? "SIGFPE"
                                        : "SIGABRT";
    char digits[21];
    say("<2>kiosk: ended by ");
    say(name);
    say("; the last ");
    say(decimal(written, digits));
    say(" bytes of the trace and the recording written\n");
    // The handler that was there before (the Swift runtime's backtracer, or the default) takes it from here: a
    // fault's instruction runs again when this returns, and meets it; a signal that was sent (kill, abort's
    // raise) is sent again as it came.
    for (int i = 0; i < CRASHES; i++) {
        if (crashes[i] == sig) sigaction(sig, &before[i], NULL);
    }
    if (info != NULL && info->si_code > 0) return;
    kill(getpid(), sig);
    // Still here (that handler returned for a signal that was only sent): the default, which ends the process.
    signal(sig, SIG_DFL);
    raise(sig);
}

void kiosk_last_words_install(void) {
    if (installed) return;
    installed = 1;
    // A parent may hand its mask down with these blocked (a test runner does): a blocked abort would wait.
    sigset_t unblock;
    sigemptyset(&unblock);
    for (int i = 0; i < CRASHES; i++) sigaddset(&unblock, crashes[i]);
    pthread_sigmask(SIG_UNBLOCK, &unblock, NULL);
    for (int i = 0; i < CRASHES; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = crashed;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigaction(crashes[i], &action, &before[i]);
    }
}
