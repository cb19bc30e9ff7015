/*
 * tmu.h - the texture and memory lookup units (TMU0, TMU1 of each slice):
 * request FIFOs, general-memory lookups, result FIFOs popped by ldtmu0/1.
 *
 * Sources:
 *  [G]  Reference Guide section 5 (TMU), via ../shared/reference/
 *       v3d-hardware-facts.md section 7 and Mesa vc4_qir_schedule.c quotes.
 *  [S4] seed post 004: every TMU register write pulls the next texture
 *       config parameter from the uniform stream; writing S submits; S alone
 *       is a direct 32-bit general-memory lookup; the FIFO is 8 deep.
 *  [A]  vc4asm addendum: more than 4 outstanding is unreliable; TMU_NOSWAP
 *       uses element 0; conditional peripheral writes trigger the FIFO with
 *       undefined data.
 *  [C]  VC4C: default TMU swap for QPUs with id % 4 >= 2; latencies ~9
 *       cycles (TMU cache), 12 (L2), 20 (memory).
 *
 * Standalone unit: the QPU core calls these on writes to TMU0_S/T/R/B
 * (waddr 56-59), TMU1_S/T/R/B (60-63), TMU_NOSWAP (36) and on the
 * ldtmu0/ldtmu1 signals.  The QPU owns the uniform stream: before a TMU
 * register write it asks vc4_tmu_write_takes_uniform() and, if so, pops one
 * uniform and passes it as `param` (texture config parameters P0..P3).
 *
 * Texture lookups (a request with T/R/B written before S) are sampled at
 * submit by the texture sampler (tmu_tex.c: parameters P0..P3, addressing,
 * filtering, mip levels, cube maps).  Formats with 16-bit channels return
 * two words per element (RG1616, then BA1616: Mesa vc4_qir_schedule.c
 * quoting the guide's TFRCV description), each popped by its own ldtmu.
 *
 * Sampling on the second host core.  During a run with a helper thread
 * (par.h; `helper` set by v3d.c), a texture request whose sampling can
 * report nothing (parameters decoded without a finding, every image inside
 * RAM) is sampled there as a job: what the sampler reads is copied into
 * the job or stays as it is until the job has run (the decoded parameters
 * in one of a few copies, the coordinates, RAM, the slice's cache tags) and
 * it writes only the request's data and its own counts.  Its hits, misses
 * and so its latency are taken when the QPU loads the result, or sooner;
 * before anything that could see or change what a job uses (a general
 * lookup or a sampling here, which touch the tags; a write to RAM, through
 * the memory's fence; a cache flush; the run's end: vc4_tmu_sync) the jobs
 * are waited for and taken, in any order, as their counts are sums; before
 * a QPU's FIFOs are cleared, the jobs of their requests.  The jobs run in
 * the order they were asked for, so the cache model sees the same accesses
 * in the same order: results, counts, latencies and diagnostics are those
 * of sampling at the request.
 */
#ifndef VC4_EMU_TMU_H
#define VC4_EMU_TMU_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/mem.h"
#include "emu/tmu_tex.h"
#include "vc4kit/diag.h"

#define VC4_TMU_MAX_QPUS 16u
#define VC4_TMU_UNITS 2u              /* TMU0, TMU1 per slice */
#define VC4_TMU_QPUS_PER_SLICE 4u     /* the QPUs sharing a slice's TMUs and their caches [G] */
#define VC4_TMU_SLICES (VC4_TMU_MAX_QPUS / VC4_TMU_QPUS_PER_SLICE)
#define VC4_TMU_FIFO_SLOTS 8u         /* TFREQ/TFRCV: 8 slots per QPU [G via Mesa; S4] */
#define VC4_TMU_FIFO_RELIABLE 4u      /* > 4 outstanding is unreliable [A] */
#define VC4_TMU_SWAP_QPU_MOD 4u       /* default swap for QPU id % 4 >= 2 [C] */
#define VC4_TMU_SWAP_QPU_MIN 2u
#define VC4_TMU_ADDR_ALIGN_MASK 0xFFFFFFFCu /* general lookups are word aligned [C] */
/* Latency model [C]: cycles from the S write to data available. */
#define VC4_TMU_LAT_CACHE 9u
#define VC4_TMU_LAT_MEMORY 20u
/* TMU cache geometry [A]: 4 KiB, 64-byte lines (associativity unknown:
 * modelled direct-mapped, per slice and TMU).  The model counts hits and
 * misses, and a request with a miss takes VC4_TMU_LAT_MEMORY, one
 * without VC4_TMU_LAT_CACHE: it decides stall cycles too. */
