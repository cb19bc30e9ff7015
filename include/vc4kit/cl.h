/*
 * vc4kit/cl.h - V3D 2.1 control lists: every packet and shader record as
 * data, a writer with typed emitters, a reader/iterator, a dumper that prints
 * the assembler's text form, and a structural validator.
 *
 * A control list is a byte stream of packets: one opcode byte, then a fixed
 * payload (a few packets have a variable one).  Multi-byte fields are
 * little-endian.  Shader records (NV, GL + attribute records) are separate
 * 16-byte-aligned structures in memory that the shader-state packets point
 * to.  Sources: Mesa src/broadcom/cle/v3d_packet_v21.xml and
 * src/gallium/drivers/vc4/kernel/vc4_packet.h (lengths, bits), the Linux
 * kernel's drivers/gpu/drm/vc4/vc4_validate.c (lists, rules), PeterLemon's
 * transcription of the reference guide tables (VG packets); see
 * shared/reference/v3d-hardware-facts.md sections 1-5 and
 * docs/control-lists.md.
 *
 * Layout terms used by every table here:
 *   - a packet's "payload" is the bytes after its opcode byte; field offsets
 *     of packets are payload offsets (opcode byte excluded);
 *   - a field is `width` bits starting at bit `shift` of the little-endian
 *     integer whose first byte is at `offset`;
 *   - a field's generic value is a uint64_t: the raw bits for uint, enum and
 *     bool; sign-extended for sint and s12.4; the IEEE bits for float; the
 *     16 raw bits for float16; and for an address the *byte address* (the
 *     field's bits in place: an address field at shift 4 holds address bits
 *     31:4, and the address must have its low 4 bits clear).
 */
#ifndef VC4KIT_CL_H
#define VC4KIT_CL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vc4kit/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- opcodes ------------------------------------------------------------ */

/* Every V3D 2.1 control-list packet (facts §1; Mesa vc4_packet.h names). */
enum vc4_cl_opcode {
    VC4_CL_HALT = 0,
    VC4_CL_NOP = 1,
    VC4_CL_MARKER = 2,                 /* [?] derived header only */
    VC4_CL_RESET_MARKER_COUNT = 3,     /* [?] derived header only */
    VC4_CL_FLUSH = 4,
    VC4_CL_FLUSH_ALL_STATE = 5,
    VC4_CL_START_TILE_BINNING = 6,
    VC4_CL_INCREMENT_SEMAPHORE = 7,
    VC4_CL_WAIT_ON_SEMAPHORE = 8,
    VC4_CL_BRANCH = 16,
    VC4_CL_BRANCH_TO_SUB_LIST = 17,
    VC4_CL_RETURN_FROM_SUB_LIST = 18,
    VC4_CL_REPEAT_START_MARKER = 19,   /* [?] derived header only */
    VC4_CL_REPEAT_FROM_START_MARKER = 20, /* [?] derived header only */
    VC4_CL_STORE_MS_TILE_BUFFER = 24,
    VC4_CL_STORE_MS_TILE_BUFFER_AND_EOF = 25,
    VC4_CL_STORE_FULL_RES_TILE_BUFFER = 26,
    VC4_CL_LOAD_FULL_RES_TILE_BUFFER = 27,
    VC4_CL_STORE_TILE_BUFFER_GENERAL = 28,
    VC4_CL_LOAD_TILE_BUFFER_GENERAL = 29,
    VC4_CL_INDEXED_PRIMITIVE_LIST = 32,
    VC4_CL_VERTEX_ARRAY_PRIMITIVES = 33,
    VC4_CL_VG_COORDINATE_ARRAY_PRIMITIVES = 41,
    VC4_CL_VG_INLINE_PRIMITIVES = 42,  /* variable length */
    VC4_CL_COMPRESSED_PRIMITIVE_LIST = 48, /* variable length */
    VC4_CL_CLIPPED_PRIMITIVE = 49,     /* variable length */
    VC4_CL_PRIMITIVE_LIST_FORMAT = 56,
    VC4_CL_GL_SHADER_STATE = 64,
    VC4_CL_NV_SHADER_STATE = 65,
    VC4_CL_VG_SHADER_STATE = 66,
    VC4_CL_VG_INLINE_SHADER_RECORD = 67,
    VC4_CL_CONFIGURATION_BITS = 96,
    VC4_CL_FLAT_SHADE_FLAGS = 97,
    VC4_CL_POINT_SIZE = 98,
    VC4_CL_LINE_WIDTH = 99,
    VC4_CL_RHT_X_BOUNDARY = 100,
    VC4_CL_DEPTH_OFFSET = 101,
    VC4_CL_CLIP_WINDOW = 102,
    VC4_CL_VIEWPORT_OFFSET = 103,
    VC4_CL_Z_CLIPPING_PLANES = 104,
    VC4_CL_CLIPPER_XY_SCALING = 105,
    VC4_CL_CLIPPER_Z_SCALING = 106,
    VC4_CL_TILE_BINNING_MODE_CONFIG = 112,
    VC4_CL_TILE_RENDERING_MODE_CONFIG = 113,
    VC4_CL_CLEAR_COLORS = 114,
    VC4_CL_TILE_COORDINATES = 115,
    VC4_CL_OPCODE_LIMIT = 256 /* opcodes are one byte; table size */
};

/* ---- enumerated field values (facts §1, §3) --------------------------- */

