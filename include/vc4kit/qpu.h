/*
 * vc4kit/qpu.h - the VideoCore IV QPU instruction set: one unpacked
 * instruction struct shared by the assembler, disassembler, validator and
 * emulator.
 *
 * Every instruction is 64 bits, stored little-endian.  The signal field
 * (bits 63:60) selects the form.  Sources: Mesa vc4_qpu_defines.h, the
 * Broadcom reference guide (via VC4C), the vc4asm addendum; see
 * shared/reference/qpu-isa-facts.md.
 *
 * ALU (sig 0-12) and ALU with small immediate (sig 13):
 *
 *   63   60 59  57 56 55  52 51  49 48  46 45 44 43     38 37     32
 *  +-------+------+--+------+------+------+--+--+---------+---------+
 *  |  sig  |unpack|pm| pack |cond_a|cond_m|sf|ws|waddr_add|waddr_mul|
 *  +-------+------+--+------+------+------+--+--+---------+---------+
 *   31  29 28   24 23    18 17    12 11  9 8   6 5   3 2   0
 *  +------+-------+--------+--------+-----+-----+-----+-----+
 *  |op_mul| op_add| raddr_a| raddr_b|add_a|add_b|mul_a|mul_b|
 *  +------+-------+--------+--------+-----+-----+-----+-----+
 *                            (sig 13: raddr_b = small immediate)
 *
 * Load immediate (sig 14; mode 0, 1, 3) and semaphore (sig 14, mode 4):
 *
 *   63   60 59  57 56 55  52 51  49 48  46 45 44 43     38 37     32 31     0
 *  +-------+------+--+------+------+------+--+--+---------+---------+--------+
 *  | 1110  | mode |pm| pack |cond_a|cond_m|sf|ws|waddr_add|waddr_mul|  imm   |
 *  +-------+------+--+------+------+------+--+--+---------+---------+--------+
 *   semaphore: imm bit 4 = acquire (1) / release (0), imm bits 3:0 = number
 *
 * Branch (sig 15):
 *
 *   63   60 59 56 55    52 51  50  49     45 44 43     38 37     32 31     0
 *  +-------+-----+--------+---+---+--------+--+---------+---------+--------+
 *  | 1111  | --- |cond_br |rel|reg| raddr_a|ws|waddr_add|waddr_mul|  imm   |
 *  +-------+-----+--------+---+---+--------+--+---------+---------+--------+
 *   bits 59:56 have no meaning (kept as unpack/pm for a lossless round trip);
 *   bit 45 is both raddr_a bit 0 and sf: branching through an odd register
 *   sets flags (vc4asm addendum).
 */
#ifndef VC4KIT_QPU_H
#define VC4KIT_QPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vc4kit/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- field codes ------------------------------------------------------ */

enum vc4_qpu_sig {
    VC4_QPU_SIG_BREAK = 0,
    VC4_QPU_SIG_NONE = 1,
    VC4_QPU_SIG_THREAD_SWITCH = 2,
    VC4_QPU_SIG_PROG_END = 3,
    VC4_QPU_SIG_WAIT_FOR_SCOREBOARD = 4,
    VC4_QPU_SIG_SCOREBOARD_UNLOCK = 5,
    VC4_QPU_SIG_LAST_THREAD_SWITCH = 6,
    VC4_QPU_SIG_COVERAGE_LOAD = 7,
    VC4_QPU_SIG_COLOR_LOAD = 8,
    VC4_QPU_SIG_COLOR_LOAD_END = 9,
    VC4_QPU_SIG_LOAD_TMU0 = 10,
    VC4_QPU_SIG_LOAD_TMU1 = 11,
    VC4_QPU_SIG_ALPHA_MASK_LOAD = 12,
    VC4_QPU_SIG_SMALL_IMM = 13,
    VC4_QPU_SIG_LOAD_IMM = 14,
    VC4_QPU_SIG_BRANCH = 15,
    VC4_QPU_SIG_COUNT
};

