/*
 * test_asm_directives.c - whole sources: labels, branches, directives, the
 * vc4.qinc helpers, data, diagnostics with file:line:col, hostile inputs.
 */
#include "harness.h"

#include "vc4kit/qpu.h"

struct result {
    enum vc4_status st;
    size_t size;
    uint8_t bytes[4096];
    struct harness_diags d;
};

static void assemble(const char *src, struct result *r)
{
    struct vc4_asm_options o = {0};
    o.sink = harness_sink(&r->d);
    struct vc4_asm *as = vc4_asm_create(&o);
    r->st = vc4_asm_source(as, "t.qasm", src, strlen(src));
    const uint8_t *b = vc4_asm_output(as, &r->size);
    if (b && r->size)
        memcpy(r->bytes, b, r->size < sizeof r->bytes ? r->size : sizeof r->bytes);
    vc4_asm_destroy(as);
}

static uint64_t word(const struct result *r, size_t i)
{
    return i * 8 + 8 <= r->size ? vc4_qpu_load_le(r->bytes + 8 * i) : 0;
}

static uint64_t line_word(const char *line)
{
    struct vc4_qpu_instr in;
    if (vc4_qpu_assemble(line, 0, &in, NULL) != VC4_OK)
        return 0xBAD;
    return vc4_qpu_encode(&in);
}

static void test_labels_and_branches(void)
{
    struct result r;
    assemble(":start\n"
             "  nop\n"
             "loop:\n"
             "  brr.anynz -, r:loop      # back to 8: offset 8 - (8 + 32)\n"
             "  brr -, :end\n"
             "  brr ra0, r:1f\n"
             "  nop\n"
             ":1\n"
             "  bra -, :start\n"
             ":end\n"
             "  mov r0, :end - :start\n",
             &r);
    CHECK_MSG(r.st == VC4_OK, "%s", r.d.text);
    CHECK_EQ_INT(r.size, 7 * 8);
    CHECK_EQ_U64((uint32_t)word(&r, 1), (uint32_t)(8 - (8 + 32)));
    CHECK_EQ_U64((uint32_t)word(&r, 2), (uint32_t)(48 - (16 + 32)));
    CHECK_EQ_U64((uint32_t)word(&r, 3), (uint32_t)(40 - (24 + 32)));
    CHECK_EQ_U64((uint32_t)word(&r, 5), 0);  /* bra absolute :start */
    CHECK_EQ_U64(word(&r, 6), line_word("ldi r0, 48"));
}

static void test_directives(void)
{
    struct result r;
    assemble(".set N, 3\n"
             ".const K, N * 2 + 1\n"
             ".set f(x) x * 2 + K\n"
             ".func g(a, b)\n"
             "  .assert a >= 0\n"
             "  .if a > b\n"
             "    a\n"
             "  .else\n"
             "    b\n"
             "  .endif\n"
             ".endf\n"
             ".macro load, reg, val\n"
             "  ldi reg, val\n"
             ".endm\n"
             ".rep i, N\n"
             "  load ra0 + i, f(i)\n"
             ".endr\n"
             ".if N == 3\n"
             "  ldi r0, g(5, 9)\n"
             ".elseif N == 4\n"
             "  ldi r0, 1\n"
             ".else\n"
             "  ldi r0, 2\n"
             ".endif\n"
             ".rep 2\n"
             "  nop\n"
             ".endr\n",
             &r);
    CHECK_MSG(r.st == VC4_OK, "%s", r.d.text);
    CHECK_EQ_INT(r.size, 6 * 8);
    CHECK_EQ_U64(word(&r, 0), line_word("ldi ra0, 7"));
    CHECK_EQ_U64(word(&r, 1), line_word("ldi ra1, 9"));
    CHECK_EQ_U64(word(&r, 2), line_word("ldi ra2, 11"));
    CHECK_EQ_U64(word(&r, 3), line_word("ldi r0, 9"));
    CHECK_EQ_U64(word(&r, 4), VC4_QPU_NOP_WORD);
    /* expressions: C precedence, >>> logical (64-bit values, vc4asm), ?: */
    assemble("ldi r0, 1 + 2 * 3 << 1 | 1\nldi r1, 0xffffffff >>> 28\nldi r2, 3 > 2 ? 10 : 20\n"
             "ldi r3, (1 << 4) - 0x10 + 0b101 + 010\n", &r);
    CHECK_MSG(r.st == VC4_OK, "%s", r.d.text);
    CHECK_EQ_U64((uint32_t)word(&r, 0), 15);
    CHECK_EQ_U64((uint32_t)word(&r, 1), 15);
    CHECK_EQ_U64((uint32_t)word(&r, 2), 10);
    CHECK_EQ_U64((uint32_t)word(&r, 3), 13);
}