enum vc4_cl_primitive_mode { /* packets 32, 33 (Mesa; PL's one-hot is wrong) */
    VC4_CL_PRIM_POINTS = 0,
    VC4_CL_PRIM_LINES = 1,
    VC4_CL_PRIM_LINE_LOOP = 2,
    VC4_CL_PRIM_LINE_STRIP = 3,
    VC4_CL_PRIM_TRIANGLES = 4,
    VC4_CL_PRIM_TRIANGLE_STRIP = 5,
    VC4_CL_PRIM_TRIANGLE_FAN = 6,
};
enum vc4_cl_index_type { VC4_CL_INDEX_8BIT = 0, VC4_CL_INDEX_16BIT = 1 };
enum vc4_cl_prim_list_type { /* packet 56 */
    VC4_CL_PLF_POINTS = 0, VC4_CL_PLF_LINES = 1, VC4_CL_PLF_TRIANGLES = 2, VC4_CL_PLF_RHT = 3,
};
enum vc4_cl_prim_list_data { VC4_CL_PLF_INDEX16 = 1, VC4_CL_PLF_XY32 = 3 };
/* packets 41/42 primitive type, byte 0 bits 3:0 ([PL] corrected CONTROL_LIST.INC:
 * the guide's table gives bit positions 1, 3, 4, 5, 6, the values the NV/GL
 * modes of packets 32/33 use for lines, line strip, triangles, strip, fan;
 * PeterLemon's VG demos use these values).  An RHT takes 2 vertices like a
 * line, an RHT strip chains them like a line strip. */
enum vc4_cl_vg_prim_type {
    VC4_CL_VG_RHT = 1,
    VC4_CL_VG_RHT_STRIP = 3,
    VC4_CL_VG_TRIANGLES = 4,
    VC4_CL_VG_TRIANGLE_STRIP = 5,
    VC4_CL_VG_TRIANGLE_FAN = 6,
};
enum vc4_cl_memory_format { VC4_CL_MEM_RASTER = 0, VC4_CL_MEM_T = 1, VC4_CL_MEM_LT = 2 };
enum vc4_cl_buffer { /* packets 28/29 buffer select */
    VC4_CL_BUF_NONE = 0, VC4_CL_BUF_COLOR = 1, VC4_CL_BUF_ZS = 2, VC4_CL_BUF_Z = 3,
    VC4_CL_BUF_VG_MASK = 4, VC4_CL_BUF_FULL = 5,
};
enum vc4_cl_store_mode { VC4_CL_STORE_SAMPLE0 = 0, VC4_CL_STORE_DECIMATE_4X = 1, VC4_CL_STORE_DECIMATE_16X = 2 };
enum vc4_cl_ls_color_format { /* packets 28/29 pixel colour format */
    VC4_CL_LS_RGBA8888 = 0, VC4_CL_LS_BGR565_DITHER = 1, VC4_CL_LS_BGR565 = 2,
};
enum vc4_cl_fb_color_format { /* packet 113 non-HDR colour format */
    VC4_CL_FB_BGR565_DITHER = 0, VC4_CL_FB_RGBA8888 = 1, VC4_CL_FB_BGR565 = 2,
};
enum vc4_cl_decimate { VC4_CL_DECIMATE_1X = 0, VC4_CL_DECIMATE_4X = 1, VC4_CL_DECIMATE_16X = 2 };
enum vc4_cl_block_size { VC4_CL_BLOCK_32 = 0, VC4_CL_BLOCK_64 = 1, VC4_CL_BLOCK_128 = 2, VC4_CL_BLOCK_256 = 3 };
enum vc4_cl_depth_func { /* packet 96 bits 14:12 (same order as PIPE_FUNC_*) */
    VC4_CL_DEPTH_NEVER = 0, VC4_CL_DEPTH_LESS = 1, VC4_CL_DEPTH_EQUAL = 2, VC4_CL_DEPTH_LEQUAL = 3,
    VC4_CL_DEPTH_GREATER = 4, VC4_CL_DEPTH_NOTEQUAL = 5, VC4_CL_DEPTH_GEQUAL = 6, VC4_CL_DEPTH_ALWAYS = 7,
};
enum vc4_cl_oversample { VC4_CL_OVERSAMPLE_NONE = 0, VC4_CL_OVERSAMPLE_4X = 1, VC4_CL_OVERSAMPLE_16X = 2 };
enum vc4_cl_coverage_update {
    VC4_CL_COV_NONZERO = 0, VC4_CL_COV_ODD = 1, VC4_CL_COV_OR = 2, VC4_CL_COV_ZERO = 3,
};

/* ---- packet and record descriptions (data: src/spec/cl_packets.c) ------ */

enum vc4_cl_field_type {
    VC4_CL_FT_UINT,
    VC4_CL_FT_SINT,
    VC4_CL_FT_BOOL,
    VC4_CL_FT_ENUM,
    VC4_CL_FT_FLOAT,   /* IEEE f32 */
    VC4_CL_FT_FLOAT16, /* "float 1-8-7": the upper 16 bits of an f32 */
    VC4_CL_FT_ADDRESS, /* bus address, bits in place (see top of file) */
    VC4_CL_FT_S12_4,   /* signed fixed point, 4 fraction bits (1/16 pixel) */
    VC4_CL_FT_COUNT
};

/* How the typed struct (struct vc4_cl_<packet>) stores a field. */
enum vc4_cl_member_kind {
    VC4_CL_MK_U32,   /* uint32_t: uint, enum, address */
    VC4_CL_MK_U64,   /* uint64_t: 64-bit uint (clear colour) */
    VC4_CL_MK_I32,   /* int32_t: sint, s12.4 (in 1/16 pixel) */
    VC4_CL_MK_BOOL,  /* bool */
    VC4_CL_MK_FLOAT, /* float: float and float16 (float16 keeps the upper 16 bits) */
};

