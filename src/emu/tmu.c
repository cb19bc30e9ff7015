/*
 * tmu.c - TMU request/result FIFOs and general-memory lookups.  See tmu.h
 * for the sources ([G], [S4], [A], [C]).
 *
 * Model: one request FIFO per QPU and physical TMU.  A request is
 * completed functionally when S is written (memory is read then), and its
 * result carries the cycle at which the hardware would have it; ldtmu pops
 * the oldest result and tells the QPU how long it must stall.
 */
#include "emu/tmu.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "base/base.h"
#include "spec/rules.h"
#include "emu/par.h"
#include "emu/tmu_tex.h"

#define UNIT "tmu"

/* ---- sampling on the second host core (tmu.h) ----------------------------------------------- */

static_assert(VC4_TMU_JOBS < 255u, "a request names its job in a byte");

/* A request is sampled here rather than on the helper when this many jobs
 * are waiting there (and none for its tags).  The QPUs of a draw ask for
 * their lookups at nearly the same time and load them a few instructions
 * later: with all of them on the helper the emulator's thread waited for
 * each in turn (the 1080p floor 1.1x faster on two threads; with 2 here
 * 1.32-1.35x, with 1 1.27x, with 3 1.29-1.32x; docs/emulator.md). */
#define BACKLOG 2u

/* A request's sampling counts: added to the statistics; its latency. */
static uint64_t account(struct vc4_tmu *t, const struct vc4_tmu_tex_work *w)
{
    t->stats.texels += w->texels;
    t->stats.lookups += w->texels;
    /* (every texel read is a cache access) */
    t->stats.cache_hits += w->texels - w->misses;
    t->stats.cache_misses += w->misses;
    return w->misses ? VC4_TMU_LAT_MEMORY : VC4_TMU_LAT_CACHE;
}

/* Job j has run: its counts into the statistics, its latency into its
 * request's ready time, the slot free. */
static VC4_NOINLINE void take_job(struct vc4_tmu *t, struct vc4_tmu_job *j)
{
    vc4_par_wait(t->helper, j->n);
    j->rq->ready_at += account(t, &j->work);
    j->rq->job = 0;
    j->n = 0;
    if (--t->jobs_open == 0)
        t->fenced->fence = NULL;
}

/* Before the oldest request of f is loaded: its job taken, if it has one.
 * (Apart from pop_result, which calls nothing: with the call in it, the
 * FFT's loads cost 45% more host instructions, none of them with a job.) */
static inline void take_oldest(struct vc4_tmu *t, const struct vc4_tmu_fifo *f)
{
    if (VC4_UNLIKELY(t->jobs_open)) {
        uint8_t job = f->req[f->head].job;
        if (job)
            take_job(t, &t->job[job - 1u]);
    }
}

/* Before a FIFO is cleared: the jobs of its requests taken (the others
 * go on: they write other requests). */
static void take_fifo(struct vc4_tmu *t, const struct vc4_tmu_fifo *f)
{
    for (unsigned k = 0; t->jobs_open && k < f->count; k++) {
        uint8_t job = f->req[(f->head + k) % VC4_TMU_FIFO_SLOTS].job;
        if (job)
            take_job(t, &t->job[job - 1u]);
    }
}

void vc4_tmu_sync(struct vc4_tmu *t)
{
    for (unsigned k = 0; t->jobs_open && k < VC4_TMU_JOBS; k++)
        if (t->job[k].n)
            take_job(t, &t->job[k]);
}

static inline void sync_if_open(struct vc4_tmu *t)
{
    if (VC4_UNLIKELY(t->jobs_open))
        vc4_tmu_sync(t);
}

static void fence_fn(void *user)
{
    vc4_tmu_sync(user);
}

static void sample_job(void *arg)
{
    struct vc4_tmu_job *j = arg;
    vc4_tmu_tex_sample(j->cfg, j->mem, (const uint32_t(*)[16])j->coord, j->written, j->rq->data, j->tags,
                       j->phys, &j->work, NULL, NULL);
}

/* Sample rq on the helper (t->cfg, clean and inside RAM) through tags:
 * the job's number.  rq's ready time gets the latency when the job is
 * taken. */
