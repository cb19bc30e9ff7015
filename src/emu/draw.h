/*
 * draw.h - drawing primitives into the current tile of the rendering list
 * (CT1): the tile lists' 48/49 items and packets 32/33 placed directly in
 * a rendering list (a vc4kit extension, UNVERIFIED on hardware).  Each
 * vertex comes from the NV shader record or from the vertex shader (vsi.c);
 * a primitive goes through setup (pse.c), the rasteriser (raster.c) and the
 * fragment shader (fsi.c) into the tile buffer.  The render state (shader
 * state, configuration bits, flat shading, point size, line width, clip
 * window, viewport offset, depth offset) is struct vc4_ctl_render, set by
 * the rendering list's state packets (ctl.c).
 */
#ifndef VC4_EMU_DRAW_H
#define VC4_EMU_DRAW_H

#include <stdint.h>

#include "vc4kit/cl.h"
#include "vc4kit/diag.h"

struct vc4_v3d;

/* Compressed Primitive List (48) or Clipped Primitive (49): the items of a
 * tile list.  *used counts cycles against budget. */
enum vc4_status vc4_draw_tile_list_prims(struct vc4_v3d *v, uint32_t at, const struct vc4_cl_packet_view *pv,
                                         uint64_t budget, uint64_t *used);
/* Vertex Array Primitives (33) or Indexed Primitive List (32) in a
 * rendering list, assembled by prim.c as the binner assembles them. */
enum vc4_status vc4_draw_list_prims(struct vc4_v3d *v, uint32_t at, const struct vc4_cl_packet_view *pv,
                                    uint64_t budget, uint64_t *used);

/* VG Coordinate Array Primitives (41) or VG Inline Primitives (42), from a
 * tile list (the binner's) or a rendering list: VG mode's screen-space
 * triangles and RHTs (emu/vg.h) with the VG fragment shader. */
enum vc4_status vc4_draw_vg_prims(struct vc4_v3d *v, uint32_t at, const struct vc4_cl_packet_view *pv,
                                  uint64_t budget, uint64_t *used);

#endif
