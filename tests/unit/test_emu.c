/* test_emu.c - the emulated V3D through its public API: registers, SRQ,
 * the seed 003 coordinate shader, QPU semantics, semaphores, mutex. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "harness.h"
#include "emu/jit_env.h"
#include "emu/v3d.h"
#include "vc4kit/emu.h"
#include "vc4kit/qpu.h"

#define CODE 0x1000u
#define UNIF 0x8000u

static uint64_t enc(struct vc4_qpu_instr in) { return vc4_qpu_encode(&in); }
/* NOPF supplies nop defaults that the designated fields after it override. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif
#define NOPF .sig = 1, .waddr_add = 39, .waddr_mul = 39, .raddr_a = 39, .raddr_b = 39
static const uint64_t NOP = VC4_QPU_NOP_WORD;
static uint64_t THREND(void) { return enc((struct vc4_qpu_instr){NOPF, .sig = 3}); }
/* add op: waddr = op(a, b) */
static uint64_t ADD(unsigned op, unsigned waddr, unsigned a, unsigned b, unsigned cond, unsigned sf)
{
    return enc((struct vc4_qpu_instr){NOPF, .op_add = (uint8_t)op, .waddr_add = (uint8_t)waddr,
                                      .add_a = (uint8_t)a, .add_b = (uint8_t)b,
                                      .cond_add = (uint8_t)cond, .sf = (uint8_t)sf});
}
static uint64_t LDI(unsigned waddr, uint32_t imm, unsigned mode)
{
    return enc((struct vc4_qpu_instr){NOPF, .sig = 14, .unpack = (uint8_t)mode, .waddr_add = (uint8_t)waddr,
                                      .cond_add = 1, .imm = imm});
}

static struct vc4_emu *mk(unsigned qpus, struct harness_diags *d)
{
    struct vc4_emu_options o = {.mem_size = 1u << 20, .num_qpus = qpus, .sink = harness_sink(d)};
    return vc4_emu_create(&o);
}

static enum vc4_status run(struct vc4_emu *e, const uint64_t *w, size_t n, const uint32_t *u, size_t nu,
                           unsigned progs, uint64_t budget)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t b[8];
        vc4_qpu_store_le(b, w[i]);
        vc4_emu_mem_write(e, CODE + 8 * (uint32_t)i, b, 8);
    }
    for (size_t i = 0; i < nu; i++)
        vc4_emu_mem_write(e, UNIF + 4 * (uint32_t)i, &u[i], 4);
    for (unsigned p = 0; p < progs; p++) {
        vc4_emu_reg_write(e, VC4_V3D_SRQUA, UNIF);
        vc4_emu_reg_write(e, VC4_V3D_SRQPC, CODE);
    }
    return vc4_emu_run(e, budget);
}

static void test_ident_and_regs(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(0, &d);
    uint32_t v;
    CHECK(vc4_emu_reg_read(e, VC4_V3D_IDENT0, &v) == VC4_OK);
    CHECK_EQ_U64(v, 0x02443356u);
    vc4_emu_reg_read(e, VC4_V3D_IDENT1, &v);
    CHECK_EQ_U64((v >> 28) & 0xF, 12);  /* VPM KB */
    CHECK_EQ_U64((v >> 16) & 0xFF, 16); /* semaphores */
    CHECK_EQ_U64((v >> 8) & 0xF, 4);    /* QPUs per slice */
    CHECK_EQ_U64((v >> 4) & 0xF, 3);    /* slices */
    CHECK(vc4_emu_reg_write(e, VC4_V3D_SCRATCH, 0xDEADBEEFu) == VC4_OK);
    vc4_emu_reg_read(e, VC4_V3D_SCRATCH, &v);
    CHECK_EQ_U64(v, 0xDEADBEEFu);
    CHECK(vc4_emu_reg_read(e, 0x002, &v) == VC4_ERR_RANGE);
    CHECK(vc4_emu_reg_read(e, 0x5000, &v) == VC4_ERR_RANGE);
    CHECK_STR(vc4_emu_reg_name(VC4_V3D_SRQCS), "SRQCS");
    CHECK(vc4_emu_mem_ptr(e, 0xC0000000u, 16) == vc4_emu_mem_ptr(e, 0, 16)); /* alias */
    CHECK(vc4_emu_mem_ptr(e, (1u << 20) - 4, 8) == NULL);
    vc4_emu_destroy(e);
}

