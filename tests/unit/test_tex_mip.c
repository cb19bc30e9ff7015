/*
 * test_tex_mip.c - where every mip level and cube face of a texture lives,
 * against sizes and offsets worked out by hand from Mesa's vc4_setup_slices
 * rule (tex.h): levels below the base, level i > 0 sized from the power of
 * two of level 0, T levels padded to 4K tiles, LT to utiles, raster rows to
 * the utile width, the base and the cube stride 4 KB aligned.
 */
#include "harness.h"
#include "vc4kit/tex.h"

struct expect_level {
    enum vc4_tex_layout layout;
    unsigned ew, eh;   /* elements stored (before padding) */
    uint32_t size;
    int32_t offset;
};

static void check_layout(const char *what, const struct vc4_tex_mip_layout *m,
                         const struct expect_level *e, unsigned n, uint32_t base, uint32_t stride,
                         uint32_t size)
{
    CHECK_EQ_INT(m->levels, n);
    for (unsigned l = 0; l < n; l++) {
        const struct vc4_tex_level *lv = &m->level[l];
        CHECK_MSG(lv->geom.layout == e[l].layout && lv->geom.width == e[l].ew &&
                      lv->geom.height == e[l].eh && lv->geom.size == e[l].size &&
                      lv->offset == e[l].offset,
                  "%s level %u: layout %d %ux%u size %u at %d, expected layout %d %ux%u size %u at %d",
                  what, l, lv->geom.layout, lv->geom.width, lv->geom.height, lv->geom.size, lv->offset,
                  e[l].layout, e[l].ew, e[l].eh, e[l].size, e[l].offset);
    }
    CHECK_MSG(m->base_offset == base && m->face_stride == stride && m->size == size,
              "%s: base %u stride %u size %u, expected %u %u %u", what, m->base_offset, m->face_stride,
              m->size, base, stride, size);
}

static void test_t_chain_drops_to_lt(void)
{
    /* RGBA8888 64x64, 4 levels.  32 bpp: utile 4x4, 4K tile 32x32, LT when
     * a side <= 16.  Level 0 64x64 T 16 KB; 1: 32x32 T 4 KB; 2: 16x16 LT
     * 1 KB; 3: 8x8 LT 256 B.  Below the base 5376 B -> base at 8192. */
    struct vc4_tex_mip_layout m;
    CHECK_EQ_INT(vc4_tex_mip_layout(&m, VC4_TEX_RGBA8888, VC4_TEX_T, 64, 64, 4, 1, NULL), VC4_OK);
    const struct expect_level e[] = {
        {VC4_TEX_T, 64, 64, 16384, 0},
        {VC4_TEX_T, 32, 32, 4096, -4096},
        {VC4_TEX_LT, 16, 16, 1024, -5120},
        {VC4_TEX_LT, 8, 8, 256, -5376},
    };
    check_layout("64x64", &m, e, 4, 8192, 0, 8192 + 16384);
    CHECK(m.tmu_readable);
    CHECK_EQ_INT(m.level[3].width, 8);

    /* the same as a cube map: faces are whole chains 24 KB apart */
    CHECK_EQ_INT(vc4_tex_mip_layout(&m, VC4_TEX_RGBA8888, VC4_TEX_T, 64, 64, 4, 6, NULL), VC4_OK);
    check_layout("cube", &m, e, 4, 8192, 24576, 6 * 24576);
}

static void test_npot_levels_use_powers_of_two(void)
{
    /* 100x50: level 0 T padded to 128x64 (32 KB); pot 128x64: level 1 64x32
     * T, two 4K tiles (8 KB); level 2 32x16 LT (2 KB).  Below 10 KB ->
     * base 12 KB.  Level pixel sizes stay GL's: 50x25, 25x12. */
    struct vc4_tex_mip_layout m;
    CHECK_EQ_INT(vc4_tex_mip_layout(&m, VC4_TEX_RGBA8888, VC4_TEX_T, 100, 50, 3, 1, NULL), VC4_OK);
    const struct expect_level e[] = {
        {VC4_TEX_T, 100, 50, 32768, 0},
        {VC4_TEX_T, 64, 32, 8192, -8192},
        {VC4_TEX_LT, 32, 16, 2048, -10240},
    };
    check_layout("100x50", &m, e, 3, 12288, 0, 12288 + 32768);
    CHECK_EQ_INT(m.level[1].width, 50);
    CHECK_EQ_INT(m.level[2].height, 12);
}

