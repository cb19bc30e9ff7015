/*
 * ptb.c - the binner (Primitive Tile Binner): binning-list packets in, tile
 * lists in memory out.  See ptb.h for the seam with the CT0 executor and
 * docs/tile-lists.md for everything written to memory.
 *
 * Sources (facts file = shared/reference/v3d-hardware-facts.md):
 *   §1 packet semantics (Flush, Start Tile Binning, primitives, state);
 *   §2.2/§2.4 NV shader record and the shaded vertex format;
 *   §3.1 Tile Binning Mode Configuration, §3.4 Configuration Bits;
 *   §4.1 tile memory: TSDA 48 B/tile, initial blocks at base + index x
 *        initial size, the initial region rounded up to 256 bytes before
 *        further blocks, chaining with Branch, overflow memory (BPOA/BPOS,
 *        OUTOMEM, PCS.BMOOM, stall), the 28-bit TSDA address limitation,
 *        the state the binner copies into tile lists, Return at Flush;
 *   §11 registers INTCTL, PCS, BFC, BPCA/BPCS, BPOA/BPOS.
 */
#include "emu/ptb.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "emu/prim.h"
#include "emu/tilelist.h"
#include "emu/v3d.h"
#include "spec/rules.h"

/* ---- hardware constants (with their sources) -------------------------------- */

/* HW-2116: the most state updates (the first after a draw or Start Tile
 * Binning) Mesa lets one job have: it starts a new job before a draw once
 * 0x1ef0 draws are queued (vc4_draw.c VC4_HW_2116_COUNT), so its jobs
 * reach exactly this many, and they work on Pis.  The counters' real size
 * is not public; one more update than Mesa's jobs have is where vc4kit
 * warns. */
#define PTB_HW2116_UPDATES 0x1ef0u

/* GFXH-515 / SW-5891: "The binner emits 16 bit indices for drawarrays"
 * (Mesa vc4_draw.c; anholt/mesa issue 3 saw it on a Pi): the vertex
 * numbers of a Vertex Array Primitives packet reach the tile lists in 16
 * bits.  The binner itself bins with the full numbers (UNVERIFIED: the
 * guide's VCM path is not public; Mesa's words are about what it emits). */
#define PTB_ARRAY_INDEX_MASK 0xFFFFu

enum {
    /* facts §3.1: block size field 0..3 = 32, 64, 128, 256 bytes */
    PTB_BLOCK_MIN_BYTES = 32,
    /* facts §4.1: the initial blocks' region is rounded up to 256 bytes
     * before the hardware hands out further blocks */
    PTB_INITIAL_REGION_ALIGN = 256,
    /* facts §13 / §4.3: 64x64-pixel tiles, 32x32 with 4x multisampling */
    PTB_TILE_PX = 64,
    PTB_TILE_MS_PX = 32,
};
/* facts §4.1: addresses in the TSDA carry 28 bits; the top 4 come from the
 * TSDA's own address */
#define PTB_TSDA_ADDR_MASK 0x0FFFFFFFu
/* facts §11: BFC width (INTCTL and PCS bits: vc4kit/emu.h) */
#define PTB_BFC_MASK 0xFFu
/* facts §2.2: the NV record is 16-byte aligned; §2.4 shaded vertex layout */
enum {
    NV_RECORD_ALIGN = 16,
    NV_CLIP_HEADER_BYTES = 16, /* Xc, Yc, Zc, Wc f32 */
    NV_XY_BYTES = 4,           /* Xs, Ys: two s16 in 12.4, X low */
    NV_F32_BYTES = 4,          /* Zs, 1/Wc, point size: one f32 each */
};
/* 12.4 fixed point: 16 sub-pixel steps per pixel (facts §1 packet 103) */
#define PTB_SUBPIXELS 16

/* Emulator bounds (not hardware): a packet's primitives and tile appends. */
#define PTB_MAX_PRIMS_PER_PACKET (1u << 20)
#define PTB_MAX_APPENDS_PER_PACKET (1u << 24)
/* At most this many diagnostics per packet; then one summary. */
#define PTB_MAX_DIAGS_PER_PACKET 4u

/* The Branch link that ends a full block (facts §4.1: blocks are chained
 * with Branch, op 16). */
static unsigned branch_len(void)
{
    return vc4_cl_packet(VC4_CL_BRANCH)->length;
}

/* ---- per-call context and diagnostics ----------------------------------------- */

struct ptb_ctx {
    struct vc4_v3d *v;
    struct vc4_ptb *p;
    const struct vc4_cl_packet_view *pkt;
    uint32_t addr;
    const char *name;
    unsigned ndiag;
    bool error;
    uint64_t appends; /* tile appends during this call */
    bool wrote;       /* memory was written */
};

/* The packet's location: its bus address. */
static struct vc4_location ptb_loc(const struct ptb_ctx *c)
{
    struct vc4_location l = vc4_location_none();
    l.addr = c->addr;
    return l;
}

static void ptb_diag(struct ptb_ctx *c, enum vc4_severity sev, const char *fmt, ...) VC4_PRINTF(3, 4);
static void ptb_diag(struct ptb_ctx *c, enum vc4_severity sev, const char *fmt, ...)
{
    if (sev == VC4_ERROR)
        c->error = true;
    c->ndiag++;
    if (c->ndiag > PTB_MAX_DIAGS_PER_PACKET + 1)
        return;
    struct vc4_location l = ptb_loc(c);
    if (c->ndiag == PTB_MAX_DIAGS_PER_PACKET + 1) {
        vc4_diag_emit(&c->v->unit_sink, sev, VC4_DIAG_FAULT, "ptb", &l,
                      "%s: further problems in this packet not reported", c->name);
        return;
    }
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    vc4_diag_emit(&c->v->unit_sink, sev, VC4_DIAG_FAULT, "ptb", &l, "%s: %s", c->name, msg);
}

/* A warning of hardware rule r at the packet (rules.c: the emulator
 * reports it and carries on, as the hardware would). */
static void ptb_rule(const struct ptb_ctx *c, enum vc4_rule_id r, const char *fmt, ...) VC4_PRINTF(3, 4);
static void ptb_rule(const struct ptb_ctx *c, enum vc4_rule_id r, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    struct vc4_location l = ptb_loc(c);
    vc4_rule_report(&c->v->unit_sink, VC4_WARNING, "ptb", r, &l, "%s", msg);
}

/* ---- registers ------------------------------------------------------------------ */

static uint32_t *reg(struct vc4_v3d *v, uint32_t offset)
{
    return &v->regs.val[offset / 4];
}

static void mirror_pool(struct vc4_v3d *v)
{
    *reg(v, VC4_V3D_BPCA) = v->ptb.pool_addr;
    *reg(v, VC4_V3D_BPCS) = v->ptb.pool_left;
}

/* ---- life cycle ----------------------------------------------------------------- */

void vc4_ptb_reset(struct vc4_ptb *p)
{
    memset(p, 0, sizeof *p);
    p->plf = 0;
    p->xy_scale[0] = p->xy_scale[1] = 0.0f;
    p->z_scale = 1.0f;
    /* the Z clipping planes before any 104: Zs in [0, 1] (clip_planes) */
    p->z_min = 0.0f;
    p->z_max = 1.0f;
    p->point_size = 1.0f;
    p->line_width = 1.0f;
}

void vc4_ptb_set_gl_source(struct vc4_ptb *p, const struct vc4_ptb_vertex_source *src)
{
    p->gl_source = src ? *src : (struct vc4_ptb_vertex_source){0};
}

void vc4_ptb_tile_size(bool multisample_4x, bool tile_buffer_64bit, uint32_t *w_px, uint32_t *h_px)
{
    /* facts §4.3/§13: 64x64, 32x32 with 4x MS.  The 64-bit colour buffer
     * "halves the tile size" [?] (facts §13): taken as 64x32 (32x16 with
     * MS), the tile buffer holding the same number of bytes. */
    uint32_t w = multisample_4x ? PTB_TILE_MS_PX : PTB_TILE_PX;
    uint32_t h = w;
    if (tile_buffer_64bit)
        h /= 2;
    *w_px = w;
    *h_px = h;
}

uint32_t vc4_ptb_tile_list_addr(const struct vc4_ptb *p, uint32_t x, uint32_t y)
{
    if (!p->configured || x >= p->cfg.width_tiles || y >= p->cfg.height_tiles)
        return 0;
    return p->cfg.tile_alloc_addr + (y * p->cfg.width_tiles + x) * p->initial_block_bytes;
}

/* ---- TSDA ------------------------------------------------------------------------ */

struct tile {
    uint32_t index;
    uint32_t list, next, block_end, flags, seq, plf, prims, blocks;
};

static uint32_t tsda_entry(const struct vc4_ptb *p, uint32_t index)
{
    return p->cfg.tsda_addr + index * VC4_PTB_TSDA_BYTES;
}

static uint32_t addr_from_tsda(const struct vc4_ptb *p, uint32_t stored)
{
    return (p->cfg.tsda_addr & ~PTB_TSDA_ADDR_MASK) | (stored & PTB_TSDA_ADDR_MASK);
}

void vc4_ptb_tsda_decode(const struct vc4_ptb *p, const uint8_t *b, struct vc4_ptb_tile_state *out)
{
    out->list = addr_from_tsda(p, vc4_le32(b + VC4_PTB_TSDA_LIST));
    out->next = addr_from_tsda(p, vc4_le32(b + VC4_PTB_TSDA_NEXT));
    out->block_end = addr_from_tsda(p, vc4_le32(b + VC4_PTB_TSDA_BLOCK_END));
    out->flags = vc4_le32(b + VC4_PTB_TSDA_FLAGS);
    out->seq = vc4_le32(b + VC4_PTB_TSDA_STATE_SEQ);
    out->plf = vc4_le32(b + VC4_PTB_TSDA_PLF);
    out->prims = vc4_le32(b + VC4_PTB_TSDA_PRIMS);
    out->blocks = vc4_le32(b + VC4_PTB_TSDA_BLOCKS);
}

static void tile_init(const struct vc4_ptb *p, struct tile *t, uint32_t index)
{
    memset(t, 0, sizeof *t);
    t->index = index;
    t->list = p->cfg.tile_alloc_addr + index * p->initial_block_bytes;
    t->next = t->list;
    t->block_end = t->list + p->initial_block_bytes;
    t->flags = VC4_PTB_TILE_VALID;
    t->plf = UINT32_MAX;
}

