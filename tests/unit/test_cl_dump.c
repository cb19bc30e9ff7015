/*
 * test_cl_dump.c - the dumper's text assembles back to the same bytes
 * (dump -> vc4_asm with v3d_cl.qinc -> identical bytes) for lists holding
 * every packet with random field values, reserved bits, NaNs, unknown
 * opcodes and truncated tails; share/vc4kit/v3d_cl.qinc is what the tables
 * generate; the qinc macros written by hand give the writer's bytes.
 */
#include <stdlib.h>

#include "harness.h"
#include "vc4kit/cl.h"
#include "vc4kit/qpu.h"

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static uint64_t rnd(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

static char *dump_text(const uint8_t *data, size_t size, const struct vc4_cl_dump_options *o)
{
    size_t n = vc4_cl_dump(data, size, o, NULL, 0);
    char *t = malloc(n + 1);
    if (t)
        CHECK_EQ_INT(vc4_cl_dump(data, size, o, t, n + 1), n);
    return t;
}

/* Assemble text; returns the bytes (malloc'd) or NULL with the errors printed. */
static uint8_t *assemble(const char *text, size_t *size)
{
    struct harness_diags h;
    struct vc4_asm_options ao = {0};
    ao.sink = harness_sink(&h);
    struct vc4_asm *as = vc4_asm_create(&ao);
    if (!as)
        return NULL;
    vc4_asm_add_include_dir(as, VC4KIT_SOURCE_DIR "/share/vc4kit");
    enum vc4_status st = vc4_asm_source(as, "dump.s", text, strlen(text));
    uint8_t *out = NULL;
    if (st == VC4_OK) {
        const uint8_t *b = vc4_asm_output(as, size);
        out = malloc(*size ? *size : 1);
        if (out && *size)
            memcpy(out, b, *size);
    } else {
        fprintf(stderr, "%s", h.text);
    }
    vc4_asm_destroy(as);
    return out;
}

static void check_roundtrip(const uint8_t *data, size_t size, const char *what)
{
    struct vc4_cl_dump_options o = {.base_addr = 0x1000};
    char *text = dump_text(data, size, &o);
    size_t n = 0;
    uint8_t *back = text ? assemble(text, &n) : NULL;
    CHECK_MSG(back != NULL, "%s: the dump does not assemble", what);
    if (back) {
        bool same = n == size && (size == 0 || memcmp(back, data, size) == 0);
        CHECK_MSG(same, "%s: %zu bytes assemble to %zu different bytes", what, size, n);
        if (!same) {
            for (size_t i = 0; i < n && i < size; i++)
                if (back[i] != data[i]) {
                    fprintf(stderr, "first difference at %zu: 0x%02x != 0x%02x\n", i, back[i],
                            data[i]);
                    break;
                }
        }
    }
    free(back);
    free(text);
}

static uint64_t random_value(const struct vc4_cl_field_desc *f)
{
    uint64_t mask = f->width >= 64 ? UINT64_MAX : (UINT64_C(1) << f->width) - 1;
    uint64_t v = rnd() & mask;
    switch (rnd() % 4) { /* bias towards the edges */
    case 0:
        v = 0;
        break;
    case 1:
        v = mask;
        break;
    default:
        break;
    }
    if ((f->type == VC4_CL_FT_SINT || f->type == VC4_CL_FT_S12_4) && f->width < 64 &&
        (v >> (f->width - 1)) & 1)
        v |= ~mask;
    if (f->type == VC4_CL_FT_ADDRESS)
        v <<= f->shift;
    return v;
}

/* A list with every packet (random fields; items for the variable ones). */
static void append_every_packet(struct vc4_cl *cl)
{
    for (unsigned op = 0; op < 256; op++) {
        const struct vc4_cl_packet_desc *d = vc4_cl_packet(op);
        if (!d)
            continue;
        uint64_t v[VC4_CL_MAX_FIELDS];
        for (unsigned i = 0; i < d->layout.nfields; i++)
            v[i] = random_value(&d->layout.fields[i]);
        CHECK_EQ_INT(vc4_cl_emit_values(cl, op, v), VC4_OK);
        if (d->flags & VC4_CL_PF_VARIABLE) {
            struct vc4_cl_prim_item it[3];
            size_t n = rnd() % 4;
            for (size_t k = 0; k < n; k++) {
                memset(&it[k], 0, sizeof it[k]);
                it[k].kind = (uint8_t)(1 + rnd() % 3);
                it[k].count = (uint8_t)(1 + rnd() % 3);
                for (int j = 0; j < 6; j++)
                    it[k].v[j] = (uint32_t)rnd() & (it[k].kind == VC4_CL_ITEM_IDX16 ? 0xffff : ~0u);
            }
            CHECK_EQ_INT(vc4_cl_prim_items(cl, it, n), VC4_OK);
        }
    }
}

static void test_roundtrip_every_packet(void)
{
    for (int iter = 0; iter < 40; iter++) {
        struct vc4_cl cl;
        vc4_cl_init(&cl, NULL, 0, NULL);
        append_every_packet(&cl);
        check_roundtrip(cl.data, cl.len, "every packet");
        vc4_cl_free(&cl);
    }
}

static void test_roundtrip_odd_bytes(void)
{
    struct vc4_cl cl;
    vc4_cl_init(&cl, NULL, 0, NULL);
    vc4_cl_halt(&cl);
    /* reserved bits: Store General u16 bit 3, VG inline record bits 2:1 */
    const uint8_t reserved[] = {28, 0x08, 0x00, 0x00, 0x00, 0x10, 0x00,
                                67, 0x06, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00};
    vc4_cl_bytes(&cl, reserved, sizeof reserved);
    /* NaN, Inf, denormal, -0 floats */
    const uint32_t floats[] = {0x7fc00001, 0xff800000, 0x00000001, 0x80000000, 0x3eaaaaab,
                               0x7f7fffff};
    for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++) {
        uint64_t v = floats[i];
        vc4_cl_emit_values(&cl, VC4_CL_POINT_SIZE, &v);
    }
    /* unknown opcodes in the middle */
    const uint8_t unknown[] = {9, 10, 200, 255};
    vc4_cl_bytes(&cl, unknown, sizeof unknown);
    vc4_cl_clear_colors(&cl, &(struct vc4_cl_clear_colors){.clear_color = UINT64_MAX});
    check_roundtrip(cl.data, cl.len, "odd bytes");
    /* a truncated tail */
    vc4_cl_tile_binning_mode_config(&cl, &(struct vc4_cl_tile_binning_mode_config){.width_tiles = 1});
    for (size_t cut = 1; cut < 16; cut++)
        check_roundtrip(cl.data, cl.len - cut, "truncated");
    /* a malformed item list */
    const uint8_t bad_items[] = {48, 0x13, 1, 0, 2, 0, 3, 0, 0x77, 1, 2};
    check_roundtrip(bad_items, sizeof bad_items, "malformed items");
    check_roundtrip(NULL, 0, "empty");
    vc4_cl_free(&cl);
}

