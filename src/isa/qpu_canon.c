/*
 * qpu_canon.c - the canonical form of an instruction's unexpressed fields,
 * and the operand-placement rule for shared register names.  Shared by the
 * assembler (to fill what the text leaves open) and the disassembler (to
 * know what it must print as "@field=value" overrides).  See isa.h.
 */
#include "isa/isa.h"

bool vc4_qpu_waddr_shared(unsigned waddr)
{
    /* Write names that differ between the files (vc4asm expressions.html):
     * the physical registers, r5quad/r5rep, unif_addr/_rel, x/y_coord,
     * ms_mask/rev_flag, vr/vw_setup, vr/vw_addr. */
    if (waddr < 32)
        return false;
    switch (waddr) {
    case VC4_QPU_W_ACC5:
    case VC4_QPU_W_UNIFORMS_ADDRESS:
    case VC4_QPU_W_QUAD_XY:
    case VC4_QPU_W_MS_FLAGS_REV:
    case VC4_QPU_W_VPMVCD_SETUP:
    case VC4_QPU_W_VPM_ADDR:
        return false;
    default:
        return true;
    }
}

bool vc4_qpu_add_writes(const struct vc4_qpu_instr *in)
{
    return in->op_add != VC4_QPU_A_NOP || in->waddr_add != VC4_QPU_W_NOP;
}

bool vc4_qpu_mul_writes(const struct vc4_qpu_instr *in)
{
    return in->op_mul != VC4_QPU_M_NOP || in->waddr_mul != VC4_QPU_W_NOP;
}

bool vc4_qpu_raddr_shared(unsigned raddr)
{
    switch (raddr) {
    case VC4_QPU_R_UNIF:
    case VC4_QPU_R_VARY:
    case VC4_QPU_R_NOP:
    case VC4_QPU_R_VPM:
    case VC4_QPU_R_MUTEX_ACQUIRE:
        return true;
    default:
        return false;
    }
}

/* Is the pack printed as a destination suffix (and so expressed)? */
static bool alu_pack_printed(const struct vc4_qpu_instr *in)
{
    /* regfile-A pack (pm 0) applies to whichever ALU writes file A: printed on
     * the add destination when ws = 0, on the mul destination when ws = 1 --
     * except the 8888/8a-8d codes there, whose text (".8a") means the MUL
     * colour pack (pm 1); those need an @pack override. */
    /* vc4asm AssembleInst::doPack: a pack that fits both (.8888, .8a-.8d) on
     * the MUL destination is the regfile-A pack when the MUL ALU writes a
     * regfile-A register (ws and waddr < 32), the MUL colour pack otherwise. */
    bool mul_file_a = in->ws && in->waddr_mul < 32;
    bool colour = in->pack >= VC4_QPU_PACK_A_8888 && in->pack <= VC4_QPU_PACK_A_8D;
    if (!in->pm)
        return in->ws ? in->op_mul != VC4_QPU_M_NOP && (!colour || mul_file_a)
                      : in->op_add != VC4_QPU_A_NOP;
    /* pm 1: the colour packs (into regfile A spelled ".8asf": vc4asm's float
     * variant), and code 11 that vc4asm writes for ".8abcds" on a MUL
     * destination outside regfile A (printed with that suffix) */
    return in->op_mul != VC4_QPU_M_NOP &&
           (colour || (in->pack == VC4_QPU_PACK_A_8888_SAT && !in->ws));
}

