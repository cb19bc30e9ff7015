/*
 * qpu_tables.c - the QPU instruction set as data: field positions, opcodes,
 * register names, signals, conditions, pack/unpack modes, small immediates.
 *
 * Codes and positions: Mesa vc4_qpu_defines.h and the Broadcom reference
 * guide (tables 2-9); mnemonics: vc4asm (Disassembler.tables.cpp, the
 * dialect existing QPU sources are written in); errata: the vc4asm addendum.
 */
#include <assert.h>
#include <string.h>

#include "spec/qpu_spec.h"

#define FIELD(id, nm, sh, wd, fm, member)                                      \
    [id] = {.name = nm, .shift = sh, .width = wd, .forms = fm,                 \
            .offset = offsetof(struct vc4_qpu_instr, member), .is32 = 0}

#define A_L (VC4_FORM_ALU | VC4_FORM_LDI)
#define ALL (VC4_FORM_ALU | VC4_FORM_LDI | VC4_FORM_BRANCH)

const struct vc4_qpu_field_desc vc4_qpu_field_table[VC4_F_COUNT] = {
    FIELD(VC4_F_SIG, "sig", 60, 4, ALL, sig),
    /* bits 59:56 exist in every form; in a branch they mean nothing */
    FIELD(VC4_F_UNPACK, "unpack", 57, 3, ALL, unpack),
    FIELD(VC4_F_PM, "pm", 56, 1, ALL, pm),
    FIELD(VC4_F_PACK, "pack", 52, 4, A_L, pack),
    FIELD(VC4_F_COND_ADD, "cond_add", 49, 3, A_L, cond_add),
    FIELD(VC4_F_COND_MUL, "cond_mul", 46, 3, A_L, cond_mul),
    FIELD(VC4_F_SF, "sf", 45, 1, A_L, sf),
    FIELD(VC4_F_WS, "ws", 44, 1, ALL, ws),
    FIELD(VC4_F_WADDR_ADD, "waddr_add", 38, 6, ALL, waddr_add),
    FIELD(VC4_F_WADDR_MUL, "waddr_mul", 32, 6, ALL, waddr_mul),
    FIELD(VC4_F_OP_MUL, "op_mul", 29, 3, VC4_FORM_ALU, op_mul),
    FIELD(VC4_F_OP_ADD, "op_add", 24, 5, VC4_FORM_ALU, op_add),
    FIELD(VC4_F_RADDR_A, "raddr_a", 18, 6, VC4_FORM_ALU, raddr_a),
    FIELD(VC4_F_RADDR_B, "raddr_b", 12, 6, VC4_FORM_ALU, raddr_b),
    FIELD(VC4_F_ADD_A, "add_a", 9, 3, VC4_FORM_ALU, add_a),
    FIELD(VC4_F_ADD_B, "add_b", 6, 3, VC4_FORM_ALU, add_b),
    FIELD(VC4_F_MUL_A, "mul_a", 3, 3, VC4_FORM_ALU, mul_a),
    FIELD(VC4_F_MUL_B, "mul_b", 0, 3, VC4_FORM_ALU, mul_b),
    [VC4_F_IMM] = {.name = "imm", .shift = 0, .width = 32,
                   .forms = VC4_FORM_LDI | VC4_FORM_BRANCH,
                   .offset = offsetof(struct vc4_qpu_instr, imm), .is32 = 1},
    FIELD(VC4_F_COND_BR, "cond_br", 52, 4, VC4_FORM_BRANCH, cond_br),
    FIELD(VC4_F_REL, "rel", 51, 1, VC4_FORM_BRANCH, rel),
    FIELD(VC4_F_REG, "reg", 50, 1, VC4_FORM_BRANCH, reg),
    /* raddr_a of a branch is 5 bits; its bit 0 is bit 45, the ALU's sf */
    FIELD(VC4_F_BR_RADDR_A, "raddr_a", 45, 5, VC4_FORM_BRANCH, raddr_a),
};

