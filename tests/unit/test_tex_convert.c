/*
 * test_tex_convert.c - whole pictures to textures and back: every format in
 * every layout it is read in, at sizes that are and are not multiples of
 * tiles; flip-Y; the ETC1 encoder's quality; mip-chain generation.
 */
#include "harness.h"
#include "vc4kit/tex.h"

static uint32_t rng_state = 12345;
static uint8_t rnd(void)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return (uint8_t)(rng_state >> 16);
}

/* A picture of values the format represents exactly: random RGBA through
 * the format and back, so encode + decode must reproduce it bit for bit. */
static uint8_t *representable(enum vc4_tex_format f, unsigned w, unsigned h)
{
    uint8_t *p = malloc((size_t)w * h * 4);
    for (size_t i = 0; i < (size_t)w * h; i++) {
        uint8_t in[4] = {rnd(), rnd(), rnd(), rnd()};
        struct vc4_texel t;
        vc4_tex_texel_from_rgba8(f, in, &t);
        vc4_tex_texel_to_rgba8(f, &t, p + i * 4);
    }
    return p;
}

static void test_every_format_layout_round_trips(void)
{
    static const unsigned sizes[][2] = {{1, 1}, {5, 3}, {37, 23}, {64, 64}, {130, 70}};
    for (unsigned f = 0; f < VC4_TEX_FORMAT_COUNT; f++) {
        if (f == VC4_TEX_ETC1)
            continue;
        const struct vc4_tex_format_info *fi = vc4_tex_format_info(f);
        static const enum vc4_tex_layout tiled[] = {VC4_TEX_T, VC4_TEX_LT};
        static const enum vc4_tex_layout raster[] = {VC4_TEX_RASTER};
        const enum vc4_tex_layout *lays = fi->raster_only ? raster : tiled;
        unsigned nlays = fi->raster_only ? 1 : 2;
        for (unsigned li = 0; li < nlays; li++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                unsigned w = sizes[s][0], h = sizes[s][1];
                for (int flip = 0; flip < 2; flip++) {
                    struct vc4_tex_geom g;
                    CHECK(vc4_tex_geom_init_format(&g, f, lays[li], w, h));
                    uint8_t *pic = representable(f, w, h), *back = malloc((size_t)w * h * 4);
                    uint8_t *tex = malloc(g.size);
                    CHECK_EQ_INT(vc4_tex_encode_image(f, &g, tex, g.size, pic, w * 4, w, h, flip, NULL), VC4_OK);
                    CHECK_EQ_INT(vc4_tex_decode_image(f, &g, tex, g.size, back, w * 4, w, h, flip, NULL), VC4_OK);
                    CHECK_MSG(memcmp(pic, back, (size_t)w * h * 4) == 0, "%s layout %d %ux%u flip %d",
                              fi->name, lays[li], w, h, flip);
                    free(pic);
                    free(back);
                    free(tex);
                }
            }
    }
}

static void test_flip_y(void)
{
    /* 2x2 picture, rows top-down: A B / C D.  Without flip texture row 0
     * (t = 0, first in memory) is A B; with flip it is C D. */
    const uint8_t pic[16] = {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4};
    struct vc4_tex_geom g;
    CHECK(vc4_tex_geom_init_format(&g, VC4_TEX_RGBA32R, VC4_TEX_RASTER, 2, 2));
    uint8_t tex[64];
    CHECK_EQ_INT(vc4_tex_encode_image(VC4_TEX_RGBA32R, &g, tex, sizeof tex, pic, 8, 2, 2, false, NULL), VC4_OK);
    CHECK_EQ_INT(tex[0], 1);
    CHECK_EQ_INT(tex[4], 2);
    CHECK_EQ_INT(tex[g.row_bytes], 3);
    CHECK_EQ_INT(vc4_tex_encode_image(VC4_TEX_RGBA32R, &g, tex, sizeof tex, pic, 8, 2, 2, true, NULL), VC4_OK);
    CHECK_EQ_INT(tex[0], 3);
    CHECK_EQ_INT(tex[4], 4);
    CHECK_EQ_INT(tex[g.row_bytes], 1);
}

