/*
 * tex_scene.h - textured NV-mode scenes built with the library (the scene
 * machinery is examples/nv_scene.h):
 *
 *  - the seed's textured triangle (seed 004): the 640x480 seed triangle
 *    with two varyings S, T, shaded by the fragment shader words exactly as
 *    posted (examples/seeds/texture_fragment_shader.hex, followed by the
 *    thread end of seed 002), uniforms = texture config parameters P0, P1;
 *    the texture is a 16x16 picture, given to the TMU in T format (as a
 *    32x32 texture of 2x2 copies: a 16x16 texture is LT by size), in LT
 *    format (16x16) and in raster format (RGBA32R, 16x16).  Point sampling
 *    makes the three images identical: texel floor(32 s) / 2 = floor(16 s);
 *  - a mip-mapped, trilinear-filtered plane in perspective: two triangles
 *    of a ground plane from 1.5 to 40 units away, 1/Wc per vertex so S, T
 *    are interpolated perspective-correctly, a 64x64 T-format checker with
 *    its full mip chain (7 levels, box-filtered), shaded by
 *    examples/tex_plane.qasm.
 *
 * Texture config parameter fields: Mesa vc4_packet.h VC4_TEX_P0_* / P1_*
 * (seed 004 gives the same layout).
 */
#ifndef VC4_EXAMPLES_TEX_SCENE_H
#define VC4_EXAMPLES_TEX_SCENE_H

#include "nv_scene.h"
#include "vc4kit/tex.h"

#ifndef VC4KIT_EXAMPLES_DIR
#define VC4KIT_EXAMPLES_DIR "examples"
#endif

#define TX_TEXTURE 0x00800000u /* the texture buffer (its base is 4 KiB aligned above) */

enum {
    TX_P0_TYPE_SHIFT = 4,       /* TYPE bits 3:0 */
    TX_P0_MIPLVLS_SHIFT = 0,
    TX_P1_TYPE4_SHIFT = 31,     /* TYPE bit 4 */
    TX_P1_HEIGHT_SHIFT = 20,
    TX_P1_WIDTH_SHIFT = 8,
    TX_P1_MAGFILT_SHIFT = 7,    /* 0 linear, 1 nearest */
    TX_P1_MINFILT_SHIFT = 4,    /* 0 linear, 1 nearest, 2..5 mip modes */
    TX_P1_WRAP_T_SHIFT = 2,     /* 0 repeat, 1 clamp, 2 mirror, 3 border */
    TX_P1_WRAP_S_SHIFT = 0,
    TX_MIN_NEAREST = 1,
    TX_MIN_LIN_MIP_LIN = 5,
    TX_WRAP_REPEAT = 0,
    TX_WRAP_CLAMP = 1,
};

/* A texture to place at TX_TEXTURE: the host image (8-bit RGBA, row 0 at
 * the top) and how to encode it; layout/uniforms are filled by tx_prepare. */
struct tx_texture {
    enum vc4_tex_format format;
    enum vc4_tex_layout layout;
    unsigned width, height, levels;
    uint8_t *rgba;
    struct vc4_tex_mip_layout m;
    uint32_t base;              /* bus address of level 0 */
    uint32_t uniforms[4];       /* P0, P1, then the shader's own */
};

/* Lay the texture out and make its P0, P1 (filters and wraps given). */
static inline bool tx_prepare(struct tx_texture *t, unsigned mag_nearest, unsigned minfilt,
                              unsigned wrap)
{
    if (vc4_tex_mip_layout(&t->m, t->format, t->layout, t->width, t->height, t->levels, 1, NULL) !=
        VC4_OK)
        return false;
    t->base = TX_TEXTURE + t->m.base_offset;
    unsigned type = (unsigned)t->format;
    t->uniforms[0] = t->base | (type & 15u) << TX_P0_TYPE_SHIFT |
                     (t->levels - 1u) << TX_P0_MIPLVLS_SHIFT;
    t->uniforms[1] = (uint32_t)(type >> 4) << TX_P1_TYPE4_SHIFT |
                     (t->height & 2047u) << TX_P1_HEIGHT_SHIFT |
                     (t->width & 2047u) << TX_P1_WIDTH_SHIFT | mag_nearest << TX_P1_MAGFILT_SHIFT |
                     minfilt << TX_P1_MINFILT_SHIFT | wrap << TX_P1_WRAP_T_SHIFT |
                     wrap << TX_P1_WRAP_S_SHIFT;
    return true;
}

/* sc_params.setup: encode the texture (mip chain by the library's box
 * filter) and write it into the emulator's memory. */
