/* The PWM stage's figures (output_pwm.c) for the actuator profile in scope (profiles/<name>.h,
 * through board.h), the actuator kind (HB_BOARD_LRA or HB_BOARD_ERM) and the supply: constants
 * for the one-channel stage; HB_PWM_FIGURES(bridge) puts them in a table row (hb_pwm_figures) for
 * the two-bridge 3.0 image, whose one copy of the stage reads each channel's row from flash
 * (pwm2_channel.h, output_pwm2.c). */
#ifndef HB_PWM_PROFILE_H
#define HB_PWM_PROFILE_H

#include <avr/io.h>
#include <stdint.h>

#include "board.h"
#include "hb_drive_cap.h"
#include "hb_messages.h"
#include "output.h"

/* hb_drive_cap.h: against the highest the declared supply may be (its tolerance included) */
#define D_R ((uint8_t)HB_DUTY_CAP(HB_PROFILE_RATED_MV, HB_SUPPLY_MV))     /* duty of rated drive */
#define D_O ((uint8_t)HB_DUTY_CAP(HB_PROFILE_OVERDRIVE_MV, HB_SUPPLY_MV)) /* kick and brake ceiling */
/* Envelope predictor gain per tick: 2 / (2 tau + 1) in 1/65536 (tau in ms), within 0.1 % of
 * 1 - e^(-1 / tau) for the profiles' time constants. */
#define ALPHA(tau_us) \
    ((uint16_t)((131072000UL + (2UL * (tau_us) + 1000UL) / 2UL) / (2UL * (tau_us) + 1000UL)))
#define ALPHA_DRIVEN ALPHA(HB_PROFILE_TAU_US)
#define ALPHA_COAST ALPHA(HB_PROFILE_COAST_TAU_US)
/* 65536 x 256 / ALPHA_DRIVEN, rounded: the kick's landing duty (hardware/README.md). */
#define INV_ALPHA_Q8 ((uint16_t)((65536UL * 256UL + ALPHA_DRIVEN / 2UL) / ALPHA_DRIVEN))

#if HB_PROFILE_OVERDRIVE_MV < HB_PROFILE_RATED_MV
#error "the profile's overdrive voltage is under its rated voltage"
#endif
#if HB_PROFILE_KICK_MS > 255u || HB_PROFILE_BRAKE_MS > 255u
#error "kick and brake longer than 255 ms do not fit the stage's 8-bit arithmetic"
#endif
#if HB_PROFILE_TAU_US < 2000u || HB_PROFILE_COAST_TAU_US < 2000u
#error "time constants under 2 ms overflow the predictor's arithmetic"
#endif
#if HB_PROFILE_TAU_US > 250000u
#error "a driven time constant over 250 ms overflows the kick's landing arithmetic"
#endif

#if defined(HB_BOARD_LRA)
#if !defined(HB_PROFILE_KIND_LRA)
#error "ACTUATOR=lra with a profile that is not an LRA"
#endif
#define UPDATES_PER_SECOND (1000UL * HB_OUTPUT_UPDATES_PER_TICK)
#define PHASE_INCREMENT_RAW(f) ((65536UL * (f) + UPDATES_PER_SECOND / 2UL) / UPDATES_PER_SECOND)
#define PHASE_INCREMENT(f) ((uint16_t)PHASE_INCREMENT_RAW(f))
#define INC_MIN PHASE_INCREMENT(HB_PROFILE_F_MIN_HZ)
#define INC_MAX PHASE_INCREMENT(HB_PROFILE_F_MAX_HZ)
#define INC_F0 PHASE_INCREMENT(HB_PROFILE_F0_HZ)
#define INC_SPAN_RAW (PHASE_INCREMENT_RAW(HB_PROFILE_F_MAX_HZ) - PHASE_INCREMENT_RAW(HB_PROFILE_F_MIN_HZ))
#define INC_SPAN ((uint16_t)INC_SPAN_RAW)
#elif defined(HB_BOARD_ERM)
#if !defined(HB_PROFILE_KIND_ERM)
#error "ACTUATOR=erm with a profile that is not an ERM"
#endif
#define INC_MIN 0u
#define INC_SPAN_RAW 0UL
#define INC_SPAN 0u
#define INC_F0 0u
#else
#error "define HB_BOARD_LRA or HB_BOARD_ERM"
#endif

