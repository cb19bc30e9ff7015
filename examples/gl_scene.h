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

#include "gl_seed_shaders.h"
#include "nv_scene.h"

/* Bus addresses besides nv_scene.h's lists, record, uniforms and FS. */
#define GL_VS_CODE 0x00112000u
#define GL_CS_CODE 0x00113000u
#define GL_VS_UNIF 0x00114000u
#define GL_CS_UNIF 0x00115000u
#define GL_INDICES 0x00116000u /* up to 168 KB */
#define GL_VDATA 0x00140000u /* up to 768 KB (the tile allocation memory follows) */

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
    bool index8;                       /* 8-bit indices (else 16-bit) */
    uint32_t first, count;
    /* fixed function */
    unsigned depth_func;               /* enum vc4_cl_depth_func */
    bool z_updates, cull_back;
    bool clipper;                      /* Clipper XY / Z scaling and Z clipping planes */
    bool no_z_planes;                  /* ... but no Z clipping planes (104), as Mesa: the kernel refuses it */
    float z_scale, z_offset, z_min, z_max;
    float point_size, line_width;      /* packets emitted when non-zero */
    uint32_t clear_color;
    /* NV mode instead (the comparison oracle): an NV record whose vertices
     * are attribute 0's data (PSE format, its stride), the same fragment
     * shader fields */
    bool nv_mode;
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
        unsigned ib = s->index8 ? 1 : 2;
        for (uint32_t i = 0; i < s->nindices; i++) {
            b[0] = (uint8_t)s->indices[i];
            b[1] = (uint8_t)(s->indices[i] >> 8);
            ok &= vc4_emu_mem_write(emu, GL_INDICES + ib * i, b, ib) == VC4_OK;
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
    if (s->nv_mode) {
        struct vc4_cl_nv_shader_record nv = {
            .fs_single_threaded = rec.fs_single_threaded, .point_size_included = rec.point_size_included,
            .vertex_stride = attr[0].stride, .fs_num_varyings = rec.fs_num_varyings,
            .fs_code_addr = rec.fs_code_addr, .fs_uniforms_addr = rec.fs_uniforms_addr,
            .vertex_data_addr = attr[0].address,
        };
        rsize = 16;
        ok &= vc4_cl_nv_shader_record_pack(&nv, rb, &sink) == VC4_OK;
    } else {
        ok &= vc4_cl_gl_shader_record_pack(&rec, attr, s->nattrs, NULL, rb, rsize, &sink) == VC4_OK;
    }
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
    if (s->point_size != 0.0f) {
        struct vc4_cl_point_size ps = {s->point_size};
        vc4_cl_point_size(&bin, &ps);
    }
    if (s->line_width != 0.0f) {
        struct vc4_cl_line_width lw = {s->line_width};
        vc4_cl_line_width(&bin, &lw);
    }
    if (s->clipper) {
        struct vc4_cl_clipper_xy_scaling xy = {s->width * 8.0f, s->height * -8.0f};
        vc4_cl_clipper_xy_scaling(&bin, &xy);
        struct vc4_cl_clipper_z_scaling zs = {s->z_scale, s->z_offset};
        vc4_cl_clipper_z_scaling(&bin, &zs);
        struct vc4_cl_z_clipping_planes zc = {s->z_min, s->z_max};
        if (!s->no_z_planes)
            vc4_cl_z_clipping_planes(&bin, &zc);
    }
    struct vc4_cl_viewport_offset vp = {s->clipper ? (int32_t)s->width * 8 : 0,
                                        s->clipper ? (int32_t)s->height * 8 : 0};
    vc4_cl_viewport_offset(&bin, &vp);
    if (s->nv_mode) {
        struct vc4_cl_nv_shader_state nss = {.record_addr = SC_RECORD};
        vc4_cl_nv_shader_state(&bin, &nss);
    } else {
        struct vc4_cl_gl_shader_state gss = {.num_attr_arrays = s->nattrs & 7u, .record_addr = SC_RECORD};
        vc4_cl_gl_shader_state(&bin, &gss);
    }
    if (s->nindices) {
        struct vc4_cl_indexed_primitive_list ip = {.primitive_mode = s->prim_mode,
                                                   .index_type = s->index8 ? VC4_CL_INDEX_8BIT
                                                                           : VC4_CL_INDEX_16BIT,
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
    ok &= sc_store_list(emu, &bin, bin_end);

    /* rendering list (facts §4.3) */
    const struct sc_target tgt = {
        .width = s->width, .height = s->height, .color_format = VC4_CL_FB_RGBA8888,
        .memory_format = VC4_CL_MEM_RASTER, .clear_color = s->clear_color, .clear_zs = 0xFFFFFF,
    };
    ok &= sc_build_render_list(emu, &tgt, sink, render_end);
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

/* ---- lit meshes: the cube, the near-plane scene, the bench mesh ----------------------- */

#include <math.h>
#include <stdio.h>

/* A mesh vertex as the attribute stream holds it: 36 bytes. */
struct gl_mesh_vertex {
    float pos[3], normal[3], color[3];
};
#define GL_MESH_STRIDE 36u

/* Read a text file (the .qasm shaders); malloc'd, NULL on failure. */
static inline char *gl_read_text(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) != NULL) {
        if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        } else {
            buf[n] = 0;
        }
    }
    fclose(f);
    return buf;
}

