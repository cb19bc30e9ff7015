/*
 * draw.c - drawing into the current tile (see draw.h): vertex fetch (NV
 * records, or GL vertices shaded by vsi.c), primitives from the tile lists
 * (48/49) and from packets 32/33 in a rendering list (assembled by prim.c),
 * setup (pse.c), rasterisation (raster.c) and fragment shading (fsi.c).
 * Moved out of ctl.c, which keeps the control-list threads, tile loads and
 * stores and the render state.  Sources: hardware facts §1 (packets), §3.4
 * (configuration bits), §9 (fragment shading); seed 002 (NV shader record,
 * varyings).
 */
#include "emu/draw.h"

#include <float.h>
#include <string.h>

#include "base/base.h"
#include "emu/prim.h"
#include "emu/tilelist.h"
#include "emu/v3d.h"
#include "emu/vg.h"

/* ---- primitives --------------------------------------------------------------------------- */

/* Shaded-vertex layout (facts §2.4): [clip header 16] Xs/Ys s16 pair, Zs,
 * 1/Wc, [point size], varyings. */
static bool fetch_nv_vertex(struct vc4_v3d *v, uint32_t at, const char *pkt, uint32_t index,
                            struct vc4_pse_vertex *out)
{
    struct vc4_ctl_render *r = &v->ctl.r;
    const struct vc4_cl_nv_shader_record *nv = &r->nv;
    unsigned nvary = nv->fs_num_varyings < VC4_PSE_MAX_VARYINGS ? nv->fs_num_varyings : VC4_PSE_MAX_VARYINGS;
    unsigned head = nv->clip_header_included ? 16u : 0u;
    unsigned ps = nv->point_size_included ? 4u : 0u;
    unsigned need = head + 12u + ps + 4u * nvary;
    if (need > nv->vertex_stride && nv->vertex_stride != 0 && vc4_ctl_once(v, VC4_CTL_W_STRIDE))
        vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                     "the NV shader record's vertex stride (%u bytes) is smaller than a vertex (%u bytes)",
                     nv->vertex_stride, need);
    uint64_t addr = (uint64_t)nv->vertex_data_addr + (uint64_t)index * nv->vertex_stride;
    uint8_t buf[16 + 12 + 4 + 4 * VC4_PSE_MAX_VARYINGS];
    if (addr > UINT32_MAX || !vc4_mem_read(&v->mem, (uint32_t)addr, buf, need)) {
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at, pkt,
                     "shaded vertex %u at 0x%08llx is outside memory", index, (unsigned long long)addr);
        return false;
    }
    const uint8_t *p = buf + head;
    out->x = (int16_t)vc4_le16(p) + r->vp_x_1_16px;
    out->y = (int16_t)vc4_le16(p + 2) + r->vp_y_1_16px;
    out->zs = vc4_u2f(vc4_le32(p + 4));
    out->inv_wc = vc4_u2f(vc4_le32(p + 8));
    out->point_size = ps ? vc4_u2f(vc4_le32(p + 12)) : r->point_size;
    for (unsigned k = 0; k < nvary; k++)
        out->vary[k] = vc4_u2f(vc4_le32(p + 12 + ps + 4 * k));
    return true;
}

/* GL mode: the vertex shader's outputs (vsi.h) as the PSE takes them:
 * Xs/Ys, Zs, 1/Wc, [point size], varyings.  A vertex not shaded yet (a
 * packet 32/33 in the rendering list) is shaded on its own here. */
