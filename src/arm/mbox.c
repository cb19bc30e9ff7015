/*
 * mbox.c - mailbox 0, the ARM's line to the VideoCore firmware (at 0xB880;
 * firmware wiki "Mailboxes", "Mailbox property interface", "Accessing
 * mailboxes"): the ARM writes a 16-byte aligned bus address ORed with a
 * channel (bits 3:0) to MAIL1 WRITE (0x20) once MAIL1 STATUS (0x38) is not
 * FULL (bit 31), then polls MAIL0 STATUS (0x18) until not EMPTY (bit 30)
 * and reads the answer from MAIL0 READ (0x00): the same word back.
 *
 * Channel 8 (property tags, ARM to VC): a buffer of [size, code, tags...,
 * 0]; each tag is [id, value buffer bytes, request/response code, values];
 * the firmware sets bit 31 of the code and the value length in the tag's
 * code word, and 0x80000000 in the buffer's code.  Channel 1 (the old
 * frame-buffer interface): a 40-byte structure [width, height, virtual
 * width, virtual height, pitch, depth, x, y, pointer, size]; the firmware
 * fills pitch, pointer and size and answers 0.
 *
 * Memory: the ARM has RAM [0, arm_mem_size), the VideoCore the rest
 * (gpu_mem); the frame buffer and GPU allocations come from the VideoCore
 * part, returned as bus addresses with the board's alias (0x40000000 on a
 * Pi 1, 0xC0000000 on a Pi 2/3, as the firmware does: programs mask with
 * 0x3FFFFFFF to get the ARM address).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arm/arm.h"
#include "arm/periph.h"
#include "base/base.h"
#include "spec/rules.h"

enum mbox_reg { /* offsets from 0xB880 */
    MB0_READ = 0x00,
    MB0_PEEK = 0x10,
    MB0_SENDER = 0x14,
    MB0_STATUS = 0x18,
    MB0_CONFIG = 0x1C,
    MB1_WRITE = 0x20,
    MB1_PEEK = 0x30,
    MB1_SENDER = 0x34,
    MB1_STATUS = 0x38,
    MB1_CONFIG = 0x3C,
};
#define MB_FULL 0x80000000u
#define MB_EMPTY 0x40000000u
#define MB_CH_FB 1u
#define MB_CH_PROP 8u
#define MB_RESPONSE_OK 0x80000000u
#define MB_RESPONSE_ERR 0x80000001u
#define MB_TAG_RESPONSE 0x80000000u
#define MB_PROP_MAX 4096u /* bytes of a property buffer we look at */
#define MB_FW_REVISION 0x5E000000u /* a fixed "firmware build time" (as src/mailbox) */

/* Property tags (firmware wiki "Mailbox property interface"). */
enum mbox_tag {
    TAG_FW_REVISION = 0x00000001,
    TAG_BOARD_MODEL = 0x00010001,
    TAG_BOARD_REVISION = 0x00010002,
    TAG_MAC = 0x00010003,
    TAG_SERIAL = 0x00010004,
    TAG_ARM_MEMORY = 0x00010005,
    TAG_VC_MEMORY = 0x00010006,
    TAG_GET_POWER = 0x00020001,
    TAG_SET_POWER = 0x00028001,
    TAG_GET_CLOCK_STATE = 0x00030001,
    TAG_SET_CLOCK_STATE = 0x00038001,
    TAG_GET_CLOCK_RATE = 0x00030002,
    TAG_SET_CLOCK_RATE = 0x00038002,
    TAG_GET_MAX_CLOCK = 0x00030004,
    TAG_GET_MIN_CLOCK = 0x00030007,
    TAG_GET_TEMP = 0x00030006,
    TAG_ALLOC_MEM = 0x0003000C,
    TAG_LOCK_MEM = 0x0003000D,
    TAG_UNLOCK_MEM = 0x0003000E,
    TAG_RELEASE_MEM = 0x0003000F,
    TAG_EXECUTE_QPU = 0x00030011,
    TAG_ENABLE_QPU = 0x00030012,
    TAG_FB_ALLOCATE = 0x00040001,
    TAG_FB_RELEASE = 0x00048001,
    TAG_FB_BLANK = 0x00040002,
    TAG_FB_GET_PHYS = 0x00040003,
    TAG_FB_TEST_PHYS = 0x00044003,
    TAG_FB_SET_PHYS = 0x00048003,
    TAG_FB_GET_VIRT = 0x00040004,
    TAG_FB_TEST_VIRT = 0x00044004,
    TAG_FB_SET_VIRT = 0x00048004,
    TAG_FB_GET_DEPTH = 0x00040005,
    TAG_FB_TEST_DEPTH = 0x00044005,
    TAG_FB_SET_DEPTH = 0x00048005,
    TAG_FB_GET_ORDER = 0x00040006,
    TAG_FB_TEST_ORDER = 0x00044006,
    TAG_FB_SET_ORDER = 0x00048006,
    TAG_FB_GET_ALPHA = 0x00040007,
    TAG_FB_SET_ALPHA = 0x00048007,
    TAG_FB_GET_PITCH = 0x00040008,
    TAG_FB_GET_OFFSET = 0x00040009,
    TAG_FB_SET_OFFSET = 0x00048009,
    TAG_FB_GET_OVERSCAN = 0x0004000A,
    TAG_FB_SET_OVERSCAN = 0x0004800A,
    TAG_FB_SET_PALETTE = 0x0004800B,
    TAG_SET_CURSOR_INFO = 0x00008010,
    TAG_SET_CURSOR_STATE = 0x00008011,
};

