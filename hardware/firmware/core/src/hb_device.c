#include "hb_device.h"

#include <string.h>

#include "hb_crc16.h"
#include "hb_program.h"
#include "hb_validate.h"

enum { STREAM_CLOSED = 0, STREAM_OPEN = 1, STREAM_PLAYING = 2 };
enum { REPLY_NONE = 0, REPLY_ACK = 1, REPLY_NACK = 2 };
enum { AFTER_NOTHING = 0, AFTER_STOPPED = 1, AFTER_CREDIT = 2 };

/* A command's outcome: the response, and the notice that follows it, if any. */
typedef struct {
    uint32_t value;
    uint8_t code;      /* 0: ACK */
    uint8_t after;
    uint8_t after_slot;
} reply;

/* ---- little-endian fields ---- */

static uint16_t get_u16(const uint8_t *p)
{
    return (uint16_t)((uint16_t)p[0] | (uint16_t)((uint16_t)p[1] << 8));
}

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static void put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)(v >> 8);
}

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)((v >> 8) & 0xFFu);
    p[2] = (uint8_t)((v >> 16) & 0xFFu);
    p[3] = (uint8_t)(v >> 24);
}

/* ---- sending ---- */

static void flush_notices(hb_device *dev);

static void yield_unless_queued(void *ctx);

/* Encodes one frame and hands it to the transmit callback.
 *
 * With `pieces`, a long reply (INFO: 68 bytes on the wire, about 6,500 cycles to encode and hand
 * to the UART on the ATmega328P) from a frame that touches nothing a step reads (HELLO) goes out
 * in pieces with the board's yield hook between them: the checksum 16 bytes at a time, then the
 * wire bytes 16 at a time. A step that runs meanwhile keeps its notices queued until the frame is
 * out (`sending` holds hb_device_flush back), so the frame is never split on the wire and the
 * bytes are the same; and once a step has queued notices no further piece yields, so no second
 * step runs (its start would have to flush them). */
#define TX_PIECE 16u

static void transmit(hb_device *dev, uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t length,
                     uint8_t pieces)
{
    uint8_t wire[HB_DEVICE_TX_MAX];
    hb_frame_header header;
    size_t n, done;
    pieces = (uint8_t)(pieces && dev->yield != NULL);
    dev->sending = pieces;
    header.version = HB_FRAME_VERSION;
    header.type = type;
    header.sequence = seq;
    header.flags = 0;
    n = hb_frame_encode_yielding(&header, payload, length, wire, sizeof wire,
                                 pieces ? yield_unless_queued : NULL, dev);
    for (done = 0; n != 0u && dev->tx != NULL && done < n;) {
        size_t piece = pieces && n - done > TX_PIECE ? TX_PIECE : n - done;
        dev->tx(dev->ctx, wire + done, (uint16_t)piece);
        done += piece;
        if (done < n) {
            yield_unless_queued(dev);
        }
    }
    dev->sending = 0;
}

/* What is held back goes out oldest first: a held reply (hb_device_set_deferred_replies) is
 * always older than queued notices, since the frame that made it flushed any before it. */
static void flush_pending(hb_device *dev)
{
    if (dev->reply_held) {
        dev->reply_held = 0;
        transmit(dev, dev->reply_type, dev->reply_seq, dev->reply_payload, dev->reply_length, 0);
    }
    if (dev->queued_count != 0u) {
        flush_notices(dev);
    }
}

/* Every frame goes out after what is held back, so the order on the wire is the order of events
 * whatever the board does (hb_device.h). */
static void send_frame(hb_device *dev, uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t length,
                       uint8_t pieces)
{
    flush_pending(dev);
    transmit(dev, type, seq, payload, length, pieces);
    if (pieces && dev->queued_count != 0u) {
        flush_notices(dev); /* the notices of a step that ran between the pieces */
    }
}

static void send(hb_device *dev, uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t length)
{
    send_frame(dev, type, seq, payload, length, 0);
}

/* A reply to a frame (ACK, NACK, PONG): held until hb_device_flush when the board asked for it, so
 * that a step that is due runs before the reply is encoded; its notices then follow the reply,
 * as they would have. */
static void send_reply(hb_device *dev, uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t length)
{
    if (dev->defer_replies && length <= sizeof dev->reply_payload) {
        flush_pending(dev);
        memcpy(dev->reply_payload, payload, length);
        dev->reply_type = type;
        dev->reply_seq = seq;
        dev->reply_length = length;
        dev->reply_held = 1;
    } else {
        send(dev, type, seq, payload, length);
    }
}

