/* PWM output stage for a motor driver / H-bridge (e.g. DRV8833 in IN/IN mode):
 * Timer1 (or Timer2: pwm_bridge.h), 8-bit phase-correct PWM at 16 MHz / 510 = 31.37 kHz
 * (inaudible), OC1A = D9 drives the bridge's "forward" input, OC1B = D10 its "reverse" input.
 * The 3.0 image with two bridges builds this file once, with HB_PWM_SHARED, for both bridges: each
 * channel's profile figures and bridge a row in flash (pwm_profile.h, pwm2_channel.h), its state
 * its own (output_pwm2.c calls it per channel). Duty = OCR / 255 exactly:
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
#include <avr/pgmspace.h>
#include <util/atomic.h>

#include "board.h"
#include "hb_drive_cap.h"
#include "hb_messages.h"
#include "output.h"
#include "pwm_bridge.h"
#include "pwm_profile.h"
#include "tick.h"

#if defined(HB_PWM_SHARED)
/* The two-bridge 3.0 image (output_pwm2.c): one copy of the stage serves every channel, each
 * function told its channel c; its figures are its row of the table in flash (pwm_profile.h,
 * hb_pwm_figures), its state its element of `states`. The one-channel stage below the #else has
 * the profile's figures as constants and its state in plain variables, as it always had. */
#define CHANNEL uint8_t c,
#define CHANNEL_ONLY uint8_t c
/* SELECT: the channel's state (ST) and its row of figures (FIG8, FIG16: read from flash where
 * used). The empty asm hides where the state is, so that the compiler keeps the pointer instead of
 * computing it again at every access (about 250 bytes). */
#define SELECT()                \
    pwm_state *st = &states[c]; \
    __asm__("" : "+r"(st));     \
    const hb_pwm_figures *row = figures(c)
#define ST(name) (st->name)
#define FIG8(name) pgm_read_byte(&row->name)
#define FIG16(name) pgm_read_word(&row->name)
#define PASS_ST st,
#define PARAM_ST pwm_state *st,
#define COUNTS_LATE (c == 0u) /* every channel is handed over together: channel 0 counts */
#define PWM_OUTPUT hb_pwm_output
#define PWM_AFTER_STEP hb_pwm_after_step
#define PWM_TIMER_UPDATE hb_pwm_timer_update
#define EDGE_TICKS_ATTR __attribute__((noinline)) /* one copy for the kick and the brake */
#if HB_PWM_SHARED != 2
#error "the shared stage has two channels' figures (pwm2_channel0.c, pwm2_channel1.c)"
#endif
extern const hb_pwm_figures hb_pwm_figures0 PROGMEM;
extern const hb_pwm_figures hb_pwm_figures1 PROGMEM;
static const hb_pwm_figures *figures(uint8_t c)
{
    return c != 0u ? &hb_pwm_figures1 : &hb_pwm_figures0;
}
#else
#define CHANNEL
#define CHANNEL_ONLY void
#define SELECT() ((void)0)
#define ST(name) name
#define FIG_d_r D_R
#define FIG_d_o D_O
#define FIG_alpha_driven ALPHA_DRIVEN
#define FIG_alpha_coast ALPHA_COAST
#define FIG_inv_alpha_q8 INV_ALPHA_Q8
#define FIG_brake_ratio_q8 HB_PROFILE_BRAKE_RATIO_Q8
#define FIG_min_edge_q8 HB_PROFILE_MIN_EDGE_Q8
#define FIG_kick_ms HB_PROFILE_KICK_MS
#define FIG_brake_ms (HB_PROFILE_BIDIRECTIONAL ? HB_PROFILE_BRAKE_MS : 0u)
#define FIG_inc_min INC_MIN
#define FIG_inc_span INC_SPAN
#define FIG_inc_f0 INC_F0
#define FIG_lra HB_PWM_IS_LRA
#define FIG8(name) FIG_##name
#define FIG16(name) FIG_##name
#define PASS_ST
#define PARAM_ST
#define COUNTS_LATE 1
#define PWM_OUTPUT hb_hal_output
#define PWM_AFTER_STEP hb_output_after_step
#define PWM_TIMER_UPDATE hb_output_timer_update
#define EDGE_TICKS_ATTR inline __attribute__((always_inline)) /* constant figures fold */
#endif

#if defined(HB_PWM_SHARED)
#define SET_FORWARD(v) (*(volatile uint8_t *)(uint16_t)FIG8(forward) = (v))
#define SET_REVERSE(v) (*(volatile uint8_t *)(uint16_t)FIG8(reverse) = (v))
#else
#define SET_FORWARD(v) (HB_PWM_FORWARD = (v))
#define SET_REVERSE(v) (HB_PWM_REVERSE = (v))
#endif
volatile uint16_t hb_output_late_ticks;
/* The most DC an LRA's burst may carry, in duty-updates (4 ms of full drive): patterns whose
 * amplitude moves in step with the carrier reach it (a few corpus files do, PWMLimitTests),
 * ordinary ones do not. */
