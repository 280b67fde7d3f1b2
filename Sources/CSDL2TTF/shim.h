#ifndef KIOSK_CSDL2TTF_SHIM_H
#define KIOSK_CSDL2TTF_SHIM_H
#include <SDL_ttf.h>
#endif
