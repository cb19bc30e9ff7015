/*
 * png.c - 8-bit RGBA PNG files through libpng's simplified API.
 */
#include <png.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "vc4kit/tex.h"

enum vc4_status vc4_png_write(const char *path, const uint8_t *rgba, unsigned width,
                              unsigned height, size_t stride, const struct vc4_diag_sink *sink)
{
    struct vc4_location loc = vc4_location_none();
    loc.file = path;
    if (!rgba || width == 0 || height == 0 || stride < (size_t)width * 4 || stride > INT32_MAX) {
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_IO, "png", &loc, "bad image (%ux%u, stride %zu)",
                      width, height, stride);
        return VC4_ERR_INVALID;
    }
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = width;
    img.height = height;
    img.format = PNG_FORMAT_RGBA;
    if (!png_image_write_to_file(&img, path, 0, rgba, (png_int_32)stride, NULL)) {
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_IO, "png", &loc, "cannot write: %s", img.message);
        png_image_free(&img);
        return VC4_ERR_IO;
    }
    return VC4_OK;
}

enum vc4_status vc4_png_read(const char *path, uint8_t **rgba, unsigned *width, unsigned *height,
                             const struct vc4_diag_sink *sink)
{
    struct vc4_location loc = vc4_location_none();
    loc.file = path;
    *rgba = NULL;
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path)) {
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_IO, "png", &loc, "cannot read: %s", img.message);
        return VC4_ERR_IO;
    }
    img.format = PNG_FORMAT_RGBA;
    size_t size = PNG_IMAGE_SIZE(img);
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf) {
        png_image_free(&img);
        return VC4_ERR_NOMEM;
    }
    if (!png_image_finish_read(&img, NULL, buf, 0, NULL)) {
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_IO, "png", &loc, "cannot decode: %s", img.message);
        free(buf);
        return VC4_ERR_IO;
    }
    *rgba = buf;
    *width = img.width;
    *height = img.height;
    return VC4_OK;
}
