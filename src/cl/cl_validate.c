/*
 * cl_validate.c - structural validation of control lists, in the spirit of
 * the Linux kernel's drivers/gpu/drm/vc4/vc4_validate.c (facts §5) plus
 * what the hardware needs to do anything useful (facts §3, §4):
 *
 *   framing   unknown opcodes, truncated packets, malformed item lists,
 *             enum fields holding values with no meaning
 *   lists     binning-only packets in a rendering list and vice versa
 *   order     Tile Binning Mode Configuration before Start Tile Binning,
 *             Start Tile Binning before primitives, shader state before
 *             primitives, Tile Rendering Mode Configuration before Tile
 *             Coordinates and before loads/stores, stores after Tile
 *             Coordinates, one pending load at a time
 *   required  a binning list needs its mode configuration, Start Tile
 *             Binning and a final Flush; a rendering list its mode
 *             configuration, and an end of frame
 *   addresses alignment (records 16 bytes, TSDA 16, shader code 8), and,
 *             with a memory size, every address range inside memory;
 *             with the memory bytes, shader records, attribute arrays and
 *             index buffers are read and checked too
 *   kernel    (option) the kernel's submit-time rules: bin whitelist,
 *             Flush as the very last byte after Increment Semaphore, one
 *             binning configuration without double buffering or 64-bit
 *             colour, one Start Tile Binning, GEM_HANDLES (254) accepted,
 *             GL Shader State holding only its low 4 bits (the packet
 *             rules are cl_kernel.c's, shared with the kernel stand-in);
 *             what needs the submit's BOs (index buffer bounds, records,
 *             textures) is src/kernel's (submit.c)
 *
 * Each problem is one diagnostic: unit "cl", loc.addr = the packet's byte
 * offset in the list, the message starts with the packet's name.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cl/cl_internal.h"
#include "cl/cl_kernel.h"
#include "spec/rules.h"

enum {
    TSDA_BYTES_PER_TILE = 48,     /* facts §3.1, §4.1 */
    TILE_PX = 64,                 /* tile size, 32 with 4x multisampling (facts §4.3) */
    TILE_PX_MS = 32,
    FULL_RES_TILE_BYTES = 16384,  /* 64*64*4: one full-resolution tile dump (facts §4.3) */
    NV_RECORD_BYTES = 16,
    CODE_ALIGN = 8,               /* QPU instructions are 64 bits */
    CLIPPED_PRIM_ALIGN = 8,       /* packet 49 [PL] */
    BLOCK_BYTES_MIN = 32,         /* block size codes 0..3 = 32 << code bytes (facts §3.1) */
    FB_BPP_64BIT = 8,             /* RGBA16161616 (facts §3.2 "64-bit colour") */
    FB_BPP_RGBA8888 = 4,
    FB_BPP_565 = 2,
};

struct vstate {
    const struct vc4_cl_validate_options *o;
    const struct vc4_diag_sink *sink;
    const uint8_t *data;
    size_t size;
    unsigned list;
    unsigned errors;
    /* binning */
    bool tbmc, stb, flush, inc_sem;
    size_t last_off, inc_sem_off;
    struct vc4_kbin kbin; /* with kernel_rules: what the kernel has seen */
    struct vc4_cl_tile_binning_mode_config bin;
    /* shader state */
    unsigned shader_op; /* 0 none, else the packet's opcode */
    uint32_t rec_addr;
    unsigned rec_nattrs;
    bool rec_extended;
    bool clip_window, viewport, plf, rht_boundary;
    /* rendering */
    bool trmc, tile, eof, load_pending, stored_since_tile;
    size_t load_off;
    struct vc4_cl_tile_rendering_mode_config rcfg;
};

/* rule: VC4_RULE_NONE for a plain (non-rule) diagnostic; id and source come
 * from the registry (src/spec/rules.c) */
static void report(struct vstate *st, enum vc4_severity sev, size_t off, enum vc4_rule_id rule,
                   const char *fmt, ...) VC4_PRINTF(5, 6);

static void report(struct vstate *st, enum vc4_severity sev, size_t off, enum vc4_rule_id rule,
                   const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (sev == VC4_ERROR)
        st->errors++;
    struct vc4_location loc = vc4_location_none();
    loc.addr = (int64_t)off;
    vc4_rule_report(st->sink, sev, "cl", rule, &loc, "%s", msg);
}

#define ERR(st, off, ...) report(st, VC4_ERROR, off, VC4_RULE_NONE, __VA_ARGS__)
#define WARN(st, off, ...) report(st, VC4_WARNING, off, VC4_RULE_NONE, __VA_ARGS__)
#define RULE(st, sev, off, rule, ...) report(st, sev, off, rule, __VA_ARGS__)

/* ---- memory ---------------------------------------------------------------- */

static bool mem_checked(const struct vstate *st) { return st->o->mem_size != 0; }

/* Is [addr, addr + len) inside memory?  true when memory is not given. */
static bool in_mem(const struct vstate *st, uint64_t addr, uint64_t len)
{
    if (!mem_checked(st))
        return true;
    uint64_t lo = st->o->mem_base, hi = lo + st->o->mem_size;
    return addr >= lo && addr <= hi && len <= hi - addr;
}

static void check_range(struct vstate *st, size_t off, const char *pk, const char *what,
                        uint64_t addr, uint64_t len)
{
    if (in_mem(st, addr, len))
        return;
    uint64_t lo = st->o->mem_base, hi = lo + st->o->mem_size;
    if (len > 1)
        ERR(st, off, "%s: %s 0x%08llx..0x%08llx is outside memory 0x%08llx..0x%08llx", pk, what,
            (unsigned long long)addr, (unsigned long long)(addr + len),
            (unsigned long long)lo, (unsigned long long)hi);
    else
        ERR(st, off, "%s: %s 0x%08llx is outside memory 0x%08llx..0x%08llx", pk, what,
            (unsigned long long)addr, (unsigned long long)lo, (unsigned long long)hi);
}

