/*
 * jit.h - compiled QPU code (internal).
 *
 * A block is a straight run of instructions that the interpreter's fast
 * path would take one by one (qpu.c run_fast: ALU instructions without
 * signals, pack, unpack, rotation or uniform reads, nops, and the fast I/O
 * kinds: general TMU lookups, ldtmu, VPM row writes and write setups,
 * called back through jit_io.h; SFU writes with their windows), from a
 * "head": where run_fast starts, a branch lands, or a block ended.  When a
 * head has been reached `threshold` times its block is written as C,
 * compiled by the host's C compiler together with the ALU's own kernel
 * source (jit_prelude.inc), loaded, and run by run_fast from then on in
 * place of the instructions: the same registers, flags, counts and
 * diagnostics (none can be due inside a block: the issue-time rules are
 * settled when the block is cut, see jit.c).  docs/emulator.md "Compiled
 * QPU code" says why C and a compiler rather than an assembler of our own.
 */
#ifndef VC4_EMU_JIT_H
#define VC4_EMU_JIT_H

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "emu/jit_io.h"
#include "emu/qpu.h"
#include "vc4kit/emu.h"

struct vc4_v3d;
struct vc4_icache_entry;

#define VC4_JIT_MAX_BLOCK 64u /* instructions per block */

/* A compiled block: run(q, from, to, &taken, io) executes its instructions
 * from .. to-1 (0 <= from < to <= n) on the QPU state q (struct vc4_qpu)
 * and returns the registers the last one wrote (prev_w); it sets prev_acc
 * itself.  Its I/O goes through io, which says where it stopped when an
 * access could not be made the fast way (jit_io.h); a run with no I/O
 * instruction in from .. to-1 never touches io. */
typedef uint64_t vc4_jit_fn(unsigned char *q, unsigned from, unsigned to, unsigned *taken, struct vc4_jit_io *io);
/* A loop block's whole passes (jit.c block_loop_at): run(q, loop_at, n,
 * ...) again while its branch goes back to loop_at, the next pass may
 * start (the instruction there reads no register the last one wrote:
 * block_ready's test) and fewer than `most` (>= 1) passes have run.
 * Returns what the last pass's run returned, *taken its branch, *passes
 * how many ran. */
typedef uint64_t vc4_jit_loop_fn(unsigned char *q, uint64_t most, uint64_t *passes, unsigned *taken);
struct vc4_jit_block {
    vc4_jit_fn *run;
    vc4_jit_loop_fn *loop;      /* NULL unless the block loops (jit.c block_loop_at) */
    unsigned loop_at;           /* ... back to its instruction loop_at */
    struct vc4_jit_block *next; /* same hash bucket */
    uint32_t addr;              /* RAM offset of the first instruction */
    uint32_t n;                 /* instructions */
    /* A block may end with a branch (no link, no register target) and its
     * three delay slots: *taken says whether it went.  A run stops before
     * the branch or at the end, never between (vc4_jit_span). */
    int br_at;                  /* the branch's index, or -1 */
    bool br_rel;                /* relative (target = link address + imm) */
    uint32_t br_imm;
    uint64_t io; /* bit i: instruction i is I/O (only run_fast may run it) */
    /* bit i: a run may neither end before instruction i nor start there:
     * an SFU write's result is in flight (jit.c sfu_window; the block
     * lands it in r4, so a run holds the write and its window, unless an
     * access in the window stops it: it then leaves the count in flight) */
    uint64_t nostop;
    /* the code as it was when every entry was last found current:
     * unchanged, they still are */
    struct vc4_code_stamp verified;
    uint64_t words[VC4_JIT_MAX_BLOCK]; /* the code it was compiled from */
    uint64_t rmask[VC4_JIT_MAX_BLOCK]; /* registers each reads (the read-after-write rule) */
};

