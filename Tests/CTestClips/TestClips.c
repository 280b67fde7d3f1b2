#include "kiosk_test_clips.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/pixdesc.h>
#include <math.h>
#include <stdio.h>

typedef struct {
    AVStream *stream;
    AVCodecContext *codec;
    AVFrame *frame;
    int64_t next; /* the next frame's pts, in the codec's time base */
    int left;     /* frames (video) or samples (sound) still to write */
} track;

static int fail(char *why, size_t size, const char *what, int error) {
    char text[128] = "";
    if (error) av_strerror(error, text, sizeof text);
    if (why && size) snprintf(why, size, "%s%s%s", what, error ? ": " : "", text);
    return -1;
}

/* SMPTE-like bars: white, yellow, cyan, green, magenta, red, blue, black, in BT.601 limited range. */
static const unsigned char bars[8][3] = {
    {235, 128, 128}, {210, 16, 146}, {170, 166, 16}, {145, 54, 34},
    {106, 202, 222}, {81, 90, 240}, {41, 240, 110}, {16, 128, 128},
};

/* Frame `n`: the bars slide 4 pixels a frame over the upper two thirds; a grey ramp that moves with them below. */
static void paint(AVFrame *f, int n) {
    int w = f->width, h = f->height;
    int nv12 = f->format == AV_PIX_FMT_NV12;
    for (int y = 0; y < h; y++) {
        unsigned char *row = f->data[0] + (ptrdiff_t)y * f->linesize[0];
        for (int x = 0; x < w; x++) {
            int shifted = (x + 4 * n) % w;
            row[x] = y < h * 2 / 3 ? bars[shifted * 8 / w][0] : (unsigned char)(16 + (shifted * 219) / w);
        }
    }
    for (int y = 0; y < h / 2; y++) {
        for (int x = 0; x < w / 2; x++) {
            int shifted = (2 * x + 4 * n) % w;
            int bar = 2 * y < h * 2 / 3 ? shifted * 8 / w : 7;
            unsigned char u = bars[bar][1], v = bars[bar][2];
            if (nv12) {
                unsigned char *uv = f->data[1] + (ptrdiff_t)y * f->linesize[1];
                uv[2 * x] = u;
                uv[2 * x + 1] = v;
            } else {
                f->data[1][(ptrdiff_t)y * f->linesize[1] + x] = u;
                f->data[2][(ptrdiff_t)y * f->linesize[2] + x] = v;
            }
        }
    }
}

/* A tone at 1/8 of full scale, as FFmpeg's `sine` source makes it. */
static void sing(AVFrame *f, int64_t first, double hz) {
    float *out = (float *)f->data[0];
    for (int i = 0; i < f->nb_samples; i++)
        out[i] = (float)(sin(2 * M_PI * hz * (double)(first + i) / f->sample_rate) / 8);
}

static int open_track(AVFormatContext *format, track *t, const AVCodec *encoder, AVCodecContext *c, char *why,
                      size_t size) {
    t->codec = c; /* the track owns it from here, opened or not: close_track frees it */
    if (format->oformat->flags & AVFMT_GLOBALHEADER) c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    int e = avcodec_open2(c, encoder, NULL);
    if (e < 0) return fail(why, size, "cannot open the encoder", e);
    t->stream = avformat_new_stream(format, NULL);
    if (!t->stream) return fail(why, size, "cannot add a stream", 0);
    t->stream->time_base = c->time_base;
    if (c->codec_type == AVMEDIA_TYPE_VIDEO) t->stream->avg_frame_rate = t->stream->r_frame_rate = c->framerate;
    e = avcodec_parameters_from_context(t->stream->codecpar, c);
    if (e < 0) return fail(why, size, "cannot describe the stream", e);
    t->frame = av_frame_alloc();
    if (!t->frame) return fail(why, size, "out of memory", 0);
    return 0;
}

static int drain(AVFormatContext *format, track *t, AVFrame *frame, char *why, size_t size);

