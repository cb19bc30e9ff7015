# vcio_py.py - the Pi devices from Python, as py-videocore reaches them
# (os.open, fcntl.ioctl, the mmap module): the board revision through the
# property interface, then IDENT0 and SCRATCH through a /dev/mem mapping of
# the V3D registers (tests/cli/exec_vcio.sh runs it under vc4kit exec).
import array
import fcntl
import mmap
import os
import struct

IOCTL_MBOX_PROPERTY = 0xC0086400
fd = os.open("/dev/vcio", os.O_RDWR)
msg = array.array("I", [28, 0, 0x00010002, 4, 0, 0, 0])
fcntl.ioctl(fd, IOCTL_MBOX_PROPERTY, msg, True)
mem = os.open("/dev/mem", os.O_RDWR | os.O_SYNC)
v3d = mmap.mmap(mem, 4096, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE, offset=0x20C00000)
v3d[0x10:0x14] = struct.pack("<I", 0xDEADBEEF)
print("revision 0x%x status 0x%x ident0 0x%08x scratch 0x%08x"
      % (msg[5], msg[1], struct.unpack_from("<I", v3d, 0)[0], struct.unpack_from("<I", v3d, 0x10)[0]))
