/*
 * harness.h - the unit-test harness: checks that count and report, and a
 * main() that runs the listed tests and prints "N passed, N failed".
 *
 *   static void test_x(void) { CHECK(1 + 1 == 2); CHECK_EQ_U64(a, b); }
 *   TEST_LIST(test_x, test_y)
 */
#ifndef VC4_TEST_HARNESS_H
#define VC4_TEST_HARNESS_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int harness_failures;      /* failures in the current test */
static const char *harness_test;  /* its name */

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            harness_failures++;                                                \
            fprintf(stderr, "%s:%d: %s: CHECK(%s) failed\n", __FILE__,         \
                    __LINE__, harness_test, #cond);                            \
        }                                                                      \
    } while (0)

#define CHECK_MSG(cond, ...)                                                   \
    do {                                                                       \
        if (!(cond)) {                                                         \
            harness_failures++;                                                \
            fprintf(stderr, "%s:%d: %s: ", __FILE__, __LINE__, harness_test);  \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
        }                                                                      \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                     \
    do {                                                                       \
        uint64_t ha_ = (uint64_t)(a), hb_ = (uint64_t)(b);                     \
        CHECK_MSG(ha_ == hb_, "%s == %s: 0x%" PRIx64 " != 0x%" PRIx64, #a, #b, \
                  ha_, hb_);                                                   \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                     \
    do {                                                                       \
        long long ha_ = (long long)(a), hb_ = (long long)(b);                  \
        CHECK_MSG(ha_ == hb_, "%s == %s: %lld != %lld", #a, #b, ha_, hb_);     \
    } while (0)

#define CHECK_STR(a, b)                                                        \
    do {                                                                       \
        const char *ha_ = (a), *hb_ = (b);                                     \
        CHECK_MSG(ha_ && hb_ && strcmp(ha_, hb_) == 0, "%s == %s: \"%s\" != \"%s\"", \
                  #a, #b, ha_ ? ha_ : "(null)", hb_ ? hb_ : "(null)");         \
    } while (0)

#define CHECK_CONTAINS(hay, needle)                                            \
    do {                                                                       \
        const char *ha_ = (hay), *hb_ = (needle);                              \
        CHECK_MSG(ha_ && strstr(ha_, hb_), "\"%s\" does not contain \"%s\"",   \
                  ha_ ? ha_ : "(null)", hb_);                                  \
    } while (0)

typedef void (*harness_fn)(void);
struct harness_entry { const char *name; harness_fn fn; };

static inline int harness_run(const struct harness_entry *t, size_t n, int argc, char **argv)
{
    int passed = 0, failed = 0;
    for (size_t i = 0; i < n; i++) {
        if (argc > 1 && !strstr(t[i].name, argv[1]))
            continue;
        harness_test = t[i].name;
        harness_failures = 0;
        t[i].fn();
        if (harness_failures) {
            failed++;
            fprintf(stderr, "FAIL %s (%d checks)\n", t[i].name, harness_failures);
        } else {
            passed++;
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

#define HARNESS_ENTRY(fn) {#fn, fn},
#define HARNESS_MAP1(m, x) m(x)
/* TEST_LIST(a, b, c): up to any count, via a compound literal. */
#define TEST_LIST(...)                                                         \
    static const harness_fn harness_fns[] = {__VA_ARGS__};                     \
    static const char harness_names[] = #__VA_ARGS__;                          \
    int main(int argc, char **argv)                                            \
    {                                                                          \
        enum { N = sizeof harness_fns / sizeof harness_fns[0] };               \
        struct harness_entry t[N];                                             \
        static char names[sizeof harness_names];                               \
        memcpy(names, harness_names, sizeof names);                            \
        char *save = names;                                                    \
        for (int i = 0; i < N; i++) {                                          \
            while (*save == ' ' || *save == ',' || *save == '\n' || *save == '\t') save++; \
            char *nm = save;                                                   \
            t[i].name = nm;                                                    \
            while (*save && *save != ',') save++;                              \
            if (*save) *save++ = 0;                                            \
            char *e = nm + strlen(nm);                                         \
            while (e > nm && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\t')) *--e = 0; \
            t[i].fn = harness_fns[i];                                          \
        }                                                                      \
        return harness_run(t, N, argc, argv);                                  \
    }

/* Read a whole file (for test data); NULL on failure. Caller frees. */
static inline char *harness_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *p = malloc(cap);
    size_t k;
    while (p && (k = fread(p + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (cap - n < 2) {
            char *q = realloc(p, cap *= 2);
            if (!q) { free(p); p = NULL; }
            else p = q;
        }
    }
    fclose(f);
    if (p) p[n] = 0;
    if (len) *len = n;
    return p;
}

/* Collects diagnostics into a text buffer, for assertions on messages. */
struct harness_diags { char text[8192]; size_t len; int errors, warnings; };

#include "vc4kit/diag.h"
static inline void harness_diag_fn(void *user, const struct vc4_diag *d)
{
    struct harness_diags *h = user;
    if (d->severity == VC4_ERROR) h->errors++;
    if (d->severity == VC4_WARNING) h->warnings++;
    if (h->len < sizeof h->text) {
        size_t n = vc4_diag_format(d, h->text + h->len, sizeof h->text - h->len);
        h->len += n;
        if (h->len < sizeof h->text - 1) { h->text[h->len++] = '\n'; h->text[h->len] = 0; }
        if (h->len >= sizeof h->text) h->len = sizeof h->text - 1;
    }
}
static inline struct vc4_diag_sink harness_sink(struct harness_diags *h)
{
    memset(h, 0, sizeof *h);
    return (struct vc4_diag_sink){harness_diag_fn, h};
}

#endif
