/* PWM output stage for a motor driver / H-bridge (e.g. DRV8833 in IN/IN mode):
 * Timer1 (or Timer2: pwm_bridge.h), 8-bit phase-correct PWM at 16 MHz / 510 = 31.37 kHz
 * (inaudible), OC1A = D9 drives the bridge's "forward" input, OC1B = D10 its "reverse" input.
 * The 3.0 image with two bridges (pwm2_channel.c) builds this file once per bridge, each with its
 * own profile, bridge and names. Duty = OCR / 255 exactly:
 * phase-correct mode gives a flat 0 % at OCR = 0 and 100 % at OCR = 255, so the actuator sees
 * OCR / 255 of the bridge supply HB_SUPPLY_MV.
 *
 * Drive synthesis (normative): hardware/README.md, "PWM drive synthesis", states it step by step
 * and AVREmulator.PWMSynthesis is its Swift model, update for update (its per-tick part,
 * FirmwareModel.OpenLoopStage, also decides the kicks and brakes of the actuator physics). In
 * short: every duty is capped by the actuator profile's voltages against the highest the supply may
 * be (hb_drive_cap.h: the declared supply and its tolerance; D_R for rated
 * drive, D_O for kick and brake); within kickMs of each onset, a tick whose predicted envelope is
 * under the level asked for kicks at the ceiling D_O, eased onto the level in its last tick, and a
 * brake burst at each fall follows the profile's brakeRatio for brakeMs; both windows scaled by the
 * edge strength of the sharpness code; and an LRA's carrier never leaves net DC on the coil: silence
 * after a burst drives the balance back to zero first. The per-tick part runs in the main loop
 * (hb_hal_output), the per-update part in the timer interrupt (hb_output_timer_update). */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/atomic.h>

#include "board.h"
#include "hb_drive_cap.h"
#include "hb_messages.h"
#include "output.h"
#include "pwm_bridge.h"
#include "tick.h"

/* ---- constants from the profile (profiles/<name>.h) and the supply ---- */

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

volatile uint16_t hb_output_late_ticks;

/* Latched by the main loop, taken by the timer interrupt at the next tick boundary. */
static volatile uint8_t latch_drive;
static volatile uint16_t latch_increment;
static volatile uint8_t latch_invert;
static volatile uint8_t latch_restart; /* start the carrier at phase 0 (a burst after silence) */
/* The step count (hb_tick_count) when the sample was handed over: the boundary that follows
 * step k's trigger expects k + 1; an older tag means the step due there was late. */
static volatile uint8_t latch_tag;

/* Main-loop state: the edges and the predicted envelope (hardware/README.md). */
static uint8_t level;          /* the program's last driven amplitude; 0 after a fall */
static uint8_t edge_sharpness; /* the sharpness code of the last driven tick */
static uint8_t kick_left;
static uint8_t brake_left;
static uint8_t brake_duty;
static uint8_t last_duty; /* the duty latched for the previous tick */
static uint16_t envelope; /* predicted motion, in duty x 128 */

/* Interrupt-only synthesis state. */
static uint8_t drive;
static uint16_t increment;
static uint8_t invert;
static uint16_t phase;
#if defined(HB_BOARD_LRA)
static int16_t net; /* signed duty summed over the updates since the coil last had no net DC */
/* The most DC a burst may carry, in duty-updates (4 ms of full drive): patterns whose amplitude
 * moves in step with the carrier reach it (a few corpus files do, PWMLimitTests), ordinary ones do
 * not. */
#define DC_LIMIT 8192
#endif

void hb_hal_output_init(void)
{
    HB_PWM_FORWARD = 0;
    HB_PWM_REVERSE = 0;
    HB_PWM_OFF();   /* the bridge's inputs outputs, low */
    HB_PWM_START(); /* non-inverting, phase-correct 8-bit, no prescaler */
}

/* An edge's length at the sharpness code s: round(ms x e), e = E0 + (256 - E0) x s' / 256 in
 * 1/256, s' = s + (s >> 7) (0..256). */
static uint8_t edge_ticks(uint8_t ms, uint8_t s)
{
    uint16_t sp = (uint16_t)(s + (s >> 7));
    uint16_t e = (uint16_t)(HB_PROFILE_MIN_EDGE_Q8 + (((256u - HB_PROFILE_MIN_EDGE_Q8) * sp) >> 8));
    return (uint8_t)(((uint16_t)ms * e + 128u) >> 8);
}

/* The envelope moves towards `target` (duty x 128, negative while braking) by alpha / 65536 of
 * the difference, rounded towards minus infinity, and never below 0. */
static void predict(int16_t target, uint16_t alpha)
{
    int32_t step = ((int32_t)target - (int32_t)envelope) * (int32_t)alpha;
    int32_t next = (int32_t)envelope + (step >> 16);
    envelope = next < 0 ? 0u : (uint16_t)next;
}

