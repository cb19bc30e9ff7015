/*
 * test_vpm.c - the VPM unit against an independent reference model written
 * from seed 003's prose: the VPM as a flat array of bytes, 64 bytes a row,
 * where each mode says which bytes element i of a 16-wide vector touches.
 */
#include "harness.h"

#include "base/base.h"
#include "emu/mem.h"
#include "emu/vpm.h"

/* ---- reference model (bytes) ---------------------------------------------- */

enum { REF_BYTES = VC4_VPM_MAX_ROWS * 64 };
static uint8_t ref[REF_BYTES];

/* Byte offset of element i for a generic access, from the seed's prose:
 * horizontal 32-bit: row Y, word i.  Laned 8/16-bit: word i of row Y, lane
 * B/H.  Packed: 16 consecutive bytes / 32 consecutive bytes of block H.
 * Vertical: the same down column X starting at row Y (a multiple of 16),
 * packed blocks sliding down. */
static unsigned ref_generic(int horiz, int laned, int size, unsigned addr, unsigned i)
{
    unsigned off;
    if (size == 2) {
        addr &= 63;
        if (horiz)
            off = addr * 64 + 4 * i;
        else
            off = ((addr >> 4) * 16 + i) * 64 + 4 * (addr & 15);
    } else if (size == 1) {
        addr &= 127;
        unsigned h = addr & 1;
        if (horiz) {
            unsigned y = addr >> 1;
            off = laned ? y * 64 + 4 * i + 2 * h : y * 64 + 32 * h + 2 * i;
        } else {
            unsigned x = (addr >> 1) & 15, y = (addr >> 5) * 16;
            off = laned ? (y + i) * 64 + 4 * x + 2 * h : (y + 8 * h + i / 2) * 64 + 4 * x + 2 * (i % 2);
        }
    } else {
        addr &= 255;
        unsigned b = addr & 3;
        if (horiz) {
            unsigned y = addr >> 2;
            off = laned ? y * 64 + 4 * i + b : y * 64 + 16 * b + i;
        } else {
            unsigned x = (addr >> 2) & 15, y = (addr >> 6) * 16;
            off = laned ? (y + i) * 64 + 4 * x + b : (y + 4 * b + i / 4) * 64 + 4 * x + i % 4;
        }
    }
    return off % (64 * 64);
}

static unsigned ref_addr_mask(int size) { return size == 2 ? 63u : size == 1 ? 127u : 255u; }
static unsigned ref_esz(int size) { return size == 2 ? 4u : size == 1 ? 2u : 1u; }

static void ref_put(unsigned off, uint32_t v, unsigned esz)
{
    for (unsigned k = 0; k < esz; k++)
        ref[(off + k) % REF_BYTES] = (uint8_t)(v >> (8 * k));
}
static uint32_t ref_get(unsigned off, unsigned esz)
{
    uint32_t v = 0;
    for (unsigned k = 0; k < esz; k++)
        v |= (uint32_t)ref[(off + k) % REF_BYTES] << (8 * k);
    return v;
}

static void fill_both(struct vc4_vpm *v, uint32_t seed)
{
    for (unsigned w = 0; w < VC4_VPM_MAX_ROWS * 16; w++) {
        uint32_t x = seed ^ (w * 0x9E3779B1u);
        v->words[w] = x;
        vc4_st32(ref + 4 * w, x);
    }
}

static int same_as_ref(const struct vc4_vpm *v)
{
    for (unsigned w = 0; w < VC4_VPM_MAX_ROWS * 16; w++)
        if (v->words[w] != vc4_le32(ref + 4 * w))
            return 0;
    return 1;
}

static uint32_t gen_setup(int horiz, int laned, int size, unsigned stride, unsigned addr, unsigned num)
{
    return (num & 15u) << 20 | (stride & 63u) << 12 | (unsigned)horiz << 11 | (unsigned)laned << 10 |
           (unsigned)size << 8 | (addr & 255u);
}

static struct vc4_vpm vpm; /* large: keep off the stack */

