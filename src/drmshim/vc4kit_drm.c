/*
 * vc4kit_drm.c - a backend for Mesa's drm-shim (src/drm-shim in Mesa) that
 * answers the vc4 render node's ioctls with vc4kit's kernel stand-in
 * (src/kernel) over the emulator: libvc4kit_drm.so, preloaded by `vc4kit
 * exec`, makes an unmodified GL program see a Raspberry Pi's GPU as
 * /dev/dri/renderD128 (docs/opengl.md).
 *
 * drm-shim (Mesa's, linked in from the Mesa build scripts/mesa.sh makes)
 * fakes the device file, the sysfs files libdrm reads, the core DRM ioctls
 * (version, capabilities, syncobjs) and mmap of the render node; this file
 * supplies the driver's ioctls (DRM_COMMAND_BASE + DRM_VC4_*), translating
 * the uAPI structures (Mesa's include/drm-uapi/vc4_drm.h) to the library's.
 *
 * Buffer objects: the emulator's RAM is a memfd (vc4_emu_mem_fd); the
 * shim's own BO memory file is replaced by it, and each BO's mmap offset is
 * its bus address, so Mesa's mappings are the GPU's memory, without copies.
 * Handles are the kernel stand-in's; GEM_CLOSE is taken over from the shim
 * core so that closing a handle frees the BO.
 *
 * Environment (as `vc4kit exec` sets it): VC4KIT_MEM_SIZE (MiB of emulated
 * RAM, default 256), VC4KIT_QPUS, VC4KIT_STRICT, VC4KIT_MAX_CYCLES (per bin
 * or render job), VC4KIT_DIAG, VC4KIT_DIAG_FILE, VC4KIT_STATS and
 * VC4KIT_PROFILE (reported as the virtual Pi of `vc4kit exec` reports:
 * src/mailbox/hostlog.h), VC4KIT_DUMP_BIN_CL (a directory: each submit's
 * binning list, as the program handed it to the kernel, is written there
 * as bin-PID-N.cl for `vc4kit cl validate --kernel`).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "drm-shim/drm_shim.h"
#include "drm-uapi/vc4_drm.h"

#include "kernel/kernel.h"
#include "emu/jit_env.h"
#include "mailbox/hostlog.h"

/* drm-shim's core ioctl table (device.c): GEM_CLOSE is taken over. */
extern ioctl_fn_t core_ioctls[];

bool drm_shim_driver_prefers_first_render_node = true;

static struct {
    pthread_mutex_t lock;
    struct vc4_emu *emu;
    struct vc4k *k;
    struct shim_bo **maps; /* by handle: the shim's record of an mmap offset */
    size_t nmaps;
    struct vc4_hostlog log; /* diagnostics and statistics (hostlog.h) */
    /* VC4KIT_STATS: the submits, their host time, and whether a hung job
     * reset the GPU (its counters then start again) */
    uint64_t submits, refused, hung, submit_ns;
    bool used;         /* a vc4 ioctl came: the program uses the render node */
    char refusal[4200]; /* a bad option: what to say at the first vc4 ioctl */
    bool refusal_said;
    const char *dump_dir; /* VC4KIT_DUMP_BIN_CL */
    unsigned dumped;
} g = {.lock = PTHREAD_MUTEX_INITIALIZER};

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* A vc4 ioctl begins: the lock, and the program is one that uses the
 * render node (what it reports at exit is then its own). */
static void enter(void)
{
    pthread_mutex_lock(&g.lock);
    g.used = true;
}

/* At exit: the diagnostics' counts, and the statistics on request. */
static void at_exit(void)
{
    pthread_mutex_lock(&g.lock);
    vc4_hostlog_summary(&g.log);
    if (g.log.stats && g.emu && g.used) { /* (loaded into every program vc4kit exec runs) */
        vc4_hostlog_stats(&g.log, g.emu);
        struct vc4_emu_stats st;
        vc4_emu_stats(g.emu, &st);
        double secs = (double)g.submit_ns / 1e9;
        fprintf(g.log.out,
                "vc4kit stats: host: submits %" PRIu64 " (refused %" PRIu64 ", hung %" PRIu64 "), %.3f s in them, "
                "%.1f M QPU instructions/s%s\n",
                g.submits, g.refused, g.hung, secs, secs > 0 ? (double)st.instructions / secs / 1e6 : 0.0,
                g.hung ? " (the counts above start at the reset after the last hung job)" : "");
    }
    if (g.log.profile && g.emu && g.used)
        vc4_hostlog_profile(&g.log, g.emu);
    fflush(g.log.out);
    pthread_mutex_unlock(&g.lock);
}

