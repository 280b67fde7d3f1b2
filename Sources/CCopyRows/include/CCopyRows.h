#ifndef CCOPYROWS_H
#define CCOPYROWS_H
#include <stddef.h>
#include <stdint.h>
/// Copies `rows` rows of `rowBytes` bytes from `src` (rows `srcPitch` bytes apart) to `dst` (`dstPitch` apart),
/// the same bytes as a memcpy of each row. With `stream` the stores bypass the cache (non-temporal): a copy larger
/// than the cache then writes memory without first reading what it overwrites, a third less traffic; a small
/// copy that is drawn over next (a label's) should keep its pixels in cache (`stream` 0: memcpy).
void kiosk_copy_rows(void *dst, ptrdiff_t dstPitch, const void *src, ptrdiff_t srcPitch, size_t rowBytes,
                     size_t rows, int stream);

/// One rectangle of a batch (`kiosk_copy_pieces`): `rows` rows of `rowBytes` bytes from `src` to `dst`, the
/// destination's first row being row `top` of the screen.
typedef struct {
    void *dst;
    const void *src;
    ptrdiff_t dstPitch;
    ptrdiff_t srcPitch;
    size_t rowBytes;
    int top;
    int rows;
} kiosk_copy_piece;

/// Copies every piece of `pieces`, the same bytes as `kiosk_copy_rows` of each in turn where no two pieces write
/// the same pixel, but screen row by screen row: a row of the screen is written whole, left to right, before the
/// next, reading each piece's rows in order, as one large copy would (a grid of tiles copied tile by tile walks
/// the screen in columns, a new page every row). `scratch` holds `count` ints. Where pieces overlap, each row
/// is written in the pieces' order, so the last piece's pixels are the ones that stay.
void kiosk_copy_pieces(const kiosk_copy_piece *pieces, int count, int stream, int *scratch);

/// Writes `color` into `rows` rows of `width` 4-byte pixels (`pitch` bytes apart), through the cache: what
/// SDL_FillRect writes, for fills small enough that what is drawn over them next should find them cached (SDL
/// stores every fill past the cache).
void kiosk_fill_rows(void *dst, ptrdiff_t pitch, size_t width, size_t rows, uint32_t color);

/// Blends `r g b` at alpha `a` over `rows` rows of `width` 4-byte pixels whose red is bits 16-23 (XRGB8888,
/// or ARGB8888 where `alpha`): the bytes SDL_BlendFillRect writes for SDL_BLENDMODE_BLEND.
void kiosk_blend_rows(void *dst, ptrdiff_t pitch, size_t width, size_t rows, uint8_t r, uint8_t g, uint8_t b,
                      uint8_t a, int alpha);
#endif
