/*
 * boot_window.h - `vc4kit boot --window`: the frame buffer in a live SDL2
 * window (Debian libsdl2-dev), built only when CMake finds SDL2
 * (VC4KIT_HAVE_SDL2); otherwise boot_window_open says the window is
 * unavailable.  Tool code: it prints to stderr like every command.
 */
#ifndef VC4KIT_BOOT_WINDOW_H
#define VC4KIT_BOOT_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

struct boot_window;

/* NULL (said on stderr) when SDL2 is not built in or cannot start. */
struct boot_window *boot_window_open(const char *title);
/* Show an RGBA picture; false once the user closed the window (or pressed
 * Escape / Q). */
bool boot_window_show(struct boot_window *w, const uint8_t *rgba, unsigned width, unsigned height);
/* Hold the emulation to wall-clock time: wait until emu_us of emulated
 * time have passed since the window opened; false once closed. */
bool boot_window_pace(struct boot_window *w, uint64_t emu_us);
/* After the run: keep the last picture up until the user closes the window
 * (not with SDL's dummy or offscreen video drivers: nobody can). */
void boot_window_hold(struct boot_window *w);
void boot_window_close(struct boot_window *w);

#endif
