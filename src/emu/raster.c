/*
 * raster.c - triangle coverage with exact edge functions and the top-left
 * fill rule, quads and 16-pixel batches (see raster.h for the rules).
 */
#include <assert.h>
#include <string.h>

#include "base/base.h"
#include "emu/raster.h"

/* (3/8, 1/8), (7/8, 3/8), (1/8, 5/8), (5/8, 7/8) of a pixel in 1/16 px
 * (the standard 4x rotated grid; UNVERIFIED for the V3D). */
const uint8_t vc4_raster_sample_pos[4][2] = {{6, 2}, {14, 6}, {2, 10}, {10, 14}};

/* A quad's pixels (elements, raster.h), the most samples a pixel has, a
 * triangle's edges. */
enum { QUAD_PIXELS = 4, MAX_SAMPLES = 4, EDGES = 3 };
static_assert(VC4_ARRAY_SIZE(vc4_raster_sample_pos) == MAX_SAMPLES, "the 4x sample grid");

struct edges {
    int64_t a[EDGES], b[EDGES], c[EDGES]; /* E(p) = a*px + b*py + c */
    int64_t bias[EDGES];                  /* covered when E >= bias: 0 top-left edges, 1 others */
};

int64_t vc4_raster_area(const struct vc4_raster_tri *t)
{
    int64_t dx1 = (int64_t)t->x[1] - t->x[0], dy1 = (int64_t)t->y[1] - t->y[0];
    int64_t dx2 = (int64_t)t->x[2] - t->x[0], dy2 = (int64_t)t->y[2] - t->y[0];
    return dx1 * dy2 - dx2 * dy1;
}

/* Edge functions of the triangle turned to positive area; false when the
 * area is zero. */
static bool setup_edges(const struct vc4_raster_tri *t, struct edges *e)
{
    int64_t s = vc4_raster_area(t);
    if (s == 0)
        return false;
    int64_t x[3] = {t->x[0], t->x[1], t->x[2]}, y[3] = {t->y[0], t->y[1], t->y[2]};
    if (s < 0) { /* swap vertices 1 and 2: same triangle, positive area */
        int64_t tx = x[1], ty = y[1];
        x[1] = x[2];
        y[1] = y[2];
        x[2] = tx;
        y[2] = ty;
    }
    for (int k = 0; k < 3; k++) {
        int i = k, j = (k + 1) % 3;
        int64_t dx = x[j] - x[i], dy = y[j] - y[i];
        /* E(p) = dx*(py - yi) - dy*(px - xi) */
        e->a[k] = -dy;
        e->b[k] = dx;
        e->c[k] = dy * x[i] - dx * y[i];
        bool top_left = dy < 0 || (dy == 0 && dx > 0);
        e->bias[k] = top_left ? 0 : 1;
    }
    return true;
}

static inline bool inside(const struct edges *e, int64_t px, int64_t py)
{
    for (int k = 0; k < 3; k++)
        if (e->a[k] * px + e->b[k] * py + e->c[k] < e->bias[k])
            return false;
    return true;
}

bool vc4_raster_covers(const struct vc4_raster_tri *t, int64_t px, int64_t py)
{
    struct edges e;
    return setup_edges(t, &e) && inside(&e, px, py);
}

static int32_t floor_div16(int64_t v)
{
    return (int32_t)(v >= 0 ? v / VC4_RASTER_SUBPIXEL : -((-v + VC4_RASTER_SUBPIXEL - 1) / VC4_RASTER_SUBPIXEL));
}

/* Covered samples in a sample mask (no popcount instruction in baseline
 * x86-64: the builtin is a library call, 3% of a frame). */
static const uint8_t samples_in[1u << MAX_SAMPLES] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

