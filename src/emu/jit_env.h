/*
 * jit_env.h - the JIT's settings for vc4kit's programs (the command-line
 * tools, the mailbox stand-in behind `vc4kit exec`, the DRM backend behind
 * Mesa), read from the environment; the library itself reads none.
 *
 *   VC4KIT_JIT=0        interpret only (default: compiled blocks, jit.h)
 *   VC4KIT_JIT=eager    each block compiled the second time it is reached,
 *                       the program waiting for the compiler: slow, for
 *                       checking compiled code on a short program (make
 *                       gl-check compares its images with the default's)
 *   VC4KIT_THREADS=2    a second host thread for the compiled runs several
 *                       QPUs make side by side and for texture sampling
 *                       (par.h; default: one)
 *   VC4KIT_JIT_DIR=dir  where compiled blocks are kept; default
 *                       $XDG_CACHE_HOME/vc4kit/jit, else ~/.cache/vc4kit/jit
 */
#ifndef VC4_EMU_JIT_ENV_H
#define VC4_EMU_JIT_ENV_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vc4kit/emu.h"

/* Fills o's JIT fields; dir (n bytes) holds the directory's name until
 * vc4_emu_create has copied it. */
static inline void vc4_jit_options_from_env(struct vc4_emu_options *o, char *dir, size_t n)
{
    const char *on = getenv("VC4KIT_JIT");
    o->jit = on && !strcmp(on, "0") ? VC4_EMU_JIT_OFF : VC4_EMU_JIT_ON;
    bool eager = on && !strcmp(on, "eager");
    /* (compiling on the other core: a program never waits for the compiler) */
    o->jit_async = !eager;
    o->jit_threshold = eager ? 2u : 0u; /* (0: the library's default) */
    const char *th = getenv("VC4KIT_THREADS");
    o->host_threads = th && !strcmp(th, "2") ? 2u : 1u;
    const char *d = getenv("VC4KIT_JIT_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int len = -1;
    if (d && *d)
        len = snprintf(dir, n, "%s", d);
    else if (xdg && *xdg)
        len = snprintf(dir, n, "%s/vc4kit/jit", xdg);
    else if (home && *home)
        len = snprintf(dir, n, "%s/.cache/vc4kit/jit", home);
    /* (no usable name: a private temporary directory) */
    o->jit_dir = len > 0 && (size_t)len < n ? dir : NULL;
}

#endif
