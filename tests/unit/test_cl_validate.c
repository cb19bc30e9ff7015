/*
 * test_cl_validate.c - the structural validator passes good binning and
 * rendering lists (an NV-mode and a GL-mode scene in a memory image) and
 * flags each rule on a list broken in exactly that way, with the byte
 * offset and the packet's name.
 */
#include <stdlib.h>

#include "harness.h"
#include "vc4kit/cl.h"

/* The memory image: 1 MiB at bus address 0. */
enum {
    MEM_SIZE = 1 << 20,
    NV_REC = 0x2000,
    GL_REC = 0x2040,
    FS_CODE = 0x2100,
    VS_CODE = 0x2200,
    CS_CODE = 0x2300,
    UNIFORMS = 0x2400,
    VERTS = 0x3000,
    INDICES = 0x3800,
    TILE_ALLOC = 0x10000,
    TILE_ALLOC_SIZE = 0x20000,
    TSDA = 0x30000,
    FB = 0x40000,
};

static uint8_t mem[MEM_SIZE];

static void put_records(void)
{
    memset(mem, 0, sizeof mem);
    struct vc4_cl_nv_shader_record nv = {.vertex_stride = 24, .fs_num_varyings = 3,
                                         .fs_code_addr = FS_CODE, .vertex_data_addr = VERTS};
    vc4_cl_nv_shader_record_pack(&nv, mem + NV_REC, NULL);
    struct vc4_cl_attr_record at[2] = {vc4_cl_attr_stream(VERTS, 12, 12, 0, 0),
                                       vc4_cl_attr_stream(VERTS + 0x100, 28, 28, 0, 0)};
    struct vc4_cl_gl_shader_record gl = {
        .enable_clipping = true, .fs_code_addr = FS_CODE, .vs_attr_select = 1,
        .vs_attr_size = 12, .vs_code_addr = VS_CODE, .vs_uniforms_addr = UNIFORMS,
        .cs_attr_select = 2, .cs_attr_size = 28, .cs_code_addr = CS_CODE,
        .cs_uniforms_addr = UNIFORMS};
    vc4_cl_gl_shader_record_pack(&gl, at, 2, NULL, mem + GL_REC, 100, NULL);
    const uint16_t idx[6] = {0, 1, 2, 2, 1, 3};
    for (int i = 0; i < 6; i++) {
        mem[INDICES + 2 * i] = (uint8_t)idx[i];
        mem[INDICES + 2 * i + 1] = 0;
    }
}

/* Parts of a good binning list; each test leaves one out or breaks it. */
enum {
    B_CONFIG = 1 << 0, B_START = 1 << 1, B_CLIP = 1 << 2, B_STATE = 1 << 3, B_PRIM = 1 << 4,
    B_SEM = 1 << 5, B_FLUSH = 1 << 6, B_GL = 1 << 7, B_ALL = 0x7f,
};

static void bin_config(struct vc4_cl *cl)
{
    vc4_cl_tile_binning_mode_config(cl, &(struct vc4_cl_tile_binning_mode_config){
                                            .tile_alloc_addr = TILE_ALLOC,
                                            .tile_alloc_size = TILE_ALLOC_SIZE,
                                            .tsda_addr = TSDA, .width_tiles = 2,
                                            .height_tiles = 2, .auto_init_tsda = true,
                                            .block_size = VC4_CL_BLOCK_128});
}