static void test_roundtrip_random_bytes(void)
{
    for (int iter = 0; iter < 60; iter++) {
        uint8_t buf[200];
        size_t n = rnd() % sizeof buf;
        for (size_t i = 0; i < n; i++) /* mostly known opcodes */
            buf[i] = (uint8_t)(rnd() % 3 ? rnd() % 116 : rnd());
        check_roundtrip(buf, n, "random bytes");
    }
}

static void test_dump_text(void)
{
    struct vc4_cl cl;
    vc4_cl_init(&cl, NULL, 0, NULL);
    vc4_cl_vertex_array_primitives(&cl, &(struct vc4_cl_vertex_array_primitives){
                                            .primitive_mode = VC4_CL_PRIM_TRIANGLE_FAN,
                                            .length = 3, .first_index = 0});
    vc4_cl_viewport_offset(&cl, &(struct vc4_cl_viewport_offset){.x_1_16px = 320 * 16});
    vc4_cl_point_size(&cl, &(struct vc4_cl_point_size){.point_size = 0.125f});
    struct vc4_cl_dump_options o = {.base_addr = 0x100, .lists = VC4_CL_LIST_RENDER};
    char *t = dump_text(cl.data, cl.len, &o);
    CHECK_CONTAINS(t, ".include \"v3d_cl.qinc\"\n");
    CHECK_CONTAINS(t, "# 0x00000100 (+0): Vertex Array Primitives\n");
    CHECK_CONTAINS(t, "    .set primitive_mode, 6  # triangle_fan\n");
    CHECK_CONTAINS(t, "    .set length, 3\n");
    CHECK_CONTAINS(t, "    Vertex_Array_Primitives primitive_mode, length, first_index\n");
    CHECK_CONTAINS(t, "    .set x_1_16px, 5120  # 320.0000 px\n");
    CHECK_CONTAINS(t, "    .set point_size, 0.125\n");
    free(t);
    o.no_comments = true;
    o.no_include = true;
    t = dump_text(cl.data, cl.len, &o);
    CHECK(t && !strchr(t, '#'));
    CHECK(t && strncmp(t, "    .set", 8) == 0);
    /* snprintf contract: truncated output is NUL-terminated */
    char small[20];
    size_t need = vc4_cl_dump(cl.data, cl.len, &o, small, sizeof small);
    CHECK(need > sizeof small);
    CHECK_EQ_INT(strlen(small), sizeof small - 1);
    free(t);
    vc4_cl_free(&cl);

    /* shader records in memory are printed as comments */
    vc4_cl_init(&cl, NULL, 0, NULL);
    vc4_cl_nv_shader_state(&cl, &(struct vc4_cl_nv_shader_state){.record_addr = 16});
    vc4_cl_align(&cl, 16);
    uint32_t rec;
    vc4_cl_nv_shader_record(&cl, &(struct vc4_cl_nv_shader_record){.vertex_stride = 24,
                                                                   .fs_num_varyings = 3,
                                                                   .vertex_data_addr = 0xA000},
                            &rec);
    CHECK_EQ_INT(rec, 16);
    struct vc4_cl_dump_options mo = {.mem_base = 0, .mem_size = cl.len, .mem = cl.data};
    t = dump_text(cl.data, 5, &mo);
    CHECK_CONTAINS(t, "#   NV Shader State Record at 0x00000010 (NV_Shader_Record):\n");
    CHECK_CONTAINS(t, "#     vertex_stride = 24\n");
    CHECK_CONTAINS(t, "#     vertex_data_addr = 0x0000a000\n");
    free(t);
    mo.mem_size = 20; /* the record does not fit: no comments */
    t = dump_text(cl.data, 5, &mo);
    CHECK(t && !strstr(t, "NV Shader State Record"));
    free(t);
    vc4_cl_free(&cl);
}

