/*
 * test_vpm_hw.c - the VPM memory paths that programs running on Pis show,
 * each as a short QPU program run on the emulator whose expectation is the
 * measured result (../shared/reference/v3d-hardware-facts.md, "Evidence from
 * programs that ran on Pis"; docs/vpm.md):
 *
 *  - VDR vertical mode: VPITCH adds to the VPM Y address, X is kept
 *    (asurati/x03 demo d2.c: setup 0x8304080f fills column 15 at Y = 0, 16,
 *    32, 48, and four 1-unit vertical VDW stores read it back unchanged);
 *    the QPULib / py-videocore vertical gather (ROWLEN 1, NROWS 16, VPITCH 1).
 *  - VDR extended pitch of 8192 bytes and more (py-videocore sgemm on a Pi 3).
 *  - VDW strides above 8191 (GPU_FFT's 16320, 32704, 65472 on a Pi 1).
 *  - a VPM read 1-2 instructions after its setup stalls and returns the data
 *    (vc4asm addendum section 7), in a Mesa-shaped vertex shader and in a
 *    GPU_FFT-shaped branch delay slot, with no warning or error from the
 *    emulator or the validator.
 *  - the addendum's deadlock: a third read after two 2-read setups hangs;
 *    nothing broader (1 then 3 reads is fine; reads beyond NUM still run).
 */
#include "qpu_prog.h"

enum {
    IN = 0x10000u,  /* input data */
    OUT = 0x40000u, /* VDW dumps */
    OUT2 = 0x80000u,
    UNIF_R = VC4_QPU_R_UNIF,
};

/* ---- instructions --------------------------------------------------------- */

/* An I/O register of regfile A (add ALU, ws = 0) gets the next uniform. */
static uint64_t unif_to_a(unsigned waddr)
{
    return I(.op_add = VC4_QPU_A_OR, .waddr_add = (uint8_t)waddr, .raddr_a = UNIF_R, .add_a = MUX_A,
             .add_b = MUX_A);
}
/* ... of regfile B (mul ALU, ws = 0). */
static uint64_t unif_to_b(unsigned waddr)
{
    return I(.op_mul = VC4_QPU_M_V8MIN, .waddr_mul = (uint8_t)waddr, .raddr_a = UNIF_R, .mul_a = MUX_A,
             .mul_b = MUX_A);
}
/* waddr (an accumulator or a regfile-A address) = regfile A register raddr
 * (VPM data, VPM_LD_WAIT, ra0-31) */
static uint64_t read_a(unsigned raddr, unsigned waddr)
{
    return I(.op_add = VC4_QPU_A_OR, .waddr_add = (uint8_t)waddr, .raddr_a = (uint8_t)raddr, .add_a = MUX_A,
             .add_b = MUX_A);
}
/* r0 = regfile B register raddr (VPM_ST_WAIT) */
static uint64_t read_b(unsigned raddr)
{
    return I(.op_add = VC4_QPU_A_OR, .waddr_add = R0, .raddr_b = (uint8_t)raddr, .add_a = MUX_B,
             .add_b = MUX_B);
}
/* VPM_WRITE = accumulator mux m */
static uint64_t vpm_write_acc(unsigned m)
{
    return I(.op_add = VC4_QPU_A_OR, .waddr_add = VC4_QPU_W_VPM, .add_a = (uint8_t)m, .add_b = (uint8_t)m);
}

/* Setup words, from the guide's tables 32-36 (field positions as the seed
 * post and the measured words use them). */
static uint32_t vdw_setup(unsigned units, unsigned depth, bool horiz, unsigned y, unsigned x)
{
    return 2u << 30 | (units & 127u) << 23 | (depth & 127u) << 16 | (unsigned)horiz << 14 | (y << 4 | x) << 3;
}
static uint32_t vdw_stride(unsigned stride) { return 3u << 30 | stride; }
static uint32_t gen_rd(unsigned num, unsigned y) { return (num & 15u) << 20 | 1u << 12 | 1u << 11 | 2u << 8 | y; }
static uint32_t gen_wr(unsigned y) { return 1u << 12 | 1u << 11 | 2u << 8 | y; }

/* Store VPM rows [y, y+units) to the next uniform's address, 64 bytes a row
 * plus `stride`, and wait for it. */
static void dump_rows(struct prog *p, unsigned y, unsigned units, unsigned stride)
{
    emit(p, ldi_b(VC4_QPU_W_VPMVCD_SETUP, vdw_setup(units, 16, true, y, 0)));
    emit(p, ldi_b(VC4_QPU_W_VPMVCD_SETUP, vdw_stride(stride)));
    emit(p, unif_to_b(VC4_QPU_W_VPM_ADDR));
    emit(p, read_b(VC4_QPU_R_VPM_WAIT));
}

/* VPM rows 0..n-1 = elem_num + step * (row + 1), by generic writes. */
static void write_rows(struct prog *p, unsigned n, uint32_t step)
{
    emit(p, ldi_b(VC4_QPU_W_VPMVCD_SETUP, gen_wr(0)));
    for (unsigned r = 0; r < n; r++) {
        emit(p, ldi(R0, step * (r + 1)));
        emit(p, I(.op_add = VC4_QPU_A_ADD, .waddr_add = VC4_QPU_W_VPM, .raddr_a = ELEM, .add_a = MUX_A,
                  .add_b = 0));
    }
}

/* ---- running ---------------------------------------------------------------- */

static struct vc4_emu *mk_emu(unsigned qpus, bool strict, struct harness_diags *d)
{
    struct vc4_emu_options o = {.mem_size = 1u << 20, .num_qpus = qpus, .sink = harness_sink(d), .strict = strict};
    return vc4_emu_create(&o);
}

