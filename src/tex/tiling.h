/*
 * tiling.h - the layouts' arithmetic inside the texture library: where an
 * element of a raster, LT or T image lives (tiling.c, and inlined by the
 * TMU's sampler, emu/tmu_tex.c, which asks it for every texel).
 *
 * Seed post 004 describes the layouts; Mesa vc4_tiling.c and the kernel's
 * vc4_validate.c agree on the sizes (see vc4kit/tex.h for the picture):
 *
 *   T image:   4K tiles, rows of them; odd tile rows run right to left
 *   4K tile:   2 x 2 sub-tiles of 1 KB, in the order  even rows: 1 2   odd rows: 3 0
 *                                                                0 3             2 1
 *              (slot numbers; row 0 of the picture is the lower one)
 *   sub-tile:  4 x 4 utiles of 64 bytes, raster order
 *   utile:     64 bytes of elements, raster order (32 bpp: 4 x 4)
 *   LT image:  utiles in raster order;  raster image: rows of elements
 */
#ifndef VC4_TEX_TILING_H
#define VC4_TEX_TILING_H

#include <assert.h>
#include <stdint.h>

#include "vc4kit/tex.h"

/* Bytes in a micro-tile, a sub-tile and a 4K tile. */
enum {
    VC4_TEX_UTILE_BYTES = 64,
    VC4_TEX_SUBTILE_UTILES_LOG2 = 2, /* a sub-tile is 4 x 4 utiles = 1 KB */
    VC4_TEX_SUBTILE_UTILES = 1 << VC4_TEX_SUBTILE_UTILES_LOG2,
    VC4_TEX_SUBTILE_BYTES = VC4_TEX_SUBTILE_UTILES * VC4_TEX_SUBTILE_UTILES * VC4_TEX_UTILE_BYTES,
    VC4_TEX_TILE_SUBTILES = 2, /* a 4K tile is 2 x 2 sub-tiles */
    VC4_TEX_TILE_BYTES = VC4_TEX_TILE_SUBTILES * VC4_TEX_TILE_SUBTILES * VC4_TEX_SUBTILE_BYTES,
    VC4_TEX_TILE_UTILES_LOG2 = VC4_TEX_SUBTILE_UTILES_LOG2 + 1, /* (2 sub-tiles a side) */
    VC4_TEX_TILE_UTILES = VC4_TEX_SUBTILE_UTILES * VC4_TEX_TILE_SUBTILES,
};
static_assert(VC4_TEX_TILE_UTILES == 1 << VC4_TEX_TILE_UTILES_LOG2 && VC4_TEX_TILE_SUBTILES == 2,
              "the axes' shifts");

/* Which 1 KB slot a sub-tile (sx, sy) takes in a 4K tile on an even or odd
 * tile row. */
static const uint8_t vc4_tex_subtile_slot[2][2][2] = {
    /* even rows: lower left, upper left, upper right, lower right */
    [0] = {[0] = {[0] = 0, [1] = 1}, [1] = {[0] = 3, [1] = 2}},
    /* odd rows: upper right, lower right, lower left, upper left */
    [1] = {[0] = {[0] = 2, [1] = 3}, [1] = {[0] = 1, [1] = 0}},
};

/*
 * One coordinate's share of an element's bit offset.  In every layout the
 * offset is an x part plus a y part, but for two couplings in T images,
 * both through the parity of the 4K tile row: odd tile rows run right to
 * left, and the sub-tiles' order in a tile depends on it (and on which
 * half of the tile the element is in, across and up).  So an x axis
 * carries its part for both parities, a y axis its parity, and both their
 * half of the tile; vc4_tex_axes_bit adds them up.  Samplers compute each
 * row and column of a bilinear footprint once.
 *
 * Divisions are shifts: utile sides are powers of two (tiling.c's table),
 * and so are the sub-tile and tile sides in utiles.  (A hand-made geometry
 * with other sides gets some offset, which the callers bounds-check like
 * any other.)  Coordinates are below the padded size.
 */
struct vc4_tex_axis {
    uint64_t bit[2]; /* x: the part on even / odd tile rows; y: the part (twice) */
    uint8_t half;    /* which half of its 4K tile, across (x) or up (y); 0 outside T */
    uint8_t odd;     /* y: the parity of its tile row (0 outside T); x: 0 */
};

/* log2 of a utile side (| 1 << 31: ctz of 0 is undefined) */
static inline unsigned vc4_tex_utile_log2(unsigned side) { return (unsigned)__builtin_ctz(side | 1u << 31); }

static inline struct vc4_tex_axis vc4_tex_axis_x(const struct vc4_tex_geom *g, unsigned x)
{
    struct vc4_tex_axis a = {{0, 0}, 0, 0};
    unsigned wl = vc4_tex_utile_log2(g->utile_w);
    uint64_t in_utile = (uint64_t)(x & (g->utile_w - 1)) * g->bpp;
    unsigned ux = x >> wl; /* utile column */
    switch (g->layout) {
    case VC4_TEX_RASTER:
        a.bit[0] = (uint64_t)x * g->bpp;
        break;
    case VC4_TEX_LT:
        a.bit[0] = (uint64_t)ux * VC4_TEX_UTILE_BYTES * 8 + in_utile;
        break;
    case VC4_TEX_T: {
        unsigned tiles_per_row = g->padded_w >> wl >> VC4_TEX_TILE_UTILES_LOG2;
        unsigned tx = ux >> VC4_TEX_TILE_UTILES_LOG2;                       /* 4K tile column */
        unsigned in_x = ux & (VC4_TEX_SUBTILE_UTILES - 1);                   /* utile in its sub-tile */
        uint64_t in_tile = (uint64_t)in_x * VC4_TEX_UTILE_BYTES * 8 + in_utile;
        a.bit[0] = (uint64_t)tx * VC4_TEX_TILE_BYTES * 8 + in_tile;
        a.bit[1] = (uint64_t)(tiles_per_row - 1 - tx) * VC4_TEX_TILE_BYTES * 8 + in_tile; /* right to left */
        a.half = ux >> VC4_TEX_SUBTILE_UTILES_LOG2 & 1;
        return a;
    }
    }
    a.bit[1] = a.bit[0];
    return a;
}

