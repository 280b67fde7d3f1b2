#include "PictureRows.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
// jpeglib.h needs FILE and size_t declared before it.
#include <jpeglib.h>
#include <jerror.h>
#include <png.h>
#include <string.h>
#include <unistd.h>

enum { KIND_PNG = 1, KIND_JPEG = 2 };

struct kiosk_picture_rows {
    int kind;
    FILE *file;
    int width, height, alpha, row;
    char message[JMSG_LENGTH_MAX];
    jmp_buf jump;
    png_structp png;
    png_infop info;
    struct jpeg_decompress_struct jpeg;
    struct jpeg_error_mgr jpeg_error;
    int jpeg_created, ended_early;
};

static void say(char *why, size_t size, const char *text) {
    if (why && size > 0) snprintf(why, size, "%s", text);
}

static void png_failed(png_structp png, png_const_charp message) {
    kiosk_picture_rows *r = png_get_error_ptr(png);
    snprintf(r->message, sizeof r->message, "%s", message);
    longjmp(r->jump, 1);
}

static void png_warned(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static kiosk_picture_rows *container(j_common_ptr c) { return (kiosk_picture_rows *)c->client_data; }

static void jpeg_failed(j_common_ptr c) {
    kiosk_picture_rows *r = container(c);
    (*c->err->format_message)(c, r->message);
    longjmp(r->jump, 1);
}

/// Warnings (level -1) are silent but for the two that matter here: the data ended, or met a marker, before the
/// picture did (libjpeg would fill the rest grey).
static void jpeg_emitted(j_common_ptr c, int level) {
    if (level == -1 && (c->err->msg_code == JWRN_JPEG_EOF || c->err->msg_code == JWRN_HIT_MARKER))
        container(c)->ended_early = 1;
}

static void jpeg_said(j_common_ptr c) { (void)c; }

void kiosk_rows_close(kiosk_picture_rows *r) {
    if (!r) return;
    if (r->png) png_destroy_read_struct(&r->png, r->info ? &r->info : NULL, NULL);
    if (r->jpeg_created) jpeg_destroy_decompress(&r->jpeg);
    if (r->file) fclose(r->file);
    free(r);
}

static int open_png(kiosk_picture_rows *r) {
    r->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, r, png_failed, png_warned);
    if (!r->png) return KIOSK_ROWS_BROKEN;
    r->info = png_create_info_struct(r->png);
    if (!r->info) return KIOSK_ROWS_BROKEN;
    if (setjmp(r->jump)) return KIOSK_ROWS_BROKEN;
    png_init_io(r->png, r->file);
    png_read_info(r->png, r->info);
    png_uint_32 w, h;
    int depth, type, interlace;
    png_get_IHDR(r->png, r->info, &w, &h, &depth, &type, &interlace, NULL, NULL);
    if (interlace != PNG_INTERLACE_NONE) return KIOSK_ROWS_WHOLE_ONLY;
    r->alpha = (type & PNG_COLOR_MASK_ALPHA) || png_get_valid(r->png, r->info, PNG_INFO_tRNS);
    // What SDL_image makes of each kind, as 8-bit RGBA: palettes and small greys expanded, a transparent colour
    // made alpha, 16 bits cut to their high byte.
    png_set_expand(r->png);
    png_set_strip_16(r->png);
    if (!(type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(r->png);
    if (!r->alpha) png_set_filler(r->png, 0xFF, PNG_FILLER_AFTER);
    png_read_update_info(r->png, r->info);
    if (png_get_rowbytes(r->png, r->info) != (size_t)w * 4) {
        snprintf(r->message, sizeof r->message, "an unexpected PNG layout");
        return KIOSK_ROWS_BROKEN;
    }
    r->width = (int)w;
    r->height = (int)h;
    return KIOSK_ROWS_OK;
}

static int open_jpeg(kiosk_picture_rows *r, int shrink) {
    r->jpeg.err = jpeg_std_error(&r->jpeg_error);
    r->jpeg_error.error_exit = jpeg_failed;
    r->jpeg_error.emit_message = jpeg_emitted;
    r->jpeg_error.output_message = jpeg_said;
    r->jpeg.client_data = r;
    if (setjmp(r->jump)) return KIOSK_ROWS_BROKEN;
    jpeg_create_decompress(&r->jpeg);
    r->jpeg_created = 1;
    jpeg_stdio_src(&r->jpeg, r->file);
    jpeg_read_header(&r->jpeg, TRUE);
    if (r->jpeg.jpeg_color_space == JCS_CMYK || r->jpeg.jpeg_color_space == JCS_YCCK) return KIOSK_ROWS_WHOLE_ONLY;
    r->jpeg.out_color_space = JCS_EXT_RGBA;
    r->jpeg.scale_num = 1;
    r->jpeg.scale_denom = (unsigned)(shrink == 2 || shrink == 4 || shrink == 8 ? shrink : 1);
    jpeg_start_decompress(&r->jpeg);
    r->width = (int)r->jpeg.output_width;
    r->height = (int)r->jpeg.output_height;
    r->alpha = 0;
    return KIOSK_ROWS_OK;
}

kiosk_picture_rows *kiosk_rows_open(int fd, int shrink, int *status, char *why, size_t why_size) {
    *status = KIOSK_ROWS_BROKEN;
    kiosk_picture_rows *r = calloc(1, sizeof *r);
    if (!r) {
        close(fd);
        say(why, why_size, "out of memory");
        return NULL;
    }
    r->file = fdopen(fd, "rb");
    if (!r->file) {
        close(fd);
        say(why, why_size, "cannot read the file");
        kiosk_rows_close(r);
        return NULL;
    }
    unsigned char head[8] = {0};
    size_t got = fread(head, 1, sizeof head, r->file);
    rewind(r->file);
    if (got == 8 && png_sig_cmp(head, 0, 8) == 0) {
        r->kind = KIND_PNG;
        *status = open_png(r);
    } else if (got >= 3 && head[0] == 0xFF && head[1] == 0xD8 && head[2] == 0xFF) {
        r->kind = KIND_JPEG;
        *status = open_jpeg(r, shrink);
    } else {
        snprintf(r->message, sizeof r->message, "not a PNG or JPEG");
    }
    if (*status == KIOSK_ROWS_OK && (r->width <= 0 || r->height <= 0)) {
        *status = KIOSK_ROWS_BROKEN;
        snprintf(r->message, sizeof r->message, "the image is empty");
    }
    if (*status != KIOSK_ROWS_OK) {
        say(why, why_size, r->message);
        kiosk_rows_close(r);
        return NULL;
    }
    return r;
}

int kiosk_rows_width(const kiosk_picture_rows *r) { return r->width; }
int kiosk_rows_height(const kiosk_picture_rows *r) { return r->height; }
int kiosk_rows_has_alpha(const kiosk_picture_rows *r) { return r->alpha; }

int kiosk_rows_read(kiosk_picture_rows *r, uint8_t *pixels, size_t pitch, int count, char *why, size_t why_size) {
    if (count < 0 || r->row + count > r->height) {
        say(why, why_size, "read past the picture's last row");
        return -1;
    }
    if (setjmp(r->jump)) {
        say(why, why_size, r->message);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        uint8_t *line = pixels + (size_t)i * pitch;
        if (r->kind == KIND_PNG) {
            png_read_row(r->png, line, NULL);
        } else {
            JSAMPROW rows[1] = {line};
            if (jpeg_read_scanlines(&r->jpeg, rows, 1) != 1 || r->ended_early) {
                say(why, why_size, "the file is cut short (its data ends before its last row)");
                return -1;
            }
        }
        r->row++;
    }
    return 0;
}
