/*
 * tlb.c - the tile buffer: clears, pixel formats, and the load/store
 * transfers of the rendering list (see tlb.h).
 *
 * Memory layouts come from the one tiling implementation (vc4_tex_geom,
 * include/vc4kit/tex.h): raster, T and LT for 16- and 32-bit pixels.  A
 * frame's pixel (0, 0) is its first pixel in memory and the top-left of the
 * image (the seed posts' NV vertices put y = 32 at the "top").
 */
#include <assert.h>
#include <string.h>

#include "base/base.h"
#include "emu/ptb.h"
#include "emu/tlb.h"
#include "tex/tiling.h"

void vc4_tlb_reset(struct vc4_tlb *t)
{
    memset(t, 0, sizeof *t);
    vc4_tlb_configure(t, false, false);
}

void vc4_tlb_configure(struct vc4_tlb *t, bool ms, bool bit64)
{
    uint32_t w = 64, h = 64;
    vc4_ptb_tile_size(ms, bit64, &w, &h);
    if (w == 0 || h == 0 || w > VC4_TLB_MAX_DIM || h > VC4_TLB_MAX_DIM)
        w = h = VC4_TLB_MAX_DIM / (ms ? 2 : 1);
    t->ms = ms;
    t->bit64 = bit64;
    t->samples = ms ? VC4_TLB_MAX_SAMPLES : 1;
    t->tile_w = w;
    t->tile_h = h;
    if (t->tile_w * t->tile_h * t->samples > VC4_TLB_ENTRIES) /* never with the facts' sizes */
        t->tile_h = VC4_TLB_ENTRIES / (t->tile_w * t->samples);
}

void vc4_tlb_clear(struct vc4_tlb *t, bool color, bool zs, bool vg)
{
    uint32_t zsw = vc4_tlb_zs_word(t->clear_z, t->clear_stencil);
    if (zs)
        t->zs_full_reload = false;
    for (unsigned i = 0; i < VC4_TLB_ENTRIES; i++) {
        if (color)
            t->color[i] = t->clear_color;
        if (zs)
            t->zs[i] = zsw;
        if (vg)
            t->vg[i] = t->clear_vg;
    }
}

/* ---- depth and stencil tests ---------------------------------------------- */

bool vc4_tlb_compare(unsigned func, uint32_t a, uint32_t b)
{
    switch ((enum vc4_tlb_func)(func & 7)) {
    case VC4_TLB_NEVER: return false;
    case VC4_TLB_LESS: return a < b;
    case VC4_TLB_EQUAL: return a == b;
    case VC4_TLB_LEQUAL: return a <= b;
    case VC4_TLB_GREATER: return a > b;
    case VC4_TLB_NOTEQUAL: return a != b;
    case VC4_TLB_GEQUAL: return a >= b;
    default: return true;
    }
}

/* The fields of a TLB_STENCIL_SETUP word (Mesa vc4_state.c
 * tlb_stencil_setup_bits and vc4_create_depth_stencil_alpha_state; the
 * diagram in tlb.h). */
enum ss_field {
    SS_VALUE_MASK,
    SS_REF,
    SS_FUNC,
    SS_OP_FAIL,
    SS_OP_ZPASS,
    SS_OP_ZFAIL,
    SS_WMASK,
    SS_SELECT,
    SS_WMASK_FRONT, /* of a write-mask word (select 0) */
    SS_WMASK_BACK,
    SS_COUNT
};
enum { SS_SELECT_WMASK = 0, SS_SELECT_FRONT = 1, SS_SELECT_BACK = 2 };

static const struct {
    uint8_t shift, width;
} ss_fields[SS_COUNT] = {
    [SS_VALUE_MASK] = {0, 8},
    [SS_REF] = {8, 8},
    [SS_FUNC] = {16, 3},
    [SS_OP_FAIL] = {19, 3},
    [SS_OP_ZPASS] = {22, 3},
    [SS_OP_ZFAIL] = {25, 3},
    [SS_WMASK] = {28, 2},
    [SS_SELECT] = {30, 2},
    [SS_WMASK_FRONT] = {0, 8},
    [SS_WMASK_BACK] = {8, 8},
};
static_assert(VC4_ARRAY_SIZE(ss_fields) == SS_COUNT, "one field per enum value");
static_assert(SS_SELECT == SS_COUNT - 3, "the config word's fields come first");