struct vc4_cl_enum_value {
    uint32_t value;
    const char *name; /* snake_case, for dumps and docs */
};

struct vc4_cl_field_desc {
    const char *name;   /* snake_case: C member, macro parameter, dump name */
    const char *desc;   /* the hardware's words */
    uint8_t offset;     /* byte offset of the little-endian container */
    uint8_t shift;      /* lowest bit within it */
    uint8_t width;      /* bits, 1..64; shift + width <= 64 */
    uint8_t type;       /* enum vc4_cl_field_type */
    uint8_t member_kind;/* enum vc4_cl_member_kind */
    uint16_t member;    /* offsetof in the typed struct */
    uint8_t nvalues;
    const struct vc4_cl_enum_value *values; /* enum value names, or NULL */
};

/* A fixed-size byte layout: a packet's payload or a shader record. */
struct vc4_cl_layout {
    const struct vc4_cl_field_desc *fields;
    uint8_t nfields;
    uint8_t size;        /* bytes (payload bytes for a packet) */
    uint16_t struct_size;/* sizeof the typed struct (0 = none) */
};

/* Which list a packet may appear in (facts §1 CL column). */
enum {
    VC4_CL_LIST_BIN = 1u << 0,
    VC4_CL_LIST_RENDER = 1u << 1,
    VC4_CL_LIST_ANY = VC4_CL_LIST_BIN | VC4_CL_LIST_RENDER,
};

/* Packet flags. */
enum {
    VC4_CL_PF_VARIABLE = 1u << 0,   /* payload continues past layout.size */
    VC4_CL_PF_UNVERIFIED = 1u << 1, /* one weak source only (facts [?]/[PL]) */
    VC4_CL_PF_VG_ONLY = 1u << 2,    /* VG shader mode only */
    VC4_CL_PF_KERNEL_BIN = 1u << 3, /* in the Linux kernel's bin-CL whitelist */
    VC4_CL_PF_TILE_LIST = 1u << 4,  /* written by the binner into tile lists */
};

struct vc4_cl_packet_desc {
    uint8_t opcode;
    uint8_t length;     /* total bytes incl. opcode; for variable packets the
                         * fixed part (opcode + layout.size) */
    uint8_t lists;      /* VC4_CL_LIST_* */
    uint8_t flags;      /* VC4_CL_PF_* */
    const char *name;   /* hardware name ("Tile Binning Mode Configuration") */
    const char *id;     /* snake_case ("tile_binning_mode_config") */
    const char *macro;  /* share/vc4kit/v3d_cl.qinc macro name */
    const char *source; /* where the facts come from */
    struct vc4_cl_layout layout; /* payload fields */
};

/* The packet with this opcode, or NULL for an opcode the hardware lacks. */
VC4_API const struct vc4_cl_packet_desc *vc4_cl_packet(unsigned opcode);
/* Lookup by hardware name, id or macro name (exact); NULL if none. */
VC4_API const struct vc4_cl_packet_desc *vc4_cl_packet_by_name(const char *name);
/* Index of the field called name in a layout, or -1. */
VC4_API int vc4_cl_field_index(const struct vc4_cl_layout *l, const char *name);
/* The name of an enum value of a field, or NULL. */
VC4_API const char *vc4_cl_enum_name(const struct vc4_cl_field_desc *f, uint32_t value);

/* Shader records (facts §2). */
enum vc4_cl_record_kind {
    VC4_CL_REC_NV_SHADER,  /* 16 bytes, pointed to by packet 65 */
    VC4_CL_REC_GL_SHADER,  /* the fixed 36 bytes of the record packet 64 points to */
    VC4_CL_REC_ATTRIBUTE,  /* 8 bytes each at GL record + 36 + 8i */
    VC4_CL_REC_EXT_STRIDE, /* 4 bytes each at GL record + 100 + 4i (extended) */
    VC4_CL_REC_VG_SHADER,  /* 12 bytes, pointed to by packet 66 (UNVERIFIED layout) */
    VC4_CL_REC_COUNT
};
struct vc4_cl_record_desc {
    const char *name;   /* "NV shader state record" */
    const char *id;     /* "nv_shader_record" */
    const char *macro;  /* .qinc macro name */
    uint8_t align;      /* required alignment in bytes */
    const char *source;
    struct vc4_cl_layout layout;
};
VC4_API const struct vc4_cl_record_desc *vc4_cl_record(enum vc4_cl_record_kind kind);

/* GL shader record facts (facts §2.1). */
enum {
    VC4_CL_GL_RECORD_FIXED = 36,    /* bytes before the attribute records */
    VC4_CL_ATTR_RECORD_SIZE = 8,
    VC4_CL_GL_EXT_STRIDE_OFFSET = 100, /* extended: stride words start here */
    VC4_CL_MAX_ATTRS = 8,
    VC4_CL_RECORD_ALIGN = 16,
};
/* Size of a GL shader record with n attribute arrays (0 means 8, as in
 * packet 64): 36 + 8n, or 100 + 4n when extended. */
VC4_API size_t vc4_cl_gl_record_size(unsigned nattrs, bool extended);

/* ---- generic packing driven by the tables ----------------------------- */

/* Largest field count of any layout. */
enum { VC4_CL_MAX_FIELDS = 24 };

/* Read / write one field of a layout in bytes (bytes = payload or record
 * start; the caller guarantees layout->size bytes).  put masks the value. */
