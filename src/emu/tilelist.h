/*
 * tilelist.h - what the binner (ptb.c) writes into tile lists and what the
 * rendering thread (ctl.c) reads back: the primitives inside packets 48
 * (Compressed Primitive List) and 49 (Clipped Primitive with Compressed
 * Primitive List), and the clipped-primitive record a 49 points to.
 *
 * The hardware's real encoding of these packets (escape codes, relative
 * index coding) is documented only in the Broadcom reference guide and
 * appears in no open source code (hardware facts §4.1, §14).  vc4kit uses
 * its OWN PROVISIONAL encoding, described in docs/tile-lists.md.  Its writer
 * and its reader are side by side in src/emu/tilelist.c, so that it can be
 * replaced in one place when the real format is known.  The byte framing of
 * one item (tag byte + vertex indices, 0x00 = end) is the cl layer's
 * provisional item codec (vc4_cl_prim_item_*, src/spec/cl_prims.c), so that
 * the cl reader, dumper and validator find the length of these packets too;
 * this file gives the items their meaning:
 *
 *   48  [item]... END        one item per primitive; an item's vertex count
 *                            is the primitive's: 1 point, 2 line, 3 triangle
 *   49  u32 (clip flags | clipped record address)  item  END
 *                            exactly one primitive (the one that needed
 *                            clipping), with the address of its clipped
 *                            record (below)
 *
 * An item holds vertex INDICES: NV mode, the index into the NV shader
 * record's shaded vertex data (address = vertex data + index x stride);
 * GL mode, the vertex index to run the VCD + vertex shader on again.
 * Indices <= 0xFFFF use 16-bit items, larger ones 32-bit items (the binner
 * writes none: array vertex numbers reach the lists in 16 bits, GFXH-515,
 * ptb.c; index lists hold 8- or 16-bit indices).
 */
#ifndef VC4_EMU_TILELIST_H
#define VC4_EMU_TILELIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vc4kit/cl.h"

enum { VC4_TL_MAX_VERTS = 3 };

/* One primitive of a tile list. */
struct vc4_tl_prim {
    uint8_t nverts;                  /* 1 point, 2 line, 3 triangle */
    uint32_t index[VC4_TL_MAX_VERTS]; /* vertex indices, in the order given
                                      * (winding preserved; strips/fans already
                                      * turned into independent primitives) */
};

/* The fixed part of a 49 packet (packet fields clip_flags / clipped_prim_addr
 * in the cl tables). */
struct vc4_tl_clip_info {
    uint32_t clip_flags;   /* one bit per vertex of the primitive: bit i set =
                            * vertex i is outside a clip plane */
    uint32_t record_addr;  /* bus address of the clipped record, 8-byte aligned */
};

/* ---- writer --------------------------------------------------------------- */

/* Bytes one primitive item takes (0 if nverts is not 1..3). */
size_t vc4_tl_prim_size(const struct vc4_tl_prim *p);
/* Encode one primitive item into out (cap bytes): bytes written, 0 if it is
 * invalid or does not fit. */
size_t vc4_tl_write_prim(const struct vc4_tl_prim *p, uint8_t *out, size_t cap);
/* The list terminator (the escape): 1 byte, 0 if cap is 0. */
size_t vc4_tl_write_end(uint8_t *out, size_t cap);
/* The fixed head of a 48 (opcode only) / 49 (opcode + u32) packet. */
size_t vc4_tl_write_open48(uint8_t *out, size_t cap);
size_t vc4_tl_write_open49(const struct vc4_tl_clip_info *ci, uint8_t *out, size_t cap);
/* Bytes of the fixed heads and of the terminator. */
size_t vc4_tl_open48_size(void);
size_t vc4_tl_open49_size(void);
size_t vc4_tl_end_size(void);

/* ---- reader ----------------------------------------------------------------- */

enum vc4_tl_status {
    VC4_TL_OK = 0,      /* a primitive was read */
    VC4_TL_END,         /* the packet's terminator: reader->pos is the packet length */
    VC4_TL_TRUNCATED,   /* the bytes end inside the packet */
    VC4_TL_BAD,         /* not a well-formed 48/49 (unknown tag, wrong opcode) */
};

