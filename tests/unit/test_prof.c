/*
 * test_prof.c - the QPU code profiler (prof.h; vc4_emu_profile and
 * vc4_emu_profile_report) on user programs whose time is known without it:
 * an ALU loop (every sample issuing, spread over the loop), a loop whose
 * length is the mean gap (spread all the same: the gaps vary), a QPU
 * blocked on a semaphore another releases after a known time, and TMU
 * lookups (samples stalled), code loaded again at an address, and seed
 * 000's GL scene (each shader sampled as its kind).  test_qpu_sleep.c checks the other half: the
 * QPUs do the same with the profiler on, and the samples are the same on
 * every engine.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "vc4kit/emu.h"
#include "vc4kit/qpu.h"

#ifndef VC4KIT_SOURCE_DIR
#define VC4KIT_SOURCE_DIR "."
#endif
#define VC4KIT_EXAMPLES_DIR VC4KIT_SOURCE_DIR "/examples"
#include "gl_scene.h"

#define CODE 0x1000u
#define CODE2 0x3000u
#define DATA 0x8000u

static struct harness_diags hd;

/* The end of a counted loop (r1 the count) and of a program. */
#define LOOP_TAIL "    sub.setf r1, r1, 1\n    brr.anynz -, r:loop\n    nop\n    nop\n    nop\n"
#define PROGRAM_END "    nop; thrend\n    nop\n    nop\n"

/* Assemble src at base into emu's memory; the bytes written. */
static size_t load_asm(struct vc4_emu *e, uint32_t base, const char *src)
{
    hd.len = 0;
    struct vc4_asm_options ao = {.base_addr = base, .sink = harness_sink(&hd)};
    struct vc4_asm *as = vc4_asm_create(&ao);
    size_t len = 0;
    if (as && vc4_asm_source(as, "prof", src, strlen(src)) == VC4_OK) {
        const uint8_t *code = vc4_asm_output(as, &len);
        vc4_emu_mem_write(e, base, code, len);
    }
    CHECK_MSG(len > 0, "assembly failed:\n%.*s", (int)hd.len, hd.text);
    vc4_asm_destroy(as);
    return len;
}

static struct vc4_emu *mk(bool profile)
{
    hd = (struct harness_diags){0};
    /* (16 MiB: the GL scene's frame and lists; nv_scene.h sc_render's size) */
    struct vc4_emu_options o = {.mem_size = 16u << 20, .sink = harness_sink(&hd), .profile = profile};
    return vc4_emu_create(&o);
}

static void start(struct vc4_emu *e, uint32_t code)
{
    vc4_emu_reg_write(e, VC4_V3D_SRQUA, DATA);
    vc4_emu_reg_write(e, VC4_V3D_SRQPC, code);
}

static uint64_t total(const struct vc4_emu_profile_entry *x)
{
    return x->issuing + x->stalled + x->blocked;
}

/* Every entry of the profile, by address (malloc'd; *n of them). */
static struct vc4_emu_profile_entry *entries(const struct vc4_emu *e, size_t *n)
{
    *n = vc4_emu_profile(e, NULL, 0, NULL);
    struct vc4_emu_profile_entry *p = calloc(*n ? *n : 1, sizeof *p);
    CHECK(p != NULL);
    if (p)
        CHECK_EQ_U64(vc4_emu_profile(e, p, *n, NULL), *n);
    return p;
}

/* The whole report, all instructions (malloc'd; NULL if it could not be made). */
static char *report_all(const struct vc4_emu *e)
{
    size_t need = 0;
    vc4_emu_profile_report(e, 0, NULL, NULL, 0, &need);
    char *text = malloc(need + 1);
    if (text && vc4_emu_profile_report(e, 0, NULL, text, need + 1, NULL) != VC4_OK) {
        free(text);
        text = NULL;
    }
    CHECK(text != NULL);
    return text;
}

/* 2000 iterations of a 6-instruction loop on one QPU: no waiting, so every
 * sample is issuing, one in about 61 cycles, each loop instruction's share
 * about a sixth. */
static const char *const alu_loop = ".include \"vc4.qinc\"\n"
                                    "    mov r0, 0\n"
                                    "    ldi r1, 2000\n"
                                    ":loop\n"
                                    "    add r0, r0, 1\n" LOOP_TAIL PROGRAM_END;

