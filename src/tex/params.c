/*
 * params.c - the texture config parameter words P0, P1, P2 for a texture
 * (tex.h has the diagram).  The fields are the TMU's own table
 * (vc4_tmu_fields, src/spec/tex_params.c), so encoder and sampler share one
 * description of the hardware.
 */
#include "base/base.h"
#include "spec/tex_spec.h"
#include "vc4kit/tex.h"

enum {
    PAGE = 4096,        /* BASE and CMST count 4 KiB blocks */
    TYPE_LO_BITS = 4,   /* TYPE bit 4 lives in P1 */
    P2 = 2,             /* words[] index of the P2 word */
};

static bool put(uint32_t words[3], enum vc4_tmu_field f, uint32_t v, const struct vc4_diag_sink *sink)
{
    const struct vc4_tmu_field_info *fi = &vc4_tmu_fields[f];
    unsigned w = fi->word == VC4_TMU_PW_PX ? P2 : fi->word;
    if (v >> fi->width) {
        const struct vc4_location loc = {.addr = -1, .qpu = -1, .thread = -1};
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "tex", &loc,
                      "texture parameter P%u %s: %u does not fit %u bits", w, fi->name, v, fi->width);
        return false;
    }
    words[w] |= v << fi->shift;
    return true;
}

unsigned vc4_tex_config_words(const struct vc4_tex_config *c, uint32_t words[3],
                              const struct vc4_diag_sink *sink)
{
    words[0] = words[1] = words[2] = 0;
    const struct vc4_location loc = {.addr = -1, .qpu = -1, .thread = -1};
    if ((unsigned)c->format >= VC4_TEX_FORMAT_COUNT || c->width == 0 || c->height == 0 ||
        c->width > VC4_TMU_SIZE_ZERO || c->height > VC4_TMU_SIZE_ZERO || c->levels == 0 ||
        c->min_filter >= VC4_TMU_MIN_COUNT || c->base % PAGE || c->cube_stride % PAGE) {
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "tex", &loc,
                      "texture parameters: format %u, %ux%u, %u levels, min filter %u, base 0x%x, "
                      "cube stride 0x%x: not a texture the TMU takes",
                      (unsigned)c->format, c->width, c->height, c->levels, c->min_filter, c->base,
                      c->cube_stride);
        return 0;
    }
    unsigned type = (unsigned)c->format;
    bool ok = put(words, VC4_TMU_F_BASE, c->base / PAGE, sink) &&
              put(words, VC4_TMU_F_CMMODE, c->cube, sink) &&
              put(words, VC4_TMU_F_FLIPY, c->flip_y, sink) &&
              put(words, VC4_TMU_F_TYPE_LO, type & ((1u << TYPE_LO_BITS) - 1), sink) &&
              put(words, VC4_TMU_F_MIPLVLS, c->levels - 1, sink) &&
              put(words, VC4_TMU_F_TYPE_HI, type >> TYPE_LO_BITS, sink) &&
              put(words, VC4_TMU_F_HEIGHT, c->height % VC4_TMU_SIZE_ZERO, sink) &&
              put(words, VC4_TMU_F_ETCFLIP, c->etc_flip, sink) &&
              put(words, VC4_TMU_F_WIDTH, c->width % VC4_TMU_SIZE_ZERO, sink) &&
              put(words, VC4_TMU_F_MAGFILT, c->mag_nearest, sink) &&
              put(words, VC4_TMU_F_MINFILT, c->min_filter, sink) &&
              put(words, VC4_TMU_F_WRAP_T, c->wrap_t, sink) &&
              put(words, VC4_TMU_F_WRAP_S, c->wrap_s, sink);
    if (ok && c->cube)
        ok = put(words, VC4_TMU_F_PTYPE, VC4_TMU_PT_CUBE_STRIDE, sink) &&
             put(words, VC4_TMU_F_CMST, c->cube_stride / PAGE, sink);
    if (!ok) {
        words[0] = words[1] = words[2] = 0;
        return 0;
    }
    return c->cube ? 3 : 2;
}
