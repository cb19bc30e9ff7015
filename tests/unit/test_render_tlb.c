/*
 * test_render_tlb.c - the tile buffer and its rendering-list packets:
 * Load/Store Tile Buffer General in raster, T and LT layouts, RGBA8888 and
 * BGR565 (with the documented dither matrix), the disable-clear bits,
 * Z/stencil stores, full-resolution dump and reload, the queued load that
 * runs at Tile Coordinates; depth test and Z updates (rasteriser Z and
 * TLB_Z writes); multi-threaded fragment shaders with thread switches.
 */
#include "emu/tlb.h"
#include "harness.h"
#include "nv_scene.h"

#define RL 0x00010000u   /* the rendering list */
#define SRC 0x00100000u  /* a source image */
#define BUF1 0x00200000u
#define BUF2 0x00300000u
#define BUF3 0x00400000u
#define DUMP 0x00500000u
#define FW 100u /* frame: 2 x 2 tiles, the right and bottom ones partial */
#define FH 70u

static struct harness_diags hd;

static uint32_t vc4_le32_test(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static struct vc4_emu *mk(void)
{
    struct vc4_emu_options eo = {.sink = harness_sink(&hd), .mem_size = 16u << 20};
    return vc4_emu_create(&eo);
}

static uint32_t pattern(unsigned x, unsigned y)
{
    return (uint32_t)(x * 7 + y) | (uint32_t)(x ^ y) << 8 | (uint32_t)(y * 3) << 16 | (uint32_t)(x + 2 * y) << 24;
}

static bool run_list(struct vc4_emu *emu, struct vc4_cl *cl)
{
    bool ok = cl->status == VC4_OK && vc4_emu_mem_write(emu, RL, cl->data, cl->len) == VC4_OK;
    vc4_emu_reg_write(emu, VC4_V3D_CT1CA, RL);
    vc4_emu_reg_write(emu, VC4_V3D_CT1EA, vc4_cl_addr(cl));
    enum vc4_status st = vc4_emu_run(emu, 0);
    CHECK_MSG(st == VC4_OK && hd.errors == 0, "%s\n%s", vc4_status_name(st), hd.text);
    vc4_cl_free(cl);
    return ok && st == VC4_OK;
}

static void begin(struct vc4_cl *cl, struct vc4_diag_sink *sink, unsigned fmt)
{
    vc4_cl_init(cl, NULL, RL, sink);
    struct vc4_cl_tile_rendering_mode_config tr = {.fb_addr = BUF3, .width_px = FW, .height_px = FH,
                                                   .color_format = fmt};
    vc4_cl_tile_rendering_mode_config(cl, &tr);
}

/* For each tile: load general (buffer, layout, format) from src, store
 * general to dst. */
static void copy_tiles(struct vc4_cl *cl, unsigned buffer, unsigned lfmt, unsigned llay, uint32_t src,
                       unsigned sfmt, unsigned slay, uint32_t dst)
{
    for (unsigned ty = 0; ty < 2; ty++)
        for (unsigned tx = 0; tx < 2; tx++) {
            struct vc4_cl_load_tile_buffer_general lg = {.buffer = buffer, .memory_format = llay,
                                                         .color_format = lfmt, .address = src};
            vc4_cl_load_tile_buffer_general(cl, &lg);
            struct vc4_cl_tile_coordinates t = {tx, ty};
            vc4_cl_tile_coordinates(cl, &t); /* the load runs here */
            struct vc4_cl_store_tile_buffer_general sg = {.buffer = buffer, .memory_format = slay,
                                                          .color_format = sfmt, .address = dst};
            vc4_cl_store_tile_buffer_general(cl, &sg);
        }
}

static void test_layouts_roundtrip(void)
{
    struct vc4_emu *emu = mk();
    struct vc4_diag_sink sink = harness_sink(&hd);
    for (unsigned y = 0; y < FH; y++)
        for (unsigned x = 0; x < FW; x++) {
            uint8_t b[4];
            sc_put32(b, pattern(x, y));
            vc4_emu_mem_write(emu, SRC + 4 * (y * FW + x), b, 4);
        }
    /* raster -> T -> LT -> raster, RGBA8888 colour; then the same words
     * as the Z/stencil buffer */
    struct vc4_cl cl;
    begin(&cl, &sink, VC4_CL_FB_RGBA8888);
    copy_tiles(&cl, VC4_CL_BUF_COLOR, 0, VC4_CL_MEM_RASTER, SRC, 0, VC4_CL_MEM_T, BUF1);
    copy_tiles(&cl, VC4_CL_BUF_COLOR, 0, VC4_CL_MEM_T, BUF1, 0, VC4_CL_MEM_LT, BUF2);
    copy_tiles(&cl, VC4_CL_BUF_COLOR, 0, VC4_CL_MEM_LT, BUF2, 0, VC4_CL_MEM_RASTER, BUF3);
    run_list(emu, &cl);
    struct vc4_emu_frame f = {.valid = true, .addr = BUF3, .width = FW, .height = FH,
                              .color_format = VC4_CL_FB_RGBA8888};
    uint8_t *img = malloc(FW * FH * 4);
    CHECK(vc4_emu_read_frame(emu, &f, img) == VC4_OK);
    unsigned bad = 0;
    for (unsigned y = 0; y < FH; y++)
        for (unsigned x = 0; x < FW; x++) {
            uint32_t p = pattern(x, y);
            const uint8_t *c = img + 4 * (y * FW + x);
            bad += c[0] != (uint8_t)p || c[1] != (uint8_t)(p >> 8) || c[2] != (uint8_t)(p >> 16) ||
                   c[3] != (uint8_t)(p >> 24);
        }
    CHECK_EQ_INT(bad, 0);
    /* the T image is really tiled: pixel (4, 0) is the second utile, at 64 */
    uint8_t w[4];
    vc4_emu_mem_read(emu, BUF1 + 64, w, 4);
    CHECK_EQ_U64(vc4_le32_test(w), pattern(4, 0));
    free(img);

    /* Z/stencil: raster -> LT -> raster keeps the 32-bit words */
    hd = (struct harness_diags){0};
    begin(&cl, &sink, VC4_CL_FB_RGBA8888);
    copy_tiles(&cl, VC4_CL_BUF_ZS, 0, VC4_CL_MEM_RASTER, SRC, 0, VC4_CL_MEM_LT, BUF1);
    copy_tiles(&cl, VC4_CL_BUF_ZS, 0, VC4_CL_MEM_LT, BUF1, 0, VC4_CL_MEM_RASTER, BUF2);
    run_list(emu, &cl);
    bad = 0;
    for (unsigned i = 0; i < FW * FH; i++) {
        vc4_emu_mem_read(emu, BUF2 + 4 * i, w, 4);
        bad += vc4_le32_test(w) != pattern(i % FW, i / FW);
    }
    CHECK_EQ_INT(bad, 0);
    vc4_emu_destroy(emu);
}

static void test_bgr565(void)
{
    /* the pixel conversions: red 15:11, green 10:5, blue 4:0 */
    CHECK_EQ_U64(vc4_tlb_rgba_to_565(0xFF0000FFu, false, 0, 0), 0xF800);
    CHECK_EQ_U64(vc4_tlb_rgba_to_565(0xFF00FF00u, false, 0, 0), 0x07E0);
    CHECK_EQ_U64(vc4_tlb_rgba_to_565(0xFFFF0000u, false, 0, 0), 0x001F);
    CHECK_EQ_U64(vc4_tlb_565_to_rgba(0xF800), 0xFF0000FFu);
    CHECK_EQ_U64(vc4_tlb_565_to_rgba(0x0841), 0xFF080808u); /* 1, 2, 1 widened by bit replication */
    CHECK_EQ_U64(vc4_tlb_565_to_rgba(0x8410), 0xFF848284u); /* 16, 32, 16 */
    /* dither: M[y&3][x&3] / 2 (red, blue) and / 4 (green) added before the
     * truncation, saturating; M = Bayer 4x4 {0 8 2 10; 12 4 14 6; 3 11 1 9;
     * 15 7 13 5} */
    CHECK_EQ_U64(vc4_tlb_rgba_to_565(0x00000004u, true, 0, 0), 0x0000);      /* 4 + 0 >> 3 */
    CHECK_EQ_U64(vc4_tlb_rgba_to_565(0x00000004u, true, 1, 0), 0x0800);      /* 4 + 4 >> 3 */
    CHECK_EQ_U64(vc4_tlb_rgba_to_565(0x00000001u, true, 0, 3), 0x0800);      /* 1 + 7 >> 3 */
    CHECK_EQ_U64(vc4_tlb_rgba_to_565(0x00000100u, true, 0, 3), 0x0020);      /* green 1 + 3 >> 2 */
    CHECK_EQ_U64(vc4_tlb_rgba_to_565(0x00FFFFFFu, true, 0, 3), 0xFFFF);      /* saturates */
    /* a flat colour dithers to the right average over a 4x4 block */
    unsigned sum = 0;
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 4; x++)
            sum += vc4_tlb_rgba_to_565(0x00000014u, true, x, y) >> 11; /* red 20 = 2.5 steps of 8 */
    CHECK_EQ_INT(sum, 40); /* 16 x 2.5 */

    /* a 565 store and load through the lists: 8888 -> 565 -> 8888 */
    struct vc4_emu *emu = mk();
    struct vc4_diag_sink sink = harness_sink(&hd);
    for (unsigned i = 0; i < FW * FH; i++) {
        uint8_t b[4];
        sc_put32(b, pattern(i % FW, i / FW));
        vc4_emu_mem_write(emu, SRC + 4 * i, b, 4);
    }
    struct vc4_cl cl;
    begin(&cl, &sink, VC4_CL_FB_RGBA8888);
    copy_tiles(&cl, VC4_CL_BUF_COLOR, VC4_CL_LS_RGBA8888, VC4_CL_MEM_RASTER, SRC, VC4_CL_LS_BGR565_DITHER,
               VC4_CL_MEM_T, BUF1);
    copy_tiles(&cl, VC4_CL_BUF_COLOR, VC4_CL_LS_BGR565, VC4_CL_MEM_T, BUF1, VC4_CL_LS_RGBA8888,
               VC4_CL_MEM_RASTER, BUF2);
    run_list(emu, &cl);
    unsigned bad = 0;
    for (unsigned i = 0; i < FW * FH; i++) {
        unsigned x = i % FW, y = i / FW;
        uint8_t w[4];
        vc4_emu_mem_read(emu, BUF2 + 4 * i, w, 4);
        uint32_t want = vc4_tlb_565_to_rgba(vc4_tlb_rgba_to_565(pattern(x, y), true, x, y));
        bad += vc4_le32_test(w) != want;
    }
    CHECK_EQ_INT(bad, 0);
    vc4_emu_destroy(emu);
}

