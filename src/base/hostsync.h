/*
 * hostsync.h - host plumbing shared by the emulator's own threads (jit.c's
 * compiler thread, par.c's helper): a mutex with its condition variable,
 * made and unmade together, and the monotonic clock.  Internal; the
 * includer defines _POSIX_C_SOURCE (or _GNU_SOURCE) first.
 */
#ifndef VC4_BASE_HOSTSYNC_H
#define VC4_BASE_HOSTSYNC_H

#include <pthread.h>
#include <stdbool.h>
#include <time.h>

/* Both made, or neither (false). */
static inline bool vc4_sync_init(pthread_mutex_t *mu, pthread_cond_t *cv)
{
    if (pthread_mutex_init(mu, NULL) != 0)
        return false;
    if (pthread_cond_init(cv, NULL) != 0) {
        pthread_mutex_destroy(mu);
        return false;
    }
    return true;
}

static inline void vc4_sync_fini(pthread_mutex_t *mu, pthread_cond_t *cv)
{
    pthread_cond_destroy(cv);
    pthread_mutex_destroy(mu);
}

/* Seconds on the monotonic clock (for intervals). */
static inline double vc4_monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
