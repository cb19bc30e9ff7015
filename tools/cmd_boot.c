/*
 * cmd_boot.c - `vc4kit boot IMAGE`: run a Raspberry Pi bare-metal kernel
 * image on an emulated ARM core (src/arm, Unicorn) wired to the emulated
 * V3D, UART text to stdout, the frame buffer to PNG (docs/boot.md).
 *
 *   vc4kit boot kernel.img [--board pi1|pi2|pi3] [--aarch64] [--kernel-old]
 *               [--load-addr ADDR] [-o OUT.png] [--frames N] [--max-insns N]
 *               [--time SECONDS] [--png-at T1,T2,...] [--expect GOLD.png] [--stats]
 *               [--dump-tiles FILE|-] [--window]
 */
#include <stdlib.h>
#include <string.h>

#include "boot_window.h"
#include "tool.h"
#include "vc4kit/emu.h"
#include "vc4kit/tex.h"

#ifdef VC4KIT_HAVE_UNICORN
#include "arm/arm.h"
#include "emu/jit_env.h"
#endif

static void usage(FILE *f)
{
    fputs("usage: vc4kit boot IMAGE [--board pi1|pi2|pi3] [--aarch64] [--kernel-old]\n"
          "                   [--load-addr ADDR] [-o OUT.png] [--frames N] [--max-insns N]\n"
          "                   [--time SECONDS] [--png-at T1,T2,...] [--expect GOLD.png]\n"
          "                   [--qpus N] [--strict] [--stats] [--profile] [--dump-tiles FILE|-]\n"
          "                   [--window]\n"
          "Run a Raspberry Pi bare-metal kernel image on an emulated ARM core (Unicorn) with\n"
          "the Pi's mailbox, system timer, UARTs, GPIO, interrupt controller and the emulated\n"
          "V3D.  Text the program writes to a UART goes to stdout; the frame buffer it\n"
          "allocated through the mailbox is written as a PNG when the run ends.\n"
          "  --board B         pi1 (ARM1176, peripherals at 0x20000000), pi2 (Cortex-A7) or\n"
          "                    pi3 (Cortex-A53; 0x3F000000); default from the image name:\n"
          "                    kernel7*.img or *pi2* pi2, kernel8*.img or *pi3_64* pi3\n"
          "                    AArch64, *pi3* pi3, else pi1\n"
          "  --aarch64         a 64-bit image (Pi 3), loaded at 0x80000\n"
          "  --kernel-old      load at 0 (config.txt kernel_old=1)\n"
          "  --load-addr ADDR  load and start at ADDR (default 0x8000, 0x80000 for AArch64)\n"
          "  -o OUT.png        the frame buffer at the end (default IMAGE with .png)\n"
          "  --frames N        write OUT-1.png, OUT-2.png, ... at each V3D end of frame and\n"
          "                    end the run after N frames\n"
          "  --max-insns N     end after N ARM instructions (default 2000000000)\n"
          "  --time SECONDS    end after SECONDS of emulated time (default 10)\n"
          "  --png-at T1,T2,.. write OUT-at-T.png when the emulated time reaches each T:\n"
          "                    milliseconds, or with a unit: 500us, 20ms, 2s (at most 64)\n"
          "  --expect GOLD.png compare the final frame buffer with GOLD.png (exit 1 if not equal)\n"
          "  --qpus N, --strict, --stats, --profile, --dump-tiles FILE  as in `vc4kit render`\n"
          "  --window          show the frame buffer live in a window (SDL2; if this vc4kit\n"
          "                    was built with it), 60 times per emulated second and at each\n"
          "                    frame, paced to the wall clock; closing it ends the run\n"
          "The run ends when the CPU parks (a branch to itself, WFI/WFE with nothing\n"
          "pending), at a limit, at a fault or at a V3D failure, and says which on stderr.\n"
          "Exit status: 0 parked or at --frames N; 1 a fault, a V3D failure, a limit\n"
          "reached without parking, or a --expect mismatch; 2 bad arguments or files.\n",
          f);
}

