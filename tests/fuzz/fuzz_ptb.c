/*
 * fuzz_ptb.c - the binner on arbitrary binning lists over arbitrary memory:
 * it must never crash, hang or write outside emulated memory, and the tile
 * lists it writes must always read back (walked like the rendering list).
 *
 * Input: byte 0 = flags (bit 0: prepend a valid configuration, Start Tile
 * Binning, configuration bits and NV shader state; bits 1-2: tile
 * allocation size class; bit 3: give overflow memory on stalls); bytes 1..:
 * copied to memory at 0 and executed as the binning list.
 */
#include <stdint.h>
#include <string.h>

#include "base/base.h"
#include "emu/ptb.h"
#include "emu/tilelist.h"
#include "emu/v3d.h"
#include "vc4kit/cl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum {
    MEM = 256u << 10,
    TSDA = 0x14000,       /* up to 12 x 12 tiles x 48 bytes */
    TILE_ALLOC = 0x18000, /* up to 0x10000 bytes */
    OVERFLOW = 0x30000,   /* + 0x1000 per stall, up to 8 */
    MAX_STALLS = 8,
    /* primitive packets larger than this are skipped (the unit tests check
     * the binner's own bounds; this keeps each input fast) */
    MAX_FUZZ_VERTICES = 4096,
};

static void run(struct vc4_v3d *v, struct vc4_emu *e, const uint8_t *cl, size_t n, bool overflow)
{
    struct vc4_cl_reader rd;
    struct vc4_cl_packet_view pk;
    vc4_cl_reader_init(&rd, cl, n);
    unsigned stalls = 0;
    while (vc4_cl_next(&rd, &pk) && pk.opcode != VC4_CL_HALT) {
        if (!vc4_ptb_handles(pk.opcode))
            continue;
        if (pk.opcode == VC4_CL_VERTEX_ARRAY_PRIMITIVES || pk.opcode == VC4_CL_INDEXED_PRIMITIVE_LIST ||
            pk.opcode == VC4_CL_VG_COORDINATE_ARRAY_PRIMITIVES) {
            uint64_t len = 0;
            if (vc4_cl_get(&pk, "length", &len) != VC4_OK || len > MAX_FUZZ_VERTICES)
                continue;
        }
        enum vc4_ptb_result r;
        while ((r = vc4_ptb_packet(v, &pk, (uint32_t)pk.offset)) == VC4_PTB_STALL) {
            if (!overflow || ++stalls > MAX_STALLS)
                return;
            vc4_emu_reg_write(e, VC4_V3D_BPOA, OVERFLOW + 0x1000 * stalls);
            vc4_emu_reg_write(e, VC4_V3D_BPOS, 0x1000);
        }
    }
}

/* Walk every tile list the way the rendering list would. */
static void walk_all(struct vc4_v3d *v)
{
    const struct vc4_ptb *p = &v->ptb;
    if (!p->configured)
        return;
    for (uint32_t y = 0; y < p->cfg.height_tiles; y++)
        for (uint32_t x = 0; x < p->cfg.width_tiles; x++) {
            uint32_t a = vc4_ptb_tile_list_addr(p, x, y);
            for (int steps = 0; steps < 2000; steps++) {
                uint32_t off;
                if (!vc4_mem_span(&v->mem, a, 1, &off))
                    break;
                const uint8_t *b = v->mem.ram + off;
                size_t avail = v->mem.size - off, len = 0;
                if (b[0] == VC4_CL_COMPRESSED_PRIMITIVE_LIST || b[0] == VC4_CL_CLIPPED_PRIMITIVE) {
                    char text[256];
                    vc4_tl_dump(b, avail, text, sizeof text);
                    if (vc4_tl_packet_length(b, avail, &len) != VC4_TL_OK)
                        break;
                } else if (vc4_cl_packet_length(b, avail, &len) != VC4_CL_LEN_OK ||
                           b[0] == VC4_CL_RETURN_FROM_SUB_LIST || b[0] == VC4_CL_HALT) {
                    break;
                } else if (b[0] == VC4_CL_BRANCH) {
                    a = vc4_le32(b + 1);
                    continue;
                }
                a += (uint32_t)len;
            }
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    /* (a budget of its own for the shading each primitive packet makes:
     * with the default 100 million cycles one looping coordinate shader
     * took 23 s in the fuzzing build, past libFuzzer's timeout) */
    struct vc4_emu_options o = {.mem_size = MEM, .num_qpus = 1, .max_cycles = 200000};
    struct vc4_emu *e = vc4_emu_create(&o);
    if (!e)
        return 0;
    struct vc4_v3d *v = &e->v3d;
    uint8_t flags = data[0];
    size_t n = size - 1;
    if (n > 0x10000)
        n = 0x10000;
    vc4_emu_mem_write(e, 0, data + 1, n);
    if (flags & 1) {
        struct vc4_cl cl;
        vc4_cl_init(&cl, NULL, 0, NULL);
        static const uint32_t alloc_sizes[4] = {0x400, 0x1000, 0x4000, 0x10000};
        struct vc4_cl_tile_binning_mode_config cfg = {
            .tile_alloc_addr = TILE_ALLOC, .tile_alloc_size = alloc_sizes[(flags >> 1) & 3],
            .tsda_addr = TSDA, .width_tiles = n > 0 ? 1u + data[1] % 12 : 4,
            .height_tiles = n > 1 ? 1u + data[2] % 12 : 4, .auto_init_tsda = true,
            .initial_block_size = (flags >> 4) & 3, .block_size = (flags >> 6) & 3};
        vc4_cl_tile_binning_mode_config(&cl, &cfg);
        vc4_cl_start_tile_binning(&cl);
        struct vc4_cl_configuration_bits cb = {.enable_forward_facing = true,
                                               .enable_reverse_facing = true};
        vc4_cl_configuration_bits(&cl, &cb);
        /* an NV record somewhere in the input's memory */
        struct vc4_cl_nv_shader_state nv = {.record_addr = n > 4 ? (uint32_t)(data[3] << 4) : 0};
        vc4_cl_nv_shader_state(&cl, &nv);
        if (cl.status == VC4_OK)
            run(v, e, cl.data, cl.len, flags & 8);
        vc4_cl_free(&cl);
    }
    run(v, e, data + 1, n, flags & 8);
    walk_all(v);
    vc4_emu_destroy(e);
    return 0;
}
