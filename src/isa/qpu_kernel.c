/*
 * qpu_kernel.c - the Linux kernel's shader rules (qpu_kernel.h): what
 * drivers/gpu/drm/vc4/vc4_validate_shaders.c accepts in a shader BO.  These
 * are the kernel's security policy (the V3D has no IOMMU), not hardware
 * rules; `vc4kit as --check --kernel` and the kernel stand-in's
 * CREATE_SHADER_BO apply them.  Rule ids: kernel-* in src/spec/rules.c.
 *
 * Facts carried over from the kernel (function names are its own):
 *  - vc4_validate_branches, a first pass: the program ends 2 instructions
 *    after a PROG_END signal (the last one seen before that point); every
 *    branch before the end must be relative, not through a register, with a
 *    target that is a multiple of 8 bytes; its target (4 instructions after
 *    the branch plus target / 8) and its fall-through (branch + 4) must lie
 *    before the end; no branch within 3 instructions of the previous one;
 *    no fall-through after the PROG_END instruction;
 *  - vc4_validate_shader, the second pass, instruction by instruction:
 *    signals allowed: none, thread switch, last thread switch, program end,
 *    scoreboard wait / unlock, colour load, TMU0/1 loads, small immediate,
 *    load immediate (any mode, semaphores too) and branch; i.e. not
 *    breakpoint, coverage load, colour load and end, alpha-mask load;
 *  - at a branch target (or fall-through): no TMU setup may be in progress,
 *    the tracked register state is forgotten, and the uniforms address is
 *    undefined until the next uniform-address reset: no uniform read or
 *    texture parameter before it;
 *  - writes (check_reg_write, add ALU then mul ALU): HOST_INT, TMU_NOSWAP,
 *    TLB_ALPHA_MASK, MUTEX_RELEASE and VPM_ADDR (VPM DMA) are refused
 *    whichever file; UNIFORMS_ADDRESS only as the absolute reset pattern
 *    (validate_uniform_address_write); TMU writes are texture parameters
 *    (check_tmu_write); ADD and MUL may not both write TMU registers;
 *  - a TMU write is parameter p0, p1, ... of its unit's next lookup (at most
 *    4), each pulled from the uniform stream, except a direct lookup (an S
 *    write with no parameter before it): an add ALU ADD, not with a small
 *    immediate, whose first operand holds min(max(x, 0), uniform) (tracked
 *    through MAX with small immediate 0 then MIN with a uniform,
 *    track_live_clamps) and whose second operand is a uniform (the base);
 *    a parameter write may not read a uniform itself;
 *  - reads (check_instruction_reads): raddr 32 on file A, or on file B
 *    without a small immediate, is one uniform (one even if both read it);
 *    reading registers 16-31 marks the upper half used, as writing does;
 *  - thread switches: at least 3 instructions apart, no branch in the 2
 *    after one, r0-r3's tracked state forgotten 3 after; a shader with a
 *    thread switch may not use registers 16-31 of either file;
 *  - after a backward branch with no uniform-address reset since, the
 *    uniform stream carries one more uniforms address.
 * Tracked "live" registers: 32 of file A, 32 of file B, r0-r3 (indices
 * 0-31, 32-63, 64-67), as the kernel numbers them; like the kernel, the
 * first add operand's index for file A is raddr_a itself (so raddr_a 32-63
 * alias file B's slots).  Where the kernel would index past its arrays
 * (file B raddr 36-63 through the B mux) vc4kit treats the value as
 * unknown.
 *
 * Deviations, on purpose: a PROG_END in the last two words of the BO is
 * refused (the kernel would read past the BO); a recorded lookup forgets
 * is_direct (the kernel keeps it for the unit's later lookups: UNVERIFIED
 * that anything relies on that).
 */
#include "isa/qpu_kernel.h"

#include <stdio.h>
#include <string.h>

#include "spec/qpu_spec.h"
#include "spec/rules.h"

#define LIVE_A 0u
#define LIVE_B 32u
#define LIVE_ACC 64u
#define LIVE_COUNT 68u
#define NO_LIVE 0xFFFFFFFFu
#define NO_VALUE 0xFFFFFFFFu
#define INSTR_BYTES 8u
#define BRANCH_AFTER_DELAY 4u /* a branch's fall-through and target base: branch + 4 */
#define END_DELAY_SLOTS 2u
#define THRSW_DELAY 3u        /* the next thread switch or branch: 3 after */
#define UPPER_FIRST 16u       /* registers 16-31: the other thread's */
#define MAX_TMU_PARAMS 4u