#ifndef VC4KIT_HAVE_UNICORN
int cmd_boot(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        usage(stdout);
        return 0;
    }
    tool_error("boot: this vc4kit was built without Unicorn (apt-get install libunicorn-dev, then rebuild)");
    return 2;
}
#else

#define BOOT_MAX_AT 64

struct boot_out {
    const char *stem;       /* OUT without .png */
    uint64_t at_us[BOOT_MAX_AT];
    bool frame_pngs;        /* --frames: OUT-N.png at each end of frame */
    struct boot_window *window;
    uint8_t *window_rgba;   /* the picture shown */
    size_t window_bytes;
    struct vc4_arm *arm;
    struct vc4_diag_sink sink;
    int rc;
};

static bool write_display(const struct vc4_arm *arm, const char *path, struct vc4_diag_sink sink, uint8_t **keep,
                          unsigned *w, unsigned *h)
{
    struct vc4_arm_display d;
    vc4_arm_display(arm, &d);
    if (!d.valid) {
        tool_error("boot: the program allocated no frame buffer: no %s", path);
        return false;
    }
    uint8_t *rgba = malloc((size_t)d.width * d.height * 4);
    enum vc4_status st = rgba ? vc4_arm_read_display(arm, rgba) : VC4_ERR_NOMEM;
    if (st != VC4_OK) {
        tool_error("boot: cannot read the %ux%u frame buffer at 0x%08x: %s", d.width, d.height, d.addr,
                   vc4_status_name(st));
        free(rgba);
        return false;
    }
    bool ok = vc4_png_write(path, rgba, d.width, d.height, (size_t)d.width * 4, &sink) == VC4_OK;
    if (keep) {
        *keep = rgba;
        *w = d.width;
        *h = d.height;
    } else {
        free(rgba);
    }
    return ok;
}

/* The frame buffer to the window; false once the window is closed. */
static bool window_update(struct boot_out *o, struct vc4_arm *arm)
{
    struct vc4_arm_display d;
    vc4_arm_display(arm, &d);
    if (!d.valid)
        return true; /* nothing to show yet */
    size_t bytes = (size_t)d.width * d.height * 4;
    if (bytes > o->window_bytes) {
        uint8_t *p = realloc(o->window_rgba, bytes);
        if (!p)
            return true;
        o->window_rgba = p;
        o->window_bytes = bytes;
    }
    if (vc4_arm_read_display(arm, o->window_rgba) != VC4_OK)
        return true;
    return boot_window_show(o->window, o->window_rgba, d.width, d.height);
}

#define BOOT_WINDOW_TICK_US 16667u /* 60 pictures per emulated second */

static bool on_tick(void *user, struct vc4_arm *arm, uint64_t time_us)
{
    struct boot_out *o = user;
    return window_update(o, arm) && boot_window_pace(o->window, time_us);
}

static void on_frame(void *user, struct vc4_arm *arm, uint64_t frame)
{
    struct boot_out *o = user;
    if (o->window)
        window_update(o, arm);
    if (!o->frame_pngs)
        return; /* the window only */
    char path[4096 + 32];
    snprintf(path, sizeof path, "%s-%llu.png", o->stem, (unsigned long long)frame);
    if (!write_display(arm, path, o->sink, NULL, NULL, NULL))
        o->rc = 2;
}

/* OUT-at-5ms.png: the time in milliseconds when whole, else microseconds */
static void at_path(char *path, size_t n, const char *stem, uint64_t us)
{
    if (us % 1000 == 0)
        snprintf(path, n, "%s-at-%llums.png", stem, (unsigned long long)(us / 1000));
    else
        snprintf(path, n, "%s-at-%lluus.png", stem, (unsigned long long)us);
}