static void test_seed_coordinate_shader(void)
{
    /* seed 003 VPM_VCD_COORDINATE_SHADER_TEST_1, words exactly as posted */
    char *text = harness_read_file(VC4KIT_SOURCE_DIR "/examples/seeds/vpm_coordinate_shader_test.hex", NULL);
    CHECK(text != NULL);
    if (!text)
        return;
    uint64_t w[64];
    size_t n = 0;
    uint32_t half[2];
    int k = 0;
    for (char *p = text; *p && n < 64; p++) {
        if (*p == ';') { while (*p && *p != '\n') p++; if (!*p) break; continue; }
        if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
            half[k++] = (uint32_t)strtoul(p, &p, 16);
            if (k == 2) { w[n++] = (uint64_t)half[1] << 32 | half[0]; k = 0; }
            p--;
        }
    }
    free(text);
    CHECK_EQ_INT(n, 29);
    struct harness_diags d;
    struct vc4_emu *e = mk(0, &d);
    const uint32_t store = 0x10000;
    /* fake vertex: X=32*16, Y=448*16 packed, Z=0, 1/W=1.0; then the store address */
    const uint32_t u[] = {0x1C000200u, 0, 0x3F800000u, store};
    CHECK(run(e, w, n, u, 4, 1, 10000) == VC4_OK);
    static const uint32_t want[7] = {0xBF665C24u, 0x3F5EDD42u, 0, 0x3F800000u, 0x1C000200u, 0, 0x3F800000u};
    for (int row = 0; row < 7; row++)
        for (int i = 0; i < 16; i++) {
            uint32_t v = 0;
            vc4_emu_mem_read(e, store + 4 * (uint32_t)(row * 16 + i), &v, 4);
            CHECK_MSG(v == want[row], "row %d elem %d: 0x%08x != 0x%08x", row, i, v, want[row]);
        }
    uint32_t cs;
    vc4_emu_reg_read(e, VC4_V3D_SRQCS, &cs);
    CHECK_EQ_U64((cs >> 16) & 0xFF, 1);
    CHECK_EQ_U64((cs >> 8) & 0xFF, 1);
    CHECK_EQ_INT(d.errors, 0);
    vc4_emu_destroy(e);
}

static void test_flags_and_conditions(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    /* r0 = elem - 8 (per-element signed ldi would be smaller: use sub) */
    const uint64_t w[] = {
        ADD(VC4_QPU_A_OR, 32, 6, 6, 1, 0) | 0, /* placeholder replaced below */
        NOP, THREND(), NOP, NOP};
    uint64_t p[8];
    /* r0 = element number (raddr_a 38) */
    struct vc4_qpu_instr in = {NOPF, .op_add = VC4_QPU_A_OR, .waddr_add = 32, .add_a = 6, .add_b = 6,
                               .raddr_a = 38, .cond_add = 1};
    p[0] = enc(in);
    /* r1 = 8 (small imm) ; sub r2 = r0 - r1 with sf */
    in = (struct vc4_qpu_instr){NOPF, .sig = 13, .op_add = VC4_QPU_A_OR, .waddr_add = 33, .add_a = 7,
                                .add_b = 7, .raddr_b = 8, .cond_add = 1};
    p[1] = enc(in);
    p[2] = ADD(VC4_QPU_A_SUB, 34, 0, 1, 1, 1);
    /* r3 = 1 where N set (elements 0-7), via ldi .ifn */
    in = (struct vc4_qpu_instr){NOPF, .sig = 14, .waddr_add = 35, .cond_add = VC4_QPU_COND_NS, .imm = 1};
    p[3] = enc(in);
    p[4] = THREND();
    p[5] = NOP;
    p[6] = NOP;
    (void)w;
    CHECK(run(e, p, 7, NULL, 0, 1, 1000) == VC4_OK);
    struct vc4_qpu *q = &e->v3d.qpu[0];
    CHECK_EQ_U64(q->flag[VC4_QPU_FLAG_N], 0x00FF);
    CHECK_EQ_U64(q->flag[VC4_QPU_FLAG_Z], 0x0100);
    CHECK_EQ_U64(q->flag[VC4_QPU_FLAG_C], 0x00FF); /* sub: src1 < src2 unsigned */
    for (int i = 0; i < 16; i++)
        CHECK_EQ_U64(q->acc[3][i], i < 8 ? 1u : 0u);
    vc4_emu_destroy(e);
}

