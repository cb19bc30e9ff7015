/*
 * cmd_render.c - `vc4kit render`: run a binning list on CT0 and then a
 * rendering list on CT1 on the emulated V3D, as a bare-metal program does
 * (write CTnCA, then CTnEA), and write the frame the last Tile Rendering
 * Mode Configuration described as a PNG.
 *
 *   vc4kit render [--load FILE@ADDR]... --bin START:END --render START:END
 *                 [-o OUT.png] [--fb ADDR] [--stats] [--profile] [--dump-tiles FILE|-]
 *   vc4kit render SOURCE.qasm [--bin START:END] [--render START:END] [-o OUT.png] [--fb ADDR]
 *                 [--stats] [--profile] [--dump-tiles FILE|-]
 *
 * The assembly form (docs/rendering.md): the source is assembled at the
 * address its symbol LOAD_ADDR gives (`.set LOAD_ADDR, 0x00100000`; 0 when
 * it has none) and loaded there; its labels BIN_START / BIN_END and
 * RENDER_START / RENDER_END name the two lists.
 */
#define _POSIX_C_SOURCE 200809L /* pthread_cond_timedwait, clock_gettime */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool.h"
#include "vc4kit/emu.h"
#include "vc4kit/qpu.h"
#include "vc4kit/tex.h"
#include "emu/jit_env.h"

#define RENDER_MAX_LOADS 64

static void usage(FILE *f)
{
    fputs("usage: vc4kit render [--load FILE@ADDR]... --bin START:END --render START:END\n"
          "                     [-o OUT.png] [--fb ADDR]\n"
          "       vc4kit render SOURCE.qasm [--bin START:END] [--render START:END] [-o OUT.png]\n"
          "                     [--fb ADDR] [--stats] [--profile] [--dump-tiles FILE|-]\n"
          "Run a binning control list on CT0 from START to END, then a rendering list on CT1,\n"
          "on the emulated V3D (as bare metal does: CTnCA, then CTnEA), and write the frame\n"
          "the last Tile Rendering Mode Configuration described (address, size, colour\n"
          "format, memory format) as a PNG: frame row 0 at the top, RGBA8888 byte 0 = red,\n"
          "BGR565 = red 15:11, green 10:5, blue 4:0.\n"
          "  --load FILE@ADDR   copy FILE into memory at bus address ADDR (assembly source\n"
          "                     text is assembled there first)\n"
          "  SOURCE.qasm        one assembly memory image: assembled at its LOAD_ADDR symbol\n"
          "                     (0 if none); labels BIN_START, BIN_END, RENDER_START,\n"
          "                     RENDER_END name the lists (--bin/--render override them)\n"
          "  --bin START:END    the binning list (bus addresses)\n"
          "  --render START:END the rendering list\n"
          "  -o OUT.png         output (default: SOURCE's name with .png in the current\n"
          "                     directory, or render.png; said on stderr)\n"
          "  --fb ADDR          read the frame from ADDR instead of the configured address\n"
          "  --expect GOLD.png  compare the frame with GOLD.png pixel for pixel (exit 1 if\n"
          "                     they differ)\n"
          "  --qpus N           the device's QPUs (1..16, default 12 as a Pi)\n"
          "  --max-cycles N     cycle budget per list (default 100000000)\n"
          "  --strict           hardware-rule violations are errors\n"
          "  --stats            after the run, print where the time went and what the units\n"
          "                     did to stdout: QPU cycles, instructions and stalls by kind of\n"
          "                     program; the binner's primitives (in, culled, zero area,\n"
          "                     outside, clipped, binned), tile writes and blocks; vertex and\n"
          "                     fragment shading; TMU lookups, texels and cache hit rate;\n"
          "                     VPM traffic\n"
          "  --profile          after the run, print where the QPUs spent their cycles, by\n"
          "                     instruction: the 20 with most samples (one about every 61\n"
          "                     cycles per busy QPU), issuing, stalled on a unit or blocked\n"
          "                     on another QPU, disassembled\n"
          "  --dump-tiles FILE  write the tile lists the binner wrote (per tile: state\n"
          "                     packets, the primitives of packets 48/49) to FILE (- = stdout)\n"
          "Exit status: 0 when both lists ran to their end and the PNG was written; 1 for a\n"
          "bad list, a guest fault, a stall, a timeout or a --expect mismatch (diagnostics\n"
          "name the thread, the address, the list offset and the packet); 2 for bad\n"
          "arguments or files.\n",
          f);
}

