/*
 * test_render_coverage.c - coverage through the whole pipeline: binning
 * list on CT0 (the binner assembles strips, fans and loops and writes tile
 * lists), rendering list on CT1 (tile lists -> PSE -> rasteriser ->
 * fragment shader on the QPUs -> TLB), with a fragment shader that counts:
 * it loads the tile-buffer colour and writes it back plus one.  For every
 * primitive type (points, lines, line strips and loops, triangles, strips,
 * fans, indexed meshes), with and without 4x multisampling (per-sample
 * counts from full-resolution dumps), across tile boundaries:
 *   - every pixel / sample is counted exactly as often as an independent
 *     reference rasteriser (test_raster_ref.h) says, and
 *   - shared edges and vertices are never counted twice, and meshes leave
 *     no gap.
 */
#include <math.h>

#include "harness.h"
#include "test_raster_ref.h"
#include "nv_scene.h"

#define CV_LISTS 0x00100000u
#define CV_RENDER 0x00140000u
#define CV_RECORD 0x00180000u
#define CV_SHADER 0x00181000u
#define CV_INDICES 0x00190000u
#define CV_VERTICES 0x001A0000u
#define CV_TILE_ALLOC 0x00200000u
#define CV_TSDA 0x00600000u
#define CV_FB 0x00700000u
#define CV_DUMP 0x00800000u
#define CV_MAX_W 160
#define CV_MAX_H 128

/* Non-multisampled: one load, +1, TLB_COLOUR_ALL. */
#define FS_COUNT_BODY                                                        \
    "nop; loadc\n"                                                           \
    "add tlbc, r4, 1\n"                                                      \
    "nop; thrend\n"                                                          \
    "nop\n"                                                                  \
    "nop; sbdone\n"
/* 4x multisampled: each sample loaded (successive loads walk the samples)
 * and written back + 1 with TLB_COLOUR_MS (successive writes, samples 0-3). */
#define FS_COUNT_MS_BODY                                                     \
    "nop; loadc\n"                                                           \
    "add tlbm, r4, 1\n"                                                      \
    "nop; loadc\n"                                                           \
    "add tlbm, r4, 1\n"                                                      \
    "nop; loadc\n"                                                           \
    "add tlbm, r4, 1\n"                                                      \
    "nop; loadc\n"                                                           \
    "add tlbm, r4, 1\n"                                                      \
    "nop; thrend\n"                                                          \
    "nop\n"                                                                  \
    "nop; sbdone\n"
static const char fs_count[] = "nop\nnop\n" FS_COUNT_BODY;

/* The counting shader for primitive mode `mode`: its first two
 * instructions read and drop the varyings the PSE makes for points (s, t)
 * and lines (the line coordinate) (src/emu/pse.h). */
static const char *fs_count_for(unsigned mode, bool ms)
{
    if (mode == VC4_CL_PRIM_POINTS)
        return ms ? "mov r3, vary\nmov r3, vary\n" FS_COUNT_MS_BODY : "mov r3, vary\nmov r3, vary\n" FS_COUNT_BODY;
    if (mode <= VC4_CL_PRIM_LINE_STRIP)
        return ms ? "mov r3, vary\nnop\n" FS_COUNT_MS_BODY : "mov r3, vary\nnop\n" FS_COUNT_BODY;
    return ms ? "nop\nnop\n" FS_COUNT_MS_BODY : fs_count;
}

struct cv_scene {
    unsigned w, h;
    bool ms;
    const int32_t (*pos)[2]; /* 1/16 pixel */
    unsigned npos;
    unsigned mode;           /* VC4_CL_PRIM_* */
    unsigned count;          /* vertices / indices */
    const uint16_t *index;   /* NULL: vertex array */
    float point_size, line_width;
};

static uint8_t g_count[CV_MAX_H][CV_MAX_W][4];
static uint8_t g_ref[CV_MAX_H][CV_MAX_W][4];

