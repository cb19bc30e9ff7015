/*
 * gl_scene.h - GL-mode scenes built in C with the library (shared by the
 * examples gl_triangle, gl_cube, gl_near_clip, the tests and the bench):
 * vertex attribute streams, a GL shader record (seed 000's layout), the
 * vertex and coordinate shaders, a fragment shader, the binning list with
 * GL Shader State (packet 64) and the rendering list as the kernel builds
 * them (hardware facts §3.5, §4.3), run on the emulated V3D the way bare
 * metal runs them (examples/nv_scene.h's sc_run).
 *
 * gl_seed_*: seed 000's scene: the NV triangle of nv_triangle (640x480,
 * top (320, 32), bottom-left (32, 448), bottom-right (608, 448), Z = 1/W =
 * 1, coloured green by nv_triangle's uniform fragment shader) drawn in GL
 * mode: stream 0 holds the PSE-format vertices for the vertex shader (12
 * bytes each), stream 1 the PTB-format ones for the coordinate shader (28
 * bytes each: Xc Yc Zc Wc as the post lists them, then the same Xs/Ys, Zs,
 * 1/Wc), the post's pass-through shaders word for word, record flags 4
 * (clipping enabled), GL_Shader_State with two arrays.
 */
#ifndef VC4_EXAMPLES_GL_SCENE_H
#define VC4_EXAMPLES_GL_SCENE_H

#include "nv_scene.h"

/* Bus addresses besides nv_scene.h's lists, record, uniforms and FS. */
#define GL_VS_CODE 0x00112000u
#define GL_CS_CODE 0x00113000u
#define GL_VS_UNIF 0x00114000u
#define GL_CS_UNIF 0x00115000u
#define GL_INDICES 0x00116000u
#define GL_VDATA 0x00120000u

/* Seed 000's pass-through shaders, the posted words (examples/seeds/gl_*_shader.hex). */
static const uint32_t gl_seed_vs_words[] = {
    0x9E7000, 0x100009E7, 0x1A341AC0, 0xE0020C67, 0x9E7000, 0x100009E7, 0x9E7000, 0x100009E7,
    0x9E7000, 0x100009E7, 0x15C27DF7, 0x10020027, 0x15C27DF7, 0x10020067, 0x15C27DF7, 0x100200A7,
    0x17BC1AC0, 0xE0021C67, 0x15027DF7, 0x10020C27, 0x15067DF7, 0x10020C27, 0x150A7DF7, 0x10020C27,
    0x9E7000, 0x500009E7, 0x9E7000, 0x300009E7, 0x9E7000, 0x100009E7, 0x9E7000, 0x100009E7,
};
static const uint32_t gl_seed_cs_words[] = {
    0x9E7000, 0x100009E7, 0x1A741AC0, 0xE0020C67, 0x9E7000, 0x100009E7, 0x9E7000, 0x100009E7,
    0x9E7000, 0x100009E7, 0x15C27DF7, 0x10020027, 0x15C27DF7, 0x10020067, 0x15C27DF7, 0x100200A7,
    0x15C27DF7, 0x100200E7, 0x15C27DF7, 0x10020127, 0x15C27DF7, 0x10020167, 0x15C27DF7, 0x100201A7,
    0x17BC1AC0, 0xE0021C67, 0x15027DF7, 0x10020C27, 0x15067DF7, 0x10020C27, 0x150A7DF7, 0x10020C27,
    0x150E7DF7, 0x10020C27, 0x15127DF7, 0x10020C27, 0x15167DF7, 0x10020C27, 0x151A7DF7, 0x10020C27,
    0x9E7000, 0x500009E7, 0x9E7000, 0x300009E7, 0x9E7000, 0x100009E7, 0x9E7000, 0x100009E7,
};

/* A shader: posted words, or assembly source (one of the two). */
struct gl_shader {
    const uint32_t *words;
    size_t nwords;
    const char *src;
};

/* A GL scene. */
struct gl_scene {
    unsigned width, height;
    struct gl_shader vs, cs;
    const char *fs_src;
    const uint8_t *vdata;              /* vertex data, loaded at GL_VDATA */
    size_t vdata_len;
    struct vc4_cl_attr_record attr[8]; /* addresses relative to GL_VDATA */
    unsigned nattrs;
    struct vc4_cl_gl_shader_record rec; /* code/uniform addresses filled in */
    const uint32_t *vs_unif, *cs_unif, *fs_unif;
    size_t nvs_unif, ncs_unif, nfs_unif;
    /* primitives: indexed (16-bit indices) when nindices, else an array */
    unsigned prim_mode;
    const uint16_t *indices;
    uint32_t nindices, max_index;
    uint32_t first, count;
    /* fixed function */
    unsigned depth_func;               /* enum vc4_cl_depth_func */
    bool z_updates, cull_back;
    bool clipper;                      /* Clipper XY / Z scaling and Z clipping planes */
    float z_scale, z_offset, z_min, z_max;
    uint32_t clear_color;
};

