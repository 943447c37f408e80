/* The interpreter's tick (PROTOCOL.md 1.8): the instructions due executed (run), the channels'
 * ramps (1.9) and the pulse voices (1.10) advanced, the sample combined, scaled and limited, and
 * the brake sequence (1.13) played out. Starting, stopping and steering a play, the rest of
 * hb_interp.h, is hb_interp_control.c; a channel's ramp rule is hb_interp_channel.h. */
#include "hb_interp.h"

#include "hb_crc16.h"
#include "hb_decode.h"
#include "hb_interp_channel.h"
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

/* ---- pulse voices (1.10) ---- */

static void voice_start(hb_interp_play *it, uint8_t amp, uint8_t sharp)
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
static HB_NOINLINE void voices_remove_ended(hb_interp_play *it)
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

static hb_sample brake_tick(hb_interp_shared *sh, hb_interp_play *it)
{
    hb_sample out = {0, 0, HB_SAMPLE_BRAKE};
    if (it->mode != HB_MODE_BRAKING) {
        return idle_sample;
    }
    if (--sh->brake_left == 0) {
        it->mode = HB_MODE_IDLE;
    }
    return out;
}

static hb_sample fault(hb_interp_shared *sh, hb_interp_play *it, hb_err err)
{
    it->error = err;
    hb_interp_enter_brake(sh, it);
    return brake_tick(sh, it);
}

/* ---- playing ---- */

/* it->wait, it->wait_high = ticks, as a 16-bit countdown and its carries: a tick with nothing
 * due decrements 16 bits (delays below 65,536 are nearly all of them). */
static void set_wait(hb_interp_play *it, uint32_t ticks)
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
static HB_ALWAYS_INLINE void channel_op(hb_interp_play *it, const hb_instr *in)
{
    uint8_t op = in->op;
    hb_channel *c = (op & 2u) ? &it->sharp : &it->amp;
    if (op & 1u) {
        /* a RAMP decoded in this run still has its duration as bytes: D = 0 is the byte 0 */
        const uint8_t *at = in->dur_at;
        if (at != NULL) {
            if (*at != 0u) {
                c->target = in->value;
                c->t.pending_at = at;
                c->ramp = HB_RAMP_PENDING_AT;
                return;
            }
        } else if (in->dur != 0u) {
            c->target = in->value;
            c->e.err = in->dur;
            c->ramp = HB_RAMP_PENDING;
            return;
        }
    }
    channel_set(c, in->value);
}

/* A ramp the tick's instructions left pending (channel_op) is started after the tick's sample
 * (starting it changes no value this tick: 1.9) together with its first advance, step 8
 * (hb_interp_settle). */
static HB_NOINLINE void ramp_start_pending(hb_channel *c)
{
    channel_ramp(c, c->target, c->ramp == HB_RAMP_PENDING_AT ? hb_varint_value(c->t.pending_at) : c->e.err);
    channel_advance(c);
}

