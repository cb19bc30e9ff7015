#!/usr/bin/env python3
"""vcio_prog.py - vcio_prog.c again, written the way Python GPU programs for
the Pi are (py-videocore's mailbox.py and v3d.py): the firmware's property
interface through fcntl.ioctl on /dev/vcio with the request number a 32-bit
ARM build spells (0xC0046400) and a 1024-byte buffer, GPU memory and the V3D
registers through mmap of /dev/mem (the descriptor closed once mapped), the
registers read and written one 32-bit access each through a memoryview cast
to 'I', libbcm_host.so through ctypes.  struct.pack_into clears its bytes
with memset before it packs them, so a register it writes sees two writes,
the first of them 0: harmless for SRQUA, which is written that way here too
(glibc's AVX-512 memset makes that a masked 64-byte store, which vc4kit once
took as a write of the 15 registers after it), but SRQPC would queue a
program at address 0, on a Pi as under vc4kit.

It runs scale.qasm (out = 3 * in + 7) over ROWS rows of 16 words per QPU on
QPUS QPUs, through the registers (SRQUA / SRQPC, SRQCS polled) and through
execute_qpu, and prints exactly the lines vcio_prog.c prints
(tests/cli/exec_python.sh compares them).

    vcio_prog.py CODE.bin ROWS QPUS [direct|mailbox|both]
"""
import ctypes
import mmap
import os
import struct
import sys
import time
from array import array
from fcntl import ioctl

IOCTL_MBOX_PROPERTY = 0xC0046400  # _IOWR(100, 0, char *) on a 32-bit ARM
IOCTL_BUFSIZE = 1024
REQUEST_SUCCESS = 0x80000000

TAG_ALLOCATE_MEMORY = 0x0003000C
TAG_LOCK_MEMORY = 0x0003000D
TAG_UNLOCK_MEMORY = 0x0003000E
TAG_RELEASE_MEMORY = 0x0003000F
TAG_EXECUTE_QPU = 0x00030011
TAG_ENABLE_QPU = 0x00030012
MEM_FLAG_L1_NONALLOCATING = 0xC

V3D_OFFSET = 0xC00000
V3D_IDENT0 = 0x000
V3D_L2CACTL = 0x020
V3D_SLCACTL = 0x024
V3D_SRQPC = 0x430
V3D_SRQUA = 0x434
V3D_SRQCS = 0x43C
V3D_DBCFG = 0xE00
V3D_DBQITE = 0xE2C
V3D_DBQITC = 0xE30
ROW_WORDS = 16
MASK32 = 0xFFFFFFFF


class MailBox:
    """The firmware's property interface, one tag per request."""

    def __init__(self):
        self.fd = os.open('/dev/vcio', os.O_RDONLY)

    def close(self):
        os.close(self.fd)

    def call(self, tag, *args):
        words = max(len(args), 1)
        buf = array('B', bytes(IOCTL_BUFSIZE))
        struct.pack_into('=5L%dLL' % words, buf, 0, 24 + 4 * words, 0, tag, 4 * words, 4 * len(args),
                         *(list(args) + [0] * (words - len(args))), 0)
        ioctl(self.fd, IOCTL_MBOX_PROPERTY, buf, True)
        size, code, _, _, _, value = struct.unpack_from('=6L', buf, 0)
        if code != REQUEST_SUCCESS:
            raise OSError('mailbox tag 0x%08x failed: 0x%08x' % (tag, code))
        return value


def map_phys(phys, size):
    """/dev/mem at a physical address, as v3d.py maps the V3D."""
    fd = os.open('/dev/mem', os.O_RDWR | os.O_SYNC)
    try:
        return mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE, offset=phys)
    finally:
        os.close(fd)


def peripheral():
    lib = ctypes.cdll.LoadLibrary('libbcm_host.so')
    return lib.bcm_host_get_peripheral_address(), lib.bcm_host_get_peripheral_size()


def word_in(i):
    return ((i * 2654435761) & MASK32) >> 8  # 24 bits: mul24 takes the low 24


def check(mem, at, words):
    """The checksum of out = 3 * in + 7, or None after the first bad word."""
    out = array('I', mem[at:at + 4 * words])
    s = 0
    for i, v in enumerate(out):
        want = (3 * word_in(i) + 7) & MASK32
        if v != want:
            sys.stderr.write('word %u: 0x%08x, want 0x%08x\n' % (i, v, want))
            return None
        s = (s * 31 + v) & MASK32
    return s


