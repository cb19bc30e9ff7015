/*
 * mip.c - the memory of a whole texture: the format-aware geometry of one
 * image (ETC1 as 4x4 blocks) and the place of every mip level and cube face
 * (tex.h has the rule and its sources).
 */
#include "base/base.h"
#include "vc4kit/tex.h"

enum {
    ETC1_BLOCK = 4,       /* ETC1 pixels per block side */
    ETC1_BLOCK_BPP = 64,  /* bits per block */
    MAX_DIM = 2048,       /* P1 width/height: 11 bits, 0 meaning 2048 */
    BASE_ALIGN = 4096,    /* P0 base address bits 31:12 */
};

unsigned vc4_tex_format_block_dim(enum vc4_tex_format format)
{
    return format == VC4_TEX_ETC1 ? ETC1_BLOCK : 1;
}

unsigned vc4_tex_format_layout_bpp(enum vc4_tex_format format)
{
    const struct vc4_tex_format_info *fi = vc4_tex_format_info((unsigned)format);
    if (!fi)
        return 0;
    return format == VC4_TEX_ETC1 ? ETC1_BLOCK_BPP : fi->bpp;
}

static bool layout_allowed(enum vc4_tex_format format, enum vc4_tex_layout layout)
{
    const struct vc4_tex_format_info *fi = vc4_tex_format_info((unsigned)format);
    if (!fi)
        return false;
    return fi->raster_only ? layout == VC4_TEX_RASTER : (layout == VC4_TEX_T || layout == VC4_TEX_LT);
}

static unsigned div_up(unsigned v, unsigned d) { return (v + d - 1) / d; }

bool vc4_tex_geom_init_format(struct vc4_tex_geom *g, enum vc4_tex_format format,
                              enum vc4_tex_layout layout, unsigned width, unsigned height)
{
    if (!layout_allowed(format, layout) || width == 0 || height == 0 || width > MAX_DIM ||
        height > MAX_DIM)
        return false;
    unsigned bd = vc4_tex_format_block_dim(format);
    return vc4_tex_geom_init(g, layout, vc4_tex_format_layout_bpp(format), div_up(width, bd),
                             div_up(height, bd));
}

static unsigned next_pot(unsigned v)
{
    unsigned p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

/* max(1, v >> l), Gallium's u_minify */
static unsigned minify(unsigned v, unsigned l) { return (v >> l) ? v >> l : 1; }

unsigned vc4_tex_full_levels(unsigned width, unsigned height)
{
    unsigned m = next_pot(width > height ? width : height), n = 1;
    while (m > 1 && n < VC4_TEX_MAX_LEVELS) {
        m >>= 1;
        n++;
    }
    return n;
}

enum vc4_status vc4_tex_mip_layout(struct vc4_tex_mip_layout *m, enum vc4_tex_format format,
                                   enum vc4_tex_layout layout, unsigned width, unsigned height,
                                   unsigned levels, unsigned faces, const struct vc4_diag_sink *sink)
{
    const struct vc4_location loc = {.addr = -1, .qpu = -1, .thread = -1};
    const struct vc4_tex_format_info *fi = vc4_tex_format_info((unsigned)format);
    if (!fi) {
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "tex", &loc, "unknown texture format %u",
                      (unsigned)format);
        return VC4_ERR_INVALID;
    }
    if (!layout_allowed(format, layout)) {
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "tex", &loc,
                      "the TMU reads %s %s, not %s", fi->name,
                      fi->raster_only ? "in raster order only" : "as T or LT only",
                      layout == VC4_TEX_T ? "T" : layout == VC4_TEX_LT ? "LT" : "raster");
        return VC4_ERR_UNSUPPORTED;
    }
    if (width == 0 || height == 0 || width > MAX_DIM || height > MAX_DIM) {
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "tex", &loc,
                      "texture size %ux%u outside 1..%u", width, height, (unsigned)MAX_DIM);
        return VC4_ERR_RANGE;
    }
    if (levels == 0 || levels > VC4_TEX_MAX_LEVELS || (faces != 1 && faces != VC4_TEX_MAX_FACES)) {
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "tex", &loc,
                      "%u levels (1..%u) and %u faces (1 or 6): not a texture", levels,
                      (unsigned)VC4_TEX_MAX_LEVELS, faces);
        return VC4_ERR_RANGE;
    }
    struct vc4_tex_mip_layout r = {.format = format, .layout = layout, .levels = levels,
                                   .faces = faces, .tmu_readable = true};
    unsigned bd = vc4_tex_format_block_dim(format), bpp = vc4_tex_format_layout_bpp(format);
    unsigned ew = div_up(width, bd), eh = div_up(height, bd); /* elements */
    unsigned pw = next_pot(ew), ph = next_pot(eh);
    uint64_t below = 0; /* bytes from the current level's start up to the base */
    for (unsigned l = 0; l < levels; l++) {
        struct vc4_tex_level *lv = &r.level[l];
        unsigned w = l ? minify(pw, l) : ew, h = l ? minify(ph, l) : eh;
        enum vc4_tex_layout tmu = fi->raster_only ? VC4_TEX_RASTER : vc4_tex_level_layout(bpp, w, h);
        enum vc4_tex_layout lay = layout == VC4_TEX_T ? tmu : layout;
        if (lay != tmu)
            r.tmu_readable = false;
        if (!vc4_tex_geom_init(&lv->geom, lay, bpp, w, h))
            return VC4_ERR_INVALID; /* unreachable: sizes checked above */
        /* pixels of the level's image; its storage (w x h elements) may be
         * larger for sizes that are not powers of two */
        lv->width = minify(width, l);
        lv->height = minify(height, l);
        if (l)
            below += lv->geom.size;
        lv->offset = -(int32_t)below;
    }
    uint64_t base = (below + BASE_ALIGN - 1) / BASE_ALIGN * BASE_ALIGN;
    uint64_t chain = base + r.level[0].geom.size;
    uint64_t stride = faces > 1 ? (chain + BASE_ALIGN - 1) / BASE_ALIGN * BASE_ALIGN : 0;
    uint64_t total = faces > 1 ? stride * faces : chain;
    if (total > UINT32_MAX) {
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "tex", &loc, "texture larger than 4 GB");
        return VC4_ERR_RANGE;
    }
    r.base_offset = (uint32_t)base;
    r.face_stride = (uint32_t)stride;
    r.size = (uint32_t)total;
    *m = r;
    return VC4_OK;
}