static void test_alu_loop(void)
{
    struct vc4_emu *e = mk(true);
    CHECK(e != NULL);
    if (!e)
        return;
    size_t len = load_asm(e, CODE, alu_loop);
    start(e, CODE);
    CHECK_EQ_INT(vc4_emu_run(e, 0), VC4_OK);
    struct vc4_emu_stats st;
    vc4_emu_stats(e, &st);
    struct vc4_emu_profile_entry p[64];
    struct vc4_emu_profile_totals t;
    size_t n = vc4_emu_profile(e, p, 64, &t);
    CHECK_EQ_U64(n, t.entries);
    CHECK_EQ_U64(t.dropped, 0);
    /* one busy QPU: a sample per gap of 31..91 cycles */
    CHECK_MSG(t.samples >= st.cycles / 91 && t.samples <= st.cycles / 31 + 1, "%llu samples in %llu cycles",
              (unsigned long long)t.samples, (unsigned long long)st.cycles);
    CHECK(t.samples > st.cycles / 61 * 8 / 10 && t.samples < st.cycles / 61 * 12 / 10);
    uint64_t sum = 0, in_loop = 0;
    for (size_t i = 0; i < n && i < 64; i++) {
        CHECK(i == 0 || p[i].pc > p[i - 1].pc); /* by address */
        CHECK(p[i].pc >= CODE && p[i].pc < CODE + len);
        CHECK_EQ_U64(p[i].stalled + p[i].blocked, 0);
        CHECK_EQ_INT(p[i].kind, VC4_EMU_PROG_USER);
        uint8_t w[8];
        CHECK_EQ_INT(vc4_emu_mem_read(e, p[i].pc, w, 8), VC4_OK);
        CHECK_EQ_U64(p[i].word, vc4_qpu_load_le(w));
        sum += total(&p[i]);
        if (p[i].pc >= CODE + 16 && p[i].pc < CODE + 16 + 6 * 8) {
            in_loop += total(&p[i]);
            CHECK_MSG(total(&p[i]) > t.samples / 10, "loop instruction 0x%x: %llu of %llu samples", p[i].pc,
                      (unsigned long long)total(&p[i]), (unsigned long long)t.samples);
        }
    }
    CHECK_EQ_U64(sum, t.samples);
    CHECK(in_loop >= t.samples - 2); /* (the few instructions around the loop: a sample at most each) */

    /* the report: header, then the loop's six lines by samples, all issuing */
    size_t need = 0;
    CHECK_EQ_INT(vc4_emu_profile_report(e, 3, "# ", NULL, 0, &need), VC4_ERR_RANGE);
    char *text = malloc(need + 1);
    CHECK(text != NULL);
    if (text) {
        size_t need2 = 0;
        CHECK_EQ_INT(vc4_emu_profile_report(e, 3, "# ", text, need + 1, &need2), VC4_OK);
        CHECK_EQ_U64(need2, need);
        char head[160];
        snprintf(head, sizeof head, "# profile: %llu samples of busy QPUs (one about every 61 cycles) at %llu "
                 "instructions: issuing 100.0%%, stalled on a unit 0.0%%, blocked on another QPU 0.0%%\n",
                 (unsigned long long)t.samples, (unsigned long long)n);
        CHECK(strncmp(text, head, strlen(head)) == 0);
        CHECK_CONTAINS(text, "#   share  issuing  stalled  blocked  address     kind        instruction\n");
        CHECK_CONTAINS(text, "  user        add r0, r0, 1");
        CHECK_CONTAINS(text, "add r0, r0, 1");
        CHECK_CONTAINS(text, "more instructions\n");
        unsigned lines = 0;
        for (const char *c = text; *c; c++)
            lines += *c == '\n';
        CHECK_EQ_INT(lines, 1 + 1 + 3 + 1); /* header, column names, top 3, the rest */
        /* truncated as snprintf */
        char small[20];
        CHECK_EQ_INT(vc4_emu_profile_report(e, 3, "# ", small, sizeof small, &need2), VC4_ERR_RANGE);
        CHECK_EQ_U64(need2, need);
        CHECK(memcmp(small, text, sizeof small - 1) == 0 && small[sizeof small - 1] == 0);
    }
    free(text);

    /* a reset clears the samples */
    vc4_emu_reset(e);
    CHECK_EQ_U64(vc4_emu_profile(e, NULL, 0, &t), 0);
    CHECK_EQ_U64(t.samples, 0);
    vc4_emu_destroy(e);
}