enum vc4_qpu_op_add {
    VC4_QPU_A_NOP = 0,
    VC4_QPU_A_FADD = 1,
    VC4_QPU_A_FSUB = 2,
    VC4_QPU_A_FMIN = 3,
    VC4_QPU_A_FMAX = 4,
    VC4_QPU_A_FMINABS = 5,
    VC4_QPU_A_FMAXABS = 6,
    VC4_QPU_A_FTOI = 7,
    VC4_QPU_A_ITOF = 8,
    /* 9-11 reserved */
    VC4_QPU_A_ADD = 12,
    VC4_QPU_A_SUB = 13,
    VC4_QPU_A_SHR = 14,
    VC4_QPU_A_ASR = 15,
    VC4_QPU_A_ROR = 16,
    VC4_QPU_A_SHL = 17,
    VC4_QPU_A_MIN = 18,
    VC4_QPU_A_MAX = 19,
    VC4_QPU_A_AND = 20,
    VC4_QPU_A_OR = 21,
    VC4_QPU_A_XOR = 22,
    VC4_QPU_A_NOT = 23,
    VC4_QPU_A_CLZ = 24,
    /* 25-29 reserved */
    VC4_QPU_A_V8ADDS = 30,
    VC4_QPU_A_V8SUBS = 31,
    VC4_QPU_A_COUNT = 32
};

enum vc4_qpu_op_mul {
    VC4_QPU_M_NOP = 0,
    VC4_QPU_M_FMUL = 1,
    VC4_QPU_M_MUL24 = 2,
    VC4_QPU_M_V8MULD = 3,
    VC4_QPU_M_V8MIN = 4,
    VC4_QPU_M_V8MAX = 5,
    VC4_QPU_M_V8ADDS = 6,
    VC4_QPU_M_V8SUBS = 7,
    VC4_QPU_M_COUNT = 8
};

/* Per-ALU write condition. */
enum vc4_qpu_cond {
    VC4_QPU_COND_NEVER = 0,
    VC4_QPU_COND_ALWAYS = 1,
    VC4_QPU_COND_ZS = 2,
    VC4_QPU_COND_ZC = 3,
    VC4_QPU_COND_NS = 4,
    VC4_QPU_COND_NC = 5,
    VC4_QPU_COND_CS = 6,
    VC4_QPU_COND_CC = 7,
    VC4_QPU_COND_COUNT = 8
};

/* Branch condition, over all 16 elements. 12-14 are reserved. */
enum vc4_qpu_branch_cond {
    VC4_QPU_BCOND_ALL_ZS = 0,
    VC4_QPU_BCOND_ALL_ZC = 1,
    VC4_QPU_BCOND_ANY_ZS = 2,
    VC4_QPU_BCOND_ANY_ZC = 3,
    VC4_QPU_BCOND_ALL_NS = 4,
    VC4_QPU_BCOND_ALL_NC = 5,
    VC4_QPU_BCOND_ANY_NS = 6,
    VC4_QPU_BCOND_ANY_NC = 7,
    VC4_QPU_BCOND_ALL_CS = 8,
    VC4_QPU_BCOND_ALL_CC = 9,
    VC4_QPU_BCOND_ANY_CS = 10,
    VC4_QPU_BCOND_ANY_CC = 11,
    VC4_QPU_BCOND_ALWAYS = 15,
    VC4_QPU_BCOND_COUNT = 16
};

/* Input mux: which value an ALU operand takes. */
enum vc4_qpu_mux {
    VC4_QPU_MUX_R0 = 0,
    VC4_QPU_MUX_R1 = 1,
    VC4_QPU_MUX_R2 = 2,
    VC4_QPU_MUX_R3 = 3,
    VC4_QPU_MUX_R4 = 4,
    VC4_QPU_MUX_R5 = 5,
    VC4_QPU_MUX_A = 6, /* register file A at raddr_a */
    VC4_QPU_MUX_B = 7, /* register file B at raddr_b, or the small immediate */
    VC4_QPU_MUX_COUNT = 8
};

