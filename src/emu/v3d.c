/*
 * v3d.c - the emulated V3D device and the public API (vc4kit/emu.h):
 * creation, bus memory for hosts, register dispatch, running, the rendered
 * frame and rendering insight.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/tilelist.h"
#include "emu/v3d.h"
#include "emu/jit.h"
#include "emu/par.h"
#include "tex/tiling.h"

/* ---- diagnostics --------------------------------------------------------- */

static void count_diag(void *user, const struct vc4_diag *d)
{
    struct vc4_v3d *v = user;
    if (d->severity == VC4_ERROR)
        v->stats.errors++;
    else if (d->severity == VC4_WARNING)
        v->stats.warnings++;
    if (v->sink.fn)
        v->sink.fn(v->sink.user, d);
}

void vc4_v3d_qpu_diag(struct vc4_v3d *v, const struct vc4_qpu *q, enum vc4_severity sev,
                      enum vc4_diag_class cls, const char *rule, const char *source,
                      const char *fmt, ...)
{
    char msg[256], dis[160] = "(unreadable)";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    struct vc4_icache_entry *e;
    if (vc4_qpu_fetch(v, q->pc, &e))
        vc4_qpu_disasm(&e->in, q->pc, 0, dis, sizeof dis);
    struct vc4_location l = vc4_location_none();
    l.addr = q->pc;
    l.qpu = (int)q->num;
    /* a fragment shader's QPU thread (fsi.c); 0 otherwise */
    l.thread = vc4_fsi_owns(&v->fsi, q->num) ? v->fsi.q[q->num].cur : 0;
    if (rule)
        vc4_diag_rule(&v->unit_sink, sev, "qpu", rule, source, &l, "QPU %u: %s: %s", q->num, msg, dis);
    else
        vc4_diag_emit(&v->unit_sink, sev, cls, "qpu", &l, "QPU %u: %s: %s", q->num, msg, dis);
}

/* ---- life cycle ---------------------------------------------------------- */

struct vc4_emu *vc4_emu_create(const struct vc4_emu_options *opts)
{
    struct vc4_emu_options o = opts ? *opts : (struct vc4_emu_options){0};
    struct vc4_location none = vc4_location_none();
    if (o.mem_size == 0)
        o.mem_size = VC4_EMU_DEFAULT_MEM_SIZE;
    if (o.num_qpus == 0)
        o.num_qpus = VC4_V3D_DEFAULT_QPUS;
    if (o.max_cycles == 0)
        o.max_cycles = VC4_V3D_DEFAULT_BUDGET;
    if (o.num_qpus > VC4_V3D_MAX_QPUS || o.mem_size > VC4_BUS_OFFSET_MASK + 1u) {
        vc4_diag_emit(&o.sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "emu", &none,
                      "bad options: %u QPUs (1..%u), %u bytes of memory (at most 1 GiB)",
                      o.num_qpus, VC4_V3D_MAX_QPUS, o.mem_size);
        return NULL;
    }
    /* (aligned as its QPUs' register vectors are: qpu.h) */
    void *block;
    struct vc4_emu *emu = vc4_calloc_aligned(o.alloc, sizeof *emu, _Alignof(struct vc4_emu), &block);
    if (!emu)
        return NULL;
    emu->block = block;
    struct vc4_v3d *v = &emu->v3d;
    v->alloc = o.alloc;
    vc4_vsi_init(&v->vsi, o.alloc);
    v->sink = o.sink;
    v->unit_sink = (struct vc4_diag_sink){count_diag, v};
    v->strict = o.strict;
#ifdef VC4KIT_CYCLE_BY_CYCLE
    v->cycle_by_cycle = true; /* a build for running every test on the reference scheduler */
#else
    v->cycle_by_cycle = o.cycle_by_cycle;
#endif
    v->num_qpus = o.num_qpus;
    v->default_budget = o.max_cycles;
    v->alu = &vc4_alu_kernels_exact;
    if (vc4_mem_init(&v->mem, o.mem_size, o.alloc) != VC4_OK ||
        vc4_icache_init(&v->icache, o.alloc) != VC4_OK) {
        vc4_diag_emit(&o.sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "emu", &none,
                      "cannot allocate %u bytes of emulated memory", o.mem_size);
        vc4_emu_destroy(emu);
        return NULL;
    }
#ifdef VC4KIT_JIT_FORCE
    /* a build for running every test on compiled code (CMake VC4KIT_JIT=FORCE) */
    if (o.jit != VC4_EMU_JIT_ON) { /* (a test that sets its own JIT options keeps them) */
        o.jit = VC4_EMU_JIT_ON;
        o.jit_threshold = VC4KIT_JIT_FORCE;
    }
#ifdef VC4KIT_JIT_FORCE_DIR
    if (!o.jit_dir)
        o.jit_dir = VC4KIT_JIT_FORCE_DIR;
#endif
#endif
#ifdef VC4KIT_THREADS_FORCE
    /* a build for running every test with the second host thread (CMake VC4KIT_THREADS=FORCE) */
    if (o.host_threads == 0)
        o.host_threads = 2;
#endif
    v->jit = vc4_jit_create(&o, o.alloc);
    /* (the helper runs compiled blocks and texture sampling: par.h) */
    v->par = o.host_threads >= 2 ? vc4_par_create(o.alloc) : NULL;
    v->par_min = VC4_PAR_MIN_HELPER_INSTRUCTIONS;
    vc4_vpm_init(&v->vpm, VC4_VPM_BCM2835_KB);
    vc4_tmu_init(&v->tmu);
    vc4_prof_init(&v->prof, o.profile);
    vc4_emu_reset(emu);
    return emu;
}

