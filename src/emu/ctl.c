/*
 * ctl.c - the CT0/CT1 control-list threads and the rendering packets (see
 * ctl.h): one handler per rendering packet in a table (render_handlers);
 * drawing is draw.c's.  Sources: hardware facts §1 (packets), §3.2-3.4
 * (configuration packets), §4 (binner, semaphore, counters, the kernel's
 * render list), §11 (registers); seed 002 (NV shader record).
 */
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "emu/draw.h"
#include "emu/v3d.h"

#define SEMA_MAX 7u /* CTSEMA is 3 bits */

/* ---- diagnostics ---------------------------------------------------------------- */

static const char *const unit_name[2] = {"ct0", "ct1"};

/* unit "ct0"/"ct1", location = the packet's bus address; the message names
 * the packet and its offset in the list (or sub-list). */
void vc4_ctl_diag(struct vc4_v3d *v, unsigned t, enum vc4_severity sev, enum vc4_diag_class cls, uint32_t addr,
                  const char *pkt, const char *fmt, ...)
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

bool vc4_ctl_once(struct vc4_v3d *v, uint32_t w)
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
    if (vc4_ctl_once(v, VC4_CTL_W_BRANCH_ZERO))
        vc4_ctl_diag(v, t, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
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
            pcs |= VC4_V3D_PCS_BMACTIVE | VC4_V3D_PCS_BMBUSY;
        if (c->ct[1].run && !c->ct[1].err)
            pcs |= VC4_V3D_PCS_RMACTIVE | VC4_V3D_PCS_RMBUSY;
        if (v->ptb.oom)
            pcs |= VC4_V3D_PCS_BMOOM;
        *value = pcs;
        return true;
    }
    if ((t = thread_of(offset, VC4_V3D_CT0CS)) >= 0) {
        const struct vc4_ct *ct = &c->ct[t];
        *value = (c->sema & 7u) << VC4_V3D_CTCS_CTSEMA_SHIFT | (ct->depth & 3u) << VC4_V3D_CTCS_CTRTSD_SHIFT |
                 (ct->run && !ct->err ? VC4_V3D_CTCS_CTRUN : 0) | (ct->depth ? VC4_V3D_CTCS_CTSUBS : 0) |
                 (ct->err ? VC4_V3D_CTCS_CTERR : 0);
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
        if (value & VC4_V3D_CTCS_CTRSTA)
            reset_thread(ct);
        /* CTRUN written: resume / pause (UNVERIFIED: drivers only reset) */
        ct->run = (value & VC4_V3D_CTCS_CTRUN) && ct->ca != ct->ea && !ct->err;
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
    v->regs.val[VC4_V3D_INTCTL / 4] |= VC4_V3D_INT_FRDONE;
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
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_SEMANTIC, at, pkt,
                     "%s: a %ux%u frame: the tiling maths places frames of 1x1 to 2048x2048 pixels", what,
                     v->ctl.r.trmc.width_px, v->ctl.r.trmc.height_px);
    else
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, at, pkt, "%s: address 0x%08x is outside memory", what,
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
bool vc4_ctl_need_frame(struct vc4_v3d *v, uint32_t at, const char *pkt)
{
    struct vc4_ctl_render *r = &v->ctl.r;
    if (!r->have_trmc) {
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_SEMANTIC, at, pkt,
                     "no Tile Rendering Mode Configuration before it (missing configuration)");
        return false;
    }
    if (!r->have_tile) {
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_SEMANTIC, at, pkt, "no Tile Coordinates before it");
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
            if (vc4_ctl_once(v, VC4_CTL_W_FULL_GENERAL))
                vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, r->load_at, pkt,
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
    vc4_cl_decode_store_tile_buffer_general(pv, &p);
    if (!vc4_ctl_need_frame(v, at, pkt))
        return false;
    bool ok = true;
    uint32_t bad = 0;
    bool resolve = false;
    if (p.mode == VC4_CL_STORE_DECIMATE_4X && t->ms) {
        resolve = true;
    } else if (p.mode != VC4_CL_STORE_SAMPLE0 && vc4_ctl_once(v, VC4_CTL_W_DECIMATE)) {
        vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
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
        if (vc4_ctl_once(v, VC4_CTL_W_FULL_GENERAL))
            vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
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
    if (!vc4_ctl_need_frame(v, at, pkt))
        return false;
    /* the resolved colour buffer, at the frame address and in the format of
     * the Tile Rendering Mode Configuration (facts §1 packet 24) */
    struct vc4_tlb_xfer x = frame_xfer(r, r->trmc.fb_addr, layout_of(r->trmc.memory_format),
                                       fb_format(r->trmc.color_format));
    x.resolve = t->ms && r->trmc.decimate_mode == VC4_CL_DECIMATE_4X;
    /* issue 11: a 4x frame stored with decimate 1x keeps sample 0 of each
     * pixel, silently on the hardware; almost always a forgotten decimate */
    if (t->ms && r->trmc.decimate_mode == VC4_CL_DECIMATE_1X && vc4_ctl_once(v, VC4_CTL_W_MS_NO_DECIMATE))
        vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
                     "a 4x multisample frame stored without decimation (Tile Rendering Mode Configuration "
                     "decimate 1x): sample 0 of each pixel is stored, the other 3 are dropped");
    if (r->trmc.decimate_mode == VC4_CL_DECIMATE_16X && vc4_ctl_once(v, VC4_CTL_W_DECIMATE))
        vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
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
    vc4_cl_decode_store_full_res_tile_buffer(pv, &p);
    if (!vc4_ctl_need_frame(v, at, pv->desc->name))
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
        vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_RULE, at, pv->desc->name,
                     "a load is already pending (only one may be, facts §3.3): it is replaced");
    if (pv->opcode == VC4_CL_LOAD_FULL_RES_TILE_BUFFER) {
        r->load = VC4_CTL_LOAD_FULL;
        vc4_cl_decode_load_full_res_tile_buffer(pv, &r->load_full);
    } else {
        r->load = VC4_CTL_LOAD_GENERAL;
        vc4_cl_decode_load_tile_buffer_general(pv, &r->load_general);
    }
    r->load_at = at;
}

