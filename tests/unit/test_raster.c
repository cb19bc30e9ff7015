/*
 * test_raster.c - the rasteriser's coverage rule (src/emu/raster.c) against
 * an independent reference (test_raster_ref.h: exact barycentrics, top-left
 * rule from inward normals), sample by sample, with and without 4x
 * multisampling; and the fill-rule promises: meshes, fans and strips with
 * shared edges and vertices cover every sample exactly once (no pixel hit
 * twice, no gap); points and lines drawn as quads tile exactly; quads and
 * batches are formed as the QPUs expect.
 */
#include <math.h>

#include "emu/pse.h"
#include "emu/raster.h"
#include "harness.h"
#include "test_raster_ref.h"

#define W 96
#define H 80

struct acc {
    uint8_t n[H][W][4]; /* hits per sample */
    unsigned batches, bad_batches;
};

static bool count_batch(void *user, const struct vc4_raster_batch *b)
{
    struct acc *a = user;
    a->batches++;
    if (b->nquads < 1 || b->nquads > 4)
        a->bad_batches++;
    for (unsigned q = 0; q < 4; q++) {
        /* a quad: 2x2 at even coordinates, elements in (x, y) order */
        if (q < b->nquads) {
            unsigned e = 4 * q;
            if ((b->x[e] & 1) || (b->y[e] & 1) || b->x[e + 1] != b->x[e] + 1 || b->y[e + 1] != b->y[e] ||
                b->x[e + 2] != b->x[e] || b->y[e + 2] != b->y[e] + 1 || b->x[e + 3] != b->x[e] + 1 ||
                b->y[e + 3] != b->y[e] + 1 ||
                (b->cov[e] | b->cov[e + 1] | b->cov[e + 2] | b->cov[e + 3]) == 0)
                a->bad_batches++;
        } else if (b->cov[4 * q] | b->cov[4 * q + 1] | b->cov[4 * q + 2] | b->cov[4 * q + 3]) {
            a->bad_batches++;
        }
    }
    for (unsigned i = 0; i < VC4_RASTER_SIMD; i++)
        for (unsigned s = 0; s < 4; s++)
            if ((b->cov[i] >> s) & 1) {
                if (b->x[i] >= W || b->y[i] >= H)
                    a->bad_batches++;
                else
                    a->n[b->y[i]][b->x[i]][s]++;
            }
    return true;
}

static const struct vc4_raster_rect full = {0, 0, W, H};

static void draw(struct acc *a, const int64_t x[3], const int64_t y[3], bool ms)
{
    struct vc4_raster_tri t;
    for (int i = 0; i < 3; i++) {
        t.x[i] = (int32_t)x[i];
        t.y[i] = (int32_t)y[i];
    }
    vc4_raster_triangle(&t, &full, ms, count_batch, a);
}

/* Reference counts of a set of triangles. */
static void ref_draw(uint8_t (*n)[W][4], const int64_t x[3], const int64_t y[3], bool ms)
{
    /* only pixels near the bounding box can have a covered sample */
    int64_t x0 = x[0], x1 = x[0], y0 = y[0], y1 = y[0];
    for (int i = 1; i < 3; i++) {
        x0 = x[i] < x0 ? x[i] : x0;
        x1 = x[i] > x1 ? x[i] : x1;
        y0 = y[i] < y0 ? y[i] : y0;
        y1 = y[i] > y1 ? y[i] : y1;
    }
    int px0 = (int)((x0 >> 4) - 1), px1 = (int)((x1 >> 4) + 1), py0 = (int)((y0 >> 4) - 1), py1 = (int)((y1 >> 4) + 1);
    px0 = px0 < 0 ? 0 : px0;
    py0 = py0 < 0 ? 0 : py0;
    px1 = px1 > W - 1 ? W - 1 : px1;
    py1 = py1 > H - 1 ? H - 1 : py1;
    for (int py = py0; py <= py1; py++)
        for (int px = px0; px <= px1; px++) {
            unsigned m = ref_pixel_mask(x, y, px, py, ms);
            for (int s = 0; s < 4; s++)
                n[py][px][s] += (uint8_t)((m >> s) & 1);
        }
}

