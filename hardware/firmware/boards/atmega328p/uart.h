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

/* Free space in the transmit ring. */
uint8_t hb_uart_tx_free(void);
/* Queues bytes for sending; waits for room when the ring is full (never drops). */
void hb_uart_write(const uint8_t *bytes, uint16_t length);

/* Statistics, read by the protocol's telemetry and by the simulator harness. */
extern volatile uint8_t hb_uart_rx_high_water; /* largest fill level seen in the RX ring */
extern volatile uint16_t hb_uart_rx_overflows; /* bytes lost to a full RX ring (stays 0 with credits) */
extern volatile uint16_t hb_uart_rx_errors;    /* frame or data-overrun errors flagged by the UART */

#endif
