/*
 * nv_scene.h - the seed posts' NV-mode scenes built in C with the
 * library (the C form of examples/nv_triangle.qasm and nv_varyings.qasm):
 * the control-list writer (vc4kit/cl.h) builds the binning list, the
 * rendering list and the NV shader record, the assembler (vc4kit/qpu.h)
 * builds the fragment shader, and the emulator (vc4kit/emu.h) runs the
 * lists the way bare metal does (CT0CA/CT0EA, then CT1CA/CT1EA).
 *
 * Scene (seeds 000/002): a 640x480 RGBA8888 frame, one triangle with
 * vertices top (320, 32), bottom-left (32, 448), bottom-right (608, 448) in
 * 12.4 fixed point, Z = 1/W = 1.0;
 *  - nv_triangle: coloured from four float uniforms (R 0, G 1, B 0, A 1)
 *    packed by the mul ALU with .8a/.8b/.8c/.8d (seed 002's instruction
 *    0x20820DF7, 0xD14059E5 is the first of the four);
 *  - nv_varyings: three per-vertex varyings R, G, B (red top, green bottom
 *    left, blue bottom right), interpolated with the fmul/fadd pattern
 *    (seed 004's 0x203E3DF7, 0x110059E0 and 0x213E3177, 0x11024821).
 * Lists as the kernel builds them (hardware facts §3.5, §4.3).
 */
#ifndef VC4_EXAMPLES_NV_SCENE_H
#define VC4_EXAMPLES_NV_SCENE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vc4kit/cl.h"
#include "vc4kit/emu.h"
#include "vc4kit/qpu.h"

/* Bus addresses of the scene (the same as the .qasm images use). */
#define SC_BIN_CL 0x00100000u
#define SC_RENDER_CL 0x00104000u
#define SC_RECORD 0x00110000u
#define SC_VERTICES 0x00110100u
#define SC_UNIFORMS 0x00110200u
#define SC_SHADER 0x00111000u
#define SC_TILE_ALLOC 0x00200000u
#define SC_TILE_ALLOC_SIZE 0x00100000u
#define SC_TSDA 0x00300000u
#define SC_FB 0x00400000u
#define SC_CLEAR_COLOR 0xFF000000u /* opaque black (RGBA8888, byte 0 red) */

/* The uniform-colour fragment shader: R, G, B, A from four float uniforms
 * packed into r5 by the mul ALU (pm 1), then TLB_COLOUR_ALL. */
#define SC_FS_UNIFORM_REST                                                   \
    "nop; fmul r5quad.8b, unif, 1.0\n"                                        \
    "nop; fmul r5quad.8c, unif, 1.0\n"                                        \
    "nop; fmul r5quad.8d, unif, 1.0\n"                                        \
    "mov tlbc, r5\n"                                                          \
    "nop; thrend\n"                                                           \
    "nop\n"                                                                   \
    "nop; sbdone\n"
static const char sc_fs_uniform[] =
    "# seed 002: read a uniform and pack it to R (0x20820DF7, 0xD14059E5)\n"
    "nop; fmul r5quad.8a, unif, 1.0; @add_a=6 @add_b=7\n" SC_FS_UNIFORM_REST;

/* The varyings fragment shader: R, G, B = V * W + C, packed into ra1. */
#define SC_FS_VARYINGS_HEAD                                                  \
    "# seed 004: R * W (0x203E3DF7, 0x110059E0)\n"                         \
    "nop; fmul r0, ra15, vary; @pm=1 @ws=1 @add_a=6 @add_b=7\n"            \
    "# seed 002/004: R = R * W + C, G * W (0x213E3177, 0x11024821)\n"      \
    "fadd r0, r0, r5; fmul r1, ra15, vary; @pm=1\n"                        \
    "fadd r1, r1, r5; fmul r2, ra15, vary\n"                               \
    "fadd r2, r2, r5; fmul ra1.8asf, r0, 1.0\n"                              \
    "nop; fmul ra1.8bsf, r1, 1.0\n"                                          \
    "nop; fmul ra1.8csf, r2, 1.0\n"                                          \
    "nop; fmul ra1.8dsf, 1.0, 1.0\n"
