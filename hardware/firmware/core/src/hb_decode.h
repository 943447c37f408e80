/* Private to the core: decoding one instruction from contiguous bytes (PROTOCOL.md 1.4), as an
 * inline function. hb_program.c wraps it as hb_instr_decode_bytes (the validator, streamed
 * fetches); the interpreter's loop over flat programs inlines it, so that the decoded instruction
 * and the byte pointer stay in registers from one instruction to the next. */
#ifndef HB_DECODE_H
#define HB_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "hb_port.h"
#include "hb_error.h"
#include "hb_program.h"

/* A varint's value (below 2^28), or HB_VARINT_ERROR plus an error code: one uint32_t, so that it
 * is returned in registers. */
#define HB_VARINT_ERROR 0x80000000u

/* What hb_instr_decode_bytes' result `n` means for an instruction at body offset `at` when it was
 * given only the `count` bytes there that are written and inside the body (hb_source_peek): a
 * varint error stays, and HB_ERR_TRUNCATED means that the decoder needed the byte at at + count
 * (it reads in order), which is HB_ERR_END_MISSING if the instruction would start at the body's
 * end, HB_ERR_TRUNCATED if it runs past it, and HB_ERR_UNDERRUN if that byte is in the body but
 * not written yet: the per-byte rules of 1.6 (a) and 1.14. */
HB_MUST_CHECK hb_err hb_decode_missing(uint8_t n, uint32_t at, uint8_t count, uint32_t body_length);

/* The 28 bits of a varint from its bytes (b2, b3 are 0 where it is shorter), byte by byte: an 8-bit
 * CPU compiles 32-bit shifts by 7, 14 and 21 into loops of one-bit shifts, but shifts by whole
 * bytes into register moves. `top` goes into bits 28..31. */
static HB_ALWAYS_INLINE uint32_t hb_varint_bits(uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3, uint8_t top)
{
    return (uint32_t)((uint32_t)(uint8_t)(top | (uint8_t)((b3 & 0x7Fu) >> 3)) << 24)
           | (uint32_t)((uint32_t)(uint8_t)((uint8_t)((b2 & 0x7Fu) >> 2) | (uint8_t)(b3 << 5)) << 16)
           | (uint16_t)((uint16_t)((uint8_t)((uint8_t)((b1 & 0x7Fu) >> 1) | (uint8_t)(b2 << 6))) << 8)
           | (uint8_t)((b0 & 0x7Fu) | (uint8_t)(b1 << 7));
}

/* The varint at *pp of 3 or 4 bytes (its first two have bit 7 set), advancing *pp past it, or its
 * error (*pp unchanged). Out of line: only an extended delay of 16,415 ticks or more reaches it
 * (hb_varint, in the interpreter's loop; the other decoders use hb_program.c's). Inline it is 6
 * bytes smaller in the 3.0 size build and 76-80 in the 2.0 images, 4-16 larger in the 3.0 images
 * (measured after fit-player's merge; docs/protocol-3-design.md "Flash pass, message layer"). */
static HB_NOINLINE uint32_t hb_varint_long(const uint8_t **pp, const uint8_t *limit)
{
    const uint8_t *p = *pp;
    uint8_t b2, b3 = 0, n = 3;
    if (limit - p <= 2) { /* bytes 0 and 1 are there with bit 7 set */
        return HB_VARINT_ERROR | HB_ERR_TRUNCATED;
    }
    b2 = p[2];
    if (b2 & 0x80u) {
        if (limit - p <= 3) {
            return HB_VARINT_ERROR | HB_ERR_TRUNCATED;
        }
        b3 = p[3];
        if (b3 & 0x80u) {
            return HB_VARINT_ERROR | HB_ERR_VARINT_TOO_LONG;
        }
        if (b3 == 0) {
            return HB_VARINT_ERROR | HB_ERR_VARINT_NONCANONICAL;
        }
        n = 4;
    } else if (b2 == 0) {
        return HB_VARINT_ERROR | HB_ERR_VARINT_NONCANONICAL;
    }
    *pp = p + n;
    return hb_varint_bits(p[0], p[1], b2, b3, 0);
}

/* The varint at *pp, advancing *pp past it on success. The rules of 1.4 in byte order: a byte
 * at or past limit is error 16, a 4th byte with bit 7 set 17, a multi-byte varint ending in 0x00
 * 18. One and two bytes (values below 16,384) are decoded here in 8 and 16 bits. */
static HB_ALWAYS_INLINE uint32_t hb_varint(const uint8_t **pp, const uint8_t *limit)
{
    const uint8_t *p = *pp;
    uint8_t b0, b1;
    if (p >= limit) {
        return HB_VARINT_ERROR | HB_ERR_TRUNCATED;
    }
    b0 = p[0];
    if ((b0 & 0x80u) == 0) {
        *pp = p + 1;
        return b0;
    }
    if (limit - p < 2) {
        return HB_VARINT_ERROR | HB_ERR_TRUNCATED;
    }
    b1 = p[1];
    if ((b1 & 0x80u) == 0) {
        if (b1 == 0) {
            return HB_VARINT_ERROR | HB_ERR_VARINT_NONCANONICAL;
        }
        *pp = p + 2;
        return (uint16_t)((b0 & 0x7Fu) | (uint16_t)((uint16_t)b1 << 7));
    }
    return hb_varint_long(pp, limit);
}