static bool fetch_gl_vertex(struct vc4_v3d *v, uint32_t at, const char *pkt, uint32_t index,
                            struct vc4_pse_vertex *out)
{
    struct vc4_ctl_render *r = &v->ctl.r;
    const struct vc4_gl_state *g = &v->vsi.render;
    const uint32_t *w = vc4_vsi_get(&v->vsi, VC4_GL_VS, index);
    if (!w) {
        struct vc4_location l = vc4_location_none();
        l.addr = at;
        if (vc4_vsi_shade(v, VC4_GL_VS, g, &index, 1, &l) == VC4_OK)
            w = vc4_vsi_get(&v->vsi, VC4_GL_VS, index);
    }
    if (!w) {
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at, pkt, "vertex %u: the vertex shader gave no outputs", index);
        return false;
    }
    unsigned ps = g->rec.point_size_included ? 1u : 0u;
    unsigned nvary = vc4_gl_out_rows(g, VC4_GL_VS) - VC4_GL_VS_OUT_ROWS - ps;
    if (nvary > VC4_PSE_MAX_VARYINGS)
        nvary = VC4_PSE_MAX_VARYINGS;
    out->x = (int16_t)(w[0] & 0xFFFFu) + r->vp_x_1_16px;
    out->y = (int16_t)(w[0] >> 16) + r->vp_y_1_16px;
    out->zs = vc4_u2f(w[1]);
    out->inv_wc = vc4_u2f(w[2]);
    out->point_size = ps ? vc4_u2f(w[3]) : r->point_size;
    for (unsigned k = 0; k < nvary; k++)
        out->vary[k] = vc4_u2f(w[VC4_GL_VS_OUT_ROWS + ps + k]);
    return true;
}

static bool fetch_vertex(struct vc4_v3d *v, uint32_t at, const char *pkt, uint32_t index,
                         struct vc4_pse_vertex *out)
{
    if (v->ctl.r.shader == VC4_CTL_SHADER_GL)
        return fetch_gl_vertex(v, at, pkt, index, out);
    return fetch_nv_vertex(v, at, pkt, index, out);
}

/* GL mode: shade every vertex a tile-list packet uses, in batches, before
 * drawing its primitives. */
static enum vc4_status shade_tile_list(struct vc4_v3d *v, uint32_t at, const struct vc4_cl_packet_view *pv)
{
    struct vc4_tl_reader tr;
    struct vc4_tl_prim tp;
    uint32_t idx[256];
    size_t n = 0;
    struct vc4_location l = vc4_location_none();
    l.addr = at;
    if (vc4_tl_begin(&tr, pv->bytes, pv->length) != VC4_TL_OK)
        return VC4_OK; /* reported when drawing */
    while (vc4_tl_next(&tr, &tp) == VC4_TL_OK) {
        for (unsigned i = 0; i < tp.nverts; i++)
            idx[n++] = tp.index[i];
        if (n + 3 > sizeof idx / sizeof idx[0]) {
            enum vc4_status st = vc4_vsi_shade(v, VC4_GL_VS, &v->vsi.render, idx, n, &l);
            if (st != VC4_OK)
                return st;
            n = 0;
        }
    }
    return n ? vc4_vsi_shade(v, VC4_GL_VS, &v->vsi.render, idx, n, &l) : VC4_OK;
}

/* The pixels primitives may cover: the tile, inside the frame and the
 * clip window. */
static struct vc4_raster_rect draw_rect(const struct vc4_v3d *v)
{
    const struct vc4_ctl_render *r = &v->ctl.r;
    const struct vc4_tlb *t = &v->tlb;
    struct vc4_raster_rect rc = {
        .x0 = (int32_t)(r->tile_x * t->tile_w), .y0 = (int32_t)(r->tile_y * t->tile_h),
    };
    rc.x1 = rc.x0 + (int32_t)t->tile_w;
    rc.y1 = rc.y0 + (int32_t)t->tile_h;
    if (rc.x1 > (int32_t)r->trmc.width_px)
        rc.x1 = (int32_t)r->trmc.width_px;
    if (rc.y1 > (int32_t)r->trmc.height_px)
        rc.y1 = (int32_t)r->trmc.height_px;
    if (r->clip_set) {
        /* Clip Window: left, "bottom" (the smallest y of the y-down frame,
         * as Mesa fills it), width, height */
        int32_t cx0 = (int32_t)r->clip.left_px, cy0 = (int32_t)r->clip.bottom_px;
        int32_t cx1 = cx0 + (int32_t)r->clip.width_px, cy1 = cy0 + (int32_t)r->clip.height_px;
        rc.x0 = rc.x0 > cx0 ? rc.x0 : cx0;
        rc.y0 = rc.y0 > cy0 ? rc.y0 : cy0;
        rc.x1 = rc.x1 < cx1 ? rc.x1 : cx1;
        rc.y1 = rc.y1 < cy1 ? rc.y1 : cy1;
    }
    return rc;
}

