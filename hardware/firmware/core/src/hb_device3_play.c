/* The 3.0 device's commands on plays (PROTOCOL-3.md 3.11): PLAY (the pool, 3.3, and the work
 * budget, 3.9), STOP and CONTROL (3.4-3.7), each with its checks in the text's order, and the
 * controls themselves, at once or scheduled. */
#include "hb_device3_private.h"

HB_NOINLINE uint8_t hb_dev3_in_mask(uint16_t mask, uint8_t channel)
{
    return (uint8_t)(((unsigned)mask >> (channel & 15u)) & 1u);
}

uint8_t hb_dev3_matches(const hb_player *pl, uint8_t play, uint16_t mask)
{
    return (uint8_t)(hb_dev3_live(pl) && (play == HB_ALL_PLAYS || pl->play == play)
                     && hb_dev3_in_mask(mask, pl->channel));
}

void hb_dev3_settle_stream(hb_device3 *d)
{
    uint8_t i;
    const hb_player *q;
    if (!HB_PORT_STREAM || d->dev.stream_state != STREAM_PLAYING) {
        return;
    }
    for (i = 0, q = d->players; i < d->cfg->players; i++, q++) {
        if (hb_dev3_live(q) && q->slot == HB_STREAM_SLOT) {
            return;
        }
    }
    hb_dev_stream_close(&d->dev);
}

/* Work figures add up in 16 bits: a player's is at most 255 (a peak) x 4 (ceil(HB_RATE_MAX / 256)),
 * so a pool of 32 and a new play on 16 channels come to at most 48 x 1,020 = 48,960. */
typedef char WORK_FITS_U16[(HB_DEVICE3_MAX_PLAYERS <= 32u && HB_RATE_MAX <= 1024u) ? 1 : -1];

/* A STOP's brake flag is the offset of the scheduled STOP_BRAKE from STOP (STOP_OPS), and a MUTE's
 * value (0 or 1, CONTROL's check) shifted by one is the player's MUTED flag. */
typedef char STOP_OPS[(HB_OP3_STOP_BRAKE == HB_OP3_STOP + 1u && HB_STOP3_BRAKE == 1u && HB_PLAYER_MUTED == 2u)
                          ? 1
                          : -1];

/* PLAY's flag bits moved to the player's by three shifts (PLAY_FLAGS_MOVE). */
typedef char PLAY_FLAGS_MOVE[(HB_PLAY3_AT << 6 == HB_PLAYER_AT && HB_PLAY3_SUM << 1 == HB_PLAYER_SUM
                              && HB_PLAY3_CUT << 1 == HB_PLAYER_CUT && HB_PLAY3_MUTED >> 2 == HB_PLAYER_MUTED)
                                 ? 1
                                 : -1];

static uint8_t rate_valid(uint16_t rate)
{
    return (uint8_t)(rate >= HB_RATE_MIN && rate <= HB_RATE_MAX);
}

/* A channel mask naming a channel the device does not have (channel_count is 1..16: a shift by
 * 0..15, bit channel_count - 1 and below shifted to 1 and 0). */
static uint8_t mask_beyond(const hb_device3 *d, uint16_t mask)
{
    return (uint8_t)(((unsigned)mask >> (uint8_t)(d->cfg->channel_count - 1u)) > 1u);
}

static uint8_t is_old_pending(const hb_player *pl, uint8_t play)
{
    return (uint8_t)(pl->state == HB_PLAYER_PENDING && pl->play == play);
}

/* PLAY's checks 6 and 7 (3.11), then the reservation: one FREE player per channel (the pending
 * play of the same id cancelled first), in pool order for the channels in ascending order. The
 * mask names only channels the device has (PLAY checked it): its bits, lowest first, are the
 * channels. A stream's work figure is HB_STREAM_WORK at 1x (PLAY checked its rate). */