static void yield_unless_queued(void *ctx)
{
    hb_device *dev = (hb_device *)ctx;
    if (dev->queued_count == 0u) {
        dev->yield(dev->ctx);
    }
}

/* Notices number themselves (2.2.1). */
static void notice(hb_device *dev, uint8_t type, const uint8_t *payload, uint8_t length)
{
    send(dev, type, dev->notice_seq, payload, length);
    dev->notice_seq++;
}

static void telemetry_frame(hb_device *dev, uint8_t event, uint8_t slot, uint8_t code, uint32_t tick)
{
    uint8_t p[HB_LEN_TELEMETRY];
    p[0] = event;
    p[1] = slot;
    p[2] = code;
    put_u32(p + 3, tick);
    notice(dev, HB_MSG_TELEMETRY, p, sizeof p);
}

/* CREDIT(next, limit): `granted` is the limit, set when the credit was decided. */
static void credit_frame(hb_device *dev)
{
    uint8_t p[HB_LEN_CREDIT];
    put_u32(p, dev->ring.written);
    put_u32(p + 4, dev->granted);
    notice(dev, HB_MSG_CREDIT, p, sizeof p);
}

/* Sends the notices the last step queued, oldest first, exactly as the step would have sent
 * them: TELEMETRY's tick is the step's (now - 1 after it, nothing else advances now), CREDIT's
 * fields are the ring's and the grant's, which nothing changes between the step and this call
 * (the device flushes before it takes a received byte, hb_device_receive_byte). */
static void flush_notices(hb_device *dev)
{
    uint32_t tick = dev->in_step ? dev->now : dev->now - 1u;
    uint8_t count = dev->queued_count, i;
    dev->queued_count = 0; /* sending goes through send(), which must not flush again */
    for (i = 0; i < count; i++) {
        const hb_device_notice *q = &dev->queued[i];
        if (q->event == HB_DEVICE_NOTICE_CREDIT) {
            credit_frame(dev);
        } else {
            telemetry_frame(dev, q->event, q->slot, q->code, tick);
        }
    }
}

/* A step only records its notices; hb_device_flush encodes and sends them. */
static void queue_notice(hb_device *dev, uint8_t event, uint8_t slot, uint8_t code)
{
    hb_device_notice *q;
    if (dev->queued_count == HB_DEVICE_NOTICE_QUEUE) {
        flush_notices(dev); /* cannot happen (hb_device.h bounds a step's notices); stays in order */
    }
    q = &dev->queued[dev->queued_count++];
    q->event = event;
    q->slot = slot;
    q->code = code;
}

/* `tick` is `now` outside a step, and the step's own tick inside one. */
static void telemetry(hb_device *dev, uint8_t event, uint8_t slot, uint8_t code, uint32_t tick)
{
    if (dev->in_step) {
        queue_notice(dev, event, slot, code);
    } else {
        telemetry_frame(dev, event, slot, code, tick);
    }
}

static void send_response(hb_device *dev, uint8_t seq, uint8_t kind, uint8_t type, uint8_t code, uint32_t value)
{
    uint8_t p[HB_LEN_NACK];
    p[0] = type;
    if (kind == REPLY_ACK) {
        put_u32(p + 1, value);
        send_reply(dev, HB_MSG_ACK, seq, p, HB_LEN_ACK);
    } else {
        p[1] = code;
        put_u32(p + 2, value);
        send_reply(dev, HB_MSG_NACK, seq, p, HB_LEN_NACK);
    }
}

/* ---- stream (2.10) ---- */

static uint32_t stream_body_length(const hb_device *dev)
{
    return get_u32(dev->stream_header + 6);
}

static uint32_t stream_limit(const hb_device *dev)
{
    uint32_t body = stream_body_length(dev);
    uint32_t released = dev->ring.released;
    return body - released <= dev->cfg->stream_capacity ? body : released + dev->cfg->stream_capacity;
}

static void send_credit(hb_device *dev)
{
    dev->granted = stream_limit(dev);
    if (dev->in_step) {
        queue_notice(dev, HB_DEVICE_NOTICE_CREDIT, 0, 0);
    } else {
        credit_frame(dev);
    }
}

static void stream_close(hb_device *dev)
{
    dev->stream_state = STREAM_CLOSED;
}

/* ---- output stage (2.9) ---- */

static void wake_request(hb_device *dev)
{
    if (dev->stage == HB_STAGE_COLD) {
        if (dev->cfg->wake_ticks == 0u) {
            dev->stage = HB_STAGE_WARM;
            dev->idle_left = dev->cfg->idle_ticks;
        } else {
            dev->stage = HB_STAGE_WAKING;
            dev->wake_left = dev->cfg->wake_ticks;
        }
    } else if (dev->stage == HB_STAGE_WARM) {
        dev->idle_left = dev->cfg->idle_ticks;
    }
}

