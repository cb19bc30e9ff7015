/*
 * test_cl_kernel.c - the Linux kernel's binning-list packet rules
 * (cl/cl_kernel.c, vc4_validate.c), the one implementation behind
 * `cl validate --kernel` and the kernel stand-in's SUBMIT_CL: each fault
 * from a list the writer builds, none for a list the kernel takes; the
 * whitelist and the GEM handles packet.
 */
#include <stdbool.h>
#include <stdint.h>

#include "harness.h"
#include "cl/cl_kernel.h"
#include "vc4kit/cl.h"

static const struct vc4_cl_tile_binning_mode_config good_cfg = {
    .width_tiles = 2, .height_tiles = 2, .auto_init_tsda = true,
};

/* The faults of every packet of cl's list, in order (at most n). */
static unsigned walk(const struct vc4_cl *cl, unsigned *faults, unsigned n)
{
    struct vc4_kbin s = {0};
    struct vc4_cl_reader r;
    struct vc4_cl_packet_view p;
    unsigned i = 0;
    vc4_cl_reader_init(&r, cl->data, cl->len);
    while (vc4_cl_next(&r, &p) && i < n)
        faults[i++] = vc4_kbin_check(&s, &p);
    return i;
}

static void test_accepted(void)
{
    struct vc4_cl cl;
    vc4_cl_init(&cl, NULL, 0, NULL);
    struct vc4_cl_gl_shader_state gs = {.num_attr_arrays = 1, .extended = true};
    vc4_cl_tile_binning_mode_config(&cl, &good_cfg);
    vc4_cl_start_tile_binning(&cl);
    vc4_cl_gl_shader_state(&cl, &gs);
    vc4_cl_increment_semaphore(&cl);
    vc4_cl_flush(&cl);
    CHECK_EQ_INT(cl.status, VC4_OK);
    unsigned f[8];
    CHECK_EQ_INT(walk(&cl, f, 8), 5);
    for (unsigned i = 0; i < 5; i++)
        CHECK_EQ_INT(f[i], 0);
    vc4_cl_free(&cl);
}

static void test_config(void)
{
    struct vc4_cl cl;
    vc4_cl_init(&cl, NULL, 0, NULL);
    struct vc4_cl_tile_binning_mode_config c = good_cfg;
    vc4_cl_tile_binning_mode_config(&cl, &c); /* fine */
    c.width_tiles = 0;
    vc4_cl_tile_binning_mode_config(&cl, &c); /* a second one, and no tiles */
    c = good_cfg;
    c.double_buffer_non_ms = true;
    vc4_cl_tile_binning_mode_config(&cl, &c);
    c = good_cfg;
    c.tile_buffer_64bit = true;
    c.height_tiles = 0;
    vc4_cl_tile_binning_mode_config(&cl, &c);
    c = good_cfg;
    c.multisample_4x = true; /* the kernel keeps multisampling */
    vc4_cl_tile_binning_mode_config(&cl, &c);
    CHECK_EQ_INT(cl.status, VC4_OK);
    unsigned f[8];
    CHECK_EQ_INT(walk(&cl, f, 8), 5);
    CHECK_EQ_INT(f[0], 0);
    CHECK_EQ_INT(f[1], VC4_KBIN_SECOND_CONFIG | VC4_KBIN_NO_TILES);
    CHECK_EQ_INT(f[2], VC4_KBIN_SECOND_CONFIG | VC4_KBIN_CONFIG_FLAGS);
    CHECK_EQ_INT(f[3], VC4_KBIN_SECOND_CONFIG | VC4_KBIN_CONFIG_FLAGS | VC4_KBIN_NO_TILES);
    CHECK_EQ_INT(f[4], VC4_KBIN_SECOND_CONFIG);
    vc4_cl_free(&cl);
}

static void test_start_and_shader_state(void)
{
    struct vc4_cl cl;
    vc4_cl_init(&cl, NULL, 0, NULL);
    vc4_cl_start_tile_binning(&cl); /* before the configuration */
    vc4_cl_tile_binning_mode_config(&cl, &good_cfg);
    vc4_cl_start_tile_binning(&cl); /* a second */
    struct vc4_cl_gl_shader_state gs = {.num_attr_arrays = 2, .record_addr = 0x1000};
    vc4_cl_gl_shader_state(&cl, &gs); /* the record address is the kernel's */
    CHECK_EQ_INT(cl.status, VC4_OK);
    unsigned f[8];
    CHECK_EQ_INT(walk(&cl, f, 8), 4);
    CHECK_EQ_INT(f[0], VC4_KBIN_START_BEFORE_CONFIG);
    CHECK_EQ_INT(f[1], 0);
    CHECK_EQ_INT(f[2], VC4_KBIN_SECOND_START);
    CHECK_EQ_INT(f[3], VC4_KBIN_SHADER_STATE_ADDR);
    vc4_cl_free(&cl);
}

static void test_whitelist_and_gem_handles(void)
{
    CHECK(vc4_kbin_whitelisted(vc4_cl_packet(VC4_CL_TILE_BINNING_MODE_CONFIG)));
    CHECK(vc4_kbin_whitelisted(vc4_cl_packet(VC4_CL_INDEXED_PRIMITIVE_LIST)));
    CHECK(!vc4_kbin_whitelisted(vc4_cl_packet(VC4_CL_NV_SHADER_STATE)));
    CHECK(!vc4_kbin_whitelisted(vc4_cl_packet(VC4_CL_STORE_TILE_BUFFER_GENERAL)));
    CHECK(!vc4_kbin_whitelisted(NULL));
    CHECK(vc4_cl_packet(VC4_KBIN_GEM_HANDLES) == NULL); /* no hardware packet */
    const uint8_t gem[VC4_KBIN_GEM_HANDLES_BYTES] = {VC4_KBIN_GEM_HANDLES, 3, 0, 0, 0, 0x01, 0x02, 0, 0};
    uint32_t idx[2] = {0, 0};
    CHECK(vc4_kbin_gem_handles(gem, sizeof gem, idx));
    CHECK_EQ_INT(idx[0], 3);
    CHECK_EQ_INT(idx[1], 0x201);
    CHECK(!vc4_kbin_gem_handles(gem, sizeof gem - 1, idx));
}

TEST_LIST(test_accepted, test_config, test_start_and_shader_state, test_whitelist_and_gem_handles)
