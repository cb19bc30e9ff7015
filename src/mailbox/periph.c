/*
 * periph.c - a live peripheral window: trap, decode, model, resume
 * (periph.h).
 *
 * How one access goes (x86-64 Linux):
 *  1. the program loads or stores into the PROT_NONE window: SIGSEGV with
 *     the faulting address (si_addr);
 *  2. the instruction at RIP is decoded with Zydis for its memory operand's
 *     size and whether it reads, writes or both (a `cmp [mem], imm` or an
 *     `or [mem], eax` as well as a plain mov: the program's own instruction
 *     runs, only its memory is ours);
 *  3. the words it covers are read from the model into the page (for a
 *     read, or a write of part of a word), the page is opened and the trap
 *     flag set (EFLAGS.TF, Intel SDM vol. 1 3.4.3.3: one instruction, then
 *     a debug trap, SIGTRAP);
 *  4. on SIGTRAP the words it wrote go to the model, the page is closed
 *     again, and the program continues.
 * A masked access touches only the elements its mask selects (Intel SDM
 * vol. 1 15.6.3: masked-out elements of a store are not written, and do
 * not fault); so the words the others cover are neither read from the
 * model nor written back.  glibc's AVX-512 memset stores a short length
 * with one masked 64-byte store (memset-vec-unaligned-erms.S, less_vec),
 * so CPython's struct.pack_into, which clears its bytes with memset before
 * packing, wrote zeros over the 15 registers after the one it meant when
 * the whole operand was taken as written (seen under `vc4kit exec
 * python3`: SRQUL and SRQCS cleared by a write of SRQUA).  The mask is
 * read from the signal frame: an EVEX opmask register, or for AVX's
 * vmaskmov / vpmaskmov and SSE's maskmovdqu / maskmovq the top bit of
 * each element of their mask operand; a compressing store writes the
 * selected elements packed at the operand's start.
 * Why Zydis (libzydis-dev) and not Capstone: it reports each operand's
 * exact read/write actions and width for every x86-64 instruction, decodes
 * without allocating (safe inside a signal handler) and is small; only
 * x86-64 resumption is implemented, so Capstone's other architectures
 * would buy nothing yet.
 * Limits (docs/exec.md): while the one instruction runs, the page is open
 * to other threads too; an access that straddles a page, a program that
 * installs its own SIGSEGV/SIGTRAP handler after mapping, and a program
 * that is itself being single-stepped are not handled.  Faults outside a
 * window go to the handler that was there before (or the default action).
 */
#define _GNU_SOURCE
#include "mailbox/periph.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

#if defined(__x86_64__) && defined(__linux__) && defined(VC4KIT_HAVE_ZYDIS)
#define PERIPH_TRAP 1
#include <Zydis/Zydis.h>
#include <cpuid.h>
#else
#define PERIPH_TRAP 0
#endif

#define PERIPH_MAX_WINDOWS 32
#define PERIPH_PAGE 4096u
#define PERIPH_WORD 4u
#define X86_MAX_INSN 15u          /* longest x86 instruction, bytes */
#define X86_EFLAGS_TF 0x100       /* trap flag */
#define X86_MAX_ACCESS 64u        /* widest memory operand (AVX-512), bytes */
#define X86_ACCESS_WORDS (X86_MAX_ACCESS / PERIPH_WORD + 1) /* words an unaligned widest access covers */

/* The extended registers in a signal frame (Linux arch/x86: the frame's
 * fpstate is the 512-byte FXSAVE area, then, when its software bytes carry
 * FP_XSTATE_MAGIC1, an XSAVE header and components in the standard
 * format, at the offsets CPUID leaf 0xD gives: Intel SDM vol. 1 13.4). */
