/*
 * vcd.c - the GL shader state record, the VCD's attribute fetch into the
 * VPM and the VPM window for 3D (see vcd.h for the layout and sources).
 */
#include "emu/vcd.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "spec/rules.h"
#include "emu/v3d.h"

#define GL_RECORD_ALIGN 16u
#define EXT_STRIDE_KEEP 0xFFFFFF00u /* extended words: bits 31:8 extend the 8-bit stride (facts §2.1) */

const char *const vc4_gl_stage_name[2] = {
    [VC4_GL_CS] = "coordinate shader",
    [VC4_GL_VS] = "vertex shader",
};

unsigned vc4_gl_out_rows(const struct vc4_gl_state *g, enum vc4_gl_stage s)
{
    unsigned ps = g->rec.point_size_included ? 1u : 0u;
    if (s == VC4_GL_CS)
        return VC4_GL_CS_OUT_ROWS + ps;
    unsigned n = VC4_GL_VS_OUT_ROWS + ps + g->rec.fs_num_varyings;
    return n < VC4_GL_MAX_OUT_ROWS ? n : VC4_GL_MAX_OUT_ROWS;
}

/* rule: VC4_RULE_NONE for a plain (non-rule) diagnostic */
static void gl_diag(struct vc4_v3d *v, enum vc4_severity sev, const char *unit, const struct vc4_location *loc,
                    enum vc4_rule_id rule, const char *fmt, ...) VC4_PRINTF(6, 7);
static void gl_diag(struct vc4_v3d *v, enum vc4_severity sev, const char *unit, const struct vc4_location *loc,
                    enum vc4_rule_id rule, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    vc4_rule_report(&v->unit_sink, sev, unit, rule, loc, "%s", msg);
}

/* Check one stage's streams: selected records exist, fit the total
 * attributes size and do not overlap.  The last two are notes: Mesa's vc4
 * driver, which runs on every Pi, declares each attribute with its format's
 * full size (vc4_draw.c: number_of_bytes_minus_1 = elem_size - 1) but packs
 * the VPM offsets and the total by the components the shader uses
 * (vc4_program.c vattr_sizes / vattr_offsets[8]), so a vec4 stream read as
 * a vec3 overlaps the next attribute or reaches past the total.  The later
 * attribute's bytes win, and the shader reads only the total (vsi.c). */
static void check_stage(struct vc4_v3d *v, const struct vc4_gl_state *g, enum vc4_gl_stage s, const char *unit,
                        const struct vc4_location *loc)
{
    const char *who = vc4_gl_stage_name[s];
    uint32_t sel = vc4_gl_select(g, s), total = vc4_gl_attr_size(g, s);
    uint8_t map[256]; /* which attribute owns each VPM byte of a vertex (0xFF = none) */
    memset(map, 0xFF, sizeof map);
    bool beyond_told = false, overlap_told = false; /* one of each per stage */
    if ((sel & ((1u << g->nattrs) - 1u)) == 0)
        gl_diag(v, VC4_WARNING, unit, loc, VC4_RULE_GL_NO_ATTRIBUTE,
                "GL record 0x%08x: the %s fetches no attribute; Mesa always gives each shader at least one "
                "(its simulator requires every shader to read one: facts §3.5)",
                g->record_addr, who);
    for (unsigned i = 0; i < VC4_GL_MAX_ATTRS; i++) {
        if (!((sel >> i) & 1u))
            continue;
        if (i >= g->nattrs) {
            gl_diag(v, VC4_WARNING, unit, loc, VC4_RULE_GL_ATTR_SELECT,
                    "GL record 0x%08x: the %s's select bits name attribute %u but packet 64 declares %u "
                    "attribute record(s): attribute %u is not fetched",
                    g->record_addr, who, i, g->nattrs, i);
            continue;
        }
        const struct vc4_gl_attr *a = &g->attr[i];
        uint32_t off = a->vpm_off[s];
        if (off + a->size > total && !beyond_told) {
            beyond_told = true;
            gl_diag(v, VC4_NOTE, unit, loc, VC4_RULE_GL_ATTR_TOTAL_SIZE,
                    "GL record 0x%08x: %s attribute %u (VPM offset %u, %u bytes) reaches beyond the total "
                    "attributes size %u: the bytes beyond it are not the vertex's (Mesa does this when a "
                    "shader uses fewer components than the format has)",
                    g->record_addr, who, i, off, a->size, total);
        }
        for (uint32_t k = 0; k < a->size && off + k < sizeof map; k++) {
            if (map[off + k] != 0xFF && !overlap_told) {
                overlap_told = true;
                gl_diag(v, VC4_NOTE, unit, loc, VC4_RULE_GL_ATTR_OVERLAP,
                        "GL record 0x%08x: %s attributes %u and %u overlap in the VPM at byte %u: the later "
                        "stream overwrites the earlier",
                        g->record_addr, who, map[off + k], i, off + k);
                break;
            }
            map[off + k] = (uint8_t)i;
        }
    }
    if (vc4_gl_code(g, s) % 8u)
        gl_diag(v, VC4_WARNING, unit, loc, VC4_RULE_NONE,
                "GL record 0x%08x: %s code address 0x%08x is not 8-byte aligned",
                g->record_addr, who, vc4_gl_code(g, s));
}