static void test_ldi_forms_and_r5(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    uint64_t p[] = {
        LDI(32, 0x0003000Fu, VC4_QPU_LDI_PER_ELEMENT_SIGNED),   /* r0 */
        LDI(33, 0x0003000Fu, VC4_QPU_LDI_PER_ELEMENT_UNSIGNED), /* r1 */
        0, 0, THREND(), NOP, NOP};
    /* r5 quad (file A) from r0 ; then nothing */
    struct vc4_qpu_instr in = {NOPF, .op_add = VC4_QPU_A_OR, .waddr_add = 37, .add_a = 1, .add_b = 1, .cond_add = 1};
    p[2] = enc(in);
    p[3] = NOP;
    CHECK(run(e, p, 7, NULL, 0, 1, 1000) == VC4_OK);
    struct vc4_qpu *q = &e->v3d.qpu[0];
    /* elements 0,1: MS=1 LS=1 -> signed -1, unsigned 3; 2,3: LS=1 -> 1; 4..: 0 */
    CHECK_EQ_U64(q->acc[0][0], 0xFFFFFFFFu);
    CHECK_EQ_U64(q->acc[0][2], 1);
    CHECK_EQ_U64(q->acc[1][1], 3);
    CHECK_EQ_U64(q->acc[1][3], 1);
    CHECK_EQ_U64(q->acc[1][5], 0);
    CHECK_EQ_U64(q->acc[5][1], 3); /* quad 0 gets element 0 */
    CHECK_EQ_U64(q->acc[5][5], 0);
    vc4_emu_destroy(e);
}

static void test_branch_delay_slots_and_link(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    /* 0: brr -> +2 instrs past the slots, link ra0; slots 1-3 add 1 to r0; 4: r0 += 100 (skipped) */
    struct vc4_qpu_instr br = {.sig = 15, .cond_br = 15, .rel = 1, .waddr_add = 0, .waddr_mul = 39,
                               .raddr_a = 0, .imm = 8};
    struct vc4_qpu_instr inc = {NOPF, .sig = 13, .op_add = VC4_QPU_A_ADD, .waddr_add = 32, .add_a = 0,
                                .add_b = 7, .raddr_b = 1, .cond_add = 1};
    struct vc4_qpu_instr big = inc;
    big.raddr_b = 15;
    uint64_t p[] = {enc(br), enc(inc), enc(inc), enc(inc), enc(big), enc(inc), THREND(), NOP, NOP};
    CHECK(run(e, p, 9, NULL, 0, 1, 1000) == VC4_OK);
    struct vc4_qpu *q = &e->v3d.qpu[0];
    CHECK_EQ_U64(q->acc[0][0], 4); /* 3 delay slots + target */
    CHECK_EQ_U64(q->ra[0][7], CODE + 32); /* link = PC + 4 instructions */
    /* not taken: no link */
    vc4_emu_reset(e);
    br.cond_br = VC4_QPU_BCOND_ALL_ZS; /* Z flags clear after reset */
    br.waddr_add = 1;
    p[0] = enc(br);
    CHECK(run(e, p, 9, NULL, 0, 1, 1000) == VC4_OK);
    CHECK_EQ_U64(e->v3d.qpu[0].ra[1][0], 0);
    vc4_emu_destroy(e);
}

static void test_rotation(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    struct vc4_qpu_instr el = {NOPF, .op_add = VC4_QPU_A_OR, .waddr_add = 32, .add_a = 6, .add_b = 6,
                               .raddr_a = 38, .cond_add = 1};
    /* mul: r1 = v8min(r0, r0) >> rotate 1 (full: r0-r3 inputs) */
    struct vc4_qpu_instr rot = {NOPF, .sig = 13, .op_mul = VC4_QPU_M_V8MIN, .waddr_mul = 33, .mul_a = 0,
                                .mul_b = 0, .raddr_b = 49, .cond_mul = 1};
    /* ra0 = element number; r2 = rotate ra0 by 1: per quad only */
    struct vc4_qpu_instr ra = el;
    ra.waddr_add = 0;
    struct vc4_qpu_instr rotq = {NOPF, .sig = 13, .op_mul = VC4_QPU_M_V8MIN, .waddr_mul = 34, .mul_a = 6,
                                 .mul_b = 6, .raddr_a = 0, .raddr_b = 49, .cond_mul = 1};
    uint64_t p[] = {enc(el), enc(ra), NOP, enc(rot), enc(rotq), THREND(), NOP, NOP};
    CHECK(run(e, p, 8, NULL, 0, 1, 1000) == VC4_OK);
    struct vc4_qpu *q = &e->v3d.qpu[0];
    CHECK_EQ_U64(q->acc[1][0], 15); /* result[i] = src[(i - 1) mod 16] */
    CHECK_EQ_U64(q->acc[1][5], 4);
    CHECK_EQ_U64(q->acc[2][4], 7);  /* within the quad */
    CHECK_EQ_U64(q->acc[2][5], 4);
    vc4_emu_destroy(e);
}

