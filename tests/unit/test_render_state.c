/*
 * test_render_state.c - rendering state and the fragment-shader payload:
 * Flat Shade Flags, Clip Window, Viewport Offset, point size (packet and
 * per vertex) and line width, X/Y pixel coordinates, REV_FLAG, MS_FLAGS
 * reads and the discard write, the fragment-shader rules (scoreboard in the
 * first two instructions, unread varyings), and the binner running out of
 * tile-allocation memory: CT0 stalls with BMOOM/OUTOMEM until the host
 * gives it overflow memory, then the frame completes unchanged.
 */
#include "harness.h"
#include "nv_scene.h"

#define RL 0x00010000u
#define CODE 0x00020000u
#define REC 0x00030000u
#define VERT 0x00040000u
#define FB 0x00100000u

static struct harness_diags hd;

static uint32_t le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static struct vc4_emu *mk(const char *fs)
{
    struct vc4_emu_options eo = {.sink = harness_sink(&hd), .mem_size = 16u << 20};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    CHECK(sc_load_shader(emu, fs, CODE, eo.sink));
    return emu;
}

/* vertices: x, y in pixels (floats allowed: 1/16 steps), Z 0.5, 1/W 1,
 * then nvary varyings; point size first when ps >= 0 */
static void vtx(struct vc4_emu *emu, unsigned i, unsigned stride, double x, double y, float ps,
                const float *vary, unsigned nvary)
{
    uint8_t v[64] = {0};
    int32_t x16 = (int32_t)(x * 16), y16 = (int32_t)(y * 16);
    v[0] = (uint8_t)x16;
    v[1] = (uint8_t)(x16 >> 8);
    v[2] = (uint8_t)y16;
    v[3] = (uint8_t)(y16 >> 8);
    sc_put32(v + 4, sc_f2u(0.5f));
    sc_put32(v + 8, sc_f2u(1.0f));
    unsigned o = 12;
    if (ps >= 0.0f) {
        sc_put32(v + o, sc_f2u(ps));
        o += 4;
    }
    for (unsigned k = 0; k < nvary; k++)
        sc_put32(v + o + 4 * k, sc_f2u(vary[k]));
    vc4_emu_mem_write(emu, VERT + stride * i, v, stride);
}

static void rec(struct vc4_emu *emu, unsigned stride, unsigned nvary, bool ps)
{
    struct vc4_cl_nv_shader_record r = {.point_size_included = ps, .vertex_stride = stride,
                                        .fs_num_varyings = nvary, .fs_code_addr = CODE, .vertex_data_addr = VERT};
    uint8_t b[16];
    vc4_cl_nv_shader_record_pack(&r, b, NULL);
    vc4_emu_mem_write(emu, REC, b, 16);
}

/* Start a 64x64 one-tile rendering list; the caller adds state and
 * primitives, then end() stores it. */
static void begin(struct vc4_cl *cl, struct vc4_diag_sink *sink, bool ms)
{
    vc4_cl_init(cl, NULL, RL, sink);
    struct vc4_cl_clear_colors cc = {.clear_color = 0};
    vc4_cl_clear_colors(cl, &cc);
    struct vc4_cl_tile_rendering_mode_config tr = {.fb_addr = FB, .width_px = 64, .height_px = 64,
                                                   .multisample_4x = ms, .color_format = VC4_CL_FB_RGBA8888};
    vc4_cl_tile_rendering_mode_config(cl, &tr);
    struct vc4_cl_tile_coordinates t = {0, 0};
    vc4_cl_tile_coordinates(cl, &t);
    struct vc4_cl_store_tile_buffer_general none = {.buffer = VC4_CL_BUF_NONE};
    vc4_cl_store_tile_buffer_general(cl, &none);
    vc4_cl_tile_coordinates(cl, &t);
    struct vc4_cl_configuration_bits cb = {.enable_forward_facing = true, .enable_reverse_facing = true,
                                           .depth_func = VC4_CL_DEPTH_ALWAYS,
                                           .rasteriser_oversample = ms ? VC4_CL_OVERSAMPLE_4X : 0};
    vc4_cl_configuration_bits(cl, &cb);
    struct vc4_cl_nv_shader_state nv = {REC};
    vc4_cl_nv_shader_state(cl, &nv);
}

static void prims(struct vc4_cl *cl, unsigned mode, unsigned n, unsigned first)
{
    struct vc4_cl_vertex_array_primitives va = {.primitive_mode = mode, .length = n, .first_index = first};
    vc4_cl_vertex_array_primitives(cl, &va);
}

