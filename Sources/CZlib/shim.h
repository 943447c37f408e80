#ifndef HAPTICBRIDGE_CZLIB_SHIM_H
#define HAPTICBRIDGE_CZLIB_SHIM_H
#include <zlib.h>
#endif