static bool parse_range(const char *s, uint32_t *a, uint32_t *b)
{
    const char *c = strchr(s, ':');
    if (!c || c == s)
        return false;
    char left[64];
    size_t n = (size_t)(c - s);
    if (n >= sizeof left)
        return false;
    memcpy(left, s, n);
    left[n] = 0;
    uint64_t x, y;
    if (!tool_parse_u64(left, &x) || !tool_parse_u64(c + 1, &y) || x > UINT32_MAX || y > UINT32_MAX)
        return false;
    *a = (uint32_t)x;
    *b = (uint32_t)y;
    return true;
}


static bool label(struct vc4_asm *as, const char *name, uint32_t *out)
{
    int64_t v;
    if (!vc4_asm_lookup(as, name, &v) || v < 0 || v > (int64_t)UINT32_MAX)
        return false;
    *out = (uint32_t)v;
    return true;
}

/*
 * Progress on a terminal: while a list runs, a second thread prints how
 * long it has been running, once a second after the first two (the
 * emulator itself is not touched: a run cannot be cut into slices without
 * changing it). Without a terminal (tests, pipes) nothing is printed.
 */
struct progress {
    const struct vc4_diag_sink *next;
    bool on;              /* stderr is a terminal */
    pthread_mutex_t lock; /* the fields below and stderr */
    pthread_cond_t wake;
    bool done, shown;
    const char *name;
};
static void clear_line(struct progress *p)
{
    if (p->shown) {
        fputs("\r\033[K", stderr);
        p->shown = false;
    }
}
static void progress_sink(void *user, const struct vc4_diag *d)
{
    struct progress *p = user;
    if (p->on)
        pthread_mutex_lock(&p->lock);
    clear_line(p);
    p->next->fn(p->next->user, d);
    if (p->on)
        pthread_mutex_unlock(&p->lock);
}
static void *progress_thread(void *user)
{
    struct progress *p = user;
    struct timespec t0, t;
    clock_gettime(CLOCK_REALTIME, &t0);
    pthread_mutex_lock(&p->lock);
    for (unsigned s = 1; !p->done; s++) {
        t = t0;
        t.tv_sec += (time_t)s;
        while (!p->done && pthread_cond_timedwait(&p->wake, &p->lock, &t) == 0) {
        }
        if (!p->done && s >= 2) {
            fprintf(stderr, "\rrender: %s: running for %u s...", p->name, s);
            fflush(stderr);
            p->shown = true;
        }
    }
    clear_line(p);
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static enum vc4_status run_with_progress(struct vc4_emu *emu, const char *name, uint64_t max_cycles,
                                         struct progress *p)
{
    pthread_t th;
    if (!p->on)
        return vc4_emu_run(emu, max_cycles);
    p->done = false;
    p->name = name;
    bool started = pthread_create(&th, NULL, progress_thread, p) == 0;
    enum vc4_status st = vc4_emu_run(emu, max_cycles);
    if (started) {
        pthread_mutex_lock(&p->lock);
        p->done = true;
        pthread_cond_signal(&p->wake);
        pthread_mutex_unlock(&p->lock);
        pthread_join(th, NULL);
    }
    return st;
}

/* Run one list on thread t (0 = CT0, 1 = CT1) and say how it ended. */
static int run_list(struct vc4_emu *emu, unsigned t, uint32_t start, uint32_t end, uint64_t max_cycles,
                    struct progress *pg)
{
    const char *name = t ? "rendering list (CT1)" : "binning list (CT0)";
    vc4_emu_reg_write(emu, t ? VC4_V3D_CT1CA : VC4_V3D_CT0CA, start);
    vc4_emu_reg_write(emu, t ? VC4_V3D_CT1EA : VC4_V3D_CT0EA, end);
    enum vc4_status st = run_with_progress(emu, name, max_cycles, pg);
    uint32_t cs = 0, ca = 0, pcs = 0;
    vc4_emu_reg_read(emu, t ? VC4_V3D_CT1CS : VC4_V3D_CT0CS, &cs);
    vc4_emu_reg_read(emu, t ? VC4_V3D_CT1CA : VC4_V3D_CT0CA, &ca);
    vc4_emu_reg_read(emu, VC4_V3D_PCS, &pcs);
    if (st != VC4_OK) {
        tool_error("render: %s: %s", name, vc4_status_name(st));
        return 1;
    }
    if (cs & VC4_V3D_CTCS_CTERR) {
        tool_error("render: %s stopped by an error at 0x%08x", name, ca);
        return 1;
    }
    if (cs & VC4_V3D_CTCS_CTRUN) { /* stalled */
        if (t == 0 && (pcs & VC4_V3D_PCS_BMOOM))
            tool_error("render: %s stalled at 0x%08x: the binner is out of memory (BPOA/BPOS)", name, ca);
        else
            tool_error("render: %s stalled at 0x%08x (Wait on Semaphore with no Increment to match)",
                       name, ca);
        return 1;
    }
    return 0;
}

/* --dump-tiles: the tile lists as text into path ("-" = stdout). */
static int dump_tiles(const char *path, const struct vc4_emu *emu)
{
    size_t need = 0;
    enum vc4_status st = vc4_emu_dump_tile_lists(emu, NULL, 0, &need);
    if (st == VC4_ERR_INVALID) {
        tool_error("render: --dump-tiles: the binning list configured no tile binning");
        return 1;
    }
    char *text = malloc(need + 1);
    if (!text || vc4_emu_dump_tile_lists(emu, text, need + 1, &need) != VC4_OK) {
        free(text);
        tool_error("render: --dump-tiles: out of memory");
        return 2;
    }
    FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
    int rc = 0;
    if (!f || fputs(text, f) == EOF || (f != stdout && fclose(f) != 0)) {
        tool_error("render: cannot write %s", path);
        rc = 2;
    }
    free(text);
    return rc;
}

/* The frame against GOLD.png (read before the run, so that a bad file is
 * said before a long render). */
struct golden {
    uint8_t *rgba;
    unsigned w, h;
};
static int compare(const char *gold, const struct golden *gd, const uint8_t *rgba, unsigned w, unsigned h)
{
    const uint8_t *g = gd->rgba;
    unsigned gw = gd->w, gh = gd->h;
    int rc = 0;
    if (gw != w || gh != h) {
        tool_error("render: %s is %ux%u, the frame %ux%u", gold, gw, gh, w, h);
        rc = 1;
    } else {
        size_t diff = 0, first = 0;
        for (size_t i = 0; i < (size_t)w * h; i++)
            if (memcmp(g + 4 * i, rgba + 4 * i, 4) != 0 && diff++ == 0)
                first = i;
        if (diff) {
            const uint8_t *a = rgba + 4 * first, *b = g + 4 * first;
            tool_error("render: %zu pixels differ from %s; first at (%zu, %zu): %02x%02x%02x%02x, "
                       "expected %02x%02x%02x%02x",
                       diff, gold, first % w, first / w, a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]);
            rc = 1;
        }
    }
    return rc;
}

