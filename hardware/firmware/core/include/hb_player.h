/* One player of protocol 3.0's pool (firmware-protocol/PROTOCOL-3.md 3.3-3.5, 3.7): a part 1
 * interpreter playing one slot program (or the stream) on one channel, with its own time (position
 * p, rate r in 1/256, phase, loop end L and iterations left), seek (3.5, hb_player_seek.c), gain
 * (fades of pause, mute, a seek and ducking), scheduled controls and the record of its last play.
 * The pool, the mixing and the messages are the device's (hb_device3.h, hb_mix.h).
 *
 * The interpreter is 2.0's (hb_interp.h): each player holds one play's part, the device one shared
 * part for all (hb_player_shared_init), whose scale, offset, limiter and brake stay idle (scale
 * 255, offset 0, the limiter off, no brake ticks); 3.6 and 3.8 apply them per player and per
 * channel instead. No allocation: the device owns the players. */
#ifndef HB_PLAYER_H
#define HB_PLAYER_H

#include <stdint.h>

#include "hb_config.h"
#include "hb_interp.h"
#include "hb_program.h"

#define HB_RATE_ONE 256u /* rate codes: 1/256 of real time (3.4) */
#define HB_RATE_MIN 64u
#define HB_RATE_MAX 1024u
#define HB_PLAYER_SCHEDULED 2u /* scheduled controls a player holds (3.7) */
#define HB_STREAM_WORK 9u      /* a streamed play's work figure (3.9) */

enum { HB_PLAYER_FREE = 0, HB_PLAYER_PENDING = 1, HB_PLAYER_PLAYING = 2, HB_PLAYER_BRAKING = 3 };

/* hb_player.flags */
#define HB_PLAYER_PAUSED 0x01u
#define HB_PLAYER_MUTED 0x02u
#define HB_PLAYER_SUM 0x04u       /* mixes by SUM, else MAX (3.6) */
#define HB_PLAYER_CUT 0x08u       /* its start ends the other plays on its channel (3.3) */
#define HB_PLAYER_FRESH 0x10u     /* the next advance outputs the position as it is (3.4) */
#define HB_PLAYER_SEEK_FADE 0x20u /* frozen in a seek's fade until `at` (3.5) */
#define HB_PLAYER_AT 0x40u        /* pending until the tick `at` */
#define HB_PLAYER_SEEN 0x80u      /* its first output was reported */

/* hb_player_step's end: none, or the play ended FINISHED (code 0) or with a fault (its code). */
#define HB_PLAYER_GOES_ON 0xFFu

/* A scheduled control (3.7): its op (hb_device3's HB_OP3_PAUSE, _RESUME, or a STOP) and tick. */
typedef struct hb_player_control {
    uint32_t at;
    uint8_t op;
} hb_player_control;

/* The record of the player's last play (3.11 QUERY/STATUS, as 2.19): state 0 none, 1 PLAYING, or
 * the end event (3 FINISHED, 4 STOPPED, 5 FAULT). */
typedef struct hb_player_record {
    uint32_t start;
    uint32_t end;
    uint16_t first; /* HB_PLAY_FIRST_NONE: none yet */
    uint16_t iterations;
    uint8_t state;
    uint8_t play;
    uint8_t channel;
    uint8_t seq;
    uint8_t slot;
    uint8_t code;
} hb_player_record;

typedef struct hb_player {
    /* The fields the step and the commands read most come first: an 8-bit AVR reaches a field
     * within 63 bytes of a pointer with one instruction, further ones with three. */
    uint8_t state; /* HB_PLAYER_* */
    uint8_t flags;
    uint8_t play;
    uint8_t channel;
    uint8_t slot;
    uint8_t seq;
    uint8_t scale;
    int8_t offset;
    uint8_t priority;
    uint8_t duck;
    uint8_t phi;
    uint8_t scheduled_count;
    uint8_t held_amp; /* the source sample of its last step that was not frozen (3.6) */
    uint8_t held_sharp;
    uint16_t rate;
    uint16_t loops; /* iterations left, the current one included; 0: until stopped */
    uint16_t iterations;
    uint16_t gain;     /* G, 0..256 */
    uint32_t loop_end; /* L */
    /* While PENDING with HB_PLAYER_AT: the start tick; while PLAYING with HB_PLAYER_SEEK_FADE (set
     * only on a sounding player): the tick the new position is output; while BRAKING: the brake
     * steps left (hb_player_brake). One field: never two of them at once. */
    uint32_t at;
    /* about to execute program tick it.tick: p + 1 (`done` + 1, 3.4), or p itself while
     * HB_PLAYER_FRESH (hb_player_pos) */
    hb_interp_play it;
    hb_player_record record;
    hb_player_control scheduled[HB_PLAYER_SCHEDULED];
} hb_player;