static_assert(sizeof(vc4_qpu_field_table) / sizeof(vc4_qpu_field_table[0]) == VC4_F_COUNT,
              "one descriptor per field");

unsigned vc4_qpu_forms_of(const struct vc4_qpu_instr *in)
{
    switch (in->sig) {
    case VC4_QPU_SIG_BRANCH:
        return VC4_FORM_BRANCH;
    case VC4_QPU_SIG_LOAD_IMM:
        return VC4_FORM_LDI;
    default:
        return VC4_FORM_ALU;
    }
}

uint32_t vc4_qpu_field_get(const struct vc4_qpu_instr *in, enum vc4_qpu_field f)
{
    const struct vc4_qpu_field_desc *d = &vc4_qpu_field_table[f];
    const unsigned char *p = (const unsigned char *)in + d->offset;
    if (d->is32) {
        uint32_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    return *p;
}

void vc4_qpu_field_set(struct vc4_qpu_instr *in, enum vc4_qpu_field f, uint32_t v)
{
    const struct vc4_qpu_field_desc *d = &vc4_qpu_field_table[f];
    unsigned char *p = (unsigned char *)in + d->offset;
    if (d->is32)
        memcpy(p, &v, sizeof v);
    else
        *p = (unsigned char)(v & ((1u << d->width) - 1u));
}

int vc4_qpu_field_lookup(const char *name, size_t len, unsigned forms)
{
    for (int f = 0; f < VC4_F_COUNT; f++) {
        const struct vc4_qpu_field_desc *d = &vc4_qpu_field_table[f];
        if ((d->forms & forms) && strlen(d->name) == len && memcmp(d->name, name, len) == 0)
            return f;
    }
    return -1;
}

/* ---- opcodes ---------------------------------------------------------- */

#define OP(code, nm, hwname, fl, un) [code] = {.name = nm, .hw = hwname, .is_float = fl, .unary = un}

const struct vc4_qpu_op_desc vc4_qpu_add_ops[VC4_QPU_A_COUNT] = {
    OP(VC4_QPU_A_NOP, "nop", "no operation", 0, 0),
    OP(VC4_QPU_A_FADD, "fadd", "floating point add", 1, 0),
    OP(VC4_QPU_A_FSUB, "fsub", "floating point subtract", 1, 0),
    OP(VC4_QPU_A_FMIN, "fmin", "floating point min", 1, 0),
    OP(VC4_QPU_A_FMAX, "fmax", "floating point max", 1, 0),
    OP(VC4_QPU_A_FMINABS, "fminabs", "floating point min of absolute values", 1, 0),
    OP(VC4_QPU_A_FMAXABS, "fmaxabs", "floating point max of absolute values", 1, 0),
    /* ftoi reads a float; its result is an integer */
    OP(VC4_QPU_A_FTOI, "ftoi", "floating point to signed integer", 1, 1),
    OP(VC4_QPU_A_ITOF, "itof", "signed integer to floating point", 0, 1),
    OP(VC4_QPU_A_ADD, "add", "integer add", 0, 0),
    OP(VC4_QPU_A_SUB, "sub", "integer subtract", 0, 0),
    OP(VC4_QPU_A_SHR, "shr", "integer shift right", 0, 0),
    OP(VC4_QPU_A_ASR, "asr", "integer arithmetic shift right", 0, 0),
    OP(VC4_QPU_A_ROR, "ror", "integer rotate right", 0, 0),
    OP(VC4_QPU_A_SHL, "shl", "integer shift left", 0, 0),
    OP(VC4_QPU_A_MIN, "min", "integer min", 0, 0),
    OP(VC4_QPU_A_MAX, "max", "integer max", 0, 0),
    OP(VC4_QPU_A_AND, "and", "bitwise AND", 0, 0),
    OP(VC4_QPU_A_OR, "or", "bitwise OR", 0, 0),
    OP(VC4_QPU_A_XOR, "xor", "bitwise XOR", 0, 0),
    OP(VC4_QPU_A_NOT, "not", "bitwise NOT", 0, 1),
    OP(VC4_QPU_A_CLZ, "clz", "count leading zeroes", 0, 1),
    OP(VC4_QPU_A_V8ADDS, "v8adds", "per-byte add, saturating", 0, 0),
    OP(VC4_QPU_A_V8SUBS, "v8subs", "per-byte subtract, saturating", 0, 0),
};

const struct vc4_qpu_op_desc vc4_qpu_mul_ops[VC4_QPU_M_COUNT] = {
    OP(VC4_QPU_M_NOP, "nop", "no operation", 0, 0),
    OP(VC4_QPU_M_FMUL, "fmul", "floating point multiply", 1, 0),
    OP(VC4_QPU_M_MUL24, "mul24", "24-bit integer multiply", 0, 0),
    OP(VC4_QPU_M_V8MULD, "v8muld", "per-byte multiply (a*b/255)", 0, 0),
    OP(VC4_QPU_M_V8MIN, "v8min", "per-byte min", 0, 0),
    OP(VC4_QPU_M_V8MAX, "v8max", "per-byte max", 0, 0),
    OP(VC4_QPU_M_V8ADDS, "v8adds", "per-byte add, saturating", 0, 0),
    OP(VC4_QPU_M_V8SUBS, "v8subs", "per-byte subtract, saturating", 0, 0),
};

static_assert(sizeof(vc4_qpu_add_ops) / sizeof(vc4_qpu_add_ops[0]) == VC4_QPU_A_COUNT, "add ops");
static_assert(sizeof(vc4_qpu_mul_ops) / sizeof(vc4_qpu_mul_ops[0]) == VC4_QPU_M_COUNT, "mul ops");

/* ---- registers -------------------------------------------------------- */

#define R(addr, nm, hwname) [addr] = {.name = nm, .hw = hwname}
#define PHYS(f)                                                                \
    R(0, #f "0", NULL), R(1, #f "1", NULL), R(2, #f "2", NULL), R(3, #f "3", NULL),         \
    R(4, #f "4", NULL), R(5, #f "5", NULL), R(6, #f "6", NULL), R(7, #f "7", NULL),         \
    R(8, #f "8", NULL), R(9, #f "9", NULL), R(10, #f "10", NULL), R(11, #f "11", NULL),     \
    R(12, #f "12", NULL), R(13, #f "13", NULL), R(14, #f "14", NULL), R(15, #f "15", NULL), \
    R(16, #f "16", NULL), R(17, #f "17", NULL), R(18, #f "18", NULL), R(19, #f "19", NULL), \
    R(20, #f "20", NULL), R(21, #f "21", NULL), R(22, #f "22", NULL), R(23, #f "23", NULL), \
    R(24, #f "24", NULL), R(25, #f "25", NULL), R(26, #f "26", NULL), R(27, #f "27", NULL), \
    R(28, #f "28", NULL), R(29, #f "29", NULL), R(30, #f "30", NULL), R(31, #f "31", NULL)

/* Read addresses (reference guide table 14). Unassigned ones are NULL and
 * print as the raw "ra33"/"rb33" forms. */
const struct vc4_qpu_reg_desc vc4_qpu_read_regs[2][64] = {
    [0] = {PHYS(ra),
           R(VC4_QPU_R_UNIF, "unif", "UNIFORM_READ"),
           R(VC4_QPU_R_VARY, "vary", "VARYING_READ"),
           R(VC4_QPU_R_ELEM_QPU, "elem_num", "ELEMENT_NUMBER"),
           R(VC4_QPU_R_NOP, "nop", "NOP"),
           R(VC4_QPU_R_XY_COORD, "x_coord", "X_PIXEL_COORD"),
           R(VC4_QPU_R_MS_REV, "ms_mask", "MS_FLAGS"),
           R(VC4_QPU_R_VPM, "vpm", "VPM_READ"),
           R(VC4_QPU_R_VPM_BUSY, "vr_busy", "VPM_LD_BUSY"),
           R(VC4_QPU_R_VPM_WAIT, "vr_wait", "VPM_LD_WAIT"),
           R(VC4_QPU_R_MUTEX_ACQUIRE, "mutex", "MUTEX_ACQUIRE")},
    [1] = {PHYS(rb),
           R(VC4_QPU_R_UNIF, "unif", "UNIFORM_READ"),
           R(VC4_QPU_R_VARY, "vary", "VARYING_READ"),
           R(VC4_QPU_R_ELEM_QPU, "qpu_num", "QPU_NUMBER"),
           R(VC4_QPU_R_NOP, "nop", "NOP"),
           R(VC4_QPU_R_XY_COORD, "y_coord", "Y_PIXEL_COORD"),
           R(VC4_QPU_R_MS_REV, "rev_flag", "REV_FLAG"),
           R(VC4_QPU_R_VPM, "vpm", "VPM_READ"),
           R(VC4_QPU_R_VPM_BUSY, "vw_busy", "VPM_ST_BUSY"),
           R(VC4_QPU_R_VPM_WAIT, "vw_wait", "VPM_ST_WAIT"),
           R(VC4_QPU_R_MUTEX_ACQUIRE, "mutex", "MUTEX_ACQUIRE")},
};

#define W_COMMON                                                               \
    R(VC4_QPU_W_ACC0, "r0", "ACC0"), R(VC4_QPU_W_ACC1, "r1", "ACC1"),          \
    R(VC4_QPU_W_ACC2, "r2", "ACC2"), R(VC4_QPU_W_ACC3, "r3", "ACC3"),          \
    R(VC4_QPU_W_TMU_NOSWAP, "tmurs", "TMU_NOSWAP"),                            \
    R(VC4_QPU_W_HOST_INT, "irq", "HOST_INT"),                                  \
    R(VC4_QPU_W_NOP, "-", "NOP"),                                              \
    R(VC4_QPU_W_TLB_STENCIL_SETUP, "stencil", "TLB_STENCIL_SETUP"),            \
    R(VC4_QPU_W_TLB_Z, "tlbz", "TLB_Z"),                                       \
    R(VC4_QPU_W_TLB_COLOR_MS, "tlbm", "TLB_COLOUR_MS"),                        \
    R(VC4_QPU_W_TLB_COLOR_ALL, "tlbc", "TLB_COLOUR_ALL"),                      \
    R(VC4_QPU_W_TLB_ALPHA_MASK, "tlbam", "TLB_ALPHA_MASK"),                    \
    R(VC4_QPU_W_VPM, "vpm", "VPM_WRITE"),                                      \
    R(VC4_QPU_W_MUTEX_RELEASE, "mutex", "MUTEX_RELEASE"),                      \
    R(VC4_QPU_W_SFU_RECIP, "recip", "SFU_RECIP"),                              \
    R(VC4_QPU_W_SFU_RECIPSQRT, "recipsqrt", "SFU_RECIPSQRT"),                  \
    R(VC4_QPU_W_SFU_EXP, "exp", "SFU_EXP"),                                    \
    R(VC4_QPU_W_SFU_LOG, "log", "SFU_LOG"),                                    \
    R(VC4_QPU_W_TMU0_S, "t0s", "TMU0_S"), R(VC4_QPU_W_TMU0_T, "t0t", "TMU0_T"), \
    R(VC4_QPU_W_TMU0_R, "t0r", "TMU0_R"), R(VC4_QPU_W_TMU0_B, "t0b", "TMU0_B"), \
    R(VC4_QPU_W_TMU1_S, "t1s", "TMU1_S"), R(VC4_QPU_W_TMU1_T, "t1t", "TMU1_T"), \
    R(VC4_QPU_W_TMU1_R, "t1r", "TMU1_R"), R(VC4_QPU_W_TMU1_B, "t1b", "TMU1_B")

/* Write addresses (reference guide table 14). Every address has a meaning. */
const struct vc4_qpu_reg_desc vc4_qpu_write_regs[2][64] = {
    [0] = {PHYS(ra), W_COMMON,
           R(VC4_QPU_W_ACC5, "r5quad", "ACC5"),
           R(VC4_QPU_W_UNIFORMS_ADDRESS, "unif_addr", "UNIFORMS_ADDRESS"),
           R(VC4_QPU_W_QUAD_XY, "x_coord", "QUAD_X"),
           R(VC4_QPU_W_MS_FLAGS_REV, "ms_mask", "MS_FLAGS"),
           R(VC4_QPU_W_VPMVCD_SETUP, "vr_setup", "VPMVCD_RD_SETUP"),
           R(VC4_QPU_W_VPM_ADDR, "vr_addr", "VPM_LD_ADDR")},
    [1] = {PHYS(rb), W_COMMON,
           R(VC4_QPU_W_ACC5, "r5rep", "ACC5"),
           R(VC4_QPU_W_UNIFORMS_ADDRESS, "unif_addr_rel", "UNIFORMS_ADDRESS"),
           R(VC4_QPU_W_QUAD_XY, "y_coord", "QUAD_Y"),
           R(VC4_QPU_W_MS_FLAGS_REV, "rev_flag", "REV_FLAG"),
           R(VC4_QPU_W_VPMVCD_SETUP, "vw_setup", "VPMVCD_WR_SETUP"),
           R(VC4_QPU_W_VPM_ADDR, "vw_addr", "VPM_ST_ADDR")},
};

/* ---- signals ---------------------------------------------------------- */

#define S(code, nm, hwname) [code] = {.name = nm, .hw = hwname}
const struct vc4_qpu_sig_desc vc4_qpu_sigs[VC4_QPU_SIG_COUNT] = {
    S(VC4_QPU_SIG_BREAK, "bkpt", "software breakpoint"),
    S(VC4_QPU_SIG_NONE, NULL, "no signal"),
    S(VC4_QPU_SIG_THREAD_SWITCH, "thrsw", "thread switch"),
    S(VC4_QPU_SIG_PROG_END, "thrend", "program end"),
    S(VC4_QPU_SIG_WAIT_FOR_SCOREBOARD, "sbwait", "wait for scoreboard"),
    S(VC4_QPU_SIG_SCOREBOARD_UNLOCK, "sbdone", "scoreboard unlock"),
    S(VC4_QPU_SIG_LAST_THREAD_SWITCH, "lthrsw", "last thread switch"),
    S(VC4_QPU_SIG_COVERAGE_LOAD, "loadcv", "coverage load from tile buffer to r4"),
    S(VC4_QPU_SIG_COLOR_LOAD, "loadc", "colour load from tile buffer to r4"),
    S(VC4_QPU_SIG_COLOR_LOAD_END, "ldcend", "colour load and program end"),
    S(VC4_QPU_SIG_LOAD_TMU0, "ldtmu0", "load data from tmu0 to r4"),
    S(VC4_QPU_SIG_LOAD_TMU1, "ldtmu1", "load data from tmu1 to r4"),
    S(VC4_QPU_SIG_ALPHA_MASK_LOAD, "loadam", "alpha-coverage mask load from tile buffer to r4"),
    S(VC4_QPU_SIG_SMALL_IMM, NULL, "small immediate"),
    S(VC4_QPU_SIG_LOAD_IMM, NULL, "load immediate"),
    S(VC4_QPU_SIG_BRANCH, NULL, "branch"),
};
static_assert(sizeof(vc4_qpu_sigs) / sizeof(vc4_qpu_sigs[0]) == VC4_QPU_SIG_COUNT, "signals");

/* ---- conditions, pack, unpack, small immediates ------------------------ */

static const char *const cond_suffix[VC4_QPU_COND_COUNT] = {
    [VC4_QPU_COND_NEVER] = ".never", [VC4_QPU_COND_ALWAYS] = "",
    [VC4_QPU_COND_ZS] = ".ifz",      [VC4_QPU_COND_ZC] = ".ifnz",
    [VC4_QPU_COND_NS] = ".ifn",      [VC4_QPU_COND_NC] = ".ifnn",
    [VC4_QPU_COND_CS] = ".ifc",      [VC4_QPU_COND_CC] = ".ifcc",
};

static const char *const branch_cond_suffix[VC4_QPU_BCOND_COUNT] = {
    [VC4_QPU_BCOND_ALL_ZS] = ".allz",  [VC4_QPU_BCOND_ALL_ZC] = ".allnz",
    [VC4_QPU_BCOND_ANY_ZS] = ".anyz",  [VC4_QPU_BCOND_ANY_ZC] = ".anynz",
    [VC4_QPU_BCOND_ALL_NS] = ".alln",  [VC4_QPU_BCOND_ALL_NC] = ".allnn",
    [VC4_QPU_BCOND_ANY_NS] = ".anyn",  [VC4_QPU_BCOND_ANY_NC] = ".anynn",
    [VC4_QPU_BCOND_ALL_CS] = ".allc",  [VC4_QPU_BCOND_ALL_CC] = ".allnc",
    [VC4_QPU_BCOND_ANY_CS] = ".anyc",  [VC4_QPU_BCOND_ANY_CC] = ".anync",
    [VC4_QPU_BCOND_ALWAYS] = "",
};

static const char *const pack_a_suffix[VC4_QPU_PACK_A_COUNT] = {
    [VC4_QPU_PACK_A_NOP] = "",          [VC4_QPU_PACK_A_16A] = ".16a",
    [VC4_QPU_PACK_A_16B] = ".16b",      [VC4_QPU_PACK_A_8888] = ".8abcd",
    [VC4_QPU_PACK_A_8A] = ".8a",        [VC4_QPU_PACK_A_8B] = ".8b",
    [VC4_QPU_PACK_A_8C] = ".8c",        [VC4_QPU_PACK_A_8D] = ".8d",
    [VC4_QPU_PACK_A_32_SAT] = ".32s",   [VC4_QPU_PACK_A_16A_SAT] = ".16as",
    [VC4_QPU_PACK_A_16B_SAT] = ".16bs", [VC4_QPU_PACK_A_8888_SAT] = ".8abcds",
    [VC4_QPU_PACK_A_8A_SAT] = ".8as",   [VC4_QPU_PACK_A_8B_SAT] = ".8bs",
    [VC4_QPU_PACK_A_8C_SAT] = ".8cs",   [VC4_QPU_PACK_A_8D_SAT] = ".8ds",
};

static const char *const pack_mul_suffix[VC4_QPU_PACK_MUL_COUNT] = {
    [VC4_QPU_PACK_MUL_NOP] = "",       [VC4_QPU_PACK_MUL_8888] = ".8abcd",
    [VC4_QPU_PACK_MUL_8A] = ".8a",     [VC4_QPU_PACK_MUL_8B] = ".8b",
    [VC4_QPU_PACK_MUL_8C] = ".8c",     [VC4_QPU_PACK_MUL_8D] = ".8d",
};

static const char *const unpack_suffix[VC4_QPU_UNPACK_COUNT] = {
    [VC4_QPU_UNPACK_NOP] = "",    [VC4_QPU_UNPACK_16A] = ".16a",
    [VC4_QPU_UNPACK_16B] = ".16b", [VC4_QPU_UNPACK_8D_REP] = ".8dr",
    [VC4_QPU_UNPACK_8A] = ".8a",  [VC4_QPU_UNPACK_8B] = ".8b",
    [VC4_QPU_UNPACK_8C] = ".8c",  [VC4_QPU_UNPACK_8D] = ".8d",
};

/* Small immediates as operand text (vc4asm smallimmediate.html). */
static const char *const small_imm_name[48] = {
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15",
    "-16", "-15", "-14", "-13", "-12", "-11", "-10", "-9",
    "-8", "-7", "-6", "-5", "-4", "-3", "-2", "-1",
    "1.0", "2.0", "4.0", "8.0", "16.0", "32.0", "64.0", "128.0",
    "1./256", "1./128", "1./64", "1./32", "1./16", "1./8", "1./4", "1./2",
};

const char *vc4_qpu_op_add_name(unsigned op) { return op < VC4_QPU_A_COUNT ? vc4_qpu_add_ops[op].name : NULL; }
const char *vc4_qpu_op_mul_name(unsigned op) { return op < VC4_QPU_M_COUNT ? vc4_qpu_mul_ops[op].name : NULL; }
const char *vc4_qpu_cond_suffix(unsigned c) { return c < VC4_QPU_COND_COUNT ? cond_suffix[c] : NULL; }
const char *vc4_qpu_branch_cond_suffix(unsigned c) { return c < VC4_QPU_BCOND_COUNT ? branch_cond_suffix[c] : NULL; }
const char *vc4_qpu_sig_name(unsigned sig) { return sig < VC4_QPU_SIG_COUNT ? vc4_qpu_sigs[sig].name : NULL; }
const char *vc4_qpu_sig_hw_name(unsigned sig) { return sig < VC4_QPU_SIG_COUNT ? vc4_qpu_sigs[sig].hw : NULL; }
const char *vc4_qpu_unpack_suffix(unsigned u) { return u < VC4_QPU_UNPACK_COUNT ? unpack_suffix[u] : NULL; }
const char *vc4_qpu_small_imm_name(unsigned code) { return code < 48 ? small_imm_name[code] : NULL; }

const char *vc4_qpu_pack_suffix(unsigned pm, unsigned pack)
{
    if (pack >= 16)
        return NULL;
    return pm ? pack_mul_suffix[pack] : pack_a_suffix[pack];
}

const char *vc4_qpu_raddr_name(unsigned file, unsigned raddr)
{
    return file < 2 && raddr < 64 ? vc4_qpu_read_regs[file][raddr].name : NULL;
}
const char *vc4_qpu_waddr_name(unsigned file, unsigned waddr)
{
    return file < 2 && waddr < 64 ? vc4_qpu_write_regs[file][waddr].name : NULL;
}
const char *vc4_qpu_raddr_hw_name(unsigned file, unsigned raddr)
{
    return file < 2 && raddr < 64 ? vc4_qpu_read_regs[file][raddr].hw : NULL;
}
const char *vc4_qpu_waddr_hw_name(unsigned file, unsigned waddr)
{
    return file < 2 && waddr < 64 ? vc4_qpu_write_regs[file][waddr].hw : NULL;
}

bool vc4_qpu_op_add_is_unary(unsigned op) { return op < VC4_QPU_A_COUNT && vc4_qpu_add_ops[op].unary; }
bool vc4_qpu_op_add_is_float(unsigned op) { return op < VC4_QPU_A_COUNT && vc4_qpu_add_ops[op].is_float; }
bool vc4_qpu_op_mul_is_float(unsigned op) { return op < VC4_QPU_M_COUNT && vc4_qpu_mul_ops[op].is_float; }
bool vc4_qpu_op_add_valid(unsigned op) { return op < VC4_QPU_A_COUNT && vc4_qpu_add_ops[op].name != NULL; }

uint32_t vc4_qpu_small_imm_value(unsigned code)
{
    code &= 63;
    if (code < 16)
        return code;
    if (code < 32)
        return (uint32_t)((int32_t)code - 32);
    if (code < 40) /* 1.0 .. 128.0: exponent 127 + (code - 32) */
        return (uint32_t)(127 + code - 32) << 23;
    if (code < 48) /* 1/256 .. 1/2: exponent 127 - 8 + (code - 40) */
        return (uint32_t)(127 - 8 + code - 40) << 23;
    /* Rotation codes still feed regfile-B muxes -16..-1 (py-videocore test_rotate_as_simm). */
    return (uint32_t)((int32_t)code - 64);
}

bool vc4_qpu_small_imm_is_float(unsigned code) { return code >= 32 && code < 48; }