static void on_time(void *user, struct vc4_arm *arm, size_t index, uint64_t time_us)
{
    (void)time_us;
    struct boot_out *o = user;
    char path[4096 + 48];
    at_path(path, sizeof path, o->stem, o->at_us[index]);
    if (!write_display(arm, path, o->sink, NULL, NULL, NULL))
        o->rc = 2;
}

/* "5,20ms,500us,2s": milliseconds unless a unit says otherwise; sorted,
 * repeats dropped.  Returns the count, 0 on an error (said on stderr). */
static size_t parse_times(const char *list, uint64_t *out, size_t max)
{
    size_t n = 0;
    const char *p = list;
    for (;;) {
        char *end = NULL;
        if (*p < '0' || *p > '9') {
            tool_error("boot: --png-at takes times like 5,20ms,500us,2s, not '%s'", list);
            return 0;
        }
        unsigned long long v = strtoull(p, &end, 10);
        uint64_t scale = 1000;
        if (!strncmp(end, "us", 2))
            scale = 1, end += 2;
        else if (!strncmp(end, "ms", 2))
            end += 2;
        else if (*end == 's')
            scale = 1000000, end += 1;
        if ((*end && *end != ',') || v > UINT64_MAX / 1000000 / 1000) {
            tool_error("boot: --png-at takes times like 5,20ms,500us,2s, not '%s'", list);
            return 0;
        }
        if (n == max) {
            tool_error("boot: --png-at takes at most %zu times", max);
            return 0;
        }
        uint64_t us = v * scale;
        size_t i = n++;
        while (i > 0 && out[i - 1] > us) { /* insertion: ascending */
            out[i] = out[i - 1];
            i--;
        }
        out[i] = us;
        if (i > 0 && out[i - 1] == us) { /* a repeat */
            memmove(out + i, out + i + 1, (n - i - 1) * sizeof *out);
            n--;
        }
        if (!*end)
            return n;
        p = end + 1;
    }
}

static void uart_out(void *user, const char *text, size_t len)
{
    (void)user;
    fwrite(text, 1, len, stdout);
}

