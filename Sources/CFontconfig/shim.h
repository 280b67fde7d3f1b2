#ifndef KIOSK_CFONTCONFIG_SHIM_H
#define KIOSK_CFONTCONFIG_SHIM_H
#include <fontconfig/fontconfig.h>
#endif