static void test_semaphores_and_mutex(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(4, &d);
    /* every program: mutex acquire; r0 = uniform (unif addr); load [shared counter] ...
     * simpler: QPU programs release sema 3 then the last acquire 4 times */
    struct vc4_qpu_instr acq = {NOPF, .sig = 14, .unpack = 4, .imm = 0x10 | 3};
    struct vc4_qpu_instr rel = {NOPF, .sig = 14, .unpack = 4, .imm = 3};
    struct vc4_qpu_instr mtx = {NOPF, .op_add = VC4_QPU_A_OR, .waddr_add = 32, .add_a = 6, .add_b = 6,
                                .raddr_a = 51, .cond_add = 1};
    struct vc4_qpu_instr mrel = {NOPF, .sig = 14, .waddr_add = 51, .cond_add = 1, .imm = 1};
    uint64_t p[] = {enc(acq), enc(mtx), enc(mtx), NOP, NOP, enc(mrel), enc(rel), THREND(), NOP, NOP};
    /* acquire blocks at 0: preload count 1 so the 4 programs serialise */
    e->v3d.sema.count[3] = 1;
    CHECK(run(e, p, 10, NULL, 0, 4, 10000) == VC4_OK);
    CHECK_EQ_U64(e->v3d.sema.count[3], 1);
    CHECK_EQ_INT(e->v3d.sema.mutex_owner, -1);
    /* acquire with count 0 forever: timeout naming the QPU */
    vc4_emu_reset(e);
    CHECK(run(e, p, 10, NULL, 0, 1, 100) == VC4_ERR_TIMEOUT);
    CHECK_CONTAINS(d.text, "semaphore acquire");
    CHECK_CONTAINS(d.text, "sacq");
    vc4_emu_destroy(e);
}

static void test_faults_and_uniform_reset(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    /* uniforms address reset: unif_addr = UNIF+4 ; two nops ; r0 = unif */
    struct vc4_qpu_instr ua = {NOPF, .sig = 14, .waddr_add = 40, .cond_add = 1, .imm = UNIF + 4};
    struct vc4_qpu_instr ru = {NOPF, .op_add = VC4_QPU_A_OR, .waddr_add = 32, .add_a = 6, .add_b = 6,
                               .raddr_a = 32, .cond_add = 1};
    uint64_t p[] = {enc(ua), NOP, NOP, enc(ru), THREND(), NOP, NOP};
    const uint32_t u[] = {111, 222};
    CHECK(run(e, p, 7, u, 2, 1, 1000) == VC4_OK);
    CHECK_EQ_U64(e->v3d.qpu[0].acc[0][3], 222);
    /* reserved add op 9: invalid instruction fault with disassembly */
    vc4_emu_reset(e);
    uint64_t bad[] = {ADD(9, 32, 0, 0, 1, 0), THREND(), NOP, NOP};
    CHECK(run(e, bad, 4, NULL, 0, 1, 1000) == VC4_ERR_FAULT);
    CHECK_CONTAINS(d.text, "invalid instruction");
    /* runaway: branch to itself */
    vc4_emu_reset(e);
    struct vc4_qpu_instr loop = {.sig = 15, .cond_br = 15, .rel = 1, .waddr_add = 39, .waddr_mul = 39,
                                 .imm = (uint32_t)-32};
    uint64_t r[] = {enc(loop), NOP, NOP, NOP};
    CHECK(run(e, r, 4, NULL, 0, 1, 500) == VC4_ERR_TIMEOUT);
    CHECK_CONTAINS(d.text, "cycle budget");
    /* PC outside memory */
    vc4_emu_reset(e);
    vc4_emu_reg_write(e, VC4_V3D_SRQPC, 0x3FFFFFF8u);
    CHECK(vc4_emu_run(e, 100) == VC4_ERR_FAULT);
    vc4_emu_destroy(e);
}

