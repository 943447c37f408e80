/* Private to the core: what the device's files share (hb_device.c: the session and the commands,
 * hb_device_slots.c: filling a slot, hb_device_stream.c: the stream, hb_device_telemetry.c: what
 * the device sends, hb_device_step.c: the step). Functions are out of line: the ATmega328P build
 * links with -flto, which inlines across the files exactly as it did within one. HB_NOINLINE on
 * one (hb_dev_start_tick, hb_dev_slot_empty, hb_dev_queue_notice) keeps -flto from copying it into
 * its callers: each measured smaller in both protocols' images (docs/protocol-3-design.md). */
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

/* The 2.0 device of a session it embeds first (hb_device.s): only in 2.0's own code (its commands,
 * its step and its play records), never on a 3.0 device's session. */
static inline hb_device *hb_dev2_of(hb_session *dev)
{
    return (hb_device *)(void *)dev;
}

/* The stream ring's bytes: the configuration's, or 0 on a port without the stream's code
 * (HB_PORT_STREAM 0, a constant: every path behind a 0 here is dropped). */
static inline uint32_t hb_dev_stream_capacity(const hb_session *dev)
{
    return HB_PORT_STREAM ? dev->cfg->stream_capacity : 0u;
}

/* ---- hb_device.c ---- */

/* Little-endian fields. */
uint16_t hb_dev_get_u16(const uint8_t *p);
uint32_t hb_dev_get_u32(const uint8_t *p);
void hb_dev_put_u16(uint8_t *p, uint16_t v);
void hb_dev_put_u32(uint8_t *p, uint32_t v);
/* A command's replies: NACK with a code and value, ACK with a value, nothing after. */
reply hb_dev_nack(uint8_t code, uint32_t value);
reply hb_dev_ack(uint32_t value);
/* The program memory of a slot. */
uint8_t *hb_dev_slot_bytes(const hb_session *dev, uint8_t slot);
/* Signed 32-bit distance a - b on the wrapping tick counter. */
int32_t hb_dev_tick_diff(uint32_t a, uint32_t b);
/* A play's start tick as its ACK reports it (2.8): now, or `at` if AT is set and later, or the end
 * of the stage's wake-up if that is later still. */
uint32_t hb_dev_start_tick(const hb_session *dev, uint8_t at_flag, uint32_t at);

/* What both protocols' devices share, called by the 3.0 device (hb_device3*.c) as by 2.0's:
 * booting (RESET with the device's major and minor), HELLO's version check (it answers the NACKs;
 * 1: send INFO), INFO's fields 0..43 (2.6) and its sending whole or in parts (2.19), a profile
 * name's bytes (at most 16; returns the count), PING, UPLOAD, COMMIT's checks before validation
 * (a NACK, or an ACK whose value is the length), SET_CONFIG's keys 1 and the board's, and
 * emptying a slot. */
uint8_t hb_dev_boot(hb_session *dev, const hb_device_config *cfg, uint8_t *program_memory,
                    uint8_t *stream_ring, hb_device_tx_fn tx, void *ctx, uint8_t major, uint8_t minor);
uint8_t hb_dev_hello_accepted(hb_session *dev, uint8_t seq, const uint8_t *p, uint8_t n, uint8_t major,
                              uint8_t minor);
void hb_dev_info_fields(const hb_session *dev, uint8_t *p);
void hb_dev_send_info(hb_session *dev, uint8_t seq, uint8_t *p, uint8_t length, uint8_t part,
                      uint8_t in_parts);
uint8_t hb_dev_put_name(uint8_t *p, const char *name);
void hb_dev_on_ping(hb_session *dev, uint8_t seq, const uint8_t *p);
reply hb_dev_cmd_upload(hb_session *dev, const uint8_t *p, uint8_t n);
reply hb_dev_commit_checks(hb_session *dev, const uint8_t *p, uint8_t n);
reply hb_dev_cmd_set_config(hb_session *dev, const uint8_t *p, uint8_t n);
void hb_dev_slot_empty(hb_session *dev, uint8_t slot);
/* COMMIT of 2.0 (hb_device_slots.c, like UPLOAD and COMMIT's checks): the checks, then validation. */
reply hb_dev_cmd_commit(hb_session *dev, const uint8_t *p, uint8_t n);

/* ---- hb_device_stream.c ---- */