static void test_etc1_blocks(void)
{
    /* ETC1 256x256: 64x64 blocks of 64 bits (utile 2x4 blocks, 4K tile
     * 16x32, LT when a side <= 8 wide or <= 16 high).  Level 0 T 32 KB;
     * 1: 32x32 T 8 KB; 2: 16x16 LT (16 <= 16) 2 KB.  Base at 12 KB. */
    struct vc4_tex_mip_layout m;
    CHECK_EQ_INT(vc4_tex_mip_layout(&m, VC4_TEX_ETC1, VC4_TEX_T, 256, 256, 3, 1, NULL), VC4_OK);
    const struct expect_level e[] = {
        {VC4_TEX_T, 64, 64, 32768, 0},
        {VC4_TEX_T, 32, 32, 8192, -8192},
        {VC4_TEX_LT, 16, 16, 2048, -10240},
    };
    check_layout("etc1", &m, e, 3, 12288, 0, 12288 + 32768);
}

static void test_raster_and_forced_lt(void)
{
    /* RGBA32R 10x10: rows padded to 12 pixels (48 B) -> 480 B; level 1 of
     * pot 16: 8x8 -> 256 B below the base. */
    struct vc4_tex_mip_layout m;
    CHECK_EQ_INT(vc4_tex_mip_layout(&m, VC4_TEX_RGBA32R, VC4_TEX_RASTER, 10, 10, 2, 1, NULL), VC4_OK);
    const struct expect_level e[] = {
        {VC4_TEX_RASTER, 10, 10, 480, 0},
        {VC4_TEX_RASTER, 8, 8, 256, -256},
    };
    check_layout("raster", &m, e, 2, 4096, 0, 4096 + 480);
    /* LT everywhere: fine for 16x16, not what the TMU reads at 64x64 */
    CHECK_EQ_INT(vc4_tex_mip_layout(&m, VC4_TEX_RGBA8888, VC4_TEX_LT, 16, 16, 1, 1, NULL), VC4_OK);
    CHECK(m.tmu_readable);
    CHECK_EQ_INT(vc4_tex_mip_layout(&m, VC4_TEX_RGBA8888, VC4_TEX_LT, 64, 64, 1, 1, NULL), VC4_OK);
    CHECK(!m.tmu_readable);
    CHECK_EQ_INT(m.level[0].geom.size, 64 * 64 * 4);
}

static void test_bad_textures(void)
{
    struct vc4_tex_mip_layout m;
    struct harness_diags h;
    struct vc4_diag_sink sink = harness_sink(&h);
    CHECK_EQ_INT(vc4_tex_mip_layout(&m, VC4_TEX_RGBA32R, VC4_TEX_T, 16, 16, 1, 1, &sink),
                 VC4_ERR_UNSUPPORTED);
    CHECK_EQ_INT(vc4_tex_mip_layout(&m, VC4_TEX_YUYV422R, VC4_TEX_LT, 16, 16, 1, 1, &sink),
                 VC4_ERR_UNSUPPORTED);
    CHECK_EQ_INT(vc4_tex_mip_layout(&m, VC4_TEX_RGB565, VC4_TEX_RASTER, 16, 16, 1, 1, &sink),
                 VC4_ERR_UNSUPPORTED);
    CHECK_EQ_INT(vc4_tex_mip_layout(&m, VC4_TEX_RGBA8888, VC4_TEX_T, 2049, 16, 1, 1, &sink),
                 VC4_ERR_RANGE);
    CHECK_EQ_INT(vc4_tex_mip_layout(&m, VC4_TEX_RGBA8888, VC4_TEX_T, 16, 0, 1, 1, &sink),
                 VC4_ERR_RANGE);
    CHECK_EQ_INT(vc4_tex_mip_layout(&m, VC4_TEX_RGBA8888, VC4_TEX_T, 16, 16, 0, 1, &sink),
                 VC4_ERR_RANGE);
    CHECK_EQ_INT(vc4_tex_mip_layout(&m, VC4_TEX_RGBA8888, VC4_TEX_T, 16, 16, 17, 1, &sink),
                 VC4_ERR_RANGE);
    CHECK_EQ_INT(vc4_tex_mip_layout(&m, VC4_TEX_RGBA8888, VC4_TEX_T, 16, 16, 1, 2, &sink),
                 VC4_ERR_RANGE);
    CHECK_EQ_INT(vc4_tex_mip_layout(&m, (enum vc4_tex_format)99, VC4_TEX_T, 16, 16, 1, 1, &sink),
                 VC4_ERR_INVALID);
    CHECK_EQ_INT(h.errors, 9);
    /* the largest texture: 2048x2048 RGBA64 cube map with every level fits */
    CHECK_EQ_INT(vc4_tex_mip_layout(&m, VC4_TEX_RGBA64, VC4_TEX_T, 2048, 2048, 16, 6, &sink), VC4_OK);
    CHECK_EQ_INT(m.level[0].offset, 0);
    CHECK(m.level[15].offset < m.level[14].offset);
}

