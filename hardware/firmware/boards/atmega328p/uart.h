/* Interrupt-driven UART0 (pins D0 = RX, D1 = TX) with receive and transmit rings. */
#ifndef HB_UART_H
#define HB_UART_H

#include <stdint.h>

#include "board.h"

void hb_uart_init(void);

/* Bytes waiting in the receive ring. */
uint8_t hb_uart_rx_count(void);
/* Takes the oldest received byte; call only when hb_uart_rx_count() > 0. */
uint8_t hb_uart_rx_take(void);

/* Receive without the interrupt, for the main loop between long pieces of work. The receive
 * interrupt costs 49 cycles a byte; reading the UART from the main loop costs a fraction of that.
 * hb_uart_rx_mask() masks the receive interrupt (bytes wait in the chip). While masked:
 * hb_uart_rx_pump() moves the bytes that have arrived into the ring (call it while draining the
 * ring, so the chip's buffer never fills); once the ring is empty, hb_uart_rx_poll() returns 1
 * with a byte straight from the UART (order is kept either way). hb_uart_rx_unmask() hands
 * reception back to the interrupt. The main loop must unmask before any work that could outlast
 * the chip's receive buffer (two bytes plus the shift register: about 640 cycles at 500 kbaud). */
void hb_uart_rx_mask(void);
void hb_uart_rx_pump(void);
uint8_t hb_uart_rx_poll(uint8_t *byte);
void hb_uart_rx_unmask(void);

/* Free space in the transmit ring. */
uint8_t hb_uart_tx_free(void);
/* 1 when the transmit ring is empty: at most the two bytes in the UART are still going out
 * (40 us at 500 kbaud). */
uint8_t hb_uart_tx_idle(void);
/* Queues bytes for sending; waits for room when the ring is full (never drops). */
void hb_uart_write(const uint8_t *bytes, uint16_t length);

/* Statistics, read by the protocol's telemetry and by the simulator harness. */
extern volatile uint8_t hb_uart_rx_high_water; /* largest fill level seen in the RX ring */
extern volatile uint16_t hb_uart_rx_overflows; /* bytes lost to a full RX ring (stays 0 with credits) */
extern volatile uint16_t hb_uart_rx_errors;    /* frame or data-overrun errors flagged by the UART */

#endif
