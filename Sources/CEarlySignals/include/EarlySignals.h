#ifndef KIOSK_EARLY_SIGNALS_H
#define KIOSK_EARLY_SIGNALS_H

/// Referenced from `main` so the linker keeps the object whose constructor ignores SIGHUP and SIGUSR1 at start.
int kiosk_early_signals_linked(void);

#endif