void vc4_emu_destroy(struct vc4_emu *emu)
{
    if (!emu)
        return;
    const struct vc4_allocator *a = emu->v3d.alloc;
    vc4_icache_fini(&emu->v3d.icache, a);
    vc4_par_destroy(emu->v3d.par, a);
    vc4_jit_destroy(emu->v3d.jit, a);
    vc4_vsi_fini(&emu->v3d.vsi);
    vc4_prof_fini(&emu->v3d.prof, a);
    vc4_mem_fini(&emu->v3d.mem);
    vc4_free(a, emu->block);
}

void vc4_emu_jit_stats(const struct vc4_emu *emu, struct vc4_emu_jit_stats *out)
{
    *out = emu->v3d.jit ? emu->v3d.jit->stats : (struct vc4_emu_jit_stats){0};
}

void vc4_emu_host_stats(const struct vc4_emu *emu, struct vc4_emu_host_stats *out)
{
    const struct vc4_v3d *v = &emu->v3d;
    *out = (struct vc4_emu_host_stats){.threads = v->par ? 2u : 1u,
                                       .helper_instructions = v->jit ? v->jit->stats.helper - v->helper_base : 0,
                                       .helper_texture_requests = v->tmu.jobs_posted,
                                       .alone_instructions = v->ran_alone,
                                       .side_by_side_instructions = v->ran_side_by_side,
                                       .lockstep_instructions = v->ran_lockstep};
}

void vc4_emu_reset(struct vc4_emu *emu)
{
    struct vc4_v3d *v = &emu->v3d;
    vc4_regs_reset(&v->regs, v->num_qpus, VC4_VPM_BCM2835_KB);
    vc4_sched_reset(&v->sched);
    vc4_sema_reset(&v->sema);
    vc4_icache_clear(&v->icache, &v->code_gen);
    vc4_vpm_reset(&v->vpm);
    vc4_tmu_reset(&v->tmu);
    vc4_ptb_reset(&v->ptb);
    vc4_ctl_reset(&v->ctl);
    vc4_tlb_reset(&v->tlb);
    vc4_fsi_reset(&v->fsi);
    vc4_vsi_reset(&v->vsi);
    for (unsigned i = 0; i < VC4_V3D_MAX_QPUS; i++)
        vc4_qpu_reset(&v->qpu[i], i);
    v->stats = (struct vc4_emu_stats){0};
    v->helper_base = v->jit ? v->jit->stats.helper : 0; /* (vc4_emu_host_stats: since reset) */
    v->ran_alone = v->ran_side_by_side = v->ran_lockstep = 0;
    vc4_prof_reset(&v->prof, v->sched.cycle);
    v->fault = VC4_OK;
}

/* ---- memory ---------------------------------------------------------------- */

uint32_t vc4_emu_mem_size(const struct vc4_emu *emu)
{
    return emu->v3d.mem.size;
}

enum vc4_status vc4_emu_mem_read(const struct vc4_emu *emu, uint32_t bus, void *dst, size_t len)
{
    if (len > UINT32_MAX || !vc4_mem_read(&emu->v3d.mem, bus, dst, (uint32_t)len))
        return VC4_ERR_RANGE;
    return VC4_OK;
}

enum vc4_status vc4_emu_mem_write(struct vc4_emu *emu, uint32_t bus, const void *src, size_t len)
{
    if (len > UINT32_MAX || !vc4_mem_write(&emu->v3d.mem, bus, src, (uint32_t)len))
        return VC4_ERR_RANGE;
    emu->v3d.code_gen++; /* cached instructions are checked against memory again */
    return VC4_OK;
}

void *vc4_emu_mem_ptr(struct vc4_emu *emu, uint32_t bus, size_t len)
{
    if (len > UINT32_MAX)
        return NULL;
    /* the host may write through it at any time between runs: from now on
     * each run starts by checking cached instructions against memory */
    emu->v3d.mem_exposed = true;
    emu->v3d.code_gen++;
    return vc4_mem_wptr(&emu->v3d.mem, bus, (uint32_t)len);
}

int vc4_emu_mem_fd(struct vc4_emu *emu)
{
    if (emu->v3d.mem.fd < 0)
        return -1;
    /* a host mapping of the file writes memory behind the emulator's back,
     * as the pointer from vc4_emu_mem_ptr does */
    emu->v3d.mem_exposed = true;
    emu->v3d.code_gen++;
    return emu->v3d.mem.fd;
}

/* ---- registers ---------------------------------------------------------------- */

static bool pctr_index(uint32_t off, unsigned *n)
{
    if (off < VC4_V3D_PCTR0 || off >= VC4_V3D_PCTR0 + VC4_PCTR_COUNT * VC4_PCTR_STRIDE ||
        (off - VC4_V3D_PCTR0) % VC4_PCTR_STRIDE)
        return false;
    *n = (off - VC4_V3D_PCTR0) / VC4_PCTR_STRIDE;
    return true;
}

/* Performance counter sources (hardware facts 11, Mesa vc4_query.c). */
enum {
    PCTR_SRC_QPU_IDLE = 13,
    PCTR_SRC_QPU_VALID_INSTR = 16,
    PCTR_SRC_QPU_TMU_STALL = 17,
    PCTR_SRC_ICACHE_HIT = 20,
    PCTR_SRC_ICACHE_MISS = 21,
};

