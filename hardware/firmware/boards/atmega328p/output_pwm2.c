/* The two-bridge 3.0 image's output stage (make OUTPUT=pwm2; output3.h): channel 0 on bridge 1
 * (Timer1), channel 1 on bridge 2 (Timer2), both served by one copy of output_pwm.c's stage
 * (HB_PWM_SHARED), each with its own profile's figures (pwm2_channel.h), updated together from the
 * tick timer (Timer0, tick.c). */
#include "output3.h"

#include "hb_messages.h"
#include "pwm_bridge.h"
#include "pwm_profile.h"

#include <avr/pgmspace.h>

/* Each channel's CHANNEL_INFO figures, in flash (pwm2_channel.h). */
extern const hb_channel_config hb_pwm_channel0 PROGMEM;
extern const hb_channel_config hb_pwm_channel1 PROGMEM;

static const hb_channel_config *channel_config(uint8_t channel)
{
    return channel != 0u ? &hb_pwm_channel1 : &hb_pwm_channel0;
}

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

/* The bridge's supply and what its channel's caps give (PROTOCOL.md 2.18, as the 2.0 stage). */
void hb_stage3_diag(uint8_t channel, uint8_t *p)
{
    const hb_channel_config *c = channel_config(channel);
    hb_pwm_diag(p, pgm_read_word(&c->rated_mv), pgm_read_word(&c->limit_mv));
}

void hb_stage3_describe(uint8_t channel, hb_channel_config *config)
{
    memcpy_P(config, channel_config(channel), sizeof *config);
}

uint8_t hb_output_recalibrate(void)
{
    return HB_ERR_BAD_PARAM; /* nothing is calibrated */
}
