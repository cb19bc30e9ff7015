/*
 * test_arm.c - the `arm` layer (src/arm): images that fault, loop, touch
 * unknown peripherals, wait forever or kick broken control lists end with
 * a diagnostic naming the PC or address, within the limits; the mailbox
 * answers property tags as the firmware does; the system timer matches.
 * The guest programs are a few hand-encoded ARM words (ARM ARM encodings),
 * so this test needs no cross compiler.
 */
#include <stdio.h>
#include <string.h>

#include "arm/arm.h"
#include "arm/periph.h"
#include "harness.h"

/* Boot words at 0x8000 on a Pi 1 and run; returns the status. */
static enum vc4_status boot_words(const uint32_t *w, size_t n, uint64_t max_insns, struct harness_diags *l,
                                  struct vc4_arm_result *r, void (*setup)(struct vc4_emu *))
{
    struct vc4_diag_sink sink = harness_sink(l);
    struct vc4_emu_options eo = {.sink = sink, .mem_size = 80u << 20}; /* 64 MiB are the VideoCore's */
    struct vc4_emu *emu = vc4_emu_create(&eo);
    struct vc4_arm_options o = vc4_arm_defaults(VC4_PI1, false);
    o.sink = sink;
    o.max_insns = max_insns;
    o.v3d_cycles = 200000; /* a hung list ends quickly */
    struct vc4_arm *arm = emu ? vc4_arm_create(emu, &o) : NULL;
    CHECK(arm != NULL);
    if (!arm) {
        vc4_emu_destroy(emu);
        return VC4_ERR_NOMEM;
    }
    uint8_t img[256];
    for (size_t i = 0; i < n && i < 64; i++)
        for (unsigned b = 0; b < 4; b++)
            img[4 * i + b] = (uint8_t)(w[i] >> (8 * b));
    CHECK(vc4_arm_load(arm, img, 4 * n) == VC4_OK);
    if (setup)
        setup(emu);
    enum vc4_status st = vc4_arm_run(arm, r);
    vc4_arm_destroy(arm);
    vc4_emu_destroy(emu);
    return st;
}

static void test_park(void)
{
    static const uint32_t w[] = {0xE3A00001 /* mov r0, #1 */, 0xEAFFFFFE /* b . */};
    struct harness_diags l;
    struct vc4_arm_result r;
    CHECK(boot_words(w, 2, 0, &l, &r, NULL) == VC4_OK);
    CHECK_EQ_INT(r.end, VC4_ARM_END_PARKED);
    CHECK_EQ_U64(r.pc, 0x8004);
    CHECK_CONTAINS(l.text, "parked (branch to itself) at PC 0x00008004");
}

static void test_fault_unmapped(void)
{
    /* mov r0, #0x18000000 (past the 80 MiB of RAM, below the peripherals); ldr r1, [r0] */
    static const uint32_t w[] = {0xE3A00418, 0xE5901000, 0xEAFFFFFE};
    struct harness_diags l;
    struct vc4_arm_result r;
    CHECK(boot_words(w, 3, 0, &l, &r, NULL) == VC4_ERR_FAULT);
    CHECK_EQ_INT(r.end, VC4_ARM_END_FAULT);
    CHECK_CONTAINS(l.text, "read of 0x18000000 (in the block at PC 0x00008000): nothing is mapped there");
}

static void test_fault_undefined(void)
{
    static const uint32_t w[] = {0xE1A00000 /* nop */, 0xE7F000F0 /* udf */};
    struct harness_diags l;
    struct vc4_arm_result r;
    CHECK(boot_words(w, 2, 0, &l, &r, NULL) == VC4_ERR_FAULT);
    CHECK_EQ_INT(r.end, VC4_ARM_END_FAULT);
    CHECK_CONTAINS(l.text, "0x00008004");
}

static void test_endless_loop(void)
{
    /* add r0, r0, #1; b .-4: never parks, ends at the instruction limit */
    static const uint32_t w[] = {0xE2800001, 0xEAFFFFFD};
    struct harness_diags l;
    struct vc4_arm_result r;
    CHECK(boot_words(w, 2, 1000000, &l, &r, NULL) == VC4_OK);
    CHECK_EQ_INT(r.end, VC4_ARM_END_INSN_LIMIT);
    CHECK(r.insns >= 1000000 && r.insns < 1000000 + 10);
    CHECK(r.pc == 0x8000 || r.pc == 0x8004);
    CHECK_CONTAINS(l.text, "instruction limit at PC 0x0000800");
}

