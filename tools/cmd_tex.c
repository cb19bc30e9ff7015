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

/* A numeric option's value; false (message printed) when it is not a number up to max. */
static bool num_arg(const char *opt, const char *s, uint64_t max, uint64_t *out)
{
    if (!tool_parse_u64(s, out) || *out > max) {
        tool_error("%s: bad value '%s'", opt, s);
        return false;
    }
    return true;
}

static int parse_args(int argc, char **argv, struct tex_args *a)
{
    for (int i = 2; i < argc; i++) {
        const char *s = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(s, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(s, "--flip-y")) {
            a->flip_y = true;
        } else if (!strcmp(s, "--nearest")) {
            a->nearest = true;
        } else if (!v && s[0] == '-' && s[1]) {
            tool_error("%s needs a value (see `vc4kit tex --help`)", s);
            return 2;
        } else if (!strcmp(s, "-f")) {
            if ((a->format = parse_format(v)) < 0) {
                tool_error("-f: unknown texture format '%s' (see `vc4kit tex formats`)", v);
                return 2;
            }
            i++;
        } else if (!strcmp(s, "-l")) {
            if ((a->layout = parse_layout(v)) < 0) {
                tool_error("-l: unknown layout '%s' (t, lt, raster)", v);
                return 2;
            }
            i++;
        } else if (!strcmp(s, "--mips")) {
            uint64_t n = 0;
            if (strcmp(v, "all") && (!num_arg(s, v, VC4_TEX_MAX_LEVELS, &n) || n == 0))
                return 2;
            a->mips = (unsigned)n;
            a->mips_set = true;
            i++;
        } else if (!strcmp(s, "--wrap")) {
            unsigned k = 0;
            while (k < 4 && strcmp(v, wrap_names[k]))
                k++;
            if (k == 4) {
                tool_error("--wrap: unknown mode '%s' (repeat, clamp, mirror, border)", v);
                return 2;
            }
            a->wrap = k;
            i++;
        } else if (!strcmp(s, "--base")) {
            if (!num_arg(s, v, UINT32_MAX, &a->base))
                return 2;
            a->has_base = true;
            i++;
        } else if (!strcmp(s, "-w") || !strcmp(s, "-h")) {
            if (!num_arg(s, v, UINT32_MAX, s[1] == 'w' ? &a->w : &a->h))
                return 2;
            *(s[1] == 'w' ? &a->has_w : &a->has_h) = true;
            i++;
        } else if (!strcmp(s, "--level")) {
            if (!num_arg(s, v, VC4_TEX_MAX_LEVELS - 1, &a->level))
                return 2;
            a->has_level = true;
            i++;
        } else if (!strcmp(s, "--face")) {
            if (!num_arg(s, v, VC4_TEX_MAX_FACES - 1, &a->face))
                return 2;
            i++;
        } else if (!strcmp(s, "-o")) {
            a->out = v;
            i++;
        } else if (s[0] == '-' && s[1]) {
            tool_error("unknown option '%s' (see `vc4kit tex --help`)", s);
            return 2;
        } else if (a->nin < VC4_TEX_MAX_FACES) {
            a->in[a->nin++] = s;
        } else {
            tool_error("more than %u input files", (unsigned)VC4_TEX_MAX_FACES);
            return 2;
        }
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
        tool_error("encode: give one picture, or six for a cube map");
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
        tool_error("decode: give one input file, -w and -h");
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
    if (vc4_tex_mip_layout(&m, (enum vc4_tex_format)a->format, layout,
                           a->w > 4096 ? 4096 : (unsigned)a->w, a->h > 4096 ? 4096 : (unsigned)a->h,
                           levels, faces, sink) != VC4_OK)
        return 1;
    size_t len;
    uint8_t *data = tool_read_file(a->in[0], &len);
    if (!data)
        return 2;
    const struct vc4_tex_level *lv = &m.level[a->level];
    uint32_t at = vc4_tex_image_offset(&m, (unsigned)a->level, (unsigned)a->face);
    int rc = 0;
    if ((uint64_t)at + lv->geom.size > len) {
        tool_error("%s: %zu bytes, but level %u%s ends at byte %llu", a->in[0], len,
                   (unsigned)a->level, a->face ? " of that face" : "",
                   (unsigned long long)((uint64_t)at + lv->geom.size));
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
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    if (fmts)
        return cmd_formats(a.out);
    if (a.format < 0) {
        tool_error("%s: -f FORMAT is required (see `vc4kit tex formats`)", verb);
        return 2;
    }
    if (!a.out) {
        tool_error("%s: -o OUT is required", verb);
        return 2;
    }
    struct tool_diags diags = {0};
    struct vc4_diag_sink sink = tool_stderr_sink(&diags);
    return enc ? cmd_encode(&a, &sink) : cmd_decode(&a, &sink);
}
