/*
 * bench_qpu.c - emulated QPU instructions per second per host core, for
 * ALU-heavy code and for TMU/VPM-heavy code (CPU time of one thread).
 * Prints figures; asserts nothing.
 *
 *   bench_qpu [DIVISOR [CASE [ENGINE]]]
 * DIVISOR (default 1) divides every loop count: a short run for
 * instruction-counting tools (valgrind --tool=callgrind, perf stat) whose
 * host instruction count divided by the printed QPU instruction count is
 * the per-instruction cost, free of the machine's load.  CASE (alu1,
 * alu12, alu12u, alu12t, alu12d: the 12-QPU loop unrolled 7, 3 and 2
 * times, sfu1, sfu12: the loop with an SFU reciprocal, sfuf1, sfuf12: the
 * same with finite values, io1, io12) runs
 * that case only, ENGINE (interp, jit, jit2) on that
 * engine only.  jit2 is the compiled blocks with a second host thread
 * (vc4_emu_options.host_threads = 2): its figure is per wall-clock second,
 * beside the one-thread jit's wall-clock time (CPU time would count the
 * helper's waiting).  BENCH_JIT_DIR names a cache
 * directory for the compiled blocks (kept: for perf annotate), else each
 * run compiles into a temporary one.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vc4kit/emu.h"
#include "vc4kit/qpu.h"

#define CODE 0x1000u
/* NOPF supplies nop defaults that the designated fields after it override. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif
#define NOPF .sig = 1, .waddr_add = 39, .waddr_mul = 39, .raddr_a = 39, .raddr_b = 39

static uint64_t enc(struct vc4_qpu_instr in) { return vc4_qpu_encode(&in); }

/* Seconds on a clock: CPU time of this process (the figure is per host
 * core, and does not depend much on what else the machine runs), or the
 * wall clock (for two host threads). */