struct kstate {
    const uint64_t *w;
    size_t n;
    const struct vc4_allocator *alloc;
    const struct vc4_kshader_report *rep;
    const struct vc4_diag_sink *sink;
    struct vc4_kshader_info *info;
    size_t ip, max_ip;
    size_t cap_samples, cap_offsets;
    struct vc4_kshader_sample tmu[2];
    unsigned tmu_count[2];
    uint32_t min_clamp[LIVE_COUNT];
    bool max_clamp[LIVE_COUNT];
    uint32_t imm[LIVE_COUNT];
    bool *target;
    bool needs_unif_addr, needs_unif_addr_for_loop, upper_used, nomem;
};

/* ---- raw fields, as the kernel's QPU_GET_FIELD reads them --------------- */

/* The field's bits, whatever form the word has (an ldi's "raddr" is part of
 * its immediate, and the kernel looks at it all the same). */
static uint32_t raw(uint64_t w, enum vc4_qpu_field f)
{
    const struct vc4_qpu_field_desc *d = &vc4_qpu_field_table[f];
    uint64_t mask = d->width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << d->width) - 1;
    return (uint32_t)((w >> d->shift) & mask);
}

static uint64_t cur(const struct kstate *s) { return s->w[s->ip]; }
static uint32_t field(const struct kstate *s, enum vc4_qpu_field f) { return raw(cur(s), f); }
static bool small_imm(const struct kstate *s) { return field(s, VC4_F_SIG) == VC4_QPU_SIG_SMALL_IMM; }

static bool fail(struct kstate *s, enum vc4_rule_id r, const char *fmt, ...) VC4_PRINTF(3, 4);

static bool fail(struct kstate *s, enum vc4_rule_id r, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const struct vc4_kshader_report *rep = s->rep;
    struct vc4_location loc = vc4_location_none();
    size_t at = s->ip < s->n ? s->ip : (s->n ? s->n - 1 : 0);
    loc.addr = (int64_t)rep->base_addr + (int64_t)(INSTR_BYTES * at);
    loc.file = rep->file;
    if (rep->lines && at < s->n)
        loc.line = rep->lines[at];
    vc4_rule_report(s->sink, VC4_ERROR, rep->unit, r, &loc, "%s%s%s%s", rep->prefix ? rep->prefix : "",
                    rep->prefix ? ": " : "", what, rep->suffix ? rep->suffix : "");
    return false;
}

static bool out_of_memory(struct kstate *s)
{
    s->nomem = true;
    return false;
}

/* waddr_to_live_reg_index */
static uint32_t live_of_waddr(uint32_t waddr, bool file_b)
{
    if (waddr < 32)
        return (file_b ? LIVE_B : LIVE_A) + waddr;
    if (waddr <= VC4_QPU_W_ACC3)
        return LIVE_ACC + waddr - VC4_QPU_W_ACC0;
    return NO_LIVE;
}

/* raddr_add_a_to_live_reg_index: the add ALU's first operand. */
static uint32_t live_of_add_a(const struct kstate *s)
{
    uint32_t add_a = field(s, VC4_F_ADD_A), lri = NO_LIVE;
    if (add_a == VC4_QPU_MUX_A)
        lri = field(s, VC4_F_RADDR_A);
    else if (add_a == VC4_QPU_MUX_B && !small_imm(s))
        lri = LIVE_B + field(s, VC4_F_RADDR_B);
    else if (add_a <= VC4_QPU_MUX_R3)
        lri = LIVE_ACC + add_a;
    return lri < LIVE_COUNT ? lri : NO_LIVE;
}

static bool live_is_upper(uint32_t lri)
{
    return (lri >= LIVE_A + UPPER_FIRST && lri < LIVE_B) || (lri >= LIVE_B + UPPER_FIRST && lri < LIVE_ACC);
}

/* Does the add ALU's second operand come from the uniform FIFO?  (The
 * kernel's tests differ in whether a small immediate excludes file B; the
 * caller says.) */
