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
 *
 * TLB_STENCIL_SETUP (QPU waddr 43), Mesa vc4_state.c / vc4_program.c (the
 * driver that runs the hardware):
 *
 *   31 30 | 29 28  | 27 25 | 24 22 | 21 19 | 18 16 | 15      8 | 7        0
 *   select| wmask  | zfail | zpass | fail  | func  | reference | value mask
 *
 *   select  0: a write-mask word: bits 7:0 front write mask, 15:8 back
 *           1: front config, 2: back config, 3: front and back config
 *   wmask   write mask of a config word: 0 = 0x01, 1 = 0x03, 2 = 0x0F,
 *           3 = 0xFF (other masks: a write-mask word after the configs)
 *   ops     0 zero, 1 keep, 2 replace, 3 incr (saturate), 4 decr (saturate),
 *           5 invert, 6 incr wrap, 7 decr wrap
 *   func    0 never, 1 <, 2 ==, 3 <=, 4 >, 5 !=, 6 >=, 7 always:
 *           (reference & value mask) FUNC (stencil & value mask), as GL
 * Mesa writes the front (or front-and-back) word, then the back word, then
 * the write-mask word when a mask has no code, every thread (so the setup
 * is per fragment-shader thread: a thread that writes none has no stencil
 * test; UNVERIFIED but the only reading of Mesa that works).
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
    bool zs_full_reload; /* the Z/stencil buffer came from a full-resolution
                          * reload since its last clear (HW-2905, fsi.c) */

    /* Clear Colors (114) */
    uint32_t clear_color;    /* RGBA8888 (low word of the 64-bit field) */
    uint32_t clear_color_hi;
    uint32_t clear_z;        /* 24 bits */
    uint8_t clear_stencil, clear_vg;

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

/* The Z/stencil word of a sample (UNVERIFIED layout, kept in one place):
 * Z in bits 31:8, stencil in 7:0. */
#define VC4_TLB_ZS_Z_SHIFT 8u
#define VC4_TLB_ZS_STENCIL_MASK 0xFFu
static inline uint32_t vc4_tlb_zs_word(uint32_t z, uint32_t stencil)
{
    return (z & VC4_TLB_Z_MAX) << VC4_TLB_ZS_Z_SHIFT | (stencil & VC4_TLB_ZS_STENCIL_MASK);
}
static inline uint32_t vc4_tlb_zs_z(uint32_t w) { return w >> VC4_TLB_ZS_Z_SHIFT; }
static inline uint32_t vc4_tlb_zs_stencil(uint32_t w) { return w & VC4_TLB_ZS_STENCIL_MASK; }

/* Compare functions of the depth test (Configuration Bits 14:12) and of
 * the stencil test (TLB_STENCIL_SETUP 18:16): the same encoding. */
enum vc4_tlb_func {
    VC4_TLB_NEVER,
    VC4_TLB_LESS,
    VC4_TLB_EQUAL,
    VC4_TLB_LEQUAL,
    VC4_TLB_GREATER,
    VC4_TLB_NOTEQUAL,
    VC4_TLB_GEQUAL,
    VC4_TLB_ALWAYS,
};

/* a FUNC b. */
bool vc4_tlb_compare(unsigned func, uint32_t a, uint32_t b);

/* Depth test (Configuration Bits depth function, 0..7) of a new 24-bit Z
 * against the buffer's. */
static inline bool vc4_tlb_depth_pass(unsigned func, uint32_t z, uint32_t zbuf)
{
    return vc4_tlb_compare(func, z, zbuf);
}

/* ---- stencil -------------------------------------------------------------- */

enum vc4_tlb_stencil_op {
    VC4_TLB_SOP_ZERO,
    VC4_TLB_SOP_KEEP,
    VC4_TLB_SOP_REPLACE,
    VC4_TLB_SOP_INCR,      /* saturating */
    VC4_TLB_SOP_DECR,      /* saturating */
    VC4_TLB_SOP_INVERT,
    VC4_TLB_SOP_INCR_WRAP,
    VC4_TLB_SOP_DECR_WRAP,
};

/* One face's stencil state. */
struct vc4_tlb_stencil_face {
    uint8_t func, ref, value_mask, write_mask;
    uint8_t op_fail, op_zfail, op_zpass; /* enum vc4_tlb_stencil_op */
};
/* A fragment-shader thread's stencil state: face 0 front (forward-facing),
 * face 1 back (reverse-facing, REV_FLAG = 1). */
struct vc4_tlb_stencil {
    bool enabled; /* a config word was written */
    struct vc4_tlb_stencil_face face[2];
};

/* Apply one TLB_STENCIL_SETUP write. */
void vc4_tlb_stencil_setup(struct vc4_tlb_stencil *st, uint32_t word);
/* The stencil operation's result for the stored value s. */
uint8_t vc4_tlb_stencil_op(unsigned op, uint8_t s, uint8_t ref);

/* The per-sample tests of the TLB: stencil (when sf is not NULL), then
 * depth, then the stencil operation (fail / zfail / zpass, through the
 * write mask) and the Z update (z_update, only where both passed).
 * *zs is the sample's Z/stencil word, updated in place; returns whether the
 * sample passed both tests; *stencil_failed tells which test failed. */
bool vc4_tlb_zs_test(unsigned depth_func, bool z_update, const struct vc4_tlb_stencil_face *sf,
                     uint32_t z, uint32_t *zs, bool *stencil_failed);

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

/*
 * Full-resolution dump / reload of this tile (packets 26, 27): every
 * sample as a 32-bit word, colour at addr, Z/stencil at addr +
 * VC4_TLB_FULL_DUMP_BYTES when both are moved, else at addr.  With 4x
 * multisampling (32x32 tiles) the words are in 2x2-pixel quads of 64
 * bytes, the quads row by row (16 a row), and in a quad the word of sample
 * s of pixel (x, y) at s * 16 + (y & 1) * 8 + (x & 1) * 4
 * (vc4_tlb_full_offset).  Evidence: Mesa reads its multisample surfaces,
 * which it stores with packet 26, with TMU general lookups at exactly
 * those addresses (vc4_nir_lower_txf_ms.c: "MSAA textures are laid out as
 * 32x32-aligned blocks"), and its MSAA resolves are right on Pi 3s
 * (piglit's gl-1.0-logicop MSAA cases pass in Mesa's CI; vc4kit's earlier
 * [y][x][sample] order failed them).  Single-sample dumps keep the order
 * [y][x] (UNVERIFIED; nothing known uses them).
 */
static inline uint32_t vc4_tlb_full_offset(const struct vc4_tlb *t, unsigned x, unsigned y, unsigned s)
{
    if (t->samples == 1)
        return 4u * (y * t->tile_w + x);
    uint32_t quad = (y >> 1) * (t->tile_w >> 1) + (x >> 1);
    return quad * 4u * 4u * t->samples + s * 16u + (y & 1u) * 8u + (x & 1u) * 4u;
}
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
