#include "EarlySignals.h"

#include <signal.h>
#include <string.h>

// A reload (SIGHUP) or a picture of the screen (SIGUSR1) asked while the process starts would end it: both
// signals' default action is to terminate, and the frame loop installs its handlers only after the Swift runtime,
// Foundation and SDL are up (20 to 40 ms). A function in the executable's `.preinit_array` runs right after the
// dynamic loader has mapped and relocated the libraries and before any library's constructor: from there until the
// handlers exist both signals are ignored. What stays open is the loader's own work before it (about 8 ms for the
// release build on a 2-core x86 machine). Only in the kiosk itself (a test process that links this target keeps its
// signals), as the name it was started under says.
static void kiosk_ignore_signals_at_start(int argc, char **argv, char **envp) {
    (void)envp;
    // Before libc's own constructor: argv, not program_invocation_short_name.
    if (argc < 1 || argv == NULL || argv[0] == NULL) return;
    const char *slash = strrchr(argv[0], '/');
    if (strcmp(slash ? slash + 1 : argv[0], "kiosk") != 0) return;
    signal(SIGHUP, SIG_IGN);
    signal(SIGUSR1, SIG_IGN);
}

__attribute__((section(".preinit_array"), used)) static void (*const kiosk_preinit)(int, char **, char **) =
    kiosk_ignore_signals_at_start;

int kiosk_early_signals_linked(void) { return 1; }

#include <errno.h>
#include <unistd.h>

// The frame loop's handlers (SignalListener.swift): each only writes one byte to the pipe `fd` and keeps errno,
// as a signal handler must (async-signal-safe). They are C: a handler written in Swift may ask the runtime for a
// type's metadata, which allocates, and a signal that arrives while the interrupted thread holds malloc's lock then
// deadlocks the process (seen: SIGUSR1 and SIGHUP sent a thousand times while the first picture loads).
static volatile int kiosk_signal_fd = -1;

static void kiosk_on_hangup(int sig, siginfo_t *info, void *context) {
    (void)sig;
    (void)context;
    int saved = errno;
    // A SIGHUP from the kernel is the terminal hanging up, not a reload.
    unsigned char byte = (info != NULL && info->si_code == SI_KERNEL) ? KIOSK_SIGNAL_HANGUP : KIOSK_SIGNAL_RELOAD;
    ssize_t written = write(kiosk_signal_fd, &byte, 1);
    (void)written;
    errno = saved;
}

static void kiosk_on_picture(int sig) {
    (void)sig;
    int saved = errno;
    unsigned char byte = KIOSK_SIGNAL_PICTURE;
    ssize_t written = write(kiosk_signal_fd, &byte, 1);
    (void)written;
    errno = saved;
}

int kiosk_signals_install(int fd) {
    kiosk_signal_fd = fd;
    struct sigaction hangup;
    memset(&hangup, 0, sizeof hangup);
    hangup.sa_sigaction = kiosk_on_hangup;
    sigemptyset(&hangup.sa_mask);
    hangup.sa_flags = SA_RESTART | SA_SIGINFO;
    struct sigaction picture;
    memset(&picture, 0, sizeof picture);
    picture.sa_handler = kiosk_on_picture;
    sigemptyset(&picture.sa_mask);
    picture.sa_flags = SA_RESTART;
    if (sigaction(SIGHUP, &hangup, NULL) != 0 || sigaction(SIGUSR1, &picture, NULL) != 0) return -1;
    // A helper process that ends before it has read its input (espeak-ng crashing) must not end the kiosk with
    // it: the write to its pipe fails with EPIPE instead.
    signal(SIGPIPE, SIG_IGN);
    return 0;
}