/* Clears: stores clear what they are not told to keep; Clear Colors sets
 * the values; full-resolution dumps keep every sample. */
static void test_clears_and_full_res(void)
{
    struct vc4_emu *emu = mk();
    struct vc4_diag_sink sink = harness_sink(&hd);
    struct vc4_cl cl;
    begin(&cl, &sink, VC4_CL_FB_RGBA8888);
    struct vc4_cl_clear_colors cc = {.clear_color = 0x11223344u | (uint64_t)0x11223344u << 32,
                                     .clear_zs = 0xABCDEF, .clear_stencil = 0x5A};
    vc4_cl_clear_colors(&cl, &cc);
    struct vc4_cl_tile_coordinates t = {1, 1};
    vc4_cl_tile_coordinates(&cl, &t);
    struct vc4_cl_store_tile_buffer_general none = {.buffer = VC4_CL_BUF_NONE};
    vc4_cl_store_tile_buffer_general(&cl, &none); /* the buffer takes the clear values */
    vc4_cl_tile_coordinates(&cl, &t);
    struct vc4_cl_store_tile_buffer_general zs = {.buffer = VC4_CL_BUF_ZS, .address = BUF1,
                                                  .disable_color_clear = true, .disable_zs_clear = true};
    vc4_cl_store_tile_buffer_general(&cl, &zs);
    vc4_cl_tile_coordinates(&cl, &t);
    struct vc4_cl_store_full_res_tile_buffer sf = {.address = DUMP};
    vc4_cl_store_full_res_tile_buffer(&cl, &sf); /* then clears */
    /* a new clear colour is taken only by a store */
    struct vc4_cl_clear_colors cc2 = {.clear_color = 0x55667788u};
    vc4_cl_clear_colors(&cl, &cc2);
    vc4_cl_tile_coordinates(&cl, &t);
    struct vc4_cl_store_tile_buffer_general col = {.buffer = VC4_CL_BUF_COLOR, .address = BUF2};
    vc4_cl_store_tile_buffer_general(&cl, &col);
    /* reload the dump and store it again */
    struct vc4_cl_load_full_res_tile_buffer lf = {.address = DUMP};
    vc4_cl_load_full_res_tile_buffer(&cl, &lf);
    vc4_cl_tile_coordinates(&cl, &t);
    struct vc4_cl_store_tile_buffer_general col3 = {.buffer = VC4_CL_BUF_COLOR, .address = BUF3, .last_tile = true};
    vc4_cl_store_tile_buffer_general(&cl, &col3);
    run_list(emu, &cl);

    uint8_t w[4];
    /* tile (1, 1) of a 100x70 frame: pixel (64, 64) */
    uint32_t px = 4 * (64 * FW + 64);
    vc4_emu_mem_read(emu, BUF1 + px, w, 4);
    CHECK_EQ_U64(vc4_le32_test(w), 0xABCDEF5Au); /* Z in 31:8, stencil 7:0 */
    vc4_emu_mem_read(emu, DUMP, w, 4);
    CHECK_EQ_U64(vc4_le32_test(w), 0x11223344u);
    vc4_emu_mem_read(emu, DUMP + 16384, w, 4); /* Z/stencil after the colour */
    CHECK_EQ_U64(vc4_le32_test(w), 0xABCDEF5Au);
    vc4_emu_mem_read(emu, BUF2 + px, w, 4);
    CHECK_EQ_U64(vc4_le32_test(w), 0x11223344u); /* cleared with the old values */
    vc4_emu_mem_read(emu, BUF3 + px, w, 4);
    CHECK_EQ_U64(vc4_le32_test(w), 0x11223344u); /* reloaded */
    /* pixels outside the frame are not written: (100, 64) is beyond */
    vc4_emu_mem_read(emu, BUF3 + 4 * (FW * FH), w, 4);
    CHECK_EQ_U64(vc4_le32_test(w), 0);
    vc4_emu_destroy(emu);
}

