/*
 * qpu_prog.h - QPU test programs built from instruction structs and run as
 * user programs on the emulator (code at CODE, uniforms at UNIF, queued
 * through SRQUA/SRQPC as bare metal does).  Shared by the test_qpu_*.c
 * table tests.
 */
#ifndef VC4_TEST_QPU_PROG_H
#define VC4_TEST_QPU_PROG_H

#include "harness.h"
#include "emu/v3d.h"
#include "vc4kit/emu.h"
#include "vc4kit/qpu.h"

#define CODE 0x1000u
#define UNIF 0x8000u

/* NOPF supplies nop defaults that the designated fields after it override. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif
#define NOPF .sig = 1, .waddr_add = 39, .waddr_mul = 39, .raddr_a = 39, .raddr_b = 39, .cond_add = 1, .cond_mul = 1
#define I(...) vc4_qpu_encode(&(struct vc4_qpu_instr){NOPF, __VA_ARGS__})

enum { R0 = 32, R1, R2, R3, R5 = 37, WNOP = 39, ELEM = 38, SMALL = 13, LDI = 14, MUX_A = 6, MUX_B = 7 };
enum { NEVER, ALWAYS, ZS, ZC, NS, NC, CS, CC };

#define NOP VC4_QPU_NOP_WORD

struct prog {
    uint64_t w[256];
    size_t n;
};
static inline void emit(struct prog *p, uint64_t w) { if (p->n < 256) p->w[p->n++] = w; }
static inline void emit_end(struct prog *p)
{
    emit(p, I(.sig = VC4_QPU_SIG_PROG_END));
    emit(p, NOP);
    emit(p, NOP);
}
/* ldi to an add-ALU destination (file A / accumulator) */
static inline uint64_t ldi(unsigned waddr, uint32_t imm) { return I(.sig = LDI, .waddr_add = (uint8_t)waddr, .imm = imm); }
/* ldi to file B (the mul-ALU destination when ws = 0) */
static inline uint64_t ldi_b(unsigned waddr, uint32_t imm) { return I(.sig = LDI, .waddr_mul = (uint8_t)waddr, .imm = imm); }

static struct vc4_emu *mk(unsigned qpus, struct harness_diags *d)
{
    struct vc4_emu_options o = {.mem_size = 1u << 20, .num_qpus = qpus, .sink = harness_sink(d)};
    return vc4_emu_create(&o);
}

/* Write the program's words at address at. */
static inline void load(struct vc4_emu *e, uint32_t at, const struct prog *p)
{
    for (size_t i = 0; i < p->n; i++) {
        uint8_t b[8];
        vc4_qpu_store_le(b, p->w[i]);
        vc4_emu_mem_write(e, at + 8 * (uint32_t)i, b, 8);
    }
}

/* Queue one user program (uniforms at UNIF). */
static inline void queue(struct vc4_emu *e, uint32_t pc)
{
    vc4_emu_reg_write(e, VC4_V3D_SRQUA, UNIF);
    vc4_emu_reg_write(e, VC4_V3D_SRQPC, pc);
}

/* Load at CODE, run once, within a cycle budget. */
static inline enum vc4_status run(struct vc4_emu *e, const struct prog *p)
{
    load(e, CODE, p);
    queue(e, CODE);
    return vc4_emu_run(e, 100000);
}

#endif
