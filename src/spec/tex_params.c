/*
 * tex_params.c - the texture config parameter fields (tex_spec.h has the
 * diagram; seed 004 and Mesa vc4_packet.h VC4_TEX_P* give the positions).
 */
#include <assert.h>

#include "spec/tex_spec.h"

const struct vc4_tmu_field_info vc4_tmu_fields[VC4_TMU_F_COUNT] = {
    [VC4_TMU_F_BASE] = {"BASE", VC4_TMU_PW_P0, 12, 20},
    [VC4_TMU_F_CSWIZ] = {"CSWIZ", VC4_TMU_PW_P0, 10, 2},
    [VC4_TMU_F_CMMODE] = {"CMMODE", VC4_TMU_PW_P0, 9, 1},
    [VC4_TMU_F_FLIPY] = {"FLIPY", VC4_TMU_PW_P0, 8, 1},
    [VC4_TMU_F_TYPE_LO] = {"TYPE", VC4_TMU_PW_P0, 4, 4},
    [VC4_TMU_F_MIPLVLS] = {"MIPLVLS", VC4_TMU_PW_P0, 0, 4},
    [VC4_TMU_F_TYPE_HI] = {"TYPE4", VC4_TMU_PW_P1, 31, 1},
    [VC4_TMU_F_HEIGHT] = {"HEIGHT", VC4_TMU_PW_P1, 20, 11},
    [VC4_TMU_F_ETCFLIP] = {"ETCFLIP", VC4_TMU_PW_P1, 19, 1},
    [VC4_TMU_F_WIDTH] = {"WIDTH", VC4_TMU_PW_P1, 8, 11},
    [VC4_TMU_F_MAGFILT] = {"MAGFILT", VC4_TMU_PW_P1, 7, 1},
    [VC4_TMU_F_MINFILT] = {"MINFILT", VC4_TMU_PW_P1, 4, 3},
    [VC4_TMU_F_WRAP_T] = {"WRAP_T", VC4_TMU_PW_P1, 2, 2},
    [VC4_TMU_F_WRAP_S] = {"WRAP_S", VC4_TMU_PW_P1, 0, 2},
    [VC4_TMU_F_PTYPE] = {"PTYPE", VC4_TMU_PW_PX, 30, 2},
    [VC4_TMU_F_CMST] = {"CMST", VC4_TMU_PW_PX, 12, 18},
    [VC4_TMU_F_BSLOD] = {"BSLOD", VC4_TMU_PW_PX, 0, 1},
    [VC4_TMU_F_CHILD_H] = {"CHILD_HEIGHT", VC4_TMU_PW_PX, 12, 11},
    [VC4_TMU_F_CHILD_W] = {"CHILD_WIDTH", VC4_TMU_PW_PX, 0, 11},
};
static_assert(sizeof vc4_tmu_fields / sizeof vc4_tmu_fields[0] == VC4_TMU_F_COUNT,
              "one entry per texture parameter field");
