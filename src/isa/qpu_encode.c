/*
 * qpu_encode.c - 64-bit instruction word <-> struct vc4_qpu_instr.
 *
 * Both directions walk vc4_qpu_field_table, so every field's position is
 * written down once (src/spec/qpu_tables.c).  decode is total and encode
 * inverts it exactly: every one of the 2^64 words round-trips.
 */
#include "spec/qpu_spec.h"

static enum vc4_qpu_kind kind_of(unsigned sig, unsigned mode)
{
    switch (sig) {
    case VC4_QPU_SIG_BRANCH:
        return VC4_QPU_KIND_BRANCH;
    case VC4_QPU_SIG_LOAD_IMM:
        /* mode bit 2 selects the semaphore form (vc4asm: L_SEMA and above) */
        return (mode & VC4_QPU_LDI_SEMAPHORE) ? VC4_QPU_KIND_SEMAPHORE : VC4_QPU_KIND_LOAD_IMM;
    case VC4_QPU_SIG_SMALL_IMM:
        return VC4_QPU_KIND_ALU_SMALL_IMM;
    default:
        return VC4_QPU_KIND_ALU;
    }
}

void vc4_qpu_decode(uint64_t word, struct vc4_qpu_instr *out)
{
    *out = (struct vc4_qpu_instr){0};
    out->sig = (uint8_t)(word >> vc4_qpu_field_table[VC4_F_SIG].shift);
    unsigned forms = vc4_qpu_forms_of(out);
    for (int f = 0; f < VC4_F_COUNT; f++) {
        const struct vc4_qpu_field_desc *d = &vc4_qpu_field_table[f];
        if (!(d->forms & forms))
            continue;
        uint64_t mask = (d->width == 64) ? ~UINT64_C(0) : ((UINT64_C(1) << d->width) - 1);
        vc4_qpu_field_set(out, (enum vc4_qpu_field)f, (uint32_t)((word >> d->shift) & mask));
    }
    out->kind = kind_of(out->sig, out->unpack);
    if (out->kind == VC4_QPU_KIND_BRANCH)
        out->sf = out->raddr_a & 1; /* bit 45 is shared */
}

uint64_t vc4_qpu_encode(const struct vc4_qpu_instr *in)
{
    uint64_t word = 0;
    unsigned forms = vc4_qpu_forms_of(in);
    for (int f = 0; f < VC4_F_COUNT; f++) {
        const struct vc4_qpu_field_desc *d = &vc4_qpu_field_table[f];
        if (!(d->forms & forms))
            continue;
        uint64_t mask = (UINT64_C(1) << d->width) - 1;
        word |= ((uint64_t)vc4_qpu_field_get(in, (enum vc4_qpu_field)f) & mask) << d->shift;
    }
    return word;
}

void vc4_qpu_nop(struct vc4_qpu_instr *out)
{
    vc4_qpu_decode(VC4_QPU_NOP_WORD, out);
}

uint64_t vc4_qpu_load_le(const uint8_t *p)
{
    uint64_t w = 0;
    for (int i = 7; i >= 0; i--)
        w = (w << 8) | p[i];
    return w;
}

void vc4_qpu_store_le(uint8_t *p, uint64_t word)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(word >> (8 * i));
}

/* ---- which operands an instruction reads ------------------------------- */

bool vc4_qpu_add_reads_mux(const struct vc4_qpu_instr *in, unsigned mux)
{
    if (in->kind != VC4_QPU_KIND_ALU && in->kind != VC4_QPU_KIND_ALU_SMALL_IMM)
        return false;
    if (in->op_add == VC4_QPU_A_NOP)
        return false;
    if (in->add_a == mux)
        return true;
    return !vc4_qpu_op_add_is_unary(in->op_add) && in->add_b == mux;
}

bool vc4_qpu_mul_reads_mux(const struct vc4_qpu_instr *in, unsigned mux)
{
    if (in->kind != VC4_QPU_KIND_ALU && in->kind != VC4_QPU_KIND_ALU_SMALL_IMM)
        return false;
    if (in->op_mul == VC4_QPU_M_NOP)
        return false;
    return in->mul_a == mux || in->mul_b == mux;
}

bool vc4_qpu_reads_a(const struct vc4_qpu_instr *in)
{
    if (in->kind == VC4_QPU_KIND_BRANCH)
        return in->reg != 0;
    return vc4_qpu_add_reads_mux(in, VC4_QPU_MUX_A) || vc4_qpu_mul_reads_mux(in, VC4_QPU_MUX_A);
}

bool vc4_qpu_reads_b(const struct vc4_qpu_instr *in)
{
    if (in->kind != VC4_QPU_KIND_ALU)
        return false; /* the small-immediate form has no regfile-B read */
    return vc4_qpu_add_reads_mux(in, VC4_QPU_MUX_B) || vc4_qpu_mul_reads_mux(in, VC4_QPU_MUX_B);
}
