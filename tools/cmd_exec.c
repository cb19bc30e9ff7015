/*
 * cmd_exec.c - `vc4kit exec`: an unmodified Raspberry Pi GPU program on a
 * virtual Pi.  Sets the options as environment variables, puts the
 * preload library (src/host/preload.c) into LD_PRELOAD and the directory
 * of libbcm_host.so into LD_LIBRARY_PATH (GPU_FFT dlopens it), and
 * executes the program, which then finds /dev/vcio and /dev/mem emulated
 * (docs/exec.md).
 *
 *   vc4kit exec [OPTIONS] [--] CMD [ARGS...]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"

#define EXEC_PRELOAD_NAME "libvc4kit_exec.so"
#define EXEC_DRM_NAME "libvc4kit_drm.so"
#ifndef VC4KIT_INSTALL_LIBDIR
#define VC4KIT_INSTALL_LIBDIR "lib"
#endif

static void usage(FILE *f)
{
    fputs("usage: vc4kit exec [OPTIONS] [--] CMD [ARGS...]\n"
          "Run a Raspberry Pi GPU program (built for the host) on a virtual Pi: /dev/vcio is\n"
          "the firmware's mailbox property interface, /dev/mem maps emulated RAM and live V3D\n"
          "registers, all on the vc4kit emulator.  An OpenGL ES program gets the vc4 render\n"
          "node (Mesa's vc4 driver on vc4kit) when libvc4kit_drm.so is built (make mesa;\n"
          "docs/opengl.md).\n"
          "  --model pi1|pi2|pi3   the Pi to be (peripheral base, memory, clocks; default pi1)\n"
          "  --mem MIB             emulated RAM in MiB (default: the model's, 512 on a Pi 1)\n"
          "  --qpus N              QPUs (1..16, default 12)\n"
          "  --strict              hardware-rule violations stop the GPU as errors\n"
          "  --diag LEVEL          off, error, warn (default) or all: what goes to stderr, once\n"
          "                        per rule and address, with counts at exit\n"
          "  --diag-file FILE      diagnostics and statistics to FILE instead of stderr\n"
          "  --stats               every counter of the V3D and the host speed at exit\n"
          "  --profile             where the QPUs spent their cycles, by instruction, at exit\n"
          "                        (the 30 with most samples, disassembled)\n"
          "Each option sets the environment variable a relinked program reads (VC4KIT_MODEL,\n"
          "VC4KIT_MEM_SIZE, VC4KIT_QPUS, VC4KIT_STRICT, VC4KIT_DIAG, VC4KIT_DIAG_FILE,\n"
          "VC4KIT_STATS, VC4KIT_PROFILE).  Exit status: the program's, or 127 if it cannot be started, 2 on\n"
          "bad arguments.\n",
          f);
}

/* The directory this executable is in, or "" (no trailing slash). */
static void exe_dir(char *out, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    out[n > 0 ? n : 0] = 0;
    char *slash = strrchr(out, '/');
    if (slash)
        *slash = 0;
    else
        out[0] = 0;
}

/* The preload's path: $VC4KIT_PRELOAD, beside the executable (build
 * tree), or the installed library directory beside bin/.  Its directory
 * goes to dir. */
static bool find_preload(char *path, size_t size, char *dir, size_t dsize)
{
    const char *env = getenv("VC4KIT_PRELOAD");
    char here[PATH_MAX];
    exe_dir(here, sizeof here);
    char cand[2][PATH_MAX + 64];
    snprintf(cand[0], sizeof cand[0], "%s/%s", here, EXEC_PRELOAD_NAME);
    snprintf(cand[1], sizeof cand[1], "%s/../%s/%s", here, VC4KIT_INSTALL_LIBDIR, EXEC_PRELOAD_NAME);
    const char *pick = NULL;
    if (env && *env)
        pick = access(env, R_OK) == 0 ? env : NULL;
    else
        for (int i = 0; i < 2 && !pick; i++)
            if (access(cand[i], R_OK) == 0)
                pick = cand[i];
    if (!pick || !realpath(pick, path) || strlen(path) >= size)
        return false;
    snprintf(dir, dsize, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    return true;
}

/* NAME=old:value or NAME=value (value first, so it wins). */
static bool prepend_env(const char *name, const char *value, char sep)
{
    const char *old = getenv(name);
    if (!old || !*old)
        return setenv(name, value, 1) == 0;
    size_t n = strlen(value) + strlen(old) + 2;
    char *s = malloc(n);
    if (!s)
        return false;
    snprintf(s, n, "%s%c%s", value, sep, old);
    bool ok = setenv(name, s, 1) == 0;
    free(s);
    return ok;
}

int cmd_exec(int argc, char **argv)
{
    static const struct {
        const char *flag, *env;
        bool has_value;
    } opts[] = {
        {"--model", "VC4KIT_MODEL", true},  {"--mem", "VC4KIT_MEM_SIZE", true},
        {"--qpus", "VC4KIT_QPUS", true},    {"--diag", "VC4KIT_DIAG", true},
        {"--diag-file", "VC4KIT_DIAG_FILE", true}, {"--strict", "VC4KIT_STRICT", false},
        {"--stats", "VC4KIT_STATS", false}, {"--profile", "VC4KIT_PROFILE", false},
    };
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--")) {
            i++;
            break;
        }
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
        size_t k = 0;
        while (k < sizeof opts / sizeof opts[0] && strcmp(argv[i], opts[k].flag))
            k++;
        if (k == sizeof opts / sizeof opts[0]) {
            tool_error("exec: unknown option '%s' (try `vc4kit exec --help`)", argv[i]);
            return 2;
        }
        if (opts[k].has_value && i + 1 >= argc) {
            tool_error("exec: %s needs a value", argv[i]);
            return 2;
        }
        /* the values are checked where they are used, with one message */
        setenv(opts[k].env, opts[k].has_value ? argv[++i] : "1", 1);
    }
    if (i >= argc) {
        tool_error("exec: no program to run (usage: vc4kit exec [OPTIONS] [--] CMD [ARGS...])");
        return 2;
    }
    char preload[PATH_MAX], dir[PATH_MAX];
    if (!find_preload(preload, sizeof preload, dir, sizeof dir)) {
        tool_error("exec: cannot find %s (beside vc4kit or in ../%s; or set VC4KIT_PRELOAD)", EXEC_PRELOAD_NAME,
                   VC4KIT_INSTALL_LIBDIR);
        return 127;
    }
    /* GL programs: libvc4kit_drm.so (built when `make mesa` has built Mesa)
     * gives them the vc4 render node (docs/opengl.md); preloaded after the
     * exec preload, it sees what that one passes on. */
    char drm[PATH_MAX + 32];
    snprintf(drm, sizeof drm, "%s/%s", dir, EXEC_DRM_NAME);
    bool have_drm = access(drm, R_OK) == 0;
    if ((have_drm && !prepend_env("LD_PRELOAD", drm, ':')) || !prepend_env("LD_PRELOAD", preload, ':') ||
        !prepend_env("LD_LIBRARY_PATH", dir, ':')) {
        tool_error("exec: cannot set the environment");
        return 127;
    }
    execvp(argv[i], argv + i);
    tool_error("exec: %s: %s", argv[i], strerror(errno));
    return 127;
}
