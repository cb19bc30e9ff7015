/*
 * test_vg.c - VG mode end to end: VG Shader State (66) / VG Inline Shader
 * Record (67), VG Coordinate Array Primitives (41) and VG Inline Primitives
 * (42) of every type (triangles, strip, fan with a continuation list, RHT,
 * RHT strip), binned by the binner into tile lists and drawn by the
 * renderer with the VG fragment shader and its uniforms, compared bit for
 * bit with tests/golden/vg_*.png; and the geometry pinned pixel by pixel:
 * an RHT covers the trapezoid between its edge and the RHT X boundary, as
 * PeterLemon's RHT demo draws it (emu/vg.h, docs/rendering.md "VG mode").
 *
 * VC4KIT_REBASELINE=1 rewrites the goldens.
 */
#include <stdlib.h>

#include "harness.h"
#include "nv_scene.h"
#include "vc4kit/tex.h"

#ifndef VC4KIT_SOURCE_DIR
#define VC4KIT_SOURCE_DIR "."
#endif
#ifndef VC4KIT_BINARY_DIR
#define VC4KIT_BINARY_DIR "."
#endif

#define VG_W 320u
#define VG_H 240u
#define VG_RECORD_A 0x00110000u /* VG shader records, 16-byte aligned */
#define VG_RECORD_B 0x00110010u
#define VG_COORDS 0x00110100u
#define VG_UNIF_A 0x00110200u
#define VG_UNIF_B 0x00110240u

static unsigned diags;
static void count_diag(void *user, const struct vc4_diag *d)
{
    (void)user;
    if (d->severity >= VC4_WARNING) {
        char line[512];
        vc4_diag_format(d, line, sizeof line);
        printf("  diag: %s\n", line);
        diags++;
    }
}

static uint32_t xy(int x_px, int y_px)
{
    return (uint32_t)(uint16_t)(int16_t)(x_px * 16) | (uint32_t)(uint16_t)(int16_t)(y_px * 16) << 16;
}

/* What a scene puts into its binning list after the common state. */
typedef void (*vg_draw_fn)(struct vc4_cl *bin, struct vc4_emu *emu);

static void put_colour(struct vc4_emu *emu, uint32_t at, float r, float g, float b)
{
    uint8_t u[16];
    sc_put32(u, sc_f2u(r));
    sc_put32(u + 4, sc_f2u(g));
    sc_put32(u + 8, sc_f2u(b));
    sc_put32(u + 12, sc_f2u(1.0f));
    vc4_emu_mem_write(emu, at, u, sizeof u);
}

static void put_coords(struct vc4_emu *emu, uint32_t at, const uint32_t *c, unsigned n)
{
    uint8_t b[64 * 4];
    for (unsigned i = 0; i < n && i < 64; i++)
        sc_put32(b + 4 * i, c[i]);
    vc4_emu_mem_write(emu, at, b, 4u * n);
}

static void vg_state(struct vc4_cl *bin, uint32_t record)
{
    struct vc4_cl_vg_shader_state s = {.record_addr = record};
    vc4_cl_vg_shader_state(bin, &s);
}

static void coord_prims(struct vc4_cl *bin, unsigned type, unsigned cont, uint32_t addr, unsigned n)
{
    struct vc4_cl_vg_coordinate_array_primitives p = {.primitive_type = type, .continuation = cont,
                                                      .length = n, .coord_addr = addr};
    vc4_cl_vg_coordinate_array_primitives(bin, &p);
}

static void inline_prims(struct vc4_cl *bin, unsigned type, unsigned cont, const uint32_t *c, unsigned n)
{
    struct vc4_cl_vg_inline_primitives p = {.primitive_type = type, .continuation = cont};
    vc4_cl_vg_inline_primitives(bin, &p);
    struct vc4_cl_prim_item items[8];
    unsigned ni = 0;
    for (unsigned i = 0; i < n && ni < 8; i += 3, ni++) {
        items[ni] = (struct vc4_cl_prim_item){.kind = VC4_CL_ITEM_XY32, .count = (uint8_t)(n - i < 3 ? n - i : 3)};
        for (unsigned k = 0; k < items[ni].count; k++)
            items[ni].v[k] = c[i + k];
    }
    vc4_cl_prim_items(bin, items, ni);
}

