#include "kiosk_video.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/pixdesc.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* libavformat, libavcodec and libavutil are loaded at the first film (dlopen), not at start: they and the
   codecs they bring (x264, x265, dav1d...) add some 20 MiB to a kiosk that shows no film. Their names are the
   ones the headers were built against (libavformat.so.59 on Debian 12). */
#define KV_NAME(lib, major) "lib" lib ".so." AV_STRINGIFY(major)

static struct {
    int tried, ok;
    char why[256];
    int (*avformat_open_input)(AVFormatContext **, const char *, const AVInputFormat *, AVDictionary **);
    int (*avformat_find_stream_info)(AVFormatContext *, AVDictionary **);
    int (*av_find_best_stream)(AVFormatContext *, enum AVMediaType, int, int, const AVCodec **, int);
    void (*avformat_close_input)(AVFormatContext **);
    int (*av_read_frame)(AVFormatContext *, AVPacket *);
    int (*av_seek_frame)(AVFormatContext *, int, int64_t, int);
    AVCodecContext *(*avcodec_alloc_context3)(const AVCodec *);
    int (*avcodec_parameters_to_context)(AVCodecContext *, const AVCodecParameters *);
    int (*avcodec_open2)(AVCodecContext *, const AVCodec *, AVDictionary **);
    AVPacket *(*av_packet_alloc)(void);
    void (*av_packet_free)(AVPacket **);
    void (*av_packet_unref)(AVPacket *);
    int (*avcodec_send_packet)(AVCodecContext *, const AVPacket *);
    int (*avcodec_receive_frame)(AVCodecContext *, AVFrame *);
    void (*avcodec_flush_buffers)(AVCodecContext *);
    void (*avcodec_free_context)(AVCodecContext **);
    const char *(*avcodec_get_name)(enum AVCodecID);
    AVFrame *(*av_frame_alloc)(void);
    void (*av_frame_free)(AVFrame **);
    int (*av_strerror)(int, char *, size_t);
    void (*av_log_set_level)(int);
    const char *(*av_get_pix_fmt_name)(enum AVPixelFormat);
} av;

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

static int kv_load(void) {
    if (av.tried) return av.ok;
    av.tried = 1;
    void *util = kv_open(KV_NAME("avutil", LIBAVUTIL_VERSION_MAJOR));
    void *codec = kv_open(KV_NAME("avcodec", LIBAVCODEC_VERSION_MAJOR));
    void *format = kv_open(KV_NAME("avformat", LIBAVFORMAT_VERSION_MAJOR));
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
    KV_SYM(util, av_frame_alloc);
    KV_SYM(util, av_frame_free);
    KV_SYM(util, av_strerror);
    KV_SYM(util, av_log_set_level);
    KV_SYM(util, av_get_pix_fmt_name);
    av.ok = !av.why[0];
    return av.ok;
}

struct kiosk_video {
    AVFormatContext *format;
    AVCodecContext *codec;
    AVPacket *packet;
    AVFrame *frame;
    int stream;
    /* The stream's time base, and its first frame's time (a clip's frames are timed from it). */
    double time_base;
    int64_t start;
    int draining;
    char decoder[96];
};

