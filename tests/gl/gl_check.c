/*
 * gl_check.c - small, unmodified OpenGL ES 2 programs for `make gl-check`
 * (docs/opengl.md): each case renders into a framebuffer object on an EGL
 * surfaceless context, reads the pixels back with glReadPixels and writes a
 * PNG.  The same binary runs on whatever libEGL / libGLESv2 the loader
 * finds: Mesa's vc4 driver on vc4kit (`eval "$(scripts/mesa.sh --env)";
 * vc4kit exec ./gl_check CASE out.png`) or Debian's llvmpipe
 * (LIBGL_ALWAYS_SOFTWARE=1), and compares two PNGs within a case's
 * tolerance.
 *
 *   gl_check --list                      the cases, one a line
 *   gl_check CASE OUT.png                render a case
 *   gl_check --compare CASE A.png B.png DIFF.png
 *                                        0 if within CASE's tolerance, 1 if
 *                                        not (DIFF.png shows where), 2 on
 *                                        error, 3 for a failure the case
 *                                        documents as a known vc4kit gap
 *
 * Nothing here knows about vc4kit: it is a GL program as any user writes.
 */
#define _GNU_SOURCE
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <math.h>
#include <png.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 128
#define H 96

/* ---- PNG ---- */

static int png_save(const char *path, const unsigned char *rgba, int w, int h)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop i = p ? png_create_info_struct(p) : NULL;
    if (!i || setjmp(png_jmpbuf(p))) {
        png_destroy_write_struct(&p, &i);
        fclose(f);
        return -1;
    }
    png_init_io(p, f);
    png_set_IHDR(p, i, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(p, i);
    for (int y = 0; y < h; y++)
        png_write_row(p, rgba + (size_t)y * w * 4);
    png_write_end(p, NULL);
    png_destroy_write_struct(&p, &i);
    return fclose(f);
}

static unsigned char *png_load(const char *path, int *w, int *h)
{
    png_image im;
    memset(&im, 0, sizeof im);
    im.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&im, path))
        return NULL;
    im.format = PNG_FORMAT_RGBA;
    unsigned char *buf = malloc(PNG_IMAGE_SIZE(im));
    if (!buf || !png_image_finish_read(&im, NULL, buf, 0, NULL)) {
        free(buf);
        png_image_free(&im);
        return NULL;
    }
    *w = (int)im.width;
    *h = (int)im.height;
    return buf;
}

/* ---- GL helpers ---- */

static GLuint shader(GLenum kind, const char *src)
{
    GLuint s = glCreateShader(kind);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        fprintf(stderr, "gl_check: shader: %s\n", log);
    }
    return s;
}

static GLuint program(const char *vs, const char *fs)
{
    GLuint p = glCreateProgram();
    glAttachShader(p, shader(GL_VERTEX_SHADER, vs));
    glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs));
    glBindAttribLocation(p, 0, "pos");
    glBindAttribLocation(p, 1, "color");
    glBindAttribLocation(p, 2, "uv");
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetProgramInfoLog(p, sizeof log, NULL, log);
        fprintf(stderr, "gl_check: link: %s\n", log);
    }
    glUseProgram(p);
    return p;
}

static const char vs_color[] =
    "attribute vec4 pos;\nattribute vec4 color;\nvarying vec4 v;\n"
    "void main() { gl_Position = pos; v = color; gl_PointSize = 6.0; }\n";
static const char fs_color[] = "precision mediump float;\nvarying vec4 v;\nvoid main() { gl_FragColor = v; }\n";

static void attrib(GLuint index, int n, const float *data)
{
    glVertexAttribPointer(index, n, GL_FLOAT, GL_FALSE, 0, data);
    glEnableVertexAttribArray(index);
}

/* n vertices (vec4 positions, vec4 colours) drawn with the colour program. */
static void draw_colored(const float *pos, const float *col, GLenum mode, int n)
{
    program(vs_color, fs_color);
    attrib(0, 4, pos);
    attrib(1, 4, col);
    glDrawArrays(mode, 0, n);
}

/* A triangle in red, green and blue corners. */
static const float tri_pos[] = {-0.8f, -0.7f, 0.0f, 1.0f, 0.8f, -0.7f, 0.0f, 1.0f, 0.0f, 0.8f, 0.0f, 1.0f};
static const float tri_col[] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1};

/* ---- the cases ---- */

