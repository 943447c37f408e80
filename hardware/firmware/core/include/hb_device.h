/* The device state machine of the wire protocol (firmware-protocol/PROTOCOL.md, part 2): frames
 * in, replies and notices out, one interpreter tick per call, program slots, a stream ring, the
 * output stage's wake-up model, duplicate suppression and the host-silence watchdog.
 *
 * No allocation: the board owns the hb_device, the program memory (slot_count * slot_capacity
 * bytes) and the stream ring (stream_capacity bytes, a power of two, or none, plus stream_tail
 * bytes). Main loop:
 *
 *     hb_device_init(&dev, &config, memory, ring, uart_write, NULL);   // sends RESET
 *     between ticks:  hb_device_receive_byte(&dev, byte) for every received byte
 *     every tick:     s = hb_device_tick(&dev); hb_hal_output(s.amp, s.sharp, s.flags);
 *
 * or, for a board whose sample has a deadline (the step must finish before the output stage
 * latches it), the tick split in two:
 *
 *     s = hb_device_step(&dev);                  // the sample; notices only recorded
 *     hb_hal_output(s.amp, s.sharp, s.flags);    // the deadline is met here
 *     hb_device_flush(&dev);                     // the step's notices encoded and sent
 *
 * with nothing received in between. The bytes sent, their order and the tick they belong to
 * (2.3) are the same either way; only the time the encoding takes moves out of the step. Such a
 * board may also hold replies back (hb_device_set_deferred_replies) so that a step that comes
 * due while a frame is handled runs before the reply is encoded; it then calls hb_device_flush
 * when idle too.
 *
 * Replies and notices go out through the transmit callback, one whole frame per call (at most
 * HB_DEVICE_TX_MAX bytes, encoded in a stack buffer of that size), except INFO when a yield hook
 * is set: 16 bytes per call, with the hook between (hb_device_set_yield). The callback may block
 * until the UART has room; it must not call back into the device. */
#ifndef HB_DEVICE_H
#define HB_DEVICE_H

#include <stdint.h>

#include "hb_config.h"
#include "hb_frame.h"
#include "hb_interp.h"
#include "hb_messages.h"
#include "hb_port.h" /* HB_DEVICE_MAX_SLOTS, HB_PLAY_HISTORY: the target's sizes */
#include "hb_source.h"

/* Largest frame the device sends: INFO with a 16-byte name, 4 + 60 + 2 raw bytes, stuffed, 0x00. */
#define HB_DEVICE_TX_MAX 68u
/* The transmit buffer, shared with the protocol 3.0 device (hb_device3.h), whose largest frame is
 * its INFO: 4 + 52 + 16 + 2 raw bytes, stuffed, 0x00. */
#define HB_DEVICE_TX_BUFFER 76u

#define HB_DEVICE_DEFAULT_SLOT_COUNT 4u
#define HB_DEVICE_DEFAULT_SLOT_CAPACITY 1024u
#define HB_DEVICE_DEFAULT_STREAM_CAPACITY 256u
#define HB_DEVICE_DEFAULT_RX_BUFFER 256u
#define HB_DEVICE_DEFAULT_WAKE_TICKS 20u
#define HB_DEVICE_DEFAULT_IDLE_TICKS 2000u
#define HB_DEVICE_DEFAULT_WATCHDOG 1000u

/* Notices one step can produce, at most: TELEMETRY STOPPED (a PLAY replaces a running play),
 * STARTED or FAULT (the load), FIRST_OUTPUT, FINISHED or FAULT (the end), and CREDIT (2.14:
 * the watchdog's FAULT and a new stage fault's exclude a start, and end what plays).
 * hb_device_step records them in a queue of this size. */
#define HB_DEVICE_NOTICE_QUEUE 5u
/* A recorded notice: TELEMETRY(event, slot, code) of the step's tick, or CREDIT (event
 * HB_DEVICE_NOTICE_CREDIT), whose fields are read when it is sent (nothing changes them between
 * the step and the flush). */