static bool add_b_is_uniform(const struct kstate *s, bool small_imm_excludes_b)
{
    uint32_t add_b = field(s, VC4_F_ADD_B);
    return (add_b == VC4_QPU_MUX_A && field(s, VC4_F_RADDR_A) == VC4_QPU_R_UNIF) ||
           (add_b == VC4_QPU_MUX_B && field(s, VC4_F_RADDR_B) == VC4_QPU_R_UNIF &&
            !(small_imm_excludes_b && small_imm(s)));
}

static bool reads_uniform(const struct kstate *s)
{
    return field(s, VC4_F_RADDR_A) == VC4_QPU_R_UNIF ||
           (field(s, VC4_F_RADDR_B) == VC4_QPU_R_UNIF && !small_imm(s));
}

static bool is_tmu(uint32_t w) { return w >= VC4_QPU_W_TMU0_S && w <= VC4_QPU_W_TMU1_B; }
static bool is_tmu_s(uint32_t w) { return w == VC4_QPU_W_TMU0_S || w == VC4_QPU_W_TMU1_S; }

static void forget_live(struct kstate *s, uint32_t from, uint32_t to)
{
    for (uint32_t i = from; i < to; i++) {
        s->min_clamp[i] = NO_VALUE;
        s->max_clamp[i] = false;
        s->imm[i] = NO_VALUE;
    }
}

/* reset_validation_state */
static void reset_state(struct kstate *s)
{
    for (unsigned t = 0; t < 2; t++)
        for (unsigned p = 0; p < MAX_TMU_PARAMS; p++)
            s->tmu[t].p_offset[p] = VC4_KSHADER_NO_OFFSET;
    forget_live(s, 0, LIVE_COUNT);
}

/* ---- texture lookups ------------------------------------------------------- */

static bool record_sample(struct kstate *s, unsigned t)
{
    struct vc4_kshader_info *info = s->info;
    struct vc4_kshader_sample *v = vc4_array_grow(s->alloc, info->samples, &s->cap_samples,
                                                  (size_t)info->num_samples + 1, sizeof *v, 4);
    if (!v)
        return out_of_memory(s);
    info->samples = v;
    info->samples[info->num_samples++] = s->tmu[t];
    for (unsigned p = 0; p < MAX_TMU_PARAMS; p++)
        s->tmu[t].p_offset[p] = VC4_KSHADER_NO_OFFSET;
    s->tmu[t].is_direct = false;
    return true;
}

/* check_tmu_write */
static bool tmu_write(struct kstate *s, uint32_t waddr, bool is_mul)
{
    unsigned t = waddr > VC4_QPU_W_TMU0_B;
    bool submit = is_tmu_s(waddr);
    bool direct = submit && s->tmu_count[t] == 0;
    if (direct) {
        if (small_imm(s))
            return fail(s, VC4_RULE_KERNEL_DIRECT_LOOKUP, "a direct TMU lookup may not use a small immediate");
        if (is_mul || field(s, VC4_F_OP_ADD) != VC4_QPU_A_ADD)
            return fail(s, VC4_RULE_KERNEL_DIRECT_LOOKUP, "a direct TMU lookup's address must be an add ALU add");
        uint32_t clamp = live_of_add_a(s);
        if (clamp == NO_LIVE || s->min_clamp[clamp] == NO_VALUE)
            return fail(s, VC4_RULE_KERNEL_DIRECT_LOOKUP,
                        "a direct TMU lookup's first operand must be clamped: max(x, 0) then min with a uniform");
        s->tmu[t].p_offset[1] = s->min_clamp[clamp];
        if (!add_b_is_uniform(s, false))
            return fail(s, VC4_RULE_KERNEL_DIRECT_LOOKUP,
                        "a direct TMU lookup must add a uniform (the base address) as its second operand");
        s->tmu[t].is_direct = true;
    } else if (reads_uniform(s)) {
        return fail(s, VC4_RULE_KERNEL_TMU_SETUP, "a uniform read in the same instruction as texture setup");
    }
    if (s->tmu_count[t] >= MAX_TMU_PARAMS)
        return fail(s, VC4_RULE_KERNEL_TMU_SETUP, "TMU%u got more than %u parameters before the S write", t,
                    MAX_TMU_PARAMS);
    s->tmu[t].p_offset[s->tmu_count[t]++] = s->info->uniforms_size;
    if (!direct) { /* a direct lookup's uniform is counted as a read */
        if (s->needs_unif_addr)
            return fail(s, VC4_RULE_KERNEL_UNIFORM_UNDEFINED,
                        "texturing while the uniforms address is undefined (after a branch target, before the reset)");
        s->info->uniforms_size += 4;
    }
    if (submit) {
        if (!record_sample(s, t))
            return false;
        s->tmu_count[t] = 0;
    }
    return true;
}