VC4_API uint64_t vc4_cl_field_get(const struct vc4_cl_field_desc *f, const uint8_t *bytes);
VC4_API void vc4_cl_field_put(const struct vc4_cl_field_desc *f, uint8_t *bytes, uint64_t value);
/* Is the generic value representable in the field (range, alignment)? */
VC4_API bool vc4_cl_field_fits(const struct vc4_cl_field_desc *f, uint64_t value);

/* Pack values[] (one per field, layout order) into out (layout->size bytes,
 * zeroed first).  VC4_ERR_RANGE (and a diagnostic naming the field) when a
 * value does not fit; out is then unspecified. */
VC4_API enum vc4_status vc4_cl_layout_pack(const struct vc4_cl_layout *l, const uint64_t *values,
                                           uint8_t *out, const struct vc4_diag_sink *sink);
VC4_API void vc4_cl_layout_unpack(const struct vc4_cl_layout *l, const uint8_t *bytes,
                                  uint64_t *values);
/* Typed struct <-> generic values. */
VC4_API void vc4_cl_struct_to_values(const struct vc4_cl_layout *l, const void *s, uint64_t *values);
VC4_API void vc4_cl_values_to_struct(const struct vc4_cl_layout *l, const uint64_t *values, void *s);

/* A whole packet: out gets desc->length bytes (opcode + payload). */
VC4_API enum vc4_status vc4_cl_pack(unsigned opcode, const uint64_t *values, uint8_t *out,
                                    const struct vc4_diag_sink *sink);

/* ---- primitive items of the variable-length packets 42, 48, 49 -------- *
 * PROVISIONAL ENCODING (vc4kit's own; the hardware's compressed format is
 * documented only in the Broadcom guide): after the fixed part, a sequence
 * of items, each a tag byte then data:
 *   0x00            end of list (escape)
 *   0x10 | n (1-3)  n vertices as u16 indices
 *   0x20 | n (1-3)  n vertices as u32 indices
 *   0x30 | n (1-3)  n vertices as packed 32-bit X,Y words (s16 X low, s16 Y
 *                   high, 12.4: the format of packet 41's array, [PL] demos)
 * Encoder and decoder live side by side in src/spec/cl_prims.c. */
enum vc4_cl_prim_item_kind {
    VC4_CL_ITEM_END = 0,
    VC4_CL_ITEM_IDX16 = 1,
    VC4_CL_ITEM_IDX32 = 2,
    VC4_CL_ITEM_XY32 = 3,
};
struct vc4_cl_prim_item {
    uint8_t kind;     /* enum vc4_cl_prim_item_kind */
    uint8_t count;    /* vertices, 1..3 (0 for END) */
    uint32_t v[6];    /* indices, or packed X,Y words (one per vertex) */
};
/* Bytes the item takes; 0 if invalid. */
VC4_API size_t vc4_cl_prim_item_size(const struct vc4_cl_prim_item *it);
/* Encode into out (cap bytes): bytes written, 0 if invalid or no room. */
VC4_API size_t vc4_cl_prim_item_encode(const struct vc4_cl_prim_item *it, uint8_t *out, size_t cap);
/* Decode one item from p (avail bytes): bytes consumed, 0 if the bytes are
 * not a valid item or are truncated. */
VC4_API size_t vc4_cl_prim_item_decode(const uint8_t *p, size_t avail, struct vc4_cl_prim_item *it);

/* ---- packet length ----------------------------------------------------- */

enum vc4_cl_len_status {
    VC4_CL_LEN_OK = 0,
    VC4_CL_LEN_UNKNOWN_OPCODE,
    VC4_CL_LEN_TRUNCATED,   /* the packet runs past the available bytes */
    VC4_CL_LEN_BAD_PAYLOAD, /* a variable payload that is not well formed */
};
/* Total length of the packet at p (avail >= 1 bytes available). */
VC4_API enum vc4_cl_len_status vc4_cl_packet_length(const uint8_t *p, size_t avail, size_t *len);

/* ---- reader / iterator -------------------------------------------------- */

struct vc4_cl_packet_view {
    uint8_t opcode;
    const struct vc4_cl_packet_desc *desc; /* NULL for an unknown opcode */
    const uint8_t *bytes;  /* the packet, opcode first */
    size_t length;         /* total bytes */
    size_t offset;         /* byte offset in the list */
    const uint8_t *payload;/* bytes + 1 */
};

struct vc4_cl_reader {
    const uint8_t *data;
    size_t size, pos;
    enum vc4_cl_len_status error; /* why the walk stopped early, else OK */
    size_t error_offset;
};
VC4_API void vc4_cl_reader_init(struct vc4_cl_reader *r, const uint8_t *data, size_t size);
/* The next packet; false at the end of the bytes or on an error (then
 * r->error / r->error_offset say which and where; out->opcode/offset are
 * still set for the bad packet). */
VC4_API bool vc4_cl_next(struct vc4_cl_reader *r, struct vc4_cl_packet_view *out);

/* Decode a packet's fixed fields into values[] (desc->layout order), or into
 * its typed struct.  VC4_ERR_INVALID for an unknown opcode. */
VC4_API enum vc4_status vc4_cl_decode(const struct vc4_cl_packet_view *p, uint64_t *values);
VC4_API enum vc4_status vc4_cl_decode_struct(const struct vc4_cl_packet_view *p, void *s);
/* One field by name: VC4_ERR_INVALID if the packet has no such field. */
VC4_API enum vc4_status vc4_cl_get(const struct vc4_cl_packet_view *p, const char *field,
                                   uint64_t *value);