static void canon_alu(struct vc4_qpu_instr *in)
{
    /* A nop keeps its write address: "nop ra0" (vc4asm Parser::doNOP) says
     * it.  Its condition is what vc4asm's optimize gives it: never on the ADD
     * ALU; on the MUL ALU never without a write, else as written. */
    if (in->op_add == VC4_QPU_A_NOP) {
        in->cond_add = VC4_QPU_COND_NEVER;
        in->add_a = in->add_b = 0;
    } else if (vc4_qpu_op_add_is_unary(in->op_add)) {
        in->add_b = in->add_a;
    }
    if (in->op_mul == VC4_QPU_M_NOP) {
        if (in->waddr_mul == VC4_QPU_W_NOP)
            in->cond_mul = VC4_QPU_COND_NEVER;
        in->mul_a = in->mul_b = 0;
    }
    /* the muxes the two ALUs read (a unary add reads add_a, now = add_b) */
    unsigned reads = 0;
    if (in->op_add != VC4_QPU_A_NOP)
        reads |= 1u << (in->add_a & 7) | 1u << (in->add_b & 7);
    if (in->op_mul != VC4_QPU_M_NOP)
        reads |= 1u << (in->mul_a & 7) | 1u << (in->mul_b & 7);
#define ALU_READS(mux) ((reads >> (mux)) & 1u)

    /* unpack: regfile-A reads with pm 0, r4 reads with pm 1 */
    if (!ALU_READS(in->pm ? VC4_QPU_MUX_R4 : VC4_QPU_MUX_A))
        in->unpack = VC4_QPU_UNPACK_NOP;
    /* ws is expressed by any written destination: a name of one file, or for
     * a name both files share the raw raN / rbN (vc4asm: "or rb51, ..." sets
     * ws; the disassembler prints it so) */
    if (!vc4_qpu_add_writes(in) && !vc4_qpu_mul_writes(in))
        in->ws = 0;
    /* pack after ws: where a pm-0 pack prints depends on ws */
    if (!alu_pack_printed(in))
        in->pack = 0;
    if (!in->pack && !in->unpack)
        in->pm = 0;
    if (in->op_add == VC4_QPU_A_NOP && in->op_mul == VC4_QPU_M_NOP)
        in->sf = 0;
    /* An op that writes nowhere (waddr 39 in either file) and sets no flags:
     * vc4asm (AssembleInst::optimize: "WAddrA == R_NOP && !SF") gives it cond
     * never whatever condition the text wrote ("mov.ifnz -, unif"). */
    if (in->op_add != VC4_QPU_A_NOP && in->waddr_add == VC4_QPU_W_NOP && !in->sf)
        in->cond_add = VC4_QPU_COND_NEVER;
    if (in->op_mul != VC4_QPU_M_NOP && in->waddr_mul == VC4_QPU_W_NOP &&
        !(in->sf && in->op_add == VC4_QPU_A_NOP))
        in->cond_mul = VC4_QPU_COND_NEVER;

    if (!ALU_READS(VC4_QPU_MUX_A))
        in->raddr_a = VC4_QPU_R_NOP;

    if (in->sig == VC4_QPU_SIG_SMALL_IMM) {
        bool rot = in->op_mul != VC4_QPU_M_NOP && in->raddr_b >= VC4_QPU_SMALL_IMM_ROT_R5;
        bool value = ALU_READS(VC4_QPU_MUX_B);
        if (!rot && !value) {
            in->sig = VC4_QPU_SIG_NONE;
            in->raddr_b = VC4_QPU_R_NOP;
        } else if (!rot && in->raddr_b >= VC4_QPU_SMALL_IMM_ROT_R5) {
            /* The text shows only the value (-16..-1); the assembler encodes
             * that value with its plain code 16..31. */
            in->raddr_b = (uint8_t)(in->raddr_b - 32);
        }
    } else if (!ALU_READS(VC4_QPU_MUX_B)) {
        in->raddr_b = VC4_QPU_R_NOP;
    }
#undef ALU_READS
}

