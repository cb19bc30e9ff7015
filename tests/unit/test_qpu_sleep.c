/* test_qpu_sleep.c - several QPUs with waiting ones asleep (qpu.c
 * run_cycles_sleeping: stalled QPUs skipped until their data is there,
 * QPUs blocked on a semaphore or the mutex until one changes, all-waiting
 * stretches skipped at once, a lone awake QPU on the fast path) against
 * the reference that steps every busy QPU every cycle
 * (vc4_emu_options.cycle_by_cycle).  Random programs on 2 to 12 QPUs mix
 * ALU work, TMU reads, VPM writes with VDW stores, VDR loads read back,
 * the mutex (sometimes held to the end), semaphores (sometimes never
 * released: a deadlock the budget ends), VPM busy/wait reads, and stores
 * over the code another group of QPUs runs (whose words share instruction
 * cache slots with this group's: refills while QPUs sleep); each runs with
 * a first budget that stops it anywhere and is then resumed.  Every QPU's
 * registers, flags, PC, state and counts, the memory, the semaphores, the
 * statistics (cycles, stalls, idle, decodes, VPM and per-kind counters) and
 * the diagnostics must be identical; with the profiler on too (prof.h),
 * and its samples the same sleeping, stepped and compiled. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <time.h>

#include "harness.h"
#include "emu/par.h"
#include "emu/v3d.h"
#include "vc4kit/emu.h"
#include "vc4kit/qpu.h"

#define CODE_A 0x1000u
#define CODE_B (CODE_A + 8u * VC4_ICACHE_ENTRIES) /* the same cache slots as CODE_A */
#define UNIFS 0x30000u
#define DATA 0x40000u
#define MEM (1u << 20)

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}
static unsigned pick(unsigned n) { return rnd() % n; }

struct text {
    char s[16384];
    size_t n;
};
static void put(struct text *t, const char *fmt, ...) VC4_PRINTF(2, 3);
static void put(struct text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->s + t->n, sizeof t->s - t->n, fmt, ap);
    va_end(ap);
    if (k > 0 && (size_t)k < sizeof t->s - t->n)
        t->n += (size_t)k;
}

/* Every program's start: uniforms, setups for VPM row Y, the loop label. */
#define PROLOGUE                                                                              \
    ".include \"vc4.qinc\"\n"                                                                  \
    "mov ra0, unif\nmov ra2, unif\nmov ra3, unif\nmov ra4, unif\nmov ra5, unif\n"                \
    "mov r1, elem_num\nshl r1, r1, 2\n"                                                         \
    "ldi r2, vpm_setup(1, 1, h32(0))\nadd rb0, r2, ra4\n"                                       \
    "ldi r2, vdw_setup_0(1, 16, dma_h32(0, 0))\nshl r3, ra4, 7\nadd rb1, r2, r3\n"               \
    "ldi r2, vdr_setup_0(0, 16, 1, vdr_h32(1, 0, 0))\nshl r3, ra4, 4\nadd rb2, r2, r3\n"         \
    "ldi r2, vpm_setup(1, 1, h32(0))\nadd rb3, r2, ra4\n"                                       \
    "mov r2, 1.0\nmov r3, qpu_num\n"                                                           \
    ":loop\n"

/* A random program.  Uniforms: TMU source, DMA address, loop count, VPM
 * row Y, the other group's code address.  r1 = element * 4. */
/* (alu_heavy: mostly long ALU stretches, so that every awake QPU is often
 * in compiled code and they run free, qpu.c run_free) */
static bool alu_heavy;
static void rnd_program(struct text *t, bool stores_code)
{
    t->n = 0;
    put(t, "%s", PROLOGUE);
    unsigned blocks = 3 + pick(14);
    bool held = false;
    for (unsigned b = 0; b < blocks; b++) {
        unsigned kind = alu_heavy && pick(4) ? 0 : pick(13);
        if (kind == 11 && !stores_code)
            kind = 12;
        switch (kind) {
        case 0: case 1: /* ALU work: runs long enough for QPUs to run on their own (qpu.c window) */
            for (unsigned i = 1 + pick(alu_heavy ? 40 : 14); i; i--) {
                static const char *const alu[] = {"fadd r2, r2, r3", "fmul r3, r2, r2", "add r3, r3, r1",
                                                  "itof r0, r3", "fsub.setf r0, r0, r2", "mul24 r3, r3, 3",
                                                  "add.ifz r2, r2, r0", "mov rb5, r2", "v8adds r0, r2, r3"};
                put(t, "%s\n", alu[pick(sizeof alu / sizeof alu[0])]);
            }
            break;
        case 2: /* TMU read */
            put(t, "add t0s, ra0, r1\n");
            if (pick(2))
                put(t, "nop\nfadd r2, r2, r3\n");
            put(t, "nop; nop; ldtmu0\nfadd r2, r2, r4\n");
            break;
        case 3: /* VPM write and a VDW store (waited for, or not) */
            put(t, "mov vw_setup, rb0\nmov vpm, r2\nmov vw_setup, rb1\nmov vw_addr, ra2\n");
            if (pick(3))
                put(t, "mov -, vw_wait\n");
            break;
        case 4: /* VDR load, read back */
            put(t, "mov vr_setup, rb2\nmov vr_addr, ra2\n%smov vr_setup, rb3\nmov r0, vpm\n",
                pick(3) ? "mov -, vr_wait\n" : "");
            break;
        case 5: /* the mutex */
            if (!held)
                put(t, "mov -, mutex\n");
            else
                put(t, "mov mutex, 0\n");
            held = !held;
            break;
        case 6: case 7: /* semaphores: releases more often than acquires */
            put(t, "%s -, %u\n", pick(3) ? "srel" : "sacq", pick(3));
            break;
        case 8: /* busy reads */
            put(t, "mov r0, %s\nadd r2, r2, r0\n", pick(2) ? "vw_busy" : "vr_busy");
            break;
        case 9: /* the mutex around DMA, GPU_FFT's pattern */
            put(t, "%smov vw_setup, rb0\nmov vpm, r3\nmov vw_setup, rb1\nmov vw_addr, ra2\nmov -, vw_wait\n%s",
                held ? "" : "mov -, mutex\n", held ? "" : "mov mutex, 0\n");
            break;
        case 12: /* a branch over ALU work to shared I/O, which the taken branch reaches sooner */
            put(t, "mov.setf -, r2\nbrr.%s -, r:skip%u\nfadd r3, r3, r2\nadd r3, r3, r1\nfmul r2, r2, r3\n"
                   "fadd r3, r3, r2\nadd r3, r3, r1\n%s:skip%u\n%s", pick(2) ? "anyn" : "alln", b,
                pick(2) ? "fmul r2, r2, r3\nfadd r3, r3, r2\n" : "", b,
                pick(2) ? "srel -, 0\n" : pick(2) ? "add t0s, ra0, r1\nnop; nop; ldtmu0\n"
                                                   : "mov -, mutex\nmov vw_setup, rb0\nmov vpm, r2\nmov mutex, 0\n");
            break;
        case 10: /* an SFU result */
            put(t, "mov recip, r2\nnop\nnop\nfadd r2, r2, r4\n");
            break;
        default: /* a store over the other group's code: its QPUs decode again */
            put(t, "mov vw_setup, rb0\nmov vpm, r3\nmov vw_setup, rb1\nldi r0, %u\nadd vw_addr, ra5, r0\nmov -, vw_wait\n",
                8 * pick(16));
            break;
        }
    }
    if (held && pick(2))
        put(t, "mov mutex, 0\n");
    put(t, "sub.setf ra3, ra3, 1\nbrr.anynz -, r:loop\nnop\nnop\nnop\n"
           "nop; thrend\nnop\nnop\n");
}

