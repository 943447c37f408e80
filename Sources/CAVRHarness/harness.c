/* Compiled only with the package trait "Emulator" (Package.swift defines HB_EMULATOR): without it
 * this file is empty, so a build without the trait needs nothing from simavr. */
#ifdef HB_EMULATOR

/* Board lifetime, the run loop, memory access and the register watches. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sim_hex.h>

#include "harness_internal.h"

static void *grow(void *items, size_t *capacity, size_t needed, size_t item_size)
{
    if (needed <= *capacity) {
        return items;
    }
    size_t next = *capacity ? *capacity * 2 : 256;
    while (next < needed) {
        next *= 2;
    }
    void *grown = realloc(items, next * item_size);
    if (!grown) {
        abort(); /* out of memory in a test harness: nothing sensible to continue with */
    }
    *capacity = next;
    return grown;
}

void hb_event_append_on(hb_avr *board, uint8_t channel, uint8_t kind, uint8_t reg, uint8_t value)
{
    hb_event_log *log = &board->events;
    log->items = grow(log->items, &log->capacity, log->count + 1, sizeof *log->items);
    log->items[log->count++] = (hb_avr_event){
        .cycle = board->avr->cycle, .kind = kind, .reg = reg, .value = value, .channel = channel};
}

void hb_event_append(hb_avr *board, uint8_t kind, uint8_t reg, uint8_t value)
{
    hb_event_append_on(board, 0, kind, reg, value);
}

/* Arduino Uno pins: D0..D7 = PD0..PD7, D8..D13 = PB0..PB5, A0..A5 (14..19) = PC0..PC5. An input
 * reads as its resistor pulls it (a port's own pull-up is not enough to count). */
int hb_pin_level(const hb_avr *board, int pin, int pulled)
{
    static const uint8_t ddr[3] = {HB_ADDR_DDRD, HB_ADDR_DDRB, HB_ADDR_DDRC};
    static const uint8_t port[3] = {HB_ADDR_PORTD, HB_ADDR_PORTB, HB_ADDR_PORTC};
    if (pin < 0 || pin > 19) {
        return pulled;
    }
    int which = pin < 8 ? 0 : (pin < 14 ? 1 : 2);
    uint8_t bit = (uint8_t)(1u << (pin < 8 ? pin : (pin < 14 ? pin - 8 : pin - 14)));
    const uint8_t *d = board->avr->data;
    return (d[ddr[which]] & bit) ? (d[port[which]] & bit) != 0u : pulled;
}

/* A port's pins changed: the lines wired to them (I2C recovery, EN, the mux's RESET) may have. */
static void pins_written(hb_avr *board)
{
    hb_twi_pins_written(board);
    hb_drv_model_pins_written(board);
    hb_mux_pins_written(board);
}

void hb_byte_log_append(hb_byte_log *log, uint64_t cycle, uint8_t value)
{
    log->items = grow(log->items, &log->capacity, log->count + 1, sizeof *log->items);
    log->items[log->count++] = (hb_avr_byte){.cycle = cycle, .value = value};
}

/* simavr logs through one process-wide function; messages about no particular core (the ELF
 * loader's "Loaded N .text") would go to stdout. Keep errors, on stderr, and drop the rest. */
static void quiet_logger(avr_t *avr, const int level, const char *format, va_list args)
{
    (void)avr;
    if (level <= LOG_ERROR) {
        vfprintf(stderr, format, args);
    }
}

/* Sleeping is never real time here: the harness decides how fast simulated time runs. */
static void no_sleep(avr_t *avr, avr_cycle_count_t how_long)
{
    (void)avr;
    (void)how_long;
}

static void on_watch(struct avr_irq_t *irq, uint32_t value, void *param)
{
    hb_avr *board = param;
    switch (irq->irq) {
    case 0: hb_event_append(board, HB_AVR_EVENT_OCR1A, 0, (uint8_t)value); break;
    case 1: hb_event_append(board, HB_AVR_EVENT_OCR1B, 0, (uint8_t)value); break;
    case 2:
        hb_profile_probe_write(board, (uint8_t)value);
        hb_event_append(board, HB_AVR_EVENT_PROBE, 0, (uint8_t)value);
        break;
    case 3:
        if ((value & 7u) != 0u) {
            hb_event_append(board, HB_AVR_EVENT_TIMER2_START, 0, (uint8_t)value);
            hb_profile_set_origin(board, board->avr->cycle);
        }
        break;
    case 4:
    case 5:
    case 6:
    case 7:
    case 10:
    case 11: pins_written(board); break;
    case 8: hb_event_append_on(board, 1, HB_AVR_EVENT_OCR2A, 0, (uint8_t)value); break;
    case 9: hb_event_append_on(board, 1, HB_AVR_EVENT_OCR2B, 0, (uint8_t)value); break;
    case 12:
        if ((value & 7u) != 0u) { /* the 3.0 images' tick timer */
            hb_event_append(board, HB_AVR_EVENT_TIMER0_START, 0, (uint8_t)value);
            hb_profile_set_origin(board, board->avr->cycle);
        }
        break;
    default: break;
    }
}