static reply reserve(hb_device3 *d, const hb_play_params *pp, uint16_t mask, const hb_header *header)
{
    uint8_t i, c, channels = 0, free = 0;
    uint8_t peak = header != NULL ? d->slot_peak[pp->slot] : (uint8_t)HB_STREAM_WORK;
    const uint8_t *bytes = header != NULL ? hb_dev_slot_bytes(&d->dev, pp->slot) : NULL;
    uint16_t m, total = 0; /* u16: see WORK_FITS_U16 */
    hb_player *q;
    for (m = mask; m != 0u; m = (uint16_t)(m & (m - 1u))) {
        channels++;
    }
    for (i = 0, q = d->players; i < d->cfg->players; i++, q++) {
        if (q->state == HB_PLAYER_FREE || is_old_pending(q, pp->play)) {
            free++;
        } else {
            total = (uint16_t)(total + hb_player_work(q, d->slot_peak));
        }
    }
    if (free < channels) {
        return hb_dev_nack(HB_ERR_NO_PLAYER, free);
    }
    total = (uint16_t)(total + (uint16_t)(peak * ((pp->rate + 255u) / 256u)) * channels);
    if (total > d->cfg->work_budget) {
        return hb_dev_nack(HB_ERR_WORK_LIMIT, total);
    }
    for (i = 0, q = d->players; i < d->cfg->players; i++, q++) {
        if (is_old_pending(q, pp->play)) {
            q->state = HB_PLAYER_FREE; /* replaced before it started: not reported */
        }
    }
    for (i = 0, c = 0, m = mask, q = d->players; i < d->cfg->players && m != 0u; i++, q++) {
        if (q->state != HB_PLAYER_FREE) {
            continue;
        }
        for (; (m & 1u) == 0u; m >>= 1) {
            c++;
        }
        hb_player_reserve(q, hb_dev3_interp(d), pp, c, bytes, header);
        m >>= 1;
        c++;
    }
    hb_dev_wake_request(&d->dev);
    return hb_dev_ack(hb_dev_start_tick(&d->dev, (uint8_t)(pp->flags & HB_PLAYER_AT), pp->at));
}

reply hb_dev3_cmd_play(hb_device3 *d, const uint8_t *p, uint8_t n, uint8_t seq)
{
    hb_play_params pp;
    hb_header header;
    uint16_t mask;
    uint8_t flags;
    if (n < HB_LEN3_PLAY) {
        return hb_dev_nack(HB_ERR_BAD_LENGTH, 0);
    }
    mask = hb_dev_get_u16(p + 1);
    flags = p[4];
    pp.play = p[0];
    pp.slot = p[3];
    pp.seq = seq;
    pp.flags = (uint8_t)(((flags & HB_PLAY3_AT) << 6) | ((flags & (HB_PLAY3_SUM | HB_PLAY3_CUT)) << 1)
                         | ((flags & HB_PLAY3_MUTED) >> 2)); /* PLAY_FLAGS_MOVE */
    pp.at = hb_dev_get_u32(p + 5);
    pp.scale = p[9];
    pp.offset = (int8_t)(p[10] <= 127u ? (int)p[10] : (int)p[10] - 256);
    pp.loops = hb_dev_get_u16(p + 11);
    pp.loop_end = hb_dev_get_u32(p + 13);
    pp.from = hb_dev_get_u32(p + 17);
    pp.rate = hb_dev_get_u16(p + 21);
    pp.priority = p[23];
    pp.duck = p[24];
    if ((flags & 0xF0u) != 0u || pp.play >= HB_NO_PLAY || mask == 0u || !rate_valid(pp.rate)) {
        return hb_dev_nack(HB_ERR_BAD_PARAM, 0);
    }
    if (mask_beyond(d, mask)) {
        return hb_dev_nack(HB_ERR_BAD_CHANNEL, d->cfg->channel_count);
    }
    if (pp.slot == HB_STREAM_SLOT) { /* 3.12: 2.8's stream checks, then one channel, 1x, once, from 0 */
        if (hb_dev_stream_capacity(&d->dev) == 0u) {
            return hb_dev_nack(HB_ERR_UNSUPPORTED, 0);
        }
        if (d->dev.stream_state == STREAM_PLAYING) {
            return hb_dev_nack(HB_ERR_SLOT_BUSY, 0);
        }
        if (d->dev.stream_state != STREAM_OPEN) {
            return hb_dev_nack(HB_ERR_NO_STREAM, 0);
        }
        if ((mask & (uint16_t)(mask - 1u)) != 0u || pp.rate != HB_RATE_ONE || pp.loops != 1u
            || pp.loop_end != 0u || pp.from != 0u) {
            return hb_dev_nack(HB_ERR_BAD_PARAM, 0);
        }
        return reserve(d, &pp, mask, NULL);
    }
    if (pp.slot >= d->dev.cfg->slot_count) {
        return hb_dev_nack(HB_ERR_BAD_SLOT, 0);
    }
    if (!d->dev.slots[pp.slot].ready) {
        return hb_dev_nack(HB_ERR_NOT_COMMITTED, 0);
    }
    hb_dev3_slot_header(d, pp.slot, &header);
    {
        uint32_t total = header.total_ticks, end = pp.loop_end != 0u ? pp.loop_end : total;
        if (pp.from != 0u && !hb_dev3_seek(d)) { /* 3.13: no SEEK, no `from` */
            return hb_dev_nack(HB_ERR_UNSUPPORTED, 0);
        }
        if (end > total || (total > 0u && pp.from >= end) || (total == 0u && pp.from > 0u)) {
            return hb_dev_nack(HB_ERR_SEEK_RANGE, total);
        }
    }
    return reserve(d, &pp, mask, &header);
}

