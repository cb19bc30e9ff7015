/*
 * test_validate.c - the static QPU validator: for every rule a minimal
 * broken program that triggers exactly that rule and a fixed one that is
 * clean; every seed shader (instruction words that ran on real hardware)
 * passes with its program kind; the rule table is complete.
 */
#include <stdbool.h>
#include <stdint.h>

#include "harness.h"
#include "vc4kit/qpu.h"

#ifndef VC4KIT_SOURCE_DIR
#define VC4KIT_SOURCE_DIR VC4KIT_TEST_DATA "/../.."
#endif

/* ---- collecting diagnostics -------------------------------------------- */

struct got {
    const char *rules[64];
    enum vc4_severity sev[64];
    unsigned n;
    char text[4096];
    size_t len;
};

static void got_fn(void *user, const struct vc4_diag *d)
{
    struct got *g = user;
    if (g->n < 64) {
        g->rules[g->n] = d->rule; /* points into the validator's static table */
        g->sev[g->n] = d->severity;
        g->n++;
    }
    if (g->len < sizeof g->text - 1) {
        size_t k = vc4_diag_format(d, g->text + g->len, sizeof g->text - g->len);
        g->len += k;
        if (g->len >= sizeof g->text - 1)
            g->len = sizeof g->text - 2;
        g->text[g->len++] = '\n';
        g->text[g->len] = 0;
    }
}

static unsigned run(const uint64_t *w, size_t n, enum vc4_shader_kind kind, bool threaded, struct got *g)
{
    memset(g, 0, sizeof *g);
    struct vc4_diag_sink sink = {got_fn, g};
    struct vc4_validate_options o = {.kind = kind, .threaded = threaded, .base_addr = 0x1000};
    unsigned v = 99;
    enum vc4_status st = vc4_qpu_validate(w, n, &o, &sink, &v);
    unsigned counted = 0; /* notes are reported but are not violations */
    for (unsigned k = 0; k < g->n; k++)
        counted += g->sev[k] != VC4_NOTE;
    CHECK_EQ_INT(v, counted);
    CHECK_EQ_INT(st, v ? VC4_ERR_RULE : VC4_OK);
    return v;
}

/* Rule ids some broken program has triggered (checked against the table last). */
static const char *triggered[128];
static size_t ntriggered;

/* The broken program reports `rule` and nothing else; the fixed one is clean. */
static void expect_only(const char *rule, const uint64_t *w, size_t n, enum vc4_shader_kind kind, bool threaded)
{
    struct got g;
    run(w, n, kind, threaded, &g);
    bool found = false, other = false;
    for (unsigned k = 0; k < g.n; k++) {
        if (g.rules[k] && strcmp(g.rules[k], rule) == 0)
            found = true;
        else
            other = true;
    }
    CHECK_MSG(found, "rule %s not reported; got:\n%s", rule, g.text);
    if (found && !other && ntriggered < 128)
        triggered[ntriggered++] = rule;
    CHECK_MSG(!other, "rule %s: other rules reported too:\n%s", rule, g.text);
}

static void expect_clean(const char *what, const uint64_t *w, size_t n, enum vc4_shader_kind kind, bool threaded)
{
    struct got g;
    unsigned v = run(w, n, kind, threaded, &g);
    CHECK_MSG(v == 0, "%s: expected no violations, got:\n%s", what, g.text);
}

/* ---- building instructions --------------------------------------------- */

typedef struct vc4_qpu_instr I;

static I nop(void)
{
    I q;
    vc4_qpu_nop(&q);
    return q;
}
static I sig(unsigned s)
{
    I q = nop();
    q.sig = (uint8_t)s;
    return q;
}
/* add ALU: op dst, a, b (regfile via raddr_a / raddr_b) */
static I add(unsigned op, unsigned waddr, unsigned a, unsigned b)
{
    I q = nop();
    q.op_add = (uint8_t)op;
    q.cond_add = VC4_QPU_COND_ALWAYS;
    q.waddr_add = (uint8_t)waddr;
    q.add_a = (uint8_t)a;
    q.add_b = (uint8_t)b;
    return q;
}
static I mov(unsigned waddr, unsigned mux) { return add(VC4_QPU_A_OR, waddr, mux, mux); }
static I mul(unsigned op, unsigned waddr, unsigned a, unsigned b)
{
    I q = nop();
    q.op_mul = (uint8_t)op;
    q.cond_mul = VC4_QPU_COND_ALWAYS;
    q.waddr_mul = (uint8_t)waddr;
    q.mul_a = (uint8_t)a;
    q.mul_b = (uint8_t)b;
    return q;
}
static I ldi(unsigned waddr, uint32_t imm)
{
    I q = nop();
    q.sig = VC4_QPU_SIG_LOAD_IMM;
    q.unpack = VC4_QPU_LDI_32;
    q.cond_add = VC4_QPU_COND_ALWAYS;
    q.waddr_add = (uint8_t)waddr;
    q.imm = imm;
    return q;
}
static I branch(unsigned cond, int32_t rel_bytes)
{
    I q = nop();
    q.sig = VC4_QPU_SIG_BRANCH;
    q.cond_br = (uint8_t)cond;
    q.rel = 1;
    q.reg = 0;
    q.raddr_a = 0;
    q.ws = 0;
    q.imm = (uint32_t)rel_bytes;
    return q;
}
static I with_sig(I q, unsigned s)
{
    q.sig = (uint8_t)s;
    return q;
}
static I rd_a(I q, unsigned raddr)
{
    q.raddr_a = (uint8_t)raddr;
    return q;
}

