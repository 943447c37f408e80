/* The two-bridge 3.0 image's output stage (make OUTPUT=pwm2; output3.h): channel 0 on bridge 1
 * (Timer1), channel 1 on bridge 2 (Timer2), each output_pwm.c's stage with its own profile
 * (pwm2_channel.h), updated together from the tick timer (Timer0, tick.c). */
#include "output3.h"

#include "hb_messages.h"

void hb_pwm0_init(void);
void hb_pwm1_init(void);
void hb_pwm0_output(uint8_t amplitude, uint8_t sharpness, uint8_t flags);
void hb_pwm1_output(uint8_t amplitude, uint8_t sharpness, uint8_t flags);
void hb_pwm0_after_step(void);
void hb_pwm1_after_step(void);
void hb_pwm0_timer_update(uint8_t boundary);
void hb_pwm1_timer_update(uint8_t boundary);
void hb_pwm0_diag(uint8_t *payload);
void hb_pwm1_diag(uint8_t *payload);
void hb_pwm0_describe(hb_channel_config *c);
void hb_pwm1_describe(hb_channel_config *c);

void hb_hal_output_init(void)
{
    hb_pwm0_init();
    hb_pwm1_init();
}

void hb_output_timer_update(uint8_t boundary)
{
    hb_pwm0_timer_update(boundary);
    hb_pwm1_timer_update(boundary);
}

void hb_output_after_step(void)
{
    hb_pwm0_after_step();
    hb_pwm1_after_step();
}

void hb_stage3_output(const hb_sample *s)
{
    hb_pwm0_output(s[0].amp, s[0].sharp, s[0].flags);
    hb_pwm1_output(s[1].amp, s[1].sharp, s[1].flags);
}

/* An H-bridge reports nothing (no bus, no sensing). */
uint8_t hb_stage3_fault(uint8_t channel)
{
    (void)channel;
    return 0;
}

void hb_stage3_diag(uint8_t channel, uint8_t *payload)
{
    if (channel == 0u) {
        hb_pwm0_diag(payload);
    } else {
        hb_pwm1_diag(payload);
    }
}

void hb_stage3_describe(uint8_t channel, hb_channel_config *config)
{
    if (channel == 0u) {
        hb_pwm0_describe(config);
    } else {
        hb_pwm1_describe(config);
    }
}

uint8_t hb_output_recalibrate(void)
{
    return HB_ERR_BAD_PARAM; /* nothing is calibrated */
}
