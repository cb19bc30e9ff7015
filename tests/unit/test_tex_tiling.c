/*
 * test_tex_tiling.c - every pixel's address in raster, LT and T images, for
 * every bit depth, against an independent construction from seed 004's
 * prose: walk the image in memory order (4K tiles left to right on even
 * rows and right to left on odd rows; inside a tile the four 1 KB sub-tiles
 * clockwise from lower left on even rows and from upper right on odd rows;
 * 16 utiles in raster order in a sub-tile; pixels in raster order in a
 * utile) and number the pixels as they come.
 */
#define _POSIX_C_SOURCE 200809L
#include <unistd.h>

#include "harness.h"
#include "tex/tiling.h"
#include "vc4kit/tex.h"

static const unsigned depths[] = {1, 4, 8, 16, 32, 64};

/* Memory-order walk: calls back with (x, y) for consecutive pixel indices. */
static void walk_t(unsigned bpp, unsigned w_tiles, unsigned h_tiles, uint64_t *order, unsigned pw)
{
    unsigned uw, uh;
    vc4_tex_utile_dims(bpp, &uw, &uh);
    uint64_t n = 0;
    /* clockwise from lower left: (0,0) (0,1) (1,1) (1,0); from upper right: (1,1) (1,0) (0,0) (0,1) */
    static const unsigned even[4][2] = {{0, 0}, {0, 1}, {1, 1}, {1, 0}};
    static const unsigned odd[4][2] = {{1, 1}, {1, 0}, {0, 0}, {0, 1}};
    for (unsigned ty = 0; ty < h_tiles; ty++) {
        for (unsigned k = 0; k < w_tiles; k++) {
            unsigned tx = (ty % 2 == 0) ? k : w_tiles - 1 - k;
            for (unsigned s = 0; s < 4; s++) {
                const unsigned *sub = (ty % 2 == 0) ? even[s] : odd[s];
                for (unsigned u = 0; u < 16; u++) {
                    unsigned ux = (tx * 2 + sub[0]) * 4 + u % 4;
                    unsigned uy = (ty * 2 + sub[1]) * 4 + u / 4;
                    for (unsigned p = 0; p < uw * uh; p++) {
                        unsigned x = ux * uw + p % uw, y = uy * uh + p / uw;
                        order[(uint64_t)y * pw + x] = n++;
                    }
                }
            }
        }
    }
}

static void test_t_format_every_pixel(void)
{
    for (size_t d = 0; d < sizeof depths / sizeof depths[0]; d++) {
        unsigned bpp = depths[d], uw, uh;
        CHECK(vc4_tex_utile_dims(bpp, &uw, &uh));
        CHECK_EQ_INT(uw * uh * bpp, 64 * 8);
        /* 3 x 2 tiles, as in the seed's picture, plus 1 x 3 */
        const unsigned shapes[][2] = {{3, 2}, {1, 3}, {2, 1}};
        for (size_t s = 0; s < 3; s++) {
            unsigned w = shapes[s][0] * uw * 8, h = shapes[s][1] * uh * 8;
            struct vc4_tex_geom g;
            CHECK(vc4_tex_geom_init(&g, VC4_TEX_T, bpp, w, h));
            CHECK_EQ_INT(g.size, shapes[s][0] * shapes[s][1] * 4096);
            uint64_t *order = malloc(sizeof *order * w * h);
            walk_t(bpp, shapes[s][0], shapes[s][1], order, w);
            int bad = 0;
            for (unsigned y = 0; y < h; y++)
                for (unsigned x = 0; x < w; x++)
                    if (vc4_tex_bit_offset(&g, x, y) != order[(uint64_t)y * w + x] * bpp && bad++ < 3)
                        CHECK_MSG(0, "bpp %u %ux%u: (%u,%u) at bit %" PRIu64 ", expected %" PRIu64,
                                  bpp, w, h, x, y, vc4_tex_bit_offset(&g, x, y),
                                  order[(uint64_t)y * w + x] * bpp);
            free(order);
        }
    }
}

static void test_lt_and_raster(void)
{
    for (size_t d = 0; d < sizeof depths / sizeof depths[0]; d++) {
        unsigned bpp = depths[d], uw, uh;
        vc4_tex_utile_dims(bpp, &uw, &uh);
        unsigned w = uw * 3, h = uh * 2;
        struct vc4_tex_geom g;
        CHECK(vc4_tex_geom_init(&g, VC4_TEX_LT, bpp, w - 1, h - 1)); /* padded up to utiles */
        CHECK_EQ_INT(g.padded_w, w);
        CHECK_EQ_INT(g.padded_h, h);
        CHECK_EQ_INT(g.size, 6 * 64);
        /* LT: utiles in raster order, pixels raster inside */
        uint64_t n = 0;
        int bad = 0;
        for (unsigned uy = 0; uy < 2; uy++)
            for (unsigned ux = 0; ux < 3; ux++)
                for (unsigned p = 0; p < uw * uh; p++, n++) {
                    unsigned x = ux * uw + p % uw, y = uy * uh + p / uw;
                    if (vc4_tex_bit_offset(&g, x, y) != n * bpp && bad++ < 3)
                        CHECK_MSG(0, "LT bpp %u (%u,%u)", bpp, x, y);
                }
        CHECK(vc4_tex_geom_init(&g, VC4_TEX_RASTER, bpp, w, h));
        CHECK_EQ_U64(vc4_tex_bit_offset(&g, 1, 1), (uint64_t)w * bpp + bpp);
    }
}

