/* The program interpreter (firmware-protocol/PROTOCOL.md, 1.7-1.15): one output sample per
 * tick from a validated program in a flat buffer or a streamed one in a ring.
 *
 * No allocation: the caller owns the hb_interp (149 bytes on AVR, 264 on x86-64) and the
 * program bytes, which must stay unchanged while they play. Typical board loop:
 *
 *     hb_interp_init(&it, &cfg);
 *     hb_interp_load(&it, program, length);            // validates; brakes if invalid
 *     every tick: s = hb_interp_step(&it); hb_hal_output(s.amp, s.sharp, s.flags);
 */
#ifndef HB_INTERP_H
#define HB_INTERP_H

#include <stdint.h>

#include "hb_config.h"
#include "hb_error.h"
#include "hb_port.h"
#include "hb_program.h"
#include "hb_source.h"
#include "hb_validate.h"

#define HB_PULSE_VOICES 4u
#define HB_SAMPLE_BRAKE 0x01u
#define HB_MAX_TICK_EXECUTIONS 9u /* 1.15: instructions one tick can execute */

/* HB_RAMP_PENDING: a RAMP executed at this tick, started when the tick's instructions are done,
 * its duration in `err` (or, HB_RAMP_PENDING_AT, still a varint at `pending_at`). */
enum { HB_RAMP_NONE = 0, HB_RAMP_SHORT = 1, HB_RAMP_LONG = 2, HB_RAMP_PENDING = 3, HB_RAMP_PENDING_AT = 4 };

enum { HB_MODE_IDLE = 0, HB_MODE_PLAYING = 1, HB_MODE_BRAKING = 2 };

/* hb_interp_play.flags: a streamed program (a bit no valid header's flags have, rule 4) */
#define HB_INTERP_STREAMED 0x80u

typedef struct hb_sample {
    uint8_t amp;   /* drive amplitude code */
    uint8_t sharp; /* sharpness code */
    uint8_t flags; /* bit 0: brake */
} hb_sample;

typedef struct hb_status {
    uint32_t tick; /* ticks played of the current (or last) program */
    uint8_t mode;  /* HB_MODE_* */
    hb_err error;  /* why the last program ended early (0: it did not) */
} hb_status;

/* A channel: its value this tick and the state of a running ramp (exact Bresenham form of the
 * ramp rule, 1.9, in the smallest widths that stay exact; hb_interp.c explains why). A short
 * ramp's 8-bit state, a long ramp's 32-bit one and a pending ramp's duration are never live
 * together (`ramp` says which), so they share their bytes. */
typedef struct hb_channel {
    union {
        uint32_t err; /* long ramp (D > 255): accumulated remainder, 0 <= err < D; pending: D */
        uint8_t err8; /* short ramp: accumulated remainder, 0 <= err8 < D */
    } e;
    union {
        uint32_t thr;              /* long ramp: D - rem, the err from which the next advance carries */
        uint8_t thr8;              /* short ramp: D - rem */
        const uint8_t *pending_at; /* HB_RAMP_PENDING_AT: the pending ramp's duration varint */
    } t;
    uint8_t ramp; /* HB_RAMP_*: none, short (D <= 255, 8-bit state) or long */
    uint8_t value;
    uint8_t target; /* v1: the ramp ends when the value gets there (pending: too) */
    uint8_t step;   /* (|v1 - v0| div D) signed toward v1, mod 256 */
    uint8_t step1;  /* step + 1 toward v1, mod 256: the advance that carries */
    uint8_t rem;    /* |v1 - v0| mod D */
} hb_channel;

typedef struct hb_voice {
    uint8_t amp;
    uint8_t sharp;
    uint8_t left; /* ticks still to play, this one included */
} hb_voice;

/* The interpreter's state in two parts. hb_interp_play is one play's: what 1.8 says a program's
 * tick reads and changes. hb_interp_shared is what a device needs once for all its plays: the
 * configuration, the live controls, the limiter and the brake (2.0 plays one program at a time;
 * protocol 3.0's players leave them idle: scale 255, offset 0, no brake ticks and the limiter off),
 * and a streamed program's fetch state (one streamed play at a time: 1.14, PROTOCOL-3.md 3.12).
 * hb_interp is both, protocol 2.0's interpreter. */
typedef struct hb_interp_shared {
    hb_config cfg;
    hb_header header;     /* the last load's; a streamed play's body length and CRC are read from here */
    hb_source *src;       /* streamed programs: the ring */
    hb_check check;       /* streamed programs: the validator's rules, applied on fetch */
    uint32_t read_offset; /* streamed programs: body offset of the next fetch */
    uint32_t safety_left; /* safety_ticks - c: full-scale samples still allowed (1.12) */
    uint16_t brake_left;
    uint16_t scale_internal;          /* m' = m + (m >> 7), 0..256 */
    uint8_t wrap[HB_MAX_INSTR_BYTES]; /* streamed programs: an instruction across the ring's wrap */
    uint8_t loud;                     /* the last sample was full-scale: safety_left is counting */
    uint8_t executed;                 /* instructions executed by the last step (for tests) */
    int8_t offset;                    /* sharpness offset o */
} hb_interp_shared;