/* The memory bytes at addr, if given and in range. */
static const uint8_t *mem_at(const struct vstate *st, uint64_t addr, uint64_t len)
{
    if (!st->o->mem || !mem_checked(st) || !in_mem(st, addr, len))
        return NULL;
    return st->o->mem + (addr - st->o->mem_base);
}

static void check_align(struct vstate *st, size_t off, const char *pk, const char *what,
                        uint32_t addr, unsigned align)
{
    if (addr & (align - 1))
        ERR(st, off, "%s: %s 0x%08x is not %u-byte aligned", pk, what, addr, align);
}

/* ---- shader records -------------------------------------------------------- */

/* The vertex range a primitive reads is [0, max_index]; check it against
 * the current shader state's vertex data / attribute arrays. */
static void check_vertices(struct vstate *st, size_t off, const char *pk, uint64_t max_index)
{
    if (st->o->kernel_rules && st->list == VC4_CL_LIST_BIN)
        return; /* the records and arrays are the submit's (src/kernel checks them) */
    if (st->shader_op == VC4_CL_NV_SHADER_STATE) {
        const uint8_t *rec = mem_at(st, st->rec_addr, NV_RECORD_BYTES);
        if (!rec)
            return;
        struct vc4_cl_nv_shader_record nv;
        vc4_cl_nv_shader_record_unpack(rec, &nv);
        uint64_t end = (uint64_t)nv.vertex_data_addr + (max_index + 1) * nv.vertex_stride;
        if (nv.vertex_stride && !in_mem(st, nv.vertex_data_addr, end - nv.vertex_data_addr))
            ERR(st, off,
                "%s: vertex %llu is outside memory (NV record at 0x%08x: shaded vertices at "
                "0x%08x, stride %u)",
                pk, (unsigned long long)max_index, st->rec_addr, nv.vertex_data_addr,
                nv.vertex_stride);
    } else if (st->shader_op == VC4_CL_GL_SHADER_STATE) {
        size_t rsize = vc4_cl_gl_record_size(st->rec_nattrs, st->rec_extended);
        const uint8_t *rec = mem_at(st, st->rec_addr, rsize);
        if (!rec)
            return;
        for (unsigned i = 0; i < st->rec_nattrs; i++) {
            struct vc4_cl_attr_record a;
            vc4_cl_attr_record_unpack(rec + VC4_CL_GL_RECORD_FIXED + i * VC4_CL_ATTR_RECORD_SIZE,
                                      &a);
            uint64_t stride = a.stride;
            if (st->rec_extended) {
                uint32_t w = vc4_le32(rec + VC4_CL_GL_EXT_STRIDE_OFFSET + 4 * i);
                /* the kernel ORs (word & ~0xff) into the stride [K] */
                stride |= w & ~UINT32_C(0xff);
            }
            uint64_t need = max_index * stride + a.num_bytes_minus_1 + 1;
            if (!in_mem(st, a.address, need))
                RULE(st, VC4_ERROR, off, VC4_RULE_CL_ATTR_RANGE,
                     "%s: attribute array %u (0x%08x, %llu bytes per vertex, stride %llu) "
                     "runs outside memory at index %llu",
                     pk, i, a.address, (unsigned long long)a.num_bytes_minus_1 + 1,
                     (unsigned long long)stride, (unsigned long long)max_index);
        }
    }
}

static void check_nv_record(struct vstate *st, size_t off, const char *pk, uint32_t addr)
{
    check_align(st, off, pk, "NV shader record", addr, VC4_CL_RECORD_ALIGN);
    check_range(st, off, pk, "NV shader record", addr, NV_RECORD_BYTES);
    const uint8_t *rec = mem_at(st, addr, NV_RECORD_BYTES);
    if (!rec)
        return;
    struct vc4_cl_nv_shader_record nv;
    vc4_cl_nv_shader_record_unpack(rec, &nv);
    check_align(st, off, pk, "fragment shader code address", nv.fs_code_addr, CODE_ALIGN);
    check_range(st, off, pk, "fragment shader code", nv.fs_code_addr, CODE_ALIGN);
    if (nv.fs_uniforms_addr)
        check_range(st, off, pk, "fragment shader uniforms", nv.fs_uniforms_addr, 4);
    if (nv.vertex_stride == 0)
        WARN(st, off, "%s: NV shader record at 0x%08x has a shaded vertex stride of 0", pk, addr);
    /* Xs/Ys, Zs, 1/Wc (+ point size) (+ 4 clip floats) + varyings (facts §2.4) */
    unsigned need = 4 * (3u + nv.point_size_included + (nv.clip_header_included ? 4u : 0u) +
                         nv.fs_num_varyings);
    if (nv.vertex_stride && nv.vertex_stride < need)
        WARN(st, off,
             "%s: NV shader record at 0x%08x: stride %u is less than the %u bytes a shaded "
             "vertex with %u varyings needs",
             pk, addr, nv.vertex_stride, need, nv.fs_num_varyings);
}