enum { MAXW = 32 };
struct prog { uint64_t w[MAXW]; size_t n; };

static void put(struct prog *p, I q)
{
    if (p->n < MAXW)
        p->w[p->n++] = vc4_qpu_encode(&q);
}
static void nops(struct prog *p, int k)
{
    while (k-- > 0)
        put(p, nop());
}
/* thread end + its two delay slots */
static void tail(struct prog *p)
{
    put(p, sig(VC4_QPU_SIG_PROG_END));
    nops(p, 2);
}

#define A VC4_QPU_MUX_A
#define B VC4_QPU_MUX_B
#define R0 VC4_QPU_MUX_R0
#define R1 VC4_QPU_MUX_R1
#define R4 VC4_QPU_MUX_R4
#define USER VC4_SHADER_USER
#define FRAG VC4_SHADER_FRAGMENT
#define VERT VC4_SHADER_VERTEX

/* Build two programs with one statement list each and check them. */
#define PAIR(rule, kind, threaded, broken, fixed)                              \
    do {                                                                       \
        struct prog b_ = {{0}, 0}, f_ = {{0}, 0};                              \
        { struct prog *p = &b_; broken; }                                      \
        { struct prog *p = &f_; fixed; }                                       \
        expect_only(rule, b_.w, b_.n, kind, threaded);                         \
        expect_clean(rule " (fixed)", f_.w, f_.n, kind, threaded);             \
    } while (0)

/* ---- encoding rules ------------------------------------------------------ */

static void test_encoding_rules(void)
{
    PAIR("reserved-op-add", USER, false,
         { put(p, add(9, VC4_QPU_W_ACC0, R0, R0)); tail(p); },
         { put(p, add(VC4_QPU_A_ADD, VC4_QPU_W_ACC0, R0, R0)); tail(p); });
    PAIR("reserved-pack", USER, false,
         { I q = mul(VC4_QPU_M_FMUL, VC4_QPU_W_ACC0, R0, R0); q.pm = 1; q.pack = 1; put(p, q); tail(p); },
         { I q = mul(VC4_QPU_M_FMUL, VC4_QPU_W_ACC0, R0, R0); q.pm = 1; q.pack = VC4_QPU_PACK_MUL_8888; put(p, q); tail(p); });
    PAIR("reserved-ldi-mode", USER, false,
         { I q = ldi(VC4_QPU_W_ACC0, 5); q.unpack = 2; put(p, q); tail(p); },
         { put(p, ldi(VC4_QPU_W_ACC0, 5)); tail(p); });
    PAIR("reserved-branch-cond", USER, false,
         { put(p, branch(12, 0)); nops(p, 3); tail(p); },
         { put(p, branch(VC4_QPU_BCOND_ALWAYS, 0)); nops(p, 3); tail(p); });
    PAIR("read-undefined-reg", USER, false,
         { put(p, rd_a(mov(VC4_QPU_W_ACC0, A), 33)); tail(p); },
         { put(p, rd_a(mov(VC4_QPU_W_ACC0, A), 0)); tail(p); });
}

/* ---- program end ---------------------------------------------------------- */