#define VC4_JIT_BUCKETS 1024u /* power of two */
struct jit_job; /* jit.c */
struct vc4_jit {
    struct vc4_emu_jit_stats stats;
    unsigned threshold;      /* head visits before its block is compiled */
    bool broken;             /* the compiler failed once: no more compiles */
    unsigned budget;         /* compiles left (self-modifying code cannot storm) */
    char *dir;               /* where blocks are written and cached */
    bool own_dir;            /* a private temporary directory: removed at destroy */
    char *cc;                /* the compiler */
    const char *march;       /* instruction-set flags for the host */
    bool avx512;             /* blocks call the prelude's AVX-512 kernels */
    uint64_t prelude_hash;   /* of the prelude and the command line */
    struct vc4_jit_block *bucket[VC4_JIT_BUCKETS];
    void **handles;          /* dlopen handles, freed at destroy */
    size_t nhandles, caphandles;
    unsigned long long jobs; /* (unique file names) */
    /* compiling on another thread (vc4_emu_options.jit_async): jobs go to
     * pending, come back in done; ndone says done is not empty */
    bool async, thread_started, stop;
    pthread_t thread;
    long thread_pid;         /* the process that started it (a fork's child has no thread) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct jit_job *pending, *pending_tail, *done;
    atomic_int ndone;
};

/* The prelude's text (generated by the build from jit_prelude.inc). */
extern const unsigned char vc4_jit_prelude_text[];
extern const size_t vc4_jit_prelude_len;

/* NULL when o asks for no JIT or the state cannot be allocated. */
struct vc4_jit *vc4_jit_create(const struct vc4_emu_options *o, const struct vc4_allocator *alloc);
void vc4_jit_destroy(struct vc4_jit *j, const struct vc4_allocator *alloc);

/* run_fast reached the head e (at RAM offset addr) that has no block:
 * counts it, and at the threshold cuts and compiles its block (or finds it
 * compiled before, in memory or in the cache directory).  Returns the
 * block, or NULL (not yet hot, too short to gain, or the compiler failed:
 * then a note is given once and the JIT stays off). */
struct vc4_jit_block *vc4_jit_heat(struct vc4_v3d *v, struct vc4_icache_entry *e, uint32_t addr);

/* How many of b's instructions from o to run, at most limit: all that are
 * left, or (when fewer may run) as many as stop before its branch and
 * not inside an SFU write's window (nostop). */
static inline unsigned vc4_jit_span(const struct vc4_jit_block *b, unsigned o, uint64_t limit)
{
    unsigned left = b->n - o;
    if (limit >= left)
        return left;
    unsigned m = (unsigned)limit;
    if (b->br_at >= 0 && o + m > (unsigned)b->br_at)
        m = (unsigned)b->br_at - o;
    while (m > 0 && (b->nostop >> (o + m) & 1u))
        m--;
    return m;
}

/* vc4_jit_span for a run beside other QPUs (qpu.c run_blocks): also
 * stopping before the first I/O instruction, whose order against the
 * other QPUs' accesses only stepping keeps. */
static inline unsigned vc4_jit_span_pure(const struct vc4_jit_block *b, unsigned o, uint64_t limit)
{
    unsigned m = vc4_jit_span(b, o, limit);
    uint64_t io = b->io >> o;
    if (io) {
        unsigned first = (unsigned)__builtin_ctzll(io);
        if (first < m) /* (before an SFU write whose window holds it) */
            for (m = first; m > 0 && (b->nostop >> (o + m) & 1u);)
                m--;
    }
    return m;
}

static_assert(VC4_JIT_MAX_BLOCK <= 64, "a block's I/O instructions are bits of one word");

/* Blocks compiled on the other thread are installed on the emulator's
 * (vc4_jit_poll: where heads are counted and at each run_fast). */
void vc4_jit_install_done(struct vc4_v3d *v);
static inline void vc4_jit_poll(struct vc4_v3d *v, struct vc4_jit *j)
{
    if (atomic_load_explicit(&j->ndone, memory_order_acquire))
        vc4_jit_install_done(v);
}

#endif