/* Unpack modes (bits 59:57): regfile A reads with pm = 0, r4 reads with pm = 1. */
enum vc4_qpu_unpack {
    VC4_QPU_UNPACK_NOP = 0,
    VC4_QPU_UNPACK_16A = 1,
    VC4_QPU_UNPACK_16B = 2,
    VC4_QPU_UNPACK_8D_REP = 3,
    VC4_QPU_UNPACK_8A = 4,
    VC4_QPU_UNPACK_8B = 5,
    VC4_QPU_UNPACK_8C = 6,
    VC4_QPU_UNPACK_8D = 7,
    VC4_QPU_UNPACK_COUNT = 8
};

/* Regfile-A pack modes (pm = 0). */
enum vc4_qpu_pack_a {
    VC4_QPU_PACK_A_NOP = 0,
    VC4_QPU_PACK_A_16A = 1,
    VC4_QPU_PACK_A_16B = 2,
    VC4_QPU_PACK_A_8888 = 3,
    VC4_QPU_PACK_A_8A = 4,
    VC4_QPU_PACK_A_8B = 5,
    VC4_QPU_PACK_A_8C = 6,
    VC4_QPU_PACK_A_8D = 7,
    VC4_QPU_PACK_A_32_SAT = 8,
    VC4_QPU_PACK_A_16A_SAT = 9,
    VC4_QPU_PACK_A_16B_SAT = 10,
    VC4_QPU_PACK_A_8888_SAT = 11,
    VC4_QPU_PACK_A_8A_SAT = 12,
    VC4_QPU_PACK_A_8B_SAT = 13,
    VC4_QPU_PACK_A_8C_SAT = 14,
    VC4_QPU_PACK_A_8D_SAT = 15,
    VC4_QPU_PACK_A_COUNT = 16
};

/* MUL-ALU pack modes (pm = 1): float 0..1 to a colour byte. 1, 2, 8-15 reserved. */
enum vc4_qpu_pack_mul {
    VC4_QPU_PACK_MUL_NOP = 0,
    VC4_QPU_PACK_MUL_8888 = 3,
    VC4_QPU_PACK_MUL_8A = 4,
    VC4_QPU_PACK_MUL_8B = 5,
    VC4_QPU_PACK_MUL_8C = 6,
    VC4_QPU_PACK_MUL_8D = 7,
    VC4_QPU_PACK_MUL_COUNT = 16
};

/* Load-immediate mode (bits 59:57 when sig = 14). 2, 5-7 reserved. */
enum vc4_qpu_ldi_mode {
    VC4_QPU_LDI_32 = 0,
    VC4_QPU_LDI_PER_ELEMENT_SIGNED = 1,
    VC4_QPU_LDI_PER_ELEMENT_UNSIGNED = 3,
    VC4_QPU_LDI_SEMAPHORE = 4,
    VC4_QPU_LDI_MODE_COUNT = 8
};

/*
 * Register addresses 32-63 (0-31 are the physical registers of each file).
 * Reads and writes give the same address different meanings; so do the two
 * files.  See vc4_qpu_reg_name() for the full table.
 */
enum vc4_qpu_raddr {
    VC4_QPU_R_UNIF = 32,
    VC4_QPU_R_VARY = 35,
    VC4_QPU_R_ELEM_QPU = 38, /* A: ELEMENT_NUMBER, B: QPU_NUMBER */
    VC4_QPU_R_NOP = 39,
    VC4_QPU_R_XY_COORD = 41, /* A: X_PIXEL_COORD, B: Y_PIXEL_COORD */
    VC4_QPU_R_MS_REV = 42,   /* A: MS_FLAGS, B: REV_FLAG */
    VC4_QPU_R_VPM = 48,
    VC4_QPU_R_VPM_BUSY = 49, /* A: VPM_LD_BUSY, B: VPM_ST_BUSY */
    VC4_QPU_R_VPM_WAIT = 50, /* A: VPM_LD_WAIT, B: VPM_ST_WAIT */
    VC4_QPU_R_MUTEX_ACQUIRE = 51,
};

