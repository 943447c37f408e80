/* Compiled only with the package trait "Emulator" (Package.swift defines HB_EMULATOR): without it
 * this file is empty, so a build without the trait needs nothing from simavr. */
#ifdef HB_EMULATOR

/* UART0 link: timed byte injection into the receiver and capture of transmitted bytes.
 *
 * Input bytes bypass simavr's UART_IRQ_INPUT path on purpose: that path delays RXC by a
 * byte time after injection and paces its FIFO at 11 bit times per 8N1 byte. Instead each
 * byte enters the receive FIFO exactly when its stop bit completes, one 10-bit byte time
 * after the previous one, and RXC is raised then, as on the chip. simavr's FIFO is 64 deep
 * where the chip's is 2 (+1 in the shift register), so the harness measures the backlog at
 * every completion: 3 or more unread bytes is an overrun on real hardware. */
#include <stdlib.h>
#include <string.h>

#include "harness_internal.h"

/* simavr's header declares the FIFO type; its accessors are static, so define our own copy. */
DEFINE_FIFO(uint16_t, uart_fifo);

static uint32_t cycles_per_byte(const avr_t *avr)
{
    uint32_t ubrr = (uint32_t)(avr->data[HB_ADDR_UBRR0L] | ((avr->data[HB_ADDR_UBRR0H] & 0x0Fu) << 8));
    uint32_t per_bit = (ubrr + 1u) * ((avr->data[HB_ADDR_UCSR0A] & 0x02u) ? 8u : 16u);
    return per_bit * 10u; /* start + 8 data + stop */
}

uint32_t hb_avr_uart_cycles_per_byte(const hb_avr *board)
{
    if (!(board->avr->data[HB_ADDR_UCSR0B] & 0x18u)) {
        return 0;
    }
    return cycles_per_byte(board->avr);
}

static void deliver(hb_avr *board, uint64_t when, uint8_t value)
{
    avr_t *avr = board->avr;
    avr_uart_t *uart = board->uart;
    hb_byte_log_append(&board->rx_log, when, value);
    /* RXEN0 off: the chip ignores the line; a bootloader listens at its own rate (garbage to it) */
    if (!(avr->data[HB_ADDR_UCSR0B] & 0x10u) || (board->boot_start && avr->pc >= board->boot_start)) {
        board->uart_stats.dropped++;
        return;
    }
    uint32_t backlog = (uint32_t)uart_fifo_get_read_size(&uart->input);
    if (backlog > board->uart_stats.max_backlog) {
        board->uart_stats.max_backlog = backlog;
    }
    if (backlog >= 3u) {
        board->uart_stats.overruns++;
    }
    if (uart_fifo_isfull(&uart->input)) {
        return; /* counted as an overrun above; the chip would have lost it too */
    }
    uart_fifo_write(&uart->input, value);
    /* Keep simavr's read-rate throttle out of the way: it assumes its own input pacing. */
    uart->rxc_raise_time = 0;
    uart->rx_cnt = 0;
    avr_raise_interrupt(avr, &uart->rxc);
}

static avr_cycle_count_t rx_timer(struct avr_t *avr, avr_cycle_count_t when, void *param)
{
    hb_avr *board = param;
    (void)avr;
    deliver(board, when, board->rx_queue.bytes[board->rx_next++]);
    board->rx_last_completion = when;
    if (board->rx_next == board->rx_queue.count) {
        board->rx_next = 0;
        board->rx_queue.count = 0;
        board->rx_timer_armed = 0;
        return 0;
    }
    return when + cycles_per_byte(board->avr);
}

void hb_avr_uart_send(hb_avr *board, const uint8_t *bytes, size_t count)
{
    if (count == 0) {
        return;
    }
    if (board->avr->cycle < board->hold_until) {
        board->uart_stats.dropped += (uint32_t)count; /* the bootloader listens at its own rate */
        return;
    }
    hb_bytes *queue = &board->rx_queue;
    if (queue->count + count > queue->capacity) {
        size_t capacity = queue->capacity ? queue->capacity : 1024;
        while (capacity < queue->count + count) {
            capacity *= 2;
        }
        queue->bytes = realloc(queue->bytes, capacity);
        if (!queue->bytes) {
            abort();
        }
        queue->capacity = capacity;
    }
    memcpy(queue->bytes + queue->count, bytes, count);
    queue->count += count;
    if (!board->rx_timer_armed) {
        avr_t *avr = board->avr;
        uint64_t start = avr->cycle > board->rx_last_completion ? avr->cycle : board->rx_last_completion;
        uint64_t completion = start + cycles_per_byte(avr);
        board->rx_timer_armed = 1;
        avr_cycle_timer_register(avr, completion - avr->cycle, rx_timer, board);
    }
}

size_t hb_avr_uart_send_pending(const hb_avr *board)
{
    return board->rx_queue.count - board->rx_next;
}

static void on_tx(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    hb_avr *board = param;
    uint64_t now = board->avr->cycle;
    uint64_t start = now > board->tx_busy_until ? now : board->tx_busy_until;
    board->tx_busy_until = start + cycles_per_byte(board->avr);
    hb_byte_log_append(&board->tx_log, board->tx_busy_until, (uint8_t)value);
}

size_t hb_avr_uart_take(hb_avr *board, hb_avr_byte *out, size_t capacity)
{
    hb_byte_log *log = &board->tx_log;
    size_t n = log->count - log->taken;
    if (n > capacity) {
        n = capacity;
    }
    memcpy(out, log->items + log->taken, n * sizeof *out);
    log->taken += n;
    if (log->taken == log->count) {
        log->taken = 0;
        log->count = 0;
    }
    return n;
}

size_t hb_avr_uart_rx_log_count(const hb_avr *board)
{
    return board->rx_log.count;
}

size_t hb_avr_uart_rx_log(const hb_avr *board, hb_avr_byte *out, size_t capacity)
{
    size_t n = board->rx_log.count < capacity ? board->rx_log.count : capacity;
    memcpy(out, board->rx_log.items, n * sizeof *out);
    return n;
}

hb_avr_uart_stats hb_avr_uart_get_stats(const hb_avr *board)
{
    return board->uart_stats;
}

void hb_uart_link_reset(hb_avr *board)
{
    board->rx_queue.count = 0;
    board->rx_next = 0;
    board->rx_timer_armed = 0;
    board->tx_busy_until = board->avr->cycle;
}

void hb_uart_link_attach(hb_avr *board)
{
    for (avr_io_t *io = board->avr->io_port; io; io = io->next) {
        if (strcmp(io->kind, "uart") == 0 && ((avr_uart_t *)io)->name == '0') {
            board->uart = (avr_uart_t *)io;
        }
    }
    uint32_t flags = 0; /* no console echo, no usleep while the firmware polls */
    avr_ioctl(board->avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    avr_irq_t *output = avr_io_getirq(board->avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT);
    avr_irq_register_notify(output, on_tx, board);
}

#endif /* HB_EMULATOR */
