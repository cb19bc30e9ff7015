/*
 * vg.c - VG mode vertex sources, assembly and RHT geometry (see vg.h for
 * the rules and their evidence).
 */
#include "emu/vg.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "base/base.h"

static bool vg_type_ok(unsigned t)
{
    return t == VC4_CL_VG_RHT || t == VC4_CL_VG_RHT_STRIP || t == VC4_CL_VG_TRIANGLES ||
           t == VC4_CL_VG_TRIANGLE_STRIP || t == VC4_CL_VG_TRIANGLE_FAN;
}

/* cl.h: the VG types carry GL's numbers for the same assembly */
static_assert((unsigned)VC4_CL_VG_RHT == (unsigned)VC4_CL_PRIM_LINES, "RHT assembles as lines");
static_assert((unsigned)VC4_CL_VG_RHT_STRIP == (unsigned)VC4_CL_PRIM_LINE_STRIP, "RHT strip as line strip");
static_assert((unsigned)VC4_CL_VG_TRIANGLES == (unsigned)VC4_CL_PRIM_TRIANGLES, "triangles");
static_assert((unsigned)VC4_CL_VG_TRIANGLE_STRIP == (unsigned)VC4_CL_PRIM_TRIANGLE_STRIP, "strip");
static_assert((unsigned)VC4_CL_VG_TRIANGLE_FAN == (unsigned)VC4_CL_PRIM_TRIANGLE_FAN, "fan");

/* 42: the X,Y words of the inline items after the fixed part. */
static enum vc4_vg_src_result read_inline(const struct vc4_cl_packet_view *pv, struct vc4_vg_src *s)
{
    size_t at = vc4_cl_packet(VC4_CL_VG_INLINE_PRIMITIVES)->length;
    while (at < pv->length) {
        struct vc4_cl_prim_item it;
        size_t k = vc4_cl_prim_item_decode(pv->bytes + at, pv->length - at, &it);
        if (!k)
            return VC4_VG_SRC_BAD_ITEMS;
        at += k;
        if (it.kind == VC4_CL_ITEM_END)
            return VC4_VG_SRC_OK;
        if (it.kind != VC4_CL_ITEM_XY32)
            return VC4_VG_SRC_BAD_ITEMS;
        for (unsigned i = 0; i < it.count; i++) {
            if (s->n_inline >= VC4_VG_MAX_INLINE_VERTS) {
                s->inline_clipped = true;
                continue;
            }
            s->inline_xy[s->n_inline++] = it.v[i];
        }
    }
    return VC4_VG_SRC_BAD_ITEMS; /* no END (the cl reader does not hand such packets on) */
}

enum vc4_vg_src_result vc4_vg_src_read(const struct vc4_cl_packet_view *pv, const struct vc4_vg_fan *fan,
                                       struct vc4_vg_src *s)
{
    memset(s, 0, offsetof(struct vc4_vg_src, inline_xy));
    uint32_t cont = 0;
    if (pv->opcode == VC4_CL_VG_COORDINATE_ARRAY_PRIMITIVES) {
        struct vc4_cl_vg_coordinate_array_primitives a;
        if (vc4_cl_decode_vg_coordinate_array_primitives(pv, &a) != VC4_OK)
            return VC4_VG_SRC_UNDECODABLE;
        s->type = a.primitive_type;
        cont = a.continuation;
        s->coord_addr = a.coord_addr;
        s->prim.len = a.length;
    } else {
        struct vc4_cl_vg_inline_primitives a;
        if (vc4_cl_decode_vg_inline_primitives(pv, &a) != VC4_OK)
            return VC4_VG_SRC_UNDECODABLE;
        s->type = a.primitive_type;
        cont = a.continuation;
        s->inline_list = true;
        enum vc4_vg_src_result r = read_inline(pv, s);
        if (r != VC4_VG_SRC_OK)
            return r;
        s->prim.len = s->n_inline;
    }
    if (!vg_type_ok(s->type))
        return VC4_VG_SRC_BAD_TYPE;
    s->prim.mode = s->type;
    if (cont && s->type == VC4_CL_VG_TRIANGLE_FAN) {
        if (!fan || !fan->valid)
            return VC4_VG_SRC_NO_FAN;
        s->continuation = true;
        s->nprefix = 2;
        s->prefix[0] = fan->centre;
        s->prefix[1] = fan->last;
        s->prim.len = s->prim.len > UINT32_MAX - 2 ? UINT32_MAX : s->prim.len + 2;
    }
    return VC4_VG_SRC_OK;
}

bool vc4_vg_is_rht(const struct vc4_vg_src *s)
{
    return s->type == VC4_CL_VG_RHT || s->type == VC4_CL_VG_RHT_STRIP;
}

bool vc4_vg_coord(const struct vc4_mem *m, const struct vc4_vg_src *s, uint32_t pos, uint32_t *xy)
{
    if (pos < s->nprefix) {
        *xy = s->prefix[pos];
        return true;
    }
    pos -= s->nprefix;
    if (s->inline_list) {
        if (pos >= s->n_inline)
            return false;
        *xy = s->inline_xy[pos];
        return true;
    }
    uint64_t at = (uint64_t)s->coord_addr + (uint64_t)pos * VC4_VG_COORD_BYTES;
    uint8_t b[VC4_VG_COORD_BYTES];
    if (at > UINT32_MAX || !vc4_mem_read(m, (uint32_t)at, b, sizeof b))
        return false;
    *xy = vc4_le32(b);
    return true;
}

void vc4_vg_fan_update(const struct vc4_mem *m, const struct vc4_vg_src *s, struct vc4_vg_fan *fan)
{
    fan->valid = false;
    if (s->type != VC4_CL_VG_TRIANGLE_FAN || s->prim.len < 3)
        return;
    fan->valid = vc4_vg_coord(m, s, 0, &fan->centre) && vc4_vg_coord(m, s, s->prim.len - 1, &fan->last);
}

void vc4_vg_rht_polygon(int32_t x0, int32_t y0, int32_t x1, int32_t y1, int32_t bx, int32_t px[4], int32_t py[4])
{
    px[0] = x0;
    py[0] = y0;
    px[1] = x1;
    py[1] = y1;
    px[2] = bx;
    py[2] = y1;
    px[3] = bx;
    py[3] = y0;
}