enum vc4_qpu_waddr {
    VC4_QPU_W_ACC0 = 32,
    VC4_QPU_W_ACC1 = 33,
    VC4_QPU_W_ACC2 = 34,
    VC4_QPU_W_ACC3 = 35,
    VC4_QPU_W_TMU_NOSWAP = 36,
    VC4_QPU_W_ACC5 = 37, /* A: r5 per quad (elements 0,4,8,12), B: r5 replicate element 0 */
    VC4_QPU_W_HOST_INT = 38,
    VC4_QPU_W_NOP = 39,
    VC4_QPU_W_UNIFORMS_ADDRESS = 40,
    VC4_QPU_W_QUAD_XY = 41, /* A: QUAD_X, B: QUAD_Y */
    VC4_QPU_W_MS_FLAGS_REV = 42,
    VC4_QPU_W_TLB_STENCIL_SETUP = 43,
    VC4_QPU_W_TLB_Z = 44,
    VC4_QPU_W_TLB_COLOR_MS = 45,
    VC4_QPU_W_TLB_COLOR_ALL = 46,
    VC4_QPU_W_TLB_ALPHA_MASK = 47,
    VC4_QPU_W_VPM = 48,
    VC4_QPU_W_VPMVCD_SETUP = 49, /* A: VPMVCD_RD_SETUP, B: VPMVCD_WR_SETUP */
    VC4_QPU_W_VPM_ADDR = 50,     /* A: VPM_LD_ADDR, B: VPM_ST_ADDR */
    VC4_QPU_W_MUTEX_RELEASE = 51,
    VC4_QPU_W_SFU_RECIP = 52,
    VC4_QPU_W_SFU_RECIPSQRT = 53,
    VC4_QPU_W_SFU_EXP = 54,
    VC4_QPU_W_SFU_LOG = 55,
    VC4_QPU_W_TMU0_S = 56,
    VC4_QPU_W_TMU0_T = 57,
    VC4_QPU_W_TMU0_R = 58,
    VC4_QPU_W_TMU0_B = 59,
    VC4_QPU_W_TMU1_S = 60,
    VC4_QPU_W_TMU1_T = 61,
    VC4_QPU_W_TMU1_R = 62,
    VC4_QPU_W_TMU1_B = 63,
};

/* Small immediate codes 48-63: MUL-ALU vector rotation. */
enum {
    VC4_QPU_SMALL_IMM_ROT_R5 = 48, /* rotate by r5 element 0, bits 3:0 */
    VC4_QPU_SMALL_IMM_ROT_1 = 49,  /* 49..63 rotate by 1..15 */
};

/* ---- the unpacked instruction ----------------------------------------- */

/* The instruction form, derived from sig (and the load-immediate mode). */
enum vc4_qpu_kind {
    VC4_QPU_KIND_ALU,           /* sig 0-12 */
    VC4_QPU_KIND_ALU_SMALL_IMM, /* sig 13 */
    VC4_QPU_KIND_LOAD_IMM,      /* sig 14, mode != semaphore */
    VC4_QPU_KIND_SEMAPHORE,     /* sig 14, mode 4-7 */
    VC4_QPU_KIND_BRANCH,        /* sig 15 */
};

/*
 * Every field of the word, by name; which ones mean something depends on
 * kind.  vc4_qpu_decode() fills all of them from the bits that hold them, so
 * vc4_qpu_encode(vc4_qpu_decode(w)) == w for every 64-bit w.  Field values
 * are raw codes (see the enums above); each fits its bit width.
 *
 * Branch: raddr_a holds bits 49:45 (5 bits), sf is its bit 0 (not stored
 * separately); cond_add/cond_mul/op_*, raddr_b and the muxes do not exist.
 */
