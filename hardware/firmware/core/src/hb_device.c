/* The device's session (PROTOCOL.md part 2): frames in and dispatched, HELLO and INFO, PING,
 * SET_PARAM, SET_CONFIG, duplicate suppression (2.4), and the commands PLAY, STOP, PREPARE. The
 * other concerns: hb_device_slots.c (filling a slot: UPLOAD, COMMIT), hb_device_stream.c (the
 * stream and its credit), hb_device_telemetry.c (what the device sends), hb_device_step.c (the
 * step). */
#include <string.h>

#include "hb_crc16.h"
#include "hb_device_private.h"
#include "hb_port.h"
#include "hb_program.h"
#include "hb_validate.h"

/* ---- little-endian fields ---- */

uint16_t hb_dev_get_u16(const uint8_t *p)
{
    return (uint16_t)((uint16_t)p[0] | (uint16_t)((uint16_t)p[1] << 8));
}

uint32_t hb_dev_get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

void hb_dev_put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)(v >> 8);
}

void hb_dev_put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)((v >> 8) & 0xFFu);
    p[2] = (uint8_t)((v >> 16) & 0xFFu);
    p[3] = (uint8_t)(v >> 24);
}

/* ---- slots (2.7) ---- */

uint8_t *hb_dev_slot_bytes(const hb_session *dev, uint8_t slot)
{
    return dev->memory + (uint32_t)slot * dev->cfg->slot_capacity;
}

/* ---- commands ---- */

reply hb_dev_nack(uint8_t code, uint32_t value)
{
    reply r;
    r.code = code;
    r.value = value;
    r.after = AFTER_NOTHING;
    r.after_slot = 0;
    return r;
}

reply hb_dev_ack(uint32_t value)
{
    return hb_dev_nack(0, value);
}

void hb_dev_yield(hb_session *dev)
{
    if (dev->yield != NULL) {
        dev->yield(dev->ctx);
    }
}

/* Signed 32-bit distance a - b on the wrapping tick counter. */
int32_t hb_dev_tick_diff(uint32_t a, uint32_t b)
{
    uint32_t d = a - b;
    return d <= 0x7FFFFFFFu ? (int32_t)d : -(int32_t)(0xFFFFFFFFu - d) - 1;
}

HB_NOINLINE uint32_t hb_dev_start_tick(const hb_session *dev, uint8_t at_flag, uint32_t at)
{
    uint32_t start = dev->now;
    if (at_flag && hb_dev_tick_diff(at, dev->now) > 0) {
        start = at;
    }
    if (dev->stage == HB_STAGE_WAKING && hb_dev_tick_diff(dev->now + dev->wake_left, start) > 0) {
        start = dev->now + dev->wake_left;
    }
    return start;
}

static reply cmd_play(hb_session *dev, const uint8_t *p, uint8_t n, uint8_t seq)
{
    uint8_t slot, flags;
    uint16_t loops;
    uint32_t at;
    if (n < HB_LEN_PLAY) {
        return hb_dev_nack(HB_ERR_BAD_LENGTH, 0);
    }
    slot = p[0];
    flags = p[1];
    at = hb_dev_get_u32(p + 2);
    loops = hb_dev_get_u16(p + 8);
    if ((flags & (uint8_t)~HB_PLAY_AT) != 0u) {
        return hb_dev_nack(HB_ERR_BAD_PARAM, 0);
    }
    if (slot == HB_STREAM_SLOT) {
        if (hb_dev_stream_capacity(dev) == 0u) {
            return hb_dev_nack(HB_ERR_UNSUPPORTED, 0);
        }
        if (dev->stream_state == STREAM_PLAYING) {
            return hb_dev_nack(HB_ERR_SLOT_BUSY, 0);
        }
        if (dev->stream_state != STREAM_OPEN) {
            return hb_dev_nack(HB_ERR_NO_STREAM, 0);
        }
        if (loops != 1u) {
            return hb_dev_nack(HB_ERR_BAD_PARAM, 0);
        }
    } else {
        if (slot >= dev->cfg->slot_count) {
            return hb_dev_nack(HB_ERR_BAD_SLOT, 0);
        }
        if (!dev->slots[slot].ready) {
            return hb_dev_nack(HB_ERR_NOT_COMMITTED, 0);
        }
    }
    dev->pending = 1;
    dev->pending_seq = seq;
    dev->pending_slot = slot;
    dev->pending_flags = flags;
    dev->pending_at = at;
    dev->pending_scale = p[6];
    dev->pending_offset = (int8_t)(p[7] <= 127u ? (int)p[7] : (int)p[7] - 256);
    dev->pending_loops = loops;
    hb_dev_wake_request(dev);
    return hb_dev_ack(hb_dev_start_tick(dev, (uint8_t)(flags & HB_PLAY_AT), at));
}