/* ---- shading: depth and threads ------------------------------------------------ */

#define SH_CODE 0x00600000u
#define SH_CODE2 0x00601000u
#define SH_UNIF 0x00602000u
#define SH_REC 0x00603000u
#define SH_VERT 0x00604000u
#define SH_FB 0x00700000u

/* A render list drawing with Vertex Array Primitives straight from the
 * rendering list into one 64x64 tile (vc4kit draws 32/33 there). */
static void draw_list(struct vc4_cl *cl, struct vc4_diag_sink *sink, unsigned depth_func, bool z_update,
                      unsigned nrec, unsigned ntri_each)
{
    vc4_cl_init(cl, NULL, RL, sink);
    struct vc4_cl_clear_colors cc = {.clear_color = 0xFF000000u, .clear_zs = 0xFFFFFF};
    vc4_cl_clear_colors(cl, &cc);
    struct vc4_cl_tile_rendering_mode_config tr = {.fb_addr = SH_FB, .width_px = 64, .height_px = 64,
                                                   .color_format = VC4_CL_FB_RGBA8888};
    vc4_cl_tile_rendering_mode_config(cl, &tr);
    struct vc4_cl_tile_coordinates t = {0, 0};
    vc4_cl_tile_coordinates(cl, &t);
    struct vc4_cl_store_tile_buffer_general none = {.buffer = VC4_CL_BUF_NONE};
    vc4_cl_store_tile_buffer_general(cl, &none);
    vc4_cl_tile_coordinates(cl, &t);
    struct vc4_cl_configuration_bits cb = {.enable_forward_facing = true, .enable_reverse_facing = true,
                                           .depth_func = depth_func, .z_updates_enable = z_update};
    vc4_cl_configuration_bits(cl, &cb);
    for (unsigned r = 0; r < nrec; r++) {
        struct vc4_cl_nv_shader_state nv = {SH_REC + 16 * r};
        vc4_cl_nv_shader_state(cl, &nv);
        struct vc4_cl_vertex_array_primitives va = {.primitive_mode = VC4_CL_PRIM_TRIANGLES,
                                                    .length = 3 * ntri_each, .first_index = 3 * ntri_each * r};
        vc4_cl_vertex_array_primitives(cl, &va);
    }
    vc4_cl_store_ms_tile_buffer_and_eof(cl);
}