static bool tile_store(struct ptb_ctx *c, const struct tile *t)
{
    const struct vc4_ptb *p = c->p;
    uint8_t b[VC4_PTB_TSDA_BYTES];
    memset(b, 0, sizeof b);
    vc4_st32(b + VC4_PTB_TSDA_LIST, t->list & PTB_TSDA_ADDR_MASK);
    vc4_st32(b + VC4_PTB_TSDA_NEXT, t->next & PTB_TSDA_ADDR_MASK);
    vc4_st32(b + VC4_PTB_TSDA_BLOCK_END, t->block_end & PTB_TSDA_ADDR_MASK);
    vc4_st32(b + VC4_PTB_TSDA_FLAGS, t->flags);
    vc4_st32(b + VC4_PTB_TSDA_STATE_SEQ, t->seq);
    vc4_st32(b + VC4_PTB_TSDA_PLF, t->plf);
    vc4_st32(b + VC4_PTB_TSDA_PRIMS, t->prims);
    vc4_st32(b + VC4_PTB_TSDA_BLOCKS, t->blocks);
    c->wrote = true;
    if (!vc4_mem_write(&c->v->mem, tsda_entry(p, t->index), b, sizeof b)) {
        ptb_diag(c, VC4_ERROR, "tile state data of tile %u at 0x%08x is outside memory", t->index,
                 tsda_entry(p, t->index));
        return false;
    }
    return true;
}

/* Read a tile's state; a tile not initialised (no auto-init) or whose state
 * does not describe a list the binner could have written starts afresh at
 * its initial block. */
static bool tile_load(struct ptb_ctx *c, uint32_t index, struct tile *t)
{
    const struct vc4_ptb *p = c->p;
    uint8_t b[VC4_PTB_TSDA_BYTES];
    if (!vc4_mem_read(&c->v->mem, tsda_entry(p, index), b, sizeof b)) {
        ptb_diag(c, VC4_ERROR, "tile state data of tile %u at 0x%08x is outside memory", index,
                 tsda_entry(p, index));
        return false;
    }
    struct vc4_ptb_tile_state s;
    vc4_ptb_tsda_decode(p, b, &s);
    *t = (struct tile){index, s.list, s.next, s.block_end, s.flags, s.seq, s.plf, s.prims, s.blocks};
    if (!(t->flags & VC4_PTB_TILE_VALID)) {
        tile_init(p, t, index);
        return true;
    }
    /* the room left in the block must be what a block can hold */
    uint32_t max_block = p->initial_block_bytes > p->block_bytes ? p->initial_block_bytes
                                                                 : p->block_bytes;
    if (t->next > t->block_end || t->block_end - t->next > max_block ||
        t->block_end - t->next < branch_len() || t->seq > p->state_seq) {
        ptb_diag(c, VC4_WARNING,
                 "tile state data of tile %u does not describe a tile list (next 0x%08x, block end "
                 "0x%08x); the list restarts at its initial block",
                 index, t->next, t->block_end);
        tile_init(p, t, index);
    }
    return true;
}

/* ---- memory pool: tile allocation memory, then overflow memory ------------------- */

enum alloc_result { ALLOC_OK, ALLOC_STALL, ALLOC_FAIL };

/* Take the overflow memory in BPOA/BPOS if the host supplied some the
 * binner has not consumed yet (facts §4.1).  The binner latches the pair it
 * took; new memory is a pair different from the latched one. */
static bool take_overflow(struct ptb_ctx *c)
{
    struct vc4_v3d *v = c->v;
    struct vc4_ptb *p = c->p;
    uint32_t a = *reg(v, VC4_V3D_BPOA), s = *reg(v, VC4_V3D_BPOS);
    if (s < p->block_bytes)
        return false;
    if (p->overflow_taken && a == p->taken_bpoa && s == p->taken_bpos)
        return false;
    p->overflow_taken = true;
    p->taken_bpoa = a;
    p->taken_bpos = s;
    uint32_t off;
    if (!vc4_mem_span(&v->mem, a, s, &off)) {
        ptb_diag(c, VC4_ERROR, "overflow memory BPOA 0x%08x + BPOS %u bytes is outside memory", a, s);
        return false;
    }
    if ((a ^ p->cfg.tsda_addr) & ~PTB_TSDA_ADDR_MASK)
        ptb_diag(c, VC4_WARNING,
                 "overflow memory 0x%08x is not in the tile state data's 256 MB region (0x%08x): "
                 "tile state keeps only 28 address bits (kernel keeps both in one BO)",
                 a, p->cfg.tsda_addr);
    p->pool_addr = a;
    p->pool_left = s;
    p->stats.overflows++;
    return true;
}

/* bytes of binning memory aligned to align (a power of two) from the pool;
 * a pool too small for them is left and the overflow memory taken. */
static enum alloc_result alloc_bytes(struct ptb_ctx *c, uint32_t bytes, uint32_t align, uint32_t *addr)
{
    struct vc4_v3d *v = c->v;
    struct vc4_ptb *p = c->p;
    uint32_t pad = (0u - p->pool_addr) & (align - 1);
    while ((uint64_t)bytes + pad > p->pool_left) {
        if (!take_overflow(c)) {
            /* facts §4.1: out of memory: OUTOMEM (INTCTL) and PCS.BMOOM are
             * raised and the binner stalls until the host writes BPOA/BPOS */
            *reg(v, VC4_V3D_INTCTL) |= VC4_V3D_INT_OUTOMEM;
            *reg(v, VC4_V3D_PCS) |= VC4_V3D_PCS_BMOOM;
            if (!p->oom)
                p->stats.stalls++;
            p->oom = true;
            mirror_pool(v);
            return ALLOC_STALL;
        }
        pad = (0u - p->pool_addr) & (align - 1);
    }
    if (p->oom) {
        p->oom = false;
        *reg(v, VC4_V3D_PCS) &= ~VC4_V3D_PCS_BMOOM;
    }
    *addr = p->pool_addr + pad;
    p->pool_addr += pad + bytes;
    p->pool_left -= pad + bytes;
    mirror_pool(v);
    return ALLOC_OK;
}

static enum alloc_result alloc_block(struct ptb_ctx *c, uint32_t *addr)
{
    enum alloc_result r = alloc_bytes(c, c->p->block_bytes, 1, addr);
    if (r == ALLOC_OK)
        c->p->stats.blocks++;
    return r;
}

/* ---- writing into a tile list --------------------------------------------------- */

enum wr_result { WR_OK, WR_STALL, WR_FAIL };

static bool mem_put(struct ptb_ctx *c, uint32_t at, const uint8_t *b, uint32_t n)
{
    if (vc4_mem_write(&c->v->mem, at, b, n)) {
        c->wrote = true;
        return true;
    }
    ptb_diag(c, VC4_ERROR, "tile list write of %u bytes at 0x%08x is outside memory", n, at);
    return false;
}

/* Make room for n bytes at t->next (keeping room for a Branch after them),
 * chaining a new block with Branch when the current one is full. */
static enum wr_result room(struct ptb_ctx *c, struct tile *t, uint32_t n)
{
    uint32_t bl = branch_len();
    if ((uint64_t)t->next + n + bl <= t->block_end)
        return WR_OK;
    uint32_t blk;
    switch (alloc_block(c, &blk)) {
    case ALLOC_STALL:
        return WR_STALL;
    case ALLOC_FAIL:
        return WR_FAIL;
    case ALLOC_OK:
        break;
    }
    uint8_t br[8];
    struct vc4_cl_branch b = {.address = blk};
    uint64_t values[VC4_CL_MAX_FIELDS];
    vc4_cl_struct_to_values(&vc4_cl_packet(VC4_CL_BRANCH)->layout, &b, values);
    if (vc4_cl_pack(VC4_CL_BRANCH, values, br, NULL) != VC4_OK || !mem_put(c, t->next, br, bl))
        return WR_FAIL;
    t->next = blk;
    t->block_end = blk + c->p->block_bytes;
    t->flags &= ~VC4_PTB_TILE_OPEN48;
    t->blocks++;
    return WR_OK;
}

/* Append a whole packet (state, Primitive List Format). */
static enum wr_result put_packet(struct ptb_ctx *c, struct tile *t, const uint8_t *b, uint32_t n)
{
    enum wr_result r = room(c, t, n);
    if (r != WR_OK)
        return r;
    if (!mem_put(c, t->next, b, n))
        return WR_FAIL;
    t->next += n;
    t->flags &= ~(VC4_PTB_TILE_OPEN48 | VC4_PTB_TILE_FLUSHED);
    return WR_OK;
}

/* Append one primitive: into the open 48 (over its terminator) when the
 * list ends with one, else as a new 48 packet. */
static enum wr_result put_prim(struct ptb_ctx *c, struct tile *t, const struct vc4_tl_prim *prim)
{
    uint8_t b[32];
    size_t item = vc4_tl_prim_size(prim), endn = vc4_tl_end_size();
    if (!item || item + endn + vc4_tl_open48_size() > sizeof b)
        return WR_FAIL;
    if ((t->flags & VC4_PTB_TILE_OPEN48) && t->next > t->list) {
        uint32_t at = t->next - (uint32_t)endn; /* the terminator */
        if ((uint64_t)at + item + endn + branch_len() <= t->block_end) {
            size_t n = vc4_tl_write_prim(prim, b, sizeof b);
            n += vc4_tl_write_end(b + n, sizeof b - n);
            if (!mem_put(c, at, b, (uint32_t)n))
                return WR_FAIL;
            t->next = at + (uint32_t)n;
            t->flags &= ~VC4_PTB_TILE_FLUSHED;
            return WR_OK;
        }
    }
    size_t n = vc4_tl_write_open48(b, sizeof b);
    n += vc4_tl_write_prim(prim, b + n, sizeof b - n);
    n += vc4_tl_write_end(b + n, sizeof b - n);
    enum wr_result r = room(c, t, (uint32_t)n);
    if (r != WR_OK)
        return r;
    if (!mem_put(c, t->next, b, (uint32_t)n))
        return WR_FAIL;
    t->next += (uint32_t)n;
    t->flags = (t->flags | VC4_PTB_TILE_OPEN48) & ~VC4_PTB_TILE_FLUSHED;
    return WR_OK;
}

/* Append a primitive that needed clipping: its own 49 packet. */
static enum wr_result put_clipped(struct ptb_ctx *c, struct tile *t, const struct vc4_tl_clip_info *ci,
                                  const struct vc4_tl_prim *prim)
{
    uint8_t b[32];
    size_t n = vc4_tl_write_open49(ci, b, sizeof b);
    size_t k = n ? vc4_tl_write_prim(prim, b + n, sizeof b - n) : 0;
    if (!k)
        return WR_FAIL;
    n += k;
    n += vc4_tl_write_end(b + n, sizeof b - n);
    enum wr_result r = room(c, t, (uint32_t)n);
    if (r != WR_OK)
        return r;
    if (!mem_put(c, t->next, b, (uint32_t)n))
        return WR_FAIL;
    t->next += (uint32_t)n;
    t->flags &= ~(VC4_PTB_TILE_OPEN48 | VC4_PTB_TILE_FLUSHED);
    return WR_OK;
}

