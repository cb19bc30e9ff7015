/*
 * test_cl_decode.c - the typed control-list decoders generated from the
 * packet list (vc4_cl_decode_<id>): a packet emitted with the typed emitter
 * reads back field for field; another opcode, a short packet or NULL is
 * VC4_ERR_INVALID and leaves the struct alone.
 */
#include "harness.h"
#include "vc4kit/cl.h"

static bool read_one(const struct vc4_cl *cl, size_t skip, struct vc4_cl_packet_view *pv)
{
    struct vc4_cl_reader r;
    vc4_cl_reader_init(&r, cl->data, cl->len);
    for (size_t i = 0; i <= skip; i++)
        if (!vc4_cl_next(&r, pv))
            return false;
    return true;
}

static void test_round_trip(void)
{
    struct vc4_cl cl;
    vc4_cl_init(&cl, NULL, 0x1000, NULL);
    struct vc4_cl_tile_rendering_mode_config t = {.fb_addr = 0x00400000, .width_px = 640, .height_px = 480,
                                                  .multisample_4x = true, .color_format = VC4_CL_FB_BGR565,
                                                  .memory_format = VC4_CL_MEM_T};
    vc4_cl_tile_rendering_mode_config(&cl, &t);
    struct vc4_cl_indexed_primitive_list ip = {.primitive_mode = VC4_CL_PRIM_TRIANGLE_STRIP,
                                               .index_type = VC4_CL_INDEX_16BIT, .length = 7,
                                               .index_addr = 0x00123456, .max_index = 99};
    vc4_cl_indexed_primitive_list(&cl, &ip);
    CHECK_EQ_INT(cl.status, VC4_OK);

    struct vc4_cl_packet_view pv;
    CHECK(read_one(&cl, 0, &pv));
    struct vc4_cl_tile_rendering_mode_config t2;
    memset(&t2, 0xAB, sizeof t2);
    CHECK_EQ_INT(vc4_cl_decode_tile_rendering_mode_config(&pv, &t2), VC4_OK);
    CHECK_EQ_U64(t2.fb_addr, t.fb_addr);
    CHECK_EQ_U64(t2.width_px, 640);
    CHECK_EQ_U64(t2.height_px, 480);
    CHECK(t2.multisample_4x);
    CHECK_EQ_U64(t2.color_format, VC4_CL_FB_BGR565);
    CHECK_EQ_U64(t2.memory_format, VC4_CL_MEM_T);
    /* the wrong decoder for this packet: refused, struct untouched */
    struct vc4_cl_indexed_primitive_list wrong;
    memset(&wrong, 0x5A, sizeof wrong);
    CHECK_EQ_INT(vc4_cl_decode_indexed_primitive_list(&pv, &wrong), VC4_ERR_INVALID);
    CHECK_EQ_U64(wrong.length, 0x5A5A5A5Au);

    CHECK(read_one(&cl, 1, &pv));
    struct vc4_cl_indexed_primitive_list ip2;
    CHECK_EQ_INT(vc4_cl_decode_indexed_primitive_list(&pv, &ip2), VC4_OK);
    CHECK_EQ_U64(ip2.primitive_mode, VC4_CL_PRIM_TRIANGLE_STRIP);
    CHECK_EQ_U64(ip2.index_type, VC4_CL_INDEX_16BIT);
    CHECK_EQ_U64(ip2.length, 7);
    CHECK_EQ_U64(ip2.index_addr, 0x00123456);
    CHECK_EQ_U64(ip2.max_index, 99);
    /* a truncated view and NULLs */
    struct vc4_cl_packet_view shortv = pv;
    shortv.length = 3;
    CHECK_EQ_INT(vc4_cl_decode_indexed_primitive_list(&shortv, &ip2), VC4_ERR_INVALID);
    CHECK_EQ_INT(vc4_cl_decode_indexed_primitive_list(NULL, &ip2), VC4_ERR_INVALID);
    CHECK_EQ_INT(vc4_cl_decode_indexed_primitive_list(&pv, NULL), VC4_ERR_INVALID);
    vc4_cl_free(&cl);
}

TEST_LIST(test_round_trip)
