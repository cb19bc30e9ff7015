/*
 * v3d.c - the emulated V3D device and the public API (vc4kit/emu.h):
 * creation, bus memory for hosts, register dispatch, running.
 */
#include <stdio.h>
#include <string.h>

#include "emu/v3d.h"

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
        o.mem_size = VC4_V3D_DEFAULT_MEM;
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
    struct vc4_emu *emu = vc4_calloc(o.alloc, 1, sizeof *emu);
    if (!emu)
        return NULL;
    struct vc4_v3d *v = &emu->v3d;
    v->alloc = o.alloc;
    vc4_vsi_init(&v->vsi, o.alloc);
    v->sink = o.sink;
    v->unit_sink = (struct vc4_diag_sink){count_diag, v};
    v->strict = o.strict;
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
    vc4_vpm_init(&v->vpm, VC4_VPM_BCM2835_KB);
    vc4_tmu_init(&v->tmu);
    vc4_emu_reset(emu);
    return emu;
}

void vc4_emu_destroy(struct vc4_emu *emu)
{
    if (!emu)
        return;
    const struct vc4_allocator *a = emu->v3d.alloc;
    vc4_icache_fini(&emu->v3d.icache, a);
    vc4_vsi_fini(&emu->v3d.vsi);
    vc4_mem_fini(&emu->v3d.mem);
    vc4_free(a, emu);
}

void vc4_emu_reset(struct vc4_emu *emu)
{
    struct vc4_v3d *v = &emu->v3d;
    vc4_regs_reset(&v->regs, v->num_qpus, VC4_VPM_BCM2835_KB);
    vc4_sched_reset(&v->sched);
    vc4_sema_reset(&v->sema);
    vc4_icache_clear(&v->icache);
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
    return vc4_mem_ptr(&emu->v3d.mem, bus, (uint32_t)len);
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
            vc4_icache_clear(&v->icache);
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
    v->alu = vc4_alu_fp_enter(&env) ? &vc4_alu_kernels_host : &vc4_alu_kernels_exact;
    /* the control-list threads first (with the fragment shading they
     * cause), then the user programs, under one budget */
    uint64_t budget = max_cycles ? max_cycles : v->default_budget, used = 0;
    enum vc4_status st = vc4_ctl_run(v, budget, &used);
    if (st == VC4_OK)
        st = vc4_sched_run(v, budget - used);
    vc4_alu_fp_leave(&env);
    v->alu = &vc4_alu_kernels_exact;
    return st;
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
