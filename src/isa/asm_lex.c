/*
 * asm_lex.c - comments and tokens of the vc4asm dialect.
 *
 * Comments (vc4asm Parser.cpp): '#' and '//' run to the end of the line,
 * '/ * ... * /' may span lines.  ';' is NOT a comment: it separates the parts
 * of one instruction ("add r0, r1, r2; fmul r3, r4, r5; ldtmu0"), as in vc4asm.
 */
#include <string.h>

#include "isa/asm_internal.h"

bool asm_strip_comments(char *s, size_t len, unsigned *line)
{
    unsigned ln = 1, open_line = 0;
    bool in_block = false, in_str = false;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == '\n') {
            ln++;
            in_str = false;
            continue;
        }
        if (in_block) {
            if (c == '*' && i + 1 < len && s[i + 1] == '/') {
                s[i] = s[i + 1] = ' ';
                i++;
                in_block = false;
            } else if (c != '\r') {
                s[i] = ' ';
            }
            continue;
        }
        if (in_str) {
            if (c == '"')
                in_str = false;
            continue;
        }
        if (c == '"') {
            in_str = true;
        } else if (c == '#' || (c == '/' && i + 1 < len && s[i + 1] == '/')) {
            while (i < len && s[i] != '\n')
                s[i++] = ' ';
            i--;
        } else if (c == '/' && i + 1 < len && s[i + 1] == '*') {
            s[i] = s[i + 1] = ' ';
            i++;
            in_block = true;
            open_line = ln;
        } else if (c == '\0') {
            s[i] = ' ';
        }
    }
    if (in_block && line)
        *line = open_line;
    return !in_block;
}

static bool is_id0(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_dig(char c) { return c >= '0' && c <= '9'; }
static bool is_idc(char c) { return is_id0(c) || is_dig(c); }

/* Multi-character operators, longest first. */
static const char *const puncts[] = {">>>", "<<<", "<<", ">>", "<=", ">=", "==", "!=", "&&",
                                     "||", "^^", "**"};

int asm_tokenize(const char *s, size_t len, struct asm_tok *toks, int max, unsigned *bad_col)
{
    int n = 0;
    size_t i = 0;
    while (i < len) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            i++;
            continue;
        }
        if (n >= max - 1) {
            *bad_col = (unsigned)i + 1;
            return -1;
        }
        struct asm_tok *t = &toks[n++];
        t->p = s + i;
        t->col = (uint32_t)i + 1;
        size_t st = i;
        if (is_id0(c)) {
            while (i < len && is_idc(s[i]))
                i++;
            t->kind = TK_IDENT;
        } else if (is_dig(c)) {
            bool hex = c == '0' && i + 1 < len && (s[i + 1] == 'x' || s[i + 1] == 'X');
            while (i < len && (is_idc(s[i]) || s[i] == '.')) {
                /* exponent sign: 1e-3, 2.5E+4 */
                if (!hex && (s[i] == 'e' || s[i] == 'E') && i + 1 < len &&
                    (s[i + 1] == '-' || s[i + 1] == '+') && i + 2 < len && is_dig(s[i + 2]))
                    i += 2;
                else
                    i++;
                /* "1./256": the '/' ends the number */
            }
            t->kind = TK_NUMBER;
        } else if (c == '.' && i + 1 < len && is_idc(s[i + 1])) {
            i++;
            t->p = s + i;
            while (i < len && is_idc(s[i]))
                i++;
            t->kind = TK_SUFFIX;
            t->len = (uint32_t)(i - st - 1);
            continue;
        } else if (c == '"') {
            i++;
            while (i < len && s[i] != '"')
                i++;
            if (i >= len) {
                *bad_col = (unsigned)st + 1;
                return -1;
            }
            t->kind = TK_STRING;
            t->p = s + st + 1;
            t->len = (uint32_t)(i - st - 1);
            i++;
            continue;
        } else {
            t->kind = TK_PUNCT;
            size_t l = 1;
            for (size_t k = 0; strchr("<>=!&|^*", c) && k < VC4_ARRAY_SIZE(puncts); k++) {
                size_t pl = strlen(puncts[k]);
                if (i + pl <= len && memcmp(s + i, puncts[k], pl) == 0) {
                    l = pl;
                    break;
                }
            }
            if (l == 1 && !strchr("+-*/%&|^~!<>=?,;:()[]@", c)) {
                *bad_col = (unsigned)i + 1;
                return -1;
            }
            i += l;
        }
        t->len = (uint32_t)(i - st);
    }
    toks[n].kind = TK_END;
    toks[n].p = s + len;
    toks[n].len = 0;
    toks[n].col = (uint32_t)len + 1;
    return n + 1;
}

