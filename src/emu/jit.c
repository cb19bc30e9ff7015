/*
 * jit.c - compiled QPU code: blocks of fast-path instructions written as C,
 * compiled by the host's C compiler, loaded with dlopen (jit.h).
 *
 * Why C and a compiler (docs/emulator.md "Compiled QPU code"): what a
 * block costs is the ALU's exact rounding rules (truncating fadd and fmul,
 * denormal flushing), and those are already C, vectorised and tested
 * against the scalar rules (qpu_alu.c).  A block is that same source
 * (jit_prelude.inc, preprocessed into the library at build time) followed
 * by one function that calls the kernels with every operand, destination,
 * condition and flag choice fixed: the compiler inlines the kernels, keeps
 * values in vector registers from one instruction to the next and drops
 * the interpreter's dispatch.  An emitter of our own (GNU lightning has no
 * vector operations) would have to restate every rounding rule in machine
 * code, a second implementation to keep bit-exact; this way there is one.
 * The price is the compiler's time (0.05-0.3 s a block), paid once per
 * block and cached by content in the cache directory.
 *
 * Nothing a block does depends on when it was compiled: the block runs
 * only where the interpreter's fast path would run the same instructions
 * with no rule to check (qpu.c run_fast tests the entry conditions), so
 * results, cycle and instruction counts, statistics and diagnostics are
 * the interpreter's (tests/unit/test_qpu_jit.c).
 */
#define _GNU_SOURCE
#include "emu/jit.h"

#include <assert.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/hostsync.h"
#include "emu/qpu.h"
#include "emu/sfu.h"
#include "emu/v3d.h"

extern char **environ;

#define JIT_DEFAULT_THRESHOLD 1000u
#define JIT_COMPILE_BUDGET 512u

/* ---- names ----------------------------------------------------------------- */

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * UINT64_C(0x100000001B3);
    return h;
}
#define FNV_BASIS UINT64_C(0xCBF29CE484222325)

