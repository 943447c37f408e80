/* UART0 (nRF51 RM 29): RXDRDY interrupt into a ring, TXD written byte by byte. */
#include "uart.h"

#include "hb_port_config.h"
#include "nrf51.h"

#define RING_MASK (HB_BOARD_RX_BUFFER - 1u)
#if (HB_BOARD_RX_BUFFER & RING_MASK) != 0u
#error "HB_BOARD_RX_BUFFER must be a power of two"
#endif

static volatile uint8_t ring[HB_BOARD_RX_BUFFER];
/* Free-running: the fill level is (head - tail) as a 16-bit difference, up to the ring's size. */
static volatile uint16_t head;
static uint16_t tail;
volatile uint16_t hb_uart_rx_overflows;
volatile uint16_t hb_uart_rx_total;

void hb_uart_init(void)
{
    HB_REG(UART0_BASE, UART_PSELTXD) = MICROBIT_PIN_TX;
    HB_REG(UART0_BASE, UART_PSELRXD) = MICROBIT_PIN_RX;
    HB_REG(UART0_BASE, UART_BAUDRATE) = UART_BAUDRATE_1M;
    HB_REG(UART0_BASE, UART_ENABLE) = UART_ENABLE_ENABLED;
    HB_REG(UART0_BASE, UART_EVENTS_RXDRDY) = 0u;
    HB_REG(UART0_BASE, UART_EVENTS_TXDRDY) = 0u;
    HB_REG(UART0_BASE, UART_TASKS_STARTRX) = 1u;
    HB_REG(UART0_BASE, UART_TASKS_STARTTX) = 1u;
    HB_REG(UART0_BASE, UART_INTENSET) = UART_INTEN_RXDRDY;
    NVIC_ISER = 1u << UART0_IRQ;
}

/* The event is cleared before RXD is read (RM 29.5): a byte behind it raises it again. */
void hb_uart_irq(void)
{
    while (HB_REG(UART0_BASE, UART_EVENTS_RXDRDY) != 0u) {
        HB_REG(UART0_BASE, UART_EVENTS_RXDRDY) = 0u;
        uint8_t byte = (uint8_t)HB_REG(UART0_BASE, UART_RXD);
        hb_uart_rx_total++;
        uint16_t h = head;
        if ((uint16_t)(h - tail) >= HB_BOARD_RX_BUFFER) {
            hb_uart_rx_overflows++;
            continue;
        }
        ring[h & RING_MASK] = byte;
        head = (uint16_t)(h + 1u);
    }
    HB_REG(UART0_BASE, UART_EVENTS_ERROR) = 0u;
    HB_REG(UART0_BASE, UART_ERRORSRC) = 0xFu;
}

uint16_t hb_uart_rx_count(void)
{
    return (uint16_t)(head - tail);
}

uint8_t hb_uart_rx_take(void)
{
    uint8_t byte = ring[tail & RING_MASK];
    tail = (uint16_t)(tail + 1u);
    return byte;
}

void hb_uart_write(const uint8_t *bytes, uint16_t length)
{
    for (uint16_t i = 0; i < length; i++) {
        HB_REG(UART0_BASE, UART_TXD) = bytes[i];
        while (HB_REG(UART0_BASE, UART_EVENTS_TXDRDY) == 0u) {
        }
        HB_REG(UART0_BASE, UART_EVENTS_TXDRDY) = 0u;
    }
}
