/*
 * cl_dump.c - control lists as assembler text, and the assembler's include
 * file that reads that text back (share/vc4kit/v3d_cl.qinc).
 *
 * Both are generated from the tables in src/spec/cl_packets.c:
 *   - v3d_cl.qinc has one .macro per packet, per shader record and per
 *     primitive item; a macro's parameters are the field names, in table
 *     order, and its body packs them into the bytes (with .assert range
 *     checks), e.g. GL_Shader_State num_attr_arrays, extended, record_addr;
 *   - the dumper prints each packet as one `.set field, value` line per
 *     field, then the macro call with the field names as arguments, so the
 *     text assembled by `vc4kit as` gives back the identical bytes.  What
 *     the macros cannot reproduce (reserved bits set, NaN/Inf floats,
 *     unknown opcodes, truncated packets) is printed as .byte lines.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl/cl_internal.h"

/* ---- containers: the little-endian integers a layout's fields live in ---- */

struct container {
    uint8_t offset, bytes;
    uint8_t first, count; /* fields [first, first + count) in table order share it */
};

/* Group a layout's fields by byte offset (fields sharing an offset share a
 * container; its size is the widest field's).  Fields of one container are
 * contiguous in every table (a table test checks it). */
static unsigned containers(const struct vc4_cl_layout *l, struct container *c, unsigned max)
{
    unsigned n = 0;
    for (unsigned i = 0; i < l->nfields; i++) {
        const struct vc4_cl_field_desc *f = &l->fields[i];
        unsigned b = (unsigned)(f->shift + f->width + 7) / 8;
        if (n && c[n - 1].offset == f->offset) {
            c[n - 1].count++;
            if (b > c[n - 1].bytes)
                c[n - 1].bytes = (uint8_t)b;
            continue;
        }
        if (n == max)
            break;
        c[n++] = (struct container){.offset = f->offset, .bytes = (uint8_t)b, .first = (uint8_t)i,
                                    .count = 1};
    }
    return n;
}

/* ---- the include file ----------------------------------------------------- */

static const char *type_name(const struct vc4_cl_field_desc *f)
{
    switch ((enum vc4_cl_field_type)f->type) {
    case VC4_CL_FT_UINT:
        return "uint";
    case VC4_CL_FT_SINT:
        return "sint";
    case VC4_CL_FT_BOOL:
        return "bool";
    case VC4_CL_FT_ENUM:
        return "enum";
    case VC4_CL_FT_FLOAT:
        return "float";
    case VC4_CL_FT_FLOAT16:
        return "float16 raw bits";
    case VC4_CL_FT_ADDRESS:
        return "address";
    case VC4_CL_FT_S12_4:
        return "s12.4 (1/16 px)";
    case VC4_CL_FT_COUNT:
        break;
    }
    return "?";
}

static void qinc_field_doc(struct vc4_out *o, const struct vc4_cl_field_desc *f)
{
    vc4_out_printf(o, "#   %-26s byte %u bits %u..%u %s: %s", f->name, (unsigned)f->offset,
                   (unsigned)f->shift + f->width - 1, (unsigned)f->shift, type_name(f), f->desc);
    for (unsigned k = 0; k < f->nvalues; k++)
        vc4_out_printf(o, "%s%u %s", k ? ", " : " (", (unsigned)f->values[k].value,
                       f->values[k].name);
    vc4_out_puts(o, f->nvalues ? ")\n" : "\n");
}

/* .assert lines that keep a value inside its field. */
static void qinc_field_assert(struct vc4_out *o, const struct vc4_cl_field_desc *f)
{
    const char *n = f->name;
    switch ((enum vc4_cl_field_type)f->type) {
    case VC4_CL_FT_FLOAT:
        return; /* any float */
    case VC4_CL_FT_SINT:
    case VC4_CL_FT_S12_4:
        vc4_out_printf(o, "    .assert %s >= -0x%llx && %s <= 0x%llx\n", n,
                       1ull << (f->width - 1), n, (1ull << (f->width - 1)) - 1);
        return;
    case VC4_CL_FT_ADDRESS:
        vc4_out_printf(o, "    .assert %s >= 0 && %s <= 0xffffffff", n, n);
        if (f->shift)
            vc4_out_printf(o, " && (%s & 0x%x) == 0", n, (1u << f->shift) - 1);
        vc4_out_puts(o, "\n");
        return;
    default:
        if (f->width >= 64)
            return;
        vc4_out_printf(o, "    .assert %s >= 0 && %s <= 0x%llx\n", n, n,
                       (1ull << f->width) - 1);
        return;
    }
}

