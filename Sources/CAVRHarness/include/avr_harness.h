/* A simulated ATmega328P board around libsimavr, for the Swift module AVREmulator.
 *
 * What the harness adds to simavr:
 *  - UART input with real timing: each byte completes one byte time (10 bit times at the
 *    firmware's configured baud) after the previous one, straight into the UART's receive
 *    FIFO, raising RXC when it completes (simavr's own input path adds a byte of delay and
 *    counts 11 bits per byte). A real ATmega328P holds 2 unread bytes plus one in the shift
 *    register; the harness reports the deepest backlog seen and counts would-be overruns.
 *  - recording of the output stages: Timer1's compare registers (OCR1A/OCR1B low bytes: PWM
 *    channel 0) and Timer2's (OCR2A/OCR2B: PWM channel 1, a second H-bridge), and a DRV2605L I2C
 *    slave model at 0x5A, or up to 8 of them behind a TCA9548A I2C switch (tca9548a_model.c),
 *    every write stamped with its cycle and its channel;
 *  - cycle profiling without breakpoints: interrupt handlers are timed from the program
 *    counter (vector entry to RETI, plus the 4-cycle interrupt response simavr does not
 *    charge), main-loop regions from the firmware's GPIOR0 probe bits (minus the interrupt
 *    cycles inside them), accumulated per 1 kHz tick window of 16,000 cycles. */
#ifndef HB_AVR_HARNESS_H
#define HB_AVR_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hb_avr hb_avr;

/* Loads an ELF for the given MCU ("atmega328p") at `frequency` Hz. On failure returns NULL
 * and writes a one-line reason into `error`. */
hb_avr *hb_avr_create(const char *elf_path, const char *mcu, uint32_t frequency, char *error,
                      size_t error_capacity);
void hb_avr_destroy(hb_avr *board);

uint64_t hb_avr_cycle(const hb_avr *board);
/* Program counter (byte address in flash). */
uint32_t hb_avr_pc(const hb_avr *board);
uint32_t hb_avr_frequency(const hb_avr *board);

enum { HB_AVR_RUNNING = 0, HB_AVR_STOPPED = 1, HB_AVR_CRASHED = 2 };
/* Runs until the cycle counter reaches `cycle` (or the core stops). Returns HB_AVR_*. */
int hb_avr_run_until(hb_avr *board, uint64_t cycle);

/* Resets the MCU as its reset pin does (an Arduino's DTR when the host opens the port): the
 * firmware restarts after `hold_cycles` in the bootloader, during which bytes sent to it are
 * dropped (they are at another baud rate to the bootloader). The DRV2605L keeps its state. */
void hb_avr_reset(hb_avr *board, uint64_t hold_cycles);
/* Resets of the MCU so far (watchdog and hb_avr_reset). */
uint32_t hb_avr_resets(const hb_avr *board);

/* UART: queue bytes for the firmware; they go out back to back from now on. */
void hb_avr_uart_send(hb_avr *board, const uint8_t *bytes, size_t count);
size_t hb_avr_uart_send_pending(const hb_avr *board);
/* Cycles per byte at the firmware's current UART settings (0 while the UART is off). */
uint32_t hb_avr_uart_cycles_per_byte(const hb_avr *board);

typedef struct {
    uint64_t cycle; /* when the byte's stop bit completed (RX) or left the shift register (TX) */
    uint8_t value;
} hb_avr_byte;
/* Bytes the firmware transmitted since the last call (up to `capacity`). */
size_t hb_avr_uart_take(hb_avr *board, hb_avr_byte *out, size_t capacity);
/* Completion cycles of the bytes injected so far, in order (for latency measurements). */
size_t hb_avr_uart_rx_log(const hb_avr *board, hb_avr_byte *out, size_t capacity);
size_t hb_avr_uart_rx_log_count(const hb_avr *board);

typedef struct {
    uint32_t max_backlog; /* most unread bytes in the UART when a new byte completed */
    uint32_t overruns;    /* completions that a real UART would have lost (backlog >= 3) */
    uint32_t dropped;     /* bytes sent while the receiver was disabled */
} hb_avr_uart_stats;
hb_avr_uart_stats hb_avr_uart_get_stats(const hb_avr *board);

