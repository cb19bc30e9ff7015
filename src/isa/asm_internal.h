/*
 * asm_internal.h - the vc4asm-dialect assembler's internal interfaces.
 *
 *   asm_lex.c        comments, lines, tokens
 *   asm_expr.c       values (int, float, register, label, per-element vector) and
 *                    expressions with C precedence, symbols and user functions
 *   asm_inst.c       one instruction line -> struct vc4_qpu_instr
 *   asm_symbols.c    diagnostics and the work budget; hashed symbol tables,
 *                    scopes, macro records, labels
 *   asm_directives.c the driver: two passes, directives, macro calls, .rep,
 *                    .if, .include, data, the public vc4_asm_* API
 *
 * Dialect facts come from vc4asm (maazl/vc4asm doc/ and src/); each
 * place that encodes one says so.  All state lives on struct vc4_asm.
 */
#ifndef VC4_ISA_ASM_INTERNAL_H
#define VC4_ISA_ASM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/base.h"
#include "isa/isa.h"

/* ---- limits against hostile input ---------------------------------------- */
enum {
    ASM_MAX_DEPTH = 64,            /* nested macro/.rep/.include/function calls */
    ASM_MAX_EXPR_DEPTH = 200,      /* expression nesting */
    ASM_MAX_REP = 1 << 20,         /* iterations of one .rep */
    ASM_MAX_LINES = 1 << 22,       /* processed lines, .rep iterations and function calls per
                                      pass (total work; vc4_asm_options.max_work overrides) */
    ASM_MAX_ERRORS = 100,          /* errors per pass before the pass stops */
    ASM_MAX_OUTPUT = 64u << 20,    /* output bytes */
    ASM_MAX_ARGS = 32,             /* macro / function parameters */
    ASM_MAX_TOKENS = 512,          /* tokens per line */
};

/* ---- tokens -------------------------------------------------------------- */

enum asm_tok_kind {
    TK_END,
    TK_IDENT,  /* name: letters, digits, _ */
    TK_NUMBER, /* 12, 0x1f, 1.5, 1e3, 1f (local label ref) */
    TK_STRING, /* "..." (text excludes quotes) */
    TK_SUFFIX, /* .name directly after '.', e.g. .ifz .8a .set */
    TK_PUNCT,  /* operators and , ; : ( ) [ ] - */
    TK_RAW,    /* '@' and the rest of the line (up to a comment): "@field=value" items,
                  read as text by the instruction parser */
    TK_SEMI,   /* ';' between the parts of an instruction */
};

/* Character classes of the lexer (asm_lex.c), for scanners elsewhere. */
enum {
    ASM_CC_SPACE = 1,  /* blank other than newline */
    ASM_CC_ID0 = 2,    /* letter or '_' */
    ASM_CC_DIG = 4,    /* digit */
};
extern const uint8_t asm_cclass[256];
static inline bool asm_is_idc(char c) { return asm_cclass[(unsigned char)c] & (ASM_CC_ID0 | ASM_CC_DIG); }

struct asm_tok {
    enum asm_tok_kind kind;
    const char *p; /* text */
    uint32_t len;
    uint32_t col;  /* 1-based column in the line */
};

/* Tokenize one line ('#', '//' and '/ * * /' comments end it or are skipped,
 * so a single line needs no asm_strip_comments).  line[len] must be '\n' or
 * NUL (a line of a text, or a C string): it stops the scans.  Returns the
 * token count (the last is TK_END) or -1 when there are too many / a bad
 * character; *bad_col then holds the column. */
int asm_tokenize(const char *line, size_t len, struct asm_tok *toks, int max, unsigned *bad_col);
/* Is the token the text s?  Inline: with a literal s the length is a constant. */
static inline bool asm_tok_is(const struct asm_tok *t, const char *s)
{
    size_t l = strlen(s);
    return t->len == l && t->kind != TK_END && memcmp(t->p, s, l) == 0;
}
/* Is the NUL-terminated name n exactly p[0..len)?  (p holds no NUL) */
static inline bool asm_name_is(const char *n, const char *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (n[i] != p[i])
            return false;
    return n[len] == 0;
}
/* strcmp of the text p[0..len) against the NUL-terminated name n. */
static inline int asm_name_cmp(const char *p, size_t len, const char *n)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char a = (unsigned char)p[i], b = (unsigned char)n[i];
        if (a != b)
            return b == 0 ? 1 : a < b ? -1 : 1;
    }
    return n[len] ? -1 : 0;
}
/* Is the token the one-character operator c? */
static inline bool asm_tok_ch(const struct asm_tok *t, char c)
{
    return t->len == 1 && t->p[0] == c && t->kind == TK_PUNCT;
}

