#include "HeadphoneJack.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define BITS_PER_LONG (sizeof(long) * 8)
#define HAS_BIT(bits, n) (((bits)[(n) / BITS_PER_LONG] >> ((n) % BITS_PER_LONG)) & 1UL)

static int reports_jack(int fd) {
    unsigned long types[EV_MAX / BITS_PER_LONG + 1] = {0};
    unsigned long switches[SW_MAX / BITS_PER_LONG + 1] = {0};
    if (ioctl(fd, EVIOCGBIT(0, sizeof(types)), types) < 0 || !HAS_BIT(types, EV_SW)) return 0;
    if (ioctl(fd, EVIOCGBIT(EV_SW, sizeof(switches)), switches) < 0) return 0;
    return HAS_BIT(switches, SW_HEADPHONE_INSERT) ? 1 : 0;
}

int kiosk_jacks_open(const char *folder, int *fds, int max) {
    DIR *dir = opendir(folder);
    if (!dir) return 0;
    int n = 0;
    struct dirent *entry;
    while (n < max && (entry = readdir(dir)) != NULL) {
        if (strncmp(entry->d_name, "event", 5) != 0) continue;
        char path[512];
        snprintf(path, sizeof(path), "%s/%s", folder, entry->d_name);
        int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) continue;
        if (reports_jack(fd)) {
            fds[n++] = fd;
        } else {
            close(fd);
        }
    }
    closedir(dir);
    return n;
}

int kiosk_jack_state(int fd) {
    unsigned long state[SW_MAX / BITS_PER_LONG + 1] = {0};
    if (ioctl(fd, EVIOCGSW(sizeof(state)), state) < 0) return -1;
    return HAS_BIT(state, SW_HEADPHONE_INSERT) ? 1 : 0;
}

int kiosk_jack_read(int fd) {
    struct input_event events[64];
    int last = -1;
    for (;;) {
        ssize_t got = read(fd, events, sizeof(events));
        if (got < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN) return last;
            return -2;
        }
        if (got == 0) return -2;
        for (size_t i = 0; i < (size_t)got / sizeof(struct input_event); i++) {
            if (events[i].type == EV_SW && events[i].code == SW_HEADPHONE_INSERT) last = events[i].value ? 1 : 0;
        }
    }
}
