/* The board's side of the protocol device's hooks, shared by the 2.0 firmware (app_device.c) and
 * the 3.0 one (app_device3.c): the transmit callback, PONG's subtick, the yield between pieces of a
 * long frame, the board's SET_CONFIG key and the reset reason of the RESET notice. */
#include <avr/io.h>

#include "app.h"
#include "hb_device.h"
#include "output.h"
#include "tick.h"
#include "uart.h"

void hb_board_transmit(void *ctx, const uint8_t *bytes, uint16_t length)
{
    (void)ctx;
    hb_uart_write(bytes, length);
}

uint16_t hb_board_subtick(void *ctx)
{
    (void)ctx;
    return hb_tick_subtick();
}

/* Long frame handling pauses here between pieces: a due tick runs at once (hb_device.h). */
void hb_board_yield_hook(void *ctx)
{
    (void)ctx;
    hb_board_yield();
}

/* SET_CONFIG RECALIBRATE (PROTOCOL.md 2.13): the stage forgets its calibration and the board
 * restarts once the ACK is out (main.c), calibrating while it boots. */
uint8_t hb_board_config_key(void *ctx, uint8_t key, uint32_t value)
{
    (void)ctx;
    if (key != HB_CONFIG_RECALIBRATE || value != 1u) {
        return HB_ERR_BAD_PARAM;
    }
    uint8_t code = hb_output_recalibrate();
    if (code == 0u) {
        hb_board_restart_requested = 1;
    }
    return code;
}

/* The board's reset flags (app.h) to the protocol's reset reasons (2.6): the firmware's own marks
 * first, then MCUSR; unknown when the bootloader cleared it (Optiboot after a reset pin or power-on). */
uint8_t hb_board_reset_reason(void)
{
    uint8_t flags = hb_board_reset_flags;
    if (flags & HB_BOARD_SOFTWARE_RESET) {
        return HB_RESET_SOFTWARE;
    }
    if (flags & (HB_BOARD_HARD_STOP | _BV(WDRF))) {
        return HB_RESET_WATCHDOG;
    }
    if (flags & _BV(BORF)) {
        return HB_RESET_BROWN_OUT;
    }
    if (flags & _BV(EXTRF)) {
        return HB_RESET_PIN;
    }
    if (flags & _BV(PORF)) {
        return HB_RESET_POWER_ON;
    }
    return HB_RESET_UNKNOWN;
}
