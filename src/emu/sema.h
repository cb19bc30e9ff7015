/*
 * sema.h - the 16 system-wide counting semaphores and the mutex (internal).
 *
 * Semaphores (qpu-isa-facts 4, hardware facts 6.1; VC4C): 4-bit counters;
 * acquire (decrement) stalls while the count is 0, release (increment)
 * stalls while it is 15.  Mutex (facts 25): reading MUTEX_ACQUIRE blocks
 * until free; writing MUTEX_RELEASE frees it; a second acquire by the owner
 * is a no-op (recursive but not counting, maazl/vc4asm#30).
 */
#ifndef VC4_EMU_SEMA_H
#define VC4_EMU_SEMA_H

#include <stdbool.h>
#include <stdint.h>

#define VC4_SEMA_COUNT 16u
#define VC4_SEMA_MAX 15u
#define VC4_MUTEX_FREE (-1)

struct vc4_sema {
    uint8_t count[VC4_SEMA_COUNT];
    int mutex_owner; /* QPU number, or VC4_MUTEX_FREE */
    /* Bumped by every change of a count (sema_gen) and every release of
     * the mutex (mutex_gen): a QPU blocked on a semaphore or the mutex can
     * go on only after one, so the scheduler lets it sleep until then
     * (qpu.c run_cycles_sleeping). */
    uint32_t sema_gen, mutex_gen;
};

void vc4_sema_reset(struct vc4_sema *s);
/* Would the operation go through now (acquire: count > 0; release:
 * count < 15)? */
bool vc4_sema_ready(const struct vc4_sema *s, unsigned num, bool acquire);
/* Try the operation; false = the QPU stalls and retries. */
bool vc4_sema_try(struct vc4_sema *s, unsigned num, bool acquire);
bool vc4_mutex_try_acquire(struct vc4_sema *s, unsigned qpu);
/* Release by qpu; returns false if it did not hold the mutex (then nothing
 * happens: UNVERIFIED, the hardware's behaviour is unknown). */
bool vc4_mutex_release(struct vc4_sema *s, unsigned qpu);

#endif
