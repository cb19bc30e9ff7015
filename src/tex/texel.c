/*
 * texel.c - decoding (and encoding) one texel of every texture format.
 *
 * Provisional: only RGBA8888/RGBX8888/RGBA32R are decoded so far; the full
 * format set (seed 004's table) replaces this.
 */
#include <string.h>

#include "base/base.h"
#include "vc4kit/tex.h"

bool vc4_tex_texel_is_wide(enum vc4_tex_format format)
{
    return format == VC4_TEX_S16F || format == VC4_TEX_S16 || format == VC4_TEX_RGBA64;
}

bool vc4_tex_read_texel(enum vc4_tex_format format, const struct vc4_tex_geom *g,
                        const uint8_t *image, size_t image_bytes, unsigned x, unsigned y,
                        struct vc4_texel *out)
{
    memset(out, 0, sizeof *out);
    if (!g || !image || x >= g->padded_w || y >= g->padded_h || g->bpp != 32)
        return false;
    if (format != VC4_TEX_RGBA8888 && format != VC4_TEX_RGBX8888 && format != VC4_TEX_RGBA32R)
        return false;
    uint32_t off = vc4_tex_byte_offset(g, x, y);
    if (off > image_bytes || image_bytes - off < 4)
        return false;
    out->w[0] = vc4_le32(image + off);
    if (format == VC4_TEX_RGBX8888)
        out->w[0] |= 0xFF000000u;
    return true;
}