/* How a (comment-free) line starts: 0 blank, 1 with an identifier that is not
 * a label ("name:"), whose position goes to *id_start / *id_len, 2 otherwise
 * (directive, label, anything else).  Cheap: no tokens. */
int asm_line_lead(const char *s, size_t len, size_t *id_start, size_t *id_len);

/* Replace comments ('#', '//' to end of line, and '/ * ... * /' spanning lines)
 * by blanks, in place, keeping newlines so line/column numbers stay right.
 * text[len] must be NUL (the scan uses strcspn).
 * Returns false on an unterminated block comment (its line in *line). */
bool asm_strip_comments(char *text, size_t len, unsigned *line);

/* ---- values -------------------------------------------------------------- */

enum asm_val_kind {
    AV_INT,
    AV_FLOAT,
    AV_REG,
    AV_LABEL, /* byte address */
    AV_LDPE,  /* per-element 2-bit vector, imm encoded */
};

/* Register capabilities (expressions.html register table). */
enum {
    REG_RD_A = 1u << 0,   /* readable through regfile A at raddr */
    REG_RD_B = 1u << 1,
    REG_WR_A = 1u << 2,   /* writable through regfile A at waddr */
    REG_WR_B = 1u << 3,
    REG_ACC = 1u << 4,    /* readable directly through mux acc (r0..r5) */
    REG_SACQ = 1u << 5,   /* semaphore acquire pseudo register (num = semaphore) */
    REG_SREL = 1u << 6,
};

/* Pack/unpack suffixes as written (".8a", ".16as", ".8dr"); meaning depends on use. */
enum asm_pk {
    PK_NONE, PK_16A, PK_16B, PK_8ABCD, PK_8A, PK_8B, PK_8C, PK_8D, PK_32S, PK_16AS, PK_16BS,
    PK_8ABCDS, PK_8AS, PK_8BS, PK_8CS, PK_8DS, PK_8DR, PK_COUNT
};

struct asm_reg {
    uint8_t caps;   /* REG_* */
    uint8_t raddr;  /* read address (32..63 I/O) */
    uint8_t waddr;  /* write address */
    uint8_t acc;    /* mux for REG_ACC */
    uint8_t pk;     /* enum asm_pk */
    uint8_t pkf;    /* pack spelled with 'f' (2: MUL colour pack) or 'i' (1: regfile A) */
    uint8_t cond;   /* write condition suffix + 1, 0 = none */
    int8_t rot;     /* source rotation: 1..15 right, 16 = by r5, 0 none */
};

struct asm_val {
    enum asm_val_kind kind;
    bool undef;     /* depends on an unknown label (first pass) */
    uint8_t ldpe_signed; /* AV_LDPE: 1 signed, 2 unsigned, 0 either */
    int64_t i;      /* INT, LABEL, LDPE bits */
    double f;       /* FLOAT */
    struct asm_reg r;
};

struct vc4_asm;

/* Expression parser over a token array. */
struct asm_expr_ctx {
    struct vc4_asm *as;
    const struct asm_tok *t;
    int pos, n;
    int depth;
    bool failed;
};

/* Parse one expression (stops at ',', ';', ')' or end). */
bool asm_expr(struct asm_expr_ctx *c, struct asm_val *out);
/* A suffix token under vc4kit's name for it (vc4asm's aliases: ".8888",
 * ".8ai", ".zs", ...); the text of the result may be static. */
struct asm_tok asm_suffix_canonical(const struct asm_tok *t);
/* Pack/unpack and condition suffixes after a register. */
bool asm_reg_suffixes(struct asm_expr_ctx *c, struct asm_val *v);
/* The pack/unpack code (enum asm_pk) a suffix token such as "8a" or "8888"
 * names, 0 if none; *pkf as asm_reg.pkf. */