#define SC_FS_VARYINGS_TAIL "mov tlbc, ra1\nnop; thrend\nnop\nnop; sbdone\n"
static const char sc_fs_varyings[] = SC_FS_VARYINGS_HEAD "nop\n" SC_FS_VARYINGS_TAIL;
/* The same writing its payload Z (rb15) to TLB_Z first, as Mesa does for
 * every depth-tested shader: without a TLB_Z write there is no depth test
 * (docs/rendering.md). */
static const char sc_fs_varyings_z[] = SC_FS_VARYINGS_HEAD "mov tlbz, rb15\n" SC_FS_VARYINGS_TAIL;

/* Point and line primitives: the PSE makes varyings of its own that the
 * fragment shader reads first, ahead of the record's (the point's s, t; the
 * line coordinate), which are not in the record's count and must be read
 * (src/emu/pse.h, docs/rendering.md).  These variants read and drop them:
 * the fragment shader to use for primitive mode `mode` (VC4_CL_PRIM_*). */
#define SC_FS_SKIP_POINT "# the point's s, t (PSE-made, pse.h): read, unused\nmov r3, vary\nmov r3, vary\n"
#define SC_FS_SKIP_LINE "# the line coordinate (PSE-made, pse.h): read, unused\nmov r3, vary\n"
static inline const char *sc_fs_uniform_for(unsigned mode)
{
    if (mode == VC4_CL_PRIM_POINTS)
        return SC_FS_SKIP_POINT "nop; fmul r5quad.8a, unif, 1.0\n" SC_FS_UNIFORM_REST;
    if (mode <= VC4_CL_PRIM_LINE_STRIP)
        return SC_FS_SKIP_LINE "nop; fmul r5quad.8a, unif, 1.0\n" SC_FS_UNIFORM_REST;
    return sc_fs_uniform;
}
/* The varyings shader of a line primitive (reads the line coordinate first). */
static inline const char *sc_fs_varyings_line(void)
{
    return SC_FS_SKIP_LINE SC_FS_VARYINGS_HEAD "nop\n" SC_FS_VARYINGS_TAIL;
}

struct sc_vertex {
    int16_t x16, y16; /* 12.4 */
    float z, inv_w;
    float vary[3];
};

static const struct sc_vertex sc_triangle[3] = {
    {320 * 16, 32 * 16, 1.0f, 1.0f, {1.0f, 0.0f, 0.0f}},  /* top: red */
    {32 * 16, 448 * 16, 1.0f, 1.0f, {0.0f, 1.0f, 0.0f}},  /* bottom left: green */
    {608 * 16, 448 * 16, 1.0f, 1.0f, {0.0f, 0.0f, 1.0f}}, /* bottom right: blue */
};

static inline void sc_put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline uint32_t sc_f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Assemble a fragment shader at addr into the emulator's memory. */
static inline bool sc_load_shader_dir(struct vc4_emu *emu, const char *src, uint32_t addr,
                                      struct vc4_diag_sink sink, const char *include_dir)
{
    struct vc4_asm_options o = {.sink = sink, .base_addr = addr};
    struct vc4_asm *as = vc4_asm_create(&o);
    bool ok = as && (!include_dir || vc4_asm_add_include_dir(as, include_dir) == VC4_OK) &&
              vc4_asm_source(as, "fragment-shader", src, strlen(src)) == VC4_OK;
    if (ok) {
        size_t n = 0;
        const uint8_t *p = vc4_asm_output(as, &n);
        ok = vc4_emu_mem_write(emu, addr, p, n) == VC4_OK;
    }
    vc4_asm_destroy(as);
    return ok;
}

static inline bool sc_load_shader(struct vc4_emu *emu, const char *src, uint32_t addr,
                                  struct vc4_diag_sink sink)
{
    return sc_load_shader_dir(emu, src, addr, sink, NULL);
}

struct sc_params {
    unsigned width, height;
    bool varyings;       /* nv_varyings (else nv_triangle) */
    bool multisample;    /* 4x, resolved on store */
    unsigned color_format; /* enum vc4_cl_fb_color_format */
    unsigned memory_format;
    bool single_threaded;
    uint32_t tile_alloc_size; /* 0: SC_TILE_ALLOC_SIZE */
    /* Other scenes (examples/tex_scene.h): when set, these replace the
     * seed's shader, triangle and colour uniforms (nverts <= SC_MAX_VERTS). */
    const char *fs;
    const char *fs_include_dir; /* for .include in fs */
    const struct sc_vertex *verts;
    unsigned nverts, nvary;
    const uint32_t *uniforms;
    unsigned nuniforms;
    /* called by sc_render after sc_build, e.g. to write a texture */
    bool (*setup)(struct vc4_emu *emu, const void *user);
    const void *setup_user;
};
#define SC_MAX_VERTS 6u