static void case_clear(void)
{
    glClearColor(0.2f, 0.4f, 0.6f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
}

static void case_triangle(void)
{
    glClearColor(0.1f, 0.1f, 0.1f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    draw_colored(tri_pos, tri_col, GL_TRIANGLES, 3);
}

static void case_scissor(void)
{
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(20, 10, 50, 40);
    glClearColor(1, 1, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glScissor(60, 30, 50, 50);
    draw_colored(tri_pos, tri_col, GL_TRIANGLES, 3);
    glDisable(GL_SCISSOR_TEST);
}

static void case_uniform(void)
{
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    GLuint p = program("attribute vec4 pos;\nuniform vec2 shift;\n"
                       "void main() { gl_Position = pos + vec4(shift, 0.0, 0.0); }\n",
                       "precision mediump float;\nuniform vec4 tint;\nvoid main() { gl_FragColor = tint; }\n");
    attrib(0, 4, tri_pos);
    glUniform2f(glGetUniformLocation(p, "shift"), -0.2f, 0.1f);
    glUniform4f(glGetUniformLocation(p, "tint"), 0.9f, 0.5f, 0.1f, 1.0f);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glUniform2f(glGetUniformLocation(p, "shift"), 0.3f, -0.2f);
    glUniform4f(glGetUniformLocation(p, "tint"), 0.2f, 0.3f, 1.0f, 1.0f);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

static void prims(GLenum mode, int n)
{
    static const float pos[] = {-0.9f, -0.8f, 0, 1, -0.5f, 0.7f, 0, 1, -0.1f, -0.6f, 0, 1,
                                0.3f,  0.8f,  0, 1, 0.6f,  -0.7f, 0, 1, 0.9f,  0.5f,  0, 1};
    static const float col[] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 1, 1};
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    program(vs_color, fs_color);
    attrib(0, 4, pos);
    attrib(1, 4, col);
    glDrawArrays(mode, 0, n);
}

static void case_strip(void) { prims(GL_TRIANGLE_STRIP, 6); }
static void case_fan(void) { prims(GL_TRIANGLE_FAN, 6); }
static void case_lines(void) { prims(GL_LINES, 6); }
static void case_line_strip(void) { prims(GL_LINE_STRIP, 6); }
static void case_points(void) { prims(GL_POINTS, 6); }

/* gl_PointCoord: (s, t) as red and green over 16-pixel points; t runs
 * downwards in GL (upper-left origin), against vc4's hardware t that runs
 * upwards (Mesa flips it; src/emu/pse.h). */
static void case_point_coord(void)
{
    static const float pos[] = {-0.6f, -0.5f, 0, 1, 0.0f, 0.4f, 0, 1, 0.55f, -0.3f, 0, 1};
    static const float col[] = {0, 0, 1, 1, 0.2f, 0, 0.5f, 1, 0, 0.2f, 0, 1};
    glClearColor(0.3f, 0.3f, 0.3f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    program("attribute vec4 pos;\nattribute vec4 color;\nvarying vec4 v;\n"
            "void main() { gl_Position = pos; v = color; gl_PointSize = 16.0; }\n",
            "precision mediump float;\nvarying vec4 v;\n"
            "void main() { gl_FragColor = vec4(gl_PointCoord, 0.0, 0.5) + 0.5 * v; }\n");
    attrib(0, 4, pos);
    attrib(1, 4, col);
    glDrawArrays(GL_POINTS, 0, 3);
}

static void case_indexed(void)
{
    static const float pos[] = {-0.8f, -0.8f, 0, 1, 0.8f, -0.8f, 0, 1, 0.8f, 0.8f, 0, 1, -0.8f, 0.8f, 0, 1};
    static const float col[] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1};
    static const GLushort idx[] = {0, 1, 2, 0, 2, 3};
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    program(vs_color, fs_color);
    attrib(0, 4, pos);
    attrib(1, 4, col);
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, idx);
}

/* Two overlapping triangles, the first (red) with Z from +0.5 to -0.5
 * (or the reverse with flip), the second (colour b) at Z 0, depth-tested
 * with func against a depth cleared to clear_z. */
static void depth_pair(GLenum func, float clear_z, bool flip, const float *b_color)
{
    float a[] = {-0.9f, -0.9f, 0.5f, 1, 0.6f, -0.9f, 0.5f, 1, -0.2f, 0.8f, -0.5f, 1};
    static const float b[] = {-0.6f, 0.9f, 0.0f, 1, 0.9f, 0.9f, 0.0f, 1, 0.2f, -0.8f, 0.0f, 1};
    static const float red[] = {1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1};
    for (int i = 0; flip && i < 3; i++)
        a[4 * i + 2] = -a[4 * i + 2];
    glClearColor(0, 0, 0, 1);
    glClearDepthf(clear_z);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(func);
    draw_colored(a, red, GL_TRIANGLES, 3);
    attrib(0, 4, b);
    attrib(1, 4, b_color);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDisable(GL_DEPTH_TEST);
    glClearDepthf(1.0f);
}

static const float blue3[] = {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1};
static const float green3[] = {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1};

static void case_depth(void) { depth_pair(GL_LESS, 1.0f, false, blue3); }

static void case_blend(void)
{
    static const float half[] = {1, 0, 0, 0.5f, 0, 1, 0, 0.5f, 0, 0, 1, 0.5f};
    glClearColor(0.5f, 0.5f, 0.5f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    draw_colored(tri_pos, half, GL_TRIANGLES, 3);
    glDisable(GL_BLEND);
}

/* The bound texture's filters (both) and clamp-to-edge wrapping. */
static void tex_clamped(GLenum target, GLint filter)
{
    glTexParameteri(target, GL_TEXTURE_MIN_FILTER, filter);
    glTexParameteri(target, GL_TEXTURE_MAG_FILTER, filter);
    glTexParameteri(target, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(target, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
}

static void case_texture(void)
{
    static const float pos[] = {-0.8f, -0.8f, 0, 1, 0.8f, -0.8f, 0, 1, -0.8f, 0.8f, 0, 1, 0.8f, 0.8f, 0, 1};
    static const float uv[] = {0, 0, 1, 0, 0, 1, 1, 1};
    unsigned char tex[8 * 8 * 4];
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            unsigned char *t = tex + (y * 8 + x) * 4;
            int on = (x + y) & 1;
            t[0] = on ? 255 : 30;
            t[1] = (unsigned char)(x * 32);
            t[2] = (unsigned char)(y * 32);
            t[3] = 255;
        }
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, tex);
    tex_clamped(GL_TEXTURE_2D, GL_NEAREST);
    GLuint p = program("attribute vec4 pos;\nattribute vec2 uv;\nvarying vec2 v;\n"
                       "void main() { gl_Position = pos; v = uv; }\n",
                       "precision mediump float;\nuniform sampler2D s;\nvarying vec2 v;\n"
                       "void main() { gl_FragColor = texture2D(s, v); }\n");
    glUniform1i(glGetUniformLocation(p, "s"), 0);
    attrib(0, 4, pos);
    attrib(2, 2, uv);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

static void quad_tex_program(void)
{
    GLuint p = program("attribute vec4 pos;\nattribute vec2 uv;\nvarying vec2 v;\n"
                       "void main() { gl_Position = pos; v = uv; }\n",
                       "precision mediump float;\nuniform sampler2D s;\nvarying vec2 v;\n"
                       "void main() { gl_FragColor = texture2D(s, v); }\n");
    glUniform1i(glGetUniformLocation(p, "s"), 0);
}

/* A texture of w x h texels (a colour ramp with a checker), uploaded in
 * the given format, drawn on a quad with uv from 0 to uvmax. */
static void textured(GLenum format, GLenum type, int w, int h, GLenum filter, GLenum wrap, float uvmax, bool mip)
{
    static const float pos[] = {-0.9f, -0.9f, 0, 1, 0.9f, -0.9f, 0, 1, -0.9f, 0.9f, 0, 1, 0.9f, 0.9f, 0, 1};
    float uv[] = {0, 0, uvmax, 0, 0, uvmax, uvmax, uvmax};
    unsigned char *rgba = malloc((size_t)w * h * 4), *tex = malloc((size_t)w * h * 4);
    if (!rgba || !tex)
        return;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            unsigned char *t = rgba + (y * w + x) * 4;
            int on = ((x * 4 / w) + (y * 4 / h)) & 1;
            t[0] = (unsigned char)(x * 255 / (w > 1 ? w - 1 : 1));
            t[1] = (unsigned char)(y * 255 / (h > 1 ? h - 1 : 1));
            t[2] = on ? 255 : 0;
            t[3] = 255;
        }
    size_t n = (size_t)w * h;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *c = rgba + 4 * i;
        if (type == GL_UNSIGNED_SHORT_5_6_5) {
            unsigned v = (unsigned)(c[0] >> 3) << 11 | (unsigned)(c[1] >> 2) << 5 | (unsigned)(c[2] >> 3);
            tex[2 * i] = (unsigned char)v;
            tex[2 * i + 1] = (unsigned char)(v >> 8);
        } else if (type == GL_UNSIGNED_SHORT_4_4_4_4) {
            unsigned v = (unsigned)(c[0] >> 4) << 12 | (unsigned)(c[1] >> 4) << 8 | (unsigned)(c[2] >> 4) << 4 | 0xF;
            tex[2 * i] = (unsigned char)v;
            tex[2 * i + 1] = (unsigned char)(v >> 8);
        } else if (format == GL_LUMINANCE) {
            tex[i] = c[0];
        } else if (format == GL_LUMINANCE_ALPHA) {
            tex[2 * i] = c[1];
            tex[2 * i + 1] = c[0];
        } else {
            memcpy(tex + 4 * i, c, 4);
        }
    }
    glClearColor(0.1f, 0.1f, 0.1f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, (GLint)format, w, h, 0, format, type, tex);
    if (mip)
        glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, (GLint)filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter == GL_LINEAR ? GL_LINEAR : GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, (GLint)wrap);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, (GLint)wrap);
    quad_tex_program();
    attrib(0, 4, pos);
    attrib(2, 2, uv);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    free(rgba);
    free(tex);
}

static void case_tex_repeat(void) { textured(GL_RGBA, GL_UNSIGNED_BYTE, 16, 16, GL_NEAREST, GL_REPEAT, 2.5f, false); }
static void case_tex_mirror(void)
{
    textured(GL_RGBA, GL_UNSIGNED_BYTE, 16, 16, GL_NEAREST, GL_MIRRORED_REPEAT, 2.5f, false);
}
static void case_tex_linear(void) { textured(GL_RGBA, GL_UNSIGNED_BYTE, 16, 16, GL_LINEAR, GL_CLAMP_TO_EDGE, 1, false); }
static void case_tex_565(void)
{
    textured(GL_RGB, GL_UNSIGNED_SHORT_5_6_5, 32, 32, GL_NEAREST, GL_CLAMP_TO_EDGE, 1, false);
}
static void case_tex_4444(void)
{
    textured(GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4, 32, 32, GL_NEAREST, GL_CLAMP_TO_EDGE, 1, false);
}
static void case_tex_luminance(void)
{
    textured(GL_LUMINANCE, GL_UNSIGNED_BYTE, 16, 16, GL_NEAREST, GL_CLAMP_TO_EDGE, 1, false);
}
static void case_tex_lumalpha(void)
{
    textured(GL_LUMINANCE_ALPHA, GL_UNSIGNED_BYTE, 16, 16, GL_NEAREST, GL_CLAMP_TO_EDGE, 1, false);
}
static void case_tex_mipmap(void)
{
    textured(GL_RGBA, GL_UNSIGNED_BYTE, 64, 64, GL_NEAREST_MIPMAP_NEAREST, GL_REPEAT, 4.0f, true);
}
static void case_tex_large(void) { textured(GL_RGBA, GL_UNSIGNED_BYTE, 256, 128, GL_NEAREST, GL_CLAMP_TO_EDGE, 1, false); }

