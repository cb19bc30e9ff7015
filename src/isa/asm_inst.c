/*
 * asm_inst.c - one instruction line of the vc4asm dialect -> vc4_qpu_instr.
 *
 * A line is ';'-separated parts: an ADD ALU op, a MUL ALU op, "nop", "mov",
 * a signal ("thrend", "ldtmu0", ...), or alone ldi/ldipes/ldipeu/sacq/srel/
 * bra/brr; a part of "@field=value" items sets raw fields last (the round-trip
 * escape the disassembler prints, see isa.h and docs/assembly.md).
 *
 * vc4asm facts used here (maazl/vc4asm src/AssembleInst.cpp, doc/instructions.html):
 *  - mov with a register source is "or" on the ADD ALU, "v8min" on the MUL ALU;
 *    the ADD ALU is preferred unless it is taken (or an explicit "nop" took it)
 *    or the source is rotated (rotation exists only on the MUL ALU).
 *  - mov of a constant uses a small-immediate trick (smiMap: "or x,x", "add x,x",
 *    "mul24 x,x", "shl x,x", "ftoi", ...; 0 is "xor"/"v8subs" of the same mux
 *    without any immediate); when the other ALU is unused and no flags are set,
 *    vc4asm's optimize() turns the whole instruction into "ldi" instead.
 *  - "add x, y, 16" becomes "sub x, y, -16"; shift counts keep their low 5 bits.
 *  - v8adds/v8subs/nop go to the MUL ALU when the ADD ALU is taken.
 *  - an op writing '-' without .setf and without an explicit condition gets
 *    cond never (AssembleInst::optimize); see qpu_canon.c.
 */
#include <string.h>

#include "isa/asm_internal.h"

enum src_kind { SRC_REG, SRC_IMM, SRC_MUXB };

struct src {
    enum src_kind kind;
    struct asm_reg r;
    uint32_t bits; /* SRC_IMM */
    unsigned col;
};

struct side {
    bool used;   /* the ALU is taken (op or explicit nop) */
    bool nop;
    bool mov;    /* "mov": op chosen at resolve time */
    bool movconst;
    unsigned op;
    bool has_dest;
    struct asm_reg dest;
    unsigned dest_col;
    int cond;    /* -1 = not written */
    bool setf;
    int nsrc;
    struct src src[2];
    int rot;     /* .rot n (1..15) or 16 = r5; 0 none */
    bool fixed;  /* tied to its ALU (aop/mop/amov/mmov): never swapped */
    unsigned col;
};

struct args {
    int n;
    struct asm_val v[4];
    unsigned col[4];
};

struct ib {
    struct vc4_asm *as;
    struct side s[2]; /* 0 add, 1 mul */
    int sig;          /* -1 none */
    unsigned sig_col;
    bool has_read;    /* "read src": a register file read or small immediate, no op */
    struct src read;
    int read_at;      /* where it went: 0 raddr_a, 1 raddr_b, 2 small immediate */
    bool ldimov;      /* "mov dst, sacqN / [vector]": a load immediate / semaphore */
    struct args ldimov_args;
    int ldimov_cond;
    bool ldimov_setf;
    unsigned ldimov_col;
};

static bool err(struct vc4_asm *as, unsigned col, const char *msg)
{
    asm_error(as, col, "%s", msg);
    return false;
}

/* err with the token's text: "unknown instruction 'frobnicate'", "unknown
 * suffix '.foo'" */
static bool err_named(struct vc4_asm *as, const struct asm_tok *t, const char *what)
{
    asm_error(as, t->col, "%s '%s%.*s'", what, t->kind == TK_SUFFIX ? "." : "", (int)t->len, t->p);
    return false;
}

/* ---- mnemonics --------------------------------------------------------------- */

/* The named ADD opcodes in the order of their spec names (vc4_qpu_add_ops),
 * for a binary search; asm_op_table_sorted checks the order and coverage. */
static const uint8_t add_ops_by_name[] = {
    VC4_QPU_A_ADD,  VC4_QPU_A_AND,     VC4_QPU_A_ASR,  VC4_QPU_A_CLZ,     VC4_QPU_A_FADD,
    VC4_QPU_A_FMAX, VC4_QPU_A_FMAXABS, VC4_QPU_A_FMIN, VC4_QPU_A_FMINABS, VC4_QPU_A_FSUB,
    VC4_QPU_A_FTOI, VC4_QPU_A_ITOF,    VC4_QPU_A_MAX,  VC4_QPU_A_MIN,     VC4_QPU_A_NOT,
    VC4_QPU_A_OR,   VC4_QPU_A_ROR,     VC4_QPU_A_SHL,  VC4_QPU_A_SHR,     VC4_QPU_A_SUB,
    VC4_QPU_A_V8ADDS, VC4_QPU_A_V8SUBS, VC4_QPU_A_XOR,
};

bool asm_op_table_sorted(void)
{
    unsigned named = 0;
    for (unsigned i = 1; i < VC4_QPU_A_COUNT; i++)
        named += vc4_qpu_add_ops[i].name != NULL;
    if (named != VC4_ARRAY_SIZE(add_ops_by_name))
        return false;
    for (size_t i = 0; i < VC4_ARRAY_SIZE(add_ops_by_name); i++) {
        const char *n = vc4_qpu_add_ops[add_ops_by_name[i]].name;
        if (!n || (i && strcmp(vc4_qpu_add_ops[add_ops_by_name[i - 1]].name, n) >= 0))
            return false;
    }
    return true;
}

