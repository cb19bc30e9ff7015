/*
 * test_kernel_shader.c - the Linux kernel's shader rules (isa/qpu_kernel.c,
 * vc4_validate_shaders.c): for every kernel-* shader rule a program the
 * kernel refuses and one it accepts, both written with the assembler; what
 * the validation records (uniform bytes, texture lookups and their
 * parameter offsets, uniform-address reset points, threading); the thread
 * mode check of vc4_qpu_validate's kernel_rules; the seed shaders pass.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include <dirent.h>

#include "harness.h"
#include "isa/qpu_kernel.h"
#include "vc4kit/qpu.h"

#ifndef VC4KIT_SOURCE_DIR
#define VC4KIT_SOURCE_DIR VC4KIT_TEST_DATA "/../.."
#endif

#define TAIL "nop; thrend\nnop\nnop\n"

struct got {
    const char *rule; /* the first rule reported */
    unsigned n;
    char text[1024];
};

static void got_fn(void *user, const struct vc4_diag *d)
{
    struct got *g = user;
    if (!g->n++) {
        g->rule = d->rule;
        vc4_diag_format(d, g->text, sizeof g->text);
    }
}

/* Counts kernel-* findings (the hardware rules may report others). */
struct kfound {
    unsigned kernel, total;
    char text[1024];
};

static void got_kernel_fn(void *user, const struct vc4_diag *d)
{
    struct kfound *k = user;
    k->total++;
    if (d->rule && !strncmp(d->rule, "kernel-", 7) && !k->kernel++)
        vc4_diag_format(d, k->text, sizeof k->text);
}

/* Assemble src into at most cap words; the count. */
static size_t assemble(const char *src, uint64_t *w, size_t cap)
{
    struct vc4_asm_options o = {.sink = {NULL, NULL}};
    struct vc4_asm *as = vc4_asm_create(&o);
    size_t n = 0, size = 0;
    bool ok = as && vc4_asm_source(as, "k.qasm", src, strlen(src)) == VC4_OK;
    CHECK_MSG(ok, "does not assemble:\n%s", src);
    if (ok) {
        const uint8_t *p = vc4_asm_output(as, &size);
        for (; n < size / 8 && n < cap; n++)
            w[n] = vc4_qpu_load_le(p + 8 * n);
    }
    vc4_asm_destroy(as);
    return n;
}

/* Validate words; the status, the first rule in *g. */
static enum vc4_status kcheck_words(const uint64_t *w, size_t n, struct got *g, struct vc4_kshader_info *info)
{
    memset(g, 0, sizeof *g);
    struct vc4_diag_sink sink = {got_fn, g};
    enum vc4_status st = vc4_kshader_validate(w, n, NULL, NULL, &sink, info);
    CHECK_EQ_INT(g->n, st == VC4_OK ? 0u : 1u); /* the kernel stops at the first */
    return st;
}

static void refused(const char *rule, const char *src)
{
    uint64_t w[64];
    size_t n = assemble(src, w, 64);
    struct got g;
    CHECK_EQ_INT(kcheck_words(w, n, &g, NULL), VC4_ERR_RULE);
    CHECK_MSG(g.rule && !strcmp(g.rule, rule), "wanted %s for:\n%s\ngot: %s", rule, src, g.text);
}

static void accepted(const char *src)
{
    uint64_t w[64];
    size_t n = assemble(src, w, 64);
    struct got g;
    CHECK_MSG(kcheck_words(w, n, &g, NULL) == VC4_OK, "refused:\n%s\n%s", src, g.text);
}

static void test_end(void)
{
    refused("kernel-shader-end", "mov r0, r1\nnop\n");
    refused("kernel-shader-end", "mov r0, r1\nnop; thrend\nnop\n"); /* a delay slot outside the BO */
    accepted("mov r0, r1\n" TAIL);
    accepted(TAIL "nop; bkpt\n"); /* past the end nothing is looked at */
}

