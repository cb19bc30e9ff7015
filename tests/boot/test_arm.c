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

/* System timer C1 = 10 us, its interrupt enabled (GPU IRQ 1), IRQs
 * unmasked, then a branch to itself: a busy wait for the interrupt, not a
 * park.  Time passes to the match and the core takes the IRQ at the vector
 * (VBAR 0: 0x18), where a branch to itself with IRQs masked parks. */
static const uint32_t irq_prologue[] = {
    0xE3A00202, /* mov r0, #0x20000000 */
    0xE2800A03, /* add r0, r0, #0x3000 (system timer) */
    0xE3A0100A, /* mov r1, #10 */
    0xE5801010, /* str r1, [r0, #0x10] (C1) */
    0xE3A00202, /* mov r0, #0x20000000 */
    0xE2800A0B, /* add r0, r0, #0xB000 */
    0xE3A01002, /* mov r1, #2 */
    0xE5801210, /* str r1, [r0, #0x210] (enable 1: IRQ 1) */
    0xF1080080, /* cpsie i */
};

static void irq_vector_parks(struct vc4_emu *emu)
{
    static const uint8_t b_self[4] = {0xFE, 0xFF, 0xFF, 0xEA}; /* b . */
    vc4_emu_mem_write(emu, 0x18, b_self, 4);
}

static void test_irq_taken(void)
{
    uint32_t w[16];
    size_t n = sizeof irq_prologue / 4;
    memcpy(w, irq_prologue, sizeof irq_prologue);
    w[n++] = 0xEAFFFFFE; /* b . */
    struct harness_diags l;
    struct vc4_arm_result r;
    CHECK(boot_words(w, n, 100000000, &l, &r, irq_vector_parks) == VC4_OK);
    CHECK_EQ_INT(r.end, VC4_ARM_END_PARKED);
    CHECK_EQ_U64(r.pc, 0x18);
    CHECK_EQ_U64(r.irqs, 1);
    CHECK(r.time_us >= 10 && r.time_us < 12);
    CHECK(r.insns < 100); /* the wait was slept, not run */
}

/* An IRQ in User mode: Unicorn cannot switch modes from there; a fault
 * naming the PC, not a hang or a wrong mode. */
static void test_irq_user_mode(void)
{
    uint32_t w[16];
    size_t n = sizeof irq_prologue / 4;
    memcpy(w, irq_prologue, sizeof irq_prologue);
    w[n++] = 0xF1020010; /* cps #0x10 (User) */
    w[n++] = 0xEAFFFFFE; /* b . */
    struct harness_diags l;
    struct vc4_arm_result r;
    CHECK(boot_words(w, n, 100000000, &l, &r, irq_vector_parks) == VC4_ERR_FAULT);
    CHECK_EQ_INT(r.end, VC4_ARM_END_FAULT);
    CHECK_CONTAINS(l.text, "an IRQ in User mode");
    CHECK_EQ_U64(r.irqs, 0);
}

/* IRQs masked (no cpsie): the branch to itself parks although the timer
 * interrupt would come. */
static void test_irq_masked_parks(void)
{
    uint32_t w[16];
    size_t n = sizeof irq_prologue / 4 - 1; /* without cpsie i */
    memcpy(w, irq_prologue, n * 4);
    w[n++] = 0xEAFFFFFE;
    struct harness_diags l;
    struct vc4_arm_result r;
    CHECK(boot_words(w, n, 100000000, &l, &r, irq_vector_parks) == VC4_OK);
    CHECK_EQ_INT(r.end, VC4_ARM_END_PARKED);
    CHECK_EQ_U64(r.pc, 0x8000 + 4 * n - 4);
    CHECK_EQ_U64(r.irqs, 0);
}

/* Basic pending bits 10-20 repeat GPU IRQs 7, 9, 10, 18, 19, 53-57, 62
 * (the V3D, IRQ 10, is bit 12); bit 8 = something in pending 1. */
