/*
 * aux.c - the AUX block (ARM Peripherals ch. 2, at 0x215000): AUX_IRQ 0x00,
 * AUX_ENABLES 0x04 and the mini UART (UART1): AUX_MU_IO 0x40, IER 0x44,
 * IIR 0x48, LCR 0x4C, MCR 0x50, LSR 0x54, MSR 0x58, SCRATCH 0x5C, CNTL
 * 0x60, STAT 0x64, BAUD 0x68.  Bytes written to AUX_MU_IO go to the host at
 * once: LSR always says transmitter empty and idle, no data received.  The
 * SPI1/2 registers (0x80-0xD4) are not modelled.
 */
#include <string.h>

#include "arm/periph.h"

enum aux_reg {
    AUX_IRQ = 0x00,
    AUX_ENABLES = 0x04,
    MU_IO = 0x40,
    MU_IER = 0x44,
    MU_IIR = 0x48,
    MU_LCR = 0x4C,
    MU_MCR = 0x50,
    MU_LSR = 0x54,
    MU_MSR = 0x58,
    MU_SCRATCH = 0x5C,
    MU_CNTL = 0x60,
    MU_STAT = 0x64,
    MU_BAUD = 0x68,
};
#define MU_LSR_TX_EMPTY (1u << 5)
#define MU_LSR_TX_IDLE (1u << 6)
#define MU_IIR_NONE 0xC1u   /* FIFOs enabled, no interrupt pending */
#define MU_STAT_TX_IDLE 0x30Au /* space available, tx idle, tx FIFO empty (bits 1, 3, 8, 9) */

void vc4_aux_reset(struct vc4_aux *a)
{
    memset(a, 0, sizeof *a);
}

bool vc4_aux_read(const struct vc4_aux *a, uint32_t off, uint32_t *v)
{
    switch (off) {
    case AUX_IRQ: case MU_IO: case MU_MSR: *v = 0; return true;
    case AUX_ENABLES: *v = a->enables; return true;
    case MU_IER: *v = a->ier; return true;
    case MU_IIR: *v = MU_IIR_NONE; return true;
    case MU_LCR: *v = a->lcr; return true;
    case MU_MCR: *v = a->mcr; return true;
    case MU_LSR: *v = MU_LSR_TX_EMPTY | MU_LSR_TX_IDLE; return true;
    case MU_SCRATCH: *v = a->scratch; return true;
    case MU_CNTL: *v = a->cntl; return true;
    case MU_STAT: *v = MU_STAT_TX_IDLE; return true;
    case MU_BAUD: *v = a->baud; return true;
    default: return false;
    }
}

bool vc4_aux_write(struct vc4_aux *a, uint32_t off, uint32_t v, struct vc4_arm_ctx *ctx)
{
    switch (off) {
    case MU_IO: vc4_arm_uart_put(ctx, v); return true;
    case AUX_IRQ: case MU_LSR: case MU_MSR: case MU_STAT: return true;
    case AUX_ENABLES: a->enables = v & 7u; return true;
    case MU_IER: a->ier = v; return true;
    case MU_IIR: return true; /* FIFO clear bits */
    case MU_LCR: a->lcr = v; return true;
    case MU_MCR: a->mcr = v; return true;
    case MU_SCRATCH: a->scratch = v & 0xFF; return true;
    case MU_CNTL: a->cntl = v; return true;
    case MU_BAUD: a->baud = v & 0xFFFF; return true;
    default: return false;
    }
}