/* Compare: raster counts == reference counts, and at most one hit. */
static unsigned compare(const struct acc *a, uint8_t (*ref)[W][4], bool ms, unsigned *double_hits)
{
    unsigned diff = 0;
    *double_hits = 0;
    for (int py = 0; py < H; py++)
        for (int px = 0; px < W; px++)
            for (int s = 0; s < (ms ? 4 : 1); s++) {
                if (a->n[py][px][s] != ref[py][px][s])
                    diff++;
                if (a->n[py][px][s] > 1)
                    (*double_hits)++;
            }
    return diff;
}

static struct acc g_acc;
static uint8_t g_ref[H][W][4];

static void reset(void)
{
    memset(&g_acc, 0, sizeof g_acc);
    memset(g_ref, 0, sizeof g_ref);
}

/* Random triangles, coordinates on grids that often put vertices and edges
 * exactly on sample points. */
static void test_random_vs_reference(void)
{
    uint64_t seed = 0x9E3779B97F4A7C15u;
    static const int steps[] = {1, 2, 4, 8, 16, 3};
    unsigned total_diff = 0, tris = 0, zero_area = 0;
    for (int ms = 0; ms < 2; ms++) {
        for (int k = 0; k < 1500; k++) {
            reset();
            int step = steps[ref_rand(&seed) % 6];
            int64_t x[3], y[3];
            for (int i = 0; i < 3; i++) {
                x[i] = ref_range(&seed, -20 * 16 / step, (W + 20) * 16 / step) * step;
                y[i] = ref_range(&seed, -20 * 16 / step, (H + 20) * 16 / step) * step;
            }
            if (k % 7 == 0) { /* small triangles */
                x[1] = x[0] + ref_range(&seed, -40, 40);
                y[1] = y[0] + ref_range(&seed, -40, 40);
                x[2] = x[0] + ref_range(&seed, -40, 40);
                y[2] = y[0] + ref_range(&seed, -40, 40);
            }
            if (k % 23 == 0) { /* collinear: zero area */
                x[2] = 2 * x[1] - x[0];
                y[2] = 2 * y[1] - y[0];
            }
            draw(&g_acc, x, y, ms);
            ref_draw(g_ref, x, y, ms);
            unsigned dh;
            unsigned d = compare(&g_acc, g_ref, ms, &dh);
            if (d && total_diff == 0)
                fprintf(stderr, "first mismatch: (%lld,%lld) (%lld,%lld) (%lld,%lld) ms %d\n", (long long)x[0],
                        (long long)y[0], (long long)x[1], (long long)y[1], (long long)x[2], (long long)y[2], ms);
            total_diff += d;
            CHECK_EQ_INT(dh, 0);
            CHECK_EQ_INT(g_acc.bad_batches, 0);
            struct vc4_raster_tri t = {{(int32_t)x[0], (int32_t)x[1], (int32_t)x[2]},
                                       {(int32_t)y[0], (int32_t)y[1], (int32_t)y[2]}};
            zero_area += vc4_raster_area(&t) == 0;
            tris++;
        }
    }
    CHECK_EQ_INT(total_diff, 0);
    CHECK(zero_area > 0);
    CHECK_EQ_INT(tris, 3000);
}

/* A jittered grid covering more than the whole rectangle, each cell split
 * along a random diagonal, triangles in random winding: every sample of the
 * rectangle is covered exactly once. */
