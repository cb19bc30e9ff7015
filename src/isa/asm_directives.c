/*
 * asm_directives.c - the assembler driver: source files and lines, labels,
 * directives, macros, .rep, .if, .include, data, two passes, the public API.
 *
 * Directives follow vc4asm doc/directives.html: .set/.equ/.define/.const/
 * .lset/.lconst (also "name(args) expr" single-line functions), .unset,
 * .func/.endf, .macro/.endm, .rep [var,] count/.endr, .if/.elseif/.else/
 * .endif, .assert, .include "file", .back n/.endb, data .byte .short .int
 * .long .float; vc4kit adds .align N (bytes) and the GNU-as aliases .word
 * (.int), .hword (.short), .single (.float), .quad/.dword (64 bit).
 * Data is stored little-endian (the QPU's byte order), so ".word 0xLO, 0xHI"
 * pairs give exactly the instruction words they spell.  An instruction after
 * data that left the output unaligned is padded to 8 bytes with zeros.
 *
 * Two passes per source over one stripped, split copy of the text: the first
 * (quiet) collects label addresses so that forward references (":label",
 * "r:1f") resolve in the second, which reports diagnostics and emits the
 * output.  The first pass runs directives, labels and macros but does not
 * assemble code lines: each is 8 bytes whatever it says (a line that starts
 * with an identifier that is neither a label nor a macro needs no tokens).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm_internal.h"

static uint32_t cur_pc(struct vc4_asm *as)
{
    return as->opt.base_addr + (uint32_t)as->out.len;
}

/* Do two tokens of one line touch (no blank between)? */
static bool touching(const struct asm_tok *a, const struct asm_tok *b)
{
    return b->kind != TK_END && b->p == a->p + a->len;
}

/* ---- output ---------------------------------------------------------------------- */

static bool emit(struct vc4_asm *as, const void *p, size_t n, unsigned col)
{
    struct vc4_buf *o = &as->out;
    if (!o->failed && o->len + n < o->cap && o->len + n <= ASM_MAX_OUTPUT) {
        memcpy(o->data + o->len, p, n); /* room for the bytes and the NUL */
        o->len += n;
        o->data[o->len] = 0;
        return true;
    }
    if (as->out.len + n > ASM_MAX_OUTPUT) {
        asm_error(as, col, "output larger than %u bytes", ASM_MAX_OUTPUT);
        as->fatal = true;
        return false;
    }
    if (!vc4_buf_append(&as->out, p, n)) {
        asm_error(as, col, "out of memory");
        as->fatal = true;
        return false;
    }
    return true;
}

/* The output is a bit stream: vc4asm (Parser::parseDATA) packs data into
 * 64-bit words from the least significant bit up, and words are stored
 * little-endian, so stream bit i is bit i % 8 of byte i / 8.  bits_used says
 * how much of the last byte bit data (.bit, .int2, .int4) has taken. */
static uint64_t out_bit_pos(const struct vc4_asm *as)
{
    return (uint64_t)as->out.len * 8 - (as->bits_used ? 8 - as->bits_used : 0);
}

