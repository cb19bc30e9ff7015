/*
 * test_tmu_tex.c - the TMU texture sampler through the TMU registers:
 * parameter decoding against Mesa's vc4_packet.h bit positions, every wrap
 * mode at the edges, nearest and bilinear values on small textures, LOD
 * from quad derivatives, bias and explicit LOD, mip addressing in raster
 * and T/LT layouts, cube faces, flip-Y, child images, two-word results,
 * bad configurations, random requests on a small memory, random
 * nearest and bilinear lookups against a reference written from GL's
 * wrap definitions, and the fast bilinear footprint against the general
 * way.
 *
 * Expected values are worked out by hand in the comments (texel centres at
 * +0.5, 8 sub-texel bits, weights summing to 65536 rounded to nearest).
 */
#include <math.h>

#include "harness.h"

#include "base/base.h"
#include "emu/mem.h"
#include "emu/tmu.h"
#include "emu/tmu_tex.h"
#include "vc4kit/tex.h"

static struct vc4_tmu tmu;
static struct vc4_mem mem;
static struct harness_diags hd;
static struct vc4_diag_sink sink;

#define MEM_SIZE (1u << 20)
#define TEX 0x10000u

static void setup(void)
{
    vc4_tmu_init(&tmu);
    vc4_mem_init(&mem, MEM_SIZE, NULL);
    sink = harness_sink(&hd);
}

/* Parameter words from Mesa vc4_packet.h's shifts (written out here, not
 * taken from the table under test). */
static uint32_t p0(uint32_t base, unsigned type, unsigned miplvls, bool cube, bool flipy)
{
    return (base & 0xFFFFF000u) | (uint32_t)cube << 9 | (uint32_t)flipy << 8 | (type & 15u) << 4 |
           miplvls;
}
static uint32_t p1(unsigned type, unsigned w, unsigned h, bool mag_nearest, unsigned minfilt,
                   unsigned wrap_s, unsigned wrap_t)
{
    return (uint32_t)(type >> 4) << 31 | (h & 2047u) << 20 | (w & 2047u) << 8 |
           (uint32_t)mag_nearest << 7 | minfilt << 4 | wrap_t << 2 | wrap_s;
}
static uint32_t p2_cube(uint32_t stride, bool bslod)
{
    return 1u << 30 | (stride >> 12) << 12 | (uint32_t)bslod;
}

struct req {
    uint32_t params[4];
    float s[16], t[16], r[16], b[16];
    uint32_t r_raw[16];
    bool use_r_raw, has_r, has_b;
};

static void fill(float *v, float x)
{
    for (unsigned i = 0; i < 16; i++)
        v[i] = x;
}

/* Write R, T, B, S in Mesa's order (each pulls the next parameter), then
 * ldtmu0; returns the events of the writes. */
static unsigned run(const struct req *q, uint32_t out[16])
{
    uint32_t v[16];
    unsigned n = 0, ev = 0;
    uint64_t ready;
    if (q->has_r) {
        for (unsigned i = 0; i < 16; i++)
            v[i] = q->use_r_raw ? q->r_raw[i] : vc4_f2u(q->r[i]);
        ev |= vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_R, 0xFFFF, v, q->params[n++], 0, &sink, NULL);
    }
    for (unsigned i = 0; i < 16; i++)
        v[i] = vc4_f2u(q->t[i]);
    ev |= vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_T, 0xFFFF, v, q->params[n++], 0, &sink, NULL);
    if (q->has_b) {
        for (unsigned i = 0; i < 16; i++)
            v[i] = vc4_f2u(q->b[i]);
        ev |= vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_B, 0xFFFF, v, q->params[n++], 0, &sink, NULL);
    }
    for (unsigned i = 0; i < 16; i++)
        v[i] = vc4_f2u(q->s[i]);
    ev |= vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, v, q->params[n], 0, &sink, NULL);
    vc4_tmu_load(&tmu, 0, 0, out, 0, &ready, &sink, NULL);
    return ev;
}

/* A raster (RGBA32R) w x h texture at addr: texel (x, y) = x | y << 8 |
 * tag << 16 | 0xFF << 24; rows are w rounded up to 4 texels (utile width). */
static void raster_tex(uint32_t addr, unsigned w, unsigned h, unsigned tag)
{
    unsigned row = (w + 3u) / 4u * 16u;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++)
            vc4_mem_write32(&mem, addr + y * row + 4 * x, x | y << 8 | tag << 16 | 0xFF000000u);
}

static void test_decode(void)
{
    setup();
    struct vc4_tmu_tex c;
    /* every P0/P1 field at a distinct value */
    uint32_t par[4] = {0x00ABC000u | 2u << 10 | 1u << 9 | 1u << 8 | 0u << 4 | 3u,
                       1u << 31 | 100u << 20 | 1u << 19 | 200u << 8 | 1u << 7 | 4u << 4 |
                           2u << 2 | 3u,
                       p2_cube(0x5000, true), 0};
    unsigned ev = vc4_tmu_tex_decode(&c, par, 3, &sink, NULL);
    CHECK_EQ_U64(ev, 0);
    CHECK_EQ_U64(c.base, 0x00ABC000u);
    CHECK_EQ_U64(c.cswiz, 2);
    CHECK(c.cube);
    CHECK(c.flipy);
    CHECK_EQ_U64(c.type_raw, 16); /* bit 4 from P1 */
    CHECK_EQ_U64(c.type, VC4_TEX_RGBA32R);
    CHECK_EQ_U64(c.levels, 4);
    CHECK_EQ_U64(c.height, 100);
    CHECK_EQ_U64(c.width, 200);
    CHECK(c.etcflip);
    CHECK(c.mag_nearest);
    CHECK_EQ_U64(c.minfilt, VC4_TMU_MIN_LIN_MIP_NEAR);
    CHECK_EQ_U64(c.wrap_t, VC4_TMU_WRAP_MIRROR);
    CHECK_EQ_U64(c.wrap_s, VC4_TMU_WRAP_BORDER);
    CHECK_EQ_U64(c.cube_stride, 0x5000);
    CHECK(c.bslod);
    /* 0 = 2048; child image from P2 (dims) + P3 (offsets) */
    uint32_t par2[4] = {p0(0x100000, 0, 0, false, false), p1(0, 0, 0, false, 1, 0, 0),
                        2u << 30 | 7u << 12 | 9u, 3u << 30 | 5u << 12 | 6u};
    CHECK_EQ_U64(vc4_tmu_tex_decode(&c, par2, 4, &sink, NULL), 0);
    CHECK_EQ_U64(c.width, 2048);
    CHECK_EQ_U64(c.height, 2048);
    CHECK(c.child);
    CHECK_EQ_U64(c.child_w, 9);
    CHECK_EQ_U64(c.child_h, 7);
    CHECK_EQ_U64(c.child_x, 6);
    CHECK_EQ_U64(c.child_y, 5);
    /* the field table covers each word's bits exactly once (P0, P1) */
    uint32_t cover[2] = {0, 0};
    for (unsigned f = 0; f < VC4_TMU_F_COUNT; f++) {
        const struct vc4_tmu_field_info *fi = &vc4_tmu_fields[f];
        CHECK(fi->name != NULL);
        if (fi->word > VC4_TMU_PW_P1)
            continue;
        uint32_t m = (uint32_t)(((UINT64_C(1) << fi->width) - 1) << fi->shift);
        CHECK_EQ_U64(cover[fi->word] & m, 0);
        cover[fi->word] |= m;
    }
    CHECK_EQ_U64(cover[0], 0xFFFFFFFFu);
    CHECK_EQ_U64(cover[1], 0xFFFFFFFFu);
    vc4_mem_fini(&mem);
}