static void set_unifs(struct vc4_emu *e, const uint32_t *u, size_t n)
{
    CHECK_EQ_INT(vc4_emu_mem_write(e, UNIF, u, n * sizeof u[0]), VC4_OK);
}

static uint32_t word_at(struct vc4_emu *e, uint32_t bus)
{
    uint32_t w = 0;
    CHECK_EQ_INT(vc4_emu_mem_read(e, bus, &w, 4), VC4_OK);
    return w;
}

static void put_words(struct vc4_emu *e, uint32_t bus, const uint32_t *w, size_t n)
{
    CHECK_EQ_INT(vc4_emu_mem_write(e, bus, w, n * 4), VC4_OK);
}

/* How often a rule id occurs in the collected text. */
static unsigned count_of(const char *text, const char *rule)
{
    unsigned n = 0;
    for (const char *s = strstr(text, rule); s; s = strstr(s + 1, rule))
        n++;
    return n;
}

/* The static validator over the same words: no warning or error, and the
 * notes named (NULL-terminated) are the only diagnostics. */
struct vcount { unsigned notes, others; char text[2048]; size_t len; };
static void vcount_fn(void *user, const struct vc4_diag *d)
{
    struct vcount *c = user;
    if (d->severity == VC4_NOTE)
        c->notes++;
    else
        c->others++;
    if (c->len < sizeof c->text - 1)
        c->len += vc4_diag_format(d, c->text + c->len, sizeof c->text - c->len);
    if (c->len >= sizeof c->text - 1)
        c->len = sizeof c->text - 2;
    c->text[c->len++] = '\n';
    c->text[c->len] = 0;
}
static void validate_clean(const struct prog *p, enum vc4_shader_kind kind, const char *note)
{
    struct vcount c;
    memset(&c, 0, sizeof c);
    struct vc4_diag_sink sink = {vcount_fn, &c};
    struct vc4_validate_options o = {.kind = kind, .base_addr = CODE};
    unsigned violations = 99;
    CHECK_EQ_INT(vc4_qpu_validate(p->w, p->n, &o, &sink, &violations), VC4_OK);
    CHECK_EQ_INT(violations, 0);
    CHECK_MSG(c.others == 0, "validator warnings/errors on working code:\n%s", c.text);
    if (note) {
        CHECK_MSG(c.notes >= 1 && count_of(c.text, note) == c.notes, "expected only %s notes:\n%s", note,
                  c.text);
        CHECK_CONTAINS(c.text, "note");
    }
}

/* ---- VDR vertical: VPITCH moves Y ----------------------------------------- */

/* asurati/x03 demo d2.c, run on a Pi: VDR 0x8304080f (32-bit, MPITCH 3 =
 * 64-byte rows, ROWLEN 16, NROWS 4, VPITCH 16, vertical, Y = 0, X = 15)
 * then four 1-unit vertical VDW stores 0x80900078 + r * 0x800 (Y = 16 r,
 * X = 15) to consecutive 64-byte rows: the output equals the input.  Here
 * a second dump of the whole VPM shows where the rows went: column 15 at
 * Y = 0, 16, 32, 48 and nothing else. */
static void test_vdr_vertical_d2(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk_emu(1, true, &d);
    uint32_t in[64];
    for (unsigned i = 0; i < 64; i++)
        in[i] = 0x9E3779B9u * (i + 1);
    put_words(e, IN, in, 64);
    struct prog p = {.n = 0};
    emit(&p, ldi(VC4_QPU_W_VPMVCD_SETUP, 0x8304080fu));
    emit(&p, unif_to_a(VC4_QPU_W_VPM_ADDR));
    emit(&p, read_a(VC4_QPU_R_VPM_WAIT, R0));
    for (unsigned r = 0; r < 4; r++) {
        emit(&p, ldi_b(VC4_QPU_W_VPMVCD_SETUP, 0x80900078u + r * 0x800u));
        emit(&p, unif_to_b(VC4_QPU_W_VPM_ADDR));
        emit(&p, read_b(VC4_QPU_R_VPM_WAIT));
    }
    dump_rows(&p, 0, 64, 0);
    emit_end(&p);
    const uint32_t u[] = {IN, OUT, OUT + 64, OUT + 128, OUT + 192, OUT2};
    set_unifs(e, u, VC4_ARRAY_SIZE(u));
    CHECK_EQ_INT(run(e, &p), VC4_OK);
    for (unsigned i = 0; i < 64; i++)
        CHECK_EQ_U64(word_at(e, OUT + 4 * i), in[i]); /* d2's check: out_buf == in_buf */
    unsigned misplaced = 0;
    for (unsigned row = 0; row < 64; row++)
        for (unsigned col = 0; col < 16; col++)
            misplaced += word_at(e, OUT2 + 4 * (row * 16 + col)) != (col == 15 ? in[row] : 0);
    CHECK_EQ_INT(misplaced, 0);
    CHECK_EQ_U64(d.len, 0); /* not a diagnostic */
    vc4_emu_destroy(e);
}

/* d2.c's other observation, on a Pi: a vertical VDW of 4 units of 16 from
 * Y = 0, X = 15 (0x82100078) stores column 15 of rows 0-15, then, X having
 * wrapped, columns 0, 1, 2 of rows 16-31 ("if the resultant X wraps around,
 * only then adds 16 to the Y address"). */
