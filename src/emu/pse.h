/*
 * pse.h - primitive setup (PSE): from shaded vertices to what the
 * rasteriser and the fragment shaders need: the triangle(s) to cover
 * (points and lines become quads), facing, and the interpolation planes of
 * Z, 1/Wc and the varyings.
 *
 * Varyings (seed 002; hardware facts §9): the fragment shader reads
 *   V = A*(x - x0) + B*(y - y0)           (VARYING_READ, raddr 35)
 * gets C in r5 with it, and computes V*W + C with W in ra15.  vc4kit's PSE
 * makes that the perspective-correct value: with q_i = 1/Wc of vertex i and
 * v_i its varying, C = v_0 and (A, B) is the screen-space plane through
 * q_i * (v_i - v_0) at vertex i (0 at vertex 0, whose pixel position is
 * (x0, y0)); W = 1 / (the screen-space plane of q_i).  Then V*W + C is
 * sum(l_i q_i v_i) / sum(l_i q_i) for the screen barycentrics l_i: exactly
 * v_i at vertex i.  A flat-shaded varying (Flat Shade Flags bit k) has
 * A = B = 0 and C = the value of the primitive's last vertex, GL's
 * default provoking vertex (the third of a triangle as assembled, the
 * second of a line; of the primitive before clipping).  Evidence: piglit's
 * interpolation-none-gl_FrontColor-flat-none and its -fixed (near-plane
 * clipped) twin pass on Pi 3s in Mesa's CI, and so does clipflat with the
 * last vertex provoking, while its "PV: FIRST" cases fail there
 * (src/broadcom/ci/broadcom-rpi3-fails.txt); Mesa's vc4 has no switch for
 * the first vertex.
 * Z: Zs is interpolated linearly in screen space; the 24-bit Z of the TLB
 * and of rb15 is round(clamp(Zs, 0, 1) * 0xFFFFFF) (gl_FragCoord.z =
 * Z / 0xFFFFFF, facts §9).
 *
 * Arithmetic (deterministic whatever the host compiler contracts): plane
 * coefficients in double from the exact integer vertex positions, each
 * product its own statement; per-pixel values in double from float
 * coefficients and 1/16-pixel offsets (the products are exact), then
 * rounded once to float.
 */
#ifndef VC4_EMU_PSE_H
#define VC4_EMU_PSE_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/raster.h"

#define VC4_PSE_MAX_VARYINGS 64u
#define VC4_PSE_MAX_GENERATED 2u /* hardware-made varyings ahead of the record's (points: s, t) */
#define VC4_PSE_SETUP_VARYINGS (VC4_PSE_MAX_VARYINGS + VC4_PSE_MAX_GENERATED)
#define VC4_PSE_Z24_MAX 0xFFFFFFu /* 24-bit Z of the TLB and rb15 */

/* A shaded vertex at the PSE: screen position with the viewport offset
 * added (1/16 pixel), Zs, 1/Wc, point size, varyings. */
struct vc4_pse_vertex {
    int32_t x, y;
    float zs, inv_wc;
    float point_size;
    float vary[VC4_PSE_MAX_VARYINGS];
};

/* value(x, y) = c + a*dx + b*dy, dx / dy in pixels from the reference
 * vertex (vertex 0). */
struct vc4_pse_plane {
    double a, b, c;
};

struct vc4_pse_setup {
    int32_t x0, y0;              /* reference vertex, 1/16 pixel */
    struct vc4_pse_plane z, q;   /* Zs and 1/Wc */
    unsigned nvary;              /* varyings in read order: ngen generated, then the record's */
    unsigned ngen;               /* hardware-generated ones first: points 2, lines 1, triangles 0 */
    float va[VC4_PSE_SETUP_VARYINGS], vb[VC4_PSE_SETUP_VARYINGS], vc[VC4_PSE_SETUP_VARYINGS];
    bool reverse;                /* reverse-facing (REV_FLAG) */
};

/* The triangle's interpolation setup (vertices in the order given; the
 * first is the reference); flat varyings take provoke's values (the
 * primitive's last vertex: above).  False for a zero-area triangle. */
