/*
 * test_fs_fastpath.c - fragment shaders on the fast path: the varying
 * reads the fast path and compiled blocks make themselves (qpu.h
 * VC4_XI_IO_VARY_A/B, the port's vary and post) against the general path.
 *
 * Random fragment shaders read the three varyings of seed 002's triangle
 * through file A or B in random ALU instructions (conditions, flags, r5
 * read after a varying, both ALUs), sometimes a fourth time (the
 * over-read rule: the general path's) or only twice (the unread rule at
 * the thread end), and write r0 to the tile buffer.  Each renders three
 * ways: the QPUs on the general path only, as usual, and with compiled
 * blocks (each compiled the first time its head is reached), on one QPU
 * (which runs alone: its blocks make the varying reads) or twelve; the
 * frame, the statistics and the diagnostics must be the same.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "nv_scene.h"
#include "emu/v3d.h"

static uint64_t rng = 0x243F6A8885A308D3u;
static unsigned pick(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

enum { VARY = 35, W_ACC0 = 32 };

/* A random ALU instruction over r0-r5, ra/rb 2-9 and W (ra15); vary:
 * VARYING_READ through file A (1) or B (2), else none. */
static uint64_t rnd_instr(unsigned vary)
{
    static const uint8_t adds[] = {VC4_QPU_A_FADD, VC4_QPU_A_FSUB, VC4_QPU_A_FMAX, VC4_QPU_A_ADD,
                                   VC4_QPU_A_OR,   VC4_QPU_A_AND,  VC4_QPU_A_NOP};
    static const uint8_t muls[] = {VC4_QPU_M_FMUL, VC4_QPU_M_NOP, VC4_QPU_M_V8MIN};
    struct vc4_qpu_instr in;
    vc4_qpu_nop(&in);
    in.op_add = adds[pick(sizeof adds)];
    in.op_mul = muls[pick(sizeof muls)];
    in.raddr_a = vary == 1 ? VARY : pick(4) == 0 ? 15 : 2 + pick(8);
    in.raddr_b = vary == 2 ? VARY : 2 + pick(8);
    /* the operands: the varying's file mostly (else its read goes nowhere), r0-r5 */
    uint8_t vf = vary == 1 ? VC4_QPU_MUX_A : vary == 2 ? VC4_QPU_MUX_B : (uint8_t)(VC4_QPU_MUX_A + pick(2));
    in.add_a = pick(3) ? vf : (uint8_t)pick(6);
    in.add_b = (uint8_t)pick(8);
    in.mul_a = pick(2) ? vf : (uint8_t)pick(6);
    in.mul_b = (uint8_t)pick(8);
    in.ws = (uint8_t)pick(2);
    in.waddr_add = pick(2) ? (uint8_t)(W_ACC0 + pick(4)) : (uint8_t)(2 + pick(8));
    in.waddr_mul = pick(2) ? (uint8_t)(W_ACC0 + pick(4)) : (uint8_t)(2 + pick(8));
    in.cond_add = pick(4) ? VC4_QPU_COND_ALWAYS : (uint8_t)pick(8);
    in.cond_mul = pick(4) ? VC4_QPU_COND_ALWAYS : (uint8_t)pick(8);
    in.sf = pick(5) == 0;
    return vc4_qpu_encode(&in);
}

/* The shader's text: random instructions, `reads` of them reading a
 * varying, each often followed by one that adds r5 (its C); then r0 to
 * the tile buffer and seed 002's thread end. */
static void rnd_shader(char *buf, size_t size, unsigned reads)
{
    size_t n = 0;
    for (unsigned r = 0; r < reads; r++) {
        for (unsigned k = pick(3); k; k--) {
            uint64_t w = rnd_instr(0);
            n += (size_t)snprintf(buf + n, size - n, ".word 0x%08x, 0x%08x\n", (unsigned)w, (unsigned)(w >> 32));
        }
        uint64_t w = rnd_instr(1 + pick(2));
        n += (size_t)snprintf(buf + n, size - n, ".word 0x%08x, 0x%08x\n", (unsigned)w, (unsigned)(w >> 32));
        if (pick(3))
            n += (size_t)snprintf(buf + n, size - n, "fadd r%u, r%u, r5\n", pick(4), pick(4));
    }
    snprintf(buf + n, size - n, "mov tlbc, r0\nnop; thrend\nnop\nnop; sbdone\n");
}

enum way { GENERAL, FAST, COMPILED };

