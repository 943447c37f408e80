#include "hb_program.h"

#include <stddef.h>

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

/* The varint at *p (all of its bytes readable): the rules of read_varint without the per-byte
 * bounds checks. Shifts by 0, 7, 14, 21 as byte-wise steps: an 8-bit CPU has no barrel shifter. */
static hb_err fast_varint(const uint8_t **p, uint32_t *out)
{
    const uint8_t *q = *p;
    uint32_t value = 0;
    uint8_t count;
    for (count = 0; count < HB_VARINT_MAX_BYTES; count++) {
        uint8_t byte = q[count];
        uint32_t part = byte & 0x7Fu;
        switch (count) {
        case 0: break;
        case 1: part <<= 7; break;
        case 2: part <<= 14; break;
        default: part <<= 21; break;
        }
        value |= part;
        if ((byte & 0x80u) == 0) {
            if (count > 0 && byte == 0) {
                return HB_ERR_VARINT_NONCANONICAL;
            }
            *p = q + count + 1u;
            *out = value;
            return HB_OK;
        }
    }
    return HB_ERR_VARINT_TOO_LONG;
}

/* Fast path of hb_instr_decode: when HB_MAX_INSTR_BYTES bytes from `at` are readable and
 * contiguous, no byte can be missing, so the instruction decodes straight from memory with the
 * same results (the device's slots and the stream ring away from its wrap). Returns 0 if the
 * bytes are not all there (the caller takes the checked path). */
static uint8_t decode_contiguous(const hb_source *src, uint32_t body_length, uint32_t *offset,
                                 hb_instr *out, hb_err *err)
{
    uint32_t at = *offset;
    uint32_t limit = body_length < src->written ? body_length : src->written;
    const uint8_t *start;
    const uint8_t *p;
    uint8_t first;
    if (at >= limit || limit - at < HB_MAX_INSTR_BYTES) {
        return 0;
    }
    if (src->ring == NULL) {
        start = src->data + at;
    } else {
        uint32_t index = at & (src->capacity - 1u);
        if (src->capacity - index < HB_MAX_INSTR_BYTES) {
            return 0;
        }
        start = src->data + index;
    }
    p = start;
    first = *p++;
    out->op = (uint8_t)(first >> 5);
    out->delay = first & 0x1Fu;
    out->dur = 0;
    out->value = 0;
    out->sharp = 0;
    *err = HB_OK;
    if (out->delay == HB_DELAY_EXTENDED) {
        uint32_t extra;
        *err = fast_varint(&p, &extra);
        if (*err != HB_OK) {
            return 1;
        }
        out->delay = HB_DELAY_EXTENDED + extra;
    }
    if (out->op <= HB_OP_LOOP) {
        out->value = *p++;
    }
    if (out->op == HB_OP_RAMP_A || out->op == HB_OP_RAMP_S) {
        *err = fast_varint(&p, &out->dur);
        if (*err != HB_OK) {
            return 1;
        }
    } else if (out->op == HB_OP_PULSE) {
        out->sharp = *p++;
    }
    *offset = at + (uint32_t)(p - start);
    return 1;
}

hb_err hb_instr_decode(const hb_source *src, uint32_t body_length, uint32_t *offset, hb_instr *out)
{
    uint32_t at = *offset;
    {
        hb_err fast;
        if (decode_contiguous(src, body_length, offset, out, &fast)) {
            return fast;
        }
    }
    uint8_t first;
    hb_err err;
    if (at >= body_length) {
        return HB_ERR_END_MISSING;
    }
    if (!hb_source_byte(src, at, &first)) {
        return HB_ERR_UNDERRUN;
    }
    at++;
    out->op = (uint8_t)(first >> 5);
    out->delay = first & 0x1Fu;
    out->dur = 0;
    out->value = 0;
    out->sharp = 0;
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
