/*
 * kernel_internal.h - state shared by the kernel stand-in's files: bo.c
 * (buffer objects in emulator RAM), shader.c (shader BO validation),
 * submit.c (binning list and shader records, running) and rcl.c (the
 * rendering list).
 */
#ifndef VC4_KERNEL_INTERNAL_H
#define VC4_KERNEL_INTERNAL_H

#include "base/base.h"
#include "kernel/kernel.h"

#define VC4K_PAGE 4096u
#define VC4K_UNIT "kernel"

/* One texture lookup of a shader: the uniform-stream offsets (bytes) of its
 * parameters p0..p3 (~0 = not written) and whether it is a direct (general
 * memory) lookup.  vc4_validate_shaders.c record_texture_sample. */
struct vc4k_tex_sample {
    uint32_t p_offset[4];
    bool is_direct;
};

/* What validating a shader BO found (vc4_validated_shader_info). */
struct vc4k_shader_info {
    uint32_t uniforms_size;     /* bytes of uniforms the shader reads */
    uint32_t num_samples;
    struct vc4k_tex_sample *samples;
    uint32_t num_uniform_addr_offsets;
    uint32_t *uniform_addr_offsets; /* u32 indices in the uniform stream: the submit writes its address there */
    bool is_threaded;
};

struct vc4k_bo {
    bool used;
    uint32_t paddr, size;
    uint64_t modifier;
    uint32_t madv;
    struct vc4k_shader_info *shader; /* shader BOs only */
};

struct vc4k {
    struct vc4_emu *emu;
    struct vc4_diag_sink sink;
    const struct vc4_allocator *alloc;
    uint32_t first_addr, mem_size;
    uint64_t max_cycles;
    uint32_t tile_alloc_extra;
    struct vc4k_bo *bos; /* index = handle; 0 is never a handle */
    size_t nbos, capbos;
    uint64_t seqno;
    uint64_t overflows;
    /* The overflow BO last handed to the binner (BPOA/BPOS still name it):
     * a later job's binner may take it when its tile allocation memory
     * runs out, so it outlives its job until the next one replaces it
     * (submit.c give_overflow; Linux vc4_irq.c bin_alloc_overflow). */
    uint32_t overflow_cur;
};

static inline struct vc4k_bo *vc4k_bo_get(struct vc4k *k, uint32_t handle)
{
    if (handle == 0 || handle >= k->nbos || !k->bos[handle].used)
        return NULL;
    return &k->bos[handle];
}

/* Allocate a BO of size bytes in emulator RAM; 0 on failure (*bo set). */
uint32_t vc4k_bo_alloc(struct vc4k *k, uint32_t size, struct vc4k_bo **bo);

/* shader.c: validate code (size bytes) as the kernel does; NULL and a
 * diagnostic if it would reject it. */
struct vc4k_shader_info *vc4k_shader_validate(struct vc4k *k, const uint8_t *code, uint32_t size);
void vc4k_shader_info_free(struct vc4k *k, struct vc4k_shader_info *info);

/* Memory formats of surfaces and textures (vc4_packet.h VC4_TILING_FORMAT_*). */
enum { VC4K_TILING_LINEAR = 0, VC4K_TILING_T = 1, VC4K_TILING_LT = 2 };
#define VC4K_MAX_DIM 4096u

/* rcl.c: does a width x height image of cpp bytes a pixel in this tiling
 * fit the BO from offset (vc4_check_tex_size)? */
bool vc4k_fits(const struct vc4k_bo *bo, uint32_t offset, unsigned tiling, uint32_t w, uint32_t h, uint32_t cpp);

/* rcl.c: the rendering control list for a submit, written into a BO the
 * function allocates; the bin tile arrays start at tile_alloc (bus). */
struct vc4k_rcl_in {
    const struct vc4k_submit *s;
    struct vc4k_bo *const *bos; /* the submit's BOs, by index */
    bool has_bin;
    uint8_t bin_tiles_x, bin_tiles_y;
    uint32_t tile_alloc;        /* bus address of tile 0's list */
};
int vc4k_rcl_build(struct vc4k *k, const struct vc4k_rcl_in *in, uint32_t *handle, uint32_t *start,
                   uint32_t *end);

#endif
