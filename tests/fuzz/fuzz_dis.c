/*
 * fuzz_dis.c - decode + disassemble + assemble every 8 bytes of the input:
 * the text must assemble back to the identical word (abort() otherwise).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "vc4kit/qpu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i + 8 <= size; i += 8) {
        uint64_t w = vc4_qpu_load_le(data + i);
        struct vc4_qpu_instr in, out;
        vc4_qpu_decode(w, &in);
        char text[512], more[2048];
        vc4_qpu_disasm(&in, (uint32_t)i, 0, text, sizeof text);
        vc4_qpu_disasm(&in, (uint32_t)i, VC4_DIS_EXPLAIN | VC4_DIS_FIELDS, more, sizeof more);
        if (vc4_qpu_assemble(text, (uint32_t)i, &out, NULL) != VC4_OK ||
            vc4_qpu_encode(&out) != w) {
            fprintf(stderr, "round trip failed: 0x%016llx \"%s\"\n", (unsigned long long)w, text);
            abort();
        }
    }
    return 0;
}
