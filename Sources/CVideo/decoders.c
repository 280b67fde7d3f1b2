#include "internal.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KV_ONE_THREAD_PIXELS (1920L * 1088L)

/* The software decoder, on one thread up to 1920x1080, which one core of a kiosk's machine decodes in real time
   (each frame thread keeps its own pictures: some 12 MiB at 1080p); two above it (the frame loop has the other
   core). `no_hardware` says why no hardware decoder plays it. 0, or an error. */
int kv_open_software(kiosk_video *v, const char *no_hardware) {
    const AVCodecParameters *p = v->format->streams[v->stream]->codecpar;
    v->codec = av.avcodec_alloc_context3(v->software);
    if (!v->codec || av.avcodec_parameters_to_context(v->codec, p) < 0) return AVERROR(ENOMEM);
    v->codec->thread_count = (long)p->width * (long)p->height > KV_ONE_THREAD_PIXELS ? 2 : 1;
    int e = av.avcodec_open2(v->codec, v->software, NULL);
    if (e < 0) return e;
    v->hardware = 0;
    v->hw_format = AV_PIX_FMT_NONE;
    snprintf(v->decoder, sizeof v->decoder, "software %s (%d thread%s; %s)", v->software->name,
             v->codec->thread_count, v->codec->thread_count == 1 ? "" : "s", no_hardware);
    return 0;
}

/* The machine's VA-API device (Intel and AMD graphics), opened once for every film: NULL and `kv_no_vaapi` when
   it has none. The device is named, so that libva never tries an X display. */
#define KV_VAAPI_DEVICE "/dev/dri/renderD128"
static pthread_mutex_t kv_devices = PTHREAD_MUTEX_INITIALIZER;
static int kv_vaapi_tried;
static AVBufferRef *kv_vaapi;
static char kv_no_vaapi[96];

static AVBufferRef *kv_vaapi_device(void) {
    pthread_mutex_lock(&kv_devices);
    if (!kv_vaapi_tried) {
        kv_vaapi_tried = 1;
        if (access(KV_VAAPI_DEVICE, F_OK) != 0) {
            snprintf(kv_no_vaapi, sizeof kv_no_vaapi, "no VA-API device");
        } else if (access(KV_VAAPI_DEVICE, R_OK | W_OK) != 0) {
            snprintf(kv_no_vaapi, sizeof kv_no_vaapi, "VA-API: %s not open to the kiosk (group render)", KV_VAAPI_DEVICE);
        } else {
            /* libva says which driver it tries on stderr at every start: the journal needs none of it. */
            setenv("LIBVA_MESSAGING_LEVEL", "0", 0);
            int e = av.av_hwdevice_ctx_create(&kv_vaapi, AV_HWDEVICE_TYPE_VAAPI, KV_VAAPI_DEVICE, NULL, 0);
            if (e < 0) {
                kv_say(kv_no_vaapi, sizeof kv_no_vaapi, "VA-API", e);
                kv_vaapi = NULL;
            }
        }
    }
    AVBufferRef *device = kv_vaapi ? av.av_buffer_ref(kv_vaapi) : NULL;
    pthread_mutex_unlock(&kv_devices);
    return device;
}

/* VA-API's frames are in video memory; a codec it cannot decode (a profile, a size) is decoded in software by the
   same decoder, which then offers no VA-API format. */
static enum AVPixelFormat kv_get_format(AVCodecContext *codec, const enum AVPixelFormat *formats) {
    kiosk_video *v = codec->opaque;
    for (const enum AVPixelFormat *f = formats; *f != AV_PIX_FMT_NONE; f++) {
        if (*f == v->hw_format) return *f;
    }
    for (const enum AVPixelFormat *f = formats; *f != AV_PIX_FMT_NONE; f++) {
        const AVPixFmtDescriptor *d = av.av_pix_fmt_desc_get(*f);
        if (d && !(d->flags & AV_PIX_FMT_FLAG_HWACCEL)) return *f;
    }
    return AV_PIX_FMT_NONE;
}

/* Whether the machine has a /dev/video device: V4L2 M2M decoders scan them all for one that decodes (a Pi's is
   /dev/video10). */