static void vertex(struct vc4_emu *emu, unsigned i, int x, int y, float z)
{
    uint8_t v[12];
    v[0] = (uint8_t)(x * 16);
    v[1] = (uint8_t)((x * 16) >> 8);
    v[2] = (uint8_t)(y * 16);
    v[3] = (uint8_t)((y * 16) >> 8);
    sc_put32(v + 4, sc_f2u(z));
    sc_put32(v + 8, sc_f2u(1.0f));
    vc4_emu_mem_write(emu, SH_VERT + 12 * i, v, 12);
}

static void record(struct vc4_emu *emu, unsigned r, uint32_t code, uint32_t unif, bool single)
{
    struct vc4_cl_nv_shader_record rec = {.fs_single_threaded = single, .vertex_stride = 12,
                                          .fs_code_addr = code, .fs_uniforms_addr = unif,
                                          .vertex_data_addr = SH_VERT};
    uint8_t b[16];
    vc4_cl_nv_shader_record_pack(&rec, b, NULL);
    vc4_emu_mem_write(emu, SH_REC + 16 * r, b, 16);
}

static uint32_t fb_px(struct vc4_emu *emu, unsigned x, unsigned y)
{
    uint8_t w[4];
    vc4_emu_mem_read(emu, SH_FB + 4 * (y * 64 + x), w, 4);
    return vc4_le32_test(w);
}

/* The colour shader: the payload Z (rb15) to TLB_Z, as Mesa does for a
 * depth test, then one uniform word straight to TLB_COLOUR_ALL. */
static const char fs_flat[] = "nop\nnop\nmov tlbz, rb15\nmov tlbc, unif\nnop; thrend\nnop\nnop; sbdone\n";
/* The same writing its Z first: Z = the uniform's second word. */
static const char fs_zwrite[] = "nop\nnop\nmov tlbz, unif\nmov tlbc, unif\nnop; thrend\nnop\nnop; sbdone\n";

