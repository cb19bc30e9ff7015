/*
 * cl_internal.h - helpers shared by the cl layer's files (internal).
 */
#ifndef VC4_CL_CL_INTERNAL_H
#define VC4_CL_CL_INTERNAL_H

#include "base/base.h"
#include "vc4kit/cl.h"

/* vc4_cl_layout_pack with the packet/record name in the diagnostic. */
enum vc4_status cl_layout_pack_named(const struct vc4_cl_layout *l, const uint64_t *values,
                                     uint8_t *out, const struct vc4_diag_sink *sink,
                                     const char *what);

/* Largest fixed packet (Tile Binning Mode Configuration, 16 bytes). */
enum { CL_MAX_FIXED_PACKET = 16 };

#endif