static long env_long(const char *name, long def)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return def;
    char *end;
    long v = strtol(s, &end, 0);
    return *end ? def : v;
}

/* ---- ioctls ---- */

static int ret(int r)
{
    if (r < 0) {
        errno = -r;
        return -1;
    }
    return 0;
}

/* The binning list of a submit, raw, into VC4KIT_DUMP_BIN_CL (make gl-check
 * runs `vc4kit cl validate --kernel` over Mesa's lists).  Called locked. */
static void dump_bin_cl(const struct vc4k_submit *s)
{
    if (!g.dump_dir || !s->bin_cl)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s/bin-%ld-%u.cl", g.dump_dir, (long)getpid(), g.dumped++);
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "vc4kit: VC4KIT_DUMP_BIN_CL: cannot write %s\n", path);
        return;
    }
    if (fwrite(s->bin_cl, 1, s->bin_cl_size, f) != s->bin_cl_size)
        fprintf(stderr, "vc4kit: VC4KIT_DUMP_BIN_CL: short write to %s\n", path);
    fclose(f);
}

static int submit_cl(int fd, unsigned long request, void *arg)
{
    (void)fd;
    (void)request;
    struct drm_vc4_submit_cl *a = arg;
#define SURF(x) {a->x.hindex, a->x.offset, a->x.bits, a->x.flags}
    struct vc4k_submit s = {
        .bin_cl = (const uint8_t *)(uintptr_t)a->bin_cl, .bin_cl_size = a->bin_cl_size,
        .shader_rec = (const uint8_t *)(uintptr_t)a->shader_rec, .shader_rec_size = a->shader_rec_size,
        .shader_rec_count = a->shader_rec_count,
        .uniforms = (const uint8_t *)(uintptr_t)a->uniforms, .uniforms_size = a->uniforms_size,
        .bo_handles = (const uint32_t *)(uintptr_t)a->bo_handles, .bo_handle_count = a->bo_handle_count,
        .width = a->width, .height = a->height,
        .min_x_tile = a->min_x_tile, .min_y_tile = a->min_y_tile,
        .max_x_tile = a->max_x_tile, .max_y_tile = a->max_y_tile,
        .color_read = SURF(color_read), .color_write = SURF(color_write), .zs_read = SURF(zs_read),
        .zs_write = SURF(zs_write), .msaa_color_write = SURF(msaa_color_write),
        .msaa_zs_write = SURF(msaa_zs_write),
        .clear_color = {a->clear_color[0], a->clear_color[1]}, .clear_z = a->clear_z, .clear_s = a->clear_s,
        .flags = a->flags,
    };
#undef SURF
    if (a->perfmonid != 0)
        return ret(-ENOENT); /* no performance monitors (GET_PARAM says so) */
    enter();
    dump_bin_cl(&s);
    uint64_t t0 = now_ns();
    int r = vc4k_submit_cl(g.k, &s);
    g.submit_ns += now_ns() - t0;
    g.submits++;
    g.hung += r == -EIO; /* (the job did not finish: the GPU was reset) */
    g.refused += r != 0 && r != -EIO;
    a->seqno = r == 0 ? s.seqno : vc4k_last_seqno(g.k);
    pthread_mutex_unlock(&g.lock);
    return ret(r);
}

static int wait_seqno(int fd, unsigned long request, void *arg)
{
    (void)fd;
    (void)request;
    struct drm_vc4_wait_seqno *a = arg;
    enter();
    int r = vc4k_wait_seqno(g.k, a->seqno);
    pthread_mutex_unlock(&g.lock);
    return ret(r);
}

static int wait_bo(int fd, unsigned long request, void *arg)
{
    (void)fd;
    (void)request;
    struct drm_vc4_wait_bo *a = arg;
    enter();
    int r = vc4k_wait_bo(g.k, a->handle);
    pthread_mutex_unlock(&g.lock);
    return ret(r);
}

static int create_bo(int fd, unsigned long request, void *arg)
{
    (void)fd;
    (void)request;
    struct drm_vc4_create_bo *a = arg;
    enter();
    int r = vc4k_bo_create(g.k, a->size, &a->handle);
    pthread_mutex_unlock(&g.lock);
    return ret(r);
}

static int create_shader_bo(int fd, unsigned long request, void *arg)
{
    (void)fd;
    (void)request;
    struct drm_vc4_create_shader_bo *a = arg;
    if (a->flags || a->pad)
        return ret(-EINVAL);
    enter();
    int r = vc4k_bo_create_shader(g.k, (const void *)(uintptr_t)a->data, a->size, &a->handle);
    pthread_mutex_unlock(&g.lock);
    return ret(r);
}