static void test_unknown_peripheral(void)
{
    /* mov r0, #0x20000000; ldr r1, [r0, #0x100] (nothing there); str r1, [r0, #0x104]; b . */
    static const uint32_t w[] = {0xE3A00202, 0xE5901100, 0xE5801104, 0xEAFFFFFE};
    struct harness_diags l;
    struct vc4_arm_result r;
    CHECK(boot_words(w, 4, 0, &l, &r, NULL) == VC4_OK);
    CHECK_EQ_INT(r.end, VC4_ARM_END_PARKED);
    CHECK_EQ_U64(r.unknown_accesses, 2);
    CHECK_CONTAINS(l.text, "read of 0x20000100, a peripheral address nothing models (in the block at PC 0x00008000)");
    CHECK_CONTAINS(l.text, "[arm-unknown-peripheral;");
    CHECK_CONTAINS(l.text, "write of 0x00000000 to 0x20000104");
}

static void test_wfi(void)
{
    static const uint32_t w[] = {0xE1A00000, 0xE320F003 /* wfi */, 0xEAFFFFFD /* b .-4 */};
    struct harness_diags l;
    struct vc4_arm_result r;
    CHECK(boot_words(w, 3, 10000000, &l, &r, NULL) == VC4_OK);
    CHECK_EQ_INT(r.end, VC4_ARM_END_WFI);
    CHECK_EQ_U64(r.pc, 0x8004);
}

/* A control list of bytes 0xFF (no such packet) at 0x1000. */
static void broken_list(struct vc4_emu *emu)
{
    uint8_t junk[16];
    memset(junk, 0xFF, sizeof junk);
    vc4_emu_mem_write(emu, 0x1000, junk, sizeof junk);
}

static void test_broken_list(void)
{
    /* V3D at 0x20C00000: CT0CA = 0x1000, CT0EA = 0x1010, read CT0CS, park */
    static const uint32_t w[] = {0xE3A00202, 0xE2800503, 0xE3A01A01, 0xE5801110,
                                 0xE2811010, 0xE5801108, 0xE5902100, 0xEAFFFFFE};
    struct harness_diags l;
    struct vc4_arm_result r;
    enum vc4_status st = boot_words(w, 8, 10000000, &l, &r, broken_list);
    CHECK_EQ_U64(r.v3d_kicks, 1);
    /* the emulator reports the packet at the list address; the run ends
     * with the V3D's failure, naming CT0CA and the ARM's PC */
    CHECK(st == VC4_ERR_FAULT);
    CHECK_EQ_INT(r.end, VC4_ARM_END_V3D);
    CHECK_CONTAINS(l.text, "ct0: 0x00001000: error: packet (list offset 0): unknown opcode 255");
    CHECK_CONTAINS(l.text, "the V3D stopped (guest fault): CT0CA 0x00001000");
}

/* A control list that branches to itself at 0x1000. */
static void looping_list(struct vc4_emu *emu)
{
    const uint8_t loop[5] = {16, 0x00, 0x10, 0x00, 0x00}; /* Branch 0x00001000 */
    vc4_emu_mem_write(emu, 0x1000, loop, sizeof loop);
}

static void test_hung_list(void)
{
    static const uint32_t w[] = {0xE3A00202, 0xE2800503, 0xE3A01A01, 0xE5801110,
                                 0xE2811010, 0xE5801108, 0xE5902100, 0xEAFFFFFE};
    struct harness_diags l;
    struct vc4_arm_result r;
    enum vc4_status st = boot_words(w, 8, 10000000, &l, &r, looping_list);
    CHECK(st == VC4_ERR_TIMEOUT);
    CHECK_EQ_INT(r.end, VC4_ARM_END_V3D);
    CHECK_CONTAINS(l.text, "the V3D stopped (cycle budget exhausted): CT0CA 0x00001000");
}

/* ---- the mailbox property channel, directly ------------------------------------- */