/* The coverage bits of one element (pixel) of a quad: sample s of the
 * pixel is covered when every edge function, less its bias, is >= 0 at
 * the sample, i.e. when their OR has a clear sign bit.  e: the three at the
 * quad's origin (less the biases), off: each sample's offset from there
 * for this element.  Additions only, and no branch on the outcome (the
 * outcomes along a triangle's edges are what no predictor learns). */
static VC4_ALWAYS_INLINE unsigned pixel_cov(const int64_t e[EDGES], int64_t (*off)[EDGES], unsigned nsamp)
{
    unsigned m = 0;
    for (unsigned s = 0; s < nsamp; s++) {
        int64_t v = (e[0] + off[s][0]) | (e[1] + off[s][1]) | (e[2] + off[s][2]);
        m |= (unsigned)(~(uint64_t)v >> 63) << s;
    }
    return m;
}

/* The quads of rows qy0.. (see vc4_raster_triangle), nsamp samples a pixel
 * (inlined with a constant 1 or 4, so that the sample loop unrolls). */
static VC4_ALWAYS_INLINE uint64_t raster_quads(const struct edges *e, int64_t (*off)[MAX_SAMPLES][EDGES],
                                               unsigned nsamp, int32_t qx0, int32_t qy0, int32_t px0,
                                               int32_t py0, int32_t px1, int32_t py1, vc4_raster_emit_fn emit,
                                               void *user)
{
    struct vc4_raster_batch b;
    memset(&b, 0, sizeof b);
    uint64_t count = 0;
    /* The quads of a row worth testing: a quad can have a covered sample
     * only if, for every edge, the largest of its samples' values (its
     * origin's plus omax) is >= 0, and along a row those grow or shrink
     * by a fixed step a quad.  So the row's quads that fail that for some
     * edge, at its two ends, are skipped unseen: they would give no
     * coverage (two thirds of the quads of a lit sphere's small triangles
     * were such). */
    int64_t omax[EDGES], step[EDGES];
    for (int k = 0; k < EDGES; k++) {
        omax[k] = off[0][0][k];
        for (unsigned el = 0; el < QUAD_PIXELS; el++)
            for (unsigned s = 0; s < nsamp; s++)
                omax[k] = off[el][s][k] > omax[k] ? off[el][s][k] : omax[k];
        step[k] = e->a[k] * (2 * VC4_RASTER_SUBPIXEL);
    }
    const int64_t last = (px1 - 1 - qx0) / 2; /* the row's last quad, from 0 */
    for (int32_t qy = qy0; qy < py1; qy += 2) {
        /* elements inside the rows: 0, 1 on row qy; 2, 3 on row qy + 1 */
        unsigned ym = (qy >= py0 ? 0x3u : 0u) | (qy + 1 < py1 ? 0xCu : 0u);
        int64_t ev[EDGES], lo = 0, hi = last;
        for (int k = 0; k < EDGES; k++) {
            ev[k] = e->a[k] * ((int64_t)qx0 * VC4_RASTER_SUBPIXEL) + e->b[k] * ((int64_t)qy * VC4_RASTER_SUBPIXEL) +
                    e->c[k] - e->bias[k];
            int64_t g = ev[k] + omax[k]; /* quad 0's largest sample value */
            if (step[k] > 0 && g < 0) {
                int64_t n = (-g + step[k] - 1) / step[k]; /* the first quad where it is >= 0 */
                lo = n > lo ? n : lo;
            } else if (step[k] < 0) {
                int64_t n = g < 0 ? -1 : g / -step[k]; /* the last quad where it is >= 0 */
                hi = n < hi ? n : hi;
            } else if (step[k] == 0 && g < 0) {
                hi = -1;
            }
        }
        if (lo > hi)
            continue;
        for (int k = 0; k < EDGES; k++)
            ev[k] += lo * step[k];
        for (int32_t qx = qx0 + 2 * (int32_t)lo; qx <= qx0 + 2 * (int32_t)hi; qx += 2) {
            /* and inside the columns: 0, 2 on column qx; 1, 3 on qx + 1 */
            unsigned m = ym & ((qx >= px0 ? 0x5u : 0u) | (qx + 1 < px1 ? 0xAu : 0u));
            uint8_t cov[QUAD_PIXELS];
            unsigned any = 0;
            for (unsigned el = 0; el < QUAD_PIXELS; el++) {
                unsigned c = pixel_cov(ev, off[el], nsamp) & (0u - ((m >> el) & 1u));
                cov[el] = (uint8_t)c;
                any |= c;
                count += samples_in[c];
            }
            for (int k = 0; k < EDGES; k++)
                ev[k] += step[k];
            if (!any)
                continue;
            unsigned base = QUAD_PIXELS * b.nquads;
            for (unsigned el = 0; el < QUAD_PIXELS; el++) {
                b.x[base + el] = (uint16_t)(qx + (int32_t)(el & 1));
                b.y[base + el] = (uint16_t)(qy + (int32_t)(el >> 1));
                b.cov[base + el] = cov[el];
            }
            if (++b.nquads == VC4_RASTER_QUADS) {
                if (!emit(user, &b))
                    return count;
                memset(&b, 0, sizeof b);
            }
        }
    }
    if (b.nquads)
        emit(user, &b);
    return count;
}