/* The expression of one container: the OR of its fields in place. */
static void qinc_container_expr(struct vc4_out *o, const struct vc4_cl_layout *l,
                                const struct container *c)
{
    for (unsigned k = 0; k < c->count; k++) {
        const struct vc4_cl_field_desc *f = &l->fields[c->first + k];
        if (k)
            vc4_out_puts(o, " | ");
        if (f->type == VC4_CL_FT_ADDRESS) {
            vc4_out_puts(o, f->name); /* bits in place */
        } else if (f->type == VC4_CL_FT_SINT || f->type == VC4_CL_FT_S12_4) {
            vc4_out_printf(o, "((%s & 0x%llx) << %u)", f->name, (1ull << f->width) - 1,
                           (unsigned)f->shift);
        } else if (f->shift) {
            vc4_out_printf(o, "(%s << %u)", f->name, (unsigned)f->shift);
        } else {
            vc4_out_puts(o, f->name);
        }
    }
}

/* Data directives for a layout of size bytes (gaps are zero bytes). */
static void qinc_layout_body(struct vc4_out *o, const struct vc4_cl_layout *l)
{
    struct container c[VC4_CL_MAX_FIELDS];
    unsigned nc = containers(l, c, VC4_CL_MAX_FIELDS);
    for (unsigned i = 0; i < l->nfields; i++)
        qinc_field_assert(o, &l->fields[i]);
    unsigned at = 0;
    for (unsigned i = 0; i < nc; i++) {
        for (; at < c[i].offset; at++)
            vc4_out_puts(o, "    .byte 0\n");
        const struct vc4_cl_field_desc *f0 = &l->fields[c[i].first];
        if (c[i].count == 1 && f0->type == VC4_CL_FT_FLOAT) {
            vc4_out_printf(o, "    .float %s\n", f0->name);
        } else if (c[i].bytes == 1 || c[i].bytes == 2 || c[i].bytes == 4 || c[i].bytes == 8) {
            const char *dir = c[i].bytes == 1 ? ".byte" : c[i].bytes == 2 ? ".short"
                            : c[i].bytes == 4 ? ".int" : ".quad";
            vc4_out_printf(o, "    %s ", dir);
            qinc_container_expr(o, l, &c[i]);
            vc4_out_puts(o, "\n");
        } else {
            /* odd sizes (the 24-bit configuration bits): byte by byte */
            vc4_out_puts(o, "    .lset cl_bits, ");
            qinc_container_expr(o, l, &c[i]);
            vc4_out_puts(o, "\n");
            for (unsigned b = 0; b < c[i].bytes; b++)
                vc4_out_printf(o, "    .byte (cl_bits >> %u) & 0xff\n", 8 * b);
        }
        at = c[i].offset + c[i].bytes;
    }
    for (; at < l->size; at++)
        vc4_out_puts(o, "    .byte 0\n");
}

static void qinc_macro_head(struct vc4_out *o, const char *macro, const struct vc4_cl_layout *l)
{
    vc4_out_printf(o, ".macro %s", macro);
    for (unsigned i = 0; i < l->nfields; i++)
        vc4_out_printf(o, ", %s", l->fields[i].name);
    vc4_out_puts(o, "\n");
}

static const char *list_words(unsigned lists)
{
    switch (lists) {
    case VC4_CL_LIST_BIN:
        return "binning list only";
    case VC4_CL_LIST_RENDER:
        return "rendering list only";
    default:
        return "either list";
    }
}