/* Nearest lookups of a 4x4 raster texture at s = given, t = 0.6 (row 2). */
static void wrap_case(unsigned mode, float s, uint32_t expect)
{
    struct req q = {.params = {p0(TEX, 16, 0, false, false), p1(16, 4, 4, true, 1, mode, 1)}};
    fill(q.s, s);
    fill(q.t, 0.6f);
    q.has_r = true;
    for (unsigned i = 0; i < 16; i++)
        q.r_raw[i] = 0x11223344u;
    q.use_r_raw = true; /* R, T, S pull P0, P1, P2 (P2 = 0: PTYPE 0, ignored) */
    uint32_t out[16];
    run(&q, out);
    CHECK_MSG(out[0] == expect && out[15] == expect, "wrap %u s=%g: 0x%08x, expected 0x%08x",
              mode, (double)s, out[0], expect);
}

/* Regression (piglit's texwrap bordercolor, which passes on Pi 3s in
 * Mesa's CI for every format): the border colour in R is the word the TMU
 * returns, whatever the texture's format, as Mesa packs it
 * (vc4_uniforms.c write_texture_border_color: ALPHA as A << 24, RGB565 as
 * B8G8R8A8, RGBA4444 as A8B8G8R8).  vc4kit decoded R as one texel of the
 * format: an ALPHA texture's border came out from R's low byte. */
static void test_regression_border_word(void)
{
    setup();
    static const unsigned types[] = {VC4_TEX_ALPHA, VC4_TEX_RGB565, VC4_TEX_RGBA4444};
    for (unsigned k = 0; k < 3; k++) {
        struct req q = {.params = {p0(TEX, types[k], 0, false, false),
                                   p1(types[k], 4, 4, true, 1, VC4_TMU_WRAP_BORDER, 1)}};
        fill(q.s, -0.3f);
        fill(q.t, 0.6f);
        q.has_r = true;
        for (unsigned i = 0; i < 16; i++)
            q.r_raw[i] = 0xC0806040u;
        q.use_r_raw = true;
        uint32_t out[16];
        run(&q, out);
        CHECK_MSG(out[0] == 0xC0806040u && out[15] == 0xC0806040u, "type %u: 0x%08x", types[k], out[0]);
    }
    CHECK_EQ_INT(hd.errors, 0);
    vc4_mem_fini(&mem);
}

static void test_wrap(void)
{
    setup();
    raster_tex(TEX, 4, 4, 0xAB);
#define TX(x, y) ((uint32_t)(x) | (uint32_t)(y) << 8 | 0xABu << 16 | 0xFF000000u)
    /* s = -0.1: u = -0.4 -> x = -1; s = 1.1: x = 4; s = -1.1: x = -5;
     * s = 2.3: x = 9; s = 0.999: x = 3 */
    wrap_case(VC4_TMU_WRAP_REPEAT, -0.1f, TX(3, 2));
    wrap_case(VC4_TMU_WRAP_REPEAT, 1.1f, TX(0, 2));
    wrap_case(VC4_TMU_WRAP_REPEAT, -1.1f, TX(3, 2));
    wrap_case(VC4_TMU_WRAP_REPEAT, 2.3f, TX(1, 2));
    wrap_case(VC4_TMU_WRAP_CLAMP, -0.1f, TX(0, 2));
    wrap_case(VC4_TMU_WRAP_CLAMP, 1.1f, TX(3, 2));
    wrap_case(VC4_TMU_WRAP_CLAMP, 0.999f, TX(3, 2));
    /* mirror: ... 1 0 | 0 1 2 3 | 3 2 1 0 | 0 1 ... */
    wrap_case(VC4_TMU_WRAP_MIRROR, -0.1f, TX(0, 2));
    wrap_case(VC4_TMU_WRAP_MIRROR, 1.1f, TX(3, 2));
    wrap_case(VC4_TMU_WRAP_MIRROR, -1.1f, TX(3, 2));  /* x = -5 -> 3 */
    wrap_case(VC4_TMU_WRAP_MIRROR, 2.3f, TX(1, 2));   /* x = 9 -> 9 mod 8 = 1 */
    wrap_case(VC4_TMU_WRAP_MIRROR, 1.6f, TX(1, 2));   /* x = 6 -> 8 - 1 - 6 = 1 */
    /* border: the R value, the word a border texel returns */
    wrap_case(VC4_TMU_WRAP_BORDER, -0.1f, 0x11223344u);
    wrap_case(VC4_TMU_WRAP_BORDER, 1.1f, 0x11223344u);
    wrap_case(VC4_TMU_WRAP_BORDER, 0.1f, TX(0, 2));
    CHECK_EQ_INT(hd.errors, 0);
    /* each lookup is 16 texels (border texels are not fetched) */
    CHECK(tmu.stats.texels > 0);
    vc4_mem_fini(&mem);
}

static void test_bilinear(void)
{
    setup();
    /* 2x2 RGBA32R: red channel 0, 100 / 200, 255 (rows 0 / 1) */
    vc4_mem_write32(&mem, TEX + 0, 0xFF000000u | 0);
    vc4_mem_write32(&mem, TEX + 4, 0xFF000000u | 100);
    vc4_mem_write32(&mem, TEX + 16, 0xFF000000u | 200);
    vc4_mem_write32(&mem, TEX + 20, 0xFF000000u | 255);
    struct req q = {.params = {p0(TEX, 16, 0, false, false), p1(16, 2, 2, false, 0, 1, 1)}};
    uint32_t out[16];
    /* centre: all four weights 1/4: (0 + 100 + 200 + 255) / 4 = 138.75 -> 139 */
    fill(q.s, 0.5f);
    fill(q.t, 0.5f);
    run(&q, out);
    CHECK_EQ_U64(out[5], 0xFF000000u | 139);
    /* s = 0.375: u = 0.75 - 0.5 = 0.25 -> fx = 64; t = 0.25: v = 0 -> fy = 0:
     * (0 * 192 + 100 * 64) / 256 = 25 */
    fill(q.s, 0.375f);
    fill(q.t, 0.25f);
    run(&q, out);
    CHECK_EQ_U64(out[0], 0xFF000000u | 25);
    /* t = 0.375: v = 0.75 - 0.5 -> fy = 64; with fx = 64:
     * (0*192*192 + 100*64*192 + 200*192*64 + 255*64*64) / 65536 = 72.1875 -> 72 */
    fill(q.t, 0.375f);
    run(&q, out);
    CHECK_EQ_U64(out[0], 0xFF000000u | 72);
    /* nearest magnification at (0.375, 0.75): texel (0, 1) = 200 */
    q.params[1] = p1(16, 2, 2, true, 0, 1, 1);
    fill(q.t, 0.75f);
    run(&q, out);
    CHECK_EQ_U64(out[0], 0xFF000000u | 200);
    /* clamp at the edge: s = 0 blends texel 0 with itself: exact 0; s = 1
     * gives column 1 */
    q.params[1] = p1(16, 2, 2, false, 0, 1, 1);
    fill(q.s, 1.0f);
    fill(q.t, 0.25f);
    run(&q, out);
    CHECK_EQ_U64(out[0], 0xFF000000u | 100);
    /* repeat at the edge: s = 1.0 -> u = 1.5: texels 1 and 0 (wrapped), half each: 50 */
    q.params[1] = p1(16, 2, 2, false, 0, 0, 0);
    run(&q, out);
    CHECK_EQ_U64(out[0], 0xFF000000u | 50);
    /* mirror at the edge: s = 1.0: texels 1 and 1 (mirrored): 100 */
    q.params[1] = p1(16, 2, 2, false, 0, 2, 2);
    run(&q, out);
    CHECK_EQ_U64(out[0], 0xFF000000u | 100);
    /* border at the edge: s = 0, t = 0.25: texel -1 (border 0x80402010) and
     * texel 0 half each: R (0x10 + 0) / 2 = 8, G 0x20 / 2, B 0x40 / 2,
     * A (0x80 + 0xFF) / 2 = 191.5 -> 192 */
    struct req b = q;
    b.params[0] = p0(TEX, 16, 0, false, false);
    b.params[1] = p1(16, 2, 2, false, 0, 3, 3);
    b.params[2] = 0;
    b.has_r = true;
    b.use_r_raw = true;
    for (unsigned i = 0; i < 16; i++)
        b.r_raw[i] = 0x80402010u;
    fill(b.s, 0.0f);
    fill(b.t, 0.25f);
    run(&b, out);
    CHECK_EQ_U64(out[0], 192u << 24 | 0x20u << 16 | 0x10u << 8 | 8u);
    CHECK_EQ_INT(hd.errors, 0);
    vc4_mem_fini(&mem);
}