/* What PLAY gives each of its players (3.11). */
typedef struct hb_play_params {
    uint32_t at;
    uint32_t loop_end; /* 0: T */
    uint32_t from;
    uint16_t loops;
    uint16_t rate;
    uint8_t play;
    uint8_t seq;
    uint8_t slot;
    uint8_t flags; /* HB_PLAYER_SUM, _CUT, _MUTED, _AT */
    uint8_t scale;
    int8_t offset;
    uint8_t priority;
    uint8_t duck;
} hb_play_params;

/* One step's result for the player's channel (3.6): amp_i, sharp_i, and the brake request. */
typedef struct hb_player_out {
    uint8_t amp;
    uint8_t sharp;
    uint8_t brake;
} hb_player_out;

/* The interpreter's part the device's players share, for the device's configuration `core`. */
void hb_player_shared_init(hb_interp_shared *sh, const hb_config *core);

/* An accepted PLAY's player on `channel` (3.3): PENDING with the play's parameters, its
 * interpreter in the state at `from` (3.5, computed now). `program` is a committed slot's bytes,
 * `header` its header as validated; `sh` the players' shared part. For the stream (slot
 * HB_STREAM_SLOT) `program` is NULL and the interpreter is loaded at the start. */
void hb_player_reserve(hb_player *pl, hb_interp_shared *sh, const hb_play_params *p, uint8_t channel,
                       const uint8_t *program, const hb_header *header);

/* The state at program tick k (3.5), by the instruction-bounded method (hb_player_seek.c): the
 * interpreter from the start of the program it plays, delays and whole loop iterations skipped in
 * closed form. Sets p = k, phase 0, fresh. Returns the instructions it decoded and executed. */
uint32_t hb_player_seek(hb_player *pl, hb_interp_shared *sh, uint32_t k);

/* p (3.4): the program tick the player outputs (its last one, or while HB_PLAYER_FRESH the
 * next); the interpreter's tick less one, or the tick itself while fresh. */
uint32_t hb_player_pos(const hb_player *pl);

/* T (3.1): the total_ticks of the program it plays, read from the slot's header (a busy slot does
 * not change, 3.3); 0 for the stream. */
uint32_t hb_player_total(const hb_player *pl);

/* The executions the player may need in one step (3.9): peak * ceil(rate / 256), with the peak
 * of its slot in `slot_peak` (the device's, COMMIT's: a busy slot does not change, 3.3), 9 for
 * the stream; 0 when FREE or BRAKING. */
uint16_t hb_player_work(const hb_player *pl, const uint8_t *slot_peak);
uint16_t hb_player_work_at(const hb_player *pl, const uint8_t *slot_peak, uint16_t rate);

/* Counts for ducking at step n (3.6): PLAYING, not paused, muted, or in a seek's fade (which ends
 * at `at`: from that step on it sounds, 3.5). */
uint8_t hb_player_sounding(const hb_player *pl, uint32_t n);

/* The play ends (3.3): BRAKING for `brake_ticks` steps, or FREE at once if 0. */
void hb_player_brake(hb_player *pl, uint16_t brake_ticks);

/* The play ends in the current step, which is its first brake step (3.4, 3.8 step 5, 1.13): B
 * brake steps in all, this one included, as 2.0. Returns 1 if it requests the brake now. */
uint8_t hb_player_brake_from_here(hb_player *pl, uint16_t brake_ticks);

/* One step at device tick n (3.8 step 5) for a PLAYING or BRAKING player: its gain toward
 * `duck` (or 0), moved by at most `slew` (3.7); the advance and execution (3.4); its amp_i,
 * sharp_i and brake request in *out. Returns HB_PLAYER_GOES_ON, or the end's code (0: FINISHED)
 * when its play ended in this step (it is then BRAKING or FREE). */
uint8_t hb_player_step(hb_player *pl, hb_interp_shared *sh, uint32_t n, uint16_t duck, uint16_t slew,
                       uint16_t brake_ticks, hb_player_out *out);

#endif
