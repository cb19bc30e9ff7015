/*
 * sched.h - which QPU runs what (internal): the user-program request queue
 * (SRQPC/SRQUA/SRQUL/SRQCS) and the deterministic interleaving of QPUs.
 *
 * Every cycle each busy QPU issues one instruction (or stalls), in QPU
 * number order: the same inputs always give the same interleaving.
 */
#ifndef VC4_EMU_SCHED_H
#define VC4_EMU_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "vc4kit/diag.h"
#include "vc4kit/emu.h"

#define VC4_SRQ_DEPTH 16u /* requests the queue holds (QPURQL is 6 bits) */

struct vc4_srq_entry {
    uint32_t pc, unif, unif_len;
};

struct vc4_sched {
    struct vc4_srq_entry q[VC4_SRQ_DEPTH];
    unsigned head, len;
    uint8_t requested;  /* QPURQCM, 8 bits */
    uint8_t completed;  /* QPURQCC, 8 bits */
    bool error;         /* QPURQERR: queue overflow */
    uint64_t cycle;
    struct vc4_emu_qpu_time time; /* QPU time of user programs */
};

struct vc4_v3d;

void vc4_sched_reset(struct vc4_sched *s);
/* SRQPC write: queue a program (uses SRQUA/SRQUL). */
void vc4_sched_push(struct vc4_v3d *v, uint32_t pc);
uint32_t vc4_sched_srqcs(const struct vc4_sched *s);
void vc4_sched_write_srqcs(struct vc4_sched *s, uint32_t value);
/* Run until idle or the budget ends (see vc4_emu_run). */
enum vc4_status vc4_sched_run(struct vc4_v3d *v, uint64_t max_cycles);
struct vc4_qpu;
/* The checks every program's end gets (VPM reads left, TMU requests left,
 * strict mode) and the mutex it held given back; also for vertex and
 * coordinate shaders (vsi.c). */
void vc4_sched_end_checks(struct vc4_v3d *v, struct vc4_qpu *q);

#endif