#define DC_LIMIT 8192

#if defined(HB_PWM_SHARED)
/* A channel's state: the same as the one-channel stage's variables below, one set per channel. */
typedef struct {
    volatile uint8_t latch_drive;
    volatile uint16_t latch_increment;
    volatile uint8_t latch_invert;
    volatile uint8_t latch_restart;
    volatile uint8_t latch_tag;
    uint8_t level;
    uint8_t edge_sharpness;
    uint8_t kick_left;
    uint8_t brake_left;
    uint8_t brake_duty;
    uint8_t last_duty;
    uint16_t envelope;
    uint8_t drive;
    uint16_t increment;
    uint8_t invert;
    uint16_t phase;
    int16_t net;
} pwm_state;
static pwm_state states[HB_PWM_SHARED];
#else
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
#endif

void hb_hal_output_init(void)
{
    HB_PWM_FORWARD = 0;
    HB_PWM_REVERSE = 0;
    HB_PWM_OFF();   /* the bridge's inputs outputs, low */
    HB_PWM_START(); /* non-inverting, phase-correct 8-bit, no prescaler */
}
#endif

/* An edge's length at the sharpness code s: round(ms x e), e = E0 + (256 - E0) x s' / 256 in
 * 1/256, s' = s + (s >> 7) (0..256). */
static EDGE_TICKS_ATTR uint8_t edge_ticks(uint8_t ms, uint8_t s, uint16_t min_edge_q8)
{
    uint16_t sp = (uint16_t)(s + (s >> 7));
    uint16_t e = (uint16_t)(min_edge_q8 + (((256u - min_edge_q8) * sp) >> 8));
    return (uint8_t)(((uint16_t)ms * e + 128u) >> 8);
}

/* The envelope moves towards `target` (duty x 128, negative while braking) by alpha / 65536 of
 * the difference, rounded towards minus infinity, and never below 0. */
static void predict(PARAM_ST int16_t target, uint16_t alpha)
{
    int32_t step = ((int32_t)target - (int32_t)ST(envelope)) * (int32_t)alpha;
    int32_t next = (int32_t)ST(envelope) + (step >> 16);
    ST(envelope) = next < 0 ? 0u : (uint16_t)next;
}

void PWM_OUTPUT(CHANNEL uint8_t amplitude, uint8_t sharpness, uint8_t flags)
{
    SELECT();
    uint8_t a = (flags & 1u) ? 0u : amplitude; /* the BRAKE flag is a fall to zero */
    uint8_t d, inv = 0;
    uint8_t d_o = FIG8(d_o);
    uint16_t inc = FIG16(inc_f0);
    if (a != 0u) {
        uint8_t steady = hb_duty_scaled(a, FIG8(d_r));
        if (ST(level) == 0u) { /* onset */
            ST(kick_left) = edge_ticks(FIG8(kick_ms), sharpness, FIG16(min_edge_q8));
            ST(brake_left) = 0;
        }
        ST(level) = a;
        ST(edge_sharpness) = sharpness;
        d = steady;
        if (ST(kick_left) != 0u) { /* the kick window: the burst's first kickMs */
            uint16_t target = (uint16_t)((uint16_t)steady << 7);
            uint16_t envelope_now = ST(envelope);
            ST(kick_left)--;
            if (d_o > steady && envelope_now < target) {
                /* under the level: at the ceiling, or at the duty that brings the prediction onto
                 * the level in this tick if that is less: E + (T - E) / alpha, rounded up */
                uint32_t land = ((uint32_t)envelope_now
                                 + (((uint32_t)(target - envelope_now) * FIG16(inv_alpha_q8)) >> 8) + 127UL)
                                >> 7;
                d = land < d_o ? (uint8_t)land : d_o;
            }
        }
#if defined(HB_PWM_SHARED) || INC_SPAN_RAW * 255UL + 128UL > 0xFFFFUL
        inc = (uint16_t)(FIG16(inc_min) + (uint16_t)((((uint32_t)FIG16(inc_span)) * sharpness + 128u) >> 8));
#else
        inc = (uint16_t)(INC_MIN + (uint16_t)(((uint16_t)INC_SPAN * (uint16_t)sharpness + 128u) >> 8));
#endif
    } else {
        if (ST(level) != 0u) { /* fall: a brake at brakeRatio x the motion, for the edge's length */
            uint16_t b = (uint16_t)(((uint32_t)ST(envelope) * FIG16(brake_ratio_q8)) >> 15);
            ST(brake_duty) = b > d_o ? d_o : (uint8_t)b;
            ST(brake_left) = edge_ticks(FIG8(brake_ms), ST(edge_sharpness), FIG16(min_edge_q8));
            ST(kick_left) = 0;
            ST(level) = 0;
        }
        if (ST(brake_left) != 0u && ST(brake_duty) != 0u) {
            ST(brake_left)--;
            d = ST(brake_duty);
            inv = 1;
        } else {
            ST(brake_left) = 0;
            d = 0;
        }
    }
    ATOMIC_BLOCK (ATOMIC_RESTORESTATE) {
        ST(latch_drive) = d;
        ST(latch_increment) = inc;
        ST(latch_invert) = inv;
        ST(latch_restart) = (uint8_t)(d != 0u && ST(last_duty) == 0u);
        ST(latch_tag) = hb_tick_count();
    }
    ST(last_duty) = d;
}