/* Render the scene; per-sample counts into g_count. */
static bool cv_render(const struct cv_scene *sc)
{
    struct harness_diags hd;
    struct vc4_diag_sink sink = harness_sink(&hd);
    struct vc4_emu_options eo = {.sink = sink, .mem_size = 16u << 20};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    if (!emu)
        return false;
    unsigned tile = sc->ms ? 32 : 64;
    unsigned wt = (sc->w + tile - 1) / tile, ht = (sc->h + tile - 1) / tile;
    bool ok = sc_load_shader(emu, fs_count_for(sc->mode, sc->ms), CV_SHADER, sink);
    /* vertices: X/Y 12.4, Z 0.5, 1/W 1 (stride 12) */
    for (unsigned i = 0; i < sc->npos; i++) {
        uint8_t v[12];
        v[0] = (uint8_t)sc->pos[i][0];
        v[1] = (uint8_t)((uint32_t)sc->pos[i][0] >> 8);
        v[2] = (uint8_t)sc->pos[i][1];
        v[3] = (uint8_t)((uint32_t)sc->pos[i][1] >> 8);
        sc_put32(v + 4, sc_f2u(0.5f));
        sc_put32(v + 8, sc_f2u(1.0f));
        ok &= vc4_emu_mem_write(emu, CV_VERTICES + 12 * i, v, 12) == VC4_OK;
    }
    if (sc->index)
        for (unsigned i = 0; i < sc->count; i++) {
            uint8_t b[2] = {(uint8_t)sc->index[i], (uint8_t)(sc->index[i] >> 8)};
            ok &= vc4_emu_mem_write(emu, CV_INDICES + 2 * i, b, 2) == VC4_OK;
        }
    struct vc4_cl_nv_shader_record rec = {.vertex_stride = 12, .fs_code_addr = CV_SHADER,
                                          .vertex_data_addr = CV_VERTICES};
    uint8_t rb[16];
    ok &= vc4_cl_nv_shader_record_pack(&rec, rb, &sink) == VC4_OK;
    ok &= vc4_emu_mem_write(emu, CV_RECORD, rb, 16) == VC4_OK;

    struct vc4_cl bin;
    vc4_cl_init(&bin, NULL, CV_LISTS, &sink);
    struct vc4_cl_tile_binning_mode_config bcfg = {
        .tile_alloc_addr = CV_TILE_ALLOC, .tile_alloc_size = 0x400000, .tsda_addr = CV_TSDA,
        .width_tiles = wt, .height_tiles = ht, .multisample_4x = sc->ms, .auto_init_tsda = true,
        .initial_block_size = VC4_CL_BLOCK_32, .block_size = VC4_CL_BLOCK_128,
    };
    vc4_cl_tile_binning_mode_config(&bin, &bcfg);
    vc4_cl_start_tile_binning(&bin);
    unsigned plt = sc->mode == VC4_CL_PRIM_POINTS ? VC4_CL_PLF_POINTS
                 : sc->mode <= VC4_CL_PRIM_LINE_STRIP ? VC4_CL_PLF_LINES : VC4_CL_PLF_TRIANGLES;
    struct vc4_cl_primitive_list_format plf = {.primitive_type = plt, .data_type = VC4_CL_PLF_INDEX16};
    vc4_cl_primitive_list_format(&bin, &plf);
    struct vc4_cl_clip_window clip = {0, 0, sc->w, sc->h};
    vc4_cl_clip_window(&bin, &clip);
    struct vc4_cl_configuration_bits cb = {
        .enable_forward_facing = true, .enable_reverse_facing = true,
        .rasteriser_oversample = sc->ms ? VC4_CL_OVERSAMPLE_4X : VC4_CL_OVERSAMPLE_NONE,
        .depth_func = VC4_CL_DEPTH_ALWAYS,
    };
    vc4_cl_configuration_bits(&bin, &cb);
    struct vc4_cl_viewport_offset vp = {0, 0};
    vc4_cl_viewport_offset(&bin, &vp);
    struct vc4_cl_point_size ps = {sc->point_size};
    vc4_cl_point_size(&bin, &ps);
    struct vc4_cl_line_width lw = {sc->line_width};
    vc4_cl_line_width(&bin, &lw);
    struct vc4_cl_nv_shader_state nvs = {CV_RECORD};
    vc4_cl_nv_shader_state(&bin, &nvs);
    if (sc->index) {
        struct vc4_cl_indexed_primitive_list ip = {.primitive_mode = sc->mode, .index_type = VC4_CL_INDEX_16BIT,
                                                   .length = sc->count, .index_addr = CV_INDICES,
                                                   .max_index = sc->npos - 1};
        vc4_cl_indexed_primitive_list(&bin, &ip);
    } else {
        struct vc4_cl_vertex_array_primitives va = {.primitive_mode = sc->mode, .length = sc->count};
        vc4_cl_vertex_array_primitives(&bin, &va);
    }
    vc4_cl_increment_semaphore(&bin);
    vc4_cl_flush(&bin);
    ok &= bin.status == VC4_OK && vc4_emu_mem_write(emu, CV_LISTS, bin.data, bin.len) == VC4_OK;
    uint32_t bin_end = vc4_cl_addr(&bin);
    vc4_cl_free(&bin);

    struct vc4_cl rl;
    vc4_cl_init(&rl, NULL, CV_RENDER, &sink);
    struct vc4_cl_clear_colors cc = {0};
    vc4_cl_clear_colors(&rl, &cc);
    struct vc4_cl_tile_rendering_mode_config rcfg = {
        .fb_addr = CV_FB, .width_px = sc->w, .height_px = sc->h, .multisample_4x = sc->ms,
        .color_format = VC4_CL_FB_RGBA8888,
    };
    vc4_cl_tile_rendering_mode_config(&rl, &rcfg);
    struct vc4_cl_tile_coordinates t0 = {0, 0};
    vc4_cl_tile_coordinates(&rl, &t0);
    struct vc4_cl_store_tile_buffer_general none = {.buffer = VC4_CL_BUF_NONE};
    vc4_cl_store_tile_buffer_general(&rl, &none);
    for (unsigned y = 0; y < ht; y++)
        for (unsigned x = 0; x < wt; x++) {
            struct vc4_cl_tile_coordinates t = {x, y};
            vc4_cl_tile_coordinates(&rl, &t);
            if (x == 0 && y == 0)
                vc4_cl_wait_on_semaphore(&rl);
            struct vc4_cl_branch_to_sub_list br = {CV_TILE_ALLOC + (y * wt + x) * 32};
            vc4_cl_branch_to_sub_list(&rl, &br);
            bool last = x == wt - 1 && y == ht - 1;
            if (sc->ms) { /* every sample: the full-resolution dump, 16 KB per tile */
                struct vc4_cl_store_full_res_tile_buffer sf = {
                    .address = CV_DUMP + (y * wt + x) * 16384, .last_tile = last, .disable_zs_write = true};
                vc4_cl_store_full_res_tile_buffer(&rl, &sf);
            } else if (last) {
                vc4_cl_store_ms_tile_buffer_and_eof(&rl);
            } else {
                vc4_cl_store_ms_tile_buffer(&rl);
            }
        }
    ok &= rl.status == VC4_OK && vc4_emu_mem_write(emu, CV_RENDER, rl.data, rl.len) == VC4_OK;
    uint32_t render_end = vc4_cl_addr(&rl);
    vc4_cl_free(&rl);

    vc4_emu_reg_write(emu, VC4_V3D_CT0CA, CV_LISTS);
    vc4_emu_reg_write(emu, VC4_V3D_CT0EA, bin_end);
    vc4_emu_reg_write(emu, VC4_V3D_CT1CA, CV_RENDER);
    vc4_emu_reg_write(emu, VC4_V3D_CT1EA, render_end);
    enum vc4_status st = vc4_emu_run(emu, 0);
    CHECK_MSG(ok && st == VC4_OK && hd.errors == 0 && hd.warnings == 0, "render: %s\n%s", vc4_status_name(st),
              hd.text);
    memset(g_count, 0, sizeof g_count);
    for (unsigned y = 0; y < sc->h; y++)
        for (unsigned x = 0; x < sc->w; x++) {
            if (!sc->ms) {
                uint8_t c[4];
                vc4_emu_mem_read(emu, CV_FB + 4 * (y * sc->w + x), c, 4);
                g_count[y][x][0] = c[0];
                continue;
            }
            unsigned tx = x / 32, ty = y / 32;
            uint32_t tbase = CV_DUMP + (ty * wt + tx) * 16384;
            /* 64-byte 2x2 quads, 16 a row; sample s at s * 16 + (y & 1) * 8
             * + (x & 1) * 4 (Mesa's vc4_nir_lower_txf_ms.c addressing) */
            unsigned qx = (x % 32) / 2, qy = (y % 32) / 2;
            for (unsigned s = 0; s < 4; s++) {
                uint8_t c[4];
                vc4_emu_mem_read(emu, tbase + (qy * 16 + qx) * 64 + s * 16 + (y & 1) * 8 + (x & 1) * 4, c, 4);
                g_count[y][x][s] = c[0];
            }
        }
    vc4_emu_destroy(emu);
    return ok && st == VC4_OK;
}

