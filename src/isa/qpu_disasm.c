/*
 * qpu_disasm.c - instruction -> vc4asm text, plus the seed posts' style of
 * field-by-field explanation and the raw field list.
 *
 * The text is what the instruction means, in vc4asm syntax (the assembler
 * existing QPU code is written in).  Fields the text cannot express are
 * appended as "@field=value" overrides so the line assembles back to the
 * identical word; see isa.h for the canonical form that decides them.
 */
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "isa/isa.h"

/* ---- small formatting helpers (no printf in the hot path) ---------------- */

static void put_raw_reg(struct vc4_out *o, unsigned file, unsigned raddr)
{
    vc4_out_puts(o, file ? "rb" : "ra");
    vc4_out_uint(o, raddr);
}

static void put_hex32(struct vc4_out *o, uint32_t v)
{
    vc4_out_puts(o, "0x");
    vc4_out_hex(o, v, 8);
}

/* ---- operands ---------------------------------------------------------- */

struct operands {
    uint8_t mux[VC4_QPU_OPERANDS];  /* add a, add b, mul a, mul b */
    uint8_t used[VC4_QPU_OPERANDS];
    uint8_t raw[VC4_QPU_OPERANDS];  /* print raNN/rbNN to pin the file */
};

static void collect_operands(const struct vc4_qpu_instr *c, struct operands *ops)
{
    memset(ops, 0, sizeof *ops);
    ops->mux[0] = c->add_a;
    ops->mux[1] = c->add_b;
    ops->mux[2] = c->mul_a;
    ops->mux[3] = c->mul_b;
    ops->used[0] = c->op_add != VC4_QPU_A_NOP;
    ops->used[1] = c->op_add != VC4_QPU_A_NOP && !vc4_qpu_op_add_is_unary(c->op_add);
    ops->used[2] = ops->used[3] = c->op_mul != VC4_QPU_M_NOP;

    /* Simulate the assembler's placement of shared names (unif, vary, nop,
     * vpm, mutex); where it would pick the other file, print the raw name. */
    bool imm = c->sig == VC4_QPU_SIG_SMALL_IMM;
    for (int round = 0; round < VC4_QPU_OPERANDS + 1; round++) {
        struct vc4_qpu_operand_req req[VC4_QPU_OPERANDS] = {{0}};
        for (int i = 0; i < VC4_QPU_OPERANDS; i++) {
            unsigned m = ops->mux[i];
            if (!ops->used[i] || m < VC4_QPU_MUX_A || (m == VC4_QPU_MUX_B && imm))
                continue;
            unsigned raddr = m == VC4_QPU_MUX_A ? c->raddr_a : c->raddr_b;
            req[i] = (struct vc4_qpu_operand_req){
                .used = 1, .shared = vc4_qpu_raddr_shared(raddr) && !ops->raw[i],
                .file = m == VC4_QPU_MUX_B, .raddr = (uint8_t)raddr};
        }
        uint8_t files[VC4_QPU_OPERANDS];
        bool ok = vc4_qpu_place_operands(req, imm, files, NULL, NULL);
        bool changed = false;
        for (int i = 0; i < VC4_QPU_OPERANDS; i++) {
            if (req[i].used && req[i].shared && (!ok || files[i] != req[i].file)) {
                ops->raw[i] = 1;
                changed = true;
            }
        }
        if (!changed)
            break;
    }
}

