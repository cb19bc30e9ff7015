/*
 * bo.c - the kernel stand-in's buffer objects: page-aligned ranges of the
 * emulator's RAM, named by GEM handles (Linux vc4_bo.c, drm_gem.c), and the
 * object itself (create, parameters, waits).
 *
 * Facts carried over from Linux:
 *  - handles are small integers from 1 up, the lowest free one first
 *    (drm_gem_handle_create: idr_alloc(&file->object_idr, obj, 1, 0));
 *  - BO memory is zeroed at creation (CMA memory from dma_alloc_wc) and a
 *    BO's size is rounded up to whole pages (vc4_bo_create: roundup(size,
 *    PAGE_SIZE));
 *  - a size of 0 is -EINVAL (vc4_create_bo_ioctl);
 *  - GET_PARAM answers the V3D IDENT registers and feature flags
 *    (vc4_get_param_ioctl); unknown parameters are -EINVAL.
 */
#include <errno.h>

#include "kernel/kernel_internal.h"

struct vc4k *vc4k_create(const struct vc4k_options *opts)
{
    if (!opts || !opts->emu)
        return NULL;
    struct vc4k *k = vc4_calloc(opts->alloc, 1, sizeof *k);
    if (!k)
        return NULL;
    k->emu = opts->emu;
    k->sink = opts->sink;
    k->alloc = opts->alloc;
    k->first_addr = opts->first_bo_addr ? opts->first_bo_addr : 64u * 1024u;
    k->first_addr = (k->first_addr + VC4K_PAGE - 1) & ~(VC4K_PAGE - 1);
    k->mem_size = vc4_emu_mem_size(opts->emu);
    k->max_cycles = opts->max_cycles;
    /* vc4_validate.c: "It must have at least 4096 bytes" (the kernel adds 1 MiB) */
    k->tile_alloc_extra = opts->tile_alloc_extra ? opts->tile_alloc_extra : 1024u * 1024u;
    if (k->tile_alloc_extra < 4096u)
        k->tile_alloc_extra = 4096u;
    return k;
}

void vc4k_destroy(struct vc4k *k)
{
    if (!k)
        return;
    for (size_t i = 0; i < k->nbos; i++)
        if (k->bos[i].used)
            vc4k_shader_info_free(k, k->bos[i].shader);
    vc4_free(k->alloc, k->bos);
    vc4_free(k->alloc, k);
}

struct vc4_emu *vc4k_emu(struct vc4k *k)
{
    return k->emu;
}

/* ---- parameters ---------------------------------------------------------- */

int vc4k_get_param(struct vc4k *k, uint32_t param, uint64_t *value)
{
    uint32_t reg;
    switch (param) {
    case VC4K_PARAM_V3D_IDENT0:
    case VC4K_PARAM_V3D_IDENT1:
    case VC4K_PARAM_V3D_IDENT2:
        /* The kernel reads the registers (V3D_IDENT0 + 4 * n). */
        if (vc4_emu_reg_read(k->emu, VC4_V3D_IDENT0 + 4u * param, &reg) != VC4_OK)
            return -EINVAL;
        *value = reg;
        return 0;
    case VC4K_PARAM_SUPPORTS_ETC1:
    case VC4K_PARAM_SUPPORTS_THREADED_FS:
    case VC4K_PARAM_SUPPORTS_FIXED_RCL_ORDER:
    case VC4K_PARAM_SUPPORTS_MADVISE:
    case VC4K_PARAM_SUPPORTS_BRANCHES:
        /* Branches: validated with their uniform-address resets (shader.c),
         * the submit writes the stream's address where a reset reads it;
         * test_kernel's test_branch_fs and gl-check's loop / if cases run
         * such shaders. */
        *value = 1;
        return 0;
    case VC4K_PARAM_SUPPORTS_PERFMON:
        /* No performance counters in the stand-in. */
        *value = 0;
        return 0;
    default:
        vc4_diag_emit(&k->sink, VC4_ERROR, VC4_DIAG_SEMANTIC, VC4K_UNIT, NULL,
                      "GET_PARAM: unknown parameter %u (-EINVAL)", param);
        return -EINVAL;
    }
}

/* ---- allocation ---------------------------------------------------------- */

