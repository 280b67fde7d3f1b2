#ifndef KIOSK_VIDEO_H
#define KIOSK_VIDEO_H

#include <stddef.h>
#include <stdint.h>

/* A video file decoded frame by frame with libavformat and libavcodec (Debian's libavformat-dev and
   libavcodec-dev): its first video stream, 8-bit 4:2:0 frames; a hardware decoder where the machine has one
   (VA-API, then V4L2 M2M), the software decoder on its own threads otherwise.
   Every call is for one thread at a time (the kiosk's decoding thread); a failure fills `why` with one line. */

typedef struct kiosk_video kiosk_video;

typedef struct {
    /* The frame's presentation time in seconds from the clip's first frame. */
    double pts;
    /* The Y, U and V planes and their strides (NV12: Y and the interleaved UV, the third NULL): the decoder's
       own, valid until `ref` is released. */
    const uint8_t *planes[3];
    int pitches[3];
    int nv12;
    /* The picture's size: a stream's frames may change it (an editor's concatenation of a 4K and an HD clip). */
    int width, height;
    /* The frame held (kiosk_video_release lets it go, on any thread). */
    void *ref;
} kiosk_video_frame;

/* Lets go of a frame `kiosk_video_next` gave. */
void kiosk_video_release(void *ref);

/* Whether libavformat and libavcodec load (at the first call); 0 and `why` when they do not. */
int kiosk_video_library(char *why, size_t why_size);

/* Opens `path`; NULL (and `why`) when it is not a video this can play. With `hardware`, a hardware decoder is
   tried first; one that gives no first frame is let go for the software decoder. */
kiosk_video *kiosk_video_open(const char *path, long max_pixels, int hardware, char *why, size_t why_size);

/* How far the film is to be turned clockwise to be seen upright (0, 90, 180 or 270: its display matrix, as a
   phone's portrait film carries it). */
int kiosk_video_rotation(const kiosk_video *v);
/* Its pixels' width over their height (1 for square pixels; 64:45 for a PAL 16:9 DVD's). */
double kiosk_video_sample_aspect(const kiosk_video *v);
int kiosk_video_width(const kiosk_video *v);
int kiosk_video_height(const kiosk_video *v);
/* The time from one frame to the next, in seconds (the stream's average frame rate). */
double kiosk_video_frame_seconds(const kiosk_video *v);
/* The container's duration in seconds (0 where it does not say). */
double kiosk_video_duration(const kiosk_video *v);
const char *kiosk_video_container(const kiosk_video *v);
const char *kiosk_video_codec(const kiosk_video *v);
/* The decoder in use, as the trace names it: "VA-API h264", "V4L2 M2M h264_v4l2m2m", "software h264 (1 thread;
   no VA-API device, no V4L2 M2M device)"; settled once the first frame is given. */
const char *kiosk_video_decoder(const kiosk_video *v);

/* The next frame: 1 with `out` filled; 0 at the end of the file; -1 on an error (and `why`). */
int kiosk_video_next(kiosk_video *v, kiosk_video_frame *out, char *why, size_t why_size);

/* Its sound, decoded from now on as its packets come and resampled to 16-bit mono at `rate`: 1; 0 when it has
   none; -1 (and `why`) when it cannot be played. */
int kiosk_video_want_audio(kiosk_video *v, int rate, char *why, size_t why_size);

/* The sound decoded since the last call: the samples (valid until the next call) and their count; `pts` is the
   first one's time in seconds from the clip's first frame. */
size_t kiosk_video_take_audio(kiosk_video *v, const int16_t **samples, double *pts);

/* Back to the first frame (a loop). 0, or -1 and `why`. */
int kiosk_video_rewind(kiosk_video *v, char *why, size_t why_size);

/* To the key frame at or before `seconds` from the clip's first frame (the frames from there are decoded next).
   0, or -1 and `why`. */
int kiosk_video_seek(kiosk_video *v, double seconds, char *why, size_t why_size);

void kiosk_video_close(kiosk_video *v);

#endif