size_t vc4_cl_qinc(char *text, size_t text_size)
{
    struct vc4_out o;
    char dummy[1];
    if (!text) {
        text = dummy;
        text_size = sizeof dummy;
    }
    vc4_out_init(&o, text, text_size);
    vc4_out_puts(&o,
                 "# v3d_cl.qinc - V3D 2.1 control-list packets and shader records as vc4asm\n"
                 "# macros.  GENERATED from vc4kit's tables (src/spec/cl_packets.c) by\n"
                 "# vc4_cl_qinc(); do not edit (tests/unit/test_cl_dump.c checks it).\n"
                 "#\n"
                 "# One macro per packet, record and primitive item; the parameters are the\n"
                 "# field names in table order.  Addresses are byte addresses (an address\n"
                 "# field sharing its word with flags must have its low bits clear); floats\n"
                 "# are floats; s12.4 values are in 1/16 pixel; float16 values are the raw\n"
                 "# upper 16 bits of an f32.  `vc4kit cl dump` prints lists in this form.\n"
                 "#\n"
                 "#   .include \"v3d_cl.qinc\"\n"
                 "#   Tile_Binning_Mode_Configuration 0x100000, 0x8000, 0x110000, 10, 8, 0, 0, 1, 0, 0, 0\n"
                 "#   Start_Tile_Binning\n"
                 "#   GL_Shader_State 2, 0, r:gl_record   # seed 000: .byte 0x40 .int address|2\n"
                 "# (a label as a macro argument is written r:label or (:label))\n");
    for (unsigned op = 0; op < VC4_CL_OPCODE_LIMIT; op++) {
        const struct vc4_cl_packet_desc *d = vc4_cl_packet(op);
        if (!d)
            continue;
        vc4_out_printf(&o, "\n# %u: %s, %u bytes%s, %s%s. %s\n", op, d->name, (unsigned)d->length,
                       d->flags & VC4_CL_PF_VARIABLE ? " + items (Prim_* macros, Prim_End)" : "",
                       list_words(d->lists),
                       d->flags & VC4_CL_PF_UNVERIFIED ? ", unverified" : "", d->source);
        for (unsigned i = 0; i < d->layout.nfields; i++)
            qinc_field_doc(&o, &d->layout.fields[i]);
        qinc_macro_head(&o, d->macro, &d->layout);
        vc4_out_printf(&o, "    .byte %u\n", op);
        qinc_layout_body(&o, &d->layout);
        vc4_out_puts(&o, ".endm\n");
    }
    for (unsigned k = 0; k < VC4_CL_REC_COUNT; k++) {
        const struct vc4_cl_record_desc *r = vc4_cl_record((enum vc4_cl_record_kind)k);
        vc4_out_printf(&o, "\n# %s, %u bytes%s. %s\n", r->name, (unsigned)r->layout.size,
                       r->align > 1 ? " (16-byte aligned: put `.align 16` before its label)" : "",
                       r->source);
        for (unsigned i = 0; i < r->layout.nfields; i++)
            qinc_field_doc(&o, &r->layout.fields[i]);
        qinc_macro_head(&o, r->macro, &r->layout);
        qinc_layout_body(&o, &r->layout);
        vc4_out_puts(&o, ".endm\n");
    }
    /* primitive items: vc4kit's provisional encoding (src/spec/cl_prims.c) */
    vc4_out_puts(&o,
                 "\n# Items of packets 42, 48, 49 (vc4kit's PROVISIONAL encoding, see\n"
                 "# docs/control-lists.md): a tag byte (kind << 4 | count), count vertices.\n"
                 ".macro Prim_End\n"
                 "    .byte 0\n"
                 ".endm\n");
    static const struct {
        const char *name, *dir;
        unsigned kind, words;
    } items[] = {
        {"Prim_Idx16", ".short", VC4_CL_ITEM_IDX16, 1},
        {"Prim_Idx32", ".int", VC4_CL_ITEM_IDX32, 1},
        {"Prim_XY32", ".int", VC4_CL_ITEM_XY32, 1}, /* packed s16 X | s16 Y << 16 */
    };
    for (unsigned k = 0; k < VC4_ARRAY_SIZE(items); k++) {
        unsigned w = items[k].words;
        vc4_out_printf(&o, ".macro %s, count", items[k].name);
        for (unsigned v = 0; v < 3 * w; v++)
            vc4_out_printf(&o, ", v%u", v);
        vc4_out_printf(&o, "\n    .assert count >= 1 && count <= 3\n    .byte 0x%x | count\n",
                       items[k].kind << 4);
        for (unsigned v = 0; v < 3; v++) {
            if (v)
                vc4_out_printf(&o, "    .if count > %u\n", v);
            for (unsigned j = 0; j < w; j++)
                vc4_out_printf(&o, "    %s v%u\n", items[k].dir, v * w + j);
            if (v)
                vc4_out_puts(&o, "    .endif\n");
        }
        vc4_out_puts(&o, ".endm\n");
    }
    return o.len;
}

/* ---- the dumper ------------------------------------------------------------- */

/* A float as text the assembler reads back to the same f32: the shortest
 * %.*g whose strtod is exactly the float (then the assembler's double ->
 * float conversion is exact), always with a '.' or exponent.  false for
 * NaN / Inf, which have no literal. */
