/*
 * regs.c - the V3D register table (see regs.h).
 */
#include "emu/regs.h"

#include <assert.h>

#include "base/base.h"

#define R(off, nm, k, wm) {.offset = (off), .name = (nm), .kind = (k), .wmask = (wm)}
#define PCTR(n) R(VC4_V3D_PCTR0 + VC4_PCTR_STRIDE * (n), "PCTR" #n, VC4_REG_ACTION, 0xFFFFFFFFu), \
                R(VC4_V3D_PCTRS0 + VC4_PCTR_STRIDE * (n), "PCTRS" #n, VC4_REG_RW, 0x1Fu)

const struct vc4_reg_desc vc4_reg_table[] = {
    R(VC4_V3D_IDENT0, "IDENT0", VC4_REG_RO, 0),
    R(VC4_V3D_IDENT1, "IDENT1", VC4_REG_RO, 0),
    R(VC4_V3D_IDENT2, "IDENT2", VC4_REG_RO, 0),
    R(VC4_V3D_IDENT3, "IDENT3", VC4_REG_RO, 0),
    R(VC4_V3D_SCRATCH, "SCRATCH", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_L2CACTL, "L2CACTL", VC4_REG_ACTION, 0x7u),
    R(VC4_V3D_SLCACTL, "SLCACTL", VC4_REG_ACTION, 0x0F0F0F0Fu),
    R(VC4_V3D_INTCTL, "INTCTL", VC4_REG_W1C, 0xFu),
    R(VC4_V3D_INTENA, "INTENA", VC4_REG_ACTION, 0xFu),
    R(VC4_V3D_INTDIS, "INTDIS", VC4_REG_ACTION, 0xFu),
    R(VC4_V3D_ENDSWP, "ENDSWP", VC4_REG_RW, 0x1u),
    R(VC4_V3D_CT0CS, "CT0CS", VC4_REG_RW, 0x0000F33Fu),
    R(VC4_V3D_CT1CS, "CT1CS", VC4_REG_RW, 0x0000F33Fu),
    R(VC4_V3D_CT0EA, "CT0EA", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_CT1EA, "CT1EA", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_CT0CA, "CT0CA", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_CT1CA, "CT1CA", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_CT00RA0, "CT00RA0", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_CT01RA0, "CT01RA0", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_CT0LC, "CT0LC", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_CT1LC, "CT1LC", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_CT0PC, "CT0PC", VC4_REG_RO, 0),
    R(VC4_V3D_CT1PC, "CT1PC", VC4_REG_RO, 0),
    R(VC4_V3D_PCS, "PCS", VC4_REG_RO, 0),
    R(VC4_V3D_BFC, "BFC", VC4_REG_W1C, 0xFFu),
    R(VC4_V3D_RFC, "RFC", VC4_REG_W1C, 0xFFu),
    R(VC4_V3D_BPCA, "BPCA", VC4_REG_RO, 0),
    R(VC4_V3D_BPCS, "BPCS", VC4_REG_RO, 0),
    R(VC4_V3D_BPOA, "BPOA", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_BPOS, "BPOS", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_BXCF, "BXCF", VC4_REG_RW, 0x3u),
    R(VC4_V3D_SQRSV0, "SQRSV0", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_SQRSV1, "SQRSV1", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_SQCNTL, "SQCNTL", VC4_REG_RW, 0xFu),
    R(VC4_V3D_SQCSTAT, "SQCSTAT", VC4_REG_RO, 0),
    R(VC4_V3D_SRQPC, "SRQPC", VC4_REG_ACTION, 0xFFFFFFFFu),
    R(VC4_V3D_SRQUA, "SRQUA", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_SRQUL, "SRQUL", VC4_REG_RW, 0xFFFu),
    R(VC4_V3D_SRQCS, "SRQCS", VC4_REG_ACTION, 0),
    R(VC4_V3D_VPACNTL, "VPACNTL", VC4_REG_RW, 0x3FFFu),
    R(VC4_V3D_VPMBASE, "VPMBASE", VC4_REG_RW, 0x1Fu),
    R(VC4_V3D_PCTRC, "PCTRC", VC4_REG_ACTION, 0xFFFFu),
    R(VC4_V3D_PCTRE, "PCTRE", VC4_REG_RW, 0x8000FFFFu),
    PCTR(0), PCTR(1), PCTR(2), PCTR(3), PCTR(4), PCTR(5), PCTR(6), PCTR(7),
    PCTR(8), PCTR(9), PCTR(10), PCTR(11), PCTR(12), PCTR(13), PCTR(14), PCTR(15),
    R(VC4_V3D_DBCFG, "DBCFG", VC4_REG_RW, 0x1u),
    R(VC4_V3D_DBSCS, "DBSCS", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_DBSCFG, "DBSCFG", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_DBSSR, "DBSSR", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_DBSDR0, "DBSDR0", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_DBSDR1, "DBSDR1", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_DBSDR2, "DBSDR2", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_DBSDR3, "DBSDR3", VC4_REG_RW, 0xFFFFFFFFu),
    R(VC4_V3D_DBQRUN, "DBQRUN", VC4_REG_RO, 0),
    R(VC4_V3D_DBQHLT, "DBQHLT", VC4_REG_RW, 0xFFFFu),
    R(VC4_V3D_DBQSTP, "DBQSTP", VC4_REG_RW, 0xFFFFu),
    R(VC4_V3D_DBQITE, "DBQITE", VC4_REG_RW, 0xFFFFu),
    R(VC4_V3D_DBQITC, "DBQITC", VC4_REG_W1C, 0xFFFFu),
    R(VC4_V3D_DBQGHC, "DBQGHC", VC4_REG_RW, 0x3u),
    R(VC4_V3D_DBQGHG, "DBQGHG", VC4_REG_RW, 0xFFFFu),
    R(VC4_V3D_DBQGHH, "DBQGHH", VC4_REG_RW, 0xFFFFu),
    R(VC4_V3D_DBGE, "DBGE", VC4_REG_RO, 0),
    R(VC4_V3D_FDBGO, "FDBGO", VC4_REG_RO, 0),
    R(VC4_V3D_FDBGB, "FDBGB", VC4_REG_RO, 0),
    R(VC4_V3D_FDBGR, "FDBGR", VC4_REG_RO, 0),
    R(VC4_V3D_FDBGS, "FDBGS", VC4_REG_RO, 0),
    R(VC4_V3D_ERRSTAT, "ERRSTAT", VC4_REG_RO, 0),
};
const size_t vc4_reg_table_len = VC4_ARRAY_SIZE(vc4_reg_table);

static_assert(VC4_ARRAY_SIZE(vc4_reg_table) < 32768, "index fits int16_t");
static_assert(VC4_V3D_PCTR0 + VC4_PCTR_STRIDE * 15 + 4 == 0x6FC, "PCTRS15 is the last counter register");
static_assert(VC4_V3D_REG_SPAN % 4 == 0, "word registers");

void vc4_regs_reset(struct vc4_regs *r, unsigned num_qpus, unsigned vpm_kb)
{
    for (size_t i = 0; i < VC4_REG_WORDS; i++) {
        r->val[i] = 0;
        r->index[i] = -1;
    }
    for (size_t i = 0; i < vc4_reg_table_len; i++)
        r->index[vc4_reg_table[i].offset / 4] = (int16_t)i;
    unsigned qups = 4, nslc = (num_qpus + qups - 1) / qups;
    /* IDENT1 of a BCM2835 (facts 11): VPM 12 KB, HDR support, 16
     * semaphores, 2 TMUs and 4 QPUs per slice, 3 slices; HDRT and REV are
     * our choice (1), the kernel checks only IDENT0. */
    r->val[VC4_V3D_IDENT0 / 4] = VC4_IDENT0_VALUE;
    r->val[VC4_V3D_IDENT1 / 4] = (uint32_t)(vpm_kb & 0xF) << VC4_IDENT1_VPMSZ_SHIFT |
                                 1u << VC4_IDENT1_HDRT_SHIFT | 16u << VC4_IDENT1_NSEM_SHIFT |
                                 2u << VC4_IDENT1_TUPS_SHIFT | qups << VC4_IDENT1_QUPS_SHIFT |
                                 (nslc & 0xF) << VC4_IDENT1_NSLC_SHIFT | 1u << VC4_IDENT1_REV_SHIFT;
    /* IDENT2: VRISZ 4-entry VRI FIFOs (facts 8.2, Mesa); other fields
     * unknown, left 0. */
    r->val[VC4_V3D_IDENT2 / 4] = 4u;
}

const struct vc4_reg_desc *vc4_regs_desc(const struct vc4_regs *r, uint32_t offset)
{
    if (offset >= VC4_V3D_REG_SPAN || (offset & 3))
        return NULL;
    int i = r->index[offset / 4];
    return i < 0 ? NULL : &vc4_reg_table[i];
}

const struct vc4_reg_desc *vc4_reg_lookup(uint32_t offset)
{
    for (size_t i = 0; i < vc4_reg_table_len; i++)
        if (vc4_reg_table[i].offset == offset)
            return &vc4_reg_table[i];
    return NULL;
}
