/*
 * asm_expr.c - values and expressions of the vc4asm dialect
 * (vc4asm doc/expressions.html): int, float (a number with '.' or exponent),
 * registers (with pack/unpack suffix and rotation), labels (":name", "r:name",
 * ":1f"/":1b" numeric local labels), per-element vectors "[a,b,...]".
 * Operators share C's precedence; values are 64 bits: '<<<' / '>>>' are the
 * logical shifts, '><<' '>><' rotate 32 bits, '><<<' '>>><' 64 bits (vc4asm
 * Eval.cpp); 'reg << n' / 'reg >> n' are vector rotations.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm_internal.h"

/* ---- built-in register names (expressions.html "Hardware register") -------- */

struct reg_name {
    const char *name;
    uint8_t caps, raddr, waddr;
};

#define AB (REG_RD_A | REG_RD_B)
#define WAB (REG_WR_A | REG_WR_B)
/* Sorted by name (asm_lookup_tables_sorted checks it): binary search.  The
 * long names (element_number, tmu0_s, vpm_ld_addr, tlb_colour_all ...) are
 * vc4asm's aliases (Parser.tables.cpp regMap), the names of Broadcom's
 * documentation that public sources use. */
static const struct reg_name reg_names[] = {
    {"-", WAB, 0, VC4_QPU_W_NOP},
    {"elem_num", REG_RD_A, VC4_QPU_R_ELEM_QPU, 0},
    {"element_number", REG_RD_A, VC4_QPU_R_ELEM_QPU, 0},
    {"exp", WAB, 0, VC4_QPU_W_SFU_EXP},
    {"host_int", WAB, 0, VC4_QPU_W_HOST_INT},
    {"interrupt", WAB, 0, VC4_QPU_W_HOST_INT},
    {"irq", WAB, 0, VC4_QPU_W_HOST_INT},
    {"log", WAB, 0, VC4_QPU_W_SFU_LOG},
    {"ms_flags", REG_RD_A | REG_WR_A, VC4_QPU_R_MS_REV, VC4_QPU_W_MS_FLAGS_REV},
    {"ms_mask", REG_RD_A | REG_WR_A, VC4_QPU_R_MS_REV, VC4_QPU_W_MS_FLAGS_REV},
    {"mutex", AB | WAB, VC4_QPU_R_MUTEX_ACQUIRE, VC4_QPU_W_MUTEX_RELEASE},
    {"mutex_acq", AB, VC4_QPU_R_MUTEX_ACQUIRE, 0},
    {"mutex_acquire", AB, VC4_QPU_R_MUTEX_ACQUIRE, 0},
    {"mutex_rel", WAB, 0, VC4_QPU_W_MUTEX_RELEASE},
    {"mutex_release", WAB, 0, VC4_QPU_W_MUTEX_RELEASE},
    {"nop", AB | WAB, VC4_QPU_R_NOP, VC4_QPU_W_NOP},
    {"qpu_num", REG_RD_B, VC4_QPU_R_ELEM_QPU, 0},
    {"qpu_number", REG_RD_B, VC4_QPU_R_ELEM_QPU, 0},
    {"quad_x", REG_RD_A, VC4_QPU_R_XY_COORD, 0},
    {"quad_y", REG_RD_B, VC4_QPU_R_XY_COORD, 0},
    {"r5quad", REG_WR_A, 0, VC4_QPU_W_ACC5},
    {"r5rep", REG_WR_B, 0, VC4_QPU_W_ACC5},
    {"recip", WAB, 0, VC4_QPU_W_SFU_RECIP},
    {"recipsqrt", WAB, 0, VC4_QPU_W_SFU_RECIPSQRT},
    {"rev_flag", REG_RD_B | REG_WR_B, VC4_QPU_R_MS_REV, VC4_QPU_W_MS_FLAGS_REV},
    {"sfu_exp", WAB, 0, VC4_QPU_W_SFU_EXP},
    {"sfu_log", WAB, 0, VC4_QPU_W_SFU_LOG},
    {"sfu_recip", WAB, 0, VC4_QPU_W_SFU_RECIP},
    {"sfu_recipsqrt", WAB, 0, VC4_QPU_W_SFU_RECIPSQRT},
    {"stencil", WAB, 0, VC4_QPU_W_TLB_STENCIL_SETUP},
    {"t0b", WAB, 0, VC4_QPU_W_TMU0_B},
    {"t0r", WAB, 0, VC4_QPU_W_TMU0_R},
    {"t0s", WAB, 0, VC4_QPU_W_TMU0_S},
    {"t0t", WAB, 0, VC4_QPU_W_TMU0_T},
    {"t1b", WAB, 0, VC4_QPU_W_TMU1_B},
    {"t1r", WAB, 0, VC4_QPU_W_TMU1_R},
    {"t1s", WAB, 0, VC4_QPU_W_TMU1_S},
    {"t1t", WAB, 0, VC4_QPU_W_TMU1_T},
    {"tlb_alpha_mask", WAB, 0, VC4_QPU_W_TLB_ALPHA_MASK},
    {"tlb_colour_all", WAB, 0, VC4_QPU_W_TLB_COLOR_ALL},
    {"tlb_colour_ms", WAB, 0, VC4_QPU_W_TLB_COLOR_MS},
    {"tlb_stencil", WAB, 0, VC4_QPU_W_TLB_STENCIL_SETUP},
    {"tlb_z", WAB, 0, VC4_QPU_W_TLB_Z},
    {"tlbam", WAB, 0, VC4_QPU_W_TLB_ALPHA_MASK},
    {"tlbc", WAB, 0, VC4_QPU_W_TLB_COLOR_ALL},
    {"tlbm", WAB, 0, VC4_QPU_W_TLB_COLOR_MS},
    {"tlbz", WAB, 0, VC4_QPU_W_TLB_Z},
    {"tmu0_b", WAB, 0, VC4_QPU_W_TMU0_B},
    {"tmu0_r", WAB, 0, VC4_QPU_W_TMU0_R},
    {"tmu0_s", WAB, 0, VC4_QPU_W_TMU0_S},
    {"tmu0_t", WAB, 0, VC4_QPU_W_TMU0_T},
    {"tmu1_b", WAB, 0, VC4_QPU_W_TMU1_B},
    {"tmu1_r", WAB, 0, VC4_QPU_W_TMU1_R},
    {"tmu1_s", WAB, 0, VC4_QPU_W_TMU1_S},
    {"tmu1_t", WAB, 0, VC4_QPU_W_TMU1_T},
    {"tmu_noswap", WAB, 0, VC4_QPU_W_TMU_NOSWAP},
    {"tmurs", WAB, 0, VC4_QPU_W_TMU_NOSWAP},
    {"unif", AB, VC4_QPU_R_UNIF, 0},
    {"unif_addr", REG_WR_A, 0, VC4_QPU_W_UNIFORMS_ADDRESS},
    {"unif_addr_rel", REG_WR_B, 0, VC4_QPU_W_UNIFORMS_ADDRESS},
    {"uniform_read", AB, VC4_QPU_R_UNIF, 0},
    {"vary", AB, VC4_QPU_R_VARY, 0},
    {"varying_read", AB, VC4_QPU_R_VARY, 0},
    {"vpm", AB | WAB, VC4_QPU_R_VPM, VC4_QPU_W_VPM},
    {"vpm_ld_addr", REG_WR_A, 0, VC4_QPU_W_VPM_ADDR},
    {"vpm_ld_busy", REG_RD_A, VC4_QPU_R_VPM_BUSY, 0},
    {"vpm_ld_wait", REG_RD_A, VC4_QPU_R_VPM_WAIT, 0},
    {"vpm_read", AB, VC4_QPU_R_VPM, 0},
    {"vpm_st_addr", REG_WR_B, 0, VC4_QPU_W_VPM_ADDR},
    {"vpm_st_busy", REG_RD_B, VC4_QPU_R_VPM_BUSY, 0},
    {"vpm_st_wait", REG_RD_B, VC4_QPU_R_VPM_WAIT, 0},
    {"vpm_write", WAB, 0, VC4_QPU_W_VPM},
    {"vpmvcd_rd_setup", REG_WR_A, 0, VC4_QPU_W_VPMVCD_SETUP},
    {"vpmvcd_wr_setup", REG_WR_B, 0, VC4_QPU_W_VPMVCD_SETUP},
    {"vr_addr", REG_WR_A, 0, VC4_QPU_W_VPM_ADDR},
    {"vr_busy", REG_RD_A, VC4_QPU_R_VPM_BUSY, 0},
    {"vr_setup", REG_WR_A, 0, VC4_QPU_W_VPMVCD_SETUP},
    {"vr_wait", REG_RD_A, VC4_QPU_R_VPM_WAIT, 0},
    {"vw_addr", REG_WR_B, 0, VC4_QPU_W_VPM_ADDR},
    {"vw_busy", REG_RD_B, VC4_QPU_R_VPM_BUSY, 0},
    {"vw_setup", REG_WR_B, 0, VC4_QPU_W_VPMVCD_SETUP},
    {"vw_wait", REG_RD_B, VC4_QPU_R_VPM_WAIT, 0},
    {"x_coord", REG_RD_A | REG_WR_A, VC4_QPU_R_XY_COORD, VC4_QPU_W_QUAD_XY},
    {"x_pixel_coord", REG_RD_A | REG_WR_A, VC4_QPU_R_XY_COORD, VC4_QPU_W_QUAD_XY},
    {"y_coord", REG_RD_B | REG_WR_B, VC4_QPU_R_XY_COORD, VC4_QPU_W_QUAD_XY},
    {"y_pixel_coord", REG_RD_B | REG_WR_B, VC4_QPU_R_XY_COORD, VC4_QPU_W_QUAD_XY},
};

