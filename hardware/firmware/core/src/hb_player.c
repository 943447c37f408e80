/* A player's time, gain and sample (PROTOCOL-3.md 3.4, 3.6, 3.7): one step of a PLAYING or
 * BRAKING player. Its seek is hb_player_seek.c; the pool and the messages, hb_device3*.c. */
#include "hb_player.h"

#include <string.h>

#include "hb_interp_private.h"
#include "hb_messages.h"

void hb_player_shared_init(hb_interp_shared *sh, const hb_config *core)
{
    /* the interpreter's own limiter, brake and live controls stay idle: they are the channel's
     * and the player's here (3.6) */
    hb_config cfg = *core;
    cfg.brake_ticks = 0;
    cfg.safety_threshold = 255;
    cfg.safety_ticks = HB_SAFETY_OFF;
    hb_interp_shared_init(sh, &cfg);
}

void hb_player_reserve(hb_player *pl, hb_interp_shared *sh, const hb_play_params *p, uint8_t channel,
                       const uint8_t *program, const hb_header *header)
{
    hb_interp_play_init(&pl->it);
    pl->state = HB_PLAYER_PENDING;
    pl->flags = (uint8_t)(p->flags & (HB_PLAYER_SUM | HB_PLAYER_CUT | HB_PLAYER_MUTED | HB_PLAYER_AT));
    pl->play = p->play;
    pl->channel = channel;
    pl->slot = p->slot;
    pl->seq = p->seq;
    pl->at = p->at;
    pl->scale = p->scale;
    pl->offset = p->offset;
    pl->rate = p->rate;
    pl->loops = p->loops;
    pl->priority = p->priority;
    pl->duck = p->duck;
    pl->gain = 256;
    pl->held_amp = 0;
    pl->held_sharp = 0;
    pl->iterations = 0;
    pl->scheduled_count = 0;
    pl->phi = 0;
    if (program == NULL) { /* the stream: 1x, once, from 0 (3.12); p = 0 before its first step */
        pl->flags = (uint8_t)(pl->flags | HB_PLAYER_FRESH);
        pl->loop_end = 0;
        return;
    }
    pl->loop_end = p->loop_end != 0u ? p->loop_end : header->total_ticks;
    hb_interp_play_load_parsed(sh, &pl->it, header, program);
    if (HB_PORT_SEEK && p->from != 0u) { /* PLAY refused `from` on a device without SEEK (3.13) */
        (void)hb_player_seek(pl, sh, p->from);
    } else { /* loaded: the state at tick 0, position 0 */
        pl->flags = (uint8_t)(pl->flags | HB_PLAYER_FRESH);
    }
}

uint32_t hb_player_total(const hb_player *pl)
{
    return pl->slot == HB_STREAM_SLOT ? 0u : hb_program_total_ticks(pl->it.body - HB_HEADER_SIZE);
}

uint32_t hb_player_pos(const hb_player *pl)
{
    return pl->it.tick - ((pl->flags & HB_PLAYER_FRESH) ? 0u : 1u);
}

uint16_t hb_player_work_at(const hb_player *pl, const uint8_t *slot_peak, uint16_t rate)
{
    uint8_t peak = pl->slot == HB_STREAM_SLOT ? (uint8_t)HB_STREAM_WORK : slot_peak[pl->slot];
    if (pl->state != HB_PLAYER_PENDING && pl->state != HB_PLAYER_PLAYING) {
        return 0;
    }
    return (uint16_t)(peak * ((rate + HB_RATE_ONE - 1u) / HB_RATE_ONE));
}

uint16_t hb_player_work(const hb_player *pl, const uint8_t *slot_peak)
{
    return hb_player_work_at(pl, slot_peak, pl->rate);
}

HB_NOINLINE uint8_t hb_player_sounding(const hb_player *pl, uint32_t n)
{
    uint8_t fading = (uint8_t)((pl->flags & HB_PLAYER_SEEK_FADE) && (int32_t)(n - pl->at) < 0);
    return (uint8_t)(pl->state == HB_PLAYER_PLAYING
                     && (pl->flags & (HB_PLAYER_PAUSED | HB_PLAYER_MUTED)) == 0u && !fading);
}

HB_NOINLINE void hb_player_brake(hb_player *pl, uint16_t brake_ticks)
{
    pl->state = brake_ticks != 0u ? HB_PLAYER_BRAKING : HB_PLAYER_FREE;
    pl->at = brake_ticks; /* the brake steps left: `at` is free once the play ends */
}

/* One brake step of a BRAKING player: FREE after its last. */
static HB_NOINLINE void brake_step(hb_player *pl)
{
    if (--pl->at == 0u) {
        pl->state = HB_PLAYER_FREE;
    }
}

HB_NOINLINE uint8_t hb_player_brake_from_here(hb_player *pl, uint16_t brake_ticks)
{
    hb_player_brake(pl, brake_ticks);
    if (pl->state != HB_PLAYER_BRAKING) {
        return 0;
    }
    brake_step(pl);
    return 1;
}