static void test_signals(void)
{
    refused("kernel-signal", "nop; bkpt\n" TAIL);
    refused("kernel-signal", "nop; loadcv\n" TAIL);
    refused("kernel-signal", "nop; loadam\n" TAIL);
    refused("kernel-signal", "nop\nnop; ldcend\nnop\nnop\n");
    accepted("nop; sbwait\nnop; loadc\nnop; ldtmu0\nnop; ldtmu1\nnop; sbdone\nmov r0, 1\nldi r1, 5\n" TAIL);
}

static void test_waddr(void)
{
    refused("kernel-waddr", "mov irq, 1\n" TAIL);
    refused("kernel-waddr", "mov tmurs, 1\n" TAIL);
    refused("kernel-waddr", "mov tlbam, r0\n" TAIL);
    refused("kernel-waddr", "mov mutex, r0\n" TAIL);
    refused("kernel-waddr", "mov vr_addr, r0\n" TAIL);
    refused("kernel-waddr", "mov vw_addr, r0\n" TAIL);
    accepted("mov r0, r1\nmov ra3, r1\nmov rb30, r1\nmov tlbz, r0\nmov tlbc, r0\nmov tlbm, r0\n"
             "mov vw_setup, r0\nmov vr_setup, r0\nmov vpm, r0\nmov recip, r0\nmov stencil, r0\n" TAIL);
}

static void test_tmu_setup(void)
{
    refused("kernel-tmu-setup", "mov t0t, r0; mov t1s, r1\n" TAIL);
    refused("kernel-tmu-setup", "mov t0t, unif\nmov t0s, r0\n" TAIL);
    refused("kernel-tmu-setup", "mov t0t, r0\nmov t0r, r0\nmov t0b, r0\nmov t0t, r0\nmov t0s, r0\n" TAIL);
    accepted("mov t0t, r0\nmov t0r, r0\nmov t0b, r0\nmov t0s, r0\nmov r1, unif\nmov t1t, r0\nmov t1s, r0\n" TAIL);
}

static void test_direct_lookup(void)
{
    refused("kernel-direct-lookup", "add t0s, r2, unif\n" TAIL);         /* not clamped */
    refused("kernel-direct-lookup", "max r2, r2, 0\nadd t0s, r2, unif\n" TAIL); /* no upper clamp */
    refused("kernel-direct-lookup", "min r2, r2, unif\nadd t0s, r2, unif\n" TAIL); /* no lower clamp */
    refused("kernel-direct-lookup", "max r2, r2, 0\nmin r2, r2, unif\nadd t0s, unif, r2\n" TAIL); /* order */
    refused("kernel-direct-lookup", "max r2, r2, 0\nmin r2, r2, unif\nsub t0s, r2, unif\n" TAIL);
    refused("kernel-direct-lookup", "max r2, r2, 0\nmin r2, r2, unif\nadd t0s, r2, r1\n" TAIL);
    refused("kernel-direct-lookup", "add t0s, r2, 1\n" TAIL);
    /* the clamp is forgotten when the register is written again */
    refused("kernel-direct-lookup", "max r2, r2, 0\nmin r2, r2, unif\nmov r2, r1\nadd t0s, r2, unif\n" TAIL);
    accepted("max r2, r2, 0\nmin r2, r2, unif\nadd t0s, r2, unif\n" TAIL);
    accepted("max ra4, r1, 0\nmin rb5, ra4, unif\nnop\nadd t1s, rb5, unif\n" TAIL);
}

static void test_uniform_address(void)
{
    refused("kernel-uniform-address", "mov unif_addr_rel, r0\n" TAIL);
    refused("kernel-uniform-address", "ldi r0, 8\nadd unif_addr, r0, unif\n" TAIL);  /* not 0 + 4 */
    refused("kernel-uniform-address", "mov unif_addr, unif\n" TAIL);
    refused("kernel-uniform-address", "ldi r0, 4\nadd.ifz unif_addr, r0, unif\n" TAIL);
    refused("kernel-uniform-address", "ldi r0, 4\nadd unif_addr, r0, r1\n" TAIL);
    refused("kernel-uniform-address", "ldi r0, 4\nnop; fmul unif_addr, r0, unif\n" TAIL);
    refused("kernel-uniform-address", "ldi r0, 4\nadd unif_addr, r0, unif; thrsw\n" TAIL);
    accepted("ldi r0, 4\nadd unif_addr, r0, unif\n" TAIL);
    accepted("mov r1, unif\nmov r2, unif\nldi r0, 12\nadd unif_addr, r0, unif\nmov r3, unif\n" TAIL);
}

