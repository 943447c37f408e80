/* One step of the 3.0 device (PROTOCOL-3.md 3.8), its phases in the text's order: faults (the
 * watchdog, each channel's stage), scheduled controls, starts, duck targets, players, end
 * notices, channels (mix, limiter, brake rule), the output stage, the stream's credit. */
#include "hb_device3_private.h"
#include "hb_mix.h"

/* A PENDING player ends before it starts, with FAULT `code` and a record (as 2.19). */
static HB_NOINLINE void cancel_pending(hb_device3 *d, hb_player *q, uint8_t code, uint32_t n)
{
    if (q->slot == HB_STREAM_SLOT) {
        hb_dev_stream_close(&d->dev);
    }
    hb_dev3_notice_of(d, q, HB_EVENT_FAULT, code, n);
    hb_dev3_record_begin(d, q, HB_EVENT_FAULT, code, n);
    q->state = HB_PLAYER_FREE;
}

/* 1. Every PENDING or PLAYING player on `channel` (0xFF: every channel) ends with FAULT `code`: a
 * PLAYING one brakes from this step, a PENDING one is cancelled with a record (as 2.19). Returns
 * whether there was any such player (so that no search for one comes first). */
static uint8_t fault_players(hb_device3 *d, uint8_t channel, uint8_t code, uint32_t n)
{
    uint8_t i, count = d->cfg->players, any = 0;
    hb_player *q;
    for (i = 0, q = d->players; i < count; i++, q++) {
        if (!hb_dev3_live(q) || (channel != 0xFFu && q->channel != channel)) {
            continue;
        }
        any = 1;
        if (q->state == HB_PLAYER_PLAYING) {
            (void)hb_dev3_telemetry(d, q, HB_EVENT_FAULT, code, n);
            hb_player_brake(q, hb_dev3_brake_ticks(d, q->channel));
        } else {
            cancel_pending(d, q, code, n);
        }
        q->scheduled_count = 0;
    }
    return any;
}

static void step_faults(hb_device3 *d, uint32_t n)
{
    uint8_t c;
    hb_channel3 *ch = d->channels;
    if (d->dev.watchdog != 0u && d->dev.silence >= d->dev.watchdog) { /* fault_players skips the idle */
        (void)fault_players(d, 0xFFu, HB_ERR_WATCHDOG, n);
    }
    for (c = 0; c < d->cfg->channel_count; c++, ch++) {
        if (ch->fault != ch->fault_sent) {
            ch->fault_sent = ch->fault;
            if (ch->fault != 0u && !fault_players(d, c, ch->fault, n)) { /* an idle channel's fault */
                hb_dev3_notice(d, HB_EVENT_FAULT, HB_NO_PLAY, c, HB_NO_SLOT, ch->fault, n);
            }
        }
    }
}

/* 2. Scheduled controls due at n, player by player, earliest first, equal ticks in arrival order.
 * Due means at n exactly: a control is kept only for a later tick (3.7) and the step runs at every
 * tick, so none is ever older; a player's list is in arrival order. */
static void step_scheduled(hb_device3 *d, uint32_t n)
{
    uint8_t i, count = d->cfg->players;
    hb_player *q;
    for (i = 0, q = d->players; i < count; i++, q++) {
        uint8_t k = 0;
        while (k < q->scheduled_count) {
            uint8_t j, op = q->scheduled[k].op;
            if (q->scheduled[k].at != n) {
                k++;
                continue;
            }
            q->scheduled_count--;
            for (j = k; j < q->scheduled_count; j++) {
                q->scheduled[j] = q->scheduled[j + 1u];
            }
            if (hb_dev3_live(q)) {
                (void)hb_dev3_apply(d, q, op, 0);
            }
        }
    }
}

