/*
 * ctl.c - the CT0/CT1 control-list threads and the rendering packets (see
 * ctl.h).  Sources: hardware facts §1 (packets), §3.2-3.4 (configuration
 * packets), §4 (binner, semaphore, counters, the kernel's render list), §9
 * (fragment shading), §11 (registers); seed 002 (NV shader record,
 * varyings).
 */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "emu/tilelist.h"
#include "emu/v3d.h"

#define SEMA_MAX 7u /* CTSEMA is 3 bits */

/* ---- diagnostics ---------------------------------------------------------------- */

static const char *const unit_name[2] = {"ct0", "ct1"};

/* unit "ct0"/"ct1", location = the packet's bus address; the message names
 * the packet and its offset in the list (or sub-list). */
static void ct_diag(struct vc4_v3d *v, unsigned t, enum vc4_severity sev, enum vc4_diag_class cls,
                    uint32_t addr, const char *pkt, const char *fmt, ...) VC4_PRINTF(7, 8);
static void ct_diag(struct vc4_v3d *v, unsigned t, enum vc4_severity sev, enum vc4_diag_class cls,
                    uint32_t addr, const char *pkt, const char *fmt, ...)
{
    const struct vc4_ct *ct = &v->ctl.ct[t];
    char msg[320], where[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (ct->depth == 0)
        snprintf(where, sizeof where, "list offset %u", (unsigned)(addr - ct->start));
    else
        snprintf(where, sizeof where, "sub-list offset %u", (unsigned)(addr - ct->sub_start[ct->depth - 1]));
    struct vc4_location l = vc4_location_none();
    l.addr = addr;
    vc4_diag_emit(&v->unit_sink, sev, cls, unit_name[t], &l, "%s (%s): %s", pkt ? pkt : "packet", where,
                  msg);
}

/* One-shot warnings (per reset). */
enum {
    W_WRONG_LIST = 1u << 0,
    W_GL_MODE = 1u << 1,
    W_VG = 1u << 2,
    W_STRIDE = 1u << 3,
    W_64BIT = 1u << 4,
    W_DECIMATE = 1u << 5,
    W_FULL_GENERAL = 1u << 6,
    W_VARYINGS = 1u << 7,
    W_RHT = 1u << 8,
    W_OVERSAMPLE16 = 1u << 9,
    W_UNVERIFIED = 1u << 10,
    W_TILE_OUT = 1u << 11,
    W_VG_PRIMS = 1u << 12,
    W_COVERAGE = 1u << 13,
    W_MS_NO_DECIMATE = 1u << 14,
    W_HALT_IN_SUB = 1u << 15,
    W_BRANCH_ZERO = 1u << 16,
};

static bool once(struct vc4_v3d *v, uint32_t w)
{
    if (v->ctl.warned & w)
        return false;
    v->ctl.warned |= w;
    return true;
}

/* issue 11: a branch whose target starts with 8 zero bytes (8 Halts: memory
 * nothing wrote, e.g. a tile list the binner never placed) */
static void warn_zero_target(struct vc4_v3d *v, unsigned t, uint32_t at, const char *pkt, uint32_t target)
{
    uint8_t b[8];
    if (!vc4_mem_read(&v->mem, target, b, sizeof b))
        return; /* out of memory: the fetch there reports it */
    for (unsigned i = 0; i < sizeof b; i++)
        if (b[i])
            return;
    if (once(v, W_BRANCH_ZERO))
        ct_diag(v, t, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                "branch to 0x%08x, into zeroed memory (it reads as Halt packets): nothing was written there", target);
}

/* ---- state and registers ---------------------------------------------------------- */

static void reset_thread(struct vc4_ct *ct)
{
    uint32_t ca = ct->ca, ea = ct->ea;
    memset(ct, 0, sizeof *ct);
    ct->ca = ca;
    ct->ea = ea;
    ct->start = ca;
}

void vc4_ctl_reset(struct vc4_ctl *c)
{
    memset(c, 0, sizeof *c);
    c->r.point_size = 1.0f;
    c->r.line_width = 1.0f;
    c->r.cfg.enable_forward_facing = true;
    c->r.cfg.enable_reverse_facing = true;
    c->r.cfg.depth_func = VC4_CL_DEPTH_ALWAYS;
    c->r.plf_type = VC4_CL_PLF_TRIANGLES;
    c->r.plf_data = VC4_CL_PLF_INDEX16;
}

bool vc4_ctl_busy(const struct vc4_ctl *c)
{
    return (c->ct[0].run && !c->ct[0].err) || (c->ct[1].run && !c->ct[1].err);
}

static int thread_of(uint32_t off, uint32_t reg0)
{
    if (off == reg0)
        return 0;
    if (off == reg0 + 4)
        return 1;
    return -1;
}

bool vc4_ctl_reg_read(struct vc4_v3d *v, uint32_t offset, uint32_t *value)
{
    struct vc4_ctl *c = &v->ctl;
    int t;
    if (offset == VC4_V3D_PCS) {
        uint32_t pcs = 0;
        if (c->ct[0].run && !c->ct[0].err)
            pcs |= VC4_PCS_BMACTIVE | VC4_PCS_BMBUSY;
        if (c->ct[1].run && !c->ct[1].err)
            pcs |= VC4_PCS_RMACTIVE | VC4_PCS_RMBUSY;
        if (v->ptb.oom)
            pcs |= VC4_PCS_BMOOM;
        *value = pcs;
        return true;
    }
    if ((t = thread_of(offset, VC4_V3D_CT0CS)) >= 0) {
        const struct vc4_ct *ct = &c->ct[t];
        *value = (c->sema & 7u) << VC4_CTCS_CTSEMA_SHIFT | (ct->depth & 3u) << VC4_CTCS_CTRTSD_SHIFT |
                 (ct->run && !ct->err ? VC4_CTCS_CTRUN : 0) | (ct->depth ? VC4_CTCS_CTSUBS : 0) |
                 (ct->err ? VC4_CTCS_CTERR : 0);
        return true;
    }
    if ((t = thread_of(offset, VC4_V3D_CT0EA)) >= 0) {
        *value = c->ct[t].ea;
        return true;
    }
    if ((t = thread_of(offset, VC4_V3D_CT0CA)) >= 0) {
        *value = c->ct[t].ca;
        return true;
    }
    if ((t = thread_of(offset, VC4_V3D_CT00RA0)) >= 0) {
        *value = c->ct[t].ra[0];
        return true;
    }
    if ((t = thread_of(offset, VC4_V3D_CT0LC)) >= 0) {
        *value = c->ct[t].lc;
        return true;
    }
    if ((t = thread_of(offset, VC4_V3D_CT0PC)) >= 0) {
        *value = t == 0 ? (uint32_t)v->ptb.stats.prims_in : c->ct[t].prims;
        return true;
    }
    return false;
}

bool vc4_ctl_reg_write(struct vc4_v3d *v, uint32_t offset, uint32_t value)
{
    struct vc4_ctl *c = &v->ctl;
    int t;
    if ((t = thread_of(offset, VC4_V3D_CT0CS)) >= 0) {
        struct vc4_ct *ct = &c->ct[t];
        if (value & VC4_CTCS_CTRSTA)
            reset_thread(ct);
        /* CTRUN written: resume / pause (UNVERIFIED: drivers only reset) */
        ct->run = (value & VC4_CTCS_CTRUN) && ct->ca != ct->ea && !ct->err;
        return true;
    }
    if ((t = thread_of(offset, VC4_V3D_CT0EA)) >= 0) {
        /* writing the end address starts (or extends) the list (facts §4.2) */
        struct vc4_ct *ct = &c->ct[t];
        ct->ea = value;
        if (ct->ca != ct->ea) {
            ct->run = true;
            ct->err = false;
        }
        return true;
    }
    if ((t = thread_of(offset, VC4_V3D_CT0CA)) >= 0) {
        struct vc4_ct *ct = &c->ct[t];
        ct->ca = ct->start = value;
        ct->depth = 0;
        ct->wait_sema = ct->ptb_stall = false;
        ct->err = false;
        return true;
    }
    if ((t = thread_of(offset, VC4_V3D_CT00RA0)) >= 0) {
        c->ct[t].ra[0] = value;
        return true;
    }
    if ((t = thread_of(offset, VC4_V3D_CT0LC)) >= 0) {
        c->ct[t].lc = value;
        return true;
    }
    if ((t = thread_of(offset, VC4_V3D_CT0PC)) >= 0 || offset == VC4_V3D_PCS)
        return true; /* read-only */
    return false;
}

/* ---- end of frame --------------------------------------------------------------------- */

static void end_of_frame(struct vc4_v3d *v)
{
    uint32_t *rfc = &v->regs.val[VC4_V3D_RFC / 4];
    *rfc = (*rfc + 1) & 0xFFu;
    v->regs.val[VC4_V3D_INTCTL / 4] |= VC4_INT_FRDONE;
    v->ctl.r.frames++;
    vc4_vsi_invalidate(&v->vsi, VC4_GL_VS); /* the next frame shades its vertices again */
}

/* ---- loads and stores ------------------------------------------------------------------- */

static enum vc4_tlb_pixfmt ls_format(uint32_t f)
{
    switch (f) {
    case VC4_CL_LS_BGR565_DITHER: return VC4_TLB_PF_BGR565_DITHER;
    case VC4_CL_LS_BGR565: return VC4_TLB_PF_BGR565;
    default: return VC4_TLB_PF_RGBA8888;
    }
}

static enum vc4_tlb_pixfmt fb_format(uint32_t f)
{
    switch (f) {
    case VC4_CL_FB_BGR565_DITHER: return VC4_TLB_PF_BGR565_DITHER;
    case VC4_CL_FB_BGR565: return VC4_TLB_PF_BGR565;
    default: return VC4_TLB_PF_RGBA8888;
    }
}

/* Report a transfer's outcome; false when it faulted. */
static bool xfer_result(struct vc4_v3d *v, uint32_t at, const char *pkt, enum vc4_tlb_result r,
                        uint32_t bad, const char *what)
{
    if (r == VC4_TLB_OK)
        return true;
    if (r == VC4_TLB_UNSUPPORTED)
        ct_diag(v, 1, VC4_ERROR, VC4_DIAG_SEMANTIC, at, pkt,
                "%s: a %ux%u frame: the tiling maths places frames of 1x1 to 2048x2048 pixels", what,
                v->ctl.r.trmc.width_px, v->ctl.r.trmc.height_px);
    else
        ct_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at, pkt, "%s: address 0x%08x is outside memory", what,
                bad);
    return false;
}