static void test_vdw_vertical_wrap_d2(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk_emu(1, true, &d);
    uint32_t in[64];
    for (unsigned i = 0; i < 64; i++)
        in[i] = 0x7000000u + i;
    put_words(e, IN, in, 64);
    struct prog p = {.n = 0};
    write_rows(&p, 32, 0x100); /* row r, column c = c + 0x100 (r + 1) */
    emit(&p, ldi(VC4_QPU_W_VPMVCD_SETUP, 0x8304080fu)); /* column 15 = in[row] */
    emit(&p, unif_to_a(VC4_QPU_W_VPM_ADDR));
    emit(&p, read_a(VC4_QPU_R_VPM_WAIT, R0));
    emit(&p, ldi_b(VC4_QPU_W_VPMVCD_SETUP, 0x82100078u));
    emit(&p, unif_to_b(VC4_QPU_W_VPM_ADDR));
    emit(&p, read_b(VC4_QPU_R_VPM_WAIT));
    emit_end(&p);
    const uint32_t u[] = {IN, OUT};
    set_unifs(e, u, VC4_ARRAY_SIZE(u));
    CHECK_EQ_INT(run(e, &p), VC4_OK);
    for (unsigned k = 0; k < 16; k++) {
        CHECK_EQ_U64(word_at(e, OUT + 4 * k), in[k]);
        for (unsigned c = 0; c < 3; c++)
            CHECK_EQ_U64(word_at(e, OUT + 64 * (1 + c) + 4 * k), c + 0x100 * (16 + k + 1));
    }
    CHECK_EQ_U64(d.len, 0);
    vc4_emu_destroy(e);
}

/* QPULib's and py-videocore's vertical gather: 16 memory rows of one word
 * each (ROWLEN 1, NROWS 16, VPITCH 1, vertical, X = 5) fill column 5 of
 * rows 0-15, which one vertical generic read returns as a vector. */
static void test_vdr_vertical_gather(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk_emu(1, true, &d);
    for (unsigned i = 0; i < 16; i++) {
        uint32_t w = 1000 + i * 7;
        put_words(e, IN + 64 * i, &w, 1); /* MPITCH 3: rows 64 bytes apart */
    }
    uint32_t vdr = 1u << 31 | 3u << 24 | 1u << 20 | 0u << 16 | 1u << 12 | 1u << 11 | (0u << 4 | 5u);
    struct prog p = {.n = 0};
    emit(&p, ldi(VC4_QPU_W_VPMVCD_SETUP, vdr));
    emit(&p, unif_to_a(VC4_QPU_W_VPM_ADDR));
    emit(&p, read_a(VC4_QPU_R_VPM_WAIT, R0));
    /* generic read: NUM 1, vertical, 32-bit, ADDR {Y[5:4] = 0, X = 5} */
    emit(&p, ldi(VC4_QPU_W_VPMVCD_SETUP, 1u << 20 | 1u << 12 | 2u << 8 | 5u));
    emit(&p, NOP);
    emit(&p, NOP);
    emit(&p, NOP);
    emit(&p, read_a(VC4_QPU_R_VPM, R1));
    emit(&p, ldi_b(VC4_QPU_W_VPMVCD_SETUP, gen_wr(40)));
    emit(&p, vpm_write_acc(1));
    dump_rows(&p, 40, 1, 0);
    emit_end(&p);
    const uint32_t u[] = {IN, OUT};
    set_unifs(e, u, VC4_ARRAY_SIZE(u));
    CHECK_EQ_INT(run(e, &p), VC4_OK);
    for (unsigned i = 0; i < 16; i++)
        CHECK_EQ_U64(word_at(e, OUT + 4 * i), 1000 + i * 7);
    CHECK_EQ_U64(d.len, 0);
    vc4_emu_destroy(e);
}

/* ---- VDR extended pitch past 13 bits ---------------------------------------- */

/* py-videocore's sgemm loads rows 8192 bytes and more apart through the
 * extended pitch and runs on a Pi 3: the pitch is taken in full.  Two
 * loads (pitch 16384 to rows 0-3, 8192 to rows 8-11) give one note. */
static void test_vdr_wide_pitch(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk_emu(1, true, &d);
    for (unsigned r = 0; r < 4; r++)
        for (unsigned i = 0; i < 16; i++) {
            uint32_t a = (r + 1) * 100 + i, b = (r + 1) * 1000 + i;
            put_words(e, IN + r * 16384 + 4 * i, &a, 1);
            put_words(e, IN + 0x40 + r * 8192 + 4 * i, &b, 1);
        }
    struct prog p = {.n = 0};
    emit(&p, ldi(VC4_QPU_W_VPMVCD_SETUP, 0x90000000u | 16384u));
    /* 32-bit, extended pitch, ROWLEN 16, NROWS 4, VPITCH 1, horizontal, Y = 0 */
    emit(&p, ldi(VC4_QPU_W_VPMVCD_SETUP, 1u << 31 | 4u << 16 | 1u << 12));
    emit(&p, unif_to_a(VC4_QPU_W_VPM_ADDR));
    emit(&p, read_a(VC4_QPU_R_VPM_WAIT, R0));
    emit(&p, ldi(VC4_QPU_W_VPMVCD_SETUP, 0x90000000u | 8192u));
    emit(&p, ldi(VC4_QPU_W_VPMVCD_SETUP, 1u << 31 | 4u << 16 | 1u << 12 | 8u << 4));
    emit(&p, unif_to_a(VC4_QPU_W_VPM_ADDR));
    emit(&p, read_a(VC4_QPU_R_VPM_WAIT, R0));
    dump_rows(&p, 0, 12, 0);
    emit_end(&p);
    const uint32_t u[] = {IN, IN + 0x40, OUT};
    set_unifs(e, u, VC4_ARRAY_SIZE(u));
    CHECK_EQ_INT(run(e, &p), VC4_OK); /* strict: a note does not stop it */
    for (unsigned r = 0; r < 4; r++)
        for (unsigned i = 0; i < 16; i++) {
            CHECK_EQ_U64(word_at(e, OUT + r * 64 + 4 * i), (r + 1) * 100 + i);
            CHECK_EQ_U64(word_at(e, OUT + (8 + r) * 64 + 4 * i), (r + 1) * 1000 + i);
        }
    CHECK_EQ_INT(d.warnings + d.errors, 0);
    CHECK_EQ_INT(count_of(d.text, "vdr-pitch-width"), 1); /* once per program */
    CHECK_CONTAINS(d.text, "note");
    vc4_emu_destroy(e);
}

