/*
 * cl_pack.c - packing driven by the field tables (src/spec/cl_packets.c):
 * generic values <-> bytes, typed structs <-> generic values.  No field
 * position appears here; everything comes from struct vc4_cl_field_desc.
 */
#include <string.h>

#include "base/base.h"
#include "cl/cl_internal.h"

static const char *type_word(const struct vc4_cl_field_desc *f)
{
    switch ((enum vc4_cl_field_type)f->type) {
    case VC4_CL_FT_ADDRESS:
        return "an address";
    case VC4_CL_FT_SINT:
    case VC4_CL_FT_S12_4:
        return "a signed value";
    case VC4_CL_FT_BOOL:
        return "a flag";
    default:
        return "a value";
    }
}

enum vc4_status vc4_cl_layout_pack(const struct vc4_cl_layout *l, const uint64_t *values,
                                   uint8_t *out, const struct vc4_diag_sink *sink)
{
    return cl_layout_pack_named(l, values, out, sink, NULL);
}

enum vc4_status cl_layout_pack_named(const struct vc4_cl_layout *l, const uint64_t *values,
                                     uint8_t *out, const struct vc4_diag_sink *sink,
                                     const char *what)
{
    if (!l || !out || (l->nfields && !values))
        return VC4_ERR_INVALID;
    memset(out, 0, l->size);
    for (unsigned i = 0; i < l->nfields; i++) {
        const struct vc4_cl_field_desc *f = &l->fields[i];
        if (!vc4_cl_field_fits(f, values[i])) {
            struct vc4_location loc = vc4_location_none();
            if (f->type == VC4_CL_FT_ADDRESS && values[i] <= UINT32_MAX)
                vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "cl", &loc,
                              "%s%sfield '%s': address 0x%08llx is not %u-byte aligned",
                              what ? what : "", what ? ": " : "", f->name,
                              (unsigned long long)values[i], 1u << f->shift);
            else
                vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "cl", &loc,
                              "%s%sfield '%s': %s 0x%llx does not fit in %u bits",
                              what ? what : "", what ? ": " : "", f->name,
                              type_word(f), (unsigned long long)values[i], (unsigned)f->width);
            return VC4_ERR_RANGE;
        }
        vc4_cl_field_put(f, out, values[i]);
    }
    return VC4_OK;
}

void vc4_cl_layout_unpack(const struct vc4_cl_layout *l, const uint8_t *bytes, uint64_t *values)
{
    if (!l || !bytes || !values)
        return;
    for (unsigned i = 0; i < l->nfields; i++)
        values[i] = vc4_cl_field_get(&l->fields[i], bytes);
}

/* float16 ("float 1-8-7"): the upper half of an f32, truncated. */
enum { F16_SHIFT = 16 };

void vc4_cl_struct_to_values(const struct vc4_cl_layout *l, const void *s, uint64_t *values)
{
    if (!l || !values)
        return;
    const unsigned char *base = s;
    for (unsigned i = 0; i < l->nfields; i++) {
        const struct vc4_cl_field_desc *f = &l->fields[i];
        const unsigned char *m = base + f->member;
        uint64_t v = 0;
        if (!s) {
            values[i] = 0;
            continue;
        }
        switch ((enum vc4_cl_member_kind)f->member_kind) {
        case VC4_CL_MK_U32: {
            uint32_t x;
            memcpy(&x, m, sizeof x);
            v = x;
            break;
        }
        case VC4_CL_MK_U64:
            memcpy(&v, m, sizeof v);
            break;
        case VC4_CL_MK_I32: {
            int32_t x;
            memcpy(&x, m, sizeof x);
            v = (uint64_t)(int64_t)x;
            break;
        }
        case VC4_CL_MK_BOOL: {
            bool x;
            memcpy(&x, m, sizeof x);
            v = x ? 1 : 0;
            break;
        }
        case VC4_CL_MK_FLOAT: {
            float x;
            memcpy(&x, m, sizeof x);
            v = vc4_f2u(x);
            if (f->type == VC4_CL_FT_FLOAT16)
                v >>= F16_SHIFT;
            break;
        }
        }
        values[i] = v;
    }
}

void vc4_cl_values_to_struct(const struct vc4_cl_layout *l, const uint64_t *values, void *s)
{
    if (!l || !values || !s)
        return;
    unsigned char *base = s;
    for (unsigned i = 0; i < l->nfields; i++) {
        const struct vc4_cl_field_desc *f = &l->fields[i];
        unsigned char *m = base + f->member;
        uint64_t v = values[i];
        switch ((enum vc4_cl_member_kind)f->member_kind) {
        case VC4_CL_MK_U32: {
            uint32_t x = (uint32_t)v;
            memcpy(m, &x, sizeof x);
            break;
        }
        case VC4_CL_MK_U64:
            memcpy(m, &v, sizeof v);
            break;
        case VC4_CL_MK_I32: {
            int32_t x = (int32_t)(int64_t)v; /* sign-extended values fit */
            memcpy(m, &x, sizeof x);
            break;
        }
        case VC4_CL_MK_BOOL: {
            bool x = v != 0;
            memcpy(m, &x, sizeof x);
            break;
        }
        case VC4_CL_MK_FLOAT: {
            uint32_t bits = (uint32_t)v;
            if (f->type == VC4_CL_FT_FLOAT16)
                bits <<= F16_SHIFT;
            float x = vc4_u2f(bits);
            memcpy(m, &x, sizeof x);
            break;
        }
        }
    }
}

enum vc4_status vc4_cl_pack(unsigned opcode, const uint64_t *values, uint8_t *out,
                            const struct vc4_diag_sink *sink)
{
    const struct vc4_cl_packet_desc *d = vc4_cl_packet(opcode);
    if (!d || !out)
        return VC4_ERR_INVALID;
    uint8_t payload[64];
    enum vc4_status st = cl_layout_pack_named(&d->layout, values, payload, sink, d->name);
    if (st != VC4_OK)
        return st;
    out[0] = d->opcode;
    memcpy(out + 1, payload, d->layout.size);
    return VC4_OK;
}
