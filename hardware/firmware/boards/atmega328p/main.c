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
#include "board.h"
#include "output.h"
#include "probe.h"
#include "pwm_bridge.h"
#include "tick.h"
#include "uart.h"

uint8_t hb_board_reset_flags;
volatile uint8_t hb_board_restart_requested;

/* The outputs in their safe state: the PWM stage's bridge inputs (D9, D10; the two-bridge image's
 * D11, D3 too) low and the timers off them (pwm_bridge.h); the DRV2605L's EN (board.h) low, every
 * driver's in the image with four behind a TCA9548A (board.h), which shuts the chip
 * down whatever its registers say. */
#if defined(HB_BOARD_PWM2)
#define OUTPUTS_OFF()         \
    do {                      \
        HB_PWM_BRIDGE1_OFF(); \
        HB_PWM_BRIDGE2_OFF(); \
    } while (0)
#elif defined(HB_BOARD_PWM)
#define OUTPUTS_OFF() HB_PWM_BRIDGE1_OFF()
#elif defined(HB_BOARD_DRV2605L_X4)
#define OUTPUTS_OFF() HB_DRV_X4_ALL_OFF()
#else
#define OUTPUTS_OFF()                                   \
    do {                                                \
        HB_DRV_EN_PORT &= (uint8_t)~_BV(HB_DRV_EN_BIT); \
        HB_DRV_EN_DDR |= _BV(HB_DRV_EN_BIT);            \
    } while (0)
#endif

/* The reset reason (app.h). MCUSR is read before anything else and cleared; what the firmware did
 * itself (the hard stop, a restart for RECALIBRATE) is marked in .noinit, which a reset keeps, so
 * it is known whatever the bootloader did to MCUSR (Debian's Optiboot clears it and passes nothing:
 * its r2 is not MCUSR, so it is not read). A watchdog reset leaves the watchdog running at its
 * shortest time-out (15 ms): it is stopped here, before the C runtime's start-up, so no bootloader
 * or start-up ever loops on it, and the outputs go to their safe state at once. */
static uint8_t reset_mcusr __attribute__((section(".noinit")));
static uint8_t restart_mark __attribute__((section(".noinit")));
#define RESTART_MARK 0xA5u   /* RECALIBRATE's restart */
#define HARD_STOP_MARK 0x5Au /* the watchdog's hard stop */
void hb_board_early(void) __attribute__((naked, used, section(".init3")));
void hb_board_early(void)
{
    reset_mcusr = MCUSR;
    MCUSR = 0;
    wdt_disable();
    OUTPUTS_OFF();
}

/* A restart the firmware asks for, with `mark` for the next boot's reset reason. With a bootloader
 * that survives a watchdog reset (board.h), the watchdog at 15 ms, and wait: the chip restarts
 * clean. Else a restart in software: the peripherals the firmware uses back to their reset values,
 * interrupts off, and a jump to the firmware's reset vector (not the bootloader's). */
static void restart(uint8_t mark) __attribute__((noreturn));
static void restart(uint8_t mark)
{
    cli();
    OUTPUTS_OFF();
    restart_mark = mark;
#if HB_BOARD_WATCHDOG_RESET
    wdt_disable(); /* a fresh 15 ms count, whatever ran before */
    wdt_enable(WDTO_15MS);
    for (;;) {
    }
#else
    wdt_disable();
    UCSR0B = 0;
    TIMSK2 = 0;
    TCCR2A = 0;
    TCCR2B = 0;
    TIMSK1 = 0;
    TCCR1A = 0;
    TCCR1B = 0;
    TWCR = 0;
#if defined(HB_TICK_TIMER0)
    TIMSK0 = 0;
    TCCR0A = 0;
    TCCR0B = 0;
#endif
    __asm__ __volatile__("jmp 0");
    __builtin_unreachable();
#endif
}

/* The hard stop: the main loop did not reset the watchdog for 250 ms. The watchdog runs in
 * interrupt-and-reset mode: this interrupt comes first, turns the outputs off and restarts the
 * board (restart above); if it cannot run (interrupts off), the next time-out resets the chip,
 * whose pins then float to their pull-downs (hardware/README.md). */
ISR(WDT_vect)
{
    restart(HARD_STOP_MARK);
}

/* Steps run so far, modulo 256, against the timer's hb_tick_count(). */
static uint8_t done;

#if defined(HB_TEST_STALL_AT_STEP)
/* Test builds only (DRV_FLAGS='-DHB_TEST_STALL_AT_STEP=n'): the main loop hangs at step n, with the
 * interrupts running, so that the simulator shows the watchdog's hard stop; not again after it. */
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
        if (++steps_run == (uint16_t)HB_TEST_STALL_AT_STEP && !(hb_board_reset_flags & HB_BOARD_HARD_STOP)) {
            for (;;) {
            }
        }
#endif
        HB_PROBE_ON(HB_PROBE_TICK);
#if defined(HB_PROTOCOL3)
        hb_app3_step();
#else
        uint8_t amplitude, sharpness, flags;
        hb_app_step(&amplitude, &sharpness, &flags);
        hb_hal_output(amplitude, sharpness, flags);
#endif
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
    uint8_t flags = reset_mcusr;
    /* after power-on or a brown-out (when MCUSR still says so) the mark is whatever RAM held */
    uint8_t mark = (flags & (_BV(PORF) | _BV(BORF))) ? 0u : restart_mark;
    if (mark == RESTART_MARK) {
        flags |= HB_BOARD_SOFTWARE_RESET;
    } else if (mark == HARD_STOP_MARK) {
        flags |= HB_BOARD_HARD_STOP;
    }
    hb_board_reset_flags = flags;
    restart_mark = 0;
    GPIOR0 = 0;
    /* From here a main loop that stalls for 250 ms is stopped (ISR(WDT_vect); long waits, such as
     * the DRV2605L's auto-calibration, reset the watchdog as they go). WDIE may be set at any time;
     * the time-out needs the timed sequence, which wdt_enable does. */
    wdt_enable(WDTO_250MS);
    WDTCSR |= _BV(WDIE);
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
            restart(RESTART_MARK);
        }
    }
}