/* ---- VDW strides past 8191 ------------------------------------------------------ */

/* GPU_FFT stores with strides 16320, 32704 and 65472 (2^16-2^18) and
 * reaches its published accuracy on a Pi 1: rows land 16384, 32768 and
 * 65536 bytes apart.  Three stores, one note, no warning. */
static void test_vdw_wide_stride(void)
{
    static const unsigned strides[] = {16320, 32704, 65472};
    struct harness_diags d;
    struct vc4_emu *e = mk_emu(1, true, &d);
    struct prog p = {.n = 0};
    write_rows(&p, 2, 0x100); /* row r = elem + 0x100 (r + 1) */
    for (unsigned s = 0; s < 3; s++)
        dump_rows(&p, 0, 2, strides[s]);
    emit_end(&p);
    const uint32_t u[] = {OUT, OUT2, IN};
    set_unifs(e, u, VC4_ARRAY_SIZE(u));
    CHECK_EQ_INT(run(e, &p), VC4_OK);
    for (unsigned s = 0; s < 3; s++) {
        uint32_t base = u[s], gap = 64 + strides[s];
        CHECK_EQ_U64(gap & (gap - 1), 0); /* 16384, 32768, 65536 */
        for (unsigned i = 0; i < 16; i++) {
            CHECK_EQ_U64(word_at(e, base + 4 * i), 0x100 + i);
            CHECK_EQ_U64(word_at(e, base + gap + 4 * i), 0x200 + i);
        }
    }
    CHECK_EQ_INT(d.warnings + d.errors, 0);
    CHECK_EQ_INT(count_of(d.text, "vdw-stride-width"), 1);
    vc4_emu_destroy(e);
}

/* ---- early VPM reads stall and return the data --------------------------- */

/* Write row 0 = elem + 0x100, set up a 1-vector read, read it `gap`
 * instructions later (1 = the next instruction), copy it to row 1 and dump
 * both rows. */
static void early_read_prog(struct prog *p, unsigned gap)
{
    p->n = 0;
    write_rows(p, 1, 0x100);
    emit(p, ldi(VC4_QPU_W_VPMVCD_SETUP, gen_rd(1, 0)));
    for (unsigned k = 1; k < gap; k++)
        emit(p, NOP);
    emit(p, read_a(VC4_QPU_R_VPM, R1));
    emit(p, ldi_b(VC4_QPU_W_VPMVCD_SETUP, gen_wr(1)));
    emit(p, vpm_write_acc(1));
    dump_rows(p, 0, 2, 0);
    emit_end(p);
}

/* The addendum: "No undefined data is returned when the reads are made too
 * early"; the read waits.  Reads 1, 2 and 3 instructions after the setup
 * get the same data; the earlier ones stall 2 and 1 cycles (the data is
 * there 3 instructions after the setup), so all three take as many cycles. */
static void test_early_read_stalls(void)
{
    uint64_t stalls[4] = {0}, cycles[4] = {0};
    for (unsigned gap = 1; gap <= 3; gap++) {
        struct harness_diags d;
        struct vc4_emu *e = mk_emu(1, true, &d);
        struct prog p;
        early_read_prog(&p, gap);
        const uint32_t u[] = {OUT};
        set_unifs(e, u, 1);
        CHECK_EQ_INT(run(e, &p), VC4_OK);
        for (unsigned i = 0; i < 16; i++)
            CHECK_EQ_U64(word_at(e, OUT + 64 + 4 * i), 0x100 + i);
        CHECK_EQ_U64(d.len, 0); /* no diagnostic at all */
        struct vc4_emu_stats st;
        vc4_emu_stats(e, &st);
        stalls[gap] = st.stall_cycles;
        cycles[gap] = st.cycles;
        vc4_emu_destroy(e);
        /* the validator calls it a portability note, nothing more */
        validate_clean(&p, VC4_SHADER_USER, "vpm-read-too-early");
    }
    CHECK_EQ_U64(stalls[1] - stalls[3], 2);
    CHECK_EQ_U64(stalls[2] - stalls[3], 1);
    CHECK_EQ_U64(cycles[1], cycles[3]);
    CHECK_EQ_U64(cycles[2], cycles[3]);
}

/* A Mesa vc4 vertex shader's opening (vc4_qpu_emit.c): vr_setup for the
 * attributes (32-bit horizontal stride 1 from the vertex's row), vw_setup,
 * and the first VPM reads scheduled 1 and 3 instructions after vr_setup;
 * run on every Pi with Mesa.  As a user program: the reads get rows 0 and
 * 1; the validator (kind vertex) gives notes only. */
/* Run p strict on one QPU with OUT as its one uniform; the emulator after. */
static struct vc4_emu *run_strict_to_out(const struct prog *p, struct harness_diags *d)
{
    struct vc4_emu *e = mk_emu(1, true, d);
    const uint32_t u[] = {OUT};
    set_unifs(e, u, 1);
    CHECK_EQ_INT(run(e, p), VC4_OK);
    return e;
}

