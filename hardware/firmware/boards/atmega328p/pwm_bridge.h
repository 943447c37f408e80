/* The H-bridge a PWM stage (output_pwm.c) drives: its timer's compare registers, its pins and the
 * timer's start, chosen by HB_PWM_BRIDGE. Both timers run 8-bit phase-correct PWM at
 * 16 MHz / 510 = 31.37 kHz with no prescaler, non-inverting, so duty = OCR / 255 on either:
 *   1 (default): Timer1, OC1A = D9 (PB1) the bridge's forward input, OC1B = D10 (PB2) its reverse;
 *   2: Timer2, OC2A = D11 (PB3) forward, OC2B = D3 (PD3) reverse (the 3.0 image's second bridge,
 *      hardware/README.md; Timer2 is free there because the tick runs on Timer0). */
#ifndef HB_PWM_BRIDGE_H
#define HB_PWM_BRIDGE_H

#include <avr/io.h>

#ifndef HB_PWM_BRIDGE
#define HB_PWM_BRIDGE 1
#endif

/* Bridge 1's and bridge 2's inputs low and their timer's outputs off them (main.c, at reset). */
#define HB_PWM_BRIDGE1_OFF()                             \
    do {                                                 \
        TCCR1A = 0;                                      \
        PORTB &= (uint8_t) ~(_BV(PORTB1) | _BV(PORTB2)); \
        DDRB |= _BV(DDB1) | _BV(DDB2);                   \
    } while (0)
#define HB_PWM_BRIDGE2_OFF()            \
    do {                                \
        TCCR2A = 0;                     \
        PORTB &= (uint8_t)~_BV(PORTB3); \
        PORTD &= (uint8_t)~_BV(PORTD3); \
        DDRB |= _BV(DDB3);              \
        DDRD |= _BV(DDD3);              \
    } while (0)

#if HB_PWM_BRIDGE == 1
#define HB_PWM_FORWARD OCR1A
#define HB_PWM_REVERSE OCR1B
#define HB_PWM_OFF() HB_PWM_BRIDGE1_OFF()
#define HB_PWM_START()                                   \
    do {                                                 \
        TCCR1A = _BV(COM1A1) | _BV(COM1B1) | _BV(WGM10); \
        TCCR1B = _BV(CS10);                              \
    } while (0)
#elif HB_PWM_BRIDGE == 2
#define HB_PWM_FORWARD OCR2A
#define HB_PWM_REVERSE OCR2B
#define HB_PWM_OFF() HB_PWM_BRIDGE2_OFF()
#define HB_PWM_START()                                   \
    do {                                                 \
        TCCR2A = _BV(COM2A1) | _BV(COM2B1) | _BV(WGM20); \
        TCCR2B = _BV(CS20);                              \
    } while (0)
#else
#error "HB_PWM_BRIDGE must be 1 (Timer1) or 2 (Timer2)"
#endif

#endif
