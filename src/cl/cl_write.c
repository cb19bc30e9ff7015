/*
 * cl_write.c - the control-list writer: a growable byte list on the
 * caller's allocator, generic and typed packet emitters (all packing comes
 * from the field tables), shader-record builders and attribute streams.
 */
#include <string.h>

#include "cl/cl_internal.h"

static const struct vc4_allocator *cl_alloc(const struct vc4_cl *cl)
{
    return cl->alloc.fn ? &cl->alloc : NULL;
}

static enum vc4_status fail(struct vc4_cl *cl, enum vc4_status st)
{
    if (cl->status == VC4_OK)
        cl->status = st;
    return st;
}

void vc4_cl_init(struct vc4_cl *cl, const struct vc4_allocator *alloc, uint32_t base_addr,
                 const struct vc4_diag_sink *sink)
{
    if (!cl)
        return;
    memset(cl, 0, sizeof *cl);
    if (alloc)
        cl->alloc = *alloc;
    if (sink)
        cl->sink = *sink;
    cl->base_addr = base_addr;
    cl->status = VC4_OK;
}

void vc4_cl_free(struct vc4_cl *cl)
{
    if (!cl)
        return;
    vc4_free(cl_alloc(cl), cl->data);
    cl->data = NULL;
    cl->len = cl->cap = 0;
}

/* Room for n more bytes; false (and NOMEM recorded) if not. */
static bool reserve(struct vc4_cl *cl, size_t n)
{
    if (n <= cl->cap - cl->len)
        return true;
    if (n > SIZE_MAX / 2 - cl->len) {
        fail(cl, VC4_ERR_NOMEM);
        return false;
    }
    size_t cap = cl->cap ? cl->cap : 256;
    while (cap - cl->len < n)
        cap *= 2;
    uint8_t *p = vc4_realloc(cl_alloc(cl), cl->data, cap);
    if (!p) {
        fail(cl, VC4_ERR_NOMEM);
        return false;
    }
    cl->data = p;
    cl->cap = cap;
    return true;
}

size_t vc4_cl_bytes(struct vc4_cl *cl, const void *p, size_t n)
{
    if (!cl || (n && !p) || !reserve(cl, n))
        return (size_t)-1;
    size_t at = cl->len;
    if (n)
        memcpy(cl->data + at, p, n);
    cl->len += n;
    return at;
}

size_t vc4_cl_align(struct vc4_cl *cl, size_t align)
{
    if (!cl || align == 0 || (align & (align - 1)))
        return (size_t)-1;
    /* align the bus address, not just the offset */
    size_t pad = (size_t)((align - ((uint64_t)vc4_cl_addr(cl) & (align - 1))) & (align - 1));
    if (!reserve(cl, pad))
        return (size_t)-1;
    memset(cl->data + cl->len, 0, pad);
    cl->len += pad;
    return cl->len;
}

enum vc4_status vc4_cl_emit_values(struct vc4_cl *cl, unsigned opcode, const uint64_t *values)
{
    if (!cl)
        return VC4_ERR_INVALID;
    const struct vc4_cl_packet_desc *d = vc4_cl_packet(opcode);
    if (!d) {
        struct vc4_location loc = vc4_location_none();
        loc.addr = (int64_t)cl->len;
        vc4_diag_emit(&cl->sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "cl", &loc,
                      "opcode %u is not a V3D 2.1 packet", opcode);
        return fail(cl, VC4_ERR_INVALID);
    }
    uint8_t buf[CL_MAX_FIXED_PACKET];
    enum vc4_status st = vc4_cl_pack(opcode, values, buf, &cl->sink);
    if (st != VC4_OK)
        return fail(cl, st);
    if (vc4_cl_bytes(cl, buf, d->length) == (size_t)-1)
        return VC4_ERR_NOMEM;
    return VC4_OK;
}

enum vc4_status vc4_cl_emit(struct vc4_cl *cl, unsigned opcode, const void *s)
{
    const struct vc4_cl_packet_desc *d = vc4_cl_packet(opcode);
    uint64_t values[VC4_CL_MAX_FIELDS] = {0};
    if (d)
        vc4_cl_struct_to_values(&d->layout, s, values);
    return vc4_cl_emit_values(cl, opcode, values);
}

/* The typed emitters: thin wrappers over vc4_cl_emit. */
#define DEFINE_EMITTER_0(op, id)                                               \
    enum vc4_status vc4_cl_##id(struct vc4_cl *cl) { return vc4_cl_emit(cl, VC4_CL_##op, NULL); }