/* Append the low nbits (1..64) of v at the current bit position. */
static bool emit_bits(struct vc4_asm *as, uint64_t v, unsigned nbits, unsigned col)
{
    if (as->bits_used && !as->out.failed && as->out.len) {
        unsigned k = 8 - as->bits_used;
        if (k > nbits)
            k = nbits;
        as->out.data[as->out.len - 1] |= (uint8_t)((v & ((1u << k) - 1)) << as->bits_used);
        as->bits_used = (as->bits_used + k) & 7;
        v >>= k;
        nbits -= k;
    }
    if (!nbits)
        return true;
    uint8_t b[8];
    unsigned nb = (nbits + 7) / 8;
    for (unsigned i = 0; i < nb; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    if (nbits & 7)
        b[nb - 1] &= (uint8_t)((1u << (nbits & 7)) - 1);
    if (!emit(as, b, nb, col))
        return false;
    as->bits_used = nbits & 7;
    return true;
}

/* Instructions start on a 64-bit word: pad with zero bits and bytes.  Returns
 * whether anything was padded (vc4asm Parser::doALIGN(8, 0)). */
static bool pad_to_word(struct vc4_asm *as, unsigned col)
{
    bool padded = as->bits_used || (as->out.len & 7);
    as->bits_used = 0;
    uint8_t z[8] = {0};
    if (as->out.len & 7)
        emit(as, z, 8 - (as->out.len & 7), col);
    return padded;
}

/* A label is the byte address of what follows (vc4asm Parser::defineLabel:
 * PC * 8 + BitOffset / 8), also inside data; not between bits. */
static void define_label(struct vc4_asm *as, const char *p, size_t len, unsigned col)
{
    if (as->bits_used) {
        asm_error(as, col, "label '%.*s' at a bit boundary: labels need byte alignment",
                  (int)len, p);
        return;
    }
    asm_label_define(as, p, len, cur_pc(as), col);
}

/* vc4_qpu_encode's walk over the spec's field table, with the field reads
 * inlined (the whole-source path encodes every instruction). */
static uint64_t encode_fast(const struct vc4_qpu_instr *in)
{
    uint64_t word = 0;
    unsigned forms = vc4_qpu_forms_of(in);
    for (int f = 0; f < VC4_F_COUNT; f++) {
        const struct vc4_qpu_field_desc *d = &vc4_qpu_field_table[f];
        if (!(d->forms & forms))
            continue;
        const unsigned char *p = (const unsigned char *)in + d->offset;
        uint32_t v;
        if (d->is32)
            memcpy(&v, p, sizeof v);
        else
            v = *p;
        word |= ((uint64_t)v & ((UINT64_C(1) << d->width) - 1)) << d->shift;
    }
    return word;
}

/* The source line of each instruction word (pass 2, not inside .back). */
static void note_inst_line(struct vc4_asm *as)
{
    if (as->pass != 2 || as->in_back)
        return;
    if (as->ninst == as->capinst) {
        unsigned *v = vc4_array_grow(as->alloc, as->inst_lines,
                                     &as->capinst, as->capinst + 1, sizeof *v, 256);
        if (!v)
            return;
        as->inst_lines = v;
    }
    as->inst_lines[as->ninst++] = as->cur_line;
}

static void emit_instruction(struct vc4_asm *as, struct asm_tok *t, int n)
{
    /* vc4asm warns too (INSTRUCTION_REQUIRES_ALIGNMENT) */
    if (pad_to_word(as, t[0].col))
        asm_warning(as, t[0].col, "instruction after data padded to 64-bit alignment");
    struct vc4_qpu_instr in;
    uint32_t pc = cur_pc(as);
    if (as->in_back) /* where the .back block will end up */
        pc = as->opt.base_addr + (uint32_t)(as->back.insert_at + (as->out.len - as->back.start));
    if (!asm_instruction(as, t, n, pc, &in)) {
        vc4_qpu_nop(&in); /* keep addresses stable after an error */
    }
    uint8_t b[8];
    vc4_qpu_store_le(b, encode_fast(&in));
    if (!emit(as, b, 8, t[0].col))
        return;
    as->inst_end = as->out.len;
    note_inst_line(as);
}

/* Pass 1 only needs addresses: an instruction line is 8 bytes whatever it says. */
static void emit_placeholder(struct vc4_asm *as)
{
    uint8_t z[8] = {0};
    pad_to_word(as, 1);
    emit(as, z, 8, 1);
    as->inst_end = as->out.len;
}

/* ---- lines and blocks -------------------------------------------------------------- */

struct ifstate {
    int depth;
    /* per level: 0 = active, 1 = looking for a true branch, 2 = done (skip rest) */
    uint8_t st[ASM_MAX_DEPTH * 4];
    unsigned line[ASM_MAX_DEPTH * 4];
};

static bool skipping(const struct ifstate *is)
{
    for (int i = 0; i < is->depth; i++)
        if (is->st[i])
            return true;
    return false;
}

static void process_block(struct vc4_asm *as, const struct asm_line *lines, size_t n);

static bool dir_is(const struct asm_tok *t, const char *name)
{
    return t->kind == TK_SUFFIX && asm_tok_is(t, name);
}

static bool eval_int(struct vc4_asm *as, const struct asm_tok *t, int n, int *pos, int64_t *v)
{
    struct asm_expr_ctx c = {.as = as, .t = t, .pos = *pos, .n = n};
    if (!asm_expr_int(&c, v))
        return false;
    *pos = c.pos;
    return true;
}

static bool at_end(struct vc4_asm *as, const struct asm_tok *t)
{
    if (t->kind == TK_END)
        return true;
    asm_error(as, t->col, "unexpected text");
    return false;
}

/* .clone label, count (vc4asm directives.html, Parser::parseCLONE): copy
 * `count` instructions that start at label to here, so the delay slots of a
 * branch can hold the first instructions of its target.  The label may come
 * later (vc4asm copies the words its first pass assembled there): pass 1
 * only needs the size, pass 2 copies the words emitted so far and leaves
 * room for words not yet emitted, and then, only if it did, a quiet rerun of
 * pass 2 copies them from its output (clone_src).  Cloning past the end of
 * the code is an error, as in vc4asm. */
static void clone_code(struct vc4_asm *as, const struct asm_tok *t, int n, unsigned col)
{
    int pos = 1;
    int64_t at, k;
    if (!eval_int(as, t, n, &pos, &at))
        return;
    if (asm_tok_is(&t[pos], ","))
        pos++;
    if (!eval_int(as, t, n, &pos, &k) || !at_end(as, &t[pos]))
        return;
    if (pad_to_word(as, col))
        asm_warning(as, col, "instruction after data padded to 64-bit alignment");
    int64_t off = at - (int64_t)as->opt.base_addr;
    if (k < 0 || k > 64 || off < 0 || (off & 7) || off > (int64_t)ASM_MAX_OUTPUT) {
        asm_error(as, t[1].col, ".clone needs an instruction address and a count 0..64");
        return;
    }
    /* word by word, as vc4asm copies (a clone of itself copies its copies) */
    for (int64_t i = 0; i < k && !as->fatal; i++) {
        size_t p = (size_t)off + 8 * (size_t)i;
        size_t end = as->in_back ? as->back.start : as->out.len;
        uint8_t b[8] = {0};
        if (p + 8 <= end) {
            memcpy(b, as->out.data + p, 8); /* emit may move the buffer */
        } else if (as->clone_src && p + 8 <= as->clone_len) {
            memcpy(b, as->clone_src + p, 8); /* the rerun: pass 2's words */
        } else if (as->clone_src) {
            as->quiet = false; /* found by the rerun only: said there */
            asm_error(as, t[1].col, ".clone past the end of the code");
            as->quiet = true;
            return;
        } else if (as->pass == 2) {
            as->clone_ahead = true; /* room now, the words in the rerun */
        }
        if (!emit(as, b, 8, col))
            return;
        note_inst_line(as);
    }
}

static bool read_file_data(struct vc4_asm *as, const char *path, char **data, size_t *len)
{
    if (as->opt.read_file)
        return as->opt.read_file(as->opt.read_user, path, data, len) == VC4_OK;
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t cap = 4096, n = 0;
    char *p = vc4_malloc(as->alloc, cap);
    while (p) {
        size_t k = fread(p + n, 1, cap - n, f);
        n += k;
        if (n < cap)
            break;
        if (cap >= ((size_t)64 << 20)) {
            vc4_free(as->alloc, p);
            p = NULL;
            break;
        }
        char *q = vc4_realloc(as->alloc, p, cap * 2);
        if (!q) {
            vc4_free(as->alloc, p);
            p = NULL;
            break;
        }
        p = q;
        cap *= 2;
    }
    fclose(f);
    if (!p)
        return false;
    *data = p;
    *len = n;
    return true;
}

/* Keep a buffer alive for the assembler's lifetime. */
static char *keep_buffer(struct vc4_asm *as, char *buf)
{
    if (as->nfiles == as->capfiles) {
        char **v = vc4_array_grow(as->alloc, as->files, &as->capfiles, as->capfiles + 1, sizeof *v, 8);
        if (!v) {
            vc4_free(as->alloc, buf);
            return NULL;
        }
        as->files = v;
    }
    as->files[as->nfiles++] = buf;
    return buf;
}

/* Split a (comment-stripped) text into lines. */
static struct asm_line *split_lines(struct vc4_asm *as, const char *text, size_t len,
                                    const char *file, size_t *count)
{
    size_t n = 1;
    for (const char *q = text, *e = text + len; (q = memchr(q, '\n', (size_t)(e - q))) != NULL; q++)
        n++;
    struct asm_line *v = vc4_calloc(as->alloc, n, sizeof *v);
    if (!v)
        return NULL;
    size_t k = 0;
    const char *st = text, *e = text + len;
    for (;;) {
        const char *nl = memchr(st, '\n', (size_t)(e - st));
        const char *end = nl ? nl : e;
        v[k].text = st;
        v[k].len = (uint32_t)(end - st);
        v[k].line = (uint32_t)k + 1;
        v[k].file = file;
        k++;
        if (!nl)
            break;
        st = nl + 1;
    }
    *count = k;
    return v;
}

/* A source text ready to run: kept copy, comments blanked, split in lines. */
struct asm_text {
    const char *fname;
    struct asm_line *lines;
    size_t n;
    unsigned bad_comment; /* line of an unterminated block comment, 0 none */
};

static bool text_prepare(struct vc4_asm *as, const char *name, const char *text, size_t len,
                         struct asm_text *tx)
{
    memset(tx, 0, sizeof *tx);
    char *buf = vc4_malloc(as->alloc, len + 1 + strlen(name) + 1);
    if (!buf || !keep_buffer(as, buf))
        return false;
    memcpy(buf, text, len);
    buf[len] = 0;
    char *fname = buf + len + 1;
    strcpy(fname, name);
    tx->fname = fname;
    unsigned bad = 0;
    if (!asm_strip_comments(buf, len, &bad))
        tx->bad_comment = bad ? bad : 1;
    tx->lines = split_lines(as, buf, len, fname, &tx->n);
    return tx->lines != NULL;
}

static void text_run(struct vc4_asm *as, const struct asm_text *tx)
{
    const char *of = as->cur_file;
    unsigned ol = as->cur_line;
    as->cur_file = tx->fname;
    if (tx->bad_comment) {
        as->cur_line = tx->bad_comment;
        asm_error(as, 1, "unterminated /* comment");
    }
    process_block(as, tx->lines, tx->n);
    as->cur_file = of;
    as->cur_line = ol;
}

static void run_text(struct vc4_asm *as, const char *name, const char *text, size_t len)
{
    struct asm_text tx;
    if (!text_prepare(as, name, text, len, &tx)) {
        asm_error(as, 0, "out of memory");
        as->fatal = true;
        return;
    }
    text_run(as, &tx);
    vc4_free(as->alloc, tx.lines);
}

static void do_include(struct vc4_asm *as, const struct asm_tok *t, int n, int pos)
{
    /* "file" (the including file's directory first) or <file> (only the
     * include path: vc4asm -I, then the installed share directory) */
    bool angle = asm_tok_ch(&t[pos], '<');
    const char *np = t[pos].p;
    size_t nlen = t[pos].len;
    int after = pos + 1;
    if (angle) {
        np = t[pos].p + 1;
        const char *close = NULL;
        for (int k = pos + 1; k < n && t[k].kind != TK_END; k++)
            if (asm_tok_ch(&t[k], '>') || asm_tok_is(&t[k], ">>")) {
                close = t[k].p;
                after = k + 1;
                break;
            }
        nlen = close ? (size_t)(close - np) : 0;
        if (!close) {
            asm_error(as, t[pos].col, "expected a file name in <...>");
            return;
        }
    } else if (t[pos].kind != TK_STRING) {
        asm_error(as, t[pos].col, "expected a file name in quotes or <...>");
        return;
    }
    char name[1024];
    if (nlen >= sizeof name / 2 || nlen == 0 || memchr(np, '"', nlen)) {
        asm_error(as, t[pos].col, "bad file name");
        return;
    }
    memcpy(name, np, nlen);
    name[nlen] = 0;
    if (!at_end(as, &t[after]))
        return;
    /* search: the including file's directory, -I dirs, the installed data dir,
     * the source tree's share/vc4kit */
    char path[2048];
    char *data = NULL;
    size_t len = 0;
    bool found = false;
    const char *cands[3 + 64];
    size_t nc = 0;
    char dir[1024] = "";
    if (name[0] != '/' && as->cur_file && !angle) {
        const char *sl = strrchr(as->cur_file, '/');
        if (sl && (size_t)(sl - as->cur_file) < sizeof dir - 1) {
            memcpy(dir, as->cur_file, (size_t)(sl - as->cur_file));
            dir[sl - as->cur_file] = 0;
        }
    }
    if (!angle)
        cands[nc++] = dir[0] ? dir : NULL;
    for (size_t i = 0; i < as->nincdirs && nc < 60; i++)
        cands[nc++] = as->incdirs[i];
#ifdef VC4KIT_DATADIR
    cands[nc++] = VC4KIT_DATADIR;
#endif
#ifdef VC4KIT_SOURCE_SHARE
    cands[nc++] = VC4KIT_SOURCE_SHARE;
#endif
    for (size_t i = 0; i < nc && !found; i++) {
        if (name[0] == '/' || !cands[i])
            snprintf(path, sizeof path, "%s", name);
        else
            snprintf(path, sizeof path, "%s/%s", cands[i], name);
        if (name[0] == '/' && i > 0)
            break;
        found = read_file_data(as, path, &data, &len);
    }
    if (!found) {
        asm_error(as, t[pos].col, "cannot open include file \"%s\"", name);
        return;
    }
    if (!as->inc_stack) {
        asm_error(as, t[pos].col, ".include needs an assembler (vc4_asm_create)");
        vc4_free(as->alloc, data);
        return;
    }
    for (int i = 0; i < as->inc_depth; i++) {
        if (strcmp(as->inc_stack[i], path) == 0) {
            asm_error(as, t[pos].col, "include loop: \"%s\" includes itself", name);
            vc4_free(as->alloc, data);
            return;
        }
    }
    if (as->inc_depth >= ASM_MAX_DEPTH || as->depth >= ASM_MAX_DEPTH) {
        asm_error(as, t[pos].col, "includes nested too deeply");
        vc4_free(as->alloc, data);
        return;
    }
    char *pathcopy = vc4_strndup(as->alloc, path, strlen(path));
    if (!pathcopy || !keep_buffer(as, pathcopy)) {
        vc4_free(as->alloc, data);
        as->fatal = true;
        return;
    }
    as->inc_stack[as->inc_depth++] = pathcopy;
    as->depth++;
    run_text(as, pathcopy, data, len);
    as->depth--;
    as->inc_depth--;
    vc4_free(as->alloc, data);
}

/* .set name, expr | .set name(params) expr */
static void do_set(struct vc4_asm *as, const struct asm_tok *t, int n, int pos, bool is_const,
                   bool local, const struct asm_line *ln)
{
    if (t[pos].kind != TK_IDENT) {
        asm_error(as, t[pos].col, "expected a name");
        return;
    }
    const struct asm_tok *name = &t[pos++];
    if (asm_tok_is(&t[pos], "(")) {
        /* single-line function */
        struct asm_macro m;
        memset(&m, 0, sizeof m);
        pos++;
        while (!asm_tok_is(&t[pos], ")")) {
            if (t[pos].kind != TK_IDENT || m.nparams >= ASM_MAX_ARGS) {
                asm_error(as, t[pos].col, "expected a parameter name");
                asm_macro_free(as, &m);
                return;
            }
            m.params[m.nparams] = vc4_strndup(as->alloc, t[pos].p, t[pos].len);
            if (!m.params[m.nparams++]) {
                asm_macro_free(as, &m);
                as->fatal = true;
                return;
            }
            pos++;
            if (asm_tok_is(&t[pos], ","))
                pos++;
            else if (!asm_tok_is(&t[pos], ")")) {
                asm_error(as, t[pos].col, "expected ',' or ')'");
                asm_macro_free(as, &m);
                return;
            }
        }
        pos++;
        if (asm_tok_is(&t[pos], ","))
            pos++;
        if (t[pos].kind == TK_END) {
            asm_error(as, t[pos].col, "expected the function's expression");
            asm_macro_free(as, &m);
            return;
        }
        m.is_func = true;
        m.expr = t[pos].p;
        m.expr_len = (uint32_t)(ln->text + ln->len - t[pos].p);
        m.expr_line = ln->line;
        m.expr_col = t[pos].col;
        m.expr_file = ln->file;
        m.name = vc4_strndup(as->alloc, name->p, name->len);
        if (!m.name) {
            asm_macro_free(as, &m);
            as->fatal = true;
            return;
        }
        asm_macro_add(as, &m);
        return;
    }
    if (asm_tok_is(&t[pos], ","))
        pos++;
    struct asm_expr_ctx c = {.as = as, .t = t, .pos = pos, .n = n};
    struct asm_val v;
    if (!asm_expr(&c, &v) || !at_end(as, &t[c.pos]))
        return;
    asm_sym_set(as, name->p, name->len, &v, is_const, local, name->col);
}

/* Find the line that closes a block opened at lines[i] (nesting counted). */
/* Is p[0..l) one of the names in list ("endr|endrep")? */
static bool name_in(const char *p, size_t l, const char *list)
{
    for (;;) {
        size_t k = strcspn(list, "|");
        if (k == l && memcmp(p, list, l) == 0)
            return true;
        if (!list[k])
            return false;
        list += k + 1;
    }
}

/* Find the line that closes a block opened at lines[i] (nesting counted);
 * close lists the closing directives' names ("endr|endrep"). */
static size_t find_end(const struct asm_line *lines, size_t n, size_t i, const char *open,
                       const char *close)
{
    int depth = 0;
    for (size_t k = i; k < n; k++) {
        const char *p = lines[k].text, *e = p + lines[k].len;
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        if (p < e && *p == '.') {
            size_t l = 1;
            while (p + l < e && ((p[l] >= 'a' && p[l] <= 'z') || (p[l] >= 'A' && p[l] <= 'Z')))
                l++;
            if (name_in(p + 1, l - 1, open))
                depth++;
            else if (name_in(p + 1, l - 1, close) && --depth == 0)
                return k;
        }
    }
    return n;
}

/* The directives that open a block, the names that close it (vc4asm
 * Parser directiveMap), and what a missing end is called. */
static const struct block_kind {
    const char *open, *close, *missing;
} block_kinds[] = {
    {"macro", "endm", ".endm"},
    {"func", "endf|endfunc", ".endf"},
    {"rep", "endr|endrep", ".endr"},
    {"foreach", "endfor", ".endfor"},
    {"local", "endloc", ".endloc"},
};

static const struct block_kind *block_kind_of(const struct asm_tok *d)
{
    for (size_t k = 0; k < VC4_ARRAY_SIZE(block_kinds); k++)
        if (d->kind == TK_SUFFIX && name_in(d->p, d->len, block_kinds[k].open))
            return &block_kinds[k];
    return NULL;
}

/* The end of the block a directive opens, or an error and nl. */
static size_t block_end(struct vc4_asm *as, const struct asm_tok *d, const struct asm_line *lines,
                        size_t nl, size_t i)
{
    const struct block_kind *bk = block_kind_of(d);
    size_t e = find_end(lines, nl, i, bk->open, bk->close);
    if (e >= nl)
        asm_error(as, d->col, "missing %s", bk->missing);
    return e;
}

static void run_macro(struct vc4_asm *as, struct asm_macro *m, const struct asm_tok *t, int n,
                      int pos)
{
    struct asm_val args[ASM_MAX_ARGS];
    int na = 0;
    while (t[pos].kind != TK_END) {
        if (na >= ASM_MAX_ARGS) {
            asm_error(as, t[pos].col, "too many macro arguments");
            return;
        }
        if (asm_tok_ch(&t[pos], '-') && (asm_tok_is(&t[pos + 1], ",") || t[pos + 1].kind == TK_END)) {
            /* '-' alone: no register (vc4asm; GPU_FFT 2.0's 256 and 4k shaders
             * pass it), the register that discards writes and reads 0 */
            memset(&args[na], 0, sizeof args[na]);
            args[na].kind = AV_REG;
            asm_builtin_reg("nop", 3, &args[na++].r);
            pos++;
        } else {
            struct asm_expr_ctx c = {.as = as, .t = t, .pos = pos, .n = n};
            if (!asm_expr(&c, &args[na++]))
                return;
            pos = c.pos;
        }
        if (asm_tok_is(&t[pos], ","))
            pos++;
        else if (!at_end(as, &t[pos]))
            return;
    }
    if (na > m->nparams) {
        asm_error(as, t[0].col, "macro '%s' takes %d argument%s, %d given", m->name, m->nparams,
                  m->nparams == 1 ? "" : "s", na);
        return;
    }
    /* vc4asm refuses too few; vc4kit's v3d_cl.qinc packet macros have optional
     * trailing parameters (Prim_XY32 count, v0, v1, ...), so this says so at
     * the call and runs the macro with those parameters undefined */
    if (na < m->nparams)
        asm_warning(as, t[0].col, "macro '%s' takes %d argument%s, %d given; the last %d are "
                    "undefined", m->name, m->nparams, m->nparams == 1 ? "" : "s", na,
                    m->nparams - na);
    if (as->depth >= ASM_MAX_DEPTH) {
        asm_error(as, t[0].col, "macros nested too deeply (recursion?)");
        as->fatal = true;
        return;
    }
    const char *of = as->cur_file;
    unsigned ol = as->cur_line;
    asm_scope_push(as);
    for (int i = 0; i < na; i++)
        asm_sym_set(as, m->params[i], strlen(m->params[i]), &args[i], false, true, t[0].col);
    process_block(as, m->body, m->nbody); /* m stays valid: see asm_macro_add */
    asm_scope_pop(as);
    as->cur_file = of;
    as->cur_line = ol;
}

bool asm_call_func(struct vc4_asm *as, struct asm_macro *m, const struct asm_val *args, int nargs,
                   struct asm_val *out, unsigned col)
{
    if (nargs != m->nparams) {
        asm_error(as, col, "function '%s' takes %d argument%s, %d given", m->name, m->nparams,
                  m->nparams == 1 ? "" : "s", nargs);
        return false;
    }
    if (as->fatal || !asm_charge_work(as, col))
        return false;
    if (as->depth >= ASM_MAX_DEPTH) {
        asm_error(as, col, "functions nested too deeply (recursion?)");
        as->fatal = true;
        return false;
    }
    const char *of = as->cur_file;
    unsigned ol = as->cur_line;
    bool had = as->func_has_result;
    struct asm_val old = as->func_result;
    asm_scope_push(as);
    for (int i = 0; i < nargs; i++)
        asm_sym_set(as, m->params[i], strlen(m->params[i]), &args[i], false, true, col);
    bool ok = true;
    if (m->expr) {
        struct asm_tok toks[ASM_MAX_TOKENS];
        unsigned bad = 0;
        as->cur_file = m->expr_file;
        as->cur_line = m->expr_line;
        int nt = asm_tokenize(m->expr, m->expr_len, toks, ASM_MAX_TOKENS, &bad);
        if (nt < 0) {
            asm_error(as, bad, "bad character or line too long");
            ok = false;
        } else {
            for (int i = 0; i < nt; i++) /* columns relative to the original line */
                toks[i].col += m->expr_col - 1;
            struct asm_expr_ctx c = {.as = as, .t = toks, .pos = 0, .n = nt};
            ok = asm_expr(&c, out) && at_end(as, &toks[c.pos]);
        }
    } else {
        as->in_func++;
        as->func_has_result = false;
        process_block(as, m->body, m->nbody); /* m stays valid: see asm_macro_add */
        as->in_func--;
        if (!as->func_has_result) {
            asm_error(as, col, "function '%s' gave no value", m->name);
            ok = false;
        } else {
            *out = as->func_result;
        }
    }
    asm_scope_pop(as);
    as->func_has_result = had;
    as->func_result = old;
    as->cur_file = of;
    as->cur_line = ol;
    return ok;
}

static bool define_block(struct vc4_asm *as, const struct asm_tok *t, int n, int pos, bool func,
                         const struct asm_line *body, size_t nbody)
{
    (void)n;
    struct asm_macro m;
    memset(&m, 0, sizeof m);
    m.is_func = func;
    if (t[pos].kind != TK_IDENT) {
        asm_error(as, t[pos].col, "expected a name");
        return false;
    }
    m.name = vc4_strndup(as->alloc, t[pos].p, t[pos].len);
    if (!m.name) {
        as->fatal = true;
        return false;
    }
    pos++;
    bool paren = func && asm_tok_is(&t[pos], "(");
    if (paren || asm_tok_is(&t[pos], ","))
        pos++;
    while (t[pos].kind == TK_IDENT) {
        if (m.nparams >= ASM_MAX_ARGS) {
            asm_error(as, t[pos].col, "too many parameters");
            asm_macro_free(as, &m);
            return false;
        }
        m.params[m.nparams] = vc4_strndup(as->alloc, t[pos].p, t[pos].len);
        if (!m.params[m.nparams++]) {
            asm_macro_free(as, &m);
            as->fatal = true;
            return false;
        }
        pos++;
        if (asm_tok_is(&t[pos], ","))
            pos++;
    }
    if (paren && asm_tok_is(&t[pos], ")"))
        pos++;
    if (t[pos].kind != TK_END) {
        asm_error(as, t[pos].col, "unexpected text in definition");
        asm_macro_free(as, &m);
        return false;
    }
    m.body = nbody ? vc4_malloc(as->alloc, nbody * sizeof *body) : NULL;
    if (nbody && !m.body) {
        asm_macro_free(as, &m);
        as->fatal = true;
        return false;
    }
    if (nbody)
        memcpy(m.body, body, nbody * sizeof *body);
    m.nbody = nbody;
    return asm_macro_add(as, &m);
}

/* IEEE 754 half precision (.half, .float16), rounded to nearest even; a
 * finite value beyond 65504 is an error (vc4asm Eval::toFloat16). */
static bool half_bits(double d, uint64_t *out)
{
    union { float f; uint32_t u; } u = {.f = (float)d};
    uint32_t sign = (u.u >> 16) & 0x8000u, mag = u.u & 0x7fffffffu;
    if (mag >= 0x7f800000u) { /* inf, nan */
        *out = sign | 0x7c00u | (mag > 0x7f800000u ? 0x200u : 0);
        return true;
    }
    if (fabs(d) > 65504.0)
        return false;
    int e = (int)(mag >> 23) - 127 + 15;
    uint32_t m = (mag & 0x7fffffu) | 0x800000u; /* 24-bit significand */
    int shift = e > 0 ? 13 : 14 - e;            /* bits to drop */
    if (shift > 24) {
        *out = sign;
        return true;
    }
    uint32_t h = m >> shift, rest = m & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (h & 1)))
        h++;
    /* normal: exponent e >= 1 in bits 14:10 over the 10 mantissa bits (the
     * implicit bit of h adds 1 to the exponent field, carries included) */
    *out = sign | (e > 0 ? ((uint32_t)(e - 1) << 10) + h : h);
    return true;
}

