/* Plays every program vector (the .txt files of firmware-protocol/vectors/programs, format in its README.md)
 * through the C core and compares each output sample, the load result and the final status.
 *
 * Usage: test_programs <vectors/programs directory>. Last line: "N passed, N failed"; exit status
 * 0 when nothing failed. Host-only test code: stdio and dirent, but no malloc, like the core. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hb_crc16.h"
#include "hb_interp.h"
#include "hb_validate.h"

#define MAX_PROGRAM 8192
#define MAX_EVENTS 64
#define MAX_SPANS 4096
#define MAX_RING 4096
#include "vector_files.h"

#define LINE_SIZE (2 * MAX_PROGRAM + 64)

typedef struct {
    long tick;
    char kind[16];
    char arg[16];
} event;

typedef struct {
    long first, last;
    int amp, sharp, flags;
} span;

typedef struct {
    hb_config cfg;
    uint8_t program[MAX_PROGRAM];
    long program_length;
    long capacity, initial; /* streamed when capacity > 0 */
    int expect;
    event events[MAX_EVENTS];
    int event_count;
    long ticks;
    span spans[MAX_SPANS];
    int span_count;
    char final_mode[16];
    int final_error;
    long final_tick;
} vector;

static vector v; /* one at a time; static because it is large */
static uint8_t ring[MAX_RING];
static char line[LINE_SIZE];

static int parse(const char *path)
{
    FILE *file = fopen(path, "r");
    if (file == NULL) return 0;
    memset(&v, 0, sizeof v);
    hb_config_default(&v.cfg);
    v.expect = -1;
    v.ticks = -1;
    while (fgets(line, sizeof line, file) != NULL) {
        span *s;
        if (line[0] == '#' || line[0] == '\n') continue;
        if (strncmp(line, "config:", 7) == 0) {
            (void)vector_core_config(line, &v.cfg);
        } else if (strncmp(line, "program:", 8) == 0) {
            v.program_length = vector_hex(line + 8, v.program, MAX_PROGRAM);
            if (v.program_length < 0) break;
        } else if (strncmp(line, "stream:", 7) == 0) {
            if (sscanf(line, "stream: capacity=%ld initial=%ld", &v.capacity, &v.initial) != 2) break;
        } else if (strncmp(line, "expect: ok", 10) == 0) {
            v.expect = 0;
        } else if (strncmp(line, "expect: error", 13) == 0) {
            v.expect = atoi(line + 13);
        } else if (strncmp(line, "event:", 6) == 0) {
            event *e = &v.events[v.event_count];
            if (v.event_count == MAX_EVENTS
                || sscanf(line, "event: %ld %15s %15s", &e->tick, e->kind, e->arg) != 3)
                break;
            v.event_count++;
        } else if (strncmp(line, "ticks:", 6) == 0) {
            v.ticks = atol(line + 6);
        } else if (strncmp(line, "final:", 6) == 0) {
            if (sscanf(line, "final: mode %15s error %d tick %ld", v.final_mode, &v.final_error,
                       &v.final_tick)
                != 3)
                break;
        } else {
            if (v.span_count == MAX_SPANS) break;
            s = &v.spans[v.span_count];
            if (sscanf(line, "%ld-%ld: %d %d %d", &s->first, &s->last, &s->amp, &s->sharp, &s->flags) == 5) {
                v.span_count++;
            } else if (sscanf(line, "%ld: %d %d %d", &s->first, &s->amp, &s->sharp, &s->flags) == 4) {
                s->last = s->first;
                v.span_count++;
            } else {
                break;
            }
        }
    }
    fclose(file);
    return v.expect >= 0 && v.ticks >= 0 && v.final_mode[0] != '\0' && v.span_count > 0
           && v.capacity <= MAX_RING;
}

static const char *mode_name(uint8_t mode)
{
    return mode == HB_MODE_PLAYING ? "playing" : mode == HB_MODE_BRAKING ? "braking" : "idle";
}