static inline struct sc_params sc_default(bool varyings)
{
    struct sc_params p = {.width = 640, .height = 480, .varyings = varyings,
                          .color_format = VC4_CL_FB_RGBA8888, .memory_format = VC4_CL_MEM_RASTER};
    return p;
}

/* Write a finished control list into emulated memory at the address it was
 * built for; *end = the address after its last byte (what CTnEA gets).
 * Frees the list; false if building or writing it failed. */
static inline bool sc_store_list(struct vc4_emu *emu, struct vc4_cl *cl, uint32_t *end)
{
    bool ok = cl->status == VC4_OK;
    ok &= vc4_emu_mem_write(emu, cl->base_addr, cl->data, cl->len) == VC4_OK;
    *end = vc4_cl_addr(cl);
    vc4_cl_free(cl);
    return ok;
}

/* What the rendering list draws into. */
struct sc_target {
    unsigned width, height;
    bool multisample;
    unsigned color_format;  /* enum vc4_cl_fb_color_format */
    unsigned memory_format; /* enum vc4_cl_memory_format */
    uint32_t clear_color; /* RGBA8888, byte 0 red */
    uint32_t clear_zs;    /* Z (24 bits) and stencil word the tiles start with */
};

/* The rendering list (facts §4.3) every scene uses, at SC_RENDER_CL: clear
 * colours, the rendering mode, a dummy store to clear the first tile, then
 * for each tile its coordinates, a branch into the tile's list in tile
 * allocation memory (32 bytes a tile: the binner's initial block size) and
 * a multisample store, the last one with end of frame.  The first tile
 * waits on the semaphore the binning list increments. */
static inline bool sc_build_render_list(struct vc4_emu *emu, const struct sc_target *t,
                                        struct vc4_diag_sink sink, uint32_t *render_end)
{
    unsigned tile = t->multisample ? 32 : 64;
    unsigned wt = (t->width + tile - 1) / tile, ht = (t->height + tile - 1) / tile;
    struct vc4_cl rl;
    vc4_cl_init(&rl, NULL, SC_RENDER_CL, &sink);
    struct vc4_cl_clear_colors cc = {.clear_color = (uint64_t)t->clear_color << 32 | t->clear_color,
                                     .clear_zs = t->clear_zs};
    vc4_cl_clear_colors(&rl, &cc);
    struct vc4_cl_tile_rendering_mode_config rcfg = {
        .fb_addr = SC_FB, .width_px = t->width, .height_px = t->height,
        .multisample_4x = t->multisample, .color_format = t->color_format,
        .decimate_mode = t->multisample ? VC4_CL_DECIMATE_4X : VC4_CL_DECIMATE_1X,
        .memory_format = t->memory_format,
    };
    vc4_cl_tile_rendering_mode_config(&rl, &rcfg);
    struct vc4_cl_tile_coordinates tc = {0, 0};
    vc4_cl_tile_coordinates(&rl, &tc);
    struct vc4_cl_store_tile_buffer_general none = {.buffer = VC4_CL_BUF_NONE};
    vc4_cl_store_tile_buffer_general(&rl, &none);
    for (unsigned y = 0; y < ht; y++)
        for (unsigned x = 0; x < wt; x++) {
            struct vc4_cl_tile_coordinates at = {x, y};
            vc4_cl_tile_coordinates(&rl, &at);
            if (x == 0 && y == 0)
                vc4_cl_wait_on_semaphore(&rl);
            struct vc4_cl_branch_to_sub_list br = {SC_TILE_ALLOC + (y * wt + x) * 32};
            vc4_cl_branch_to_sub_list(&rl, &br);
            if (x == wt - 1 && y == ht - 1)
                vc4_cl_store_ms_tile_buffer_and_eof(&rl);
            else
                vc4_cl_store_ms_tile_buffer(&rl);
        }
    return sc_store_list(emu, &rl, render_end);
}