static void bin_list(struct vc4_cl *cl, unsigned parts)
{
    vc4_cl_init(cl, NULL, 0, NULL);
    if (parts & B_CONFIG)
        bin_config(cl);
    if (parts & B_START)
        vc4_cl_start_tile_binning(cl);
    vc4_cl_primitive_list_format(cl, &(struct vc4_cl_primitive_list_format){
                                         .primitive_type = VC4_CL_PLF_TRIANGLES,
                                         .data_type = VC4_CL_PLF_INDEX16});
    if (parts & B_CLIP)
        vc4_cl_clip_window(cl, &(struct vc4_cl_clip_window){.width_px = 128, .height_px = 128});
    vc4_cl_configuration_bits(cl, &(struct vc4_cl_configuration_bits){
                                      .enable_forward_facing = true,
                                      .enable_reverse_facing = true,
                                      .depth_func = VC4_CL_DEPTH_ALWAYS});
    vc4_cl_viewport_offset(cl, &(struct vc4_cl_viewport_offset){0, 0});
    if (parts & B_STATE) {
        if (parts & B_GL)
            vc4_cl_gl_shader_state(cl, &(struct vc4_cl_gl_shader_state){.num_attr_arrays = 2,
                                                                        .record_addr = GL_REC});
        else
            vc4_cl_nv_shader_state(cl, &(struct vc4_cl_nv_shader_state){.record_addr = NV_REC});
    }
    if (parts & B_PRIM) {
        vc4_cl_vertex_array_primitives(cl, &(struct vc4_cl_vertex_array_primitives){
                                               .primitive_mode = VC4_CL_PRIM_TRIANGLES,
                                               .length = 3});
        vc4_cl_indexed_primitive_list(cl, &(struct vc4_cl_indexed_primitive_list){
                                              .primitive_mode = VC4_CL_PRIM_TRIANGLES,
                                              .index_type = VC4_CL_INDEX_16BIT, .length = 6,
                                              .index_addr = INDICES, .max_index = 3});
    }
    if (parts & B_SEM)
        vc4_cl_increment_semaphore(cl);
    if (parts & B_FLUSH)
        vc4_cl_flush(cl);
}

static void render_list(struct vc4_cl *cl)
{
    vc4_cl_init(cl, NULL, 0x1000, NULL);
    vc4_cl_clear_colors(cl, &(struct vc4_cl_clear_colors){.clear_color = 0xff000000ff000000ull,
                                                          .clear_zs = 0xffffff});
    vc4_cl_tile_rendering_mode_config(cl, &(struct vc4_cl_tile_rendering_mode_config){
                                              .fb_addr = FB, .width_px = 128, .height_px = 128,
                                              .color_format = VC4_CL_FB_RGBA8888});
    /* the kernel's clear trick: Tile Coordinates (0,0) + a "none" store */
    vc4_cl_tile_coordinates(cl, &(struct vc4_cl_tile_coordinates){0, 0});
    vc4_cl_store_tile_buffer_general(cl, &(struct vc4_cl_store_tile_buffer_general){0});
    for (unsigned y = 0; y < 2; y++)
        for (unsigned x = 0; x < 2; x++) {
            vc4_cl_tile_coordinates(cl, &(struct vc4_cl_tile_coordinates){x, y});
            if (x == 0 && y == 0)
                vc4_cl_wait_on_semaphore(cl);
            vc4_cl_branch_to_sub_list(cl, &(struct vc4_cl_branch_to_sub_list){
                                              TILE_ALLOC + (y * 2 + x) * 32});
            if (x == 1 && y == 1)
                vc4_cl_store_ms_tile_buffer_and_eof(cl);
            else
                vc4_cl_store_ms_tile_buffer(cl);
        }
}

static struct vc4_cl_validate_options mem_opts(unsigned list)
{
    return (struct vc4_cl_validate_options){.list = list, .mem_base = 0, .mem_size = MEM_SIZE,
                                            .mem = mem};
}

static enum vc4_status run(const struct vc4_cl *cl, const struct vc4_cl_validate_options *o,
                           struct harness_diags *h)
{
    struct vc4_diag_sink sink = harness_sink(h);
    return vc4_cl_validate(cl->data, cl->len, o, &sink);
}