static void stage_step(hb_device *dev)
{
    if (dev->stage == HB_STAGE_WAKING) {
        if (--dev->wake_left == 0u) {
            dev->stage = HB_STAGE_WARM;
            dev->idle_left = dev->cfg->idle_ticks;
        }
    } else if (dev->stage == HB_STAGE_WARM && dev->cfg->idle_ticks != 0u) {
        if (dev->interp.mode != HB_MODE_IDLE || dev->pending) {
            dev->idle_left = dev->cfg->idle_ticks;
        } else if (--dev->idle_left == 0u) {
            dev->stage = HB_STAGE_COLD;
        }
    }
}

/* ---- slots (2.7) ---- */

static uint8_t *slot_bytes(const hb_device *dev, uint8_t slot)
{
    return dev->memory + (uint32_t)slot * dev->cfg->slot_capacity;
}

static uint8_t slot_busy(const hb_device *dev, uint8_t slot)
{
    return (uint8_t)((dev->active && dev->active_slot == slot) || (dev->pending && dev->pending_slot == slot));
}

static void slot_empty(hb_device *dev, uint8_t slot)
{
    dev->slots[slot].fill = 0;
    dev->slots[slot].ready = 0;
}

/* ---- commands ---- */

static reply nack(uint8_t code, uint32_t value)
{
    reply r;
    r.code = code;
    r.value = value;
    r.after = AFTER_NOTHING;
    r.after_slot = 0;
    return r;
}

static reply ack(uint32_t value)
{
    return nack(0, value);
}

/* Long frame handling runs in pieces with the board's yield hook between them (hb_device.h):
 * an UPLOAD's data is copied into the slot and run through both CRCs PIECE bytes at a time. 8
 * bytes keep a piece near 1,100 cycles on the ATmega328P (avr-libc's byte-wise CRC costs about 60
 * cycles a byte with its call, twice), so a step that comes due waits at most about that long
 * (it was one 115-byte copy plus 32 bytes of CRC, about 2,900 cycles). */
#define PIECE 8u

static void yield(hb_device *dev)
{
    if (dev->yield != NULL) {
        dev->yield(dev->ctx);
    }
}

static reply cmd_upload(hb_device *dev, const uint8_t *p, uint8_t n)
{
    uint8_t slot;
    uint32_t offset, count;
    hb_device_slot *s;
    if (n < HB_LEN_UPLOAD) {
        return nack(HB_ERR_BAD_LENGTH, 0);
    }
    slot = p[0];
    offset = get_u32(p + 1);
    count = (uint32_t)n - HB_LEN_UPLOAD_FIELDS;
    if (slot >= dev->cfg->slot_count) {
        return nack(HB_ERR_BAD_SLOT, 0);
    }
    if (slot_busy(dev, slot)) {
        return nack(HB_ERR_SLOT_BUSY, 0);
    }
    s = &dev->slots[slot];
    if (offset != 0u && offset != s->fill) {
        return nack(HB_ERR_BAD_OFFSET, s->fill);
    }
    if (count > dev->cfg->slot_capacity - offset) { /* offset <= fill <= capacity */
        return nack(HB_ERR_NO_SPACE, dev->cfg->slot_capacity);
    }
    {
        /* Uploads arrive in order (offset 0 restarts, anything else continues at fill), so two
         * running CRCs, of the slot and of the body past the header, spare COMMIT both passes.
         * Copied and checksummed PIECE bytes at a time, yielding after each piece. */
        uint8_t *dst = slot_bytes(dev, slot) + offset;
        const uint8_t *src = p + HB_LEN_UPLOAD_FIELDS;
        uint8_t header_part = offset < HB_HEADER_SIZE ? (uint8_t)(HB_HEADER_SIZE - offset) : 0u;
        uint16_t crc = offset == 0u ? HB_CRC16_INIT : s->crc;
        uint16_t body_crc = offset == 0u ? HB_CRC16_INIT : s->body_crc;
        uint8_t done = 0;
        if (header_part > count) {
            header_part = (uint8_t)count;
        }
        while (done < (uint8_t)count) {
            uint8_t left = (uint8_t)((uint8_t)count - done);
            uint8_t piece = left < (uint8_t)PIECE ? left : (uint8_t)PIECE;
            uint8_t end = (uint8_t)(done + piece);
            memcpy(dst + done, src + done, piece);
            crc = hb_crc16(crc, dst + done, piece);
            if (end > header_part) {
                uint8_t from = done > header_part ? done : header_part;
                body_crc = hb_crc16(body_crc, dst + from, (size_t)(end - from));
            }
            done = end;
            yield(dev);
        }
        s->crc = crc;
        s->body_crc = body_crc;
    }
    s->fill = offset + count;
    s->ready = 0;
    return ack(s->fill);
}