static void check_gl_record(struct vstate *st, size_t off, const char *pk, uint32_t addr,
                            unsigned nattrs, bool extended)
{
    size_t size = vc4_cl_gl_record_size(nattrs, extended);
    check_range(st, off, pk, "GL shader record", addr, size);
    const uint8_t *rec = mem_at(st, addr, size);
    if (!rec)
        return;
    struct vc4_cl_gl_shader_record gl;
    vc4_cl_gl_shader_record_unpack(rec, &gl);
    static const char *const names[3] = {"fragment", "vertex", "coordinate"};
    uint32_t code[3] = {gl.fs_code_addr, gl.vs_code_addr, gl.cs_code_addr};
    uint32_t unif[3] = {gl.fs_uniforms_addr, gl.vs_uniforms_addr, gl.cs_uniforms_addr};
    for (unsigned s = 0; s < 3; s++) {
        char what[64];
        snprintf(what, sizeof what, "%s shader code address", names[s]);
        check_align(st, off, pk, what, code[s], CODE_ALIGN);
        check_range(st, off, pk, what, code[s], CODE_ALIGN);
        if (unif[s]) {
            snprintf(what, sizeof what, "%s shader uniforms", names[s]);
            check_range(st, off, pk, what, unif[s], 4);
        }
    }
    uint32_t sel[2] = {gl.vs_attr_select, gl.cs_attr_select};
    uint32_t total[2] = {gl.vs_attr_size, gl.cs_attr_size};
    for (unsigned s = 0; s < 2; s++) {
        const char *who = s ? "coordinate" : "vertex";
        if (sel[s] >> nattrs)
            ERR(st, off,
                "%s: the %s shader selects attribute arrays 0x%02x but the record has only %u",
                pk, who, sel[s], nattrs);
        struct vc4_cl_attr_record a[VC4_CL_MAX_ATTRS];
        for (unsigned i = 0; i < nattrs; i++)
            vc4_cl_attr_record_unpack(rec + VC4_CL_GL_RECORD_FIXED + i * VC4_CL_ATTR_RECORD_SIZE,
                                      &a[i]);
        unsigned sum = vc4_cl_attr_total_size(a, nattrs, sel[s]);
        /* seed 000: "total attributes size" is the VPM all selected streams need */
        if (sum != total[s])
            WARN(st, off,
                 "%s: the %s shader's total attributes size is %u but its selected arrays "
                 "hold %u bytes per vertex",
                 pk, who, total[s], sum);
    }
    for (unsigned i = 0; i < nattrs; i++) {
        struct vc4_cl_attr_record a;
        vc4_cl_attr_record_unpack(rec + VC4_CL_GL_RECORD_FIXED + i * VC4_CL_ATTR_RECORD_SIZE, &a);
        char what[64];
        snprintf(what, sizeof what, "attribute array %u", i);
        check_range(st, off, pk, what, a.address, a.num_bytes_minus_1 + 1u);
    }
}

/* ---- per packet --------------------------------------------------------------- */

/* Enum fields whose value has no name. */
static void check_enums(struct vstate *st, const struct vc4_cl_packet_view *p,
                        const uint64_t *v)
{
    const struct vc4_cl_layout *l = &p->desc->layout;
    for (unsigned i = 0; i < l->nfields; i++) {
        const struct vc4_cl_field_desc *f = &l->fields[i];
        if (f->type == VC4_CL_FT_ENUM && !vc4_cl_enum_name(f, (uint32_t)v[i]))
            ERR(st, p->offset, "%s: %s = %llu has no meaning (%s)", p->desc->name, f->name,
                (unsigned long long)v[i], f->desc);
    }
}

static bool need_list(struct vstate *st, const struct vc4_cl_packet_view *p)
{
    unsigned l = p->desc->lists;
    if (!st->list || (l & st->list))
        return true;
    ERR(st, p->offset, "%s is a %s-list packet; it is not allowed in a %s list", p->desc->name,
        l == VC4_CL_LIST_BIN ? "binning" : "rendering",
        st->list == VC4_CL_LIST_BIN ? "binning" : "rendering");
    return false;
}

/* Tiles of the frame the rendering configuration describes. */
static void frame_tiles(const struct vc4_cl_tile_rendering_mode_config *c, unsigned *w,
                        unsigned *h)
{
    unsigned t = c->multisample_4x ? TILE_PX_MS : TILE_PX;
    *w = (c->width_px + t - 1) / t;
    *h = (c->height_px + t - 1) / t;
}

/* Bytes per pixel of a load/store colour format in memory (facts §3.3). */
static unsigned ls_bpp(uint32_t buffer, uint32_t format)
{
    if (buffer == VC4_CL_BUF_COLOR)
        return format == VC4_CL_LS_RGBA8888 ? FB_BPP_RGBA8888 : FB_BPP_565;
    return FB_BPP_RGBA8888; /* Z/S is 32-bit; full dumps are bigger still (not checked) */
}

static void check_primitive(struct vstate *st, const struct vc4_cl_packet_view *p)
{
    const char *pk = p->desc->name;
    bool vg = p->desc->flags & VC4_CL_PF_VG_ONLY;
    if (!st->shader_op) {
        RULE(st, VC4_ERROR, p->offset, VC4_RULE_CL_SHADER_STATE,
             "%s before any shader state (GL/NV/VG Shader State)", pk);
    } else if (vg != (st->shader_op == VC4_CL_VG_SHADER_STATE ||
                      st->shader_op == VC4_CL_VG_INLINE_SHADER_RECORD)) {
        RULE(st, VC4_ERROR, p->offset, VC4_RULE_CL_VG_MODE, "%s with %s shader state at hand", pk,
             vc4_cl_packet(st->shader_op)->name);
    }
    if (st->list == VC4_CL_LIST_BIN) {
        if (!st->stb)
            RULE(st, VC4_ERROR, p->offset, VC4_RULE_CL_START_BINNING,
                 "%s before Start Tile Binning: the binner is not set up", pk);
        if (!st->clip_window)
            WARN(st, p->offset, "%s without a Clip Window: the binner clips to its reset state",
                 pk);
        if (!st->viewport)
            WARN(st, p->offset, "%s without a Viewport Offset", pk);
    } else if (st->list == VC4_CL_LIST_RENDER && !st->tile) {
        ERR(st, p->offset, "%s before Tile Coordinates: no tile to draw into", pk);
    }
}

