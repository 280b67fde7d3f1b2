#include "CCopyRows.h"
#include <stdint.h>
#include <string.h>

typedef uint8_t block16 __attribute__((vector_size(16)));

/// The 64 bytes at `s` into the line at `d` (64-byte aligned) with non-temporal stores.
static inline void stream_line(uint8_t *d, const uint8_t *s) {
    block16 a, b, c, e;
    memcpy(&a, s, 16);
    memcpy(&b, s + 16, 16);
    memcpy(&c, s + 32, 16);
    memcpy(&e, s + 48, 16);
    __builtin_nontemporal_store(a, (block16 *)d);
    __builtin_nontemporal_store(b, (block16 *)(d + 16));
    __builtin_nontemporal_store(c, (block16 *)(d + 32));
    __builtin_nontemporal_store(e, (block16 *)(d + 48));
}

/// One row with non-temporal stores in whole 64-byte lines; the part of a line at either end by memcpy. A line
/// written partly both ways would be read in and flushed in pieces: twice as slow as memcpy, not a third faster.
static void stream_row(uint8_t *d, const uint8_t *s, size_t n) {
    size_t head = (64 - ((uintptr_t)d & 63)) & 63;
    if (head > n) head = n;
    memcpy(d, s, head);
    d += head;
    s += head;
    n -= head;
    for (; n >= 64; n -= 64, d += 64, s += 64) {
        stream_line(d, s);
    }
    memcpy(d, s, n);
}

/// Where a row of a batch stands: its pieces' sources, one after the other on the screen.
typedef struct {
    const uint8_t *const *src;
    const size_t *len;
    int piece;
    size_t offset;
} cursor;

/// The next `n` bytes of the row into `d`: whole pixels (4 bytes), a few at a time (a line's part at most, where
/// a call of memcpy would cost more than the copy).
static void take(cursor *c, uint8_t *d, size_t n) {
    while (n) {
        size_t k = c->len[c->piece] - c->offset;
        if (k > n) k = n;
        const uint8_t *s = c->src[c->piece] + c->offset;
        size_t i = 0;
        for (; i + 4 <= k; i += 4) {
            uint32_t v;
            __builtin_memcpy(&v, s + i, 4);
            __builtin_memcpy(d + i, &v, 4);
        }
        for (; i < k; i++) d[i] = s[i];
        d += k;
        n -= k;
        c->offset += k;
        if (c->offset == c->len[c->piece]) {
            c->piece++;
            c->offset = 0;
        }
    }
}

/// One screen row made of `count` pieces side by side (`src[i]`, `len[i]` bytes each) with non-temporal stores
/// in whole 64-byte lines, as `stream_row` makes one: a line where two pieces meet is put together first, so
/// that only the row's own ends are written through the cache.
static void stream_pieces(uint8_t *d, const uint8_t *const *src, const size_t *len, int count) {
    size_t n = 0;
    for (int i = 0; i < count; i++) n += len[i];
    cursor c = {src, len, 0, 0};
    size_t head = (64 - ((uintptr_t)d & 63)) & 63;
    if (head > n) head = n;
    take(&c, d, head);
    d += head;
    n -= head;
    uint8_t joined[64] __attribute__((aligned(16)));
    for (; n >= 64; n -= 64, d += 64) {
        const uint8_t *s;
        if (c.len[c.piece] - c.offset >= 64) {
            s = c.src[c.piece] + c.offset;
            c.offset += 64;
            if (c.offset == c.len[c.piece]) {
                c.piece++;
                c.offset = 0;
            }
        } else {
            take(&c, joined, 64);
            s = joined;
        }
        stream_line(d, s);
    }
    take(&c, d, n);
}