static int find_add_op(const char *p, size_t len)
{
    size_t lo = 0, hi = VC4_ARRAY_SIZE(add_ops_by_name);
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = asm_name_cmp(p, len, vc4_qpu_add_ops[add_ops_by_name[mid]].name);
        if (c == 0)
            return add_ops_by_name[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    /* "addopN": reserved add opcodes, as the disassembler prints them */
    if (len > 5 && len <= 7 && memcmp(p, "addop", 5) == 0) {
        unsigned v = 0;
        for (size_t i = 5; i < len; i++) {
            if (p[i] < '0' || p[i] > '9')
                return -1;
            v = v * 10 + (unsigned)(p[i] - '0');
        }
        if (v < VC4_QPU_A_COUNT)
            return (int)v;
    }
    return -1;
}

static int find_mul_op(const char *p, size_t len)
{
    for (unsigned i = 1; i < VC4_QPU_M_COUNT; i++) {
        const char *n = vc4_qpu_mul_ops[i].name;
        if (n[0] == p[0] && asm_name_is(n, p, len))
            return (int)i;
    }
    if (len == 5 && memcmp(p, "v8mul", 5) == 0) /* instructions.html spells v8muld so */
        return VC4_QPU_M_V8MULD;
    return -1;
}

/* vc4asm's other signal names (Parser.tables.cpp opcodeMap: the mnemonics of
 * Broadcom's documentation) */
static const struct {
    const char *name;
    uint8_t sig;
} sig_aliases[] = {
    {"break", VC4_QPU_SIG_BREAK},
    {"tswitch", VC4_QPU_SIG_THREAD_SWITCH},
    {"tend", VC4_QPU_SIG_PROG_END},
    {"waitscb", VC4_QPU_SIG_WAIT_FOR_SCOREBOARD},
    {"unlscb", VC4_QPU_SIG_SCOREBOARD_UNLOCK},
    {"lswitch", VC4_QPU_SIG_LAST_THREAD_SWITCH},
    {"ldcvtlb", VC4_QPU_SIG_COVERAGE_LOAD},
    {"ldcotlb", VC4_QPU_SIG_COLOR_LOAD},
    {"ldcoend", VC4_QPU_SIG_COLOR_LOAD_END},
    {"ldaltlb", VC4_QPU_SIG_ALPHA_MASK_LOAD},
};

static int find_sig(const char *p, size_t len)
{
    for (unsigned i = 0; i < VC4_QPU_SIG_COUNT; i++) {
        const char *n = vc4_qpu_sigs[i].name;
        if (n && n[0] == p[0] && asm_name_is(n, p, len))
            return (int)i;
    }
    for (size_t i = 0; i < VC4_ARRAY_SIZE(sig_aliases); i++)
        if (asm_name_is(sig_aliases[i].name, p, len))
            return sig_aliases[i].sig;
    return -1;
}

static const char *const special[] = {"nop", "anop", "mnop", "mov", "ldi", "ldipes", "ldipeu",
                                      "sacq", "srel", "bra", "brr", "read"};

bool asm_is_mnemonic(const char *p, size_t len)
{
    for (size_t i = 0; i < VC4_ARRAY_SIZE(special); i++)
        if (asm_name_is(special[i], p, len))
            return true;
    if (find_add_op(p, len) >= 0 || find_mul_op(p, len) >= 0 || find_sig(p, len) >= 0)
        return true;
    if (len > 1 && p[0] == 'a' && find_add_op(p + 1, len - 1) >= 0)
        return true;
    if (len > 1 && p[0] == 'm' && find_mul_op(p + 1, len - 1) >= 0)
        return true;
    return false;
}


static int bcond_of(const struct asm_tok *t)
{
    for (unsigned c = 0; c < VC4_QPU_BCOND_COUNT; c++) {
        const char *s = vc4_qpu_branch_cond_suffix(c);
        if (s && s[0] == '.' && s[1] == t->p[0] && asm_name_is(s + 1, t->p, t->len))
            return (int)c;
    }
    if (t->len >= 3 && t->len <= 4 && t->p[0] == 'c' && t->p[1] == 'c') {
        unsigned v = 0;
        for (size_t i = 2; i < t->len; i++) {
            if (t->p[i] < '0' || t->p[i] > '9')
                return -1;
            v = v * 10 + (unsigned)(t->p[i] - '0');
        }
        return v < VC4_QPU_BCOND_COUNT ? (int)v : -1;
    }
    if (asm_tok_is(t, "always"))
        return VC4_QPU_BCOND_ALWAYS;
    /* vc4asm's other spellings of the carry conditions (extMap) */
    static const struct {
        const char *name;
        uint8_t cond;
    } more[] = {
        {"allcs", VC4_QPU_BCOND_ALL_CS}, {"allcc", VC4_QPU_BCOND_ALL_CC},
        {"anycs", VC4_QPU_BCOND_ANY_CS}, {"anycc", VC4_QPU_BCOND_ANY_CC},
    };
    for (size_t i = 0; i < VC4_ARRAY_SIZE(more); i++)
        if (asm_tok_is(t, more[i].name))
            return more[i].cond;
    return -1;
}

/* ---- arguments -------------------------------------------------------------- */

/* An op-level pack/unpack suffix, vc4asm instructions.html "Pack/unpack":
 * "op.packxx dst, ..." is "op dst.xx, ..." and "op.unpackyy dst, src" is the
 * .yy unpack on the source read through regfile A (or r4 when no source is
 * regfile A). True when s starts with prefix; r->pk is 0 for an unknown mode. */
static bool op_pk_suffix(const struct asm_tok *s, const char *prefix, struct asm_reg *r)
{
    size_t l = strlen(prefix);
    if (s->len <= l || memcmp(s->p, prefix, l) != 0)
        return false;
    struct asm_tok rest = *s;
    rest.p += l;
    rest.len -= (uint32_t)l;
    r->pk = (uint8_t)asm_pk_suffix(&rest, &r->pkf);
    return true;
}

static bool apply_op_pk(struct vc4_asm *as, struct args *a, const struct asm_reg *pack,
                        const struct asm_reg *unpack, unsigned col)
{
    if (pack->pk) {
        if (a->n < 1 || a->v[0].kind != AV_REG || a->v[0].r.pk)
            return err(as, col, ".pack needs a register destination without a pack suffix");
        a->v[0].r.pk = pack->pk;
        a->v[0].r.pkf = pack->pkf;
    }
    if (!unpack->pk)
        return true;
    int done = 0;
    for (int pass = 0; pass < 2 && !done; pass++) {
        for (int i = 1; i < a->n; i++) {
            struct asm_reg *r = &a->v[i].r;
            if (a->v[i].kind != AV_REG)
                continue;
            bool hit = pass == 0 ? (r->caps & REG_RD_A) && !(r->caps & REG_ACC)
                                 : (r->caps & REG_ACC) && r->acc == 4;
            if (!hit)
                continue;
            if (r->pk)
                return err(as, a->col[i], "an unpack both on the operation and on the source");
            r->pk = unpack->pk;
            r->pkf = unpack->pkf;
            done++;
        }
    }
    if (!done)
        return err(as, col, ".unpack needs a source read through regfile A or r4");
    return true;
}

static bool parse_args(struct vc4_asm *as, const struct asm_tok *t, int n, int *pos, struct args *a)
{
    a->n = 0;
    if (*pos >= n || t[*pos].kind == TK_END)
        return true;
    for (;;) {
        if (a->n >= 4)
            return err(as, t[*pos].col, "too many operands");
        struct asm_expr_ctx c = {.as = as, .t = t, .pos = *pos, .n = n};
        a->col[a->n] = t[*pos].col;
        if (asm_tok_is(&t[*pos], "-") &&
            (t[*pos + 1].kind == TK_END || t[*pos + 1].kind == TK_SUFFIX ||
             asm_tok_is(&t[*pos + 1], ","))) {
            /* '-' alone: no destination (may carry pack/condition suffixes) */
            memset(&a->v[a->n], 0, sizeof a->v[a->n]);
            a->v[a->n].kind = AV_REG;
            asm_builtin_reg("-", 1, &a->v[a->n].r);
            c.pos++;
            if (!asm_reg_suffixes(&c, &a->v[a->n]))
                return false;
        } else if (!asm_expr(&c, &a->v[a->n])) {
            return false;
        }
        a->n++;
        *pos = c.pos;
        if (t[*pos].kind == TK_END)
            return true;
        if (!asm_tok_is(&t[*pos], ","))
            return err(as, t[*pos].col, "expected ',' or end of instruction part");
        (*pos)++;
    }
}

/* ---- small immediates ------------------------------------------------------------ */

static int smi_code(uint32_t bits)
{
    for (unsigned c = 0; c < 48; c++)
        if (vc4_qpu_small_imm_value(c) == bits)
            return (int)c;
    return -1;
}

/*
 * Small-immediate tricks for "mov dst, constant" (vc4asm AssembleInst.tables.cpp
 * smiMap, ordered by priority): the first entry that the ALU can compute from
 * one immediate fed to both inputs.  A subset: identity, x+x, x*x, x<<x,
 * ftoi(x), clz(x), x>>>x, ror(x,x), fmul(x,x).
 */
static bool smi_trick(uint32_t v, bool mul, unsigned *op, unsigned *code)
{
    int c = smi_code(v);
    if (c >= 0) {
        *op = mul ? VC4_QPU_M_V8MIN : VC4_QPU_A_OR;
        *code = (unsigned)c;
        return true;
    }
    if (!mul) {
        for (unsigned k = 0; k < 16; k++)
            if (v == 2 * k) { *op = VC4_QPU_A_ADD; *code = k; return true; }
        for (unsigned k = 32; k < 48; k++) /* ftoi of the float codes */
            if (v == (uint32_t)vc4_u2f(vc4_qpu_small_imm_value(k)) && v) {
                *op = VC4_QPU_A_FTOI; *code = k; return true; }
        for (unsigned k = 0; k < 16; k++)
            if (v == (k << k)) { *op = VC4_QPU_A_SHL; *code = k; return true; }
        for (unsigned k = 0; k < 48; k++) {
            uint32_t x = vc4_qpu_small_imm_value(k);
            unsigned z = 0;
            while (z < 32 && !(x & (0x80000000u >> z)))
                z++;
            if (v == z) { *op = VC4_QPU_A_CLZ; *code = k; return true; }
        }
        for (unsigned k = 16; k < 32; k++) {
            uint32_t x = vc4_qpu_small_imm_value(k);
            if (v == x >> (x & 31)) { *op = VC4_QPU_A_SHR; *code = k; return true; }
        }
        for (unsigned k = 1; k < 16; k++)
            if (v == ((k >> k) | (k << (32 - k)))) { *op = VC4_QPU_A_ROR; *code = k; return true; }
        return false;
    }
    for (unsigned k = 0; k < 16; k++)
        if (v == k * k) { *op = VC4_QPU_M_MUL24; *code = k; return true; }
    for (unsigned k = 0; k < 16; k++)
        if (v == 2 * k) { *op = VC4_QPU_M_V8ADDS; *code = k; return true; }
    for (unsigned k = 32; k < 48; k++) {
        float f = vc4_u2f(vc4_qpu_small_imm_value(k));
        if (v == vc4_f2u(f * f)) { *op = VC4_QPU_M_FMUL; *code = k; return true; }
    }
    return false;
}

/* ---- ALU parts ------------------------------------------------------------------ */

static bool src_from_val(struct vc4_asm *as, const struct asm_val *v, unsigned col, struct src *s)
{
    memset(s, 0, sizeof *s);
    s->col = col;
    switch (v->kind) {
    case AV_REG:
        if (v->r.caps & (REG_SACQ | REG_SREL))
            return err(as, col, "a semaphore cannot be an ALU source");
        if (!(v->r.caps & (REG_RD_A | REG_RD_B | REG_ACC)))
            return err(as, col, "register is not readable");
        if (v->r.cond)
            return err(as, col, "a condition cannot be applied to a source");
        s->kind = SRC_REG;
        s->r = v->r;
        return true;
    case AV_INT:
    case AV_FLOAT:
    case AV_LABEL:
        if (v->kind == AV_INT && (v->i < -(INT64_C(1) << 31) || v->i > (int64_t)UINT32_MAX))
            return err(as, col, "constant does not fit 32 bits");
        s->kind = SRC_IMM;
        s->bits = asm_val_bits(v);
        return true;
    default:
        return err(as, col, "per-element vectors need ldi");
    }
}

static bool set_dest(struct vc4_asm *as, struct side *sd, const struct asm_val *v, unsigned col)
{
    if (v->kind != AV_REG || (v->r.caps & (REG_SACQ | REG_SREL)))
        return err(as, col, "destination must be a register");
    if (!(v->r.caps & (REG_WR_A | REG_WR_B)))
        return err(as, col, "register is not writable");
    if (v->r.rot)
        return err(as, col, "a destination cannot be rotated (use .rot on the mul op)");
    sd->has_dest = true;
    sd->dest = v->r;
    sd->dest_col = col;
    if (v->r.cond) {
        if (sd->cond >= 0)
            return err(as, col, "only one condition per ALU");
        sd->cond = v->r.cond - 1;
    }
    return true;
}

static bool src_same(const struct src *a, const struct src *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == SRC_IMM)
        return a->bits == b->bits;
    return a->r.caps == b->r.caps && a->r.raddr == b->r.raddr && a->r.acc == b->r.acc &&
           a->r.pk == b->r.pk && a->r.rot == b->r.rot;
}