static uint64_t pctr_source(const struct vc4_v3d *v, uint32_t src)
{
    switch (src) {
    case PCTR_SRC_QPU_IDLE: return v->stats.idle_cycles;
    case PCTR_SRC_QPU_VALID_INSTR: return v->stats.instructions;
    case PCTR_SRC_QPU_TMU_STALL: return v->stats.stall_cycles;
    case PCTR_SRC_ICACHE_HIT: return v->stats.instructions - v->stats.decodes;
    case PCTR_SRC_ICACHE_MISS: return v->stats.decodes;
    default: return 0;
    }
}

enum vc4_status vc4_emu_reg_read(struct vc4_emu *emu, uint32_t offset, uint32_t *value)
{
    struct vc4_v3d *v = &emu->v3d;
    const struct vc4_reg_desc *d = vc4_regs_desc(&v->regs, offset);
    *value = 0;
    if (!d)
        return VC4_ERR_RANGE;
    if (vc4_ctl_reg_read(v, offset, value)) /* CTnCS/EA/CA/RA0/LC/PC, PCS */
        return VC4_OK;
    unsigned n;
    switch (offset) {
    case VC4_V3D_SRQCS:
        *value = vc4_sched_srqcs(&v->sched);
        return VC4_OK;
    case VC4_V3D_DBQRUN: {
        uint32_t run = 0;
        for (unsigned i = 0; i < v->num_qpus; i++)
            if (v->qpu[i].state != VC4_EMU_QPU_IDLE)
                run |= 1u << i;
        *value = run;
        return VC4_OK;
    }
    default:
        break;
    }
    if (pctr_index(offset, &n)) {
        /* counting is relative to the value at the last clear (stored in val) */
        uint32_t pctre = v->regs.val[VC4_V3D_PCTRE / 4];
        uint32_t src = v->regs.val[(VC4_V3D_PCTRS0 + VC4_PCTR_STRIDE * n) / 4];
        if ((pctre & VC4_PCTRE_ENABLE) && (pctre & (1u << n)))
            *value = (uint32_t)(pctr_source(v, src) - v->regs.val[offset / 4]);
        return VC4_OK;
    }
    *value = v->regs.val[offset / 4];
    return VC4_OK;
}

enum vc4_status vc4_emu_reg_write(struct vc4_emu *emu, uint32_t offset, uint32_t value)
{
    struct vc4_v3d *v = &emu->v3d;
    const struct vc4_reg_desc *d = vc4_regs_desc(&v->regs, offset);
    if (!d)
        return VC4_ERR_RANGE;
    if (vc4_ctl_reg_write(v, offset, value)) /* control-list threads (ctl.c) */
        return VC4_OK;
    uint32_t *r = &v->regs.val[offset / 4];
    switch ((enum vc4_reg_kind)d->kind) {
    case VC4_REG_RO:
        return VC4_OK;
    case VC4_REG_RW:
        *r = value & d->wmask;
        return VC4_OK;
    case VC4_REG_W1C:
        *r &= ~(value & d->wmask);
        return VC4_OK;
    case VC4_REG_ACTION:
        break;
    }
    unsigned n;
    switch (offset) {
    case VC4_V3D_SRQPC:
        vc4_sched_push(v, value);
        return VC4_OK;
    case VC4_V3D_SRQCS:
        vc4_sched_write_srqcs(&v->sched, value);
        return VC4_OK;
    case VC4_V3D_L2CACTL:
        /* L2CCLR (bit 2) clears; the model keeps no L2 state */
        *r = value & 0x3u;
        return VC4_OK;
    case VC4_V3D_SLCACTL:
        /* ICC bits clear the instruction caches: drop decoded words;
         * T0CC/T1CC clear the TMU caches.  Self-clearing. */
        if (value & 0xFu)
            vc4_icache_clear(&v->icache, &v->code_gen);
        if (value & 0x0F0F0000u)
            vc4_tmu_flush_caches(&v->tmu);
        *r = 0;
        return VC4_OK;
    case VC4_V3D_INTENA:
        v->regs.val[VC4_V3D_INTENA / 4] |= value & d->wmask;
        return VC4_OK;
    case VC4_V3D_INTDIS:
        v->regs.val[VC4_V3D_INTENA / 4] &= ~(value & d->wmask);
        return VC4_OK;
    case VC4_V3D_PCTRC:
        for (n = 0; n < VC4_PCTR_COUNT; n++)
            if (value & (1u << n)) {
                uint32_t src = v->regs.val[(VC4_V3D_PCTRS0 + VC4_PCTR_STRIDE * n) / 4];
                v->regs.val[(VC4_V3D_PCTR0 + VC4_PCTR_STRIDE * n) / 4] = (uint32_t)pctr_source(v, src);
            }
        return VC4_OK;
    default:
        if (pctr_index(offset, &n)) /* writable: sets the current count */
        {
            uint32_t src = v->regs.val[(VC4_V3D_PCTRS0 + VC4_PCTR_STRIDE * n) / 4];
            *r = (uint32_t)pctr_source(v, src) - value;
        }
        return VC4_OK;
    }
}

const char *vc4_emu_reg_name(uint32_t offset)
{
    const struct vc4_reg_desc *d = vc4_reg_lookup(offset);
    return d ? d->name : NULL;
}

/* ---- running ------------------------------------------------------------------ */

enum vc4_status vc4_emu_run(struct vc4_emu *emu, uint64_t max_cycles)
{
    struct vc4_v3d *v = &emu->v3d;
    /* The host FP environment is set to the C default for the run and
     * restored after it (status flags included): nothing leaks to the host,
     * and results never depend on its rounding mode.  The diagnostic sink is
     * called inside this environment. */
    if (v->mem_exposed)
        v->code_gen++;
    struct vc4_alu_fpenv env;
    vc4_v3d_fp_enter(v, &env);
    /* the control-list threads first (with the fragment shading they
     * cause), then the user programs, under one budget */
    uint64_t budget = max_cycles ? max_cycles : v->default_budget, used = 0;
    enum vc4_status st = vc4_ctl_run(v, budget, &used);
    if (st == VC4_OK) /* a control-list packet may finish past the budget (ctl.c) */
        st = vc4_sched_run(v, used < budget ? budget - used : 0);
    vc4_v3d_fp_leave(v, &env);
    return st;
}