bool vc4_pse_setup_triangle(const struct vc4_pse_vertex *const v[3], const struct vc4_pse_vertex *provoke,
                            unsigned nvary,
                            uint32_t flat_flags, struct vc4_pse_setup *s);

/*
 * Depth offset (Configuration Bits 3, Depth Offset packet 101): the GL
 * polygon offset o = factor * m + units * r, with m = max(|dZs/dx|,
 * |dZs/dy|) of the triangle's Z plane (per pixel) and r = one step of the
 * 24-bit Z (1 / 0xFFFFFF in Zs), added to the plane's constant before the
 * per-pixel clamp and conversion.  factor and units arrive as "float 1-8-7"
 * (the top 16 bits of an f32, decoded exactly by the cl library).
 * UNVERIFIED: the unit step r, the arithmetic's precision (double here,
 * from the exact plane), and that points and lines get no offset (Mesa sets
 * the bit for offset_tri only; vc4kit offsets triangles only).
 */
void vc4_pse_depth_offset(struct vc4_pse_setup *s, float factor, float units);

/*
 * Facing (Configuration Bits 0-2, hardware facts §3.4): "clockwise" is
 * the winding of the forward-facing primitives, measured with the y-down
 * screen coordinates read as a y-up plane: a triangle is clockwise when
 * vc4_raster_area() < 0 (it looks counter-clockwise on the screen).  Mesa
 * (vc4_state.c) sets the bit for gallium's front_ccw, whose triangles have
 * that negative area in the driver's y-down window; the binner (ptb.c)
 * culls by the same rule.  Returns true when the triangle is drawn;
 * *reverse = it is reverse-facing.
 */
bool vc4_pse_facing(int64_t area, bool enable_forward, bool enable_reverse, bool clockwise,
                    bool *reverse);

/*
 * Points and lines are drawn as quads (two triangles, so the fill rule
 * keeps their pixels exactly once):
 *  - a point: the square of side point_size centred on the vertex;
 *  - a line: the parallelogram swept by a segment of length line_width
 *    across the line's minor axis (vertical for |dx| >= |dy|, else
 *    horizontal), centred on the line.
 * Half sizes are truncated to 1/16 pixel (UNVERIFIED).  The four corners
 * are written to corners[4] as two triangles (0,1,2) and (0,2,3), every
 * corner with the attributes of its end (vertex a or b); false when the
 * size truncates to 0.
 */
bool vc4_pse_point_quad(const struct vc4_pse_vertex *v, float size, struct vc4_raster_tri tri[2]);
bool vc4_pse_line_quad(const struct vc4_pse_vertex *a, const struct vc4_pse_vertex *b, float width,
                       struct vc4_raster_tri tri[2], unsigned end_of_corner[4]);