static reply cmd_commit(hb_device *dev, const uint8_t *p, uint8_t n)
{
    uint8_t slot;
    uint32_t length;
    uint16_t crc;
    hb_header header;
    hb_err err;
    if (n < HB_LEN_COMMIT) {
        return nack(HB_ERR_BAD_LENGTH, 0);
    }
    slot = p[0];
    length = get_u32(p + 1);
    if (slot >= dev->cfg->slot_count) {
        return nack(HB_ERR_BAD_SLOT, 0);
    }
    if (slot_busy(dev, slot)) {
        return nack(HB_ERR_SLOT_BUSY, 0);
    }
    if (length != dev->slots[slot].fill) {
        return nack(HB_ERR_COMMIT_LENGTH, dev->slots[slot].fill);
    }
    crc = length == 0u ? HB_CRC16_INIT : dev->slots[slot].crc; /* running CRC of the uploads */
    if (crc != get_u16(p + 5)) {
        slot_empty(dev, slot);
        return nack(HB_ERR_CHECKSUM_MISMATCH, crc);
    }
    err = hb_program_validate_with_crc(slot_bytes(dev, slot), length, &dev->cfg->core, &header,
                                       length > HB_HEADER_SIZE ? dev->slots[slot].body_crc : HB_CRC16_INIT,
                                       dev->yield, dev->ctx);
    if (err != HB_OK) {
        slot_empty(dev, slot);
        return nack(err, 0);
    }
    dev->slots[slot].ready = 1;
    return ack(header.total_ticks);
}

/* Signed 32-bit distance a - b on the wrapping tick counter. */
static int32_t tick_diff(uint32_t a, uint32_t b)
{
    uint32_t d = a - b;
    return d <= 0x7FFFFFFFu ? (int32_t)d : -(int32_t)(0xFFFFFFFFu - d) - 1;
}

static reply cmd_play(hb_device *dev, const uint8_t *p, uint8_t n)
{
    uint8_t slot, flags;
    uint16_t loops;
    uint32_t at, start;
    if (n < HB_LEN_PLAY) {
        return nack(HB_ERR_BAD_LENGTH, 0);
    }
    slot = p[0];
    flags = p[1];
    at = get_u32(p + 2);
    loops = get_u16(p + 8);
    if ((flags & (uint8_t)~HB_PLAY_AT) != 0u) {
        return nack(HB_ERR_BAD_PARAM, 0);
    }
    if (slot == HB_STREAM_SLOT) {
        if (dev->cfg->stream_capacity == 0u) {
            return nack(HB_ERR_UNSUPPORTED, 0);
        }
        if (dev->stream_state == STREAM_PLAYING) {
            return nack(HB_ERR_SLOT_BUSY, 0);
        }
        if (dev->stream_state != STREAM_OPEN) {
            return nack(HB_ERR_NO_STREAM, 0);
        }
        if (loops != 1u) {
            return nack(HB_ERR_BAD_PARAM, 0);
        }
    } else {
        if (slot >= dev->cfg->slot_count) {
            return nack(HB_ERR_BAD_SLOT, 0);
        }
        if (!dev->slots[slot].ready) {
            return nack(HB_ERR_NOT_COMMITTED, 0);
        }
    }
    dev->pending = 1;
    dev->pending_slot = slot;
    dev->pending_flags = flags;
    dev->pending_at = at;
    dev->pending_scale = p[6];
    dev->pending_offset = (int8_t)(p[7] <= 127u ? (int)p[7] : (int)p[7] - 256);
    dev->pending_loops = loops;
    wake_request(dev);
    start = dev->now;
    if ((flags & HB_PLAY_AT) != 0u && tick_diff(at, dev->now) > 0) {
        start = at;
    }
    if (dev->stage == HB_STAGE_WAKING && tick_diff(dev->now + dev->wake_left, start) > 0) {
        start = dev->now + dev->wake_left;
    }
    return ack(start);
}