static void test_mesa_vertex_shape(void)
{
    struct prog p = {.n = 0};
    write_rows(&p, 2, 0x1000); /* row r = elem + 0x1000 (r + 1) */
    size_t shader = p.n;
    emit(&p, ldi(VC4_QPU_W_VPMVCD_SETUP, 0x00201a00u));  /* vr_setup: 2 vectors from row 0 */
    emit(&p, read_a(VC4_QPU_R_VPM, R2));                /* 1 after */
    emit(&p, ldi_b(VC4_QPU_W_VPMVCD_SETUP, gen_wr(8))); /* vw_setup */
    emit(&p, read_a(VC4_QPU_R_VPM, R3));                /* 3 after */
    emit(&p, I(.op_add = VC4_QPU_A_ADD, .waddr_add = VC4_QPU_W_VPM, .add_a = 2, .add_b = 3));
    dump_rows(&p, 8, 1, 0);
    emit_end(&p);

    struct harness_diags d;
    struct vc4_emu *e = run_strict_to_out(&p, &d);
    for (unsigned i = 0; i < 16; i++)
        CHECK_EQ_U64(word_at(e, OUT + 4 * i), 0x3000 + 2 * i);
    CHECK_EQ_U64(d.len, 0);
    vc4_emu_destroy(e);

    /* the shader part alone, as the validator sees a vertex shader */
    struct prog vs = {.n = 0};
    for (size_t k = shader; k < p.n; k++)
        emit(&vs, p.w[k]);
    validate_clean(&vs, VC4_SHADER_VERTEX, "vpm-read-too-early");
}

/* GPU_FFT's shape (gpu_fft.qinc): the read setup and the VPM read sit in a
 * branch's delay slots (the setup value in a register), and the results go
 * out with VDW strides past 8191.  Emulator: the right data, one note (the
 * stride), no warning; validator: notes only. */
static void test_gpu_fft_shape(void)
{
    struct prog p = {.n = 0};
    write_rows(&p, 1, 0x500);
    emit(&p, ldi(3, gen_rd(1, 0))); /* ra3 = the read setup */
    emit(&p, NOP);
    emit(&p, vc4_qpu_encode(&(struct vc4_qpu_instr){.sig = VC4_QPU_SIG_BRANCH, .cond_br = VC4_QPU_BCOND_ALWAYS,
                                                     .rel = 1, .imm = 8 * 2, .waddr_add = WNOP,
                                                     .waddr_mul = WNOP}));
    emit(&p, read_a(3, VC4_QPU_W_VPMVCD_SETUP));        /* delay slot 1: vr_setup = ra3 */
    emit(&p, read_a(VC4_QPU_R_VPM, R1));                /* delay slot 2: the read */
    emit(&p, NOP);                                      /* delay slot 3 */
    emit(&p, ldi(R1, 0xDEAD));                          /* skipped */
    emit(&p, ldi(R1, 0xBEEF));                          /* skipped */
    emit(&p, ldi_b(VC4_QPU_W_VPMVCD_SETUP, gen_wr(1))); /* the target */
    emit(&p, vpm_write_acc(1));
    dump_rows(&p, 0, 2, 16320);
    emit_end(&p);

    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    const uint32_t u[] = {OUT};
    set_unifs(e, u, 1);
    CHECK_EQ_INT(run(e, &p), VC4_OK);
    for (unsigned i = 0; i < 16; i++)
        CHECK_EQ_U64(word_at(e, OUT + 16384 + 4 * i), 0x500 + i);
    CHECK_MSG(d.warnings + d.errors == 0, "GPU_FFT shape:\n%s", d.text);
    CHECK_EQ_INT(count_of(d.text, "vdw-stride-width"), 1);
    vc4_emu_destroy(e);
    validate_clean(&p, VC4_SHADER_USER, "vpm-read-too-early");
}

/* ---- the addendum's deadlock, and nothing broader -------------------------- */

/* "if you request 2 reads with the first write to vr_setup and another two
 * reads with the second write, then the second job is ignored and you can
 * read only two values without a deadlock": the third read hangs the QPU
 * (a timeout, as execute_qpu on a Pi), with one error diagnostic; the other
 * QPU's program ends normally. */
static void test_third_read_deadlocks(void)
{
    struct prog p = {.n = 0};
    emit(&p, ldi(VC4_QPU_W_VPMVCD_SETUP, gen_rd(2, 0)));
    emit(&p, ldi(VC4_QPU_W_VPMVCD_SETUP, gen_rd(2, 4))); /* ignored: 2 values outstanding */
    emit(&p, NOP);
    emit(&p, NOP);
    emit(&p, read_a(VC4_QPU_R_VPM, R1));
    emit(&p, read_a(VC4_QPU_R_VPM, R1));
    size_t third = p.n;
    emit(&p, read_a(VC4_QPU_R_VPM, R1));
    emit_end(&p);
    struct prog ok = {.n = 0};
    emit_end(&ok);

    struct harness_diags d;
    struct vc4_emu *e = mk(2, &d);
    load(e, CODE, &p);
    load(e, CODE + 0x800, &ok);
    queue(e, CODE);
    queue(e, CODE + 0x800);
    CHECK_EQ_INT(vc4_emu_run(e, 20000), VC4_ERR_TIMEOUT);
    CHECK_EQ_INT(count_of(d.text, "vpm-read-deadlock"), 1);
    CHECK_CONTAINS(d.text, "vpm-setup-outstanding");
    CHECK_CONTAINS(d.text, "hardware deadlock"); /* the timeout names what it waits for */
    struct vc4_emu_qpu_info qi;
    CHECK_EQ_INT(vc4_emu_qpu_info(e, 0, &qi), VC4_OK);
    CHECK_EQ_INT(qi.state, VC4_EMU_QPU_BLOCKED);
    CHECK_EQ_U64(qi.instructions, third + 1); /* nothing after the third read ran */
    CHECK_EQ_INT(vc4_emu_qpu_info(e, 1, &qi), VC4_OK);
    CHECK_EQ_INT(qi.state, VC4_EMU_QPU_IDLE);
    /* still hung when run again; the error is not repeated */
    CHECK_EQ_INT(vc4_emu_run(e, 1000), VC4_ERR_TIMEOUT);
    CHECK_EQ_INT(count_of(d.text, "vpm-read-deadlock"), 1);
    vc4_emu_destroy(e);

    /* strict mode stops at the rule instead of waiting for the budget */
    e = mk_emu(1, true, &d);
    CHECK_EQ_INT(run(e, &p), VC4_ERR_RULE);
    vc4_emu_destroy(e);
}

