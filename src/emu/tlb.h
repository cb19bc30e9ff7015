/*
 * tlb.h - the tile buffer (TLB): colour and Z/stencil storage for the tile
 * being rendered, per sample; the fragment shaders' TLB writes land here,
 * and the rendering list's load/store packets move it to and from memory.
 *
 * Hardware rules (../shared/reference/v3d-hardware-facts.md):
 *  - tile size: 64x64 pixels, 32x32 with multisample 4x (4 samples per
 *    pixel); the 64-bit (HDR) colour mode halves it [?] (facts §4.3, §13).
 *    The size comes from vc4_ptb_tile_size() so that the binner and the
 *    renderer always agree.  Every mode holds 4096 samples.
 *  - Clear Colors (114): two copies of an RGBA8888 colour (or one
 *    RGBA16161616), 24-bit clear Z, clear VG mask, clear stencil (facts §1).
 *  - stores clear the buffers they do not have the disable-clear bit for
 *    (facts §3.3, kernel render CL); loads are queued until the next Tile
 *    Coordinates (that sequencing is the control-list thread's, ctl.c).
 *  - depth test: Configuration Bits 14:12 (never < == <= > != >= always),
 *    Z updates when bit 15 is set (facts §3.4); Z is a 24-bit unsigned
 *    integer (facts §9).
 *
 * vc4kit's choices where no open source says (marked UNVERIFIED in tlb.c
 * and documented in docs/rendering.md): the Z/stencil word layout (Z in
 * bits 31:8, stencil 7:0), the BGR565 bit order and dither matrix, the
 * resolve rounding, the full-resolution dump order.
 */
#ifndef VC4_EMU_TLB_H
#define VC4_EMU_TLB_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/mem.h"
#include "vc4kit/tex.h"

#define VC4_TLB_MAX_DIM 64u      /* pixels, either direction */
#define VC4_TLB_MAX_SAMPLES 4u
#define VC4_TLB_ENTRIES 4096u    /* samples in every mode: 64x64x1 or 32x32x4 */
#define VC4_TLB_FULL_DUMP_BYTES (VC4_TLB_ENTRIES * 4u) /* one buffer of a full-res dump */
#define VC4_TLB_Z_MAX 0xFFFFFFu  /* 24-bit Z */

/* Pixel formats of the memory side of a load or store. */
enum vc4_tlb_pixfmt {
    VC4_TLB_PF_RGBA8888,      /* byte 0 red ... byte 3 alpha */
    VC4_TLB_PF_BGR565_DITHER, /* u16: red 15:11, green 10:5, blue 4:0, ordered dither */
    VC4_TLB_PF_BGR565,        /* the same, truncated */
    VC4_TLB_PF_ZS,            /* u32: Z 31:8, stencil 7:0 */
    VC4_TLB_PF_Z,             /* u32: Z 31:8; stores keep memory's stencil byte */
};

struct vc4_tlb {
    unsigned tile_w, tile_h; /* pixels */
    unsigned samples;        /* 1, or 4 with multisample 4x */
    bool ms, bit64;

    /* Clear Colors (114) */
    uint32_t clear_color;    /* RGBA8888 (low word of the 64-bit field) */
    uint32_t clear_color_hi;
    uint32_t clear_z;        /* 24 bits */
    uint8_t clear_stencil, clear_vg;

    /* TLB_STENCIL_SETUP and alpha-mask writes: kept for the stencil work
     * (GL issue); not applied yet */
    uint32_t stencil_setup;
    uint32_t alpha_mask;

    /* [y][x][sample], compact for the current mode (vc4_tlb_index) */
    uint32_t color[VC4_TLB_ENTRIES]; /* RGBA8888, byte 0 red */
    uint32_t zs[VC4_TLB_ENTRIES];    /* Z in bits 31:8, stencil in 7:0 */
    uint8_t vg[VC4_TLB_ENTRIES];     /* VG mask (kept, not used by GL) */
};

void vc4_tlb_reset(struct vc4_tlb *t);
/* Tile Rendering Mode Configuration: the tile size and samples per pixel. */
void vc4_tlb_configure(struct vc4_tlb *t, bool ms, bool bit64);
/* Clear the buffers selected to the clear values. */
void vc4_tlb_clear(struct vc4_tlb *t, bool color, bool zs, bool vg);

static inline unsigned vc4_tlb_index(const struct vc4_tlb *t, unsigned x, unsigned y, unsigned s)
{
    return (y * t->tile_w + x) * t->samples + s;
}

/* Depth test (Configuration Bits depth function, 0..7) of a new 24-bit Z
 * against the buffer's. */
static inline bool vc4_tlb_depth_pass(unsigned func, uint32_t z, uint32_t zbuf)
{
    switch (func & 7) {
    case 0: return false;
    case 1: return z < zbuf;
    case 2: return z == zbuf;
    case 3: return z <= zbuf;
    case 4: return z > zbuf;
    case 5: return z != zbuf;
    case 6: return z >= zbuf;
    default: return true;
    }
}

/* ---- memory transfers ---------------------------------------------------- */

/* One load or store between the tile buffer and a frame in memory. */
struct vc4_tlb_xfer {
    uint32_t addr;           /* frame base (the tile's offset is added) */
    unsigned frame_w, frame_h; /* pixels (Tile Rendering Mode Configuration) */
    unsigned tile_x, tile_y; /* Tile Coordinates */
    enum vc4_tex_layout layout;
    enum vc4_tlb_pixfmt fmt;
    bool resolve;            /* store: average the 4 samples (decimate 4x) */
};

enum vc4_tlb_result {
    VC4_TLB_OK,
    VC4_TLB_FAULT,       /* a byte outside memory (*bad = its bus address); the
                          * rest of the transfer still happened */
    VC4_TLB_UNSUPPORTED, /* a frame vc4kit's tiling maths cannot place (wider
                          * or taller than 2048) */
};

/* Store the colour (fmt RGBA8888/BGR565*) or Z/stencil (ZS/Z) buffer of
 * the tile to the frame; pixels outside the frame are not written. */
enum vc4_tlb_result vc4_tlb_store(const struct vc4_tlb *t, struct vc4_mem *m,
                                  const struct vc4_tlb_xfer *x, uint32_t *bad);
/* Load the tile's part of a frame into the colour or Z/stencil buffer (all
 * samples of a pixel get the pixel's value). */
enum vc4_tlb_result vc4_tlb_load(struct vc4_tlb *t, const struct vc4_mem *m,
                                 const struct vc4_tlb_xfer *x, uint32_t *bad);

/* Full-resolution dump / reload of this tile (packets 26, 27): every
 * sample, as 32-bit words in the buffer order [y][x][sample]: colour at
 * addr, Z/stencil at addr + VC4_TLB_FULL_DUMP_BYTES when both are moved,
 * else at addr (vc4kit's layout, UNVERIFIED). */
enum vc4_tlb_result vc4_tlb_store_full(const struct vc4_tlb *t, struct vc4_mem *m, uint32_t addr,
                                       bool color, bool zs, uint32_t *bad);
enum vc4_tlb_result vc4_tlb_load_full(struct vc4_tlb *t, const struct vc4_mem *m, uint32_t addr,
                                      bool color, bool zs, uint32_t *bad);

/* Pixel conversions (exported for tests and the tools). */
uint16_t vc4_tlb_rgba_to_565(uint32_t rgba, bool dither, unsigned x, unsigned y);
uint32_t vc4_tlb_565_to_rgba(uint16_t v);
/* Average of four RGBA8888 samples, per channel, rounded half up. */
uint32_t vc4_tlb_resolve4(const uint32_t *s);

#endif