static void put_operand(struct vc4_out *o, const struct vc4_qpu_instr *c,
                        const struct operands *ops, int i)
{
    unsigned m = ops->mux[i];
    if (m < VC4_QPU_MUX_A) {
        vc4_out_putc(o, 'r');
        vc4_out_putc(o, (char)('0' + m));
    } else if (m == VC4_QPU_MUX_B && c->sig == VC4_QPU_SIG_SMALL_IMM) {
        const char *name = vc4_qpu_small_imm_name(c->raddr_b);
        if (name)
            vc4_out_puts(o, name);
        else /* a rotation code read as a value: -16..-1 */
            vc4_out_int(o, (int32_t)vc4_qpu_small_imm_value(c->raddr_b));
    } else {
        unsigned file = m == VC4_QPU_MUX_B;
        unsigned raddr = file ? c->raddr_b : c->raddr_a;
        const char *name = ops->raw[i] ? NULL : vc4_qpu_raddr_name(file, raddr);
        if (name)
            vc4_out_puts(o, name);
        else
            put_raw_reg(o, file, raddr);
    }
    if ((c->pm == 0 && m == VC4_QPU_MUX_A) || (c->pm == 1 && m == VC4_QPU_MUX_R4))
        vc4_out_puts(o, vc4_qpu_unpack_suffix(c->unpack));
}

/* A destination name; raw (raN / rbN) when it must say its file (pin_ws). */
static void put_waddr(struct vc4_out *o, unsigned file, unsigned waddr, bool raw)
{
    if (raw)
        put_raw_reg(o, file, waddr);
    else
        vc4_out_puts(o, vc4_qpu_waddr_name(file, waddr));
}

/* ws = 1 with only names both files share ("mutex", "-", "vpm"...) reads as
 * ws = 0: print one destination raw, as vc4asm reads "or rb51, ..." (ws 1).
 * 1: the add destination, 2: the mul destination, 0: none. */
static int pin_ws(const struct vc4_qpu_instr *c, bool add_w, bool mul_w)
{
    if (!c->ws || (add_w && !vc4_qpu_waddr_shared(c->waddr_add)) ||
        (mul_w && !vc4_qpu_waddr_shared(c->waddr_mul)))
        return 0;
    return add_w ? 1 : mul_w ? 2 : 0;
}

static void put_add(struct vc4_out *o, const struct vc4_qpu_instr *c, const struct operands *ops)
{
    if (c->op_add == VC4_QPU_A_NOP) {
        vc4_out_puts(o, "nop");
        if (c->waddr_add != VC4_QPU_W_NOP) { /* vc4asm "nop ra0" (cond never) */
            vc4_out_puts(o, " ");
            put_waddr(o, vc4_qpu_add_wfile(c), c->waddr_add,
                      pin_ws(c, true, vc4_qpu_mul_writes(c)) == 1);
        }
        return;
    }
    const char *name = vc4_qpu_op_add_name(c->op_add);
    /* v8adds/v8subs are MUL operations for vc4asm unless tied to the ADD ALU */
    if (c->op_add == VC4_QPU_A_V8ADDS || c->op_add == VC4_QPU_A_V8SUBS)
        vc4_out_puts(o, "a");
    vc4_out_puts(o, name); /* reserved codes: fadd + @op_add (disasm_text) */
    /* writing '-' without flags: no suffix means never (see qpu_canon.c) */
    if (!(c->waddr_add == VC4_QPU_W_NOP && !c->sf && c->cond_add == VC4_QPU_COND_NEVER))
        vc4_out_puts(o, vc4_qpu_cond_suffix(c->cond_add));
    if (c->sf)
        vc4_out_puts(o, ".setf");
    vc4_out_puts(o, " ");
    put_waddr(o, vc4_qpu_add_wfile(c), c->waddr_add,
              pin_ws(c, true, vc4_qpu_mul_writes(c)) == 1);
    if (!c->pm && !c->ws)
        vc4_out_puts(o, vc4_qpu_pack_suffix(0, c->pack));
    vc4_out_puts(o, ", ");
    put_operand(o, c, ops, 0);
    if (!vc4_qpu_op_add_is_unary(c->op_add)) {
        vc4_out_puts(o, ", ");
        put_operand(o, c, ops, 1);
    }
}