/* Data (vc4asm Parser::parseDATA): each value takes `bits` bits of the bit
 * stream, integers (.bit .int1 .int2 .int4 .byte .short .int .long) or
 * floats (.half .float .double).  An integer outside the signed or unsigned
 * range of its width is a warning and keeps its low bits; a value that does
 * not start at a multiple of its width within the 64-bit word is a warning
 * (once a line), as in vc4asm; it is stored where it falls, across words. */
static void do_data(struct vc4_asm *as, const struct asm_tok *t, int n, int pos, unsigned bits,
                    bool flt)
{
    bool warned_align = false;
    for (;;) {
        struct asm_expr_ctx c = {.as = as, .t = t, .pos = pos, .n = n};
        struct asm_val v;
        unsigned col = t[pos].col;
        if (!asm_expr(&c, &v))
            return;
        pos = c.pos;
        uint64_t x;
        if (flt || v.kind == AV_FLOAT) {
            if (v.kind != AV_FLOAT && v.kind != AV_INT) {
                asm_error(as, col, "expected a number");
                return;
            }
            if (bits < 8) {
                asm_error(as, col, "bit data (.bit .int1 .int2 .int4) takes integers");
                return;
            }
            double d = v.kind == AV_FLOAT ? v.f : (double)v.i;
            if (bits == 64) {
                union { double d; uint64_t u; } u = {.d = d};
                x = u.u;
            } else if (bits == 16 && flt) {
                if (!half_bits(d, &x)) {
                    asm_error(as, col, "%g is outside the half-precision range", d);
                    return;
                }
            } else {
                x = vc4_f2u((float)d);
            }
        } else if (v.kind == AV_INT || v.kind == AV_LABEL) {
            x = (uint64_t)v.i;
            if (bits == 1) {
                if (v.i & ~INT64_C(1))
                    asm_warning(as, col, "bit value 0x%llx out of range (0 or 1)",
                                (unsigned long long)v.i);
            } else if (bits < 64) {
                int64_t lo = -(INT64_C(1) << (bits - 1)), hi = (INT64_C(1) << bits) - 1;
                if (v.i < lo || v.i > hi)
                    asm_warning(as, col, "value truncated to %u bits", bits);
            }
        } else {
            asm_error(as, col, "data must be numbers");
            return;
        }
        if (bits < 64)
            x &= (UINT64_C(1) << bits) - 1;
        /* vc4asm also warns for byte data off its size's alignment (.int at
         * an odd address); vc4kit's control-list macros write packets byte
         * by byte, so only data off a byte boundary (or bit data off its
         * width) warns here */
        unsigned off = (unsigned)(out_bit_pos(as) & 63);
        if (!warned_align && (off & (bits - 1) & 7u)) {
            asm_warning(as, col, "unaligned .%.*s data: %u bits missing for alignment",
                        (int)t[0].len, t[0].p, bits - (off & (bits - 1)));
            warned_align = true;
        }
        if (!emit_bits(as, x, bits, col))
            return;
        if (asm_tok_is(&t[pos], ","))
            pos++;
        else {
            at_end(as, &t[pos]);
            return;
        }
    }
}