/* The predicted envelope follows the tick just handed over (its duty, braking or not, and the
 * gain of a driven or a coasting actuator), ready for the next tick's decisions: after the
 * hand-off, so that it takes none of the step's lead (output.h). */
void PWM_AFTER_STEP(CHANNEL_ONLY)
{
    SELECT();
    int16_t target = (int16_t)((uint16_t)ST(last_duty) << 7); /* a driven tick (its duty may round to 0) */
    uint16_t alpha = FIG16(alpha_driven);
    if (ST(latch_invert)) { /* a brake tick */
        target = (int16_t)-target;
    } else if (ST(level) == 0u) {
        target = 0;
        alpha = FIG16(alpha_coast);
    }
    predict(PASS_ST target, alpha);
}

void PWM_TIMER_UPDATE(CHANNEL uint8_t boundary)
{
    SELECT();
    const uint8_t lra = FIG8(lra);
    (void)lra; /* the one-channel ERM stage has no carrier to balance */
    if (boundary) {
        if (ST(latch_tag) != hb_tick_count() && COUNTS_LATE) {
            hb_output_late_ticks++; /* the newest sample there is plays on, a tick stale */
        }
        ST(drive) = ST(latch_drive);
        ST(increment) = ST(latch_increment);
        ST(invert) = ST(latch_invert);
        if (ST(latch_restart)) {
#if defined(HB_PWM_SHARED) || defined(HB_BOARD_LRA)
            /* the first half-wave of a burst reduces any DC a previous burst has not balanced yet */
            ST(phase) = (lra && ST(net) > 0) ? 0x8000u : 0u;
#else
            ST(phase) = 0;
#endif
            ST(latch_restart) = 0;
        }
    }
    uint8_t d = ST(drive);
    uint8_t negative;
    if (d != 0u) {
        negative = (uint8_t)((uint8_t)(ST(phase) >> 15) ^ ST(invert));
        ST(phase) = (uint16_t)(ST(phase) + ST(increment));
#if defined(HB_PWM_SHARED) || defined(HB_BOARD_LRA)
        if (lra) {
            if (ST(net) >= DC_LIMIT) { /* a burst's DC is bounded: past the limit, the sign reduces it */
                negative = 1;
            } else if (ST(net) <= -DC_LIMIT) {
                negative = 0;
            }
        }
#endif
    }
#if defined(HB_PWM_SHARED) || defined(HB_BOARD_LRA)
    else if (lra && ST(net) != 0) { /* silence after a burst: drive the net DC back to zero at most at D_R */
        negative = (uint8_t)(ST(net) > 0);
        uint16_t m = negative ? (uint16_t)ST(net) : (uint16_t)(-ST(net));
        uint8_t d_r = FIG8(d_r);
        d = m < d_r ? (uint8_t)m : d_r;
    }
#endif
    else {
        negative = 0;
    }
    if (negative) {
        SET_FORWARD(0);
        SET_REVERSE(d);
#if defined(HB_PWM_SHARED) || defined(HB_BOARD_LRA)
        if (lra) {
            ST(net) = (int16_t)(ST(net) - d);
        }
#endif
    } else {
        SET_FORWARD(d);
        SET_REVERSE(0);
#if defined(HB_PWM_SHARED) || defined(HB_BOARD_LRA)
        if (lra) {
            ST(net) = (int16_t)(ST(net) + d);
        }
#endif
    }
}

#if !defined(HB_PWM_SHARED)
/* An H-bridge reports nothing (no bus, no sensing): what it is set for. */
uint8_t hb_output_fault(void)
{
    return 0;
}

void hb_output_diag(uint8_t *p)
{
    /* the most the caps give: duty / 255 x the highest supply */
    hb_pwm_diag(p, HB_PWM_RATED_MV, HB_PWM_LIMIT_MV);
}

uint8_t hb_output_recalibrate(void)
{
    return HB_ERR_BAD_PARAM; /* nothing is calibrated */
}
#endif
