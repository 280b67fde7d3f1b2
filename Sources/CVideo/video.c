/* A film decoded frame by frame (kiosk_video.h): opened, its frames and sound given in order, looped, sought. */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The longest side a film may have: the largest texture many boards' GPUs make (a Raspberry Pi's), which holds
   the docs' 3840x2160 either way up. */
#define KV_MAX_SIDE 4096

kiosk_video *kiosk_video_open(const char *path, long max_pixels, int hardware, char *why, size_t why_size) {
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
        kv_say(why, why_size, "cannot open it", e);
        goto fail;
    }
    /* A still picture (a JPEG or PNG named .mp4) opens as a one-frame "film" through libav's image demuxers:
       it would loop every frame. It is a picture, and said so. */
    const char *demuxer = v->format->iformat ? v->format->iformat->name : "";
    size_t n = strlen(demuxer);
    if (strcmp(demuxer, "image2") == 0 || (n > 5 && strcmp(demuxer + n - 5, "_pipe") == 0)) {
        snprintf(why, why_size, "it is a still picture (%s), not a film: show it as a picture, or give a film",
                 demuxer);
        goto fail;
    }
    e = av.avformat_find_stream_info(v->format, NULL);
    if (e < 0) {
        kv_say(why, why_size, "cannot read its streams", e);
        goto fail;
    }
    const AVCodec *decoder = NULL;
    e = av.av_find_best_stream(v->format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
    if (e == AVERROR_STREAM_NOT_FOUND) {
        kv_say(why, why_size, "it has no video stream", 0);
        goto fail;
    }
    if (e < 0 || !decoder) {
        kv_say(why, why_size, "no decoder for its video", e == AVERROR_DECODER_NOT_FOUND ? 0 : e);
        goto fail;
    }
    v->stream = e;
    AVStream *stream = v->format->streams[v->stream];
    AVCodecParameters *p = stream->codecpar;
    if (p->width <= 0 || p->height <= 0) {
        kv_say(why, why_size, "its video has no size", 0);
        goto fail;
    }
    if ((long)p->width * (long)p->height > max_pixels) {
        snprintf(why, why_size, "%dx%d is over maxVideoPixels", p->width, p->height);
        goto fail;
    }
    if (p->width > KV_MAX_SIDE || p->height > KV_MAX_SIDE) {
        snprintf(why, why_size, "%dx%d has a side over %d pixels, the largest texture many boards make", p->width,
                 p->height, KV_MAX_SIDE);
        goto fail;
    }
    /* A raw stream without a container (a .h264 straight from an encoder): its frames carry no times, and once
       played through it cannot go back to its start to loop. Said by --check, not at the film's first loop. */
    static const char *const raw_streams[] = {"h264", "hevc", "vvc", "mpegvideo", "m4v", "cavsvideo", "vc1", "obu",
                                              "av1", NULL};
    int raw = 0;
    for (int i = 0; raw_streams[i]; i++) raw = raw || strcmp(demuxer, raw_streams[i]) == 0;
    if (raw) {
        snprintf(why, why_size,
                 "a raw %s stream without a container: its frames have no times and it cannot loop; put it in an "
                 "MP4 (ffmpeg -i FILE -c copy FILE.mp4)",
                 demuxer);
        goto fail;
    }
    v->software = decoder;
    char no_hardware[128] = "KIOSK_VIDEO_DECODER=software";
    e = hardware ? kv_open_hardware(v, no_hardware, sizeof no_hardware) : -1;
    if (e < 0) e = kv_open_software(v, no_hardware);
    if (e < 0) {
        kv_say(why, why_size, "cannot open its decoder", e);
        goto fail;
    }
    v->packet = av.av_packet_alloc();
    v->frame = av.av_frame_alloc();
    if (!v->packet || !v->frame) {
        kv_say(why, why_size, "out of memory", 0);
        goto fail;
    }
    v->time_base = av_q2d(stream->time_base);
    v->start = stream->start_time != AV_NOPTS_VALUE ? stream->start_time : 0;
    v->start_seconds = (double)v->start * v->time_base;
    return v;
fail:
    kiosk_video_close(v);
    return NULL;
}