#ifndef FP_XSTATE_MAGIC1 /* (glibc's bits/sigcontext.h has it) */
#define FP_XSTATE_MAGIC1 0x46505853u
#endif
#define FPSTATE_SW_BYTES 464u       /* where the FXSAVE area's struct _fpx_sw_bytes is (its unused words) */
#define XSAVE_HEADER 512u           /* XSTATE_BV: which components are not in their initial state (zeros) */
#define XSAVE_COMPONENTS 8u
#define XSAVE_YMM_HI128 2u          /* bits 255:128 of ymm0-15, 16 bytes each */
#define XSAVE_OPMASK 5u             /* k0-k7, 8 bytes each */

struct periph_window {
    uint8_t *base;
    size_t len;
    uint32_t phys;
    const struct vc4_periph_ops *ops;
    void *user;
    volatile int used;
};

/* All process state of the trap, in one place. */
static struct {
    pthread_mutex_t lock; /* map / unmap */
    struct periph_window win[PERIPH_MAX_WINDOWS];
    bool handlers;        /* SIGSEGV / SIGTRAP handlers installed */
    struct sigaction old_segv, old_trap;
#if PERIPH_TRAP
    ZydisDecoder dec;
    uint32_t xsave_off[XSAVE_COMPONENTS], xsave_size[XSAVE_COMPONENTS]; /* CPUID 0xD, 0 when absent */
#endif
} periph = {.lock = PTHREAD_MUTEX_INITIALIZER};

bool vc4_periph_supported(void)
{
    return PERIPH_TRAP;
}

#if PERIPH_TRAP
/* The instruction in flight on this thread. */
static __thread struct {
    bool active, write, changed_only;
    uint32_t before[X86_ACCESS_WORDS]; /* the words as filled in */
    uint8_t touched[X86_ACCESS_WORDS]; /* bit j: byte j of the word is accessed (a mask may leave some out) */
    uint8_t *page;
    const struct periph_window *w;
    unsigned first, last; /* word indexes in the page */
} pending;

static const struct periph_window *window_for(const uint8_t *a)
{
    for (unsigned i = 0; i < PERIPH_MAX_WINDOWS; i++) {
        const struct periph_window *w = &periph.win[i];
        if (w->used && a >= w->base && a < w->base + w->len)
            return w;
    }
    return NULL;
}

/* Hand a signal that is not ours to whoever had it before. */
static void chain(int sig, siginfo_t *si, void *ctx, const struct sigaction *old)
{
    if (old->sa_flags & SA_SIGINFO) {
        if (old->sa_sigaction) {
            old->sa_sigaction(sig, si, ctx);
            return;
        }
    } else if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
        old->sa_handler(sig);
        return;
    }
    /* default action: a fault re-executes and dies; a trap is re-raised */
    signal(sig, SIG_DFL);
    if (sig == SIGTRAP)
        raise(sig);
}

/* Copy the instruction bytes at pc without faulting on an unmapped page. */
static size_t copy_code(const uint8_t *pc, uint8_t *buf)
{
    struct iovec local = {buf, X86_MAX_INSN}, remote = {(void *)(uintptr_t)pc, X86_MAX_INSN};
    ssize_t n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
    if (n > 0)
        return (size_t)n;
    size_t in_page = PERIPH_PAGE - ((uintptr_t)pc & (PERIPH_PAGE - 1));
    size_t len = in_page < X86_MAX_INSN ? in_page : X86_MAX_INSN;
    memcpy(buf, pc, len);
    return len;
}

static uint32_t word_phys(const struct periph_window *w, const uint8_t *page, unsigned i)
{
    return w->phys + (uint32_t)(page - w->base) + PERIPH_WORD * i;
}

/* Bit b set for each of the first n bytes (n <= 64). */
static uint64_t low_bytes(unsigned n) { return n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1u; }

/* Bytes [at, at + len) of XSAVE component comp as the signal frame holds
 * them; false when the frame has no XSAVE area with it. */
