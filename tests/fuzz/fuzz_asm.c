/*
 * fuzz_asm.c - the assembler over arbitrary source text: it must report
 * diagnostics and never crash, hang or leak.  Includes are served from
 * memory (the input itself), so the fuzzer can also build include loops.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vc4kit/qpu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct input {
    const uint8_t *data;
    size_t size;
};

static enum vc4_status read_hook(void *user, const char *path, char **out, size_t *len)
{
    const struct input *in = user;
    (void)path;
    char *p = malloc(in->size + 1);
    if (!p)
        return VC4_ERR_NOMEM;
    memcpy(p, in->data, in->size);
    *out = p;
    *len = in->size;
    return VC4_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    struct input in = {data, size};
    struct vc4_asm_options o = {0};
    o.read_file = read_hook;
    o.read_user = &in;
    /* Bounded work is what is tested; 2^16 units keep the slowest input
     * under a second in the instrumented -O0 build (the default 2^22 takes
     * ~60 s there: a libFuzzer timeout, not a hang). */
    o.max_work = 1ul << 16;
    struct vc4_asm *as = vc4_asm_create(&o);
    if (!as)
        return 0;
    vc4_asm_source(as, "fuzz.qasm", (const char *)data, size);
    size_t n;
    (void)vc4_asm_output(as, &n);
    vc4_asm_destroy(as);

    /* the single-line entry point too (NUL-terminated copy) */
    char line[512];
    size_t l = size < sizeof line - 1 ? size : sizeof line - 1;
    memcpy(line, data, l);
    line[l] = 0;
    struct vc4_qpu_instr ins;
    (void)vc4_qpu_assemble(line, 0, &ins, NULL);
    return 0;
}