bool vc4_vcd_read_state(struct vc4_v3d *v, const struct vc4_cl_gl_shader_state *pkt,
                        struct vc4_gl_state *out, const char *unit, const struct vc4_location *loc)
{
    memset(out, 0, sizeof *out);
    out->record_addr = pkt->record_addr;
    out->nattrs = pkt->num_attr_arrays ? pkt->num_attr_arrays : VC4_GL_MAX_ATTRS;
    out->extended = pkt->extended;
    if (out->record_addr % GL_RECORD_ALIGN)
        gl_diag(v, VC4_WARNING, unit, loc, VC4_RULE_NONE, "GL shader record 0x%08x is not 16-byte aligned",
                out->record_addr);
    size_t size = vc4_cl_gl_record_size(out->nattrs, out->extended);
    uint8_t rec[VC4_CL_GL_EXT_STRIDE_OFFSET + 4 * VC4_GL_MAX_ATTRS];
    if (size > sizeof rec || !vc4_mem_read(&v->mem, out->record_addr, rec, (uint32_t)size)) {
        gl_diag(v, VC4_ERROR, unit, loc, VC4_RULE_NONE,
                "GL shader record 0x%08x (%zu bytes for %u attribute record(s)%s) is outside memory",
                out->record_addr, size, out->nattrs, out->extended ? ", extended" : "");
        return false;
    }
    vc4_cl_gl_shader_record_unpack(rec, &out->rec);
    for (unsigned i = 0; i < out->nattrs; i++) {
        struct vc4_cl_attr_record ar;
        vc4_cl_attr_record_unpack(rec + VC4_CL_GL_RECORD_FIXED + 8 * i, &ar);
        struct vc4_gl_attr *a = &out->attr[i];
        a->addr = ar.address;
        a->size = ar.num_bytes_minus_1 + 1;
        a->stride = ar.stride;
        if (out->extended)
            a->stride |= vc4_le32(rec + VC4_CL_GL_EXT_STRIDE_OFFSET + 4 * i) & EXT_STRIDE_KEEP;
        a->vpm_off[VC4_GL_CS] = ar.cs_vpm_offset;
        a->vpm_off[VC4_GL_VS] = ar.vs_vpm_offset;
    }
    check_stage(v, out, VC4_GL_CS, unit, loc);
    check_stage(v, out, VC4_GL_VS, unit, loc);
    if (out->rec.fs_num_varyings > VC4_GL_MAX_OUT_ROWS - VC4_GL_VS_OUT_ROWS - 1)
        gl_diag(v, VC4_WARNING, unit, loc, VC4_RULE_NONE,
                "GL record 0x%08x: %u varyings do not fit the 64 VPM rows a vertex shader can write",
                out->record_addr, out->rec.fs_num_varyings);
    out->valid = true;
    return true;
}

void vc4_vcd_vpm_window(struct vc4_v3d *v, uint32_t *first_row, uint32_t *rows, bool *warned,
                        const char *unit, const struct vc4_location *loc)
{
    uint32_t size = v->vpm.size_bytes;
    uint32_t ursv = (v->regs.val[VC4_V3D_VPMBASE / 4] & 0x1Fu) * VC4_GL_URSV_UNIT;
    if (ursv > size)
        ursv = size;
    uint32_t left = size - ursv;
    if (left < VC4_GL_3D_MIN_VPM && !*warned) {
        *warned = true;
        vc4_rule_report(&v->unit_sink, VC4_WARNING, unit, VC4_RULE_GL_VPM_8KB, loc,
                        "VPMBASE reserves %u of the %u bytes of VPM for user programs, leaving %u for "
                        "vertex and coordinate shading: at least 8 KB must be left for 3D",
                        ursv, size, left);
    }
    *first_row = ursv / (VC4_VPM_ROW_WORDS * 4u);
    *rows = left / (VC4_VPM_ROW_WORDS * 4u);
}

bool vc4_vcd_fetch(struct vc4_v3d *v, const struct vc4_gl_state *g, enum vc4_gl_stage s,
                   const uint32_t *index, unsigned n, uint32_t base_row, const char *unit,
                   const struct vc4_location *loc)
{
    uint32_t sel = vc4_gl_select(g, s);
    bool ok = true;
    if (n > VC4_GL_BATCH)
        n = VC4_GL_BATCH;
    for (unsigned i = 0; i < g->nattrs; i++) {
        if (!((sel >> i) & 1u))
            continue;
        const struct vc4_gl_attr *a = &g->attr[i];
        bool reported = false;
        for (unsigned c = 0; c < n; c++) {
            static const uint8_t zeros[256]; /* (size: an 8-bit field, plus 1) */
            uint64_t at = (uint64_t)a->addr + (uint64_t)index[c] * a->stride;
            /* (read in place: copied to the stack first, each word's load
             * waited for the copy's stores) */
            const uint8_t *buf = at > UINT32_MAX ? NULL : vc4_mem_ptr(&v->mem, (uint32_t)at, a->size);
            if (!buf) {
                buf = zeros;
                ok = false;
                if (!reported)
                    vc4_diag_emit(&v->unit_sink, VC4_ERROR, VC4_DIAG_FAULT, unit, loc,
                                  "GL record 0x%08x: %s attribute %u of vertex %u at 0x%08llx (%u bytes) is "
                                  "outside memory: zeros fetched",
                                  g->record_addr, vc4_gl_stage_name[s], i, index[c], (unsigned long long)at,
                                  a->size);
                reported = true;
            }
            uint32_t k = 0;
            if (a->vpm_off[s] % 4u == 0) /* whole words: one row each */
                for (; k + 4 <= a->size; k += 4)
                    vc4_vpm_poke(&v->vpm, base_row + (a->vpm_off[s] + k) / 4u, c, vc4_le32(buf + k));
            for (; k < a->size; k++) {
                uint32_t b = a->vpm_off[s] + k;
                unsigned row = base_row + b / 4u, lane = b % 4u;
                uint32_t w = vc4_vpm_peek(&v->vpm, row, c);
                w = (w & ~(0xFFu << (8u * lane))) | (uint32_t)buf[k] << (8u * lane);
                vc4_vpm_poke(&v->vpm, row, c, w);
            }
        }
    }
    return ok;
}
