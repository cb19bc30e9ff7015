/*
 * shader.c - what the kernel learns from a shader BO at creation (Linux
 * vc4_validate_shaders.c, vc4_validate_shader): how many bytes of uniforms
 * the program reads, and where in that stream each texture lookup's
 * parameters sit, so that a submit can copy the right number of uniforms
 * and relocate each texture's base address (p0) to its BO.
 *
 * The kernel's accounting, carried over:
 *  - the program ends two instructions after the PROG_END signal; code past
 *    that is never looked at, and a BO without an end is rejected;
 *  - an ALU instruction reading raddr 32 (the uniform FIFO) on file A, or on
 *    file B without a small immediate, consumes one uniform (4 bytes) - one
 *    even when both files read it;
 *  - writes are checked before reads (check_instruction_writes, then
 *    check_instruction_reads), add ALU before mul ALU;
 *  - a write to a TMU register (TMU0_S..TMU1_B) is one texture parameter:
 *    its uniform offset is recorded as p0, p1, ... in order, and the TMU
 *    fetches it from the uniform stream itself (4 bytes), except for a
 *    "direct" lookup (an S write with no parameter before it), whose address
 *    is an add of a uniform (the base) counted as an ordinary read;
 *    writing S submits the lookup; more than 4 parameters is an error; a
 *    non-direct parameter write may not read a uniform in the same
 *    instruction.
 *
 * A thread switch (or last thread switch) makes the shader threaded; the
 * shader record must then say so (submit.c).  Not done yet: branches and
 * uniform address resets (UNIFORMS_ADDRESS writes) are rejected, so
 * GET_PARAM says branches are unsupported; the kernel's thread-switch
 * spacing and upper-register rules, its register whitelist and its
 * clamped direct-lookup check are not checked (issue 12, "kernel rules as
 * validator modes").
 */
#include <errno.h>

#include "kernel/kernel_internal.h"
#include "vc4kit/qpu.h"

#define NO_OFFSET 0xFFFFFFFFu

struct shader_state {
    struct vc4k *k;
    struct vc4k_shader_info *info;
    size_t cap;
    uint32_t tmu_count[2];
    struct vc4k_tex_sample tmu[2];
    uint32_t ip;
};

static bool fail(struct shader_state *st, const char *fmt, ...) VC4_PRINTF(2, 3);

static bool fail(struct shader_state *st, const char *fmt, ...)
{
    struct vc4_location loc = vc4_location_none();
    loc.addr = (int64_t)st->ip * 8;
    va_list ap;
    va_start(ap, fmt);
    vc4_diag_emitv(&st->k->sink, VC4_ERROR, VC4_DIAG_SEMANTIC, VC4K_UNIT, &loc, fmt, ap);
    va_end(ap);
    return false;
}

static void reset_tmu(struct vc4k_tex_sample *t)
{
    for (unsigned i = 0; i < 4; i++)
        t->p_offset[i] = NO_OFFSET;
    t->is_direct = false;
}

static bool reads_uniform(const struct vc4_qpu_instr *in)
{
    return in->raddr_a == VC4_QPU_R_UNIF ||
           (in->kind != VC4_QPU_KIND_ALU_SMALL_IMM && in->raddr_b == VC4_QPU_R_UNIF);
}

