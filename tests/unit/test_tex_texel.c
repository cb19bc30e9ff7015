/*
 * test_tex_texel.c - known texels of every texture format, with the bytes
 * placed by hand (offsets computed here from the utile rules, not by the
 * library) and the expected TMU words computed by hand from the channel
 * conventions documented in src/tex/texel.c; then write/read round trips
 * over every stored value, and the 8-bit host conversions.
 */
#include "harness.h"
#include "vc4kit/tex.h"

struct known {
    enum vc4_tex_format format;
    enum vc4_tex_layout layout;
    unsigned w, h;          /* image size in pixels */
    unsigned x, y;          /* texel read */
    unsigned byte;          /* where its bytes go (hand-computed) */
    uint8_t bytes[8];
    unsigned nbytes;
    uint32_t w0, w1;        /* expected */
};

/*
 * Offsets: LT images of one utile store pixels in raster order, row 0 first
 * (32 bpp 4x4, 16 bpp 8x4, 8 bpp 8x8, 64 bpp 2x4; 4 bpp 16x8 and 1 bpp 32x16
 * with the first pixel in the low bits of a byte).  Raster: row * stride.
 */
static const struct known cases[] = {
    /* RGBA8888 (1,2) in a 4x4 LT utile: byte (2*4+1)*4 = 36 */
    {VC4_TEX_RGBA8888, VC4_TEX_LT, 4, 4, 1, 2, 36, {0x11, 0x22, 0x33, 0x44}, 4, 0x44332211u, 0},
    /* RGBX8888: the X byte is not returned, and written back as 0 */
    {VC4_TEX_RGBX8888, VC4_TEX_LT, 4, 4, 3, 3, 60, {0x11, 0x22, 0x33, 0x00}, 4, 0xFF332211u, 0},
    /* RGBA4444 0x1234: R 1, G 2, B 3, A 4, each x17; (5,1) of 8x4: (1*8+5)*2 = 26 */
    {VC4_TEX_RGBA4444, VC4_TEX_LT, 8, 4, 5, 1, 26, {0x34, 0x12}, 2, 0x44332211u, 0},
    /* RGBA5551 0xF821: R 31 -> FF, G 0, B 16 -> 84, A 1 -> FF */
    {VC4_TEX_RGBA5551, VC4_TEX_LT, 8, 4, 0, 0, 0, {0x21, 0xF8}, 2, 0xFF8400FFu, 0},
    /* RGB565 0x07E0: G 63 -> FF; 0x8010: R 16 -> 84, B 16 -> 84 */
    {VC4_TEX_RGB565, VC4_TEX_LT, 8, 4, 7, 3, 62, {0xE0, 0x07}, 2, 0xFF00FF00u, 0},
    {VC4_TEX_RGB565, VC4_TEX_LT, 8, 4, 1, 0, 2, {0x10, 0x80}, 2, 0xFF840084u, 0},
    /* 8 bpp 8x8: (3,5) at 5*8+3 = 43 */
    {VC4_TEX_LUMINANCE, VC4_TEX_LT, 8, 8, 3, 5, 43, {0x5A}, 1, 0xFF5A5A5Au, 0},
    {VC4_TEX_ALPHA, VC4_TEX_LT, 8, 8, 3, 5, 43, {0x5A}, 1, 0x5A000000u, 0},
    {VC4_TEX_LUMALPHA, VC4_TEX_LT, 8, 4, 2, 2, 36, {0x12, 0x34}, 2, 0x34121212u, 0},
    {VC4_TEX_S8, VC4_TEX_LT, 8, 8, 7, 7, 63, {0x7F}, 1, 0x7F7F7F7Fu, 0},
    /* 16-bit channels: two words */
    {VC4_TEX_S16, VC4_TEX_LT, 8, 4, 1, 1, 18, {0xEF, 0xBE}, 2, 0xBEEFBEEFu, 0xBEEFBEEFu},
    {VC4_TEX_S16F, VC4_TEX_LT, 8, 4, 0, 3, 48, {0x00, 0x3C}, 2, 0x3C003C00u, 0x3C003C00u},
    /* RGBA64 2x4 utile: (1,2) at (2*2+1)*8 = 40; R 1.0, G 0.5, B 0, A -1.0 */
    {VC4_TEX_RGBA64, VC4_TEX_LT, 2, 4, 1, 2, 40, {0x00, 0x3C, 0x00, 0x38, 0x00, 0x00, 0x00, 0xBC}, 8,
     0x38003C00u, 0xBC000000u},
    /* 1 bpp 32x16: (9,1) is pixel 41: byte 5 bit 1 */
    {VC4_TEX_BW1, VC4_TEX_LT, 32, 16, 9, 1, 5, {0x02}, 1, 0xFFFFFFFFu, 0},
    {VC4_TEX_BW1, VC4_TEX_LT, 32, 16, 8, 1, 5, {0x02}, 1, 0xFF000000u, 0},
    {VC4_TEX_A1, VC4_TEX_LT, 32, 16, 31, 15, 63, {0x80}, 1, 0xFF000000u, 0},
    {VC4_TEX_A1, VC4_TEX_LT, 32, 16, 30, 15, 63, {0x80}, 1, 0x00000000u, 0},
    /* 4 bpp 16x8: (2,1) is pixel 18, (3,1) pixel 19: byte 9, low then high nibble */
    {VC4_TEX_A4, VC4_TEX_LT, 16, 8, 2, 1, 9, {0xA5}, 1, 0x55000000u, 0},
    {VC4_TEX_A4, VC4_TEX_LT, 16, 8, 3, 1, 9, {0xA5}, 1, 0xAA000000u, 0},
    /* raster 5x3 RGBA32R: stride 8 pixels (utile width 4) = 32 bytes; (4,2) at 64 + 16 */
    {VC4_TEX_RGBA32R, VC4_TEX_RASTER, 5, 3, 4, 2, 80, {1, 2, 3, 4}, 4, 0x04030201u, 0},
    {VC4_TEX_YUYV422R, VC4_TEX_RASTER, 5, 3, 1, 1, 36, {0x10, 0x80, 0xEB, 0x7F}, 4, 0x7FEB8010u, 0},
    /*
     * ETC1, individual mode: R1 8 R2 0, G1 4 G2 F, B1 2 B2 1, tables 0 and 7,
     * no flip.  Pixel p = x*4+y; MSBs in bytes 4-5, LSBs in 6-7 (byte 5 /
     * 7 hold p 0..7).  (0,0) idx 0: +2 on (88,44,22); (1,2) p6 idx 3: -8;
     * (3,1) p13 sub-block 2 idx 1: +183 on (00,FF,11); (2,3) p11 idx 2: -47.
     */
    {VC4_TEX_ETC1, VC4_TEX_LT, 4, 4, 0, 0, 0, {0x80, 0x4F, 0x21, 0x1C, 0x08, 0x40, 0x20, 0x40}, 8,
     0xFF24468Au, 0},
    {VC4_TEX_ETC1, VC4_TEX_LT, 4, 4, 1, 2, 0, {0x80, 0x4F, 0x21, 0x1C, 0x08, 0x40, 0x20, 0x40}, 8,
     0xFF1A3C80u, 0},
    {VC4_TEX_ETC1, VC4_TEX_LT, 4, 4, 3, 1, 0, {0x80, 0x4F, 0x21, 0x1C, 0x08, 0x40, 0x20, 0x40}, 8,
     0xFFC8FFB7u, 0},
    {VC4_TEX_ETC1, VC4_TEX_LT, 4, 4, 2, 3, 0, {0x80, 0x4F, 0x21, 0x1C, 0x08, 0x40, 0x20, 0x40}, 8,
     0xFF00D000u, 0},
    /*
     * ETC1, differential: R 16 dR -1, G 0 dG +3, B 10 dB 0, tables 1 and 2,
     * flip (sub-block 2 = rows 2-3).  Sub-block colours (84,00,52) and
     * (7B,18,52).  (0,0) +5; (3,3) p15 sub-block 2 +9; (2,1) p9 idx 3: -17.
     * The block sits at (9,5) of a 12x8 LT image: block (2,1) of 3x2 blocks,
     * 64 bpp utile 2x4 blocks: utile 1, element 0 -> byte 64 + 8 * 1... see
     * below: block (2,1) is utile (1,0) element (0,1): 64 + (1*2+0)*8 = 80.
     */
    {VC4_TEX_ETC1, VC4_TEX_LT, 12, 8, 8, 4, 80, {0x87, 0x03, 0x50, 0x2B, 0x02, 0x00, 0x02, 0x00}, 8,
     0xFF570589u, 0},
    {VC4_TEX_ETC1, VC4_TEX_LT, 12, 8, 11, 7, 80, {0x87, 0x03, 0x50, 0x2B, 0x02, 0x00, 0x02, 0x00}, 8,
     0xFF5B2184u, 0},
    {VC4_TEX_ETC1, VC4_TEX_LT, 12, 8, 10, 5, 80, {0x87, 0x03, 0x50, 0x2B, 0x02, 0x00, 0x02, 0x00}, 8,
     0xFF410073u, 0},
};

