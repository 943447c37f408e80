/* Interpreter cost per tick, for `make bench` under callgrind (docs/performance.md).
 *
 * Plays a busy program: ramps on both channels and up to 4 overlapping pulses in a 50-tick
 * pattern, repeated 100 x OUTER times by two nested loops. Run at two OUTER values and take the
 * difference of the instruction counts: setup cancels, what remains is the per-tick cost.
 * Usage: bench_interp OUTER (1..255). Prints the ticks played and a checksum of the samples. */
#include <stdio.h>
#include <stdlib.h>

#include "hb_crc16.h"
#include "hb_interp.h"

static uint8_t program[64] = {
    0x48, 0x50, HB_FORMAT_VERSION, HB_FLAG_SHARP, 0xE8, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static const uint8_t body[] = {
    0xA0, 0,        /* LOOP OUTER      +0 */
    0xA0, 100,      /* LOOP 100        +0 */
    0x20, 255, 20,  /* RAMP_A 255, 20  +0 */
    0x60, 200, 13,  /* RAMP_S 200, 13  +0 */
    0x83, 180, 40,  /* PULSE 180, 40   +3 */
    0x84, 220, 128, /* PULSE 220, 128  +4 */
    0x84, 100, 255, /* PULSE 100, 255  +4 */
    0x66, 30,  17,  /* RAMP_S 30, 17   +6 */
    0x23, 10,  25,  /* RAMP_A 10, 25   +3 */
    0x85, 250, 0,   /* PULSE 250, 0    +5 */
    0x82, 90,  200, /* PULSE 90, 200   +2 */
    0xD7,           /* ENDLOOP         +23: period 50 */
    0xC0,           /* ENDLOOP         +0 */
    0xE0,           /* END             +0 */
};

int main(int argc, char **argv)
{
    static hb_interp it;
    hb_config cfg;
    uint32_t outer, length, total, ticks = 0, sum = 0, i;
    uint16_t crc;
    hb_err err;
    if (argc != 2 || (outer = (uint32_t)atoi(argv[1])) < 1 || outer > 255) {
        printf("usage: %s OUTER (1..255)\n", argv[0]);
        return 2;
    }
    length = (uint32_t)sizeof body;
    for (i = 0; i < length; i++) program[HB_HEADER_SIZE + i] = body[i];
    program[HB_HEADER_SIZE + 1] = (uint8_t)outer;
    total = outer * 100u * 50u;
    program[6] = (uint8_t)length;
    for (i = 0; i < 4; i++) program[10 + i] = (uint8_t)(total >> (8 * i));
    crc = hb_crc16(HB_CRC16_INIT, program + HB_HEADER_SIZE, length);
    program[14] = (uint8_t)crc;
    program[15] = (uint8_t)(crc >> 8);

    hb_config_default(&cfg);
    cfg.safety_ticks = 0xFFFFFFFFu;
    hb_interp_init(&it, &cfg);
    err = hb_interp_load(&it, program, HB_HEADER_SIZE + length);
    if (err != HB_OK) {
        printf("invalid benchmark program: error %u\n", err);
        return 1;
    }
    while (hb_interp_status(&it).mode == HB_MODE_PLAYING) {
        hb_sample s = hb_interp_step(&it);
        sum = sum * 31u + s.amp * 7u + s.sharp;
        ticks++;
    }
    printf("%lu ticks, checksum %08lx\n", (unsigned long)ticks, (unsigned long)sum);
    return 0;
}
