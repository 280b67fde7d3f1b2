#include "DisplayPower.h"

#include <errno.h>
#include <libdrm/drm.h>
#include <libdrm/drm_mode.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

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

enum { IDS_OK, IDS_NO_RESOURCES, IDS_NO_MEMORY, IDS_NO_CONNECTORS };

/// The device's connector ids, asked twice as the kernel wants (how many, then into a buffer of that many):
/// `*ids` malloc'd (the caller frees it, also after IDS_NO_CONNECTORS), `*count` of them, and the number of CRTCs
/// in `*crtcs` where asked. IDS_NO_RESOURCES (errno set) when the device has no mode setting.
static int connector_ids(int fd, uint32_t **ids, uint32_t *count, uint32_t *crtcs) {
    struct drm_mode_card_res res;
    memset(&res, 0, sizeof res);
    if (drm_ioctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &res) != 0) return IDS_NO_RESOURCES;
    if (crtcs) *crtcs = res.count_crtcs;
    *count = res.count_connectors;
    *ids = calloc(*count ? *count : 1, sizeof **ids);
    if (!*ids) return IDS_NO_MEMORY;
    memset(&res, 0, sizeof res);
    res.count_connectors = *count;
    res.connector_id_ptr = (uint64_t)(uintptr_t)*ids;
    if (drm_ioctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &res) != 0) return IDS_NO_CONNECTORS;
    if (res.count_connectors < *count) *count = res.count_connectors;
    return IDS_OK;
}

int kiosk_drm_set_dpms(int fd, int on, char *why, size_t why_size) {
    uint32_t *ids = NULL;
    uint32_t count = 0;
    switch (connector_ids(fd, &ids, &count, NULL)) {
    case IDS_NO_RESOURCES:
        snprintf(why, why_size, "the DRM device gives no resources (%s)", strerror(errno));
        return -1;
    case IDS_NO_MEMORY:
        snprintf(why, why_size, "no memory");
        return -1;
    case IDS_NO_CONNECTORS:
        snprintf(why, why_size, "the DRM device gives no connectors (%s)", strerror(errno));
        free(ids);
        return -1;
    }
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

/// The kernel's names of connector types (drm_connector.c's drm_connector_enum_list), by DRM_MODE_CONNECTOR_*.
static const char *connector_type_name(uint32_t type) {
    static const char *names[] = {"Unknown", "VGA", "DVI-I", "DVI-D", "DVI-A", "Composite", "SVIDEO", "LVDS",
        "Component", "DIN", "DP", "HDMI-A", "HDMI-B", "TV", "eDP", "Virtual", "DSI", "DPI", "Writeback", "SPI",
        "USB"};
    return type < sizeof names / sizeof *names ? names[type] : "Unknown";
}

int kiosk_drm_is_master(int fd) {
    // AUTH_MAGIC is for the master only: anyone else is refused with EACCES before the magic is looked at, and
    // the master is told the magic 0 is no client's (EINVAL). libdrm's drmIsMaster does the same.
    struct drm_auth auth;
    memset(&auth, 0, sizeof auth);
    if (drm_ioctl(fd, DRM_IOCTL_AUTH_MAGIC, &auth) == 0) return 1;
    return errno == EACCES ? 0 : 1;
}

int kiosk_drm_card_survey(const char *path, char *out, size_t size) {
    out[0] = 0;
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        snprintf(out, size, "%s", strerror(errno));
        return -1;
    }
    // The first to open a card without a master becomes its master; else ask (refused while another holds it).
    drm_ioctl(fd, DRM_IOCTL_SET_MASTER, NULL);
    int master = kiosk_drm_is_master(fd);
    uint32_t *ids = NULL;
    uint32_t count = 0;
    uint32_t crtcs = 0;
    int asked = connector_ids(fd, &ids, &count, &crtcs);
    if (asked == IDS_NO_RESOURCES || count == 0 || crtcs == 0) {
        free(ids);
        snprintf(out, size, "no mode setting (a render-only card)");
        close(fd);
        return 1;
    }
    if (asked == IDS_NO_MEMORY) {
        close(fd);
        snprintf(out, size, "no memory");
        return -1;
    }
    if (asked == IDS_NO_CONNECTORS) count = 0;
    size_t used = 0;
    int connected = 0;
    for (uint32_t i = 0; i < count; i++) {
        // No room for modes: the kernel probes the connector (as SDL does next), the master's probe a real one.
        struct drm_mode_get_connector c;
        memset(&c, 0, sizeof c);
        c.connector_id = ids[i];
        if (drm_ioctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, &c) != 0) continue;
        if (c.connection != 1 || c.count_modes == 0) continue;
        int n = snprintf(out + used, size - used, "%s%s-%u", connected ? ", " : "",
            connector_type_name(c.connector_type), c.connector_type_id);
        if (n > 0 && used + (size_t)n < size) used += (size_t)n;
        connected++;
    }
    free(ids);
    close(fd);
    if (connected == 0) {
        snprintf(out, size, "no connector connected");
        return 2;
    }
    return master ? 0 : 3;
}