/* Sizes that are not multiples of utiles or 4K tiles: every pixel of the
 * picture, every bit depth, T, LT and raster, against the walk above run
 * over the padded image (T: whole 4K tiles; LT: whole utiles in raster
 * order; raster: rows padded to the utile width, Mesa vc4_setup_slices). */
static void test_odd_sizes_every_pixel(void)
{
    static const unsigned sizes[][2] = {{1, 1}, {3, 70}, {45, 9}, {129, 33}, {250, 17}};
    for (size_t d = 0; d < sizeof depths / sizeof depths[0]; d++) {
        unsigned bpp = depths[d], uw, uh;
        vc4_tex_utile_dims(bpp, &uw, &uh);
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            unsigned w = sizes[s][0], h = sizes[s][1];
            struct vc4_tex_geom g;
            int bad = 0;
            /* T */
            unsigned tw = (w + uw * 8 - 1) / (uw * 8), th = (h + uh * 8 - 1) / (uh * 8);
            unsigned pw = tw * uw * 8, ph = th * uh * 8;
            CHECK(vc4_tex_geom_init(&g, VC4_TEX_T, bpp, w, h));
            CHECK_EQ_INT(g.size, tw * th * 4096);
            uint64_t *order = malloc(sizeof *order * pw * ph);
            walk_t(bpp, tw, th, order, pw);
            for (unsigned y = 0; y < h; y++)
                for (unsigned x = 0; x < w; x++)
                    if (vc4_tex_bit_offset(&g, x, y) != order[(uint64_t)y * pw + x] * bpp && bad++ < 3)
                        CHECK_MSG(0, "T bpp %u %ux%u (%u,%u)", bpp, w, h, x, y);
            free(order);
            /* LT */
            unsigned uxs = (w + uw - 1) / uw, uys = (h + uh - 1) / uh;
            CHECK(vc4_tex_geom_init(&g, VC4_TEX_LT, bpp, w, h));
            CHECK_EQ_INT(g.size, uxs * uys * 64);
            for (unsigned y = 0; y < h; y++)
                for (unsigned x = 0; x < w; x++) {
                    uint64_t n = ((uint64_t)(y / uh) * uxs + x / uw) * uw * uh + (y % uh) * uw + x % uw;
                    if (vc4_tex_bit_offset(&g, x, y) != n * bpp && bad++ < 3)
                        CHECK_MSG(0, "LT bpp %u %ux%u (%u,%u)", bpp, w, h, x, y);
                }
            /* raster */
            uint64_t row_bits = (uint64_t)uxs * uw * bpp;
            CHECK(vc4_tex_geom_init(&g, VC4_TEX_RASTER, bpp, w, h));
            CHECK_EQ_INT(g.size, row_bits / 8 * h);
            for (unsigned y = 0; y < h; y++)
                for (unsigned x = 0; x < w; x++)
                    if (vc4_tex_bit_offset(&g, x, y) != y * row_bits + (uint64_t)x * bpp && bad++ < 3)
                        CHECK_MSG(0, "raster bpp %u %ux%u (%u,%u)", bpp, w, h, x, y);
        }
    }
}

/* The sampler's step to the next column (tiling.h vc4_tex_axis_x_next)
 * against the column's axis computed afresh: every layout and depth, every
 * column of padded images of several sizes, on both tile-row parities. */
static void test_axis_x_next(void)
{
    static const unsigned sizes[][2] = {{1, 1}, {3, 70}, {45, 9}, {129, 33}, {250, 17}, {64, 64}};
    static const enum vc4_tex_layout layouts[] = {VC4_TEX_RASTER, VC4_TEX_LT, VC4_TEX_T};
    unsigned bad = 0, checked = 0, stepped = 0;
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
        for (size_t d = 0; d < sizeof depths / sizeof depths[0]; d++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                struct vc4_tex_geom g;
                CHECK(vc4_tex_geom_init(&g, layouts[l], depths[d], sizes[s][0], sizes[s][1]));
                for (unsigned x = 0; x + 1 < g.padded_w; x++) {
                    struct vc4_tex_axis a = vc4_tex_axis_x(&g, x), n = vc4_tex_axis_x_next(&g, &a, x),
                                        want = vc4_tex_axis_x(&g, x + 1);
                    checked++;
                    stepped += (x + 1) % g.utile_w != 0;
                    if ((n.bit[0] != want.bit[0] || n.bit[1] != want.bit[1] || n.half != want.half ||
                         n.odd != want.odd) && bad++ < 3)
                        CHECK_MSG(0, "layout %d bpp %u %ux%u column %u", (int)layouts[l], depths[d],
                                  sizes[s][0], sizes[s][1], x + 1);
                }
            }
    CHECK_EQ_INT(bad, 0);
    CHECK(stepped > checked / 2);
}