static void test_known_texels(void)
{
    bool seen[VC4_TEX_FORMAT_COUNT] = {false};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct known *k = &cases[i];
        struct vc4_tex_geom g;
        CHECK_MSG(vc4_tex_geom_init_format(&g, k->format, k->layout, k->w, k->h), "case %zu geom", i);
        uint8_t *img = calloc(1, g.size);
        memcpy(img + k->byte, k->bytes, k->nbytes);
        struct vc4_texel t;
        CHECK_MSG(vc4_tex_read_texel(k->format, &g, img, g.size, k->x, k->y, &t), "case %zu read", i);
        CHECK_MSG(t.w[0] == k->w0 && t.w[1] == k->w1, "case %zu (%s (%u,%u)): %08x %08x, expected %08x %08x",
                  i, vc4_tex_format_info(k->format)->name, k->x, k->y, t.w[0], t.w[1], k->w0, k->w1);
        /* writing the texel back gives the same bytes (not ETC1) */
        if (k->format != VC4_TEX_ETC1) {
            uint8_t *img2 = calloc(1, g.size);
            memcpy(img2, img, g.size);
            CHECK(vc4_tex_write_texel(k->format, &g, img2, g.size, k->x, k->y, &t));
            CHECK_MSG(memcmp(img, img2, g.size) == 0, "case %zu write-back", i);
            free(img2);
        }
        free(img);
        seen[k->format] = true;
    }
    for (unsigned f = 0; f < VC4_TEX_FORMAT_COUNT; f++)
        CHECK_MSG(seen[f], "no known texel for %s", vc4_tex_format_info(f)->name);
}

