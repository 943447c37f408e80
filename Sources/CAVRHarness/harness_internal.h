/* Private state shared by the harness's files. */
#ifndef HB_AVR_HARNESS_INTERNAL_H
#define HB_AVR_HARNESS_INTERNAL_H

#include <string.h>

#include <avr_ioport.h>
#include <avr_twi.h>
#include <avr_uart.h>
#include <sim_avr.h>
#include <sim_cycle_timers.h>
#include <sim_elf.h>
#include <sim_io.h>
#include <sim_irq.h>
#include "avr_harness.h"

/* ATmega328P data-space addresses (memory-mapped I/O) the harness watches. */
#define HB_ADDR_GPIOR0 0x3Eu
#define HB_ADDR_DDRC 0x27u
#define HB_ADDR_MCUSR 0x54u
#define HB_MCUSR_EXTRF 0x02u
#define HB_ADDR_PORTC 0x28u
#define HB_ADDR_DDRD 0x2Au
#define HB_ADDR_PORTD 0x2Bu
#define HB_DRV_EN_BIT 0x10u /* PD4 (Arduino D4): the DRV2605L's EN (board.h HB_DRV_EN_*) */
#define HB_DRV_EN_ARDUINO_PIN 4
#define HB_ADDR_TCCR2B 0xB1u
#define HB_ADDR_TCCR0B 0x45u
#define HB_ADDR_OCR1AL 0x88u
#define HB_ADDR_OCR1BL 0x8Au
#define HB_ADDR_OCR2A 0xB3u
#define HB_ADDR_OCR2B 0xB4u
#define HB_ADDR_DDRB 0x24u
#define HB_ADDR_PORTB 0x25u
#define HB_ADDR_UCSR0A 0xC0u
#define HB_ADDR_UCSR0B 0xC1u
#define HB_ADDR_UBRR0L 0xC4u
#define HB_ADDR_UBRR0H 0xC5u
#define HB_RETI_OPCODE 0x9518u
/* The AVR needs 4 cycles to enter an interrupt handler; simavr does not charge them. */
#define HB_INTERRUPT_RESPONSE_CYCLES 4u
#define HB_VECTOR_COUNT 26u

typedef struct {
    uint8_t *bytes;
    size_t count, capacity;
} hb_bytes;

typedef struct {
    hb_avr_byte *items;
    size_t count, capacity, taken;
} hb_byte_log;

typedef struct {
    hb_avr_event *items;
    size_t count, capacity;
} hb_event_log;

typedef struct {
    struct hb_avr *board;
    uint8_t channel; /* its index: the mux port it sits behind (0 without a mux) */
    uint8_t registers[256];
    uint8_t selected;     /* addressed in the current transaction */
    uint8_t want_pointer; /* next written byte is the register pointer */
    uint8_t pointer;
    uint64_t first_access;
    uint64_t calibration_cycles;
    int fault;         /* HB_AVR_DRV_FAULT_* */
    double lra_hz;     /* the LRA's true resonance (what LRA_PERIOD reports) */
    int16_t output_mv; /* the output the registers command now */
    uint32_t calibrations;
    int en_pin;          /* EN's Arduino pin (pulled down), -1: tied high */
    int enabled;         /* EN is high now */
    uint32_t brown_outs; /* power losses so far (HB_AVR_DRV_FAULT_POWER_LOSS, hb_avr_drv_power_loss) */
} hb_drv_model;

typedef struct {
    int present;       /* hb_avr_mux_attach was called */
    uint8_t address7;  /* 0x70..0x77 */
    int drivers;       /* DRV2605L models behind ports 0..drivers-1 */
    uint8_t control;   /* the control register */
    uint8_t connected; /* the ports connected: the control register as of the last STOP */
    int selected;      /* addressed in the current transaction */
    int written;       /* the control register was written in it */
    int fault;         /* HB_AVR_MUX_FAULT_* */
    int stuck_port;    /* for HB_AVR_MUX_FAULT_STUCK_PORT */
    int reset_pin;     /* RESET's Arduino pin (pulled up), -1: tied high */
    int in_reset;      /* RESET is low now */
    uint32_t resets;   /* falling edges of RESET */
    uint32_t brown_outs;
} hb_mux_model;

typedef struct {
    avr_twi_t *port;         /* simavr's TWI module, for its interrupt vector */
    int owned;               /* we sent START and no STOP yet */
    int phase;               /* what the next TWINT-clearing write does */
    int pending;             /* what the running bus action finishes */
    uint8_t status;          /* TWSR status when it finishes */
    int stuck;               /* a slave holds SDA low (HB_AVR_DRV_FAULT_BUS_STUCK) */
    int sda_lost;            /* SDA held low for good: no clocking frees it (HB_AVR_DRV_FAULT_BUS_LOST) */
    int scl_held;            /* SCL held low for good: no bus action completes (HB_AVR_DRV_FAULT_BUS_HANG) */
    int scl_high;            /* SCL as the pins drive it while the TWI is off */
    int scl_pulses;          /* rising SCL edges while stuck */
    avr_io_read_t pinc_read; /* simavr's port module's PINC read, which ours wraps */
    void *pinc_param;
} hb_twi_bus;