void vc4_v3d_fp_enter(struct vc4_v3d *v, struct vc4_alu_fpenv *env)
{
    vc4_par_check_fork(v->par); /* (every run starts here) */
    bool host = vc4_alu_fp_enter(env);
    v->alu = host ? vc4_alu_kernels_best() : &vc4_alu_kernels_exact;
    /* (the helper samples in the host's default environment: only when
     * this thread runs in it too do both give the same bits) */
    v->tmu.helper = host ? v->par : NULL;
    /* (and wakes now if it slept since the last run: waking takes about a
     * millisecond here, and a draw's lookups come in a shorter burst, which
     * a sleeping helper missed: Mesa's mip-mapped texture in gl-check had
     * none of its 753 sampled there) */
    (void)vc4_par_awake(v->tmu.helper);
}

void vc4_v3d_fp_leave(struct vc4_v3d *v, struct vc4_alu_fpenv *env)
{
    vc4_tmu_sync(&v->tmu); /* (the run's sampling done, its counts in) */
    v->tmu.helper = NULL;
    vc4_alu_fp_leave(env);
    v->alu = &vc4_alu_kernels_exact;
}

unsigned vc4_emu_num_qpus(const struct vc4_emu *emu)
{
    return emu->v3d.num_qpus;
}

enum vc4_status vc4_emu_qpu_info(const struct vc4_emu *emu, unsigned qpu, struct vc4_emu_qpu_info *out)
{
    const struct vc4_v3d *v = &emu->v3d;
    *out = (struct vc4_emu_qpu_info){0};
    if (qpu >= v->num_qpus)
        return VC4_ERR_RANGE;
    const struct vc4_qpu *q = &v->qpu[qpu];
    out->state = q->state;
    out->pc = q->pc;
    uint8_t b[8];
    if (vc4_mem_read(&v->mem, q->pc, b, 8))
        out->word = vc4_qpu_load_le(b);
    out->uniforms_addr = q->unif;
    out->blocked_on = q->state == VC4_EMU_QPU_BLOCKED ? q->blocked_on : NULL;
    out->instructions = q->instructions;
    return VC4_OK;
}

void vc4_emu_stats(const struct vc4_emu *emu, struct vc4_emu_stats *out)
{
    *out = emu->v3d.stats;
}

/* ---- rendering insight ------------------------------------------------------------ */

void vc4_emu_vpm_stats(const struct vc4_emu *emu, struct vc4_emu_vpm_stats *out)
{
    const struct vc4_vpm_stats *s = &emu->v3d.vpm.stats;
    *out = (struct vc4_emu_vpm_stats){s->generic_reads, s->generic_writes, s->vdw_jobs, s->vdw_bytes,
                                      s->vdr_jobs, s->vdr_bytes, s->dma_cycles};
}

void vc4_emu_render_stats(const struct vc4_emu *emu, struct vc4_emu_render_stats *out)
{
    const struct vc4_v3d *v = &emu->v3d;
    const struct vc4_ptb_stats *b = &v->ptb.stats;
    const struct vc4_fsi_stats *f = &v->fsi.stats;
    const struct vc4_vsi_stats *s = &v->vsi.stats;
    const struct vc4_tmu_stats *t = &v->tmu.stats;
    *out = (struct vc4_emu_render_stats){0};
    out->qpu = v->stats;
    out->by_kind[VC4_EMU_PROG_USER] = v->sched.time;
    out->by_kind[VC4_EMU_PROG_COORD] = s->qpu[VC4_GL_CS];
    out->by_kind[VC4_EMU_PROG_VERTEX] = s->qpu[VC4_GL_VS];
    out->by_kind[VC4_EMU_PROG_FRAGMENT] = f->qpu;
    out->binner.prims_in = b->prims_in;
    out->binner.prims_binned = b->prims_binned;
    out->binner.prims_culled = b->prims_culled;
    out->binner.prims_zero_area = b->prims_zero_area;
    out->binner.prims_outside = b->prims_outside;
    out->binner.prims_bad = b->prims_bad;
    out->binner.prims_clipped = b->prims_clipped;
    out->binner.tile_writes = b->tile_writes;
    out->binner.blocks = b->blocks;
    out->binner.overflows = b->overflows;
    out->binner.stalls = b->stalls;
    out->binner.flushes = b->flushes;
    out->vertex.coord_batches = s->batches[VC4_GL_CS];
    out->vertex.coord_vertices = s->vertices[VC4_GL_CS];
    out->vertex.vertex_batches = s->batches[VC4_GL_VS];
    out->vertex.vertex_vertices = s->vertices[VC4_GL_VS];
    out->fragment.prims = f->prims;
    out->fragment.batches = f->batches;
    out->fragment.quads = f->quads;
    out->fragment.fragments = f->fragments;
    out->fragment.samples_written = f->samples_written;
    out->fragment.z_fails = f->z_fails;
    out->fragment.stencil_fails = f->stencil_fails;
    out->fragment.early_z_rejects = f->early_z_rejects;
    out->fragment.threads = f->threads;
    out->fragment.thread_switches = f->switches;
    out->tmu.requests = t->requests;
    out->tmu.texture_requests = t->texture_requests;
    out->tmu.lookups = t->lookups;
    out->tmu.texels = t->texels;
    out->tmu.cache_hits = t->cache_hits;
    out->tmu.cache_misses = t->cache_misses;
    out->tmu.stall_cycles = t->stall_cycles;
}

