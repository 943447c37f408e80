/* Timer2 CTC: 16 MHz / 64 / 250 = 1 kHz, or 16 MHz / 8 / 250 = 8 kHz when the output stage
 * needs 8 updates per tick. Timer1 stays free for the PWM output and Timer0 is unused. */
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

static volatile uint8_t ticks;
#if HB_OUTPUT_UPDATES_PER_TICK > 1u
/* Starts at 1 so that the boundary update is the 8th compare match: tick n then begins
 * exactly n * 16,000 cycles after the timer starts, whatever the update rate. */
static uint8_t update_in_tick = 1;
#endif

void hb_tick_init(void) {
    TCCR2A = _BV(WGM21); /* CTC, TOP = OCR2A */
    OCR2A = (uint8_t)TICK_COMPARE;
    TCNT2 = 0;
    TIFR2 = _BV(OCF2A);
    TIMSK2 = _BV(OCIE2A);
    TCCR2B = TICK_PRESCALER_BITS;
}

ISR(TIMER2_COMPA_vect) {
#if HB_OUTPUT_UPDATES_PER_TICK > 1u
    uint8_t boundary = update_in_tick == 0u;
    hb_output_timer_update(boundary);
    if (++update_in_tick == HB_OUTPUT_UPDATES_PER_TICK) {
        update_in_tick = 0;
    }
    if (boundary) {
        ticks++;
    }
#else
    hb_output_timer_update(1);
    ticks++;
#endif
}

uint8_t hb_tick_count(void) {
    return ticks;
}

uint16_t hb_tick_subtick(void) {
    uint8_t sreg = SREG;
    cli();
    uint8_t count = TCNT2;
    uint8_t pending = TIFR2 & _BV(OCF2A);
#if HB_OUTPUT_UPDATES_PER_TICK > 1u
    uint8_t since = (uint8_t)((update_in_tick + HB_OUTPUT_UPDATES_PER_TICK - 1u) % HB_OUTPUT_UPDATES_PER_TICK);
#else
    uint8_t since = 0;
#endif
    SREG = sreg;
    if (pending && count < (TICK_COMPARE + 1u) / 2u) {
        since++; /* the compare fired while we read; its interrupt has not run yet */
    }
    uint16_t per_tick = (uint16_t)((TICK_COMPARE + 1u) * HB_OUTPUT_UPDATES_PER_TICK);
    uint16_t elapsed = (uint16_t)(since * (TICK_COMPARE + 1u) + count);
    if (elapsed >= per_tick) {
        elapsed = (uint16_t)(elapsed - per_tick);
    }
    return (uint16_t)(((uint32_t)elapsed << 16) / per_tick);
}
