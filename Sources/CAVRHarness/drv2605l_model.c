/* Compiled only with the package trait "Emulator" (Package.swift defines HB_EMULATOR): without it
 * this file is empty, so a build without the trait needs nothing from simavr. */
#ifdef HB_EMULATOR

/* A DRV2605L as the I2C slave at 7-bit address 0x5A: a register file with the datasheet's
 * reset values, device id 7, the device-reset bit, a register pointer that auto-increments, an
 * auto-calibration that finishes a configurable number of cycles after GO (about 1 s on the
 * chip; 1 ms by default here so tests stay fast) with fixed plausible results, the measured LRA
 * period (LRA_PERIOD, 0x22) of an LRA resonating at `lra_hz`, and the output the registers
 * command (hb_drv2605l_output_volts: RTP code to volts per mode, with the datasheet's equations).
 * Every register write is recorded as an output event, and so is every change of the output.
 *
 * Faults (hb_avr_drv_set_fault): ABSENT answers nothing (no ACK at its address), CALIBRATION
 * ends auto-calibration with DIAG_RESULT = 1, OVERTEMP and OVERCURRENT shut the output down as
 * soon as it would drive, setting OVER_TEMP (STATUS bit 1) or OC_DETECT (bit 0), which a read of
 * STATUS clears and the next drive sets again. POWER_LOSS browns the chip out whenever its output
 * would drive (a supply that sags under the load): it comes back at its reset defaults, in standby,
 * and acknowledges writes as before. twi_master.c drives it (and models BUS_STUCK, BUS_LOST and
 * BUS_HANG, the lines held low).
 *
 * EN (hb_avr_drv_set_en_pin): wired to PD4 with a pull-down, or tied high; per channel
 * (hb_avr_drv_set_en_pin_at) any Arduino pin. Low is shutdown: no output whatever the registers
 * say; the chip still acknowledges its address but takes no write and reads as 0 (SLOS854C
 * 8.4.1.3). Its registers are kept.
 *
 * There are hb_avr_drv_count models: one on the bus, or one behind each port of a TCA9548A in use
 * (tca9548a_model.c); each has its own registers, faults, EN and events (their channel field). */
#include <math.h>
#include <string.h>

#include "harness_internal.h"

#define DRV_ADDRESS7 0x5Au
enum {
    REG_STATUS = 0x00,
    REG_MODE = 0x01,
    REG_RTP = 0x02,
    REG_GO = 0x0C,
    REG_RATED = 0x16,
    REG_OD_CLAMP = 0x17,
    REG_CAL_COMP = 0x18,
    REG_CAL_BEMF = 0x19,
    REG_FEEDBACK = 0x1A,
    REG_CONTROL1 = 0x1B,
    REG_CONTROL2 = 0x1C,
    REG_CONTROL3 = 0x1D,
    REG_LRA_PERIOD = 0x22
};
#define STATUS_OC_DETECT 0x01u
#define STATUS_OVER_TEMP 0x02u
#define STATUS_DIAG_RESULT 0x08u
#define MODE_STANDBY 0x40u
#define MODE_RTP 0x05u

static void reset_registers(hb_drv_model *drv)
{
    memset(drv->registers, 0, sizeof drv->registers);
    drv->registers[REG_STATUS] = 0xE0;   /* DEVICE_ID 7 */
    drv->registers[REG_MODE] = 0x40;     /* STANDBY */
    drv->registers[REG_RATED] = 0x3E;    /* RATED_VOLTAGE */
    drv->registers[REG_OD_CLAMP] = 0x8C; /* OD_CLAMP */
    drv->registers[REG_CAL_COMP] = 0x0C;
    drv->registers[REG_CAL_BEMF] = 0x6C;
    drv->registers[REG_FEEDBACK] = 0x36;
    drv->registers[REG_CONTROL1] = 0x93;
    drv->registers[REG_CONTROL2] = 0xF5;
    drv->registers[REG_CONTROL3] = 0xA0;
    drv->registers[0x1E] = 0x20;
}

/* ---- the output the registers command (TI SLOS854C; hardware/README.md, "DRV2605L registers") ---- */

