#ifndef KIOSK_CSDL2_SHIM_H
#define KIOSK_CSDL2_SHIM_H
#include <SDL.h>
#include <malloc.h>

// Helpers for the macros Swift cannot import (SDL_WINDOWPOS_*, SDL_BUTTON, SDL_TOUCH_MOUSEID) and glibc's malloc knobs.
static inline int kiosk_windowpos_undefined(void) { return (int)SDL_WINDOWPOS_UNDEFINED; }
static inline int kiosk_windowpos_centered(void) { return (int)SDL_WINDOWPOS_CENTERED; }
static inline Uint32 kiosk_button_mask(int button) { return SDL_BUTTON(button); }
static inline Uint32 kiosk_touch_mouse_id(void) { return SDL_TOUCH_MOUSEID; }

// glibc's mallopt, whose header Swift's Glibc module leaves out: fixed thresholds, so freed picture-sized
// blocks go back to the system, and at most `arenas` heaps for the decoding threads.
static inline void kiosk_return_freed_memory(int mmap_threshold, int arenas) {
    mallopt(M_MMAP_THRESHOLD, mmap_threshold);
    mallopt(M_TRIM_THRESHOLD, 2 * mmap_threshold);
    mallopt(M_ARENA_MAX, arenas);
}

// Gives the heap's free pages back to the system (after the caches let go of what an idle screen does not show).
static inline void kiosk_trim_heap(void) { malloc_trim(0); }
#endif
