/*
 * cmd_tex.c - `vc4kit tex`: pictures (PNG) to textures in any format and
 * layout and back, and the format table (docs/textures.md).
 *
 *   vc4kit tex encode IN.png [5 more faces] -f FORMAT [-l t|lt|raster] [--mips N|all]
 *                     [--flip-y] [--base ADDR] [--nearest] [--wrap repeat|clamp|mirror|border]
 *                     -o OUT.bin
 *   vc4kit tex decode IN.bin -f FORMAT [-l LAYOUT] -w W -h H [--mips N] [--level N]
 *                     [--face F] [--flip-y] -o OUT.png
 *   vc4kit tex formats
 */
#include <stdlib.h>
#include <string.h>

#include "tool.h"
#include "vc4kit/tex.h"

static void usage(FILE *f)
{
    fputs("usage: vc4kit tex encode IN.png [IN2.png .. IN6.png] -f FORMAT [-l t|lt|raster]\n"
          "                  [--mips N|all] [--flip-y] [--base ADDR] [--nearest]\n"
          "                  [--wrap repeat|clamp|mirror|border] -o OUT.bin\n"
          "       vc4kit tex decode IN.bin -f FORMAT [-l t|lt|raster] -w W -h H [--mips N]\n"
          "                  [--level N] [--face F] [--flip-y] -o OUT.png\n"
          "       vc4kit tex formats\n"
          "Convert pictures to VideoCore IV textures and back (docs/textures.md).\n"
          "  -f FORMAT      a texture type by name or number (see `vc4kit tex formats`)\n"
          "  -l LAYOUT      t: what the TMU reads (levels of at most 4 utiles a side are\n"
          "                 LT), lt: every level LT, raster: RGBA32R and YUYV422R only;\n"
          "                 default t, or raster for the raster formats\n"
          "  --mips N|all   N mip levels (box filtered), or the full chain; default 1\n"
          "  six pictures   a cube map, faces in order +X -X +Y -Y +Z -Z\n"
          "  --flip-y       the picture's top row is the texture's last row (t = 1), the\n"
          "                 GL convention; by default it is row 0 (t = 0, first in memory)\n"
          "  --base ADDR    bus address of level 0 (4 KB aligned): print where to load\n"
          "                 OUT.bin and the config parameter words P0, P1 (P2) to stdout\n"
          "  --nearest      P1 filters: nearest (default bilinear / trilinear)\n"
          "  --wrap MODE    P1 wrap mode for s and t (default repeat)\n"
          "  -w, -h         decode: level 0 size in pixels\n"
          "  --level, --face decode: which image (default 0, 0); --mips gives the\n"
          "                 levels IN.bin holds (default level + 1)\n"
          "  -o OUT         output file (required; '-' = stdout)\n"
          "OUT.bin of encode is the whole buffer: smaller levels first, level 0 at the\n"
          "base offset it prints. Exit status: 0 fine, 1 conversion error, 2 usage or\n"
          "file errors.\n",
          f);
}

struct tex_args {
    const char *in[VC4_TEX_MAX_FACES + 1];
    unsigned nin;
    const char *out;
    int format;            /* -1 unset */
    int layout;            /* -1 unset */
    unsigned mips;         /* 0 = all */
    bool mips_set, flip_y, has_base, nearest;
    uint64_t base, w, h, level, face;
    bool has_w, has_h, has_level;
    unsigned wrap;
};

static int parse_format(const char *s)
{
    uint64_t v;
    if (tool_parse_u64(s, &v))
        return v < VC4_TEX_FORMAT_COUNT ? (int)v : -1;
    for (unsigned f = 0; f < VC4_TEX_FORMAT_COUNT; f++) {
        const char *n = vc4_tex_format_info(f)->name;
        size_t i = 0;
        while (n[i] && s[i] && (n[i] | 0x20) == (s[i] | 0x20))
            i++;
        if (!n[i] && !s[i])
            return (int)f;
    }
    return -1;
}

static int parse_layout(const char *s)
{
    if (!strcmp(s, "t") || !strcmp(s, "T"))
        return VC4_TEX_T;
    if (!strcmp(s, "lt") || !strcmp(s, "LT"))
        return VC4_TEX_LT;
    if (!strcmp(s, "raster"))
        return VC4_TEX_RASTER;
    return -1;
}

static const char *const wrap_names[] = {"repeat", "clamp", "mirror", "border"};

#define TEX_MAX_SIDE 2048u /* P1's 11-bit width and height (0 = 2048) */