static bool float_text(float f, char *buf, size_t size)
{
    if (!isfinite(f))
        return false;
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, (double)f);
        if (strtod(buf, NULL) == (double)f)
            break;
    }
    if (!strpbrk(buf, ".en")) {
        size_t n = strlen(buf);
        if (n + 3 <= size)
            memcpy(buf + n, ".0", 3);
    }
    return true;
}

static bool hex_field(const struct vc4_cl_field_desc *f)
{
    if (f->type == VC4_CL_FT_ADDRESS || f->type == VC4_CL_FT_FLOAT16 || f->width > 32)
        return true;
    /* bit masks and raw pixel values read better in hex */
    return f->type == VC4_CL_FT_UINT &&
           (strstr(f->name, "flags") || strstr(f->name, "select") || strstr(f->name, "clear_"));
}

/* Print one field's value; false if it has no text form (NaN/Inf). */
static bool value_text(const struct vc4_cl_field_desc *f, uint64_t v, char *buf, size_t size)
{
    switch ((enum vc4_cl_field_type)f->type) {
    case VC4_CL_FT_FLOAT:
        return float_text(vc4_u2f((uint32_t)v), buf, size);
    case VC4_CL_FT_SINT:
    case VC4_CL_FT_S12_4:
        snprintf(buf, size, "%lld", (long long)(int64_t)v);
        return true;
    default:
        if (f->width > 32) /* the assembler's literals stop at 63 bits */
            snprintf(buf, size, "(0x%08llx << 32) | 0x%08llx", (unsigned long long)(v >> 32),
                     (unsigned long long)(v & UINT32_MAX));
        else if (hex_field(f))
            snprintf(buf, size, f->type == VC4_CL_FT_ADDRESS ? "0x%08llx" : "0x%llx",
                     (unsigned long long)v);
        else
            snprintf(buf, size, "%llu", (unsigned long long)v);
        return true;
    }
}

static void value_comment(struct vc4_out *o, const struct vc4_cl_field_desc *f, uint64_t v)
{
    const char *en = f->type == VC4_CL_FT_ENUM ? vc4_cl_enum_name(f, (uint32_t)v) : NULL;
    if (en)
        vc4_out_printf(o, "  # %s", en);
    else if (f->type == VC4_CL_FT_S12_4)
        vc4_out_printf(o, "  # %.4f px", (double)(int64_t)v / 16.0);
    else if (f->type == VC4_CL_FT_FLOAT16) {
        char fb[40];
        if (float_text(vc4_u2f((uint32_t)v << 16), fb, sizeof fb))
            vc4_out_printf(o, "  # %s", fb);
    } else if (f->type == VC4_CL_FT_ENUM)
        vc4_out_puts(o, "  # (no name)");
}

static void raw_bytes(struct vc4_out *o, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i % 16 == 0)
            vc4_out_puts(o, i ? "\n    .byte " : "    .byte ");
        else
            vc4_out_puts(o, ", ");
        vc4_out_printf(o, "0x%02x", p[i]);
    }
    if (n)
        vc4_out_puts(o, "\n");
}

/* Does the packet's fixed part re-pack to the same bytes, with text for
 * every value? */
static bool packet_has_text(const struct vc4_cl_packet_desc *d, const uint8_t *payload,
                            const uint64_t *values)
{
    uint8_t again[CL_MAX_FIXED_PACKET];
    if (vc4_cl_layout_pack(&d->layout, values, again, NULL) != VC4_OK ||
        memcmp(again, payload, d->layout.size) != 0)
        return false;
    for (unsigned i = 0; i < d->layout.nfields; i++) {
        char buf[64];
        if (!value_text(&d->layout.fields[i], values[i], buf, sizeof buf))
            return false;
    }
    return true;
}

static void dump_items(struct vc4_out *o, const uint8_t *p, size_t n)
{
    size_t at = 0;
    while (at < n) {
        struct vc4_cl_prim_item it;
        size_t k = vc4_cl_prim_item_decode(p + at, n - at, &it);
        if (!k) { /* cannot happen for a packet the reader accepted */
            raw_bytes(o, p + at, n - at);
            return;
        }
        if (it.kind == VC4_CL_ITEM_END) {
            vc4_out_puts(o, "    Prim_End\n");
        } else {
            static const char *const names[] = {
                [VC4_CL_ITEM_IDX16] = "Prim_Idx16",
                [VC4_CL_ITEM_IDX32] = "Prim_Idx32",
                [VC4_CL_ITEM_XY32] = "Prim_XY32",
            };
            unsigned nv = it.count;
            vc4_out_printf(o, "    %s %u", names[it.kind], (unsigned)it.count);
            for (unsigned v = 0; v < nv; v++)
                vc4_out_printf(o, it.kind == VC4_CL_ITEM_IDX16 ? ", %u" : ", 0x%x", it.v[v]);
            vc4_out_puts(o, "\n");
        }
        at += k;
    }
}