static void put_mul(struct vc4_out *o, const struct vc4_qpu_instr *c, const struct operands *ops)
{
    if (c->op_mul == VC4_QPU_M_NOP) {
        if (c->waddr_mul == VC4_QPU_W_NOP) {
            vc4_out_puts(o, "nop");
            return;
        }
        /* a MUL nop that writes (its condition kept): "mnop" ties it to the
         * MUL ALU whatever the ADD part says (vc4asm's opcode table) */
        vc4_out_puts(o, "mnop");
        vc4_out_puts(o, vc4_qpu_cond_suffix(c->cond_mul));
        vc4_out_puts(o, " ");
        put_waddr(o, vc4_qpu_mul_wfile(c), c->waddr_mul,
                  pin_ws(c, vc4_qpu_add_writes(c), true) == 2);
        return;
    }
    vc4_out_puts(o, vc4_qpu_op_mul_name(c->op_mul));
    if (!(c->waddr_mul == VC4_QPU_W_NOP && !(c->sf && c->op_add == VC4_QPU_A_NOP) &&
          c->cond_mul == VC4_QPU_COND_NEVER))
        vc4_out_puts(o, vc4_qpu_cond_suffix(c->cond_mul));
    if (c->sf && c->op_add == VC4_QPU_A_NOP)
        vc4_out_puts(o, ".setf");
    if (c->sig == VC4_QPU_SIG_SMALL_IMM && c->raddr_b >= VC4_QPU_SMALL_IMM_ROT_R5) {
        if (c->raddr_b == VC4_QPU_SMALL_IMM_ROT_R5) {
            vc4_out_puts(o, ".rot r5,");
        } else {
            vc4_out_puts(o, ".rot ");
            vc4_out_uint(o, c->raddr_b - VC4_QPU_SMALL_IMM_ROT_R5);
            vc4_out_putc(o, ',');
        }
    }
    vc4_out_puts(o, " ");
    put_waddr(o, vc4_qpu_mul_wfile(c), c->waddr_mul,
              pin_ws(c, vc4_qpu_add_writes(c), true) == 2);
    if (c->pm) { /* pm-1 code 11 reads ".8abcds" (canon: printed only then) */
        vc4_out_puts(o, vc4_qpu_pack_suffix(c->pack == VC4_QPU_PACK_A_8888_SAT ? 0 : 1, c->pack));
        /* into a regfile-A register ".8a" means the regfile-A pack (vc4asm
         * doPack): the float spelling ".8asf" names the colour pack */
        if (c->pack != VC4_QPU_PACK_A_8888_SAT && c->ws && c->waddr_mul < 32 && c->pack)
            vc4_out_puts(o, "sf");
    }
    else if (c->ws) /* regfile-A pack of the mul result (canon decides if printed) */
        vc4_out_puts(o, vc4_qpu_pack_suffix(0, c->pack));
    vc4_out_puts(o, ", ");
    put_operand(o, c, ops, 2);
    vc4_out_puts(o, ", ");
    put_operand(o, c, ops, 3);
}

/* Destinations of a load immediate / semaphore / branch: "ra0, rb1, " or "-, ". */
static void put_dests(struct vc4_out *o, const struct vc4_qpu_instr *c, bool conds)
{
    if (c->waddr_add == VC4_QPU_W_NOP) {
        vc4_out_puts(o, "-, ");
        return;
    }
    /* ldi / semaphore: the first destination expresses ws (canon_ldi); a
     * regfile-A pack (pm 0) goes on the destination that writes regfile A */
    put_waddr(o, vc4_qpu_add_wfile(c), c->waddr_add, conds && pin_ws(c, true, false) == 1);
    if (conds && !c->pm && !c->ws)
        vc4_out_puts(o, vc4_qpu_pack_suffix(0, c->pack));
    if (conds)
        vc4_out_puts(o, vc4_qpu_cond_suffix(c->cond_add));
    vc4_out_puts(o, ", ");
    if (c->waddr_mul != VC4_QPU_W_NOP) {
        put_waddr(o, vc4_qpu_mul_wfile(c), c->waddr_mul, false);
        if (conds && (c->pm || c->ws))
            vc4_out_puts(o, vc4_qpu_pack_suffix(c->pm, c->pack));
        if (conds)
            vc4_out_puts(o, vc4_qpu_cond_suffix(c->cond_mul));
        vc4_out_puts(o, ", ");
    }
}

