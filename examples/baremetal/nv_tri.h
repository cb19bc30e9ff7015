/*
 * nv_tri.h - seed 002/004's NV-mode triangle with per-vertex colours, as
 * the ARM sets it up in memory (nv_colors.c, irq_v3d.c): the varyings
 * fragment shader, three vertices of 24 bytes (X, Y in 12.4 fixed point,
 * Z, 1/W, then the R, G, B varyings) and the NV shader state record.
 */
#ifndef BM_NV_TRI_H
#define BM_NV_TRI_H

#include "bm.h"

/* The varyings fragment shader of examples/nv_scene.h (sc_fs_varyings),
 * as `vc4kit as --hex` encodes it: R, G, B = V * W + C (seed 004's
 * 0x203E3DF7, 0x110059E0 and 0x213E3177, 0x11024821), packed into ra1 with
 * the mul ALU's .8a-.8d packs, then TLB_COLOUR_ALL. */
static const uint32_t fs_varyings[] = {
    0x203e3df7, 0x110059e0, 0x213e3177, 0x11024821, 0x213e3377, 0x10024862, 0x219e0547, 0xd1425881,
    0x209e000f, 0xd15059c1, 0x209e0017, 0xd16059c1, 0x209e003f, 0xd17059c1, 0x009e7000, 0x100009e7,
    0x15067d80, 0x10020ba7, 0x009e7000, 0x300009e7, 0x009e7000, 0x100009e7, 0x009e7000, 0x500009e7,
};

struct vertex { uint16_t x16, y16; float z, inv_w, r, g, b; };

/* The shader at W_SHADER, the vertices at W_VERTS, the record at W_RECORD. */
static inline void nv_tri_setup(const struct vertex tri[3])
{
    copy_words(W_SHADER, fs_varyings, sizeof fs_varyings / 4);
    for (unsigned i = 0; i < 3; i++) {
        uint8_t *v = W_VERTS + 24 * i;
        v[0] = (uint8_t)tri[i].x16, v[1] = (uint8_t)(tri[i].x16 >> 8);
        v[2] = (uint8_t)tri[i].y16, v[3] = (uint8_t)(tri[i].y16 >> 8);
        put32(v + 4, fbits(tri[i].z));
        put32(v + 8, fbits(tri[i].inv_w));
        put32(v + 12, fbits(tri[i].r));
        put32(v + 16, fbits(tri[i].g));
        put32(v + 20, fbits(tri[i].b));
    }
    /* NV shader state record (seed 002): flags 0 (threaded), stride 24,
     * 0 uniforms, 3 varyings, shader, uniforms, vertices */
    uint8_t *rec = W_RECORD;
    rec[0] = 0, rec[1] = 24, rec[2] = 0, rec[3] = 3;
    put32(rec + 4, BUS(W_SHADER));
    put32(rec + 8, 0);
    put32(rec + 12, BUS(W_VERTS));
}

/* The binning list of the triangle, as bin_begin / bin_end frame it. */
static inline void nv_tri_bin(struct cl *bin, const struct fb *fb)
{
    bin_begin(bin, fb->width, fb->height);
    cl_u8(bin, 65); /* NV Shader State */
    cl_u32(bin, BUS(W_RECORD));
    bin_end(bin, 3);
}

#endif
