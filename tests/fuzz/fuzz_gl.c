/*
 * fuzz_gl.c - GL mode under random records: a valid GL scene (seed 000's
 * pass-through vertex and coordinate shaders, two attribute streams, a
 * uniform-colour fragment shader) whose GL shader record, packet 64 bits,
 * primitive packet, indices, attribute data and (optionally) shader code
 * are XORed with the input, run through CT0 (coordinate shading, binning)
 * and CT1 (vertex shading, rendering) under a small cycle budget: the VCD,
 * the batches on the QPUs, the VPM windows and rules, the clipper and the
 * renderer must never crash, hang or touch host memory.
 *
 * Input (all optional; missing bytes are 0 = the valid scene):
 *   0      flags: bit 0 strict, bits 2:1 QPUs - 1, bit 3 extended record,
 *          bit 4 XOR the vertex shader's code, bit 5 the coordinate shader's,
 *          bit 6 indexed primitives, bit 7 8-bit indices
 *   1      packet 64's attribute-array count (low 3 bits, XOR 2)
 *   2      primitive mode (XOR 4: triangles), 3 length (XOR 3), 4 first index
 *   5..    record (132 bytes), then indices (64), attribute data (256),
 *          VPMBASE (1), shader code (256)
 */
#include <stdint.h>
#include <string.h>

#include "gl_seed_shaders.h"
#include "vc4kit/cl.h"
#include "vc4kit/emu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum {
    MEM = 1u << 20,
    BIN = 0x1000,
    RENDER = 0x3000,
    FS = 0x10000,
    UNIF = 0x10100,
    VS = 0x10200,
    CS = 0x10400,
    RECORD = 0x11000,
    INDICES = 0x11100,
    VDATA = 0x12000,
    TILE_ALLOC = 0x20000,
    TSDA = 0x40000,
    FB = 0x50000,
    W = 128,
    H = 128,
    REC_BYTES = 132,
    IDX_BYTES = 64,
    VDATA_BYTES = 256,
    CODE_BYTES = 256,
};

/* The uniform-colour fragment shader of examples/nv_triangle.qasm. */
static const uint32_t fs_words[] = {
    0x20820df7, 0xd14059e5, 0x20820037, 0xd15059e5, 0x20820037, 0xd16059e5, 0x20820037, 0xd17059e5,
    0x159e7b40, 0x10020ba7, 0x009e7000, 0x300009e7, 0x009e7000, 0x100009e7, 0x009e7000, 0x500009e7,
};
struct input {
    const uint8_t *d;
    size_t n, pos;
};