enum { OPT_FORMAT, OPT_LAYOUT, OPT_MIPS, OPT_WRAP, OPT_BASE, OPT_W, OPT_H, OPT_LEVEL, OPT_FACE, OPT_OUT,
       OPT_FLIP_Y, OPT_NEAREST };
static const struct tool_opt tex_opts[] = {
    {"-f", "--format", TOOL_OPT_STRING, OPT_FORMAT, 0, 0},
    {"-l", "--layout", TOOL_OPT_STRING, OPT_LAYOUT, 0, 0},
    {"--mips", NULL, TOOL_OPT_STRING, OPT_MIPS, 0, 0},
    {"--wrap", NULL, TOOL_OPT_STRING, OPT_WRAP, 0, 0},
    {"--base", NULL, TOOL_OPT_NUMBER, OPT_BASE, 0, UINT32_MAX},
    {"-w", "--width", TOOL_OPT_NUMBER, OPT_W, 1, TEX_MAX_SIDE},
    {"-h", "--height", TOOL_OPT_NUMBER, OPT_H, 1, TEX_MAX_SIDE},
    {"--level", NULL, TOOL_OPT_NUMBER, OPT_LEVEL, 0, VC4_TEX_MAX_LEVELS - 1},
    {"--face", NULL, TOOL_OPT_NUMBER, OPT_FACE, 0, VC4_TEX_MAX_FACES - 1},
    {"-o", NULL, TOOL_OPT_STRING, OPT_OUT, 0, 0},
    {"--flip-y", NULL, TOOL_OPT_FLAG, OPT_FLIP_Y, 0, 0},
    {"--nearest", NULL, TOOL_OPT_FLAG, OPT_NEAREST, 0, 0},
};

static int tex_arg(void *user, int id, const char *v, uint64_t num)
{
    struct tex_args *a = user;
    switch (id) {
    case OPT_FLIP_Y: a->flip_y = true; break;
    case OPT_NEAREST: a->nearest = true; break;
    case OPT_FORMAT:
        if ((a->format = parse_format(v)) < 0) {
            tool_error("tex: -f: unknown texture format '%s' (see `vc4kit tex formats`)", v);
            return 2;
        }
        break;
    case OPT_LAYOUT:
        if ((a->layout = parse_layout(v)) < 0) {
            tool_error("tex: -l: unknown layout '%s' (t, lt, raster)", v);
            return 2;
        }
        break;
    case OPT_MIPS: {
        uint64_t n = 0;
        if (strcmp(v, "all") && (!tool_parse_u64(v, &n) || n < 1 || n > VC4_TEX_MAX_LEVELS)) {
            tool_error("tex: --mips takes 1..%u or all, not '%s'", (unsigned)VC4_TEX_MAX_LEVELS, v);
            return 2;
        }
        a->mips = (unsigned)n;
        a->mips_set = true;
        break;
    }
    case OPT_WRAP: {
        unsigned k = 0;
        while (k < 4 && strcmp(v, wrap_names[k]))
            k++;
        if (k == 4) {
            tool_error("tex: --wrap: unknown mode '%s' (repeat, clamp, mirror, border)", v);
            return 2;
        }
        a->wrap = k;
        break;
    }
    case OPT_BASE: a->base = num, a->has_base = true; break;
    case OPT_W: a->w = num, a->has_w = true; break;
    case OPT_H: a->h = num, a->has_h = true; break;
    case OPT_LEVEL: a->level = num, a->has_level = true; break;
    case OPT_FACE: a->face = num; break;
    case OPT_OUT: a->out = v; break;
    default:
        if (a->nin == VC4_TEX_MAX_FACES) {
            tool_error("tex: more than %u input files ('%s')", (unsigned)VC4_TEX_MAX_FACES, v);
            return 2;
        }
        a->in[a->nin++] = v;
    }
    return -1;
}

static int cmd_formats(const char *out)
{
    char text[VC4_TEX_FORMAT_COUNT * 128];
    size_t n = 0;
    for (unsigned f = 0; f < VC4_TEX_FORMAT_COUNT; f++) {
        const struct vc4_tex_format_info *fi = vc4_tex_format_info(f);
        int k = snprintf(text + n, sizeof text - n, "%2u  %-10s %2u bpp  %-7s %s\n", f, fi->name,
                         fi->bpp, fi->raster_only ? "raster" : "T/LT", fi->description);
        if (k < 0 || (size_t)k >= sizeof text - n)
            return 2; /* the table's lines are short: not reached */
        n += (size_t)k;
    }
    return tool_write_file(out ? out : "-", text, n) ? 0 : 2;
}

