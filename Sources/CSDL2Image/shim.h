#ifndef KIOSK_CSDL2IMAGE_SHIM_H
#define KIOSK_CSDL2IMAGE_SHIM_H
#include <SDL_image.h>
#endif