static bool parse_small_dec(const char *p, size_t len, unsigned *v)
{
    if (!len || len > 2)
        return false;
    unsigned x = 0;
    for (size_t i = 0; i < len; i++) {
        if (p[i] < '0' || p[i] > '9')
            return false;
        x = x * 10 + (unsigned)(p[i] - '0');
    }
    if (len == 2 && p[0] == '0')
        return false;
    *v = x;
    return true;
}

bool asm_builtin_reg(const char *name, size_t len, struct asm_reg *out)
{
    memset(out, 0, sizeof *out);
    unsigned n;
    if (len >= 2 && name[0] == 'r' && parse_small_dec(name + 1, len - 1, &n) && n <= 5) {
        /* accumulators r0..r5: read through mux n; r0..r3 write as 32..35 */
        out->caps = REG_ACC | (n < 4 ? WAB : 0);
        out->acc = (uint8_t)n;
        out->waddr = (uint8_t)(VC4_QPU_W_ACC0 + n);
        return true;
    }
    if (len >= 3 && name[0] == 'r' && (name[1] == 'a' || name[1] == 'b') &&
        parse_small_dec(name + 2, len - 2, &n) && n < 64) {
        /* raN / rbN, N 0..63: raw addresses of one file */
        bool b = name[1] == 'b';
        out->caps = b ? (REG_RD_B | REG_WR_B) : (REG_RD_A | REG_WR_A);
        out->raddr = out->waddr = (uint8_t)n;
        return true;
    }
    if (len >= 5 && (memcmp(name, "sacq", 4) == 0 || memcmp(name, "srel", 4) == 0) &&
        parse_small_dec(name + 4, len - 4, &n) && n < 16) {
        out->caps = name[1] == 'a' ? REG_SACQ : REG_SREL;
        out->raddr = (uint8_t)n;
        return true;
    }
    size_t lo = 0, hi = VC4_ARRAY_SIZE(reg_names);
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = asm_name_cmp(name, len, reg_names[mid].name);
        if (c == 0) {
            out->caps = reg_names[mid].caps;
            out->raddr = reg_names[mid].raddr;
            out->waddr = reg_names[mid].waddr;
            return true;
        }
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return false;
}

/* ---- helpers --------------------------------------------------------------- */

uint32_t asm_val_bits(const struct asm_val *v)
{
    switch (v->kind) {
    case AV_FLOAT:
        return vc4_f2u((float)v->f);
    default:
        return (uint32_t)v->i;
    }
}

bool asm_val_true(const struct asm_val *v)
{
    return v->kind == AV_FLOAT ? v->f != 0.0 : v->i != 0;
}

static void set_int(struct asm_val *v, int64_t i)
{
    memset(v, 0, sizeof *v);
    v->kind = AV_INT;
    v->i = i;
}

static const struct asm_tok *peek(struct asm_expr_ctx *c) { return &c->t[c->pos]; }

static bool fail(struct asm_expr_ctx *c, const struct asm_tok *t, const char *msg)
{
    if (!c->failed)
        asm_error(c->as, t->col, "%s", msg);
    c->failed = true;
    return false;
}

