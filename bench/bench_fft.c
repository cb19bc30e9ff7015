/*
 * bench_fft.c - GPU_FFT-shaped transforms on the emulated V3D, timed beside
 * a real Pi 1's published GPU_FFT times (hello_fft's gpu_fft.txt,
 * raspberrypi/userland: 256 points 0.033 ms, 4096 points 0.25 ms, 2^20
 * points 194 ms; 2^16 is not in that table).
 *
 * The shader is this file's own (not GPU_FFT's code) but has GPU_FFT's
 * traffic: twelve QPUs, radix-4 butterflies on 16 lanes, data and twiddles
 * read through the TMUs (general memory lookups, four outstanding per TMU),
 * results written to the VPM and stored by VDW under the mutex, and a
 * semaphore barrier between passes (a master QPU collects the others, as
 * GPU_FFT's sync does).  It is a real transform: a radix-4 Stockham FFT
 * (the transpose of the autosort formulation of Govindaraju et al., "High
 * performance discrete Fourier transforms on graphics processors", 2008,
 * so that every pass reads by gather and writes 16 consecutive outputs per
 * row), on planar float data (real parts, then imaginary parts), checked
 * against a double-precision FFT on the host (relative RMS error printed).
 *
 * Prints per size (per transform, averaged over repeated runs): QPU
 * instructions, emulated cycles, instructions per second, CPU time, the Pi
 * 1's time and the ratio, and for 4096
 * points the same run cycle by cycle (vc4_emu_options.cycle_by_cycle, the
 * reference scheduler) for the ratio.  Asserts nothing.
 *
 *   bench_fft [MAXLOG2]   (default 20: 2^8, 2^12, 2^16, 2^20; odd: that size less one alone)
 *
 * Environment: BENCH_FFT_JIT=1 (the odd form with compiled blocks),
 * BENCH_JIT_DIR (their cache directory), BENCH_FFT_REPS (timed transforms
 * per size), BENCH_FFT_PROFILE=1 (the odd form: where the shader's QPUs
 * spend their emulated cycles, vc4_emu_profile_report, after the figures).
 */
#define _POSIX_C_SOURCE 199309L
#define _DEFAULT_SOURCE
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vc4kit/emu.h"
#include "vc4kit/qpu.h"

#define QPUS 12u
#define CODE 0x1000u
#define UNIFS 0x10000u       /* 4 KiB of uniforms per QPU */
#define TWID 0x100000u
#define BUF0 0x1000000u
#define MEM (96u << 20)

static double cpu_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return (double)clock() / CLOCKS_PER_SEC;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The shader: bench/fft4.qasm (its header says what it computes). */

static void st32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* The host's reference: an iterative radix-2 FFT in double. */
static void host_fft(double *re, double *im, unsigned n)
{
    for (unsigned i = 1, j = 0; i < n; i++) {
        unsigned bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            double t = re[i];
            re[i] = re[j];
            re[j] = t;
            t = im[i];
            im[i] = im[j];
            im[j] = t;
        }
    }
    for (unsigned len = 2; len <= n; len <<= 1) {
        double a = -2 * M_PI / len;
        for (unsigned i = 0; i < n; i += len)
            for (unsigned k = 0; k < len / 2; k++) {
                double wr = cos(a * k), wi = sin(a * k);
                double *ur = &re[i + k], *ui = &im[i + k], *vr = &re[i + k + len / 2], *vi = &im[i + k + len / 2];
                double tr = *vr * wr - *vi * wi, ti = *vr * wi + *vi * wr;
                *vr = *ur - tr;
                *vi = *ui - ti;
                *ur += tr;
                *ui += ti;
            }
    }
}

struct fft_result {
    double seconds, rel_rms; /* seconds: all repeats */
    unsigned repeats;        /* transforms run */
    uint64_t instructions, cycles; /* all repeats */
    uint64_t jit_instructions;     /* of which ran as compiled code */
    uint64_t jit_io;               /* ... TMU and VPM accesses among them */
    uint64_t jit_blocks;           /* blocks compiled */
    uint64_t alone, lockstep;      /* of all, run with no other QPU awake / stepped beside others
                                    * (vc4_emu_host_stats; the rest ran side by side) */
    double compile_seconds;        /* wall time in the compiler (not in seconds) */
    enum vc4_status st;
    unsigned warnings; /* warnings and errors */
    unsigned notes;    /* (2^16: the VDW stride beyond the guide's 13 bits, which GPU_FFT relies on) */
};

