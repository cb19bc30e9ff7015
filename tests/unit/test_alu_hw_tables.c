/*
 * test_alu_hw_tables.c - the QPU ALU, regfile-A packs and unpacks replayed
 * against tables measured on a Raspberry Pi (tests/data/vc4c_*.txt, from
 * VC4C's hardware-generated test headers; their formats are described in
 * the files).  Every cell goes through both kernel tables the emulator runs
 * (exact integer kernels and the host-arithmetic / AVX2 ones), the scalar
 * rules, the emulator's flag rule and vc4_pack_a / vc4_unpack; a test passes
 * with 0 mismatches.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "emu/qpu_alu.h"
#include "vc4kit/qpu.h"

#define LANES VC4_QPU_SIMD
#define MAX_VALS 32
#define MAX_CELLS 8192

/* One measured cell. */
struct cell {
    unsigned op;         /* add or mul op code */
    bool mul;            /* mul-ALU op (no flags measured) */
    uint32_t a, b;
    uint32_t r, sat;     /* result, 32-bit saturating pack */
    int flags;           /* bit 0 z, 1 n, 2 c */
    uint32_t pk[4];      /* pack file: 16a_sat, 16a, 8a_sat, 8a */
};

struct table {
    struct cell c[MAX_CELLS];
    size_t n;
};

static FILE *open_data(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", VC4KIT_TEST_DATA, name);
    FILE *f = fopen(path, "r");
    CHECK_MSG(f != NULL, "cannot open %s", path);
    return f;
}

/* The next space-separated token of *p (NULL at the end); *p moves on. */
static char *next_tok(char **p)
{
    char *s = *p;
    while (*s == ' ')
        s++;
    if (*s == 0)
        return NULL;
    char *e = s;
    while (*e && *e != ' ')
        e++;
    if (*e)
        *e++ = 0;
    *p = e;
    return s;
}

/* Op code from a name: the add ALU's first, then the mul ALU's. */
static bool find_op(const char *name, unsigned *op, bool *mul)
{
    for (unsigned i = 1; i < VC4_QPU_A_COUNT; i++) {
        const char *n = vc4_qpu_op_add_name(i);
        if (n && strcmp(n, name) == 0) {
            *op = i;
            *mul = false;
            return true;
        }
    }
    for (unsigned i = 1; i < VC4_QPU_M_COUNT; i++) {
        const char *n = vc4_qpu_op_mul_name(i);
        if (n && strcmp(n, name) == 0) {
            *op = i;
            *mul = true;
            return true;
        }
    }
    return false;
}

/*
 * Parse a "vals / op / op1" file.  pack_cells: cells are the pack file's
 * "S16,T16,S8,T8"; otherwise "RESULT[,SAT][:FLAGS]".  "?" lines and "-"
 * cells are skipped.  Returns false on a malformed file.
 */