static void test_quad_lod(void)
{
    /* steps of 1, 2, 4 texels per pixel: LOD 0, 1, 2 (1/256 units) */
    const unsigned w = 64;
    for (unsigned k = 0; k < 3; k++) {
        float step = (float)(1u << k) / (float)w;
        float s[4] = {0.25f, 0.25f + step, 0.25f, 0.25f + step};
        float t[4] = {0.5f, 0.5f, 0.5f, 0.5f};
        CHECK_EQ_INT(vc4_tmu_tex_quad_lod(s, t, w, w), 256 * (int)k);
        /* the same along y, through t */
        float s2[4] = {0.25f, 0.25f, 0.25f, 0.25f};
        float t2[4] = {0.5f, 0.5f, 0.5f + step, 0.5f + step};
        CHECK_EQ_INT(vc4_tmu_tex_quad_lod(s2, t2, w, w), 256 * (int)k);
    }
    /* 3 texels per pixel: log2 3 = 1.585; the linear-mantissa model gives
     * 400/256 = 1.5625, within 6/256 of the true value */
    float s[4] = {0, 3.0f / 64, 0, 3.0f / 64}, t[4] = {0, 0, 0, 0};
    int32_t l = vc4_tmu_tex_quad_lod(s, t, 64, 64);
    CHECK_EQ_INT(l, 400);
    CHECK(fabs(l / 256.0 - log2(3.0)) < 6.0 / 256);
    /* the larger of the two directions wins; magnified quads are negative */
    float s3[4] = {0, 1.0f / 64, 0, 1.0f / 64}, t3[4] = {0, 0, 4.0f / 64, 4.0f / 64};
    CHECK_EQ_INT(vc4_tmu_tex_quad_lod(s3, t3, 64, 64), 512);
    float s4[4] = {0, 0.25f / 64, 0, 0.25f / 64}, t4[4] = {0, 0, 0, 0};
    CHECK_EQ_INT(vc4_tmu_tex_quad_lod(s4, t4, 64, 64), -512);
    float z[4] = {0.5f, 0.5f, 0.5f, 0.5f};
    CHECK(vc4_tmu_tex_quad_lod(z, z, 64, 64) < 0);
}

/* A T-format RGBA8888 mip chain of a 64x64 texture: level i filled with
 * the constant colour levelcol[i]; level offsets below the base worked out
 * by hand: 32x32 (T, 4 KiB), 16x16 (LT, 1 KiB), 8x8 (256), 4x4, 2x2 and 1x1
 * (one 64-byte utile each). */
static const uint32_t below_64[7] = {0, 4096, 5120, 5376, 5440, 5504, 5568};
static const uint32_t levelcol[7] = {0xFF0000FFu, 0xFF00FF00u, 0xFFFF0000u, 0xFFFFFFFFu,
                                     0xFF00FFFFu, 0xFFFF00FFu, 0xFF808080u};
#define MIPTEX 0x20000u

/* One d x d RGBA8888 mip level at addr in its T or LT layout, every texel col. */
static void fill_level(uint32_t addr, unsigned d, uint32_t col)
{
    struct vc4_tex_geom g;
    CHECK(vc4_tex_geom_init(&g, vc4_tex_level_layout(32, d, d), 32, d, d));
    for (unsigned y = 0; y < d; y++)
        for (unsigned x = 0; x < d; x++)
            vc4_mem_write32(&mem, addr + vc4_tex_byte_offset(&g, x, y), col);
}

static void mip_tex(void)
{
    for (unsigned i = 0; i < 7; i++)
        fill_level(MIPTEX - below_64[i], 64u >> i, levelcol[i]);
}

static void test_mips(void)
{
    setup();
    mip_tex();
    uint32_t out[16];
    /* explicit LOD (P2 BSLOD): R is not written; T, B, S pull P0, P1, P2 */
    struct req q = {.params = {p0(MIPTEX, 0, 6, false, false),
                               p1(0, 64, 64, true, VC4_TMU_MIN_NEAR_MIP_NEAR, 0, 0),
                               p2_cube(0, true)}};
    q.has_b = true;
    fill(q.s, 0.3f);
    fill(q.t, 0.7f);
    for (unsigned lv = 1; lv < 7; lv++) {
        fill(q.b, (float)lv);
        run(&q, out);
        CHECK_MSG(out[0] == levelcol[lv] && out[15] == levelcol[lv],
                  "explicit LOD %u: 0x%08x", lv, out[0]);
    }
    /* LOD 0 with BSLOD = magnification: level 0 */
    fill(q.b, 0.0f);
    run(&q, out);
    CHECK_EQ_U64(out[0], levelcol[0]);
    /* beyond the chain: the last level */
    fill(q.b, 9.0f);
    run(&q, out);
    CHECK_EQ_U64(out[0], levelcol[6]);
    /* nearest mip: LOD 1.4 -> level 1, 1.6 -> level 2 */
    fill(q.b, 1.4f);
    run(&q, out);
    CHECK_EQ_U64(out[0], levelcol[1]);
    fill(q.b, 1.6f);
    run(&q, out);
    CHECK_EQ_U64(out[0], levelcol[2]);
    /* mip-linear at LOD 1.5: green and blue half each: (255 * 128 + 128) >> 8 = 128 */
    q.params[1] = p1(0, 64, 64, true, VC4_TMU_MIN_NEAR_MIP_LIN, 0, 0);
    fill(q.b, 1.5f);
    run(&q, out);
    CHECK_EQ_U64(out[0], 0xFF808000u);
    /* LOD from the quads' derivatives: 2 texels per pixel in x -> LOD 1;
     * with a bias of +1 (no BSLOD: P2 PTYPE 0) -> LOD 2 */
    struct req d = {.params = {p0(MIPTEX, 0, 6, false, false),
                               p1(0, 64, 64, true, VC4_TMU_MIN_NEAR_MIP_NEAR, 0, 0), 0}};
    for (unsigned i = 0; i < 16; i++) {
        d.s[i] = 0.25f + (float)(i & 1u) * 2.0f / 64.0f;
        d.t[i] = 0.5f + (float)(i >> 1 & 1u) * 1.0f / 64.0f;
    }
    run(&d, out);
    CHECK_EQ_U64(out[0], levelcol[1]);
    CHECK_EQ_U64(out[13], levelcol[1]);
    d.has_b = true;
    fill(d.b, 1.0f);
    run(&d, out);
    CHECK_EQ_U64(out[7], levelcol[2]);
    /* minification without mips: level 0 only */
    d.has_b = false;
    d.params[1] = p1(0, 64, 64, true, VC4_TMU_MIN_NEAREST, 0, 0);
    run(&d, out);
    CHECK_EQ_U64(out[3], levelcol[0]);
    CHECK_EQ_INT(hd.errors, 0);
    CHECK_EQ_INT(hd.warnings, 0);
    vc4_mem_fini(&mem);
}