/* Mesa tlb_stencil_setup_writemask: 0x1 -> 0, 0x3 -> 1, 0xf -> 2, 0xff -> 3 */
static const uint8_t ss_wmask_code[] = {0x01, 0x03, 0x0F, 0xFF};
static_assert(VC4_ARRAY_SIZE(ss_wmask_code) == 1u << 2, "one mask per value of the 2-bit code");

static unsigned ss_get(uint32_t w, enum ss_field f)
{
    return vc4_bits(w, ss_fields[f].shift, ss_fields[f].width);
}

void vc4_tlb_stencil_setup(struct vc4_tlb_stencil *st, uint32_t w)
{
    unsigned sel = ss_get(w, SS_SELECT);
    if (sel == SS_SELECT_WMASK) {
        /* both write masks, overriding the configs' codes (Mesa writes it
         * last) */
        st->face[0].write_mask = (uint8_t)ss_get(w, SS_WMASK_FRONT);
        st->face[1].write_mask = (uint8_t)ss_get(w, SS_WMASK_BACK);
        return;
    }
    struct vc4_tlb_stencil_face f = {
        .func = (uint8_t)ss_get(w, SS_FUNC),
        .ref = (uint8_t)ss_get(w, SS_REF),
        .value_mask = (uint8_t)ss_get(w, SS_VALUE_MASK),
        .write_mask = ss_wmask_code[ss_get(w, SS_WMASK)],
        .op_fail = (uint8_t)ss_get(w, SS_OP_FAIL),
        .op_zfail = (uint8_t)ss_get(w, SS_OP_ZFAIL),
        .op_zpass = (uint8_t)ss_get(w, SS_OP_ZPASS),
    };
    if (sel & SS_SELECT_FRONT)
        st->face[0] = f;
    if (sel & SS_SELECT_BACK)
        st->face[1] = f;
    st->enabled = true;
}

uint8_t vc4_tlb_stencil_op(unsigned op, uint8_t s, uint8_t ref)
{
    switch ((enum vc4_tlb_stencil_op)(op & 7)) {
    case VC4_TLB_SOP_ZERO: return 0;
    case VC4_TLB_SOP_KEEP: return s;
    case VC4_TLB_SOP_REPLACE: return ref;
    case VC4_TLB_SOP_INCR: return s == 0xFF ? s : (uint8_t)(s + 1);
    case VC4_TLB_SOP_DECR: return s == 0 ? s : (uint8_t)(s - 1);
    case VC4_TLB_SOP_INVERT: return (uint8_t)~s;
    case VC4_TLB_SOP_INCR_WRAP: return (uint8_t)(s + 1);
    default: return (uint8_t)(s - 1);
    }
}

bool vc4_tlb_zs_test(unsigned depth_func, bool z_update, const struct vc4_tlb_stencil_face *sf,
                     uint32_t z, uint32_t *zs, bool *stencil_failed)
{
    uint32_t zbuf = vc4_tlb_zs_z(*zs);
    uint8_t s = (uint8_t)vc4_tlb_zs_stencil(*zs);
    *stencil_failed = false;
    bool pass;
    unsigned op = VC4_TLB_SOP_KEEP;
    if (sf && !vc4_tlb_compare(sf->func, sf->ref & sf->value_mask, s & sf->value_mask)) {
        *stencil_failed = true;
        pass = false;
        op = sf->op_fail;
    } else {
        pass = vc4_tlb_depth_pass(depth_func, z, zbuf);
        if (sf)
            op = pass ? sf->op_zpass : sf->op_zfail;
        if (pass && z_update)
            zbuf = z & VC4_TLB_Z_MAX;
    }
    if (sf) {
        uint8_t r = vc4_tlb_stencil_op(op, s, sf->ref);
        s = (uint8_t)((s & ~sf->write_mask) | (r & sf->write_mask));
    }
    *zs = vc4_tlb_zs_word(zbuf, s);
    return pass;
}

/* ---- pixel formats --------------------------------------------------------- */

