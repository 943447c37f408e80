/* Checks of the core's cost-driven shortcuts against their definitions (no vector files: the
 * directory argument make passes is ignored):
 * - ramps (PROTOCOL.md 1.9): the 8-bit short form, the 32-bit long form and "the ramp ends when
 *   the value reaches v1" against the closed form, sample by sample;
 * - loop times (1.6): the multiply-based overflow test against 64-bit arithmetic;
 * - decoding from a ring (1.14): hb_instr_decode across wraps and the written end against the
 *   per-byte definition (truncated, underrun, varint errors in byte order).
 * Usage: test_core [ignored]. Last line: "core: N checks, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hb_crc16.h"
#include "hb_drive_cap.h"
#include "hb_interp.h"
#include "hb_validate.h"

static long checks, failures;

#define CHECK(cond, ...)                                    \
    do {                                                    \
        checks++;                                           \
        if (!(cond)) {                                      \
            if (failures++ < 20) {                          \
                printf("FAIL %s:%d: ", __FILE__, __LINE__); \
                printf(__VA_ARGS__);                        \
                printf("\n");                               \
            }                                               \
        }                                                   \
    } while (0)

static uint32_t rng_state = 12345u;
static uint32_t rng(void)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return rng_state >> 8;
}

/* ---- a tiny program writer ---- */

static uint8_t program[256];
static uint32_t body_length;

static void emit(uint8_t b)
{
    program[HB_HEADER_SIZE + body_length++] = b;
}

static void varint(uint32_t v)
{
    while (v >= 0x80u) {
        emit((uint8_t)(v | 0x80u));
        v >>= 7;
    }
    emit((uint8_t)v);
}

static void first(uint8_t op, uint32_t delay)
{
    if (delay < HB_DELAY_EXTENDED) {
        emit((uint8_t)((uint32_t)op << 5 | delay));
    } else {
        emit((uint8_t)((unsigned)op << 5 | HB_DELAY_EXTENDED));
        varint(delay - HB_DELAY_EXTENDED);
    }
}

static uint32_t finish(uint32_t total_ticks)
{
    uint16_t crc = hb_crc16(HB_CRC16_INIT, program + HB_HEADER_SIZE, body_length);
    uint32_t i;
    program[0] = HB_MAGIC_0;
    program[1] = HB_MAGIC_1;
    program[2] = HB_FORMAT_VERSION;
    program[3] = 0;
    program[4] = (uint8_t)HB_DEFAULT_RATE;
    program[5] = (uint8_t)(HB_DEFAULT_RATE >> 8);
    for (i = 0; i < 4; i++) {
        program[6 + i] = (uint8_t)(body_length >> (8 * i));
        program[10 + i] = (uint8_t)(total_ticks >> (8 * i));
    }
    program[14] = (uint8_t)crc;
    program[15] = (uint8_t)(crc >> 8);
    return HB_HEADER_SIZE + body_length;
}

/* ---- ramps ---- */

/* 1.9's closed form */
static uint8_t ramp_value(uint8_t v0, uint8_t v1, uint32_t d, uint32_t k)
{
    uint64_t delta = v1 > v0 ? (uint64_t)(v1 - v0) : (uint64_t)(v0 - v1);
    uint64_t step;
    if (k > d) {
        return v1;
    }
    step = (delta * k + d / 2u) / d;
    return (uint8_t)(v1 > v0 ? v0 + step : v0 - step);
}

/* SET_A v0 then RAMP_A v1, d at tick 0; `ticks` samples compared with the closed form. */
static void check_ramp(uint8_t v0, uint8_t v1, uint32_t d, uint32_t ticks)
{
    static hb_interp it;
    hb_config cfg;
    uint32_t k, length;
    hb_config_default(&cfg);
    cfg.safety_ticks = 0xFFFFFFFFu;
    body_length = 0;
    first(HB_OP_SET_A, 0);
    emit(v0);
    first(HB_OP_RAMP_A, 0);
    emit(v1);
    varint(d);
    first(HB_OP_END, ticks);
    length = finish(ticks);
    hb_interp_init(&it, &cfg);
    CHECK(hb_interp_load(&it, program, length) == HB_OK, "ramp program %u -> %u over %lu rejected", v0, v1,
          (unsigned long)d);
    for (k = 0; k < ticks; k++) {
        hb_sample s = hb_interp_step(&it);
        uint8_t want = ramp_value(v0, v1, d, k);
        if (s.amp != want) {
            CHECK(0, "ramp %u -> %u over %lu: tick %lu is %u, want %u", v0, v1, (unsigned long)d,
                  (unsigned long)k, s.amp, want);
            return;
        }
    }
    checks++;
}