static void test_full_levels(void)
{
    CHECK_EQ_INT(vc4_tex_full_levels(64, 64), 7);
    CHECK_EQ_INT(vc4_tex_full_levels(100, 50), 8); /* 128 */
    CHECK_EQ_INT(vc4_tex_full_levels(1, 1), 1);
    CHECK_EQ_INT(vc4_tex_full_levels(2048, 3), 12);
}

static void test_config_words(void)
{
    uint32_t w[3];
    /* 64x64 RGBA8888 at 1 MB, 4 levels, trilinear, repeat:
     * P0 = 0x00100000 | type 0 << 4 | 3; P1 = 64 << 20 | 64 << 8 | 5 << 4 */
    struct vc4_tex_config c = {.base = 0x00100000, .format = VC4_TEX_RGBA8888, .width = 64,
                               .height = 64, .levels = 4, .min_filter = 5};
    CHECK_EQ_INT(vc4_tex_config_words(&c, w, NULL), 2);
    CHECK_EQ_U64(w[0], 0x00100003u);
    CHECK_EQ_U64(w[1], 0x04004050u);
    /* RGBA32R (16): type bit 4 in P1 bit 31; 2048 written as 0; nearest,
     * clamp s, mirror t: 1 << 7 | 1 << 4 | 2 << 2 | 1 */
    c = (struct vc4_tex_config){.base = 0xABCDE000u, .format = VC4_TEX_RGBA32R, .width = 2048,
                                .height = 5, .levels = 1, .mag_nearest = true, .min_filter = 1,
                                .wrap_s = 1, .wrap_t = 2, .flip_y = true};
    CHECK_EQ_INT(vc4_tex_config_words(&c, w, NULL), 2);
    CHECK_EQ_U64(w[0], 0xABCDE100u);
    CHECK_EQ_U64(w[1], 0x80500099u);
    /* ETC1 cube map with ETCFLIP: P0 bit 9, type 8; P1 bit 19; P2 = 1 << 30 | stride */
    c = (struct vc4_tex_config){.base = 0x2000, .format = VC4_TEX_ETC1, .width = 16, .height = 16,
                                .levels = 1, .cube = true, .etc_flip = true, .cube_stride = 0x6000};
    CHECK_EQ_INT(vc4_tex_config_words(&c, w, NULL), 3);
    CHECK_EQ_U64(w[0], 0x00002280u);
    CHECK_EQ_U64(w[1], 0x01081000u);
    CHECK_EQ_U64(w[2], 0x40006000u);
    /* values that do not fit */
    struct harness_diags h;
    struct vc4_diag_sink sink = harness_sink(&h);
    c.base = 0x2001;
    CHECK_EQ_INT(vc4_tex_config_words(&c, w, &sink), 0);
    c.base = 0x2000;
    c.levels = 17;
    CHECK_EQ_INT(vc4_tex_config_words(&c, w, &sink), 0);
    c.levels = 1;
    c.wrap_s = 4;
    CHECK_EQ_INT(vc4_tex_config_words(&c, w, &sink), 0);
    CHECK_EQ_INT(h.errors, 3);
    CHECK_EQ_U64(vc4_tex_etc1_row(5, true), 5);
    CHECK_EQ_U64(vc4_tex_etc1_row(5, false), 6);
}

TEST_LIST(test_config_words, test_t_chain_drops_to_lt, test_npot_levels_use_powers_of_two, test_etc1_blocks,
          test_raster_and_forced_lt, test_bad_textures, test_full_levels)
