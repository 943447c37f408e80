/* The output stages of the 3.0 images (make OUTPUT=pwm2 or OUTPUT=drv2605l-x4): one actuator per
 * channel (PROTOCOL-3.md 3.2), every channel's sample of a step handed over together and made
 * effective at the same tick boundary (output.h's timing contract, per channel). The stage also
 * keeps output.h's hb_hal_output_init, hb_output_timer_update, hb_output_after_step,
 * hb_output_work and hb_output_late_ticks (channel 0's) for main.c and tick.c. */
#ifndef HB_OUTPUT3_H
#define HB_OUTPUT3_H

#include <stdint.h>

#include "hb_device3.h"
#include "output.h"

#if defined(HB_BOARD_PWM2)
#define HB_STAGE3_CHANNELS 2u
#elif defined(HB_BOARD_DRV2605L_X4)
#define HB_STAGE3_CHANNELS 4u
#else
#error "a 3.0 image needs OUTPUT=pwm2 or OUTPUT=drv2605l-x4"
#endif

/* Channel `channel`'s actuator and stage as CHANNEL_INFO reports them (3.2, 3.11). */
void hb_stage3_describe(uint8_t channel, hb_channel_config *config);
/* One step's samples, samples[0..HB_STAGE3_CHANNELS), effective at the next tick boundary. */
void hb_stage3_output(const hb_sample *samples);
/* Channel `channel`'s stage fault (PROTOCOL.md 2.18), 0: none; asked before every step. */
uint8_t hb_stage3_fault(uint8_t channel);
/* Channel `channel`'s DIAG_REPORT bytes after the channel (2.18's 18), zeroed by the caller. */
void hb_stage3_diag(uint8_t channel, uint8_t *payload);

#endif