static void test_branches(void)
{
    const char *loop = "brr -, r:1f\nnop\nnop\nnop\n:1\n";
    char src[512];
    /* after a branch target the uniform address is undefined until reset */
    snprintf(src, sizeof src, "%smov r0, unif\n" TAIL, loop);
    refused("kernel-uniform-undefined", src);
    snprintf(src, sizeof src, "%smov t0t, r0\nmov t0s, r1\n" TAIL, loop);
    refused("kernel-uniform-undefined", src);
    snprintf(src, sizeof src, "%sldi r1, 4\nadd unif_addr, r1, unif\nmov r0, unif\nmov t0t, r1\nmov t0s, r1\n" TAIL, loop);
    accepted(src);
    snprintf(src, sizeof src, "%smov r0, r1\n" TAIL, loop);
    accepted(src);

    refused("kernel-branch-form", "bra -, 0x100\nnop\nnop\nnop\n" TAIL);
    refused("kernel-branch-form", "brr -, ra5, 0\nnop\nnop\nnop\n" TAIL);
    refused("kernel-branch-form", "brr ra0, r:1f\nnop\nnop\nnop\n:1\n" TAIL);
    refused("kernel-branch-form", "brr -, r:1f\nbrr -, r:1f\nnop\nnop\nnop\n:1\n" TAIL);
    uint64_t w[16];
    size_t n = assemble("brr -, +8\nnop\nnop\nnop\nnop\n" TAIL, w, 16);
    w[0] = (w[0] & ~UINT64_C(0xFFFFFFFF)) | 4u; /* a target that is not a whole instruction */
    struct got g;
    CHECK_EQ_INT(kcheck_words(w, n, &g, NULL), VC4_ERR_RULE);
    CHECK_STR(g.rule, "kernel-branch-form");

    refused("kernel-branch-target", "brr -, +0x1000\nnop\nnop\nnop\n" TAIL);
    refused("kernel-branch-target", "brr -, -0x100\nnop\nnop\nnop\n" TAIL);
    refused("kernel-branch-target", "nop; thrend\nbrr -, -32\nnop\n");        /* falls through past the end */
    refused("kernel-branch-target", "mov t0t, r0\nbrr -, r:1f\nnop\nnop\nnop\n:1\nmov t0s, r0\n" TAIL);
    /* a loop back to the start: its uniforms address is one more uniform */
    struct vc4_kshader_info info;
    n = assemble(":0\nmov r0, r1\nbrr.anyz -, r:0b\nnop\nnop\nnop\n" TAIL, w, 16);
    CHECK_EQ_INT(kcheck_words(w, n, &g, &info), VC4_OK);
    CHECK_EQ_INT(info.num_uniform_addr_offsets, 1);
    CHECK_EQ_INT(info.uniforms_size, 4);
    vc4_kshader_info_fini(NULL, &info);
}

static void test_threads(void)
{
    refused("kernel-thrsw-spacing", "nop; thrsw\nnop; thrsw\n" TAIL);
    refused("kernel-thrsw-spacing", "nop; thrsw\nnop\nnop; lthrsw\n" TAIL);
    refused("kernel-thrsw-spacing", "nop; thrsw\nbrr -, r:1f\nnop\nnop\nnop\n:1\n" TAIL);
    accepted("nop; thrsw\nnop\nnop\nnop; lthrsw\n" TAIL);
    refused("kernel-threaded-upper-regs", "nop; thrsw\nnop\nnop\nmov ra16, r0\n" TAIL);
    refused("kernel-threaded-upper-regs", "mov r0, rb31\nnop; thrsw\nnop\nnop\n" TAIL);
    accepted("mov ra16, r0\nmov r0, rb31\n" TAIL); /* no thread switch: the whole file */
    accepted("nop; thrsw\nnop\nnop\nmov ra15, r0\nmov r1, rb15\n" TAIL);
}

