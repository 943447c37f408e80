/* UART0 driver: RX interrupt fills a ring, the UDRE interrupt empties the TX ring.
 * Both rings use free-running 8-bit head/tail counters: the fill level is (head - tail)
 * modulo 256, so a ring of size N (power of two, <= 128) holds all N bytes, and each
 * counter has exactly one writer (ISR or main loop), so no locking is needed. */
#include "uart.h"

#include <avr/interrupt.h>
#include <avr/io.h>

#include "probe.h"

#define RX_MASK (HB_RX_BUFFER_SIZE - 1u)
#define TX_MASK (HB_TX_BUFFER_SIZE - 1u)

#if (HB_RX_BUFFER_SIZE & RX_MASK) != 0 || HB_RX_BUFFER_SIZE > 128u
#error "HB_RX_BUFFER_SIZE must be a power of two <= 128"
#endif
#if (HB_TX_BUFFER_SIZE & TX_MASK) != 0 || HB_TX_BUFFER_SIZE > 128u
#error "HB_TX_BUFFER_SIZE must be a power of two <= 128"
#endif

static volatile uint8_t rx_ring[HB_RX_BUFFER_SIZE];
/* The receive head lives in GPIOR1 (an I/O register: `in`/`out` take 1 cycle against 2 for
 * `lds`/`sts`), and the interrupt parks SREG in GPIOR2 instead of on the stack. Nothing else
 * on this board uses either register (GPIOR0 carries the cycle probes). */
#define rx_head GPIOR1
#define RX_SREG_SAVE GPIOR2
static volatile uint8_t rx_tail; /* written by the main loop */
static volatile uint8_t tx_ring[HB_TX_BUFFER_SIZE];
static volatile uint8_t tx_head; /* written by the main loop */
static volatile uint8_t tx_tail; /* written by the ISR */

volatile uint8_t hb_uart_rx_high_water;
volatile uint16_t hb_uart_rx_overflows;
volatile uint16_t hb_uart_rx_errors;