static struct vc4_tlb_xfer frame_xfer(const struct vc4_ctl_render *r, uint32_t addr,
                                      enum vc4_tex_layout layout, enum vc4_tlb_pixfmt fmt)
{
    struct vc4_tlb_xfer x = {.addr = addr, .frame_w = r->trmc.width_px, .frame_h = r->trmc.height_px,
                             .tile_x = r->tile_x, .tile_y = r->tile_y, .layout = layout, .fmt = fmt};
    return x;
}

static enum vc4_tex_layout layout_of(uint32_t mf)
{
    return mf == VC4_CL_MEM_T ? VC4_TEX_T : mf == VC4_CL_MEM_LT ? VC4_TEX_LT : VC4_TEX_RASTER;
}

/* The packets that need the frame and the tile. */
static bool need_frame(struct vc4_v3d *v, uint32_t at, const char *pkt)
{
    struct vc4_ctl_render *r = &v->ctl.r;
    if (!r->have_trmc) {
        ct_diag(v, 1, VC4_ERROR, VC4_DIAG_SEMANTIC, at, pkt,
                "no Tile Rendering Mode Configuration before it (missing configuration)");
        return false;
    }
    if (!r->have_tile) {
        ct_diag(v, 1, VC4_ERROR, VC4_DIAG_SEMANTIC, at, pkt, "no Tile Coordinates before it");
        return false;
    }
    return true;
}