/* Runs the parsed vector; prints the first difference and returns 0 on failure. */
static int run(const char *name)
{
    static hb_interp it;
    hb_source src;
    hb_header header;
    hb_err load;
    hb_status status;
    long tick, fed = 0, span_index = 0;
    uint32_t length = (uint32_t)v.program_length;
    const uint8_t *body = v.program + HB_HEADER_SIZE;
    uint32_t body_bytes = length > HB_HEADER_SIZE ? length - HB_HEADER_SIZE : 0;

    hb_interp_init(&it, &v.cfg);
    if (v.capacity > 0) {
        if (length < HB_HEADER_SIZE || !hb_source_ring(&src, ring, (uint32_t)v.capacity)) {
            printf("FAIL %s: bad stream setup\n", name);
            return 0;
        }
        fed = (long)hb_source_write(&src, body, (uint32_t)v.initial);
        load = hb_interp_load_stream(&it, v.program, &src);
    } else {
        hb_err direct = hb_program_validate(v.program, length, &v.cfg, &header);
        load = hb_interp_load(&it, v.program, length);
        if (direct != load) {
            printf("FAIL %s: hb_program_validate says %d, hb_interp_load %d\n", name, direct, load);
            return 0;
        }
    }
    if (load != v.expect) {
        printf("FAIL %s: load result %d, expected %d\n", name, load, v.expect);
        return 0;
    }
    for (tick = 0; tick < v.ticks; tick++) {
        hb_sample s;
        int i;
        const span *want;
        for (i = 0; i < v.event_count; i++) {
            const event *e = &v.events[i];
            if (e->tick != tick) continue;
            if (strcmp(e->kind, "scale") == 0) {
                hb_interp_set_scale(&it, (uint8_t)atoi(e->arg));
            } else if (strcmp(e->kind, "offset") == 0) {
                hb_interp_set_offset(&it, (int8_t)atoi(e->arg));
            } else if (strcmp(e->kind, "stop") == 0) {
                hb_interp_stop(&it, strcmp(e->arg, "brake") == 0);
            } else if (strcmp(e->kind, "feed") == 0) {
                uint32_t count = (uint32_t)atoi(e->arg);
                if (v.capacity == 0 || (uint32_t)fed + count > body_bytes
                    || hb_source_write(&src, body + fed, count) != count) {
                    printf("FAIL %s: feed of %u bytes at tick %ld does not fit\n", name, count, tick);
                    return 0;
                }
                fed += count;
            } else {
                printf("FAIL %s: unknown event %s\n", name, e->kind);
                return 0;
            }
        }
        s = hb_interp_step(&it);
        if (it.sh.executed > HB_MAX_TICK_EXECUTIONS) {
            printf("FAIL %s: tick %ld executed %u instructions\n", name, tick, it.sh.executed);
            return 0;
        }
        while (span_index < v.span_count && v.spans[span_index].last < tick) span_index++;
        if (span_index == v.span_count || v.spans[span_index].first > tick) {
            printf("FAIL %s: no expected sample for tick %ld\n", name, tick);
            return 0;
        }
        want = &v.spans[span_index];
        if (s.amp != want->amp || s.sharp != want->sharp || s.flags != want->flags) {
            printf("FAIL %s: tick %ld: got %u %u %u, expected %d %d %d\n", name, tick, s.amp, s.sharp,
                   s.flags, want->amp, want->sharp, want->flags);
            return 0;
        }
    }
    status = hb_interp_status(&it);
    if (strcmp(mode_name(status.mode), v.final_mode) != 0 || status.error != v.final_error
        || (long)status.tick != v.final_tick) {
        printf("FAIL %s: final mode %s error %u tick %lu, expected mode %s error %d tick %ld\n", name,
               mode_name(status.mode), status.error, (unsigned long)status.tick, v.final_mode, v.final_error,
               v.final_tick);
        return 0;
    }
    return 1;
}

/* ---- streamed twins: every program through small rings ----
 * The program of every vector, streamed through rings of 8 to 128 bytes fed in several patterns
 * (so that instructions start at and run across the wrap at many places, and the written end
 * cuts them), must play exactly as the same program streamed from a ring that holds the whole
 * body from the start: the same samples on every tick and the same final status, error and tick
 * included, unless the feed was too slow (HB_ERR_UNDERRUN). Each ring also with its mirrored tail
 * (hb_source_ring_mirrored: instructions read across the wrap in place, not copied), which must
 * meet the same underruns. */
static uint8_t twin_ring[MAX_RING + HB_SOURCE_TAIL];
static long twin_compared, twin_underruns, twin_mirrored_underruns;