/* The stream's display matrix (a phone's portrait film says it is turned), as side data: the stream's own before
   FFmpeg 6.1 (Debian 12), its parameters' after (Debian 13). Read from the structures: no libav function. */
static const int32_t *kv_display_matrix(const AVStream *s) {
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 31, 102)
    const AVPacketSideData *sd = s->codecpar->coded_side_data;
    int n = s->codecpar->nb_coded_side_data;
#else
    const AVPacketSideData *sd = s->side_data;
    int n = s->nb_side_data;
#endif
    for (int i = 0; i < n; i++) {
        if (sd[i].type == AV_PKT_DATA_DISPLAYMATRIX && sd[i].size >= 9 * 4) return (const int32_t *)sd[i].data;
    }
    return NULL;
}

int kiosk_video_rotation(const kiosk_video *v) {
    const int32_t *m = kv_display_matrix(v->format->streams[v->stream]);
    if (!m) return 0;
    /* libavutil's av_display_rotation_get, in 16.16 fixed point: the angle the picture was turned
       counter-clockwise; the film is shown turned back, clockwise, to the nearest quarter turn (as ffplay). */
    double a = m[0] / 65536.0, b = m[1] / 65536.0, c = m[3] / 65536.0, d = m[4] / 65536.0;
    double sx = hypot(a, c), sy = hypot(b, d);
    if (sx == 0 || sy == 0) return 0;
    double counter = -atan2(b / sy, a / sx) * 180 / M_PI;
    long clockwise = lround(-counter / 90) * 90;
    return (int)(((clockwise % 360) + 360) % 360);
}

double kiosk_video_sample_aspect(const kiosk_video *v) {
    const AVStream *s = v->format->streams[v->stream];
    AVRational r = s->sample_aspect_ratio.num > 0 ? s->sample_aspect_ratio : s->codecpar->sample_aspect_ratio;
    double q = r.num > 0 && r.den > 0 ? (double)r.num / (double)r.den : 1;
    /* A sample aspect past 4:1 either way is a broken header, not a film: square pixels then. */
    return q >= 0.25 && q <= 4 ? q : 1;
}

int kiosk_video_width(const kiosk_video *v) { return v->format->streams[v->stream]->codecpar->width; }
int kiosk_video_height(const kiosk_video *v) { return v->format->streams[v->stream]->codecpar->height; }

double kiosk_video_frame_seconds(const kiosk_video *v) {
    AVStream *s = v->format->streams[v->stream];
    AVRational r = s->avg_frame_rate.num > 0 ? s->avg_frame_rate : s->r_frame_rate;
    return r.num > 0 && r.den > 0 ? (double)r.den / (double)r.num : 1.0 / 30;
}

double kiosk_video_duration(const kiosk_video *v) {
    return v->format->duration > 0 ? (double)v->format->duration / AV_TIME_BASE : 0;
}

const char *kiosk_video_container(const kiosk_video *v) { return v->format->iformat->name; }
const char *kiosk_video_codec(const kiosk_video *v) {
    return av.avcodec_get_name(v->format->streams[v->stream]->codecpar->codec_id);
}
const char *kiosk_video_decoder(const kiosk_video *v) { return v->decoder; }