static void rht_boundary(struct vc4_cl *bin, int x_px)
{
    struct vc4_cl_rht_x_boundary b = {.x_boundary = x_px * 16};
    vc4_cl_rht_x_boundary(bin, &b);
}

/* ---- the scenes ------------------------------------------------------------ */

static void draw_triangles(struct vc4_cl *bin, struct vc4_emu *emu)
{
    const uint32_t c[6] = {xy(160, 16), xy(16, 120), xy(150, 120), xy(170, 120), xy(304, 120), xy(240, 224)};
    put_coords(emu, VG_COORDS, c, 6);
    vg_state(bin, VG_RECORD_A);
    coord_prims(bin, VC4_CL_VG_TRIANGLES, 0, VG_COORDS, 6);
}

static void draw_strip(struct vc4_cl *bin, struct vc4_emu *emu)
{
    const uint32_t c[5] = {xy(20, 200), xy(60, 40), xy(140, 210), xy(200, 30), xy(300, 180)};
    put_coords(emu, VG_COORDS, c, 5);
    vg_state(bin, VG_RECORD_A);
    coord_prims(bin, VC4_CL_VG_TRIANGLE_STRIP, 0, VG_COORDS, 5);
}

/* A fan from the array, continued by an inline continuation list in the
 * second colour. */
static void draw_fan(struct vc4_cl *bin, struct vc4_emu *emu)
{
    const uint32_t c[4] = {xy(160, 120), xy(300, 120), xy(260, 20), xy(160, 10)};
    put_coords(emu, VG_COORDS, c, 4);
    vg_state(bin, VG_RECORD_A);
    coord_prims(bin, VC4_CL_VG_TRIANGLE_FAN, 0, VG_COORDS, 4);
    const uint32_t more[3] = {xy(40, 40), xy(20, 200), xy(200, 230)};
    vg_state(bin, VG_RECORD_B);
    inline_prims(bin, VC4_CL_VG_TRIANGLE_FAN, 0xF, more, 3);
}

/* Two RHTs from the array: one right of the boundary, one left of it. */
static void draw_rht(struct vc4_cl *bin, struct vc4_emu *emu)
{
    const uint32_t c[4] = {xy(300, 16), xy(200, 120), xy(40, 130), xy(100, 230)};
    put_coords(emu, VG_COORDS, c, 4);
    rht_boundary(bin, 160);
    vg_state(bin, VG_RECORD_A);
    coord_prims(bin, VC4_CL_VG_RHT, 0, VG_COORDS, 4);
}

/* PeterLemon's RHT strip demo at half size: boundary x = 16, the strip
 * (304,16) (160,120) (304,224). */
static void draw_rht_strip(struct vc4_cl *bin, struct vc4_emu *emu)
{
    const uint32_t c[3] = {xy(304, 16), xy(160, 120), xy(304, 224)};
    put_coords(emu, VG_COORDS, c, 3);
    rht_boundary(bin, 16);
    vg_state(bin, VG_RECORD_A);
    coord_prims(bin, VC4_CL_VG_RHT_STRIP, 0, VG_COORDS, 3);
}