struct emit_ctx {
    struct vc4_v3d *v;
    bool widen;        /* multisampled buffer, rasteriser not oversampling */
    uint64_t budget, *used;
    enum vc4_status st;
};

static bool emit_batch(void *user, const struct vc4_raster_batch *b)
{
    struct emit_ctx *e = user;
    struct vc4_raster_batch w;
    if (e->widen) { /* pixel-centre coverage for all 4 samples */
        w = *b;
        for (unsigned i = 0; i < VC4_RASTER_SIMD; i++)
            w.cov[i] = w.cov[i] ? 0xF : 0;
        b = &w;
    }
    if (!vc4_fsi_add(e->v, b)) {
        e->st = vc4_fsi_run(e->v, e->budget, e->used);
        if (e->st != VC4_OK || !vc4_fsi_add(e->v, b))
            return false;
    }
    return true;
}

/* Rasterise and shade one triangle of a primitive with this setup. */
static enum vc4_status shade(struct vc4_v3d *v, const struct vc4_raster_tri *tri,
                             const struct vc4_pse_setup *setup, uint64_t budget, uint64_t *used)
{
    struct vc4_ctl_render *r = &v->ctl.r;
    struct vc4_raster_rect rc = draw_rect(v);
    if (rc.x0 >= rc.x1 || rc.y0 >= rc.y1)
        return VC4_OK;
    bool ms_cov = v->tlb.ms && r->cfg.rasteriser_oversample == VC4_CL_OVERSAMPLE_4X;
    struct vc4_fsi_prim fp = {
        .setup = setup,
        .code = r->nv.fs_code_addr,
        .unif = r->nv.fs_uniforms_addr,
        .nvary = r->nv.fs_num_varyings,
        .threaded = !r->nv.fs_single_threaded,
        .ms = ms_cov,
        .depth_func = r->cfg.depth_func,
        .z_update = r->cfg.z_updates_enable,
        .early_z = r->cfg.early_z_enable && !r->trmc.early_z_coverage_disable,
        .early_z_ge = r->trmc.early_z_direction_ge,
        .tile_fx0 = r->tile_x * v->tlb.tile_w,
        .tile_fy0 = r->tile_y * v->tlb.tile_h,
    };
    vc4_fsi_begin(v, &fp);
    /* the QPUs that will run it are fragment shaders for the VPM's rules */
    for (unsigned i = 0; i < v->num_qpus; i++)
        if (v->qpu[i].state == VC4_EMU_QPU_IDLE)
            vc4_vpm_qpu_role(&v->vpm, i, VC4_VPM_ROLE_FS, 0, 0);
    struct emit_ctx e = {.v = v, .widen = v->tlb.ms && !ms_cov, .budget = budget, .used = used, .st = VC4_OK};
    vc4_raster_triangle(tri, &rc, ms_cov, emit_batch, &e);
    if (e.st != VC4_OK)
        return e.st;
    return vc4_fsi_run(v, budget, used);
}

static void tri_of(const struct vc4_pse_vertex *const vv[3], struct vc4_raster_tri *t)
{
    for (int i = 0; i < 3; i++) {
        t->x[i] = vv[i]->x;
        t->y[i] = vv[i]->y;
    }
}

