/*
 * rcl.c - the rendering control list the kernel writes for a submit (Linux
 * vc4_render_cl.c, vc4_get_rcl): user space never sends one; it names its
 * surfaces (colour read/write, Z/stencil read/write, multisample colour and
 * Z/stencil write), clear values and the range of tiles, and the kernel
 * checks each surface against its BO and emits the list.
 *
 * The list, carried over from Linux:
 *   Tile Rendering Mode Configuration (colour write address or 0, width,
 *     height, the colour write's bits);
 *   with USE_CLEAR_COLOR: Clear Colors, then Tile Coordinates (0,0) and a
 *     Store Tile Buffer General in None mode, so the tile buffer takes the
 *     clear values;
 *   then per tile, rows in y then x (decreasing when FIXED_RCL_ORDER asks
 *   without INCREASING_X / _Y):
 *     the colour load (general, or full-resolution with DISABLE_ZS);
 *     the Z/S load, after Tile Coordinates and a None store when a colour
 *       load came first (only one load may be outstanding);
 *     Tile Coordinates; on the first tile Wait On Semaphore (the binner);
 *     Branch To Sub-List into the tile's list (tile_alloc + 32 * (y *
 *       tiles_x + x));
 *     the multisample colour and Z/S stores (full resolution, 64x64x4
 *       bytes a tile), the Z/S store (general; DISABLE_COLOR_CLEAR unless
 *       it is the tile's last store) and the colour store (Store
 *       Multi-sample, "and EOF" on the last tile), with Tile Coordinates
 *       between stores; the last store of the last tile carries EOF.
 */
#include <errno.h>
#include <stdio.h>

#include "kernel/kernel_internal.h"
#include "spec/rules.h"
#include "vc4kit/cl.h"
#include "vc4kit/tex.h"

/* Load/Store Tile Buffer General u16 bits (vc4_packet.h). */
#define LS_BUFFER_MASK 0x7u
#define LS_BUFFER_NONE 0u
#define LS_BUFFER_COLOR 1u
#define LS_BUFFER_ZS 2u
#define LS_TILING_SHIFT 4
#define LS_TILING_MASK (3u << LS_TILING_SHIFT)
#define LS_FORMAT_SHIFT 8
#define LS_FORMAT_MASK (3u << LS_FORMAT_SHIFT)
#define LS_FORMAT_RGBA8888 0u
#define LS_FORMAT_BGR565_DITHER 1u
#define LS_FORMAT_BGR565 2u
#define STORE_DISABLE_COLOR_CLEAR (1u << 13)
#define STORE_DISABLE_ZS_CLEAR (1u << 14)
#define STORE_DISABLE_VG_MASK_CLEAR (1u << 15)
#define LS_TILE_BUFFER_EOF (1u << 3) /* in the address word */
/* Full-resolution load/store address-word bits. */
#define FULL_RES_DISABLE_COLOR (1u << 0)
#define FULL_RES_DISABLE_ZS (1u << 1)
#define FULL_RES_DISABLE_CLEAR_ALL (1u << 2)
#define FULL_RES_EOF (1u << 3)
#define FULL_RES_TILE_BYTES (64u * 64u * 4u) /* VC4_TILE_BUFFER_SIZE */
/* Tile Rendering Mode Configuration u16 bits. */
#define RENDER_MS_MODE_4X (1u << 0)
#define RENDER_FORMAT_SHIFT 2
#define RENDER_FORMAT_MASK (3u << RENDER_FORMAT_SHIFT)
#define RENDER_FORMAT_BGR565_DITHERED 0u
#define RENDER_FORMAT_RGBA8888 1u
#define RENDER_FORMAT_BGR565 2u
#define RENDER_DECIMATE_4X (1u << 4)
#define RENDER_MEMORY_FORMAT_SHIFT 6
#define RENDER_MEMORY_FORMAT_MASK (3u << RENDER_MEMORY_FORMAT_SHIFT)


struct rcl {
    struct vc4k *k;
    const struct vc4k_rcl_in *in;
    struct vc4k_bo *color_read, *color_write, *zs_read, *zs_write, *msaa_color, *msaa_zs;
    uint8_t *buf;
    size_t len, cap;
};

static int bad(struct rcl *r, const char *what, const char *fmt, ...) VC4_PRINTF(3, 4);

