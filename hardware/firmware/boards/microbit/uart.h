/* UART0 with an interrupt-filled receive ring and blocking transmit. The ring holds what the
 * protocol's credit (PROTOCOL.md 2.5) lets the host have in flight: HB_BOARD_RX_BUFFER bytes. */
#ifndef HB_MICROBIT_UART_H
#define HB_MICROBIT_UART_H

#include <stdint.h>

void hb_uart_init(void);
/* Bytes waiting in the receive ring. */
uint16_t hb_uart_rx_count(void);
/* Takes the oldest received byte; call only when hb_uart_rx_count() > 0. */
uint8_t hb_uart_rx_take(void);
/* Sends bytes, each once the UART has taken the one before. */
void hb_uart_write(const uint8_t *bytes, uint16_t length);
/* Bytes received since boot, modulo 2^16 (a lockstep harness's grants count them, main.c). */
extern volatile uint16_t hb_uart_rx_total;
/* Bytes lost to a full ring (stays 0 while the host keeps to its credit). */
extern volatile uint16_t hb_uart_rx_overflows;

#endif