/* The lowest page-aligned gap of size bytes at or above first_addr. */
static bool find_gap(const struct vc4k *k, uint32_t size, uint32_t *addr)
{
    uint64_t cand = k->first_addr;
    bool moved = true;
    while (moved) {
        moved = false;
        for (size_t i = 1; i < k->nbos; i++) {
            const struct vc4k_bo *b = &k->bos[i];
            if (!b->used)
                continue;
            if (cand < (uint64_t)b->paddr + b->size && b->paddr < cand + size) {
                cand = (uint64_t)b->paddr + b->size;
                moved = true;
            }
        }
    }
    if (cand + size > k->mem_size)
        return false;
    *addr = (uint32_t)cand;
    return true;
}

uint32_t vc4k_bo_alloc(struct vc4k *k, uint32_t size, struct vc4k_bo **out)
{
    *out = NULL;
    if (size == 0)
        return 0;
    size = (uint32_t)(((uint64_t)size + VC4K_PAGE - 1) & ~(uint64_t)(VC4K_PAGE - 1));
    uint32_t addr;
    if (size == 0 || size > k->mem_size || !find_gap(k, size, &addr)) {
        uint32_t n = 0;
        uint64_t bytes = 0;
        vc4k_bo_usage(k, &n, &bytes);
        vc4_diag_emit(&k->sink, VC4_ERROR, VC4_DIAG_SEMANTIC, VC4K_UNIT, NULL,
                      "out of emulated GPU memory: %u bytes wanted, %u BOs hold %llu of %u bytes (-ENOMEM)",
                      size, n, (unsigned long long)bytes, k->mem_size);
        return 0;
    }
    uint32_t h = 1;
    while (h < k->nbos && k->bos[h].used)
        h++;
    if (h >= k->nbos) {
        struct vc4k_bo *v = vc4_array_grow(k->alloc, k->bos, &k->capbos, h + 1, sizeof *v, 64);
        if (!v)
            return 0;
        k->bos = v;
        for (size_t i = k->nbos; i <= h; i++)
            memset(&k->bos[i], 0, sizeof k->bos[i]);
        k->nbos = h + 1;
    }
    void *p = vc4_emu_mem_ptr(k->emu, addr, size);
    if (!p)
        return 0;
    memset(p, 0, size);
    struct vc4k_bo *b = &k->bos[h];
    memset(b, 0, sizeof *b);
    b->used = true;
    b->paddr = addr;
    b->size = size;
    *out = b;
    return h;
}

/* Handle 0 is never a BO, and drivers probe for an ioctl with it (Mesa's
 * vc4_resource.c takes GET_TILING's -ENOENT for handle 0 as "the ioctl
 * exists"): that lookup fails without a diagnostic. */
static struct vc4k_bo *lookup(struct vc4k *k, const char *what, uint32_t handle)
{
    struct vc4k_bo *b = vc4k_bo_get(k, handle);
    if (!b && handle != 0)
        vc4_diag_emit(&k->sink, VC4_ERROR, VC4_DIAG_SEMANTIC, VC4K_UNIT, NULL,
                      "%s: no BO with handle %u (-ENOENT)", what, handle);
    return b;
}

int vc4k_bo_create(struct vc4k *k, uint32_t size, uint32_t *handle)
{
    if (size == 0) {
        vc4_diag_emit(&k->sink, VC4_ERROR, VC4_DIAG_SEMANTIC, VC4K_UNIT, NULL,
                      "CREATE_BO: size 0 (-EINVAL)");
        return -EINVAL;
    }
    struct vc4k_bo *b;
    uint32_t h = vc4k_bo_alloc(k, size, &b);
    if (!h)
        return -ENOMEM;
    *handle = h;
    return 0;
}

int vc4k_bo_create_shader(struct vc4k *k, const void *code, uint32_t size, uint32_t *handle)
{
    /* vc4_create_shader_bo_ioctl: size a non-zero multiple of 8. */
    if (size == 0 || size % 8 != 0) {
        vc4_diag_emit(&k->sink, VC4_ERROR, VC4_DIAG_SEMANTIC, VC4K_UNIT, NULL,
                      "CREATE_SHADER_BO: size %u is not a non-zero multiple of 8 (-EINVAL)", size);
        return -EINVAL;
    }
    struct vc4k_shader_info *info = vc4k_shader_validate(k, code, size);
    if (!info)
        return -EINVAL;
    struct vc4k_bo *b;
    uint32_t h = vc4k_bo_alloc(k, size, &b);
    if (!h) {
        vc4k_shader_info_free(k, info);
        return -ENOMEM;
    }
    vc4_emu_mem_write(k->emu, b->paddr, code, size);
    b->shader = info;
    *handle = h;
    return 0;
}