/* The addendum's counter-example: 1 read, then a setup of 3 right away is
 * taken (one value outstanding), 4 reads follow with no diagnostic.  And a
 * read beyond NUM with no ignored setup is still the old warning, not a
 * hang (the guide: garbage; not measured). */
static void test_no_broader_than_the_addendum(void)
{
    struct prog p = {.n = 0};
    write_rows(&p, 4, 0x100); /* row r = elem + 0x100 (r + 1) */
    emit(&p, ldi(VC4_QPU_W_VPMVCD_SETUP, gen_rd(1, 3)));
    emit(&p, ldi(VC4_QPU_W_VPMVCD_SETUP, gen_rd(3, 0)));
    emit(&p, ldi_b(VC4_QPU_W_VPMVCD_SETUP, gen_wr(8)));
    for (unsigned k = 0; k < 4; k++) {
        emit(&p, read_a(VC4_QPU_R_VPM, R1));
        emit(&p, vpm_write_acc(1));
    }
    dump_rows(&p, 8, 4, 0);
    emit_end(&p);
    struct harness_diags d;
    struct vc4_emu *e = run_strict_to_out(&p, &d);
    static const unsigned rows[4] = {3, 0, 1, 2}; /* setup 1's value first */
    for (unsigned k = 0; k < 4; k++)
        CHECK_EQ_U64(word_at(e, OUT + 64 * k + 4 * 5), 0x100 * (rows[k] + 1) + 5);
    CHECK_MSG(d.len == 0, "%s", d.text);
    vc4_emu_destroy(e);

    /* one read too many after a single setup: warned, carries on */
    struct prog q = {.n = 0};
    emit(&q, ldi(VC4_QPU_W_VPMVCD_SETUP, gen_rd(1, 0)));
    emit(&q, NOP);
    emit(&q, NOP);
    emit(&q, read_a(VC4_QPU_R_VPM, R1));
    emit(&q, read_a(VC4_QPU_R_VPM, R1));
    emit_end(&q);
    e = mk(1, &d);
    CHECK_EQ_INT(run(e, &q), VC4_OK);
    CHECK_CONTAINS(d.text, "vpm-read-overrun");
    CHECK_EQ_INT(count_of(d.text, "vpm-read-deadlock"), 0);
    vc4_emu_destroy(e);
}

/* Mesa's vc4 vertex/coordinate shader with 20 input words
 * (vc4_qpu_emit.c: "There's a 4-entry FIFO for VPMVCD reads, each of which
 * can load up to 16 dwords"): a setup of 16 (NUM = 0) and one of 4 back to
 * back, then 20 reads, the first one instruction after the second setup.
 * It runs on Pis, so every row comes back in order with no diagnostic, and
 * the validator takes it; the same with four setups (16, 16, 16, 4) and a
 * fifth setup behind four outstanding ones is ignored (the model in
 * vc4_vpm_rd_setup, UNVERIFIED). */
static void test_mesa_queued_setups(void)
{
    static const unsigned sizes[][4] = {{16, 4}, {16, 16, 16, 4}};
    for (unsigned t = 0; t < 2; t++) {
        unsigned n = 0, rows = 0;
        while (n < 4 && sizes[t][n])
            rows += sizes[t][n++];
        struct prog p = {.n = 0};
        write_rows(&p, rows, 0x10); /* row r = elem + 0x10 (r + 1) */
        size_t shader = p.n;
        for (unsigned k = 0, y = 0; k < n; y += sizes[t][k], k++)
            emit(&p, ldi(VC4_QPU_W_VPMVCD_SETUP, gen_rd(sizes[t][k], y)));
        emit(&p, ldi_b(VC4_QPU_W_VPMVCD_SETUP, gen_wr(rows == 20 ? 32 : 0))); /* outputs over the inputs */
        for (unsigned r = 0; r < rows; r++) {
            emit(&p, read_a(VC4_QPU_R_VPM, R1));
            emit(&p, vpm_write_acc(1));
        }
        size_t shader_end = p.n;
        dump_rows(&p, rows == 20 ? 32 : 0, rows, 0);
        emit_end(&p);

        struct harness_diags d;
        struct vc4_emu *e = run_strict_to_out(&p, &d);
        for (unsigned r = 0; r < rows; r++)
            CHECK_EQ_U64(word_at(e, OUT + 64 * r + 4 * 7), 0x10 * (r + 1) + 7);
        CHECK_MSG(d.len == 0, "Mesa's queued read setups:\n%s", d.text);
        vc4_emu_destroy(e);

        struct prog vs = {.n = 0};
        for (size_t k = shader; k < shader_end; k++)
            emit(&vs, p.w[k]);
        emit_end(&vs);
        validate_clean(&vs, VC4_SHADER_VERTEX, "vpm-read-too-early");
    }

    /* a fifth setup while four have reads outstanding: ignored */
    struct prog q = {.n = 0};
    for (unsigned k = 0; k < 5; k++)
        emit(&q, ldi(VC4_QPU_W_VPMVCD_SETUP, gen_rd(16, 0)));
    emit_end(&q);
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    run(e, &q);
    CHECK_EQ_INT(count_of(d.text, "vpm-setup-outstanding"), 1);
    vc4_emu_destroy(e);
}