static reply cmd_stop(hb_session *dev, const uint8_t *p, uint8_t n)
{
    reply r;
    uint8_t was_playing;
    if (n < HB_LEN_STOP) {
        return hb_dev_nack(HB_ERR_BAD_LENGTH, 0);
    }
    if ((p[0] & (uint8_t)~HB_STOP_BRAKE) != 0u) {
        return hb_dev_nack(HB_ERR_BAD_PARAM, 0);
    }
    r = hb_dev_ack(dev->now);
    was_playing = (uint8_t)(dev->active && hb_dev2_of(dev)->play.mode == HB_MODE_PLAYING);
    if (was_playing) {
        r.after = AFTER_STOPPED;
        r.after_slot = dev->plays[0].slot;
        hb_dev_play_end(dev, HB_EVENT_STOPPED, HB_STOPPED_BY_HOST, dev->now);
    }
    dev->pending = 0;
    hb_interp_play_stop(&dev->interp, &hb_dev2_of(dev)->play, (uint8_t)(p[0] & HB_STOP_BRAKE));
    hb_dev_stream_close(dev);
    dev->active = 0;
    return r;
}

static reply cmd_prepare(hb_session *dev)
{
    hb_dev_wake_request(dev);
    return hb_dev_ack(dev->stage == HB_STAGE_WAKING ? dev->now + dev->wake_left : dev->now);
}

reply hb_dev_cmd_set_config(hb_session *dev, const uint8_t *p, uint8_t n)
{
    uint32_t value;
    if (n < HB_LEN_SET_CONFIG) {
        return hb_dev_nack(HB_ERR_BAD_LENGTH, 0);
    }
    value = hb_dev_get_u32(p + 1);
    if (p[0] != HB_CONFIG_WATCHDOG) {
        uint8_t code = dev->config_hook != NULL ? dev->config_hook(dev->ctx, p[0], value) : HB_ERR_BAD_PARAM;
        return code == 0u ? hb_dev_ack(value) : hb_dev_nack(code, 0);
    }
    if (value > 0xFFFFu) {
        return hb_dev_nack(HB_ERR_BAD_PARAM, 0);
    }
    dev->watchdog = (uint16_t)value;
    return hb_dev_ack(value);
}

/* ---- session: messages that are not commands, duplicates, dispatch ---- */

