/* What the 3.0 device tells the host about plays (PROTOCOL-3.md 3.11): TELEMETRY, one notice per
 * channel of a play, and the records QUERY reads (STATUS): a player keeps the record of its last
 * play until it starts another; one record per (play, channel), the newest. */
#include <stddef.h>
#include <string.h>

#include "hb_device3_private.h"

HB_NOINLINE uint16_t hb_dev3_brake_ticks(const hb_device3 *d, uint8_t channel)
{
    return d->cfg->channels[channel].brake_ticks;
}

HB_NOINLINE void hb_dev3_notice(hb_device3 *d, uint8_t event, uint8_t play, uint8_t channel, uint8_t slot,
                                uint8_t code, uint32_t tick)
{
    uint8_t p[HB_LEN3_TELEMETRY];
    p[0] = event;
    p[1] = play;
    p[2] = channel;
    p[3] = slot;
    p[4] = code;
    hb_dev_put_u32(p + 5, tick);
    hb_dev_notice(&d->dev, HB_MSG_TELEMETRY, p, sizeof p);
}

hb_player_record *hb_dev3_record(hb_device3 *d, uint8_t play, uint8_t channel)
{
    uint8_t i, count = d->cfg->players;
    hb_player *q;
    for (i = 0, q = d->players; i < count; i++, q++) {
        hb_player_record *r = &q->record;
        if (r->state != 0u && r->play == play && r->channel == channel) {
            return r;
        }
    }
    return NULL;
}

hb_player_record *hb_dev3_record_end(hb_device3 *d, const hb_player *pl, uint8_t state, uint8_t code,
                                     uint32_t tick)
{
    hb_player_record *r = hb_dev3_record(d, pl->play, pl->channel);
    if (r != NULL) {
        r->state = state;
        r->code = code;
        r->end = tick;
    }
    return r;
}

void hb_dev3_notice_of(hb_device3 *d, const hb_player *pl, uint8_t event, uint8_t code, uint32_t tick)
{
    hb_dev3_notice(d, event, pl->play, pl->channel, pl->slot, code, tick);
}

hb_player_record *hb_dev3_telemetry(hb_device3 *d, const hb_player *pl, uint8_t event, uint8_t code,
                                    uint32_t tick)
{
    hb_dev3_notice_of(d, pl, event, code, tick);
    return event >= HB_EVENT_FINISHED ? hb_dev3_record_end(d, pl, event, code, tick) : NULL;
}

HB_NOINLINE void hb_dev3_record_begin(hb_device3 *d, hb_player *pl, uint8_t state, uint8_t code,
                                      uint32_t tick)
{
    hb_player_record *old = hb_dev3_record(d, pl->play, pl->channel), *r = &pl->record;
    if (old != NULL) {
        old->state = 0; /* the newest record of (play, channel) replaces it */
    }
    r->start = tick;
    r->end = state == HB_PLAY_PLAYING ? 0u : tick;
    r->first = HB_PLAY_FIRST_NONE;
    r->iterations = 0;
    r->state = state;
    r->play = pl->play;
    r->channel = pl->channel;
    r->seq = pl->seq;
    r->slot = pl->slot;
    r->code = code;
}

HB_NOINLINE void hb_dev3_stop_player(hb_device3 *d, hb_player *pl, uint8_t brake, uint32_t after)
{
    if (pl->state == HB_PLAYER_PLAYING) {
        if (after != 0u) { /* the record now, the notice after the ACK */
            (void)hb_dev3_record_end(d, pl, HB_EVENT_STOPPED, HB_STOPPED_BY_HOST, d->dev.now);
            d->stopped |= after;
        } else {
            (void)hb_dev3_telemetry(d, pl, HB_EVENT_STOPPED, HB_STOPPED_BY_HOST, d->dev.now);
        }
        hb_player_brake(pl, brake ? hb_dev3_brake_ticks(d, pl->channel) : 0u);
    } else {
        pl->state = HB_PLAYER_FREE;
    }
    pl->scheduled_count = 0;
}

/* STATUS (3.11), 29 bytes: a pending play first, else the record; the player's position, state
 * bits and rate while it is pending or playing. */
void hb_dev3_on_query(hb_device3 *d, uint8_t seq, const uint8_t *p, uint8_t n)
{
    uint8_t out[HB_LEN3_STATUS], i, status = 0;
    const hb_player *live = NULL, *q;
    const hb_player_record *r;
    if (n < HB_LEN3_QUERY) {
        return;
    }
    memset(out, 0, sizeof out);
    hb_dev_put_u32(out, d->dev.now);
    out[4] = p[0];
    out[5] = p[1];
    out[14] = 0xFFu;
    out[15] = 0xFFu;
    for (i = 0, q = d->players; i < d->cfg->players; i++, q++) {
        if (q->state == HB_PLAYER_PENDING && q->play == p[0] && q->channel == p[1]) {
            out[6] = HB_PLAY3_PENDING;
            out[7] = q->seq;
            out[8] = q->slot;
            live = q;
            status = HB_STATUS3_PENDING;
            break;
        }
    }
    r = live == NULL ? hb_dev3_record(d, p[0], p[1]) : NULL;
    if (r != NULL) {
        const hb_player *owner =
            (const hb_player *)(const void *)((const uint8_t *)r - offsetof(hb_player, record));
        out[6] = r->state;
        out[7] = r->seq;
        out[8] = r->slot;
        out[9] = r->code;
        hb_dev_put_u32(out + 10, r->start);
        hb_dev_put_u16(out + 14, r->first); /* as recorded: NONE, or the delay, at most NONE - 1 */
        hb_dev_put_u32(out + 16, r->end);
        if (owner->state == HB_PLAYER_PLAYING && owner->play == p[0] && owner->channel == p[1]) {
            live = owner;
            hb_dev_put_u16(out + 24, live->iterations);
        } else {
            hb_dev_put_u16(out + 24, r->iterations);
        }
    }
    if (live != NULL) {
        hb_dev_put_u32(out + 20, hb_player_pos(live));
        out[26] = (uint8_t)(status | (live->flags & HB_PLAYER_PAUSED ? HB_STATUS3_PAUSED : 0u)
                            | (live->flags & HB_PLAYER_MUTED ? HB_STATUS3_MUTED : 0u));
        hb_dev_put_u16(out + 27, live->rate);
    }
    hb_dev_send_frame(&d->dev, HB_MSG_STATUS, seq, out, sizeof out, 0);
}