static bool load(const char *name, bool pack_cells, struct table *t)
{
    FILE *f = open_data(name);
    if (!f)
        return false;
    uint32_t vals[MAX_VALS];
    size_t nvals = 0, row = 0;
    unsigned op = 0;
    bool mul = false, unary = false, in_op = false, ok = true;
    char line[4096];
    t->n = 0;
    while (ok && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (line[0] == '#' || line[0] == 0)
            continue;
        char *save = line, *tok = next_tok(&save);
        if (!tok)
            continue;
        if (strcmp(tok, "vals") == 0) {
            nvals = 0;
            while ((tok = next_tok(&save)) && nvals < MAX_VALS)
                vals[nvals++] = (uint32_t)strtoul(tok, NULL, 16);
            continue;
        }
        if (strcmp(tok, "op") == 0 || strcmp(tok, "op1") == 0) {
            unary = tok[2] == '1';
            tok = next_tok(&save);
            ok = tok && find_op(tok, &op, &mul);
            CHECK_MSG(ok, "%s: unknown op %s", name, tok ? tok : "");
            in_op = true;
            row = 0;
            continue;
        }
        ok = in_op && row < (unary ? 1 : nvals);
        if (!ok)
            break;
        if (strcmp(tok, "?") == 0) {
            row++;
            continue;
        }
        for (size_t col = 0; col < nvals && ok; col++, tok = next_tok(&save)) {
            ok = tok != NULL && t->n < MAX_CELLS;
            if (!ok || strcmp(tok, "-") == 0)
                continue;
            struct cell *c = &t->c[t->n++];
            memset(c, 0, sizeof *c);
            c->op = op;
            c->mul = mul;
            c->a = unary ? vals[col] : vals[row];
            c->b = unary ? 0x80000000u : vals[col]; /* the source's second operand for unary ops */
            char *p = tok;
            if (pack_cells) {
                for (int k = 0; k < 4 && ok; k++) {
                    c->pk[k] = (uint32_t)strtoul(p, &p, 16);
                    ok = k == 3 ? *p == 0 : *p++ == ',';
                }
                continue;
            }
            c->r = (uint32_t)strtoul(p, &p, 16);
            c->sat = c->r;
            if (*p == ',')
                c->sat = (uint32_t)strtoul(p + 1, &p, 16);
            c->flags = -1;
            if (!mul) {
                c->flags = 0;
                if (*p == ':')
                    for (p++; *p; p++)
                        c->flags |= *p == 'z' ? 1 : *p == 'n' ? 2 : *p == 'c' ? 4 : 8;
                ok = c->flags < 8;
            }
            ok = ok && *p == 0;
        }
        row++;
    }
    fclose(f);
    CHECK_MSG(ok, "%s: malformed near op %u row %zu", name, op, row);
    return ok;
}

/* The exact result of add/sub as the emulator hands it to vc4_pack_a
 * (src/emu/qpu.c exec_alu: the 64-bit sum or difference of the signed
 * operands). */
static int64_t wide_of(const struct cell *c)
{
    int64_t x = (int32_t)c->a, y = (int32_t)c->b;
    return c->op == VC4_QPU_A_ADD ? x + y : x - y;
}
static bool has_wide(const struct cell *c)
{
    return !c->mul && (c->op == VC4_QPU_A_ADD || c->op == VC4_QPU_A_SUB);
}

/* Run cells [i, i + n) (n <= 16, one op) through a kernel table as one
 * vector: results and carry. */
static void run_kernels(const struct vc4_alu_kernels *k, const struct cell *c, size_t n, uint32_t *r,
                        uint16_t *carry)
{
    uint32_t a[LANES], b[LANES];
    for (size_t i = 0; i < LANES; i++) {
        a[i] = c[i < n ? i : 0].a; /* unused lanes repeat the first cell */
        b[i] = c[i < n ? i : 0].b;
    }
    if (c->mul)
        k->mul[c->op](a, b, r, carry);
    else
        k->add[c->op](a, b, r, carry);
}

static uint32_t scalar_rule(const struct cell *c)
{
    if (c->mul) {
        switch (c->op) {
        case VC4_QPU_M_FMUL: return vc4_alu_fmul(c->a, c->b);
        case VC4_QPU_M_MUL24: return vc4_alu_mul24(c->a, c->b);
        case VC4_QPU_M_V8MULD: return vc4_alu_v8muld(c->a, c->b);
        case VC4_QPU_M_V8MIN: return vc4_alu_v8min(c->a, c->b);
        case VC4_QPU_M_V8MAX: return vc4_alu_v8max(c->a, c->b);
        default: break;
        }
        return c->r; /* (the vector kernels are checked for every op) */
    }
    switch (c->op) {
    case VC4_QPU_A_FADD: return vc4_alu_fadd(c->a, c->b);
    case VC4_QPU_A_FSUB: return vc4_alu_fsub(c->a, c->b);
    case VC4_QPU_A_FMIN: return vc4_alu_fmin(c->a, c->b);
    case VC4_QPU_A_FMAX: return vc4_alu_fmax(c->a, c->b);
    case VC4_QPU_A_FMINABS: return vc4_alu_fminabs(c->a, c->b);
    case VC4_QPU_A_FMAXABS: return vc4_alu_fmaxabs(c->a, c->b);
    case VC4_QPU_A_FTOI: return vc4_alu_ftoi(c->a);
    case VC4_QPU_A_ITOF: return vc4_alu_itof(c->a);
    case VC4_QPU_A_CLZ: return vc4_alu_clz(c->a);
    case VC4_QPU_A_V8ADDS: return vc4_alu_v8adds(c->a, c->b);
    case VC4_QPU_A_V8SUBS: return vc4_alu_v8subs(c->a, c->b);
    default: return c->r;
    }
}