static void case_cull(void)
{
    /* two triangles, one wound each way; back faces culled */
    static const float pos[] = {-0.9f, -0.8f, 0, 1, -0.1f, -0.8f, 0, 1, -0.5f, 0.8f, 0, 1,
                                0.1f,  -0.8f, 0, 1, 0.5f,  0.8f,  0, 1, 0.9f,  -0.8f, 0, 1};
    static const float col[] = {1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    draw_colored(pos, col, GL_TRIANGLES, 6);
    glDisable(GL_CULL_FACE);
}

static void case_viewport(void)
{
    glClearColor(0, 0, 0.3f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    program(vs_color, fs_color);
    attrib(0, 4, tri_pos);
    attrib(1, 4, tri_col);
    glViewport(10, 5, 60, 40);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glViewport(70, 50, 50, 40);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glViewport(0, 0, W, H);
}

static void case_depth_greater(void) { depth_pair(GL_GREATER, 0.0f, true, green3); }

static void case_blend_add(void)
{
    static const float c1[] = {0.5f, 0.2f, 0, 1, 0.5f, 0.2f, 0, 1, 0.5f, 0.2f, 0, 1};
    static const float p2[] = {-0.6f, 0.7f, 0, 1, 0.9f, 0.7f, 0, 1, 0.1f, -0.9f, 0, 1};
    glClearColor(0, 0, 0.2f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE);
    glBlendEquation(GL_FUNC_ADD);
    program(vs_color, fs_color);
    attrib(1, 4, c1);
    attrib(0, 4, tri_pos);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    attrib(0, 4, p2);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDisable(GL_BLEND);
}

static void case_color_mask(void)
{
    glClearColor(0.2f, 0.2f, 0.2f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_TRUE);
    draw_colored(tri_pos, tri_col, GL_TRIANGLES, 3);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
}

static void case_varyings(void)
{
    /* 3 vec4 varyings mixed in the fragment shader */
    GLuint p = program("attribute vec4 pos;\nattribute vec4 color;\nvarying vec4 a;\nvarying vec4 b;\n"
                       "varying vec2 c;\n"
                       "void main() { gl_Position = pos; a = color; b = color.gbra; c = pos.xy; }\n",
                       "precision mediump float;\nvarying vec4 a;\nvarying vec4 b;\nvarying vec2 c;\n"
                       "void main() { gl_FragColor = vec4(a.r * 0.5 + b.r * 0.5, abs(c.x), a.b * b.g, 1.0); }\n");
    (void)p;
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    attrib(0, 4, tri_pos);
    attrib(1, 4, tri_col);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

static void case_many_draws(void)
{
    /* 300 small triangles over the whole target: a long binning list */
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    GLuint p = program("attribute vec4 pos;\nuniform vec2 at;\n"
                       "void main() { gl_Position = vec4(pos.xy * 0.08 + at, 0.0, 1.0); }\n",
                       "precision mediump float;\nuniform vec4 tint;\nvoid main() { gl_FragColor = tint; }\n");
    attrib(0, 4, tri_pos);
    GLint at = glGetUniformLocation(p, "at"), tint = glGetUniformLocation(p, "tint");
    for (int i = 0; i < 300; i++) {
        float x = -0.95f + 0.1f * (float)(i % 20), y = -0.9f + 0.12f * (float)(i / 20);
        glUniform2f(at, x, y);
        glUniform4f(tint, (float)(i % 7) / 6.0f, (float)(i % 5) / 4.0f, (float)(i % 3) / 2.0f, 1.0f);
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
}

static void case_math(void)
{
    /* per-fragment arithmetic the SFU does: recip, rsqrt, exp2, log2 */
    GLuint p = program("attribute vec4 pos;\nvarying vec2 c;\n"
                       "void main() { gl_Position = pos; c = pos.xy * 0.5 + 0.5; }\n",
                       "precision mediump float;\nvarying vec2 c;\n"
                       "void main() { float r = inversesqrt(c.x + 0.25) * 0.5; float g = exp2(c.y) - 1.0;\n"
                       "  float b = log2(1.0 + c.x * c.y); gl_FragColor = vec4(r, g, b, 1.0); }\n");
    (void)p;
    static const float pos[] = {-1, -1, 0, 1, 1, -1, 0, 1, -1, 1, 0, 1, 1, 1, 0, 1};
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    attrib(0, 4, pos);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

/* ---- control flow, stencil, a large target (issue 12) ---- */

static const float full_quad[] = {-1, -1, 0, 1, 1, -1, 0, 1, -1, 1, 0, 1, 1, 1, 0, 1};

/* A full-target quad whose fragment shader gets c in [0, 1]^2. */
static GLuint flow_program(const char *fs_body)
{
    char fs[1024];
    snprintf(fs, sizeof fs, "precision mediump float;\nvarying vec2 c;\n%s", fs_body);
    GLuint p = program("attribute vec4 pos;\nvarying vec2 c;\n"
                       "void main() { gl_Position = pos; c = pos.xy * 0.5 + 0.5; }\n",
                       fs);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    attrib(0, 4, full_quad);
    return p;
}

static void case_loop_uniform(void)
{
    /* a loop whose trip count is a uniform (the break keeps it within
     * GLSL ES 1.00's Appendix A; 64 is past what Mesa unrolls, so a
     * backward branch): uniform control flow, run twice with different
     * counts on two halves of the target */
    GLuint p = flow_program("uniform int n;\nuniform vec4 step;\n"
                            "void main() { vec4 acc = vec4(0.0, 0.0, 0.0, 1.0);\n"
                            "  for (int i = 0; i < 64; i++) { if (i >= n) break;\n"
                            "    acc.rgb += step.rgb * (1.0 + 0.05 * float(i)); }\n"
                            "  gl_FragColor = acc * vec4(c.x, c.y, 1.0, 1.0); }\n");
    glUniform4f(glGetUniformLocation(p, "step"), 0.011f, 0.008f, 0.005f, 0.0f);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, W / 2, H);
    glUniform1i(glGetUniformLocation(p, "n"), 12);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glScissor(W / 2, 0, W - W / 2, H);
    glUniform1i(glGetUniformLocation(p, "n"), 40);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glDisable(GL_SCISSOR_TEST);
}

static void case_loop_varying(void)
{
    /* a loop whose exit depends on a varying: lanes of one batch leave it
     * at different iterations (non-uniform control flow) */
    flow_program("void main() { float acc = 0.0; float k = 0.0;\n"
                 "  for (int i = 0; i < 48; i++) { if (k > c.x * 40.0) break;\n"
                 "    acc += 0.02; k += 1.0; }\n"
                 "  gl_FragColor = vec4(acc, fract(k * 0.125), c.y, 1.0); }\n");
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

static void case_if_varying(void)
{
    /* if / else if / else and a discard on varyings, so lanes of one batch
     * take different paths.  Not col.g = c.y in the first branch: Mesa
     * 22.3's vc4 compiler then keeps c.y in col.g's register and re-emits
     * the c.y > 0.5 comparison for each bcsel after col.g has overwritten
     * it (docs/opengl.md "A Mesa bug"). */
    flow_program("void main() { vec4 col;\n"
                 "  if (c.x > 0.6) col = vec4(1.0, c.y * 0.8, 0.0, 1.0);\n"
                 "  else if ((c.x - 0.3) * (c.x - 0.3) + (c.y - 0.5) * (c.y - 0.5) < 0.04) discard;\n"
                 "  else if (c.y > 0.5) { col = vec4(0.0, 0.5, c.x, 1.0); if (c.x < 0.1) col.r = 1.0; }\n"
                 "  else col = vec4(c.x, 0.0, 1.0 - c.y, 1.0);\n"
                 "  gl_FragColor = col; }\n");
    glClearColor(0.3f, 0.3f, 0.3f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

#ifndef GL_DEPTH24_STENCIL8_OES
#define GL_DEPTH24_STENCIL8_OES 0x88F0
#endif

/* A framebuffer object sharing the target's colour texture, with a packed
 * depth/stencil renderbuffer (GL_OES_packed_depth_stencil, which vc4 and
 * llvmpipe expose); deleted by stencil_fbo_end. */
static GLuint stencil_fbo(GLuint *rb, GLint *old)
{
    GLint tex = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, old);
    glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                                          GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &tex);
    GLuint fb;
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, (GLuint)tex, 0);
    glGenRenderbuffers(1, rb);
    glBindRenderbuffer(GL_RENDERBUFFER, *rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8_OES, W, H);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, *rb);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_RENDERBUFFER, *rb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        fprintf(stderr, "gl_check: depth/stencil framebuffer incomplete\n");
    return fb;
}

static void stencil_fbo_end(GLuint fb, GLuint rb, GLint old)
{
    glDisable(GL_STENCIL_TEST);
    glDisable(GL_DEPTH_TEST);
    glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)old);
    glDeleteFramebuffers(1, &fb);
    glDeleteRenderbuffers(1, &rb);
}

/* A full-target quad in one flat colour. */
static void flat_quad(GLuint p, float r, float g, float b)
{
    glUniform4f(glGetUniformLocation(p, "tint"), r, g, b, 1.0f);
    attrib(0, 4, full_quad);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

static GLuint flat_program(void)
{
    return program("attribute vec4 pos;\nvoid main() { gl_Position = pos; }\n",
                   "precision mediump float;\nuniform vec4 tint;\nvoid main() { gl_FragColor = tint; }\n");
}

static void case_stencil(void)
{
    /* the triangle written into the stencil only (colour masked off), then
     * one quad where stencil == 1 and another where it is not */
    GLuint rb;
    GLint old;
    GLuint fb = stencil_fbo(&rb, &old);
    glClearColor(0, 0, 0, 1);
    glClearStencil(0);
    glClear(GL_COLOR_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    glEnable(GL_STENCIL_TEST);
    glStencilFunc(GL_ALWAYS, 1, 0xFF);
    glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    draw_colored(tri_pos, tri_col, GL_TRIANGLES, 3);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
    GLuint p = flat_program();
    glStencilFunc(GL_EQUAL, 1, 0xFF);
    flat_quad(p, 0.9f, 0.6f, 0.1f);
    glStencilFunc(GL_NOTEQUAL, 1, 0xFF);
    flat_quad(p, 0.1f, 0.2f, 0.7f);
    stencil_fbo_end(fb, rb, old);
}

static void case_stencil_incr(void)
{
    /* two overlapping triangles counted with INCR where they pass a depth
     * test against a cleared 0.5 and INVERTed (through write mask 0x0F)
     * where they fail (the second one crosses 0.5), then a quad per
     * stencil value under compare mask 3 and one for values above 3 */
    static const float a[] = {-0.9f, -0.8f, -0.3f, 1, 0.5f, -0.6f, -0.3f, 1, -0.3f, 0.8f, -0.3f, 1};
    static const float b[] = {-0.4f, -0.7f, -0.6f, 1, 0.9f, -0.2f, 0.9f, 1, 0.2f, 0.9f, -0.6f, 1};
    GLuint rb;
    GLint old;
    GLuint fb = stencil_fbo(&rb, &old);
    glClearColor(0, 0, 0, 1);
    glClearStencil(0);
    glClearDepthf(0.5f);
    glClear(GL_COLOR_BUFFER_BIT | GL_STENCIL_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_STENCIL_TEST);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_FALSE);
    glStencilFunc(GL_ALWAYS, 0, 0xFF);
    glStencilOp(GL_KEEP, GL_INVERT, GL_INCR);
    glStencilMask(0x0F);
    GLuint p = flat_program();
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    attrib(0, 4, a);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    attrib(0, 4, b);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glDisable(GL_DEPTH_TEST);
    glDepthMask(GL_TRUE);
    glStencilMask(0xFF);
    glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
    static const float tints[][3] = {{0.2f, 0.2f, 0.2f}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int v = 0; v < 4; v++) {
        glStencilFunc(GL_EQUAL, v, 0x03);
        flat_quad(p, tints[v][0], tints[v][1], tints[v][2]);
    }
    glStencilFunc(GL_LESS, 3, 0xFF); /* 3 < stencil: the inverted 0x0F, 0x0E */
    flat_quad(p, 1, 1, 0);
    stencil_fbo_end(fb, rb, old);
}

static void case_large_target(void)
{
    /* a 1920x1080 colour target (30 x 17 tiles, the last row partial):
     * a clear and a few triangles, then drawn scaled down into the check
     * target through a nearest-filtered texture */
    enum { LW = 1920, LH = 1080 };
    GLint old;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &old);
    GLuint tex, fb;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, LW, LH, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    tex_clamped(GL_TEXTURE_2D, GL_NEAREST);
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        fprintf(stderr, "gl_check: 1920x1080 framebuffer incomplete\n");
    glViewport(0, 0, LW, LH);
    glClearColor(0.1f, 0.2f, 0.1f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    draw_colored(tri_pos, tri_col, GL_TRIANGLES, 3);
    static const float corner[] = {0.7f, 0.7f, 0, 1, 1.0f, 0.7f, 0, 1, 1.0f, 1.0f, 0, 1,
                                   -1.0f, -1.0f, 0, 1, -0.7f, -1.0f, 0, 1, -1.0f, -0.7f, 0, 1};
    static const float ccol[] = {1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1};
    attrib(0, 4, corner);
    attrib(1, 4, ccol);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)old);
    glViewport(0, 0, W, H);
    glDisableVertexAttribArray(1);
    quad_tex_program();
    static const float uv[] = {0, 0, 1, 0, 0, 1, 1, 1};
    attrib(0, 4, full_quad);
    attrib(2, 2, uv);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glDeleteFramebuffers(1, &fb);
    glDeleteTextures(1, &tex);
}