static int mmap_bo(int fd, unsigned long request, void *arg)
{
    (void)fd;
    (void)request;
    struct drm_vc4_mmap_bo *a = arg;
    uint32_t paddr, size;
    enter();
    int r = vc4k_bo_info(g.k, a->handle, &paddr, &size);
    if (r == 0 && (a->handle >= g.nmaps || !g.maps[a->handle])) {
        if (a->handle >= g.nmaps) {
            size_t n = a->handle + 64;
            struct shim_bo **m = realloc(g.maps, n * sizeof *m);
            if (!m) {
                r = -ENOMEM;
                goto out;
            }
            memset(m + g.nmaps, 0, (n - g.nmaps) * sizeof *m);
            g.maps = m;
            g.nmaps = n;
        }
        struct shim_bo *bo = calloc(1, sizeof *bo);
        if (!bo) {
            r = -ENOMEM;
            goto out;
        }
        bo->mem_addr = paddr;
        bo->size = size;
        bo->refcount = 1;
        g.maps[a->handle] = bo;
        mtx_lock(&shim_device.mem_lock);
        _mesa_hash_table_u64_insert(shim_device.offset_map, paddr, bo);
        mtx_unlock(&shim_device.mem_lock);
    }
    if (r == 0)
        a->offset = paddr;
out:
    pthread_mutex_unlock(&g.lock);
    return ret(r);
}

static int gem_close(int fd, unsigned long request, void *arg)
{
    (void)fd;
    (void)request;
    struct drm_gem_close *a = arg;
    if (!a->handle)
        return 0;
    enter();
    if (a->handle < g.nmaps && g.maps[a->handle]) {
        mtx_lock(&shim_device.mem_lock);
        _mesa_hash_table_u64_remove(shim_device.offset_map, g.maps[a->handle]->mem_addr);
        mtx_unlock(&shim_device.mem_lock);
        free(g.maps[a->handle]);
        g.maps[a->handle] = NULL;
    }
    int r = vc4k_bo_close(g.k, a->handle);
    pthread_mutex_unlock(&g.lock);
    return ret(r);
}

static int get_hang_state(int fd, unsigned long request, void *arg)
{
    (void)fd;
    (void)request;
    (void)arg;
    return ret(-ENOENT); /* vc4_get_hang_state_ioctl: no hang recorded */
}

static int get_param(int fd, unsigned long request, void *arg)
{
    (void)fd;
    (void)request;
    struct drm_vc4_get_param *a = arg;
    if (a->pad)
        return ret(-EINVAL);
    enter();
    uint64_t v = 0;
    int r = vc4k_get_param(g.k, a->param, &v);
    if (r == 0)
        a->value = v;
    pthread_mutex_unlock(&g.lock);
    return ret(r);
}

static int set_tiling(int fd, unsigned long request, void *arg)
{
    (void)fd;
    (void)request;
    struct drm_vc4_set_tiling *a = arg;
    enter();
    int r = a->flags ? -EINVAL : vc4k_bo_set_tiling(g.k, a->handle, a->modifier);
    pthread_mutex_unlock(&g.lock);
    return ret(r);
}

static int get_tiling(int fd, unsigned long request, void *arg)
{
    (void)fd;
    (void)request;
    struct drm_vc4_get_tiling *a = arg;
    enter();
    uint64_t m = 0;
    int r = a->flags ? -EINVAL : vc4k_bo_get_tiling(g.k, a->handle, &m);
    if (r == 0)
        a->modifier = m;
    pthread_mutex_unlock(&g.lock);
    return ret(r);
}

static int label_bo(int fd, unsigned long request, void *arg)
{
    (void)fd;
    (void)request;
    struct drm_vc4_label_bo *a = arg;
    enter();
    int r = vc4k_bo_label(g.k, a->handle, (const char *)(uintptr_t)a->name, a->len);
    pthread_mutex_unlock(&g.lock);
    return ret(r);
}

static int gem_madvise(int fd, unsigned long request, void *arg)
{
    (void)fd;
    (void)request;
    struct drm_vc4_gem_madvise *a = arg;
    if (a->pad)
        return ret(-EINVAL);
    enter();
    int r = vc4k_bo_madvise(g.k, a->handle, a->madv, &a->retained);
    pthread_mutex_unlock(&g.lock);
    return ret(r);
}