struct outcome {
    enum vc4_status st[2];
    struct vc4_qpu q[VC4_V3D_MAX_QPUS];
    struct vc4_emu_stats stats;
    struct vc4_emu_render_stats rs;
    struct vc4_emu_vpm_stats vs;
    struct vc4_sema sema;
    uint64_t sched_cycle;
    uint8_t mem[0x20000];
    struct harness_diags d;
    struct vc4_emu_jit_stats jit; /* (not compared) */
    struct vc4_emu_host_stats host; /* (not compared: how the engine ran them) */
    uint64_t helper_first;        /* (not compared) jit.helper after the first run */
    uint64_t taken_back;   /* free runs of QPUs taken back (qpu.c run_free) */
    /* with the profiler on (run_with's `profiled`): its samples (compared by same_profile) */
    struct vc4_emu_profile_entry prof[4096];
    size_t nprof;
    struct vc4_emu_profile_totals prof_totals;
};

static bool assemble(const struct text *t, uint32_t base, uint8_t *out, size_t *n)
{
    static struct harness_diags d;
    d.len = 0;
    struct vc4_asm_options ao = {.base_addr = base, .sink = harness_sink(&d)};
    struct vc4_asm *as = vc4_asm_create(&ao);
    bool ok = as && vc4_asm_source(as, "sleep", t->s, t->n) == VC4_OK;
    size_t len = 0;
    const uint8_t *code = ok ? vc4_asm_output(as, &len) : NULL;
    if (ok && len <= 0x4000) {
        memcpy(out, code, len);
        *n = len;
    } else {
        ok = false;
    }
    if (!ok)
        fprintf(stderr, "%.*s", (int)d.len, d.text);
    vc4_asm_destroy(as);
    return ok;
}

struct setup {
    uint8_t code[2][0x4000];
    size_t len[2];
    unsigned qpus, programs, iters[16];
    uint64_t budget;
    bool one_code; /* every program runs CODE_A (no cache slots shared with CODE_B) */
    bool custom;   /* program p runs code[code_of[p]] with uniforms unif[p] */
    uint8_t code_of[16];
    uint32_t unif[16][5];
};

/* Two random programs (rnd_program), assembled into s's two code areas. */
static void rnd_codes(struct setup *s, struct text *t)
{
    bool ok_asm = true;
    for (int g = 0; g < 2; g++) {
        rnd_program(t, pick(6) == 0);
        ok_asm &= assemble(t, g ? CODE_B : CODE_A, s->code[g], &s->len[g]);
    }
    CHECK(ok_asm);
}

/* host threads for the compiled runs (vc4_emu_options.host_threads; 0: the build's default) */
static unsigned host_threads;
/* a pause between the two runs (test_helper_wakes) */
static unsigned pause_ms;
/* the profiler on (vc4_emu_options.profile) */
static bool profiled;

static void sleep_ms(unsigned ms)
{
    nanosleep(&(struct timespec){.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000}, NULL);
}

/* jit: with compiled blocks (src/emu/jit.c), each compiled the first time
 * its head is reached; they run on several QPUs at once (qpu.c run_blocks). */