static void mesh(bool ms, uint64_t seed, int cell16, bool snap)
{
    enum { MAXX = W + 6, MAXY = H + 6 };
    static int64_t vx[MAXY][MAXX], vy[MAXY][MAXX];
    /* enough cells to pass the rectangle's far edges */
    int NX = (W * 16) / cell16 + 5, NY = (H * 16) / cell16 + 5;
    if (NX > MAXX)
        NX = MAXX;
    if (NY > MAXY)
        NY = MAXY;
    reset();
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            /* jitter below a quarter cell keeps every cell convex, so
             * either diagonal splits it into two non-overlapping triangles */
            int64_t jx = ref_range(&seed, -cell16 / 4, cell16 / 4), jy = ref_range(&seed, -cell16 / 4, cell16 / 4);
            if (snap) { /* onto pixel centres and sample points */
                jx &= ~1;
                jy &= ~1;
            }
            vx[j][i] = (int64_t)(i - 2) * cell16 + jx;
            vy[j][i] = (int64_t)(j - 2) * cell16 + jy;
        }
    unsigned ntri = 0;
    for (int j = 0; j + 1 < NY; j++)
        for (int i = 0; i + 1 < NX; i++) {
            int64_t cx[4] = {vx[j][i], vx[j][i + 1], vx[j + 1][i + 1], vx[j + 1][i]};
            int64_t cy[4] = {vy[j][i], vy[j][i + 1], vy[j + 1][i + 1], vy[j + 1][i]};
            int d = (int)(ref_rand(&seed) & 1);
            int t[2][3] = {{0, 1, 2}, {0, 2, 3}};
            if (d) {
                int u[2][3] = {{0, 1, 3}, {1, 2, 3}};
                memcpy(t, u, sizeof t);
            }
            for (int k = 0; k < 2; k++) {
                int64_t x[3], y[3];
                bool flip = ref_rand(&seed) & 1;
                for (int m = 0; m < 3; m++) {
                    int src = flip ? t[k][2 - m] : t[k][m];
                    x[m] = cx[src];
                    y[m] = cy[src];
                }
                draw(&g_acc, x, y, ms);
                ref_draw(g_ref, x, y, ms);
                ntri++;
            }
        }
    unsigned dh, gaps = 0;
    unsigned d = compare(&g_acc, g_ref, ms, &dh);
    for (int py = 0; py < H; py++)
        for (int px = 0; px < W; px++)
            for (int s = 0; s < (ms ? 4 : 1); s++)
                gaps += g_acc.n[py][px][s] == 0;
    CHECK_MSG(d == 0, "mesh (ms %d, cell %d, snap %d): %u samples differ from the reference", ms, cell16,
              snap, d);
    CHECK_MSG(dh == 0, "mesh (ms %d, cell %d, snap %d): %u samples hit twice", ms, cell16, snap, dh);
    CHECK_MSG(gaps == 0, "mesh (ms %d, cell %d, snap %d): %u samples never hit", ms, cell16, snap, gaps);
    CHECK_EQ_INT(g_acc.bad_batches, 0);
    CHECK(ntri > 1000);
}

static void test_mesh_exactly_once(void)
{
    for (int ms = 0; ms < 2; ms++) {
        mesh(ms, 12345, 48, false);  /* 3-pixel cells */
        mesh(ms, 777, 48, true);     /* vertices on sample points */
        mesh(ms, 4242, 16, true);    /* 1-pixel cells */
        mesh(ms, 99, 56, false);
    }
}

/* A fan around a vertex on a pixel centre (and on a sample point): the
 * shared vertex and the shared edges are covered exactly once, and the
 * polygon's inside has no gap. */