static reply cmd_stop(hb_device *dev, const uint8_t *p, uint8_t n)
{
    reply r;
    uint8_t was_playing;
    if (n < HB_LEN_STOP) {
        return nack(HB_ERR_BAD_LENGTH, 0);
    }
    if ((p[0] & (uint8_t)~HB_STOP_BRAKE) != 0u) {
        return nack(HB_ERR_BAD_PARAM, 0);
    }
    r = ack(dev->now);
    was_playing = (uint8_t)(dev->active && dev->interp.mode == HB_MODE_PLAYING);
    if (was_playing) {
        r.after = AFTER_STOPPED;
        r.after_slot = dev->active_slot;
    }
    dev->pending = 0;
    hb_interp_stop(&dev->interp, (uint8_t)(p[0] & HB_STOP_BRAKE));
    stream_close(dev);
    dev->active = 0;
    return r;
}

static reply cmd_prepare(hb_device *dev)
{
    wake_request(dev);
    return ack(dev->stage == HB_STAGE_WAKING ? dev->now + dev->wake_left : dev->now);
}

static reply cmd_stream_open(hb_device *dev, const uint8_t *p, uint8_t n)
{
    reply r;
    hb_header header;
    hb_err err;
    if (n < HB_LEN_STREAM_OPEN) {
        return nack(HB_ERR_BAD_LENGTH, 0);
    }
    if (dev->cfg->stream_capacity == 0u) {
        return nack(HB_ERR_UNSUPPORTED, 0);
    }
    if (dev->stream_state == STREAM_PLAYING || (dev->pending && dev->pending_slot == HB_STREAM_SLOT)) {
        return nack(HB_ERR_SLOT_BUSY, 0);
    }
    err = hb_header_parse(p, HB_LEN_STREAM_OPEN, &dev->cfg->core, &header);
    if (err != HB_OK) {
        return nack(err, 0);
    }
    memcpy(dev->stream_header, p, HB_LEN_STREAM_OPEN);
    (void)hb_source_ring(&dev->ring, dev->ring_storage, dev->cfg->stream_capacity);
    dev->stream_state = STREAM_OPEN;
    r = ack(dev->cfg->stream_capacity);
    r.after = AFTER_CREDIT;
    return r;
}

static reply cmd_set_config(hb_device *dev, const uint8_t *p, uint8_t n)
{
    uint32_t value;
    if (n < HB_LEN_SET_CONFIG) {
        return nack(HB_ERR_BAD_LENGTH, 0);
    }
    value = get_u32(p + 1);
    if (p[0] != HB_CONFIG_WATCHDOG || value > 0xFFFFu) {
        return nack(HB_ERR_BAD_PARAM, 0);
    }
    dev->watchdog = (uint16_t)value;
    return ack(value);
}

/* ---- messages that are not commands ---- */

static void send_info(hb_device *dev, uint8_t seq)
{
    const hb_device_config *c = dev->cfg;
    uint8_t p[HB_LEN_INFO + HB_PROFILE_NAME_MAX];
    uint8_t name = 0;
    uint16_t caps = (uint16_t)(c->capabilities & (uint16_t)~HB_CAP_STREAM);
    if (c->stream_capacity != 0u) {
        caps = (uint16_t)(caps | HB_CAP_STREAM);
    }
    p[0] = HB_PROTOCOL_MAJOR;
    p[1] = HB_PROTOCOL_MINOR;
    p[2] = c->fw_major;
    p[3] = c->fw_minor;
    p[4] = c->fw_patch;
    p[5] = c->actuator;
    put_u16(p + 6, c->profile_id);
    put_u32(p + 8, c->device_id);
    put_u16(p + 12, caps);
    put_u16(p + 14, c->core.rate);
    put_u16(p + 16, c->core.brake_ticks);
    p[18] = c->core.safety_threshold;
    p[19] = c->slot_count;
    put_u32(p + 20, c->core.safety_ticks);
    put_u32(p + 24, c->core.max_body);
    put_u32(p + 28, c->slot_capacity);
    put_u32(p + 32, c->stream_capacity);
    put_u16(p + 36, c->rx_buffer);
    put_u16(p + 38, c->wake_ticks);
    put_u16(p + 40, c->idle_ticks);
    put_u16(p + 42, dev->watchdog);
    if (c->profile_name != NULL) {
        while (name < HB_PROFILE_NAME_MAX && c->profile_name[name] != '\0') {
            p[HB_LEN_INFO + name] = (uint8_t)c->profile_name[name];
            name++;
        }
    }
    send_frame(dev, HB_MSG_INFO, seq, p, (uint8_t)(HB_LEN_INFO + name), 1);
}

