#ifndef KIOSK_TOUCH_TIMES_H
#define KIOSK_TOUCH_TIMES_H

#include <stdint.h>

/// A touchscreen's contacts as SDL's evdev reader sees them (SDL 2.26, src/core/linux/SDL_evdev.c), kept by
/// a second reader of the same device to learn when the kernel took each one: a finger's down, up or motion
/// at a frame (`SYN_REPORT`), with the frame's kernel time.
enum { KIOSK_TOUCH_SLOTS = 64 };

typedef struct {
    /// The slot the device's events speak of (`ABS_MT_SLOT`).
    int slot;
    /// Slots of the device (1: a single-touch screen, whose contact `BTN_TOUCH` begins and ends).
    int slots;
    /// Each slot's finger (`ABS_MT_TRACKING_ID`, SDL's finger id) and what changed in this frame.
    int64_t tracking[KIOSK_TOUCH_SLOTS];
    int delta[KIOSK_TOUCH_SLOTS];
    /// Events lost (`SYN_DROPPED`): nothing is reported until the next frame; how many times so far.
    int dropped;
    int drops;
    /// Each slot's position (`ABS_MT_POSITION_X`, `_Y`), and their ranges (the device's `absinfo`; 0 and 0 when
    /// not known): a motion is told from the others by where it went, as SDL may report fewer.
    int x[KIOSK_TOUCH_SLOTS];
    int y[KIOSK_TOUCH_SLOTS];
    int min_x, max_x, min_y, max_y;
} kiosk_touch_state;

/// The records one read of the device's events can make: one per event, and the slots' changes pending.
enum { KIOSK_TOUCH_READ_CHUNK = 64, KIOSK_TOUCH_READ_ROOM = KIOSK_TOUCH_READ_CHUNK + KIOSK_TOUCH_SLOTS };

enum { KIOSK_TOUCH_DOWN = 1, KIOSK_TOUCH_UP = 2, KIOSK_TOUCH_MOTION = 3 };

/// One finger's change at a frame: SDL's finger id, its phase, the frame's time (ms on CLOCK_MONOTONIC) and where
/// the finger was then (the device's units).
typedef struct {
    int64_t finger;
    int phase;
    double ms;
    int x, y;
} kiosk_touch_time;

/// Opens `path` read-only and non-blocking, its events stamped on CLOCK_MONOTONIC; -1 when it cannot be opened
/// or is no touchscreen. `state` is made ready for it.
int kiosk_touch_times_open(const char *path, kiosk_touch_state *state);

/// Makes `state` ready for a device of `slots` slots (a test's pipe standing in for a device).
void kiosk_touch_times_start(kiosk_touch_state *state, int slots);

/// Reads what waits on `fd` and appends a record per finger changed at each frame, in SDL's order, while at
/// least `KIOSK_TOUCH_READ_ROOM` more fit in `max` (call again when it returns more than `max` less that: the
/// rest waits in the kernel). Returns how many, or -1 when the device is gone.
int kiosk_touch_times_read(int fd, kiosk_touch_state *state, kiosk_touch_time *out, int max);

/// Takes `count` events already read (a test's, a recording's) as `kiosk_touch_times_read` would.
int kiosk_touch_times_take(
    const void *events, int count, kiosk_touch_state *state, kiosk_touch_time *out, int max);

/// The fingers on the device now as the kernel keeps them (`EVIOCGMTSLOTS` of `ABS_MT_TRACKING_ID`, SDL's finger
/// ids): each of its `slots` slots' id (-1: none) into `ids`, at most `max`. Returns how many slots, or -1 when
/// the kernel cannot say (a single-touch screen, a device gone, a test's pipe).
int kiosk_touch_times_fingers(int fd, int slots, int32_t *ids, int max);

#endif