/* Copy the rendering state the list has not seen yet (facts §4.1). */
static enum wr_result sync_state(struct ptb_ctx *c, struct tile *t)
{
    const struct vc4_ptb *p = c->p;
    if (t->seq >= p->state_seq)
        return WR_OK;
    for (unsigned s = 0; s < VC4_PTB_ST_COUNT; s++) {
        const struct vc4_ptb_state_item *it = &p->state[s];
        if (it->changed_seq > t->seq && it->len) {
            enum wr_result r = put_packet(c, t, it->bytes, it->len);
            if (r != WR_OK)
                return r;
        }
    }
    t->seq = p->state_seq;
    return WR_OK;
}

/* facts §1 packet 56: primitive type 3:0, data type 7:4 (1 = 16-bit
 * index, 3 = 32-bit X/Y for VG primitives [PL]) */
static enum wr_result sync_plf_as(struct ptb_ctx *c, struct tile *t, unsigned type, unsigned data)
{
    const struct vc4_cl_packet_desc *d = vc4_cl_packet(VC4_CL_PRIMITIVE_LIST_FORMAT);
    struct vc4_cl_primitive_list_format f = {.primitive_type = type, .data_type = data};
    uint8_t b[4];
    uint64_t values[VC4_CL_MAX_FIELDS];
    vc4_cl_struct_to_values(&d->layout, &f, values);
    if (vc4_cl_pack(VC4_CL_PRIMITIVE_LIST_FORMAT, values, b, NULL) != VC4_OK)
        return WR_FAIL;
    if (t->plf == b[1])
        return WR_OK;
    enum wr_result r = put_packet(c, t, b, d->length);
    if (r == WR_OK)
        t->plf = b[1];
    return r;
}

static enum wr_result sync_plf(struct ptb_ctx *c, struct tile *t, unsigned nverts)
{
    static const uint8_t types[VC4_TL_MAX_VERTS + 1] = {
        0, VC4_CL_PLF_POINTS, VC4_CL_PLF_LINES, VC4_CL_PLF_TRIANGLES};
    return sync_plf_as(c, t, types[nverts], VC4_CL_PLF_INDEX16);
}

static enum wr_result tile_append(struct ptb_ctx *c, uint32_t index, const struct vc4_tl_prim *prim,
                                  const struct vc4_tl_clip_info *ci)
{
    struct tile t;
    if (!tile_load(c, index, &t))
        return WR_FAIL;
    enum wr_result r = sync_state(c, &t);
    if (r == WR_OK)
        r = sync_plf(c, &t, prim->nverts);
    if (r == WR_OK)
        r = ci ? put_clipped(c, &t, ci, prim) : put_prim(c, &t, prim);
    if (r == WR_OK) {
        t.prims++;
        c->p->stats.tile_writes++;
    }
    /* whatever was written completely stays (a stall resumes here) */
    if (!tile_store(c, &t))
        return WR_FAIL;
    return r;
}

/* VG mode: one primitive as a VG Inline Primitives packet (42) of its own,
 * after a Primitive List Format naming RHT or triangles with 32-bit X/Y
 * data.  The hardware's tile-list form of VG primitives is not public
 * (UNVERIFIED); packet 56's "32-bit X/Y" data type [PL] says the lists carry
 * coordinates, not indices, and 42 is the packet that carries them. */
static enum wr_result tile_append_vg(struct ptb_ctx *c, uint32_t index, bool rht, const uint32_t *xy,
                                     unsigned n)
{
    uint8_t b[16];
    const struct vc4_cl_packet_desc *d = vc4_cl_packet(VC4_CL_VG_INLINE_PRIMITIVES);
    struct vc4_cl_vg_inline_primitives head = {.primitive_type = rht ? VC4_CL_VG_RHT : VC4_CL_VG_TRIANGLES};
    uint64_t values[VC4_CL_MAX_FIELDS];
    vc4_cl_struct_to_values(&d->layout, &head, values);
    struct vc4_cl_prim_item it = {.kind = VC4_CL_ITEM_XY32, .count = (uint8_t)n};
    memcpy(it.v, xy, n * sizeof xy[0]);
    struct vc4_cl_prim_item end = {.kind = VC4_CL_ITEM_END};
    if (vc4_cl_pack(VC4_CL_VG_INLINE_PRIMITIVES, values, b, NULL) != VC4_OK)
        return WR_FAIL;
    size_t len = d->length;
    size_t k = vc4_cl_prim_item_encode(&it, b + len, sizeof b - len);
    size_t e = k ? vc4_cl_prim_item_encode(&end, b + len + k, sizeof b - len - k) : 0;
    if (!e)
        return WR_FAIL;
    len += k + e;
    struct tile t;
    if (!tile_load(c, index, &t))
        return WR_FAIL;
    enum wr_result r = sync_state(c, &t);
    if (r == WR_OK)
        r = sync_plf_as(c, &t, rht ? VC4_CL_PLF_RHT : VC4_CL_PLF_TRIANGLES, VC4_CL_PLF_XY32);
    if (r == WR_OK)
        r = put_packet(c, &t, b, (uint32_t)len);
    if (r == WR_OK) {
        t.prims++;
        c->p->stats.tile_writes++;
    }
    if (!tile_store(c, &t))
        return WR_FAIL;
    return r;
}

/* ---- configuration and state packets ------------------------------------------- */

static bool decode(struct ptb_ctx *c, void *s)
{
    if (vc4_cl_decode_struct(c->pkt, s) != VC4_OK) {
        ptb_diag(c, VC4_ERROR, "cannot decode the packet");
        return false;
    }
    return true;
}

static enum vc4_ptb_result result(const struct ptb_ctx *c)
{
    return c->error ? VC4_PTB_ERROR : VC4_PTB_DONE;
}

static enum vc4_ptb_result do_bin_config(struct ptb_ctx *c)
{
    struct vc4_ptb *p = c->p;
    struct vc4_cl_tile_binning_mode_config cfg;
    if (!decode(c, &cfg))
        return VC4_PTB_ERROR;
    p->configured = p->started = false;
    p->resume.active = false;
    p->oom = false;
    *reg(c->v, VC4_V3D_PCS) &= ~VC4_V3D_PCS_BMOOM;
    p->cfg = cfg;
    p->initial_block_bytes = PTB_BLOCK_MIN_BYTES << cfg.initial_block_size;
    p->block_bytes = PTB_BLOCK_MIN_BYTES << cfg.block_size;
    vc4_ptb_tile_size(cfg.multisample_4x, cfg.tile_buffer_64bit, &p->tile_w_px, &p->tile_h_px);
    p->num_tiles = cfg.width_tiles * cfg.height_tiles;
    if (!p->num_tiles) {
        ptb_diag(c, VC4_ERROR, "frame of %u x %u tiles: binning disabled", cfg.width_tiles,
                 cfg.height_tiles);
        return VC4_PTB_ERROR;
    }
    uint32_t off;
    uint64_t tsda_bytes = (uint64_t)p->num_tiles * VC4_PTB_TSDA_BYTES;
    if (!vc4_mem_span(&c->v->mem, cfg.tsda_addr, (uint32_t)tsda_bytes, &off)) {
        ptb_diag(c, VC4_ERROR,
                 "tile state data array 0x%08x + %u tiles x %u bytes is outside memory: binning "
                 "disabled",
                 cfg.tsda_addr, p->num_tiles, (unsigned)VC4_PTB_TSDA_BYTES);
        return VC4_PTB_ERROR;
    }
    uint64_t initial = (uint64_t)p->num_tiles * p->initial_block_bytes;
    uint64_t region = (initial + PTB_INITIAL_REGION_ALIGN - 1) / PTB_INITIAL_REGION_ALIGN *
                      PTB_INITIAL_REGION_ALIGN;
    uint64_t span = cfg.tile_alloc_size > initial ? cfg.tile_alloc_size : initial;
    if (span > UINT32_MAX || !vc4_mem_span(&c->v->mem, cfg.tile_alloc_addr, (uint32_t)span, &off)) {
        ptb_diag(c, VC4_ERROR,
                 "tile allocation memory 0x%08x + %u bytes (the %u tiles' initial blocks: %u bytes each) "
                 "is outside memory: binning disabled",
                 cfg.tile_alloc_addr, cfg.tile_alloc_size, p->num_tiles, p->initial_block_bytes);
        return VC4_PTB_ERROR;
    }
    /* issue 11: a declared size smaller than the initial blocks does not stop
     * the binner: they are placed at base + index x size all the same, and
     * further blocks come from the overflow memory (the pool is empty).
     * Evidence: bare-metal demos giving 8 KiB for 300 tiles of 32-byte
     * initial blocks draw on a Pi 1. */
    if (cfg.tile_alloc_size < initial)
        ptb_diag(c, VC4_NOTE,
                 "tile allocation memory 0x%08x + %u bytes is smaller than the %u tiles' initial blocks "
                 "(%u bytes each): they are placed past its end all the same, further blocks come from "
                 "the overflow memory (BPOA/BPOS)",
                 cfg.tile_alloc_addr, cfg.tile_alloc_size, p->num_tiles, p->initial_block_bytes);
    if (cfg.tsda_addr % VC4_CL_RECORD_ALIGN)
        ptb_diag(c, VC4_WARNING, "tile state data array 0x%08x is not 16-byte aligned", cfg.tsda_addr);
    if ((cfg.tile_alloc_addr ^ cfg.tsda_addr) & ~PTB_TSDA_ADDR_MASK)
        ptb_diag(c, VC4_WARNING,
                 "tile allocation memory 0x%08x is not in the tile state data's 256 MB region "
                 "(0x%08x): tile state keeps only 28 address bits",
                 cfg.tile_alloc_addr, cfg.tsda_addr);
    /* further blocks come from after the rounded-up initial region */
    if (region <= cfg.tile_alloc_size) {
        p->pool_addr = cfg.tile_alloc_addr + (uint32_t)region;
        p->pool_left = cfg.tile_alloc_size - (uint32_t)region;
    } else {
        p->pool_addr = cfg.tile_alloc_addr + cfg.tile_alloc_size;
        p->pool_left = 0;
    }
    /* a new binning job: whatever BPOA/BPOS hold now is fresh memory */
    p->overflow_taken = false;
    mirror_pool(c->v);
    p->configured = true;
    return result(c);
}