/* ---- typed packet structs ------------------------------------------------ *
 * One struct per packet with fields; members are the field names of the
 * tables (units in names).  Addresses are byte addresses. */

struct vc4_cl_branch { uint32_t address; };
struct vc4_cl_branch_to_sub_list { uint32_t address; };
struct vc4_cl_store_full_res_tile_buffer {
    uint32_t address;          /* this tile's 16-byte-aligned block */
    bool last_tile, disable_clear_on_write, disable_zs_write, disable_color_write;
};
struct vc4_cl_load_full_res_tile_buffer {
    uint32_t address;
    bool disable_zs_read, disable_color_read;
};
struct vc4_cl_store_tile_buffer_general {
    uint32_t buffer;           /* enum vc4_cl_buffer */
    uint32_t memory_format;    /* enum vc4_cl_memory_format */
    uint32_t mode;             /* enum vc4_cl_store_mode */
    uint32_t color_format;     /* enum vc4_cl_ls_color_format */
    bool disable_double_buffer_swap, disable_color_clear, disable_zs_clear, disable_vg_mask_clear;
    uint32_t address;          /* frame buffer base, 16-byte aligned */
    bool disable_color_dump, disable_zs_dump, disable_vg_mask_dump, last_tile;
};
struct vc4_cl_load_tile_buffer_general {
    uint32_t buffer, memory_format, color_format;
    uint32_t address;
    bool disable_color_load, disable_zs_load, disable_vg_mask_load;
};
struct vc4_cl_indexed_primitive_list {
    uint32_t primitive_mode;   /* enum vc4_cl_primitive_mode */
    uint32_t index_type;       /* enum vc4_cl_index_type */
    uint32_t length;           /* number of indices */
    uint32_t index_addr;
    uint32_t max_index;
};
struct vc4_cl_vertex_array_primitives {
    uint32_t primitive_mode;
    uint32_t length;           /* number of vertices */
    uint32_t first_index;
};
struct vc4_cl_vg_coordinate_array_primitives {
    uint32_t primitive_type;   /* enum vc4_cl_vg_prim_type, bits 3:0 */
    uint32_t continuation;     /* bits 7:4: nonzero = triangle fan continuation list */
    uint32_t length;           /* the guide says "number of primitives"; the demos
                                * that ran give the number of vertices (UNVERIFIED) */
    uint32_t coord_addr;       /* packed 32-bit X,Y: s16 X (low), s16 Y, 12.4 */
};
struct vc4_cl_vg_inline_primitives {
    uint32_t primitive_type;
    uint32_t continuation;
};
struct vc4_cl_clipped_primitive {
    uint32_t clip_flags;       /* one bit per vertex of the next primitive */
    uint32_t clipped_prim_addr;/* 8-byte aligned */
};
struct vc4_cl_primitive_list_format {
    uint32_t primitive_type;   /* enum vc4_cl_prim_list_type */
    uint32_t data_type;        /* enum vc4_cl_prim_list_data */
};
struct vc4_cl_gl_shader_state {
    uint32_t num_attr_arrays;  /* 0 means 8 */
    bool extended;
    uint32_t record_addr;      /* 16-byte aligned */
};
struct vc4_cl_nv_shader_state { uint32_t record_addr; };
struct vc4_cl_vg_shader_state { uint32_t record_addr; };
struct vc4_cl_vg_inline_shader_record {
    bool fs_single_threaded;
    uint32_t fs_code_addr;     /* 8-byte aligned */
    uint32_t fs_uniforms_addr;
};
struct vc4_cl_configuration_bits {
    bool enable_forward_facing, enable_reverse_facing, clockwise, enable_depth_offset,
        antialiased_points_lines;
    uint32_t coverage_read_type;      /* 0 4x8-bit level, 1 16-bit mask */
    uint32_t rasteriser_oversample;   /* enum vc4_cl_oversample */
    bool coverage_pipe_select;
    uint32_t coverage_update_mode;    /* enum vc4_cl_coverage_update */
    uint32_t coverage_read_mode;      /* 0 clear on read, 1 leave on read */
    uint32_t depth_func;              /* enum vc4_cl_depth_func */
    bool z_updates_enable, early_z_enable, early_z_updates_enable;
};
struct vc4_cl_flat_shade_flags { uint32_t flags; };
struct vc4_cl_point_size { float point_size; };
struct vc4_cl_line_width { float line_width; };
struct vc4_cl_rht_x_boundary { int32_t x_boundary; };
struct vc4_cl_depth_offset { float factor, units; /* float16: upper 16 bits kept */ };
struct vc4_cl_clip_window { uint32_t left_px, bottom_px, width_px, height_px; };
struct vc4_cl_viewport_offset { int32_t x_1_16px, y_1_16px; };
struct vc4_cl_z_clipping_planes { float min_zw, max_zw; };
struct vc4_cl_clipper_xy_scaling { float half_width_1_16px, half_height_1_16px; };
struct vc4_cl_clipper_z_scaling { float z_scale, z_offset; };
struct vc4_cl_tile_binning_mode_config {
    uint32_t tile_alloc_addr, tile_alloc_size, tsda_addr;
    uint32_t width_tiles, height_tiles;
    bool multisample_4x, tile_buffer_64bit, auto_init_tsda;
    uint32_t initial_block_size;  /* enum vc4_cl_block_size */
    uint32_t block_size;          /* enum vc4_cl_block_size */
    bool double_buffer_non_ms;
};
struct vc4_cl_tile_rendering_mode_config {
    uint32_t fb_addr, width_px, height_px;
    bool multisample_4x, tile_buffer_64bit;
    uint32_t color_format;        /* enum vc4_cl_fb_color_format */
    uint32_t decimate_mode;       /* enum vc4_cl_decimate */
    uint32_t memory_format;       /* enum vc4_cl_memory_format */
    bool enable_vg_mask, coverage_mode, early_z_direction_ge, early_z_coverage_disable,
        double_buffer_non_ms;
};
struct vc4_cl_clear_colors {
    uint64_t clear_color;         /* 2x RGBA8888, or RGBA16161616 */
    uint32_t clear_zs;            /* 24 bits */
    uint32_t clear_vg_mask;
    uint32_t clear_stencil;
};
struct vc4_cl_tile_coordinates { uint32_t column, row; };

