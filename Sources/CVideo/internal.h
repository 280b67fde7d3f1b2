/* What the parts of CVideo share: libav's functions (loaded at the first film), a film being decoded, and the
   decoders' choice (decoders.c). Not for Swift: kiosk_video.h is the module's interface. */
#ifndef KIOSK_VIDEO_INTERNAL_H
#define KIOSK_VIDEO_INTERNAL_H

#include "kiosk_video.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/hwcontext.h>
#include <libavutil/pixdesc.h>
#include <libswresample/swresample.h>

/* libav's functions as loaded (kv_load), and why they did not load. */
struct kv_libav {
    int ok;
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
    void (*av_frame_unref)(AVFrame *);
    int (*av_strerror)(int, char *, size_t);
    void (*av_log_set_level)(int);
    const char *(*av_get_pix_fmt_name)(enum AVPixelFormat);
    const AVPixFmtDescriptor *(*av_pix_fmt_desc_get)(enum AVPixelFormat);
    const AVCodec *(*avcodec_find_decoder_by_name)(const char *);
    const AVCodecHWConfig *(*avcodec_get_hw_config)(const AVCodec *, int);
    int (*av_hwdevice_ctx_create)(AVBufferRef **, enum AVHWDeviceType, const char *, AVDictionary *, int);
    int (*av_hwframe_transfer_data)(AVFrame *, const AVFrame *, int);
    AVBufferRef *(*av_buffer_ref)(const AVBufferRef *);
    void (*av_buffer_unref)(AVBufferRef **);
    void (*av_channel_layout_default)(AVChannelLayout *, int);
    int (*swr_alloc_set_opts2)(struct SwrContext **, const AVChannelLayout *, enum AVSampleFormat, int,
                               const AVChannelLayout *, enum AVSampleFormat, int, int, void *);
    int (*swr_init)(struct SwrContext *);
    int (*swr_get_out_samples)(struct SwrContext *, int);
    int (*swr_convert)(struct SwrContext *, uint8_t **, int, const uint8_t **, int);
    void (*swr_free)(struct SwrContext **);
};
extern struct kv_libav av;

/* Loads libav at the first call: 1, or 0 and `av.why`. */
int kv_load(void);

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
    char decoder[192];
    /* The software decoder (the one a hardware decoder falls back to), the pixel format of VA-API's frames in
       video memory (AV_PIX_FMT_NONE when frames come in memory), whether a hardware decoder is open, and the
       frames given out so far. */
    const AVCodec *software;
    enum AVPixelFormat hw_format;
    int hardware;
    long frames;
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

/* Fills `why` with `what` and libav's words for `error` (when not 0). */
void kv_say(char *why, size_t size, const char *what, int error);

/* The decoders (decoders.c): the software one (`no_hardware`: why no hardware decoder plays it), a hardware one
   (0; or -1 and why neither plays it in `no`), and a hardware decoder that gave no first frame let go for
   software (1 when it fell back). */
int kv_open_software(kiosk_video *v, const char *no_hardware);
int kv_open_hardware(kiosk_video *v, char *no, size_t no_size);
int kv_fall_back(kiosk_video *v, const char *why);

#endif
