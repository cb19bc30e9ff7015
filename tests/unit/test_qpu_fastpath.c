/* test_qpu_fastpath.c - the QPU's fast path (qpu.c step_fast_alu and the
 * fast branch, chosen at decode) against the general path: random
 * instruction streams run twice from the same random register contents,
 * once as usual and once with every QPU forced onto the general path
 * (struct vc4_qpu general_only); registers, accumulators, flags, the mnop
 * quirk's last mul result, the SFU result, PC, counts and every diagnostic
 * must be identical.  The streams favour what the fast path decides on:
 * few registers (destinations that are operands, both ALUs writing one
 * register, a mul reading what the add writes), every condition, flags from
 * either ALU, small immediates, reads right after writes (the
 * read-after-write rule makes the fast path step aside), branches in
 * delay slots, SFU writes with r4 reads (the r4 rule), and the general
 * features (pack, unpack, rotation, r5, uniforms) in between. */
#include "harness.h"
#include "emu/v3d.h"
#include "vc4kit/emu.h"
#include "vc4kit/qpu.h"

#include "qpu_prog.h"

static uint64_t rng = 0x2545F4914F6CDD1Du;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}
static unsigned pick(unsigned n) { return rnd() % n; }

/* Register values: floats of every kind (normal, denormal, zero, Inf/NaN
 * patterns, near 1.0 so that sums cancel), small and large integers. */
static uint32_t rnd_value(void)
{
    uint32_t s = rnd() & 0x80000000u;
    switch (pick(8)) {
    case 0: return rnd();
    case 1: return s | (127u + pick(8) - 4u) << 23 | (rnd() & 0x7FFFFFu);
    case 2: return s | pick(256) << 23 | (rnd() & 0x7FFFFFu);
    case 3: return s | (rnd() & 0x7FFFFFu); /* denormal or zero */
    case 4: return s | 0x7F800000u | (pick(2) ? 0 : rnd() & 0x7FFFFFu);
    case 5: return pick(64);
    case 6: return (uint32_t)0 - pick(64);
    default: return s | (1u + pick(40)) << 23 | (rnd() & 0x7FFFFFu); /* products below 2^-126 */
    }
}

/* Register addresses: mostly 0-3, so that they collide. */
static uint8_t rnd_reg(void) { return (uint8_t)(pick(4) ? pick(4) : pick(32)); }
static uint8_t rnd_raddr(void)
{
    unsigned r = pick(16);
    return (uint8_t)(r < 12 ? rnd_reg() : r == 12 ? VC4_QPU_R_UNIF : r == 13 ? VC4_QPU_R_ELEM_QPU : VC4_QPU_R_NOP);
}
static uint8_t rnd_waddr(void)
{
    unsigned r = pick(24);
    if (r < 10)
        return rnd_reg();
    if (r < 18)
        return (uint8_t)(VC4_QPU_W_ACC0 + pick(4));
    if (r < 20)
        return VC4_QPU_W_NOP;
    if (r < 22)
        return VC4_QPU_W_ACC5;
    return (uint8_t)(VC4_QPU_W_SFU_RECIP + pick(4));
}
static uint8_t rnd_cond(void) { return (uint8_t)(pick(2) ? VC4_QPU_COND_ALWAYS : pick(8)); }

static uint64_t rnd_alu(void)
{
    struct vc4_qpu_instr in = {0};
    do
        in.op_add = (uint8_t)pick(32);
    while (!vc4_qpu_op_add_valid(in.op_add));
    if (pick(6) == 0)
        in.op_add = VC4_QPU_A_NOP;
    in.op_mul = (uint8_t)pick(8);
    in.sig = pick(3) == 0 ? VC4_QPU_SIG_SMALL_IMM : pick(8) == 0 ? VC4_QPU_SIG_BREAK : VC4_QPU_SIG_NONE;
    in.raddr_a = rnd_raddr();
    /* small immediates: values mostly, rotations (48-63) sometimes */
    in.raddr_b = in.sig == VC4_QPU_SIG_SMALL_IMM ? (uint8_t)(pick(6) ? pick(48) : 48 + pick(16)) : rnd_raddr();
    in.add_a = (uint8_t)pick(8);
    in.add_b = (uint8_t)pick(8);
    in.mul_a = (uint8_t)pick(8);
    in.mul_b = (uint8_t)pick(8);
    in.waddr_add = rnd_waddr();
    in.waddr_mul = rnd_waddr();
    in.ws = (uint8_t)pick(2);
    in.cond_add = rnd_cond();
    in.cond_mul = rnd_cond();
    in.sf = (uint8_t)(pick(3) == 0);
    if (pick(10) == 0) { /* pack / unpack: the general path */
        in.pm = (uint8_t)pick(2);
        in.unpack = (uint8_t)pick(8);
        do
            in.pack = (uint8_t)pick(16);
        while (!vc4_qpu_pack_suffix(in.pm, in.pack));
    }
    return vc4_qpu_encode(&in);
}

