/*
 * tilelist.c - vc4kit's PROVISIONAL encoding of the primitives inside tile
 * lists (packets 48 and 49) and of the clipped-primitive record: writer and
 * reader side by side (see tilelist.h and docs/tile-lists.md).
 *
 * The real encoding (escape codes, relative index coding) is described only
 * in the Broadcom reference guide (hardware facts §4.1, §14).  To correct
 * it: change the item codec in src/spec/cl_prims.c (the byte framing every
 * control-list reader uses to find the length of 48/49) and the functions
 * below (what an item means), nothing else.
 */
#include "emu/tilelist.h"

#include <string.h>

#include "base/base.h"

/* Packet 49's fixed part, read and written through the cl tables. */
static const struct vc4_cl_packet_desc *clipped_desc(void)
{
    return vc4_cl_packet(VC4_CL_CLIPPED_PRIMITIVE);
}

/* ---- writer ----------------------------------------------------------------- */

/* The item that carries primitive p: 16-bit indices when every index fits. */
static bool prim_item(const struct vc4_tl_prim *p, struct vc4_cl_prim_item *it)
{
    memset(it, 0, sizeof *it);
    if (!p || p->nverts < 1 || p->nverts > VC4_TL_MAX_VERTS)
        return false;
    bool small = true;
    for (unsigned i = 0; i < p->nverts; i++) {
        it->v[i] = p->index[i];
        if (p->index[i] > UINT16_MAX)
            small = false;
    }
    it->kind = small ? VC4_CL_ITEM_IDX16 : VC4_CL_ITEM_IDX32;
    it->count = p->nverts;
    return true;
}

size_t vc4_tl_prim_size(const struct vc4_tl_prim *p)
{
    struct vc4_cl_prim_item it;
    return prim_item(p, &it) ? vc4_cl_prim_item_size(&it) : 0;
}

size_t vc4_tl_write_prim(const struct vc4_tl_prim *p, uint8_t *out, size_t cap)
{
    struct vc4_cl_prim_item it;
    return prim_item(p, &it) ? vc4_cl_prim_item_encode(&it, out, cap) : 0;
}

size_t vc4_tl_end_size(void)
{
    struct vc4_cl_prim_item end = {.kind = VC4_CL_ITEM_END};
    return vc4_cl_prim_item_size(&end);
}

size_t vc4_tl_write_end(uint8_t *out, size_t cap)
{
    struct vc4_cl_prim_item end = {.kind = VC4_CL_ITEM_END};
    return vc4_cl_prim_item_encode(&end, out, cap);
}

size_t vc4_tl_open48_size(void)
{
    const struct vc4_cl_packet_desc *d = vc4_cl_packet(VC4_CL_COMPRESSED_PRIMITIVE_LIST);
    return d ? d->length : 0;
}

size_t vc4_tl_open49_size(void)
{
    const struct vc4_cl_packet_desc *d = clipped_desc();
    return d ? d->length : 0;
}

size_t vc4_tl_write_open48(uint8_t *out, size_t cap)
{
    size_t n = vc4_tl_open48_size();
    if (!out || !n || cap < n)
        return 0;
    memset(out, 0, n);
    out[0] = VC4_CL_COMPRESSED_PRIMITIVE_LIST;
    return n;
}

size_t vc4_tl_write_open49(const struct vc4_tl_clip_info *ci, uint8_t *out, size_t cap)
{
    const struct vc4_cl_packet_desc *d = clipped_desc();
    if (!ci || !out || !d || cap < d->length)
        return 0;
    struct vc4_cl_clipped_primitive s = {.clip_flags = ci->clip_flags,
                                         .clipped_prim_addr = ci->record_addr};
    uint64_t values[VC4_CL_MAX_FIELDS];
    vc4_cl_struct_to_values(&d->layout, &s, values);
    if (vc4_cl_pack(VC4_CL_CLIPPED_PRIMITIVE, values, out, NULL) != VC4_OK)
        return 0;
    return d->length;
}

/* ---- reader ----------------------------------------------------------------- */