/* 4x4 matrices, row-major: out = a x b. */
static inline void gl_mat_mul(float out[16], const float a[16], const float b[16])
{
    float r[16];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            float t = 0.0f;
            for (int k = 0; k < 4; k++)
                t += a[4 * i + k] * b[4 * k + j];
            r[4 * i + j] = t;
        }
    memcpy(out, r, sizeof r);
}

/* model = rotation about Y by ay then about X by ax (radians); view moves
 * the model to (tx, ty, tz); projection: fovy, aspect, near, far (GL). */
static inline void gl_mvp(float mvp[16], float model[16], float ay, float ax, float tx, float ty, float tz,
                          float fovy, float aspect, float n, float f)
{
    float cy = cosf(ay), sy = sinf(ay), cx = cosf(ax), sx = sinf(ax);
    const float ry[16] = {cy, 0, sy, 0, 0, 1, 0, 0, -sy, 0, cy, 0, 0, 0, 0, 1};
    const float rx[16] = {1, 0, 0, 0, 0, cx, -sx, 0, 0, sx, cx, 0, 0, 0, 0, 1};
    const float tr[16] = {1, 0, 0, tx, 0, 1, 0, ty, 0, 0, 1, tz, 0, 0, 0, 1};
    float t = 1.0f / tanf(fovy / 2);
    const float pr[16] = {t / aspect, 0, 0, 0, 0, t, 0, 0, 0, 0, (f + n) / (n - f), 2 * f * n / (n - f), 0, 0, -1, 0};
    gl_mat_mul(model, rx, ry);
    float mv[16];
    gl_mat_mul(mv, tr, model);
    gl_mat_mul(mvp, pr, mv);
}

/* A lit, depth-tested mesh drawn by the QPU-code shaders
 * examples/gl_cube_vs.qasm and gl_cube_cs.qasm. */
struct gl_lit {
    uint8_t *vdata;                 /* n x 36 bytes (malloc'd) */
    uint32_t vs_unif[16 + 4 + 3 + 2], cs_unif[16 + 4];
    char *vs_src, *cs_src;
    struct gl_scene s;
};

static inline void gl_lit_free(struct gl_lit *l)
{
    free(l->vdata);
    free(l->vs_src);
    free(l->cs_src);
    l->vdata = NULL;
    l->vs_src = l->cs_src = NULL;
}

/* mvp and model as gl_mvp gives them; light: world-space direction towards
 * the light (unit length). */