static const char *op_name(const struct cell *c)
{
    return c->mul ? vc4_qpu_op_mul_name(c->op) : vc4_qpu_op_add_name(c->op);
}

/* The opcode table: results through both kernel tables and the scalar
 * rule, flags as the emulator sets them (Z: result 0, N: bit 31 but 0 for
 * clz, C: the kernel's carry), the 32-bit saturating pack. */
static struct table tab;

static void test_opcode_table(void)
{
    if (!load("vc4c_opcode.txt", false, &tab))
        return;
    CHECK(tab.n > 5000); /* the whole table was read */
    struct vc4_alu_fpenv env;
    bool host = vc4_alu_fp_enter(&env);
    size_t bad = 0, checked = 0;
    for (size_t i = 0; i < tab.n;) {
        size_t n = 1;
        while (n < LANES && i + n < tab.n && tab.c[i + n].op == tab.c[i].op && tab.c[i + n].mul == tab.c[i].mul)
            n++;
        uint32_t rx[LANES], rh[LANES];
        uint16_t cx = 0, ch = 0;
        run_kernels(&vc4_alu_kernels_exact, &tab.c[i], n, rx, &cx);
        if (host)
            run_kernels(&vc4_alu_kernels_host, &tab.c[i], n, rh, &ch);
        for (size_t j = 0; j < n; j++) {
            const struct cell *c = &tab.c[i + j];
            uint32_t sat = vc4_pack_a(VC4_QPU_PACK_A_32_SAT, rx[j], 0, false, has_wide(c) ? wide_of(c) : 0,
                                      has_wide(c), has_wide(c) && c->op == VC4_QPU_A_SUB);
            int flags = -1;
            if (!c->mul) {
                bool n_flag = (rx[j] >> 31) && c->op != VC4_QPU_A_CLZ;
                flags = (rx[j] == 0) | n_flag << 1 | ((cx >> j) & 1) << 2;
            }
            bool ok = rx[j] == c->r && scalar_rule(c) == c->r && sat == c->sat && flags == c->flags;
            if (host)
                ok = ok && rh[j] == c->r && ((ch >> j) & 1) == ((cx >> j) & 1);
            checked++;
            if (!ok && bad++ < 40)
                CHECK_MSG(0, "%s(%08x, %08x): exact %08x host %08x rule %08x sat %08x flags %d; measured %08x "
                          "sat %08x flags %d", op_name(c), c->a, c->b, rx[j], host ? rh[j] : 0, scalar_rule(c),
                          sat, flags, c->r, c->sat, c->flags);
        }
        i += n;
    }
    vc4_alu_fp_leave(&env);
    printf("opcode table: %zu cells, %zu mismatches\n", checked, bad);
    CHECK_EQ_INT(bad, 0);
}

/* The regfile-A packs of add, sub and itof: all 15 pack modes, written
 * over a register holding OLD so that the partial packs' kept bits are
 * checked too. */
#define OLD 0xA5C3E781u
static struct table ptab;