/* ---- uniforms address ------------------------------------------------------ */

static bool add_unif_addr_offset(struct kstate *s)
{
    struct vc4_kshader_info *info = s->info;
    uint32_t *v = vc4_array_grow(s->alloc, info->uniform_addr_offsets, &s->cap_offsets,
                                 (size_t)info->num_uniform_addr_offsets + 1, sizeof *v, 4);
    if (!v)
        return out_of_memory(s);
    info->uniform_addr_offsets = v;
    v[info->num_uniform_addr_offsets++] = info->uniforms_size / 4;
    return true;
}

/* validate_uniform_address_write: only the absolute reset
 * `add unif_addr, <ldi'd uniforms so far + 4>, unif`. */
static bool unif_addr_write(struct kstate *s, bool is_mul)
{
    uint32_t expected = s->info->uniforms_size + 4;
    switch (field(s, VC4_F_SIG)) {
    case VC4_QPU_SIG_NONE:
    case VC4_QPU_SIG_SCOREBOARD_UNLOCK:
    case VC4_QPU_SIG_COLOR_LOAD:
    case VC4_QPU_SIG_LOAD_TMU0:
    case VC4_QPU_SIG_LOAD_TMU1:
        break;
    default:
        return fail(s, VC4_RULE_KERNEL_UNIFORM_ADDRESS, "a uniforms address write must be normal ALU code (signal %u)",
                    field(s, VC4_F_SIG));
    }
    if (is_mul || field(s, VC4_F_OP_ADD) != VC4_QPU_A_ADD)
        return fail(s, VC4_RULE_KERNEL_UNIFORM_ADDRESS, "a uniforms address reset must be an add ALU add");
    if (field(s, VC4_F_COND_ADD) != VC4_QPU_COND_ALWAYS)
        return fail(s, VC4_RULE_KERNEL_UNIFORM_ADDRESS, "a uniforms address reset must be unconditional");
    if (field(s, VC4_F_PACK) != VC4_QPU_PACK_A_NOP && !field(s, VC4_F_PM))
        return fail(s, VC4_RULE_KERNEL_UNIFORM_ADDRESS, "no packing on a uniforms address reset");
    uint32_t lri = live_of_add_a(s);
    if (lri == NO_LIVE)
        return fail(s, VC4_RULE_KERNEL_UNIFORM_ADDRESS,
                    "a uniforms address reset's first operand must be a register loaded with an immediate");
    if (s->imm[lri] != expected)
        return fail(s, VC4_RULE_KERNEL_UNIFORM_ADDRESS,
                    "a uniforms address reset adds %s%u, not the %u bytes of uniforms read so far + 4",
                    s->imm[lri] == NO_VALUE ? "an unknown value, " : "", s->imm[lri] == NO_VALUE ? 0 : s->imm[lri],
                    expected);
    if (!add_b_is_uniform(s, false))
        return fail(s, VC4_RULE_KERNEL_UNIFORM_ADDRESS, "a uniforms address reset must add a uniform (the base)");
    s->needs_unif_addr = false;
    s->needs_unif_addr_for_loop = false;
    return add_unif_addr_offset(s);
}

/* ---- writes and reads -------------------------------------------------------- */

