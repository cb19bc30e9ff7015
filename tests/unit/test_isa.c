/*
 * test_isa.c - the instruction model: encode/decode, the tables, and the
 * seed posts' instruction words with the field values the posts list.
 */
#include "harness.h"
#include "isa/isa.h"
#include "spec/qpu_spec.h"
#include "vc4kit/qpu.h"

static uint64_t w(uint32_t lo, uint32_t hi) { return (uint64_t)hi << 32 | lo; }

/* xorshift64*: deterministic pseudo-random words */
static uint64_t rng(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

static void test_decode_encode_identity(void)
{
    uint64_t s = 0x9E3779B97F4A7C15u;
    int bad = 0;
    for (int i = 0; i < 1000000; i++) {
        uint64_t word = rng(&s);
        struct vc4_qpu_instr in;
        vc4_qpu_decode(word, &in);
        if (vc4_qpu_encode(&in) != word && bad++ < 5)
            CHECK_MSG(0, "word 0x%016" PRIx64 " re-encodes as 0x%016" PRIx64, word, vc4_qpu_encode(&in));
    }
    CHECK_EQ_INT(bad, 0);
}

static void test_field_table_covers_word(void)
{
    /* Per form, the fields tile all 64 bits exactly once (bit 45 of a branch
     * is raddr_a bit 0, stored once). */
    const unsigned forms[] = {VC4_FORM_ALU, VC4_FORM_LDI, VC4_FORM_BRANCH};
    const unsigned branch_dead = 0; /* 59:56 are kept as unpack/pm */
    (void)branch_dead;
    for (size_t k = 0; k < 3; k++) {
        uint64_t seen = 0;
        for (int f = 0; f < VC4_F_COUNT; f++) {
            const struct vc4_qpu_field_desc *d = &vc4_qpu_field_table[f];
            if (!(d->forms & forms[k]))
                continue;
            uint64_t m = ((d->width == 64) ? ~UINT64_C(0) : ((UINT64_C(1) << d->width) - 1)) << d->shift;
            CHECK_MSG(!(seen & m), "form %u: field %s overlaps", forms[k], d->name);
            seen |= m;
        }
        CHECK_EQ_U64(seen, ~UINT64_C(0));
    }
}

static void test_kinds(void)
{
    struct vc4_qpu_instr in;
    vc4_qpu_decode(VC4_QPU_NOP_WORD, &in);
    CHECK_EQ_INT(in.kind, VC4_QPU_KIND_ALU);
    CHECK_EQ_INT(in.raddr_a, 39);
    CHECK_EQ_INT(in.waddr_mul, 39);
    vc4_qpu_decode(w(0x20820DF7, 0xD14059E5), &in);
    CHECK_EQ_INT(in.kind, VC4_QPU_KIND_ALU_SMALL_IMM);
    vc4_qpu_decode(w(0x17BC1AC2, 0xE0021C67), &in);
    CHECK_EQ_INT(in.kind, VC4_QPU_KIND_LOAD_IMM);
    CHECK_EQ_U64(in.imm, 0x17BC1AC2);
    vc4_qpu_decode(w(0x00000013, 0xE8000000 | 0x9E7), &in); /* mode 4: semaphore */
    CHECK_EQ_INT(in.kind, VC4_QPU_KIND_SEMAPHORE);
    vc4_qpu_decode(w(0xFFFFFFF8, 0xF0F009E7), &in);
    CHECK_EQ_INT(in.kind, VC4_QPU_KIND_BRANCH);
    CHECK_EQ_INT(in.cond_br, VC4_QPU_BCOND_ALWAYS);
    CHECK_EQ_U64(in.imm, 0xFFFFFFF8);
}

/* Seed 002, "read in a uniform and pack to R": the post lists every field. */
static void test_seed_uniform_pack_fields(void)
{
    struct vc4_qpu_instr in;
    vc4_qpu_decode(w(0x20820DF7, 0xD14059E5), &in);
    CHECK_EQ_INT(in.mul_b, 7);
    CHECK_EQ_INT(in.mul_a, 6);
    CHECK_EQ_INT(in.add_b, 7);
    CHECK_EQ_INT(in.add_a, 6);
    CHECK_EQ_INT(in.raddr_b, 32); /* small immediate 1.0f */
    CHECK_EQ_U64(vc4_qpu_small_imm_value(in.raddr_b), 0x3F800000);
    CHECK_EQ_INT(in.raddr_a, 32);
    CHECK_EQ_INT(in.op_add, 0);
    CHECK_EQ_INT(in.op_mul, 1);
    CHECK_EQ_INT(in.waddr_mul, 37);
    CHECK_EQ_INT(in.waddr_add, 39);
    CHECK_EQ_INT(in.ws, 1);
    CHECK_EQ_INT(in.sf, 0);
    CHECK_EQ_INT(in.cond_mul, 1);
    CHECK_EQ_INT(in.cond_add, 0);
    CHECK_EQ_INT(in.pack, 4);
    CHECK_EQ_INT(in.pm, 1);
    CHECK_EQ_INT(in.unpack, 0);
    CHECK_EQ_INT(in.sig, 13);

    char buf[512];
    vc4_qpu_fields(&in, buf, sizeof buf);
    CHECK_STR(buf, "sig=13 unpack=0 pm=1 pack=4 cond_add=0 cond_mul=1 sf=0 ws=1 waddr_add=39 "
                   "waddr_mul=37 op_mul=1 op_add=0 raddr_a=32 raddr_b=32 add_a=6 add_b=7 mul_a=6 mul_b=7");
    vc4_qpu_explain(&in, buf, sizeof buf);
    /* the post: "mul pipe: fmul, dest: ACC5, src1: UNIFORM_READ, src2: float 1.f ... 32->8a (PM1)" */
    CHECK_CONTAINS(buf, "mul pipe: fmul (floating point multiply), dest ACC5, src1 UNIFORM_READ, src2 small immediate 1.0");
    CHECK_CONTAINS(buf, "32->8a");
    CHECK_CONTAINS(buf, "PM1");
    CHECK_CONTAINS(buf, "add op: no operation, add cond: never");
}

/* Seed 002's varyings instruction: the post gives only the fields; the same
 * instruction appears as a word in seed 004 (0x213E3177, 0x11024821). */
static void test_seed_varying_fields(void)
{
    struct vc4_qpu_instr in = {
        .sig = 1, .unpack = 0, .pm = 1, .pack = 0, .cond_add = 1, .cond_mul = 1, .sf = 0,
        .ws = 0, .waddr_add = 32, .waddr_mul = 33, .op_mul = 1, .op_add = 1, .raddr_a = 15,
        .raddr_b = 35, .add_a = 0, .add_b = 5, .mul_a = 6, .mul_b = 7};
    CHECK_EQ_U64(vc4_qpu_encode(&in), w(0x213E3177, 0x11024821));
    char buf[512];
    struct vc4_qpu_instr d;
    vc4_qpu_decode(w(0x213E3177, 0x11024821), &d);
    vc4_qpu_explain(&d, buf, sizeof buf);
    CHECK_CONTAINS(buf, "add pipe: fadd (floating point add), dest ACC0, src1 acc r0, src2 acc r5, cond always");
    CHECK_CONTAINS(buf, "mul pipe: fmul (floating point multiply), dest ACC1, src1 r15a, src2 VARYING_READ, cond always");
    vc4_qpu_disasm(&d, 0, 0, buf, sizeof buf);
    /* pm = 1 with nothing packed ("who cares what this bit is?") is kept as an override */
    CHECK_STR(buf, "fadd r0, r0, r5; fmul r1, ra15, vary; @pm=1");
}

struct dis_case { uint32_t lo, hi; const char *text; };

/* Seed words and the text they must disassemble to (vc4asm syntax). */
static const struct dis_case dis_cases[] = {
    {0x009E7000, 0x100009E7, "nop; nop"},
    {0x009E7000, 0x300009E7, "nop; nop; thrend"},
    {0x009E7000, 0x500009E7, "nop; nop; sbdone"},
    {0x009E7000, 0xA00009E7, "nop; nop; ldtmu0"},
    {0x20820DF7, 0xD14059E5, "nop; fmul r5quad.8a, unif, 1.0; @add_a=6 @add_b=7"},
    {0x15827DF7, 0x10020027, "or ra0, unif, nop; nop; @mul_a=6 @mul_b=7"},
    {0x17BC1AC2, 0xE0021C67, "ldi vw_setup, 0x17bc1ac2"},
    {0x1A341AC0, 0xE0020C67, "ldi vr_setup, 0x1a341ac0"},
    {0x00000000, 0xE0020C27, "ldi vpm, 0"},
    {0x0E004DC0, 0xD2020827, "shr r0, ra0.16a, 4; nop"},
    {0x0E004DC0, 0xD4020867, "shr r1, ra0.16b, 4; nop"},
    {0x159E7000, 0x10020C27, "or vpm, r0, r0; nop"},
    {0x15800DF7, 0xD0021CA7, "or vw_addr, unif, 0; nop; @mul_a=6 @mul_b=7"},
    {0x159E7924, 0x10020BA7, "or tlbc, r4, r4; nop; @mul_a=4 @mul_b=4"},
    {0x013E3377, 0x11020E67, "fadd t0t, r1, r5; nop; read ra15; @pm=1 @raddr_b=35 @mul_a=6 @mul_b=7"},
    {0x15C27DF7, 0x10020027, "or ra0, vpm, nop; nop; @mul_a=6 @mul_b=7"},
    {0x020201C0, 0xD0020827, "fsub r0, r0, 1.0; nop; read ra0"},
};

static void test_seed_disassembly(void)
{
    char buf[512];
    for (size_t i = 0; i < sizeof dis_cases / sizeof dis_cases[0]; i++) {
        struct vc4_qpu_instr in;
        vc4_qpu_decode(w(dis_cases[i].lo, dis_cases[i].hi), &in);
        size_t n = vc4_qpu_disasm(&in, 0, 0, buf, sizeof buf);
        CHECK_EQ_INT(n, strlen(buf));
        CHECK_STR(buf, dis_cases[i].text);
    }
}

static void test_disasm_truncates_safely(void)
{
    struct vc4_qpu_instr in;
    vc4_qpu_decode(w(0x20820DF7, 0xD14059E5), &in);
    char full[512], small[8];
    size_t n = vc4_qpu_disasm(&in, 0, VC4_DIS_EXPLAIN | VC4_DIS_FIELDS, full, sizeof full);
    size_t m = vc4_qpu_disasm(&in, 0, VC4_DIS_EXPLAIN | VC4_DIS_FIELDS, small, sizeof small);
    CHECK_EQ_INT(n, m);
    CHECK_EQ_INT(strlen(small), sizeof small - 1);
    CHECK(strncmp(full, small, sizeof small - 1) == 0);
    CHECK_EQ_INT(vc4_qpu_disasm(&in, 0, 0, NULL, 0), strlen("nop; fmul r5quad.8a, unif, 1.0; @add_a=6 @add_b=7"));
}

static void test_ldi_forms(void)
{
    char buf[256];
    struct vc4_qpu_instr in;
    /* per-element unsigned: element i = 2*bit(16+i) + bit(i) */
    vc4_qpu_decode(w(0x0003000A, 0xE6020827), &in);
    CHECK_EQ_INT(in.unpack, VC4_QPU_LDI_PER_ELEMENT_UNSIGNED);
    vc4_qpu_disasm(&in, 0, 0, buf, sizeof buf);
    CHECK_STR(buf, "ldipeu r0, [2,3,0,1,0,0,0,0,0,0,0,0,0,0,0,0]");
    vc4_qpu_decode(w(0x0003000A, 0xE2020827), &in);
    vc4_qpu_disasm(&in, 0, 0, buf, sizeof buf);
    CHECK_STR(buf, "ldipes r0, [-2,-1,0,1,0,0,0,0,0,0,0,0,0,0,0,0]");
    /* semaphores: bit 4 acquire */
    vc4_qpu_decode(w(0x00000013, 0xE80009E7), &in);
    vc4_qpu_disasm(&in, 0, 0, buf, sizeof buf);
    CHECK_STR(buf, "sacq -, 3");
    vc4_qpu_decode(w(0x00000003, 0xE80009E7), &in);
    vc4_qpu_disasm(&in, 0, 0, buf, sizeof buf);
    CHECK_STR(buf, "srel -, 3");
}

static void test_branch_text(void)
{
    char buf[256];
    struct vc4_qpu_instr in = {.sig = VC4_QPU_SIG_BRANCH, .cond_br = VC4_QPU_BCOND_ANY_ZC,
                               .rel = 1, .waddr_add = 39, .waddr_mul = 39, .imm = (uint32_t)-64};
    vc4_qpu_decode(vc4_qpu_encode(&in), &in);
    vc4_qpu_disasm(&in, 0x100, 0, buf, sizeof buf);
    CHECK_STR(buf, "brr.anynz -, -64  # -> 0x000000e0");
    in.rel = 0;
    in.reg = 1;
    in.raddr_a = 3; /* odd register: sets flags (bit 45) */
    in.waddr_add = 5;
    in.imm = 0x200;
    vc4_qpu_decode(vc4_qpu_encode(&in), &in);
    CHECK_EQ_INT(in.sf, 1);
    vc4_qpu_disasm(&in, 0, 0, buf, sizeof buf);
    CHECK_STR(buf, "bra.anynz ra5, ra3, 0x00000200");
}

static void test_small_immediates(void)
{
    CHECK_EQ_U64(vc4_qpu_small_imm_value(0), 0);
    CHECK_EQ_U64(vc4_qpu_small_imm_value(15), 15);
    CHECK_EQ_U64(vc4_qpu_small_imm_value(16), (uint32_t)-16);
    CHECK_EQ_U64(vc4_qpu_small_imm_value(31), (uint32_t)-1);
    CHECK_EQ_U64(vc4_qpu_small_imm_value(32), 0x3F800000); /* 1.0 */
    CHECK_EQ_U64(vc4_qpu_small_imm_value(39), 0x43000000); /* 128.0 */
    CHECK_EQ_U64(vc4_qpu_small_imm_value(40), 0x3B800000); /* 1/256 */
    CHECK_EQ_U64(vc4_qpu_small_imm_value(47), 0x3F000000); /* 1/2 */
    /* rotation codes still feed file-B muxes -16..-1 (py-videocore test_rotate_as_simm) */
    CHECK_EQ_U64(vc4_qpu_small_imm_value(48), (uint32_t)-16);
    CHECK_EQ_U64(vc4_qpu_small_imm_value(63), (uint32_t)-1);
}

static void test_tables(void)
{
    /* every assigned op has a name, reserved ones none */
    int named = 0;
    for (unsigned op = 0; op < VC4_QPU_A_COUNT; op++)
        named += vc4_qpu_op_add_name(op) != NULL;
    CHECK_EQ_INT(named, 24);
    for (unsigned op = 0; op < VC4_QPU_M_COUNT; op++)
        CHECK(vc4_qpu_op_mul_name(op) != NULL);
    /* every write address has a name in both files */
    for (unsigned f = 0; f < 2; f++)
        for (unsigned a = 0; a < 64; a++)
            CHECK_MSG(vc4_qpu_waddr_name(f, a) != NULL, "waddr %u file %u", a, f);
    CHECK_STR(vc4_qpu_raddr_name(0, 38), "elem_num");
    CHECK_STR(vc4_qpu_raddr_name(1, 38), "qpu_num");
    CHECK_STR(vc4_qpu_waddr_name(0, 37), "r5quad");
    CHECK_STR(vc4_qpu_waddr_name(1, 37), "r5rep");
    CHECK(vc4_qpu_op_add_is_unary(VC4_QPU_A_ITOF));
    CHECK(vc4_qpu_op_add_is_unary(VC4_QPU_A_CLZ));
    CHECK(!vc4_qpu_op_add_is_unary(VC4_QPU_A_FADD));
    CHECK(vc4_qpu_waddr_shared(VC4_QPU_W_VPM));
    CHECK(!vc4_qpu_waddr_shared(VC4_QPU_W_VPMVCD_SETUP));
    CHECK(vc4_qpu_raddr_shared(VC4_QPU_R_UNIF));
    CHECK(!vc4_qpu_raddr_shared(VC4_QPU_R_ELEM_QPU));
}

static void test_canonicalize_idempotent(void)
{
    uint64_t s = 42;
    for (int i = 0; i < 200000; i++) {
        struct vc4_qpu_instr a, b;
        vc4_qpu_decode(rng(&s), &a);
        vc4_qpu_canonicalize(&a);
        b = a;
        vc4_qpu_canonicalize(&b);
        if (vc4_qpu_encode(&a) != vc4_qpu_encode(&b)) {
            CHECK_MSG(0, "not idempotent: 0x%016" PRIx64, vc4_qpu_encode(&a));
            break;
        }
    }
}

static void test_place_operands(void)
{
    /* "or ra0, unif, nop": unif takes A, nop then B (as the seed encodes it) */
    struct vc4_qpu_operand_req req[4] = {
        {.used = 1, .shared = 1, .raddr = 32}, {.used = 1, .shared = 1, .raddr = 39}};
    uint8_t files[4], ra, rb;
    CHECK(vc4_qpu_place_operands(req, false, files, &ra, &rb));
    CHECK_EQ_INT(files[0], 0);
    CHECK_EQ_INT(files[1], 1);
    CHECK_EQ_INT(ra, 32);
    CHECK_EQ_INT(rb, 39);
    /* a pinned A register pushes the shared name to B */
    struct vc4_qpu_operand_req r2[4] = {
        {.used = 1, .shared = 1, .raddr = 32}, {.used = 1, .shared = 0, .file = 0, .raddr = 5}};
    CHECK(vc4_qpu_place_operands(r2, false, files, &ra, &rb));
    CHECK_EQ_INT(files[0], 1);
    /* three different registers cannot be read */
    struct vc4_qpu_operand_req r3[4] = {
        {.used = 1, .file = 0, .raddr = 1}, {.used = 1, .file = 1, .raddr = 2},
        {.used = 1, .shared = 1, .raddr = 32}};
    CHECK(!vc4_qpu_place_operands(r3, false, files, &ra, &rb));
    /* with a small immediate, B is taken */
    struct vc4_qpu_operand_req r4[4] = {{.used = 1, .file = 0, .raddr = 1}, {.used = 1, .shared = 1, .raddr = 32}};
    CHECK(!vc4_qpu_place_operands(r4, true, files, &ra, &rb));
}

TEST_LIST(test_decode_encode_identity, test_field_table_covers_word, test_kinds,
          test_seed_uniform_pack_fields, test_seed_varying_fields, test_seed_disassembly,
          test_disasm_truncates_safely, test_ldi_forms, test_branch_text, test_small_immediates,
          test_tables, test_canonicalize_idempotent, test_place_operands)
