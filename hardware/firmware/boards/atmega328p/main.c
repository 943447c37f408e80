/* Main loop: no sleep (simavr 1.6 takes interrupts one instruction late after `sei`, so
 * `sei(); sleep_cpu();` can hang there; and the loop is cheap). Each pass:
 *   1. the output stage's work left from the last tick boundary (the DRV2605L's I2C write);
 *   2. when a step trigger has come (HB_STEP_LEAD_CYCLES before the next tick boundary, tick.h):
 *      run the device step, hand its sample to the output stage, which outputs it from that
 *      boundary, and only then encode and send the step's notices (hb_app_flush);
 *   3. receive(): send a held reply, then feed received bytes to the protocol handler until a
 *      step or the stage's work is due or a frame ends, so a burst of bytes never delays them by
 *      more than one byte; the replies to frames are held (hb_device_set_deferred_replies) and
 *      encoded and sent on the next pass, unless the next step is nearer than
 *      HB_FLUSH_GUARD_CYCLES (board.h): then they, and the bytes behind them, wait for the
 *      flush after that step.
 * A frame whose handling is long (an UPLOAD's checksums, a COMMIT's validation) calls
 * hb_board_yield() between bounded pieces (hb_device_set_yield), so a step never waits for more
 * than one piece. If the loop ever falls behind it runs the missed steps back to back, and the
 * output stage counts the late ones (hb_output_late_ticks). */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/wdt.h>

#include "app.h"
#include "output.h"
#include "probe.h"
#include "tick.h"
#include "uart.h"

uint8_t hb_board_reset_flags;
volatile uint8_t hb_board_restart_requested;
/* Optiboot clears MCUSR and hands its value over in r2: save r2 before the C runtime uses it. */
static uint8_t bootloader_flags __attribute__((section(".noinit")));
void hb_board_save_r2(void) __attribute__((naked, used, section(".init0")));
void hb_board_save_r2(void)
{
    __asm__ __volatile__("sts %0, r2" : "=m"(bootloader_flags));
}

/* The hard stop. A watchdog reset leaves the watchdog running at its shortest time-out (15 ms):
 * stop it before the C runtime's start-up, keeping MCUSR for the reset reason, and put the
 * outputs in their safe state at once (the PWM stage's pins low; the DRV2605L is reset by its
 * stage's init, its first I2C transfer). hb_board_restart marks its own resets in .noinit. */
static uint8_t reset_mcusr __attribute__((section(".noinit")));
static uint8_t restart_mark __attribute__((section(".noinit")));
#define RESTART_MARK 0xA5u
void hb_board_early(void) __attribute__((naked, used, section(".init3")));
void hb_board_early(void)
{
    reset_mcusr = MCUSR;
    MCUSR = 0;
    wdt_disable();
#if defined(HB_BOARD_PWM)
    PORTB &= (uint8_t) ~(_BV(PORTB1) | _BV(PORTB2));
    DDRB |= _BV(DDB1) | _BV(DDB2); /* D9, D10 low: the bridge's inputs, no drive */
#endif
}

/* A restart the firmware asks for (SET_CONFIG RECALIBRATE): the watchdog at 15 ms, and wait. */
static void restart(void) __attribute__((noreturn));
static void restart(void)
{
    restart_mark = RESTART_MARK;
    cli();
    wdt_enable(WDTO_15MS);
    for (;;) {
    }
}

/* Steps run so far, modulo 256, against the timer's hb_tick_count(). */
static uint8_t done;

#if defined(HB_TEST_STALL_AT_STEP)
/* Test builds only (DRV_FLAGS='-DHB_TEST_STALL_AT_STEP=n'): the main loop hangs at step n, with the
 * interrupts running, so that the simulator shows the watchdog's hard stop. */
static uint16_t steps_run;
#endif

void hb_board_run_due_ticks(void)
{
    if (hb_output_work_due()) {
        hb_output_work();
    }
    while (hb_tick_count() != done) {
        done++;
#if defined(HB_TEST_STALL_AT_STEP)
        if (++steps_run == (uint16_t)HB_TEST_STALL_AT_STEP) {
            for (;;) {
            }
        }
#endif
        HB_PROBE_ON(HB_PROBE_TICK);
        uint8_t amplitude, sharpness, flags;
        hb_app_step(&amplitude, &sharpness, &flags);
        hb_hal_output(amplitude, sharpness, flags);
        HB_PROBE_OFF(HB_PROBE_TICK);
        hb_output_after_step();
        HB_PROBE_ON(HB_PROBE_NOTICES);
        hb_app_flush();
        HB_PROBE_OFF(HB_PROBE_NOTICES);
    }
}