#define WATCHES 13
static const char *watch_names[WATCHES] = {">ocr1a", ">ocr1b", ">gpior0", ">tccr2b", ">ddrc",
                                           ">portc", ">ddrd",  ">portd",  ">ocr2a",  ">ocr2b",
                                           ">ddrb",  ">portb", ">tccr0b"};

static void attach_watches(hb_avr *board)
{
    static const uint16_t addresses[WATCHES] = {
        HB_ADDR_OCR1AL, HB_ADDR_OCR1BL, HB_ADDR_GPIOR0, HB_ADDR_TCCR2B, HB_ADDR_DDRC,
        HB_ADDR_PORTC,  HB_ADDR_DDRD,   HB_ADDR_PORTD,  HB_ADDR_OCR2A,  HB_ADDR_OCR2B,
        HB_ADDR_DDRB,   HB_ADDR_PORTB,  HB_ADDR_TCCR0B};
    board->watch_irqs = avr_alloc_irq(&board->avr->irq_pool, 0, WATCHES, watch_names);
    for (int i = 0; i < WATCHES; i++) {
        avr_irq_t *source = avr_iomem_getirq(board->avr, addresses[i], NULL, AVR_IOMEM_IRQ_ALL);
        /* every write counts, also one that repeats the value */
        source->flags &= ~IRQ_FLAG_FILTERED;
        board->watch_irqs[i].flags &= ~IRQ_FLAG_FILTERED;
        avr_connect_irq(source, board->watch_irqs + i);
        avr_irq_register_notify(board->watch_irqs + i, on_watch, board);
    }
}

/* Wraps the core's reset (a watchdog reset, or hb_avr_reset): the harness's own state in flight
 * goes with the cycle timers avr_reset clears. */
static void on_reset(struct avr_t *avr)
{
    hb_avr *board = avr->custom.data;
    if (board->mcu_reset) {
        board->mcu_reset(avr);
    }
    board->resets++;
    hb_uart_link_reset(board);
    hb_twi_master_reset(board);
    hb_drv_model_mcu_reset(board);
    hb_mux_mcu_reset(board);
    /* the pins are inputs again: EN falls to its pull-down, the mux's RESET rises to its pull-up */
    hb_drv_model_pins_written(board);
    hb_mux_pins_written(board);
    hb_profile_probe_write(board, 0);
}

void hb_avr_reset(hb_avr *board, uint64_t hold_cycles)
{
    avr_reset(board->avr);
    board->avr->data[HB_ADDR_MCUSR] |= HB_MCUSR_EXTRF;
    /* with a bootloader in flash, it runs for real instead of the hold */
    board->hold_until = board->boot_start ? 0 : board->avr->cycle + hold_cycles;
}

int hb_avr_load_bootloader(hb_avr *board, const char *hex_path, char *error, size_t error_capacity)
{
    ihex_chunk_p chunks = NULL;
    int count = read_ihex_chunks(hex_path, &chunks);
    if (count <= 0) {
        snprintf(error, error_capacity, "%s: cannot read the bootloader (Intel HEX)", hex_path);
        return -1;
    }
    /* Data past the flash is dropped, as a programmer must: Debian's optiboot_atmega328.hex carries
     * 4 bytes at 0x8010, beyond the 32 KB. */
    uint32_t start = UINT32_MAX, flash_size = board->avr->flashend + 1u;
    for (int i = 0; i < count; i++) {
        uint32_t base = chunks[i].baseaddr, size = chunks[i].size;
        if (base == 0u) {
            snprintf(error, error_capacity, "%s: not a bootloader (data at 0x0000, the firmware's place)",
                     hex_path);
            free_ihex_chunks(chunks);
            return -1;
        }
        if (base >= flash_size) {
            continue;
        }
        memcpy(board->avr->flash + base, chunks[i].data, base + size > flash_size ? flash_size - base : size);
        if (base < start) {
            start = base;
        }
    }
    if (start == UINT32_MAX) {
        snprintf(error, error_capacity, "%s: no data within this MCU's flash", hex_path);
        free_ihex_chunks(chunks);
        return -1;
    }
    free_ihex_chunks(chunks);
    /* BOOTRST programmed, boot section from `start`: every reset enters the bootloader */
    board->boot_start = start;
    board->avr->reset_pc = start;
    board->avr->pc = start;
    return 0;
}