enum { OPT_LOAD, OPT_BIN, OPT_RENDER, OPT_OUT, OPT_FB, OPT_EXPECT, OPT_MAX_CYCLES, OPT_QPUS, OPT_DUMP_TILES,
       OPT_STRICT, OPT_STATS, OPT_PROFILE };
static const struct tool_opt render_opts[] = {
    {"--load", NULL, TOOL_OPT_STRING, OPT_LOAD, 0, 0},
    {"--bin", NULL, TOOL_OPT_STRING, OPT_BIN, 0, 0},
    {"--render", NULL, TOOL_OPT_STRING, OPT_RENDER, 0, 0},
    {"-o", NULL, TOOL_OPT_STRING, OPT_OUT, 0, 0},
    {"--fb", NULL, TOOL_OPT_NUMBER, OPT_FB, 0, UINT32_MAX},
    {"--expect", NULL, TOOL_OPT_STRING, OPT_EXPECT, 0, 0},
    {"--max-cycles", NULL, TOOL_OPT_NUMBER, OPT_MAX_CYCLES, 1, UINT64_MAX},
    {"--qpus", NULL, TOOL_OPT_NUMBER, OPT_QPUS, 1, TOOL_QPUS_MAX},
    {"--dump-tiles", NULL, TOOL_OPT_STRING, OPT_DUMP_TILES, 0, 0},
    {"--strict", NULL, TOOL_OPT_FLAG, OPT_STRICT, 0, 0},
    {"--stats", NULL, TOOL_OPT_FLAG, OPT_STATS, 0, 0},
    {"--profile", NULL, TOOL_OPT_FLAG, OPT_PROFILE, 0, 0},
};
static const struct tool_cmd render_cmd = {"render", usage, render_opts, TOOL_NOPTS(render_opts)};

struct render_args {
    const char *source, *out, *expect, *tiles_out;
    const char *loads[RENDER_MAX_LOADS];
    size_t nload;
    bool have_bin, have_render, have_fb, strict, stats, profile;
    uint32_t bin_s, bin_e, ren_s, ren_e, fb;
    uint64_t max_cycles, qpus;
};