/* "'sin' needs one number": a built-in function's complaint */
static bool fail_fn(struct asm_expr_ctx *c, const struct asm_tok *t, const char *what)
{
    if (!c->failed)
        asm_error(c->as, t->col, "'%.*s' %s", (int)t->len, t->p, what);
    c->failed = true;
    return false;
}

/* fail with the token's text: "undefined symbol 'r6'" */
static bool fail_named(struct asm_expr_ctx *c, const struct asm_tok *t, const char *what)
{
    if (!c->failed)
        asm_error(c->as, t->col, "%s '%.*s'", what, (int)t->len, t->p);
    c->failed = true;
    return false;
}

bool asm_parse_number(const char *p, size_t len, struct asm_val *v)
{
    memset(v, 0, sizeof *v);
    if (!len)
        return false;
    bool prefixed = len > 1 && p[0] == '0' &&
                    (p[1] == 'x' || p[1] == 'X' || p[1] == 'b' || p[1] == 'B');
    if (!prefixed) {
        for (size_t i = 0; i < len; i++) {
            if (p[i] == '.' || p[i] == 'e' || p[i] == 'E') {
                /* a float: strtod needs a terminated copy */
                char buf[80];
                if (len >= sizeof buf)
                    return false;
                memcpy(buf, p, len);
                buf[len] = 0;
                char *end;
                v->kind = AV_FLOAT;
                v->f = strtod(buf, &end);
                return *end == 0;
            }
        }
    }
    v->kind = AV_INT;
    uint64_t x = 0;
    unsigned base = 10;
    size_t i = 0;
    if (p[0] == '0' && len > 1) {
        if (p[1] == 'x' || p[1] == 'X') {
            base = 16;
            i = 2;
        } else if (p[1] == 'b' || p[1] == 'B') {
            base = 2;
            i = 2;
        } else {
            base = 8; /* leading zero: octal, as in C and vc4asm */
            i = 1;
        }
    }
    if (i >= len)
        return false;
    for (; i < len; i++) {
        char ch = p[i];
        unsigned d;
        if (ch >= '0' && ch <= '9')
            d = (unsigned)(ch - '0');
        else if (ch >= 'a' && ch <= 'f')
            d = (unsigned)(ch - 'a' + 10);
        else if (ch >= 'A' && ch <= 'F')
            d = (unsigned)(ch - 'A' + 10);
        else
            return false;
        if (d >= base)
            return false;
        if (x >= UINT64_C(1) << 58 && x > (UINT64_MAX - d) / base)
            return false; /* too big (below 2^58 no base <= 16 overflows) */
        x = x * base + d;
    }
    if (x > (uint64_t)INT64_MAX)
        return false;
    v->i = (int64_t)x;
    return true;
}

static double exp10_of(double x) { return pow(10.0, x); }

/* ---- built-in query functions (replace vc4asm's ':[...]' register literals) --- */

static bool builtin_func(struct asm_expr_ctx *c, const struct asm_tok *name, struct asm_val *a,
                         int na, struct asm_val *out)
{
    static const char *const q[] = {"isConstant", "isRegister", "isRegfileA", "isRegfileB",
                                    "isAccu", "isLabel", "isSemaphore", "isReadable",
                                    "isWritable", "isRotate", "isLdPE"};
    for (size_t k = 0; k < VC4_ARRAY_SIZE(q); k++) {
        if (!asm_tok_is(name, q[k]))
            continue;
        if (na != 1)
            return fail(c, name, "query function takes one argument");
        bool reg = a[0].kind == AV_REG;
        unsigned caps = reg ? a[0].r.caps : 0;
        bool r = false;
        switch (k) {
        case 0: r = a[0].kind == AV_INT || a[0].kind == AV_FLOAT; break;
        case 1: r = reg && !(caps & (REG_SACQ | REG_SREL)); break;
        case 2: r = reg && (caps & (REG_RD_A | REG_WR_A)) && !(caps & (REG_RD_B | REG_WR_B)); break;
        case 3: r = reg && (caps & (REG_RD_B | REG_WR_B)) && !(caps & (REG_RD_A | REG_WR_A)); break;
        case 4: r = reg && (caps & REG_ACC); break;
        case 5: r = a[0].kind == AV_LABEL; break;
        case 6: r = reg && (caps & (REG_SACQ | REG_SREL)); break;
        case 7: r = reg && (caps & (REG_RD_A | REG_RD_B | REG_ACC)); break;
        case 8: r = reg && (caps & (REG_WR_A | REG_WR_B)); break;
        case 9: r = reg && a[0].r.rot; break;
        case 10: r = a[0].kind == AV_LDPE; break;
        }
        set_int(out, r);
        return true;
    }
    if (asm_tok_is(name, "abs") && na == 1) {
        *out = a[0];
        if (out->kind == AV_FLOAT)
            out->f = fabs(out->f);
        else if (out->kind == AV_INT && out->i < 0 && out->i != INT64_MIN)
            out->i = -out->i;
        return true;
    }
    if ((asm_tok_is(name, "min") || asm_tok_is(name, "max")) && na == 2) {
        bool mx = name->p[1] == 'a';
        double x = a[0].kind == AV_FLOAT ? a[0].f : (double)a[0].i;
        double y = a[1].kind == AV_FLOAT ? a[1].f : (double)a[1].i;
        *out = (mx ? x >= y : x <= y) ? a[0] : a[1];
        return true;
    }
    /* vc4asm's mathematical operators (Parser operatorMap2, Eval.cpp): the
     * result is a float, int arguments are converted */
    static const struct { const char *name; double (*fn)(double); } math[] = {
        {"acos", acos}, {"acosh", acosh}, {"asin", asin}, {"asinh", asinh}, {"atan", atan},
        {"atanh", atanh}, {"cos", cos}, {"cosh", cosh}, {"erf", erf}, {"erfc", erfc},
        {"exp", exp}, {"exp10", exp10_of}, {"exp2", exp2}, {"log", log}, {"log10", log10},
        {"log2", log2}, {"sin", sin}, {"sinh", sinh}, {"sqrt", sqrt}, {"tan", tan},
        {"tanh", tanh},
    };
    for (size_t k = 0; k < VC4_ARRAY_SIZE(math); k++) {
        if (!asm_tok_is(name, math[k].name))
            continue;
        if (na != 1 || (a[0].kind != AV_INT && a[0].kind != AV_FLOAT))
            return fail_fn(c, name, "needs one number");
        out->kind = AV_FLOAT;
        out->undef = a[0].undef;
        out->f = math[k].fn(a[0].kind == AV_FLOAT ? a[0].f : (double)a[0].i);
        return true;
    }
    /* floor / ceil give an int (vc4asm; see docs/assembly.md deviations) */
    if ((asm_tok_is(name, "floor") || asm_tok_is(name, "ceil")) && na == 1 &&
        (a[0].kind == AV_INT || a[0].kind == AV_FLOAT)) {
        double x = a[0].kind == AV_FLOAT ? a[0].f : (double)a[0].i;
        x = name->p[0] == 'f' ? floor(x) : ceil(x);
        if (!(x >= -9.2e18 && x <= 9.2e18))
            return fail_fn(c, name, "result is outside the integer range");
        set_int(out, (int64_t)x);
        return true;
    }
    /* vc4.qinc's integer helpers (vc4asm share/include/vc4.qinc), built in:
     * ilog2(x) the highest set bit of x as unsigned (-1 for 0);
     * reverseBits(x, n) the low n bits of x in reverse order;
     * reverseBits4/8/16/32/64(x) the same for n = 4 ... 64 */
    if (asm_tok_is(name, "ilog2") && na == 1 && a[0].kind == AV_INT) {
        uint64_t x = (uint64_t)a[0].i;
        int r = -1;
        for (; x; x >>= 1)
            r++;
        set_int(out, r);
        return true;
    }
    if (name->len >= 11 && memcmp(name->p, "reverseBits", 11) == 0 && a[0].kind == AV_INT) {
        int64_t n = -1;
        if (name->len == 11 && na == 2 && a[1].kind == AV_INT)
            n = a[1].i;
        else if (na == 1 && (asm_tok_is(name, "reverseBits4") || asm_tok_is(name, "reverseBits8") ||
                             asm_tok_is(name, "reverseBits16") || asm_tok_is(name, "reverseBits32") ||
                             asm_tok_is(name, "reverseBits64")))
            n = strtol(name->p + 11, NULL, 10);
        if (n < 0 || n > 64)
            return fail_fn(c, name, "needs an integer and a bit count 0..64");
        uint64_t x = (uint64_t)a[0].i, r = 0;
        for (int64_t k = 0; k < n; k++, x >>= 1)
            r = r << 1 | (x & 1);
        set_int(out, (int64_t)r);
        return true;
    }
    if (asm_tok_is(name, "countBits") && na == 1 && a[0].kind == AV_INT) {
        uint32_t x = (uint32_t)a[0].i;
        int r = 0;
        for (; x; x &= x - 1)
            r++;
        set_int(out, r);
        return true;
    }
    return fail_named(c, name, "unknown function");
}