static void test_data_and_comments(void)
{
    struct result r;
    /* .word pairs give the instruction words they spell; ';' separates parts */
    assemble("/* block\n comment */ .word 0x009e7000, 0x100009e7 // nop\n"
             ".long 0x300009e7009e7000 # thrend (.long is 64 bits, vc4asm)\n"
             "nop ; nop ; thrend\n"
             ".byte 1, 2, 3\n"
             ".short 0x1234\n"
             ".int -1\n"
             ".float 1.0\n"
             ".quad 0x1122334455667788\n",
             &r);
    CHECK_MSG(r.st == VC4_OK, "%s", r.d.text);
    CHECK_EQ_U64(word(&r, 0), VC4_QPU_NOP_WORD);
    CHECK_EQ_U64(word(&r, 1), UINT64_C(0x300009e7009e7000));
    CHECK_EQ_U64(word(&r, 2), UINT64_C(0x300009e7009e7000));
    CHECK_EQ_INT(r.size, 24 + 3 + 2 + 4 + 4 + 8);
    CHECK(r.bytes[24] == 1 && r.bytes[26] == 3 && r.bytes[27] == 0x34 && r.bytes[28] == 0x12);
    CHECK(r.bytes[29] == 0xFF && r.bytes[32] == 0xFF);
    CHECK(r.bytes[33] == 0x00 && r.bytes[36] == 0x3F);
    CHECK(r.bytes[37] == 0x88 && r.bytes[44] == 0x11);
    /* an instruction after unaligned data is padded to 8 bytes; .align */
    assemble(".byte 7\nnop\n.align 16\n.byte 1\n", &r);
    CHECK_EQ_INT(r.size, 17);
    CHECK_EQ_U64(word(&r, 1), VC4_QPU_NOP_WORD);
}

static void test_qinc_and_semaphores(void)
{
    struct result r;
    assemble(".include \"vc4.qinc\"\n"
             "mov vw_setup, vpm_setup(1, 1, v32(0, 0))\n"
             "mov vw_setup, vdw_setup_0(16, 16, dma_h32(16, 0))\n"
             "mov vw_setup, vdw_setup_1(64)\n"
             ".rep i, 2\n"
             "  mov -, sacq(i + 9)\n"
             "  mov -, srel(i + 1)\n"
             ".endr\n",
             &r);
    CHECK_MSG(r.st == VC4_OK, "%s", r.d.text);
    CHECK_EQ_U64((uint32_t)word(&r, 0), 0x00101200);
    CHECK_EQ_U64((uint32_t)word(&r, 1), 0x80000000u | 16u << 23 | 16u << 16 | 0x4000u | 16u << 7);
    CHECK_EQ_U64((uint32_t)word(&r, 2), 0xc0000040u);
    CHECK_EQ_U64(word(&r, 3), line_word("sacq -, 9"));
    CHECK_EQ_U64(word(&r, 4), line_word("srel -, 1"));
    CHECK_EQ_U64(word(&r, 5), line_word("sacq -, 10"));
}

/* A small program in the style of GPU_FFT's sources (written for this test):
 * macros with register arguments, .back, local labels, procedure chains. */
static void test_corpus_program(void)
{
    struct result r;
    assemble(".include \"vc4.qinc\"\n"
             ".set rb_0x40, rb30\n"
             ".set ra_link, ra8\n"
             ".set ra_ptr, ra1\n"
             ".macro save, arg_vpm\n"
             "    mov vw_setup, arg_vpm\n"
             "    mov vpm, r0\n"
             "    mov -, vw_wait\n"
             ".endm\n"
             "    mov rb_0x40, 0x40\n"
             "    mov r3, unif;         mov ra_ptr, 0\n"
             "    shl.setf r0, r3, 5;   mov ra6, 0\n"
             ":loop\n"
             "    save rb_0x40\n"
             "    .back 2\n"
             "    brr ra_link, r:loop\n"
             "    .endb\n"
             "    add ra_ptr, ra_ptr, rb_0x40; mov vw_addr, ra_ptr\n"
             "    nop\n"
             "    nop\n"
             "    thrend\n"
             "    mov interrupt, 1\n"
             "    nop\n",
             &r);
    CHECK_MSG(r.st == VC4_OK, "%s", r.d.text);
    CHECK_EQ_INT(r.size, 13 * 8);
    CHECK_EQ_U64(word(&r, 0), line_word("ldi rb30, 0x40"));
    CHECK_EQ_U64(word(&r, 1), line_word("or r3, unif, unif; v8subs ra1, rb39, rb39"));
    /* the branch went 2 instructions back: before "mov vpm, r0" */
    CHECK_EQ_U64(word(&r, 3), line_word("or vw_setup, rb30, rb30; nop"));
    struct vc4_qpu_instr in;
    vc4_qpu_decode(word(&r, 4), &in);
    CHECK_EQ_INT(in.sig, 15);
    CHECK_EQ_INT((int32_t)in.imm, 24 - (32 + 32));
    CHECK_EQ_U64(word(&r, 5), line_word("or vpm, r0, r0"));
    CHECK_EQ_U64(word(&r, 7), line_word("add ra1, ra1, rb30; v8min vw_addr, ra1, ra1"));
    CHECK_EQ_U64(word(&r, 12), VC4_QPU_NOP_WORD);
}