static int stream_twin(const char *name)
{
    static hb_interp ref, it;
    static const uint32_t capacities[] = {8, 16, 32, 64, 128};
    static const uint32_t feeds[] = {0xFFFFFFFFu, 64, 13, 5}; /* bytes per tick at most */
    static uint8_t whole[MAX_RING];
    hb_source ref_src, src;
    uint32_t length = (uint32_t)v.program_length, body_bytes, c, f, fed, m;
    const uint8_t *body = v.program + HB_HEADER_SIZE;
    long tick;
    if (length < HB_HEADER_SIZE) {
        return 1;
    }
    body_bytes = length - HB_HEADER_SIZE;
    hb_interp_init(&ref, &v.cfg);
    (void)hb_source_ring(&ref_src, whole, MAX_RING);
    if (body_bytes > MAX_RING || hb_interp_load_stream(&ref, v.program, &ref_src) != HB_OK) {
        return 1;
    }
    if (body_bytes > ref.sh.header.body_length) {
        body_bytes = ref.sh.header.body_length;
    }
    (void)hb_source_write(&ref_src, body, body_bytes);
    for (c = 0; c < 2u * sizeof capacities / sizeof capacities[0]; c++) {
        m = c & 1u; /* mirrored (a tail cannot be longer than the ring) */
        if (m && capacities[c / 2u] < HB_SOURCE_TAIL) {
            continue;
        }
        for (f = 0; f < sizeof feeds / sizeof feeds[0]; f++) {
            hb_interp_init(&ref, &v.cfg);
            (void)hb_source_ring(&ref_src, whole, MAX_RING);
            (void)hb_source_write(&ref_src, body, body_bytes);
            hb_interp_init(&it, &v.cfg);
            (void)hb_source_ring_mirrored(&src, twin_ring, capacities[c / 2u], m ? HB_SOURCE_TAIL : 0u);
            /* the header was accepted above: both loads must accept it again */
            if (hb_interp_load_stream(&ref, v.program, &ref_src) != HB_OK
                || hb_interp_load_stream(&it, v.program, &src) != HB_OK) {
                printf("FAIL %s: a streamed load refused the header it accepted before\n", name);
                return 0;
            }
            fed = 0;
            for (tick = 0; tick < v.ticks + 64; tick++) {
                hb_sample a, b;
                uint32_t n = body_bytes - fed;
                if (n > feeds[f]) {
                    n = feeds[f];
                }
                fed += hb_source_write(&src, body + fed, n);
                a = hb_interp_step(&ref);
                b = hb_interp_step(&it);
                if (hb_interp_status(&it).error == HB_ERR_UNDERRUN) {
                    if (m) {
                        twin_mirrored_underruns++;
                    } else {
                        twin_underruns++;
                    }
                    break;
                }
                if (a.amp != b.amp || a.sharp != b.sharp || a.flags != b.flags
                    || hb_interp_status(&ref).error != hb_interp_status(&it).error
                    || hb_interp_status(&ref).tick != hb_interp_status(&it).tick
                    || hb_interp_status(&ref).mode != hb_interp_status(&it).mode) {
                    printf("FAIL %s: streamed through %u bytes fed %u per tick, tick %ld: got %u %u %u error "
                           "%u, "
                           "whole ring %u %u %u error %u\n",
                           name, capacities[c / 2u], feeds[f], tick, b.amp, b.sharp, b.flags,
                           hb_interp_status(&it).error, a.amp, a.sharp, a.flags,
                           hb_interp_status(&ref).error);
                    return 0;
                }
                if (hb_interp_status(&ref).mode == HB_MODE_IDLE) {
                    twin_compared++;
                    break;
                }
            }
        }
    }
    return 1;
}

/* ---- API behaviour the vector format cannot express (several loads, ring edges) ---- */

static int api_failures = 0, api_checks = 0;