/* The next byte of the input (0 past its end). */
static uint8_t next(struct input *in)
{
    return in->pos < in->n ? in->d[in->pos++] : 0;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static void put_words(struct vc4_emu *e, uint32_t addr, const uint32_t *w, size_t n, struct input *in, bool x)
{
    uint8_t b[CODE_BYTES];
    memset(b, 0, sizeof b);
    for (size_t i = 0; i < n; i++)
        put32(b + 4 * i, w[i]);
    if (x)
        for (size_t i = 0; i < sizeof b; i++)
            b[i] ^= next(in);
    vc4_emu_mem_write(e, addr, b, sizeof b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct input in = {data, size, 0};
    uint8_t flags = next(&in);
    struct vc4_emu_options o = {.mem_size = MEM, .num_qpus = 1u + ((flags >> 1) & 3u), .strict = flags & 1,
                                .max_cycles = 200000};
    struct vc4_emu *e = vc4_emu_create(&o);
    if (!e)
        return 0;
    unsigned narrays = (next(&in) ^ 2u) & 7u;
    unsigned mode = next(&in) ^ 4u, length = next(&in) ^ 3u, first = next(&in);
    bool extended = flags & 8, indexed = flags & 64, idx8 = flags & 128;

    /* the record: seed 000's streams (12-byte PSE format, 28-byte PTB format) */
    struct vc4_cl_gl_shader_record rec = {
        .enable_clipping = true, .fs_code_addr = FS, .fs_uniforms_addr = UNIF,
        .vs_attr_select = 1, .vs_attr_size = 12, .vs_code_addr = VS, .vs_uniforms_addr = UNIF,
        .cs_attr_select = 2, .cs_attr_size = 28, .cs_code_addr = CS, .cs_uniforms_addr = UNIF,
    };
    struct vc4_cl_attr_record attrs[8] = {{VDATA, 11, 12, 0, 0}, {VDATA + 64, 27, 28, 0, 0}};
    for (int i = 2; i < 8; i++)
        attrs[i] = attrs[i & 1];
    uint8_t rb[REC_BYTES];
    memset(rb, 0, sizeof rb);
    struct vc4_cl_ext_stride ext[8] = {{0}};
    vc4_cl_gl_shader_record_pack(&rec, attrs, 8, ext, rb, vc4_cl_gl_record_size(8, true), NULL);
    for (size_t i = 0; i < sizeof rb; i++)
        rb[i] ^= next(&in);
    vc4_emu_mem_write(e, RECORD, rb, sizeof rb);

    uint8_t idx[IDX_BYTES];
    for (size_t i = 0; i < sizeof idx; i++)
        idx[i] = (uint8_t)((idx8 ? i % 3 : i % 2 ? 0 : (i / 2) % 3) ^ next(&in));
    vc4_emu_mem_write(e, INDICES, idx, sizeof idx);

    /* three vertices of a triangle (seed scene scaled to the frame) */
    uint8_t vd[VDATA_BYTES];
    memset(vd, 0, sizeof vd);
    static const int xy[3][2] = {{64, 8}, {8, 120}, {120, 120}};
    for (int i = 0; i < 3; i++) {
        uint8_t *v = vd + 12 * i, *c = vd + 64 + 28 * i;
        put32(v, (uint32_t)(xy[i][0] * 16) | (uint32_t)(xy[i][1] * 16) << 16);
        put32(v + 4, f2u(0.5f));
        put32(v + 8, f2u(1.0f));
        put32(c, f2u(xy[i][0] / 64.0f - 1.0f));
        put32(c + 4, f2u(1.0f - xy[i][1] / 64.0f));
        put32(c + 8, f2u(0.0f));
        put32(c + 12, f2u(1.0f));
        memcpy(c + 16, v, 12);
    }
    for (size_t i = 0; i < sizeof vd; i++)
        vd[i] ^= next(&in);
    vc4_emu_mem_write(e, VDATA, vd, sizeof vd);
    vc4_emu_reg_write(e, VC4_V3D_VPMBASE, next(&in) & 0x1Fu);

    put_words(e, FS, fs_words, sizeof fs_words / 4, &in, false);
    put_words(e, VS, gl_seed_vs_words, sizeof gl_seed_vs_words / 4, &in, flags & 16);
    put_words(e, CS, gl_seed_cs_words, sizeof gl_seed_cs_words / 4, &in, flags & 32);
    uint8_t u[16];
    const uint32_t unif[4] = {0, 0x3f800000u, 0, 0x3f800000u};
    for (int i = 0; i < 4; i++)
        put32(u + 4 * i, unif[i]);
    vc4_emu_mem_write(e, UNIF, u, sizeof u);

    /* binning list */
    struct vc4_cl cl;
    vc4_cl_init(&cl, NULL, BIN, NULL);
    struct vc4_cl_tile_binning_mode_config bc = {
        .tile_alloc_addr = TILE_ALLOC, .tile_alloc_size = 0x10000, .tsda_addr = TSDA, .width_tiles = 2,
        .height_tiles = 2, .auto_init_tsda = true, .initial_block_size = VC4_CL_BLOCK_32,
        .block_size = VC4_CL_BLOCK_32,
    };
    vc4_cl_tile_binning_mode_config(&cl, &bc);
    vc4_cl_start_tile_binning(&cl);
    struct vc4_cl_clip_window cw = {0, 0, W, H};
    vc4_cl_clip_window(&cl, &cw);
    struct vc4_cl_configuration_bits cb = {.enable_forward_facing = true, .enable_reverse_facing = true,
                                           .depth_func = VC4_CL_DEPTH_ALWAYS};
    vc4_cl_configuration_bits(&cl, &cb);
    struct vc4_cl_point_size ps = {4.0f};
    vc4_cl_point_size(&cl, &ps);
    struct vc4_cl_line_width lw = {2.0f};
    vc4_cl_line_width(&cl, &lw);
    struct vc4_cl_clipper_xy_scaling xys = {W * 8.0f, H * -8.0f};
    vc4_cl_clipper_xy_scaling(&cl, &xys);
    struct vc4_cl_clipper_z_scaling zs = {0.5f, 0.5f};
    vc4_cl_clipper_z_scaling(&cl, &zs);
    struct vc4_cl_z_clipping_planes zc = {0.0f, 1.0f};
    vc4_cl_z_clipping_planes(&cl, &zc);
    uint8_t gs[5] = {VC4_CL_GL_SHADER_STATE, 0, 0, 0, 0};
    put32(gs + 1, RECORD | (extended ? 8u : 0u) | narrays);
    vc4_cl_bytes(&cl, gs, sizeof gs);
    if (indexed) {
        uint8_t p[14] = {VC4_CL_INDEXED_PRIMITIVE_LIST, (uint8_t)((mode & 0xF) | (idx8 ? 0 : 0x10))};
        put32(p + 2, length);
        put32(p + 6, INDICES);
        put32(p + 10, first ^ 2u);
        vc4_cl_bytes(&cl, p, sizeof p);
    } else {
        uint8_t p[10] = {VC4_CL_VERTEX_ARRAY_PRIMITIVES, (uint8_t)mode};
        put32(p + 2, length);
        put32(p + 6, first);
        vc4_cl_bytes(&cl, p, sizeof p);
    }
    vc4_cl_flush(&cl);
    uint32_t bin_end = vc4_cl_addr(&cl);
    vc4_emu_mem_write(e, BIN, cl.data, cl.len);
    vc4_cl_free(&cl);

    /* rendering list */
    vc4_cl_init(&cl, NULL, RENDER, NULL);
    struct vc4_cl_tile_rendering_mode_config rc = {.fb_addr = FB, .width_px = W, .height_px = H,
                                                   .color_format = VC4_CL_FB_RGBA8888};
    vc4_cl_tile_rendering_mode_config(&cl, &rc);
    for (unsigned t = 0; t < 4; t++) {
        struct vc4_cl_tile_coordinates tc = {t % 2, t / 2};
        vc4_cl_tile_coordinates(&cl, &tc);
        struct vc4_cl_branch_to_sub_list br = {TILE_ALLOC + t * 32};
        vc4_cl_branch_to_sub_list(&cl, &br);
        if (t == 3)
            vc4_cl_store_ms_tile_buffer_and_eof(&cl);
        else
            vc4_cl_store_ms_tile_buffer(&cl);
    }
    uint32_t render_end = vc4_cl_addr(&cl);
    vc4_emu_mem_write(e, RENDER, cl.data, cl.len);
    vc4_cl_free(&cl);

    vc4_emu_reg_write(e, VC4_V3D_CT0CA, BIN);
    vc4_emu_reg_write(e, VC4_V3D_CT0EA, bin_end);
    vc4_emu_run(e, 0);
    vc4_emu_reg_write(e, VC4_V3D_CT1CA, RENDER);
    vc4_emu_reg_write(e, VC4_V3D_CT1EA, render_end);
    vc4_emu_run(e, 0);
    vc4_emu_destroy(e);
    return 0;
}
