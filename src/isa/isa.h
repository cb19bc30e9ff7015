/*
 * isa.h - internal contract between the assembler and the disassembler.
 *
 * The disassembler prints what an instruction means in vc4asm syntax; the
 * assembler turns that text back into a word.  Fields the text does not
 * express ("meaningless" ones: the muxes of a nop ALU, raddr_a when nothing
 * reads file A, pm when nothing packs or unpacks, ...) get a canonical value
 * from vc4_qpu_canonicalize(), the one place that defines them.  Whatever
 * still differs from the canonical form the disassembler prints as raw
 * overrides "@field=value" (a ';'-separated part of the line), which the
 * assembler applies last.  docs/assembly.md states the same rules for users.
 */
#ifndef VC4_ISA_ISA_H
#define VC4_ISA_ISA_H

#include "spec/qpu_spec.h"

/*
 * Reset every field whose value the vc4asm text of this instruction does not
 * express to its canonical value:
 *   ALU:  nop add   -> cond_add 0, add_a 0, add_b 0 (waddr_add kept: "nop ra0")
 *         nop mul   -> mul_a 0, mul_b 0, cond_mul 0 if waddr_mul is 39
 *                      (else kept: "mnop.ifz ra0")
 *         unary add -> add_b = add_a
 *         raddr_a 39 unless a used mux reads A; raddr_b 39 unless a used mux
 *         reads B (or sig 13 supplies a used immediate / rotation); sig 13 with
 *         no such use -> sig 1 (none); unpack 0 unless its source is read;
 *         pack 0 unless printed on a destination; pm 0 unless pack or unpack
 *         is non-zero; sf 0 when both ALUs are nop; ws 0 unless a printed
 *         destination or the pack placement needs 1.
 *   LDI/semaphore: cond 0 and pack-free for a destination that is 39 (add
 *         cond 1 when both are 39); semaphore imm bits 31:5 = 0.
 *   Branch: bits 59:56 = 0; raddr_a 0 unless reg; ws 0 unless a link needs 1.
 */
void vc4_qpu_canonicalize(struct vc4_qpu_instr *in);

/* Is the write name for (file, waddr) the same in both files (r0, vpm, ...)? */
bool vc4_qpu_waddr_shared(unsigned waddr);
/* Is the read name for raddr the same in both files (unif, vary, nop, vpm, mutex)? */
bool vc4_qpu_raddr_shared(unsigned raddr);
/* Does the ADD / MUL side of an ALU instruction name a destination: an
 * operation, or a nop with a write address other than 39 ("nop ra0")? */
bool vc4_qpu_add_writes(const struct vc4_qpu_instr *in);
bool vc4_qpu_mul_writes(const struct vc4_qpu_instr *in);

/*
 * The assembler's rule for placing operands that name a shared read register
 * (unif, vary, nop, vpm, mutex), applied after all file-specific operands
 * (raN, rbN, elem_num, ...) and small immediates have taken their files: in
 * operand order (add a, add b, mul a, mul b), reuse the file that already
 * holds the same address, else file A if free, else file B if free.
 */
enum { VC4_QPU_OPERANDS = 4 };
struct vc4_qpu_operand_req {
    uint8_t used;    /* the operand is read */
    uint8_t shared;  /* names a shared register (file chosen by the rule) */
    uint8_t file;    /* pinned file (0 = A, 1 = B) when !shared */
    uint8_t raddr;   /* register address (for the reuse test) */
};
/* Returns false if the operands cannot be placed; files[] receives 0/1. */
bool vc4_qpu_place_operands(const struct vc4_qpu_operand_req req[VC4_QPU_OPERANDS],
                            bool b_is_small_imm, uint8_t files[VC4_QPU_OPERANDS],
                            uint8_t *raddr_a, uint8_t *raddr_b);

#endif