/* A loop exactly as long as the mean gap (61 cycles): fixed gaps would
 * find it at one instruction every time; the varying ones spread over it. */
static void test_no_aliasing(void)
{
    struct vc4_emu *e = mk(true);
    if (!e)
        return;
    /* the loop: 61 instructions (56 nops, the sub, the branch and its 3
     * delay slots), issued one a cycle: 61 cycles */
    char src[4096];
    size_t k = (size_t)snprintf(src, sizeof src, ".include \"vc4.qinc\"\n    ldi r1, 400\n:loop\n");
    for (int i = 0; i < 56; i++)
        k += (size_t)snprintf(src + k, sizeof src - k, "    nop\n");
    snprintf(src + k, sizeof src - k, LOOP_TAIL PROGRAM_END);
    load_asm(e, CODE, src);
    start(e, CODE);
    CHECK_EQ_INT(vc4_emu_run(e, 0), VC4_OK);
    struct vc4_emu_profile_entry p[128];
    struct vc4_emu_profile_totals t;
    size_t n = vc4_emu_profile(e, p, 128, &t);
    uint64_t most = 0;
    for (size_t i = 0; i < n && i < 128; i++)
        most = total(&p[i]) > most ? total(&p[i]) : most;
    CHECK_MSG(n >= 40, "the samples fell on %zu of the loop's 61 instructions", n);
    CHECK_MSG(most * 8 < t.samples, "one instruction has %llu of %llu samples", (unsigned long long)most,
              (unsigned long long)t.samples);
    vc4_emu_destroy(e);
}

/* QPU 0 waits on semaphore 3, which QPU 1 releases after a loop of about
 * 6000 cycles: QPU 0's samples are blocked, at its sacq, about 6000 / 61 of
 * them. */
static void test_blocked_on_semaphore(void)
{
    struct vc4_emu *e = mk(true);
    if (!e)
        return;
    size_t a = load_asm(e, CODE, ".include \"vc4.qinc\"\n"
                                 "    sacq -, 3\n" PROGRAM_END);
    load_asm(e, CODE2, ".include \"vc4.qinc\"\n"
                       "    ldi r1, 1000\n"
                       ":loop\n" LOOP_TAIL
                       "    srel -, 3\n" PROGRAM_END);
    (void)a;
    start(e, CODE);
    start(e, CODE2);
    CHECK_EQ_INT(vc4_emu_run(e, 0), VC4_OK);
    struct vc4_emu_profile_entry p[64];
    struct vc4_emu_profile_totals t;
    size_t n = vc4_emu_profile(e, p, 64, &t);
    uint64_t at_sacq = 0, blocked_elsewhere = 0;
    for (size_t i = 0; i < n && i < 64; i++) {
        if (p[i].pc == CODE) {
            at_sacq = p[i].blocked;
            CHECK_EQ_U64(p[i].issuing + p[i].stalled, 0);
        } else {
            blocked_elsewhere += p[i].blocked;
        }
    }
    CHECK_MSG(at_sacq >= 5000 / 91 && at_sacq <= 6000 / 31 + 1, "%llu blocked samples at the sacq",
              (unsigned long long)at_sacq);
    CHECK_EQ_U64(blocked_elsewhere, 0);

    char *text = report_all(e);
    if (text) {
        CHECK_CONTAINS(text, "sacq");
        CHECK(strstr(text, "more instructions") == NULL); /* (top 0: all) */
        /* the sacq has the most samples: the first line after the column names */
        const char *first = strstr(text, "instruction\n");
        CHECK(first && strstr(first, "0x00001000") && strstr(first, "0x00001000") < strchr(first + 12, '\n'));
    }
    free(text);
    vc4_emu_destroy(e);
}

/* General TMU lookups followed at once by their loads: the QPU waits for
 * the data (the instruction after the ldtmu cannot issue: that is where the
 * stall is sampled). */