static void test_etc1_block_api(void)
{
    const uint8_t block[8] = {0x80, 0x4F, 0x21, 0x1C, 0x08, 0x40, 0x20, 0x40};
    uint32_t px[16];
    vc4_tex_etc1_decode_block(block, px);
    CHECK_EQ_U64(px[0], 0xFF24468Au);
    CHECK_EQ_U64(px[2 * 4 + 1], 0xFF1A3C80u);
    CHECK_EQ_U64(px[1 * 4 + 3], 0xFFC8FFB7u);
    CHECK_EQ_U64(px[3 * 4 + 2], 0xFF00D000u);
    /* untouched pixels have index 0: +2 in sub-block 1, +47 in sub-block 2 */
    CHECK_EQ_U64(px[3 * 4 + 0], 0xFF24468Au);
    CHECK_EQ_U64(px[0 * 4 + 3], 0xFF40FF2Fu);
}

/* Every stored value of every format with elements of at most 16 bits:
 * write(read(v)) == v, so decoding loses nothing and encoding inverts it. */
static void test_every_value_round_trips(void)
{
    for (unsigned f = 0; f < VC4_TEX_FORMAT_COUNT; f++) {
        const struct vc4_tex_format_info *fi = vc4_tex_format_info(f);
        if (f == VC4_TEX_ETC1 || fi->bpp > 16)
            continue;
        struct vc4_tex_geom g;
        CHECK(vc4_tex_geom_init_format(&g, f, fi->raster_only ? VC4_TEX_RASTER : VC4_TEX_LT, 32, 16));
        uint8_t *img = calloc(1, g.size), *img2 = calloc(1, g.size);
        unsigned nvals = 1u << fi->bpp;
        int bad = 0;
        for (unsigned v = 0; v < nvals; v++) {
            memset(img, 0xA5, g.size);
            /* the value at texel (1, 1): the element's bit offset by hand */
            unsigned x = 1, y = 1;
            uint64_t bit = vc4_tex_bit_offset(&g, x, y);
            if (fi->bpp < 8) {
                unsigned m = (1u << fi->bpp) - 1;
                img[bit / 8] = (uint8_t)((img[bit / 8] & ~(m << (bit % 8))) | v << (bit % 8));
            } else {
                for (unsigned b = 0; b < fi->bpp / 8; b++)
                    img[bit / 8 + b] = (uint8_t)(v >> (8 * b));
            }
            struct vc4_texel t;
            CHECK(vc4_tex_read_texel(f, &g, img, g.size, x, y, &t));
            memset(img2, 0xA5, g.size);
            CHECK(vc4_tex_write_texel(f, &g, img2, g.size, x, y, &t));
            /* formats whose channels cover every stored bit must match exactly */
            bool partial = f == VC4_TEX_RGBX8888 || f == VC4_TEX_RGB565;
            if (!partial && memcmp(img, img2, g.size) != 0 && bad++ < 3)
                CHECK_MSG(0, "%s value 0x%x does not round-trip", fi->name, v);
        }
        free(img);
        free(img2);
    }
}