static void test_good_lists(void)
{
    put_records();
    struct harness_diags h;
    struct vc4_cl cl;
    struct vc4_cl_validate_options o = mem_opts(VC4_CL_LIST_BIN);
    bin_list(&cl, B_ALL);
    CHECK_EQ_INT(run(&cl, &o, &h), VC4_OK);
    CHECK_MSG(h.errors == 0 && h.warnings == 0, "%s", h.text);
    o.list = 0; /* guessed */
    CHECK_EQ_INT(run(&cl, &o, &h), VC4_OK);
    CHECK_MSG(h.warnings == 0, "%s", h.text);
    vc4_cl_free(&cl);

    /* a binning list as a program hands it to the kernel: the kernel's
     * GEM_HANDLES (254) before the indexed draw, GL Shader State with only
     * its low bits, no tile memory in the configuration */
    static const uint8_t kernel_form[] = {
        VC4_CL_TILE_BINNING_MODE_CONFIG, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 0x04,
        VC4_CL_START_TILE_BINNING,
        VC4_CL_GL_SHADER_STATE, 0x01, 0, 0, 0,
        254, 1, 0, 0, 0, 0, 0, 0, 0,
        VC4_CL_INDEXED_PRIMITIVE_LIST, 0x14, 3, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0,
        VC4_CL_INCREMENT_SEMAPHORE, VC4_CL_FLUSH};
    struct vc4_cl_validate_options ko = {.kernel_rules = true}; /* no list option: a binning list */
    struct vc4_diag_sink ks = harness_sink(&h);
    CHECK_EQ_INT(vc4_cl_validate(kernel_form, sizeof kernel_form, &ko, &ks), VC4_OK);
    CHECK_MSG(h.errors == 0, "%s", h.text);
    /* without the kernel's rules 254 is no packet */
    ko.kernel_rules = false;
    ko.list = VC4_CL_LIST_BIN;
    ks = harness_sink(&h);
    CHECK_EQ_INT(vc4_cl_validate(kernel_form, sizeof kernel_form, &ko, &ks), VC4_ERR_INVALID);
    CHECK_CONTAINS(h.text, "cl-unknown-opcode");
    /* a truncated 254 at the end */
    ko.kernel_rules = true;
    ks = harness_sink(&h);
    CHECK_EQ_INT(vc4_cl_validate(kernel_form, 28, &ko, &ks), VC4_ERR_INVALID);
    CHECK_CONTAINS(h.text, "GEM handles (the kernel's packet 254): truncated");
    /* a hardware-form GL Shader State (a record address) is refused */
    bin_list(&cl, B_ALL | B_GL);
    o = mem_opts(VC4_CL_LIST_BIN);
    o.kernel_rules = true;
    CHECK_EQ_INT(run(&cl, &o, &h), VC4_ERR_INVALID);
    CHECK_CONTAINS(h.text, "kernel-gl-shader-state");
    vc4_cl_free(&cl);

    render_list(&cl);
    o = mem_opts(VC4_CL_LIST_RENDER);
    CHECK_EQ_INT(run(&cl, &o, &h), VC4_OK);
    CHECK_MSG(h.errors == 0 && h.warnings == 0, "%s", h.text);
    o.list = 0;
    CHECK_EQ_INT(run(&cl, &o, &h), VC4_OK);
    vc4_cl_free(&cl);

    /* without memory: only structure */
    bin_list(&cl, B_ALL);
    struct vc4_cl_validate_options bare = {0};
    CHECK_EQ_INT(run(&cl, &bare, &h), VC4_OK);
    vc4_cl_free(&cl);
}

/* Validate; expect an error whose text contains want. */
static void expect(const struct vc4_cl *cl, const struct vc4_cl_validate_options *o,
                   const char *want, const char *what)
{
    struct harness_diags h;
    enum vc4_status st = run(cl, o, &h);
    CHECK_MSG(st == VC4_ERR_INVALID && h.errors > 0, "%s: not flagged", what);
    CHECK_MSG(strstr(h.text, want) != NULL, "%s: \"%s\" not in:\n%s", what, want, h.text);
}

static void expect_warning(const struct vc4_cl *cl, const struct vc4_cl_validate_options *o,
                           const char *want, const char *what)
{
    struct harness_diags h;
    run(cl, o, &h);
    CHECK_MSG(h.warnings > 0 && strstr(h.text, want) != NULL, "%s: \"%s\" not in:\n%s", what,
              want, h.text);
}

static void test_framing(void)
{
    put_records();
    struct vc4_cl cl;
    struct vc4_cl_validate_options o = mem_opts(VC4_CL_LIST_BIN);
    bin_list(&cl, B_ALL);
    const uint8_t nine = 9;
    size_t at = cl.len;
    vc4_cl_bytes(&cl, &nine, 1);
    char want[128];
    snprintf(want, sizeof want, "cl: 0x%08zx: error: unknown opcode 9", at);
    expect(&cl, &o, want, "unknown opcode");
    vc4_cl_free(&cl);

    bin_list(&cl, B_ALL);
    size_t full = cl.len;
    bin_config(&cl);
    cl.len -= 3;
    snprintf(want, sizeof want, "cl: 0x%08zx: error: Tile Binning Mode Configuration: truncated",
             full);
    expect(&cl, &o, want, "truncated");
    vc4_cl_free(&cl);

    const uint8_t bad_items[] = {48, 0x13, 1, 0, 2, 0, 3, 0, 0x77};
    struct vc4_cl raw = {.data = (uint8_t *)(uintptr_t)bad_items, .len = sizeof bad_items};
    o.list = VC4_CL_LIST_RENDER;
    expect(&raw, &o, "Compressed Primitive List: malformed primitive items", "bad items");

    const uint8_t bad_enum[] = {33, 7, 3, 0, 0, 0, 0, 0, 0, 0};
    struct vc4_cl raw2 = {.data = (uint8_t *)(uintptr_t)bad_enum, .len = sizeof bad_enum};
    expect(&raw2, &o, "Vertex Array Primitives: primitive_mode = 7 has no meaning", "enum");
}