/* 3.4: executes program ticks done + 1 .. p, keeping the last one's sample; an iteration ends at
 * its end tick E (L, or T on the last iteration): with iterations left the program starts again
 * and p becomes p - E (possibly again within this step). Returns 1 when the play's last iteration
 * ended. At most ceil(r / 256) program ticks run in all (3.9). Unless it ended, the interpreter
 * is then about to execute p + 1: p is kept there (hb_player_pos). */
static HB_NOINLINE uint8_t advance(hb_player *pl, hb_interp_shared *sh, uint32_t pos)
{
    for (;;) {
        uint8_t last = (uint8_t)(pl->loops == 1u);
        uint32_t total = hb_player_total(pl), e = last ? total : pl->loop_end;
        while (pl->it.tick <= pos && pl->it.tick < e) {
            hb_sample s = hb_interp_play_step(sh, &pl->it);
            pl->held_amp = s.amp;
            pl->held_sharp = s.sharp;
        }
        if (pos < e) {
            return 0;
        }
        if (pl->iterations != 0xFFFFu) {
            pl->iterations++;
        }
        if (last || total == 0u) {
            return 1;
        }
        if (pl->loops > 1u) {
            pl->loops--;
        }
        pos -= e;
        hb_interp_play_restart(sh, &pl->it);
    }
}

/* The stream (3.12): one program tick a step; END or a fetch fault (1.14) ends the play. */
static uint8_t advance_stream(hb_player *pl, hb_interp_shared *sh, uint8_t *code)
{
    hb_sample s = hb_interp_play_step(sh, &pl->it);
    if (pl->it.mode != HB_MODE_PLAYING) {
        *code = pl->it.error;
        pl->iterations = pl->it.error == HB_OK ? 1u : 0u;
        return 1;
    }
    pl->held_amp = s.amp;
    pl->held_sharp = s.sharp;
    return 0;
}

/* 3.7: frozen while paused or in a seek's fade (which ends at `at`). */
static uint8_t frozen(hb_player *pl, uint32_t n)
{
    if ((pl->flags & HB_PLAYER_SEEK_FADE) && (int32_t)(n - pl->at) >= 0) {
        pl->flags = (uint8_t)(pl->flags & ~HB_PLAYER_SEEK_FADE);
    }
    return (uint8_t)((pl->flags & (HB_PLAYER_PAUSED | HB_PLAYER_SEEK_FADE)) != 0u);
}

uint8_t hb_player_step(hb_player *pl, hb_interp_shared *sh, uint32_t n, uint16_t duck, uint16_t slew,
                       uint16_t brake_ticks, hb_player_out *out)
{
    uint8_t still = 0, sharp_flag;
    uint16_t target;
    int16_t move;
    uint16_t m;
    uint32_t amp;
    out->amp = 0;
    out->sharp = 0;
    out->brake = 0;
    if (pl->state == HB_PLAYER_BRAKING) {
        brake_step(pl);
        out->brake = 1;
        return HB_PLAYER_GOES_ON;
    }
    still = frozen(pl, n);
    target = (still || (pl->flags & HB_PLAYER_MUTED)) ? 0u : duck;
    move = (int16_t)((int16_t)target - (int16_t)pl->gain);
    if (move > (int16_t)slew) {
        move = (int16_t)slew;
    } else if (move < -(int16_t)slew) {
        move = (int16_t) - (int16_t)slew;
    }
    pl->gain = (uint16_t)((int16_t)pl->gain + move);
    if (!still) {
        uint8_t ended, code = 0;
        uint32_t pos = hb_player_pos(pl);
        if (pl->flags & HB_PLAYER_FRESH) {
            pl->flags = (uint8_t)(pl->flags & ~HB_PLAYER_FRESH);
        } else {
            uint16_t phi = (uint16_t)(pl->phi + pl->rate);
            pos += (uint32_t)(phi >> 8);
            pl->phi = (uint8_t)(phi & 0xFFu);
        }
        ended = HB_PORT_STREAM && pl->slot == HB_STREAM_SLOT ? advance_stream(pl, sh, &code)
                                                             : advance(pl, sh, pos);
        if (ended) {
            out->brake = hb_player_brake_from_here(pl, brake_ticks);
            return code;
        }
    }
    /* 3.6: one rounding for scale and gain, u32: at most 255 * 256 * 256 + 32768 */
    m = (uint16_t)(pl->scale + (pl->scale >> 7));
    amp = ((uint32_t)(uint16_t)(pl->held_amp * m) * pl->gain + 32768u) >> 16; /* 255 * 256 fits u16 */
    out->amp = (uint8_t)amp;
    sharp_flag = (uint8_t)(pl->it.flags & HB_FLAG_SHARP);
    if (sharp_flag) {
        int16_t s = (int16_t)(pl->held_sharp + pl->offset);
        out->sharp = (uint8_t)(s < 0 ? 0 : (s > 255 ? 255 : s));
    }
    return HB_PLAYER_GOES_ON;
}
