/*
 * preload.c - the library `vc4kit exec` preloads (LD_PRELOAD) into an
 * unmodified Pi program so that it sees a Raspberry Pi whose GPU is the
 * vc4kit emulator:
 *  - open("/dev/vcio") gives a descriptor whose IOCTL_MBOX_PROPERTY ioctl
 *    is the firmware's property interface (property.c), answered by the
 *    same virtual Pi a relinked program gets (mailbox.c);
 *  - open("/dev/mem") gives a descriptor whose mmap is /dev/mem: emulated
 *    RAM, or the live peripheral window (periph.c);
 *  - every other file, ioctl and mapping goes to the C library untouched.
 * The host files are never opened: the descriptors handed out are
 * /dev/null's, so close, dup and fork behave.  The process state of the
 * preload is the descriptor table below, in one struct.
 *
 * IOCTL_MBOX_PROPERTY is _IOWR(100, 0, char *) (userland mailbox.h; Linux
 * drivers/char/broadcom/vcio.c): 0xC0086400 from a 64-bit program,
 * 0xC0046400 as a 32-bit ARM build spells it; both are accepted.  The
 * buffer is read and written with process_vm_readv/writev, so a bad pointer
 * gives EFAULT, as the kernel's copy_from_user does, and never a crash.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "mailbox/mbox_internal.h"
#include "mailbox/periph.h"
#include "vc4kit/mailbox.h"

#define PRELOAD_MAX_FDS 4096
#define PRELOAD_MAX_BUF 16384u /* bytes of one property request */
#define IOCTL_MBOX_PROPERTY_64 0xC0086400ul
#define IOCTL_MBOX_PROPERTY_32 0xC0046400ul

enum preload_kind { FD_NONE, FD_VCIO, FD_MEM };

typedef int (*open_fn)(const char *, int, ...);
typedef int (*openat_fn)(int, const char *, int, ...);
typedef int (*close_fn)(int);
typedef int (*ioctl_fn)(int, unsigned long, ...);
typedef void *(*mmap_fn)(void *, size_t, int, int, int, off_t);
typedef int (*munmap_fn)(void *, size_t);

static struct {
    pthread_mutex_t lock;
    pthread_once_t once;
    open_fn open, open64;
    openat_fn openat, openat64;
    close_fn close;
    ioctl_fn ioctl;
    mmap_fn mmap, mmap64;
    munmap_fn munmap;
    unsigned char kind[PRELOAD_MAX_FDS];
    int handle[PRELOAD_MAX_FDS]; /* mbox_open descriptor of a /dev/vcio */
    dev_t null_rdev;             /* the stand-ins are /dev/null's */
} pre = {.lock = PTHREAD_MUTEX_INITIALIZER, .once = PTHREAD_ONCE_INIT};

static void resolve(void)
{
    /* casts through void * from dlsym are how POSIX hands out functions */
    *(void **)&pre.open = dlsym(RTLD_NEXT, "open");
    *(void **)&pre.open64 = dlsym(RTLD_NEXT, "open64");
    *(void **)&pre.openat = dlsym(RTLD_NEXT, "openat");
    *(void **)&pre.openat64 = dlsym(RTLD_NEXT, "openat64");
    *(void **)&pre.close = dlsym(RTLD_NEXT, "close");
    *(void **)&pre.ioctl = dlsym(RTLD_NEXT, "ioctl");
    *(void **)&pre.mmap = dlsym(RTLD_NEXT, "mmap");
    *(void **)&pre.mmap64 = dlsym(RTLD_NEXT, "mmap64");
    *(void **)&pre.munmap = dlsym(RTLD_NEXT, "munmap");
}

static void init(void)
{
    pthread_once(&pre.once, resolve);
}

static enum preload_kind kind_of_path(const char *path)
{
    if (!path)
        return FD_NONE;
    if (!strcmp(path, "/dev/vcio"))
        return FD_VCIO;
    if (!strcmp(path, "/dev/mem"))
        return FD_MEM;
    return FD_NONE;
}