/* A texture of w x h RGBA texels from texel(x, y, out), linear or
 * nearest, clamped, bound to unit 0. */
static GLuint make_texture(int w, int h, GLenum filter, void (*texel)(int x, int y, unsigned char *out))
{
    unsigned char *rgba = malloc((size_t)w * h * 4);
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    for (int y = 0; rgba && y < h; y++)
        for (int x = 0; x < w; x++)
            texel(x, y, rgba + ((size_t)y * w + x) * 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    tex_clamped(GL_TEXTURE_2D, (GLint)filter);
    free(rgba);
    return t;
}

static const float quad_uv[] = {0, 0, 1, 0, 0, 1, 1, 1};

/* The full-frame quad with quad_uv at attribute 2, drawn. */
static void draw_full_quad_uv(void)
{
    attrib(0, 4, full_quad);
    attrib(2, 2, quad_uv);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

/* A cube map whose six 4x4 faces are six colours, each with a ramp over
 * its texels (so a face read the wrong way round shows), sampled along
 * directions that sweep past every face: the left half looks along +z,
 * the right half along -z, each out to x and y of +-2.5. */
static void case_cube(void)
{
    static const unsigned char base[6][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255},
                                             {255, 255, 0}, {0, 255, 255}, {255, 0, 255}};
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_CUBE_MAP, t);
    for (int f = 0; f < 6; f++) {
        unsigned char px[4 * 4 * 4];
        for (int i = 0; i < 16; i++) {
            px[4 * i + 0] = (unsigned char)(base[f][0] * 3 / 4 + (i & 3) * 16);
            px[4 * i + 1] = (unsigned char)(base[f][1] * 3 / 4 + (i >> 2) * 16);
            px[4 * i + 2] = (unsigned char)(base[f][2] * 3 / 4 + 8);
            px[4 * i + 3] = 255;
        }
        glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)f, 0, GL_RGBA, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                     px);
    }
    tex_clamped(GL_TEXTURE_CUBE_MAP, GL_NEAREST);
    GLuint p = program("attribute vec4 pos;\nattribute vec2 uv;\nvarying vec2 v;\n"
                       "void main() { gl_Position = pos; v = uv; }\n",
                       "precision mediump float;\nuniform samplerCube s;\nvarying vec2 v;\n"
                       "void main() {\n"
                       "  float z = v.x < 0.5 ? 1.0 : -1.0;\n"
                       "  vec2 xy = vec2(fract(v.x * 2.0), v.y) * 5.0 - 2.5;\n"
                       "  gl_FragColor = textureCube(s, vec3(xy, z));\n"
                       "}\n");
    glUniform1i(glGetUniformLocation(p, "s"), 0);
    draw_full_quad_uv();
    glDeleteTextures(1, &t);
}

