#include "hb_interp.h"

#include <string.h>

#include "hb_crc16.h"

/* ---- channels: the ramp rule of 1.9 without per-tick division ---- */

static void channel_set(hb_channel *c, uint8_t value)
{
    c->value = value;
    c->left = 0;
}

static void channel_ramp(hb_channel *c, uint8_t target, uint32_t dur)
{
    uint8_t delta;
    if (dur == 0) {
        channel_set(c, target);
        return;
    }
    c->down = target < c->value;
    delta = c->down ? (uint8_t)(c->value - target) : (uint8_t)(target - c->value);
    if (dur > delta) {
        c->step = 0;
        c->rem = delta;
    } else { /* dur <= 255 here: an 8-bit division */
        c->step = (uint8_t)(delta / (uint8_t)dur);
        c->rem = (uint8_t)(delta % (uint8_t)dur);
    }
    c->den = dur;
    c->err = dur >> 1;   /* floor(D / 2): round the exact line half up */
    c->left = dur;
}

static void channel_advance(hb_channel *c)
{
    uint8_t inc;
    if (c->left == 0) {
        return;
    }
    inc = c->step;
    c->err += c->rem;
    if (c->err >= c->den) {
        c->err -= c->den;
        inc++;
    }
    c->value = c->down ? (uint8_t)(c->value - inc) : (uint8_t)(c->value + inc);
    c->left--;
}

/* ---- pulse voices (1.10) ---- */

static void voice_start(hb_interp *it, uint8_t amp, uint8_t sharp)
{
    uint8_t i;
    if (it->voice_count == HB_PULSE_VOICES) { /* all busy: the oldest gives way */
        for (i = 1; i < HB_PULSE_VOICES; i++) {
            it->voices[i - 1u] = it->voices[i];
        }
        it->voice_count--;
    }
    it->voices[it->voice_count].amp = amp;
    it->voices[it->voice_count].sharp = sharp;
    it->voices[it->voice_count].left = hb_pulse_length(sharp);
    it->voice_count++;
}

static void voices_advance(hb_interp *it)
{
    uint8_t i, kept = 0;
    for (i = 0; i < it->voice_count; i++) {
        if (--it->voices[i].left != 0) {
            it->voices[kept++] = it->voices[i];
        }
    }
    it->voice_count = kept;
}

/* ---- modes ---- */

static const hb_sample idle_sample = {0, 0, 0};

/* Enters the brake sequence (1.13); the caller emits its first sample with brake_tick. */
static void enter_brake(hb_interp *it)
{
    it->brake_left = it->cfg.brake_ticks;
    it->mode = it->brake_left != 0 ? HB_MODE_BRAKING : HB_MODE_IDLE;
}

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
    enter_brake(it);
    return brake_tick(it);
}

/* ---- loading ---- */

static void start_playing(hb_interp *it, hb_source *src, uint8_t streamed)
{
    it->src = src;
    it->streamed = streamed;
    hb_check_init(&it->check, &it->header, streamed);
    it->have_next = 0;
    it->next_time = 0;
    it->last_time = 0;
    it->read_offset = 0;
    it->tick = 0;
    it->full_scale_run = 0;
    it->loop_depth = 0;
    memset(&it->amp, 0, sizeof it->amp);
    memset(&it->sharp, 0, sizeof it->sharp);
    it->voice_count = 0;
    it->crc = HB_CRC16_INIT;
    it->brake_left = 0;
    it->error = HB_OK;
    it->executed = 0;
    it->mode = HB_MODE_PLAYING;
}

static hb_err reject(hb_interp *it, hb_err err)
{
    it->error = err;
    it->tick = 0;
    enter_brake(it);
    return err;
}

void hb_interp_init(hb_interp *it, const hb_config *cfg)
{
    memset(it, 0, sizeof *it);
    it->cfg = *cfg;
    it->mode = HB_MODE_IDLE;
    hb_interp_set_scale(it, 255);
    it->offset = 0;
}

hb_err hb_interp_load(hb_interp *it, const uint8_t *program, uint32_t length)
{
    hb_err err = hb_program_validate(program, length, &it->cfg, &it->header);
    if (err != HB_OK) {
        return reject(it, err);
    }
    hb_source_flat(&it->flat, program + HB_HEADER_SIZE, it->header.body_length);
    start_playing(it, &it->flat, 0);
    return HB_OK;
}

hb_err hb_interp_load_validated(hb_interp *it, const uint8_t *program)
{
    hb_err err = hb_header_parse(program, HB_HEADER_SIZE, &it->cfg, &it->header);
    if (err != HB_OK) {
        return reject(it, err);
    }
    hb_source_flat(&it->flat, program + HB_HEADER_SIZE, it->header.body_length);
    start_playing(it, &it->flat, 0);
    return HB_OK;
}

hb_err hb_interp_load_stream(hb_interp *it, const uint8_t *header, hb_source *src)
{
    hb_err err = hb_header_parse(header, HB_HEADER_SIZE, &it->cfg, &it->header);
    if (err != HB_OK) {
        return reject(it, err);
    }
    start_playing(it, src, 1);
    return HB_OK;
}

/* ---- playing ---- */

/* Reads the next instruction into it->next (1.8 step 3). Streamed programs get the validator's
 * rules here, and their CRC at END; flat programs were validated as a whole, so only the checks
 * that keep this code memory-safe on any bytes remain. */
