#ifndef KIOSK_CSDL2TTF_SHIM_H
#define KIOSK_CSDL2TTF_SHIM_H
// SDL's own headers come from CSDL2 (its include guards then skip them here): included again here, Swift 6.0
// (Debian 13's) took SDL's enumerators as this module's, and code that imports only CSDL2 could not find them.
#pragma clang module import CSDL2
#include <SDL_ttf.h>
#endif
