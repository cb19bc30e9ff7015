/*
 * asm_lex.c - comments and tokens of the vc4asm dialect.
 *
 * Comments (vc4asm Parser.cpp): '#' and '//' run to the end of the line,
 * '/ * ... * /' may span lines.  ';' is NOT a comment: it separates the parts
 * of one instruction ("add r0, r1, r2; fmul r3, r4, r5; ldtmu0"), as in vc4asm.
 */
#include <string.h>

#include "isa/asm_internal.h"

/* Character classes (static const, shared by the scanner and the tokenizer). */
enum {
    CC_SPACE = ASM_CC_SPACE,
    CC_ID0 = ASM_CC_ID0,
    CC_DIG = ASM_CC_DIG,
    CC_PUNCT = 8,  /* operator / separator character */
    CC_MULTI = 16, /* may start a multi-character operator */
    CC_STRIP = 32, /* matters to asm_strip_comments: # / " newline NUL */
};

#define C2(c, f) [(unsigned char)(c)] = (f)
const uint8_t asm_cclass[256] = {
    C2(' ', CC_SPACE), C2('\t', CC_SPACE), C2('\r', CC_SPACE), C2('\f', CC_SPACE),
    C2('\v', CC_SPACE), C2('\n', CC_STRIP), C2('\0', CC_STRIP), C2('#', CC_STRIP),
    C2('"', CC_STRIP),
    C2('/', CC_PUNCT | CC_STRIP),
    C2('+', CC_PUNCT), C2('-', CC_PUNCT), C2('%', CC_PUNCT), C2('~', CC_PUNCT),
    C2('?', CC_PUNCT), C2(',', CC_PUNCT), C2(';', CC_PUNCT), C2(':', CC_PUNCT),
    C2('(', CC_PUNCT), C2(')', CC_PUNCT), C2('[', CC_PUNCT), C2(']', CC_PUNCT),
    C2('<', CC_PUNCT | CC_MULTI), C2('>', CC_PUNCT | CC_MULTI), C2('=', CC_PUNCT | CC_MULTI),
    C2('!', CC_PUNCT | CC_MULTI), C2('&', CC_PUNCT | CC_MULTI), C2('|', CC_PUNCT | CC_MULTI),
    C2('^', CC_PUNCT | CC_MULTI), C2('*', CC_PUNCT | CC_MULTI),
    C2('_', CC_ID0),
    C2('a', CC_ID0), C2('b', CC_ID0), C2('c', CC_ID0), C2('d', CC_ID0), C2('e', CC_ID0),
    C2('f', CC_ID0), C2('g', CC_ID0), C2('h', CC_ID0), C2('i', CC_ID0), C2('j', CC_ID0),
    C2('k', CC_ID0), C2('l', CC_ID0), C2('m', CC_ID0), C2('n', CC_ID0), C2('o', CC_ID0),
    C2('p', CC_ID0), C2('q', CC_ID0), C2('r', CC_ID0), C2('s', CC_ID0), C2('t', CC_ID0),
    C2('u', CC_ID0), C2('v', CC_ID0), C2('w', CC_ID0), C2('x', CC_ID0), C2('y', CC_ID0),
    C2('z', CC_ID0),
    C2('A', CC_ID0), C2('B', CC_ID0), C2('C', CC_ID0), C2('D', CC_ID0), C2('E', CC_ID0),
    C2('F', CC_ID0), C2('G', CC_ID0), C2('H', CC_ID0), C2('I', CC_ID0), C2('J', CC_ID0),
    C2('K', CC_ID0), C2('L', CC_ID0), C2('M', CC_ID0), C2('N', CC_ID0), C2('O', CC_ID0),
    C2('P', CC_ID0), C2('Q', CC_ID0), C2('R', CC_ID0), C2('S', CC_ID0), C2('T', CC_ID0),
    C2('U', CC_ID0), C2('V', CC_ID0), C2('W', CC_ID0), C2('X', CC_ID0), C2('Y', CC_ID0),
    C2('Z', CC_ID0),
    C2('0', CC_DIG), C2('1', CC_DIG), C2('2', CC_DIG), C2('3', CC_DIG), C2('4', CC_DIG),
    C2('5', CC_DIG), C2('6', CC_DIG), C2('7', CC_DIG), C2('8', CC_DIG), C2('9', CC_DIG),
};
#undef C2