static void test_bin_rules(void)
{
    put_records();
    struct vc4_cl cl;
    struct vc4_cl_validate_options o = mem_opts(VC4_CL_LIST_BIN);

    bin_list(&cl, B_ALL);
    vc4_cl_tile_coordinates(&cl, &(struct vc4_cl_tile_coordinates){0, 0});
    expect(&cl, &o, "Tile Coordinates is a rendering-list packet; it is not allowed in a binning",
           "wrong list");
    vc4_cl_free(&cl);

    bin_list(&cl, B_ALL & ~B_CONFIG);
    expect(&cl, &o, "Start Tile Binning before Tile Binning Mode Configuration", "order");
    expect(&cl, &o, "binning list without a Tile Binning Mode Configuration", "required");
    vc4_cl_free(&cl);

    bin_list(&cl, B_ALL & ~B_START);
    expect(&cl, &o, "Vertex Array Primitives before Start Tile Binning", "prim before start");
    expect(&cl, &o, "binning list without Start Tile Binning", "required start");
    vc4_cl_free(&cl);

    bin_list(&cl, B_ALL & ~B_STATE);
    expect(&cl, &o, "Vertex Array Primitives before any shader state", "shader state");
    vc4_cl_free(&cl);

    bin_list(&cl, B_ALL & ~B_FLUSH);
    expect(&cl, &o, "binning list does not end with Flush", "flush");
    vc4_cl_free(&cl);

    bin_list(&cl, B_ALL & ~B_SEM);
    expect_warning(&cl, &o, "without Increment Semaphore", "semaphore");
    vc4_cl_free(&cl);

    bin_list(&cl, B_ALL & ~B_CLIP);
    expect_warning(&cl, &o, "Vertex Array Primitives without a Clip Window", "clip window");
    vc4_cl_free(&cl);

    /* a 0 x 0 clip window (Mesa's for a scissor of nothing): the hardware
     * does not clip everything away */
    bin_list(&cl, B_ALL & ~B_CLIP);
    vc4_cl_clip_window(&cl, &(struct vc4_cl_clip_window){.left_px = 0, .bottom_px = 160});
    expect_warning(&cl, &o, "Clip Window of 0 x 0 pixels: the hardware does not clip everything away",
                   "empty clip window");
    expect_warning(&cl, &o, "cl-clip-window-empty", "empty clip window id");
    vc4_cl_free(&cl);

    /* a line loop of 2 vertices, which the hardware fails to draw */
    bin_list(&cl, B_ALL & ~B_FLUSH);
    vc4_cl_vertex_array_primitives(&cl, &(struct vc4_cl_vertex_array_primitives){
                                            .primitive_mode = VC4_CL_PRIM_LINE_LOOP, .length = 2});
    vc4_cl_flush(&cl);
    expect_warning(&cl, &o, "Vertex Array Primitives: a line loop of 2 vertices: the hardware fails to draw it",
                   "line loop of 2");
    expect_warning(&cl, &o, "cl-line-loop-two", "line loop of 2 id");
    vc4_cl_free(&cl);

    /* zero-size bins, TSDA alignment, tile allocation outside memory / too small */
    vc4_cl_init(&cl, NULL, 0, NULL);
    vc4_cl_tile_binning_mode_config(&cl, &(struct vc4_cl_tile_binning_mode_config){
                                             .tile_alloc_addr = MEM_SIZE - 16,
                                             .tile_alloc_size = 64, .tsda_addr = TSDA + 8,
                                             .width_tiles = 0, .height_tiles = 4});
    expect(&cl, &o, "0 x 4 tiles: width and height must be non-zero", "size");
    expect(&cl, &o, "tile state data array address 0x00030008 is not 16-byte aligned", "tsda");
    expect(&cl, &o, "tile allocation memory 0x000ffff0..0x00100030 is outside memory", "range");
    vc4_cl_free(&cl);
    vc4_cl_init(&cl, NULL, 0, NULL);
    vc4_cl_tile_binning_mode_config(&cl, &(struct vc4_cl_tile_binning_mode_config){
                                             .tile_alloc_addr = TILE_ALLOC, .tile_alloc_size = 64,
                                             .tsda_addr = TSDA, .width_tiles = 4,
                                             .height_tiles = 4});
    expect(&cl, &o, "smaller than the initial blocks of 16 tiles (512 bytes)", "alloc size");
    vc4_cl_free(&cl);

    /* kernel rules */
    o.kernel_rules = true;
    bin_list(&cl, B_ALL);
    expect(&cl, &o, "NV Shader State is not in the kernel's binning-list whitelist", "whitelist");
    vc4_cl_free(&cl);
    bin_list(&cl, B_ALL | B_GL);
    vc4_cl_nop(&cl);
    expect(&cl, &o, "Flush as the very last byte", "flush last");
    vc4_cl_free(&cl);
    bin_list(&cl, (B_ALL | B_GL) & ~B_SEM);
    expect(&cl, &o, "Increment Semaphore just before the final Flush", "sem before flush");
    vc4_cl_free(&cl);
    bin_list(&cl, B_ALL | B_GL);
    vc4_cl_start_tile_binning(&cl);
    vc4_cl_increment_semaphore(&cl);
    vc4_cl_flush(&cl);
    expect(&cl, &o, "Start Tile Binning: more than one", "one start");
    vc4_cl_free(&cl);
}