#define VC4_TMU_CACHE_LINE 64u
#define VC4_TMU_CACHE_LINES 64u

/* Coordinate registers in waddr order (TMUn_S is waddr 56 + 4n). */
enum vc4_tmu_reg { VC4_TMU_S = 0, VC4_TMU_T = 1, VC4_TMU_R = 2, VC4_TMU_B = 3 };

enum vc4_tmu_event {
    VC4_TMU_EV_OVERFLOW = 1u << 0,     /* error: > 8 slots: request dropped (HW deadlocks) */
    VC4_TMU_EV_UNRELIABLE = 1u << 1,   /* warning: > 4 requests outstanding [A] */
    VC4_TMU_EV_UNDERFLOW = 1u << 2,    /* error: ldtmu with nothing queued: r4 gets 0 (HW hangs) */
    VC4_TMU_EV_FAULT = 1u << 3,        /* error: lookup address outside RAM: element reads 0 */
    VC4_TMU_EV_COND_WRITE = 1u << 4,   /* warning: partial element mask on a TMU write [A] */
    VC4_TMU_EV_UNSUPPORTED = 1u << 5,  /* warning: texture combination not modelled */
    VC4_TMU_EV_BAD_QPU = 1u << 6,      /* error: caller bug */
    VC4_TMU_EV_UNCONSUMED = 1u << 7,   /* warning: program end with results not loaded */
    VC4_TMU_EV_BAD_CONFIG = 1u << 8,   /* texture parameters the TMU cannot use (diagnosed) */
};

/* One queued request (one S write). */
struct vc4_tmu_request {
    /* (on cache lines of their own: a general lookup writes data[0] at
     * submit and an ldtmu reads it a few requests later, the other QPUs'
     * traffic in between; the fields below share a third line) */
    _Alignas(VC4_HOST_CACHE_LINE) uint32_t data[2][16]; /* the result vectors (filled at submit) */
    uint8_t words;        /* 1, or 2 for 16-bit-channel formats (two ldtmu) */
    uint8_t loaded;       /* words already popped */
    uint64_t ready_at;    /* cycle the data is available */
    uint32_t params[4];   /* config parameters P0..P3 as pulled (texture) */
    uint8_t nparams;
    uint8_t slots;        /* FIFO slots it occupies: 1 + coordinates written */
    bool texture;
    uint8_t job;          /* 1 + the sampling job that fills data (see above), or 0 */
};

/* Per QPU and physical TMU: the request being assembled and the FIFO. */
struct vc4_tmu_fifo {
    /* (what every request and load tests first, on one cache line) */
    uint8_t written;          /* bit per enum vc4_tmu_reg written since the last submit */
    uint8_t nparams;
    uint8_t head, count;      /* ring of requests */
    uint8_t slots_used;
    /* Written since it was last cleared (all zero): a program end or reset
     * clears only such a FIFO.  (Both FIFOs, 3.2 KB, were cleared twice
     * for every vertex batch, TMU or not: 3.5% of bench_gl's samples.) */
    bool used;
    uint32_t params[4];
    uint32_t coord[4][16];    /* last written S/T/R/B values */
    struct vc4_tmu_request req[VC4_TMU_FIFO_SLOTS];
};

struct vc4_tmu_qpu {
    struct vc4_tmu_fifo fifo[VC4_TMU_UNITS];
};

struct vc4_tmu_stats {
    uint64_t requests, texture_requests, loads, lookups;  /* lookups = element reads */
    uint64_t cache_hits, cache_misses, stall_cycles;
    uint64_t texels;      /* texels fetched by texture lookups */
};

struct vc4_par;

/* Sampling jobs (see above) waiting to be taken, at most, and copies of
 * the decoded parameters they may use. */
#define VC4_TMU_JOBS 32u
#define VC4_TMU_JOB_CONFIGS 4u