int vc4k_bo_close(struct vc4k *k, uint32_t handle)
{
    struct vc4k_bo *b = lookup(k, "GEM_CLOSE", handle);
    if (!b)
        return -EINVAL; /* drm_gem_handle_delete */
    vc4k_shader_info_free(k, b->shader);
    memset(b, 0, sizeof *b);
    return 0;
}

int vc4k_bo_info(struct vc4k *k, uint32_t handle, uint32_t *paddr, uint32_t *size)
{
    struct vc4k_bo *b = lookup(k, "BO", handle);
    if (!b)
        return -ENOENT;
    if (paddr)
        *paddr = b->paddr;
    if (size)
        *size = b->size;
    return 0;
}

void *vc4k_bo_map(struct vc4k *k, uint32_t handle)
{
    struct vc4k_bo *b = vc4k_bo_get(k, handle);
    return b ? vc4_emu_mem_ptr(k->emu, b->paddr, b->size) : NULL;
}

int vc4k_bo_set_tiling(struct vc4k *k, uint32_t handle, uint64_t modifier)
{
    struct vc4k_bo *b = lookup(k, "SET_TILING", handle);
    if (!b)
        return -ENOENT;
    b->modifier = modifier;
    return 0;
}

int vc4k_bo_get_tiling(struct vc4k *k, uint32_t handle, uint64_t *modifier)
{
    struct vc4k_bo *b = lookup(k, "GET_TILING", handle);
    if (!b)
        return -ENOENT;
    *modifier = b->modifier;
    return 0;
}

int vc4k_bo_label(struct vc4k *k, uint32_t handle, const char *name, uint32_t len)
{
    (void)name;
    (void)len;
    return lookup(k, "LABEL_BO", handle) ? 0 : -ENOENT;
}

int vc4k_bo_madvise(struct vc4k *k, uint32_t handle, uint32_t madv, uint32_t *retained)
{
    if (madv > 1) { /* VC4_MADV_WILLNEED, VC4_MADV_DONTNEED */
        vc4_diag_emit(&k->sink, VC4_ERROR, VC4_DIAG_SEMANTIC, VC4K_UNIT, NULL,
                      "GEM_MADVISE: unknown advice %u (-EINVAL)", madv);
        return -EINVAL;
    }
    struct vc4k_bo *b = lookup(k, "GEM_MADVISE", handle);
    if (!b)
        return -ENOENT;
    if (b->shader) { /* vc4_bo_madvise_ioctl: not on shader BOs */
        vc4_diag_emit(&k->sink, VC4_ERROR, VC4_DIAG_SEMANTIC, VC4K_UNIT, NULL,
                      "GEM_MADVISE: BO %u is a shader BO (-EINVAL)", handle);
        return -EINVAL;
    }
    b->madv = madv;
    *retained = 1;
    return 0;
}

void vc4k_bo_usage(const struct vc4k *k, uint32_t *count, uint64_t *bytes)
{
    uint32_t n = 0;
    uint64_t s = 0;
    for (size_t i = 1; i < k->nbos; i++)
        if (k->bos[i].used) {
            n++;
            s += k->bos[i].size;
        }
    *count = n;
    *bytes = s;
}

int vc4k_wait_seqno(struct vc4k *k, uint64_t seqno)
{
    if (seqno > k->seqno) {
        vc4_diag_emit(&k->sink, VC4_ERROR, VC4_DIAG_SEMANTIC, VC4K_UNIT, NULL,
                      "WAIT_SEQNO: seqno %llu was never submitted (last %llu): it would never "
                      "signal (-ETIME)",
                      (unsigned long long)seqno, (unsigned long long)k->seqno);
        return -ETIME;
    }
    return 0;
}

int vc4k_wait_bo(struct vc4k *k, uint32_t handle)
{
    return lookup(k, "WAIT_BO", handle) ? 0 : -ENOENT;
}

uint64_t vc4k_last_seqno(const struct vc4k *k)
{
    return k->seqno;
}

uint64_t vc4k_overflows(const struct vc4k *k)
{
    return k->overflows;
}
