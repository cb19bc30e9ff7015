/*
 * cl_packets.c - every V3D 2.1 control-list packet and shader record as
 * data: opcode, length, lists, field table (offset, shift, width, type,
 * enum value names).  The writer, reader, dumper, validator, the .qinc
 * generator and the emulator all read these tables; a field's position is
 * written down here and nowhere else.
 *
 * Sources (facts file = shared/reference/v3d-hardware-facts.md):
 *   [M]  Mesa src/broadcom/cle/v3d_packet_v21.xml, gallium/drivers/vc4/
 *        kernel/vc4_packet.h (lengths, bit positions, value names)
 *   [K]  Linux drivers/gpu/drm/vc4/vc4_validate.c (bin whitelist, lists)
 *   [PL] PeterLemon LIB/CONTROL_LIST.INC (the guide's tables: VG packets,
 *        packets 28/29/49 bit names)
 *   [?]  a single derived header (packets 2, 3, 19, 20)
 * Field offsets of packets are payload offsets (the opcode byte excluded).
 */
#include <assert.h>
#include <string.h>

#include "base/base.h"
#include "vc4kit/cl.h"

/* ---- enum value names ------------------------------------------------- */

#define EV(v, n) [v] = {.value = v, .name = n}

static const struct vc4_cl_enum_value prim_modes[] = { /* [M] XML packets 32/33 */
    EV(VC4_CL_PRIM_POINTS, "points"),
    EV(VC4_CL_PRIM_LINES, "lines"),
    EV(VC4_CL_PRIM_LINE_LOOP, "line_loop"),
    EV(VC4_CL_PRIM_LINE_STRIP, "line_strip"),
    EV(VC4_CL_PRIM_TRIANGLES, "triangles"),
    EV(VC4_CL_PRIM_TRIANGLE_STRIP, "triangle_strip"),
    EV(VC4_CL_PRIM_TRIANGLE_FAN, "triangle_fan"),
};
static_assert(VC4_ARRAY_SIZE(prim_modes) == VC4_CL_PRIM_TRIANGLE_FAN + 1, "primitive modes");

static const struct vc4_cl_enum_value index_types[] = { /* [M] vc4_packet.h INDEX_BUFFER_U8/U16 */
    EV(VC4_CL_INDEX_8BIT, "8bit"),
    EV(VC4_CL_INDEX_16BIT, "16bit"),
};
static_assert(VC4_ARRAY_SIZE(index_types) == VC4_CL_INDEX_16BIT + 1, "index types");

static const struct vc4_cl_enum_value plf_types[] = { /* [M] XML packet 56 */
    EV(VC4_CL_PLF_POINTS, "points"),
    EV(VC4_CL_PLF_LINES, "lines"),
    EV(VC4_CL_PLF_TRIANGLES, "triangles"),
    EV(VC4_CL_PLF_RHT, "rht"),
};
static_assert(VC4_ARRAY_SIZE(plf_types) == VC4_CL_PLF_RHT + 1, "primitive list types");

/* sparse: 1 and 3 only; listed, not indexed */
static const struct vc4_cl_enum_value plf_data[] = { /* [M] XML packet 56 */
    {.value = VC4_CL_PLF_INDEX16, .name = "index16"},
    {.value = VC4_CL_PLF_XY32, .name = "xy32"},
};

static const struct vc4_cl_enum_value mem_formats[] = { /* [M] VC4_TILING_FORMAT_* */
    EV(VC4_CL_MEM_RASTER, "raster"),
    EV(VC4_CL_MEM_T, "t"),
    EV(VC4_CL_MEM_LT, "lt"),
};
static_assert(VC4_ARRAY_SIZE(mem_formats) == VC4_CL_MEM_LT + 1, "memory formats");

static const struct vc4_cl_enum_value store_buffers[] = { /* [M] LOADSTORE_TILE_BUFFER_* */
    EV(VC4_CL_BUF_NONE, "none"),
    EV(VC4_CL_BUF_COLOR, "color"),
    EV(VC4_CL_BUF_ZS, "zs"),
    EV(VC4_CL_BUF_Z, "z"),
    EV(VC4_CL_BUF_VG_MASK, "vg_mask"),
    EV(VC4_CL_BUF_FULL, "full"),
};
static_assert(VC4_ARRAY_SIZE(store_buffers) == VC4_CL_BUF_FULL + 1, "buffers");

/* load: 3 is "n.a." [PL] */
static const struct vc4_cl_enum_value load_buffers[] = {
    EV(VC4_CL_BUF_NONE, "none"),
    EV(VC4_CL_BUF_COLOR, "color"),
    EV(VC4_CL_BUF_ZS, "zs"),
    EV(VC4_CL_BUF_VG_MASK, "vg_mask"),
    EV(VC4_CL_BUF_FULL, "full"),
};

static const struct vc4_cl_enum_value store_modes[] = { /* [M] STORE_TILE_BUFFER_MODE_* */
    EV(VC4_CL_STORE_SAMPLE0, "sample0"),
    EV(VC4_CL_STORE_DECIMATE_4X, "decimate_4x"),
    EV(VC4_CL_STORE_DECIMATE_16X, "decimate_16x"),
};
static_assert(VC4_ARRAY_SIZE(store_modes) == VC4_CL_STORE_DECIMATE_16X + 1, "store modes");

static const struct vc4_cl_enum_value ls_formats[] = { /* [M] LOADSTORE_TILE_BUFFER_RGBA8888.. */
    EV(VC4_CL_LS_RGBA8888, "rgba8888"),
    EV(VC4_CL_LS_BGR565_DITHER, "bgr565_dither"),
    EV(VC4_CL_LS_BGR565, "bgr565"),
};
static_assert(VC4_ARRAY_SIZE(ls_formats) == VC4_CL_LS_BGR565 + 1, "load/store colour formats");

static const struct vc4_cl_enum_value fb_formats[] = { /* [M] RENDER_CONFIG_FORMAT_* */
    EV(VC4_CL_FB_BGR565_DITHER, "bgr565_dither"),
    EV(VC4_CL_FB_RGBA8888, "rgba8888"),
    EV(VC4_CL_FB_BGR565, "bgr565"),
};
static_assert(VC4_ARRAY_SIZE(fb_formats) == VC4_CL_FB_BGR565 + 1, "frame-buffer colour formats");

static const struct vc4_cl_enum_value decimates[] = { /* [M] RENDER_CONFIG_DECIMATE_MODE_* */
    EV(VC4_CL_DECIMATE_1X, "1x"),
    EV(VC4_CL_DECIMATE_4X, "4x"),
    EV(VC4_CL_DECIMATE_16X, "16x"),
};
static_assert(VC4_ARRAY_SIZE(decimates) == VC4_CL_DECIMATE_16X + 1, "decimate modes");