static void fan(bool ms, int64_t cx, int64_t cy, int k, int radius16, uint64_t seed)
{
    reset();
    int64_t px[64], py[64];
    for (int i = 0; i < k; i++) {
        /* a convex polygon: points on a circle, rounded (and jittered) */
        double a = 6.283185307179586 * i / k + (double)(ref_rand(&seed) % 100) / 1000.0;
        px[i] = cx + (int64_t)(radius16 * cos(a));
        py[i] = cy + (int64_t)(radius16 * sin(a));
    }
    for (int i = 0; i < k; i++) {
        int64_t x[3] = {cx, px[i], px[(i + 1) % k]}, y[3] = {cy, py[i], py[(i + 1) % k]};
        draw(&g_acc, x, y, ms);
        ref_draw(g_ref, x, y, ms);
    }
    unsigned dh, gaps = 0, inside = 0;
    unsigned d = compare(&g_acc, g_ref, ms, &dh);
    for (int yy = 0; yy < H; yy++)
        for (int xx = 0; xx < W; xx++)
            for (int s = 0; s < (ms ? 4 : 1); s++) {
                int64_t sx = (int64_t)xx * 16 + (ms ? ref_ms[s][0] : 8), sy = (int64_t)yy * 16 + (ms ? ref_ms[s][1] : 8);
                /* strictly inside the polygon (all edges turn the same way) */
                int pos = 0, neg = 0;
                for (int i = 0; i < k; i++) {
                    int j = (i + 1) % k;
                    int64_t c = (px[j] - px[i]) * (sy - py[i]) - (py[j] - py[i]) * (sx - px[i]);
                    pos += c > 0;
                    neg += c < 0;
                }
                if (pos == k || neg == k) {
                    inside++;
                    gaps += g_acc.n[yy][xx][s] == 0;
                }
            }
    CHECK_MSG(d == 0 && dh == 0 && gaps == 0, "fan (ms %d, %d triangles): %u differ, %u double, %u gaps", ms,
              k, d, dh, gaps);
    CHECK(inside > 100);
    /* the shared centre, when it is a sample point, is hit exactly once */
    if (!ms && (cx & 15) == 8 && (cy & 15) == 8)
        CHECK_EQ_INT(g_acc.n[cy >> 4][cx >> 4][0], 1);
}

static void test_fan_exactly_once(void)
{
    for (int ms = 0; ms < 2; ms++) {
        fan(ms, 40 * 16 + 8, 40 * 16 + 8, 8, 30 * 16, 1);   /* centre on a pixel centre */
        fan(ms, 40 * 16 + 6, 40 * 16 + 2, 12, 25 * 16, 2);  /* centre on sample 0 */
        fan(ms, 47 * 16 + 3, 35 * 16 + 11, 31, 33 * 16, 3);
        fan(ms, 20 * 16, 20 * 16, 4, 10 * 16, 4);           /* a square around a pixel corner */
    }
}

/* A triangle strip (zig-zag, alternating winding as GL assembles it): the
 * triangles share edges; no sample twice, same as the reference, and the
 * band between the two polylines has no gap. */
static void test_strip_exactly_once(void)
{
    for (int ms = 0; ms < 2; ms++) {
        uint64_t seed = 555 + (uint64_t)ms;
        reset();
        enum { NV = 30 };
        int64_t x[NV], y[NV];
        for (int i = 0; i < NV; i++) {
            x[i] = -40 + (int64_t)i * 60 + ref_range(&seed, -20, 20);
            y[i] = (i & 1 ? 60 * 16 : 10 * 16) + ref_range(&seed, -60, 60);
        }
        for (int i = 0; i + 2 < NV; i++) {
            int64_t tx[3], ty[3];
            int a = i, b = i & 1 ? i + 2 : i + 1, c = i & 1 ? i + 1 : i + 2;
            tx[0] = x[a]; tx[1] = x[b]; tx[2] = x[c];
            ty[0] = y[a]; ty[1] = y[b]; ty[2] = y[c];
            draw(&g_acc, tx, ty, ms);
            ref_draw(g_ref, tx, ty, ms);
        }
        unsigned dh;
        unsigned d = compare(&g_acc, g_ref, ms, &dh);
        CHECK_EQ_INT(d, 0);
        CHECK_EQ_INT(dh, 0);
        /* rows strictly between the two zig-zags are fully covered inside
         * the strip's x range */
        unsigned gaps = 0;
        for (int py = 16; py < 55; py++)
            for (int px = 4; px < W; px++)
                gaps += g_acc.n[py][px][0] == 0 && !ms;
        CHECK_EQ_INT(gaps, 0);
    }
}

/* Points and lines as quads (src/emu/pse.c). */
static void quad(struct acc *a, uint8_t (*ref)[W][4], const struct vc4_raster_tri t[2], bool ms)
{
    for (int k = 0; k < 2; k++) {
        int64_t x[3] = {t[k].x[0], t[k].x[1], t[k].x[2]}, y[3] = {t[k].y[0], t[k].y[1], t[k].y[2]};
        draw(a, x, y, ms);
        ref_draw(ref, x, y, ms);
    }
}

