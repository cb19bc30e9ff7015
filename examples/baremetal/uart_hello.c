/*
 * uart_hello.c - a bare-metal kernel image without the V3D: text on the
 * UART, board facts from the mailbox (board revision, ARM memory, ARM
 * clock), a 16-bit frame buffer through the old frame-buffer channel 1,
 * drawn by the ARM (colour bars), and a delay on the system timer.
 */
#include "bm.h"

static volatile uint32_t __attribute__((aligned(16))) fb_info[10];

static uint32_t property1(uint32_t tag, uint32_t arg, unsigned index)
{
    mbox_buf[2] = tag; mbox_buf[3] = 8; mbox_buf[4] = 0; mbox_buf[5] = arg; mbox_buf[6] = 0;
    mbox_buf[7] = 0;
    return mbox_call(8) ? mbox_buf[5 + index] : 0xFFFFFFFFu;
}

int main(void)
{
    uart_init();
    uart_puts("uart_hello: hello, world, from a bare-metal kernel\n");
    uart_puts("board revision "); uart_hex(property1(0x10002, 0, 0)); uart_puts("\n");
    uart_puts("ARM memory "); uart_hex(property1(0x10005, 0, 1)); uart_puts(" bytes\n");
    uart_puts("ARM clock "); uart_hex(property1(0x30002, 3, 1)); uart_puts(" Hz\n");
    /* channel 1: width, height, virtual width, height, pitch, depth, x, y, pointer, size */
    fb_info[0] = 320, fb_info[1] = 240, fb_info[2] = 320, fb_info[3] = 240;
    fb_info[4] = 0, fb_info[5] = 16, fb_info[6] = 0, fb_info[7] = 0, fb_info[8] = 0, fb_info[9] = 0;
    uint32_t msg = (uint32_t)(uintptr_t)fb_info | 1;
    while (REG(0xB8B8) & 0x80000000u)
        ;
    REG(0xB8A0) = msg;
    uint32_t answer;
    do {
        while (REG(0xB898) & 0x40000000u)
            ;
        answer = REG(0xB880);
    } while ((answer & 15) != 1);
    if (answer >> 4 || !fb_info[8]) {
        uart_puts("uart_hello: no frame buffer\n");
        return 1;
    }
    volatile uint16_t *px = (volatile uint16_t *)(uintptr_t)(fb_info[8] & 0x3FFFFFFFu);
    static const uint16_t bars[8] = {0xFFFF, 0xFFE0, 0x07FF, 0x07E0, 0xF81F, 0xF800, 0x001F, 0x0000};
    for (uint32_t y = 0; y < 240; y++)
        for (uint32_t x = 0; x < 320; x++)
            px[y * (fb_info[4] / 2) + x] = y < 200 ? bars[x / 40] : (uint16_t)((x * 32 / 320) << 11);
    uint32_t t0 = REG(0x3004); /* system timer CLO: wait 1 ms */
    while (REG(0x3004) - t0 < 1000)
        ;
    uart_puts("uart_hello: colour bars drawn, 1 ms waited, parking\n");
    return 0;
}
