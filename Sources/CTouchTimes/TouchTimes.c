#include "CTouchTimes.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define BITS_PER_LONG (sizeof(long) * 8)
#define HAS_BIT(bits, n) (((bits)[(n) / BITS_PER_LONG] >> ((n) % BITS_PER_LONG)) & 1UL)

enum { NONE = 0 };

void kiosk_touch_times_start(kiosk_touch_state *state, int slots) {
    memset(state, 0, sizeof(*state));
    state->slots = slots < 1 ? 1 : (slots > KIOSK_TOUCH_SLOTS ? KIOSK_TOUCH_SLOTS : slots);
}

int kiosk_touch_times_open(const char *path, kiosk_touch_state *state) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    unsigned long abs[ABS_MAX / BITS_PER_LONG + 1] = {0};
    if (ioctl(fd, EVIOCGBIT(EV_ABS, sizeof(abs)), abs) < 0
        || !(HAS_BIT(abs, ABS_MT_POSITION_X) || HAS_BIT(abs, ABS_X))) {
        close(fd);
        return -1;
    }
    int clock = CLOCK_MONOTONIC;
    ioctl(fd, EVIOCSCLOCKID, &clock);
    struct input_absinfo info;
    int slots = 1;
    // As SDL: a device without slots has one, begun and ended by BTN_TOUCH.
    if (ioctl(fd, EVIOCGABS(ABS_MT_SLOT), &info) == 0 && info.maximum > 0) slots = info.maximum + 1;
    kiosk_touch_times_start(state, slots);
    if (ioctl(fd, EVIOCGABS(ABS_MT_POSITION_X), &info) == 0) {
        state->min_x = info.minimum;
        state->max_x = info.maximum;
    }
    if (ioctl(fd, EVIOCGABS(ABS_MT_POSITION_Y), &info) == 0) {
        state->min_y = info.minimum;
        state->max_y = info.maximum;
    }
    return fd;
}

static double ms_of(const struct input_event *e) {
    return (double)e->input_event_sec * 1000.0 + (double)e->input_event_usec / 1000.0;
}

/// One event, as SDL_EVDEV_Poll takes it for a touchscreen.
static int take(const struct input_event *e, kiosk_touch_state *s, kiosk_touch_time *out, int n, int max) {
    if (s->dropped && !(e->type == EV_SYN && e->code == SYN_REPORT)) return n;
    int slot = s->slot;
    switch (e->type) {
    case EV_KEY:
        if (e->code == BTN_TOUCH && s->slots == 1) s->delta[0] = e->value ? KIOSK_TOUCH_DOWN : KIOSK_TOUCH_UP;
        break;
    case EV_ABS:
        switch (e->code) {
        case ABS_MT_SLOT:
            s->slot = e->value >= 0 && e->value < KIOSK_TOUCH_SLOTS ? e->value : 0;
            break;
        case ABS_MT_TRACKING_ID:
            if (e->value >= 0) {
                s->tracking[slot] = e->value;
                s->delta[slot] = KIOSK_TOUCH_DOWN;
            } else {
                s->delta[slot] = KIOSK_TOUCH_UP;
            }
            break;
        case ABS_MT_POSITION_X:
        case ABS_MT_POSITION_Y:
            if (e->code == ABS_MT_POSITION_X) s->x[slot] = e->value; else s->y[slot] = e->value;
            __attribute__((fallthrough));
        case ABS_MT_PRESSURE:
            if (s->delta[slot] == NONE) s->delta[slot] = KIOSK_TOUCH_MOTION;
            break;
        }
        break;
    case EV_SYN:
        if (e->code == SYN_DROPPED) {
            s->dropped = 1;
            s->drops++;
            memset(s->delta, 0, sizeof(s->delta));
        } else if (e->code == SYN_REPORT) {
            if (s->dropped) {
                s->dropped = 0;
                break;
            }
            for (int j = 0; j < s->slots; j++) {
                if (s->delta[j] == NONE) continue;
                if (n < max) out[n++] = (kiosk_touch_time){s->tracking[j], s->delta[j], ms_of(e), s->x[j], s->y[j]};
                if (s->delta[j] == KIOSK_TOUCH_UP && s->slots > 1) s->tracking[j] = -1;
                s->delta[j] = NONE;
            }
        }
        break;
    }
    return n;
}

int kiosk_touch_times_take(
    const void *events, int count, kiosk_touch_state *state, kiosk_touch_time *out, int max) {
    const struct input_event *e = events;
    int n = 0;
    for (int i = 0; i < count; i++) n = take(&e[i], state, out, n, max);
    return n;
}

int kiosk_touch_times_read(int fd, kiosk_touch_state *state, kiosk_touch_time *out, int max) {
    struct input_event events[KIOSK_TOUCH_READ_CHUNK];
    int n = 0;
    while (max - n >= KIOSK_TOUCH_READ_ROOM) {
        ssize_t got = read(fd, events, sizeof(events));
        if (got < 0) {
            if (errno == EINTR) continue;
            return errno == EAGAIN ? n : -1;
        }
        if (got == 0) return -1;
        int count = (int)(got / (ssize_t)sizeof(events[0]));
        for (int i = 0; i < count; i++) n = take(&events[i], state, out, n, max);
    }
    return n;
}

int kiosk_touch_times_fingers(int fd, int slots, int32_t *ids, int max) {
    if (slots < 2 || max < 1) return -1;
    if (slots > max) slots = max;
    // struct input_mt_request_layout { __u32 code; __s32 values[slots]; } (linux/input.h, EVIOCGMTSLOTS).
    int32_t request[1 + KIOSK_TOUCH_SLOTS];
    if (slots > KIOSK_TOUCH_SLOTS) slots = KIOSK_TOUCH_SLOTS;
    memset(request, 0, sizeof(request));
    request[0] = ABS_MT_TRACKING_ID;
    if (ioctl(fd, EVIOCGMTSLOTS(sizeof(int32_t) * (size_t)(1 + slots)), request) < 0) return -1;
    memcpy(ids, request + 1, sizeof(int32_t) * (size_t)slots);
    return slots;
}