static void test_depth(void)
{
    struct vc4_diag_sink sink = harness_sink(&hd);
    for (int order = 0; order < 2; order++) {
        struct vc4_emu *emu = mk();
        sc_load_shader(emu, fs_flat, SH_CODE, sink);
        /* near (Z 0.25, red) and far (Z 0.75, blue) full-tile triangles */
        float z[2] = {order ? 0.75f : 0.25f, order ? 0.25f : 0.75f};
        uint32_t col[2] = {order ? 0xFFFF0000u : 0xFF0000FFu, order ? 0xFF0000FFu : 0xFFFF0000u};
        for (unsigned r = 0; r < 2; r++) {
            vertex(emu, 3 * r + 0, 0, 0, z[r]);
            vertex(emu, 3 * r + 1, 128, 0, z[r]);
            vertex(emu, 3 * r + 2, 0, 128, z[r]);
            uint8_t u[4];
            sc_put32(u, col[r]);
            vc4_emu_mem_write(emu, SH_UNIF + 16 * r, u, 4);
            record(emu, r, SH_CODE, SH_UNIF + 16 * r, false);
        }
        struct vc4_cl cl;
        draw_list(&cl, &sink, VC4_CL_DEPTH_LESS, true, 2, 1);
        run_list(emu, &cl);
        CHECK_EQ_U64(fb_px(emu, 10, 10), 0xFF0000FFu); /* the near one (red) wins */
        vc4_emu_destroy(emu);
    }
    /* without Z updates the second draws wherever it passes against the
     * cleared Z (1.0): last one wins */
    struct vc4_emu *emu = mk();
    sc_load_shader(emu, fs_flat, SH_CODE, sink);
    for (unsigned r = 0; r < 2; r++) {
        vertex(emu, 3 * r + 0, 0, 0, r ? 0.75f : 0.25f);
        vertex(emu, 3 * r + 1, 128, 0, r ? 0.75f : 0.25f);
        vertex(emu, 3 * r + 2, 0, 128, r ? 0.75f : 0.25f);
        uint8_t u[4];
        sc_put32(u, r ? 0xFFFF0000u : 0xFF0000FFu);
        vc4_emu_mem_write(emu, SH_UNIF + 16 * r, u, 4);
        record(emu, r, SH_CODE, SH_UNIF + 16 * r, false);
    }
    struct vc4_cl cl;
    draw_list(&cl, &sink, VC4_CL_DEPTH_LESS, false, 2, 1);
    run_list(emu, &cl);
    CHECK_EQ_U64(fb_px(emu, 10, 10), 0xFFFF0000u);
    /* depth "never": nothing drawn */
    draw_list(&cl, &sink, VC4_CL_DEPTH_NEVER, true, 2, 1);
    run_list(emu, &cl);
    CHECK_EQ_U64(fb_px(emu, 10, 10), 0xFF000000u);
    /* TLB_Z: the shader's Z (24-bit) takes part: Z 0x100000 passes LESS
     * against 0x7FFFFF (the rasteriser's 0.5 would too); 0xF00000 fails */
    sc_load_shader(emu, fs_zwrite, SH_CODE2, sink);
    uint8_t u[8];
    sc_put32(u, 0xF00000);
    sc_put32(u + 4, 0xFF00FF00u);
    vc4_emu_mem_write(emu, SH_UNIF + 64, u, 8);
    record(emu, 0, SH_CODE, SH_UNIF, false);     /* red at the rasteriser's Z 0.25 */
    record(emu, 1, SH_CODE2, SH_UNIF + 64, false); /* green at TLB_Z 0xF00000 */
    for (unsigned k = 0; k < 6; k++)
        vertex(emu, k, k % 3 == 1 ? 128 : 0, k % 3 == 2 ? 128 : 0, 0.25f);
    draw_list(&cl, &sink, VC4_CL_DEPTH_LESS, true, 2, 1);
    run_list(emu, &cl);
    CHECK_EQ_U64(fb_px(emu, 10, 10), 0xFF0000FFu); /* green failed the test */
    sc_put32(u, 0x100000);
    vc4_emu_mem_write(emu, SH_UNIF + 64, u, 4);
    draw_list(&cl, &sink, VC4_CL_DEPTH_LESS, true, 2, 1);
    run_list(emu, &cl);
    CHECK_EQ_U64(fb_px(emu, 10, 10), 0xFF00FF00u); /* green passed */
    vc4_emu_destroy(emu);
}

/* Threads: a shader that keeps the pixel's X in ra2 across a thread switch
 * (two threads per QPU own registers 0-15 each), on one QPU so every
 * switch goes to the other batch; the frame is the same as with a
 * single-threaded run. */
static const char fs_thread[] =
    "nop\n"
    "mov ra2, x_coord\n"
    "nop; thrsw\n"
    "nop\n"
    "nop\n"
    "ldi r1, 0xFF000000\n"
    "or r0, ra2, r1\n"
    "mov tlbc, r0\n"
    "nop; thrend\n"
    "nop\n"
    "nop; sbdone\n";

