/*
 * texel.h - one texel read where the caller already knows its address
 * (texel.c), for the TMU's sampler, which computes each element's offset
 * once for the read and its cache model (emu/tmu_tex.c).
 */
#ifndef VC4_TEX_TEXEL_H
#define VC4_TEX_TEXEL_H

#include <stddef.h>
#include <stdint.h>

#include "vc4kit/tex.h"

/* What vc4_tex_read_texel returns for pixel (x, y), given the bit offset of
 * its element (vc4_tex_bit_offset of (x, y); ETC1: of its 4x4 block, with
 * (x, y) the pixel, whose place in the block is x % 4, y % 4).  format must
 * be a format and bpp its layout bpp (vc4_tex_format_layout_bpp); the read
 * is bounds-checked against image_bytes: outside, *out is zero and the
 * result false. */
bool vc4_tex_read_texel_at(enum vc4_tex_format format, unsigned bpp, const uint8_t *image,
                           size_t image_bytes, uint64_t bit, unsigned x, unsigned y,
                           struct vc4_texel *out);

/* Is the returned texel of this format its 32-bit element itself, OR *set
 * (the formats stored as bytes R, G, B, A)?  vc4_tex_read_texel_at's
 * shortcut, for callers that read such elements themselves. */
bool vc4_tex_texel_direct(enum vc4_tex_format format, uint32_t *set);

#endif