/* Output events. */
enum {
    HB_AVR_EVENT_OCR1A = 0, /* value = new OCR1A low byte */
    HB_AVR_EVENT_OCR1B = 1,
    HB_AVR_EVENT_DRV_WRITE = 2,    /* reg = DRV2605L register, value = byte written */
    HB_AVR_EVENT_TIMER2_START = 3, /* the tick timer's clock was started (TCCR2B written non-zero) */
    HB_AVR_EVENT_PROBE = 4,        /* value = GPIOR0 as written: the firmware's probe bits (probe.h) */
    HB_AVR_EVENT_DRV_OUTPUT = 5,   /* the DRV2605L's output changed: reg << 8 | value = signed millivolts */
    HB_AVR_EVENT_DRV_ENABLE = 6,   /* the DRV2605L's EN changed: value = its level */
    HB_AVR_EVENT_OCR2A = 7,        /* value = new OCR2A (channel 1) */
    HB_AVR_EVENT_OCR2B = 8,        /* value = new OCR2B (channel 1) */
    HB_AVR_EVENT_MUX_SELECT = 9,   /* the TCA9548A's connected ports changed: value = their mask */
    HB_AVR_EVENT_TIMER0_START = 10 /* Timer0's clock was started (TCCR0B written non-zero): the 3.0
                                      images' tick timer, Timer2 being a PWM output there */
};
typedef struct {
    uint64_t cycle;
    uint8_t kind;
    uint8_t reg;
    uint8_t value;
    /* the output channel: 0 for Timer1 and the DRV2605L on its own (or behind port 0), 1 for
     * Timer2, n for the DRV2605L behind the mux's port n; 0 for the probe, the tick timer, the mux */
    uint8_t channel;
} hb_avr_event;
size_t hb_avr_events_count(const hb_avr *board);
/* Copies events [first, first + capacity) that exist; returns how many were copied. */
size_t hb_avr_events_copy(const hb_avr *board, size_t first, hb_avr_event *out, size_t capacity);

/* DRV2605L model: current register file and auto-calibration timing. The functions without a
 * channel act on channel 0 (the only driver without a mux); hb_avr_drv_set_en_pin and
 * hb_avr_drv_set_calibration_cycles act on every driver (one shared EN line). */
uint8_t hb_avr_drv_register(const hb_avr *board, uint8_t reg);
/* Cycle of the first I2C transaction addressed to the DRV2605L (0 if none yet). */
uint64_t hb_avr_drv_first_access(const hb_avr *board);
/* Simulated duration of an auto-calibration (cycles from GO to GO clearing). */
void hb_avr_drv_set_calibration_cycles(hb_avr *board, uint64_t cycles);
/* Failure modes of the simulated DRV2605L (drv2605l_model.c). */
enum {
    HB_AVR_DRV_FAULT_NONE = 0,
    HB_AVR_DRV_FAULT_ABSENT = 1,      /* no ACK at its address (unwired, unpowered) */
    HB_AVR_DRV_FAULT_CALIBRATION = 2, /* auto-calibration ends with DIAG_RESULT = 1 */
    HB_AVR_DRV_FAULT_OVERTEMP = 3,    /* shuts down when driving, STATUS OVER_TEMP */
    HB_AVR_DRV_FAULT_OVERCURRENT = 4, /* shuts down when driving, STATUS OC_DETECT */
    HB_AVR_DRV_FAULT_BUS_STUCK = 5,   /* SDA held low until SCL is clocked (a slave cut mid-byte) */
    HB_AVR_DRV_FAULT_POWER_LOSS = 6,  /* its supply sags whenever it drives: it browns out and comes back at
                                         its  reset defaults, in standby, its writes still acknowledged */
    HB_AVR_DRV_FAULT_BUS_LOST = 7,    /* SDA held low for good (no clocking frees it): every transfer fails */
    HB_AVR_DRV_FAULT_BUS_HANG = 8     /* SCL held low for good (a clock stretched forever): no bus action
                                         completes, not even a STOP (what hangs a Wire without time-out) */
};
void hb_avr_drv_set_fault(hb_avr *board, int fault);
/* The LRA's true resonance (LRA_PERIOD reports it); 170 Hz unless set. */
void hb_avr_drv_set_lra_hz(hb_avr *board, double hz);
/* The output the DRV2605L drives now, signed millivolts (RMS for an LRA, average for an ERM). */
int16_t hb_avr_drv_output_mv(const hb_avr *board);
/* Auto-calibrations completed since the board was created. */
uint32_t hb_avr_drv_calibrations(const hb_avr *board);
/* The chip loses power and comes back now: registers at their reset defaults, standby. */
void hb_avr_drv_power_loss(hb_avr *board);
/* Power losses so far (this call's and HB_AVR_DRV_FAULT_POWER_LOSS's). */
uint32_t hb_avr_drv_brown_outs(const hb_avr *board);
/* EN: on = wired to PD4 (Arduino D4) with a pull-down, as the wiring guide shows (low, the chip is
 * shut down: no output whatever its registers, and I2C writes are not taken, SLOS854C 8.4.1.3);
 * off (the default) = tied high, for images that do not drive it. */