static void test_pack_table(void)
{
    if (!load("vc4c_pack.txt", true, &ptab) || !load("vc4c_opcode.txt", false, &tab))
        return;
    CHECK(ptab.n == 2 * 225 + 15);
    size_t bad = 0;
    for (size_t i = 0; i < ptab.n; i++) {
        const struct cell *c = &ptab.c[i];
        /* the result from the opcode table's cell of the same op and operands */
        const struct cell *m = NULL;
        for (size_t j = 0; j < tab.n && !m; j++)
            if (tab.c[j].op == c->op && !tab.c[j].mul && tab.c[j].a == c->a && tab.c[j].b == c->b)
                m = &tab.c[j];
        CHECK_MSG(m != NULL, "no result for %s(%08x, %08x)", op_name(c), c->a, c->b);
        if (!m)
            continue;
        uint32_t r = m->r;
        bool isf = vc4_alu_add_result_is_float(c->op);
        int64_t w = has_wide(c) ? wide_of(c) : 0;
        bool sub = has_wide(c) && c->op == VC4_QPU_A_SUB;
        uint32_t s16 = c->pk[0], t16 = c->pk[1], s8 = c->pk[2], t8 = c->pk[3];
        struct { unsigned mode; uint32_t want; } want[] = {
            {VC4_QPU_PACK_A_32_SAT, m->sat},
            {VC4_QPU_PACK_A_16A_SAT, (OLD & 0xFFFF0000u) | s16},
            {VC4_QPU_PACK_A_16A, (OLD & 0xFFFF0000u) | t16},
            {VC4_QPU_PACK_A_16B_SAT, (OLD & 0xFFFFu) | s16 << 16},
            {VC4_QPU_PACK_A_16B, (OLD & 0xFFFFu) | t16 << 16},
            {VC4_QPU_PACK_A_8888_SAT, s8 * 0x01010101u},
            {VC4_QPU_PACK_A_8888, t8 * 0x01010101u},
            {VC4_QPU_PACK_A_8A_SAT, (OLD & ~0xFFu) | s8},
            {VC4_QPU_PACK_A_8A, (OLD & ~0xFFu) | t8},
            {VC4_QPU_PACK_A_8B_SAT, (OLD & ~0xFF00u) | s8 << 8},
            {VC4_QPU_PACK_A_8B, (OLD & ~0xFF00u) | t8 << 8},
            {VC4_QPU_PACK_A_8C_SAT, (OLD & ~0xFF0000u) | s8 << 16},
            {VC4_QPU_PACK_A_8C, (OLD & ~0xFF0000u) | t8 << 16},
            {VC4_QPU_PACK_A_8D_SAT, (OLD & ~0xFF000000u) | s8 << 24},
            {VC4_QPU_PACK_A_8D, (OLD & ~0xFF000000u) | t8 << 24},
        };
        for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
            uint32_t got = vc4_pack_a(want[k].mode, r, OLD, isf, w, has_wide(c), sub);
            if (got != want[k].want && bad++ < 40)
                CHECK_MSG(0, "%s(%08x, %08x) = %08x pack %u: %08x, measured %08x", op_name(c), c->a, c->b, r,
                          want[k].mode, got, want[k].want);
        }
    }
    printf("pack table: %zu cells x 15 packs, %zu mismatches\n", ptab.n, bad);
    CHECK_EQ_INT(bad, 0);
}

/* Every unpack mode for integer and float consumers. */
static void test_unpack_table(void)
{
    FILE *f = open_data("vc4c_unpack.txt");
    if (!f)
        return;
    static const unsigned modes[8] = {VC4_QPU_UNPACK_NOP, VC4_QPU_UNPACK_16A, VC4_QPU_UNPACK_16B,
                                      VC4_QPU_UNPACK_8D_REP, VC4_QPU_UNPACK_8A, VC4_QPU_UNPACK_8B,
                                      VC4_QPU_UNPACK_8C, VC4_QPU_UNPACK_8D};
    char line[1024];
    size_t rows = 0, bad = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || strncmp(line, "arg", 3) == 0 || line[0] == '\n')
            continue;
        char *p = line;
        uint32_t v[16];
        for (int k = 0; k < 16; k++)
            v[k] = (uint32_t)strtoul(p, &p, 16);
        rows++;
        for (int k = 0; k < 15; k++) {
            bool fl = k >= 8;
            unsigned mode = fl ? modes[k - 7] : modes[k];
            uint32_t got = vc4_unpack(mode, v[0], fl);
            if (got != v[k + 1] && bad++ < 40)
                CHECK_MSG(0, "unpack %u %s of %08x: %08x, measured %08x", mode, fl ? "float" : "int", v[0], got,
                          v[k + 1]);
        }
    }
    fclose(f);
    printf("unpack table: %zu values x 15 reads, %zu mismatches\n", rows, bad);
    CHECK_EQ_INT(rows, 15);
    CHECK_EQ_INT(bad, 0);
}

TEST_LIST(test_opcode_table, test_pack_table, test_unpack_table)