/* .align N[, offset] (vc4asm Parser::parseALIGN / doALIGN): N a power of two
 * (0: nothing; vc4asm takes up to 64, vc4kit up to 4096); what follows starts
 * at an address that is offset modulo N.  The part of the gap inside a 64-bit
 * word is zero bits and bytes.  Whole words: vc4asm V0.3 stores the nop
 * instruction (0x100009e7_009e7000), so padding that execution falls into is
 * harmless; vc4kit does the same when the align follows an instruction, and
 * fills with zeros after data, where vc4kit's control lists and shader records
 * align as vc4_cl_align does (docs/assembly.md, deviations). */
static void do_align(struct vc4_asm *as, const struct asm_tok *t, int n)
{
    int pos = 1;
    int64_t a, off = 0;
    if (!eval_int(as, t, n, &pos, &a))
        return;
    if (asm_tok_is(&t[pos], ",")) {
        pos++;
        struct asm_expr_ctx c = {.as = as, .t = t, .pos = pos, .n = n};
        struct asm_val v;
        if (!asm_expr(&c, &v))
            return;
        pos = c.pos;
        if (v.kind != AV_INT && v.kind != AV_LABEL) {
            asm_error(as, t[pos - 1].col, ".align offset must be an integer or a label");
            return;
        }
        off = v.i;
    }
    if (!at_end(as, &t[pos]))
        return;
    if (a < 0 || a > 4096 || (a & (a - 1))) {
        asm_error(as, t[1].col, ".align needs a power of two 0..4096 (bytes)");
        return;
    }
    if (a == 0)
        return;
    uint64_t bits = (uint64_t)a * 8, want = ((uint64_t)off * 8) & (bits - 1);
    uint64_t at = ((uint64_t)cur_pc(as) * 8 - (as->bits_used ? 8 - as->bits_used : 0)) & (bits - 1);
    if (at == want)
        return;
    uint64_t gap = (want - at) & (bits - 1);
    if (as->out.len == as->inst_end && !as->bits_used && (as->out.len & 7) == 0) {
        struct vc4_qpu_instr nop;
        vc4_qpu_nop(&nop);
        uint8_t b[8];
        vc4_qpu_store_le(b, encode_fast(&nop));
        for (; gap >= 64 && !as->fatal; gap -= 64)
            emit(as, b, 8, t[0].col);
        as->inst_end = as->out.len;
    }
    for (uint64_t g = gap; g && !as->fatal;) {
        unsigned k = g > 64 ? 64 : (unsigned)g;
        emit_bits(as, 0, k, t[0].col);
        g -= k;
    }
}