/* Pixels equal: 0; else 1 with the first difference on stderr. */
static int expect_png(const char *gold, const uint8_t *rgba, unsigned w, unsigned h, struct vc4_diag_sink sink)
{
    uint8_t *g = NULL;
    unsigned gw = 0, gh = 0;
    if (vc4_png_read(gold, &g, &gw, &gh, &sink) != VC4_OK)
        return 2;
    size_t diff = 0, first = 0;
    if (gw == w && gh == h)
        for (size_t i = (size_t)w * h; i-- > 0;)
            if (memcmp(g + 4 * i, rgba + 4 * i, 4)) {
                diff++;
                first = i;
            }
    free(g);
    if (gw != w || gh != h) {
        tool_error("boot: %s is %ux%u, the frame buffer %ux%u", gold, gw, gh, w, h);
        return 1;
    }
    if (diff) {
        tool_error("boot: %zu pixels differ from %s, the first at (%zu, %zu)", diff, gold, first % w, first / w);
        return 1;
    }
    return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

enum boot_opt {
    BOOT_AARCH64, BOOT_KERNEL_OLD, BOOT_STATS, BOOT_PROFILE, BOOT_STRICT, BOOT_BOARD, BOOT_OUT, BOOT_EXPECT,
    BOOT_DUMP_TILES, BOOT_LOAD_ADDR, BOOT_FRAMES, BOOT_MAX_INSNS, BOOT_TIME, BOOT_QPUS, BOOT_PNG_AT, BOOT_WINDOW,
};

static const struct tool_opt boot_opts[] = {
    {.name = "--aarch64", .kind = TOOL_OPT_FLAG, .id = BOOT_AARCH64},
    {.name = "--kernel-old", .kind = TOOL_OPT_FLAG, .id = BOOT_KERNEL_OLD},
    {.name = "--stats", .kind = TOOL_OPT_FLAG, .id = BOOT_STATS},
    {.name = "--profile", .kind = TOOL_OPT_FLAG, .id = BOOT_PROFILE},
    {.name = "--strict", .kind = TOOL_OPT_FLAG, .id = BOOT_STRICT},
    {.name = "--window", .kind = TOOL_OPT_FLAG, .id = BOOT_WINDOW},
    {.name = "--board", .kind = TOOL_OPT_STRING, .id = BOOT_BOARD},
    {.name = "-o", .kind = TOOL_OPT_STRING, .id = BOOT_OUT},
    {.name = "--expect", .kind = TOOL_OPT_STRING, .id = BOOT_EXPECT},
    {.name = "--dump-tiles", .kind = TOOL_OPT_STRING, .id = BOOT_DUMP_TILES},
    {.name = "--png-at", .kind = TOOL_OPT_STRING, .id = BOOT_PNG_AT},
    {.name = "--load-addr", .kind = TOOL_OPT_NUMBER, .id = BOOT_LOAD_ADDR, .min = 0, .max = UINT32_MAX},
    {.name = "--frames", .kind = TOOL_OPT_NUMBER, .id = BOOT_FRAMES, .min = 1, .max = UINT32_MAX},
    {.name = "--max-insns", .kind = TOOL_OPT_NUMBER, .id = BOOT_MAX_INSNS, .min = 1, .max = UINT64_MAX},
    {.name = "--time", .kind = TOOL_OPT_NUMBER, .id = BOOT_TIME, .min = 1, .max = 86400},
    {.name = "--qpus", .kind = TOOL_OPT_NUMBER, .id = BOOT_QPUS, .min = 1, .max = TOOL_QPUS_MAX},
};
static const struct tool_cmd boot_cmd = {"boot", usage, boot_opts, TOOL_NOPTS(boot_opts)};

struct boot_args {
    const char *image, *out, *expect, *tiles_out, *board_name, *png_at;
    bool aarch64, kernel_old, stats, profile, strict, have_load, window;
    uint64_t load, frames, max_insns, time_s, qpus;
};

static int boot_arg(void *user, int id, const char *arg, uint64_t num)
{
    struct boot_args *a = user;
    switch (id) {
    case TOOL_ARG_POSITIONAL:
        if (a->image) {
            tool_error("boot: more than one IMAGE ('%s')", arg);
            return 2;
        }
        a->image = arg;
        return -1;
    case BOOT_AARCH64: a->aarch64 = true; return -1;
    case BOOT_KERNEL_OLD: a->kernel_old = true; return -1;
    case BOOT_STATS: a->stats = true; return -1;
    case BOOT_PROFILE: a->profile = true; return -1;
    case BOOT_STRICT: a->strict = true; return -1;
    case BOOT_WINDOW: a->window = true; return -1;
    case BOOT_BOARD: a->board_name = arg; return -1;
    case BOOT_OUT: a->out = arg; return -1;
    case BOOT_EXPECT: a->expect = arg; return -1;
    case BOOT_DUMP_TILES: a->tiles_out = arg; return -1;
    case BOOT_PNG_AT: a->png_at = arg; return -1;
    case BOOT_LOAD_ADDR: a->load = num, a->have_load = true; return -1;
    case BOOT_FRAMES: a->frames = num; return -1;
    case BOOT_MAX_INSNS: a->max_insns = num; return -1;
    case BOOT_TIME: a->time_s = num; return -1;
    case BOOT_QPUS: a->qpus = num; return -1;
    }
    return 2;
}

int cmd_boot(int argc, char **argv)
{
    struct boot_args args = {.max_insns = 2000000000ull, .time_s = 10};
    int rc = tool_parse_args(&boot_cmd, argc, argv, 1, boot_arg, &args);
    if (rc >= 0)
        return rc;
    const char *image = args.image, *out = args.out, *expect = args.expect, *tiles_out = args.tiles_out,
               *board_name = args.board_name;
    bool aarch64 = args.aarch64, kernel_old = args.kernel_old, stats = args.stats, strict = args.strict,
         have_load = args.have_load;
    uint64_t load = args.load, frames = args.frames, max_insns = args.max_insns, time_s = args.time_s,
             qpus = args.qpus;
    if (!image) {
        usage(stderr);
        return 2;
    }

    /* the board: the flag, else the name the firmware would look for */
    const char *base = strrchr(image, '/');
    base = base ? base + 1 : image;
    enum vc4_pi_board board = VC4_PI1;
    if (!strncmp(base, "kernel8", 7))
        board = VC4_PI3, aarch64 = true;
    else if (!strncmp(base, "kernel7", 7) || strstr(base, "pi2"))
        board = VC4_PI2;
    else if (strstr(base, "pi3"))
        board = VC4_PI3, aarch64 = strstr(base, "pi3_64") != NULL;
    if (board_name) {
        if (!strcmp(board_name, "pi1")) board = VC4_PI1;
        else if (!strcmp(board_name, "pi2")) board = VC4_PI2;
        else if (!strcmp(board_name, "pi3")) board = VC4_PI3;
        else {
            tool_error("boot: --board takes pi1, pi2 or pi3, not '%s'", board_name);
            return 2;
        }
    }
    if (time_s > 1000000) {
        tool_error("boot: --time takes at most 1000000 seconds");
        return 2;
    }
    if (aarch64 && board != VC4_PI3) {
        tool_error("boot: only a Pi 3 runs AArch64 images (--board pi3)");
        return 2;
    }

    /* OUT's stem for the numbered frames */
    char stem[4096];
    const char *o_path = out ? out : base;
    size_t sl = strlen(o_path);
    if (ends_with(o_path, ".png") || ends_with(o_path, ".img"))
        sl -= 4;
    if (sl >= sizeof stem - 8) {
        tool_error("boot: output name too long");
        return 2;
    }
    memcpy(stem, o_path, sl);
    stem[sl] = 0;
    char final_png[sizeof stem + 8];
    snprintf(final_png, sizeof final_png, "%s.png", stem);

    struct boot_out bo = {.stem = stem};
    size_t n_at = 0;
    if (args.png_at && !(n_at = parse_times(args.png_at, bo.at_us, BOOT_MAX_AT)))
        return 2;

    size_t len = 0;
    uint8_t *img = tool_read_file(image, &len);
    if (!img)
        return 2;

    struct tool_diags diags = {0};
    struct vc4_diag_sink sink = tool_stderr_sink(&diags);
    struct vc4_emu_options eo = {.sink = sink, .strict = strict, .num_qpus = (unsigned)qpus,
                                 .profile = args.profile};
    char jit_dir[4096];
    vc4_jit_options_from_env(&eo, jit_dir, sizeof jit_dir);
    struct vc4_emu *emu = vc4_emu_create(&eo);
    bo.sink = sink;
    struct vc4_arm_options ao = vc4_arm_defaults(board, aarch64);
    ao.sink = sink;
    ao.load_addr = have_load ? (uint32_t)load : kernel_old ? 0 : ao.load_addr;
    ao.max_insns = max_insns;
    ao.max_time_us = time_s * 1000000u;
    ao.max_frames = frames;
    ao.uart = uart_out;
    if (args.window) {
        char title[4096 + 64];
        snprintf(title, sizeof title, "vc4kit boot %s (%s%s)", base, vc4_arm_board_name(board), aarch64 ? ", AArch64" : "");
        if (!(bo.window = boot_window_open(title))) {
            vc4_emu_destroy(emu);
            free(img);
            return 2;
        }
        ao.tick_us = BOOT_WINDOW_TICK_US;
        ao.on_tick = on_tick;
        ao.tick_user = &bo;
    }
    if (frames || args.window) {
        bo.frame_pngs = frames != 0;
        ao.on_frame = on_frame;
        ao.frame_user = &bo;
    }
    if (n_at) {
        ao.at_us = bo.at_us;
        ao.n_at = n_at;
        ao.on_time = on_time;
        ao.time_user = &bo;
    }
    struct vc4_arm *arm = emu ? vc4_arm_create(emu, &ao) : NULL;
    bo.arm = arm;
    rc = 0;
    if (!arm || vc4_arm_load(arm, img, len) != VC4_OK)
        rc = 2;
    free(img);
    struct vc4_arm_result r = {0};
    if (rc == 0) {
        enum vc4_status st = vc4_arm_run(arm, &r);
        fflush(stdout);
        fprintf(stderr, "vc4kit: boot: %s on %s%s: %s at PC 0x%08llx; %llu instructions, %.6f s emulated, "
                        "%llu V3D frames\n",
                image, vc4_arm_board_name(board), aarch64 ? " (AArch64)" : "", vc4_arm_end_name(r.end),
                (unsigned long long)r.pc, (unsigned long long)r.insns, (double)r.time_us / 1e6,
                (unsigned long long)r.frames);
        bool clean = r.end == VC4_ARM_END_PARKED || r.end == VC4_ARM_END_WFI || r.end == VC4_ARM_END_FRAME_LIMIT ||
                     r.end == VC4_ARM_END_STOPPED;
        bool parked = r.end == VC4_ARM_END_PARKED || r.end == VC4_ARM_END_WFI;
        for (size_t i = r.times_reached; i < n_at; i++) {
            /* a parked CPU changes nothing more: its frame buffer is the
             * picture at the later times; else the time was never reached */
            char path[sizeof stem + 48];
            at_path(path, sizeof path, stem, bo.at_us[i]);
            if (parked)
                on_time(&bo, arm, i, bo.at_us[i]);
            else
                tool_error("boot: --png-at: the run ended at %llu us, before %llu us: no %s",
                           (unsigned long long)r.time_us, (unsigned long long)bo.at_us[i], path);
        }
        if (st != VC4_OK || !clean)
            rc = 1;
        if (bo.rc)
            rc = bo.rc;
        if (stats) {
            /* the ARM side, then the V3D's counters as `vc4kit render --stats` prints them */
            printf("boot stats:\n  arm: instructions %llu, emulated time %llu us, V3D kicks %llu, "
                   "unknown peripheral accesses %llu, IRQs taken %llu\n",
                   (unsigned long long)r.insns, (unsigned long long)r.time_us, (unsigned long long)r.v3d_kicks,
                   (unsigned long long)r.unknown_accesses, (unsigned long long)r.irqs);
            printf("  v3d: frames %llu\n", (unsigned long long)r.frames);
            tool_print_stats(stdout, emu, "  ");
        }
        if (args.profile)
            tool_print_profile(stdout, emu, "");
        if (tiles_out) {
            size_t need = 0;
            char *text = NULL;
            if (vc4_emu_dump_tile_lists(emu, NULL, 0, &need) == VC4_ERR_INVALID) {
                tool_error("boot: --dump-tiles: the program configured no tile binning");
                rc = rc ? rc : 1;
            } else if (!(text = malloc(need + 1)) || vc4_emu_dump_tile_lists(emu, text, need + 1, &need) != VC4_OK ||
                       !tool_write_file(tiles_out, text, need)) {
                rc = 2;
            }
            free(text);
        }
        uint8_t *rgba = NULL;
        unsigned w = 0, h = 0;
        struct vc4_arm_display d;
        vc4_arm_display(arm, &d);
        if (d.valid || expect) {
            if (!write_display(arm, final_png, sink, &rgba, &w, &h))
                rc = rc ? rc : 1;
            else if (expect && rc == 0)
                rc = expect_png(expect, rgba, w, h, sink);
        }
        free(rgba);
        if (bo.window && window_update(&bo, arm))
            boot_window_hold(bo.window);
    }
    if (bo.window)
        boot_window_close(bo.window);
    free(bo.window_rgba);
    vc4_arm_destroy(arm);
    vc4_emu_destroy(emu);
    return rc;
}
#endif