enum vc4_tl_status vc4_tl_begin(struct vc4_tl_reader *r, const uint8_t *bytes, size_t avail)
{
    memset(r, 0, sizeof *r);
    r->bytes = bytes;
    r->avail = bytes ? avail : 0;
    if (r->avail < 1)
        return r->status = VC4_TL_TRUNCATED;
    r->opcode = bytes[0];
    const struct vc4_cl_packet_desc *d = vc4_cl_packet(r->opcode);
    if (!d || (r->opcode != VC4_CL_COMPRESSED_PRIMITIVE_LIST && r->opcode != VC4_CL_CLIPPED_PRIMITIVE))
        return r->status = VC4_TL_BAD;
    if (avail < d->length)
        return r->status = VC4_TL_TRUNCATED;
    if (r->opcode == VC4_CL_CLIPPED_PRIMITIVE) {
        struct vc4_cl_clipped_primitive s;
        uint64_t values[VC4_CL_MAX_FIELDS];
        vc4_cl_layout_unpack(&d->layout, bytes + 1, values);
        vc4_cl_values_to_struct(&d->layout, values, &s);
        r->clip.clip_flags = s.clip_flags;
        r->clip.record_addr = s.clipped_prim_addr;
    }
    r->pos = d->length;
    return r->status = VC4_TL_OK;
}

enum vc4_tl_status vc4_tl_next(struct vc4_tl_reader *r, struct vc4_tl_prim *out)
{
    struct vc4_tl_prim dummy;
    if (!out)
        out = &dummy;
    memset(out, 0, sizeof *out);
    if (r->status != VC4_TL_OK)
        return r->status;
    if (r->pos >= r->avail)
        return r->status = VC4_TL_TRUNCATED;
    struct vc4_cl_prim_item it;
    size_t k = vc4_cl_prim_item_decode(r->bytes + r->pos, r->avail - r->pos, &it);
    if (!k) {
        /* a known tag whose data runs past the bytes is truncation */
        struct vc4_cl_prim_item probe;
        uint8_t pad[1 + 2 * VC4_TL_MAX_VERTS * 4];
        size_t have = r->avail - r->pos;
        memset(pad, 0, sizeof pad);
        memcpy(pad, r->bytes + r->pos, have < sizeof pad ? have : sizeof pad);
        bool longer = vc4_cl_prim_item_decode(pad, sizeof pad, &probe) > have;
        return r->status = longer ? VC4_TL_TRUNCATED : VC4_TL_BAD;
    }
    if (it.kind == VC4_CL_ITEM_END) {
        r->pos += k;
        return r->status = VC4_TL_END;
    }
    /* vc4kit's tile lists hold vertex indices; X/Y items are VG inline data */
    if (it.kind != VC4_CL_ITEM_IDX16 && it.kind != VC4_CL_ITEM_IDX32)
        return r->status = VC4_TL_BAD;
    /* a 49 carries exactly one primitive */
    if (r->opcode == VC4_CL_CLIPPED_PRIMITIVE && r->prims >= 1)
        return r->status = VC4_TL_BAD;
    out->nverts = it.count;
    for (unsigned i = 0; i < it.count && i < VC4_TL_MAX_VERTS; i++)
        out->index[i] = it.v[i];
    r->pos += k;
    r->prims++;
    return VC4_TL_OK;
}

enum vc4_tl_status vc4_tl_packet_length(const uint8_t *bytes, size_t avail, size_t *len)
{
    struct vc4_tl_reader r;
    size_t dummy;
    if (!len)
        len = &dummy;
    enum vc4_tl_status st = vc4_tl_begin(&r, bytes, avail);
    /* every item is at least one byte: the walk ends within avail steps */
    while (st == VC4_TL_OK)
        st = vc4_tl_next(&r, NULL);
    *len = r.pos;
    return st == VC4_TL_END ? VC4_TL_OK : st;
}

/* ---- clipped-primitive record --------------------------------------------- */

/* Record layout (tilelist.h): byte offsets inside one vertex. */
enum {
    CLIPV_XY = 0,  /* s16 X, s16 Y (12.4) */
    CLIPV_ZS = 4,
    CLIPV_INV_WC = 8,
    CLIPV_B = 12,  /* 3 x f32 */
};

size_t vc4_tl_clipped_size(unsigned nverts)
{
    if (nverts < VC4_TL_CLIP_MIN_VERTS || nverts > VC4_TL_CLIP_MAX_VERTS)
        return 0;
    return VC4_TL_CLIP_HEADER + (size_t)nverts * VC4_TL_CLIP_VERTEX;
}