struct vc4_tl_reader {
    const uint8_t *bytes; /* the packet, opcode first */
    size_t avail;         /* bytes available from there */
    size_t pos;           /* next byte to read */
    uint8_t opcode;       /* 48 or 49 */
    struct vc4_tl_clip_info clip; /* 49 only (zero for 48) */
    unsigned prims;       /* primitives read so far */
    enum vc4_tl_status status; /* sticky once END/TRUNCATED/BAD */
};

/* Start reading the 48/49 packet at bytes (opcode first).  VC4_TL_OK, or
 * TRUNCATED / BAD (then nothing can be read). */
enum vc4_tl_status vc4_tl_begin(struct vc4_tl_reader *r, const uint8_t *bytes, size_t avail);
/* The next primitive: VC4_TL_OK with *out filled, VC4_TL_END at the end of
 * the packet, TRUNCATED / BAD for broken bytes (r->pos = where). */
enum vc4_tl_status vc4_tl_next(struct vc4_tl_reader *r, struct vc4_tl_prim *out);
/* Total length of the 48/49 packet at bytes (walks it). */
enum vc4_tl_status vc4_tl_packet_length(const uint8_t *bytes, size_t avail, size_t *len);

/* ---- clipped-primitive record (what a 49 points to) ------------------------- *
 * vc4kit's own layout (docs/tile-lists.md), little-endian, 8-byte aligned:
 *   +0  u32  vertex count n: 2 for a line (the 49's item has 2 vertices),
 *            the clipped segment's end points; 3..VC4_TL_CLIP_MAX_VERTS for
 *            a triangle (item of 3 vertices), a convex polygon drawn as the
 *            fan (0, i, i+1)
 *   +4  u32  reserved (0)
 *   +8  n x 24 bytes, one per polygon vertex:
 *        +0  s16 X, s16 Y   screen position, 12.4, relative to the viewport
 *                           centre like a shaded vertex (viewport offset not
 *                           added)
 *        +4  f32 Zs
 *        +8  f32 1/Wc
 *        +12 f32 b0, b1, b2  weights of the original primitive's vertices
 *                           0, 1, 2 in clip space (varyings = sum bi x vi;
 *                           b2 = 0 for a line) */
enum {
    VC4_TL_CLIP_MIN_VERTS = 2, /* a clipped line */
    VC4_TL_CLIP_MAX_VERTS = 9, /* a triangle clipped by 6 planes */
    VC4_TL_CLIP_HEADER = 8,
    VC4_TL_CLIP_VERTEX = 24,
    VC4_TL_CLIP_ALIGN = 8,
};
struct vc4_tl_clip_vertex {
    int32_t x_1_16px, y_1_16px; /* s16 in memory */
    float zs, inv_wc;
    float b[3];
};
struct vc4_tl_clipped {
    unsigned nverts;
    struct vc4_tl_clip_vertex v[VC4_TL_CLIP_MAX_VERTS];
};
/* Bytes of a record with n vertices. */
size_t vc4_tl_clipped_size(unsigned nverts);
/* Encode / decode a record (out / bytes hold vc4_tl_clipped_size bytes).
 * write: bytes written, 0 if nverts is out of range or cap too small.
 * read: false if the count is out of range or the bytes are too few. */
size_t vc4_tl_write_clipped(const struct vc4_tl_clipped *c, uint8_t *out, size_t cap);
bool vc4_tl_read_clipped(const uint8_t *bytes, size_t avail, struct vc4_tl_clipped *c);

/* ---- dumper --------------------------------------------------------------- */

/* The primitives of the 48/49 packet at bytes as text, one line each
 * ("triangle 12 13 14", "line 3 4", "point 7", and for a 49 a first line
 * "clipped flags=0b011 record=0x00012340"), into text (size bytes,
 * NUL-terminated; returns the length the whole text needs, like snprintf).
 * Broken bytes end the text with a line "error: truncated" / "error: bad
 * item at +N". */
size_t vc4_tl_dump(const uint8_t *bytes, size_t avail, char *text, size_t size);

#endif