/* The row walk (tiling.h vc4_tex_row_begin / vc4_tex_row_next, used by
 * the tile buffer's loads and stores) against vc4_tex_bit_offset: every
 * element of every row of padded images, from the first column and from
 * a column inside a utile, every layout and depth. */
static void test_row_walk(void)
{
    static const unsigned sizes[][2] = {{1, 1}, {3, 70}, {45, 9}, {129, 33}, {64, 64}};
    static const enum vc4_tex_layout layouts[] = {VC4_TEX_RASTER, VC4_TEX_LT, VC4_TEX_T};
    unsigned bad = 0, checked = 0;
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
        for (size_t d = 0; d < sizeof depths / sizeof depths[0]; d++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                struct vc4_tex_geom g;
                CHECK(vc4_tex_geom_init(&g, layouts[l], depths[d], sizes[s][0], sizes[s][1]));
                for (unsigned y = 0; y < g.padded_h; y++)
                    for (unsigned x0 = 0; x0 < 2 && x0 < g.padded_w; x0++) {
                        struct vc4_tex_row_walk w;
                        vc4_tex_row_begin(&w, &g, x0 * 3 % g.padded_w, y);
                        for (unsigned x = x0 * 3 % g.padded_w; x < g.padded_w; x++, checked++)
                            if (vc4_tex_row_next(&w) != vc4_tex_bit_offset(&g, x, y) && bad++ < 3)
                                CHECK_MSG(0, "layout %d bpp %u %ux%u (%u, %u)", (int)layouts[l], depths[d],
                                          sizes[s][0], sizes[s][1], x, y);
                    }
            }
    CHECK_EQ_INT(bad, 0);
    CHECK(checked > 100000);
}

static void test_level_layout_rule(void)
{
    /* 32 bpp: utile 4x4; a level is LT when either side is <= 16 pixels */
    CHECK_EQ_INT(vc4_tex_level_layout(32, 64, 64), VC4_TEX_T);
    CHECK_EQ_INT(vc4_tex_level_layout(32, 16, 64), VC4_TEX_LT);
    CHECK_EQ_INT(vc4_tex_level_layout(32, 64, 16), VC4_TEX_LT);
    CHECK_EQ_INT(vc4_tex_level_layout(32, 17, 17), VC4_TEX_T);
    CHECK_EQ_INT(vc4_tex_level_layout(16, 32, 16), VC4_TEX_LT);
    CHECK_EQ_INT(vc4_tex_level_layout(16, 33, 17), VC4_TEX_T);
}

static void test_bad_geometry(void)
{
    struct vc4_tex_geom g;
    CHECK(!vc4_tex_geom_init(&g, VC4_TEX_T, 24, 16, 16));
    CHECK(!vc4_tex_geom_init(&g, VC4_TEX_T, 32, 0, 16));
    CHECK(!vc4_tex_geom_init(&g, VC4_TEX_T, 32, 4096, 16));
    CHECK(vc4_tex_geom_init(&g, VC4_TEX_T, 32, 2048, 2048));
    CHECK_EQ_U64(g.size, 2048u * 2048u * 4u);
}

static void test_formats(void)
{
    CHECK_STR(vc4_tex_format_info(VC4_TEX_RGBA8888)->name, "RGBA8888");
    CHECK_EQ_INT(vc4_tex_format_info(VC4_TEX_ETC1)->bpp, 4);
    CHECK_EQ_INT(vc4_tex_format_info(VC4_TEX_BW1)->bpp, 1);
    CHECK_EQ_INT(vc4_tex_format_info(VC4_TEX_RGBA64)->bpp, 64);
    CHECK(vc4_tex_format_info(VC4_TEX_RGBA32R)->raster_only);
    CHECK(vc4_tex_format_info(VC4_TEX_FORMAT_COUNT) == NULL);
}

static void test_png_round_trip(void)
{
    uint8_t img[3 * 2 * 4];
    for (size_t i = 0; i < sizeof img; i++)
        img[i] = (uint8_t)(i * 37);
    char path[] = "/tmp/vc4kit_png_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    struct harness_diags h;
    struct vc4_diag_sink sink = harness_sink(&h);
    CHECK_EQ_INT(vc4_png_write(path, img, 3, 2, 12, &sink), VC4_OK);
    uint8_t *back;
    unsigned w, hh;
    CHECK_EQ_INT(vc4_png_read(path, &back, &w, &hh, &sink), VC4_OK);
    CHECK_EQ_INT(w, 3);
    CHECK_EQ_INT(hh, 2);
    CHECK(memcmp(back, img, sizeof img) == 0);
    free(back);
    remove(path);
    CHECK_EQ_INT(vc4_png_read("/nonexistent/x.png", &back, &w, &hh, &sink), VC4_ERR_IO);
    CHECK(h.errors == 1);
}

TEST_LIST(test_t_format_every_pixel, test_lt_and_raster, test_odd_sizes_every_pixel, test_axis_x_next, test_row_walk, test_level_layout_rule, test_bad_geometry,
          test_formats, test_png_round_trip)