static void test_etc1_quality(void)
{
    /* a smooth 64x64 gradient: ETC1 keeps it within a few levels (measured:
     * mse 8.4, PSNR 38.9 dB, largest error 9) */
    const unsigned w = 64, h = 64;
    uint8_t *pic = malloc(w * h * 4), *back = malloc(w * h * 4);
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            uint8_t *p = pic + (y * w + x) * 4;
            p[0] = (uint8_t)(x * 4);
            p[1] = (uint8_t)(y * 4);
            p[2] = (uint8_t)(128 + (x + y) / 2);
            p[3] = 255;
        }
    for (int lay = 0; lay < 2; lay++) {
        struct vc4_tex_geom g;
        CHECK(vc4_tex_geom_init_format(&g, VC4_TEX_ETC1, lay ? VC4_TEX_LT : VC4_TEX_T, w, h));
        uint8_t *tex = malloc(g.size);
        CHECK_EQ_INT(vc4_tex_encode_image(VC4_TEX_ETC1, &g, tex, g.size, pic, w * 4, w, h, false, NULL), VC4_OK);
        CHECK_EQ_INT(vc4_tex_decode_image(VC4_TEX_ETC1, &g, tex, g.size, back, w * 4, w, h, false, NULL), VC4_OK);
        double se = 0;
        int maxd = 0;
        for (unsigned i = 0; i < w * h * 4; i++) {
            int d = (int)pic[i] - (int)back[i];
            if (i % 4 == 3) {
                CHECK(back[i] == 255);
                continue;
            }
            se += d * d;
            maxd = d > maxd ? d : -d > maxd ? -d : maxd;
        }
        double mse = se / (w * h * 3);
        CHECK_MSG(mse < 10.0 && maxd <= 12, "ETC1 gradient: mse %.2f max %d", mse, maxd);
        /* the same picture encodes to the same bytes (deterministic) */
        uint8_t *tex2 = malloc(g.size);
        vc4_tex_encode_image(VC4_TEX_ETC1, &g, tex2, g.size, pic, w * 4, w, h, false, NULL);
        CHECK(memcmp(tex, tex2, g.size) == 0);
        free(tex);
        free(tex2);
    }
    /* a block of one colour that 4-bit individual mode plus modifier 2 hits
     * exactly: (0x11 + 2, 0x88 + 2, 0xEE + 2) */
    uint32_t solid[16];
    for (int i = 0; i < 16; i++)
        solid[i] = 0xFFF08A13u;
    uint8_t block[8];
    uint32_t dec[16];
    vc4_tex_etc1_encode_block(solid, block);
    vc4_tex_etc1_decode_block(block, dec);
    for (int i = 0; i < 16; i++)
        CHECK_EQ_U64(dec[i], 0xFFF08A13u);
    free(pic);
    free(back);
}

static void test_box_halve(void)
{
    /* 3x3 grey picture 0..8: 1x1 result = round((0 + 1 + 3 + 4) / 4) = 2 */
    uint8_t pic[36], out[4];
    for (int i = 0; i < 9; i++)
        memset(pic + i * 4, i, 4);
    vc4_tex_box_halve(pic, 12, 3, 3, out);
    CHECK_EQ_INT(out[0], 2);
    /* 1x3 column: halves to 1x1 of rows 0 and 1 (the width stays 1, clamped) */
    uint8_t col[12] = {10, 10, 10, 10, 21, 21, 21, 21, 99, 99, 99, 99};
    vc4_tex_box_halve(col, 4, 1, 3, out);
    CHECK_EQ_INT(out[0], 16); /* (10 + 10 + 21 + 21 + 2) / 4 */
}

