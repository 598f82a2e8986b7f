#ifndef SEGUE_CHEIF_SHIM_H
#define SEGUE_CHEIF_SHIM_H

// libheif (Debian's libheif-dev 1.15): HEIC/HEIF photos, read by SegueMedia only.
#include <libheif/heif.h>

#endif