/* Firmware clock ids (1 EMMC .. 10 PWM) and their rates on each board
 * (Hz; config.txt defaults: arm_freq 700/900/1200, core_freq 250,
 * v3d_freq 250, sdram 400, UART clock 3 MHz). */
enum { CLK_EMMC = 1, CLK_UART = 2, CLK_ARM = 3, CLK_CORE = 4, CLK_V3D = 5, CLK_H264 = 6, CLK_ISP = 7,
       CLK_SDRAM = 8, CLK_PIXEL = 9, CLK_PWM = 10, CLK_IDS = 16 };
static const uint32_t default_clock[CLK_IDS] = {
    [CLK_EMMC] = 250000000, [CLK_UART] = 3000000, [CLK_ARM] = 700000000, [CLK_CORE] = 250000000,
    [CLK_V3D] = 250000000, [CLK_H264] = 250000000, [CLK_ISP] = 250000000, [CLK_SDRAM] = 400000000,
    [CLK_PIXEL] = 100000000, [CLK_PWM] = 100000000,
};
static const uint32_t arm_clock[VC4_PI_BOARDS] = {
    [VC4_PI1] = 700000000, [VC4_PI2] = 900000000, [VC4_PI3] = 1200000000,
};
/* Board revision codes (new-style for Pi 2/3): 1 B rev 2 512 MB; 2 B 1 GB; 3 B 1 GB. */
static const uint32_t board_revision[VC4_PI_BOARDS] = {
    [VC4_PI1] = 0x0000000E, [VC4_PI2] = 0x00A21041, [VC4_PI3] = 0x00A02082,
};

void vc4_mbox_reset(struct vc4_mbox *m, const struct vc4_arm_ctx *ctx)
{
    memset(m, 0, sizeof *m);
    memcpy(m->clock_rate, default_clock, sizeof m->clock_rate);
    if (ctx->board < VC4_PI_BOARDS)
        m->clock_rate[CLK_ARM] = arm_clock[ctx->board];
    m->vc_next = ctx->arm_mem_size;
    /* the firmware's frame-buffer defaults (config.txt framebuffer_width /
     * _height / _depth): 1024x768 at 16 bits, pixel order BGR (UNVERIFIED:
     * the order real firmware picks when none is set) */
    m->fb.phys_w = m->fb.virt_w = 1024;
    m->fb.phys_h = m->fb.virt_h = 768;
    m->fb.depth = 16;
    m->fb.alpha_mode = 0;
}

/* Allocate size bytes of VideoCore memory (bump allocator: GPU memory is
 * not reused; nothing a bare-metal program does needs more). */
