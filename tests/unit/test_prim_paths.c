/*
 * test_prim_paths.c - primitive assembly is one unit (src/emu/prim.c): every
 * primitive mode, drawn through the binner (packets 32/33 in a binning
 * list, then the tile list on CT1) and directly in a rendering list
 * (packets 32/33 between Tile Coordinates and the store), gives the same
 * frame, bit for bit, with flat and with smooth varyings, from vertex
 * arrays and from index lists.
 *
 * Regression (issue 14): the two paths used to order an odd triangle-strip
 * triangle differently ((k+1, k, k+2) in the binner, (k, k+2, k+1) in the
 * rendering list), so a flat-shaded strip took a different vertex's colour
 * through each; the rendering list also did not check the maximum index.
 */
#include "harness.h"
#include "nv_scene.h"

#define PP_DIM 64u /* one 64x64 tile */
#define PP_NVERTS 6u

/* A zig-zag of 6 vertices (a strip, a fan around vertex 0, two triangles,
 * three lines, ...), each with its own colour. */
static const struct sc_vertex pp_verts[PP_NVERTS] = {
    {4 * 16, 6 * 16, 0.5f, 1.0f, {1.0f, 0.0f, 0.0f}},
    {14 * 16, 58 * 16, 0.5f, 1.0f, {0.0f, 1.0f, 0.0f}},
    {26 * 16, 4 * 16, 0.5f, 1.0f, {0.0f, 0.0f, 1.0f}},
    {38 * 16, 60 * 16, 0.5f, 1.0f, {1.0f, 1.0f, 0.0f}},
    {50 * 16, 8 * 16, 0.5f, 1.0f, {0.0f, 1.0f, 1.0f}},
    {60 * 16, 50 * 16, 0.5f, 1.0f, {1.0f, 0.0f, 1.0f}},
};
/* indices for the indexed variant: a different order of the same vertices */
static const uint8_t pp_index[PP_NVERTS] = {5, 4, 3, 2, 1, 0};

#define PP_BIN 0x00180000u
#define PP_RENDER 0x00190000u
#define PP_INDICES 0x001A0000u

struct pp_case {
    unsigned mode;
    bool flat, indexed;
};

static void pp_state(struct vc4_cl *cl, const struct pp_case *c)
{
    struct vc4_cl_configuration_bits cb = {.enable_forward_facing = true, .enable_reverse_facing = true,
                                           .depth_func = VC4_CL_DEPTH_ALWAYS};
    vc4_cl_configuration_bits(cl, &cb);
    struct vc4_cl_flat_shade_flags fl = {.flags = c->flat ? 7u : 0u};
    vc4_cl_flat_shade_flags(cl, &fl);
    struct vc4_cl_point_size ps = {5.0f};
    vc4_cl_point_size(cl, &ps);
    struct vc4_cl_line_width lw = {3.0f};
    vc4_cl_line_width(cl, &lw);
    struct vc4_cl_nv_shader_state nvs = {.record_addr = SC_RECORD};
    vc4_cl_nv_shader_state(cl, &nvs);
}

static void pp_prims(struct vc4_cl *cl, const struct pp_case *c, uint32_t max_index)
{
    if (c->indexed) {
        struct vc4_cl_indexed_primitive_list ip = {.primitive_mode = c->mode, .index_type = VC4_CL_INDEX_8BIT,
                                                   .length = PP_NVERTS, .index_addr = PP_INDICES,
                                                   .max_index = max_index};
        vc4_cl_indexed_primitive_list(cl, &ip);
    } else {
        struct vc4_cl_vertex_array_primitives va = {.primitive_mode = c->mode, .length = PP_NVERTS};
        vc4_cl_vertex_array_primitives(cl, &va);
    }
}

/* Render the case through the binner (direct = false) or directly in the
 * rendering list; the frame as RGBA (malloc'd), or NULL. */