static enum vc4_ptb_result do_start(struct ptb_ctx *c)
{
    struct vc4_ptb *p = c->p;
    if (!p->configured) {
        ptb_diag(c, VC4_ERROR, "no valid Tile Binning Mode Configuration before it");
        return VC4_PTB_ERROR;
    }
    /* facts §4.1: Start Tile Binning resets the state-change counters so
     * that the current state goes into every tile list (before the tile's
     * first primitive here), and resets the primitive list format */
    p->state_seq++;
    for (unsigned s = 0; s < VC4_PTB_ST_COUNT; s++)
        if (p->state[s].len)
            p->state[s].changed_seq = p->state_seq;
    p->plf = 0;
    if (p->cfg.auto_init_tsda) {
        /* the lists restart at their initial blocks; state sequence 0 */
        struct tile t;
        for (uint32_t i = 0; i < p->num_tiles; i++) {
            tile_init(p, &t, i);
            if (!tile_store(c, &t))
                break;
        }
    }
    p->started = true;
    return result(c);
}

/* Which copied-state slot a packet sets. */
static int state_slot(unsigned opcode)
{
    switch (opcode) {
    case VC4_CL_NV_SHADER_STATE:
    case VC4_CL_GL_SHADER_STATE:
    case VC4_CL_VG_SHADER_STATE:
    case VC4_CL_VG_INLINE_SHADER_RECORD:
        return VC4_PTB_ST_SHADER;
    case VC4_CL_CONFIGURATION_BITS: return VC4_PTB_ST_CONFIG_BITS;
    case VC4_CL_FLAT_SHADE_FLAGS: return VC4_PTB_ST_FLAT_SHADE;
    case VC4_CL_POINT_SIZE: return VC4_PTB_ST_POINT_SIZE;
    case VC4_CL_LINE_WIDTH: return VC4_PTB_ST_LINE_WIDTH;
    case VC4_CL_DEPTH_OFFSET: return VC4_PTB_ST_DEPTH_OFFSET;
    case VC4_CL_CLIP_WINDOW: return VC4_PTB_ST_CLIP_WINDOW;
    case VC4_CL_VIEWPORT_OFFSET: return VC4_PTB_ST_VIEWPORT_OFFSET;
    case VC4_CL_Z_CLIPPING_PLANES: return VC4_PTB_ST_Z_CLIPPING;
    case VC4_CL_RHT_X_BOUNDARY: return VC4_PTB_ST_RHT_X_BOUNDARY;
    default: return -1;
    }
}

/* Keep the packet's bytes for the tile lists (a change bumps the state
 * sequence; the same bytes again change nothing). */
static void keep_state(struct ptb_ctx *c)
{
    int s = state_slot(c->pkt->opcode);
    if (s < 0 || c->pkt->length > VC4_PTB_STATE_MAX_BYTES)
        return;
    struct vc4_ptb_state_item *it = &c->p->state[s];
    if (it->len == c->pkt->length && !memcmp(it->bytes, c->pkt->bytes, it->len))
        return;
    it->len = (uint8_t)c->pkt->length;
    memcpy(it->bytes, c->pkt->bytes, it->len);
    it->changed_seq = ++c->p->state_seq;
}

static enum vc4_ptb_result do_state(struct ptb_ctx *c)
{
    struct vc4_ptb *p = c->p;
    union {
        struct vc4_cl_configuration_bits cb;
        struct vc4_cl_point_size ps;
        struct vc4_cl_line_width lw;
        struct vc4_cl_clip_window cw;
        struct vc4_cl_viewport_offset vo;
        struct vc4_cl_z_clipping_planes zc;
        struct vc4_cl_clipper_xy_scaling xy;
        struct vc4_cl_clipper_z_scaling zs;
        struct vc4_cl_primitive_list_format plf;
        uint8_t raw[128];
    } s;
    switch (c->pkt->opcode) {
    case VC4_CL_CONFIGURATION_BITS:
        if (!decode(c, &s.cb))
            return VC4_PTB_ERROR;
        p->config = s.cb;
        break;
    case VC4_CL_POINT_SIZE:
        if (!decode(c, &s.ps))
            return VC4_PTB_ERROR;
        p->point_size = s.ps.point_size;
        break;
    case VC4_CL_LINE_WIDTH:
        if (!decode(c, &s.lw))
            return VC4_PTB_ERROR;
        p->line_width = s.lw.line_width;
        break;
    case VC4_CL_CLIP_WINDOW:
        if (!decode(c, &s.cw))
            return VC4_PTB_ERROR;
        p->clip = s.cw;
        p->clip_set = true;
        /* (what the hardware draws then is UNVERIFIED) */
        if (vc4_rule_clip_window_empty(s.cw.width_px, s.cw.height_px))
            ptb_rule(c, VC4_RULE_CL_CLIP_WINDOW_EMPTY,
                     "Clip Window of %u x %u pixels: the hardware does not clip everything away; vc4kit "
                     "draws nothing",
                     s.cw.width_px, s.cw.height_px);
        break;
    case VC4_CL_VIEWPORT_OFFSET:
        if (!decode(c, &s.vo))
            return VC4_PTB_ERROR;
        p->vp_x_1_16px = s.vo.x_1_16px;
        p->vp_y_1_16px = s.vo.y_1_16px;
        break;
    case VC4_CL_Z_CLIPPING_PLANES:
        if (!decode(c, &s.zc))
            return VC4_PTB_ERROR;
        p->z_min = s.zc.min_zw;
        p->z_max = s.zc.max_zw;
        break;
    case VC4_CL_CLIPPER_XY_SCALING:
        if (!decode(c, &s.xy))
            return VC4_PTB_ERROR;
        p->xy_scale[0] = s.xy.half_width_1_16px;
        p->xy_scale[1] = s.xy.half_height_1_16px;
        break;
    case VC4_CL_CLIPPER_Z_SCALING:
        if (!decode(c, &s.zs))
            return VC4_PTB_ERROR;
        p->z_scale = s.zs.z_scale;
        p->z_offset = s.zs.z_offset;
        p->z_scaling_set = true;
        break;
    case VC4_CL_PRIMITIVE_LIST_FORMAT:
        /* facts §4.1: sets the binner's current compressed-primitive format;
         * the binner writes the format each primitive needs into the tile
         * lists itself, so the value is only kept */
        if (!decode(c, &s.plf))
            return VC4_PTB_ERROR;
        p->plf = c->pkt->payload[0];
        break;
    case VC4_CL_RHT_X_BOUNDARY: {
        struct vc4_cl_rht_x_boundary rb;
        if (!decode(c, &rb))
            return VC4_PTB_ERROR;
        p->rht_x_1_16px = rb.x_boundary;
        break;
    }
    default: /* flat shade flags, depth offset: copied only */
        break;
    }
    keep_state(c);
    return result(c);
}

static enum vc4_ptb_result do_shader_state(struct ptb_ctx *c)
{
    struct vc4_ptb *p = c->p;
    p->nv_valid = false;
    switch (c->pkt->opcode) {
    case VC4_CL_NV_SHADER_STATE: {
        struct vc4_cl_nv_shader_state st;
        if (!decode(c, &st))
            return VC4_PTB_ERROR;
        p->mode = VC4_PTB_MODE_NV;
        const struct vc4_cl_record_desc *rd = vc4_cl_record(VC4_CL_REC_NV_SHADER);
        uint8_t rec[64];
        if (st.record_addr % NV_RECORD_ALIGN)
            ptb_diag(c, VC4_WARNING, "NV shader record 0x%08x is not 16-byte aligned", st.record_addr);
        if (!vc4_mem_read(&c->v->mem, st.record_addr, rec, rd->layout.size)) {
            ptb_diag(c, VC4_ERROR, "NV shader record 0x%08x is outside memory", st.record_addr);
        } else {
            vc4_cl_nv_shader_record_unpack(rec, &p->nv);
            p->nv_valid = true;
        }
        break;
    }
    case VC4_CL_GL_SHADER_STATE: {
        /* GL mode: the record (vcd.c reads and checks it); the coordinate
         * shader runs on the QPUs when the primitives come (vsi.c) */
        struct vc4_cl_gl_shader_state st;
        if (!decode(c, &st))
            return VC4_PTB_ERROR;
        p->mode = VC4_PTB_MODE_GL;
        struct vc4_location l = ptb_loc(c);
        if (!vc4_vcd_read_state(c->v, &st, &c->v->vsi.bin, "ptb", &l))
            c->error = true;
        if (!p->gl_source.fetch)
            vc4_vsi_ptb_source(&p->gl_source);
        break;
    }
    case VC4_CL_VG_SHADER_STATE: {
        /* VG mode [PL]: the binner needs only the coordinates; the renderer
         * reads the record (its fragment shader) from the copy in the lists */
        struct vc4_cl_vg_shader_state st;
        if (!decode(c, &st))
            return VC4_PTB_ERROR;
        p->mode = VC4_PTB_MODE_VG;
        if (st.record_addr % VC4_VG_RECORD_ALIGN)
            ptb_diag(c, VC4_WARNING, "VG shader record 0x%08x is not 16-byte aligned", st.record_addr);
        break;
    }
    default: /* VG Inline Shader Record */
        p->mode = VC4_PTB_MODE_VG;
        break;
    }
    keep_state(c);
    return result(c);
}

/* ---- Flush ---------------------------------------------------------------------- */

/* Terminate every tile list with Return from sub-list (facts §1 op 4).  The
 * Return is written at the list's end without moving it, so that binning
 * after a Flush continues the lists (over the Return). */
static enum vc4_ptb_result do_flush(struct ptb_ctx *c)
{
    struct vc4_ptb *p = c->p;
    bool all_state = c->pkt->opcode == VC4_CL_FLUSH_ALL_STATE;
    if (!p->started) {
        ptb_diag(c, VC4_WARNING, "no Start Tile Binning before it: no tile lists to flush");
    } else {
        uint32_t first = 0;
        if (p->resume.active && p->resume.addr == c->addr && p->resume.opcode == c->pkt->opcode)
            first = p->resume.tile;
        p->resume.active = false;
        const uint8_t ret = VC4_CL_RETURN_FROM_SUB_LIST;
        for (uint32_t i = first; i < p->num_tiles; i++) {
            struct tile t;
            if (!tile_load(c, i, &t))
                break;
            if (all_state) {
                /* facts §1 op 5: first force the current state into all lists */
                enum wr_result r = sync_state(c, &t);
                if (r == WR_STALL) {
                    tile_store(c, &t);
                    p->resume.active = true;
                    p->resume.addr = c->addr;
                    p->resume.opcode = c->pkt->opcode;
                    p->resume.prim = 0;
                    p->resume.tile = i;
                    p->resume.clip_record = 0;
                    return VC4_PTB_STALL;
                }
            }
            /* room() always leaves a Branch's worth of bytes: one is enough */
            if (mem_put(c, t.next, &ret, 1))
                t.flags |= VC4_PTB_TILE_FLUSHED;
            if (!tile_store(c, &t))
                break;
        }
    }
    /* facts §1/§4.2: flush completion counts in BFC and raises FLDONE */
    uint32_t *bfc = reg(c->v, VC4_V3D_BFC);
    *bfc = (*bfc + 1) & PTB_BFC_MASK;
    *reg(c->v, VC4_V3D_INTCTL) |= VC4_V3D_INT_FLDONE;
    p->stats.flushes++;
    return result(c);
}