/* The frame the last Tile Rendering Mode Configuration described, and its
 * pixels read back from memory (vc4kit/emu.h). */
void vc4_emu_render_frame(const struct vc4_emu *emu, struct vc4_emu_frame *out)
{
    const struct vc4_ctl_render *r = &emu->v3d.ctl.r;
    *out = (struct vc4_emu_frame){0};
    out->frames = r->frames;
    if (!r->have_trmc)
        return;
    out->valid = true;
    out->addr = r->trmc.fb_addr;
    out->width = r->trmc.width_px;
    out->height = r->trmc.height_px;
    out->color_format = r->trmc.color_format;
    out->memory_format = r->trmc.memory_format;
    out->multisample = r->trmc.multisample_4x;
}

enum vc4_status vc4_emu_read_frame(const struct vc4_emu *emu, const struct vc4_emu_frame *f,
                                   uint8_t *rgba)
{
    if (!emu || !f || !rgba || f->memory_format > VC4_CL_MEM_LT || f->color_format > VC4_CL_FB_BGR565)
        return VC4_ERR_INVALID;
    const struct vc4_mem *m = &emu->v3d.mem;
    bool is565 = f->color_format != VC4_CL_FB_RGBA8888;
    struct vc4_tex_geom g;
    if (!vc4_tex_geom_init(&g, (enum vc4_tex_layout)f->memory_format, is565 ? 16 : 32, f->width,
                           f->height))
        return f->width && f->height ? VC4_ERR_UNSUPPORTED : VC4_ERR_INVALID;
    enum vc4_status st = VC4_OK;
    for (unsigned y = 0; y < f->height; y++) {
        struct vc4_tex_row_walk row;
        vc4_tex_row_begin(&row, &g, 0, y);
        for (unsigned x = 0; x < f->width; x++) {
            uint32_t a = f->addr + (uint32_t)(vc4_tex_row_next(&row) >> 3), c = 0;
            bool ok;
            if (is565) {
                uint16_t h = 0;
                ok = vc4_mem_read16(m, a, &h);
                c = vc4_tlb_565_to_rgba(h);
            } else {
                ok = vc4_mem_read32(m, a, &c);
            }
            if (!ok)
                st = VC4_ERR_RANGE;
            uint8_t *p = rgba + ((size_t)y * f->width + x) * 4;
            p[0] = (uint8_t)c;
            p[1] = (uint8_t)(c >> 8);
            p[2] = (uint8_t)(c >> 16);
            p[3] = (uint8_t)(c >> 24);
        }
    }
    return st;
}

/* Tile-list dumps: a packet is read from at most this many bytes of memory
 * (the longest one the binner writes is a 49 with a 32-bit item, well
 * inside); a tile's walk stops after this many packets (a guest that
 * overwrote its lists with a Branch loop cannot hang the host). */
enum { DUMP_WINDOW = 256, DUMP_MAX_PACKETS = 1u << 16 };

/* One packet's fixed fields as " name=value ...". */
static void dump_fields(struct vc4_out *o, const struct vc4_cl_packet_view *pk)
{
    uint64_t values[64];
    const struct vc4_cl_layout *l = &pk->desc->layout;
    if (l->nfields > sizeof values / sizeof values[0] || vc4_cl_decode(pk, values) != VC4_OK)
        return;
    for (unsigned i = 0; i < l->nfields; i++) {
        const char *e = vc4_cl_enum_name(&l->fields[i], (uint32_t)values[i]);
        if (e)
            vc4_out_printf(o, " %s=%s", l->fields[i].name, e);
        else
            vc4_out_printf(o, " %s=0x%llx", l->fields[i].name, (unsigned long long)values[i]);
    }
}

/* A VG Inline Primitives packet's vertices, in pixels (emu/vg.h: packed
 * s16 X, s16 Y, 12.4). */
static void dump_vg_coords(struct vc4_out *o, const uint8_t *p, size_t len)
{
    size_t at = vc4_cl_packet(VC4_CL_VG_INLINE_PRIMITIVES)->length;
    struct vc4_cl_prim_item it;
    size_t k;
    while (at < len && (k = vc4_cl_prim_item_decode(p + at, len - at, &it)) != 0 && it.kind != VC4_CL_ITEM_END) {
        for (unsigned i = 0; it.kind == VC4_CL_ITEM_XY32 && i < it.count; i++)
            vc4_out_printf(o, " (%.4g,%.4g)", vc4_vg_x(it.v[i]) / 16.0, vc4_vg_y(it.v[i]) / 16.0);
        at += k;
    }
}

/* Walk one tile's list from its start to the binner's next-byte pointer (or
 * a Return from sub-list), following Branches. */
