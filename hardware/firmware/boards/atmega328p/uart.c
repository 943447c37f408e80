/* UART0 driver: RX interrupt fills a ring, the UDRE interrupt empties the TX ring.
 * Both rings use free-running 8-bit head/tail counters: the fill level is (head - tail)
 * modulo 256, so a ring of size N (power of two, <= 128) holds all N bytes, and each
 * counter has exactly one writer (ISR or main loop), so no locking is needed. */
#include "uart.h"

#include <avr/interrupt.h>
#include <avr/io.h>

#define RX_MASK (HB_RX_BUFFER_SIZE - 1u)
#define TX_MASK (HB_TX_BUFFER_SIZE - 1u)

#if (HB_RX_BUFFER_SIZE & RX_MASK) != 0 || HB_RX_BUFFER_SIZE > 128u
#error "HB_RX_BUFFER_SIZE must be a power of two <= 128"
#endif
#if (HB_TX_BUFFER_SIZE & TX_MASK) != 0 || HB_TX_BUFFER_SIZE > 128u
#error "HB_TX_BUFFER_SIZE must be a power of two <= 128"
#endif

static volatile uint8_t rx_ring[HB_RX_BUFFER_SIZE];
static volatile uint8_t rx_head; /* written by the ISR */
static volatile uint8_t rx_tail; /* written by the main loop */
static volatile uint8_t tx_ring[HB_TX_BUFFER_SIZE];
static volatile uint8_t tx_head; /* written by the main loop */
static volatile uint8_t tx_tail; /* written by the ISR */

volatile uint8_t hb_uart_rx_high_water;
volatile uint16_t hb_uart_rx_overflows;
volatile uint16_t hb_uart_rx_errors;

void hb_uart_init(void) {
    /* Status and frame format before the baud registers: simavr 1.6 derives its byte
     * time from U2X and the character size at the moment UBRR0L is written. */
    UCSR0A = _BV(U2X0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00); /* 8N1 */
    UBRR0H = (uint8_t)(HB_UBRR >> 8);
    UBRR0L = (uint8_t)HB_UBRR;
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

ISR(USART_RX_vect) {
    uint8_t status = UCSR0A;
    uint8_t byte = UDR0;
    if (status & (_BV(FE0) | _BV(DOR0))) {
        hb_uart_rx_errors++;
    }
    uint8_t head = rx_head;
    uint8_t fill = (uint8_t)(head - rx_tail);
    if (fill >= HB_RX_BUFFER_SIZE) {
        hb_uart_rx_overflows++;
        return;
    }
    rx_ring[head & RX_MASK] = byte;
    rx_head = (uint8_t)(head + 1u);
    fill = (uint8_t)(fill + 1u);
    if (fill > hb_uart_rx_high_water) {
        hb_uart_rx_high_water = fill;
    }
}

uint8_t hb_uart_rx_count(void) {
    return (uint8_t)(rx_head - rx_tail);
}

uint8_t hb_uart_rx_take(void) {
    uint8_t tail = rx_tail;
    uint8_t byte = rx_ring[tail & RX_MASK];
    rx_tail = (uint8_t)(tail + 1u);
    return byte;
}

ISR(USART_UDRE_vect) {
    uint8_t tail = tx_tail;
    if (tail == tx_head) {
        UCSR0B &= (uint8_t)~_BV(UDRIE0); /* ring empty: stop until the next write */
        return;
    }
    UDR0 = tx_ring[tail & TX_MASK];
    tx_tail = (uint8_t)(tail + 1u);
}

uint8_t hb_uart_tx_free(void) {
    return (uint8_t)(HB_TX_BUFFER_SIZE - (uint8_t)(tx_head - tx_tail));
}

void hb_uart_write(const uint8_t *bytes, uint16_t length) {
    for (uint16_t i = 0; i < length; i++) {
        while (hb_uart_tx_free() == 0) {
            /* the UDRE interrupt drains the ring; interrupts are enabled in the main loop */
        }
        uint8_t head = tx_head;
        tx_ring[head & TX_MASK] = bytes[i];
        tx_head = (uint8_t)(head + 1u);
        UCSR0B |= _BV(UDRIE0);
    }
}
