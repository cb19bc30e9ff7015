/*
 * submit.c - DRM_IOCTL_VC4_SUBMIT_CL over the emulator: the kernel's copy
 * and validation of the binning list and shader records (Linux
 * vc4_validate.c), the exec buffer layout and job run (vc4_gem.c), then
 * binning and rendering on the emulated V3D.
 *
 * Facts carried over from Linux (read in Mesa's copy,
 * src/gallium/drivers/vc4/kernel/):
 *  - exec BO layout (vc4_get_bcl): the validated binning list at 0, the
 *    shader records at roundup(bin_cl_size, 16), the uniforms after them;
 *  - the binning list is copied packet by packet; only the whitelist
 *    (cl_packets.c VC4_CL_PF_KERNEL_BIN, plus GEM_HANDLES) is accepted;
 *    GEM_HANDLES (254, 9 bytes: two u32 indices into the submit's BO list)
 *    is not copied: it names the BOs the next packets use;
 *  - the rules on the packets themselves (one Tile Binning Mode
 *    Configuration with tiles and without double buffering or 64-bit
 *    colour, Start Tile Binning once and after it, GL Shader State with
 *    only its low 4 bits) are src/cl/cl_kernel.c's, which `vc4kit cl
 *    validate --kernel` applies too; the wording and the stop at the first
 *    are this file's;
 *  - Tile Binning Mode Configuration: the kernel supplies the tile state
 *    array (48 bytes a tile) and the tile allocation memory (32 bytes a
 *    tile rounded up to 256, plus 1 MiB; vc4k_options.tile_alloc_extra),
 *    forces auto-initialised state, 32-byte initial and 128-byte further
 *    blocks (validate_tile_binning_config); the packet is rewritten through
 *    the packet table (decoded, fields set, packed again);
 *  - Increment Semaphore as the next-to-last byte and Flush as the last
 *    (validate_increment_semaphore, validate_flush: validate_bin_pos);
 *  - Indexed Primitive List: the index buffer is GEM_HANDLES[0]; its offset
 *    becomes a bus address after a bounds check; the largest index
 *    (max_index) is kept per shader state for the attribute checks; Vertex
 *    Array Primitives raise max_index to base + length - 1;
 *  - GL Shader State: its low 4 bits (attribute count, extended) are kept,
 *    the address becomes the next validated shader record's;
 *  - each shader record is preceded in shader_rec by u32 BO indices: fs, vs,
 *    cs, then one per attribute; the record is 36 + 8n bytes (100 + 4n
 *    extended); code addresses at 4 (fs), 16 (vs), 28 (cs) must be offset 0
 *    of a shader BO; each shader's uniform stream (in `uniforms`) starts
 *    with one u32 BO index per texture lookup, then the uniforms it reads,
 *    in which each lookup's p0 is relocated; the uniforms address goes at
 *    code + 4; attribute addresses (36 + 8i) are relocated after checking
 *    size and (with the stride) the largest index;
 *  - the fragment shader's threading must match the record's
 *    FS_SINGLE_THREAD flag;
 *  - where a shader resets its uniforms address (qpu_kernel.c), the copied
 *    stream holds the stream's own bus address.
 */
#include <errno.h>
#include <stdio.h>

#include "cl/cl_kernel.h"
#include "kernel/kernel_internal.h"
#include "spec/rules.h"
#include "spec/tex_spec.h"
#include "vc4kit/tex.h"
#include "vc4kit/cl.h"

/* The kernel's tile memory (vc4_validate.c validate_tile_binning_config):
 * the tile state data array, 48 bytes a tile (facts §4.1), and one initial
 * block a tile, of the 32 bytes it sets as the initial block size. */
#define TILE_STATE_BYTES 48u   /* per tile */
#define TILE_INITIAL_BLOCK 32u /* per tile: VC4_CL_BLOCK_32 */

/* Shader record: code / uniforms address offsets, FS flags (vc4_packet.h
 * VC4_SHADER_FLAG_*); the attribute records and stride words are at the cl
 * table's VC4_CL_GL_RECORD_FIXED / VC4_CL_GL_EXT_STRIDE_OFFSET. */
static const uint32_t shader_code_offset[3] = {4, 16, 28}; /* fs, vs, cs */
#define SHADER_FLAG_FS_SINGLE_THREAD (1u << 0)

/* Binner overflow memory: the kernel hands out 512 KiB slots of its binner
 * BO (vc4_v3d.c bin_alloc_size); vc4kit gives 1 MiB BOs, at most 64 a job. */
#define VC4K_OVERFLOW_BYTES (1024u * 1024u)
#define VC4K_MAX_OVERFLOW 64u

struct shader_state { /* a GL Shader State packet */
    unsigned nattrs;    /* attribute arrays, 1..8 */
    bool extended;      /* extended record (stride words) */
    uint32_t max_index; /* the largest index its primitives use */
};