int kiosk_video_want_audio(kiosk_video *v, int rate, char *why, size_t why_size) {
    const AVCodec *decoder = NULL;
    int e = av.av_find_best_stream(v->format, AVMEDIA_TYPE_AUDIO, -1, v->stream, &decoder, 0);
    if (e == AVERROR_STREAM_NOT_FOUND) return 0;
    if (e < 0 || !decoder) {
        kv_say(why, why_size, "no decoder for its sound", e == AVERROR_DECODER_NOT_FOUND ? 0 : e);
        return -1;
    }
    AVStream *stream = v->format->streams[e];
    v->audio = av.avcodec_alloc_context3(decoder);
    if (!v->audio || av.avcodec_parameters_to_context(v->audio, stream->codecpar) < 0 ||
        av.avcodec_open2(v->audio, decoder, NULL) < 0) {
        kv_say(why, why_size, "cannot open its sound's decoder", 0);
        goto fail;
    }
    AVChannelLayout in = v->audio->ch_layout;
    if (in.order == AV_CHANNEL_ORDER_UNSPEC) av.av_channel_layout_default(&in, in.nb_channels > 0 ? in.nb_channels : 1);
    AVChannelLayout mono = AV_CHANNEL_LAYOUT_MONO;
    if (av.swr_alloc_set_opts2(&v->swr, &mono, AV_SAMPLE_FMT_S16, rate, &in, v->audio->sample_fmt,
                               v->audio->sample_rate, 0, NULL) < 0 || av.swr_init(v->swr) < 0) {
        kv_say(why, why_size, "cannot resample its sound", 0);
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

/* A frame the kiosk can upload as it is: 8-bit 4:2:0, in three planes or in two (NV12: VA-API's and many V4L2
   decoders'). */
static int usable(const AVFrame *f) {
    return f->format == AV_PIX_FMT_YUV420P || f->format == AV_PIX_FMT_YUVJ420P || f->format == AV_PIX_FMT_NV12;
}

/* The decoder's frame as the kiosk can upload it, held (no copy): a frame in video memory is copied out to NV12
   first. 1; 0 when the hardware decoder let go for software (decode on); -1 and `why`. */
static int kv_give(kiosk_video *v, kiosk_video_frame *out, char *why, size_t why_size) {
    AVFrame *held = av.av_frame_alloc();
    if (!held) {
        kv_say(why, why_size, "out of memory", 0);
        return -1;
    }
    AVFrame *f = v->frame;
    if (v->hw_format != AV_PIX_FMT_NONE && f->format == v->hw_format) {
        int e = av.av_hwframe_transfer_data(held, f, 0);
        if (e < 0) {
            av.av_frame_free(&held);
            if (kv_fall_back(v, "gave no frame")) return 0;
            kv_say(why, why_size, "cannot copy its frame from the graphics memory", e);
            return -1;
        }
        held->pts = f->pts;
        held->best_effort_timestamp = f->best_effort_timestamp;
        av.av_frame_unref(f);
    } else {
        if (v->hw_format != AV_PIX_FMT_NONE && v->frames == 0) {
            /* VA-API turned this film down (a profile, a size): the same decoder decodes it in software. */
            char declined[96];
            snprintf(declined, sizeof declined, "%s", v->decoder);
            snprintf(v->decoder, sizeof v->decoder, "software %s (%s turned it down)", v->software->name, declined);
            v->hardware = 0;
        }
        av.av_frame_move_ref(held, f);
    }
    if (!usable(held)) {
        const char *name = av.av_get_pix_fmt_name(held->format);
        av.av_frame_free(&held);
        if (kv_fall_back(v, "gave a frame it cannot show")) return 0;
        snprintf(why, why_size, "its pixel format %s is not 8-bit 4:2:0", name ? name : "unknown");
        return -1;
    }
    int64_t t = held->best_effort_timestamp != AV_NOPTS_VALUE ? held->best_effort_timestamp : held->pts;
    out->pts = t != AV_NOPTS_VALUE ? (double)(t - v->start) * v->time_base : 0;
    out->nv12 = held->format == AV_PIX_FMT_NV12;
    out->width = held->width;
    out->height = held->height;
    for (int i = 0; i < 3; i++) {
        out->planes[i] = i < (out->nv12 ? 2 : 3) ? held->data[i] : NULL;
        out->pitches[i] = i < (out->nv12 ? 2 : 3) ? held->linesize[i] : 0;
    }
    out->ref = held;
    v->frames += 1;
    return 1;
}

int kiosk_video_next(kiosk_video *v, kiosk_video_frame *out, char *why, size_t why_size) {
    for (;;) {
        int e = av.avcodec_receive_frame(v->codec, v->frame);
        if (e == 0) {
            int given = kv_give(v, out, why, why_size);
            if (given != 0) return given;
            continue;
        }
        if (e == AVERROR_EOF) {
            if (kv_fall_back(v, "gave no frame")) continue;
            return 0;
        }
        if (e != AVERROR(EAGAIN)) {
            if (kv_fall_back(v, "failed")) continue;
            kv_say(why, why_size, "cannot decode it", e);
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
                if (kv_fall_back(v, "failed")) break;
                kv_say(why, why_size, "cannot decode it", e);
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
        kv_say(why, why_size, seconds > 0 ? "cannot go to where it was" : "cannot go back to its start", e);
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
