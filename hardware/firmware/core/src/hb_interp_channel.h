/* Private to the interpreter: a channel's ramp rule (PROTOCOL.md 1.9) without per-tick division,
 * included by hb_interp.c only. Its functions are static, as they were in that file, so that the
 * tick inlines them exactly as before (the ATmega328P image is the same size). */
#ifndef HB_INTERP_CHANNEL_H
#define HB_INTERP_CHANNEL_H

#include <stdint.h>

#include "hb_interp.h"
#include "hb_port.h"

/* 1.9's incremental form: q, r = divmod(|v1 - v0|, D); e = floor(D / 2); per advance
 * value += sgn * q, e += r, and if e >= D: value += sgn, e -= D. Widths that keep it exact:
 * - e < D and r < D always. The carry test e + r >= D is written e >= D - r (D - r >= 1), so no
 *   sum wider than e is ever formed.
 * - D <= 255 (short ramp, most of them): e, r, D - r all fit 8 bits.
 * - D > 255 (long ramp): |v1 - v0| <= 255 < D, so q = 0, r = |v1 - v0| (8 bits), and only e and
 *   D - r need 32 bits (D < 2^28).
 * - The closed form never passes v1 for k <= D and reaches it at k = D at the latest, and the
 *   value is v1 for every k > D: so the ramp can stop as soon as the value equals v1, instead of
 *   counting D advances in 32 bits. A ramp with v1 = v0 changes nothing and keeps no state.
 * - sgn * q and sgn * (q + 1) are kept as 8-bit steps mod 256: the true value stays in 0..255,
 *   so adding them mod 256 gives it exactly, with no direction test per advance. */

static void channel_set(hb_channel *c, uint8_t value)
{
    c->value = value;
    c->ramp = HB_RAMP_NONE;
}

/* ceil(256 / d) for d = 2..31: reciprocals for 8-bit division by multiplication (a port may keep
 * the table in flash: hb_port.h). */
#define RECIPROCAL_LIMIT 32u
static const uint8_t reciprocal[RECIPROCAL_LIMIT - 2u] HB_PORT_TABLE = {
    128, 86, 64, 52, 43, 37, 32, 29, 26, 24, 22, 20, 19, 18, 16,
    16,  15, 14, 13, 13, 12, 12, 11, 11, 10, 10, 10, 9,  9,  9,
};

/* delta div d (low byte) and delta mod d (high byte), for 1 <= d <= delta <= 255, without the
 * library's bit-at-a-time division (~75 cycles on AVR). d = 1 is trivial; for d >= 32 the
 * quotient is at most 7 subtractions; else q' = (delta * ceil(256 / d)) >> 8 is q or q + 1 (it
 * exceeds delta / d by less than delta / 256 < 1): delta - q' * d mod 256 is the remainder if it is
 * below d, else q' is one too many (then it is r - d + 256 >= 256 - d > d, as d < 32).
 * Returned in registers: the quotient in the low byte, the remainder in the high byte. */
static HB_ALWAYS_INLINE uint16_t divmod8(uint8_t delta, uint8_t d)
{
    uint8_t q, r;
    if (d == 1u) {
        return delta;
    }
    if (d >= RECIPROCAL_LIMIT) {
        q = 0;
        while (delta >= d) {
            delta = (uint8_t)(delta - d);
            q++;
        }
        return (uint16_t)(q | (uint16_t)((uint16_t)delta << 8));
    }
    q = (uint8_t)(((uint16_t)delta * HB_PORT_READ_U8(&reciprocal[d - 2u])) >> 8);
    r = (uint8_t)(delta - (uint8_t)(q * d)); /* mod 256: r, or r - d + 256 >= 256 - d > d */
    if (r >= d) {
        q--;
        r = (uint8_t)(r + d);
    }
    return (uint16_t)(q | (uint16_t)((uint16_t)r << 8));
}

/* The 32-bit part of a long ramp's start (D > 255, so q = 0 and r = |v1 - v0|): out of line,
 * so that the common short ramp does not hold D in four registers. */
static HB_NOINLINE void channel_ramp_long(hb_channel *c, uint32_t dur, uint8_t delta)
{
    c->e.err = dur >> 1; /* floor(D / 2): round the exact line half up */
    c->t.thr = dur - delta;
    c->rem = delta;
    c->ramp = HB_RAMP_LONG;
}

static void channel_ramp(hb_channel *c, uint8_t target, uint32_t dur)
{
    uint8_t value = c->value;
    uint8_t down = target < value;
    uint8_t delta = down ? (uint8_t)(value - target) : (uint8_t)(target - value);
    uint8_t q = 0;
    if (dur == 0 || delta == 0) {
        channel_set(c, target);
        return;
    }
    c->target = target;
    if (dur <= 255u) {
        uint8_t d = (uint8_t)dur;
        uint8_t r = delta;
        if (delta >= d) { /* only when the ramp moves >= 1 per tick */
            uint16_t qr = divmod8(delta, d);
            q = (uint8_t)qr;
            r = (uint8_t)(qr >> 8);
        }
        c->e.err8 = (uint8_t)(d >> 1); /* floor(D / 2): round the exact line half up */
        c->t.thr8 = (uint8_t)(d - r);
        c->rem = r;
        c->ramp = HB_RAMP_SHORT;
    } else {
        channel_ramp_long(c, dur, delta);
    }
    c->step = down ? (uint8_t)(0u - q) : q;
    c->step1 = down ? (uint8_t)(0xFFu - q) : (uint8_t)(q + 1u);
}

/* A long ramp's advance: out of line, the short one is the common case. */
static HB_NOINLINE void channel_advance_long(hb_channel *c)
{
    uint32_t err = c->e.err;
    if (err >= c->t.thr) {
        c->e.err = err - c->t.thr;
        c->value = (uint8_t)(c->value + c->step1);
        if (c->value == c->target) {
            c->ramp = HB_RAMP_NONE;
        }
    } else {
        c->e.err = err + c->rem;
    }
}

/* 1.8 step 8 for one channel: an idle channel costs a load and a branch. */
static HB_ALWAYS_INLINE void channel_advance(hb_channel *c)
{
    if (c->ramp == HB_RAMP_SHORT) {
        uint8_t err = c->e.err8;
        uint8_t value;
        if (err >= c->t.thr8) {
            c->e.err8 = (uint8_t)(err - c->t.thr8);
            value = (uint8_t)(c->value + c->step1);
        } else {
            c->e.err8 = (uint8_t)(err + c->rem);
            value = (uint8_t)(c->value + c->step);
        }
        c->value = value;
        if (value == c->target) {
            c->ramp = HB_RAMP_NONE;
        }
    } else if (c->ramp != HB_RAMP_NONE) {
        channel_advance_long(c);
    }
}

#endif
