/* DRV2605L output stage: real-time playback (RTP) mode, unsigned amplitude format,
 * unidirectional input (the driver brakes by itself in closed loop, which is why the BRAKE
 * flag simply writes 0), sharpness unused (a closed-loop LRA is driven at its tracked
 * resonance; an ERM's frequency follows its speed).
 *
 * Actuator settings come from the build (make OUTPUT=drv2605l ACTUATOR=lra|erm and the
 * DRV_* variables; hardware/README.md maps an actuator profile to them). */
#include <avr/io.h>
#include <util/delay.h>

#include "drv2605l.h"
#include "output.h"
#include "tick.h"
#include "probe.h"
#include "twi.h"

#if defined(HB_BOARD_LRA)
#define N_ERM_LRA 0x80u
#define LIBRARY 6u
#elif defined(HB_BOARD_ERM)
#define N_ERM_LRA 0x00u
#define LIBRARY 1u
#else
#error "define HB_BOARD_LRA or HB_BOARD_ERM"
#endif

/* Defaults: hardware/actuators/lra-drv2605l-170hz-10mm.json (2.0 V rms rated, 2.5 V rms
 * overdrive, 170 Hz), or a 3.0 V / 3.3 V ERM; hardware/README.md gives the formulas. */
#ifndef HB_DRV_RATED_VOLTAGE
#define HB_DRV_RATED_VOLTAGE (N_ERM_LRA ? 0x54u : 0x8Eu)
#endif
#ifndef HB_DRV_OD_CLAMP
#define HB_DRV_OD_CLAMP (N_ERM_LRA ? 0x7Eu : 0x96u)
#endif
#ifndef HB_DRV_DRIVE_TIME
#define HB_DRV_DRIVE_TIME 24u /* LRA half period 2.94 ms at 170 Hz: (2.94 - 0.5) / 0.1 */
#endif
/* FB_BRAKE_FACTOR 3 (x4), LOOP_GAIN 1 (medium), BEMF_GAIN 2 until calibration says otherwise. */
#define FEEDBACK_BASE (N_ERM_LRA | 0x30u | 0x04u)
#ifndef HB_DRV_BEMF_GAIN
#define HB_DRV_BEMF_GAIN 2u
#endif
/* Calibration: 0 = run auto-calibration at boot, 1 = write the stored values below. */
#ifndef HB_DRV_CAL_STORED
#define HB_DRV_CAL_STORED 0
#endif
#ifndef HB_DRV_CAL_COMP
#define HB_DRV_CAL_COMP 0x0Cu
#endif
#ifndef HB_DRV_CAL_BEMF
#define HB_DRV_CAL_BEMF 0x6Cu
#endif
#ifndef HB_DRV_OPEN_LOOP
#define HB_DRV_OPEN_LOOP 0
#endif
/* CONTROL2: BIDIR_INPUT 0, BRAKE_STABILIZER 1, SAMPLE_TIME 300 us, BLANKING and IDISS 1. */
#define CONTROL2 0x75u
/* CONTROL3: NG_THRESH 2, ERM_OPEN_LOOP (ERM only, if open loop), DATA_FORMAT_RTP unsigned,
 * LRA_OPEN_LOOP (LRA only, if open loop). */
#define CONTROL3 (0x80u | 0x08u | (HB_DRV_OPEN_LOOP ? (N_ERM_LRA ? 0x01u : 0x20u) : 0x00u))
/* CONTROL4: AUTO_CAL_TIME 3 (1000 to 1200 ms), the most robust. */
#define CONTROL4 0x30u

hb_drv2605l_state hb_drv2605l;
volatile uint16_t hb_output_late_ticks;
volatile uint8_t hb_output_write_due;

/* Latched by the main loop (hb_hal_output), taken by the timer interrupt at the boundary. */
static volatile uint8_t latch;
static volatile uint8_t latch_tag; /* hb_tick_count() at the hand-off (output_pwm.c) */
/* The value taken at the last boundary, for the main loop to write (hb_output_work). */
static volatile uint8_t taken;
static volatile uint8_t written = 0xFFu; /* forces the first write; read by the interrupt */

static void write_reg(uint8_t reg, uint8_t value)
{
    if (hb_twi_write_register(HB_DRV_ADDRESS, reg, value) != HB_TWI_OK) {
        hb_drv2605l.bus_errors++;
    }
}

static uint8_t read_reg(uint8_t reg)
{
    uint8_t value = 0;
    if (hb_twi_read_register(HB_DRV_ADDRESS, reg, &value) != HB_TWI_OK) {
        hb_drv2605l.bus_errors++;
    }
    return value;
}