static bool xsave_read(const ucontext_t *uc, unsigned comp, size_t at, void *out, size_t len)
{
    const uint8_t *fp = (const uint8_t *)uc->uc_mcontext.fpregs;
    struct _fpx_sw_bytes sw;
    uint64_t bv;
    if (!fp || comp >= XSAVE_COMPONENTS || at + len > periph.xsave_size[comp])
        return false;
    memcpy(&sw, fp + FPSTATE_SW_BYTES, sizeof sw);
    if (sw.magic1 != FP_XSTATE_MAGIC1 || !(sw.xstate_bv >> comp & 1u) ||
        periph.xsave_off[comp] + at + len > sw.xstate_size)
        return false;
    memcpy(&bv, fp + XSAVE_HEADER, sizeof bv);
    if (bv >> comp & 1u)
        memcpy(out, fp + periph.xsave_off[comp] + at, len);
    else
        memset(out, 0, len); /* (the component's initial state) */
    return true;
}

/* The first len bytes (at most 32) of an mm, xmm or ymm register as the
 * signal frame holds them. */
static bool vector_read(const ucontext_t *uc, ZydisRegister r, uint8_t *out, unsigned len)
{
    const struct _libc_fpstate *fp = uc->uc_mcontext.fpregs;
    ZyanI8 id = ZydisRegisterGetId(r);
    if (!fp || id < 0 || id > 15)
        return false;
    switch (ZydisRegisterGetClass(r)) {
    case ZYDIS_REGCLASS_MMX: /* (mm n is the significand of st n) */
        if (len > 8 || id > 7)
            return false;
        memcpy(out, fp->_st[id].significand, len);
        return true;
    case ZYDIS_REGCLASS_XMM:
    case ZYDIS_REGCLASS_YMM:
        if (len > 32)
            return false;
        memcpy(out, fp->_xmm[id].element, len < 16 ? len : 16);
        return len <= 16 || xsave_read(uc, XSAVE_YMM_HI128, 16u * (unsigned)id, out + 16, len - 16);
    default:
        return false;
    }
}

/* The address a memory operand starts at, from the registers (the
 * faulting address is only some byte the access reached); false for a
 * segment base (fs, gs) or vector indexes, which are not worked out. */
static bool operand_address(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *mem,
                            const ucontext_t *uc, uintptr_t *out)
{
    /* Zydis's register ids 0-15 of rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8-r15 */
    static const int greg[16] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
                                 REG_R8,  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15};
    const ZydisRegister regs[2] = {mem->mem.base, mem->mem.index};
    uint64_t val[2] = {0, 0};
    if (mem->mem.segment == ZYDIS_REGISTER_FS || mem->mem.segment == ZYDIS_REGISTER_GS)
        return false;
    for (unsigned i = 0; i < 2; i++) {
        ZydisRegister r = regs[i];
        if (r == ZYDIS_REGISTER_NONE)
            continue;
        if (r == ZYDIS_REGISTER_RIP || r == ZYDIS_REGISTER_EIP) { /* (after the instruction) */
            val[i] = (uint64_t)uc->uc_mcontext.gregs[REG_RIP] + in->length;
            continue;
        }
        ZydisRegisterClass c = ZydisRegisterGetClass(r);
        ZyanI8 id = ZydisRegisterGetId(r);
        if ((c != ZYDIS_REGCLASS_GPR64 && c != ZYDIS_REGCLASS_GPR32) || id < 0 || id > 15)
            return false;
        val[i] = (uint64_t)uc->uc_mcontext.gregs[greg[id]];
        if (c == ZYDIS_REGCLASS_GPR32)
            val[i] &= 0xFFFFFFFFu;
    }
    uint64_t a = val[0] + val[1] * (mem->mem.scale ? mem->mem.scale : 1u) + (uint64_t)mem->mem.disp.value;
    if (in->address_width == 32)
        a &= 0xFFFFFFFFu;
    *out = (uintptr_t)a;
    return true;
}

