/*
 * fuzz_validate.c - random instruction words through the static validator,
 * with every program kind and threading mode; it must never crash, read out
 * of bounds or report a violation count that disagrees with the sink's
 * warnings and errors.
 *
 * Input layout: byte 0 selects the kind (low 3 bits, modulo the kinds),
 * threading (bit 3) and the kernel's shader rules (bit 4); the rest is little-endian 64-bit words.  Some words are
 * steered towards interesting forms (thread end, branches, ldi to the VPM
 * setup, TMU writes) so the stateful rules get exercised.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vc4kit/qpu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct counter { unsigned n; };

static void count_fn(void *user, const struct vc4_diag *d)
{
    struct counter *c = user;
    char buf[512];
    vc4_diag_format(d, buf, sizeof buf); /* the message must format */
    if (d->rule && d->message && d->severity != VC4_NOTE) /* notes are not violations */
        c->n++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const enum vc4_shader_kind kinds[] = {VC4_SHADER_ANY, VC4_SHADER_FRAGMENT, VC4_SHADER_VERTEX,
                                                 VC4_SHADER_COORDINATE, VC4_SHADER_USER};
    struct vc4_validate_options o = {
        .kind = kinds[(data[0] & 7u) % (sizeof kinds / sizeof kinds[0])],
        .threaded = (data[0] >> 3) & 1u,
        .kernel_rules = (data[0] >> 4) & 1u,
        .base_addr = (uint32_t)data[0] << 4,
    };
    size_t n = (size - 1) / 8;
    uint64_t *w = malloc((n ? n : 1) * sizeof *w);
    unsigned *lines = malloc((n ? n : 1) * sizeof *lines);
    if (!w || !lines) {
        free(w);
        free(lines);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        w[i] = vc4_qpu_load_le(data + 1 + 8 * i);
        lines[i] = (unsigned)i + 1;
    }
    o.lines = lines;
    o.file = "fuzz";

    struct counter c = {0};
    struct vc4_diag_sink sink = {count_fn, &c};
    unsigned v = 0;
    enum vc4_status st = vc4_qpu_validate(w, n, &o, &sink, &v);
    if (v != c.n || (st == VC4_OK) != (v == 0))
        abort(); /* the count must agree with what the sink saw */

    /* The same words with the signal nibble steered to thread end, branch
     * and load immediate, to reach the windowed rules. */
    static const uint8_t steer[] = {VC4_QPU_SIG_PROG_END, VC4_QPU_SIG_BRANCH, VC4_QPU_SIG_LOAD_IMM,
                                    VC4_QPU_SIG_THREAD_SWITCH, VC4_QPU_SIG_LOAD_TMU0, VC4_QPU_SIG_SMALL_IMM};
    for (size_t i = 0; i < n; i++) {
        struct vc4_qpu_instr q;
        vc4_qpu_decode(w[i], &q);
        q.sig = steer[(w[i] ^ (w[i] >> 29)) % sizeof steer];
        w[i] = vc4_qpu_encode(&q);
    }
    vc4_qpu_validate(w, n, &o, NULL, NULL);
    free(w);
    free(lines);
    return 0;
}