static uint64_t rnd_ldi(void)
{
    static const uint8_t modes[] = {VC4_QPU_LDI_32, VC4_QPU_LDI_PER_ELEMENT_SIGNED,
                                    VC4_QPU_LDI_PER_ELEMENT_UNSIGNED};
    return vc4_qpu_encode(&(struct vc4_qpu_instr){
        .sig = VC4_QPU_SIG_LOAD_IMM, .unpack = modes[pick(3)], .waddr_add = rnd_waddr(),
        .waddr_mul = rnd_waddr(), .ws = (uint8_t)pick(2), .cond_add = rnd_cond(), .cond_mul = rnd_cond(),
        .sf = (uint8_t)(pick(4) == 0), .imm = rnd_value()});
}

/* A branch 0-3 instructions beyond its delay slots (never past the end). */
static uint64_t rnd_branch(void)
{
    uint8_t cond;
    do
        cond = (uint8_t)pick(16);
    while (!vc4_qpu_branch_cond_suffix(cond));
    bool link = pick(4) == 0;
    return vc4_qpu_encode(&(struct vc4_qpu_instr){
        .sig = VC4_QPU_SIG_BRANCH, .cond_br = cond, .rel = 1, .imm = 8 * pick(4),
        .waddr_add = link ? rnd_reg() : VC4_QPU_W_NOP, .waddr_mul = VC4_QPU_W_NOP});
}

/* A uniforms-address write: back into the uniforms, or (rarely) outside
 * memory so that the next uniform read faults. */
static uint64_t rnd_unif_addr(void)
{
    uint32_t addr = pick(8) ? UNIF + 4 * pick(64) : 0x3FFFFFF0u;
    return vc4_qpu_encode(&(struct vc4_qpu_instr){.sig = VC4_QPU_SIG_LOAD_IMM, .waddr_add = VC4_QPU_W_UNIFORMS_ADDRESS,
                                                   .waddr_mul = VC4_QPU_W_NOP, .cond_add = VC4_QPU_COND_ALWAYS,
                                                   .imm = addr});
}

static void rnd_prog(struct prog *p, size_t len)
{
    p->n = 0;
    while (p->n < len) {
        unsigned r = pick(40);
        emit(p, r < 30 ? rnd_alu() : r < 34 ? rnd_ldi() : r < 38 ? rnd_branch() : r < 39 ? rnd_unif_addr() : NOP);
    }
    /* room for the last branch's delay slots and target, then the end,
     * whose delay slots may compute (and read uniforms: a rule) */
    for (int i = 0; i < 8; i++)
        emit(p, NOP);
    emit(p, I(.sig = VC4_QPU_SIG_PROG_END));
    emit(p, pick(2) ? rnd_alu() : NOP);
    emit(p, pick(2) ? rnd_alu() : NOP);
}

struct outcome {
    enum vc4_status st;
    uint32_t ra[VC4_QPU_REGS][VC4_QPU_SIMD], rb[VC4_QPU_REGS][VC4_QPU_SIMD];
    uint32_t acc[6][VC4_QPU_SIMD], sfu[VC4_QPU_SIMD], last_mul[VC4_QPU_SIMD];
    uint16_t flag[4];
    uint32_t pc;
    uint64_t instructions, stat_instructions;
    struct harness_diags d;
    unsigned fast_entries; /* decoded words that take the fast path */
};