static const struct vc4_cl_enum_value block_sizes[] = { /* [M] BIN_CONFIG_ALLOC_BLOCK_SIZE_* */
    EV(VC4_CL_BLOCK_32, "32"),
    EV(VC4_CL_BLOCK_64, "64"),
    EV(VC4_CL_BLOCK_128, "128"),
    EV(VC4_CL_BLOCK_256, "256"),
};
static_assert(VC4_ARRAY_SIZE(block_sizes) == VC4_CL_BLOCK_256 + 1, "block sizes");

static const struct vc4_cl_enum_value depth_funcs[] = { /* [M] CONFIG_BITS_DEPTH_FUNC = PIPE_FUNC_* */
    EV(VC4_CL_DEPTH_NEVER, "never"),
    EV(VC4_CL_DEPTH_LESS, "less"),
    EV(VC4_CL_DEPTH_EQUAL, "equal"),
    EV(VC4_CL_DEPTH_LEQUAL, "lequal"),
    EV(VC4_CL_DEPTH_GREATER, "greater"),
    EV(VC4_CL_DEPTH_NOTEQUAL, "notequal"),
    EV(VC4_CL_DEPTH_GEQUAL, "gequal"),
    EV(VC4_CL_DEPTH_ALWAYS, "always"),
};
static_assert(VC4_ARRAY_SIZE(depth_funcs) == VC4_CL_DEPTH_ALWAYS + 1, "depth functions");

static const struct vc4_cl_enum_value oversamples[] = { /* [M] RASTERIZER_OVERSAMPLE_* */
    EV(VC4_CL_OVERSAMPLE_NONE, "none"),
    EV(VC4_CL_OVERSAMPLE_4X, "4x"),
    EV(VC4_CL_OVERSAMPLE_16X, "16x"),
};
static_assert(VC4_ARRAY_SIZE(oversamples) == VC4_CL_OVERSAMPLE_16X + 1, "oversample modes");

static const struct vc4_cl_enum_value cov_updates[] = { /* [M] COVERAGE_UPDATE_* */
    EV(VC4_CL_COV_NONZERO, "nonzero"),
    EV(VC4_CL_COV_ODD, "odd"),
    EV(VC4_CL_COV_OR, "or"),
    EV(VC4_CL_COV_ZERO, "zero"),
};
static_assert(VC4_ARRAY_SIZE(cov_updates) == VC4_CL_COV_ZERO + 1, "coverage update modes");

static const struct vc4_cl_enum_value cov_read_types[] = { /* facts §3.4 bit 5 */
    {.value = 0, .name = "level_4x8bit"},
    {.value = 1, .name = "mask_16bit"},
};
static const struct vc4_cl_enum_value cov_read_modes[] = { /* [M] COVERAGE_READ_LEAVE */
    {.value = 0, .name = "clear_on_read"},
    {.value = 1, .name = "leave_on_read"},
};

/* ---- field macros ------------------------------------------------------ *
 * Each entry checks at compile time that the typed struct's member has the
 * C type the member kind says (a static_assert inside a sizeof'd struct). */