static uint64_t post_sample(struct vc4_tmu *t, struct vc4_mem *mem, uint32_t *tags, unsigned phys,
                            const struct vc4_tmu_fifo *f, unsigned written, struct vc4_tmu_request *rq)
{
    unsigned slot = t->job_next++ % VC4_TMU_JOBS;
    struct vc4_tmu_job *j = &t->job[slot];
    if (j->n)
        take_job(t, j);
    if (!t->job_cfg_valid) { /* a copy of cfg that no job still waiting to run uses */
        t->job_cfg_cur = (t->job_cfg_cur + 1u) % VC4_TMU_JOB_CONFIGS;
        vc4_par_wait(t->helper, t->job_cfg_last[t->job_cfg_cur]);
        t->job_cfg[t->job_cfg_cur] = t->cfg;
        t->job_cfg_valid = true;
    }
    j->cfg = &t->job_cfg[t->job_cfg_cur];
    j->mem = mem;
    j->tags = tags;
    /* (what the sampler reads: S and T, R and B when written) */
    for (unsigned k = 0; k < 4; k++)
        if (k <= VC4_TMU_T || (written >> k & 1u))
            memcpy(j->coord[k], f->coord[k], sizeof j->coord[k]);
    j->written = written;
    j->phys = phys;
    j->rq = rq;
    j->work = (struct vc4_tmu_tex_work){0, 0};
    rq->job = (uint8_t)(slot + 1u);
    if (t->jobs_open++ == 0) {
        t->fenced = mem;
        mem->fence = fence_fn;
        mem->fence_user = t;
    }
    j->n = vc4_par_post(t->helper, sample_job, j);
    t->job_cfg_last[t->job_cfg_cur] = j->n;
    t->jobs_posted++;
    return j->n;
}

/* ---- the unit -------------------------------------------------------------------------------- */

void vc4_tmu_reset(struct vc4_tmu *t)
{
    sync_if_open(t);
    struct vc4_par *helper = t->helper;
    memset(t, 0, sizeof *t);
    t->helper = helper;
    vc4_tmu_flush_caches(t);
}

void vc4_tmu_init(struct vc4_tmu *t)
{
    memset(t, 0, sizeof *t);
    vc4_tmu_flush_caches(t);
}

/* A FIFO as reset leaves it (f->used: only if not already), but for its
 * request slots: each is filled before it is read (new_request and the
 * lookups), and only [head, head + count) is ever read.  The counters,
 * parameters and coordinates (which a texture request reads whether
 * written or not: tmu_tex.c takes T always) are zeroed as before.
 * (Clearing the slots too cost 3.8 KB of stores at every fragment thread
 * start of a textured frame.) */
static_assert(offsetof(struct vc4_tmu_fifo, coord) < offsetof(struct vc4_tmu_fifo, req) &&
                  offsetof(struct vc4_tmu_fifo, params) < offsetof(struct vc4_tmu_fifo, req) &&
                  offsetof(struct vc4_tmu_fifo, used) < offsetof(struct vc4_tmu_fifo, req) &&
                  offsetof(struct vc4_tmu_fifo, count) < offsetof(struct vc4_tmu_fifo, req),
              "everything but the request slots before them (fifo_clear)");
static void fifo_clear(struct vc4_tmu_fifo *f)
{
    if (f->used)
        memset(f, 0, offsetof(struct vc4_tmu_fifo, req));
}

void vc4_tmu_qpu_reset(struct vc4_tmu *t, unsigned qpu)
{
    if (qpu >= VC4_TMU_MAX_QPUS)
        return;
    t->noswap[qpu] = false;
    for (unsigned u = 0; u < VC4_TMU_UNITS; u++) {
        take_fifo(t, &t->q[qpu].fifo[u]);
        fifo_clear(&t->q[qpu].fifo[u]);
    }
}

void vc4_tmu_flush_caches(struct vc4_tmu *t)
{
    sync_if_open(t);
    /* all-ones is not a valid tag: tags are address >> 6 with a 30-bit address */
    memset(t->cache_tag, 0xFF, sizeof t->cache_tag);
}