/* What a shader BO tells the submit. */
static void test_recorded(void)
{
    uint64_t w[32];
    size_t n = assemble("mov r1, unif\n"
                        "mov t0t, r0\n"
                        "mov t0s, r1\n"
                        "max r2, r2, 0\n"
                        "min r2, r2, unif\n"
                        "add t1s, r2, unif\n"
                        "ldi r3, 24\n"
                        "add unif_addr, r3, unif\n"
                        "nop; thrsw\nnop\nnop\n" TAIL, w, 32);
    struct got g;
    struct vc4_kshader_info info;
    CHECK_EQ_INT(kcheck_words(w, n, &g, &info), VC4_OK);
    /* uniforms: r1 (0), t0t (4), t0s (8), min (12), add base (16), unif_addr base (20) */
    CHECK_EQ_INT(info.uniforms_size, 24);
    CHECK_EQ_INT(info.num_samples, 2);
    CHECK_EQ_INT(info.uniforms_src_size, 24 + 8);
    if (info.num_samples == 2) {
        CHECK_EQ_INT(info.samples[0].p_offset[0], 4);
        CHECK_EQ_INT(info.samples[0].p_offset[1], 8);
        CHECK_EQ_INT(info.samples[0].p_offset[2], VC4_KSHADER_NO_OFFSET);
        CHECK(!info.samples[0].is_direct);
        CHECK(info.samples[1].is_direct);
        CHECK_EQ_INT(info.samples[1].p_offset[0], 16);
        CHECK_EQ_INT(info.samples[1].p_offset[1], 12); /* the clamp uniform */
    }
    CHECK_EQ_INT(info.num_uniform_addr_offsets, 1);
    if (info.num_uniform_addr_offsets)
        CHECK_EQ_INT(info.uniform_addr_offsets[0], 5);
    CHECK(info.is_threaded);
    vc4_kshader_info_fini(NULL, &info);
}

/* vc4_qpu_validate with kernel_rules: the kernel's rules after the
 * hardware's, and the fragment shader's thread mode. */
static void test_validate_option(void)
{
    uint64_t w[16];
    struct got g;
    size_t n = assemble("nop; thrsw\nnop\nnop\n" TAIL, w, 16);
    struct vc4_diag_sink sink = {got_fn, &g};
    struct vc4_validate_options o = {.kind = VC4_SHADER_FRAGMENT, .kernel_rules = true};
    unsigned v = 0;
    memset(&g, 0, sizeof g);
    CHECK_EQ_INT(vc4_qpu_validate(w, n, &o, &sink, &v), VC4_ERR_RULE);
    CHECK_STR(g.rule, "kernel-thread-mode");
    o.threaded = true;
    memset(&g, 0, sizeof g);
    CHECK_EQ_INT(vc4_qpu_validate(w, n, &o, &sink, &v), VC4_OK);
    n = assemble("mov r0, r1\n" TAIL, w, 16);
    memset(&g, 0, sizeof g);
    CHECK_EQ_INT(vc4_qpu_validate(w, n, &o, &sink, &v), VC4_ERR_RULE);
    CHECK_STR(g.rule, "kernel-thread-mode");
    o.threaded = false;
    memset(&g, 0, sizeof g);
    CHECK_EQ_INT(vc4_qpu_validate(w, n, &o, &sink, &v), VC4_OK);
    /* without kernel_rules the kernel's refusals are not reported */
    n = assemble("mov irq, 1\n" TAIL, w, 16);
    o.kernel_rules = false;
    memset(&g, 0, sizeof g);
    CHECK_EQ_INT(vc4_qpu_validate(w, n, &o, &sink, &v), VC4_OK);
    o.kernel_rules = true;
    memset(&g, 0, sizeof g);
    CHECK_EQ_INT(vc4_qpu_validate(w, n, &o, &sink, &v), VC4_ERR_RULE);
    CHECK_STR(g.rule, "kernel-waddr");
    CHECK_EQ_INT(v, 1);
}