static bool tile_coordinates(struct vc4_v3d *v, uint32_t at, const struct vc4_cl_packet_view *pv)
{
    struct vc4_ctl_render *r = &v->ctl.r;
    struct vc4_cl_tile_coordinates p;
    vc4_cl_decode_tile_coordinates(pv, &p);
    r->tile_x = p.column;
    r->tile_y = p.row;
    r->have_tile = true;
    if (r->have_trmc && (p.column * v->tlb.tile_w >= r->trmc.width_px ||
                         p.row * v->tlb.tile_h >= r->trmc.height_px) &&
        vc4_ctl_once(v, VC4_CTL_W_TILE_OUT))
        vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pv->desc->name,
                     "tile (%u, %u) is outside the %ux%u frame", p.column, p.row, r->trmc.width_px,
                     r->trmc.height_px);
    bool ok = true;
    if (r->load != VC4_CTL_LOAD_NONE) {
        /* the queued load runs now (facts §3.3) */
        if (r->coords_unstored)
            vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_RULE, at, pv->desc->name,
                         "load triggered although no store followed the previous Tile Coordinates (facts §3.3)");
        if (!r->have_trmc) {
            vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_SEMANTIC, r->load_at, "load",
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

/* ---- one packet of each list ------------------------------------------------------------ */

enum step { STEP_OK, STEP_STALL, STEP_STOP };

/* ---- CT1: the rendering packets, one handler each ---------------------------------------- */

/* One rendering packet being executed. */
struct rpkt {
    struct vc4_v3d *v;
    uint32_t at;                           /* its bus address */
    const struct vc4_cl_packet_view *pv;
    const char *name;
    uint64_t budget, *used;                /* cycles, for the drawing packets */
};

static enum vc4_status r_store_ms(const struct rpkt *c)
{
    bool eof = c->pv->opcode == VC4_CL_STORE_MS_TILE_BUFFER_AND_EOF;
    return store_ms(c->v, c->at, c->name, eof) ? VC4_OK : VC4_ERR_FAULT;
}

static enum vc4_status r_store_full(const struct rpkt *c)
{
    return store_full(c->v, c->at, c->pv) ? VC4_OK : VC4_ERR_FAULT;
}

static enum vc4_status r_store_general(const struct rpkt *c)
{
    return store_general(c->v, c->at, c->pv) ? VC4_OK : VC4_ERR_FAULT;
}

static enum vc4_status r_load(const struct rpkt *c)
{
    queue_load(c->v, c->at, c->pv);
    return VC4_OK;
}

static enum vc4_status r_list_prims(const struct rpkt *c)
{
    return vc4_draw_list_prims(c->v, c->at, c->pv, c->budget, c->used);
}

static enum vc4_status r_tile_list_prims(const struct rpkt *c)
{
    return vc4_draw_tile_list_prims(c->v, c->at, c->pv, c->budget, c->used);
}

static enum vc4_status r_plf(const struct rpkt *c)
{
    struct vc4_v3d *v = c->v;
    struct vc4_ctl_render *r = &v->ctl.r;
    struct vc4_cl_primitive_list_format p;
    vc4_cl_decode_primitive_list_format(c->pv, &p);
    r->plf_type = p.primitive_type;
    r->plf_data = p.data_type;
    /* RHT and 32-bit X/Y data come with VG primitives (42), which carry
     * their own type and coordinates (emu/vg.h) */
    if (p.primitive_type == VC4_CL_PLF_RHT && p.data_type != VC4_CL_PLF_XY32 &&
        vc4_ctl_once(v, VC4_CTL_W_RHT))
        vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, c->at, c->name,
                     "RHT primitives with index data: RHTs are VG primitives with 32-bit X/Y data");
    return VC4_OK;
}