struct vc4_qpu_instr {
    enum vc4_qpu_kind kind;
    uint8_t sig;
    uint8_t unpack;    /* ALU: unpack; LOAD_IMM/SEMAPHORE: load mode; BRANCH: bits 59:57 */
    uint8_t pm;        /* BRANCH: bit 56 */
    uint8_t pack;
    uint8_t cond_add;
    uint8_t cond_mul;
    uint8_t sf;
    uint8_t ws;
    uint8_t waddr_add;
    uint8_t waddr_mul;
    uint8_t op_mul;
    uint8_t op_add;
    uint8_t raddr_a;
    uint8_t raddr_b;   /* ALU_SMALL_IMM: the small-immediate code */
    uint8_t add_a, add_b, mul_a, mul_b;
    uint8_t cond_br;   /* BRANCH */
    uint8_t rel;       /* BRANCH */
    uint8_t reg;       /* BRANCH */
    uint32_t imm;      /* LOAD_IMM, SEMAPHORE, BRANCH */
};

/* Decode a 64-bit word into its fields. Total: every word decodes. */
VC4_API void vc4_qpu_decode(uint64_t word, struct vc4_qpu_instr *out);

/* Encode the fields back; field values are masked to their widths. The
 * form is taken from sig (kind is ignored). */
VC4_API uint64_t vc4_qpu_encode(const struct vc4_qpu_instr *in);

/* A NOP as vc4asm writes it: sig none, both ALUs nop, raddrs and waddrs 39. */
VC4_API void vc4_qpu_nop(struct vc4_qpu_instr *out);
#define VC4_QPU_NOP_WORD UINT64_C(0x100009E7009E7000)

/* Loads/stores of instruction words in little-endian byte order. */
VC4_API uint64_t vc4_qpu_load_le(const uint8_t *p);
VC4_API void vc4_qpu_store_le(uint8_t *p, uint64_t word);

/* ---- facts about instructions, derived from the tables ---------------- */

/* Is this add op unary (reads only its first operand: ftoi, itof, not, clz)? */
VC4_API bool vc4_qpu_op_add_is_unary(unsigned op_add);
/* Does the op work on floats (so unpack converts half/bytes to float)? */
VC4_API bool vc4_qpu_op_add_is_float(unsigned op_add);
VC4_API bool vc4_qpu_op_mul_is_float(unsigned op_mul);
/* Is the op code assigned (not reserved)? */
VC4_API bool vc4_qpu_op_add_valid(unsigned op_add);

/* The value a small-immediate code supplies to a regfile-B mux (codes 48-63
 * supply -16..-1, as measured by py-videocore). */
VC4_API uint32_t vc4_qpu_small_imm_value(unsigned code);
/* Is code a float small immediate (32-47)? */
VC4_API bool vc4_qpu_small_imm_is_float(unsigned code);

/* Does the ALU read the mux?  (nop reads nothing; unary ops read only a.) */
VC4_API bool vc4_qpu_add_reads_mux(const struct vc4_qpu_instr *in, unsigned mux);
VC4_API bool vc4_qpu_mul_reads_mux(const struct vc4_qpu_instr *in, unsigned mux);
/* Does the instruction read regfile A / B (through any mux that is used)? */
VC4_API bool vc4_qpu_reads_a(const struct vc4_qpu_instr *in);
VC4_API bool vc4_qpu_reads_b(const struct vc4_qpu_instr *in);
/* Physical register file the add / mul ALU writes, 0 = A, 1 = B. */
static inline unsigned vc4_qpu_add_wfile(const struct vc4_qpu_instr *in) { return in->ws ? 1u : 0u; }
static inline unsigned vc4_qpu_mul_wfile(const struct vc4_qpu_instr *in) { return in->ws ? 0u : 1u; }