#define HB_DEVICE_NOTICE_CREDIT 0xFFu
typedef struct hb_device_notice {
    uint8_t event;
    uint8_t slot;
    uint8_t code;
} hb_device_notice;

/* Output-stage states (2.9). */
enum { HB_STAGE_COLD = 0, HB_STAGE_WAKING = 1, HB_STAGE_WARM = 2 };

/* Everything a device is: part 1's numbers, sizes, timing and identity (2.16). */
typedef struct hb_device_config {
    hb_config core;           /* rate, max_body, brake, safety (1.2) */
    uint32_t slot_capacity;   /* bytes per slot, header included */
    uint32_t stream_capacity; /* stream ring bytes, a power of two; 0: no streaming */
    uint8_t stream_tail;      /* the ring storage's bytes past stream_capacity: 0, or HB_SOURCE_TAIL
                               * to read streamed instructions across the wrap in place (faster) */
    uint32_t device_id;
    uint32_t boot_count;
    const char *profile_name; /* ASCII, up to 16 characters are reported; NULL: none */
    uint16_t rx_buffer;       /* the board's receive buffer, reported in INFO (2.5) */
    uint16_t wake_ticks;      /* W (2.9) */
    uint16_t idle_ticks;      /* 0: the stage never sleeps */
    uint16_t watchdog;        /* at boot; SET_CONFIG changes it (2.13) */
    uint16_t profile_id;
    uint16_t capabilities; /* HB_CAP_SHARPNESS etc.; the core sets HB_CAP_STREAM itself */
    uint8_t slot_count;    /* 1..HB_DEVICE_MAX_SLOTS */
    uint8_t fw_major;
    uint8_t fw_minor;
    uint8_t fw_patch;
    uint8_t actuator;     /* HB_ACTUATOR_* */
    uint8_t reset_reason; /* HB_RESET_*, reported in the RESET notice */
} hb_device_config;

typedef void (*hb_device_tx_fn)(void *ctx, const uint8_t *bytes, uint16_t length);
/* Fills a DIAG_REPORT payload (HB_LEN_DIAG_REPORT bytes, 2.18) with the board's output stage; the
 * device sets byte 1 (the stage fault) itself. */
typedef void (*hb_device_diag_fn)(void *ctx, uint8_t *payload);
/* A SET_CONFIG key the core does not know (2.13): 0 to accept (ACK value = value), else the NACK
 * code. Called while the frame is handled. */
typedef uint8_t (*hb_device_config_fn)(void *ctx, uint8_t key, uint32_t value);
/* Elapsed fraction of the current tick in 1/65536 (PONG's subtick, 2.11). */
typedef uint16_t (*hb_device_subtick_fn)(void *ctx);

/* A play record (2.19): what the notices of one play said, kept so that a host that lost them can
 * ask (QUERY). 14 bytes. */
typedef struct hb_device_play {
    uint32_t start; /* tick of program tick 0 (or of the FAULT that ended it pending) */
    uint32_t end;   /* tick of its end event, 0 while playing */
    uint16_t first; /* ticks from start to the first output, HB_PLAY_FIRST_NONE: none yet */
    uint8_t state;  /* 0 none, HB_PLAY_PLAYING, or the end event (FINISHED, STOPPED, FAULT) */
    uint8_t seq;    /* the PLAY command's seq */
    uint8_t slot;
    uint8_t code; /* the end event's code */
} hb_device_play;

typedef struct hb_device_slot {
    uint32_t fill;     /* bytes uploaded, in order */
    uint16_t crc;      /* running CRC-16 of the fill bytes (COMMIT's check, 2.7) */
    uint16_t body_crc; /* running CRC-16 of the fill bytes past the 16-byte header (rule 1.6 CRC) */
    uint8_t ready;     /* holds a program that passed validation */
} hb_device_slot;