static void test_threads(void)
{
    struct vc4_diag_sink sink = harness_sink(&hd);
    uint32_t ref[64 * 64];
    for (int single = 1; single >= 0; single--) {
        struct vc4_emu_options eo = {.sink = sink, .mem_size = 16u << 20, .num_qpus = 1};
        struct vc4_emu *emu = vc4_emu_create(&eo);
        CHECK(sc_load_shader(emu, fs_thread, SH_CODE, sink));
        vertex(emu, 0, 0, 0, 0.5f);
        vertex(emu, 1, 128, 0, 0.5f);
        vertex(emu, 2, 0, 128, 0.5f);
        record(emu, 0, SH_CODE, 0, single);
        struct vc4_cl cl;
        draw_list(&cl, &sink, VC4_CL_DEPTH_ALWAYS, false, 1, 1);
        run_list(emu, &cl);
        unsigned bad = 0;
        for (unsigned y = 0; y < 64; y++)
            for (unsigned x = 0; x < 64; x++) {
                uint32_t p = fb_px(emu, x, y);
                if (single)
                    ref[y * 64 + x] = p;
                else
                    bad += p != ref[y * 64 + x];
                if (x + y < 127) /* inside the triangle */
                    bad += p != (0xFF000000u | x);
            }
        CHECK_MSG(bad == 0, "%s: %u pixels wrong", single ? "single-threaded" : "threaded", bad);
        vc4_emu_destroy(emu);
    }
    CHECK_EQ_INT(hd.errors, 0);
    CHECK_EQ_INT(hd.warnings, 0);
}

/* ---- transfers in runs against pixel by pixel ------------------------------ */

static uint64_t tr_seed = 0x2545F4914F6CDD1Du;
static uint32_t tr_rand(void)
{
    tr_seed ^= tr_seed << 13;
    tr_seed ^= tr_seed >> 7;
    tr_seed ^= tr_seed << 17;
    return (uint32_t)(tr_seed >> 16);
}

/* The reference's view of a transfer: its pixel kind and geometry. */
struct ref_xfer {
    bool is565, zs;
    struct vc4_tex_geom g;
};

static bool ref_begin(const struct vc4_tlb_xfer *x, struct ref_xfer *rx)
{
    rx->is565 = x->fmt == VC4_TLB_PF_BGR565 || x->fmt == VC4_TLB_PF_BGR565_DITHER;
    rx->zs = x->fmt == VC4_TLB_PF_ZS || x->fmt == VC4_TLB_PF_Z;
    return vc4_tex_geom_init(&rx->g, x->layout, rx->is565 ? 16 : 32, x->frame_w, x->frame_h);
}

/* Tile pixel (px, py): its frame pixel and address; false outside the frame. */
static bool ref_at(const struct vc4_tlb *t, const struct vc4_tlb_xfer *x, const struct ref_xfer *rx, unsigned px,
                   unsigned py, unsigned *fx, unsigned *fy, uint32_t *a)
{
    *fx = x->tile_x * t->tile_w + px;
    *fy = x->tile_y * t->tile_h + py;
    if (*fx >= x->frame_w || *fy >= x->frame_h)
        return false;
    *a = x->addr + (uint32_t)(vc4_tex_bit_offset(&rx->g, *fx, *fy) >> 3);
    return true;
}

static void ref_fault(enum vc4_tlb_result *r, uint32_t *bad, uint32_t a)
{
    if (*r == VC4_TLB_OK) {
        *r = VC4_TLB_FAULT;
        *bad = a;
    }
}

/* The rules of a store, pixel by pixel in row order (the reference): the
 * value is sample 0, the 4 samples' average with a resolve, or the
 * Z/stencil word; 565 converts (and dithers); Z-only keeps memory's
 * stencil byte; a pixel that does not fit in RAM is skipped, the first such
 * address reported. */
static enum vc4_tlb_result ref_store(const struct vc4_tlb *t, struct vc4_mem *m, const struct vc4_tlb_xfer *x,
                                     uint32_t *bad)
{
    struct ref_xfer rx;
    if (!ref_begin(x, &rx))
        return VC4_TLB_UNSUPPORTED;
    enum vc4_tlb_result r = VC4_TLB_OK;
    for (unsigned py = 0; py < t->tile_h; py++)
        for (unsigned px = 0, fx, fy; px < t->tile_w; px++) {
            uint32_t a;
            if (!ref_at(t, x, &rx, px, py, &fx, &fy, &a))
                continue;
            unsigned i = (py * t->tile_w + px) * t->samples;
            uint32_t v = rx.zs ? t->zs[i] : t->color[i];
            if (!rx.zs && x->resolve && t->samples == 4)
                v = vc4_tlb_resolve4(&t->color[i]);
            bool ok;
            if (rx.is565) {
                ok = vc4_mem_write16(m, a, vc4_tlb_rgba_to_565(v, x->fmt == VC4_TLB_PF_BGR565_DITHER, fx, fy));
            } else if (x->fmt == VC4_TLB_PF_Z) {
                uint32_t old = 0;
                ok = vc4_mem_read32(m, a, &old) && vc4_mem_write32(m, a, (v & ~0xFFu) | (old & 0xFFu));
            } else {
                ok = vc4_mem_write32(m, a, v);
            }
            if (!ok)
                ref_fault(&r, bad, a);
        }
    return r;
}