static void test_records_and_ranges(void)
{
    put_records();
    struct vc4_cl cl;
    struct vc4_cl_validate_options o = mem_opts(VC4_CL_LIST_BIN);

    /* NV record misaligned */
    vc4_cl_init(&cl, NULL, 0, NULL);
    vc4_cl_nv_shader_state(&cl, &(struct vc4_cl_nv_shader_state){.record_addr = NV_REC + 4});
    expect(&cl, &o, "cl: 0x00000000: error: NV Shader State: NV shader record 0x00002004 is not "
                    "16-byte aligned",
           "nv align");
    vc4_cl_free(&cl);

    /* shader code address misaligned, vertex data beyond memory */
    struct vc4_cl_nv_shader_record nv = {.vertex_stride = 24, .fs_code_addr = FS_CODE + 4,
                                         .vertex_data_addr = MEM_SIZE - 48};
    vc4_cl_nv_shader_record_pack(&nv, mem + NV_REC, NULL);
    bin_list(&cl, B_ALL);
    expect(&cl, &o, "fragment shader code address 0x00002104 is not 8-byte aligned", "code");
    expect(&cl, &o, "Vertex Array Primitives: vertex 2 is outside memory", "verts");
    vc4_cl_free(&cl);
    put_records();

    /* GL: select bits beyond the attribute count; total size mismatch */
    mem[GL_REC + 26] = 0x06; /* cs_attr_select = arrays 1 and 2 */
    bin_list(&cl, B_ALL | B_GL);
    expect(&cl, &o, "the coordinate shader selects attribute arrays 0x06 but the record has only 2",
           "attr count");
    vc4_cl_free(&cl);
    put_records();
    mem[GL_REC + 15] = 16; /* vs_attr_size */
    bin_list(&cl, B_ALL | B_GL);
    expect_warning(&cl, &o, "total attributes size is 16 but its selected arrays hold 12",
                   "attr size");
    vc4_cl_free(&cl);
    put_records();
    /* attribute array runs out of memory at the maximum index */
    struct vc4_cl_attr_record far = vc4_cl_attr_stream(MEM_SIZE - 20, 12, 12, 0, 0);
    vc4_cl_attr_record_pack(&far, mem + GL_REC + 36, NULL);
    bin_list(&cl, B_ALL | B_GL);
    expect(&cl, &o, "attribute array 0 (0x000fffec, 12 bytes per vertex, stride 12) runs outside",
           "attr range");
    vc4_cl_free(&cl);
    put_records();

    /* index buffer: outside memory; an index above the maximum */
    vc4_cl_init(&cl, NULL, 0, NULL);
    bin_config(&cl);
    vc4_cl_start_tile_binning(&cl);
    vc4_cl_nv_shader_state(&cl, &(struct vc4_cl_nv_shader_state){.record_addr = NV_REC});
    size_t at = cl.len;
    vc4_cl_indexed_primitive_list(&cl, &(struct vc4_cl_indexed_primitive_list){
                                           .primitive_mode = VC4_CL_PRIM_TRIANGLES,
                                           .index_type = VC4_CL_INDEX_16BIT, .length = 6,
                                           .index_addr = MEM_SIZE - 4, .max_index = 3});
    char want[128];
    snprintf(want, sizeof want, "cl: 0x%08zx: error: Indexed Primitive List: index list", at);
    expect(&cl, &o, want, "index range");
    vc4_cl_free(&cl);
    vc4_cl_init(&cl, NULL, 0, NULL);
    bin_config(&cl);
    vc4_cl_start_tile_binning(&cl);
    vc4_cl_nv_shader_state(&cl, &(struct vc4_cl_nv_shader_state){.record_addr = NV_REC});
    vc4_cl_indexed_primitive_list(&cl, &(struct vc4_cl_indexed_primitive_list){
                                           .primitive_mode = VC4_CL_PRIM_TRIANGLES,
                                           .index_type = VC4_CL_INDEX_16BIT, .length = 6,
                                           .index_addr = INDICES, .max_index = 2});
    expect(&cl, &o, "index 3 (entry 5) exceeds the maximum index 2", "max index");
    vc4_cl_free(&cl);
    vc4_cl_init(&cl, NULL, 0, NULL);
    vc4_cl_vertex_array_primitives(&cl, &(struct vc4_cl_vertex_array_primitives){
                                            .primitive_mode = 4, .length = 10,
                                            .first_index = 0xfffffffe});
    o.list = 0;
    expect(&cl, &o, "first vertex 4294967294 + length 10 overflows", "overflow");
    vc4_cl_free(&cl);

    /* branch target outside memory */
    vc4_cl_init(&cl, NULL, 0, NULL);
    vc4_cl_branch_to_sub_list(&cl, &(struct vc4_cl_branch_to_sub_list){MEM_SIZE});
    expect(&cl, &o, "Branch to Sub-list: target 0x00100000 is outside memory", "branch");
    vc4_cl_free(&cl);
}