static void write_actuator_settings(uint8_t feedback)
{
    write_reg(HB_DRV_REG_RATED, HB_DRV_RATED_VOLTAGE);
    write_reg(HB_DRV_REG_OD_CLAMP, HB_DRV_OD_CLAMP);
    write_reg(HB_DRV_REG_FEEDBACK, feedback);
    write_reg(HB_DRV_REG_CONTROL1, (uint8_t)(0x80u | (HB_DRV_DRIVE_TIME & 0x1Fu)));
    write_reg(HB_DRV_REG_CONTROL2, CONTROL2);
    write_reg(HB_DRV_REG_CONTROL3, CONTROL3);
    write_reg(HB_DRV_REG_CONTROL4, CONTROL4);
}

static void enter_rtp(void)
{
    write_reg(HB_DRV_REG_LIBRARY, LIBRARY);
    write_reg(HB_DRV_REG_RTP, 0);
    write_reg(HB_DRV_REG_MODE, HB_DRV_MODE_RTP);
    written = 0;
}

uint8_t hb_drv2605l_autocalibrate(void)
{
    write_reg(HB_DRV_REG_MODE, HB_DRV_MODE_AUTO_CALIBRATION);
    write_actuator_settings(FEEDBACK_BASE | HB_DRV_BEMF_GAIN);
    write_reg(HB_DRV_REG_GO, 1);
    /* AUTO_CAL_TIME 3 takes at most 1.2 s; give up after 2 s. */
    for (uint16_t ms = 0; ms < 2000u && (read_reg(HB_DRV_REG_GO) & 1u); ms++) {
        _delay_ms(1);
    }
    uint8_t ok = (read_reg(HB_DRV_REG_STATUS) & 0x08u) == 0u && (read_reg(HB_DRV_REG_GO) & 1u) == 0u
                 && hb_drv2605l.present;
    hb_drv2605l.cal_comp = read_reg(HB_DRV_REG_CAL_COMP);
    hb_drv2605l.cal_bemf = read_reg(HB_DRV_REG_CAL_BEMF);
    hb_drv2605l.feedback = read_reg(HB_DRV_REG_FEEDBACK);
    hb_drv2605l.calibrated = ok;
    enter_rtp();
    return ok;
}

void hb_hal_output_init(void)
{
    hb_twi_init();
    _delay_ms(1); /* the DRV2605L accepts I2C 250 us after power-up */
    write_reg(HB_DRV_REG_MODE, HB_DRV_MODE_INTERNAL_TRIGGER); /* leave standby */
    hb_drv2605l.present = (read_reg(HB_DRV_REG_STATUS) >> 5) == HB_DRV_DEVICE_ID;
#if HB_DRV_CAL_STORED
    hb_drv2605l.feedback = FEEDBACK_BASE | (HB_DRV_BEMF_GAIN & 3u);
    write_actuator_settings(hb_drv2605l.feedback);
    write_reg(HB_DRV_REG_CAL_COMP, HB_DRV_CAL_COMP);
    write_reg(HB_DRV_REG_CAL_BEMF, HB_DRV_CAL_BEMF);
    hb_drv2605l.cal_comp = HB_DRV_CAL_COMP;
    hb_drv2605l.cal_bemf = HB_DRV_CAL_BEMF;
    hb_drv2605l.calibrated = hb_drv2605l.present;
    enter_rtp();
#else
    hb_drv2605l_autocalibrate();
#endif
}

void hb_hal_output(uint8_t amplitude, uint8_t sharpness, uint8_t flags)
{
    (void)sharpness;
    latch = (flags & 1u) ? 0u : amplitude;
    latch_tag = hb_tick_count();
}

/* The boundary (1 update per tick): take the sample the last step latched, and leave the bus
 * write to the main loop (hb_output_work), which runs it before anything else it has to do. */
void hb_output_timer_update(uint8_t boundary)
{
    (void)boundary;
    if (latch_tag != hb_tick_count()) {
        hb_output_late_ticks++;
    }
    uint8_t value = latch;
    taken = value;
    if (value != written) {
        hb_output_write_due = 1;
    }
}

void hb_output_work(void)
{
    hb_output_write_due = 0;
    uint8_t value = taken;
    if (value != written) {
        HB_PROBE_ON(HB_PROBE_OUTPUT);
        write_reg(HB_DRV_REG_RTP, value);
        written = value;
        HB_PROBE_OFF(HB_PROBE_OUTPUT);
    }
}