/* Inline lists with the inline shader record (67): triangles, then RHTs. */
static void draw_inline(struct vc4_cl *bin, struct vc4_emu *emu)
{
    (void)emu;
    struct vc4_cl_vg_inline_shader_record r = {.fs_code_addr = SC_SHADER, .fs_uniforms_addr = VG_UNIF_B};
    vc4_cl_vg_inline_shader_record(bin, &r);
    const uint32_t tri[6] = {xy(10, 10), xy(150, 20), xy(30, 110), xy(170, 230), xy(310, 130), xy(310, 230)};
    inline_prims(bin, VC4_CL_VG_TRIANGLES, 0, tri, 6);
    rht_boundary(bin, 300);
    struct vc4_cl_vg_inline_shader_record r2 = {.fs_code_addr = SC_SHADER, .fs_uniforms_addr = VG_UNIF_A};
    vc4_cl_vg_inline_shader_record(bin, &r2);
    const uint32_t rht[2] = {xy(200, 10), xy(240, 110)};
    inline_prims(bin, VC4_CL_VG_RHT, 0, rht, 2);
}

/* Build, bin and render a scene; the frame as RGBA (malloc'd). */
static uint8_t *vg_render(vg_draw_fn draw)
{
    struct vc4_diag_sink sink = {count_diag, NULL};
    struct vc4_emu_options eo = {.sink = sink, .num_qpus = 4, .mem_size = 16u << 20};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    CHECK(emu != NULL);
    if (!emu)
        return NULL;
    bool ok = sc_load_shader(emu, sc_fs_uniform, SC_SHADER, sink);
    put_colour(emu, VG_UNIF_A, 1.0f, 0.5f, 0.0f);
    put_colour(emu, VG_UNIF_B, 0.0f, 0.25f, 1.0f);
    struct vc4_cl_vg_shader_record rec = {.fs_code_addr = SC_SHADER, .fs_uniforms_addr = VG_UNIF_A};
    uint8_t rb[12];
    ok &= vc4_cl_vg_shader_record_pack(&rec, rb, &sink) == VC4_OK;
    ok &= vc4_emu_mem_write(emu, VG_RECORD_A, rb, sizeof rb) == VC4_OK;
    rec.fs_uniforms_addr = VG_UNIF_B;
    ok &= vc4_cl_vg_shader_record_pack(&rec, rb, &sink) == VC4_OK;
    ok &= vc4_emu_mem_write(emu, VG_RECORD_B, rb, sizeof rb) == VC4_OK;

    struct vc4_cl bin;
    vc4_cl_init(&bin, NULL, SC_BIN_CL, &sink);
    struct vc4_cl_tile_binning_mode_config bcfg = {
        .tile_alloc_addr = SC_TILE_ALLOC, .tile_alloc_size = SC_TILE_ALLOC_SIZE, .tsda_addr = SC_TSDA,
        .width_tiles = (VG_W + 63) / 64, .height_tiles = (VG_H + 63) / 64, .auto_init_tsda = true,
        .initial_block_size = VC4_CL_BLOCK_32, .block_size = VC4_CL_BLOCK_128,
    };
    vc4_cl_tile_binning_mode_config(&bin, &bcfg);
    vc4_cl_start_tile_binning(&bin);
    struct vc4_cl_clip_window clip = {.width_px = VG_W, .height_px = VG_H};
    vc4_cl_clip_window(&bin, &clip);
    /* the demos' configuration: both facings, early Z updates */
    struct vc4_cl_configuration_bits cb = {.enable_forward_facing = true, .enable_reverse_facing = true,
                                           .early_z_updates_enable = true};
    vc4_cl_configuration_bits(&bin, &cb);
    struct vc4_cl_viewport_offset vp = {0, 0};
    vc4_cl_viewport_offset(&bin, &vp);
    draw(&bin, emu);
    vc4_cl_increment_semaphore(&bin);
    vc4_cl_flush(&bin);
    uint32_t be = 0, re = 0;
    ok &= sc_store_list(emu, &bin, &be);
    const struct sc_target tgt = {.width = VG_W, .height = VG_H, .color_format = VC4_CL_FB_RGBA8888,
                                  .memory_format = VC4_CL_MEM_RASTER, .clear_color = SC_CLEAR_COLOR};
    ok &= sc_build_render_list(emu, &tgt, sink, &re);
    CHECK(ok);
    uint8_t *rgba = NULL;
    if (ok && sc_run(emu, be, re) == VC4_OK) {
        struct vc4_emu_frame f;
        vc4_emu_render_frame(emu, &f);
        rgba = f.valid ? malloc((size_t)f.width * f.height * 4) : NULL;
        if (rgba && vc4_emu_read_frame(emu, &f, rgba) != VC4_OK) {
            free(rgba);
            rgba = NULL;
        }
    }
    vc4_emu_destroy(emu);
    CHECK(rgba != NULL);
    return rgba;
}