/* What a device is besides its plays: the session (frames, duplicates, flow control, the watchdog),
 * the slots, the stream ring and credit, the output stage, the play records, and the interpreter's
 * part that all its plays share. Protocol 3.0's device (hb_device3.h) embeds it too. */
typedef struct hb_session {
    hb_interp_shared interp;
    hb_frame_decoder rx;
    hb_source ring; /* the stream: written = `next`, released = read position */
    const hb_device_config *cfg;
    uint8_t *memory; /* program memory: slot i at i * slot_capacity */
    uint8_t *ring_storage;
    hb_device_tx_fn tx;
    hb_device_subtick_fn subtick;
    hb_yield_fn yield; /* NULL: frames are handled in one go */
    hb_device_diag_fn diag;
    hb_device_config_fn config_hook;
    void *ctx;    /* passed to tx and subtick */
    uint32_t now; /* device tick: steps since boot */
    uint32_t pending_at;
    uint32_t full_scale_run; /* the active play's limiter counter, across iterations */
    uint32_t granted;        /* last CREDIT limit */
    uint32_t last_value;     /* duplicate memory: the remembered response */
    uint16_t last_crc;
    uint16_t pending_loops;
    uint16_t loops_left;
    uint16_t wake_left;
    uint16_t idle_left;
    uint16_t watchdog;
    uint16_t silence; /* steps since the last valid frame, saturating */
    hb_device_slot slots[HB_DEVICE_MAX_SLOTS];
    uint8_t stream_header[16];
    uint8_t pending; /* a play is pending */
    uint8_t pending_slot;
    uint8_t pending_flags;
    uint8_t pending_scale;
    int8_t pending_offset;
    uint8_t pending_seq;  /* the pending PLAY's seq (2.19) */
    uint8_t active;       /* a play is active (started, end not yet reported): its record is plays[0] */
    uint8_t stream_state; /* closed, open, playing */
    uint8_t stage;        /* HB_STAGE_* */
    uint8_t stage_fault;  /* the board's output-stage fault now (2.18), 0: none */
    uint8_t fault_sent;   /* the stage fault last reported by TELEMETRY */
    uint8_t last_kind;    /* none, ACK, NACK */
    uint8_t last_seq;
    uint8_t last_type;
    uint8_t last_code;
    uint8_t notice_seq;
    uint8_t in_step;       /* hb_device_step is running: notices are queued */
    uint8_t queued_count;  /* notices queued by the last step, not yet sent */
    uint8_t sending;       /* a frame goes out in pieces (INFO): flushes wait for it */
    uint8_t defer_replies; /* hb_device_set_deferred_replies */
    uint8_t reply_type;
    uint8_t reply_seq;
    uint8_t reply_length;               /* of the reply held for hb_device_flush; 0: none is held */
    uint8_t reply_payload[HB_LEN_PONG]; /* the longest held reply: PONG (ACK 5, NACK 6) */
    uint16_t rx_crc;                    /* a STREAM_DATA frame being received: the body's CRC with its data */
    uint8_t rx_placing;                 /* ... its data is going into the ring as it is decoded */
    hb_device_notice queued[HB_DEVICE_NOTICE_QUEUE];
    hb_device_play plays[HB_PLAY_HISTORY]; /* 0: the most recent play (the active one, if any) */
} hb_session;

/* The protocol 2.0 device: the session and its one play's interpreter part. */
typedef struct hb_device {
    hb_session s; /* first: the session functions' hb_session is the device's */
    hb_interp_play play;
} hb_device;

/* Fills `cfg` with the defaults of 1.2 and 2.16 (identity zero, no name). */
void hb_device_config_default(hb_device_config *cfg);

/* Boots the device: every slot empty, stream closed, stage cold, and sends the RESET notice.
 * `cfg` must stay valid and unchanged while the device runs. Returns 0 (and sends nothing) if
 * slot_count is 0 or above HB_DEVICE_MAX_SLOTS, or stream_capacity is neither 0 nor a power of
 * two, else 1. */