/* An ETC1-compressed 16x16 texture (GL_OES_compressed_ETC1_RGB8_texture,
 * which vc4 samples natively) of pseudo-random blocks, so that both
 * modes, both flips and every table come up; nearest-filtered over the
 * target.  A differential block whose second base colour leaves 0-31 is
 * undefined in ETC1 (vc4kit wraps it, UNVERIFIED; llvmpipe does not), so
 * such a channel's delta is made 0. */
static void case_etc1(void)
{
#ifndef GL_ETC1_RGB8_OES
#define GL_ETC1_RGB8_OES 0x8D64
#endif
    unsigned char blocks[16 * 8];
    unsigned x = 0x9E3779B9u;
    for (unsigned i = 0; i < sizeof blocks; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        blocks[i] = (unsigned char)(x >> 24);
    }
    for (unsigned b = 0; b < sizeof blocks; b += 8)
        for (unsigned c = 0; c < 3 && (blocks[b + 3] & 2); c++) { /* (bit 33: differential) */
            int base = blocks[b + c] >> 3, delta = (blocks[b + c] & 4) ? (blocks[b + c] & 7) - 8 : blocks[b + c] & 7;
            if (base + delta < 0 || base + delta > 31)
                blocks[b + c] &= 0xF8;
        }
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_ETC1_RGB8_OES, 16, 16, 0, sizeof blocks, blocks);
    tex_clamped(GL_TEXTURE_2D, GL_NEAREST);
    quad_tex_program();
    draw_full_quad_uv();
    glDeleteTextures(1, &t);
}

/* Render to a texture, then sample it: a 64x64 texture target gets a
 * clear and the colour triangle, and is drawn bilinear-filtered on a
 * quad rotated a little, over a clear of another colour. */
static void case_render_to_texture(void)
{
    GLint old;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &old);
    GLuint tex, fb;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 64, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    tex_clamped(GL_TEXTURE_2D, GL_LINEAR);
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    glViewport(0, 0, 64, 64);
    glClearColor(0.9f, 0.9f, 0.2f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    draw_colored(tri_pos, tri_col, GL_TRIANGLES, 3);
    glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)old);
    glViewport(0, 0, W, H);
    glClearColor(0.2f, 0.1f, 0.3f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisableVertexAttribArray(1);
    quad_tex_program();
    static const float pos[] = {-0.8f, -0.9f, 0, 1, 0.9f, -0.7f, 0, 1, -0.9f, 0.7f, 0, 1, 0.8f, 0.9f, 0, 1};
    attrib(0, 4, pos);
    attrib(2, 2, quad_uv);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glDeleteFramebuffers(1, &fb);
    glDeleteTextures(1, &tex);
}

/* Blend equations and factors beyond the usual: reverse subtract with a
 * constant colour, subtract with separate alpha factors, and destination
 * colour as a source factor. */
static void case_blend_equations(void)
{
    static const float left[] = {-0.95f, -0.9f, 0, 1, 0.3f, -0.9f, 0, 1, -0.3f, 0.9f, 0, 1};
    static const float right[] = {-0.3f, -0.9f, 0, 1, 0.95f, -0.9f, 0, 1, 0.3f, 0.9f, 0, 1};
    static const float mid[] = {-0.9f, -0.2f, 0, 1, 0.9f, -0.2f, 0, 1, 0.0f, 0.5f, 0, 1};
    static const float col[] = {0.8f, 0.2f, 0.4f, 0.6f, 0.2f, 0.9f, 0.1f, 0.3f, 0.5f, 0.5f, 0.9f, 1.0f};
    glClearColor(0.5f, 0.6f, 0.7f, 0.8f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_BLEND);
    glBlendColor(0.25f, 0.5f, 0.75f, 0.5f);
    glBlendEquation(GL_FUNC_REVERSE_SUBTRACT);
    glBlendFunc(GL_CONSTANT_COLOR, GL_ONE);
    draw_colored(left, col, GL_TRIANGLES, 3);
    glBlendEquationSeparate(GL_FUNC_SUBTRACT, GL_FUNC_ADD);
    glBlendFuncSeparate(GL_ONE, GL_SRC_ALPHA, GL_ZERO, GL_ONE);
    attrib(0, 4, right);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFunc(GL_DST_COLOR, GL_ONE_MINUS_CONSTANT_ALPHA);
    attrib(0, 4, mid);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDisable(GL_BLEND);
}

/* Vertex attributes as programs pack them: interleaved records of
 * normalized shorts (position), normalized unsigned bytes (colour) and a
 * plain byte (a scale), with a stride, from a buffer object. */
static void case_attrib_formats(void)
{
    struct vtx {
        short pos[2];
        unsigned char color[4];
        signed char scale[2];
        short pad;
    };
    static const struct vtx v[] = {
        {{-29000, -26000}, {255, 0, 0, 255}, {4, 0}, 0},  {{30000, -20000}, {0, 255, 64, 255}, {2, 0}, 0},
        {{-5000, 31000}, {32, 64, 255, 255}, {1, 0}, 0},  {{-30000, 5000}, {255, 255, 0, 255}, {3, 0}, 0},
        {{-2000, -30000}, {0, 128, 255, 255}, {4, 0}, 0}, {{32767, 32767}, {200, 100, 50, 255}, {2, 0}, 0},
    };
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    GLuint p = program("attribute vec4 pos;\nattribute vec4 color;\nattribute vec2 uv;\nvarying vec4 c;\n"
                       "void main() { gl_Position = vec4(pos.xy, 0.0, 1.0); c = color * (uv.x / 4.0); }\n",
                       "precision mediump float;\nvarying vec4 c;\nvoid main() { gl_FragColor = c; }\n");
    (void)p;
    GLuint buf;
    glGenBuffers(1, &buf);
    glBindBuffer(GL_ARRAY_BUFFER, buf);
    glBufferData(GL_ARRAY_BUFFER, sizeof v, v, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_SHORT, GL_TRUE, sizeof v[0], (const void *)0);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof v[0], (const void *)4);
    glVertexAttribPointer(2, 2, GL_BYTE, GL_FALSE, sizeof v[0], (const void *)8);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glEnableVertexAttribArray(2);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glDeleteBuffers(1, &buf);
    glDisableVertexAttribArray(2);
}

/* gl_FragCoord (a checker of 8-pixel squares, and a ramp in its z) and
 * gl_FrontFacing: one triangle counter-clockwise, one clockwise. */
static void case_frag_coord(void)
{
    static const float pos[] = {-0.95f, -0.9f, -0.5f, 1, 0.1f, -0.9f, 0.5f, 1, -0.4f, 0.9f, 0.0f, 1,
                                0.0f,   -0.9f, 0.5f,  1, 0.4f, 0.9f,  0.0f, 1, 0.95f, -0.9f, -0.5f, 1};
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    program("attribute vec4 pos;\nvoid main() { gl_Position = pos; }\n",
            "precision mediump float;\n"
            "void main() {\n"
            "  vec2 cell = floor(gl_FragCoord.xy / 8.0);\n"
            "  float check = mod(cell.x + cell.y, 2.0);\n"
            "  gl_FragColor = vec4(gl_FrontFacing ? 1.0 : 0.2, check, gl_FragCoord.z, 1.0);\n"
            "}\n");
    glDisableVertexAttribArray(1);
    attrib(0, 4, pos);
    glDrawArrays(GL_TRIANGLES, 0, 6);
}

