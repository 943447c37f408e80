/* The program binary format v1 (firmware-protocol/PROTOCOL.md, 1.3 and 1.4): the 16-byte header
 * and the decoding of one instruction. Pure byte format: the rules that need context (loops,
 * times, END) are in hb_validate.h. */
#ifndef HB_PROGRAM_H
#define HB_PROGRAM_H

#include <stdint.h>

#include "hb_config.h"
#include "hb_error.h"
#include "hb_port.h"
#include "hb_source.h"

#define HB_HEADER_SIZE 16u
#define HB_MAGIC_0 0x48u       /* 'H' */
#define HB_MAGIC_1 0x50u       /* 'P' */
#define HB_FORMAT_VERSION 2u   /* 2.0: the rules of 1.6 with (d), (e) at 9 */
#define HB_FORMAT_VERSION_3 3u /* protocol 3 (PROTOCOL-3.md 3.1): format 2 and rule (f) */
#define HB_FLAG_SHARP 0x01u    /* the sharpness channel is present */
#define HB_DELAY_EXTENDED 31u  /* 5-bit delay field value meaning "31 + varint" */
#define HB_VARINT_MAX_BYTES 4u /* so varints carry 0 .. 2^28 - 1 */
#define HB_MAX_INSTR_BYTES 10u /* PULSE or RAMP with both varints at full length */

enum {
    HB_OP_SET_A = 0,
    HB_OP_RAMP_A = 1,
    HB_OP_SET_S = 2,
    HB_OP_RAMP_S = 3,
    HB_OP_PULSE = 4,
    HB_OP_LOOP = 5,
    HB_OP_ENDLOOP = 6,
    HB_OP_END = 7
};

typedef struct hb_header {
    uint32_t body_length;
    uint32_t total_ticks;
    uint16_t rate;
    uint16_t crc;
    uint8_t version;
    uint8_t flags;
} hb_header;

typedef struct hb_instr {
    uint32_t delay;        /* ticks after the previous instruction */
    uint32_t dur;          /* RAMP_A / RAMP_S duration in ticks */
    const uint8_t *dur_at; /* the interpreter's RAMPs: their duration's varint, if not in dur */
    uint8_t op;            /* HB_OP_* */
    uint8_t value;         /* SET/RAMP value, PULSE amp, LOOP count */
    uint8_t sharp;         /* PULSE sharpness */
} hb_instr;

/* Parses the header and applies the header-only rules 1-5 (length, magic, version, flags, rate).
 * `length` is how many bytes `bytes` holds (16 or more for a header). */
HB_MUST_CHECK hb_err hb_header_parse(const uint8_t *bytes, uint32_t length, const hb_config *cfg,
                                     hb_header *out);

/* T, the header's total_ticks, of a program whose header passed hb_header_parse (the bytes from
 * the header's first). */
uint32_t hb_program_total_ticks(const uint8_t *program);

/* The same for a device that takes programs of `format` (HB_FORMAT_VERSION or
 * HB_FORMAT_VERSION_3): rule 3 reads "version is not `format`". */
HB_MUST_CHECK hb_err hb_header_parse_format(const uint8_t *bytes, uint32_t length, const hb_config *cfg,
                                            uint8_t format, hb_header *out);

/* Decodes the instruction at body offset *offset and advances *offset past it.
 * Errors: HB_ERR_END_MISSING if *offset is already at body_length; HB_ERR_TRUNCATED if the
 * instruction runs past body_length; HB_ERR_VARINT_TOO_LONG / _NONCANONICAL; HB_ERR_UNDERRUN
 * if a byte below body_length has not been written to the source yet. On error *offset is
 * unchanged. */
HB_MUST_CHECK hb_err hb_instr_decode(const hb_source *src, uint32_t body_length, uint32_t *offset,
                                     hb_instr *out);

/* Decodes the instruction at `p` from contiguous bytes, all readable below `limit` (p <= limit),
 * for the validator, streamed fetches and hb_instr_decode (the interpreter's loop over a flat
 * body inlines the same decoder).
 * Returns the instruction's length in bytes (1..HB_MAX_INSTR_BYTES), or an error code, which is
 * always greater than HB_MAX_INSTR_BYTES: HB_ERR_VARINT_TOO_LONG / _NONCANONICAL as
 * hb_instr_decode, or HB_ERR_TRUNCATED if a byte the instruction needs is at or past `limit`
 * (whether that is the body's end, the end of what is written or the ring's wrap is the caller's
 * to tell). Fields the opcode does not have (dur, value, sharp) are left as they were; after an
 * error, *out may be partly written. */
uint8_t hb_instr_decode_bytes(const uint8_t *p, const uint8_t *limit, hb_instr *out);

/* Pulse length in ticks from its sharpness: 20 - ((sharp * 10 + 128) >> 8), 20 down to 10. */
uint8_t hb_pulse_length(uint8_t sharp);

#endif