/*
 * BGR565 (Mesa's RENDER_CONFIG_FORMAT_BGR565 serves PIPE_FORMAT_B5G6R5_UNORM,
 * whose components are named from the least significant bit): blue 4:0,
 * green 10:5, red 15:11 of a little-endian u16.
 *
 * Dither (UNVERIFIED: the guide names the mode but no open source gives the
 * pattern): a 4x4 ordered (Bayer) matrix indexed by the frame pixel
 * position, d = M[y & 3][x & 3] in 0..15; a 5-bit channel is
 * min(31, (c + d/2) >> 3), the 6-bit green min(63, (c + d/4) >> 2).  Without
 * dither the channels are truncated (c >> 3, c >> 2).
 */
static const uint8_t bayer4[4][4] = {
    {0, 8, 2, 10},
    {12, 4, 14, 6},
    {3, 11, 1, 9},
    {15, 7, 13, 5},
};

static unsigned sat_shift(unsigned c, unsigned add, unsigned shift, unsigned max)
{
    unsigned v = (c + add) >> shift;
    return v > max ? max : v;
}

uint16_t vc4_tlb_rgba_to_565(uint32_t rgba, bool dither, unsigned x, unsigned y)
{
    unsigned r = rgba & 0xFF, g = (rgba >> 8) & 0xFF, b = (rgba >> 16) & 0xFF;
    unsigned d = dither ? bayer4[y & 3][x & 3] : 0;
    unsigned r5 = sat_shift(r, d >> 1, 3, 31), g6 = sat_shift(g, d >> 2, 2, 63),
             b5 = sat_shift(b, d >> 1, 3, 31);
    return (uint16_t)(r5 << 11 | g6 << 5 | b5);
}

/* Loads expand by bit replication; alpha is 1.0 (0xFF). */
uint32_t vc4_tlb_565_to_rgba(uint16_t v)
{
    unsigned r5 = v >> 11, g6 = (v >> 5) & 63, b5 = v & 31;
    unsigned r = r5 << 3 | r5 >> 2, g = g6 << 2 | g6 >> 4, b = b5 << 3 | b5 >> 2;
    return (uint32_t)r | (uint32_t)g << 8 | (uint32_t)b << 16 | 0xFF000000u;
}

/* Multisample resolve (decimate 4x): the average of the 4 samples per
 * channel, rounded half up (UNVERIFIED rounding). */
uint32_t vc4_tlb_resolve4(const uint32_t *s)
{
    uint32_t out = 0;
    for (unsigned c = 0; c < 32; c += 8) {
        unsigned sum = ((s[0] >> c) & 0xFF) + ((s[1] >> c) & 0xFF) + ((s[2] >> c) & 0xFF) +
                       ((s[3] >> c) & 0xFF);
        out |= (uint32_t)((sum + 2) >> 2) << c;
    }
    return out;
}

static unsigned fmt_bpp(enum vc4_tlb_pixfmt f)
{
    return f == VC4_TLB_PF_BGR565 || f == VC4_TLB_PF_BGR565_DITHER ? 16 : 32;
}

static bool fmt_is_color(enum vc4_tlb_pixfmt f)
{
    return f != VC4_TLB_PF_ZS && f != VC4_TLB_PF_Z;
}

/* ---- transfers ----------------------------------------------------------------- */

static void note_bad(enum vc4_tlb_result *r, uint32_t *bad, uint32_t addr)
{
    if (*r == VC4_TLB_OK) {
        *r = VC4_TLB_FAULT;
        if (bad)
            *bad = addr;
    }
}

/* The pixel value a store writes for tile pixel (x, y). */
static uint32_t store_value(const struct vc4_tlb *t, const struct vc4_tlb_xfer *x, unsigned px,
                            unsigned py)
{
    unsigned i = vc4_tlb_index(t, px, py, 0);
    if (!fmt_is_color(x->fmt))
        return t->zs[i];
    if (x->resolve && t->samples == VC4_TLB_MAX_SAMPLES)
        return vc4_tlb_resolve4(&t->color[i]);
    return t->color[i]; /* sample 0 */
}

/* The columns of a tile row inside the frame, the row at frame row fy,
 * its first column at fx0 (0: none, and none below it). */