/* A control kept by each target for its tick (3.7): at most HB_PLAYER_SCHEDULED a player. */
static reply schedule(hb_device3 *d, uint8_t play, uint16_t mask, uint8_t op, uint32_t at)
{
    uint8_t i;
    for (i = 0; i < d->cfg->players; i++) {
        if (hb_dev3_matches(&d->players[i], play, mask)
            && d->players[i].scheduled_count >= HB_PLAYER_SCHEDULED) {
            return hb_dev_nack(HB_ERR_SCHEDULE_FULL, HB_PLAYER_SCHEDULED);
        }
    }
    for (i = 0; i < d->cfg->players; i++) {
        hb_player *q = &d->players[i];
        if (hb_dev3_matches(q, play, mask)) {
            q->scheduled[q->scheduled_count].at = at;
            q->scheduled[q->scheduled_count].op = op;
            q->scheduled_count++;
        }
    }
    return hb_dev_ack(at);
}

reply hb_dev3_cmd_stop(hb_device3 *d, const uint8_t *p, uint8_t n)
{
    uint8_t play, flags, i;
    uint16_t mask, all;
    uint32_t at, bit;
    hb_player *q;
    if (n < HB_LEN3_STOP) {
        return hb_dev_nack(HB_ERR_BAD_LENGTH, 0);
    }
    play = p[0];
    mask = hb_dev_get_u16(p + 1);
    flags = p[3];
    at = hb_dev_get_u32(p + 4);
    if ((flags & (uint8_t) ~(HB_STOP3_BRAKE | HB_STOP3_AT)) != 0u) {
        return hb_dev_nack(HB_ERR_BAD_PARAM, 0);
    }
    if ((flags & HB_STOP3_AT) && hb_dev_tick_diff(at, d->dev.now) > 0) {
        return schedule(d, play, mask, (uint8_t)(HB_OP3_STOP + (flags & HB_STOP3_BRAKE)), at); /* STOP_OPS */
    }
    for (i = 0, q = d->players, bit = 1; i < d->cfg->players; i++, q++, bit <<= 1) {
        if (hb_dev3_matches(q, play, mask)) {
            hb_dev3_stop_player(d, q, (uint8_t)(flags & HB_STOP3_BRAKE), bit);
        }
    }
    all = (uint16_t)(0xFFFFu >> (16u - d->cfg->channel_count)); /* channel_count is 1..16 */
    if (play == HB_ALL_PLAYS && (mask & all) == all) {
        hb_dev_stream_close(&d->dev); /* a session start closes an open stream too (3.12) */
    }
    hb_dev3_settle_stream(d);
    return hb_dev_ack(d->dev.now);
}

uint32_t hb_dev3_apply(hb_device3 *d, hb_player *pl, uint8_t op, uint32_t value)
{
    uint32_t now = d->dev.now;
    switch (op) {
    case HB_OP3_PAUSE: pl->flags = (uint8_t)(pl->flags | HB_PLAYER_PAUSED); break;
    case HB_OP3_RESUME: pl->flags = (uint8_t)(pl->flags & ~HB_PLAYER_PAUSED); break;
    case HB_OP3_SEEK: {
        uint8_t sounding = (uint8_t)(pl->state == HB_PLAYER_PLAYING
                                     && (pl->flags & (HB_PLAYER_PAUSED | HB_PLAYER_FRESH)) == 0u);
        uint8_t fading = (uint8_t)(pl->flags & HB_PLAYER_SEEK_FADE);
        if (!hb_dev3_seek(d)) { /* never: CONTROL refuses it (3.13); and no seek's code is linked */
            break;
        }
        (void)hb_player_seek(pl, hb_dev3_interp(d), value);
        if (fading) { /* a new target, the same end (3.5) */
            return pl->at;
        }
        if (sounding) { /* the held sample fades out, the new position in */
            pl->flags = (uint8_t)(pl->flags | HB_PLAYER_SEEK_FADE);
            pl->at = now + d->fade;
            return pl->at;
        }
        break;
    }
    case HB_OP3_RATE: pl->rate = (uint16_t)value; break;
    case HB_OP3_LOOPS: pl->loops = (uint16_t)value; break;
    case HB_OP3_LOOP_END: pl->loop_end = value != 0u ? value : hb_player_total(pl); break;
    case HB_OP3_MUTE:
        pl->flags = (uint8_t)((pl->flags & ~HB_PLAYER_MUTED) | (unsigned)((uint8_t)value << 1)); /* 0, 1 */
        break;
    case HB_OP3_PRIORITY:
        pl->priority = (uint8_t)(value & 0xFFu);
        pl->duck = (uint8_t)((value >> 8) & 0xFFu);
        break;
    default: hb_dev3_stop_player(d, pl, (uint8_t)(op == HB_OP3_STOP_BRAKE), 0); break;
    }
    return now;
}