static void test_points_tile(void)
{
    /* size 2 at odd pixel corners, size 3 at spacing 3, size 1 at centres */
    static const struct { float size; int spacing16, offset16; } cases[] = {
        {2.0f, 32, 16}, {3.0f, 48, 24}, {1.0f, 16, 8}, {4.0f, 64, 0},
    };
    for (int ms = 0; ms < 2; ms++)
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            reset();
            for (int j = -1; j * cases[c].spacing16 < (H + 4) * 16; j++)
                for (int i = -1; i * cases[c].spacing16 < (W + 4) * 16; i++) {
                    struct vc4_pse_vertex v = {.x = i * cases[c].spacing16 + cases[c].offset16,
                                               .y = j * cases[c].spacing16 + cases[c].offset16};
                    struct vc4_raster_tri t[2];
                    CHECK(vc4_pse_point_quad(&v, cases[c].size, t));
                    quad(&g_acc, g_ref, t, ms);
                }
            unsigned dh, gaps = 0;
            unsigned d = compare(&g_acc, g_ref, ms, &dh);
            for (int py = 0; py < H; py++)
                for (int px = 0; px < W; px++)
                    for (int s = 0; s < (ms ? 4 : 1); s++)
                        gaps += g_acc.n[py][px][s] == 0;
            CHECK_MSG(d == 0 && dh == 0 && gaps == 0, "points size %g (ms %d): %u differ, %u double, %u gaps",
                      (double)cases[c].size, ms, d, dh, gaps);
        }
}

static void test_lines_tile(void)
{
    for (int ms = 0; ms < 2; ms++) {
        /* horizontal lines of width 2 two pixels apart tile the rectangle */
        reset();
        for (int j = 0; j <= H / 2; j++) {
            struct vc4_pse_vertex a = {.x = -5 * 16, .y = (2 * j + 1) * 16}, b = {.x = (W + 5) * 16, .y = (2 * j + 1) * 16};
            struct vc4_raster_tri t[2];
            CHECK(vc4_pse_line_quad(&a, &b, 2.0f, t, NULL));
            quad(&g_acc, g_ref, t, ms);
        }
        unsigned dh, gaps = 0;
        unsigned d = compare(&g_acc, g_ref, ms, &dh);
        for (int py = 0; py < H; py++)
            for (int px = 0; px < W; px++)
                gaps += g_acc.n[py][px][0] == 0;
        CHECK_MSG(d == 0 && dh == 0 && gaps == 0, "horizontal lines (ms %d): %u differ, %u double, %u gaps", ms,
                  d, dh, gaps);

        /* a line strip, x-major segments sharing vertices: joints hit once */
        reset();
        uint64_t seed = 31 + (uint64_t)ms;
        struct vc4_pse_vertex p[12];
        for (int i = 0; i < 12; i++) {
            p[i].x = (int32_t)(-16 + i * 9 * 16 + ref_range(&seed, -30, 30));
            p[i].y = (int32_t)(40 * 16 + ref_range(&seed, -70, 70));
        }
        for (int i = 0; i + 1 < 12; i++) {
            struct vc4_raster_tri t[2];
            CHECK(vc4_pse_line_quad(&p[i], &p[i + 1], 1.5f, t, NULL));
            quad(&g_acc, g_ref, t, ms);
        }
        d = compare(&g_acc, g_ref, ms, &dh);
        CHECK_MSG(d == 0 && dh == 0, "line strip (ms %d): %u differ, %u double", ms, d, dh);
        unsigned hit = 0;
        for (int px = 0; px < W; px++)
            for (int py = 0; py < H; py++)
                hit += g_acc.n[py][px][0];
        CHECK(hit >= W);

        /* vertical (y-major) lines of width 1 at pixel centres tile columns */
        reset();
        for (int i = 0; i < W; i++) {
            struct vc4_pse_vertex a = {.x = i * 16 + 8, .y = -16}, b = {.x = i * 16 + 8, .y = (H + 1) * 16};
            struct vc4_raster_tri t[2];
            CHECK(vc4_pse_line_quad(&a, &b, 1.0f, t, NULL));
            quad(&g_acc, g_ref, t, ms);
        }
        d = compare(&g_acc, g_ref, ms, &dh);
        gaps = 0;
        for (int py = 0; py < H; py++)
            for (int px = 0; px < W; px++)
                gaps += g_acc.n[py][px][0] == 0;
        /* the line's edges run through the pixel centres' columns: the
         * left one (inclusive) keeps the centre */
        CHECK_MSG(d == 0 && dh == 0 && gaps == 0, "vertical lines (ms %d): %u differ, %u double, %u gaps", ms, d,
                  dh, gaps);
    }
}