struct outcome {
    uint8_t *rgba;
    char stats[4096];
    struct harness_diags d;
    struct vc4_emu_jit_stats jit;
};

static bool stats_line_kept(const char *line, size_t len)
{
    /* (how the host ran it: compiled code, threads) */
    static const char *const skip[] = {"jit", "host"};
    for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++) {
        size_t k = strlen(skip[i]);
        for (size_t j = 0; j + k <= len; j++)
            if (memcmp(line + j, skip[i], k) == 0)
                return false;
    }
    return true;
}

static void render(const char *fs, enum way way, unsigned qpus, struct outcome *o)
{
    memset(o, 0, sizeof *o);
    struct vc4_diag_sink sink = harness_sink(&o->d);
    struct vc4_emu_options eo = {.sink = sink, .mem_size = 16u << 20, .num_qpus = qpus,
                                 .jit = way == COMPILED ? VC4_EMU_JIT_ON : VC4_EMU_JIT_OFF,
                                 .jit_threshold = 1, .jit_dir = "jit-cache"};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    if (!emu)
        return;
    for (unsigned i = 0; i < emu->v3d.num_qpus; i++)
        emu->v3d.qpu[i].general_only = way == GENERAL;
    struct sc_params p = sc_default(true);
    p.fs = fs;
    uint32_t be = 0, re = 0;
    if (sc_build(emu, &p, sink, &be, &re) && sc_run(emu, be, re) == VC4_OK) {
        struct vc4_emu_frame f;
        vc4_emu_render_frame(emu, &f);
        o->rgba = f.valid ? malloc((size_t)f.width * f.height * 4) : NULL;
        if (o->rgba && vc4_emu_read_frame(emu, &f, o->rgba) != VC4_OK) {
            free(o->rgba);
            o->rgba = NULL;
        }
    }
    char all[8192];
    vc4_emu_stats_report(emu, "", all, sizeof all, NULL);
    size_t n = 0;
    for (const char *l = all; *l;) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) + 1 : strlen(l);
        if (stats_line_kept(l, len) && n + len < sizeof o->stats) {
            memcpy(o->stats + n, l, len);
            n += len;
        }
        l += len;
    }
    vc4_emu_jit_stats(emu, &o->jit);
    vc4_emu_destroy(emu);
}

static bool same(const struct outcome *a, const struct outcome *b, unsigned seed, const char *what)
{
    bool ok = a->rgba && b->rgba && memcmp(a->rgba, b->rgba, 640u * 480u * 4u) == 0 &&
              strcmp(a->stats, b->stats) == 0 && a->d.len == b->d.len && memcmp(a->d.text, b->d.text, a->d.len) == 0;
    if (!ok)
        fprintf(stderr, "shader %u: %s and the general path differ\n%s\n  /\n%s\n%.*s\n  /\n%.*s\n", seed, what,
                a->stats, b->stats, (int)a->d.len, a->d.text, (int)b->d.len, b->d.text);
    return ok;
}

static void test_varyings_fast_and_compiled(void)
{
    static char fs[8192];
    static struct outcome g, f, c;
    unsigned differ = 0, overread = 0;
    uint64_t compiled = 0, io = 0;
    for (unsigned seed = 0; seed < 24; seed++) {
        unsigned reads = pick(6) == 0 ? 4 : pick(6) == 0 ? 2 : 3;
        overread += reads == 4;
        rnd_shader(fs, sizeof fs, reads);
        /* (one QPU, alone: compiled blocks make the reads; twelve: lock-step and free runs) */
        unsigned qpus = seed % 2 ? 1 : 12;
        render(fs, GENERAL, qpus, &g);
        render(fs, FAST, qpus, &f);
        render(fs, COMPILED, qpus, &c);
        differ += !same(&f, &g, seed, "the fast path");
        differ += !same(&c, &g, seed, "compiled blocks");
        compiled += c.jit.instructions;
        io += c.jit.io;
        free(g.rgba);
        free(f.rgba);
        free(c.rgba);
    }
    printf("fragment shaders: %llu instructions ran compiled, %llu of them accesses (varying reads); "
           "%u of 24 shaders over-read\n",
           (unsigned long long)compiled, (unsigned long long)io, overread);
    CHECK_EQ_INT(differ, 0);
    CHECK(io > 24 * 100);   /* varyings were read from compiled blocks */
    CHECK(overread >= 2);
}

TEST_LIST(test_varyings_fast_and_compiled)
