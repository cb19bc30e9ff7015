/*
 * cl_kernel.h - the Linux kernel's rules for a binning list handed to
 * SUBMIT_CL (internal): what drivers/gpu/drm/vc4/vc4_validate.c
 * (vc4_validate_bin_cl and its per-packet validators, read in Mesa's copy
 * src/gallium/drivers/vc4/kernel/) refuses in the packets themselves.
 *
 * One implementation, two users: `vc4kit cl validate --kernel` (cl_validate.c,
 * which reports every finding and goes on) and the kernel stand-in's
 * SUBMIT_CL (src/kernel/submit.c, which stops at the first, as Linux does).
 * Each user words its own diagnostics; the rules are decided here.
 *
 * Not here, because the two users apply them differently (see
 * cl_validate.c's end-of-list rules and submit.c's validate_bin): where
 * Increment Semaphore and Flush must stand, and what the kernel does with
 * the packets (relocation, the tile memory it supplies).
 */
#ifndef VC4_CL_CL_KERNEL_H
#define VC4_CL_CL_KERNEL_H

#include "base/base.h"
#include "vc4kit/cl.h"

/* Linux vc4_packet.h VC4_PACKET_GEM_HANDLES: a packet only the kernel
 * knows, 254 then two u32 indices into the submit's BO list naming the BOs
 * of the packets after it (the index buffer is the first); the kernel drops
 * it while copying the list (vc4_validate.c validate_gem_handles). */
enum {
    VC4_KBIN_GEM_HANDLES = 254,
    VC4_KBIN_GEM_HANDLES_BYTES = 9,
};

/* Is the packet in the kernel's binning-list whitelist (the table's
 * VC4_CL_PF_KERNEL_BIN, from vc4_validate.c cmd_info)?  false for NULL. */
bool vc4_kbin_whitelisted(const struct vc4_cl_packet_desc *d);

/* The two BO indices of the GEM handles packet at p (avail bytes from p);
 * false when it is truncated. */
bool vc4_kbin_gem_handles(const uint8_t *p, size_t avail, uint32_t idx[2]);

/* What the kernel has seen of a binning list so far. */
struct vc4_kbin {
    bool config; /* a Tile Binning Mode Configuration */
    bool start;  /* a Start Tile Binning */
};

/* The rules one packet breaks (a bit set of them). */
enum vc4_kbin_fault {
    /* validate_tile_binning_config: "Duplicate VC4_PACKET_TILE_BINNING_MODE_CONFIG" */
    VC4_KBIN_SECOND_CONFIG = 1u << 0,
    /* validate_tile_binning_config: "Tile binning config of %dx%d too small"
     * (a width or height of 0 tiles) */
    VC4_KBIN_NO_TILES = 1u << 1,
    /* validate_tile_binning_config: VC4_BIN_CONFIG_DB_NON_MS or
     * VC4_BIN_CONFIG_TILE_BUFFER_64BIT ("unsupported binning config flags") */
    VC4_KBIN_CONFIG_FLAGS = 1u << 2,
    /* validate_start_tile_binning: "Duplicate VC4_PACKET_START_TILE_BINNING" */
    VC4_KBIN_SECOND_START = 1u << 3,
    /* validate_start_tile_binning: "missing VC4_PACKET_TILE_BINNING_MODE_CONFIG" */
    VC4_KBIN_START_BEFORE_CONFIG = 1u << 4,
    /* validate_gl_shader_state: the kernel supplies the record address, the
     * packet may hold only the attribute count and the extended bit */
    VC4_KBIN_SHADER_STATE_ADDR = 1u << 5,
};

/* Apply the rules to packet p (a whole packet, as vc4_cl_next gives it)
 * and note it in s: the faults found (0: none). */
unsigned vc4_kbin_check(struct vc4_kbin *s, const struct vc4_cl_packet_view *p);

#endif