/* Every generic mode, several addresses and strides: writes then reads. */
static void test_generic_modes(void)
{
    static const unsigned addrs[] = {0, 1, 2, 3, 5, 17, 33, 63, 64, 100, 127, 130, 200, 255};
    static const unsigned strides[] = {1, 2, 3, 16, 0 /* 64 */};
    struct harness_diags h;
    struct vc4_diag_sink sink = harness_sink(&h);
    unsigned modes = 0;
    for (int size = 0; size <= 2; size++)
        for (int horiz = 0; horiz <= 1; horiz++)
            for (int laned = 0; laned <= 1; laned++)
                for (size_t ai = 0; ai < VC4_ARRAY_SIZE(addrs); ai++)
                    for (size_t si = 0; si < VC4_ARRAY_SIZE(strides); si++) {
                        vc4_vpm_init(&vpm, 12);
                        fill_both(&vpm, (uint32_t)(size * 7 + horiz * 3 + laned) * 0x01010101u);
                        unsigned addr = addrs[ai] & ref_addr_mask(size);
                        unsigned stride = strides[si] ? strides[si] : 64u;
                        unsigned esz = ref_esz(size);
                        int eff_laned = size == 2 ? 0 : laned;
                        uint32_t w = gen_setup(horiz, laned, size, strides[si], addrs[ai], 0);
                        CHECK_EQ_U64(vc4_vpm_wr_setup(&vpm, 0, w, 0, &sink, NULL), 0);
                        unsigned a = addr;
                        for (unsigned n = 0; n < 5; n++) {
                            uint32_t val[16];
                            for (unsigned i = 0; i < 16; i++)
                                val[i] = 0xA5000000u + n * 0x10101u + i * 0x0F0Fu;
                            CHECK_EQ_U64(vc4_vpm_write(&vpm, 0, 0xFFFF, val, n, &sink, NULL), 0);
                            for (unsigned i = 0; i < 16; i++)
                                ref_put(ref_generic(horiz, eff_laned, size, a, i), val[i], esz);
                            a = (a + stride) & ref_addr_mask(size);
                        }
                        CHECK_MSG(same_as_ref(&vpm), "write size %d horiz %d laned %d addr %u stride %u",
                                  size, horiz, laned, addr, stride);
                        /* read the same 5 vectors back with NUM = 5 */
                        w = gen_setup(horiz, laned, size, strides[si], addrs[ai], 5);
                        CHECK_EQ_U64(vc4_vpm_rd_setup(&vpm, 0, w, 100, &sink, NULL), 0);
                        a = addr;
                        for (unsigned n = 0; n < 5; n++) {
                            uint32_t out[16];
                            CHECK_EQ_U64(vc4_vpm_read(&vpm, 0, out, 103 + n, NULL, &sink, NULL), 0);
                            int ok = 1;
                            for (unsigned i = 0; i < 16; i++)
                                ok &= out[i] == ref_get(ref_generic(horiz, eff_laned, size, a, i), esz);
                            CHECK_MSG(ok, "read size %d horiz %d laned %d addr %u stride %u vec %u",
                                      size, horiz, laned, addr, stride, n);
                            a = (a + stride) & ref_addr_mask(size);
                        }
                        CHECK_EQ_U64(vc4_vpm_program_end(&vpm, 0, &sink, NULL), 0);
                        modes++;
                    }
    CHECK_EQ_INT(h.warnings + h.errors, 0);
    CHECK_EQ_INT(modes, 3 * 2 * 2 * 14 * 5);
}

/* Spot checks written straight from the seed's pictures. */
static void test_seed_pictures(void)
{
    vc4_vpm_init(&vpm, 12);
    uint32_t val[16];
    for (unsigned i = 0; i < 16; i++)
        val[i] = 0x11111111u * (i & 15) + i;
    /* (e) 32-bit horizontal, Y = 63 */
    vc4_vpm_wr_setup(&vpm, 0, gen_setup(1, 0, 2, 1, 63, 0), 0, NULL, NULL);
    vc4_vpm_write(&vpm, 0, 0xFFFF, val, 0, NULL, NULL);
    for (unsigned i = 0; i < 16; i++)
        CHECK_EQ_U64(vc4_vpm_peek(&vpm, 63, i), val[i]);
    /* (b) 8-bit laned horizontal, Y = 1, B = 1: byte 1 of every word of row 1 */
    vc4_vpm_wr_setup(&vpm, 0, gen_setup(1, 1, 0, 1, 1 << 2 | 1, 0), 0, NULL, NULL);
    vc4_vpm_write(&vpm, 0, 0xFFFF, val, 0, NULL, NULL);
    for (unsigned i = 0; i < 16; i++)
        CHECK_EQ_U64(vc4_vpm_peek(&vpm, 1, i), (uint32_t)(val[i] & 0xFF) << 8);
    /* 8-bit packed horizontal, H = 2: the 16 bytes at words 8..11 */
    vc4_vpm_wr_setup(&vpm, 0, gen_setup(1, 0, 0, 1, 5 << 2 | 2, 0), 0, NULL, NULL);
    vc4_vpm_write(&vpm, 0, 0xFFFF, val, 0, NULL, NULL);
    for (unsigned wd = 8; wd < 12; wd++) {
        uint32_t e = 0;
        for (unsigned k = 0; k < 4; k++)
            e |= (val[(wd - 8) * 4 + k] & 0xFF) << (8 * k);
        CHECK_EQ_U64(vc4_vpm_peek(&vpm, 5, wd), e);
    }
    CHECK_EQ_U64(vc4_vpm_peek(&vpm, 5, 7), 0);
    CHECK_EQ_U64(vc4_vpm_peek(&vpm, 5, 12), 0);
    /* 32-bit vertical, Y = 16, X = 3: column 3 of rows 16..31 */
    vc4_vpm_wr_setup(&vpm, 0, gen_setup(0, 0, 2, 1, 1 << 4 | 3, 0), 0, NULL, NULL);
    vc4_vpm_write(&vpm, 0, 0xFFFF, val, 0, NULL, NULL);
    for (unsigned i = 0; i < 16; i++)
        CHECK_EQ_U64(vc4_vpm_peek(&vpm, 16 + i, 3), val[i]);
    /* 16-bit packed vertical, Y = 32, X = 2, H = 1: rows 40..47, 2 halves each */
    vc4_vpm_wr_setup(&vpm, 0, gen_setup(0, 0, 1, 1, (2 << 5) | (2 << 1) | 1, 0), 0, NULL, NULL);
    vc4_vpm_write(&vpm, 0, 0xFFFF, val, 0, NULL, NULL);
    for (unsigned r = 0; r < 8; r++)
        CHECK_EQ_U64(vc4_vpm_peek(&vpm, 40 + r, 2),
                     (val[2 * r] & 0xFFFF) | (val[2 * r + 1] & 0xFFFF) << 16);
}

/* The seed's ADDR bits above the field width are ignored: 0x17BC1AC2 is a
 * 32-bit horizontal stride-1 write setup at Y = 2. */
static void test_seed_setup_words(void)
{
    vc4_vpm_init(&vpm, 12);
    CHECK_EQ_U64(vc4_vpm_wr_setup(&vpm, 3, 0x17BC1AC2u, 0, NULL, NULL), 0);
    CHECK(vpm.q[3].wr.horiz);
    CHECK_EQ_INT(vpm.q[3].wr.size, VC4_VPM_SIZE_32);
    CHECK_EQ_INT(vpm.q[3].wr.stride, 1);
    CHECK_EQ_U64(vpm.q[3].wr.addr, 2);
}

