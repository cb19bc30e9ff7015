/*
 * test_asm.c - the assembler: instruction text -> word tables, directives,
 * labels and branches, diagnostics with line:col, hostile inputs.
 */
#include "harness.h"

#include "vc4kit/qpu.h"

static uint64_t as1(const char *line)
{
    struct vc4_qpu_instr in;
    struct harness_diags d;
    struct vc4_diag_sink sink = harness_sink(&d);
    if (vc4_qpu_assemble(line, 0, &in, &sink) != VC4_OK) {
        fprintf(stderr, "  assemble failed: %s: %s", line, d.text);
        return 0xDEADDEADDEADDEADu;
    }
    return vc4_qpu_encode(&in);
}

static void test_basic_words(void)
{
    /* exact words from the field layout (facts table 1) */
    CHECK_EQ_U64(as1("nop"), VC4_QPU_NOP_WORD);
    CHECK_EQ_U64(as1("thrend"), UINT64_C(0x300009e7009e7000));
    CHECK_EQ_U64(as1("nop; nop; thrend"), UINT64_C(0x300009e7009e7000));
    /* fadd r0, r1, r2: sig 1, cond_add 1, waddr_add 32, waddr_mul 39, op_add 1, muxes 1,2 */
    CHECK_EQ_U64(as1("fadd r0, r1, r2"), UINT64_C(0x10020827019e7280));
    /* ldi r0, 0x12345678: sig 14, cond_add 1, waddr_add 32, waddr_mul 39 */
    CHECK_EQ_U64(as1("ldi r0, 0x12345678"), UINT64_C(0xe0020827) << 32 | 0x12345678);
    /* mov alone with a constant becomes ldi (vc4asm optimize) */
    CHECK_EQ_U64(as1("mov r0, 5"), UINT64_C(0xe0020827) << 32 | 5);
    CHECK_EQ_U64(as1("mov r0, 0"), UINT64_C(0xe0020827) << 32 | 0);
    CHECK_EQ_U64(as1("mov r0, 1.0"), UINT64_C(0xe0020827) << 32 | 0x3f800000);
    /* sacq: sig 14 mode 4, imm bit 4 = acquire; no write -> cond never */
    CHECK_EQ_U64(as1("sacq -, 3"), UINT64_C(0xe80009e7) << 32 | 0x13);
    CHECK_EQ_U64(as1("srel -, 3"), UINT64_C(0xe80009e7) << 32 | 0x03);
    CHECK_EQ_U64(as1("mov -, sacq9"), UINT64_C(0xe80009e7) << 32 | 0x19);
    /* brr -, +32 : sig 15, cond always (15), rel 1 */
    CHECK_EQ_U64(as1("brr -, +32"), UINT64_C(0xf0f809e7) << 32 | 32);
    CHECK_EQ_U64(as1("bra -, 0x100"), UINT64_C(0xf0f009e7) << 32 | 0x100);
}

/* Text -> text: the disassembly of the assembled word equals the expected text. */
static void check_dis(const char *src, const char *want)
{
    struct vc4_qpu_instr in;
    struct harness_diags d;
    struct vc4_diag_sink sink = harness_sink(&d);
    enum vc4_status st = vc4_qpu_assemble(src, 0, &in, &sink);
    CHECK_MSG(st == VC4_OK, "'%s' failed: %s", src, d.text);
    if (st != VC4_OK)
        return;
    char buf[512];
    vc4_qpu_disasm(&in, 0, 0, buf, sizeof buf);
    CHECK_MSG(strcmp(buf, want) == 0, "'%s' -> '%s', want '%s'", src, buf, want);
}

