/* One channel of the two-bridge 3.0 image (make OUTPUT=pwm2): its actuator profile's figures as
 * its row of the stage's table in flash (pwm_profile.h; output_pwm.c, built once with
 * HB_PWM_SHARED, serves both channels from it), and what CHANNEL_INFO and DIAG report of it. So
 * each channel has its profile's duty caps, kick, brake and carrier, exactly as the 2.0 PWM image
 * enforces them. Channel 0: PROFILE and ACTUATOR on bridge 1 (Timer1, D9 / D10); channel 1:
 * PROFILE1 and ACTUATOR1 on bridge 2 (Timer2, D11 / D3). */
#if HB_PWM_CHANNEL == 0
#define HB_PWM_BRIDGE 1
#define HB_PWM_FIGURES_ROW hb_pwm_figures0
#define HB_PWM_DIAG hb_pwm0_diag
#define HB_PWM_DESCRIBE hb_pwm0_describe
#elif HB_PWM_CHANNEL == 1
#define HB_PWM_BRIDGE 2
#undef HB_PROFILE_HEADER
#define HB_PROFILE_HEADER HB_PROFILE1_HEADER
#undef HB_BOARD_LRA
#undef HB_BOARD_ERM
#if defined(HB_CHANNEL1_LRA)
#define HB_BOARD_LRA
#else
#define HB_BOARD_ERM
#endif
#define HB_PWM_FIGURES_ROW hb_pwm_figures1
#define HB_PWM_DIAG hb_pwm1_diag
#define HB_PWM_DESCRIBE hb_pwm1_describe
#else
#error "HB_PWM_CHANNEL must be 0 or 1"
#endif

#include <avr/pgmspace.h>

#include "hb_device3.h"
#include "hb_messages.h"
#include "pwm_bridge.h"
#include "pwm_profile.h"
#include "stage_caps.h"

const hb_pwm_figures HB_PWM_FIGURES_ROW PROGMEM = HB_PWM_FIGURES(HB_PWM_FORWARD, HB_PWM_REVERSE);

/* the most the caps give: duty / 255 x the highest supply */
#define RATED_MV ((uint16_t)((uint32_t)D_R * HB_SUPPLY_MAX_MV(HB_SUPPLY_MV) / 255UL))
#define LIMIT_MV ((uint16_t)((uint32_t)D_O * HB_SUPPLY_MAX_MV(HB_SUPPLY_MV) / 255UL))

void HB_PWM_DIAG(uint8_t *p);
void HB_PWM_DIAG(uint8_t *p)
{
    p[0] = HB_DIAG_STAGE_PWM;
    p[4] = (uint8_t)(HB_SUPPLY_MV & 0xFFu);
    p[5] = (uint8_t)(HB_SUPPLY_MV >> 8);
    p[6] = (uint8_t)(RATED_MV & 0xFFu);
    p[7] = (uint8_t)(RATED_MV >> 8);
    p[8] = (uint8_t)(LIMIT_MV & 0xFFu);
    p[9] = (uint8_t)(LIMIT_MV >> 8);
}

void HB_PWM_DESCRIBE(hb_channel_config *c);
void HB_PWM_DESCRIBE(hb_channel_config *c)
{
    c->profile_name = HB_PROFILE_NAME;
    c->safety_ticks = HB_DEFAULT_SAFETY_TICKS;
    c->profile_id = 0;
    c->brake_ticks = HB_DEFAULT_BRAKE_TICKS;
    c->rated_mv = RATED_MV;
    c->limit_mv = LIMIT_MV;
    c->wake_ticks = HB_DEVICE_DEFAULT_WAKE_TICKS;
    c->actuator = HB_STAGE_ACTUATOR;
    c->stage = HB_DIAG_STAGE_PWM;
    c->safety_threshold = HB_DEFAULT_SAFETY_THRESHOLD;
    /* CHANNEL_INFO's caps (3.2): bit 0 SHARPNESS, 1 ACTIVE_BRAKE, 2 DIAG */
    c->caps = (uint8_t)((HB_STAGE_CAP_SHARPNESS ? 1u : 0u) | (HB_STAGE_CAP_BRAKE ? 2u : 0u) | 4u);
}