/* A triangle; flat varyings from provoke (pse.h: the primitive's last
 * vertex, before any clipping). */
static enum vc4_status draw_triangle(struct vc4_v3d *v, const struct vc4_pse_vertex *const vv[3],
                                     const struct vc4_pse_vertex *provoke, uint64_t budget, uint64_t *used)
{
    struct vc4_ctl_render *r = &v->ctl.r;
    struct vc4_raster_tri t;
    tri_of(vv, &t);
    int64_t area = vc4_raster_area(&t);
    if (area == 0)
        return VC4_OK;
    bool reverse;
    if (!vc4_pse_facing(area, r->cfg.enable_forward_facing, r->cfg.enable_reverse_facing,
                        r->cfg.clockwise, &reverse)) {
        r->prims_culled++;
        return VC4_OK;
    }
    struct vc4_pse_setup s;
    if (!vc4_pse_setup_triangle(vv, provoke, r->nv.fs_num_varyings, r->flat_flags, &s))
        return VC4_OK;
    if (r->cfg.enable_depth_offset)
        vc4_pse_depth_offset(&s, r->depth_offset.factor, r->depth_offset.units);
    s.reverse = reverse;
    r->prims_drawn++;
    return shade(v, &t, &s, budget, used);
}

/* Points and lines are quads: two triangles with one setup (pse.h). */
static enum vc4_status shade_quad(struct vc4_v3d *v, const struct vc4_raster_tri t[2],
                                  const struct vc4_pse_setup *s, uint64_t budget, uint64_t *used)
{
    enum vc4_status st = shade(v, &t[0], s, budget, used);
    return st == VC4_OK ? shade(v, &t[1], s, budget, used) : st;
}

static enum vc4_status draw_point(struct vc4_v3d *v, const struct vc4_pse_vertex *p, uint64_t budget,
                                  uint64_t *used)
{
    struct vc4_ctl_render *r = &v->ctl.r;
    struct vc4_raster_tri t[2];
    if (!vc4_pse_point_quad(p, p->point_size, t))
        return VC4_OK;
    struct vc4_pse_setup s;
    vc4_pse_setup_point(p, p->point_size, r->nv.fs_num_varyings, &s);
    r->prims_drawn++;
    return shade_quad(v, t, &s, budget, used);
}

static enum vc4_status draw_line(struct vc4_v3d *v, const struct vc4_pse_vertex *a,
                                 const struct vc4_pse_vertex *b, const struct vc4_pse_vertex *provoke,
                                 uint64_t budget, uint64_t *used)
{
    struct vc4_ctl_render *r = &v->ctl.r;
    struct vc4_raster_tri t[2];
    if (!vc4_pse_line_quad(a, b, r->line_width, t, NULL))
        return VC4_OK;
    struct vc4_pse_setup s;
    if (!vc4_pse_setup_line(a, b, provoke, r->line_width, r->nv.fs_num_varyings, r->flat_flags, &s))
        return VC4_OK;
    r->prims_drawn++;
    return shade_quad(v, t, &s, budget, used);
}

/* Can primitives be drawn now?  VC4_OK: yes (frame, tile and an NV
 * shader); VC4_ERR_UNSUPPORTED: a shader mode not emulated (warned once,
 * the primitives are skipped); VC4_ERR_FAULT: missing configuration (an
 * error was reported). */