unsigned vc4_tmu_physical(const struct vc4_tmu *t, unsigned qpu, unsigned unit)
{
    unit &= 1u;
    if (qpu >= VC4_TMU_MAX_QPUS)
        return unit;
    /* Default swap: QPUs 2 and 3 of each group of 4 use TMU1 for the
     * "TMU0" registers and signals, and vice versa [C], unless TMU_NOSWAP
     * was written non-zero [A]. */
    if (!t->noswap[qpu] && qpu % VC4_TMU_SWAP_QPU_MOD >= VC4_TMU_SWAP_QPU_MIN)
        unit ^= 1u;
    return unit;
}

void vc4_tmu_write_noswap(struct vc4_tmu *t, unsigned qpu, uint32_t elem0)
{
    if (qpu < VC4_TMU_MAX_QPUS)
        t->noswap[qpu] = elem0 != 0;
}

bool vc4_tmu_write_takes_uniform(const struct vc4_tmu *t, unsigned qpu, unsigned unit,
                                 enum vc4_tmu_reg reg)
{
    if (qpu >= VC4_TMU_MAX_QPUS)
        return false;
    if (reg != VC4_TMU_S)
        return true;
    const struct vc4_tmu_fifo *f = &t->q[qpu].fifo[vc4_tmu_physical(t, qpu, unit)];
    return f->written != 0;
}

static bool bad_qpu(unsigned qpu, const struct vc4_diag_sink *sink,
                    const struct vc4_location *loc)
{
    if (qpu < VC4_TMU_MAX_QPUS)
        return false;
    vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_FAULT, UNIT, loc, "QPU number %u out of range", qpu);
    return true;
}

static_assert(VC4_TMU_CACHE_LINE >= 64, "a run of 16 words (64 bytes) spans at most two cache lines");

/* Are the RAM offsets of the 16 word addresses s consecutive from first
 * (the offset of s[0])? */
static inline bool words_run(const uint32_t *s, uint32_t first)
{
#if defined(__GNUC__)
    /* (GCC's and clang's vector extension: four lanes at a time; the plain
     * loop is not vectorised at -O2 and cost 8 host instructions a word) */
    typedef uint32_t u32x4 __attribute__((vector_size(16)));
    const uint32_t m = VC4_TMU_ADDR_ALIGN_MASK & VC4_BUS_OFFSET_MASK;
    const u32x4 mask = {m, m, m, m};
    u32x4 apart = {0, 0, 0, 0}, want = first + (u32x4){0, 4, 8, 12};
    for (unsigned i = 0; i < 16; i += 4, want += 16) {
        u32x4 x;
        memcpy(&x, s + i, sizeof x);
        apart |= (x & mask) ^ want;
    }
    return (apart[0] | apart[1] | apart[2] | apart[3]) == 0;
#else
    uint32_t apart = 0;
    for (unsigned i = 1; i < 16; i++)
        apart |= (s[i] & VC4_TMU_ADDR_ALIGN_MASK & VC4_BUS_OFFSET_MASK) ^ (first + 4 * i);
    return apart == 0;
#endif
}

/* The RAM offsets of a general lookup's 16 word addresses s, into off,
 * and RAM from offset 0 up to the last word: NULL unless every word lies
 * inside RAM.  *run: the words are consecutive (off[i] = off[0] + 4 i, a
 * whole vector read, the commonest lookup); then only off[0] is set. */
static inline const uint8_t *lookup_offsets(const struct vc4_mem *mem, const uint32_t *s, uint32_t off[16],
                                            bool *run)
{
    uint32_t first = s[0] & VC4_TMU_ADDR_ALIGN_MASK & VC4_BUS_OFFSET_MASK;
    off[0] = first;
    *run = words_run(s, first);
    if (*run)
        return vc4_mem_ptr(mem, 0, first + 64);
    uint32_t last = 0;
    for (unsigned i = 0; i < 16; i++) {
        off[i] = s[i] & VC4_TMU_ADDR_ALIGN_MASK & VC4_BUS_OFFSET_MASK;
        last = off[i] > last ? off[i] : last;
    }
    return vc4_mem_ptr(mem, 0, last + 4);
}

/* A request made in the FIFO's next slot (free: count < slots), its
 * parameters the ones pulled for it.  (Its fields are set one by one: a
 * memset of the 168-byte record was a fifth of vc4_tmu_write's time; the
 * data words are written by the lookup, cleared where it does not write
 * all 16.) */
