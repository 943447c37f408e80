/* DRV2605L output stage: closed-loop real-time playback (RTP), unsigned amplitude data,
 * unidirectional input: the chip's automatic overdrive and braking make the edges (the BRAKE flag
 * writes 0; the sharpness code is not used, the profile says so: PROTOCOL.md 2.18 and
 * hardware/README.md, "DRV2605L stage").
 *
 * Every register value comes from the actuator profile (profiles/<name>.h, written by
 * tools/gen-board-profiles with the datasheet's equations; hardware/README.md tables them).
 * Faults are reported, never silent (hb_output_fault, PROTOCOL.md 2.18): the chip absent at boot,
 * a transfer failing after its retries, a failed auto-calibration, the chip's own over-temperature
 * and over-current flags, and a chip found back at its reset defaults (it lost power). Every fault
 * drops EN (board.h), which shuts the chip down whatever its registers say and whether or not the
 * bus still works; a fault the bus can still be told about puts the chip in standby first. The
 * stage then stays off until the board restarts: a chip that browned out under its load would do
 * so again, and the host is told instead (re-initialising it would hide a supply that cannot hold).
 *
 * The chip is checked at a fixed rate whatever plays (CHECK_INTERVAL): every 8 ticks one read, in
 * turn STATUS, MODE, STATUS, and one of the settings written at boot, each compared with what was
 * written. So STATUS is read every 16 ms, MODE every 32 ms (a chip that browned out is back in
 * standby: found within 32 ms), every setting every 256 ms.
 *
 * At boot the bus is recovered (a slave cut off mid-byte by a reset holds SDA), EN is raised and the
 * chip is reset (DEV_RESET), so no register of an earlier sketch survives; calibration results are
 * kept in EEPROM with the profile they belong to and reused at the next boot.
 *
 * The 3.0 image with several chips behind a TCA9548A (output_drv2605l_x4.c) calls the chip-level
 * functions here (drv2605l.h: start, RTP write, check, DIAG) for one chip at a time, with that
 * chip's state in hb_drv2605l, its EN (board.h) and its own calibration record in EEPROM; this
 * file's single-chip stage (hb_hal_output and the rest of output.h) is then its, not this file's. */
#include <avr/eeprom.h>
#include <avr/io.h>
#include <avr/pgmspace.h>
#include <avr/wdt.h>
#include <util/delay.h>

#include "board.h"
#include "drv2605l.h"
#include "hb_crc16.h"
#include "hb_messages.h"
#include "hb_port.h"
#include "output.h"
#include "probe.h"
#include "tick.h"
#include "twi.h"

#if defined(HB_BOARD_LRA)
#if !defined(HB_PROFILE_KIND_LRA)
#error "ACTUATOR=lra with a profile that is not an LRA"
#endif
#define N_ERM_LRA 0x80u
#define LIBRARY 6u
#elif defined(HB_BOARD_ERM)
#if !defined(HB_PROFILE_KIND_ERM)
#error "ACTUATOR=erm with a profile that is not an ERM"
#endif
#define N_ERM_LRA 0x00u
#define LIBRARY 1u
#else
#error "define HB_BOARD_LRA or HB_BOARD_ERM"
#endif

/* FEEDBACK_CONTROL: N_ERM_LRA, FB_BRAKE_FACTOR 3 (x4), LOOP_GAIN 1 (medium), BEMF_GAIN 2 until
 * calibration measures it. */
#define FEEDBACK_BASE (N_ERM_LRA | 0x30u | 0x04u)
#define BEMF_GAIN_DEFAULT 2u
/* CONTROL1: STARTUP_BOOST, DRIVE_TIME from the profile (an LRA's half period). CONTROL2: BIDIR_INPUT
 * 0 (unidirectional: closed loop only, it brakes by itself), BRAKE_STABILIZER 1, SAMPLE_TIME 3
 * (300 us), BLANKING_TIME 1, IDISS_TIME 1. Both from the profile header, whose RATED_VOLTAGE and
 * OD_CLAMP were computed with these very timings (tools/gen-board-profiles). */
