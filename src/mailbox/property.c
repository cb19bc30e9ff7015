/*
 * property.c - the firmware's mailbox property interface (what
 * ioctl(IOCTL_MBOX_PROPERTY) on /dev/vcio carries), answered by the virtual
 * Pi through the same calls a relinked program makes (mailbox.c), so both
 * kinds of program see one GPU behaving one way.
 *
 * Buffer (firmware wiki "Mailbox property interface"; Linux
 * include/soc/bcm2835/raspberrypi-firmware.h): word 0 = buffer bytes,
 * word 1 = 0 (request) -> 0x80000000 (success) or 0x80000001 (error parsing
 * the request); then tags, each {id, value-buffer bytes, request/response
 * code, value words...}, ending with tag 0.  A handled tag's code becomes
 * 0x80000000 | response bytes; a response longer than the value buffer is
 * cut to it (the length still tells the whole).  An unknown tag is left as
 * it was (response bit clear) with a diagnostic (UNVERIFIED: what the
 * firmware writes for tags it does not know).
 */
#include <stdint.h>
#include <string.h>

#include "mailbox/mbox_internal.h"
#include "vc4kit/mailbox.h"

#define PROP_REQUEST 0x00000000u
#define PROP_SUCCESS 0x80000000u
#define PROP_ERROR 0x80000001u
#define PROP_RESPONSE 0x80000000u /* tag code bit 31 */
#define PROP_MAX_VALUE_WORDS 8u   /* longest request or response of a tag we answer */
#define PROP_VC_MEM_MIB 64u       /* the firmware's own share ("gpu_mem=64"), reported by GET_VC_MEMORY */
#define PROP_TEMPERATURE 45000u   /* millidegrees C: a Pi idling in a room */
#define PROP_MAX_TEMPERATURE 85000u
#define PROP_CORE_VOLTAGE 1200000u /* microvolts */

enum prop_tag {
    TAG_FIRMWARE_REVISION = 0x00000001,
    TAG_BOARD_MODEL = 0x00010001,
    TAG_BOARD_REVISION = 0x00010002,
    TAG_BOARD_MAC = 0x00010003,
    TAG_BOARD_SERIAL = 0x00010004,
    TAG_ARM_MEMORY = 0x00010005,
    TAG_VC_MEMORY = 0x00010006,
    TAG_GET_POWER_STATE = 0x00020001,
    TAG_SET_POWER_STATE = 0x00028001,
    TAG_GET_CLOCK_STATE = 0x00030001,
    TAG_GET_CLOCK_RATE = 0x00030002,
    TAG_GET_VOLTAGE = 0x00030003,
    TAG_GET_MAX_CLOCK_RATE = 0x00030004,
    TAG_GET_TEMPERATURE = 0x00030006,
    TAG_GET_MIN_CLOCK_RATE = 0x00030007,
    TAG_GET_MAX_TEMPERATURE = 0x0003000A,
    TAG_ALLOCATE_MEMORY = 0x0003000C,
    TAG_LOCK_MEMORY = 0x0003000D,
    TAG_UNLOCK_MEMORY = 0x0003000E,
    TAG_RELEASE_MEMORY = 0x0003000F,
    TAG_EXECUTE_CODE = 0x00030010,
    TAG_EXECUTE_QPU = 0x00030011,
    TAG_ENABLE_QPU = 0x00030012,
    TAG_SET_CLOCK_RATE = 0x00038002,
};

/* Clock ids of the clock tags. */
enum prop_clock { CLK_EMMC = 1, CLK_UART, CLK_ARM, CLK_CORE, CLK_V3D, CLK_H264, CLK_ISP, CLK_SDRAM };

static uint32_t clock_hz(const struct vc4_pi_model *m, uint32_t id)
{
    switch (id) {
    case CLK_EMMC: return 250000000u;
    case CLK_UART: return 48000000u;
    case CLK_ARM: return m->arm_hz;
    case CLK_CORE: return m->core_hz;
    case CLK_V3D:
    case CLK_H264:
    case CLK_ISP: return m->v3d_hz;
    case CLK_SDRAM: return m->sdram_hz;
    default: return 0; /* no such clock: the firmware answers rate 0 */
    }
}

/* Answer one tag: in = request words (zero-padded), out = response words.
 * Returns the response length in bytes, or -1 for a tag we do not know. */