uint8_t hb_device_init(hb_device *dev, const hb_device_config *cfg, uint8_t *program_memory,
                       uint8_t *stream_ring, hb_device_tx_fn tx, void *ctx);

/* PONG's subtick source (2.11); without one the subtick is 0. */
void hb_device_set_subtick(hb_device *dev, hb_device_subtick_fn subtick);

/* A hook the device calls between bounded pieces of a long frame's handling (an UPLOAD's copy and
 * checksums, 8 bytes at a time; COMMIT's validation, one instruction at a time; HELLO's INFO
 * reply, its checksum and its wire bytes 16 at a time), with the context passed to
 * hb_device_init. A board whose tick must never wait may run the device steps that came due from
 * it (hb_device_tick, or hb_device_step and hb_device_flush; never hb_device_receive_byte).
 * Only frames that touch no state a step reads yield: UPLOAD and COMMIT of a slot that is neither
 * playing nor pending, which then take effect after those steps, exactly as if their last byte
 * had been processed after them (2.3); and HELLO, which takes effect before them: the steps'
 * notices wait until INFO is out (hb_device_flush does nothing meanwhile). */
void hb_device_set_yield(hb_device *dev, hb_yield_fn yield);

/* Off by default. On: ACK, NACK and PONG are held (payload built, not encoded) until
 * hb_device_flush, instead of being encoded and sent while the frame is handled, so that a board
 * whose step has come due can run it first (the reply goes out before that step's notices, as
 * it would have). Anything the device receives or sends first flushes them, so the bytes on the
 * wire and their order are the same. The board then calls hb_device_flush when it has nothing
 * more urgent to do (and after each step). Turning it off flushes. */
void hb_device_set_deferred_replies(hb_device *dev, uint8_t on);

/* One received byte, processed at once (2.3): a completed frame takes effect before the next tick. */
void hb_device_receive_byte(hb_device *dev, uint8_t byte);
void hb_device_receive(hb_device *dev, const uint8_t *bytes, uint16_t length);

/* One device step (2.14): the sample of tick `now`. The step's notices (TELEMETRY, CREDIT) are
 * recorded but not encoded or sent: call hb_device_flush after handing the sample to the output
 * stage and before the next received byte. (hb_device_receive_byte, the next step and any
 * other frame the device sends flush them first anyway, so the bytes on the wire never
 * change; only the time their encoding takes can land in the wrong place.) */
hb_sample hb_device_step(hb_device *dev);

/* Encodes and sends the notices of the last step, in the order the step produced them, with
 * the sequence numbers they would have had if sent from inside it. Nothing to do if none. */
void hb_device_flush(hb_device *dev);

/* 1 when hb_device_flush has something to send (a held reply, queued notices). */
uint8_t hb_device_pending(const hb_device *dev);

/* hb_device_step then hb_device_flush: one device step (2.14), notices through the callback. */
hb_sample hb_device_tick(hb_device *dev);

/* The output stage's state (HB_STAGE_*): a board may power its driver down while COLD. */
uint8_t hb_device_stage(const hb_device *dev);

/* The board's output stage has a fault (2.18: HB_ERR_DRIVER_ABSENT .. HB_ERR_OVER_CURRENT), or none
 * (0) any more. Called between steps; the next step reports a new fault with TELEMETRY FAULT and
 * stops what plays, and while it lasts every play that would start ends with it instead. */
void hb_device_set_stage_fault(hb_device *dev, uint8_t code);

/* DIAG's source (2.18); without one DIAG_REPORT carries only the stage fault. */
void hb_device_set_diag(hb_device *dev, hb_device_diag_fn diag);

/* SET_CONFIG keys of the board (HB_CONFIG_RECALIBRATE); without a hook they are BAD_PARAM. */
void hb_device_set_config_hook(hb_device *dev, hb_device_config_fn hook);

#endif