/* Write everything into memory; *bin_end / *render_end get the lists' ends. */
static inline bool sc_build(struct vc4_emu *emu, const struct sc_params *p, struct vc4_diag_sink sink,
                            uint32_t *bin_end, uint32_t *render_end)
{
    unsigned tile = p->multisample ? 32 : 64;
    unsigned wt = (p->width + tile - 1) / tile, ht = (p->height + tile - 1) / tile;
    bool ok = true;

    /* shader, uniforms, vertices, NV shader record (seed 002) */
    ok &= sc_load_shader_dir(emu, p->fs ? p->fs : p->varyings ? sc_fs_varyings : sc_fs_uniform,
                             SC_SHADER, sink, p->fs_include_dir);
    const float unif[4] = {0.0f, 1.0f, 0.0f, 1.0f}; /* R, G, B, A */
    uint8_t u[64];
    unsigned nu = p->uniforms ? (p->nuniforms < 16 ? p->nuniforms : 16) : 4;
    for (unsigned i = 0; i < nu; i++)
        sc_put32(u + 4 * i, p->uniforms ? p->uniforms[i] : sc_f2u(unif[i]));
    ok &= vc4_emu_mem_write(emu, SC_UNIFORMS, u, 4 * nu) == VC4_OK;
    const struct sc_vertex *verts = p->verts ? p->verts : sc_triangle;
    unsigned nverts = p->verts ? (p->nverts < SC_MAX_VERTS ? p->nverts : SC_MAX_VERTS) : 3;
    unsigned nvary = p->verts ? (p->nvary < 3 ? p->nvary : 3) : p->varyings ? 3 : 0;
    unsigned stride = 12 + 4 * nvary;
    uint8_t vtx[SC_MAX_VERTS * 24];
    for (unsigned i = 0; i < nverts; i++) {
        uint8_t *q = vtx + i * stride;
        q[0] = (uint8_t)verts[i].x16;
        q[1] = (uint8_t)((uint16_t)verts[i].x16 >> 8);
        q[2] = (uint8_t)verts[i].y16;
        q[3] = (uint8_t)((uint16_t)verts[i].y16 >> 8);
        sc_put32(q + 4, sc_f2u(verts[i].z));
        sc_put32(q + 8, sc_f2u(verts[i].inv_w));
        for (unsigned k = 0; k < nvary; k++)
            sc_put32(q + 12 + 4 * k, sc_f2u(verts[i].vary[k]));
    }
    ok &= vc4_emu_mem_write(emu, SC_VERTICES, vtx, nverts * stride) == VC4_OK;
    struct vc4_cl_nv_shader_record rec = {
        .fs_single_threaded = p->single_threaded,
        .vertex_stride = stride,
        .fs_num_varyings = nvary,
        .fs_code_addr = SC_SHADER,
        .fs_uniforms_addr = p->varyings && !p->uniforms ? 0 : SC_UNIFORMS,
        .vertex_data_addr = SC_VERTICES,
    };
    uint8_t rb[16];
    ok &= vc4_cl_nv_shader_record_pack(&rec, rb, &sink) == VC4_OK;
    ok &= vc4_emu_mem_write(emu, SC_RECORD, rb, sizeof rb) == VC4_OK;

    /* binning list (facts §3.5) */
    struct vc4_cl bin;
    vc4_cl_init(&bin, NULL, SC_BIN_CL, &sink);
    struct vc4_cl_tile_binning_mode_config bcfg = {
        .tile_alloc_addr = SC_TILE_ALLOC,
        .tile_alloc_size = p->tile_alloc_size ? p->tile_alloc_size : SC_TILE_ALLOC_SIZE, .tsda_addr = SC_TSDA,
        .width_tiles = wt, .height_tiles = ht, .multisample_4x = p->multisample, .auto_init_tsda = true,
        .initial_block_size = VC4_CL_BLOCK_32, .block_size = VC4_CL_BLOCK_128,
    };
    vc4_cl_tile_binning_mode_config(&bin, &bcfg);
    vc4_cl_start_tile_binning(&bin);
    struct vc4_cl_primitive_list_format plf = {.primitive_type = VC4_CL_PLF_TRIANGLES,
                                               .data_type = VC4_CL_PLF_INDEX16};
    vc4_cl_primitive_list_format(&bin, &plf);
    struct vc4_cl_clip_window clip = {.left_px = 0, .bottom_px = 0, .width_px = p->width,
                                      .height_px = p->height};
    vc4_cl_clip_window(&bin, &clip);
    struct vc4_cl_configuration_bits cb = {
        .enable_forward_facing = true, .enable_reverse_facing = true,
        .rasteriser_oversample = p->multisample ? VC4_CL_OVERSAMPLE_4X : VC4_CL_OVERSAMPLE_NONE,
        .depth_func = VC4_CL_DEPTH_ALWAYS,
    };
    vc4_cl_configuration_bits(&bin, &cb);
    struct vc4_cl_viewport_offset vp = {0, 0};
    vc4_cl_viewport_offset(&bin, &vp);
    struct vc4_cl_nv_shader_state nvs = {.record_addr = SC_RECORD};
    vc4_cl_nv_shader_state(&bin, &nvs);
    struct vc4_cl_vertex_array_primitives prims = {.primitive_mode = VC4_CL_PRIM_TRIANGLES,
                                                   .length = nverts, .first_index = 0};
    vc4_cl_vertex_array_primitives(&bin, &prims);
    vc4_cl_increment_semaphore(&bin);
    vc4_cl_flush(&bin);
    ok &= sc_store_list(emu, &bin, bin_end);

    /* rendering list (facts §4.3) */
    const struct sc_target tgt = {
        .width = p->width, .height = p->height, .multisample = p->multisample,
        .color_format = p->color_format, .memory_format = p->memory_format,
        .clear_color = SC_CLEAR_COLOR,
    };
    ok &= sc_build_render_list(emu, &tgt, sink, render_end);
    return ok;
}