static struct vc4_tmu_request *new_request(struct vc4_tmu_fifo *f, unsigned slots, bool texture,
                                           uint8_t nparams)
{
    struct vc4_tmu_request *rq = &f->req[(f->head + f->count) % VC4_TMU_FIFO_SLOTS];
    rq->slots = (uint8_t)slots;
    rq->texture = texture;
    rq->job = 0;
    rq->nparams = nparams;
    rq->loaded = 0;
    rq->words = 1;
    memcpy(rq->params, f->params, sizeof rq->params);
    return rq;
}

/* The request queued, its data ready at cycle ready_at. */
static void queue_request(struct vc4_tmu *t, struct vc4_tmu_fifo *f, struct vc4_tmu_request *rq,
                          uint64_t ready_at)
{
    rq->ready_at = ready_at;
    f->count++;
    f->slots_used = (uint8_t)(f->slots_used + rq->slots);
    t->stats.requests++;
}

/* A general lookup of 16 words, each inside RAM (at ram + off[i], or
 * ram + off[0] + 4 i for a run), through the cache with these tags: its
 * data, counts and latency.  The TMU loads elements in element order [A]
 * (the cache's tags change in that order).  An element in the line of the
 * element before it hits: the cache is direct-mapped, so that line is still
 * in its slot.  So a run's 64 bytes, in one or two lines, are two looks at
 * the tags at most, the other elements hits. */
static uint64_t lookup_in_ram(struct vc4_tmu *t, uint32_t *tags, const uint8_t *ram, const uint32_t off[16],
                              bool run, struct vc4_tmu_request *rq)
{
    unsigned hits = 0;
    if (run) {
        const uint8_t *p = ram + off[0];
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        memcpy(rq->data[0], p, sizeof rq->data[0]);
#else
        for (unsigned i = 0; i < 16; i++)
            rq->data[0][i] = vc4_le32(p + 4 * i);
#endif
        uint32_t line = off[0] / VC4_TMU_CACHE_LINE, end = (off[0] + 60) / VC4_TMU_CACHE_LINE;
        hits = vc4_tmu_cache_touch_line(tags, line);
        if (end == line)
            hits += 15; /* (the other elements: in the line just touched) */
        else
            hits += vc4_tmu_cache_touch_line(tags, end) + 14u;
    } else {
        for (unsigned i = 0; i < 16; i++)
            rq->data[0][i] = vc4_le32(ram + off[i]);
        /* (off: RAM offsets already; touched in order without a branch on
         * the outcome, see vc4_tmu_cache_touch_line) */
        for (unsigned i = 0; i < 16; i++)
            hits += vc4_tmu_cache_touch_line(tags, off[i] / VC4_TMU_CACHE_LINE);
    }
    t->stats.lookups += 16;
    t->stats.cache_hits += hits;
    t->stats.cache_misses += 16 - hits;
    return hits < 16 ? VC4_TMU_LAT_MEMORY : VC4_TMU_LAT_CACHE;
}