/* The most the caps give: duty / 255 x the highest supply (DIAG, CHANNEL_INFO). */
#define HB_PWM_RATED_MV ((uint16_t)((uint32_t)D_R * HB_SUPPLY_MAX_MV(HB_SUPPLY_MV) / 255UL))
#define HB_PWM_LIMIT_MV ((uint16_t)((uint32_t)D_O * HB_SUPPLY_MAX_MV(HB_SUPPLY_MV) / 255UL))

/* One channel's figures, a row of the two-bridge image's table in flash (output_pwm2.c). */
typedef struct {
    uint16_t alpha_driven;
    uint16_t alpha_coast;
    uint16_t inv_alpha_q8;
    uint16_t brake_ratio_q8;
    uint16_t min_edge_q8;
    uint16_t inc_min;
    uint16_t inc_span;
    uint16_t inc_f0;
    uint8_t d_r;
    uint8_t d_o;
    uint8_t kick_ms;
    uint8_t brake_ms; /* 0 for a profile that cannot drive against the motion */
    uint8_t lra;      /* an LRA's carrier, balanced to no net DC; an ERM's steady drive */
    uint8_t forward;  /* the bridge's compare registers' data addresses (pwm_bridge.h) */
    uint8_t reverse;
} hb_pwm_figures;

#if defined(HB_BOARD_LRA)
#define HB_PWM_IS_LRA 1u
#else
#define HB_PWM_IS_LRA 0u
#endif
#define HB_PWM_FIGURES(forward_register, reverse_register)                                                   \
    {                                                                                                        \
        ALPHA_DRIVEN, ALPHA_COAST, INV_ALPHA_Q8, HB_PROFILE_BRAKE_RATIO_Q8, HB_PROFILE_MIN_EDGE_Q8, INC_MIN, \
            INC_SPAN, INC_F0, D_R, D_O, HB_PROFILE_KICK_MS,                                                  \
            HB_PROFILE_BIDIRECTIONAL ? HB_PROFILE_BRAKE_MS : 0u, HB_PWM_IS_LRA,                              \
            (uint8_t)_SFR_MEM_ADDR(forward_register), (uint8_t)_SFR_MEM_ADDR(reverse_register)               \
    }

/* A PWM channel's DIAG_REPORT bytes (PROTOCOL.md 2.18), zeroed by the caller: the stage, the
 * supply, and the most its caps give (rated and limit, mV). */
static inline void hb_pwm_diag(uint8_t *p, uint16_t rated_mv, uint16_t limit_mv)
{
    p[0] = HB_DIAG_STAGE_PWM;
    p[4] = (uint8_t)(HB_SUPPLY_MV & 0xFFu);
    p[5] = (uint8_t)(HB_SUPPLY_MV >> 8);
    p[6] = (uint8_t)(rated_mv & 0xFFu);
    p[7] = (uint8_t)(rated_mv >> 8);
    p[8] = (uint8_t)(limit_mv & 0xFFu);
    p[9] = (uint8_t)(limit_mv >> 8);
}

/* The two-bridge image's one copy of the stage (output_pwm.c with HB_PWM_SHARED), channel c:
 * output.h's hb_hal_output, hb_output_after_step and hb_output_timer_update for that channel. */
void hb_pwm_output(uint8_t c, uint8_t amplitude, uint8_t sharpness, uint8_t flags);
void hb_pwm_after_step(uint8_t c);
void hb_pwm_timer_update(uint8_t c, uint8_t boundary);

#endif
