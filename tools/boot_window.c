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
#include <SDL.h>
#include <stdlib.h>
#include <string.h>

struct boot_window {
    SDL_Window *win;
    SDL_Renderer *ren;
    SDL_Texture *tex;
    unsigned tw, th;
    uint64_t start_ms;
    bool closed;
};

struct boot_window *boot_window_open(const char *title)
{
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        tool_error("boot: --window: SDL cannot start its video: %s", SDL_GetError());
        return NULL;
    }
    struct boot_window *w = calloc(1, sizeof *w);
    if (w)
        w->win = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, 640, 480, SDL_WINDOW_RESIZABLE);
    if (w && w->win)
        w->ren = SDL_CreateRenderer(w->win, -1, 0);
    if (!w || !w->win || !w->ren) {
        tool_error("boot: --window: SDL cannot open a window: %s", SDL_GetError());
        boot_window_close(w);
        return NULL;
    }
    w->start_ms = SDL_GetTicks();
    return w;
}

static void poll(struct boot_window *w)
{
    SDL_Event e;
    while (SDL_PollEvent(&e))
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
            SDL_DestroyTexture(w->tex);
        w->tex = SDL_CreateTexture(w->ren, SDL_PIXELFORMAT_RGBA32, SDL_TEXTUREACCESS_STREAMING, (int)width,
                                   (int)height);
        w->tw = width, w->th = height;
        SDL_SetWindowSize(w->win, (int)width, (int)height);
        SDL_RenderSetLogicalSize(w->ren, (int)width, (int)height);
    }
    if (w->tex) {
        SDL_UpdateTexture(w->tex, NULL, rgba, (int)width * 4);
        SDL_RenderClear(w->ren);
        SDL_RenderCopy(w->ren, w->tex, NULL, NULL);
        SDL_RenderPresent(w->ren);
    }
    poll(w);
    return !w->closed;
}

bool boot_window_pace(struct boot_window *w, uint64_t emu_us)
{
    poll(w);
    uint64_t due = w->start_ms + emu_us / 1000, now = SDL_GetTicks();
    while (!w->closed && now < due) { /* ahead of the wall clock: wait, a little at a time */
        uint64_t d = due - now;
        SDL_Delay(d > 20 ? 20 : (Uint32)d);
        poll(w);
        now = SDL_GetTicks();
    }
    return !w->closed;
}

void boot_window_hold(struct boot_window *w)
{
    const char *driver = SDL_GetCurrentVideoDriver();
    if (!driver || !strcmp(driver, "dummy") || !strcmp(driver, "offscreen"))
        return;
    fprintf(stderr, "vc4kit: boot: the run has ended; close the window (or press Escape) to exit\n");
    while (!w->closed) {
        SDL_Delay(20);
        poll(w);
    }
}

void boot_window_close(struct boot_window *w)
{
    if (w) {
        if (w->tex)
            SDL_DestroyTexture(w->tex);
        if (w->ren)
            SDL_DestroyRenderer(w->ren);
        if (w->win)
            SDL_DestroyWindow(w->win);
        free(w);
    }
    SDL_Quit();
}
#endif