/* A load pixel by pixel: every sample of the pixel gets the word (565
 * widened); a pixel outside RAM is left as it was. */
static enum vc4_tlb_result ref_load(struct vc4_tlb *t, const struct vc4_mem *m, const struct vc4_tlb_xfer *x,
                                    uint32_t *bad)
{
    struct ref_xfer rx;
    if (!ref_begin(x, &rx))
        return VC4_TLB_UNSUPPORTED;
    enum vc4_tlb_result r = VC4_TLB_OK;
    for (unsigned py = 0; py < t->tile_h; py++)
        for (unsigned px = 0, fx, fy; px < t->tile_w; px++) {
            uint32_t a, v = 0;
            if (!ref_at(t, x, &rx, px, py, &fx, &fy, &a))
                continue;
            bool ok;
            if (rx.is565) {
                uint16_t h = 0;
                ok = vc4_mem_read16(m, a, &h);
                v = vc4_tlb_565_to_rgba(h);
            } else {
                ok = vc4_mem_read32(m, a, &v);
            }
            if (!ok) {
                ref_fault(&r, bad, a);
                continue;
            }
            for (unsigned s = 0; s < t->samples; s++)
                (rx.zs ? t->zs : t->color)[(py * t->tile_w + px) * t->samples + s] = v;
        }
    return r;
}

/* Stores and loads in every layout, format and mode, on tiles inside the
 * frame, at its right and bottom edges and straddling the end of RAM (at
 * aligned and odd addresses, through an alias), give the bytes, the tile
 * buffer, the result and the first bad address of the pixel-by-pixel rules. */
static void test_transfer_runs(void)
{
    enum { RAM = 1u << 20 };
    static const enum vc4_tex_layout lays[] = {VC4_TEX_RASTER, VC4_TEX_LT, VC4_TEX_T};
    static const enum vc4_tlb_pixfmt fmts[] = {VC4_TLB_PF_RGBA8888, VC4_TLB_PF_BGR565_DITHER, VC4_TLB_PF_BGR565,
                                               VC4_TLB_PF_ZS, VC4_TLB_PF_Z};
    struct vc4_mem ma, mb;
    CHECK(vc4_mem_init(&ma, RAM, NULL) == VC4_OK && vc4_mem_init(&mb, RAM, NULL) == VC4_OK);
    static struct vc4_tlb ta, tb;
    unsigned cases = 0, faults = 0, diffs = 0;
    for (unsigned l = 0; l < 3; l++)
        for (unsigned f = 0; f < 5; f++)
            for (unsigned mode = 0; mode < 3; mode++) /* single sample; 4x; 4x resolved */
                for (unsigned where = 0; where < 5; where++) {
                    bool ms = mode != 0;
                    vc4_tlb_reset(&ta);
                    vc4_tlb_configure(&ta, ms, false);
                    for (unsigned i = 0; i < VC4_TLB_ENTRIES; i++) {
                        ta.color[i] = tr_rand();
                        ta.zs[i] = tr_rand();
                    }
                    tb = ta;
                    for (uint32_t i = 0; i < RAM; i += 4) {
                        uint32_t w = tr_rand();
                        memcpy(ma.ram + i, &w, 4);
                    }
                    memcpy(mb.ram, ma.ram, RAM);
                    struct vc4_tlb_xfer x = {.frame_w = 100, .frame_h = 70, .layout = lays[l], .fmt = fmts[f],
                                             .resolve = mode == 2};
                    /* 0, 1: the first tile, the last (partial) one; 2-4:
                     * the tile across the end of RAM */
                    x.tile_x = x.tile_y = where == 0 ? 0 : 1;
                    if (ms && where != 0) { /* (32 x 32 tiles) */
                        x.tile_x = 3;
                        x.tile_y = 2;
                    }
                    x.addr = 0x40000u;
                    if (where >= 2) {
                        /* RAM ends 6 or 8 bytes after the start of the
                         * element at column 10, row 2 of the tile: inside
                         * a run, which the next element or two straddle */
                        struct vc4_tex_geom g;
                        bool is565 = fmts[f] == VC4_TLB_PF_BGR565 || fmts[f] == VC4_TLB_PF_BGR565_DITHER;
                        CHECK(vc4_tex_geom_init(&g, lays[l], is565 ? 16 : 32, x.frame_w, x.frame_h));
                        uint32_t o = (uint32_t)(vc4_tex_bit_offset(&g, x.tile_x * ta.tile_w + 10,
                                                                   x.tile_y * ta.tile_h + 2) >> 3);
                        x.addr = RAM - o - (where == 3 ? 8u : 6u);
                    }
                    if (where == 4)
                        x.addr |= 0xC0000000u;
                    uint32_t bad_a = 0, bad_b = 0;
                    enum vc4_tlb_result ra = vc4_tlb_store(&ta, &ma, &x, &bad_a);
                    enum vc4_tlb_result rb = ref_store(&tb, &mb, &x, &bad_b);
                    bool same = ra == rb && bad_a == bad_b && memcmp(ma.ram, mb.ram, RAM) == 0;
                    /* then load what is there back over the tile buffer */
                    ra = vc4_tlb_load(&ta, &ma, &x, &bad_a);
                    rb = ref_load(&tb, &mb, &x, &bad_b);
                    same &= ra == rb && bad_a == bad_b && memcmp(ta.color, tb.color, sizeof ta.color) == 0 &&
                            memcmp(ta.zs, tb.zs, sizeof ta.zs) == 0;
                    if (!same && diffs++ == 0)
                        fprintf(stderr, "transfer differs: layout %u format %u mode %u case %u\n", l, f, mode,
                                where);
                    faults += ra == VC4_TLB_FAULT;
                    cases++;
                }
    vc4_mem_fini(&ma);
    vc4_mem_fini(&mb);
    CHECK_EQ_INT(diffs, 0);
    CHECK_EQ_INT(cases, 225);
    CHECK(faults >= 3 * 5 * 3 * 2); /* the RAM-end cases fault */
}

