#include "DisplayPower.h"

#include <errno.h>
#include <libdrm/drm.h>
#include <libdrm/drm_mode.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>

int kiosk_kmsdrm_fd(void *window) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo((SDL_Window *)window, &info)) return -1;
#if defined(SDL_VIDEO_DRIVER_KMSDRM)
    if (info.subsystem == SDL_SYSWM_KMSDRM) return info.info.kmsdrm.drm_fd;
#endif
    return -1;
}

static int drm_ioctl(int fd, unsigned long request, void *arg) {
    int r;
    do {
        r = ioctl(fd, request, arg);
    } while (r == -1 && (errno == EINTR || errno == EAGAIN));
    return r;
}

/// The connector's property ids and values (malloc'd), or -1. `count_modes` stays 1 with a buffer of one mode:
/// a connector asked with no room for modes is probed again by the kernel (slow, and a flicker on some panels),
/// as libdrm's drmModeGetConnectorCurrent avoids.
static int connector_props(int fd, uint32_t id, struct drm_mode_get_connector *c, uint32_t **props, uint64_t **values) {
    struct drm_mode_modeinfo mode;
    memset(c, 0, sizeof *c);
    c->connector_id = id;
    c->count_modes = 1;
    c->modes_ptr = (uint64_t)(uintptr_t)&mode;
    if (drm_ioctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, c) != 0) return -1;
    uint32_t count = c->count_props;
    *props = calloc(count ? count : 1, sizeof **props);
    *values = calloc(count ? count : 1, sizeof **values);
    if (!*props || !*values) return -1;
    memset(c, 0, sizeof *c);
    c->connector_id = id;
    c->count_modes = 1;
    c->modes_ptr = (uint64_t)(uintptr_t)&mode;
    c->count_props = count;
    c->props_ptr = (uint64_t)(uintptr_t)*props;
    c->prop_values_ptr = (uint64_t)(uintptr_t)*values;
    if (drm_ioctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, c) != 0) return -1;
    if (c->count_props > count) c->count_props = count;
    return 0;
}

int kiosk_drm_set_dpms(int fd, int on, char *why, size_t why_size) {
    struct drm_mode_card_res res;
    memset(&res, 0, sizeof res);
    if (drm_ioctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &res) != 0) {
        snprintf(why, why_size, "the DRM device gives no resources (%s)", strerror(errno));
        return -1;
    }
    uint32_t count = res.count_connectors;
    uint32_t *ids = calloc(count ? count : 1, sizeof *ids);
    if (!ids) {
        snprintf(why, why_size, "no memory");
        return -1;
    }
    memset(&res, 0, sizeof res);
    res.count_connectors = count;
    res.connector_id_ptr = (uint64_t)(uintptr_t)ids;
    if (drm_ioctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &res) != 0) {
        snprintf(why, why_size, "the DRM device gives no connectors (%s)", strerror(errno));
        free(ids);
        return -1;
    }
    if (res.count_connectors < count) count = res.count_connectors;
    int set = 0;
    int failure = 0;
    for (uint32_t i = 0; i < count; i++) {
        struct drm_mode_get_connector c;
        uint32_t *props = NULL;
        uint64_t *values = NULL;
        if (connector_props(fd, ids[i], &c, &props, &values) == 0 && c.connection == 1 && c.encoder_id != 0) {
            for (uint32_t p = 0; p < c.count_props; p++) {
                struct drm_mode_get_property prop;
                memset(&prop, 0, sizeof prop);
                prop.prop_id = props[p];
                if (drm_ioctl(fd, DRM_IOCTL_MODE_GETPROPERTY, &prop) != 0) continue;
                if (strncmp(prop.name, "DPMS", DRM_PROP_NAME_LEN) != 0) continue;
                struct drm_mode_connector_set_property s;
                memset(&s, 0, sizeof s);
                s.connector_id = ids[i];
                s.prop_id = props[p];
                s.value = on ? DRM_MODE_DPMS_ON : DRM_MODE_DPMS_OFF;
                if (drm_ioctl(fd, DRM_IOCTL_MODE_SETPROPERTY, &s) == 0) {
                    set++;
                } else {
                    failure = errno;
                }
                break;
            }
        }
        free(props);
        free(values);
    }
    free(ids);
    if (set == 0 && failure != 0) {
        snprintf(why, why_size, "the connector's DPMS could not be set (%s%s)", strerror(failure),
            failure == EACCES || failure == EPERM ? ": the kiosk is not the display's DRM master" : "");
        return -1;
    }
    if (set == 0) snprintf(why, why_size, "no connected connector in use has a DPMS property");
    return set;
}