/*
 * vc4asm AssembleInst::tryALUSwap: an operation already placed on one ALU moves
 * to the other (free) one when the other ALU can compute the same:
 * v8adds/v8subs exist on both; "or/and/min/max x, y, y" equals "v8min x, y, y";
 * "xor/sub x, y, y" equals "v8subs x, y, y"; "v8min/v8max x, y, y" equals
 * "or x, y, y"; mov and nop move as they are.  Never with .setf, a MUL pack,
 * a vector rotation, or an op tied to its ALU.  Returns the op on the other
 * ALU, or -1.
 */
static int swapped_op(const struct side *sd, int from)
{
    if (sd->nop)
        return 0;
    if (sd->fixed || sd->setf || sd->rot)
        return -1;
    if (sd->nsrc > 0 && sd->src[0].kind == SRC_REG && sd->src[0].r.rot)
        return -1;
    if (sd->nsrc > 1 && sd->src[1].kind == SRC_REG && sd->src[1].r.rot)
        return -1;
    if (from == 1 && sd->dest.pk)
        return -1; /* MUL pack (pm 1) or its regfile-A placement: keep */
    if (sd->mov)
        return 0;
    bool same = sd->nsrc == 2 && src_same(&sd->src[0], &sd->src[1]);
    if (from == 0) {
        switch (sd->op) {
        case VC4_QPU_A_V8ADDS: return VC4_QPU_M_V8ADDS;
        case VC4_QPU_A_V8SUBS: return VC4_QPU_M_V8SUBS;
        case VC4_QPU_A_XOR: case VC4_QPU_A_SUB: return same ? VC4_QPU_M_V8SUBS : -1;
        case VC4_QPU_A_OR: case VC4_QPU_A_AND: case VC4_QPU_A_MIN: case VC4_QPU_A_MAX:
            return same ? VC4_QPU_M_V8MIN : -1;
        default: return -1;
        }
    }
    switch (sd->op) {
    case VC4_QPU_M_V8ADDS: return VC4_QPU_A_V8ADDS;
    case VC4_QPU_M_V8SUBS: return VC4_QPU_A_V8SUBS;
    case VC4_QPU_M_V8MIN: case VC4_QPU_M_V8MAX: return same ? VC4_QPU_A_OR : -1;
    default: return -1;
    }
}

/* Take an ALU slot (0 add, 1 mul), moving what occupies it to the free ALU
 * when vc4asm would (tryALUSwap). */
static int take_side(struct ib *b, int want, unsigned col)
{
    if (!b->s[want].used)
        return want;
    if (b->s[want].nop && !b->s[want].has_dest && !b->s[!want].used) {
        /* an explicit nop only marks the ALU; it yields (vc4asm isADD/isMUL) */
        b->s[!want] = b->s[want];
        memset(&b->s[want], 0, sizeof b->s[want]);
        b->s[want].cond = -1;
        return want;
    }
    int op = b->s[!want].used ? -1 : swapped_op(&b->s[want], want);
    if (op >= 0) {
        b->s[!want] = b->s[want];
        if (!b->s[!want].mov && !b->s[!want].nop)
            b->s[!want].op = (unsigned)op;
        memset(&b->s[want], 0, sizeof b->s[want]);
        b->s[want].cond = -1;
        return want;
    }
    asm_error(b->as, col, "the %s ALU is already used in this instruction", want ? "MUL" : "ADD");
    return -1;
}

static bool parse_alu_part(struct ib *b, const struct asm_tok *t, int n)
{
    struct vc4_asm *as = b->as;
    const struct asm_tok *m = &t[0];
    const char *p = m->p;
    size_t len = m->len;
    int pos = 1;

    bool is_nop = len == 3 && memcmp(p, "nop", 3) == 0;
    int tied = -1; /* amov/mmov, aop/mop, anop/mnop: the ALU is given (vc4asm 0.2.2) */
    if (len == 4 && (p[0] == 'a' || p[0] == 'm') && memcmp(p + 1, "nop", 3) == 0) {
        is_nop = true; /* anop / mnop: vc4asm's opcode table */
        tied = p[0] == 'm';
    }
    int sig = t[1].kind == TK_END && !is_nop ? find_sig(p, len) : -1; /* signals take no operands */
    if (sig >= 0) {
        if (b->sig >= 0)
            return err(as, m->col, "only one signal per instruction");
        b->sig = sig;
        b->sig_col = m->col;
        return true;
    }

    bool is_mov = len == 3 && memcmp(p, "mov", 3) == 0;
    if (len == 4 && (p[0] == 'a' || p[0] == 'm') && memcmp(p + 1, "mov", 3) == 0) {
        is_mov = true;
        tied = p[0] == 'm';
    }
    int addop = -1, mulop = -1;
    if (!is_nop && !is_mov) {
        addop = find_add_op(p, len);
        /* the names both ALUs share are v8adds and v8subs */
        if (addop == VC4_QPU_A_V8ADDS)
            mulop = VC4_QPU_M_V8ADDS;
        else if (addop == VC4_QPU_A_V8SUBS)
            mulop = VC4_QPU_M_V8SUBS;
        else if (addop < 0)
            mulop = find_mul_op(p, len);
        if (addop < 0 && mulop < 0) {
            if (len > 1 && p[0] == 'a')
                addop = find_add_op(p + 1, len - 1);
            if (addop < 0 && len > 1 && p[0] == 'm')
                mulop = find_mul_op(p + 1, len - 1);
            if (addop >= 0 || mulop >= 0)
                tied = mulop >= 0;
        }
        if (addop < 0 && mulop < 0)
            return err_named(as, m, "unknown instruction");
    }
    /* vc4asm: nop and mov take the ADD ALU unless it is used (a mov also after
     * an explicit nop); v8adds/v8subs are MUL operations (opcode table) that
     * fall back to the ADD ALU when the MUL ALU is used. */
    bool add_busy = b->s[0].used && !b->s[0].nop, mul_busy = b->s[1].used && !b->s[1].nop;
    int want;
    if (tied >= 0)
        want = tied;
    else if (is_nop)
        want = b->s[0].used ? 1 : 0;
    else if (is_mov)
        want = b->s[0].used ? 1 : 0;
    else if (addop >= 0 && mulop >= 0)
        want = mul_busy && !add_busy ? 0 : 1;
    else
        want = addop >= 0 ? 0 : 1;

    struct side sd;
    memset(&sd, 0, sizeof sd);
    sd.cond = -1;
    sd.used = true;
    sd.col = m->col;
    sd.nop = is_nop;
    sd.mov = is_mov;
    sd.fixed = tied >= 0;

    /* suffixes: .ifxx .setf .rot n, .packxx .unpackyy */
    struct asm_reg op_pack = {0}, op_unpack = {0};
    while (t[pos].kind == TK_SUFFIX) {
        const struct asm_tok *s = &t[pos++];
        struct asm_tok canon = asm_suffix_canonical(s);
        int cc = asm_cond_code(&canon);
        if (cc >= 0) {
            if (sd.cond >= 0)
                return err(as, s->col, "only one condition per ALU");
            sd.cond = cc;
        } else if (asm_tok_is(s, "setf") || asm_tok_is(s, "sf")) { /* .sf: vc4asm's alias */
            sd.setf = true;
        } else if (op_pk_suffix(s, "pack", &op_pack) || op_pk_suffix(s, "unpack", &op_unpack)) {
            if (!op_pack.pk && !op_unpack.pk)
                return err_named(as, s, "unknown pack/unpack mode");
        } else if (asm_tok_is(s, "rot")) {
            struct asm_expr_ctx c = {.as = as, .t = t, .pos = pos, .n = n};
            struct asm_val v;
            if (!asm_expr(&c, &v))
                return false;
            pos = c.pos;
            if (v.kind == AV_REG && (v.r.caps & REG_ACC) && v.r.acc == 5)
                sd.rot = 16;
            else if (v.kind == AV_INT && v.i >= 0 && v.i < 16)
                sd.rot = (int)v.i;
            else
                return err(as, s->col, ".rot needs 0..15 or r5");
            if (asm_tok_is(&t[pos], ","))
                pos++;
        } else {
            return err_named(as, s, "unknown instruction suffix");
        }
    }
    if (is_nop) {
        if (op_pack.pk || op_unpack.pk)
            return err(as, m->col, "nop takes no .pack or .unpack");
        if (sd.setf || sd.rot)
            return err(as, m->col, "nop takes no .setf or .rot");
        if (t[pos].kind != TK_END) {
            /* "nop ra0": a nop with a destination (vc4asm Parser::doNOP, V0.2.2
             * "nop with target register"): the write address is set, the op
             * stays nop; its condition is decided in alu_dests */
            struct args a;
            if (!parse_args(as, t, n, &pos, &a))
                return false;
            if (a.n != 1)
                return err(as, m->col, "nop takes at most a destination");
            if (!set_dest(as, &sd, &a.v[0], a.col[0]))
                return false;
            if (sd.dest.pk)
                return err(as, a.col[0], "a nop destination takes no pack");
        }
    } else {
        struct args a;
        if (!parse_args(as, t, n, &pos, &a))
            return false;
        if (!apply_op_pk(as, &a, &op_pack, &op_unpack, m->col))
            return false;
        unsigned nsrc = is_mov ? 1 : (addop >= 0 && want == 0 && vc4_qpu_op_add_is_unary((unsigned)addop)) ? 1 : 2;
        if ((unsigned)a.n != nsrc + 1)
            return err(as, m->col, nsrc == 1 ? "expected destination and one source"
                                              : "expected destination and two sources");
        if (is_mov && (a.v[1].kind == AV_LDPE ||
                       (a.v[1].kind == AV_REG && (a.v[1].r.caps & (REG_SACQ | REG_SREL))))) {
            if (b->ldimov || b->s[0].used || b->s[1].used)
                return err(as, m->col, "this mov is a load immediate and must stand alone");
            b->ldimov = true;
            b->ldimov_args = a;
            b->ldimov_cond = sd.cond;
            b->ldimov_setf = sd.setf;
            b->ldimov_col = m->col;
            b->s[0].used = b->s[1].used = true; /* nothing else fits */
            b->s[0].nop = b->s[1].nop = true;
            return true;
        }
        if (!set_dest(as, &sd, &a.v[0], a.col[0]))
            return false;
        sd.nsrc = (int)nsrc;
        for (unsigned i = 0; i < nsrc; i++)
            if (!src_from_val(as, &a.v[i + 1], a.col[i + 1], &sd.src[i]))
                return false;
        if (is_mov) {
            sd.movconst = sd.src[0].kind == SRC_IMM;
            if (sd.src[0].kind == SRC_REG && sd.src[0].r.rot) {
                if (tied == 0)
                    return err(as, m->col, "rotation is only available on the MUL ALU");
                want = 1; /* rotation: MUL ALU only */
            }
        }
    }
    if (sd.rot && want == 0)
        return err(as, m->col, ".rot is only available on the MUL ALU");
    int side = take_side(b, want, m->col);
    if (side < 0)
        return false;
    if (!is_nop && !is_mov)
        sd.op = (unsigned)(side == 0 ? addop : mulop);
    if (!is_nop && !is_mov && side == 0 && addop < 0)
        return err(as, m->col, "not an ADD ALU operation");
    b->s[side] = sd;
    return true;
}

