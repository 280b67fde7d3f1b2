#ifndef KIOSK_TEST_CLIPS_H
#define KIOSK_TEST_CLIPS_H

#include <stddef.h>

/* A test film written in-process with Debian's libavformat and libavcodec (the libraries the kiosk plays films
   with), so the tests need no `ffmpeg` command: a moving test pattern (colour bars that slide a few pixels a frame,
   over a ramp, so no two frames of a loop are alike) and, if asked, a sine tone. The container is the file name's
   (.mp4, .nut, .mkv, .m4a...). */
typedef struct {
    int width, height;          /* the picture's size (even numbers) */
    int rate;                   /* frames a second */
    int frames;                 /* 0: no picture (a sound-only file) */
    int gop;                    /* a key frame every `gop` frames; 0: the encoder's default */
    const char *codec;          /* an encoder's name: "libx264", "rawvideo", "mpeg4" */
    const char *pixel_format;   /* "yuv420p" or "nv12" */
    double tone_hz;             /* 0: no sound */
    double sound_seconds;       /* how long the tone lasts (AAC, 48 kHz, mono, 1/8 of full scale) */
    int resize_after;           /* > 0: from this frame on the picture is `width2` x `height2`, from an encoder
                                   started anew in the same stream, as an editor's concatenation of clips of two
                                   sizes writes it (a container that carries the parameters in-band: .ts) */
    int width2, height2;
    int rotation;               /* the display matrix: the film is to be turned this far clockwise (0, 90, 180, 270) */
    int sar_num, sar_den;       /* its pixels' aspect (0: square) */
} kiosk_test_clip;

/* 0 when written; otherwise -1 and why in `why`. */
int kiosk_test_clip_write(const char *path, const kiosk_test_clip *clip, char *why, size_t size);

#endif
