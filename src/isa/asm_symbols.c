/*
 * asm_symbols.c - what the assembler knows by name, and how it complains:
 * diagnostics and the work budget, symbol tables (.set/.const globals,
 * scoped locals, labels), macro and function records, numeric local labels.
 *
 * Every name table is hashed (buckets hold the newest entry with that hash,
 * each entry the previous one), so a lookup costs the same with 10 names or
 * 30,000: assembly time is linear in the source (bench_asm's label case).
 * Entries leave in reverse order of arrival (scopes, passes), which undoes
 * the chains exactly; .unset, the one removal from the middle, rebuilds them.
 */
#include <stdlib.h>
#include <string.h>

#include "isa/asm_internal.h"

/* ---- diagnostics ------------------------------------------------------------ */

static void report(struct vc4_asm *as, enum vc4_severity sev, unsigned col, const char *fmt,
                   va_list ap) VC4_PRINTF(4, 0);
static void report(struct vc4_asm *as, enum vc4_severity sev, unsigned col, const char *fmt,
                   va_list ap)
{
    if (sev == VC4_ERROR && as->errors >= ASM_MAX_ERRORS)
        return; /* the pass is stopping (below) */
    if (sev == VC4_ERROR)
        as->errors++;
    else
        as->warnings++;
    struct vc4_location loc = vc4_location_none();
    loc.file = as->cur_file;
    loc.line = as->cur_line;
    loc.col = col;
    if (as->pass != 1 && !as->quiet) /* the second pass reports (not its rerun) */
        vc4_diag_emitv(&as->sink, sev, VC4_DIAG_SYNTAX, "asm", &loc, fmt, ap);
    if (sev == VC4_ERROR && as->errors == ASM_MAX_ERRORS) {
        /* A runaway construct can produce millions of errors: say so once
         * and stop the pass, as compilers do. */
        as->fatal = true;
        if (as->pass != 1 && !as->quiet)
            vc4_diag_emit(&as->sink, VC4_ERROR, VC4_DIAG_SYNTAX, "asm", &loc,
                          "too many errors (%d); stopping", ASM_MAX_ERRORS);
    }
}

void asm_error(struct vc4_asm *as, unsigned col, const char *fmt, ...)
{
    if (!as)
        return;
    va_list ap;
    va_start(ap, fmt);
    report(as, VC4_ERROR, col, fmt, ap);
    va_end(ap);
}

void asm_warning(struct vc4_asm *as, unsigned col, const char *fmt, ...)
{
    if (!as)
        return;
    va_list ap;
    va_start(ap, fmt);
    report(as, VC4_WARNING, col, fmt, ap);
    va_end(ap);
}

bool asm_charge_work(struct vc4_asm *as, unsigned col)
{
    unsigned long max = as->opt.max_work ? as->opt.max_work : ASM_MAX_LINES;
    if (++as->lines_done <= max)
        return true;
    if (!as->fatal)
        asm_error(as, col, "too much work (more than %lu lines, .rep iterations and function "
                  "calls); runaway .rep, macro or recursion?", max);
    as->fatal = true;
    return false;
}

/* ---- hashed name chains ------------------------------------------------------- */

static uint32_t name_hash(const char *p, size_t len)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)p[i]) * 16777619u;
    return h;
}

/* Make room for n entries in a bucket array (power of two, at least twice n);
 * true when it was (re)allocated and the caller must re-link every entry. */
static bool buckets_fit(struct vc4_asm *as, struct asm_hash *h, size_t n, bool *failed)
{
    *failed = false;
    if (n * 2 <= h->nhead)
        return false;
    size_t nh = h->nhead ? h->nhead : 64;
    while (nh < n * 2)
        nh *= 2;
    uint32_t *v = vc4_calloc(as->alloc, nh, sizeof *v);
    if (!v) {
        *failed = true;
        return false;
    }
    vc4_free(as->alloc, h->head);
    h->head = v;
    h->nhead = nh;
    return true;
}

static uint32_t *bucket(const struct asm_hash *h, uint32_t hash)
{
    return &h->head[hash & (h->nhead - 1)];
}

/* ---- symbols -------------------------------------------------------------------- */

static void tab_relink(struct asm_symtab *t)
{
    memset(t->hash.head, 0, t->hash.nhead * sizeof *t->hash.head);
    for (size_t i = 0; i < t->n; i++) {
        uint32_t *b = bucket(&t->hash, t->v[i].hash);
        t->v[i].chain = *b;
        *b = (uint32_t)i + 1;
    }
}

struct asm_sym *asm_tab_find(const struct asm_symtab *t, const char *p, size_t len)
{
    if (!t->n)
        return NULL;
    uint32_t h = name_hash(p, len);
    for (uint32_t k = *bucket(&t->hash, h); k; k = t->v[k - 1].chain) {
        struct asm_sym *s = &t->v[k - 1];
        if (s->hash == h && asm_name_is(s->name, p, len))
            return s; /* the newest: it shadows older ones */
    }
    return NULL;
}