static void test_thrend_rules(void)
{
    PAIR("no-thrend", USER, false, { nops(p, 1); }, { tail(p); });
    PAIR("thrend-delay-slots", USER, false,
         { put(p, sig(VC4_QPU_SIG_PROG_END)); nops(p, 1); }, { tail(p); });
    PAIR("thrend-regfile-write", USER, false,
         { put(p, with_sig(mov(0, R0), VC4_QPU_SIG_PROG_END)); nops(p, 2); },
         { put(p, with_sig(mov(VC4_QPU_W_ACC1, R0), VC4_QPU_SIG_PROG_END)); nops(p, 2); });
    PAIR("thrend-sb-wait", USER, false,
         { put(p, with_sig(mov(VC4_QPU_W_TLB_COLOR_ALL, R0), VC4_QPU_SIG_PROG_END)); nops(p, 2); },
         { put(p, mov(VC4_QPU_W_TLB_COLOR_ALL, R0));
           put(p, with_sig(mov(VC4_QPU_W_TLB_COLOR_ALL, R0), VC4_QPU_SIG_PROG_END)); nops(p, 2); });
    PAIR("thrend-delay-io", USER, false,
         { put(p, sig(VC4_QPU_SIG_PROG_END)); put(p, rd_a(mov(VC4_QPU_W_ACC0, A), VC4_QPU_R_UNIF)); nops(p, 1); },
         { put(p, rd_a(mov(VC4_QPU_W_ACC0, A), VC4_QPU_R_UNIF)); tail(p); });
    PAIR("thrend-reg14", USER, false,
         { put(p, sig(VC4_QPU_SIG_PROG_END)); put(p, rd_a(mov(VC4_QPU_W_ACC0, A), 14)); nops(p, 1); },
         { put(p, sig(VC4_QPU_SIG_PROG_END)); put(p, rd_a(mov(VC4_QPU_W_ACC0, A), 13)); nops(p, 1); });
    PAIR("last-tlb-z", USER, false,
         { put(p, sig(VC4_QPU_SIG_PROG_END)); nops(p, 1); put(p, mov(VC4_QPU_W_TLB_Z, R0)); },
         { put(p, mov(VC4_QPU_W_TLB_Z, R0)); tail(p); });
    PAIR("thrend-branch", USER, false,
         { put(p, sig(VC4_QPU_SIG_PROG_END)); put(p, branch(VC4_QPU_BCOND_ALWAYS, 0)); nops(p, 1); },
         { put(p, branch(VC4_QPU_BCOND_ALWAYS, 0)); nops(p, 3); tail(p); });
}

/* ---- fragment shaders ------------------------------------------------------ */

static void test_fragment_rules(void)
{
    PAIR("fs-scoreboard-first-two", FRAG, false,
         { put(p, sig(VC4_QPU_SIG_WAIT_FOR_SCOREBOARD)); tail(p); },
         { nops(p, 2); put(p, sig(VC4_QPU_SIG_WAIT_FOR_SCOREBOARD)); tail(p); });
    /* the implicit wait: a first TLB access */
    PAIR("fs-scoreboard-first-two", FRAG, false,
         { nops(p, 1); put(p, mov(VC4_QPU_W_TLB_COLOR_ALL, R0)); tail(p); },
         { nops(p, 2); put(p, mov(VC4_QPU_W_TLB_COLOR_ALL, R0)); tail(p); });
    /* Regression (piglit's gl-1.0-readpixsanity, which passes on Pi 3s in
     * Mesa's CI): a stencil setup is no tile-buffer access and waits on
     * nothing; Mesa writes it as a shader's first instruction (spec/qpu_spec.h
     * vc4_qpu_waddr_waits_sb).  TLB_Z there still waits. */
    PAIR("fs-scoreboard-first-two", FRAG, false,
         { put(p, mov(VC4_QPU_W_TLB_Z, R0)); nops(p, 2); put(p, mov(VC4_QPU_W_TLB_COLOR_ALL, R0)); tail(p); },
         { put(p, mov(VC4_QPU_W_TLB_STENCIL_SETUP, R0)); nops(p, 2); put(p, mov(VC4_QPU_W_TLB_COLOR_ALL, R0));
           tail(p); });
    {
        struct prog b = {{0}, 0};
        struct prog *p = &b;
        put(p, mov(VC4_QPU_W_VPM, R0));
        tail(p);
        expect_only("fs-vpm-access", b.w, b.n, FRAG, false);
        expect_clean("fs-vpm-access as vertex shader", b.w, b.n, VERT, false);
        expect_clean("fs-vpm-access with kind any", b.w, b.n, VC4_SHADER_ANY, false);
    }
    PAIR("threaded-upper-regs", FRAG, true,
         { put(p, mov(20, R0)); tail(p); }, { put(p, mov(4, R0)); tail(p); });
}

/* ---- register hazards ------------------------------------------------------ */

