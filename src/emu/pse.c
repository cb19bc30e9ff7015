/*
 * pse.c - primitive setup: interpolation planes, facing, point and line
 * quads (see pse.h for the rules and the arithmetic).
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "base/base.h"
#include "emu/pse.h"

/* double -> float without leaving float's range (no undefined conversion;
 * the common case, a finite sum inside it, tested first and alone) */
static inline float to_float(double d)
{
    if (VC4_LIKELY(fabs(d) <= (double)FLT_MAX))
        return (float)d;
    if (d != d)
        return 0.0f;
    if (d > (double)FLT_MAX)
        return FLT_MAX;
    if (d < -(double)FLT_MAX)
        return -FLT_MAX;
    return (float)d;
}

/*
 * The plane through (X_i, Y_i, f_i), i = 0..2, positions in 1/16 pixel:
 *   a = ((f1-f0)(Y2-Y0) - (f2-f0)(Y1-Y0)) * 16 / det
 *   b = ((f2-f0)(X1-X0) - (f1-f0)(X2-X0)) * 16 / det
 *   det = (X1-X0)(Y2-Y0) - (X2-X0)(Y1-Y0)
 * (per pixel); c = f0.  Each product is a statement of its own so that no
 * compiler fuses it into a multiply-add.
 */
static struct vc4_pse_plane plane3(const int64_t *x, const int64_t *y, const double *f, double det)
{
    double df1 = f[1] - f[0], df2 = f[2] - f[0];
    double dy1 = (double)(y[1] - y[0]), dy2 = (double)(y[2] - y[0]);
    double dx1 = (double)(x[1] - x[0]), dx2 = (double)(x[2] - x[0]);
    double p1 = df1 * dy2;
    double p2 = df2 * dy1;
    double na = p1 - p2;
    double p3 = df2 * dx1;
    double p4 = df1 * dx2;
    double nb = p3 - p4;
    double sa = na * 16.0;
    double sb = nb * 16.0;
    struct vc4_pse_plane pl = {.a = sa / det, .b = sb / det, .c = f[0]};
    return pl;
}

bool vc4_pse_setup_triangle(const struct vc4_pse_vertex *const v[3], const struct vc4_pse_vertex *provoke,
                            unsigned nvary, uint32_t flat_flags, struct vc4_pse_setup *s)
{
    int64_t x[3], y[3];
    for (int i = 0; i < 3; i++) {
        x[i] = v[i]->x;
        y[i] = v[i]->y;
    }
    int64_t det_i = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
    if (det_i == 0)
        return false;
    double det = (double)det_i;
    if (nvary > VC4_PSE_MAX_VARYINGS)
        nvary = VC4_PSE_MAX_VARYINGS;
    s->x0 = v[0]->x;
    s->y0 = v[0]->y;
    s->nvary = nvary;
    s->ngen = 0;
    double f[3];
    for (int i = 0; i < 3; i++)
        f[i] = (double)v[i]->zs;
    s->z = plane3(x, y, f, det);
    double q[3];
    for (int i = 0; i < 3; i++)
        q[i] = (double)v[i]->inv_wc;
    s->q = plane3(x, y, q, det);
    for (unsigned k = 0; k < nvary; k++) {
        double v0 = (double)v[0]->vary[k];
        s->vc[k] = v[0]->vary[k];
        if (k < 32 && (flat_flags >> k) & 1) {
            s->va[k] = s->vb[k] = 0.0f;
            s->vc[k] = provoke->vary[k];
            continue;
        }
        for (int i = 0; i < 3; i++) {
            double d = (double)v[i]->vary[k] - v0;
            f[i] = q[i] * d;
        }
        f[0] = 0.0;
        struct vc4_pse_plane pl = plane3(x, y, f, det);
        s->va[k] = to_float(pl.a);
        s->vb[k] = to_float(pl.b);
    }
    return true;
}