struct exec {
    struct vc4k *k;
    struct vc4k_submit *s;
    struct vc4k_bo **bos;
    uint8_t *v; /* exec BO host view */
    uint32_t exec_paddr, exec_size;
    uint32_t bin_end;               /* validated binning list bytes */
    uint32_t bo_index[2];
    struct vc4_kbin kbin; /* the packet rules' state (cl_kernel.h) */
    bool found_sema, found_flush;
    uint8_t tiles_x, tiles_y;
    uint32_t tile_handle, tile_paddr, tile_alloc_offset;
    struct shader_state *states;
    uint32_t nstates;
    uint32_t shader_rec_off, shader_rec_p; /* next validated record: offset in the exec BO */
    const uint8_t *rec_u;
    uint32_t rec_left;
    const uint8_t *uni_u;
    uint32_t uni_left;
    uint32_t uni_off; /* next validated uniform: offset in the exec BO */
    uint32_t overflow[VC4K_MAX_OVERFLOW]; /* binner overflow BOs */
    unsigned noverflow;
};

static int reject(struct exec *e, enum vc4_rule_id rule, int64_t at, const char *fmt, ...) VC4_PRINTF(4, 5);

static int reject(struct exec *e, enum vc4_rule_id rule, int64_t at, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    struct vc4_location loc = vc4_location_none();
    loc.addr = at;
    vc4_rule_report(&e->k->sink, VC4_ERROR, VC4K_UNIT, rule, &loc, "SUBMIT_CL: %s (-EINVAL)", msg);
    return -EINVAL;
}

/* The BO at index i of the submit's list, not a shader (vc4_use_bo). */
static struct vc4k_bo *use_bo(struct exec *e, uint32_t i, int64_t at, const char *what)
{
    if (i >= e->s->bo_handle_count) {
        reject(e, VC4_RULE_KERNEL_BO_INDEX, at, "%s: BO index %u, but the submit lists %u BOs", what, i,
               e->s->bo_handle_count);
        return NULL;
    }
    if (e->bos[i]->shader) {
        reject(e, VC4_RULE_KERNEL_BO_INDEX, at, "%s: BO index %u is a shader BO", what, i);
        return NULL;
    }
    return e->bos[i];
}

/* ---- the binning list ----------------------------------------------------- */

/* The packet at pkt (p its view) written again from its typed struct by the
 * table's packer: what the kernel changed goes in by field. */
static int repack(struct exec *e, const struct vc4_cl_packet_view *p, const void *s, uint8_t *pkt)
{
    uint64_t v[VC4_CL_MAX_FIELDS];
    vc4_cl_struct_to_values(&p->desc->layout, s, v);
    if (vc4_cl_pack(p->opcode, v, pkt, &e->k->sink) != VC4_OK)
        return -EINVAL; /* not reached: every value the kernel sets fits its field */
    return 0;
}

/* The Tile Binning Mode Configuration at pkt (the copy in the exec BO, p
 * its view) after the shared rules found faults kf: the kernel's own tile
 * memory and block sizes go in (validate_tile_binning_config). */
static int bin_config(struct exec *e, const struct vc4_cl_packet_view *p, uint8_t *pkt, unsigned kf, uint32_t at)
{
    struct vc4_cl_tile_binning_mode_config cfg;
    if (kf & VC4_KBIN_SECOND_CONFIG)
        return reject(e, VC4_RULE_KERNEL_ONE_BIN_CONFIG, at, "a second Tile Binning Mode Configuration");
    if (vc4_cl_decode_tile_binning_mode_config(p, &cfg) != VC4_OK)
        return -EINVAL; /* not reached: validate_bin hands over whole packets */
    e->tiles_x = (uint8_t)cfg.width_tiles;
    e->tiles_y = (uint8_t)cfg.height_tiles;
    if (kf & VC4_KBIN_NO_TILES)
        return reject(e, VC4_RULE_KERNEL_BIN_FLAGS, at, "binning %ux%u tiles", e->tiles_x, e->tiles_y);
    if (kf & VC4_KBIN_CONFIG_FLAGS) {
        /* the message shows the flags byte as the kernel's does: the byte
         * that holds the table's double_buffer_non_ms field */
        const struct vc4_cl_layout *l = &p->desc->layout;
        int fi = vc4_cl_field_index(l, "double_buffer_non_ms");
        return reject(e, VC4_RULE_KERNEL_BIN_FLAGS, at, "binning flags 0x%02x (double buffer or 64-bit)",
                      fi >= 0 ? p->payload[l->fields[fi].offset] : 0u);
    }
    uint32_t tiles = (uint32_t)e->tiles_x * e->tiles_y;
    e->tile_alloc_offset = (tiles * TILE_STATE_BYTES + VC4K_PAGE - 1) & ~(VC4K_PAGE - 1);
    uint32_t alloc = ((tiles * TILE_INITIAL_BLOCK + 255u) & ~255u) + e->k->tile_alloc_extra;
    struct vc4k_bo *tb;
    e->tile_handle = vc4k_bo_alloc(e->k, e->tile_alloc_offset + alloc, &tb);
    if (!e->tile_handle)
        return -ENOMEM;
    e->tile_paddr = tb->paddr;
    /* the rest (multisampling, tiles) stays as the program gave it */
    cfg.auto_init_tsda = true;
    cfg.initial_block_size = VC4_CL_BLOCK_32;
    cfg.block_size = VC4_CL_BLOCK_128;
    cfg.tile_alloc_addr = e->tile_paddr + e->tile_alloc_offset;
    cfg.tile_alloc_size = alloc;
    cfg.tsda_addr = e->tile_paddr;
    return repack(e, p, &cfg, pkt);
}