static bool do_load(struct vc4_v3d *v)
{
    struct vc4_ctl_render *r = &v->ctl.r;
    struct vc4_tlb *t = &v->tlb;
    uint32_t bad = 0;
    bool ok = true;
    if (r->load == VC4_CTL_LOAD_FULL) {
        const struct vc4_cl_load_full_res_tile_buffer *p = &r->load_full;
        ok = xfer_result(v, r->load_at, "Re-load Full Resolution Tile Buffer",
                         vc4_tlb_load_full(t, &v->mem, p->address, !p->disable_color_read,
                                           !p->disable_zs_read, &bad),
                         bad, "reload");
    } else if (r->load == VC4_CTL_LOAD_GENERAL) {
        const struct vc4_cl_load_tile_buffer_general *p = &r->load_general;
        const char *pkt = "Load Tile Buffer General";
        switch (p->buffer) {
        case VC4_CL_BUF_NONE:
            break;
        case VC4_CL_BUF_COLOR: {
            struct vc4_tlb_xfer x = frame_xfer(r, p->address, layout_of(p->memory_format),
                                               ls_format(p->color_format));
            ok = xfer_result(v, r->load_at, pkt, vc4_tlb_load(t, &v->mem, &x, &bad), bad, "colour load");
            break;
        }
        case VC4_CL_BUF_ZS: {
            struct vc4_tlb_xfer x = frame_xfer(r, p->address, layout_of(p->memory_format), VC4_TLB_PF_ZS);
            ok = xfer_result(v, r->load_at, pkt, vc4_tlb_load(t, &v->mem, &x, &bad), bad, "Z/stencil load");
            break;
        }
        default:
            if (once(v, W_FULL_GENERAL))
                ct_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, r->load_at, pkt,
                        "buffer %u (VG mask / full reload) is not modelled; nothing loaded", p->buffer);
            break;
        }
    }
    r->load = VC4_CTL_LOAD_NONE;
    return ok;
}

static void after_store(struct vc4_v3d *v)
{
    v->ctl.r.coords_unstored = false;
    v->code_gen++; /* memory was written: cached instruction words are checked again */
}

static bool store_general(struct vc4_v3d *v, uint32_t at, const struct vc4_cl_packet_view *pv)
{
    struct vc4_ctl_render *r = &v->ctl.r;
    struct vc4_tlb *t = &v->tlb;
    const char *pkt = pv->desc->name;
    struct vc4_cl_store_tile_buffer_general p;
    vc4_cl_decode_struct(pv, &p);
    if (!need_frame(v, at, pkt))
        return false;
    bool ok = true;
    uint32_t bad = 0;
    bool resolve = false;
    if (p.mode == VC4_CL_STORE_DECIMATE_4X && t->ms) {
        resolve = true;
    } else if (p.mode != VC4_CL_STORE_SAMPLE0 && once(v, W_DECIMATE)) {
        ct_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                "decimate mode %u without 4x multisampling is not modelled: sample 0 is stored", p.mode);
    }
    switch (p.buffer) {
    case VC4_CL_BUF_NONE:
        break;
    case VC4_CL_BUF_COLOR: {
        struct vc4_tlb_xfer x = frame_xfer(r, p.address, layout_of(p.memory_format), ls_format(p.color_format));
        x.resolve = resolve;
        ok = xfer_result(v, at, pkt, vc4_tlb_store(t, &v->mem, &x, &bad), bad, "colour store");
        break;
    }
    case VC4_CL_BUF_ZS:
    case VC4_CL_BUF_Z: {
        struct vc4_tlb_xfer x = frame_xfer(r, p.address, layout_of(p.memory_format),
                                           p.buffer == VC4_CL_BUF_Z ? VC4_TLB_PF_Z : VC4_TLB_PF_ZS);
        ok = xfer_result(v, at, pkt, vc4_tlb_store(t, &v->mem, &x, &bad), bad, "Z/stencil store");
        break;
    }
    default:
        if (once(v, W_FULL_GENERAL))
            ct_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                    "buffer %u (VG mask / full dump) is not modelled; nothing stored", p.buffer);
        break;
    }
    /* stores clear the buffers unless told not to (facts §3.3) */
    vc4_tlb_clear(t, !p.disable_color_clear, !p.disable_zs_clear, !p.disable_vg_mask_clear);
    after_store(v);
    if (p.last_tile)
        end_of_frame(v);
    return ok;
}

static bool store_ms(struct vc4_v3d *v, uint32_t at, const char *pkt, bool eof)
{
    struct vc4_ctl_render *r = &v->ctl.r;
    struct vc4_tlb *t = &v->tlb;
    if (!need_frame(v, at, pkt))
        return false;
    /* the resolved colour buffer, at the frame address and in the format of
     * the Tile Rendering Mode Configuration (facts §1 packet 24) */
    struct vc4_tlb_xfer x = frame_xfer(r, r->trmc.fb_addr, layout_of(r->trmc.memory_format),
                                       fb_format(r->trmc.color_format));
    x.resolve = t->ms && r->trmc.decimate_mode == VC4_CL_DECIMATE_4X;
    /* issue 11: a 4x frame stored with decimate 1x keeps sample 0 of each
     * pixel, silently on the hardware; almost always a forgotten decimate */
    if (t->ms && r->trmc.decimate_mode == VC4_CL_DECIMATE_1X && once(v, W_MS_NO_DECIMATE))
        ct_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                "a 4x multisample frame stored without decimation (Tile Rendering Mode Configuration decimate "
                "1x): sample 0 of each pixel is stored, the other 3 are dropped");
    if (r->trmc.decimate_mode == VC4_CL_DECIMATE_16X && once(v, W_DECIMATE))
        ct_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                "decimate 16x is not modelled: sample 0 is stored");
    uint32_t bad = 0;
    bool ok = xfer_result(v, at, pkt, vc4_tlb_store(t, &v->mem, &x, &bad), bad, "colour store");
    vc4_tlb_clear(t, true, true, true);
    after_store(v);
    if (eof)
        end_of_frame(v);
    return ok;
}

static bool store_full(struct vc4_v3d *v, uint32_t at, const struct vc4_cl_packet_view *pv)
{
    struct vc4_cl_store_full_res_tile_buffer p;
    vc4_cl_decode_struct(pv, &p);
    if (!need_frame(v, at, pv->desc->name))
        return false;
    uint32_t bad = 0;
    bool ok = xfer_result(v, at, pv->desc->name,
                          vc4_tlb_store_full(&v->tlb, &v->mem, p.address, !p.disable_color_write,
                                             !p.disable_zs_write, &bad),
                          bad, "full-resolution dump");
    if (!p.disable_clear_on_write)
        vc4_tlb_clear(&v->tlb, true, true, true);
    after_store(v);
    if (p.last_tile)
        end_of_frame(v);
    return ok;
}

