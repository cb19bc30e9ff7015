/*
 * test_tilelist.c - the provisional 48/49 tile-list encoding
 * (src/emu/tilelist.c): writer/reader round trip over random primitives,
 * agreement with the cl layer's packet lengths, the clipped record, broken
 * bytes, the dumper.
 */
#include "harness.h"

#include "base/base.h"
#include "emu/tilelist.h"
#include "vc4kit/cl.h"

static uint32_t rng_state = 0x2545F491u;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static struct vc4_tl_prim random_prim(void)
{
    struct vc4_tl_prim p = {0};
    p.nverts = (uint8_t)(1 + rnd() % 3);
    for (unsigned i = 0; i < p.nverts; i++) {
        switch (rnd() % 4) {
        case 0: p.index[i] = rnd() & 0xFF; break;
        case 1: p.index[i] = rnd() & 0xFFFF; break;
        case 2: p.index[i] = 0xFFFF + (rnd() & 3); break; /* around the 16-bit edge */
        default: p.index[i] = rnd(); break;
        }
    }
    return p;
}

/* Encode n primitives as one 48 packet; returns the length. */
static size_t encode48(const struct vc4_tl_prim *p, unsigned n, uint8_t *buf, size_t cap)
{
    size_t len = vc4_tl_write_open48(buf, cap);
    for (unsigned i = 0; i < n; i++) {
        size_t k = vc4_tl_write_prim(&p[i], buf + len, cap - len);
        CHECK(k == vc4_tl_prim_size(&p[i]));
        len += k;
    }
    len += vc4_tl_write_end(buf + len, cap - len);
    return len;
}

static void test_roundtrip_random_48(void)
{
    static uint8_t buf[64 * 1024];
    static struct vc4_tl_prim prims[2000];
    for (int round = 0; round < 200; round++) {
        unsigned n = rnd() % 2000;
        for (unsigned i = 0; i < n; i++)
            prims[i] = random_prim();
        size_t len = encode48(prims, n, buf, sizeof buf);
        CHECK(len > 0);
        /* the reader gives back the primitives, in order */
        struct vc4_tl_reader r;
        CHECK_EQ_INT(vc4_tl_begin(&r, buf, len), VC4_TL_OK);
        CHECK_EQ_INT(r.opcode, VC4_CL_COMPRESSED_PRIMITIVE_LIST);
        struct vc4_tl_prim got;
        unsigned i = 0, bad = 0;
        enum vc4_tl_status st;
        while ((st = vc4_tl_next(&r, &got)) == VC4_TL_OK) {
            if (i >= n || got.nverts != prims[i].nverts ||
                memcmp(got.index, prims[i].index, got.nverts * sizeof got.index[0]))
                bad++;
            i++;
        }
        CHECK_EQ_INT(st, VC4_TL_END);
        CHECK_EQ_INT(i, n);
        CHECK_EQ_INT(bad, 0);
        CHECK_EQ_U64(r.pos, len);
        /* the cl layer finds the same length (its reader walks tile lists) */
        size_t cl_len = 0, tl_len = 0;
        CHECK_EQ_INT(vc4_cl_packet_length(buf, len, &cl_len), VC4_CL_LEN_OK);
        CHECK_EQ_U64(cl_len, len);
        CHECK_EQ_INT(vc4_tl_packet_length(buf, len + 7, &tl_len), VC4_TL_OK);
        CHECK_EQ_U64(tl_len, len);
        /* every cut is truncation, never a crash or a bogus primitive */
        if (round < 20 && len > 1) {
            size_t cut = 1 + rnd() % (len - 1);
            CHECK_EQ_INT(vc4_tl_packet_length(buf, cut, &tl_len), VC4_TL_TRUNCATED);
        }
    }
}

static void test_small_indices_use_16bit_items(void)
{
    struct vc4_tl_prim a = {.nverts = 3, .index = {0, 1, 0xFFFF}};
    struct vc4_tl_prim b = {.nverts = 3, .index = {0, 1, 0x10000}};
    CHECK(vc4_tl_prim_size(&a) < vc4_tl_prim_size(&b));
    struct vc4_tl_prim none = {.nverts = 0};
    struct vc4_tl_prim four = {.nverts = 4};
    CHECK_EQ_U64(vc4_tl_prim_size(&none), 0);
    CHECK_EQ_U64(vc4_tl_prim_size(&four), 0);
    uint8_t buf[4];
    CHECK_EQ_U64(vc4_tl_write_prim(&a, buf, sizeof buf), 0); /* no room */
}