static void test_rgba8_conversions(void)
{
    struct vc4_texel t;
    uint8_t c[4];
    /* 8-bit host RGBA round-trips exactly through the lossless formats */
    const enum vc4_tex_format lossless[] = {VC4_TEX_RGBA8888, VC4_TEX_RGBA32R, VC4_TEX_YUYV422R,
                                            VC4_TEX_RGBA64};
    for (size_t i = 0; i < sizeof lossless / sizeof lossless[0]; i++)
        for (unsigned v = 0; v < 256; v++) {
            const uint8_t in[4] = {(uint8_t)v, (uint8_t)(255 - v), (uint8_t)(v * 7), (uint8_t)(v ^ 0x5A)};
            vc4_tex_texel_from_rgba8(lossless[i], in, &t);
            vc4_tex_texel_to_rgba8(lossless[i], &t, c);
            CHECK_MSG(memcmp(in, c, 4) == 0, "format %u value %u", lossless[i], v);
        }
    /* grey goes through LUMINANCE, S16 and S16F unchanged */
    for (unsigned v = 0; v < 256; v++) {
        const uint8_t grey[4] = {(uint8_t)v, (uint8_t)v, (uint8_t)v, 255};
        vc4_tex_texel_from_rgba8(VC4_TEX_LUMINANCE, grey, &t);
        vc4_tex_texel_to_rgba8(VC4_TEX_LUMINANCE, &t, c);
        CHECK(memcmp(grey, c, 4) == 0);
        vc4_tex_texel_from_rgba8(VC4_TEX_S16F, grey, &t);
        vc4_tex_texel_to_rgba8(VC4_TEX_S16F, &t, c);
        CHECK(c[0] == v && c[3] == v);
        vc4_tex_texel_from_rgba8(VC4_TEX_S16, grey, &t);
        CHECK_EQ_U64(t.w[0], v * 257u * 0x10001u);
    }
    /* hand-computed: RGBA4444 rounds 0x12 to 1 -> 0x11; RGB565 0x80 -> 16 -> 0x84 */
    const uint8_t in[4] = {0x12, 0x80, 0xFF, 0x00};
    vc4_tex_texel_from_rgba8(VC4_TEX_RGBA4444, in, &t);
    CHECK_EQ_U64(t.w[0], 0x00FF8811u);
    vc4_tex_texel_from_rgba8(VC4_TEX_RGB565, in, &t);
    CHECK_EQ_U64(t.w[0], 0xFFFF8210u); /* R 0x12 -> 2 -> 0x10, G 0x80 -> 32 -> 0x82, B 31 -> FF */
    vc4_tex_texel_from_rgba8(VC4_TEX_ALPHA, in, &t);
    CHECK_EQ_U64(t.w[0], 0);
    /* luma: (77*0x12 + 150*0x80 + 29*0xFF + 128) >> 8 = 0x6D */
    vc4_tex_texel_from_rgba8(VC4_TEX_LUMALPHA, in, &t);
    CHECK_EQ_U64(t.w[0], 0x006D6D6Du);
    /* half floats: 1.0 = 0x3C00, 0.5 -> 128/255 is not 0.5; 0 -> 0 */
    const uint8_t one[4] = {255, 0, 255, 0};
    vc4_tex_texel_from_rgba8(VC4_TEX_RGBA64, one, &t);
    CHECK_EQ_U64(t.w[0], 0x00003C00u);
    CHECK_EQ_U64(t.w[1], 0x00003C00u);
}

