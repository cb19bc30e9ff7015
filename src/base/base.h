/*
 * base.h - internal helpers shared by every layer: allocation through the
 * caller's hooks, diagnostic emission, a growable byte buffer, and
 * little-endian loads/stores.  Nothing here keeps global state.
 */
#ifndef VC4_BASE_BASE_H
#define VC4_BASE_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vc4kit/diag.h"

#define VC4_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define VC4_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define VC4_LIKELY(x) __builtin_expect(!!(x), 1)
#define VC4_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define VC4_ALWAYS_INLINE inline __attribute__((always_inline))
#define VC4_NOINLINE __attribute__((noinline))
#else
#define VC4_PRINTF(f, a)
#define VC4_LIKELY(x) (x)
#define VC4_UNLIKELY(x) (x)
#define VC4_ALWAYS_INLINE inline
#define VC4_NOINLINE
#endif

/* ---- allocation -------------------------------------------------------- */

/* The host's cache line (x86-64 and AArch64 alike): what the emulator's
 * hot structures are aligned to and packed into (docs/emulator.md "Data
 * layout"). */
#define VC4_HOST_CACHE_LINE 64u

/* realloc through the hooks (NULL alloc = C library). size 0 frees, returns NULL. */
void *vc4_realloc(const struct vc4_allocator *alloc, void *ptr, size_t size);
void *vc4_malloc(const struct vc4_allocator *alloc, size_t size);
void *vc4_calloc(const struct vc4_allocator *alloc, size_t n, size_t size);
void vc4_free(const struct vc4_allocator *alloc, void *ptr);
/* size zeroed bytes at an address that is a multiple of align (a power of
 * two), through the hooks; *block gets what to give vc4_free. */
void *vc4_calloc_aligned(const struct vc4_allocator *alloc, size_t size, size_t align, void **block);
char *vc4_strndup(const struct vc4_allocator *alloc, const char *s, size_t n);
/* Room for at least need elements of elem bytes in array v of *cap: grows by
 * doubling (from init). Returns the array (maybe moved), or NULL on overflow
 * or allocation failure, when v and *cap are left as they were. */
void *vc4_array_grow(const struct vc4_allocator *alloc, void *v, size_t *cap, size_t need,
                     size_t elem, size_t init);

/* ---- diagnostics ------------------------------------------------------- */

/* Format the message and send one diagnostic to the sink (if any). */
void vc4_diag_emit(const struct vc4_diag_sink *sink, enum vc4_severity sev,
                   enum vc4_diag_class cls, const char *unit,
                   const struct vc4_location *loc, const char *fmt, ...) VC4_PRINTF(6, 7);
void vc4_diag_emitv(const struct vc4_diag_sink *sink, enum vc4_severity sev,
                    enum vc4_diag_class cls, const char *unit,
                    const struct vc4_location *loc, const char *fmt, va_list ap) VC4_PRINTF(6, 0);
/* A rule violation: rule id and source are carried in the record. */
void vc4_diag_rule(const struct vc4_diag_sink *sink, enum vc4_severity sev, const char *unit,
                   const char *rule, const char *source, const struct vc4_location *loc,
                   const char *fmt, ...) VC4_PRINTF(7, 8);
void vc4_diag_rulev(const struct vc4_diag_sink *sink, enum vc4_severity sev, const char *unit,
                    const char *rule, const char *source, const struct vc4_location *loc,
                    const char *fmt, va_list ap) VC4_PRINTF(7, 0);

/* ---- growable buffer --------------------------------------------------- */

struct vc4_buf {
    uint8_t *data;
    size_t len, cap;
    const struct vc4_allocator *alloc;
    bool failed; /* an allocation failed; further appends are dropped */
};

void vc4_buf_init(struct vc4_buf *b, const struct vc4_allocator *alloc);
void vc4_buf_free(struct vc4_buf *b);
bool vc4_buf_reserve(struct vc4_buf *b, size_t extra);
bool vc4_buf_append(struct vc4_buf *b, const void *p, size_t n);
bool vc4_buf_printf(struct vc4_buf *b, const char *fmt, ...) VC4_PRINTF(2, 3);
/* NUL-terminated view of a text buffer (always valid unless failed). */
const char *vc4_buf_cstr(struct vc4_buf *b);

/* ---- bounded text output (snprintf-style, for disassemblers) ----------- */

struct vc4_out {
    char *buf;
    size_t size;
    size_t len; /* length the full text needs */
};

void vc4_out_init(struct vc4_out *o, char *buf, size_t size);
void vc4_out_printf(struct vc4_out *o, const char *fmt, ...) VC4_PRINTF(2, 3);
/* Without printf (hot paths): n bytes, a string, one character, decimal,
 * hex digits (lower case, no prefix, at least min_digits).  The common case
 * (the text fits) is inline; the rest truncates like snprintf. */
void vc4_out_putn_slow(struct vc4_out *o, const char *s, size_t n);
static inline void vc4_out_putn(struct vc4_out *o, const char *s, size_t n)
{
    if (VC4_LIKELY(o->len + n < o->size)) {
        memcpy(o->buf + o->len, s, n);
        o->len += n;
        o->buf[o->len] = 0;
    } else {
        vc4_out_putn_slow(o, s, n);
    }
}
static inline void vc4_out_puts(struct vc4_out *o, const char *s)
{
    vc4_out_putn(o, s, strlen(s));
}
static inline void vc4_out_putc(struct vc4_out *o, char c)
{
    vc4_out_putn(o, &c, 1);
}
void vc4_out_uint(struct vc4_out *o, uint64_t v);
void vc4_out_int(struct vc4_out *o, int64_t v);
void vc4_out_hex(struct vc4_out *o, uint64_t v, unsigned min_digits);

/* ---- little-endian memory helpers -------------------------------------- */

static inline uint16_t vc4_le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t vc4_le32(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* (one load: GCC does not always merge the four bytes below, e.g. in
     * the texture sampler's texel reads) */
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
#else
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
#endif
}
static inline void vc4_st16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void vc4_st32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

/* Bit helpers for field extraction described by tables. */
static inline uint32_t vc4_bits(uint64_t v, unsigned shift, unsigned width)
{
    return (uint32_t)((v >> shift) & ((UINT64_C(1) << width) - 1));
}

static inline uint32_t vc4_f2u(float f) { union { float f; uint32_t u; } x = {.f = f}; return x.u; }
static inline float vc4_u2f(uint32_t u) { union { float f; uint32_t u; } x = {.u = u}; return x.f; }

#endif
