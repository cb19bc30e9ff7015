/*
 * params.c - the texture config parameter words P0, P1, P2 (tex.h has the
 * diagram; seed 004, Mesa vc4_packet.h VC4_TEX_P*).
 */
#include <assert.h>

#include "base/base.h"
#include "vc4kit/tex.h"

enum field {
    P0_BASE, P0_CMMODE, P0_FLIPY, P0_TYPE, P0_MIPLVLS,
    P1_TYPE4, P1_HEIGHT, P1_ETCFLIP, P1_WIDTH, P1_MAGFILT, P1_MINFILT, P1_WRAP_T, P1_WRAP_S,
    P2_PTYPE, P2_CMST,
    FIELD_COUNT
};

static const struct { const char *name; uint8_t word, shift, width; } fields[FIELD_COUNT] = {
    [P0_BASE] = {"base", 0, 12, 20},
    [P0_CMMODE] = {"cube map", 0, 9, 1},
    [P0_FLIPY] = {"flip-y", 0, 8, 1},
    [P0_TYPE] = {"type", 0, 4, 4},
    [P0_MIPLVLS] = {"mip levels", 0, 0, 4},
    [P1_TYPE4] = {"type bit 4", 1, 31, 1},
    [P1_HEIGHT] = {"height", 1, 20, 11},
    [P1_ETCFLIP] = {"etc flip", 1, 19, 1},
    [P1_WIDTH] = {"width", 1, 8, 11},
    [P1_MAGFILT] = {"mag filter", 1, 7, 1},
    [P1_MINFILT] = {"min filter", 1, 4, 3},
    [P1_WRAP_T] = {"wrap t", 1, 2, 2},
    [P1_WRAP_S] = {"wrap s", 1, 0, 2},
    [P2_PTYPE] = {"parameter type", 2, 30, 2},
    [P2_CMST] = {"cube map stride", 2, 12, 18},
};
static_assert(VC4_ARRAY_SIZE(fields) == FIELD_COUNT, "one entry per field");

enum {
    SIZE_MAX_PIXELS = 2048, /* written as 0 */
    PTYPE_CUBE_STRIDE = 1,
    MIN_FILTER_COUNT = 6,
    PAGE = 4096,
};

static bool put(uint32_t words[3], enum field f, uint32_t v, const struct vc4_diag_sink *sink)
{
    if (v >> fields[f].width) {
        const struct vc4_location loc = {.addr = -1, .qpu = -1, .thread = -1};
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "tex", &loc,
                      "texture parameter P%u %s: %u does not fit %u bits", fields[f].word,
                      fields[f].name, v, fields[f].width);
        return false;
    }
    words[fields[f].word] |= v << fields[f].shift;
    return true;
}

unsigned vc4_tex_config_words(const struct vc4_tex_config *c, uint32_t words[3],
                              const struct vc4_diag_sink *sink)
{
    words[0] = words[1] = words[2] = 0;
    const struct vc4_location loc = {.addr = -1, .qpu = -1, .thread = -1};
    if ((unsigned)c->format >= VC4_TEX_FORMAT_COUNT || c->width == 0 || c->height == 0 ||
        c->width > SIZE_MAX_PIXELS || c->height > SIZE_MAX_PIXELS || c->levels == 0 ||
        c->min_filter >= MIN_FILTER_COUNT || c->base % PAGE || c->cube_stride % PAGE) {
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "tex", &loc,
                      "texture parameters: format %u, %ux%u, %u levels, min filter %u, base 0x%x, "
                      "cube stride 0x%x: not a texture the TMU takes",
                      (unsigned)c->format, c->width, c->height, c->levels, c->min_filter, c->base,
                      c->cube_stride);
        return 0;
    }
    unsigned type = (unsigned)c->format;
    bool ok = put(words, P0_BASE, c->base / PAGE, sink) && put(words, P0_CMMODE, c->cube, sink) &&
              put(words, P0_FLIPY, c->flip_y, sink) && put(words, P0_TYPE, type & 15, sink) &&
              put(words, P0_MIPLVLS, c->levels - 1, sink) && put(words, P1_TYPE4, type >> 4, sink) &&
              put(words, P1_HEIGHT, c->height % SIZE_MAX_PIXELS, sink) &&
              put(words, P1_ETCFLIP, c->etc_flip, sink) &&
              put(words, P1_WIDTH, c->width % SIZE_MAX_PIXELS, sink) &&
              put(words, P1_MAGFILT, c->mag_nearest, sink) &&
              put(words, P1_MINFILT, c->min_filter, sink) && put(words, P1_WRAP_T, c->wrap_t, sink) &&
              put(words, P1_WRAP_S, c->wrap_s, sink);
    if (ok && c->cube)
        ok = put(words, P2_PTYPE, PTYPE_CUBE_STRIDE, sink) &&
             put(words, P2_CMST, c->cube_stride / PAGE, sink);
    if (!ok) {
        words[0] = words[1] = words[2] = 0;
        return 0;
    }
    return c->cube ? 3 : 2;
}