/* Regression (piglit's gl-1.0-logicop MSAA cases, which pass on Pi 3s in
 * Mesa's CI): a 4x multisample full-resolution dump (packet 26) is laid out
 * as Mesa reads it back with TMU lookups (vc4_nir_lower_txf_ms.c): 64-byte
 * 2x2 quads, 16 a row, sample s of pixel (x, y) at s * 16 + (y & 1) * 8 +
 * (x & 1) * 4 in its quad; the Z/stencil buffer 16 KB on; the reload
 * (packet 27) reads the same places.  vc4kit's [y][x][sample] order made
 * Mesa's MSAA resolves read other samples' colours. */
static void test_regression_msaa_dump_layout(void)
{
    enum { RAM = 1u << 20, AT = 0x1000 };
    struct vc4_mem m;
    CHECK(vc4_mem_init(&m, RAM, NULL) == VC4_OK);
    static struct vc4_tlb t, back;
    vc4_tlb_reset(&t);
    vc4_tlb_configure(&t, true, false);
    CHECK_EQ_INT(t.tile_w, 32);
    for (unsigned y = 0; y < 32; y++)
        for (unsigned x = 0; x < 32; x++)
            for (unsigned s = 0; s < 4; s++) {
                t.color[vc4_tlb_index(&t, x, y, s)] = 0xC0000000u | y << 16 | x << 8 | s;
                t.zs[vc4_tlb_index(&t, x, y, s)] = 0x20000000u | y << 16 | x << 8 | s;
            }
    uint32_t bad = 0;
    CHECK(vc4_tlb_store_full(&t, &m, AT, true, true, &bad) == VC4_TLB_OK);
    unsigned wrong = 0;
    for (unsigned y = 0; y < 32; y++)
        for (unsigned x = 0; x < 32; x++)
            for (unsigned s = 0; s < 4; s++) {
                uint32_t a = AT + ((y >> 1) * 16 + (x >> 1)) * 64 + s * 16 + (y & 1) * 8 + (x & 1) * 4, c, z;
                CHECK(vc4_mem_read32(&m, a, &c) && vc4_mem_read32(&m, a + 16384, &z));
                wrong += c != (0xC0000000u | y << 16 | x << 8 | s) || z != (0x20000000u | y << 16 | x << 8 | s);
            }
    CHECK_EQ_INT(wrong, 0);
    vc4_tlb_reset(&back);
    vc4_tlb_configure(&back, true, false);
    CHECK(vc4_tlb_load_full(&back, &m, AT, true, true, &bad) == VC4_TLB_OK);
    CHECK(memcmp(back.color, t.color, sizeof t.color) == 0 && memcmp(back.zs, t.zs, sizeof t.zs) == 0);
    vc4_mem_fini(&m);
}

TEST_LIST(test_layouts_roundtrip, test_bgr565, test_clears_and_full_res, test_depth, test_threads,
          test_transfer_runs, test_regression_msaa_dump_layout)
