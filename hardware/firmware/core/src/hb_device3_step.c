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
    hb_dev3_notice(d, HB_EVENT_FAULT, q->play, q->channel, q->slot, code, n);
    hb_dev3_record_begin(d, q, HB_EVENT_FAULT, code, n);
    q->state = HB_PLAYER_FREE;
}

/* 1. Every PENDING or PLAYING player on `channel` (0xFF: every channel) ends with FAULT `code`: a
 * PLAYING one brakes from this step, a PENDING one is cancelled with a record (as 2.19). */
static void fault_players(hb_device3 *d, uint8_t channel, uint8_t code, uint32_t n)
{
    uint8_t i, count = d->cfg->players;
    hb_player *q;
    for (i = 0, q = d->players; i < count; i++, q++) {
        if (!hb_dev3_live(q) || (channel != 0xFFu && q->channel != channel)) {
            continue;
        }
        if (q->state == HB_PLAYER_PLAYING) {
            (void)hb_dev3_telemetry(d, q, HB_EVENT_FAULT, code, n);
            hb_player_brake(q, d->cfg->channels[q->channel].brake_ticks);
        } else {
            cancel_pending(d, q, code, n);
        }
        q->scheduled_count = 0;
    }
}

static uint8_t any_live(const hb_device3 *d, uint8_t channel)
{
    uint8_t i;
    for (i = 0; i < d->cfg->players; i++) {
        if (hb_dev3_live(&d->players[i]) && (channel == 0xFFu || d->players[i].channel == channel)) {
            return 1;
        }
    }
    return 0;
}

static void step_faults(hb_device3 *d, uint32_t n)
{
    uint8_t c;
    hb_channel3 *ch = d->channels;
    if (d->dev.watchdog != 0u && d->dev.silence >= d->dev.watchdog && any_live(d, 0xFFu)) {
        fault_players(d, 0xFFu, HB_ERR_WATCHDOG, n);
    }
    for (c = 0; c < d->cfg->channel_count; c++, ch++) {
        if (ch->fault != ch->fault_sent) {
            ch->fault_sent = ch->fault;
            if (ch->fault != 0u) {
                if (any_live(d, c)) {
                    fault_players(d, c, ch->fault, n);
                } else {
                    hb_dev3_notice(d, HB_EVENT_FAULT, HB_NO_PLAY, c, HB_NO_SLOT, ch->fault, n);
                }
            }
        }
    }
}

/* 2. Scheduled controls due at n, player by player, earliest first, equal ticks in arrival order. */
static void step_scheduled(hb_device3 *d, uint32_t n)
{
    uint8_t i, count = d->cfg->players;
    hb_player *q;
    for (i = 0, q = d->players; i < count; i++, q++) {
        while (q->scheduled_count != 0u) {
            uint8_t k, best = 0xFFu;
            for (k = 0; k < q->scheduled_count; k++) {
                int32_t due = hb_dev_tick_diff(n, q->scheduled[k].at);
                if (due >= 0
                    && (best == 0xFFu || hb_dev_tick_diff(q->scheduled[k].at, q->scheduled[best].at) < 0)) {
                    best = k;
                }
            }
            if (best == 0xFFu) {
                break;
            }
            {
                uint8_t op = q->scheduled[best].op;
                for (k = best; k + 1u < q->scheduled_count; k++) {
                    q->scheduled[k] = q->scheduled[k + 1u];
                }
                q->scheduled_count--;
                if (hb_dev3_live(q)) {
                    (void)hb_dev3_apply(d, q, op, 0);
                }
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
        hb_dev3_notice(d, HB_EVENT_STARTED, r->play, r->channel, r->slot, 0, n);
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
    uint16_t brake = d->cfg->channels[c].brake_ticks;
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
    if (d->fade != 0u) {
        slew = (uint16_t)((256u + d->fade - 1u) / d->fade);
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
        ended[i] =
            hb_player_step(q, hb_dev3_interp(d), n, duck[i], slew, d->cfg->channels[c].brake_ticks, &out);
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
                hb_dev3_notice(d, HB_EVENT_FIRST_OUTPUT, q->play, c, q->slot, 0, n);
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