/* Ends the video track's encoder and starts another of `w` x `h` writing into the same stream. */
static int restart_video(AVFormatContext *format, track *t, int w, int h, char *why, size_t size) {
    if (drain(format, t, NULL, why, size) < 0) return -1;
    const AVCodec *encoder = t->codec->codec;
    AVCodecContext *c = avcodec_alloc_context3(encoder);
    if (!c) return fail(why, size, "out of memory", 0);
    c->width = w;
    c->height = h;
    c->time_base = t->codec->time_base;
    c->framerate = t->codec->framerate;
    c->pix_fmt = t->codec->pix_fmt;
    c->gop_size = t->codec->gop_size;
    avcodec_free_context(&t->codec);
    t->codec = c;
    int e = avcodec_open2(c, encoder, NULL);
    if (e < 0) return fail(why, size, "cannot open the encoder again", e);
    av_frame_free(&t->frame);
    t->frame = av_frame_alloc();
    if (!t->frame) return fail(why, size, "out of memory", 0);
    t->frame->format = c->pix_fmt;
    t->frame->width = w;
    t->frame->height = h;
    if ((e = av_frame_get_buffer(t->frame, 0)) < 0) return fail(why, size, "out of memory", e);
    return 0;
}

/* Sends `frame` (NULL: the end) and writes every packet the encoder gives back. */
static int drain(AVFormatContext *format, track *t, AVFrame *frame, char *why, size_t size) {
    int e = avcodec_send_frame(t->codec, frame);
    if (e < 0) return fail(why, size, "the encoder refused a frame", e);
    AVPacket *p = av_packet_alloc();
    while ((e = avcodec_receive_packet(t->codec, p)) >= 0) {
        /* A frame lasts one frame (a player times a loop by its last frame's end, as FFmpeg's command writes it). */
        if (p->duration <= 0 && t->codec->codec_type == AVMEDIA_TYPE_VIDEO) p->duration = 1;
        av_packet_rescale_ts(p, t->codec->time_base, t->stream->time_base);
        p->stream_index = t->stream->index;
        e = av_interleaved_write_frame(format, p);
        if (e < 0) break;
    }
    av_packet_free(&p);
    if (e < 0 && e != AVERROR(EAGAIN) && e != AVERROR_EOF) return fail(why, size, "cannot write a packet", e);
    return 0;
}

static void close_track(track *t) {
    av_frame_free(&t->frame);
    avcodec_free_context(&t->codec);
}