static void test_mip_chain(void)
{
    /* 64x64 RGBA8888 T with 3 levels: level 1 texel (x, y) is the rounded
     * average of level 0's 2x2 block; read it back where the layout says */
    const unsigned w = 64, h = 64;
    uint8_t *pic = malloc(w * h * 4);
    for (unsigned i = 0; i < w * h * 4; i++)
        pic[i] = rnd();
    struct vc4_tex_mip_layout m;
    CHECK_EQ_INT(vc4_tex_mip_layout(&m, VC4_TEX_RGBA8888, VC4_TEX_T, w, h, 3, 1, NULL), VC4_OK);
    uint8_t *tex = malloc(m.size);
    const uint8_t *faces[1] = {pic};
    CHECK_EQ_INT(vc4_tex_encode_texture(&m, tex, m.size, faces, w * 4, false, NULL), VC4_OK);
    const uint8_t *l1 = tex + vc4_tex_image_offset(&m, 1, 0);
    CHECK_EQ_INT(vc4_tex_image_offset(&m, 1, 0), 8192 - 4096); /* base 8 KB, level 1 4 KB below */
    int bad = 0;
    for (unsigned y = 0; y < 32; y++)
        for (unsigned x = 0; x < 32; x++) {
            struct vc4_texel t;
            CHECK(vc4_tex_read_texel(VC4_TEX_RGBA8888, &m.level[1].geom, l1, m.level[1].geom.size, x, y, &t));
            for (unsigned c = 0; c < 4; c++) {
                unsigned sum = pic[((2 * y) * w + 2 * x) * 4 + c] + pic[((2 * y) * w + 2 * x + 1) * 4 + c] +
                               pic[((2 * y + 1) * w + 2 * x) * 4 + c] +
                               pic[((2 * y + 1) * w + 2 * x + 1) * 4 + c];
                if (((t.w[0] >> (8 * c)) & 0xFF) != (sum + 2) / 4 && bad++ < 3)
                    CHECK_MSG(0, "level 1 (%u,%u) channel %u", x, y, c);
            }
        }
    /* level 0 decodes to the picture */
    uint8_t *back = malloc(w * h * 4);
    CHECK_EQ_INT(vc4_tex_decode_image(VC4_TEX_RGBA8888, &m.level[0].geom, tex + m.base_offset,
                                      m.size - m.base_offset, back, w * 4, w, h, false, NULL), VC4_OK);
    CHECK(memcmp(back, pic, w * h * 4) == 0);
    free(back);
    free(tex);
    free(pic);
}

static void test_bad_conversions(void)
{
    struct harness_diags hd;
    struct vc4_diag_sink sink = harness_sink(&hd);
    struct vc4_tex_geom g;
    uint8_t pic[64 * 4] = {0}, tex[256];
    CHECK(vc4_tex_geom_init_format(&g, VC4_TEX_RGBA8888, VC4_TEX_LT, 4, 4));
    /* picture larger than the image, buffer too small, wrong format for the geometry */
    CHECK_EQ_INT(vc4_tex_encode_image(VC4_TEX_RGBA8888, &g, tex, sizeof tex, pic, 32, 8, 4, false, &sink), VC4_ERR_INVALID);
    CHECK_EQ_INT(vc4_tex_encode_image(VC4_TEX_RGBA8888, &g, tex, 32, pic, 16, 4, 4, false, &sink), VC4_ERR_RANGE);
    CHECK_EQ_INT(vc4_tex_decode_image(VC4_TEX_RGB565, &g, tex, sizeof tex, pic, 16, 4, 4, false, &sink), VC4_ERR_INVALID);
    CHECK_EQ_INT(vc4_tex_encode_image(VC4_TEX_RGBA8888, &g, tex, sizeof tex, pic, 8, 4, 4, false, &sink), VC4_ERR_INVALID);
    CHECK_EQ_INT(hd.errors, 4);
}

TEST_LIST(test_every_format_layout_round_trips, test_flip_y, test_etc1_quality, test_box_halve,
          test_mip_chain, test_bad_conversions)
