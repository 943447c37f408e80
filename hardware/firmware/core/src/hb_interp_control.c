/* Starting, stopping and steering a play: the interpreter's state set up for a flat or streamed
 * program (1.8's initial state), the power-up state, a looped play's restart, the live controls
 * (1.11), STOP (1.13) and the status. The tick that plays from that state is hb_interp.c. */
#include "hb_interp.h"

#include <string.h>

#include "hb_interp_private.h"

/* A streamed play's fetch state is the shared part's: a flat play leaves it alone (a protocol 3.0
 * stream may be playing on another player). it->flags are set: the header's, and whether streamed. */
static void start_playing(hb_interp_shared *sh, hb_interp_play *it)
{
    if (hb_interp_streamed(it)) {
        hb_check_init(&sh->check, &sh->header, NULL);
        sh->read_offset = 0;
    }
    it->next.op = HB_INTERP_OP_NONE;
    it->wait = 0; /* due at once: the first step fetches */
    it->wait_high = 0;
    it->tick = 0;
    sh->safety_left = sh->cfg.safety_ticks;
    sh->loud = 0;
    it->loop_depth = 0;
    it->amp.value = 0;
    it->amp.ramp = HB_RAMP_NONE;
    it->sharp.value = 0;
    it->sharp.ramp = HB_RAMP_NONE;
    it->voice_count = 0;
    sh->brake_left = 0;
    it->error = HB_OK;
    sh->executed = 0;
    it->mode = HB_MODE_PLAYING;
}

static void start_flat(hb_interp_shared *sh, hb_interp_play *it, const hb_header *header,
                       const uint8_t *program)
{
    it->body = program + HB_HEADER_SIZE;
    it->pc = it->body;
    it->end = it->body + header->body_length;
    it->flags = header->flags;
    start_playing(sh, it);
}

static HB_MUST_CHECK hb_err reject(hb_interp_shared *sh, hb_interp_play *it, hb_err err)
{
    it->error = err;
    it->tick = 0;
    hb_interp_enter_brake(sh, it);
    return err;
}

void hb_interp_shared_init(hb_interp_shared *sh, const hb_config *cfg)
{
    memset(sh, 0, sizeof *sh);
    sh->cfg = *cfg;
    hb_interp_shared_set_scale(sh, 255);
    sh->offset = 0;
}

void hb_interp_play_init(hb_interp_play *p)
{
    memset(p, 0, sizeof *p);
    p->mode = HB_MODE_IDLE;
}

void hb_interp_init(hb_interp *it, const hb_config *cfg)
{
    hb_interp_shared_init(&it->sh, cfg);
    hb_interp_play_init(&it->p);
}

hb_err hb_interp_load(hb_interp *it, const uint8_t *program, uint32_t length)
{
    hb_err err = hb_program_validate(program, length, &it->sh.cfg, &it->sh.header);
    if (err != HB_OK) {
        return reject(&it->sh, &it->p, err);
    }
    start_flat(&it->sh, &it->p, &it->sh.header, program);
    return HB_OK;
}

hb_err hb_interp_play_load_validated(hb_interp_shared *sh, hb_interp_play *p, const uint8_t *program)
{
    hb_err err = hb_header_parse(program, HB_HEADER_SIZE, &sh->cfg, &sh->header);
    if (err != HB_OK) {
        return reject(sh, p, err);
    }
    start_flat(sh, p, &sh->header, program);
    return HB_OK;
}

hb_err hb_interp_load_validated(hb_interp *it, const uint8_t *program)
{
    return hb_interp_play_load_validated(&it->sh, &it->p, program);
}

void hb_interp_play_load_parsed(hb_interp_shared *sh, hb_interp_play *p, const hb_header *header,
                                const uint8_t *program)
{
    start_flat(sh, p, header, program);
}

void hb_interp_load_parsed(hb_interp *it, const hb_header *header, const uint8_t *program)
{
    it->sh.header = *header;
    start_flat(&it->sh, &it->p, header, program);
}

void hb_interp_play_restart(hb_interp_shared *sh, hb_interp_play *p)
{
    p->pc = p->body;
    start_playing(sh, p);
}

void hb_interp_restart(hb_interp *it)
{
    hb_interp_play_restart(&it->sh, &it->p);
}

hb_err hb_interp_play_load_stream(hb_interp_shared *sh, hb_interp_play *p, const uint8_t *header,
                                  hb_source *src)
{
    hb_err err = hb_header_parse(header, HB_HEADER_SIZE, &sh->cfg, &sh->header);
    if (err != HB_OK) {
        return reject(sh, p, err);
    }
    sh->src = src;
    p->pc = NULL;
    p->end = NULL;
    p->body = NULL;
    p->flags = (uint8_t)(sh->header.flags | HB_INTERP_STREAMED);
    start_playing(sh, p);
    return HB_OK;
}

hb_err hb_interp_load_stream(hb_interp *it, const uint8_t *header, hb_source *src)
{
    return hb_interp_play_load_stream(&it->sh, &it->p, header, src);
}

/* ---- live controls, stop, status ---- */

void hb_interp_shared_set_scale(hb_interp_shared *sh, uint8_t scale)
{
    sh->scale_internal = (uint16_t)(scale + (scale >> 7));
}

void hb_interp_set_scale(hb_interp *it, uint8_t scale)
{
    hb_interp_shared_set_scale(&it->sh, scale);
}

void hb_interp_set_offset(hb_interp *it, int8_t offset)
{
    it->sh.offset = offset;
}

void hb_interp_play_stop(hb_interp_shared *sh, hb_interp_play *p, uint8_t brake)
{
    if (!brake) {
        p->mode = HB_MODE_IDLE;
        sh->brake_left = 0;
    } else if (p->mode == HB_MODE_PLAYING) {
        hb_interp_enter_brake(sh, p);
    }
}

void hb_interp_stop(hb_interp *it, uint8_t brake)
{
    hb_interp_play_stop(&it->sh, &it->p, brake);
}

hb_status hb_interp_status(const hb_interp *it)
{
    hb_status status;
    status.tick = it->p.tick;
    status.mode = it->p.mode;
    status.error = it->p.error;
    return status;
}
