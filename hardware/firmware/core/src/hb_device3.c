/* The 3.0 device's session (PROTOCOL-3.md 3.11, 3.14): boot, bytes in, frames dispatched to 3.0's
 * messages, HELLO and INFO 3.0, DESCRIBE / CHANNEL_INFO, DIAG per channel, SET_PARAM per play,
 * SET_CONFIG keys 3-6, and the commands with 2.0's duplicate rule. The frame layer, PING, the
 * stream's data and UPLOAD are 2.0's, called. */
#include <string.h>

#include "hb_device3_private.h"
#include "hb_trim.h"

/* The port's tables fit the wire: channel masks are u16 (3.11), and `stopped` is a u32 of players. */
typedef char hb_device3_channels_fit_a_mask[HB_DEVICE3_MAX_CHANNELS <= 16u ? 1 : -1];
typedef char hb_device3_players_fit_stopped[HB_DEVICE3_MAX_PLAYERS <= 32u ? 1 : -1];

static void send_info(hb_device3 *d, uint8_t seq, uint8_t part, uint8_t in_parts)
{
    const hb_channel_config *c0 = &d->cfg->channels[0];
    uint8_t p[HB_LEN3_INFO + HB_PROFILE_NAME_MAX];
    uint8_t name;
    hb_dev_info_fields(&d->dev, p); /* 2.6's offsets 0..43; the per-channel ones are channel 0's */
    if (!hb_dev3_seek(d)) {         /* capability bit 9 only if the port has SEEK too (3.13) */
        p[13] = (uint8_t)(p[13] & ~(HB_CAP_SEEK >> 8));
    }
    p[0] = HB_PROTOCOL3_MAJOR;
    p[1] = HB_PROTOCOL3_MINOR;
    p[5] = c0->actuator;
    hb_dev_put_u16(p + 6, c0->profile_id);
    hb_dev_put_u16(p + 16, c0->brake_ticks);
    p[18] = c0->safety_threshold;
    hb_dev_put_u32(p + 20, c0->safety_ticks);
    p[44] = d->cfg->channel_count;
    p[45] = d->cfg->players;
    p[46] = d->cfg->work_budget;
    p[47] = d->fade;
    hb_dev_put_u16(p + 48, (uint16_t)d->trim);
    p[50] = (uint8_t)(d->sync & 3u);
    p[51] = 0;
    name = hb_dev_put_name(p + HB_LEN3_INFO, c0->profile_name);
    hb_dev_send_info(&d->dev, seq, p, (uint8_t)(HB_LEN3_INFO + name), part, in_parts);
}

static void on_describe(hb_device3 *d, uint8_t seq, const uint8_t *p, uint8_t n)
{
    uint8_t out[HB_LEN3_CHANNEL_INFO + HB_PROFILE_NAME_MAX], name;
    const hb_channel_config *c;
    if (n < 1u || p[0] >= d->cfg->channel_count) {
        return;
    }
    c = &d->cfg->channels[p[0]];
    out[0] = p[0];
    out[1] = c->actuator;
    out[2] = c->stage;
    out[3] = c->caps;
    hb_dev_put_u16(out + 4, c->profile_id);
    hb_dev_put_u16(out + 6, c->brake_ticks);
    out[8] = c->safety_threshold;
    out[9] = 0;
    hb_dev_put_u32(out + 10, c->safety_ticks);
    hb_dev_put_u16(out + 14, c->rated_mv);
    hb_dev_put_u16(out + 16, c->limit_mv);
    hb_dev_put_u16(out + 18, c->wake_ticks);
    name = hb_dev_put_name(out + HB_LEN3_CHANNEL_INFO, c->profile_name);
    hb_dev_send_frame(&d->dev, HB_MSG_CHANNEL_INFO, seq, out, (uint8_t)(HB_LEN3_CHANNEL_INFO + name), 0);
}

/* DIAG (3.11): the channel, then the board's 18 bytes (2.18) with that channel's stage fault. */
static void on_diag(hb_device3 *d, uint8_t seq, const uint8_t *p, uint8_t n)
{
    uint8_t out[HB_LEN3_DIAG_REPORT];
    uint8_t channel = n >= 1u ? p[0] : 0u;
    if (channel >= d->cfg->channel_count) {
        return;
    }
    memset(out, 0, sizeof out);
    out[0] = channel;
    if (d->dev.diag != NULL) {
        d->dev.diag(d->dev.ctx, out + 1);
    }
    out[2] = d->channels[channel].fault;
    hb_dev_send_frame(&d->dev, HB_MSG_DIAG_REPORT, seq, out, sizeof out, 1);
}

static void on_set_param(hb_device3 *d, const uint8_t *p)
{
    uint8_t i, play = p[2];
    uint16_t mask = hb_dev_get_u16(p + 3);
    hb_player *q;
    for (i = 0, q = d->players; i < d->cfg->players; i++, q++) {
        if (hb_dev3_matches(q, play, mask)) {
            q->scale = p[0];
            q->offset = (int8_t)(p[1] <= 127u ? (int)p[1] : (int)p[1] - 256);
        }
    }
}