static void ramp_tests(void)
{
    static const uint32_t short_d[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 100, 127, 128, 129, 200, 254, 255};
    static const uint32_t long_d[] = {256,   257,   300,   511,     1000,       4097,
                                      65535, 65536, 65537, 1000000, 0x0FFFFFFFu};
    unsigned v0, v1, i;
    for (v0 = 0; v0 < 256; v0 += (v0 < 4 || v0 > 250) ? 1u : 7u) {
        for (v1 = 0; v1 < 256; v1 += (v1 < 4 || v1 > 250) ? 1u : 5u) {
            for (i = 0; i < sizeof short_d / sizeof short_d[0]; i++) {
                check_ramp((uint8_t)v0, (uint8_t)v1, short_d[i], short_d[i] + 3u);
            }
        }
    }
    for (v0 = 0; v0 < 256; v0 += 51u) {
        for (v1 = 0; v1 < 256; v1 += 17u) {
            for (i = 0; i < sizeof long_d / sizeof long_d[0]; i++) {
                uint32_t d = long_d[i];
                check_ramp((uint8_t)v0, (uint8_t)v1, d, d < 5000u ? d + 3u : 5000u);
            }
        }
    }
    /* every steep short ramp from 0 (the 8-bit division: each delta >= D) */
    for (i = 1; i < 256; i++) {
        for (v1 = i; v1 < 256; v1 += (i < 40u ? 1u : 13u)) {
            check_ramp(0, (uint8_t)v1, i, i + 2u);
        }
    }
    /* full-swing long ramps end exactly at D */
    check_ramp(0, 255, 70000u, 70003u);
    check_ramp(255, 0, 70000u, 70003u);
    check_ramp(3, 4, 100000u, 100003u);
}

/* ---- loop end times ---- */

/* LOOP count at time `start`, one SET_A `period` ticks later, ENDLOOP, END `after` ticks after
 * the loop; total_ticks = the true end (64-bit), capped to u32. */
static void check_loop(uint32_t start, uint32_t period, uint8_t count)
{
    hb_config cfg;
    hb_header header;
    uint64_t end = (uint64_t)start + (uint64_t)period * count;
    uint32_t left = start, length;
    hb_err want = end > 0xFFFFFFFFu ? HB_ERR_TICKS_OVERFLOW : HB_OK;
    hb_err got;
    hb_config_default(&cfg);
    body_length = 0;
    while (left > 0) { /* reach `start` in steps a delay can take */
        uint32_t d = left > 0x0FFFFFFFu ? 0x0FFFFFFFu : left;
        first(HB_OP_SET_A, d);
        emit(1);
        left -= d;
    }
    first(HB_OP_LOOP, 0);
    emit(count);
    first(HB_OP_SET_A, period);
    emit(2);
    first(HB_OP_ENDLOOP, 0);
    first(HB_OP_END, 0);
    length = finish(end > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)end);
    got = hb_program_validate(program, length, &cfg, &header);
    CHECK(got == want, "loop at %lu, period %lu, count %u: error %u, want %u", (unsigned long)start,
          (unsigned long)period, count, got, want);
}

static void loop_tests(void)
{
    int i;
    for (i = 0; i < 20000; i++) {
        uint8_t count = (uint8_t)(1u + rng() % 255u);
        uint32_t period = 1u + rng() % 0x0FFFFFFFu;
        uint32_t start = rng() << 8 ^ rng();
        uint64_t room;
        if (i % 4 == 0) {
            period = 1u + rng() % 0xFFFFu;
        }
        /* half of them at the overflow boundary: start + period * count = 2^32 - 1 + {-1, 0, 1} */
        room = (uint64_t)period * count;
        if (i % 2 == 0 && room <= 0xFFFFFFFFu) {
            start = (uint32_t)(0xFFFFFFFFu - room) + (uint32_t)(rng() % 3u) - 1u;
            if ((uint64_t)start + room > 0xFFFFFFFFu + 1ull) {
                start = (uint32_t)(0xFFFFFFFFu - room);
            }
        }
        check_loop(start, period, count);
    }
    check_loop(0, 0x0FFFFFFFu + 30u, 16);
    check_loop(0, 0x0FFFFFFFu + 30u, 17);
    check_loop(0xFFFFFFFFu - 255u, 1, 255);
    check_loop(0xFFFFFFFFu - 254u, 1, 255);
}

/* ---- decoding from a ring ---- */

/* The definition: byte by byte, "past the body" (16 / 30) before "not written" (48). */
static hb_err ref_byte(const uint8_t *ring, uint32_t mask, uint32_t written, uint32_t body, uint32_t at,
                       uint8_t *out)
{
    if (at >= body) {
        return HB_ERR_TRUNCATED;
    }
    if (at >= written) {
        return HB_ERR_UNDERRUN;
    }
    *out = ring[at & mask];
    return HB_OK;
}

static hb_err ref_varint(const uint8_t *ring, uint32_t mask, uint32_t written, uint32_t body, uint32_t *at,
                         uint32_t *out)
{
    uint32_t value = 0;
    uint8_t count;
    for (count = 0; count < 4; count++) {
        uint8_t byte = 0;
        hb_err err = ref_byte(ring, mask, written, body, *at + count, &byte);
        if (err != HB_OK) {
            return err;
        }
        value |= (uint32_t)(byte & 0x7Fu) << (7u * count);
        if ((byte & 0x80u) == 0) {
            if (count > 0 && byte == 0) {
                return HB_ERR_VARINT_NONCANONICAL;
            }
            *at += count + 1u;
            *out = value;
            return HB_OK;
        }
    }
    return HB_ERR_VARINT_TOO_LONG;
}

