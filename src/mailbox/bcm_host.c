/*
 * bcm_host.c - bcm_host_get_peripheral_address & co. for a BCM2835 (Pi 1),
 * the machine the emulator models.  Values: BCM2835 ARM Peripherals manual
 * section 1.2.3 (peripherals at physical 0x20000000, 16 MiB) and hello_fft
 * (the Pi 1 GPU SDRAM alias 0x40000000).  Built into libvc4kit and, on its
 * own, into libbcm_host.so (cmake/extra.cmake).
 */
#include "vc4kit/bcm_host.h"

unsigned bcm_host_get_peripheral_address(void)
{
    return VC4_BCM2835_PERIPHERAL_ADDRESS;
}

unsigned bcm_host_get_peripheral_size(void)
{
    return VC4_BCM2835_PERIPHERAL_SIZE;
}

unsigned bcm_host_get_sdram_address(void)
{
    return VC4_BCM2835_SDRAM_ADDRESS;
}

void bcm_host_init(void)
{
}

void bcm_host_deinit(void)
{
}