static void test_diagnostics(void)
{
    struct result r;
    assemble("nop\n  fadd r0, r1, bogus\n", &r);
    CHECK(r.st == VC4_ERR_INVALID);
    CHECK_CONTAINS(r.d.text, "t.qasm:2:16: error: undefined symbol 'bogus'");
    assemble("  frob r0, r1\n", &r);
    CHECK_CONTAINS(r.d.text, "t.qasm:1:3: error: unknown instruction 'frob'");
    assemble("brr -, :nowhere\n", &r);
    CHECK_CONTAINS(r.d.text, "t.qasm:1:9: error: undefined label 'nowhere'");
    assemble("mov r0, r6\n", &r);
    CHECK_CONTAINS(r.d.text, "undefined symbol 'r6'");
    assemble("mov r0, h32(1)\n", &r);
    CHECK_CONTAINS(r.d.text, "unknown function 'h32'");
    assemble("fadd.ifq r0, r1, r2\n", &r);
    CHECK_CONTAINS(r.d.text, "unknown instruction suffix '.ifq'");
    /* a macro called with too few (or too many) arguments says so at the call */
    assemble(".macro m, a, b\nmov a, b\n.endm\nnop\nm r0\n", &r);
    CHECK_CONTAINS(r.d.text, "t.qasm:5:1: warning: macro 'm' takes 2 arguments, 1 given; the last "
                             "1 are undefined");
    CHECK_CONTAINS(r.d.text, "undefined symbol 'b'");
    assemble(".macro m, a\nmov a, r1\n.endm\nm r0, r2\n", &r);
    CHECK_CONTAINS(r.d.text, "t.qasm:4:1: error: macro 'm' takes 1 argument, 2 given");
    assemble(".func f(x)\nx\n.endf\nldi r0, f(1, 2)\n", &r);
    CHECK_CONTAINS(r.d.text, "function 'f' takes 1 argument, 2 given");
    assemble(".if 1\nnop\n", &r);
    CHECK_CONTAINS(r.d.text, "unterminated .if");
    assemble(".macro m\nnop\n", &r);
    CHECK_CONTAINS(r.d.text, "missing .endm");
    assemble(".rep 3\nnop\n", &r);
    CHECK_CONTAINS(r.d.text, "missing .endr");
    assemble("/* open\n", &r);
    CHECK_CONTAINS(r.d.text, "unterminated /* comment");
    assemble(".assert 1 == 2\n", &r);
    CHECK_CONTAINS(r.d.text, "t.qasm:1:9: error: assertion failed");
    assemble(".endif\n.endm\n", &r);
    CHECK(r.d.errors == 2);
    assemble(".include \"does-not-exist.qinc\"\n", &r);
    CHECK_CONTAINS(r.d.text, "cannot open include file");
}

/* '-' alone as a macro argument is "no register" (vc4asm; Broadcom's GPU_FFT
 * 2.0 256 and 4k shaders pass it): the body writes and reads as with '-'. */
static void test_macro_dash_argument(void)
{
    struct result r;
    assemble(".macro m, d, s\n"
             " fadd d, s, r1\n"
             ".endm\n"
             "m -, r0\n"
             "m r2, r0\n",
             &r);
    CHECK_MSG(r.st == VC4_OK, "%s", r.d.text);
    CHECK_EQ_U64(word(&r, 0), line_word("fadd -, r0, r1"));
    CHECK_EQ_U64(word(&r, 1), line_word("fadd r2, r0, r1"));
    CHECK(line_word("fadd -, r0, r1") != line_word("fadd r2, r0, r1"));
}

static enum vc4_status loop_reader(void *user, const char *path, char **data, size_t *len)
{
    (void)user;
    const char *text = strstr(path, "a.qinc") ? ".include \"b.qinc\"\n" : ".include \"a.qinc\"\n";
    *len = strlen(text);
    *data = malloc(*len + 1);
    memcpy(*data, text, *len + 1);
    return VC4_OK;
}