static inline bool gl_lit_init(struct gl_lit *l, const char *shader_dir, const struct gl_mesh_vertex *v, uint32_t nv,
                               const uint16_t *idx, uint32_t ni, unsigned w, unsigned h, const float mvp[16],
                               const float model[16], const float light[3])
{
    memset(l, 0, sizeof *l);
    l->vdata = malloc((size_t)nv * GL_MESH_STRIDE);
    l->vs_src = gl_read_text(shader_dir, "gl_cube_vs.qasm");
    l->cs_src = gl_read_text(shader_dir, "gl_cube_cs.qasm");
    if (!l->vdata || !l->vs_src || !l->cs_src) {
        gl_lit_free(l);
        return false;
    }
    for (uint32_t i = 0; i < nv; i++)
        for (int k = 0; k < 9; k++)
            sc_put32(l->vdata + GL_MESH_STRIDE * i + 4 * k, sc_f2u(k < 3 ? v[i].pos[k] : k < 6 ? v[i].normal[k - 3]
                                                                                       : v[i].color[k - 6]));
    float xs = (float)w * 8.0f, ys = (float)h * -8.0f, zs = 0.5f, zo = 0.5f;
    float lm[3]; /* the light in model space: the inverse (transposed) rotation */
    for (int k = 0; k < 3; k++)
        lm[k] = model[k] * light[0] + model[4 + k] * light[1] + model[8 + k] * light[2];
    const float tail_vs[9] = {xs, ys, zs, zo, lm[0], lm[1], lm[2], 0.75f /* diffuse */, 0.25f /* ambient */};
    const float tail_cs[4] = {xs, ys, zs, zo};
    for (int k = 0; k < 16; k++)
        l->vs_unif[k] = l->cs_unif[k] = sc_f2u(mvp[k]);
    for (int k = 0; k < 9; k++)
        l->vs_unif[16 + k] = sc_f2u(tail_vs[k]);
    for (int k = 0; k < 4; k++)
        l->cs_unif[16 + k] = sc_f2u(tail_cs[k]);
    struct gl_scene s = {
        .width = w, .height = h,
        .vs = {NULL, 0, l->vs_src}, .cs = {NULL, 0, l->cs_src},
        .fs_src = sc_fs_varyings_z, /* depth-tested: writes TLB_Z */
        .vdata = l->vdata, .vdata_len = (size_t)nv * GL_MESH_STRIDE,
        /* stream 0: position (both shaders); stream 1: normal and colour
         * (vertex shader only), both from the same 36-byte vertices */
        .attr = {{0, 11, GL_MESH_STRIDE, 0, 0}, {12, 23, GL_MESH_STRIDE, 12, 0}},
        .nattrs = 2,
        .rec = {.enable_clipping = true, .fs_num_varyings = 3,
                .vs_attr_select = 3, .vs_attr_size = 36, .cs_attr_select = 1, .cs_attr_size = 12},
        .vs_unif = l->vs_unif, .nvs_unif = 25, .cs_unif = l->cs_unif, .ncs_unif = 20,
        .prim_mode = VC4_CL_PRIM_TRIANGLES, .indices = idx, .nindices = ni, .max_index = nv - 1,
        .depth_func = VC4_CL_DEPTH_LESS, .z_updates = true,
        .clipper = true, .z_scale = zs, .z_offset = zo, .z_min = 0.0f, .z_max = 1.0f,
        .clear_color = 0xFF302010u, /* dark blue-grey (byte 0 = red) */
    };
    l->s = s;
    return true;
}