static void test_hazard_rules(void)
{
    PAIR("regfile-read-after-write", USER, false,
         { put(p, mov(1, R0)); put(p, rd_a(mov(VC4_QPU_W_ACC0, A), 1)); tail(p); },
         { put(p, mov(1, R0)); nops(p, 1); put(p, rd_a(mov(VC4_QPU_W_ACC0, A), 1)); tail(p); });
    /* ws: the add ALU then writes file B, so reading ra1 is no hazard... */
    {
        struct prog b = {{0}, 0};
        struct prog *p = &b;
        I w = mov(1, R0);
        w.ws = 1;
        put(p, w);
        put(p, rd_a(mov(VC4_QPU_W_ACC0, A), 1));
        tail(p);
        expect_clean("regfile-read-after-write ws=1 writes rb1", b.w, b.n, USER, false);
    }
    /* ...but the mul ALU with ws=1 writes file A, conditionally: a hazard */
    PAIR("regfile-read-after-write", USER, false,
         { I w = mul(VC4_QPU_M_V8MIN, 1, R0, R0); w.ws = 1; w.cond_mul = VC4_QPU_COND_ZS; put(p, w);
           put(p, rd_a(mov(VC4_QPU_W_ACC0, A), 1)); tail(p); },
         { I w = mul(VC4_QPU_M_V8MIN, 1, R0, R0); w.ws = 1; w.cond_mul = VC4_QPU_COND_NEVER; put(p, w);
           put(p, rd_a(mov(VC4_QPU_W_ACC0, A), 1)); tail(p); });

    PAIR("sfu-r4-early", USER, false,
         { put(p, mov(VC4_QPU_W_SFU_RECIP, R0)); put(p, mov(VC4_QPU_W_ACC0, R4)); tail(p); },
         { put(p, mov(VC4_QPU_W_SFU_RECIP, R0)); nops(p, 2); put(p, mov(VC4_QPU_W_ACC0, R4)); tail(p); });
    PAIR("sfu-r4-conflict", USER, false,
         { put(p, mov(VC4_QPU_W_SFU_EXP, R0)); nops(p, 1); put(p, sig(VC4_QPU_SIG_LOAD_TMU0)); tail(p); },
         { put(p, mov(VC4_QPU_W_SFU_EXP, R0)); nops(p, 2); put(p, sig(VC4_QPU_SIG_LOAD_TMU0)); tail(p); });

    /* rotations: v8min (mul mov) with small immediate 48 (r5) or 49.. (1..) */
    I rot_ra = rd_a(mul(VC4_QPU_M_V8MIN, VC4_QPU_W_ACC0, A, A), 0);
    rot_ra.sig = VC4_QPU_SIG_SMALL_IMM;
    rot_ra.raddr_b = VC4_QPU_SMALL_IMM_ROT_1;
    I rot_r0 = mul(VC4_QPU_M_V8MIN, VC4_QPU_W_ACC1, R0, R0);
    rot_r0.sig = VC4_QPU_SIG_SMALL_IMM;
    rot_r0.raddr_b = VC4_QPU_SMALL_IMM_ROT_1;
    I rot_r5 = rot_r0;
    rot_r5.raddr_b = VC4_QPU_SMALL_IMM_ROT_R5;
    PAIR("rot-quad-only", USER, false, { put(p, rot_ra); tail(p); }, { put(p, rot_r0); tail(p); });
    PAIR("rot-r5-after-write", USER, false,
         { put(p, mov(VC4_QPU_W_ACC5, R1)); put(p, rot_r5); tail(p); },
         { put(p, mov(VC4_QPU_W_ACC5, R1)); nops(p, 1); put(p, rot_r5); tail(p); });
    /* a varying read writes r5 implicitly (seed 002) */
    {
        struct prog b = {{0}, 0};
        struct prog *p = &b;
        put(p, rd_a(mov(VC4_QPU_W_ACC2, A), VC4_QPU_R_VARY));
        put(p, rot_r5);
        tail(p);
        expect_only("rot-r5-after-write", b.w, b.n, FRAG, false);
    }
    PAIR("rot-acc-after-write", USER, false,
         { put(p, mov(VC4_QPU_W_ACC0, R1)); put(p, rot_r0); tail(p); },
         { put(p, mov(VC4_QPU_W_ACC0, R1)); nops(p, 1); put(p, rot_r0); tail(p); });

    PAIR("dual-write-inverse", USER, false,
         { I q = mov(VC4_QPU_W_ACC0, R1); q.cond_add = VC4_QPU_COND_ZS;
           I m = mul(VC4_QPU_M_V8MIN, VC4_QPU_W_ACC0, R0, R0);
           q.op_mul = m.op_mul; q.cond_mul = VC4_QPU_COND_ZC; q.waddr_mul = m.waddr_mul; q.mul_a = R0; q.mul_b = R0;
           put(p, q); tail(p); },
         { I q = mov(VC4_QPU_W_ACC0, R1); q.cond_add = VC4_QPU_COND_ZS;
           I m = mul(VC4_QPU_M_V8MIN, VC4_QPU_W_ACC2, R0, R0);
           q.op_mul = m.op_mul; q.cond_mul = VC4_QPU_COND_ZC; q.waddr_mul = m.waddr_mul; q.mul_a = R0; q.mul_b = R0;
           put(p, q); tail(p); });
}

/* ---- peripherals ------------------------------------------------------------ */

