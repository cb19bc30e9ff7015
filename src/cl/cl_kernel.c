/*
 * cl_kernel.c - the Linux kernel's rules for the packets of a binning list
 * (vc4_validate.c), shared by cl validate --kernel and the kernel stand-in's
 * SUBMIT_CL; see cl_kernel.h.  Fields are read through the packet table's
 * typed decoders, never by byte position.
 */
#include "cl/cl_kernel.h"

bool vc4_kbin_whitelisted(const struct vc4_cl_packet_desc *d)
{
    return d && (d->flags & VC4_CL_PF_KERNEL_BIN);
}

bool vc4_kbin_gem_handles(const uint8_t *p, size_t avail, uint32_t idx[2])
{
    if (!p || avail < VC4_KBIN_GEM_HANDLES_BYTES)
        return false;
    /* vc4_validate.c validate_gem_handles: memcpy(exec->bo_index, untrusted, 8) */
    idx[0] = vc4_le32(p + 1);
    idx[1] = vc4_le32(p + 5);
    return true;
}

unsigned vc4_kbin_check(struct vc4_kbin *s, const struct vc4_cl_packet_view *p)
{
    unsigned faults = 0;
    switch (p->opcode) {
    case VC4_CL_TILE_BINNING_MODE_CONFIG: {
        struct vc4_cl_tile_binning_mode_config b;
        if (s->config)
            faults |= VC4_KBIN_SECOND_CONFIG;
        s->config = true;
        if (vc4_cl_decode_tile_binning_mode_config(p, &b) != VC4_OK)
            break; /* a short packet: the caller's framing reports it */
        if (!b.width_tiles || !b.height_tiles)
            faults |= VC4_KBIN_NO_TILES;
        if (b.double_buffer_non_ms || b.tile_buffer_64bit)
            faults |= VC4_KBIN_CONFIG_FLAGS;
        break;
    }
    case VC4_CL_START_TILE_BINNING:
        if (s->start)
            faults |= VC4_KBIN_SECOND_START;
        if (!s->config)
            faults |= VC4_KBIN_START_BEFORE_CONFIG;
        s->start = true;
        break;
    case VC4_CL_GL_SHADER_STATE: {
        struct vc4_cl_gl_shader_state g;
        if (vc4_cl_decode_gl_shader_state(p, &g) == VC4_OK && g.record_addr)
            faults |= VC4_KBIN_SHADER_STATE_ADDR;
        break;
    }
    default:
        break;
    }
    return faults;
}