static hb_err fetch(hb_interp *it)
{
    uint32_t offset = it->read_offset;
    hb_err err = hb_instr_decode(it->src, it->header.body_length, &offset, &it->next);
    if (err != HB_OK) {
        return err;
    }
    if (it->streamed) {
        uint32_t at;
        uint8_t byte;
        err = hb_check_instr(&it->check, &it->next, offset);
        if (err != HB_OK) {
            return err;
        }
        for (at = it->read_offset; at < offset; at++) {
            (void)hb_source_byte(it->src, at, &byte); /* decoded just now: present */
            it->crc = hb_crc16_update(it->crc, byte);
        }
        hb_source_release(it->src, offset);
        if (it->next.op == HB_OP_END && it->crc != it->header.crc) {
            return HB_ERR_BAD_CRC;
        }
    }
    if (it->next.delay > 0xFFFFFFFFu - it->last_time) {
        return HB_ERR_TICKS_OVERFLOW;
    }
    it->read_offset = offset;
    it->next_time = it->last_time + it->next.delay;
    it->have_next = 1;
    return HB_OK;
}

/* Executes it->next; sets *ended when it was END. The loop checks only matter for bytes that
 * skipped validation. */
static hb_err execute(hb_interp *it, uint8_t *ended)
{
    const hb_instr *in = &it->next;
    switch (in->op) {
    case HB_OP_SET_A:
        channel_set(&it->amp, in->value);
        break;
    case HB_OP_RAMP_A:
        channel_ramp(&it->amp, in->value, in->dur);
        break;
    case HB_OP_SET_S:
        channel_set(&it->sharp, in->value);
        break;
    case HB_OP_RAMP_S:
        channel_ramp(&it->sharp, in->value, in->dur);
        break;
    case HB_OP_PULSE:
        voice_start(it, in->value, in->sharp);
        break;
    case HB_OP_LOOP:
        if (in->value == 0) {
            return HB_ERR_LOOP_COUNT_ZERO;
        }
        if (it->loop_depth >= HB_MAX_LOOP_DEPTH) {
            return HB_ERR_LOOP_TOO_DEEP;
        }
        it->loop_offset[it->loop_depth] = it->read_offset;
        it->loop_left[it->loop_depth] = (uint8_t)(in->value - 1u);
        it->loop_depth++;
        break;
    case HB_OP_ENDLOOP:
        if (it->loop_depth == 0) {
            return HB_ERR_ENDLOOP_WITHOUT_LOOP;
        }
        if (it->loop_left[it->loop_depth - 1u] != 0) {
            it->loop_left[it->loop_depth - 1u]--;
            it->read_offset = it->loop_offset[it->loop_depth - 1u];
        } else {
            it->loop_depth--;
        }
        break;
    default: /* HB_OP_END */
        *ended = 1;
        break;
    }
    return HB_OK;
}

hb_sample hb_interp_step(hb_interp *it)
{
    hb_sample out;
    uint8_t amp, sharp, i, ended = 0;
    if (it->mode != HB_MODE_PLAYING) {
        return brake_tick(it);
    }
    /* 3. execute every instruction due at this tick */
    it->executed = 0;
    for (;;) {
        hb_err err;
        if (!it->have_next) {
            err = fetch(it);
            if (err != HB_OK) {
                return fault(it, err);
            }
        }
        if (it->next_time > it->tick) {
            break;
        }
        it->have_next = 0;
        it->last_time = it->next_time;
        it->executed++;
        err = execute(it, &ended);
        if (err != HB_OK) {
            return fault(it, err);
        }
        if (ended) {
            enter_brake(it);
            return brake_tick(it);
        }
    }
    /* 4. combine: max amplitude; ties go to pulses, then to the newest pulse */
    amp = it->amp.value;
    sharp = it->sharp.value;
    for (i = 0; i < it->voice_count; i++) {
        if (it->voices[i].amp >= amp) {
            amp = it->voices[i].amp;
            sharp = it->voices[i].sharp;
        }
    }
    /* 5. live controls */
    amp = (uint8_t)(((uint16_t)((uint16_t)amp * it->scale_internal) + 128u) >> 8);
    if (it->offset < 0) {
        uint8_t down = (uint8_t)(-(int16_t)it->offset);
        sharp = sharp > down ? (uint8_t)(sharp - down) : 0u;
    } else {
        uint8_t up = (uint8_t)it->offset;
        sharp = sharp < 255u - up ? (uint8_t)(sharp + up) : 255u;
    }
    if ((it->header.flags & HB_FLAG_SHARP) == 0 || amp == 0) {
        sharp = 0;
    }
    /* 6. safety limiter */
    if (amp >= it->cfg.safety_threshold) {
        it->full_scale_run++;
        if (it->full_scale_run > it->cfg.safety_ticks) {
            return fault(it, HB_ERR_SAFETY_LIMIT);
        }
    } else {
        it->full_scale_run = 0;
    }
    /* 7. output, 8. advance */
    out.amp = amp;
    out.sharp = sharp;
    out.flags = 0;
    channel_advance(&it->amp);
    channel_advance(&it->sharp);
    voices_advance(it);
    it->tick++;
    return out;
}

void hb_interp_set_scale(hb_interp *it, uint8_t scale)
{
    it->scale = scale;
    it->scale_internal = (uint16_t)(scale + (scale >> 7));
}

void hb_interp_set_offset(hb_interp *it, int8_t offset)
{
    it->offset = offset;
}

void hb_interp_stop(hb_interp *it, uint8_t brake)
{
    if (!brake) {
        it->mode = HB_MODE_IDLE;
        it->brake_left = 0;
    } else if (it->mode == HB_MODE_PLAYING) {
        enter_brake(it);
    }
}

hb_status hb_interp_status(const hb_interp *it)
{
    hb_status status;
    status.tick = it->tick;
    status.mode = it->mode;
    status.error = it->error;
    return status;
}