static void run_with(const struct setup *s, bool cycle_by_cycle, bool jit, struct outcome *o)
{
    memset(o, 0, sizeof *o);
    struct vc4_emu_options opt = {.mem_size = MEM, .num_qpus = s->qpus, .sink = harness_sink(&o->d),
                                  .cycle_by_cycle = cycle_by_cycle,
                                  .jit = jit ? VC4_EMU_JIT_ON : VC4_EMU_JIT_OFF, .jit_threshold = 1,
                                  .jit_dir = "jit-cache", .host_threads = jit ? host_threads : 0,
                                  .profile = profiled};
    struct vc4_emu *e = vc4_emu_create(&opt);
    if (!e)
        return;
    e->v3d.par_min = 1; /* (with two threads: every free run split, however short) */
    /* (the helper awake through any gap between free runs, however slow
     * the build or busy the host, so that every one of them goes to it; for
     * test_helper_wakes, asleep during its pause) */
    if (e->v3d.par)
        vc4_par_set_idle(e->v3d.par, pause_ms ? 1000 * pause_ms / 4 : 1000000);
    vc4_emu_mem_write(e, CODE_A, s->code[0], s->len[0]);
    vc4_emu_mem_write(e, CODE_B, s->code[1], s->len[1]);
    for (uint32_t i = 0; i < 0x4000; i += 4) { /* TMU source data: small floats */
        uint32_t f = 0x3F800000u + (i << 10);
        vc4_emu_mem_write(e, DATA + i, &f, 4);
    }
    for (unsigned p = 0; p < s->programs; p++) {
        bool b = s->custom ? s->code_of[p] == 1 : p % 3 == 2 && !s->one_code;
        uint32_t u[5] = {DATA + 64 * (p % 5), DATA + 0x8000 + 64 * p, s->iters[p], p % 8,
                         b ? CODE_A : CODE_B};
        if (s->custom)
            memcpy(u, s->unif[p], sizeof u);
        vc4_emu_mem_write(e, UNIFS + 32 * p, u, sizeof u);
        vc4_emu_reg_write(e, VC4_V3D_SRQUA, UNIFS + 32 * p);
        vc4_emu_reg_write(e, VC4_V3D_SRQPC, b ? CODE_B : CODE_A);
    }
    if (pause_ms) {
        /* (test_helper_wakes: the first budget in four slices 1 ms apart,
         * so that the helper gets the other core even on a busy host) */
        for (unsigned i = 0; i < 4; i++) {
            o->st[0] = vc4_emu_run(e, s->budget / 4);
            sleep_ms(1);
        }
    } else {
        o->st[0] = vc4_emu_run(e, s->budget);
    }
    struct vc4_emu_jit_stats js0;
    vc4_emu_jit_stats(e, &js0);
    o->helper_first = js0.helper;
    if (pause_ms) {
        /* the pause, then the rest in slices of 500 cycles 1 ms apart (a
         * woken helper gets the other core in time, even on a busy host) */
        sleep_ms(pause_ms);
        unsigned slices = 0;
        do {
            o->st[1] = vc4_emu_run(e, 500);
            sleep_ms(1);
        } while (o->st[1] == VC4_ERR_TIMEOUT && ++slices < 10000);
    } else {
        o->st[1] = vc4_emu_run(e, 1000000);
    }
    struct vc4_v3d *v = &e->v3d;
    memcpy(o->q, v->qpu, sizeof o->q);
    for (unsigned i = 0; i < VC4_V3D_MAX_QPUS; i++)
        o->q[i].port = NULL; /* (the same in both; not compared as bytes) */
    vc4_emu_stats(e, &o->stats);
    vc4_emu_render_stats(e, &o->rs);
    vc4_emu_vpm_stats(e, &o->vs);
    o->sema = v->sema;
    o->sema.sema_gen = o->sema.mutex_gen = 0; /* (bookkeeping for the sleepers, not machine state) */
    o->sched_cycle = v->sched.cycle;
    struct vc4_emu_jit_stats js;
    vc4_emu_jit_stats(e, &js);
    o->jit = js;
    vc4_emu_host_stats(e, &o->host);
    o->taken_back = v->free_taken_back;
    o->nprof = vc4_emu_profile(e, o->prof, sizeof o->prof / sizeof o->prof[0], &o->prof_totals);

    vc4_emu_mem_read(e, CODE_A, o->mem, 0x4000);
    vc4_emu_mem_read(e, CODE_B, o->mem + 0x4000, 0x4000);
    vc4_emu_mem_read(e, DATA + 0x8000, o->mem + 0x8000, 0x18000);
    vc4_emu_destroy(e);
}

static void run(const struct setup *s, bool cycle_by_cycle, struct outcome *o)
{
    run_with(s, cycle_by_cycle, false, o);
}

/* The QPU state compared field by field (the struct has padding). */
static bool same_qpu(const struct vc4_qpu *a, const struct vc4_qpu *b)
{
    return a->pc == b->pc && a->state == b->state && a->time == b->time && a->stall_until == b->stall_until &&
           a->instructions == b->instructions && a->unif == b->unif && a->pending == b->pending &&
           a->br1_left == b->br1_left && a->prev_w == b->prev_w && a->prev_acc == b->prev_acc &&
           memcmp(a->flag, b->flag, sizeof a->flag) == 0 && memcmp(a->br_target, b->br_target, sizeof a->br_target) == 0 &&
           (a->blocked_on == b->blocked_on || (a->blocked_on && b->blocked_on && !strcmp(a->blocked_on, b->blocked_on))) &&
           memcmp(a->acc, b->acc, sizeof a->acc) == 0 && memcmp(a->ra, b->ra, sizeof a->ra) == 0 &&
           memcmp(a->rb, b->rb, sizeof a->rb) == 0 && memcmp(a->sfu_result, b->sfu_result, sizeof a->sfu_result) == 0 &&
           memcmp(a->last_mul, b->last_mul, sizeof a->last_mul) == 0 && memcmp(a->rf_nop, b->rf_nop, sizeof a->rf_nop) == 0;
}

static bool same(const struct outcome *a, const struct outcome *b, unsigned seed)
{
    bool qs = true;
    for (unsigned i = 0; i < VC4_V3D_MAX_QPUS; i++)
        if (!same_qpu(&a->q[i], &b->q[i])) {
            fprintf(stderr, "program set %u: QPU %u differs (pc %08x/%08x, time %llu/%llu, %llu/%llu instr)\n",
                    seed, i, a->q[i].pc, b->q[i].pc, (unsigned long long)a->q[i].time,
                    (unsigned long long)b->q[i].time, (unsigned long long)a->q[i].instructions,
                    (unsigned long long)b->q[i].instructions);
            qs = false;
        }
    bool st = a->st[0] == b->st[0] && a->st[1] == b->st[1];
    bool stats = memcmp(&a->stats, &b->stats, sizeof a->stats) == 0 && memcmp(&a->rs, &b->rs, sizeof a->rs) == 0 &&
                 memcmp(&a->vs, &b->vs, sizeof a->vs) == 0 && a->sched_cycle == b->sched_cycle;
    bool sema = memcmp(a->sema.count, b->sema.count, sizeof a->sema.count) == 0 &&
                a->sema.mutex_owner == b->sema.mutex_owner;
    bool mem = memcmp(a->mem, b->mem, sizeof a->mem) == 0;
    bool diag = a->d.len == b->d.len && memcmp(a->d.text, b->d.text, a->d.len) == 0;
    if (!(qs && st && stats && sema && mem && diag))
        fprintf(stderr,
                "program set %u: sleeping and cycle-by-cycle differ: status %d,%d / %d,%d; stats %s (cycles %llu/%llu, "
                "stalls %llu/%llu, decodes %llu/%llu); semaphores %s; memory %s; diagnostics %s\n%.*s\n  /\n%.*s\n",
                seed, (int)a->st[0], (int)a->st[1], (int)b->st[0], (int)b->st[1], stats ? "same" : "DIFFER",
                (unsigned long long)a->stats.cycles, (unsigned long long)b->stats.cycles,
                (unsigned long long)a->stats.stall_cycles, (unsigned long long)b->stats.stall_cycles,
                (unsigned long long)a->stats.decodes, (unsigned long long)b->stats.decodes, sema ? "same" : "DIFFER",
                mem ? "same" : "DIFFER", diag ? "same" : "DIFFER", (int)a->d.len, a->d.text, (int)b->d.len,
                b->d.text);
    return qs && st && stats && sema && mem && diag;
}