void hb_dev_info_fields(const hb_session *dev, uint8_t *p)
{
    const hb_device_config *c = dev->cfg;
    uint16_t caps = (uint16_t)(c->capabilities | HB_CAP_STATUS);
    if (hb_dev_stream_capacity(dev) == 0u) {
        caps = (uint16_t)(caps & (uint16_t)~HB_CAP_STREAM);
    } else {
        caps = (uint16_t)(caps | HB_CAP_STREAM);
    }
    p[0] = HB_PROTOCOL_MAJOR;
    p[1] = HB_PROTOCOL_MINOR;
    p[2] = c->fw_major;
    p[3] = c->fw_minor;
    p[4] = c->fw_patch;
    p[5] = c->actuator;
    hb_dev_put_u16(p + 6, c->profile_id);
    hb_dev_put_u32(p + 8, c->device_id);
    hb_dev_put_u16(p + 12, caps);
    hb_dev_put_u16(p + 14, c->core.rate);
    hb_dev_put_u16(p + 16, c->core.brake_ticks);
    p[18] = c->core.safety_threshold;
    p[19] = c->slot_count;
    hb_dev_put_u32(p + 20, c->core.safety_ticks);
    hb_dev_put_u32(p + 24, c->core.max_body);
    hb_dev_put_u32(p + 28, c->slot_capacity);
    hb_dev_put_u32(p + 32, hb_dev_stream_capacity(dev));
    hb_dev_put_u16(p + 36, c->rx_buffer);
    hb_dev_put_u16(p + 38, c->wake_ticks);
    hb_dev_put_u16(p + 40, c->idle_ticks);
    hb_dev_put_u16(p + 42, dev->watchdog);
}

uint8_t hb_dev_put_name(uint8_t *p, const char *name)
{
    uint8_t count = 0;
    if (name != NULL) {
        while (count < HB_PROFILE_NAME_MAX && name[count] != '\0') {
            p[count] = (uint8_t)name[count];
            count++;
        }
    }
    return count;
}

void hb_dev_send_info(hb_session *dev, uint8_t seq, uint8_t *p, uint8_t length, uint8_t part,
                      uint8_t in_parts)
{
    if (in_parts) {
        /* INFO_PART (2.19): bytes 8 * part .. of the same payload, after `part` and `parts`; the
         * piece is moved down over the fields before it (the frame is built in place). */
        uint8_t parts = (uint8_t)((length + HB_INFO_PART_SIZE - 1u) / HB_INFO_PART_SIZE);
        uint8_t from = part < parts ? (uint8_t)(part * HB_INFO_PART_SIZE) : length;
        uint8_t count = (uint8_t)(length - from);
        if (count > HB_INFO_PART_SIZE) {
            count = HB_INFO_PART_SIZE;
        }
        memmove(p + 2, p + from, count);
        p[0] = part;
        p[1] = parts;
        hb_dev_send_frame(dev, HB_MSG_INFO_PART, seq, p, (uint8_t)(2u + count), 1);
        return;
    }
    hb_dev_send_frame(dev, HB_MSG_INFO, seq, p, length, 1);
}

static void send_info(hb_session *dev, uint8_t seq, uint8_t part, uint8_t in_parts)
{
    uint8_t p[HB_LEN_INFO + HB_PROFILE_NAME_MAX];
    uint8_t name;
    hb_dev_info_fields(dev, p);
    name = hb_dev_put_name(p + HB_LEN_INFO, dev->cfg->profile_name);
    hb_dev_send_info(dev, seq, p, (uint8_t)(HB_LEN_INFO + name), part, in_parts);
}

uint8_t hb_dev_hello_accepted(hb_session *dev, uint8_t seq, const uint8_t *p, uint8_t n, uint8_t major,
                              uint8_t minor)
{
    dev->last_kind = REPLY_NONE; /* never a duplicate; a new session starts clean (2.4) */
    if (n < HB_LEN_HELLO) {
        hb_dev_send_response(dev, seq, REPLY_NACK, HB_MSG_HELLO, HB_ERR_BAD_LENGTH, 0);
    } else if (p[0] != major) {
        hb_dev_send_response(dev, seq, REPLY_NACK, HB_MSG_HELLO, HB_ERR_VERSION_INCOMPATIBLE,
                             (uint32_t)((uint32_t)major << 8) | minor);
    } else {
        return 1;
    }
    return 0;
}

static void on_hello(hb_session *dev, uint8_t seq, const uint8_t *p, uint8_t n)
{
    if (hb_dev_hello_accepted(dev, seq, p, n, HB_PROTOCOL_MAJOR, HB_PROTOCOL_MINOR)) {
        send_info(dev, seq, n >= HB_LEN_HELLO_PART ? p[2] : 0u, (uint8_t)(n >= HB_LEN_HELLO_PART));
    }
}

