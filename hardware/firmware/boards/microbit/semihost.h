/* ARM semihosting (ARM IHI 0099 "Semihosting for AArch32 and AArch64": bkpt 0xAB on M-profile),
 * the emulated board's link to its harness besides the UART. QEMU 7.2 connects ":tt" to its own
 * standard streams: what the board writes there reaches the harness's pipe on QEMU's standard
 * output (step records, sink.h), and what the harness writes to QEMU's standard input the board
 * reads (step grants in lockstep, main.c), On a real micro:bit without a
 * debugger attached the bkpt faults: this board is the emulated one; a hardware port drives an
 * output stage instead. */
#ifndef HB_SEMIHOST_H
#define HB_SEMIHOST_H

#include <stdint.h>

/* Opens ":tt" for reading and for writing; 0 when the host refuses. */
uint8_t hb_semihost_open_console(void);
/* Writes `length` bytes to ":tt" (QEMU's standard output). */
void hb_semihost_write(const uint8_t *bytes, uint32_t length);
/* Reads `length` bytes from ":tt" (QEMU's standard input): 1 when it read them all, 0 when there
 * were none (QEMU's input is non-blocking, main.c) or at its end. */
uint8_t hb_semihost_read(uint8_t *bytes, uint32_t length);
/* 1 when the command line QEMU passes (-semihosting-config arg=...) has the word `word`. */
uint8_t hb_semihost_has_argument(const char *word);
#endif