static enum vc4_status r_nv_shader_state(const struct rpkt *c)
{
    struct vc4_v3d *v = c->v;
    struct vc4_ctl_render *r = &v->ctl.r;
    struct vc4_cl_nv_shader_state p;
    vc4_cl_decode_nv_shader_state(c->pv, &p);
    uint8_t rec[16];
    if (!vc4_mem_read(&v->mem, p.record_addr, rec, sizeof rec)) {
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, c->at, c->name,
                     "the NV shader record at 0x%08x is outside memory", p.record_addr);
        return VC4_ERR_FAULT;
    }
    vc4_cl_nv_shader_record_unpack(rec, &r->nv);
    r->shader = VC4_CTL_SHADER_NV;
    if (r->nv.fs_num_varyings > VC4_PSE_MAX_VARYINGS && vc4_ctl_once(v, VC4_CTL_W_VARYINGS))
        vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, c->at, c->name,
                     "%u varyings: vc4kit interpolates the first %u", r->nv.fs_num_varyings,
                     VC4_PSE_MAX_VARYINGS);
    return VC4_OK;
}

/* GL mode: the record (vcd.c); the fragment-shader fields go where the NV
 * record's are, for the rest of the pipeline */
static enum vc4_status r_gl_shader_state(const struct rpkt *c)
{
    struct vc4_v3d *v = c->v;
    struct vc4_ctl_render *r = &v->ctl.r;
    struct vc4_cl_gl_shader_state p;
    vc4_cl_decode_gl_shader_state(c->pv, &p);
    struct vc4_location l = vc4_location_none();
    l.addr = c->at;
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

/* VG mode: the record's fragment-shader fields go where the NV record's
 * are, for the rest of the pipeline; no vertex data (emu/vg.h) */
static void vg_fs(struct vc4_v3d *v, bool single, uint32_t nunif, uint32_t nvary, uint32_t code, uint32_t unif)
{
    struct vc4_ctl_render *r = &v->ctl.r;
    r->shader = VC4_CTL_SHADER_VG;
    r->nv = (struct vc4_cl_nv_shader_record){
        .fs_single_threaded = single,
        .fs_num_uniforms = nunif,
        .fs_num_varyings = nvary,
        .fs_code_addr = code,
        .fs_uniforms_addr = unif,
    };
}

/* Packet 66: the VG shader record as PeterLemon's demos lay it out (cl
 * table VC4_CL_REC_VG_SHADER; UNVERIFIED beyond them, facts §2.3). */
static enum vc4_status r_vg_shader_state(const struct rpkt *c)
{
    struct vc4_v3d *v = c->v;
    struct vc4_cl_vg_shader_state p;
    vc4_cl_decode_vg_shader_state(c->pv, &p);
    const struct vc4_cl_record_desc *rd = vc4_cl_record(VC4_CL_REC_VG_SHADER);
    uint8_t rec[16];
    if (!vc4_mem_read(&v->mem, p.record_addr, rec, rd->layout.size)) {
        vc4_ctl_diag(v, 1, VC4_ERROR, VC4_DIAG_FAULT, c->at, c->name,
                     "the VG shader record at 0x%08x is outside memory", p.record_addr);
        return VC4_ERR_FAULT;
    }
    struct vc4_cl_vg_shader_record vg;
    vc4_cl_vg_shader_record_unpack(rec, &vg);
    vg_fs(v, vg.fs_single_threaded, vg.fs_num_uniforms, vg.fs_num_varyings, vg.fs_code_addr, vg.fs_uniforms_addr);
    if (vg.fs_num_varyings && vc4_ctl_once(v, VC4_CTL_W_VARYINGS))
        vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, c->at, c->name,
                     "%u varyings in VG mode: VG vertices carry only X/Y, the varyings read 0 (UNVERIFIED)",
                     vg.fs_num_varyings);
    return VC4_OK;
}

