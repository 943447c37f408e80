/* Compiled only with the package trait "Emulator" (Package.swift defines HB_EMULATOR): without it
 * this file is empty, so a build without the trait needs nothing from simavr. */
#ifdef HB_EMULATOR

/* The slaves on the I2C bus, as the TWI master (twi_master.c) sees them: without a mux, the one
 * DRV2605L; with a TCA9548A (tca9548a_model.c), the mux itself and the DRV2605L behind the ports
 * it has connected, all at once (a switch, not a multiplexer: SCPS207F 8.5.4, several channels may
 * be selected). Open-drain lines make the bus a wired-AND: an address or byte is acknowledged when
 * any addressed slave pulls SDA low for the ACK, a write reaches every addressed slave, and a read
 * returns the bitwise AND of what they drive (a slave drives a 1 by releasing SDA). Which drivers
 * are reachable is fixed at START: the mux changes its connections only at a STOP. */
#include "harness_internal.h"

int hb_bus_reaches(const hb_avr *board, int channel)
{
    const hb_mux_model *mux = &board->mux;
    if (!mux->present) {
        return channel == 0;
    }
    return channel >= 0 && channel < mux->drivers && (mux->connected >> channel) & 1u;
}

int hb_bus_start(hb_avr *board, uint8_t address8)
{
    int ack = board->mux.present && hb_mux_start(board, address8);
    for (int i = 0; i < HB_AVR_MAX_DRIVERS; i++) {
        board->drv[i].selected = 0;
        if (hb_bus_reaches(board, i)) {
            ack |= hb_drv_model_start(&board->drv[i], address8);
        }
    }
    return ack;
}

int hb_bus_write(hb_avr *board, uint8_t byte)
{
    int ack = board->mux.present && hb_mux_write(board, byte);
    for (int i = 0; i < HB_AVR_MAX_DRIVERS; i++) {
        if (board->drv[i].selected) {
            ack |= hb_drv_model_write(&board->drv[i], byte);
        }
    }
    return ack;
}

uint8_t hb_bus_read(hb_avr *board)
{
    uint8_t sda = 0xFFu; /* released: the pull-up's ones */
    if (board->mux.present) {
        sda &= hb_mux_read(board);
    }
    for (int i = 0; i < HB_AVR_MAX_DRIVERS; i++) {
        if (board->drv[i].selected) {
            sda &= hb_drv_model_read(&board->drv[i]);
        }
    }
    return sda;
}

void hb_bus_stop(hb_avr *board)
{
    for (int i = 0; i < HB_AVR_MAX_DRIVERS; i++) {
        board->drv[i].selected = 0;
    }
    if (board->mux.present) {
        hb_mux_stop(board);
    }
}

/* A slave that holds a line low for good holds the main bus only while it is reachable; the mux's
 * stuck port likewise only while connected. */
void hb_bus_update_lines(hb_avr *board)
{
    const hb_mux_model *mux = &board->mux;
    int sda = mux->present && mux->fault == HB_AVR_MUX_FAULT_STUCK_PORT && mux->stuck_port >= 0
              && mux->stuck_port < 8 && ((mux->connected >> mux->stuck_port) & 1u);
    int scl = 0;
    for (int i = 0; i < HB_AVR_MAX_DRIVERS; i++) {
        if (hb_bus_reaches(board, i)) {
            sda |= board->drv[i].fault == HB_AVR_DRV_FAULT_BUS_LOST;
            scl |= board->drv[i].fault == HB_AVR_DRV_FAULT_BUS_HANG;
        }
    }
    hb_twi_bus_held(board, sda, scl);
}

#endif /* HB_EMULATOR */