/* ---- names (vc4asm dialect) ------------------------------------------- */

/* Mnemonics; NULL for reserved codes. */
VC4_API const char *vc4_qpu_op_add_name(unsigned op_add);
VC4_API const char *vc4_qpu_op_mul_name(unsigned op_mul);
/* Condition suffix: "" always, ".never", ".ifz", ... */
VC4_API const char *vc4_qpu_cond_suffix(unsigned cond);
/* Branch condition suffix: "" always, ".allz", ...; NULL for 12-14. */
VC4_API const char *vc4_qpu_branch_cond_suffix(unsigned cond_br);
/* Signal mnemonic ("thrend", "ldtmu0", ...); NULL for none/small imm/ldi/branch. */
VC4_API const char *vc4_qpu_sig_name(unsigned sig);
/* Register names as vc4asm spells them: file 0 = A, 1 = B. */
VC4_API const char *vc4_qpu_raddr_name(unsigned file, unsigned raddr);
VC4_API const char *vc4_qpu_waddr_name(unsigned file, unsigned waddr);
/* Pack suffix (".8a", ".32s", ...; "" for none); NULL if reserved. */
VC4_API const char *vc4_qpu_pack_suffix(unsigned pm, unsigned pack);
/* Unpack suffix (".16a", ".8dr", ...; "" for none). */
VC4_API const char *vc4_qpu_unpack_suffix(unsigned unpack);
/* Small-immediate text as an operand ("1.0", "-3", "1./256"); NULL for 48-63. */
VC4_API const char *vc4_qpu_small_imm_name(unsigned code);
/* Hardware (reference guide) names, for --explain: "UNIFORM_READ", "ACC5". */
VC4_API const char *vc4_qpu_raddr_hw_name(unsigned file, unsigned raddr);
VC4_API const char *vc4_qpu_waddr_hw_name(unsigned file, unsigned waddr);
VC4_API const char *vc4_qpu_sig_hw_name(unsigned sig);

/* ---- disassembler ----------------------------------------------------- */

enum vc4_dis_flags {
    VC4_DIS_EXPLAIN = 1u << 0, /* append "# ..." the field-by-field account */
    VC4_DIS_FIELDS = 1u << 1,  /* append "# name=value ..." for every raw field */
};

/*
 * Disassemble one instruction into buf, vc4asm syntax, one line, no newline.
 * pc is the instruction's byte address (used to print branch targets).
 * Returns the length the full text needs (snprintf semantics); buf is always
 * NUL-terminated when size > 0.  Assembling the text gives back the word.
 */
VC4_API size_t vc4_qpu_disasm(const struct vc4_qpu_instr *in, uint32_t pc,
                              unsigned flags, char *buf, size_t size);
/* Just the explanation ("add pipe: ..., mul pipe: ..., signal: ..."). */
VC4_API size_t vc4_qpu_explain(const struct vc4_qpu_instr *in, char *buf, size_t size);
/* Just the raw fields ("sig=13 unpack=0 ..."). */
VC4_API size_t vc4_qpu_fields(const struct vc4_qpu_instr *in, char *buf, size_t size);


/* ---- assembler (vc4asm dialect) --------------------------------------- */

/* Reads a whole file for .include; returns VC4_OK and a buffer allocated
 * with the assembler's allocator, or an error. NULL hook = stdio. */
typedef enum vc4_status (*vc4_asm_read_fn)(void *user, const char *path,
                                           char **data, size_t *len);

struct vc4_asm_options {
    const struct vc4_allocator *alloc; /* NULL = malloc */
    struct vc4_diag_sink sink;         /* errors and warnings go here */
    uint32_t base_addr;                /* address of the first output byte */
    vc4_asm_read_fn read_file;         /* NULL = stdio */
    void *read_user;
    /* Work budget per pass: source lines processed (macro and .rep bodies
     * counted each time), .rep iterations and function calls; past it the
     * assembly stops with an error.  0 = 2^22. */
    unsigned long max_work;
};