int asm_pk_suffix(const struct asm_tok *t, uint8_t *pkf);
/* A number token: int (decimal, 0x, 0b, leading-0 octal) or float. */
bool asm_parse_number(const char *p, size_t len, struct asm_val *v);
/* Parse an expression and require an integer (labels count). */
bool asm_expr_int(struct asm_expr_ctx *c, int64_t *out);
/* The built-in register names (NULL-safe); false if name is no register. */
bool asm_builtin_reg(const char *name, size_t len, struct asm_reg *out);
/* uint32 bits of a value (int, float, label, ldpe). */
uint32_t asm_val_bits(const struct asm_val *v);
/* Truthiness of an int/float. */
bool asm_val_true(const struct asm_val *v);

/* ---- the assembler state ---------------------------------------------------- */

/* Hash buckets over a table: index + 1 of the newest entry with that hash
 * (0 none); each entry links to the previous one (asm_symbols.c). */
struct asm_hash {
    uint32_t *head;
    size_t nhead; /* power of two */
};

struct asm_sym {
    char *name;
    uint32_t hash, chain;
    struct asm_val val;
    struct asm_val keep_val; /* value before the current vc4_asm_source call */
    bool is_const;
    int scope;        /* locals: the depth that owns it */
};

/* A stored block of source lines (macro body, .rep body, function body). */
struct asm_line {
    const char *text; /* points into a file buffer owned by the assembler */
    uint32_t len;
    uint32_t line;
    const char *file;
};

struct asm_macro {
    char *name;
    uint32_t hash, chain;
    int nparams;
    char *params[ASM_MAX_ARGS];
    struct asm_line *body;
    size_t nbody;
    bool is_func;      /* .func or .set name(args) */
    const char *expr;  /* single-expression function (.set f(x) expr) */
    uint32_t expr_len, expr_line, expr_col;
    const char *expr_file;
};

struct asm_local_label {
    char *name;
    uint32_t *addrs; /* addresses in definition order (pass 1) */
    size_t n, cap;
    size_t seen;     /* definitions passed so far in this pass */
    bool ahead;      /* a ":Nf" reference since the last definition: a plain
                        ":N" now names the next definition too (vc4asm) */
};

struct asm_back {
    size_t insert_at; /* byte offset the block goes to */
    size_t start;     /* byte offset where the block began */
};

struct asm_symtab {
    struct asm_sym *v;
    size_t n, cap;
    struct asm_hash hash;
};

struct vc4_asm {
    struct vc4_asm_options opt;
    const struct vc4_allocator *alloc;
    struct vc4_diag_sink sink;
    struct vc4_buf out;
    unsigned bits_used;  /* bits of the last output byte taken by bit data
                            (.bit, .int2...); 0: the output is byte aligned */
    size_t inst_end;     /* output offset just past the last instruction word:
                            .align in code (nothing emitted since) pads whole
                            words with nop instructions, as vc4asm does */
    size_t call_start;   /* output offset where the current vc4_asm_source began */
    unsigned call_bits;  /* bits_used there */
    unsigned errors, warnings;
    int pass;            /* 1: collect labels (quiet), 2: emit */

    struct asm_symtab globals; /* .set/.const symbols */
    struct asm_symtab locals;  /* macro/.rep/function arguments, .lset (scope = depth) */
    struct asm_symtab labels;
    size_t globals_keep;       /* globals that existed before this call */

    struct asm_macro **macros; /* each record its own allocation (see macro_add) */
    size_t nmacros, capmacros, macros_keep;
    struct asm_hash macro_hash;

    struct asm_local_label *loclab;
    size_t nloclab, caploclab;

    char **incdirs;
    size_t nincdirs;

    char **files;        /* buffers of every file read (lines point into them) */
    size_t nfiles, capfiles;

    const char **inc_stack; /* ASM_MAX_DEPTH entries (vc4_asm_create); NULL in
                               vc4_qpu_assemble, which runs no directives */
    int inc_depth;
    int depth;           /* macro / rep / include / function nesting */
    unsigned long lines_done;
    bool fatal;          /* a limit was hit: stop this pass */