/* ---- the parser ------------------------------------------------------------- */

static bool expr_cond(struct asm_expr_ctx *c, struct asm_val *v);

/* Suffixes on a register: pack/unpack (the regfile-A pack names of the spec
 * table, whose codes 1..15 are PK_16A..PK_8DS, and the ".8dr" unpack) and the
 * write condition (spec names, plus vc4asm's "ifnc" and "always"). */
static_assert((int)PK_16A == (int)VC4_QPU_PACK_A_16A && (int)PK_32S == (int)VC4_QPU_PACK_A_32_SAT &&
                  (int)PK_8DS == (int)VC4_QPU_PACK_A_8D_SAT && (int)PK_8DR == (int)VC4_QPU_PACK_A_COUNT,
              "enum asm_pk follows the regfile-A pack codes");

static int pk_code(const struct asm_tok *t)
{
    /* Guess the code from the suffix's shape ("16a", "8abcds", "32s", ...),
     * then confirm it against the spec's name for that code. */
    const char *p = t->p;
    size_t len = t->len;
    if (len < 2 || len > 6)
        return 0;
    bool sat = p[len - 1] == 's';
    unsigned base;
    if (p[0] == '8') {
        if (len >= 5 && p[1] == 'a' && p[2] == 'b') /* 8abcd */
            base = VC4_QPU_PACK_A_8888;
        else if (p[1] >= 'a' && p[1] <= 'd')
            base = VC4_QPU_PACK_A_8A + (unsigned)(p[1] - 'a');
        else
            return 0;
        if (p[1] == 'd' && len == 3 && p[2] == 'r') { /* 8dr: the replicating unpack */
            const char *u = vc4_qpu_unpack_suffix(VC4_QPU_UNPACK_8D_REP);
            return asm_name_is(u + 1, p, len) ? PK_8DR : 0;
        }
    } else if (p[0] == '1' && len >= 3 && p[1] == '6' && (p[2] == 'a' || p[2] == 'b')) {
        base = p[2] == 'a' ? VC4_QPU_PACK_A_16A : VC4_QPU_PACK_A_16B;
    } else if (p[0] == '3' && len == 3 && p[1] == '2' && sat) {
        return asm_name_is(vc4_qpu_pack_suffix(0, VC4_QPU_PACK_A_32_SAT) + 1, p, len)
                   ? VC4_QPU_PACK_A_32_SAT : 0;
    } else {
        return 0;
    }
    unsigned code = sat ? base + (VC4_QPU_PACK_A_32_SAT - VC4_QPU_PACK_A_NOP) : base;
    if (code >= VC4_QPU_PACK_A_COUNT)
        return 0;
    return asm_name_is(vc4_qpu_pack_suffix(0, code) + 1, p, len) ? (int)code : 0;
}

/* Write condition: "if" + z, nz, n, nn, c, cc (the spec's names, confirmed),
 * "never", and vc4asm's "ifnc" (= ifcc) and "always". */
int asm_cond_code(const struct asm_tok *t)
{
    const char *p = t->p;
    size_t len = t->len;
    int c = -1;
    if (len >= 3 && len <= 4 && p[0] == 'i' && p[1] == 'f') {
        bool neg = len == 4; /* ifnz ifnn ifcc (ifnc) */
        switch (p[len - 1]) {
        case 'z': c = neg ? VC4_QPU_COND_ZC : VC4_QPU_COND_ZS; break;
        case 'n': c = neg ? VC4_QPU_COND_NC : VC4_QPU_COND_NS; break;
        case 'c':
            if (neg && p[2] == 'n')
                return VC4_QPU_COND_CC; /* vc4asm alias ifnc */
            c = neg ? VC4_QPU_COND_CC : VC4_QPU_COND_CS;
            break;
        default: return -1;
        }
    } else if (len == 5 && p[0] == 'n') {
        c = VC4_QPU_COND_NEVER;
    } else if (len == 6 && p[0] == 'a') {
        return asm_tok_is(t, "always") ? VC4_QPU_COND_ALWAYS : -1;
    } else {
        return -1;
    }
    const char *s = vc4_qpu_cond_suffix((unsigned)c);
    return s[0] == '.' && asm_name_is(s + 1, p, len) ? c : -1;
}