static struct shader_state *current_state(struct exec *e, uint32_t at)
{
    if (e->nstates == 0) {
        reject(e, VC4_RULE_KERNEL_SHADER_REC, at, "a primitive before any GL Shader State");
        return NULL;
    }
    return &e->states[e->nstates - 1];
}

/* p: the view of the validated copy at pkt. */
static int bin_packet(struct exec *e, const struct vc4_cl_packet_view *p, uint8_t *pkt, uint32_t at)
{
    const uint32_t size = e->s->bin_cl_size;
    unsigned kf = vc4_kbin_check(&e->kbin, p);
    switch (p->opcode) {
    case VC4_CL_TILE_BINNING_MODE_CONFIG:
        return bin_config(e, p, pkt, kf, at);
    case VC4_CL_START_TILE_BINNING:
        if (kf & VC4_KBIN_SECOND_START)
            return reject(e, VC4_RULE_KERNEL_ONE_START_BINNING, at, "a second Start Tile Binning");
        if (kf & VC4_KBIN_START_BEFORE_CONFIG)
            return reject(e, VC4_RULE_KERNEL_ONE_BIN_CONFIG, at,
                          "Start Tile Binning before the Tile Binning Mode Configuration");
        return 0;
    case VC4_CL_INCREMENT_SEMAPHORE:
        if (at != size - 2)
            return reject(e, VC4_RULE_KERNEL_SEMAPHORE_BEFORE_FLUSH, at,
                          "Increment Semaphore must be the next-to-last byte of the binning list");
        e->found_sema = true;
        return 0;
    case VC4_CL_FLUSH:
        if (at != size - 1)
            return reject(e, VC4_RULE_KERNEL_FLUSH_LAST, at, "Flush must be the last byte of the binning list");
        e->found_flush = true;
        return 0;
    case VC4_CL_INDEXED_PRIMITIVE_LIST: {
        struct vc4_cl_indexed_primitive_list ip;
        if (vc4_cl_decode_indexed_primitive_list(p, &ip) != VC4_OK)
            return -EINVAL; /* not reached: validate_bin hands over whole packets */
        /* the address is an offset in the index BO; any index type but
         * 8-bit counts as 2 bytes an index (validate_indexed_prim_list) */
        uint32_t length = ip.length, offset = ip.index_addr, max_index = ip.max_index;
        uint32_t index_size = ip.index_type != VC4_CL_INDEX_8BIT ? 2 : 1;
        struct shader_state *st = current_state(e, at);
        if (!st)
            return -EINVAL;
        if (max_index > st->max_index)
            st->max_index = max_index;
        struct vc4k_bo *ib = use_bo(e, e->bo_index[0], at, "index buffer");
        if (!ib)
            return -EINVAL;
        if (offset > ib->size || (ib->size - offset) / index_size < length)
            return reject(e, VC4_RULE_KERNEL_RELOC_RANGE, at,
                          "%u indices of %u bytes at offset %u run past the %u-byte index BO", length,
                          index_size, offset, ib->size);
        ip.index_addr = ib->paddr + offset;
        return repack(e, p, &ip, pkt);
    }
    case VC4_CL_VERTEX_ARRAY_PRIMITIVES: {
        struct vc4_cl_vertex_array_primitives va;
        if (vc4_cl_decode_vertex_array_primitives(p, &va) != VC4_OK)
            return -EINVAL; /* not reached */
        uint32_t length = va.length, base = va.first_index;
        struct shader_state *st = current_state(e, at);
        if (!st)
            return -EINVAL;
        if (length + base < length)
            return reject(e, VC4_RULE_KERNEL_RELOC_RANGE, at, "vertex count %u + base %u overflows", length,
                          base);
        if (length != 0 && length + base - 1 > st->max_index)
            st->max_index = length + base - 1;
        return 0;
    }
    case VC4_CL_GL_SHADER_STATE: {
        struct vc4_cl_gl_shader_state g;
        if (e->nstates >= e->s->shader_rec_count)
            return reject(e, VC4_RULE_KERNEL_SHADER_REC, at, "more GL Shader State packets than the %u declared",
                          e->s->shader_rec_count);
        if (kf & VC4_KBIN_SHADER_STATE_ADDR) /* the packet's one word, as the kernel saw it */
            return reject(e, VC4_RULE_KERNEL_SHADER_REC, at,
                          "GL Shader State 0x%08x: only the low 4 bits may be set", vc4_le32(p->payload));
        if (vc4_cl_decode_gl_shader_state(p, &g) != VC4_OK)
            return -EINVAL; /* not reached: validate_bin hands over whole packets */
        struct shader_state *st = &e->states[e->nstates++];
        st->nattrs = g.num_attr_arrays ? g.num_attr_arrays : VC4_CL_MAX_ATTRS;
        st->extended = g.extended;
        st->max_index = 0;
        /* the record's place in the exec BO (16-byte aligned: the BO is
         * page-aligned, the records are 16 apart), the low bits kept */
        g.record_addr = e->exec_paddr + e->shader_rec_p;
        e->shader_rec_p += (uint32_t)(vc4_cl_gl_record_size(st->nattrs, st->extended) + 15u) & ~15u;
        return repack(e, p, &g, pkt);
    }
    default:
        return 0;
    }
}

