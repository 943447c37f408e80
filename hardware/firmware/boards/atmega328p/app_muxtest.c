/* A test program for the simulator, not a firmware (make APP=muxtest; Tests/AVREmulatorTests/
 * TCA9548AHarnessTests): it lets a test drive the I2C bus, the pins and Timer2 of the simulated
 * board through the board's own TWI master (twi.c) and UART (uart.c), so that the harness's
 * TCA9548A, DRV2605L and Timer2 models are checked against real AVR code before the multi-channel
 * firmware uses them. One command a time from the host, one reply each:
 *   'W' address reg value  -> status                 hb_twi_write_register: address, reg, value
 *   'R' address reg        -> status, value          hb_twi_read_register: address, reg, then a read
 *   'T' ocr2a ocr2b        -> 'T'                    Timer2 fast PWM on OC2A (D11) and OC2B (D3)
 *   'P' pin level          -> 'P'                    Arduino pin 2..13 an output at level (0 or 1)
 * Status is twi.h's HB_TWI_* code. twi.h has no single-byte transfer, so the mux's control
 * register is written as W 0x70 x mask (the mux keeps the last byte, SCPS207F 8.5.4) and read as
 * R 0x70 mask (which writes mask, then reads it back). */
#include <avr/interrupt.h>
#include <avr/io.h>

#include "twi.h"
#include "uart.h"

static uint8_t command_length(uint8_t command)
{
    switch (command) {
    case 'W': return 4;
    case 'R':
    case 'T':
    case 'P': return 3;
    default: return 1; /* unknown: dropped */
    }
}

static void timer2_pwm(uint8_t a, uint8_t b)
{
    DDRB |= _BV(DDB3);                                            /* OC2A = D11 */
    DDRD |= _BV(DDD3);                                            /* OC2B = D3 */
    TCCR2A = _BV(COM2A1) | _BV(COM2B1) | _BV(WGM21) | _BV(WGM20); /* fast PWM, TOP 0xFF, non-inverting */
    TCCR2B = _BV(CS21);                                           /* clk / 8: 7.8 kHz */
    OCR2A = a;
    OCR2B = b;
}

static void set_pin(uint8_t pin, uint8_t level)
{
    if (pin < 2u || pin > 13u) {
        return; /* D0, D1 are the UART */
    }
    volatile uint8_t *ddr = pin < 8u ? &DDRD : &DDRB;
    volatile uint8_t *port = pin < 8u ? &PORTD : &PORTB;
    uint8_t bit = (uint8_t)(1u << (pin < 8u ? pin : pin - 8u));
    if (level) {
        *port |= bit;
    } else {
        *port &= (uint8_t)~bit;
    }
    *ddr |= bit;
}

static void run(const uint8_t *c)
{
    uint8_t reply[2] = {c[0], 0};
    uint8_t length = 1;
    switch (c[0]) {
    case 'W': reply[0] = hb_twi_write_register(c[1], c[2], c[3]); break;
    case 'R':
        reply[0] = hb_twi_read_register(c[1], c[2], &reply[1]);
        length = 2;
        break;
    case 'T': timer2_pwm(c[1], c[2]); break;
    case 'P': set_pin(c[1], c[2]); break;
    default: return;
    }
    hb_uart_write(reply, length);
}

int main(void)
{
    uint8_t command[4];
    uint8_t have = 0;
    hb_uart_init();
    hb_twi_init();
    sei();
    for (;;) {
        if (hb_uart_rx_count() == 0u) {
            continue;
        }
        command[have++] = hb_uart_rx_take();
        if (have == command_length(command[0])) {
            run(command);
            have = 0;
        }
    }
}
