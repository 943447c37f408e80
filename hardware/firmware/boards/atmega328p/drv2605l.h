/* TI DRV2605L haptic driver over I2C (7-bit address 0x5A): register map subset, the
 * init sequence, and calibration. Used by output_drv2605l.c; the simulator's I2C slave
 * model (Sources/CAVRHarness) implements the same registers. */
#ifndef HB_DRV2605L_H
#define HB_DRV2605L_H

#include <stdint.h>

#define HB_DRV_ADDRESS 0x5Au

#define HB_DRV_REG_STATUS 0x00u     /* DEVICE_ID[7:5] (7 = DRV2605L), DIAG_RESULT bit 3 */
#define HB_DRV_REG_MODE 0x01u       /* DEV_RESET bit 7, STANDBY bit 6, MODE[2:0] */
#define HB_DRV_REG_RTP 0x02u        /* real-time playback amplitude */
#define HB_DRV_REG_LIBRARY 0x03u    /* ROM library: 1..5, 7 = ERM (TS2200), 6 = LRA */
#define HB_DRV_REG_GO 0x0Cu         /* GO bit 0: starts auto-calibration in mode 7 */
#define HB_DRV_REG_RATED 0x16u      /* RATED_VOLTAGE */
#define HB_DRV_REG_OD_CLAMP 0x17u   /* OD_CLAMP (overdrive clamp voltage) */
#define HB_DRV_REG_CAL_COMP 0x18u   /* A_CAL_COMP (auto-calibration result) */
#define HB_DRV_REG_CAL_BEMF 0x19u   /* A_CAL_BEMF (auto-calibration result) */
#define HB_DRV_REG_FEEDBACK 0x1Au   /* N_ERM_LRA[7], FB_BRAKE_FACTOR[6:4], LOOP_GAIN[3:2], BEMF_GAIN[1:0] */
#define HB_DRV_REG_CONTROL1 0x1Bu   /* STARTUP_BOOST bit 7, DRIVE_TIME[4:0] */
#define HB_DRV_REG_CONTROL2 0x1Cu   /* BIDIR_INPUT bit 7, BRAKE_STABILIZER bit 6, SAMPLE/BLANKING/IDISS */
#define HB_DRV_REG_CONTROL3 0x1Du   /* ERM_OPEN_LOOP bit 5, DATA_FORMAT_RTP bit 3, LRA_OPEN_LOOP bit 0 */
#define HB_DRV_REG_CONTROL4 0x1Eu   /* AUTO_CAL_TIME[5:4] */
#define HB_DRV_REG_LRA_PERIOD 0x22u /* LRA_PERIOD: measured resonance period, 98.46 us per step */

#define HB_DRV_STATUS_OC_DETECT 0x01u
#define HB_DRV_STATUS_OVER_TEMP 0x02u
#define HB_DRV_STATUS_DIAG_RESULT 0x08u
#define HB_DRV_MODE_DEV_RESET 0x80u
#define HB_DRV_MODE_STANDBY 0x40u

#define HB_DRV_MODE_INTERNAL_TRIGGER 0x00u /* also leaves standby */
#define HB_DRV_MODE_RTP 0x05u
#define HB_DRV_MODE_AUTO_CALIBRATION 0x07u
#define HB_DRV_DEVICE_ID 7u

typedef struct {
    uint8_t flags;       /* HB_DIAG_PRESENT, _CALIBRATED, _STORED, _STANDBY, _DISABLED */
    uint8_t fault;       /* the stage fault (HB_ERR_DRIVER_ABSENT ..), 0: none; lasts until reset */
    uint8_t status;      /* STATUS as last read */
    uint8_t cal_comp;    /* A_CAL_COMP in use */
    uint8_t cal_bemf;    /* A_CAL_BEMF in use */
    uint8_t feedback;    /* FEEDBACK_CONTROL in use (BEMF_GAIN comes from calibration) */
    uint8_t lra_period;  /* LRA_PERIOD after calibration (0 for an ERM) */
    uint16_t bus_errors; /* failed I2C transfers since boot */
    uint16_t retries;    /* transfers that succeeded on a retry */
    uint8_t check_turn;  /* which check of the chip comes next */
    uint8_t record;      /* its calibration record in EEPROM: 0, or the chip's channel */
} hb_drv2605l_state;

extern hb_drv2605l_state hb_drv2605l;

/* Runs the DRV2605L's auto-calibration (mode 7, GO) with the profile's settings and returns 1 on
 * success (DIAG_RESULT = 0), storing the results in hb_drv2605l. Takes about a second on real
 * hardware (the watchdog is reset meanwhile). */
uint8_t hb_drv2605l_autocalibrate(void);

/* Forgets the calibration kept in EEPROM: the next boot calibrates (SET_CONFIG RECALIBRATE). */
void hb_drv2605l_forget_calibration(void);

/* The chip level, for the chip whose state is in hb_drv2605l (with its EN and, behind a mux, its
 * port selected), used by the stage of several chips (output_drv2605l_x4.c):
 * hb_drv2605l_power_up raises its EN; hb_drv2605l_start resets it (DEV_RESET), calibrates it (or
 * loads its record) and puts it in RTP mode, or records why not (hb_drv2605l.fault);
 * hb_drv2605l_write_rtp writes an RTP value, 0 (and a bus fault, EN low) when it could not;
 * hb_drv2605l_check does one check of the chip (STATUS, MODE, a setting, in turn);
 * hb_drv2605l_diag fills a DIAG_REPORT's 18 bytes (PROTOCOL.md 2.18), zeroed by the caller. */
void hb_drv2605l_power_up(void);
void hb_drv2605l_start(void);
uint8_t hb_drv2605l_write_rtp(uint8_t value);
void hb_drv2605l_check(void);
void hb_drv2605l_diag(uint8_t *payload);

#endif
