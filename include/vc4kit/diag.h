/*
 * vc4kit/diag.h - status codes, diagnostic records and the caller's sink.
 *
 * The library never prints, exits or aborts on input.  Every operation that
 * can fail returns a vc4_status; the details go, as vc4_diag records, to a
 * sink the caller supplies.  A NULL sink (or a sink with a NULL callback)
 * discards diagnostics; the status still tells success from failure.
 */
#ifndef VC4KIT_DIAG_H
#define VC4KIT_DIAG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(VC4KIT_BUILDING) && defined(__GNUC__)
#define VC4_API __attribute__((visibility("default")))
#else
#define VC4_API
#endif

enum vc4_status {
    VC4_OK = 0,
    VC4_ERR_INVALID = -1, /* malformed input: source text, words, arguments */
    VC4_ERR_NOMEM = -2,   /* an allocation failed */
    VC4_ERR_RANGE = -3,   /* a value or address outside what the hardware has */
    VC4_ERR_IO = -4,      /* a file could not be read or written */
    VC4_ERR_RULE = -5,    /* a hardware rule was broken (strict mode) */
    VC4_ERR_TIMEOUT = -6, /* a cycle budget ran out */
    VC4_ERR_FAULT = -7,   /* the guest did something the hardware cannot */
    VC4_ERR_UNSUPPORTED = -8,
};

VC4_API const char *vc4_status_name(enum vc4_status s);

enum vc4_severity {
    VC4_NOTE,
    VC4_WARNING,
    VC4_ERROR,
};

/* What kind of problem a diagnostic reports. */
enum vc4_diag_class {
    VC4_DIAG_SYNTAX,   /* source text the assembler cannot read */
    VC4_DIAG_SEMANTIC, /* well-formed text that means nothing valid */
    VC4_DIAG_RULE,     /* a hardware programming rule (see vc4_diag.rule) */
    VC4_DIAG_FAULT,    /* a guest fault: bad address, invalid instruction */
    VC4_DIAG_TIMEOUT,  /* a cycle budget ran out */
    VC4_DIAG_IO,       /* host file access */
    VC4_DIAG_INFO,     /* informational: traces, statistics */
};

/*
 * Where a diagnostic points.  Fields that do not apply are 0 / NULL / -1:
 * source positions for the assembler, a byte address (+ QPU and thread) for
 * shader code and control lists.
 */
struct vc4_location {
    const char *file; /* source file name, or NULL */
    unsigned line;    /* 1-based; 0 = none */
    unsigned col;     /* 1-based; 0 = none */
    int64_t addr;     /* byte address / offset; -1 = none */
    int qpu;          /* QPU number; -1 = none */
    int thread;       /* QPU thread; -1 = none */
};

struct vc4_diag {
    enum vc4_severity severity;
    enum vc4_diag_class cls;
    const char *unit;    /* "asm", "validate", "qpu", "ct0", "vpm", ... */
    const char *rule;    /* rule id for VC4_DIAG_RULE, else NULL */
    const char *source;  /* where the rule comes from, else NULL */
    struct vc4_location loc;
    const char *message; /* one line, no trailing newline */
};

typedef void (*vc4_diag_fn)(void *user, const struct vc4_diag *diag);

struct vc4_diag_sink {
    vc4_diag_fn fn;
    void *user;
};

/*
 * One hardware programming rule: the registry (src/spec/rules.c) holds every
 * rule a diagnostic can name, the same ids docs/rules.md lists.  severity is
 * what breaking the rule does on hardware (error: garbage, lost data, a hang;
 * warning: unreliable, useless or not modelled).
 */
struct vc4_rule {
    const char *id;      /* short stable id, e.g. "thrend-regfile-write" */
    enum vc4_severity severity;
    const char *summary; /* the rule in one sentence */
    const char *source;  /* where it comes from: seed post, guide page, addendum, Mesa/Linux file */
};

/* Every rule; *count (if non-NULL) receives the number. */
VC4_API const struct vc4_rule *vc4_rules(size_t *count);
/* The rule with this id, or NULL. */
VC4_API const struct vc4_rule *vc4_rule_find(const char *id);

/* A location with every field "none". */
VC4_API struct vc4_location vc4_location_none(void);

/*
 * Format a diagnostic the way the vc4kit command prints it:
 *   file:line:col: error: message [rule]          (source positions)
 *   unit: 0x00000040: warning: message [rule]    (addresses)
 * Writes at most size bytes (NUL-terminated) and returns the length the full
 * text needs, like snprintf.
 */
VC4_API size_t vc4_diag_format(const struct vc4_diag *d, char *buf, size_t size);

/* Memory hooks: one realloc-style function (Lua's lua_Alloc). size 0 frees.
 * NULL everywhere means the C library's realloc/free. */
typedef void *(*vc4_alloc_fn)(void *user, void *ptr, size_t size);

struct vc4_allocator {
    vc4_alloc_fn fn;
    void *user;
};

#ifdef __cplusplus
}
#endif
#endif