/* One texture request sampled on the helper thread. */
struct vc4_tmu_job {
    /* what vc4_tmu_tex_sample reads: as the request left them */
    const struct vc4_tmu_tex *cfg;
    const struct vc4_mem *mem;
    uint32_t *tags;
    uint32_t coord[4][16];
    unsigned written, phys;
    struct vc4_tmu_request *rq;   /* whose data it writes */
    struct vc4_tmu_tex_work work; /* its counts */
    uint64_t n;                   /* its number (par.h); 0: taken, the slot free */
};

/* The cache model's sets of tags: one per slice and TMU, TMU phys of this
 * QPU reading through its slice's. */
#define VC4_TMU_TAG_SETS (VC4_TMU_SLICES * VC4_TMU_UNITS)
static inline unsigned vc4_tmu_tag_set(unsigned qpu, unsigned phys)
{
    return qpu / VC4_TMU_QPUS_PER_SLICE % VC4_TMU_SLICES * VC4_TMU_UNITS + (phys & 1u);
}

struct vc4_tmu {
    /* TMU_NOSWAP written non-zero (element 0), per QPU: read by every
     * access (vc4_tmu_physical), so all in one line rather than one line
     * beside each QPU's FIFOs */
    bool noswap[VC4_TMU_MAX_QPUS];
    struct vc4_tmu_qpu q[VC4_TMU_MAX_QPUS];
    /* per slice and TMU: tags of the cache model */
    uint32_t cache_tag[VC4_TMU_TAG_SETS][VC4_TMU_CACHE_LINES]; /* by vc4_tmu_tag_set */
    struct vc4_tmu_stats stats;
    /* texture diagnostics: the parameters last reported, so that a bad
     * texture is reported once, not once per request */
    uint32_t diag_params[2];
    bool diag_valid;
    /* the last parameters decoded without a finding, and their decoding:
     * requests of a draw mostly repeat them (vc4_tmu_tex_decode is a
     * function of the parameters; a set with findings is decoded each time,
     * as its diagnostics depend on what was reported before) */
    uint32_t cfg_params[4];
    unsigned cfg_nparams; /* 0: none */
    struct vc4_tmu_tex cfg;
    bool cfg_in_ram;      /* every image of cfg lies inside RAM (vc4_tmu_tex_in_ram) */

    /* Sampling on the second host core (see above).  vc4_tmu_reset keeps
     * `helper` and takes the jobs first. */
    struct vc4_par *helper;      /* NULL: every request sampled here */
    struct vc4_tmu_job job[VC4_TMU_JOBS];
    unsigned job_next;           /* the slot of the next job */
    unsigned jobs_open;          /* jobs posted and not yet taken */
    uint64_t jobs_posted;        /* since reset (tests see the helper's share) */
    uint64_t tags_last[VC4_TMU_TAG_SETS]; /* the last job that reads each set of tags */
    struct vc4_mem *fenced;      /* the memory whose fence waits for them */
    struct vc4_tmu_tex job_cfg[VC4_TMU_JOB_CONFIGS];
    uint64_t job_cfg_last[VC4_TMU_JOB_CONFIGS]; /* the last job that uses each */
    unsigned job_cfg_cur;        /* the copy the next job uses, */
    bool job_cfg_valid;          /* ... if it still equals cfg */
};

void vc4_tmu_init(struct vc4_tmu *t);
/* Clear FIFOs, swap flags, caches and statistics. */
void vc4_tmu_reset(struct vc4_tmu *t);
/* Wait for the sampling jobs and take their results (see above). */
void vc4_tmu_sync(struct vc4_tmu *t);
/* A new program starts on this QPU: empty its FIFOs, swap enabled again. */
void vc4_tmu_qpu_reset(struct vc4_tmu *t, unsigned qpu);
/* SLCACTL T0CC/T1CC: invalidate the cache model of every slice. */
void vc4_tmu_flush_caches(struct vc4_tmu *t);

/* The physical TMU (0/1) that "TMU<unit>" registers and ldtmu<unit> address
 * on this QPU, after the default swap and TMU_NOSWAP. */
unsigned vc4_tmu_physical(const struct vc4_tmu *t, unsigned qpu, unsigned unit);

/* waddr 36 TMU_NOSWAP: element 0 counts; non-zero disables the swap [A]. */
void vc4_tmu_write_noswap(struct vc4_tmu *t, unsigned qpu, uint32_t elem0);

/* Does a write of `reg` on TMU `unit` pull a config parameter from the
 * uniform stream?  T, R, B always do; S does only when T/R/B were written
 * before it in the same request (S alone = general lookup, no uniform). */
