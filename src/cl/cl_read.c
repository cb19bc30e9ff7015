/*
 * cl_read.c - the control-list reader: walks a byte buffer packet by packet
 * (bounds-checked; lengths from the packet table and, for the variable
 * packets, from the item framing in src/spec/cl_prims.c) and decodes fields
 * by name.  Never reads past the buffer, whatever the bytes.
 */
#include <string.h>

#include "cl/cl_internal.h"

void vc4_cl_reader_init(struct vc4_cl_reader *r, const uint8_t *data, size_t size)
{
    if (!r)
        return;
    memset(r, 0, sizeof *r);
    r->data = data;
    r->size = data ? size : 0;
    r->error = VC4_CL_LEN_OK;
}

bool vc4_cl_next(struct vc4_cl_reader *r, struct vc4_cl_packet_view *out)
{
    struct vc4_cl_packet_view tmp;
    if (!out)
        out = &tmp;
    memset(out, 0, sizeof *out);
    if (!r || r->error != VC4_CL_LEN_OK || r->pos >= r->size)
        return false;
    const uint8_t *p = r->data + r->pos;
    size_t avail = r->size - r->pos, len = 0;
    enum vc4_cl_len_status st = vc4_cl_packet_length(p, avail, &len);
    out->opcode = p[0];
    out->desc = vc4_cl_packet(p[0]);
    out->bytes = p;
    out->offset = r->pos;
    out->payload = p + 1;
    if (st != VC4_CL_LEN_OK) {
        out->length = len < avail ? len : avail;
        r->error = st;
        r->error_offset = r->pos;
        return false;
    }
    out->length = len;
    r->pos += len;
    return true;
}

enum vc4_status vc4_cl_decode(const struct vc4_cl_packet_view *p, uint64_t *values)
{
    if (!p || !p->desc || !values || !p->bytes || p->length < p->desc->length)
        return VC4_ERR_INVALID;
    vc4_cl_layout_unpack(&p->desc->layout, p->bytes + 1, values);
    return VC4_OK;
}

enum vc4_status vc4_cl_decode_struct(const struct vc4_cl_packet_view *p, void *s)
{
    uint64_t values[VC4_CL_MAX_FIELDS];
    enum vc4_status st = vc4_cl_decode(p, values);
    if (st == VC4_OK && s)
        vc4_cl_values_to_struct(&p->desc->layout, values, s);
    return st;
}

/* The typed decoders: the opcode checked, then vc4_cl_decode_struct. */
#define DEFINE_DECODER_0(op, id)
#define DEFINE_DECODER_1(op, id)                                                                   \
    enum vc4_status vc4_cl_decode_##id(const struct vc4_cl_packet_view *p, struct vc4_cl_##id *out) \
    {                                                                                              \
        if (!p || p->opcode != VC4_CL_##op || !out)                                                \
            return VC4_ERR_INVALID;                                                                \
        return vc4_cl_decode_struct(p, out);                                                       \
    }
#define DEFINE_DECODER(op, id, has) DEFINE_DECODER_##has(op, id)
VC4_CL_PACKET_LIST(DEFINE_DECODER)

enum vc4_status vc4_cl_get(const struct vc4_cl_packet_view *p, const char *field, uint64_t *value)
{
    if (!p || !p->desc || !p->bytes || p->length < p->desc->length)
        return VC4_ERR_INVALID;
    int i = vc4_cl_field_index(&p->desc->layout, field);
    if (i < 0)
        return VC4_ERR_INVALID;
    if (value)
        *value = vc4_cl_field_get(&p->desc->layout.fields[i], p->bytes + 1);
    return VC4_OK;
}