/* ---- the reference ---------------------------------------------------------------- */

static void ref_tri(const struct cv_scene *sc, const int64_t x[3], const int64_t y[3])
{
    for (unsigned py = 0; py < sc->h; py++)
        for (unsigned px = 0; px < sc->w; px++) {
            unsigned m = ref_pixel_mask(x, y, (int)px, (int)py, sc->ms);
            for (int s = 0; s < 4; s++)
                g_ref[py][px][s] += (uint8_t)((m >> s) & 1);
        }
}

/* The quad of a point or a line (docs/rendering.md): half sizes truncated
 * to 1/16 pixel; lines widened across their minor axis. */
static void ref_quad(const struct cv_scene *sc, const int64_t cx[4], const int64_t cy[4])
{
    int64_t x1[3] = {cx[0], cx[1], cx[2]}, y1[3] = {cy[0], cy[1], cy[2]};
    int64_t x2[3] = {cx[0], cx[2], cx[3]}, y2[3] = {cy[0], cy[2], cy[3]};
    ref_tri(sc, x1, y1);
    ref_tri(sc, x2, y2);
}

static void ref_point(const struct cv_scene *sc, const int32_t *p)
{
    int64_t h = (int64_t)((double)sc->point_size * 8.0);
    int64_t cx[4] = {p[0] - h, p[0] + h, p[0] + h, p[0] - h}, cy[4] = {p[1] - h, p[1] - h, p[1] + h, p[1] + h};
    ref_quad(sc, cx, cy);
}

static void ref_line(const struct cv_scene *sc, const int32_t *a, const int32_t *b)
{
    int64_t h = (int64_t)((double)sc->line_width * 8.0);
    int64_t dx = (int64_t)b[0] - a[0], dy = (int64_t)b[1] - a[1];
    bool xmajor = llabs(dx) >= llabs(dy);
    int64_t ox = xmajor ? 0 : h, oy = xmajor ? h : 0;
    int64_t cx[4] = {a[0] - ox, b[0] - ox, b[0] + ox, a[0] + ox};
    int64_t cy[4] = {a[1] - oy, b[1] - oy, b[1] + oy, a[1] + oy};
    ref_quad(sc, cx, cy);
}