uint64_t vc4_raster_triangle(const struct vc4_raster_tri *t, const struct vc4_raster_rect *r, bool ms,
                             vc4_raster_emit_fn emit, void *user)
{
    struct edges e;
    if (!setup_edges(t, &e) || r->x0 >= r->x1 || r->y0 >= r->y1)
        return 0;
    /* pixels whose sample points can be inside: the bounding box, widened
     * by one pixel (sample points lie inside their pixel) */
    int64_t minx = t->x[0], maxx = t->x[0], miny = t->y[0], maxy = t->y[0];
    for (int k = 1; k < 3; k++) {
        minx = t->x[k] < minx ? t->x[k] : minx;
        maxx = t->x[k] > maxx ? t->x[k] : maxx;
        miny = t->y[k] < miny ? t->y[k] : miny;
        maxy = t->y[k] > maxy ? t->y[k] : maxy;
    }
    int32_t px0 = floor_div16(minx), px1 = floor_div16(maxx) + 1;
    int32_t py0 = floor_div16(miny), py1 = floor_div16(maxy) + 1;
    px0 = px0 < r->x0 ? r->x0 : px0;
    py0 = py0 < r->y0 ? r->y0 : py0;
    px1 = px1 > r->x1 ? r->x1 : px1;
    py1 = py1 > r->y1 ? r->y1 : py1;
    if (px0 >= px1 || py0 >= py1)
        return 0;
    /* quads sit at even frame coordinates */
    int32_t qx0 = px0 & ~1, qy0 = py0 & ~1;

    /* each element's sample offsets from its quad's origin, edge by edge */
    static const uint8_t centre[1][2] = {{VC4_RASTER_CENTRE, VC4_RASTER_CENTRE}};
    const uint8_t(*pos)[2] = ms ? vc4_raster_sample_pos : centre;
    unsigned nsamp = ms ? MAX_SAMPLES : 1;
    int64_t off[QUAD_PIXELS][MAX_SAMPLES][EDGES];
    for (unsigned el = 0; el < QUAD_PIXELS; el++)
        for (unsigned s = 0; s < nsamp; s++)
            for (int k = 0; k < EDGES; k++)
                off[el][s][k] = e.a[k] * ((int64_t)(el & 1) * VC4_RASTER_SUBPIXEL + pos[s][0]) +
                                e.b[k] * ((int64_t)(el >> 1) * VC4_RASTER_SUBPIXEL + pos[s][1]);
    if (ms)
        return raster_quads(&e, off, MAX_SAMPLES, qx0, qy0, px0, py0, px1, py1, emit, user);
    return raster_quads(&e, off, 1, qx0, qy0, px0, py0, px1, py1, emit, user);
}
