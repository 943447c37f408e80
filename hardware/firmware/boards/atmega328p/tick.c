/* Timer2 CTC: 16 MHz / 64 / 250 = 1 kHz, or 16 MHz / 8 / 250 = 8 kHz when the output stage
 * needs 8 updates per tick. Timer1 stays free for the PWM output and Timer0 is unused.
 *
 * Two events per tick: the boundary (compare A at the first update of a tick), where the output
 * stage takes the last step's sample, and the step trigger HB_STEP_LEAD_CYCLES earlier (tick.h:
 * a compare B match, enabled in the 8-update build for the one update it falls in), which the
 * main loop answers with the next step. */
#include "tick.h"

#include <avr/interrupt.h>
#include <avr/io.h>

#include "board.h"
#include "output.h"

#if HB_OUTPUT_UPDATES_PER_TICK == 1u
#define TICK_PRESCALER_BITS _BV(CS22) /* clk / 64 */
#define TICK_PRESCALER 64UL
#elif HB_OUTPUT_UPDATES_PER_TICK == 8u
#define TICK_PRESCALER_BITS _BV(CS21) /* clk / 8 */
#define TICK_PRESCALER 8UL
#else
#error "unsupported HB_OUTPUT_UPDATES_PER_TICK"
#endif
#define TICK_COMPARE (F_CPU / TICK_PRESCALER / (HB_TICK_HZ * HB_OUTPUT_UPDATES_PER_TICK) - 1UL)
#if TICK_COMPARE != 249UL
#error "tick timer does not divide evenly"
#endif
#if HB_STEP_TIMER_PRESCALER != TICK_PRESCALER
#error "tick.h and tick.c disagree on the timer's prescaler"
#endif
/* The trigger is a compare B match (else the compare A match of update HB_STEP_UPDATE). */
#define STEP_AT_COMPARE_B (HB_STEP_OFFSET != 0UL)
/* The lead in timer counts (subtick arithmetic). */
#define LEAD_COUNTS ((uint16_t)(HB_STEP_LEAD_CYCLES / TICK_PRESCALER))

volatile const uint16_t hb_tick_step_lead = (uint16_t)HB_STEP_LEAD_CYCLES;

static volatile uint8_t ticks;
#if HB_OUTPUT_UPDATES_PER_TICK > 1u
/* Starts at 1 so that the boundary update is the 8th compare match: tick n then begins
 * exactly n * 16,000 cycles after the timer starts, whatever the update rate. */
static uint8_t update_in_tick = 1;
#endif

void hb_tick_init(void)
{
    (void)hb_tick_step_lead; /* a read keeps it in the image for the harness */
    TCCR2A = _BV(WGM21);     /* CTC, TOP = OCR2A */
    OCR2A = (uint8_t)TICK_COMPARE;
    TCNT2 = 0;
#if STEP_AT_COMPARE_B
    OCR2B = (uint8_t)HB_STEP_OCR2B;
#endif
    TIFR2 = _BV(OCF2A) | _BV(OCF2B);
#if STEP_AT_COMPARE_B && HB_OUTPUT_UPDATES_PER_TICK == 1u
    TIMSK2 = _BV(OCIE2A) | _BV(OCIE2B); /* one match of each per tick */
#else
    TIMSK2 = _BV(OCIE2A);
#endif
    TCCR2B = TICK_PRESCALER_BITS;
}

ISR(TIMER2_COMPA_vect)
{
#if HB_OUTPUT_UPDATES_PER_TICK > 1u
    uint8_t update = update_in_tick;
    hb_output_timer_update(update == 0u);
    if (update == HB_STEP_UPDATE) {
#if STEP_AT_COMPARE_B
        /* compare B matches in every update: let the one of this update through */
        TIFR2 = _BV(OCF2B);
        TIMSK2 = _BV(OCIE2A) | _BV(OCIE2B);
#else
        ticks++;
#endif
    }
    update_in_tick = update == HB_OUTPUT_UPDATES_PER_TICK - 1u ? 0u : (uint8_t)(update + 1u);
#else
    hb_output_timer_update(1);
#endif
}

#if STEP_AT_COMPARE_B
ISR(TIMER2_COMPB_vect)
{
#if HB_OUTPUT_UPDATES_PER_TICK > 1u
    TIMSK2 = _BV(OCIE2A);
#endif
    ticks++;
}
#endif

uint8_t hb_tick_count(void)
{
    return ticks;
}

/* elapsed / per_tick in 1/65536 as a multiply and a shift instead of a 32-bit division (about
 * 600 cycles of a PING's handling): floor(65536 x 128 / per_tick) fits 16 bits for both timer
 * rates and, rounded down, keeps the result under 65536; it reads less than 6/65536 low. */
#define PER_TICK_COUNTS ((TICK_COMPARE + 1UL) * HB_OUTPUT_UPDATES_PER_TICK)
#define SUBTICK_MUL (65536UL * 128UL / PER_TICK_COUNTS)
#if SUBTICK_MUL > 65535UL
#error "subtick multiplier does not fit 16 bits"
#endif

/* Timer counts since the last step trigger (0 .. PER_TICK_COUNTS - 1). */
static uint16_t counts_since_trigger(void)
{
    uint8_t sreg = SREG;
    cli();
    uint8_t count = TCNT2;
    uint8_t pending = TIFR2 & _BV(OCF2A);
#if HB_OUTPUT_UPDATES_PER_TICK > 1u
    uint8_t since =
        (uint8_t)((update_in_tick + HB_OUTPUT_UPDATES_PER_TICK - 1u) % HB_OUTPUT_UPDATES_PER_TICK);
#else
    uint8_t since = 0;
#endif
    SREG = sreg;
    if (pending && count < (TICK_COMPARE + 1u) / 2u) {
        since++; /* the compare fired while we read; its interrupt has not run yet */
    }
    /* counts since the boundary, then since the step trigger LEAD_COUNTS before it */
    uint16_t elapsed = (uint16_t)(since * (TICK_COMPARE + 1u) + count + LEAD_COUNTS);
    while (elapsed >= PER_TICK_COUNTS) {
        elapsed = (uint16_t)(elapsed - PER_TICK_COUNTS);
    }
    return elapsed;
}

uint16_t hb_tick_subtick(void)
{
    return (uint16_t)(((uint32_t)counts_since_trigger() * (uint16_t)SUBTICK_MUL) >> 7);
}

#define GUARD_COUNTS ((HB_FLUSH_GUARD_CYCLES + TICK_PRESCALER - 1UL) / TICK_PRESCALER)
#if GUARD_COUNTS >= PER_TICK_COUNTS
#error "the flush guard must be shorter than a tick"
#endif

uint8_t hb_tick_trigger_near(void)
{
    return (uint8_t)(counts_since_trigger() >= (uint16_t)(PER_TICK_COUNTS - GUARD_COUNTS));
}