/* A texture request: decode P0..P3 once, sample the 16 elements. */
static unsigned texture_lookup(struct vc4_tmu *t, struct vc4_mem *mem, unsigned qpu,
                               unsigned phys, const struct vc4_tmu_fifo *f, unsigned written,
                               struct vc4_tmu_request *rq, const struct vc4_diag_sink *sink,
                               const struct vc4_location *loc, uint64_t *latency)
{
    /* Findings about the same P0, P1 as the last reported ones are not
     * repeated (a bad texture in a draw would be reported per request). */
    bool repeat = t->diag_valid && t->diag_params[0] == rq->params[0] &&
                  t->diag_params[1] == rq->params[1];
    if (repeat)
        sink = NULL;
    const struct vc4_tmu_tex *cfg = &t->cfg;
    unsigned tev = 0;
    bool decoded = t->cfg_nparams != 0 && rq->nparams == t->cfg_nparams &&
                   memcmp(rq->params, t->cfg_params, rq->nparams * sizeof rq->params[0]) == 0;
    if (!decoded) {
        tev = vc4_tmu_tex_decode(&t->cfg, rq->params, rq->nparams, sink, loc);
        t->cfg_nparams = tev ? 0 : rq->nparams;
        memcpy(t->cfg_params, rq->params, sizeof t->cfg_params);
        t->cfg_in_ram = cfg->levels && vc4_tmu_tex_in_ram(cfg, mem);
        t->job_cfg_valid = false; /* (jobs waiting to run keep their copy) */
    }
    unsigned ev = 0;
    if (cfg->levels) { /* 0: the parameters give no usable image */
        if (vc4_tex_texel_is_wide(cfg->type))
            rq->words = 2;
        unsigned set = vc4_tmu_tag_set(qpu, phys);
        uint32_t *tags = t->cache_tag[set];
        if (!tev && t->cfg_in_ram && vc4_par_awake(t->helper)) { /* (it can report nothing) */
            uint64_t *last = &t->tags_last[set];
            if (vc4_par_backlog(t->helper) < BACKLOG || !vc4_par_done(t->helper, *last)) {
                *last = post_sample(t, mem, tags, phys, f, written, rq);
                *latency = 0;
                return 0;
            }
            /* the helper is behind and no job of the helper's reads these
             * tags: sampled here, their accesses stay in order */
        } else {
            sync_if_open(t); /* (the cache model's accesses in order) */
        }
        struct vc4_tmu_tex_work work = {0, 0};
        tev |= vc4_tmu_tex_sample(cfg, mem, f->coord, written, rq->data, tags, phys, &work, sink, loc);
        *latency = account(t, &work);
    }
    if (tev && !repeat) {
        t->diag_valid = true;
        memcpy(t->diag_params, rq->params, sizeof t->diag_params);
    }
    if (tev & VC4_TMU_TEX_FAULT)
        ev |= VC4_TMU_EV_FAULT;
    if (tev & VC4_TMU_TEX_BAD_CONFIG)
        ev |= VC4_TMU_EV_BAD_CONFIG;
    if (tev & VC4_TMU_TEX_UNSUPPORTED)
        ev |= VC4_TMU_EV_UNSUPPORTED;
    return ev;
}

