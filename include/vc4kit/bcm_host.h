/*
 * vc4kit/bcm_host.h - the Raspberry Pi userland bcm_host.h functions that
 * GPU-compute programs use to find the peripherals and the SDRAM alias
 * (hello_fft's gpu_fft_base.c loads them from libbcm_host.so at run time).
 *
 * The emulated Pi is a Pi 1 (BCM2835) unless VC4KIT_MODEL says pi2 / pi3:
 * peripherals at ARM physical 0x20000000, 16 MiB of them, and SDRAM seen by
 * the GPU through the 0x40000000 (L2-allocating) bus alias; a Pi 2/3
 * reports 0x3F000000 / 0xC0000000.  The VC4_BCM2835_ constants are the
 * Pi 1's.
 * Exported by libvc4kit and by the small shared library libbcm_host.so.
 */
#ifndef VC4KIT_BCM_HOST_H
#define VC4KIT_BCM_HOST_H

#include "vc4kit/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VC4_BCM2835_PERIPHERAL_ADDRESS 0x20000000u
#define VC4_BCM2835_PERIPHERAL_SIZE 0x01000000u
#define VC4_BCM2835_SDRAM_ADDRESS 0x40000000u

VC4_API unsigned bcm_host_get_peripheral_address(void);
VC4_API unsigned bcm_host_get_peripheral_size(void);
VC4_API unsigned bcm_host_get_sdram_address(void);
/* Present for source compatibility; nothing to set up on the emulator. */
VC4_API void bcm_host_init(void);
VC4_API void bcm_host_deinit(void);

#ifdef __cplusplus
}
#endif
#endif