/* sqrt(1 - (4 t_SAMPLE + 300 us) f): the driven share of an LRA's closed-loop drive (Equation 5;
 * SAMPLE_TIME from CONTROL2, 8.6.22). */
static double lra_gap(const uint8_t *r, double lra_hz)
{
    static const double sample_time[4] = {150e-6, 200e-6, 250e-6, 300e-6};
    double x = 1.0 - (4.0 * sample_time[(r[REG_CONTROL2] >> 4) & 3u] + 300e-6) * lra_hz;
    return x > 0.0 ? sqrt(x) : 0.0;
}

/* (t_DRIVE - 300 us) / (t_DRIVE + t_IDISS + t_BLANKING) of an ERM's closed-loop drive (Equation 8;
 * DRIVE_TIME from CONTROL1, IDISS_TIME and BLANKING_TIME from CONTROL2 with N_ERM_LRA = 0, 8.6.21,
 * 8.6.22). */
static double erm_drive_share(const uint8_t *r)
{
    static const double erm_time[4] = {45e-6, 75e-6, 150e-6, 225e-6};
    double t_drive = (double)(r[REG_CONTROL1] & 0x1Fu) * 0.2e-3 + 1e-3;
    double idiss = erm_time[r[REG_CONTROL2] & 3u], blanking = erm_time[(r[REG_CONTROL2] >> 2) & 3u];
    return (t_drive - 300e-6) / (t_drive + idiss + blanking);
}

static int is_lra(const uint8_t *r)
{
    return (r[REG_FEEDBACK] & 0x80u) != 0u;
}

static int open_loop(const uint8_t *r)
{
    return is_lra(r) ? (r[REG_CONTROL3] & 0x01u) != 0u : (r[REG_CONTROL3] & 0x20u) != 0u;
}

double hb_drv2605l_clamp_volts(const uint8_t *r, double lra_hz)
{
    if (open_loop(r)) {
        return hb_drv2605l_full_scale_volts(r, lra_hz);
    }
    /* Equation 9 (LRA: the peak, here as the RMS of the gapped drive) and Equation 8 (ERM) */
    return is_lra(r) ? 21.22e-3 * r[REG_OD_CLAMP] * lra_gap(r, lra_hz)
                     : 21.64e-3 * r[REG_OD_CLAMP] * erm_drive_share(r);
}

double hb_drv2605l_full_scale_volts(const uint8_t *r, double lra_hz)
{
    if (open_loop(r)) { /* Equations 7 (LRA) and 6 (ERM) */
        return is_lra(r) ? 21.32e-3 * r[REG_OD_CLAMP] * sqrt(1.0 - 800e-6 * lra_hz)
                         : 21.59e-3 * r[REG_OD_CLAMP];
    }
    if (is_lra(r)) { /* Equation 5; an ERM's is Equation 4 */
        double gap = lra_gap(r, lra_hz);
        return gap > 0.0 ? 20.58e-3 * r[REG_RATED] / gap : 0.0;
    }
    return 21.18e-3 * r[REG_RATED];
}

double hb_drv2605l_output_volts(const uint8_t *r, uint8_t code, double lra_hz)
{
    double fraction;
    int unsigned_data = (r[REG_CONTROL3] & 0x08u) != 0u;
    int bidirectional = (r[REG_CONTROL2] & 0x80u) != 0u;
    if ((r[REG_MODE] & MODE_STANDBY) || (r[REG_MODE] & 0x07u) != MODE_RTP) {
        return 0.0;
    }
    if (open_loop(r)) { /* always bidirectional: mid-scale is zero, below it drives in reverse */
        int s = unsigned_data ? (int)code - 128 : (int)(int8_t)code;
        fraction = (double)s / 127.0;
        if (fraction < -1.0) {
            fraction = -1.0;
        }
    } else if (bidirectional) { /* closed loop: below mid-scale is no drive */
        int s = unsigned_data ? (int)code - 128 : (int)(int8_t)code;
        fraction = s > 0 ? (double)s / 127.0 : 0.0;
    } else {
        fraction =
            unsigned_data ? (double)code / 255.0 : ((int8_t)code > 0 ? (double)(int8_t)code / 127.0 : 0.0);
    }
    return fraction * hb_drv2605l_full_scale_volts(r, lra_hz);
}