static reply cmd_set_config(hb_device3 *d, const uint8_t *p, uint8_t n)
{
    uint32_t value;
    uint16_t caps = d->dev.cfg->capabilities;
    if (n < HB_LEN_SET_CONFIG || p[0] < HB_CONFIG_FADE_TICKS || p[0] > HB_CONFIG_SYNC_PHASE) {
        return hb_dev_cmd_set_config(&d->dev, p, n); /* 2.0's keys and the board's */
    }
    value = hb_dev_get_u32(p + 1);
    if (p[0] == HB_CONFIG_FADE_TICKS && value <= 255u) {
        d->fade = (uint8_t)value;
    } else if (p[0] == HB_CONFIG_TRIM && (caps & HB_CAP_TRIM) && hb_trim_valid((int32_t)value)) {
        d->trim = (int16_t)(int32_t)value;
    } else if (p[0] == HB_CONFIG_SYNC && (caps & HB_CAP_SYNC_WIRE) && (value & 0xFFFFu) <= 2u
               && (value >> 16) != 0u) {
        d->sync = value;
    } else if (p[0] == HB_CONFIG_SYNC_PHASE && (caps & HB_CAP_SYNC_WIRE) && value < (d->sync >> 16)) {
        d->sync_phase = (uint16_t)value;
    } else {
        return hb_dev_nack(HB_ERR_BAD_PARAM, 0);
    }
    return hb_dev_ack(value);
}

/* Players a STOP ended: their TELEMETRY STOPPED after the ACK, in pool order. */
static void send_stopped(hb_device3 *d)
{
    const hb_player *q = d->players;
    uint32_t stopped = d->stopped; /* shifted one player a turn: no u32 shift by a count */
    for (; stopped != 0u; stopped >>= 1, q++) {
        if (stopped & 1u) {
            hb_dev3_notice_of(d, q, HB_EVENT_STOPPED, HB_STOPPED_BY_HOST, d->dev.now);
        }
    }
    d->stopped = 0;
}

static HB_NOINLINE void on_command(hb_device3 *d, const hb_frame_header *h, const uint8_t *p, uint8_t n,
                                   uint16_t crc)
{
    reply r;
    if (hb_dev_answer_duplicate(&d->dev, h->sequence, crc)) {
        return;
    }
    switch (h->type) {
    case HB_MSG_UPLOAD: r = hb_dev3_cmd_upload(d, p, n); break;
    case HB_MSG_COMMIT: r = hb_dev3_cmd_commit(d, p, n); break;
    case HB_MSG_PLAY: r = hb_dev3_cmd_play(d, p, n, h->sequence); break;
    case HB_MSG_STOP: r = hb_dev3_cmd_stop(d, p, n); break;
    case HB_MSG_PREPARE:
        hb_dev_wake_request(&d->dev);
        r = hb_dev_ack(hb_dev_start_tick(&d->dev, 0, 0));
        break;
    case HB_MSG_STREAM_OPEN: r = hb_dev3_cmd_stream_open(d, p, n); break;
    case HB_MSG_SET_CONFIG: r = cmd_set_config(d, p, n); break;
    case HB_MSG_CONTROL: r = hb_dev3_cmd_control(d, p, n); break;
    default: r = hb_dev_nack(HB_ERR_UNKNOWN_MESSAGE, 0); break;
    }
    hb_dev_answer(&d->dev, h, crc, &r);
    send_stopped(d);
    if (r.after == AFTER_CREDIT) {
        hb_dev_send_credit(&d->dev);
    }
}

static void on_frame(hb_session *dev)
{
    hb_device3 *d = hb_dev3_of(dev);
    hb_frame_header h;
    const uint8_t *p;
    uint8_t n;
    uint16_t crc;
    if (hb_dev_frame_shared(dev, &h, &p, &n, &crc)) {
        return;
    }
    switch (h.type) {
    case HB_MSG_SET_PARAM:
        if (n >= HB_LEN3_SET_PARAM) {
            on_set_param(d, p);
        }
        break;
    case HB_MSG_DIAG: on_diag(d, h.sequence, p, n); break;
    case HB_MSG_QUERY: hb_dev3_on_query(d, h.sequence, p, n); break;
    case HB_MSG_DESCRIBE: on_describe(d, h.sequence, p, n); break;
    case HB_MSG_HELLO:
        dev->silence = 0; /* as 2.0's: before the steps its INFO lets run */
        if (hb_dev_hello_accepted(dev, h.sequence, p, n, HB_PROTOCOL3_MAJOR, HB_PROTOCOL3_MINOR)) {
            send_info(d, h.sequence, n >= HB_LEN_HELLO_PART ? p[2] : 0u, (uint8_t)(n >= HB_LEN_HELLO_PART));
        }
        return;
    default: on_command(d, &h, p, n, crc); break;
    }
    dev->silence = 0; /* steps a yield ran while it was handled came before it (2.3) */
}

uint8_t hb_device3_init(hb_device3 *d, const hb_device3_config *cfg, uint8_t *program_memory,
                        uint8_t *stream_ring, hb_device_tx_fn tx, void *ctx)
{
    if (cfg->channel_count == 0u || cfg->channel_count > HB_DEVICE3_MAX_CHANNELS || cfg->players == 0u
        || cfg->players > HB_DEVICE3_MAX_PLAYERS || cfg->channels == NULL) {
        return 0;
    }
    memset(d, 0, sizeof *d);
    d->cfg = cfg;
    d->fade = cfg->fade_ticks;
    if (!hb_dev_boot(&d->dev, &cfg->base, program_memory, stream_ring, tx, ctx, HB_PROTOCOL3_MAJOR,
                     HB_PROTOCOL3_MINOR)) {
        return 0;
    }
    hb_player_shared_init(hb_dev3_interp(d), &cfg->base.core);
    return 1;
}

void hb_device3_receive_byte(hb_device3 *d, uint8_t byte)
{
    hb_dev_receive_byte_with(&d->dev, byte, on_frame);
}

void hb_device3_receive(hb_device3 *d, const uint8_t *bytes, uint16_t length)
{
    uint16_t i;
    for (i = 0; i < length; i++) {
        hb_device3_receive_byte(d, bytes[i]);
    }
}

int16_t hb_device3_trim(const hb_device3 *d)
{
    return d->trim;
}