/* ---- resolution of an ALU instruction ------------------------------------------ */

static const uint8_t pk_pack_a[PK_COUNT] = {
    [PK_16A] = VC4_QPU_PACK_A_16A, [PK_16B] = VC4_QPU_PACK_A_16B,
    [PK_8ABCD] = VC4_QPU_PACK_A_8888, [PK_8A] = VC4_QPU_PACK_A_8A, [PK_8B] = VC4_QPU_PACK_A_8B,
    [PK_8C] = VC4_QPU_PACK_A_8C, [PK_8D] = VC4_QPU_PACK_A_8D, [PK_32S] = VC4_QPU_PACK_A_32_SAT,
    [PK_16AS] = VC4_QPU_PACK_A_16A_SAT, [PK_16BS] = VC4_QPU_PACK_A_16B_SAT,
    [PK_8ABCDS] = VC4_QPU_PACK_A_8888_SAT, [PK_8AS] = VC4_QPU_PACK_A_8A_SAT,
    [PK_8BS] = VC4_QPU_PACK_A_8B_SAT, [PK_8CS] = VC4_QPU_PACK_A_8C_SAT,
    [PK_8DS] = VC4_QPU_PACK_A_8D_SAT};
static const uint8_t pk_unpack[PK_COUNT] = {
    [PK_16A] = VC4_QPU_UNPACK_16A, [PK_16B] = VC4_QPU_UNPACK_16B, [PK_8DR] = VC4_QPU_UNPACK_8D_REP,
    [PK_8A] = VC4_QPU_UNPACK_8A, [PK_8B] = VC4_QPU_UNPACK_8B, [PK_8C] = VC4_QPU_UNPACK_8C,
    [PK_8D] = VC4_QPU_UNPACK_8D};

/* ws: -1 free, 0, 1 */
static bool need_ws(struct vc4_asm *as, int *ws, int v, unsigned col)
{
    if (*ws >= 0 && *ws != v)
        return err(as, col, "ADD and MUL destinations need the same register file "
                            "(or a pack needs the other one)");
    *ws = v;
    return true;
}

static void ldi_from_side(struct vc4_qpu_instr *in, const struct side *sd, int side, uint32_t bits)
{
    in->sig = VC4_QPU_SIG_LOAD_IMM;
    in->kind = VC4_QPU_KIND_LOAD_IMM;
    in->unpack = VC4_QPU_LDI_32;
    in->imm = bits;
    in->waddr_add = side == 0 ? sd->dest.waddr : VC4_QPU_W_NOP;
    in->waddr_mul = side == 1 ? sd->dest.waddr : VC4_QPU_W_NOP;
    in->cond_add = side == 0 ? (uint8_t)(sd->cond >= 0 ? sd->cond : VC4_QPU_COND_ALWAYS)
                             : VC4_QPU_COND_NEVER;
    in->cond_mul = side == 1 ? (uint8_t)(sd->cond >= 0 ? sd->cond : VC4_QPU_COND_ALWAYS)
                             : VC4_QPU_COND_NEVER;
}

/* resolve_alu runs these phases in order over one instruction's two sides;
 * each returns false after reporting an error.  What they decide for later
 * phases travels in struct alu_plan. */
struct alu_plan {
    int ws;          /* -1 undecided, else the write-swap bit */
    int pm;          /* -1 no pack/unpack yet, else the pm bit */
    unsigned pack;
    int smi;         /* small-immediate / rotation code, -1 none */
    unsigned smi_col;
    bool add_on, mul_on;
};

/* 1. constants: "mov d, const" alone on its line is a load immediate (vc4asm
 * optimize: mkLDI; *done then), otherwise a small-immediate trick; 0 needs no
 * immediate (xor / v8subs of one mux). */
static bool alu_constants(struct ib *b, struct vc4_qpu_instr *in, bool *done)
{
    struct vc4_asm *as = b->as;
    struct side *S = b->s;
    *done = false;
    for (int k = 0; k < 2; k++) {
        struct side *sd = &S[k];
        if (!sd->mov || !sd->movconst)
            continue;
        bool other_free = !S[!k].used || (S[!k].nop && !S[!k].has_dest && !S[!k].setf);
        if (other_free && !sd->setf && !sd->dest.pk && b->sig < 0) {
            ldi_from_side(in, sd, k, sd->src[0].bits);
            int ws = -1;
            unsigned caps = sd->dest.caps;
            if ((caps & (REG_WR_A | REG_WR_B)) == REG_WR_A)
                ws = k == 0 ? 0 : 1;
            else if ((caps & (REG_WR_A | REG_WR_B)) == REG_WR_B)
                ws = k == 0 ? 1 : 0;
            in->ws = (uint8_t)(ws > 0);
            *done = true;
            return true;
        }
        uint32_t v = sd->src[0].bits;
        unsigned op, code;
        if (v == 0 && !sd->dest.pk) {
            sd->op = k == 0 ? VC4_QPU_A_XOR : VC4_QPU_M_V8SUBS;
            sd->src[0].kind = SRC_MUXB;
            sd->src[1] = sd->src[0];
            sd->nsrc = 2;
            sd->mov = false;
            continue;
        }
        if (!smi_trick(v, k == 1, &op, &code)) {
            if (!S[!k].used && smi_trick(v, k == 0, &op, &code)) {
                S[!k] = *sd;
                memset(sd, 0, sizeof *sd);
                sd->cond = -1;
                sd = &S[!k];
                k = !k;
            } else {
                return err(as, sd->src[0].col, "constant does not fit a small immediate here; "
                                               "use a separate ldi");
            }
        }
        sd->op = op;
        sd->src[0].kind = SRC_IMM;
        sd->src[0].bits = vc4_qpu_small_imm_value(code);
        sd->src[1] = sd->src[0];
        sd->nsrc = 2;
        sd->mov = false;
    }
    return true;
}

/* 2. ops: "mov d, reg" is or / v8min with the source twice; the ADD ALU's
 * constant hacks (vc4asm applyALUSource: add 16 = sub -16, shifts use the
 * low 5 bits of an immediate). */