/* Packets 32/33: a line loop of 2 vertices, which the hardware fails to draw. */
static void check_line_loop(struct vstate *st, const struct vc4_cl_packet_view *p, uint32_t mode, uint32_t len)
{
    if (vc4_rule_line_loop_two(mode, len))
        RULE(st, VC4_WARNING, p->offset, VC4_RULE_CL_LINE_LOOP_TWO,
             "%s: a line loop of 2 vertices: the hardware fails to draw it", p->desc->name);
}

/* VG shader record (packet 66; layout cl table VC4_CL_REC_VG_SHADER, from
 * PeterLemon's VG demos, UNVERIFIED) */
static void check_vg_record(struct vstate *st, size_t off, const char *pk, uint32_t addr)
{
    const struct vc4_cl_record_desc *rd = vc4_cl_record(VC4_CL_REC_VG_SHADER);
    if (addr % rd->align)
        RULE(st, VC4_ERROR, off, VC4_RULE_CL_VG_RECORD_ALIGN, "%s: VG shader record 0x%08x is not %u-byte aligned",
             pk, addr, (unsigned)rd->align);
    check_range(st, off, pk, "VG shader record", addr, rd->layout.size);
    const uint8_t *rec = mem_at(st, addr, rd->layout.size);
    if (!rec)
        return;
    struct vc4_cl_vg_shader_record vg;
    vc4_cl_vg_shader_record_unpack(rec, &vg);
    if (vg.fs_code_addr % CODE_ALIGN)
        RULE(st, VC4_ERROR, off, VC4_RULE_CL_VG_RECORD_ALIGN,
             "%s: fragment shader code address 0x%08x is not %u-byte aligned", pk, vg.fs_code_addr,
             (unsigned)CODE_ALIGN);
    check_range(st, off, pk, "fragment shader code", vg.fs_code_addr, CODE_ALIGN);
    if (vg.fs_uniforms_addr)
        check_range(st, off, pk, "fragment shader uniforms", vg.fs_uniforms_addr, 4);
}

/* Packets 41/42: type, continuation, coordinates, RHT boundary (emu/vg.h). */
static void check_vg_prims(struct vstate *st, const struct vc4_cl_packet_view *p, const uint64_t *v)
{
    const char *pk = p->desc->name;
    struct vc4_cl_vg_coordinate_array_primitives a = {0};
    if (p->opcode == VC4_CL_VG_COORDINATE_ARRAY_PRIMITIVES) {
        vc4_cl_values_to_struct(&p->desc->layout, v, &a);
    } else {
        struct vc4_cl_vg_inline_primitives in;
        vc4_cl_values_to_struct(&p->desc->layout, v, &in);
        a.primitive_type = in.primitive_type;
        a.continuation = in.continuation;
    }
    unsigned t = a.primitive_type;
    bool rht = t == VC4_CL_VG_RHT || t == VC4_CL_VG_RHT_STRIP;
    if (!rht && t != VC4_CL_VG_TRIANGLES && t != VC4_CL_VG_TRIANGLE_STRIP && t != VC4_CL_VG_TRIANGLE_FAN)
        RULE(st, VC4_ERROR, p->offset, VC4_RULE_CL_VG_PRIM_TYPE,
             "%s: primitive type %u does not exist (1 RHT, 3 RHT strip, 4 triangles, 5 strip, 6 fan)", pk, t);
    else if (a.continuation && t != VC4_CL_VG_TRIANGLE_FAN)
        RULE(st, VC4_ERROR, p->offset, VC4_RULE_CL_VG_PRIM_TYPE,
             "%s: a continuation list (0x%x) is for triangle fans only", pk, a.continuation);
    if (rht && !st->rht_boundary && st->list != VC4_CL_LIST_RENDER)
        RULE(st, VC4_WARNING, p->offset, VC4_RULE_CL_VG_RHT_BOUNDARY,
             "%s: RHT primitives without an RHT X Boundary before them (the boundary is x = 0)", pk);
    if (p->opcode == VC4_CL_VG_COORDINATE_ARRAY_PRIMITIVES && a.length &&
        !in_mem(st, a.coord_addr, (uint64_t)a.length * 4))
        RULE(st, VC4_ERROR, p->offset, VC4_RULE_CL_VG_COORDS,
             "%s: %u coordinates at 0x%08x (4 bytes each) run outside memory", pk, a.length, a.coord_addr);
}