/* The exact decisions at edges and vertices, by hand. */
static void test_fill_rule_cases(void)
{
    /* a right triangle with its corner at the pixel centre (8, 8) of pixel
     * (0, 0): top edge y = 8 (horizontal, interior below: included), left
     * edge x = 8 (interior right: included) */
    struct vc4_raster_tri t = {{8, 8 + 64, 8}, {8, 8, 8 + 64}};
    CHECK(vc4_raster_covers(&t, 8, 8));
    CHECK(vc4_raster_covers(&t, 24, 8));
    CHECK(vc4_raster_covers(&t, 8, 24));
    /* its hypotenuse (bottom-right) excludes points on it */
    CHECK(!vc4_raster_covers(&t, 8 + 32, 8 + 32));
    CHECK(vc4_raster_covers(&t, 8 + 31, 8 + 32));
    /* the mirrored triangle: right and bottom edges exclude */
    struct vc4_raster_tri u = {{8 + 64, 8 + 64, 8}, {8 + 64, 8, 8 + 64}};
    CHECK(!vc4_raster_covers(&u, 8 + 64, 24));
    CHECK(!vc4_raster_covers(&u, 24, 8 + 64));
    CHECK(vc4_raster_covers(&u, 8 + 32, 8 + 32)); /* the shared hypotenuse goes here */
    /* winding does not matter */
    struct vc4_raster_tri r = {{8, 8, 8 + 64}, {8, 8 + 64, 8}};
    CHECK(vc4_raster_covers(&r, 8, 8));
    CHECK(!vc4_raster_covers(&r, 8 + 32, 8 + 32));
    /* zero area */
    struct vc4_raster_tri z = {{0, 16, 32}, {0, 16, 32}};
    CHECK(!vc4_raster_covers(&z, 16, 16));
    CHECK_EQ_INT(vc4_raster_area(&z), 0);
}

/* ---- batches: quad order, rectangles, early stop ------------------------------ */

struct stream {
    struct vc4_raster_batch b[512];
    unsigned n, stop_after; /* emit returns false at batch stop_after (0: never) */
};

static bool keep_batch(void *user, const struct vc4_raster_batch *b)
{
    struct stream *st = user;
    if (st->n < 512)
        st->b[st->n] = *b;
    st->n++;
    return st->stop_after == 0 || st->n < st->stop_after;
}

/* The batches raster.h promises, from the reference's coverage: the quads
 * of the rectangle in raster order of the quad grid, those with a covered
 * sample inside the rectangle, four to a batch; *samples: those covered. */
static void ref_stream(const int64_t x[3], const int64_t y[3], const struct vc4_raster_rect *r, bool ms,
                       struct stream *st, uint64_t *samples)
{
    struct vc4_raster_batch b;
    memset(&b, 0, sizeof b);
    memset(st, 0, sizeof *st);
    *samples = 0;
    for (int qy = r->y0 & ~1; qy < r->y1; qy += 2)
        for (int qx = r->x0 & ~1; qx < r->x1; qx += 2) {
            unsigned m[4], any = 0;
            for (unsigned el = 0; el < 4; el++) {
                int px = qx + (int)(el & 1), py = qy + (int)(el >> 1);
                bool in = px >= r->x0 && px < r->x1 && py >= r->y0 && py < r->y1;
                m[el] = in ? ref_pixel_mask(x, y, px, py, ms) : 0;
                any |= m[el];
                for (unsigned s = 0; s < 4; s++)
                    *samples += (m[el] >> s) & 1;
            }
            if (!any)
                continue;
            for (unsigned el = 0; el < 4; el++) {
                b.x[4 * b.nquads + el] = (uint16_t)(qx + (int)(el & 1));
                b.y[4 * b.nquads + el] = (uint16_t)(qy + (int)(el >> 1));
                b.cov[4 * b.nquads + el] = (uint8_t)m[el];
            }
            if (++b.nquads == VC4_RASTER_QUADS) {
                keep_batch(st, &b);
                memset(&b, 0, sizeof b);
            }
        }
    if (b.nquads)
        keep_batch(st, &b);
}

