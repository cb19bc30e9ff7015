/*
 * sched.c - the user-program request queue and QPU interleaving.
 *
 * SRQ (hardware facts 11, hello_fft): SRQUA/SRQUL hold the next program's
 * uniforms address/length; writing SRQPC queues {pc, ua, ul} and counts a
 * request; a free QPU takes the oldest request; its thread end counts a
 * completion.  SRQCS: 23:16 completed, 15:8 requested, 7 error (queue
 * overflow), 5:0 queue length; writing 1 to bit 7 / 8 / 16 clears the
 * error / request count / completion count.
 */
#include "emu/v3d.h"

#define SRQCS_CLEAR_ERR (1u << 7)
#define SRQCS_CLEAR_REQ (1u << 8)
#define SRQCS_CLEAR_DONE (1u << 16)

void vc4_sched_reset(struct vc4_sched *s)
{
    *s = (struct vc4_sched){0};
}

void vc4_sched_push(struct vc4_v3d *v, uint32_t pc)
{
    struct vc4_sched *s = &v->sched;
    if (s->len >= VC4_SRQ_DEPTH) {
        s->error = true;
        struct vc4_location l = vc4_location_none();
        vc4_diag_emit(&v->unit_sink, VC4_WARNING, VC4_DIAG_FAULT, "srq", &l,
                      "user-program queue full (%u entries): request for PC 0x%08x dropped, QPURQERR set",
                      VC4_SRQ_DEPTH, pc);
        return;
    }
    struct vc4_srq_entry *e = &s->q[(s->head + s->len) % VC4_SRQ_DEPTH];
    e->pc = pc;
    e->unif = v->regs.val[VC4_V3D_SRQUA / 4];
    e->unif_len = v->regs.val[VC4_V3D_SRQUL / 4];
    s->len++;
    s->requested++;
}

uint32_t vc4_sched_srqcs(const struct vc4_sched *s)
{
    return (uint32_t)s->completed << VC4_V3D_SRQCS_QPURQCC_SHIFT |
           (uint32_t)s->requested << VC4_V3D_SRQCS_QPURQCM_SHIFT |
           (s->error ? VC4_V3D_SRQCS_QPURQERR : 0) | (s->len & VC4_V3D_SRQCS_QPURQL_MASK);
}

void vc4_sched_write_srqcs(struct vc4_sched *s, uint32_t value)
{
    if (value & SRQCS_CLEAR_ERR)
        s->error = false;
    if (value & SRQCS_CLEAR_REQ)
        s->requested = 0;
    if (value & SRQCS_CLEAR_DONE)
        s->completed = 0;
}

/* A user program's thread end: the checks, a completion; the QPU is idle. */
static void user_program_end(struct vc4_v3d *v, struct vc4_qpu *q)
{
    vc4_sched_end_checks(v, q);
    q->state = VC4_EMU_QPU_IDLE;
    v->sched.completed++;
    v->stats.programs_completed++;
}

/* User programs have no fragment-shader I/O: the QPU reports it (qpu.h). */
static const struct vc4_qpu_port user_port = {
    .read = vc4_qpu_port_no_read,
    .vary = vc4_qpu_port_no_vary,
    .write = vc4_qpu_port_no_write,
    .signal = vc4_qpu_port_no_signal,
    .post = vc4_qpu_port_no_post,
    .sb_wait = vc4_qpu_port_no_sb_wait,
    .thread_switch = vc4_qpu_port_no_thread_switch,
    .program_end = user_program_end,
    .user = true,
};

/* Hand queued programs to idle QPUs, lowest number first. */
static void dispatch(struct vc4_v3d *v)
{
    struct vc4_sched *s = &v->sched;
    for (unsigned i = 0; i < v->num_qpus && s->len; i++) {
        struct vc4_qpu *q = &v->qpu[i];
        if (q->state != VC4_EMU_QPU_IDLE)
            continue;
        struct vc4_srq_entry *e = &s->q[s->head];
        s->head = (s->head + 1) % VC4_SRQ_DEPTH;
        s->len--;
        vc4_vpm_qpu_reset(&v->vpm, i);
        vc4_tmu_qpu_reset(&v->tmu, i);
        vc4_qpu_start(q, &user_port, e->pc, e->unif, e->unif_len);
        v->stats.programs_started++;
    }
}