/* The streamed program's body length, from the header STREAM_OPEN stored. */
static inline uint32_t hb_dev_stream_body_length(const hb_session *dev)
{
    return hb_dev_get_u32(dev->stream_header + 6);
}
/* The limit a CREDIT grants now: the body's end, or what the ring holds beyond the released bytes. */
uint32_t hb_dev_stream_limit(const hb_session *dev);
void hb_dev_stream_close(hb_session *dev);
/* The board's yield hook, if it has one: due steps run there (hb_device_set_yield). */
void hb_dev_yield(hb_session *dev);
/* A CREDIT with the limit the ring allows now (queued inside a step). */
void hb_dev_send_credit(hb_session *dev);
reply hb_dev_cmd_stream_open(hb_session *dev, const uint8_t *p, uint8_t n);
void hb_dev_on_stream_data(hb_session *dev, const uint8_t *p, uint8_t n);
/* Where a STREAM_DATA frame's data begins among its decoded bytes (header, then `offset`). */
#define STREAM_DATA_AT (HB_FRAME_HEADER_SIZE + HB_LEN_STREAM_DATA)
/* A STREAM_DATA frame's decoded byte `at` (>= STREAM_DATA_AT) has just arrived: its data is placed
 * in the ring as it comes (hb_device_receive_byte). */
void hb_dev_stream_byte(hb_session *dev, uint8_t at);

/* ---- hb_device_plays.c (2.19) ---- */

/* Inline: the step calls them, and out-of-line calls changed the step's register allocation on
 * the ATmega328P (hb_device_step.c). */

/* A new record 0 (the older one becomes record 1): a play that starts (state HB_PLAY_PLAYING) or
 * a pending one that ends without starting (hb_dev_play_fault_pending). */
static inline void hb_dev_play_begin(hb_session *dev, uint8_t seq, uint8_t slot, uint8_t state, uint32_t tick)
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
static inline void hb_dev_play_end(hb_session *dev, uint8_t event, uint8_t code, uint32_t tick)
{
    hb_device_play *p = &dev->plays[0];
    p->state = event;
    p->code = code;
    p->end = tick;
}

/* Record 0's first output was at `tick`. */
static inline void hb_dev_play_first(hb_session *dev, uint32_t tick)
{
    uint32_t d = tick - dev->plays[0].start;
    dev->plays[0].first = d < HB_PLAY_FIRST_NONE ? (uint16_t)d : (uint16_t)(HB_PLAY_FIRST_NONE - 1u);
}
void hb_dev_play_fault_pending(hb_session *dev, uint8_t code, uint32_t tick);
void hb_dev_on_query(hb_session *dev, uint8_t seq, const uint8_t *p, uint8_t n);

/* ---- hb_device_telemetry.c ---- */

/* Sends what is held back: a held reply, then the notices a step queued. */
void hb_dev_flush_pending(hb_session *dev);
/* One frame after what is held back; `pieces`: in pieces with the yield hook between them. */
void hb_dev_send_frame(hb_session *dev, uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t length,
                       uint8_t pieces);
/* A reply (ACK, NACK, PONG), held back if the board defers replies. */
void hb_dev_send_reply(hb_session *dev, uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t length);
/* ACK (kind REPLY_ACK) or NACK for a command. */
void hb_dev_send_response(hb_session *dev, uint8_t seq, uint8_t kind, uint8_t type, uint8_t code,
                          uint32_t value);
/* A notice (numbered by the device), sent now. */
void hb_dev_notice(hb_session *dev, uint8_t type, const uint8_t *payload, uint8_t length);
/* TELEMETRY: sent now, or queued inside a step (with the step's tick). */
void hb_dev_telemetry(hb_session *dev, uint8_t event, uint8_t slot, uint8_t code, uint32_t tick);
/* Records a step's notice for hb_device_flush. */
void hb_dev_queue_notice(hb_session *dev, uint8_t event, uint8_t slot, uint8_t code);
/* CREDIT(next, limit) from the ring and the last grant, sent now. */
void hb_dev_credit_frame(hb_session *dev);

/* ---- shared inline parts (inline so that 2.0's code is what it was) ---- */

/* The output stage (2.9): a play or PREPARE wakes it. */
static inline void hb_dev_wake_request(hb_session *dev)
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

/* A step's output-stage bookkeeping (2.9): `busy` keeps a warm stage warm. */
static HB_ALWAYS_INLINE void hb_dev_output_stage(hb_session *dev, uint8_t busy)
{
    if (dev->stage == HB_STAGE_WAKING) {
        if (--dev->wake_left == 0u) {
            dev->stage = HB_STAGE_WARM;
            dev->idle_left = dev->cfg->idle_ticks;
        }
    } else if (dev->stage == HB_STAGE_WARM && dev->cfg->idle_ticks != 0u) {
        if (busy) {
            dev->idle_left = dev->cfg->idle_ticks;
        } else if (--dev->idle_left == 0u) {
            dev->stage = HB_STAGE_COLD;
        }
    }
}