static inline bool gl_load_shader(struct vc4_emu *emu, const struct gl_shader *s, uint32_t addr,
                                  struct vc4_diag_sink sink)
{
    if (s->src)
        return sc_load_shader(emu, s->src, addr, sink);
    uint8_t b[4096];
    if (s->nwords * 4 > sizeof b)
        return false;
    for (size_t i = 0; i < s->nwords; i++)
        sc_put32(b + 4 * i, s->words[i]);
    return vc4_emu_mem_write(emu, addr, b, s->nwords * 4) == VC4_OK;
}

static inline bool gl_put_words(struct vc4_emu *emu, uint32_t addr, const uint32_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t b[4];
        sc_put32(b, w[i]);
        if (vc4_emu_mem_write(emu, addr + 4 * (uint32_t)i, b, 4) != VC4_OK)
            return false;
    }
    return true;
}

/* Write the scene into memory (shaders, data, record, lists). */
static inline bool gl_build(struct vc4_emu *emu, const struct gl_scene *s, struct vc4_diag_sink sink,
                            uint32_t *bin_end, uint32_t *render_end)
{
    unsigned tile = 64;
    unsigned wt = (s->width + tile - 1) / tile, ht = (s->height + tile - 1) / tile;
    bool ok = true;
    ok &= gl_load_shader(emu, &s->vs, GL_VS_CODE, sink);
    ok &= gl_load_shader(emu, &s->cs, GL_CS_CODE, sink);
    ok &= sc_load_shader(emu, s->fs_src, SC_SHADER, sink);
    ok &= gl_put_words(emu, GL_VS_UNIF, s->vs_unif, s->nvs_unif);
    ok &= gl_put_words(emu, GL_CS_UNIF, s->cs_unif, s->ncs_unif);
    ok &= gl_put_words(emu, SC_UNIFORMS, s->fs_unif, s->nfs_unif);
    ok &= vc4_emu_mem_write(emu, GL_VDATA, s->vdata, s->vdata_len) == VC4_OK;
    if (s->nindices) {
        uint8_t b[2];
        for (uint32_t i = 0; i < s->nindices; i++) {
            b[0] = (uint8_t)s->indices[i];
            b[1] = (uint8_t)(s->indices[i] >> 8);
            ok &= vc4_emu_mem_write(emu, GL_INDICES + 2 * i, b, 2) == VC4_OK;
        }
    }
    struct vc4_cl_gl_shader_record rec = s->rec;
    rec.fs_code_addr = SC_SHADER;
    rec.fs_uniforms_addr = s->nfs_unif ? SC_UNIFORMS : 0;
    rec.vs_code_addr = GL_VS_CODE;
    rec.vs_uniforms_addr = GL_VS_UNIF;
    rec.cs_code_addr = GL_CS_CODE;
    rec.cs_uniforms_addr = GL_CS_UNIF;
    struct vc4_cl_attr_record attr[8];
    for (unsigned i = 0; i < s->nattrs; i++) {
        attr[i] = s->attr[i];
        attr[i].address += GL_VDATA;
    }
    uint8_t rb[36 + 8 * 8];
    size_t rsize = vc4_cl_gl_record_size(s->nattrs, false);
    ok &= vc4_cl_gl_shader_record_pack(&rec, attr, s->nattrs, NULL, rb, rsize, &sink) == VC4_OK;
    ok &= vc4_emu_mem_write(emu, SC_RECORD, rb, rsize) == VC4_OK;

    /* binning list (facts §3.5) */
    struct vc4_cl bin;
    vc4_cl_init(&bin, NULL, SC_BIN_CL, &sink);
    struct vc4_cl_tile_binning_mode_config bcfg = {
        .tile_alloc_addr = SC_TILE_ALLOC, .tile_alloc_size = SC_TILE_ALLOC_SIZE, .tsda_addr = SC_TSDA,
        .width_tiles = wt, .height_tiles = ht, .auto_init_tsda = true,
        .initial_block_size = VC4_CL_BLOCK_32, .block_size = VC4_CL_BLOCK_128,
    };
    vc4_cl_tile_binning_mode_config(&bin, &bcfg);
    vc4_cl_start_tile_binning(&bin);
    struct vc4_cl_primitive_list_format plf = {.primitive_type = VC4_CL_PLF_TRIANGLES,
                                               .data_type = VC4_CL_PLF_INDEX16};
    vc4_cl_primitive_list_format(&bin, &plf);
    struct vc4_cl_clip_window clip = {0, 0, s->width, s->height};
    vc4_cl_clip_window(&bin, &clip);
    struct vc4_cl_configuration_bits cb = {
        .enable_forward_facing = true, .enable_reverse_facing = !s->cull_back,
        .depth_func = s->depth_func, .z_updates_enable = s->z_updates,
    };
    vc4_cl_configuration_bits(&bin, &cb);
    if (s->clipper) {
        struct vc4_cl_clipper_xy_scaling xy = {s->width * 8.0f, s->height * -8.0f};
        vc4_cl_clipper_xy_scaling(&bin, &xy);
        struct vc4_cl_clipper_z_scaling zs = {s->z_scale, s->z_offset};
        vc4_cl_clipper_z_scaling(&bin, &zs);
        struct vc4_cl_z_clipping_planes zc = {s->z_min, s->z_max};
        vc4_cl_z_clipping_planes(&bin, &zc);
    }
    struct vc4_cl_viewport_offset vp = {s->clipper ? (int32_t)s->width * 8 : 0,
                                        s->clipper ? (int32_t)s->height * 8 : 0};
    vc4_cl_viewport_offset(&bin, &vp);
    struct vc4_cl_gl_shader_state gss = {.num_attr_arrays = s->nattrs & 7u, .record_addr = SC_RECORD};
    vc4_cl_gl_shader_state(&bin, &gss);
    if (s->nindices) {
        struct vc4_cl_indexed_primitive_list ip = {.primitive_mode = s->prim_mode,
                                                   .index_type = VC4_CL_INDEX_16BIT,
                                                   .length = s->nindices, .index_addr = GL_INDICES,
                                                   .max_index = s->max_index};
        vc4_cl_indexed_primitive_list(&bin, &ip);
    } else {
        struct vc4_cl_vertex_array_primitives prims = {.primitive_mode = s->prim_mode, .length = s->count,
                                                       .first_index = s->first};
        vc4_cl_vertex_array_primitives(&bin, &prims);
    }
    vc4_cl_increment_semaphore(&bin);
    vc4_cl_flush(&bin);
    ok &= bin.status == VC4_OK;
    ok &= vc4_emu_mem_write(emu, SC_BIN_CL, bin.data, bin.len) == VC4_OK;
    *bin_end = vc4_cl_addr(&bin);
    vc4_cl_free(&bin);

    /* rendering list (facts §4.3) */
    struct vc4_cl rl;
    vc4_cl_init(&rl, NULL, SC_RENDER_CL, &sink);
    struct vc4_cl_clear_colors cc = {.clear_color = (uint64_t)s->clear_color << 32 | s->clear_color,
                                     .clear_zs = 0xFFFFFF};
    vc4_cl_clear_colors(&rl, &cc);
    struct vc4_cl_tile_rendering_mode_config rcfg = {
        .fb_addr = SC_FB, .width_px = s->width, .height_px = s->height, .color_format = VC4_CL_FB_RGBA8888,
        .decimate_mode = VC4_CL_DECIMATE_1X, .memory_format = VC4_CL_MEM_RASTER,
    };
    vc4_cl_tile_rendering_mode_config(&rl, &rcfg);
    struct vc4_cl_tile_coordinates tc = {0, 0};
    vc4_cl_tile_coordinates(&rl, &tc);
    struct vc4_cl_store_tile_buffer_general none = {.buffer = VC4_CL_BUF_NONE};
    vc4_cl_store_tile_buffer_general(&rl, &none);
    for (unsigned y = 0; y < ht; y++)
        for (unsigned x = 0; x < wt; x++) {
            struct vc4_cl_tile_coordinates t = {x, y};
            vc4_cl_tile_coordinates(&rl, &t);
            if (x == 0 && y == 0)
                vc4_cl_wait_on_semaphore(&rl);
            struct vc4_cl_branch_to_sub_list br = {SC_TILE_ALLOC + (y * wt + x) * 32};
            vc4_cl_branch_to_sub_list(&rl, &br);
            if (x == wt - 1 && y == ht - 1)
                vc4_cl_store_ms_tile_buffer_and_eof(&rl);
            else
                vc4_cl_store_ms_tile_buffer(&rl);
        }
    ok &= rl.status == VC4_OK;
    ok &= vc4_emu_mem_write(emu, SC_RENDER_CL, rl.data, rl.len) == VC4_OK;
    *render_end = vc4_cl_addr(&rl);
    vc4_cl_free(&rl);
    return ok;
}

