#include "kiosk_video.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/pixdesc.h>
#include <libswresample/swresample.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* libavformat, libavcodec and libavutil are loaded at the first film (dlopen), not at start: they and the
   codecs they bring (x264, x265, dav1d...) add some 20 MiB to a kiosk that shows no film. Their names are the
   ones the headers were built against (libavformat.so.59 on Debian 12). */
#define KV_NAME(lib, major) "lib" lib ".so." AV_STRINGIFY(major)

#define KV_ONE_THREAD_PIXELS (1920L * 1088L)

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
    void (*av_frame_move_ref)(AVFrame *, AVFrame *);
    int (*av_strerror)(int, char *, size_t);
    void (*av_log_set_level)(int);
    const char *(*av_get_pix_fmt_name)(enum AVPixelFormat);
    void (*av_channel_layout_default)(AVChannelLayout *, int);
    int (*swr_alloc_set_opts2)(struct SwrContext **, const AVChannelLayout *, enum AVSampleFormat, int,
                               const AVChannelLayout *, enum AVSampleFormat, int, int, void *);
    int (*swr_init)(struct SwrContext *);
    int (*swr_get_out_samples)(struct SwrContext *, int);
    int (*swr_convert)(struct SwrContext *, uint8_t **, int, const uint8_t **, int);
    void (*swr_free)(struct SwrContext **);
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
    KV_SYM(util, av_frame_alloc);
    KV_SYM(util, av_frame_free);
    KV_SYM(util, av_frame_move_ref);
    KV_SYM(util, av_strerror);
    KV_SYM(util, av_log_set_level);
    KV_SYM(util, av_get_pix_fmt_name);
    KV_SYM(util, av_channel_layout_default);
    KV_SYM(resample, swr_alloc_set_opts2);
    KV_SYM(resample, swr_init);
    KV_SYM(resample, swr_get_out_samples);
    KV_SYM(resample, swr_convert);
    KV_SYM(resample, swr_free);
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
    /* Its sound, when asked for (kiosk_video_want_audio): the audio stream's decoder, the resampler to the
       kiosk's mixer (16-bit mono at `rate`), and the samples resampled since they were last taken, the first
       at `audio_pts` (seconds from the clip's first frame). */
    int audio_stream;
    AVCodecContext *audio;
    struct SwrContext *swr;
    AVFrame *audio_frame;
    int rate;
    double audio_time_base, start_seconds;
    int16_t *samples;
    size_t count, capacity, taken;
    double audio_pts;
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
    v->audio_stream = -1;
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
    /* One thread up to 1920x1080, which one core of a kiosk's machine decodes in real time (each frame thread
       keeps its own pictures: some 12 MiB at 1080p); two above it (the frame loop has the other core). */
    v->codec->thread_count = (long)p->width * (long)p->height > KV_ONE_THREAD_PIXELS ? 2 : 1;
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
    v->start_seconds = (double)v->start * v->time_base;
    snprintf(v->decoder, sizeof v->decoder, "software %s (%d thread%s)", decoder->name, v->codec->thread_count,
             v->codec->thread_count == 1 ? "" : "s");
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

int kiosk_video_want_audio(kiosk_video *v, int rate, char *why, size_t why_size) {
    const AVCodec *decoder = NULL;
    int e = av.av_find_best_stream(v->format, AVMEDIA_TYPE_AUDIO, -1, v->stream, &decoder, 0);
    if (e == AVERROR_STREAM_NOT_FOUND) return 0;
    if (e < 0 || !decoder) {
        say(why, why_size, "no decoder for its sound", e == AVERROR_DECODER_NOT_FOUND ? 0 : e);
        return -1;
    }
    AVStream *stream = v->format->streams[e];
    v->audio = av.avcodec_alloc_context3(decoder);
    if (!v->audio || av.avcodec_parameters_to_context(v->audio, stream->codecpar) < 0 ||
        av.avcodec_open2(v->audio, decoder, NULL) < 0) {
        say(why, why_size, "cannot open its sound's decoder", 0);
        goto fail;
    }
    AVChannelLayout in = v->audio->ch_layout;
    if (in.order == AV_CHANNEL_ORDER_UNSPEC) av.av_channel_layout_default(&in, in.nb_channels > 0 ? in.nb_channels : 1);
    AVChannelLayout mono = AV_CHANNEL_LAYOUT_MONO;
    if (av.swr_alloc_set_opts2(&v->swr, &mono, AV_SAMPLE_FMT_S16, rate, &in, v->audio->sample_fmt,
                               v->audio->sample_rate, 0, NULL) < 0 || av.swr_init(v->swr) < 0) {
        say(why, why_size, "cannot resample its sound", 0);
        goto fail;
    }
    v->audio_frame = av.av_frame_alloc();
    if (!v->audio_frame) goto fail;
    v->audio_stream = e;
    v->audio_time_base = av_q2d(stream->time_base);
    v->rate = rate;
    return 1;
fail:
    av.swr_free(&v->swr);
    av.avcodec_free_context(&v->audio);
    return -1;
}