static void test_hostile(void)
{
    struct result r;
    assemble(".macro m\nm\n.endm\nm\n", &r); /* infinite recursion */
    CHECK(r.st != VC4_OK);
    CHECK_CONTAINS(r.d.text, "nested too deeply");
    assemble(".rep 1000000000\nnop\n.endr\n", &r);
    CHECK(r.st != VC4_OK);
    assemble(".rep i, 100000\n.rep j, 100000\nnop\n.endr\n.endr\n", &r);
    CHECK(r.st != VC4_OK);
    assemble(".func f(x)\nf(x)\n.endf\nldi r0, f(1)\n", &r);
    CHECK(r.st != VC4_OK);
    assemble("ldi r0, 99999999999999999999999999\n", &r);
    CHECK_CONTAINS(r.d.text, "too large number");
    assemble("ldi r0, 0x1ffffffff\n", &r);
    CHECK(r.st != VC4_OK);
    assemble("ldi r0, 1/0\n", &r);
    CHECK_CONTAINS(r.d.text, "division by zero");
    char deep[3000];
    size_t k = 0;
    k += (size_t)snprintf(deep, sizeof deep, "ldi r0, ");
    for (int i = 0; i < 1000; i++)
        deep[k++] = '(';
    deep[k++] = '1';
    deep[k] = 0;
    assemble(deep, &r);
    CHECK(r.st != VC4_OK);
    /* include loop through a reader hook */
    struct harness_diags d;
    struct vc4_asm_options o = {.sink = harness_sink(&d), .read_file = loop_reader};
    struct vc4_asm *as = vc4_asm_create(&o);
    CHECK(vc4_asm_source(as, "x.qasm", ".include \"a.qinc\"\n", 18) != VC4_OK);
    CHECK_CONTAINS(d.text, "include loop");
    vc4_asm_destroy(as);
}

/* Regression (fuzz_asm timeout): a function calling itself twice per level
 * did 2^51 calls, each failing with an error (8 million diagnostics in 22 s).
 * Errors are capped per pass and every function call is charged to the work
 * budget, so both forms end at once with a diagnostic. */
static void test_regression_exponential_recursion(void)
{
    static struct result r;
    memset(&r, 0, sizeof r);
    assemble(".func f(x)\n .if x\n  f(x-1)\n \n  f(x-1)\n .eldif\n.endf\nldi r0,!f(51)", &r);
    CHECK(r.st != VC4_OK);
    CHECK_CONTAINS(r.d.text, "too many errors (100); stopping");
    CHECK(r.d.errors <= 101);
    memset(&r, 0, sizeof r);
    const char *g = ".func g(x)\n .if x\n  g(x-1) + g(x-1)\n .else\n  1\n .endif\n.endf\n";
    char src[256];
    snprintf(src, sizeof src, "%sldi r0, g(60)\n", g);
    assemble(src, &r);
    CHECK(r.st != VC4_OK);
    CHECK_CONTAINS(r.d.text, "too much work");
    CHECK(r.d.errors <= 101);
    /* the same function within the budget still works: 2^10 */
    memset(&r, 0, sizeof r);
    snprintf(src, sizeof src, "%sldi r0, g(10)\n", g);
    assemble(src, &r);
    CHECK(r.st == VC4_OK);
    CHECK_EQ_U64(word(&r, 0), line_word("ldi r0, 1024"));
}

/* An allocator that never hands freed memory back while a test runs: a freed
 * block is filled with '#' (NUL-terminated) and kept, so reading it after the
 * free gives '#' text or a wild pointer instead of the old contents, with or
 * without a sanitizer. */
struct quarantine {
    void *blocks[4096];
    size_t n;
};

static void *quarantine_alloc(void *user, void *ptr, size_t size)
{
    struct quarantine *q = user;
    size_t *old = ptr ? (size_t *)ptr - 2 : NULL; /* header: size, pad (16 bytes) */
    void *np = NULL;
    if (size) {
        size_t *h = malloc(size + 2 * sizeof(size_t));
        if (!h)
            return NULL;
        h[0] = size;
        np = h + 2;
        if (old)
            memcpy(np, ptr, old[0] < size ? old[0] : size);
    }
    if (old) {
        memset(ptr, '#', old[0]);
        ((char *)ptr)[old[0] - 1] = 0;
        if (q->n < sizeof q->blocks / sizeof q->blocks[0])
            q->blocks[q->n++] = old;
        else
            free(old);
    }
    return np;
}

static void quarantine_release(struct quarantine *q)
{
    while (q->n)
        free(q->blocks[--q->n]);
}

