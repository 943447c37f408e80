/* Validates every program of firmware-protocol/vectors/v3/programs.txt (format 3, PROTOCOL-3.md 3.1)
 * through hb_program_validate_format and compares the result, T, the peak and the seek bound X
 * (3.5) with the file; then checks that asking for format 2 still gives protocol 2.0's verdicts.
 *
 * Usage: test_format3 <vectors/v3 directory>. Last line: "N passed, N failed"; exit status 0 when
 * nothing failed. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hb_validate.h"
#include "vector_files.h"

#define MAX_PROGRAM 8192
#define LINE_SIZE (2 * MAX_PROGRAM + 64)

static char line[LINE_SIZE], name[VECTOR_NAME_MAX];
static uint8_t program[MAX_PROGRAM];

/* One "program" line and its "expect" line: returns 1 when every value matches. */
static int check(long length, const char *expect, const hb_config *cfg)
{
    hb_header header;
    hb_program_info info = {0, 0};
    unsigned long total, peak, bound;
    int code = -1,
        ok = sscanf(expect, "expect: ok total %lu peak %lu seek_bound %lu", &total, &peak, &bound) == 3;
    hb_err got;
    if (!ok && sscanf(expect, "expect: error %d", &code) != 1) {
        printf("FAIL %s: cannot parse its expect line\n", name);
        return 0;
    }
    got = hb_program_validate_format(program, (uint32_t)length, cfg, HB_FORMAT_VERSION_3, NULL, NULL, NULL,
                                     &header, &info);
    if (ok ? got != HB_OK : got != code) {
        printf("FAIL %s: error %d, expected %d\n", name, got, ok ? 0 : code);
        return 0;
    }
    if (ok && (header.total_ticks != total || info.peak != peak || info.seek_bound != bound)) {
        printf("FAIL %s: total %lu peak %u seek_bound %lu, expected %lu %lu %lu\n", name,
               (unsigned long)header.total_ticks, info.peak, (unsigned long)info.seek_bound, total, peak,
               bound);
        return 0;
    }
    /* format 2 unchanged: the version byte 3 is error 3, and as a format 2 program the same bytes
     * pass rules 1-30 exactly when they did (rule (f) is not format 2's) */
    if (length > 2 && program[2] == HB_FORMAT_VERSION_3) {
        hb_err as_v2 = hb_program_validate(program, (uint32_t)length, cfg, &header);
        program[2] = HB_FORMAT_VERSION;
        got = hb_program_validate(program, (uint32_t)length, cfg, &header);
        if (as_v2 != HB_ERR_BAD_VERSION || got != (ok || code == HB_ERR_LOOP_NOT_CLOSED ? HB_OK : code)) {
            printf("FAIL %s: as format 2: %d and %d with the byte changed\n", name, as_v2, got);
            return 0;
        }
    }
    return 1;
}

/* The v2 program vectors (vectors/programs) that 2.0 loads, with the version byte changed to 3: each
 * passes format 3 but the four that leave a ramp or pulse running across an iteration's end on
 * purpose (docs/protocol-3-design.md), which are error 31. */
static const char *const open_v2[] = {"loop_head_nested.txt", "loop_nested_4.txt",
                                      "loop_ramp_crosses_iterations.txt", "pulse_in_loop.txt"};
static hb_config v2_cfg;
static long v2_length;
static int v2_loads, v2_total, v2_open;

static int parse_v2(const char *path)
{
    FILE *file = fopen(path, "r");
    int streamed = 0;
    if (file == NULL) return 0;
    hb_config_default(&v2_cfg);
    v2_length = -1;
    v2_loads = 0;
    while (fgets(line, sizeof line, file) != NULL) {
        if (strncmp(line, "config:", 7) == 0) {
            (void)vector_core_config(line, &v2_cfg);
        } else if (strncmp(line, "program:", 8) == 0) {
            v2_length = vector_hex(line + 8, program, MAX_PROGRAM);
        } else if (strncmp(line, "stream:", 7) == 0) {
            streamed = 1;
        } else if (strncmp(line, "expect: ok", 10) == 0) {
            v2_loads = 1;
        }
    }
    fclose(file);
    v2_loads = v2_loads && !streamed;
    return v2_length >= 0;
}

static int run_v2(const char *file)
{
    hb_header header;
    hb_program_info info;
    hb_err got, want = HB_OK;
    size_t i;
    if (!v2_loads || v2_length < 3) {
        return 1;
    }
    for (i = 0; i < sizeof open_v2 / sizeof open_v2[0]; i++) {
        if (strcmp(file, open_v2[i]) == 0) want = HB_ERR_LOOP_NOT_CLOSED;
    }
    program[2] = HB_FORMAT_VERSION_3;
    got = hb_program_validate_format(program, (uint32_t)v2_length, &v2_cfg, HB_FORMAT_VERSION_3, NULL, NULL,
                                     NULL, &header, &info);
    v2_total++;
    v2_open += got == HB_ERR_LOOP_NOT_CLOSED;
    if (got != want) {
        printf("FAIL %s with version 3: error %d, expected %d\n", file, got, want);
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    static vector_folder folder;
    char v2_path[512];
    char *v2_argv[2];
    FILE *file;
    hb_config cfg;
    int passed = 0, failed = 0;
    long length = -1;
    if (argc != 2) {
        printf("usage: test_format3 <firmware-protocol/vectors/v3>\n");
        return 2;
    }
    file = vector_open(argv[1], "programs.txt");
    if (file == NULL) {
        return 2;
    }
    hb_config_default(&cfg);
    while (fgets(line, sizeof line, file) != NULL) {
        if (strncmp(line, "program ", 8) == 0) {
            char *space = strchr(line + 8, ' ');
            if (space == NULL || (size_t)(space - (line + 8)) >= sizeof name) {
                length = -1;
                continue;
            }
            memcpy(name, line + 8, (size_t)(space - (line + 8)));
            name[space - (line + 8)] = '\0';
            length = vector_hex(space + 1, program, MAX_PROGRAM);
        } else if (strncmp(line, "expect:", 7) == 0) {
            if (length >= 0 && check(length, line, &cfg)) {
                passed++;
            } else {
                if (length < 0) printf("FAIL %s: cannot parse its program line\n", name);
                failed++;
            }
            length = -1;
        }
    }
    fclose(file);
    if (passed + failed == 0) {
        printf("FAIL no programs in %s/programs.txt\n", argv[1]);
        failed++;
    }
    snprintf(v2_path, sizeof v2_path, "%s/../programs", argv[1]);
    v2_argv[0] = argv[0];
    v2_argv[1] = v2_path;
    if (!vector_folder_open(&folder, 2, v2_argv, "programs")) {
        return 2;
    }
    vector_folder_run(&folder, parse_v2, run_v2, &passed, &failed);
    printf("v2 programs that load, as format 3: %d, %d of them error 31\n", v2_total, v2_open);
    if (v2_total < 90 || v2_open != 4) {
        printf("FAIL v2 programs as format 3: too few, or not the four open ones\n");
        failed++;
    }
    printf("format 3 programs: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
