#ifndef KIOSK_HEADPHONE_JACK_H
#define KIOSK_HEADPHONE_JACK_H

/// Opens (read-only, non-blocking, close-on-exec) every input device under `folder` (`/dev/input`) whose name
/// begins `event` and which reports a headphone jack (the switch `SW_HEADPHONE_INSERT`, as a laptop's or a
/// board's codec does); up to `max` of their descriptors go into `fds`. Returns how many.
int kiosk_jacks_open(const char *folder, int *fds, int max);

/// Whether a plug is in the jack of `fd` now: 1 or 0; -1 when the device does not say.
int kiosk_jack_state(int fd);

/// Reads the events waiting on `fd`: the jack's state after the last change among them (1 or 0), -1 when none
/// changed it, -2 when the device is gone.
int kiosk_jack_read(int fd);

#endif
