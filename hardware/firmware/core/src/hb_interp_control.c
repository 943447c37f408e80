/* Starting, stopping and steering a play: the interpreter's state set up for a flat or streamed
 * program (1.8's initial state), the power-up state, a looped play's restart, the live controls
 * (1.11), STOP (1.13) and the status. The tick that plays from that state is hb_interp.c. */
#include "hb_interp.h"

#include <string.h>

#include "hb_interp_private.h"

static void start_playing(hb_interp *it, uint8_t streamed)
{
    it->streamed = streamed;
    if (streamed) {
        hb_check_init(&it->check, &it->header, 1);
    }
    it->next.op = HB_INTERP_OP_NONE;
    it->wait = 0; /* due at once: the first step fetches */
    it->wait_high = 0;
    it->read_offset = 0;
    it->tick = 0;
    it->safety_left = it->cfg.safety_ticks;
    it->loud = 0;
    it->loop_depth = 0;
    it->amp.value = 0;
    it->amp.ramp = HB_RAMP_NONE;
    it->sharp.value = 0;
    it->sharp.ramp = HB_RAMP_NONE;
    it->voice_count = 0;
    it->brake_left = 0;
    it->error = HB_OK;
    it->executed = 0;
    it->mode = HB_MODE_PLAYING;
}

static void start_flat(hb_interp *it, const uint8_t *program)
{
    it->pc = program + HB_HEADER_SIZE;
    it->end = it->pc + it->header.body_length;
    it->src = NULL;
    start_playing(it, 0);
}

static HB_MUST_CHECK hb_err reject(hb_interp *it, hb_err err)
{
    it->error = err;
    it->tick = 0;
    hb_interp_enter_brake(it);
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
    start_flat(it, program);
    return HB_OK;
}

hb_err hb_interp_load_validated(hb_interp *it, const uint8_t *program)
{
    hb_err err = hb_header_parse(program, HB_HEADER_SIZE, &it->cfg, &it->header);
    if (err != HB_OK) {
        return reject(it, err);
    }
    start_flat(it, program);
    return HB_OK;
}

void hb_interp_load_parsed(hb_interp *it, const hb_header *header, const uint8_t *program)
{
    it->header = *header;
    start_flat(it, program);
}

void hb_interp_restart(hb_interp *it)
{
    it->pc = it->end - it->header.body_length;
    start_playing(it, 0);
}

hb_err hb_interp_load_stream(hb_interp *it, const uint8_t *header, hb_source *src)
{
    hb_err err = hb_header_parse(header, HB_HEADER_SIZE, &it->cfg, &it->header);
    if (err != HB_OK) {
        return reject(it, err);
    }
    it->src = src;
    it->pc = NULL;
    it->end = NULL;
    start_playing(it, 1);
    return HB_OK;
}

/* ---- live controls, stop, status ---- */

void hb_interp_set_scale(hb_interp *it, uint8_t scale)
{
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
        hb_interp_enter_brake(it);
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
