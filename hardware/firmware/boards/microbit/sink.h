/* The emulated board's output stage: a recorder. hb_hal_output (hb_hal.h) keeps the tick's
 * sample; once the step's notices are out, hb_sink_emit sends one 8-byte step record to the
 * harness over semihosting (QEMU's standard output):
 *
 *   0 amplitude  1 sharpness  2 flags  3 0xB5 (marks a record)
 *   4-5 bytes the protocol handler took since the previous record (little-endian)
 *   6-7 timer counts (16 MHz) from the start of the step to the hand-off (little-endian)
 *
 * Written after the notices, a record tells the harness that every byte the board sent for that
 * step is already on the UART, and which received bytes the step came after: what a replay of
 * the Swift model needs to be exact (Sources/QEMUEmulator). */
#ifndef HB_MICROBIT_SINK_H
#define HB_MICROBIT_SINK_H

#include <stdint.h>

#include "hb_hal.h"

#define HB_SINK_RECORD_SIZE 8u
#define HB_SINK_RECORD_MARK 0xB5u

void hb_sink_emit(uint16_t bytes_taken, uint32_t step_counts);

#endif