/* vc4asm's other spellings of the pack/unpack and condition suffixes
 * (Parser.tables.cpp extMap): "8888" is 8abcd, "clamp" the saturating form,
 * "i"/"f" name the integer/float variant of a mode (vc4kit places the pack by
 * its own rule: docs/assembly.md), "8ddupe" replicates byte d; a condition on
 * a destination may drop the "if" (r0.z) or name the flag state (zs, zc...). */
static const struct { const char *alias, *name; } suffix_aliases[] = { /* sorted */
    /* the 'f' pack variants ask for the MUL colour pack and the 'i' ones for
     * the regfile-A pack (vc4asm calcPM: P_FLT -> pm 1, P_INT -> pm 0):
     * asm_suffix_pack_kind tells which */
    {"16aclamp", "16as"}, {"16af", "16a"}, {"16ai", "16a"}, {"16asi", "16as"},
    {"16bclamp", "16bs"}, {"16bf", "16b"}, {"16bi", "16b"}, {"16bsi", "16bs"},
    {"32clamp", "32s"}, {"32si", "32s"},
    {"8888", "8abcd"}, {"8888i", "8abcd"}, {"8888s", "8abcds"}, {"8888sf", "8abcds"},
    {"8888si", "8abcds"}, {"8abcdi", "8abcd"}, {"8abcdsf", "8abcds"}, {"8abcdsi", "8abcds"},
    {"8aclamp", "8as"}, {"8af", "8a"}, {"8ai", "8a"}, {"8asf", "8as"}, {"8asi", "8as"},
    {"8bclamp", "8bs"}, {"8bf", "8b"}, {"8bi", "8b"}, {"8bsf", "8bs"}, {"8bsi", "8bs"},
    {"8cclamp", "8cs"}, {"8cf", "8c"}, {"8ci", "8c"}, {"8csf", "8cs"}, {"8csi", "8cs"},
    {"8dclamp", "8ds"}, {"8ddupe", "8abcd"}, {"8ddupeclamp", "8abcds"}, {"8df", "8d"},
    {"8di", "8d"}, {"8dsf", "8ds"}, {"8dsi", "8ds"},
    {"c", "ifc"}, {"cc", "ifcc"}, {"cs", "ifc"}, {"ifcs", "ifc"}, {"ifns", "ifn"},
    {"ifzc", "ifnz"}, {"ifzs", "ifz"}, {"n", "ifn"}, {"nn", "ifnn"}, {"ns", "ifn"},
    {"nz", "ifnz"}, {"z", "ifz"}, {"zc", "ifnz"}, {"zs", "ifz"},
};

/* 2 for an 'f' pack spelling (MUL colour pack), 1 for an 'i' one (regfile-A
 * pack), 0 otherwise. */
static int suffix_pack_kind(const struct asm_tok *t)
{
    if (t->kind != TK_SUFFIX || t->len < 3 || (t->p[0] != '8' && t->p[0] != '1' && t->p[0] != '3'))
        return 0;
    char last = t->p[t->len - 1];
    return last == 'f' ? 2 : last == 'i' ? 1 : 0;
}

/* The suffix token t under its vc4kit name (t itself when it has no alias). */
struct asm_tok asm_suffix_canonical(const struct asm_tok *t)
{
    struct asm_tok r = *t;
    if (t->kind != TK_SUFFIX)
        return r;
    size_t lo = 0, hi = VC4_ARRAY_SIZE(suffix_aliases); /* sorted by alias */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = asm_name_cmp(t->p, t->len, suffix_aliases[mid].alias);
        if (c == 0) {
            r.p = suffix_aliases[mid].name;
            r.len = (uint32_t)strlen(r.p);
            break;
        }
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return r;
}

int asm_pk_suffix(const struct asm_tok *t, uint8_t *pkf)
{
    struct asm_tok canon = asm_suffix_canonical(t);
    int pk = pk_code(&canon);
    *pkf = pk ? (uint8_t)suffix_pack_kind(t) : 0;
    return pk;
}

bool asm_reg_suffixes(struct asm_expr_ctx *c, struct asm_val *v)
{
    while (peek(c)->kind == TK_SUFFIX) {
        struct asm_tok canon = asm_suffix_canonical(peek(c));
        const struct asm_tok *t = &canon;
        uint8_t pkf = 0;
        int pk = asm_pk_suffix(peek(c), &pkf);
        if (pk) {
            if (v->r.pk)
                return fail(c, t, "only one pack/unpack suffix per register");
            v->r.pk = (uint8_t)pk;
            v->r.pkf = pkf;
        } else {
            int cc = asm_cond_code(t);
            if (cc < 0)
                return true; /* not ours: the instruction parser decides */
            if (v->r.cond)
                return fail(c, t, "only one condition per destination");
            v->r.cond = (uint8_t)(cc + 1);
        }
        c->pos++;
    }
    return true;
}