static void end_back(struct vc4_asm *as, unsigned col)
{
    if (!as->in_back) {
        asm_error(as, col, ".endb without .back");
        return;
    }
    as->in_back = false;
    size_t a = as->back.insert_at, s = as->back.start, e = as->out.len;
    if (e == s || as->out.failed)
        return;
    uint8_t *tmp = vc4_malloc(as->alloc, e - s);
    if (!tmp) {
        as->fatal = true;
        return;
    }
    memcpy(tmp, as->out.data + s, e - s);
    memmove(as->out.data + a + (e - s), as->out.data + a, s - a);
    memcpy(as->out.data + a, tmp, e - s);
    vc4_free(as->alloc, tmp);
}

/* .foreach var, value, value... (the body once per value, var set to it;
 * the values are evaluated at the directive) and .local (the body once, in a
 * context of its own for .lset), vc4asm Parser::beginREP / beginLOCAL. */
static void run_block(struct vc4_asm *as, const struct asm_tok *t, int n,
                      const struct asm_line *body, size_t nbody, bool foreach)
{
    struct asm_val vals[ASM_MAX_ARGS];
    int nv = 1, pos = 1;
    if (foreach) {
        if (t[1].kind != TK_IDENT || !asm_tok_is(&t[2], ",")) {
            asm_error(as, t[1].col, "expected '.foreach name, value, ...'");
            return;
        }
        nv = 0;
        pos = 3;
        for (;;) {
            if (nv >= ASM_MAX_ARGS) {
                asm_error(as, t[pos].col, "too many .foreach values");
                return;
            }
            struct asm_expr_ctx c = {.as = as, .t = t, .pos = pos, .n = n};
            if (!asm_expr(&c, &vals[nv++]))
                return;
            pos = c.pos;
            if (!asm_tok_is(&t[pos], ","))
                break;
            pos++;
        }
    }
    if (!at_end(as, &t[pos]))
        return;
    if (as->depth >= ASM_MAX_DEPTH) {
        asm_error(as, t[0].col, "blocks nested too deeply");
        as->fatal = true;
        return;
    }
    for (int k = 0; k < nv && !as->fatal && asm_charge_work(as, t[0].col); k++) {
        asm_scope_push(as);
        if (foreach)
            asm_sym_set(as, t[1].p, t[1].len, &vals[k], false, true, t[1].col);
        process_block(as, body, nbody);
        asm_scope_pop(as);
    }
}

