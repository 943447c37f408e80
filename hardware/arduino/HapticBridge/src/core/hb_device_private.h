/* Private to the core: what the device's files share (hb_device.c: session and slots,
 * hb_device_stream.c: the stream, hb_device_telemetry.c: what the device sends, hb_device_step.c:
 * the step). Functions are out of line: the ATmega328P build links with -flto, which inlines
 * across the files exactly as it did within one. */
#ifndef HB_DEVICE_PRIVATE_H
#define HB_DEVICE_PRIVATE_H

#include <stdint.h>
#include <string.h>

#include "hb_device.h"
#include "hb_messages.h"
#include "hb_port.h"

enum { STREAM_CLOSED = 0, STREAM_OPEN = 1, STREAM_PLAYING = 2 };
enum { REPLY_NONE = 0, REPLY_ACK = 1, REPLY_NACK = 2 };
enum { AFTER_NOTHING = 0, AFTER_STOPPED = 1, AFTER_CREDIT = 2 };

/* A command's outcome: the response, and the notice that follows it, if any. */
typedef struct {
    uint32_t value;
    uint8_t code; /* 0: ACK */
    uint8_t after;
    uint8_t after_slot;
} reply;

/* ---- hb_device.c ---- */

/* Little-endian fields. */
uint32_t hb_dev_get_u32(const uint8_t *p);
void hb_dev_put_u32(uint8_t *p, uint32_t v);
/* A command's replies: NACK with a code and value, ACK with a value, nothing after. */
reply hb_dev_nack(uint8_t code, uint32_t value);
reply hb_dev_ack(uint32_t value);
/* The program memory of a slot. */
uint8_t *hb_dev_slot_bytes(const hb_device *dev, uint8_t slot);
/* Signed 32-bit distance a - b on the wrapping tick counter. */
int32_t hb_dev_tick_diff(uint32_t a, uint32_t b);

/* The interpreter's work that a step leaves for after its sample is handed over (hb_interp_settle:
 * ramps started at the tick), done by hb_device_flush, or by whatever comes first of the next
 * step and the next received byte (which may write the stream the ramps read). */
static HB_ALWAYS_INLINE void hb_dev_settle(hb_device *dev)
{
    if (dev->interp.amp.ramp >= HB_RAMP_PENDING || dev->interp.sharp.ramp >= HB_RAMP_PENDING) {
        hb_interp_settle(&dev->interp);
    }
}

/* ---- hb_device_stream.c ---- */

/* The streamed program's body length, from the header STREAM_OPEN stored. */
static inline uint32_t hb_dev_stream_body_length(const hb_device *dev)
{
    return hb_dev_get_u32(dev->stream_header + 6);
}
void hb_dev_stream_close(hb_device *dev);
/* The board's yield hook, if it has one: due steps run there (hb_device_set_yield). */
void hb_dev_yield(hb_device *dev);
/* A CREDIT with the limit the ring allows now (queued inside a step). */
void hb_dev_send_credit(hb_device *dev);
reply hb_dev_cmd_stream_open(hb_device *dev, const uint8_t *p, uint8_t n);
void hb_dev_on_stream_data(hb_device *dev, const uint8_t *p, uint8_t n);
/* Where a STREAM_DATA frame's data begins among its decoded bytes (header, then `offset`). */
#define STREAM_DATA_AT (HB_FRAME_HEADER_SIZE + HB_LEN_STREAM_DATA)
/* A STREAM_DATA frame's decoded byte `at` (>= STREAM_DATA_AT) has just arrived: its data is placed
 * in the ring as it comes (hb_device_receive_byte). */
void hb_dev_stream_byte(hb_device *dev, uint8_t at);

/* ---- hb_device_plays.c (2.19) ---- */

/* Inline: the step calls them, and out-of-line calls changed the step's register allocation on
 * the ATmega328P (hb_device_step.c). */

/* A new record 0 (the older one becomes record 1): a play that starts (state HB_PLAY_PLAYING) or
 * a pending one that ends without starting (hb_dev_play_fault_pending). */
static inline void hb_dev_play_begin(hb_device *dev, uint8_t seq, uint8_t slot, uint8_t state, uint32_t tick)
{
    hb_device_play *p = &dev->plays[0];
#if HB_PLAY_HISTORY > 1
    memmove(&dev->plays[1], p, (HB_PLAY_HISTORY - 1u) * sizeof *p);
#endif
    p->start = tick;
    p->end = state == HB_PLAY_PLAYING ? 0u : tick;
    p->first = HB_PLAY_FIRST_NONE;
    p->state = state;
    p->seq = seq;
    p->slot = slot;
    p->code = 0;
}

/* Record 0 ends with its end event (FINISHED, STOPPED, FAULT) and code at `tick`. */
static inline void hb_dev_play_end(hb_device *dev, uint8_t event, uint8_t code, uint32_t tick)
{
    hb_device_play *p = &dev->plays[0];
    p->state = event;
    p->code = code;
    p->end = tick;
}

/* Record 0's first output was at `tick`. */
static inline void hb_dev_play_first(hb_device *dev, uint32_t tick)
{
    uint32_t d = tick - dev->plays[0].start;
    dev->plays[0].first = d < HB_PLAY_FIRST_NONE ? (uint16_t)d : (uint16_t)(HB_PLAY_FIRST_NONE - 1u);
}
void hb_dev_play_fault_pending(hb_device *dev, uint8_t code, uint32_t tick);
void hb_dev_on_query(hb_device *dev, uint8_t seq, const uint8_t *p, uint8_t n);

/* ---- hb_device_telemetry.c ---- */

/* Sends what is held back: a held reply, then the notices a step queued. */
void hb_dev_flush_pending(hb_device *dev);
/* One frame after what is held back; `pieces`: in pieces with the yield hook between them. */
void hb_dev_send_frame(hb_device *dev, uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t length,
                       uint8_t pieces);
/* A reply (ACK, NACK, PONG), held back if the board defers replies. */
void hb_dev_send_reply(hb_device *dev, uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t length);
/* ACK (kind REPLY_ACK) or NACK for a command. */
void hb_dev_send_response(hb_device *dev, uint8_t seq, uint8_t kind, uint8_t type, uint8_t code,
                          uint32_t value);
/* A notice (numbered by the device), sent now. */
void hb_dev_notice(hb_device *dev, uint8_t type, const uint8_t *payload, uint8_t length);
/* TELEMETRY: sent now, or queued inside a step (with the step's tick). */
void hb_dev_telemetry(hb_device *dev, uint8_t event, uint8_t slot, uint8_t code, uint32_t tick);
/* Records a step's notice for hb_device_flush. */
void hb_dev_queue_notice(hb_device *dev, uint8_t event, uint8_t slot, uint8_t code);
/* CREDIT(next, limit) from the ring and the last grant, sent now. */
void hb_dev_credit_frame(hb_device *dev);

#endif