/* The instructions by the way they ran (vc4_emu_host_stats) add up to
 * all of them. */
static bool ways_add_up(const struct outcome *o)
{
    return o->host.alone_instructions + o->host.side_by_side_instructions + o->host.lockstep_instructions ==
           o->stats.instructions;
}

/* Two runs' profiles: the same samples at the same instructions. */
static bool same_profile(const struct outcome *a, const struct outcome *b, unsigned seed)
{
    bool eq = a->nprof == b->nprof && a->nprof <= sizeof a->prof / sizeof a->prof[0] &&
              memcmp(&a->prof_totals, &b->prof_totals, sizeof a->prof_totals) == 0;
    for (size_t i = 0; eq && i < a->nprof && i < sizeof a->prof / sizeof a->prof[0]; i++)
        eq = a->prof[i].pc == b->prof[i].pc && a->prof[i].word == b->prof[i].word &&
             a->prof[i].issuing == b->prof[i].issuing && a->prof[i].stalled == b->prof[i].stalled &&
             a->prof[i].blocked == b->prof[i].blocked;
    if (!eq)
        fprintf(stderr, "program set %u: the profiles differ: %zu / %zu instructions, %llu / %llu samples\n", seed,
                a->nprof, b->nprof, (unsigned long long)a->prof_totals.samples,
                (unsigned long long)b->prof_totals.samples);
    return eq;
}

/* Random program sets: identical outcomes; between them the runs end,
 * time out, deadlock and fault, and QPUs do sleep. */
static void test_sleep_matches_cycle_by_cycle(void)
{
    static struct setup s;
    static struct outcome sleeping, stepped;
    static struct text t;
    unsigned differ = 0, ok = 0, timeouts = 0, faults = 0, skipped = 0, jit_differ = 0;
    uint64_t jit_instructions = 0, prof_samples = 0, free_runs = 0, taken_back = 0;
    unsigned prof_differ = 0, ways_wrong = 0;
    uint64_t alone = 0, lockstep = 0, stepped_alone = 0, stepped_side = 0;
    static struct outcome compiled, prof_sleeping, prof_stepped, prof_compiled;
    for (unsigned seed = 0; seed < 160; seed++) {
        rnd_codes(&s, &t);
        s.qpus = 2 + pick(11);
        s.programs = 1 + pick(16);
        for (unsigned p = 0; p < 16; p++)
            s.iters[p] = 1 + pick(6);
        s.budget = pick(4) ? 1 + pick(3000) : 200000;
        run(&s, false, &sleeping);
        run(&s, true, &stepped);
        if (!same(&sleeping, &stepped, seed))
            differ++;
        /* how they ran: every instruction one way or another; the
         * reference never runs compiled, never leaves a QPU alone while
         * another is busy (it steps one QPU alone only when no other runs) */
        ways_wrong += !ways_add_up(&sleeping) + !ways_add_up(&stepped);
        alone += sleeping.host.alone_instructions;
        lockstep += sleeping.host.lockstep_instructions;
        stepped_side += stepped.host.side_by_side_instructions;
        if (s.programs > 1 && s.qpus > 1 && stepped.stats.programs_completed == 0 && stepped.st[0] != VC4_ERR_FAULT &&
            stepped.st[1] != VC4_ERR_FAULT)
            stepped_alone += stepped.host.alone_instructions; /* (all busy from the start to the end) */
        if (seed % 4 == 0) { /* (every fourth: each block is a compiler run; every eighth on two host threads) */
            host_threads = seed % 8 == 0 ? 2 : 1;
            run_with(&s, false, true, &compiled);
            host_threads = 0;
            jit_differ += !same(&compiled, &stepped, 1000 + seed);
            ways_wrong += !ways_add_up(&compiled);
            jit_instructions += compiled.jit.instructions;
            free_runs += compiled.jit.free_runs;
            taken_back += compiled.taken_back;
        }
        if (seed % 4 == 1) {
            /* the profiler (prof.h): the QPUs do the same with it, and its
             * samples are the same sleeping, stepped and compiled (on two
             * host threads every other time) */
            profiled = true;
            run(&s, false, &prof_sleeping);
            run(&s, true, &prof_stepped);
            host_threads = seed % 8 == 1 ? 2 : 1;
            run_with(&s, false, true, &prof_compiled);
            host_threads = 0;
            profiled = false;
            prof_differ += !same(&prof_sleeping, &stepped, 2000 + seed) || !same(&prof_stepped, &stepped, 3000 + seed) ||
                           !same(&prof_compiled, &stepped, 4000 + seed);
            prof_differ += !same_profile(&prof_sleeping, &prof_stepped, seed) ||
                           !same_profile(&prof_compiled, &prof_stepped, seed);
            uint64_t sum = 0;
            for (size_t i = 0; i < prof_stepped.nprof; i++)
                sum += prof_stepped.prof[i].issuing + prof_stepped.prof[i].stalled + prof_stepped.prof[i].blocked;
            CHECK_EQ_U64(sum + prof_stepped.prof_totals.dropped, prof_stepped.prof_totals.samples);
            prof_samples += prof_stepped.prof_totals.samples;
            CHECK_EQ_U64(sleeping.nprof, 0); /* (off: nothing) */
        }
        ok += sleeping.st[1] == VC4_OK;
        timeouts += sleeping.st[0] == VC4_ERR_TIMEOUT;
        faults += sleeping.st[0] == VC4_ERR_FAULT || sleeping.st[1] == VC4_ERR_FAULT;
        skipped += sleeping.stats.stall_cycles > 0;
    }
    printf("%u sets: %u ran to their end, %u stopped at the first budget, %u faulted, %u waited\n", 160u, ok,
           timeouts, faults, skipped);
    CHECK_EQ_INT(differ, 0);
    printf("with compiled blocks: %llu instructions ran compiled, %llu free runs, %llu runs of a QPU taken back\n",
           (unsigned long long)jit_instructions, (unsigned long long)free_runs, (unsigned long long)taken_back);
    CHECK_EQ_INT(jit_differ, 0);
    CHECK(jit_instructions > 100);
    printf("with the profiler: %llu samples, the same every way\n", (unsigned long long)prof_samples);
    CHECK_EQ_INT(prof_differ, 0);
    CHECK(prof_samples > 1000);
    printf("sleeping: %llu instructions ran alone, %llu lock-stepped\n", (unsigned long long)alone,
           (unsigned long long)lockstep);
    CHECK_EQ_INT(ways_wrong, 0);
    CHECK(alone > 0 && lockstep > 0);
    CHECK_EQ_U64(stepped_side, 0);
    CHECK_EQ_U64(stepped_alone, 0);
    CHECK(ok > 20);        /* many sets run to their end ... */
    CHECK(timeouts > 20);  /* ... some stop at the first budget, and resume */
    CHECK(skipped > 100);  /* and QPUs waited */
    (void)faults;
}