/* Diagnostics are counted, notes apart; BENCH_FFT_DIAG=1 prints them. */
static void count_diag(void *user, const struct vc4_diag *d)
{
    struct fft_result *res = user;
    if (getenv("BENCH_FFT_DIAG"))
        fprintf(stderr, "%s\n", d->message);
    if (d->severity == VC4_NOTE)
        res->notes++;
    else
        res->warnings++;
}

static void run_fft(unsigned log2n, bool cycle_by_cycle, bool jit, struct fft_result *res)
{
    memset(res, 0, sizeof *res);
    unsigned n = 1u << log2n, passes = log2n / 2;
    struct vc4_emu_options o = {.mem_size = MEM, .num_qpus = QPUS, .max_cycles = UINT64_C(1) << 40,
                                .cycle_by_cycle = cycle_by_cycle,
                                .jit = jit ? VC4_EMU_JIT_ON : VC4_EMU_JIT_OFF, .jit_threshold = 100,
                                .jit_dir = getenv("BENCH_JIT_DIR"), .profile = getenv("BENCH_FFT_PROFILE") != NULL,
                                .sink = {.fn = count_diag, .user = res}};
    struct vc4_emu *e = vc4_emu_create(&o);
    struct vc4_asm_options ao = {.base_addr = CODE};
    struct vc4_asm *as = vc4_asm_create(&ao);
    if (!e || !as || vc4_asm_define(as, "BIG", n - 64 > 0xFFFF) != VC4_OK ||
        vc4_asm_file(as, VC4KIT_BENCH_DIR "/fft4.qasm") != VC4_OK) {
        fprintf(stderr, "bench_fft: setup failed\n");
        exit(1);
    }
    size_t len = 0;
    const uint8_t *code = vc4_asm_output(as, &len);
    vc4_emu_mem_write(e, CODE, code, len);

    /* input: a few tones and a ramp, and the host's transform of it */
    double *hr = malloc(n * sizeof *hr), *hi = malloc(n * sizeof *hi);
    uint8_t *buf = malloc((size_t)n * 8);
    for (unsigned i = 0; i < n; i++) {
        hr[i] = (double)(float)(cos(2 * M_PI * 3 * i / n) + 0.5 * sin(2 * M_PI * 17 * i / n) + (double)(i % 7) / 7);
        hi[i] = (double)(float)(0.25 * cos(2 * M_PI * 5 * i / n) - (double)(i % 3) / 5);
        st32(buf + 4 * i, f2u((float)hr[i]));
        st32(buf + 4 * (n + i), f2u((float)hi[i]));
    }
    uint32_t bufs[2] = {BUF0, BUF0 + n * 8};
    uint8_t *in = malloc((size_t)n * 8);
    memcpy(in, buf, (size_t)n * 8);
    host_fft(hr, hi, n);

    /* twiddle tables, one per pass (Ns = N/4 ... 1) */
    uint32_t tw = TWID, tw_at[16];
    for (unsigned p = 0; p < passes; p++) {
        unsigned ns = n >> (2 * (p + 1));
        tw_at[p] = tw;
        for (unsigned t = 1; t <= 3; t++)
            for (unsigned k = 0; k < ns; k++) {
                double a = -2 * M_PI * t * k / (4.0 * ns);
                st32(buf + 4 * ((t - 1) * ns + k), f2u((float)cos(a)));
                st32(buf + 4 * ((t + 2) * ns + k), f2u((float)sin(a)));
            }
        vc4_emu_mem_write(e, tw, buf, (size_t)ns * 24);
        tw += ns * 24;
    }

    /* uniforms, and the programs queued */
    unsigned groups = n / 64;
    for (unsigned q = 0; q < QPUS; q++) {
        uint32_t u[5 + 8 * 16], nu = 0;
        u[nu++] = passes;
        u[nu++] = 8 * (q % 8); /* VPM rows: the generic window is 64 rows (the mutex guards sharing) */
        u[nu++] = q == 0;
        u[nu++] = QPUS - 1;
        u[nu++] = n * 4;
        for (unsigned p = 0; p < passes; p++) {
            unsigned ns = n >> (2 * (p + 1));
            u[nu++] = bufs[p % 2];
            u[nu++] = bufs[(p + 1) % 2];
            u[nu++] = ns - 1;
            u[nu++] = ns * 4;
            u[nu++] = tw_at[p];
            u[nu++] = q < groups ? (groups - q + QPUS - 1) / QPUS : 0;
            u[nu++] = 16 * q;
            u[nu++] = 0xC0000000u | ((n - 64) & 0xFFFFu); /* VDW stride setup (ID 11): rows N bytes apart */
        }
        for (unsigned i = 0; i < nu; i++)
            st32(buf + 4 * i, u[i]);
        vc4_emu_mem_write(e, UNIFS + 0x1000 * q, buf, 4 * nu);
    }

    /* repeats: the input written again (passes overwrite it) and the
     * programs queued again; only vc4_emu_run is timed */
    /* (about 0.2 s of timed transforms each, so that the figures, the
     * compiled blocks' above all, do not hang on a few milliseconds) */
    res->repeats = log2n <= 8 ? 4000 : log2n <= 12 ? 400 : log2n <= 16 ? 20 : 1;
    /* (BENCH_FFT_REPS: more, for profiling or a steadier figure on a noisy machine) */
    const char *reps = getenv("BENCH_FFT_REPS");
    if (reps && strtoul(reps, NULL, 0) > 0)
        res->repeats = (unsigned)strtoul(reps, NULL, 0);
    /* (one untimed transform first: the JIT compiles or loads its blocks
     * then, a one-time cost printed apart; the instruction cache fills) */
    struct vc4_emu_stats s0 = {0};
    struct vc4_emu_jit_stats js0 = {0};
    struct vc4_emu_host_stats h0 = {0};
    for (unsigned rep = 0; rep <= res->repeats; rep++) {
        if (rep == 1) { /* (the counts of the timed transforms only) */
            vc4_emu_stats(e, &s0);
            vc4_emu_jit_stats(e, &js0);
            vc4_emu_host_stats(e, &h0);
        }
        vc4_emu_mem_write(e, bufs[0], in, (size_t)n * 8);
        for (unsigned q = 0; q < QPUS; q++) {
            vc4_emu_reg_write(e, VC4_V3D_SRQUA, UNIFS + 0x1000 * q);
            vc4_emu_reg_write(e, VC4_V3D_SRQPC, CODE);
        }
        double t0 = cpu_now();
        res->st = vc4_emu_run(e, 0);
        if (rep > 0)
            res->seconds += cpu_now() - t0;
        if (res->st != VC4_OK)
            break;
    }
    struct vc4_emu_stats s;
    vc4_emu_stats(e, &s);
    res->instructions = s.instructions - s0.instructions;
    res->cycles = s.cycles - s0.cycles;
    struct vc4_emu_jit_stats js;
    vc4_emu_jit_stats(e, &js);
    res->jit_instructions = js.instructions - js0.instructions;
    res->jit_io = js.io - js0.io;
    res->jit_blocks = js.compiled;
    res->compile_seconds = js.compile_seconds;
    struct vc4_emu_host_stats h;
    vc4_emu_host_stats(e, &h);
    res->alone = h.alone_instructions - h0.alone_instructions;
    res->lockstep = h.lockstep_instructions - h0.lockstep_instructions;

    /* against the host */
    vc4_emu_mem_read(e, bufs[passes % 2], buf, (size_t)n * 8);
    double err = 0, ref = 0;
    for (unsigned i = 0; i < n; i++) {
        uint32_t r = (uint32_t)buf[4 * i] | (uint32_t)buf[4 * i + 1] << 8 | (uint32_t)buf[4 * i + 2] << 16 |
                     (uint32_t)buf[4 * i + 3] << 24;
        uint32_t m = (uint32_t)buf[4 * (n + i)] | (uint32_t)buf[4 * (n + i) + 1] << 8 |
                     (uint32_t)buf[4 * (n + i) + 2] << 16 | (uint32_t)buf[4 * (n + i) + 3] << 24;
        double dr = (double)u2f(r) - hr[i], di = (double)u2f(m) - hi[i];
        err += dr * dr + di * di;
        ref += hr[i] * hr[i] + hi[i] * hi[i];
    }
    res->rel_rms = sqrt(err / (ref > 0 ? ref : 1));
    if (o.profile) { /* (all transforms, the untimed one too) */
        size_t need = 0;
        vc4_emu_profile_report(e, 25, "  ", NULL, 0, &need);
        char *text = malloc(need + 1);
        if (text && vc4_emu_profile_report(e, 25, "  ", text, need + 1, NULL) == VC4_OK)
            fputs(text, stderr);
        free(text);
    }
    free(hr);
    free(hi);
    free(buf);
    free(in);
    vc4_asm_destroy(as);
    vc4_emu_destroy(e);
}

