/* ATmega328P board port (Arduino Uno / Nano, 16 MHz crystal): every numeric choice of the
 * port in one place. hardware/README.md explains them; the simulator harness
 * (Sources/AVREmulator) reads the same figures from its own copy and the tests compare. */
#ifndef HB_BOARD_H
#define HB_BOARD_H

#include <stdint.h>

#ifndef F_CPU
#define F_CPU 16000000UL
#endif

/* UART: 8N1 at HB_BAUD with U2X (8 samples per bit). 500 kbaud is exact at 16 MHz
 * (UBRR = 3); 115200 would be 2.1 % off even with U2X. One byte = 10 bit times = 320 cycles. */
#ifndef HB_BAUD
#define HB_BAUD 500000UL
#endif
#define HB_UBRR ((F_CPU + 4UL * HB_BAUD) / (8UL * HB_BAUD) - 1UL)

/* Receive ring: filled by the RX interrupt, drained by the main loop into the frame decoder.
 * Flow control is credit-based at the protocol level (the host never has more than
 * HB_RX_CREDIT_BYTES unprocessed bytes in flight), so the ring never overflows; the
 * high-water mark and an overflow counter prove it in the simulator. Power of two, <= 128:
 * head and tail are free-running 8-bit counters and the fill level is (head - tail). */
#ifndef HB_RX_BUFFER_SIZE
#define HB_RX_BUFFER_SIZE 128u
#endif
#define HB_RX_CREDIT_BYTES HB_RX_BUFFER_SIZE
/* Transmit ring: one largest frame (136 bytes on the wire) fits without blocking the main
 * loop; a writer that finds it full waits for the TX interrupt to make room. */
#ifndef HB_TX_BUFFER_SIZE
#define HB_TX_BUFFER_SIZE 128u
#endif

/* Tick: Timer2 in CTC mode. The output stage may ask for several updates per tick (the
 * PWM stage synthesising an LRA carrier updates 8 times per tick, at 8 kHz). */
#define HB_TICK_HZ 1000u
#define HB_CYCLES_PER_TICK (F_CPU / HB_TICK_HZ)

#endif
