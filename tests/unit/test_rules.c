/*
 * test_rules.c - the rule registry (src/spec/rules.c) against the code and
 * docs/rules.md: every rule id the code can print is registered and
 * documented, every registered id is documented and used, and the reverse.
 *
 * How ids are found in the code: the library names a rule by its enumerator
 * (VC4_RULE_X, the id in capitals).  Any string literal in src/ that looks
 * like a rule id (lowercase words joined by '-') is either a rule id that
 * bypasses the registry or a new id not registered yet: both fail, with the
 * file and line, so whoever merges a branch that adds ids knows where to
 * look.  Strings of that shape that are not rule ids go in not_rule_ids[].
 */
#include <ctype.h>
#include <dirent.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "harness.h"
#include "spec/rules.h"
#include "vc4kit/qpu.h"

#define SRC_DIR VC4KIT_SOURCE_DIR "/src"
#define DOCS VC4KIT_SOURCE_DIR "/docs/rules.md"
#define REGISTRY "src/spec/rules.c"

/* Strings in src/ shaped like a rule id that are not one. */
static const char *const not_rule_ids[] = {
    "vc4kit-ram", /* mem.c: the memfd's name */
    "arm-mbox",   /* arm/mbox.c: a unit name */
    NULL,
};

static bool id_shaped(const char *s, size_t n)
{
    if (n < 3 || !islower((unsigned char)s[0]))
        return false;
    bool dash = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '-') {
            if (i + 1 == n || s[i + 1] == '-')
                return false;
            dash = true;
        } else if (!islower((unsigned char)c) && !isdigit((unsigned char)c)) {
            return false;
        }
    }
    return dash;
}

/* "regfile-read-after-write" -> "VC4_RULE_REGFILE_READ_AFTER_WRITE" */
static void enum_name(const char *id, char *out, size_t size)
{
    size_t n = (size_t)snprintf(out, size, "VC4_RULE_");
    for (; *id && n + 1 < size; id++)
        out[n++] = *id == '-' ? '_' : (char)toupper((unsigned char)*id);
    out[n] = 0;
}

static int registry_index(const char *id, size_t n)
{
    for (int i = 0; i < VC4_RULE_COUNT; i++)
        if (strlen(vc4_rule_table[i].id) == n && memcmp(vc4_rule_table[i].id, id, n) == 0)
            return i;
    return -1;
}

static bool allowed_non_rule(const char *s, size_t n)
{
    for (size_t i = 0; not_rule_ids[i]; i++)
        if (strlen(not_rule_ids[i]) == n && memcmp(not_rule_ids[i], s, n) == 0)
            return true;
    return false;
}

/* ---- the registry itself ------------------------------------------------------ */

static void test_registry_rows(void)
{
    size_t n = 0;
    const struct vc4_rule *r = vc4_rules(&n);
    CHECK(r == vc4_rule_table);
    CHECK_EQ_INT(n, VC4_RULE_COUNT);
    for (size_t i = 0; i < n; i++) {
        CHECK_MSG(r[i].id && r[i].summary && r[i].source && r[i].summary[0] && r[i].source[0],
                  "registry row %zu incomplete", i);
        if (!r[i].id)
            continue;
        CHECK_MSG(id_shaped(r[i].id, strlen(r[i].id)), "registry id \"%s\" is not lowercase-words-with-dashes",
                  r[i].id);
        CHECK_MSG(r[i].severity == VC4_ERROR || r[i].severity == VC4_WARNING ||
                      r[i].severity == VC4_NOTE, "rule %s: severity %d", r[i].id,
                  (int)r[i].severity);
        CHECK_MSG(vc4_rule_find(r[i].id) == &r[i], "rule %s: duplicate id or find() fails", r[i].id);
    }
    CHECK(vc4_rule_find("no-such-rule") == NULL);
    CHECK(vc4_rule_find(NULL) == NULL);
    /* the validator's rules are the registry's first rows */
    size_t nq = 0;
    CHECK(vc4_qpu_rules(&nq) == r);
    CHECK_EQ_INT(nq, VC4_RULE_QPU_STATIC_COUNT);
}