static void test_t_layout_texels(void)
{
    setup();
    /* 64x64 RGBA8888 T texture, texel = x | y << 8: every texel read back
     * by nearest lookups at its centre */
    struct vc4_tex_geom g;
    CHECK(vc4_tex_geom_init(&g, VC4_TEX_T, 32, 64, 64));
    for (unsigned y = 0; y < 64; y++)
        for (unsigned x = 0; x < 64; x++)
            vc4_mem_write32(&mem, TEX + vc4_tex_byte_offset(&g, x, y), x | y << 8 | 0xFF000000u);
    struct req q = {.params = {p0(TEX, 0, 0, false, false), p1(0, 64, 64, true, 1, 0, 0)}};
    unsigned bad = 0;
    for (unsigned y = 0; y < 64; y++)
        for (unsigned x0 = 0; x0 < 64; x0 += 16) {
            uint32_t out[16];
            for (unsigned i = 0; i < 16; i++) {
                q.s[i] = ((float)(x0 + i) + 0.5f) / 64.0f;
                q.t[i] = ((float)y + 0.5f) / 64.0f;
            }
            run(&q, out);
            for (unsigned i = 0; i < 16; i++)
                bad += out[i] != ((x0 + i) | y << 8 | 0xFF000000u);
        }
    CHECK_EQ_INT(bad, 0);
    /* flip-Y: t near 0 reads the last row */
    q.params[0] = p0(TEX, 0, 0, false, true);
    uint32_t out[16];
    fill(q.s, 0.5f / 64);
    fill(q.t, 0.5f / 64);
    run(&q, out);
    CHECK_EQ_U64(out[0], 0 | 63u << 8 | 0xFF000000u);
    /* child image 8x4 at (10, 20): s = t = 0 is parent texel (10, 20);
     * wraps inside the child: s = 1.05 -> child x 0 */
    /* R, T, B, S pull P0, P1, P2 (dims), P3 (offsets); R = B = 0 */
    struct req c = {.params = {p0(TEX, 0, 0, false, false), p1(0, 64, 64, true, 1, 0, 0),
                               2u << 30 | 4u << 12 | 8u, 3u << 30 | 20u << 12 | 10u}};
    c.has_r = true;
    c.has_b = true;
    fill(c.s, 0.01f);
    fill(c.t, 0.01f);
    run(&c, out);
    CHECK_EQ_U64(out[0], 10u | 20u << 8 | 0xFF000000u);
    fill(c.s, 1.05f);
    fill(c.t, 0.3f); /* child row 1 */
    run(&c, out);
    CHECK_EQ_U64(out[0], 10u | 21u << 8 | 0xFF000000u);
    CHECK_EQ_INT(hd.errors, 0);
    vc4_mem_fini(&mem);
}

/* ETC1 and ETCFLIP: with the bit set (Mesa's setting) a nearest lookup at
 * texel (x, y) returns what the decoder gives for (x, y); with it clear the
 * rows inside each 4x4 block come the other way round (vc4_tex_etc1_row).
 * The texture is a vertical gradient, so block rows differ. */
static void test_etc1_flip(void)
{
    setup();
    enum { W = 8, H = 8 };
    uint8_t pic[W * H * 4];
    for (unsigned y = 0; y < H; y++)
        for (unsigned x = 0; x < W; x++) {
            uint8_t *px = pic + 4 * (y * W + x);
            px[0] = (uint8_t)(y * 32);
            px[1] = (uint8_t)(255 - y * 32);
            px[2] = (uint8_t)(x * 16);
            px[3] = 255;
        }
    struct vc4_tex_mip_layout m;
    CHECK(vc4_tex_mip_layout(&m, VC4_TEX_ETC1, VC4_TEX_T, W, H, 1, 1, &sink) == VC4_OK);
    static uint8_t buf[8192];
    const uint8_t *faces[1] = {pic};
    CHECK(m.size <= sizeof buf);
    CHECK(vc4_tex_encode_texture(&m, buf, sizeof buf, faces, W * 4, false, &sink) == VC4_OK);
    CHECK(vc4_mem_write(&mem, TEX - m.base_offset, buf, m.size));
    const uint8_t *img = buf + vc4_tex_image_offset(&m, 0, 0);
    unsigned same = 0, flipped = 0, differ = 0;
    for (int flip = 1; flip >= 0; flip--) {
        uint32_t etcflip = (uint32_t)flip << 19; /* P1 bit 19, Mesa VC4_TEX_P1_ETCFLIP */
        struct req q = {.params = {p0(TEX, VC4_TEX_ETC1, 0, false, false),
                                   p1(VC4_TEX_ETC1, W, H, true, 1, 0, 0) | etcflip}};
        for (unsigned y = 0; y < H; y++) {
            uint32_t out[16];
            for (unsigned i = 0; i < 16; i++) {
                q.s[i] = ((float)(i % W) + 0.5f) / W;
                q.t[i] = ((float)y + 0.5f) / H;
            }
            run(&q, out);
            for (unsigned i = 0; i < W; i++) {
                struct vc4_texel a, b;
                CHECK(vc4_tex_read_texel(VC4_TEX_ETC1, &m.level[0].geom, img, m.level[0].geom.size, i,
                                         y, &a));
                CHECK(vc4_tex_read_texel(VC4_TEX_ETC1, &m.level[0].geom, img, m.level[0].geom.size, i,
                                         (y & ~3u) | (3u - (y & 3u)), &b));
                differ += a.w[0] != b.w[0];
                if (flip)
                    same += out[i] == a.w[0];
                else
                    flipped += out[i] == b.w[0];
            }
        }
    }
    CHECK(differ > 0);
    CHECK_EQ_INT(same, W * H);
    CHECK_EQ_INT(flipped, W * H);
    CHECK_EQ_INT(hd.errors, 0);
    vc4_mem_fini(&mem);
}

/* Cache model: a 4x4 RGBA8888 texture is one LT utile, one 64-byte line:
 * the first texel misses, every other texel of every request hits. */
