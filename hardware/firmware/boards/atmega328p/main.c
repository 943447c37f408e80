/* Main loop: no sleep (simavr 1.6 takes interrupts one instruction late after `sei`, so
 * `sei(); sleep_cpu();` can hang there; and the loop is cheap). Each pass:
 *   1. when a tick has begun: let the output stage start it, run one device step and latch
 *      the sample for the next tick boundary (output.h explains the one-tick lag), and only
 *      then encode and send the step's notices (hb_app_flush);
 *   2. feed received bytes to the protocol handler until the ring is empty or the next
 *      tick begins, so a burst of bytes never delays a tick.
 * A frame whose handling is long (an UPLOAD's checksums, a COMMIT's validation) calls
 * hb_board_run_due_ticks() between bounded pieces (hb_device_set_yield), so a tick never waits
 * for more than one piece. If the loop ever falls behind by whole ticks it runs the missed
 * ticks back to back, and the output stage counts the late ones (hb_output_late_ticks). */
#include <avr/interrupt.h>
#include <avr/io.h>

#include "app.h"
#include "output.h"
#include "probe.h"
#include "tick.h"
#include "uart.h"

uint8_t hb_board_reset_flags;
/* Optiboot clears MCUSR and hands its value over in r2: save r2 before the C runtime uses it. */
static uint8_t bootloader_flags __attribute__((section(".noinit")));
void hb_board_save_r2(void) __attribute__((naked, used, section(".init0")));
void hb_board_save_r2(void) {
    __asm__ __volatile__("sts %0, r2" : "=m"(bootloader_flags));
}

/* Ticks run so far, modulo 256, against the timer's hb_tick_count(). */
static uint8_t done;

void hb_board_run_due_ticks(void) {
    while (hb_tick_count() != done) {
        done++;
        hb_output_tick_begin();
        HB_PROBE_ON(HB_PROBE_TICK);
        uint8_t amplitude, sharpness, flags;
        hb_app_step(&amplitude, &sharpness, &flags);
        hb_hal_output(amplitude, sharpness, flags);
        HB_PROBE_OFF(HB_PROBE_TICK);
        HB_PROBE_ON(HB_PROBE_NOTICES);
        hb_app_flush();
        HB_PROBE_OFF(HB_PROBE_NOTICES);
    }
}

void hb_board_yield(void) {
    if (hb_tick_count() != done) {
        /* the tick's probe region must not also count as protocol handling */
        HB_PROBE_OFF(HB_PROBE_PROTO);
        hb_board_run_due_ticks();
        HB_PROBE_ON(HB_PROBE_PROTO);
    }
}

int main(void) {
    hb_board_reset_flags = MCUSR ? MCUSR : bootloader_flags;
    MCUSR = 0;
    GPIOR0 = 0;
    hb_uart_init();
    hb_hal_output_init();
    hb_app_init();
    hb_tick_init();
    done = hb_tick_count();
    sei();
    for (;;) {
        hb_board_run_due_ticks();
        if (hb_uart_rx_count() != 0u) {
            HB_PROBE_ON(HB_PROBE_PROTO);
            do {
                hb_app_byte(hb_uart_rx_take());
            } while (hb_uart_rx_count() != 0u && hb_tick_count() == done);
            HB_PROBE_OFF(HB_PROBE_PROTO);
        }
    }
}