/* The validator agrees with the emulator on the addendum's 2 + 2: the
 * second setup is reported (vpm-setup-outstanding), the 1 + 3 is not. */
static void test_validator_addendum_pairs(void)
{
    struct prog p = {.n = 0};
    emit(&p, ldi(VC4_QPU_W_VPMVCD_SETUP, gen_rd(2, 0)));
    emit(&p, ldi(VC4_QPU_W_VPMVCD_SETUP, gen_rd(2, 4)));
    for (unsigned k = 0; k < 3; k++)
        emit(&p, NOP);
    emit(&p, read_a(VC4_QPU_R_VPM, R1));
    emit(&p, read_a(VC4_QPU_R_VPM, R1));
    emit_end(&p);
    struct vcount c;
    memset(&c, 0, sizeof c);
    struct vc4_diag_sink sink = {vcount_fn, &c};
    struct vc4_validate_options o = {.kind = VC4_SHADER_USER, .base_addr = CODE};
    unsigned violations = 0;
    CHECK(vc4_qpu_validate(p.w, p.n, &o, &sink, &violations) != VC4_OK); /* an error-severity rule */
    CHECK_EQ_INT(violations, 1);
    CHECK_EQ_INT(count_of(c.text, "vpm-setup-outstanding"), 1);
    CHECK_EQ_INT(count_of(c.text, "vpm-read-unconsumed"), 0); /* the ignored setup's reads are not owed */

    struct prog q = {.n = 0};
    emit(&q, ldi(VC4_QPU_W_VPMVCD_SETUP, gen_rd(1, 0)));
    emit(&q, ldi(VC4_QPU_W_VPMVCD_SETUP, gen_rd(3, 4)));
    for (unsigned k = 0; k < 3; k++)
        emit(&q, NOP);
    for (unsigned k = 0; k < 4; k++)
        emit(&q, read_a(VC4_QPU_R_VPM, R1));
    emit_end(&q);
    validate_clean(&q, VC4_SHADER_USER, NULL);
}

/* A loop reading the VPM on every turn (a setup of 8, 4 turns of 2 reads),
 * as compute kernels do: correct code, so neither the emulator nor the
 * validator may complain (the validator walks straight-line code and used
 * to count only the first turn's reads: "6 programmed VPM reads not
 * consumed").  It forgets the count at a branch target. */
static void test_vpm_read_loop(void)
{
    struct prog p = {.n = 0};
    write_rows(&p, 8, 0x100); /* row r = elem + 0x100 (r + 1) */
    emit(&p, ldi(VC4_QPU_W_VPMVCD_SETUP, gen_rd(8, 0)));
    emit(&p, ldi_b(VC4_QPU_W_VPMVCD_SETUP, gen_wr(8)));
    emit(&p, ldi(R3, 4));
    size_t loop = p.n;
    emit(&p, read_a(VC4_QPU_R_VPM, R1));
    emit(&p, read_a(VC4_QPU_R_VPM, R2));
    emit(&p, I(.op_add = VC4_QPU_A_ADD, .waddr_add = VC4_QPU_W_VPM, .add_a = 1, .add_b = 2));
    emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_SUB, .waddr_add = R3, .raddr_b = 1, .add_a = 3,
               .add_b = MUX_B, .sf = 1)); /* r3 -= 1, flags */
    size_t br = p.n;
    emit(&p, vc4_qpu_encode(&(struct vc4_qpu_instr){.sig = VC4_QPU_SIG_BRANCH, .cond_br = VC4_QPU_BCOND_ANY_ZC,
                                                     .rel = 1, .imm = (uint32_t)(8 * ((long)loop - (long)(br + 4))),
                                                     .waddr_add = WNOP, .waddr_mul = WNOP}));
    emit(&p, NOP);
    emit(&p, NOP);
    emit(&p, NOP);
    dump_rows(&p, 8, 4, 0);
    emit_end(&p);

    struct harness_diags d;
    struct vc4_emu *e = run_strict_to_out(&p, &d);
    for (unsigned k = 0; k < 4; k++)
        for (unsigned i = 0; i < 16; i++)
            CHECK_EQ_U64(word_at(e, OUT + 64 * k + 4 * i), 2 * i + 0x100 * (4 * k + 3));
    CHECK_MSG(d.len == 0, "%s", d.text);
    vc4_emu_destroy(e);
    validate_clean(&p, VC4_SHADER_USER, "vpm-read-too-early");
}

/* A VDR load between generic reads, its setup computed at run time (from a
 * uniform): the VDR setup leaves the read FIFO alone, so the three reads get
 * rows 0, 1, 2 and the load lands in row 20.  The validator cannot tell a
 * VDR setup from a generic one without the value and so must not call it
 * "a new read setup while 2 reads are outstanding". */