/* Twelve QPUs queueing for the mutex around VDW stores and VDR loads, with
 * TMU reads in between (GPU_FFT's pattern): identical, and the all-waiting
 * stretches are most of the cycles. */
static void test_contended_mutex_dma(void)
{
    static struct setup s;
    static struct outcome sleeping, stepped;
    static struct text t;
    t.n = 0;
    put(&t, "%s"
            "add t0s, ra0, r1\nnop; nop; ldtmu0\nfadd r2, r2, r4\nfmul r3, r2, r2\n"
            "mov -, mutex\n"
            "mov vw_setup, rb0\nmov vpm, r3\nmov vw_setup, rb1\nmov vw_addr, ra2\nmov -, vw_wait\n"
            "mov vr_setup, rb2\nmov vr_addr, ra2\nmov -, vr_wait\nmov vr_setup, rb3\nmov r2, vpm\n"
            "mov mutex, 0\n"
            "sub.setf ra3, ra3, 1\nbrr.anynz -, r:loop\nnop\nnop\nnop\n"
            "nop; thrend\nnop\nnop\n", PROLOGUE);
    CHECK(assemble(&t, CODE_A, s.code[0], &s.len[0]));
    CHECK(assemble(&t, CODE_B, s.code[1], &s.len[1]));
    s.qpus = 12;
    s.programs = 12;
    for (unsigned p = 0; p < 16; p++)
        s.iters[p] = 20 + p;
    unsigned differ = 0;
    for (uint64_t budget = 1; budget < 20000; budget = budget * 3 + 7) {
        s.budget = budget;
        run(&s, false, &sleeping);
        run(&s, true, &stepped);
        differ += !same(&sleeping, &stepped, (unsigned)budget);
    }
    CHECK_EQ_INT(differ, 0);
    CHECK(sleeping.st[1] == VC4_OK);
    CHECK_EQ_U64(sleeping.stats.programs_completed, 12);
    CHECK(sleeping.stats.stall_cycles > sleeping.stats.cycles * 6); /* over half the QPU cycles wait */
    CHECK(ways_add_up(&sleeping));
}

/*
 * GPU_FFT's hand-over (qpu.c run_epoch): the QPU that gets the mutex writes
 * VPM rows while the one that let it go starts its next TMU lookups; the
 * two run their spans one after the other.  Identical to the reference,
 * also where the fast path gives up inside an epoch: a QPU's fifth lookup
 * outstanding (a warning, from the TMU QPU, which runs first), a VPM row
 * written twice (the general path, while the TMU QPU is ahead), and, in
 * the last variant, program 5's lookups outside RAM in its third pass, in
 * the middle of a hand-over (an error: the run stops there with every QPU
 * at that cycle, the one writing VPM rows beside it too).  Budgets from 1
 * cycle on stop the runs everywhere, epochs included.  (Not covered: two
 * TMU QPUs of one slice in an epoch, which run_epoch never lets happen.)
 */
static void test_epochs_hand_over(void)
{
    static struct setup s;
    static struct outcome sleeping, stepped, compiled;
    static struct text t;
    unsigned differ = 0, variants = 0;
    uint64_t side = 0;
    for (unsigned variant = 0; variant < 3; variant++) {
        t.n = 0;
        put(&t, "%s"
                "add t0s, ra0, r1\nfadd r2, r2, r3\nadd r0, ra0, r1\nadd r0, r0, 8\nadd t0s, r0, 4\n"
                "fmul r3, r2, r2\n%s"
                "nop; nop; ldtmu0\nfadd r2, r2, r4\nnop; ldtmu0\nfadd r3, r3, r4\n%s"
                "mov -, mutex\n"
                "mov vw_setup, rb0\nmov vpm, r3\nfadd r3, r3, r2\nmov vw_setup, rb0\nmov vpm, r2\n"
                "fmul r0, r3, r3\nadd r0, r0, r1\n.rep i, 8\nfadd r3, r3, r0\n.endr\nmov vw_setup, rb1\nmov vw_addr, ra2\n"
                "mov -, vw_wait\n"
                "mov mutex, 0\n"
                "mov r0, ra5\nadd ra0, ra0, r0\n" /* (the next pass's lookups: ra5 on) */
                "sub.setf ra3, ra3, 1\nbrr.anynz -, r:loop\nnop\nnop\nnop\n"
                "nop; thrend\nnop\nnop\n",
            PROLOGUE,
            variant == 1 ? "add t0s, r0, 4\nadd t0s, r0, 8\nadd t0s, r0, 12\n" : "",
            variant == 1 ? "nop; ldtmu0\nnop; ldtmu0\nnop; ldtmu0\n" : "");
        CHECK(assemble(&t, CODE_A, s.code[0], &s.len[0]));
        s.custom = true;
        s.qpus = 12;
        s.programs = 12;
        for (unsigned p = 0; p < 12; p++) {
            s.code_of[p] = 0;
            /* (program 5 of the last variant: its third pass's lookups
             * past the end of RAM, MEM) */
            uint32_t u[5] = {DATA + 64 * (p % 5), DATA + 0x8000 + 64 * p, 6 + (p * 5) % 7, p % 8,
                             variant == 2 && p == 5 ? 0x60000u : 0};
            memcpy(s.unif[p], u, sizeof u);
        }
        for (uint64_t budget = 1; budget < 40000; budget = budget * 3 + 7) {
            s.budget = budget;
            run(&s, false, &sleeping);
            run(&s, true, &stepped);
            differ += !same(&sleeping, &stepped, 100 * variant + (unsigned)(budget % 100));
            side += sleeping.host.side_by_side_instructions;
            CHECK(ways_add_up(&sleeping));
        }
        run_with(&s, false, true, &compiled);
        differ += !same(&compiled, &stepped, 100 * variant + 99);
        variants += variant == 2 ? stepped.st[0] == VC4_ERR_FAULT : stepped.st[1] == VC4_OK;
    }
    printf("hand-overs: %llu instructions ran side by side (epochs)\n", (unsigned long long)side);
    CHECK_EQ_INT(differ, 0);
    CHECK_EQ_INT(variants, 3); /* two ran to their end, the third faulted */
#ifndef VC4KIT_CYCLE_BY_CYCLE
    CHECK(side > 1000);
#endif
}