static enum vc4_status assemble_quarantined(const char *src, size_t len, struct harness_diags *d)
{
    static struct quarantine q;
    struct vc4_allocator al = {quarantine_alloc, &q};
    struct vc4_asm_options o = {.sink = harness_sink(d), .alloc = &al};
    struct vc4_asm *as = vc4_asm_create(&o);
    enum vc4_status st = vc4_asm_source(as, "t.qasm", src, len);
    vc4_asm_destroy(as);
    quarantine_release(&q);
    return st;
}

/* Regression (issue 17, fuzz_asm heap use-after-free in asm_call_func): a
 * macro defined inside a function body grew the table of macro records while
 * the call held a pointer into it, and the call then read the function's freed
 * name.  Macro records now each have their own allocation that stays put until
 * the pass ends. */
static void test_regression_macro_defined_in_call(void)
{
    static const char repro[] =
        ".func f(x)\n"
        " .macro m\n"
        "p\362eR\n"
        "\n"
        "m\025\n"
        ".enthre\000\025\n"
        "R\n"
        "m\n"
        ".endm\n"
        "dm\n"
        "m\n"
        "ndm\n"
        "m* et N,0+[,\n"
        ":\n"
        "\n"
        "  f(x/2)f(x/2)* seudif\n"
        ".endf\n"
        "ldi r0( f(52)";
    CHECK_EQ_INT(sizeof repro - 1, 117);
    struct harness_diags d;
    CHECK(assemble_quarantined(repro, sizeof repro - 1, &d) != VC4_OK);
    /* the same thing readable: 40 macro records defined under a running call */
    const char *src = ".func f(x)\n"
                      " .rep 40\n"
                      "  .macro m\n"
                      "  .endm\n"
                      " .endr\n"
                      ".endf\n"
                      "ldi r0, f(1)\n";
    CHECK(assemble_quarantined(src, strlen(src), &d) != VC4_OK);
    CHECK_CONTAINS(d.text, "function 'f' gave no value");
    /* ... and with a value: the body keeps running after the table grew */
    src = ".func g(x)\n"
          " .rep 40\n"
          "  .macro m\n"
          "   nop\n"
          "  .endm\n"
          " .endr\n"
          " x * 2\n"
          ".endf\n"
          ".macro h, v\n"
          " .rep 40\n"
          "  .macro k\n"
          "  .endm\n"
          " .endr\n"
          " ldi r0, g(v)\n"
          ".endm\n"
          "h 21\n"
          "m\n";
    CHECK_MSG(assemble_quarantined(src, strlen(src), &d) == VC4_OK, "%s", d.text);
    struct result r;
    assemble(src, &r);
    CHECK_EQ_INT(r.size, 16);
    CHECK_EQ_U64(word(&r, 0), line_word("ldi r0, 42"));
    CHECK_EQ_U64(word(&r, 1), line_word("nop"));
}

/* Regression (fuzz_asm): .rep iterations of an empty body were not charged
 * to the work budget, so nested ".rep 1000000" with nothing inside ran 10^12
 * iterations (a hang).  Every iteration is work now; the budget is an option
 * (the fuzz target uses a small one). */
static void test_regression_empty_rep_work(void)
{
    struct result r;
    assemble(".rep 1000000\n.rep 1000000\n.endr\n.endr\nnop\n", &r);
    CHECK(r.st != VC4_OK);
    CHECK_CONTAINS(r.d.text, "too much work");
    struct harness_diags d;
    const char *src = ".rep i, 100\n.endr\nnop\n";
    struct vc4_asm_options o = {.sink = harness_sink(&d), .max_work = 100};
    struct vc4_asm *as = vc4_asm_create(&o);
    CHECK(vc4_asm_source(as, "w.qasm", src, strlen(src)) != VC4_OK); /* 100 + 3 lines */
    CHECK_CONTAINS(d.text, "more than 100 lines");
    vc4_asm_destroy(as);
    o.max_work = 103;
    as = vc4_asm_create(&o);
    CHECK(vc4_asm_source(as, "w.qasm", src, strlen(src)) == VC4_OK);
    vc4_asm_destroy(as);
}

/* vc4asm V0.3's directives and expressions (Parser.tables.cpp directiveMap
 * and operatorMap, Eval.cpp, share/include/vc4.qinc); each expected value is
 * worked out in its comment. */