static void test_qinc_file_is_generated(void)
{
    size_t n = vc4_cl_qinc(NULL, 0);
    char *gen = malloc(n + 1);
    vc4_cl_qinc(gen, n + 1);
    size_t flen = 0;
    char *file = harness_read_file(VC4KIT_SOURCE_DIR "/share/vc4kit/v3d_cl.qinc", &flen);
    CHECK_MSG(file && flen == n && memcmp(file, gen, n) == 0,
              "share/vc4kit/v3d_cl.qinc differs from vc4_cl_qinc(): regenerate it with "
              "`vc4kit cl qinc -o share/vc4kit/v3d_cl.qinc`");
    free(file);
    free(gen);
}

/* Hand-written text with the macros gives the writer's bytes; and the
 * seed author's own GL_Shader_State macro gives the same bytes. */
static void test_macros_by_hand(void)
{
    const char *src =
        ".include \"v3d_cl.qinc\"\n"
        ".set rec, 0x12340\n"
        "Tile_Binning_Mode_Configuration 0x200000, 0x80000, 0x300010, 10, 8, 0, 0, 1, 0, 2, 0\n"
        "Start_Tile_Binning\n"
        "GL_Shader_State 2, 0, rec\n"
        "Viewport_Offset -16, 320 * 16\n"
        "Point_Size 1.0\n"
        "Compressed_Primitive_List\n"
        "Prim_Idx16 3, 0, 1, 2\n"
        "Prim_XY32 1, 0x12345678\n"
        "Prim_End\n"
        "# seed 000's macro\n"
        ".macro Seed_GL_Shader_State address, numarrays\n"
        "    .byte 0x40\n"
        "    .int (address | numarrays)\n"
        ".endm\n"
        "Seed_GL_Shader_State rec, 2\n"
        ".align 16\n"
        "NV_Shader_Record 0, 0, 0, 0, 24, 0, 3, 0x9000, 0, 0xA000\n";
    size_t n = 0;
    uint8_t *got = assemble(src, &n);
    CHECK(got != NULL);
    struct vc4_cl cl;
    vc4_cl_init(&cl, NULL, 0, NULL);
    vc4_cl_tile_binning_mode_config(&cl, &(struct vc4_cl_tile_binning_mode_config){
                                             .tile_alloc_addr = 0x200000, .tile_alloc_size = 0x80000,
                                             .tsda_addr = 0x300010, .width_tiles = 10,
                                             .height_tiles = 8, .auto_init_tsda = true,
                                             .block_size = VC4_CL_BLOCK_128});
    vc4_cl_start_tile_binning(&cl);
    vc4_cl_gl_shader_state(&cl, &(struct vc4_cl_gl_shader_state){.num_attr_arrays = 2,
                                                                 .record_addr = 0x12340});
    vc4_cl_viewport_offset(&cl, &(struct vc4_cl_viewport_offset){.x_1_16px = -16, .y_1_16px = 5120});
    vc4_cl_point_size(&cl, &(struct vc4_cl_point_size){.point_size = 1.0f});
    vc4_cl_compressed_primitive_list(&cl);
    struct vc4_cl_prim_item it[2] = {{.kind = VC4_CL_ITEM_IDX16, .count = 3, .v = {0, 1, 2}},
                                     {.kind = VC4_CL_ITEM_XY32, .count = 1, .v = {0x12345678}}};
    vc4_cl_prim_items(&cl, it, 2);
    vc4_cl_gl_shader_state(&cl, &(struct vc4_cl_gl_shader_state){.num_attr_arrays = 2,
                                                                 .record_addr = 0x12340});
    uint32_t addr;
    vc4_cl_nv_shader_record(&cl, &(struct vc4_cl_nv_shader_record){.vertex_stride = 24,
                                                                   .fs_num_varyings = 3,
                                                                   .fs_code_addr = 0x9000,
                                                                   .vertex_data_addr = 0xA000},
                            &addr);
    CHECK_EQ_INT(n, cl.len);
    CHECK(got && n == cl.len && memcmp(got, cl.data, n) == 0);
    free(got);

    /* the macros' range checks */
    const char *bad[] = {
        ".include \"v3d_cl.qinc\"\nGL_Shader_State 2, 0, 0x12348\n",  /* unaligned */
        ".include \"v3d_cl.qinc\"\nTile_Coordinates 256, 0\n",        /* 8 bits */
        ".include \"v3d_cl.qinc\"\nViewport_Offset -40000, 0\n",      /* s12.4 range */
        ".include \"v3d_cl.qinc\"\nPrim_Idx16 4, 0, 1, 2\n",          /* 1..3 vertices */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t m;
        struct harness_diags h;
        struct vc4_asm_options ao = {0};
        ao.sink = harness_sink(&h);
        struct vc4_asm *as = vc4_asm_create(&ao);
        vc4_asm_add_include_dir(as, VC4KIT_SOURCE_DIR "/share/vc4kit");
        CHECK_MSG(vc4_asm_source(as, "bad.s", bad[i], strlen(bad[i])) != VC4_OK,
                  "accepted: %s", bad[i]);
        CHECK_CONTAINS(h.text, "assertion failed");
        (void)m;
        vc4_asm_destroy(as);
    }
    vc4_cl_free(&cl);
}