static bool vc_alloc(struct vc4_mbox *m, const struct vc4_arm_ctx *ctx, uint32_t size, uint32_t align,
                     uint32_t *out)
{
    if (align < 4096 || (align & (align - 1)))
        align = 4096;
    uint64_t at = ((uint64_t)m->vc_next + align - 1) & ~(uint64_t)(align - 1);
    if (size == 0 || at + size > ctx->ram_size)
        return false;
    *out = (uint32_t)at;
    m->vc_next = (uint32_t)(at + size);
    return true;
}

static uint32_t fb_pitch(const struct vc4_mbox_fb *fb)
{
    return fb->virt_w * ((fb->depth + 7) / 8);
}

static bool fb_allocate(struct vc4_mbox *m, const struct vc4_arm_ctx *ctx, uint32_t align)
{
    struct vc4_mbox_fb *fb = &m->fb;
    if (fb->depth != 8 && fb->depth != 16 && fb->depth != 24 && fb->depth != 32)
        return false;
    if (!fb->virt_w || !fb->virt_h || fb->virt_w > 4096 || fb->virt_h > 4096)
        return false;
    uint32_t size = fb_pitch(fb) * fb->virt_h;
    if (fb->allocated && fb->size == size)
        return true; /* the same buffer again */
    if (!vc_alloc(m, ctx, size, align, &fb->addr))
        return false;
    fb->size = size;
    fb->pitch = fb_pitch(fb);
    fb->allocated = true;
    return true;
}

static uint32_t rd32(const struct vc4_arm_ctx *ctx, uint32_t addr)
{
    uint8_t b[4] = {0};
    vc4_emu_mem_read(ctx->emu, addr, b, 4);
    return vc4_le32(b);
}

static void wr32(const struct vc4_arm_ctx *ctx, uint32_t addr, uint32_t v)
{
    uint8_t b[4];
    vc4_st32(b, v);
    vc4_emu_mem_write(ctx->emu, addr, b, 4);
}

/* rule: a registered rule, or VC4_RULE_NONE */
static void diag(const struct vc4_arm_ctx *ctx, enum vc4_severity sev, enum vc4_rule_id rule, uint32_t addr,
                 const char *fmt, ...) VC4_PRINTF(5, 6);
static void diag(const struct vc4_arm_ctx *ctx, enum vc4_severity sev, enum vc4_rule_id rule, uint32_t addr,
                 const char *fmt, ...)
{
    struct vc4_location loc = vc4_location_none();
    loc.addr = addr;
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (rule != VC4_RULE_NONE)
        vc4_rule_report(ctx->sink, sev, "arm-mbox", rule, &loc, "%s (PC 0x%08llx)", msg,
                        (unsigned long long)ctx->pc);
    else
        vc4_diag_emit(ctx->sink, sev, VC4_DIAG_INFO, "arm-mbox", &loc, "%s (PC 0x%08llx)", msg,
                      (unsigned long long)ctx->pc);
}

/* Run the programs of an execute-QPU tag: pairs (uniforms, code) at control,
 * queued through SRQUA/SRQPC as the firmware does; the V3D runs when the
 * ARM next looks (arm.c). */
static uint32_t execute_qpu(struct vc4_mbox *m, struct vc4_arm_ctx *ctx, uint32_t num, uint32_t control)
{
    if (!m->qpu_enabled || num == 0 || num > 16)
        return 0x80000000u;
    for (uint32_t i = 0; i < num; i++) {
        uint32_t at = (control & 0x3FFFFFFFu) + 8 * i;
        vc4_emu_reg_write(ctx->emu, VC4_V3D_SRQUA, rd32(ctx, at));
        vc4_emu_reg_write(ctx->emu, VC4_V3D_SRQPC, rd32(ctx, at + 4));
    }
    ctx->v3d_kicked = true;
    return 0;
}

/* The frame-buffer set tags' effect (their answer is the get's). */
static void fb_set(struct vc4_mbox_fb *fb, uint32_t id, uint32_t a0, uint32_t a1)
{
    switch (id) {
    case TAG_FB_SET_PHYS: fb->phys_w = a0, fb->phys_h = a1; break;
    case TAG_FB_SET_VIRT: fb->virt_w = a0, fb->virt_h = a1; break;
    case TAG_FB_SET_DEPTH: fb->depth = a0; break;
    case TAG_FB_SET_ORDER: fb->pixel_order = a0 & 1u; break;
    case TAG_FB_SET_ALPHA: fb->alpha_mode = a0; break;
    case TAG_FB_SET_OFFSET: fb->x_off = a0, fb->y_off = a1; break;
    default: break;
    }
}