/* check_reg_write */
static bool reg_write(struct kstate *s, bool is_mul)
{
    uint32_t waddr = field(s, is_mul ? VC4_F_WADDR_MUL : VC4_F_WADDR_ADD);
    bool file_b = is_mul ^ (field(s, VC4_F_WS) != 0);
    uint32_t lri = live_of_waddr(waddr, file_b);
    if (lri != NO_LIVE) {
        uint32_t cond = field(s, is_mul ? VC4_F_COND_MUL : VC4_F_COND_ADD);
        bool ldi = field(s, VC4_F_SIG) == VC4_QPU_SIG_LOAD_IMM && field(s, VC4_F_PACK) == VC4_QPU_PACK_A_NOP &&
                   cond == VC4_QPU_COND_ALWAYS;
        s->imm[lri] = ldi ? field(s, VC4_F_IMM) : NO_VALUE;
        if (live_is_upper(lri))
            s->upper_used = true;
    }
    switch (waddr) {
    case VC4_QPU_W_UNIFORMS_ADDRESS:
        if (file_b)
            return fail(s, VC4_RULE_KERNEL_UNIFORM_ADDRESS, "relative uniforms address changes are refused");
        return unif_addr_write(s, is_mul);
    case VC4_QPU_W_HOST_INT:
    case VC4_QPU_W_TMU_NOSWAP:
    case VC4_QPU_W_TLB_ALPHA_MASK:
    case VC4_QPU_W_MUTEX_RELEASE:
        return fail(s, VC4_RULE_KERNEL_WADDR, "writes to %s are refused",
                    vc4_qpu_waddr_name(file_b, waddr) ? vc4_qpu_waddr_name(file_b, waddr) : "this register");
    case VC4_QPU_W_VPM_ADDR:
        return fail(s, VC4_RULE_KERNEL_WADDR, "general VPM DMA (a VPM DMA address write) is refused");
    default:
        if (is_tmu(waddr))
            return tmu_write(s, waddr, is_mul);
        return true; /* accumulators, registers, TLB, VPM and its setup, SFU, ... */
    }
}

/* track_live_clamps */
static void track_clamps(struct kstate *s)
{
    bool ws = field(s, VC4_F_WS) != 0;
    uint32_t lri_a = live_of_add_a(s);
    bool a_is_max0 = lri_a != NO_LIVE && s->max_clamp[lri_a];
    uint32_t lri_add = live_of_waddr(field(s, VC4_F_WADDR_ADD), ws);
    uint32_t lri_mul = live_of_waddr(field(s, VC4_F_WADDR_MUL), !ws);
    if (lri_mul != NO_LIVE) {
        s->max_clamp[lri_mul] = false;
        s->min_clamp[lri_mul] = NO_VALUE;
    }
    if (lri_add == NO_LIVE)
        return;
    s->max_clamp[lri_add] = false;
    s->min_clamp[lri_add] = NO_VALUE;
    if (field(s, VC4_F_COND_ADD) != VC4_QPU_COND_ALWAYS)
        return;
    uint32_t op = field(s, VC4_F_OP_ADD);
    if (op == VC4_QPU_A_MAX) {
        /* max(x, 0): the small immediate 0 through the B mux, either side */
        if (small_imm(s) && field(s, VC4_F_RADDR_B) == 0 &&
            (field(s, VC4_F_ADD_A) == VC4_QPU_MUX_B || field(s, VC4_F_ADD_B) == VC4_QPU_MUX_B))
            s->max_clamp[lri_add] = true;
    } else if (op == VC4_QPU_A_MIN) {
        if (a_is_max0 && add_b_is_uniform(s, true))
            s->min_clamp[lri_add] = s->info->uniforms_size;
    }
}

/* check_instruction_writes */
static bool writes(struct kstate *s)
{
    if (is_tmu(field(s, VC4_F_WADDR_ADD)) && is_tmu(field(s, VC4_F_WADDR_MUL)))
        return fail(s, VC4_RULE_KERNEL_TMU_SETUP, "the add and mul ALUs both set up textures");
    bool ok = reg_write(s, false) && reg_write(s, true);
    track_clamps(s);
    return ok;
}

/* check_instruction_reads */
static bool reads(struct kstate *s)
{
    if (reads_uniform(s)) {
        s->info->uniforms_size += 4;
        if (s->needs_unif_addr)
            return fail(s, VC4_RULE_KERNEL_UNIFORM_UNDEFINED,
                        "a uniform read while the uniforms address is undefined (after a branch target, before the "
                        "reset)");
    }
    uint32_t ra = field(s, VC4_F_RADDR_A), rb = field(s, VC4_F_RADDR_B);
    if ((ra >= UPPER_FIRST && ra < 32) || (rb >= UPPER_FIRST && rb < 32 && !small_imm(s)))
        s->upper_used = true;
    return true;
}

