/*
 * shader.c - what the kernel does with a shader BO at creation (Linux
 * vc4_validate_shaders.c, vc4_validate_shader): it validates the code and
 * learns how many bytes of uniforms the program reads, where in that stream
 * each texture lookup's parameters sit (so that a submit can relocate each
 * texture's p0 to its BO), where the uniform stream must hold its own
 * address (uniform-address resets after branches), and whether the shader
 * switches threads.
 *
 * The rules and the accounting are src/isa/qpu_kernel.c's, the one
 * implementation `vc4kit as --check --kernel` uses too (its header comment
 * lists the kernel's rules); here they are applied to the BO's bytes and
 * reported as CREATE_SHADER_BO's -EINVAL.  Branches and threaded shaders are
 * accepted as the kernel accepts them; GET_PARAM says SUPPORTS_THREADED_FS 1
 * (Mesa's threaded fragment shaders render through make gl-check) and
 * SUPPORTS_BRANCHES 1 (bo.c): test_kernel's test_branch_fs submits a
 * branch and a reset, gl-check's loop_* and if_varying cases Mesa's.
 */
#include <errno.h>

#include "isa/qpu_kernel.h"
#include "kernel/kernel_internal.h"
#include "vc4kit/qpu.h"

static struct vc4k_shader_info *convert(struct vc4k *k, const struct vc4_kshader_info *ki)
{
    struct vc4k_shader_info *info = vc4_calloc(k->alloc, 1, sizeof *info);
    if (!info)
        return NULL;
    info->uniforms_size = ki->uniforms_size;
    info->is_threaded = ki->is_threaded;
    if (ki->num_samples) {
        info->samples = vc4_calloc(k->alloc, ki->num_samples, sizeof *info->samples);
        if (!info->samples)
            goto nomem;
        info->num_samples = ki->num_samples;
        for (uint32_t i = 0; i < ki->num_samples; i++) {
            for (unsigned p = 0; p < 4; p++)
                info->samples[i].p_offset[p] = ki->samples[i].p_offset[p];
            info->samples[i].is_direct = ki->samples[i].is_direct;
        }
    }
    if (ki->num_uniform_addr_offsets) {
        info->uniform_addr_offsets = vc4_calloc(k->alloc, ki->num_uniform_addr_offsets, sizeof(uint32_t));
        if (!info->uniform_addr_offsets)
            goto nomem;
        info->num_uniform_addr_offsets = ki->num_uniform_addr_offsets;
        for (uint32_t i = 0; i < ki->num_uniform_addr_offsets; i++)
            info->uniform_addr_offsets[i] = ki->uniform_addr_offsets[i];
    }
    return info;
nomem:
    vc4k_shader_info_free(k, info);
    return NULL;
}

struct vc4k_shader_info *vc4k_shader_validate(struct vc4k *k, const uint8_t *code, uint32_t size)
{
    uint32_t n = size / 8;
    uint64_t *words = vc4_malloc(k->alloc, (n ? n : 1) * sizeof *words);
    if (!words)
        return NULL;
    for (uint32_t i = 0; i < n; i++)
        words[i] = vc4_qpu_load_le(code + 8u * i);
    const struct vc4_kshader_report rep = {.unit = VC4K_UNIT, .prefix = "CREATE_SHADER_BO", .suffix = " (-EINVAL)"};
    struct vc4_kshader_info ki;
    enum vc4_status st = vc4_kshader_validate(words, n, k->alloc, &rep, &k->sink, &ki);
    vc4_free(k->alloc, words);
    if (st != VC4_OK)
        return NULL;
    struct vc4k_shader_info *info = convert(k, &ki);
    vc4_kshader_info_fini(k->alloc, &ki);
    return info;
}

void vc4k_shader_info_free(struct vc4k *k, struct vc4k_shader_info *info)
{
    if (!info)
        return;
    vc4_free(k->alloc, info->samples);
    vc4_free(k->alloc, info->uniform_addr_offsets);
    vc4_free(k->alloc, info);
}
