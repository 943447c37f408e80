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

/* The receive interrupt runs for every byte (up to 50 per tick at 500 kbaud), so it is written
 * in assembly with only the registers it uses saved: 62 cycles with the interrupt response
 * instead of 84 for the C version (same behaviour: read status then data, count frame/overrun
 * errors, drop and count a byte that finds the ring full, else store it and raise the
 * high-water mark). */
ISR(USART_RX_vect, ISR_NAKED) {
    __asm__ __volatile__(
        "push r24\n\t"
        "in r24, __SREG__\n\t"
        "push r24\n\t"
        "push r25\n\t"
        "push r30\n\t"
        "push r31\n\t"
        "lds r24, %[ucsra]\n\t"
        "lds r25, %[udr]\n\t"
        "andi r24, %[errmask]\n\t"
        "breq 1f\n\t"
        "lds r30, %[errors]\n\t"
        "lds r31, %[errors]+1\n\t"
        "adiw r30, 1\n\t"
        "sts %[errors]+1, r31\n\t"
        "sts %[errors], r30\n\t"
        "1:\n\t"
        "lds r24, %[head]\n\t"
        "lds r30, %[tail]\n\t"
        "mov r31, r24\n\t"
        "sub r31, r30\n\t"          /* fill = head - tail (mod 256) */
        "cpi r31, %[size]\n\t"
        "brsh 3f\n\t"
        "inc r31\n\t"
        "lds r30, %[high]\n\t"
        "cp r30, r31\n\t"
        "brsh 2f\n\t"
        "sts %[high], r31\n\t"
        "2:\n\t"
        "mov r30, r24\n\t"
        "andi r30, %[mask]\n\t"
        "ldi r31, 0\n\t"
        "subi r30, lo8(-(%[ring]))\n\t"
        "sbci r31, hi8(-(%[ring]))\n\t"
        "st Z, r25\n\t"
        "inc r24\n\t"
        "sts %[head], r24\n\t"
        "rjmp 4f\n\t"
        "3:\n\t"
        "lds r30, %[overflows]\n\t"
        "lds r31, %[overflows]+1\n\t"
        "adiw r30, 1\n\t"
        "sts %[overflows]+1, r31\n\t"
        "sts %[overflows], r30\n\t"
        "4:\n\t"
        "pop r31\n\t"
        "pop r30\n\t"
        "pop r25\n\t"
        "pop r24\n\t"
        "out __SREG__, r24\n\t"
        "pop r24\n\t"
        "reti\n\t"
        :
        : [ucsra] "n"(_SFR_MEM_ADDR(UCSR0A)), [udr] "n"(_SFR_MEM_ADDR(UDR0)),
          [errmask] "M"(_BV(FE0) | _BV(DOR0)), [errors] "i"(&hb_uart_rx_errors),
          [overflows] "i"(&hb_uart_rx_overflows), [head] "i"(&rx_head), [tail] "i"(&rx_tail),
          [high] "i"(&hb_uart_rx_high_water), [ring] "i"(rx_ring), [size] "M"(HB_RX_BUFFER_SIZE),
          [mask] "M"(RX_MASK));
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
