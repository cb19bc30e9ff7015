/*
 * prim.c - primitive assembly (see prim.h for the rules and their sources).
 */
#include "emu/prim.h"

#include "base/base.h"

enum vc4_prim_src_result vc4_prim_src_read(const struct vc4_cl_packet_view *pv, struct vc4_prim_src *s)
{
    *s = (struct vc4_prim_src){0};
    if (pv->opcode == VC4_CL_VERTEX_ARRAY_PRIMITIVES) {
        struct vc4_cl_vertex_array_primitives a;
        if (vc4_cl_decode_vertex_array_primitives(pv, &a) != VC4_OK)
            return VC4_PRIM_SRC_UNDECODABLE;
        s->mode = a.primitive_mode;
        s->len = a.length;
        s->first = a.first_index;
    } else {
        struct vc4_cl_indexed_primitive_list a;
        if (vc4_cl_decode_indexed_primitive_list(pv, &a) != VC4_OK)
            return VC4_PRIM_SRC_UNDECODABLE;
        s->mode = a.primitive_mode;
        s->len = a.length;
        s->indexed = true;
        s->index_addr = a.index_addr;
        s->max_index = a.max_index;
        s->index_type = a.index_type;
        if (a.index_type != VC4_CL_INDEX_8BIT && a.index_type != VC4_CL_INDEX_16BIT)
            return VC4_PRIM_SRC_BAD_INDEX_TYPE;
        s->index_bytes = a.index_type == VC4_CL_INDEX_16BIT ? 2 : 1;
    }
    return s->mode > VC4_CL_PRIM_TRIANGLE_FAN ? VC4_PRIM_SRC_BAD_MODE : VC4_PRIM_SRC_OK;
}

uint32_t vc4_prim_count(const struct vc4_prim_src *s)
{
    uint32_t n = s->len;
    switch (s->mode) {
    case VC4_CL_PRIM_POINTS: return n;
    case VC4_CL_PRIM_LINES: return n / 2;
    case VC4_CL_PRIM_LINE_LOOP: return n >= 3 ? n : 0; /* 2: nothing (prim.h) */
    case VC4_CL_PRIM_LINE_STRIP: return n >= 2 ? n - 1 : 0;
    case VC4_CL_PRIM_TRIANGLES: return n / 3;
    case VC4_CL_PRIM_TRIANGLE_STRIP:
    case VC4_CL_PRIM_TRIANGLE_FAN: return n >= 3 ? n - 2 : 0;
    default: return 0;
    }
}

unsigned vc4_prim_positions(const struct vc4_prim_src *s, uint32_t k, uint32_t pos[VC4_PRIM_MAX_VERTS])
{
    switch (s->mode) {
    case VC4_CL_PRIM_POINTS:
        pos[0] = k;
        return 1;
    case VC4_CL_PRIM_LINES:
        pos[0] = 2 * k;
        pos[1] = 2 * k + 1;
        return 2;
    case VC4_CL_PRIM_LINE_LOOP: /* the last line closes the loop */
        pos[0] = k;
        pos[1] = k + 1 < s->len ? k + 1 : 0;
        return 2;
    case VC4_CL_PRIM_LINE_STRIP:
        pos[0] = k;
        pos[1] = k + 1;
        return 2;
    case VC4_CL_PRIM_TRIANGLES:
        pos[0] = 3 * k;
        pos[1] = 3 * k + 1;
        pos[2] = 3 * k + 2;
        return 3;
    case VC4_CL_PRIM_TRIANGLE_STRIP: /* odd triangles swap their first two
                                       * vertices to keep the winding (GL) */
        pos[0] = k & 1 ? k + 1 : k;
        pos[1] = k & 1 ? k : k + 1;
        pos[2] = k + 2;
        return 3;
    default: /* VC4_CL_PRIM_TRIANGLE_FAN */
        pos[0] = 0;
        pos[1] = k + 1;
        pos[2] = k + 2;
        return 3;
    }
}

enum vc4_prim_index_result vc4_prim_index(const struct vc4_mem *m, const struct vc4_prim_src *s, uint32_t pos,
                                          uint32_t *idx)
{
    if (!s->indexed) {
        if (pos > UINT32_MAX - s->first)
            return VC4_PRIM_INDEX_OVERFLOW;
        *idx = s->first + pos;
        return VC4_PRIM_INDEX_OK;
    }
    uint32_t at = s->index_addr + pos * s->index_bytes;
    uint8_t b[2] = {0, 0};
    if (!vc4_mem_read(m, at, b, s->index_bytes))
        return VC4_PRIM_INDEX_OUTSIDE;
    *idx = s->index_bytes == 2 ? vc4_le16(b) : b[0];
    /* the packet's maximum index bounds every index (facts §1 op 32) */
    return *idx > s->max_index ? VC4_PRIM_INDEX_ABOVE_MAX : VC4_PRIM_INDEX_OK;
}