/* The cube: 6 faces of 4 vertices (own normal and colour), 12 triangles. */
static inline void gl_cube_mesh(struct gl_mesh_vertex v[24], uint16_t idx[36])
{
    static const float face[6][3][3] = { /* normal, u, v */
        {{1, 0, 0}, {0, 0, -1}, {0, 1, 0}},  {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
        {{0, 1, 0}, {1, 0, 0}, {0, 0, -1}},  {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
        {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},   {{0, 0, -1}, {-1, 0, 0}, {0, 1, 0}},
    };
    static const float color[6][3] = {{0.9f, 0.2f, 0.2f}, {0.2f, 0.9f, 0.2f}, {0.2f, 0.3f, 0.95f},
                                      {0.95f, 0.9f, 0.2f}, {0.9f, 0.3f, 0.9f}, {0.2f, 0.9f, 0.9f}};
    static const float corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int f = 0; f < 6; f++) {
        for (int c = 0; c < 4; c++) {
            struct gl_mesh_vertex *p = &v[4 * f + c];
            for (int k = 0; k < 3; k++) {
                p->pos[k] = face[f][0][k] + corner[c][0] * face[f][1][k] + corner[c][1] * face[f][2][k];
                p->normal[k] = face[f][0][k];
                p->color[k] = color[f][k];
            }
        }
        static const int tri[6] = {0, 1, 2, 0, 2, 3};
        for (int k = 0; k < 6; k++)
            idx[6 * f + k] = (uint16_t)(4 * f + tri[k]);
    }
}

#define GL_PI 3.14159265358979f

/* Frame `frame` of the rotating cube (320x240, 24 frames a turn). */
static inline bool gl_cube_frame(struct gl_lit *l, const char *shader_dir, unsigned frame,
                                 struct gl_mesh_vertex v[24], uint16_t idx[36])
{
    gl_cube_mesh(v, idx);
    float mvp[16], model[16];
    float a = 2.0f * GL_PI * (float)frame / 24.0f;
    gl_mvp(mvp, model, a, 0.5f + a / 3.0f, 0.0f, 0.0f, -4.5f, GL_PI / 3.0f, 320.0f / 240.0f, 1.0f, 10.0f);
    const float light[3] = {0.408248f, 0.816497f, 0.408248f};
    return gl_lit_init(l, shader_dir, v, 24, idx, 36, 320, 240, mvp, model, light);
}

/* The near-plane scene: a floor (y = -0.3) from 3 units behind the camera
 * to 12 in front of it, red/yellow at the back edge, blue/cyan far away,
 * seen from the origin: its triangles cross the near plane (z = -1) inside
 * the view (near rectangle |y| <= tan 30 = 0.577), so the floor ends at
 * the near plane's line, NDC y = -0.3 x 1.732 = -0.52 (frame row 182 of
 * 240), with the background below it. */
static inline bool gl_near_clip_scene(struct gl_lit *l, const char *shader_dir, struct gl_mesh_vertex v[4],
                                      uint16_t idx[6])
{
    static const struct gl_mesh_vertex q[4] = {
        {{-3, -0.3f, 3}, {0, 1, 0}, {1, 0.1f, 0.1f}},
        {{3, -0.3f, 3}, {0, 1, 0}, {1, 0.9f, 0.1f}},
        {{3, -0.3f, -12}, {0, 1, 0}, {0.1f, 0.9f, 1}},
        {{-3, -0.3f, -12}, {0, 1, 0}, {0.1f, 0.1f, 1}},
    };
    memcpy(v, q, sizeof q);
    static const uint16_t t[6] = {0, 1, 2, 0, 2, 3};
    memcpy(idx, t, sizeof t);
    float mvp[16], model[16];
    gl_mvp(mvp, model, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, GL_PI / 3.0f, 320.0f / 240.0f, 1.0f, 20.0f);
    const float light[3] = {0.0f, 1.0f, 0.0f};
    return gl_lit_init(l, shader_dir, v, 4, idx, 6, 320, 240, mvp, model, light);
}

/* A lit sphere of stacks x slices quads (2 x stacks x slices triangles:
 * 50 x 100 gives the bench's 10,000), radius 1.2, coloured by latitude. */
static inline void gl_sphere_mesh(struct gl_mesh_vertex *v, uint16_t *idx, unsigned stacks, unsigned slices)
{
    for (unsigned i = 0; i <= stacks; i++)
        for (unsigned j = 0; j <= slices; j++) {
            float th = GL_PI * (float)i / (float)stacks, ph = 2.0f * GL_PI * (float)j / (float)slices;
            struct gl_mesh_vertex *p = &v[i * (slices + 1) + j];
            p->normal[0] = sinf(th) * cosf(ph);
            p->normal[1] = cosf(th);
            p->normal[2] = sinf(th) * sinf(ph);
            for (int k = 0; k < 3; k++)
                p->pos[k] = 1.2f * p->normal[k];
            float t = (float)i / (float)stacks;
            p->color[0] = 1.0f - t;
            p->color[1] = 0.4f + 0.5f * (float)(j % 2);
            p->color[2] = t;
        }
    unsigned n = 0;
    for (unsigned i = 0; i < stacks; i++)
        for (unsigned j = 0; j < slices; j++) {
            uint16_t a = (uint16_t)(i * (slices + 1) + j), b = (uint16_t)(a + slices + 1);
            const uint16_t t6[6] = {a, b, (uint16_t)(a + 1), (uint16_t)(a + 1), b, (uint16_t)(b + 1)};
            memcpy(idx + n, t6, sizeof t6);
            n += 6;
        }
}

#endif