/* The memory bytes at addr, if the options give them. */
static const uint8_t *dump_mem(const struct vc4_cl_dump_options *opts, uint64_t addr, uint64_t len)
{
    uint64_t lo = opts->mem_base, hi = lo + opts->mem_size;
    if (!opts->mem || addr < lo || addr > hi || len > hi - addr)
        return NULL;
    return opts->mem + (addr - lo);
}

/* A record's fields as comment lines. */
static void record_comment(struct vc4_out *o, enum vc4_cl_record_kind kind, const uint8_t *bytes,
                           uint64_t addr, const char *title)
{
    const struct vc4_cl_record_desc *r = vc4_cl_record(kind);
    uint64_t v[VC4_CL_MAX_FIELDS];
    vc4_cl_layout_unpack(&r->layout, bytes, v);
    vc4_out_printf(o, "#   %s at 0x%08llx (%s):\n", title ? title : r->name,
                   (unsigned long long)addr, r->macro);
    for (unsigned i = 0; i < r->layout.nfields; i++) {
        const struct vc4_cl_field_desc *f = &r->layout.fields[i];
        char buf[64];
        if (!value_text(f, v[i], buf, sizeof buf))
            snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v[i]);
        vc4_out_printf(o, "#     %s = %s", f->name, buf);
        value_comment(o, f, v[i]);
        vc4_out_puts(o, "\n");
    }
}

/* The shader record a shader-state packet points to, as comments. */
static void shader_record_comments(struct vc4_out *o, const struct vc4_cl_packet_view *pk,
                                   const uint64_t *values, const struct vc4_cl_dump_options *opts)
{
    if (pk->opcode == VC4_CL_NV_SHADER_STATE) {
        struct vc4_cl_nv_shader_state s;
        vc4_cl_values_to_struct(&pk->desc->layout, values, &s);
        const uint8_t *b = dump_mem(opts, s.record_addr,
                                    vc4_cl_record(VC4_CL_REC_NV_SHADER)->layout.size);
        if (b)
            record_comment(o, VC4_CL_REC_NV_SHADER, b, s.record_addr, NULL);
    } else if (pk->opcode == VC4_CL_VG_SHADER_STATE) {
        struct vc4_cl_vg_shader_state s;
        vc4_cl_values_to_struct(&pk->desc->layout, values, &s);
        const uint8_t *b = dump_mem(opts, s.record_addr, vc4_cl_record(VC4_CL_REC_VG_SHADER)->layout.size);
        if (b)
            record_comment(o, VC4_CL_REC_VG_SHADER, b, s.record_addr, NULL);
    } else if (pk->opcode == VC4_CL_GL_SHADER_STATE) {
        struct vc4_cl_gl_shader_state s;
        vc4_cl_values_to_struct(&pk->desc->layout, values, &s);
        unsigned n = s.num_attr_arrays ? s.num_attr_arrays : VC4_CL_MAX_ATTRS;
        const uint8_t *b = dump_mem(opts, s.record_addr, vc4_cl_gl_record_size(n, s.extended));
        if (!b)
            return;
        record_comment(o, VC4_CL_REC_GL_SHADER, b, s.record_addr, NULL);
        for (unsigned i = 0; i < n; i++) {
            char title[48];
            unsigned at = VC4_CL_GL_RECORD_FIXED + i * VC4_CL_ATTR_RECORD_SIZE;
            snprintf(title, sizeof title, "attribute record %u", i);
            record_comment(o, VC4_CL_REC_ATTRIBUTE, b + at, s.record_addr + at, title);
            if (s.extended) {
                at = VC4_CL_GL_EXT_STRIDE_OFFSET + 4 * i;
                snprintf(title, sizeof title, "extended stride %u", i);
                record_comment(o, VC4_CL_REC_EXT_STRIDE, b + at, s.record_addr + at, title);
            }
        }
    }
}

