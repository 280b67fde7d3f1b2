#ifndef CCLOCK_H
#define CCLOCK_H
/// Whether the kernel reports the wall clock synchronised (adjtimex(2) does not answer TIME_ERROR): an NTP client
/// (systemd-timesyncd, chrony, ntpd) has set it. 1 yes, 0 no, -1 the kernel would not say (a seccomp filter).
int kiosk_kernel_clock_synchronized(void);
/// A timerfd that becomes readable (its read fails with ECANCELED) when the wall clock is set, in either
/// direction (TFD_TIMER_CANCEL_ON_SET); -1 when the kernel cannot make one.
int kiosk_clock_set_fd(void);
/// Waits on `fd` until the wall clock is set (returns 1) or the timer cannot be read (returns 0); arms it again.
int kiosk_clock_set_wait(int fd);
/// poll(2) to the microsecond (ppoll(2), which Glibc's Swift module does not bring): waits up to `micros` for one
/// of the `count` descriptors, as poll does (`fds` is an array of struct pollfd).
int kiosk_poll_micros(void *fds, unsigned long count, long long micros);
#endif