/* Where a list ends (issue 18): dump and validate stop at the same byte. */
static void test_list_extent(void)
{
    static const struct {
        uint8_t bytes[8];
        size_t size, len, at;
        enum vc4_cl_stop stop;
        const char *name;
    } cases[] = {
        {{1, 1, 0, 1, 1}, 5, 3, 2, VC4_CL_STOP_HALT, "Halt"},
        {{1, 16, 0, 0, 1, 0, 1}, 7, 6, 1, VC4_CL_STOP_BRANCH, "Branch"},
        {{1, 238, 1}, 3, 1, 1, VC4_CL_STOP_BAD, "unknown opcode"},
        {{1, 16, 0}, 3, 1, 1, VC4_CL_STOP_BAD, "truncated packet"},
        {{1, 1}, 2, 2, 2, VC4_CL_STOP_END, "end of the bytes"},
        {{0}, 0, 0, 0, VC4_CL_STOP_END, "end of the bytes"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct vc4_cl_extent e;
        vc4_cl_list_extent(cases[i].bytes, cases[i].size, &e);
        CHECK_EQ_INT(e.stop, cases[i].stop);
        CHECK_EQ_U64(e.len, cases[i].len);
        CHECK_EQ_U64(e.stop_offset, cases[i].at);
        CHECK_STR(vc4_cl_stop_name(&e), cases[i].name);
    }
    /* list_only: the packets to the Halt, the rest as data; still the same bytes */
    static const uint8_t halted[] = {1, 1, 0, 1, 1};
    struct vc4_cl_dump_options o = {.base_addr = 0x1000, .list_only = true};
    char *t = dump_text(halted, sizeof halted, &o);
    CHECK_CONTAINS(t, "# 0x00001002 (+2): Halt\n");
    CHECK_CONTAINS(t, "# 0x00001003 (+3): the list ended at the Halt at +2; 2 bytes after it as data\n");
    CHECK_CONTAINS(t, "    .byte 0x01, 0x01\n");
    size_t n = 0;
    uint8_t *back = t ? assemble(t, &n) : NULL;
    CHECK(back && n == sizeof halted && memcmp(back, halted, n) == 0);
    free(back);
    free(t);
}

/* VG packets dump with named fields (type names, continuation, length,
 * coordinates), the VG shader record as comments, and assemble back. */
static void test_dump_vg(void)
{
    static uint8_t mem[0x100];
    struct vc4_cl_vg_shader_record rec = {.fs_code_addr = 0x9000, .fs_uniforms_addr = 0xA000};
    CHECK_EQ_INT(vc4_cl_vg_shader_record_pack(&rec, mem + 0x40, NULL), VC4_OK);
    struct vc4_cl cl;
    vc4_cl_init(&cl, NULL, 0, NULL);
    vc4_cl_rht_x_boundary(&cl, &(struct vc4_cl_rht_x_boundary){.x_boundary = 32 * 16});
    vc4_cl_vg_shader_state(&cl, &(struct vc4_cl_vg_shader_state){.record_addr = 0x40});
    vc4_cl_vg_coordinate_array_primitives(&cl, &(struct vc4_cl_vg_coordinate_array_primitives){
                                                   .primitive_type = VC4_CL_VG_RHT, .length = 2,
                                                   .coord_addr = 0x80});
    vc4_cl_vg_inline_shader_record(&cl, &(struct vc4_cl_vg_inline_shader_record){
                                            .fs_single_threaded = true, .fs_code_addr = 0x9000,
                                            .fs_uniforms_addr = 0xA000});
    vc4_cl_vg_inline_primitives(&cl, &(struct vc4_cl_vg_inline_primitives){
                                         .primitive_type = VC4_CL_VG_TRIANGLE_FAN, .continuation = 0xF});
    struct vc4_cl_prim_item it = {.kind = VC4_CL_ITEM_XY32, .count = 1, .v = {0x01C00980}};
    vc4_cl_prim_items(&cl, &it, 1);
    vc4_cl_primitive_list_format(&cl, &(struct vc4_cl_primitive_list_format){
                                          .primitive_type = VC4_CL_PLF_RHT, .data_type = VC4_CL_PLF_XY32});
    CHECK_EQ_INT(cl.status, VC4_OK);
    struct vc4_cl_dump_options o = {.mem = mem, .mem_size = sizeof mem};
    char *t = dump_text(cl.data, cl.len, &o);
    CHECK(t != NULL);
    if (t) {
        CHECK_CONTAINS(t, ".set x_boundary, 512");
        CHECK_CONTAINS(t, "VG_Coordinate_Array_Primitives");
        CHECK_CONTAINS(t, ".set primitive_type, 1  # rht");
        CHECK_CONTAINS(t, "VG Shader State Record at 0x00000040");
        CHECK_CONTAINS(t, "fs_code_addr = 0x00009000");
        CHECK_CONTAINS(t, ".set primitive_type, 6  # triangle_fan");
        CHECK_CONTAINS(t, ".set continuation, 15");
        CHECK_CONTAINS(t, "Prim_XY32 1, 0x1c00980");
        CHECK_CONTAINS(t, ".set data_type, 3  # xy32");
        size_t n = 0;
        uint8_t *back = assemble(t, &n);
        CHECK(back && n == cl.len && memcmp(back, cl.data, n) == 0);
        free(back);
    }
    free(t);
    vc4_cl_free(&cl);
}

TEST_LIST(test_dump_vg, test_roundtrip_every_packet, test_roundtrip_odd_bytes, test_roundtrip_random_bytes,
          test_dump_text, test_qinc_file_is_generated, test_macros_by_hand, test_list_extent)
