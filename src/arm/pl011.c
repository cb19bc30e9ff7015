/*
 * pl011.c - UART0, an ARM PrimeCell PL011 (ARM Peripherals ch. 13, at
 * 0x201000): DR 0x00, RSRECR 0x04, FR 0x18, IBRD 0x24, FBRD 0x28, LCRH 0x2C,
 * CR 0x30, IFLS 0x34, IMSC 0x38, RIS 0x3C, MIS 0x40, ICR 0x44.  Bytes
 * written to DR go to the host (arm.c: stdout in `vc4kit boot`) at once:
 * FR always says transmit FIFO empty and not busy, receive FIFO empty.
 */
#include <string.h>

#include "arm/periph.h"

enum pl011_reg {
    U_DR = 0x00,
    U_RSRECR = 0x04,
    U_FR = 0x18,
    U_ILPR = 0x20,
    U_IBRD = 0x24,
    U_FBRD = 0x28,
    U_LCRH = 0x2C,
    U_CR = 0x30,
    U_IFLS = 0x34,
    U_IMSC = 0x38,
    U_RIS = 0x3C,
    U_MIS = 0x40,
    U_ICR = 0x44,
    U_DMACR = 0x48,
};
#define U_FR_RXFE (1u << 4) /* receive FIFO empty */
#define U_FR_TXFE (1u << 7) /* transmit FIFO empty */

void vc4_pl011_reset(struct vc4_pl011 *u)
{
    memset(u, 0, sizeof *u);
    u->cr = 0x300; /* TXE, RXE set at reset (PL011 TRM) */
}

bool vc4_pl011_read(const struct vc4_pl011 *u, uint32_t off, uint32_t *v)
{
    switch (off) {
    case U_DR: case U_RSRECR: case U_ILPR: case U_DMACR: *v = 0; return true;
    case U_FR: *v = U_FR_RXFE | U_FR_TXFE; return true;
    case U_IBRD: *v = u->ibrd; return true;
    case U_FBRD: *v = u->fbrd; return true;
    case U_LCRH: *v = u->lcrh; return true;
    case U_CR: *v = u->cr; return true;
    case U_IFLS: *v = u->ifls; return true;
    case U_IMSC: *v = u->imsc; return true;
    case U_RIS: *v = u->ris; return true;
    case U_MIS: *v = u->ris & u->imsc; return true;
    default: return false;
    }
}

bool vc4_pl011_write(struct vc4_pl011 *u, uint32_t off, uint32_t v, struct vc4_arm_ctx *ctx)
{
    switch (off) {
    case U_DR: vc4_arm_uart_put(ctx, v); return true;
    case U_RSRECR: case U_ILPR: case U_DMACR: case U_FR: case U_RIS: case U_MIS: return true;
    case U_IBRD: u->ibrd = v; return true;
    case U_FBRD: u->fbrd = v; return true;
    case U_LCRH: u->lcrh = v; return true;
    case U_CR: u->cr = v; return true;
    case U_IFLS: u->ifls = v; return true;
    case U_IMSC: u->imsc = v; return true;
    case U_ICR: u->ris &= ~v; return true;
    default: return false;
    }
}