/* Recomputes the output after anything changed; records a change (signed millivolts). A fault
 * that shuts the driver down sets its STATUS bit when the output would drive. */
static void update_output(hb_drv_model *drv)
{
    double v =
        drv->enabled ? hb_drv2605l_output_volts(drv->registers, drv->registers[REG_RTP], drv->lra_hz) : 0.0;
    if (v != 0.0 && drv->fault == HB_AVR_DRV_FAULT_POWER_LOSS) {
        reset_registers(drv); /* browned out under the load: back at the defaults, in standby */
        drv->brown_outs++;
        v = 0.0;
    }
    if (v != 0.0 && (drv->fault == HB_AVR_DRV_FAULT_OVERTEMP || drv->fault == HB_AVR_DRV_FAULT_OVERCURRENT)) {
        drv->registers[REG_STATUS] |=
            drv->fault == HB_AVR_DRV_FAULT_OVERTEMP ? STATUS_OVER_TEMP : STATUS_OC_DETECT;
        v = 0.0; /* the output stage shuts down */
    }
    int16_t mv = (int16_t)lround(v * 1000.0);
    if (mv != drv->output_mv) {
        int rose = drv->output_mv == 0;
        drv->output_mv = mv;
        hb_event_append_on(drv->board, drv->channel, HB_AVR_EVENT_DRV_OUTPUT, (uint8_t)((uint16_t)mv >> 8),
                           (uint8_t)((uint16_t)mv & 0xFFu));
        if (rose) {
            hb_mux_load_rose(drv->board);
        }
    }
}

static uint8_t lra_period(double hz)
{
    long p = lround(1e6 / (hz * 98.46)); /* 98.46 us per step (SLOS854C 8.6.28) */
    return (uint8_t)(p > 255 ? 255 : p);
}

static avr_cycle_count_t calibration_done(struct avr_t *avr, avr_cycle_count_t when, void *param)
{
    (void)avr;
    (void)when;
    hb_drv_model *drv = param;
    uint8_t *r = drv->registers;
    r[REG_GO] = 0;
    if (drv->fault == HB_AVR_DRV_FAULT_CALIBRATION) {
        r[REG_STATUS] |= STATUS_DIAG_RESULT; /* auto-calibration failed */
        return 0;
    }
    r[REG_STATUS] &= (uint8_t)~STATUS_DIAG_RESULT; /* DIAG_RESULT = 0: success */
    r[REG_CAL_COMP] = 0x0D;
    r[REG_CAL_BEMF] = 0x79;
    r[REG_FEEDBACK] = (uint8_t)((r[REG_FEEDBACK] & 0xFCu) | 0x02u);
    if (is_lra(r)) {
        r[REG_LRA_PERIOD] = lra_period(drv->lra_hz);
    }
    drv->calibrations++;
    return 0;
}

static void write_register(hb_drv_model *drv, uint8_t reg, uint8_t value)
{
    hb_event_append_on(drv->board, drv->channel, HB_AVR_EVENT_DRV_WRITE, reg, value);
    if (reg == REG_STATUS || reg == REG_LRA_PERIOD || !drv->enabled) {
        return; /* read-only, or the chip shut down by EN */
    }
    if (reg == REG_MODE && (value & 0x80u)) {
        reset_registers(drv);
        update_output(drv);
        return;
    }
    drv->registers[reg] = value;
    if (reg == REG_GO && (value & 1u) && (drv->registers[REG_MODE] & 0x07u) == 0x07u
        && !(drv->registers[REG_MODE] & MODE_STANDBY)) {
        avr_cycle_timer_register(drv->board->avr, drv->calibration_cycles ? drv->calibration_cycles : 1,
                                 calibration_done, drv);
    }
    if (reg == REG_RTP && value != 0u && is_lra(drv->registers) && !open_loop(drv->registers)) {
        drv->registers[REG_LRA_PERIOD] = lra_period(drv->lra_hz); /* tracked while it drives */
    }
    update_output(drv);
}

