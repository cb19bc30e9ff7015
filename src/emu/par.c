/*
 * par.c - the second host core: a thread of the emulator's own that runs
 * jobs in the order they are posted (par.h says which jobs, and why the
 * results cannot depend on it).
 *
 * The emulator's thread writes job n into slot n of a ring and publishes
 * it by storing n in `seq` (release); the helper runs the jobs up to `seq`
 * one by one and stores each one's number in `done` (release) when it has
 * run, so a wait for job n (acquire) sees everything the job wrote.  A slot
 * is written again only after the helper has run the job in it.  The
 * helper spins for the next job a while (jobs come microseconds apart),
 * then sleeps; `sleeping` (sequentially consistent, against `seq`) tells
 * the poster to wake it.
 */
#define _POSIX_C_SOURCE 200809L
#include "emu/par.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/types.h>
#include <unistd.h>

#include "base/hostsync.h"
#include "emu/qpu_alu.h"

/* The helper waits for the next job spinning this long, then sleeps: the
 * jobs of a program (free runs, texture samplings) come microseconds apart, but waking a
 * sleeping thread took about a millisecond on the 2-core virtual machine
 * this was measured on (bench_qpu: 150-460 voluntary context switches made
 * a 0.07 s run 0.25 s when the helper slept after 10 microseconds). */
#define IDLE_BEFORE_SLEEP_US 2000u
#define SPINS_BEFORE_YIELD 2000u
/* Jobs posted and not yet run, at most (a power of two). */
#define RING 64u

struct job {
    vc4_par_fn *fn;
    void *arg;
};

struct vc4_par {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pid_t pid;               /* the process that started the helper */
    bool forked;             /* ... is not this one: no helper here */
    atomic_int usable;       /* 0 starting, 1 ready, -1 its floating-point environment refused */
    _Atomic uint64_t seq, done; /* the last job posted, the last job run (never wrap) */
    atomic_bool sleeping, stop;
    atomic_uint idle_us;     /* spinning this long without a job, it sleeps */
    atomic_uint delay_us;    /* (tests) the helper pauses this long before each job */
    bool wake;               /* (under mu) wake up, with no job: spin for the next */
    uint64_t posted;         /* (the emulator's thread's copy of seq) */
    struct job ring[RING];
};

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Wakes the helper if it sleeps (once: a wake already asked for is not
 * signalled again while it wakes). */