static void test_read_fifo_rules(void)
{
    struct harness_diags h;
    struct vc4_diag_sink sink = harness_sink(&h);
    uint32_t out[16];
    vc4_vpm_init(&vpm, 12);
    /* an early read stalls until the data is there and gets it (addendum
     * section 7), with no diagnostic; a later one does not stall */
    for (unsigned i = 0; i < 16; i++)
        vc4_vpm_poke(&vpm, 0, i, 100 + i);
    uint64_t ready = 0;
    vc4_vpm_rd_setup(&vpm, 1, gen_setup(1, 0, 2, 1, 0, 2), 10, &sink, NULL);
    CHECK_EQ_U64(vc4_vpm_read(&vpm, 1, out, 11, &ready, &sink, NULL), 0);
    CHECK_EQ_U64(ready, 10 + VC4_VPM_READ_LATENCY);
    CHECK_EQ_U64(out[7], 107);
    CHECK_EQ_U64(vc4_vpm_read(&vpm, 1, out, 13, &ready, &sink, NULL), 0);
    CHECK_EQ_U64(ready, 13);
    CHECK_EQ_U64(h.len, 0); /* no diagnostic at all */
    /* beyond NUM */
    CHECK_EQ_U64(vc4_vpm_read(&vpm, 1, out, 14, NULL, &sink, NULL), VC4_VPM_EV_READ_OVERRUN);
    CHECK_CONTAINS(h.text, "vpm-read-overrun");
    /* a setup while > 1 value is outstanding is ignored */
    for (unsigned i = 0; i < 16; i++) {
        vc4_vpm_poke(&vpm, 5, i, 500 + i);
        vc4_vpm_poke(&vpm, 6, i, 600 + i);
        vc4_vpm_poke(&vpm, 7, i, 700 + i);
        vc4_vpm_poke(&vpm, 9, i, 900 + i);
    }
    vc4_vpm_rd_setup(&vpm, 1, gen_setup(1, 0, 2, 1, 5, 3), 20, &sink, NULL);
    CHECK_EQ_U64(vc4_vpm_rd_setup(&vpm, 1, gen_setup(1, 0, 2, 1, 9, 1), 21, &sink, NULL),
                 VC4_VPM_EV_SETUP_IGNORED);
    CHECK_EQ_U64(vc4_vpm_read(&vpm, 1, out, 23, NULL, &sink, NULL), 0);
    CHECK_EQ_U64(out[0], 500);
    CHECK_EQ_U64(vc4_vpm_read(&vpm, 1, out, 24, NULL, &sink, NULL), 0);
    CHECK_EQ_U64(out[0], 600);
    /* one outstanding: the new setup is taken, the old value comes first */
    CHECK_EQ_U64(vc4_vpm_rd_setup(&vpm, 1, gen_setup(1, 0, 2, 1, 9, 1), 25, &sink, NULL), 0);
    CHECK_EQ_U64(vc4_vpm_read(&vpm, 1, out, 28, NULL, &sink, NULL), 0);
    CHECK_EQ_U64(out[15], 715); /* row 7: the old setup's third value */
    CHECK_EQ_U64(vc4_vpm_read(&vpm, 1, out, 29, NULL, &sink, NULL), 0);
    CHECK_EQ_U64(out[1], 901);
    /* unconsumed at program end */
    vc4_vpm_rd_setup(&vpm, 1, gen_setup(1, 0, 2, 1, 0, 4), 30, &sink, NULL);
    CHECK_EQ_U64(vc4_vpm_program_end(&vpm, 1, &sink, NULL), VC4_VPM_EV_UNCONSUMED);
    CHECK_CONTAINS(h.text, "vpm-read-unconsumed");
    /* conditional write: only masked elements change */
    uint32_t val[16] = {0};
    vc4_vpm_wr_setup(&vpm, 1, gen_setup(1, 0, 2, 1, 5, 0), 0, &sink, NULL);
    CHECK_EQ_U64(vc4_vpm_write(&vpm, 1, 0x0001, val, 0, &sink, NULL), VC4_VPM_EV_COND_WRITE);
    CHECK_EQ_U64(vc4_vpm_peek(&vpm, 5, 0), 0);
    CHECK_EQ_U64(vc4_vpm_peek(&vpm, 5, 1), 501);
    /* bad QPU numbers are reported, not trusted */
    CHECK_EQ_U64(vc4_vpm_read(&vpm, 99, out, 0, NULL, &sink, NULL), VC4_VPM_EV_BAD_QPU);
}

/* A write setup at row 0 at cycle t, then rows 0 .. n-1 of QPU qpu, row r
 * all base + r, one a cycle. */
static void write_rows(unsigned qpu, uint32_t base, unsigned n, uint64_t t, const struct vc4_diag_sink *sink)
{
    uint32_t val[16];
    CHECK_EQ_U64(vc4_vpm_wr_setup(&vpm, qpu, gen_setup(1, 0, 2, 1, 0, 0), t, sink, NULL), 0);
    for (unsigned r = 0; r < n; r++) {
        for (unsigned i = 0; i < 16; i++)
            val[i] = base + r;
        CHECK_EQ_U64(vc4_vpm_write(&vpm, qpu, 0xFFFF, val, t + 1 + r, sink, NULL), 0);
    }
}

/* The read FIFO holds the next 4 vectors as they were when it was filled
 * (vpm.h VC4_VPM_READ_FIFO): a program that writes rows its setup has
 * still to deliver reads the old values of those already in the FIFO.  7
 * rows from row 0, rows 0-2 read, rows 0-6 written, rows 3-6 read (the
 * shape of Mesa's vertex shader in piglit's
 * interpolation-none-gl_BackColor-smooth-none, though a GL batch writes
 * rows of its own: vsi.c).  A row written before it entered the FIFO is
 * read as written. */