static int render_arg(void *user, int id, const char *val, uint64_t n)
{
    struct render_args *a = user;
    switch (id) {
    case OPT_STRICT: a->strict = true; break;
    case OPT_STATS: a->stats = true; break;
    case OPT_PROFILE: a->profile = true; break;
    case OPT_LOAD:
        if (a->nload == RENDER_MAX_LOADS) {
            tool_error("render: more than %u --load options", RENDER_MAX_LOADS);
            return 2;
        }
        a->loads[a->nload++] = val;
        break;
    case OPT_BIN:
    case OPT_RENDER: {
        bool bin = id == OPT_BIN;
        if (!parse_range(val, bin ? &a->bin_s : &a->ren_s, bin ? &a->bin_e : &a->ren_e)) {
            tool_error("render: bad %s '%s' (want START:END)", bin ? "--bin" : "--render", val);
            return 2;
        }
        *(bin ? &a->have_bin : &a->have_render) = true;
        break;
    }
    case OPT_OUT: a->out = val; break;
    case OPT_DUMP_TILES: a->tiles_out = val; break;
    case OPT_EXPECT: a->expect = val; break;
    case OPT_FB: a->fb = (uint32_t)n, a->have_fb = true; break;
    case OPT_QPUS: a->qpus = n; break;
    case OPT_MAX_CYCLES: a->max_cycles = n; break;
    default:
        if (a->source) {
            tool_error("render: more than one SOURCE ('%s' and '%s')", a->source, val);
            return 2;
        }
        a->source = val;
    }
    return -1;
}