/* GL primitive assembly, independently of the binner. */
static void cv_reference(const struct cv_scene *sc)
{
    memset(g_ref, 0, sizeof g_ref);
    unsigned n = sc->count;
#define V(i) sc->pos[sc->index ? sc->index[(i)] : (i)]
    switch (sc->mode) {
    case VC4_CL_PRIM_POINTS:
        for (unsigned i = 0; i < n; i++)
            ref_point(sc, V(i));
        break;
    case VC4_CL_PRIM_LINES:
        for (unsigned i = 0; i + 1 < n; i += 2)
            ref_line(sc, V(i), V(i + 1));
        break;
    case VC4_CL_PRIM_LINE_STRIP:
    case VC4_CL_PRIM_LINE_LOOP:
        for (unsigned i = 0; i + 1 < n; i++)
            ref_line(sc, V(i), V(i + 1));
        if (sc->mode == VC4_CL_PRIM_LINE_LOOP && n > 2)
            ref_line(sc, V(n - 1), V(0));
        break;
    default:
        for (unsigned i = 0; i + 2 < n;) {
            unsigned a, b, c;
            if (sc->mode == VC4_CL_PRIM_TRIANGLES) {
                a = i, b = i + 1, c = i + 2;
                i += 3;
            } else if (sc->mode == VC4_CL_PRIM_TRIANGLE_STRIP) {
                a = i, b = i + 1, c = i + 2;
                i++;
            } else {
                a = 0, b = i + 1, c = i + 2;
                i++;
            }
            int64_t x[3] = {V(a)[0], V(b)[0], V(c)[0]}, y[3] = {V(a)[1], V(b)[1], V(c)[1]};
            ref_tri(sc, x, y);
        }
        break;
    }
#undef V
}

/* Render, compare with the reference; max_hits = 1 where shared edges and
 * vertices must not be counted twice; full = no sample may stay uncounted. */
static void check_scene(const char *name, const struct cv_scene *sc, bool once, bool full)
{
    if (!cv_render(sc))
        return;
    cv_reference(sc);
    unsigned diff = 0, doubles = 0, gaps = 0, hits = 0;
    for (unsigned y = 0; y < sc->h; y++)
        for (unsigned x = 0; x < sc->w; x++)
            for (unsigned s = 0; s < (sc->ms ? 4u : 1u); s++) {
                diff += g_count[y][x][s] != g_ref[y][x][s];
                doubles += g_count[y][x][s] > 1;
                gaps += g_count[y][x][s] == 0;
                hits += g_count[y][x][s];
            }
    CHECK_MSG(diff == 0, "%s (ms %d): %u samples differ from the reference", name, sc->ms, diff);
    if (diff && getenv("CV_DEBUG"))
        for (unsigned y = 0; y < sc->h; y += 4) {
            for (unsigned x = 0; x < sc->w; x += 2)
                fputc('0' + g_count[y][x][0] - g_ref[y][x][0] + 1, stderr);
            fputc('\n', stderr);
        }
    if (once)
        CHECK_MSG(doubles == 0, "%s (ms %d): %u samples hit twice", name, sc->ms, doubles);
    if (full)
        CHECK_MSG(gaps == 0, "%s (ms %d): %u samples never hit", name, sc->ms, gaps);
    CHECK_MSG(hits > 0, "%s: nothing drawn", name);
}

/* ---- scenes ------------------------------------------------------------------------------ */

static int32_t g_pos[8192][2];
static uint16_t g_idx[16384];

/* An indexed triangle mesh over more than the frame (jittered grid,
 * random diagonals and windings). */
static void test_mesh(void)
{
    for (int ms = 0; ms < 2; ms++) {
        struct cv_scene sc = {.w = ms ? 96 : 160, .h = ms ? 64 : 128, .ms = ms};
        uint64_t seed = 2024 + (uint64_t)ms;
        const int cell = 7 * 16;
        int nx = (int)sc.w * 16 / cell + 4, ny = (int)sc.h * 16 / cell + 4;
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                g_pos[j * nx + i][0] = (int32_t)((i - 1) * cell + ref_range(&seed, -cell / 4, cell / 4));
                g_pos[j * nx + i][1] = (int32_t)((j - 1) * cell + ref_range(&seed, -cell / 4, cell / 4));
            }
        unsigned n = 0;
        for (int j = 0; j + 1 < ny; j++)
            for (int i = 0; i + 1 < nx; i++) {
                uint16_t a = (uint16_t)(j * nx + i), b = (uint16_t)(a + 1), d = (uint16_t)(a + nx), c = (uint16_t)(d + 1);
                uint16_t t[2][3] = {{a, b, c}, {a, c, d}};
                if (ref_rand(&seed) & 1) {
                    uint16_t u[2][3] = {{a, b, d}, {b, c, d}};
                    memcpy(t, u, sizeof t);
                }
                for (int k = 0; k < 2; k++) {
                    bool flip = ref_rand(&seed) & 1;
                    g_idx[n++] = t[k][0];
                    g_idx[n++] = flip ? t[k][2] : t[k][1];
                    g_idx[n++] = flip ? t[k][1] : t[k][2];
                }
            }
        sc.pos = (const int32_t(*)[2])g_pos;
        sc.npos = (unsigned)(nx * ny);
        sc.mode = VC4_CL_PRIM_TRIANGLES;
        sc.count = n;
        sc.index = g_idx;
        check_scene("indexed triangle mesh", &sc, true, true);
    }
}