/* ---- branches ---------------------------------------------------------------- */

/* vc4_validate_branches: forms and targets, before the main pass. */
static bool check_branches(struct kstate *s)
{
    long last_branch = -(long)BRANCH_AFTER_DELAY;
    size_t max_after = 0;
    for (s->ip = 0; s->ip < s->max_ip; s->ip++) {
        uint32_t sig = field(s, VC4_F_SIG);
        if (sig == VC4_QPU_SIG_PROG_END) {
            s->max_ip = s->ip + END_DELAY_SLOTS + 1; /* may lie past the BO: refused later */
            if (s->max_ip > s->n)
                s->max_ip = s->n;
            continue;
        }
        if (sig != VC4_QPU_SIG_BRANCH)
            continue;
        if ((long)s->ip - last_branch < (long)BRANCH_AFTER_DELAY)
            return fail(s, VC4_RULE_KERNEL_BRANCH_FORM, "a branch in the delay slots of the branch at byte %ld",
                        last_branch * (long)INSTR_BYTES);
        last_branch = (long)s->ip;
        if (field(s, VC4_F_REG))
            return fail(s, VC4_RULE_KERNEL_BRANCH_FORM, "a branch through a register is refused");
        if (!field(s, VC4_F_REL))
            return fail(s, VC4_RULE_KERNEL_BRANCH_FORM, "branches must be relative");
        int32_t off = (int32_t)field(s, VC4_F_IMM);
        if (off % (int32_t)INSTR_BYTES != 0)
            return fail(s, VC4_RULE_KERNEL_BRANCH_FORM, "branch offset %d is not a multiple of 8", off);
        int64_t after = (int64_t)s->ip + BRANCH_AFTER_DELAY;
        int64_t target = after + off / (int32_t)INSTR_BYTES;
        if (target < 0 || target >= (int64_t)s->max_ip)
            return fail(s, VC4_RULE_KERNEL_BRANCH_TARGET, "the branch target (instruction %lld) is outside the shader",
                        (long long)target);
        s->target[target] = true;
        if (after >= (int64_t)s->max_ip)
            return fail(s, VC4_RULE_KERNEL_BRANCH_TARGET, "the branch falls through past the shader's end");
        s->target[after] = true;
        if ((size_t)after > max_after)
            max_after = (size_t)after;
    }
    if (s->max_ip >= END_DELAY_SLOTS + 1 && max_after > s->max_ip - (END_DELAY_SLOTS + 1)) {
        s->ip = max_after;
        return fail(s, VC4_RULE_KERNEL_BRANCH_TARGET, "a branch lands after the program end signal");
    }
    return true;
}

/* vc4_handle_branch_target */
static bool branch_target(struct kstate *s)
{
    if (!s->target[s->ip])
        return true;
    if (s->tmu_count[0] || s->tmu_count[1])
        return fail(s, VC4_RULE_KERNEL_BRANCH_TARGET, "a branch target in the middle of texture setup");
    reset_state(s);
    s->needs_unif_addr = true;
    return true;
}

/* ---- the shader -------------------------------------------------------------- */

