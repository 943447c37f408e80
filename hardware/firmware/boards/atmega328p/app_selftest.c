/* Bring-up self-test (make APP=selftest): proves the UART, the tick, the output stage and the
 * portable core on the chip, without the wire protocol. It sends "HBSELFTEST\n" at boot,
 * echoes every received byte, and from tick 0 plays the built-in program below through the
 * core's validator and interpreter, then idles (after the program's brake). The simulator
 * test reads the program from the ELF, plays it through the same core built for the host and
 * the Swift model of the output stage, and compares every PWM update or DRV2605L write. */
#include "app.h"
#include "hb_config.h"
#include "hb_interp.h"
#include "uart.h"

/* 320 ticks: ramps on both channels, pulses of 10 and 20 ticks, a loop of 3 x 50 ticks, END.
 *   t0 SET_S 40; t5 RAMP_A 200/50; t60 PULSE 255,255; t80 RAMP_S 220/40; t90 LOOP 3
 *   { +10 SET_A 80; +5 PULSE 180,0; +25 RAMP_A 160/10; +10 ENDLOOP }; t250 RAMP_A 0/60; t320 END */
const uint8_t hb_selftest_program[] = {
    0x48, 0x50, 0x02, 0x01, 0xE8, 0x03, 0x1C, 0x00, 0x00, 0x00, 0x40, 0x01, 0x00, 0x00, 0xCB,
    0xEB, 0x40, 0x28, 0x25, 0xC8, 0x32, 0x9F, 0x18, 0xFF, 0xFF, 0x74, 0xDC, 0x28, 0xAA, 0x03,
    0x0A, 0x50, 0x85, 0xB4, 0x00, 0x39, 0xA0, 0x0A, 0xCA, 0x2A, 0x00, 0x3C, 0xFF, 0x27,
};
/* volatile: read at run time, so the linker keeps it for the test to find */
volatile const uint8_t hb_selftest_program_length = sizeof hb_selftest_program;
/* The validator's verdict at boot (0 = valid), for the test to check. */
volatile uint8_t hb_selftest_load_result = 0xFF;

static hb_interp interp;

void hb_app_init(void)
{
    static const uint8_t banner[] = "HBSELFTEST\n";
    hb_config config;
    hb_config_default(&config);
    hb_interp_init(&interp, &config);
    hb_selftest_load_result =
        (uint8_t)hb_interp_load(&interp, hb_selftest_program, hb_selftest_program_length);
    hb_uart_write(banner, sizeof banner - 1u);
}

void hb_app_byte(uint8_t byte)
{
    hb_uart_write(&byte, 1);
}

void hb_app_step(uint8_t *amplitude, uint8_t *sharpness, uint8_t *flags)
{
    hb_sample s = hb_interp_step(&interp);
    *amplitude = s.amp;
    *sharpness = s.sharp;
    *flags = s.flags;
}

void hb_app_flush(void)
{
}

uint8_t hb_app_pending(void)
{
    return 0;
}