void hb_uart_init(void)
{
    rx_head = 0;
    /* Status and frame format before the baud registers: simavr 1.6 derives its byte
     * time from U2X and the character size at the moment UBRR0L is written. */
    UCSR0A = _BV(U2X0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00); /* 8N1 */
    UBRR0H = (uint8_t)(HB_UBRR >> 8);
    UBRR0L = (uint8_t)HB_UBRR;
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

/* Both UART interrupts save only r24 (SREG goes to GPIOR2: they do not nest) and Z, the ring
 * pointer. Their bodies refer to the GPIOR2 operand as %[sreg_save]. The assembly is kept one
 * instruction a line, as in a listing (not reflowed by clang-format). */
/* clang-format off */
#define ISR_SAVE                    \
    "push r24\n\t"                 \
    "in r24, __SREG__\n\t"         \
    "out %[sreg_save], r24\n\t"    \
    "push r30\n\t"                 \
    "push r31\n\t"
#define ISR_RESTORE                 \
    "pop r31\n\t"                  \
    "pop r30\n\t"                  \
    "in r24, %[sreg_save]\n\t"     \
    "out __SREG__, r24\n\t"        \
    "pop r24\n\t"                  \
    "reti\n\t"
/* clang-format on */

/* The receive interrupt runs for every byte (up to 50 per tick at 500 kbaud), so it is written
 * in assembly and does only what must happen per byte: count a frame or overrun error flagged
 * by the UART, drop and count a byte that finds the ring full, else store it. 49 cycles with
 * the interrupt response and the vector jump (84 for the C version). The high-water mark is
 * kept by the reader instead (hb_uart_rx_count): the fill level only grows here and only
 * shrinks there, so its peak is always seen by the next count taken before a byte is read. */
ISR(USART_RX_vect, ISR_NAKED)
{
    /* clang-format off */
    __asm__ __volatile__(
        ISR_SAVE
        "lds r24, %[ucsra]\n\t"       /* FE and DOR are valid only before UDR0 is read */
        "andi r24, %[errmask]\n\t"
        "brne 2f\n\t"
        "1:\n\t"
        "in r30, %[head]\n\t"
        "lds r31, %[tail]\n\t"
        "mov r24, r30\n\t"
        "sub r24, r31\n\t"            /* fill = head - tail (mod 256) */
        "cpi r24, %[size]\n\t"
        "brsh 3f\n\t"
        "mov r24, r30\n\t"
        "inc r24\n\t"
        "out %[head], r24\n\t"        /* the reader cannot run before the byte is stored below */
        "andi r30, %[mask]\n\t"
        "ldi r31, 0\n\t"
        "subi r30, lo8(-(%[ring]))\n\t"
        "sbci r31, hi8(-(%[ring]))\n\t"
        "lds r24, %[udr]\n\t"
        "st Z, r24\n\t"
        "4:\n\t"
        ISR_RESTORE
        "2:\n\t"                       /* rare: a frame or overrun error */
        "lds r30, %[errors]\n\t"
        "lds r31, %[errors]+1\n\t"
        "adiw r30, 1\n\t"
        "sts %[errors]+1, r31\n\t"
        "sts %[errors], r30\n\t"
        "rjmp 1b\n\t"
        "3:\n\t"                       /* ring full (never with credits): drop, count */
        "lds r24, %[udr]\n\t"
        "lds r30, %[overflows]\n\t"
        "lds r31, %[overflows]+1\n\t"
        "adiw r30, 1\n\t"
        "sts %[overflows]+1, r31\n\t"
        "sts %[overflows], r30\n\t"
        "rjmp 4b\n\t"
        :
        : [ucsra] "n"(_SFR_MEM_ADDR(UCSR0A)), [udr] "n"(_SFR_MEM_ADDR(UDR0)),
          [errmask] "M"(_BV(FE0) | _BV(DOR0)), [errors] "i"(&hb_uart_rx_errors),
          [overflows] "i"(&hb_uart_rx_overflows), [head] "I"(_SFR_IO_ADDR(GPIOR1)),
          [sreg_save] "I"(_SFR_IO_ADDR(GPIOR2)), [tail] "i"(&rx_tail),
          [ring] "i"(rx_ring), [size] "M"(HB_RX_BUFFER_SIZE), [mask] "M"(RX_MASK));
    /* clang-format on */
}

uint8_t hb_uart_rx_count(void)
{
    uint8_t count = (uint8_t)(rx_head - rx_tail);
    if (count > hb_uart_rx_high_water) {
        hb_uart_rx_high_water = count;
    }
    return count;
}

void hb_uart_rx_mask(void)
{
    UCSR0B = (uint8_t)(UCSR0B & (uint8_t)~_BV(RXCIE0)); /* UDRIE0 as it is: TX keeps running */
}

void hb_uart_rx_unmask(void)
{
    UCSR0B = (uint8_t)(UCSR0B | _BV(RXCIE0));
}

void hb_uart_rx_pump(void)
{
    uint8_t status;
    while ((status = UCSR0A) & _BV(RXC0)) {
        HB_PROBE_ON(HB_PROBE_UART);
        if (status & (_BV(FE0) | _BV(DOR0))) { /* valid only before UDR0 is read */
            hb_uart_rx_errors++;
        }
        uint8_t byte = UDR0;
        uint8_t head = rx_head;
        if ((uint8_t)(head - rx_tail) < HB_RX_BUFFER_SIZE) {
            rx_ring[head & RX_MASK] = byte;
            rx_head = (uint8_t)(head + 1u);
        } else {
            hb_uart_rx_overflows++;
        }
        HB_PROBE_OFF(HB_PROBE_UART);
    }
}

uint8_t hb_uart_rx_poll(uint8_t *byte)
{
    uint8_t status = UCSR0A;
    if ((status & _BV(RXC0)) == 0u) {
        return 0; /* nothing arrived: the caller's idle time, not receive work */
    }
    HB_PROBE_ON(HB_PROBE_UART);
    if (status & (_BV(FE0) | _BV(DOR0))) { /* valid only before UDR0 is read */
        hb_uart_rx_errors++;
    }
    *byte = UDR0;
    HB_PROBE_OFF(HB_PROBE_UART);
    return 1;
}

uint8_t hb_uart_rx_take(void)
{
    uint8_t tail = rx_tail;
    uint8_t byte = rx_ring[tail & RX_MASK];
    rx_tail = (uint8_t)(tail + 1u);
    return byte;
}

/* The transmit interrupt, in assembly for the same reason as the receive one: 45 cycles a byte
 * with the response and the vector jump (61 for the C version). */
ISR(USART_UDRE_vect, ISR_NAKED)
{
    /* clang-format off */
    __asm__ __volatile__(
        ISR_SAVE
        "lds r30, %[tail]\n\t"
        "lds r24, %[head]\n\t"
        "cp r30, r24\n\t"
        "breq 2f\n\t"
        "mov r24, r30\n\t"
        "inc r24\n\t"
        "sts %[tail], r24\n\t"
        "andi r30, %[mask]\n\t"
        "ldi r31, 0\n\t"
        "subi r30, lo8(-(%[ring]))\n\t"
        "sbci r31, hi8(-(%[ring]))\n\t"
        "ld r24, Z\n\t"
        "sts %[udr], r24\n\t"
        "1:\n\t"
        ISR_RESTORE
        "2:\n\t"                       /* ring empty: stop until the next write */
        "lds r24, %[ucsrb]\n\t"
        "andi r24, %[no_udrie]\n\t"
        "sts %[ucsrb], r24\n\t"
        "rjmp 1b\n\t"
        :
        : [udr] "n"(_SFR_MEM_ADDR(UDR0)), [ucsrb] "n"(_SFR_MEM_ADDR(UCSR0B)),
          [no_udrie] "M"(0xFF & ~_BV(UDRIE0)), [sreg_save] "I"(_SFR_IO_ADDR(GPIOR2)),
          [head] "i"(&tx_head), [tail] "i"(&tx_tail), [ring] "i"(tx_ring), [mask] "M"(TX_MASK));
    /* clang-format on */
}

uint8_t hb_uart_tx_idle(void)
{
    return (uint8_t)(tx_head == tx_tail);
}

uint8_t hb_uart_tx_free(void)
{
    return (uint8_t)(HB_TX_BUFFER_SIZE - (uint8_t)(tx_head - tx_tail));
}

void hb_uart_write(const uint8_t *bytes, uint16_t length)
{
    for (uint16_t i = 0; i < length; i++) {
        while (hb_uart_tx_free() == 0) {
            /* The UDRE interrupt drains the ring (interrupts are enabled in the main loop). With
             * the receive interrupt masked (uart.h), keep moving received bytes meanwhile. */
            if ((UCSR0B & _BV(RXCIE0)) == 0u) {
                hb_uart_rx_pump();
            }
        }
        uint8_t head = tx_head;
        tx_ring[head & TX_MASK] = bytes[i];
        tx_head = (uint8_t)(head + 1u);
        UCSR0B |= _BV(UDRIE0);
    }
}