/* Twelve QPUs, each running a loop of ALU work `iters` + its number times,
 * then a TMU read and the mutex around a VDW store. */
static void twelve_setup(struct setup *s, unsigned iters)
{
    static struct text t;
    t.n = 0;
    put(&t, "%s"
            "fadd r2, r2, r3\nfmul r3, r2, r2\nadd r0, r3, r1\nfsub.setf r0, r0, r2\nfadd.ifn r2, r2, r0\n"
            "mul24 r3, r3, 3\nv8adds r0, r2, r3\nitof r3, r3\nmov rb5, r2\nfmax r2, r2, r3\n"
            "mov r0, ra3\n"
            "fmul r3, r2, r2\nfadd r2, r2, r3\nadd r0, r3, r1\nfsub r3, r0, r2\nfmul r2, r2, r2\n"
            "sub.setf ra3, ra3, 1\nbrr.anynz -, r:loop\nnop\nnop\nnop\n"
            "add t0s, ra0, r1\nnop; nop; ldtmu0\nfadd r2, r2, r4\n"
            "mov -, mutex\nmov vw_setup, rb0\nmov vpm, r3\nmov vw_setup, rb1\nmov vw_addr, ra2\nmov -, vw_wait\n"
            "mov mutex, 0\n"
            "nop; thrend\nnop\nnop\n", PROLOGUE);
    CHECK(assemble(&t, CODE_A, s->code[0], &s->len[0]));
    CHECK(assemble(&t, CODE_B, s->code[1], &s->len[1]));
    s->qpus = 12;
    s->programs = 12;
    s->one_code = true;
    for (unsigned p = 0; p < 16; p++) /* (not in QPU order: a later QPU's loop may end first) */
        s->iters[p] = iters + (p * 7 + 5) % 12;
}

/* Free runs (qpu.c run_free) in random program sets that are mostly long
 * ALU stretches between the other kinds of work (TMU reads, DMA, the
 * mutex, semaphores, SFU results, stores over code), looped more times:
 * every awake QPU is often in compiled code, each runs on its own as far
 * as it can, and the ones that got further are taken back.  On one host
 * thread and on two (the helper running half of each free run), against
 * the cycle-by-cycle reference: identical outcomes. */
static void test_free_runs_random(void)
{
    static struct setup s;
    static struct outcome compiled, stepped;
    static struct text t;
    unsigned differ = 0;
    uint64_t free_runs = 0, taken_back = 0, helper = 0;
    alu_heavy = true;
    for (unsigned seed = 0; seed < 24; seed++) {
        rnd_codes(&s, &t);
        s.qpus = 2 + pick(11);
        s.programs = s.qpus + pick(4);
        for (unsigned p = 0; p < 16; p++)
            s.iters[p] = 2 + pick(12);
        s.budget = pick(3) ? 1 + pick(20000) : 400000;
        run(&s, true, &stepped);
        host_threads = seed % 2 ? 2 : 1;
        run_with(&s, false, true, &compiled);
        host_threads = 0;
        differ += !same(&compiled, &stepped, 5000 + seed);
        if (seed % 2 == 0) { /* (on one thread: the same on every host) */
            free_runs += compiled.jit.free_runs;
            taken_back += compiled.taken_back;
        }
        helper += compiled.jit.helper;
    }
    alu_heavy = false;
    CHECK_EQ_INT(differ, 0);
    /* (on two threads the counts depend on the host: a free run that finds
     * the helper not yet started or asleep stays on one thread, and a run
     * there stops at a block not yet marked verified) */
    printf("random ALU-heavy sets on one thread: %llu free runs, %llu runs of a QPU taken back; on two: %llu "
           "instructions on the helper\n",
           (unsigned long long)free_runs, (unsigned long long)taken_back, (unsigned long long)helper);
#ifndef VC4KIT_CYCLE_BY_CYCLE
    CHECK(free_runs > 18); /* (37 and 12 when written) */
    CHECK(taken_back > 6);
#endif
}

/* Twelve QPUs running ALU stretches in loops of different lengths, then a
 * TMU read and the mutex around a VDW store (the results, in memory),
 * with compiled blocks run on all of them at once (qpu.c run_free),
 * stopped by budgets anywhere: the reference's outcome, and most of the
 * ALU work ran compiled. */