static void test_stalled_on_tmu(void)
{
    struct vc4_emu *e = mk(true);
    if (!e)
        return;
    load_asm(e, CODE, ".include \"vc4.qinc\"\n"
                      "    ldi r1, 300\n"
                      "    mov r2, elem_num\n"
                      "    shl r2, r2, 2\n"
                      "    ldi r3, 0x8000\n"
                      "    add r2, r2, r3\n"
                      ":loop\n"
                      "    mov t0s, r2\n"
                      "    nop; ldtmu0\n" LOOP_TAIL PROGRAM_END);
    start(e, CODE);
    CHECK_EQ_INT(vc4_emu_run(e, 0), VC4_OK);
    struct vc4_emu_stats st;
    vc4_emu_stats(e, &st);
    CHECK(st.stall_cycles > st.cycles / 4); /* (the loads wait most of the time) */
    struct vc4_emu_profile_entry p[64];
    struct vc4_emu_profile_totals t;
    size_t n = vc4_emu_profile(e, p, 64, &t);
    uint64_t stalled = 0, after_ldtmu = 0;
    for (size_t i = 0; i < n && i < 64; i++) {
        stalled += p[i].stalled;
        CHECK_EQ_U64(p[i].blocked, 0);
        if (p[i].pc == CODE + 7 * 8) /* the sub after the ldtmu */
            after_ldtmu = p[i].stalled;
    }
    CHECK(stalled > t.samples / 4);
    CHECK_EQ_U64(after_ldtmu, stalled);
    vc4_emu_destroy(e);
}

/* Code loaded again at the same address (as a GL program's shaders come
 * and go in buffers): the new instructions are entries of their own, each
 * with its own word, and the report disassembles each as it was. */
static void test_reloaded_code(void)
{
    struct vc4_emu *e = mk(true);
    if (!e)
        return;
    load_asm(e, CODE, alu_loop);
    start(e, CODE);
    CHECK_EQ_INT(vc4_emu_run(e, 0), VC4_OK);
    struct vc4_emu_profile_totals t1;
    size_t n1 = vc4_emu_profile(e, NULL, 0, &t1);
    char other[1024];
    snprintf(other, sizeof other, "%s", alu_loop);
    char *add = strstr(other, "add r0, r0, 1");
    CHECK(add != NULL);
    if (add)
        add[12] = '7'; /* add r0, r0, 7 */
    load_asm(e, CODE, other);
    start(e, CODE);
    CHECK_EQ_INT(vc4_emu_run(e, 0), VC4_OK);
    struct vc4_emu_profile_totals t;
    size_t n = vc4_emu_profile(e, NULL, 0, &t);
    CHECK_EQ_U64(n, t.entries);
    /* too small: nothing written */
    struct vc4_emu_profile_entry probe[64] = {{.pc = 0xABCDu}};
    CHECK(n - 1 <= 64);
    CHECK_EQ_U64(vc4_emu_profile(e, probe, n - 1, NULL), n);
    CHECK_EQ_U64(probe[0].pc, 0xABCDu);
    struct vc4_emu_profile_entry *p = entries(e, &n);
    if (!p)
        goto out;
    unsigned same_pc = 0;
    for (size_t i = 1; i < n; i++) {
        CHECK(p[i].pc > p[i - 1].pc || (p[i].pc == p[i - 1].pc && p[i].word > p[i - 1].word));
        same_pc += p[i].pc == p[i - 1].pc;
    }
    CHECK_EQ_INT(same_pc, 1); /* only the add's address has two words */
    CHECK_EQ_U64(n, n1 + 1);
    CHECK(t.samples > t1.samples);
    char *text = report_all(e);
    if (text) {
        CHECK_CONTAINS(text, "add r0, r0, 1");
        CHECK_CONTAINS(text, "add r0, r0, 7");
    }
    free(text);
    free(p);
out:
    vc4_emu_destroy(e);
}

/* A lit sphere in GL mode (examples/gl_cube_cs.qasm and gl_cube_vs.qasm
 * on 861 vertices, 1600 triangles, 160x120): its coordinate, vertex and
 * fragment shaders (at their own addresses) are each sampled as that
 * kind; no user program. */