static void test_ops_conditions_signals(void)
{
    /* every add op */
    static const char *const add_ops[] = {"fadd", "fsub", "fmin", "fmax", "fminabs", "fmaxabs",
                                          "add", "sub", "shr", "asr", "ror", "shl", "min", "max",
                                          "and", "or", "xor"};
    for (size_t i = 0; i < sizeof add_ops / sizeof *add_ops; i++) {
        char src[128], want[128];
        snprintf(src, sizeof src, "%s r0, r1, r2", add_ops[i]);
        snprintf(want, sizeof want, "%s r0, r1, r2; nop", add_ops[i]);
        check_dis(src, want);
    }
    static const char *const unary[] = {"ftoi", "itof", "not", "clz"};
    for (size_t i = 0; i < 4; i++) {
        char src[128], want[128];
        snprintf(src, sizeof src, "%s r0, r1", unary[i]);
        snprintf(want, sizeof want, "%s r0, r1; nop", unary[i]);
        check_dis(src, want);
    }
    static const char *const mul_ops[] = {"fmul", "mul24", "v8muld", "v8min", "v8max"};
    for (size_t i = 0; i < 5; i++) {
        char src[128], want[128];
        snprintf(src, sizeof src, "nop; %s r0, r1, r2", mul_ops[i]);
        snprintf(want, sizeof want, "nop; %s r0, r1, r2", mul_ops[i]);
        check_dis(src, want);
    }
    /* v8adds/v8subs are MUL ops (vc4asm's opcode table) that fall back to the
     * ADD ALU when the MUL ALU is taken; av8adds/mv8adds tie them to an ALU */
    check_dis("v8adds r0, r1, r2", "nop; v8adds r0, r1, r2");
    check_dis("v8subs r0, r1, r2", "nop; v8subs r0, r1, r2");
    check_dis("fadd r0, r1, r2; v8adds r3, r1, r2", "fadd r0, r1, r2; v8adds r3, r1, r2");
    check_dis("fmul r0, r1, r2; v8adds r3, r1, r2", "av8adds r3, r1, r2; fmul r0, r1, r2");
    check_dis("v8adds r3, r1, r2; fmul r0, r1, r2", "av8adds r3, r1, r2; fmul r0, r1, r2");
    check_dis("av8subs r0, r1, r2", "av8subs r0, r1, r2; nop");
    check_dis("mv8adds r0, r0, r1", "nop; v8adds r0, r0, r1");
    /* an op already placed moves to the free ALU when the other can compute it
     * (vc4asm tryALUSwap); amov/mmov tie a mov */
    check_dis("and r0, r1, r1; add r2, r3, r4", "add r2, r3, r4; v8min r0, r1, r1");
    check_dis("v8max r0, r1, r1; fmul r2, r3, r4", "or r0, r1, r1; fmul r2, r3, r4");
    check_dis("mmov r0, r1", "nop; v8min r0, r1, r1");
    check_dis("nop; fadd r0, r1, r2", "fadd r0, r1, r2; nop");
    /* conditions, also as destination suffix; ifnc = ifcc */
    static const char *const conds[] = {"ifz", "ifnz", "ifn", "ifnn", "ifc", "ifcc"};
    for (size_t i = 0; i < 6; i++) {
        char src[128], want[128];
        snprintf(src, sizeof src, "add.%s r0, r1, r2; fmul r3.%s, r1, r2", conds[i], conds[i]);
        snprintf(want, sizeof want, "add.%s r0, r1, r2; fmul.%s r3, r1, r2", conds[i], conds[i]);
        check_dis(src, want);
    }
    check_dis("add.ifnc r0, r1, r2", "add.ifcc r0, r1, r2; nop");
    check_dis("add.never r0, r1, r2", "add.never r0, r1, r2; nop");
    /* .setf on add, and on mul when the add ALU is nop */
    check_dis("sub.setf -, r0, r1", "sub.setf -, r0, r1; nop");
    check_dis("nop; fmul.setf r0, r1, r2", "nop; fmul.setf r0, r1, r2");
    /* '-' destination without flags: cond never (vc4asm) */
    CHECK_EQ_U64((as1("add -, r0, r1") >> 49) & 7, 0);
    /* signals */
    static const char *const sigs[] = {"bkpt", "thrsw", "thrend", "sbwait", "sbdone", "lthrsw",
                                       "loadcv", "loadc", "ldcend", "ldtmu0", "ldtmu1", "loadam"};
    static const unsigned sigcode[] = {0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    for (size_t i = 0; i < 12; i++) {
        char src[128];
        snprintf(src, sizeof src, "mov r0, r4; %s", sigs[i]);
        CHECK_EQ_U64(as1(src) >> 60, sigcode[i]);
    }
}

static void test_mov_and_immediates(void)
{
    /* register mov: add "or", or mul "v8min" when the add ALU is taken */
    check_dis("mov r0, r1", "or r0, r1, r1; nop");
    check_dis("fadd r0, r1, r2; mov r3, r1", "fadd r0, r1, r2; v8min r3, r1, r1");
    check_dis("mov r3, r1; fadd r0, r1, r2", "fadd r0, r1, r2; v8min r3, r1, r1");
    check_dis("nop; mov r0, r1", "nop; v8min r0, r1, r1");
    /* rotation: mul only */
    check_dis("mov r0, r1 >> 2", "nop; v8min.rot 2, r0, r1, r1");
    check_dis("mov r0, r1 << 2", "nop; v8min.rot 14, r0, r1, r1");
    check_dis("mov r0, r1 >> r5", "nop; v8min.rot r5, r0, r1, r1");
    check_dis("nop; fmul.rot 3, r0, r1, r2", "nop; fmul.rot 3, r0, r1, r2");
    /* small immediates with another op in the line: tricks */
    check_dis("mov r0, 1; fmul r1, r2, r3", "or r0, 1, 1; fmul r1, r2, r3");
    check_dis("mov r0, 16; fmul r1, r2, r3", "add r0, 8, 8; fmul r1, r2, r3");
    check_dis("fadd r1, r2, r3; mov r0, 16", "fadd r1, r2, r3; mul24 r0, 4, 4");
    check_dis("mov r0, 0; fmul r1, r2, r3", "xor r0, rb39, rb39; fmul r1, r2, r3");
    /* a float small immediate */
    check_dis("fmul r0, r1, 2.0", "nop; fmul r0, r1, 2.0");
    check_dis("fadd r0, r1, 0.5", "fadd r0, r1, 1./2; nop");
    /* add 16 = sub -16; shift counts keep 5 bits */
    check_dis("add r0, r1, 16", "sub r0, r1, -16; nop");
    check_dis("shl r0, r1, 24", "shl r0, r1, -8; nop");
    /* big constants with another op cannot be encoded */
    struct vc4_qpu_instr in;
    CHECK(vc4_qpu_assemble("mov r0, 0x12345; fmul r1, r2, r3", 0, &in, NULL) != VC4_OK);
}

static void test_pack_unpack_files(void)
{
    check_dis("fadd ra0.16a, r1, r2", "fadd ra0.16a, r1, r2; nop");
    check_dis("add ra0.32s, r1, r2", "add ra0.32s, r1, r2; nop");
    check_dis("nop; fmul r0.8a, r1, r2", "nop; fmul r0.8a, r1, r2");
    check_dis("nop; fmul r0.8abcd, r1, r2", "nop; fmul r0.8abcd, r1, r2");
    CHECK_EQ_U64((as1("nop; fmul r0.8a, r1, r2") >> 56) & 1, 1); /* pm 1 */
    CHECK_EQ_U64((as1("fadd ra0.8a, r1, r2") >> 56) & 1, 0);     /* pm 0 */
    /* saturated 8-bit packs on the MUL ALU to a non-regfile target: pm 1 (vc4asm) */
    CHECK_EQ_U64((as1("nop; mov vpm.8as, r0") >> 52) & 0x1F, 0x14);
    /* unpack: regfile A -> pm 0, r4 -> pm 1 */
    check_dis("fadd r0, ra1.16a, r2", "fadd r0, ra1.16a, r2; nop");
    check_dis("fadd r0, r4.8b, r2", "fadd r0, r4.8b, r2; nop");
    CHECK_EQ_U64((as1("fadd r0, r4.8b, r2") >> 56) & 1, 1);
    /* ws from names: add writing regfile B / mul writing regfile A */
    CHECK_EQ_U64((as1("add rb0, r1, r2") >> 44) & 1, 1);
    CHECK_EQ_U64((as1("nop; fmul ra0, r1, r2") >> 44) & 1, 1);
    CHECK_EQ_U64((as1("add r0, r1, r2; fmul rb0, r1, r2") >> 44) & 1, 0);
    /* shared names: A first, reuse, then B */
    check_dis("fadd r0, unif, unif", "fadd r0, unif, unif; nop");
    check_dis("fadd r0, ra1, unif", "fadd r0, ra1, unif; nop");
    CHECK_EQ_U64((as1("fadd r0, ra1, unif") >> 12) & 63, 32); /* unif in B */
    check_dis("fadd r0, ra63, rb63", "fadd r0, ra63, rb63; nop");
    /* conflicts */
    struct vc4_qpu_instr in;
    CHECK(vc4_qpu_assemble("fadd r0, ra1, ra2", 0, &in, NULL) != VC4_OK);
    CHECK(vc4_qpu_assemble("fadd r0, rb1, 2", 0, &in, NULL) != VC4_OK);
    CHECK(vc4_qpu_assemble("add ra0, r1, r2; fmul ra1, r1, r2", 0, &in, NULL) != VC4_OK);
}

static void test_ldi_branch_forms(void)
{
    check_dis("ldi ra0, rb1, 0x12345678", "ldi ra0, rb1, 0x12345678");
    check_dis("ldi r0.ifz, 5", "ldi r0.ifz, 5");
    check_dis("ldi ra0.8a, 5", "ldi ra0.8a, 5");
    check_dis("ldi r0, [0,1,-1,-2,0,1,-1,-2,0,1,-1,-2,0,1,-1,-2]",
              "ldipes r0, [0,1,-1,-2,0,1,-1,-2,0,1,-1,-2,0,1,-1,-2]");
    check_dis("ldi r0, [0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,3]",
              "ldipeu r0, [0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,3]");
    check_dis("ldipeu r0, [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1]",
              "ldipeu r0, [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1]");
    check_dis("ldi.setf r0, -1", "ldi.setf r0, -1");
    check_dis("sacq -, 15", "sacq -, 15");
    check_dis("srel r0, 2", "srel r0, 2");
    check_dis("brr.anyz -, -64", "brr.anyz -, -64  # -> 0xffffffe0");
    check_dis("bra.allnz ra1, 0x100", "bra.allnz ra1, 0x00000100");
    check_dis("brr ra0, r1, ra5, +16", "brr ra0, r1, ra5, +16  # -> 0x00000030 + ra");
    check_dis("bra -, ra5", "bra -, ra5, 0x00000000");
}

/* internal: the binary-searched name tables are in order */
bool asm_reg_table_sorted(void);
bool asm_op_table_sorted(void);

static void test_lookup_tables(void)
{
    CHECK(asm_reg_table_sorted());
    CHECK(asm_op_table_sorted());
    /* every named ADD op is found through the table */
    static const char *const all[] = {"fadd", "fsub", "fmin", "fmax", "fminabs", "fmaxabs", "ftoi",
                                      "itof", "add", "sub", "shr", "asr", "ror", "shl", "min", "max",
                                      "and", "or", "xor", "not", "clz", "av8adds", "av8subs"};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        char src[64];
        snprintf(src, sizeof src, "%s r0, r1, r2", all[i]);
        struct vc4_qpu_instr in;
        bool unary = !strcmp(all[i], "ftoi") || !strcmp(all[i], "itof") || !strcmp(all[i], "not") ||
                     !strcmp(all[i], "clz");
        if (unary)
            snprintf(src, sizeof src, "%s r0, r1", all[i]);
        CHECK_MSG(vc4_qpu_assemble(src, 0, &in, NULL) == VC4_OK, "%s", src);
    }
}

TEST_LIST(test_lookup_tables, test_basic_words, test_ops_conditions_signals, test_mov_and_immediates,
          test_pack_unpack_files, test_ldi_branch_forms)
