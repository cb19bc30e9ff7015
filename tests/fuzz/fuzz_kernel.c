/*
 * fuzz_kernel.c - the vc4 kernel stand-in (src/kernel) under hostile
 * submits, as a GL program could hand them to DRM_IOCTL_VC4_SUBMIT_CL and
 * DRM_IOCTL_VC4_CREATE_SHADER_BO: binning lists, shader records, uniform
 * streams, BO handle lists, rendering surfaces, tile ranges and clear values
 * all come from the input, over a few real BOs (a valid fragment shader, a
 * frame buffer, a Z buffer, vertex data).  Validation must refuse what it
 * refuses with an error code, and what it accepts must bin and render under
 * a small cycle budget: never a crash, a hang or a host memory access.
 *
 * Input (missing bytes are 0):
 *   0      flags: bit 0 CREATE_SHADER_BO from the code bytes, bit 1 a second
 *          submit after the first, bit 2 close a BO in between
 *   1..3   bin CL, shader record and uniform stream lengths (bytes)
 *   4      BO handle count (low 3 bits)
 *   5..8   width, height (u16 each)
 *   9..12  min/max x/y tile
 *   13..   6 surfaces x 8 bytes (hindex u8, offset u24 x 256 B, bits u16,
 *          flags u16), clear colour (8), clear Z (4), clear S (1), submit
 *          flags (1), shader record count (1), handle list (8 x 1 byte,
 *          an index into the BOs made here), then the bin CL, shader
 *          record, uniform and code bytes
 */
#include <stdint.h>
#include <string.h>

#include "kernel/kernel.h"
#include "vc4kit/emu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct input {
    const uint8_t *d;
    size_t n, pos;
};

static uint8_t u8(struct input *in) { return in->pos < in->n ? in->d[in->pos++] : 0; }

static uint32_t le(struct input *in, unsigned bytes)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint32_t)u8(in) << (8 * i);
    return v;
}

/* The next len bytes of the input, zero-padded into buf. */
static const uint8_t *take(struct input *in, uint8_t *buf, size_t len)
{
    memset(buf, 0, len);
    for (size_t i = 0; i < len && in->pos < in->n; i++)
        buf[i] = in->d[in->pos++];
    return buf;
}

/* The uniform-colour fragment shader of examples/nv_triangle.qasm. */
static const uint32_t fs_words[] = {
    0x20820df7, 0xd14059e5, 0x20820037, 0xd15059e5, 0x20820037, 0xd16059e5, 0x20820037, 0xd17059e5,
    0x159e7b40, 0x10020ba7, 0x009e7000, 0x300009e7, 0x009e7000, 0x100009e7, 0x009e7000, 0x500009e7,
};

enum { NBO = 6 };

static void surface(struct input *in, struct vc4k_surface *s)
{
    uint8_t h = u8(in);
    s->hindex = h == 0xFF ? ~0u : h & 7u;
    s->offset = le(in, 3) * 256u;
    s->bits = (uint16_t)le(in, 2);
    s->flags = (uint16_t)le(in, 2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct input in = {data, size, 0};
    struct vc4_emu_options eo = {.mem_size = 16u << 20, .max_cycles = 200000};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    if (!emu)
        return 0;
    struct vc4k_options ko = {.emu = emu, .max_cycles = 200000, .tile_alloc_extra = 4096};
    struct vc4k *k = vc4k_create(&ko);
    if (!k) {
        vc4_emu_destroy(emu);
        return 0;
    }
    uint32_t bo[NBO + 1] = {0};
    uint8_t fs_bytes[sizeof fs_words];
    for (size_t i = 0; i < sizeof fs_words / 4; i++)
        for (unsigned b = 0; b < 4; b++)
            fs_bytes[4 * i + b] = (uint8_t)(fs_words[i] >> (8 * b));
    vc4k_bo_create_shader(k, fs_bytes, sizeof fs_bytes, &bo[0]);
    vc4k_bo_create(k, 64 * 64 * 4, &bo[1]); /* colour */
    vc4k_bo_create(k, 64 * 64 * 4, &bo[2]); /* Z/stencil */
    vc4k_bo_create(k, 4096, &bo[3]);        /* vertices */
    vc4k_bo_create(k, 4096, &bo[4]);        /* indices */
    vc4k_bo_create(k, 4096, &bo[5]);        /* textures, anything */

    uint8_t flags = u8(&in);
    uint32_t bin_len = u8(&in), rec_len = u8(&in), unif_len = u8(&in);
    unsigned nh = u8(&in) & 7u;
    struct vc4k_submit s = {0};
    s.width = (uint16_t)le(&in, 2);
    s.height = (uint16_t)le(&in, 2);
    s.min_x_tile = u8(&in);
    s.min_y_tile = u8(&in);
    s.max_x_tile = u8(&in);
    s.max_y_tile = u8(&in);
    surface(&in, &s.color_read);
    surface(&in, &s.color_write);
    surface(&in, &s.zs_read);
    surface(&in, &s.zs_write);
    surface(&in, &s.msaa_color_write);
    surface(&in, &s.msaa_zs_write);
    s.clear_color[0] = le(&in, 4);
    s.clear_color[1] = le(&in, 4);
    s.clear_z = le(&in, 4);
    s.clear_s = u8(&in);
    s.flags = u8(&in);
    s.shader_rec_count = u8(&in) & 15u;
    uint32_t handles[8];
    for (unsigned i = 0; i < 8; i++) {
        uint8_t h = u8(&in);
        handles[i] = h == 0xFF ? 0xDEAD : bo[h % NBO]; /* 0xDEAD: no such handle */
    }
    static uint8_t bin[256], rec[256], unif[256], code[256];
    s.bin_cl = take(&in, bin, bin_len);
    s.bin_cl_size = bin_len;
    s.shader_rec = take(&in, rec, rec_len);
    s.shader_rec_size = rec_len;
    s.uniforms = take(&in, unif, unif_len);
    s.uniforms_size = unif_len;
    s.bo_handles = handles;
    s.bo_handle_count = nh;
    if (flags & 1u) {
        size_t n = in.n > in.pos ? in.n - in.pos : 0;
        if (n > sizeof code)
            n = sizeof code;
        take(&in, code, n);
        if (vc4k_bo_create_shader(k, code, (uint32_t)n, &bo[NBO]) == 0)
            handles[0] = bo[NBO];
    }
    vc4k_submit_cl(k, &s);
    if (flags & 4u)
        vc4k_bo_close(k, bo[1]);
    if (flags & 2u)
        vc4k_submit_cl(k, &s); /* again, over what the first one left (and a closed BO) */
    vc4k_wait_seqno(k, s.seqno);
    vc4k_destroy(k);
    vc4_emu_destroy(emu);
    return 0;
}