static int answer(int fd, uint32_t tag, const uint32_t *in, uint32_t *out)
{
    const struct vc4_pi_model *m = vc4_mbox_model();
    uint32_t ram = vc4_mbox_ram_bytes();
    uint32_t vc = ram > (PROP_VC_MEM_MIB << 20) * 2 ? PROP_VC_MEM_MIB << 20 : ram / 2;
    switch ((enum prop_tag)tag) {
    case TAG_FIRMWARE_REVISION:
        out[0] = get_version(fd);
        return 4;
    case TAG_BOARD_MODEL:
        out[0] = 0; /* the firmware answers 0 on every Pi */
        return 4;
    case TAG_BOARD_REVISION:
        out[0] = m->board_revision;
        return 4;
    case TAG_BOARD_MAC: /* b8:27:eb: the Raspberry Pi Foundation's prefix */
        memcpy(out, (const uint8_t[8]){0xB8, 0x27, 0xEB, 0x00, 0x00, 0x01}, 8);
        return 6;
    case TAG_BOARD_SERIAL:
        out[0] = 0x00000001u;
        out[1] = 0;
        return 8;
    case TAG_ARM_MEMORY: /* the ARM's share below the firmware's */
        out[0] = 0;
        out[1] = ram - vc;
        return 8;
    case TAG_VC_MEMORY:
        out[0] = ram - vc;
        out[1] = vc;
        return 8;
    case TAG_GET_POWER_STATE:
    case TAG_SET_POWER_STATE:
        out[0] = in[0];
        out[1] = 1; /* on, exists */
        return 8;
    case TAG_GET_CLOCK_STATE:
        out[0] = in[0];
        out[1] = clock_hz(m, in[0]) ? 1u : 2u; /* bit 0 on, bit 1 does not exist */
        return 8;
    case TAG_GET_CLOCK_RATE:
    case TAG_GET_MAX_CLOCK_RATE:
    case TAG_GET_MIN_CLOCK_RATE:
    case TAG_SET_CLOCK_RATE: /* the emulated clocks do not change */
        out[0] = in[0];
        out[1] = clock_hz(m, in[0]);
        return 8;
    case TAG_GET_VOLTAGE:
        out[0] = in[0];
        out[1] = PROP_CORE_VOLTAGE;
        return 8;
    case TAG_GET_TEMPERATURE:
        out[0] = in[0];
        out[1] = PROP_TEMPERATURE;
        return 8;
    case TAG_GET_MAX_TEMPERATURE:
        out[0] = in[0];
        out[1] = PROP_MAX_TEMPERATURE;
        return 8;
    case TAG_ALLOCATE_MEMORY:
        out[0] = mem_alloc(fd, in[0], in[1], in[2]);
        return 4;
    case TAG_LOCK_MEMORY:
        out[0] = mem_lock(fd, in[0]);
        return 4;
    case TAG_UNLOCK_MEMORY:
        out[0] = mem_unlock(fd, in[0]);
        return 4;
    case TAG_RELEASE_MEMORY:
        out[0] = mem_free(fd, in[0]);
        return 4;
    case TAG_EXECUTE_CODE:
        out[0] = execute_code(fd, in[0], in[1], in[2], in[3], in[4], in[5], in[6]);
        return 4;
    case TAG_EXECUTE_QPU:
        out[0] = execute_qpu(fd, in[0], in[1], in[2], in[3]);
        return 4;
    case TAG_ENABLE_QPU:
        out[0] = qpu_enable(fd, in[0]);
        return 4;
    }
    return -1;
}

int vc4_mbox_property(int fd, uint32_t *buf, uint32_t bytes)
{
    uint32_t n = bytes / 4u;
    if (!vc4_mbox_model())
        return -1; /* no virtual Pi (its options were refused, and that was said) */
    if (n < 3 || buf[1] != PROP_REQUEST) {
        if (n >= 2)
            buf[1] = PROP_ERROR;
        vc4_mbox_report(VC4_ERROR, -1, "mailbox property request: %u bytes, code 0x%08x: not a request", bytes,
                        n >= 2 ? buf[1] : 0u);
        return -1;
    }
    uint32_t i = 2;
    while (i < n && buf[i] != 0) {
        if (n - i < 3 || buf[i + 1] / 4u + (buf[i + 1] % 4u != 0) > n - i - 3) {
            buf[1] = PROP_ERROR;
            vc4_mbox_report(VC4_ERROR, buf[i], "mailbox property tag 0x%08x at word %u runs past the %u-byte buffer",
                            buf[i], i, bytes);
            return -1;
        }
        uint32_t tag = buf[i], room = buf[i + 1], words = (room + 3u) / 4u;
        uint32_t in[PROP_MAX_VALUE_WORDS] = {0}, out[PROP_MAX_VALUE_WORDS] = {0};
        memcpy(in, buf + i + 3, 4u * (words < PROP_MAX_VALUE_WORDS ? words : PROP_MAX_VALUE_WORDS));
        int len = answer(fd, tag, in, out);
        if (len < 0) {
            vc4_mbox_report(VC4_WARNING, tag, "mailbox property tag 0x%08x is not emulated; left unanswered", tag);
        } else {
            uint32_t fit = (uint32_t)len < room ? (uint32_t)len : room;
            memcpy(buf + i + 3, out, fit);
            buf[i + 2] = PROP_RESPONSE | (uint32_t)len;
        }
        i += 3 + words;
    }
    if (i >= n) {
        buf[1] = PROP_ERROR;
        vc4_mbox_report(VC4_ERROR, -1, "mailbox property request: no end tag in the %u-byte buffer", bytes);
        return -1;
    }
    buf[1] = PROP_SUCCESS;
    return 0;
}