static void test_blocks_on_twelve_qpus(void)
{
    static struct setup s;
    static struct outcome compiled, stepped;
    twelve_setup(&s, 10);
    unsigned differ = 0;
    uint64_t free_runs = 0, taken_back = 0;
    for (uint64_t budget = 5; budget < 40000; budget = budget * 3 + 11) {
        s.budget = budget;
        run_with(&s, false, true, &compiled);
        run(&s, true, &stepped);
        differ += !same(&compiled, &stepped, (unsigned)budget);
        free_runs += compiled.jit.free_runs;
        taken_back += compiled.taken_back;
    }
    CHECK_EQ_INT(differ, 0);
    CHECK(compiled.st[1] == VC4_OK);
    printf("twelve QPUs on one host thread: %llu free runs, %llu runs of a QPU taken back\n",
           (unsigned long long)free_runs, (unsigned long long)taken_back);
    /* the same on two host threads (par.h): the reference's outcome, part
     * of the compiled runs made on the helper */
    static struct outcome two;
    unsigned differ2 = 0;
    uint64_t helper = 0;
    host_threads = 2;
    for (uint64_t budget = 5; budget < 40000; budget = budget * 3 + 11) {
        s.budget = budget;
        run_with(&s, false, true, &two);
        run(&s, true, &stepped);
        differ2 += !same(&two, &stepped, 100000 + (unsigned)budget);
        helper += two.jit.helper;
    }
    host_threads = 0;
    CHECK_EQ_INT(differ2, 0);
    /* (how many depends on the host a little: a helper that slept before
     * its first run, on a busy host, leaves that run's first free runs
     * here) */
    printf("twelve QPUs on two host threads: %llu instructions ran on the helper\n", (unsigned long long)helper);
    printf("twelve QPUs: %llu of %llu instructions ran compiled (%llu blocks compiled, %llu loaded, %llu runs)\n",
           (unsigned long long)compiled.jit.instructions, (unsigned long long)compiled.stats.instructions,
           (unsigned long long)compiled.jit.compiled, (unsigned long long)compiled.jit.loaded,
           (unsigned long long)compiled.jit.runs);
    if (compiled.d.len)
        printf("its diagnostics:\n%.2000s\n", compiled.d.text);
#ifndef VC4KIT_CYCLE_BY_CYCLE
    /* (a good part ran compiled; not in the build that forces the reference
     * scheduler, which steps every QPU every cycle and so never runs blocks
     * on several QPUs at once) */
    CHECK(compiled.jit.instructions * 4 > compiled.stats.instructions);
    /* (3716 on an idle host, 874-3716 with a second copy of this test
     * running beside it: which runs find the helper started and awake
     * depends on the host; 11,426 before free runs, whose runs taken back
     * are made again here) */
    CHECK(helper > 100);
    /* (the free runs, counted as side by side) */
    CHECK(ways_add_up(&compiled));
    CHECK(compiled.host.side_by_side_instructions > 0);
    /* (free runs, their QPUs' loops of different lengths, so that runs
     * that got further than another's are taken back) */
    CHECK(free_runs > 0);
    CHECK(taken_back > 0);
    CHECK(two.host.side_by_side_instructions > 0);
#endif
}

/* The helper asleep (here after 50 ms without a job, so that no build is
 * too slow to keep it awake between free runs) is woken by the next
 * free run, which stays on the emulator's thread, and takes the ones
 * after it (a wake that did not take left every later run on one thread,
 * and made each of them a futex call). */
static void test_helper_wakes(void)
{
    static struct setup s;
    static struct outcome two, stepped;
    twelve_setup(&s, 200);
    s.budget = 2000; /* (of about 5000 cycles) */
    pause_ms = 200;
    host_threads = 0;
    run(&s, true, &stepped); /* (the same slices) */
    /* (on a host busier than its cores, the helper may get no core before
     * the pause: seen with four copies of this test on two cores; such a
     * run is tried again, up to four times.  A wake that does not take
     * fails every time.) */
    host_threads = 2;
    unsigned tries = 0, differ = 0;
    do {
        run_with(&s, false, true, &two);
        differ += !same(&two, &stepped, tries);
    } while (++tries < 5 && !(two.helper_first > 0 && two.jit.helper > two.helper_first));
    host_threads = 0;
    pause_ms = 0;
    CHECK_EQ_INT(differ, 0);
    CHECK(two.st[0] == VC4_ERR_TIMEOUT && two.st[1] == VC4_OK);
    printf("helper: %llu instructions before the pause, %llu after (%u runs)\n", (unsigned long long)two.helper_first,
           (unsigned long long)(two.jit.helper - two.helper_first), tries);
#ifndef VC4KIT_CYCLE_BY_CYCLE
    CHECK(two.helper_first > 0);
    CHECK(two.jit.helper > two.helper_first);
#endif
}

/*
 * Regression (qpu.c run_alone): a QPU that a lone QPU's step wakes, and
 * that goes back to sleep in the same cycle with a timed wake, is woken
 * on time.  QPU 1 makes a TMU lookup and blocks on a semaphore nobody
 * releases; QPU 0, alone awake, stores `nop; ldtmu0` over that acquire
 * with a VDW store (not waited for), which wakes QPU 1 (its fetch decodes
 * the new word) in the same cycle; its ldtmu stalls until the data is
 * there and it sleeps again, until a cycle in the middle of QPU 0's ALU
 * run.  run_alone kept the first timed wake it had read on entry (none),
 * so QPU 0 ran on alone past that cycle and QPU 1 woke only when QPU 0
 * ended: 81 cycles and 64 stall cycles where the reference has 78 and 19.
 */