static inline bool tx_setup(struct vc4_emu *emu, const void *user)
{
    const struct tx_texture *t = user;
    uint8_t *buf = calloc(1, t->m.size);
    const uint8_t *faces[1] = {t->rgba};
    bool ok = buf && vc4_tex_encode_texture(&t->m, buf, t->m.size, faces, (size_t)t->width * 4,
                                            false, NULL) == VC4_OK &&
              vc4_emu_mem_write(emu, TX_TEXTURE, buf, t->m.size) == VC4_OK;
    free(buf);
    return ok;
}

static inline void tx_put(uint8_t *p, unsigned r, unsigned g, unsigned b)
{
    p[0] = (uint8_t)r;
    p[1] = (uint8_t)g;
    p[2] = (uint8_t)b;
    p[3] = 255;
}

/* The seed triangle's 16x16 picture: a red/green ramp, blue 4x4 checker,
 * a white frame and a black "F" (so that flips and mirrors show), drawn at
 * `scale` texels per picture pixel. */
static inline uint8_t *tx_picture(unsigned scale)
{
    unsigned n = 16 * scale;
    uint8_t *img = malloc((size_t)n * n * 4);
    if (!img)
        return NULL;
    for (unsigned py = 0; py < n; py++)
        for (unsigned px = 0; px < n; px++) {
            unsigned x = px / scale, y = py / scale;
            uint8_t *p = img + ((size_t)py * n + px) * 4;
            bool frame = x == 0 || y == 0 || x == 15 || y == 15;
            bool glyph = (x == 4 && y >= 3 && y <= 12) || (y == 3 && x >= 4 && x <= 10) ||
                         (y == 7 && x >= 4 && x <= 8);
            if (frame)
                tx_put(p, 255, 255, 255);
            else if (glyph)
                tx_put(p, 0, 0, 0);
            else
                tx_put(p, 40 + 13 * x, 40 + 13 * y, ((x >> 2) ^ (y >> 2)) & 1u ? 220 : 70);
        }
    return img;
}

/* The plane's 64x64 checker: 8x8 cells, red lines every 16 texels. */
static inline uint8_t *tx_checker(void)
{
    uint8_t *img = malloc(64 * 64 * 4);
    if (!img)
        return NULL;
    for (unsigned y = 0; y < 64; y++)
        for (unsigned x = 0; x < 64; x++) {
            uint8_t *p = img + ((size_t)y * 64 + x) * 4;
            if (x % 16 == 0 || y % 16 == 0)
                tx_put(p, 200, 40, 40);
            else if (((x >> 3) ^ (y >> 3)) & 1u)
                tx_put(p, 235, 210, 70);
            else
                tx_put(p, 30, 80, 190);
        }
    return img;
}

/* ---- the seed's textured triangle (seed 004) --------------------------- */

/* The shader: the six instructions exactly as posted (the .word pairs of
 * examples/seeds/texture_fragment_shader.hex; test_render_tex checks that
 * they are the same), then seed 002's thread end. */
static const char tx_fs_seed[] =
    ".word 0x203E3DF7, 0x110059E0  # S * W\n"
    ".word 0x213E3177, 0x11024821  # S = S * W + C, T * W\n"
    ".word 0x13E3377, 0x11020E67   # TMU0_T = T * W + C (pulls P0)\n"
    ".word 0x159E7000, 0x10020E27  # TMU0_S = S (pulls P1, submits)\n"
    ".word 0x9E7000, 0xA00009E7    # ldtmu0: r4 = RGBA8888\n"
    ".word 0x159E7924, 0x10020BA7  # TLB_COLOUR_ALL = r4\n"
    "nop; thrend\n"
    "nop\n"
    "nop; sbdone\n";

/* The seed triangle with S, T: top (0.5, 0), bottom left (0, 1), bottom
 * right (1, 1); t = 0 is texture row 0, the picture's top row. */
static const struct sc_vertex tx_triangle[3] = {
    {320 * 16, 32 * 16, 1.0f, 1.0f, {0.5f, 0.0f, 0.0f}},
    {32 * 16, 448 * 16, 1.0f, 1.0f, {0.0f, 1.0f, 0.0f}},
    {608 * 16, 448 * 16, 1.0f, 1.0f, {1.0f, 1.0f, 0.0f}},
};

/* The texture variants: T (32x32 of 2x2 copies), LT (16x16), raster
 * (RGBA32R 16x16); point sampling, clamped. */
static inline bool tx_seed_texture(struct tx_texture *t, enum vc4_tex_layout layout)
{
    memset(t, 0, sizeof *t);
    t->layout = layout == VC4_TEX_RASTER ? VC4_TEX_RASTER : VC4_TEX_T;
    t->format = layout == VC4_TEX_RASTER ? VC4_TEX_RGBA32R : VC4_TEX_RGBA8888;
    unsigned scale = layout == VC4_TEX_T ? 2 : 1;
    t->width = t->height = 16 * scale;
    t->levels = 1;
    t->rgba = tx_picture(scale);
    return t->rgba && tx_prepare(t, 1, TX_MIN_NEAREST, TX_WRAP_CLAMP);
}

