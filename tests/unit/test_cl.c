/*
 * test_cl.c - control-list tables, table-driven packing, the writer and the
 * reader: table sanity against the kernel's packet sizes, pack/unpack round
 * trips of every field of every packet and record, known byte sequences
 * (the seeds' records and GL_Shader_State, hand-computed configuration
 * packets), and the reader on truncated and random bytes.
 */
#include <stdlib.h>

#include "harness.h"
#include "vc4kit/cl.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

static uint32_t vc4_le32_test(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The kernel's packet sizes (Mesa kernel/vc4_packet.h VC4_PACKET_*_SIZE),
 * restated; 48/49 are variable (the kernel's "1" is a placeholder). */
static const struct { unsigned op, size; } kernel_sizes[] = {
    {0, 1}, {1, 1}, {4, 1}, {5, 1}, {6, 1}, {7, 1}, {8, 1}, {16, 5}, {17, 5}, {24, 1}, {25, 1},
    {26, 5}, {27, 5}, {28, 7}, {29, 7}, {32, 14}, {33, 10}, {56, 2}, {64, 5}, {65, 5},
    {66, 5}, {96, 4}, {97, 5}, {98, 5}, {99, 5}, {100, 3}, {101, 5}, {102, 9}, {103, 5},
    {104, 9}, {105, 9}, {106, 9}, {112, 16}, {113, 11}, {114, 14}, {115, 3},
};

static void test_table_lengths(void)
{
    for (size_t i = 0; i < sizeof kernel_sizes / sizeof kernel_sizes[0]; i++) {
        const struct vc4_cl_packet_desc *d = vc4_cl_packet(kernel_sizes[i].op);
        CHECK_MSG(d != NULL, "opcode %u missing", kernel_sizes[i].op);
        if (!d)
            continue;
        CHECK_EQ_INT(d->length, kernel_sizes[i].size);
        CHECK(!(d->flags & VC4_CL_PF_VARIABLE));
    }
    /* the variable packets: fixed part, flagged */
    CHECK_EQ_INT(vc4_cl_packet(48)->length, 1);
    CHECK_EQ_INT(vc4_cl_packet(49)->length, 5);
    CHECK_EQ_INT(vc4_cl_packet(42)->length, 2);
    CHECK(vc4_cl_packet(42)->flags & VC4_CL_PF_VARIABLE);
    CHECK(vc4_cl_packet(48)->flags & VC4_CL_PF_VARIABLE);
    CHECK(vc4_cl_packet(49)->flags & VC4_CL_PF_VARIABLE);
    CHECK_EQ_INT(vc4_cl_packet(41)->length, 10);
    CHECK_EQ_INT(vc4_cl_packet(67)->length, 9);
    /* kernel bin whitelist (facts §5.2) */
    static const unsigned kb[] = {0, 1, 4, 5, 6, 7, 32, 33, 56, 64, 96, 97, 98, 99, 100, 101,
                                  102, 103, 105, 106, 112};
    unsigned nkb = 0;
    for (unsigned op = 0; op < 256; op++) {
        const struct vc4_cl_packet_desc *d = vc4_cl_packet(op);
        if (d && (d->flags & VC4_CL_PF_KERNEL_BIN))
            nkb++;
    }
    CHECK_EQ_INT(nkb, sizeof kb / sizeof kb[0]);
    for (size_t i = 0; i < sizeof kb / sizeof kb[0]; i++)
        CHECK(vc4_cl_packet(kb[i])->flags & VC4_CL_PF_KERNEL_BIN);
    CHECK(vc4_cl_packet(9) == NULL);
    CHECK(vc4_cl_packet(116) == NULL);
    CHECK(vc4_cl_packet(254) == NULL); /* the kernel's GEM pseudo-packet is not hardware */
    CHECK(vc4_cl_packet(1000) == NULL);
}

/* Every layout: fields inside the bytes, no two overlapping, names unique,
 * fields sharing a container contiguous, members inside the struct. */
static void check_layout(const char *what, const struct vc4_cl_layout *l)
{
    uint8_t owner[64][8];
    memset(owner, 0, sizeof owner);
    CHECK(l->nfields <= VC4_CL_MAX_FIELDS);
    for (unsigned i = 0; i < l->nfields; i++) {
        const struct vc4_cl_field_desc *f = &l->fields[i];
        CHECK_MSG(f->width >= 1 && f->shift + f->width <= 64, "%s.%s width", what, f->name);
        CHECK_MSG(f->offset * 8u + f->shift + f->width <= l->size * 8u, "%s.%s outside", what,
                  f->name);
        CHECK_MSG(f->name && f->desc && *f->name, "%s field %u unnamed", what, i);
        CHECK_MSG(f->member + 4u <= l->struct_size || f->member_kind == VC4_CL_MK_BOOL,
                  "%s.%s member outside the struct", what, f->name);
        CHECK_MSG(f->type != VC4_CL_FT_ENUM || f->nvalues > 0, "%s.%s enum without names", what,
                  f->name);
        for (unsigned b = 0; b < f->width; b++) {
            unsigned bit = f->offset * 8u + f->shift + b;
            if (bit >= 64 * 8)
                break;
            CHECK_MSG(owner[bit / 8][bit % 8] == 0, "%s.%s overlaps field %u", what, f->name,
                      (unsigned)owner[bit / 8][bit % 8] - 1);
            owner[bit / 8][bit % 8] = (uint8_t)(i + 1);
        }
        for (unsigned j = 0; j < i; j++) {
            CHECK_MSG(strcmp(l->fields[j].name, f->name) != 0, "%s: two fields '%s'", what,
                      f->name);
            /* a container's fields are contiguous in the table */
            if (l->fields[j].offset == f->offset)
                CHECK_MSG(l->fields[i - 1].offset == f->offset, "%s.%s not contiguous", what,
                          f->name);
        }
        CHECK_EQ_INT(vc4_cl_field_index(l, f->name), i);
    }
}

static void test_table_sanity(void)
{
    unsigned n = 0;
    for (unsigned op = 0; op < 256; op++) {
        const struct vc4_cl_packet_desc *d = vc4_cl_packet(op);
        if (!d)
            continue;
        n++;
        CHECK_EQ_INT(d->opcode, op);
        CHECK_EQ_INT(d->layout.size + 1, d->length);
        CHECK(d->lists != 0 && (d->lists & ~VC4_CL_LIST_ANY) == 0);
        CHECK(d->name && d->id && d->macro && d->source);
        CHECK(vc4_cl_packet_by_name(d->name) == d);
        CHECK(vc4_cl_packet_by_name(d->id) == d);
        CHECK(vc4_cl_packet_by_name(d->macro) == d);
        CHECK(d->layout.nfields == 0 || d->layout.struct_size > 0);
        check_layout(d->id, &d->layout);
    }
    CHECK_EQ_INT(n, VC4_CL_PACKET_COUNT);
#define CHECK_LISTED(op, idn, has) CHECK(vc4_cl_packet(VC4_CL_##op) && !strcmp(vc4_cl_packet(VC4_CL_##op)->id, #idn));
    VC4_CL_PACKET_LIST(CHECK_LISTED)
    for (unsigned k = 0; k < VC4_CL_REC_COUNT; k++) {
        const struct vc4_cl_record_desc *r = vc4_cl_record((enum vc4_cl_record_kind)k);
        CHECK(r != NULL);
        check_layout(r->id, &r->layout);
    }
    CHECK(vc4_cl_record(VC4_CL_REC_COUNT) == NULL);
    CHECK_EQ_INT(vc4_cl_record(VC4_CL_REC_NV_SHADER)->layout.size, 16);
    CHECK_EQ_INT(vc4_cl_record(VC4_CL_REC_GL_SHADER)->layout.size, 36);
    CHECK_EQ_INT(vc4_cl_record(VC4_CL_REC_ATTRIBUTE)->layout.size, 8);
    CHECK_EQ_INT(vc4_cl_gl_record_size(2, false), 36 + 16);
    CHECK_EQ_INT(vc4_cl_gl_record_size(0, false), 36 + 64);
    CHECK_EQ_INT(vc4_cl_gl_record_size(3, true), 100 + 12);
    /* enum names */
    const struct vc4_cl_packet_desc *va = vc4_cl_packet(VC4_CL_VERTEX_ARRAY_PRIMITIVES);
    CHECK_STR(vc4_cl_enum_name(&va->layout.fields[0], 4), "triangles");
    CHECK_STR(vc4_cl_enum_name(&va->layout.fields[0], 6), "triangle_fan");
    CHECK(vc4_cl_enum_name(&va->layout.fields[0], 7) == NULL);
    const struct vc4_cl_packet_desc *cb = vc4_cl_packet(VC4_CL_CONFIGURATION_BITS);
    int df = vc4_cl_field_index(&cb->layout, "depth_func");
    CHECK(df >= 0);
    CHECK_STR(vc4_cl_enum_name(&cb->layout.fields[df], 3), "lequal");
    CHECK(vc4_cl_field_index(&cb->layout, "nonesuch") == -1);
}

/* A random value that fits the field (masked to width, addresses aligned). */
static uint64_t random_value(const struct vc4_cl_field_desc *f)
{
    uint64_t mask = f->width >= 64 ? UINT64_MAX : (UINT64_C(1) << f->width) - 1;
    uint64_t v = rnd() & mask;
    if (f->type == VC4_CL_FT_SINT || f->type == VC4_CL_FT_S12_4) {
        if (f->width < 64 && (v >> (f->width - 1)) & 1)
            v |= ~mask;
    } else if (f->type == VC4_CL_FT_ADDRESS) {
        v <<= f->shift;
    }
    return v;
}

static void roundtrip_layout(const char *what, const struct vc4_cl_layout *l)
{
    for (int iter = 0; iter < 2000; iter++) {
        uint64_t in[VC4_CL_MAX_FIELDS], out[VC4_CL_MAX_FIELDS], again[VC4_CL_MAX_FIELDS];
        uint8_t bytes[64], bytes2[64];
        for (unsigned i = 0; i < l->nfields; i++) {
            in[i] = random_value(&l->fields[i]);
            CHECK(vc4_cl_field_fits(&l->fields[i], in[i]));
        }
        CHECK_EQ_INT(vc4_cl_layout_pack(l, in, bytes, NULL), VC4_OK);
        vc4_cl_layout_unpack(l, bytes, out);
        for (unsigned i = 0; i < l->nfields; i++)
            CHECK_MSG(in[i] == out[i], "%s.%s: 0x%llx -> 0x%llx", what, l->fields[i].name,
                      (unsigned long long)in[i], (unsigned long long)out[i]);
        /* via the typed struct */
        unsigned char s[256];
        memset(s, 0xA5, sizeof s);
        CHECK(l->struct_size <= sizeof s);
        vc4_cl_values_to_struct(l, out, s);
        vc4_cl_struct_to_values(l, s, again);
        for (unsigned i = 0; i < l->nfields; i++)
            CHECK_MSG(again[i] == in[i], "%s.%s struct round trip", what, l->fields[i].name);
        CHECK_EQ_INT(vc4_cl_layout_pack(l, again, bytes2, NULL), VC4_OK);
        CHECK(memcmp(bytes, bytes2, l->size) == 0);
    }
    /* each field alone, all ones: exactly its bits are set, nobody else reads them */
    for (unsigned i = 0; i < l->nfields; i++) {
        const struct vc4_cl_field_desc *f = &l->fields[i];
        uint64_t vals[VC4_CL_MAX_FIELDS] = {0}, back[VC4_CL_MAX_FIELDS];
        uint64_t mask = f->width >= 64 ? UINT64_MAX : (UINT64_C(1) << f->width) - 1;
        vals[i] = f->type == VC4_CL_FT_ADDRESS ? mask << f->shift
                  : (f->type == VC4_CL_FT_SINT || f->type == VC4_CL_FT_S12_4) ? UINT64_MAX
                                                                                : mask;
        uint8_t bytes[64];
        CHECK_EQ_INT(vc4_cl_layout_pack(l, vals, bytes, NULL), VC4_OK);
        for (unsigned bit = 0; bit < l->size * 8u; bit++) {
            bool want = bit >= f->offset * 8u + f->shift && bit < f->offset * 8u + f->shift + f->width;
            CHECK_MSG(((bytes[bit / 8] >> (bit % 8)) & 1) == want, "%s.%s bit %u", what, f->name,
                      bit);
        }
        vc4_cl_layout_unpack(l, bytes, back);
        for (unsigned j = 0; j < l->nfields; j++)
            CHECK_MSG(back[j] == (j == i ? vals[i] : 0), "%s.%s leaks into %s", what, f->name,
                      l->fields[j].name);
    }
}

static void test_pack_roundtrip(void)
{
    for (unsigned op = 0; op < 256; op++) {
        const struct vc4_cl_packet_desc *d = vc4_cl_packet(op);
        if (d)
            roundtrip_layout(d->id, &d->layout);
    }
    for (unsigned k = 0; k < VC4_CL_REC_COUNT; k++) {
        const struct vc4_cl_record_desc *r = vc4_cl_record((enum vc4_cl_record_kind)k);
        roundtrip_layout(r->id, &r->layout);
    }
}

static void test_field_range(void)
{
    struct harness_diags h;
    struct vc4_diag_sink sink = harness_sink(&h);
    uint64_t v[VC4_CL_MAX_FIELDS] = {0};
    uint8_t out[16];
    /* Tile Coordinates: column is 8 bits */
    v[0] = 256;
    CHECK_EQ_INT(vc4_cl_pack(VC4_CL_TILE_COORDINATES, v, out, &sink), VC4_ERR_RANGE);
    CHECK_CONTAINS(h.text, "Tile Coordinates: field 'column'");
    /* GL Shader State: the record address must be 16-byte aligned */
    memset(v, 0, sizeof v);
    v[2] = 0x1238;
    CHECK_EQ_INT(vc4_cl_pack(VC4_CL_GL_SHADER_STATE, v, out, &sink), VC4_ERR_RANGE);
    CHECK_CONTAINS(h.text, "not 16-byte aligned");
    /* s12.4: 16 bits signed */
    const struct vc4_cl_packet_desc *vp = vc4_cl_packet(VC4_CL_VIEWPORT_OFFSET);
    CHECK(vc4_cl_field_fits(&vp->layout.fields[0], (uint64_t)(int64_t)-32768));
    CHECK(!vc4_cl_field_fits(&vp->layout.fields[0], (uint64_t)(int64_t)-32769));
    CHECK(!vc4_cl_field_fits(&vp->layout.fields[0], 32768));
    CHECK(vc4_cl_pack(200, v, out, NULL) == VC4_ERR_INVALID);
}

/* ---- the writer ---------------------------------------------------------- */

static void test_writer_seed_gl_shader_state(void)
{
    /* seed 000: .macro GL_Shader_State address numarrays: .byte 0x40,
     * .word (address | numarrays) */
    struct vc4_cl cl;
    vc4_cl_init(&cl, NULL, 0, NULL);
    CHECK_EQ_INT(vc4_cl_gl_shader_state(&cl, &(struct vc4_cl_gl_shader_state){
                                                 .record_addr = 0x00012340, .num_attr_arrays = 2}),
                 VC4_OK);
    const uint8_t want[] = {0x40, 0x42, 0x23, 0x01, 0x00};
    CHECK_EQ_INT(cl.len, sizeof want);
    CHECK(cl.len == sizeof want && memcmp(cl.data, want, sizeof want) == 0);
    vc4_cl_free(&cl);
}

static void test_writer_bin_config(void)
{
    struct vc4_cl cl;
    vc4_cl_init(&cl, NULL, 0x1000, NULL);
    CHECK_EQ_INT(vc4_cl_tile_binning_mode_config(
                     &cl, &(struct vc4_cl_tile_binning_mode_config){
                              .tile_alloc_addr = 0x00200000,
                              .tile_alloc_size = 0x00080000,
                              .tsda_addr = 0x00300010,
                              .width_tiles = 10,
                              .height_tiles = 8,
                              .auto_init_tsda = true,
                              .initial_block_size = VC4_CL_BLOCK_32,
                              .block_size = VC4_CL_BLOCK_128,
                          }),
                 VC4_OK);
    CHECK_EQ_INT(vc4_cl_start_tile_binning(&cl), VC4_OK);
    /* by hand: opcode 0x70; three LE words; 10, 8; flags = auto-init (bit2)
     * | block size 128 (2 << 5) = 0x44 */
    const uint8_t want[] = {0x70, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x08, 0x00, 0x10,
                            0x00, 0x30, 0x00, 0x0a, 0x08, 0x44, 0x06};
    CHECK_EQ_INT(cl.len, sizeof want);
    CHECK(cl.len == sizeof want && memcmp(cl.data, want, sizeof want) == 0);
    CHECK_EQ_INT(vc4_cl_addr(&cl), 0x1000 + sizeof want);
    vc4_cl_free(&cl);
}

static void test_writer_render_packets(void)
{
    struct vc4_cl cl;
    vc4_cl_init(&cl, NULL, 0, NULL);
    vc4_cl_tile_rendering_mode_config(&cl, &(struct vc4_cl_tile_rendering_mode_config){
                                               .fb_addr = 0x00400000,
                                               .width_px = 640,
                                               .height_px = 480,
                                               .color_format = VC4_CL_FB_RGBA8888,
                                               .memory_format = VC4_CL_MEM_LT,
                                           });
    vc4_cl_clear_colors(&cl, &(struct vc4_cl_clear_colors){.clear_color = 0xff112233ff112233ull,
                                                           .clear_zs = 0xffffff,
                                                           .clear_stencil = 0x80});
    vc4_cl_tile_coordinates(&cl, &(struct vc4_cl_tile_coordinates){.column = 3, .row = 7});
    vc4_cl_store_tile_buffer_general(&cl, &(struct vc4_cl_store_tile_buffer_general){
                                              .buffer = VC4_CL_BUF_COLOR,
                                              .memory_format = VC4_CL_MEM_T,
                                              .color_format = VC4_CL_LS_BGR565,
                                              .disable_zs_clear = true,
                                              .address = 0x00400000,
                                              .last_tile = true,
                                          });
    vc4_cl_viewport_offset(&cl, &(struct vc4_cl_viewport_offset){.x_1_16px = -16, .y_1_16px = 320 * 16});
    vc4_cl_point_size(&cl, &(struct vc4_cl_point_size){.point_size = 1.0f});
    vc4_cl_depth_offset(&cl, &(struct vc4_cl_depth_offset){.factor = 1.0f, .units = -2.0f});
    const uint8_t want[] = {
        /* 113: addr, 640, 480, flags: RGBA8888 (1 << 2) | LT (2 << 6) = 0x84 */
        0x71, 0x00, 0x00, 0x40, 0x00, 0x80, 0x02, 0xe0, 0x01, 0x84, 0x00,
        /* 114: u64 colour, u32 Z/S | VG mask << 24, u8 stencil */
        0x72, 0x33, 0x22, 0x11, 0xff, 0x33, 0x22, 0x11, 0xff, 0xff, 0xff, 0xff, 0x00, 0x80,
        /* 115 */
        0x73, 0x03, 0x07,
        /* 28: u16 = colour 1 | T (1 << 4) | BGR565 (2 << 8) | no Z/S clear (1 << 14) = 0x4211;
         * u32 = address | last tile (8) */
        0x1c, 0x11, 0x42, 0x08, 0x00, 0x40, 0x00,
        /* 103: -16 = 0xfff0, 5120 = 0x1400 */
        0x67, 0xf0, 0xff, 0x00, 0x14,
        /* 98: 1.0f */
        0x62, 0x00, 0x00, 0x80, 0x3f,
        /* 101: factor 1.0 = 0x3f80, units -2.0 = 0xc000 */
        0x65, 0x80, 0x3f, 0x00, 0xc0,
    };
    CHECK_EQ_INT(cl.len, sizeof want);
    for (size_t i = 0; i < sizeof want && i < cl.len; i++)
        CHECK_MSG(cl.data[i] == want[i], "byte %zu: 0x%02x != 0x%02x", i, cl.data[i], want[i]);
    CHECK_EQ_INT(cl.status, VC4_OK);
    vc4_cl_free(&cl);
}

static void test_writer_records(void)
{
    /* seed 002, second record: flags 0, stride 24, 0 uniforms, 3 varyings */
    struct vc4_cl cl;
    vc4_cl_init(&cl, NULL, 0x8000, NULL);
    vc4_cl_halt(&cl);
    uint32_t nv_addr = 0;
    CHECK_EQ_INT(vc4_cl_nv_shader_record(&cl, &(struct vc4_cl_nv_shader_record){
                                                  .vertex_stride = 24,
                                                  .fs_num_varyings = 3,
                                                  .fs_code_addr = 0x9000,
                                                  .fs_uniforms_addr = 0,
                                                  .vertex_data_addr = 0xA000,
                                              },
                                         &nv_addr),
                 VC4_OK);
    CHECK_EQ_INT(nv_addr, 0x8010);
    const uint8_t nv[] = {0, 24, 0, 3, 0x00, 0x90, 0, 0, 0, 0, 0, 0, 0x00, 0xA0, 0, 0};
    CHECK_EQ_INT(cl.len, 32);
    CHECK(cl.len == 32 && memcmp(cl.data + 16, nv, 16) == 0);
    struct vc4_cl_nv_shader_record back;
    vc4_cl_nv_shader_record_unpack(cl.data + 16, &back);
    CHECK_EQ_INT(back.vertex_stride, 24);
    CHECK_EQ_INT(back.fs_num_varyings, 3);
    CHECK_EQ_INT(back.vertex_data_addr, 0xA000);

    /* seed 000's GL record with two streams */
    struct vc4_cl_attr_record attrs[2] = {
        vc4_cl_attr_stream(0xB000, 12, 12, 0, 0),
        vc4_cl_attr_stream(0xC000, 28, 28, 0, 0),
    };
    CHECK_EQ_INT(vc4_cl_attr_total_size(attrs, 2, 1), 12);
    CHECK_EQ_INT(vc4_cl_attr_total_size(attrs, 2, 2), 28);
    CHECK_EQ_INT(vc4_cl_attr_total_size(attrs, 2, 0xff), 40);
    uint32_t gl_addr = 0;
    CHECK_EQ_INT(vc4_cl_gl_shader_record(&cl, &(struct vc4_cl_gl_shader_record){
                                                  .enable_clipping = true,
                                                  .fs_code_addr = 0x9000,
                                                  .vs_attr_select = 1,
                                                  .vs_attr_size = 12,
                                                  .vs_code_addr = 0x9100,
                                                  .vs_uniforms_addr = 0x9200,
                                                  .cs_attr_select = 2,
                                                  .cs_attr_size = 28,
                                                  .cs_code_addr = 0x9300,
                                                  .cs_uniforms_addr = 0x9400,
                                              },
                                         attrs, 2, NULL, &gl_addr),
                 VC4_OK);
    CHECK_EQ_INT(gl_addr, 0x8020);
    const uint8_t gl[52] = {
        4, 0, 0, 0, 0x00, 0x90, 0, 0, 0, 0, 0, 0,             /* flags .hword 4, FS */
        0, 0, 1, 12, 0x00, 0x91, 0, 0, 0x00, 0x92, 0, 0,      /* VS */
        0, 0, 2, 28, 0x00, 0x93, 0, 0, 0x00, 0x94, 0, 0,      /* CS */
        0x00, 0xB0, 0, 0, 11, 12, 0, 0,                       /* stream 0 */
        0x00, 0xC0, 0, 0, 27, 28, 0, 0,                       /* stream 1 */
    };
    CHECK_EQ_INT(cl.len, 32 + 52);
    CHECK(cl.len == 84 && memcmp(cl.data + 32, gl, sizeof gl) == 0);
    struct vc4_cl_gl_shader_record g;
    vc4_cl_gl_shader_record_unpack(cl.data + 32, &g);
    CHECK(g.enable_clipping && !g.fs_single_threaded);
    CHECK_EQ_INT(g.cs_uniforms_addr, 0x9400);
    struct vc4_cl_attr_record a;
    vc4_cl_attr_record_unpack(cl.data + 32 + 44, &a);
    CHECK_EQ_INT(a.num_bytes_minus_1, 27);
    CHECK_EQ_INT(a.stride, 28);

    /* extended: stride words at 100 + 4i */
    uint8_t ext[100 + 8];
    struct vc4_cl_ext_stride es[2] = {{.stride_bits_31_8 = 1}, {.stride_bits_31_8 = 0x10}};
    CHECK_EQ_INT(vc4_cl_gl_shader_record_pack(&g, attrs, 2, es, ext, sizeof ext, NULL), VC4_OK);
    CHECK_EQ_INT(vc4_le32_test(ext + 100), 0x100);
    CHECK_EQ_INT(ext[104 + 1], 0x10);
    CHECK_EQ_INT(vc4_cl_gl_shader_record_pack(&g, attrs, 2, es, ext, 100, NULL), VC4_ERR_INVALID);
    CHECK_EQ_INT(vc4_cl_gl_shader_record_pack(&g, attrs, 0, NULL, ext, sizeof ext, NULL),
                 VC4_ERR_INVALID);
    vc4_cl_free(&cl);
}

static void test_writer_errors_and_items(void)
{
    struct harness_diags h;
    struct vc4_diag_sink sink = harness_sink(&h);
    struct vc4_cl cl;
    vc4_cl_init(&cl, NULL, 0, &sink);
    CHECK_EQ_INT(vc4_cl_nv_shader_state(&cl, &(struct vc4_cl_nv_shader_state){.record_addr = 0x100}),
                 VC4_OK);
    size_t len = cl.len;
    CHECK_EQ_INT(vc4_cl_gl_shader_state(&cl, &(struct vc4_cl_gl_shader_state){
                                                 .record_addr = 0x104, .num_attr_arrays = 1}),
                 VC4_ERR_RANGE);
    CHECK_EQ_INT(cl.len, len); /* nothing appended */
    CHECK_EQ_INT(cl.status, VC4_ERR_RANGE);
    CHECK_CONTAINS(h.text, "GL Shader State");
    CHECK_EQ_INT(vc4_cl_emit(&cl, 9, NULL), VC4_ERR_INVALID);
    /* a compressed list with items */
    CHECK_EQ_INT(vc4_cl_compressed_primitive_list(&cl), VC4_OK);
    struct vc4_cl_prim_item items[2] = {
        {.kind = VC4_CL_ITEM_IDX16, .count = 3, .v = {0, 1, 2}},
        {.kind = VC4_CL_ITEM_XY32, .count = 1, .v = {0x12345678}}, /* one packed X,Y word */
    };
    CHECK_EQ_INT(vc4_cl_prim_items(&cl, items, 2), VC4_OK);
    const uint8_t want[] = {0x30, 0x13, 0, 0, 1, 0, 2, 0, 0x31, 0x78, 0x56, 0x34, 0x12, 0x00};
    CHECK(cl.len == len + sizeof want && memcmp(cl.data + len, want, sizeof want) == 0);
    size_t plen = 0;
    CHECK_EQ_INT(vc4_cl_packet_length(cl.data + len, cl.len - len, &plen), VC4_CL_LEN_OK);
    CHECK_EQ_INT(plen, sizeof want);
    /* an item that cannot be encoded: nothing appended */
    size_t before = cl.len;
    struct vc4_cl_prim_item bad = {.kind = VC4_CL_ITEM_IDX16, .count = 1, .v = {70000}};
    CHECK_EQ_INT(vc4_cl_prim_items(&cl, &bad, 1), VC4_ERR_RANGE);
    CHECK_EQ_INT(cl.len, before);
    bad.count = 4;
    CHECK_EQ_INT(vc4_cl_prim_item_size(&bad), 0);
    /* alignment pads with zeros, on bus addresses */
    vc4_cl_align(&cl, 16);
    CHECK_EQ_INT(cl.len % 16, 0);
    CHECK_EQ_INT(vc4_cl_align(&cl, 3), (size_t)-1);
    vc4_cl_free(&cl);
}

/* Allocator hook: count calls, fail on demand. */
struct counting_alloc { int calls, fail_after; };
static void *counting_fn(void *user, void *ptr, size_t size)
{
    struct counting_alloc *c = user;
    c->calls++;
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    if (c->fail_after >= 0 && c->calls > c->fail_after)
        return NULL;
    return realloc(ptr, size);
}

static void test_writer_allocator(void)
{
    struct counting_alloc c = {0, -1};
    struct vc4_allocator a = {counting_fn, &c};
    struct vc4_cl cl;
    vc4_cl_init(&cl, &a, 0, NULL);
    for (int i = 0; i < 1000; i++)
        vc4_cl_nop(&cl);
    CHECK_EQ_INT(cl.len, 1000);
    CHECK(c.calls > 0);
    vc4_cl_free(&cl);
    /* out of memory: a status, never a crash */
    struct counting_alloc f = {0, 1};
    struct vc4_allocator fa = {counting_fn, &f};
    vc4_cl_init(&cl, &fa, 0, NULL);
    enum vc4_status last = VC4_OK;
    for (int i = 0; i < 1000; i++)
        last = vc4_cl_nop(&cl);
    CHECK_EQ_INT(last, VC4_ERR_NOMEM);
    CHECK_EQ_INT(cl.status, VC4_ERR_NOMEM);
    CHECK(cl.len <= cl.cap);
    vc4_cl_free(&cl);
}

/* ---- the reader ------------------------------------------------------------ */

static void build_sample(struct vc4_cl *cl)
{
    vc4_cl_tile_binning_mode_config(cl, &(struct vc4_cl_tile_binning_mode_config){
                                            .tile_alloc_addr = 0x10000, .tile_alloc_size = 0x8000,
                                            .tsda_addr = 0x20000, .width_tiles = 2,
                                            .height_tiles = 2, .auto_init_tsda = true});
    vc4_cl_start_tile_binning(cl);
    vc4_cl_clip_window(cl, &(struct vc4_cl_clip_window){.width_px = 128, .height_px = 128});
    vc4_cl_nv_shader_state(cl, &(struct vc4_cl_nv_shader_state){.record_addr = 0x30000});
    vc4_cl_vertex_array_primitives(cl, &(struct vc4_cl_vertex_array_primitives){
                                           .primitive_mode = VC4_CL_PRIM_TRIANGLES, .length = 3});
    vc4_cl_clipped_primitive(cl, &(struct vc4_cl_clipped_primitive){.clip_flags = 5,
                                                                    .clipped_prim_addr = 0x40008});
    struct vc4_cl_prim_item it = {.kind = VC4_CL_ITEM_IDX32, .count = 2, .v = {7, 9}};
    vc4_cl_prim_items(cl, &it, 1);
    vc4_cl_increment_semaphore(cl);
    vc4_cl_flush(cl);
}

static void test_reader_walk(void)
{
    struct vc4_cl cl;
    vc4_cl_init(&cl, NULL, 0, NULL);
    build_sample(&cl);
    struct vc4_cl_reader r;
    struct vc4_cl_packet_view p;
    vc4_cl_reader_init(&r, cl.data, cl.len);
    static const unsigned ops[] = {112, 6, 102, 65, 33, 49, 7, 4};
    unsigned n = 0;
    size_t pos = 0;
    while (vc4_cl_next(&r, &p)) {
        CHECK(n < 8 && p.opcode == ops[n]);
        CHECK_EQ_INT(p.offset, pos);
        pos += p.length;
        if (p.opcode == VC4_CL_VERTEX_ARRAY_PRIMITIVES) {
            struct vc4_cl_vertex_array_primitives va;
            CHECK_EQ_INT(vc4_cl_decode_struct(&p, &va), VC4_OK);
            CHECK_EQ_INT(va.length, 3);
            CHECK_EQ_INT(va.primitive_mode, VC4_CL_PRIM_TRIANGLES);
            uint64_t v;
            CHECK_EQ_INT(vc4_cl_get(&p, "primitive_mode", &v), VC4_OK);
            CHECK_EQ_INT(v, 4);
            CHECK_EQ_INT(vc4_cl_get(&p, "nope", &v), VC4_ERR_INVALID);
        }
        if (p.opcode == VC4_CL_CLIPPED_PRIMITIVE) {
            CHECK_EQ_INT(p.length, 5 + 9 + 1);
            uint64_t v;
            vc4_cl_get(&p, "clipped_prim_addr", &v);
            CHECK_EQ_INT(v, 0x40008);
        }
        n++;
    }
    CHECK_EQ_INT(n, 8);
    CHECK_EQ_INT(r.error, VC4_CL_LEN_OK);
    CHECK_EQ_INT(pos, cl.len);

    /* every truncation is reported at the packet it cuts, never read past */
    for (size_t cut = 0; cut < cl.len; cut++) {
        uint8_t *copy = malloc(cut ? cut : 1);
        memcpy(copy, cl.data, cut);
        vc4_cl_reader_init(&r, copy, cut);
        size_t end = 0;
        while (vc4_cl_next(&r, &p))
            end = p.offset + p.length;
        CHECK(end <= cut);
        if (end < cut) {
            CHECK_EQ_INT(r.error, VC4_CL_LEN_TRUNCATED);
            CHECK_EQ_INT(r.error_offset, end);
        }
        free(copy);
    }
    vc4_cl_free(&cl);
}

static void test_reader_garbage(void)
{
    uint8_t buf[512];
    for (int iter = 0; iter < 5000; iter++) {
        size_t n = rnd() % sizeof buf;
        for (size_t i = 0; i < n; i++)
            buf[i] = (uint8_t)rnd();
        /* the exact size, on the heap, so ASan sees any overread */
        uint8_t *p = malloc(n ? n : 1);
        memcpy(p, buf, n);
        struct vc4_cl_reader r;
        struct vc4_cl_packet_view v;
        vc4_cl_reader_init(&r, p, n);
        size_t total = 0;
        while (vc4_cl_next(&r, &v)) {
            CHECK(v.desc != NULL);
            CHECK(v.offset == total);
            total += v.length;
            uint64_t vals[VC4_CL_MAX_FIELDS];
            CHECK_EQ_INT(vc4_cl_decode(&v, vals), VC4_OK);
        }
        CHECK(total <= n);
        if (total < n)
            CHECK(r.error != VC4_CL_LEN_OK);
        CHECK(!vc4_cl_next(&r, &v)); /* stays stopped */
        free(p);
    }
    vc4_cl_reader_init(NULL, NULL, 0);
    struct vc4_cl_reader r;
    vc4_cl_reader_init(&r, NULL, 10);
    CHECK(!vc4_cl_next(&r, NULL));
    CHECK_EQ_INT(vc4_cl_packet_length(NULL, 0, NULL), VC4_CL_LEN_TRUNCATED);
    const uint8_t unk = 9;
    size_t len;
    CHECK_EQ_INT(vc4_cl_packet_length(&unk, 1, &len), VC4_CL_LEN_UNKNOWN_OPCODE);
    const uint8_t badtag[] = {48, 0x45};
    CHECK_EQ_INT(vc4_cl_packet_length(badtag, 2, &len), VC4_CL_LEN_BAD_PAYLOAD);
    const uint8_t cut[] = {48, 0x13, 1};
    CHECK_EQ_INT(vc4_cl_packet_length(cut, 3, &len), VC4_CL_LEN_TRUNCATED);
}

static void test_prim_items(void)
{
    for (int iter = 0; iter < 3000; iter++) {
        struct vc4_cl_prim_item it = {0}, back;
        it.kind = (uint8_t)(1 + rnd() % 3);
        it.count = (uint8_t)(1 + rnd() % 3);
        for (int i = 0; i < 6; i++)
            it.v[i] = (uint32_t)rnd();
        if (it.kind == VC4_CL_ITEM_IDX16)
            for (int i = 0; i < 3; i++)
                it.v[i] &= 0xffff;
        unsigned nv = it.count; /* XY32: one packed X,Y word per vertex */
        for (unsigned i = nv; i < 6; i++)
            it.v[i] = 0;
        uint8_t buf[32];
        size_t n = vc4_cl_prim_item_encode(&it, buf, sizeof buf);
        CHECK(n == vc4_cl_prim_item_size(&it) && n > 1);
        CHECK_EQ_INT(vc4_cl_prim_item_decode(buf, n, &back), n);
        CHECK(memcmp(&it, &back, sizeof it) == 0);
        CHECK_EQ_INT(vc4_cl_prim_item_decode(buf, n - 1, &back), 0);
        CHECK_EQ_INT(vc4_cl_prim_item_encode(&it, buf, n - 1), 0);
    }
}

TEST_LIST(test_table_lengths, test_table_sanity, test_pack_roundtrip, test_field_range,
          test_writer_seed_gl_shader_state, test_writer_bin_config, test_writer_render_packets,
          test_writer_records, test_writer_errors_and_items, test_writer_allocator,
          test_reader_walk, test_reader_garbage, test_prim_items)