void hb_dev_on_ping(hb_session *dev, uint8_t seq, const uint8_t *p)
{
    uint8_t out[HB_LEN_PONG];
    memcpy(out, p, 4);
    hb_dev_put_u32(out + 4, dev->now);
    hb_dev_put_u16(out + 8, dev->subtick != NULL ? dev->subtick(dev->ctx) : 0u);
    hb_dev_send_reply(dev, HB_MSG_PONG, seq, out, sizeof out);
}

/* DIAG (2.18): the board's output stage, with the stage fault the device holds; sent in pieces
 * like INFO (it does not fit the held-reply buffer). */
static void on_diag(hb_session *dev, uint8_t seq)
{
    uint8_t out[HB_LEN_DIAG_REPORT];
    memset(out, 0, sizeof out);
    if (dev->diag != NULL) {
        dev->diag(dev->ctx, out);
    }
    out[1] = dev->stage_fault;
    hb_dev_send_frame(dev, HB_MSG_DIAG_REPORT, seq, out, sizeof out, 1);
}

static void on_set_param(hb_session *dev, const uint8_t *p)
{
    int8_t offset = (int8_t)(p[1] <= 127u ? (int)p[1] : (int)p[1] - 256);
    hb_interp_shared_set_scale(&dev->interp, p[0]);
    dev->interp.offset = offset;
    if (dev->pending) {
        dev->pending_scale = p[0];
        dev->pending_offset = offset;
    }
}

static void on_command(hb_session *dev, const hb_frame_header *h, const uint8_t *p, uint8_t n, uint16_t crc)
{
    reply r;
    if (hb_dev_answer_duplicate(dev, h->sequence, crc)) {
        return;
    }
    switch (h->type) {
    case HB_MSG_UPLOAD: r = hb_dev_cmd_upload(dev, p, n); break;
    case HB_MSG_COMMIT: r = hb_dev_cmd_commit(dev, p, n); break;
    case HB_MSG_PLAY: r = cmd_play(dev, p, n, h->sequence); break;
    case HB_MSG_STOP: r = cmd_stop(dev, p, n); break;
    case HB_MSG_PREPARE: r = cmd_prepare(dev); break;
    case HB_MSG_STREAM_OPEN: r = hb_dev_cmd_stream_open(dev, p, n); break;
    case HB_MSG_SET_CONFIG: r = hb_dev_cmd_set_config(dev, p, n); break;
    default: r = hb_dev_nack(HB_ERR_UNKNOWN_MESSAGE, 0); break;
    }
    hb_dev_answer(dev, h, crc, &r);
    if (r.after == AFTER_STOPPED) {
        hb_dev_telemetry(dev, HB_EVENT_STOPPED, r.after_slot, HB_STOPPED_BY_HOST, dev->now);
    } else if (r.after == AFTER_CREDIT) {
        hb_dev_send_credit(dev);
    }
}

static HB_NOINLINE void on_frame(hb_session *dev)
{
    hb_frame_header h;
    const uint8_t *p;
    uint8_t n;
    uint16_t crc;
    if (hb_dev_frame_shared(dev, &h, &p, &n, &crc)) {
        return;
    }
    switch (h.type) {
    case HB_MSG_SET_PARAM:
        if (n >= HB_LEN_SET_PARAM) {
            on_set_param(dev, p);
        }
        break;
    case HB_MSG_DIAG: on_diag(dev, h.sequence); break;
    case HB_MSG_QUERY: hb_dev_on_query(dev, h.sequence, p, n); break;
    case HB_MSG_HELLO:
        /* HELLO takes effect before any step its INFO lets run (hb_dev_send_frame): its reply goes out
         * before their notices (hb_dev_send_frame), so the silence it ends is ended before them too. */
        dev->silence = 0;
        on_hello(dev, h.sequence, p, n);
        return;
    default: on_command(dev, &h, p, n, crc); break;
    }
    /* Last: steps the board ran from the yield hook while this frame was handled came before
     * the frame took effect (2.3), so they count toward the silence it ends. */
    dev->silence = 0;
}