/* Polygon offset: a triangle drawn twice at the same depths, the second
 * in another colour with GL_LESS; an offset pulls the second in front
 * everywhere (without it, the second fails the test). */
static void case_polygon_offset(void)
{
    static const float pos[] = {-0.9f, -0.8f, -0.3f, 1, 0.9f, -0.6f, 0.6f, 1, 0.0f, 0.9f, 0.1f, 1};
    static const float right[] = {0.0f, -0.8f, -0.3f, 1, 0.9f, -0.6f, 0.6f, 1, 0.5f, 0.9f, 0.1f, 1};
    static const float red[] = {1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1};
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    draw_colored(pos, red, GL_TRIANGLES, 3);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(-1.0f, -2.0f);
    attrib(1, 4, green3);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    /* pushed back instead: the green stays in front of this blue */
    glPolygonOffset(2.0f, 4.0f);
    attrib(0, 4, right);
    attrib(1, 4, blue3);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDisable(GL_POLYGON_OFFSET_FILL);
    glDisable(GL_DEPTH_TEST);
}

/* One draw of more vertices than 16-bit indices reach: 24,000 triangles
 * (72,000 vertices) in 62.5 layers over a grid of 8x8-pixel cells, each
 * layer two triangles a cell, coloured by layer, so that what shows is
 * the last layer drawn in each cell (a part of the draw lost or out of
 * order shows as a wrong layer; Mesa splits it, GFXH-515); then, through
 * 32-bit indices (GL_OES_element_index_uint), the first 96 triangles
 * again in white.  (vc4 turns 32-bit indices into 16-bit ones,
 * vc4_get_shadow_index_buffer, which asserts that each fits: an index
 * past 65,535 names another vertex, on a Pi as on vc4kit, so none is.) */
static void case_big_draw(void)
{
    enum { CW = W / 8, CH = H / 8, PER_LAYER = CW * CH * 2, TRIS = 24000, VERTS = TRIS * 3, AGAIN = 96 };
    float *pos = malloc(sizeof(float) * 4 * VERTS), *col = malloc(sizeof(float) * 4 * VERTS);
    GLuint *idx = malloc(sizeof(GLuint) * 3 * AGAIN);
    if (!pos || !col || !idx)
        return;
    for (int i = 0; i < TRIS; i++) {
        int cell = (i % PER_LAYER) / 2, layer = i / PER_LAYER, upper = i & 1;
        /* (cells a quarter pixel off the pixel grid: no pixel centre on
         * an edge, where the fill rules of vc4, UNVERIFIED in vc4kit, and
         * of llvmpipe may give a tie to different sides) */
        float x0 = -1.0f + 2.0f * (8.0f * (float)(cell % CW) + 0.25f) / W,
              y0 = -1.0f + 2.0f * (8.0f * (float)(cell / CW) + 0.25f) / H;
        float x1 = x0 + 2.0f / CW, y1 = y0 + 2.0f / CH;
        const float v[2][3][2] = {{{x0, y0}, {x1, y0}, {x0, y1}}, {{x1, y0}, {x1, y1}, {x0, y1}}};
        for (int k = 0; k < 3; k++) {
            float *p = pos + 4 * (3 * i + k), *c = col + 4 * (3 * i + k);
            p[0] = v[upper][k][0];
            p[1] = v[upper][k][1];
            p[2] = 0;
            p[3] = 1;
            c[0] = (float)layer / 63.0f;
            c[1] = (float)(cell % CW) / CW;
            c[2] = upper ? 0.8f : 0.3f;
            c[3] = 1;
        }
    }
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    program(vs_color, fs_color);
    attrib(0, 4, pos);
    attrib(1, 4, col);
    glDrawArrays(GL_TRIANGLES, 0, VERTS);
    for (int i = 0; i < 3 * AGAIN; i++) {
        idx[i] = (GLuint)i;
        col[4 * idx[i] + 0] = col[4 * idx[i] + 1] = col[4 * idx[i] + 2] = 1;
    }
    glDrawElements(GL_TRIANGLES, 3 * AGAIN, GL_UNSIGNED_INT, idx);
    free(pos);
    free(col);
    free(idx);
}

static void ramp_texel(int x, int y, unsigned char *t)
{
    t[0] = (unsigned char)(x * 4);
    t[1] = (unsigned char)(y * 4);
    t[2] = ((x / 8 + y / 8) & 1) ? 255 : 0;
    t[3] = 255;
}

/* glGenerateMipmap (st/mesa's fallback: each level a blit, rendered by
 * vc4) on a 64x64 checkered ramp, then quads that shrink it through the
 * levels with trilinear filtering: w x 3w/4 pixels, so that every edge is
 * an exact NDC value.  (With a height of 32 of the 96 rows, 2/3 in NDC,
 * the texture coordinate ran 1/16 of a texel short over the quad, as if
 * its edge were 1/16 pixel off in vc4's 12.4 screen coordinates as Mesa's
 * shader computes them, and the checker's edges bled 15 levels where
 * llvmpipe's bled none.) */
static void case_generate_mipmap(void)
{
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    GLuint t = make_texture(64, 64, GL_LINEAR, ramp_texel);
    glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    quad_tex_program();
    /* a strip of quads 64, 32, 16, 8, 4 pixels wide side by side */
    float x = -1.0f;
    for (int w = 64; w >= 4; w /= 2) {
        float x1 = x + 2.0f * (float)w / W, y1 = -1.0f + 2.0f * (float)(3 * w / 4) / H;
        const float pos[] = {x, -1.0f, 0, 1, x1, -1.0f, 0, 1, x, y1, 0, 1, x1, y1, 0, 1};
        attrib(0, 4, pos);
        attrib(2, 2, quad_uv);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        x = x1;
    }
    glDeleteTextures(1, &t);
}

/* Wide lines (glLineWidth 5, which vc4 draws as quads) and 3-pixel
 * ones, in a star. */
static void case_wide_lines(void)
{
    static const float pos[] = {-0.9f, -0.8f, 0, 1, 0.9f, 0.7f, 0, 1, -0.8f, 0.8f, 0, 1, 0.7f, -0.9f, 0, 1,
                                -0.95f, 0.1f, 0, 1, 0.95f, -0.05f, 0, 1};
    static const float col[] = {1, 0, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0, 1, 1};
    GLfloat range[2] = {1, 1};
    glGetFloatv(GL_ALIASED_LINE_WIDTH_RANGE, range);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glLineWidth(range[1] >= 5 ? 5.0f : range[1]);
    draw_colored(pos, col, GL_LINES, 4);
    glLineWidth(3.0f);
    glDrawArrays(GL_LINES, 4, 2);
    glLineWidth(1.0f);
}

/* Formats vc4 has no texture type for, converted by the driver: RGB888
 * (as RGBX8888) and ALPHA (as an 8-bit format with zero colour). */