/* One directive line (t[0] is the TK_SUFFIX). Returns lines consumed beyond this one. */
static size_t directive(struct vc4_asm *as, const struct asm_tok *t, int n,
                        const struct asm_line *lines, size_t nl, size_t i)
{
    const struct asm_tok *d = &t[0];
    unsigned col = d->col;
    if (dir_is(d, "set") || dir_is(d, "equ") || dir_is(d, "define")) {
        do_set(as, t, n, 1, false, false, &lines[i]);
    } else if (dir_is(d, "const")) {
        do_set(as, t, n, 1, true, false, &lines[i]);
    } else if (dir_is(d, "lset")) {
        do_set(as, t, n, 1, false, true, &lines[i]);
    } else if (dir_is(d, "lconst")) {
        do_set(as, t, n, 1, true, true, &lines[i]);
    } else if (dir_is(d, "unset") || dir_is(d, "undef") || dir_is(d, "lunset")) {
        if (t[1].kind != TK_IDENT) {
            asm_error(as, t[1].col, "expected a name");
        } else {
            struct asm_symtab *tab = dir_is(d, "lunset") ? &as->locals : &as->globals;
            struct asm_sym *s = asm_tab_find(tab, t[1].p, t[1].len);
            if (s)
                asm_tab_remove(as, tab, s);
        }
    } else if (dir_is(d, "assert")) {
        struct asm_expr_ctx c = {.as = as, .t = t, .pos = 1, .n = n};
        struct asm_val v;
        if (asm_expr(&c, &v) && at_end(as, &t[c.pos]) && !v.undef) {
            if (v.kind != AV_INT && v.kind != AV_FLOAT)
                asm_error(as, t[1].col, ".assert needs a number");
            else if (!asm_val_true(&v))
                asm_error(as, t[1].col, "assertion failed");
        }
    } else if (dir_is(d, "include")) {
        do_include(as, t, n, 1);
    } else if (dir_is(d, "macro") || dir_is(d, "func")) {
        bool func = dir_is(d, "func");
        size_t e = block_end(as, d, lines, nl, i);
        if (e >= nl)
            return nl - i;
        define_block(as, t, n, 1, func, lines + i + 1, e - i - 1);
        return e - i;
    } else if (dir_is(d, "foreach") || dir_is(d, "local")) {
        size_t e = block_end(as, d, lines, nl, i);
        if (e >= nl)
            return nl - i;
        run_block(as, t, n, lines + i + 1, e - i - 1, dir_is(d, "foreach"));
        return e - i;
    } else if (dir_is(d, "rep")) {
        size_t e = block_end(as, d, lines, nl, i);
        if (e >= nl)
            return nl - i;
        int pos = 1;
        const struct asm_tok *var = NULL;
        if (t[1].kind == TK_IDENT && (asm_tok_is(&t[2], ",") || t[2].kind == TK_NUMBER ||
                                      t[2].kind == TK_IDENT || asm_tok_is(&t[2], "("))) {
            var = &t[1];
            pos = asm_tok_is(&t[2], ",") ? 3 : 2;
        }
        int64_t cnt;
        if (!eval_int(as, t, n, &pos, &cnt) || !at_end(as, &t[pos]))
            return e - i;
        if (cnt < 0 || cnt > ASM_MAX_REP) {
            asm_error(as, t[1].col, ".rep count %lld outside 0..%d", (long long)cnt, ASM_MAX_REP);
            return e - i;
        }
        if (as->depth >= ASM_MAX_DEPTH) {
            asm_error(as, col, ".rep nested too deeply");
            as->fatal = true;
            return e - i;
        }
        char vname[128];
        size_t vlen = 0;
        if (var) {
            vlen = var->len < sizeof vname ? var->len : sizeof vname - 1;
            memcpy(vname, var->p, vlen);
        }
        /* every iteration is work, also of an empty body (regression: nested
         * .rep 1000000 with nothing inside ran 10^12 iterations) */
        for (int64_t k = 0; k < cnt && !as->fatal && asm_charge_work(as, col); k++) {
            asm_scope_push(as);
            if (var) {
                struct asm_val v = {.kind = AV_INT, .i = k};
                asm_sym_set(as, vname, vlen, &v, false, true, col);
            }
            process_block(as, lines + i + 1, e - i - 1);
            asm_scope_pop(as);
        }
        return e - i;
    } else if (dir_is(d, "endm") || dir_is(d, "endr") || dir_is(d, "endf") ||
               dir_is(d, "endrep") || dir_is(d, "endfunc") || dir_is(d, "endfor") ||
               dir_is(d, "endloc")) {
        asm_error(as, col, ".%.*s without its opening directive", (int)d->len, d->p);
    } else if (dir_is(d, "back")) {
        int pos = 1;
        int64_t k;
        if (!eval_int(as, t, n, &pos, &k) || !at_end(as, &t[pos]))
            return 0;
        if (as->in_back) {
            asm_error(as, col, ".back cannot nest");
            return 0;
        }
        pad_to_word(as, col);
        if (k < 0 || k > 16 || (size_t)k * 8 > as->out.len - as->call_start) {
            asm_error(as, t[1].col, ".back count must be 0..16 and within the emitted code");
            return 0;
        }
        as->in_back = true;
        as->back.insert_at = as->out.len - (size_t)k * 8;
        as->back.start = as->out.len;
    } else if (dir_is(d, "endb") || dir_is(d, "endback")) {
        end_back(as, col);
    } else if (dir_is(d, "clone")) {
        clone_code(as, t, n, col);
    } else if (dir_is(d, "align")) {
        do_align(as, t, n);
    } else if (dir_is(d, "bit") || dir_is(d, "int1")) {
        do_data(as, t, n, 1, 1, false);
    } else if (dir_is(d, "int2")) {
        do_data(as, t, n, 1, 2, false);
    } else if (dir_is(d, "int4")) {
        do_data(as, t, n, 1, 4, false);
    } else if (dir_is(d, "byte") || dir_is(d, "int8")) {
        do_data(as, t, n, 1, 8, false);
    } else if (dir_is(d, "short") || dir_is(d, "hword") || dir_is(d, "int16")) {
        do_data(as, t, n, 1, 16, false);
    } else if (dir_is(d, "int") || dir_is(d, "int32") || dir_is(d, "dword") || dir_is(d, "word")) {
        do_data(as, t, n, 1, 32, false); /* .word: 32 bits here (see docs/assembly.md) */
    } else if (dir_is(d, "long") || dir_is(d, "int64") || dir_is(d, "qword") || dir_is(d, "quad")) {
        do_data(as, t, n, 1, 64, false);
    } else if (dir_is(d, "half") || dir_is(d, "float16")) {
        do_data(as, t, n, 1, 16, true);
    } else if (dir_is(d, "float") || dir_is(d, "float32") || dir_is(d, "single")) {
        do_data(as, t, n, 1, 32, true);
    } else if (dir_is(d, "double") || dir_is(d, "float64")) {
        do_data(as, t, n, 1, 64, true);
    } else if (dir_is(d, "global") || dir_is(d, "text") || dir_is(d, "code") ||
               dir_is(d, "rodata") || dir_is(d, "section")) {
        /* accepted for compatibility; no effect */
    } else {
        asm_error(as, col, "unknown directive .%.*s", (int)d->len, d->p);
    }
    return 0;
}