static void dump_packet(struct vc4_out *o, const struct vc4_cl_packet_view *pk,
                        const struct vc4_cl_dump_options *opts)
{
    const struct vc4_cl_packet_desc *d = pk->desc;
    uint64_t values[VC4_CL_MAX_FIELDS];
    vc4_cl_layout_unpack(&d->layout, pk->payload, values);
    bool comments = !opts->no_comments;
    bool in_list = !opts->lists || (d->lists & opts->lists);
    if (comments)
        vc4_out_printf(o, "# 0x%08llx (+%zu): %s%s\n",
                       (unsigned long long)opts->base_addr + pk->offset, pk->offset, d->name,
                       in_list ? "" : opts->lists == VC4_CL_LIST_BIN
                                          ? " (not a binning-list packet)"
                                          : " (not a rendering-list packet)");
    if (!packet_has_text(d, pk->payload, values)) {
        if (comments)
            vc4_out_puts(o, "#   reserved bits set or a NaN/Inf float: raw bytes\n");
        raw_bytes(o, pk->bytes, d->length);
    } else {
        for (unsigned i = 0; i < d->layout.nfields; i++) {
            const struct vc4_cl_field_desc *f = &d->layout.fields[i];
            char buf[64];
            value_text(f, values[i], buf, sizeof buf);
            vc4_out_printf(o, "    .set %s, %s", f->name, buf);
            if (comments)
                value_comment(o, f, values[i]);
            vc4_out_puts(o, "\n");
        }
        vc4_out_printf(o, "    %s", d->macro);
        for (unsigned i = 0; i < d->layout.nfields; i++)
            vc4_out_printf(o, "%s %s", i ? "," : "", d->layout.fields[i].name);
        vc4_out_puts(o, "\n");
    }
    if (d->flags & VC4_CL_PF_VARIABLE)
        dump_items(o, pk->bytes + d->length, pk->length - d->length);
    if (comments)
        shader_record_comments(o, pk, values, opts);
}

size_t vc4_cl_dump(const uint8_t *data, size_t size, const struct vc4_cl_dump_options *opts,
                   char *text, size_t text_size)
{
    struct vc4_cl_dump_options none = {0};
    struct vc4_out o;
    char dummy[1];
    if (!opts)
        opts = &none;
    if (!text) {
        text = dummy;
        text_size = sizeof dummy;
    }
    vc4_out_init(&o, text, text_size);
    if (!data)
        size = 0;
    if (!opts->no_include)
        vc4_out_puts(&o, ".include \"v3d_cl.qinc\"\n");
    size_t pos = 0, all = size;
    struct vc4_cl_extent ext;
    vc4_cl_list_extent(data, size, &ext);
    if (opts->list_only) /* the packets of the list; the rest is data below */
        size = ext.len;
    while (pos < size) {
        struct vc4_cl_reader r;
        struct vc4_cl_packet_view pk;
        vc4_cl_reader_init(&r, data + pos, size - pos);
        while (vc4_cl_next(&r, &pk)) {
            pk.offset += pos;
            dump_packet(&o, &pk, opts);
        }
        size_t bad = pos + r.error_offset;
        if (r.error == VC4_CL_LEN_OK)
            break;
        if (r.error == VC4_CL_LEN_UNKNOWN_OPCODE) {
            if (!opts->no_comments)
                vc4_out_printf(&o, "# 0x%08llx (+%zu): unknown opcode %u\n",
                               (unsigned long long)opts->base_addr + bad, bad, data[bad]);
            raw_bytes(&o, data + bad, 1);
            pos = bad + 1;
            continue;
        }
        if (!opts->no_comments) {
            const struct vc4_cl_packet_desc *d = vc4_cl_packet(data[bad]);
            vc4_out_printf(&o, "# 0x%08llx (+%zu): %s: %s, %zu bytes left as raw bytes\n",
                           (unsigned long long)opts->base_addr + bad, bad,
                           d ? d->name : "packet",
                           r.error == VC4_CL_LEN_TRUNCATED ? "truncated" : "malformed items",
                           size - bad);
        }
        raw_bytes(&o, data + bad, size - bad);
        break;
    }
    if (size < all) {
        if (!opts->no_comments)
            vc4_out_printf(&o, "# 0x%08llx (+%zu): the list ended at the %s at +%zu; %zu bytes after it as data\n",
                           (unsigned long long)opts->base_addr + size, size, vc4_cl_stop_name(&ext),
                           ext.stop_offset, all - size);
        raw_bytes(&o, data + size, all - size);
    }
    return o.len;
}