static void alu_ops(struct side *S)
{
    for (int k = 0; k < 2; k++) {
        struct side *sd = &S[k];
        if (!sd->mov)
            continue;
        sd->op = k == 0 ? VC4_QPU_A_OR : VC4_QPU_M_V8MIN;
        sd->src[1] = sd->src[0];
        sd->nsrc = 2;
    }
    if (S[0].used && !S[0].nop && S[0].nsrc == 2 && S[0].src[1].kind == SRC_IMM) {
        struct src *s1 = &S[0].src[1];
        if ((S[0].op == VC4_QPU_A_ADD || S[0].op == VC4_QPU_A_SUB) && s1->bits == 16) {
            S[0].op = S[0].op == VC4_QPU_A_ADD ? VC4_QPU_A_SUB : VC4_QPU_A_ADD;
            s1->bits = (uint32_t)-16;
        } else if ((S[0].op == VC4_QPU_A_SHR || S[0].op == VC4_QPU_A_ASR ||
                    S[0].op == VC4_QPU_A_SHL || S[0].op == VC4_QPU_A_ROR) &&
                   smi_code(s1->bits) < 0) {
            s1->bits = (uint32_t)(((int32_t)(s1->bits << 27)) >> 27);
        }
    }
}

/* 3. opcodes, conditions, destinations (ws from file-specific names), .setf
 * (from the ADD ALU unless it is a nop: addendum). */
static bool alu_dests(struct ib *b, struct vc4_qpu_instr *in, struct alu_plan *pl)
{
    struct vc4_asm *as = b->as;
    struct side *S = b->s;
    in->op_add = (uint8_t)(S[0].used && !S[0].nop ? S[0].op : VC4_QPU_A_NOP);
    in->op_mul = (uint8_t)(S[1].used && !S[1].nop ? S[1].op : VC4_QPU_M_NOP);
    pl->add_on = in->op_add != VC4_QPU_A_NOP;
    pl->mul_on = in->op_mul != VC4_QPU_M_NOP;
    in->waddr_add = in->waddr_mul = VC4_QPU_W_NOP;
    in->cond_add = in->cond_mul = VC4_QPU_COND_NEVER;
    for (int k = 0; k < 2; k++) {
        struct side *sd = &S[k];
        if (!sd->used || (sd->nop && !sd->has_dest))
            continue;
        uint8_t cond = (uint8_t)(sd->cond >= 0 ? sd->cond : VC4_QPU_COND_ALWAYS);
        /* a nop with a destination (vc4asm AssembleInst::optimize): the ADD
         * nop always gets cond never, the MUL nop keeps its condition */
        if (sd->nop && (k == 0 || sd->dest.waddr == VC4_QPU_W_NOP))
            cond = VC4_QPU_COND_NEVER;
        unsigned caps = sd->dest.caps & (REG_WR_A | REG_WR_B);
        if (caps == REG_WR_A && !need_ws(as, &pl->ws, k == 0 ? 0 : 1, sd->dest_col))
            return false;
        if (caps == REG_WR_B && !need_ws(as, &pl->ws, k == 0 ? 1 : 0, sd->dest_col))
            return false;
        if (k == 0) {
            in->waddr_add = sd->dest.waddr;
            in->cond_add = cond;
        } else {
            in->waddr_mul = sd->dest.waddr;
            in->cond_mul = cond;
        }
    }
    if (S[0].setf)
        in->sf = 1;
    if (S[1].setf) {
        if (pl->add_on)
            return err(as, S[1].col, ".setf on the MUL ALU needs a nop ADD ALU "
                                     "(the ADD ALU sets the flags)");
        in->sf = 1;
    }
    if (in->sf && !pl->add_on && !pl->mul_on)
        return err(as, S[0].col, ".setf needs an operation");
    return true;
}

/* 4. pack from destination suffixes. */
static bool alu_pack(struct ib *b, struct alu_plan *pl)
{
    struct vc4_asm *as = b->as;
    for (int k = 0; k < 2; k++) {
        struct side *sd = &b->s[k];
        if (!sd->used || sd->nop || !sd->dest.pk)
            continue;
        unsigned pk = sd->dest.pk;
        if (pk == PK_8DR)
            return err(as, sd->dest_col, ".8dr is an unpack mode, not a pack mode");
        if (pl->pm >= 0)
            return err(as, sd->dest_col, "only one pack per instruction");
        if (sd->dest.pkf == 2) {
            /* an 'f' spelling: the MUL colour pack, also into regfile A
             * (vc4asm: P_FLT -> pm 1; the MUL ALU encodes the saturated 8-bit
             * modes like the plain ones, code & 7) */
            bool colour = (pk >= PK_8ABCD && pk <= PK_8D) || (pk >= PK_8ABCDS && pk <= PK_8DS);
            if (k == 0 || !colour)
                return err(as, sd->dest_col, "a float pack (.8af, .8asf ...) is the MUL ALU's 8-bit "
                                             "colour pack");
            pl->pm = 1;
            pl->pack = pk_pack_a[pk] & 7u;
            continue;
        }
        if (k == 0) {
            /* regfile-A pack of the ADD ALU result: needs ws = 0 */
            if (!need_ws(as, &pl->ws, 0, sd->dest_col))
                return false;
            pl->pm = 0;
            pl->pack = pk_pack_a[pk];
        } else if ((pl->ws == 1 && sd->dest.waddr < 32) || sd->dest.pkf == 1) {
            /* the MUL ALU writes a regfile-A register: its pack (vc4asm
             * doPack: pm = !WS || WAddrM >= 32), ".8c" included */
            pl->pm = 0;
            pl->pack = pk_pack_a[pk];
        } else if (pk >= PK_8ABCD && pk <= PK_8D) {
            pl->pm = 1; /* MUL ALU colour pack */
            pl->pack = pk_pack_a[pk];
        } else if (pl->ws == 1) {
            pl->pm = 0; /* the MUL ALU writes regfile A */
            pl->pack = pk_pack_a[pk];
        } else if (pk >= PK_8ABCDS && pk <= PK_8DS) {
            /* MUL ALU colour pack from a saturating suffix.  vc4asm output (its
             * smitest listing): .8as .8bs .8cs .8ds encode as the colour packs
             * 4..7, but .8abcds keeps code 11 (pm 1). */
            pl->pm = 1;
            pl->pack = pk == PK_8ABCDS ? VC4_QPU_PACK_A_8888_SAT : pk_pack_a[pk] & 7u;
        } else {
            return err(as, sd->dest_col, "this pack mode needs a regfile A destination");
        }
    }
    return true;
}

/* 5. the small immediate and the MUL rotation (one raddr_b code). */
static bool alu_small_imm(struct ib *b, struct vc4_qpu_instr *in, struct alu_plan *pl)
{
    struct vc4_asm *as = b->as;
    struct side *S = b->s;
    for (int k = 0; k < 2; k++) {
        struct side *sd = &S[k];
        if (!sd->used || sd->nop)
            continue;
        for (int i = 0; i < sd->nsrc; i++) {
            if (sd->src[i].kind != SRC_IMM)
                continue;
            int c = smi_code(sd->src[i].bits);
            if (c < 0)
                return err(as, sd->src[i].col, "value does not fit a small immediate");
            if (pl->smi >= 0 && pl->smi != c)
                return err(as, sd->src[i].col, "only one small immediate per instruction");
            pl->smi = c;
            pl->smi_col = sd->src[i].col;
        }
    }
    int rot = S[1].used ? S[1].rot : 0;
    if (S[1].used && !S[1].nop)
        for (int i = 0; i < S[1].nsrc; i++)
            if (S[1].src[i].kind == SRC_REG && S[1].src[i].r.rot) {
                if (rot && rot != S[1].src[i].r.rot)
                    return err(as, S[1].src[i].col, "only one rotation per instruction");
                rot = S[1].src[i].r.rot;
            }
    if (S[0].used)
        for (int i = 0; i < S[0].nsrc; i++)
            if (S[0].src[i].kind == SRC_REG && S[0].src[i].r.rot)
                return err(as, S[0].src[i].col, "rotation is only available on the MUL ALU");
    if (rot) {
        if (!pl->mul_on)
            return err(as, S[1].col, "rotation needs a MUL ALU operation");
        int rc = rot == 16 ? VC4_QPU_SMALL_IMM_ROT_R5 : VC4_QPU_SMALL_IMM_ROT_R5 + rot;
        /* codes 48-63 still supply -16..-1 to regfile-B reads (addendum) */
        if (pl->smi >= 0 && pl->smi != (rc & 31))
            return err(as, pl->smi_col, "small immediate conflicts with the rotation");
        pl->smi = rc;
    }
    if (pl->smi >= 0) {
        if (b->sig >= 0)
            return err(as, b->sig_col, "a signal cannot be combined with a small immediate "
                                       "or rotation");
        in->sig = VC4_QPU_SIG_SMALL_IMM;
        in->raddr_b = (uint8_t)pl->smi;
    }
    return true;
}