#define STACKS 20u
#define SLICES 40u
static void test_gl_kinds(void)
{
    struct vc4_emu *e = mk(true);
    if (!e)
        return;
    static struct gl_mesh_vertex verts[(STACKS + 1) * (SLICES + 1)];
    static uint16_t idx[STACKS * SLICES * 6];
    gl_sphere_mesh(verts, idx, STACKS, SLICES);
    float mvp[16], model[16];
    gl_mvp(mvp, model, 0.6f, 0.4f, 0.0f, 0.0f, -3.5f, GL_PI / 3.0f, 160.0f / 120.0f, 1.0f, 10.0f);
    const float light[3] = {0.408248f, 0.816497f, 0.408248f};
    struct gl_lit l;
    CHECK(gl_lit_init(&l, VC4KIT_EXAMPLES_DIR, verts, (STACKS + 1) * (SLICES + 1), idx, STACKS * SLICES * 6, 160,
                      120, mvp, model, light));
    uint8_t *rgba = gl_render_on(e, &l.s, harness_sink(&hd));
    CHECK_MSG(rgba != NULL, "%.*s", (int)hd.len, hd.text);
    free(rgba);
    gl_lit_free(&l);
    size_t n = 0;
    struct vc4_emu_profile_entry *p = entries(e, &n);
    if (!p)
        goto out;
    uint64_t by_kind[VC4_EMU_PROG_KINDS] = {0};
    for (size_t i = 0; i < n; i++) {
        CHECK(p[i].kind < VC4_EMU_PROG_KINDS);
        if (p[i].kind >= VC4_EMU_PROG_KINDS)
            continue;
        by_kind[p[i].kind] += total(&p[i]);
        /* each kind's code where the scene put it (at most 4 KiB of it) */
        if (p[i].kind == VC4_EMU_PROG_COORD)
            CHECK(p[i].pc >= GL_CS_CODE && p[i].pc < GL_CS_CODE + 0x1000);
        if (p[i].kind == VC4_EMU_PROG_VERTEX)
            CHECK(p[i].pc >= GL_VS_CODE && p[i].pc < GL_VS_CODE + 0x1000);
        if (p[i].kind == VC4_EMU_PROG_FRAGMENT)
            CHECK(p[i].pc < GL_VS_CODE || p[i].pc >= GL_CS_CODE + 0x1000);
    }
    CHECK_EQ_U64(by_kind[VC4_EMU_PROG_USER], 0);
    struct vc4_emu_render_stats rs;
    vc4_emu_render_stats(e, &rs);
    printf("samples: coordinate %llu, vertex %llu, fragment %llu\n", (unsigned long long)by_kind[1],
           (unsigned long long)by_kind[2], (unsigned long long)by_kind[3]);
    for (unsigned k = VC4_EMU_PROG_COORD; k < VC4_EMU_PROG_KINDS; k++)
        /* a sample every 31..91 cycles of each busy QPU */
        CHECK_MSG(by_kind[k] > 0 && by_kind[k] * 31 <= rs.by_kind[k].cycles * 12 + 91 &&
                      by_kind[k] * 91 + 91 * 12 >= rs.by_kind[k].cycles,
                  "kind %u: %llu samples in %llu cycles", k, (unsigned long long)by_kind[k],
                  (unsigned long long)rs.by_kind[k].cycles);
    free(p);
out:
    vc4_emu_destroy(e);
}

/* Without the option: no samples, and the report says it is off. */
static void test_off(void)
{
    struct vc4_emu *e = mk(false);
    if (!e)
        return;
    load_asm(e, CODE, alu_loop);
    start(e, CODE);
    CHECK_EQ_INT(vc4_emu_run(e, 0), VC4_OK);
    struct vc4_emu_profile_totals t;
    CHECK_EQ_U64(vc4_emu_profile(e, NULL, 0, &t), 0);
    CHECK_EQ_U64(t.samples, 0);
    char buf[8] = "x";
    size_t need = 1;
    CHECK_EQ_INT(vc4_emu_profile_report(e, 0, NULL, buf, sizeof buf, &need), VC4_ERR_INVALID);
    CHECK_EQ_U64(need, 0);
    CHECK_EQ_INT(buf[0], 0);
    vc4_emu_destroy(e);
}

TEST_LIST(test_alu_loop, test_no_aliasing, test_blocked_on_semaphore, test_stalled_on_tmu, test_reloaded_code,
          test_gl_kinds, test_off)
