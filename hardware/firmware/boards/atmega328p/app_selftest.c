/* Bring-up self-test (make APP=selftest): proves the UART, the tick and the output stage
 * without the protocol. It sends "HBSELFTEST\n" at boot, echoes every received byte, and
 * plays a fixed amplitude script from tick 0 that uses the program format's exact ramp rule
 * (v0 + sgn(dv) * floor((|dv| * k + floor(D / 2)) / D)); the simulator test recomputes
 * the same script and compares the recorded PWM duty tick by tick. */
#include "app.h"
#include "uart.h"

static uint16_t tick;

void hb_app_init(void) {
    static const uint8_t banner[] = "HBSELFTEST\n";
    hb_uart_write(banner, sizeof banner - 1u);
}

void hb_app_byte(uint8_t byte) {
    hb_uart_write(&byte, 1);
}

static uint8_t ramp(uint8_t v0, uint8_t v1, uint16_t duration, uint16_t k) {
    if (v1 >= v0) {
        return (uint8_t)(v0 + (uint8_t)(((uint32_t)(v1 - v0) * k + duration / 2u) / duration));
    }
    return (uint8_t)(v0 - (uint8_t)(((uint32_t)(v0 - v1) * k + duration / 2u) / duration));
}

/* Script: silence 0..9; ramp 0 -> 255 over 200 ticks (10..210), sharpness 0; hold 255 to
 * 239; ramp 255 -> 40 over 30 ticks (240..270), sharpness 200; brake 271..280; silence. */
void hb_app_tick(uint8_t *amplitude, uint8_t *sharpness, uint8_t *flags) {
    uint16_t k = tick;
    if (tick < 0xFFFFu) {
        tick++;
    }
    *flags = 0;
    *sharpness = 0;
    if (k < 10u) {
        *amplitude = 0;
    } else if (k <= 210u) {
        *amplitude = ramp(0, 255, 200, (uint16_t)(k - 10u));
    } else if (k < 240u) {
        *amplitude = 255;
    } else if (k <= 270u) {
        *amplitude = ramp(255, 40, 30, (uint16_t)(k - 240u));
        *sharpness = 200;
    } else if (k <= 280u) {
        *amplitude = 0;
        *flags = 1;
    } else {
        *amplitude = 0;
    }
}
