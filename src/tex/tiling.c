/*
 * tiling.c - where each pixel of a raster, LT or T image lives.
 *
 * Seed post 004 describes the layouts; Mesa vc4_tiling.c and the kernel's
 * vc4_validate.c agree on the sizes (see tex.h for the picture).
 */
#include <assert.h>

#include "base/base.h"
#include "vc4kit/tex.h"
#include "tex/tiling.h"

enum { MAX_DIM = 2048 }; /* P1 width/height are 11 bits, 0 meaning 2048 */

/* Utile sizes: 64 bytes, raster inside (seed 004: 32bpp 4x4, 64bpp 2x4,
 * 1bpp 32x16), as log2 so that every side is a power of two by
 * construction: the axes (tiling.h) divide by shifting. */
static const struct { uint8_t bpp, w_log2, h_log2; } utile_table[] = {
    {1, 5, 4}, {4, 4, 3}, {8, 3, 3}, {16, 3, 2}, {32, 2, 2}, {64, 1, 2},
};

bool vc4_tex_utile_dims(unsigned bpp, unsigned *w, unsigned *h)
{
    for (size_t i = 0; i < VC4_ARRAY_SIZE(utile_table); i++) {
        if (utile_table[i].bpp == bpp) {
            *w = 1u << utile_table[i].w_log2;
            *h = 1u << utile_table[i].h_log2;
            return true;
        }
    }
    return false;
}

static unsigned align_up(unsigned v, unsigned a) { return (v + a - 1) / a * a; }

bool vc4_tex_geom_init(struct vc4_tex_geom *g, enum vc4_tex_layout layout, unsigned bpp,
                       unsigned width, unsigned height)
{
    unsigned uw, uh;
    if (!vc4_tex_utile_dims(bpp, &uw, &uh) || width == 0 || height == 0 || width > MAX_DIM ||
        height > MAX_DIM)
        return false;
    struct vc4_tex_geom r = {.layout = layout, .bpp = bpp, .width = width, .height = height,
                             .utile_w = uw, .utile_h = uh};
    switch (layout) {
    case VC4_TEX_RASTER:
        r.padded_w = align_up(width, uw);
        r.padded_h = height;
        r.row_bytes = r.padded_w * bpp / 8;
        break;
    case VC4_TEX_LT:
        r.padded_w = align_up(width, uw);
        r.padded_h = align_up(height, uh);
        r.row_bytes = r.padded_w / uw * VC4_TEX_UTILE_BYTES;
        break;
    case VC4_TEX_T:
        r.padded_w = align_up(width, uw * VC4_TEX_TILE_UTILES);
        r.padded_h = align_up(height, uh * VC4_TEX_TILE_UTILES);
        r.row_bytes = r.padded_w / uw * VC4_TEX_UTILE_BYTES;
        break;
    default:
        return false;
    }
    r.size = r.layout == VC4_TEX_RASTER ? r.row_bytes * r.padded_h
                                        : r.row_bytes * (r.padded_h / uh);
    *g = r;
    return true;
}

uint64_t vc4_tex_bit_offset(const struct vc4_tex_geom *g, unsigned x, unsigned y)
{
    struct vc4_tex_axis ax = vc4_tex_axis_x(g, x), ay = vc4_tex_axis_y(g, y);
    return vc4_tex_axes_bit(&ay, &ax);
}

enum vc4_tex_layout vc4_tex_level_layout(unsigned bpp, unsigned width, unsigned height)
{
    unsigned uw, uh;
    if (!vc4_tex_utile_dims(bpp, &uw, &uh))
        return VC4_TEX_LT;
    return (width <= 4 * uw || height <= 4 * uh) ? VC4_TEX_LT : VC4_TEX_T;
}

/* ---- formats ------------------------------------------------------------ */

#define FMT(id, nm, bits, raster, desc)                                        \
    [id] = {.name = nm, .bpp = bits, .raster_only = raster, .description = desc}

static const struct vc4_tex_format_info formats[VC4_TEX_FORMAT_COUNT] = {
    FMT(VC4_TEX_RGBA8888, "RGBA8888", 32, false, "8-bit per channel red, green, blue, alpha"),
    FMT(VC4_TEX_RGBX8888, "RGBX8888", 32, false, "8-bit per channel RGB, alpha set to 1.0"),
    FMT(VC4_TEX_RGBA4444, "RGBA4444", 16, false, "4-bit per channel red, green, blue, alpha"),
    FMT(VC4_TEX_RGBA5551, "RGBA5551", 16, false, "5-bit per channel red, green, blue, 1-bit alpha"),
    FMT(VC4_TEX_RGB565, "RGB565", 16, false, "alpha channel set to 1.0"),
    FMT(VC4_TEX_LUMINANCE, "LUMINANCE", 8, false, "8-bit luminance (alpha channel set to 1.0)"),
    FMT(VC4_TEX_ALPHA, "ALPHA", 8, false, "8-bit alpha (RGB channels set to 0)"),
    FMT(VC4_TEX_LUMALPHA, "LUMALPHA", 16, false, "8-bit luminance, 8-bit alpha"),
    FMT(VC4_TEX_ETC1, "ETC1", 4, false, "Ericsson Texture Compression format"),
    FMT(VC4_TEX_S16F, "S16F", 16, false, "16-bit float sample (blending supported)"),
    FMT(VC4_TEX_S8, "S8", 8, false, "8-bit integer sample (blending supported)"),
    FMT(VC4_TEX_S16, "S16", 16, false, "16-bit integer sample (point sampling only)"),
    FMT(VC4_TEX_BW1, "BW1", 1, false, "1-bit black and white"),
    FMT(VC4_TEX_A4, "A4", 4, false, "4-bit alpha"),
    FMT(VC4_TEX_A1, "A1", 1, false, "1-bit alpha"),
    FMT(VC4_TEX_RGBA64, "RGBA64", 64, false, "16-bit float per RGBA channel"),
    FMT(VC4_TEX_RGBA32R, "RGBA32R", 32, true, "raster format 8-bit per channel red, green, blue, alpha"),
    FMT(VC4_TEX_YUYV422R, "YUYV422R", 32, true, "raster format 8-bit per channel Y, U, Y, V"),
};
static_assert(VC4_ARRAY_SIZE(formats) == VC4_TEX_FORMAT_COUNT, "one entry per format");

const struct vc4_tex_format_info *vc4_tex_format_info(unsigned format)
{
    return format < VC4_TEX_FORMAT_COUNT ? &formats[format] : NULL;
}