/* Read the frame as RGBA (malloc'd) or NULL. */
static inline uint8_t *gl_read_frame(struct vc4_emu *emu)
{
    struct vc4_emu_frame f;
    vc4_emu_render_frame(emu, &f);
    uint8_t *rgba = f.valid ? malloc((size_t)f.width * f.height * 4) : NULL;
    if (rgba && vc4_emu_read_frame(emu, &f, rgba) != VC4_OK) {
        free(rgba);
        rgba = NULL;
    }
    return rgba;
}

/* Build and run a scene on emu (created by the caller); the frame or NULL. */
static inline uint8_t *gl_render_on(struct vc4_emu *emu, const struct gl_scene *s, struct vc4_diag_sink sink)
{
    uint32_t be = 0, re = 0;
    if (!gl_build(emu, s, sink, &be, &re) || sc_run(emu, be, re) != VC4_OK)
        return NULL;
    return gl_read_frame(emu);
}

/* ---- seed 000's scene ------------------------------------------------------------ */

static inline uint32_t gl_xy16(int x16, int y16)
{
    return (uint32_t)(uint16_t)x16 | (uint32_t)(uint16_t)y16 << 16;
}

/* Stream 0 (PSE format, 12 bytes) then, at GL_SEED_CS_DATA, stream 1 (PTB
 * format, 28 bytes); the clip coordinates as the post lists them (its
 * third vertex's are not shown: the same mapping, (608/639)*2-1 etc.). */