/* A command retransmitted (2.4): the remembered response again; returns 1 if it was one. */
static inline uint8_t hb_dev_answer_duplicate(hb_session *dev, uint8_t seq, uint16_t crc)
{
    if (dev->last_kind != REPLY_NONE && seq == dev->last_seq && crc == dev->last_crc) {
        hb_dev_send_response(dev, seq, dev->last_kind, dev->last_type, dev->last_code, dev->last_value);
        return 1;
    }
    return 0;
}

/* A command's response, remembered for its retransmission (2.4), and sent. */
static inline void hb_dev_answer(hb_session *dev, const hb_frame_header *h, uint16_t crc, const reply *r)
{
    dev->last_kind = r->code == 0u ? REPLY_ACK : REPLY_NACK;
    dev->last_seq = h->sequence;
    dev->last_crc = crc;
    dev->last_type = h->type;
    dev->last_code = r->code;
    dev->last_value = r->value;
    hb_dev_send_response(dev, h->sequence, dev->last_kind, h->type, r->code, r->value);
}

/* The interpreter's work that a step leaves for after its sample is handed over (hb_interp_settle:
 * ramps started at the tick), done by hb_device_flush, or by whatever comes first of the next
 * step and the next received byte (which may write the stream the ramps read). */
static HB_ALWAYS_INLINE void hb_dev_settle(hb_session *dev)
{
    hb_interp_play *it = &hb_dev2_of(dev)->play;
    if (it->amp.ramp >= HB_RAMP_PENDING || it->sharp.ramp >= HB_RAMP_PENDING) {
        hb_interp_play_settle(it);
    }
}

/* A step's credit (2.10): a CREDIT when the limit moved by a quarter of the ring, or reached the
 * body's end. */
static HB_ALWAYS_INLINE void hb_dev_step_credit(hb_session *dev)
{
    if (HB_PORT_STREAM && dev->stream_state != STREAM_CLOSED) {
        uint32_t limit = hb_dev_stream_limit(dev);
        uint32_t step = dev->cfg->stream_capacity / 4u;
        if (step == 0u) {
            step = 1u;
        }
        if (limit - dev->granted >= step
            || (limit == hb_dev_stream_body_length(dev) && dev->granted < limit)) {
            dev->granted = limit;
            hb_dev_queue_notice(dev, HB_DEVICE_NOTICE_CREDIT, 0, 0);
        }
    }
}

/* The frame the decoder just completed: its header, payload and CRC field; the messages both
 * protocols handle alike are handled here: a device message (an echo or a loop-back) ends the
 * silence and nothing more; PING (2.11) and STREAM_DATA (2.10) are answered. Returns 1 when the
 * frame was one of those; else the caller dispatches it, and ends the silence after it (so that
 * steps a yield runs meanwhile come before it, 2.3). */
static HB_ALWAYS_INLINE uint8_t hb_dev_frame_shared(hb_session *dev, hb_frame_header *h, const uint8_t **p,
                                                    uint8_t *n, uint16_t *crc)
{
    hb_frame_decoder_frame(&dev->rx, h, p, n);
    *crc = hb_dev_get_u16(dev->rx.buffer + dev->rx.length - HB_FRAME_CRC_SIZE);
    if (h->type == HB_MSG_PING) {
        if (*n >= HB_LEN_PING) {
            hb_dev_on_ping(dev, h->sequence, *p);
        }
    } else if (h->type == HB_MSG_STREAM_DATA) {
        if (*n >= HB_LEN_STREAM_DATA) {
            hb_dev_on_stream_data(dev, *p, *n);
        }
    } else if (h->type < 0x80u) {
        return 0;
    }
    dev->silence = 0;
    return 1;
}

/* One received byte (2.3), the frame it completes handled by `on_frame` (each protocol's
 * dispatch); a STREAM_DATA frame's data placed as it is decoded. */
static HB_ALWAYS_INLINE void hb_dev_receive_byte_with(hb_session *dev, uint8_t byte,
                                                      void (*on_frame)(hb_session *))
{
    uint8_t length;
    if (dev->reply_length != 0u || dev->queued_count != 0u) {
        hb_dev_flush_pending(dev); /* not flushed by the board: what is held back comes first */
    }
    length = dev->rx.length;
    if (hb_frame_decoder_push(&dev->rx, byte) == HB_FRAME_READY) {
        on_frame(dev);
    } else if (dev->rx.length == (uint8_t)(length + 1u) && length >= STREAM_DATA_AT
               && dev->rx.buffer[1] == HB_MSG_STREAM_DATA) {
        hb_dev_stream_byte(dev, length); /* one byte decoded, at `length` */
    }
}

#endif