static void on_hello(hb_device *dev, uint8_t seq, const uint8_t *p, uint8_t n)
{
    dev->last_kind = REPLY_NONE; /* never a duplicate; a new session starts clean (2.4) */
    if (n < HB_LEN_HELLO) {
        send_response(dev, seq, REPLY_NACK, HB_MSG_HELLO, HB_ERR_BAD_LENGTH, 0);
    } else if (p[0] != HB_PROTOCOL_MAJOR) {
        send_response(dev, seq, REPLY_NACK, HB_MSG_HELLO, HB_ERR_VERSION_INCOMPATIBLE,
                      (HB_PROTOCOL_MAJOR << 8) | HB_PROTOCOL_MINOR);
    } else {
        send_info(dev, seq);
    }
}

static void on_ping(hb_device *dev, uint8_t seq, const uint8_t *p)
{
    uint8_t out[HB_LEN_PONG];
    memcpy(out, p, 4);
    put_u32(out + 4, dev->now);
    put_u16(out + 8, dev->subtick != NULL ? dev->subtick(dev->ctx) : 0u);
    send_reply(dev, HB_MSG_PONG, seq, out, sizeof out);
}

static void on_set_param(hb_device *dev, const uint8_t *p)
{
    int8_t offset = (int8_t)(p[1] <= 127u ? (int)p[1] : (int)p[1] - 256);
    hb_interp_set_scale(&dev->interp, p[0]);
    hb_interp_set_offset(&dev->interp, offset);
    if (dev->pending) {
        dev->pending_scale = p[0];
        dev->pending_offset = offset;
    }
}

static void on_stream_data(hb_device *dev, const uint8_t *p, uint8_t n)
{
    uint32_t offset = get_u32(p);
    uint32_t count = (uint32_t)n - HB_LEN_STREAM_DATA;
    uint32_t next = dev->ring.written;
    if (dev->stream_state == STREAM_CLOSED) {
        return;
    }
    if (count == 0u || offset != next || count > stream_limit(dev) - next) {
        send_credit(dev);
        return;
    }
    (void)hb_source_write(&dev->ring, p + HB_LEN_STREAM_DATA, count);
}

static void on_command(hb_device *dev, const hb_frame_header *h, const uint8_t *p, uint8_t n, uint16_t crc)
{
    reply r;
    if (dev->last_kind != REPLY_NONE && h->sequence == dev->last_seq && crc == dev->last_crc) {
        send_response(dev, h->sequence, dev->last_kind, dev->last_type, dev->last_code, dev->last_value);
        return;
    }
    switch (h->type) {
    case HB_MSG_UPLOAD: r = cmd_upload(dev, p, n); break;
    case HB_MSG_COMMIT: r = cmd_commit(dev, p, n); break;
    case HB_MSG_PLAY: r = cmd_play(dev, p, n); break;
    case HB_MSG_STOP: r = cmd_stop(dev, p, n); break;
    case HB_MSG_PREPARE: r = cmd_prepare(dev); break;
    case HB_MSG_STREAM_OPEN: r = cmd_stream_open(dev, p, n); break;
    case HB_MSG_SET_CONFIG: r = cmd_set_config(dev, p, n); break;
    default: r = nack(HB_ERR_UNKNOWN_MESSAGE, 0); break;
    }
    dev->last_kind = r.code == 0u ? REPLY_ACK : REPLY_NACK;
    dev->last_seq = h->sequence;
    dev->last_crc = crc;
    dev->last_type = h->type;
    dev->last_code = r.code;
    dev->last_value = r.value;
    send_response(dev, h->sequence, dev->last_kind, h->type, r.code, r.value);
    if (r.after == AFTER_STOPPED) {
        telemetry(dev, HB_EVENT_STOPPED, r.after_slot, HB_STOPPED_BY_HOST, dev->now);
    } else if (r.after == AFTER_CREDIT) {
        send_credit(dev);
    }
}