#define CONTROL1 HB_PROFILE_DRV_CONTROL1
#define CONTROL2 HB_PROFILE_DRV_CONTROL2
#if (HB_PROFILE_DRV_CONTROL1 & 0x1Fu) != HB_PROFILE_DRV_DRIVE_TIME
#error "profile header: CONTROL1 and DRIVE_TIME disagree (rerun tools/gen-board-profiles)"
#endif
/* CONTROL3: NG_THRESH 2, ERM_OPEN_LOOP 0 (its reset value is 1), DATA_FORMAT_RTP 1 (unsigned),
 * LRA_OPEN_LOOP 0: closed loop, where RTP 0x00 is no drive and 0xFF rated drive. */
#define CONTROL3 0x88u
/* CONTROL4: AUTO_CAL_TIME 3 (1000 to 1200 ms), the most robust. */
#define CONTROL4 0x30u
#define ATTEMPTS 3u       /* a transfer is tried this often before it counts as failed */
#define CHECK_INTERVAL 8u /* ticks between the checks of the chip (one read each) */

hb_drv2605l_state hb_drv2605l;
#if !defined(HB_BOARD_DRV2605L_X4)
volatile uint16_t hb_output_late_ticks;
volatile uint8_t hb_output_write_due;

/* Latched by the main loop (hb_hal_output), taken by the timer interrupt at the boundary. */
static volatile uint8_t latch;
static volatile uint8_t latch_tag; /* hb_tick_count() at the hand-off (output_pwm.c) */
/* The value taken at the last boundary, for the main loop to write (hb_output_work). */
static volatile uint8_t taken;
static volatile uint8_t check_due; /* a check of the chip is due (set by the interrupt) */
static uint8_t check_ticks;        /* interrupt only */
#endif
static volatile uint8_t written = 0xFFu; /* forces the first write; read by the interrupt */

static void enable(void)
{
    HB_DRV_EN_PORT |= _BV(HB_DRV_EN_BIT);
    HB_DRV_EN_DDR |= _BV(HB_DRV_EN_BIT);
}

/* Every fault: EN low (the chip shut down, whatever the bus does), and the first fault kept. */
static void fail(uint8_t code)
{
    HB_DRV_EN_PORT &= (uint8_t)~_BV(HB_DRV_EN_BIT);
    hb_drv2605l.flags |= HB_DIAG_DISABLED;
    if (hb_drv2605l.fault == 0u) {
        hb_drv2605l.fault = code;
    }
}

/* One register access, retried: a write of *value, or a read into *value; counts failures and
 * retries. Inlined into write_reg and read_reg, each with its constant `read`: the RTP write of
 * hb_output_work stays the plain loop it was (14 cycles more a write when it was a call). */
static HB_ALWAYS_INLINE uint8_t access_reg(uint8_t reg, uint8_t *value, uint8_t read)
{
    for (uint8_t attempt = 0; attempt < ATTEMPTS; attempt++) {
        uint8_t status = read ? hb_twi_read_register(HB_DRV_ADDRESS, reg, value)
                              : hb_twi_write_register(HB_DRV_ADDRESS, reg, *value);
        if (status == HB_TWI_OK) {
            if (attempt != 0u) {
                hb_drv2605l.retries++;
            }
            return 1;
        }
        hb_drv2605l.bus_errors++;
    }
    return 0;
}

static uint8_t write_reg(uint8_t reg, uint8_t value)
{
    return access_reg(reg, &value, 0);
}

static uint8_t read_reg(uint8_t reg, uint8_t *value)
{
    return access_reg(reg, value, 1);
}

/* A write during set-up: a failure is a bus fault. */
static void setup_reg(uint8_t reg, uint8_t value)
{
    if (!write_reg(reg, value)) {
        fail(HB_ERR_DRIVER_BUS);
    }
}

static uint8_t setup_read(uint8_t reg)
{
    uint8_t value = 0;
    if (!read_reg(reg, &value)) {
        fail(HB_ERR_DRIVER_BUS);
    }
    return value;
}

static void write_actuator_settings(uint8_t feedback)
{
    setup_reg(HB_DRV_REG_RATED, HB_PROFILE_DRV_RATED_VOLTAGE);
    setup_reg(HB_DRV_REG_OD_CLAMP, HB_PROFILE_DRV_OD_CLAMP);
    setup_reg(HB_DRV_REG_FEEDBACK, feedback);
    setup_reg(HB_DRV_REG_CONTROL1, CONTROL1);
    setup_reg(HB_DRV_REG_CONTROL2, CONTROL2);
    setup_reg(HB_DRV_REG_CONTROL3, CONTROL3);
    setup_reg(HB_DRV_REG_CONTROL4, CONTROL4);
}

