/* A DRV2605L as the I2C slave at 7-bit address 0x5A: a register file with the datasheet's
 * reset values, device id 7, the device-reset bit, a register pointer that auto-increments,
 * and an auto-calibration that finishes a configurable number of cycles after GO (about 1 s
 * on the chip; 1 ms by default here so tests stay fast) with fixed plausible results. Every
 * register write is recorded as an output event. twi_master.c drives it. */
#include <string.h>

#include "harness_internal.h"

#define DRV_ADDRESS7 0x5Au
enum {
    REG_STATUS = 0x00,
    REG_MODE = 0x01,
    REG_GO = 0x0C,
    REG_CAL_COMP = 0x18,
    REG_CAL_BEMF = 0x19,
    REG_FEEDBACK = 0x1A
};

static void reset_registers(hb_drv_model *drv)
{
    memset(drv->registers, 0, sizeof drv->registers);
    drv->registers[REG_STATUS] = 0xE0; /* DEVICE_ID 7 */
    drv->registers[REG_MODE] = 0x40;   /* STANDBY */
    drv->registers[0x16] = 0x3E;       /* RATED_VOLTAGE */
    drv->registers[0x17] = 0x8C;       /* OD_CLAMP */
    drv->registers[REG_CAL_COMP] = 0x0C;
    drv->registers[REG_CAL_BEMF] = 0x6C;
    drv->registers[REG_FEEDBACK] = 0x36;
    drv->registers[0x1B] = 0x93;
    drv->registers[0x1C] = 0xF5;
    drv->registers[0x1D] = 0xA0;
    drv->registers[0x1E] = 0x20;
}

static avr_cycle_count_t calibration_done(struct avr_t *avr, avr_cycle_count_t when, void *param)
{
    (void)avr;
    (void)when;
    hb_avr *board = param;
    uint8_t *r = board->drv.registers;
    r[REG_GO] = 0;
    r[REG_STATUS] &= (uint8_t)~0x08u; /* DIAG_RESULT = 0: success */
    r[REG_CAL_COMP] = 0x0D;
    r[REG_CAL_BEMF] = 0x79;
    r[REG_FEEDBACK] = (uint8_t)((r[REG_FEEDBACK] & 0xFCu) | 0x02u);
    return 0;
}

static void write_register(hb_avr *board, uint8_t reg, uint8_t value)
{
    hb_drv_model *drv = &board->drv;
    hb_event_append(board, HB_AVR_EVENT_DRV_WRITE, reg, value);
    if (reg == REG_STATUS) {
        return; /* read-only */
    }
    if (reg == REG_MODE && (value & 0x80u)) {
        reset_registers(drv);
        return;
    }
    drv->registers[reg] = value;
    if (reg == REG_GO && (value & 1u) && (drv->registers[REG_MODE] & 0x07u) == 0x07u
        && !(drv->registers[REG_MODE] & 0x40u)) {
        avr_cycle_timer_register(board->avr, drv->calibration_cycles ? drv->calibration_cycles : 1,
                                 calibration_done, board);
    }
}

int hb_drv_model_start(hb_avr *board, uint8_t address8)
{
    hb_drv_model *drv = &board->drv;
    drv->selected = (address8 >> 1) == DRV_ADDRESS7;
    if (!drv->selected) {
        return 0;
    }
    if (drv->first_access == 0) {
        drv->first_access = board->avr->cycle;
    }
    drv->want_pointer = !(address8 & 1u);
    return 1;
}

int hb_drv_model_write(hb_avr *board, uint8_t byte)
{
    hb_drv_model *drv = &board->drv;
    if (!drv->selected) {
        return 0;
    }
    if (drv->want_pointer) {
        drv->pointer = byte;
        drv->want_pointer = 0;
    } else {
        write_register(board, drv->pointer++, byte);
    }
    return 1;
}

uint8_t hb_drv_model_read(hb_avr *board)
{
    hb_drv_model *drv = &board->drv;
    return drv->selected ? drv->registers[drv->pointer++] : 0xFFu;
}

void hb_drv_model_stop(hb_avr *board)
{
    board->drv.selected = 0;
}

void hb_drv_model_attach(hb_avr *board)
{
    reset_registers(&board->drv);
    board->drv.calibration_cycles = board->avr->frequency / 1000u;
}

uint8_t hb_avr_drv_register(const hb_avr *board, uint8_t reg)
{
    return board->drv.registers[reg];
}

uint64_t hb_avr_drv_first_access(const hb_avr *board)
{
    return board->drv.first_access;
}

void hb_avr_drv_set_calibration_cycles(hb_avr *board, uint64_t cycles)
{
    board->drv.calibration_cycles = cycles;
}