/* 6. operand placement (isa.h rule), muxes and unpack. */
static bool alu_operands(struct ib *b, struct vc4_qpu_instr *in, struct alu_plan *pl)
{
    struct vc4_asm *as = b->as;
    struct side *S = b->s;
    struct vc4_qpu_operand_req req[VC4_QPU_OPERANDS];
    const struct src *ops[VC4_QPU_OPERANDS] = {0};
    memset(req, 0, sizeof req);
    for (int k = 0; k < 2; k++) {
        struct side *sd = &S[k];
        if (!sd->used || sd->nop)
            continue;
        for (int i = 0; i < sd->nsrc; i++) {
            const struct src *s = &sd->src[i];
            ops[k * 2 + i] = s;
            if (s->kind != SRC_REG || (s->r.caps & REG_ACC))
                continue;
            unsigned rd = s->r.caps & (REG_RD_A | REG_RD_B);
            struct vc4_qpu_operand_req *r = &req[k * 2 + i];
            r->used = 1;
            r->raddr = s->r.raddr;
            r->shared = rd == (REG_RD_A | REG_RD_B);
            r->file = rd == REG_RD_B;
        }
        if (sd->nsrc == 1) /* unary: b = a */
            ops[k * 2 + 1] = ops[k * 2], req[k * 2 + 1] = req[k * 2];
    }
    uint8_t files[VC4_QPU_OPERANDS];
    uint8_t ra = VC4_QPU_R_NOP, rb = VC4_QPU_R_NOP;
    if (!vc4_qpu_place_operands(req, pl->smi >= 0, files, &ra, &rb))
        return err(as, S[0].used && !S[0].nop ? S[0].col : S[1].col,
                   "read access conflict: one register per file (and no regfile B read with a "
                   "small immediate)");
    in->raddr_a = ra;
    if (pl->smi < 0)
        in->raddr_b = rb;
    uint8_t mux[VC4_QPU_OPERANDS] = {0};
    int unpack = -1, upm = -1;
    for (int i = 0; i < VC4_QPU_OPERANDS; i++) {
        const struct src *s = ops[i];
        if (!s)
            continue;
        if (s->kind == SRC_IMM || s->kind == SRC_MUXB)
            mux[i] = VC4_QPU_MUX_B;
        else if (s->r.caps & REG_ACC)
            mux[i] = s->r.acc;
        else
            mux[i] = files[i] ? VC4_QPU_MUX_B : VC4_QPU_MUX_A;
        if (s->kind == SRC_REG && s->r.pk) {
            if (!pk_unpack[s->r.pk])
                return err(as, s->col, "not an unpack mode");
            int p;
            if (mux[i] == VC4_QPU_MUX_A)
                p = 0;
            else if (mux[i] == VC4_QPU_MUX_R4)
                p = 1;
            else
                return err(as, s->col, "unpack works on regfile A reads and on r4 only");
            if (unpack >= 0 && (unpack != pk_unpack[s->r.pk] || upm != p))
                return err(as, s->col, "only one unpack mode per instruction");
            unpack = pk_unpack[s->r.pk];
            upm = p;
        }
    }
    in->add_a = mux[0];
    in->add_b = mux[1];
    in->mul_a = mux[2];
    in->mul_b = mux[3];
    if (unpack >= 0) {
        if (pl->pm >= 0 && pl->pm != upm)
            return err(as, S[0].col, "pack and unpack need different PM modes");
        in->unpack = (uint8_t)unpack;
        pl->pm = upm;
    }
    return true;
}

/* 7. what vc4asm's optimize pass decides last: an op writing '-' (waddr 39)
 * without .setf has cond never (qpu_canon.c makes the same choice). */
static void alu_never(const struct ib *b, struct vc4_qpu_instr *in, const struct alu_plan *pl)
{
    for (int k = 0; k < 2; k++) {
        const struct side *sd = &b->s[k];
        if (!sd->used || sd->nop || sd->dest.waddr != VC4_QPU_W_NOP)
            continue; /* a written condition too (vc4asm: "WAddrA == R_NOP && !SF") */
        bool flags = in->sf && (k == 0 || !pl->add_on);
        if (!flags) {
            if (k == 0)
                in->cond_add = VC4_QPU_COND_NEVER;
            else
                in->cond_mul = VC4_QPU_COND_NEVER;
        }
    }
}

/* "read src" (vc4asm assembleREAD): src is read through raddr_a / raddr_b
 * (or is the small immediate) without an operation: a read for its side
 * effect (vr_wait, mutex) or to pair with a signal. */
static bool parse_read(struct ib *b, const struct asm_tok *t, int n)
{
    struct vc4_asm *as = b->as;
    if (b->has_read)
        return err(as, t[0].col, "only one read per instruction");
    struct asm_expr_ctx c = {.as = as, .t = t, .pos = 1, .n = n};
    struct asm_val v;
    if (!asm_expr(&c, &v) || !(t[c.pos].kind == TK_END || err(as, t[c.pos].col, "unexpected text")))
        return false;
    if (v.kind == AV_REG && ((v.r.caps & REG_ACC) || !(v.r.caps & (REG_RD_A | REG_RD_B))))
        return err(as, t[1].col, "read needs a register file register or a small immediate");
    if (v.kind == AV_REG && (v.r.rot || v.r.pk))
        return err(as, t[1].col, "read takes no rotation or unpack");
    if (!src_from_val(as, &v, t[1].col, &b->read))
        return false;
    b->has_read = true;
    return true;
}

/* Do the active operations read mux m? */
static bool alu_reads_mux(const struct vc4_qpu_instr *in, unsigned m)
{
    return (in->op_add != VC4_QPU_A_NOP && (in->add_a == m || in->add_b == m)) ||
           (in->op_mul != VC4_QPU_M_NOP && (in->mul_a == m || in->mul_b == m));
}

/* 6b. the read part: regfile A first (vc4asm muxReg), then B. */
static bool alu_read(struct ib *b, struct vc4_qpu_instr *in, struct alu_plan *pl)
{
    struct vc4_asm *as = b->as;
    const struct src *r = &b->read;
    if (r->kind == SRC_IMM) {
        int code = smi_code(r->bits);
        if (code < 0)
            return err(as, r->col, "value does not fit a small immediate");
        if ((pl->smi >= 0 && pl->smi != code) || (pl->smi < 0 && alu_reads_mux(in, VC4_QPU_MUX_B)))
            return err(as, r->col, "read conflicts with the small immediate or a regfile B read");
        if (b->sig >= 0)
            return err(as, b->sig_col, "a signal cannot be combined with a small immediate");
        pl->smi = code;
        in->sig = VC4_QPU_SIG_SMALL_IMM;
        in->raddr_b = (uint8_t)code;
        b->read_at = 2;
        return true;
    }
    bool a_free = !alu_reads_mux(in, VC4_QPU_MUX_A) || in->raddr_a == r->r.raddr;
    bool b_free = pl->smi < 0 && (!alu_reads_mux(in, VC4_QPU_MUX_B) || in->raddr_b == r->r.raddr);
    if ((r->r.caps & REG_RD_A) && a_free) {
        in->raddr_a = r->r.raddr;
        b->read_at = 0;
    } else if ((r->r.caps & REG_RD_B) && b_free) {
        in->raddr_b = r->r.raddr;
        b->read_at = 1;
    } else {
        return err(as, r->col, "read access conflict: one register per file");
    }
    return true;
}

static bool resolve_alu(struct ib *b, struct vc4_qpu_instr *in)
{
    memset(in, 0, sizeof *in);
    in->sig = (uint8_t)(b->sig >= 0 ? b->sig : VC4_QPU_SIG_NONE);
    struct alu_plan pl = {.ws = -1, .pm = -1, .smi = -1};
    bool done;
    if (!alu_constants(b, in, &done))
        return false;
    if (done)
        return true;
    alu_ops(b->s);
    if (!alu_dests(b, in, &pl) || !alu_pack(b, &pl) || !alu_small_imm(b, in, &pl) ||
        !alu_operands(b, in, &pl) || (b->has_read && !alu_read(b, in, &pl)))
        return false;
    if (pl.pm >= 0) {
        in->pm = (uint8_t)pl.pm;
        in->pack = (uint8_t)pl.pack;
    }
    in->ws = (uint8_t)(pl.ws > 0);
    alu_never(b, in, &pl);
    in->kind = in->sig == VC4_QPU_SIG_SMALL_IMM ? VC4_QPU_KIND_ALU_SMALL_IMM : VC4_QPU_KIND_ALU;
    return true;
}

/* ---- load immediate, semaphore --------------------------------------------------- */