static int validate_bin(struct exec *e)
{
    const uint8_t *u = e->s->bin_cl;
    uint32_t len = e->s->bin_cl_size, src = 0, dst = 0;
    while (src < len) {
        unsigned op = u[src];
        uint32_t plen;
        const struct vc4_cl_packet_desc *d = vc4_cl_packet(op);
        if (op == VC4_KBIN_GEM_HANDLES) {
            plen = VC4_KBIN_GEM_HANDLES_BYTES;
        } else {
            if (!vc4_kbin_whitelisted(d))
                return reject(e, VC4_RULE_KERNEL_BIN_WHITELIST, src, "packet %u (%s) is not allowed in a binning list",
                              op, d ? d->name : "no such packet");
            plen = d->length;
        }
        if (src + plen > len)
            return reject(e, VC4_RULE_KERNEL_BIN_WHITELIST, src, "packet %u (%u bytes) runs past the %u-byte list",
                          op, plen, len);
        if (op == VC4_KBIN_GEM_HANDLES) {
            vc4_kbin_gem_handles(u + src, plen, e->bo_index); /* whole: checked above */
            src += plen;
            continue;
        }
        /* the copy is validated and relocated in place; the whitelisted
         * packets have a fixed length, so the view is the whole copy */
        uint8_t *pkt = e->v + dst;
        memcpy(pkt, u + src, plen);
        struct vc4_cl_reader rd;
        struct vc4_cl_packet_view view;
        vc4_cl_reader_init(&rd, pkt, plen);
        if (!vc4_cl_next(&rd, &view))
            return -EINVAL; /* not reached */
        int r = bin_packet(e, &view, pkt, src);
        if (r)
            return r;
        src += plen;
        dst += plen;
        if (op == VC4_CL_HALT)
            break;
    }
    e->bin_end = dst;
    if (!e->kbin.start)
        return reject(e, VC4_RULE_KERNEL_ONE_START_BINNING, len, "the binning list has no Start Tile Binning");
    if (!e->found_sema || !e->found_flush)
        return reject(e, VC4_RULE_KERNEL_FLUSH_LAST, len,
                      "the binning list must end with Increment Semaphore and Flush");
    return 0;
}

/* ---- shader records ------------------------------------------------------- */

/* Bytes a texel (a block for ETC1) of each texture type the kernel accepts;
 * 0: refused (BW1, A4, A1, RGBA64, YUV422R).  vc4_validate.c reloc_tex. */
static const uint8_t tex_cpp[32] = {
    [0] = 4, [1] = 4, [16] = 4,                  /* RGBA8888, RGBX8888, RGBA32R */
    [2] = 2, [3] = 2, [4] = 2, [7] = 2, [9] = 2, [11] = 2, /* 4444 5551 565 LUMALPHA S16F S16 */
    [5] = 1, [6] = 1, [10] = 1,                  /* LUMINANCE, ALPHA, S8 */
    [8] = 8,                                     /* ETC1: 4x4 blocks of 8 bytes */
};
#define TEX_TYPE_ETC1 8u
#define TEX_TYPE_RGBA32R 16u
#define TEX_NO_PARAM 0xFFFFFFFFu

/* A texture lookup's base level, every mip level under it (stored below
 * the base, each smaller one further down) and the other five cube faces
 * must lie in the BO: vc4_validate.c reloc_tex. */