static void queue_load(struct vc4_v3d *v, uint32_t at, const struct vc4_cl_packet_view *pv)
{
    struct vc4_ctl_render *r = &v->ctl.r;
    if (r->load != VC4_CTL_LOAD_NONE)
        ct_diag(v, 1, VC4_WARNING, VC4_DIAG_RULE, at, pv->desc->name,
                "a load is already pending (only one may be, facts §3.3): it is replaced");
    if (pv->opcode == VC4_CL_LOAD_FULL_RES_TILE_BUFFER) {
        r->load = VC4_CTL_LOAD_FULL;
        vc4_cl_decode_struct(pv, &r->load_full);
    } else {
        r->load = VC4_CTL_LOAD_GENERAL;
        vc4_cl_decode_struct(pv, &r->load_general);
    }
    r->load_at = at;
}

static bool tile_coordinates(struct vc4_v3d *v, uint32_t at, const struct vc4_cl_packet_view *pv)
{
    struct vc4_ctl_render *r = &v->ctl.r;
    struct vc4_cl_tile_coordinates p;
    vc4_cl_decode_struct(pv, &p);
    r->tile_x = p.column;
    r->tile_y = p.row;
    r->have_tile = true;
    if (r->have_trmc && (p.column * v->tlb.tile_w >= r->trmc.width_px ||
                         p.row * v->tlb.tile_h >= r->trmc.height_px) &&
        once(v, W_TILE_OUT))
        ct_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pv->desc->name,
                "tile (%u, %u) is outside the %ux%u frame", p.column, p.row, r->trmc.width_px,
                r->trmc.height_px);
    bool ok = true;
    if (r->load != VC4_CTL_LOAD_NONE) {
        /* the queued load runs now (facts §3.3) */
        if (r->coords_unstored)
            ct_diag(v, 1, VC4_WARNING, VC4_DIAG_RULE, at, pv->desc->name,
                    "load triggered although no store followed the previous Tile Coordinates (facts §3.3)");
        if (!r->have_trmc) {
            ct_diag(v, 1, VC4_ERROR, VC4_DIAG_SEMANTIC, r->load_at, "load",
                    "no Tile Rendering Mode Configuration before the load (missing configuration)");
            ok = false;
            r->load = VC4_CTL_LOAD_NONE;
        } else {
            ok = do_load(v);
        }
    }
    r->coords_unstored = true;
    return ok;
}

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
    if (need > nv->vertex_stride && nv->vertex_stride != 0 && once(v, W_STRIDE))
        ct_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                "the NV shader record's vertex stride (%u bytes) is smaller than a vertex (%u bytes)",
                nv->vertex_stride, need);
    uint64_t addr = (uint64_t)nv->vertex_data_addr + (uint64_t)index * nv->vertex_stride;
    uint8_t buf[16 + 12 + 4 + 4 * VC4_PSE_MAX_VARYINGS];
    if (addr > UINT32_MAX || !vc4_mem_read(&v->mem, (uint32_t)addr, buf, need)) {
        ct_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at, pkt,
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
        ct_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at, pkt, "vertex %u: the vertex shader gave no outputs", index);
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
            vc4_vpm_qpu_role(&v->vpm, i, VC4_VPM_ROLE_FS, 0);
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

static enum vc4_status draw_triangle(struct vc4_v3d *v, const struct vc4_pse_vertex *const vv[3],
                                     uint64_t budget, uint64_t *used)
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
    if (!vc4_pse_setup_triangle(vv, r->nv.fs_num_varyings, r->flat_flags, &s))
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
    vc4_pse_setup_const(p, r->nv.fs_num_varyings, &s);
    r->prims_drawn++;
    return shade_quad(v, t, &s, budget, used);
}

static enum vc4_status draw_line(struct vc4_v3d *v, const struct vc4_pse_vertex *a,
                                 const struct vc4_pse_vertex *b, uint64_t budget, uint64_t *used)
{
    struct vc4_ctl_render *r = &v->ctl.r;
    struct vc4_raster_tri t[2];
    if (!vc4_pse_line_quad(a, b, r->line_width, t, NULL))
        return VC4_OK;
    struct vc4_pse_setup s;
    if (!vc4_pse_setup_line(a, b, r->nv.fs_num_varyings, r->flat_flags, &s))
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
    if (!need_frame(v, at, pkt))
        return VC4_ERR_FAULT;
    switch (r->shader) {
    case VC4_CTL_SHADER_NV:
        return VC4_OK;
    case VC4_CTL_SHADER_NONE:
        ct_diag(v, 1, VC4_ERROR, VC4_DIAG_SEMANTIC, at, pkt,
                "no shader state before the primitives (missing configuration)");
        return VC4_ERR_FAULT;
    case VC4_CTL_SHADER_GL:
        if (v->vsi.render.valid)
            return VC4_OK;
        if (once(v, W_GL_MODE))
            ct_diag(v, 1, VC4_ERROR, VC4_DIAG_SEMANTIC, at, pkt,
                    "the GL shader record could not be read: primitives skipped");
        return VC4_ERR_UNSUPPORTED;
    default:
        if (once(v, W_VG))
            ct_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                    "VG shader state is not emulated; primitives skipped");
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
        return draw_line(v, &vx[0], &vx[1], budget, used);
    const struct vc4_pse_vertex *vv[3] = {&vx[0], &vx[1], &vx[2]};
    return draw_triangle(v, vv, budget, used);
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
        ct_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at, pkt,
                "the clipped-primitive record at 0x%08x is outside memory or malformed", rec);
        return VC4_ERR_FAULT;
    }
    if (tp->nverts == 1) {
        ct_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                "a clipped point: only lines and triangles are clipped; drawn unclipped");
        return draw_prim(v, at, pkt, tp->nverts, tp->index, budget, used);
    }
    /* a line's record holds its 2 clipped end points, a triangle's a
     * polygon of 3 or more (docs/tile-lists.md) */
    bool line = tp->nverts == 2;
    if (line != (c.nverts == 2)) {
        ct_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at, pkt,
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
    if (line)
        return draw_line(v, &poly[0], &poly[1], budget, used);
    for (unsigned i = 1; i + 1 < c.nverts; i++) {
        const struct vc4_pse_vertex *vv[3] = {&poly[0], &poly[i], &poly[i + 1]};
        enum vc4_status st = draw_triangle(v, vv, budget, used);
        if (st != VC4_OK)
            return st;
    }
    return VC4_OK;
}