bool vc4_tmu_write_takes_uniform(const struct vc4_tmu *t, unsigned qpu, unsigned unit,
                                 enum vc4_tmu_reg reg);

/*
 * A write of TMU<unit>_<reg> (unit as the instruction names it; the swap is
 * applied here).  `param` is the uniform popped for it if
 * vc4_tmu_write_takes_uniform() said so (ignored otherwise).  Writing S
 * submits: a general lookup reads, for each element whose mask bit is set,
 * the 32-bit word at (S & ~3); elements not in the mask still belong to the
 * request (the FIFO is triggered anyway [A]) and read as 0.  `now` is the
 * QPU's cycle count.  Call only when the write happens (condition not
 * "never" for every element).
 */
unsigned vc4_tmu_write(struct vc4_tmu *t, struct vc4_mem *mem, unsigned qpu, unsigned unit,
                       enum vc4_tmu_reg reg, uint16_t mask, const uint32_t val[16],
                       uint32_t param, uint64_t now, const struct vc4_diag_sink *sink,
                       const struct vc4_location *loc);

/* The QPU fast path's general lookup (qpu.c VC4_XI_FAST_TMU_S): what
 * vc4_tmu_write does for an unconditional write of S with no T, R or B
 * before it, when it would report nothing (a FIFO with room below the
 * reliable depth, every element inside RAM).  False, with nothing done,
 * otherwise: the caller then takes vc4_tmu_write's path. */
bool vc4_tmu_try_lookup(struct vc4_tmu *t, const struct vc4_mem *mem, unsigned qpu, unsigned unit,
                        const uint32_t s[16], uint64_t now);

/* Signal ldtmu<unit>: pop the oldest result word of that TMU into out (r4);
 * a two-word result leaves the FIFO with its second word.
 * *ready_at receives the cycle at which the data is available (>= now
 * means the QPU stalls for the difference; stalls are added to the stats). */
unsigned vc4_tmu_load(struct vc4_tmu *t, unsigned qpu, unsigned unit, uint32_t out[16],
                      uint64_t now, uint64_t *ready_at, const struct vc4_diag_sink *sink,
                      const struct vc4_location *loc);

/* The QPU fast path's ldtmu (qpu.c VC4_XI_FAST_LDTMU): vc4_tmu_load when
 * it reports nothing (a request is queued).  False, with nothing done,
 * otherwise. */
bool vc4_tmu_try_load(struct vc4_tmu *t, unsigned qpu, unsigned unit, uint32_t out[16], uint64_t now,
                      uint64_t *ready_at);

/* Cache model (UNVERIFIED: direct-mapped, VC4_TMU_CACHE_LINES lines of
 * VC4_TMU_CACHE_LINE bytes per slice and TMU).  The tags of the cache that
 * TMU phys of this QPU reads through (its slice's), found once per
 * request; one access of a line: true on a hit, and the line's slot holds
 * the line afterwards either way (the caller counts hits and misses).
 * Without a branch on the outcome: the texture sampler's hits and misses
 * follow the texels' utiles, which no predictor learns. */
static inline uint32_t *vc4_tmu_cache_tags(struct vc4_tmu *t, unsigned qpu, unsigned phys)
{
    return t->cache_tag[vc4_tmu_tag_set(qpu, phys)];
}
static inline bool vc4_tmu_cache_touch_line(uint32_t *tags, uint32_t line)
{
    uint32_t *tag = &tags[line % VC4_TMU_CACHE_LINES];
    bool hit = *tag == line;
    *tag = line;
    return hit;
}
/* The same for the line holding bus address addr. */
static inline bool vc4_tmu_cache_touch(uint32_t *tags, uint32_t addr)
{
    return vc4_tmu_cache_touch_line(tags, (addr & VC4_BUS_OFFSET_MASK) / VC4_TMU_CACHE_LINE);
}

/* Requests queued and not yet loaded on TMU<unit> of this QPU. */
unsigned vc4_tmu_pending(const struct vc4_tmu *t, unsigned qpu, unsigned unit);

/* Program end: report results never loaded, and empty the FIFOs. */
unsigned vc4_tmu_program_end(struct vc4_tmu *t, unsigned qpu, const struct vc4_diag_sink *sink,
                             const struct vc4_location *loc);

#endif