static int check_texture(struct exec *e, const uint8_t *uni, const struct vc4k_tex_sample *t,
                         const struct vc4k_bo *tex, uint32_t at)
{
    uint32_t p[4] = {0, 0, 0, 0};
    for (unsigned i = 0; i < 4; i++)
        if (t->p_offset[i] != TEX_NO_PARAM)
            p[i] = vc4_le32(uni + t->p_offset[i]);
    uint32_t offset = vc4_tmu_field(p[0], VC4_TMU_F_BASE) << 12;
    uint32_t levels = vc4_tmu_field(p[0], VC4_TMU_F_MIPLVLS);
    uint32_t w = vc4_tmu_field(p[1], VC4_TMU_F_WIDTH), h = vc4_tmu_field(p[1], VC4_TMU_F_HEIGHT);
    uint32_t type = vc4_tmu_field(p[0], VC4_TMU_F_TYPE_LO) | vc4_tmu_field(p[1], VC4_TMU_F_TYPE_HI) << 4;
    w = w ? w : 2048u;
    h = h ? h : 2048u;
    uint32_t cube_stride = 0;
    if (vc4_tmu_field(p[0], VC4_TMU_F_CMMODE)) {
        for (unsigned i = 2; i < 4; i++) {
            if (t->p_offset[i] == TEX_NO_PARAM || vc4_tmu_field(p[i], VC4_TMU_F_PTYPE) != VC4_TMU_PT_CUBE_STRIDE)
                continue;
            if (cube_stride)
                return reject(e, VC4_RULE_KERNEL_RELOC_RANGE, at, "cube map stride given twice");
            cube_stride = vc4_tmu_field(p[i], VC4_TMU_F_CMST) << 12;
        }
        if (!cube_stride)
            return reject(e, VC4_RULE_KERNEL_RELOC_RANGE, at, "a cube map without a cube map stride");
    }
    uint32_t cpp = tex_cpp[type & 31u];
    if (!cpp)
        return reject(e, VC4_RULE_KERNEL_RELOC_RANGE, at, "texture type %u is not accepted", type);
    if (type == TEX_TYPE_ETC1) {
        w = (w + 3) >> 2;
        h = (h + 3) >> 2;
    }
    unsigned uw, uh;
    vc4_tex_utile_dims(cpp * 8u, &uw, &uh);
    unsigned tiling = type == TEX_TYPE_RGBA32R                 ? VC4K_TILING_LINEAR
                      : (w <= 4 * uw || h <= 4 * uh)           ? VC4K_TILING_LT
                                                               : VC4K_TILING_T;
    if (!vc4k_fits(tex, offset + cube_stride * 5u, tiling, w, h, cpp))
        return reject(e, VC4_RULE_KERNEL_RELOC_RANGE, at,
                      "a %ux%u texture (type %u) at offset %u does not fit the %u-byte BO", w, h, type, offset,
                      tex->size);
    for (uint32_t i = 1; i <= levels; i++) {
        uint32_t lw = w >> i ? w >> i : 1u, lh = h >> i ? h >> i : 1u, aw, ah;
        if (tiling == VC4K_TILING_T && (lw <= 4 * uw || lh <= 4 * uh))
            tiling = VC4K_TILING_LT;
        if (tiling == VC4K_TILING_T) {
            aw = (lw + 8 * uw - 1) / (8 * uw) * (8 * uw);
            ah = (lh + 8 * uh - 1) / (8 * uh) * (8 * uh);
        } else if (tiling == VC4K_TILING_LT) {
            aw = (lw + uw - 1) / uw * uw;
            ah = (lh + uh - 1) / uh * uh;
        } else {
            aw = (lw + uw - 1) / uw * uw;
            ah = lh;
        }
        uint32_t size = aw * cpp * ah;
        if (offset < size)
            return reject(e, VC4_RULE_KERNEL_RELOC_RANGE, at,
                          "mip level %u (%ux%u, %u bytes) does not fit below the base at offset %u", i, lw, lh,
                          size, offset);
        offset -= size;
    }
    return 0;
}

static int reloc_tex(struct exec *e, const uint8_t *uni_data, uint32_t uni_off, const struct vc4k_tex_sample *t,
                     uint32_t index, uint32_t rec_at)
{
    struct vc4k_bo *tex = use_bo(e, index, rec_at, "texture");
    if (!tex)
        return -EINVAL;
    uint32_t p0 = vc4_le32(uni_data + t->p_offset[0]);
    uint8_t *out = e->v + uni_off + t->p_offset[0];
    if (t->is_direct) {
        if (tex->size < 4 || p0 > tex->size - 4)
            return reject(e, VC4_RULE_KERNEL_RELOC_RANGE, rec_at,
                          "direct lookup base %u is outside the %u-byte BO", p0, tex->size);
        /* the offset was clamped to [0, p1] (qpu_kernel.c records where
         * p1 sits): base + p1 must still read inside the BO */
        uint32_t p1 = vc4_le32(uni_data + t->p_offset[1]);
        if (p1 > tex->size - p0 - 4)
            return reject(e, VC4_RULE_KERNEL_RELOC_RANGE, rec_at,
                          "direct lookup clamp %u lets base %u read past the %u-byte BO", p1, p0, tex->size);
        vc4_st32(out, tex->paddr + p0);
        return 0;
    }
    int r = check_texture(e, uni_data, t, tex, rec_at);
    if (r)
        return r;
    vc4_st32(out, tex->paddr + p0);
    return 0;
}