static void test_clipped_packet_and_record(void)
{
    uint8_t buf[64];
    struct vc4_tl_clip_info ci = {.clip_flags = 5, .record_addr = 0x00123450};
    size_t n = vc4_tl_write_open49(&ci, buf, sizeof buf);
    CHECK_EQ_U64(n, vc4_tl_open49_size());
    struct vc4_tl_prim p = {.nverts = 3, .index = {7, 8, 9}};
    n += vc4_tl_write_prim(&p, buf + n, sizeof buf - n);
    n += vc4_tl_write_end(buf + n, sizeof buf - n);
    struct vc4_tl_reader r;
    CHECK_EQ_INT(vc4_tl_begin(&r, buf, n), VC4_TL_OK);
    CHECK_EQ_U64(r.clip.clip_flags, 5);
    CHECK_EQ_U64(r.clip.record_addr, 0x00123450);
    struct vc4_tl_prim got;
    CHECK_EQ_INT(vc4_tl_next(&r, &got), VC4_TL_OK);
    CHECK_EQ_U64(got.index[2], 9);
    CHECK_EQ_INT(vc4_tl_next(&r, &got), VC4_TL_END);
    size_t cl_len = 0;
    CHECK_EQ_INT(vc4_cl_packet_length(buf, n, &cl_len), VC4_CL_LEN_OK);
    CHECK_EQ_U64(cl_len, n);
    /* the fields sit where the cl tables say */
    struct vc4_cl_reader cr;
    struct vc4_cl_packet_view v;
    vc4_cl_reader_init(&cr, buf, n);
    CHECK(vc4_cl_next(&cr, &v));
    struct vc4_cl_clipped_primitive s;
    CHECK_EQ_INT(vc4_cl_decode_struct(&v, &s), VC4_OK);
    CHECK_EQ_U64(s.clip_flags, 5);
    CHECK_EQ_U64(s.clipped_prim_addr, 0x00123450);
    /* a misaligned record address cannot be written */
    struct vc4_tl_clip_info odd = {.clip_flags = 1, .record_addr = 0x1234};
    CHECK_EQ_U64(vc4_tl_write_open49(&odd, buf, sizeof buf), 0);
    /* a 49 holds one primitive: a second one is malformed */
    n = vc4_tl_write_open49(&ci, buf, sizeof buf);
    n += vc4_tl_write_prim(&p, buf + n, sizeof buf - n);
    n += vc4_tl_write_prim(&p, buf + n, sizeof buf - n);
    n += vc4_tl_write_end(buf + n, sizeof buf - n);
    size_t len;
    CHECK_EQ_INT(vc4_tl_packet_length(buf, n, &len), VC4_TL_BAD);

    /* the clipped record round trip */
    struct vc4_tl_clipped c = {.nverts = 5}, back;
    for (unsigned i = 0; i < c.nverts; i++) {
        c.v[i].x_1_16px = (int32_t)(rnd() % 65536) - 32768;
        c.v[i].y_1_16px = -(int32_t)i * 100;
        c.v[i].zs = 0.25f * (float)i;
        c.v[i].inv_wc = 1.0f / (float)(i + 1);
        c.v[i].b[0] = 0.5f;
        c.v[i].b[1] = 0.25f;
        c.v[i].b[2] = 0.25f;
    }
    uint8_t rec[VC4_TL_CLIP_HEADER + VC4_TL_CLIP_MAX_VERTS * VC4_TL_CLIP_VERTEX];
    size_t rn = vc4_tl_write_clipped(&c, rec, sizeof rec);
    CHECK_EQ_U64(rn, vc4_tl_clipped_size(5));
    CHECK(vc4_tl_read_clipped(rec, rn, &back));
    CHECK_EQ_U64(back.nverts, 5);
    CHECK(memcmp(&back, &c, sizeof c) == 0);
    CHECK(!vc4_tl_read_clipped(rec, rn - 1, &back));
    /* a clipped line: 2 end points, 8 + 2 x 24 bytes, the count first */
    c.nverts = 2;
    rn = vc4_tl_write_clipped(&c, rec, sizeof rec);
    CHECK_EQ_U64(rn, 56);
    CHECK_EQ_U64(vc4_le32(rec), 2);
    CHECK(vc4_tl_read_clipped(rec, rn, &back));
    CHECK_EQ_U64(back.nverts, 2);
    CHECK(memcmp(&back.v[0], &c.v[0], 2 * sizeof c.v[0]) == 0);
    CHECK(!vc4_tl_read_clipped(rec, rn - 1, &back));
    /* nothing below a line */
    c.nverts = 1;
    CHECK_EQ_U64(vc4_tl_write_clipped(&c, rec, sizeof rec), 0);
    vc4_st32(rec, 1);
    CHECK(!vc4_tl_read_clipped(rec, sizeof rec, &back));
    vc4_st32(rec, 1000);
    CHECK(!vc4_tl_read_clipped(rec, sizeof rec, &back));
}