static hb_err ref_decode(const uint8_t *ring, uint32_t mask, uint32_t written, uint32_t body,
                         uint32_t *offset, hb_instr *out)
{
    uint32_t at = *offset;
    uint8_t first_byte = 0;
    hb_err err;
    memset(out, 0, sizeof *out);
    if (at >= body) {
        return HB_ERR_END_MISSING;
    }
    err = ref_byte(ring, mask, written, body, at++, &first_byte);
    if (err != HB_OK) {
        return err;
    }
    out->op = (uint8_t)(first_byte >> 5);
    out->delay = first_byte & 0x1Fu;
    if (out->delay == 31u) {
        uint32_t extra = 0;
        err = ref_varint(ring, mask, written, body, &at, &extra);
        if (err != HB_OK) {
            return err;
        }
        out->delay = 31u + extra;
    }
    if (out->op <= HB_OP_LOOP) {
        err = ref_byte(ring, mask, written, body, at++, &out->value);
        if (err != HB_OK) {
            return err;
        }
    }
    if (out->op == HB_OP_RAMP_A || out->op == HB_OP_RAMP_S) {
        err = ref_varint(ring, mask, written, body, &at, &out->dur);
    } else if (out->op == HB_OP_PULSE) {
        err = ref_byte(ring, mask, written, body, at++, &out->sharp);
    }
    if (err == HB_OK) {
        *offset = at;
    }
    return err;
}

/* bytes that are often instructions, sometimes broken varints */
static uint8_t random_byte(void)
{
    switch (rng() % 6u) {
    case 0: return (uint8_t)(rng() % 8u << 5 | 31u); /* extended delay */
    case 1: return (uint8_t)(0x80u | rng());         /* varint continuation */
    case 2: return 0;
    default: return (uint8_t)rng();
    }
}

static void decode_tests(void)
{
    static uint8_t storage[64];
    int i;
    for (i = 0; i < 300000; i++) {
        hb_source src;
        hb_instr got, want;
        uint32_t capacity = 8u << (rng() % 4u); /* 8..64 */
        uint32_t start = rng() % 1000u, fill, body, k, off_got, off_want;
        hb_err e_got, e_want;
        hb_source_ring(&src, storage, capacity);
        /* advance the ring to `start` so that offsets wrap anywhere */
        src.written = start;
        src.released = start;
        fill = rng() % (capacity + 1u);
        for (k = 0; k < fill; k++) {
            uint8_t b = random_byte();
            (void)hb_source_write(&src, &b, 1);
        }
        body = start + rng() % (capacity + 4u);
        off_got = off_want = start;
        memset(&got, 0xAA, sizeof got);
        e_got = hb_instr_decode(&src, body, &off_got, &got);
        e_want = ref_decode(storage, capacity - 1u, src.written, body, &off_want, &want);
        CHECK(e_got == e_want && off_got == off_want,
              "ring %lu at %lu, written %lu, body %lu: error %u offset %lu, "
              "want %u offset %lu",
              (unsigned long)capacity, (unsigned long)start, (unsigned long)src.written, (unsigned long)body,
              e_got, (unsigned long)off_got, e_want, (unsigned long)off_want);
        if (e_got == HB_OK && e_want == HB_OK) {
            CHECK(got.op == want.op && got.delay == want.delay && got.dur == want.dur
                      && got.value == want.value && got.sharp == want.sharp,
                  "ring decode at %lu: fields differ", (unsigned long)start);
        }
    }
}

/* hb_duty_scaled, every code under every cap: the rounded scaling, at least one duty step for a
 * non-zero code under a non-zero cap (code 1 under an LRA's rated cap at 5 V, 97, rounds to 0),
 * nothing for code 0 or cap 0, never over the cap, never falling as the code rises. */
static void duty_tests(void)
{
    for (unsigned cap = 0; cap <= 255u; cap++) {
        unsigned previous = 0;
        for (unsigned code = 0; code <= 255u; code++) {
            unsigned rounded = (code * cap + 127u) / 255u;
            unsigned want = (rounded == 0u && code != 0u && cap != 0u) ? 1u : rounded;
            unsigned got = hb_duty_scaled((uint8_t)code, (uint8_t)cap);
            CHECK(got == want && got <= cap && got >= previous, "code %u under cap %u: duty %u, want %u",
                  code, cap, got, want);
            previous = got;
        }
    }
    CHECK(hb_duty_scaled(1, 97) == 1 && hb_duty_scaled(255, 97) == 97 && hb_duty_scaled(1, 0) == 0,
          "the lowest code under the 2 V LRA's cap at 5 V");
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ramp_tests();
    loop_tests();
    decode_tests();
    duty_tests();
    printf("core: %ld checks, %ld failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