static void packet(struct vstate *st, const struct vc4_cl_packet_view *p)
{
    const struct vc4_cl_packet_desc *d = p->desc;
    const char *pk = d->name;
    uint64_t v[VC4_CL_MAX_FIELDS];
    vc4_cl_layout_unpack(&d->layout, p->payload, v);
    check_enums(st, p, v);
    if (d->flags & VC4_CL_PF_UNVERIFIED)
        WARN(st, p->offset, "%s: opcode %u is known from one weak source only (%s)", pk,
             (unsigned)d->opcode, d->source);
    need_list(st, p);
    /* the kernel's rules broken by this packet (cl_kernel.c) */
    unsigned kf = st->o->kernel_rules ? vc4_kbin_check(&st->kbin, p) : 0;
    if (st->o->kernel_rules && st->list == VC4_CL_LIST_BIN && !vc4_kbin_whitelisted(d))
        RULE(st, VC4_ERROR, p->offset, VC4_RULE_KERNEL_BIN_WHITELIST,
             "%s is not in the kernel's binning-list whitelist", pk);
    if (st->flush && st->list == VC4_CL_LIST_BIN && d->opcode != VC4_CL_HALT &&
        d->opcode != VC4_CL_NOP)
        WARN(st, p->offset, "%s after Flush: the tile lists are already closed", pk);

    switch (d->opcode) {
    case VC4_CL_TILE_BINNING_MODE_CONFIG: {
        struct vc4_cl_tile_binning_mode_config *b = &st->bin;
        vc4_cl_values_to_struct(&d->layout, v, b);
        if (kf & VC4_KBIN_SECOND_CONFIG)
            RULE(st, VC4_ERROR, p->offset, VC4_RULE_KERNEL_ONE_BIN_CONFIG,
                 "%s: more than one in a binning list", pk);
        st->tbmc = true;
        if (st->stb)
            WARN(st, p->offset, "%s after Start Tile Binning has no effect on this frame", pk);
        if (!b->width_tiles || !b->height_tiles)
            RULE(st, VC4_ERROR, p->offset, VC4_RULE_CL_BIN_SIZE,
                 "%s: %u x %u tiles: width and height must be non-zero", pk, b->width_tiles,
                 b->height_tiles);
        /* in a list for the kernel, the kernel supplies the memory and the
         * block sizes (validate_tile_binning_config) */
        if (!(st->o->kernel_rules && st->list == VC4_CL_LIST_BIN)) {
            check_align(st, p->offset, pk, "tile state data array address", b->tsda_addr, 16);
            uint64_t tiles = (uint64_t)b->width_tiles * b->height_tiles;
            check_range(st, p->offset, pk, "tile state data array", b->tsda_addr,
                        tiles * TSDA_BYTES_PER_TILE);
            check_range(st, p->offset, pk, "tile allocation memory", b->tile_alloc_addr,
                        b->tile_alloc_size);
            uint64_t initial = tiles * (BLOCK_BYTES_MIN << b->initial_block_size);
            if (b->tile_alloc_size < initial)
                ERR(st, p->offset,
                    "%s: tile allocation memory (%u bytes) is smaller than the initial blocks of "
                    "%llu tiles (%llu bytes)",
                    pk, b->tile_alloc_size, (unsigned long long)tiles, (unsigned long long)initial);
        }
        if (kf & VC4_KBIN_CONFIG_FLAGS)
            RULE(st, VC4_ERROR, p->offset, VC4_RULE_KERNEL_BIN_FLAGS,
                 "%s: double-buffer and 64-bit tile buffer are rejected by the kernel", pk);
        break;
    }
    case VC4_CL_START_TILE_BINNING:
        if (!st->tbmc)
            RULE(st, VC4_ERROR, p->offset, VC4_RULE_CL_ORDER_BIN_CONFIG,
                 "%s before Tile Binning Mode Configuration", pk);
        if (kf & VC4_KBIN_SECOND_START)
            RULE(st, VC4_ERROR, p->offset, VC4_RULE_KERNEL_ONE_START_BINNING,
                 "%s: more than one in a binning list", pk);
        st->stb = true;
        break;
    case VC4_CL_FLUSH:
    case VC4_CL_FLUSH_ALL_STATE:
        if (st->list == VC4_CL_LIST_BIN && !st->stb)
            ERR(st, p->offset, "%s before Start Tile Binning", pk);
        st->flush = true;
        break;
    case VC4_CL_INCREMENT_SEMAPHORE:
        st->inc_sem = true;
        st->inc_sem_off = p->offset;
        break;
    case VC4_CL_BRANCH:
    case VC4_CL_BRANCH_TO_SUB_LIST: {
        struct vc4_cl_branch b; /* both packets: one address field */
        vc4_cl_values_to_struct(&d->layout, v, &b);
        check_range(st, p->offset, pk, "target", b.address, 1);
        break;
    }
    case VC4_CL_CLIP_WINDOW: {
        struct vc4_cl_clip_window cw;
        vc4_cl_values_to_struct(&d->layout, v, &cw);
        st->clip_window = true;
        if (vc4_rule_clip_window_empty(cw.width_px, cw.height_px))
            RULE(st, VC4_WARNING, p->offset, VC4_RULE_CL_CLIP_WINDOW_EMPTY,
                 "%s of %u x %u pixels: the hardware does not clip everything away", pk, cw.width_px,
                 cw.height_px);
        break;
    }
    case VC4_CL_VIEWPORT_OFFSET:
        st->viewport = true;
        break;
    case VC4_CL_PRIMITIVE_LIST_FORMAT:
        st->plf = true;
        break;
    case VC4_CL_GL_SHADER_STATE: {
        struct vc4_cl_gl_shader_state s;
        vc4_cl_values_to_struct(&d->layout, v, &s);
        st->shader_op = d->opcode;
        st->rec_addr = s.record_addr;
        st->rec_nattrs = s.num_attr_arrays ? s.num_attr_arrays : VC4_CL_MAX_ATTRS;
        st->rec_extended = s.extended;
        if (st->o->kernel_rules && st->list == VC4_CL_LIST_BIN) {
            /* the kernel fills in the record address: the packet holds
             * only the low bits (validate_gl_shader_state) */
            if (kf & VC4_KBIN_SHADER_STATE_ADDR)
                RULE(st, VC4_ERROR, p->offset, VC4_RULE_KERNEL_GL_SHADER_STATE,
                     "%s: 0x%08x: only the attribute count and extended bits may be set; the kernel supplies "
                     "the record address", pk, s.record_addr);
            break;
        }
        check_gl_record(st, p->offset, pk, s.record_addr, st->rec_nattrs, s.extended);
        break;
    }
    case VC4_CL_NV_SHADER_STATE:
    case VC4_CL_VG_SHADER_STATE: {
        struct vc4_cl_nv_shader_state s; /* both packets: one record address */
        vc4_cl_values_to_struct(&d->layout, v, &s);
        st->shader_op = d->opcode;
        st->rec_addr = s.record_addr;
        if (d->opcode == VC4_CL_NV_SHADER_STATE) {
            check_nv_record(st, p->offset, pk, st->rec_addr);
            break;
        }
        check_vg_record(st, p->offset, pk, st->rec_addr);
        break;
    }
    case VC4_CL_VG_INLINE_SHADER_RECORD: {
        struct vc4_cl_vg_inline_shader_record r;
        vc4_cl_values_to_struct(&d->layout, v, &r);
        st->shader_op = d->opcode;
        check_range(st, p->offset, pk, "fragment shader code", r.fs_code_addr, CODE_ALIGN);
        break;
    }
    case VC4_CL_RHT_X_BOUNDARY:
        st->rht_boundary = true;
        break;
    case VC4_CL_INDEXED_PRIMITIVE_LIST: {
        struct vc4_cl_indexed_primitive_list ip;
        vc4_cl_values_to_struct(&d->layout, v, &ip);
        check_primitive(st, p);
        check_line_loop(st, p, ip.primitive_mode, ip.length);
        unsigned isz = ip.index_type == VC4_CL_INDEX_16BIT ? 2 : 1;
        if (isz == 2)
            check_align(st, p->offset, pk, "16-bit index list", ip.index_addr, 2);
        check_range(st, p->offset, pk, "index list", ip.index_addr, (uint64_t)ip.length * isz);
        const uint8_t *idx = mem_at(st, ip.index_addr, (uint64_t)ip.length * isz);
        uint64_t max = ip.max_index;
        if (idx) {
            for (uint32_t i = 0; i < ip.length; i++) {
                uint32_t x = isz == 2 ? vc4_le16(idx + 2 * (size_t)i) : idx[i];
                if (x > ip.max_index) {
                    ERR(st, p->offset, "%s: index %u (entry %u) exceeds the maximum index %u", pk,
                        x, i, ip.max_index);
                    break;
                }
            }
        }
        if (ip.length)
            check_vertices(st, p->offset, pk, max);
        break;
    }
    case VC4_CL_VERTEX_ARRAY_PRIMITIVES: {
        struct vc4_cl_vertex_array_primitives va;
        vc4_cl_values_to_struct(&d->layout, v, &va);
        check_primitive(st, p);
        check_line_loop(st, p, va.primitive_mode, va.length);
        uint64_t last = (uint64_t)va.first_index + va.length;
        if (last > UINT32_MAX + UINT64_C(1))
            RULE(st, VC4_ERROR, p->offset, VC4_RULE_CL_ARRAY_OVERFLOW,
                 "%s: first vertex %u + length %u overflows", pk, va.first_index, va.length);
        else if (va.length)
            check_vertices(st, p->offset, pk, last - 1);
        break;
    }
    case VC4_CL_VG_COORDINATE_ARRAY_PRIMITIVES:
    case VC4_CL_VG_INLINE_PRIMITIVES:
        check_primitive(st, p);
        check_vg_prims(st, p, v);
        break;
    case VC4_CL_COMPRESSED_PRIMITIVE_LIST:
    case VC4_CL_CLIPPED_PRIMITIVE:
        if (!st->plf)
            WARN(st, p->offset, "%s without a Primitive List Format", pk);
        if (!st->shader_op)
            ERR(st, p->offset, "%s before any shader state", pk);
        if (d->opcode == VC4_CL_CLIPPED_PRIMITIVE) {
            struct vc4_cl_clipped_primitive c;
            vc4_cl_values_to_struct(&d->layout, v, &c);
            check_range(st, p->offset, pk, "clipped primitive data", c.clipped_prim_addr,
                        CLIPPED_PRIM_ALIGN);
        }
        break;
    case VC4_CL_TILE_RENDERING_MODE_CONFIG: {
        vc4_cl_values_to_struct(&d->layout, v, &st->rcfg);
        st->trmc = true;
        const struct vc4_cl_tile_rendering_mode_config *c = &st->rcfg;
        if (!c->width_px || !c->height_px)
            ERR(st, p->offset, "%s: a %u x %u frame", pk, c->width_px, c->height_px);
        unsigned bpp = c->tile_buffer_64bit ? FB_BPP_64BIT
                       : c->color_format == VC4_CL_FB_RGBA8888 ? FB_BPP_RGBA8888 : FB_BPP_565;
        check_range(st, p->offset, pk, "frame buffer", c->fb_addr,
                    (uint64_t)c->width_px * c->height_px * bpp);
        break;
    }
    case VC4_CL_TILE_COORDINATES: {
        if (!st->trmc) {
            RULE(st, VC4_ERROR, p->offset, VC4_RULE_CL_ORDER_RENDER_CONFIG,
                 "%s before Tile Rendering Mode Configuration", pk);
        } else {
            unsigned w, h;
            struct vc4_cl_tile_coordinates tc;
            vc4_cl_values_to_struct(&d->layout, v, &tc);
            frame_tiles(&st->rcfg, &w, &h);
            if (tc.column >= w || tc.row >= h)
                ERR(st, p->offset, "%s: tile (%u, %u) is outside the %u x %u-tile frame", pk,
                    tc.column, tc.row, w, h);
        }
        st->tile = true;
        st->load_pending = false; /* it triggers the pending load */
        st->stored_since_tile = false;
        break;
    }
    case VC4_CL_LOAD_FULL_RES_TILE_BUFFER:
    case VC4_CL_LOAD_TILE_BUFFER_GENERAL:
        if (!st->trmc)
            RULE(st, VC4_ERROR, p->offset, VC4_RULE_CL_ORDER_RENDER_CONFIG,
                 "%s before Tile Rendering Mode Configuration", pk);
        if (st->load_pending)
            RULE(st, VC4_ERROR, p->offset, VC4_RULE_CL_ONE_LOAD,
                 "%s: a load is already pending (at +%zu); only one may wait for the next Tile "
                 "Coordinates",
                 pk, st->load_off);
        else if (st->tile && !st->stored_since_tile)
            RULE(st, VC4_WARNING, p->offset, VC4_RULE_CL_STORE_BETWEEN_LOADS,
                 "%s: after Tile Coordinates a store must happen before another load", pk);
        st->load_pending = true;
        st->load_off = p->offset;
        if (d->opcode == VC4_CL_LOAD_FULL_RES_TILE_BUFFER) {
            struct vc4_cl_load_full_res_tile_buffer l;
            vc4_cl_values_to_struct(&d->layout, v, &l);
            check_range(st, p->offset, pk, "tile buffer dump", l.address, FULL_RES_TILE_BYTES);
        } else {
            struct vc4_cl_load_tile_buffer_general l;
            vc4_cl_values_to_struct(&d->layout, v, &l);
            if (l.buffer != VC4_CL_BUF_NONE && st->trmc)
                check_range(st, p->offset, pk, "frame buffer", l.address,
                            (uint64_t)st->rcfg.width_px * st->rcfg.height_px *
                                ls_bpp(l.buffer, l.color_format));
        }
        break;
    case VC4_CL_STORE_MS_TILE_BUFFER:
    case VC4_CL_STORE_MS_TILE_BUFFER_AND_EOF:
    case VC4_CL_STORE_FULL_RES_TILE_BUFFER:
    case VC4_CL_STORE_TILE_BUFFER_GENERAL: {
        if (!st->trmc)
            RULE(st, VC4_ERROR, p->offset, VC4_RULE_CL_ORDER_RENDER_CONFIG,
                 "%s before Tile Rendering Mode Configuration", pk);
        if (!st->tile)
            RULE(st, VC4_ERROR, p->offset, VC4_RULE_CL_ORDER_TILE_COORDS,
                 "%s before Tile Coordinates: no tile to store", pk);
        st->stored_since_tile = true;
        bool eof = d->opcode == VC4_CL_STORE_MS_TILE_BUFFER_AND_EOF;
        if (d->opcode == VC4_CL_STORE_FULL_RES_TILE_BUFFER) {
            struct vc4_cl_store_full_res_tile_buffer s;
            vc4_cl_values_to_struct(&d->layout, v, &s);
            eof = s.last_tile;
            check_range(st, p->offset, pk, "tile buffer dump", s.address, FULL_RES_TILE_BYTES);
        } else if (d->opcode == VC4_CL_STORE_TILE_BUFFER_GENERAL) {
            struct vc4_cl_store_tile_buffer_general s;
            vc4_cl_values_to_struct(&d->layout, v, &s);
            eof = s.last_tile;
            /* buffer "none" with address 0 is the kernel's clear trick (facts §3.3) */
            if (s.buffer != VC4_CL_BUF_NONE && st->trmc)
                check_range(st, p->offset, pk, "frame buffer", s.address,
                            (uint64_t)st->rcfg.width_px * st->rcfg.height_px *
                                ls_bpp(s.buffer, s.color_format));
        }
        if (eof)
            st->eof = true;
        break;
    }
    default:
        break;
    }
}