static int bad(struct rcl *r, const char *what, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    vc4_rule_report(&r->k->sink, VC4_ERROR, VC4K_UNIT, VC4_RULE_KERNEL_RCL_SURFACE, NULL,
                    "SUBMIT_CL: %s surface: %s (-EINVAL)", what, msg);
    return -EINVAL;
}

static void u8_(struct rcl *r, uint32_t v) { r->buf[r->len++] = (uint8_t)v; }
static void u16_(struct rcl *r, uint32_t v) { vc4_st16(r->buf + r->len, (uint16_t)v); r->len += 2; }
static void u32_(struct rcl *r, uint32_t v) { vc4_st32(r->buf + r->len, v); r->len += 4; }

/* vc4_check_tex_size: does a width x height surface of cpp bytes a pixel
 * in this tiling fit the BO from offset?  (Linear: rows padded to whole
 * micro-tiles; T: 8x8 micro-tile blocks; LT: whole micro-tiles.) */
static uint32_t round_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

bool vc4k_fits(const struct vc4k_bo *bo, uint32_t offset, unsigned tiling, uint32_t w, uint32_t h, uint32_t cpp)
{
    unsigned uw, uh;
    if (w > VC4K_MAX_DIM || h > VC4K_MAX_DIM || !vc4_tex_utile_dims(cpp * 8u, &uw, &uh))
        return false;
    uint32_t aw, ah;
    switch (tiling) {
    case VC4K_TILING_LINEAR: aw = round_up(w, uw); ah = h; break;
    case VC4K_TILING_T: aw = round_up(w, uw * 8); ah = round_up(h, uh * 8); break;
    case VC4K_TILING_LT: aw = round_up(w, uw); ah = round_up(h, uh); break;
    default: return false;
    }
    uint64_t size = (uint64_t)aw * cpp * ah;
    return size + offset <= bo->size;
}

static struct vc4k_bo *surface_bo(struct rcl *r, const char *what, const struct vc4k_surface *s, int *err)
{
    const struct vc4k_submit *sub = r->in->s;
    if (s->hindex >= sub->bo_handle_count) {
        *err = bad(r, what, "BO index %u, but the submit lists %u BOs", s->hindex, sub->bo_handle_count);
        return NULL;
    }
    struct vc4k_bo *bo = r->in->bos[s->hindex];
    if (bo->shader) {
        *err = bad(r, what, "BO index %u is a shader BO", s->hindex);
        return NULL;
    }
    return bo;
}

/* Tiles across the frame: 32 pixels wide with 4x multisampling, else 64
 * (vc4_gem.c vc4_cl_validate, from the colour write's MS_MODE_4X bit). */
static uint32_t tiles_across(const struct vc4k_submit *s)
{
    uint32_t tw = (s->color_write.bits & RENDER_MS_MODE_4X) ? 32u : 64u;
    return (s->width + tw - 1) / tw;
}

/* vc4_full_res_bounds_check: the last tile's full-resolution buffer (at
 * stride * max_y + max_x) must fit after the offset. */
static int full_res_check(struct rcl *r, const char *what, const struct vc4k_bo *bo, const struct vc4k_surface *s)
{
    const struct vc4k_submit *sub = r->in->s;
    if (s->offset > bo->size)
        return bad(r, what, "offset %u is past the %u-byte BO", s->offset, bo->size);
    uint64_t last = (uint64_t)tiles_across(sub) * sub->max_y_tile + sub->max_x_tile;
    if ((bo->size - s->offset) / FULL_RES_TILE_BYTES < last + 1)
        return bad(r, what, "full-resolution tile %llu does not fit the %u-byte BO from offset %u",
                   (unsigned long long)last, bo->size, s->offset);
    return 0;
}

static int msaa_surface(struct rcl *r, const char *what, const struct vc4k_surface *s, struct vc4k_bo **out)
{
    if (s->flags != 0 || s->bits != 0)
        return bad(r, what, "flags 0x%x / bits 0x%x must be 0", s->flags, s->bits);
    if (s->hindex == ~0u)
        return 0;
    int err = 0;
    *out = surface_bo(r, what, s, &err);
    if (!*out)
        return err;
    if (s->offset & 0xFu)
        return bad(r, what, "offset %u is not 16-byte aligned", s->offset);
    return full_res_check(r, what, *out, s);
}