static void test_broken_bytes(void)
{
    uint8_t bad_tag[] = {VC4_CL_COMPRESSED_PRIMITIVE_LIST, 0x77, 0};
    size_t len;
    CHECK_EQ_INT(vc4_tl_packet_length(bad_tag, sizeof bad_tag, &len), VC4_TL_BAD);
    uint8_t wrong_op[] = {VC4_CL_NOP, 0};
    CHECK_EQ_INT(vc4_tl_packet_length(wrong_op, sizeof wrong_op, &len), VC4_TL_BAD);
    CHECK_EQ_INT(vc4_tl_packet_length(NULL, 5, &len), VC4_TL_TRUNCATED);
    uint8_t no_end[] = {VC4_CL_COMPRESSED_PRIMITIVE_LIST};
    CHECK_EQ_INT(vc4_tl_packet_length(no_end, sizeof no_end, &len), VC4_TL_TRUNCATED);
    /* random bytes after a 48 opcode: never a crash, always an answer */
    uint8_t buf[40];
    for (int i = 0; i < 20000; i++) {
        buf[0] = (uint8_t)(rnd() & 1 ? VC4_CL_COMPRESSED_PRIMITIVE_LIST : VC4_CL_CLIPPED_PRIMITIVE);
        for (size_t k = 1; k < sizeof buf; k++)
            buf[k] = (uint8_t)rnd();
        size_t n = 1 + rnd() % (sizeof buf - 1);
        enum vc4_tl_status st = vc4_tl_packet_length(buf, n, &len);
        CHECK(st == VC4_TL_OK || st == VC4_TL_BAD || st == VC4_TL_TRUNCATED);
        if (st == VC4_TL_OK)
            CHECK(len <= n);
        char text[64];
        size_t need = vc4_tl_dump(buf, n, text, sizeof text);
        CHECK(strlen(text) == (need < sizeof text ? need : sizeof text - 1));
    }
}

static void test_dump(void)
{
    uint8_t buf[64];
    struct vc4_tl_prim p[3] = {{.nverts = 3, .index = {1, 2, 3}},
                               {.nverts = 2, .index = {70000, 4}},
                               {.nverts = 1, .index = {9}}};
    size_t n = encode48(p, 3, buf, sizeof buf);
    char text[256];
    size_t need = vc4_tl_dump(buf, n, text, sizeof text);
    CHECK_STR(text, "triangle 1 2 3\nline 70000 4\npoint 9\n");
    CHECK_EQ_U64(need, strlen(text));
    /* snprintf-like: a short buffer gets a prefix and the full length */
    char small[8];
    CHECK_EQ_U64(vc4_tl_dump(buf, n, small, sizeof small), need);
    CHECK_STR(small, "triangl");
    CHECK_EQ_U64(vc4_tl_dump(buf, n, NULL, 0), need);

    struct vc4_tl_clip_info ci = {.clip_flags = 3, .record_addr = 0x00012340};
    n = vc4_tl_write_open49(&ci, buf, sizeof buf);
    n += vc4_tl_write_prim(&p[0], buf + n, sizeof buf - n);
    n += vc4_tl_write_end(buf + n, sizeof buf - n);
    vc4_tl_dump(buf, n, text, sizeof text);
    CHECK_STR(text, "clipped flags=0b011 record=0x00012340\ntriangle 1 2 3\n");
    vc4_tl_dump(buf, n - 1, text, sizeof text);
    CHECK_CONTAINS(text, "error: truncated");
    uint8_t bad[] = {VC4_CL_COMPRESSED_PRIMITIVE_LIST, 0x13, 1, 0, 2, 0, 3, 0, 0x99};
    vc4_tl_dump(bad, sizeof bad, text, sizeof text);
    CHECK_STR(text, "triangle 1 2 3\nerror: bad item at +8\n");
    /* the example of docs/tile-lists.md */
    const uint8_t doc[] = {0x30, 0x13, 5, 0, 6, 0, 7, 0, 0x11, 9, 0, 0};
    vc4_tl_dump(doc, sizeof doc, text, sizeof text);
    CHECK_STR(text, "triangle 5 6 7\npoint 9\n");
    uint8_t nop[] = {VC4_CL_NOP};
    vc4_tl_dump(nop, sizeof nop, text, sizeof text);
    CHECK_CONTAINS(text, "error: not a compressed primitive list");
}

TEST_LIST(test_roundtrip_random_48, test_small_indices_use_16bit_items, test_clipped_packet_and_record,
          test_broken_bytes, test_dump)