static bool end_run(struct vc4_emu *emu, struct vc4_cl *cl)
{
    vc4_cl_store_ms_tile_buffer_and_eof(cl);
    bool ok = cl->status == VC4_OK && vc4_emu_mem_write(emu, RL, cl->data, cl->len) == VC4_OK;
    vc4_emu_reg_write(emu, VC4_V3D_CT1CA, RL);
    vc4_emu_reg_write(emu, VC4_V3D_CT1EA, vc4_cl_addr(cl));
    enum vc4_status st = vc4_emu_run(emu, 0);
    CHECK_MSG(st == VC4_OK && hd.errors == 0, "%s\n%s", vc4_status_name(st), hd.text);
    vc4_cl_free(cl);
    return ok && st == VC4_OK;
}

static uint32_t px(struct vc4_emu *emu, unsigned x, unsigned y)
{
    uint8_t w[4];
    vc4_emu_mem_read(emu, FB + 4 * (y * 64 + x), w, 4);
    return le32(w);
}

static unsigned count_nonzero(struct vc4_emu *emu)
{
    unsigned n = 0;
    for (unsigned y = 0; y < 64; y++)
        for (unsigned x = 0; x < 64; x++)
            n += px(emu, x, y) != 0;
    return n;
}

/* R, G, B = V * W + C packed to RGBA (alpha 1.0) */
static const char fs_vary[] =
    "nop; fmul r0, ra15, vary\n"
    "fadd r0, r0, r5; fmul r1, ra15, vary\n"
    "fadd r1, r1, r5; fmul r2, ra15, vary\n"
    "fadd r2, r2, r5; fmul ra1.8asf, r0, 1.0\n"
    "nop; fmul ra1.8bsf, r1, 1.0\n"
    "nop; fmul ra1.8csf, r2, 1.0\n"
    "nop; fmul ra1.8dsf, 1.0, 1.0\n"
    "nop\n"
    "mov tlbc, ra1\n"
    "nop; thrend\n"
    "nop\n"
    "nop; sbdone\n";

static void test_flat_shade(void)
{
    struct vc4_emu *emu = mk(fs_vary);
    struct vc4_diag_sink sink = harness_sink(&hd);
    const float v0[3] = {1, 0, 0}, v1[3] = {0, 1, 0}, v2[3] = {0, 0, 1};
    vtx(emu, 0, 24, 0, 0, -1, v0, 3);
    vtx(emu, 1, 24, 128, 0, -1, v1, 3);
    vtx(emu, 2, 24, 0, 128, -1, v2, 3);
    rec(emu, 24, 3, false);
    struct vc4_cl cl;
    begin(&cl, &sink, false);
    /* R flat: the last vertex's 0.0 (pse.h: GL's provoking vertex, as on
     * a Pi; vertex 0's would be 1.0) */
    struct vc4_cl_flat_shade_flags fl = {.flags = 1u << 0};
    vc4_cl_flat_shade_flags(&cl, &fl);
    prims(&cl, VC4_CL_PRIM_TRIANGLES, 3, 0);
    end_run(emu, &cl);
    unsigned bad = 0, drawn = 0;
    for (unsigned y = 0; y < 64; y++)
        for (unsigned x = 0; x < 64; x++) {
            uint32_t p = px(emu, x, y);
            drawn += (p & 0x00FFFFFFu) != 0;
            bad += (p & 0xFF) != 0 && (p & 0x00FFFF00u) != 0; /* R flat 0 inside the triangle */
        }
    CHECK_EQ_INT(bad, 0);
    CHECK(drawn > 1000);
    /* G and B still vary: G grows along x, B grows along y */
    CHECK(((px(emu, 60, 2) >> 8) & 0xFF) > ((px(emu, 2, 2) >> 8) & 0xFF));
    CHECK(((px(emu, 2, 60) >> 16) & 0xFF) > ((px(emu, 2, 2) >> 16) & 0xFF));
    vc4_emu_destroy(emu);
}

static const char fs_white[] = "nop\nnop\nldi r0, 0xFFFFFFFF\nmov tlbc, r0\nnop; thrend\nnop\nnop; sbdone\n";