static bool primary(struct asm_expr_ctx *c, struct asm_val *v)
{
    const struct asm_tok *t = peek(c);
    memset(v, 0, sizeof *v);
    if (++c->depth > ASM_MAX_EXPR_DEPTH)
        return fail(c, t, "expression nested too deeply");
    bool ok = true;
    if (t->kind == TK_NUMBER) {
        c->pos++;
        if (!asm_parse_number(t->p, t->len, v))
            ok = fail(c, t, "invalid or too large number");
    } else if (t->kind == TK_PUNCT && asm_tok_is(t, "(")) {
        c->pos++;
        ok = expr_cond(c, v);
        if (ok && !asm_tok_is(peek(c), ")"))
            ok = fail(c, peek(c), "expected ')'");
        else if (ok)
            c->pos++;
    } else if (t->kind == TK_PUNCT && asm_tok_is(t, "[")) {
        /* per-element vector: 16 values -2..3 */
        c->pos++;
        int64_t bits = 0;
        bool neg = false, big = false;
        int k = 0;
        for (;;) {
            struct asm_val e;
            if (!expr_cond(c, &e))
                return false;
            if (e.kind != AV_INT || e.i < -2 || e.i > 3)
                return fail(c, t, "per-element values must be integers -2..3");
            if (k >= 16)
                return fail(c, t, "per-element vector has more than 16 values");
            neg |= e.i < 0;
            big |= e.i > 1;
            bits |= (int64_t)(e.i & 1) << k | (int64_t)((e.i >> 1) & 1) << (16 + k);
            k++;
            if (asm_tok_is(peek(c), ","))
                c->pos++;
            else
                break;
        }
        if (!asm_tok_is(peek(c), "]"))
            return fail(c, peek(c), "expected ']'");
        c->pos++;
        if (k != 16)
            return fail(c, t, "per-element vector needs 16 values");
        if (neg && big)
            return fail(c, t, "per-element vector mixes signed and unsigned values");
        v->kind = AV_LDPE;
        v->i = bits;
        v->ldpe_signed = neg ? 1 : big ? 2 : 0;
    } else if ((t->kind == TK_PUNCT && asm_tok_is(t, ":")) ||
               (t->kind == TK_IDENT && asm_tok_is(t, "r") && asm_tok_is(&c->t[c->pos + 1], ":"))) {
        /* label reference: ":name", "::name", "r:name", ":1f", ":1b" */
        c->pos += t->kind == TK_IDENT ? 2 : 1;
        if (asm_tok_is(peek(c), ":"))
            c->pos++;
        const struct asm_tok *n = peek(c);
        if (n->kind != TK_IDENT && n->kind != TK_NUMBER)
            return fail(c, n, "expected a label name after ':'");
        c->pos++;
        uint32_t addr = 0;
        v->kind = AV_LABEL;
        if (asm_label_ref(c->as, n->p, n->len, &addr)) {
            v->i = addr;
        } else if (c->as->pass == 1) {
            v->undef = true;
        } else {
            ok = fail_named(c, n, "undefined label");
        }
    } else if (t->kind == TK_IDENT) {
        c->pos++;
        if (asm_tok_is(peek(c), "(")) {
            /* function call */
            struct asm_val args[ASM_MAX_ARGS];
            int na = 0;
            c->pos++;
            if (!asm_tok_is(peek(c), ")")) {
                for (;;) {
                    if (na >= ASM_MAX_ARGS)
                        return fail(c, peek(c), "too many arguments");
                    if (!expr_cond(c, &args[na++]))
                        return false;
                    if (asm_tok_is(peek(c), ","))
                        c->pos++;
                    else
                        break;
                }
            }
            if (!asm_tok_is(peek(c), ")"))
                return fail(c, peek(c), "expected ')'");
            c->pos++;
            struct asm_macro *m = c->as ? asm_macro_find(c->as, t->p, t->len, true) : NULL;
            if (m)
                ok = asm_call_func(c->as, m, args, na, v, t->col);
            else
                ok = builtin_func(c, t, args, na, v);
            if (!ok)
                c->failed = true;
        } else {
            struct asm_sym *s = c->as ? asm_sym_find(c->as, t->p, t->len) : NULL;
            if (s) {
                *v = s->val;
            } else if (!asm_builtin_reg(t->p, t->len, &v->r)) {
                ok = fail_named(c, t, "undefined symbol");
            } else {
                v->kind = AV_REG;
            }
        }
    } else {
        ok = fail(c, t, "expected an expression");
    }
    if (ok && v->kind == AV_REG)
        ok = asm_reg_suffixes(c, v);
    c->depth--;
    return ok && !c->failed;
}

static bool num_pair(const struct asm_val *a, const struct asm_val *b)
{
    return (a->kind == AV_INT || a->kind == AV_FLOAT) && (b->kind == AV_INT || b->kind == AV_FLOAT);
}
static double as_d(const struct asm_val *a) { return a->kind == AV_FLOAT ? a->f : (double)a->i; }

static bool unary(struct asm_expr_ctx *c, struct asm_val *v)
{
    const struct asm_tok *t = peek(c);
    if (t->kind == TK_PUNCT && (asm_tok_is(t, "-") || asm_tok_is(t, "+") || asm_tok_is(t, "~") ||
                                asm_tok_is(t, "!"))) {
        c->pos++;
        if (++c->depth > ASM_MAX_EXPR_DEPTH)
            return fail(c, t, "expression nested too deeply");
        bool ok = unary(c, v);
        c->depth--;
        if (!ok)
            return false;
        char op = t->p[0];
        if (op == '+')
            return true;
        if (v->kind == AV_FLOAT) {
            if (op == '-')
                v->f = -v->f;
            else if (op == '!')
                set_int(v, v->f == 0.0);
            else
                return fail(c, t, "'~' needs an integer");
            return true;
        }
        if (v->kind != AV_INT)
            return fail(c, t, "operator needs a number");
        if (op == '-')
            v->i = (int64_t)(0 - (uint64_t)v->i);
        else if (op == '~')
            v->i = ~v->i;
        else
            v->i = !v->i;
        return true;
    }
    return primary(c, v);
}

/* Binary operator precedence (higher binds tighter); 0 = not a binary op. */
static int prec(const struct asm_tok *t)
{
    if (t->kind != TK_PUNCT || t->len > 4)
        return 0;
    char a = t->p[0], b = t->len > 1 ? t->p[1] : 0;
    switch (a) {
    case '*': return b == '*' ? 11 : 10;
    case '/': case '%': return 10;
    case '+': case '-': return 9;
    case '<': return b == '<' ? 8 : 7;
    case '>': return b == '>' || b == '<' ? 8 : 7; /* >> >>> >>< >>>< ><< ><<< */
    case '=': return b == '=' ? 6 : 0;
    case '!': return b == '=' ? 6 : 0;
    case '&': return b == '&' ? 2 : 5;
    case '^': return b == '^' ? 2 : 4;
    case '|': return b == '|' ? 1 : 3;
    default: return 0;
    }
}

