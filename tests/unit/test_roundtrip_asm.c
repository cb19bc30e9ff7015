/*
 * test_roundtrip_asm.c - the hard contract: as(dis(w)) == w for every word.
 * 10^6 pseudo-random words (fixed seed), biased toward every signal and
 * load-immediate mode, plus the seed shaders.
 */
#include "harness.h"

#include <dirent.h>

#include "vc4kit/qpu.h"

static uint64_t rng_state = UINT64_C(0x9E3779B97F4A7C15);
static uint64_t rng(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * UINT64_C(0x2545F4914F6CDD1D);
}

/* A word whose fields are biased toward meaningful values. */
static uint64_t biased_word(unsigned i)
{
    uint64_t w = rng();
    unsigned sig = i % 16; /* every signal equally often */
    w = (w & ~(UINT64_C(0xF) << 60)) | (uint64_t)sig << 60;
    uint64_t r = rng();
    if (sig == 14) {
        static const unsigned modes[] = {0, 1, 3, 4, 2, 5, 6, 7};
        unsigned m = modes[r % 8];
        w = (w & ~(UINT64_C(7) << 57)) | (uint64_t)m << 57;
    }
    if (r & 0x100) { /* make nops and '-' writes common */
        if (r & 0x200)
            w = (w & ~(UINT64_C(0x1F) << 24)); /* add nop */
        if (r & 0x400)
            w = (w & ~(UINT64_C(0x7) << 29)); /* mul nop */
        if (r & 0x800)
            w |= UINT64_C(39) << 38; /* waddr_add 39 */
        if (r & 0x1000)
            w |= UINT64_C(39) << 32;
    }
    if (r & 0x2000) /* small register numbers and shared read names */
        w = (w & ~(UINT64_C(0xFFF) << 12)) | (uint64_t)((r >> 20) % 64) << 18 |
            (uint64_t)((r >> 30) % 64) << 12;
    return w;
}

static int check_word(uint64_t w, uint32_t pc, int *reported)
{
    struct vc4_qpu_instr in, out;
    vc4_qpu_decode(w, &in);
    char text[512];
    vc4_qpu_disasm(&in, pc, 0, text, sizeof text);
    struct harness_diags d;
    struct vc4_diag_sink sink = harness_sink(&d);
    enum vc4_status st = vc4_qpu_assemble(text, pc, &out, &sink);
    uint64_t back = st == VC4_OK ? vc4_qpu_encode(&out) : ~w;
    if (back != w) {
        if ((*reported)++ < 20)
            fprintf(stderr, "word 0x%016llx -> \"%s\" -> %s 0x%016llx %s\n", (unsigned long long)w,
                    text, st == VC4_OK ? "ok" : "FAIL", (unsigned long long)back, d.text);
        return 1;
    }
    return 0;
}

static void test_roundtrip_random(void)
{
    int bad = 0, reported = 0;
    for (unsigned i = 0; i < 1000000; i++) {
        uint64_t w = (i & 1) ? biased_word(i >> 1) : rng();
        bad += check_word(w, (uint32_t)(rng() & 0xFFFF8), &reported);
    }
    CHECK_EQ_INT(bad, 0);
}

static void test_roundtrip_edges(void)
{
    int reported = 0, bad = 0;
    bad += check_word(VC4_QPU_NOP_WORD, 0, &reported);
    bad += check_word(0, 0, &reported);
    bad += check_word(~UINT64_C(0), 0, &reported);
    for (unsigned sig = 0; sig < 16; sig++)
        for (unsigned k = 0; k < 4096; k++) {
            uint64_t w = (uint64_t)sig << 60 | ((uint64_t)k * UINT64_C(0x0001000100010001) * 7919);
            bad += check_word(w, k * 8, &reported);
        }
    CHECK_EQ_INT(bad, 0);
}

/* Every word in the examples/seeds hex files disassembles and re-assembles identically. */
static void test_roundtrip_seeds(void)
{
    const char *dir = VC4KIT_SOURCE_DIR "/examples/seeds";
    DIR *dp = opendir(dir);
    CHECK(dp != NULL);
    if (!dp)
        return;
    int files = 0, words = 0, bad = 0, reported = 0;
    struct dirent *e;
    while ((e = readdir(dp))) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".hex"))
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text = harness_read_file(path, NULL);
        CHECK(text != NULL);
        if (!text)
            continue;
        files++;
        /* ".word 0xLO, 0xHI" pairs after the comments */
        char *p = text;
        uint32_t pc = 0;
        while ((p = strstr(p, "0x"))) {
            char *line_start = p;
            while (line_start > text && line_start[-1] != '\n')
                line_start--;
            if (*line_start == ';' || (line_start[0] == '/' && line_start[1] == '/')) {
                p += 2;
                continue;
            }
            unsigned long lo = strtoul(p, &p, 16);
            char *q = strstr(p, "0x");
            char *nl = strchr(p, '\n');
            if (!q || (nl && q > nl))
                break;
            unsigned long hi = strtoul(q, &p, 16);
            uint64_t w = (uint64_t)hi << 32 | (uint32_t)lo;
            words++;
            bad += check_word(w, pc, &reported);
            pc += 8;
        }
        free(text);
    }
    closedir(dp);
    CHECK(files >= 5);
    CHECK(words >= 20);
    CHECK_EQ_INT(bad, 0);
}

/* The whole-source path (its own encoder loop) gives the same words as the
 * line API for 20000 random words' disassembly. */
static void test_roundtrip_source(void)
{
    enum { N = 20000 };
    char *text = malloc((size_t)N * 200);
    uint64_t *words = malloc(N * sizeof *words);
    CHECK(text && words);
    if (!text || !words) {
        free(text);
        free(words);
        return;
    }
    size_t len = 0;
    for (unsigned i = 0; i < N; i++) {
        words[i] = (i & 1) ? biased_word(i) : rng();
        struct vc4_qpu_instr in;
        vc4_qpu_decode(words[i], &in);
        len += vc4_qpu_disasm(&in, i * 8u, 0, text + len, 190);
        text[len++] = '\n';
    }
    struct harness_diags d;
    struct vc4_asm_options o = {.sink = harness_sink(&d)};
    struct vc4_asm *as = vc4_asm_create(&o);
    CHECK_MSG(vc4_asm_source(as, "random.qasm", text, len) == VC4_OK, "%s", d.text);
    size_t n = 0;
    const uint8_t *out = vc4_asm_output(as, &n);
    CHECK_EQ_INT(n, (size_t)N * 8);
    int bad = 0;
    for (unsigned i = 0; out && i < N && (i + 1) * 8 <= n; i++)
        bad += vc4_qpu_load_le(out + i * 8) != words[i];
    CHECK_EQ_INT(bad, 0);
    vc4_asm_destroy(as);
    free(text);
    free(words);
}

TEST_LIST(test_roundtrip_edges, test_roundtrip_seeds, test_roundtrip_source, test_roundtrip_random)
