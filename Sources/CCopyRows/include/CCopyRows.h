#ifndef CCOPYROWS_H
#define CCOPYROWS_H
#include <stddef.h>
/// Copies `rows` rows of `rowBytes` bytes from `src` (rows `srcPitch` bytes apart) to `dst` (`dstPitch` apart),
/// the same bytes as a memcpy of each row. With `stream` the stores bypass the cache (non-temporal): a copy larger
/// than the cache then writes memory without first reading what it overwrites, a third less traffic; a small
/// copy that is drawn over next (a label's) should keep its pixels in cache (`stream` 0: memcpy).
void kiosk_copy_rows(void *dst, ptrdiff_t dstPitch, const void *src, ptrdiff_t srcPitch, size_t rowBytes,
                     size_t rows, int stream);
#endif