static void test_cache_stats(void)
{
    setup();
    struct req q = {.params = {p0(TEX, 0, 0, false, false), p1(0, 4, 4, false, 0, 0, 0)}};
    for (unsigned i = 0; i < 16; i++) {
        q.s[i] = (float)i / 16.0f;
        q.t[i] = (float)(15 - i) / 16.0f;
    }
    uint32_t out[16];
    for (unsigned r = 0; r < 3; r++)
        run(&q, out);
    CHECK_EQ_U64(tmu.stats.texels, 3 * 16 * 4);
    CHECK_EQ_U64(tmu.stats.cache_misses, 1);
    CHECK_EQ_U64(tmu.stats.cache_hits, 3 * 16 * 4 - 1);
    /* a flush makes the next request miss once again */
    vc4_tmu_flush_caches(&tmu);
    run(&q, out);
    CHECK_EQ_U64(tmu.stats.cache_misses, 2);
    vc4_mem_fini(&mem);
}

static void test_cube(void)
{
    setup();
    /* six 4x4 raster faces 4 KiB apart, face k = tag k */
    for (unsigned k = 0; k < 6; k++)
        raster_tex(TEX + k * 0x1000u, 4, 4, 0x10 + k);
    struct req q = {.params = {p0(TEX, 16, 0, true, false), p1(16, 4, 4, true, 1, 1, 1),
                               p2_cube(0x1000, false)}};
    q.has_r = true;
    const float dir[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (unsigned k = 0; k < 6; k++) {
        fill(q.s, dir[k][0]);
        fill(q.t, dir[k][1]);
        fill(q.r, dir[k][2]);
        uint32_t out[16];
        run(&q, out);
        /* the centre of each face: face coordinates (0.5, 0.5) -> texel (2, 2) */
        CHECK_MSG(out[0] == (2u | 2u << 8 | (0x10u + k) << 16 | 0xFF000000u),
                  "face %u: 0x%08x", k, out[0]);
    }
    /* +X face: sc = -r, tc = -t: (1, 0.9, -0.9) -> sc 0.9, tc -0.9 ->
     * (0.95, 0.05) -> texel (3, 0) */
    fill(q.s, 1.0f);
    fill(q.t, 0.9f);
    fill(q.r, -0.9f);
    uint32_t out[16];
    run(&q, out);
    CHECK_EQ_U64(out[0], 3u | 0u << 8 | 0x10u << 16 | 0xFF000000u);
    CHECK_EQ_INT(hd.errors, 0);
    vc4_mem_fini(&mem);
}

/*
 * A quad that straddles a cube edge samples each element's own face at the
 * LOD of the surface (regression, 2026-11-29): a face drawn 1:1 at level 0
 * whose top row of pixels shares its quads with helper pixels past the
 * face's edge.  vc4kit took each element's own face coordinates for the
 * quad's derivatives, so the jump from +Y's to +X's coordinates put the
 * whole quad at the smallest level.  piglit's fbo-cubemap and `cubemap pbo`
 * probe such pixels and pass on Raspberry Pi 3s (Mesa's CI lists).
 */
static uint32_t cube_col(unsigned face, unsigned level)
{
    return 0xFF000000u | face << 8 | level;
}

static void test_regression_cube_lod_across_edge(void)
{
    setup();
    /* six 8x8 RGBA8888 faces with their mip chains, 4 KiB apart, level 0
     * of face 0 at CUBE; levels below each face's base: 4x4, 2x2, 1x1 (one
     * 64-byte utile each) */
    const uint32_t cube = TEX + 0x1000u, below[4] = {0, 64, 128, 192};
    for (unsigned f = 0; f < 6; f++)
        for (unsigned lv = 0; lv < 4; lv++)
            fill_level(cube + f * 0x1000u - below[lv], 8u >> lv, cube_col(f, lv));
    struct req q = {.params = {p0(cube, 0, 3, true, false),
                               p1(0, 8, 8, true, VC4_TMU_MIN_NEAR_MIP_NEAR, 0, 0),
                               p2_cube(0x1000, false)}};
    q.has_r = true;
    /* the +X face drawn 8 pixels across: 0.25 per pixel in t (y) and r
     * (x); quad rows t = 1.125 (past the edge) and 0.875, columns r =
     * 0.125 and 0.375; each direction divided by its largest magnitude, as
     * Mesa does: the top row selects +Y, the bottom row +X */
    for (unsigned i = 0; i < 16; i++) {
        float t = (i & 2u) ? 0.875f : 1.125f, r = (i & 1u) ? 0.375f : 0.125f;
        float m = t > 1.0f ? t : 1.0f;
        q.s[i] = 1.0f / m;
        q.t[i] = t / m;
        q.r[i] = r / m;
    }
    uint32_t out[16];
    run(&q, out);
    for (unsigned i = 0; i < 16; i++)
        CHECK_MSG(out[i] == cube_col((i & 2u) ? 0u : 2u, 0), "element %u: 0x%08x", i, out[i]);
    /* the derivatives still count: 0.5 per pixel, 2 texels a pixel -> level 1 */
    for (unsigned i = 0; i < 16; i++) {
        q.s[i] = 1.0f;
        q.t[i] = (i & 2u) ? 0.0f : 0.5f;
        q.r[i] = (i & 1u) ? 0.5f : 0.0f;
    }
    run(&q, out);
    for (unsigned i = 0; i < 16; i++)
        CHECK_MSG(out[i] == cube_col(0, 1), "element %u at level 1: 0x%08x", i, out[i]);
    CHECK_EQ_INT(hd.errors, 0);
    vc4_mem_fini(&mem);
}

static void test_two_words(void)
{
    setup();
    /* RGBA64 (16-bit channels): two result words, two ldtmu per request */
    struct req q = {.params = {p0(TEX, 15, 0, false, false), p1(15, 4, 4, true, 1, 0, 0)}};
    fill(q.s, 0.1f);
    fill(q.t, 0.1f);
    uint32_t out[16];
    uint64_t ready;
    run(&q, out);
    CHECK_EQ_U64(vc4_tmu_pending(&tmu, 0, 0), 1);
    CHECK_EQ_U64(vc4_tmu_load(&tmu, 0, 0, out, 0, &ready, &sink, NULL), 0);
    CHECK_EQ_U64(vc4_tmu_pending(&tmu, 0, 0), 0);
    CHECK_EQ_U64(tmu.q[0].fifo[0].slots_used, 0);
    /* a third load is an underflow */
    CHECK_EQ_U64(vc4_tmu_load(&tmu, 0, 0, out, 0, &ready, &sink, NULL), VC4_TMU_EV_UNDERFLOW);
    /* values: a 2x2 RGBA64 texture (LT: one 2x4 utile), red 0.0 / 1.0 in
     * row 0, green 0.5, blue 0.25, alpha 1.0 everywhere; bilinear at
     * s = 0.375 (fx = 64), t = 0.25 (fy = 0): red 0.25 (half 0x3400);
     * word 0 = R | G << 16, word 1 = B | A << 16 */
    struct vc4_tex_geom g;
    CHECK(vc4_tex_geom_init_format(&g, VC4_TEX_RGBA64, VC4_TEX_LT, 2, 2));
    uint8_t *img = vc4_mem_wptr(&mem, TEX, g.size);
    for (unsigned y = 0; y < 2; y++)
        for (unsigned x = 0; x < 2; x++) {
            struct vc4_texel tx = {{(x ? 0x3C00u : 0u) | 0x3800u << 16, 0x3400u | 0x3C00u << 16}};
            CHECK(vc4_tex_write_texel(VC4_TEX_RGBA64, &g, img, g.size, x, y, &tx));
        }
    q.params[0] = p0(TEX, 15, 0, false, false);
    q.params[1] = p1(15, 2, 2, false, 0, 1, 1);
    fill(q.s, 0.375f);
    fill(q.t, 0.25f);
    run(&q, out);
    CHECK_EQ_U64(out[0], 0x3400u | 0x3800u << 16);
    CHECK_EQ_U64(vc4_tmu_load(&tmu, 0, 0, out, 0, &ready, &sink, NULL), 0);
    CHECK_EQ_U64(out[9], 0x3400u | 0x3C00u << 16);
    /* RGBA8888: one word */
    q.params[0] = p0(TEX, 0, 0, false, false);
    q.params[1] = p1(0, 4, 4, true, 1, 0, 0);
    run(&q, out);
    CHECK_EQ_U64(vc4_tmu_pending(&tmu, 0, 0), 0);
    vc4_mem_fini(&mem);
}

static void test_bad_configs(void)
{
    setup();
    uint32_t out[16];
    struct req q = {.params = {p0(0x3FFF0000u, 0, 0, false, false), p1(0, 64, 64, true, 1, 0, 0)}};
    fill(q.s, 0.5f);
    fill(q.t, 0.5f);
    /* a texture outside RAM: fault, zeros, the TMU named */
    CHECK(run(&q, out) & VC4_TMU_EV_FAULT);
    CHECK_EQ_U64(out[0], 0);
    CHECK_CONTAINS(hd.text, "TMU0 texture image");
    CHECK_CONTAINS(hd.text, "outside");
    /* mip levels below address 0 */
    q.params[0] = p0(0x1000, 0, 5, false, false);
    q.params[1] = p1(0, 64, 64, true, VC4_TMU_MIN_NEAR_MIP_NEAR, 0, 0);
    for (unsigned i = 0; i < 16; i++)
        q.s[i] = (float)(i & 1u) * 0.5f;
    CHECK(run(&q, out) & VC4_TMU_EV_FAULT);
    /* TYPE 18..31 is not a format */
    q.params[0] = p0(TEX, 2, 0, false, false);
    q.params[1] = p1(31, 64, 64, true, 1, 0, 0);
    CHECK(run(&q, out) & VC4_TMU_EV_BAD_CONFIG);
    CHECK_CONTAINS(hd.text, "TYPE 18");
    CHECK_EQ_U64(out[3], 0);
    /* the same parameters again: the event, but not a second report (a bad
     * texture in a draw is reported once, not per request) */
    unsigned reported = (unsigned)hd.errors;
    CHECK(run(&q, out) & VC4_TMU_EV_BAD_CONFIG);
    CHECK_EQ_INT(hd.errors, reported);
    /* more mip levels than the size has: diagnosed and clamped */
    q.params[0] = p0(TEX, 0, 15, false, false);
    q.params[1] = p1(0, 4, 4, true, 1, 0, 0);
    CHECK(run(&q, out) & VC4_TMU_EV_BAD_CONFIG);
    CHECK_CONTAINS(hd.text, "MIPLVLS 15");
    /* reserved MINFILT */
    q.params[1] = p1(0, 4, 4, true, 7, 0, 0);
    q.params[0] = p0(TEX, 0, 0, false, false);
    CHECK(run(&q, out) & VC4_TMU_EV_BAD_CONFIG);
    /* cube map without a stride */
    q.params[0] = p0(TEX, 0, 0, true, false);
    q.params[1] = p1(0, 4, 4, true, 1, 0, 0);
    CHECK(run(&q, out) & VC4_TMU_EV_UNSUPPORTED);
    CHECK_CONTAINS(hd.text, "cube map stride");
    vc4_mem_fini(&mem);
}

/* ---- against a reference: layouts, formats, sizes, wrap modes, flips ---- */

/* (random numbers: xorshift32, seeded by each test) */
static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

/* A coordinate wrapped by GL's definitions (floored modulus written with
 * %, not the sampler's code); *border: outside for the border mode. */
static int ref_wrap(int v, unsigned mode, int n, bool *border)
{
    *border = false;
    switch (mode) {
    case VC4_TMU_WRAP_REPEAT:
        return ((v % n) + n) % n;
    case VC4_TMU_WRAP_CLAMP:
        return v < 0 ? 0 : v >= n ? n - 1 : v;
    case VC4_TMU_WRAP_MIRROR: {
        int p = ((v % (2 * n)) + 2 * n) % (2 * n);
        return p < n ? p : 2 * n - 1 - p;
    }
    default:
        *border = v < 0 || v >= n;
        return v;
    }
}

/* One random w x h level-0 texture at TEX in the layout the TMU derives
 * for it, every byte random (0 and 255 often); *g its geometry. */
static void random_tex(enum vc4_tex_format f, unsigned w, unsigned h, struct vc4_tex_geom *g)
{
    struct vc4_tex_mip_layout m;
    enum vc4_tex_layout lay = vc4_tex_format_info(f)->raster_only ? VC4_TEX_RASTER : VC4_TEX_T;
    CHECK(vc4_tex_mip_layout(&m, f, lay, w, h, 1, 1, NULL) == VC4_OK);
    *g = m.level[0].geom;
    for (uint32_t a = 0; a < g->size; a++) {
        uint32_t r = rnd();
        uint8_t b = (uint8_t)(r % 4 == 0 ? 0 : r % 4 == 1 ? 255 : r >> 8);
        vc4_mem_write(&mem, TEX + a, &b, 1);
    }
}

/* The texel (x, y) as the texture library reads it. */
static uint32_t ref_texel(enum vc4_tex_format f, const struct vc4_tex_geom *g, int x, int y)
{
    struct vc4_texel t;
    CHECK(vc4_tex_read_texel(f, g, vc4_mem_ptr(&mem, TEX, g->size), g->size, (unsigned)x, (unsigned)y, &t));
    return t.w[0];
}

/* Texel-space fixed point of a coordinate: 8 sub-texel bits, rounded down. */
static int ref_fixed(float s, unsigned n) { return (int)floorf(s * (float)n * 256.0f); }
static int ref_floor256(int u) { return u >= 0 ? u / 256 : -((-u + 255) / 256); }

/* Nearest and bilinear lookups of random textures against the reference
 * above: every wrap mode for s and t, FLIPY, power-of-two and other sizes,
 * T, LT and raster layouts, a format the sampler reads directly (RGBA8888)
 * and one it decodes (RGB565); the texture changes every request, so the
 * TMU's decoded-parameter reuse is exercised too.  Bilinear is checked per
 * channel: sum of texel * weight, weights (256 - fx)(256 - fy) .. fx fy,
 * rounded to nearest. */
static void test_against_reference(void)
{
    setup();
    rng_state = 99;
    static const struct { enum vc4_tex_format f; unsigned w, h; } texs[] = {
        {VC4_TEX_RGBA8888, 64, 64}, {VC4_TEX_RGBA8888, 40, 24}, {VC4_TEX_RGBA8888, 8, 4},
        {VC4_TEX_RGBA8888, 5, 3},   {VC4_TEX_RGB565, 48, 40},   {VC4_TEX_RGBA32R, 12, 7},
        {VC4_TEX_RGBA8888, 128, 32},
    };
    const uint32_t r = 0x80FF0012u;
    unsigned checked = 0, bad = 0;
    for (size_t ti = 0; ti < VC4_ARRAY_SIZE(texs); ti++) {
        enum vc4_tex_format f = texs[ti].f;
        unsigned w = texs[ti].w, h = texs[ti].h;
        struct vc4_tex_geom g;
        random_tex(f, w, h, &g);
        /* the border: R itself, the word the TMU returns for a border
         * texel in every format (Mesa packs it per format so: tmu_tex.c) */
        const uint32_t border = r;
        for (unsigned mode = 0; mode < 16 * 2 * 2; mode++) {
            unsigned ws = mode & 3u, wt = mode >> 2 & 3u;
            bool flip = mode >> 4 & 1u, linear = mode >> 5 & 1u;
            if (linear && f == VC4_TEX_RGB565)
                continue; /* (its channels are widened: nearest covers the decode) */
            struct req q = {.params = {p0(TEX, f, 0, false, flip),
                                       p1(f, w, h, !linear, linear ? VC4_TMU_MIN_LINEAR : VC4_TMU_MIN_NEAREST,
                                          ws, wt)}};
            q.has_r = q.use_r_raw = true;
            for (unsigned i = 0; i < 16; i++) {
                q.r_raw[i] = r;
                q.s[i] = (float)((int)(rnd() % 5000u) - 2500) / 1000.0f;
                q.t[i] = (float)((int)(rnd() % 5000u) - 2500) / 1000.0f;
            }
            uint32_t out[16];
            run(&q, out);
            for (unsigned i = 0; i < 16; i++) {
                int u = ref_fixed(q.s[i], w), v = ref_fixed(q.t[i], h);
                uint32_t want;
                if (!linear) {
                    bool bx, by;
                    int x = ref_wrap(ref_floor256(u), ws, (int)w, &bx), y = ref_wrap(ref_floor256(v), wt, (int)h, &by);
                    want = bx || by ? border : ref_texel(f, &g, x, flip ? (int)h - 1 - y : y);
                } else {
                    u -= 128;
                    v -= 128;
                    int x0 = ref_floor256(u), y0 = ref_floor256(v);
                    uint32_t fx = (uint32_t)(u - 256 * x0), fy = (uint32_t)(v - 256 * y0);
                    uint32_t c[4], wgt[4] = {(256 - fx) * (256 - fy), fx * (256 - fy), (256 - fx) * fy, fx * fy};
                    for (unsigned k = 0; k < 4; k++) {
                        bool bx, by;
                        int x = ref_wrap(x0 + (int)(k & 1u), ws, (int)w, &bx);
                        int y = ref_wrap(y0 + (int)(k >> 1), wt, (int)h, &by);
                        c[k] = bx || by ? border : ref_texel(f, &g, x, flip ? (int)h - 1 - y : y);
                    }
                    want = 0;
                    for (unsigned ch = 0; ch < 4; ch++) {
                        uint32_t sum = 32768;
                        for (unsigned k = 0; k < 4; k++)
                            sum += (c[k] >> (8 * ch) & 0xFFu) * wgt[k];
                        want |= (sum >> 16) << (8 * ch);
                    }
                }
                checked++;
                if (out[i] != want && bad++ < 5)
                    CHECK_MSG(false, "%s %ux%u wrap %u/%u flip %d %s (%g, %g): 0x%08x, expected 0x%08x",
                              vc4_tex_format_info(f)->name, w, h, ws, wt, flip, linear ? "bilinear" : "nearest",
                              (double)q.s[i], (double)q.t[i], out[i], want);
            }
        }
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(checked > 6000);
    CHECK_EQ_INT(hd.errors, 0);
    vc4_mem_fini(&mem);
}

/* A lookup whose every texel is the border's reads no image: a texture
 * outside RAM is reported only when a texel of it is read. */
static void test_border_reads_no_image(void)
{
    setup();
    struct req q = {.params = {p0(0x3F000000u, 16, 0, false, false), p1(16, 8, 8, false, VC4_TMU_MIN_LINEAR, 3, 3)}};
    q.has_r = q.use_r_raw = true;
    for (unsigned i = 0; i < 16; i++)
        q.r_raw[i] = 0x11223344u;
    fill(q.s, -2.0f);
    fill(q.t, 0.5f);
    uint32_t out[16];
    CHECK_EQ_U64(run(&q, out) & VC4_TMU_EV_FAULT, 0);
    CHECK_EQ_U64(out[3], 0x11223344u);
    CHECK_EQ_INT(hd.errors, 0);
    /* one texel inside: the image is located, and the fault reported */
    q.s[5] = 0.5f;
    CHECK(run(&q, out) & VC4_TMU_EV_FAULT);
    CHECK_EQ_INT(hd.errors, 1);
    vc4_mem_fini(&mem);
}

/* The cache model on a raster texture: an access to the line of the one
 * before it is a hit without a look at the tags.  A 32x2 RGBA32R texture:
 * each row is two 64-byte lines. */
static void test_cache_stats_raster(void)
{
    setup();
    raster_tex(TEX, 32, 2, 1);
    struct req q = {.params = {p0(TEX, 16, 0, false, false), p1(16, 32, 2, true, VC4_TMU_MIN_NEAREST, 1, 1)}};
    for (unsigned i = 0; i < 16; i++) {
        q.s[i] = ((float)i + 0.5f) / 32.0f; /* x = 0..15: line 0 */
        q.t[i] = 0.25f;
    }
    uint32_t out[16];
    run(&q, out);
    CHECK_EQ_U64(out[7], 7u | 1u << 16 | 0xFF000000u);
    CHECK_EQ_U64(tmu.stats.cache_misses, 1);
    CHECK_EQ_U64(tmu.stats.cache_hits, 15);
    /* x = 16..31 alternating with x = 0: lines 1, 0, 1, 0 ... each a hit
     * after the first touch of line 1, as the tags hold both lines */
    for (unsigned i = 0; i < 16; i++)
        q.s[i] = (i & 1u) ? 0.5f / 32.0f : ((float)(16 + i) + 0.5f) / 32.0f;
    run(&q, out);
    CHECK_EQ_U64(out[0], 16u | 1u << 16 | 0xFF000000u);
    CHECK_EQ_U64(tmu.stats.cache_misses, 2);
    CHECK_EQ_U64(tmu.stats.cache_hits, 30);
    CHECK_EQ_U64(tmu.stats.texels, 32);
    vc4_mem_fini(&mem);
}

/* Random parameters, registers and coordinates (NaN, infinities, huge) on
 * a 64 KiB memory: never a crash (run under the sanitizers), results
 * deterministic, every request answered. */
static uint64_t fuzz_pass(void)
{
    vc4_tmu_init(&tmu);
    vc4_mem_init(&mem, 1u << 16, NULL);
    for (uint32_t a = 0; a < (1u << 16); a += 4)
        vc4_mem_write32(&mem, a, a * 2654435761u);
    struct vc4_diag_sink quiet = {NULL, NULL};
    uint64_t hash = 0;
    static const uint32_t specials[] = {0x7FC00000u, 0x7F800000u, 0xFF800000u, 0x4F000000u,
                                        0xCF000000u, 0x80000000u, 0x3F800000u, 0x00000001u};
    for (unsigned n = 0; n < 3000; n++) {
        uint32_t v[16], out[16];
        uint64_t ready;
        unsigned regs = rnd() & 7u; /* T, R, B before S */
        if (!regs)
            regs = 1;
        for (unsigned r = 1; r < 4; r++) {
            if (!(regs >> (r - 1) & 1u))
                continue;
            for (unsigned i = 0; i < 16; i++)
                v[i] = rnd() % 4 == 0 ? specials[rnd() % 8] : vc4_f2u((float)(int32_t)rnd() / 1e9f);
            uint32_t par = rnd();
            if (rnd() & 1u) /* keep some textures inside memory */
                par = (par & 0x00000FFFu) | (rnd() % 16u) << 12;
            vc4_tmu_write(&tmu, &mem, 0, 0, (enum vc4_tmu_reg)r, 0xFFFF, v, par, 0, &quiet, NULL);
        }
        for (unsigned i = 0; i < 16; i++)
            v[i] = rnd() % 4 == 0 ? specials[rnd() % 8] : vc4_f2u((float)(int32_t)rnd() / 1e9f);
        uint32_t par = rnd() & 0x8FFFFFFFu; /* sizes up to 2048 */
        vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, v, par, 0, &quiet, NULL);
        while (vc4_tmu_pending(&tmu, 0, 0)) {
            vc4_tmu_load(&tmu, 0, 0, out, 0, &ready, &quiet, NULL);
            for (unsigned i = 0; i < 16; i++)
                hash = hash * 1099511628211u ^ out[i];
        }
    }
    vc4_mem_fini(&mem);
    return hash;
}

/* A random coordinate for the differential test: mostly inside [0, 1) or a
 * few periods around it (both footprint ways), sometimes on a texel edge,
 * far out, or a special value. */
static float rnd_coord(unsigned n)
{
    switch (rnd() % 8u) {
    case 0:
        return (float)(rnd() % (4u * n + 1u)) / (float)n - 2.0f; /* texel edges */
    case 1:
        return (float)(int32_t)rnd() / 65536.0f; /* far out */
    case 2: {
        static const float special[] = {0.0f, -0.0f, 1.0f, -1.0f, 1e30f, -1e30f, NAN, INFINITY};
        return special[rnd() % 8u];
    }
    case 3:
    case 4:
        return (float)(rnd() % 100000u) / 100000.0f;
    default:
        return (float)((int32_t)(rnd() % 800000u) - 400000) / 100000.0f;
    }
}

/* The sampler's fast bilinear footprint (tmu_tex.c footprint_fast) against
 * its general way (vc4_tmu_tex.general_only) on random requests: every
 * wrap mode, FLIPY, power-of-two and other sizes down to 1, T, LT and
 * raster layouts, mip levels, every filter, LOD bias, child images, the
 * formats read inline and one that is not (RGB565); each pair of runs
 * starts from the same cache model, and must give the same colours,
 * events, texel counts, misses, hits and cache tags. */
static void test_fast_footprint(void)
{
    setup();
    rng_state = 4242;
    for (uint32_t a = 0; a < 0x80000u; a += 4)
        vc4_mem_write32(&mem, TEX + a, rnd());
    static const enum vc4_tex_format fmts[] = {VC4_TEX_RGBA8888, VC4_TEX_RGBX8888, VC4_TEX_RGBA32R,
                                               VC4_TEX_RGBA8888, VC4_TEX_RGB565};
    struct harness_diags qd;
    struct vc4_diag_sink quiet = harness_sink(&qd);
    static struct vc4_tmu ta, tb;
    vc4_tmu_init(&ta);
    unsigned samples = 0, differ = 0;
    uint64_t texels = 0, misses = 0;
    for (unsigned it = 0; it < 4000; it++) {
        enum vc4_tex_format f = fmts[rnd() % VC4_ARRAY_SIZE(fmts)];
        unsigned w = rnd() % 3u == 0 ? 1u << rnd() % 8u : 1u + rnd() % 80u;
        unsigned h = rnd() % 3u == 0 ? 1u << rnd() % 8u : 1u + rnd() % 80u;
        uint32_t par[4] = {p0(TEX, f, rnd() % 4u, false, rnd() & 1u),
                           p1(f, w, h, rnd() & 1u, rnd() % 6u, rnd() % 4u, rnd() % 4u)};
        unsigned npar = 2;
        if (rnd() % 6u == 0) { /* a child image: P2 its size, P3 its place */
            par[2] = 2u << 30 | (1u + rnd() % h) << 12 | (1u + rnd() % w);
            par[3] = 3u << 30 | (rnd() % h) << 12 | (rnd() % w);
            npar = 4;
        }
        struct vc4_tmu_tex c;
        vc4_tmu_tex_decode(&c, par, npar, &quiet, NULL);
        struct vc4_tmu_tex general = c;
        general.general_only = true;
        uint32_t coord[4][16];
        unsigned written = 1u << VC4_TMU_S | 1u << VC4_TMU_T;
        if (rnd() % 4u == 0)
            written |= 1u << VC4_TMU_B;
        for (unsigned i = 0; i < 16; i++) {
            coord[VC4_TMU_S][i] = vc4_f2u(rnd_coord(w));
            coord[VC4_TMU_T][i] = vc4_f2u(rnd_coord(h));
            coord[VC4_TMU_R][i] = rnd();
            coord[VC4_TMU_B][i] = vc4_f2u((float)((int32_t)(rnd() % 1000u) - 500) / 100.0f);
        }
        tb = ta;
        uint32_t oa[2][16], ob[2][16];
        struct vc4_tmu_tex_work wa = {0}, wb = {0};
        unsigned eva = vc4_tmu_tex_sample(&c, &mem, (const uint32_t(*)[16])coord, written, oa,
                                          vc4_tmu_cache_tags(&ta, 1, 0), 0, &wa, &quiet, NULL);
        unsigned evb = vc4_tmu_tex_sample(&general, &mem, (const uint32_t(*)[16])coord, written, ob,
                                          vc4_tmu_cache_tags(&tb, 1, 0), 0, &wb, &quiet, NULL);
        samples += 16;
        texels += wa.texels;
        misses += wa.misses;
        bool same = eva == evb && memcmp(oa, ob, sizeof oa) == 0 && wa.texels == wb.texels &&
                    wa.misses == wb.misses &&
                    memcmp(ta.cache_tag, tb.cache_tag, sizeof ta.cache_tag) == 0;
        if (!same && differ++ < 3)
            CHECK_MSG(false, "%s %ux%u P0 0x%08x P1 0x%08x (%u params): element 0 0x%08x, general 0x%08x; "
                      "texels %llu / %llu, misses %llu / %llu",
                      vc4_tex_format_info(f)->name, w, h, par[0], par[1], npar, oa[0][0], ob[0][0],
                      (unsigned long long)wa.texels, (unsigned long long)wb.texels,
                      (unsigned long long)wa.misses, (unsigned long long)wb.misses);
        if (rnd() % 16u == 0)
            vc4_tmu_flush_caches(&ta);
    }
    CHECK_EQ_INT(differ, 0);
    CHECK_EQ_INT(samples, 4000 * 16);
    CHECK(misses > 1000 && texels > 2 * misses);
    vc4_mem_fini(&mem);
}

static void test_fuzz(void)
{
    rng_state = 12345;
    uint64_t a = fuzz_pass();
    rng_state = 12345;
    uint64_t b = fuzz_pass();
    CHECK_EQ_U64(a, b);
    CHECK(a != 0);
}

TEST_LIST(test_regression_border_word, test_regression_cube_lod_across_edge, test_decode, test_wrap, test_bilinear, test_quad_lod, test_mips, test_t_layout_texels,
          test_etc1_flip, test_cache_stats, test_cube, test_two_words, test_bad_configs, test_fuzz,
          test_against_reference, test_cache_stats_raster, test_border_reads_no_image, test_fast_footprint)