static void test_render_rules(void)
{
    put_records();
    struct vc4_cl cl;
    struct vc4_cl_validate_options o = mem_opts(VC4_CL_LIST_RENDER);

    vc4_cl_init(&cl, NULL, 0, NULL);
    vc4_cl_tile_coordinates(&cl, &(struct vc4_cl_tile_coordinates){0, 0});
    vc4_cl_store_ms_tile_buffer_and_eof(&cl);
    expect(&cl, &o, "Tile Coordinates before Tile Rendering Mode Configuration", "order");
    expect(&cl, &o, "rendering list without a Tile Rendering Mode Configuration", "required");
    vc4_cl_free(&cl);

    struct vc4_cl_tile_rendering_mode_config rc = {.fb_addr = FB, .width_px = 128,
                                                   .height_px = 128,
                                                   .color_format = VC4_CL_FB_RGBA8888};
    vc4_cl_init(&cl, NULL, 0, NULL);
    vc4_cl_tile_rendering_mode_config(&cl, &rc);
    vc4_cl_store_ms_tile_buffer(&cl);
    expect(&cl, &o, "Store Multi-sample Resolved Tile Color Buffer before Tile Coordinates",
           "store before coords");
    vc4_cl_free(&cl);

    vc4_cl_init(&cl, NULL, 0, NULL);
    vc4_cl_tile_rendering_mode_config(&cl, &rc);
    vc4_cl_load_tile_buffer_general(&cl, &(struct vc4_cl_load_tile_buffer_general){
                                             .buffer = VC4_CL_BUF_COLOR, .address = FB});
    vc4_cl_load_tile_buffer_general(&cl, &(struct vc4_cl_load_tile_buffer_general){
                                             .buffer = VC4_CL_BUF_ZS, .address = FB});
    vc4_cl_tile_coordinates(&cl, &(struct vc4_cl_tile_coordinates){2, 0});
    vc4_cl_store_ms_tile_buffer_and_eof(&cl);
    expect(&cl, &o, "a load is already pending", "two loads");
    expect(&cl, &o, "Tile Coordinates: tile (2, 0) is outside the 2 x 2-tile frame", "tile range");
    vc4_cl_free(&cl);

    vc4_cl_init(&cl, NULL, 0, NULL);
    vc4_cl_tile_rendering_mode_config(&cl, &rc);
    vc4_cl_tile_coordinates(&cl, &(struct vc4_cl_tile_coordinates){0, 0});
    vc4_cl_store_ms_tile_buffer(&cl);
    expect_warning(&cl, &o, "never signals end of frame", "eof");
    vc4_cl_load_full_res_tile_buffer(&cl, &(struct vc4_cl_load_full_res_tile_buffer){.address = FB});
    expect_warning(&cl, &o, "Re-load Full Resolution Tile Buffer is never executed", "dangling load");
    vc4_cl_free(&cl);

    /* frame buffer outside memory; binning packets in a rendering list */
    vc4_cl_init(&cl, NULL, 0, NULL);
    rc.fb_addr = MEM_SIZE - 0x1000;
    vc4_cl_tile_rendering_mode_config(&cl, &rc);
    vc4_cl_start_tile_binning(&cl);
    expect(&cl, &o, "Tile Rendering Mode Configuration: frame buffer 0x000ff000..0x0010f000 is "
                    "outside memory",
           "fb range");
    expect(&cl, &o, "Start Tile Binning is a binning-list packet", "wrong list");
    vc4_cl_free(&cl);

    /* hostile input: never a crash */
    uint64_t s = 99;
    for (int iter = 0; iter < 3000; iter++) {
        uint8_t buf[128];
        size_t n = (size_t)(s % sizeof buf);
        for (size_t i = 0; i < n; i++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            buf[i] = (uint8_t)(s % 4 ? s % 116 : s >> 8);
        }
        uint8_t *p = malloc(n ? n : 1);
        memcpy(p, buf, n);
        struct harness_diags h;
        struct vc4_diag_sink sink = harness_sink(&h);
        struct vc4_cl_validate_options vo = mem_opts((unsigned)(iter % 3));
        vo.kernel_rules = iter & 1;
        vc4_cl_validate(p, n, &vo, &sink);
        free(p);
    }
    CHECK_EQ_INT(vc4_cl_validate(NULL, 0, NULL, NULL), VC4_OK);
    /* an empty binning list under the kernel's rules (fuzz regression: the
     * end-of-list check read the byte past the list) */
    static const uint8_t one[1] = {0};
    struct harness_diags h;
    struct vc4_diag_sink sink = harness_sink(&h);
    struct vc4_cl_validate_options ko = {.list = VC4_CL_LIST_BIN, .kernel_rules = true};
    CHECK_EQ_INT(vc4_cl_validate(one + 1, 0, &ko, &sink), VC4_ERR_INVALID);
    CHECK_CONTAINS(h.text, "binning list without a Tile Binning Mode Configuration");
}