/* CONTROL's check 5 (3.11) for one target. */
static uint8_t control_range(const hb_player *q, uint8_t op, uint32_t value)
{
    if (op == HB_OP3_SEEK && value >= q->loop_end) {
        return HB_ERR_SEEK_RANGE;
    }
    if (op == HB_OP3_LOOP_END && (value > hb_player_total(q) || (value != 0u && value <= hb_player_pos(q)))) {
        return HB_ERR_SEEK_RANGE;
    }
    return 0;
}

reply hb_dev3_cmd_control(hb_device3 *d, const uint8_t *p, uint8_t n)
{
    uint8_t play, op, flags, i, targets = 0, stream = 0;
    uint16_t mask;
    uint16_t work = 0; /* WORK_FITS_U16 */
    uint32_t at, value, effect;
    hb_player *q;
    if (n < HB_LEN3_CONTROL) {
        return hb_dev_nack(HB_ERR_BAD_LENGTH, 0);
    }
    play = p[0];
    mask = hb_dev_get_u16(p + 1);
    op = p[3];
    flags = p[4];
    at = hb_dev_get_u32(p + 5);
    value = hb_dev_get_u32(p + 9);
    if (op < HB_OP3_PAUSE || op > HB_OP3_PRIORITY || (flags & 0xFEu) != 0u
        || ((flags & 1u) && op != HB_OP3_PAUSE && op != HB_OP3_RESUME)) {
        return hb_dev_nack(HB_ERR_BAD_PARAM, 0);
    }
    if (mask_beyond(d, mask)) {
        return hb_dev_nack(HB_ERR_BAD_CHANNEL, d->cfg->channel_count);
    }
    for (i = 0, q = d->players; i < d->cfg->players; i++, q++) {
        if (hb_dev3_matches(q, play, mask)) {
            targets++;
            stream = (uint8_t)(stream | (q->slot == HB_STREAM_SLOT));
            work = (uint16_t)(work
                              + hb_player_work_at(q, d->slot_peak,
                                                  op == HB_OP3_RATE ? (uint16_t)value : q->rate));
        } else {
            work = (uint16_t)(work + hb_player_work(q, d->slot_peak));
        }
    }
    if (targets == 0u) {
        return hb_dev_nack(HB_ERR_NO_SUCH_PLAY, 0);
    }
    if (op == HB_OP3_SEEK && !hb_dev3_seek(d)) { /* 3.13: no SEEK */
        return hb_dev_nack(HB_ERR_UNSUPPORTED, 0);
    }
    if (stream && op >= HB_OP3_SEEK && op <= HB_OP3_LOOP_END) { /* 3.12 */
        return hb_dev_nack(op == HB_OP3_SEEK ? HB_ERR_UNSUPPORTED : HB_ERR_BAD_PARAM, 0);
    }
    if (op == HB_OP3_RATE) {
        if (value > 0xFFFFu || !rate_valid((uint16_t)value)) {
            return hb_dev_nack(HB_ERR_BAD_PARAM, 0);
        }
        if (work > d->cfg->work_budget) {
            return hb_dev_nack(HB_ERR_WORK_LIMIT, work);
        }
    }
    for (i = 0, q = d->players; i < d->cfg->players; i++, q++) {
        if (hb_dev3_matches(q, play, mask) && control_range(q, op, value) != 0u) {
            return hb_dev_nack(HB_ERR_SEEK_RANGE, hb_player_total(q));
        }
    }
    if ((op == HB_OP3_LOOPS && value > 0xFFFFu) || (op == HB_OP3_MUTE && value > 1u)) {
        return hb_dev_nack(HB_ERR_BAD_PARAM, 0);
    }
    if ((flags & 1u) && hb_dev_tick_diff(at, d->dev.now) > 0) {
        return schedule(d, play, mask, op, at);
    }
    effect = d->dev.now;
    for (i = 0, q = d->players; i < d->cfg->players; i++, q++) {
        if (hb_dev3_matches(q, play, mask)) {
            effect = hb_dev3_apply(d, q, op, value);
        }
    }
    return hb_dev_ack(effect);
}