static void case_tex_rgb_alpha(void)
{
    unsigned char rgb[16 * 16 * 3], alpha[16 * 16];
    for (int i = 0; i < 16 * 16; i++) {
        rgb[3 * i + 0] = (unsigned char)((i % 16) * 16);
        rgb[3 * i + 1] = (unsigned char)((i / 16) * 16);
        rgb[3 * i + 2] = (unsigned char)(((i % 16) / 4 + (i / 64)) & 1 ? 200 : 40);
        alpha[i] = (unsigned char)(255 - (i % 16) * 12 - (i / 16) * 4);
    }
    glClearColor(0.3f, 0.3f, 0.3f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    GLuint t[2];
    glGenTextures(2, t);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, t[1]);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_ALPHA, 16, 16, 0, GL_ALPHA, GL_UNSIGNED_BYTE, alpha);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, t[0]);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, 16, 16, 0, GL_RGB, GL_UNSIGNED_BYTE, rgb);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    GLuint p = program("attribute vec4 pos;\nattribute vec2 uv;\nvarying vec2 v;\n"
                       "void main() { gl_Position = pos; v = uv; }\n",
                       "precision mediump float;\nuniform sampler2D s, a;\nvarying vec2 v;\n"
                       "void main() {\n"
                       "  vec4 c = texture2D(s, v), m = texture2D(a, v.yx);\n"
                       "  gl_FragColor = vec4(c.rgb * m.a + m.rgb, c.a);\n"
                       "}\n");
    glUniform1i(glGetUniformLocation(p, "s"), 0);
    glUniform1i(glGetUniformLocation(p, "a"), 1);
    draw_full_quad_uv();
    glDeleteTextures(2, t);
}

/* glDepthRangef(0.25, 0.6) and a GL_LEQUAL test against a depth cleared
 * to 0.5: the part of a sloped triangle whose window z <= 0.5 shows. */
static void case_depth_range(void)
{
    static const float pos[] = {-0.9f, -0.9f, -1.0f, 1, 0.9f, -0.9f, 1.0f, 1, 0.0f, 0.9f, 0.0f, 1};
    static const float ramp[] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1};
    glClearColor(0, 0, 0, 1);
    glClearDepthf(0.5f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDepthRangef(0.25f, 0.6f);
    draw_colored(pos, ramp, GL_TRIANGLES, 3);
    glDepthRangef(0.0f, 1.0f);
    glDisable(GL_DEPTH_TEST);
    glClearDepthf(1.0f);
}

/* Texture lookups inside a loop (a blur of 5 taps along a uniform
 * direction, the count a uniform), and a dependent lookup: the second
 * texture's coordinate is the first's result. */
static void case_tex_in_loop(void)
{
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    GLuint t = make_texture(16, 16, GL_LINEAR, ramp_texel);
    GLuint p = program("attribute vec4 pos;\nattribute vec2 uv;\nvarying vec2 v;\n"
                       "void main() { gl_Position = pos; v = uv; }\n",
                       "precision mediump float;\nuniform sampler2D s;\nuniform int taps;\nuniform vec2 dir;\n"
                       "varying vec2 v;\n"
                       "void main() {\n"
                       "  vec4 sum = vec4(0.0);\n"
                       "  for (int i = 0; i < 8; i++) {\n"
                       "    if (i >= taps) break;\n"
                       "    sum += texture2D(s, v + dir * (float(i) - 2.0));\n"
                       "  }\n"
                       "  vec4 avg = sum / float(taps);\n"
                       "  gl_FragColor = v.x < 0.5 ? avg : texture2D(s, avg.gr);\n"
                       "}\n");
    glUniform1i(glGetUniformLocation(p, "s"), 0);
    glUniform1i(glGetUniformLocation(p, "taps"), 5);
    glUniform2f(glGetUniformLocation(p, "dir"), 0.03f, 0.01f);
    draw_full_quad_uv();
    glDeleteTextures(1, &t);
}

/* Unsigned-byte indices: a fan of 8 triangles around a centre, as a
 * triangle list through 8-bit indices, and a strip through them too. */
static void case_index_byte(void)
{
    float pos[10 * 4], col[10 * 4];
    for (int i = 0; i < 10; i++) {
        float a = 6.2831853f * (float)i / 9.0f;
        pos[4 * i + 0] = i ? 0.8f * cosf(a) : 0.0f;
        pos[4 * i + 1] = i ? 0.8f * sinf(a) : 0.0f;
        pos[4 * i + 2] = 0;
        pos[4 * i + 3] = 1;
        col[4 * i + 0] = (float)(i % 3) / 2.0f;
        col[4 * i + 1] = (float)(i % 4) / 3.0f;
        col[4 * i + 2] = (float)i / 9.0f;
        col[4 * i + 3] = 1;
    }
    static const GLubyte tris[] = {0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 5, 0, 5, 6, 0, 6, 7, 0, 7, 8, 0, 8, 9};
    static const GLubyte strip[] = {9, 1, 8, 2};
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    program(vs_color, fs_color);
    attrib(0, 4, pos);
    attrib(1, 4, col);
    glDrawElements(GL_TRIANGLES, sizeof tris, GL_UNSIGNED_BYTE, tris);
    glDrawElements(GL_TRIANGLE_STRIP, sizeof strip, GL_UNSIGNED_BYTE, strip);
}

/* Tolerance: a pixel is "off" when a channel differs by more than
 * max_delta; the case passes with at most max_off off pixels (edges and
 * sample positions differ between rasterisers; docs/opengl.md).  The
 * numbers: what vc4 on vc4kit and llvmpipe were seen to differ by, with
 * room.  gap: a known difference of vc4kit from the hardware the case
 * shows; its failure is reported as such and does not fail the run, and
 * its passing is news. */