/* ---- shaded vertices -------------------------------------------------------------- */

/* NV mode (facts §2.2, §2.4): vertex i at vertex data + i x stride:
 * [Xc Yc Zc Wc f32 if the clip header flag is set] Xs/Ys (two s16, 12.4,
 * X in the low half) | Zs f32 | 1/Wc f32 | [point size f32] | varyings.
 * The address adds wrap at 32 bits like the hardware's [?]. */
static bool nv_fetch(void *user, struct vc4_v3d *v, uint32_t index, struct vc4_ptb_vertex *out)
{
    (void)user;
    const struct vc4_cl_nv_shader_record *r = &v->ptb.nv;
    uint8_t b[NV_CLIP_HEADER_BYTES + NV_XY_BYTES + 3 * NV_F32_BYTES];
    uint32_t n = (r->clip_header_included ? NV_CLIP_HEADER_BYTES : 0) + NV_XY_BYTES +
                 2 * NV_F32_BYTES + (r->point_size_included ? NV_F32_BYTES : 0);
    uint32_t at = r->vertex_data_addr + index * r->vertex_stride;
    memset(out, 0, sizeof *out);
    if (!vc4_mem_read(&v->mem, at, b, n))
        return false;
    const uint8_t *q = b;
    if (r->clip_header_included) {
        for (unsigned i = 0; i < 4; i++)
            out->clip[i] = vc4_u2f(vc4_le32(q + NV_F32_BYTES * i));
        out->has_clip = true;
        q += NV_CLIP_HEADER_BYTES;
    }
    out->x_1_16px = (int16_t)vc4_le16(q);
    out->y_1_16px = (int16_t)vc4_le16(q + 2);
    q += NV_XY_BYTES;
    out->zs = vc4_u2f(vc4_le32(q));
    out->inv_wc = vc4_u2f(vc4_le32(q + NV_F32_BYTES));
    q += 2 * NV_F32_BYTES;
    if (r->point_size_included) {
        out->point_size = vc4_u2f(vc4_le32(q));
        out->has_point_size = true;
    }
    return true;
}

/* ---- primitive assembly: emu/prim.h ------------------------------------------------ */

static bool src_index(struct ptb_ctx *c, const struct vc4_prim_src *s, uint32_t pos, uint32_t *idx)
{
    switch (vc4_prim_index(&c->v->mem, s, pos, idx)) {
    case VC4_PRIM_INDEX_OK:
        return true;
    case VC4_PRIM_INDEX_OVERFLOW:
        ptb_diag(c, VC4_ERROR, "vertex index %u + %u overflows 32 bits", s->first, pos);
        return false;
    case VC4_PRIM_INDEX_OUTSIDE:
        ptb_diag(c, VC4_ERROR, "index %u at 0x%08x is outside memory", pos,
                 s->index_addr + pos * s->index_bytes);
        return false;
    default: /* VC4_PRIM_INDEX_ABOVE_MAX */
        ptb_diag(c, VC4_WARNING, "index %u at position %u exceeds the maximum index %u: primitive dropped",
                 *idx, pos, s->max_index);
        return false;
    }
}

/* ---- binning one primitive ------------------------------------------------------- */

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* Half of a point size / line width in 1/16 pixel, rounded up; -1 for a
 * size that covers nothing (zero, negative, NaN). */
static int64_t half_extent(float size)
{
    /* emulator bound: 4096 px, the whole 12.4 range (facts §2.4) */
    const float max_px = 4096.0f;
    if (!(size > 0.0f))
        return -1;
    if (size > max_px)
        size = max_px;
    return (int64_t)ceilf(size * (PTB_SUBPIXELS / 2));
}

enum prim_fate { PRIM_BIN, PRIM_CULLED, PRIM_ZERO_AREA, PRIM_OUTSIDE };

/* Count a primitive that reaches no tile by why (GL, NV and VG alike). */
static void count_unbinned(struct vc4_ptb_stats *st, enum prim_fate fate)
{
    if (fate == PRIM_CULLED)
        st->prims_culled++;
    else if (fate == PRIM_ZERO_AREA)
        st->prims_zero_area++;
    else
        st->prims_outside++;
}

struct tile_rect { uint32_t x0, y0, x1, y1; }; /* inclusive tile coordinates */

/* A primitive on the screen: kind 1 point, 2 line, 3 triangle; a clipped
 * triangle is a convex polygon of n >= 3 points.  1/16 pixel, viewport
 * offset added. */
struct screen_prim {
    unsigned kind, n;
    int64_t x[VC4_TL_CLIP_MAX_VERTS], y[VC4_TL_CLIP_MAX_VERTS];
    float point_size;
};

static void screen_from_vertices(const struct vc4_ptb *p, const struct vc4_ptb_vertex *vx,
                                 unsigned nverts, struct screen_prim *sp)
{
    memset(sp, 0, sizeof *sp);
    sp->kind = sp->n = nverts;
    for (unsigned i = 0; i < nverts; i++) {
        sp->x[i] = (int64_t)vx[i].x_1_16px + p->vp_x_1_16px;
        sp->y[i] = (int64_t)vx[i].y_1_16px + p->vp_y_1_16px;
    }
    sp->point_size = vx[0].has_point_size ? vx[0].point_size : p->point_size;
}

/* Cull and bound a primitive: the tiles it may touch. */
static enum prim_fate prim_tiles(const struct vc4_ptb *p, const struct screen_prim *sp, struct tile_rect *r)
{
    int64_t minx = sp->x[0], maxx = sp->x[0], miny = sp->y[0], maxy = sp->y[0];
    for (unsigned i = 1; i < sp->n; i++) {
        minx = sp->x[i] < minx ? sp->x[i] : minx;
        maxx = sp->x[i] > maxx ? sp->x[i] : maxx;
        miny = sp->y[i] < miny ? sp->y[i] : miny;
        maxy = sp->y[i] > maxy ? sp->y[i] : maxy;
    }
    int64_t grow = 0;
    if (sp->kind == 3) {
        /* twice the signed area in the raw screen coordinates (Y down),
         * summed over the fan of a clipped polygon */
        int64_t area2 = 0;
        for (unsigned i = 1; i + 1 < sp->n; i++)
            area2 += (sp->x[i] - sp->x[0]) * (sp->y[i + 1] - sp->y[0]) -
                     (sp->x[i + 1] - sp->x[0]) * (sp->y[i] - sp->y[0]);
        if (area2 == 0)
            return PRIM_ZERO_AREA;
        /* facts §3.4: "clockwise primitives" names the winding of forward-
         * facing primitives.  Mesa (vc4_state.c) sets it for gallium's
         * front_ccw, i.e. for triangles counter-clockwise as seen on the
         * Y-down screen, which have area2 < 0: clockwise in the coordinates
         * read as a Y-up plane. */
        bool cw = area2 < 0;
        bool forward = p->config.clockwise ? cw : !cw;
        if (forward ? !p->config.enable_forward_facing : !p->config.enable_reverse_facing)
            return PRIM_CULLED;
    } else if (sp->kind == 2) {
        /* a line covers at least one pixel across (GL), conservatively
         * width/2 on both axes */
        grow = half_extent(p->line_width > 1.0f ? p->line_width : 1.0f);
    } else {
        grow = half_extent(sp->point_size);
        if (grow < 0)
            return PRIM_ZERO_AREA; /* HW-2726: the PTB mishandles zero-size points */
    }
    minx -= grow;
    miny -= grow;
    maxx += grow;
    maxy += grow;
    /* pixels whose square [px, px+1) meets the box: conservative for any
     * sample position and fill rule */
    int64_t px0 = floor_div(minx, PTB_SUBPIXELS), px1 = floor_div(maxx - 1, PTB_SUBPIXELS);
    int64_t py0 = floor_div(miny, PTB_SUBPIXELS), py1 = floor_div(maxy - 1, PTB_SUBPIXELS);
    /* the frame, then the clip window */
    int64_t fx1 = (int64_t)p->cfg.width_tiles * p->tile_w_px - 1;
    int64_t fy1 = (int64_t)p->cfg.height_tiles * p->tile_h_px - 1;
    int64_t cx0 = 0, cy0 = 0, cx1 = fx1, cy1 = fy1;
    if (p->state[VC4_PTB_ST_CLIP_WINDOW].len) {
        cx0 = p->clip.left_px;
        cy0 = p->clip.bottom_px;
        cx1 = (int64_t)p->clip.left_px + p->clip.width_px - 1;
        cy1 = (int64_t)p->clip.bottom_px + p->clip.height_px - 1;
    }
    px0 = px0 > cx0 ? px0 : cx0;
    py0 = py0 > cy0 ? py0 : cy0;
    px1 = px1 < cx1 ? px1 : cx1;
    py1 = py1 < cy1 ? py1 : cy1;
    px1 = px1 < fx1 ? px1 : fx1;
    py1 = py1 < fy1 ? py1 : fy1;
    if (px0 > px1 || py0 > py1)
        return PRIM_OUTSIDE;
    r->x0 = (uint32_t)(px0 / p->tile_w_px);
    r->x1 = (uint32_t)(px1 / p->tile_w_px);
    r->y0 = (uint32_t)(py0 / p->tile_h_px);
    r->y1 = (uint32_t)(py1 / p->tile_h_px);
    return PRIM_BIN;
}

/* ---- clipping (packet 49) ---------------------------------------------------------- *
 * With clip coordinates (NV: the clip header, record flag bit 3) and
 * clipping enabled (record flag bit 2; facts §2.2), a primitive is clipped
 * in clip space against Wc >= PTB_CLIP_W_MIN and the guard band, the screen
 * range the 12.4 s16 shaded X/Y can hold, and in GL mode after a Z
 * Clipping Planes packet against near and far too (clip_planes below; which
 * planes the hardware clips against geometrically is not in the open
 * sources [?]).  Lines are cut like triangles' edges (a 49 whose record
 * holds the 2 clipped end points); points outside a plane are dropped. */
