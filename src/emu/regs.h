/*
 * regs.h - the V3D register file described as data (internal): offsets,
 * names, how writes behave, reset values.  Side effects (SRQ, cache and
 * interrupt control, counters) are dispatched by v3d.c.
 * Source: hardware facts 11 (brcm_rdb_v3d.h, Linux vc4_regs.h), vc4asm
 * addendum (IDENT3, SQCSTAT, DBxxx), facts 26.
 */
#ifndef VC4_EMU_REGS_H
#define VC4_EMU_REGS_H

#include <stddef.h>
#include <stdint.h>

#include "vc4kit/emu.h"

enum vc4_reg_kind {
    VC4_REG_RW,     /* plain storage under wmask */
    VC4_REG_RO,     /* writes ignored */
    VC4_REG_W1C,    /* write 1 to clear (status bits) */
    VC4_REG_ACTION, /* v3d.c implements the write */
};

struct vc4_reg_desc {
    uint16_t offset;
    const char *name;
    uint8_t kind;   /* enum vc4_reg_kind */
    uint32_t wmask; /* writable bits (RW) */
};

extern const struct vc4_reg_desc vc4_reg_table[];
extern const size_t vc4_reg_table_len;

#define VC4_REG_WORDS (VC4_V3D_REG_SPAN / 4)
#define VC4_PCTR_COUNT 16u
#define VC4_PCTR_STRIDE 8u
#define VC4_PCTRE_ENABLE (1u << 31) /* must be set to count (facts 26) */

/* IDENT0 as the kernel expects (facts 11): TVER 2, "V3D". */
#define VC4_IDENT0_VALUE 0x02443356u
/* IDENT1 fields (facts 11). */
#define VC4_IDENT1_VPMSZ_SHIFT 28
#define VC4_IDENT1_HDRT_SHIFT 24
#define VC4_IDENT1_NSEM_SHIFT 16
#define VC4_IDENT1_TUPS_SHIFT 12
#define VC4_IDENT1_QUPS_SHIFT 8
#define VC4_IDENT1_NSLC_SHIFT 4
#define VC4_IDENT1_REV_SHIFT 0

struct vc4_regs {
    uint32_t val[VC4_REG_WORDS];
    int16_t index[VC4_REG_WORDS]; /* table index per word offset, -1 = none */
};

/* Reset every register; IDENT values for this many QPUs (4 per slice). */
void vc4_regs_reset(struct vc4_regs *r, unsigned num_qpus, unsigned vpm_kb);
const struct vc4_reg_desc *vc4_regs_desc(const struct vc4_regs *r, uint32_t offset);
/* Without a state: linear search (names for messages). */
const struct vc4_reg_desc *vc4_reg_lookup(uint32_t offset);

#endif