static ioctl_fn_t driver_ioctls[] = {
    [DRM_VC4_SUBMIT_CL] = submit_cl,
    [DRM_VC4_WAIT_SEQNO] = wait_seqno,
    [DRM_VC4_WAIT_BO] = wait_bo,
    [DRM_VC4_CREATE_BO] = create_bo,
    [DRM_VC4_MMAP_BO] = mmap_bo,
    [DRM_VC4_CREATE_SHADER_BO] = create_shader_bo,
    [DRM_VC4_GET_HANG_STATE] = get_hang_state,
    [DRM_VC4_GET_PARAM] = get_param,
    [DRM_VC4_SET_TILING] = set_tiling,
    [DRM_VC4_GET_TILING] = get_tiling,
    [DRM_VC4_LABEL_BO] = label_bo,
    [DRM_VC4_GEM_MADVISE] = gem_madvise,
};

/* Every vc4 ioctl when an option was refused: the reason, said once (a
 * program that never opens the render node hears nothing), and no GPU. */
static int refused_ioctl(int fd, unsigned long request, void *arg)
{
    (void)fd;
    (void)request;
    (void)arg;
    pthread_mutex_lock(&g.lock);
    if (!g.refusal_said)
        fprintf(stderr, "vc4kit: %s; no GPU\n", g.refusal);
    g.refusal_said = true;
    pthread_mutex_unlock(&g.lock);
    return ret(-ENODEV);
}
static ioctl_fn_t refused_ioctls[sizeof driver_ioctls / sizeof driver_ioctls[0]];

/* The vc4 ioctls when there is no GPU: each fails after the reason. */
static void refuse(void)
{
    for (size_t i = 0; i < sizeof refused_ioctls / sizeof refused_ioctls[0]; i++)
        refused_ioctls[i] = refused_ioctl;
    shim_device.driver_ioctls = refused_ioctls;
    shim_device.driver_ioctl_count = sizeof refused_ioctls / sizeof refused_ioctls[0];
}

/* The emulated GPU behind the render node; false when there is none. */
static bool create_gpu(void)
{
    /* VC4KIT_DIAG, VC4KIT_DIAG_FILE, VC4KIT_STATS: a bad value means no
     * GPU, as the virtual Pi refuses itself */
    if (!vc4_hostlog_open(&g.log, g.refusal, sizeof g.refusal))
        return false;
    atexit(at_exit);
    long mib = env_long("VC4KIT_MEM_SIZE", 256);
    struct vc4_emu_options eo = {
        .mem_size = (uint32_t)((mib > 0 && mib <= 1024 ? mib : 256) << 20),
        .num_qpus = (unsigned)env_long("VC4KIT_QPUS", 0),
        .sink = {vc4_hostlog_sink, &g.log},
        .strict = env_long("VC4KIT_STRICT", 0) != 0,
        .max_cycles = (uint64_t)env_long("VC4KIT_MAX_CYCLES", 1000000000L),
        .profile = g.log.profile,
    };
    char jit_dir[4096];
    vc4_jit_options_from_env(&eo, jit_dir, sizeof jit_dir);
    g.emu = vc4_emu_create(&eo);
    struct vc4k_options ko = {.emu = g.emu, .sink = eo.sink};
    g.k = g.emu ? vc4k_create(&ko) : NULL;
    int memfd = g.emu ? vc4_emu_mem_fd(g.emu) : -1;
    if (!g.k || memfd < 0) {
        snprintf(g.refusal, sizeof g.refusal, "cannot create the emulated GPU (%ld MiB of file-backed RAM)", mib);
        return false;
    }
    close(shim_device.mem_fd);
    shim_device.mem_fd = memfd;
    shim_device.driver_ioctls = driver_ioctls;
    shim_device.driver_ioctl_count = sizeof driver_ioctls / sizeof driver_ioctls[0];
    core_ioctls[_IOC_NR(DRM_IOCTL_GEM_CLOSE)] = gem_close;
    return true;
}

void drm_shim_driver_init(void)
{
    const char *dd = getenv("VC4KIT_DUMP_BIN_CL");
    g.dump_dir = dd && *dd ? dd : NULL;
    shim_device.bus_type = DRM_BUS_PLATFORM;
    shim_device.driver_name = "vc4";
    shim_device.version_major = 0;
    shim_device.version_minor = 0;
    /* No GPU: the render node is still a vc4 one, so that Mesa loads its
     * driver, whose first vc4 ioctl then hears why and fails (a program
     * that never opens the render node hears nothing). */
    if (!create_gpu())
        refuse();

    /* What libdrm reads of a platform device (as Mesa's vc4_noop does). */
    drm_shim_override_file("OF_FULLNAME=/soc/gpu\n"
                           "OF_COMPATIBLE_N=1\n"
                           "OF_COMPATIBLE_0=brcm,bcm2835-vc4\n",
                           "/sys/dev/char/%d:%d/device/uevent", DRM_MAJOR, render_node_minor);
}