/* Run the binning list on CT0, then the rendering list on CT1, as bare
 * metal does (write CA, then EA). */
static inline enum vc4_status sc_run(struct vc4_emu *emu, uint32_t bin_end, uint32_t render_end)
{
    vc4_emu_reg_write(emu, VC4_V3D_CT0CA, SC_BIN_CL);
    vc4_emu_reg_write(emu, VC4_V3D_CT0EA, bin_end);
    enum vc4_status st = vc4_emu_run(emu, 0);
    if (st != VC4_OK)
        return st;
    vc4_emu_reg_write(emu, VC4_V3D_CT1CA, SC_RENDER_CL);
    vc4_emu_reg_write(emu, VC4_V3D_CT1EA, render_end);
    return vc4_emu_run(emu, 0);
}

/* Build and run a scene; returns the frame as RGBA (malloc'd) or NULL. */
static inline uint8_t *sc_render(const struct sc_params *p, struct vc4_diag_sink sink, unsigned num_qpus,
                                 struct vc4_emu **out_emu)
{
    struct vc4_emu_options eo = {.sink = sink, .num_qpus = num_qpus, .mem_size = 16u << 20};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    if (!emu)
        return NULL;
    uint32_t be = 0, re = 0;
    uint8_t *rgba = NULL;
    if (sc_build(emu, p, sink, &be, &re) && (!p->setup || p->setup(emu, p->setup_user)) &&
        sc_run(emu, be, re) == VC4_OK) {
        struct vc4_emu_frame f;
        vc4_emu_render_frame(emu, &f);
        rgba = f.valid ? malloc((size_t)f.width * f.height * 4) : NULL;
        if (rgba && vc4_emu_read_frame(emu, &f, rgba) != VC4_OK) {
            free(rgba);
            rgba = NULL;
        }
    }
    if (out_emu)
        *out_emu = emu;
    else
        vc4_emu_destroy(emu);
    return rgba;
}


/* ---- the examples' main: render one scene to a PNG ---------------------- */

#include <stdio.h>

#include "vc4kit/tex.h"

static inline void sc_print_diag(void *user, const struct vc4_diag *d)
{
    (void)user;
    char line[512];
    vc4_diag_format(d, line, sizeof line);
    fprintf(stderr, "%s\n", line);
}

/* usage: PROGRAM OUT.png */
static inline int sc_example_main(int argc, char **argv, bool varyings)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT.png\n", argv[0]);
        return 2;
    }
    struct vc4_diag_sink sink = {sc_print_diag, NULL};
    struct sc_params p = sc_default(varyings);
    uint8_t *rgba = sc_render(&p, sink, 12, NULL);
    if (!rgba) {
        fprintf(stderr, "%s: the scene did not render\n", argv[0]);
        return 1;
    }
    enum vc4_status st = vc4_png_write(argv[1], rgba, p.width, p.height, (size_t)p.width * 4, &sink);
    free(rgba);
    return st == VC4_OK ? 0 : 1;
}
#endif
