#ifndef KIOSK_EARLY_SIGNALS_H
#define KIOSK_EARLY_SIGNALS_H

/// Referenced from `main` so the linker keeps the object whose constructor ignores SIGHUP and SIGUSR1 at start.
int kiosk_early_signals_linked(void);

/// The bytes the frame loop's handlers write to its pipe.
#define KIOSK_SIGNAL_RELOAD 1
#define KIOSK_SIGNAL_HANGUP 2
#define KIOSK_SIGNAL_PICTURE 3

/// Installs the frame loop's SIGHUP and SIGUSR1 handlers, which write one of the bytes above to `fd` (a pipe's
/// non-blocking write end), and ignores SIGPIPE; 0, or -1 with errno.
int kiosk_signals_install(int fd);

#endif
