/* The two-bridge 3.0 image's output stage (make OUTPUT=pwm2; output3.h): channel 0 on bridge 1
 * (Timer1), channel 1 on bridge 2 (Timer2), both served by one copy of output_pwm.c's stage
 * (HB_PWM_SHARED), each with its own profile's figures (pwm2_channel.h), updated together from the
 * tick timer (Timer0, tick.c). */
#include "output3.h"

#include "hb_messages.h"
#include "pwm_bridge.h"
#include "pwm_profile.h"

void hb_pwm0_diag(uint8_t *payload);
void hb_pwm1_diag(uint8_t *payload);
void hb_pwm0_describe(hb_channel_config *c);
void hb_pwm1_describe(hb_channel_config *c);

void hb_hal_output_init(void)
{
    /* each bridge's inputs outputs, low, then its timer non-inverting, phase-correct 8-bit, no
     * prescaler (pwm_bridge.h) */
    OCR1A = 0;
    OCR1B = 0;
    HB_PWM_BRIDGE1_OFF();
    TCCR1A = _BV(COM1A1) | _BV(COM1B1) | _BV(WGM10);
    TCCR1B = _BV(CS10);
    OCR2A = 0;
    OCR2B = 0;
    HB_PWM_BRIDGE2_OFF();
    TCCR2A = _BV(COM2A1) | _BV(COM2B1) | _BV(WGM20);
    TCCR2B = _BV(CS20);
}

void hb_output_timer_update(uint8_t boundary)
{
    hb_pwm_timer_update(0, boundary);
    hb_pwm_timer_update(1, boundary);
}

void hb_output_after_step(void)
{
    hb_pwm_after_step(0);
    hb_pwm_after_step(1);
}

void hb_stage3_output(const hb_sample *s)
{
    hb_pwm_output(0, s[0].amp, s[0].sharp, s[0].flags);
    hb_pwm_output(1, s[1].amp, s[1].sharp, s[1].flags);
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