struct vc4_asm; /* one assembly: state, symbols, output */

VC4_API struct vc4_asm *vc4_asm_create(const struct vc4_asm_options *opts);
VC4_API void vc4_asm_destroy(struct vc4_asm *as);
/* Search path for .include (tried after the including file's directory). */
VC4_API enum vc4_status vc4_asm_add_include_dir(struct vc4_asm *as, const char *dir);
/* Predefine a symbol, as `.set name, value` would (command line -D). */
VC4_API enum vc4_status vc4_asm_define(struct vc4_asm *as, const char *name, int64_t value);
/* Assemble source text (name is used in diagnostics and for relative
 * .include), or a file. Output accumulates; errors go to the sink and the
 * status is VC4_ERR_INVALID when there were any. */
VC4_API enum vc4_status vc4_asm_source(struct vc4_asm *as, const char *name,
                                       const char *text, size_t len);
VC4_API enum vc4_status vc4_asm_file(struct vc4_asm *as, const char *path);
/* The assembled bytes (instructions little-endian, and data). */
VC4_API const uint8_t *vc4_asm_output(const struct vc4_asm *as, size_t *size);
/* Labels and symbols, after a successful assembly. */
VC4_API bool vc4_asm_lookup(const struct vc4_asm *as, const char *name, int64_t *value);
VC4_API size_t vc4_asm_symbol_count(const struct vc4_asm *as);
VC4_API bool vc4_asm_symbol(const struct vc4_asm *as, size_t i, const char **name,
                            int64_t *value, bool *is_label);
/* Counts of errors and warnings reported so far. */
VC4_API unsigned vc4_asm_error_count(const struct vc4_asm *as);

/* Assemble one instruction line (no directives, no labels other than
 * numeric branch targets) at byte address pc. */
VC4_API enum vc4_status vc4_qpu_assemble(const char *line, uint32_t pc,
                                         struct vc4_qpu_instr *out,
                                         struct vc4_diag_sink *sink);

/* ---- validator -------------------------------------------------------- */

enum vc4_shader_kind {
    VC4_SHADER_ANY = 0,  /* apply only the rules that hold for every program */
    VC4_SHADER_FRAGMENT,
    VC4_SHADER_VERTEX,
    VC4_SHADER_COORDINATE,
    VC4_SHADER_USER,     /* a user program started through the SRQ */
};

struct vc4_validate_options {
    enum vc4_shader_kind kind;
    bool threaded;        /* fragment shader runs two threads per QPU */
    uint32_t base_addr;   /* byte address of words[0], for locations */
    const char *file;     /* optional: for locations */
    /* optional: source line of each instruction (n entries), from the assembler */
    const unsigned *lines;
    /* also the Linux kernel's shader rules (vc4_validate_shaders.c; the kernel-*
     * rules of docs/rules.md), checked after the hardware rules; with threaded
     * (a fragment shader) the program must switch threads, without it a
     * fragment shader must not */
    bool kernel_rules;
};

/* The rules the validator checks (struct vc4_rule: vc4kit/diag.h), the first
 * *count of vc4_rules(). */
VC4_API const struct vc4_rule *vc4_qpu_rules(size_t *count);

/*
 * Check a program against every rule.  Each violation is reported to the sink
 * as a VC4_DIAG_RULE diagnostic naming the rule and its source, located at the
 * instruction.  *violations (if non-NULL) receives the count.  Returns VC4_OK
 * when there were none, VC4_ERR_RULE otherwise.
 */
VC4_API enum vc4_status vc4_qpu_validate(const uint64_t *words, size_t n,
                                         const struct vc4_validate_options *opts,
                                         struct vc4_diag_sink *sink,
                                         unsigned *violations);

#ifdef __cplusplus
}
#endif
#endif