static int validate_rec(struct exec *e, const struct shader_state *st)
{
    uint32_t nattr = st->nattrs;
    uint32_t psize = (uint32_t)vc4_cl_gl_record_size(st->nattrs, st->extended), nrelocs = 3 + nattr;
    int64_t at = (int64_t)(e->s->shader_rec_size - e->rec_left);
    if (nrelocs * 4 > e->rec_left)
        return reject(e, VC4_RULE_KERNEL_SHADER_REC, at, "shader records end before %u BO indices", nrelocs);
    const uint8_t *handles = e->rec_u;
    e->rec_u += nrelocs * 4;
    e->rec_left -= nrelocs * 4;
    if (psize > e->rec_left)
        return reject(e, VC4_RULE_KERNEL_SHADER_REC, at, "shader records end before a %u-byte record", psize);
    const uint8_t *pu = e->rec_u;
    uint8_t *pv = e->v + e->shader_rec_off;
    memcpy(pv, pu, psize);
    e->rec_u += psize;
    e->rec_left -= psize;
    e->shader_rec_off += (psize + 15u) & ~15u;

    struct vc4k_bo *bo[3 + 8];
    for (uint32_t i = 0; i < 3; i++) {
        uint32_t idx = vc4_le32(handles + 4 * i);
        if (idx >= e->s->bo_handle_count || !e->bos[idx]->shader)
            return reject(e, VC4_RULE_KERNEL_SHADER_REC, at, "%s shader: BO index %u is not a shader BO",
                          i == 0 ? "fragment" : i == 1 ? "vertex" : "coordinate", idx);
        bo[i] = e->bos[idx];
    }
    for (uint32_t i = 3; i < nrelocs; i++) {
        bo[i] = use_bo(e, vc4_le32(handles + 4 * i), at, "attribute");
        if (!bo[i])
            return -EINVAL;
    }
    bool single = (vc4_le16(pu) & SHADER_FLAG_FS_SINGLE_THREAD) != 0;
    if (single == bo[0]->shader->is_threaded)
        return reject(e, VC4_RULE_KERNEL_SHADER_REC, at,
                      "the record's fragment-shader threading does not match the shader");
    if (bo[1]->shader->is_threaded || bo[2]->shader->is_threaded)
        return reject(e, VC4_RULE_KERNEL_SHADER_REC, at, "vertex and coordinate shaders cannot be threaded");

    for (uint32_t i = 0; i < 3; i++) {
        uint32_t o = shader_code_offset[i];
        const struct vc4k_shader_info *info = bo[i]->shader;
        if (vc4_le32(pu + o) != 0)
            return reject(e, VC4_RULE_KERNEL_SHADER_REC, at, "shaders must be at offset 0 of their BO");
        vc4_st32(pv + o, bo[i]->paddr);
        uint32_t src_size = info->num_samples * 4u + info->uniforms_size;
        if (src_size > e->uni_left)
            return reject(e, VC4_RULE_KERNEL_SHADER_REC, at,
                          "the uniforms end before the %u bytes the shader reads (%u texture indices + %u)",
                          src_size, info->num_samples, info->uniforms_size);
        const uint8_t *tex_idx = e->uni_u, *data = e->uni_u + info->num_samples * 4u;
        memcpy(e->v + e->uni_off, data, info->uniforms_size);
        /* uniform-address resets read the stream's own address there
         * (validate_gl_shader_rec: uniforms_v[o] = uniforms_p) */
        for (uint32_t j = 0; j < info->num_uniform_addr_offsets; j++)
            vc4_st32(e->v + e->uni_off + 4u * info->uniform_addr_offsets[j], e->exec_paddr + e->uni_off);
        for (uint32_t t = 0; t < info->num_samples; t++) {
            int r = reloc_tex(e, data, e->uni_off, &info->samples[t], vc4_le32(tex_idx + 4 * t), at);
            if (r)
                return r;
        }
        vc4_st32(pv + o + 4, e->exec_paddr + e->uni_off);
        e->uni_u += src_size;
        e->uni_left -= src_size;
        e->uni_off += info->uniforms_size;
    }

    for (uint32_t i = 0; i < nattr; i++) {
        struct vc4k_bo *vbo = bo[3 + i];
        uint32_t o = VC4_CL_GL_RECORD_FIXED + i * VC4_CL_ATTR_RECORD_SIZE;
        uint32_t offset = vc4_le32(pu + o), asize = pu[o + 4] + 1u, stride = pu[o + 5];
        if (st->extended)
            /* bits 31:8 in place (Linux vc4_validate.c validate_gl_shader_rec:
             * stride |= word & ~0xff; test_regression_extended_stride) */
            stride |= vc4_le32(pu + VC4_CL_GL_EXT_STRIDE_OFFSET + 4 * i) & ~UINT32_C(0xFF);
        if (vbo->size < offset || vbo->size - offset < asize)
            return reject(e, VC4_RULE_KERNEL_RELOC_RANGE, at, "attribute %u: %u bytes at %u run past the %u-byte BO",
                          i, asize, offset, vbo->size);
        if (stride != 0) {
            uint32_t max_index = (vbo->size - offset - asize) / stride;
            if (st->max_index > max_index)
                return reject(e, VC4_RULE_KERNEL_RELOC_RANGE, at,
                              "attribute %u: primitives use index %u, the BO holds %u", i, st->max_index,
                              max_index);
        }
        vc4_st32(pv + o, vbo->paddr + offset);
    }
    return 0;
}

