/* Compiled only with the package trait "Emulator" (Package.swift defines HB_EMULATOR): without it
 * this file is empty, so a build without the trait needs nothing from simavr. */
#ifdef HB_EMULATOR

/* A TCA9548A 8-channel I2C switch (TI SCPS207F, "Low-Voltage 8-Channel I2C Switch with Reset";
 * revision H numbers the same sections 7.4.1, 7.4.2, 7.5.2 to 7.5.4), with DRV2605L models behind
 * ports 0..N-1 (i2c_bus.c routes the transactions):
 *  - address 0x70 + A2A1A0 (8.5.2, Table 1);
 *  - one control register, bit n = channel n, written by the byte(s) after the address (several
 *    bytes: the last one is kept) and read back by a read (8.5.3, 8.5.4); several channels may be
 *    selected at once; a channel becomes active only after a STOP (8.5.4), and stays so until the
 *    register is written again, RESET, or power-on reset;
 *  - RESET, active low with a pull-up: registers and the I2C state machine reset, every channel
 *    deselected (8.4.1); power-on reset: the same, all zeroes (8.4.2). While RESET is low the chip
 *    takes no transaction.
 * Faults (hb_avr_mux_set_fault): ABSENT, no ACK at its address and nothing behind it reachable;
 * STUCK_PORT, a downstream SDA held low (a slave on that channel hung), which once connected holds
 * the main bus's SDA low, so that no START gets through until RESET deselects it (why the chip has
 * RESET, 8.4.1); POWER_LOSS, its supply sags whenever a driver behind it starts to drive: it comes
 * back from power-on reset, no channel selected, and the drivers keep driving (another rail). */
#include "harness_internal.h"

static void set_connected(hb_avr *board, uint8_t ports)
{
    hb_mux_model *mux = &board->mux;
    if (ports != mux->connected) {
        mux->connected = ports;
        hb_event_append(board, HB_AVR_EVENT_MUX_SELECT, 0, ports);
    }
    hb_bus_update_lines(board);
}

/* Power-on reset or RESET: all zeroes, every channel deselected. */
static void reset_state(hb_avr *board)
{
    board->mux.control = 0;
    board->mux.selected = 0;
    board->mux.written = 0;
    set_connected(board, 0);
}

int hb_avr_mux_attach(hb_avr *board, uint8_t address, int drivers)
{
    if (address < 0x70u || address > 0x77u || drivers < 1 || drivers > HB_AVR_MAX_DRIVERS) {
        return -1;
    }
    hb_mux_model *mux = &board->mux;
    memset(mux, 0, sizeof *mux);
    mux->present = 1;
    mux->address7 = address;
    mux->drivers = drivers;
    mux->reset_pin = -1;
    for (int i = 1; i < drivers; i++) { /* as driver 0 is set up: EN and calibration time */
        hb_drv_model_init(board, i, board->drv[0].en_pin, board->drv[0].calibration_cycles);
    }
    hb_bus_update_lines(board);
    return 0;
}

static int answers(const hb_mux_model *mux)
{
    return mux->fault != HB_AVR_MUX_FAULT_ABSENT && !mux->in_reset;
}

int hb_mux_start(hb_avr *board, uint8_t address8)
{
    hb_mux_model *mux = &board->mux;
    mux->selected = answers(mux) && (address8 >> 1) == mux->address7;
    return mux->selected;
}

int hb_mux_write(hb_avr *board, uint8_t byte)
{
    hb_mux_model *mux = &board->mux;
    if (!mux->selected) {
        return 0;
    }
    mux->control = byte; /* several bytes: the last one stays */
    mux->written = 1;
    return 1;
}

uint8_t hb_mux_read(const hb_avr *board)
{
    return board->mux.selected ? board->mux.control : 0xFFu;
}

void hb_mux_stop(hb_avr *board)
{
    hb_mux_model *mux = &board->mux;
    int written = mux->selected && mux->written;
    mux->selected = 0;
    mux->written = 0;
    if (written) {
        set_connected(board, mux->control); /* the selection takes effect at the STOP */
    }
}

void hb_mux_mcu_reset(hb_avr *board)
{
    board->mux.selected = 0;
    board->mux.written = 0;
}

void hb_mux_pins_written(hb_avr *board)
{
    hb_mux_model *mux = &board->mux;
    if (!mux->present) {
        return;
    }
    int low = !hb_pin_level(board, mux->reset_pin, 1);
    if (low && !mux->in_reset) {
        mux->resets++;
        reset_state(board);
    }
    mux->in_reset = low;
}

static void power_on_reset(hb_avr *board)
{
    board->mux.brown_outs++;
    reset_state(board);
}

void hb_mux_load_rose(hb_avr *board)
{
    if (board->mux.present && board->mux.fault == HB_AVR_MUX_FAULT_POWER_LOSS) {
        power_on_reset(board);
    }
}

void hb_avr_mux_set_fault(hb_avr *board, int fault, int port)
{
    hb_mux_model *mux = &board->mux;
    if (!mux->present) {
        return;
    }
    if (fault == HB_AVR_MUX_FAULT_ABSENT) {
        reset_state(board); /* unpowered or unwired: nothing connected; it comes back at power-on reset */
    }
    mux->fault = fault;
    mux->stuck_port = port;
    hb_bus_update_lines(board);
}

void hb_avr_mux_set_reset_pin(hb_avr *board, int pin)
{
    board->mux.reset_pin = pin >= 0 && pin <= 19 ? pin : -1;
    hb_mux_pins_written(board);
}

void hb_avr_mux_power_loss(hb_avr *board)
{
    if (board->mux.present) {
        power_on_reset(board);
    }
}

uint8_t hb_avr_mux_control(const hb_avr *board)
{
    return board->mux.control;
}

uint8_t hb_avr_mux_connected(const hb_avr *board)
{
    return board->mux.connected;
}

uint32_t hb_avr_mux_brown_outs(const hb_avr *board)
{
    return board->mux.brown_outs;
}

uint32_t hb_avr_mux_resets(const hb_avr *board)
{
    return board->mux.resets;
}

#endif /* HB_EMULATOR */