static bool rebaseline(void)
{
    const char *e = getenv("VC4KIT_REBASELINE");
    return e && *e && strcmp(e, "0") != 0;
}

static void golden(const char *name, const uint8_t *rgba)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/golden/%s.png", VC4KIT_SOURCE_DIR, name);
    if (rebaseline()) {
        CHECK(vc4_png_write(path, rgba, VG_W, VG_H, VG_W * 4, NULL) == VC4_OK);
        printf("rebaselined %s\n", path);
        return;
    }
    uint8_t *g = NULL;
    unsigned gw = 0, gh = 0;
    CHECK_MSG(vc4_png_read(path, &g, &gw, &gh, NULL) == VC4_OK, "%s: cannot read %s", name, path);
    if (!g)
        return;
    size_t diff = 0;
    if (gw == VG_W && gh == VG_H)
        for (size_t i = 0; i < (size_t)VG_W * VG_H; i++)
            diff += memcmp(g + 4 * i, rgba + 4 * i, 4) != 0;
    CHECK_MSG(gw == VG_W && gh == VG_H && diff == 0, "%s: %zu pixels differ from %s", name, diff, path);
    free(g);
}

/* RGBA8888 of pixel (x, y), byte 0 red. */
static uint32_t px(const uint8_t *rgba, unsigned x, unsigned y)
{
    const uint8_t *p = rgba + 4 * ((size_t)y * VG_W + x);
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#define ORANGE 0xFF0080FFu /* 1, 0.5, 0 */
#define BLUE 0xFFFF4000u   /* 0, 0.25, 1 */
#define BLACK SC_CLEAR_COLOR

static size_t count(const uint8_t *rgba, uint32_t c)
{
    size_t n = 0;
    for (unsigned y = 0; y < VG_H; y++)
        for (unsigned x = 0; x < VG_W; x++)
            n += px(rgba, x, y) == c;
    return n;
}

static void scene(const char *name, vg_draw_fn draw, void (*check)(const uint8_t *))
{
    diags = 0;
    uint8_t *rgba = vg_render(draw);
    if (!rgba)
        return;
    CHECK_MSG(diags == 0, "%s: %u warnings or errors on correct VG lists", name, diags);
    if (check)
        check(rgba);
    golden(name, rgba);
    free(rgba);
}

static void check_triangles(const uint8_t *f)
{
    CHECK(px(f, 120, 90) == ORANGE);  /* inside the first triangle */
    CHECK(px(f, 240, 150) == ORANGE); /* inside the second */
    CHECK(px(f, 10, 10) == BLACK);
    CHECK(px(f, 160, 200) == BLACK);
}

static void check_strip(const uint8_t *f)
{
    CHECK(px(f, 100, 150) == ORANGE); /* triangle 1 (60,40) (140,210) (20,200) area */
    CHECK(px(f, 200, 120) == ORANGE); /* triangle 2 */
    CHECK(px(f, 250, 120) == ORANGE); /* triangle 3 */
    CHECK(px(f, 300, 20) == BLACK);
}

static void check_fan(const uint8_t *f)
{
    CHECK(px(f, 250, 100) == ORANGE); /* (160,120) (300,120) (260,20) */
    CHECK(px(f, 200, 40) == ORANGE);  /* (160,120) (260,20) (160,10) */
    /* the continuation: centre (160,120), last (160,10), then (40,40),
     * (20,200), (200,230) */
    CHECK(px(f, 120, 60) == BLUE);
    CHECK(px(f, 60, 140) == BLUE);
    CHECK(px(f, 150, 200) == BLUE);
    CHECK(px(f, 300, 220) == BLACK);
}

/* An RHT covers, between its Y span, the pixels from its edge to the
 * boundary: (300,16)-(200,120) and x = 160 gives the trapezoid (160,16)
 * (300,16) (200,120) (160,120); (40,130)-(100,230) the one left of it. */
static void check_rht(const uint8_t *f)
{
    CHECK(px(f, 161, 17) == ORANGE);
    CHECK(px(f, 295, 17) == ORANGE);
    CHECK(px(f, 162, 118) == ORANGE);
    CHECK(px(f, 159, 60) == BLACK); /* left of the boundary */
    CHECK(px(f, 262, 80) == BLACK); /* right of the edge (x = 238.5 at y = 80.5) */
    CHECK(px(f, 230, 10) == BLACK); /* above the span */
    CHECK(px(f, 158, 200) == ORANGE);
    CHECK(px(f, 90, 200) == ORANGE);  /* edge x = 82.3 at y = 200.5 */
    CHECK(px(f, 60, 200) == BLACK);
    /* the two trapezoids: about 104 x 90 + 100 x 90 pixels */
    size_t n = count(f, ORANGE);
    CHECK_MSG(n > 16000 && n < 21000, "RHT pixels: %zu", n);
}

static void check_rht_strip(const uint8_t *f)
{
    /* the demo's shape: x from 16 to the chevron (304,16) (160,120) (304,224) */
    CHECK(px(f, 16, 20) == ORANGE);
    CHECK(px(f, 300, 17) == ORANGE);
    CHECK(px(f, 158, 120) == ORANGE);
    CHECK(px(f, 165, 120) == BLACK);
    CHECK(px(f, 300, 222) == ORANGE);
    CHECK(px(f, 15, 120) == BLACK);
    CHECK(px(f, 100, 230) == BLACK);
}

static void check_inline(const uint8_t *f)
{
    CHECK(px(f, 60, 40) == BLUE);
    CHECK(px(f, 280, 200) == BLUE);
    CHECK(px(f, 250, 60) == ORANGE); /* RHT (200,10)-(240,110) to x = 300 */
    CHECK(px(f, 210, 90) == BLACK);
}

/* 41 placed straight in a rendering list (no binning) draws into the
 * current tile, as packets 32/33 do there (vc4kit extension). */
static void test_render_list_vg(void)
{
    struct vc4_diag_sink sink = {count_diag, NULL};
    struct vc4_emu_options eo = {.sink = sink, .num_qpus = 4, .mem_size = 16u << 20};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    CHECK(emu && sc_load_shader(emu, sc_fs_uniform, SC_SHADER, sink));
    if (!emu)
        return;
    put_colour(emu, VG_UNIF_A, 1.0f, 0.5f, 0.0f);
    const uint32_t c[3] = {xy(0, 0), xy(64, 0), xy(0, 64)};
    put_coords(emu, VG_COORDS, c, 3);
    struct vc4_cl_vg_shader_record rec = {.fs_code_addr = SC_SHADER, .fs_uniforms_addr = VG_UNIF_A};
    uint8_t rb[12];
    CHECK(vc4_cl_vg_shader_record_pack(&rec, rb, &sink) == VC4_OK);
    vc4_emu_mem_write(emu, VG_RECORD_A, rb, sizeof rb);
    struct vc4_cl rl;
    vc4_cl_init(&rl, NULL, SC_RENDER_CL, &sink);
    struct vc4_cl_clear_colors cc = {.clear_color = (uint64_t)BLACK << 32 | BLACK};
    vc4_cl_clear_colors(&rl, &cc);
    struct vc4_cl_tile_rendering_mode_config rcfg = {.fb_addr = SC_FB, .width_px = 64, .height_px = 64,
                                                     .color_format = VC4_CL_FB_RGBA8888};
    vc4_cl_tile_rendering_mode_config(&rl, &rcfg);
    struct vc4_cl_tile_coordinates tc = {0, 0};
    vc4_cl_tile_coordinates(&rl, &tc);
    struct vc4_cl_configuration_bits cb = {.enable_forward_facing = true, .enable_reverse_facing = true};
    vc4_cl_configuration_bits(&rl, &cb);
    vg_state(&rl, VG_RECORD_A);
    coord_prims(&rl, VC4_CL_VG_TRIANGLES, 0, VG_COORDS, 3);
    vc4_cl_store_ms_tile_buffer_and_eof(&rl);
    uint32_t end = 0;
    CHECK(sc_store_list(emu, &rl, &end));
    vc4_emu_reg_write(emu, VC4_V3D_CT1CA, SC_RENDER_CL);
    vc4_emu_reg_write(emu, VC4_V3D_CT1EA, end);
    CHECK(vc4_emu_run(emu, 0) == VC4_OK);
    uint8_t p[4];
    CHECK(vc4_emu_mem_read(emu, SC_FB + 4 * (10 * 64 + 10), p, 4) == VC4_OK);
    CHECK(p[0] == 0xFF && p[1] == 0x80 && p[2] == 0x00); /* orange, inside */
    CHECK(vc4_emu_mem_read(emu, SC_FB + 4 * (60 * 64 + 60), p, 4) == VC4_OK);
    CHECK(p[0] == 0 && p[1] == 0 && p[2] == 0); /* outside */
    vc4_emu_destroy(emu);
}

/* VG primitives with no VG shader state before them: the binner drops
 * them with an error (and so does the validator, test_cl_validate). */
static void draw_no_state(struct vc4_cl *bin, struct vc4_emu *emu)
{
    const uint32_t c[3] = {xy(0, 0), xy(64, 0), xy(0, 64)};
    put_coords(emu, VG_COORDS, c, 3);
    coord_prims(bin, VC4_CL_VG_TRIANGLES, 0, VG_COORDS, 3);
}

static void test_vg_without_vg_state(void)
{
    diags = 0;
    uint8_t *rgba = vg_render(draw_no_state);
    CHECK(diags > 0);
    if (rgba)
        CHECK(count(rgba, ORANGE) == 0);
    free(rgba);
}

/* examples/vg_shape.qasm through `vc4kit render`: the VG scene the
 * bare-metal image vg_shape draws, as a memory image; the same frame as the
 * booted one (tests/golden/boot_vg_shape.png). */
static void test_vg_shape_example(void)
{
    char cmd[3072];
    snprintf(cmd, sizeof cmd,
             "\"%s/vc4kit\" render \"%s/examples/vg_shape.qasm\" -o \"%s/vg_shape_example.png\" "
             "--expect \"%s/tests/golden/boot_vg_shape.png\"",
             VC4KIT_BINARY_DIR, VC4KIT_SOURCE_DIR, VC4KIT_BINARY_DIR, VC4KIT_SOURCE_DIR);
    int rc = system(cmd);
    CHECK_MSG(rc == 0, "`%s` exited with %d", cmd, rc);
}

static void test_triangles(void) { scene("vg_triangles", draw_triangles, check_triangles); }
static void test_strip(void) { scene("vg_strip", draw_strip, check_strip); }
static void test_fan(void) { scene("vg_fan", draw_fan, check_fan); }
static void test_rht(void) { scene("vg_rht", draw_rht, check_rht); }
static void test_rht_strip(void) { scene("vg_rht_strip", draw_rht_strip, check_rht_strip); }
static void test_inline(void) { scene("vg_inline", draw_inline, check_inline); }

TEST_LIST(test_vg_shape_example, test_triangles, test_strip, test_fan, test_rht, test_rht_strip, test_inline, test_render_list_vg,
          test_vg_without_vg_state)