/* ---- running -------------------------------------------------------------- */

/* The binner ran out of tile allocation memory (PCS.BMOOM, INTCTL.OUTOMEM):
 * give it overflow memory through BPOA/BPOS, as the kernel's OUTOMEM
 * interrupt handler does (vc4_irq.c vc4_overflow_mem_work: a fresh slot of
 * the binner BO), and let it go on.  The BO given stays the current one
 * (k->overflow_cur) past this job: BPOA/BPOS keep naming it, and the next
 * job's binner takes it when its own memory runs out (the binner takes
 * the pair when it is not the one it took last; vc4_irq.c: "If we had
 * overflow memory allocated previously, then that chunk will free when
 * the current bin job is done").  The one it replaces is freed with this
 * job.  Freeing every overflow BO at its job's end let the next job's
 * binner write its tile lists into freed memory, which the next overflow
 * BO then took and cleared: a tile list branched into zeros and the rest
 * of its primitives were lost (piglit's longprim under vc4kit exec). */
static bool give_overflow(struct exec *e)
{
    if (e->noverflow >= VC4K_MAX_OVERFLOW) {
        vc4_diag_emit(&e->k->sink, VC4_ERROR, VC4_DIAG_SEMANTIC, VC4K_UNIT, NULL,
                      "SUBMIT_CL: the binner wants more than %u x %u KiB of overflow memory (-ENOMEM)",
                      VC4K_MAX_OVERFLOW, VC4K_OVERFLOW_BYTES / 1024u);
        return false;
    }
    struct vc4k_bo *bo;
    uint32_t h = vc4k_bo_alloc(e->k, VC4K_OVERFLOW_BYTES, &bo);
    if (!h)
        return false;
    if (e->k->overflow_cur)
        e->overflow[e->noverflow++] = e->k->overflow_cur;
    e->k->overflow_cur = h;
    e->k->overflows++;
    vc4_emu_reg_write(e->k->emu, VC4_V3D_BPOA, bo->paddr);
    vc4_emu_reg_write(e->k->emu, VC4_V3D_BPOS, bo->size);
    vc4_emu_reg_write(e->k->emu, VC4_V3D_INTCTL, VC4_V3D_INT_OUTOMEM);
    return true;
}

static int run_thread(struct exec *e, unsigned thread, uint32_t start, uint32_t end)
{
    struct vc4_emu *emu = e->k->emu;
    uint32_t ca = thread ? VC4_V3D_CT1CA : VC4_V3D_CT0CA, ea = thread ? VC4_V3D_CT1EA : VC4_V3D_CT0EA;
    uint32_t cs = thread ? VC4_V3D_CT1CS : VC4_V3D_CT0CS;
    vc4_emu_reg_write(emu, ca, start);
    vc4_emu_reg_write(emu, ea, end);
    enum vc4_status st = vc4_emu_run(emu, e->k->max_cycles);
    uint32_t pcs = 0;
    while (vc4_emu_reg_read(emu, VC4_V3D_PCS, &pcs) == VC4_OK && (pcs & VC4_V3D_PCS_BMOOM)) {
        if (!give_overflow(e))
            return -ENOMEM;
        st = vc4_emu_run(emu, e->k->max_cycles);
    }
    uint32_t csv = 0;
    vc4_emu_reg_read(emu, cs, &csv);
    if (st != VC4_OK || (csv & VC4_V3D_CTCS_CTERR)) {
        vc4_diag_emit(&e->k->sink, VC4_ERROR, VC4_DIAG_FAULT, VC4K_UNIT, NULL,
                      "SUBMIT_CL: the %s job did not finish (%s, CT%uCS 0x%08x): the GPU hung (-EIO)",
                      thread ? "render" : "bin", vc4_status_name(st), thread, csv);
        /* vc4_gem.c vc4_reset: a hung GPU is reset (memory is kept), so
         * the next job starts on an idle V3D; BPOA/BPOS are cleared with
         * it, and the current overflow BO is freed with this job. */
        vc4_emu_reset(emu);
        if (e->k->overflow_cur && e->noverflow < VC4K_MAX_OVERFLOW) {
            e->overflow[e->noverflow++] = e->k->overflow_cur;
            e->k->overflow_cur = 0;
        }
        return -EIO;
    }
    return 0;
}