static const struct gl_case {
    const char *name;
    void (*fn)(void);
    int max_delta, max_off;
    const char *why;
    const char *gap;
} cases[] = {
    {"clear", case_clear, 1, 0, "a clear is exact (8-bit rounding of 0.2/0.4/0.6 may differ by 1)", NULL},
    {"triangle", case_triangle, 3, 40, "vertex colours interpolate alike; edge pixels may differ", NULL},
    {"scissor", case_scissor, 3, 20, "scissored clear exact; triangle edges inside the scissor", NULL},
    {"uniform", case_uniform, 2, 40, "flat colours from uniforms; edges of two triangles", NULL},
    {"strip", case_strip, 3, 40, "four triangles' edges", NULL},
    {"fan", case_fan, 3, 40, "four triangles' edges", NULL},
    {"lines", case_lines, 3, 60, "line rasterisation may differ at end points", NULL},
    {"line_strip", case_line_strip, 3, 60, "line rasterisation may differ at end points", NULL},
    {"points", case_points, 3, 40, "6x6 point sprites: their edges", NULL},
    {"point_coord", case_point_coord, 3, 60, "gl_PointCoord over 16x16 points: their edges", NULL},
    {"indexed", case_indexed, 3, 40, "a quad from indices: diagonal and edges", NULL},
    {"depth", case_depth, 3, 40, "depth-tested overlap: the intersection line and edges", NULL},
    {"blend", case_blend, 3, 40, "source-alpha blending over grey", NULL},
    {"texture", case_texture, 3, 40, "nearest-filtered 8x8 texture: texel boundaries may fall a pixel apart", NULL},
    {"tex_repeat", case_tex_repeat, 3, 80, "repeat wrap: texel boundaries may fall a pixel apart", NULL},
    {"tex_mirror", case_tex_mirror, 3, 80, "mirrored repeat: texel boundaries", NULL},
    {"tex_linear", case_tex_linear, 6, 80, "bilinear filtering: weights in fewer bits on vc4", NULL},
    {"tex_565", case_tex_565, 8, 80, "RGB565 texels expand to 8 bits differently (seen: up to 8 on 116 pixels)", NULL},
    {"tex_4444", case_tex_4444, 6, 80, "RGBA4444 texels expand to 8 bits differently", NULL},
    {"tex_luminance", case_tex_luminance, 3, 80, "luminance texture", NULL},
    {"tex_lumalpha", case_tex_lumalpha, 3, 80, "luminance-alpha texture", NULL},
    {"tex_mipmap", case_tex_mipmap, 6, 300, "nearest mip level choice differs along level boundaries", NULL},
    {"tex_large", case_tex_large, 3, 80, "a 256x128 texture in T format", NULL},
    {"cull", case_cull, 3, 40, "back faces culled", NULL},
    {"viewport", case_viewport, 3, 40, "two viewports", NULL},
    {"depth_greater", case_depth_greater, 3, 40, "GREATER with a 0 clear", NULL},
    {"blend_add", case_blend_add, 3, 40, "additive blending", NULL},
    {"color_mask", case_color_mask, 3, 40, "green masked off", NULL},
    {"varyings", case_varyings, 3, 40, "three varyings mixed", NULL},
    {"many_draws", case_many_draws, 3, 300, "300 small triangles: many edges", NULL},
    {"math", case_math, 4, 120, "SFU recip/rsqrt/exp2/log2 precision differs from llvmpipe's", NULL},
    {"loop_uniform", case_loop_uniform, 3, 40, "a loop over a uniform count (branches)", NULL},
    {"loop_varying", case_loop_varying, 3, 40, "a loop left at a varying-dependent iteration", NULL},
    {"if_varying", case_if_varying, 3, 60, "if / else / discard on varyings: boundaries", NULL},
    {"stencil", case_stencil, 3, 40, "stencil written by a triangle, then EQUAL / NOTEQUAL", NULL},
    {"stencil_incr", case_stencil_incr, 3, 80, "INCR / INVERT with masks and a depth test", NULL},
    {"large_target", case_large_target, 3, 60, "1920x1080 target sampled down: triangle edges", NULL},
    {"cube", case_cube, 3, 20, "cube map faces and their orientation (seen: exact)", NULL},
    {"etc1", case_etc1, 3, 20, "ETC1 blocks of every mode, 8x6 pixels a texel", NULL},
    {"render_to_texture", case_render_to_texture, 6, 80, "a rendered texture, bilinear: edges", NULL},
    {"blend_equations", case_blend_equations, 3, 40, "subtract, reverse subtract, constant colours", NULL},
    {"attrib_formats", case_attrib_formats, 3, 40, "normalized shorts and bytes, interleaved", NULL},
    {"frag_coord", case_frag_coord, 3, 40, "gl_FragCoord checker and z, gl_FrontFacing", NULL},
    {"polygon_offset", case_polygon_offset, 3, 40, "offset forward and back: edges", NULL},
    {"big_draw", case_big_draw, 3, 40, "72,000 vertices in one draw, 32-bit indices", NULL},
    {"generate_mipmap", case_generate_mipmap, 3, 40, "blitted mip levels, trilinear (seen: within 1)", NULL},
    {"wide_lines", case_wide_lines, 3, 80, "5- and 3-pixel lines: their ends and sides", NULL},
    {"tex_rgb_alpha", case_tex_rgb_alpha, 3, 20, "RGB and ALPHA textures converted by the driver", NULL},
    {"tex_in_loop", case_tex_in_loop, 3, 40, "lookups in a loop and a dependent lookup", NULL},
    {"index_byte", case_index_byte, 3, 40, "8-bit indices, a list and a strip", NULL},
    {"depth_range", case_depth_range, 3, 40, "depth range 0.25-0.6 against a 0.5 clear: the cut line", NULL},
};
#define NCASES (sizeof cases / sizeof cases[0])

static const struct gl_case *find(const char *name)
{
    for (size_t i = 0; i < NCASES; i++)
        if (!strcmp(cases[i].name, name))
            return &cases[i];
    return NULL;
}

static int render(const struct gl_case *c, const char *out)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    EGLDisplay d = get_display ? get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL)
                               : EGL_NO_DISPLAY;
    EGLint major, minor;
    if (d == EGL_NO_DISPLAY || !eglInitialize(d, &major, &minor)) {
        fprintf(stderr, "gl_check: no surfaceless EGL display (0x%x)\n", eglGetError());
        return 2;
    }
    static const EGLint cfg_attr[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_NONE};
    EGLConfig cfg = NULL;
    EGLint n = 0;
    eglChooseConfig(d, cfg_attr, &cfg, 1, &n);
    eglBindAPI(EGL_OPENGL_ES_API);
    static const EGLint ctx_attr[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    EGLContext ctx = eglCreateContext(d, n ? cfg : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctx_attr);
    if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        fprintf(stderr, "gl_check: no GLES2 context (0x%x)\n", eglGetError());
        return 2;
    }
    fprintf(stderr, "gl_check: %s: GL_RENDERER %s\n", c->name, (const char *)glGetString(GL_RENDERER));
    GLuint fb, depth;
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    /* GLES2 core has no RGBA8 renderbuffer; a texture is RGBA8 everywhere */
    GLuint ctex;
    glGenTextures(1, &ctex);
    glBindTexture(GL_TEXTURE_2D, ctex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, ctex, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glGenRenderbuffers(1, &depth);
    glBindRenderbuffer(GL_RENDERBUFFER, depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, W, H);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "gl_check: framebuffer incomplete\n");
        return 2;
    }
    glViewport(0, 0, W, H);
    c->fn();
    unsigned char *px = malloc(W * H * 4), *flip = malloc(W * H * 4);
    if (!px || !flip)
        return 2;
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
    GLenum err = glGetError();
    if (err != GL_NO_ERROR)
        fprintf(stderr, "gl_check: %s: GL error 0x%x\n", c->name, err);
    for (int y = 0; y < H; y++) /* GL's row 0 is the bottom; the PNG's the top */
        memcpy(flip + (size_t)y * W * 4, px + (size_t)(H - 1 - y) * W * 4, W * 4);
    int r = png_save(out, flip, W, H) == 0 ? 0 : 2;
    free(px);
    free(flip);
    eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(d, ctx);
    eglTerminate(d);
    return r;
}

static int compare(const struct gl_case *c, const char *a, const char *b, const char *diff)
{
    int aw, ah, bw, bh;
    unsigned char *pa = png_load(a, &aw, &ah), *pb = png_load(b, &bw, &bh);
    if (!pa || !pb || aw != bw || ah != bh) {
        fprintf(stderr, "gl_check: %s: cannot compare %s and %s\n", c->name, a, b);
        return 2;
    }
    int off = 0, worst = 0;
    unsigned char *d = malloc((size_t)aw * ah * 4);
    for (int i = 0; d && i < aw * ah; i++) {
        int m = 0;
        for (int k = 0; k < 4; k++) {
            int e = abs(pa[4 * i + k] - pb[4 * i + k]);
            m = e > m ? e : m;
        }
        worst = m > worst ? m : worst;
        off += m > c->max_delta;
        /* the diff image: off pixels red, within-tolerance ones dim grey, equal black */
        d[4 * i + 0] = m > c->max_delta ? 255 : m ? 80 : 0;
        d[4 * i + 1] = m > c->max_delta ? 0 : m ? 80 : 0;
        d[4 * i + 2] = m > c->max_delta ? 0 : m ? 80 : 0;
        d[4 * i + 3] = 255;
    }
    bool pass = off <= c->max_off;
    printf("%-12s %s: %d of %d pixels differ by more than %d (allowed %d); largest difference %d\n", c->name,
           pass ? (c->gap ? "ok (known gap no longer shows!)" : "ok  ") : c->gap ? "known gap" : "FAIL", off,
           aw * ah, c->max_delta, c->max_off, worst);
    if (!pass && c->gap)
        printf("             %s\n", c->gap);
    if (!pass && d)
        png_save(diff, d, aw, ah);
    free(d);
    free(pa);
    free(pb);
    return pass ? 0 : c->gap ? 3 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--list")) {
        for (size_t i = 0; i < NCASES; i++)
            printf("%s\n", cases[i].name);
        return 0;
    }
    if (argc == 6 && !strcmp(argv[1], "--compare")) {
        const struct gl_case *c = find(argv[2]);
        return c ? compare(c, argv[3], argv[4], argv[5]) : 2;
    }
    if (argc == 3) {
        const struct gl_case *c = find(argv[1]);
        if (!c) {
            fprintf(stderr, "gl_check: no case '%s' (--list)\n", argv[1]);
            return 2;
        }
        return render(c, argv[2]);
    }
    fprintf(stderr, "usage: gl_check --list | CASE OUT.png | --compare CASE A.png B.png DIFF.png\n");
    return 2;
}