/* Packet 67 [PL]: fragment shader code and flags, uniforms; no varyings */
static enum vc4_status r_vg_inline_shader_record(const struct rpkt *c)
{
    struct vc4_cl_vg_inline_shader_record p;
    vc4_cl_decode_vg_inline_shader_record(c->pv, &p);
    vg_fs(c->v, p.fs_single_threaded, 0, 0, p.fs_code_addr, p.fs_uniforms_addr);
    return VC4_OK;
}

static enum vc4_status r_vg_prims(const struct rpkt *c)
{
    return vc4_draw_vg_prims(c->v, c->at, c->pv, c->budget, c->used);
}

/* Packet 100: the RHT X boundary, s16 12.4 (emu/vg.h) */
static enum vc4_status r_rht_x_boundary(const struct rpkt *c)
{
    struct vc4_cl_rht_x_boundary p;
    vc4_cl_decode_rht_x_boundary(c->pv, &p);
    c->v->ctl.r.rht_x_1_16px = p.x_boundary;
    return VC4_OK;
}

static enum vc4_status r_config_bits(const struct rpkt *c)
{
    struct vc4_v3d *v = c->v;
    struct vc4_ctl_render *r = &v->ctl.r;
    vc4_cl_decode_configuration_bits(c->pv, &r->cfg);
    if (r->cfg.rasteriser_oversample == VC4_CL_OVERSAMPLE_16X && vc4_ctl_once(v, VC4_CTL_W_OVERSAMPLE16))
        vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, c->at, c->name,
                     "16x rasteriser oversampling (VG coverage) is not modelled: pixel-centre coverage");
    if (r->cfg.coverage_pipe_select && vc4_ctl_once(v, VC4_CTL_W_COVERAGE))
        vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, c->at, c->name,
                     "the coverage pipe (VG coverage accumulation: pipe select, update mode %u, read type %u, "
                     "read mode %u) is not modelled: primitives shade as usual",
                     r->cfg.coverage_update_mode, r->cfg.coverage_read_type, r->cfg.coverage_read_mode);
    return VC4_OK;
}

static enum vc4_status r_flat_shade_flags(const struct rpkt *c)
{
    struct vc4_cl_flat_shade_flags p;
    vc4_cl_decode_flat_shade_flags(c->pv, &p);
    c->v->ctl.r.flat_flags = p.flags;
    return VC4_OK;
}

static enum vc4_status r_point_size(const struct rpkt *c)
{
    struct vc4_cl_point_size p;
    vc4_cl_decode_point_size(c->pv, &p);
    c->v->ctl.r.point_size = p.point_size;
    return VC4_OK;
}

static enum vc4_status r_line_width(const struct rpkt *c)
{
    struct vc4_cl_line_width p;
    vc4_cl_decode_line_width(c->pv, &p);
    c->v->ctl.r.line_width = p.line_width;
    return VC4_OK;
}

static enum vc4_status r_clip_window(const struct rpkt *c)
{
    struct vc4_ctl_render *r = &c->v->ctl.r;
    vc4_cl_decode_clip_window(c->pv, &r->clip);
    r->clip_set = true;
    return VC4_OK;
}

static enum vc4_status r_viewport_offset(const struct rpkt *c)
{
    struct vc4_ctl_render *r = &c->v->ctl.r;
    struct vc4_cl_viewport_offset p;
    vc4_cl_decode_viewport_offset(c->pv, &p);
    r->vp_x_1_16px = p.x_1_16px;
    r->vp_y_1_16px = p.y_1_16px;
    return VC4_OK;
}

static enum vc4_status r_depth_offset(const struct rpkt *c)
{
    vc4_cl_decode_depth_offset(c->pv, &c->v->ctl.r.depth_offset);
    return VC4_OK;
}

/* Z clipping planes (applied by the binner's clipper, ptb.c) */
static enum vc4_status r_ignored(const struct rpkt *c)
{
    (void)c;
    return VC4_OK;
}