void vc4_pse_depth_offset(struct vc4_pse_setup *s, float factor, float units)
{
    double ma = s->z.a < 0 ? -s->z.a : s->z.a, mb = s->z.b < 0 ? -s->z.b : s->z.b;
    double m = ma > mb ? ma : mb;
    double fo = (double)factor * m;
    double uo = (double)units / (double)VC4_PSE_Z24_MAX;
    double o = fo + uo;
    if (o == o) /* a NaN factor or units leaves Z alone */
        s->z.c += o;
}

bool vc4_pse_facing(int64_t area, bool enable_forward, bool enable_reverse, bool clockwise,
                    bool *reverse)
{
    /* the hardware's "clockwise" is area < 0 here: clockwise when the y-down
     * screen coordinates are read as a y-up plane (see pse.h) */
    bool cw = area < 0;
    bool forward = cw == clockwise;
    *reverse = !forward;
    return forward ? enable_forward : enable_reverse;
}

static void setup_const(const struct vc4_pse_vertex *v, unsigned nvary, struct vc4_pse_setup *s)
{
    if (nvary > VC4_PSE_MAX_VARYINGS)
        nvary = VC4_PSE_MAX_VARYINGS;
    s->x0 = v->x;
    s->y0 = v->y;
    s->nvary = nvary;
    s->ngen = 0;
    s->z = (struct vc4_pse_plane){0.0, 0.0, (double)v->zs};
    s->q = (struct vc4_pse_plane){0.0, 0.0, (double)v->inv_wc};
    for (unsigned k = 0; k < nvary; k++) {
        s->va[k] = s->vb[k] = 0.0f;
        s->vc[k] = v->vary[k];
    }
    s->reverse = false;
}

/* Make room for n generated varyings ahead of the record's (pse.h). */
static void prepend_generated(struct vc4_pse_setup *s, unsigned n)
{
    memmove(&s->va[n], &s->va[0], s->nvary * sizeof s->va[0]);
    memmove(&s->vb[n], &s->vb[0], s->nvary * sizeof s->vb[0]);
    memmove(&s->vc[n], &s->vc[0], s->nvary * sizeof s->vc[0]);
    s->nvary += n;
    s->ngen = n;
}

/* Generated varying k: the plane V = q * (value - 0.5) through the
 * reference vertex, value 0.5 there (C), slopes per pixel (pse.h). */
static void set_generated(struct vc4_pse_setup *s, unsigned k, double a, double b)
{
    double qa = s->q.c * a;
    double qb = s->q.c * b;
    s->va[k] = to_float(qa);
    s->vb[k] = to_float(qb);
    s->vc[k] = 0.5f;
}

/* Half a size in 1/16 pixel, truncated. */
static int32_t half16(float size);

void vc4_pse_setup_point(const struct vc4_pse_vertex *v, float size, unsigned nvary,
                         struct vc4_pse_setup *s)
{
    setup_const(v, nvary, s);
    prepend_generated(s, 2);
    int32_t h = half16(size);
    double side = h > 0 ? (double)h / 8.0 : 1.0; /* pixels (no point is drawn for h = 0) */
    double inv = 1.0 / side;
    set_generated(s, 0, inv, 0.0);  /* s: 0 at the left edge, 1 at the right */
    set_generated(s, 1, 0.0, -inv); /* t: 1 at the top edge, 0 at the bottom */
}

/* The plane through two points along one axis: value fa at pa, fb at pb
 * (positions in 1/16 pixel along that axis), per pixel. */
static double slope(double fa, double fb, int64_t pa, int64_t pb)
{
    double df = fb - fa;
    double num = df * 16.0;
    return num / (double)(pb - pa);
}