static int ls_surface(struct rcl *r, const char *what, const struct vc4k_surface *s, bool is_zs_write,
                      struct vc4k_bo **out)
{
    const struct vc4k_submit *sub = r->in->s;
    if (s->flags & ~VC4K_SURFACE_READ_IS_FULL_RES)
        return bad(r, what, "unknown flags 0x%x", s->flags);
    if (s->hindex == ~0u)
        return 0;
    int err = 0;
    *out = surface_bo(r, what, s, &err);
    if (!*out)
        return err;
    if (s->flags & VC4K_SURFACE_READ_IS_FULL_RES) {
        if (is_zs_write)
            return bad(r, what, "a general Z/S write cannot be full-resolution");
        if (s->bits)
            return bad(r, what, "bits 0x%x with a full-resolution load", s->bits);
        return full_res_check(r, what, *out, s);
    }
    if (s->bits & ~(LS_TILING_MASK | LS_BUFFER_MASK | LS_FORMAT_MASK))
        return bad(r, what, "unknown load/store bits 0x%04x", s->bits);
    unsigned tiling = (s->bits & LS_TILING_MASK) >> LS_TILING_SHIFT;
    unsigned buffer = s->bits & LS_BUFFER_MASK;
    unsigned format = (s->bits & LS_FORMAT_MASK) >> LS_FORMAT_SHIFT;
    uint32_t cpp;
    if (tiling > VC4K_TILING_LT)
        return bad(r, what, "tiling %u", tiling);
    if (buffer == LS_BUFFER_ZS) {
        if (format != 0)
            return bad(r, what, "a colour format on a Z/S buffer");
        cpp = 4;
    } else if (buffer == LS_BUFFER_COLOR) {
        if (format == LS_FORMAT_RGBA8888)
            cpp = 4;
        else if (format == LS_FORMAT_BGR565 || format == LS_FORMAT_BGR565_DITHER)
            cpp = 2;
        else
            return bad(r, what, "colour format %u", format);
    } else {
        return bad(r, what, "buffer %u (only colour and Z/S)", buffer);
    }
    if (s->offset & 0xFu)
        return bad(r, what, "offset %u is not 16-byte aligned", s->offset);
    if (!vc4k_fits(*out, s->offset, tiling, sub->width, sub->height, cpp))
        return bad(r, what, "%ux%u at %u bytes a pixel from offset %u does not fit the %u-byte BO", sub->width,
                   sub->height, cpp, s->offset, (*out)->size);
    return 0;
}

static int config_surface(struct rcl *r, const struct vc4k_surface *s)
{
    const struct vc4k_submit *sub = r->in->s;
    const char *what = "colour write";
    if (s->flags != 0)
        return bad(r, what, "flags 0x%x on the render configuration", s->flags);
    if (s->bits & ~(RENDER_MEMORY_FORMAT_MASK | RENDER_FORMAT_MASK | RENDER_MS_MODE_4X | RENDER_DECIMATE_4X))
        return bad(r, what, "unknown render configuration bits 0x%04x", s->bits);
    if (s->hindex == ~0u)
        return 0;
    int err = 0;
    r->color_write = surface_bo(r, what, s, &err);
    if (!r->color_write)
        return err;
    unsigned tiling = (s->bits & RENDER_MEMORY_FORMAT_MASK) >> RENDER_MEMORY_FORMAT_SHIFT;
    unsigned format = (s->bits & RENDER_FORMAT_MASK) >> RENDER_FORMAT_SHIFT;
    uint32_t cpp;
    if (tiling > VC4K_TILING_LT)
        return bad(r, what, "tiling %u", tiling);
    if (format == RENDER_FORMAT_RGBA8888)
        cpp = 4;
    else if (format == RENDER_FORMAT_BGR565 || format == RENDER_FORMAT_BGR565_DITHERED)
        cpp = 2;
    else
        return bad(r, what, "colour format %u", format);
    if (!vc4k_fits(r->color_write, s->offset, tiling, sub->width, sub->height, cpp))
        return bad(r, what, "%ux%u at %u bytes a pixel from offset %u does not fit the %u-byte BO", sub->width,
                   sub->height, cpp, s->offset, r->color_write->size);
    return 0;
}