void vc4_sched_end_checks(struct vc4_v3d *v, struct vc4_qpu *q)
{
    struct vc4_location l = vc4_location_none();
    l.addr = q->pc;
    l.qpu = (int)q->num;
    unsigned ev = vc4_vpm_program_end(&v->vpm, q->num, &v->unit_sink, &l);
    ev |= vc4_tmu_program_end(&v->tmu, q->num, &v->unit_sink, &l);
    if (ev && v->strict && v->fault == VC4_OK)
        v->fault = VC4_ERR_RULE;
    vc4_mutex_release(&v->sema, q->num); /* UNVERIFIED: a finished QPU holds nothing */
}


static void report_timeout(struct vc4_v3d *v)
{
    for (unsigned i = 0; i < v->num_qpus; i++) {
        struct vc4_qpu *q = &v->qpu[i];
        if (q->state == VC4_EMU_QPU_IDLE)
            continue;
        vc4_v3d_qpu_diag(v, q, VC4_ERROR, VC4_DIAG_TIMEOUT, NULL, NULL,
                         "cycle budget exhausted: QPU %u %s after %llu instructions", i,
                         q->state == VC4_EMU_QPU_BLOCKED && q->blocked_on ? q->blocked_on : "running",
                         (unsigned long long)q->instructions);
    }
    if (v->sched.len) {
        struct vc4_location l = vc4_location_none();
        vc4_diag_emit(&v->unit_sink, VC4_ERROR, VC4_DIAG_TIMEOUT, "srq", &l,
                      "cycle budget exhausted with %u user programs still queued", v->sched.len);
    }
}

/* Rebuild the list of QPUs that issue this cycle (running or blocked),
 * in QPU-number order. */
static unsigned active_list(const struct vc4_v3d *v, uint8_t *act)
{
    unsigned n = 0;
    for (unsigned i = 0; i < v->num_qpus; i++)
        if (v->qpu[i].state != VC4_EMU_QPU_IDLE && v->qpu[i].state != VC4_EMU_QPU_FAULTED)
            act[n++] = (uint8_t)i;
    return n;
}

/* Each cycle: hand queued programs to idle QPUs, then every busy QPU
 * issues one instruction (or stalls) in QPU-number order.  Only the busy
 * QPUs are visited: the list changes only at dispatch and program end, so
 * vc4_qpu_run_cycles runs whole cycles of the same list until a program
 * ends, a fault, or the budget; idle QPUs are counted. */
enum vc4_status vc4_sched_run(struct vc4_v3d *v, uint64_t max_cycles)
{
    struct vc4_sched *s = &v->sched;
    uint8_t act[VC4_V3D_MAX_QPUS];
    unsigned nact = active_list(v, act);
    v->fault = VC4_OK;
    for (uint64_t c = 0;;) {
        if (s->len && nact < v->num_qpus) {
            dispatch(v);
            nact = active_list(v, act);
        }
        if (nact == 0) { /* nothing runs this cycle */
            if (c < max_cycles)
                v->stats.idle_cycles += v->num_qpus;
            if (s->len == 0)
                return VC4_OK;
        }
        if (c >= max_cycles) {
            report_timeout(v);
            return VC4_ERR_TIMEOUT;
        }
        if (nact == 0) { /* programs queued but no QPU can take them */
            s->cycle++;
            v->stats.cycles++;
            c++;
            continue;
        }
        bool ended = false;
        c += vc4_v3d_run_kind(v, VC4_EMU_PROG_USER, &s->time, act, nact, max_cycles - c, &ended);
        if (v->fault != VC4_OK)
            return v->fault;
        if (ended)
            nact = active_list(v, act);
    }
}