/* Is fd still the /dev/null stand-in it was?  A descriptor closed behind
 * the preload's back (dup2 over it, close_range, fclose of an fdopen
 * stream) may be reused by another file. */
static bool still_ours(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == pre.null_rdev;
}

static enum preload_kind kind_of_fd(int fd, int *handle)
{
    if (fd < 0 || fd >= PRELOAD_MAX_FDS)
        return FD_NONE;
    pthread_mutex_lock(&pre.lock);
    enum preload_kind k = pre.kind[fd];
    int h = pre.handle[fd];
    if (k && !still_ours(fd)) {
        pre.kind[fd] = FD_NONE;
        if (k == FD_VCIO)
            mbox_close(h);
        k = FD_NONE;
    }
    pthread_mutex_unlock(&pre.lock);
    if (handle)
        *handle = h;
    return k;
}

/* A stand-in descriptor for one of our devices. */
static int open_device(enum preload_kind k, int flags)
{
    int h = -1;
    if (k == FD_VCIO && (h = mbox_open()) < 0) {
        errno = ENODEV; /* the virtual Pi refused its options (said why) */
        return -1;
    }
    int fd = pre.open("/dev/null", O_RDWR | (flags & O_CLOEXEC));
    if (fd >= 0 && fd >= PRELOAD_MAX_FDS) {
        pre.close(fd);
        fd = -1;
        errno = EMFILE;
    }
    if (fd < 0) {
        if (h >= 0)
            mbox_close(h);
        return -1;
    }
    struct stat st;
    pthread_mutex_lock(&pre.lock);
    if (fstat(fd, &st) == 0)
        pre.null_rdev = st.st_rdev;
    pre.kind[fd] = (unsigned char)k;
    pre.handle[fd] = h;
    pthread_mutex_unlock(&pre.lock);
    return fd;
}

static mode_t mode_arg(int flags, va_list ap)
{
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

#define PRELOAD_API __attribute__((visibility("default")))

PRELOAD_API int open(const char *path, int flags, ...);
PRELOAD_API int open(const char *path, int flags, ...)
{
    init();
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    enum preload_kind k = kind_of_path(path);
    return k ? open_device(k, flags) : pre.open(path, flags, mode);
}

PRELOAD_API int open64(const char *path, int flags, ...);
PRELOAD_API int open64(const char *path, int flags, ...)
{
    init();
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    enum preload_kind k = kind_of_path(path);
    return k ? open_device(k, flags) : pre.open64(path, flags, mode);
}

PRELOAD_API int openat(int dirfd, const char *path, int flags, ...);
PRELOAD_API int openat(int dirfd, const char *path, int flags, ...)
{
    init();
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    enum preload_kind k = kind_of_path(path);
    return k ? open_device(k, flags) : pre.openat(dirfd, path, flags, mode);
}

PRELOAD_API int openat64(int dirfd, const char *path, int flags, ...);
PRELOAD_API int openat64(int dirfd, const char *path, int flags, ...)
{
    init();
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    enum preload_kind k = kind_of_path(path);
    return k ? open_device(k, flags) : pre.openat64(dirfd, path, flags, mode);
}

/* the _FORTIFY_SOURCE entry points (no mode argument) */
PRELOAD_API int __open_2(const char *path, int flags);
PRELOAD_API int __open_2(const char *path, int flags)
{
    return open(path, flags);
}
PRELOAD_API int __open64_2(const char *path, int flags);
PRELOAD_API int __open64_2(const char *path, int flags)
{
    return open64(path, flags);
}
PRELOAD_API int __openat_2(int dirfd, const char *path, int flags);
PRELOAD_API int __openat_2(int dirfd, const char *path, int flags)
{
    return openat(dirfd, path, flags);
}
PRELOAD_API int __openat64_2(int dirfd, const char *path, int flags);
PRELOAD_API int __openat64_2(int dirfd, const char *path, int flags)
{
    return openat64(dirfd, path, flags);
}

PRELOAD_API int close(int fd);
PRELOAD_API int close(int fd)
{
    init();
    if (fd >= 0 && fd < PRELOAD_MAX_FDS) {
        pthread_mutex_lock(&pre.lock);
        enum preload_kind k = pre.kind[fd];
        int h = pre.handle[fd];
        pre.kind[fd] = FD_NONE;
        pthread_mutex_unlock(&pre.lock);
        if (k == FD_VCIO)
            mbox_close(h);
    }
    return pre.close(fd);
}

/* IOCTL_MBOX_PROPERTY: copy the request in, answer it, copy it back. */
static int property(int handle, void *arg)
{
    uint32_t size;
    struct iovec local = {&size, sizeof size}, remote = {arg, sizeof size};
    if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) != (ssize_t)sizeof size) {
        vc4_mbox_report(VC4_ERROR, (int64_t)(uintptr_t)arg,
                        "ioctl(/dev/vcio, IOCTL_MBOX_PROPERTY): buffer %p is not readable", arg);
        errno = EFAULT;
        return -1;
    }
    if (size < 12 || size > PRELOAD_MAX_BUF || size % 4) {
        vc4_mbox_report(VC4_ERROR, size, "ioctl(/dev/vcio, IOCTL_MBOX_PROPERTY): buffer size %u (12 to %u, whole words)",
                        size, PRELOAD_MAX_BUF);
        errno = EINVAL;
        return -1;
    }
    uint32_t *buf = malloc(size);
    if (!buf) {
        errno = ENOMEM;
        return -1;
    }
    local = (struct iovec){buf, size};
    remote = (struct iovec){arg, size};
    int r = -1;
    if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) != (ssize_t)size) {
        errno = EFAULT;
    } else {
        r = vc4_mbox_property(handle, buf, size) == 0 ? 0 : -1;
        if (process_vm_writev(getpid(), &local, 1, &remote, 1, 0) != (ssize_t)size) {
            r = -1;
            errno = EFAULT;
        } else if (r < 0) {
            errno = EINVAL; /* UNVERIFIED: the driver's errno for a request the firmware refuses */
        }
    }
    free(buf);
    return r;
}