static uint8_t *pp_render(const struct pp_case *c, bool direct, uint32_t max_index, struct harness_diags *hd)
{
    struct vc4_diag_sink sink = harness_sink(hd);
    struct vc4_emu_options eo = {.sink = sink, .mem_size = 16u << 20};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    if (!emu)
        return NULL;
    /* the scene's shader, vertices and NV record, from nv_scene.h; its own
     * lists are replaced below */
    struct sc_params p = sc_default(true);
    p.width = p.height = PP_DIM;
    p.verts = pp_verts;
    p.nverts = PP_NVERTS;
    p.nvary = 3;
    uint32_t be = 0, re = 0;
    bool ok = sc_build(emu, &p, sink, &be, &re);
    ok &= vc4_emu_mem_write(emu, PP_INDICES, pp_index, sizeof pp_index) == VC4_OK;

    struct vc4_cl rl;
    vc4_cl_init(&rl, NULL, PP_RENDER, &sink);
    struct vc4_cl_clear_colors cc = {.clear_color = (uint64_t)SC_CLEAR_COLOR << 32 | SC_CLEAR_COLOR};
    vc4_cl_clear_colors(&rl, &cc);
    struct vc4_cl_tile_rendering_mode_config rcfg = {.fb_addr = SC_FB, .width_px = PP_DIM, .height_px = PP_DIM,
                                                     .color_format = VC4_CL_FB_RGBA8888};
    vc4_cl_tile_rendering_mode_config(&rl, &rcfg);
    struct vc4_cl_tile_coordinates t0 = {0, 0};
    vc4_cl_tile_coordinates(&rl, &t0);
    struct vc4_cl_store_tile_buffer_general none = {.buffer = VC4_CL_BUF_NONE};
    vc4_cl_store_tile_buffer_general(&rl, &none);
    vc4_cl_tile_coordinates(&rl, &t0);
    if (direct) {
        pp_state(&rl, c);
        pp_prims(&rl, c, max_index);
    } else {
        vc4_cl_wait_on_semaphore(&rl);
        struct vc4_cl_branch_to_sub_list br = {SC_TILE_ALLOC};
        vc4_cl_branch_to_sub_list(&rl, &br);
    }
    vc4_cl_store_ms_tile_buffer_and_eof(&rl);
    ok &= sc_store_list(emu, &rl, &re);

    if (!direct) {
        struct vc4_cl bin;
        vc4_cl_init(&bin, NULL, PP_BIN, &sink);
        struct vc4_cl_tile_binning_mode_config bcfg = {
            .tile_alloc_addr = SC_TILE_ALLOC, .tile_alloc_size = SC_TILE_ALLOC_SIZE, .tsda_addr = SC_TSDA,
            .width_tiles = 1, .height_tiles = 1, .auto_init_tsda = true,
            .initial_block_size = VC4_CL_BLOCK_32, .block_size = VC4_CL_BLOCK_128};
        vc4_cl_tile_binning_mode_config(&bin, &bcfg);
        vc4_cl_start_tile_binning(&bin);
        unsigned plt = c->mode == VC4_CL_PRIM_POINTS ? VC4_CL_PLF_POINTS
                       : c->mode <= VC4_CL_PRIM_LINE_STRIP ? VC4_CL_PLF_LINES : VC4_CL_PLF_TRIANGLES;
        struct vc4_cl_primitive_list_format plf = {.primitive_type = plt, .data_type = VC4_CL_PLF_INDEX16};
        vc4_cl_primitive_list_format(&bin, &plf);
        struct vc4_cl_clip_window clip = {0, 0, PP_DIM, PP_DIM};
        vc4_cl_clip_window(&bin, &clip);
        struct vc4_cl_viewport_offset vp = {0, 0};
        vc4_cl_viewport_offset(&bin, &vp);
        pp_state(&bin, c);
        pp_prims(&bin, c, max_index);
        vc4_cl_increment_semaphore(&bin);
        vc4_cl_flush(&bin);
        ok &= sc_store_list(emu, &bin, &be);
    }
    uint8_t *rgba = NULL;
    if (ok) {
        enum vc4_status st = VC4_OK;
        if (!direct) {
            vc4_emu_reg_write(emu, VC4_V3D_CT0CA, PP_BIN);
            vc4_emu_reg_write(emu, VC4_V3D_CT0EA, be);
            st = vc4_emu_run(emu, 0);
        }
        if (st == VC4_OK) {
            vc4_emu_reg_write(emu, VC4_V3D_CT1CA, PP_RENDER);
            vc4_emu_reg_write(emu, VC4_V3D_CT1EA, re);
            st = vc4_emu_run(emu, 0);
        }
        struct vc4_emu_frame f;
        vc4_emu_render_frame(emu, &f);
        rgba = st == VC4_OK && f.valid ? malloc((size_t)f.width * f.height * 4) : NULL;
        if (rgba && vc4_emu_read_frame(emu, &f, rgba) != VC4_OK) {
            free(rgba);
            rgba = NULL;
        }
    }
    vc4_emu_destroy(emu);
    return rgba;
}