static void test_clip_window_viewport_offset(void)
{
    struct vc4_emu *emu = mk(fs_white);
    struct vc4_diag_sink sink = harness_sink(&hd);
    /* a triangle covering the tile, given relative to a viewport centre at
     * (32, 32): offset (32, 32) in 12.4 */
    vtx(emu, 0, 12, -40, -40, -1, NULL, 0);
    vtx(emu, 1, 12, 120, -40, -1, NULL, 0);
    vtx(emu, 2, 12, -40, 120, -1, NULL, 0);
    rec(emu, 12, 0, false);
    struct vc4_cl cl;
    begin(&cl, &sink, false);
    struct vc4_cl_viewport_offset vo = {32 * 16, 32 * 16};
    vc4_cl_viewport_offset(&cl, &vo);
    struct vc4_cl_clip_window cw = {.left_px = 10, .bottom_px = 20, .width_px = 30, .height_px = 15};
    vc4_cl_clip_window(&cl, &cw);
    prims(&cl, VC4_CL_PRIM_TRIANGLES, 3, 0);
    end_run(emu, &cl);
    unsigned bad = 0;
    for (unsigned y = 0; y < 64; y++)
        for (unsigned x = 0; x < 64; x++) {
            bool in = x >= 10 && x < 40 && y >= 20 && y < 35;
            bad += (px(emu, x, y) == 0xFFFFFFFFu) != in;
        }
    CHECK_EQ_INT(bad, 0);
    /* without the offset (and the clip window: the state stays until it is
     * set again) the triangle's corner region is empty */
    begin(&cl, &sink, false);
    struct vc4_cl_viewport_offset vo0 = {0, 0};
    vc4_cl_viewport_offset(&cl, &vo0);
    struct vc4_cl_clip_window cw0 = {0, 0, 64, 64};
    vc4_cl_clip_window(&cl, &cw0);
    prims(&cl, VC4_CL_PRIM_TRIANGLES, 3, 0);
    end_run(emu, &cl);
    CHECK_EQ_U64(px(emu, 63, 63), 0);
    CHECK_EQ_U64(px(emu, 0, 0), 0xFFFFFFFFu);
    vc4_emu_destroy(emu);
}

static void test_point_size_line_width(void)
{
    struct vc4_emu *emu = mk(fs_white);
    struct vc4_diag_sink sink = harness_sink(&hd);
    /* Point Size 4 at (20, 20): a 4x4 square; a line of width 3 from
     * (5, 50.5) to (45, 50.5): 40 x 3 */
    vtx(emu, 0, 12, 20, 20, -1, NULL, 0);
    vtx(emu, 1, 12, 5, 50.5, -1, NULL, 0);
    vtx(emu, 2, 12, 45, 50.5, -1, NULL, 0);
    rec(emu, 12, 0, false);
    struct vc4_cl cl;
    begin(&cl, &sink, false);
    struct vc4_cl_point_size ps = {4.0f};
    vc4_cl_point_size(&cl, &ps);
    struct vc4_cl_line_width lw = {3.0f};
    vc4_cl_line_width(&cl, &lw);
    prims(&cl, VC4_CL_PRIM_POINTS, 1, 0);
    prims(&cl, VC4_CL_PRIM_LINES, 2, 1);
    end_run(emu, &cl);
    CHECK_EQ_INT(count_nonzero(emu), 16 + 120);
    CHECK_EQ_U64(px(emu, 18, 18), 0xFFFFFFFFu);
    CHECK_EQ_U64(px(emu, 21, 21), 0xFFFFFFFFu);
    CHECK_EQ_U64(px(emu, 22, 22), 0);
    CHECK_EQ_U64(px(emu, 5, 49), 0xFFFFFFFFu);
    CHECK_EQ_U64(px(emu, 44, 51), 0xFFFFFFFFu);
    CHECK_EQ_U64(px(emu, 45, 50), 0);
    /* the point size from the vertex (record flag), 6 -> 36 pixels */
    vtx(emu, 0, 16, 32, 32, 6.0f, NULL, 0);
    rec(emu, 16, 0, true);
    begin(&cl, &sink, false);
    prims(&cl, VC4_CL_PRIM_POINTS, 1, 0);
    end_run(emu, &cl);
    CHECK_EQ_INT(count_nonzero(emu), 36);
    vc4_emu_destroy(emu);
}

/* colour = x | y << 8 | REV_FLAG << 16 | MS_FLAGS << 24; odd x discarded
 * through an MS_FLAGS write */
static const char fs_payload[] =
    "nop\n"
    "mov r0, x_coord\n"
    "mov r1, y_coord\n"
    "mov r2, rev_flag\n"
    "mov r3, ms_mask\n"
    "shl r1, r1, 8\n"
    "shl r2, r2, 16\n"
    "shl r3, r3, 24\n"
    "or r0, r0, r1\n"
    "or r2, r2, r3\n"
    "or r0, r0, r2\n"
    "and.setf -, x_coord, 1\n"
    "mov.ifnz ms_mask, 0\n"
    "mov tlbc, r0\n"
    "nop; thrend\n"
    "nop\n"
    "nop; sbdone\n";