/* Answer one tag; v = its value words (RAM offset), n = value buffer bytes.
 * Returns the response length in bytes, or -1 for an unknown tag. */
static int tag(struct vc4_mbox *m, struct vc4_arm_ctx *ctx, uint32_t id, uint32_t v, uint32_t n,
               uint32_t *alloc_at)
{
    struct vc4_mbox_fb *fb = &m->fb;
    uint32_t a0 = n >= 4 ? rd32(ctx, v) : 0, a1 = n >= 8 ? rd32(ctx, v + 4) : 0;
    uint32_t a2 = n >= 12 ? rd32(ctx, v + 8) : 0;
    uint32_t out[4] = {0};
    int len = 8;
    fb_set(fb, id, a0, a1);
    switch (id) {
    case TAG_FW_REVISION: out[0] = MB_FW_REVISION; len = 4; break;
    case TAG_BOARD_MODEL: out[0] = 0; len = 4; break;
    case TAG_BOARD_REVISION: out[0] = ctx->board < VC4_PI_BOARDS ? board_revision[ctx->board] : 0; len = 4; break;
    case TAG_MAC: out[0] = 0xEB27B8B8u; out[1] = 0x0000A3B2u; len = 6; break;
    case TAG_SERIAL: out[0] = 0x0C4C0DE5u; out[1] = 0; break;
    case TAG_ARM_MEMORY: out[0] = 0; out[1] = ctx->arm_mem_size; break;
    case TAG_VC_MEMORY: out[0] = ctx->arm_mem_size; out[1] = ctx->ram_size - ctx->arm_mem_size; break;
    case TAG_GET_POWER: out[0] = a0; out[1] = a0 < 16 ? m->power_state[a0] : 2u; break;
    case TAG_SET_POWER: /* bit 0 on, bit 1 wait: the device is there at once */
        if (a0 < 16)
            m->power_state[a0] = a1 & 1u;
        out[0] = a0; out[1] = a0 < 16 ? (a1 & 1u) : 2u; break;
    case TAG_GET_CLOCK_STATE: case TAG_SET_CLOCK_STATE: out[0] = a0; out[1] = 1; break;
    case TAG_GET_CLOCK_RATE: case TAG_GET_MAX_CLOCK: case TAG_GET_MIN_CLOCK:
        out[0] = a0; out[1] = a0 < CLK_IDS ? m->clock_rate[a0] : 0; break;
    case TAG_SET_CLOCK_RATE:
        if (a0 < CLK_IDS && a0 != 0)
            m->clock_rate[a0] = a1;
        out[0] = a0; out[1] = a0 < CLK_IDS ? m->clock_rate[a0] : 0; break;
    case TAG_GET_TEMP: out[0] = a0; out[1] = 45000; break; /* 45 degrees C */
    case TAG_ALLOC_MEM: {
        out[0] = 0;
        for (unsigned h = 0; h < VC4_MBOX_MAX_BLOCKS; h++)
            if (!m->blocks[h].used) {
                if (vc_alloc(m, ctx, a0, a1, &m->blocks[h].offset)) {
                    m->blocks[h].size = a0;
                    m->blocks[h].used = true;
                    out[0] = h + 1;
                }
                break;
            }
        len = 4;
        break;
    }
    case TAG_LOCK_MEM:
        out[0] = a0 >= 1 && a0 <= VC4_MBOX_MAX_BLOCKS && m->blocks[a0 - 1].used
                     ? (m->blocks[a0 - 1].offset | ctx->bus_alias) : 0;
        len = 4;
        break;
    case TAG_UNLOCK_MEM: out[0] = 0; len = 4; break;
    case TAG_RELEASE_MEM:
        if (a0 >= 1 && a0 <= VC4_MBOX_MAX_BLOCKS)
            m->blocks[a0 - 1].used = false;
        out[0] = 0; len = 4; break;
    case TAG_ENABLE_QPU: m->qpu_enabled = a0 != 0; out[0] = 0; len = 4; break;
    case TAG_EXECUTE_QPU: out[0] = execute_qpu(m, ctx, a0, a1); (void)a2; len = 4; break;
    case TAG_FB_ALLOCATE:
        *alloc_at = v; /* allocated once every tag of the message is in */
        out[0] = a0; out[1] = 0;
        break;
    case TAG_FB_RELEASE: fb->allocated = false; len = 0; break;
    case TAG_FB_BLANK: out[0] = 0; len = 4; break;
    /* set tags answer what they set (fb_set did it) */
    case TAG_FB_SET_PHYS: case TAG_FB_GET_PHYS: case TAG_FB_TEST_PHYS:
        out[0] = fb->phys_w; out[1] = fb->phys_h; break;
    case TAG_FB_SET_VIRT: case TAG_FB_GET_VIRT: case TAG_FB_TEST_VIRT:
        out[0] = fb->virt_w; out[1] = fb->virt_h; break;
    case TAG_FB_SET_DEPTH: case TAG_FB_GET_DEPTH: case TAG_FB_TEST_DEPTH: out[0] = fb->depth; len = 4; break;
    case TAG_FB_SET_ORDER: case TAG_FB_GET_ORDER: case TAG_FB_TEST_ORDER: out[0] = fb->pixel_order; len = 4; break;
    case TAG_FB_SET_ALPHA: case TAG_FB_GET_ALPHA: out[0] = fb->alpha_mode; len = 4; break;
    case TAG_FB_GET_PITCH: out[0] = fb_pitch(fb); len = 4; break;
    case TAG_FB_SET_OFFSET: case TAG_FB_GET_OFFSET: out[0] = fb->x_off; out[1] = fb->y_off; break;
    case TAG_FB_GET_OVERSCAN: case TAG_FB_SET_OVERSCAN: len = 16; break; /* all 0 */
    case TAG_FB_SET_PALETTE: { /* offset, length, entries */
        for (uint32_t i = 0; i < a1 && a0 + i < 256 && 8 + 4 * i + 4 <= n; i++)
            fb->palette[a0 + i] = rd32(ctx, v + 8 + 4 * i);
        out[0] = a0 > 255 || a1 == 0 || a0 + a1 > 256; len = 4;
        break;
    }
    case TAG_SET_CURSOR_INFO: case TAG_SET_CURSOR_STATE: out[0] = 0; len = n < 16 ? (int)(n & ~3u) : 16; break;
    default: return -1;
    }
    for (int i = 0; i < len && (uint32_t)i < n && i < 16; i += 4)
        wr32(ctx, v + (uint32_t)i, out[i / 4]);
    return len;
}