static void test_peripheral_rules(void)
{
    PAIR("one-peripheral", USER, false,
         { put(p, with_sig(mov(VC4_QPU_W_SFU_RECIP, R0), VC4_QPU_SIG_LOAD_TMU0)); tail(p); },
         { put(p, sig(VC4_QPU_SIG_LOAD_TMU0)); put(p, mov(VC4_QPU_W_SFU_RECIP, R0)); tail(p); });
    PAIR("periph-cond-write", USER, false,
         { I q = mov(VC4_QPU_W_VPM, R0); q.cond_add = VC4_QPU_COND_ZS; put(p, q); tail(p); },
         { put(p, mov(VC4_QPU_W_VPM, R0)); tail(p); });
    PAIR("unif-after-unif-addr", USER, false,
         { put(p, mov(VC4_QPU_W_UNIFORMS_ADDRESS, R0)); put(p, rd_a(mov(VC4_QPU_W_ACC1, A), VC4_QPU_R_UNIF)); tail(p); },
         { put(p, mov(VC4_QPU_W_UNIFORMS_ADDRESS, R0)); nops(p, 2);
           put(p, rd_a(mov(VC4_QPU_W_ACC1, A), VC4_QPU_R_UNIF)); tail(p); });
    PAIR("tmu-noswap-late", USER, false,
         { put(p, mov(VC4_QPU_W_TMU_NOSWAP, R0)); nops(p, 1); put(p, mov(VC4_QPU_W_TMU0_S, R0));
           put(p, sig(VC4_QPU_SIG_LOAD_TMU0)); tail(p); },
         { put(p, mov(VC4_QPU_W_TMU_NOSWAP, R0)); nops(p, 2); put(p, mov(VC4_QPU_W_TMU0_S, R0));
           put(p, sig(VC4_QPU_SIG_LOAD_TMU0)); tail(p); });
    /* two full S/T/R/B requests fill 8 entries; a ninth write overflows */
    PAIR("tmu-fifo-overflow", USER, false,
         { for (int r = 0; r < 2; r++) {
               put(p, mov(VC4_QPU_W_TMU0_R, R0)); put(p, mov(VC4_QPU_W_TMU0_T, R0));
               put(p, mov(VC4_QPU_W_TMU0_B, R0)); put(p, mov(VC4_QPU_W_TMU0_S, R0)); }
           put(p, mov(VC4_QPU_W_TMU0_T, R0)); tail(p); },
         { for (int r = 0; r < 2; r++) {
               put(p, mov(VC4_QPU_W_TMU0_R, R0)); put(p, mov(VC4_QPU_W_TMU0_T, R0));
               put(p, mov(VC4_QPU_W_TMU0_B, R0)); put(p, mov(VC4_QPU_W_TMU0_S, R0)); }
           put(p, sig(VC4_QPU_SIG_LOAD_TMU0)); put(p, mov(VC4_QPU_W_TMU0_T, R0)); tail(p); });
    PAIR("tmu-fifo-deep", USER, false,
         { for (int r = 0; r < 5; r++) put(p, mov(VC4_QPU_W_TMU1_S, R0)); tail(p); },
         { for (int r = 0; r < 4; r++) put(p, mov(VC4_QPU_W_TMU1_S, R0));
           put(p, sig(VC4_QPU_SIG_LOAD_TMU1)); put(p, mov(VC4_QPU_W_TMU1_S, R0)); tail(p); });
    PAIR("tlbz-ms-flags", USER, false,
         { put(p, mov(VC4_QPU_W_TLB_Z, R0)); nops(p, 1); put(p, rd_a(mov(VC4_QPU_W_ACC0, A), VC4_QPU_R_MS_REV)); tail(p); },
         { put(p, mov(VC4_QPU_W_TLB_Z, R0)); nops(p, 2); put(p, rd_a(mov(VC4_QPU_W_ACC0, A), VC4_QPU_R_MS_REV)); tail(p); });
    PAIR("host-int-zero", USER, false,
         { put(p, ldi(VC4_QPU_W_HOST_INT, 0)); tail(p); },
         { put(p, ldi(VC4_QPU_W_HOST_INT, 1)); tail(p); });
    /* through a register, and forgotten at a branch target */
    PAIR("host-int-zero", USER, false,
         { put(p, ldi(5, 0)); nops(p, 1); put(p, rd_a(mov(VC4_QPU_W_HOST_INT, A), 5)); tail(p); },
         { put(p, ldi(5, 0)); put(p, branch(VC4_QPU_BCOND_ALWAYS, 0)); nops(p, 3);
           put(p, rd_a(mov(VC4_QPU_W_HOST_INT, A), 5)); tail(p); });
    PAIR("branch-spacing", USER, false,
         { put(p, branch(VC4_QPU_BCOND_ALWAYS, 0)); nops(p, 1); put(p, branch(VC4_QPU_BCOND_ALWAYS, 0)); nops(p, 3); tail(p); },
         { put(p, branch(VC4_QPU_BCOND_ALWAYS, 0)); nops(p, 2); put(p, branch(VC4_QPU_BCOND_ALWAYS, 0)); nops(p, 3); tail(p); });
}

/* ---- threads --------------------------------------------------------------- */