static void print(unsigned log2n, const char *how, const struct fft_result *r, double pi_ms)
{
    double ms = r->seconds * 1e3 / r->repeats;
    printf("2^%-2u points, %-15s %9llu instr, %9llu cycles, %6.1f M instr/s, %9.3f ms per transform", log2n, how,
           (unsigned long long)(r->instructions / r->repeats), (unsigned long long)(r->cycles / r->repeats),
           (double)r->instructions / r->seconds * 1e-6, ms);
    if (pi_ms > 0)
        printf(" (Pi 1: %.3f ms, %.2fx %s)", pi_ms, ms > pi_ms ? ms / pi_ms : pi_ms / ms,
               ms > pi_ms ? "slower" : "faster");
    else
        printf(" (Pi 1: not published)");
    printf(", %u runs, rel. RMS error %.1e [%s, %u warnings or errors", r->repeats, r->rel_rms,
           vc4_status_name(r->st), r->warnings);
    if (r->notes)
        printf(", %u notes", r->notes);
    printf("]\n");
    /* (how the engine ran them: the lock-stepped ones cost the most each) */
    double all = r->instructions ? (double)r->instructions : 1;
    printf("           instructions run alone %.1f%%, lock-stepped beside other QPUs %.1f%%, side by side "
           "%.1f%%\n",
           100.0 * (double)r->alone / all, 100.0 * (double)r->lockstep / all,
           100.0 * (double)(r->instructions - r->alone - r->lockstep) / all);
}

