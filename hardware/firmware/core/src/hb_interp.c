/* The interpreter's tick (PROTOCOL.md 1.8): the instructions due executed (run), the channels'
 * ramps (1.9) and the pulse voices (1.10) advanced, the sample combined, scaled and limited, and
 * the brake sequence (1.13) played out. Starting, stopping and steering a play, the rest of
 * hb_interp.h, is hb_interp_control.c. */
#include "hb_interp.h"

#include "hb_crc16.h"
#include "hb_decode.h"
#include "hb_interp_private.h"
#include "hb_interp_stream.h"
#include "hb_port.h"

/* Cost notes: the target with the least headroom is an 8-bit AVR (16,000 cycles per 1 kHz tick),
 * where every uint32_t operation is four instructions and every uint32_t field four loads and
 * four stores. So the per-tick state is kept in 8 and 16 bits wherever that is exact, what must
 * be 32 bits (long waits, long ramps, the tick count) is touched once per tick at most, and the
 * rare paths are out of line so that the common ones keep few registers to save. */

/* Internal result of running a tick's instructions: END executed (not a wire error code). */
#define STEP_END 0xFFu

/* ---- channels: the ramp rule of 1.9 without per-tick division ----
 *
 * 1.9's incremental form: q, r = divmod(|v1 - v0|, D); e = floor(D / 2); per advance
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
    c->err = dur >> 1; /* floor(D / 2): round the exact line half up */
    c->thr = dur - delta;
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
        c->err8 = (uint8_t)(d >> 1); /* floor(D / 2): round the exact line half up */
        c->thr8 = (uint8_t)(d - r);
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
    uint32_t err = c->err;
    if (err >= c->thr) {
        c->err = err - c->thr;
        c->value = (uint8_t)(c->value + c->step1);
        if (c->value == c->target) {
            c->ramp = HB_RAMP_NONE;
        }
    } else {
        c->err = err + c->rem;
    }
}