/* Shader records. */
struct vc4_cl_nv_shader_record {
    bool fs_single_threaded, point_size_included, enable_clipping, clip_header_included;
    uint32_t vertex_stride;       /* bytes per shaded vertex */
    uint32_t fs_num_uniforms, fs_num_varyings;
    uint32_t fs_code_addr, fs_uniforms_addr, vertex_data_addr;
};
/* VG shader record (packet 66): the NV record's first 12 bytes without the
 * vertex fields, as PeterLemon's VG demos lay it out (UNVERIFIED). */
struct vc4_cl_vg_shader_record {
    bool fs_single_threaded;
    uint32_t fs_num_uniforms, fs_num_varyings;
    uint32_t fs_code_addr, fs_uniforms_addr;
};
struct vc4_cl_gl_shader_record {
    bool fs_single_threaded, point_size_included, enable_clipping;
    uint32_t fs_num_uniforms, fs_num_varyings, fs_code_addr, fs_uniforms_addr;
    uint32_t vs_num_uniforms, vs_attr_select, vs_attr_size, vs_code_addr, vs_uniforms_addr;
    uint32_t cs_num_uniforms, cs_attr_select, cs_attr_size, cs_code_addr, cs_uniforms_addr;
};
struct vc4_cl_attr_record {
    uint32_t address;
    uint32_t num_bytes_minus_1;
    uint32_t stride;              /* bytes; extended records add stride_bits_31_8 */
    uint32_t vs_vpm_offset, cs_vpm_offset;
};
struct vc4_cl_ext_stride { uint32_t stride_bits_31_8; };

/* ---- X-macro: every packet, with its typed struct or none -------------- *
 *   X(OPCODE_SUFFIX, id, has_struct)   */
#define VC4_CL_PACKET_LIST(X)                                                  \
    X(HALT, halt, 0)                                                           \
    X(NOP, nop, 0)                                                             \
    X(MARKER, marker, 0)                                                       \
    X(RESET_MARKER_COUNT, reset_marker_count, 0)                               \
    X(FLUSH, flush, 0)                                                         \
    X(FLUSH_ALL_STATE, flush_all_state, 0)                                     \
    X(START_TILE_BINNING, start_tile_binning, 0)                               \
    X(INCREMENT_SEMAPHORE, increment_semaphore, 0)                             \
    X(WAIT_ON_SEMAPHORE, wait_on_semaphore, 0)                                 \
    X(BRANCH, branch, 1)                                                       \
    X(BRANCH_TO_SUB_LIST, branch_to_sub_list, 1)                               \
    X(RETURN_FROM_SUB_LIST, return_from_sub_list, 0)                           \
    X(REPEAT_START_MARKER, repeat_start_marker, 0)                             \
    X(REPEAT_FROM_START_MARKER, repeat_from_start_marker, 0)                   \
    X(STORE_MS_TILE_BUFFER, store_ms_tile_buffer, 0)                           \
    X(STORE_MS_TILE_BUFFER_AND_EOF, store_ms_tile_buffer_and_eof, 0)           \
    X(STORE_FULL_RES_TILE_BUFFER, store_full_res_tile_buffer, 1)               \
    X(LOAD_FULL_RES_TILE_BUFFER, load_full_res_tile_buffer, 1)                 \
    X(STORE_TILE_BUFFER_GENERAL, store_tile_buffer_general, 1)                 \
    X(LOAD_TILE_BUFFER_GENERAL, load_tile_buffer_general, 1)                   \
    X(INDEXED_PRIMITIVE_LIST, indexed_primitive_list, 1)                       \
    X(VERTEX_ARRAY_PRIMITIVES, vertex_array_primitives, 1)                     \
    X(VG_COORDINATE_ARRAY_PRIMITIVES, vg_coordinate_array_primitives, 1)       \
    X(VG_INLINE_PRIMITIVES, vg_inline_primitives, 1)                           \
    X(COMPRESSED_PRIMITIVE_LIST, compressed_primitive_list, 0)                 \
    X(CLIPPED_PRIMITIVE, clipped_primitive, 1)                                 \
    X(PRIMITIVE_LIST_FORMAT, primitive_list_format, 1)                         \
    X(GL_SHADER_STATE, gl_shader_state, 1)                                     \
    X(NV_SHADER_STATE, nv_shader_state, 1)                                     \
    X(VG_SHADER_STATE, vg_shader_state, 1)                                     \
    X(VG_INLINE_SHADER_RECORD, vg_inline_shader_record, 1)                     \
    X(CONFIGURATION_BITS, configuration_bits, 1)                               \
    X(FLAT_SHADE_FLAGS, flat_shade_flags, 1)                                   \
    X(POINT_SIZE, point_size, 1)                                               \
    X(LINE_WIDTH, line_width, 1)                                               \
    X(RHT_X_BOUNDARY, rht_x_boundary, 1)                                       \
    X(DEPTH_OFFSET, depth_offset, 1)                                           \
    X(CLIP_WINDOW, clip_window, 1)                                             \
    X(VIEWPORT_OFFSET, viewport_offset, 1)                                     \
    X(Z_CLIPPING_PLANES, z_clipping_planes, 1)                                 \
    X(CLIPPER_XY_SCALING, clipper_xy_scaling, 1)                               \
    X(CLIPPER_Z_SCALING, clipper_z_scaling, 1)                                 \
    X(TILE_BINNING_MODE_CONFIG, tile_binning_mode_config, 1)                   \
    X(TILE_RENDERING_MODE_CONFIG, tile_rendering_mode_config, 1)               \
    X(CLEAR_COLORS, clear_colors, 1)                                           \
    X(TILE_COORDINATES, tile_coordinates, 1)

