#ifndef KIOSK_DISPLAY_POWER_H
#define KIOSK_DISPLAY_POWER_H

#include <stddef.h>

/// Sets the DPMS property of every connected connector in use on the DRM device `fd` (on: DPMS_ON, else
/// DPMS_OFF), through the kernel's mode-setting ioctls (no libdrm: the kernel's own structures from its UAPI
/// headers). The caller must be the device's DRM master (SDL's kmsdrm file descriptor, while the kiosk runs).
/// Returns how many connectors were set; -1 with a sentence in `why` when the device refused.
int kiosk_drm_set_dpms(int fd, int on, char *why, size_t why_size);

/// SDL's own DRM file descriptor of `window` (an SDL_Window) on the kmsdrm video driver; -1 elsewhere. Here, in C:
/// SDL_syswm.h brings the X11 and Wayland headers, whose names (Display, Window) would clash in Swift.
int kiosk_kmsdrm_fd(void *window);

/// What the DRM card at `path` (/dev/dri/cardN) drives, for choosing the one to show on: 0 a connected connector
/// with modes, and the caller can be the card's master (`out`: the connectors' names, "HDMI-A-1, DSI-1"); 1 no
/// mode setting (a render-only card, vgem); 2 mode setting but nothing connected; 3 connected, but another
/// process is the card's DRM master (a compositor, a second kiosk); -1 it cannot be opened. `out` says why
/// (strerror for -1). The card is closed again: SDL opens it itself.
int kiosk_drm_card_survey(const char *path, char *out, size_t size);

/// Whether `fd` is its DRM device's master (1), or another process is (0).
int kiosk_drm_is_master(int fd);

#endif