static enum vc4_status r_render_config(const struct rpkt *c)
{
    struct vc4_v3d *v = c->v;
    struct vc4_ctl_render *r = &v->ctl.r;
    vc4_cl_decode_tile_rendering_mode_config(c->pv, &r->trmc);
    r->have_trmc = true;
    vc4_tlb_configure(&v->tlb, r->trmc.multisample_4x, r->trmc.tile_buffer_64bit);
    if (r->trmc.tile_buffer_64bit && vc4_ctl_once(v, VC4_CTL_W_64BIT))
        vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, c->at, c->name,
                     "the 64-bit (HDR) colour tile buffer is not modelled: colours stay 32-bit");
    if (r->trmc.width_px == 0 || r->trmc.height_px == 0)
        vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, c->at, c->name, "a %ux%u frame", r->trmc.width_px,
                     r->trmc.height_px);
    return VC4_OK;
}

static enum vc4_status r_clear_colors(const struct rpkt *c)
{
    struct vc4_tlb *t = &c->v->tlb;
    struct vc4_cl_clear_colors p;
    vc4_cl_decode_clear_colors(c->pv, &p);
    t->clear_color = (uint32_t)p.clear_color;
    t->clear_color_hi = (uint32_t)(p.clear_color >> 32);
    t->clear_z = p.clear_zs & VC4_TLB_Z_MAX;
    t->clear_vg = (uint8_t)p.clear_vg_mask;
    t->clear_stencil = (uint8_t)p.clear_stencil;
    return VC4_OK;
}

static enum vc4_status r_tile_coordinates(const struct rpkt *c)
{
    return tile_coordinates(c->v, c->at, c->pv) ? VC4_OK : VC4_ERR_FAULT;
}

/* The rendering packets CT1 executes itself (flow control, Halt, NOP and the
 * semaphore are done by ct_step); any other is a binning-list packet. */
static enum vc4_status (*const render_handlers[VC4_CL_OPCODE_LIMIT])(const struct rpkt *c) = {
    [VC4_CL_STORE_MS_TILE_BUFFER] = r_store_ms,
    [VC4_CL_STORE_MS_TILE_BUFFER_AND_EOF] = r_store_ms,
    [VC4_CL_STORE_FULL_RES_TILE_BUFFER] = r_store_full,
    [VC4_CL_STORE_TILE_BUFFER_GENERAL] = r_store_general,
    [VC4_CL_LOAD_FULL_RES_TILE_BUFFER] = r_load,
    [VC4_CL_LOAD_TILE_BUFFER_GENERAL] = r_load,
    [VC4_CL_INDEXED_PRIMITIVE_LIST] = r_list_prims,
    [VC4_CL_VERTEX_ARRAY_PRIMITIVES] = r_list_prims,
    [VC4_CL_COMPRESSED_PRIMITIVE_LIST] = r_tile_list_prims,
    [VC4_CL_CLIPPED_PRIMITIVE] = r_tile_list_prims,
    [VC4_CL_PRIMITIVE_LIST_FORMAT] = r_plf,
    [VC4_CL_NV_SHADER_STATE] = r_nv_shader_state,
    [VC4_CL_GL_SHADER_STATE] = r_gl_shader_state,
    [VC4_CL_VG_SHADER_STATE] = r_vg_shader_state,
    [VC4_CL_VG_INLINE_SHADER_RECORD] = r_vg_inline_shader_record,
    [VC4_CL_VG_COORDINATE_ARRAY_PRIMITIVES] = r_vg_prims,
    [VC4_CL_VG_INLINE_PRIMITIVES] = r_vg_prims,
    [VC4_CL_CONFIGURATION_BITS] = r_config_bits,
    [VC4_CL_FLAT_SHADE_FLAGS] = r_flat_shade_flags,
    [VC4_CL_POINT_SIZE] = r_point_size,
    [VC4_CL_LINE_WIDTH] = r_line_width,
    [VC4_CL_CLIP_WINDOW] = r_clip_window,
    [VC4_CL_VIEWPORT_OFFSET] = r_viewport_offset,
    [VC4_CL_DEPTH_OFFSET] = r_depth_offset,
    [VC4_CL_RHT_X_BOUNDARY] = r_rht_x_boundary,
    [VC4_CL_Z_CLIPPING_PLANES] = r_ignored,
    [VC4_CL_TILE_RENDERING_MODE_CONFIG] = r_render_config,
    [VC4_CL_CLEAR_COLORS] = r_clear_colors,
    [VC4_CL_TILE_COORDINATES] = r_tile_coordinates,
};

