/*
 * png.c - 8-bit RGBA PNG files through libpng's simplified API.
 */
#define _POSIX_C_SOURCE 200809L /* open, fdopen */
#include <errno.h>
#include <fcntl.h>
#include <png.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "vc4kit/tex.h"

/* The largest picture read: 4096 pixels a side (64 MiB of RGBA). V3D's
 * frames and textures are at most 2048 a side (texture width/height fields
 * are 11 bits, 0 = 2048); the header is checked before any pixel memory is
 * taken, so a PNG declaring 30000x30000 costs nothing. */
#define PNG_MAX_SIDE 4096u

/* Open path for writing. *created: this call made the file. Only such a
 * file may be removed when the write fails: an existing file or a device
 * (-o /dev/full) is left where it was. (libpng's png_image_write_to_file
 * removes the path on failure, whatever it was.) */
static FILE *open_output(const char *path, bool *created)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
    *created = fd >= 0;
    if (fd < 0 && errno == EEXIST)
        fd = open(path, O_WRONLY | O_TRUNC);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "wb");
    if (!f)
        close(fd);
    return f;
}

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
    bool created = false;
    FILE *f = open_output(path, &created);
    if (!f) {
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_IO, "png", &loc, "cannot write %s: %s", path, strerror(errno));
        return VC4_ERR_IO;
    }
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = width;
    img.height = height;
    img.format = PNG_FORMAT_RGBA;
    bool ok = png_image_write_to_stdio(&img, f, 0, rgba, (png_int_32)stride, NULL) != 0;
    const char *why = ok ? NULL : img.message;
    int err = 0;
    if (fflush(f) != 0 || ferror(f)) {
        err = errno;
        ok = false;
    }
    if (fclose(f) != 0 && ok) {
        err = errno;
        ok = false;
    }
    if (!ok) {
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_IO, "png", &loc, "cannot write %s: %s", path,
                      err ? strerror(err) : why);
        if (created)
            remove(path);
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
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_IO, "png", &loc, "cannot read %s: %s", path, img.message);
        return VC4_ERR_IO;
    }
    if (img.width > PNG_MAX_SIDE || img.height > PNG_MAX_SIDE) {
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_IO, "png", &loc,
                      "%s: %ux%u pixels, more than %u a side (V3D frames and textures are at most 2048)",
                      path, (unsigned)img.width, (unsigned)img.height, PNG_MAX_SIDE);
        png_image_free(&img);
        return VC4_ERR_RANGE;
    }
    img.format = PNG_FORMAT_RGBA;
    size_t size = PNG_IMAGE_SIZE(img);
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf) {
        png_image_free(&img);
        return VC4_ERR_NOMEM;
    }
    if (!png_image_finish_read(&img, NULL, buf, 0, NULL)) {
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_IO, "png", &loc, "cannot decode %s: %s", path, img.message);
        free(buf);
        return VC4_ERR_IO;
    }
    *rgba = buf;
    *width = img.width;
    *height = img.height;
    return VC4_OK;
}