unsigned vc4_tmu_write(struct vc4_tmu *t, struct vc4_mem *mem, unsigned qpu, unsigned unit,
                       enum vc4_tmu_reg reg, uint16_t mask, const uint32_t val[16],
                       uint32_t param, uint64_t now, const struct vc4_diag_sink *sink,
                       const struct vc4_location *loc)
{
    if (bad_qpu(qpu, sink, loc))
        return VC4_TMU_EV_BAD_QPU;
    unsigned phys = vc4_tmu_physical(t, qpu, unit);
    struct vc4_tmu_fifo *f = &t->q[qpu].fifo[phys];
    unsigned ev = 0;
    bool takes = vc4_tmu_write_takes_uniform(t, qpu, unit, reg);
    unsigned r = (unsigned)reg & 3u;
    f->used = true;

    if (mask != 0xFFFFu) {
        vc4_rule_report(sink, VC4_WARNING, UNIT, VC4_RULE_PERIPH_COND_WRITE, loc,
                        "conditional write to TMU%u_%c (mask 0x%04x): the FIFO is triggered "
                        "anyway with undefined data; emulator uses 0 for the other elements",
                        unit & 1u, "STRB"[r], mask);
        ev |= VC4_TMU_EV_COND_WRITE;
    }
    if (mask == 0xFFFFu) /* (the common case: every element written) */
        memcpy(f->coord[r], val, sizeof f->coord[r]);
    else
        for (unsigned i = 0; i < 16; i++)
            f->coord[r][i] = (mask >> i & 1u) ? val[i] : 0;
    if (takes && f->nparams < 4)
        f->params[f->nparams++] = param;
    if (reg != VC4_TMU_S) {
        f->written |= (uint8_t)(1u << r);
        return ev;
    }

    /* S written: submit.  Slots: every written coordinate takes one [G via
     * Mesa]: an S-only lookup takes 1, an (s,t) texture request 2. */
    unsigned slots = 1;
    for (unsigned k = 1; k < 4; k++)
        slots += (f->written >> k) & 1u;
    bool texture = f->written != 0;
    unsigned written = f->written | 1u << VC4_TMU_S;
    uint8_t nparams = f->nparams;
    f->written = 0;
    f->nparams = 0;

    if (f->slots_used + slots > VC4_TMU_FIFO_SLOTS || f->count >= VC4_TMU_FIFO_SLOTS) {
        vc4_rule_report(sink, VC4_ERROR, UNIT, VC4_RULE_TMU_FIFO_OVERFLOW, loc,
                        "TMU%u request FIFO overflow: %u slots in use, this request needs %u of "
                        "%u (hardware deadlocks); request dropped", phys, (unsigned)f->slots_used,
                        slots, VC4_TMU_FIFO_SLOTS);
        return ev | VC4_TMU_EV_OVERFLOW;
    }
    if (f->count + 1u > VC4_TMU_FIFO_RELIABLE) {
        vc4_rule_report(sink, VC4_WARNING, UNIT, VC4_RULE_TMU_FIFO_DEEP, loc,
                        "%u TMU%u requests outstanding: more than %u is unreliable on hardware "
                        "(results may come from 4 slots ahead)", f->count + 1u, phys,
                        VC4_TMU_FIFO_RELIABLE);
        ev |= VC4_TMU_EV_UNRELIABLE;
    }

    struct vc4_tmu_request *rq = new_request(f, slots, texture, nparams);
    uint64_t latency = VC4_TMU_LAT_CACHE;
    if (texture) {
        memset(rq->data, 0, sizeof rq->data);
        t->stats.texture_requests++;
        ev |= texture_lookup(t, mem, qpu, phys, f, written, rq, sink, loc, &latency);
    } else {
        sync_if_open(t); /* (the cache model's accesses in order) */
        uint32_t *tags = vc4_tmu_cache_tags(t, qpu, phys);
        /* (counted here, added once; touched: lookups inside RAM) */
        unsigned lookups = 0, touched = 0, hits = 0;
        uint32_t off[16];
        const uint8_t *ram;
        bool run;
        if (mask == 0xFFFFu && (ram = lookup_offsets(mem, f->coord[VC4_TMU_S], off, &run)) != NULL) {
            latency = lookup_in_ram(t, tags, ram, off, run, rq);
        } else {
            bool faulted = false;
            memset(rq->data, 0, sizeof rq->data);
            for (unsigned i = 0; i < 16; i++) {
                if (!(mask >> i & 1u))
                    continue;
                uint32_t a = f->coord[VC4_TMU_S][i] & VC4_TMU_ADDR_ALIGN_MASK;
                lookups++;
                if (!vc4_mem_read32(mem, a, &rq->data[0][i])) {
                    if (!faulted)
                        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_FAULT, UNIT, loc,
                                      "TMU%u general lookup at 0x%08x (element %u) is outside the "
                                      "%u MiB of RAM; reads 0", phys, a, i, mem->size >> 20);
                    faulted = true;
                    ev |= VC4_TMU_EV_FAULT;
                    continue;
                }
                touched++;
                hits += vc4_tmu_cache_touch(tags, a);
            }
        }
        t->stats.lookups += lookups;
        t->stats.cache_hits += hits;
        t->stats.cache_misses += touched - hits;
        if (hits < touched)
            latency = VC4_TMU_LAT_MEMORY;
    }
    queue_request(t, f, rq, now + latency);
    return ev;
}

bool vc4_tmu_try_lookup(struct vc4_tmu *t, const struct vc4_mem *mem, unsigned qpu, unsigned unit,
                        const uint32_t s[16], uint64_t now)
{
    if (qpu >= VC4_TMU_MAX_QPUS)
        return false;
    unsigned phys = vc4_tmu_physical(t, qpu, unit);
    struct vc4_tmu_fifo *f = &t->q[qpu].fifo[phys];
    uint32_t off[16];
    const uint8_t *ram;
    bool run;
    /* (what vc4_tmu_write would report: a texture request in assembly, a
     * full or deep FIFO, an element outside RAM) */
    if (f->written != 0 || f->nparams != 0 || f->slots_used + 1u > VC4_TMU_FIFO_SLOTS ||
        f->count + 1u > VC4_TMU_FIFO_RELIABLE || (ram = lookup_offsets(mem, s, off, &run)) == NULL)
        return false;
    sync_if_open(t); /* (the cache model's accesses in order) */
    /* (f->coord[S] is not kept: only a texture request reads its
     * coordinates, at its own S write; a 64-byte store per lookup saved) */
    f->used = true;
    struct vc4_tmu_request *rq = new_request(f, 1, false, 0);
    queue_request(t, f, rq, now + lookup_in_ram(t, vc4_tmu_cache_tags(t, qpu, phys), ram, off, run, rq));
    return true;
}