static void test_sfu_latency(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    /* ldi recip = 4.0 ; r0 = r4 (too early, warns) ; nop ; r1 = r4 */
    struct vc4_qpu_instr sfu = {NOPF, .sig = 14, .waddr_add = 52, .cond_add = 1, .imm = 0x40800000u};
    uint64_t p[] = {enc(sfu), ADD(VC4_QPU_A_OR, 32, 4, 4, 1, 0), NOP, ADD(VC4_QPU_A_OR, 33, 4, 4, 1, 0),
                    THREND(), NOP, NOP};
    CHECK(run(e, p, 7, NULL, 0, 1, 1000) == VC4_OK);
    CHECK_EQ_U64(e->v3d.qpu[0].acc[0][0], 0);
    CHECK_EQ_U64(e->v3d.qpu[0].acc[1][0], 0x3E800000u);
    CHECK_CONTAINS(d.text, "sfu-r4-early");
    vc4_emu_destroy(e);
    /* strict mode: the same program is an error */
    struct vc4_emu_options o = {.mem_size = 1u << 20, .strict = true, .sink = harness_sink(&d)};
    e = vc4_emu_create(&o);
    CHECK(run(e, p, 7, NULL, 0, 1, 1000) == VC4_ERR_RULE);
    vc4_emu_destroy(e);
}

/* Regression: QPUs that ran different lengths of time in one run stored
 * with VDW in the next as if the single engine were busy for the
 * difference: each QPU's clock stopped while it idled, and the engine's
 * busy-until time is in the clock of the QPU that used it last.  Every
 * QPU's clock now runs while it idles: the same programs cost the same
 * cycles every time. */
static void test_idle_clocks_run(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(4, &d);
    static const char src[] = ".include \"vc4.qinc\"\n"
                              "mov ra0, unif\nmov r0, qpu_num\nnop\n"
                              ":l\nsub.setf ra0, ra0, 1\nbrr.anynz -, r:l\nnop\nnop\nnop\n"
                              "ldi vw_setup, vpm_setup(1, 1, h32(0))\nmov vpm, r0\n"
                              "ldi vw_setup, vdw_setup_0(1, 16, dma_h32(0, 0))\nldi vw_addr, 0x10000\n"
                              "mov -, vw_wait\nnop; thrend\nnop\nnop\n";
    struct vc4_asm_options ao = {.base_addr = CODE};
    struct vc4_asm *as = vc4_asm_create(&ao);
    CHECK(as && vc4_asm_source(as, "idle", src, sizeof src - 1) == VC4_OK);
    size_t n = 0;
    const uint8_t *code = vc4_asm_output(as, &n);
    vc4_emu_mem_write(e, CODE, code, n);
    uint64_t cycles[3] = {0};
    for (int r = 0; r < 3; r++) {
        for (uint32_t p = 0; p < 4; p++) {
            uint32_t iters = 1 + 60 * p; /* QPU 3 runs far longer than QPU 0 */
            vc4_emu_mem_write(e, UNIF + 4 * p, &iters, 4);
            vc4_emu_reg_write(e, VC4_V3D_SRQUA, UNIF + 4 * p);
            vc4_emu_reg_write(e, VC4_V3D_SRQPC, CODE);
        }
        CHECK(vc4_emu_run(e, 100000) == VC4_OK);
        struct vc4_emu_stats s;
        vc4_emu_stats(e, &s);
        cycles[r] = s.cycles;
    }
    CHECK_EQ_U64(cycles[1] - cycles[0], cycles[0]);
    CHECK_EQ_U64(cycles[2] - cycles[1], cycles[0]);
    for (unsigned q = 1; q < 4; q++)
        CHECK_EQ_U64(e->v3d.qpu[q].time, e->v3d.qpu[0].time);
    vc4_asm_destroy(as);
    vc4_emu_destroy(e);
}

/* A caller's allocator that hands out blocks 16 bytes past a 64-byte
 * boundary (as glibc's malloc does for large blocks) and counts the live
 * ones. */
