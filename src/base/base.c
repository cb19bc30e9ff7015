/*
 * base.c - allocation hooks, diagnostic emission, growable and bounded buffers.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/base.h"

void *vc4_realloc(const struct vc4_allocator *alloc, void *ptr, size_t size)
{
    if (alloc && alloc->fn)
        return alloc->fn(alloc->user, ptr, size);
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, size);
}

void *vc4_malloc(const struct vc4_allocator *alloc, size_t size)
{
    return vc4_realloc(alloc, NULL, size ? size : 1);
}

/* Fault a large zeroed block in with one system call: page faults one by
 * one cost tens of microseconds each under some hypervisors, and the
 * emulator's state (about 1.5 MiB) is written soon after allocation.
 * Best effort (MADV_POPULATE_WRITE is Linux 5.14). */
static void prefault(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    const uintptr_t page = 4096;
    if (!p || bytes < 64 * page)
        return;
    uintptr_t a = ((uintptr_t)p + page - 1) & ~(page - 1), e = ((uintptr_t)p + bytes) & ~(page - 1);
    if (e > a)
        madvise((void *)a, e - a, MADV_POPULATE_WRITE);
#else
    (void)p, (void)bytes;
#endif
}

void *vc4_calloc_aligned(const struct vc4_allocator *alloc, size_t size, size_t align, void **block)
{
    *block = NULL;
    if (align == 0 || (align & (align - 1)) != 0 || size > SIZE_MAX - align)
        return NULL;
    unsigned char *raw = vc4_calloc(alloc, 1, size + align - 1);
    if (!raw)
        return NULL;
    *block = raw;
    return raw + ((align - (uintptr_t)raw % align) % align);
}

void *vc4_calloc(const struct vc4_allocator *alloc, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    size_t total = n * size;
    if (!alloc || !alloc->fn) { /* the C library's zero pages: no touching (start-up time) */
        void *z = calloc(n ? n : 1, size ? size : 1);
        prefault(z, total);
        return z;
    }
    void *p = vc4_malloc(alloc, total);
    if (p)
        memset(p, 0, total > 0 ? total : 1);
    return p;
}

void vc4_free(const struct vc4_allocator *alloc, void *ptr)
{
    if (ptr)
        vc4_realloc(alloc, ptr, 0);
}