static void dump_tile(struct vc4_out *o, const struct vc4_mem *m, const struct vc4_ptb_tile_state *t)
{
    uint32_t a = t->list;
    unsigned branches = 0;
    for (unsigned n = 0; n < DUMP_MAX_PACKETS; n++) {
        if (a == t->next && !(t->flags & VC4_PTB_TILE_FLUSHED)) {
            vc4_out_printf(o, "    0x%08x  (end: not flushed)\n", a);
            return;
        }
        uint32_t off;
        if (!vc4_mem_span(m, a, 1, &off)) {
            vc4_out_printf(o, "    0x%08x  error: outside memory\n", a);
            return;
        }
        size_t avail = m->size - off < DUMP_WINDOW ? m->size - off : DUMP_WINDOW;
        const uint8_t *p = m->ram + off;
        size_t len = 0;
        enum vc4_cl_len_status ls = vc4_cl_packet_length(p, avail, &len);
        if (ls != VC4_CL_LEN_OK) {
            vc4_out_printf(o, "    0x%08x  error: %s (byte 0x%02x)\n", a,
                           ls == VC4_CL_LEN_UNKNOWN_OPCODE ? "unknown opcode"
                           : ls == VC4_CL_LEN_TRUNCATED    ? "truncated packet"
                                                           : "bad payload",
                           p[0]);
            return;
        }
        struct vc4_cl_reader r;
        struct vc4_cl_packet_view pk;
        vc4_cl_reader_init(&r, p, len);
        if (!vc4_cl_next(&r, &pk) || !pk.desc)
            return; /* cannot happen: the length was found */
        vc4_out_printf(o, "    0x%08x  %s (%u)", a, pk.desc->name, pk.opcode);
        if (pk.opcode == VC4_CL_COMPRESSED_PRIMITIVE_LIST || pk.opcode == VC4_CL_CLIPPED_PRIMITIVE) {
            char line[4096];
            size_t need = vc4_tl_dump(p, len, line, sizeof line);
            vc4_out_printf(o, "\n");
            /* one indented line per primitive */
            for (const char *s = line; *s;) {
                const char *e = strchr(s, '\n');
                size_t l = e ? (size_t)(e - s) : strlen(s);
                vc4_out_printf(o, "        %.*s\n", (int)l, s);
                s += l + (e ? 1 : 0);
            }
            if (need >= sizeof line)
                vc4_out_printf(o, "        ... (%zu more bytes of text)\n", need - (sizeof line - 1));
        } else {
            dump_fields(o, &pk);
            if (pk.opcode == VC4_CL_VG_INLINE_PRIMITIVES)
                dump_vg_coords(o, p, len);
            vc4_out_printf(o, "\n");
        }
        if (pk.opcode == VC4_CL_RETURN_FROM_SUB_LIST)
            return;
        if (pk.opcode == VC4_CL_BRANCH) {
            struct vc4_cl_branch br;
            if (vc4_cl_decode_branch(&pk, &br) != VC4_OK || ++branches > t->blocks + 1u) {
                vc4_out_printf(o, "    error: more Branches than the tile's %u blocks\n", t->blocks);
                return;
            }
            a = br.address;
            continue;
        }
        a += (uint32_t)len;
    }
    vc4_out_printf(o, "    error: more than %u packets\n", (unsigned)DUMP_MAX_PACKETS);
}

/* The kinds of program as the reports name them. */
static const char *const kind_names[] = {
    [VC4_EMU_PROG_USER] = "user",
    [VC4_EMU_PROG_COORD] = "coordinate",
    [VC4_EMU_PROG_VERTEX] = "vertex",
    [VC4_EMU_PROG_FRAGMENT] = "fragment",
};
static_assert(sizeof kind_names / sizeof kind_names[0] == VC4_EMU_PROG_KINDS, "a name for every kind");

/* A text report's end, as snprintf's: *needed (if not NULL) the length the
 * whole text needs; VC4_ERR_RANGE when it was truncated. */
static enum vc4_status out_end(const struct vc4_out *o, size_t *needed)
{
    if (needed)
        *needed = o->len;
    return o->len >= o->size ? VC4_ERR_RANGE : VC4_OK;
}

/* a / (a + b) as a percentage, or "-" when both are 0 */
static const char *share(uint64_t a, uint64_t b, char *s, size_t n)
{
    if (a + b == 0)
        snprintf(s, n, "-");
    else
        snprintf(s, n, "%.1f%%", 100.0 * (double)a / (double)(a + b));
    return s;
}