struct skewed_alloc {
    int live;
    void *raw[64];
    void *given[64];
};
static void *skewed_fn(void *user, void *ptr, size_t size)
{
    struct skewed_alloc *a = user;
    int slot = -1;
    for (int i = 0; i < 64; i++)
        if (ptr ? a->given[i] == ptr : a->given[i] == NULL) {
            slot = i;
            break;
        }
    if (slot < 0)
        return NULL; /* (an unknown pointer: the test fails below, nothing freed) */
    if (ptr) { /* (the emulator never grows what it allocates through here) */
        free(a->raw[slot]);
        a->raw[slot] = a->given[slot] = NULL;
        a->live--;
        if (size == 0)
            return NULL;
    }
    unsigned char *raw = malloc(size + 80);
    if (!raw)
        return NULL;
    unsigned char *p = raw + (64 - (uintptr_t)raw % 64) % 64 + 16;
    a->raw[slot] = raw;
    a->given[slot] = p;
    a->live++;
    return p;
}

/* The emulator and its instruction cache on 64-byte boundaries whatever the
 * allocator gives (a QPU's register vectors, a cache slot's first line:
 * qpu.h), everything given back at destroy, and a program runs. */
static void test_aligned_through_caller_allocator(void)
{
    static struct skewed_alloc a;
    struct harness_diags d;
    struct vc4_allocator al = {skewed_fn, &a};
    struct vc4_emu_options o = {.mem_size = 1u << 20, .num_qpus = 2, .sink = harness_sink(&d), .alloc = &al};
    struct vc4_emu *e = vc4_emu_create(&o);
    CHECK(e != NULL);
    if (!e)
        return;
    CHECK(a.live > 0);
    CHECK_EQ_U64((uintptr_t)e->v3d.qpu[1].acc % 64, 0);
    CHECK_EQ_U64((uintptr_t)e->v3d.qpu[1].ra[3] % 64, 0);
    CHECK_EQ_U64((uintptr_t)&e->v3d.icache.s[5] % 64, 0);
    CHECK_EQ_U64((uintptr_t)e->v3d.tmu.q[1].fifo[1].req[3].data % 64, 0);
    uint64_t w[] = {LDI(32, 7, 0), ADD(VC4_QPU_A_ADD, 1, 0, 0, 1, 0), THREND(), NOP, NOP}; /* r0 = 7; ra1 = r0 + r0 */
    CHECK(run(e, w, 5, NULL, 0, 2, 1000) == VC4_OK);
    CHECK_EQ_U64(e->v3d.qpu[1].ra[1][9], 14);
    vc4_emu_destroy(e);
    CHECK_EQ_INT(a.live, 0);
}

/* The tools' JIT settings from the environment (emu/jit_env.h): compiled
 * blocks on the other core by default, none with VC4KIT_JIT=0, and with
 * VC4KIT_JIT=eager each block compiled at its second visit while the
 * program waits (make gl-check's byte-for-byte run of Mesa's shaders). */
static void test_jit_env(void)
{
    char dir[256];
    struct vc4_emu_options o;
    static const struct {
        const char *value; /* NULL: unset */
        enum vc4_emu_jit jit;
        bool async;
        unsigned threshold;
    } cases[] = {
        {NULL, VC4_EMU_JIT_ON, true, 0},
        {"1", VC4_EMU_JIT_ON, true, 0},
        {"0", VC4_EMU_JIT_OFF, true, 0},
        {"eager", VC4_EMU_JIT_ON, false, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].value)
            setenv("VC4KIT_JIT", cases[i].value, 1);
        else
            unsetenv("VC4KIT_JIT");
        setenv("VC4KIT_JIT_DIR", "/tmp/jit-env-test", 1);
        memset(&o, 0, sizeof o);
        vc4_jit_options_from_env(&o, dir, sizeof dir);
        CHECK_EQ_INT(o.jit, cases[i].jit);
        CHECK_EQ_INT(o.jit_async, cases[i].async);
        CHECK_EQ_INT(o.jit_threshold, cases[i].threshold);
        CHECK(o.jit_dir == dir);
        CHECK_STR(dir, "/tmp/jit-env-test");
    }
    unsetenv("VC4KIT_JIT");
    unsetenv("VC4KIT_JIT_DIR");
}

TEST_LIST(test_aligned_through_caller_allocator, test_ident_and_regs, test_seed_coordinate_shader, test_flags_and_conditions,
          test_ldi_forms_and_r5, test_branch_delay_slots_and_link, test_rotation,
          test_semaphores_and_mutex, test_faults_and_uniform_reset, test_sfu_latency, test_idle_clocks_run, test_jit_env)