static void say(char *why, size_t size, const char *what, int error) {
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

kiosk_video *kiosk_video_open(const char *path, long max_pixels, char *why, size_t why_size) {
    if (!kv_load()) {
        snprintf(why, why_size, "%s", av.why);
        return NULL;
    }
    kiosk_video *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    v->stream = -1;
    av.av_log_set_level(AV_LOG_QUIET);
    int e = av.avformat_open_input(&v->format, path, NULL, NULL);
    if (e < 0) {
        say(why, why_size, "cannot open it", e);
        goto fail;
    }
    e = av.avformat_find_stream_info(v->format, NULL);
    if (e < 0) {
        say(why, why_size, "cannot read its streams", e);
        goto fail;
    }
    const AVCodec *decoder = NULL;
    e = av.av_find_best_stream(v->format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
    if (e == AVERROR_STREAM_NOT_FOUND) {
        say(why, why_size, "it has no video stream", 0);
        goto fail;
    }
    if (e < 0 || !decoder) {
        say(why, why_size, "no decoder for its video", e == AVERROR_DECODER_NOT_FOUND ? 0 : e);
        goto fail;
    }
    v->stream = e;
    AVStream *stream = v->format->streams[v->stream];
    AVCodecParameters *p = stream->codecpar;
    if (p->width <= 0 || p->height <= 0) {
        say(why, why_size, "its video has no size", 0);
        goto fail;
    }
    if ((long)p->width * (long)p->height > max_pixels) {
        snprintf(why, why_size, "%dx%d is over maxVideoPixels", p->width, p->height);
        goto fail;
    }
    v->codec = av.avcodec_alloc_context3(decoder);
    if (!v->codec || av.avcodec_parameters_to_context(v->codec, p) < 0) {
        say(why, why_size, "cannot set up its decoder", 0);
        goto fail;
    }
    /* Two threads: these machines have two cores, and the frame loop has the other. */
    v->codec->thread_count = 2;
    e = av.avcodec_open2(v->codec, decoder, NULL);
    if (e < 0) {
        say(why, why_size, "cannot open its decoder", e);
        goto fail;
    }
    v->packet = av.av_packet_alloc();
    v->frame = av.av_frame_alloc();
    if (!v->packet || !v->frame) {
        say(why, why_size, "out of memory", 0);
        goto fail;
    }
    v->time_base = av_q2d(stream->time_base);
    v->start = stream->start_time != AV_NOPTS_VALUE ? stream->start_time : 0;
    snprintf(v->decoder, sizeof v->decoder, "software %s (%d threads)", decoder->name, v->codec->thread_count);
    return v;
fail:
    kiosk_video_close(v);
    return NULL;
}

int kiosk_video_width(const kiosk_video *v) { return v->codec->width; }
int kiosk_video_height(const kiosk_video *v) { return v->codec->height; }

double kiosk_video_frame_seconds(const kiosk_video *v) {
    AVStream *s = v->format->streams[v->stream];
    AVRational r = s->avg_frame_rate.num > 0 ? s->avg_frame_rate : s->r_frame_rate;
    return r.num > 0 && r.den > 0 ? (double)r.den / (double)r.num : 1.0 / 30;
}

double kiosk_video_duration(const kiosk_video *v) {
    return v->format->duration > 0 ? (double)v->format->duration / AV_TIME_BASE : 0;
}

const char *kiosk_video_container(const kiosk_video *v) { return v->format->iformat->name; }
const char *kiosk_video_codec(const kiosk_video *v) { return av.avcodec_get_name(v->codec->codec_id); }
const char *kiosk_video_decoder(const kiosk_video *v) { return v->decoder; }

/* A frame the kiosk can upload as it is: 8-bit 4:2:0 in three planes. */
static int usable(const AVFrame *f) {
    return f->format == AV_PIX_FMT_YUV420P || f->format == AV_PIX_FMT_YUVJ420P;
}

int kiosk_video_next(kiosk_video *v, kiosk_video_frame *out, char *why, size_t why_size) {
    for (;;) {
        int e = av.avcodec_receive_frame(v->codec, v->frame);
        if (e == 0) {
            if (!usable(v->frame)) {
                const char *name = av.av_get_pix_fmt_name(v->frame->format);
                snprintf(why, why_size, "its pixel format %s is not 8-bit 4:2:0", name ? name : "unknown");
                return -1;
            }
            int64_t t = v->frame->best_effort_timestamp != AV_NOPTS_VALUE ? v->frame->best_effort_timestamp
                                                                         : v->frame->pts;
            out->pts = t != AV_NOPTS_VALUE ? (double)(t - v->start) * v->time_base : 0;
            for (int i = 0; i < 3; i++) {
                out->planes[i] = v->frame->data[i];
                out->pitches[i] = v->frame->linesize[i];
            }
            return 1;
        }
        if (e == AVERROR_EOF) return 0;
        if (e != AVERROR(EAGAIN)) {
            say(why, why_size, "cannot decode it", e);
            return -1;
        }
        if (v->draining) return 0;
        /* The decoder wants more: the next packet of the stream, or the end. */
        for (;;) {
            e = av.av_read_frame(v->format, v->packet);
            if (e < 0) {
                v->draining = 1;
                av.avcodec_send_packet(v->codec, NULL);
                break;
            }
            if (v->packet->stream_index != v->stream) {
                av.av_packet_unref(v->packet);
                continue;
            }
            e = av.avcodec_send_packet(v->codec, v->packet);
            av.av_packet_unref(v->packet);
            if (e < 0 && e != AVERROR(EAGAIN)) {
                say(why, why_size, "cannot decode it", e);
                return -1;
            }
            break;
        }
    }
}

int kiosk_video_rewind(kiosk_video *v, char *why, size_t why_size) {
    int e = av.av_seek_frame(v->format, v->stream, v->start, AVSEEK_FLAG_BACKWARD);
    if (e < 0) {
        say(why, why_size, "cannot go back to its start", e);
        return -1;
    }
    av.avcodec_flush_buffers(v->codec);
    v->draining = 0;
    return 0;
}

void kiosk_video_close(kiosk_video *v) {
    if (!v) return;
    if (!av.ok) {
        free(v);
        return;
    }
    av.av_frame_free(&v->frame);
    av.av_packet_free(&v->packet);
    av.avcodec_free_context(&v->codec);
    av.avformat_close_input(&v->format);
    free(v);
}