void vc4_cl_list_extent(const uint8_t *data, size_t size, struct vc4_cl_extent *out)
{
    struct vc4_cl_reader r;
    struct vc4_cl_packet_view p;
    *out = (struct vc4_cl_extent){.len = data ? size : 0, .stop = VC4_CL_STOP_END,
                                  .stop_offset = data ? size : 0};
    vc4_cl_reader_init(&r, data, data ? size : 0);
    while (vc4_cl_next(&r, &p)) {
        if (p.opcode == VC4_CL_HALT || p.opcode == VC4_CL_BRANCH) {
            out->stop = p.opcode == VC4_CL_HALT ? VC4_CL_STOP_HALT : VC4_CL_STOP_BRANCH;
            out->stop_offset = p.offset;
            out->len = p.offset + p.length;
            return;
        }
    }
    if (r.error != VC4_CL_LEN_OK) {
        out->stop = VC4_CL_STOP_BAD;
        out->stop_offset = out->len = r.error_offset;
        out->error = r.error;
    }
}

const char *vc4_cl_stop_name(const struct vc4_cl_extent *e)
{
    switch (e->stop) {
    case VC4_CL_STOP_HALT:
        return "Halt";
    case VC4_CL_STOP_BRANCH:
        return "Branch";
    case VC4_CL_STOP_BAD:
        return e->error == VC4_CL_LEN_UNKNOWN_OPCODE ? "unknown opcode"
               : e->error == VC4_CL_LEN_TRUNCATED    ? "truncated packet"
                                                     : "malformed items";
    case VC4_CL_STOP_END:
    default:
        return "end of the bytes";
    }
}