/* The oldest request's next result word into out (f->count > 0, its
 * sampling job taken: take_oldest), and the cycle it is there in
 * *ready_at when after now (a stall). */
static void pop_result(struct vc4_tmu *t, struct vc4_tmu_fifo *f, uint32_t out[16], uint64_t now,
                       uint64_t *ready_at)
{
    struct vc4_tmu_request *rq = &f->req[f->head];
    memcpy(out, rq->data[rq->loaded], 16 * sizeof out[0]);
    if (rq->ready_at > now) {
        *ready_at = rq->ready_at;
        t->stats.stall_cycles += rq->ready_at - now;
    }
    t->stats.loads++;
    /* 16-bit-channel results are two words, RG1616 then BA1616, one per
     * ldtmu (TFRCV: "16-bit float colour = two reads" [G via Mesa]). */
    if (++rq->loaded < rq->words)
        return;
    f->slots_used = (uint8_t)(f->slots_used - rq->slots);
    f->head = (uint8_t)((f->head + 1u) % VC4_TMU_FIFO_SLOTS);
    /* (an empty ring starts again at its first slot: a program that asks
     * for four lookups and loads them, again and again, keeps using the
     * same four slots, on the same cache lines of the host) */
    if (--f->count == 0)
        f->head = 0;
}

unsigned vc4_tmu_load(struct vc4_tmu *t, unsigned qpu, unsigned unit, uint32_t out[16],
                      uint64_t now, uint64_t *ready_at, const struct vc4_diag_sink *sink,
                      const struct vc4_location *loc)
{
    *ready_at = now;
    if (bad_qpu(qpu, sink, loc)) {
        memset(out, 0, 16 * sizeof out[0]);
        return VC4_TMU_EV_BAD_QPU;
    }
    unsigned phys = vc4_tmu_physical(t, qpu, unit);
    struct vc4_tmu_fifo *f = &t->q[qpu].fifo[phys];
    if (!f->count) {
        vc4_rule_report(sink, VC4_ERROR, UNIT, VC4_RULE_TMU_LOAD_EMPTY, loc,
                        "ldtmu%u with no TMU%u request outstanding (hardware hangs); r4 = 0",
                        unit & 1u, phys);
        memset(out, 0, 16 * sizeof out[0]);
        return VC4_TMU_EV_UNDERFLOW;
    }
    take_oldest(t, f);
    pop_result(t, f, out, now, ready_at);
    return 0;
}

bool vc4_tmu_try_load(struct vc4_tmu *t, unsigned qpu, unsigned unit, uint32_t out[16], uint64_t now,
                      uint64_t *ready_at)
{
    if (qpu >= VC4_TMU_MAX_QPUS)
        return false;
    struct vc4_tmu_fifo *f = &t->q[qpu].fifo[vc4_tmu_physical(t, qpu, unit)];
    if (!f->count)
        return false;
    *ready_at = now;
    take_oldest(t, f);
    pop_result(t, f, out, now, ready_at);
    return true;
}

unsigned vc4_tmu_pending(const struct vc4_tmu *t, unsigned qpu, unsigned unit)
{
    if (qpu >= VC4_TMU_MAX_QPUS)
        return 0;
    return t->q[qpu].fifo[vc4_tmu_physical(t, qpu, unit)].count;
}

unsigned vc4_tmu_program_end(struct vc4_tmu *t, unsigned qpu, const struct vc4_diag_sink *sink,
                             const struct vc4_location *loc)
{
    if (bad_qpu(qpu, sink, loc))
        return VC4_TMU_EV_BAD_QPU;
    unsigned ev = 0;
    for (unsigned u = 0; u < VC4_TMU_UNITS; u++) {
        struct vc4_tmu_fifo *f = &t->q[qpu].fifo[u];
        take_fifo(t, f);
        if (f->count) {
            vc4_rule_report(sink, VC4_WARNING, UNIT, VC4_RULE_TMU_UNCONSUMED, loc,
                            "program ended with %u TMU%u result(s) never loaded", f->count, u);
            ev |= VC4_TMU_EV_UNCONSUMED;
        }
        fifo_clear(f);
    }
    return ev;
}