static void test_bad_inputs(void)
{
    struct vc4_tex_geom g;
    struct vc4_texel t;
    uint8_t img[64] = {0};
    CHECK(vc4_tex_geom_init_format(&g, VC4_TEX_RGBA8888, VC4_TEX_LT, 4, 4));
    /* outside the padded image, outside the buffer, wrong depth, unknown format */
    CHECK(!vc4_tex_read_texel(VC4_TEX_RGBA8888, &g, img, sizeof img, 4, 0, &t));
    CHECK(!vc4_tex_read_texel(VC4_TEX_RGBA8888, &g, img, 60, 3, 3, &t));
    CHECK(!vc4_tex_read_texel(VC4_TEX_RGB565, &g, img, sizeof img, 0, 0, &t));
    CHECK(!vc4_tex_read_texel((enum vc4_tex_format)40, &g, img, sizeof img, 0, 0, &t));
    CHECK(t.w[0] == 0 && t.w[1] == 0);
    CHECK(!vc4_tex_write_texel(VC4_TEX_ETC1, &g, img, sizeof img, 0, 0, &t));
    /* combinations the TMU does not read */
    CHECK(!vc4_tex_geom_init_format(&g, VC4_TEX_RGBA32R, VC4_TEX_T, 16, 16));
    CHECK(!vc4_tex_geom_init_format(&g, VC4_TEX_YUYV422R, VC4_TEX_LT, 16, 16));
    CHECK(!vc4_tex_geom_init_format(&g, VC4_TEX_RGBA8888, VC4_TEX_RASTER, 16, 16));
    CHECK(!vc4_tex_geom_init_format(&g, VC4_TEX_RGBA8888, VC4_TEX_T, 2049, 16));
    CHECK(!vc4_tex_geom_init_format(&g, VC4_TEX_FORMAT_COUNT, VC4_TEX_T, 16, 16));
    /* ETC1 geometry counts blocks: 2048 pixels = 512 blocks of 64 bits */
    CHECK(vc4_tex_geom_init_format(&g, VC4_TEX_ETC1, VC4_TEX_T, 2048, 5));
    CHECK_EQ_INT(g.bpp, 64);
    CHECK_EQ_INT(g.width, 512);
    CHECK_EQ_INT(g.height, 2);
    CHECK_EQ_INT(vc4_tex_format_block_dim(VC4_TEX_ETC1), 4);
    CHECK_EQ_INT(vc4_tex_format_layout_bpp(VC4_TEX_A4), 4);
}

TEST_LIST(test_known_texels, test_etc1_block_api, test_every_value_round_trips, test_rgba8_conversions,
          test_bad_inputs)