/* ---- public API ---- */

void hb_device_config_default(hb_device_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    hb_config_default(&cfg->core);
    cfg->slot_count = HB_DEVICE_DEFAULT_SLOT_COUNT;
    cfg->slot_capacity = HB_DEVICE_DEFAULT_SLOT_CAPACITY;
    cfg->stream_capacity = HB_DEVICE_DEFAULT_STREAM_CAPACITY;
    cfg->rx_buffer = HB_DEVICE_DEFAULT_RX_BUFFER;
    cfg->wake_ticks = HB_DEVICE_DEFAULT_WAKE_TICKS;
    cfg->idle_ticks = HB_DEVICE_DEFAULT_IDLE_TICKS;
    cfg->watchdog = HB_DEVICE_DEFAULT_WATCHDOG;
    cfg->profile_name = NULL;
}

uint8_t hb_dev_boot(hb_session *dev, const hb_device_config *cfg, uint8_t *program_memory,
                    uint8_t *stream_ring, hb_device_tx_fn tx, void *ctx, uint8_t major, uint8_t minor)
{
    uint8_t p[HB_LEN_RESET];
    if (cfg->slot_count == 0u || cfg->slot_count > HB_DEVICE_MAX_SLOTS
        || (cfg->stream_capacity & (cfg->stream_capacity - 1u)) != 0u
        || (!HB_PORT_STREAM && cfg->stream_capacity != 0u)) {
        return 0;
    }
    memset(dev, 0, sizeof *dev);
    dev->cfg = cfg;
    dev->memory = program_memory;
    dev->ring_storage = stream_ring;
    dev->tx = tx;
    dev->ctx = ctx;
    dev->watchdog = cfg->watchdog;
    hb_interp_shared_init(&dev->interp, &cfg->core);
    hb_frame_decoder_init(&dev->rx);
    if (cfg->wake_ticks == 0u) { /* nothing to wake: warm from the start */
        dev->stage = HB_STAGE_WARM;
        dev->idle_left = cfg->idle_ticks;
    } else {
        dev->stage = HB_STAGE_COLD;
    }
    p[0] = major;
    p[1] = minor;
    p[2] = cfg->reset_reason;
    hb_dev_put_u32(p + 3, cfg->boot_count);
    hb_dev_notice(dev, HB_MSG_RESET, p, sizeof p);
    return 1;
}

uint8_t hb_device_init(hb_device *dev, const hb_device_config *cfg, uint8_t *program_memory,
                       uint8_t *stream_ring, hb_device_tx_fn tx, void *ctx)
{
    hb_interp_play_init(&dev->play);
    return hb_dev_boot(&dev->s, cfg, program_memory, stream_ring, tx, ctx, HB_PROTOCOL_MAJOR,
                       HB_PROTOCOL_MINOR);
}

void hb_device_set_subtick(hb_device *dev, hb_device_subtick_fn subtick)
{
    dev->s.subtick = subtick;
}

void hb_device_set_yield(hb_device *dev, hb_yield_fn yield)
{
    dev->s.yield = yield;
}

void hb_device_set_diag(hb_device *dev, hb_device_diag_fn diag)
{
    dev->s.diag = diag;
}

void hb_device_set_config_hook(hb_device *dev, hb_device_config_fn hook)
{
    dev->s.config_hook = hook;
}

void hb_device_receive_byte(hb_device *dev, uint8_t byte)
{
    hb_dev_settle(&dev->s);
    hb_dev_receive_byte_with(&dev->s, byte, on_frame);
}

void hb_device_receive(hb_device *dev, const uint8_t *bytes, uint16_t length)
{
    uint16_t i;
    for (i = 0; i < length; i++) {
        hb_device_receive_byte(dev, bytes[i]);
    }
}