void hb_hal_output(uint8_t amplitude, uint8_t sharpness, uint8_t flags)
{
    uint8_t a = (flags & 1u) ? 0u : amplitude; /* the BRAKE flag is a fall to zero */
    uint8_t d, inv = 0;
    uint16_t inc = INC_F0;
    if (a != 0u) {
        uint8_t steady = hb_duty_scaled(a, D_R);
        if (level == 0u) { /* onset */
            kick_left = edge_ticks(HB_PROFILE_KICK_MS, sharpness);
            brake_left = 0;
        }
        level = a;
        edge_sharpness = sharpness;
        d = steady;
        if (kick_left != 0u) { /* the kick window: the burst's first kickMs */
            uint16_t target = (uint16_t)((uint16_t)steady << 7);
            kick_left--;
            if (D_O > steady && envelope < target) {
                /* under the level: at the ceiling, or at the duty that brings the prediction onto
                 * the level in this tick if that is less: E + (T - E) / alpha, rounded up */
                uint32_t land =
                    ((uint32_t)envelope + (((uint32_t)(target - envelope) * INV_ALPHA_Q8) >> 8) + 127UL) >> 7;
                d = land < D_O ? (uint8_t)land : D_O;
            }
        }
#if INC_SPAN_RAW * 255UL + 128UL <= 0xFFFFUL
        inc = (uint16_t)(INC_MIN + (uint16_t)(((uint16_t)INC_SPAN * (uint16_t)sharpness + 128u) >> 8));
#else
        inc = (uint16_t)(INC_MIN + (uint16_t)((((uint32_t)INC_SPAN) * sharpness + 128u) >> 8));
#endif
    } else {
        if (level != 0u) { /* fall: a brake at brakeRatio x the motion, for the edge's length */
            uint16_t b = (uint16_t)(((uint32_t)envelope * HB_PROFILE_BRAKE_RATIO_Q8) >> 15);
            brake_duty = b > D_O ? D_O : (uint8_t)b;
            brake_left = HB_PROFILE_BIDIRECTIONAL ? edge_ticks(HB_PROFILE_BRAKE_MS, edge_sharpness) : 0u;
            kick_left = 0;
            level = 0;
        }
        if (brake_left != 0u && brake_duty != 0u) {
            brake_left--;
            d = brake_duty;
            inv = 1;
        } else {
            brake_left = 0;
            d = 0;
        }
    }
    ATOMIC_BLOCK (ATOMIC_RESTORESTATE) {
        latch_drive = d;
        latch_increment = inc;
        latch_invert = inv;
        latch_restart = (uint8_t)(d != 0u && last_duty == 0u);
        latch_tag = hb_tick_count();
    }
    last_duty = d;
}

/* The predicted envelope follows the tick just handed over (its duty, braking or not, and the
 * gain of a driven or a coasting actuator), ready for the next tick's decisions: after the
 * hand-off, so that it takes none of the step's lead (output.h). */
void hb_output_after_step(void)
{
    uint8_t d = last_duty;
    if (latch_invert) { /* a brake tick */
        predict((int16_t)(-(int16_t)((uint16_t)d << 7)), ALPHA_DRIVEN);
    } else if (level != 0u) { /* a driven tick (its duty may round to 0) */
        predict((int16_t)((uint16_t)d << 7), ALPHA_DRIVEN);
    } else {
        predict(0, ALPHA_COAST);
    }
}

void hb_output_timer_update(uint8_t boundary)
{
    if (boundary) {
        if (latch_tag != hb_tick_count()) {
            hb_output_late_ticks++; /* the newest sample there is plays on, a tick stale */
        }
        drive = latch_drive;
        increment = latch_increment;
        invert = latch_invert;
        if (latch_restart) {
#if defined(HB_BOARD_LRA)
            /* the first half-wave of a burst reduces any DC a previous burst has not balanced yet */
            phase = net > 0 ? 0x8000u : 0u;
#else
            phase = 0;
#endif
            latch_restart = 0;
        }
    }
    uint8_t d = drive;
    uint8_t negative;
    if (d != 0u) {
        negative = (uint8_t)((uint8_t)(phase >> 15) ^ invert);
        phase = (uint16_t)(phase + increment);
#if defined(HB_BOARD_LRA)
        if (net >= DC_LIMIT) { /* a burst's DC is bounded: past the limit, the sign reduces it */
            negative = 1;
        } else if (net <= -DC_LIMIT) {
            negative = 0;
        }
#endif
    }
#if defined(HB_BOARD_LRA)
    else if (net != 0) { /* silence after a burst: drive the net DC back to zero at most at D_R */
        negative = (uint8_t)(net > 0);
        uint16_t m = negative ? (uint16_t)net : (uint16_t)(-net);
        d = m < D_R ? (uint8_t)m : D_R;
    }
#endif
    else {
        negative = 0;
    }
    if (negative) {
        HB_PWM_FORWARD = 0;
        HB_PWM_REVERSE = d;
#if defined(HB_BOARD_LRA)
        net = (int16_t)(net - d);
#endif
    } else {
        HB_PWM_FORWARD = d;
        HB_PWM_REVERSE = 0;
#if defined(HB_BOARD_LRA)
        net = (int16_t)(net + d);
#endif
    }
}

/* An H-bridge reports nothing (no bus, no sensing): what it is set for. */
uint8_t hb_output_fault(void)
{
    return 0;
}

void hb_output_diag(uint8_t *p)
{
    /* the most the caps give: duty / 255 x the highest supply */
    uint16_t rated = (uint16_t)((uint32_t)D_R * HB_SUPPLY_MAX_MV(HB_SUPPLY_MV) / 255UL);
    uint16_t limit = (uint16_t)((uint32_t)D_O * HB_SUPPLY_MAX_MV(HB_SUPPLY_MV) / 255UL);
    p[0] = HB_DIAG_STAGE_PWM;
    p[4] = (uint8_t)(HB_SUPPLY_MV & 0xFFu);
    p[5] = (uint8_t)(HB_SUPPLY_MV >> 8);
    p[6] = (uint8_t)(rated & 0xFFu);
    p[7] = (uint8_t)(rated >> 8);
    p[8] = (uint8_t)(limit & 0xFFu);
    p[9] = (uint8_t)(limit >> 8);
}

uint8_t hb_output_recalibrate(void)
{
    return HB_ERR_BAD_PARAM; /* nothing is calibrated */
}