enum vc4_status vc4_emu_stats_report(const struct vc4_emu *emu, const char *prefix, char *buf, size_t size,
                                     size_t *needed)
{
    struct vc4_emu_render_stats s;
    struct vc4_emu_vpm_stats m;
    struct vc4_emu_host_stats h;
    vc4_emu_render_stats(emu, &s);
    vc4_emu_vpm_stats(emu, &m);
    vc4_emu_host_stats(emu, &h);
    const char *p = prefix ? prefix : "";
    struct vc4_out o;
    vc4_out_init(&o, buf, size); /* (buf NULL with size 0: nothing written) */
    char r[32];
    uint64_t sum_c = 0;
    for (unsigned k = 0; k < VC4_EMU_PROG_KINDS; k++)
        sum_c += s.by_kind[k].cycles;
    vc4_out_printf(&o, "%sqpu: cycles %" PRIu64 ", instructions %" PRIu64 ", stall cycles %" PRIu64
                       ", idle cycles %" PRIu64 "\n",
                   p, s.qpu.cycles, s.qpu.instructions, s.qpu.stall_cycles, s.qpu.idle_cycles);
    for (unsigned k = 0; k < VC4_EMU_PROG_KINDS; k++) {
        const struct vc4_emu_qpu_time *t = &s.by_kind[k];
        vc4_out_printf(&o, "%sqpu %-10s cycles %" PRIu64 " (%s), instructions %" PRIu64 ", stall cycles %" PRIu64
                           "\n",
                       p, kind_names[k], t->cycles, share(t->cycles, sum_c - t->cycles, r, sizeof r),
                       t->instructions, t->stall_cycles);
    }
    vc4_out_printf(&o, "%suser programs: started %" PRIu64 ", completed %" PRIu64 "\n", p,
                   s.qpu.programs_started, s.qpu.programs_completed);
    vc4_out_printf(&o, "%sbinner: prims in %" PRIu64 ", binned %" PRIu64 ", culled %" PRIu64 ", zero area %" PRIu64
                       ", outside %" PRIu64 ", bad %" PRIu64 ", clipped %" PRIu64 "\n",
                   p, s.binner.prims_in, s.binner.prims_binned, s.binner.prims_culled, s.binner.prims_zero_area,
                   s.binner.prims_outside, s.binner.prims_bad, s.binner.prims_clipped);
    vc4_out_printf(&o, "%sbinner: tile writes %" PRIu64 ", blocks %" PRIu64 ", overflows %" PRIu64
                       ", stalls %" PRIu64 ", flushes %" PRIu64 "\n",
                   p, s.binner.tile_writes, s.binner.blocks, s.binner.overflows, s.binner.stalls,
                   s.binner.flushes);
    vc4_out_printf(&o, "%svertex shading: coordinate vertices %" PRIu64 " in %" PRIu64 " batches, vertex vertices %"
                       PRIu64 " in %" PRIu64 " batches\n",
                   p, s.vertex.coord_vertices, s.vertex.coord_batches, s.vertex.vertex_vertices,
                   s.vertex.vertex_batches);
    vc4_out_printf(&o, "%sfragment shading: prims %" PRIu64 ", fragments %" PRIu64 ", quads %" PRIu64
                       ", batches %" PRIu64 ", threads %" PRIu64 ", thread switches %" PRIu64 "\n",
                   p, s.fragment.prims, s.fragment.fragments, s.fragment.quads, s.fragment.batches,
                   s.fragment.threads, s.fragment.thread_switches);
    vc4_out_printf(&o, "%stile buffer: samples written %" PRIu64 ", early-z rejects %" PRIu64 ", z fails %" PRIu64
                       ", stencil fails %" PRIu64 "\n",
                   p, s.fragment.samples_written, s.fragment.early_z_rejects, s.fragment.z_fails,
                   s.fragment.stencil_fails);
    vc4_out_printf(&o, "%stmu: requests %" PRIu64 " (texture %" PRIu64 "), lookups %" PRIu64 ", texels %" PRIu64
                       ", cache hits %" PRIu64 ", misses %" PRIu64 " (hit rate %s), stall cycles %" PRIu64 "\n",
                   p, s.tmu.requests, s.tmu.texture_requests, s.tmu.lookups, s.tmu.texels, s.tmu.cache_hits,
                   s.tmu.cache_misses, share(s.tmu.cache_hits, s.tmu.cache_misses, r, sizeof r),
                   s.tmu.stall_cycles);
    vc4_out_printf(&o, "%svpm: generic reads %" PRIu64 " / writes %" PRIu64 " (16-word vectors), VDW %" PRIu64
                       " stores / %" PRIu64 " bytes, VDR %" PRIu64 " loads / %" PRIu64 " bytes, DMA cycles %" PRIu64
                       "\n",
                   p, m.generic_reads, m.generic_writes, m.vdw_jobs, m.vdw_bytes, m.vdr_jobs, m.vdr_bytes,
                   m.dma_cycles);
    vc4_out_printf(&o, "%shost engine: QPU instructions alone %" PRIu64 ", side by side %" PRIu64
                       ", lock-step %" PRIu64 "\n",
                   p, h.alone_instructions, h.side_by_side_instructions, h.lockstep_instructions);
    if (h.threads > 1)
        vc4_out_printf(&o, "%ssecond host thread: compiled QPU instructions %" PRIu64
                           ", texture requests sampled %" PRIu64 " of %" PRIu64 "\n",
                       p, h.helper_instructions, h.helper_texture_requests, s.tmu.texture_requests);
    return out_end(&o, needed);
}

/* ---- profile (prof.h) ------------------------------------------------------------ */

/* qsort order: by address, then word */
static int by_address(const void *a, const void *b)
{
    const struct vc4_emu_profile_entry *x = a, *y = b;
    if (x->pc != y->pc)
        return x->pc < y->pc ? -1 : 1;
    return x->word < y->word ? -1 : x->word > y->word;
}

size_t vc4_emu_profile(const struct vc4_emu *emu, struct vc4_emu_profile_entry *out, size_t cap,
                       struct vc4_emu_profile_totals *totals)
{
    const struct vc4_prof *p = &emu->v3d.prof;
    if (totals)
        *totals = (struct vc4_emu_profile_totals){p->samples, p->used, p->dropped};
    if (cap < p->used)
        return p->used;
    size_t n = 0;
    for (size_t i = 0; i < p->cap; i++) {
        const struct vc4_prof_slot *s = &p->slots[i];
        if (s->used)
            out[n++] = (struct vc4_emu_profile_entry){s->pc, s->word, s->issuing, s->stalled, s->blocked,
                                                      (enum vc4_emu_program_kind)s->kind};
    }
    if (n > 1) /* (out may be NULL when there is nothing: qsort must not see it) */
        qsort(out, n, sizeof *out, by_address);
    return n;
}

static uint64_t entry_samples(const struct vc4_emu_profile_entry *e)
{
    return e->issuing + e->stalled + e->blocked;
}

/* qsort order: most samples first, then by address */
static int by_samples(const void *a, const void *b)
{
    const struct vc4_emu_profile_entry *x = a, *y = b;
    uint64_t sx = entry_samples(x), sy = entry_samples(y);
    if (sx != sy)
        return sx > sy ? -1 : 1;
    return by_address(a, b);
}

