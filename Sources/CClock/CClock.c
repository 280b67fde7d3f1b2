#define _GNU_SOURCE
#include "CClock.h"
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/timerfd.h>
#include <sys/timex.h>
#include <time.h>
#include <unistd.h>

int kiosk_kernel_clock_synchronized(void) {
    struct timex t;
    memset(&t, 0, sizeof t);
    int state = adjtimex(&t);
    if (state < 0) return -1;
    return state == TIME_ERROR ? 0 : 1;
}

/// Arms `fd` for a moment far in the future of the wall clock, cancelled when the clock is set.
static int arm(int fd) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    spec.it_value.tv_sec = INT32_MAX;
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL);
}

int kiosk_clock_set_fd(void) {
    int fd = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC);
    if (fd < 0) return -1;
    if (arm(fd) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int kiosk_clock_set_wait(int fd) {
    uint64_t expirations;
    for (;;) {
        ssize_t n = read(fd, &expirations, sizeof expirations);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == ECANCELED) return arm(fd) == 0 ? 1 : 0;
        /* The timer itself fired (in 2038): armed again, no set. */
        if (n == sizeof expirations) {
            if (arm(fd) != 0) return 0;
            continue;
        }
        return 0;
    }
}

int kiosk_poll_micros(void *fds, unsigned long count, long long micros) {
    struct timespec t = {.tv_sec = micros / 1000000, .tv_nsec = (micros % 1000000) * 1000};
    return ppoll((struct pollfd *)fds, (nfds_t)count, &t, NULL);
}
