/*
 * sema.c - semaphores and the mutex; rules in sema.h.
 */
#include "emu/sema.h"

void vc4_sema_reset(struct vc4_sema *s)
{
    for (unsigned i = 0; i < VC4_SEMA_COUNT; i++)
        s->count[i] = 0;
    s->mutex_owner = VC4_MUTEX_FREE;
    s->sema_gen++;
    s->mutex_gen++;
}

bool vc4_sema_ready(const struct vc4_sema *s, unsigned num, bool acquire)
{
    uint8_t c = s->count[num % VC4_SEMA_COUNT];
    return acquire ? c != 0 : c < VC4_SEMA_MAX;
}

bool vc4_sema_try(struct vc4_sema *s, unsigned num, bool acquire)
{
    if (!vc4_sema_ready(s, num, acquire))
        return false;
    uint8_t *c = &s->count[num % VC4_SEMA_COUNT];
    *c = (uint8_t)(acquire ? *c - 1u : *c + 1u);
    s->sema_gen++;
    return true;
}

bool vc4_mutex_try_acquire(struct vc4_sema *s, unsigned qpu)
{
    if (s->mutex_owner == VC4_MUTEX_FREE) {
        s->mutex_owner = (int)qpu;
        return true;
    }
    return s->mutex_owner == (int)qpu; /* recursive, not counting */
}

bool vc4_mutex_release(struct vc4_sema *s, unsigned qpu)
{
    if (s->mutex_owner != (int)qpu)
        return false;
    s->mutex_owner = VC4_MUTEX_FREE;
    s->mutex_gen++;
    return true;
}