static enum vc4_status ready_to_draw(struct vc4_v3d *v, uint32_t at, const char *pkt)
{
    struct vc4_ctl_render *r = &v->ctl.r;
    if (!vc4_ctl_need_frame(v, at, pkt))
        return VC4_ERR_FAULT;
    switch (r->shader) {
    case VC4_CTL_SHADER_NV:
        return VC4_OK;
    case VC4_CTL_SHADER_NONE:
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_SEMANTIC, at, pkt,
                     "no shader state before the primitives (missing configuration)");
        return VC4_ERR_FAULT;
    case VC4_CTL_SHADER_GL:
        if (v->vsi.render.valid)
            return VC4_OK;
        if (vc4_ctl_once(v, VC4_CTL_W_GL_MODE))
            vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_SEMANTIC, at, pkt,
                         "the GL shader record could not be read: primitives skipped");
        return VC4_ERR_UNSUPPORTED;
    default: /* VG: its primitives are packets 41/42 (vc4_draw_vg_prims) */
        if (vc4_ctl_once(v, VC4_CTL_W_VG))
            vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                         "index-based primitives in VG shader mode (VG primitives are packets 41/42): skipped");
        return VC4_ERR_UNSUPPORTED;
    }
}

static enum vc4_status draw_prim(struct vc4_v3d *v, uint32_t at, const char *pkt, unsigned nverts,
                                 const uint32_t *index, uint64_t budget, uint64_t *used)
{
    struct vc4_pse_vertex vx[3];
    for (unsigned i = 0; i < nverts; i++)
        if (!fetch_vertex(v, at, pkt, index[i], &vx[i]))
            return VC4_ERR_FAULT;
    v->ctl.ct[1].prims++;
    if (nverts == 1)
        return draw_point(v, &vx[0], budget, used);
    if (nverts == 2)
        return draw_line(v, &vx[0], &vx[1], &vx[1], budget, used);
    const struct vc4_pse_vertex *vv[3] = {&vx[0], &vx[1], &vx[2]};
    return draw_triangle(v, vv, &vx[2], budget, used);
}

/* A 49's polygon (or clipped line): vertices from the clipped record,
 * varyings weighted from the original primitive's vertices, a polygon drawn
 * as the fan (0, i, i+1), a line as a line. */
static enum vc4_status draw_clipped(struct vc4_v3d *v, uint32_t at, const char *pkt,
                                    const struct vc4_tl_reader *tr, const struct vc4_tl_prim *tp,
                                    uint64_t budget, uint64_t *used)
{
    struct vc4_ctl_render *r = &v->ctl.r;
    uint32_t rec = tr->clip.record_addr;
    uint8_t bytes[VC4_TL_CLIP_HEADER + VC4_TL_CLIP_MAX_VERTS * VC4_TL_CLIP_VERTEX];
    uint32_t off;
    uint32_t avail = 0;
    if (vc4_mem_span(&v->mem, rec, 0, &off))
        avail = v->mem.size - off;
    if (avail > sizeof bytes)
        avail = sizeof bytes;
    struct vc4_tl_clipped c;
    if (avail == 0 || !vc4_mem_read(&v->mem, rec, bytes, avail) || !vc4_tl_read_clipped(bytes, avail, &c)) {
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at, pkt,
                     "the clipped-primitive record at 0x%08x is outside memory or malformed", rec);
        return VC4_ERR_FAULT;
    }
    if (tp->nverts == 1) {
        vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                     "a clipped point: only lines and triangles are clipped; drawn unclipped");
        return draw_prim(v, at, pkt, tp->nverts, tp->index, budget, used);
    }
    /* a line's record holds its 2 clipped end points, a triangle's a
     * polygon of 3 or more (docs/tile-lists.md) */
    bool line = tp->nverts == 2;
    if (line != (c.nverts == 2)) {
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at, pkt,
                     "the clipped-primitive record at 0x%08x holds %u vertices for a %s", rec, c.nverts,
                     line ? "line" : "triangle");
        return VC4_ERR_FAULT;
    }
    struct vc4_pse_vertex orig[3] = {0}, poly[VC4_TL_CLIP_MAX_VERTS];
    for (unsigned i = 0; i < tp->nverts; i++)
        if (!fetch_vertex(v, at, pkt, tp->index[i], &orig[i]))
            return VC4_ERR_FAULT;
    unsigned nvary = r->nv.fs_num_varyings < VC4_PSE_MAX_VARYINGS ? r->nv.fs_num_varyings : VC4_PSE_MAX_VARYINGS;
    for (unsigned i = 0; i < c.nverts; i++) {
        const struct vc4_tl_clip_vertex *cv = &c.v[i];
        struct vc4_pse_vertex *p = &poly[i];
        p->x = cv->x_1_16px + r->vp_x_1_16px;
        p->y = cv->y_1_16px + r->vp_y_1_16px;
        p->zs = cv->zs;
        p->inv_wc = cv->inv_wc;
        p->point_size = r->point_size;
        for (unsigned k = 0; k < nvary; k++) {
            double s0 = (double)cv->b[0] * (double)orig[0].vary[k];
            double s1 = (double)cv->b[1] * (double)orig[1].vary[k];
            double s2 = line ? 0.0 : (double)cv->b[2] * (double)orig[2].vary[k];
            double sum = s0 + s1;
            sum += s2;
            /* inside float's range (a record from memory may hold anything) */
            p->vary[k] = sum != sum ? 0.0f : sum > (double)FLT_MAX ? FLT_MAX
                       : sum < -(double)FLT_MAX ? -FLT_MAX : (float)sum;
        }
    }
    v->ctl.ct[1].prims++;
    /* (flat varyings: the original primitive's last vertex) */
    if (line)
        return draw_line(v, &poly[0], &poly[1], &orig[1], budget, used);
    for (unsigned i = 1; i + 1 < c.nverts; i++) {
        const struct vc4_pse_vertex *vv[3] = {&poly[0], &poly[i], &poly[i + 1]};
        enum vc4_status st = draw_triangle(v, vv, &orig[2], budget, used);
        if (st != VC4_OK)
            return st;
    }
    return VC4_OK;
}