static void test_read_fifo_holds_values(void)
{
    struct harness_diags h;
    struct vc4_diag_sink sink = harness_sink(&h);
    uint32_t out[16];
    vc4_vpm_init(&vpm, 12);
    for (unsigned r = 0; r < 8; r++)
        for (unsigned i = 0; i < 16; i++)
            vc4_vpm_poke(&vpm, r, i, 1000 * r + i);
    CHECK_EQ_U64(vc4_vpm_rd_setup(&vpm, 2, gen_setup(1, 0, 2, 1, 0, 7), 10, &sink, NULL), 0);
    for (unsigned r = 0; r < 3; r++) {
        CHECK_EQ_U64(vc4_vpm_read(&vpm, 2, out, 20 + r, NULL, &sink, NULL), 0);
        CHECK_EQ_U64(out[3], 1000 * r + 3);
    }
    write_rows(2, 0xDEAD0000u, 7, 30, &sink);
    for (unsigned r = 3; r < 7; r++) {
        CHECK_EQ_U64(vc4_vpm_read(&vpm, 2, out, 40 + r, NULL, &sink, NULL), 0);
        CHECK_EQ_U64(out[3], 1000 * r + 3); /* the input, not 0xDEAD0000 + r */
    }
    CHECK_EQ_U64(vc4_vpm_peek(&vpm, 5, 3), 0xDEAD0005u); /* the VPM itself holds the outputs */
    /* a row not yet in the FIFO when written: 6 rows, row 5 written before
     * any read (rows 0-3 were filled at the setup, row 5 only after the
     * second read) */
    CHECK_EQ_U64(vc4_vpm_rd_setup(&vpm, 2, gen_setup(1, 0, 2, 1, 0, 6), 50, &sink, NULL), 0);
    write_rows(2, 0xBEEF0000u, 6, 51, &sink);
    for (unsigned r = 0; r < 6; r++) {
        CHECK_EQ_U64(vc4_vpm_read(&vpm, 2, out, 60 + r, NULL, &sink, NULL), 0);
        CHECK_EQ_U64(out[0], r < 4 ? 0xDEAD0000u + r : 0xBEEF0000u + r);
    }
    CHECK_EQ_U64(h.len, 0);
}

/* Reads with no setup at all (each an overrun, the register's reset
 * value): the read FIFO stays empty and consistent (its first version let
 * the second such read take from an empty FIFO). */
static void test_reads_without_setup(void)
{
    struct harness_diags h;
    struct vc4_diag_sink sink = harness_sink(&h);
    uint32_t out[16];
    vc4_vpm_init(&vpm, 12);
    for (unsigned k = 0; k < 5; k++) {
        CHECK_EQ_U64(vc4_vpm_read(&vpm, 3, out, 10 + k, NULL, &sink, NULL), VC4_VPM_EV_READ_OVERRUN);
        CHECK(vpm.q[3].rd_fifo_n <= VC4_VPM_READ_FIFO);
    }
    /* and a real setup after them reads its rows */
    for (unsigned i = 0; i < 16; i++)
        vc4_vpm_poke(&vpm, 7, i, 0x700 + i);
    CHECK_EQ_U64(vc4_vpm_rd_setup(&vpm, 3, gen_setup(1, 0, 2, 1, 7, 1), 20, &sink, NULL), 0);
    CHECK_EQ_U64(vc4_vpm_read(&vpm, 3, out, 30, NULL, &sink, NULL), 0);
    CHECK_EQ_U64(out[5], 0x705);
}

/* The seed's coordinate-shader store: generic writes then VDW 0x83904000. */
static void test_seed_vdw_store(void)
{
    struct vc4_mem mem;
    CHECK_EQ_INT(vc4_mem_init(&mem, 1u << 20, NULL), VC4_OK);
    struct harness_diags h;
    struct vc4_diag_sink sink = harness_sink(&h);
    vc4_vpm_init(&vpm, 12);
    uint32_t v[16];
#define SPLAT(x) for (unsigned i_ = 0; i_ < 16; i_++) v[i_] = (x)
    vc4_vpm_wr_setup(&vpm, 0, 0x17BC1AC2u, 0, &sink, NULL);
    SPLAT(0x00000000u); vc4_vpm_write(&vpm, 0, 0xFFFF, v, 1, &sink, NULL); /* clip Z */
    SPLAT(0x3F800000u); vc4_vpm_write(&vpm, 0, 0xFFFF, v, 2, &sink, NULL); /* clip W */
    SPLAT(0x1C000200u); vc4_vpm_write(&vpm, 0, 0xFFFF, v, 3, &sink, NULL); /* screen XY */
    SPLAT(0x3F800000u); vc4_vpm_write(&vpm, 0, 0xFFFF, v, 4, &sink, NULL); /* screen Z */
    SPLAT(0x3F800000u); vc4_vpm_write(&vpm, 0, 0xFFFF, v, 5, &sink, NULL); /* 1/W */
    vc4_vpm_wr_setup(&vpm, 0, 0x17BC1AC0u, 6, &sink, NULL);
    SPLAT(0xBF665C24u); vc4_vpm_write(&vpm, 0, 0xFFFF, v, 7, &sink, NULL); /* clip X */
    SPLAT(0x3F5EDD42u); vc4_vpm_write(&vpm, 0, 0xFFFF, v, 8, &sink, NULL); /* clip Y */
#undef SPLAT
    CHECK_EQ_U64(vc4_vpm_wr_setup(&vpm, 0, 0x83904000u, 9, &sink, NULL), 0);
    CHECK_EQ_U64(vc4_vpm_st_addr(&vpm, &mem, 0, 0xC0010000u, 10, &sink, NULL), 0);
    static const uint32_t rows[7] = {0xBF665C24u, 0x3F5EDD42u, 0, 0x3F800000u, 0x1C000200u,
                                     0x3F800000u, 0x3F800000u};
    for (unsigned r = 0; r < 7; r++)
        for (unsigned i = 0; i < 16; i++) {
            uint32_t got;
            vc4_mem_read32(&mem, 0x10000 + (r * 16 + i) * 4, &got);
            CHECK_EQ_U64(got, rows[r]);
        }
    uint32_t after;
    vc4_mem_read32(&mem, 0x10000 + 7 * 64, &after);
    CHECK_EQ_U64(after, 0);
    /* busy until the modelled cost has passed; wait returns that cycle */
    uint64_t cost = VC4_VPM_DMA_SETUP_CYCLES + 7 * VC4_VPM_DMA_ROW_CYCLES + 7 * 64 / 8;
    CHECK_EQ_U64(vc4_vpm_st_busy(&vpm, 0, 10), 1);
    CHECK_EQ_U64(vc4_vpm_st_wait(&vpm, 0, 11), 10 + cost);
    CHECK_EQ_U64(vc4_vpm_st_busy(&vpm, 0, 10 + cost), 0);
    CHECK_EQ_U64(vpm.stats.vdw_bytes, 7 * 64);
    CHECK_EQ_INT(h.warnings + h.errors, 0);
    vc4_mem_fini(&mem);
}

