/*
 * par.h - the second host core (internal): a thread of the emulator's own
 * that runs jobs in the order they are posted, for two kinds of work whose
 * results cannot depend on where they ran.
 *
 * QPUs on their own.  When every awake QPU runs code that touches only its
 * own registers, flags and counts (qpu.c run_exact, run_free: compiled
 * blocks and the fast path, up to the first TMU or VPM access), nothing
 * one QPU does in those cycles can be seen by another, so the later half
 * of them may run at the same time on the helper (the instructions their
 * blocks hold, or each as far as it can) and give the same bits as one
 * after the other.  The end of the job is the synchronisation point: the
 * QPUs that got further than another are taken back and run again on the
 * emulator's thread, and the counts are added there.
 *
 * Texture sampling.  A texture request's sampling reads guest memory and
 * the TMU cache model's tags and writes the request's result; tmu.c posts
 * it and takes the result (and the hits and misses) when the QPU loads it,
 * with every access that could see or change what the job uses (a memory
 * write, a general lookup, the cache model, the FIFOs) waiting for the jobs
 * first (tmu.h "Sampling on the second host core").
 *
 * Whether work went to the helper changes no result, count or diagnostic
 * (test_qpu_sleep and test_tmu_helper run both ways).  The helper is
 * started with the emulator when vc4_emu_options.host_threads asks for
 * two, in the host's default floating-point environment (the host kernels'
 * condition, as on the emulator's thread: vc4_alu_fp_enter).  Between jobs
 * it spins for up to 2 ms, then sleeps on a condition variable; work that
 * finds it asleep stays on the emulator's thread and wakes it for the next
 * (vc4_par_awake).  A process that forks keeps it in the parent; the child
 * runs everything on its own thread.
 */
#ifndef VC4_EMU_PAR_H
#define VC4_EMU_PAR_H

#include <stdbool.h>
#include <stdint.h>

#include "base/base.h"

struct vc4_par;

/* NULL when the thread cannot be started (then everything runs on the
 * caller's thread). */
struct vc4_par *vc4_par_create(const struct vc4_allocator *alloc);
void vc4_par_destroy(struct vc4_par *p, const struct vc4_allocator *alloc);

/* How long the helper spins without a job before it sleeps (default
 * 2000 us; tests lengthen it); wakes it if it sleeps. */
void vc4_par_set_idle(struct vc4_par *p, unsigned us);

/* At the start of each emulator run: after a fork the child's helper is
 * gone, and the runs stay on the caller's thread. */
void vc4_par_check_fork(struct vc4_par *p);

/* Can work go to the helper now?  False when it cannot take any (none,
 * gone after a fork, or its floating-point environment refused the host
 * kernels) or sleeps; a sleeping helper is woken for later work. */
bool vc4_par_awake(struct vc4_par *p);

/* A job: fn(arg) on the helper, after every job posted before it. */
typedef void vc4_par_fn(void *arg);
/* Posts a job (after vc4_par_awake said yes during this run) and returns
 * its number (from 1, never reused); waits first if 64 jobs are still
 * waiting to run. */
uint64_t vc4_par_post(struct vc4_par *p, vc4_par_fn *fn, void *arg);
/* Has job n run (0: none, true)?  Then what it wrote is visible here. */
bool vc4_par_done(struct vc4_par *p, uint64_t n);
/* Jobs posted that have not run yet. */
unsigned vc4_par_backlog(struct vc4_par *p);
/* Until job n has run. */
void vc4_par_wait(struct vc4_par *p, uint64_t n);

/* Tests: the helper pauses this long before each job, so that work left
 * to it is late and a missing wait shows. */
void vc4_par_set_delay(struct vc4_par *p, unsigned us);

/* The helper's share of such a run, in QPU cycles (its QPUs times the
 * run's most cycles), below which the run stays on one thread: a round
 * trip to the helper costs about what 128 instructions do (measured for
 * the gathered runs free runs replaced: docs/emulator.md "Two host
 * cores"). */
#define VC4_PAR_MIN_HELPER_INSTRUCTIONS 128u

#endif