static void test_mbox_framebuffer(void)
{
    struct harness_diags l;
    struct vc4_diag_sink sink = harness_sink(&l);
    struct vc4_emu_options eo = {.sink = sink, .mem_size = 128u << 20};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    struct vc4_arm_ctx ctx = {.emu = emu, .sink = &sink, .ram_size = 128u << 20, .arm_mem_size = 64u << 20,
                              .bus_alias = 0x40000000u, .board = VC4_PI1};
    struct vc4_mbox m;
    vc4_mbox_reset(&m, &ctx);
    const uint32_t msg[] = {
        0, 0,
        0x48003, 8, 0, 640, 480,       /* physical size */
        0x48004, 8, 0, 640, 480,       /* virtual size */
        0x48005, 4, 0, 32,             /* depth */
        0x40001, 8, 0, 16, 0,          /* allocate */
        0x40008, 4, 0, 0,              /* pitch */
        0x10005, 8, 0, 0, 0,           /* ARM memory */
        0x12345, 4, 0, 0,              /* no such tag */
        0,
    };
    uint8_t buf[sizeof msg];
    for (size_t i = 0; i < sizeof msg / 4; i++)
        for (unsigned b = 0; b < 4; b++)
            buf[4 * i + b] = (uint8_t)((i == 0 ? sizeof msg : msg[i]) >> (8 * b));
    vc4_emu_mem_write(emu, 0x1000, buf, sizeof buf);
    vc4_mbox_property(&m, 0x1000, &ctx);
    uint32_t out[sizeof msg / 4];
    vc4_emu_mem_read(emu, 0x1000, buf, sizeof buf);
    for (size_t i = 0; i < sizeof msg / 4; i++)
        out[i] = (uint32_t)buf[4 * i] | (uint32_t)buf[4 * i + 1] << 8 | (uint32_t)buf[4 * i + 2] << 16 |
                 (uint32_t)buf[4 * i + 3] << 24;
    CHECK_EQ_U64(out[1], 0x80000000u);          /* success */
    CHECK_EQ_U64(out[18], 0x80000008u);         /* the allocate tag answered 8 bytes */
    CHECK_EQ_U64(out[19], 0x40000000u | (64u << 20)); /* first VideoCore byte, Pi 1 alias */
    CHECK_EQ_U64(out[20], 640u * 480 * 4);
    CHECK_EQ_U64(out[24], 640u * 4);            /* pitch */
    CHECK_EQ_U64(out[28], 0);                   /* ARM memory base, size */
    CHECK_EQ_U64(out[29], 64u << 20);
    CHECK_EQ_U64(out[32], 0);                   /* the unknown tag is not answered */
    CHECK_CONTAINS(l.text, "unknown property tag 0x00012345");
    CHECK(m.fb.allocated && m.fb.addr == (64u << 20));
    vc4_emu_destroy(emu);
}

static void test_systimer_match(void)
{
    struct vc4_systimer t;
    vc4_systimer_reset(&t);
    CHECK(vc4_systimer_write(&t, 0x10, 1000)); /* C1 */
    vc4_systimer_tick(&t, 999);
    CHECK_EQ_U64(t.cs, 0);
    vc4_systimer_tick(&t, 1000);
    CHECK_EQ_U64(t.cs, 2);                       /* M1 */
    CHECK(vc4_systimer_write(&t, 0x00, 2));      /* write 1 clears */
    CHECK_EQ_U64(t.cs, 0);
    uint32_t v = 0;
    CHECK(vc4_systimer_read(&t, 0x04, 123456, &v));
    CHECK_EQ_U64(v, 123456);
    CHECK(!vc4_systimer_read(&t, 0x40, 0, &v));  /* nothing there */
}

/* Garbage images (a fixed LCG's words) on every board: each run ends
 * within the limit with a diagnostic naming how, never a host crash. */
static void test_garbage_images(void)
{
    uint32_t x = 12345;
    static uint8_t img[4096];
    for (unsigned run = 0; run < 12; run++) {
        for (size_t i = 0; i < sizeof img; i++) {
            x = x * 1103515245u + 12345u;
            img[i] = (uint8_t)(x >> 16);
        }
        struct harness_diags l;
        struct vc4_diag_sink sink = harness_sink(&l);
        struct vc4_emu_options eo = {.sink = sink, .mem_size = 80u << 20, .max_cycles = 1000000};
        struct vc4_emu *emu = vc4_emu_create(&eo);
        enum vc4_pi_board board = (enum vc4_pi_board)(run % 3);
        bool a64 = run % 4 == 3;
        struct vc4_arm_options o = vc4_arm_defaults(a64 ? VC4_PI3 : board, a64);
        o.sink = sink;
        o.max_insns = 2000000;
        struct vc4_arm *arm = vc4_arm_create(emu, &o);
        CHECK(arm != NULL);
        struct vc4_arm_result r = {0};
        if (arm && vc4_arm_load(arm, img, sizeof img) == VC4_OK)
            vc4_arm_run(arm, &r);
        CHECK(r.end < VC4_ARM_END_KINDS);
        CHECK(r.insns <= 2000000 + 1000);
        CHECK_CONTAINS(l.text, "run ended: ");
        vc4_arm_destroy(arm);
        vc4_emu_destroy(emu);
    }
}

TEST_LIST(test_park, test_fault_unmapped, test_fault_undefined, test_endless_loop, test_unknown_peripheral,
          test_wfi, test_broken_list, test_hung_list, test_mbox_framebuffer, test_systimer_match,
          test_garbage_images)
