/*
 * bench_asm.c - assembler and disassembler throughput over 10^6 instructions
 * (pseudo-random words, fixed seed): disassemble each, then assemble the text
 * both line by line (vc4_qpu_assemble) and as one source (vc4_asm_source).
 * Random words are the hard case: most need "@field=value" overrides; a
 * run assembles typical source lines.  Times are the process's CPU time.
 * Last, sources with many labels (100k lines with 30k labels, and a quarter
 * of that): the time per line must not grow with the label count.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vc4kit/qpu.h"

/* CPU time of this process: steadier than wall time on a shared machine. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A source of `lines` lines with one label every 10/3 lines (30k labels in
 * 100k lines), each code line referencing a label before or after it. */
static char *label_source(size_t lines, size_t *len)
{
    char *src = malloc(lines * 48 + 64);
    if (!src)
        return NULL;
    size_t nlab = lines * 3 / 10, k = 0, o = 0;
    uint64_t s = 12345;
    for (size_t i = 0; i < lines; i++) {
        s ^= s >> 12; s ^= s << 25; s ^= s >> 27;
        size_t r = (size_t)((s * UINT64_C(0x2545F4914F6CDD1D)) >> 33) % nlab;
        if (k < nlab && i * 3 / 10 >= k)
            o += (size_t)sprintf(src + o, ":lab%zu\n", k++);
        else if (i % 2)
            o += (size_t)sprintf(src + o, "brr -, r:lab%zu\n", r);
        else
            o += (size_t)sprintf(src + o, "ldi r0, :lab%zu + %zu\n", r, i & 255);
    }
    *len = o;
    return src;
}

/* CPU seconds to assemble a label_source(lines); -1 on an error. */
static double time_labels(size_t lines)
{
    size_t len;
    char *src = label_source(lines, &len);
    if (!src)
        return -1;
    double t = now();
    struct vc4_asm *as = vc4_asm_create(NULL);
    enum vc4_status st = vc4_asm_source(as, "labels.qasm", src, len);
    vc4_asm_destroy(as);
    t = now() - t;
    free(src);
    return st == VC4_OK ? t : -1;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 1000000;
    uint64_t *words = malloc(n * sizeof *words);
    char *text = malloc(n * 200);
    size_t *offs = malloc((n + 1) * sizeof *offs);
    if (!words || !text || !offs)
        return 1;
    uint64_t s = UINT64_C(0x9E3779B97F4A7C15);
    for (size_t i = 0; i < n; i++) {
        s ^= s >> 12; s ^= s << 25; s ^= s >> 27;
        words[i] = s * UINT64_C(0x2545F4914F6CDD1D);
    }

    double t0 = now();
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        struct vc4_qpu_instr in;
        vc4_qpu_decode(words[i], &in);
        offs[i] = len;
        size_t l = vc4_qpu_disasm(&in, (uint32_t)(i * 8), 0, text + len, 190);
        len += l < 189 ? l : 189;
        text[len++] = '\n';
    }
    offs[n] = len;
    double t1 = now();

    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        char line[200];
        size_t l = offs[i + 1] - offs[i] - 1;
        memcpy(line, text + offs[i], l);
        line[l] = 0;
        struct vc4_qpu_instr out;
        if (vc4_qpu_assemble(line, (uint32_t)(i * 8), &out, NULL) != VC4_OK ||
            vc4_qpu_encode(&out) != words[i])
            bad++;
    }
    double t2 = now();

    struct vc4_asm *as = vc4_asm_create(NULL);
    /* the disassembly holds "# -> target" comments; whole-source assembly is
     * two passes (labels), so this measures the full driver */
    vc4_asm_source(as, "bench.qasm", text, len);
    size_t outn = 0;
    (void)vc4_asm_output(as, &outn);
    double t3 = now();
    vc4_asm_destroy(as);

    /* typical source lines (vc4asm programs: rpi_shader, smitest), cycled */
    static const char *const typical[] = {
        "mov ra31, unif",
        "add r0, unif, elem_num",
        "max r0, r0, 0; mov r1, ra29",
        "min r0, r0, rb25 ; mov r3, ra24",
        "sub.setf -, r3, rb17      ; v8adds r3, r3, ra20                     ; ldtmu0",
        "shr r0, r4, ra17     ; mov.ifz ra16, rb19       ; ldtmu1",
        "nop                  ; mul24.ifnz r2, ra0 << 8, r1 << 8",
        "add r2, r2, r3       ; mul24    r3, ra2 << 2, r0 << 2",
        "asr ra3, r0, rb23;      mul24 r0, r0, ra22",
        "mov.setf -, [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1]",
        "mov r1, 0x80004004",
        "and rb19, r0, ~3",
        "add ra17.16b, r3, ra20.8b          ; mov      r0, r1 << 15",
        "fmul vpm.8abcds, r0, r1",
        "mov ra16.8abcd, r0;  mov vpm, ra16",
        "bra -, ra31",
    };
    enum { NT = sizeof typical / sizeof *typical };
    size_t bad2 = 0;
    double t4 = now();
    for (size_t i = 0; i < n; i++) {
        struct vc4_qpu_instr out;
        if (vc4_qpu_assemble(typical[i % NT], (uint32_t)(i * 8), &out, NULL) != VC4_OK)
            bad2++;
    }
    double t5 = now();

    double tl1 = time_labels(25000), tl4 = time_labels(100000);

    printf("instructions:              %zu\n", n);
    printf("disassembler:              %.3f s  (%.2f M instr/s)\n", t1 - t0, (double)n / (t1 - t0) / 1e6);
    printf("assembler, line by line:   %.3f s  (%.2f M instr/s), %zu mismatches\n", t2 - t1,
           (double)n / (t2 - t1) / 1e6, bad);
    printf("assembler, whole source:   %.3f s  (%.2f M instr/s, 2 passes), %zu bytes\n", t3 - t2,
           (double)n / (t3 - t2) / 1e6, outn);
    printf("assembler, typical lines:  %.3f s  (%.2f M instr/s), %zu errors\n", t5 - t4,
           (double)n / (t5 - t4) / 1e6, bad2);
    printf("labels: 25k lines, 7.5k labels: %.3f s; 100k lines, 30k labels: %.3f s (ratio %.2f, "
           "linear = 4)\n", tl1, tl4, tl1 > 0 ? tl4 / tl1 : 0.0);
    free(words);
    free(text);
    free(offs);
    return bad != 0 || bad2 != 0 || tl1 < 0 || tl4 < 0;
}