/*
 * Hardware-generated varyings of points and lines.  For a point primitive
 * the fragment shader's first two VARYING_READs return the point sprite
 * coordinates (s, t), for a line primitive the first returns the line
 * coordinate; the shader's own varyings (the record's count) follow.  They
 * are not counted in the shader record's "number of varyings", and the
 * Flat Shade Flags index the record's varyings only (bit k = the record's
 * varying k).  Triangles have none.  Evidence: Mesa vc4 (vc4_program.c,
 * vc4_compile: for is_points it emits point_x then point_y, for is_lines
 * line_x, with emit_fragment_varying(c, ~0, 0) before any input;
 * vc4_setup_compiled_fs_inputs skips the ~0 slots when it counts num_inputs,
 * which vc4_draw.c writes as fragment_shader_number_of_varyings and whose
 * indices build color_inputs, the Flat Shade Flags of vc4_emit.c).  Mesa's
 * V3D compiler (broadcom/compiler/nir_to_vir.c) emits the same implicit
 * varyings unconditionally for devinfo->ver < 40, so the hardware always
 * makes them for point and line primitives, NV and GL mode alike
 * (UNVERIFIED for NV mode: no public NV program draws points or lines).
 *
 * Values (each a plane read with the varying formula, V*W + C, C = the
 * value at the primitive's vertex):
 *  - point s: 0 at the left edge of the point's square, 1 at the right;
 *    t: 0 at its bottom edge (larger screen y), 1 at its top.  The t
 *    direction is inferred from Mesa: vc4_nir_lower_io.c gives
 *    gl_PointCoord.t = 1 - t for gallium's PIPE_SPRITE_COORD_UPPER_LEFT
 *    (st_atom_rasterizer.c chooses it for GL's upper-left origin on y-0-top
 *    framebuffers), so the hardware's t grows upwards on the screen.  The
 *    square is the drawn one (side = 2 x the truncated half size).  Exact
 *    per fragment: W is the point's own Wc, A = q/side, B = -q/side (q =
 *    1/Wc), C = 0.5 at the centre.
 *  - line coordinate: 0 to 1 across the width of the line ("The line coord
 *    varies from 0.0 to 1.0 across the width of the line", Mesa
 *    broadcom/compiler/v3d_nir_lower_line_smooth.c, V3D 4.x, whose compiler
 *    reads it the same way as vc4's), measured along the minor axis of
 *    vc4kit's line quad, 0.5 on the line.  UNVERIFIED: which side is 0
 *    (vc4kit: smaller y for an x-major line, smaller x for a y-major one),
 *    and perspective: the plane uses the first end's 1/Wc, exact when both
 *    ends have the same Wc.  Mesa vc4 reads line_x but never uses it.
 * The arithmetic of the generated planes (double, rounded once to float
 * like the others) is UNVERIFIED.
 */

/* Setup of a point (constant attributes: A = B = 0) with its two generated
 * varyings (s, t) for a square of the given size (vc4_pse_point_quad). */
void vc4_pse_setup_point(const struct vc4_pse_vertex *v, float size, unsigned nvary,
                         struct vc4_pse_setup *s);
/* Setup of a line: attributes vary along the line only (the plane through
 * both ends, constant across it), with the generated line coordinate of a
 * line of the given width (vc4_pse_line_quad).  The record's flat_flags
 * bit k is its varying k, which takes provoke's value (the line's second
 * vertex before clipping). */
bool vc4_pse_setup_line(const struct vc4_pse_vertex *a, const struct vc4_pse_vertex *b,
                        const struct vc4_pse_vertex *provoke, float width,
                        unsigned nvary, uint32_t flat_flags, struct vc4_pse_setup *s);

/* ---- per-pixel values (sample point in 1/16 pixel) ------------------------ */

/* V of varying k (what VARYING_READ returns). */
float vc4_pse_vary(const struct vc4_pse_setup *s, unsigned k, int64_t px16, int64_t py16);
/* A batch's pixel centres as offsets from the reference vertex, in pixels
 * (multiples of 1/16: exact), for vc4_pse_vary16. */
struct vc4_pse_offsets {
    double dx[VC4_RASTER_SIMD], dy[VC4_RASTER_SIMD];
};
void vc4_pse_centres(const struct vc4_pse_setup *s, const uint16_t x[VC4_RASTER_SIMD],
                     const uint16_t y[VC4_RASTER_SIMD], struct vc4_pse_offsets *o);
/* vc4_pse_vary at those 16 centres, as f32 bits (what a VARYING_READ
 * returns to the batch's elements). */
void vc4_pse_vary16(const struct vc4_pse_setup *s, unsigned k, const struct vc4_pse_offsets *o,
                    uint32_t out[VC4_RASTER_SIMD]);
/* W = 1 / (interpolated 1/Wc), as f32 bits (ra15). */
uint32_t vc4_pse_w(const struct vc4_pse_setup *s, int64_t px16, int64_t py16);
/* The 24-bit Z (rb15, TLB). */
uint32_t vc4_pse_z24(const struct vc4_pse_setup *s, int64_t px16, int64_t py16);
/* Both at one point (a pixel centre's payload, found once). */
void vc4_pse_w_z24(const struct vc4_pse_setup *s, int64_t px16, int64_t py16, uint32_t *w, uint32_t *z);

#endif