int hb_drv_model_start(hb_drv_model *drv, uint8_t address8)
{
    drv->selected = (address8 >> 1) == DRV_ADDRESS7 && drv->fault != HB_AVR_DRV_FAULT_ABSENT;
    if (!drv->selected) {
        return 0;
    }
    if (drv->first_access == 0) {
        drv->first_access = drv->board->avr->cycle;
    }
    drv->want_pointer = !(address8 & 1u);
    return 1;
}

int hb_drv_model_write(hb_drv_model *drv, uint8_t byte)
{
    if (!drv->selected) {
        return 0;
    }
    if (drv->want_pointer) {
        drv->pointer = byte;
        drv->want_pointer = 0;
    } else {
        write_register(drv, drv->pointer++, byte);
    }
    return 1;
}

uint8_t hb_drv_model_read(hb_drv_model *drv)
{
    if (!drv->selected) {
        return 0xFFu; /* SDA released */
    }
    uint8_t reg = drv->pointer++;
    if (!drv->enabled) {
        return 0; /* shut down by EN: no read possible */
    }
    uint8_t value = drv->registers[reg];
    if (reg == REG_STATUS) { /* the fault flags clear when read */
        drv->registers[REG_STATUS] &= (uint8_t) ~(STATUS_OC_DETECT | STATUS_OVER_TEMP);
    }
    return value;
}

void hb_drv_model_init(hb_avr *board, int channel, int en_pin, uint64_t calibration_cycles)
{
    hb_drv_model *drv = &board->drv[channel];
    memset(drv, 0, sizeof *drv);
    drv->board = board;
    drv->channel = (uint8_t)channel;
    reset_registers(drv);
    drv->calibration_cycles = calibration_cycles;
    drv->lra_hz = 170.0;
    drv->en_pin = en_pin;
    drv->enabled = en_pin < 0 || hb_pin_level(board, en_pin, 0);
}

void hb_drv_model_attach(hb_avr *board)
{
    hb_drv_model_init(board, 0, -1, board->avr->frequency / 1000u);
}

int hb_avr_drv_count(const hb_avr *board)
{
    return board->mux.present ? board->mux.drivers : 1;
}

/* Driver `channel`, or NULL when there is none. */
static hb_drv_model *driver(hb_avr *board, int channel)
{
    return channel >= 0 && channel < hb_avr_drv_count(board) ? &board->drv[channel] : NULL;
}

static const hb_drv_model *driver_const(const hb_avr *board, int channel)
{
    return channel >= 0 && channel < hb_avr_drv_count(board) ? &board->drv[channel] : NULL;
}

static void en_update(hb_drv_model *drv)
{
    int level = drv->en_pin < 0 || hb_pin_level(drv->board, drv->en_pin, 0);
    if (level != drv->enabled) {
        drv->enabled = level;
        hb_event_append_on(drv->board, drv->channel, HB_AVR_EVENT_DRV_ENABLE, 0, (uint8_t)level);
        update_output(drv);
    }
}

void hb_drv_model_pins_written(hb_avr *board)
{
    for (int i = 0; i < hb_avr_drv_count(board); i++) {
        en_update(&board->drv[i]);
    }
}

void hb_avr_drv_set_en_pin_at(hb_avr *board, int channel, int pin)
{
    hb_drv_model *drv = driver(board, channel);
    if (drv) {
        drv->en_pin = pin >= 0 && pin <= 19 ? pin : -1;
        en_update(drv);
    }
}

void hb_avr_drv_set_en_pin(hb_avr *board, int on)
{
    for (int i = 0; i < hb_avr_drv_count(board); i++) {
        hb_avr_drv_set_en_pin_at(board, i, on ? (int)HB_DRV_EN_ARDUINO_PIN : -1);
    }
}

int hb_avr_drv_enabled_at(const hb_avr *board, int channel)
{
    const hb_drv_model *drv = driver_const(board, channel);
    return drv ? drv->enabled : 0;
}