/* Run p on one QPU from the registers in init, on the fast or general path. */
static void run_one(const struct prog *p, const struct vc4_qpu *init, bool general_only, struct outcome *o)
{
    memset(o, 0, sizeof *o);
    struct vc4_emu *e = mk(1, &o->d);
    if (!e) {
        o->st = VC4_ERR_NOMEM;
        return;
    }
    struct vc4_v3d *v = &e->v3d;
    struct vc4_qpu *q = &v->qpu[0];
    memcpy(q->ra, init->ra, sizeof q->ra);
    memcpy(q->rb, init->rb, sizeof q->rb);
    memcpy(q->acc, init->acc, sizeof q->acc);
    memcpy(q->flag, init->flag, sizeof q->flag);
    q->general_only = general_only;
    uint8_t unif[4 * 64];
    for (size_t i = 0; i < sizeof unif; i += 4) {
        uint32_t u = init->sfu_result[(i / 4) % VC4_QPU_SIMD] + (uint32_t)i;
        memcpy(unif + i, &u, 4);
    }
    vc4_emu_mem_write(e, UNIF, unif, sizeof unif);
    o->st = run(e, p);
    memcpy(o->ra, q->ra, sizeof o->ra);
    memcpy(o->rb, q->rb, sizeof o->rb);
    memcpy(o->acc, q->acc, sizeof o->acc);
    memcpy(o->sfu, q->sfu_result, sizeof o->sfu);
    memcpy(o->last_mul, q->last_mul, sizeof o->last_mul);
    memcpy(o->flag, q->flag, sizeof o->flag);
    o->pc = q->pc;
    o->instructions = q->instructions;
    o->stat_instructions = v->stats.instructions;
    for (unsigned i = 0; i < VC4_ICACHE_ENTRIES; i++)
        if (v->icache.s[i].e.addr != VC4_ICACHE_NONE && v->icache.s[i].e.xi.fast != VC4_XI_FAST_NONE)
            o->fast_entries++;
    vc4_emu_destroy(e);
}

static bool same_outcome(const struct outcome *a, const struct outcome *b, unsigned seed)
{
    bool same = a->st == b->st && memcmp(a->ra, b->ra, sizeof a->ra) == 0 && memcmp(a->rb, b->rb, sizeof a->rb) == 0 &&
                memcmp(a->acc, b->acc, sizeof a->acc) == 0 && memcmp(a->sfu, b->sfu, sizeof a->sfu) == 0 &&
                memcmp(a->last_mul, b->last_mul, sizeof a->last_mul) == 0 &&
                memcmp(a->flag, b->flag, sizeof a->flag) == 0 && a->pc == b->pc &&
                a->instructions == b->instructions && a->stat_instructions == b->stat_instructions &&
                a->d.errors == b->d.errors && a->d.warnings == b->d.warnings && a->d.len == b->d.len &&
                memcmp(a->d.text, b->d.text, a->d.len) == 0;
    if (!same) {
        fprintf(stderr, "stream %u: fast and general paths differ (status %d/%d, %llu/%llu instructions, "
                        "flags Z %04x/%04x N %04x/%04x C %04x/%04x)\n", seed, (int)a->st, (int)b->st,
                (unsigned long long)a->instructions, (unsigned long long)b->instructions, a->flag[1], b->flag[1],
                a->flag[2], b->flag[2], a->flag[3], b->flag[3]);
        for (unsigned r = 0; r < VC4_QPU_REGS; r++)
            for (unsigned i = 0; i < VC4_QPU_SIMD; i++) {
                if (a->ra[r][i] != b->ra[r][i])
                    fprintf(stderr, "  ra%u[%u]: %08x / %08x\n", r, i, a->ra[r][i], b->ra[r][i]);
                if (a->rb[r][i] != b->rb[r][i])
                    fprintf(stderr, "  rb%u[%u]: %08x / %08x\n", r, i, a->rb[r][i], b->rb[r][i]);
                if (r < 6 && a->acc[r][i] != b->acc[r][i])
                    fprintf(stderr, "  r%u[%u]: %08x / %08x\n", r, i, a->acc[r][i], b->acc[r][i]);
            }
        if (a->d.len != b->d.len || memcmp(a->d.text, b->d.text, a->d.len))
            fprintf(stderr, "  diagnostics:\n%.*s\n  /\n%.*s\n", (int)a->d.len, a->d.text, (int)b->d.len, b->d.text);
    }
    return same;
}

static void rnd_state(struct vc4_qpu *init)
{
    memset(init, 0, sizeof *init);
    for (unsigned r = 0; r < VC4_QPU_REGS; r++)
        for (unsigned i = 0; i < VC4_QPU_SIMD; i++) {
            init->ra[r][i] = rnd_value();
            init->rb[r][i] = rnd_value();
        }
    for (unsigned r = 0; r < 6; r++)
        for (unsigned i = 0; i < VC4_QPU_SIMD; i++)
            init->acc[r][i] = rnd_value();
    for (unsigned i = 0; i < VC4_QPU_SIMD; i++)
        init->sfu_result[i] = rnd(); /* (seeds the uniforms) */
    for (unsigned f = 1; f < 4; f++)
        init->flag[f] = (uint16_t)rnd();
}

/* Random streams: both paths agree on everything, and the fast path was
 * taken (most decoded words qualify). */