static uint32_t full_res_addr(const struct rcl *r, const struct vc4k_bo *bo, const struct vc4k_surface *s,
                              uint32_t x, uint32_t y)
{
    return bo->paddr + s->offset + FULL_RES_TILE_BYTES * (tiles_across(r->in->s) * y + x);
}

static void coords(struct rcl *r, uint32_t x, uint32_t y)
{
    u8_(r, VC4_CL_TILE_COORDINATES);
    u8_(r, x);
    u8_(r, y);
}

static void store_none(struct rcl *r, uint32_t bits)
{
    u8_(r, VC4_CL_STORE_TILE_BUFFER_GENERAL);
    u16_(r, LS_BUFFER_NONE | bits);
    u32_(r, 0);
}

static void load(struct rcl *r, const struct vc4k_bo *bo, const struct vc4k_surface *s, uint32_t x, uint32_t y,
                 uint32_t disable)
{
    if (s->flags & VC4K_SURFACE_READ_IS_FULL_RES) {
        u8_(r, VC4_CL_LOAD_FULL_RES_TILE_BUFFER);
        u32_(r, full_res_addr(r, bo, s, x, y) | disable);
    } else {
        u8_(r, VC4_CL_LOAD_TILE_BUFFER_GENERAL);
        u16_(r, s->bits);
        u32_(r, bo->paddr + s->offset);
    }
}

static void tile(struct rcl *r, uint32_t x, uint32_t y, bool first, bool last)
{
    const struct vc4k_submit *s = r->in->s;
    if (r->color_read)
        load(r, r->color_read, &s->color_read, x, y, FULL_RES_DISABLE_ZS);
    if (r->zs_read) {
        if (r->color_read) {
            coords(r, x, y);
            store_none(r, STORE_DISABLE_COLOR_CLEAR | STORE_DISABLE_ZS_CLEAR | STORE_DISABLE_VG_MASK_CLEAR);
        }
        load(r, r->zs_read, &s->zs_read, x, y, FULL_RES_DISABLE_COLOR);
    }
    coords(r, x, y);
    if (r->in->has_bin) {
        if (first)
            u8_(r, VC4_CL_WAIT_ON_SEMAPHORE);
        u8_(r, VC4_CL_BRANCH_TO_SUB_LIST);
        u32_(r, r->in->tile_alloc + (y * r->in->bin_tiles_x + x) * 32u);
    }
    if (r->msaa_color) {
        bool final = !r->msaa_zs && !r->zs_write && !r->color_write;
        uint32_t bits = FULL_RES_DISABLE_ZS;
        if (!final)
            bits |= FULL_RES_DISABLE_CLEAR_ALL;
        else if (last)
            bits |= FULL_RES_EOF;
        u8_(r, VC4_CL_STORE_FULL_RES_TILE_BUFFER);
        u32_(r, full_res_addr(r, r->msaa_color, &s->msaa_color_write, x, y) | bits);
    }
    if (r->msaa_zs) {
        bool final = !r->zs_write && !r->color_write;
        uint32_t bits = FULL_RES_DISABLE_COLOR;
        if (r->msaa_color)
            coords(r, x, y);
        if (!final)
            bits |= FULL_RES_DISABLE_CLEAR_ALL;
        else if (last)
            bits |= FULL_RES_EOF;
        u8_(r, VC4_CL_STORE_FULL_RES_TILE_BUFFER);
        u32_(r, full_res_addr(r, r->msaa_zs, &s->msaa_zs_write, x, y) | bits);
    }
    if (r->zs_write) {
        bool final = !r->color_write;
        if (r->msaa_color || r->msaa_zs)
            coords(r, x, y);
        u8_(r, VC4_CL_STORE_TILE_BUFFER_GENERAL);
        u16_(r, s->zs_write.bits | (final ? 0u : STORE_DISABLE_COLOR_CLEAR));
        u32_(r, (r->zs_write->paddr + s->zs_write.offset) | ((last && final) ? LS_TILE_BUFFER_EOF : 0u));
    }
    if (r->color_write) {
        if (r->msaa_color || r->msaa_zs || r->zs_write)
            coords(r, x, y);
        u8_(r, last ? VC4_CL_STORE_MS_TILE_BUFFER_AND_EOF : VC4_CL_STORE_MS_TILE_BUFFER);
    }
}

