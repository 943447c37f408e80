/* Random bytes almost never carry a matching CRC, body length and total_ticks, so without help
 * the fuzzer would stop at the header checks. fuzz_fixup copies a program and, by the bits of
 * `mode`, makes those fields consistent, letting the fuzzer reach the body rules and playback
 * (inputs with mode 0 still test the header checks themselves).
 *   bit 0: body_length = bytes after the header
 *   bit 1: total_ticks = the END time the checker computes (left alone if the body is invalid)
 *   bit 2: crc = CRC of the body */
#ifndef FUZZ_FIXUP_H
#define FUZZ_FIXUP_H

#include <stdint.h>
#include <string.h>

#include "hb_crc16.h"
#include "hb_validate.h"

#define FUZZ_MAX_PROGRAM 4096u

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* Returns the program to use: `program` itself, or a patched copy in `copy`
 * (FUZZ_MAX_PROGRAM bytes). */
static const uint8_t *fuzz_fixup(const uint8_t *program, uint32_t length, uint8_t mode, uint8_t *copy)
{
    uint32_t body_length;
    if (mode == 0 || length < HB_HEADER_SIZE || length > FUZZ_MAX_PROGRAM) {
        return program;
    }
    memcpy(copy, program, length);
    body_length =
        (uint32_t)(copy[6] | (copy[7] << 8)) | ((uint32_t)copy[8] << 16) | ((uint32_t)copy[9] << 24);
    if (mode & 1u) {
        body_length = length - HB_HEADER_SIZE;
        put_u32(copy + 6, body_length);
    }
    if ((mode & 2u) && body_length <= length - HB_HEADER_SIZE) {
        hb_header header;
        hb_source body;
        hb_check chk;
        hb_check_loops loops;
        uint32_t offset = 0;
        memset(&header, 0, sizeof header);
        header.body_length = body_length;
        header.total_ticks = 0xFFFFFFFFu;
        header.flags = copy[3];
        hb_source_flat(&body, copy + HB_HEADER_SIZE, body_length);
        hb_check_init(&chk, &header, &loops);
        for (;;) {
            hb_instr in;
            if (hb_instr_decode(&body, body_length, &offset, &in) != HB_OK
                || hb_check_instr(&chk, &in, offset) != HB_OK) {
                break;
            }
            if (in.op == HB_OP_END) {
                put_u32(copy + 10, chk.time);
                break;
            }
        }
    }
    if ((mode & 4u) && body_length <= length - HB_HEADER_SIZE) {
        uint16_t crc = hb_crc16(HB_CRC16_INIT, copy + HB_HEADER_SIZE, body_length);
        copy[14] = (uint8_t)crc;
        copy[15] = (uint8_t)(crc >> 8);
    }
    return copy;
}

#endif