/* ---- DMA reference ------------------------------------------------------ */

static void modew_decode(unsigned modew, unsigned *esz, unsigned *lane)
{
    if (modew == 0) { *esz = 4; *lane = 0; }
    else if (modew < 4) { *esz = 2; *lane = modew & 1; }
    else { *esz = 1; *lane = modew & 3; }
}

/* VPM byte of element e of unit u: horizontal units are rows, their elements
 * consecutive bytes from (Y+u, X, lane); vertical units are lane columns
 * (lanes within a word first, then columns; past column 15 back to column 0
 * 16 rows down, as d2.c measured), elements going down the rows. */
static unsigned ref_dma_byte(int horiz, unsigned y, unsigned x, unsigned lane, unsigned esz,
                             unsigned u, unsigned e)
{
    if (horiz)
        return ((y + u) * 64 + x * 4 + lane * esz + e * esz) % (VC4_VPM_DMA_ROWS * 64);
    unsigned lanes = 4 / esz;
    unsigned lin = x * lanes + lane + u, l = lin % (16 * lanes);
    unsigned row = y + e + 16 * (lin / (16 * lanes));
    return ((row % VC4_VPM_DMA_ROWS) * 64 + (l / lanes) * 4 + (l % lanes) * esz);
}

static void test_vdw_modes(void)
{
    struct vc4_mem mem;
    CHECK_EQ_INT(vc4_mem_init(&mem, 1u << 20, NULL), VC4_OK);
    struct harness_diags h;
    struct vc4_diag_sink sink = harness_sink(&h);
    static const unsigned units_l[] = {1, 3, 16};
    static const unsigned depth_l[] = {1, 5, 16, 20};
    static const unsigned strides[] = {0, 12, 0x10000 | 40 /* blockmode */};
    unsigned cases = 0;
    for (unsigned modew = 0; modew < 8; modew++) {
        if (modew == 1)
            continue;
        unsigned esz, lane;
        modew_decode(modew, &esz, &lane);
        for (int horiz = 0; horiz <= 1; horiz++)
            for (size_t ui = 0; ui < 3; ui++)
                for (size_t di = 0; di < 4; di++)
                    for (size_t si = 0; si < 3; si++) {
                        unsigned units = units_l[ui], depth = depth_l[di];
                        unsigned y = 3 + (unsigned)si * 40, x = (unsigned)(di * 5) & 15;
                        vc4_vpm_init(&vpm, 12);
                        fill_both(&vpm, 0x5A5A0000u + modew);
                        memset(mem.ram, 0xEE, 64 * 1024);
                        uint32_t setup = 2u << 30 | units << 23 | depth << 16 |
                                         (unsigned)horiz << 14 | (y << 4 | x) << 3 | modew;
                        uint32_t sset = 3u << 30 | strides[si];
                        CHECK_EQ_U64(vc4_vpm_wr_setup(&vpm, 2, setup, 0, &sink, NULL), 0);
                        CHECK_EQ_U64(vc4_vpm_wr_setup(&vpm, 2, sset, 0, &sink, NULL), 0);
                        CHECK_EQ_U64(vc4_vpm_st_addr(&vpm, &mem, 2, 0x1000, 0, &sink, NULL), 0);
                        unsigned stride = (strides[si] & 0x10000) ? 0 : strides[si];
                        /* expected memory image */
                        static uint8_t exp[64 * 1024];
                        memset(exp, 0xEE, sizeof exp);
                        for (unsigned u = 0; u < units; u++)
                            for (unsigned e = 0; e < depth; e++) {
                                unsigned vb = ref_dma_byte(horiz, y, x, lane, esz, u, e);
                                unsigned mb = 0x1000 + u * (depth * esz + stride) + e * esz;
                                memcpy(exp + mb, ref + vb, esz);
                            }
                        CHECK_MSG(memcmp(exp, mem.ram, sizeof exp) == 0,
                                  "VDW modew %u horiz %d units %u depth %u stride 0x%x", modew,
                                  horiz, units, depth, strides[si]);
                        cases++;
                    }
    }
    CHECK_EQ_INT(h.warnings + h.errors, 0);
    CHECK_EQ_INT(cases, 7 * 2 * 3 * 4 * 3);
    vc4_mem_fini(&mem);
}