/* Packets 48 / 49 of a tile list. */
static enum vc4_status tile_list_prims(struct vc4_v3d *v, uint32_t at, const struct vc4_cl_packet_view *pv,
                                       uint64_t budget, uint64_t *used)
{
    const char *pkt = pv->desc->name;
    struct vc4_tl_reader tr;
    if (vc4_tl_begin(&tr, pv->bytes, pv->length) != VC4_TL_OK) {
        ct_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at, pkt, "malformed primitive list");
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
        ct_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at + (uint32_t)tr.pos, pkt,
                "%s primitive item at byte %u", ts == VC4_TL_TRUNCATED ? "truncated" : "bad",
                (unsigned)tr.pos);
        return VC4_ERR_FAULT;
    }
    return VC4_OK;
}

/* Packets 32 / 33 in a rendering list: vc4kit draws them into the current
 * tile (UNVERIFIED that the hardware accepts them there; the binner's tile
 * lists use 48/49).  Strips, fans and loops as GL assembles them. */
static uint32_t index_at(struct vc4_v3d *v, const struct vc4_cl_indexed_primitive_list *ip, uint32_t i,
                         bool *ok)
{
    if (!ip)
        return i;
    if (ip->index_type == VC4_CL_INDEX_16BIT) {
        uint16_t h = 0;
        *ok = vc4_mem_read16(&v->mem, ip->index_addr + 2 * i, &h);
        return h;
    }
    uint8_t b = 0;
    *ok = vc4_mem_read8(&v->mem, ip->index_addr + i, &b);
    return b;
}

static enum vc4_status list_prims(struct vc4_v3d *v, uint32_t at, const struct vc4_cl_packet_view *pv,
                                  uint64_t budget, uint64_t *used)
{
    const char *pkt = pv->desc->name;
    if (once(v, W_UNVERIFIED))
        ct_diag(v, 1, VC4_NOTE, VC4_DIAG_INFO, at, pkt,
                "primitives in a rendering list are drawn into the current tile (vc4kit extension)");
    enum vc4_status ready = ready_to_draw(v, at, pkt);
    if (ready != VC4_OK)
        return ready == VC4_ERR_UNSUPPORTED ? VC4_OK : ready;
    struct vc4_cl_indexed_primitive_list ipl;
    struct vc4_cl_vertex_array_primitives vap;
    const struct vc4_cl_indexed_primitive_list *ip = NULL;
    uint32_t mode, count, first = 0;
    if (pv->opcode == VC4_CL_INDEXED_PRIMITIVE_LIST) {
        vc4_cl_decode_struct(pv, &ipl);
        ip = &ipl;
        mode = ipl.primitive_mode;
        count = ipl.length;
    } else {
        vc4_cl_decode_struct(pv, &vap);
        mode = vap.primitive_mode;
        count = vap.length;
        first = vap.first_index;
    }
    unsigned per = mode == VC4_CL_PRIM_POINTS ? 1 : mode <= VC4_CL_PRIM_LINE_STRIP ? 2 : 3;
    if (mode > VC4_CL_PRIM_TRIANGLE_FAN) {
        ct_diag(v, 1, VC4_ERROR, VC4_DIAG_SEMANTIC, at, pkt, "primitive mode %u does not exist", mode);
        return VC4_ERR_FAULT;
    }
    uint32_t nprims;
    switch (mode) {
    case VC4_CL_PRIM_LINE_LOOP: nprims = count >= 2 ? count : 0; break;
    case VC4_CL_PRIM_LINE_STRIP: nprims = count >= 2 ? count - 1 : 0; break;
    case VC4_CL_PRIM_TRIANGLE_STRIP:
    case VC4_CL_PRIM_TRIANGLE_FAN: nprims = count >= 3 ? count - 2 : 0; break;
    default: nprims = count / per; break;
    }
    for (uint32_t p = 0; p < nprims; p++) {
        uint32_t k[3] = {0, 0, 0};
        switch (mode) {
        case VC4_CL_PRIM_LINE_LOOP: k[0] = p; k[1] = (p + 1) % count; break;
        case VC4_CL_PRIM_LINE_STRIP: k[0] = p; k[1] = p + 1; break;
        case VC4_CL_PRIM_TRIANGLE_STRIP: /* odd triangles keep the winding */
            k[0] = p;
            k[1] = p & 1 ? p + 2 : p + 1;
            k[2] = p & 1 ? p + 1 : p + 2;
            break;
        case VC4_CL_PRIM_TRIANGLE_FAN: k[0] = 0; k[1] = p + 1; k[2] = p + 2; break;
        default:
            for (unsigned i = 0; i < per; i++)
                k[i] = p * per + i;
            break;
        }
        uint32_t idx[3];
        for (unsigned i = 0; i < per; i++) {
            bool ok = true;
            idx[i] = index_at(v, ip, k[i], &ok) + (ip ? 0 : first);
            if (!ok) {
                ct_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at, pkt, "index %u is outside memory", k[i]);
                return VC4_ERR_FAULT;
            }
        }
        /* a cycle per primitive (vc4kit's cost, UNVERIFIED): culled and
         * zero-area primitives cost no shading, and a list of 2^32 of them
         * must still end inside the budget */
        (*used)++;
        enum vc4_status st = draw_prim(v, at, pkt, per, idx, budget, used);
        if (st != VC4_OK)
            return st;
        if (*used >= budget)
            return VC4_ERR_TIMEOUT;
    }
    return VC4_OK;
}

/* ---- one packet of each list ------------------------------------------------------------ */

enum step { STEP_OK, STEP_STALL, STEP_STOP };

