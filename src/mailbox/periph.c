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
#else
#define PERIPH_TRAP 0
#endif

#define PERIPH_MAX_WINDOWS 32
#define PERIPH_PAGE 4096u
#define PERIPH_WORD 4u
#define X86_MAX_INSN 15u          /* longest x86 instruction, bytes */
#define X86_EFLAGS_TF 0x100       /* trap flag */
#define X86_MAX_ACCESS 64u        /* widest memory operand (AVX-512), bytes */

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
    uint32_t before[X86_MAX_ACCESS / PERIPH_WORD + 1]; /* the words as filled in */
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

static void on_segv(int sig, siginfo_t *si, void *vctx)
{
    ucontext_t *uc = vctx;
    const uint8_t *a = si->si_addr;
    const struct periph_window *w = window_for(a);
    if (!w || pending.active) {
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
    for (unsigned i = 0; i < in.operand_count; i++)
        if (op[i].type == ZYDIS_OPERAND_TYPE_MEMORY && op[i].mem.type == ZYDIS_MEMOP_TYPE_MEM) {
            unsigned bytes = op[i].size / 8u;
            size = bytes > size ? bytes : size;
            actions |= op[i].actions;
            mem_ops++;
        }
    uint8_t *page = (uint8_t *)((uintptr_t)a & ~(uintptr_t)(PERIPH_PAGE - 1));
    size_t off = (size_t)(a - page);
    if (size == 0 || size > X86_MAX_ACCESS || off + size > PERIPH_PAGE ||
        mprotect(page, PERIPH_PAGE, PROT_READ | PROT_WRITE) != 0) {
        chain(sig, si, vctx, &periph.old_segv); /* not an access we can model */
        return;
    }
    unsigned first = (unsigned)(off / PERIPH_WORD), last = (unsigned)((off + size - 1) / PERIPH_WORD);
    bool partial = off % PERIPH_WORD || (off + size) % PERIPH_WORD;
    if (mem_ops > 1)
        actions |= ZYDIS_OPERAND_ACTION_MASK_READ;
    for (unsigned i = first; i <= last; i++) {
        uint32_t v = 0;
        if ((actions & ZYDIS_OPERAND_ACTION_MASK_READ) || partial)
            v = w->ops->read(w->user, word_phys(w, page, i));
        memcpy(page + PERIPH_WORD * i, &v, PERIPH_WORD);
        pending.before[i - first] = v;
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
        if (pending.write && (!pending.changed_only || v != pending.before[i - pending.first]))
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
