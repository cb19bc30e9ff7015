/*
 * cl_prims.c - packet lengths, and the primitive items of the variable-length
 * packets 42 (VG Inline Primitives), 48 (Compressed Primitive List) and 49
 * (Clipped Primitive with Compressed Primitive List).
 *
 * The guide says these payloads are "escape-terminated" lists [PL]; their
 * exact encoding (relative index coding, escape codes) is documented only in
 * the Broadcom reference guide and appears in no open source code (facts
 * §4.1).  vc4kit therefore uses its OWN PROVISIONAL item encoding, defined
 * here and nowhere else, encoder next to decoder, so that it can be replaced
 * by the real one in one place:
 *
 *   tag 0x00            end of list (the escape)
 *   tag 0x10 | n, n=1-3 n vertices as little-endian u16 indices
 *   tag 0x20 | n, n=1-3 n vertices as little-endian u32 indices
 *   tag 0x30 | n, n=1-3 n vertices as little-endian packed 32-bit X,Y words
 *                       (s16 X in bits 15:0, s16 Y in 31:16, 12.4 fixed
 *                       point: the coordinates of packet 41's array in
 *                       PeterLemon's VG demos, "32-bit X,Y" in the guide)
 *
 * Any other tag makes the packet malformed.
 */
#include <string.h>

#include "base/base.h"
#include "vc4kit/cl.h"

enum {
    ITEM_KIND_SHIFT = 4,   /* tag bits 7:4 = kind */
    ITEM_COUNT_MASK = 0xF, /* tag bits 3:0 = vertex count */
    ITEM_MAX_VERTICES = 3,
};

/* Bytes of one vertex for each kind (0 = END / invalid). */
static unsigned vertex_bytes(unsigned kind)
{
    switch (kind) {
    case VC4_CL_ITEM_IDX16:
        return 2;
    case VC4_CL_ITEM_IDX32:
        return 4;
    case VC4_CL_ITEM_XY32:
        return 4;
    default:
        return 0;
    }
}

size_t vc4_cl_prim_item_size(const struct vc4_cl_prim_item *it)
{
    if (!it)
        return 0;
    if (it->kind == VC4_CL_ITEM_END)
        return it->count == 0 ? 1 : 0;
    unsigned vb = vertex_bytes(it->kind);
    if (!vb || it->count < 1 || it->count > ITEM_MAX_VERTICES)
        return 0;
    return 1 + (size_t)vb * it->count;
}

size_t vc4_cl_prim_item_encode(const struct vc4_cl_prim_item *it, uint8_t *out, size_t cap)
{
    size_t n = vc4_cl_prim_item_size(it);
    if (!n || !out || cap < n)
        return 0;
    if (it->kind == VC4_CL_ITEM_IDX16)
        for (unsigned i = 0; i < it->count; i++)
            if (it->v[i] > UINT16_MAX)
                return 0;
    out[0] = (uint8_t)(it->kind << ITEM_KIND_SHIFT | it->count);
    uint8_t *p = out + 1;
    for (unsigned i = 0; i < it->count; i++) {
        switch (it->kind) {
        case VC4_CL_ITEM_IDX16:
            vc4_st16(p, (uint16_t)it->v[i]);
            p += 2;
            break;
        default: /* IDX32, XY32: one u32 */
            vc4_st32(p, it->v[i]);
            p += 4;
            break;
        }
    }
    return n;
}

size_t vc4_cl_prim_item_decode(const uint8_t *p, size_t avail, struct vc4_cl_prim_item *it)
{
    struct vc4_cl_prim_item tmp;
    if (!it)
        it = &tmp;
    memset(it, 0, sizeof *it);
    if (!p || avail < 1)
        return 0;
    unsigned kind = p[0] >> ITEM_KIND_SHIFT, count = p[0] & ITEM_COUNT_MASK;
    if (p[0] == 0)
        return 1; /* END */
    unsigned vb = vertex_bytes(kind);
    if (!vb || count < 1 || count > ITEM_MAX_VERTICES)
        return 0;
    size_t n = 1 + (size_t)vb * count;
    if (avail < n)
        return 0;
    it->kind = (uint8_t)kind;
    it->count = (uint8_t)count;
    const uint8_t *q = p + 1;
    for (unsigned i = 0; i < count; i++) {
        if (kind == VC4_CL_ITEM_IDX16) {
            it->v[i] = vc4_le16(q);
        } else { /* IDX32, XY32 */
            it->v[i] = vc4_le32(q);
        }
        q += vb;
    }
    return n;
}

enum vc4_cl_len_status vc4_cl_packet_length(const uint8_t *p, size_t avail, size_t *len)
{
    size_t dummy;
    if (!len)
        len = &dummy;
    *len = 0;
    if (!p || avail < 1)
        return VC4_CL_LEN_TRUNCATED;
    const struct vc4_cl_packet_desc *d = vc4_cl_packet(p[0]);
    if (!d) {
        *len = 1;
        return VC4_CL_LEN_UNKNOWN_OPCODE;
    }
    size_t n = d->length;
    if (!(d->flags & VC4_CL_PF_VARIABLE)) {
        *len = n;
        return avail < n ? VC4_CL_LEN_TRUNCATED : VC4_CL_LEN_OK;
    }
    /* variable: the fixed part, then items up to and including END */
    for (;;) {
        if (n >= avail) {
            *len = n;
            return VC4_CL_LEN_TRUNCATED;
        }
        struct vc4_cl_prim_item it;
        size_t k = vc4_cl_prim_item_decode(p + n, avail - n, &it);
        if (!k) {
            /* tell a truncated item from a bad tag */
            unsigned kind = p[n] >> ITEM_KIND_SHIFT, count = p[n] & ITEM_COUNT_MASK;
            *len = n;
            if (vertex_bytes(kind) && count >= 1 && count <= ITEM_MAX_VERTICES)
                return VC4_CL_LEN_TRUNCATED;
            return VC4_CL_LEN_BAD_PAYLOAD;
        }
        n += k;
        if (it.kind == VC4_CL_ITEM_END && k == 1) {
            *len = n;
            return VC4_CL_LEN_OK;
        }
    }
}