/* Words of a .hex file: "0xLO, 0xHI" pairs; ';' starts a comment. */
static size_t read_hex(const char *path, uint64_t *w, size_t cap)
{
    char *text = harness_read_file(path, NULL);
    CHECK_MSG(text != NULL, "cannot read %s", path);
    if (!text)
        return 0;
    uint32_t half[2];
    size_t n = 0;
    int have = 0;
    for (char *p = text; *p;) {
        if (*p == ';') {
            while (*p && *p != '\n')
                p++;
        } else if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
            half[have++] = (uint32_t)strtoul(p, &p, 16);
            if (have == 2) {
                CHECK_MSG(n < cap, "%s: more than %zu words", path, cap);
                if (n < cap)
                    w[n++] = (uint64_t)half[1] << 32 | half[0];
                have = 0;
            }
        } else {
            p++;
        }
    }
    free(text);
    CHECK_MSG(have == 0, "%s: odd number of words", path);
    return n;
}

/* The seed shaders (hardware-tested; a GL pipeline's) satisfy the kernel. */
static void test_seeds(void)
{
    static const char *const seeds[] = {"gl_vertex_shader.hex", "gl_coordinate_shader.hex",
                                        "texture_fragment_shader.hex"};
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/examples/seeds/%s", VC4KIT_SOURCE_DIR, seeds[s]);
        uint64_t w[160];
        size_t n = read_hex(path, w, 157);
        if (s == 2) /* a snippet: give it the end a shader has */
            n += assemble(TAIL, w + n, 3);
        struct got g;
        CHECK_MSG(kcheck_words(w, n, &g, NULL) == VC4_OK, "%s: %s", seeds[s], g.text);
    }
}

/* Every program Mesa's vc4 compiler made for the gl-check cases
 * (tests/data/mesa, scripts/mesa-shaders.sh; threaded fragment shaders
 * among them) is accepted, as Linux accepts it; and, with their kinds and
 * threading, vc4_qpu_validate(kernel_rules) reports no kernel-* rule. */
static void test_mesa_shaders(void)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/mesa", VC4KIT_TEST_DATA);
    DIR *d = opendir(dir);
    CHECK_MSG(d != NULL, "cannot open %s", dir);
    if (!d)
        return;
    unsigned count = 0, threads = 0;
    static uint64_t w[4096];
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".hex"))
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n = read_hex(path, w, 4096);
        struct got g;
        struct vc4_kshader_info info;
        CHECK_MSG(kcheck_words(w, n, &g, &info) == VC4_OK, "%s: %s", e->d_name, g.text);
        bool threaded = info.is_threaded; /* Mesa's threaded fragment shaders (GET_PARAM says yes) */
        vc4_kshader_info_fini(NULL, &info);
        threads += threaded;
        bool frag = !strncmp(e->d_name, "fragment", 8);
        CHECK_MSG(frag || !threaded, "%s: a threaded vertex or coordinate shader", e->d_name);
        struct vc4_validate_options o = {.kind = frag ? VC4_SHADER_FRAGMENT : VC4_SHADER_ANY, .kernel_rules = true,
                                         .threaded = threaded};
        struct kfound k = {0};
        struct vc4_diag_sink sink = {got_kernel_fn, &k};
        unsigned v = 0;
        vc4_qpu_validate(w, n, &o, &sink, &v);
        CHECK_MSG(k.kernel == 0, "%s: %s", e->d_name, k.text);
        count++;
    }
    closedir(d);
    CHECK_MSG(count >= 20, "only %u Mesa programs in %s", count, dir);
    CHECK_MSG(threads >= 1, "no threaded fragment shader among Mesa's programs");
}

TEST_LIST(test_end, test_signals, test_waddr, test_tmu_setup, test_direct_lookup, test_uniform_address,
          test_branches, test_threads, test_recorded, test_validate_option, test_seeds,
          test_mesa_shaders)