/* Packets 48 / 49 of a tile list. */
enum vc4_status vc4_draw_tile_list_prims(struct vc4_v3d *v, uint32_t at, const struct vc4_cl_packet_view *pv,
                                       uint64_t budget, uint64_t *used)
{
    const char *pkt = pv->desc->name;
    struct vc4_tl_reader tr;
    if (vc4_tl_begin(&tr, pv->bytes, pv->length) != VC4_TL_OK) {
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at, pkt, "malformed primitive list");
        return VC4_ERR_FAULT;
    }
    enum vc4_status ready = ready_to_draw(v, at, pkt);
    if (ready != VC4_OK)
        return ready == VC4_ERR_UNSUPPORTED ? VC4_OK : ready;
    if (v->ctl.r.shader == VC4_CTL_SHADER_GL) {
        enum vc4_status st = shade_tile_list(v, at, pv);
        if (st != VC4_OK)
            return st;
    }
    struct vc4_tl_prim tp;
    enum vc4_tl_status ts;
    while ((ts = vc4_tl_next(&tr, &tp)) == VC4_TL_OK) {
        enum vc4_status st = pv->opcode == VC4_CL_CLIPPED_PRIMITIVE
                                 ? draw_clipped(v, at, pkt, &tr, &tp, budget, used)
                                 : draw_prim(v, at, pkt, tp.nverts, tp.index, budget, used);
        if (st != VC4_OK)
            return st;
    }
    if (ts != VC4_TL_END) {
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at + (uint32_t)tr.pos, pkt,
                     "%s primitive item at byte %u", ts == VC4_TL_TRUNCATED ? "truncated" : "bad",
                     (unsigned)tr.pos);
        return VC4_ERR_FAULT;
    }
    return VC4_OK;
}

/* Packets 32 / 33 in a rendering list: vc4kit draws them into the current
 * tile (UNVERIFIED that the hardware accepts them there; the binner's tile
 * lists use 48/49), assembled by the binner's rules (emu/prim.h). */