int main(int argc, char **argv)
{
    unsigned maxlog = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 20;
    static const struct {
        unsigned log2n;
        double pi_ms; /* gpu_fft.txt, Pi 1 */
    } sizes[] = {{8, 0.033}, {12, 0.25}, {16, 0}, {20, 194}};
    if (maxlog % 2) { /* an odd argument: that size less one alone (any power of 4 from 2^6) */
        struct fft_result r;
        bool jit = getenv("BENCH_FFT_JIT") != NULL; /* (for callgrind: BENCH_FFT_JIT=1 with the JIT) */
        double pi_ms = 0;
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            if (sizes[i].log2n == maxlog - 1)
                pi_ms = sizes[i].pi_ms;
        run_fft(maxlog - 1, false, jit, &r);
        print(maxlog - 1, jit ? "sleeping, jit:" : "sleeping:", &r, pi_ms);
        return 0;
    }
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        if (sizes[i].log2n > maxlog)
            break;
        struct fft_result r;
        run_fft(sizes[i].log2n, false, false, &r);
        print(sizes[i].log2n, "sleeping:", &r, sizes[i].pi_ms);
        if (sizes[i].log2n == 12) {
            struct fft_result c;
            run_fft(12, true, false, &c);
            print(12, "cycle by cycle:", &c, sizes[i].pi_ms);
            printf("           sleeping QPUs / cycle by cycle: %.2fx faster, %s\n", c.seconds / r.seconds,
                   c.instructions == r.instructions && c.cycles == r.cycles && c.rel_rms == r.rel_rms
                       ? "same counts and results"
                       : "counts or results DIFFER");
            struct fft_result jr;
            run_fft(12, false, true, &jr);
            print(12, "sleeping, jit:", &jr, sizes[i].pi_ms);
            printf("           jit / interpreter: %.2fx faster, %.1f%% of instructions compiled (%.1f%% TMU and VPM "
                   "accesses; %llu blocks, compiler %.2f s wall), %s\n",
                   r.seconds / jr.seconds, 100.0 * (double)jr.jit_instructions / (double)jr.instructions,
                   100.0 * (double)jr.jit_io / (double)jr.instructions,
                   (unsigned long long)jr.jit_blocks, jr.compile_seconds,
                   jr.instructions == r.instructions && jr.cycles == r.cycles && jr.rel_rms == r.rel_rms
                       ? "same counts and results"
                       : "counts or results DIFFER");
        }
    }
    return 0;
}