static bool ldi_dests(struct vc4_asm *as, const struct args *a, int ndest, int mcond,
                      struct vc4_qpu_instr *in)
{
    int ws = -1, pk_at = -1;
    in->waddr_add = in->waddr_mul = VC4_QPU_W_NOP;
    in->cond_add = VC4_QPU_COND_ALWAYS;
    in->cond_mul = VC4_QPU_COND_NEVER;
    for (int i = 0; i < ndest; i++) {
        const struct asm_val *v = &a->v[i];
        if (v->kind != AV_REG || !(v->r.caps & (REG_WR_A | REG_WR_B)))
            return err(as, a->col[i], "destination must be a writable register");
        if (v->r.rot)
            return err(as, a->col[i], "a destination cannot be rotated");
        unsigned caps = v->r.caps & (REG_WR_A | REG_WR_B);
        if (caps == REG_WR_A && !need_ws(as, &ws, i == 0 ? 0 : 1, a->col[i]))
            return false;
        if (caps == REG_WR_B && !need_ws(as, &ws, i == 0 ? 1 : 0, a->col[i]))
            return false;
        int cond = v->r.cond ? v->r.cond - 1 : (i == 0 && mcond >= 0) ? mcond : VC4_QPU_COND_ALWAYS;
        if (i == 0) {
            in->waddr_add = v->r.waddr;
            in->cond_add = (uint8_t)cond;
        } else {
            in->waddr_mul = v->r.waddr;
            in->cond_mul = (uint8_t)cond;
        }
        if (v->r.pk) {
            if (pk_at >= 0)
                return err(as, a->col[i], "only one pack per instruction");
            pk_at = i;
        }
    }
    if (pk_at >= 0) {
        /* vc4asm doPack: a regfile-A pack (pm 0) on the destination that writes
         * regfile A (the first with ws 0; the second, a regfile-A register,
         * with ws 1), the MUL colour pack (pm 1) on the second elsewhere */
        unsigned pk = a->v[pk_at].r.pk;
        bool file_a = pk_at == 0 ? ws <= 0 : ws == 1 && in->waddr_mul < 32;
        if (file_a && pk_pack_a[pk]) {
            in->pm = 0;
            in->pack = pk_pack_a[pk];
        } else if (pk_at == 1 && !file_a && pk >= PK_8ABCD && pk <= PK_8D) {
            in->pm = 1;
            in->pack = pk_pack_a[pk];
        } else {
            return err(as, a->col[pk_at], "pack mode not available on this destination");
        }
    }
    in->ws = (uint8_t)(ws > 0);
    return true;
}

static bool ldi_core(struct vc4_asm *as, const struct args *ap, unsigned col0, int mcond,
                     bool setf, int sema, int mode, struct vc4_qpu_instr *in);

static bool parse_ldi(struct vc4_asm *as, const struct asm_tok *t, int n, struct vc4_qpu_instr *in,
                      int sema /* 0 ldi, 1 sacq, 2 srel */, int mode)
{
    int pos = 1, mcond = -1;
    bool setf = false;
    while (t[pos].kind == TK_SUFFIX) {
        struct asm_tok canon = asm_suffix_canonical(&t[pos]);
        int c = asm_cond_code(&canon);
        if (c >= 0 && mcond < 0)
            mcond = c;
        else if (asm_tok_is(&t[pos], "setf") || asm_tok_is(&t[pos], "sf"))
            setf = true;
        else
            return err_named(as, &t[pos], "unknown suffix");
        pos++;
    }
    struct args a;
    if (!parse_args(as, t, n, &pos, &a))
        return false;
    return ldi_core(as, &a, t[0].col, mcond, setf, sema, mode, in);
}

static bool ldi_core(struct vc4_asm *as, const struct args *ap, unsigned col0, int mcond,
                     bool setf, int sema, int mode, struct vc4_qpu_instr *in)
{
    struct args a = *ap;
    if (a.n < 1 || a.n > 3)
        return err(as, col0, "expected [destination, [destination,]] value");
    if (!sema && a.n < 2)
        return err(as, col0, "ldi needs a destination");
    memset(in, 0, sizeof *in);
    in->sig = VC4_QPU_SIG_LOAD_IMM;
    in->sf = setf;
    if (!ldi_dests(as, &a, a.n - 1, mcond, in))
        return false;
    const struct asm_val *v = &a.v[a.n - 1];
    unsigned col = a.col[a.n - 1];
    if (sema) {
        /* vc4asm instructions.html: the low 4 bits are the semaphore, bit 4
         * is set by sacq/srel (1 acquire) whatever the number says, higher
         * bits go unchanged into the immediate (the value a destination gets). */
        if (v->kind != AV_INT || v->i < INT32_MIN || v->i > UINT32_MAX)
            return err(as, col, "semaphore number must be a 32-bit integer (semaphore 0..15 "
                                "in the low 4 bits)");
        in->unpack = VC4_QPU_LDI_SEMAPHORE;
        in->imm = ((uint32_t)v->i & ~0x10u) | (sema == 1 ? 0x10u : 0u);
        in->kind = VC4_QPU_KIND_SEMAPHORE;
        return true;
    }
    in->kind = VC4_QPU_KIND_LOAD_IMM;
    switch (v->kind) {
    case AV_REG:
        if (!(v->r.caps & (REG_SACQ | REG_SREL)))
            return err(as, col, "ldi needs a constant");
        in->unpack = VC4_QPU_LDI_SEMAPHORE;
        in->imm = v->r.raddr | ((v->r.caps & REG_SACQ) ? 0x10u : 0u);
        in->kind = VC4_QPU_KIND_SEMAPHORE;
        return true;
    case AV_LDPE:
        if (mode == VC4_QPU_LDI_32)
            mode = v->ldpe_signed == 2 ? VC4_QPU_LDI_PER_ELEMENT_UNSIGNED
                                       : VC4_QPU_LDI_PER_ELEMENT_SIGNED;
        else if ((mode == VC4_QPU_LDI_PER_ELEMENT_SIGNED && v->ldpe_signed == 2) ||
                 (mode == VC4_QPU_LDI_PER_ELEMENT_UNSIGNED && v->ldpe_signed == 1))
            return err(as, col, "per-element values do not fit this ldi mode");
        in->imm = (uint32_t)v->i;
        break;
    case AV_INT:
        if (v->i < -(INT64_C(1) << 31) || v->i > (int64_t)UINT32_MAX)
            return err(as, col, "constant does not fit 32 bits");
        in->imm = (uint32_t)v->i;
        break;
    default:
        in->imm = asm_val_bits(v);
        break;
    }
    in->unpack = (uint8_t)mode;
    return true;
}

/* ---- branches ------------------------------------------------------------------------ */

static bool parse_branch(struct vc4_asm *as, const struct asm_tok *t, int n, uint32_t pc,
                         struct vc4_qpu_instr *in, bool rel)
{
    int pos = 1;
    memset(in, 0, sizeof *in);
    in->sig = VC4_QPU_SIG_BRANCH;
    in->kind = VC4_QPU_KIND_BRANCH;
    in->rel = rel;
    in->cond_br = VC4_QPU_BCOND_ALWAYS;
    bool have_cond = false;
    while (t[pos].kind == TK_SUFFIX) {
        int c = bcond_of(&t[pos]);
        if (c < 0 || have_cond)
            return err(as, t[pos].col, "unknown or repeated branch condition");
        in->cond_br = (uint8_t)c;
        have_cond = true;
        pos++;
    }
    struct args a;
    if (!parse_args(as, t, n, &pos, &a))
        return false;
    /* bra/brr link[, link2][, raN], target   (target or raN may come in either order) */
    int regs[4], nregs = 0, target = -1;
    for (int i = 0; i < a.n; i++) {
        if (a.v[i].kind == AV_REG) {
            regs[nregs++] = i;
        } else if (a.v[i].kind == AV_INT || a.v[i].kind == AV_LABEL) {
            if (target >= 0)
                return err(as, a.col[i], "only one branch target");
            target = i;
        } else {
            return err(as, a.col[i], "branch target must be an integer or a label");
        }
    }
    if (nregs == 0)
        return err(as, t[0].col, "branch needs a link destination ('-' for none)");
    int link2 = -1, reg = -1;
    if (nregs == 3) {
        link2 = regs[1];
        reg = regs[2];
    } else if (nregs == 2) {
        const struct asm_reg *r = &a.v[regs[1]].r;
        bool is_dash = (r->caps & (REG_WR_A | REG_WR_B)) && !(r->caps & (REG_RD_A | REG_RD_B)) &&
                       r->waddr == VC4_QPU_W_NOP;
        bool ra_read = (r->caps & REG_RD_A) && !(r->caps & REG_RD_B) && r->raddr < 32;
        if (ra_read)
            reg = regs[1];
        else if (!is_dash)
            link2 = regs[1];
    } else if (nregs > 3) {
        return err(as, a.col[regs[3]], "too many registers");
    }
    if (nregs == 3) {
        const struct asm_reg *r = &a.v[reg].r;
        bool is_dash = !(r->caps & (REG_RD_A | REG_RD_B)) && r->waddr == VC4_QPU_W_NOP;
        if (is_dash)
            reg = -1; /* "link, link2, -, target": no register */
    }
    struct args d = {.n = link2 >= 0 ? 2 : 1};
    d.v[0] = a.v[regs[0]];
    d.col[0] = a.col[regs[0]];
    if (link2 >= 0) {
        d.v[1] = a.v[link2];
        d.col[1] = a.col[link2];
    }
    for (int i = 0; i < d.n; i++)
        if (d.v[i].r.pk || d.v[i].r.cond)
            return err(as, d.col[i], "branch links take no pack or condition");
    if (!ldi_dests(as, &d, d.n, -1, in))
        return false;
    in->cond_add = in->cond_mul = 0;
    in->sf = 0;
    if (reg >= 0) {
        const struct asm_reg *r = &a.v[reg].r;
        if (!(r->caps & REG_RD_A) || (r->caps & REG_ACC) || r->raddr >= 32 || r->rot || r->pk)
            return err(as, a.col[reg], "branch register must be ra0..ra31");
        in->reg = 1;
        in->raddr_a = r->raddr;
    }
    if (target >= 0) {
        const struct asm_val *v = &a.v[target];
        int64_t x = v->i;
        if (v->kind == AV_LABEL && rel)
            x -= (int64_t)pc + 32; /* taken after 3 delay slots: PC + 4 instructions */
        if (x < -(INT64_C(1) << 31) || x > (int64_t)UINT32_MAX)
            return err(as, a.col[target], "branch target out of range");
        in->imm = (uint32_t)x;
    }
    return true;
}

