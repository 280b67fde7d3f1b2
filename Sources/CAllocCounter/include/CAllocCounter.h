#ifndef CALLOCCOUNTER_H
#define CALLOCCOUNTER_H
#include <stdint.h>
/// The number of malloc, calloc and realloc calls made by the whole process so far.
uint64_t kiosk_allocation_count(void);
#endif
