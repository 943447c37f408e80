/* One channel of the two-bridge 3.0 image (make OUTPUT=pwm2): output_pwm.c's stage built once
 * per bridge (pwm2_channel0.c, pwm2_channel1.c), each with its own actuator profile, actuator kind
 * and bridge, its functions renamed hb_pwm<n>_* so that both link side by side (its state is
 * static: one copy per file). So each channel has its profile's duty caps, kick, brake and carrier,
 * exactly as the 2.0 PWM image enforces them. Channel 0: PROFILE and ACTUATOR on bridge 1
 * (Timer1, D9 / D10); channel 1: PROFILE1 and ACTUATOR1 on bridge 2 (Timer2, D11 / D3). */
#if HB_PWM_CHANNEL == 0
#define HB_PWM_BRIDGE 1
#define hb_hal_output_init hb_pwm0_init
#define hb_hal_output hb_pwm0_output
#define hb_output_after_step hb_pwm0_after_step
#define hb_output_timer_update hb_pwm0_timer_update
#define hb_output_fault hb_pwm0_fault
#define hb_output_diag hb_pwm0_diag
#define hb_output_recalibrate hb_pwm0_recalibrate
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
#define hb_hal_output_init hb_pwm1_init
#define hb_hal_output hb_pwm1_output
#define hb_output_after_step hb_pwm1_after_step
#define hb_output_timer_update hb_pwm1_timer_update
#define hb_output_fault hb_pwm1_fault
#define hb_output_diag hb_pwm1_diag
#define hb_output_recalibrate hb_pwm1_recalibrate
#define hb_output_late_ticks hb_pwm1_late_ticks
#define HB_PWM_DESCRIBE hb_pwm1_describe
#else
#error "HB_PWM_CHANNEL must be 0 or 1"
#endif

#include "output_pwm.c"

#include "hb_device3.h"
#include "stage_caps.h"

void HB_PWM_DESCRIBE(hb_channel_config *c);
void HB_PWM_DESCRIBE(hb_channel_config *c)
{
    c->profile_name = HB_PROFILE_NAME;
    c->safety_ticks = HB_DEFAULT_SAFETY_TICKS;
    c->profile_id = 0;
    c->brake_ticks = HB_DEFAULT_BRAKE_TICKS;
    /* the most the caps give: duty / 255 x the highest supply (hb_output_diag) */
    c->rated_mv = (uint16_t)((uint32_t)D_R * HB_SUPPLY_MAX_MV(HB_SUPPLY_MV) / 255UL);
    c->limit_mv = (uint16_t)((uint32_t)D_O * HB_SUPPLY_MAX_MV(HB_SUPPLY_MV) / 255UL);
    c->wake_ticks = HB_DEVICE_DEFAULT_WAKE_TICKS;
    c->actuator = HB_STAGE_ACTUATOR;
    c->stage = HB_DIAG_STAGE_PWM;
    c->safety_threshold = HB_DEFAULT_SAFETY_THRESHOLD;
    /* CHANNEL_INFO's caps (3.2): bit 0 SHARPNESS, 1 ACTIVE_BRAKE, 2 DIAG */
    c->caps = (uint8_t)((HB_STAGE_CAP_SHARPNESS ? 1u : 0u) | (HB_STAGE_CAP_BRAKE ? 2u : 0u) | 4u);
}