static void enter_rtp(void)
{
    setup_reg(HB_DRV_REG_LIBRARY, LIBRARY);
    setup_reg(HB_DRV_REG_RTP, 0);
    setup_reg(HB_DRV_REG_MODE, HB_DRV_MODE_RTP);
    written = 0;
}

/* The chip off: RTP 0, then standby (a stop that could not be written, or a fault). */
static void stand_by(void)
{
    (void)write_reg(HB_DRV_REG_RTP, 0);
    if (write_reg(HB_DRV_REG_MODE, HB_DRV_MODE_STANDBY)) {
        hb_drv2605l.flags |= HB_DIAG_STANDBY;
    }
}

/* ---- calibration kept in EEPROM (address 0), with the profile it belongs to ---- */

typedef struct {
    uint8_t magic[2]; /* "HB" */
    uint16_t key;     /* CRC-16 of the profile's name and register values */
    uint8_t comp, bemf, feedback, lra_period;
    uint16_t check; /* CRC-16 of the bytes above */
} stored_calibration;

/* Chip n's record (hb_drv2605l.record: 0 for the only chip) at n records from address 0. */
#define STORED ((stored_calibration *)(uintptr_t)((uint16_t)hb_drv2605l.record * sizeof(stored_calibration)))

static uint16_t profile_key(void)
{
    uint8_t regs[3] = {HB_PROFILE_DRV_RATED_VOLTAGE, HB_PROFILE_DRV_OD_CLAMP, HB_PROFILE_DRV_DRIVE_TIME};
    /* the name's literal is the one INFO reports (the linker keeps one copy) */
    uint16_t crc = hb_crc16(HB_CRC16_INIT, (const uint8_t *)HB_PROFILE_NAME, sizeof HB_PROFILE_NAME - 1u);
    return hb_crc16(crc, regs, sizeof regs);
}

static uint16_t record_check(const stored_calibration *r)
{
    return hb_crc16(HB_CRC16_INIT, (const uint8_t *)r, sizeof *r - sizeof r->check);
}

static uint8_t load_calibration(void)
{
    stored_calibration r;
    eeprom_read_block(&r, STORED, sizeof r);
    if (r.magic[0] != 'H' || r.magic[1] != 'B' || r.key != profile_key() || r.check != record_check(&r)) {
        return 0;
    }
    hb_drv2605l.cal_comp = r.comp;
    hb_drv2605l.cal_bemf = r.bemf;
    hb_drv2605l.feedback = r.feedback;
    hb_drv2605l.lra_period = r.lra_period;
    return 1;
}

static void store_calibration(void)
{
    stored_calibration r;
    r.magic[0] = 'H';
    r.magic[1] = 'B';
    r.key = profile_key();
    r.comp = hb_drv2605l.cal_comp;
    r.bemf = hb_drv2605l.cal_bemf;
    r.feedback = hb_drv2605l.feedback;
    r.lra_period = hb_drv2605l.lra_period;
    r.check = record_check(&r);
    eeprom_update_block(&r, STORED, sizeof r);
}

void hb_drv2605l_forget_calibration(void)
{
    eeprom_update_byte(&STORED->magic[0], 0xFFu);
}

