/*
 * fuzz_cl.c - random bytes through the control-list reader, decoder,
 * dumper and validator; none may crash, read out of bounds or disagree
 * with the others about where packets are.
 *
 * Input layout: byte 0 chooses the options (bits 1:0 the list: guess, bin,
 * render; bit 2 the kernel rules; bit 3 the input doubles as the memory
 * image at bus address 0, which makes the validator read records and
 * indices from it); the rest is the control list.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vc4kit/cl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void format_fn(void *user, const struct vc4_diag *d)
{
    unsigned *n = user;
    char buf[1024];
    vc4_diag_format(d, buf, sizeof buf); /* every message must format */
    if (!d->message || strcmp(d->unit, "cl") != 0)
        abort();
    (*n)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t opt = data[0];
    const uint8_t *list = data + 1;
    size_t n = size - 1;

    /* reader: contiguous packets, decodable, never past the end */
    struct vc4_cl_reader r;
    struct vc4_cl_packet_view p;
    vc4_cl_reader_init(&r, list, n);
    size_t pos = 0;
    while (vc4_cl_next(&r, &p)) {
        if (p.offset != pos || !p.desc || p.length < p.desc->length || p.offset + p.length > n)
            abort();
        uint64_t v[VC4_CL_MAX_FIELDS];
        if (vc4_cl_decode(&p, v) != VC4_OK)
            abort();
        /* re-packing what was read gives the bytes back, reserved bits aside */
        uint8_t again[16];
        if (vc4_cl_pack(p.opcode, v, again, NULL) != VC4_OK || again[0] != p.opcode)
            abort();
        pos += p.length;
    }
    if (pos > n || (pos < n && r.error == VC4_CL_LEN_OK))
        abort();

    /* dumper: exact-size and short buffers */
    struct vc4_cl_dump_options dopt = {.base_addr = 0x1000, .lists = opt & 3u};
    if (opt & 8u) { /* shader records read from the input, printed as comments */
        dopt.mem_size = size;
        dopt.mem = data;
    }
    size_t need = vc4_cl_dump(list, n, &dopt, NULL, 0);
    char *text = malloc(need + 1);
    if (text) {
        if (vc4_cl_dump(list, n, &dopt, text, need + 1) != need || strlen(text) != need)
            abort();
        free(text);
    }
    char small[37];
    vc4_cl_dump(list, n, &dopt, small, sizeof small);

    /* validator */
    unsigned count = 0;
    struct vc4_diag_sink sink = {format_fn, &count};
    struct vc4_cl_validate_options vo = {.list = opt & 3u, .kernel_rules = (opt >> 2) & 1u};
    if (opt & 8u) {
        vo.mem_base = 0;
        vo.mem_size = size;
        vo.mem = data;
    }
    enum vc4_status st = vc4_cl_validate(list, n, &vo, &sink);
    if (st != VC4_OK && count == 0)
        abort(); /* a failure always says why */
    return 0;
}