enum vc4_status vc4_draw_list_prims(struct vc4_v3d *v, uint32_t at, const struct vc4_cl_packet_view *pv,
                                  uint64_t budget, uint64_t *used)
{
    const char *pkt = pv->desc->name;
    if (vc4_ctl_once(v, VC4_CTL_W_UNVERIFIED))
        vc4_ctl_diag(v, 1, VC4_NOTE, VC4_DIAG_INFO, at, pkt,
                     "primitives in a rendering list are drawn into the current tile (vc4kit extension)");
    enum vc4_status ready = ready_to_draw(v, at, pkt);
    if (ready != VC4_OK)
        return ready == VC4_ERR_UNSUPPORTED ? VC4_OK : ready;
    struct vc4_prim_src src;
    switch (vc4_prim_src_read(pv, &src)) {
    case VC4_PRIM_SRC_OK:
        break;
    case VC4_PRIM_SRC_UNDECODABLE:
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_SEMANTIC, at, pkt, "cannot decode the packet");
        return VC4_ERR_FAULT;
    case VC4_PRIM_SRC_BAD_INDEX_TYPE:
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_SEMANTIC, at, pkt, "index type %u is neither 8-bit (0) nor 16-bit (1)",
                     src.index_type);
        return VC4_ERR_FAULT;
    default: /* VC4_PRIM_SRC_BAD_MODE */
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_SEMANTIC, at, pkt, "primitive mode %u does not exist", src.mode);
        return VC4_ERR_FAULT;
    }
    uint32_t nprims = vc4_prim_count(&src);
    for (uint32_t p = 0; p < nprims; p++) {
        uint32_t pos[VC4_PRIM_MAX_VERTS], idx[VC4_PRIM_MAX_VERTS];
        unsigned per = vc4_prim_positions(&src, p, pos);
        bool drop = false;
        for (unsigned i = 0; i < per && !drop; i++) {
            switch (vc4_prim_index(&v->mem, &src, pos[i], &idx[i])) {
            case VC4_PRIM_INDEX_OK:
                break;
            case VC4_PRIM_INDEX_ABOVE_MAX: /* as the binner: the primitive is dropped */
                vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                             "index %u at position %u exceeds the maximum index %u: primitive dropped", idx[i], pos[i],
                             src.max_index);
                drop = true;
                break;
            case VC4_PRIM_INDEX_OVERFLOW:
                vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at, pkt, "vertex index %u + %u overflows 32 bits",
                             src.first, pos[i]);
                return VC4_ERR_FAULT;
            default: /* VC4_PRIM_INDEX_OUTSIDE */
                vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at, pkt, "index %u is outside memory", pos[i]);
                return VC4_ERR_FAULT;
            }
        }
        /* a cycle per primitive (vc4kit's cost, UNVERIFIED): culled and
         * zero-area primitives cost no shading, and a list of 2^32 of them
         * must still end inside the budget */
        (*used)++;
        if (!drop) {
            enum vc4_status st = draw_prim(v, at, pkt, per, idx, budget, used);
            if (st != VC4_OK)
                return st;
        }
        if (*used >= budget)
            return VC4_ERR_TIMEOUT;
    }
    return VC4_OK;
}

/* ---- VG mode (emu/vg.h) -------------------------------------------------------------------- */

/* A VG vertex as the PSE takes it: X/Y with the viewport offset, Zs = 0,
 * 1/Wc = 1, no varyings (UNVERIFIED: the guide's VG payload is not public). */
static void vg_vertex(const struct vc4_ctl_render *r, int32_t x, int32_t y, struct vc4_pse_vertex *out)
{
    memset(out, 0, sizeof *out);
    out->x = x + r->vp_x_1_16px;
    out->y = y + r->vp_y_1_16px;
    out->zs = 0.0f;
    out->inv_wc = 1.0f;
    out->point_size = r->point_size;
}