uint32_t hb_avr_boot_start(const hb_avr *board)
{
    return board->boot_start;
}

uint32_t hb_avr_resets(const hb_avr *board)
{
    return board->resets;
}

hb_avr *hb_avr_create(const char *elf_path, const char *mcu, uint32_t frequency, char *error,
                      size_t error_capacity)
{
    avr_global_logger_set(quiet_logger);
    hb_avr *board = calloc(1, sizeof *board);
    if (!board) {
        snprintf(error, error_capacity, "out of memory");
        return NULL;
    }
    if (elf_read_firmware(elf_path, &board->firmware) != 0) {
        snprintf(error, error_capacity, "%s: cannot read the ELF firmware", elf_path);
        free(board);
        return NULL;
    }
    board->avr = avr_make_mcu_by_name(mcu);
    if (!board->avr) {
        snprintf(error, error_capacity, "%s: simavr does not know this MCU", mcu);
        free(board);
        return NULL;
    }
    avr_init(board->avr);
    board->avr->log = LOG_NONE;
    board->avr->frequency = frequency;
    board->firmware.frequency = frequency;
    avr_load_firmware(board->avr, &board->firmware);
    board->avr->frequency = frequency;
    board->avr->sleep = no_sleep;
    board->mcu_reset = board->avr->reset;
    board->avr->reset = on_reset;
    board->avr->custom.data = board;
    attach_watches(board);
    hb_uart_link_attach(board);
    hb_drv_model_attach(board);
    hb_twi_master_attach(board);
    hb_profile_init(board);
    return board;
}

void hb_avr_destroy(hb_avr *board)
{
    if (!board) {
        return;
    }
    avr_terminate(board->avr);
    hb_profile_free(board);
    free(board->rx_queue.bytes);
    free(board->rx_log.items);
    free(board->tx_log.items);
    free(board->events.items);
    free(board);
}

uint32_t hb_avr_pc(const hb_avr *board)
{
    return board->avr->pc;
}

uint64_t hb_avr_cycle(const hb_avr *board)
{
    return board->avr->cycle;
}

uint32_t hb_avr_frequency(const hb_avr *board)
{
    return board->avr->frequency;
}

int hb_avr_run_until(hb_avr *board, uint64_t cycle)
{
    avr_t *avr = board->avr;
    if (avr->cycle < board->hold_until) { /* the bootloader's wait: the firmware does not run */
        avr->cycle = cycle < board->hold_until ? cycle : board->hold_until;
    }
    while (avr->cycle < cycle) {
        uint32_t pc = avr->pc;
        uint16_t opcode = (uint16_t)(avr->flash[pc] | (avr->flash[pc + 1] << 8));
        uint64_t before = avr->cycle;
        int state = avr_run(avr);
        hb_profile_step(board, pc, opcode, avr->cycle - before);
        if (state == cpu_Done) {
            return HB_AVR_STOPPED;
        }
        if (state == cpu_Crashed) {
            return HB_AVR_CRASHED;
        }
    }
    return HB_AVR_RUNNING;
}

size_t hb_avr_events_count(const hb_avr *board)
{
    return board->events.count;
}

size_t hb_avr_events_copy(const hb_avr *board, size_t first, hb_avr_event *out, size_t capacity)
{
    if (first >= board->events.count) {
        return 0;
    }
    size_t n = board->events.count - first;
    if (n > capacity) {
        n = capacity;
    }
    memcpy(out, board->events.items + first, n * sizeof *out);
    return n;
}

uint8_t hb_avr_read_data(const hb_avr *board, uint16_t address)
{
    if (address > board->avr->ramend) {
        return 0;
    }
    return board->avr->data[address];
}

int32_t hb_avr_symbol_address(const hb_avr *board, const char *name)
{
    for (uint32_t i = 0; i < board->firmware.symbolcount; i++) {
        const avr_symbol_t *symbol = board->firmware.symbol[i];
        if (strcmp(symbol->symbol, name) == 0) {
            /* the GNU linker places data at 0x800000 in its flat address space */
            return (symbol->addr >= 0x800000u) ? (int32_t)(symbol->addr - 0x800000u) : -1;
        }
    }
    return -1;
}

#endif /* HB_EMULATOR */
