/* The tick timer in CTC mode: 16 MHz / 64 / 250 = 1 kHz, or 16 MHz / 8 / 250 = 8 kHz when the
 * output stage needs 8 updates per tick. The 2.0 images tick on Timer2 (Timer1 drives the PWM
 * output, Timer0 is unused); the 3.0 images (HB_TICK_TIMER0) on Timer0, which leaves Timer2 to a
 * second H-bridge (PROTOCOL-3.md 3.15), with the tick trim of 3.10 (hb_tick_set_trim). Both timers
 * have the same CTC and compare units: only their registers' names and prescaler bits differ.
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

#if defined(HB_TICK_TIMER0)
#define TICK_TCCRA TCCR0A
#define TICK_TCCRB TCCR0B
#define TICK_CTC _BV(WGM01)
#define TICK_OCRA OCR0A
#define TICK_OCRB OCR0B
#define TICK_TCNT TCNT0
#define TICK_TIFR TIFR0
#define TICK_TIMSK TIMSK0
#define TICK_OCFA _BV(OCF0A)
#define TICK_OCFB _BV(OCF0B)
#define TICK_OCIEA _BV(OCIE0A)
#define TICK_OCIEB _BV(OCIE0B)
#define TICK_COMPA_vect TIMER0_COMPA_vect
#define TICK_COMPB_vect TIMER0_COMPB_vect
#define TICK_CLK_64 (_BV(CS01) | _BV(CS00))
#define TICK_CLK_8 _BV(CS01)
#else
#define TICK_TCCRA TCCR2A
#define TICK_TCCRB TCCR2B
#define TICK_CTC _BV(WGM21)
#define TICK_OCRA OCR2A
#define TICK_OCRB OCR2B
#define TICK_TCNT TCNT2
#define TICK_TIFR TIFR2
#define TICK_TIMSK TIMSK2
#define TICK_OCFA _BV(OCF2A)
#define TICK_OCFB _BV(OCF2B)
#define TICK_OCIEA _BV(OCIE2A)
#define TICK_OCIEB _BV(OCIE2B)
#define TICK_COMPA_vect TIMER2_COMPA_vect
#define TICK_COMPB_vect TIMER2_COMPB_vect
#define TICK_CLK_64 _BV(CS22)
#define TICK_CLK_8 _BV(CS21)
#endif

#if HB_OUTPUT_UPDATES_PER_TICK == 1u
#define TICK_PRESCALER_BITS TICK_CLK_64 /* clk / 64 */
#define TICK_PRESCALER 64UL
#elif HB_OUTPUT_UPDATES_PER_TICK == 8u
#define TICK_PRESCALER_BITS TICK_CLK_8 /* clk / 8 */
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
#if defined(HB_TICK_TIMER0)
/* The trim's delta (tick.h) for the tick whose sample was handed over last, taken at its boundary;
 * in the 8-update build spread over the tick's first updates, TRIM_PART counts at most each, so that
 * every update's TOP (249 + 6 at most) stays within the 8-bit timer. */
static volatile int8_t trim_latched;
#if HB_OUTPUT_UPDATES_PER_TICK > 1u
#define TRIM_PART 6
static int8_t trim_left;
#endif
#endif
#if HB_OUTPUT_UPDATES_PER_TICK > 1u
/* Starts at 1 so that the boundary update is the 8th compare match: tick n then begins
 * exactly n * 16,000 cycles after the timer starts, whatever the update rate. */
static uint8_t update_in_tick = 1;
#endif

void hb_tick_init(void)
{
    (void)hb_tick_step_lead; /* a read keeps it in the image for the harness */
    TICK_TCCRA = TICK_CTC;   /* CTC, TOP = OCRnA */
    TICK_OCRA = (uint8_t)TICK_COMPARE;
    TICK_TCNT = 0;
#if STEP_AT_COMPARE_B
    TICK_OCRB = (uint8_t)HB_STEP_OCR2B;
#endif
    TICK_TIFR = TICK_OCFA | TICK_OCFB;
#if STEP_AT_COMPARE_B && HB_OUTPUT_UPDATES_PER_TICK == 1u
    TICK_TIMSK = TICK_OCIEA | TICK_OCIEB; /* one match of each per tick */
#else
    TICK_TIMSK = TICK_OCIEA;
#endif
    TICK_TCCRB = TICK_PRESCALER_BITS;
}

#if defined(HB_TICK_TIMER0)
void hb_tick_set_trim(int8_t delta)
{
    trim_latched = delta;
}
#endif

ISR(TICK_COMPA_vect)
{
#if HB_OUTPUT_UPDATES_PER_TICK > 1u
    uint8_t update = update_in_tick;
#if defined(HB_TICK_TIMER0)
    /* this update's length (CTC: OCR0A is not buffered, and the count is a few counts past 0) */
    if (update == 0u) {
        trim_left = trim_latched;
    }
    int8_t part = trim_left > TRIM_PART ? TRIM_PART : (trim_left < -TRIM_PART ? -TRIM_PART : trim_left);
    trim_left = (int8_t)(trim_left - part);
    TICK_OCRA = (uint8_t)((int16_t)TICK_COMPARE - part);
#endif
    hb_output_timer_update(update == 0u);
    if (update == HB_STEP_UPDATE) {
#if STEP_AT_COMPARE_B
        /* compare B matches in every update: let the one of this update through */
        TICK_TIFR = TICK_OCFB;
        TICK_TIMSK = TICK_OCIEA | TICK_OCIEB;
#else
        ticks++;
#endif
    }
    update_in_tick = update == HB_OUTPUT_UPDATES_PER_TICK - 1u ? 0u : (uint8_t)(update + 1u);
#else
#if defined(HB_TICK_TIMER0)
    TICK_OCRA = (uint8_t)((int16_t)TICK_COMPARE - trim_latched);
#endif
    hb_output_timer_update(1);
#endif
}

#if STEP_AT_COMPARE_B
ISR(TICK_COMPB_vect)
{
#if HB_OUTPUT_UPDATES_PER_TICK > 1u
    TICK_TIMSK = TICK_OCIEA;
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
    uint8_t count = TICK_TCNT;
    uint8_t pending = TICK_TIFR & TICK_OCFA;
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