def main():
    if len(sys.argv) < 4:
        sys.stderr.write('usage: vcio_prog.py CODE.bin ROWS QPUS [direct|mailbox|both]\n')
        return 2
    mode = sys.argv[4] if len(sys.argv) > 4 else 'both'
    rows, qpus = int(sys.argv[2], 0), int(sys.argv[3], 0)
    with open(sys.argv[1], 'rb') as f:
        code = f.read(4096)
    words = rows * qpus * ROW_WORDS
    at_code, at_unifs, at_control, at_in = 0, 4096, 8192, 12288
    at_out = at_in + 4 * words
    size = at_out + 4 * words

    mb = MailBox()
    if mb.call(TAG_ENABLE_QPU, 1):
        sys.stderr.write('cannot enable the QPUs\n')
        return 1
    handle = mb.call(TAG_ALLOCATE_MEMORY, size, 4096, MEM_FLAG_L1_NONALLOCATING)
    bus = mb.call(TAG_LOCK_MEMORY, handle)
    mem = map_phys(bus & ~0xC0000000, size)
    mem[at_code:at_code + len(code)] = code
    mem[at_in:at_in + 4 * words] = array('I', (word_in(i) for i in range(words))).tobytes()
    control = []
    for q in range(qpus):
        first = q * rows * ROW_WORDS * 4
        struct.pack_into('<4I', mem, at_unifs + 16 * q, bus + at_in + first, bus + at_out + first, rows, q)
        control.append((bus + at_unifs + 16 * q, bus + at_code))
        struct.pack_into('<2I', mem, at_control + 8 * q, *control[-1])
    ok = True
    zeros = bytes(4 * words)
    if mode in ('direct', 'both'):
        # gpu_fft_base.c's way for small jobs, in Python: the V3D registers
        pbase, psize = peripheral()
        v3d = map_phys(pbase + V3D_OFFSET, 4096)
        regs = memoryview(v3d).cast('I')

        def reg(off):
            return regs[off // 4]

        def set_reg(off, value):
            regs[off // 4] = value

        if reg(V3D_IDENT0) != 0x02443356:
            sys.stderr.write('no V3D: IDENT0 0x%08x\n' % reg(V3D_IDENT0))
            return 1
        mem[at_out:at_out + 4 * words] = zeros
        set_reg(V3D_DBCFG, 0)
        set_reg(V3D_DBQITE, 0)
        set_reg(V3D_DBQITC, MASK32)
        set_reg(V3D_L2CACTL, 1 << 2)
        set_reg(V3D_SLCACTL, MASK32)
        set_reg(V3D_SRQCS, (1 << 7) | (1 << 8) | (1 << 16))
        for unifs, pc in control:
            struct.pack_into('<I', v3d, V3D_SRQUA, unifs)  # (memset, then the value)
            set_reg(V3D_SRQPC, pc)
        start = time.time()
        while (reg(V3D_SRQCS) >> 16) & 0xFF != qpus:
            if time.time() - start > 20:
                sys.stderr.write('direct: no completion after 20 s (SRQCS 0x%08x)\n' % reg(V3D_SRQCS))
                return 1
        s = check(mem, at_out, words)
        if s is None:
            ok = False
        else:
            print('direct: %u rows x %u QPUs ok, checksum 0x%08x' % (rows, qpus, s))
        regs.release()
        v3d.close()
    if mode in ('mailbox', 'both'):
        mem[at_out:at_out + 4 * words] = zeros
        r = mb.call(TAG_EXECUTE_QPU, qpus, bus + at_control, 1, 10000)
        s = check(mem, at_out, words) if r == 0 else None
        if r:
            sys.stderr.write('execute_qpu returned 0x%08x\n' % r)
        if s is None:
            ok = False
        else:
            print('mailbox: %u rows x %u QPUs ok, checksum 0x%08x' % (rows, qpus, s))
    mem.close()
    mb.call(TAG_UNLOCK_MEMORY, handle)
    mb.call(TAG_RELEASE_MEMORY, handle)
    mb.call(TAG_ENABLE_QPU, 0)
    mb.close()
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