static const char *const mode_name[] = {"points", "lines", "line loop", "line strip", "triangles",
                                        "triangle strip", "triangle fan"};

/* Pixels not the clear colour. */
static unsigned pp_drawn(const uint8_t *rgba)
{
    unsigned n = 0;
    for (unsigned i = 0; i < PP_DIM * PP_DIM; i++)
        n += rgba[4 * i] || rgba[4 * i + 1] || rgba[4 * i + 2];
    return n;
}

static void test_binner_and_direct_agree(void)
{
    for (unsigned mode = VC4_CL_PRIM_POINTS; mode <= VC4_CL_PRIM_TRIANGLE_FAN; mode++)
        for (unsigned variant = 0; variant < 4; variant++) {
            struct pp_case c = {.mode = mode, .flat = variant & 1, .indexed = variant & 2};
            struct harness_diags hb, hd;
            uint8_t *bin = pp_render(&c, false, PP_NVERTS - 1, &hb);
            uint8_t *dir = pp_render(&c, true, PP_NVERTS - 1, &hd);
            CHECK_MSG(bin && dir, "%s %s %s: a path failed\nbinner: %s\ndirect: %s", mode_name[mode],
                      c.flat ? "flat" : "smooth", c.indexed ? "indexed" : "array", hb.text, hd.text);
            if (bin && dir) {
                CHECK_MSG(pp_drawn(bin) > 20, "%s: the binner drew %u pixels", mode_name[mode], pp_drawn(bin));
                unsigned diff = 0, first = 0;
                for (unsigned i = 0; i < PP_DIM * PP_DIM * 4; i++)
                    if (bin[i] != dir[i] && diff++ == 0)
                        first = i / 4;
                CHECK_MSG(diff == 0, "%s %s %s: %u bytes differ, first at pixel (%u, %u)", mode_name[mode],
                          c.flat ? "flat" : "smooth", c.indexed ? "indexed" : "array", diff, first % PP_DIM,
                          first / PP_DIM);
            }
            free(bin);
            free(dir);
        }
}

/* Flat shading takes the assembled triangle's last vertex (pse.h: GL's
 * provoking vertex, as on a Pi): an odd strip triangle (k = 1: vertices
 * 2, 1, 3 in GL's order) is vertex 3's yellow, not vertex 2's blue nor
 * vertex 1's green.  The centroid of triangle 1 lies only inside it. */
static void test_odd_strip_triangle_flat_vertex(void)
{
    struct pp_case c = {.mode = VC4_CL_PRIM_TRIANGLE_STRIP, .flat = true};
    for (int direct = 0; direct < 2; direct++) {
        struct harness_diags h;
        uint8_t *rgba = pp_render(&c, direct, PP_NVERTS - 1, &h);
        CHECK_MSG(rgba != NULL, "%s", h.text);
        if (!rgba)
            continue;
        unsigned x = (14 + 26 + 38) / 3, y = (58 + 4 + 60) / 3;
        const uint8_t *px = rgba + 4 * (y * PP_DIM + x);
        CHECK_MSG(px[0] == 255 && px[1] == 255 && px[2] == 0, "%s: odd strip triangle at (%u, %u) is %u,%u,%u",
                  direct ? "direct" : "binner", x, y, px[0], px[1], px[2]);
        free(rgba);
    }
}

/* The maximum index bounds every index on both paths: a primitive with a
 * larger index is dropped with a warning. */
static void test_max_index_both_paths(void)
{
    struct pp_case c = {.mode = VC4_CL_PRIM_TRIANGLES, .indexed = true};
    for (int direct = 0; direct < 2; direct++) {
        struct harness_diags h;
        /* indices 5 4 3 | 2 1 0: max 3 drops the first triangle only */
        uint8_t *cut = pp_render(&c, direct, 3, &h);
        CHECK_MSG(cut != NULL, "%s", h.text);
        CHECK_CONTAINS(h.text, "exceeds the maximum index 3");
        struct harness_diags h2;
        uint8_t *all = pp_render(&c, direct, PP_NVERTS - 1, &h2);
        if (cut && all)
            CHECK_MSG(pp_drawn(cut) < pp_drawn(all) && pp_drawn(cut) > 0, "%s: %u of %u pixels",
                      direct ? "direct" : "binner", pp_drawn(cut), pp_drawn(all));
        free(cut);
        free(all);
    }
}

TEST_LIST(test_binner_and_direct_agree, test_odd_strip_triangle_flat_vertex, test_max_index_both_paths)