/* 3. A due play starts, every channel of it (3.3): replaced and cut players end first. */
static void start_play(hb_device3 *d, const hb_player *first, uint32_t n)
{
    uint8_t i, play = first->play, seq = first->seq, cut = (uint8_t)(first->flags & HB_PLAYER_CUT);
    uint8_t count = d->cfg->players;
    uint16_t chans = 0;
    hb_player *r;
    for (i = 0, r = d->players; i < count; i++, r++) {
        if (r->state == HB_PLAYER_PENDING && r->play == play && r->seq == seq) {
            chans = (uint16_t)(chans | (1u << r->channel));
        }
    }
    for (i = 0, r = d->players; i < count; i++, r++) {
        if (r->state == HB_PLAYER_PLAYING && r->play == play && hb_dev3_in_mask(chans, r->channel)) {
            (void)hb_dev3_telemetry(d, r, HB_EVENT_STOPPED, HB_STOPPED_BY_PLAY, n);
            r->state = HB_PLAYER_FREE;
        }
    }
    for (i = 0, r = d->players; cut && i < count; i++, r++) {
        if (r->state == HB_PLAYER_PLAYING && hb_dev3_in_mask(chans, r->channel)) {
            (void)hb_dev3_telemetry(d, r, HB_EVENT_STOPPED, HB_STOPPED_BY_CUT, n);
            r->state = HB_PLAYER_FREE;
        }
    }
    for (i = 0, r = d->players; i < count; i++, r++) {
        uint8_t fault;
        if (r->state != HB_PLAYER_PENDING || r->play != play || r->seq != seq) {
            continue;
        }
        fault = d->channels[r->channel].fault;
        if (fault != 0u) { /* its channel's stage is faulty: FAULT instead of STARTED */
            cancel_pending(d, r, fault, n);
            continue;
        }
        if (HB_PORT_STREAM && r->slot == HB_STREAM_SLOT) {
            d->dev.stream_state = STREAM_PLAYING;
            hb_err err =
                hb_interp_play_load_stream(hb_dev3_interp(d), &r->it, d->dev.stream_header, &d->dev.ring);
            (void)err; /* its header passed rules 1-5 at STREAM_OPEN */
        }
        r->state = HB_PLAYER_PLAYING;
        if (r->flags & (HB_PLAYER_PAUSED | HB_PLAYER_MUTED)) {
            r->gain = 0; /* a play that starts silent fades in from 0 */
        }
        hb_dev3_record_begin(d, r, HB_PLAY_PLAYING, 0, n);
        hb_dev3_notice_of(d, r, HB_EVENT_STARTED, 0, n);
    }
}

static void step_starts(hb_device3 *d, uint32_t n)
{
    uint8_t i;
    for (i = 0; i < d->cfg->players; i++) {
        const hb_player *q = &d->players[i];
        if (q->state == HB_PLAYER_PENDING && d->dev.stage == HB_STAGE_WARM
            && ((q->flags & HB_PLAYER_AT) == 0u || hb_dev_tick_diff(n, q->at) >= 0)) {
            start_play(d, q, n);
        }
    }
}

/* 7. A channel's limiter: every PLAYING player on it ends with FAULT 49, braking from this step. */
static void limiter_fault(hb_device3 *d, uint8_t c, hb_mix *m, uint32_t n)
{
    uint8_t i, count = d->cfg->players;
    uint16_t brake = hb_dev3_brake_ticks(d, c);
    hb_player *q;
    for (i = 0, q = d->players; i < count; i++, q++) {
        if (q->state == HB_PLAYER_PLAYING && q->channel == c) {
            (void)hb_dev3_telemetry(d, q, HB_EVENT_FAULT, HB_ERR_SAFETY_LIMIT, n);
            q->scheduled_count = 0;
            if (hb_player_brake_from_here(q, brake)) {
                m->brake = 1;
            }
        }
    }
    m->sum = 0;
    m->loudest = 0;
}