#define PTB_CLIP_W_MIN 1e-5
/* 12.4 s16 range less one pixel: |Xs|, |Ys| <= 2047 px (facts §2.4) */
#define PTB_GUARD_BAND_1_16PX (2047.0 * PTB_SUBPIXELS)
enum { CLIP_PLANES = 5, CLIP_PLANES_GL_Z = 7 };

/* GL mode with a Z Clipping Planes packet (104) or a Clipper Z Scale and
 * Offset (106): the near and far planes too, Zs = Zc / Wc x Z scale + Z
 * offset kept inside [min, max], [0, 1] until a 104 sets them.  Evidence:
 * the kernel refuses 104 in a binning list, so Mesa's lists never hold it,
 * yet a triangle with a vertex in front of the near plane is clipped
 * there on a Pi: piglit's interpolation-none-other-smooth-fixed and its
 * twins (a vertex at eye z -1 before a near plane at 1.75, Zs -1.8) pass
 * on Pi 3s in Mesa's CI (src/broadcom/ci/broadcom-rpi3-fails.txt does not
 * list them), which vc4kit failed until 2026-11-29 by clipping only after
 * a 104.  The [0, 1] before a 104 and clipping against the planes
 * geometrically are UNVERIFIED (Mesa's Z scale and offset map the depth
 * range, [0, 1] by default, so the default planes are GL's near and far;
 * under glDepthRange the hardware's planes are then not GL's).  Without
 * 104 or 106 (bare-metal lists) Z is not clipped.  A polygon clipped by
 * all 7 planes may need 10 vertices: the record holds 9 (tilelist.h), the
 * rest are dropped (a visible error only in that extreme case). */
static unsigned clip_planes(const struct vc4_ptb *p)
{
    return p->mode == VC4_PTB_MODE_GL && (p->state[VC4_PTB_ST_Z_CLIPPING].changed_seq || p->z_scaling_set)
               ? CLIP_PLANES_GL_Z
               : CLIP_PLANES;
}

struct clip_vertex {
    double c[4]; /* Xc Yc Zc Wc */
    double b[3]; /* weights of the original vertices */
    int src;     /* the original vertex it is, or -1 */
};

/* Signed distance to a plane: >= 0 inside. */
static double clip_dist(const struct vc4_ptb *p, unsigned plane, const struct clip_vertex *v)
{
    double sx = fabs((double)p->xy_scale[0]), sy = fabs((double)p->xy_scale[1]);
    double band_w = PTB_GUARD_BAND_1_16PX * v->c[3];
    switch (plane) {
    case 0: return v->c[3] - PTB_CLIP_W_MIN;
    case 1: return band_w - sx * v->c[0];
    case 2: return band_w + sx * v->c[0];
    case 3: return band_w - sy * v->c[1];
    case 4: return band_w + sy * v->c[1];
    case 5: /* near: Z scale x Zc + Z offset x Wc >= min x Wc */
        return (double)p->z_scale * v->c[2] + ((double)p->z_offset - (double)p->z_min) * v->c[3];
    default: /* far: ... <= max x Wc */
        return ((double)p->z_max - (double)p->z_offset) * v->c[3] - (double)p->z_scale * v->c[2];
    }
}

enum clip_result { CLIP_NOT_NEEDED, CLIP_REJECT, CLIP_DONE };

/* The point where the edge a -> b crosses a plane (signed distances da, db
 * of opposite signs): a + t (b - a), t = da / (da - db), in clip space and
 * in the weights. */
static void clip_lerp(const struct clip_vertex *a, const struct clip_vertex *b, double da, double db,
                      struct clip_vertex *o)
{
    double t = da / (da - db);
    for (unsigned k = 0; k < 4; k++) {
        double d = b->c[k] - a->c[k];
        double step = t * d;
        o->c[k] = a->c[k] + step;
    }
    for (unsigned k = 0; k < 3; k++) {
        double d = b->b[k] - a->b[k];
        double step = t * d;
        o->b[k] = a->b[k] + step;
    }
    o->src = -1;
}

/* A line: the segment clipped against one plane after the other (GL's
 * line clipping: the part inside every plane is kept), the end point
 * outside a plane moved onto it.  The number of end points left (2, or 0
 * when nothing remains). */
static unsigned clip_segment(const struct vc4_ptb *p, unsigned nplanes, struct clip_vertex v[2])
{
    for (unsigned pl = 0; pl < nplanes; pl++) {
        double da = clip_dist(p, pl, &v[0]), db = clip_dist(p, pl, &v[1]);
        bool ina = da >= 0.0, inb = db >= 0.0; /* NaN is outside */
        if (!ina && !inb)
            return 0;
        if (ina && inb)
            continue;
        struct clip_vertex o;
        clip_lerp(&v[0], &v[1], da, db, &o);
        v[ina ? 1 : 0] = o;
    }
    return 2;
}

/* Clip the primitive; for a line or triangle that needed it, the clipped
 * segment / polygon (screen positions in *sp, the record in *rec) and the
 * clip flags. */
static enum clip_result clip_prim(const struct vc4_ptb *p, const struct vc4_ptb_vertex *vx,
                                  unsigned nverts, struct screen_prim *sp, struct vc4_tl_clipped *rec,
                                  uint32_t *flags)
{
    struct clip_vertex in[VC4_TL_CLIP_MAX_VERTS], out[VC4_TL_CLIP_MAX_VERTS];
    unsigned nplanes = clip_planes(p);
    unsigned n = nverts, outside_all = (1u << nplanes) - 1;
    *flags = 0;
    for (unsigned i = 0; i < nverts; i++) {
        memset(&in[i], 0, sizeof in[i]);
        for (unsigned k = 0; k < 4; k++)
            in[i].c[k] = (double)vx[i].clip[k];
        in[i].b[i] = 1.0;
        in[i].src = (int)i;
        unsigned outside = 0;
        for (unsigned pl = 0; pl < nplanes; pl++)
            if (!(clip_dist(p, pl, &in[i]) >= 0.0)) /* NaN is outside */
                outside |= 1u << pl;
        if (outside)
            *flags |= 1u << i;
        outside_all &= outside;
    }
    if (!*flags)
        return CLIP_NOT_NEEDED;
    if (outside_all || nverts < 2)
        return CLIP_REJECT; /* points: kept or dropped by their centre */
    if (nverts == 2)
        n = clip_segment(p, nplanes, in);
    /* triangles: Sutherland-Hodgman, one plane at a time: each plane adds at
     * most one vertex, 3 + CLIP_PLANES <= VC4_TL_CLIP_MAX_VERTS */
    for (unsigned pl = 0; pl < nplanes && nverts == 3 && n >= 3; pl++) {
        unsigned m = 0;
        for (unsigned i = 0; i < n; i++) {
            const struct clip_vertex *a = &in[i], *b = &in[(i + 1) % n];
            double da = clip_dist(p, pl, a), db = clip_dist(p, pl, b);
            bool ina = da >= 0.0, inb = db >= 0.0;
            if (ina && m < VC4_TL_CLIP_MAX_VERTS)
                out[m++] = *a;
            if (ina != inb && m < VC4_TL_CLIP_MAX_VERTS)
                clip_lerp(a, b, da, db, &out[m++]);
        }
        memcpy(in, out, m * sizeof out[0]);
        n = m;
    }
    if (n < nverts)
        return CLIP_REJECT;
    /* project: original vertices keep their shaded values exactly */
    memset(sp, 0, sizeof *sp);
    memset(rec, 0, sizeof *rec);
    sp->kind = nverts;
    sp->n = rec->nverts = n;
    for (unsigned i = 0; i < n; i++) {
        struct vc4_tl_clip_vertex *r = &rec->v[i];
        const struct clip_vertex *cv = &in[i];
        if (cv->src >= 0) {
            const struct vc4_ptb_vertex *o = &vx[cv->src];
            r->x_1_16px = o->x_1_16px;
            r->y_1_16px = o->y_1_16px;
            r->zs = o->zs;
            r->inv_wc = o->inv_wc;
        } else {
            double inv_w = 1.0 / cv->c[3];
            double xs = cv->c[0] * inv_w, ys = cv->c[1] * inv_w, zs = cv->c[2] * inv_w;
            xs *= (double)p->xy_scale[0];
            ys *= (double)p->xy_scale[1];
            zs *= (double)p->z_scale;
            zs += (double)p->z_offset;
            /* inside the guard band the position fits s16; anything else
             * (NaN or infinite inputs) leaves nothing to draw */
            if (!(fabs(xs) <= PTB_GUARD_BAND_1_16PX + 1.0 && fabs(ys) <= PTB_GUARD_BAND_1_16PX + 1.0 &&
                  fabs(zs) <= (double)FLT_MAX && fabs(inv_w) <= (double)FLT_MAX))
                return CLIP_REJECT;
            r->x_1_16px = (int32_t)lround(xs);
            r->y_1_16px = (int32_t)lround(ys);
            r->zs = (float)zs;
            r->inv_wc = (float)inv_w;
        }
        for (unsigned k = 0; k < 3; k++)
            r->b[k] = (float)cv->b[k];
        sp->x[i] = (int64_t)r->x_1_16px + p->vp_x_1_16px;
        sp->y[i] = (int64_t)r->y_1_16px + p->vp_y_1_16px;
    }
    return CLIP_DONE;
}

/* Write the clipped record into binning memory (8-byte aligned). */
static enum alloc_result write_clipped(struct ptb_ctx *c, const struct vc4_tl_clipped *rec, uint32_t *addr)
{
    uint8_t b[VC4_TL_CLIP_HEADER + VC4_TL_CLIP_MAX_VERTS * VC4_TL_CLIP_VERTEX];
    size_t n = vc4_tl_write_clipped(rec, b, sizeof b);
    if (!n)
        return ALLOC_FAIL;
    enum alloc_result r = alloc_bytes(c, (uint32_t)n, VC4_TL_CLIP_ALIGN, addr);
    if (r == ALLOC_OK && !mem_put(c, *addr, b, (uint32_t)n))
        return ALLOC_FAIL;
    return r;
}

/* ---- primitive packets ------------------------------------------------------------- */

/* GL mode: hand every vertex index of the packet (in order) to the
 * source, which shades them in batches before the primitives are binned.
 * False: nothing to bin (diagnostics given). */