static double seconds_on(clockid_t id)
{
    struct timespec ts;
    if (clock_gettime(id, &ts) != 0)
        return (double)clock() / CLOCKS_PER_SEC;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
static double now(void) { return seconds_on(CLOCK_PROCESS_CPUTIME_ID); }
static double wall(void) { return seconds_on(CLOCK_MONOTONIC); }

/* A loop: body, then a counter decrement (sf) and a branch back with 3 slots. */
static size_t build(uint64_t *w, const uint64_t *body, size_t nbody, uint32_t iters)
{
    size_t n = 0;
    w[n++] = enc((struct vc4_qpu_instr){NOPF, .sig = 14, .waddr_add = 1, .cond_add = 1, .imm = iters}); /* ra1 = iters */
    w[n++] = VC4_QPU_NOP_WORD;
    size_t top = n;
    for (size_t i = 0; i < nbody; i++)
        w[n++] = body[i];
    /* ra1 = ra1 - 1, setf */
    w[n++] = enc((struct vc4_qpu_instr){NOPF, .sig = 13, .op_add = VC4_QPU_A_SUB, .waddr_add = 1, .add_a = 6,
                                        .add_b = 7, .raddr_a = 1, .raddr_b = 1, .cond_add = 1, .sf = 1});
    uint32_t back = (uint32_t)(-(int32_t)((n + 4 - top) * 8));
    w[n++] = enc((struct vc4_qpu_instr){.sig = 15, .cond_br = VC4_QPU_BCOND_ANY_ZC, .rel = 1,
                                        .waddr_add = 39, .waddr_mul = 39, .imm = back});
    w[n++] = VC4_QPU_NOP_WORD;
    w[n++] = VC4_QPU_NOP_WORD;
    w[n++] = VC4_QPU_NOP_WORD;
    w[n++] = enc((struct vc4_qpu_instr){NOPF, .sig = 3});
    w[n++] = VC4_QPU_NOP_WORD;
    w[n++] = VC4_QPU_NOP_WORD;
    return n;
}

static const char *only;   /* the one case to run (NULL: all) */
static const char *engine; /* the one engine to run: interp, jit or jit2 (NULL: all) */

/* One run of the program on `qpus` QPUs; jit: with compiled blocks, on
 * `threads` host threads.  Returns the CPU seconds of the run, *wall_s its
 * wall-clock seconds (the compiler runs in a child process and is not
 * counted: its wall time is printed apart). */
static double run_once(const uint64_t *w, size_t n, unsigned qpus, bool jit, unsigned threads,
                       struct vc4_emu_stats *s, enum vc4_status *st, double *compile_s, double *wall_s,
                       uint64_t *helper, uint64_t *compiled, uint64_t *loop_passes)
{
    struct vc4_emu_options o = {.mem_size = 16u << 20, .num_qpus = 12, .max_cycles = UINT64_C(1) << 40,
                                .jit = jit ? VC4_EMU_JIT_ON : VC4_EMU_JIT_OFF, .jit_threshold = 100,
                                .jit_dir = getenv("BENCH_JIT_DIR"), .host_threads = threads};
    struct vc4_emu *e = vc4_emu_create(&o);
    for (size_t i = 0; i < n; i++) {
        uint8_t b[8];
        vc4_qpu_store_le(b, w[i]);
        vc4_emu_mem_write(e, CODE + 8 * (uint32_t)i, b, 8);
    }
    for (unsigned q = 0; q < qpus; q++) {
        vc4_emu_reg_write(e, VC4_V3D_SRQUA, 0x8000 + 0x100 * q);
        vc4_emu_reg_write(e, VC4_V3D_SRQPC, CODE);
    }
    double t0 = now(), w0 = wall();
    *st = vc4_emu_run(e, 0);
    double t = now() - t0;
    *wall_s = wall() - w0;
    vc4_emu_stats(e, s);
    struct vc4_emu_jit_stats js;
    vc4_emu_jit_stats(e, &js);
    *compile_s = js.compile_seconds;
    *helper = js.helper;
    *compiled = js.instructions;
    *loop_passes = js.loop_passes;
    vc4_emu_destroy(e);
    return t;
}

static void bench(const char *name, const char *id, const uint64_t *body, size_t nbody, uint32_t iters,
                  unsigned qpus)
{
    if (only && strcmp(only, id) != 0)
        return;
    uint64_t w[256];
    size_t n = build(w, body, nbody, iters ? iters : 1);
    static const char *const names[3] = {"interp", "jit", "jit2"};
    struct vc4_emu_stats s[3];
    enum vc4_status st[3];
    double t[3], cs[3], wt[3];
    uint64_t helper[3], compiled[3], passes[3];
    for (int k = 0; k < 3; k++) {
        if (engine && strcmp(engine, names[k]) != 0) {
            t[k] = 0;
            continue;
        }
        t[k] = run_once(w, n, qpus, k > 0, k == 2 ? 2 : 1, &s[k], &st[k], &cs[k], &wt[k], &helper[k], &compiled[k],
                        &passes[k]);
        double secs = k == 2 ? wt[k] : t[k];
        printf("%-24s %-7s %2u QPU(s): %12llu instr in %.3f s = %7.1f M instr/s (16-wide%s) [%s]", name,
               names[k], qpus, (unsigned long long)s[k].instructions, secs,
               (double)s[k].instructions / secs * 1e-6, k == 2 ? ", wall clock" : "", vc4_status_name(st[k]));
        if (k == 1 && !engine)
            printf(" %.2fx, %s counts, compiler %.2f s wall, %.0f%% compiled, %llu loop passes", t[0] / t[1],
                   memcmp(&s[0], &s[1], sizeof s[0]) == 0 ? "same" : "DIFFERENT", cs[1],
                   100.0 * (double)compiled[1] / (double)s[1].instructions, (unsigned long long)passes[1]);
        if (k == 2 && !engine)
            printf(" %.2fx the one-thread jit's %.3f s wall, %s counts, %.0f%% of instructions on the helper",
                   wt[1] / wt[2], wt[1], memcmp(&s[0], &s[2], sizeof s[0]) == 0 ? "same" : "DIFFERENT",
                   100.0 * (double)helper[2] / (double)s[2].instructions);
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    unsigned long div = argc > 1 ? strtoul(argv[1], NULL, 0) : 1;
    if (div == 0)
        div = 1;
    only = argc > 2 ? argv[2] : NULL;
    engine = argc > 3 ? argv[3] : NULL;
    /* ALU: fadd r0 = r0 + r1 ; fmul r2 = r2 * r3 in the same instruction; add/shl/... */
    uint64_t alu[8];
    alu[0] = enc((struct vc4_qpu_instr){NOPF, .op_add = VC4_QPU_A_FADD, .waddr_add = 32, .add_a = 0, .add_b = 1,
                                        .cond_add = 1, .op_mul = VC4_QPU_M_FMUL, .waddr_mul = 34, .mul_a = 2,
                                        .mul_b = 3, .cond_mul = 1});
    alu[1] = enc((struct vc4_qpu_instr){NOPF, .op_add = VC4_QPU_A_ADD, .waddr_add = 2, .add_a = 0, .add_b = 1,
                                        .cond_add = 1, .op_mul = VC4_QPU_M_MUL24, .waddr_mul = 3, .mul_a = 2,
                                        .mul_b = 3, .cond_mul = 1});
    alu[2] = enc((struct vc4_qpu_instr){NOPF, .sig = 13, .op_add = VC4_QPU_A_SHL, .waddr_add = 33, .add_a = 1,
                                        .add_b = 7, .raddr_b = 3, .cond_add = 1, .op_mul = VC4_QPU_M_V8ADDS,
                                        .waddr_mul = 35, .mul_a = 3, .mul_b = 0, .cond_mul = 1});
    alu[3] = enc((struct vc4_qpu_instr){NOPF, .op_add = VC4_QPU_A_FMAX, .waddr_add = 4, .add_a = 0, .add_b = 2,
                                        .cond_add = 1, .op_mul = VC4_QPU_M_FMUL, .waddr_mul = 4, .mul_a = 1,
                                        .mul_b = 3, .cond_mul = 1});
    for (int i = 4; i < 8; i++)
        alu[i] = alu[i - 4];
    bench("ALU-heavy", "alu1", alu, 8, (uint32_t)(2000000 / div), 1);
    bench("ALU-heavy", "alu12", alu, 8, (uint32_t)(200000 / div), 12);
    /* the same work unrolled: a loop body of 56 instructions (one block of
     * 61 with the counter, the branch and its slots), as unrolled kernels
     * have (GPU_FFT's butterflies): longer runs side by side */
    uint64_t alu56[56];
    for (int i = 0; i < 56; i++)
        alu56[i] = alu[i % 8];
    bench("ALU-heavy, unrolled", "alu12u", alu56, 56, (uint32_t)(200000 / 7 / div), 12);
    bench("ALU-heavy, unrolled x3", "alu12t", alu56, 24, (uint32_t)(200000 / 3 / div), 12);
    bench("ALU-heavy, unrolled x2", "alu12d", alu56, 16, (uint32_t)(200000 / 2 / div), 12);
    /* the 8-instruction body with an SFU reciprocal in it (until
     * 2026-11-30 no block held an SFU write: every pass left compiled code
     * there, as a shader with a 1/w did), the result read from r4 three
     * instructions later */
    uint64_t sfu[12];
    for (int i = 0; i < 4; i++)
        sfu[i] = alu[i];
    sfu[4] = enc((struct vc4_qpu_instr){NOPF, .op_add = VC4_QPU_A_OR, .waddr_add = VC4_QPU_W_SFU_RECIP, .add_a = 2,
                                        .add_b = 2, .cond_add = 1});
    sfu[5] = VC4_QPU_NOP_WORD;
    sfu[6] = VC4_QPU_NOP_WORD;
    sfu[7] = enc((struct vc4_qpu_instr){NOPF, .op_add = VC4_QPU_A_FADD, .waddr_add = 35, .add_a = 4, .add_b = 3,
                                        .cond_add = 1});
    for (int i = 8; i < 12; i++)
        sfu[i] = alu[i - 4];
    bench("ALU-heavy with an SFU op", "sfu1", sfu, 12, (uint32_t)(2000000 / div), 1);
    bench("ALU-heavy with an SFU op", "sfu12", sfu, 12, (uint32_t)(200000 / div), 12);
    /* The same shape with finite values: sfu1's registers grow to Inf and
     * NaN patterns within a few passes, and its time went mostly to the
     * float kernels' special-value path (perf: the AVX-512 kernels'
     * special512 a third of the compiled run), not to the SFU.  Here
     * every pass starts again from a load immediate (r2 = 3.0), as a
     * shader's 1/w does from each vertex's w; products stay below 2^30. */
#define FOP(A, WA, AA, AB, M, WM, MA, MB)                                                                     \
    enc((struct vc4_qpu_instr){NOPF, .op_add = VC4_QPU_A_##A, .waddr_add = WA, .add_a = AA, .add_b = AB,      \
                               .cond_add = 1, .op_mul = VC4_QPU_M_##M, .waddr_mul = WM, .mul_a = MA, .mul_b = MB, \
                               .cond_mul = 1})
    const uint64_t sfuf[12] = {
        enc((struct vc4_qpu_instr){NOPF, .sig = 14, .waddr_add = 34, .cond_add = 1, .imm = 0x40400000u}),
        FOP(FADD, 32, 2, 2, FMUL, 35, 2, 2), /* r0 = 6, r3 = 9 */
        enc((struct vc4_qpu_instr){NOPF, .op_add = VC4_QPU_A_OR, .waddr_add = VC4_QPU_W_SFU_RECIP, .add_a = 3,
                                   .add_b = 3, .cond_add = 1}),
        FOP(FADD, 33, 0, 2, FMUL, 4, 2, 3),  /* (the SFU's window: no r4 read) */
        FOP(FSUB, 32, 1, 3, FMUL, 34, 0, 2),
        FOP(FADD, 33, 4, 3, FMUL, 35, 3, 2), /* r1 = 1/9 + 9 */
        FOP(FMAX, 32, 1, 2, FMUL, 34, 1, 1),
        FOP(FADD, 35, 0, 1, FMUL, 33, 2, 0),
        FOP(FMIN, 32, 3, 1, FMUL, 34, 3, 3),
        FOP(FSUB, 33, 2, 0, FMUL, 35, 0, 1),
        FOP(FADD, 32, 1, 3, FMUL, 34, 1, 2),
        FOP(FMAX, 33, 0, 2, FMUL, 35, 3, 0),
    };
#undef FOP
    bench("ALU with an SFU op, finite", "sfuf1", sfuf, 12, (uint32_t)(2000000 / div), 1);
    bench("ALU with an SFU op, finite", "sfuf12", sfuf, 12, (uint32_t)(200000 / div), 12);

    /* TMU/VPM: vpm write setup, VPM write, TMU0_S general lookup, ldtmu0 */
    uint64_t io[6];
    io[0] = enc((struct vc4_qpu_instr){NOPF, .sig = 14, .ws = 1, .waddr_add = 49, .cond_add = 1, .imm = 0x00001A00});
    io[1] = enc((struct vc4_qpu_instr){NOPF, .op_add = VC4_QPU_A_OR, .waddr_add = 48, .add_a = 0, .add_b = 0, .cond_add = 1});
    io[2] = enc((struct vc4_qpu_instr){NOPF, .sig = 14, .waddr_add = 56, .cond_add = 1, .imm = 0x2000});
    io[3] = VC4_QPU_NOP_WORD;
    io[4] = enc((struct vc4_qpu_instr){NOPF, .sig = 10});
    io[5] = enc((struct vc4_qpu_instr){NOPF, .op_add = VC4_QPU_A_OR, .waddr_add = 48, .add_a = 4, .add_b = 4, .cond_add = 1});
    bench("TMU/VPM-heavy", "io1", io, 6, (uint32_t)(500000 / div), 1);
    bench("TMU/VPM-heavy", "io12", io, 6, (uint32_t)(50000 / div), 12);
    return 0;
}
