/*
 * vg.h - VG mode: the vertex source of packets 41 (VG Coordinate Array
 * Primitives) and 42 (VG Inline Primitives), their primitive assembly and
 * what an RHT covers.  One unit, used by the binner (ptb.c), which bins VG
 * primitives into tile lists, and by the renderer (draw.c), which draws
 * them, so that the two agree.
 *
 * Evidence (docs/rendering.md "VG mode" has the whole story):
 *   - packet layouts: PeterLemon/RaspberryPi LIB/CONTROL_LIST.INC (the
 *     Broadcom guide's tables) and his VG demos
 *     V3D/ControlList/VG/Coordinate_Array/{Triangle,Triangle_Strip,
 *     Triangle_Fan,RHT,RHT_Strip}/FillColor, run on a Pi 1 [PL];
 *   - coordinates: "32-bit X,Y screen coordinates" [PL]; the demos store
 *     each vertex as one 32-bit word, s16 X (bits 15:0) and s16 Y (31:16) in
 *     12.4 fixed point ("X In 12.4 Fixed Point"), the format of a shaded
 *     vertex's Xs/Ys (facts §2.4).  There is no vertex shader and no
 *     vertex data beyond X/Y: Zs = 0 and 1/Wc = 1 (UNVERIFIED), no
 *     per-vertex varyings;
 *   - primitive types 1 RHT, 3 RHT strip, 4 triangles, 5 triangle strip,
 *     6 triangle fan (cl.h enum vc4_cl_vg_prim_type): the same numbers, and
 *     the same vertex assembly, as GL's lines, line strip, triangles, strip
 *     and fan (prim.h), which vc4kit therefore reuses; the packet length
 *     counts vertices, as in the demos;
 *   - RHT: a primitive of two vertices (an edge) and the RHT X Boundary
 *     (packet 100, s16; the RHT demo gives it as 32 * 16, i.e. 12.4).  The
 *     guide's VG pipeline fills paths by coverage accumulation (the
 *     configuration bits' coverage update modes non-zero / odd / or /
 *     zero); the shape that serves it is the trapezoid between the edge and
 *     the vertical line x = boundary over the edge's Y span, whose facing
 *     (the side of the boundary the edge lies on and its direction) gives
 *     the winding.  vc4kit draws an RHT as that quadrilateral
 *     (v0, v1, (B, y1), (B, y0)), as the two triangles (0, 1, 2) and
 *     (0, 2, 3), each culled by facing like any triangle (they wind the
 *     same way unless the edge crosses the boundary: a bow tie)
 *     (UNVERIFIED: the guide's exact definition is not public).  The RHT
 *     demo (edge (608,32)-(320,448), boundary 32) draws the trapezoid
 *     (32,32) (608,32) (320,448) (32,448);
 *   - fan continuation (byte 0 bits 7:4 nonzero, "for triangle fans only"):
 *     the list continues the previous fan; vc4kit starts it with that fan's
 *     centre and last vertex (UNVERIFIED).
 * The viewport offset is added to the coordinates and to the boundary as
 * to any shaded vertex (UNVERIFIED: the demos use offset 0).
 */
#ifndef VC4_EMU_VG_H
#define VC4_EMU_VG_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/mem.h"
#include "emu/prim.h"
#include "vc4kit/cl.h"

enum {
    /* emulator bound (not hardware): vertices one 42 packet may carry */
    VC4_VG_MAX_INLINE_VERTS = 1024,
    /* the VG shader record's alignment (packet 66 [PL]: "16-byte aligned") */
    VC4_VG_RECORD_ALIGN = 16,
    /* the coordinate array's element: one packed 32-bit X,Y word */
    VC4_VG_COORD_BYTES = 4,
};

/* The last triangle fan of a VG packet, for a continuation list. */
struct vc4_vg_fan {
    bool valid;
    uint32_t centre, last; /* packed X,Y words */
};

/* The vertex source of one packet 41 / 42. */
struct vc4_vg_src {
    struct vc4_prim_src prim; /* mode = the VG type (GL's numbers), len = vertices */
    unsigned type;            /* enum vc4_cl_vg_prim_type as in the packet */
    bool continuation;        /* a fan continuing the previous one */
    uint32_t prefix[2];       /* continuation: the previous fan's centre and last vertex */
    unsigned nprefix;         /* 0 or 2 */
    bool inline_list;         /* 42: inline_xy holds the vertices */
    uint32_t coord_addr;      /* 41: the coordinate array */
    uint32_t n_inline;
    bool inline_clipped;      /* 42: more vertices than VC4_VG_MAX_INLINE_VERTS; the rest dropped */
    uint32_t inline_xy[VC4_VG_MAX_INLINE_VERTS];
};

enum vc4_vg_src_result {
    VC4_VG_SRC_OK,
    VC4_VG_SRC_UNDECODABLE,  /* the packet could not be decoded */
    VC4_VG_SRC_BAD_TYPE,     /* not one of 1, 3, 4, 5, 6 */
    VC4_VG_SRC_BAD_ITEMS,    /* 42: an item that does not hold X,Y words */
    VC4_VG_SRC_NO_FAN,       /* a continuation with no fan before it (drawn as a new fan) */
};

/* Read packet 41 or 42 (pv) into *s; fan = the previous fan (for a
 * continuation; NULL = none).  NO_FAN leaves a usable source. */
enum vc4_vg_src_result vc4_vg_src_read(const struct vc4_cl_packet_view *pv, const struct vc4_vg_fan *fan,
                                       struct vc4_vg_src *s);
/* Is the source made of RHTs (2-vertex primitives)? */
bool vc4_vg_is_rht(const struct vc4_vg_src *s);
/* The packed X,Y word at position pos of the source's vertex list; false
 * if it lies outside memory. */
bool vc4_vg_coord(const struct vc4_mem *m, const struct vc4_vg_src *s, uint32_t pos, uint32_t *xy);
/* After the packet: remember its fan for a continuation (any other type
 * forgets it). */
void vc4_vg_fan_update(const struct vc4_mem *m, const struct vc4_vg_src *s, struct vc4_vg_fan *fan);

/* s16 X and Y of a packed word, 12.4. */
static inline int32_t vc4_vg_x(uint32_t xy)
{
    return (int16_t)(uint16_t)(xy & 0xFFFFu);
}
static inline int32_t vc4_vg_y(uint32_t xy)
{
    return (int16_t)(uint16_t)(xy >> 16);
}
static inline uint32_t vc4_vg_pack(int32_t x, int32_t y)
{
    return (uint32_t)(uint16_t)(int16_t)x | (uint32_t)(uint16_t)(int16_t)y << 16;
}

/* The quadrilateral an RHT covers: the edge (x0,y0)-(x1,y1) and the
 * boundary x = bx, as the polygon v0, v1, (bx, y1), (bx, y0), in the
 * coordinates given. */
void vc4_vg_rht_polygon(int32_t x0, int32_t y0, int32_t x1, int32_t y1, int32_t bx, int32_t px[4], int32_t py[4]);

#endif