static void test_vc4asm_dialect(void)
{
    struct result r;
    assemble(".include <vc4.qinc>\n"                      /* <...>: the include path */
             ".float M_PI, M_INF\n"                       /* 0x40490fdb, 0x7f800000 */
             ".double M_PI\n"                             /* 0x400921fb54442d18 */
             ".half 1.0, -2.5, 65504\n"                   /* 0x3c00 0xc100 0x7bff */
             ".long 0x40000000 <<< 2\n"                   /* 64 bits: 0x100000000 */
             ".int 0x80000001 ><< 1, 0x80000001 >>< 1\n"  /* rotate 32: 3, 0xc0000001 >> */
             ".long 1 >>>< 1, 3 ><<< 63\n"                /* rotate 64: 2^63, 2^63 + 1 */
             ".int floor(2.5), ceil(2.5), ilog2(4096), reverseBits(1, 4), reverseBits8(3)\n"
             ".float sin(M_PI_2), 1. << 3\n"              /* 1.0, 8.0 (ldexp) */
             ".ifset M_PI\n.int 1\n.elif 1\n.int 2\n.endif\n"
             ".ifset NOPE\n.int 3\n.else\n.int 4\n.endif\n"
             ".foreach v, 5, 6, 7\n.byte v\n.endfor\n"
             ".local\n.lset q, 9\n.byte q\n.endloc\n"
             ".ifset q\n.byte 99\n.endif\n"             /* q was local to .local */
             ".code\n.text\nnop\n",
             &r);
    CHECK_MSG(r.st == VC4_OK, "%s", r.d.text);
    static const uint8_t want[] = {
        0xdb, 0x0f, 0x49, 0x40, 0x00, 0x00, 0x80, 0x7f,                         /* pi, inf */
        0x18, 0x2d, 0x44, 0x54, 0xfb, 0x21, 0x09, 0x40,                         /* double pi */
        0x00, 0x3c, 0x00, 0xc1, 0xff, 0x7b,                                     /* halves */
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,                         /* <<< */
        0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xc0,                         /* ><< >>< */
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,                         /* >>>< */
        0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,                         /* ><<< */
        2, 0, 0, 0, 3, 0, 0, 0, 12, 0, 0, 0, 8, 0, 0, 0, 0xc0, 0, 0, 0,          /* int helpers */
        0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x41,                         /* 1.0, 8.0 */
        1, 0, 0, 0, 4, 0, 0, 0,                                                 /* .ifset */
        5, 6, 7, 9,                                                             /* foreach, local */
        0, 0,                                                                   /* padding */
        0x00, 0x70, 0x9e, 0x00, 0xe7, 0x09, 0x00, 0x10,                         /* nop */
    };
    CHECK_EQ_INT(r.size, sizeof want);
    CHECK(r.size == sizeof want && memcmp(r.bytes, want, sizeof want) == 0);
    for (size_t k = 0; k < sizeof want && k < r.size; k++)
        if (r.bytes[k] != want[k]) {
            fprintf(stderr, "  byte %zu: 0x%02x, want 0x%02x\n", k, r.bytes[k], want[k]);
            break;
        }
    /* missing block ends name the directive */
    assemble(".foreach v, 1\nnop\n", &r);
    CHECK_CONTAINS(r.d.text, "missing .endfor");
    assemble(".local\nnop\n", &r);
    CHECK_CONTAINS(r.d.text, "missing .endloc");
}

static void test_symbols_api(void)
{
    struct harness_diags d;
    struct vc4_asm_options o = {.sink = harness_sink(&d), .base_addr = 0x1000};
    struct vc4_asm *as = vc4_asm_create(&o);
    CHECK(vc4_asm_define(as, "COUNT", 4) == VC4_OK);
    const char *src = "nop\n:here\nldi r0, COUNT\nbra -, :here\n";
    CHECK(vc4_asm_source(as, "s.qasm", src, strlen(src)) == VC4_OK);
    int64_t v = 0;
    CHECK(vc4_asm_lookup(as, "here", &v) && v == 0x1008);
    CHECK(vc4_asm_lookup(as, "COUNT", &v) && v == 4);
    size_t n;
    const uint8_t *b = vc4_asm_output(as, &n);
    CHECK_EQ_INT(n, 24);
    CHECK_EQ_U64((uint32_t)vc4_qpu_load_le(b + 16), 0x1008);
    CHECK(vc4_asm_symbol_count(as) >= 2);
    CHECK_EQ_INT(vc4_asm_error_count(as), 0);
    vc4_asm_destroy(as);
}

/* .clone label, count copies instructions (vc4asm directives.html, its
 * example: the delay slots of a branch hold the first instructions of the
 * target and the branch goes past them). */