static bool prepare_vertices(struct ptb_ctx *c, const struct vc4_prim_src *s, uint32_t count,
                             const struct vc4_ptb_vertex_source *src)
{
    uint32_t npos = 0, pos[3];
    for (uint32_t k = 0; k < count; k++) { /* positions 0..npos-1 are used */
        unsigned nv = vc4_prim_positions(s, k, pos);
        for (unsigned i = 0; i < nv; i++)
            if (pos[i] + 1 > npos)
                npos = pos[i] + 1;
    }
    size_t cap = 0;
    uint32_t *idx = vc4_array_grow(c->v->alloc, NULL, &cap, npos ? npos : 1, sizeof *idx, 1);
    if (!idx) {
        ptb_diag(c, VC4_ERROR, "out of host memory for %u vertex indices: primitives dropped", npos);
        return false;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < npos; i++)
        if (src_index(c, s, i, &idx[n])) /* bad indices are reported again when binning */
            n++;
    struct vc4_location l = ptb_loc(c);
    bool ok = src->prepare(src->user, c->v, idx, n, &l);
    vc4_free(c->v->alloc, idx);
    if (!ok)
        ptb_diag(c, VC4_ERROR, "the coordinate shader could not shade the vertices: primitives dropped");
    return ok;
}

static enum vc4_ptb_result do_prims(struct ptb_ctx *c)
{
    struct vc4_ptb *p = c->p;
    struct vc4_prim_src s;
    switch (vc4_prim_src_read(c->pkt, &s)) {
    case VC4_PRIM_SRC_OK:
        break;
    case VC4_PRIM_SRC_UNDECODABLE:
        ptb_diag(c, VC4_ERROR, "cannot decode the packet");
        return VC4_PTB_ERROR;
    case VC4_PRIM_SRC_BAD_INDEX_TYPE:
        ptb_diag(c, VC4_ERROR, "index type %u is neither 8-bit (0) nor 16-bit (1)", s.index_type);
        return VC4_PTB_ERROR;
    default: /* VC4_PRIM_SRC_BAD_MODE */
        ptb_diag(c, VC4_ERROR, "primitive mode %u does not exist (0..6)", s.mode);
        return VC4_PTB_ERROR;
    }
    if (!p->started) {
        ptb_diag(c, VC4_ERROR, "primitives before Start Tile Binning: dropped");
        return VC4_PTB_ERROR;
    }
    struct vc4_ptb_vertex_source src = {0};
    switch (p->mode) {
    case VC4_PTB_MODE_NV:
        if (p->nv_valid)
            src.fetch = nv_fetch;
        break;
    case VC4_PTB_MODE_GL:
        if (c->v->vsi.bin.valid) /* the record packet 64 named was read */
            src = p->gl_source;
        break;
    default:
        break;
    }
    if (!src.fetch) {
        ptb_diag(c, VC4_ERROR, "%s: primitives dropped",
                 p->mode == VC4_PTB_MODE_NONE ? "no shader state before them"
                 : p->mode == VC4_PTB_MODE_NV ? "the NV shader record could not be read"
                 : p->mode == VC4_PTB_MODE_GL ? "the GL shader record could not be read"
                                              : "VG shader mode draws VG primitives (packets 41/42) only");
        return VC4_PTB_ERROR;
    }
    bool resumed = p->resume.active && p->resume.addr == c->addr;
    if (vc4_rule_line_loop_two(s.mode, s.len) && !resumed)
        ptb_rule(c, VC4_RULE_CL_LINE_LOOP_TWO,
                 "%s: a line loop of 2 vertices: the hardware fails to draw it; vc4kit draws nothing", c->name);
    if (!s.indexed && s.len && (uint64_t)s.first + s.len - 1 > PTB_ARRAY_INDEX_MASK && !resumed)
        ptb_rule(c, VC4_RULE_BIN_ARRAY_INDEX_16BIT,
                 "%s: vertices %u..%llu: the binner writes vertex numbers into the tile lists in 16 bits "
                 "(GFXH-515), so vertex n is rendered as vertex n mod 65536",
                 c->name, s.first, (unsigned long long)s.first + s.len - 1);
    if (!p->state[VC4_PTB_ST_CONFIG_BITS].len && s.mode >= VC4_CL_PRIM_TRIANGLES)
        ptb_diag(c, VC4_WARNING,
                 "no Configuration Bits since reset: both facings disabled, every triangle is culled");
    uint32_t count = vc4_prim_count(&s);
    if (count > PTB_MAX_PRIMS_PER_PACKET) {
        ptb_diag(c, VC4_ERROR, "%u primitives: more than the emulator's %u per packet; the rest dropped",
                 count, PTB_MAX_PRIMS_PER_PACKET);
        count = PTB_MAX_PRIMS_PER_PACKET;
    }
    /* clipping: the record's flag in NV mode; a GL source gives clip
     * coordinates only when its record enables clipping */
    bool clipping = p->mode != VC4_PTB_MODE_NV || p->nv.enable_clipping;
    uint32_t k = 0, tile0 = 0, record0 = 0;
    bool resuming = p->resume.active && p->resume.addr == c->addr && p->resume.opcode == c->pkt->opcode;
    if (resuming) {
        k = p->resume.prim;
        tile0 = p->resume.tile;
        record0 = p->resume.clip_record;
    } else if (src.prepare && !prepare_vertices(c, &s, count, &src)) {
        /* (a resumed packet keeps the vertices shaded before the stall) */
        return result(c);
    }
    p->resume.active = false;
    for (; k < count; k++, tile0 = 0, record0 = 0) {
        if (c->appends >= PTB_MAX_APPENDS_PER_PACKET) {
            ptb_diag(c, VC4_ERROR, "more than %u tile appends in one packet: the rest dropped (runaway)",
                     PTB_MAX_APPENDS_PER_PACKET);
            break;
        }
        uint32_t pos[3];
        struct vc4_tl_prim prim = {0};
        struct vc4_ptb_vertex vx[VC4_TL_MAX_VERTS];
        prim.nverts = (uint8_t)vc4_prim_positions(&s, k, pos);
        bool ok = true;
        for (unsigned i = 0; i < prim.nverts && ok; i++) {
            ok = src_index(c, &s, pos[i], &prim.index[i]);
            if (ok && !src.fetch(src.user, c->v, prim.index[i], &vx[i])) {
                ptb_diag(c, VC4_ERROR, "shaded vertex %u cannot be read: primitive %u dropped",
                         prim.index[i], k);
                ok = false;
            }
        }
        if (!ok) {
            p->stats.prims_bad++;
            p->stats.prims_in++;
            continue;
        }
        if (!s.indexed) /* GFXH-515: 16 bits into the tile lists */
            for (unsigned i = 0; i < prim.nverts; i++)
                prim.index[i] &= PTB_ARRAY_INDEX_MASK;
        struct screen_prim sp;
        struct vc4_tl_clipped rec;
        struct vc4_tl_clip_info ci = {0};
        enum clip_result cr = CLIP_NOT_NEEDED;
        bool has_clip = clipping;
        for (unsigned i = 0; i < prim.nverts; i++)
            has_clip &= vx[i].has_clip;
        if (has_clip)
            cr = clip_prim(p, vx, prim.nverts, &sp, &rec, &ci.clip_flags);
        if (cr == CLIP_NOT_NEEDED)
            screen_from_vertices(p, vx, prim.nverts, &sp);
        struct tile_rect r;
        enum prim_fate fate = cr == CLIP_REJECT ? PRIM_OUTSIDE : prim_tiles(p, &sp, &r);
        if (fate == PRIM_BIN && cr == CLIP_DONE) {
            /* the record is written once, before the first tile */
            ci.record_addr = record0;
            if (!record0) {
                enum alloc_result ar = write_clipped(c, &rec, &ci.record_addr);
                if (ar == ALLOC_FAIL)
                    return VC4_PTB_ERROR;
                if (ar == ALLOC_STALL) {
                    p->resume.active = true;
                    p->resume.addr = c->addr;
                    p->resume.opcode = c->pkt->opcode;
                    p->resume.prim = k;
                    p->resume.tile = 0;
                    p->resume.clip_record = 0;
                    return VC4_PTB_STALL;
                }
            }
        }
        if (fate != PRIM_BIN) {
            p->stats.prims_in++;
            count_unbinned(&p->stats, fate);
            continue;
        }
        uint32_t w = r.x1 - r.x0 + 1, n = w * (r.y1 - r.y0 + 1);
        for (uint32_t j = tile0; j < n; j++) {
            uint32_t tx = r.x0 + j % w, ty = r.y0 + j / w;
            enum wr_result wr = tile_append(c, ty * p->cfg.width_tiles + tx, &prim,
                                            cr == CLIP_DONE ? &ci : NULL);
            c->appends++;
            if (wr == WR_STALL) {
                p->resume.active = true;
                p->resume.addr = c->addr;
                p->resume.opcode = c->pkt->opcode;
                p->resume.prim = k;
                p->resume.tile = j;
                p->resume.clip_record = ci.record_addr;
                return VC4_PTB_STALL;
            }
            if (wr == WR_FAIL)
                return VC4_PTB_ERROR; /* memory the lists cannot be written to */
        }
        p->stats.prims_in++;
        p->stats.prims_binned++;
        if (cr == CLIP_DONE)
            p->stats.prims_clipped++;
    }
    return result(c);
}

/* A VG primitive's tiles.  A triangle as any triangle; an RHT as the two
 * triangles the renderer draws of its quadrilateral v0, v1, (B, y1),
 * (B, y0) (emu/vg.h), each culled by facing on its own (they wind the same
 * way unless the edge crosses the boundary), the union of their tiles. */
static enum prim_fate vg_prim_tiles(const struct vc4_ptb *p, bool rht, const uint32_t *xy, struct tile_rect *r)
{
    int32_t px[4], py[4];
    unsigned ntri = 1;
    if (rht) {
        vc4_vg_rht_polygon(vc4_vg_x(xy[0]), vc4_vg_y(xy[0]), vc4_vg_x(xy[1]), vc4_vg_y(xy[1]), p->rht_x_1_16px,
                           px, py);
        ntri = 2;
    } else {
        for (unsigned i = 0; i < 3; i++) {
            px[i] = vc4_vg_x(xy[i]);
            py[i] = vc4_vg_y(xy[i]);
        }
    }
    static const unsigned tris[2][3] = {{0, 1, 2}, {0, 2, 3}};
    enum prim_fate fate = PRIM_ZERO_AREA;
    bool any = false;
    for (unsigned t = 0; t < ntri; t++) {
        struct screen_prim sp;
        memset(&sp, 0, sizeof sp);
        sp.kind = sp.n = 3;
        for (unsigned i = 0; i < 3; i++) {
            sp.x[i] = (int64_t)px[tris[t][i]] + p->vp_x_1_16px;
            sp.y[i] = (int64_t)py[tris[t][i]] + p->vp_y_1_16px;
        }
        struct tile_rect tr;
        enum prim_fate f = prim_tiles(p, &sp, &tr);
        if (f != PRIM_BIN) {
            /* report the strongest reason: outside > culled > zero area */
            if (!any && (f == PRIM_OUTSIDE || (f == PRIM_CULLED && fate == PRIM_ZERO_AREA)))
                fate = f;
            continue;
        }
        if (!any) {
            *r = tr;
        } else {
            r->x0 = tr.x0 < r->x0 ? tr.x0 : r->x0;
            r->y0 = tr.y0 < r->y0 ? tr.y0 : r->y0;
            r->x1 = tr.x1 > r->x1 ? tr.x1 : r->x1;
            r->y1 = tr.y1 > r->y1 ? tr.y1 : r->y1;
        }
        any = true;
        fate = PRIM_BIN;
    }
    return fate;
}