static int run(struct exec *e, uint32_t rcl_start, uint32_t rcl_end)
{
    struct vc4_emu *emu = e->k->emu;
    /* vc4_gem.c vc4_flush_caches: clear L2 and the slice caches (the
     * emulator keeps none stale, but the writes are what the kernel does). */
    vc4_emu_reg_write(emu, VC4_V3D_L2CACTL, 1u << 2);
    vc4_emu_reg_write(emu, VC4_V3D_SLCACTL, 0x0F0F0F0Fu);
    if (e->s->bin_cl_size) {
        int r = run_thread(e, 0, e->exec_paddr, e->exec_paddr + e->bin_end);
        if (r)
            return r;
    }
    return run_thread(e, 1, rcl_start, rcl_end);
}

int vc4k_submit_cl(struct vc4k *k, struct vc4k_submit *s)
{
    struct exec e = {.k = k, .s = s};
    int r = 0;
    uint32_t exec_handle = 0, rcl_handle = 0;

    if (s->bo_handle_count > 65536u || s->shader_rec_count > 65536u) {
        return reject(&e, VC4_RULE_KERNEL_BO_INDEX, -1, "%u BOs, %u shader records: too many", s->bo_handle_count,
                      s->shader_rec_count);
    }
    uint32_t rec_off = (s->bin_cl_size + 15u) & ~15u;
    uint64_t exec_size = (uint64_t)rec_off + s->shader_rec_size + s->uniforms_size;
    if (s->bin_cl_size > (1u << 24) || exec_size > (64u << 20))
        return reject(&e, VC4_RULE_KERNEL_BIN_WHITELIST, -1, "a %llu-byte exec buffer is too large",
                      (unsigned long long)exec_size);

    e.bos = vc4_calloc(k->alloc, s->bo_handle_count ? s->bo_handle_count : 1, sizeof *e.bos);
    e.states = vc4_calloc(k->alloc, s->shader_rec_count ? s->shader_rec_count : 1, sizeof *e.states);
    if (!e.bos || !e.states) {
        r = -ENOMEM;
        goto out;
    }
    for (uint32_t i = 0; i < s->bo_handle_count; i++) {
        e.bos[i] = vc4k_bo_get(k, s->bo_handles[i]);
        if (!e.bos[i]) {
            vc4_rule_report(&k->sink, VC4_ERROR, VC4K_UNIT, VC4_RULE_KERNEL_BO_INDEX, NULL,
                            "SUBMIT_CL: BO list entry %u: no BO with handle %u (-ENOENT)", i, s->bo_handles[i]);
            r = -ENOENT;
            goto out;
        }
    }

    struct vc4k_bo *xb;
    exec_handle = vc4k_bo_alloc(k, (uint32_t)(exec_size ? exec_size : 1), &xb);
    if (!exec_handle) {
        r = -ENOMEM;
        goto out;
    }
    e.exec_paddr = xb->paddr;
    e.exec_size = xb->size;
    e.v = vc4_emu_mem_ptr(k->emu, xb->paddr, xb->size);
    e.shader_rec_off = e.shader_rec_p = rec_off;
    e.uni_off = rec_off + s->shader_rec_size;
    e.rec_u = s->shader_rec;
    e.rec_left = s->shader_rec_size;
    e.uni_u = s->uniforms;
    e.uni_left = s->uniforms_size;

    if (s->bin_cl_size) {
        r = validate_bin(&e);
        if (r)
            goto out;
    }
    for (uint32_t i = 0; i < e.nstates && !r; i++)
        r = validate_rec(&e, &e.states[i]);
    if (r)
        goto out;

    struct vc4k_rcl_in in = {
        .s = s,
        .bos = e.bos,
        .has_bin = s->bin_cl_size != 0,
        .bin_tiles_x = e.tiles_x,
        .bin_tiles_y = e.tiles_y,
        .tile_alloc = e.tile_paddr + e.tile_alloc_offset,
    };
    uint32_t rcl_start, rcl_end;
    r = vc4k_rcl_build(k, &in, &rcl_handle, &rcl_start, &rcl_end);
    if (r)
        goto out;
    r = run(&e, rcl_start, rcl_end);
    if (r == 0)
        s->seqno = ++k->seqno;

out:
    if (rcl_handle)
        vc4k_bo_close(k, rcl_handle);
    if (e.tile_handle)
        vc4k_bo_close(k, e.tile_handle);
    if (exec_handle)
        vc4k_bo_close(k, exec_handle);
    for (unsigned i = 0; i < e.noverflow; i++)
        vc4k_bo_close(k, e.overflow[i]);
    vc4_free(k->alloc, e.bos);
    vc4_free(k->alloc, e.states);
    return r;
}