struct asm_sym *asm_tab_add(struct vc4_asm *as, struct asm_symtab *t, const char *p, size_t len)
{
    if (t->n >= UINT32_MAX - 1)
        return NULL;
    if (t->n == t->cap) {
        struct asm_sym *v = vc4_array_grow(as->alloc, t->v, &t->cap, t->cap + 1, sizeof *v, 32);
        if (!v)
            return NULL;
        t->v = v;
    }
    bool failed;
    if (buckets_fit(as, &t->hash, t->n + 1, &failed))
        tab_relink(t);
    if (failed)
        return NULL;
    struct asm_sym *s = &t->v[t->n];
    memset(s, 0, sizeof *s);
    s->name = vc4_strndup(as->alloc, p, len);
    if (!s->name)
        return NULL;
    s->hash = name_hash(p, len);
    uint32_t *b = bucket(&t->hash, s->hash);
    s->chain = *b;
    *b = (uint32_t)t->n + 1;
    t->n++;
    return s;
}

void asm_tab_truncate(struct vc4_asm *as, struct asm_symtab *t, size_t n)
{
    while (t->n > n) {
        struct asm_sym *s = &t->v[--t->n];
        *bucket(&t->hash, s->hash) = s->chain; /* it was its bucket's newest */
        vc4_free(as->alloc, s->name);
    }
}

void asm_tab_free(struct vc4_asm *as, struct asm_symtab *t)
{
    asm_tab_truncate(as, t, 0);
    vc4_free(as->alloc, t->v);
    vc4_free(as->alloc, t->hash.head);
    memset(t, 0, sizeof *t);
}

void asm_tab_remove(struct vc4_asm *as, struct asm_symtab *t, struct asm_sym *s)
{
    vc4_free(as->alloc, s->name);
    *s = t->v[--t->n];
    tab_relink(t);
}

struct asm_sym *asm_sym_find(struct vc4_asm *as, const char *name, size_t len)
{
    struct asm_sym *s = asm_tab_find(&as->locals, name, len);
    return s ? s : asm_tab_find(&as->globals, name, len);
}

bool asm_sym_set(struct vc4_asm *as, const char *name, size_t len, const struct asm_val *v,
                 bool is_const, bool local, unsigned col)
{
    struct asm_symtab *t = local && as->depth > 0 ? &as->locals : &as->globals;
    struct asm_sym *s = asm_tab_find(t, name, len);
    if (s && t == &as->locals && s->scope != as->depth)
        s = NULL; /* shadow an outer context */
    if (s && s->is_const) {
        asm_error(as, col, "'%.*s' is a constant and cannot be redefined", (int)len, name);
        return false;
    }
    if (!s) {
        s = asm_tab_add(as, t, name, len);
        if (!s) {
            asm_error(as, col, "out of memory");
            as->fatal = true;
            return false;
        }
        s->scope = as->depth;
    }
    s->val = *v;
    s->is_const = is_const;
    return true;
}

void asm_scope_push(struct vc4_asm *as) { as->depth++; }

void asm_scope_pop(struct vc4_asm *as)
{
    size_t n = as->locals.n;
    while (n > 0 && as->locals.v[n - 1].scope >= as->depth)
        n--;
    asm_tab_truncate(as, &as->locals, n);
    as->depth--;
}

/* ---- macros and functions ---------------------------------------------------------- */

struct asm_macro *asm_macro_find(struct vc4_asm *as, const char *name, size_t len, bool func)
{
    if (!as->nmacros)
        return NULL;
    uint32_t h = name_hash(name, len);
    for (uint32_t k = *bucket(&as->macro_hash, h); k; k = as->macros[k - 1]->chain) {
        struct asm_macro *m = as->macros[k - 1];
        if (m->hash == h && m->is_func == func && asm_name_is(m->name, name, len))
            return m;
    }
    return NULL;
}

void asm_macro_free(struct vc4_asm *as, struct asm_macro *m)
{
    vc4_free(as->alloc, m->name);
    for (int i = 0; i < m->nparams; i++)
        vc4_free(as->alloc, m->params[i]);
    vc4_free(as->alloc, m->body);
}

/* Each macro/function lives in its own allocation that neither moves nor
 * changes until the pass ends (a later definition of the same name shadows
 * it; asm_macros_truncate frees it), so a call may hold its record and body
 * while the body defines more macros: the table of pointers grows, the
 * records stay.  (Regression: a function body defining a macro grew the table
 * of records under the running call, which then read its freed name, issue 17.) */
bool asm_macro_add(struct vc4_asm *as, struct asm_macro *def)
{
    struct asm_macro *m = NULL;
    bool failed = true;
    if (as->nmacros < ((size_t)1 << 20))
        m = vc4_malloc(as->alloc, sizeof *m);
    if (m && as->nmacros == as->capmacros) {
        struct asm_macro **v = vc4_array_grow(as->alloc, as->macros,
                                              &as->capmacros, as->capmacros + 1, sizeof *v, 16);
        if (v)
            as->macros = v;
        else
            m = (vc4_free(as->alloc, m), NULL);
    }
    if (m && buckets_fit(as, &as->macro_hash, as->nmacros + 1, &failed)) {
        for (size_t i = 0; i < as->nmacros; i++) {
            uint32_t *b = bucket(&as->macro_hash, as->macros[i]->hash);
            as->macros[i]->chain = *b;
            *b = (uint32_t)i + 1;
        }
    }
    if (!m || failed) {
        vc4_free(as->alloc, m);
        asm_macro_free(as, def);
        as->fatal = true;
        return false;
    }
    *m = *def;
    m->hash = name_hash(m->name, strlen(m->name));
    uint32_t *b = bucket(&as->macro_hash, m->hash);
    m->chain = *b;
    *b = (uint32_t)as->nmacros + 1;
    as->macros[as->nmacros++] = m;
    return true;
}

