/* Private to the core: what the interpreter's files share (hb_interp.c: the tick,
 * hb_interp_control.c: starting, stopping and steering a play). */
#ifndef HB_INTERP_PRIVATE_H
#define HB_INTERP_PRIVATE_H

#include "hb_interp.h"

/* it->next.op when no instruction has been fetched yet (a load): the first step only fetches. */
#define HB_INTERP_OP_NONE 8u

/* Enters the brake sequence (1.13); the tick emits its samples (hb_interp.c, brake_tick). */
static inline void hb_interp_enter_brake(hb_interp *it)
{
    it->brake_left = it->cfg.brake_ticks;
    it->mode = it->brake_left != 0 ? HB_MODE_BRAKING : HB_MODE_IDLE;
}

#endif