static bool apply_binary(struct asm_expr_ctx *c, const struct asm_tok *op, struct asm_val *a,
                         const struct asm_val *b)
{
    bool undef = a->undef || b->undef;
    char o0 = op->p[0], o1 = op->len > 1 ? op->p[1] : 0;
    /* registers: +/- adjust the number, << >> rotate, == != compare */
    if (a->kind == AV_REG) {
        if ((o0 == '+' || o0 == '-') && op->len == 1 && b->kind == AV_INT) {
            int64_t d = o0 == '+' ? b->i : -b->i;
            int64_t r = a->r.raddr + d, w = a->r.waddr + d;
            if (a->r.caps & REG_ACC) {
                int64_t acc = a->r.acc + d;
                if (acc < 0 || acc > 5)
                    return fail(c, op, "register number out of range");
                asm_builtin_reg((const char[]){'r', (char)('0' + acc)}, 2, &a->r);
                return true;
            }
            if (r < 0 || r > 63 || w < 0 || w > 63)
                return fail(c, op, "register number out of range");
            a->r.raddr = (uint8_t)r;
            a->r.waddr = (uint8_t)w;
            return true;
        }
        if ((asm_tok_is(op, "<<") || asm_tok_is(op, ">>")) && op->len == 2) {
            int n;
            if (b->kind == AV_REG && (b->r.caps & REG_ACC) && b->r.acc == 5) {
                if (o0 == '<')
                    return fail(c, op, "rotation by r5 is only to the right ('>> r5')");
                n = 16;
            } else if (b->kind == AV_INT) {
                n = (int)(b->i & 15);
                if (o0 == '<')
                    n = (16 - n) & 15; /* left by n == right by 16-n */
            } else {
                return fail(c, op, "rotation needs an integer or r5");
            }
            if (a->r.rot)
                return fail(c, op, "only one rotation per operand");
            a->r.rot = (int8_t)n;
            return true;
        }
        if ((asm_tok_is(op, "==") || asm_tok_is(op, "!="))) {
            bool eq = b->kind == AV_REG && a->r.caps == b->r.caps && a->r.raddr == b->r.raddr &&
                      a->r.waddr == b->r.waddr && a->r.acc == b->r.acc && a->r.pk == b->r.pk &&
                      a->r.rot == b->r.rot;
            set_int(a, o0 == '=' ? eq : !eq);
            return true;
        }
        return fail(c, op, "operator cannot be applied to a register");
    }
    if (b->kind == AV_REG) {
        if ((asm_tok_is(op, "==") || asm_tok_is(op, "!="))) {
            set_int(a, o0 == '!');
            return true;
        }
        if (o0 == '+' && op->len == 1 && a->kind == AV_INT) {
            struct asm_val t = *b;
            bool r = apply_binary(c, op, &t, a);
            *a = t;
            return r;
        }
        return fail(c, op, "operator cannot be applied to a register");
    }
    /* labels: label +- int = label, label - label = int */
    if (a->kind == AV_LABEL || b->kind == AV_LABEL) {
        if (op->len == 1 && o0 == '-' && a->kind == AV_LABEL && b->kind == AV_LABEL) {
            set_int(a, a->i - b->i);
        } else if (op->len == 1 && (o0 == '+' || o0 == '-') && b->kind == AV_INT) {
            a->i = o0 == '+' ? a->i + b->i : a->i - b->i;
        } else if (op->len == 1 && o0 == '+' && a->kind == AV_INT) {
            int64_t x = a->i;
            *a = *b;
            a->i += x;
        } else {
            /* anything else treats labels as their byte address */
            struct asm_val x = *a, y = *b;
            x.kind = x.kind == AV_LABEL ? AV_INT : x.kind;
            y.kind = y.kind == AV_LABEL ? AV_INT : y.kind;
            if (!apply_binary(c, op, &x, &y))
                return false;
            *a = x;
        }
        a->undef = undef;
        return true;
    }
    if (a->kind == AV_LDPE || b->kind == AV_LDPE)
        return fail(c, op, "operator cannot be applied to a per-element vector");
    if (!num_pair(a, b))
        return fail(c, op, "operator needs numbers");
    bool fl = a->kind == AV_FLOAT || b->kind == AV_FLOAT;
    double x = as_d(a), y = as_d(b);
    int64_t i = a->i, j = b->i;
    uint64_t ui = (uint64_t)i, uj = (uint64_t)j;
    struct asm_val r;
    set_int(&r, 0);
    if (op->len == 1) {
        switch (o0) {
        case '*': if (fl) { r.kind = AV_FLOAT; r.f = x * y; } else r.i = (int64_t)(ui * uj); break;
        case '/':
        case '%':
            if (fl) {
                r.kind = AV_FLOAT;
                r.f = o0 == '/' ? x / y : fmod(x, y);
            } else {
                if (j == 0)
                    return fail(c, op, "division by zero");
                if (i == INT64_MIN && j == -1)
                    r.i = o0 == '/' ? INT64_MIN : 0;
                else
                    r.i = o0 == '/' ? i / j : i % j;
            }
            break;
        case '+': if (fl) { r.kind = AV_FLOAT; r.f = x + y; } else r.i = (int64_t)(ui + uj); break;
        case '-': if (fl) { r.kind = AV_FLOAT; r.f = x - y; } else r.i = (int64_t)(ui - uj); break;
        case '<': r.i = x < y; if (!fl) r.i = i < j; break;
        case '>': r.i = x > y; if (!fl) r.i = i > j; break;
        case '&': case '^': case '|':
            if (fl)
                return fail(c, op, "bitwise operator needs integers");
            r.i = o0 == '&' ? (i & j) : o0 == '^' ? (i ^ j) : (i | j);
            break;
        default:
            return fail(c, op, "unknown operator");
        }
    } else if (o0 == '*') { /* power */
        if (fl) { r.kind = AV_FLOAT; r.f = pow(x, y); }
        else { int64_t p = 1; for (int64_t k = 0; k < j && k < 64; k++) p = (int64_t)((uint64_t)p * ui); r.i = p; }
    } else if ((o0 == '<' && o1 == '<') || (o0 == '>' && (o1 == '>' || o1 == '<'))) {
        if (a->kind == AV_FLOAT && b->kind == AV_INT && op->len == 2) {
            /* float << n, float >> n: times 2^n (vc4asm Eval: ldexp) */
            int64_t e = o0 == '<' ? j : -j;
            e = e > 5000 ? 5000 : e < -5000 ? -5000 : e;
            r.kind = AV_FLOAT;
            r.f = ldexp(x, (int)e);
            r.undef = undef;
            *a = r;
            return true;
        }
        if (fl)
            return fail(c, op, "shift needs integers");
        /* vc4asm Eval (64-bit values): << >> arithmetic (a negative count
         * shifts the other way), <<< >>> logical, ><< >>< rotate the low 32
         * bits, ><<< >>>< rotate 64 bits */
        bool back = (asm_tok_is(op, "<<") || asm_tok_is(op, ">>")) && j < 0;
        uint64_t cnt = back ? (uint64_t)0 - uj : uj;
        unsigned s = cnt > 63 ? 64 : (unsigned)cnt;
        bool left = o0 == '<' ? !back : (asm_tok_is(op, ">>") && back);
        uint32_t w = (uint32_t)i;
        if (op->p[op->len - 1] == '<' && o0 == '>') { /* rotations */
            bool rl = o1 == '<';
            if (op->len == 3) {
                unsigned k = (unsigned)(uj & 31);
                w = rl ? (w << k) | (w >> ((32 - k) & 31)) : (w >> k) | (w << ((32 - k) & 31));
                r.i = (int64_t)w;
            } else {
                unsigned k = (unsigned)(uj & 63);
                r.i = (int64_t)(rl ? (ui << k) | (ui >> ((64 - k) & 63))
                                   : (ui >> k) | (ui << ((64 - k) & 63)));
            }
        } else if (op->len == 3) { /* <<< >>> logical */
            r.i = s >= 64 ? 0 : (int64_t)(o0 == '<' ? ui << s : ui >> s);
        } else if (left) {
            r.i = s >= 64 ? 0 : (int64_t)(ui << s);
        } else {
            r.i = s >= 64 ? (i < 0 ? -1 : 0) : (i >> s);
        }
    } else if (o1 == '=') {
        bool res;
        if (o0 == '<') res = fl ? x <= y : i <= j;
        else if (o0 == '>') res = fl ? x >= y : i >= j;
        else if (o0 == '=') res = fl ? x == y : i == j;
        else res = fl ? x != y : i != j;
        r.i = res;
    } else if (asm_tok_is(op, "&&")) {
        r.i = asm_val_true(a) && asm_val_true(b);
    } else if (asm_tok_is(op, "||")) {
        r.i = asm_val_true(a) || asm_val_true(b);
    } else if (asm_tok_is(op, "^^")) {
        r.i = asm_val_true(a) != asm_val_true(b);
    } else {
        return fail(c, op, "unknown operator");
    }
    r.undef = undef;
    *a = r;
    return true;
}