bool vc4_pse_setup_line(const struct vc4_pse_vertex *a, const struct vc4_pse_vertex *b,
                        const struct vc4_pse_vertex *provoke, float width, unsigned nvary, uint32_t flat_flags,
                        struct vc4_pse_setup *s)
{
    int64_t dx = (int64_t)b->x - a->x, dy = (int64_t)b->y - a->y;
    if (dx == 0 && dy == 0)
        return false;
    bool xmajor = (dx < 0 ? -dx : dx) >= (dy < 0 ? -dy : dy);
    int64_t pa = xmajor ? a->x : a->y, pb = xmajor ? b->x : b->y;
    setup_const(a, nvary, s);
    double qa = (double)a->inv_wc, qb = (double)b->inv_wc;
    double sz = slope((double)a->zs, (double)b->zs, pa, pb);
    double sq = slope(qa, qb, pa, pb);
    s->z.a = xmajor ? sz : 0.0;
    s->z.b = xmajor ? 0.0 : sz;
    s->q.a = xmajor ? sq : 0.0;
    s->q.b = xmajor ? 0.0 : sq;
    for (unsigned k = 0; k < s->nvary; k++) {
        if (k < 32 && (flat_flags >> k) & 1) {
            s->vc[k] = provoke->vary[k];
            continue;
        }
        double d = (double)b->vary[k] - (double)a->vary[k];
        double fb = qb * d;
        float sl = to_float(slope(0.0, fb, pa, pb));
        s->va[k] = xmajor ? sl : 0.0f;
        s->vb[k] = xmajor ? 0.0f : sl;
    }
    /* the line coordinate: (minor offset from the line) / width + 0.5, the
     * line's minor position moving by (minor delta / major delta) per pixel
     * along the major axis (pse.h) */
    prepend_generated(s, 1);
    int32_t h = half16(width);
    double w = h > 0 ? (double)h / 8.0 : 1.0;
    double inv = 1.0 / w;
    double dmaj = (double)(xmajor ? dx : dy), dmin = (double)(xmajor ? dy : dx);
    double ratio = dmin / dmaj;
    double across = -ratio * inv;
    set_generated(s, 0, xmajor ? across : inv, xmajor ? inv : across);
    return true;
}

/* Half a size in 1/16 pixel, truncated. */
static int32_t half16(float size)
{
    double h = (double)size * 8.0;
    if (!(h > 0.0))
        return 0;
    if (h > 65536.0)
        h = 65536.0;
    return (int32_t)h;
}

static void quad_tris(const int32_t cx[4], const int32_t cy[4], struct vc4_raster_tri tri[2])
{
    static const int idx[2][3] = {{0, 1, 2}, {0, 2, 3}};
    for (int t = 0; t < 2; t++)
        for (int k = 0; k < 3; k++) {
            tri[t].x[k] = cx[idx[t][k]];
            tri[t].y[k] = cy[idx[t][k]];
        }
}

bool vc4_pse_point_quad(const struct vc4_pse_vertex *v, float size, struct vc4_raster_tri tri[2])
{
    int32_t h = half16(size);
    if (h == 0)
        return false;
    int32_t cx[4] = {v->x - h, v->x + h, v->x + h, v->x - h};
    int32_t cy[4] = {v->y - h, v->y - h, v->y + h, v->y + h};
    quad_tris(cx, cy, tri);
    return true;
}

bool vc4_pse_line_quad(const struct vc4_pse_vertex *a, const struct vc4_pse_vertex *b, float width,
                       struct vc4_raster_tri tri[2], unsigned end_of_corner[4])
{
    int32_t h = half16(width);
    int64_t dx = (int64_t)b->x - a->x, dy = (int64_t)b->y - a->y;
    if (h == 0 || (dx == 0 && dy == 0))
        return false;
    bool xmajor = (dx < 0 ? -dx : dx) >= (dy < 0 ? -dy : dy);
    int32_t ox = xmajor ? 0 : h, oy = xmajor ? h : 0;
    int32_t cx[4] = {a->x - ox, b->x - ox, b->x + ox, a->x + ox};
    int32_t cy[4] = {a->y - oy, b->y - oy, b->y + oy, a->y + oy};
    quad_tris(cx, cy, tri);
    if (end_of_corner) {
        end_of_corner[0] = end_of_corner[3] = 0;
        end_of_corner[1] = end_of_corner[2] = 1;
    }
    return true;
}

/* ---- per-pixel values -------------------------------------------------------- */