/* An audio packet decoded and resampled onto the samples not taken yet (a sound that fails to decode is left
   out: the picture plays on). */
static void kv_audio_packet(kiosk_video *v, const AVPacket *packet) {
    if (av.avcodec_send_packet(v->audio, packet) < 0) return;
    while (av.avcodec_receive_frame(v->audio, v->audio_frame) == 0) {
        AVFrame *f = v->audio_frame;
        int room = av.swr_get_out_samples(v->swr, f->nb_samples);
        if (room <= 0) continue;
        if (v->count + (size_t)room > v->capacity) {
            size_t capacity = (v->count + (size_t)room) * 2;
            int16_t *grown = realloc(v->samples, capacity * sizeof *grown);
            if (!grown) return;
            v->samples = grown;
            v->capacity = capacity;
        }
        if (v->count == v->taken && f->pts != AV_NOPTS_VALUE) {
            v->audio_pts = (double)f->pts * v->audio_time_base - v->start_seconds;
        }
        uint8_t *out = (uint8_t *)(v->samples + v->count);
        int n = av.swr_convert(v->swr, &out, room, (const uint8_t **)f->extended_data, f->nb_samples);
        if (n > 0) v->count += (size_t)n;
    }
}

size_t kiosk_video_take_audio(kiosk_video *v, const int16_t **samples, double *pts) {
    /* What was taken last is let go now. */
    if (v->taken) {
        memmove(v->samples, v->samples + v->taken, (v->count - v->taken) * sizeof *v->samples);
        v->count -= v->taken;
        v->taken = 0;
    }
    *samples = v->samples;
    *pts = v->audio_pts;
    v->taken = v->count;
    return v->count;
}

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
            /* The caller holds the decoder's picture itself (no copy): a new reference to it. */
            AVFrame *held = av.av_frame_alloc();
            if (!held) {
                say(why, why_size, "out of memory", 0);
                return -1;
            }
            av.av_frame_move_ref(held, v->frame);
            for (int i = 0; i < 3; i++) {
                out->planes[i] = held->data[i];
                out->pitches[i] = held->linesize[i];
            }
            out->ref = held;
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
                /* The sound's last frames too, so that a loop's sound is whole to its end. */
                if (v->audio) kv_audio_packet(v, NULL);
                break;
            }
            if (v->packet->stream_index != v->stream) {
                if (v->audio && v->packet->stream_index == v->audio_stream) kv_audio_packet(v, v->packet);
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

void kiosk_video_release(void *ref) {
    AVFrame *f = ref;
    if (f) av.av_frame_free(&f);
}

int kiosk_video_rewind(kiosk_video *v, char *why, size_t why_size) {
    return kiosk_video_seek(v, 0, why, why_size);
}

int kiosk_video_seek(kiosk_video *v, double seconds, char *why, size_t why_size) {
    int64_t at = v->start + (int64_t)(seconds > 0 && v->time_base > 0 ? seconds / v->time_base : 0);
    int e = av.av_seek_frame(v->format, v->stream, at, AVSEEK_FLAG_BACKWARD);
    if (e < 0) {
        say(why, why_size, seconds > 0 ? "cannot go to where it was" : "cannot go back to its start", e);
        return -1;
    }
    av.avcodec_flush_buffers(v->codec);
    v->draining = 0;
    if (v->audio) {
        av.avcodec_flush_buffers(v->audio);
        /* The sound of the last loop not taken yet is still to play; the next loop's follows it. */
    }
    return 0;
}

void kiosk_video_close(kiosk_video *v) {
    if (!v) return;
    if (!av.ok) {
        free(v);
        return;
    }
    av.av_frame_free(&v->frame);
    av.av_frame_free(&v->audio_frame);
    av.swr_free(&v->swr);
    av.avcodec_free_context(&v->audio);
    free(v->samples);
    av.av_packet_free(&v->packet);
    av.avcodec_free_context(&v->codec);
    av.avformat_close_input(&v->format);
    free(v);
}
