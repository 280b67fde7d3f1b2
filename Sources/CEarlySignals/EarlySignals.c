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