static void process_block(struct vc4_asm *as, const struct asm_line *lines, size_t n)
{
    struct ifstate is;
    is.depth = 0;
    struct asm_tok toks[ASM_MAX_TOKENS];
    for (size_t i = 0; i < n && !as->fatal; i++) {
        if (!asm_charge_work(as, 1))
            return;
        as->cur_file = lines[i].file;
        as->cur_line = lines[i].line;
        /* Lines that start with a plain identifier are code or a macro call.
         * Skipped by .if, or code in pass 1 (which only needs the addresses),
         * they need no tokens. */
        if (as->pass == 1 || skipping(&is)) {
            size_t ids = 0, idl = 0;
            int lead = asm_line_lead(lines[i].text, lines[i].len, &ids, &idl);
            if (lead == 0)
                continue;
            if (lead == 1 && !as->in_func) {
                if (skipping(&is))
                    continue;
                if (!asm_macro_find(as, lines[i].text + ids, idl, false)) {
                    emit_placeholder(as);
                    continue;
                }
            }
        }
        unsigned bad = 0;
        int nt = asm_tokenize(lines[i].text, lines[i].len, toks, ASM_MAX_TOKENS, &bad);
        if (nt < 0) {
            if (!skipping(&is))
                asm_error(as, bad, "unexpected character or line too long");
            continue;
        }
        int pos = 0;
        struct asm_tok *t = toks;
        /* conditional assembly is tracked even while skipping */
        if (t[0].kind == TK_SUFFIX &&
            (dir_is(&t[0], "if") || dir_is(&t[0], "elseif") || dir_is(&t[0], "else") ||
             dir_is(&t[0], "endif") || dir_is(&t[0], "elif") || dir_is(&t[0], "ifset"))) {
            if (dir_is(&t[0], "if") || dir_is(&t[0], "ifset")) {
                if (is.depth >= (int)sizeof is.st) {
                    asm_error(as, t[0].col, ".if nested too deeply");
                    as->fatal = true;
                    return;
                }
                uint8_t st = 2;
                if (!skipping(&is) && dir_is(&t[0], "ifset")) {
                    /* .ifset name: is the symbol defined (vc4asm parseIFSET) */
                    if (t[1].kind != TK_IDENT)
                        asm_error(as, t[1].col, "expected a name");
                    else if (at_end(as, &t[2]))
                        st = asm_sym_find(as, t[1].p, t[1].len) ? 0 : 1;
                } else if (!skipping(&is)) {
                    struct asm_expr_ctx c = {.as = as, .t = t, .pos = 1, .n = nt};
                    struct asm_val v;
                    if (asm_expr(&c, &v) && at_end(as, &t[c.pos]))
                        st = asm_val_true(&v) ? 0 : 1;
                }
                is.line[is.depth] = as->cur_line;
                is.st[is.depth++] = st;
            } else if (is.depth == 0) {
                asm_error(as, t[0].col, ".%.*s without .if", (int)t[0].len, t[0].p);
            } else if (dir_is(&t[0], "endif")) {
                is.depth--;
            } else if (dir_is(&t[0], "else")) {
                is.st[is.depth - 1] = is.st[is.depth - 1] == 1 ? 0 : 2;
            } else { /* elseif */
                uint8_t *st = &is.st[is.depth - 1];
                if (*st == 1) {
                    is.depth--;
                    bool outer_skip = skipping(&is);
                    is.depth++;
                    if (!outer_skip) {
                        struct asm_expr_ctx c = {.as = as, .t = t, .pos = 1, .n = nt};
                        struct asm_val v;
                        if (asm_expr(&c, &v) && at_end(as, &t[c.pos]))
                            *st = asm_val_true(&v) ? 0 : 1;
                    }
                } else {
                    *st = 2;
                }
            }
            continue;
        }
        if (skipping(&is)) {
            /* skip whole macro/rep/func/... bodies so their .if lines do not count */
            const struct block_kind *bk = block_kind_of(&t[0]);
            if (bk) {
                size_t e = find_end(lines, n, i, bk->open, bk->close);
                i = e < n ? e : n;
            }
            continue;
        }
        /* labels at the start (vc4asm Parser::ParseLine / parseLabel): ":name",
         * "::name" (exported), "name:" (not "r:"), the colon touching the
         * name.  A ':' followed by a blank or the end of the line is the
         * anonymous label: it marks a branch target for vc4asm's instruction
         * combiner and validator, names nothing and emits nothing. */
        while (t[pos].kind != TK_END) {
            const struct asm_tok *a = &t[pos], *b = &t[pos + 1];
            bool a_colon = asm_tok_is(a, ":");
            if (a_colon && asm_tok_is(b, ":") && touching(a, b) &&
                (t[pos + 2].kind == TK_IDENT || t[pos + 2].kind == TK_NUMBER) &&
                touching(b, &t[pos + 2])) {
                define_label(as, t[pos + 2].p, t[pos + 2].len, t[pos + 2].col);
                pos += 3;
            } else if (a_colon && (b->kind == TK_IDENT || b->kind == TK_NUMBER) && touching(a, b)) {
                define_label(as, b->p, b->len, b->col);
                pos += 2;
            } else if (a_colon && (b->kind == TK_END || !touching(a, b))) {
                pos++; /* anonymous label */
            } else if ((a->kind == TK_IDENT || a->kind == TK_NUMBER) && asm_tok_is(b, ":") &&
                       touching(a, b) && !asm_tok_is(a, "r")) {
                define_label(as, a->p, a->len, a->col);
                pos += 2;
            } else {
                break;
            }
        }
        t += pos;
        nt -= pos;
        if (t[0].kind == TK_END)
            continue;
        if (t[0].kind == TK_SUFFIX) {
            i += directive(as, t, nt, lines, n, i);
            continue;
        }
        if (as->in_func) {
            /* a function body line that is not a directive is its value */
            struct asm_expr_ctx c = {.as = as, .t = t, .pos = 0, .n = nt};
            struct asm_val v;
            if (asm_expr(&c, &v) && at_end(as, &t[c.pos])) {
                as->func_result = v;
                as->func_has_result = true;
            }
            continue;
        }
        if (t[0].kind == TK_IDENT) {
            struct asm_macro *m = asm_macro_find(as, t[0].p, t[0].len, false);
            if (m && !asm_is_mnemonic(t[0].p, t[0].len)) {
                run_macro(as, m, t, nt, 1);
                continue;
            }
            if (m) { /* a macro named like an instruction wins, as in vc4asm */
                run_macro(as, m, t, nt, 1);
                continue;
            }
        }
        emit_instruction(as, t, nt);
    }
    if (is.depth > 0 && !as->fatal) {
        as->cur_line = is.line[is.depth - 1];
        asm_error(as, 1, "unterminated .if (missing .endif)");
    }
}

/* ---- public API -------------------------------------------------------------------- */

struct vc4_asm *vc4_asm_create(const struct vc4_asm_options *opts)
{
    const struct vc4_allocator *alloc = opts ? opts->alloc : NULL;
    struct vc4_asm *as = vc4_calloc(alloc, 1, sizeof *as);
    if (!as)
        return NULL;
    as->inc_stack = vc4_calloc(alloc, ASM_MAX_DEPTH, sizeof *as->inc_stack);
    if (!as->inc_stack) {
        vc4_free(alloc, as);
        return NULL;
    }
    if (opts)
        as->opt = *opts;
    as->alloc = alloc;
    as->sink = as->opt.sink;
    vc4_buf_init(&as->out, alloc);
    return as;
}

void vc4_asm_destroy(struct vc4_asm *as)
{
    if (!as)
        return;
    asm_tab_free(as, &as->globals);
    asm_tab_free(as, &as->locals);
    asm_tab_free(as, &as->labels);
    asm_macros_truncate(as, 0);
    vc4_free(as->alloc, as->macros);
    vc4_free(as->alloc, as->macro_hash.head);
    asm_loclab_free(as);
    for (size_t i = 0; i < as->nincdirs; i++)
        vc4_free(as->alloc, as->incdirs[i]);
    vc4_free(as->alloc, as->incdirs);
    for (size_t i = 0; i < as->nfiles; i++)
        vc4_free(as->alloc, as->files[i]);
    vc4_free(as->alloc, as->files);
    vc4_free(as->alloc, as->inst_lines);
    vc4_free(as->alloc, as->inc_stack);
    vc4_buf_free(&as->out);
    vc4_free(as->alloc, as);
}