static void test_vdr_modes(void)
{
    struct vc4_mem mem;
    CHECK_EQ_INT(vc4_mem_init(&mem, 1u << 20, NULL), VC4_OK);
    for (uint32_t i = 0; i < 64 * 1024; i++)
        mem.ram[i] = (uint8_t)(i * 7 + (i >> 8));
    struct harness_diags h;
    struct vc4_diag_sink sink = harness_sink(&h);
    static const unsigned mpitch_l[] = {0 /* extended */, 1, 3, 6};
    static const unsigned rowlen_l[] = {1, 7, 16};
    static const unsigned nrows_l[] = {1, 4, 16};
    static const unsigned vpitch_l[] = {1, 2, 16};
    unsigned cases = 0;
    for (unsigned modew = 0; modew < 8; modew++) {
        if (modew == 1)
            continue;
        unsigned esz, lane;
        modew_decode(modew, &esz, &lane);
        for (int vert = 0; vert <= 1; vert++)
            for (size_t mi = 0; mi < 4; mi++)
                for (size_t ri = 0; ri < 3; ri++)
                    for (size_t ni = 0; ni < 3; ni++)
                        for (size_t vi = 0; vi < 3; vi++) {
                            unsigned rowlen = rowlen_l[ri], nrows = nrows_l[ni];
                            unsigned vpitch = vpitch_l[vi], mp = mpitch_l[mi];
                            unsigned y = vert ? 16 : 2 + (unsigned)vi, x = (unsigned)(ri * 3);
                            uint32_t pitch = mp ? 8u << mp : 100u;
                            vc4_vpm_init(&vpm, 12);
                            fill_both(&vpm, 0x12340000u + modew);
                            uint32_t setup = 1u << 31 | modew << 28 | mp << 24 |
                                             (rowlen & 15) << 20 | (nrows & 15) << 16 |
                                             (vpitch & 15) << 12 | (unsigned)vert << 11 |
                                             (y << 4 | x);
                            CHECK_EQ_U64(vc4_vpm_rd_setup(&vpm, 5, 0x90000000u | 100u, 0, &sink, NULL), 0);
                            CHECK_EQ_U64(vc4_vpm_rd_setup(&vpm, 5, setup, 0, &sink, NULL), 0);
                            CHECK_EQ_U64(vc4_vpm_ld_addr(&vpm, &mem, 5, 0x40000204u, 0, &sink, NULL), 0);
                            for (unsigned r = 0; r < nrows; r++)
                                for (unsigned e = 0; e < rowlen; e++) {
                                    /* VPITCH moves Y in both orientations (d2.c, test_vpm_hw.c) */
                                    unsigned vb = ref_dma_byte(!vert, y + r * vpitch, x, lane, esz, 0, e);
                                    memcpy(ref + vb, mem.ram + 0x204 + r * pitch + e * esz, esz);
                                }
                            CHECK_MSG(same_as_ref(&vpm),
                                      "VDR modew %u vert %d mpitch %u rowlen %u nrows %u vpitch %u",
                                      modew, vert, mp, rowlen, nrows, vpitch);
                            cases++;
                        }
    }
    CHECK_EQ_INT(h.warnings + h.errors, 0);
    CHECK_EQ_INT(cases, 7 * 2 * 4 * 3 * 3 * 3);
    CHECK_EQ_U64(vc4_vpm_ld_busy(&vpm, 5, 0), 1);
    CHECK(vc4_vpm_ld_wait(&vpm, 5, 0) > 0);
    vc4_mem_fini(&mem);
}

/* A VDW then VDR round trip through memory, as a compute program does. */
static void test_dma_round_trip(void)
{
    struct vc4_mem mem;
    CHECK_EQ_INT(vc4_mem_init(&mem, 1u << 20, NULL), VC4_OK);
    vc4_vpm_init(&vpm, 12);
    for (unsigned r = 0; r < 4; r++)
        for (unsigned c = 0; c < 16; c++)
            vc4_vpm_poke(&vpm, r, c, r * 100 + c);
    vc4_vpm_wr_setup(&vpm, 0, 2u << 30 | 4u << 23 | 16u << 16 | 1u << 14, 0, NULL, NULL);
    vc4_vpm_wr_setup(&vpm, 0, 3u << 30 | 64u, 0, NULL, NULL); /* 64-byte gaps */
    vc4_vpm_st_addr(&vpm, &mem, 0, 0x2000, 0, NULL, NULL);
    /* read back with pitch 128 into rows 10.. */
    vc4_vpm_rd_setup(&vpm, 0, 1u << 31 | 4u << 24 | 4u << 16 | 1u << 12 | (10u << 4), 0, NULL, NULL);
    vc4_vpm_ld_addr(&vpm, &mem, 0, 0x2000, 0, NULL, NULL);
    for (unsigned r = 0; r < 4; r++)
        for (unsigned c = 0; c < 16; c++)
            CHECK_EQ_U64(vc4_vpm_peek(&vpm, 10 + r, c), r * 100 + c);
    vc4_mem_fini(&mem);
}

