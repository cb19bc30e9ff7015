/*
 * qpu_spec.h - the QPU instruction word described as data (internal).
 *
 * One table gives every raw field's position; the public vc4_qpu_instr has a
 * member per field.  encode/decode, --fields and the assembler's raw-field
 * overrides all walk this table, so a field's position is written down once.
 */
#ifndef VC4_SPEC_QPU_SPEC_H
#define VC4_SPEC_QPU_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vc4kit/qpu.h"

enum vc4_qpu_field {
    /* ALU, load immediate and semaphore forms */
    VC4_F_SIG,
    VC4_F_UNPACK,
    VC4_F_PM,
    VC4_F_PACK,
    VC4_F_COND_ADD,
    VC4_F_COND_MUL,
    VC4_F_SF,
    VC4_F_WS,
    VC4_F_WADDR_ADD,
    VC4_F_WADDR_MUL,
    VC4_F_OP_MUL,
    VC4_F_OP_ADD,
    VC4_F_RADDR_A,
    VC4_F_RADDR_B,
    VC4_F_ADD_A,
    VC4_F_ADD_B,
    VC4_F_MUL_A,
    VC4_F_MUL_B,
    VC4_F_IMM,
    /* branch form only */
    VC4_F_COND_BR,
    VC4_F_REL,
    VC4_F_REG,
    VC4_F_BR_RADDR_A,
    VC4_F_COUNT
};

/* Which forms a field exists in. */
enum {
    VC4_FORM_ALU = 1u << 0,
    VC4_FORM_LDI = 1u << 1, /* load immediate and semaphore */
    VC4_FORM_BRANCH = 1u << 2,
};

struct vc4_qpu_field_desc {
    const char *name;     /* the --fields name */
    uint8_t shift;        /* lowest bit */
    uint8_t width;        /* bits */
    uint8_t forms;        /* VC4_FORM_* mask */
    size_t offset;        /* member of struct vc4_qpu_instr */
    uint8_t is32;         /* member is uint32_t (imm), else uint8_t */
};

extern const struct vc4_qpu_field_desc vc4_qpu_field_table[VC4_F_COUNT];

/* The forms a decoded instruction has. */
unsigned vc4_qpu_forms_of(const struct vc4_qpu_instr *in);

/* The tile-buffer write addresses, 43-47: stencil setup, Z, colour (MS,
 * all) and the alpha mask (facts 6.9). */
static inline bool vc4_qpu_waddr_is_tlb(unsigned waddr)
{
    return waddr >= VC4_QPU_W_TLB_STENCIL_SETUP && waddr <= VC4_QPU_W_TLB_ALPHA_MASK;
}

/*
 * Write addresses that access the tile buffer and so wait on the
 * scoreboard at a fragment shader's first access ("an implicit wait with
 * the first tile-buffer read or write instruction", the guide via Mesa
 * vc4_qpu_validate.c): TLB_Z, TLB_COLOR_MS, TLB_COLOR_ALL and the alpha
 * mask.  Not TLB_STENCIL_SETUP (43), which configures the stencil test:
 * Mesa's qpu_waddr_is_tlb leaves it out and writes it as a shader's first
 * instruction, which runs on Pi 3s (piglit's gl-1.0-readpixsanity passes in
 * Mesa's CI, src/broadcom/ci/broadcom-rpi3-fails.txt).  The alpha mask
 * (47, VG only) is counted as a tile-buffer write: UNVERIFIED.
 */
static inline bool vc4_qpu_waddr_waits_sb(unsigned waddr)
{
    return vc4_qpu_waddr_is_tlb(waddr) && waddr != VC4_QPU_W_TLB_STENCIL_SETUP;
}

/* Raw access to a field's value in the struct. */
uint32_t vc4_qpu_field_get(const struct vc4_qpu_instr *in, enum vc4_qpu_field f);
void vc4_qpu_field_set(struct vc4_qpu_instr *in, enum vc4_qpu_field f, uint32_t v);
/* Find a field by its --fields name (for the form mask given); -1 if none. */
int vc4_qpu_field_lookup(const char *name, size_t len, unsigned forms);

/* Per-opcode facts. */
struct vc4_qpu_op_desc {
    const char *name;   /* vc4asm mnemonic; NULL = reserved */
    const char *hw;     /* reference-guide description, for --explain */
    uint8_t is_float;   /* operands/result are floats (affects unpack) */
    uint8_t unary;      /* reads only operand a */
};
extern const struct vc4_qpu_op_desc vc4_qpu_add_ops[VC4_QPU_A_COUNT];
extern const struct vc4_qpu_op_desc vc4_qpu_mul_ops[VC4_QPU_M_COUNT];

struct vc4_qpu_reg_desc {
    const char *name; /* vc4asm spelling */
    const char *hw;   /* reference-guide spelling */
};
/* [file][addr]; file 0 = A, 1 = B. NULL name = no meaning. */
extern const struct vc4_qpu_reg_desc vc4_qpu_read_regs[2][64];
extern const struct vc4_qpu_reg_desc vc4_qpu_write_regs[2][64];

struct vc4_qpu_sig_desc {
    const char *name; /* vc4asm mnemonic; NULL if the signal has no mnemonic */
    const char *hw;
};
extern const struct vc4_qpu_sig_desc vc4_qpu_sigs[VC4_QPU_SIG_COUNT];

#endif