static void test_thread_rules(void)
{
    PAIR("thrsw-sb-locked", FRAG, true,
         { nops(p, 2); put(p, sig(VC4_QPU_SIG_WAIT_FOR_SCOREBOARD)); put(p, sig(VC4_QPU_SIG_THREAD_SWITCH)); nops(p, 2); tail(p); },
         { nops(p, 2); put(p, sig(VC4_QPU_SIG_THREAD_SWITCH)); nops(p, 2); put(p, sig(VC4_QPU_SIG_WAIT_FOR_SCOREBOARD)); tail(p); });
    PAIR("thrsw-after-lthrsw", FRAG, true,
         { put(p, sig(VC4_QPU_SIG_LAST_THREAD_SWITCH)); nops(p, 2); put(p, sig(VC4_QPU_SIG_THREAD_SWITCH)); nops(p, 2); tail(p); },
         { put(p, sig(VC4_QPU_SIG_THREAD_SWITCH)); nops(p, 2); put(p, sig(VC4_QPU_SIG_LAST_THREAD_SWITCH)); nops(p, 2); tail(p); });
    PAIR("thrsw-spacing", FRAG, true,
         { put(p, sig(VC4_QPU_SIG_THREAD_SWITCH)); nops(p, 1); put(p, sig(VC4_QPU_SIG_THREAD_SWITCH)); nops(p, 2); tail(p); },
         { put(p, sig(VC4_QPU_SIG_THREAD_SWITCH)); nops(p, 2); put(p, sig(VC4_QPU_SIG_THREAD_SWITCH)); nops(p, 2); tail(p); });
    PAIR("thrsw-tmu-pending", FRAG, true,
         { put(p, mov(VC4_QPU_W_TMU0_S, R0)); put(p, sig(VC4_QPU_SIG_THREAD_SWITCH)); nops(p, 2);
           put(p, sig(VC4_QPU_SIG_THREAD_SWITCH)); put(p, sig(VC4_QPU_SIG_LOAD_TMU0)); tail(p); },
         { put(p, mov(VC4_QPU_W_TMU0_S, R0)); put(p, sig(VC4_QPU_SIG_THREAD_SWITCH)); nops(p, 2);
           put(p, sig(VC4_QPU_SIG_LOAD_TMU0)); put(p, sig(VC4_QPU_SIG_THREAD_SWITCH)); tail(p); });
    /* the thread rules are for threaded fragment shaders only */
    {
        struct prog b = {{0}, 0};
        struct prog *p = &b;
        put(p, sig(VC4_QPU_SIG_THREAD_SWITCH));
        put(p, sig(VC4_QPU_SIG_THREAD_SWITCH));
        tail(p);
        expect_clean("thrsw in a user program", b.w, b.n, USER, false);
    }
}

/* ---- VPM --------------------------------------------------------------------- */

/* generic horizontal 32-bit read setup, stride 1, Y 0, `num` vectors (facts 8.2) */
static I vr_setup(unsigned num) { return ldi(VC4_QPU_W_VPMVCD_SETUP, 0x00001A00u | (num & 15u) << 20); }
static I vpm_read(void) { return rd_a(mov(VC4_QPU_W_ACC0, A), VC4_QPU_R_VPM); }

static void setup_via_reg(struct prog *p, unsigned num)
{
    I l = vr_setup(num);
    l.waddr_add = 3;
    put(p, l);
    nops(p, 1);
    put(p, rd_a(mov(VC4_QPU_W_ACC1, A), 3));
    put(p, mov(VC4_QPU_W_VPMVCD_SETUP, R1));
    nops(p, 3);
    put(p, vpm_read());
    put(p, vpm_read());
    tail(p);
}