/* CT1: a rendering packet (flow control is done by the caller). */
static enum vc4_status render_packet(struct vc4_v3d *v, uint32_t at, const struct vc4_cl_packet_view *pv,
                                     uint64_t budget, uint64_t *used)
{
    const struct rpkt c = {.v = v, .at = at, .pv = pv, .name = pv->desc->name, .budget = budget, .used = used};
    if (render_handlers[pv->opcode]) /* opcodes are one byte: the table covers them all */
        return render_handlers[pv->opcode](&c);
    if (!(pv->desc->lists & VC4_CL_LIST_RENDER) && vc4_ctl_once(v, VC4_CTL_W_WRONG_LIST))
        vc4_ctl_diag(v, 1, VC4_WARNING, VC4_DIAG_SEMANTIC, at, c.name,
                     "a binning-list packet in the rendering list: ignored");
    return VC4_OK;
}

/* CT0: a binning packet goes to the binner. */
static enum step bin_packet(struct vc4_v3d *v, uint32_t at, const struct vc4_cl_packet_view *pv,
                            enum vc4_status *st)
{
    struct vc4_ct *ct = &v->ctl.ct[0];
    if (!vc4_ptb_handles(pv->opcode)) {
        if (vc4_ctl_once(v, VC4_CTL_W_WRONG_LIST))
            vc4_ctl_diag(v, 0, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pv->desc->name,
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
        vc4_ctl_diag(v, t, VC4_ERROR, VC4_DIAG_FAULT, at, NULL, "control-list address 0x%08x is outside memory", at);
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
            vc4_ctl_diag(v, t, VC4_ERROR, VC4_DIAG_FAULT, at, NULL, "unknown opcode %u (0x%02x)", pv.opcode,
                         pv.opcode);
            break;
        case VC4_CL_LEN_TRUNCATED:
            vc4_ctl_diag(v, t, VC4_ERROR, VC4_DIAG_FAULT, at, name, "the packet runs past the end of memory");
            break;
        default:
            vc4_ctl_diag(v, t, VC4_ERROR, VC4_DIAG_FAULT, at, name, "malformed packet");
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
        if (ct->depth && vc4_ctl_once(v, VC4_CTL_W_HALT_IN_SUB))
            vc4_ctl_diag(v, t, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
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
        vc4_cl_decode_branch(&pv, &p);
        next = p.address;
        jumped = true;
        warn_zero_target(v, t, at, pkt, p.address);
        break;
    }
    case VC4_CL_BRANCH_TO_SUB_LIST: {
        struct vc4_cl_branch_to_sub_list p;
        vc4_cl_decode_branch_to_sub_list(&pv, &p);
        if (ct->depth >= VC4_CT_STACK) {
            vc4_ctl_diag(v, t, VC4_ERROR, VC4_DIAG_FAULT, at, pkt,
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
                    vc4_ctl_diag(v, t, VC4_ERROR, VC4_DIAG_TIMEOUT, at, pkt,
                                 "cycle budget exhausted while rendering its primitives");
                else if (s != VC4_ERR_FAULT || v->fault != VC4_OK)
                    vc4_ctl_diag(v, t, VC4_ERROR, VC4_DIAG_FAULT, at, pkt,
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
        vc4_ctl_diag(v, t, VC4_WARNING, VC4_DIAG_SEMANTIC, at, pkt,
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
                    vc4_ctl_diag(v, t, VC4_ERROR, VC4_DIAG_TIMEOUT, ct->ca, packet_at(v, ct->ca),
                                 "cycle budget exhausted: the list has not ended after %llu packets (a loop?)",
                                 (unsigned long long)ct->packets);
                    return VC4_ERR_TIMEOUT;
                }
                (*used)++;
                c->cycles++;
                /* A packet is not split: the shading it causes (the vertices of
                 * a GL primitive, the fragments of a tile's primitives) ends
                 * before the run may stop, past this run's budget if need be,
                 * so that the next vc4_emu_run goes on at the next packet
                 * (regression: in slices of a few cycles the rendering list
                 * stopped with an error inside a tile's primitives).  A
                 * shader that never ends is still stopped, by the device's
                 * own budget (vc4_emu_options.max_cycles). */
                uint64_t packet_budget = budget;
                if (packet_budget - *used < v->default_budget)
                    packet_budget = *used + v->default_budget;
                v->vsi.budget = packet_budget;
                enum step r = ct_step(v, t, packet_budget, used, &st);
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