/* VG mode (emu/vg.h): a good list as PeterLemon's VG demos write it, then
 * each VG rule broken on its own. */
enum { VG_REC = 0x2080, VG_COORDS = 0x3100 };

static void vg_list(struct vc4_cl *cl, uint32_t rec, unsigned type, unsigned cont, uint32_t coords,
                    uint32_t n, bool boundary, bool nv_state)
{
    vc4_cl_init(cl, NULL, 0, NULL);
    bin_config(cl);
    vc4_cl_start_tile_binning(cl);
    if (boundary)
        vc4_cl_rht_x_boundary(cl, &(struct vc4_cl_rht_x_boundary){.x_boundary = 32 * 16});
    vc4_cl_clip_window(cl, &(struct vc4_cl_clip_window){.width_px = 128, .height_px = 128});
    vc4_cl_configuration_bits(cl, &(struct vc4_cl_configuration_bits){
                                      .enable_forward_facing = true, .enable_reverse_facing = true,
                                      .early_z_updates_enable = true});
    vc4_cl_viewport_offset(cl, &(struct vc4_cl_viewport_offset){0, 0});
    if (nv_state)
        vc4_cl_nv_shader_state(cl, &(struct vc4_cl_nv_shader_state){.record_addr = NV_REC});
    else
        vc4_cl_vg_shader_state(cl, &(struct vc4_cl_vg_shader_state){.record_addr = rec});
    vc4_cl_vg_coordinate_array_primitives(cl, &(struct vc4_cl_vg_coordinate_array_primitives){
                                                  .primitive_type = type, .continuation = cont,
                                                  .length = n, .coord_addr = coords});
    vc4_cl_vg_inline_primitives(cl, &(struct vc4_cl_vg_inline_primitives){
                                        .primitive_type = VC4_CL_VG_TRIANGLE_FAN, .continuation = 0xF});
    struct vc4_cl_prim_item it = {.kind = VC4_CL_ITEM_XY32, .count = 2, .v = {0x01000100, 0x02000300}};
    vc4_cl_prim_items(cl, &it, 1);
    vc4_cl_increment_semaphore(cl);
    vc4_cl_flush(cl);
}

