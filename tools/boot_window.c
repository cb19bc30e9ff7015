/*
 * boot_window.c - the live window of `vc4kit boot --window` (SDL2; see
 * boot_window.h).  One window, resized to the frame buffer, a streaming
 * RGBA texture; events polled at each picture and while pacing.
 */
#include "boot_window.h"

#include "tool.h"

#ifndef VC4KIT_HAVE_SDL2
struct boot_window *boot_window_open(const char *title)
{
    (void)title;
    tool_error("boot: --window is unavailable: this vc4kit was built without SDL2 "
               "(apt-get install libsdl2-dev, then rebuild)");
    return NULL;
}
bool boot_window_show(struct boot_window *w, const uint8_t *rgba, unsigned width, unsigned height)
{
    (void)w, (void)rgba, (void)width, (void)height;
    return false;
}
bool boot_window_pace(struct boot_window *w, uint64_t emu_us)
{
    (void)w, (void)emu_us;
    return false;
}
void boot_window_hold(struct boot_window *w) { (void)w; }
void boot_window_close(struct boot_window *w) { (void)w; }
#else
/* SDL2 is opened with dlopen when a window is asked for, not linked: the
 * library and what it pulls in would cost every vc4kit process (every
 * `vc4kit as`) about 15 ms of relocations at start-up. */
#define SDL_MAIN_HANDLED
#include <SDL.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#ifndef VC4KIT_SDL2_SONAME
#define VC4KIT_SDL2_SONAME "libSDL2-2.0.so.0"
#endif

/* The SDL functions the window calls, looked up by name. */
#define SDL_FUNCS(X)                                                                                    \
    X(SDL_Init) X(SDL_Quit) X(SDL_GetError) X(SDL_GetCurrentVideoDriver) X(SDL_CreateWindow)            \
    X(SDL_DestroyWindow) X(SDL_SetWindowSize) X(SDL_CreateRenderer) X(SDL_DestroyRenderer)              \
    X(SDL_RenderSetLogicalSize) X(SDL_RenderClear) X(SDL_RenderCopy) X(SDL_RenderPresent)               \
    X(SDL_CreateTexture) X(SDL_DestroyTexture) X(SDL_UpdateTexture) X(SDL_PollEvent) X(SDL_GetTicks)    \
    X(SDL_Delay)

struct sdl_api {
#define SDL_MEMBER(name) __typeof__(name) *name;
    SDL_FUNCS(SDL_MEMBER)
#undef SDL_MEMBER
};

struct boot_window {
    void *lib;
    struct sdl_api sdl;
    SDL_Window *win;
    SDL_Renderer *ren;
    SDL_Texture *tex;
    unsigned tw, th;
    uint32_t start_ms;
    bool closed, started;
};

/* dlsym gives an object pointer; a union carries it to the function
 * pointer (POSIX: the same representation), as arm.c's hook_fn does. */
static bool sdl_load(struct boot_window *w)
{
    w->lib = dlopen(VC4KIT_SDL2_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!w->lib) {
        tool_error("boot: --window: cannot load SDL2 (%s): %s", VC4KIT_SDL2_SONAME, dlerror());
        return false;
    }
#define SDL_LOAD(name)                                                                         \
    {                                                                                          \
        union { void *p; __typeof__(name) *f; } u = {dlsym(w->lib, #name)};                   \
        if (!u.p) {                                                                            \
            tool_error("boot: --window: %s has no %s", VC4KIT_SDL2_SONAME, #name);             \
            return false;                                                                      \
        }                                                                                      \
        w->sdl.name = u.f;                                                                     \
    }
    SDL_FUNCS(SDL_LOAD)
#undef SDL_LOAD
    return true;
}

struct boot_window *boot_window_open(const char *title)
{
    struct boot_window *w = calloc(1, sizeof *w);
    if (!w || !sdl_load(w)) {
        boot_window_close(w);
        return NULL;
    }
    if (w->sdl.SDL_Init(SDL_INIT_VIDEO) != 0) {
        tool_error("boot: --window: SDL cannot start its video: %s", w->sdl.SDL_GetError());
        boot_window_close(w);
        return NULL;
    }
    w->started = true;
    w->win = w->sdl.SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, 640, 480,
                                     SDL_WINDOW_RESIZABLE);
    if (w->win)
        w->ren = w->sdl.SDL_CreateRenderer(w->win, -1, 0);
    if (!w->win || !w->ren) {
        tool_error("boot: --window: SDL cannot open a window: %s", w->sdl.SDL_GetError());
        boot_window_close(w);
        return NULL;
    }
    w->start_ms = w->sdl.SDL_GetTicks();
    return w;
}

static void poll(struct boot_window *w)
{
    SDL_Event e;
    while (w->sdl.SDL_PollEvent(&e))
        if (e.type == SDL_QUIT ||
            (e.type == SDL_KEYDOWN && (e.key.keysym.sym == SDLK_ESCAPE || e.key.keysym.sym == SDLK_q)))
            w->closed = true;
}

bool boot_window_show(struct boot_window *w, const uint8_t *rgba, unsigned width, unsigned height)
{
    if (w->closed)
        return false;
    if (!w->tex || w->tw != width || w->th != height) {
        if (w->tex)
            w->sdl.SDL_DestroyTexture(w->tex);
        w->tex = w->sdl.SDL_CreateTexture(w->ren, SDL_PIXELFORMAT_RGBA32, SDL_TEXTUREACCESS_STREAMING, (int)width,
                                          (int)height);
        w->tw = width, w->th = height;
        w->sdl.SDL_SetWindowSize(w->win, (int)width, (int)height);
        w->sdl.SDL_RenderSetLogicalSize(w->ren, (int)width, (int)height);
    }
    if (w->tex) {
        w->sdl.SDL_UpdateTexture(w->tex, NULL, rgba, (int)width * 4);
        w->sdl.SDL_RenderClear(w->ren);
        w->sdl.SDL_RenderCopy(w->ren, w->tex, NULL, NULL);
        w->sdl.SDL_RenderPresent(w->ren);
    }
    poll(w);
    return !w->closed;
}

bool boot_window_pace(struct boot_window *w, uint64_t emu_us)
{
    poll(w);
    uint64_t due = w->start_ms + emu_us / 1000, now = w->sdl.SDL_GetTicks();
    while (!w->closed && now < due) { /* ahead of the wall clock: wait, a little at a time */
        uint64_t d = due - now;
        w->sdl.SDL_Delay(d > 20 ? 20 : (Uint32)d);
        poll(w);
        now = w->sdl.SDL_GetTicks();
    }
    return !w->closed;
}

void boot_window_hold(struct boot_window *w)
{
    const char *driver = w->sdl.SDL_GetCurrentVideoDriver();
    if (!driver || !strcmp(driver, "dummy") || !strcmp(driver, "offscreen"))
        return;
    fprintf(stderr, "vc4kit: boot: the run has ended; close the window (or press Escape) to exit\n");
    while (!w->closed) {
        w->sdl.SDL_Delay(20);
        poll(w);
    }
}

void boot_window_close(struct boot_window *w)
{
    if (!w)
        return;
    if (w->tex)
        w->sdl.SDL_DestroyTexture(w->tex);
    if (w->ren)
        w->sdl.SDL_DestroyRenderer(w->ren);
    if (w->win)
        w->sdl.SDL_DestroyWindow(w->win);
    if (w->started)
        w->sdl.SDL_Quit();
    if (w->lib)
        dlclose(w->lib);
    free(w);
}
#endif