static void test_fan(void)
{
    for (int ms = 0; ms < 2; ms++) {
        struct cv_scene sc = {.w = ms ? 96 : 160, .h = ms ? 64 : 128, .ms = ms, .mode = VC4_CL_PRIM_TRIANGLE_FAN};
        /* centre on a pixel centre at a tile corner region; the rim closes */
        int32_t cx = (ms ? 32 : 64) * 16 + 8, cy = 32 * 16 + 8;
        g_pos[0][0] = cx;
        g_pos[0][1] = cy;
        const int k = 20;
        for (int i = 0; i <= k; i++) {
            double a = 6.283185307179586 * (i % k) / k;
            g_pos[1 + i][0] = cx + (int32_t)(28 * 16 * cos(a));
            g_pos[1 + i][1] = cy + (int32_t)(28 * 16 * sin(a));
        }
        sc.pos = (const int32_t(*)[2])g_pos;
        sc.npos = (unsigned)k + 2;
        sc.count = (unsigned)k + 2;
        check_scene("triangle fan", &sc, true, false);
        CHECK_EQ_INT(g_count[cy >> 4][cx >> 4][0], 1); /* the shared centre, once */
    }
}

static void test_strip(void)
{
    for (int ms = 0; ms < 2; ms++) {
        struct cv_scene sc = {.w = ms ? 96 : 160, .h = ms ? 64 : 128, .ms = ms, .mode = VC4_CL_PRIM_TRIANGLE_STRIP};
        uint64_t seed = 77;
        unsigned n = 0;
        for (int i = 0; i * 5 * 16 < (int)(sc.w + 10) * 16; i++) {
            g_pos[n][0] = (int32_t)(-32 + i * 5 * 16 + ref_range(&seed, -8, 8));
            g_pos[n][1] = (int32_t)((i & 1 ? (int)sc.h - 10 : 10) * 16 + ref_range(&seed, -20, 20));
            n++;
        }
        sc.pos = (const int32_t(*)[2])g_pos;
        sc.npos = n;
        sc.count = n;
        check_scene("triangle strip", &sc, true, false);
    }
}

/* Triangles drawn over each other, twelve layers: every layer's count
 * lands (the counting shader loads the colour and writes it back plus
 * one), so no layer's load may see the colour from before an earlier
 * layer's write.  (The emulator shades a triangle to its end before it
 * rasterises the next one, draw.c shade, so the scoreboard never holds a
 * batch back today; this pins the result should that change.) */
static void test_overlapping_layers(void)
{
    for (int ms = 0; ms < 2; ms++) {
        struct cv_scene sc = {.w = ms ? 96 : 160, .h = ms ? 64 : 128, .ms = ms, .mode = VC4_CL_PRIM_TRIANGLES};
        static const int32_t tri[2][3][2] = {{{8 * 16, 4 * 16}, {90 * 16, 20 * 16}, {20 * 16, 60 * 16}},
                                             {{30 * 16 + 5, 10 * 16}, {70 * 16, 50 * 16 + 3}, {12 * 16, 40 * 16}}};
        unsigned n = 0;
        for (unsigned layer = 0; layer < 12; layer++)
            for (unsigned v = 0; v < 3; v++) {
                g_pos[n][0] = tri[layer & 1][v][0];
                g_pos[n][1] = tri[layer & 1][v][1];
                g_idx[n] = (uint16_t)n;
                n++;
            }
        sc.pos = (const int32_t(*)[2])g_pos;
        sc.npos = n;
        sc.count = n;
        sc.index = g_idx;
        check_scene("overlapping layers", &sc, false, false);
        CHECK_EQ_INT(g_count[30][40][0], 12); /* inside both triangles */
    }
}

static void test_points(void)
{
    for (int ms = 0; ms < 2; ms++) {
        struct cv_scene sc = {.w = ms ? 96 : 160, .h = ms ? 64 : 128, .ms = ms, .mode = VC4_CL_PRIM_POINTS,
                              .point_size = 2.0f};
        unsigned n = 0;
        /* size-2 squares centred on odd pixel corners tile the frame */
        for (unsigned y = 0; y < sc.h / 2; y++)
            for (unsigned x = 0; x < sc.w / 2; x++) {
                g_pos[n][0] = (int32_t)(2 * x + 1) * 16;
                g_pos[n][1] = (int32_t)(2 * y + 1) * 16;
                n++;
            }
        sc.pos = (const int32_t(*)[2])g_pos;
        sc.npos = n;
        sc.count = n;
        check_scene("points", &sc, true, true);
    }
}