/* VG Coordinate Array Primitives (41) / VG Inline Primitives (42): the
 * coordinates are screen positions already (emu/vg.h); each primitive is
 * bounded, culled by facing like a triangle and written into the lists of
 * the tiles it may touch (tile_append_vg).  An RHT's shape is the
 * quadrilateral between its edge and the RHT X boundary. */
static enum vc4_ptb_result do_vg_prims(struct ptb_ctx *c)
{
    struct vc4_ptb *p = c->p;
    struct vc4_vg_src src;
    struct vc4_vg_src *s = &src;
    switch (vc4_vg_src_read(c->pkt, &p->vg_fan, s)) {
    case VC4_VG_SRC_OK:
        break;
    case VC4_VG_SRC_NO_FAN:
        ptb_diag(c, VC4_WARNING, "a triangle fan continuation list with no fan before it: drawn as a new fan");
        break;
    case VC4_VG_SRC_BAD_TYPE:
        ptb_diag(c, VC4_ERROR, "VG primitive type %u does not exist (1 RHT, 3 RHT strip, 4 triangles, "
                               "5 triangle strip, 6 triangle fan)", s->type);
        return VC4_PTB_ERROR;
    case VC4_VG_SRC_BAD_ITEMS:
        ptb_diag(c, VC4_ERROR, "the inline list holds items that are not 32-bit X,Y coordinates");
        return VC4_PTB_ERROR;
    default:
        ptb_diag(c, VC4_ERROR, "cannot decode the packet");
        return VC4_PTB_ERROR;
    }
    if (s->inline_clipped)
        ptb_diag(c, VC4_ERROR, "more than %u inline vertices: the rest dropped (emulator bound)",
                 (unsigned)VC4_VG_MAX_INLINE_VERTS);
    if (!p->started) {
        ptb_diag(c, VC4_ERROR, "primitives before Start Tile Binning: dropped");
        return VC4_PTB_ERROR;
    }
    if (p->mode != VC4_PTB_MODE_VG) {
        ptb_diag(c, VC4_ERROR, "VG primitives without VG shader state (packet 66 or 67) before them: dropped");
        return VC4_PTB_ERROR;
    }
    if (!p->state[VC4_PTB_ST_CONFIG_BITS].len)
        ptb_diag(c, VC4_WARNING,
                 "no Configuration Bits since reset: both facings disabled, every VG primitive is culled");
    bool rht = vc4_vg_is_rht(s);
    if (rht && !p->state[VC4_PTB_ST_RHT_X_BOUNDARY].len)
        ptb_diag(c, VC4_WARNING, "RHT primitives without an RHT X Boundary (packet 100): the boundary is x = 0");
    uint32_t count = vc4_prim_count(&s->prim);
    if (count > PTB_MAX_PRIMS_PER_PACKET) {
        ptb_diag(c, VC4_ERROR, "%u primitives: more than the emulator's %u per packet; the rest dropped",
                 count, PTB_MAX_PRIMS_PER_PACKET);
        count = PTB_MAX_PRIMS_PER_PACKET;
    }
    uint32_t k = 0, tile0 = 0;
    if (p->resume.active && p->resume.addr == c->addr && p->resume.opcode == c->pkt->opcode) {
        k = p->resume.prim;
        tile0 = p->resume.tile;
    }
    p->resume.active = false;
    for (; k < count; k++, tile0 = 0) {
        if (c->appends >= PTB_MAX_APPENDS_PER_PACKET) {
            ptb_diag(c, VC4_ERROR, "more than %u tile appends in one packet: the rest dropped (runaway)",
                     PTB_MAX_APPENDS_PER_PACKET);
            break;
        }
        uint32_t pos[VC4_PRIM_MAX_VERTS], xy[VC4_PRIM_MAX_VERTS];
        unsigned n = vc4_prim_positions(&s->prim, k, pos);
        bool ok = true;
        for (unsigned i = 0; i < n && ok; i++)
            ok = vc4_vg_coord(&c->v->mem, s, pos[i], &xy[i]);
        p->stats.prims_in++;
        if (!ok) {
            ptb_diag(c, VC4_ERROR, "the coordinates of primitive %u are outside memory: dropped", k);
            p->stats.prims_bad++;
            continue;
        }
        struct tile_rect r = {0, 0, 0, 0};
        enum prim_fate fate = vg_prim_tiles(p, rht, xy, &r);
        if (fate != PRIM_BIN) {
            count_unbinned(&p->stats, fate);
            continue;
        }
        uint32_t w = r.x1 - r.x0 + 1, nt = w * (r.y1 - r.y0 + 1);
        for (uint32_t j = tile0; j < nt; j++) {
            uint32_t tx = r.x0 + j % w, ty = r.y0 + j / w;
            enum wr_result wr = tile_append_vg(c, ty * p->cfg.width_tiles + tx, rht, xy, n);
            c->appends++;
            if (wr == WR_STALL) {
                p->stats.prims_in--; /* counted again when it resumes */
                p->resume.active = true;
                p->resume.addr = c->addr;
                p->resume.opcode = c->pkt->opcode;
                p->resume.prim = k;
                p->resume.tile = j;
                p->resume.clip_record = 0;
                return VC4_PTB_STALL;
            }
            if (wr == WR_FAIL)
                return VC4_PTB_ERROR;
        }
        p->stats.prims_binned++;
    }
    vc4_vg_fan_update(&c->v->mem, s, &p->vg_fan);
    return result(c);
}

/* ---- dispatch ----------------------------------------------------------------------- */

typedef enum vc4_ptb_result (*ptb_handler)(struct ptb_ctx *c);

/* The binning-list packets the binner executes (facts §1 CL column B and
 * the state it copies, §4.1). */
static const ptb_handler handlers[VC4_CL_OPCODE_LIMIT] = {
    [VC4_CL_FLUSH] = do_flush,
    [VC4_CL_FLUSH_ALL_STATE] = do_flush,
    [VC4_CL_START_TILE_BINNING] = do_start,
    [VC4_CL_TILE_BINNING_MODE_CONFIG] = do_bin_config,
    [VC4_CL_INDEXED_PRIMITIVE_LIST] = do_prims,
    [VC4_CL_VERTEX_ARRAY_PRIMITIVES] = do_prims,
    [VC4_CL_VG_COORDINATE_ARRAY_PRIMITIVES] = do_vg_prims,
    [VC4_CL_VG_INLINE_PRIMITIVES] = do_vg_prims,
    [VC4_CL_PRIMITIVE_LIST_FORMAT] = do_state,
    [VC4_CL_NV_SHADER_STATE] = do_shader_state,
    [VC4_CL_GL_SHADER_STATE] = do_shader_state,
    [VC4_CL_VG_SHADER_STATE] = do_shader_state,
    [VC4_CL_VG_INLINE_SHADER_RECORD] = do_shader_state,
    [VC4_CL_CONFIGURATION_BITS] = do_state,
    [VC4_CL_FLAT_SHADE_FLAGS] = do_state,
    [VC4_CL_POINT_SIZE] = do_state,
    [VC4_CL_LINE_WIDTH] = do_state,
    [VC4_CL_RHT_X_BOUNDARY] = do_state,
    [VC4_CL_DEPTH_OFFSET] = do_state,
    [VC4_CL_CLIP_WINDOW] = do_state,
    [VC4_CL_VIEWPORT_OFFSET] = do_state,
    [VC4_CL_Z_CLIPPING_PLANES] = do_state,
    [VC4_CL_CLIPPER_XY_SCALING] = do_state,
    [VC4_CL_CLIPPER_Z_SCALING] = do_state,
};

/* HW-2116: a state update that follows a draw or Start Tile Binning
 * counts; one past Mesa's bound, the binner warns (once a binning job). */
static void hw2116_count(struct ptb_ctx *c, ptb_handler h)
{
    struct vc4_ptb *p = c->p;
    if (h == do_start) {
        p->hw2116_updates = 0;
        p->hw2116_drew = true;
    } else if (h == do_prims || h == do_vg_prims) {
        p->hw2116_drew = true;
    } else if ((h == do_state || h == do_shader_state) && p->started && p->hw2116_drew) {
        p->hw2116_drew = false;
        if (++p->hw2116_updates == PTB_HW2116_UPDATES + 1u)
            ptb_rule(c, VC4_RULE_BIN_STATE_COUNTER_WRAP,
                     "more than %u state updates after draws in one binning job (Mesa's most): the "
                     "hardware's state counters may wrap, and its wraparound handling is broken "
                     "(HW-2116); vc4kit bins on correctly",
                     PTB_HW2116_UPDATES);
    }
}

bool vc4_ptb_handles(unsigned opcode)
{
    return opcode < VC4_CL_OPCODE_LIMIT && handlers[opcode] != NULL;
}

enum vc4_ptb_result vc4_ptb_packet(struct vc4_v3d *v, const struct vc4_cl_packet_view *pkt,
                                   uint32_t addr)
{
    struct ptb_ctx c = {.v = v, .p = &v->ptb, .pkt = pkt, .addr = addr, .name = "?"};
    if (!pkt || !vc4_ptb_handles(pkt->opcode))
        return VC4_PTB_DONE;
    const struct vc4_cl_packet_desc *d = vc4_cl_packet(pkt->opcode);
    c.name = d->name;
    if (!pkt->bytes || pkt->length < d->length) {
        ptb_diag(&c, VC4_ERROR, "truncated packet (%zu of %u bytes)", pkt ? pkt->length : 0,
                 (unsigned)d->length);
        return VC4_PTB_ERROR;
    }
    hw2116_count(&c, handlers[pkt->opcode]);
    enum vc4_ptb_result r = handlers[pkt->opcode](&c);
    if (c.wrote)
        v->code_gen++; /* memory was written: cached instruction words are checked again (v3d.h) */
    return r;
}