/* Which of the memory operand's size bytes the instruction accesses (bit
 * b: byte b), into *bytes: all of them unless it is masked (the top of
 * this file).  False when its mask cannot be read. */
static bool accessed_bytes(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *op,
                           const ZydisDecodedOperand *mem, const ucontext_t *uc, unsigned size, uint64_t *bytes)
{
    *bytes = low_bytes(size);
    uint64_t elems = 0; /* bit e: element e selected */
    unsigned esize, count;
    bool compress = false;
    /* (a broadcast reads its one element whatever the mask selects) */
    if (in->encoding == ZYDIS_INSTRUCTION_ENCODING_EVEX && in->avx.mask.reg >= ZYDIS_REGISTER_K1 &&
        in->avx.mask.reg <= ZYDIS_REGISTER_K7 && in->avx.broadcast.mode == ZYDIS_BROADCAST_MODE_INVALID) {
        esize = mem->element_size / 8u;
        count = mem->element_count;
        if (!xsave_read(uc, XSAVE_OPMASK, 8u * (unsigned)(in->avx.mask.reg - ZYDIS_REGISTER_K0), &elems,
                        sizeof elems))
            return false;
        switch (in->mnemonic) {
        case ZYDIS_MNEMONIC_VCOMPRESSPS: case ZYDIS_MNEMONIC_VCOMPRESSPD: case ZYDIS_MNEMONIC_VPCOMPRESSB:
        case ZYDIS_MNEMONIC_VPCOMPRESSW: case ZYDIS_MNEMONIC_VPCOMPRESSD: case ZYDIS_MNEMONIC_VPCOMPRESSQ:
            compress = true;
            break;
        default:
            break;
        }
    } else {
        switch (in->mnemonic) {
        case ZYDIS_MNEMONIC_MASKMOVQ: case ZYDIS_MNEMONIC_MASKMOVDQU: case ZYDIS_MNEMONIC_VMASKMOVDQU:
            esize = 1;
            break;
        case ZYDIS_MNEMONIC_VMASKMOVPS: case ZYDIS_MNEMONIC_VPMASKMOVD:
            esize = 4;
            break;
        case ZYDIS_MNEMONIC_VMASKMOVPD: case ZYDIS_MNEMONIC_VPMASKMOVQ:
            esize = 8;
            break;
        default:
            return true; /* not masked */
        }
        /* the mask is the second operand, in every form (SDM vol. 2) */
        uint8_t m[32];
        if (in->operand_count < 2 || op[1].type != ZYDIS_OPERAND_TYPE_REGISTER || size > sizeof m ||
            !vector_read(uc, op[1].reg.value, m, size))
            return false;
        count = size / esize;
        for (unsigned e = 0; e < count; e++)
            elems |= (uint64_t)(m[e * esize + esize - 1] >> 7) << e;
    }
    if (esize == 0 || count == 0 || esize * count != size)
        return false;
    elems &= low_bytes(count);
    if (compress) /* (the selected elements, packed from the first) */
        elems = low_bytes((unsigned)__builtin_popcountll(elems));
    *bytes = 0;
    for (unsigned e = 0; e < count; e++)
        if (elems >> e & 1u)
            *bytes |= low_bytes(esize) << (e * esize);
    return true;
}