static void test_vpm_rules(void)
{
    PAIR("vpm-read-too-early", VERT, false,
         { put(p, vr_setup(1)); nops(p, 2); put(p, vpm_read()); tail(p); },
         { put(p, vr_setup(1)); nops(p, 3); put(p, vpm_read()); tail(p); });
    PAIR("vpm-setup-outstanding", VERT, false,
         { put(p, vr_setup(2)); nops(p, 3); put(p, vr_setup(1)); nops(p, 3); put(p, vpm_read()); put(p, vpm_read());
           tail(p); }, /* the ignored setup's read never comes: two reads */
         { put(p, vr_setup(2)); nops(p, 3); put(p, vpm_read()); put(p, vpm_read());
           put(p, vr_setup(1)); nops(p, 3); put(p, vpm_read()); tail(p); });
    PAIR("vpm-read-overrun", VERT, false,
         { put(p, vr_setup(1)); nops(p, 3); put(p, vpm_read()); put(p, vpm_read()); tail(p); },
         { put(p, vr_setup(2)); nops(p, 3); put(p, vpm_read()); put(p, vpm_read()); tail(p); });
    PAIR("vpm-read-unconsumed", VERT, false,
         { put(p, vr_setup(2)); nops(p, 3); put(p, vpm_read()); tail(p); },
         { put(p, vr_setup(1)); nops(p, 3); put(p, vpm_read()); tail(p); });
    /* a VPM read and a VDW wait in one instruction (a VPM access with ldtmu
     * is fine: test_vpm_hw.c, maazl's GPU_FFT) */
    PAIR("vpm-concurrent", VERT, false,
         { I q = add(VC4_QPU_A_ADD, VC4_QPU_W_ACC0, A, B); q.raddr_a = VC4_QPU_R_VPM; q.raddr_b = VC4_QPU_R_VPM_WAIT;
           put(p, q); tail(p); },
         { put(p, rd_a(mov(VC4_QPU_W_ACC0, A), VC4_QPU_R_VPM)); I q = mov(VC4_QPU_W_ACC1, B);
           q.raddr_b = VC4_QPU_R_VPM_WAIT; put(p, q); tail(p); });
    /* the setup value is followed from an ldi into ra3, through r1 */
    PAIR("vpm-read-overrun", VERT, false, { setup_via_reg(p, 1); }, { setup_via_reg(p, 2); });
    /* a conditional write makes the value unknown: no count check */
    {
        struct prog b = {{0}, 0};
        struct prog *p = &b;
        I l = vr_setup(1);
        l.waddr_add = 3;
        put(p, l);
        I m = mov(3, R0);
        m.cond_add = VC4_QPU_COND_ZS;
        put(p, m);
        nops(p, 1);
        put(p, rd_a(mov(VC4_QPU_W_ACC1, A), 3));
        put(p, mov(VC4_QPU_W_VPMVCD_SETUP, R1));
        nops(p, 3);
        put(p, vpm_read());
        put(p, vpm_read());
        tail(p);
        expect_clean("vpm setup of unknown value", b.w, b.n, VERT, false);
    }
    /* a VPM read and a VPM write may share an instruction (addendum) */
    {
        struct prog b = {{0}, 0};
        struct prog *p = &b;
        put(p, vr_setup(1));
        nops(p, 3);
        put(p, rd_a(mov(VC4_QPU_W_VPM, A), VC4_QPU_R_VPM));
        tail(p);
        expect_clean("vpm read + write", b.w, b.n, VERT, false);
    }
}

/* ---- pack ------------------------------------------------------------------ */

static void test_pack_rules(void)
{
    PAIR("pack-mul-io", USER, false,
         { I q = mul(VC4_QPU_M_FMUL, VC4_QPU_W_VPM, R0, R0); q.pm = 1; q.pack = VC4_QPU_PACK_MUL_8A; put(p, q); tail(p); },
         { I q = mul(VC4_QPU_M_FMUL, VC4_QPU_W_VPM, R0, R0); q.pm = 1; q.pack = VC4_QPU_PACK_MUL_8888; put(p, q); tail(p); });
    PAIR("pack-a-target", USER, false,
         { I q = mov(VC4_QPU_W_ACC0, R1); q.pack = VC4_QPU_PACK_A_16A; put(p, q); tail(p); },
         { I q = mov(0, R1); q.pack = VC4_QPU_PACK_A_16A; put(p, q); tail(p); });
    PAIR("pack-32s-op", USER, false,
         { I q = mov(0, R1); q.pack = VC4_QPU_PACK_A_32_SAT; put(p, q); tail(p); },
         { I q = add(VC4_QPU_A_ADD, 0, R0, R1); q.pack = VC4_QPU_PACK_A_32_SAT; put(p, q); tail(p); });
}

/* ---- branch targets, kinds, locations -------------------------------------- */

static void branch_edge_prog(struct prog *p, unsigned slot_reg)
{
    /* 0: nop; 1: bra -> 6; 2-4: delay slots, the last writes slot_reg;
     * 5: thrend; 6: reads ra2 (a thrend delay slot, and the branch target) */
    nops(p, 1);
    put(p, branch(VC4_QPU_BCOND_ALWAYS, 8)); /* target = 1 + 4 + 8/8 = 6 */
    nops(p, 2);
    put(p, mov(slot_reg, R0));
    put(p, sig(VC4_QPU_SIG_PROG_END));
    put(p, rd_a(mov(VC4_QPU_W_ACC0, A), 2));
    nops(p, 1);
}

static void test_branch_edge(void)
{
    /* the read-after-write pair exists only along the taken branch */
    PAIR("regfile-read-after-write", USER, false, { branch_edge_prog(p, 2); }, { branch_edge_prog(p, 3); });
}

static void test_locations_and_kinds(void)
{
    struct prog b = {{0}, 0};
    struct prog *p = &b;
    put(p, mov(1, R0));
    put(p, rd_a(mov(VC4_QPU_W_ACC0, A), 1));
    tail(p);
    struct got g;
    memset(&g, 0, sizeof g);
    struct vc4_diag_sink sink = {got_fn, &g};
    unsigned lines[] = {10, 11, 12, 13, 14};
    struct vc4_validate_options o = {.kind = USER, .base_addr = 0x100, .file = "x.qasm", .lines = lines};
    unsigned v = 0;
    CHECK_EQ_INT(vc4_qpu_validate(b.w, b.n, &o, &sink, &v), VC4_ERR_RULE);
    CHECK_EQ_INT(v, 1);
    CHECK_CONTAINS(g.text, "x.qasm:11:");
    CHECK_CONTAINS(g.text, "regfile-read-after-write");
    CHECK_CONTAINS(g.text, "ra1"); /* the disassembly is part of the message */

    /* no options, no sink, no count */
    CHECK_EQ_INT(vc4_qpu_validate(b.w, b.n, NULL, NULL, NULL), VC4_ERR_RULE);
    CHECK_EQ_INT(vc4_qpu_validate(NULL, 3, NULL, NULL, NULL), VC4_ERR_INVALID);
    /* an empty program has no thread end */
    CHECK_EQ_INT(vc4_qpu_validate(NULL, 0, NULL, NULL, &v), VC4_ERR_RULE);
    CHECK_EQ_INT(v, 1);
}

