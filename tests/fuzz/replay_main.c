/*
 * replay_main.c - runs a fuzz target over every file of its corpus folder
 * (or the files named), for builds without libFuzzer.  CI's short fuzz run
 * uses the real libFuzzer build; this keeps every corpus entry a test.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Each input gets a buffer of exactly its size, so an over-read is caught by
 * ASan in the sanitizer build, as it would be under libFuzzer. */
static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t cap = 4096, n = 0, k;
    uint8_t *buf = malloc(cap);
    while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            uint8_t *q = realloc(buf, cap *= 2);
            if (!q) {
                free(buf);
                buf = NULL;
            }
            buf = q;
        }
    }
    fclose(f);
    if (!buf)
        return 0;
    uint8_t *exact = malloc(n ? n : 1);
    if (exact) {
        memcpy(exact, buf, n);
        LLVMFuzzerTestOneInput(exact, n);
        free(exact);
    }
    free(buf);
    return 1;
}

int main(int argc, char **argv)
{
    int runs = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0)
            continue;
        if (!S_ISDIR(st.st_mode)) {
            runs += run_file(argv[i]);
            continue;
        }
        DIR *d = opendir(argv[i]);
        if (!d)
            continue;
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            runs += run_file(path);
        }
        closedir(d);
    }
    /* Also a fixed set of generated inputs, so an empty corpus still runs. */
    uint32_t x = 12345;
    for (int r = 0; r < 2000; r++) {
        size_t n = (size_t)(r % 256);
        uint8_t *buf = malloc(n ? n : 1);
        if (!buf)
            break;
        for (size_t k = 0; k < n; k++) {
            x = x * 1103515245u + 12345u;
            buf[k] = (uint8_t)(x >> 16);
        }
        LLVMFuzzerTestOneInput(buf, n);
        free(buf);
        runs++;
    }
    printf("%d passed, 0 failed\n", runs);
    return 0;
}