/* ---- raw field overrides ----------------------------------------------------------------- */

/* The field named p[0..len) among those of the given forms (the names of
 * vc4kit dis --fields, from the spec's field table); -1 if none. */
static int field_of(const char *p, size_t len, unsigned forms, int from)
{
    /* starting after the previous field: the disassembler writes them in
     * table order, so the search usually ends at once */
    for (int k = 0; k < VC4_F_COUNT; k++) {
        int f = (from + k) % VC4_F_COUNT;
        const struct vc4_qpu_field_desc *d = &vc4_qpu_field_table[f];
        if ((d->forms & forms) && d->name[0] == p[0] && asm_name_is(d->name, p, len))
            return f;
    }
    return -1;
}

/*
 * Applies "@field=value ..." (one TK_RAW token: the text from '@' to the end
 * of the line).  Values are numbers (decimal, 0x hex).  *reform tells that sig
 * or the load mode changed (the instruction form may differ).
 */
static bool parse_overrides(struct vc4_asm *as, const struct asm_tok *raw,
                            struct vc4_qpu_instr *in, bool *reform)
{
    const char *s = raw->p;
    size_t len = raw->len, i = 0;
    int prev = 0;
    for (;;) {
        while (i < len && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i >= len)
            return true;
        unsigned col = raw->col + (unsigned)i;
        if (s[i] == ';') { /* a trailing ';' is fine, more parts are not */
            i++;
            while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == ';'))
                i++;
            if (i >= len)
                return true;
            return err(as, raw->col + (unsigned)i, "the @field part must come last");
        }
        if (s[i] != '@')
            return err(as, col, "expected @field=value");
        size_t n0 = ++i;
        while (i < len && asm_is_idc(s[i]))
            i++;
        size_t nlen = i - n0;
        while (i < len && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (!nlen || i >= len || s[i] != '=')
            return err(as, col, "expected @field=value");
        i++;
        while (i < len && (s[i] == ' ' || s[i] == '\t'))
            i++;
        int f = field_of(s + n0, nlen, vc4_qpu_forms_of(in), prev);
        if (f < 0)
            return err(as, raw->col + (unsigned)n0, "unknown field for this instruction form");
        size_t v0 = i;
        while (i < len && asm_is_idc(s[i]))
            i++;
        unsigned vcol = raw->col + (unsigned)v0;
        if (i == v0 || s[v0] < '0' || s[v0] > '9')
            return err(as, vcol, "field value must be a number");
        if (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '@' && s[i] != ';')
            return err(as, vcol, "field value must be a number");
        struct asm_val v;
        if (!asm_parse_number(s + v0, i - v0, &v) || v.kind != AV_INT || v.i < 0 ||
            (uint64_t)v.i >> vc4_qpu_field_table[f].width)
            return err(as, vcol, "field value out of range");
        vc4_qpu_field_set(in, (enum vc4_qpu_field)f, (uint32_t)v.i);
        prev = f + 1;
        if (f == VC4_F_SIG || (f == VC4_F_UNPACK && in->sig == VC4_QPU_SIG_LOAD_IMM))
            *reform = true; /* sig, or the load mode (semaphore or not) */
    }
}

/* ---- one line -------------------------------------------------------------------------- */

bool asm_instruction(struct vc4_asm *as, struct asm_tok *t, int n, uint32_t pc,
                     struct vc4_qpu_instr *out)
{
    struct ib b;
    memset(&b.s, 0, sizeof b.s); /* ldimov_args is set before ldimov is */
    b.as = as;
    b.sig = -1;
    b.sig_col = 0;
    b.has_read = false;
    b.read_at = -1;
    b.ldimov = false;
    b.ldimov_cond = -1;
    b.ldimov_setf = false;
    b.ldimov_col = 0;
    b.s[0].cond = b.s[1].cond = -1;
    struct vc4_qpu_instr in;
    bool special_done = false, any = false;
    const struct asm_tok *ovr = NULL;

    /* split into parts at ';', in place: each ';' becomes the part's TK_END */
    int i = 0;
    while (i < n && t[i].kind != TK_END) {
        int j = i;
        while (j < n && t[j].kind != TK_END && t[j].kind != TK_SEMI)
            j++;
        bool semi = j < n && t[j].kind != TK_END;
        t[j].kind = TK_END;
        struct asm_tok *part = &t[i];
        int k = j - i;
        if (k > 0) {
            if (part[0].kind == TK_RAW) {
                if (k > 1)
                    return err(as, part[1].col, "the @field part must come last");
                ovr = part; /* it runs to the end of the line */
                break;
            } else if (part[0].kind != TK_IDENT) {
                return err(as, part[0].col, "expected an instruction");
            } else {
                const struct asm_tok *m = &part[0];
                int spec = 0; /* 1 ldi 2 ldipes 3 ldipeu 4 sacq 5 srel 6 bra 7 brr */
                if (m->len == 3 && m->p[0] == 'l')
                    spec = asm_tok_is(m, "ldi") ? 1 : 0;
                else if (m->len == 6 && m->p[0] == 'l')
                    spec = asm_tok_is(m, "ldipes") ? 2 : asm_tok_is(m, "ldipeu") ? 3 : 0;
                else if (m->len == 4 && m->p[0] == 's')
                    spec = asm_tok_is(m, "sacq") ? 4 : asm_tok_is(m, "srel") ? 5 : 0;
                else if (m->len == 3 && m->p[0] == 'b')
                    spec = asm_tok_is(m, "bra") ? 6 : asm_tok_is(m, "brr") ? 7 : 0;
                if (spec) {
                    if (any || special_done)
                        return err(as, m->col, "ldi, semaphore and branch instructions stand alone");
                    bool ok;
                    if (spec >= 6)
                        ok = parse_branch(as, part, k + 1, pc, &in, spec == 7);
                    else
                        ok = parse_ldi(as, part, k + 1, &in,
                                       spec == 4 ? 1 : spec == 5 ? 2 : 0,
                                       spec == 2   ? VC4_QPU_LDI_PER_ELEMENT_SIGNED
                                       : spec == 3 ? VC4_QPU_LDI_PER_ELEMENT_UNSIGNED
                                                      : VC4_QPU_LDI_32);
                    if (!ok)
                        return false;
                    special_done = true;
                } else {
                    if (special_done)
                        return err(as, m->col, "ldi, semaphore and branch instructions stand alone");
                    /* "mov dst, sacqN": a semaphore instruction (Broadcom syntax) */
                    if (asm_tok_is(m, "read") ? !parse_read(&b, part, k + 1)
                                              : !parse_alu_part(&b, part, k + 1))
                        return false;
                    any = true;
                }
            }
        }
        i = j + (semi ? 1 : 0);
        if (!semi)
            break;
    }
    if (b.ldimov) {
        if (b.sig >= 0)
            return err(as, b.sig_col, "a load immediate cannot carry a signal");
        if (!ldi_core(as, &b.ldimov_args, b.ldimov_col, b.ldimov_cond, b.ldimov_setf, 0,
                      VC4_QPU_LDI_32, &in))
            return false;
    } else if (!special_done) {
        if (!any && b.sig < 0 && !ovr)
            return err(as, t[0].col, "empty instruction");
        if (!resolve_alu(&b, &in))
            return false;
    }
    /* canonicalize the unexpressed fields (every field the parts set is in
     * range: only the form's kind needs setting), then raw overrides */
    in.kind = in.sig == VC4_QPU_SIG_BRANCH       ? VC4_QPU_KIND_BRANCH
              : in.sig == VC4_QPU_SIG_LOAD_IMM   ? ((in.unpack & VC4_QPU_LDI_SEMAPHORE)
                                                        ? VC4_QPU_KIND_SEMAPHORE
                                                        : VC4_QPU_KIND_LOAD_IMM)
              : in.sig == VC4_QPU_SIG_SMALL_IMM  ? VC4_QPU_KIND_ALU_SMALL_IMM
                                                 : VC4_QPU_KIND_ALU;
    vc4_qpu_canonicalize(&in);
    if (b.read_at == 0) { /* a read is expressed although no operation reads it */
        in.raddr_a = b.read.r.raddr;
    } else if (b.read_at == 1) {
        in.raddr_b = b.read.r.raddr;
    } else if (b.read_at == 2) {
        in.sig = VC4_QPU_SIG_SMALL_IMM;
        in.kind = VC4_QPU_KIND_ALU_SMALL_IMM;
        in.raddr_b = (uint8_t)smi_code(b.read.bits);
    }
    if (ovr) {
        bool reform = false;
        if (!parse_overrides(as, ovr, &in, &reform))
            return false;
        if (reform) /* the form changed: keep only its fields, set its kind */
            vc4_qpu_decode(vc4_qpu_encode(&in), &in);
        else if (in.kind == VC4_QPU_KIND_BRANCH)
            in.sf = in.raddr_a & 1; /* bit 45 is shared */
    }
    *out = in;
    return true;
}