static void test_rule_table(void)
{
    size_t n = 0;
    const struct vc4_rule *r = vc4_qpu_rules(&n);
    CHECK(r != NULL);
    CHECK(n >= 40);
    for (size_t i = 0; i < n; i++) {
        CHECK_MSG(r[i].id && r[i].summary && r[i].source, "rule %zu incomplete", i);
        if (!r[i].id)
            continue;
        for (size_t j = 0; j < i; j++)
            CHECK_MSG(!r[j].id || strcmp(r[i].id, r[j].id) != 0, "duplicate rule id %s", r[i].id);
    }
}

/* ---- the seed shaders ------------------------------------------------------ */

/* Read a .hex file: pairs of 0x numbers (lo, hi); ';' starts a comment. */
static size_t read_hex(const char *name, uint64_t *out, size_t cap)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/seeds/%s", VC4KIT_SOURCE_DIR, name);
    char *text = harness_read_file(path, NULL);
    CHECK_MSG(text != NULL, "cannot read %s", path);
    if (!text)
        return 0;
    uint32_t vals[2];
    int have = 0;
    size_t n = 0;
    for (char *s = text; *s;) {
        if (*s == ';') {
            while (*s && *s != '\n')
                s++;
            continue;
        }
        if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
            char *end;
            unsigned long v = strtoul(s, &end, 16);
            vals[have++] = (uint32_t)v;
            s = end;
            if (have == 2) {
                if (n < cap)
                    out[n++] = (uint64_t)vals[1] << 32 | vals[0];
                have = 0;
            }
            continue;
        }
        s++;
    }
    free(text);
    CHECK_MSG(have == 0, "%s: odd number of words", name);
    return n;
}

static void seed_clean(const char *name, enum vc4_shader_kind kind, bool add_tail)
{
    uint64_t w[128];
    size_t n = read_hex(name, w, 125);
    CHECK_MSG(n > 0, "%s: no words", name);
    if (add_tail) {
        /* a snippet: give it the thread end and delay slots a shader has */
        I e = sig(VC4_QPU_SIG_PROG_END), z = nop();
        w[n++] = vc4_qpu_encode(&e);
        w[n++] = vc4_qpu_encode(&z);
        w[n++] = vc4_qpu_encode(&z);
    }
    expect_clean(name, w, n, kind, false);
}

static void test_seed_shaders(void)
{
    seed_clean("gl_vertex_shader.hex", VERT, false);
    seed_clean("gl_coordinate_shader.hex", VC4_SHADER_COORDINATE, false);
    seed_clean("vpm_coordinate_shader_test.hex", USER, false);
    /* the texture shader (seed 004) has no explicit sbwait: its first TLB
     * access (instruction 5) waits implicitly, which is allowed there */
    seed_clean("texture_fragment_shader.hex", FRAG, true);
    seed_clean("uniform_pack.hex", FRAG, true);
    /* every seed also passes with kind "any" */
    seed_clean("gl_vertex_shader.hex", VC4_SHADER_ANY, false);
    seed_clean("texture_fragment_shader.hex", VC4_SHADER_ANY, true);

    /* and the seed snippets are caught when run without their tail */
    uint64_t w[16];
    size_t n = read_hex("texture_fragment_shader.hex", w, 16);
    expect_only("no-thrend", w, n, FRAG, false);
}

/* Every rule in the table has a broken example above that triggers it alone. */
static void test_every_rule_has_an_example(void)
{
    size_t n = 0;
    const struct vc4_rule *r = vc4_qpu_rules(&n);
    for (size_t i = 0; i < n; i++) {
        bool seen = false;
        for (size_t k = 0; k < ntriggered && !seen; k++)
            seen = strcmp(triggered[k], r[i].id) == 0;
        CHECK_MSG(seen, "rule %s has no broken example", r[i].id);
    }
}

TEST_LIST(test_encoding_rules, test_thrend_rules, test_fragment_rules, test_hazard_rules,
          test_peripheral_rules, test_thread_rules, test_vpm_rules, test_pack_rules,
          test_branch_edge, test_locations_and_kinds, test_rule_table, test_seed_shaders,
          test_every_rule_has_an_example)
