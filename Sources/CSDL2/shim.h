#ifndef KIOSK_CSDL2_SHIM_H
#define KIOSK_CSDL2_SHIM_H
#include <SDL.h>

// Helpers for the macros Swift cannot import (shared/design/platform.md).
static inline int kiosk_windowpos_undefined(void) { return (int)SDL_WINDOWPOS_UNDEFINED; }
static inline int kiosk_windowpos_centered(void) { return (int)SDL_WINDOWPOS_CENTERED; }
static inline Uint32 kiosk_button_mask(int button) { return SDL_BUTTON(button); }
static inline Uint32 kiosk_touch_mouse_id(void) { return SDL_TOUCH_MOUSEID; }
#endif
