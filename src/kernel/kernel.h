/*
 * kernel.h - the Linux vc4 DRM driver's side of the GPU, over the emulator:
 * what Mesa's vc4 Gallium driver asks the kernel for (buffer objects,
 * shader validation, command submission, waits), so an unmodified driver
 * can render through vc4kit (docs/opengl.md).
 *
 * The contract is Linux include/uapi/drm/vc4_drm.h (the same file Mesa ships
 * as include/drm-uapi/vc4_drm.h); the behaviour is Linux
 * drivers/gpu/drm/vc4: vc4_bo.c (buffer objects), vc4_gem.c (submit, waits),
 * vc4_validate.c (binning list and shader records), vc4_render_cl.c (the
 * rendering list the kernel writes), vc4_validate_shaders.c (shader BOs).
 * Mesa keeps a copy of the last four in src/gallium/drivers/vc4/kernel/ for
 * its simulator; the facts here were read there.  The code is vc4kit's own.
 *
 * The structures below are vc4kit's, not the uAPI's: the drm-shim backend
 * (src/drmshim/) translates the ioctl arguments.  Every call returns 0 or a
 * negative errno value, the kernel's for the same request (-EINVAL for a bad
 * submit, -ENOENT for an unknown handle, -ENOMEM when memory runs out), and
 * says why in a diagnostic (unit "kernel") sent to the sink.
 *
 * Buffer objects live in the emulator's RAM: a BO's bus address is its
 * offset in the RAM (the kernel's CMA "paddr"), so a host mapping of
 * vc4_emu_mem_fd() at that offset is the BO, without copies.
 *
 * Submits run synchronously: vc4k_submit_cl bins and renders before it
 * returns, so every seqno is already signalled and waits return at once.
 */
#ifndef VC4_KERNEL_KERNEL_H
#define VC4_KERNEL_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "vc4kit/diag.h"
#include "vc4kit/emu.h"

struct vc4k;

struct vc4k_options {
    struct vc4_emu *emu;               /* required; not owned */
    struct vc4_diag_sink sink;         /* diagnostics ({NULL} discards) */
    const struct vc4_allocator *alloc; /* host memory for the bookkeeping */
    uint32_t first_bo_addr;            /* lowest BO bus address; 0 = 64 KiB */
    uint64_t max_cycles;               /* per bin or render job; 0 = the emulator's budget */
    uint32_t tile_alloc_extra;         /* tile allocation bytes beyond the initial blocks; 0 = 1 MiB
                                        * as Linux; at least 4096 (tests make the binner overflow) */
};

struct vc4k *vc4k_create(const struct vc4k_options *opts);
void vc4k_destroy(struct vc4k *k);
struct vc4_emu *vc4k_emu(struct vc4k *k);

/* ---- parameters (DRM_IOCTL_VC4_GET_PARAM) ---- */

/* The uAPI's parameter numbers (vc4_drm.h DRM_VC4_PARAM_*). */
enum vc4k_param {
    VC4K_PARAM_V3D_IDENT0 = 0,
    VC4K_PARAM_V3D_IDENT1 = 1,
    VC4K_PARAM_V3D_IDENT2 = 2,
    VC4K_PARAM_SUPPORTS_BRANCHES = 3,
    VC4K_PARAM_SUPPORTS_ETC1 = 4,
    VC4K_PARAM_SUPPORTS_THREADED_FS = 5,
    VC4K_PARAM_SUPPORTS_FIXED_RCL_ORDER = 6,
    VC4K_PARAM_SUPPORTS_MADVISE = 7,
    VC4K_PARAM_SUPPORTS_PERFMON = 8,
};
int vc4k_get_param(struct vc4k *k, uint32_t param, uint64_t *value);

/* ---- buffer objects ---- */

int vc4k_bo_create(struct vc4k *k, uint32_t size, uint32_t *handle);
/* Copies the code into a new BO and validates it as the kernel does
 * (vc4_validate_shaders.c); a BO that fails is not created. */
int vc4k_bo_create_shader(struct vc4k *k, const void *code, uint32_t size, uint32_t *handle);
int vc4k_bo_close(struct vc4k *k, uint32_t handle);
/* Bus address and size (rounded up to pages) of a BO. */
int vc4k_bo_info(struct vc4k *k, uint32_t handle, uint32_t *paddr, uint32_t *size);
/* Host pointer to the BO's bytes (in the emulator's RAM), or NULL. */
void *vc4k_bo_map(struct vc4k *k, uint32_t handle);
int vc4k_bo_set_tiling(struct vc4k *k, uint32_t handle, uint64_t modifier);
int vc4k_bo_get_tiling(struct vc4k *k, uint32_t handle, uint64_t *modifier);
int vc4k_bo_label(struct vc4k *k, uint32_t handle, const char *name, uint32_t len);
/* madv: 0 WILLNEED, 1 DONTNEED (vc4_drm.h VC4_MADV_*); nothing is ever
 * purged, so *retained is always 1. */
int vc4k_bo_madvise(struct vc4k *k, uint32_t handle, uint32_t madv, uint32_t *retained);
/* BOs alive and the bytes they hold. */
void vc4k_bo_usage(const struct vc4k *k, uint32_t *count, uint64_t *bytes);

/* ---- submission (DRM_IOCTL_VC4_SUBMIT_CL) ---- */

/* One surface of the rendering list (drm_vc4_submit_rcl_surface). */
struct vc4k_surface {
    uint32_t hindex; /* index into bo_handles; ~0 = none */
    uint32_t offset;
    uint16_t bits;
    uint16_t flags;
};

#define VC4K_SURFACE_READ_IS_FULL_RES (1u << 0) /* VC4_SUBMIT_RCL_SURFACE_READ_IS_FULL_RES */

/* drm_vc4_submit_cl flags. */
enum {
    VC4K_SUBMIT_USE_CLEAR_COLOR = 1u << 0,
    VC4K_SUBMIT_FIXED_RCL_ORDER = 1u << 1,
    VC4K_SUBMIT_RCL_ORDER_INCREASING_X = 1u << 2,
    VC4K_SUBMIT_RCL_ORDER_INCREASING_Y = 1u << 3,
};

struct vc4k_submit {
    const uint8_t *bin_cl;
    uint32_t bin_cl_size;
    const uint8_t *shader_rec;
    uint32_t shader_rec_size;
    uint32_t shader_rec_count;
    const uint8_t *uniforms;
    uint32_t uniforms_size;
    const uint32_t *bo_handles;
    uint32_t bo_handle_count;
    uint16_t width, height;
    uint8_t min_x_tile, min_y_tile, max_x_tile, max_y_tile;
    struct vc4k_surface color_read, color_write, zs_read, zs_write, msaa_color_write, msaa_zs_write;
    uint32_t clear_color[2];
    uint32_t clear_z;
    uint8_t clear_s;
    uint32_t flags;
    uint64_t seqno; /* out */
};

int vc4k_submit_cl(struct vc4k *k, struct vc4k_submit *s);

/* Seqnos and BOs: submits are synchronous, so both return 0 at once for
 * anything already submitted; -ETIME for a seqno never handed out (the
 * kernel would wait for it until the timeout),
 * -ENOENT for an unknown BO. */
int vc4k_wait_seqno(struct vc4k *k, uint64_t seqno);
int vc4k_wait_bo(struct vc4k *k, uint32_t handle);
uint64_t vc4k_last_seqno(const struct vc4k *k);
/* Overflow memory blocks handed to the binner since creation. */
uint64_t vc4k_overflows(const struct vc4k *k);

#endif