enum vc4_status vc4_asm_add_include_dir(struct vc4_asm *as, const char *dir)
{
    if (!as || !dir)
        return VC4_ERR_INVALID;
    char **v = vc4_realloc(as->alloc, as->incdirs, (as->nincdirs + 1) * sizeof *v);
    if (!v)
        return VC4_ERR_NOMEM;
    as->incdirs = v;
    v[as->nincdirs] = vc4_strndup(as->alloc, dir, strlen(dir));
    if (!v[as->nincdirs])
        return VC4_ERR_NOMEM;
    as->nincdirs++;
    return VC4_OK;
}

enum vc4_status vc4_asm_define(struct vc4_asm *as, const char *name, int64_t value)
{
    if (!as || !name || !*name)
        return VC4_ERR_INVALID;
    struct asm_val v = {.kind = AV_INT, .i = value};
    int depth = as->depth;
    as->depth = 0;
    bool ok = asm_sym_set(as, name, strlen(name), &v, false, false, 0);
    as->depth = depth;
    return ok ? VC4_OK : VC4_ERR_NOMEM;
}

static void reset_pass(struct vc4_asm *as)
{
    as->out.len = as->call_start;
    as->bits_used = as->call_bits;
    as->inst_end = as->call_start; /* the start counts as code, as in vc4asm */
    as->out.failed = false;
    asm_tab_truncate(as, &as->globals, as->globals_keep);
    for (size_t i = 0; i < as->globals.n; i++)
        as->globals.v[i].val = as->globals.v[i].keep_val;
    asm_tab_truncate(as, &as->locals, 0);
    asm_macros_truncate(as, as->macros_keep);
    for (size_t i = 0; i < as->nloclab; i++) {
        as->loclab[i].seen = 0;
        as->loclab[i].ahead = false;
        if (as->pass == 1)
            as->loclab[i].n = 0;
    }
    as->depth = 0;
    as->inc_depth = 0;
    as->lines_done = 0;
    as->fatal = false;
    as->in_back = false;
    as->in_func = 0;
}

enum vc4_status vc4_asm_source(struct vc4_asm *as, const char *name, const char *text, size_t len)
{
    if (!as || (!text && len))
        return VC4_ERR_INVALID;
    if (!name)
        name = "<input>";
    as->call_start = as->out.len;
    as->call_bits = as->bits_used;
    as->globals_keep = as->globals.n;
    for (size_t i = 0; i < as->globals.n; i++)
        as->globals.v[i].keep_val = as->globals.v[i].val;
    as->macros_keep = as->nmacros;
    size_t ninst0 = as->ninst;
    unsigned errors0 = as->errors, warnings0 = as->warnings;
    /* the text is copied, stripped and split once; both passes run it */
    struct asm_text tx;
    if (!text_prepare(as, name, text ? text : "", len, &tx)) {
        as->pass = 2;
        asm_error(as, 0, "out of memory");
        as->pass = 0;
        return VC4_ERR_NOMEM;
    }
    as->clone_ahead = false;
    for (int pass = 1; pass <= 3; pass++) {
        if (pass == 3) { /* a .clone of code not yet emitted: rerun pass 2 quietly */
            if (!as->clone_ahead || as->out.failed || as->fatal)
                break;
            as->clone_len = as->out.len;
            as->clone_src = vc4_malloc(as->alloc, as->clone_len ? as->clone_len : 1);
            if (!as->clone_src)
                break;
            memcpy(as->clone_src, as->out.data, as->clone_len);
            as->quiet = true;
            for (size_t i = 0; i < as->labels.n; i++) /* defined again, not twice */
                as->labels.v[i].scope = 0;
        }
        as->pass = pass > 2 ? 2 : pass;
        reset_pass(as);
        as->ninst = ninst0;
        as->errors = errors0;
        as->warnings = warnings0;
        text_run(as, &tx);
        if (as->in_back) {
            asm_error(as, 1, "missing .endb");
            end_back(as, 0);
        }
    }
    vc4_free(as->alloc, as->clone_src);
    as->clone_src = NULL;
    as->quiet = false;
    vc4_free(as->alloc, tx.lines);
    as->pass = 0;
    if (as->out.failed)
        return VC4_ERR_NOMEM;
    return as->errors > errors0 ? VC4_ERR_INVALID : VC4_OK;
}

enum vc4_status vc4_asm_file(struct vc4_asm *as, const char *path)
{
    if (!as || !path)
        return VC4_ERR_INVALID;
    char *data;
    size_t len;
    if (!read_file_data(as, path, &data, &len)) {
        struct vc4_location loc = vc4_location_none();
        loc.file = path;
        vc4_diag_emit(&as->sink, VC4_ERROR, VC4_DIAG_IO, "asm", &loc, "cannot read file");
        as->errors++;
        return VC4_ERR_IO;
    }
    char *keep = vc4_strndup(as->alloc, path, strlen(path));
    if (!keep || !keep_buffer(as, keep)) {
        vc4_free(as->alloc, data);
        return VC4_ERR_NOMEM;
    }
    as->inc_stack[0] = keep;
    enum vc4_status st = vc4_asm_source(as, keep, data, len);
    vc4_free(as->alloc, data);
    return st;
}

const uint8_t *vc4_asm_output(const struct vc4_asm *as, size_t *size)
{
    if (size)
        *size = as ? as->out.len : 0;
    return as ? as->out.data : NULL;
}

bool vc4_asm_lookup(const struct vc4_asm *as, const char *name, int64_t *value)
{
    if (!as || !name)
        return false;
    const struct asm_sym *s = asm_tab_find(&as->labels, name, strlen(name));
    if (!s)
        s = asm_tab_find(&as->globals, name, strlen(name));
    if (!s || (s->val.kind != AV_INT && s->val.kind != AV_LABEL))
        return false;
    if (value)
        *value = s->val.i;
    return true;
}

size_t vc4_asm_symbol_count(const struct vc4_asm *as)
{
    return as ? as->labels.n + as->globals.n : 0;
}

bool vc4_asm_symbol(const struct vc4_asm *as, size_t i, const char **name, int64_t *value,
                    bool *is_label)
{
    if (!as || i >= as->labels.n + as->globals.n)
        return false;
    bool lab = i < as->labels.n;
    const struct asm_sym *s = lab ? &as->labels.v[i] : &as->globals.v[i - as->labels.n];
    if (name)
        *name = s->name;
    if (value)
        *value = s->val.kind == AV_FLOAT ? (int64_t)s->val.f
                 : s->val.kind == AV_REG ? (int64_t)s->val.r.raddr : s->val.i;
    if (is_label)
        *is_label = lab;
    return true;
}

unsigned vc4_asm_error_count(const struct vc4_asm *as) { return as ? as->errors : 0; }

/* Source line of each assembled instruction (for the validator). */
const unsigned *vc4_asm_instruction_lines(const struct vc4_asm *as, size_t *n);
const unsigned *vc4_asm_instruction_lines(const struct vc4_asm *as, size_t *n)
{
    if (n)
        *n = as ? as->ninst : 0;
    return as ? as->inst_lines : NULL;
}

enum vc4_status vc4_qpu_assemble(const char *line, uint32_t pc, struct vc4_qpu_instr *out,
                                 struct vc4_diag_sink *sink)
{
    if (!line || !out)
        return VC4_ERR_INVALID;
    struct vc4_asm as;
    memset(&as, 0, sizeof as);
    if (sink)
        as.sink = *sink;
    as.pass = 2;
    as.cur_file = NULL;
    as.cur_line = 1;
    /* tokens point into the caller's line (the tokenizer skips comments) */
    size_t len = strlen(line);
    struct asm_tok toks[ASM_MAX_TOKENS];
    unsigned bad = 0;
    int nt = asm_tokenize(line, len, toks, ASM_MAX_TOKENS, &bad);
    if (nt < 0) {
        asm_error(&as, bad, "unexpected character or line too long");
        return VC4_ERR_INVALID;
    }
    if (toks[0].kind == TK_END) {
        asm_error(&as, 1, "empty instruction");
        return VC4_ERR_INVALID;
    }
    if (!asm_instruction(&as, toks, nt, pc, out) || as.errors)
        return VC4_ERR_INVALID;
    return VC4_OK;
}