static bool binary(struct asm_expr_ctx *c, struct asm_val *v, int minprec)
{
    if (!unary(c, v))
        return false;
    for (;;) {
        const struct asm_tok *op = peek(c);
        int p = prec(op);
        if (!p || p < minprec)
            return true;
        c->pos++;
        struct asm_val rhs;
        if (++c->depth > ASM_MAX_EXPR_DEPTH)
            return fail(c, op, "expression nested too deeply");
        /* '**' is right associative */
        bool ok = binary(c, &rhs, asm_tok_is(op, "**") ? p : p + 1);
        c->depth--;
        if (!ok || !apply_binary(c, op, v, &rhs))
            return false;
    }
}

static bool expr_cond(struct asm_expr_ctx *c, struct asm_val *v)
{
    if (!binary(c, v, 1))
        return false;
    if (asm_tok_is(peek(c), "?")) {
        const struct asm_tok *q = peek(c);
        c->pos++;
        struct asm_val a, b;
        if (++c->depth > ASM_MAX_EXPR_DEPTH)
            return fail(c, q, "expression nested too deeply");
        bool ok = expr_cond(c, &a);
        if (ok && !asm_tok_is(peek(c), ":"))
            ok = fail(c, peek(c), "expected ':'");
        if (ok) {
            c->pos++;
            ok = expr_cond(c, &b);
        }
        c->depth--;
        if (!ok)
            return false;
        if (v->kind != AV_INT && v->kind != AV_FLOAT)
            return fail(c, q, "condition must be a number");
        *v = asm_val_true(v) ? a : b;
    }
    return true;
}

/* The common operand: one identifier (symbol or register, with suffixes) or
 * one number, followed by ',' or the end.  Evaluated without the descent;
 * anything else (or a failure) takes the full parser, which reports. */
static int expr_fast(struct asm_expr_ctx *c, struct asm_val *v)
{
    const struct asm_tok *t = &c->t[c->pos];
    if (t->kind == TK_END)
        return 0;
    const struct asm_tok *nx = t + 1;
    if (t->kind == TK_NUMBER) {
        if (!(nx->kind == TK_END || asm_tok_ch(nx, ',')) || !asm_parse_number(t->p, t->len, v))
            return 0;
        c->pos++;
        return 1;
    }
    if (t->kind != TK_IDENT || !(nx->kind == TK_END || nx->kind == TK_SUFFIX || asm_tok_ch(nx, ',')))
        return 0;
    struct asm_sym *s = c->as && (c->as->locals.n || c->as->globals.n)
                            ? asm_sym_find(c->as, t->p, t->len) : NULL;
    if (s) {
        *v = s->val;
    } else {
        memset(v, 0, sizeof *v);
        if (!asm_builtin_reg(t->p, t->len, &v->r))
            return 0;
        v->kind = AV_REG;
    }
    int pos = c->pos;
    c->pos++;
    if (v->kind == AV_REG && !asm_reg_suffixes(c, v))
        return -1; /* reported */
    const struct asm_tok *e = &c->t[c->pos];
    if (!(e->kind == TK_END || asm_tok_ch(e, ','))) {
        c->pos = pos;
        return 0;
    }
    return 1;
}

bool asm_expr(struct asm_expr_ctx *c, struct asm_val *out)
{
    if (!c->failed) {
        int r = expr_fast(c, out);
        if (r)
            return r > 0;
    }
    return expr_cond(c, out) && !c->failed;
}

bool asm_expr_int(struct asm_expr_ctx *c, int64_t *out)
{
    const struct asm_tok *t = peek(c);
    struct asm_val v;
    if (!asm_expr(c, &v))
        return false;
    if (v.kind != AV_INT && v.kind != AV_LABEL)
        return fail(c, t, "expected an integer expression");
    *out = v.i;
    return true;
}

bool asm_reg_table_sorted(void)
{
    for (size_t i = 1; i < VC4_ARRAY_SIZE(reg_names); i++)
        if (strcmp(reg_names[i - 1].name, reg_names[i].name) >= 0)
            return false;
    for (size_t i = 1; i < VC4_ARRAY_SIZE(suffix_aliases); i++) /* searched the same way */
        if (strcmp(suffix_aliases[i - 1].alias, suffix_aliases[i].alias) >= 0)
            return false;
    return true;
}