static unsigned row_columns(const struct vc4_tlb *t, const struct vc4_tlb_xfer *x, unsigned fx0, unsigned fy)
{
    if (fx0 >= x->frame_w || fy >= x->frame_h)
        return 0;
    return x->frame_w - fx0 < t->tile_w ? x->frame_w - fx0 : t->tile_w;
}

/* One element of a store at a, the value val of frame pixel (fx, fy). */
static bool store_element(struct vc4_mem *m, const struct vc4_tlb_xfer *x, uint32_t a, uint32_t val, unsigned fx,
                          unsigned fy)
{
    switch (x->fmt) {
    case VC4_TLB_PF_BGR565:
    case VC4_TLB_PF_BGR565_DITHER:
        return vc4_mem_write16(m, a, vc4_tlb_rgba_to_565(val, x->fmt == VC4_TLB_PF_BGR565_DITHER, fx, fy));
    case VC4_TLB_PF_Z: {
        /* Z only: memory's stencil byte is kept (UNVERIFIED) */
        uint32_t old = 0;
        return vc4_mem_read32(m, a, &old) &&
               vc4_mem_write32(m, a, vc4_tlb_zs_word(vc4_tlb_zs_z(val), vc4_tlb_zs_stencil(old)));
    }
    default:
        return vc4_mem_write32(m, a, val);
    }
}

/*
 * Stores and loads walk each tile row in runs of elements that lie one
 * after another in memory (a utile's row, or the whole row of a raster
 * image: vc4_tex_row_run): a run of whole words inside RAM is copied at
 * once; any other run (16-bit pixels, a Z-only store's read-modify-write,
 * a run that leaves RAM) goes element by element, each write or fault the
 * same as alone, in the same order.  (Element by element throughout, the
 * stores were 7% of a lit frame's time.)
 */
enum vc4_tlb_result vc4_tlb_store(const struct vc4_tlb *t, struct vc4_mem *m,
                                  const struct vc4_tlb_xfer *x, uint32_t *bad)
{
    struct vc4_tex_geom g;
    unsigned bpp = fmt_bpp(x->fmt);
    if (!vc4_tex_geom_init(&g, x->layout, bpp, x->frame_w, x->frame_h))
        return VC4_TLB_UNSUPPORTED;
    enum vc4_tlb_result r = VC4_TLB_OK;
    unsigned fx0 = x->tile_x * t->tile_w, fy0 = x->tile_y * t->tile_h;
    bool words = bpp == 32 && x->fmt != VC4_TLB_PF_Z;
    uint32_t val[VC4_TLB_MAX_DIM]; /* (tile_w: vc4_tlb_configure keeps it within) */
    for (unsigned py = 0; py < t->tile_h; py++) {
        unsigned fy = fy0 + py, n = row_columns(t, x, fx0, fy);
        if (n == 0)
            break;
        for (unsigned px = 0; px < n; px++)
            val[px] = store_value(t, x, px, py);
        struct vc4_tex_row_walk row;
        vc4_tex_row_begin(&row, &g, fx0, fy);
        for (unsigned px = 0, run; px < n; px += run) {
            uint32_t a = x->addr + (uint32_t)(vc4_tex_row_run(&row, n - px, &run) >> 3);
            uint8_t *p = words ? vc4_mem_wptr(m, a, 4 * run) : NULL;
            if (p) {
                for (unsigned i = 0; i < run; i++)
                    vc4_st32(p + 4 * i, val[px + i]);
                continue;
            }
            for (unsigned i = 0; i < run; i++) {
                uint32_t ai = a + i * (bpp / 8);
                if (!store_element(m, x, ai, val[px + i], fx0 + px + i, fy))
                    note_bad(&r, bad, ai);
            }
        }
    }
    return r;
}

