/* Private to the core: what the 3.0 device's files share (hb_device3.c: the session's messages,
 * hb_device3_program.c: slots and the stream with format 3, hb_device3_play.c: PLAY, STOP,
 * CONTROL and the pool, hb_device3_records.c: notices, records and STATUS, hb_device3_step.c: the
 * step). 2.0's shared parts come from hb_device_private.h.
 * HB_NOINLINE on a 3.0 function (here, hb_player.c, hb_device3_program.c, hb_validate.c's format 3
 * part) marks one that -flto would otherwise copy into
 * its callers at a cost in flash: each one kept only where make size-device3-avr measured a saving
 * (docs/protocol-3-design.md, "Where the flash and RAM go"). */
#ifndef HB_DEVICE3_PRIVATE_H
#define HB_DEVICE3_PRIVATE_H

#include <stdint.h>

#include "hb_device3.h"
#include "hb_device_private.h"

/* The 3.0 device of the session it embeds first (hb_device3.dev). */
static inline hb_device3 *hb_dev3_of(hb_session *dev)
{
    return (hb_device3 *)(void *)dev;
}

/* The interpreter's part the players share (hb_player.h). */
static inline hb_interp_shared *hb_dev3_interp(hb_device3 *d)
{
    return &d->dev.interp;
}

/* SEEK (3.13 bit 9): the port has its code (HB_PORT_SEEK, a constant: at 0 the compiler drops
 * everything only this reaches) and the configuration asks for it. */
static inline uint8_t hb_dev3_seek(const hb_device3 *d)
{
    return (uint8_t)(HB_PORT_SEEK && (d->dev.cfg->capabilities & HB_CAP_SEEK) != 0u);
}

static inline uint8_t hb_dev3_live(const hb_player *pl)
{
    return (uint8_t)(pl->state == HB_PLAYER_PENDING || pl->state == HB_PLAYER_PLAYING);
}

/* ---- hb_device3_program.c ---- */

/* UPLOAD, COMMIT (format 3: 3.1) and STREAM_OPEN, with 3.3's busy slots and stream. */
reply hb_dev3_cmd_upload(hb_device3 *d, const uint8_t *p, uint8_t n);
reply hb_dev3_cmd_commit(hb_device3 *d, const uint8_t *p, uint8_t n);
reply hb_dev3_cmd_stream_open(hb_device3 *d, const uint8_t *p, uint8_t n);
/* A committed slot's header (format 3). */
void hb_dev3_slot_header(const hb_device3 *d, uint8_t slot, hb_header *header);

/* ---- hb_device3_play.c ---- */

reply hb_dev3_cmd_play(hb_device3 *d, const uint8_t *p, uint8_t n, uint8_t seq);
reply hb_dev3_cmd_stop(hb_device3 *d, const uint8_t *p, uint8_t n);
reply hb_dev3_cmd_control(hb_device3 *d, const uint8_t *p, uint8_t n);
/* A control on one player at tick now (3.4-3.7); returns the tick its effect shows. */
uint32_t hb_dev3_apply(hb_device3 *d, hb_player *pl, uint8_t op, uint32_t value);
/* A PENDING or PLAYING player of `play` (HB_ALL_PLAYS: any) on a channel of `mask`. */
/* Bit `channel` (0..15) of a channel mask. */
uint8_t hb_dev3_in_mask(uint16_t mask, uint8_t channel);
uint8_t hb_dev3_matches(const hb_player *pl, uint8_t play, uint16_t mask);
/* The stream closes when no pending or playing player plays it (3.12). */
void hb_dev3_settle_stream(hb_device3 *d);

/* ---- hb_device3_records.c ---- */

/* TELEMETRY (3.11), sent now. */
void hb_dev3_notice(hb_device3 *d, uint8_t event, uint8_t play, uint8_t channel, uint8_t slot, uint8_t code,
                    uint32_t tick);
/* Channel `channel`'s B (its configuration's brake ticks). */
uint16_t hb_dev3_brake_ticks(const hb_device3 *d, uint8_t channel);
/* TELEMETRY of a player's play (its play, channel and slot), sent now. */
void hb_dev3_notice_of(hb_device3 *d, const hb_player *pl, uint8_t event, uint8_t code, uint32_t tick);
/* The record of (play, channel), NULL if none. */
hb_player_record *hb_dev3_record(hb_device3 *d, uint8_t play, uint8_t channel);
/* The newest record of pl's (play, channel), if any, ends with `state`, `code` at `tick`. */
hb_player_record *hb_dev3_record_end(hb_device3 *d, const hb_player *pl, uint8_t state, uint8_t code,
                                     uint32_t tick);
/* An end event (3 FINISHED, 4 STOPPED, 5 FAULT) or another event of a player's play: the notice,
 * and its record's state, code and end for an end event; returns that record (NULL: none, or not
 * an end event). */
hb_player_record *hb_dev3_telemetry(hb_device3 *d, const hb_player *pl, uint8_t event, uint8_t code,
                                    uint32_t tick);
/* A player's new record: its play starts (STARTED), or ends pending (FAULT, `code`). */
void hb_dev3_record_begin(hb_device3 *d, hb_player *pl, uint8_t state, uint8_t code, uint32_t tick);
/* STOPPED for a player a STOP or a control ended: `after` 0, the notice now; else the player's bit
 * in `stopped` (1 << its index, which the caller's loop shifts along: no division by the
 * player's size, no u32 shift by a count), its record now and the notice after the ACK. */
void hb_dev3_stop_player(hb_device3 *d, hb_player *pl, uint8_t brake, uint32_t after);
void hb_dev3_on_query(hb_device3 *d, uint8_t seq, const uint8_t *p, uint8_t n);

#endif