static uint8_t work_due(void)
{
    return (uint8_t)(hb_tick_count() != done || hb_output_work_due());
}

/* A held reply is encoded and sent now only if that cannot delay the next step (board.h,
 * HB_FLUSH_GUARD_CYCLES); the device sends it before it takes another byte, so bytes wait too. */
static uint8_t flush_may_wait(void)
{
    return (uint8_t)(hb_app_pending() && hb_tick_trigger_near());
}

void hb_board_yield(void)
{
    if (work_due()) {
        /* the step's probe region must not also count as protocol handling */
        HB_PROBE_OFF(HB_PROBE_PROTO);
        hb_board_run_due_ticks();
        HB_PROBE_ON(HB_PROBE_PROTO);
    }
}

/* Between steps: first a held reply (or notices), then received bytes to the protocol handler,
 * in order, with the receive interrupt masked: those in the ring (the interrupt's, and those
 * that arrive meanwhile), then straight from the UART (uart.h), until a step or the stage's work
 * comes due or a frame ends. A byte inside a frame costs the decoder a few dozen cycles
 * (hb_frame_decoder_push), well within the chip's two-byte buffer; anything longer (encoding a
 * reply, a frame's final 0x00 and what the frame does) runs with the interrupt on. */
static void receive(void)
{
    /* A held reply that must wait for the step, or a trigger that came after the check in
     * hb_board_run_due_ticks: round again. The guard first, then the trigger: a trigger that
     * comes between the two checks is seen by the second, and one that comes after both was
     * near at the first. */
    if (flush_may_wait() || work_due()) {
        return;
    }
    if (hb_app_pending()) {
        /* the reply to the last frame, held in case a step came due (hb_device.h) */
        HB_PROBE_ON(HB_PROBE_PROTO);
        hb_app_flush();
        HB_PROBE_OFF(HB_PROBE_PROTO);
        return;
    }
    hb_uart_rx_mask();
    while (!work_due()) {
        uint8_t byte;
        if (hb_uart_rx_count() != 0u) {
            hb_uart_rx_pump(); /* behind the bytes the interrupt stored */
            byte = hb_uart_rx_take();
        } else if (!hb_uart_rx_poll(&byte)) {
            continue;
        }
        if (byte == 0u) {
            hb_uart_rx_unmask();
        }
        HB_PROBE_ON(HB_PROBE_PROTO);
        if (byte == 0u) {
            /* A frame is handled now, maybe ticks after it arrived (held replies go first). */
            HB_PROBE_ON(HB_PROBE_FRAME);
            hb_app_byte(byte);
            HB_PROBE_OFF(HB_PROBE_FRAME);
            HB_PROBE_OFF(HB_PROBE_PROTO);
            return;
        }
        hb_app_byte(byte);
        HB_PROBE_OFF(HB_PROBE_PROTO);
    }
    hb_uart_rx_unmask();
}

int main(void)
{
    uint8_t flags = reset_mcusr ? reset_mcusr : bootloader_flags;
    if ((flags & _BV(WDRF)) && restart_mark == RESTART_MARK) {
        flags |= HB_BOARD_SOFTWARE_RESET;
    }
    hb_board_reset_flags = flags;
    restart_mark = 0;
    GPIOR0 = 0;
    /* From here a main loop that stalls for 250 ms resets the board (long waits, such as the
     * DRV2605L's auto-calibration, reset the watchdog as they go). */
    wdt_enable(WDTO_250MS);
    hb_uart_init();
    hb_hal_output_init();
    hb_app_init();
    hb_tick_init();
    done = hb_tick_count();
    sei();
    for (;;) {
        wdt_reset();
        hb_board_run_due_ticks();
        receive();
        if (hb_board_restart_requested && !hb_app_pending() && hb_uart_tx_idle()) {
            restart();
        }
    }
}
