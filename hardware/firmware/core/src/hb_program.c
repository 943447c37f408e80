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
    return hb_header_parse_format(bytes, length, cfg, HB_FORMAT_VERSION, out);
}

hb_err hb_header_parse_format(const uint8_t *bytes, uint32_t length, const hb_config *cfg, uint8_t format,
                              hb_header *out)
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
    out->total_ticks = hb_program_total_ticks(bytes);
    out->crc = read_u16(bytes + 14);
    if (out->version != format) {
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

uint32_t hb_program_total_ticks(const uint8_t *program)
{
    return read_u32(program + 10);
}

HB_NOINLINE uint32_t hb_varint_value(const uint8_t *p)
{
    uint8_t b0 = p[0], b1, b2;
    if ((b0 & 0x80u) == 0) {
        return b0;
    }
    b1 = p[1];
    if ((b1 & 0x80u) == 0) {
        return (uint16_t)((b0 & 0x7Fu) | (uint16_t)((uint16_t)b1 << 7));
    }
    b2 = p[2];
    return hb_varint_bits(b0, b1, b2, (b2 & 0x80u) ? p[3] : 0u, 0);
}

HB_NOINLINE uint32_t hb_varint_out_of_line(const uint8_t **pp, const uint8_t *limit)
{
    const uint8_t *p = *pp;
    uint8_t err = hb_varint_skip(pp, limit);
    return err != 0u ? HB_VARINT_ERROR | err : hb_varint_value(p);
}

uint8_t hb_instr_decode_bytes(const uint8_t *p, const uint8_t *limit, hb_instr *out)
{
    const uint8_t *q = p;
    uint8_t delay = hb_decode(&q, limit, out, 0);
    if (delay & HB_DECODED_ERROR) {
        return (uint8_t)(delay & (uint8_t)~HB_DECODED_ERROR);
    }
    if (delay != HB_DECODED_EXTENDED) {
        out->delay = delay;
    }
    return (uint8_t)(q - p);
}

hb_err hb_decode_missing(uint8_t n, uint32_t at, uint8_t count, uint32_t body_length)
{
    if (n != HB_ERR_TRUNCATED) {
        return n;
    }
    if (at + count < body_length) {
        return HB_ERR_UNDERRUN;
    }
    return count == 0 ? HB_ERR_END_MISSING : HB_ERR_TRUNCATED;
}

hb_err hb_instr_decode(const hb_source *src, uint32_t body_length, uint32_t *offset, hb_instr *out)
{
    uint8_t buf[HB_MAX_INSTR_BYTES];
    const uint8_t *bytes;
    uint8_t count = hb_source_peek(src, *offset, body_length, HB_MAX_INSTR_BYTES, buf, &bytes);
    uint8_t n;
    out->dur = 0;
    out->value = 0;
    out->sharp = 0;
    n = hb_instr_decode_bytes(bytes, bytes + count, out);
    if (n <= HB_MAX_INSTR_BYTES) {
        *offset += n;
        return HB_OK;
    }
    return hb_decode_missing(n, *offset, count, body_length);
}

uint8_t hb_pulse_length(uint8_t sharp)
{
    return (uint8_t)(20u - (((uint16_t)sharp * 10u + 128u) >> 8));
}