/* 1.8 step 8 for one channel: an idle channel costs a load and a branch. */
static HB_ALWAYS_INLINE void channel_advance(hb_channel *c)
{
    if (c->ramp == HB_RAMP_SHORT) {
        uint8_t err = c->err8;
        uint8_t value;
        if (err >= c->thr8) {
            c->err8 = (uint8_t)(err - c->thr8);
            value = (uint8_t)(c->value + c->step1);
        } else {
            c->err8 = (uint8_t)(err + c->rem);
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

/* ---- pulse voices (1.10) ---- */

static void voice_start(hb_interp *it, uint8_t amp, uint8_t sharp)
{
    hb_voice *v = it->voices;
    uint8_t n = it->voice_count;
    if (n == HB_PULSE_VOICES) { /* all busy: the oldest gives way (fixed offsets, no loop) */
        v[0].amp = v[1].amp;
        v[0].sharp = v[1].sharp;
        v[0].left = v[1].left;
        v[1].amp = v[2].amp;
        v[1].sharp = v[2].sharp;
        v[1].left = v[2].left;
        v[2].amp = v[3].amp;
        v[2].sharp = v[3].sharp;
        v[2].left = v[3].left;
        v += HB_PULSE_VOICES - 1u;
    } else {
        v += n;
        it->voice_count = (uint8_t)(n + 1u);
    }
    v->amp = amp;
    v->sharp = sharp;
    v->left = hb_pulse_length(sharp);
}

/* Step 8 for voices whose `left` reached 0 this tick: out of line, it happens once per pulse. */
static HB_NOINLINE void voices_remove_ended(hb_interp *it)
{
    hb_voice *v = it->voices;
    uint8_t i, n = it->voice_count, kept = 0;
    for (i = 0; i < n; i++) {
        if (v[i].left != 0) {
            v[kept].amp = v[i].amp;
            v[kept].sharp = v[i].sharp;
            v[kept].left = v[i].left;
            kept++;
        }
    }
    it->voice_count = kept;
}

/* ---- modes ---- */

static const hb_sample idle_sample = {0, 0, 0};

static hb_sample brake_tick(hb_interp *it)
{
    hb_sample out = {0, 0, HB_SAMPLE_BRAKE};
    if (it->mode != HB_MODE_BRAKING) {
        return idle_sample;
    }
    if (--it->brake_left == 0) {
        it->mode = HB_MODE_IDLE;
    }
    return out;
}

static hb_sample fault(hb_interp *it, hb_err err)
{
    it->error = err;
    hb_interp_enter_brake(it);
    return brake_tick(it);
}

/* ---- playing ---- */

/* it->wait, it->wait_high = ticks, as a 16-bit countdown and its carries: a tick with nothing
 * due decrements 16 bits (delays below 65,536 are nearly all of them). */
static void set_wait(hb_interp *it, uint32_t ticks)
{
    it->wait = (uint16_t)ticks;
    it->wait_high = (uint16_t)(ticks >> 16);
}

/* SET_x and RAMP_x (op 0..3: bit 1 the sharpness channel, bit 0 a ramp). A RAMP with D >= 1
 * leaves the channel's value at this tick as it is (1.9), so only the last one of a tick matters,
 * unless a SET or a RAMP with D = 0 (a step) comes after it: the ramp is started once, when the
 * tick's instructions are done (hb_interp_settle), its target and D kept in the old ramp's fields
 * meanwhile (that ramp ends at this tick anyway). So a tick's ramps cost at most two starts
 * whatever their number (1.15's worst ticks are nine of them). */
static HB_ALWAYS_INLINE void channel_op(hb_interp *it, const hb_instr *in)
{
    uint8_t op = in->op;
    hb_channel *c = (op & 2u) ? &it->sharp : &it->amp;
    if (op & 1u) {
        /* a RAMP decoded in this run still has its duration as bytes: D = 0 is the byte 0 */
        const uint8_t *at = in->dur_at;
        if (at != NULL) {
            if (*at != 0u) {
                c->target = in->value;
                c->pending_at = at;
                c->ramp = HB_RAMP_PENDING_AT;
                return;
            }
        } else if (in->dur != 0u) {
            c->target = in->value;
            c->err = in->dur;
            c->ramp = HB_RAMP_PENDING;
            return;
        }
    }
    channel_set(c, in->value);
}

static HB_NOINLINE void ramp_start_pending(hb_channel *c)
{
    channel_ramp(c, c->target, c->ramp == HB_RAMP_PENDING_AT ? hb_varint_value(c->pending_at) : c->err);
}

/* A ramp the tick's instructions left pending (channel_op) is started after the tick's sample
 * (starting it changes no value this tick: 1.9) together with its first advance, step 8
 * (hb_interp_settle). */
static HB_ALWAYS_INLINE void channel_settle(hb_channel *c)
{
    if (c->ramp >= HB_RAMP_PENDING) {
        ramp_start_pending(c);
        channel_advance(c);
    }
}

/* A RAMP whose duration is still bytes (hb_decode's lazy form) gets its value: before the bytes
 * can change (an instruction kept for a later tick, or one decoded from the wrap's copy). */
static HB_ALWAYS_INLINE void ramp_duration_now(hb_instr *in)
{
    if ((in->op == HB_OP_RAMP_A || in->op == HB_OP_RAMP_S) && in->dur_at != NULL) {
        in->dur = hb_varint_value(in->dur_at);
        in->dur_at = NULL;
    }
}

/* 1.8 step 3, on a tick where it->next is due: executes it and every instruction after it with
 * delay 0, fetching each right after the one before executes, and leaves it->wait counting the
 * ticks after this one until the next is due. The byte pointer and each delay stay in registers.
 * Flat programs were validated as a whole, so none of the fetch and loop errors can happen to
 * them (nor can an instruction time overflow); the checks that keep this code memory-safe on any
 * bytes remain, with the streamed path's error codes.
 * A streamed program (never LOOP or ENDLOOP: error 23 at fetch) is read from the ring's window
 * (hb_interp_stream.h), and each fetch applies the validator's rules: inline for an
 * instruction due with the one before it (delay 0, so its time already passed 1.6 (c)), else
 * hb_check_instr. The interpreter's own time-overflow test is the checker's: in a stream (no
 * loops) the checker's time is the time of the last executed instruction, and hb_check_instr
 * tests the overflow first. One loop for both kinds keeps one copy of the inlined decoder. */
static HB_NOINLINE HB_MUST_CHECK hb_err run(hb_interp *it)
{
    hb_instr *in = &it->next;
    uint8_t *buf = it->wrap; /* not on the stack: run then needs no stack frame */
    const uint8_t *pc = it->pc, *lim = it->end, *base = NULL, *q;
    uint8_t executed = 0, copied = 0;
    uint8_t streamed = it->streamed;
    /* streamed: the checker's run count, and whether SET_S/RAMP_S (op bit 1 set) are allowed
     * (SHARP), in registers for the run */
    uint8_t run_count = 0, sharp_ok = 0;
    hb_err err = HB_OK;
    if (streamed) {
        pc = base = hb_stream_window(it, it->read_offset, &lim);
        run_count = it->check.run;
        sharp_ok = (uint8_t)(it->check.flags & HB_FLAG_SHARP);
    }
    for (;;) {
        uint8_t op = in->op;
        uint8_t delay;
        if (op <= HB_OP_RAMP_S) {
            executed++;
            channel_op(it, in);
        } else if (op == HB_OP_PULSE) {
            executed++;
            voice_start(it, in->value, in->sharp);
        } else if (op == HB_OP_LOOP) {
            uint8_t depth = it->loop_depth;
            executed++;
            if (in->value == 0) {
                err = HB_ERR_LOOP_COUNT_ZERO;
                break;
            }
            if (depth >= HB_MAX_LOOP_DEPTH) {
                err = HB_ERR_LOOP_TOO_DEEP;
                break;
            }
            it->loop_pc[depth] = pc;
            it->loop_left[depth] = (uint8_t)(in->value - 1u);
            it->loop_depth = (uint8_t)(depth + 1u);
        } else if (op == HB_OP_ENDLOOP) {
            uint8_t top = (uint8_t)(it->loop_depth - 1u);
            executed++;
            if (it->loop_depth == 0) {
                err = HB_ERR_ENDLOOP_WITHOUT_LOOP;
                break;
            }
            if (it->loop_left[top] != 0) {
                it->loop_left[top]--;
                pc = it->loop_pc[top];
            } else {
                it->loop_depth = top;
            }
        } else if (op == HB_OP_END) {
            executed++;
            err = STEP_END;
            break;
        } /* else HB_INTERP_OP_NONE: only the fetch */
    fetch:
        q = pc;
        delay = hb_decode(&pc, lim, in, 1);
        if (delay & HB_DECODED_ERROR) {
            err = (hb_err)(delay & (uint8_t)~HB_DECODED_ERROR);
            if (!streamed) {
                if (err == HB_ERR_TRUNCATED && pc == it->end) {
                    err = HB_ERR_END_MISSING;
                }
                break;
            }
            if (err != HB_ERR_TRUNCATED) {
                break;
            }
            if (it->src->tail != 0 && q >= it->src->data + (size_t)it->src->capacity) {
                /* a mirrored ring, read past its end (hb_stream_window): on from the same bytes'
                 * place at its start, to where the window goes on (it->end) */
                size_t capacity = (size_t)it->src->capacity;
                hb_stream_flush(it, base, q);
                pc = base = q - capacity;
                lim = it->end - capacity;
                it->end = lim;
                goto fetch;
            }
            /* past the window: across the wrap (decode again from a copy), or an error */
            hb_stream_flush(it, base, q);
            base = q;
            err = hb_stream_more(it, copied, buf, &base, &lim);
            pc = base;
            if (err != HB_OK) {
                break;
            }
            copied = base == buf;
            goto fetch;
        }
        if (streamed) {
            op = in->op;
            if (delay == 0 && op < HB_OP_LOOP && ((op & 2u) == 0 || sharp_ok)) {
                if (++run_count > HB_MAX_RUN) {
                    err = HB_ERR_RUN_TOO_LONG;
                    pc = q;
                    break;
                }
            } else {
                if (delay != HB_DECODED_EXTENDED) {
                    in->delay = delay;
                }
                it->check.run = run_count;
                err = hb_check_instr(&it->check, in, it->read_offset + (uint32_t)(pc - base));
                run_count = it->check.run;
                if (err != HB_OK) {
                    pc = q;
                    break;
                }
                if (op == HB_OP_END) {
                    hb_stream_flush(it, base, pc);
                    base = pc;
                    if (it->src->crc != it->header.crc) {
                        err = HB_ERR_BAD_CRC;
                        break;
                    }
                }
            }
            if (copied) { /* back to the ring after the copied instruction */
                ramp_duration_now(in);
                hb_stream_flush(it, base, pc);
                pc = base = it->src->data + ((size_t)it->read_offset & (size_t)(it->src->capacity - 1u));
                lim = it->end;
                copied = 0;
            }
        }
        if (delay != 0) {
            set_wait(it, (delay == HB_DECODED_EXTENDED ? in->delay : delay) - 1u);
            ramp_duration_now(in);
            break;
        }
    }
    if (streamed) {
        it->check.run = run_count;
        hb_stream_flush(it, base, pc);
        hb_source_release(it->src, it->read_offset);
    }
    it->pc = pc;
    it->executed = executed;
    return err;
}

hb_sample hb_interp_sample(hb_interp *it)
{
    hb_sample out;
    uint8_t amp, sharp, n;
    if (it->mode != HB_MODE_PLAYING) {
        return brake_tick(it);
    }
    /* 3. execute every instruction due at this tick: a countdown, so a tick with nothing due
     * costs one 16-bit decrement instead of a 32-bit time compare */
    it->executed = 0;
    if (it->wait != 0) {
        it->wait--;
        if (it->streamed) {
            hb_stream_crc_ahead(it);
        }
    } else if (it->wait_high != 0) {
        it->wait_high--;
        it->wait = 0xFFFFu;
    } else {
        hb_err err = run(it);
        if (err != HB_OK) {
            if (err == STEP_END) {
                hb_interp_enter_brake(it);
                return brake_tick(it);
            }
            return fault(it, err);
        }
    }
    /* 4. combine: max amplitude; ties go to pulses, then to the newest pulse */
    amp = it->amp.value;
    sharp = it->sharp.value;
    n = it->voice_count;
    if (n != 0) {
        /* the voices' part of step 8 in the same pass: nothing reads `left` before the next
         * tick, and a fault later in this tick drops the voices anyway (1.13) */
        hb_voice *v = it->voices;
        uint8_t ended = 0;
        do {
            if (v->amp >= amp) {
                amp = v->amp;
                sharp = v->sharp;
            }
            if (--v->left == 0) {
                ended = 1;
            }
            v++;
        } while (--n != 0);
        if (ended) {
            voices_remove_ended(it);
        }
    }
    /* 5. live controls (m' = 256, the power-up scale, is the identity) */
    if (it->scale_internal != 256u) {
        amp = (uint8_t)(((uint16_t)((uint16_t)amp * it->scale_internal) + 128u) >> 8);
    }
    if (it->offset != 0) {
        if (it->offset < 0) {
            uint8_t down = (uint8_t)(-(int16_t)it->offset);
            sharp = sharp > down ? (uint8_t)(sharp - down) : 0u;
        } else {
            uint8_t up = (uint8_t)it->offset;
            sharp = sharp < 255u - up ? (uint8_t)(sharp + up) : 255u;
        }
    }
    if ((it->header.flags & HB_FLAG_SHARP) == 0 || amp == 0) {
        sharp = 0;
    }
    /* 6. safety limiter, as a countdown of the full-scale samples still allowed
     * (safety_ticks - c): one 32-bit decrement per loud tick, no 32-bit compare, and a reload
     * only on the first quiet tick after loud ones */
    if (amp >= it->cfg.safety_threshold) {
        if (it->safety_left == 0) {
            return fault(it, HB_ERR_SAFETY_LIMIT);
        }
        it->safety_left--;
        it->loud = 1;
    } else if (it->loud) {
        it->safety_left = it->cfg.safety_ticks;
        it->loud = 0;
    }
    /* 7. output, 8. advance (a channel with a ramp pending: hb_interp_settle) */
    out.amp = amp;
    out.sharp = sharp;
    out.flags = 0;
    if (it->amp.ramp < HB_RAMP_PENDING) {
        channel_advance(&it->amp);
    }
    if (it->sharp.ramp < HB_RAMP_PENDING) {
        channel_advance(&it->sharp);
    }
    it->tick++;
    return out;
}

void hb_interp_settle(hb_interp *it)
{
    if (it->mode == HB_MODE_PLAYING) {
        channel_settle(&it->amp);
        channel_settle(&it->sharp);
    }
}

hb_sample hb_interp_step(hb_interp *it)
{
    hb_sample out = hb_interp_sample(it);
    hb_interp_settle(it);
    return out;
}