static void test_lines(void)
{
    for (int ms = 0; ms < 2; ms++) {
        /* horizontal lines of width 2, two pixels apart: tile the frame */
        struct cv_scene sc = {.w = ms ? 96 : 160, .h = ms ? 64 : 128, .ms = ms, .mode = VC4_CL_PRIM_LINES,
                              .line_width = 2.0f};
        unsigned n = 0;
        for (unsigned y = 0; y < sc.h / 2; y++) {
            g_pos[n][0] = -3 * 16;
            g_pos[n][1] = (int32_t)(2 * y + 1) * 16;
            g_pos[n + 1][0] = (int32_t)(sc.w + 3) * 16;
            g_pos[n + 1][1] = (int32_t)(2 * y + 1) * 16;
            n += 2;
        }
        sc.pos = (const int32_t(*)[2])g_pos;
        sc.npos = n;
        sc.count = n;
        check_scene("lines", &sc, true, true);

        /* a line strip with x-major segments: joints shared, never twice */
        uint64_t seed = 5;
        n = 0;
        for (int i = 0; i * 11 * 16 < (int)(sc.w + 20) * 16; i++) {
            g_pos[n][0] = (int32_t)(-16 + i * 11 * 16 + ref_range(&seed, -20, 20));
            g_pos[n][1] = (int32_t)((int)sc.h / 2 * 16 + ref_range(&seed, -60, 60));
            n++;
        }
        sc.mode = VC4_CL_PRIM_LINE_STRIP;
        sc.line_width = 1.5f;
        sc.npos = n;
        sc.count = n;
        check_scene("line strip", &sc, true, false);

        /* a line loop (a closed polygon; corners where the major axis
         * changes overlap, as wide lines do): counts as the reference */
        const int32_t loop[4][2] = {{20 * 16 + 5, 10 * 16 + 3}, {70 * 16, 14 * 16}, {60 * 16 + 9, 50 * 16}, {12 * 16, 40 * 16 + 8}};
        sc.pos = loop;
        sc.npos = 4;
        sc.count = 4;
        sc.mode = VC4_CL_PRIM_LINE_LOOP;
        sc.line_width = 1.0f;
        check_scene("line loop", &sc, false, false);
    }
}

static void test_triangle_list_shared_edges(void)
{
    /* two triangles sharing an edge that runs exactly through pixel
     * centres, and four meeting at one pixel centre, in one vertex array */
    static const int32_t p[][2] = {
        {8 + 16 * 10, 8 + 16 * 10}, {8 + 16 * 50, 8 + 16 * 10}, {8 + 16 * 50, 8 + 16 * 50},
        {8 + 16 * 10, 8 + 16 * 10}, {8 + 16 * 50, 8 + 16 * 50}, {8 + 16 * 10, 8 + 16 * 50},
        {8 + 16 * 80, 8 + 16 * 30}, {8 + 16 * 100, 8 + 16 * 10}, {8 + 16 * 120, 8 + 16 * 30},
        {8 + 16 * 80, 8 + 16 * 30}, {8 + 16 * 120, 8 + 16 * 30}, {8 + 16 * 100, 8 + 16 * 50},
        {8 + 16 * 100, 8 + 16 * 30}, {8 + 16 * 100, 8 + 16 * 10}, {8 + 16 * 120, 8 + 16 * 30},
    };
    for (int ms = 0; ms < 2; ms++) {
        struct cv_scene sc = {.w = 160, .h = 64, .ms = ms, .pos = p, .npos = 12, .mode = VC4_CL_PRIM_TRIANGLES,
                              .count = 12};
        check_scene("triangles sharing edges", &sc, true, false);
    }
}

/* Set by run_clip_scene: the tile list held a 49. */
static bool g_clip_scene_had_49;

/* A clipping scene on a 64x64 frame (one tile), viewport centre (32, 32),
 * clipper XY scale 32 x 16: NV vertices with the clip header (Xc Yc Zc Wc,
 * then X/Y 12.4, Zs, 1/Wc, nvary varyings), clipping enabled, drawn with
 * fs; the frame read into fb (64 x 64 x 4 bytes).  False if it did not run
 * cleanly. */