static void wake_helper(struct vc4_par *p)
{
    pthread_mutex_lock(&p->mu);
    if (atomic_load(&p->sleeping) && !p->wake) {
        p->wake = true;
        pthread_cond_signal(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
}

static void pause_us(unsigned us)
{
    struct timespec ts = {.tv_sec = us / 1000000u, .tv_nsec = (long)(us % 1000000u) * 1000};
    nanosleep(&ts, NULL);
}

static void *helper(void *arg)
{
    struct vc4_par *p = arg;
    /* (the host kernels' environment, as vc4_v3d_fp_enter sets it on the
     * emulator's thread for each run; kept for the thread's life) */
    struct vc4_alu_fpenv env;
    int usable = vc4_alu_fp_enter(&env) ? 1 : -1;
    pthread_mutex_lock(&p->mu); /* (vc4_par_create waits for this) */
    atomic_store(&p->usable, usable);
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    uint64_t seen = 0;
    for (;;) {
        uint64_t s;
        unsigned spins = 0;
        double idle_from = 0;
        while ((s = atomic_load_explicit(&p->seq, memory_order_acquire)) == seen) {
            if (atomic_load_explicit(&p->stop, memory_order_relaxed))
                return NULL;
            relax();
            if (++spins % 256u != 0)
                continue;
            double t = vc4_monotonic_seconds();
            if (idle_from == 0)
                idle_from = t;
            if (t - idle_from < 1e-6 * atomic_load_explicit(&p->idle_us, memory_order_relaxed))
                continue;
            pthread_mutex_lock(&p->mu);
            atomic_store(&p->sleeping, true);
            while (atomic_load(&p->seq) == seen && !atomic_load(&p->stop) && !p->wake)
                pthread_cond_wait(&p->cv, &p->mu);
            p->wake = false;
            atomic_store(&p->sleeping, false);
            pthread_mutex_unlock(&p->mu);
            idle_from = 0;
        }
        while (seen != s) {
            seen++;
            unsigned delay = atomic_load_explicit(&p->delay_us, memory_order_relaxed);
            if (delay)
                pause_us(delay);
            const struct job *j = &p->ring[seen % RING];
            j->fn(j->arg);
            atomic_store_explicit(&p->done, seen, memory_order_release);
        }
    }
}

struct vc4_par *vc4_par_create(const struct vc4_allocator *alloc)
{
    struct vc4_par *p = vc4_calloc(alloc, 1, sizeof *p);
    if (!p)
        return NULL;
    atomic_init(&p->usable, 0);
    atomic_init(&p->seq, 0);
    atomic_init(&p->done, 0);
    atomic_init(&p->sleeping, false);
    atomic_init(&p->stop, false);
    atomic_init(&p->idle_us, IDLE_BEFORE_SLEEP_US);
    atomic_init(&p->delay_us, 0);
    p->pid = getpid();
    if (!vc4_sync_init(&p->mu, &p->cv)) {
        vc4_free(alloc, p);
        return NULL;
    }
    if (pthread_create(&p->thread, NULL, helper, p) != 0) {
        vc4_sync_fini(&p->mu, &p->cv);
        vc4_free(alloc, p);
        return NULL;
    }
    /* ready before the first run (else, on a busy host, a short run could
     * end before the helper is scheduled at all) */
    pthread_mutex_lock(&p->mu);
    while (atomic_load(&p->usable) == 0)
        pthread_cond_wait(&p->cv, &p->mu);
    pthread_mutex_unlock(&p->mu);
    return p;
}

void vc4_par_destroy(struct vc4_par *p, const struct vc4_allocator *alloc)
{
    if (!p)
        return;
    if (!p->forked && p->pid == getpid()) {
        pthread_mutex_lock(&p->mu);
        atomic_store(&p->stop, true);
        pthread_cond_signal(&p->cv);
        pthread_mutex_unlock(&p->mu);
        pthread_join(p->thread, NULL);
        vc4_sync_fini(&p->mu, &p->cv);
    }
    /* (in a forked child the thread does not exist: its mutex and
     * condition variable are left as they are) */
    vc4_free(alloc, p);
}

void vc4_par_set_idle(struct vc4_par *p, unsigned us)
{
    atomic_store(&p->idle_us, us);
    if (!p->forked)
        wake_helper(p); /* (asleep already: awake again, under the new limit) */
}

void vc4_par_set_delay(struct vc4_par *p, unsigned us)
{
    atomic_store(&p->delay_us, us);
}

void vc4_par_check_fork(struct vc4_par *p)
{
    if (p && !p->forked && p->pid != getpid())
        p->forked = true;
}

bool vc4_par_awake(struct vc4_par *p)
{
    if (!p || p->forked || atomic_load_explicit(&p->usable, memory_order_acquire) != 1)
        return false;
    if (atomic_load(&p->sleeping)) {
        /* (waking it takes longer than the jobs: they stay here, and it is
         * awake for the next ones) */
        wake_helper(p);
        return false;
    }
    return true;
}

void vc4_par_wait(struct vc4_par *p, uint64_t n)
{
    /* (the helper is seldom behind for long; when the host is busy and it
     * is not running, give it the core) */
    for (unsigned spins = 0; atomic_load_explicit(&p->done, memory_order_acquire) < n; spins++) {
        if (spins < SPINS_BEFORE_YIELD)
            relax();
        else
            sched_yield();
    }
}

bool vc4_par_done(struct vc4_par *p, uint64_t n)
{
    return atomic_load_explicit(&p->done, memory_order_acquire) >= n;
}

unsigned vc4_par_backlog(struct vc4_par *p)
{
    return (unsigned)(p->posted - atomic_load_explicit(&p->done, memory_order_acquire));
}

uint64_t vc4_par_post(struct vc4_par *p, vc4_par_fn *fn, void *arg)
{
    uint64_t n = p->posted + 1u;
    if (n > RING)
        vc4_par_wait(p, n - RING); /* (its slot's last job has run) */
    p->ring[n % RING] = (struct job){fn, arg};
    p->posted = n;
    atomic_store(&p->seq, n); /* (sequentially consistent: against `sleeping`) */
    if (atomic_load(&p->sleeping)) { /* (it fell asleep just now) */
        pthread_mutex_lock(&p->mu);
        pthread_cond_signal(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
    return n;
}