static void test_clone(void)
{
    struct result r;
    assemble(":target\n"
             "  mov r0, 1\n"
             "  mov r1, 2\n"
             "  mov r2, 3\n"
             "  mov r3, 4\n"
             "  brr -, r:target + 3*8\n"
             "  .clone :target, 3\n"
             "  mov r0, 5\n",
             &r);
    CHECK_MSG(r.st == VC4_OK, "%s", r.d.text);
    CHECK_EQ_INT(r.size, 9 * 8);
    CHECK_EQ_U64(word(&r, 5), line_word("mov r0, 1"));
    CHECK_EQ_U64(word(&r, 6), line_word("mov r1, 2"));
    CHECK_EQ_U64(word(&r, 7), line_word("mov r2, 3"));
    CHECK_EQ_U64(word(&r, 8), line_word("mov r0, 5"));
    /* branch at 32: target 24, relative to 32 + 32 */
    CHECK_EQ_U64((uint32_t)word(&r, 4), (uint32_t)(24 - (32 + 32)));
    /* the code after the label may come later; a clone of itself copies
     * its own copies, word by word as vc4asm does */
    assemble("  .clone :later, 1\n:later\n  nop\n", &r);
    CHECK_MSG(r.st == VC4_OK && r.size == 16, "%s", r.d.text);
    CHECK_EQ_U64(word(&r, 0), line_word("nop"));
    assemble(":a\n  nop\n  .clone :a, 2\n", &r);
    CHECK_MSG(r.st == VC4_OK && r.size == 24, "%s", r.d.text);
    CHECK_EQ_U64(word(&r, 2), line_word("nop"));

    /* a label that comes later (vc4asm Parser::parseCLONE copies what its
     * first pass assembled there): the branch skips the cloned three, lands
     * at target + 24 = 72: offset 72 - (0 + 32) */
    assemble("    brr -, r:target + 3*8\n"
             "    .clone :target, 3\n"      /* 8, 16, 24 */
             "    nop\n"                    /* 32 */
             ".byte 300\n.align 8\n"        /* 40; one warning, reported once */
             ":target\n"                    /* 48 */
             "    mov r0, 1\n    mov r1, 2\n    mov r2, 3\n    mov r3, :target\n",
             &r);
    CHECK_MSG(r.st == VC4_OK && r.d.warnings == 1 && r.d.errors == 0, "%s", r.d.text);
    CHECK_EQ_INT(r.size, 10 * 8);
    CHECK_EQ_U64((uint32_t)word(&r, 0), 40);
    for (size_t i = 1; i <= 3; i++)
        CHECK_EQ_U64(word(&r, i), word(&r, i + 5));
    CHECK_EQ_U64(word(&r, 6), line_word("mov r0, 1"));
    CHECK_EQ_U64((uint32_t)word(&r, 9), 48);
    assemble(".clone :end, 2\nnop\n:end\nnop\n", &r); /* past the end of the code */
    CHECK(r.st != VC4_OK && strstr(r.d.text, "past the end") != NULL);
}

/* vc4asm's labels (Parser::ParseLine, parseLabel, labelRef, defineLabel):
 * a ':' followed by a blank or the end of the line is the anonymous label
 * (a branch-target mark that names nothing); ": nop" is that mark and then
 * the instruction nop, ":nop" a label.  A plain numeric ":1" names the most
 * recent definition, but before the first one, or after a ":1f" reference,
 * the next one.  A label is the byte address of what follows, also inside
 * data (no padding); between bits it is an error. */
static void test_vc4asm_labels(void)
{
    struct result r;
    assemble(":\n"
             "  mov r0, :1      # 0: no definition of 1 yet: the next, 16\n"
             ": nop             # 8: anonymous label, then nop\n"
             ":1\n"
             "  mov r1, :1      # 16: the most recent, 16\n"
             "  mov r2, :1f     # 24: the next, 40\n"
             "  mov r3, :1      # 32: after :1f the name is the next one, 40\n"
             ":1 :\n"
             "  mov r0, :1      # 40: 40\n"
             ".byte 1, 2, 3     # 48..50\n"
             ":tbl .byte 4      # 51: inside data, no padding\n"
             ".byte :tbl\n",
             &r);
    CHECK_MSG(r.st == VC4_OK && r.d.warnings == 0, "%s", r.d.text);
    CHECK_EQ_INT(r.size, 53);
    static const uint32_t imm[] = {16, 0, 16, 40, 40, 40};
    for (size_t i = 0; i < 6; i++)
        if (i != 1)
            CHECK_EQ_U64((uint32_t)word(&r, i), imm[i]);
    CHECK_EQ_U64(word(&r, 1), line_word("nop"));
    CHECK_EQ_INT(r.bytes[51], 4);
    CHECK_EQ_INT(r.bytes[52], 51);

    assemble(".bit 1\n:x\n", &r); /* vc4asm NO_LABEL_AT_BIT_BOUNDARY */
    CHECK(r.st != VC4_OK && strstr(r.d.text, "bit boundary") != NULL);
    assemble("foo : nop\n", &r);  /* "foo :" is no label (the colon must touch) */
    CHECK(r.st != VC4_OK);
}

