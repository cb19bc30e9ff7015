/*
 * raster.h - the rasteriser: which pixels (and samples) of a tile a
 * triangle covers, in 2x2 quads grouped into 16-pixel batches (one
 * fragment-shader invocation each).
 *
 * Positions are the shaded vertices' 12.4 fixed-point screen coordinates
 * (hardware facts §2.4), x right and y down (frame row 0 is the top: the
 * seed posts' "top" vertex has y = 32).  Every coverage decision is exact
 * integer arithmetic on those 1/16-pixel positions.
 *
 * FILL RULE (vc4kit's; no open source states the hardware's, so this is
 * UNVERIFIED, see docs/rendering.md): a sample point is inside a triangle
 * when it is strictly inside all three edges, or exactly on an edge that is
 * a "top" or "left" edge (top-left rule, as in D3D/GL implementations):
 *   orient the triangle so that its signed area
 *       S = (x1-x0)(y2-y0) - (x2-x0)(y1-y0)  is positive (y down);
 *   edge a->b, E(p) = (xb-xa)(py-ya) - (yb-ya)(px-xa) > 0 inside;
 *   the edge is top-left when yb < ya (a left edge: it goes up the screen),
 *   or yb == ya and xb > xa (a horizontal top edge);
 *   p is covered when E(p) > 0 for every edge, E(p) = 0 only on top-left
 *   edges.
 * Two triangles sharing an edge therefore never both cover a point on it,
 * and a point on a shared vertex goes to exactly one of the triangles around
 * it; zero-area triangles cover nothing.
 *
 * Sample points: the pixel centre (x + 1/2, y + 1/2) without multisampling;
 * with multisample 4x the four points (3/8, 1/8), (7/8, 3/8), (1/8, 5/8),
 * (5/8, 7/8) of the pixel (the standard 4x rotated grid; UNVERIFIED for the
 * V3D), sample s = bit s of the coverage mask.
 *
 * Quads and batches (hardware facts §13): a quad is the 2x2 pixels at an
 * even (x, y), elements 0..3 = (x, y), (x+1, y), (x, y+1), (x+1, y+1); a
 * batch is up to 4 quads, quad q at elements 4q..4q+3.  Quads with no
 * covered sample are skipped; quads are taken in raster order of the quad
 * grid; the last batch of a primitive may hold fewer than 4 quads (the rest
 * of its elements are uncovered).
 */
#ifndef VC4_EMU_RASTER_H
#define VC4_EMU_RASTER_H

#include <stdbool.h>
#include <stdint.h>

#define VC4_RASTER_SIMD 16u
#define VC4_RASTER_QUADS 4u
#define VC4_RASTER_SUBPIXEL 16 /* 12.4 fixed point */
#define VC4_RASTER_CENTRE (VC4_RASTER_SUBPIXEL / 2) /* a pixel's centre from its corner, 1/16 px */

/* Sample positions inside a pixel, 1/16 pixel (multisample 4x). */
extern const uint8_t vc4_raster_sample_pos[4][2];

/* A triangle to rasterise: positions in 1/16 pixel, frame coordinates. */
struct vc4_raster_tri {
    int32_t x[3], y[3];
};

/* A rectangle of pixels, [x0, x1) x [y0, y1). */
struct vc4_raster_rect {
    int32_t x0, y0, x1, y1;
};

/* One 16-pixel batch. */
struct vc4_raster_batch {
    uint8_t nquads;
    uint16_t x[VC4_RASTER_SIMD], y[VC4_RASTER_SIMD]; /* frame pixel of each element */
    uint8_t cov[VC4_RASTER_SIMD]; /* covered samples: bit s (bit 0 without multisampling) */
};

/* Called for each batch; returning false stops the rasterisation. */
typedef bool (*vc4_raster_emit_fn)(void *user, const struct vc4_raster_batch *b);

/* The signed area S above (1/256 pixel^2; > 0 when the vertices go
 * clockwise on the screen, y down). */
int64_t vc4_raster_area(const struct vc4_raster_tri *t);

/*
 * Rasterise a triangle inside the rectangle (the tile, intersected with the
 * frame and the clip window): emit its batches.  ms = 4 samples per pixel.
 * Returns the number of covered samples (0 for a zero-area triangle), or
 * stops early (returning what was counted) when emit returns false.
 */
uint64_t vc4_raster_triangle(const struct vc4_raster_tri *t, const struct vc4_raster_rect *r, bool ms,
                             vc4_raster_emit_fn emit, void *user);

/* Is the sample point (px, py) (1/16 pixel) covered by the triangle? (the
 * same rule; for tests and single-point queries) */
bool vc4_raster_covers(const struct vc4_raster_tri *t, int64_t px, int64_t py);

#endif