enum { VC4_CL_PACKET_COUNT = 46 }; /* entries in VC4_CL_PACKET_LIST */

/* ---- writer -------------------------------------------------------------- */

struct vc4_cl {
    uint8_t *data;
    size_t len, cap;
    uint32_t base_addr;          /* bus address of data[0] */
    struct vc4_allocator alloc;  /* copied; fn NULL = realloc/free */
    struct vc4_diag_sink sink;   /* range errors go here (unit "cl") */
    enum vc4_status status;      /* first error, sticky */
};

VC4_API void vc4_cl_init(struct vc4_cl *cl, const struct vc4_allocator *alloc, uint32_t base_addr,
                         const struct vc4_diag_sink *sink);
VC4_API void vc4_cl_free(struct vc4_cl *cl);
/* The bus address the next byte will have. */
static inline uint32_t vc4_cl_addr(const struct vc4_cl *cl) { return cl->base_addr + (uint32_t)cl->len; }
/* Raw bytes / padding (zero bytes up to an alignment).  Return the offset
 * in the list where the bytes start, or (size_t)-1 on failure. */
VC4_API size_t vc4_cl_bytes(struct vc4_cl *cl, const void *p, size_t n);
VC4_API size_t vc4_cl_align(struct vc4_cl *cl, size_t align);

/* Generic emitters: from values[] (layout order) or from the typed struct
 * (NULL for packets without fields).  Nothing is appended on error. */
VC4_API enum vc4_status vc4_cl_emit_values(struct vc4_cl *cl, unsigned opcode, const uint64_t *values);
VC4_API enum vc4_status vc4_cl_emit(struct vc4_cl *cl, unsigned opcode, const void *s);

/* Typed emitters, one per packet: vc4_cl_<id>(cl[, &struct]). */
#define VC4_CL_DECLARE_EMITTER_0(id) VC4_API enum vc4_status vc4_cl_##id(struct vc4_cl *cl);
#define VC4_CL_DECLARE_EMITTER_1(id)                                           \
    VC4_API enum vc4_status vc4_cl_##id(struct vc4_cl *cl, const struct vc4_cl_##id *p);
#define VC4_CL_DECLARE_EMITTER(op, id, has) VC4_CL_DECLARE_EMITTER_##has(id)
VC4_CL_PACKET_LIST(VC4_CL_DECLARE_EMITTER)

/* Typed decoders, one per packet with fields, generated from the same list:
 * vc4_cl_decode_<id>(view, &struct) fills the struct from a packet view of
 * that opcode; VC4_ERR_INVALID for another opcode or a short packet. */
#define VC4_CL_DECLARE_DECODER_0(id)
#define VC4_CL_DECLARE_DECODER_1(id)                                           \
    VC4_API enum vc4_status vc4_cl_decode_##id(const struct vc4_cl_packet_view *p, struct vc4_cl_##id *out);
#define VC4_CL_DECLARE_DECODER(op, id, has) VC4_CL_DECLARE_DECODER_##has(id)
VC4_CL_PACKET_LIST(VC4_CL_DECLARE_DECODER)

/* Variable-length packets: the fixed part, then items, then END. */
VC4_API enum vc4_status vc4_cl_prim_items(struct vc4_cl *cl, const struct vc4_cl_prim_item *items,
                                          size_t n);

/* Records.  *_pack write the record's bytes into out (size: record layout
 * size, or vc4_cl_gl_record_size()).  The vc4_cl_* forms align the list to
 * 16 bytes and append the record, returning its bus address in *addr. */
VC4_API enum vc4_status vc4_cl_nv_shader_record_pack(const struct vc4_cl_nv_shader_record *r,
                                                     uint8_t out[16],
                                                     const struct vc4_diag_sink *sink);
/* nattrs 1..8 attribute records follow; ext_strides (NULL = not extended)
 * gives 8 stride words' bits 31:8 for an extended record. */
VC4_API enum vc4_status vc4_cl_gl_shader_record_pack(const struct vc4_cl_gl_shader_record *r,
                                                     const struct vc4_cl_attr_record *attrs,
                                                     unsigned nattrs,
                                                     const struct vc4_cl_ext_stride *ext_strides,
                                                     uint8_t *out, size_t size,
                                                     const struct vc4_diag_sink *sink);
VC4_API enum vc4_status vc4_cl_attr_record_pack(const struct vc4_cl_attr_record *a, uint8_t out[8],
                                                const struct vc4_diag_sink *sink);
VC4_API enum vc4_status vc4_cl_nv_shader_record(struct vc4_cl *cl,
                                                const struct vc4_cl_nv_shader_record *r,
                                                uint32_t *addr);