/* The first list-specific packet decides which list this is. */
static unsigned guess_list(const uint8_t *data, size_t size)
{
    struct vc4_cl_reader r;
    struct vc4_cl_packet_view p;
    vc4_cl_reader_init(&r, data, size);
    while (vc4_cl_next(&r, &p)) {
        if (p.opcode == VC4_CL_HALT)
            break;
        if (p.desc->lists != VC4_CL_LIST_ANY)
            return p.desc->lists;
    }
    return 0;
}

/* The kernel's GEM handles packet (cl_kernel.h VC4_KBIN_GEM_HANDLES): in a
 * binning list handed to the kernel it names BOs and is no hardware packet.
 * With kernel_rules it is stepped over here; true when r moved past one (or
 * hit the end). */
static bool kernel_gem_handles(struct vstate *st, struct vc4_cl_reader *r)
{
    if (!st->o->kernel_rules || st->list != VC4_CL_LIST_BIN || r->error != VC4_CL_LEN_OK || r->pos >= r->size ||
        st->data[r->pos] != VC4_KBIN_GEM_HANDLES)
        return false;
    uint32_t idx[2];
    if (!vc4_kbin_gem_handles(st->data + r->pos, r->size - r->pos, idx)) {
        RULE(st, VC4_ERROR, r->pos, VC4_RULE_CL_TRUNCATED,
             "GEM handles (the kernel's packet 254): truncated: needs %u bytes, the list has %zu left",
             (unsigned)VC4_KBIN_GEM_HANDLES_BYTES, r->size - r->pos);
        r->pos = r->size;
        return true;
    }
    r->pos += VC4_KBIN_GEM_HANDLES_BYTES;
    return true;
}

