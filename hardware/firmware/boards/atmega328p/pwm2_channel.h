/* One channel of the two-bridge 3.0 image (make OUTPUT=pwm2): its actuator profile's figures as
 * its row of the stage's table in flash (pwm_profile.h; output_pwm.c, built once with
 * HB_PWM_SHARED, serves both channels from it), and what CHANNEL_INFO and DIAG report of it, in
 * flash too. So
 * each channel has its profile's duty caps, kick, brake and carrier, exactly as the 2.0 PWM image
 * enforces them. Channel 0: PROFILE and ACTUATOR on bridge 1 (Timer1, D9 / D10); channel 1:
 * PROFILE1 and ACTUATOR1 on bridge 2 (Timer2, D11 / D3). */
#if HB_PWM_CHANNEL == 0
#define HB_PWM_BRIDGE 1
#define HB_PWM_FIGURES_ROW hb_pwm_figures0
#define HB_PWM_CHANNEL_CONFIG hb_pwm_channel0
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
#define HB_PWM_CHANNEL_CONFIG hb_pwm_channel1
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

/* CHANNEL_INFO's figures (3.2), in flash (output_pwm2.c copies them; its DIAG reports the mV):
 * caps: bit 0 SHARPNESS, 1 ACTIVE_BRAKE, 2 DIAG. */
const hb_channel_config HB_PWM_CHANNEL_CONFIG PROGMEM = {
    .profile_name = HB_PROFILE_NAME,
    .safety_ticks = HB_DEFAULT_SAFETY_TICKS,
    .profile_id = 0,
    .brake_ticks = HB_DEFAULT_BRAKE_TICKS,
    .rated_mv = HB_PWM_RATED_MV,
    .limit_mv = HB_PWM_LIMIT_MV,
    .wake_ticks = HB_DEVICE_DEFAULT_WAKE_TICKS,
    .actuator = HB_STAGE_ACTUATOR,
    .stage = HB_DIAG_STAGE_PWM,
    .safety_threshold = HB_DEFAULT_SAFETY_THRESHOLD,
    .caps = (uint8_t)((HB_STAGE_CAP_SHARPNESS ? 1u : 0u) | (HB_STAGE_CAP_BRAKE ? 2u : 0u) | 4u),
};