static void test_payload(void)
{
    for (int ms = 0; ms < 2; ms++)
        for (int rev = 0; rev < 2; rev++) {
            struct vc4_emu *emu = mk(fs_payload);
            struct vc4_diag_sink sink = harness_sink(&hd);
            /* rev: screen-counter-clockwise (area < 0, "clockwise" for the
             * V3D: reverse-facing with the clockwise bit clear); else the
             * other way round */
            vtx(emu, 0, 12, -1, -1, -1, NULL, 0);
            vtx(emu, 1, 12, rev ? -1 : 130, rev ? 130 : -1, -1, NULL, 0);
            vtx(emu, 2, 12, rev ? 130 : -1, rev ? -1 : 130, -1, NULL, 0);
            rec(emu, 12, 0, false);
            struct vc4_cl cl;
            begin(&cl, &sink, ms);
            prims(&cl, VC4_CL_PRIM_TRIANGLES, 3, 0);
            end_run(emu, &cl);
            unsigned bad = 0;
            unsigned side = ms ? 32 : 64; /* the list draws tile (0, 0) only: 32x32 with 4x MS */
            for (unsigned y = 0; y < side; y++)
                for (unsigned x = 0; x < side; x++) {
                    uint32_t want = x & 1 ? 0 : x | y << 8 | (uint32_t)rev << 16 | (ms ? 0xFu : 1u) << 24;
                    /* (with 4x MS: all 4 samples alike, so the resolve keeps it) */
                    if (px(emu, x, y) != want && bad < 5 && getenv("RS_DEBUG"))
                        fprintf(stderr, "(%u,%u) 0x%08x want 0x%08x\n", x, y, px(emu, x, y), want);
                    bad += px(emu, x, y) != want;
                }
            CHECK_MSG(bad == 0, "ms %d rev %d: %u pixels wrong (pixel (2, 3) = 0x%08x)", ms, rev, bad,
                      px(emu, 2, 3));
            vc4_emu_destroy(emu);
        }
}

/* The triangle (0, 0), (64, 0), (0, 64) in vertices of stride bytes and
 * its record with nvary varyings (zero). */
static void corner_triangle(struct vc4_emu *emu, unsigned stride, unsigned nvary)
{
    vtx(emu, 0, stride, 0, 0, -1, NULL, 0);
    vtx(emu, 1, stride, 64, 0, -1, NULL, 0);
    vtx(emu, 2, stride, 0, 64, -1, NULL, 0);
    rec(emu, stride, nvary, false);
}

/* Seed 002's rules, reported once with their source. */
static void test_shader_rules(void)
{
    struct vc4_emu *emu = mk("mov tlbc, unif\nnop\nnop; thrend\nnop\nnop; sbdone\n");
    struct vc4_diag_sink sink = harness_sink(&hd);
    corner_triangle(emu, 24, 3); /* 3 varyings never read */
    struct vc4_cl cl;
    begin(&cl, &sink, false);
    prims(&cl, VC4_CL_PRIM_TRIANGLES, 3, 0);
    end_run(emu, &cl);
    CHECK_CONTAINS(hd.text, "[fs-scoreboard-first-two; seed 002");
    CHECK_CONTAINS(hd.text, "0x00020010: warning: QPU 0: fragment shader ended before reading every varying");
    CHECK_EQ_INT(hd.warnings, 2);
    vc4_emu_destroy(emu);
    /* strict mode: an error, and the run stops */
    struct vc4_emu_options eo = {.sink = harness_sink(&hd), .mem_size = 16u << 20, .strict = true};
    emu = vc4_emu_create(&eo);
    CHECK(sc_load_shader(emu, "mov tlbc, unif\nnop\nnop; thrend\nnop\nnop; sbdone\n", CODE, eo.sink));
    corner_triangle(emu, 12, 0);
    begin(&cl, &sink, false);
    prims(&cl, VC4_CL_PRIM_TRIANGLES, 3, 0);
    vc4_cl_store_ms_tile_buffer_and_eof(&cl);
    vc4_emu_mem_write(emu, RL, cl.data, cl.len);
    vc4_emu_reg_write(emu, VC4_V3D_CT1CA, RL);
    vc4_emu_reg_write(emu, VC4_V3D_CT1EA, vc4_cl_addr(&cl));
    CHECK(vc4_emu_run(emu, 0) == VC4_ERR_RULE);
    uint32_t cs = 0;
    vc4_emu_reg_read(emu, VC4_V3D_CT1CS, &cs);
    CHECK(cs & (1u << 3));
    vc4_cl_free(&cl);
    vc4_emu_destroy(emu);
    /* Regression (piglit's gl-1.0-readpixsanity, which passes on Pi 3s in
     * Mesa's CI): Mesa's stencil setup as the first instruction waits on
     * nothing, so it breaks no rule (spec/qpu_spec.h vc4_qpu_waddr_waits_sb) */
    emu = mk("mov stencil, unif\nnop\nnop\nmov tlbc, unif\nnop; thrend\nnop\nnop; sbdone\n");
    corner_triangle(emu, 12, 0);
    begin(&cl, &sink, false);
    prims(&cl, VC4_CL_PRIM_TRIANGLES, 3, 0);
    end_run(emu, &cl);
    CHECK_MSG(strstr(hd.text, "fs-scoreboard-first-two") == NULL, "%s", hd.text);
    vc4_emu_destroy(emu);
}