/* CT1: a rendering packet (flow control is done by the caller). */
static enum vc4_status render_packet(struct vc4_v3d *v, uint32_t at, const struct vc4_cl_packet_view *pv,
                                     uint64_t budget, uint64_t *used)
{
    struct vc4_ctl_render *r = &v->ctl.r;
    const char *pkt = pv->desc->name;
    switch (pv->opcode) {
    case VC4_CL_STORE_MS_TILE_BUFFER:
    case VC4_CL_STORE_MS_TILE_BUFFER_AND_EOF:
        return store_ms(v, at, pkt, pv->opcode == VC4_CL_STORE_MS_TILE_BUFFER_AND_EOF) ? VC4_OK
                                                                                         : VC4_ERR_FAULT;
    case VC4_CL_STORE_FULL_RES_TILE_BUFFER:
        return store_full(v, at, pv) ? VC4_OK : VC4_ERR_FAULT;
    case VC4_CL_STORE_TILE_BUFFER_GENERAL:
        return store_general(v, at, pv) ? VC4_OK : VC4_ERR_FAULT;
    case VC4_CL_LOAD_FULL_RES_TILE_BUFFER:
    case VC4_CL_LOAD_TILE_BUFFER_GENERAL:
        queue_load(v, at, pv);
        return VC4_OK;
    case VC4_CL_INDEXED_PRIMITIVE_LIST:
    case VC4_CL_VERTEX_ARRAY_PRIMITIVES:
        return list_prims(v, at, pv, budget, used);
    case VC4_CL_COMPRESSED_PRIMITIVE_LIST:
    case VC4_CL_CLIPPED_PRIMITIVE:
        return tile_list_prims(v, at, pv, budget, used);
    case VC4_CL_PRIMITIVE_LIST_FORMAT: {
        struct vc4_cl_primitive_list_format p;
        vc4_cl_decode_struct(pv, &p);
        r->plf_type = p.primitive_type;
        r->plf_data = p.data_type;
        if (p.primitive_type == VC4_CL_PLF_RHT && once(v, W_RHT))
            ct_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt, "RHT primitives are not modelled (undocumented); their items are skipped");
        return VC4_OK;
    }
    case VC4_CL_NV_SHADER_STATE: {
        struct vc4_cl_nv_shader_state p;
        vc4_cl_decode_struct(pv, &p);
        uint8_t rec[16];
        if (!vc4_mem_read(&v->mem, p.record_addr, rec, sizeof rec)) {
            ct_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at, pkt,
                    "the NV shader record at 0x%08x is outside memory", p.record_addr);
            return VC4_ERR_FAULT;
        }
        vc4_cl_nv_shader_record_unpack(rec, &r->nv);
        r->shader = VC4_CTL_SHADER_NV;
        if (r->nv.fs_num_varyings > VC4_PSE_MAX_VARYINGS && once(v, W_VARYINGS))
            ct_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                    "%u varyings: vc4kit interpolates the first %u", r->nv.fs_num_varyings,
                    VC4_PSE_MAX_VARYINGS);
        return VC4_OK;
    }
    case VC4_CL_GL_SHADER_STATE: {
        /* GL mode: the record (vcd.c); the fragment-shader fields go where
         * the NV record's are, for the rest of the pipeline */
        struct vc4_cl_gl_shader_state p;
        vc4_cl_decode_struct(pv, &p);
        struct vc4_location l = vc4_location_none();
        l.addr = at;
        r->shader = VC4_CTL_SHADER_GL;
        const struct vc4_gl_state *g = &v->vsi.render;
        if (!vc4_vcd_read_state(v, &p, &v->vsi.render, "ct1", &l))
            return VC4_ERR_FAULT;
        r->nv = (struct vc4_cl_nv_shader_record){
            .fs_single_threaded = g->rec.fs_single_threaded,
            .point_size_included = g->rec.point_size_included,
            .enable_clipping = g->rec.enable_clipping,
            .fs_num_uniforms = g->rec.fs_num_uniforms,
            .fs_num_varyings = g->rec.fs_num_varyings,
            .fs_code_addr = g->rec.fs_code_addr,
            .fs_uniforms_addr = g->rec.fs_uniforms_addr,
        };
        return VC4_OK;
    }
    case VC4_CL_VG_SHADER_STATE:
        /* facts §2.3: no open source lays out the VG shader record */
        r->shader = VC4_CTL_SHADER_VG;
        if (once(v, W_VG))
            ct_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                    "VG mode is not modelled (the VG shader record's layout is undocumented); "
                    "its primitives are skipped");
        return VC4_OK;
    case VC4_CL_VG_INLINE_SHADER_RECORD: {
        /* facts §1 [PL]: fragment shader code, flags, uniforms: decoded for
         * the diagnostic; VG primitives are not drawn */
        struct vc4_cl_vg_inline_shader_record p;
        vc4_cl_decode_struct(pv, &p);
        r->shader = VC4_CTL_SHADER_VG;
        if (once(v, W_VG))
            ct_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                    "fragment shader 0x%08x (%s-threaded), uniforms 0x%08x: VG mode is not modelled; "
                    "its primitives are skipped",
                    p.fs_code_addr, p.fs_single_threaded ? "single" : "dual", p.fs_uniforms_addr);
        return VC4_OK;
    }
    case VC4_CL_VG_COORDINATE_ARRAY_PRIMITIVES:
    case VC4_CL_VG_INLINE_PRIMITIVES:
        if (once(v, W_VG_PRIMS))
            ct_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                    "VG primitives are not modelled (their type encoding and coordinate format are "
                    "not reliably documented): skipped");
        return VC4_OK;
    case VC4_CL_CONFIGURATION_BITS:
        vc4_cl_decode_struct(pv, &r->cfg);
        if (r->cfg.rasteriser_oversample == VC4_CL_OVERSAMPLE_16X && once(v, W_OVERSAMPLE16))
            ct_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                    "16x rasteriser oversampling (VG coverage) is not modelled: pixel-centre coverage");
        if (r->cfg.coverage_pipe_select && once(v, W_COVERAGE))
            ct_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                    "the coverage pipe (VG coverage accumulation: pipe select, update mode %u, read type %u, "
                    "read mode %u) is not modelled: primitives shade as usual",
                    r->cfg.coverage_update_mode, r->cfg.coverage_read_type, r->cfg.coverage_read_mode);
        return VC4_OK;
    case VC4_CL_FLAT_SHADE_FLAGS: {
        struct vc4_cl_flat_shade_flags p;
        vc4_cl_decode_struct(pv, &p);
        r->flat_flags = p.flags;
        return VC4_OK;
    }
    case VC4_CL_POINT_SIZE: {
        struct vc4_cl_point_size p;
        vc4_cl_decode_struct(pv, &p);
        r->point_size = p.point_size;
        return VC4_OK;
    }
    case VC4_CL_LINE_WIDTH: {
        struct vc4_cl_line_width p;
        vc4_cl_decode_struct(pv, &p);
        r->line_width = p.line_width;
        return VC4_OK;
    }
    case VC4_CL_CLIP_WINDOW:
        vc4_cl_decode_struct(pv, &r->clip);
        r->clip_set = true;
        return VC4_OK;
    case VC4_CL_VIEWPORT_OFFSET: {
        struct vc4_cl_viewport_offset p;
        vc4_cl_decode_struct(pv, &p);
        r->vp_x_1_16px = p.x_1_16px;
        r->vp_y_1_16px = p.y_1_16px;
        return VC4_OK;
    }
    case VC4_CL_DEPTH_OFFSET:
        vc4_cl_decode_struct(pv, &r->depth_offset);
        return VC4_OK;
    case VC4_CL_RHT_X_BOUNDARY: /* for RHT primitives only (not modelled) */
    case VC4_CL_Z_CLIPPING_PLANES: /* applied by the binner's clipper (ptb.c) */
        return VC4_OK;
    case VC4_CL_TILE_RENDERING_MODE_CONFIG:
        vc4_cl_decode_struct(pv, &r->trmc);
        r->have_trmc = true;
        vc4_tlb_configure(&v->tlb, r->trmc.multisample_4x, r->trmc.tile_buffer_64bit);
        if (r->trmc.tile_buffer_64bit && once(v, W_64BIT))
            ct_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                    "the 64-bit (HDR) colour tile buffer is not modelled: colours stay 32-bit");
        if (r->trmc.width_px == 0 || r->trmc.height_px == 0)
            ct_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt, "a %ux%u frame", r->trmc.width_px,
                    r->trmc.height_px);
        return VC4_OK;
    case VC4_CL_CLEAR_COLORS: {
        struct vc4_cl_clear_colors p;
        vc4_cl_decode_struct(pv, &p);
        v->tlb.clear_color = (uint32_t)p.clear_color;
        v->tlb.clear_color_hi = (uint32_t)(p.clear_color >> 32);
        v->tlb.clear_z = p.clear_zs & VC4_TLB_Z_MAX;
        v->tlb.clear_vg = (uint8_t)p.clear_vg_mask;
        v->tlb.clear_stencil = (uint8_t)p.clear_stencil;
        return VC4_OK;
    }
    case VC4_CL_TILE_COORDINATES:
        return tile_coordinates(v, at, pv) ? VC4_OK : VC4_ERR_FAULT;
    default:
        if (!(pv->desc->lists & VC4_CL_LIST_RENDER) && once(v, W_WRONG_LIST))
            ct_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                    "a binning-list packet in the rendering list: ignored");
        return VC4_OK;
    }
}