static bool tmu_write(struct shader_state *st, const struct vc4_qpu_instr *in, unsigned waddr, bool is_mul)
{
    unsigned tmu = waddr > VC4_QPU_W_TMU0_B;
    bool submit = waddr == VC4_QPU_W_TMU0_S || waddr == VC4_QPU_W_TMU1_S;
    bool direct = submit && st->tmu_count[tmu] == 0;
    struct vc4k_tex_sample *t = &st->tmu[tmu];

    if (direct) {
        /* The address must be an add whose second operand is a uniform
         * (the UBO base the submit relocates). */
        bool add_b_unif = (in->add_b == VC4_QPU_MUX_A && in->raddr_a == VC4_QPU_R_UNIF) ||
                          (in->add_b == VC4_QPU_MUX_B && in->raddr_b == VC4_QPU_R_UNIF &&
                           in->kind != VC4_QPU_KIND_ALU_SMALL_IMM);
        if (is_mul || in->op_add != VC4_QPU_A_ADD)
            return fail(st, "%s: a direct TMU lookup's address must be an add ALU add (-EINVAL)",
                        "CREATE_SHADER_BO");
        if (!add_b_unif)
            return fail(st, "%s: a direct TMU lookup must add a uniform (the base address) (-EINVAL)",
                        "CREATE_SHADER_BO");
        t->is_direct = true;
    } else if (reads_uniform(in)) {
        return fail(st, "%s: a uniform read in the same instruction as texture setup (-EINVAL)",
                    "CREATE_SHADER_BO");
    }
    if (st->tmu_count[tmu] >= 4)
        return fail(st, "%s: more than 4 texture parameters before the submit (-EINVAL)",
                    "CREATE_SHADER_BO");
    t->p_offset[st->tmu_count[tmu]++] = st->info->uniforms_size;
    if (!direct)
        st->info->uniforms_size += 4;
    if (submit) {
        struct vc4k_shader_info *info = st->info;
        struct vc4k_tex_sample *v = vc4_array_grow(st->k->alloc, info->samples, &st->cap,
                                                   info->num_samples + 1, sizeof *v, 4);
        if (!v)
            return fail(st, "%s: out of host memory (-ENOMEM)", "CREATE_SHADER_BO");
        info->samples = v;
        info->samples[info->num_samples++] = *t;
        reset_tmu(t);
        st->tmu_count[tmu] = 0;
    }
    return true;
}

static bool check_write(struct shader_state *st, const struct vc4_qpu_instr *in, unsigned waddr, bool is_mul)
{
    if (waddr >= VC4_QPU_W_TMU0_S && waddr <= VC4_QPU_W_TMU1_B)
        return tmu_write(st, in, waddr, is_mul);
    if (waddr == VC4_QPU_W_UNIFORMS_ADDRESS)
        return fail(st, "%s: uniform address writes are not supported yet (-EINVAL)", "CREATE_SHADER_BO");
    return true;
}

struct vc4k_shader_info *vc4k_shader_validate(struct vc4k *k, const uint8_t *code, uint32_t size)
{
    struct shader_state st = {.k = k};
    st.info = vc4_calloc(k->alloc, 1, sizeof *st.info);
    if (!st.info)
        return NULL;
    reset_tmu(&st.tmu[0]);
    reset_tmu(&st.tmu[1]);
    uint32_t n = size / 8, end = 0;
    bool found_end = false, ok = true;
    for (st.ip = 0; st.ip < n && ok; st.ip++) {
        struct vc4_qpu_instr in;
        vc4_qpu_decode(vc4_qpu_load_le(code + 8u * st.ip), &in);
        switch (in.kind) {
        case VC4_QPU_KIND_BRANCH:
            ok = fail(&st, "%s: branches are not supported yet (GET_PARAM SUPPORTS_BRANCHES is 0) (-EINVAL)",
                      "CREATE_SHADER_BO");
            break;
        case VC4_QPU_KIND_LOAD_IMM:
        case VC4_QPU_KIND_SEMAPHORE:
            ok = check_write(&st, &in, in.waddr_add, false) && check_write(&st, &in, in.waddr_mul, true);
            break;
        case VC4_QPU_KIND_ALU:
        case VC4_QPU_KIND_ALU_SMALL_IMM:
            if (in.sig == VC4_QPU_SIG_THREAD_SWITCH || in.sig == VC4_QPU_SIG_LAST_THREAD_SWITCH)
                st.info->is_threaded = true;
            ok = check_write(&st, &in, in.waddr_add, false) && check_write(&st, &in, in.waddr_mul, true);
            if (ok && reads_uniform(&in))
                st.info->uniforms_size += 4;
            break;
        }
        if (in.sig == VC4_QPU_SIG_PROG_END && in.kind != VC4_QPU_KIND_BRANCH && !found_end) {
            found_end = true;
            end = st.ip + 2;
        }
        if (found_end && st.ip == end)
            break;
    }
    if (ok && !(found_end && end < n)) {
        st.ip = n ? n - 1 : 0;
        ok = fail(&st, "%s: the shader does not end (PROG_END + 2 delay slots) inside its BO (-EINVAL)",
                  "CREATE_SHADER_BO");
    }
    if (!ok) {
        vc4k_shader_info_free(k, st.info);
        return NULL;
    }
    return st.info;
}

void vc4k_shader_info_free(struct vc4k *k, struct vc4k_shader_info *info)
{
    if (!info)
        return;
    vc4_free(k->alloc, info->samples);
    vc4_free(k->alloc, info);
}
