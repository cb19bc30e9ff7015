/*
 * test_seed_explain.c - `--explain` tells the same story as the seed posts'
 * comments: for every instruction word in examples/seeds/ (every .hex file), the
 * operations, signal, destinations and immediates the post's comment names
 * appear in the explanation.
 */
#include <ctype.h>
#include <dirent.h>

#include "harness.h"
#include "vc4kit/qpu.h"

static char *lower(char *s)
{
    for (char *p = s; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return s;
}

/* Copies the text after key up to a ',' or end of line into out. */
static int after(const char *comment, const char *key, char *out, size_t size)
{
    const char *p = strstr(comment, key);
    if (!p)
        return 0;
    p += strlen(key);
    while (*p == ' ')
        p++;
    size_t n = 0;
    while (p[n] && p[n] != ',' && p[n] != '\n' && n + 1 < size)
        n++;
    memcpy(out, p, n);
    out[n] = 0;
    while (n && out[n - 1] == ' ')
        out[--n] = 0;
    return 1;
}

static int checked;

static void check_word(const char *file, const char *comment, uint64_t word)
{
    struct vc4_qpu_instr in;
    char exp[1024], want[128], c[2048];
    vc4_qpu_decode(word, &in);
    vc4_qpu_explain(&in, exp, sizeof exp);
    lower(exp);
    snprintf(c, sizeof c, "%s", comment);
    lower(c);
    checked++;
    /* "add pipe: Bitwise OR, R0, ..." -> the op's description */
    if (after(c, "add pipe:", want, sizeof want) && strcmp(want, "fadd") && strcmp(want, "fmul"))
        CHECK_MSG(strstr(exp, want), "%s: add op '%s' not in '%s'", file, want, exp);
    if (after(c, "mul pipe:", want, sizeof want) && strcmp(want, "fmul"))
        CHECK_MSG(strstr(exp, want), "%s: mul op '%s' not in '%s'", file, want, exp);
    if (strstr(c, "add op: no operation"))
        CHECK_MSG(strstr(exp, "add op: no operation"), "%s: add nop not in '%s'", file, exp);
    if (strstr(c, "mul op: no operation"))
        CHECK_MSG(strstr(exp, "mul op: no operation"), "%s: mul nop not in '%s'", file, exp);
    if (after(c, "signal:", want, sizeof want))
        CHECK_MSG(strstr(exp, want), "%s: signal '%s' not in '%s'", file, want, exp);
    /* load immediates: "add write addr: 49 (VPMVCD_WR_SETUP B)", "loaded 32 immediate is 0x17BC1AC2" */
    const char *wa = strstr(c, "add write addr:");
    if (wa) {
        const char *open = strchr(wa, '(');
        if (open) {
            snprintf(want, sizeof want, "%s", open + 1);
            char *sp = strpbrk(want, " )");
            if (sp)
                *sp = 0;
            if (!strncmp(want, "acc", 3)) /* "ACC2 A" */
                CHECK_MSG(strstr(exp, want), "%s: dest '%s' not in '%s'", file, want, exp);
            else
                CHECK_MSG(strstr(exp, want), "%s: dest '%s' not in '%s'", file, want, exp);
        }
    }
    const char *li = strstr(c, "loaded 32 immediate is 0x");
    if (li) {
        snprintf(want, sizeof want, "%s", li + strlen("loaded 32 immediate is "));
        char *e = want;
        while (*e && !isspace((unsigned char)*e))
            e++;
        *e = 0;
        /* explanation prints 0x%08x */
        char padded[32];
        unsigned long v = strtoul(want, NULL, 16);
        snprintf(padded, sizeof padded, "0x%08lx", v);
        CHECK_MSG(strstr(exp, padded), "%s: immediate %s not in '%s'", file, padded, exp);
    }
}

static void test_seed_comments_match_explain(void)
{
    DIR *d = opendir(VC4KIT_SOURCE_DIR "/examples/seeds");
    CHECK(d != NULL);
    if (!d)
        return;
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".hex"))
            continue;
        char path[1024];
        snprintf(path, sizeof path, VC4KIT_SOURCE_DIR "/examples/seeds/%s", e->d_name);
        char *text = harness_read_file(path, NULL);
        CHECK(text != NULL);
        if (!text)
            continue;
        files++;
        char comment[4096] = "";
        size_t clen = 0;
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
            while (*line == ' ' || *line == '\t')
                line++;
            if (*line == ';') {
                size_t k = strlen(line);
                if (clen + k + 2 < sizeof comment) {
                    memcpy(comment + clen, line, k);
                    clen += k;
                    comment[clen++] = '\n';
                    comment[clen] = 0;
                }
            } else if (!strncmp(line, ".word", 5)) {
                unsigned long lo, hi;
                if (sscanf(line, ".word %lx, %lx", &lo, &hi) == 2)
                    check_word(e->d_name, comment, (uint64_t)hi << 32 | lo);
                clen = 0;
                comment[0] = 0;
            }
        }
        free(text);
    }
    closedir(d);
    CHECK_EQ_INT(files, 5);
    CHECK(checked >= 70);
}

TEST_LIST(test_seed_comments_match_explain)