void hb_device3_step(hb_device3 *d, hb_sample *samples)
{
    const uint32_t n = d->dev.now;
    hb_mix mix[HB_DEVICE3_MAX_CHANNELS];
    uint16_t duck[HB_DEVICE3_MAX_PLAYERS];
    uint8_t ended[HB_DEVICE3_MAX_PLAYERS];
    uint16_t slew = 256u; /* S = ceil(256 / R), 256 when R = 0 (3.7) */
    uint8_t i, c, busy = 0;
    hb_player *q;
    if (d->fade != 0u) { /* ceil(256 / R) = floor(255 / R) + 1: an 8-bit division */
        slew = (uint16_t)((uint8_t)(255u / d->fade) + 1u);
    }
    hb_dev_flush_pending(&d->dev);
    step_faults(d, n);
    step_scheduled(d, n);
    step_starts(d, n);
    /* 4. duck targets, from the states after the starts */
    for (i = 0; i < d->cfg->players; i++) {
        duck[i] = 256u;
        if (d->players[i].state == HB_PLAYER_PLAYING) {
            duck[i] = hb_mix_duck_gain(d->players, d->cfg->players, &d->players[i], n);
        }
    }
    for (c = 0; c < d->cfg->channel_count; c++) {
        hb_mix_clear(&mix[c]);
    }
    /* 5. players, in pool order */
    for (i = 0, q = d->players; i < d->cfg->players; i++, q++) {
        hb_player_out out;
        ended[i] = HB_PLAYER_GOES_ON;
        if (q->state != HB_PLAYER_PLAYING && q->state != HB_PLAYER_BRAKING) {
            continue;
        }
        c = q->channel;
        ended[i] = hb_player_step(q, hb_dev3_interp(d), n, duck[i], slew, hb_dev3_brake_ticks(d, c), &out);
        if (out.amp != 0u) {
            hb_mix_add(&mix[c], out.amp, out.sharp, (uint8_t)(q->flags & HB_PLAYER_SUM));
            if ((q->flags & HB_PLAYER_SEEN) == 0u) {
                hb_player_record *r = hb_dev3_record(d, q->play, c);
                q->flags = (uint8_t)(q->flags | HB_PLAYER_SEEN);
                if (r != NULL && r->first == HB_PLAY_FIRST_NONE) {
                    uint32_t first = n - r->start;
                    r->first =
                        first < HB_PLAY_FIRST_NONE ? (uint16_t)first : (uint16_t)(HB_PLAY_FIRST_NONE - 1u);
                }
                hb_dev3_notice_of(d, q, HB_EVENT_FIRST_OUTPUT, 0, n);
            }
        }
        mix[c].brake = (uint8_t)(mix[c].brake | out.brake);
    }
    /* 6. end notices */
    for (i = 0, q = d->players; i < d->cfg->players; i++, q++) {
        if (ended[i] != HB_PLAYER_GOES_ON) {
            hb_player_record *r =
                hb_dev3_telemetry(d, q, ended[i] == 0u ? HB_EVENT_FINISHED : HB_EVENT_FAULT, ended[i], n);
            if (r != NULL) {
                r->iterations = q->iterations;
            }
        }
    }
    /* 7. channels: mix, limiter, brake rule */
    {
        const hb_channel_config *cc = d->cfg->channels;
        hb_channel3 *ch = d->channels;
        hb_mix *m = mix;
        for (c = 0; c < d->cfg->channel_count; c++, cc++, ch++, m++) {
            hb_sample s = hb_mix_sample(m);
            if (hb_mix_limiter(&ch->full, s.amp, cc->safety_threshold, cc->safety_ticks)) {
                limiter_fault(d, c, m, n);
                m->weight = 0;
                s = hb_mix_sample(m);
            }
            samples[c] = s;
        }
    }
    /* 8. output stage; 9. the stream, credit, silence and the tick */
    for (i = 0, q = d->players; i < d->cfg->players; i++, q++) {
        busy = (uint8_t)(busy | (q->state != HB_PLAYER_FREE));
    }
    hb_dev_output_stage(&d->dev, busy);
    hb_dev3_settle_stream(d);
    hb_dev_step_credit(&d->dev);
    hb_dev_flush_pending(&d->dev);
    if (d->dev.silence != 0xFFFFu) {
        d->dev.silence++;
    }
    d->dev.now++;
}

void hb_device3_set_stage_fault(hb_device3 *d, uint8_t channel, uint8_t code)
{
    if (channel < d->cfg->channel_count) {
        d->channels[channel].fault = code;
    }
}