static bool run_clip_scene(const uint8_t *vdata, unsigned nverts, unsigned nvary, unsigned mode,
                           float line_width, const char *fs, uint8_t *fb)
{
    struct harness_diags hd;
    struct vc4_diag_sink sink = harness_sink(&hd);
    struct vc4_emu_options eo = {.sink = sink, .mem_size = 16u << 20};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    bool ok = emu && sc_load_shader(emu, fs, CV_SHADER, sink);
    uint32_t stride = 28 + 4 * nvary;
    if (ok)
        vc4_emu_mem_write(emu, CV_VERTICES, vdata, stride * nverts);
    struct vc4_cl_nv_shader_record rec = {.enable_clipping = true, .clip_header_included = true,
                                          .vertex_stride = stride, .fs_code_addr = CV_SHADER,
                                          .fs_num_varyings = nvary, .vertex_data_addr = CV_VERTICES};
    uint8_t rb[16];
    ok = ok && vc4_cl_nv_shader_record_pack(&rec, rb, &sink) == VC4_OK;
    if (ok)
        vc4_emu_mem_write(emu, CV_RECORD, rb, 16);
    struct vc4_cl bin;
    vc4_cl_init(&bin, NULL, CV_LISTS, &sink);
    struct vc4_cl_tile_binning_mode_config bcfg = {.tile_alloc_addr = CV_TILE_ALLOC, .tile_alloc_size = 0x100000,
                                                   .tsda_addr = CV_TSDA, .width_tiles = 1, .height_tiles = 1,
                                                   .auto_init_tsda = true, .block_size = VC4_CL_BLOCK_128};
    vc4_cl_tile_binning_mode_config(&bin, &bcfg);
    vc4_cl_start_tile_binning(&bin);
    struct vc4_cl_configuration_bits cb = {.enable_forward_facing = true, .enable_reverse_facing = true,
                                           .depth_func = VC4_CL_DEPTH_ALWAYS};
    vc4_cl_configuration_bits(&bin, &cb);
    struct vc4_cl_viewport_offset vp = {32 * 16, 32 * 16};
    vc4_cl_viewport_offset(&bin, &vp);
    struct vc4_cl_clipper_xy_scaling xy = {32.0f * 16, 32.0f * 16};
    vc4_cl_clipper_xy_scaling(&bin, &xy);
    struct vc4_cl_clipper_z_scaling zs = {1.0f, 0.0f};
    vc4_cl_clipper_z_scaling(&bin, &zs);
    if (line_width > 0.0f) {
        struct vc4_cl_line_width lw = {line_width};
        vc4_cl_line_width(&bin, &lw);
    }
    struct vc4_cl_nv_shader_state nvs = {CV_RECORD};
    vc4_cl_nv_shader_state(&bin, &nvs);
    struct vc4_cl_vertex_array_primitives va = {.primitive_mode = mode, .length = nverts};
    vc4_cl_vertex_array_primitives(&bin, &va);
    vc4_cl_increment_semaphore(&bin);
    vc4_cl_flush(&bin);
    if (ok)
        vc4_emu_mem_write(emu, CV_LISTS, bin.data, bin.len);
    struct vc4_cl rl;
    vc4_cl_init(&rl, NULL, CV_RENDER, &sink);
    struct vc4_cl_clear_colors cc = {0};
    vc4_cl_clear_colors(&rl, &cc);
    struct vc4_cl_tile_rendering_mode_config rcfg = {.fb_addr = CV_FB, .width_px = 64, .height_px = 64,
                                                     .color_format = VC4_CL_FB_RGBA8888};
    vc4_cl_tile_rendering_mode_config(&rl, &rcfg);
    struct vc4_cl_tile_coordinates t0 = {0, 0};
    vc4_cl_tile_coordinates(&rl, &t0);
    struct vc4_cl_store_tile_buffer_general none = {.buffer = VC4_CL_BUF_NONE};
    vc4_cl_store_tile_buffer_general(&rl, &none);
    vc4_cl_tile_coordinates(&rl, &t0);
    vc4_cl_wait_on_semaphore(&rl);
    struct vc4_cl_branch_to_sub_list br = {CV_TILE_ALLOC};
    vc4_cl_branch_to_sub_list(&rl, &br);
    vc4_cl_store_ms_tile_buffer_and_eof(&rl);
    if (ok) {
        vc4_emu_mem_write(emu, CV_RENDER, rl.data, rl.len);
        vc4_emu_reg_write(emu, VC4_V3D_CT0CA, CV_LISTS);
        vc4_emu_reg_write(emu, VC4_V3D_CT0EA, vc4_cl_addr(&bin));
        vc4_emu_reg_write(emu, VC4_V3D_CT1CA, CV_RENDER);
        vc4_emu_reg_write(emu, VC4_V3D_CT1EA, vc4_cl_addr(&rl));
        ok = vc4_emu_run(emu, 0) == VC4_OK;
        CHECK_MSG(hd.errors == 0 && hd.warnings == 0, "%s", hd.text);
        ok = ok && hd.errors == 0 && hd.warnings == 0;
    }
    if (ok)
        vc4_emu_mem_read(emu, CV_FB, fb, 64 * 64 * 4);
    /* the tile list holds a 49 exactly when the binner clipped something */
    bool found = false;
    uint32_t at = CV_TILE_ALLOC;
    for (int steps = 0; ok && steps < 200 && !found; steps++) {
        uint8_t pk[64];
        vc4_emu_mem_read(emu, at, pk, sizeof pk);
        struct vc4_cl_reader rd;
        struct vc4_cl_packet_view pv;
        vc4_cl_reader_init(&rd, pk, sizeof pk);
        if (!vc4_cl_next(&rd, &pv) || pv.opcode == VC4_CL_RETURN_FROM_SUB_LIST)
            break;
        found = pv.opcode == VC4_CL_CLIPPED_PRIMITIVE;
        if (pv.opcode == VC4_CL_BRANCH) {
            struct vc4_cl_branch b;
            vc4_cl_decode_struct(&pv, &b);
            at = b.address;
        } else {
            at += (uint32_t)pv.length;
        }
    }
    g_clip_scene_had_49 = found;
    vc4_cl_free(&bin);
    vc4_cl_free(&rl);
    vc4_emu_destroy(emu);
    return ok;
}

/* One vertex of a clipping scene at screen (x, y) px with Wc = 1 (Xc =
 * (x - 32) / 32); the shaded X/Y saturate off the 12.4 range (unused then:
 * such a vertex is always clipped). */