static void on_segv(int sig, siginfo_t *si, void *vctx)
{
    ucontext_t *uc = vctx;
    const uint8_t *a = si->si_addr;
    if (!window_for(a) || pending.active) {
        chain(sig, si, vctx, &periph.old_segv);
        return;
    }
    uint8_t code[X86_MAX_INSN];
    size_t n = copy_code((const uint8_t *)uc->uc_mcontext.gregs[REG_RIP], code);
    ZydisDecodedInstruction in;
    ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];
    if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&periph.dec, code, n, &in, op))) {
        chain(sig, si, vctx, &periph.old_segv);
        return;
    }
    /* the memory operand; an instruction with two (movs, cmps) is taken as
     * reading and writing the window, and writes only the words it changed
     * (which of its addresses faulted is not worked out) */
    unsigned size = 0, actions = 0, mem_ops = 0;
    const ZydisDecodedOperand *mem = NULL;
    for (unsigned i = 0; i < in.operand_count; i++)
        if (op[i].type == ZYDIS_OPERAND_TYPE_MEMORY && op[i].mem.type == ZYDIS_MEMOP_TYPE_MEM) {
            unsigned bytes = op[i].size / 8u;
            if (bytes > size) {
                size = bytes;
                mem = &op[i];
            }
            actions |= op[i].actions;
            mem_ops++;
        }
    /* where it starts and which bytes it reaches: with one memory operand
     * worked out from the registers and its mask, else the faulting
     * address on */
    uintptr_t at = (uintptr_t)a;
    uint64_t bytes = low_bytes(size);
    if (size == 0 || size > X86_MAX_ACCESS ||
        (mem_ops == 1 && !accessed_bytes(&in, op, mem, uc, size, &bytes)) || /* a mask we cannot read */
        (mem_ops == 1 && !operand_address(&in, mem, uc, &at) && bytes != low_bytes(size)) || /* nor place */
        bytes == 0) { /* (faulted, yet reaches nothing) */
        chain(sig, si, vctx, &periph.old_segv); /* not an access we can model */
        return;
    }
    const uint8_t *lo = (const uint8_t *)at + __builtin_ctzll(bytes), *hi = (const uint8_t *)at + 63 - __builtin_clzll(bytes);
    uint8_t *page = (uint8_t *)((uintptr_t)lo & ~(uintptr_t)(PERIPH_PAGE - 1));
    const struct periph_window *w = window_for(lo);
    if (!w || hi >= page + PERIPH_PAGE || !window_for(hi) ||
        mprotect(page, PERIPH_PAGE, PROT_READ | PROT_WRITE) != 0) {
        chain(sig, si, vctx, &periph.old_segv); /* not an access we can model */
        return;
    }
    unsigned first = (unsigned)((size_t)(lo - page) / PERIPH_WORD), last = (unsigned)((size_t)(hi - page) / PERIPH_WORD);
    if (mem_ops > 1)
        actions |= ZYDIS_OPERAND_ACTION_MASK_READ;
    for (unsigned i = first; i <= last; i++) {
        /* the bytes of word i it reaches: a word it reaches in part is read
         * first, so that its other bytes go back as they were */
        unsigned touched = 0;
        for (unsigned j = 0; j < PERIPH_WORD; j++) {
            uintptr_t b = (uintptr_t)page + PERIPH_WORD * i + j;
            touched |= (unsigned)(b >= at && b - at < size && (bytes >> (b - at) & 1u)) << j;
        }
        uint32_t v = 0;
        if (touched && ((actions & ZYDIS_OPERAND_ACTION_MASK_READ) || touched != 0xFu))
            v = w->ops->read(w->user, word_phys(w, page, i));
        memcpy(page + PERIPH_WORD * i, &v, PERIPH_WORD);
        pending.before[i - first] = v;
        pending.touched[i - first] = (uint8_t)touched;
    }
    pending.active = true;
    pending.write = (actions & ZYDIS_OPERAND_ACTION_MASK_WRITE) != 0;
    pending.changed_only = mem_ops > 1;
    pending.page = page;
    pending.w = w;
    pending.first = first;
    pending.last = last;
    uc->uc_mcontext.gregs[REG_EFL] |= X86_EFLAGS_TF;
}