static uint64_t stream_samples(const struct stream *st, unsigned n)
{
    uint64_t c = 0;
    for (unsigned k = 0; k < n && k < 512; k++)
        for (unsigned i = 0; i < VC4_RASTER_SIMD; i++)
            for (unsigned s = 0; s < 4; s++)
                c += (st->b[k].cov[i] >> s) & 1;
    return c;
}

/* Random triangles in random rectangles (odd edges included, as a clip
 * window makes them): the batch stream is exactly the promised one, element
 * by element (unused elements zero), and so is the count; an emit that
 * stops the rasteriser gets no more batches, and the count returned is that
 * of the batches it got. */
static void test_batch_stream(void)
{
    uint64_t seed = 0xD1B54A32D192ED03u;
    static struct stream got, want;
    unsigned diff = 0, stopped = 0, tris = 0;
    for (int k = 0; k < 3000; k++) {
        bool ms = k & 1;
        int64_t x[3], y[3];
        int64_t span = k % 3 == 0 ? 40 : (W + 20) * 16;
        int64_t cx = ref_range(&seed, -10 * 16, (W + 10) * 16), cy = ref_range(&seed, -10 * 16, (H + 10) * 16);
        for (int i = 0; i < 3; i++) {
            x[i] = cx + ref_range(&seed, -span, span);
            y[i] = cy + ref_range(&seed, -span, span);
        }
        struct vc4_raster_rect r = {(int32_t)ref_range(&seed, 0, W / 2), (int32_t)ref_range(&seed, 0, H / 2), 0, 0};
        r.x1 = r.x0 + (int32_t)ref_range(&seed, 1, W - r.x0);
        r.y1 = r.y0 + (int32_t)ref_range(&seed, 1, H - r.y0);
        uint64_t want_samples;
        ref_stream(x, y, &r, ms, &want, &want_samples);
        struct vc4_raster_tri t = {{(int32_t)x[0], (int32_t)x[1], (int32_t)x[2]},
                                   {(int32_t)y[0], (int32_t)y[1], (int32_t)y[2]}};
        memset(&got, 0, sizeof got);
        uint64_t n = vc4_raster_triangle(&t, &r, ms, keep_batch, &got);
        bool same = n == want_samples && got.n == want.n &&
                    memcmp(got.b, want.b, (got.n < 512 ? got.n : 512) * sizeof got.b[0]) == 0;
        if (want.n >= 2) { /* stopped after the first batch */
            memset(&got, 0, sizeof got);
            got.stop_after = 1;
            n = vc4_raster_triangle(&t, &r, ms, keep_batch, &got);
            same &= got.n == 1 && n == stream_samples(&want, 1);
            stopped++;
        }
        if (!same && diff++ == 0)
            fprintf(stderr, "batch stream differs: (%lld,%lld) (%lld,%lld) (%lld,%lld) in [%d,%d)x[%d,%d) ms %d\n",
                    (long long)x[0], (long long)y[0], (long long)x[1], (long long)y[1], (long long)x[2],
                    (long long)y[2], r.x0, r.x1, r.y0, r.y1, ms);
        tris++;
    }
    CHECK_EQ_INT(diff, 0);
    CHECK_EQ_INT(tris, 3000);
    CHECK(stopped > 300);
}

TEST_LIST(test_random_vs_reference, test_batch_stream, test_mesh_exactly_once, test_fan_exactly_once, test_strip_exactly_once,
          test_points_tile, test_lines_tile, test_fill_rule_cases)