static void on_frame(hb_device *dev)
{
    hb_frame_header h;
    const uint8_t *p;
    uint8_t n;
    uint16_t crc;
    hb_frame_decoder_frame(&dev->rx, &h, &p, &n);
    crc = get_u16(dev->rx.buffer + dev->rx.length - HB_FRAME_CRC_SIZE);
    if (h.type >= 0x80u) {
        dev->silence = 0;
        return; /* a device message: an echo or a loop-back */
    }
    switch (h.type) {
    case HB_MSG_PING:
        if (n >= HB_LEN_PING) {
            on_ping(dev, h.sequence, p);
        }
        break;
    case HB_MSG_SET_PARAM:
        if (n >= HB_LEN_SET_PARAM) {
            on_set_param(dev, p);
        }
        break;
    case HB_MSG_STREAM_DATA:
        if (n >= HB_LEN_STREAM_DATA) {
            on_stream_data(dev, p, n);
        }
        break;
    case HB_MSG_HELLO:
        /* HELLO takes effect before any step its INFO lets run (send_frame): its reply goes out
         * before their notices (send_frame), so the silence it ends is ended before them too. */
        dev->silence = 0;
        on_hello(dev, h.sequence, p, n);
        return;
    default:
        on_command(dev, &h, p, n, crc);
        break;
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

uint8_t hb_device_init(hb_device *dev, const hb_device_config *cfg, uint8_t *program_memory,
                       uint8_t *stream_ring, hb_device_tx_fn tx, void *ctx)
{
    uint8_t p[HB_LEN_RESET];
    if (cfg->slot_count == 0u || cfg->slot_count > HB_DEVICE_MAX_SLOTS
        || (cfg->stream_capacity & (cfg->stream_capacity - 1u)) != 0u) {
        return 0;
    }
    memset(dev, 0, sizeof *dev);
    dev->cfg = cfg;
    dev->memory = program_memory;
    dev->ring_storage = stream_ring;
    dev->tx = tx;
    dev->ctx = ctx;
    dev->watchdog = cfg->watchdog;
    hb_interp_init(&dev->interp, &cfg->core);
    hb_frame_decoder_init(&dev->rx);
    if (cfg->wake_ticks == 0u) { /* nothing to wake: warm from the start */
        dev->stage = HB_STAGE_WARM;
        dev->idle_left = cfg->idle_ticks;
    } else {
        dev->stage = HB_STAGE_COLD;
    }
    p[0] = HB_PROTOCOL_MAJOR;
    p[1] = HB_PROTOCOL_MINOR;
    p[2] = cfg->reset_reason;
    put_u32(p + 3, cfg->boot_count);
    notice(dev, HB_MSG_RESET, p, sizeof p);
    return 1;
}

void hb_device_set_subtick(hb_device *dev, hb_device_subtick_fn subtick)
{
    dev->subtick = subtick;
}

void hb_device_set_yield(hb_device *dev, hb_yield_fn yield)
{
    dev->yield = yield;
}

void hb_device_receive_byte(hb_device *dev, uint8_t byte)
{
    if (dev->reply_held || dev->queued_count != 0u) {
        flush_pending(dev); /* not flushed by the board: what is held back comes first */
    }
    if (hb_frame_decoder_push(&dev->rx, byte) == HB_FRAME_READY) {
        on_frame(dev);
    }
}

void hb_device_receive(hb_device *dev, const uint8_t *bytes, uint16_t length)
{
    uint16_t i;
    for (i = 0; i < length; i++) {
        hb_device_receive_byte(dev, bytes[i]);
    }
}

/* Loads the pending play (2.14 step 2). */
static hb_err start_play(hb_device *dev)
{
    uint8_t slot = dev->pending_slot;
    hb_err err;
    if (slot == HB_STREAM_SLOT) {
        err = hb_interp_load_stream(&dev->interp, dev->stream_header, &dev->ring);
        dev->stream_state = STREAM_PLAYING;
    } else {
        err = hb_interp_load_validated(&dev->interp, slot_bytes(dev, slot)); /* checked at COMMIT */
    }
    hb_interp_set_scale(&dev->interp, dev->pending_scale);
    hb_interp_set_offset(&dev->interp, dev->pending_offset);
    dev->pending = 0;
    dev->active = 1;
    dev->active_slot = slot;
    dev->loops_left = dev->pending_loops;
    dev->full_scale_run = 0;
    dev->first_output = 0;
    return err;
}

static void end_play(hb_device *dev, uint8_t code, uint32_t tick)
{
    telemetry(dev, code == 0u ? HB_EVENT_FINISHED : HB_EVENT_FAULT, dev->active_slot, code, tick);
    if (dev->active_slot == HB_STREAM_SLOT) {
        stream_close(dev);
    }
    dev->active = 0;
}

hb_sample hb_device_step(hb_device *dev)
{
    const uint32_t n = dev->now;
    hb_interp *it = &dev->interp;
    hb_sample s;
    uint8_t ended = 0, code = 0, was_playing;

    if (dev->queued_count != 0u) {
        flush_pending(dev); /* the previous step's notices, if the board did not flush them; a
                             * held reply alone waits for this step's notices */
    }
    dev->in_step = 1; /* notices are queued until hb_device_flush */
    /* 1. watchdog */
    if (dev->watchdog != 0u && dev->silence >= dev->watchdog && (it->mode == HB_MODE_PLAYING || dev->pending)) {
        uint8_t slot = dev->active ? dev->active_slot : dev->pending_slot;
        dev->pending = 0;
        if (it->mode == HB_MODE_PLAYING) {
            hb_interp_stop(it, 1);
        }
        stream_close(dev);
        telemetry(dev, HB_EVENT_FAULT, slot, HB_ERR_WATCHDOG, n);
        dev->active = 0;
    }
    /* 2. start */
    if (dev->pending && dev->stage == HB_STAGE_WARM
        && ((dev->pending_flags & HB_PLAY_AT) == 0u || tick_diff(n, dev->pending_at) >= 0)) {
        hb_err err;
        if (dev->active && it->mode == HB_MODE_PLAYING) {
            telemetry(dev, HB_EVENT_STOPPED, dev->active_slot, HB_STOPPED_BY_PLAY, n);
            if (dev->active_slot == HB_STREAM_SLOT) {
                stream_close(dev);
            }
        }
        err = start_play(dev);
        if (err != HB_OK) {
            end_play(dev, err, n);
        } else {
            telemetry(dev, HB_EVENT_STARTED, dev->active_slot, 0, n);
        }
    }
    /* 3. interpreter, with seamless loop restarts */
    was_playing = (uint8_t)(it->mode == HB_MODE_PLAYING);
    s = hb_interp_step(it);
    if (dev->active && was_playing && it->mode != HB_MODE_PLAYING) {
        if (it->error == HB_OK && dev->active_slot != HB_STREAM_SLOT && dev->loops_left != 1u) {
            if (dev->loops_left > 1u) {
                dev->loops_left--;
            }
            (void)hb_interp_load_validated(it, slot_bytes(dev, dev->active_slot));
            s = hb_interp_step(it);
            if (it->mode != HB_MODE_PLAYING) {
                ended = 1;
                code = it->error;
            }
        } else {
            ended = 1;
            code = it->error;
        }
    }
    /* 4. the limiter across iterations */
    if (dev->active && !ended) {
        if (s.amp >= dev->cfg->core.safety_threshold) {
            if (dev->full_scale_run != 0xFFFFFFFFu) {
                dev->full_scale_run++;
            }
            if (dev->full_scale_run > dev->cfg->core.safety_ticks) {
                hb_interp_stop(it, 1);
                s = hb_interp_step(it);
                ended = 1;
                code = HB_ERR_SAFETY_LIMIT;
            }
        } else {
            dev->full_scale_run = 0;
        }
    }
    /* 5. first output */
    if (dev->active && !dev->first_output && s.amp != 0u) {
        dev->first_output = 1;
        telemetry(dev, HB_EVENT_FIRST_OUTPUT, dev->active_slot, 0, n);
    }
    /* 6. end */
    if (ended) {
        end_play(dev, code, n);
    }
    /* 7. output stage */
    stage_step(dev);
    /* 8. credit */
    if (dev->stream_state != STREAM_CLOSED) {
        /* stream_limit and send_credit, with the body length read once */
        uint32_t body = stream_body_length(dev);
        uint32_t released = dev->ring.released;
        uint32_t capacity = dev->cfg->stream_capacity;
        uint32_t limit = body - released <= capacity ? body : released + capacity;
        uint32_t step = capacity / 4u;
        if (step == 0u) {
            step = 1u;
        }
        if (limit - dev->granted >= step || (limit == body && dev->granted < limit)) {
            dev->granted = limit;
            queue_notice(dev, HB_DEVICE_NOTICE_CREDIT, 0, 0);
        }
    }
    /* 9. */
    if (dev->silence != 0xFFFFu) {
        dev->silence++;
    }
    dev->now++;
    dev->in_step = 0;
    return s;
}

void hb_device_flush(hb_device *dev)
{
    if ((dev->reply_held || dev->queued_count != 0u) && !dev->sending) { /* else send_frame does */
        flush_pending(dev);
    }
}

uint8_t hb_device_pending(const hb_device *dev)
{
    return (uint8_t)(dev->reply_held || dev->queued_count != 0u);
}

void hb_device_set_deferred_replies(hb_device *dev, uint8_t on)
{
    if (!on) {
        hb_device_flush(dev);
    }
    dev->defer_replies = on;
}

hb_sample hb_device_tick(hb_device *dev)
{
    hb_sample s = hb_device_step(dev);
    hb_device_flush(dev);
    return s;
}

uint8_t hb_device_stage(const hb_device *dev)
{
    return dev->stage;
}
