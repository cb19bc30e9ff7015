/*
 * prim.h - primitive assembly: which vertices make each primitive of a
 * Vertex Array Primitives (33) or Indexed Primitive List (32) packet.  One
 * unit, used by the binner (ptb.c) and by primitives drawn directly in a
 * rendering list (draw.c), so the two agree on every mode.
 *
 * Modes (facts §1 packets 32/33; GL's assembly rules, OpenGL ES 2.0 §2.6.1
 * / OpenGL 4.6 §10.1):
 *   points          k
 *   lines           2k, 2k+1
 *   line loop       k, k+1 (the last line closes the loop: n-1, 0); a loop
 *                   of exactly 2 vertices draws nothing: "A line loop of
 *                   two points doesn't draw anything" (Broadcom's GLES
 *                   driver, workaround LNLOOP, on for every revision);
 *                   "A HW bug fails to draw 2-vert line loops" (Mesa
 *                   vc4_draw.c, which draws them as lines).  The binner
 *                   warns cl-line-loop-two.
 *   line strip      k, k+1
 *   triangles       3k, 3k+1, 3k+2
 *   triangle strip  k, k+1, k+2 for even k; k+1, k, k+2 for odd k (GL's
 *                   order: the winding is kept by swapping the first two)
 *   triangle fan    0, k+1, k+2
 *
 * The odd strip triangle's order matters beyond winding: the PSE takes the
 * C coefficients from the primitive's first vertex (and flat-shaded values
 * from its last, GL's provoking vertex: pse.h).  GL's
 * order is the one Mesa relies on: it hands GL strips to the binner
 * unchanged (Mesa vc4_draw.c emits the GL primitive mode in packet 32/33).
 * What the hardware binner does for the flat vertex of an odd triangle is
 * not documented (UNVERIFIED); vc4kit uses GL's order in both paths.
 *
 * Indices: array packets number vertices from first_index; indexed packets
 * read 8- or 16-bit indices from memory, each bounded by the packet's
 * maximum index (facts §1 op 32): a larger one drops the primitive.
 */
#ifndef VC4_EMU_PRIM_H
#define VC4_EMU_PRIM_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/mem.h"
#include "vc4kit/cl.h"

#define VC4_PRIM_MAX_VERTS 3u

/* The vertex source of one packet 32 / 33. */
struct vc4_prim_src {
    unsigned mode;        /* enum vc4_cl_primitive_mode */
    uint32_t len;         /* vertices (array) / indices (indexed) */
    bool indexed;
    uint32_t first;       /* array: index of the first vertex */
    uint32_t index_addr;  /* indexed: the index list */
    uint32_t index_type;  /* indexed: enum vc4_cl_index_type as in the packet */
    uint32_t index_bytes; /* 1 or 2 */
    uint32_t max_index;
};

enum vc4_prim_src_result {
    VC4_PRIM_SRC_OK,
    VC4_PRIM_SRC_UNDECODABLE, /* the packet could not be decoded */
    VC4_PRIM_SRC_BAD_INDEX_TYPE, /* neither 8- nor 16-bit */
    VC4_PRIM_SRC_BAD_MODE,    /* mode 7: no such primitive */
};

/* Read packet 32 or 33 (pv) into *s. */
enum vc4_prim_src_result vc4_prim_src_read(const struct vc4_cl_packet_view *pv, struct vc4_prim_src *s);

/* Primitives in the packet. */
uint32_t vc4_prim_count(const struct vc4_prim_src *s);
/* Positions (in the packet's vertex list) of primitive k; returns the
 * vertex count (1 point, 2 line, 3 triangle). */
unsigned vc4_prim_positions(const struct vc4_prim_src *s, uint32_t k, uint32_t pos[VC4_PRIM_MAX_VERTS]);

enum vc4_prim_index_result {
    VC4_PRIM_INDEX_OK,
    VC4_PRIM_INDEX_OVERFLOW,  /* array: first + position beyond 32 bits */
    VC4_PRIM_INDEX_OUTSIDE,   /* indexed: the index is outside memory */
    VC4_PRIM_INDEX_ABOVE_MAX, /* indexed: the index exceeds the packet's maximum index */
};
/* The vertex index at position pos of the packet's list (*idx is set for
 * ABOVE_MAX too, for the message). */
enum vc4_prim_index_result vc4_prim_index(const struct vc4_mem *m, const struct vc4_prim_src *s, uint32_t pos,
                                          uint32_t *idx);

#endif