/* Bit data (vc4asm Parser::parseDATA: .bit/.int1 1 bit, .int2, .int4): each
 * value is ORed in at the bit offset within the 64-bit word, least
 * significant bit first (words are stored little-endian, so bit i of the
 * output is bit i % 8 of byte i / 8); values cross bytes and words; an
 * integer out of range warns and keeps its low bits; data that does not
 * start at a multiple of its width warns once a line; an instruction after
 * data is padded to the next word with a warning (INSTRUCTION_REQUIRES_
 * ALIGNMENT). */
static void test_bit_data(void)
{
    struct result r;
    assemble(".bit 1, 0, 1, 1\n"     /* bits 0-3: 1 0 1 1 -> 0x0d */
             ".int4 0xa\n"           /* bits 4-7 -> byte 0 = 0xad */
             ".int2 1, 2, 3, -1\n"   /* 1 | 2 << 2 | 3 << 4 | 3 << 6 = 0xf9 */
             ".int1 1\n"             /* bit 16 */
             ".bit 0, 1\n"           /* bits 17, 18 -> byte 2 = 0x05 */
             ".byte 0x80\n"          /* bits 19-26, unaligned (warning): byte 3 = 0x04 */
             ".int4 0x1f\n"          /* out of range, unaligned (27 % 4): 0xf at 27-30 -> 0x7c */
             ".bit 2\n"              /* out of range (warning), 0 at bit 31 */
             ".int 0x12345678\n",    /* bytes 4-7 */
             &r);
    CHECK_MSG(r.st == VC4_OK && r.d.warnings == 4, "%s", r.d.text);
    static const uint8_t want[] = {0xad, 0xf9, 0x05, 0x7c, 0x78, 0x56, 0x34, 0x12};
    CHECK_EQ_INT(r.size, sizeof want);
    CHECK(r.size == sizeof want && memcmp(r.bytes, want, sizeof want) == 0);

    /* a value across the word boundary, then an instruction padded to the
     * next word: bits 56-61 set, .int4 0xf at 62-65 (unaligned: 62 % 4) */
    assemble(".int 0\n.short 0\n.byte 0\n.bit 1, 1, 1, 1, 1, 1\n.int4 0xf\nnop\n", &r);
    CHECK_MSG(r.st == VC4_OK && r.d.warnings == 2, "%s", r.d.text);
    CHECK_EQ_INT(r.size, 24);
    CHECK_EQ_U64(word(&r, 0), UINT64_C(0xff00000000000000));
    CHECK_EQ_U64(word(&r, 1), 3);
    CHECK_EQ_U64(word(&r, 2), line_word("nop"));

    /* .align N, offset: the next address is offset modulo N (zero fill);
     * .align 0 does nothing; between bits it first fills the byte */
    assemble(".byte 1\n.align 8, 4\n.byte 2\n.align 0\n.bit 1\n.align 2\n.byte 3\n", &r);
    CHECK_MSG(r.st == VC4_OK && r.d.warnings == 0, "%s", r.d.text);
    static const uint8_t want2[] = {1, 0, 0, 0, 2, 1, 3};
    CHECK_EQ_INT(r.size, sizeof want2);
    CHECK(r.size == sizeof want2 && memcmp(r.bytes, want2, sizeof want2) == 0);
    assemble(".bit 1.0\n", &r);
    CHECK(r.st != VC4_OK);

    /* whole words of an .align in code are nop instructions (vc4asm V0.3
     * Parser::doALIGN stores 0x100009e7009e7000, so falling into the padding
     * is harmless); after data they stay zero (vc4_cl_align's padding) */
    assemble("nop\n.align 32\n.byte 1\n.align 8\n.align 32\n.byte 2\n", &r);
    CHECK_MSG(r.st == VC4_OK && r.d.warnings == 0, "%s", r.d.text);
    CHECK_EQ_INT(r.size, 65);
    for (unsigned w = 0; w < 4 && r.size == 65; w++)
        CHECK_EQ_U64(word(&r, w), UINT64_C(0x100009e7009e7000));
    CHECK(r.size == 65 && r.bytes[32] == 1 && r.bytes[64] == 2);
    for (unsigned i = 33; i < 64 && r.size == 65; i++)
        CHECK(r.bytes[i] == 0);
}

TEST_LIST(test_labels_and_branches, test_directives, test_data_and_comments,
          test_qinc_and_semaphores, test_corpus_program, test_diagnostics, test_hostile,
          test_symbols_api, test_regression_exponential_recursion,
          test_regression_macro_defined_in_call, test_macro_dash_argument,
          test_regression_empty_rep_work, test_vc4asm_dialect, test_clone,
          test_vc4asm_labels, test_bit_data)