void vc4_mbox_property(struct vc4_mbox *m, uint32_t buf, struct vc4_arm_ctx *ctx)
{
    uint32_t size = rd32(ctx, buf);
    if (size < 12 || size > MB_PROP_MAX || (uint64_t)buf + size > ctx->ram_size) {
        diag(ctx, VC4_WARNING, VC4_RULE_ARM_MBOX_BAD_BUFFER, buf, "property buffer of %u bytes at 0x%08x is not in RAM",
             size, buf);
        return;
    }
    bool ok = true;
    uint32_t alloc_at = 0, p = buf + 8, end = buf + size;
    while (p + 4 <= end) {
        uint32_t id = rd32(ctx, p);
        if (id == 0)
            break;
        if (p + 12 > end) {
            ok = false;
            break;
        }
        uint32_t n = rd32(ctx, p + 4);
        if (n > end - (p + 12)) {
            diag(ctx, VC4_WARNING, VC4_RULE_ARM_MBOX_BAD_BUFFER, p, "tag 0x%08x's value buffer (%u bytes) runs past the message",
                 id, n);
            ok = false;
            break;
        }
        int len = tag(m, ctx, id, p + 12, n, &alloc_at);
        if (len < 0) {
            diag(ctx, VC4_WARNING, VC4_RULE_ARM_MBOX_UNKNOWN_TAG, p, "unknown property tag 0x%08x (%u-byte buffer): not answered",
                 id, n);
        } else {
            wr32(ctx, p + 8, MB_TAG_RESPONSE | (uint32_t)len);
        }
        p += 12 + ((n + 3) & ~3u);
    }
    if (alloc_at) {
        uint32_t align = rd32(ctx, alloc_at);
        if (fb_allocate(m, ctx, align)) {
            wr32(ctx, alloc_at, m->fb.addr | ctx->bus_alias);
            wr32(ctx, alloc_at + 4, m->fb.size);
        } else {
            wr32(ctx, alloc_at, 0);
            wr32(ctx, alloc_at + 4, 0);
            diag(ctx, VC4_WARNING, VC4_RULE_NONE, alloc_at, "frame buffer allocation failed (%u x %u)", m->fb.virt_w,
                 m->fb.virt_h);
        }
    }
    wr32(ctx, buf + 4, ok ? MB_RESPONSE_OK : MB_RESPONSE_ERR);
}