static void on_trap(int sig, siginfo_t *si, void *vctx)
{
    ucontext_t *uc = vctx;
    if (!pending.active) {
        chain(sig, si, vctx, &periph.old_trap);
        return;
    }
    const struct periph_window *w = pending.w;
    for (unsigned i = pending.first; i <= pending.last; i++) {
        uint32_t v;
        memcpy(&v, pending.page + PERIPH_WORD * i, PERIPH_WORD);
        if (pending.write && pending.touched[i - pending.first] &&
            (!pending.changed_only || v != pending.before[i - pending.first]))
            w->ops->write(w->user, word_phys(w, pending.page, i), v);
        memset(pending.page + PERIPH_WORD * i, 0, PERIPH_WORD);
    }
    mprotect(pending.page, PERIPH_PAGE, PROT_NONE);
    pending.active = false;
    uc->uc_mcontext.gregs[REG_EFL] &= ~(greg_t)X86_EFLAGS_TF;
}

static bool install_handlers(void)
{
    if (periph.handlers)
        return true;
    if (!ZYAN_SUCCESS(ZydisDecoderInit(&periph.dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)))
        return false;
    /* where a signal frame's XSAVE area keeps the components the masks are
     * in (CPUID.(EAX=0DH, ECX=i): EAX size, EBX offset) */
    unsigned eax, ebx, ecx, edx;
    if (__get_cpuid_max(0, NULL) >= 0xD)
        for (unsigned c = 2; c < XSAVE_COMPONENTS; c++)
            if (__get_cpuid_count(0xD, c, &eax, &ebx, &ecx, &edx) && ebx != 0) {
                periph.xsave_off[c] = ebx;
                periph.xsave_size[c] = eax;
            }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_flags = SA_SIGINFO | SA_RESTART; /* no SA_ONSTACK: the model runs on the thread's own stack */
    sigemptyset(&sa.sa_mask);
    sa.sa_sigaction = on_segv;
    if (sigaction(SIGSEGV, &sa, &periph.old_segv) != 0)
        return false;
    sa.sa_sigaction = on_trap;
    if (sigaction(SIGTRAP, &sa, &periph.old_trap) != 0) {
        sigaction(SIGSEGV, &periph.old_segv, NULL);
        return false;
    }
    periph.handlers = true;
    return true;
}
#endif

void *vc4_periph_map(void *addr, size_t len, bool fixed, uint32_t phys, const struct vc4_periph_ops *ops,
                     void *user)
{
#if PERIPH_TRAP
    if (len == 0 || len % PERIPH_PAGE || !ops) {
        errno = EINVAL;
        return NULL;
    }
    pthread_mutex_lock(&periph.lock);
    void *p = NULL;
    unsigned slot = 0;
    while (slot < PERIPH_MAX_WINDOWS && periph.win[slot].used)
        slot++;
    if (slot == PERIPH_MAX_WINDOWS) {
        errno = ENOMEM;
    } else if (!install_handlers()) {
        errno = ENOSYS;
    } else {
        p = mmap(addr, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | (fixed ? MAP_FIXED : 0), -1, 0);
        if (p == MAP_FAILED) {
            p = NULL;
        } else {
            struct periph_window *w = &periph.win[slot];
            w->base = p;
            w->len = len;
            w->phys = phys;
            w->ops = ops;
            w->user = user;
            w->used = 1;
        }
    }
    pthread_mutex_unlock(&periph.lock);
    return p;
#else
    (void)addr, (void)len, (void)fixed, (void)phys, (void)ops, (void)user;
    errno = ENOSYS;
    return NULL;
#endif
}

bool vc4_periph_unmap(void *addr, size_t len)
{
    bool ours = false;
    pthread_mutex_lock(&periph.lock);
    for (unsigned i = 0; i < PERIPH_MAX_WINDOWS; i++) {
        struct periph_window *w = &periph.win[i];
        uint8_t *a = addr;
        if (!w->used || a < w->base || a >= w->base + w->len)
            continue;
        ours = true;
        /* the system call itself: in the preload, munmap is the preload's */
        syscall(SYS_munmap, addr, len);
        if (a == w->base && len >= w->len)
            w->used = 0;
        break;
    }
    pthread_mutex_unlock(&periph.lock);
    return ours;
}