uint8_t hb_drv2605l_autocalibrate(void)
{
    setup_reg(HB_DRV_REG_MODE, HB_DRV_MODE_AUTO_CALIBRATION);
    write_actuator_settings(FEEDBACK_BASE | BEMF_GAIN_DEFAULT);
    setup_reg(HB_DRV_REG_GO, 1);
    /* AUTO_CAL_TIME 3 takes at most 1.2 s; give up after 2 s. */
    for (uint16_t ms = 0; ms < 2000u && (setup_read(HB_DRV_REG_GO) & 1u); ms++) {
        wdt_reset();
        _delay_ms(1);
    }
    hb_drv2605l.status = setup_read(HB_DRV_REG_STATUS);
    uint8_t ok = (hb_drv2605l.status & HB_DRV_STATUS_DIAG_RESULT) == 0u
                 && (setup_read(HB_DRV_REG_GO) & 1u) == 0u && hb_drv2605l.fault == 0u;
    hb_drv2605l.cal_comp = setup_read(HB_DRV_REG_CAL_COMP);
    hb_drv2605l.cal_bemf = setup_read(HB_DRV_REG_CAL_BEMF);
    hb_drv2605l.feedback = setup_read(HB_DRV_REG_FEEDBACK);
    hb_drv2605l.lra_period = N_ERM_LRA ? setup_read(HB_DRV_REG_LRA_PERIOD) : 0u;
    if (ok) {
        hb_drv2605l.flags |= HB_DIAG_CALIBRATED;
    } else {
        fail(HB_ERR_CALIBRATION_FAILED);
    }
    return ok;
}

void hb_drv2605l_start(void)
{
    /* DEV_RESET: the chip forgets what an earlier sketch (or this one before a reset) set, stops
     * any output and goes to standby. No answer at its address: it is not there. */
    if (!write_reg(HB_DRV_REG_MODE, HB_DRV_MODE_DEV_RESET)) {
        fail(HB_ERR_DRIVER_ABSENT);
        return;
    }
    hb_drv2605l.flags |= HB_DIAG_PRESENT;
    for (uint8_t n = 0; n < 50u && (setup_read(HB_DRV_REG_MODE) & HB_DRV_MODE_DEV_RESET); n++) {
        _delay_us(100);
    }
    setup_reg(HB_DRV_REG_MODE, HB_DRV_MODE_INTERNAL_TRIGGER); /* leave standby */
    hb_drv2605l.status = setup_read(HB_DRV_REG_STATUS);
    if (load_calibration()) {
        write_actuator_settings(hb_drv2605l.feedback);
        setup_reg(HB_DRV_REG_CAL_COMP, hb_drv2605l.cal_comp);
        setup_reg(HB_DRV_REG_CAL_BEMF, hb_drv2605l.cal_bemf);
        hb_drv2605l.flags |= HB_DIAG_CALIBRATED | HB_DIAG_STORED;
    } else if (hb_drv2605l_autocalibrate()) {
        store_calibration();
    }
    enter_rtp();
}

void hb_drv2605l_power_up(void)
{
    enable(); /* TI's start-up: EN high, then I2C */
}

#if !defined(HB_BOARD_DRV2605L_X4)
void hb_hal_output_init(void)
{
    if (!hb_twi_recover()) {
        fail(HB_ERR_DRIVER_BUS); /* SDA stays low: something holds the bus */
        return;                  /* EN stays low (main.c dropped it at reset) */
    }
    enable(); /* TI's start-up: EN high, then I2C */
    hb_twi_init();
    _delay_ms(1); /* the DRV2605L accepts I2C 250 us after power-up */
    hb_drv2605l_start();
}

void hb_hal_output(uint8_t amplitude, uint8_t sharpness, uint8_t flags)
{
    (void)sharpness;
    latch = (flags & 1u) ? 0u : amplitude;
    latch_tag = hb_tick_count();
}

/* The boundary (1 update per tick): take the sample the last step latched, and leave the bus
 * work to the main loop (hb_output_work), which runs it before anything else it has to do. */
void hb_output_timer_update(uint8_t boundary)
{
    (void)boundary;
    if (latch_tag != hb_tick_count()) {
        hb_output_late_ticks++;
    }
    uint8_t value = latch;
    taken = value;
    if (++check_ticks == CHECK_INTERVAL) {
        check_ticks = 0;
        check_due = 1;
    }
    if (value != written || check_due) {
        hb_output_write_due = 1;
    }
}
#endif

/* A fault found with the bus still working: standby as well as EN low. */
static void fault_stop(uint8_t code)
{
    stand_by();
    fail(code);
}