static inline unsigned cc(char c) { return asm_cclass[(unsigned char)c]; }

/* Newlines in s[from..to). */
static unsigned count_lines(const char *s, size_t from, size_t to)
{
    unsigned n = 0;
    for (const char *q = s + from, *e = s + to; (q = memchr(q, '\n', (size_t)(e - q))) != NULL; q++)
        n++;
    return n;
}

bool asm_strip_comments(char *s, size_t len, unsigned *line)
{
    /* Jumps from one character that matters to the next (strcspn, so s[len]
     * must be NUL); newlines are counted only when a block comment opens. */
    unsigned ln = 1, open_line = 0;
    size_t counted = 0; /* ln counts the newlines before this offset */
    size_t i = 0;
    while (i < len) {
        i += strcspn(s + i, "#/\"");
        if (i >= len)
            break;
        char c = s[i];
        if (c == '\0') { /* a NUL inside the text: a blank */
            s[i++] = ' ';
            continue;
        }
        if (c == '"') { /* a string runs to its quote or the end of the line */
            i++;
            i += strcspn(s + i, "\"\n");
            if (i < len && s[i] == '"')
                i++;
            continue;
        }
        if (c == '#' || (c == '/' && i + 1 < len && s[i + 1] == '/')) {
            while (i < len && s[i] != '\n')
                s[i++] = ' ';
            continue;
        }
        if (c == '/' && i + 1 < len && s[i + 1] == '*') {
            ln += count_lines(s, counted, i);
            counted = i;
            open_line = ln;
            s[i] = s[i + 1] = ' ';
            i += 2;
            for (;;) {
                if (i >= len) {
                    if (line)
                        *line = open_line;
                    return false;
                }
                if (s[i] == '*' && i + 1 < len && s[i + 1] == '/') {
                    s[i] = s[i + 1] = ' ';
                    i += 2;
                    break;
                }
                if (s[i] != '\n' && s[i] != '\r')
                    s[i] = ' ';
                i++;
            }
            continue;
        }
        i++; /* a '/' that is division */
    }
    return true;
}

/* Length of the operator starting at s[0] (1..3), or 0 if c is no operator. */
static size_t punct_len(const char *s, size_t avail)
{
    char c = s[0], d = avail > 1 ? s[1] : 0;
    if (!(cc(c) & CC_MULTI))
        return 1;
    char e = avail > 2 ? s[2] : 0, f = avail > 3 ? s[3] : 0;
    switch (c) {
    case '<':
    case '>':
        /* vc4asm's rotations: ><< ><<< (left), >>< >>>< (right; 32 / 64 bit) */
        if (c == '>' && d == '<' && e == '<')
            return f == '<' ? 4 : 3;
        if (c == '>' && d == '>' && (e == '<' || (e == '>' && f == '<')))
            return e == '<' ? 3 : 4;
        if (d == c)
            return e == c ? 3 : 2;   /* << <<< >> >>> */
        return d == '=' ? 2 : 1;     /* <= >= */
    case '=':
    case '!':
        return d == '=' ? 2 : 1; /* == != */
    case '&':
    case '|':
    case '^':
    case '*':
        return d == c ? 2 : 1; /* && || ^^ ** */
    default:
        return 1;
    }
}