#define MEMBER_IS(S, m, T)                                                     \
    (0 * sizeof(struct {                                                       \
         static_assert(_Generic(((struct S *)0)->m, T: 1, default: 0),         \
                       #S "." #m " has the wrong C type");                     \
         char c;                                                               \
     }))

#define FIELD(S, m, off, sh, wd, ty, mk, T, d)                                 \
    {.name = #m, .desc = d, .offset = off, .shift = sh, .width = wd, .type = ty, \
     .member_kind = mk, .member = (uint16_t)(offsetof(struct S, m) + MEMBER_IS(S, m, T))}
#define FIELDV(S, m, off, sh, wd, vals, d)                                     \
    {.name = #m, .desc = d, .offset = off, .shift = sh, .width = wd,           \
     .type = VC4_CL_FT_ENUM, .member_kind = VC4_CL_MK_U32,                     \
     .member = (uint16_t)(offsetof(struct S, m) + MEMBER_IS(S, m, uint32_t)),  \
     .nvalues = (uint8_t)VC4_ARRAY_SIZE(vals), .values = vals}

#define U(S, m, off, sh, wd, d) FIELD(S, m, off, sh, wd, VC4_CL_FT_UINT, VC4_CL_MK_U32, uint32_t, d)
#define U64(S, m, off, d) FIELD(S, m, off, 0, 64, VC4_CL_FT_UINT, VC4_CL_MK_U64, uint64_t, d)
#define I(S, m, off, sh, wd, d) FIELD(S, m, off, sh, wd, VC4_CL_FT_SINT, VC4_CL_MK_I32, int32_t, d)
#define FX(S, m, off, d) FIELD(S, m, off, 0, 16, VC4_CL_FT_S12_4, VC4_CL_MK_I32, int32_t, d)
#define B(S, m, off, bit, d) FIELD(S, m, off, bit, 1, VC4_CL_FT_BOOL, VC4_CL_MK_BOOL, bool, d)
#define A(S, m, off, sh, d) FIELD(S, m, off, sh, 32 - (sh), VC4_CL_FT_ADDRESS, VC4_CL_MK_U32, uint32_t, d)
#define F32(S, m, off, d) FIELD(S, m, off, 0, 32, VC4_CL_FT_FLOAT, VC4_CL_MK_FLOAT, float, d)
#define F16(S, m, off, sh, d) FIELD(S, m, off, sh, 16, VC4_CL_FT_FLOAT16, VC4_CL_MK_FLOAT, float, d)
#define E(S, m, off, sh, wd, vals, d) FIELDV(S, m, off, sh, wd, vals, d)

/* ---- packet field tables ------------------------------------------------ */

#define S vc4_cl_branch
static const struct vc4_cl_field_desc f_branch[] = {
    A(S, address, 0, 0, "absolute address of the next packet"),
};
#undef S
#define S vc4_cl_branch_to_sub_list
static const struct vc4_cl_field_desc f_branch_sub[] = {
    A(S, address, 0, 0, "absolute address of the sub-list (return stack: 2 levels [PL])"),
};
#undef S

/* 26: u32: bits 31:4 address/16, bit3 last tile (EOF), bit2 disable clear,
 * bit1 disable Z/stencil write, bit0 disable colour write [M XML] */
#define S vc4_cl_store_full_res_tile_buffer
static const struct vc4_cl_field_desc f_store_full[] = {
    A(S, address, 0, 4, "this tile's 16-byte-aligned dump address"),
    B(S, last_tile, 0, 3, "last tile of the frame (signals end of frame)"),
    B(S, disable_clear_on_write, 0, 2, "disable clear on write"),
    B(S, disable_zs_write, 0, 1, "disable Z/stencil buffer write"),
    B(S, disable_color_write, 0, 0, "disable colour buffer write"),
};
#undef S
#define S vc4_cl_load_full_res_tile_buffer
static const struct vc4_cl_field_desc f_load_full[] = {
    A(S, address, 0, 4, "this tile's 16-byte-aligned dump address"),
    B(S, disable_zs_read, 0, 1, "disable Z/stencil buffer read"),
    B(S, disable_color_read, 0, 0, "disable colour buffer read"),
};
#undef S

/* 28: u16 flags @0 + u32 @2 (bits 31:4 address/16, bits 3:0 flags)
 * [M vc4_packet.h LOADSTORE_*, PL]; u16 bits 3, 10, 11 reserved */
#define S vc4_cl_store_tile_buffer_general
static const struct vc4_cl_field_desc f_store_general[] = {
    E(S, buffer, 0, 0, 3, store_buffers, "buffer to store"),
    E(S, memory_format, 0, 4, 2, mem_formats, "memory format"),
    E(S, mode, 0, 6, 2, store_modes, "decimation mode"),
    E(S, color_format, 0, 8, 2, ls_formats, "pixel colour format"),
    B(S, disable_double_buffer_swap, 0, 12, "disable double-buffer swap"),
    B(S, disable_color_clear, 0, 13, "disable colour buffer clear on store"),
    B(S, disable_zs_clear, 0, 14, "disable Z/stencil buffer clear on store"),
    B(S, disable_vg_mask_clear, 0, 15, "disable VG-mask buffer clear on store"),
    A(S, address, 2, 4, "frame buffer base address (the tile offset is added)"),
    B(S, disable_color_dump, 2, 0, "disable colour dump (full dump mode)"),
    B(S, disable_zs_dump, 2, 1, "disable Z/stencil dump (full dump mode)"),
    B(S, disable_vg_mask_dump, 2, 2, "disable VG-mask dump (full dump mode)"),
    B(S, last_tile, 2, 3, "last tile of the frame (signals end of frame)"),
};
#undef S
#define S vc4_cl_load_tile_buffer_general
static const struct vc4_cl_field_desc f_load_general[] = {
    E(S, buffer, 0, 0, 3, load_buffers, "buffer to load"),
    E(S, memory_format, 0, 4, 2, mem_formats, "memory format"),
    E(S, color_format, 0, 8, 2, ls_formats, "pixel colour format"),
    A(S, address, 2, 4, "frame buffer base address (the tile offset is added)"),
    B(S, disable_color_load, 2, 0, "disable colour load (full reload mode)"),
    B(S, disable_zs_load, 2, 1, "disable Z/stencil load (full reload mode)"),
    B(S, disable_vg_mask_load, 2, 2, "disable VG-mask load (full reload mode)"),
};
#undef S

/* 32: byte0 mode 3:0 + index type 7:4, u32 length @1, u32 address @5,
 * u32 max index @9 [M XML] */
#define S vc4_cl_indexed_primitive_list
static const struct vc4_cl_field_desc f_indexed[] = {
    E(S, primitive_mode, 0, 0, 4, prim_modes, "primitive mode"),
    E(S, index_type, 0, 4, 4, index_types, "index type"),
    U(S, length, 1, 0, 32, "number of indices"),
    A(S, index_addr, 5, 0, "address of the index list"),
    U(S, max_index, 9, 0, 32, "maximum index"),
};
#undef S
#define S vc4_cl_vertex_array_primitives
static const struct vc4_cl_field_desc f_array[] = {
    E(S, primitive_mode, 0, 0, 4, prim_modes, "primitive mode"),
    U(S, length, 1, 0, 32, "number of vertices"),
    U(S, first_index, 5, 0, 32, "index of the first vertex"),
};
#undef S

/* 41/42 byte 0 [PL]: bits 3:0 primitive type, bits 7:4 continuation.  The
 * guide's table as first transcribed (one-hot RHT 0x02, RHT strip 0x08,
 * triangles 0x10, strip 0x20, fan 0x40, continuation 0x80) names bit
 * positions; PeterLemon's corrected CONTROL_LIST.INC and his VG demos
 * (V3D/ControlList/VG/Coordinate_Array, run on a Pi 1) use the values 1, 3,
 * 4, 5, 6, as Mesa's packets 32/33 do for the same shapes, and 0xF0 for
 * "continuation list (triangle fans only)".  The length counts vertices in
 * the demos (3 for one triangle, 2 for one RHT, 4 for a two-triangle fan)
 * although the guide calls it "number of primitives": vc4kit follows the
 * demos (UNVERIFIED). */
static const struct vc4_cl_enum_value vg_prim_types[] = {
    {.value = VC4_CL_VG_RHT, .name = "rht"},
    {.value = VC4_CL_VG_RHT_STRIP, .name = "rht_strip"},
    {.value = VC4_CL_VG_TRIANGLES, .name = "triangles"},
    {.value = VC4_CL_VG_TRIANGLE_STRIP, .name = "triangle_strip"},
    {.value = VC4_CL_VG_TRIANGLE_FAN, .name = "triangle_fan"},
};
#define S vc4_cl_vg_coordinate_array_primitives
static const struct vc4_cl_field_desc f_vg_coord[] = {
    E(S, primitive_type, 0, 0, 4, vg_prim_types, "primitive type [PL]"),
    U(S, continuation, 0, 4, 4, "continuation list, triangle fans only (0xF) [PL]"),
    U(S, length, 1, 0, 32, "number of vertices (guide: primitives; UNVERIFIED)"),
    A(S, coord_addr, 5, 0, "address of the packed 32-bit X,Y screen coordinates (12.4)"),
};
#undef S
#define S vc4_cl_vg_inline_primitives
static const struct vc4_cl_field_desc f_vg_inline[] = {
    E(S, primitive_type, 0, 0, 4, vg_prim_types, "primitive type [PL]"),
    U(S, continuation, 0, 4, 4, "continuation list, triangle fans only (0xF) [PL]"),
};
#undef S

/* 49: u32 bits 31:3 clipped primitive data address, bits 2:0 clip flags [PL] */
#define S vc4_cl_clipped_primitive
static const struct vc4_cl_field_desc f_clipped[] = {
    U(S, clip_flags, 0, 0, 3, "one flag per vertex of the next primitive"),
    A(S, clipped_prim_addr, 0, 3, "address of the single clipped-primitive data"),
};
#undef S

#define S vc4_cl_primitive_list_format
static const struct vc4_cl_field_desc f_plf[] = { /* [M XML] */
    E(S, primitive_type, 0, 0, 4, plf_types, "primitive type"),
    E(S, data_type, 0, 4, 4, plf_data, "data type"),
};
#undef S

/* 64: u32 bits 31:4 record address/16, bit 3 extended, bits 2:0 attribute
 * array count, 0 = 8 [M XML, seed 000's GL_Shader_State macro] */
#define S vc4_cl_gl_shader_state
static const struct vc4_cl_field_desc f_gl_state[] = {
    U(S, num_attr_arrays, 0, 0, 3, "number of attribute arrays (0 = 8)"),
    B(S, extended, 0, 3, "extended shader record"),
    A(S, record_addr, 0, 4, "GL shader record address (16-byte aligned)"),
};
#undef S
#define S vc4_cl_nv_shader_state
static const struct vc4_cl_field_desc f_nv_state[] = {
    A(S, record_addr, 0, 0, "NV shader record address (16-byte aligned)"),
};
#undef S
#define S vc4_cl_vg_shader_state
static const struct vc4_cl_field_desc f_vg_state[] = {
    A(S, record_addr, 0, 0, "VG shader record address (16-byte aligned)"),
};
#undef S
/* 67: u32 bits 31:3 FS code address, bit 0 FS single-threaded; u32 FS
 * uniforms address [PL] */
#define S vc4_cl_vg_inline_shader_record
static const struct vc4_cl_field_desc f_vg_inline_rec[] = {
    B(S, fs_single_threaded, 0, 0, "fragment shader single-threaded"),
    A(S, fs_code_addr, 0, 3, "fragment shader code address (8-byte aligned)"),
    A(S, fs_uniforms_addr, 4, 0, "fragment shader uniforms address"),
};
#undef S

/* 96: 24 bits [M XML + vc4_packet.h CONFIG_BITS_*] */
#define S vc4_cl_configuration_bits
static const struct vc4_cl_field_desc f_config[] = {
    B(S, enable_forward_facing, 0, 0, "enable forward-facing primitives"),
    B(S, enable_reverse_facing, 0, 1, "enable reverse-facing primitives"),
    B(S, clockwise, 0, 2, "clockwise primitives"),
    B(S, enable_depth_offset, 0, 3, "enable depth offset"),
    B(S, antialiased_points_lines, 0, 4, "antialiased points and lines (not supported [PL])"),
    E(S, coverage_read_type, 0, 5, 1, cov_read_types, "coverage read type"),
    E(S, rasteriser_oversample, 0, 6, 2, oversamples, "rasteriser oversample mode"),
    B(S, coverage_pipe_select, 0, 8, "coverage pipe select"),
    E(S, coverage_update_mode, 0, 9, 2, cov_updates, "coverage update mode"),
    E(S, coverage_read_mode, 0, 11, 1, cov_read_modes, "coverage read mode"),
    E(S, depth_func, 0, 12, 3, depth_funcs, "depth-test function"),
    B(S, z_updates_enable, 0, 15, "Z updates enable"),
    B(S, early_z_enable, 0, 16, "early Z enable"),
    B(S, early_z_updates_enable, 0, 17, "early Z updates enable"),
};
#undef S

#define S vc4_cl_flat_shade_flags
static const struct vc4_cl_field_desc f_flat[] = {
    U(S, flags, 0, 0, 32, "one bit per varying (1 = flat)"),
};
#undef S
#define S vc4_cl_point_size
static const struct vc4_cl_field_desc f_point[] = { F32(S, point_size, 0, "point size") };
#undef S
#define S vc4_cl_line_width
static const struct vc4_cl_field_desc f_line[] = { F32(S, line_width, 0, "line width") };
#undef S
#define S vc4_cl_rht_x_boundary
static const struct vc4_cl_field_desc f_rht[] = {
    I(S, x_boundary, 0, 0, 16, "RHT primitive X boundary (s16, 12.4: the RHT demo writes 32 * 16)"),
};
#undef S
/* 101: both float 1-8-7 (upper 16 bits of an f32) [M XML comment] */
#define S vc4_cl_depth_offset
static const struct vc4_cl_field_desc f_depth_off[] = {
    F16(S, factor, 0, 0, "depth offset factor (float 1-8-7)"),
    F16(S, units, 0, 16, "depth offset units (float 1-8-7)"),
};
#undef S
#define S vc4_cl_clip_window
static const struct vc4_cl_field_desc f_clip[] = {
    U(S, left_px, 0, 0, 16, "left pixel coordinate"),
    U(S, bottom_px, 2, 0, 16, "bottom pixel coordinate"),
    U(S, width_px, 4, 0, 16, "width in pixels"),
    U(S, height_px, 6, 0, 16, "height in pixels"),
};
#undef S
#define S vc4_cl_viewport_offset
static const struct vc4_cl_field_desc f_vp[] = { /* [M] XML type s12.4 */
    FX(S, x_1_16px, 0, "viewport centre X (s12.4)"),
    FX(S, y_1_16px, 2, "viewport centre Y (s12.4)"),
};
#undef S
#define S vc4_cl_z_clipping_planes
static const struct vc4_cl_field_desc f_zclip[] = {
    F32(S, min_zw, 0, "minimum Zw"),
    F32(S, max_zw, 4, "maximum Zw"),
};
#undef S
#define S vc4_cl_clipper_xy_scaling
static const struct vc4_cl_field_desc f_xy_scale[] = {
    F32(S, half_width_1_16px, 0, "viewport half-width in 1/16 pixel"),
    F32(S, half_height_1_16px, 4, "viewport half-height in 1/16 pixel"),
};
#undef S
#define S vc4_cl_clipper_z_scaling
static const struct vc4_cl_field_desc f_z_scale[] = {
    F32(S, z_scale, 0, "viewport Z scale (Zc to Zs)"),
    F32(S, z_offset, 4, "viewport Z offset (Zc to Zs)"),
};
#undef S

/* 112 [M XML, vc4_packet.h BIN_CONFIG_*] */
#define S vc4_cl_tile_binning_mode_config
static const struct vc4_cl_field_desc f_bin_cfg[] = {
    A(S, tile_alloc_addr, 0, 0, "tile allocation memory address"),
    U(S, tile_alloc_size, 4, 0, 32, "tile allocation memory size (bytes)"),
    A(S, tsda_addr, 8, 0, "tile state data array address (16-byte aligned, 48 B/tile)"),
    U(S, width_tiles, 12, 0, 8, "width in tiles"),
    U(S, height_tiles, 13, 0, 8, "height in tiles"),
    B(S, multisample_4x, 14, 0, "multisample mode (4x)"),
    B(S, tile_buffer_64bit, 14, 1, "tile buffer 64-bit colour depth"),
    B(S, auto_init_tsda, 14, 2, "auto-initialise tile state data array"),
    E(S, initial_block_size, 14, 3, 2, block_sizes, "tile allocation initial block size"),
    E(S, block_size, 14, 5, 2, block_sizes, "tile allocation block size"),
    B(S, double_buffer_non_ms, 14, 7, "double-buffer in non-multisample mode"),
};
#undef S

/* 113 [M vc4_packet.h RENDER_CONFIG_*] */
#define S vc4_cl_tile_rendering_mode_config
static const struct vc4_cl_field_desc f_render_cfg[] = {
    A(S, fb_addr, 0, 0, "frame buffer address (used by packets 24/25)"),
    U(S, width_px, 4, 0, 16, "width in pixels"),
    U(S, height_px, 6, 0, 16, "height in pixels"),
    B(S, multisample_4x, 8, 0, "multisample mode (4x)"),
    B(S, tile_buffer_64bit, 8, 1, "tile buffer 64-bit colour depth (HDR)"),
    E(S, color_format, 8, 2, 2, fb_formats, "non-HDR frame buffer colour format"),
    E(S, decimate_mode, 8, 4, 2, decimates, "decimate mode"),
    E(S, memory_format, 8, 6, 2, mem_formats, "memory format"),
    B(S, enable_vg_mask, 8, 8, "enable VG mask buffer"),
    B(S, coverage_mode, 8, 9, "select coverage mode"),
    B(S, early_z_direction_ge, 8, 10, "early-Z update direction (0 LT/LE, 1 GT/GE)"),
    B(S, early_z_coverage_disable, 8, 11, "early-Z / early-coverage disable"),
    B(S, double_buffer_non_ms, 8, 12, "double-buffer in non-multisample mode"),
};
#undef S

/* 114 [M XML] */
#define S vc4_cl_clear_colors
static const struct vc4_cl_field_desc f_clear[] = {
    U64(S, clear_color, 0, "clear colour (2x RGBA8888 or RGBA16161616)"),
    U(S, clear_zs, 8, 0, 24, "clear Z/stencil (24-bit Z)"),
    U(S, clear_vg_mask, 8, 24, 8, "clear VG mask"),
    U(S, clear_stencil, 12, 0, 8, "clear stencil"),
};
#undef S
#define S vc4_cl_tile_coordinates
static const struct vc4_cl_field_desc f_tile_coords[] = {
    U(S, column, 0, 0, 8, "tile column"),
    U(S, row, 1, 0, 8, "tile row"),
};
#undef S

/* ---- the packet table ---------------------------------------------------- */

#define B_ VC4_CL_LIST_BIN
#define R_ VC4_CL_LIST_RENDER
#define BR VC4_CL_LIST_ANY
#define KB VC4_CL_PF_KERNEL_BIN

#define PKT0(op, len, ls, fl, nm, idn, mac, src)                               \
    [VC4_CL_##op] = {.opcode = VC4_CL_##op, .length = len, .lists = ls, .flags = fl,   \
                     .name = nm, .id = #idn, .macro = mac, .source = src,       \
                     .layout = {.fields = NULL, .nfields = 0, .size = (len) - 1,        \
                                .struct_size = 0}}
#define PKT(op, len, ls, fl, nm, idn, mac, src, tab)                           \
    [VC4_CL_##op] = {.opcode = VC4_CL_##op, .length = len, .lists = ls, .flags = fl,   \
                     .name = nm, .id = #idn, .macro = mac, .source = src,       \
                     .layout = {.fields = tab, .nfields = (uint8_t)VC4_ARRAY_SIZE(tab), \
                                .size = (len) - 1,                             \
                                .struct_size = (uint16_t)sizeof(struct vc4_cl_##idn)}}


static const struct vc4_cl_packet_desc packets[VC4_CL_OPCODE_LIMIT] = {
    PKT0(HALT, 1, BR, KB, "Halt", halt, "Halt", "[M][K] stops the executor"),
    PKT0(NOP, 1, BR, KB, "NOP", nop, "No_Op", "[M][K]"),
    PKT0(MARKER, 1, BR, VC4_CL_PF_UNVERIFIED, "Marker", marker, "Marker",
         "[?] named only in a derived header"),
    PKT0(RESET_MARKER_COUNT, 1, BR, VC4_CL_PF_UNVERIFIED, "Reset Marker Count",
         reset_marker_count, "Reset_Marker_Count", "[?] named only in a derived header"),
    PKT0(FLUSH, 1, B_, KB, "Flush", flush, "Flush", "[M][K] ends every tile list"),
    PKT0(FLUSH_ALL_STATE, 1, B_, KB, "Flush All State", flush_all_state, "Flush_All_State",
         "[M][K]"),
    PKT0(START_TILE_BINNING, 1, B_, KB, "Start Tile Binning", start_tile_binning,
         "Start_Tile_Binning", "[M][K]"),
    PKT0(INCREMENT_SEMAPHORE, 1, BR, KB, "Increment Semaphore", increment_semaphore,
         "Increment_Semaphore", "[M][K]"),
    PKT0(WAIT_ON_SEMAPHORE, 1, BR, 0, "Wait on Semaphore", wait_on_semaphore,
         "Wait_On_Semaphore", "[M][K]"),
    PKT(BRANCH, 5, BR, 0, "Branch", branch, "Branch", "[M XML]", f_branch),
    PKT(BRANCH_TO_SUB_LIST, 5, BR, 0, "Branch to Sub-list", branch_to_sub_list,
        "Branch_To_Sub_List", "[M XML]", f_branch_sub),
    PKT0(RETURN_FROM_SUB_LIST, 1, BR, 0, "Return from Sub-list", return_from_sub_list,
         "Return_From_Sub_List", "[M XML] ignored with an empty return stack [PL]"),
    PKT0(REPEAT_START_MARKER, 1, BR, VC4_CL_PF_UNVERIFIED, "Repeat Start Marker",
         repeat_start_marker, "Repeat_Start_Marker", "[?] named only in a derived header"),
    PKT0(REPEAT_FROM_START_MARKER, 1, BR, VC4_CL_PF_UNVERIFIED, "Repeat from Start Marker",
         repeat_from_start_marker, "Repeat_From_Start_Marker",
         "[?] named only in a derived header"),
    PKT0(STORE_MS_TILE_BUFFER, 1, R_, 0, "Store Multi-sample Resolved Tile Color Buffer",
         store_ms_tile_buffer, "Store_MS_Tile_Buffer", "[M XML]"),
    PKT0(STORE_MS_TILE_BUFFER_AND_EOF, 1, R_, 0,
         "Store Multi-sample Resolved Tile Color Buffer and EOF", store_ms_tile_buffer_and_eof,
         "Store_MS_Tile_Buffer_And_EOF", "[M XML]"),
    PKT(STORE_FULL_RES_TILE_BUFFER, 5, R_, 0, "Store Full Resolution Tile Buffer",
        store_full_res_tile_buffer, "Store_Full_Res_Tile_Buffer", "[M XML]", f_store_full),
    PKT(LOAD_FULL_RES_TILE_BUFFER, 5, R_, 0, "Re-load Full Resolution Tile Buffer",
        load_full_res_tile_buffer, "Load_Full_Res_Tile_Buffer", "[M XML]", f_load_full),
    PKT(STORE_TILE_BUFFER_GENERAL, 7, R_, 0, "Store Tile Buffer General",
        store_tile_buffer_general, "Store_Tile_Buffer_General", "[M vc4_packet.h][PL]",
        f_store_general),
    PKT(LOAD_TILE_BUFFER_GENERAL, 7, R_, 0, "Load Tile Buffer General",
        load_tile_buffer_general, "Load_Tile_Buffer_General", "[M vc4_packet.h][PL]",
        f_load_general),
    PKT(INDEXED_PRIMITIVE_LIST, 14, BR, KB, "Indexed Primitive List", indexed_primitive_list,
        "Indexed_Primitive_List", "[M XML][K]", f_indexed),
    PKT(VERTEX_ARRAY_PRIMITIVES, 10, BR, KB, "Vertex Array Primitives",
        vertex_array_primitives, "Vertex_Array_Primitives", "[M XML][K]", f_array),
    PKT(VG_COORDINATE_ARRAY_PRIMITIVES, 10, BR, VC4_CL_PF_VG_ONLY, "VG Coordinate Array Primitives",
        vg_coordinate_array_primitives, "VG_Coordinate_Array_Primitives", "[PL][PL demos]", f_vg_coord),
    PKT(VG_INLINE_PRIMITIVES, 2, BR,
        VC4_CL_PF_VARIABLE | VC4_CL_PF_VG_ONLY | VC4_CL_PF_UNVERIFIED, "VG Inline Primitives",
        vg_inline_primitives, "VG_Inline_Primitives",
        "[PL] type byte, then an escape-terminated list (vc4kit provisional items)",
        f_vg_inline),
    PKT0(COMPRESSED_PRIMITIVE_LIST, 1, R_, VC4_CL_PF_VARIABLE | VC4_CL_PF_TILE_LIST,
         "Compressed Primitive List", compressed_primitive_list, "Compressed_Primitive_List",
         "[M][PL] escape-terminated list (vc4kit provisional items)"),
    PKT(CLIPPED_PRIMITIVE, 5, R_, VC4_CL_PF_VARIABLE | VC4_CL_PF_TILE_LIST,
        "Clipped Primitive with Compressed Primitive List", clipped_primitive,
        "Clipped_Primitive", "[M][PL] u32, then an escape-terminated list (provisional items)",
        f_clipped),
    PKT(PRIMITIVE_LIST_FORMAT, 2, BR, KB, "Primitive List Format", primitive_list_format,
        "Primitive_List_Format", "[M XML says R; the kernel whitelists it in bin lists]", f_plf),
    PKT(GL_SHADER_STATE, 5, BR, KB, "GL Shader State", gl_shader_state, "GL_Shader_State",
        "[M XML][K]", f_gl_state),
    PKT(NV_SHADER_STATE, 5, BR, 0, "NV Shader State", nv_shader_state, "NV_Shader_State",
        "[M]", f_nv_state),
    PKT(VG_SHADER_STATE, 5, BR, VC4_CL_PF_VG_ONLY, "VG Shader State", vg_shader_state,
        "VG_Shader_State", "[M][PL demos]", f_vg_state),
    PKT(VG_INLINE_SHADER_RECORD, 9, BR, VC4_CL_PF_VG_ONLY | VC4_CL_PF_UNVERIFIED,
        "VG Inline Shader Record", vg_inline_shader_record, "VG_Inline_Shader_Record", "[PL]",
        f_vg_inline_rec),
    PKT(CONFIGURATION_BITS, 4, BR, KB, "Configuration Bits", configuration_bits,
        "Configuration_Bits", "[M XML][K]", f_config),
    PKT(FLAT_SHADE_FLAGS, 5, BR, KB, "Flat Shade Flags", flat_shade_flags, "Flat_Shade_Flags",
        "[M XML][K]", f_flat),
    PKT(POINT_SIZE, 5, BR, KB, "Point Size", point_size, "Point_Size", "[M XML][K]", f_point),
    PKT(LINE_WIDTH, 5, BR, KB, "Line Width", line_width, "Line_Width", "[M XML][K]", f_line),
    PKT(RHT_X_BOUNDARY, 3, BR, KB, "RHT X Boundary", rht_x_boundary, "RHT_X_Boundary",
        "[M XML][K]", f_rht),
    PKT(DEPTH_OFFSET, 5, BR, KB, "Depth Offset", depth_offset, "Depth_Offset", "[M XML][K]",
        f_depth_off),
    PKT(CLIP_WINDOW, 9, BR, KB, "Clip Window", clip_window, "Clip_Window", "[M XML][K]",
        f_clip),
    PKT(VIEWPORT_OFFSET, 5, BR, KB, "Viewport Offset", viewport_offset, "Viewport_Offset",
        "[M XML][K]", f_vp),
    PKT(Z_CLIPPING_PLANES, 9, BR, 0, "Z min and max clipping planes", z_clipping_planes,
        "Z_Clipping_Planes", "[M XML] (not in the kernel's bin whitelist)", f_zclip),
    PKT(CLIPPER_XY_SCALING, 9, B_, KB, "Clipper XY Scaling", clipper_xy_scaling,
        "Clipper_XY_Scaling", "[M XML][K]", f_xy_scale),
    PKT(CLIPPER_Z_SCALING, 9, B_, KB, "Clipper Z Scale and Offset", clipper_z_scaling,
        "Clipper_Z_Scaling", "[M XML][K] (docs said 105; the code uses 106)", f_z_scale),
    PKT(TILE_BINNING_MODE_CONFIG, 16, B_, KB, "Tile Binning Mode Configuration",
        tile_binning_mode_config, "Tile_Binning_Mode_Configuration", "[M XML][K]", f_bin_cfg),
    PKT(TILE_RENDERING_MODE_CONFIG, 11, R_, 0, "Tile Rendering Mode Configuration",
        tile_rendering_mode_config, "Tile_Rendering_Mode_Configuration", "[M vc4_packet.h]",
        f_render_cfg),
    PKT(CLEAR_COLORS, 14, R_, 0, "Clear Colors", clear_colors, "Clear_Colors", "[M XML]",
        f_clear),
    PKT(TILE_COORDINATES, 3, R_, 0, "Tile Coordinates", tile_coordinates, "Tile_Coordinates",
        "[M]", f_tile_coords),
};

/* One table entry per listed packet, each at its own opcode. */
#define VC4_CL_COUNT_ONE(op, idn, has) +1
static_assert(0 VC4_CL_PACKET_LIST(VC4_CL_COUNT_ONE) == VC4_CL_PACKET_COUNT,
              "VC4_CL_PACKET_COUNT matches VC4_CL_PACKET_LIST");
static_assert(VC4_ARRAY_SIZE(f_config) <= VC4_CL_MAX_FIELDS, "field count bound");
static_assert(VC4_ARRAY_SIZE(f_store_general) <= VC4_CL_MAX_FIELDS, "field count bound");
static_assert(VC4_ARRAY_SIZE(f_render_cfg) <= VC4_CL_MAX_FIELDS, "field count bound");

/* ---- shader records (facts §2) ----------------------------------------- */

/* NV shader record, 16 bytes [M initial driver, K flags; seed 002] */
#define S vc4_cl_nv_shader_record
static const struct vc4_cl_field_desc r_nv[] = {
    B(S, fs_single_threaded, 0, 0, "fragment shader single-threaded"),
    B(S, point_size_included, 0, 1, "point size included in shaded vertex data"),
    B(S, enable_clipping, 0, 2, "enable clipping"),
    B(S, clip_header_included, 0, 3, "clip coordinates header included (NV only)"),
    U(S, vertex_stride, 1, 0, 8, "shaded vertex data stride (bytes)"),
    U(S, fs_num_uniforms, 2, 0, 8, "fragment shader number of uniforms (unused)"),
    U(S, fs_num_varyings, 3, 0, 8, "fragment shader number of varyings"),
    A(S, fs_code_addr, 4, 0, "fragment shader code address"),
    A(S, fs_uniforms_addr, 8, 0, "fragment shader uniforms address"),
    A(S, vertex_data_addr, 12, 0, "shaded vertex data address"),
};
#undef S

/* VG shader record (packet 66), 12 bytes: no open source lays it out
 * (facts §2.3).  PeterLemon's VG demos (V3D/ControlList/VG, run on a Pi 1)
 * write: u8 flags (bit 0 FS single-threaded), u8 unused, u8 FS number of
 * uniforms, u8 FS number of varyings, u32 FS code address, u32 FS uniforms
 * address: the NV record (§2.2) without its vertex fields, and packet 67's
 * fields.  UNVERIFIED beyond those demos. */
#define S vc4_cl_vg_shader_record
static const struct vc4_cl_field_desc r_vg[] = {
    B(S, fs_single_threaded, 0, 0, "fragment shader single-threaded"),
    U(S, fs_num_uniforms, 2, 0, 8, "fragment shader number of uniforms (unused)"),
    U(S, fs_num_varyings, 3, 0, 8, "fragment shader number of varyings"),
    A(S, fs_code_addr, 4, 0, "fragment shader code address"),
    A(S, fs_uniforms_addr, 8, 0, "fragment shader uniforms address"),
};
#undef S

/* GL shader record, fixed 36 bytes [M XML (VS uniforms at 20, not 16), K] */
#define S vc4_cl_gl_shader_record
static const struct vc4_cl_field_desc r_gl[] = {
    B(S, fs_single_threaded, 0, 0, "fragment shader single-threaded"),
    B(S, point_size_included, 0, 1, "point size included in shaded vertex data"),
    B(S, enable_clipping, 0, 2, "enable clipping"),
    U(S, fs_num_uniforms, 2, 0, 8, "fragment shader number of uniforms (unused)"),
    U(S, fs_num_varyings, 3, 0, 8, "fragment shader number of varyings"),
    A(S, fs_code_addr, 4, 0, "fragment shader code address"),
    A(S, fs_uniforms_addr, 8, 0, "fragment shader uniforms address"),
    U(S, vs_num_uniforms, 12, 0, 16, "vertex shader number of uniforms (unused)"),
    U(S, vs_attr_select, 14, 0, 8, "vertex shader attribute array select bits"),
    U(S, vs_attr_size, 15, 0, 8, "vertex shader total attributes size (bytes)"),
    A(S, vs_code_addr, 16, 0, "vertex shader code address"),
    A(S, vs_uniforms_addr, 20, 0, "vertex shader uniforms address"),
    U(S, cs_num_uniforms, 24, 0, 16, "coordinate shader number of uniforms (unused)"),
    U(S, cs_attr_select, 26, 0, 8, "coordinate shader attribute array select bits"),
    U(S, cs_attr_size, 27, 0, 8, "coordinate shader total attributes size (bytes)"),
    A(S, cs_code_addr, 28, 0, "coordinate shader code address"),
    A(S, cs_uniforms_addr, 32, 0, "coordinate shader uniforms address"),
};
#undef S

/* Attribute record, 8 bytes [M, K; seed 000] */
#define S vc4_cl_attr_record
static const struct vc4_cl_field_desc r_attr[] = {
    A(S, address, 0, 0, "attribute array base address"),
    U(S, num_bytes_minus_1, 4, 0, 8, "number of bytes per vertex minus 1"),
    U(S, stride, 5, 0, 8, "memory stride (bytes)"),
    U(S, vs_vpm_offset, 6, 0, 8, "vertex shader VPM offset"),
    U(S, cs_vpm_offset, 7, 0, 8, "coordinate shader VPM offset"),
};
#undef S

/* Extended record stride word: the kernel ORs (word & ~0xff) into the 8-bit
 * stride [K vc4_validate.c] */
#define S vc4_cl_ext_stride
static const struct vc4_cl_field_desc r_ext[] = {
    U(S, stride_bits_31_8, 0, 8, 24, "attribute stride bits 31:8"),
};
#undef S

#define REC(kind, nm, idn, mac, al, src, tab, sz, st)                          \
    [kind] = {.name = nm, .id = idn, .macro = mac, .align = al, .source = src, \
              .layout = {.fields = tab, .nfields = (uint8_t)VC4_ARRAY_SIZE(tab), .size = sz, \
                         .struct_size = (uint16_t)sizeof(struct st)}}

static const struct vc4_cl_record_desc records[VC4_CL_REC_COUNT] = {
    REC(VC4_CL_REC_NV_SHADER, "NV Shader State Record", "nv_shader_record", "NV_Shader_Record",
        16, "[M][K] seed 002", r_nv, 16, vc4_cl_nv_shader_record),
    REC(VC4_CL_REC_GL_SHADER, "GL Shader State Record", "gl_shader_record", "GL_Shader_Record",
        16, "[M XML][K] seed 000", r_gl, VC4_CL_GL_RECORD_FIXED, vc4_cl_gl_shader_record),
    REC(VC4_CL_REC_ATTRIBUTE, "Attribute Record", "attr_record", "Attribute_Record", 1,
        "[M][K] seed 000", r_attr, VC4_CL_ATTR_RECORD_SIZE, vc4_cl_attr_record),
    REC(VC4_CL_REC_EXT_STRIDE, "Extended Attribute Stride", "ext_stride", "Extended_Stride", 1,
        "[K]", r_ext, 4, vc4_cl_ext_stride),
    REC(VC4_CL_REC_VG_SHADER, "VG Shader State Record", "vg_shader_record", "VG_Shader_Record",
        16, "[PL demos] UNVERIFIED", r_vg, 12, vc4_cl_vg_shader_record),
};
static_assert(VC4_ARRAY_SIZE(records) == VC4_CL_REC_COUNT, "one descriptor per record kind");
static_assert(VC4_CL_GL_RECORD_FIXED + VC4_CL_MAX_ATTRS * VC4_CL_ATTR_RECORD_SIZE ==
                  VC4_CL_GL_EXT_STRIDE_OFFSET,
              "the 8 attribute slots fill bytes 36..99 of an extended record");

/* ---- lookups --------------------------------------------------------------- */

const struct vc4_cl_packet_desc *vc4_cl_packet(unsigned opcode)
{
    if (opcode >= VC4_CL_OPCODE_LIMIT || !packets[opcode].name)
        return NULL;
    return &packets[opcode];
}

const struct vc4_cl_packet_desc *vc4_cl_packet_by_name(const char *name)
{
    if (!name)
        return NULL;
    for (unsigned i = 0; i < VC4_CL_OPCODE_LIMIT; i++) {
        const struct vc4_cl_packet_desc *d = &packets[i];
        if (d->name && (!strcmp(d->name, name) || !strcmp(d->id, name) || !strcmp(d->macro, name)))
            return d;
    }
    return NULL;
}

const struct vc4_cl_record_desc *vc4_cl_record(enum vc4_cl_record_kind kind)
{
    if ((unsigned)kind >= VC4_CL_REC_COUNT)
        return NULL;
    return &records[kind];
}

int vc4_cl_field_index(const struct vc4_cl_layout *l, const char *name)
{
    if (!l || !name)
        return -1;
    for (unsigned i = 0; i < l->nfields; i++)
        if (!strcmp(l->fields[i].name, name))
            return (int)i;
    return -1;
}

const char *vc4_cl_enum_name(const struct vc4_cl_field_desc *f, uint32_t value)
{
    for (unsigned i = 0; f && i < f->nvalues; i++)
        if (f->values[i].name && f->values[i].value == value)
            return f->values[i].name;
    return NULL;
}

size_t vc4_cl_gl_record_size(unsigned nattrs, bool extended)
{
    if (nattrs == 0 || nattrs > VC4_CL_MAX_ATTRS)
        nattrs = VC4_CL_MAX_ATTRS; /* packet 64: 0 means 8 */
    return extended ? VC4_CL_GL_EXT_STRIDE_OFFSET + 4u * nattrs
                    : VC4_CL_GL_RECORD_FIXED + (size_t)VC4_CL_ATTR_RECORD_SIZE * nattrs;
}

/* ---- field access ----------------------------------------------------------- */

/* Bytes of the little-endian container a field lives in. */
static unsigned container_bytes(const struct vc4_cl_field_desc *f)
{
    return (unsigned)(f->shift + f->width + 7) / 8;
}

static uint64_t field_mask(const struct vc4_cl_field_desc *f)
{
    return f->width >= 64 ? UINT64_MAX : ((UINT64_C(1) << f->width) - 1);
}

static uint64_t load_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

uint64_t vc4_cl_field_get(const struct vc4_cl_field_desc *f, const uint8_t *bytes)
{
    uint64_t raw = (load_le(bytes + f->offset, container_bytes(f)) >> f->shift) & field_mask(f);
    switch ((enum vc4_cl_field_type)f->type) {
    case VC4_CL_FT_SINT:
    case VC4_CL_FT_S12_4:
        if (f->width < 64 && (raw >> (f->width - 1)) & 1)
            raw |= ~field_mask(f);
        return raw;
    case VC4_CL_FT_ADDRESS:
        return raw << f->shift; /* the byte address, bits in place */
    default:
        return raw;
    }
}

void vc4_cl_field_put(const struct vc4_cl_field_desc *f, uint8_t *bytes, uint64_t value)
{
    unsigned n = container_bytes(f);
    uint64_t raw = f->type == VC4_CL_FT_ADDRESS ? value >> f->shift : value;
    uint64_t mask = field_mask(f) << f->shift;
    uint64_t v = load_le(bytes + f->offset, n);
    v = (v & ~mask) | ((raw << f->shift) & mask);
    for (unsigned i = 0; i < n; i++)
        bytes[f->offset + i] = (uint8_t)(v >> (8 * i));
}

bool vc4_cl_field_fits(const struct vc4_cl_field_desc *f, uint64_t value)
{
    switch ((enum vc4_cl_field_type)f->type) {
    case VC4_CL_FT_SINT:
    case VC4_CL_FT_S12_4: {
        if (f->width >= 64)
            return true;
        /* sign-extended: the bits above width-1 all equal bit width-1 */
        uint64_t top = value >> (f->width - 1);
        return top == 0 || top == (UINT64_MAX >> (f->width - 1));
    }
    case VC4_CL_FT_ADDRESS:
        return value <= UINT32_MAX && (value & ((UINT64_C(1) << f->shift) - 1)) == 0;
    case VC4_CL_FT_ENUM:
    case VC4_CL_FT_UINT:
    case VC4_CL_FT_BOOL:
    case VC4_CL_FT_FLOAT:
    case VC4_CL_FT_FLOAT16:
    case VC4_CL_FT_COUNT:
        break;
    }
    return (value & ~field_mask(f)) == 0;
}