enum vc4_status vc4_emu_profile_report(const struct vc4_emu *emu, unsigned top, const char *prefix, char *buf,
                                       size_t size, size_t *needed)
{
    const struct vc4_v3d *v = &emu->v3d;
    const char *pre = prefix ? prefix : "";
    struct vc4_out o;
    vc4_out_init(&o, buf, size); /* (buf NULL with size 0: nothing written) */
    if (!v->prof.on) {
        if (needed)
            *needed = 0;
        return VC4_ERR_INVALID;
    }
    struct vc4_emu_profile_totals t;
    size_t n = vc4_emu_profile(emu, NULL, 0, &t);
    struct vc4_emu_profile_entry *e = n ? vc4_malloc(v->alloc, n * sizeof *e) : NULL;
    if (n && !e) {
        vc4_out_printf(&o, "%sprofile: out of memory for %zu entries\n", pre, n);
        n = 0;
    } else if (n) {
        vc4_emu_profile(emu, e, n, NULL);
        qsort(e, n, sizeof *e, by_samples);
    }
    uint64_t kept = t.samples - t.dropped, issuing = 0, stalled = 0, blocked = 0;
    for (size_t i = 0; i < n; i++) {
        issuing += e[i].issuing;
        stalled += e[i].stalled;
        blocked += e[i].blocked;
    }
    char r[3][32];
    vc4_out_printf(&o,
                   "%sprofile: %" PRIu64 " samples of busy QPUs (one about every %u cycles) at %" PRIu64
                   " instructions: issuing %s, stalled on a unit %s, blocked on another QPU %s\n",
                   pre, t.samples, VC4_PROF_MEAN_PERIOD, t.entries, share(issuing, kept - issuing, r[0], sizeof r[0]),
                   share(stalled, kept - stalled, r[1], sizeof r[1]), share(blocked, kept - blocked, r[2], sizeof r[2]));
    if (t.dropped)
        vc4_out_printf(&o, "%sprofile: %" PRIu64 " samples not kept (no memory for more addresses)\n", pre,
                       t.dropped);
    size_t shown = top && top < n ? top : n;
    if (shown)
        vc4_out_printf(&o, "%s  share  issuing  stalled  blocked  address     kind        instruction\n", pre);
    for (size_t i = 0; i < shown; i++) {
        struct vc4_qpu_instr in;
        char dis[256];
        vc4_qpu_decode(e[i].word, &in);
        vc4_qpu_disasm(&in, e[i].pc, 0, dis, sizeof dis);
        uint64_t s = entry_samples(&e[i]);
        vc4_out_printf(&o, "%s%6s %8" PRIu64 " %8" PRIu64 " %8" PRIu64 "  0x%08x  %-10s  %s\n", pre,
                       share(s, kept - s, r[0], sizeof r[0]), e[i].issuing, e[i].stalled, e[i].blocked, e[i].pc,
                       kind_names[e[i].kind < VC4_EMU_PROG_KINDS ? e[i].kind : VC4_EMU_PROG_USER], dis);
    }
    if (shown < n) {
        uint64_t rest = 0;
        for (size_t i = shown; i < n; i++)
            rest += entry_samples(&e[i]);
        vc4_out_printf(&o, "%s%6s  in %zu more instructions\n", pre, share(rest, kept - rest, r[0], sizeof r[0]),
                       n - shown);
    }
    vc4_free(v->alloc, e);
    return out_end(&o, needed);
}

enum vc4_status vc4_emu_dump_tile_lists(const struct vc4_emu *emu, char *buf, size_t size, size_t *needed)
{
    const struct vc4_v3d *v = &emu->v3d;
    const struct vc4_ptb *p = &v->ptb;
    struct vc4_out o;
    vc4_out_init(&o, buf, size); /* (buf NULL with size 0: nothing written) */
    enum vc4_status st = VC4_OK;
    if (!p->configured) {
        st = VC4_ERR_INVALID;
    } else {
        vc4_out_printf(&o,
                       "tile lists: %ux%u tiles of %ux%u pixels, tile allocation 0x%08x (+%u), "
                       "TSDA 0x%08x\n",
                       p->cfg.width_tiles, p->cfg.height_tiles, p->tile_w_px, p->tile_h_px,
                       p->cfg.tile_alloc_addr, p->cfg.tile_alloc_size, p->cfg.tsda_addr);
        unsigned shown = 0;
        for (uint32_t i = 0; i < p->num_tiles; i++) {
            uint8_t b[VC4_PTB_TSDA_BYTES];
            uint32_t x = i % p->cfg.width_tiles, y = i / p->cfg.width_tiles;
            if (!vc4_mem_read(&v->mem, p->cfg.tsda_addr + i * VC4_PTB_TSDA_BYTES, b, sizeof b)) {
                vc4_out_printf(&o, "tile %u,%u: tile state data outside memory\n", x, y);
                break;
            }
            struct vc4_ptb_tile_state t;
            vc4_ptb_tsda_decode(p, b, &t);
            /* nothing in it: never initialised, or no byte before NEXT */
            if (!(t.flags & VC4_PTB_TILE_VALID) || t.next == t.list)
                continue;
            shown++;
            vc4_out_printf(&o, "tile %u,%u (#%u) list 0x%08x: %u primitives, %u more blocks%s\n", x, y, i,
                           t.list, t.prims, t.blocks,
                           t.flags & VC4_PTB_TILE_FLUSHED ? "" : ", not flushed");
            dump_tile(&o, &v->mem, &t);
        }
        vc4_out_printf(&o, "%u of %u tiles have lists\n", shown, p->num_tiles);
    }
    enum vc4_status end = out_end(&o, needed);
    return st != VC4_OK ? st : end;
}
