#include "hb_program.h"

#include <stddef.h>

#include "hb_decode.h"

static uint16_t read_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (uint16_t)(p[1] << 8));
}

static uint32_t read_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

hb_err hb_header_parse(const uint8_t *bytes, uint32_t length, const hb_config *cfg, hb_header *out)
{
    if (length < HB_HEADER_SIZE) {
        return HB_ERR_HEADER_TRUNCATED;
    }
    if (bytes[0] != HB_MAGIC_0 || bytes[1] != HB_MAGIC_1) {
        return HB_ERR_BAD_MAGIC;
    }
    out->version = bytes[2];
    out->flags = bytes[3];
    out->rate = read_u16(bytes + 4);
    out->body_length = read_u32(bytes + 6);
    out->total_ticks = read_u32(bytes + 10);
    out->crc = read_u16(bytes + 14);
    if (out->version != HB_FORMAT_VERSION) {
        return HB_ERR_BAD_VERSION;
    }
    if ((out->flags & (uint8_t)~HB_FLAG_SHARP) != 0) {
        return HB_ERR_BAD_FLAGS;
    }
    if (out->rate != cfg->rate) {
        return HB_ERR_BAD_RATE;
    }
    return HB_OK;
}

/* One byte at `offset`, telling apart "past the body" from "not written yet". */
static hb_err next_byte(const hb_source *src, uint32_t body_length, uint32_t offset, uint8_t *out)
{
    if (offset >= body_length) {
        return HB_ERR_TRUNCATED;
    }
    return hb_source_byte(src, offset, out) ? HB_OK : HB_ERR_UNDERRUN;
}

static hb_err read_varint(const hb_source *src, uint32_t body_length, uint32_t *offset, uint32_t *out)
{
    uint32_t value = 0;
    uint8_t count;
    for (count = 0; count < HB_VARINT_MAX_BYTES; count++) {
        uint8_t byte;
        hb_err err = next_byte(src, body_length, *offset + count, &byte);
        if (err != HB_OK) {
            return err;
        }
        value |= (uint32_t)(byte & 0x7Fu) << (7u * count);
        if ((byte & 0x80u) == 0) {
            if (count > 0 && byte == 0) {
                return HB_ERR_VARINT_NONCANONICAL;
            }
            *offset += (uint32_t)count + 1u;
            *out = value;
            return HB_OK;
        }
    }
    return HB_ERR_VARINT_TOO_LONG;
}

uint32_t hb_varint_long(const uint8_t *p, const uint8_t *limit)
{
    uint8_t last = 2, byte;
    uint16_t low, high;
    for (;;) { /* bytes 0 and 1 are there with bit 7 set */
        if (limit - p <= last) {
            return HB_VARINT_ERROR | HB_ERR_TRUNCATED;
        }
        byte = p[last];
        if ((byte & 0x80u) == 0) {
            break;
        }
        if (last == HB_VARINT_MAX_BYTES - 1u) {
            return HB_VARINT_ERROR | HB_ERR_VARINT_TOO_LONG;
        }
        last++;
    }
    if (byte == 0) {
        return HB_VARINT_ERROR | HB_ERR_VARINT_NONCANONICAL;
    }
    /* low | high << 14 without a 32-bit shift by a large constant (an 8-bit CPU compiles those
     * into loops of one-bit shifts): high's top 12 bits go to the upper half, its low 2 bits to
     * the top of the lower half */
    low = (uint16_t)((p[0] & 0x7Fu) | (uint16_t)((p[1] & 0x7Fu) << 7)); /* bits 0..13 */
    high = (uint16_t)(p[2] & 0x7Fu);                                   /* bits 14..27 */
    if (last == 3u) {
        high = (uint16_t)(high | (uint16_t)((p[3] & 0x7Fu) << 7));
    }
    return ((uint32_t)(uint16_t)(high >> 2) << 16) | (uint16_t)(low | (uint16_t)(high << 14));
}

uint8_t hb_instr_decode_bytes(const uint8_t *p, const uint8_t *limit, hb_instr *out)
{
    const uint8_t *q = p;
    uint32_t delay = hb_decode(&q, limit, out);
    if (delay & HB_VARINT_ERROR) {
        return (uint8_t)delay;
    }
    out->delay = delay;
    return (uint8_t)(q - p);
}

/* The bytes from `at` that are readable without a per-byte check: written, inside the body and,
 * in a ring, before the wrap; at most HB_MAX_INSTR_BYTES. */
static uint8_t contiguous(const hb_source *src, uint32_t body_length, uint32_t at, const uint8_t **start)
{
    uint32_t limit = body_length < src->written ? body_length : src->written;
    uint32_t run, room;
    if (at >= limit) {
        return 0;
    }
    run = limit - at;
    if (src->ring == NULL) {
        *start = src->data + at;
    } else {
        uint32_t index = at & (src->capacity - 1u);
        room = src->capacity - index;
        if (run > room) {
            run = room;
        }
        *start = src->data + index;
    }
    return (uint8_t)(run < HB_MAX_INSTR_BYTES ? run : HB_MAX_INSTR_BYTES);
}

hb_err hb_instr_decode(const hb_source *src, uint32_t body_length, uint32_t *offset, hb_instr *out)
{
    uint32_t at = *offset;
    uint8_t first;
    hb_err err;
    const uint8_t *start = NULL;
    uint8_t run = contiguous(src, body_length, at, &start);
    out->dur = 0;
    out->value = 0;
    out->sharp = 0;
    if (run != 0) {
        /* every byte the instruction reads is there: the same results, straight from memory */
        uint8_t n = hb_instr_decode_bytes(start, start + run, out);
        if (n <= HB_MAX_INSTR_BYTES) {
            *offset = at + n;
            return HB_OK;
        }
        if (n != HB_ERR_TRUNCATED) {
            return n;
        }
        /* cut by the end of the run: the checked path tells which end it is */
    }
    if (at >= body_length) {
        return HB_ERR_END_MISSING;
    }
    if (!hb_source_byte(src, at, &first)) {
        return HB_ERR_UNDERRUN;
    }
    at++;
    out->op = (uint8_t)(first >> 5);
    out->delay = first & 0x1Fu;
    if (out->delay == HB_DELAY_EXTENDED) {
        uint32_t extra;
        err = read_varint(src, body_length, &at, &extra);
        if (err != HB_OK) {
            return err;
        }
        out->delay = HB_DELAY_EXTENDED + extra;
    }
    if (out->op <= HB_OP_LOOP) { /* every opcode but ENDLOOP and END has a first u8 operand */
        err = next_byte(src, body_length, at, &out->value);
        if (err != HB_OK) {
            return err;
        }
        at++;
    }
    if (out->op == HB_OP_RAMP_A || out->op == HB_OP_RAMP_S) {
        err = read_varint(src, body_length, &at, &out->dur);
        if (err != HB_OK) {
            return err;
        }
    } else if (out->op == HB_OP_PULSE) {
        err = next_byte(src, body_length, at, &out->sharp);
        if (err != HB_OK) {
            return err;
        }
        at++;
    }
    *offset = at;
    return HB_OK;
}

uint8_t hb_pulse_length(uint8_t sharp)
{
    return (uint8_t)(20u - (((uint16_t)sharp * 10u + 128u) >> 8));
}