static void test_intc_basic(void)
{
    struct vc4_intc c;
    vc4_intc_reset(&c);
    struct vc4_irq_lines l = {{1u << VC4_IRQ_V3D, 1u << (VC4_IRQ_UART0 - 32)}, 1u << VC4_IRQ_BASIC_MAILBOX};
    uint32_t v = 0;
    CHECK(vc4_intc_read(&c, 0x00, &l, &v));
    CHECK_EQ_U64(v, (1u << 1) | (1u << 8) | (1u << 9) | (1u << 12) | (1u << 19));
    CHECK(!vc4_intc_pending(&c, &l));
    CHECK(vc4_intc_write(&c, 0x18, 1u << VC4_IRQ_BASIC_MAILBOX)); /* enable basic: the mailbox */
    CHECK(vc4_intc_pending(&c, &l));
    CHECK(vc4_intc_write(&c, 0x24, 1u << VC4_IRQ_BASIC_MAILBOX)); /* disable basic */
    CHECK(!vc4_intc_pending(&c, &l));
    CHECK(vc4_intc_write(&c, 0x10, 1u << VC4_IRQ_V3D));
    CHECK(vc4_intc_pending(&c, &l));
}

/* The Pi 2/3 local timer: 38.4 MHz, reload 38400 = 1 ms; the flag in the
 * control register's bit 31 and core 0's IRQ source bit 11; GPU interrupt
 * routing to core 0 (source bit 8) or elsewhere. */
static void test_local_timer(void)
{
    struct vc4_local lc;
    vc4_local_reset(&lc);
    uint32_t v = 0;
    CHECK(vc4_local_write(&lc, 0x34, 38400u | (1u << 28) | (1u << 29), 100));
    CHECK_EQ_U64(vc4_local_next_us(&lc, 100), 1100);
    CHECK(vc4_local_read(&lc, 0x60, false, 1099, &v));
    CHECK_EQ_U64(v, 0);
    CHECK(vc4_local_read(&lc, 0x60, true, 1100, &v));
    CHECK_EQ_U64(v, (1u << 8) | (1u << 11));
    CHECK(vc4_local_core0_irq(&lc, false));
    CHECK(vc4_local_read(&lc, 0x34, false, 1100, &v));
    CHECK_EQ_U64(v >> 31, 1);
    CHECK(vc4_local_write(&lc, 0x38, 1u << 31, 1500)); /* clear */
    CHECK(!vc4_local_core0_irq(&lc, false));
    CHECK_EQ_U64(vc4_local_next_us(&lc, 1500), 2100); /* the count reloaded at 1100 */
    CHECK(vc4_local_write(&lc, 0x0C, 1, 1500));        /* the GPU IRQ to core 1 */
    CHECK(!vc4_local_core0_irq(&lc, true));
    CHECK(!vc4_local_read(&lc, 0x90, false, 0, &v));   /* core mailboxes: not modelled */
}

static bool stop_at_third(void *user, struct vc4_arm *arm, uint64_t time_us)
{
    (void)arm;
    uint64_t *t = user;
    t[t[0] + 1 < 4 ? t[0] + 1 : 3] = time_us;
    return ++t[0] < 3;
}

/* on_tick every emulated millisecond (what the live window uses): the
 * third asks to stop; the run ends "stopped by the caller" at 3 ms. */
static void test_tick_stop(void)
{
    static const uint8_t loop[8] = {0x01, 0x00, 0x80, 0xE2, 0xFD, 0xFF, 0xFF, 0xEA}; /* add r0, r0, #1; b .-4 */
    struct harness_diags l;
    struct vc4_diag_sink sink = harness_sink(&l);
    struct vc4_emu_options eo = {.sink = sink, .mem_size = 80u << 20};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    struct vc4_arm_options o = vc4_arm_defaults(VC4_PI1, false);
    uint64_t ticks[4] = {0};
    o.sink = sink;
    o.tick_us = 1000;
    o.on_tick = stop_at_third;
    o.tick_user = ticks;
    struct vc4_arm *arm = emu ? vc4_arm_create(emu, &o) : NULL;
    CHECK(arm && vc4_arm_load(arm, loop, sizeof loop) == VC4_OK);
    struct vc4_arm_result r = {0};
    if (arm)
        CHECK(vc4_arm_run(arm, &r) == VC4_OK);
    CHECK_EQ_INT(r.end, VC4_ARM_END_STOPPED);
    CHECK_EQ_U64(ticks[0], 3);
    CHECK(ticks[1] >= 1000 && ticks[1] < 1010 && ticks[3] >= 3000 && ticks[3] < 3010);
    CHECK(r.time_us >= 3000 && r.time_us < 3010);
    CHECK_CONTAINS(l.text, "stopped by the caller");
    vc4_arm_destroy(arm);
    vc4_emu_destroy(emu);
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
          test_irq_taken, test_irq_user_mode, test_tick_stop, test_irq_masked_parks, test_intc_basic, test_local_timer,
          test_garbage_images)