static void test_woken_sleeper_wakes_on_time(void)
{
    static struct setup s;
    static struct outcome sleeping, stepped;
    static struct text t;
    memset(&s, 0, sizeof s);
    /* QPU 1's code: the acquire is its instruction 12 */
    t.n = 0;
    put(&t, "mov r0, unif\n.rep i, 10\nnop\n.endr\nmov t0s, r0\nsacq -, 0\nmov r1, r4\nnop; thrend\nnop\nnop\n");
    CHECK(assemble(&t, CODE_B, s.code[1], &s.len[1]));
    /* QPU 0's code: its first four instructions share cache slots with
     * QPU 1's first four (CODE_B is CODE_A plus the cache's size), the
     * rest none that QPU 1 runs */
    t.n = 0;
    put(&t, ".include \"vc4.qinc\"\nbrr -, r:main\nnop\nnop\nnop\n.rep i, 64\nnop\n.endr\n:main\n"
            "mov r0, unif\nmov r1, unif\nmov r2, unif\nmov.setf -, elem_num\nmov.ifnz r0, r1\n"
            "ldi r3, vpm_setup(1, 1, h32(0))\nmov vw_setup, r3\nmov vpm, r0\n"
            "ldi r3, vdw_setup_0(1, 2, dma_h32(0, 0))\nmov vw_setup, r3\nmov vw_addr, r2\n"
            ".rep i, 60\nfadd r3, r3, r0\n.endr\nnop; thrend\nnop\nnop\n");
    CHECK(assemble(&t, CODE_A, s.code[0], &s.len[0]));
    /* the word stored: `nop; ldtmu0` (element 0 the low half, 1 the high) */
    uint8_t w[8];
    size_t wn = 0;
    t.n = 0;
    put(&t, "nop; ldtmu0\n");
    CHECK(assemble(&t, 0, w, &wn) && wn == 8);
    s.custom = true;
    s.qpus = 2;
    s.programs = 2;
    s.code_of[0] = 0;
    s.code_of[1] = 1;
    s.unif[0][0] = (uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24;
    s.unif[0][1] = (uint32_t)w[4] | (uint32_t)w[5] << 8 | (uint32_t)w[6] << 16 | (uint32_t)w[7] << 24;
    s.unif[0][2] = CODE_B + 12 * 8;
    s.unif[1][0] = DATA;
    s.budget = 100000;
    run(&s, false, &sleeping);
    run(&s, true, &stepped);
    CHECK(same(&sleeping, &stepped, 0));
    CHECK(stepped.st[0] == VC4_OK); /* (both ended: QPU 1 got past the acquire) */
    CHECK(stepped.q[1].state == VC4_EMU_QPU_IDLE);
    CHECK(stepped.stats.stall_cycles > 12);
}

/* Every QPU waits on a semaphore nobody releases: the budget ends the run
 * at once (one jump), with the reference's counts and timeout report. */
static void test_deadlock_jumps_to_budget(void)
{
    static struct setup s;
    static struct outcome sleeping, stepped;
    static struct text t;
    t.n = 0;
    put(&t, "mov r0, qpu_num\nsacq -, 5\nnop; thrend\nnop\nnop\n");
    CHECK(assemble(&t, CODE_A, s.code[0], &s.len[0]));
    CHECK(assemble(&t, CODE_B, s.code[1], &s.len[1]));
    s.qpus = 4;
    s.programs = 6;
    s.budget = 5000000;
    run(&s, false, &sleeping);
    run(&s, true, &stepped);
    CHECK(same(&sleeping, &stepped, 0));
    CHECK(sleeping.st[0] == VC4_ERR_TIMEOUT);
    CHECK_EQ_U64(sleeping.stats.cycles, 5000000 + 1000000);
    CHECK_CONTAINS(sleeping.d.text, "semaphore acquire");
}

/* How the instructions ran (vc4_emu_host_stats): QPU 0 runs a loop while
 * eleven QPUs sleep on a semaphore it releases at its end, then each of
 * them runs a short loop beside the others.  Sleeping, QPU 0's loop runs
 * alone (run_alone: twelve busy QPUs, one awake), most of the eleven short
 * loops lock-stepped; cycle by cycle, all of it lock-stepped.  Both the
 * reference's outcome. */
static void test_ways_counted(void)
{
    static struct setup s;
    static struct outcome sleeping, stepped;
    static struct text t;
    memset(&s, 0, sizeof s);
    t.n = 0;
    put(&t, "mov r0, unif\n:loop\nsub.setf r0, r0, 1\nbrr.anynz -, r:loop\nfadd r1, r1, r0\nnop\nnop\n"
            ".rep i, 11\nsrel -, 0\n.endr\nnop; thrend\nnop\nnop\n");
    CHECK(assemble(&t, CODE_A, s.code[0], &s.len[0]));
    t.n = 0;
    put(&t, "mov r0, unif\nsacq -, 0\n:loop\nsub.setf r0, r0, 1\nbrr.anynz -, r:loop\nfadd r1, r1, r0\nnop\nnop\n"
            "nop; thrend\nnop\nnop\n");
    CHECK(assemble(&t, CODE_B, s.code[1], &s.len[1]));
    s.custom = true;
    s.qpus = 12;
    s.programs = 12;
    for (unsigned p = 0; p < 12; p++) {
        s.code_of[p] = p != 0;
        s.unif[p][0] = p == 0 ? 2000 : 50;
    }
    s.budget = 1000000;
    run(&s, false, &sleeping);
    run(&s, true, &stepped);
    CHECK(same(&sleeping, &stepped, 0));
    CHECK(stepped.st[0] == VC4_OK);
    CHECK_EQ_U64(stepped.stats.programs_completed, 12);
    printf("sleeping: %llu alone, %llu side by side, %llu lock-step; cycle by cycle: %llu, %llu, %llu\n",
           (unsigned long long)sleeping.host.alone_instructions,
           (unsigned long long)sleeping.host.side_by_side_instructions,
           (unsigned long long)sleeping.host.lockstep_instructions,
           (unsigned long long)stepped.host.alone_instructions, (unsigned long long)stepped.host.side_by_side_instructions,
           (unsigned long long)stepped.host.lockstep_instructions);
    CHECK(ways_add_up(&sleeping) && ways_add_up(&stepped));
#ifndef VC4KIT_CYCLE_BY_CYCLE
    /* (not in the build that forces the reference scheduler, whose
     * "sleeping" runs step every busy QPU every cycle too) */
    /* QPU 0's loop: 3 instructions a pass, 2000 passes, alone */
    CHECK(sleeping.host.alone_instructions >= 3 * 2000);
    /* the eleven short loops (3 x 50 each) beside each other: stepped, or
     * compiled side by side in the build that forces compiled blocks */
    CHECK(sleeping.host.lockstep_instructions + sleeping.host.side_by_side_instructions >= 11 * 3 * 50 / 2);
#endif
    CHECK(sleeping.host.side_by_side_instructions <= sleeping.jit.instructions);
    /* the reference: one busy QPU only at the very end */
    CHECK(stepped.host.lockstep_instructions >= 3 * 2000 + 11 * 3 * 50);
    CHECK_EQ_U64(stepped.host.side_by_side_instructions, 0);
}

TEST_LIST(test_sleep_matches_cycle_by_cycle, test_free_runs_random, test_contended_mutex_dma, test_epochs_hand_over, test_blocks_on_twelve_qpus,
          test_helper_wakes, test_woken_sleeper_wakes_on_time, test_deadlock_jumps_to_budget, test_ways_counted)