    struct asm_back back;
    bool in_back;

    /* .clone of code not yet emitted (clone_code): pass 2 found one, and
     * the quiet rerun of pass 2 copies from pass 2's output */
    bool clone_ahead, quiet;
    uint8_t *clone_src;
    size_t clone_len;

    /* the line being processed */
    const char *cur_file;
    unsigned cur_line;

    /* running a .func body: non-directive lines are its value */
    int in_func;
    bool func_has_result;
    struct asm_val func_result;

    /* source line of each instruction (for the validator) */
    unsigned *inst_lines;
    size_t ninst, capinst;
};

/* Report an error / warning at a column of the current line. */
void asm_error(struct vc4_asm *as, unsigned col, const char *fmt, ...) VC4_PRINTF(3, 4);
void asm_warning(struct vc4_asm *as, unsigned col, const char *fmt, ...) VC4_PRINTF(3, 4);

/* One unit of work (a processed line, .rep iteration or function call) against the
 * per-pass budget; false (and the pass stops) once it is spent. */
bool asm_charge_work(struct vc4_asm *as, unsigned col);

/* Symbol tables (asm_symbols.c).  find gives the newest entry of that name;
 * truncate removes the newest entries down to n; remove takes one out
 * anywhere (.unset). */
struct asm_sym *asm_tab_find(const struct asm_symtab *t, const char *p, size_t len);
struct asm_sym *asm_tab_add(struct vc4_asm *as, struct asm_symtab *t, const char *p, size_t len);
void asm_tab_truncate(struct vc4_asm *as, struct asm_symtab *t, size_t n);
void asm_tab_remove(struct vc4_asm *as, struct asm_symtab *t, struct asm_sym *s);
void asm_tab_free(struct vc4_asm *as, struct asm_symtab *t);
struct asm_sym *asm_sym_find(struct vc4_asm *as, const char *name, size_t len);
bool asm_sym_set(struct vc4_asm *as, const char *name, size_t len, const struct asm_val *v,
                 bool is_const, bool local, unsigned col);
void asm_scope_push(struct vc4_asm *as);
void asm_scope_pop(struct vc4_asm *as);
struct asm_macro *asm_macro_find(struct vc4_asm *as, const char *name, size_t len, bool func);
/* Take over a finished definition (its allocations; freed on failure). */
bool asm_macro_add(struct vc4_asm *as, struct asm_macro *def);
void asm_macro_free(struct vc4_asm *as, struct asm_macro *m);
/* Drop the newest macros down to n. */
void asm_macros_truncate(struct vc4_asm *as, size_t n);
/* Define a label at pc (named, or numeric local); errors on a second definition. */
void asm_label_define(struct vc4_asm *as, const char *p, size_t len, uint32_t pc, unsigned col);
void asm_loclab_free(struct vc4_asm *as);
/* Look up a label reference ":name", ":1f", ":1b"; false if unknown. */
bool asm_label_ref(struct vc4_asm *as, const char *name, size_t len, uint32_t *addr);
/* Call a user function (args already evaluated). */
bool asm_call_func(struct vc4_asm *as, struct asm_macro *m, const struct asm_val *args,
                   int nargs, struct asm_val *out, unsigned col);

/* Assemble the instruction in tokens t[0..n) at byte address pc (the tokens
 * are modified: ';' separators become part ends). */
bool asm_instruction(struct vc4_asm *as, struct asm_tok *t, int n, uint32_t pc,
                     struct vc4_qpu_instr *out);
/* The binary-searched name tables (registers, suffix aliases; opcodes) are
 * sorted (for the unit tests). */
bool asm_reg_table_sorted(void);
bool asm_op_table_sorted(void);
/* Is this identifier an instruction mnemonic (so a line starting with it is code)? */
bool asm_is_mnemonic(const char *p, size_t len);


/* Write-condition suffix: "if" + z, nz, n, nn, c, cc (the spec's names,
 * confirmed), "never", and vc4asm's "ifnc" (= ifcc) and "always"; -1 if the
 * token is none of them. */
int asm_cond_code(const struct asm_tok *t);

#endif