typedef struct {
    uint64_t interval_start;
    uint64_t window_index;
    uint32_t window;
    uint32_t current[HB_AVR_PROFILE_CATEGORIES];
    hb_avr_profile_entry entries[HB_AVR_PROFILE_CATEGORIES];
    uint8_t probe_bits;
    uint64_t probe_start[8];
    uint64_t probe_isr_mark[8];
    uint64_t isr_total;  /* all interrupt cycles since boot, for subtracting from probes */
    int current_vector;  /* -1 outside handlers */
    uint64_t *pc_cycles; /* per flash word */
    size_t pc_words;
    uint64_t vector_entry;
    uint64_t origin;     /* cycle of a tick boundary: windows are counted from it */
    uint64_t group_mask; /* categories summed per tick window (hb_avr_profile_set_group) */
    uint32_t group_max;  /* the largest such sum over the closed windows */
} hb_profile;

struct hb_avr {
    avr_t *avr;
    elf_firmware_t firmware;
    avr_uart_t *uart;
    /* UART input */
    hb_bytes rx_queue;
    size_t rx_next;
    uint64_t rx_last_completion;
    int rx_timer_armed;
    hb_byte_log rx_log;
    hb_avr_uart_stats uart_stats;
    /* UART output */
    hb_byte_log tx_log;
    uint64_t tx_busy_until;
    /* outputs */
    hb_event_log events;
    hb_drv_model drv[HB_AVR_MAX_DRIVERS];
    hb_mux_model mux;
    hb_twi_bus twi;
    hb_profile profile;
    avr_irq_t *watch_irqs;                /* our notify targets */
    void (*mcu_reset)(struct avr_t *avr); /* the core's own reset, which ours wraps */
    uint64_t hold_until;                  /* the MCU sits in its bootloader until this cycle (hb_avr_reset) */
    uint32_t resets;
    uint32_t boot_start; /* byte address of a bootloader loaded in flash (hb_avr_load_bootloader), 0: none */
};

void hb_uart_link_attach(hb_avr *board);
/* After a reset of the MCU: what the harness had in flight died with it (avr_reset clears the
 * cycle timers). */
void hb_uart_link_reset(hb_avr *board);
void hb_twi_master_reset(hb_avr *board);
void hb_drv_model_mcu_reset(hb_avr *board);
void hb_drv_model_attach(hb_avr *board);
/* Sets up driver `channel` at its reset state (EN and calibration time as given). */
void hb_drv_model_init(hb_avr *board, int channel, int en_pin, uint64_t calibration_cycles);
void hb_twi_master_attach(hb_avr *board);
/* One DRV2605L's side of a transaction (the bus routes to it: i2c_bus.c). */
int hb_drv_model_start(hb_drv_model *drv, uint8_t address8);
int hb_drv_model_write(hb_drv_model *drv, uint8_t byte);
uint8_t hb_drv_model_read(hb_drv_model *drv);
/* The slaves on the bus (i2c_bus.c): the TCA9548A and the DRV2605L it connects, or the one
 * DRV2605L. start returns the ACK of the address (any slave's), write the ACK of a byte, read the
 * wired-AND of what every addressed slave drives. */
int hb_bus_start(hb_avr *board, uint8_t address8);
int hb_bus_write(hb_avr *board, uint8_t byte);
uint8_t hb_bus_read(hb_avr *board);
void hb_bus_stop(hb_avr *board);
/* Driver `channel` is on the main bus now (no mux, or its port connected). */
int hb_bus_reaches(const hb_avr *board, int channel);
/* SDA and SCL as the reachable slaves' faults hold them (after a fault or the mux's ports change). */
void hb_bus_update_lines(hb_avr *board);
/* The TCA9548A's side of a transaction (tca9548a_model.c). */
int hb_mux_start(hb_avr *board, uint8_t address8);
int hb_mux_write(hb_avr *board, uint8_t byte);
uint8_t hb_mux_read(const hb_avr *board);
void hb_mux_stop(hb_avr *board);
void hb_mux_pins_written(hb_avr *board);
/* The MCU's reset ends a transaction in flight; the mux keeps its selection (another chip). */
void hb_mux_mcu_reset(hb_avr *board);
/* A driver behind the mux started to drive (its supply's load rose). */
void hb_mux_load_rose(hb_avr *board);
/* Level of Arduino pin `pin` (0..19) as the MCU drives it, else `pulled` (its resistor). */
int hb_pin_level(const hb_avr *board, int pin, int pulled);
/* A stuck bus: SDA low until SCL has been clocked (I2C recovery); the pins' writes drive SCL. */
void hb_twi_bus_stuck(hb_avr *board, int on);
/* Lines held low for good (bus lost: SDA; bus hung: SCL). */
void hb_twi_bus_held(hb_avr *board, int sda, int scl);
/* The pins of port D changed: EN may have. */
void hb_drv_model_pins_written(hb_avr *board);
void hb_twi_pins_written(hb_avr *board);
void hb_profile_init(hb_avr *board);
void hb_profile_probe_write(hb_avr *board, uint8_t value);
void hb_profile_step(hb_avr *board, uint32_t pc_before, uint16_t opcode, uint64_t cycles);
void hb_profile_free(hb_avr *board);
/* Aligns the tick windows to a tick boundary (the cycle the tick timer started). */
void hb_profile_set_origin(hb_avr *board, uint64_t cycle);

void hb_event_append(hb_avr *board, uint8_t kind, uint8_t reg, uint8_t value);
void hb_event_append_on(hb_avr *board, uint8_t channel, uint8_t kind, uint8_t reg, uint8_t value);
void hb_byte_log_append(hb_byte_log *log, uint64_t cycle, uint8_t value);

#endif