/* Tile allocation exhausted: the binner stalls (PCS.BMOOM, INTCTL
 * OUTOMEM), CT0 stays on its packet; overflow memory from the host lets it
 * finish; the frame equals the one with plenty of memory. */
static void test_binner_out_of_memory(void)
{
    struct sc_params p = sc_default(true);
    uint8_t *ref = sc_render(&p, harness_sink(&hd), 0, NULL);
    CHECK(ref != NULL);

    struct vc4_emu_options eo = {.sink = harness_sink(&hd), .mem_size = 16u << 20};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    p.tile_alloc_size = 80 * 32 + 256; /* the initial blocks and almost nothing more */
    uint32_t be = 0, re = 0;
    CHECK(sc_build(emu, &p, eo.sink, &be, &re));
    vc4_emu_reg_write(emu, VC4_V3D_CT0CA, SC_BIN_CL);
    vc4_emu_reg_write(emu, VC4_V3D_CT0EA, be);
    CHECK(vc4_emu_run(emu, 0) == VC4_OK); /* stalled: nothing can go on */
    uint32_t cs = 0, pcs = 0, intctl = 0, ca = 0;
    vc4_emu_reg_read(emu, VC4_V3D_CT0CS, &cs);
    vc4_emu_reg_read(emu, VC4_V3D_PCS, &pcs);
    vc4_emu_reg_read(emu, VC4_V3D_INTCTL, &intctl);
    vc4_emu_reg_read(emu, VC4_V3D_CT0CA, &ca);
    CHECK(cs & (1u << 5));
    CHECK(pcs & (1u << 8));
    CHECK(intctl & (1u << 2));
    CHECK(ca > SC_BIN_CL && ca < be);
    /* the host's out-of-memory handler: overflow memory, acknowledge */
    vc4_emu_reg_write(emu, VC4_V3D_BPOA, 0x00800000);
    vc4_emu_reg_write(emu, VC4_V3D_BPOS, 0x00080000);
    vc4_emu_reg_write(emu, VC4_V3D_INTCTL, 1u << 2);
    CHECK(vc4_emu_run(emu, 0) == VC4_OK);
    vc4_emu_reg_read(emu, VC4_V3D_CT0CS, &cs);
    vc4_emu_reg_read(emu, VC4_V3D_PCS, &pcs);
    CHECK_EQ_U64(cs & (1u << 5), 0);
    CHECK_EQ_U64(pcs & (1u << 8), 0);
    vc4_emu_reg_write(emu, VC4_V3D_CT1CA, SC_RENDER_CL);
    vc4_emu_reg_write(emu, VC4_V3D_CT1EA, re);
    CHECK(vc4_emu_run(emu, 0) == VC4_OK);
    struct vc4_emu_frame f;
    vc4_emu_render_frame(emu, &f);
    uint8_t *img = malloc(640 * 480 * 4);
    CHECK(vc4_emu_read_frame(emu, &f, img) == VC4_OK);
    CHECK(ref && memcmp(img, ref, 640 * 480 * 4) == 0);
    CHECK_EQ_INT(hd.errors, 0);
    free(img);
    free(ref);
    vc4_emu_destroy(emu);
}

TEST_LIST(test_flat_shade, test_clip_window_viewport_offset, test_point_size_line_width, test_payload,
          test_shader_rules, test_binner_out_of_memory)