static void clip_scene_vertex(uint8_t *v, double x, double y, unsigned nvary, const float *vary)
{
    float xc = (float)((x - 32) / 32), yc = (float)((y - 32) / 32);
    sc_put32(v, sc_f2u(xc));
    sc_put32(v + 4, sc_f2u(yc));
    sc_put32(v + 8, sc_f2u(0.5f));
    sc_put32(v + 12, sc_f2u(1.0f));
    int32_t x16 = fabs(x - 32) < 2000 ? (int32_t)lround((x - 32) * 16) : 0x7FFF;
    int32_t y16 = fabs(y - 32) < 2000 ? (int32_t)lround((y - 32) * 16) : 0x7FFF;
    sc_put32(v + 16, (uint32_t)(uint16_t)x16 | (uint32_t)(uint16_t)y16 << 16);
    sc_put32(v + 20, sc_f2u(0.5f));
    sc_put32(v + 24, sc_f2u(1.0f));
    for (unsigned k = 0; k < nvary; k++)
        sc_put32(v + 28 + 4 * k, sc_f2u(vary[k]));
}

/* Clipping (packet 49): a triangle far beyond the 12.4 guard band, with
 * clip coordinates (NV clip header, clipping enabled).  The binner clips
 * it to the guard band and sends a polygon record; the renderer draws the
 * polygon as a fan.  Its visible edges are the original x = 10 and y = 10
 * (clipped vertices on them stay exact): every pixel from (10, 10) on is
 * counted exactly once, none before. */
static void test_clipped_polygon(void)
{
    const double sx[3] = {10, 100010, 10}, sy[3] = {10, 10, 100010};
    uint8_t vdata[3 * 28];
    for (unsigned i = 0; i < 3; i++)
        clip_scene_vertex(vdata + 28 * i, sx[i], sy[i], 0, NULL);
    static uint8_t fb[64 * 64 * 4];
    CHECK(run_clip_scene(vdata, 3, 0, VC4_CL_PRIM_TRIANGLES, 0.0f, fs_count, fb));
    CHECK(g_clip_scene_had_49);
    unsigned bad = 0;
    for (unsigned y = 0; y < 64; y++)
        for (unsigned x = 0; x < 64; x++)
            bad += fb[4 * (y * 64 + x)] != (x >= 10 && y >= 10 ? 1 : 0);
    CHECK_MSG(bad == 0, "clipped polygon: %u pixels counted wrongly", bad);
}

/* A clipped line (packet 49 with a 2-vertex record): a 3 px wide line
 * along row 20.5 from x = 10 to x = 4148 px crosses the guard band
 * (|Xs| <= 2047 px from the viewport centre, x = 2079): with the clipper
 * scale 512, the distances to the plane are 32752 + 352 and 32752 - 65856,
 * so t = 1/2 exactly and the clipped end is x = 2079 px with the varyings'
 * mean.  The frame equals that of the same line drawn unclipped to that end
 * point with those varyings (colour ramps along the line included).  A line
 * wholly beyond the guard band leaves the frame clear. */
static void test_clipped_line(void)
{
    static const float v0[3] = {0.0f, 0.25f, 1.0f}, v1[3] = {1.0f, 0.75f, 0.0f}, mid[3] = {0.5f, 0.5f, 0.5f};
    uint8_t cut[2 * 40], by_hand[2 * 40], beyond[2 * 40];
    clip_scene_vertex(cut, 10, 20.5, 3, v0);
    clip_scene_vertex(cut + 40, 4148, 20.5, 3, v1);
    clip_scene_vertex(by_hand, 10, 20.5, 3, v0);
    clip_scene_vertex(by_hand + 40, 32 + 2047, 20.5, 3, mid);
    clip_scene_vertex(beyond, 4148, 20.5, 3, v0);
    clip_scene_vertex(beyond + 40, 4148 + 100, 30.5, 3, v1);
    static uint8_t fb_cut[64 * 64 * 4], fb_ref[64 * 64 * 4], fb_none[64 * 64 * 4];
    CHECK(run_clip_scene(cut, 2, 3, VC4_CL_PRIM_LINES, 3.0f, sc_fs_varyings_line(), fb_cut));
    CHECK(g_clip_scene_had_49);
    CHECK(run_clip_scene(by_hand, 2, 3, VC4_CL_PRIM_LINES, 3.0f, sc_fs_varyings_line(), fb_ref));
    CHECK(!g_clip_scene_had_49);
    CHECK(run_clip_scene(beyond, 2, 3, VC4_CL_PRIM_LINES, 3.0f, sc_fs_varyings_line(), fb_none));
    CHECK(!g_clip_scene_had_49);
    CHECK(memcmp(fb_cut, fb_ref, sizeof fb_cut) == 0);
    /* rows 19..21 from x = 10 on, nothing else; blue falls off to the right */
    unsigned drawn = 0, none = 0;
    for (unsigned i = 0; i < 64 * 64; i++) {
        drawn += fb_cut[4 * i + 3] != 0;
        none += fb_none[4 * i + 3] != 0;
    }
    CHECK_EQ_U64(drawn, 3 * 54);
    CHECK_EQ_U64(none, 0);
    CHECK(fb_cut[4 * (20 * 64 + 10) + 2] > fb_cut[4 * (20 * 64 + 63) + 2]);
}

TEST_LIST(test_clipped_polygon, test_clipped_line, test_mesh, test_overlapping_layers, test_fan, test_strip, test_points, test_lines, test_triangle_list_shared_edges)