/* Each row of rules.c is "[VC4_RULE_X] = {"id", ...": X must spell the id. */
static void test_enumerator_names(void)
{
    char *text = harness_read_file(VC4KIT_SOURCE_DIR "/" REGISTRY, NULL);
    CHECK(text != NULL);
    if (!text)
        return;
    int rows = 0;
    for (const char *p = strstr(text, "\n    [VC4_RULE_"); p; p = strstr(p + 1, "\n    [VC4_RULE_")) {
        p += 5;
        const char *e = strchr(p, ']');
        const char *q = e ? strchr(e, '"') : NULL;
        const char *qe = q ? strchr(q + 1, '"') : NULL;
        if (!qe)
            break;
        char id[64] = {0}, want[96], got[96] = {0};
        memcpy(id, q + 1, (size_t)(qe - q - 1) < sizeof id - 1 ? (size_t)(qe - q - 1) : sizeof id - 1);
        memcpy(got, p + 1, (size_t)(e - p - 1) < sizeof got - 1 ? (size_t)(e - p - 1) : sizeof got - 1);
        enum_name(id, want, sizeof want);
        CHECK_MSG(strcmp(want, got) == 0, REGISTRY ": row %s has id \"%s\": name it %s", got, id, want);
        rows++;
    }
    CHECK_EQ_INT(rows, VC4_RULE_COUNT);
    free(text);
}

/* ---- the code ------------------------------------------------------------------ */

struct scan {
    bool used[VC4_RULE_COUNT]; /* enumerator referenced outside the registry */
    int files;
};

/* Blank out comments (keeping newlines, so line numbers hold). */
static void strip_comments(char *s)
{
    for (char *p = s; *p; p++) {
        if (*p == '"' || *p == '\'') {
            char q = *p;
            for (p++; *p && *p != q; p++)
                if (*p == '\\' && p[1])
                    p++;
            if (!*p)
                return;
        } else if (p[0] == '/' && p[1] == '*') {
            for (; *p && !(p[0] == '*' && p[1] == '/'); p++)
                if (*p != '\n')
                    *p = ' ';
            if (!*p)
                return;
            p[0] = p[1] = ' ';
            p++;
        } else if (p[0] == '/' && p[1] == '/') {
            for (; *p && *p != '\n'; p++)
                *p = ' ';
            if (!*p)
                return;
        }
    }
}

static void scan_file(struct scan *sc, const char *path, const char *rel)
{
    char *text = harness_read_file(path, NULL);
    CHECK_MSG(text != NULL, "cannot read %s", path);
    if (!text)
        return;
    sc->files++;
    strip_comments(text);
    bool registry = strcmp(rel, REGISTRY) == 0 || strcmp(rel, "src/spec/rules.h") == 0;
    unsigned line = 1;
    for (char *p = text; *p; p++) {
        if (*p == '\n') {
            line++;
        } else if (*p == '"') {
            char *b = p + 1, *e = b;
            while (*e && *e != '"' && *e != '\n')
                e += (*e == '\\' && e[1]) ? 2 : 1;
            size_t n = (size_t)(e - b);
            if (!registry && id_shaped(b, n) && !allowed_non_rule(b, n)) {
                char name[96], id[96] = {0};
                memcpy(id, b, n < sizeof id - 1 ? n : sizeof id - 1);
                enum_name(id, name, sizeof name);
                if (registry_index(b, n) < 0)
                    CHECK_MSG(0, "%s:%u: rule id \"%s\" is not in the registry: add a row [%s] to " REGISTRY
                              " (enum in src/spec/rules.h) and to docs/rules.md, and report it through "
                              "vc4_rule_report(..., %s, ...)",
                              rel, line, id, name, name);
                else
                    CHECK_MSG(0, "%s:%u: rule id \"%s\" written as a bare string: use %s (src/spec/rules.h)", rel,
                              line, id, name);
            }
            p = *e == '"' ? e : e - 1;
        } else if (!registry && strncmp(p, "VC4_RULE_", 9) == 0 && (p == text || !isalnum((unsigned char)p[-1]))) {
            char name[96] = {0};
            size_t n = 0;
            while (n + 1 < sizeof name && (isupper((unsigned char)p[n]) || isdigit((unsigned char)p[n]) ||
                                           p[n] == '_'))
                name[n] = p[n], n++;
            for (int i = 0; i < VC4_RULE_COUNT; i++) {
                char want[96];
                enum_name(vc4_rule_table[i].id, want, sizeof want);
                if (strcmp(want, name) == 0)
                    sc->used[i] = true;
            }
            p += n - 1;
        }
    }
    free(text);
}