/* CT0: a binning packet goes to the binner. */
static enum step bin_packet(struct vc4_v3d *v, uint32_t at, const struct vc4_cl_packet_view *pv,
                            enum vc4_status *st)
{
    struct vc4_ct *ct = &v->ctl.ct[0];
    if (!vc4_ptb_handles(pv->opcode)) {
        if (once(v, W_WRONG_LIST))
            ct_diag(v, 0, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pv->desc->name,
                    "not a binning-list packet: ignored");
        return STEP_OK;
    }
    switch (vc4_ptb_packet(v, pv, at)) {
    case VC4_PTB_STALL:
        ct->ptb_stall = true;
        return STEP_STALL;
    case VC4_PTB_ERROR:
        if (v->strict) {
            *st = VC4_ERR_RULE;
            return STEP_STOP;
        }
        break;
    default:
        break;
    }
    ct->ptb_stall = false;
    if ((pv->opcode == VC4_CL_FLUSH || pv->opcode == VC4_CL_FLUSH_ALL_STATE) && ct->sema_queued) {
        /* the queued Increment Semaphore fires once the Flush is done */
        ct->sema_queued = false;
        if (v->ctl.sema < SEMA_MAX)
            v->ctl.sema++;
    }
    return STEP_OK;
}

static void stop(struct vc4_ct *ct, bool err)
{
    ct->run = false;
    ct->err = err;
}

