#ifndef CALLOCCOUNTER_H
#define CALLOCCOUNTER_H
#include <stdint.h>
/// The number of malloc, calloc and realloc calls made by the whole process so far.
uint64_t kiosk_allocation_count(void);
/// Pins the process to its last online CPU (what it starts inherits it); returns 0 on success.
int kiosk_pin_to_last_cpu(void);
/// Lets the process run on every online CPU again.
void kiosk_unpin(void);
#endif