PRELOAD_API int ioctl(int fd, unsigned long req, ...);
PRELOAD_API int ioctl(int fd, unsigned long req, ...)
{
    init();
    va_list ap;
    va_start(ap, req);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    int h;
    enum preload_kind k = kind_of_fd(fd, &h);
    if (!k)
        return pre.ioctl(fd, req, arg);
    if (k == FD_VCIO && (req == IOCTL_MBOX_PROPERTY_64 || req == IOCTL_MBOX_PROPERTY_32))
        return property(h, arg);
    vc4_mbox_report(VC4_WARNING, (int64_t)req, "ioctl 0x%08lx on %s: not a request the device knows", req,
                    k == FD_VCIO ? "/dev/vcio" : "/dev/mem");
    errno = ENOTTY;
    return -1;
}

static void *map(void *addr, size_t len, int prot, int flags, int fd, off_t off, mmap_fn real)
{
    init();
    enum preload_kind k = kind_of_fd(fd, NULL);
    if (!k)
        return real(addr, len, prot, flags, fd, off);
    if (k == FD_VCIO || off < 0) {
        errno = k == FD_VCIO ? ENODEV : EINVAL;
        return MAP_FAILED;
    }
    int err;
    void *p = vc4_mbox_mmap(addr, len, prot, flags, (uint64_t)off, &err);
    if (!p) {
        errno = err;
        return MAP_FAILED;
    }
    return p;
}

PRELOAD_API void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
PRELOAD_API void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    init();
    return map(addr, len, prot, flags, fd, off, pre.mmap);
}

PRELOAD_API void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off);
PRELOAD_API void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    init();
    return map(addr, len, prot, flags, fd, off, pre.mmap64 ? pre.mmap64 : pre.mmap);
}

PRELOAD_API int munmap(void *addr, size_t len);
PRELOAD_API int munmap(void *addr, size_t len)
{
    init();
    if (vc4_periph_unmap(addr, len))
        return 0;
    return pre.munmap(addr, len);
}
