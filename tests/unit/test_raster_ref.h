/*
 * test_raster_ref.h - an independent reference rasteriser for the coverage
 * tests: exact barycentric coordinates (integer areas on the 12.4 positions)
 * and the top-left rule stated with inward edge normals, written without
 * looking at src/emu/raster.c's edge set-up.
 *
 * A sample point p (1/16 pixel) is covered by triangle v0 v1 v2 when its
 * three barycentric areas, signed like the triangle's area, are >= 0, and
 * every one that is 0 (p on the edge opposite that vertex) belongs to a
 * top-left edge: the edge's inward normal n (perpendicular to the edge,
 * towards the opposite vertex) has n.x > 0 (a left edge: the interior is to
 * its right) or n.x == 0 and n.y > 0 (a horizontal top edge: the interior is
 * below it, y down).  Zero-area triangles cover nothing.
 */
#ifndef VC4_TEST_RASTER_REF_H
#define VC4_TEST_RASTER_REF_H

#include <stdbool.h>
#include <stdint.h>

static inline bool ref_covers(const int64_t x[3], const int64_t y[3], int64_t px, int64_t py)
{
    int64_t area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
    if (area == 0)
        return false;
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        /* twice the area of (p, vj, vk), the barycentric weight of vi */
        int64_t w = (x[j] - px) * (y[k] - py) - (x[k] - px) * (y[j] - py);
        if (area < 0)
            w = -w;
        if (w < 0)
            return false;
        if (w == 0) {
            int64_t ex = x[k] - x[j], ey = y[k] - y[j];
            int64_t nx = -ey, ny = ex;
            if (nx * (x[i] - x[j]) + ny * (y[i] - y[j]) < 0) {
                nx = -nx;
                ny = -ny;
            }
            if (!(nx > 0 || (nx == 0 && ny > 0)))
                return false;
        }
    }
    return true;
}

/* Sample positions (1/16 pixel): the centre, or the 4x grid. */
static const int ref_centre[2] = {8, 8};
static const int ref_ms[4][2] = {{6, 2}, {14, 6}, {2, 10}, {10, 14}};

/* Covered-sample mask of pixel (px, py). */
static inline unsigned ref_pixel_mask(const int64_t x[3], const int64_t y[3], int px, int py, bool ms)
{
    unsigned m = 0;
    if (!ms)
        return ref_covers(x, y, (int64_t)px * 16 + ref_centre[0], (int64_t)py * 16 + ref_centre[1]) ? 1u : 0u;
    for (int s = 0; s < 4; s++)
        if (ref_covers(x, y, (int64_t)px * 16 + ref_ms[s][0], (int64_t)py * 16 + ref_ms[s][1]))
            m |= 1u << s;
    return m;
}

/* Deterministic pseudo-random numbers (xorshift64*). */
static inline uint64_t ref_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

static inline int64_t ref_range(uint64_t *s, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(ref_rand(s) % (uint64_t)(hi - lo + 1));
}

#endif