static void put_imm(struct vc4_out *o, uint32_t v)
{
    if ((int32_t)v > -256 && (int32_t)v < 256)
        vc4_out_int(o, (int32_t)v);
    else
        put_hex32(o, v);
}

static void put_ldi(struct vc4_out *o, const struct vc4_qpu_instr *c)
{
    if (c->kind == VC4_QPU_KIND_SEMAPHORE) {
        vc4_out_puts(o, (c->imm & 0x10) ? "sacq" : "srel");
    } else if (c->unpack == VC4_QPU_LDI_PER_ELEMENT_SIGNED) {
        vc4_out_puts(o, "ldipes"); /* vc4asm's names for the per-element forms */
    } else if (c->unpack == VC4_QPU_LDI_PER_ELEMENT_UNSIGNED) {
        vc4_out_puts(o, "ldipeu");
    } else {
        vc4_out_puts(o, "ldi");
    }
    if (c->sf)
        vc4_out_puts(o, ".setf");
    vc4_out_puts(o, " ");
    put_dests(o, c, true);
    if (c->kind == VC4_QPU_KIND_SEMAPHORE) {
        vc4_out_uint(o, c->imm & ~0x10u); /* bits 5.. kept, as vc4asm reads them */
    } else if (c->unpack == VC4_QPU_LDI_PER_ELEMENT_SIGNED ||
               c->unpack == VC4_QPU_LDI_PER_ELEMENT_UNSIGNED) {
        bool sign = c->unpack == VC4_QPU_LDI_PER_ELEMENT_SIGNED;
        vc4_out_puts(o, "[");
        for (int i = 0; i < 16; i++) {
            int ms = (c->imm >> (16 + i)) & 1, ls = (c->imm >> i) & 1;
            int v = sign ? -2 * ms + ls : 2 * ms + ls;
            if (i)
                vc4_out_putc(o, ',');
            vc4_out_int(o, v);
        }
        vc4_out_puts(o, "]");
    } else {
        put_imm(o, c->imm);
    }
}

static void put_branch(struct vc4_out *o, const struct vc4_qpu_instr *c, uint32_t pc)
{
    vc4_out_puts(o, c->rel ? "brr" : "bra");
    vc4_out_puts(o, vc4_qpu_branch_cond_suffix(c->cond_br)); /* 12-14: @cond_br */
    vc4_out_puts(o, " ");
    put_dests(o, c, false);
    /* vc4asm reads "link, link2, X" as link + branch register X: two links
     * without a register print "-" in the register place
     * ("brr ra8, rb8, -, 2880" means the same to both assemblers) */
    if (!c->reg && c->waddr_mul != VC4_QPU_W_NOP)
        vc4_out_puts(o, "-, ");
    if (c->reg) {
        put_raw_reg(o, 0, c->raddr_a);
        vc4_out_puts(o, ", ");
    }
    (void)pc;
    if (c->rel) {
        if ((int32_t)c->imm >= 0)
            vc4_out_putc(o, '+');
        vc4_out_int(o, (int32_t)c->imm);
    } else {
        put_hex32(o, c->imm);
    }
}

