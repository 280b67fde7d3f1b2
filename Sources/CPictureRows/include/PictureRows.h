#ifndef PICTURE_ROWS_H
#define PICTURE_ROWS_H
#include <stddef.h>
#include <stdint.h>

/// A PNG or JPEG read a few rows at a time (libpng, libjpeg), so a picture larger than memory can be cut into
/// tiles without ever being held whole. Errors are caught here (both libraries report them with longjmp, which
/// Swift cannot take) and given back as a sentence.
typedef struct kiosk_picture_rows kiosk_picture_rows;

enum {
    /// Opened: read its rows.
    KIOSK_ROWS_OK = 0,
    /// Not a PNG or JPEG, or broken: `why` says how.
    KIOSK_ROWS_BROKEN = 1,
    /// A kind these readers do not take a row at a time (an interlaced PNG, a CMYK JPEG): decode it whole.
    KIOSK_ROWS_WHOLE_ONLY = 2,
};

/// Opens the picture in `fd` (taken over: closed by `kiosk_rows_close`, or here on failure). `shrink` 1, 2, 4
/// or 8 makes a JPEG's rows that many times smaller each way (decoding every byte, writing fewer pixels: a
/// check); a PNG ignores it. `*status` is one of the above; NULL unless it is KIOSK_ROWS_OK.
kiosk_picture_rows *kiosk_rows_open(int fd, int shrink, int *status, char *why, size_t why_size);
int kiosk_rows_width(const kiosk_picture_rows *rows);
int kiosk_rows_height(const kiosk_picture_rows *rows);
/// Whether the picture can hold a pixel that is not opaque (a PNG's alpha channel or transparent colour).
int kiosk_rows_has_alpha(const kiosk_picture_rows *rows);
/// The next `count` rows into `pixels`, `pitch` bytes apart, 4 bytes a pixel in the order R, G, B, A.
/// 0, or -1 with `why` (a broken or cut-short file: a JPEG that ends early is an error here, not grey rows).
int kiosk_rows_read(kiosk_picture_rows *rows, uint8_t *pixels, size_t pitch, int count, char *why, size_t why_size);
void kiosk_rows_close(kiosk_picture_rows *rows);
#endif