static void scan_dir(struct scan *sc, const char *dir, const char *rel)
{
    DIR *d = opendir(dir);
    CHECK_MSG(d != NULL, "cannot open %s", dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024], r[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        snprintf(r, sizeof r, "%s/%s", rel, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        size_t len = strlen(e->d_name);
        if (S_ISDIR(st.st_mode))
            scan_dir(sc, path, r);
        else if (len > 2 && e->d_name[len - 2] == '.' && (e->d_name[len - 1] == 'c' || e->d_name[len - 1] == 'h'))
            scan_file(sc, path, r);
    }
    closedir(d);
}

static void test_code_uses_registry(void)
{
    struct scan sc = {0};
    scan_dir(&sc, SRC_DIR, "src");
    CHECK(sc.files > 50);
    /* the tools report a few rules of their own (vc4kit run: unif-read-past-end) */
    scan_dir(&sc, VC4KIT_SOURCE_DIR "/tools", "tools");
    for (int i = 0; i < VC4_RULE_COUNT; i++) {
        char name[96];
        enum_name(vc4_rule_table[i].id, name, sizeof name);
        CHECK_MSG(sc.used[i], REGISTRY ": rule \"%s\" (%s) is reported nowhere in src/ or tools/: remove it, or report it",
                  vc4_rule_table[i].id, name);
    }
}

/* ---- docs/rules.md ---------------------------------------------------------- */

/* Table rows "| `id` | ..." of docs/rules.md; every id must be registered
 * and every registered id must have a row. */
static void test_docs_list_every_rule(void)
{
    char *text = harness_read_file(DOCS, NULL);
    CHECK_MSG(text != NULL, "cannot read %s", DOCS);
    if (!text)
        return;
    int rows[VC4_RULE_COUNT] = {0};
    unsigned line = 1;
    for (char *p = text; *p;) {
        char *eol = strchr(p, '\n');
        if (strncmp(p, "| `", 3) == 0) {
            char *b = p + 3, *e = strchr(b, '`');
            if (e && (!eol || e < eol)) {
                size_t n = (size_t)(e - b);
                int k = registry_index(b, n);
                CHECK_MSG(k >= 0, "docs/rules.md:%u: rule id \"%.*s\" is not in the registry (" REGISTRY ")", line,
                          (int)n, b);
                if (k >= 0)
                    rows[k]++;
            }
        }
        if (!eol)
            break;
        p = eol + 1;
        line++;
    }
    for (int i = 0; i < VC4_RULE_COUNT; i++)
        CHECK_MSG(rows[i] == 1, "docs/rules.md: rule \"%s\" (" REGISTRY ") has %d table rows, wants 1",
                  vc4_rule_table[i].id, rows[i]);
    free(text);
}

/* The scanner finds what it should: a literal id, a new id, an enumerator. */
static void test_scanner_finds_ids(void)
{
    CHECK(id_shaped("vpm-read-count", 14));
    CHECK(id_shaped("pack-32s-op", 11));
    CHECK(!id_shaped("--max-cycles", 12));
    CHECK(!id_shaped("rgba8888", 8));
    CHECK(!id_shaped("Tile-Coords", 11));
    CHECK(!id_shaped("a--b", 4));
    char buf[] = "x = 1; /* \"fs-vpm-access\" */ y(\"a/*b\"); // \"tmu-load-empty\"\nz";
    strip_comments(buf);
    CHECK(strstr(buf, "fs-vpm-access") == NULL);
    CHECK(strstr(buf, "tmu-load-empty") == NULL);
    CHECK(strstr(buf, "\"a/*b\"") != NULL);
    CHECK(strchr(buf, '\n') != NULL);
    char name[96];
    enum_name("regfile-read-after-write", name, sizeof name);
    CHECK_STR(name, "VC4_RULE_REGFILE_READ_AFTER_WRITE");
}

TEST_LIST(test_registry_rows, test_enumerator_names, test_scanner_finds_ids, test_code_uses_registry,
          test_docs_list_every_rule)