#define DEFINE_EMITTER_1(op, id)                                               \
    enum vc4_status vc4_cl_##id(struct vc4_cl *cl, const struct vc4_cl_##id *p) \
    {                                                                          \
        return vc4_cl_emit(cl, VC4_CL_##op, p);                                \
    }
#define DEFINE_EMITTER(op, id, has) DEFINE_EMITTER_##has(op, id)
VC4_CL_PACKET_LIST(DEFINE_EMITTER)

enum vc4_status vc4_cl_prim_items(struct vc4_cl *cl, const struct vc4_cl_prim_item *items, size_t n)
{
    if (!cl || (n && !items))
        return VC4_ERR_INVALID;
    size_t start = cl->len;
    for (size_t i = 0; i <= n; i++) {
        static const struct vc4_cl_prim_item end = {.kind = VC4_CL_ITEM_END};
        const struct vc4_cl_prim_item *it = i < n ? &items[i] : &end;
        if (i < n && it->kind == VC4_CL_ITEM_END)
            continue; /* the list's own END comes last */
        uint8_t buf[1 + 3 * 8];
        size_t k = vc4_cl_prim_item_encode(it, buf, sizeof buf);
        if (!k) {
            struct vc4_location loc = vc4_location_none();
            loc.addr = (int64_t)cl->len;
            vc4_diag_emit(&cl->sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "cl", &loc,
                          "primitive item %zu: kind %u with %u vertices cannot be encoded", i,
                          (unsigned)it->kind, (unsigned)it->count);
            cl->len = start;
            return fail(cl, VC4_ERR_RANGE);
        }
        if (vc4_cl_bytes(cl, buf, k) == (size_t)-1) {
            cl->len = start;
            return VC4_ERR_NOMEM;
        }
    }
    return VC4_OK;
}

/* ---- records ----------------------------------------------------------- */

static enum vc4_status record_pack(enum vc4_cl_record_kind kind, const void *s, uint8_t *out,
                                   const struct vc4_diag_sink *sink)
{
    const struct vc4_cl_record_desc *r = vc4_cl_record(kind);
    uint64_t values[VC4_CL_MAX_FIELDS];
    vc4_cl_struct_to_values(&r->layout, s, values);
    return cl_layout_pack_named(&r->layout, values, out, sink, r->name);
}

static void record_unpack(enum vc4_cl_record_kind kind, const uint8_t *bytes, void *s)
{
    const struct vc4_cl_record_desc *r = vc4_cl_record(kind);
    uint64_t values[VC4_CL_MAX_FIELDS];
    vc4_cl_layout_unpack(&r->layout, bytes, values);
    vc4_cl_values_to_struct(&r->layout, values, s);
}

enum vc4_status vc4_cl_nv_shader_record_pack(const struct vc4_cl_nv_shader_record *r,
                                             uint8_t out[16], const struct vc4_diag_sink *sink)
{
    if (!r || !out)
        return VC4_ERR_INVALID;
    return record_pack(VC4_CL_REC_NV_SHADER, r, out, sink);
}

enum vc4_status vc4_cl_vg_shader_record_pack(const struct vc4_cl_vg_shader_record *r,
                                             uint8_t out[12], const struct vc4_diag_sink *sink)
{
    if (!r || !out)
        return VC4_ERR_INVALID;
    return record_pack(VC4_CL_REC_VG_SHADER, r, out, sink);
}

enum vc4_status vc4_cl_attr_record_pack(const struct vc4_cl_attr_record *a, uint8_t out[8],
                                        const struct vc4_diag_sink *sink)
{
    if (!a || !out)
        return VC4_ERR_INVALID;
    return record_pack(VC4_CL_REC_ATTRIBUTE, a, out, sink);
}

enum vc4_status vc4_cl_gl_shader_record_pack(const struct vc4_cl_gl_shader_record *r,
                                             const struct vc4_cl_attr_record *attrs,
                                             unsigned nattrs,
                                             const struct vc4_cl_ext_stride *ext_strides,
                                             uint8_t *out, size_t size,
                                             const struct vc4_diag_sink *sink)
{
    bool ext = ext_strides != NULL;
    if (!r || !out || nattrs < 1 || nattrs > VC4_CL_MAX_ATTRS || !attrs ||
        size < vc4_cl_gl_record_size(nattrs, ext))
        return VC4_ERR_INVALID;
    size_t total = vc4_cl_gl_record_size(nattrs, ext);
    memset(out, 0, total);
    enum vc4_status st = record_pack(VC4_CL_REC_GL_SHADER, r, out, sink);
    for (unsigned i = 0; st == VC4_OK && i < nattrs; i++)
        st = record_pack(VC4_CL_REC_ATTRIBUTE, &attrs[i],
                         out + VC4_CL_GL_RECORD_FIXED + i * VC4_CL_ATTR_RECORD_SIZE, sink);
    for (unsigned i = 0; st == VC4_OK && ext && i < nattrs; i++)
        st = record_pack(VC4_CL_REC_EXT_STRIDE, &ext_strides[i],
                         out + VC4_CL_GL_EXT_STRIDE_OFFSET + 4 * i, sink);
    return st;
}

void vc4_cl_nv_shader_record_unpack(const uint8_t *bytes, struct vc4_cl_nv_shader_record *r)
{
    if (bytes && r)
        record_unpack(VC4_CL_REC_NV_SHADER, bytes, r);
}

void vc4_cl_vg_shader_record_unpack(const uint8_t *bytes, struct vc4_cl_vg_shader_record *r)
{
    if (bytes && r)
        record_unpack(VC4_CL_REC_VG_SHADER, bytes, r);
}

void vc4_cl_gl_shader_record_unpack(const uint8_t *bytes, struct vc4_cl_gl_shader_record *r)
{
    if (bytes && r)
        record_unpack(VC4_CL_REC_GL_SHADER, bytes, r);
}

void vc4_cl_attr_record_unpack(const uint8_t *bytes, struct vc4_cl_attr_record *a)
{
    if (bytes && a)
        record_unpack(VC4_CL_REC_ATTRIBUTE, bytes, a);
}

enum vc4_status vc4_cl_nv_shader_record(struct vc4_cl *cl, const struct vc4_cl_nv_shader_record *r,
                                        uint32_t *addr)
{
    if (!cl || !r)
        return VC4_ERR_INVALID;
    uint8_t buf[16];
    enum vc4_status st = vc4_cl_nv_shader_record_pack(r, buf, &cl->sink);
    if (st != VC4_OK)
        return fail(cl, st);
    if (vc4_cl_align(cl, VC4_CL_RECORD_ALIGN) == (size_t)-1)
        return VC4_ERR_NOMEM;
    if (addr)
        *addr = vc4_cl_addr(cl);
    if (vc4_cl_bytes(cl, buf, sizeof buf) == (size_t)-1)
        return VC4_ERR_NOMEM;
    return VC4_OK;
}

enum vc4_status vc4_cl_gl_shader_record(struct vc4_cl *cl, const struct vc4_cl_gl_shader_record *r,
                                        const struct vc4_cl_attr_record *attrs, unsigned nattrs,
                                        const struct vc4_cl_ext_stride *ext_strides,
                                        uint32_t *addr)
{
    if (!cl)
        return VC4_ERR_INVALID;
    uint8_t buf[VC4_CL_GL_EXT_STRIDE_OFFSET + 4 * VC4_CL_MAX_ATTRS];
    size_t n = vc4_cl_gl_record_size(nattrs, ext_strides != NULL);
    enum vc4_status st =
        vc4_cl_gl_shader_record_pack(r, attrs, nattrs, ext_strides, buf, sizeof buf, &cl->sink);
    if (st != VC4_OK)
        return fail(cl, st);
    if (vc4_cl_align(cl, VC4_CL_RECORD_ALIGN) == (size_t)-1)
        return VC4_ERR_NOMEM;
    if (addr)
        *addr = vc4_cl_addr(cl);
    if (vc4_cl_bytes(cl, buf, n) == (size_t)-1)
        return VC4_ERR_NOMEM;
    return VC4_OK;
}

struct vc4_cl_attr_record vc4_cl_attr_stream(uint32_t address, unsigned vertex_bytes,
                                             unsigned stride, unsigned vs_vpm_offset,
                                             unsigned cs_vpm_offset)
{
    /* "number of bytes - 1" is what the record holds (seed 000: 11 for a
     * 12-byte vertex); 0 bytes has no encoding, so it stays 0 */
    struct vc4_cl_attr_record a = {
        .address = address,
        .num_bytes_minus_1 = vertex_bytes ? vertex_bytes - 1 : 0,
        .stride = stride,
        .vs_vpm_offset = vs_vpm_offset,
        .cs_vpm_offset = cs_vpm_offset,
    };
    return a;
}

unsigned vc4_cl_attr_total_size(const struct vc4_cl_attr_record *attrs, unsigned nattrs,
                                uint32_t select)
{
    unsigned sum = 0;
    for (unsigned i = 0; attrs && i < nattrs && i < VC4_CL_MAX_ATTRS; i++)
        if (select >> i & 1)
            sum += attrs[i].num_bytes_minus_1 + 1;
    return sum;
}
