/*
 * bcm_host.c - bcm_host_get_peripheral_address & co. for the modelled Pi
 * (VC4KIT_MODEL, default a Pi 1 B: peripherals at physical 0x20000000,
 * 16 MiB, GPU SDRAM alias 0x40000000; model.h has the table and sources).
 * Built into libvc4kit and, on its own, into libbcm_host.so
 * (cmake/extra.cmake).  An unknown VC4KIT_MODEL answers as a Pi 1 here;
 * the mailbox (mailbox.c) refuses to start with it and says why.
 */
#include "vc4kit/bcm_host.h"

#include "mailbox/model.h"

static const struct vc4_pi_model *model(void)
{
    const struct vc4_pi_model *m = vc4_pi_model_from_env();
    return m ? m : &vc4_pi_models[VC4_PI1];
}

unsigned bcm_host_get_peripheral_address(void)
{
    return model()->periph_base;
}

unsigned bcm_host_get_peripheral_size(void)
{
    return model()->periph_size;
}

unsigned bcm_host_get_sdram_address(void)
{
    return model()->sdram_alias;
}

void bcm_host_init(void)
{
}

void bcm_host_deinit(void)
{
}