/* The settings written at boot, checked in turn against what the chip reads back. */
static uint8_t setting_expected(uint8_t index, uint8_t *reg)
{
    static const uint8_t regs[8] PROGMEM = {HB_DRV_REG_RATED,    HB_DRV_REG_OD_CLAMP, HB_DRV_REG_FEEDBACK,
                                            HB_DRV_REG_CONTROL1, HB_DRV_REG_CONTROL2, HB_DRV_REG_CONTROL3,
                                            HB_DRV_REG_CAL_COMP, HB_DRV_REG_CAL_BEMF};
    const uint8_t values[8] = {HB_PROFILE_DRV_RATED_VOLTAGE,
                               HB_PROFILE_DRV_OD_CLAMP,
                               hb_drv2605l.feedback,
                               CONTROL1,
                               CONTROL2,
                               CONTROL3,
                               hb_drv2605l.cal_comp,
                               hb_drv2605l.cal_bemf};
    *reg = pgm_read_byte(&regs[index & 7u]);
    return values[index & 7u];
}

/* One check of the chip (CHECK_INTERVAL): turns 0 and 2 read STATUS, 1 MODE, 3 a setting. */
void hb_drv2605l_check(void)
{
    uint8_t turn = hb_drv2605l.check_turn++;
    uint8_t reg = HB_DRV_REG_STATUS, expected = HB_DRV_MODE_RTP, value;
    if ((turn & 3u) == 1u) {
        reg = HB_DRV_REG_MODE;
    } else if ((turn & 3u) == 3u) {
        expected = setting_expected((uint8_t)(turn >> 2), &reg);
    }
    if (!read_reg(reg, &value)) {
        fail(HB_ERR_DRIVER_BUS);
    } else if (reg == HB_DRV_REG_STATUS) {
        hb_drv2605l.status = value;
        if (value & HB_DRV_STATUS_OVER_TEMP) {
            fault_stop(HB_ERR_OVER_TEMPERATURE);
        } else if (value & HB_DRV_STATUS_OC_DETECT) {
            fault_stop(HB_ERR_OVER_CURRENT);
        }
    } else if (value != expected) {
        fault_stop(HB_ERR_DRIVER_RESET); /* back at its defaults: it lost power */
    }
}

uint8_t hb_drv2605l_write_rtp(uint8_t value)
{
    if (write_reg(HB_DRV_REG_RTP, value)) {
        return 1;
    }
    fail(HB_ERR_DRIVER_BUS); /* EN low: the chip stops even if no stop can reach it */
    return 0;
}

#if !defined(HB_BOARD_DRV2605L_X4)
void hb_output_work(void)
{
    hb_output_write_due = 0;
    if (hb_drv2605l.fault != 0u) {
        return; /* off (EN low) since the fault, until the board restarts */
    }
    uint8_t value = taken;
    HB_PROBE_ON(HB_PROBE_OUTPUT);
    if (value != written && hb_drv2605l_write_rtp(value)) {
        written = value;
    }
    if (check_due && hb_drv2605l.fault == 0u) {
        check_due = 0;
        hb_drv2605l_check();
    }
    HB_PROBE_OFF(HB_PROBE_OUTPUT);
}

uint8_t hb_output_fault(void)
{
    return hb_drv2605l.fault;
}

void hb_output_diag(uint8_t *p)
{
    hb_drv2605l_diag(p);
}

uint8_t hb_output_recalibrate(void)
{
    hb_drv2605l_forget_calibration();
    return 0;
}
#endif

void hb_drv2605l_diag(uint8_t *p)
{
    const hb_drv2605l_state *s = &hb_drv2605l;
    p[0] = HB_DIAG_STAGE_DRV2605L;
    p[2] = s->flags;
    p[3] = s->status;
    p[6] = (uint8_t)(HB_PROFILE_RATED_MV & 0xFFu);
    p[7] = (uint8_t)(HB_PROFILE_RATED_MV >> 8);
    p[8] = (uint8_t)(HB_PROFILE_OVERDRIVE_MV & 0xFFu);
    p[9] = (uint8_t)(HB_PROFILE_OVERDRIVE_MV >> 8);
    p[10] = s->cal_comp;
    p[11] = s->cal_bemf;
    p[12] = s->feedback;
    p[13] = s->lra_period;
    p[14] = (uint8_t)(s->bus_errors & 0xFFu);
    p[15] = (uint8_t)(s->bus_errors >> 8);
    p[16] = (uint8_t)(s->retries & 0xFFu);
    p[17] = (uint8_t)(s->retries >> 8);
}
