/*
 * fuzz_render.c - random binning and rendering lists on CT0 and CT1 under
 * a small cycle budget, with a valid scene (fragment shader, uniforms, NV
 * shader record, vertices) already in memory for them to use: the
 * control-list threads, the binner, the tile buffer, the rasteriser and the
 * fragment shading must never crash, hang or touch host memory.
 *
 * Input: byte 0 flags (bit 0 strict, bits 2:1 QPUs - 1, bit 3 the QPU
 * profiler: its entries must be shaders', never a user program's (none is
 * queued; a list that sets GL shader state runs vertex shading), and
 * account for every sample), bytes 1-2 the
 * binning list's length (little-endian, clamped), then the binning list,
 * then the rendering list.
 */
#include <stdint.h>
#include <string.h>

#include "vc4kit/emu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum {
    MEM = 1u << 20,
    BIN = 0x1000,
    RENDER = 0x6000,
    MAX_LIST = 0x5000,
    FS = 0x10000,
    UNIF = 0x11000,
    RECORD = 0x12000,
    VERTS = 0x13000,
};

/* The uniform-colour fragment shader of examples/nv_triangle.qasm. */
static const uint32_t fs_words[] = {
    0x20820df7, 0xd14059e5, 0x20820037, 0xd15059e5, 0x20820037, 0xd16059e5, 0x20820037, 0xd17059e5,
    0x159e7b40, 0x10020ba7, 0x009e7000, 0x300009e7, 0x009e7000, 0x100009e7, 0x009e7000, 0x500009e7,
};

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    struct vc4_emu_options o = {.mem_size = MEM, .num_qpus = 1u + ((data[0] >> 1) & 3u),
                                .strict = data[0] & 1, .max_cycles = 20000, .profile = data[0] & 8};
    struct vc4_emu *e = vc4_emu_create(&o);
    if (!e)
        return 0;
    /* the scene */
    uint8_t b[64];
    for (size_t i = 0; i < sizeof fs_words / sizeof fs_words[0]; i++)
        put32(b + 4 * (i % 16), fs_words[i]);
    vc4_emu_mem_write(e, FS, b, sizeof fs_words);
    const uint32_t unif[4] = {0, 0x3f800000u, 0, 0x3f800000u};
    for (int i = 0; i < 4; i++)
        put32(b + 4 * i, unif[i]);
    vc4_emu_mem_write(e, UNIF, b, 16);
    const uint32_t rec[4] = {0x00000c00u, FS, UNIF, VERTS}; /* threaded, stride 12, no varyings */
    for (int i = 0; i < 4; i++)
        put32(b + 4 * i, rec[i]);
    vc4_emu_mem_write(e, RECORD, b, 16);
    const int16_t xy[3][2] = {{32 * 16, 4 * 16}, {4 * 16, 60 * 16}, {60 * 16, 60 * 16}};
    for (int i = 0; i < 3; i++) {
        put32(b + 12 * i, (uint16_t)xy[i][0] | (uint32_t)(uint16_t)xy[i][1] << 16);
        put32(b + 12 * i + 4, 0x3f800000u);
        put32(b + 12 * i + 8, 0x3f800000u);
    }
    vc4_emu_mem_write(e, VERTS, b, 36);

    /* the lists */
    size_t nbin = (size_t)data[1] | (size_t)data[2] << 8;
    const uint8_t *p = data + 3;
    size_t left = size - 3;
    if (nbin > left)
        nbin = left;
    if (nbin > MAX_LIST)
        nbin = MAX_LIST;
    size_t nren = left - nbin;
    if (nren > MAX_LIST)
        nren = MAX_LIST;
    vc4_emu_mem_write(e, BIN, p, nbin);
    vc4_emu_mem_write(e, RENDER, p + nbin, nren);
    vc4_emu_reg_write(e, VC4_V3D_CT0CA, BIN);
    vc4_emu_reg_write(e, VC4_V3D_CT0EA, BIN + (uint32_t)nbin);
    vc4_emu_run(e, 0);
    vc4_emu_reg_write(e, VC4_V3D_CT1CA, RENDER);
    vc4_emu_reg_write(e, VC4_V3D_CT1EA, RENDER + (uint32_t)nren);
    vc4_emu_run(e, 0);
    /* the frame, whatever it is */
    struct vc4_emu_frame f;
    vc4_emu_render_frame(e, &f);
    if (f.valid && f.width && f.height && (uint64_t)f.width * f.height <= 4096) {
        uint8_t rgba[4096 * 4];
        vc4_emu_read_frame(e, &f, rgba);
    }
    if (o.profile) {
        struct vc4_emu_profile_entry pe[256];
        struct vc4_emu_profile_totals t;
        size_t n = vc4_emu_profile(e, pe, 256, &t);
        uint64_t sum = t.dropped;
        for (size_t i = 0; n <= 256 && i < n; i++) {
            sum += pe[i].issuing + pe[i].stalled + pe[i].blocked;
            if (pe[i].kind == VC4_EMU_PROG_USER || pe[i].kind >= VC4_EMU_PROG_KINDS)
                __builtin_trap();
        }
        if (n <= 256 && sum != t.samples)
            __builtin_trap();
        char text[256];
        vc4_emu_profile_report(e, 4, NULL, text, sizeof text, NULL);
    }
    vc4_emu_destroy(e);
    return 0;
}