typedef struct hb_interp_play {
    /* the small fields every tick reads first: an 8-bit AVR reaches a field within 63 bytes of a
     * pointer with one instruction (and a player's, hb_player.h, too) */
    uint8_t mode;
    uint8_t flags; /* the header's flags (HB_FLAG_SHARP), and HB_INTERP_STREAMED */
    hb_err error;
    uint8_t voice_count;
    uint8_t loop_depth;
    uint16_t wait;       /* ticks after this one until `next` is due: wait_high * 65536 + */
    uint16_t wait_high;  /* wait, counted down once per tick */
    const uint8_t *pc;   /* flat programs: the next byte to fetch */
    const uint8_t *end;  /* flat programs: just past the body */
    const uint8_t *body; /* flat programs: the body's first byte */
    uint32_t tick;
    hb_instr next; /* the fetched, not yet executed instruction */
    hb_channel amp;
    hb_channel sharp;
    hb_voice voices[HB_PULSE_VOICES]; /* oldest first */
    uint8_t loop_left[HB_MAX_LOOP_DEPTH];
    const uint8_t *loop_pc[HB_MAX_LOOP_DEPTH]; /* flat programs: each open loop's first body byte */
} hb_interp_play;

typedef struct hb_interp {
    hb_interp_shared sh;
    hb_interp_play p;
} hb_interp;

/* Power-up state: IDLE, scale 255, offset 0. */
void hb_interp_init(hb_interp *it, const hb_config *cfg);

/* Validates a whole program (`length` bytes, header included) and plays it from tick 0.
 * If it is invalid, whatever played stops with a brake and the error is returned (and kept in
 * the status). `program` must stay valid and unchanged while it plays. */
HB_MUST_CHECK hb_err hb_interp_load(hb_interp *it, const uint8_t *program, uint32_t length);

/* Plays a program that already passed hb_program_validate with this interpreter's configuration
 * and has not changed since (a device's committed slot): only its header is parsed again, so a
 * play or a loop restart costs no validation pass. Same state and output as hb_interp_load. */
HB_MUST_CHECK hb_err hb_interp_load_validated(hb_interp *it, const uint8_t *program);

/* Starts a streamed program: `header` is its 16 header bytes (checked with rules 1-5), `src`
 * a ring (hb_source_ring) the caller keeps filling with the body, at most body_length bytes; its
 * CRC (hb_source_crc_ahead) covers the body from its first byte, so a fresh ring for each load.
 * Errors as hb_interp_load. */
HB_MUST_CHECK hb_err hb_interp_load_stream(hb_interp *it, const uint8_t *header, hb_source *src);

/* Produces the sample of the current tick and moves to the next (1.8). */
hb_sample hb_interp_step(hb_interp *it);

/* hb_interp_step in two parts, for a caller with a deadline for the sample (a device step): the
 * sample, and hb_interp_settle, the start of the ramps the tick's instructions left pending with
 * their first advance (1.8 step 8), which changes nothing the sample depends on. Settle before the
 * next hb_interp_sample and before any write to a streamed program's source (a pending ramp may
 * still read its duration there); a load starts afresh, and a stopped program settles nothing.
 * hb_interp_step does both parts. Settling twice is harmless. */
hb_sample hb_interp_sample(hb_interp *it);
void hb_interp_settle(hb_interp *it);

/* Plays a flat program whose header the caller has already parsed and checked (`header`, from a
 * validation with any format version's header rules: the protocol 3.0 device's format 3): the same
 * state as hb_interp_load_validated, without parsing. */
void hb_interp_load_parsed(hb_interp *it, const hb_header *header, const uint8_t *program);

/* A looped play's next iteration (2.8) of the flat program that just ended with END: the same
 * as hb_interp_load_validated of the same bytes, without parsing the header again. */
void hb_interp_restart(hb_interp *it);

/* Live controls (1.11): apply from the next step on, in any mode, and persist across programs. */
void hb_interp_set_scale(hb_interp *it, uint8_t scale);
void hb_interp_set_offset(hb_interp *it, int8_t offset);

/* Stop (1.13): brake != 0 brakes for brake_ticks if playing; brake == 0 goes idle at once. */
void hb_interp_stop(hb_interp *it, uint8_t brake);

hb_status hb_interp_status(const hb_interp *it);

/* The same, on a device's shared part and one play's part (the devices: hb_device.h, hb_player.h).
 * Several plays may share one part as long as one step runs at a time and at most one of them is
 * streamed: a flat play's load and restart leave the stream's fetch state and header alone. */
void hb_interp_shared_init(hb_interp_shared *sh, const hb_config *cfg);
void hb_interp_play_init(hb_interp_play *p); /* IDLE, nothing loaded */
HB_MUST_CHECK hb_err hb_interp_play_load_validated(hb_interp_shared *sh, hb_interp_play *p,
                                                   const uint8_t *program);
void hb_interp_play_settle(hb_interp_play *p);
void hb_interp_shared_set_scale(hb_interp_shared *sh, uint8_t scale);
void hb_interp_play_stop(hb_interp_shared *sh, hb_interp_play *p, uint8_t brake);
void hb_interp_play_load_parsed(hb_interp_shared *sh, hb_interp_play *p, const hb_header *header,
                                const uint8_t *program);
void hb_interp_play_restart(hb_interp_shared *sh, hb_interp_play *p);
HB_MUST_CHECK hb_err hb_interp_play_load_stream(hb_interp_shared *sh, hb_interp_play *p,
                                                const uint8_t *header, hb_source *src);
hb_sample hb_interp_play_step(hb_interp_shared *sh, hb_interp_play *p);
hb_sample hb_interp_play_sample(hb_interp_shared *sh, hb_interp_play *p);

#endif