static void test_dma_faults(void)
{
    struct vc4_mem mem;
    CHECK_EQ_INT(vc4_mem_init(&mem, 1u << 16, NULL), VC4_OK);
    struct harness_diags h;
    struct vc4_diag_sink sink = harness_sink(&h);
    vc4_vpm_init(&vpm, 12);
    vc4_vpm_wr_setup(&vpm, 0, 0x83904000u, 0, &sink, NULL);
    CHECK_EQ_U64(vc4_vpm_st_addr(&vpm, &mem, 0, 0xFFC0u, 0, &sink, NULL), VC4_VPM_EV_DMA_FAULT);
    uint32_t w;
    vc4_mem_read32(&mem, 0xFFC0u, &w); /* the first row fits and was written */
    CHECK_EQ_U64(w, 0);
    CHECK_EQ_U64(vc4_vpm_st_addr(&vpm, &mem, 0, 0xFFFFFFF0u, 1000, &sink, NULL), VC4_VPM_EV_DMA_FAULT);
    vc4_vpm_rd_setup(&vpm, 0, 0x80000000u, 0, &sink, NULL);
    CHECK_EQ_U64(vc4_vpm_ld_addr(&vpm, &mem, 0, 0x7FFFFFF0u, 0, &sink, NULL) & VC4_VPM_EV_DMA_FAULT,
                 VC4_VPM_EV_DMA_FAULT);
    CHECK_CONTAINS(h.text, "outside");
    /* no setup at all */
    CHECK_EQ_U64(vc4_vpm_st_addr(&vpm, &mem, 4, 0, 0, &sink, NULL), VC4_VPM_EV_BAD_SETUP);
    CHECK_EQ_U64(vc4_vpm_ld_addr(&vpm, &mem, 4, 0, 0, &sink, NULL), VC4_VPM_EV_BAD_SETUP);
    /* the wide-stride erratum: honoured, noted (test_vpm_hw.c has more) */
    CHECK_EQ_U64(vc4_vpm_wr_setup(&vpm, 0, 3u << 30 | 9000u, 0, &sink, NULL), VC4_VPM_EV_WIDE_STRIDE);
    CHECK_CONTAINS(h.text, "vdw-stride-width");
    /* a second store while the engine is busy is queued behind it */
    vc4_vpm_wr_setup(&vpm, 0, 3u << 30, 0, &sink, NULL);
    vc4_vpm_st_addr(&vpm, &mem, 0, 0x100, 2000, &sink, NULL);
    uint64_t first = vc4_vpm_st_wait(&vpm, 0, 2000);
    CHECK_EQ_U64(vc4_vpm_st_addr(&vpm, &mem, 0, 0x1000, 2001, &sink, NULL), VC4_VPM_EV_DMA_BUSY);
    CHECK(vc4_vpm_st_wait(&vpm, 0, 2001) > first);
    vc4_mem_fini(&mem);
}

/* VPMVCD_WR_SETUP words that report and words that do not: the QPU fast
 * path's vc4_vpm_try_wr_setup carries out exactly the second kind, as
 * vc4_vpm_wr_setup does, and refuses the first with nothing done (the
 * general path then reports them). */
static void test_wr_setup_reports(void)
{
    static const struct {
        uint32_t word;
        unsigned ev;
    } cases[] = {
        {0x00001A05u, 0},                      /* generic 32-bit horizontal from row 5 */
        {0x00001005u, 0},                      /* 8-bit vertical */
        {0x00001905u, 0},                      /* 16-bit horizontal */
        {0x00001B05u, VC4_VPM_EV_BAD_SETUP},   /* the reserved SIZE 3 */
        {0x83904000u, 0},                      /* VDW, 32-bit elements */
        {0x83904006u, 0},                      /* VDW, 8-bit elements (byte 2) */
        {0x83904001u, VC4_VPM_EV_BAD_SETUP},   /* VDW MODEW 1: no element mode */
        {0xC0001FFFu, 0},                      /* VDW stride 8191: the guide's 13 bits */
        {0xC0002000u, VC4_VPM_EV_WIDE_STRIDE}, /* 8192: beyond them (a note) */
        {0x40000000u, VC4_VPM_EV_BAD_SETUP},   /* the reserved ID 01 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct harness_diags h;
        struct vc4_diag_sink sink = harness_sink(&h);
        vc4_vpm_init(&vpm, 12);
        struct vc4_vpm_qpu before;
        memcpy(&before, &vpm.q[1], sizeof before); /* (padding too) */
        bool fast = vc4_vpm_try_wr_setup(&vpm, 1, cases[i].word, 7);
        CHECK_EQ_INT(fast, cases[i].ev == 0);
        if (!fast)
            CHECK(memcmp(&before, &vpm.q[1], sizeof before) == 0);
        CHECK_EQ_U64(vc4_vpm_wr_setup(&vpm, 2, cases[i].word, 7, &sink, NULL), cases[i].ev);
        CHECK_EQ_INT(h.len != 0, cases[i].ev != 0);
        if (fast) { /* the same state either way */
            CHECK_EQ_U64(vpm.q[1].vdw_basic, vpm.q[2].vdw_basic);
            CHECK_EQ_U64(vpm.q[1].vdw_stride, vpm.q[2].vdw_stride);
            CHECK_EQ_INT(vpm.q[1].wr.valid, vpm.q[2].wr.valid);
            CHECK_EQ_INT(vpm.q[1].wr.size, vpm.q[2].wr.size);
            CHECK_EQ_INT(vpm.q[1].wr.horiz, vpm.q[2].wr.horiz);
            CHECK_EQ_U64(vpm.q[1].wr.addr, vpm.q[2].wr.addr);
        }
    }
    /* past the QPUs, or by a fragment shader (whose access is reported
     * once: vc4_vpm_wr_setup's fs_access): refused */
    CHECK(!vc4_vpm_try_wr_setup(&vpm, VC4_VPM_MAX_QPUS, 0x00001A05u, 0));
    vpm.q[3].role = VC4_VPM_ROLE_FS;
    CHECK(!vc4_vpm_try_wr_setup(&vpm, 3, 0x00001A05u, 0));
}

/* ---- the QPU fast path's accesses ------------------------------------------ */

