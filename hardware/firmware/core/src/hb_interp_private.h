/* Private to the core: what the interpreter's files share (hb_interp.c: the tick,
 * hb_interp_control.c: starting, stopping and steering a play). */
#ifndef HB_INTERP_PRIVATE_H
#define HB_INTERP_PRIVATE_H

#include "hb_interp.h"

/* it->next.op when no instruction has been fetched yet (a load): the first step only fetches. */
#define HB_INTERP_OP_NONE 8u

/* safety_ticks that turns the limiter off (1.2). One program plays at most 2^32 - 1 ticks, so its
 * count could never pass it anyway: 2.0's interpreter is the same with or without the test. The
 * players of protocol 3.0 share one count (hb_interp_shared) and need the limiter off for real. */
#define HB_SAFETY_OFF 0xFFFFFFFFu

/* A streamed play (HB_INTERP_STREAMED). Never on a port without the stream's code (HB_PORT_STREAM
 * 0, a constant: the fetches from the ring, the checker's calls and the CRC are then dropped). */
static inline uint8_t hb_interp_streamed(const hb_interp_play *it)
{
    return (uint8_t)(HB_PORT_STREAM && (it->flags & HB_INTERP_STREAMED));
}

/* Enters the brake sequence (1.13); the tick emits its samples (hb_interp.c, brake_tick). */
static inline void hb_interp_enter_brake(hb_interp_shared *sh, hb_interp_play *it)
{
    sh->brake_left = sh->cfg.brake_ticks;
    it->mode = sh->brake_left != 0 ? HB_MODE_BRAKING : HB_MODE_IDLE;
}

#endif