size_t vc4_tl_write_clipped(const struct vc4_tl_clipped *c, uint8_t *out, size_t cap)
{
    size_t n = c ? vc4_tl_clipped_size(c->nverts) : 0;
    if (!n || !out || cap < n)
        return 0;
    memset(out, 0, n);
    vc4_st32(out, c->nverts);
    for (unsigned i = 0; i < c->nverts; i++) {
        uint8_t *q = out + VC4_TL_CLIP_HEADER + (size_t)i * VC4_TL_CLIP_VERTEX;
        const struct vc4_tl_clip_vertex *v = &c->v[i];
        vc4_st16(q + CLIPV_XY, (uint16_t)(int16_t)v->x_1_16px);
        vc4_st16(q + CLIPV_XY + 2, (uint16_t)(int16_t)v->y_1_16px);
        vc4_st32(q + CLIPV_ZS, vc4_f2u(v->zs));
        vc4_st32(q + CLIPV_INV_WC, vc4_f2u(v->inv_wc));
        for (unsigned k = 0; k < 3; k++)
            vc4_st32(q + CLIPV_B + 4 * k, vc4_f2u(v->b[k]));
    }
    return n;
}

bool vc4_tl_read_clipped(const uint8_t *bytes, size_t avail, struct vc4_tl_clipped *c)
{
    memset(c, 0, sizeof *c);
    if (!bytes || avail < VC4_TL_CLIP_HEADER)
        return false;
    uint32_t n = vc4_le32(bytes);
    size_t need = n <= VC4_TL_CLIP_MAX_VERTS ? vc4_tl_clipped_size((unsigned)n) : 0;
    if (!need || avail < need)
        return false;
    c->nverts = n;
    for (unsigned i = 0; i < n; i++) {
        const uint8_t *q = bytes + VC4_TL_CLIP_HEADER + (size_t)i * VC4_TL_CLIP_VERTEX;
        struct vc4_tl_clip_vertex *v = &c->v[i];
        v->x_1_16px = (int16_t)vc4_le16(q + CLIPV_XY);
        v->y_1_16px = (int16_t)vc4_le16(q + CLIPV_XY + 2);
        v->zs = vc4_u2f(vc4_le32(q + CLIPV_ZS));
        v->inv_wc = vc4_u2f(vc4_le32(q + CLIPV_INV_WC));
        for (unsigned k = 0; k < 3; k++)
            v->b[k] = vc4_u2f(vc4_le32(q + CLIPV_B + 4 * k));
    }
    return true;
}

/* ---- dumper ---------------------------------------------------------------- */

static const char *const prim_names[VC4_TL_MAX_VERTS + 1] = {NULL, "point", "line", "triangle"};

size_t vc4_tl_dump(const uint8_t *bytes, size_t avail, char *text, size_t size)
{
    struct vc4_out o;
    char dummy[1];
    if (!text || !size) {
        text = dummy;
        size = sizeof dummy;
    }
    vc4_out_init(&o, text, size);
    struct vc4_tl_reader r;
    enum vc4_tl_status st = vc4_tl_begin(&r, bytes, avail);
    if (st == VC4_TL_OK && r.opcode == VC4_CL_CLIPPED_PRIMITIVE) {
        vc4_out_puts(&o, "clipped flags=0b");
        for (int b = 2; b >= 0; b--)
            vc4_out_putc(&o, (char)('0' + ((r.clip.clip_flags >> b) & 1u)));
        vc4_out_puts(&o, " record=0x");
        vc4_out_hex(&o, r.clip.record_addr, 8);
        vc4_out_putc(&o, '\n');
    }
    struct vc4_tl_prim p;
    while (st == VC4_TL_OK) {
        size_t at = r.pos;
        st = vc4_tl_next(&r, &p);
        if (st == VC4_TL_OK) {
            vc4_out_puts(&o, prim_names[p.nverts]);
            for (unsigned i = 0; i < p.nverts; i++) {
                vc4_out_putc(&o, ' ');
                vc4_out_uint(&o, p.index[i]);
            }
            vc4_out_putc(&o, '\n');
        } else if (st == VC4_TL_BAD) {
            vc4_out_puts(&o, "error: bad item at +");
            vc4_out_uint(&o, at);
            vc4_out_putc(&o, '\n');
        }
    }
    if (st == VC4_TL_TRUNCATED)
        vc4_out_puts(&o, "error: truncated\n");
    else if (st == VC4_TL_BAD && r.pos == 0)
        vc4_out_puts(&o, "error: not a compressed primitive list (48/49)\n");
    return o.len;
}