static bool walk(struct kstate *s)
{
    if (!check_branches(s))
        return false;
    bool found_end = false;
    size_t end_ip = 0;
    int64_t last_thrsw = -(int64_t)THRSW_DELAY;
    for (s->ip = 0; s->ip < s->max_ip; s->ip++) {
        if (!branch_target(s))
            return false;
        if ((int64_t)s->ip == last_thrsw + THRSW_DELAY)
            forget_live(s, LIVE_ACC, LIVE_COUNT); /* r0-r3 belong to the other thread meanwhile */
        uint32_t sig = field(s, VC4_F_SIG);
        switch (sig) {
        case VC4_QPU_SIG_NONE:
        case VC4_QPU_SIG_WAIT_FOR_SCOREBOARD:
        case VC4_QPU_SIG_SCOREBOARD_UNLOCK:
        case VC4_QPU_SIG_COLOR_LOAD:
        case VC4_QPU_SIG_LOAD_TMU0:
        case VC4_QPU_SIG_LOAD_TMU1:
        case VC4_QPU_SIG_PROG_END:
        case VC4_QPU_SIG_SMALL_IMM:
        case VC4_QPU_SIG_THREAD_SWITCH:
        case VC4_QPU_SIG_LAST_THREAD_SWITCH:
            if (!writes(s) || !reads(s))
                return false;
            if (sig == VC4_QPU_SIG_PROG_END) {
                found_end = true;
                end_ip = s->ip;
            }
            if (sig == VC4_QPU_SIG_THREAD_SWITCH || sig == VC4_QPU_SIG_LAST_THREAD_SWITCH) {
                s->info->is_threaded = true;
                if ((int64_t)s->ip < last_thrsw + THRSW_DELAY)
                    return fail(s, VC4_RULE_KERNEL_THRSW_SPACING,
                                "a thread switch within 2 instructions of the previous one");
                last_thrsw = (int64_t)s->ip;
            }
            break;
        case VC4_QPU_SIG_LOAD_IMM:
            if (!writes(s))
                return false;
            break;
        case VC4_QPU_SIG_BRANCH:
            if (field(s, VC4_F_WADDR_ADD) != VC4_QPU_W_NOP || field(s, VC4_F_WADDR_MUL) != VC4_QPU_W_NOP)
                return fail(s, VC4_RULE_KERNEL_BRANCH_FORM, "a branch may not write a register (link address)");
            if ((int32_t)field(s, VC4_F_IMM) < 0)
                s->needs_unif_addr_for_loop = true;
            if ((int64_t)s->ip < last_thrsw + THRSW_DELAY)
                return fail(s, VC4_RULE_KERNEL_THRSW_SPACING, "a branch in the delay slots of a thread switch");
            break;
        default:
            return fail(s, VC4_RULE_KERNEL_SIGNAL, "signal %s is refused",
                        vc4_qpu_sigs[sig].hw ? vc4_qpu_sigs[sig].hw : "?");
        }
        if (found_end && s->ip == end_ip + END_DELAY_SLOTS)
            break;
    }
    if (!found_end || end_ip + END_DELAY_SLOTS >= s->n)
        return fail(s, VC4_RULE_KERNEL_SHADER_END,
                    "the shader does not end (PROG_END and its 2 delay slots) inside its %zu-byte BO",
                    s->n * INSTR_BYTES);
    if (s->info->is_threaded && s->upper_used) {
        s->ip = end_ip;
        return fail(s, VC4_RULE_KERNEL_THREADED_UPPER_REGS,
                    "the shader switches threads but uses registers 16-31 (the other thread's)");
    }
    if (s->needs_unif_addr_for_loop) {
        if (!add_unif_addr_offset(s))
            return false;
        s->info->uniforms_size += 4;
    }
    s->info->uniforms_src_size = s->info->uniforms_size + 4u * s->info->num_samples;
    return true;
}

enum vc4_status vc4_kshader_validate(const uint64_t *words, size_t n, const struct vc4_allocator *alloc,
                                     const struct vc4_kshader_report *rep, const struct vc4_diag_sink *sink,
                                     struct vc4_kshader_info *out)
{
    static const struct vc4_kshader_report plain = {.unit = "validate"};
    struct vc4_kshader_info local;
    struct kstate s = {.w = words, .n = n, .alloc = alloc, .rep = rep ? rep : &plain, .sink = sink,
                       .info = out ? out : &local, .max_ip = n};
    memset(s.info, 0, sizeof *s.info);
    if (!words && n)
        return VC4_ERR_INVALID;
    s.target = vc4_calloc(alloc, n ? n : 1, sizeof *s.target);
    if (!s.target)
        return VC4_ERR_NOMEM;
    reset_state(&s);
    bool ok = walk(&s);
    vc4_free(alloc, s.target);
    if (ok && out)
        return VC4_OK;
    vc4_kshader_info_fini(alloc, s.info);
    return ok ? VC4_OK : s.nomem ? VC4_ERR_NOMEM : VC4_ERR_RULE;
}

void vc4_kshader_info_fini(const struct vc4_allocator *alloc, struct vc4_kshader_info *info)
{
    if (!info)
        return;
    vc4_free(alloc, info->samples);
    vc4_free(alloc, info->uniform_addr_offsets);
    memset(info, 0, sizeof *info);
}
