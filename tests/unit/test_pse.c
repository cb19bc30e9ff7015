/*
 * test_pse.c - primitive setup's per-pixel values, batch forms against
 * the one-point forms (src/emu/pse.c): a batch's varyings from its centres
 * found once (vc4_pse_centres, vc4_pse_vary16) and a centre's W and Z
 * together (vc4_pse_w_z24) give the same bits as vc4_pse_vary, vc4_pse_w
 * and vc4_pse_z24 at each pixel, on random triangles with every kind of
 * varying (NaN, infinities, float's largest values, denormals) and
 * vertices and pixels across the whole coordinate range.
 */
#include <float.h>
#include <math.h>

#include "emu/pse.h"
#include "harness.h"

static uint64_t seed = 0x853C49E6748FEA9Bu;
static uint32_t rnd(void)
{
    seed = seed * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(seed >> 32);
}

/* A varying's value at a vertex: ordinary mostly, sometimes special. */
static float value(void)
{
    static const float special[] = {0.0f, -0.0f, 1e-42f, -1e-40f, FLT_MAX, -FLT_MAX, 3e38f, -2.9e38f,
                                    INFINITY, -INFINITY, NAN, 1.0f, -1.0f};
    unsigned r = rnd() % 8;
    if (r == 0)
        return special[rnd() % (sizeof special / sizeof special[0])];
    if (r == 1) { /* any bits at all */
        uint32_t u = rnd();
        float f;
        memcpy(&f, &u, sizeof f);
        return f;
    }
    return (float)((int32_t)rnd() % 20000) / 7.0f;
}

static bool same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

static void test_batch_forms_match_points(void)
{
    unsigned setups = 0, diff_vary = 0, diff_wz = 0, specials = 0;
    for (unsigned n = 0; n < 3000; n++) {
        struct vc4_pse_vertex vx[3];
        memset(vx, 0, sizeof vx);
        /* 12.4 positions, the viewport offset added: 17 bits and more */
        int32_t span = n % 3 == 0 ? 1 << 20 : n % 3 == 1 ? 1 << 16 : 1 << 10;
        for (unsigned i = 0; i < 3; i++) {
            vx[i].x = (int32_t)(rnd() % (2u * (uint32_t)span)) - span;
            vx[i].y = (int32_t)(rnd() % (2u * (uint32_t)span)) - span;
            vx[i].zs = n % 5 == 0 ? value() : (float)(rnd() % 1000) / 999.0f;
            vx[i].inv_wc = n % 7 == 0 ? value() : (float)(rnd() % 1000 + 1) / 100.0f;
            for (unsigned k = 0; k < VC4_PSE_MAX_VARYINGS; k++)
                vx[i].vary[k] = value();
        }
        const struct vc4_pse_vertex *vv[3] = {&vx[0], &vx[1], &vx[2]};
        struct vc4_pse_setup s;
        unsigned nvary = rnd() % (VC4_PSE_MAX_VARYINGS + 1);
        if (!vc4_pse_setup_triangle(vv, vv[2], nvary, rnd(), &s))
            continue;
        setups++;
        uint16_t x[VC4_RASTER_SIMD], y[VC4_RASTER_SIMD];
        for (unsigned i = 0; i < VC4_RASTER_SIMD; i++) {
            x[i] = (uint16_t)(n % 2 ? rnd() % 2048 : rnd());
            y[i] = (uint16_t)(n % 2 ? rnd() % 2048 : rnd());
        }
        struct vc4_pse_offsets o;
        vc4_pse_centres(&s, x, y, &o);
        for (unsigned k = 0; k <= nvary; k++) { /* k == nvary: beyond the set-up ones */
            uint32_t out[VC4_RASTER_SIMD];
            vc4_pse_vary16(&s, k, &o, out);
            for (unsigned i = 0; i < VC4_RASTER_SIMD; i++) {
                float want = vc4_pse_vary(&s, k, (int64_t)x[i] * 16 + 8, (int64_t)y[i] * 16 + 8), got;
                memcpy(&got, &out[i], sizeof got);
                diff_vary += !same_bits(got, want);
                specials += fabsf(want) == FLT_MAX; /* clamped (or exactly the largest) */
            }
        }
        for (unsigned i = 0; i < VC4_RASTER_SIMD; i++) {
            int64_t px16 = (int64_t)x[i] * 16 + 8, py16 = (int64_t)y[i] * 16 + 8;
            uint32_t w, z;
            vc4_pse_w_z24(&s, px16, py16, &w, &z);
            diff_wz += w != vc4_pse_w(&s, px16, py16) || z != vc4_pse_z24(&s, px16, py16);
        }
    }
    CHECK_EQ_INT(diff_vary, 0);
    CHECK_EQ_INT(diff_wz, 0);
    CHECK(setups > 2500);
    CHECK(specials > 100); /* the clamps were reached */
}

TEST_LIST(test_batch_forms_match_points)