#define API_CHECK(cond)                                          \
    do {                                                         \
        api_checks++;                                            \
        if (!(cond)) {                                           \
            printf("FAIL api: %s (line %d)\n", #cond, __LINE__); \
            api_failures++;                                      \
        }                                                        \
    } while (0)

/* SET_A 200 at 0, END at 5 (SHARP set) */
static uint8_t api_program[] = {
    0x48, 0x50, HB_FORMAT_VERSION, 1, 0xE8, 0x03, 3, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0x00, 200, 0xE5};

static void api_tests(void)
{
    static hb_interp it;
    static uint8_t storage[8];
    hb_config cfg;
    hb_source src;
    hb_sample s;
    uint8_t byte = 0, bytes[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    uint16_t crc = hb_crc16(HB_CRC16_INIT, api_program + HB_HEADER_SIZE, 3);
    int i;
    api_program[14] = (uint8_t)crc;
    api_program[15] = (uint8_t)(crc >> 8);
    hb_config_default(&cfg);
    cfg.brake_ticks = 4;
    hb_interp_init(&it, &cfg);

    /* power-up: idle, scale 255 */
    s = hb_interp_step(&it);
    API_CHECK(s.amp == 0 && s.flags == 0 && hb_interp_status(&it).mode == HB_MODE_IDLE);
    API_CHECK(it.sh.scale_internal == 256 && it.sh.offset == 0);

    /* controls set while idle persist into the next program */
    hb_interp_set_scale(&it, 128);
    API_CHECK(hb_interp_load(&it, api_program, sizeof api_program) == HB_OK);
    s = hb_interp_step(&it);
    API_CHECK(s.amp == (uint8_t)((200u * 129u + 128u) >> 8));

    /* ... and across a reload; a load while braking cuts the brake and restarts at tick 0 */
    for (i = 0; i < 5; i++) s = hb_interp_step(&it);
    API_CHECK(s.flags == HB_SAMPLE_BRAKE && hb_interp_status(&it).mode == HB_MODE_BRAKING);
    API_CHECK(hb_interp_load(&it, api_program, sizeof api_program) == HB_OK);
    API_CHECK(hb_interp_status(&it).tick == 0 && hb_interp_status(&it).mode == HB_MODE_PLAYING);
    s = hb_interp_step(&it);
    API_CHECK(s.amp == (uint8_t)((200u * 129u + 128u) >> 8) && s.flags == 0);

    /* a rejected load while playing brakes for brake_ticks and keeps the error */
    API_CHECK(hb_interp_load(&it, api_program, sizeof api_program - 1) == HB_ERR_LENGTH_MISMATCH);
    for (i = 0; i < 4; i++) {
        s = hb_interp_step(&it);
        API_CHECK(s.flags == HB_SAMPLE_BRAKE && s.amp == 0);
    }
    s = hb_interp_step(&it);
    API_CHECK(s.flags == 0 && hb_interp_status(&it).mode == HB_MODE_IDLE);
    API_CHECK(hb_interp_status(&it).error == HB_ERR_LENGTH_MISMATCH);
    /* a stop does not clear it; the next good load does */
    hb_interp_stop(&it, 0);
    API_CHECK(hb_interp_status(&it).error == HB_ERR_LENGTH_MISMATCH);
    API_CHECK(hb_interp_load(&it, api_program, sizeof api_program) == HB_OK);
    API_CHECK(hb_interp_status(&it).error == HB_OK);

    /* ring: power-of-two capacity only; writes stop at the capacity; release frees space */
    API_CHECK(hb_source_ring(&src, storage, 6) == 0);
    API_CHECK(hb_source_ring(&src, storage, 8) == 1);
    API_CHECK(hb_source_write(&src, bytes, 12) == 8 && hb_source_space(&src) == 0);
    API_CHECK(hb_source_byte(&src, 7, &byte) == 1 && byte == 8);
    API_CHECK(hb_source_byte(&src, 8, &byte) == 0);
    hb_source_release(&src, 5);
    API_CHECK(hb_source_space(&src) == 5);
    API_CHECK(hb_source_write(&src, bytes + 8, 4) == 4);
    API_CHECK(hb_source_byte(&src, 11, &byte) == 1 && byte == 12);
    API_CHECK(hb_source_byte(&src, 5, &byte) == 1 && byte == 6);
    hb_source_release(&src, 20); /* beyond what was written: ignored */
    API_CHECK(hb_source_space(&src) == 1);

    /* pulse lengths: the formula's table ends */
    API_CHECK(hb_pulse_length(0) == 20 && hb_pulse_length(12) == 20 && hb_pulse_length(13) == 19);
    API_CHECK(hb_pulse_length(243) == 11 && hb_pulse_length(244) == 10 && hb_pulse_length(255) == 10);
}

/* A vector, played as it is and through small rings. */
static int run_and_twin(const char *name)
{
    return run(name) && stream_twin(name);
}

int main(int argc, char **argv)
{
    static vector_folder folder;
    int passed = 0, failed = 0;
    if (!vector_folder_open(&folder, argc, argv, "programs")) {
        return 2;
    }
    /* the CRC the format relies on, by its check value */
    if (hb_crc16(HB_CRC16_INIT, (const uint8_t *)"123456789", 9) != 0x29B1) {
        printf("FAIL crc16 check value\n");
        failed++;
    }
    /* the byte-wise update equals the bitwise definition for every (crc, byte) pair */
    {
        uint32_t pair, bad = 0;
        for (pair = 0; pair < 0x1000000u; pair++) {
            uint16_t crc = (uint16_t)(pair >> 8);
            uint8_t byte = (uint8_t)pair;
            if (hb_crc16_update(crc, byte) != hb_crc16_update_bitwise(crc, byte)) {
                bad++;
            }
        }
        if (bad != 0) {
            printf("FAIL crc16 byte-wise update differs from the bitwise form in %lu pairs\n",
                   (unsigned long)bad);
            failed++;
        } else {
            passed++;
        }
    }
    api_tests();
    if (api_failures == 0) {
        passed++;
    } else {
        failed++;
    }
    vector_folder_run(&folder, parse, run_and_twin, &passed, &failed);
    printf("streamed twins: %ld plays through small rings (plain and mirrored) equal to the whole-ring play, "
           "%ld + %ld underran\n",
           twin_compared, twin_underruns, twin_mirrored_underruns);
    if (twin_compared < 1000) {
        printf("FAIL streamed twins: too few compared\n");
        failed++;
    }
    if (twin_mirrored_underruns == 0 || twin_mirrored_underruns > twin_underruns) {
        printf("FAIL streamed twins: mirrored rings underran otherwise than plain ones\n");
        failed++;
    }
    printf("api: %d checks, %d failed; vectors: %d files\n", api_checks, api_failures, folder.count);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