static void test_vg_rules(void)
{
    put_records();
    struct vc4_cl_vg_shader_record vg = {.fs_code_addr = FS_CODE, .fs_uniforms_addr = UNIFORMS};
    vc4_cl_vg_shader_record_pack(&vg, mem + VG_REC, NULL);
    struct vc4_cl cl;
    struct vc4_cl_validate_options o = mem_opts(VC4_CL_LIST_BIN);
    struct harness_diags h;

    vg_list(&cl, VG_REC, VC4_CL_VG_RHT, 0, VG_COORDS, 2, true, false);
    CHECK_EQ_INT(run(&cl, &o, &h), VC4_OK);
    /* only 42's provisional item framing (vc4kit's own) is worth a warning */
    CHECK_MSG(h.errors == 0 && h.warnings == 1 && strstr(h.text, "opcode 42 is known from one weak source"),
              "good VG list:\n%s", h.text);
    vc4_cl_free(&cl);

    vg_list(&cl, VG_REC, VC4_CL_VG_TRIANGLES, 0, VG_COORDS, 3, false, true);
    expect(&cl, &o, "VG Coordinate Array Primitives with NV Shader State shader state at hand", "vg mode");
    expect(&cl, &o, "cl-vg-mode", "vg mode id");
    vc4_cl_free(&cl);

    vg_list(&cl, VG_REC + 4, VC4_CL_VG_TRIANGLES, 0, VG_COORDS, 3, false, false);
    expect(&cl, &o, "VG Shader State: VG shader record 0x00002084 is not 16-byte aligned", "vg align");
    expect(&cl, &o, "cl-vg-record-align", "vg align id");
    vc4_cl_free(&cl);

    vg = (struct vc4_cl_vg_shader_record){.fs_code_addr = FS_CODE + 4};
    vc4_cl_vg_shader_record_pack(&vg, mem + VG_REC, NULL);
    vg_list(&cl, VG_REC, VC4_CL_VG_TRIANGLES, 0, VG_COORDS, 3, false, false);
    expect(&cl, &o, "fragment shader code address 0x00002104 is not 8-byte aligned", "vg code align");
    vc4_cl_free(&cl);
    put_records();
    vg = (struct vc4_cl_vg_shader_record){.fs_code_addr = FS_CODE};
    vc4_cl_vg_shader_record_pack(&vg, mem + VG_REC, NULL);

    vg_list(&cl, VG_REC, 2, 0, VG_COORDS, 3, false, false);
    expect(&cl, &o, "primitive type 2 does not exist", "vg type");
    expect(&cl, &o, "cl-vg-prim-type", "vg type id");
    vc4_cl_free(&cl);

    vg_list(&cl, VG_REC, VC4_CL_VG_TRIANGLES, 0xF, VG_COORDS, 3, false, false);
    expect(&cl, &o, "a continuation list (0xf) is for triangle fans only", "vg continuation");
    vc4_cl_free(&cl);

    vg_list(&cl, VG_REC, VC4_CL_VG_TRIANGLES, 0, MEM_SIZE - 8, 3, false, false);
    expect(&cl, &o, "3 coordinates at 0x000ffff8 (4 bytes each) run outside memory", "vg coords");
    expect(&cl, &o, "cl-vg-coords", "vg coords id");
    vc4_cl_free(&cl);

    vg_list(&cl, VG_REC, VC4_CL_VG_RHT_STRIP, 0, VG_COORDS, 3, false, false);
    expect_warning(&cl, &o, "RHT primitives without an RHT X Boundary", "rht boundary");
    expect_warning(&cl, &o, "cl-vg-rht-boundary", "rht boundary id");
    vc4_cl_free(&cl);
}

TEST_LIST(test_good_lists, test_framing, test_bin_rules, test_records_and_ranges,
          test_render_rules, test_vg_rules)