/* The most bytes one tile's part of the list can take. */
#define TILE_MAX_BYTES 64u
#define HEAD_MAX_BYTES 40u

int vc4k_rcl_build(struct vc4k *k, const struct vc4k_rcl_in *in, uint32_t *handle, uint32_t *start, uint32_t *end)
{
    const struct vc4k_submit *s = in->s;
    struct rcl r = {.k = k, .in = in};
    *handle = 0;
    if (s->min_x_tile > s->max_x_tile || s->min_y_tile > s->max_y_tile)
        return bad(&r, "tile range", "(%u,%u)-(%u,%u) is empty", s->min_x_tile, s->min_y_tile, s->max_x_tile,
                   s->max_y_tile);
    if (in->has_bin && (s->max_x_tile > in->bin_tiles_x || s->max_y_tile > in->bin_tiles_y))
        return bad(&r, "tile range", "tiles up to (%u,%u) outside the binned %ux%u", s->max_x_tile, s->max_y_tile,
                   in->bin_tiles_x, in->bin_tiles_y);
    int e;
    if ((e = config_surface(&r, &s->color_write)) ||
        (e = ls_surface(&r, "colour read", &s->color_read, false, &r.color_read)) ||
        (e = ls_surface(&r, "Z/S read", &s->zs_read, false, &r.zs_read)) ||
        (e = ls_surface(&r, "Z/S write", &s->zs_write, true, &r.zs_write)) ||
        (e = msaa_surface(&r, "multisample colour write", &s->msaa_color_write, &r.msaa_color)) ||
        (e = msaa_surface(&r, "multisample Z/S write", &s->msaa_zs_write, &r.msaa_zs)))
        return e;
    if (!r.color_write && !r.zs_write && !r.msaa_color && !r.msaa_zs)
        return bad(&r, "every", "no colour or Z/S write: the list would write nothing");

    uint32_t xt = (uint32_t)s->max_x_tile - s->min_x_tile + 1, yt = (uint32_t)s->max_y_tile - s->min_y_tile + 1;
    r.cap = HEAD_MAX_BYTES + (size_t)xt * yt * TILE_MAX_BYTES;
    r.buf = vc4_malloc(k->alloc, r.cap);
    if (!r.buf)
        return -ENOMEM;

    u8_(&r, VC4_CL_TILE_RENDERING_MODE_CONFIG);
    u32_(&r, r.color_write ? r.color_write->paddr + s->color_write.offset : 0u);
    u16_(&r, s->width);
    u16_(&r, s->height);
    u16_(&r, s->color_write.bits);
    if (s->flags & VC4K_SUBMIT_USE_CLEAR_COLOR) {
        u8_(&r, VC4_CL_CLEAR_COLORS);
        u32_(&r, s->clear_color[0]);
        u32_(&r, s->clear_color[1]);
        u32_(&r, s->clear_z);
        u8_(&r, s->clear_s);
        coords(&r, 0, 0);
        store_none(&r, 0);
    }
    bool px = true, py = true;
    if (s->flags & VC4K_SUBMIT_FIXED_RCL_ORDER) {
        px = (s->flags & VC4K_SUBMIT_RCL_ORDER_INCREASING_X) != 0;
        py = (s->flags & VC4K_SUBMIT_RCL_ORDER_INCREASING_Y) != 0;
    }
    for (uint32_t yi = 0; yi < yt; yi++) {
        uint32_t y = py ? s->min_y_tile + yi : s->max_y_tile - yi;
        for (uint32_t xi = 0; xi < xt; xi++) {
            uint32_t x = px ? s->min_x_tile + xi : s->max_x_tile - xi;
            tile(&r, x, y, xi == 0 && yi == 0, xi == xt - 1 && yi == yt - 1);
        }
    }

    struct vc4k_bo *bo;
    uint32_t h = vc4k_bo_alloc(k, (uint32_t)r.len, &bo);
    if (!h) {
        vc4_free(k->alloc, r.buf);
        return -ENOMEM;
    }
    vc4_emu_mem_write(k->emu, bo->paddr, r.buf, r.len);
    vc4_free(k->alloc, r.buf);
    *handle = h;
    *start = bo->paddr;
    *end = bo->paddr + (uint32_t)r.len;
    return 0;
}