static int cmd_encode(const struct tex_args *a, struct vc4_diag_sink *sink)
{
    if (a->nin != 1 && a->nin != VC4_TEX_MAX_FACES) {
        tool_error("tex encode: give one picture, or six for a cube map (%u given)", a->nin);
        return 2;
    }
    const struct vc4_tex_format_info *fi = vc4_tex_format_info((unsigned)a->format);
    enum vc4_tex_layout layout =
        a->layout >= 0 ? (enum vc4_tex_layout)a->layout : fi->raster_only ? VC4_TEX_RASTER : VC4_TEX_T;
    uint8_t *pics[VC4_TEX_MAX_FACES] = {0};
    unsigned w = 0, h = 0;
    int rc = 0;
    for (unsigned f = 0; f < a->nin && rc == 0; f++) {
        unsigned fw, fh;
        if (vc4_png_read(a->in[f], &pics[f], &fw, &fh, sink) != VC4_OK) {
            rc = 2;
        } else if (f && (fw != w || fh != h)) {
            tool_error("%s: %ux%u, but the first face is %ux%u", a->in[f], fw, fh, w, h);
            rc = 2;
        }
        w = fw;
        h = fh;
    }
    struct vc4_tex_mip_layout m;
    uint8_t *tex = NULL;
    if (rc == 0) {
        unsigned levels = !a->mips_set ? 1 : a->mips ? a->mips : vc4_tex_full_levels(w, h);
        rc = vc4_tex_mip_layout(&m, (enum vc4_tex_format)a->format, layout, w, h, levels, a->nin,
                                sink) == VC4_OK ? 0 : 1;
    }
    if (rc == 0 && !m.tmu_readable)
        fprintf(stderr, "vc4kit: warning: a %ux%u level is LT here, but the TMU reads it as T "
                        "(fine for data, not for sampling)\n", w, h);
    if (rc == 0 && a->has_base && (a->base % 4096 || a->base < m.base_offset)) {
        tool_error("--base 0x%llx: must be 4 KB aligned and at least 0x%x (the levels below it)",
                   (unsigned long long)a->base, m.base_offset);
        rc = 2;
    }
    if (rc == 0 && !(tex = malloc(m.size))) {
        tool_error("out of memory");
        rc = 2;
    }
    if (rc == 0) {
        const uint8_t *faces[VC4_TEX_MAX_FACES];
        for (unsigned f = 0; f < a->nin; f++)
            faces[f] = pics[f];
        rc = vc4_tex_encode_texture(&m, tex, m.size, faces, (size_t)w * 4, a->flip_y, sink) == VC4_OK
                 ? 0 : 1;
    }
    if (rc == 0)
        rc = tool_write_file(a->out, tex, m.size) ? 0 : 2;
    if (rc == 0 && a->has_base) {
        unsigned min = a->nearest ? (m.levels > 1 ? 2 : 1) : (m.levels > 1 ? 5 : 0);
        struct vc4_tex_config c = {.base = (uint32_t)a->base, .format = (enum vc4_tex_format)a->format,
                                   .width = w, .height = h, .levels = m.levels, .cube = m.faces > 1,
                                   .etc_flip = a->format == VC4_TEX_ETC1, .mag_nearest = a->nearest,
                                   .min_filter = min, .wrap_s = a->wrap, .wrap_t = a->wrap,
                                   .cube_stride = m.face_stride};
        uint32_t words[3];
        unsigned n = vc4_tex_config_words(&c, words, sink);
        if (!n) {
            rc = 1;
        } else {
            printf("# %s %s %ux%u, %u level%s%s: load %s at 0x%08llx, level 0 at 0x%08llx\n",
                   fi->name, layout == VC4_TEX_T ? "T" : layout == VC4_TEX_LT ? "LT" : "raster", w, h,
                   m.levels, m.levels > 1 ? "s" : "", m.faces > 1 ? ", cube map" : "", a->out,
                   (unsigned long long)(a->base - m.base_offset), (unsigned long long)a->base);
            for (unsigned i = 0; i < n; i++)
                printf("P%u 0x%08x\n", i, words[i]);
        }
    }
    free(tex);
    for (unsigned f = 0; f < VC4_TEX_MAX_FACES; f++)
        free(pics[f]);
    return rc;
}