static char *dup_str(const struct vc4_allocator *alloc, const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = vc4_malloc(alloc, n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* ---- life cycle ------------------------------------------------------------ */

/* Instruction-set flags for the host the blocks run on: named, not
 * -march=native, so that they are part of the cache key (a cache directory
 * shared with a machine without AVX-512 must not hand it AVX-512 code). */
static const char *host_march(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
        return "-mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx2 -mbmi2";
    if (__builtin_cpu_supports("avx2"))
        return "-mavx2";
#endif
    return "";
}

#ifndef VC4KIT_JIT_CC
#define VC4KIT_JIT_CC "cc"
#endif

/* The fixed part of the compiler's command line.  No contraction (a fused
 * multiply-add rounds once where the kernels round twice) and ISO C (no
 * excess precision): the kernels' own build rules (qpu_alu.c). */
#define JIT_CFLAGS "-O2 -std=c11 -ffp-contract=off -fno-fast-math -fPIC -shared -w"
/* ... and after the source: the SFU's exp2 and log2 (sfu.c in the prelude) */
#define JIT_LIBS "-lm"

struct vc4_jit *vc4_jit_create(const struct vc4_emu_options *o, const struct vc4_allocator *alloc)
{
    if (o->jit != VC4_EMU_JIT_ON)
        return NULL;
    struct vc4_jit *j = vc4_calloc(alloc, 1, sizeof *j);
    if (!j)
        return NULL;
    if (!vc4_sync_init(&j->mu, &j->cv)) {
        vc4_free(alloc, j);
        return NULL;
    }
    j->threshold = o->jit_threshold ? o->jit_threshold : JIT_DEFAULT_THRESHOLD;
    if (j->threshold > UINT16_MAX) /* (counted in the instruction cache's entries) */
        j->threshold = UINT16_MAX;
    j->budget = JIT_COMPILE_BUDGET;
    const char *cc = o->jit_cc;
    if (!cc)
        cc = access(VC4KIT_JIT_CC, X_OK) == 0 ? VC4KIT_JIT_CC : "cc";
    j->cc = dup_str(alloc, cc);
    j->dir = o->jit_dir ? dup_str(alloc, o->jit_dir) : NULL;
    j->march = host_march();
    /* the AVX-512 kernels where the blocks are compiled for AVX-512 (the
     * interpreter picks the same table: vc4_alu_kernels_best) */
    j->avx512 = VC4_ALU_AVX512 && strstr(j->march, "-mavx512dq") != NULL;
    j->async = o->jit_async;
    if (!j->cc || (o->jit_dir && !j->dir)) {
        vc4_jit_destroy(j, alloc);
        return NULL;
    }
    uint64_t h = fnv1a(FNV_BASIS, vc4_jit_prelude_text, vc4_jit_prelude_len);
    h = fnv1a(h, j->cc, strlen(j->cc));
    h = fnv1a(h, JIT_CFLAGS, sizeof JIT_CFLAGS);
    h = fnv1a(h, JIT_LIBS, sizeof JIT_LIBS);
    j->prelude_hash = fnv1a(h, j->march, strlen(j->march));
    return j;
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *de;
        char path[4096];
        while ((de = readdir(d)) != NULL) {
            if (de->d_name[0] == '.')
                continue;
            if (snprintf(path, sizeof path, "%s/%s", dir, de->d_name) < (int)sizeof path)
                unlink(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

static void drop_jobs(const struct vc4_allocator *alloc, struct jit_job *job);

void vc4_jit_destroy(struct vc4_jit *j, const struct vc4_allocator *alloc)
{
    if (!j)
        return;
    if (j->thread_started && j->thread_pid == getpid()) { /* (waits for a compile in flight) */
        pthread_mutex_lock(&j->mu);
        j->stop = true;
        pthread_cond_signal(&j->cv);
        pthread_mutex_unlock(&j->mu);
        pthread_join(j->thread, NULL);
    }
    drop_jobs(alloc, j->pending);
    drop_jobs(alloc, j->done);
    vc4_sync_fini(&j->mu, &j->cv);
    for (unsigned i = 0; i < VC4_JIT_BUCKETS; i++) {
        struct vc4_jit_block *b = j->bucket[i];
        while (b) {
            struct vc4_jit_block *next = b->next;
            vc4_free(alloc, b);
            b = next;
        }
    }
    for (size_t i = 0; i < j->nhandles; i++)
        dlclose(j->handles[i]);
    vc4_free(alloc, j->handles);
    if (j->own_dir && j->dir)
        remove_dir(j->dir);
    vc4_free(alloc, j->dir);
    vc4_free(alloc, j->cc);
    vc4_free(alloc, j);
}

/* ---- cutting a block ---------------------------------------------------------- */

/*
 * The instructions a block may hold are those run_fast runs with nothing to
 * check but its entry conditions (tested by qpu.c before each run: no
 * delay pipeline moving, the first instruction's registers not written by
 * the previous one, every word still the one compiled):
 *  - the fast-path ALU forms, load immediates and nops (qpu.h
 *    VC4_XI_FAST_ALU, _ALU_PLAIN, _LDI, _NOP): no signal, I/O, pack,
 *    unpack, rotation or blocking resource, so nothing outside the QPU's
 *    registers and flags;
 *  - the fast I/O kinds (VC4_XI_FAST_TMU_S, _LDTMU, _VPM_W, _VPM_SETUP,
 *    and ALU forms reading a uniform, the VPM or a varying: jit_io.h
 *    operand and post),
 *    each called back through jit_io.h and made only when its unit would
 *    report nothing (else the block stops before it), never in a
 *    branch's delay slots (a run stops before a branch or after its
 *    slots); such a block runs them only where run_fast runs (one QPU
 *    stepping), and beside other QPUs stops before them (run_blocks);
 *  - a uniform read only as such an access (it can fault: the block stops
 *    before it; no uniforms-address hazard is pending inside a block, as
 *    blocks start with no pipeline moving and hold no such write);
 *  - no register read that the previous instruction may have written (the
 *    regfile read-after-write rule, qpu-isa-facts: the block ends before
 *    it, and the interpreter runs it and reports);
 *  - an SFU write (qpu.h VC4_XI_FAST_SFU: one ALU, unconditional, no
 *    uniform read) with its window, the VC4_SFU_LATENCY instructions
 *    behind it, when those are members that read no r4 and are no ldtmu
 *    (sfu_window): the block computes the result at the write (sfu.c, in
 *    the prelude) and lands it in r4 after the window's last instruction,
 *    where issue_pipelines lands it.  No run starts inside a window, and
 *    none ends there (jit.h nostop) but where an access in it stops the
 *    run: the block then leaves the pipeline's count in the QPU
 *    (sfu_left), and the interpreter goes on from it.  So the SFU
 *    pipeline is idle where every run starts, as run_fast requires of a
 *    block's entry.  A write whose window does not fit ends the block
 *    before it (run_fast runs it, and the general path reports an r4 read
 *    in its window);
 *  - r4 reads are then safe: no SFU result is in flight at entry, and
 *    none in a window; an ldtmu's ALU part reads r4 before the pop writes
 *    it, as in ldtmu_fast.
 * Branches end a block (their delay slots are a pipeline).
 */
static bool block_pure(const struct vc4_qpu_xi *xi)
{
    return (xi->fast == VC4_XI_FAST_ALU || xi->fast == VC4_XI_FAST_ALU_PLAIN || xi->fast == VC4_XI_FAST_NOP ||
            xi->fast == VC4_XI_FAST_LDI) &&
           !xi->unif;
}

static bool block_io(const struct vc4_qpu_xi *xi)
{
    if (xi->fast == VC4_XI_FAST_ALU || xi->fast == VC4_XI_FAST_ALU_PLAIN || xi->fast == VC4_XI_FAST_ALU_VARY)
        return xi->unif != 0; /* (a uniform, VPM or varying read first) */
    /* (a load immediate's setup is run_fast's: put_io emits ALU forms) */
    return (xi->fast == VC4_XI_FAST_TMU_S || xi->fast == VC4_XI_FAST_LDTMU || xi->fast == VC4_XI_FAST_VPM_W ||
            xi->fast == VC4_XI_FAST_VPM_SETUP) &&
           !xi->unif && xi->form != VC4_XI_LDI;
}

/* The registers instruction e writes, as the next one's read-after-write
 * test sees them (a nop, a branch or an I/O register write: none; an
 * ldtmu: its ALU part's, as ldtmu_fast returns them). */
static uint64_t block_writes(const struct vc4_icache_entry *e)
{
    switch (e->xi.fast) {
    case VC4_XI_FAST_NOP: case VC4_XI_FAST_BRANCH: case VC4_XI_FAST_TMU_S: case VC4_XI_FAST_VPM_W:
    case VC4_XI_FAST_VPM_SETUP: case VC4_XI_FAST_SFU:
        return 0;
    case VC4_XI_FAST_LDTMU:
        return e->xi.io_alu == VC4_XI_FAST_NOP ? 0 : e->xi.wreg_add | e->xi.wreg_mul;
    default:
        return e->xi.wreg_add | e->xi.wreg_mul;
    }
}

/* An access an SFU write's window may hold: any the block may, but an
 * ldtmu (its pop writes r4, which the result is on its way to: the general
 * path's case).  If it stops the run, the block leaves the count of the
 * result in flight in the QPU (put_block), as the interpreter would have
 * it, and the interpreter lands the result. */
static bool block_window_io(const struct vc4_qpu_xi *xi)
{
    return block_io(xi) && xi->fast != VC4_XI_FAST_LDTMU;
}

/* The instruction at off (the caller has checked it) and the `slots`
 * behind it, when all fit a block with no read-after-write between them:
 * a branch's delay slots pure members; an SFU write's window (window)
 * pure members or accesses (block_window_io), none reading r4.  Returns
 * slots + 1 (into es), else 0. */
static unsigned pure_tail(struct vc4_v3d *v, uint32_t off, unsigned slots, bool window,
                          struct vc4_icache_entry **es, bool *unfetched)
{
    uint64_t prev = 0;
    for (unsigned i = 0; i <= slots; i++) {
        struct vc4_icache_entry *e;
        if (!vc4_qpu_cached(v, off + i * VC4_QPU_INSTR_BYTES, &e)) {
            *unfetched = true;
            return 0;
        }
        if (i > 0 && (!(block_pure(&e->xi) || (window && block_window_io(&e->xi))) || (prev & e->xi.rmask) ||
                      (window && e->xi.reads_r4)))
            return 0;
        es[i] = e;
        prev = block_writes(e);
    }
    return slots + 1;
}

/* A fast-path branch at off and its three delay slots (the branch writes
 * nothing): 4, else 0. */
static unsigned branch_tail(struct vc4_v3d *v, uint32_t off, struct vc4_icache_entry **es, bool *unfetched)
{
    return pure_tail(v, off, VC4_QPU_BRANCH_SLOTS, false, es, unfetched);
}

/* An SFU write at off and its window: the VC4_SFU_LATENCY instructions
 * before r4 holds the result, which must not read r4 (the r4 rule: the
 * general path reports such a read) nor start another SFU write (not a
 * member there): 1 + VC4_SFU_LATENCY, else 0. */
static unsigned sfu_window(struct vc4_v3d *v, uint32_t off, struct vc4_icache_entry **es, bool *unfetched)
{
    return pure_tail(v, off, VC4_SFU_LATENCY, true, es, unfetched);
}

/* An SFU write a block may hold (the uniform-reading form stays out: its
 * read can fault, and a stop there would be in no window's favour). */
static bool block_sfu(const struct vc4_qpu_xi *xi)
{
    return xi->fast == VC4_XI_FAST_SFU && !xi->unif;
}

/* The block from addr, into es; *unfetched: it stopped at an instruction
 * not (or no longer) in the instruction cache, so it may grow later. */
static unsigned cut(struct vc4_v3d *v, uint32_t addr, struct vc4_icache_entry **es, bool *unfetched)
{
    unsigned n = 0;
    uint64_t prev = 0;
    *unfetched = false;
    while (n + VC4_QPU_BRANCH_SLOTS + 1 <= VC4_JIT_MAX_BLOCK) {
        struct vc4_icache_entry *e;
        uint32_t off = addr + n * VC4_QPU_INSTR_BYTES;
        if (!vc4_qpu_cached(v, off, &e)) {
            *unfetched = true;
            break;
        }
        if (e->xi.fast == VC4_XI_FAST_BRANCH && !(prev & e->xi.rmask))
            return n + branch_tail(v, off, es + n, unfetched);
        if (block_sfu(&e->xi) && !(prev & e->xi.rmask)) {
            unsigned k = sfu_window(v, off, es + n, unfetched);
            if (k == 0)
                break;
            n += k;
            prev = block_writes(es[n - 1]);
            continue;
        }
        if (!(block_pure(&e->xi) || block_io(&e->xi)) || (prev & e->xi.rmask))
            break;
        es[n++] = e;
        prev = block_writes(e);
    }
    return n;
}

/*
 * A loop block: no I/O, and it ends with a relative branch (and its three
 * slots) whose target is one of its own instructions before the branch,
 * wherever the block was loaded (target = the branch's address + 4
 * instructions + imm, qpu.c branch_link, the sum's low 3 bits dropped: the
 * block's start + n instructions + imm).  Its passes from the target on
 * can run back to back inside the compiled code: between two of them
 * run_fast would find the same cache entry, no delay pipeline moving (the
 * branch's drained in its slots), no word changed (nothing in the block
 * writes memory or decodes) and the budget, so what is left to decide is
 * the branch and the read-after-write test at the loop's top, and the
 * generated loop makes both (put_loop).  The top is no place inside an
 * SFU write's window (nostop: no run starts there).  Returns the
 * target's index in the block, or -1.
 */
static int block_loop_at(struct vc4_icache_entry *const *es, unsigned n, uint64_t io, uint64_t nostop)
{
    if (io != 0 || n < VC4_QPU_BRANCH_SLOTS + 1)
        return -1;
    unsigned br_at = n - VC4_QPU_BRANCH_SLOTS - 1;
    const struct vc4_icache_entry *br = es[br_at];
    if (br->xi.fast != VC4_XI_FAST_BRANCH || !br->in.rel)
        return -1;
    /* the target's distance back from the block's end, in bytes */
    uint32_t back = (uint32_t)0 - (br->in.imm & ~(VC4_QPU_INSTR_BYTES - 1));
    if (back == 0 || back > n * VC4_QPU_INSTR_BYTES)
        return -1;
    unsigned at = n - back / VC4_QPU_INSTR_BYTES;
    return at < br_at && !(nostop >> at & 1u) ? (int)at : -1; /* (not the branch or a slot) */
}

/* ---- writing a block as C ---------------------------------------------------- */

#define QOFF(f) ((unsigned)offsetof(struct vc4_qpu, f))

static void put_mask(struct vc4_buf *t, const char *name, uint8_t cidx, uint16_t cinv)
{
    if (cidx == 0) /* flag[0] is always 0: the mask is the inversion */
        vc4_buf_printf(t, "        const uint16_t %s = 0x%04xu;\n", name, (unsigned)cinv);
    else
        vc4_buf_printf(t, "        const uint16_t %s = (uint16_t)(F[%u] ^ 0x%04xu);\n", name, (unsigned)cidx, (unsigned)cinv);
}

/* The reads every ALU form makes first: a small immediate into in_b, the
 * NOP registers' elements 12-15 (qpu.c nop_regs_read). */
static void put_reads(struct vc4_buf *t, unsigned i, const struct vc4_qpu_xi *xi)
{
    if (xi->rd_b == VC4_XI_RD_IMM)
        vc4_buf_printf(t, "        memcpy(Q(%u), imm%u, 64);\n", QOFF(in_b), i);
    for (unsigned k = 0; k < 2; k++)
        if (xi->off[4 + k] != QOFF(rf_nop[k])) /* (not onto themselves) */
            vc4_buf_printf(t, "        memcpy(Q(%u) + 12, Q(%u) + 12, 16);\n", QOFF(rf_nop[k]), (unsigned)xi->off[4 + k]);
}

/* The writes of an ALU form or a load immediate: the add's value (the
 * C name add_val) and the mul's (mul_val) under their conditions on the
 * old flags (masks ma and mm, declared here), add first, mul wins (facts
 * 20a); sets w and acc. */
static void put_writes(struct vc4_buf *t, const struct vc4_qpu_xi *xi, const char *add_val, const char *mul_val)
{
    put_mask(t, "ma", xi->cidx_add, xi->cinv_add);
    put_mask(t, "mm", xi->cidx_mul, xi->cinv_mul);
    vc4_buf_printf(t, "        (void)ma; (void)mm;\n        w = 0;\n        acc = 0;\n");
    for (unsigned k = 0; k < 2; k++) {
        bool mul = k == 1;
        if ((mul ? xi->w_mul : xi->w_add) == VC4_XI_W_NONE)
            continue;
        vc4_buf_printf(t,
            "        if (%s) {\n            vc4_lanes_masked_copy(Q(%u), %s, %s);\n            w |= 0x%llxull;\n"
            "            acc |= 0x%xu;\n        }\n",
            mul ? "mm" : "ma", (unsigned)(mul ? xi->w_off_mul : xi->w_off_add), mul ? mul_val : add_val,
            mul ? "mm" : "ma", (unsigned long long)(mul ? xi->wreg_mul : xi->wreg_add),
            (unsigned)(mul ? xi->wacc_mul : xi->wacc_add));
    }
}

/* An ALU form (qpu.c step_fast_alu; the plain one is its special case),
 * in a scope of its own: sets w and acc. */
static void put_alu(struct vc4_buf *t, bool avx512, unsigned i, const struct vc4_qpu_xi *xi)
{
    bool add = xi->w_add != VC4_XI_W_NONE || xi->sf == VC4_XI_SF_ADD;
    vc4_buf_printf(t, "        {\n        uint32_t ra[16], rm[16];\n        uint16_t ca = 0, cm = 0;\n        (void)ra; (void)rm; "
           "(void)ca; (void)cm;\n");
    put_reads(t, i, xi);
    if (add)
        vc4_buf_printf(t, "        K.add[%u](Q(%u), Q(%u), ra, %s);\n", (unsigned)xi->op_add, (unsigned)xi->off[0],
            (unsigned)xi->off[1], xi->sf == VC4_XI_SF_ADD ? "&ca" : "0");
    if (xi->op_mul) {
        vc4_buf_printf(t, "        K.mul[%u](Q(%u), Q(%u), rm, %s);\n", (unsigned)xi->op_mul, (unsigned)xi->off[2],
            (unsigned)xi->off[3], xi->sf == VC4_XI_SF_MUL ? "&cm" : "0");
        vc4_buf_printf(t, "        memcpy(Q(%u) + 12, rm + 12, 16);\n", QOFF(last_mul));
    }
    put_writes(t, xi, "ra", "rm");
    if (xi->sf != VC4_XI_SF_NONE) {
        bool add_sf = xi->sf == VC4_XI_SF_ADD, n = !add_sf || xi->n_flag;
        const char *r = add_sf ? "ra" : "rm", *c = add_sf ? "ca" : "cm", *m = add_sf ? "ma" : "mm";
        if (avx512) /* (Z and N: two mask instructions, where the loop is a reduction) */
            vc4_buf_printf(t, "        { uint32_t zn = vc4_alu_zn512(%s); vc4_lanes_merge_flags(F, zn & 0xFFFFu, %s, %s, %s); }\n",
                r, n ? "zn >> 16" : "0", c, m);
        else
            vc4_buf_printf(t, "        vc4_lanes_set_flags(F, %s, %s, %s, %d);\n", r, c, m, n ? 1 : 0);
    }
    vc4_buf_printf(t, "        }\n");
}

/* A load immediate (qpu.c step_fast_ldi): its values ldi<i> written under
 * the conditions; Z and N from them are constants. */
static void put_ldi(struct vc4_buf *t, unsigned i, const struct vc4_qpu_xi *xi)
{
    char val[16];
    snprintf(val, sizeof val, "ldi%u", i);
    put_writes(t, xi, val, val);
    if (xi->sf != VC4_XI_SF_NONE) {
        unsigned z = 0, n = 0;
        for (unsigned k = 0; k < VC4_QPU_SIMD; k++) {
            z |= (xi->vec[k] == 0 ? 1u : 0u) << k;
            n |= (xi->vec[k] >> 31) << k;
        }
        vc4_buf_printf(t, "        vc4_lanes_merge_flags(F, 0x%04xu, 0x%04xu, 0, %s);\n", z, n,
            xi->sf == VC4_XI_SF_ADD ? "ma" : "mm");
    }
}

/* Leaving the run before instruction i (its access was not made: w and
 * acc are still the previous instruction's), or after it (stalled). */
static void put_stop(struct vc4_buf *t, const char *cond, unsigned i, bool after)
{
    vc4_buf_printf(t, "        if (%s) {\n            io->ran = %uu - from;\n            io->stopped = 1;\n%s"
                      "            goto out;\n        }\n",
        cond, after ? i + 1 : i, after ? "            io->stalled = 1;\n" : "");
}

/* Instruction i's cycle (run_fast's "now"), for an access through jit_io.h. */
static void put_now(struct vc4_buf *t, unsigned i)
{
    vc4_buf_printf(t, "        const uint64_t now = io->base + (%uu - from) + 1u;\n", i);
}

/* The value of a one-ALU write to a unit (qpu.c io_write_fast), into val. */
static void put_unit_value(struct vc4_buf *t, unsigned i, const struct vc4_qpu_xi *xi)
{
    vc4_buf_printf(t, "        uint32_t val[16];\n");
    put_reads(t, i, xi);
    if (xi->io_on_mul)
        vc4_buf_printf(t, "        K.mul[%u](Q(%u), Q(%u), val, 0);\n", (unsigned)xi->op_mul, (unsigned)xi->off[2],
            (unsigned)xi->off[3]);
    else
        vc4_buf_printf(t, "        K.add[%u](Q(%u), Q(%u), val, 0);\n", (unsigned)xi->op_add, (unsigned)xi->off[0],
            (unsigned)xi->off[1]);
}

/* ... once the unit has taken it: the mul's elements 12-15 (the mnop
 * quirk's last_mul), no register written. */
static void put_unit_value_after(struct vc4_buf *t, const struct vc4_qpu_xi *xi)
{
    if (xi->io_on_mul)
        vc4_buf_printf(t, "        memcpy(Q(%u) + 12, val + 12, 16);\n", QOFF(last_mul));
    vc4_buf_printf(t, "        w = 0;\n        acc = 0;\n");
}

/* The fast I/O kinds (qpu.c io_write_fast, ldtmu_fast) through jit_io.h. */
static void put_io(struct vc4_buf *t, bool avx512, unsigned i, const struct vc4_qpu_xi *xi)
{
    put_now(t, i);
    if (xi->fast == VC4_XI_FAST_LDTMU) {
        /* the pop first (nothing done when it cannot be made the fast
         * way), r4 written after the ALU part has read it */
        vc4_buf_printf(t, "        uint32_t r4v[16];\n        uint64_t ready = now;\n");
        char cond[128];
        snprintf(cond, sizeof cond, "!io->ops->ldtmu(io->v, q, %uu, r4v, now, &ready)", (unsigned)xi->io_unit);
        put_stop(t, cond, i, false);
        if (xi->io_alu == VC4_XI_FAST_NOP)
            vc4_buf_printf(t, "        w = 0;\n        acc = 0;\n");
        else
            put_alu(t, avx512, i, xi);
        vc4_buf_printf(t, "        memcpy(Q(%u), r4v, 64);\n", QOFF(acc[4]));
        put_stop(t, "io->ops->ldtmu_after(io->v, q, ready, now)", i, true);
        return;
    }
    put_unit_value(t, i, xi);
    char cond[128];
    if (xi->fast == VC4_XI_FAST_TMU_S)
        snprintf(cond, sizeof cond, "!io->ops->tmu_s(io->v, q, %uu, val, now)", (unsigned)xi->io_unit);
    else
        snprintf(cond, sizeof cond, "!io->ops->%s(io->v, q, val, now)", xi->fast == VC4_XI_FAST_VPM_W ? "vpm_w" : "vpm_setup");
    put_stop(t, cond, i, false);
    put_unit_value_after(t, xi);
}

/* An SFU write (qpu.c io_write_fast): the value from the one ALU (or the
 * load immediate ldi<i>), the function of its 16 elements into
 * sfu_result; r4 gets it after the window (put_block). */
static void put_sfu(struct vc4_buf *t, unsigned i, const struct vc4_qpu_xi *xi)
{
    if (xi->form == VC4_XI_LDI) {
        vc4_buf_printf(t, "        vc4_sfu16(%uu, ldi%u, Q(%u));\n        w = 0;\n        acc = 0;\n",
            (unsigned)xi->io_unit, i, QOFF(sfu_result));
        return;
    }
    put_unit_value(t, i, xi);
    vc4_buf_printf(t, "        vc4_sfu16(%uu, val, Q(%u));\n", (unsigned)xi->io_unit, QOFF(sfu_result));
    put_unit_value_after(t, xi);
}

static void put_instr(struct vc4_buf *t, bool avx512, unsigned i, const struct vc4_icache_entry *e)
{
    const struct vc4_qpu_xi *xi = &e->xi;
    vc4_buf_printf(t, "    { /* +%u: 0x%016llx */\n", i * VC4_QPU_INSTR_BYTES, (unsigned long long)e->word);
    if (xi->fast == VC4_XI_FAST_SFU)
        put_sfu(t, i, xi);
    else if (xi->fast == VC4_XI_FAST_BRANCH) /* (the caller moves the PC after the slots) */
        vc4_buf_printf(t, "        *taken = vc4_lanes_branch_taken(F, %uu);\n        w = 0;\n        acc = 0;\n",
            (unsigned)e->in.cond_br);
    else if (xi->fast == VC4_XI_FAST_NOP)
        vc4_buf_printf(t, "        w = 0;\n        acc = 0;\n");
    else if (xi->fast == VC4_XI_FAST_LDI)
        put_ldi(t, i, xi);
    else if (xi->unif) { /* an ALU form reading a uniform, the VPM or a varying (block_io) */
        put_now(t, i);
        char cond[96];
        snprintf(cond, sizeof cond, "!io->ops->operand(io->v, q, %uu, now)", (unsigned)xi->unif);
        put_stop(t, cond, i, false);
        put_alu(t, avx512, i, xi);
        if (xi->unif & VC4_XI_IO_VARY)
            vc4_buf_printf(t, "        io->ops->post(io->v, q);\n");
    } else if (block_io(xi))
        put_io(t, avx512, i, xi);
    else
        put_alu(t, avx512, i, xi);
    vc4_buf_printf(t, "    }\n");
}

/* A loop block's vc4_jit_loop_fn (jit.h): whole passes from its
 * instruction at to its end, straight-line code here (from and to are
 * constants), while the branch goes back and the instruction at the top
 * reads nothing the last one wrote (block_ready's test, which run_fast
 * would make there). */
static void put_loop(struct vc4_buf *t, unsigned at, unsigned n, uint64_t rmask_at)
{
    vc4_buf_printf(t,
        "__attribute__((visibility(\"default\"))) uint64_t vc4_jit_loop(unsigned char *restrict q, uint64_t most, "
        "uint64_t *passes, unsigned *taken);\n"
        "uint64_t vc4_jit_loop(unsigned char *restrict q, uint64_t most, uint64_t *passes, unsigned *taken)\n{\n"
        "    uint64_t k = 0, w;\n    unsigned t;\n"
        "    do {\n        t = 0;\n        w = block(q, %uu, %uu, &t, 0);\n        k++;\n"
        "    } while (t && k < most && !(w & 0x%llxull));\n"
        "    *passes = k;\n    *taken = t;\n    return w;\n}\n",
        at, n, (unsigned long long)rmask_at);
}

/* The block's C; io: it holds an I/O instruction (its runs may stop
 * early); loop_at: a loop block's top (block_loop_at), or -1. */
static void put_block(struct vc4_buf *t, bool avx512, struct vc4_icache_entry *const *es, unsigned n, bool io,
                      int loop_at)
{
    vc4_buf_append(t, vc4_jit_prelude_text, vc4_jit_prelude_len); /* (copied: no formatting pass over 50 KB) */
    vc4_buf_append(t, "\n", 1);
    vc4_buf_printf(t, "/* ---- the block: %u instructions */\n#define Q(o) ((uint32_t *)(q + (o)))\n"
           "#define K %s\n",
        n, avx512 ? "vc4_jit_kernels_avx512" : "vc4_jit_kernels_host");
    for (unsigned i = 0; i < n; i++) {
        const struct vc4_qpu_xi *xi = &es[i]->xi;
        bool ldi = xi->fast == VC4_XI_FAST_LDI || (xi->fast == VC4_XI_FAST_SFU && xi->form == VC4_XI_LDI);
        if (!ldi && (xi->fast == VC4_XI_FAST_NOP || xi->rd_b != VC4_XI_RD_IMM))
            continue;
        vc4_buf_printf(t, "static const uint32_t %s%u[16] = {", ldi ? "ldi" : "imm", i);
        for (unsigned k = 0; k < VC4_QPU_SIMD; k++)
            vc4_buf_printf(t, "0x%xu%s", (unsigned)xi->vec[k], k + 1 < VC4_QPU_SIMD ? ", " : "};\n");
    }
    /* instructions from .. to - 1 (0 <= from < to <= n): entered at any
     * instruction, left after any */
    /* (one body, inlined into each entry: the loop's copy runs from 0 to
     * n, so its dispatch and exit tests fold away) */
    vc4_buf_printf(t, "static inline __attribute__((always_inline)) uint64_t block(unsigned char *restrict q, unsigned "
           "from, unsigned to, unsigned *taken, struct vc4_jit_io *io)\n{\n"
           "    (void)taken;\n    (void)io;\n"
           "    uint16_t *F = (uint16_t *)(q + %u);\n    uint64_t w = 0;\n    unsigned acc = 0;\n    (void)F;\n"
           "    switch (from) {\n",
        QOFF(flag));
    unsigned sfu_at = n; /* (the last SFU write's index) */
    bool window_io = false;  /* (its window holds an access) */
    for (unsigned i = 0; i < n; i++) {
        vc4_buf_printf(t, "    case %u:\n", i);
        bool in_window = sfu_at < i && i <= sfu_at + VC4_SFU_LATENCY;
        if (in_window && block_io(&es[i]->xi)) {
            /* an access in the window may stop the run before it: the
             * instructions until the result lands, as issue_pipelines
             * would have counted them (qpu.h sfu_left) */
            vc4_buf_printf(t, "    q[%u] = %uu;\n", QOFF(sfu_left), sfu_at + VC4_SFU_LATENCY + 1 - i);
            window_io = true;
        }
        put_instr(t, avx512, i, es[i]);
        if (es[i]->xi.fast == VC4_XI_FAST_SFU) {
            sfu_at = i;
            window_io = false;
        }
        /* the result lands in r4 after the window's last instruction
         * (qpu.c issue_pipelines); a run ends there or later */
        if (in_window && i == sfu_at + VC4_SFU_LATENCY) {
            vc4_buf_printf(t, "    memcpy(Q(%u), Q(%u), 64);\n", QOFF(acc[4]), QOFF(sfu_result));
            if (window_io)
                vc4_buf_printf(t, "    q[%u] = 0;\n", QOFF(sfu_left));
        }
        vc4_buf_printf(t, "    if (to == %u)\n        break;\n", i + 1);
    }
    vc4_buf_printf(t, "    default:\n        break;\n    }\n%s    q[%u] = (unsigned char)acc;\n    return w;\n}\n",
        io ? "out:\n" : "", QOFF(prev_acc));
    vc4_buf_printf(t, "__attribute__((visibility(\"default\"))) uint64_t vc4_jit_block(unsigned char *restrict q, unsigned "
           "from, unsigned to, unsigned *taken, struct vc4_jit_io *io);\n"
           "uint64_t vc4_jit_block(unsigned char *restrict q, unsigned from, unsigned to, unsigned *taken, "
           "struct vc4_jit_io *io)\n{\n    return block(q, from, to, taken, io);\n}\n");
    if (loop_at >= 0)
        put_loop(t, (unsigned)loop_at, n, es[loop_at]->xi.rmask);
}

/* ---- compiling and loading --------------------------------------------------- */

static bool ensure_dir(struct vc4_jit *j, const struct vc4_allocator *alloc)
{
    if (!j->dir) {
        char tmpl[] = "/tmp/vc4kit-jit-XXXXXX";
        if (!mkdtemp(tmpl))
            return false;
        j->dir = dup_str(alloc, tmpl);
        j->own_dir = true;
        return j->dir != NULL;
    }
    /* mkdir -p */
    char path[4096];
    size_t n = strlen(j->dir);
    if (n == 0 || n >= sizeof path)
        return false;
    memcpy(path, j->dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (path[i] == '/' || path[i] == 0) {
            char c = path[i];
            path[i] = 0;
            if (mkdir(path, 0755) != 0 && errno != EEXIST)
                return false;
            path[i] = c;
        }
    }
    return true;
}

/* The host program's environment without its preloads (vc4kit exec's
 * and Mesa's drm-shim must not be loaded into the compiler), NULL-ended,
 * or NULL. */
static char **compiler_env(const struct vc4_allocator *alloc)
{
    size_t nenv = 0;
    while (environ && environ[nenv])
        nenv++;
    char **envp = vc4_malloc(alloc, (nenv + 1) * sizeof *envp);
    if (!envp)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < nenv; i++)
        if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0)
            envp[k++] = environ[i];
    envp[k] = NULL;
    return envp;
}

/* Runs the compiler on src into out; its output goes to log.  (Any thread:
 * no allocation, no diagnostics.) */
static bool run_compiler(const char *cc, const char *march_flags, char **envp, char *src, char *out,
                         const char *log)
{
    char march[256], cc_arg[4096];
    snprintf(march, sizeof march, "%s", march_flags);
    snprintf(cc_arg, sizeof cc_arg, "%s", cc);
    char *argv[34]; /* (cc, 19 flags, 8 march flags, -o out src, the libraries, NULL) */
    int argc = 0;
    char flags[] = JIT_CFLAGS;
    char *save = NULL;
    argv[argc++] = cc_arg;
    for (char *tok = strtok_r(flags, " ", &save); tok && argc < 20; tok = strtok_r(NULL, " ", &save))
        argv[argc++] = tok;
    for (char *tok = strtok_r(march, " ", &save); tok && argc < 28; tok = strtok_r(NULL, " ", &save))
        argv[argc++] = tok;
    char dash_o[] = "-o";
    argv[argc++] = dash_o;
    argv[argc++] = out;
    argv[argc++] = src;
    char libs[] = JIT_LIBS;
    argv[argc++] = libs;
    argv[argc] = NULL;
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0)
        return false;
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, cc_arg, &fa, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return false;
    int status = 0;
    pid_t w;
    while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    if (w < 0) /* (SIGCHLD ignored by the host program: the output tells) */
        return access(out, R_OK) == 0;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static bool remember_handle(struct vc4_jit *j, const struct vc4_allocator *alloc, void *h)
{
    if (j->nhandles == j->caphandles) {
        size_t cap = j->caphandles ? j->caphandles * 2 : 16;
        void **hs = vc4_realloc(alloc, j->handles, cap * sizeof *hs);
        if (!hs)
            return false;
        j->handles = hs;
        j->caphandles = cap;
    }
    j->handles[j->nhandles++] = h;
    return true;
}

static void give_up(struct vc4_v3d *v, struct vc4_jit *j, const char *why, const char *detail)
{
    j->broken = true;
    struct vc4_location none = vc4_location_none();
    vc4_diag_emit(&v->unit_sink, VC4_NOTE, VC4_DIAG_SEMANTIC, "jit", &none,
                  "QPU code is interpreted from now on: %s%s%s", why, detail ? ": " : "", detail ? detail : "");
}

/*
 * A compile job: made on the emulator's thread (the source, the paths, the
 * environment), built on any thread (build_job: the cache directory or the
 * compiler, then dlopen; no allocation, no diagnostics), installed on the
 * emulator's thread again (install: diagnostics, statistics, the block
 * linked into the instruction cache).
 */
struct jit_job {
    struct jit_job *next;
    struct vc4_jit_block *b;    /* everything but run */
    struct vc4_buf src;
    char **envp;
    char so[1024], tmp[1024], c[1024], log[1024];
    /* results */
    void *dl;
    vc4_jit_fn *fn;
    vc4_jit_loop_fn *loop_fn;   /* (a loop block's) */
    bool from_cache;
    double seconds;
    const char *fail;           /* why it failed, or NULL */
    const char *fail_path;      /* the file it names */
};

static void build_job(const char *cc, const char *march, struct jit_job *job)
{
    if (access(job->so, R_OK) == 0 && (job->dl = dlopen(job->so, RTLD_NOW | RTLD_LOCAL)) != NULL) {
        job->from_cache = true;
    } else {
        FILE *f = fopen(job->c, "w");
        bool ok = f && fwrite(job->src.data, 1, job->src.len, f) == job->src.len;
        if (f && fclose(f) != 0)
            ok = false;
        if (!ok) {
            unlink(job->c);
            job->fail = "cannot write the block's source", job->fail_path = job->c;
            return;
        }
        double t0 = vc4_monotonic_seconds();
        ok = run_compiler(cc, march, job->envp, job->c, job->tmp, job->log);
        job->seconds = vc4_monotonic_seconds() - t0;
        unlink(job->c);
        if (!ok) {
            unlink(job->tmp);
            job->fail = "the compiler failed (its output is in)", job->fail_path = job->log;
            return;
        }
        unlink(job->log);
        /* (rename is atomic: another process sharing the directory sees
         * the whole file or none) */
        if (rename(job->tmp, job->so) != 0) {
            unlink(job->tmp);
            job->fail = "cannot store the compiled block", job->fail_path = job->so;
            return;
        }
        job->dl = dlopen(job->so, RTLD_NOW | RTLD_LOCAL);
    }
    if (!job->dl) {
        job->fail = "cannot load the compiled block", job->fail_path = job->so;
        return;
    }
    void *sym = dlsym(job->dl, "vc4_jit_block");
    memcpy(&job->fn, &sym, sizeof job->fn); /* (POSIX: a data pointer to a function) */
    sym = dlsym(job->dl, "vc4_jit_loop");   /* (a loop block's only: else NULL) */
    memcpy(&job->loop_fn, &sym, sizeof job->loop_fn);
    if (!job->fn) {
        dlclose(job->dl);
        job->dl = NULL;
        job->fail = "the compiled block has no entry", job->fail_path = job->so;
    }
}

static void free_job(const struct vc4_allocator *alloc, struct jit_job *job)
{
    if (!job)
        return;
    vc4_free(alloc, job->b);
    vc4_buf_free(&job->src);
    vc4_free(alloc, job->envp);
    vc4_free(alloc, job);
}

/* Jobs never installed (the emulator is destroyed). */
static void drop_jobs(const struct vc4_allocator *alloc, struct jit_job *job)
{
    while (job) {
        struct jit_job *next = job->next;
        if (job->dl)
            dlclose(job->dl);
        free_job(alloc, job);
        job = next;
    }
}

/* A job for block b with source src (both taken over), or NULL after a
 * note (the JIT is then off). */
static struct jit_job *make_job(struct vc4_v3d *v, struct vc4_jit *j, struct vc4_jit_block *b, struct vc4_buf *src)
{
    const struct vc4_allocator *alloc = v->alloc;
    struct jit_job *job = vc4_calloc(alloc, 1, sizeof *job);
    if (!job) {
        vc4_free(alloc, b);
        vc4_buf_free(src);
        return NULL;
    }
    job->b = b;
    job->src = *src;
    if (!ensure_dir(j, alloc)) {
        give_up(v, j, "cannot make the cache directory", j->dir);
        free_job(alloc, job);
        return NULL;
    }
    /* (the prelude at its start is in prelude_hash already: only the
     * block's own part is hashed, not 55 KB again per block) */
    uint64_t h = fnv1a(j->prelude_hash, src->data + vc4_jit_prelude_len, src->len - vc4_jit_prelude_len);
    unsigned long long uniq = (unsigned long long)getpid() * 1000003ull + j->jobs++;
    int n = snprintf(job->so, sizeof job->so, "%s/b%016llx.so", j->dir, (unsigned long long)h);
    if (n < 0 || (size_t)n + 64 >= sizeof job->so) {
        give_up(v, j, "cache directory path too long", NULL);
        free_job(alloc, job);
        return NULL;
    }
    snprintf(job->tmp, sizeof job->tmp, "%s/b%016llx.%llx.so", j->dir, (unsigned long long)h, uniq);
    snprintf(job->c, sizeof job->c, "%s/b%016llx.%llx.c", j->dir, (unsigned long long)h, uniq);
    snprintf(job->log, sizeof job->log, "%s/b%016llx.%llx.log", j->dir, (unsigned long long)h, uniq);
    job->envp = compiler_env(alloc);
    if (!job->envp) {
        free_job(alloc, job);
        return NULL;
    }
    return job;
}

/* ---- heads ------------------------------------------------------------------- */

static unsigned bucket_of(uint32_t addr) { return (addr >> 3) & (VC4_JIT_BUCKETS - 1); }

/* Each instruction's cache entry names the block and its place in it: a
 * QPU may enter a block at any of its instructions (a later block over the
 * same instruction takes its entries). */
static void link_block(struct vc4_jit_block *b, struct vc4_icache_entry *const *es)
{
    /* (a delay slot is no entry: a QPU there without the branch pending is
     * not in this block's flow; nor is an SFU write's window) */
    unsigned enter = b->br_at >= 0 ? (unsigned)b->br_at + 1 : b->n;
    for (unsigned i = 0; i < enter; i++) {
        if (b->nostop >> i & 1u)
            continue;
        es[i]->jit = b;
        es[i]->jit_off = (uint8_t)i;
    }
    b->verified = (struct vc4_code_stamp){UINT64_MAX, 0}; /* (not yet) */
}

/* The finished job on the emulator's thread: the block in the table and
 * linked into the instruction cache when its words are still there (else
 * its head counts again, and finds it in the table when hot). */
static struct vc4_jit_block *install(struct vc4_v3d *v, struct vc4_jit *j, struct jit_job *job)
{
    const struct vc4_allocator *alloc = v->alloc;
    struct vc4_jit_block *b = NULL;
    if (job->fail) {
        give_up(v, j, job->fail, job->fail_path);
    } else if (!remember_handle(j, alloc, job->dl)) {
        dlclose(job->dl);
    } else {
        j->stats.compile_seconds += job->seconds;
        if (job->from_cache)
            j->stats.loaded++;
        else
            j->stats.compiled++;
        b = job->b;
        job->b = NULL;
        b->run = job->fn;
        b->loop = job->loop_fn;
        unsigned k = bucket_of(b->addr);
        b->next = j->bucket[k];
        j->bucket[k] = b;
        struct vc4_icache_entry *es[VC4_JIT_MAX_BLOCK];
        unsigned i = 0;
        while (i < b->n && vc4_qpu_cached(v, b->addr + i * VC4_QPU_INSTR_BYTES, &es[i]) &&
               es[i]->word == b->words[i])
            i++;
        if (i == b->n) {
            link_block(b, es);
        } else {
            if (i > 0) { /* (the head is current: it counts again) */
                es[0]->jit_none = false;
                es[0]->jit_heat = 0;
            }
            b = NULL;
        }
    }
    free_job(alloc, job);
    return b;
}

void vc4_jit_install_done(struct vc4_v3d *v)
{
    struct vc4_jit *j = v->jit;
    pthread_mutex_lock(&j->mu);
    struct jit_job *done = j->done;
    j->done = NULL;
    atomic_store_explicit(&j->ndone, 0, memory_order_relaxed);
    pthread_mutex_unlock(&j->mu);
    while (done) {
        struct jit_job *next = done->next;
        install(v, j, done);
        done = next;
    }
}

static void *worker(void *arg)
{
    struct vc4_jit *j = arg;
    pthread_mutex_lock(&j->mu);
    for (;;) {
        while (!j->pending && !j->stop)
            pthread_cond_wait(&j->cv, &j->mu);
        if (j->stop)
            break; /* (jobs still pending are freed by destroy) */
        struct jit_job *job = j->pending;
        j->pending = job->next;
        if (!j->pending)
            j->pending_tail = NULL;
        pthread_mutex_unlock(&j->mu);
        build_job(j->cc, j->march, job);
        pthread_mutex_lock(&j->mu);
        job->next = j->done;
        j->done = job;
        atomic_store_explicit(&j->ndone, 1, memory_order_release);
    }
    pthread_mutex_unlock(&j->mu);
    return NULL;
}

/* Hands the job to the compiling thread (started on first use): false when
 * it cannot be started (the caller builds the job itself). */
static bool enqueue(struct vc4_jit *j, struct jit_job *job)
{
    if (j->thread_started && j->thread_pid != getpid())
        return false; /* (a forked child: the thread stayed with the parent) */
    if (!j->thread_started) {
        if (pthread_create(&j->thread, NULL, worker, j) != 0)
            return false;
        j->thread_started = true;
        j->thread_pid = getpid();
    }
    pthread_mutex_lock(&j->mu);
    job->next = NULL;
    if (j->pending_tail)
        j->pending_tail->next = job;
    else
        j->pending = job;
    j->pending_tail = job;
    pthread_cond_signal(&j->cv);
    pthread_mutex_unlock(&j->mu);
    return true;
}

struct vc4_jit_block *vc4_jit_heat(struct vc4_v3d *v, struct vc4_icache_entry *e, uint32_t addr)
{
    struct vc4_jit *j = v->jit;
    vc4_jit_poll(v, j);
    if (++e->jit_heat < j->threshold)
        return NULL;
    if (j->broken) {
        e->jit_none = true;
        return NULL;
    }
    struct vc4_icache_entry *es[VC4_JIT_MAX_BLOCK];
    bool unfetched;
    unsigned n = cut(v, addr, es, &unfetched);
    if (unfetched) { /* (the rest of it has not run yet: count again) */
        e->jit_heat = 0;
        return NULL;
    }
    e->jit_none = true; /* (from here on the head is settled, block or not) */
    if (n < 2) /* one instruction gains nothing */
        return NULL;
    /* compiled before (this head's entry was refilled since)? */
    for (struct vc4_jit_block *b = j->bucket[bucket_of(addr)]; b; b = b->next) {
        if (b->addr != addr || b->n != n)
            continue;
        unsigned i = 0;
        while (i < n && b->words[i] == es[i]->word)
            i++;
        if (i == n) {
            link_block(b, es);
            return b;
        }
    }
    if (j->budget == 0)
        return NULL;
    j->budget--;
    struct vc4_buf t;
    vc4_buf_init(&t, v->alloc);
    uint64_t io = 0, nostop = 0; /* (bit i: instruction i is I/O; in an SFU window) */
    for (unsigned i = 0; i < n; i++) {
        io |= (uint64_t)block_io(&es[i]->xi) << i;
        if (es[i]->xi.fast == VC4_XI_FAST_SFU) /* (cut: the window is in the block) */
            nostop |= ((UINT64_C(1) << VC4_SFU_LATENCY) - 1) << (i + 1);
    }
    int loop_at = block_loop_at(es, n, io, nostop);
    put_block(&t, j->avx512, es, n, io != 0, loop_at);
    struct vc4_jit_block *b = t.failed ? NULL : vc4_calloc(v->alloc, 1, sizeof *b);
    if (!b) {
        vc4_buf_free(&t);
        return NULL;
    }
    b->addr = addr;
    b->n = n;
    b->br_at = -1;
    for (unsigned i = 0; i < n; i++) {
        b->words[i] = es[i]->word;
        b->rmask[i] = es[i]->xi.rmask;
        if (es[i]->xi.fast == VC4_XI_FAST_BRANCH) {
            b->br_at = (int)i;
            b->br_rel = es[i]->in.rel;
            b->br_imm = es[i]->in.imm;
        }
    }
    b->io = io;
    b->nostop = nostop;
    b->loop_at = loop_at < 0 ? 0 : (unsigned)loop_at;
    struct jit_job *job = make_job(v, j, b, &t);
    if (!job)
        return NULL;
    if (j->async && enqueue(j, job))
        return NULL; /* (interpreted until the block is installed) */
    build_job(j->cc, j->march, job);
    return install(v, j, job);
}