static int kv_video_devices(void) {
    DIR *dev = opendir("/dev");
    if (!dev) return 0;
    int found = 0;
    for (struct dirent *e; !found && (e = readdir(dev));) found = strncmp(e->d_name, "video", 5) == 0;
    closedir(dev);
    return found;
}

/* A hardware decoder, where the machine has one: VA-API (Intel and AMD graphics), then V4L2 M2M (a Raspberry
   Pi's `h264_v4l2m2m`). 0 with one open; -1 and why neither plays it in `no`. */
int kv_open_hardware(kiosk_video *v, char *no, size_t no_size) {
    const AVCodecParameters *p = v->format->streams[v->stream]->codecpar;
    char vaapi[96], m2m[96];
    AVBufferRef *device = kv_vaapi_device();
    snprintf(vaapi, sizeof vaapi, "%s", kv_no_vaapi);
    if (device) {
        const AVCodecHWConfig *config = NULL;
        for (int i = 0; (config = av.avcodec_get_hw_config(v->software, i)); i++) {
            if ((config->methods & AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX) &&
                config->device_type == AV_HWDEVICE_TYPE_VAAPI) break;
        }
        if (!config) {
            snprintf(vaapi, sizeof vaapi, "VA-API does not decode %s", v->software->name);
        } else if ((v->codec = av.avcodec_alloc_context3(v->software)) &&
                   av.avcodec_parameters_to_context(v->codec, p) >= 0) {
            v->codec->opaque = v;
            v->codec->get_format = kv_get_format;
            v->codec->hw_device_ctx = av.av_buffer_ref(device);
            v->hw_format = config->pix_fmt;
            int e = av.avcodec_open2(v->codec, v->software, NULL);
            if (e == 0) {
                av.av_buffer_unref(&device);
                v->hardware = 1;
                snprintf(v->decoder, sizeof v->decoder, "VA-API %s", v->software->name);
                return 0;
            }
            kv_say(vaapi, sizeof vaapi, "VA-API", e);
        }
        av.avcodec_free_context(&v->codec);
        av.av_buffer_unref(&device);
        v->hw_format = AV_PIX_FMT_NONE;
    }
    char name[64];
    snprintf(name, sizeof name, "%s_v4l2m2m", av.avcodec_get_name(p->codec_id));
    const AVCodec *m2m_decoder = av.avcodec_find_decoder_by_name(name);
    if (!m2m_decoder) {
        snprintf(m2m, sizeof m2m, "no V4L2 M2M decoder for %s", av.avcodec_get_name(p->codec_id));
    } else if (!kv_video_devices()) {
        snprintf(m2m, sizeof m2m, "no V4L2 M2M device");
    } else if ((v->codec = av.avcodec_alloc_context3(m2m_decoder)) &&
               av.avcodec_parameters_to_context(v->codec, p) >= 0) {
        int e = av.avcodec_open2(v->codec, m2m_decoder, NULL);
        if (e == 0) {
            v->hardware = 1;
            snprintf(v->decoder, sizeof v->decoder, "V4L2 M2M %s", m2m_decoder->name);
            return 0;
        }
        kv_say(m2m, sizeof m2m, "V4L2 M2M", e);
    }
    av.avcodec_free_context(&v->codec);
    snprintf(no, no_size, "%s, %s", vaapi, m2m);
    return -1;
}

/* A hardware decoder that gave no first frame (a profile it turned down, an error, a pixel format the kiosk cannot
   show) is let go for the software decoder, from the start; later, a failure is the film's. 1 when it fell back. */
int kv_fall_back(kiosk_video *v, const char *why) {
    if (!v->hardware || v->frames > 0) return 0;
    char no[128];
    snprintf(no, sizeof no, "%s %s", v->decoder, why);
    av.avcodec_free_context(&v->codec);
    if (kv_open_software(v, no) < 0) return 0;
    if (av.av_seek_frame(v->format, v->stream, v->start, AVSEEK_FLAG_BACKWARD) < 0) return 0;
    v->draining = 0;
    if (v->audio) {
        av.avcodec_flush_buffers(v->audio);
        v->count = v->taken = 0;
    }
    return 1;
}