static inline struct vc4_tex_axis vc4_tex_axis_y(const struct vc4_tex_geom *g, unsigned y)
{
    struct vc4_tex_axis a = {{0, 0}, 0, 0};
    unsigned wl = vc4_tex_utile_log2(g->utile_w), hl = vc4_tex_utile_log2(g->utile_h);
    uint64_t in_utile = (uint64_t)((y & (g->utile_h - 1)) << wl) * g->bpp; /* raster inside a utile */
    unsigned uy = y >> hl;                                                  /* utile row */
    switch (g->layout) {
    case VC4_TEX_RASTER:
        a.bit[0] = (uint64_t)y * g->row_bytes * 8;
        break;
    case VC4_TEX_LT:
        a.bit[0] = (uint64_t)uy * (g->padded_w >> wl) * VC4_TEX_UTILE_BYTES * 8 + in_utile;
        break;
    case VC4_TEX_T: {
        unsigned tiles_per_row = g->padded_w >> wl >> VC4_TEX_TILE_UTILES_LOG2;
        unsigned ty = uy >> VC4_TEX_TILE_UTILES_LOG2;     /* 4K tile row */
        unsigned in_y = uy & (VC4_TEX_SUBTILE_UTILES - 1); /* utile row in its sub-tile */
        a.bit[0] = ((uint64_t)ty * tiles_per_row * VC4_TEX_TILE_BYTES +
                    (uint64_t)in_y * VC4_TEX_SUBTILE_UTILES * VC4_TEX_UTILE_BYTES) * 8 + in_utile;
        a.half = uy >> VC4_TEX_SUBTILE_UTILES_LOG2 & 1;
        a.odd = ty & 1;
        break;
    }
    }
    a.bit[1] = a.bit[0];
    return a;
}

/* The axis of column x + 1 from a, that of column x: inside a utile it is
 * one element further on both tile-row parities, in the same sub-tile and
 * half (every layout puts a utile's row of elements in order); a column
 * that starts a utile is computed afresh.  (The second column of
 * tmu_tex.c's bilinear footprints, and the row walks below.) */
static inline struct vc4_tex_axis vc4_tex_axis_x_next(const struct vc4_tex_geom *g, const struct vc4_tex_axis *a,
                                                      unsigned x)
{
    if (((x + 1u) & (g->utile_w - 1u)) == 0)
        return vc4_tex_axis_x(g, x + 1u);
    struct vc4_tex_axis n = *a;
    n.bit[0] += g->bpp;
    n.bit[1] += g->bpp;
    return n;
}

/* The bit offset of the element at (x, y) from its two axes. */
static inline uint64_t vc4_tex_axes_bit(const struct vc4_tex_axis *y, const struct vc4_tex_axis *x)
{
    return y->bit[0] + x->bit[y->odd] +
           (uint64_t)vc4_tex_subtile_slot[y->odd][x->half][y->half] * VC4_TEX_SUBTILE_BYTES * 8;
}

/* Walking a row of elements left to right: the row's axis once, each
 * column's stepped from the last (vc4_tex_axis_x_next), each offset the
 * same as vc4_tex_bit_offset's.  (Tile loads and stores, frame reads.) */
struct vc4_tex_row_walk {
    const struct vc4_tex_geom *g;
    struct vc4_tex_axis y, x;
    unsigned col; /* the column x's axis is of */
};

static inline void vc4_tex_row_begin(struct vc4_tex_row_walk *w, const struct vc4_tex_geom *g, unsigned x,
                                     unsigned y)
{
    w->g = g;
    w->y = vc4_tex_axis_y(g, y);
    w->x = vc4_tex_axis_x(g, x);
    w->col = x;
}

/* The bit offset of the walk's element, then a step to the next column. */
static inline uint64_t vc4_tex_row_next(struct vc4_tex_row_walk *w)
{
    uint64_t bit = vc4_tex_axes_bit(&w->y, &w->x);
    w->x = vc4_tex_axis_x_next(w->g, &w->x, w->col++);
    return bit;
}

/* The bit offset of the walk's element, and in *n how many elements from
 * it on (at most `most`, at least 1) lie one after another in memory: the
 * rest of the image row in a raster image, else the rest of the element's
 * row of its utile (every layout puts a utile's row in order).  The walk
 * steps past them.  (Tile loads and stores: a copy per run.) */
static inline uint64_t vc4_tex_row_run(struct vc4_tex_row_walk *w, unsigned most, unsigned *n)
{
    uint64_t bit = vc4_tex_axes_bit(&w->y, &w->x);
    unsigned left = w->g->layout == VC4_TEX_RASTER ? most : w->g->utile_w - (w->col & (w->g->utile_w - 1u));
    *n = left < most ? left : most;
    w->col += *n;
    w->x = vc4_tex_axis_x(w->g, w->col);
    return bit;
}

#endif