static int cmd_decode(const struct tex_args *a, struct vc4_diag_sink *sink)
{
    if (a->nin != 1 || !a->has_w || !a->has_h) {
        tool_error("tex decode: give one input file, -w and -h");
        return 2;
    }
    const struct vc4_tex_format_info *fi = vc4_tex_format_info((unsigned)a->format);
    enum vc4_tex_layout layout =
        a->layout >= 0 ? (enum vc4_tex_layout)a->layout : fi->raster_only ? VC4_TEX_RASTER : VC4_TEX_T;
    unsigned levels = a->mips_set ? (a->mips ? a->mips : vc4_tex_full_levels((unsigned)a->w, (unsigned)a->h))
                                  : (unsigned)a->level + 1;
    if (a->level >= levels) {
        tool_error("--level %u: the texture has %u level%s", (unsigned)a->level, levels,
                   levels > 1 ? "s" : "");
        return 2;
    }
    struct vc4_tex_mip_layout m;
    unsigned faces = a->face ? VC4_TEX_MAX_FACES : 1;
    if (vc4_tex_mip_layout(&m, (enum vc4_tex_format)a->format, layout, (unsigned)a->w, (unsigned)a->h,
                           levels, faces, sink) != VC4_OK)
        return 1;
    /* the file's size first: it must be the texture the options describe
     * (or it is another one: say which options would fit it) */
    size_t len;
    uint8_t *data = tool_read_file_max(a->in[0], m.size > TOOL_MAX_INPUT ? m.size : TOOL_MAX_INPUT, &len);
    if (!data)
        return 2;
    const struct vc4_tex_level *lv = &m.level[a->level];
    uint32_t at = vc4_tex_image_offset(&m, (unsigned)a->level, (unsigned)a->face);
    int rc = 0;
    if (len != m.size) {
        char hint[96] = "";
        unsigned full = vc4_tex_full_levels(m.level[0].width, m.level[0].height);
        for (unsigned f = 1; f <= VC4_TEX_MAX_FACES && !hint[0]; f += VC4_TEX_MAX_FACES - 1)
            for (unsigned l = full; l >= 1 && !hint[0]; l--) { /* the most levels first */
                struct vc4_tex_mip_layout k;
                if (vc4_tex_mip_layout(&k, m.format, layout, m.level[0].width, m.level[0].height, l, f, NULL) ==
                        VC4_OK && k.size == len)
                    snprintf(hint, sizeof hint, ": it is the size of --mips %s%u%s%s", l == full ? "all (" : "", l,
                             l == full ? ")" : "", f > 1 ? " of a cube map (--face)" : "");
            }
        tool_error("tex decode: %s: %zu bytes, but a %ux%u %s texture of %u level%s%s is %zu bytes%s", a->in[0],
                   len, m.level[0].width, m.level[0].height, fi->name, levels, levels > 1 ? "s" : "",
                   faces > 1 ? " and 6 faces" : "", (size_t)m.size,
                   hint[0] ? hint : ": check -f, -l, -w, -h and --mips");
        rc = 1;
    }
    uint8_t *pic = rc ? NULL : malloc((size_t)lv->width * lv->height * 4);
    if (rc == 0 && !pic) {
        tool_error("out of memory");
        rc = 2;
    }
    if (rc == 0)
        rc = vc4_tex_decode_image(m.format, &lv->geom, data + at, len - at, pic,
                                  (size_t)lv->width * 4, lv->width, lv->height, a->flip_y, sink) == VC4_OK
                 ? 0 : 1;
    if (rc == 0)
        rc = vc4_png_write(a->out, pic, lv->width, lv->height, (size_t)lv->width * 4, sink) == VC4_OK ? 0 : 2;
    free(pic);
    free(data);
    return rc;
}

int cmd_tex(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *verb = argv[1];
    bool enc = !strcmp(verb, "encode"), dec = !strcmp(verb, "decode"), fmts = !strcmp(verb, "formats");
    if (!enc && !dec && !fmts) {
        tool_error("tex: unknown subcommand '%s' (encode, decode, formats)", verb);
        return 2;
    }
    struct tex_args a = {.format = -1, .layout = -1};
    struct tool_cmd cmd = {enc ? "tex encode" : dec ? "tex decode" : "tex formats", usage, tex_opts,
                           TOOL_NOPTS(tex_opts)};
    int rc = tool_parse_args(&cmd, argc, argv, 2, tex_arg, &a);
    if (rc >= 0)
        return rc;
    if (fmts) {
        if (a.nin) {
            tool_error("tex formats: takes no input file ('%s')", a.in[0]);
            return 2;
        }
        return cmd_formats(a.out);
    }
    if (a.format < 0) {
        tool_error("tex %s: -f FORMAT is required (see `vc4kit tex formats`)", verb);
        return 2;
    }
    if (!a.out) {
        tool_error("tex %s: -o OUT is required", verb);
        return 2;
    }
    struct tool_diags diags = {0};
    struct vc4_diag_sink sink = tool_stderr_sink(&diags);
    return enc ? cmd_encode(&a, &sink) : cmd_decode(&a, &sink);
}