void hb_avr_drv_set_en_pin(hb_avr *board, int on);
/* EN is high now (the chip may drive). */
int hb_avr_drv_enabled(const hb_avr *board);

/* ---- Several DRV2605L behind a TCA9548A I2C switch (tca9548a_model.c) ---- */
#define HB_AVR_MAX_DRIVERS 8
/* Puts a TCA9548A at 7-bit `address` (0x70..0x77: A2..A0) with `drivers` (1..8) DRV2605L behind
 * its ports 0..drivers-1, each a model of its own; without it, the one DRV2605L sits on the bus.
 * Call before running the firmware. Returns 0, or -1 for an address or count out of range. */
int hb_avr_mux_attach(hb_avr *board, uint8_t address, int drivers);
/* DRV2605L models on the board: 1 without a mux. */
int hb_avr_drv_count(const hb_avr *board);
/* The control register (what was written last) and the ports connected now (the register as of
 * the last STOP, SCPS207F 8.5.4). */
uint8_t hb_avr_mux_control(const hb_avr *board);
uint8_t hb_avr_mux_connected(const hb_avr *board);
enum {
    HB_AVR_MUX_FAULT_NONE = 0,
    HB_AVR_MUX_FAULT_ABSENT = 1,     /* no ACK at its address, nothing behind it reachable */
    HB_AVR_MUX_FAULT_STUCK_PORT = 2, /* a downstream SDA held low: connecting that port holds the
                                        main bus's SDA low until RESET deselects it */
    HB_AVR_MUX_FAULT_POWER_LOSS = 3  /* its supply sags whenever a driver behind it starts to drive:
                                        it comes back at power-on reset, no port selected */
};
/* `port`: the stuck port for HB_AVR_MUX_FAULT_STUCK_PORT (else ignored). */
void hb_avr_mux_set_fault(hb_avr *board, int fault, int port);
/* RESET (active low, pulled up) wired to Arduino pin `pin` (0..19: D0..D13, A0..A5), or -1: tied high. */
void hb_avr_mux_set_reset_pin(hb_avr *board, int pin);
/* The mux loses power and comes back now (no port selected). */
void hb_avr_mux_power_loss(hb_avr *board);
uint32_t hb_avr_mux_brown_outs(const hb_avr *board);
/* Falling edges of its RESET input so far. */
uint32_t hb_avr_mux_resets(const hb_avr *board);

/* The same as the functions above, for driver `channel` (0..hb_avr_drv_count - 1; out of range:
 * ignored, reads return 0). EN per channel: Arduino pin `pin` (as for the mux's RESET) with a
 * pull-down, or -1: tied high. Several channels may share a pin. */
