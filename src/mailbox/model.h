/*
 * model.h - the Raspberry Pi models the host layer can pretend to be, as
 * data (bcm_host.c, mailbox.c, property.c).  Header-only so that the
 * stand-alone libbcm_host.so needs nothing else.
 *
 * Sources: BCM2835 ARM Peripherals 1.2.3 (Pi 1 peripherals at ARM
 * physical 0x20000000, 16 MiB; V3D at peripheral offset 0xC00000, bus
 * 0x7EC00000); userland bcm_host.c (Pi 2/3 peripherals at 0x3F000000,
 * SDRAM alias 0xC0000000 instead of the Pi 1's 0x40000000); the firmware
 * wiki's revision-code table (old-style 0x000e: Pi 1 B rev 2.0, 512 MiB;
 * 0xa01041: Pi 2 B 1.1, 1 GiB; 0xa02082: Pi 3 B 1.2, 1 GiB); clocks from
 * the firmware's defaults (ARM 700 / 900 / 1200 MHz, core and V3D 250 MHz
 * on all three; UNVERIFIED for the Pi 3's V3D, some firmware runs it at
 * 300 MHz).
 */
#ifndef VC4_MAILBOX_MODEL_H
#define VC4_MAILBOX_MODEL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum vc4_pi_model_id { VC4_PI1, VC4_PI2, VC4_PI3, VC4_PI_MODELS };

struct vc4_pi_model {
    const char *name;        /* VC4KIT_MODEL value */
    uint32_t periph_base;    /* ARM physical address of the peripherals */
    uint32_t periph_size;
    uint32_t sdram_alias;    /* bcm_host_get_sdram_address */
    uint32_t mem_mib;        /* SDRAM the ARM can map below the peripherals */
    uint32_t board_revision; /* mailbox tag 0x00010002 */
    uint32_t arm_hz, core_hz, v3d_hz, sdram_hz;
};

#define VC4_PI_V3D_OFFSET 0x00C00000u /* V3D block inside the peripheral window */

static const struct vc4_pi_model vc4_pi_models[VC4_PI_MODELS] = {
    [VC4_PI1] = {"pi1", 0x20000000u, 0x01000000u, 0x40000000u, 512, 0x0000000Eu,
                 700000000u, 250000000u, 250000000u, 400000000u},
    /* 1 GiB, of which the top 16 MiB lie under the peripheral window */
    [VC4_PI2] = {"pi2", 0x3F000000u, 0x01000000u, 0xC0000000u, 1008, 0x00A01041u,
                 900000000u, 250000000u, 250000000u, 450000000u},
    [VC4_PI3] = {"pi3", 0x3F000000u, 0x01000000u, 0xC0000000u, 1008, 0x00A02082u,
                 1200000000u, 400000000u, 250000000u, 450000000u},
};

/* The model VC4KIT_MODEL names ("pi1", "1", "pi2", ...; unset or empty =
 * Pi 1), or NULL for a name that is none of them. */
static inline const struct vc4_pi_model *vc4_pi_model_from_env(void)
{
    const char *s = getenv("VC4KIT_MODEL");
    if (!s || !*s)
        return &vc4_pi_models[VC4_PI1];
    for (unsigned i = 0; i < VC4_PI_MODELS; i++)
        if (!strcmp(s, vc4_pi_models[i].name) || !strcmp(s, vc4_pi_models[i].name + 2))
            return &vc4_pi_models[i];
    return NULL;
}

#endif