/* Execute the packet at CA of thread t. */
static enum step ct_step(struct vc4_v3d *v, unsigned t, uint64_t budget, uint64_t *used,
                         enum vc4_status *st)
{
    struct vc4_ctl *c = &v->ctl;
    struct vc4_ct *ct = &c->ct[t];
    uint32_t at = ct->ca, off;
    if (!vc4_mem_span(&v->mem, at, 1, &off)) {
        ct_diag(v, t, VC4_ERROR, VC4_DIAG_FAULT, at, NULL, "control-list address 0x%08x is outside memory", at);
        stop(ct, true);
        *st = VC4_ERR_FAULT;
        return STEP_STOP;
    }
    struct vc4_cl_reader rd;
    struct vc4_cl_packet_view pv;
    vc4_cl_reader_init(&rd, v->mem.ram + off, v->mem.size - off);
    if (!vc4_cl_next(&rd, &pv)) {
        const char *name = pv.desc ? pv.desc->name : NULL;
        switch (rd.error) {
        case VC4_CL_LEN_UNKNOWN_OPCODE:
            ct_diag(v, t, VC4_ERROR, VC4_DIAG_FAULT, at, NULL, "unknown opcode %u (0x%02x)", pv.opcode,
                    pv.opcode);
            break;
        case VC4_CL_LEN_TRUNCATED:
            ct_diag(v, t, VC4_ERROR, VC4_DIAG_FAULT, at, name, "the packet runs past the end of memory");
            break;
        default:
            ct_diag(v, t, VC4_ERROR, VC4_DIAG_FAULT, at, name, "malformed packet");
            break;
        }
        stop(ct, true);
        *st = VC4_ERR_FAULT;
        return STEP_STOP;
    }
    const char *pkt = pv.desc->name;
    uint32_t next = at + (uint32_t)pv.length;
    bool jumped = false;
    enum step r = STEP_OK;
    switch (pv.opcode) {
    case VC4_CL_HALT:
        /* issue 11: a Halt reached inside a sub-list ends the whole thread
         * (a rendering list then never reaches its end of frame); seen when
         * the list branched into tile-allocation memory the binner never
         * wrote (zeroed memory reads as Halts) */
        if (ct->depth && once(v, W_HALT_IN_SUB))
            ct_diag(v, t, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                    "Halt inside a sub-list (branched to at 0x%08x from 0x%08x): the thread stops here, "
                    "before its list's end%s", ct->sub_start[ct->depth - 1], ct->ra[ct->depth - 1] - 5,
                    t ? " and the frame's end" : "");
        ct->ca = next;
        ct->packets++;
        stop(ct, false);
        return STEP_STOP;
    case VC4_CL_NOP:
    case VC4_CL_MARKER:
    case VC4_CL_RESET_MARKER_COUNT:
    case VC4_CL_REPEAT_START_MARKER:
    case VC4_CL_REPEAT_FROM_START_MARKER:
        break;
    case VC4_CL_BRANCH: {
        struct vc4_cl_branch p;
        vc4_cl_decode_struct(&pv, &p);
        next = p.address;
        jumped = true;
        warn_zero_target(v, t, at, pkt, p.address);
        break;
    }
    case VC4_CL_BRANCH_TO_SUB_LIST: {
        struct vc4_cl_branch_to_sub_list p;
        vc4_cl_decode_struct(&pv, &p);
        if (ct->depth >= VC4_CT_STACK) {
            ct_diag(v, t, VC4_ERROR, VC4_DIAG_FAULT, at, pkt,
                    "sub-lists nest deeper than the %u-entry return stack", VC4_CT_STACK);
            stop(ct, true);
            *st = VC4_ERR_FAULT;
            return STEP_STOP;
        }
        warn_zero_target(v, t, at, pkt, p.address);
        ct->ra[ct->depth] = next;
        ct->sub_start[ct->depth] = p.address;
        ct->depth++;
        next = p.address;
        jumped = true;
        break;
    }
    case VC4_CL_RETURN_FROM_SUB_LIST:
        if (ct->depth) { /* ignored with an empty stack [PL] */
            next = ct->ra[--ct->depth];
            jumped = true;
        }
        break;
    case VC4_CL_INCREMENT_SEMAPHORE:
        if (t == 0)
            ct->sema_queued = true; /* fires after the next Flush (facts §1) */
        else if (c->sema < SEMA_MAX)
            c->sema++;
        break;
    case VC4_CL_WAIT_ON_SEMAPHORE:
        if (c->sema == 0) {
            ct->wait_sema = true;
            return STEP_STALL;
        }
        c->sema--;
        ct->wait_sema = false;
        break;
    default:
        if (t == 0) {
            r = bin_packet(v, at, &pv, st);
            if (r == STEP_STALL)
                return r;
            if (r == STEP_STOP) {
                stop(ct, true);
                return r;
            }
        } else {
            enum vc4_status s = render_packet(v, at, &pv, budget, used);
            if (s != VC4_OK) {
                if (s == VC4_ERR_TIMEOUT)
                    ct_diag(v, t, VC4_ERROR, VC4_DIAG_TIMEOUT, at, pkt,
                            "cycle budget exhausted while rendering its primitives");
                else if (s != VC4_ERR_FAULT || v->fault != VC4_OK)
                    ct_diag(v, t, VC4_ERROR, VC4_DIAG_FAULT, at, pkt,
                            "stopped: %s while shading its primitives", vc4_status_name(s));
                vc4_fsi_abort(v);
                stop(ct, true);
                *st = s;
                return STEP_STOP;
            }
        }
        break;
    }
    ct->packets++;
    if (ct->depth == 0 && !jumped && at < ct->ea && next > ct->ea) {
        ct_diag(v, t, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                "the packet runs past the end address 0x%08x", ct->ea);
        ct->ca = next;
        stop(ct, false);
        return STEP_STOP;
    }
    ct->ca = next;
    if (ct->depth == 0 && ct->ca == ct->ea)
        stop(ct, false);
    return r;
}

/* The name of the packet at addr (for diagnostics), or NULL. */
static const char *packet_at(const struct vc4_v3d *v, uint32_t addr)
{
    uint8_t op;
    if (!vc4_mem_read8(&v->mem, addr, &op))
        return NULL;
    const struct vc4_cl_packet_desc *d = vc4_cl_packet(op);
    return d ? d->name : NULL;
}

static enum vc4_status ctl_run(struct vc4_v3d *v, uint64_t budget, uint64_t *used);

enum vc4_status vc4_ctl_run(struct vc4_v3d *v, uint64_t budget, uint64_t *used)
{
    /* vertex and coordinate shading (vsi.c) count their QPU cycles against
     * this run's budget; the host may have changed vertex data since the
     * last run, so vertices are shaded again */
    vc4_vsi_invalidate(&v->vsi, VC4_GL_VS);
    v->vsi.budget = budget;
    v->vsi.used = used;
    enum vc4_status st = ctl_run(v, budget, used);
    v->vsi.used = NULL;
    return st;
}

static enum vc4_status ctl_run(struct vc4_v3d *v, uint64_t budget, uint64_t *used)
{
    struct vc4_ctl *c = &v->ctl;
    enum vc4_status st = VC4_OK;
    v->fault = VC4_OK;
    for (bool progress = true; progress;) {
        progress = false;
        for (unsigned t = 0; t < 2; t++) {
            struct vc4_ct *ct = &c->ct[t];
            while (ct->run && !ct->err) {
                if (*used >= budget) {
                    ct_diag(v, t, VC4_ERROR, VC4_DIAG_TIMEOUT, ct->ca, packet_at(v, ct->ca),
                            "cycle budget exhausted: the list has not ended after %llu packets (a loop?)",
                            (unsigned long long)ct->packets);
                    return VC4_ERR_TIMEOUT;
                }
                (*used)++;
                c->cycles++;
                enum step r = ct_step(v, t, budget, used, &st);
                if (r == STEP_STALL)
                    break;
                progress = true;
                if (st != VC4_OK)
                    return st;
                if (v->fault != VC4_OK) { /* a strict-mode rule error while shading */
                    stop(ct, true);
                    return v->fault;
                }
                if (t == 0 && c->sema && c->ct[1].wait_sema)
                    break; /* let the rendering thread go on */
            }
        }
    }
    return VC4_OK;
}