enum vc4_status vc4_draw_vg_prims(struct vc4_v3d *v, uint32_t at, const struct vc4_cl_packet_view *pv,
                                  uint64_t budget, uint64_t *used)
{
    struct vc4_ctl_render *r = &v->ctl.r;
    const char *pkt = pv->desc->name;
    if (!vc4_ctl_need_frame(v, at, pkt))
        return VC4_ERR_FAULT;
    if (r->shader != VC4_CTL_SHADER_VG) {
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_SEMANTIC, at, pkt,
                     "VG primitives without VG shader state (packet 66 or 67) before them");
        return VC4_ERR_FAULT;
    }
    struct vc4_vg_src s;
    switch (vc4_vg_src_read(pv, &r->vg_fan, &s)) {
    case VC4_VG_SRC_OK:
        break;
    case VC4_VG_SRC_NO_FAN:
        vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                     "a triangle fan continuation list with no fan before it: drawn as a new fan");
        break;
    case VC4_VG_SRC_BAD_TYPE:
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_SEMANTIC, at, pkt, "VG primitive type %u does not exist", s.type);
        return VC4_ERR_FAULT;
    case VC4_VG_SRC_BAD_ITEMS:
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at, pkt,
                     "the inline list holds items that are not 32-bit X,Y coordinates");
        return VC4_ERR_FAULT;
    default:
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_SEMANTIC, at, pkt, "cannot decode the packet");
        return VC4_ERR_FAULT;
    }
    if (s.inline_clipped)
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at, pkt,
                     "more than %u inline vertices: the rest dropped (emulator bound)",
                     (unsigned)VC4_VG_MAX_INLINE_VERTS);
    bool rht = vc4_vg_is_rht(&s);
    uint32_t nprims = vc4_prim_count(&s.prim);
    for (uint32_t k = 0; k < nprims; k++) {
        uint32_t pos[VC4_PRIM_MAX_VERTS], xy[VC4_PRIM_MAX_VERTS];
        unsigned n = vc4_prim_positions(&s.prim, k, pos);
        for (unsigned i = 0; i < n; i++)
            if (!vc4_vg_coord(&v->mem, &s, pos[i], &xy[i])) {
                vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at, pkt,
                             "the coordinates of primitive %u are outside memory", k);
                return VC4_ERR_FAULT;
            }
        /* a cycle per primitive, as for packets 32/33 (vc4kit's cost, UNVERIFIED) */
        (*used)++;
        v->ctl.ct[1].prims++;
        struct vc4_pse_vertex vx[4];
        enum vc4_status st = VC4_OK;
        if (rht) {
            int32_t px[4], py[4];
            vc4_vg_rht_polygon(vc4_vg_x(xy[0]), vc4_vg_y(xy[0]), vc4_vg_x(xy[1]), vc4_vg_y(xy[1]),
                               r->rht_x_1_16px, px, py);
            for (unsigned i = 0; i < 4; i++)
                vg_vertex(r, px[i], py[i], &vx[i]);
            /* the quadrilateral as the fan (0, 1, 2), (0, 2, 3), each culled on
             * its own: the same winding unless the edge crosses the boundary */
            const struct vc4_pse_vertex *t0[3] = {&vx[0], &vx[1], &vx[2]};
            const struct vc4_pse_vertex *t1[3] = {&vx[0], &vx[2], &vx[3]};
            st = draw_triangle(v, t0, t0[2], budget, used);
            if (st == VC4_OK)
                st = draw_triangle(v, t1, t1[2], budget, used);
        } else {
            for (unsigned i = 0; i < 3; i++)
                vg_vertex(r, vc4_vg_x(xy[i]), vc4_vg_y(xy[i]), &vx[i]);
            const struct vc4_pse_vertex *vv[3] = {&vx[0], &vx[1], &vx[2]};
            st = draw_triangle(v, vv, vv[2], budget, used);
        }
        if (st != VC4_OK)
            return st;
        if (*used >= budget)
            return VC4_ERR_TIMEOUT;
    }
    vc4_vg_fan_update(&v->mem, &s, &r->vg_fan);
    return VC4_OK;
}