static void test_vdr_between_reads(void)
{
    struct prog p = {.n = 0};
    write_rows(&p, 3, 0x100);
    emit(&p, ldi(VC4_QPU_W_VPMVCD_SETUP, gen_rd(3, 0)));
    emit(&p, unif_to_a(5)); /* ra5 = the VDR setup */
    emit(&p, unif_to_a(6)); /* ra6 = its address */
    emit(&p, read_a(VC4_QPU_R_VPM, R1));
    emit(&p, read_a(5, VC4_QPU_W_VPMVCD_SETUP));
    emit(&p, read_a(6, VC4_QPU_W_VPM_ADDR));
    emit(&p, read_a(VC4_QPU_R_VPM_WAIT, R0));
    emit(&p, read_a(VC4_QPU_R_VPM, R2));
    emit(&p, read_a(VC4_QPU_R_VPM, R3));
    emit(&p, ldi_b(VC4_QPU_W_VPMVCD_SETUP, gen_wr(8)));
    emit(&p, vpm_write_acc(1));
    emit(&p, vpm_write_acc(2));
    emit(&p, vpm_write_acc(3));
    dump_rows(&p, 8, 3, 0);
    dump_rows(&p, 20, 1, 0);
    emit_end(&p);

    struct harness_diags d;
    struct vc4_emu *e = mk_emu(1, true, &d);
    uint32_t in[16];
    for (unsigned i = 0; i < 16; i++)
        in[i] = 0xABC00 + i;
    put_words(e, IN, in, 16);
    /* 32-bit, MPITCH 3, ROWLEN 16, NROWS 1, VPITCH 1, horizontal, Y = 20 */
    const uint32_t u[] = {1u << 31 | 3u << 24 | 1u << 16 | 1u << 12 | 20u << 4, IN, OUT, OUT2};
    set_unifs(e, u, VC4_ARRAY_SIZE(u));
    CHECK_EQ_INT(run(e, &p), VC4_OK);
    for (unsigned k = 0; k < 3; k++)
        CHECK_EQ_U64(word_at(e, OUT + 64 * k + 4 * 7), 7 + 0x100 * (k + 1));
    for (unsigned i = 0; i < 16; i++)
        CHECK_EQ_U64(word_at(e, OUT2 + 4 * i), in[i]);
    CHECK_MSG(d.len == 0, "%s", d.text);
    vc4_emu_destroy(e);
    validate_clean(&p, VC4_SHADER_USER, "vpm-read-too-early");
}

/* maazl's hand-optimised GPU_FFT (vc4asm samples; its author wrote the
 * addendum) pairs VPM register accesses with ldtmu0: `read vw_wait; ldtmu0`
 * and `mov vw_setup, ...; ldtmu0`.  The addendum's "Concurrent access to
 * VPM registers" is about VPM registers only, so neither the emulator nor
 * the validator may complain; the TMU data and the store are right. */
static void test_vpm_with_ldtmu(void)
{
    struct prog p = {.n = 0};
    emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_SHL, .waddr_add = R3, .raddr_a = ELEM, .raddr_b = 2,
               .add_a = MUX_A, .add_b = MUX_B)); /* r3 = 4 elem */
    emit(&p, ldi(R0, IN));
    emit(&p, I(.op_add = VC4_QPU_A_ADD, .waddr_add = VC4_QPU_W_TMU0_S, .add_a = 0, .add_b = 3));
    emit(&p, I(.op_add = VC4_QPU_A_ADD, .waddr_add = VC4_QPU_W_TMU0_S, .add_a = 0, .add_b = 3));
    write_rows(&p, 1, 0x100);
    emit(&p, ldi_b(VC4_QPU_W_VPMVCD_SETUP, vdw_setup(1, 16, true, 0, 0)));
    emit(&p, unif_to_b(VC4_QPU_W_VPM_ADDR));
    emit(&p, ldi(R2, gen_wr(1)));
    /* add r1, r0, r0; v8min -, vw_wait, vw_wait; ldtmu0 */
    emit(&p, I(.sig = VC4_QPU_SIG_LOAD_TMU0, .op_add = VC4_QPU_A_ADD, .waddr_add = R1, .add_a = 0, .add_b = 0,
               .op_mul = VC4_QPU_M_V8MIN, .raddr_b = VC4_QPU_R_VPM_WAIT, .mul_a = MUX_B, .mul_b = MUX_B));
    /* v8min vw_setup, r2, r2; ldtmu0 */
    emit(&p, I(.sig = VC4_QPU_SIG_LOAD_TMU0, .op_mul = VC4_QPU_M_V8MIN, .waddr_mul = VC4_QPU_W_VPMVCD_SETUP,
               .mul_a = 2, .mul_b = 2));
    emit(&p, vpm_write_acc(4)); /* row 1 = the second lookup */
    dump_rows(&p, 1, 1, 0);
    emit_end(&p);

    struct harness_diags d;
    struct vc4_emu *e = mk_emu(1, true, &d);
    uint32_t in[16];
    for (unsigned i = 0; i < 16; i++)
        in[i] = 0x5150000u + i;
    put_words(e, IN, in, 16);
    const uint32_t u[] = {OUT, OUT2};
    set_unifs(e, u, VC4_ARRAY_SIZE(u));
    CHECK_EQ_INT(run(e, &p), VC4_OK);
    for (unsigned i = 0; i < 16; i++) {
        CHECK_EQ_U64(word_at(e, OUT + 4 * i), 0x100 + i);
        CHECK_EQ_U64(word_at(e, OUT2 + 4 * i), in[i]);
    }
    CHECK_MSG(d.len == 0, "%s", d.text);
    vc4_emu_destroy(e);
    validate_clean(&p, VC4_SHADER_USER, NULL);
}

TEST_LIST(test_vdr_vertical_d2, test_vdw_vertical_wrap_d2, test_vdr_vertical_gather, test_vdr_wide_pitch, test_vdw_wide_stride,
          test_early_read_stalls, test_mesa_vertex_shape, test_gpu_fft_shape, test_third_read_deadlocks,
          test_no_broader_than_the_addendum, test_mesa_queued_setups, test_validator_addendum_pairs, test_vpm_read_loop, test_vdr_between_reads,
          test_vpm_with_ldtmu)