static void canon_ldi(struct vc4_qpu_instr *in)
{
    if (in->kind == VC4_QPU_KIND_SEMAPHORE) {
        in->unpack = VC4_QPU_LDI_SEMAPHORE;
        /* bit 4 acquire, bits 3:0 semaphore number; the text carries bits
         * 5.. in the number too (vc4asm instructions.html), so all stay */
    } else if (in->unpack != VC4_QPU_LDI_PER_ELEMENT_SIGNED &&
               in->unpack != VC4_QPU_LDI_PER_ELEMENT_UNSIGNED) {
        in->unpack = VC4_QPU_LDI_32;
    }
    /* The text lists destinations in order: the first is the add write. */
    if (in->waddr_add == VC4_QPU_W_NOP) {
        in->waddr_mul = VC4_QPU_W_NOP;
        /* vc4asm: no add write and no flags -> cond never ("sacq -, 3") */
        in->cond_add = in->sf ? VC4_QPU_COND_ALWAYS : VC4_QPU_COND_NEVER;
    }
    if (in->waddr_mul == VC4_QPU_W_NOP)
        in->cond_mul = VC4_QPU_COND_NEVER;
    /* pack (vc4asm doPack, as for the ALU): pm 0 on the destination that
     * writes regfile A (the first with ws 0, the second, a regfile-A
     * register, with ws 1), pm 1 (colour bytes) on the second elsewhere */
    bool mul_file_a = in->ws && in->waddr_mul < 32;
    bool colour = in->pack >= VC4_QPU_PACK_MUL_8888 && in->pack <= VC4_QPU_PACK_MUL_8D;
    bool printed = in->pm ? in->waddr_mul != VC4_QPU_W_NOP && colour && !mul_file_a
                   : in->ws ? in->waddr_mul != VC4_QPU_W_NOP && mul_file_a
                            : in->waddr_add != VC4_QPU_W_NOP;
    if (!printed)
        in->pack = 0;
    if (!in->pack)
        in->pm = 0;
    /* a written first destination expresses ws (raw rbN for a shared name) */
    if (in->waddr_add == VC4_QPU_W_NOP)
        in->ws = 0;
}

static void canon_branch(struct vc4_qpu_instr *in)
{
    in->unpack = 0;
    in->pm = 0;
    if (!in->reg)
        in->raddr_a = 0;
    in->sf = in->raddr_a & 1;
    if (in->waddr_add == VC4_QPU_W_NOP)
        in->waddr_mul = VC4_QPU_W_NOP;
    bool ws_expressed = (in->waddr_add != VC4_QPU_W_NOP && !vc4_qpu_waddr_shared(in->waddr_add)) ||
                        (in->waddr_mul != VC4_QPU_W_NOP && !vc4_qpu_waddr_shared(in->waddr_mul));
    if (!ws_expressed)
        in->ws = 0;
}

void vc4_qpu_canonicalize(struct vc4_qpu_instr *in)
{
    switch (in->kind) {
    case VC4_QPU_KIND_ALU:
    case VC4_QPU_KIND_ALU_SMALL_IMM:
        canon_alu(in);
        break;
    case VC4_QPU_KIND_LOAD_IMM:
    case VC4_QPU_KIND_SEMAPHORE:
        canon_ldi(in);
        break;
    case VC4_QPU_KIND_BRANCH:
        canon_branch(in);
        break;
    }
    /* sig may have changed (13 -> 1) */
    if (in->kind == VC4_QPU_KIND_ALU_SMALL_IMM && in->sig != VC4_QPU_SIG_SMALL_IMM)
        in->kind = VC4_QPU_KIND_ALU;
}

bool vc4_qpu_place_operands(const struct vc4_qpu_operand_req req[VC4_QPU_OPERANDS],
                            bool b_is_small_imm, uint8_t files[VC4_QPU_OPERANDS],
                            uint8_t *raddr_a, uint8_t *raddr_b)
{
    int ra = -1, rb = b_is_small_imm ? 256 : -1; /* 256: taken by the immediate */
    for (int i = 0; i < VC4_QPU_OPERANDS; i++) {
        files[i] = 0;
        if (!req[i].used || req[i].shared)
            continue;
        int *slot = req[i].file ? &rb : &ra;
        if (*slot >= 0 && *slot != req[i].raddr)
            return false;
        *slot = req[i].raddr;
        files[i] = req[i].file;
    }
    for (int i = 0; i < VC4_QPU_OPERANDS; i++) {
        if (!req[i].used || !req[i].shared)
            continue;
        if (ra == req[i].raddr)
            files[i] = 0;
        else if (rb == req[i].raddr)
            files[i] = 1;
        else if (ra < 0) {
            ra = req[i].raddr;
            files[i] = 0;
        } else if (rb < 0) {
            rb = req[i].raddr;
            files[i] = 1;
        } else {
            return false;
        }
    }
    if (raddr_a)
        *raddr_a = (uint8_t)(ra >= 0 ? ra : VC4_QPU_R_NOP);
    if (raddr_b && rb != 256)
        *raddr_b = (uint8_t)(rb >= 0 ? rb : VC4_QPU_R_NOP);
    return true;
}