int hb_avr_drv_enabled(const hb_avr *board)
{
    return hb_avr_drv_enabled_at(board, 0);
}

void hb_avr_drv_power_loss_at(hb_avr *board, int channel)
{
    hb_drv_model *drv = driver(board, channel);
    if (drv) {
        reset_registers(drv);
        drv->brown_outs++;
        update_output(drv);
    }
}

void hb_avr_drv_power_loss(hb_avr *board)
{
    hb_avr_drv_power_loss_at(board, 0);
}

uint32_t hb_avr_drv_brown_outs_at(const hb_avr *board, int channel)
{
    const hb_drv_model *drv = driver_const(board, channel);
    return drv ? drv->brown_outs : 0;
}

uint32_t hb_avr_drv_brown_outs(const hb_avr *board)
{
    return hb_avr_drv_brown_outs_at(board, 0);
}

/* The chips do not see the MCU reset: they keep their registers and their output. An
 * auto-calibration under way finishes (its timer died with the MCU's cycle timers). */
void hb_drv_model_mcu_reset(hb_avr *board)
{
    for (int i = 0; i < hb_avr_drv_count(board); i++) {
        hb_drv_model *drv = &board->drv[i];
        drv->selected = 0;
        if (drv->registers[REG_GO] & 1u) {
            calibration_done(board->avr, board->avr->cycle, drv);
        }
    }
}

uint8_t hb_avr_drv_register_at(const hb_avr *board, int channel, uint8_t reg)
{
    const hb_drv_model *drv = driver_const(board, channel);
    return drv ? drv->registers[reg] : 0;
}

uint8_t hb_avr_drv_register(const hb_avr *board, uint8_t reg)
{
    return hb_avr_drv_register_at(board, 0, reg);
}

uint64_t hb_avr_drv_first_access(const hb_avr *board)
{
    return board->drv[0].first_access;
}

void hb_avr_drv_set_calibration_cycles(hb_avr *board, uint64_t cycles)
{
    for (int i = 0; i < HB_AVR_MAX_DRIVERS; i++) {
        board->drv[i].calibration_cycles = cycles;
    }
}

void hb_avr_drv_set_fault_at(hb_avr *board, int channel, int fault)
{
    hb_drv_model *drv = driver(board, channel);
    if (!drv) {
        return;
    }
    int was_stuck = drv->fault == HB_AVR_DRV_FAULT_BUS_STUCK;
    drv->fault = fault;
    /* a slave cut off mid-byte holds SDA until clocked free: the bus's state, not the chip's */
    if (fault == HB_AVR_DRV_FAULT_BUS_STUCK || was_stuck) {
        hb_twi_bus_stuck(board, fault == HB_AVR_DRV_FAULT_BUS_STUCK);
    }
    hb_bus_update_lines(board);
    update_output(drv);
}

void hb_avr_drv_set_fault(hb_avr *board, int fault)
{
    hb_avr_drv_set_fault_at(board, 0, fault);
}

void hb_avr_drv_set_lra_hz_at(hb_avr *board, int channel, double hz)
{
    hb_drv_model *drv = driver(board, channel);
    if (drv) {
        drv->lra_hz = hz;
    }
}

void hb_avr_drv_set_lra_hz(hb_avr *board, double hz)
{
    hb_avr_drv_set_lra_hz_at(board, 0, hz);
}

int16_t hb_avr_drv_output_mv_at(const hb_avr *board, int channel)
{
    const hb_drv_model *drv = driver_const(board, channel);
    return drv ? drv->output_mv : 0;
}

int16_t hb_avr_drv_output_mv(const hb_avr *board)
{
    return hb_avr_drv_output_mv_at(board, 0);
}

uint32_t hb_avr_drv_calibrations_at(const hb_avr *board, int channel)
{
    const hb_drv_model *drv = driver_const(board, channel);
    return drv ? drv->calibrations : 0;
}

uint32_t hb_avr_drv_calibrations(const hb_avr *board)
{
    return hb_avr_drv_calibrations_at(board, 0);
}

#endif /* HB_EMULATOR */