uint8_t hb_avr_drv_register_at(const hb_avr *board, int channel, uint8_t reg);
void hb_avr_drv_set_fault_at(hb_avr *board, int channel, int fault);
void hb_avr_drv_set_lra_hz_at(hb_avr *board, int channel, double hz);
int16_t hb_avr_drv_output_mv_at(const hb_avr *board, int channel);
uint32_t hb_avr_drv_calibrations_at(const hb_avr *board, int channel);
void hb_avr_drv_power_loss_at(hb_avr *board, int channel);
uint32_t hb_avr_drv_brown_outs_at(const hb_avr *board, int channel);
void hb_avr_drv_set_en_pin_at(hb_avr *board, int channel, int pin);
int hb_avr_drv_enabled_at(const hb_avr *board, int channel);

/* Loads a bootloader (Intel HEX, e.g. Debian's optiboot_atmega328.hex at 0x7E00) into flash at its
 * address and makes it the reset vector, as BOOTRST and the boot-size fuses do on the board; the
 * firmware stays at 0. Resets (the watchdog's, hb_avr_reset's) then run it for real, and hb_avr_reset
 * holds nothing: bytes sent while the bootloader runs are dropped (it listens at another rate).
 * Returns 0, or -1 with a one-line reason in `error`. */
int hb_avr_load_bootloader(hb_avr *board, const char *hex_path, char *error, size_t error_capacity);
/* Byte address of the loaded bootloader, 0 when none. */
uint32_t hb_avr_boot_start(const hb_avr *board);

/* The DRV2605L's steady output for a register file (256 bytes) by the datasheet's equations (TI
 * SLOS854C 8.5.2.1 Equations 4 to 7, 8.5.2.2 Equations 8 and 9, 8.5.8.1 data formats): full scale
 * of the mode in use, the overdrive clamp, and the
 * output for an RTP code (0 unless in RTP mode out of standby; negative: reverse drive), in volts
 * (RMS for an LRA, average for an ERM) for an LRA resonating at lra_hz. */
double hb_drv2605l_full_scale_volts(const uint8_t *registers, double lra_hz);
double hb_drv2605l_clamp_volts(const uint8_t *registers, double lra_hz);
double hb_drv2605l_output_volts(const uint8_t *registers, uint8_t code, double lra_hz);

/* Memory and symbols. */
uint8_t hb_avr_read_data(const hb_avr *board, uint16_t address);
/* Data-space address of a global symbol from the ELF, or -1. */
int32_t hb_avr_symbol_address(const hb_avr *board, const char *name);

/* Profiling. Categories 0..7 are GPIOR0 probe bits (firmware/boards/atmega328p/probe.h);
 * category 8 + n is interrupt vector n (328P: 7 = TIMER2_COMPA, 8 = TIMER2_COMPB, 18 = USART_RX,
 * 19 = USART_UDRE, 24 = TWI). */
#define HB_AVR_PROFILE_CATEGORIES 40
#define HB_AVR_PROFILE_VECTOR(n) (8 + (n))
typedef struct {
    uint64_t total_cycles; /* summed over the measurement interval */
    uint64_t calls;        /* completed regions / handler invocations */
    uint32_t max_per_tick; /* most cycles in one 16,000-cycle tick window */
    uint32_t max_single;   /* longest single region or invocation */
} hb_avr_profile_entry;
/* Starts a new measurement interval at the current cycle. */
void hb_avr_profile_reset(hb_avr *board);
hb_avr_profile_entry hb_avr_profile_get(const hb_avr *board, int category);
/* Tick windows elapsed in the measurement interval (for means). */
uint64_t hb_avr_profile_ticks(const hb_avr *board);
/* Cycles per profiling window (frequency / 1000). */
uint32_t hb_avr_profile_window(const hb_avr *board);

/* A group of categories (bit i = category i) whose costs are summed per tick window: the worst
 * tick of several costs together, which the per-category maxima cannot give (their worst ticks
 * may differ). Kept across profile resets; the sum restarts with each interval. */
void hb_avr_profile_set_group(hb_avr *board, uint64_t categories);
uint32_t hb_avr_profile_group_worst(const hb_avr *board);

/* Cycles spent at each flash word (program counter / 2) since the last profile reset, for a
 * per-function breakdown against the ELF's symbols. Copies up to `capacity` words' counts. */
size_t hb_avr_pc_cycles(const hb_avr *board, uint64_t *out, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
