#include "internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* libavformat, libavcodec and libavutil are loaded at the first film (dlopen), not at start: they and the
   codecs they bring (x264, x265, dav1d...) add some 20 MiB to a kiosk that shows no film. Their names are the
   ones the headers were built against (libavformat.so.59 on Debian 12). */
#define KV_NAME(lib, major) "lib" lib ".so." AV_STRINGIFY(major)

struct kv_libav av;

static void *kv_open(const char *name) {
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!h && !av.why[0]) snprintf(av.why, sizeof av.why, "cannot load %s (install Debian's libavformat and libavcodec)", name);
    return h;
}

#define KV_SYM(handle, name) \
    do { \
        *(void **)&av.name = handle ? dlsym(handle, #name) : NULL; \
        if (!av.name && !av.why[0]) snprintf(av.why, sizeof av.why, "%s has no %s", "libav", #name); \
    } while (0)

/* Once, whichever thread asks first (a film's first frame on the frame loop, `--check`'s thread): the others
   wait for it. */
static void kv_load_once(void) {
    void *util = kv_open(KV_NAME("avutil", LIBAVUTIL_VERSION_MAJOR));
    void *codec = kv_open(KV_NAME("avcodec", LIBAVCODEC_VERSION_MAJOR));
    void *format = kv_open(KV_NAME("avformat", LIBAVFORMAT_VERSION_MAJOR));
    void *resample = kv_open(KV_NAME("swresample", LIBSWRESAMPLE_VERSION_MAJOR));
    KV_SYM(format, avformat_open_input);
    KV_SYM(format, avformat_find_stream_info);
    KV_SYM(format, av_find_best_stream);
    KV_SYM(format, avformat_close_input);
    KV_SYM(format, av_read_frame);
    KV_SYM(format, av_seek_frame);
    KV_SYM(codec, avcodec_alloc_context3);
    KV_SYM(codec, avcodec_parameters_to_context);
    KV_SYM(codec, avcodec_open2);
    KV_SYM(codec, av_packet_alloc);
    KV_SYM(codec, av_packet_free);
    KV_SYM(codec, av_packet_unref);
    KV_SYM(codec, avcodec_send_packet);
    KV_SYM(codec, avcodec_receive_frame);
    KV_SYM(codec, avcodec_flush_buffers);
    KV_SYM(codec, avcodec_free_context);
    KV_SYM(codec, avcodec_get_name);
    KV_SYM(codec, avcodec_find_decoder_by_name);
    KV_SYM(codec, avcodec_get_hw_config);
    KV_SYM(util, av_frame_alloc);
    KV_SYM(util, av_frame_free);
    KV_SYM(util, av_frame_move_ref);
    KV_SYM(util, av_frame_unref);
    KV_SYM(util, av_strerror);
    KV_SYM(util, av_log_set_level);
    KV_SYM(util, av_get_pix_fmt_name);
    KV_SYM(util, av_pix_fmt_desc_get);
    KV_SYM(util, av_hwdevice_ctx_create);
    KV_SYM(util, av_hwframe_transfer_data);
    KV_SYM(util, av_buffer_ref);
    KV_SYM(util, av_buffer_unref);
    KV_SYM(util, av_channel_layout_default);
    KV_SYM(resample, swr_alloc_set_opts2);
    KV_SYM(resample, swr_init);
    KV_SYM(resample, swr_get_out_samples);
    KV_SYM(resample, swr_convert);
    KV_SYM(resample, swr_free);
    av.ok = !av.why[0];
}

int kv_load(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, kv_load_once);
    return av.ok;
}

void kv_say(char *why, size_t size, const char *what, int error) {
    if (!why || size == 0) return;
    if (error) {
        char text[AV_ERROR_MAX_STRING_SIZE] = {0};
        av.av_strerror(error, text, sizeof text);
        snprintf(why, size, "%s: %s", what, text);
    } else {
        snprintf(why, size, "%s", what);
    }
}

int kiosk_video_library(char *why, size_t why_size) {
    if (kv_load()) return 1;
    snprintf(why, why_size, "%s", av.why);
    return 0;
}