static uint32_t fp_rng = 1;
static unsigned fp_pick(unsigned n)
{
    fp_rng = fp_rng * 1103515245u + 12345u;
    return (fp_rng >> 8) % n;
}

/* A generic setup: mostly 32-bit horizontal at a random row (the fast
 * accesses' kind), sometimes any mode; reads of 1-4 vectors mostly. */
static uint32_t fp_setup(bool read)
{
    unsigned num = read ? (fp_pick(8) ? 1 + fp_pick(4) : fp_pick(16)) : 0;
    if (fp_pick(5))
        return gen_setup(1, 0, 2, 1, fp_pick(64), num);
    return gen_setup((int)fp_pick(2), (int)fp_pick(2), (int)fp_pick(3), fp_pick(64), fp_pick(256), num);
}

static struct vc4_vpm fp_a, fp_b; /* large: keep off the stack */

/* vc4_vpm_try_read and vc4_vpm_try_write (the QPU fast path's, made
 * first, the general access when they decline) against the general
 * accesses alone, on random traffic of user programs, coordinate, vertex
 * and fragment shaders: setups, writes and reads at random cycles (reads
 * often too early, past their setup's count, or of a row read before:
 * what the fast way declines), the same data, VPM contents, setups,
 * FIFO, access record, statistics and diagnostics. */
static void test_fast_accesses_match_general(void)
{
    struct harness_diags ha, hb;
    struct vc4_diag_sink sa = harness_sink(&ha), sb = harness_sink(&hb);
    unsigned differ = 0, fast_reads = 0, fast_writes = 0, tracked_fast = 0, declined = 0;
    for (unsigned seed = 0; seed < 200; seed++) {
        memset(&ha, 0, sizeof ha);
        memset(&hb, 0, sizeof hb);
        vc4_vpm_init(&fp_a, 0);
        vc4_vpm_init(&fp_b, 0);
        fill_both(&fp_a, seed);
        fill_both(&fp_b, seed);
        unsigned qpu = fp_pick(4), role = fp_pick(4);
        vc4_vpm_qpu_role(&fp_a, qpu, (enum vc4_vpm_role)role, 8 * fp_pick(4), 32 + 8 * fp_pick(4));
        vc4_vpm_qpu_role(&fp_b, qpu, (enum vc4_vpm_role)role, fp_a.q[qpu].rd_base_row, fp_a.q[qpu].wr_base_row);
        uint64_t now = 1;
        for (unsigned op = 0; op < 120; op++) {
            struct vc4_location loc = {.addr = 8 * op, .qpu = (int)qpu, .thread = -1};
            now += fp_pick(4);
            unsigned kind = fp_pick(10);
            if (kind == 0) {
                uint32_t w = fp_setup(false);
                vc4_vpm_wr_setup(&fp_a, qpu, w, now, &sa, &loc);
                vc4_vpm_wr_setup(&fp_b, qpu, w, now, &sb, &loc);
            } else if (kind == 1) {
                uint32_t w = fp_setup(true);
                vc4_vpm_rd_setup(&fp_a, qpu, w, now, &sa, &loc);
                vc4_vpm_rd_setup(&fp_b, qpu, w, now, &sb, &loc);
            } else if (kind < 5) {
                uint32_t val[16];
                for (unsigned i = 0; i < 16; i++)
                    val[i] = seed * 977u + op * 31u + i;
                if (vc4_vpm_try_write(&fp_a, qpu, val)) {
                    fast_writes++;
                    tracked_fast += role == VC4_VPM_ROLE_CS || role == VC4_VPM_ROLE_VS;
                } else {
                    declined++;
                    vc4_vpm_write(&fp_a, qpu, 0xFFFFu, val, now, &sa, &loc);
                }
                vc4_vpm_write(&fp_b, qpu, 0xFFFFu, val, now, &sb, &loc);
            } else {
                uint32_t out_a[16], out_b[16];
                uint64_t ready_a = now, ready_b;
                if (vc4_vpm_try_read(&fp_a, qpu, out_a, now)) {
                    fast_reads++;
                    tracked_fast += role == VC4_VPM_ROLE_CS || role == VC4_VPM_ROLE_VS;
                } else {
                    declined++;
                    vc4_vpm_read(&fp_a, qpu, out_a, now, &ready_a, &sa, &loc);
                }
                vc4_vpm_read(&fp_b, qpu, out_b, now, &ready_b, &sb, &loc);
                if (memcmp(out_a, out_b, sizeof out_a) != 0 || ready_a != ready_b)
                    differ++;
                if (ready_b > now && ready_b != VC4_VPM_NEVER)
                    now = ready_b; /* (the QPU waits) */
            }
        }
        if (memcmp(&fp_a, &fp_b, sizeof fp_a) != 0 || ha.len != hb.len || memcmp(ha.text, hb.text, ha.len) != 0) {
            fprintf(stderr, "seed %u (role %u): fast and general VPM accesses differ\n", seed, role);
            differ++;
        }
    }
    printf("VPM fast accesses: %u reads, %u writes (%u by vertex and coordinate shaders), %u declined\n",
           fast_reads, fast_writes, tracked_fast, declined);
    CHECK_EQ_INT(differ, 0);
    CHECK(fast_reads > 1000);
    CHECK(fast_writes > 1000);
    CHECK(tracked_fast > 500);
    CHECK(declined > 1000);
}

TEST_LIST(test_generic_modes, test_seed_pictures, test_seed_setup_words, test_read_fifo_rules, test_read_fifo_holds_values, test_reads_without_setup,
          test_seed_vdw_store, test_vdw_modes, test_vdr_modes, test_dma_round_trip, test_dma_faults,
          test_wr_setup_reports, test_fast_accesses_match_general)