VC4_API enum vc4_status vc4_cl_gl_shader_record(struct vc4_cl *cl,
                                                const struct vc4_cl_gl_shader_record *r,
                                                const struct vc4_cl_attr_record *attrs,
                                                unsigned nattrs,
                                                const struct vc4_cl_ext_stride *ext_strides,
                                                uint32_t *addr);
/* Record readers (bytes must hold the record). */
VC4_API void vc4_cl_nv_shader_record_unpack(const uint8_t *bytes, struct vc4_cl_nv_shader_record *r);
VC4_API void vc4_cl_vg_shader_record_unpack(const uint8_t *bytes, struct vc4_cl_vg_shader_record *r);
VC4_API enum vc4_status vc4_cl_vg_shader_record_pack(const struct vc4_cl_vg_shader_record *r,
                                                     uint8_t out[12],
                                                     const struct vc4_diag_sink *sink);
VC4_API void vc4_cl_gl_shader_record_unpack(const uint8_t *bytes, struct vc4_cl_gl_shader_record *r);
VC4_API void vc4_cl_attr_record_unpack(const uint8_t *bytes, struct vc4_cl_attr_record *a);

/* Attribute streams: an attribute record describing `count` consecutive
 * vertices of `vertex_bytes` each, stride bytes apart, at address. */
VC4_API struct vc4_cl_attr_record vc4_cl_attr_stream(uint32_t address, unsigned vertex_bytes,
                                                     unsigned stride, unsigned vs_vpm_offset,
                                                     unsigned cs_vpm_offset);

/* The "total attributes size" of a shader: the bytes per vertex of the
 * arrays its select mask names (seed 000: 12 and 28 for its two streams). */
VC4_API unsigned vc4_cl_attr_total_size(const struct vc4_cl_attr_record *attrs, unsigned nattrs,
                                        uint32_t select);

/* ---- dumper --------------------------------------------------------------- */

struct vc4_cl_dump_options {
    uint32_t base_addr;  /* bus address of data[0], printed in comments */
    unsigned lists;      /* VC4_CL_LIST_* the list is (0 = unknown): notes only */
    bool no_comments;    /* omit the "# offset: name" comments */
    bool no_include;     /* omit the leading .include "v3d_cl.qinc" */
    /* Optional memory ([mem_base, mem_base + mem_size), bytes mem): the
     * shader records that GL/NV/VG Shader State packets point to are printed
     * as comments, field by field. */
    uint32_t mem_base;
    uint64_t mem_size;
    const uint8_t *mem;
    /* Dump only the list (vc4_cl_list_extent: up to its Halt or Branch, or
     * the first byte that is no packet); the bytes after it are printed as
     * .byte data under a comment saying why the list ended there. */
    bool list_only;
};
/* Print the packets as assembler text (v3d_cl.qinc macros, one field per
 * line, see docs/control-lists.md) into text (size bytes, NUL-terminated;
 * returns the length the whole text needs, like snprintf).  Bytes that are
 * not a whole known packet are printed as .byte so the text still assembles
 * to the same bytes. */
VC4_API size_t vc4_cl_dump(const uint8_t *data, size_t size, const struct vc4_cl_dump_options *opts,
                           char *text, size_t text_size);
/* The text of share/vc4kit/v3d_cl.qinc, generated from the tables. */
VC4_API size_t vc4_cl_qinc(char *text, size_t text_size);

/* ---- where a list ends -------------------------------------------------- */

/* The one stopping rule of the dumper and the validator: the control-list
 * executor walks packets until a Halt (it stops) or a Branch (it goes on at
 * the target), and nothing it cannot read is a list. */
enum vc4_cl_stop {
    VC4_CL_STOP_END,    /* the bytes ran out (the end address) */
    VC4_CL_STOP_HALT,   /* a Halt packet: the executor stops there */
    VC4_CL_STOP_BRANCH, /* a Branch: the list goes on at its target */
    VC4_CL_STOP_BAD,    /* a byte that is not a whole packet (error says why) */
};
struct vc4_cl_extent {
    size_t len;                   /* bytes of the list, through the Halt / Branch */
    enum vc4_cl_stop stop;
    size_t stop_offset;           /* the Halt, Branch or bad packet; size for END */
    enum vc4_cl_len_status error; /* VC4_CL_STOP_BAD: why */
};
VC4_API void vc4_cl_list_extent(const uint8_t *data, size_t size, struct vc4_cl_extent *out);
/* "Halt", "Branch", "unknown opcode", "truncated packet", "malformed items",
 * "end of the bytes". */
VC4_API const char *vc4_cl_stop_name(const struct vc4_cl_extent *e);

/* ---- structural validator ------------------------------------------------ */

struct vc4_cl_validate_options {
    unsigned list;          /* VC4_CL_LIST_BIN or VC4_CL_LIST_RENDER (0 = guess) */
    uint32_t base_addr;     /* bus address of data[0] */
    /* Memory the addresses must fall in: [mem_base, mem_base + mem_size);
     * mem_size 0 = addresses are not range-checked.  mem (optional, the
     * bytes of that range) lets the validator read records and indices. */
    uint32_t mem_base;
    uint64_t mem_size;
    const uint8_t *mem;
    bool kernel_rules;      /* also the Linux kernel's submit-time rules */
};
/* Walk the list, report every problem to the sink (unit "cl", loc.addr =
 * byte offset, message names the packet).  VC4_OK if no errors. */
VC4_API enum vc4_status vc4_cl_validate(const uint8_t *data, size_t size,
                                        const struct vc4_cl_validate_options *opts,
                                        const struct vc4_diag_sink *sink);

#ifdef __cplusplus
}
#endif
#endif