enum vc4_status vc4_cl_validate(const uint8_t *data, size_t size,
                                const struct vc4_cl_validate_options *opts,
                                const struct vc4_diag_sink *sink)
{
    struct vc4_cl_validate_options none = {0};
    struct vstate st;
    memset(&st, 0, sizeof st);
    st.o = opts ? opts : &none;
    st.sink = sink;
    st.data = data;
    st.size = data ? size : 0;
    st.list = st.o->list & VC4_CL_LIST_ANY;
    if (st.list == VC4_CL_LIST_ANY)
        st.list = 0;
    if (!st.list && st.o->kernel_rules)
        st.list = VC4_CL_LIST_BIN; /* the only list a program hands the kernel */
    if (!st.list)
        st.list = guess_list(st.data, st.size);

    struct vc4_cl_reader r;
    struct vc4_cl_packet_view p;
    bool halted = false, branched = false;
    size_t last = 0, end_off = 0;
    int last_op = -1; /* opcode of the last packet walked, -1 for none */
    bool any = false;
    vc4_cl_reader_init(&r, st.data, st.size);
    for (;;) {
        if (kernel_gem_handles(&st, &r)) { /* the kernel's pseudo packet: no hardware packet */
            any = true;
            last = end_off = r.pos;
            last_op = VC4_KBIN_GEM_HANDLES;
            continue;
        }
        if (!vc4_cl_next(&r, &p))
            break;
        packet(&st, &p);
        any = true;
        last = p.offset;
        last_op = p.opcode;
        end_off = p.offset + p.length;
        if (p.opcode == VC4_CL_HALT) {
            halted = true; /* the kernel stops validating at Halt */
            break;
        }
        if (p.opcode == VC4_CL_BRANCH) {
            branched = true; /* the rest of the list is somewhere else */
            break;
        }
    }
    if (r.error != VC4_CL_LEN_OK) {
        size_t off = r.error_offset;
        const struct vc4_cl_packet_desc *d = vc4_cl_packet(st.data[off]);
        size_t len = 0;
        vc4_cl_packet_length(st.data + off, st.size - off, &len);
        if (r.error == VC4_CL_LEN_UNKNOWN_OPCODE)
            RULE(&st, VC4_ERROR, off, VC4_RULE_CL_UNKNOWN_OPCODE,
                 "unknown opcode %u (0x%02x): not a V3D 2.1 packet", st.data[off], st.data[off]);
        else if (r.error == VC4_CL_LEN_TRUNCATED)
            RULE(&st, VC4_ERROR, off, VC4_RULE_CL_TRUNCATED,
                 "%s: truncated: the packet needs %s%zu bytes, the list has %zu left",
                 d ? d->name : "packet", d && (d->flags & VC4_CL_PF_VARIABLE) ? "at least " : "",
                 len > st.size - off ? len : st.size - off + 1, st.size - off);
        else
            RULE(&st, VC4_ERROR, off, VC4_RULE_CL_BAD_ITEMS,
                 "%s: malformed primitive items at +%zu (tag 0x%02x)",
                d ? d->name : "packet", len, len < st.size - off ? st.data[off + len] : 0);
        return VC4_ERR_INVALID;
    }
    if (!any)
        WARN(&st, 0, "empty control list");

    /* end-of-list rules */
    if (st.list == VC4_CL_LIST_BIN && !branched) {
        if (!st.tbmc)
            RULE(&st, VC4_ERROR, last, VC4_RULE_CL_REQUIRED_BIN_CONFIG,
                 "binning list without a Tile Binning Mode Configuration");
        if (!st.stb)
            RULE(&st, VC4_ERROR, last, VC4_RULE_CL_REQUIRED_START_BINNING,
                 "binning list without Start Tile Binning");
        if (!st.flush)
            RULE(&st, VC4_ERROR, last, VC4_RULE_CL_BIN_ENDS_WITH_FLUSH,
                 "binning list does not end with Flush: the tile lists are never closed");
        else if (!st.inc_sem)
            WARN(&st, last,
                 "binning list without Increment Semaphore: a rendering list's Wait on "
                 "Semaphore never returns");
        if (st.o->kernel_rules) {
            if (!halted && (last_op != VC4_CL_FLUSH || end_off != st.size))
                RULE(&st, VC4_ERROR, last, VC4_RULE_KERNEL_FLUSH_LAST,
                     "the kernel wants Flush as the very last byte of the binning list");
            else if (!halted && (!st.inc_sem || st.inc_sem_off + 1 != last))
                RULE(&st, VC4_ERROR, last, VC4_RULE_KERNEL_SEMAPHORE_BEFORE_FLUSH,
                     "the kernel wants Increment Semaphore just before the final Flush");
        }
    } else if (st.list == VC4_CL_LIST_RENDER && !branched) {
        if (!st.trmc)
            RULE(&st, VC4_ERROR, last, VC4_RULE_CL_REQUIRED_RENDER_CONFIG,
                 "rendering list without a Tile Rendering Mode Configuration");
        else if (!st.tile)
            WARN(&st, last, "rendering list without Tile Coordinates: nothing is rendered");
        if (st.load_pending)
            WARN(&st, st.load_off,
                 "%s is never executed: no Tile Coordinates follow it",
                 vc4_cl_packet(st.data[st.load_off])->name);
        if (st.trmc && !st.eof)
            WARN(&st, last,
                 "rendering list never signals end of frame (Store Multi-sample ... and EOF, "
                 "or a store with last_tile)");
    }
    return st.errors ? VC4_ERR_INVALID : VC4_OK;
}