/* Advances *pp past the varint there without assembling its value: 0, or the error of 1.4's
 * rules in byte order (16, 17, 18), as hb_varint. */
static HB_ALWAYS_INLINE uint8_t hb_varint_skip(const uint8_t **pp, const uint8_t *limit)
{
    const uint8_t *p = *pp;
    uint8_t n = 0, b;
    if (limit - p >= (ptrdiff_t)HB_VARINT_MAX_BYTES) { /* no byte can be missing: unrolled */
        b = p[0];
        if ((b & 0x80u) == 0) {
            *pp = p + 1;
            return 0;
        }
        b = p[1];
        n = 2;
        if (b & 0x80u) {
            b = p[2];
            n = 3;
            if (b & 0x80u) {
                b = p[3];
                n = 4;
                if (b & 0x80u) {
                    return HB_ERR_VARINT_TOO_LONG;
                }
            }
        }
        if (b == 0) {
            return HB_ERR_VARINT_NONCANONICAL;
        }
        *pp = p + n;
        return 0;
    }
    do {
        if (limit - p <= n) {
            return HB_ERR_TRUNCATED;
        }
        b = p[n];
        if (n == HB_VARINT_MAX_BYTES - 1u && (b & 0x80u)) {
            return HB_ERR_VARINT_TOO_LONG;
        }
        n++;
    } while (b & 0x80u);
    if (n > 1u && b == 0) {
        return HB_ERR_VARINT_NONCANONICAL;
    }
    *pp = p + n;
    return 0;
}

/* The value of a varint that passed hb_varint or hb_varint_skip (hb_program.c): out of line, as
 * the interpreter needs it at most once a tick a channel (a RAMP's duration), and a call is
 * smaller than its four inline copies. */
uint32_t hb_varint_value(const uint8_t *p);

/* hb_varint out of line, for the decoders off the interpreter's path (hb_program.c): the same
 * result and *pp, from hb_varint_skip's checks and hb_varint_value's assembly. */
uint32_t hb_varint_out_of_line(const uint8_t **pp, const uint8_t *limit);

/* hb_decode's result: the 5-bit delay field, so that the common question "is it due now?" is an
 * 8-bit test. HB_DECODED_EXTENDED: the delay is 31 + a varint, in out->delay. HB_DECODED_ERROR
 * plus an error code: the instruction did not decode. */
#define HB_DECODED_EXTENDED 31u
#define HB_DECODED_ERROR 0x80u

/* Decodes the instruction at *pp (bytes readable below limit), advancing *pp past it. Returns the
 * delay field as above; errors (*pp unchanged): HB_ERR_TRUNCATED (a byte at or past limit was
 * needed), HB_ERR_VARINT_TOO_LONG or _NONCANONICAL. Sets out->op, the operands the opcode has
 * (value, dur, sharp) and, for an extended delay only, out->delay; leaves the rest as it was
 * (after an error, any of them may have been written). `lazy` (a constant at each call): a RAMP's
 * duration is checked but not assembled, out->dur_at points at it (the interpreter needs the value
 * of the last RAMP of a tick on each channel only), and an extended delay is decoded inline; else
 * out->dur holds it, and the varints are decoded out of line (hb_varint_out_of_line). */
static HB_ALWAYS_INLINE uint8_t hb_decode(const uint8_t **pp, const uint8_t *limit, hb_instr *out,
                                          uint8_t lazy)
{
    const uint8_t *q = *pp;
    uint8_t first, op, delay;
    if (q >= limit) {
        return HB_DECODED_ERROR | HB_ERR_TRUNCATED;
    }
    first = *q++;
    op = (uint8_t)(first >> 5);
    out->op = op;
    delay = (uint8_t)(first & 0x1Fu);
    if (delay == HB_DELAY_EXTENDED) {
        uint32_t v = lazy ? hb_varint(&q, limit) : hb_varint_out_of_line(&q, limit);
        if (v & HB_VARINT_ERROR) {
            return (uint8_t)(HB_DECODED_ERROR | (uint8_t)v);
        }
        out->delay = HB_DELAY_EXTENDED + v;
    }
    if (op <= HB_OP_LOOP) { /* every opcode but ENDLOOP and END has a first u8 operand */
        if (q >= limit) {
            return HB_DECODED_ERROR | HB_ERR_TRUNCATED;
        }
        out->value = *q++;
        if ((op == HB_OP_RAMP_A || op == HB_OP_RAMP_S) && lazy) {
            uint8_t e;
            out->dur_at = q;
            e = hb_varint_skip(&q, limit);
            if (e != 0) {
                return (uint8_t)(HB_DECODED_ERROR | e);
            }
        } else if (op == HB_OP_RAMP_A || op == HB_OP_RAMP_S) {
            if (q < limit && (*q & 0x80u) == 0) { /* the common one-byte duration, directly */
                out->dur = *q++;
            } else {
                uint32_t v = hb_varint_out_of_line(&q, limit);
                if (v & HB_VARINT_ERROR) {
                    return (uint8_t)(HB_DECODED_ERROR | (uint8_t)v);
                }
                out->dur = v;
            }
        } else if (op == HB_OP_PULSE) {
            if (q >= limit) {
                return HB_DECODED_ERROR | HB_ERR_TRUNCATED;
            }
            out->sharp = *q++;
        }
    }
    *pp = q;
    return delay;
}

#endif
