/*
 * qpu_kernel.h - the Linux kernel's shader rules (internal): what
 * drivers/gpu/drm/vc4/vc4_validate_shaders.c (vc4_validate_shader) accepts
 * in a shader BO, and what it learns from it for the submit (the uniform
 * stream's size, texture lookups, uniform-address reset points, threading).
 *
 * One implementation, two users: `vc4kit as --check --kernel` (through
 * vc4_qpu_validate with kernel_rules) and the kernel stand-in's
 * CREATE_SHADER_BO (src/kernel/shader.c).
 */
#ifndef VC4_ISA_QPU_KERNEL_H
#define VC4_ISA_QPU_KERNEL_H

#include "base/base.h"

/* One texture lookup: the uniform-stream offsets (bytes) of its parameters
 * p0..p3 (VC4_KSHADER_NO_OFFSET = not written; for a direct lookup p1 is
 * the offset of the uniform its address was clamped against) and whether
 * it is a direct (general memory) lookup (vc4_texture_sample_info). */
#define VC4_KSHADER_NO_OFFSET 0xFFFFFFFFu
struct vc4_kshader_sample {
    uint32_t p_offset[4];
    bool is_direct;
};

/* What validation found (vc4_validated_shader_info). */
struct vc4_kshader_info {
    uint32_t uniforms_size;      /* bytes of uniforms the shader reads */
    uint32_t uniforms_src_size;  /* + one u32 BO index a lookup, as the submit supplies them */
    uint32_t num_samples;
    struct vc4_kshader_sample *samples;
    uint32_t num_uniform_addr_offsets;
    uint32_t *uniform_addr_offsets; /* in uniforms (u32s) from the stream's start */
    bool is_threaded;               /* has a thread switch */
};

/* How findings are reported: each as a rule diagnostic of this unit,
 * "<prefix>: <why><suffix>", at byte address base_addr + 8 * ip (file and
 * the assembler's line table optional). */
struct vc4_kshader_report {
    const char *unit;
    const char *prefix; /* optional */
    const char *suffix; /* optional */
    uint32_t base_addr;
    const char *file;
    const unsigned *lines;
};

/*
 * Validate n instruction words as the kernel does.  Like the kernel it stops
 * at the first violation: one diagnostic, VC4_ERR_RULE.  VC4_ERR_NOMEM when
 * the allocator fails.  On VC4_OK *out (zeroed first) holds the findings;
 * free them with vc4_kshader_info_fini.  out may be NULL.
 */
enum vc4_status vc4_kshader_validate(const uint64_t *words, size_t n, const struct vc4_allocator *alloc,
                                     const struct vc4_kshader_report *rep, const struct vc4_diag_sink *sink,
                                     struct vc4_kshader_info *out);
void vc4_kshader_info_fini(const struct vc4_allocator *alloc, struct vc4_kshader_info *info);

#endif
