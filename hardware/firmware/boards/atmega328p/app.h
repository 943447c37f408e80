/* What runs on the board: the protocol device (app_device.c, the real firmware) or the
 * bring-up self-test (app_selftest.c). main.c owns the hardware loop and calls these. */
#ifndef HB_APP_H
#define HB_APP_H

#include <stdint.h>

/* Why the board started, as main.c could tell it: MCUSR at reset (0 when the bootloader cleared it:
 * Debian's Optiboot does and passes nothing on), with HB_BOARD_SOFTWARE_RESET for a restart the
 * firmware asked for (RECALIBRATE) and HB_BOARD_HARD_STOP for the watchdog's hard stop, both marked
 * in memory a reset keeps, so they hold with any bootloader. */
extern uint8_t hb_board_reset_flags;
#define HB_BOARD_SOFTWARE_RESET 0x80u /* bits MCUSR does not have */
#define HB_BOARD_HARD_STOP 0x40u
/* Set by the application: main restarts the board once what it sent is on the line. */
extern volatile uint8_t hb_board_restart_requested;

/* The board's hooks for the protocol device (app_hooks.c): hb_device_tx_fn, hb_device_subtick_fn,
 * hb_yield_fn, hb_device_config_fn (SET_CONFIG RECALIBRATE: the stage forgets its calibration and
 * the board restarts once the ACK is out), and the reset reason (PROTOCOL.md 2.6) of
 * hb_board_reset_flags. */
void hb_board_transmit(void *ctx, const uint8_t *bytes, uint16_t length);
uint16_t hb_board_subtick(void *ctx);
void hb_board_yield_hook(void *ctx);
uint8_t hb_board_config_key(void *ctx, uint8_t key, uint32_t value);
uint8_t hb_board_reset_reason(void);

void hb_app_init(void);
/* main.c: runs the steps that have come due (and the output stage's main-loop work);
 * hb_board_yield does so from inside the protocol handler (the device's yield hook calls it
 * between pieces of a long frame). */
void hb_board_run_due_ticks(void);
void hb_board_yield(void);
/* One received byte. */
void hb_app_byte(uint8_t byte);
/* One step: fills the sample (amplitude, sharpness, flags) for this tick and nothing else; the
 * deadline-bound part, handed to the output stage right after. The 3.0 firmware
 * (app_device3.c) has hb_app3_step instead: one step, every channel's sample handed to its stage. */
void hb_app_step(uint8_t *amplitude, uint8_t *sharpness, uint8_t *flags);
void hb_app3_step(void);
/* What the step left for after the hand-off (the protocol device's notices), and the replies
 * to frames held while a step was due: encoded and sent. Called after each step and whenever
 * the main loop is idle with something pending. */
void hb_app_flush(void);
uint8_t hb_app_pending(void);

#endif
