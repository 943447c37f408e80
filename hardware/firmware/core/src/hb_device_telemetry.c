/* What the device sends (PROTOCOL.md 2.2, 2.3): frames encoded and handed to the transmit callback,
 * replies (held back when the board defers them), and the notices: TELEMETRY and CREDIT, which a
 * step only records (hb_dev_queue_notice) and hb_device_flush sends, and RESET. */
#include <string.h>

#include "hb_device_private.h"

static void flush_notices(hb_session *dev);

static void yield_unless_queued(void *ctx);

/* ---- frames, and what is held back ---- */

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

static void transmit(hb_session *dev, uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t length,
                     uint8_t pieces)
{
    uint8_t wire[HB_DEVICE_TX_BUFFER];
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
void hb_dev_flush_pending(hb_session *dev)
{
    uint8_t length = dev->reply_length;
    if (length != 0u) {
        dev->reply_length = 0;
        transmit(dev, dev->reply_type, dev->reply_seq, dev->reply_payload, length, 0);
    }
    if (dev->queued_count != 0u) {
        flush_notices(dev);
    }
}

/* Every frame goes out after what is held back, so the order on the wire is the order of events
 * whatever the board does (hb_device.h). */
void hb_dev_send_frame(hb_session *dev, uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t length,
                       uint8_t pieces)
{
    hb_dev_flush_pending(dev);
    transmit(dev, type, seq, payload, length, pieces);
    if (pieces && dev->queued_count != 0u) {
        flush_notices(dev); /* the notices of a step that ran between the pieces */
    }
}

static void send(hb_session *dev, uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t length)
{
    hb_dev_send_frame(dev, type, seq, payload, length, 0);
}

static void yield_unless_queued(void *ctx)
{
    hb_session *dev = (hb_session *)ctx;
    if (dev->queued_count == 0u) {
        dev->yield(dev->ctx);
    }
}

/* ---- replies ---- */

/* A reply to a frame (ACK, NACK, PONG): held until hb_device_flush when the board asked for it, so
 * that a step that is due runs before the reply is encoded; its notices then follow the reply,
 * as they would have. */
void hb_dev_send_reply(hb_session *dev, uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t length)
{
    if (dev->defer_replies && length != 0u && length <= sizeof dev->reply_payload) {
        hb_dev_flush_pending(dev);
        memcpy(dev->reply_payload, payload, length);
        dev->reply_type = type;
        dev->reply_seq = seq;
        dev->reply_length = length; /* every reply has a payload: held */
    } else {
        send(dev, type, seq, payload, length);
    }
}

void hb_dev_send_response(hb_session *dev, uint8_t seq, uint8_t kind, uint8_t type, uint8_t code,
                          uint32_t value)
{
    uint8_t p[HB_LEN_NACK];
    p[0] = type;
    if (kind == REPLY_ACK) {
        hb_dev_put_u32(p + 1, value);
        hb_dev_send_reply(dev, HB_MSG_ACK, seq, p, HB_LEN_ACK);
    } else {
        p[1] = code;
        hb_dev_put_u32(p + 2, value);
        hb_dev_send_reply(dev, HB_MSG_NACK, seq, p, HB_LEN_NACK);
    }
}

/* ---- notices: TELEMETRY, CREDIT, RESET ---- */

/* Notices number themselves (2.2.1). */
void hb_dev_notice(hb_session *dev, uint8_t type, const uint8_t *payload, uint8_t length)
{
    send(dev, type, dev->notice_seq, payload, length);
    dev->notice_seq++;
}

static void telemetry_frame(hb_session *dev, uint8_t event, uint8_t slot, uint8_t code, uint32_t tick)
{
    uint8_t p[HB_LEN_TELEMETRY];
    p[0] = event;
    p[1] = slot;
    p[2] = code;
    hb_dev_put_u32(p + 3, tick);
    hb_dev_notice(dev, HB_MSG_TELEMETRY, p, sizeof p);
}

/* CREDIT(next, limit): `granted` is the limit, set when the credit was decided. */
void hb_dev_credit_frame(hb_session *dev)
{
    uint8_t p[HB_LEN_CREDIT];
    hb_dev_put_u32(p, dev->ring.written);
    hb_dev_put_u32(p + 4, dev->granted);
    hb_dev_notice(dev, HB_MSG_CREDIT, p, sizeof p);
}

/* Sends the notices the last step queued, oldest first, exactly as the step would have sent
 * them: TELEMETRY's tick is the step's (now - 1 after it, nothing else advances now), CREDIT's
 * fields are the ring's and the grant's, which nothing changes between the step and this call
 * (the device flushes before it takes a received byte, hb_device_receive_byte). */
static void flush_notices(hb_session *dev)
{
    uint32_t tick = dev->in_step ? dev->now : dev->now - 1u;
    uint8_t count = dev->queued_count, i;
    dev->queued_count = 0; /* sending goes through send(), which must not flush again */
    for (i = 0; i < count; i++) {
        const hb_device_notice *q = &dev->queued[i];
        if (q->event == HB_DEVICE_NOTICE_CREDIT) {
            hb_dev_credit_frame(dev);
        } else {
            telemetry_frame(dev, q->event, q->slot, q->code, tick);
        }
    }
}

/* A step only records its notices; hb_device_flush encodes and sends them. */
HB_NOINLINE void hb_dev_queue_notice(hb_session *dev, uint8_t event, uint8_t slot, uint8_t code)
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
void hb_dev_telemetry(hb_session *dev, uint8_t event, uint8_t slot, uint8_t code, uint32_t tick)
{
    if (dev->in_step) {
        hb_dev_queue_notice(dev, event, slot, code);
    } else {
        telemetry_frame(dev, event, slot, code, tick);
    }
}

/* ---- public API: what a step or a reply held back ---- */

void hb_device_flush(hb_device *device)
{
    hb_session *dev = &device->s;
    hb_dev_settle(dev); /* after the hand-off: outside the step's deadline */
    if ((dev->reply_length != 0u || dev->queued_count != 0u)
        && !dev->sending) { /* else hb_dev_send_frame does */
        hb_dev_flush_pending(dev);
    }
}

uint8_t hb_device_pending(const hb_device *dev)
{
    return (uint8_t)(dev->s.reply_length != 0u || dev->s.queued_count != 0u);
}

void hb_device_set_deferred_replies(hb_device *dev, uint8_t on)
{
    if (!on) {
        hb_device_flush(dev);
    }
    dev->s.defer_replies = on;
}
