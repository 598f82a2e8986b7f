#ifndef SEGUE_CLCMS_SHIM_H
#define SEGUE_CLCMS_SHIM_H

// LittleCMS 2 (Debian's liblcms2-dev 2.14): a photo's ICC profile applied, by SegueMedia only.
#include <lcms2.h>

// lcms2.h builds its pixel types from function-like macros, which Swift
// can't import: one function for each type SegueMedia hands it.

/// Packed 8-bit RGB (rgb24).
static inline cmsUInt32Number clcms_type_rgb_8(void) { return TYPE_RGB_8; }
/// Packed 16-bit RGB in the machine's byte order (rgb48le on x86-64 and arm64).
static inline cmsUInt32Number clcms_type_rgb_16(void) { return TYPE_RGB_16; }

#endif