void asm_macros_truncate(struct vc4_asm *as, size_t n)
{
    while (as->nmacros > n) {
        struct asm_macro *m = as->macros[--as->nmacros];
        *bucket(&as->macro_hash, m->hash) = m->chain;
        asm_macro_free(as, m);
        vc4_free(as->alloc, m);
    }
}

/* ---- labels ---------------------------------------------------------------------- */

static bool is_digits(const char *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (p[i] < '0' || p[i] > '9')
            return false;
    return len > 0;
}

/* Numeric local labels: few distinct names, many definitions each. */
static struct asm_local_label *loclab_get(struct vc4_asm *as, const char *p, size_t len, bool create)
{
    for (size_t i = 0; i < as->nloclab; i++)
        if (asm_name_is(as->loclab[i].name, p, len))
            return &as->loclab[i];
    if (!create)
        return NULL;
    if (as->nloclab == as->caploclab) {
        struct asm_local_label *v = vc4_array_grow(as->alloc, as->loclab,
                                                   &as->caploclab, as->caploclab + 1, sizeof *v, 16);
        if (!v)
            return NULL;
        as->loclab = v;
    }
    struct asm_local_label *l = &as->loclab[as->nloclab];
    memset(l, 0, sizeof *l);
    l->name = vc4_strndup(as->alloc, p, len);
    if (!l->name)
        return NULL;
    as->nloclab++;
    return l;
}

void asm_loclab_free(struct vc4_asm *as)
{
    for (size_t i = 0; i < as->nloclab; i++) {
        vc4_free(as->alloc, as->loclab[i].name);
        vc4_free(as->alloc, as->loclab[i].addrs);
    }
    vc4_free(as->alloc, as->loclab);
}

bool asm_label_ref(struct vc4_asm *as, const char *p, size_t len, uint32_t *addr)
{
    if (!as)
        return false;
    if (len >= 2 && (p[len - 1] == 'f' || p[len - 1] == 'b') && is_digits(p, len - 1)) {
        /* numeric local label: the next (f) or previous (b) definition */
        struct asm_local_label *l = loclab_get(as, p, len - 1, false);
        if (!l)
            return false;
        size_t k = p[len - 1] == 'f' ? l->seen : l->seen - 1;
        if (p[len - 1] == 'b' && l->seen == 0)
            return false;
        if (p[len - 1] == 'f')
            l->ahead = true;
        if (k >= l->n)
            return false;
        *addr = l->addrs[k];
        return true;
    }
    if (is_digits(p, len)) {
        /* ":1" alone (vc4asm Parser::labelRef): the most recent definition;
         * before the first one, or after a ":1f" reference (which made the
         * next definition the current name), the next definition */
        struct asm_local_label *l = loclab_get(as, p, len, false);
        if (!l)
            return false;
        size_t k = l->seen == 0 || l->ahead ? l->seen : l->seen - 1;
        if (k >= l->n)
            return false;
        *addr = l->addrs[k];
        return true;
    }
    struct asm_sym *s = asm_tab_find(&as->labels, p, len);
    if (!s)
        return false;
    *addr = (uint32_t)s->val.i;
    return true;
}

void asm_label_define(struct vc4_asm *as, const char *p, size_t len, uint32_t pc, unsigned col)
{
    if (is_digits(p, len)) {
        struct asm_local_label *l = loclab_get(as, p, len, true);
        if (!l) {
            as->fatal = true;
            return;
        }
        if (as->pass == 1) {
            if (l->n == l->cap) {
                uint32_t *v = vc4_array_grow(as->alloc, l->addrs, &l->cap, l->cap + 1, sizeof *v, 8);
                if (!v) {
                    as->fatal = true;
                    return;
                }
                l->addrs = v;
            }
            l->addrs[l->n++] = pc;
        } else if (l->seen < l->n) {
            l->addrs[l->seen] = pc;
        }
        l->seen++;
        l->ahead = false;
        return;
    }
    struct asm_sym *s = asm_tab_find(&as->labels, p, len);
    if (s) {
        if (s->scope == as->pass) { /* scope: the pass that defined it */
            asm_error(as, col, "label '%.*s' defined twice", (int)len, p);
            return;
        }
    } else {
        s = asm_tab_add(as, &as->labels, p, len);
        if (!s) {
            as->fatal = true;
            return;
        }
    }
    s->val.kind = AV_LABEL;
    s->val.i = pc;
    s->scope = as->pass;
}