int asm_tokenize(const char *s, size_t len, struct asm_tok *toks, int max, unsigned *bad_col)
{
    /* s[len] is '\n' or NUL (asm_internal.h), which ends every scan below:
     * the identifier and number loops need no bound check. */
    int n = 0;
    size_t i = 0;
    struct asm_tok *t = toks, *tmax = toks + (max - 1);
    for (;;) {
        while (i < len && (cc(s[i]) & CC_SPACE))
            i++;
        if (i >= len)
            break;
        char c = s[i];
        unsigned k = cc(c);
        if (t >= tmax) {
            *bad_col = (unsigned)i + 1;
            return -1;
        }
        size_t st = i;
        t->p = s + i;
        t->col = (uint32_t)i + 1;
        if (k & CC_ID0) {
            i++;
            while (cc(s[i]) & (CC_ID0 | CC_DIG))
                i++;
            t->kind = TK_IDENT;
        } else if (k & CC_PUNCT) {
            if (c == '/' && i + 1 < len && (s[i + 1] == '/' || s[i + 1] == '*')) {
                /* comments, for text that was not stripped (one line: the rest
                 * of it, or up to the end of a block comment) */
                if (s[i + 1] == '/')
                    break;
                size_t e = i + 2;
                while (e + 1 < len && !(s[e] == '*' && s[e + 1] == '/'))
                    e++;
                if (e + 1 >= len)
                    break;
                i = e + 2;
                continue;
            }
            t->kind = c == ';' ? TK_SEMI : TK_PUNCT;
            i += punct_len(s + i, len - i);
        } else if (k & CC_DIG) {
            bool hex = c == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
            while ((cc(s[i]) & (CC_ID0 | CC_DIG)) || s[i] == '.') {
                /* exponent sign: 1e-3, 2.5E+4 */
                if (!hex && (s[i] == 'e' || s[i] == 'E') && (s[i + 1] == '-' || s[i + 1] == '+') &&
                    i + 2 < len && (cc(s[i + 2]) & CC_DIG))
                    i += 2;
                else
                    i++;
                /* "1./256": the '/' ends the number */
            }
            t->kind = TK_NUMBER;
        } else if (c == '.' && (cc(s[i + 1]) & (CC_ID0 | CC_DIG))) {
            i++;
            t->p = s + i;
            while (cc(s[i]) & (CC_ID0 | CC_DIG))
                i++;
            t->kind = TK_SUFFIX;
            t->len = (uint32_t)(i - st - 1);
            t++;
            continue;
        } else if (c == '#') {
            break; /* a comment to the end of the line */
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
            t++;
            continue;
        } else if (c == '@') {
            /* raw field overrides: one token to the end of the line or a comment */
            const char *e = s + len, *h = memchr(s + i, '#', len - i);
            if (h)
                e = h;
            for (const char *q = s + i; (q = memchr(q, '/', (size_t)(e - q))) != NULL; q++)
                if (q + 1 < e && q[1] == '/') {
                    e = q;
                    break;
                }
            i = (size_t)(e - s);
            while (i > st && (cc(s[i - 1]) & CC_SPACE))
                i--;
            t->kind = TK_RAW;
        } else {
            *bad_col = (unsigned)i + 1;
            return -1;
        }
        t->len = (uint32_t)(i - st);
        t++;
    }
    n = (int)(t - toks);
    t->kind = TK_END;
    t->p = s + len;
    t->len = 0;
    t->col = (uint32_t)len + 1;
    return n + 1;
}

int asm_line_lead(const char *s, size_t len, size_t *id_start, size_t *id_len)
{
    size_t i = 0;
    while (i < len && (cc(s[i]) & CC_SPACE))
        i++;
    if (i == len)
        return 0;
    if (!(cc(s[i]) & CC_ID0))
        return 2;
    size_t st = i;
    while (i < len && (cc(s[i]) & (CC_ID0 | CC_DIG)))
        i++;
    *id_start = st;
    *id_len = i - st;
    while (i < len && (cc(s[i]) & CC_SPACE))
        i++;
    return i < len && s[i] == ':' ? 2 : 1;
}
