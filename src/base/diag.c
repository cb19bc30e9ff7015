/*
 * diag.c - status names and the one diagnostic format every tool prints.
 */
#include <inttypes.h>
#include <stdio.h>

#include "vc4kit/diag.h"

const char *vc4_status_name(enum vc4_status s)
{
    switch (s) {
    case VC4_OK: return "ok";
    case VC4_ERR_INVALID: return "invalid input";
    case VC4_ERR_NOMEM: return "out of memory";
    case VC4_ERR_RANGE: return "out of range";
    case VC4_ERR_IO: return "i/o error";
    case VC4_ERR_RULE: return "hardware rule broken";
    case VC4_ERR_TIMEOUT: return "cycle budget exhausted";
    case VC4_ERR_FAULT: return "guest fault";
    case VC4_ERR_UNSUPPORTED: return "unsupported";
    }
    return "unknown status";
}

struct vc4_location vc4_location_none(void)
{
    return (struct vc4_location){.file = NULL, .line = 0, .col = 0, .addr = -1, .qpu = -1, .thread = -1};
}

static const char *severity_name(enum vc4_severity s)
{
    switch (s) {
    case VC4_NOTE: return "note";
    case VC4_WARNING: return "warning";
    case VC4_ERROR: return "error";
    }
    return "error";
}

/* Appends like snprintf but keeps counting past the end of buf. */
static void put(char *buf, size_t size, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void put(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *at = *len < size ? buf + *len : NULL;
    int n = vsnprintf(at, at ? size - *len : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        *len += (size_t)n;
}

size_t vc4_diag_format(const struct vc4_diag *d, char *buf, size_t size)
{
    size_t len = 0;
    if (size)
        buf[0] = 0;
    const struct vc4_location *l = &d->loc;
    if (l->file && l->line) {
        put(buf, size, &len, "%s:%u:", l->file, l->line);
        if (l->col)
            put(buf, size, &len, "%u:", l->col);
        put(buf, size, &len, " ");
    } else {
        put(buf, size, &len, "%s:", d->unit ? d->unit : "vc4kit");
        if (l->qpu >= 0)
            put(buf, size, &len, " qpu%d", l->qpu);
        if (l->thread >= 0)
            put(buf, size, &len, " thread%d", l->thread);
        if (l->addr >= 0)
            put(buf, size, &len, " 0x%08" PRIx64 ":", (uint64_t)l->addr);
        put(buf, size, &len, " ");
    }
    put(buf, size, &len, "%s: %s", severity_name(d->severity), d->message ? d->message : "");
    if (d->rule) {
        put(buf, size, &len, " [%s", d->rule);
        if (d->source)
            put(buf, size, &len, "; %s", d->source);
        put(buf, size, &len, "]");
    }
    return len;
}