#define GL_SEED_CS_DATA 0x40u
static const float gl_seed_clip[3][4] = {
    {0.00156494522f, -0.86638830897f, 1.0f, 1.0f},
    {-0.89984350547f, 0.87056367432f, 1.0f, 1.0f},
    {0.90297339593f, 0.87056367432f, 1.0f, 1.0f},
};

static inline size_t gl_seed_vdata(uint8_t out[256])
{
    memset(out, 0, 256);
    for (int i = 0; i < 3; i++) {
        uint8_t *v = out + 12 * i, *c = out + GL_SEED_CS_DATA + 28 * i;
        sc_put32(v, gl_xy16(sc_triangle[i].x16, sc_triangle[i].y16));
        sc_put32(v + 4, sc_f2u(sc_triangle[i].z));
        sc_put32(v + 8, sc_f2u(sc_triangle[i].inv_w));
        for (int k = 0; k < 4; k++)
            sc_put32(c + 4 * k, sc_f2u(gl_seed_clip[i][k]));
        memcpy(c + 16, v, 12);
    }
    return GL_SEED_CS_DATA + 3 * 28;
}

static const uint32_t gl_seed_fs_unif[4] = {0x00000000u, 0x3F800000u, 0x00000000u, 0x3F800000u}; /* 0,1,0,1 */

/* The scene (vdata: a 256-byte buffer gl_seed_vdata fills). */
static inline struct gl_scene gl_seed_scene(uint8_t vdata[256])
{
    struct gl_scene s = {
        .width = 640, .height = 480,
        .vs = {gl_seed_vs_words, sizeof gl_seed_vs_words / 4, NULL},
        .cs = {gl_seed_cs_words, sizeof gl_seed_cs_words / 4, NULL},
        .fs_src = sc_fs_uniform,
        .vdata = vdata, .vdata_len = gl_seed_vdata(vdata),
        /* seed 000: stream 0 11/12/0/0, stream 1 27/28/0/0 */
        .attr = {{0, 11, 12, 0, 0}, {GL_SEED_CS_DATA, 27, 28, 0, 0}},
        .nattrs = 2,
        .rec = {.enable_clipping = true, /* flag bits 4 */
                .vs_attr_select = 1, .vs_attr_size = 12, .cs_attr_select = 2, .cs_attr_size = 28},
        .fs_unif = gl_seed_fs_unif, .nfs_unif = 4,
        .prim_mode = VC4_CL_PRIM_TRIANGLES, .count = 3,
        .depth_func = VC4_CL_DEPTH_ALWAYS,
        .clear_color = SC_CLEAR_COLOR,
    };
    return s;
}

#endif