static HB_ALWAYS_INLINE void channel_settle(hb_channel *c)
{
    if (c->ramp >= HB_RAMP_PENDING) {
        ramp_start_pending(c);
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
static HB_NOINLINE HB_MUST_CHECK hb_err run(hb_interp_shared *sh, hb_interp_play *it)
{
    hb_instr *in = &it->next;
    uint8_t *buf = sh->wrap; /* not on the stack: run then needs no stack frame */
    const uint8_t *pc = it->pc, *lim = it->end, *base = NULL, *q;
    uint8_t executed = 0, copied = 0;
    uint8_t streamed = hb_interp_streamed(it);
    /* streamed: the checker's run count, and whether SET_S/RAMP_S (op bit 1 set) are allowed
     * (SHARP), in registers for the run */
    uint8_t run_count = 0, sharp_ok = 0;
    hb_err err = HB_OK;
    if (streamed) {
        pc = base = hb_stream_window(sh, it, sh->read_offset, &lim);
        run_count = sh->check.run;
        sharp_ok = (uint8_t)(sh->header.flags & HB_FLAG_SHARP);
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
            if (sh->src->tail != 0 && q >= sh->src->data + (size_t)sh->src->capacity) {
                /* a mirrored ring, read past its end (hb_stream_window): on from the same bytes'
                 * place at its start, to where the window goes on (it->end) */
                size_t capacity = (size_t)sh->src->capacity;
                hb_stream_flush(sh, base, q);
                pc = base = q - capacity;
                lim = it->end - capacity;
                it->end = lim;
                goto fetch;
            }
            /* past the window: across the wrap (decode again from a copy), or an error */
            hb_stream_flush(sh, base, q);
            base = q;
            err = hb_stream_more(sh, it, copied, buf, &base, &lim);
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
                sh->check.run = run_count;
                err = hb_check_instr(&sh->check, in, sh->read_offset + (uint32_t)(pc - base));
                run_count = sh->check.run;
                if (err != HB_OK) {
                    pc = q;
                    break;
                }
                if (op == HB_OP_END) {
                    hb_stream_flush(sh, base, pc);
                    base = pc;
                    if (sh->src->crc != sh->header.crc) {
                        err = HB_ERR_BAD_CRC;
                        break;
                    }
                }
            }
            if (copied) { /* back to the ring after the copied instruction */
                ramp_duration_now(in);
                hb_stream_flush(sh, base, pc);
                pc = base = sh->src->data + ((size_t)sh->read_offset & (size_t)(sh->src->capacity - 1u));
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
        sh->check.run = run_count;
        hb_stream_flush(sh, base, pc);
        hb_source_release(sh->src, sh->read_offset);
    }
    it->pc = pc;
    sh->executed = executed;
    return err;
}

hb_sample hb_interp_play_sample(hb_interp_shared *sh, hb_interp_play *it)
{
    hb_sample out;
    uint8_t amp, sharp, n;
    if (it->mode != HB_MODE_PLAYING) {
        return brake_tick(sh, it);
    }
    /* 3. execute every instruction due at this tick: a countdown, so a tick with nothing due
     * costs one 16-bit decrement instead of a 32-bit time compare */
    sh->executed = 0;
    if (it->wait != 0) {
        it->wait--;
        if (hb_interp_streamed(it)) {
            hb_stream_crc_ahead(sh);
        }
    } else if (it->wait_high != 0) {
        it->wait_high--;
        it->wait = 0xFFFFu;
    } else {
        hb_err err = run(sh, it);
        if (err != HB_OK) {
            if (err == STEP_END) {
                hb_interp_enter_brake(sh, it);
                return brake_tick(sh, it);
            }
            return fault(sh, it, err);
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
    if (sh->scale_internal != 256u) {
        amp = (uint8_t)(((uint16_t)((uint16_t)amp * sh->scale_internal) + 128u) >> 8);
    }
    if (sh->offset != 0) {
        if (sh->offset < 0) {
            uint8_t down = (uint8_t)(-(int16_t)sh->offset);
            sharp = sharp > down ? (uint8_t)(sharp - down) : 0u;
        } else {
            uint8_t up = (uint8_t)sh->offset;
            sharp = sharp < 255u - up ? (uint8_t)(sharp + up) : 255u;
        }
    }
    if ((it->flags & HB_FLAG_SHARP) == 0 || amp == 0) {
        sharp = 0;
    }
    /* 6. safety limiter, as a countdown of the full-scale samples still allowed
     * (safety_ticks - c): one 32-bit decrement per loud tick, no 32-bit compare, and a reload
     * only on the first quiet tick after loud ones */
    if (amp >= sh->cfg.safety_threshold) {
        if (sh->safety_left != 0) {
            sh->safety_left--;
        } else if (sh->cfg.safety_ticks != HB_SAFETY_OFF) {
            return fault(sh, it, HB_ERR_SAFETY_LIMIT);
        }
        sh->loud = 1;
    } else if (sh->loud) {
        sh->safety_left = sh->cfg.safety_ticks;
        sh->loud = 0;
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

void hb_interp_play_settle(hb_interp_play *it)
{
    if (it->mode == HB_MODE_PLAYING) {
        channel_settle(&it->amp);
        channel_settle(&it->sharp);
    }
}

hb_sample hb_interp_play_step(hb_interp_shared *sh, hb_interp_play *p)
{
    hb_sample out = hb_interp_play_sample(sh, p);
    hb_interp_play_settle(p);
    return out;
}

hb_sample hb_interp_sample(hb_interp *it)
{
    return hb_interp_play_sample(&it->sh, &it->p);
}

void hb_interp_settle(hb_interp *it)
{
    hb_interp_play_settle(&it->p);
}

hb_sample hb_interp_step(hb_interp *it)
{
    return hb_interp_play_step(&it->sh, &it->p);
}