enum vc4_tlb_result vc4_tlb_load(struct vc4_tlb *t, const struct vc4_mem *m,
                                 const struct vc4_tlb_xfer *x, uint32_t *bad)
{
    struct vc4_tex_geom g;
    unsigned bpp = fmt_bpp(x->fmt);
    if (!vc4_tex_geom_init(&g, x->layout, bpp, x->frame_w, x->frame_h))
        return VC4_TLB_UNSUPPORTED;
    enum vc4_tlb_result r = VC4_TLB_OK;
    unsigned fx0 = x->tile_x * t->tile_w, fy0 = x->tile_y * t->tile_h;
    uint32_t *dst = fmt_is_color(x->fmt) ? t->color : t->zs;
    for (unsigned py = 0; py < t->tile_h; py++) {
        unsigned n = row_columns(t, x, fx0, fy0 + py);
        if (n == 0)
            break;
        struct vc4_tex_row_walk row;
        vc4_tex_row_begin(&row, &g, fx0, fy0 + py);
        for (unsigned px = 0, run; px < n; px += run) {
            uint32_t a = x->addr + (uint32_t)(vc4_tex_row_run(&row, n - px, &run) >> 3);
            const uint8_t *p = bpp == 32 ? vc4_mem_ptr(m, a, 4 * run) : NULL;
            for (unsigned i = 0; i < run; i++) {
                uint32_t val;
                if (p) {
                    val = vc4_le32(p + 4 * i);
                } else if (bpp == 16) {
                    uint16_t h = 0;
                    if (!vc4_mem_read16(m, a + 2 * i, &h)) {
                        note_bad(&r, bad, a + 2 * i);
                        continue;
                    }
                    val = vc4_tlb_565_to_rgba(h);
                } else if (!vc4_mem_read32(m, a + 4 * i, &val)) {
                    note_bad(&r, bad, a + 4 * i);
                    continue;
                }
                unsigned e = vc4_tlb_index(t, px + i, py, 0);
                for (unsigned s = 0; s < t->samples; s++)
                    dst[e + s] = val;
            }
        }
    }
    return r;
}

/* One buffer of a full-resolution dump (tlb.h vc4_tlb_full_offset) to
 * memory at base, or from it. */
static void full_store(const struct vc4_tlb *t, struct vc4_mem *m, uint32_t base, const uint32_t *buf,
                       enum vc4_tlb_result *r, uint32_t *bad)
{
    for (unsigned y = 0; y < t->tile_h; y++)
        for (unsigned x = 0; x < t->tile_w; x++)
            for (unsigned s = 0; s < t->samples; s++) {
                uint32_t a = base + vc4_tlb_full_offset(t, x, y, s);
                if (!vc4_mem_write32(m, a, buf[vc4_tlb_index(t, x, y, s)]))
                    note_bad(r, bad, a);
            }
}

static void full_load(const struct vc4_tlb *t, const struct vc4_mem *m, uint32_t base, uint32_t *buf,
                      enum vc4_tlb_result *r, uint32_t *bad)
{
    for (unsigned y = 0; y < t->tile_h; y++)
        for (unsigned x = 0; x < t->tile_w; x++)
            for (unsigned s = 0; s < t->samples; s++) {
                uint32_t a = base + vc4_tlb_full_offset(t, x, y, s);
                if (!vc4_mem_read32(m, a, &buf[vc4_tlb_index(t, x, y, s)]))
                    note_bad(r, bad, a);
            }
}

enum vc4_tlb_result vc4_tlb_store_full(const struct vc4_tlb *t, struct vc4_mem *m, uint32_t addr,
                                       bool color, bool zs, uint32_t *bad)
{
    enum vc4_tlb_result r = VC4_TLB_OK;
    if (color)
        full_store(t, m, addr, t->color, &r, bad);
    if (zs)
        full_store(t, m, color ? addr + VC4_TLB_FULL_DUMP_BYTES : addr, t->zs, &r, bad);
    return r;
}

enum vc4_tlb_result vc4_tlb_load_full(struct vc4_tlb *t, const struct vc4_mem *m, uint32_t addr,
                                      bool color, bool zs, uint32_t *bad)
{
    enum vc4_tlb_result r = VC4_TLB_OK;
    if (zs)
        t->zs_full_reload = true;
    if (color)
        full_load(t, m, addr, t->color, &r, bad);
    if (zs)
        full_load(t, m, color ? addr + VC4_TLB_FULL_DUMP_BYTES : addr, t->zs, &r, bad);
    return r;
}
