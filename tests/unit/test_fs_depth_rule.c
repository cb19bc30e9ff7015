/*
 * test_fs_depth_rule.c - the fs-depth-without-tlb-z warning (issue 11):
 * without a TLB_Z write a fragment shader gets no depth and no stencil
 * test, so Configuration Bits that ask for Z updates or a real depth test,
 * or a TLB_STENCIL_SETUP write, have no effect; that is warned about, once.
 * It stays silent for the bare-metal demos' Configuration Bits 03 00 02
 * (depth function never, Z updates off: they draw on a Pi), for "always",
 * and for shaders that write TLB_Z (Mesa's way).  The golden scenes
 * (test_golden.c, test_gl.c) fail on any warning, so they show it silent
 * there too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "nv_scene.h"

#define RULE_ID "fs-depth-without-tlb-z"

/* TLB_STENCIL_SETUP for both faces (select 3, bits 31:30), function never */
static const char fs_stencil[] = SC_FS_VARYINGS_HEAD "ldi stencil, 0xC0000000\n" SC_FS_VARYINGS_TAIL;

static unsigned count(const char *text, const char *what)
{
    unsigned n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

/* The seed NV scene (varyings) with the Configuration Bits' bytes 1 and 2
 * set to b1, b2 and fragment shader fs (NULL: the scene's, no TLB_Z); the
 * diagnostics in l; returns the pixels not the clear colour. */
static size_t run(uint8_t b1, uint8_t b2, const char *fs, struct harness_diags *l)
{
    struct vc4_diag_sink sink = harness_sink(l);
    struct vc4_emu_options eo = {.sink = sink, .mem_size = 16u << 20};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    struct sc_params p = sc_default(true);
    p.fs = fs;
    uint32_t be = 0, re = 0;
    size_t drawn = 0;
    CHECK(emu && sc_build(emu, &p, sink, &be, &re));
    /* the scene's Configuration Bits: 96, 03 70 00 (function always) */
    uint8_t *bin = emu ? vc4_emu_mem_ptr(emu, SC_BIN_CL, be - SC_BIN_CL) : NULL;
    bool patched = false;
    for (uint32_t i = 0; bin && i + 3 < be - SC_BIN_CL; i++)
        if (bin[i] == 96 && bin[i + 1] == 0x03 && bin[i + 2] == 0x70 && bin[i + 3] == 0x00) {
            bin[i + 2] = b1, bin[i + 3] = b2;
            patched = true;
            break;
        }
    CHECK(patched);
    if (emu && sc_run(emu, be, re) == VC4_OK) {
        struct vc4_emu_frame f;
        vc4_emu_render_frame(emu, &f);
        uint8_t *rgba = f.valid ? malloc((size_t)f.width * f.height * 4) : NULL;
        if (rgba && vc4_emu_read_frame(emu, &f, rgba) == VC4_OK)
            for (size_t i = 0; i < (size_t)f.width * f.height; i++)
                drawn += rgba[4 * i] || rgba[4 * i + 1] || rgba[4 * i + 2];
        free(rgba);
    }
    vc4_emu_destroy(emu);
    return drawn;
}

/* The demos' 03 00 02 and "always": no warning, the triangle is drawn. */
static void test_silent(void)
{
    struct harness_diags l;
    CHECK(run(0x00, 0x02, NULL, &l) > 100000);
    CHECK_MSG(count(l.text, RULE_ID) == 0, "03 00 02:\n%s", l.text);
    CHECK(run(0x70, 0x00, NULL, &l) > 100000);
    CHECK_MSG(count(l.text, RULE_ID) == 0, "always:\n%s", l.text);
    /* a shader writing TLB_Z gets its test: no warning (function less, Z updates on) */
    run(0x90, 0x00, sc_fs_varyings_z, &l);
    CHECK_MSG(count(l.text, RULE_ID) == 0, "with TLB_Z:\n%s", l.text);
}

/* Z updates on, a depth function "less", a stencil setup: each warned
 * once per run (not per fragment), and the triangle still drawn (no test). */
static void test_warns_once(void)
{
    struct harness_diags l;
    CHECK(run(0xF0, 0x00, NULL, &l) > 100000); /* always, Z updates on */
    CHECK_EQ_U64(count(l.text, RULE_ID), 1);
    CHECK_CONTAINS(l.text, "no TLB_Z write before the first colour write");
    CHECK(run(0x10, 0x00, NULL, &l) > 100000); /* less, no updates */
    CHECK_EQ_U64(count(l.text, RULE_ID), 1);
    CHECK(run(0x70, 0x00, fs_stencil, &l) > 100000); /* always, TLB_STENCIL_SETUP written */
    CHECK_EQ_U64(count(l.text, RULE_ID), 1);
}

/* Regression (piglit's glsl-fs-discard-only under vc4kit exec): Mesa's
 * shaders with discard write TLB_Z and the colour under the discard
 * condition, so a batch that discards every pixel writes TLB_Z with no
 * element in the write.  That is a TLB_Z write (the instruction's): no
 * warning, and nothing drawn. */
static const char fs_all_discarded[] = SC_FS_VARYINGS_HEAD
    "mov.setf r3, 1      # Z clear everywhere: every element discarded\n"
    "mov.zs tlbz, rb15\n"
    "mov.zs tlbc, ra1\n"
    "nop; thrend\nnop\nnop; sbdone\n";

static void test_regression_all_discarded(void)
{
    struct harness_diags l;
    CHECK_EQ_U64(run(0x90, 0x00, fs_all_discarded, &l), 0); /* less, Z updates on */
    CHECK_MSG(count(l.text, RULE_ID) == 0, "every element discarded:\n%s", l.text);
    CHECK_MSG(l.warnings == 0 && l.errors == 0, "%s", l.text);
}

TEST_LIST(test_silent, test_warns_once, test_regression_all_discarded)