/* Offsets from the reference vertex in pixels: exact (multiples of 1/16). */
static void offsets(const struct vc4_pse_setup *s, int64_t px16, int64_t py16, double *dx, double *dy)
{
    *dx = (double)(px16 - s->x0) / 16.0;
    *dy = (double)(py16 - s->y0) / 16.0;
}

static double eval(const struct vc4_pse_plane *p, double dx, double dy)
{
    double ta = p->a * dx;
    double tb = p->b * dy;
    double sum = ta + tb;
    return p->c + sum;
}

/* V of varying k < nvary at offsets (dx, dy) from the reference vertex:
 * float coefficient x (17-bit) offset, exact products. */
static inline float vary_at(double va, double vb, double dx, double dy)
{
    double ta = va * dx;
    double tb = vb * dy;
    return to_float(ta + tb);
}

float vc4_pse_vary(const struct vc4_pse_setup *s, unsigned k, int64_t px16, int64_t py16)
{
    if (k >= s->nvary)
        return 0.0f;
    double dx, dy;
    offsets(s, px16, py16, &dx, &dy);
    return vary_at((double)s->va[k], (double)s->vb[k], dx, dy);
}

void vc4_pse_centres(const struct vc4_pse_setup *s, const uint16_t x[VC4_RASTER_SIMD],
                     const uint16_t y[VC4_RASTER_SIMD], struct vc4_pse_offsets *o)
{
    for (unsigned i = 0; i < VC4_RASTER_SIMD; i++)
        offsets(s, (int64_t)x[i] * VC4_RASTER_SUBPIXEL + VC4_RASTER_CENTRE,
                (int64_t)y[i] * VC4_RASTER_SUBPIXEL + VC4_RASTER_CENTRE, &o->dx[i], &o->dy[i]);
}

void vc4_pse_vary16(const struct vc4_pse_setup *s, unsigned k, const struct vc4_pse_offsets *o,
                    uint32_t out[VC4_RASTER_SIMD])
{
    if (k >= s->nvary) {
        memset(out, 0, VC4_RASTER_SIMD * sizeof out[0]);
        return;
    }
    /* (the coefficients in locals: out might alias them, for all the
     * compiler knows.  Element by element, offsets and calls included, the
     * varyings were a fifth of a lit frame's fragment shading.) */
    const double va = (double)s->va[k], vb = (double)s->vb[k];
    for (unsigned i = 0; i < VC4_RASTER_SIMD; i++)
        out[i] = vc4_f2u(vary_at(va, vb, o->dx[i], o->dy[i]));
}

static inline uint32_t w_at(const struct vc4_pse_setup *s, double dx, double dy)
{
    double q = eval(&s->q, dx, dy);
    if (q == 0.0)
        return vc4_f2u(FLT_MAX);
    return vc4_f2u(to_float(1.0 / q));
}

static inline uint32_t z24_at(const struct vc4_pse_setup *s, double dx, double dy)
{
    double z = eval(&s->z, dx, dy);
    if (!(z > 0.0))
        return 0;
    if (z >= 1.0)
        return VC4_PSE_Z24_MAX;
    double scaled = z * (double)VC4_PSE_Z24_MAX;
    return (uint32_t)(scaled + 0.5);
}

uint32_t vc4_pse_w(const struct vc4_pse_setup *s, int64_t px16, int64_t py16)
{
    double dx, dy;
    offsets(s, px16, py16, &dx, &dy);
    return w_at(s, dx, dy);
}

uint32_t vc4_pse_z24(const struct vc4_pse_setup *s, int64_t px16, int64_t py16)
{
    double dx, dy;
    offsets(s, px16, py16, &dx, &dy);
    return z24_at(s, dx, dy);
}

void vc4_pse_w_z24(const struct vc4_pse_setup *s, int64_t px16, int64_t py16, uint32_t *w, uint32_t *z)
{
    double dx, dy;
    offsets(s, px16, py16, &dx, &dy);
    *w = w_at(s, dx, dy);
    *z = z24_at(s, dx, dy);
}