static inline struct sc_params tx_seed_scene(const struct tx_texture *t)
{
    struct sc_params p = sc_default(true);
    p.fs = tx_fs_seed;
    p.fs_include_dir = VC4KIT_EXAMPLES_DIR;
    p.verts = tx_triangle;
    p.nverts = 3;
    p.nvary = 2;
    p.uniforms = t->uniforms;
    p.nuniforms = 2;
    p.setup = tx_setup;
    p.setup_user = t;
    return p;
}

/* ---- the perspective plane ------------------------------------------------ */

/* Ground plane y = -1 seen from the origin, screen x = 320 + 320 X / Z,
 * y = 240 + 320 / Z (12.4 fixed point), 1/Wc = 1/Z; X = +-4 (near corners off screen), Z = 1.5
 * (near) and 40 (far); S = 0..12 across, T = 0..55 into the distance (about
 * 1.5 repeats per unit both ways). */
#define TX_NEAR 1.5f
#define TX_FAR 40.0f
#define TX_HALF_W 4.0f
#define TX_SX(X, Z) ((int16_t)((320.0f + 320.0f * (X) / (Z)) * 16.0f + 0.5f))
#define TX_SY(Z) ((int16_t)((240.0f + 320.0f / (Z)) * 16.0f + 0.5f))
#define TX_V(X, Z, S, T) {TX_SX(X, Z), TX_SY(Z), 0.5f, 1.0f / (Z), {S, T, 0.0f}}

static const struct sc_vertex tx_plane[6] = {
    TX_V(-TX_HALF_W, TX_NEAR, 0.0f, 0.0f), TX_V(TX_HALF_W, TX_NEAR, 12.0f, 0.0f),
    TX_V(TX_HALF_W, TX_FAR, 12.0f, 55.0f), TX_V(-TX_HALF_W, TX_NEAR, 0.0f, 0.0f),
    TX_V(TX_HALF_W, TX_FAR, 12.0f, 55.0f), TX_V(-TX_HALF_W, TX_FAR, 0.0f, 55.0f),
};

static const char tx_fs_plane[] = ".include \"tex_plane.qasm\"\n";

static inline bool tx_plane_texture(struct tx_texture *t)
{
    memset(t, 0, sizeof *t);
    t->layout = VC4_TEX_T;
    t->format = VC4_TEX_RGBA8888;
    t->width = t->height = 64;
    t->levels = vc4_tex_full_levels(64, 64);
    t->rgba = tx_checker();
    t->uniforms[2] = sc_f2u(1.0f / 48.0f); /* tex_plane.qasm's fog */
    t->uniforms[3] = sc_f2u(0.8f);
    return t->rgba && tx_prepare(t, 0, TX_MIN_LIN_MIP_LIN, TX_WRAP_REPEAT);
}

static inline struct sc_params tx_plane_scene(const struct tx_texture *t)
{
    struct sc_params p = tx_seed_scene(t);
    p.fs = tx_fs_plane;
    p.verts = tx_plane;
    p.nverts = 6;
    p.nuniforms = 4;
    return p;
}

/* ---- the examples' main ---------------------------------------------------- */

/* usage: PROGRAM [t|lt|raster|plane] OUT.png */
static inline int tx_example_main(int argc, char **argv, bool plane)
{
    const char *which = plane ? "plane" : argc == 3 ? argv[1] : "";
    enum vc4_tex_layout layout = !strcmp(which, "lt") ? VC4_TEX_LT
                                 : !strcmp(which, "raster") ? VC4_TEX_RASTER : VC4_TEX_T;
    bool known = plane || !strcmp(which, "t") || !strcmp(which, "lt") || !strcmp(which, "raster");
    if (argc != (plane ? 2 : 3) || !known) {
        fprintf(stderr, plane ? "usage: %s OUT.png\n" : "usage: %s t|lt|raster OUT.png\n", argv[0]);
        return 2;
    }
    struct vc4_diag_sink sink = {sc_print_diag, NULL};
    struct tx_texture t;
    bool ok = plane ? tx_plane_texture(&t) : tx_seed_texture(&t, layout);
    struct sc_params p = plane ? tx_plane_scene(&t) : tx_seed_scene(&t);
    uint8_t *rgba = ok ? sc_render(&p, sink, 12, NULL) : NULL;
    free(t.rgba);
    if (!rgba) {
        fprintf(stderr, "%s: the scene did not render\n", argv[0]);
        return 1;
    }
    enum vc4_status st = vc4_png_write(argv[argc - 1], rgba, p.width, p.height, (size_t)p.width * 4,
                                       &sink);
    free(rgba);
    return st == VC4_OK ? 0 : 1;
}

#endif
