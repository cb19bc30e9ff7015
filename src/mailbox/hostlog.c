/*
 * hostlog.c - the host runtimes' reporting (hostlog.h): one behaviour for
 * the virtual Pi and the DRM backend.
 */
#include "mailbox/hostlog.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char *const level_names[] = {
    [VC4_HOSTLOG_OFF] = "off", [VC4_HOSTLOG_ERROR] = "error", [VC4_HOSTLOG_WARN] = "warn", [VC4_HOSTLOG_ALL] = "all"};

/* A 0 | 1 variable into *v (unset or empty: left as it is). */
static bool flag(const char *name, bool *v)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return true;
    if (strcmp(s, "0") && strcmp(s, "1"))
        return false;
    *v = s[0] == '1';
    return true;
}

bool vc4_hostlog_open(struct vc4_hostlog *l, char *why, size_t why_size)
{
    *l = (struct vc4_hostlog){.level = VC4_HOSTLOG_WARN, .out = stderr};
    const char *bad = NULL, *want = NULL, *s;
    if (!flag("VC4KIT_STATS", &l->stats))
        bad = "VC4KIT_STATS", want = "0 or 1";
    else if (!flag("VC4KIT_PROFILE", &l->profile))
        bad = "VC4KIT_PROFILE", want = "0 or 1";
    if (!bad && (s = getenv("VC4KIT_DIAG")) && *s) {
        unsigned i = 0;
        while (i < sizeof level_names / sizeof level_names[0] && strcmp(s, level_names[i]))
            i++;
        if (i == sizeof level_names / sizeof level_names[0])
            bad = "VC4KIT_DIAG", want = "off, error, warn or all";
        else
            l->level = (enum vc4_hostlog_level)i;
    }
    if (bad) {
        snprintf(why, why_size, "%s=%s: expected %s", bad, getenv(bad), want);
        return false;
    }
    if ((s = getenv("VC4KIT_DIAG_FILE")) && *s && !(l->out = fopen(s, "a"))) {
        snprintf(why, why_size, "VC4KIT_DIAG_FILE=%s: %s", s, strerror(errno));
        l->out = stderr;
        return false;
    }
    return true;
}

void vc4_hostlog_close(struct vc4_hostlog *l)
{
    if (l->out && l->out != stderr)
        fclose(l->out);
    l->out = stderr;
}

static bool level_shows(const struct vc4_hostlog *l, enum vc4_severity sev)
{
    switch (l->level) {
    case VC4_HOSTLOG_OFF: return false;
    case VC4_HOSTLOG_ERROR: return sev == VC4_ERROR;
    case VC4_HOSTLOG_WARN: return sev >= VC4_WARNING;
    case VC4_HOSTLOG_ALL: return true;
    }
    return true;
}

void vc4_hostlog_record(struct vc4_hostlog *l, const void *kind, const struct vc4_diag *d)
{
    /* (what the level hides is neither printed nor counted: notes must not
     * fill the table, nor make a correct program print "more diagnostics") */
    if (!level_shows(l, d->severity))
        return;
    int64_t addr = d->loc.addr;
    for (unsigned i = 0; i < l->nkeys; i++) {
        struct vc4_hostlog_key *k = &l->keys[i];
        if (k->kind == kind && k->cls == (int)d->cls && k->addr == addr) {
            k->count++;
            return;
        }
    }
    char text[1024];
    vc4_diag_format(d, text, sizeof text);
    fprintf(l->out, "vc4kit: %s\n", text);
    if (l->nkeys == VC4_HOSTLOG_KEYS) {
        l->unkeyed++;
        return;
    }
    struct vc4_hostlog_key *k = &l->keys[l->nkeys++];
    *k = (struct vc4_hostlog_key){.kind = kind, .cls = (int)d->cls, .addr = addr, .count = 1};
    /* what it is in the summary: the rule, else the call the message names
     * ("mem_free: ..."), else the unit */
    const char *colon = d->rule || !d->message ? NULL : strchr(d->message, ':');
    if (colon && colon - d->message < (ptrdiff_t)sizeof k->what)
        snprintf(k->what, sizeof k->what, "%.*s", (int)(colon - d->message), d->message);
    else
        snprintf(k->what, sizeof k->what, "%s", d->rule ? d->rule : d->unit ? d->unit : "emu");
}

void vc4_hostlog_sink(void *user, const struct vc4_diag *d)
{
    vc4_hostlog_record(user, d->rule ? (const void *)d->rule : (const void *)d->unit, d);
}

void vc4_hostlog_summary(struct vc4_hostlog *l)
{
    bool head = false;
    for (unsigned i = 0; i < l->nkeys; i++) {
        const struct vc4_hostlog_key *k = &l->keys[i];
        if (!head)
            fprintf(l->out, "vc4kit: at exit, the diagnostics above (each printed once) occurred:\n");
        head = true;
        if (k->addr >= 0)
            fprintf(l->out, "vc4kit:   %" PRIu64 " x %s at 0x%08" PRIx64 "\n", k->count, k->what, (uint64_t)k->addr);
        else
            fprintf(l->out, "vc4kit:   %" PRIu64 " x %s\n", k->count, k->what);
    }
    if (l->unkeyed)
        fprintf(l->out, "vc4kit: %" PRIu64 " more diagnostics of other kinds, printed but not itemised\n",
                l->unkeyed);
}

/* A report made by fn into a buffer of its size, to the log. */
static void put_report(struct vc4_hostlog *l, const struct vc4_emu *emu, const char *prefix,
                       enum vc4_status (*fn)(const struct vc4_emu *, const char *, char *, size_t, size_t *))
{
    size_t need = 0;
    fn(emu, prefix, NULL, 0, &need);
    char *text = malloc(need + 1);
    if (!text || fn(emu, prefix, text, need + 1, NULL) != VC4_OK)
        fprintf(l->out, "%s(out of memory)\n", prefix);
    else
        fputs(text, l->out);
    free(text);
}

void vc4_hostlog_stats(struct vc4_hostlog *l, const struct vc4_emu *emu)
{
    put_report(l, emu, "vc4kit stats: ", vc4_emu_stats_report);
}

#define PROFILE_TOP 30u

static enum vc4_status profile_top(const struct vc4_emu *emu, const char *prefix, char *buf, size_t size,
                                   size_t *needed)
{
    return vc4_emu_profile_report(emu, PROFILE_TOP, prefix, buf, size, needed);
}

void vc4_hostlog_profile(struct vc4_hostlog *l, const struct vc4_emu *emu)
{
    put_report(l, emu, "vc4kit: ", profile_top);
}
