/*
 * tiling.c - where each pixel of a raster, LT or T image lives.
 *
 * Seed post 004 describes the layouts; Mesa vc4_tiling.c and the kernel's
 * vc4_validate.c agree on the sizes (see tex.h for the picture).
 */
#include <assert.h>

#include "base/base.h"
#include "vc4kit/tex.h"

/* Bytes in a micro-tile, a sub-tile and a 4K tile. */
enum {
    UTILE_BYTES = 64,
    SUBTILE_UTILES = 4, /* a sub-tile is 4 x 4 utiles = 1 KB */
    SUBTILE_BYTES = SUBTILE_UTILES * SUBTILE_UTILES * UTILE_BYTES,
    TILE_SUBTILES = 2,  /* a 4K tile is 2 x 2 sub-tiles */
    TILE_BYTES = TILE_SUBTILES * TILE_SUBTILES * SUBTILE_BYTES,
    TILE_UTILES = SUBTILE_UTILES * TILE_SUBTILES,
    MAX_DIM = 2048, /* P1 width/height are 11 bits, 0 meaning 2048 */
};

/* Utile sizes: 64 bytes, raster inside (seed 004: 32bpp 4x4, 64bpp 2x4, 1bpp 32x16). */
static const struct { uint8_t bpp, w, h; } utile_table[] = {
    {1, 32, 16}, {4, 16, 8}, {8, 8, 8}, {16, 8, 4}, {32, 4, 4}, {64, 2, 4},
};

bool vc4_tex_utile_dims(unsigned bpp, unsigned *w, unsigned *h)
{
    for (size_t i = 0; i < VC4_ARRAY_SIZE(utile_table); i++) {
        if (utile_table[i].bpp == bpp) {
            *w = utile_table[i].w;
            *h = utile_table[i].h;
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
        r.row_bytes = r.padded_w / uw * UTILE_BYTES;
        break;
    case VC4_TEX_T:
        r.padded_w = align_up(width, uw * TILE_UTILES);
        r.padded_h = align_up(height, uh * TILE_UTILES);
        r.row_bytes = r.padded_w / uw * UTILE_BYTES;
        break;
    default:
        return false;
    }
    r.size = r.layout == VC4_TEX_RASTER ? r.row_bytes * r.padded_h
                                        : r.row_bytes * (r.padded_h / uh);
    *g = r;
    return true;
}

/* Bit offset of (x, y) inside its utile: raster order, row 0 first. */
static uint64_t in_utile(const struct vc4_tex_geom *g, unsigned x, unsigned y)
{
    return ((uint64_t)(y % g->utile_h) * g->utile_w + x % g->utile_w) * g->bpp;
}

/* Which 1 KB slot a sub-tile (sx, sy) takes in a 4K tile on an even or odd tile row. */
static const uint8_t subtile_slot[2][2][2] = {
    /* even rows: lower left, upper left, upper right, lower right */
    [0] = {[0] = {[0] = 0, [1] = 1}, [1] = {[0] = 3, [1] = 2}},
    /* odd rows: upper right, lower right, lower left, upper left */
    [1] = {[0] = {[0] = 2, [1] = 3}, [1] = {[0] = 1, [1] = 0}},
};

uint64_t vc4_tex_bit_offset(const struct vc4_tex_geom *g, unsigned x, unsigned y)
{
    switch (g->layout) {
    case VC4_TEX_RASTER:
        return (uint64_t)y * g->row_bytes * 8 + (uint64_t)x * g->bpp;
    case VC4_TEX_LT: {
        uint64_t utile = (uint64_t)(y / g->utile_h) * (g->padded_w / g->utile_w) + x / g->utile_w;
        return utile * UTILE_BYTES * 8 + in_utile(g, x, y);
    }
    case VC4_TEX_T: {
        unsigned ux = x / g->utile_w, uy = y / g->utile_h;     /* utile coordinates */
        unsigned tiles_per_row = g->padded_w / g->utile_w / TILE_UTILES;
        unsigned tx = ux / TILE_UTILES, ty = uy / TILE_UTILES; /* 4K tile */
        unsigned odd = ty & 1;
        unsigned tx_mem = odd ? tiles_per_row - 1 - tx : tx;   /* odd rows run right to left */
        unsigned sx = ux / SUBTILE_UTILES % TILE_SUBTILES, sy = uy / SUBTILE_UTILES % TILE_SUBTILES;
        unsigned in_x = ux % SUBTILE_UTILES, in_y = uy % SUBTILE_UTILES;
        uint64_t bytes = (uint64_t)(ty * tiles_per_row + tx_mem) * TILE_BYTES +
                         (uint64_t)subtile_slot[odd][sx][sy] * SUBTILE_BYTES +
                         (uint64_t)(in_y * SUBTILE_UTILES + in_x) * UTILE_BYTES;
        return bytes * 8 + in_utile(g, x, y);
    }
    }
    return 0;
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