/* Appends "; @field=value ..." for the fields whose value the text does not carry. */
/* vc4_qpu_field_get without the call (the hot path reads ~20 fields twice). */
static inline uint32_t field_at(const struct vc4_qpu_instr *in, const struct vc4_qpu_field_desc *d)
{
    const unsigned char *p = (const unsigned char *)in + d->offset;
    if (d->is32) {
        uint32_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    return *p;
}

static bool same_fields(const struct vc4_qpu_instr *a, const struct vc4_qpu_instr *b)
{
    return a->sig == b->sig && a->unpack == b->unpack && a->pm == b->pm && a->pack == b->pack &&
           a->cond_add == b->cond_add && a->cond_mul == b->cond_mul && a->sf == b->sf &&
           a->ws == b->ws && a->waddr_add == b->waddr_add && a->waddr_mul == b->waddr_mul &&
           a->op_mul == b->op_mul && a->op_add == b->op_add && a->raddr_a == b->raddr_a &&
           a->raddr_b == b->raddr_b && a->add_a == b->add_a && a->add_b == b->add_b &&
           a->mul_a == b->mul_a && a->mul_b == b->mul_b && a->cond_br == b->cond_br &&
           a->rel == b->rel && a->reg == b->reg && a->imm == b->imm;
}

static void put_overrides(struct vc4_out *o, const struct vc4_qpu_instr *in,
                          const struct vc4_qpu_instr *c)
{
    if (same_fields(in, c)) /* the common case: the text carries every field */
        return;
    unsigned forms = vc4_qpu_forms_of(in);
    bool any = false;
    for (int f = 0; f < VC4_F_COUNT; f++) {
        const struct vc4_qpu_field_desc *d = &vc4_qpu_field_table[f];
        if (!(d->forms & forms))
            continue;
        uint32_t v = field_at(in, d);
        if (v == field_at(c, d))
            continue;
        vc4_out_puts(o, any ? " " : "; ");
        vc4_out_putc(o, '@');
        vc4_out_puts(o, d->name);
        if (d->width > 8) {
            vc4_out_puts(o, "=0x");
            vc4_out_hex(o, v, 1);
        } else {
            vc4_out_putc(o, '=');
            vc4_out_uint(o, v);
        }
        any = true;
    }
}

static void disasm_text(struct vc4_out *o, const struct vc4_qpu_instr *in, uint32_t pc)
{
    struct vc4_qpu_instr c = *in;
    vc4_qpu_canonicalize(&c);
    /* Reserved codes have no name vc4asm reads: the text names a valid one
     * of the same shape (fadd: two operands; no branch condition) and the
     * real code follows as an override. */
    if (c.kind != VC4_QPU_KIND_BRANCH && !vc4_qpu_op_add_name(c.op_add))
        c.op_add = VC4_QPU_A_FADD;
    if (c.kind == VC4_QPU_KIND_BRANCH && !vc4_qpu_branch_cond_suffix(c.cond_br))
        c.cond_br = VC4_QPU_BCOND_ALWAYS;
    switch (c.kind) {
    case VC4_QPU_KIND_ALU:
    case VC4_QPU_KIND_ALU_SMALL_IMM: {
        struct operands ops;
        collect_operands(&c, &ops);
        put_add(o, &c, &ops);
        vc4_out_puts(o, "; ");
        put_mul(o, &c, &ops);
        /* a register or small immediate no operation reads: vc4asm's "read" */
        if (c.raddr_a == VC4_QPU_R_NOP && in->raddr_a != VC4_QPU_R_NOP) {
            vc4_out_puts(o, "; read ");
            put_raw_reg(o, 0, in->raddr_a);
            c.raddr_a = in->raddr_a;
        } else if (in->sig == VC4_QPU_SIG_SMALL_IMM && c.sig == VC4_QPU_SIG_NONE &&
                   in->raddr_b < 48) {
            vc4_out_puts(o, "; read ");
            vc4_out_puts(o, vc4_qpu_small_imm_name(in->raddr_b));
            c.sig = VC4_QPU_SIG_SMALL_IMM;
            c.kind = VC4_QPU_KIND_ALU_SMALL_IMM;
            c.raddr_b = in->raddr_b;
        } else if (in->sig != VC4_QPU_SIG_SMALL_IMM && c.raddr_b == VC4_QPU_R_NOP &&
                   in->raddr_b != VC4_QPU_R_NOP) {
            vc4_out_puts(o, "; read ");
            put_raw_reg(o, 1, in->raddr_b);
            c.raddr_b = in->raddr_b;
        }
        const char *sig = vc4_qpu_sig_name(c.sig);
        if (sig) {
            vc4_out_puts(o, "; ");
            vc4_out_puts(o, sig);
        }
        break;
    }
    case VC4_QPU_KIND_LOAD_IMM:
    case VC4_QPU_KIND_SEMAPHORE:
        put_ldi(o, &c);
        break;
    case VC4_QPU_KIND_BRANCH:
        put_branch(o, &c, pc);
        break;
    }
    put_overrides(o, in, &c);
    if (c.kind == VC4_QPU_KIND_BRANCH && c.rel) { /* where a relative branch lands */
        vc4_out_puts(o, "  # -> ");
        put_hex32(o, pc + 32u + c.imm);
        if (c.reg)
            vc4_out_puts(o, " + ra");
    }
}

size_t vc4_qpu_disasm(const struct vc4_qpu_instr *in, uint32_t pc, unsigned flags,
                      char *buf, size_t size)
{
    struct vc4_out o;
    vc4_out_init(&o, buf, size);
    disasm_text(&o, in, pc);
    if (flags & VC4_DIS_FIELDS) {
        char tmp[512];
        vc4_qpu_fields(in, tmp, sizeof tmp);
        vc4_out_puts(&o, "  # ");
        vc4_out_puts(&o, tmp);
    }
    if (flags & VC4_DIS_EXPLAIN) {
        char tmp[1024];
        vc4_qpu_explain(in, tmp, sizeof tmp);
        vc4_out_puts(&o, "  # ");
        vc4_out_puts(&o, tmp);
    }
    return o.len;
}

size_t vc4_qpu_fields(const struct vc4_qpu_instr *in, char *buf, size_t size)
{
    struct vc4_out o;
    vc4_out_init(&o, buf, size);
    unsigned forms = vc4_qpu_forms_of(in);
    bool first = true;
    for (int f = 0; f < VC4_F_COUNT; f++) {
        const struct vc4_qpu_field_desc *d = &vc4_qpu_field_table[f];
        if (!(d->forms & forms))
            continue;
        uint32_t v = vc4_qpu_field_get(in, (enum vc4_qpu_field)f);
        vc4_out_printf(&o, d->width > 8 ? "%s%s=0x%08x" : "%s%s=%u", first ? "" : " ", d->name, v);
        first = false;
    }
    if (in->kind == VC4_QPU_KIND_BRANCH)
        vc4_out_printf(&o, " sf=%u", in->raddr_a & 1);
    return o.len;
}

/* ---- explanation, in the seed posts' words ----------------------------- */

static void explain_reg_read(struct vc4_out *o, const struct vc4_qpu_instr *in, unsigned mux)
{
    if (mux < VC4_QPU_MUX_A) {
        vc4_out_printf(o, "acc r%u", mux);
    } else if (mux == VC4_QPU_MUX_B && in->sig == VC4_QPU_SIG_SMALL_IMM) {
        const char *n = vc4_qpu_small_imm_name(in->raddr_b);
        if (n && vc4_qpu_small_imm_is_float(in->raddr_b))
            vc4_out_printf(o, "small immediate %s", n);
        else
            vc4_out_printf(o, "small immediate int %d", (int32_t)vc4_qpu_small_imm_value(in->raddr_b));
    } else {
        unsigned file = mux == VC4_QPU_MUX_B;
        unsigned raddr = file ? in->raddr_b : in->raddr_a;
        const char *hw = vc4_qpu_raddr_hw_name(file, raddr);
        if (raddr < 32)
            vc4_out_printf(o, "r%u%c", raddr, file ? 'b' : 'a');
        else if (hw)
            vc4_out_puts(o, hw);
        else
            vc4_out_printf(o, "r%u%c (no meaning)", raddr, file ? 'b' : 'a');
    }
}

static void explain_dest(struct vc4_out *o, unsigned file, unsigned waddr)
{
    const char *hw = vc4_qpu_waddr_hw_name(file, waddr);
    if (waddr < 32)
        vc4_out_printf(o, "r%u%c", waddr, file ? 'b' : 'a');
    else
        vc4_out_puts(o, hw);
}

static const char *const cond_words[8] = {"never", "always", "zero set", "zero clear",
                                          "negative set", "negative clear", "carry set",
                                          "carry clear"};

static const char *const pack_a_words[16] = {
    "32->32 no pack", "32->16a", "32->16b", "32->8888 replicate", "32->8a", "32->8b",
    "32->8c", "32->8d", "32->32 saturate", "32->16a saturate", "32->16b saturate",
    "32->8888 saturate", "32->8a saturate", "32->8b saturate", "32->8c saturate",
    "32->8d saturate"};
static const char *const pack_mul_words[16] = {
    [0] = "32->32 no pack", [3] = "32->8888 colour (all channels)", [4] = "32->8a colour",
    [5] = "32->8b colour", [6] = "32->8c colour", [7] = "32->8d colour"};
static const char *const unpack_words[8] = {"no unpack", "16a->32", "16b->32",
                                            "8d->8888 replicate", "8a->32", "8b->32",
                                            "8c->32", "8d->32"};

size_t vc4_qpu_explain(const struct vc4_qpu_instr *in, char *buf, size_t size)
{
    struct vc4_out o;
    vc4_out_init(&o, buf, size);
    switch (in->kind) {
    case VC4_QPU_KIND_ALU:
    case VC4_QPU_KIND_ALU_SMALL_IMM: {
        if (in->op_add == VC4_QPU_A_NOP) {
            vc4_out_printf(&o, "add op: no operation, add cond: %s", cond_words[in->cond_add]);
        } else {
            const struct vc4_qpu_op_desc *op = &vc4_qpu_add_ops[in->op_add];
            if (op->name)
                vc4_out_printf(&o, "add pipe: %s (%s), dest ", op->name, op->hw);
            else
                vc4_out_printf(&o, "add pipe: reserved op %u, dest ", in->op_add);
            explain_dest(&o, vc4_qpu_add_wfile(in), in->waddr_add);
            vc4_out_puts(&o, ", src1 ");
            explain_reg_read(&o, in, in->add_a);
            if (!op->unary) {
                vc4_out_puts(&o, ", src2 ");
                explain_reg_read(&o, in, in->add_b);
            }
            vc4_out_printf(&o, ", cond %s", cond_words[in->cond_add]);
        }
        vc4_out_puts(&o, "; ");
        if (in->op_mul == VC4_QPU_M_NOP) {
            vc4_out_printf(&o, "mul op: no operation, mul cond: %s", cond_words[in->cond_mul]);
        } else {
            vc4_out_printf(&o, "mul pipe: %s (%s), dest ", vc4_qpu_mul_ops[in->op_mul].name,
                           vc4_qpu_mul_ops[in->op_mul].hw);
            explain_dest(&o, vc4_qpu_mul_wfile(in), in->waddr_mul);
            vc4_out_puts(&o, ", src1 ");
            explain_reg_read(&o, in, in->mul_a);
            vc4_out_puts(&o, ", src2 ");
            explain_reg_read(&o, in, in->mul_b);
            vc4_out_printf(&o, ", cond %s", cond_words[in->cond_mul]);
            if (in->sig == VC4_QPU_SIG_SMALL_IMM && in->raddr_b >= VC4_QPU_SMALL_IMM_ROT_R5) {
                if (in->raddr_b == VC4_QPU_SMALL_IMM_ROT_R5)
                    vc4_out_puts(&o, ", vector rotate by r5");
                else
                    vc4_out_printf(&o, ", vector rotate by %u", in->raddr_b - 48u);
            }
        }
        if (in->pack) {
            if (in->pm)
                vc4_out_printf(&o, "; pack %s (PM1, mul ALU)",
                               pack_mul_words[in->pack] ? pack_mul_words[in->pack] : "reserved");
            else
                vc4_out_printf(&o, "; pack %s (PM0, regfile A write of the %s ALU)",
                               pack_a_words[in->pack], in->ws ? "mul" : "add");
        }
        if (in->unpack)
            vc4_out_printf(&o, "; unpack %s (PM%u, %s)", unpack_words[in->unpack], in->pm,
                           in->pm ? "r4 reads" : "regfile A reads");
        if (in->sf)
            vc4_out_printf(&o, "; set flags from the %s ALU",
                           in->op_add != VC4_QPU_A_NOP ? "add" : "mul");
        vc4_out_printf(&o, "; signal: %s", vc4_qpu_sig_hw_name(in->sig));
        break;
    }
    case VC4_QPU_KIND_LOAD_IMM:
    case VC4_QPU_KIND_SEMAPHORE: {
        if (in->kind == VC4_QPU_KIND_SEMAPHORE)
            vc4_out_printf(&o, "semaphore %u %s", in->imm & 0xF,
                           (in->imm & 0x10) ? "acquire (decrement, wait while 0)"
                                            : "release (increment)");
        else if (in->unpack == VC4_QPU_LDI_PER_ELEMENT_SIGNED)
            vc4_out_printf(&o, "load immediate per-element signed 2-bit 0x%08x", in->imm);
        else if (in->unpack == VC4_QPU_LDI_PER_ELEMENT_UNSIGNED)
            vc4_out_printf(&o, "load immediate per-element unsigned 2-bit 0x%08x", in->imm);
        else {
            vc4_out_printf(&o, "load immediate 32-bit 0x%08x", in->imm);
            float f = vc4_u2f(in->imm);
            if (f == f && (in->imm & 0x7F800000) != 0x7F800000)
                vc4_out_printf(&o, " (float %g)", (double)f);
        }
        vc4_out_puts(&o, "; add write ");
        explain_dest(&o, vc4_qpu_add_wfile(in), in->waddr_add);
        vc4_out_printf(&o, ", cond %s; mul write ", cond_words[in->cond_add]);
        explain_dest(&o, vc4_qpu_mul_wfile(in), in->waddr_mul);
        vc4_out_printf(&o, ", cond %s; write swap %u, set flags %u", cond_words[in->cond_mul],
                       in->ws, in->sf);
        if (in->pack)
            vc4_out_printf(&o, "; pack %s (PM%u)",
                           in->pm ? (pack_mul_words[in->pack] ? pack_mul_words[in->pack] : "reserved")
                                  : pack_a_words[in->pack], in->pm);
        break;
    }
    case VC4_QPU_KIND_BRANCH: {
        static const char *const bc[16] = {
            "all Z set", "all Z clear", "any Z set", "any Z clear", "all N set", "all N clear",
            "any N set", "any N clear", "all C set", "all C clear", "any C set", "any C clear",
            "reserved", "reserved", "reserved", "always"};
        vc4_out_printf(&o, "branch %s, cond %s, target %s0x%08x%s", in->rel ? "relative" : "absolute",
                       bc[in->cond_br], in->rel ? "PC+4 instructions + " : "", in->imm,
                       in->reg ? " + ra element 15" : "");
        if (in->reg)
            vc4_out_printf(&o, " (ra%u)", in->raddr_a);
        vc4_out_puts(&o, "; link add ");
        explain_dest(&o, vc4_qpu_add_wfile(in), in->waddr_add);
        vc4_out_puts(&o, ", link mul ");
        explain_dest(&o, vc4_qpu_mul_wfile(in), in->waddr_mul);
        vc4_out_puts(&o, "; 3 delay slots");
        break;
    }
    }
    return o.len;
}