/* Channel 1: the old frame-buffer structure at addr. */
static uint32_t fb_channel(struct vc4_mbox *m, uint32_t addr, struct vc4_arm_ctx *ctx)
{
    struct vc4_mbox_fb *fb = &m->fb;
    if ((uint64_t)addr + 40 > ctx->ram_size)
        return 1;
    fb->phys_w = rd32(ctx, addr);
    fb->phys_h = rd32(ctx, addr + 4);
    fb->virt_w = rd32(ctx, addr + 8);
    fb->virt_h = rd32(ctx, addr + 12);
    fb->depth = rd32(ctx, addr + 20);
    fb->x_off = rd32(ctx, addr + 24);
    fb->y_off = rd32(ctx, addr + 28);
    if (!fb_allocate(m, ctx, 4096))
        return 1;
    wr32(ctx, addr + 16, fb->pitch);
    wr32(ctx, addr + 32, fb->addr | ctx->bus_alias);
    wr32(ctx, addr + 36, fb->size);
    return 0;
}

static void push(struct vc4_mbox *m, uint32_t v)
{
    if (m->count == VC4_MBOX_QUEUE)
        return; /* the FIFO is full: the answer is lost, as on the hardware */
    m->queue[(m->head + m->count++) % VC4_MBOX_QUEUE] = v;
}

bool vc4_mbox_read(struct vc4_mbox *m, uint32_t off, uint32_t *v)
{
    switch (off) {
    case MB0_READ:
        if (m->count == 0) {
            *v = 0xFFFFFFFFu; /* reading an empty FIFO */
        } else {
            *v = m->queue[m->head];
            m->head = (m->head + 1) % VC4_MBOX_QUEUE;
            m->count--;
        }
        return true;
    case MB0_PEEK: *v = m->count ? m->queue[m->head] : 0; return true;
    case MB0_SENDER: case MB1_PEEK: case MB1_SENDER: *v = 0; return true;
    case MB0_STATUS: *v = m->count ? (m->count == VC4_MBOX_QUEUE ? MB_FULL : 0) : MB_EMPTY; return true;
    case MB1_STATUS: *v = MB_EMPTY; return true; /* the VideoCore takes each word at once */
    case MB0_CONFIG: *v = m->config; return true;
    case MB1_CONFIG: *v = 0; return true;
    default: return false;
    }
}

bool vc4_mbox_write(struct vc4_mbox *m, uint32_t off, uint32_t v, struct vc4_arm_ctx *ctx)
{
    switch (off) {
    case MB1_WRITE: {
        uint32_t ch = v & 0xFu, addr = (v & ~0xFu) & 0x3FFFFFFFu;
        if (ch == MB_CH_PROP) {
            vc4_mbox_property(m, addr, ctx);
            push(m, v);
        } else if (ch == MB_CH_FB) {
            push(m, (fb_channel(m, addr, ctx) << 4) | MB_CH_FB);
        } else {
            diag(ctx, VC4_WARNING, VC4_RULE_ARM_MBOX_CHANNEL, addr, "mailbox channel %u (word 0x%08x) is not modelled: no answer",
                 ch, v);
        }
        return true;
    }
    case MB0_CONFIG: m->config = v; return true;
    case MB0_STATUS: case MB1_STATUS: case MB1_CONFIG: case MB0_SENDER: case MB1_SENDER: return true;
    default: return false;
    }
}