int cmd_render(int argc, char **argv)
{
    struct render_args ra = {0};
    int prc = tool_parse_args(&render_cmd, argc, argv, 1, render_arg, &ra);
    if (prc >= 0)
        return prc;
    const char *source = ra.source, *out = ra.out, *expect = ra.expect, *tiles_out = ra.tiles_out;
    bool stats = ra.stats, have_bin = ra.have_bin, have_render = ra.have_render;
    uint32_t bin_s = ra.bin_s, bin_e = ra.bin_e, ren_s = ra.ren_s, ren_e = ra.ren_e;
    if (!source && (!have_bin || !have_render)) {
        tool_error("render: no SOURCE.qasm, and %s missing: give an assembly memory image, or --load "
                   "files with --bin START:END and --render START:END",
                   !have_bin && !have_render ? "--bin and --render are" : !have_bin ? "--bin is" : "--render is");
        usage(stderr);
        return 2;
    }

    struct tool_diags diags = {.file = source};
    struct vc4_diag_sink sink = tool_stderr_sink(&diags);
    struct progress pg = {.next = &sink, .on = tool_stderr_is_tty(), .lock = PTHREAD_MUTEX_INITIALIZER,
                          .wake = PTHREAD_COND_INITIALIZER};
    struct vc4_emu_options eo = {.sink = {progress_sink, &pg}, .strict = ra.strict, .max_cycles = ra.max_cycles,
                                 .num_qpus = (unsigned)ra.qpus, .profile = ra.profile};
    char jit_dir[4096];
    vc4_jit_options_from_env(&eo, jit_dir, sizeof jit_dir);
    int rc = 0;
    char *default_out = NULL;

    /* the inputs first, read and assembled before the device exists: the
     * assembly memory image ... */
    uint8_t *img = NULL;
    size_t img_len = 0;
    uint32_t base = 0;
    if (source) {
        size_t len = 0;
        uint8_t *text = tool_read_file(source, &len);
        struct vc4_asm *as = NULL;
        img = text ? tool_assemble(source, text, len, 0, sink, &img_len, &as) : NULL;
        if (img && label(as, "LOAD_ADDR", &base) && base != 0) {
            free(img);
            vc4_asm_destroy(as);
            as = NULL;
            img = tool_assemble(source, text, len, base, sink, &img_len, &as);
        }
        free(text);
        if (!img) {
            rc = 2;
        } else {
            if (!have_bin && !(label(as, "BIN_START", &bin_s) && label(as, "BIN_END", &bin_e))) {
                tool_error("render: %s: no BIN_START/BIN_END labels (and no --bin)", source);
                rc = 2;
            }
            if (!have_render && !(label(as, "RENDER_START", &ren_s) && label(as, "RENDER_END", &ren_e))) {
                tool_error("render: %s: no RENDER_START/RENDER_END labels (and no --render)", source);
                rc = 2;
            }
        }
        vc4_asm_destroy(as);
        if (!out) {
            const char *b = strrchr(source, '/');
            b = b ? b + 1 : source;
            size_t bl = strlen(b);
            const char *dot = strrchr(b, '.');
            size_t stem = dot && dot != b ? (size_t)(dot - b) : bl;
            default_out = malloc(stem + 5);
            if (default_out) {
                memcpy(default_out, b, stem);
                memcpy(default_out + stem, ".png", 5);
            }
            out = default_out;
        }
    }
    /* ... and the --load images (binary, or assembly text assembled at ADDR) */
    struct tool_load loads[RENDER_MAX_LOADS] = {{0}};
    for (size_t i = 0; rc == 0 && i < ra.nload; i++) {
        struct tool_load *l = &loads[i];
        if (!tool_load_read("render", ra.loads[i], l)) {
            rc = 2;
        } else if (l->len && tool_looks_like_text(l->data, l->len)) {
            size_t an = 0;
            uint8_t *a = tool_assemble(l->file, l->data, l->len, l->addr, sink, &an, NULL);
            free(l->data);
            l->data = a;
            l->len = an;
            if (!a)
                rc = 2;
        }
    }
    struct golden gold = {0};
    if (rc == 0 && expect && vc4_png_read(expect, &gold.rgba, &gold.w, &gold.h, &sink) != VC4_OK)
        rc = 2;
    struct vc4_emu *emu = NULL;
    if (rc == 0 && !(emu = vc4_emu_create(&eo))) {
        tool_error("render: cannot create the emulated device");
        rc = 2;
    }
    if (rc == 0 && img && vc4_emu_mem_write(emu, base, img, img_len) != VC4_OK) {
        tool_error("render: %s: 0x%08x+%zu is outside memory", source, base, img_len);
        rc = 2;
    }
    for (size_t i = 0; rc == 0 && i < ra.nload; i++)
        if (vc4_emu_mem_write(emu, loads[i].addr, loads[i].data, loads[i].len) != VC4_OK) {
            tool_error("render: --load %s: 0x%08x+%zu is outside memory", loads[i].file, loads[i].addr,
                       loads[i].len);
            rc = 2;
        }
    free(img);
    for (size_t i = 0; i < ra.nload; i++)
        tool_load_free(&loads[i]);
    if (!emu) {
        free(gold.rgba);
        free(default_out);
        return rc;
    }
    if (!out)
        out = "render.png";

    /* CT0, then CT1 */
    if (rc == 0)
        rc = run_list(emu, 0, bin_s, bin_e, ra.max_cycles, &pg);
    if (rc == 0)
        rc = run_list(emu, 1, ren_s, ren_e, ra.max_cycles, &pg);

    /* insight: after the lists ran (or stopped: the figures say how far
     * they got); not when the arguments or files were bad */
    bool ran = rc != 2;
    if (ran && stats) {
        fputs("render stats:\n", stdout);
        tool_print_stats(stdout, emu, "  ");
    }
    if (ran && ra.profile)
        tool_print_profile(stdout, emu, "");
    if (ran && tiles_out) {
        int r = dump_tiles(tiles_out, emu);
        if (rc == 0)
            rc = r;
    }

    /* the frame */
    uint8_t *rgba = NULL;
    struct vc4_emu_frame f;
    vc4_emu_render_frame(emu, &f);
    if (rc == 0 && !f.valid) {
        tool_error("render: the rendering list executed no Tile Rendering Mode Configuration");
        rc = 1;
    }
    if (rc == 0) {
        if (ra.have_fb)
            f.addr = ra.fb;
        if (f.frames == 0)
            fprintf(stderr, "vc4kit: warning: render: the rendering list signalled no end of frame\n");
        rgba = f.width && f.height ? malloc((size_t)f.width * f.height * 4) : NULL;
        enum vc4_status st = rgba ? vc4_emu_read_frame(emu, &f, rgba) : VC4_ERR_INVALID;
        if (st != VC4_OK) {
            tool_error("render: cannot read the %ux%u frame at 0x%08x: %s", f.width, f.height, f.addr,
                       vc4_status_name(st));
            rc = 1;
        } else if (vc4_png_write(out, rgba, f.width, f.height, (size_t)f.width * 4, &sink) != VC4_OK) {
            rc = 2;
        } else {
            if (!ra.out) /* a name the user did not give: say where it went (issue 18) */
                tool_note("render: wrote %s (the %ux%u frame at 0x%08x; -o names the output)", out, f.width,
                          f.height, f.addr);
            if (expect)
                rc = compare(expect, &gold, rgba, f.width, f.height);
        }
    }
    free(rgba);
    free(gold.rgba);
    free(default_out);
    vc4_emu_destroy(emu);
    return rc;
}