char *vc4_strndup(const struct vc4_allocator *alloc, const char *s, size_t n)
{
    char *p = vc4_malloc(alloc, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

void *vc4_array_grow(const struct vc4_allocator *alloc, void *v, size_t *cap, size_t need,
                     size_t elem, size_t init)
{
    if (need <= *cap)
        return v;
    size_t n = *cap ? *cap : (init ? init : 1);
    while (n < need) {
        if (n > SIZE_MAX / 2)
            return NULL;
        n *= 2;
    }
    if (elem && n > SIZE_MAX / elem)
        return NULL;
    void *p = vc4_realloc(alloc, v, n * elem);
    if (p)
        *cap = n;
    return p;
}

void vc4_diag_emitv(const struct vc4_diag_sink *sink, enum vc4_severity sev,
                    enum vc4_diag_class cls, const char *unit,
                    const struct vc4_location *loc, const char *fmt, va_list ap)
{
    if (!sink || !sink->fn)
        return;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    struct vc4_diag d = {
        .severity = sev, .cls = cls, .unit = unit, .rule = NULL, .source = NULL,
        .loc = loc ? *loc : vc4_location_none(), .message = msg,
    };
    sink->fn(sink->user, &d);
}

void vc4_diag_emit(const struct vc4_diag_sink *sink, enum vc4_severity sev,
                   enum vc4_diag_class cls, const char *unit,
                   const struct vc4_location *loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vc4_diag_emitv(sink, sev, cls, unit, loc, fmt, ap);
    va_end(ap);
}

void vc4_diag_rule(const struct vc4_diag_sink *sink, enum vc4_severity sev, const char *unit,
                   const char *rule, const char *source, const struct vc4_location *loc,
                   const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vc4_diag_rulev(sink, sev, unit, rule, source, loc, fmt, ap);
    va_end(ap);
}

void vc4_diag_rulev(const struct vc4_diag_sink *sink, enum vc4_severity sev, const char *unit,
                    const char *rule, const char *source, const struct vc4_location *loc,
                    const char *fmt, va_list ap)
{
    if (!sink || !sink->fn)
        return;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    struct vc4_diag d = {
        .severity = sev, .cls = VC4_DIAG_RULE, .unit = unit, .rule = rule, .source = source,
        .loc = loc ? *loc : vc4_location_none(), .message = msg,
    };
    sink->fn(sink->user, &d);
}

void vc4_buf_init(struct vc4_buf *b, const struct vc4_allocator *alloc)
{
    *b = (struct vc4_buf){.alloc = alloc};
}

void vc4_buf_free(struct vc4_buf *b)
{
    vc4_free(b->alloc, b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

bool vc4_buf_reserve(struct vc4_buf *b, size_t extra)
{
    if (b->failed)
        return false;
    if (extra > SIZE_MAX - b->len - 1) {
        b->failed = true;
        return false;
    }
    size_t need = b->len + extra + 1; /* room for a NUL */
    if (need <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    uint8_t *p = vc4_realloc(b->alloc, b->data, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

bool vc4_buf_append(struct vc4_buf *b, const void *p, size_t n)
{
    if (!vc4_buf_reserve(b, n))
        return false;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = 0;
    return true;
}

bool vc4_buf_printf(struct vc4_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    bool ok = n >= 0 && vc4_buf_reserve(b, (size_t)n);
    if (ok) {
        vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap2);
        b->len += (size_t)n;
    }
    va_end(ap2);
    return ok;
}

const char *vc4_buf_cstr(struct vc4_buf *b)
{
    if (!b->data && !vc4_buf_reserve(b, 0))
        return "";
    if (b->failed && !b->data)
        return "";
    b->data[b->len] = 0;
    return (const char *)b->data;
}

void vc4_out_init(struct vc4_out *o, char *buf, size_t size)
{
    o->buf = buf;
    o->size = size;
    o->len = 0;
    if (size)
        buf[0] = 0;
}

void vc4_out_putn_slow(struct vc4_out *o, const char *s, size_t n)
{
    if (o->len < o->size) {
        size_t room = o->size - o->len - 1;
        size_t k = n < room ? n : room;
        memcpy(o->buf + o->len, s, k);
        o->buf[o->len + k] = 0;
    }
    o->len += n;
}

void vc4_out_uint(struct vc4_out *o, uint64_t v)
{
    if (v < 100) { /* the common case: register numbers, field values */
        char two[2] = {(char)('0' + v / 10), (char)('0' + v % 10)};
        if (v < 10)
            vc4_out_putc(o, two[1]);
        else
            vc4_out_putn(o, two, 2);
        return;
    }
    char tmp[20];
    size_t i = sizeof tmp;
    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    vc4_out_putn(o, tmp + i, sizeof tmp - i);
}

void vc4_out_int(struct vc4_out *o, int64_t v)
{
    if (v < 0) {
        vc4_out_putc(o, '-');
        vc4_out_uint(o, 0 - (uint64_t)v);
    } else {
        vc4_out_uint(o, (uint64_t)v);
    }
}

void vc4_out_hex(struct vc4_out *o, uint64_t v, unsigned min_digits)
{
    static const char digits[] = "0123456789abcdef";
    char tmp[16];
    size_t i = sizeof tmp;
    do {
        tmp[--i] = digits[v & 15];
        v >>= 4;
    } while (v || (sizeof tmp - i < min_digits && i > 0));
    vc4_out_putn(o, tmp + i, sizeof tmp - i);
}

void vc4_out_printf(struct vc4_out *o, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof tmp) {
        vc4_out_puts(o, tmp);
        return;
    }
    /* long text: format straight into the caller's buffer */
    va_start(ap, fmt);
    char *at = o->len < o->size ? o->buf + o->len : NULL;
    vsnprintf(at, at ? o->size - o->len : 0, fmt, ap);
    va_end(ap);
    o->len += (size_t)n;
}
