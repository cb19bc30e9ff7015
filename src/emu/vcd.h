/*
 * vcd.h - GL mode's vertex fetch: the GL shader state (packet 64 and the
 * record it points to), the VCM/VCD that DMA each batch's attributes into
 * the VPM, and the VPM allocation between coordinate / vertex shading and
 * user programs.
 *
 * Sources: [S0] seed 000 (GL shader record, attribute streams, packet 64);
 * [S3] seed 003 (the GL flow VCM -> VCD -> VPM -> shader -> VPM -> PTB/PSE,
 * the 8 KB rule); [F] ../shared/reference/v3d-hardware-facts.md §2.1 (record
 * layout, extended strides), §2.4 (output formats), §8 (VPM, VPMBASE).
 *
 * VPM layout of one batch (up to 16 vertices), rows relative to the batch's
 * allocation (what the shaders address as generic rows 0..63):
 *
 *          col 0      col 1     ...  col 15        (one column per vertex)
 *   row 0  bytes 0-3 of vertex 0's attribute area, vertex 1's, ...
 *   row 1  bytes 4-7
 *   ...    (total attributes size / 4 rows, rounded up)
 *
 * Byte k of a stream whose VPM offset is O lands in row (O + k) / 4, byte
 * lane (O + k) % 4 of the vertex's column: each 32-bit word of a vertex's
 * attributes is one horizontal row across the batch, so a horizontal
 * 32-bit read of row r gives that word for all 16 vertices (seed 000's
 * shaders read 0x1A00-style setups, facts §8.2: "inputs from VCD start at
 * 0"; the outputs go to rows of their own, after the inputs: vsi.c says
 * why).  Byte placement for sizes / offsets that
 * are not multiples of 4 is UNVERIFIED (follows from per-vertex bytes of
 * VPM, facts §2.1).
 */
#ifndef VC4_EMU_VCD_H
#define VC4_EMU_VCD_H

#include <stdbool.h>
#include <stdint.h>

#include "vc4kit/cl.h"
#include "vc4kit/diag.h"

struct vc4_v3d;

#define VC4_GL_MAX_ATTRS 8u
#define VC4_GL_BATCH 16u           /* vertices per shader batch (one per SIMD element) */
#define VC4_GL_CS_OUT_ROWS 7u      /* Xc Yc Zc Wc, Xs/Ys, Zs, 1/Wc (facts §2.4) */
#define VC4_GL_VS_OUT_ROWS 3u      /* Xs/Ys, Zs, 1/Wc, then [point size], varyings */
#define VC4_GL_MAX_OUT_ROWS 64u    /* generic VPM rows a shader can address */
#define VC4_GL_3D_MIN_VPM 8192u    /* bytes of VPM 3D needs [S3, quoting the guide] */
#define VC4_GL_URSV_UNIT 256u      /* VPMBASE.VPMURSV unit in bytes: VC4C's comment [F §8.1], UNVERIFIED */

enum vc4_gl_stage { VC4_GL_CS = 0, VC4_GL_VS = 1 };

/* One attribute stream (record 36 + 8i, and its extended stride word). */
struct vc4_gl_attr {
    uint32_t addr;
    uint32_t size;    /* bytes per vertex (number of bytes - 1, plus 1) */
    uint32_t stride;  /* bytes between vertices, with the extended bits */
    uint32_t vpm_off[2]; /* [VC4_GL_CS], [VC4_GL_VS]: byte offset in the vertex's VPM area */
};

/* A decoded GL shader state: the packet and its record. */
struct vc4_gl_state {
    bool valid;
    uint32_t record_addr;
    unsigned nattrs;      /* attribute records present (1..8) */
    bool extended;
    struct vc4_cl_gl_shader_record rec;
    struct vc4_gl_attr attr[VC4_GL_MAX_ATTRS];
};

/* Per-stage view of the record. */
static inline uint32_t vc4_gl_select(const struct vc4_gl_state *g, enum vc4_gl_stage s)
{
    return s == VC4_GL_CS ? g->rec.cs_attr_select : g->rec.vs_attr_select;
}
static inline uint32_t vc4_gl_attr_size(const struct vc4_gl_state *g, enum vc4_gl_stage s)
{
    return s == VC4_GL_CS ? g->rec.cs_attr_size : g->rec.vs_attr_size;
}
static inline uint32_t vc4_gl_code(const struct vc4_gl_state *g, enum vc4_gl_stage s)
{
    return s == VC4_GL_CS ? g->rec.cs_code_addr : g->rec.vs_code_addr;
}
static inline uint32_t vc4_gl_unif(const struct vc4_gl_state *g, enum vc4_gl_stage s)
{
    return s == VC4_GL_CS ? g->rec.cs_uniforms_addr : g->rec.vs_uniforms_addr;
}
/* VPM rows the VCD fills (total attributes size in words, rounded up). */
static inline unsigned vc4_gl_in_rows(const struct vc4_gl_state *g, enum vc4_gl_stage s)
{
    return (vc4_gl_attr_size(g, s) + 3u) / 4u;
}
/* Rows the shader must write (facts §2.4): CS 7 (+ point size); VS 3 (+
 * point size) + the fragment shader's varyings. */
unsigned vc4_gl_out_rows(const struct vc4_gl_state *g, enum vc4_gl_stage s);

extern const char *const vc4_gl_stage_name[2]; /* "coordinate shader", "vertex shader" */

/*
 * Read packet 64's record from memory and check it; diagnostics go to the
 * v3d's unit sink with unit `unit` and location loc (the packet).  Returns
 * false (and leaves out->valid false) when the record cannot be used:
 * outside memory, or no attribute stream.  Findings that still leave a
 * usable record (misaligned record, select bits naming absent records,
 * streams beyond the total attributes size, overlapping streams) are
 * warnings.
 */
bool vc4_vcd_read_state(struct vc4_v3d *v, const struct vc4_cl_gl_shader_state *pkt,
                        struct vc4_gl_state *out, const char *unit, const struct vc4_location *loc);

/*
 * VPM rows available to 3D (VPMSZ less the VPMBASE user reservation) and
 * the first of them (user programs keep rows from 0).  Warns once per call
 * site's flag *warned when less than 8 KB is left for 3D [S3].
 */
void vc4_vcd_vpm_window(struct vc4_v3d *v, uint32_t *first_row, uint32_t *rows, bool *warned,
                        const char *unit, const struct vc4_location *loc);

/*
 * The VCD: fetch the attributes of vertices index[0..n) (n <= 16) for
 * stage s into the VPM rows starting at base_row (vertex i in column i).
 * Reads outside memory give zero bytes and one error each stream
 * (returns false then).
 */
bool vc4_vcd_fetch(struct vc4_v3d *v, const struct vc4_gl_state *g, enum vc4_gl_stage s,
                   const uint32_t *index, unsigned n, uint32_t base_row, const char *unit,
                   const struct vc4_location *loc);

#endif