static void test_fast_matches_general(void)
{
    static struct vc4_qpu init;
    static struct outcome fast, general;
    static struct prog p;
    unsigned differ = 0, fast_entries = 0, ok_runs = 0;
    for (unsigned seed = 0; seed < 300; seed++) {
        rnd_state(&init);
        rnd_prog(&p, 40 + pick(160));
        run_one(&p, &init, false, &fast);
        run_one(&p, &init, true, &general);
        if (!same_outcome(&fast, &general, seed))
            differ++;
        fast_entries += fast.fast_entries;
        ok_runs += fast.st == VC4_OK;
    }
    CHECK_EQ_INT(differ, 0);
    CHECK(fast_entries > 300 * 10); /* the streams do exercise the fast path */
    CHECK(ok_runs > 200);           /* and mostly run to their end */
}

/* A loop of float and integer work that stays on the fast path (besides
 * its counter), with destinations that are operands, both ALUs on one
 * register and a mul reading the add's destination: same results, and the
 * fast path gives the values the scalar rules give. */
static void test_fast_loop_values(void)
{
    static struct vc4_qpu init;
    static struct outcome fast, general;
    struct prog p = {0};
    enum { RA1 = 1, RA2 = 2 };
    emit(&p, ldi(RA1, 5));                                        /* counter */
    emit(&p, I(.op_add = VC4_QPU_A_FADD, .waddr_add = R0, .add_a = 0, .add_b = 1,
               .op_mul = VC4_QPU_M_FMUL, .waddr_mul = R1, .mul_a = 0, .mul_b = 2)); /* r0 = r0 + r1; r1 = r0 * r2 */
    emit(&p, I(.op_add = VC4_QPU_A_ADD, .waddr_add = R2, .add_a = 2, .add_b = 3,
               .op_mul = VC4_QPU_M_MUL24, .waddr_mul = R2, .mul_a = 2, .mul_b = 3)); /* both to r2: mul wins */
    emit(&p, I(.op_add = VC4_QPU_A_FSUB, .waddr_add = R3, .add_a = 0, .add_b = 3,
               .op_mul = VC4_QPU_M_FMUL, .waddr_mul = R0, .mul_a = 3, .mul_b = 1)); /* mul reads r3 (old) */
    emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_SUB, .waddr_add = RA1, .raddr_a = RA1, .raddr_b = 1,
               .add_a = MUX_A, .add_b = MUX_B, .sf = 1));
    emit(&p, vc4_qpu_encode(&(struct vc4_qpu_instr){.sig = VC4_QPU_SIG_BRANCH, .cond_br = VC4_QPU_BCOND_ANY_ZC,
                                                     .rel = 1, .imm = (uint32_t)-(8 * 8),
                                                     .waddr_add = WNOP, .waddr_mul = WNOP}));
    emit(&p, NOP);
    emit(&p, NOP);
    emit(&p, NOP);
    emit_end(&p);
    memset(&init, 0, sizeof init);
    for (unsigned i = 0; i < VC4_QPU_SIMD; i++) {
        init.acc[0][i] = 0x3F800000u + i * 0x1357u; /* ~1.0 */
        init.acc[1][i] = 0xBF7FFFFFu - i * 0x2468u; /* ~-1.0: sums cancel */
        init.acc[2][i] = 0x40490FDBu ^ (i << 3);    /* ~pi */
        init.acc[3][i] = 0x00C00000u + i;           /* tiny: products flush */
    }
    run_one(&p, &init, false, &fast);
    run_one(&p, &init, true, &general);
    CHECK(fast.st == VC4_OK);
    CHECK(same_outcome(&fast, &general, 0));
    CHECK(fast.fast_entries >= 4);
    /* the first pass by the scalar rules: element 0 */
    uint32_t r0 = init.acc[0][0], r1 = init.acc[1][0], r2 = init.acc[2][0], r3 = init.acc[3][0];
    for (int it = 0; it < 5; it++) {
        uint32_t s = vc4_alu_fadd(r0, r1), m = vc4_alu_fmul(r0, r2);
        r0 = s;
        r1 = m;
        r2 = vc4_alu_mul24(r2, r3);
        uint32_t d = vc4_alu_fsub(r0, r3), m2 = vc4_alu_fmul(r3, r1);
        r3 = d;
        r0 = m2;
    }
    CHECK_EQ_U64(fast.acc[0][0], r0);
    CHECK_EQ_U64(fast.acc[1][0], r1);
    CHECK_EQ_U64(fast.acc[2][0], r2);
    CHECK_EQ_U64(fast.acc[3][0], r3);
}

TEST_LIST(test_fast_matches_general, test_fast_loop_values)