int kiosk_test_clip_write(const char *path, const kiosk_test_clip *clip, char *why, size_t size) {
    av_log_set_level(AV_LOG_ERROR);
    AVFormatContext *format = NULL;
    int e = avformat_alloc_output_context2(&format, NULL, NULL, path);
    if (e < 0 || !format) return fail(why, size, "no container for this file name", e);
    track video = {0}, sound = {0};
    int result = -1;

    if (clip->frames > 0) {
        const AVCodec *encoder = avcodec_find_encoder_by_name(clip->codec ? clip->codec : "libx264");
        if (!encoder) {
            fail(why, size, "no such encoder in this libavcodec", 0);
            goto done;
        }
        AVCodecContext *c = avcodec_alloc_context3(encoder);
        c->width = clip->width;
        c->height = clip->height;
        c->time_base = (AVRational){1, clip->rate};
        c->framerate = (AVRational){clip->rate, 1};
        c->pix_fmt = av_get_pix_fmt(clip->pixel_format ? clip->pixel_format : "yuv420p");
        if (clip->gop > 0) c->gop_size = clip->gop;
        if (clip->sar_num > 0 && clip->sar_den > 0) c->sample_aspect_ratio = (AVRational){clip->sar_num, clip->sar_den};
        if (open_track(format, &video, encoder, c, why, size) < 0) goto done;
        video.stream->sample_aspect_ratio = c->sample_aspect_ratio;
        if (clip->rotation) {
            /* As a phone writes a portrait film: a matrix that turns the picture `rotation` clockwise to show it. */
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 31, 102)
            AVPacketSideData *sd = av_packet_side_data_new(&video.stream->codecpar->coded_side_data,
                                                           &video.stream->codecpar->nb_coded_side_data,
                                                           AV_PKT_DATA_DISPLAYMATRIX, 9 * sizeof(int32_t), 0);
            int32_t *matrix = sd ? (int32_t *)sd->data : NULL;
#else
            int32_t *matrix = (int32_t *)av_stream_new_side_data(video.stream, AV_PKT_DATA_DISPLAYMATRIX,
                                                                 9 * sizeof(int32_t));
#endif
            if (!matrix) {
                fail(why, size, "out of memory", 0);
                goto done;
            }
            av_display_rotation_set(matrix, clip->rotation);
        }
        video.frame->format = c->pix_fmt;
        video.frame->width = c->width;
        video.frame->height = c->height;
        if ((e = av_frame_get_buffer(video.frame, 0)) < 0) {
            fail(why, size, "out of memory", e);
            goto done;
        }
        video.left = clip->frames;
    }
    if (clip->tone_hz > 0) {
        const AVCodec *encoder = avcodec_find_encoder(AV_CODEC_ID_AAC);
        if (!encoder) {
            fail(why, size, "no AAC encoder in this libavcodec", 0);
            goto done;
        }
        AVCodecContext *c = avcodec_alloc_context3(encoder);
        c->sample_rate = 48000;
        c->sample_fmt = AV_SAMPLE_FMT_FLTP;
        c->bit_rate = 128000;
        av_channel_layout_default(&c->ch_layout, 1);
        c->time_base = (AVRational){1, c->sample_rate};
        if (open_track(format, &sound, encoder, c, why, size) < 0) goto done;
        sound.frame->format = c->sample_fmt;
        sound.frame->sample_rate = c->sample_rate;
        sound.frame->nb_samples = c->frame_size;
        av_channel_layout_copy(&sound.frame->ch_layout, &c->ch_layout);
        if ((e = av_frame_get_buffer(sound.frame, 0)) < 0) {
            fail(why, size, "out of memory", e);
            goto done;
        }
        sound.left = (int)lround(clip->sound_seconds * c->sample_rate);
    }
    if ((e = avio_open(&format->pb, path, AVIO_FLAG_WRITE)) < 0) {
        fail(why, size, "cannot write the file", e);
        goto done;
    }
    if ((e = avformat_write_header(format, NULL)) < 0) {
        fail(why, size, "cannot write the container's header", e);
        goto done;
    }
    /* The two tracks in the order of their times, as a player reads them. */
    while (video.left > 0 || sound.left > 0) {
        int pick_video = video.left > 0 &&
                         (sound.left <= 0 || av_compare_ts(video.next, video.codec->time_base, sound.next,
                                                           sound.codec->time_base) <= 0);
        if (pick_video) {
            if (clip->resize_after > 0 && video.next == clip->resize_after &&
                restart_video(format, &video, clip->width2, clip->height2, why, size) < 0)
                goto done;
            if ((e = av_frame_make_writable(video.frame)) < 0) {
                fail(why, size, "out of memory", e);
                goto done;
            }
            paint(video.frame, (int)video.next);
            video.frame->pts = video.next++;
            video.left--;
            if (drain(format, &video, video.frame, why, size) < 0) goto done;
        } else {
            if ((e = av_frame_make_writable(sound.frame)) < 0) {
                fail(why, size, "out of memory", e);
                goto done;
            }
            sing(sound.frame, sound.next, clip->tone_hz);
            sound.frame->pts = sound.next;
            sound.next += sound.frame->nb_samples;
            sound.left -= sound.frame->nb_samples;
            if (drain(format, &sound, sound.frame, why, size) < 0) goto done;
        }
    }
    if (video.codec && drain(format, &video, NULL, why, size) < 0) goto done;
    if (sound.codec && drain(format, &sound, NULL, why, size) < 0) goto done;
    if ((e = av_write_trailer(format)) < 0) {
        fail(why, size, "cannot finish the file", e);
        goto done;
    }
    result = 0;
done:
    close_track(&video);
    close_track(&sound);
    if (format->pb) avio_closep(&format->pb);
    avformat_free_context(format);
    return result;
}