static void fence(void) {
    // Non-temporal stores are ordered with nothing else until a fence: the presenting code (another thread, the
    // X server) must see them.
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_sfence();
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

void kiosk_copy_rows(void *dst, ptrdiff_t dstPitch, const void *src, ptrdiff_t srcPitch, size_t rowBytes,
                     size_t rows, int stream) {
    uint8_t *d = dst;
    const uint8_t *s = src;
    for (size_t y = 0; y < rows; y++, d += dstPitch, s += srcPitch) {
        if (stream)
            stream_row(d, s, rowBytes);
        else
            memcpy(d, s, rowBytes);
    }
    if (stream) fence();
}

/// Pieces put together into one streamed row at most.
#define RUN 32

void kiosk_copy_pieces(const kiosk_copy_piece *pieces, int count, int stream, int *active) {
    if (count <= 0) return;
    int top = pieces[0].top, bottom = pieces[0].top + pieces[0].rows;
    for (int i = 1; i < count; i++) {
        if (pieces[i].top < top) top = pieces[i].top;
        if (pieces[i].top + pieces[i].rows > bottom) bottom = pieces[i].top + pieces[i].rows;
    }
    // The pieces that write screen row y, in the batch's order; refreshed where one starts or ends.
    int n = 0, next = top;
    for (int y = top; y < bottom; y++) {
        if (y == next) {
            n = 0;
            next = bottom;
            for (int i = 0; i < count; i++) {
                const kiosk_copy_piece *p = &pieces[i];
                int end = p->top + p->rows;
                if (p->top <= y && y < end) {
                    active[n++] = i;
                    if (end < next) next = end;
                } else if (p->top > y && p->top < next) {
                    next = p->top;
                }
            }
        }
        if (!stream) {
            for (int k = 0; k < n; k++) {
                const kiosk_copy_piece *p = &pieces[active[k]];
                ptrdiff_t r = y - p->top;
                memcpy((uint8_t *)p->dst + r * p->dstPitch, (const uint8_t *)p->src + r * p->srcPitch, p->rowBytes);
            }
            continue;
        }
        // Streamed: the pieces that meet end to end on the screen (a row of tiles, left to right) as one row.
        const uint8_t *src[RUN];
        size_t len[RUN];
        for (int k = 0; k < n;) {
            const kiosk_copy_piece *p = &pieces[active[k]];
            uint8_t *start = (uint8_t *)p->dst + (y - p->top) * p->dstPitch;
            uint8_t *end = start;
            int m = 0;
            for (; k < n && m < RUN; k++, m++) {
                const kiosk_copy_piece *q = &pieces[active[k]];
                uint8_t *d = (uint8_t *)q->dst + (y - q->top) * q->dstPitch;
                if (d != end) break;
                src[m] = (const uint8_t *)q->src + (y - q->top) * q->srcPitch;
                len[m] = q->rowBytes;
                end = d + q->rowBytes;
            }
            stream_pieces(start, src, len, m);
        }
    }
    if (stream) fence();
}

/// Rows a fill asks for ahead of the one it writes: a narrow fill's rows are a page apart, too far for the
/// hardware's own prefetch, and what a picture's copy just streamed past the cache is in memory, not cached.
#define AHEAD 8

/// Asks for the lines of row `y + AHEAD` (of `rows`, `width` pixels from `d`'s column), for writing.
static inline void ahead(uint8_t *d, ptrdiff_t pitch, size_t y, size_t rows, size_t width) {
    if (y + AHEAD >= rows) return;
    uint8_t *row = d + AHEAD * pitch;
    for (size_t x = 0; x < width * 4; x += 64) __builtin_prefetch(row + x, 1);
    __builtin_prefetch(row + width * 4 - 1, 1);
}

void kiosk_fill_rows(void *dst, ptrdiff_t pitch, size_t width, size_t rows, uint32_t color) {
    uint8_t *d = dst;
    for (size_t y = 0; y < rows; y++, d += pitch) {
        ahead(d, pitch, y, rows, width);
        uint32_t *p = (uint32_t *)d;
        for (size_t x = 0; x < width; x++) p[x] = color;
    }
}

/// SDL's `DRAW_MUL` (SDL_draw.h): a product of two 8-bit values over 255, rounded down.
static inline unsigned draw_mul(unsigned a, unsigned b) { return a * b / 255; }

void kiosk_blend_rows(void *dst, ptrdiff_t pitch, size_t width, size_t rows, uint8_t r, uint8_t g, uint8_t b,
                      uint8_t a, int alpha) {
    // What SDL_BlendFillRect does for SDL_BLENDMODE_BLEND: the colour premultiplied, each pixel's channels
    // scaled by what the colour leaves of them.
    const unsigned pr = draw_mul(r, a), pg = draw_mul(g, a), pb = draw_mul(b, a), inva = 255u - a;
    uint8_t *d = dst;
    for (size_t y = 0; y < rows; y++, d += pitch) {
        ahead(d, pitch, y, rows, width);
        uint32_t *p = (uint32_t *)d;
        for (size_t x = 0; x < width; x++) {
            const uint32_t v = p[x];
            const unsigned sr = draw_mul(inva, (v >> 16) & 0xFF) + pr;
            const unsigned sg = draw_mul(inva, (v >> 8) & 0xFF) + pg;
            const unsigned sb = draw_mul(inva, v & 0xFF) + pb;
            uint32_t out = (sr << 16) | (sg << 8) | sb;
            if (alpha) out |= (uint32_t)(draw_mul(inva, v >> 24) + a) << 24;
            p[x] = out;
        }
    }
}
