/* TI DRV2605L haptic driver on an I2C bus (TwoWire), in real-time playback (RTP) mode: the stage
 * of the bare-metal firmware's output_drv2605l.c in Arduino API. Unsigned RTP amplitude,
 * unidirectional input: in closed loop the driver brakes by itself, so a brake sample writes 0;
 * sharpness is not used (a closed-loop LRA runs at its tracked resonance).
 *
 * begin(): Wire.begin() and 400 kHz, 1 ms for the driver to accept I2C, leave standby, check the
 * device id, then auto-calibration with the profile's settings (about 1.2 s; the result is
 * readable afterwards) or the stored values given to setCalibration(), then RTP mode at 0. Each
 * tick then writes the RTP register when the amplitude changes (START, 3 bytes, STOP: about
 * 75 us at 400 kHz). hardware/arduino/README.md has the wiring. */
#ifndef HAPTIC_DRV2605L_H
#define HAPTIC_DRV2605L_H

#include <Arduino.h>
#include <Wire.h>

#include "HapticOutput.h"

class HapticDRV2605L : public HapticOutput
{
  public:
    explicit HapticDRV2605L(TwoWire &wire, uint8_t address = 0x5A) : wire_(wire), address_(address)
    {
    }

    /* Before begin(): write these auto-calibration results instead of calibrating at every boot
     * (read them once from calibrationCompensation() etc. after a calibration). */
    void setCalibration(uint8_t compensation, uint8_t backEMF, uint8_t backEMFGain);
    /* Runs the auto-calibration again (about 1.2 s, blocking); true if it passed. Leaves the
     * driver in RTP mode at amplitude 0. */
    bool calibrate();

    bool present() const
    {
        return present_;
    }
    bool calibrated() const
    {
        return calibrated_;
    }
    uint8_t calibrationCompensation() const
    {
        return calComp_;
    }
    uint8_t calibrationBackEMF() const
    {
        return calBemf_;
    }
    uint8_t calibrationBackEMFGain() const
    {
        return (uint8_t)(feedback_ & 3u);
    }
    /* I2C transfers that failed since begin(). */
    uint16_t busErrors() const
    {
        return busErrors_;
    }

    bool begin(const HapticProfile &profile) override;
    void write(uint8_t amplitude, uint8_t sharpness, uint8_t flags) override;
    uint16_t capabilities() const override;

  private:
    /* Registers (DRV2605L datasheet; the emulator's model, Sources/CAVRHarness/drv2605l_model.c, has
     * the same map) and the values written to them. */
    enum : uint8_t {
        REG_STATUS = 0x00,   /* DEVICE_ID[7:5] (7 = DRV2605L), DIAG_RESULT bit 3 */
        REG_MODE = 0x01,     /* STANDBY bit 6, MODE[2:0] */
        REG_RTP = 0x02,      /* real-time playback amplitude */
        REG_LIBRARY = 0x03,  /* ROM library: 1 = ERM, 6 = LRA */
        REG_GO = 0x0C,       /* GO bit 0: starts the auto-calibration in mode 7 */
        REG_RATED = 0x16,    /* RATED_VOLTAGE */
        REG_OD_CLAMP = 0x17, /* OD_CLAMP */
        REG_CAL_COMP = 0x18, /* A_CAL_COMP */
        REG_CAL_BEMF = 0x19, /* A_CAL_BEMF */
        REG_FEEDBACK = 0x1A, /* N_ERM_LRA[7], FB_BRAKE_FACTOR[6:4], LOOP_GAIN[3:2], BEMF_GAIN[1:0] */
        REG_CONTROL1 = 0x1B, /* STARTUP_BOOST bit 7, DRIVE_TIME[4:0] */
        REG_CONTROL2 = 0x1C,
        REG_CONTROL3 = 0x1D,
        REG_CONTROL4 = 0x1E,

        MODE_INTERNAL_TRIGGER = 0x00, /* also leaves standby */
        MODE_RTP = 0x05,
        MODE_AUTO_CALIBRATION = 0x07,
        DEVICE_ID = 7,

        /* FEEDBACK_CONTROL without N_ERM_LRA and BEMF_GAIN: brake factor 3 (x4), loop gain 1 (medium). */
        FEEDBACK_BASE = 0x30 | 0x04,
        /* CONTROL2: unidirectional input, brake stabilizer, sample time 300 us, blanking and IDISS 1. */
        CONTROL2 = 0x75,
        /* CONTROL4: auto-calibration time 3 (1.0 to 1.2 s), the most robust. */
        CONTROL4 = 0x30,
    };

    void writeRegister(uint8_t reg, uint8_t value);
    uint8_t readRegister(uint8_t reg);
    void writeActuatorSettings(uint8_t feedback);
    void enterRealTimePlayback();

    TwoWire &wire_;
    uint16_t busErrors_ = 0;
    uint8_t address_;
    uint8_t written_ = 0;
    bool storedCalibration_ = false;
    bool present_ = false;
    bool calibrated_ = false;
    bool lra_ = true;
    uint8_t ratedVoltage_ = 0;
    uint8_t overdriveClamp_ = 0;
    uint8_t driveTime_ = 0;
    uint8_t calComp_ = 0x0C;
    uint8_t calBemf_ = 0x6C;
    uint8_t feedback_ = 0;
    uint8_t bemfGain_ = 2;
};

/* Definitions here, not in a .cpp: the Arduino IDE compiles every .cpp of a library into every
 * sketch, and one that included <Wire.h> would link Wire (and its 160 bytes of buffers) into the
 * sketches that drive no DRV2605L. Included only by those that do, this header brings Wire in. */

inline void HapticDRV2605L::setCalibration(uint8_t compensation, uint8_t backEMF, uint8_t backEMFGain)
{
    calComp_ = compensation;
    calBemf_ = backEMF;
    bemfGain_ = (uint8_t)(backEMFGain & 3u);
    storedCalibration_ = true;
}

inline void HapticDRV2605L::writeRegister(uint8_t reg, uint8_t value)
{
    wire_.beginTransmission(address_);
    wire_.write(reg);
    wire_.write(value);
    if (wire_.endTransmission() != 0) {
        busErrors_++;
    }
}

/* A register read with a STOP before the read (the driver keeps its register pointer), not a
 * repeated START: the same on every Arduino core. */
inline uint8_t HapticDRV2605L::readRegister(uint8_t reg)
{
    wire_.beginTransmission(address_);
    wire_.write(reg);
    if (wire_.endTransmission() != 0 || wire_.requestFrom(address_, (uint8_t)1) != 1) {
        busErrors_++;
        return 0;
    }
    return (uint8_t)wire_.read();
}

inline void HapticDRV2605L::writeActuatorSettings(uint8_t feedback)
{
    /* CONTROL3: noise gate 2, ERM_OPEN_LOOP 0, unsigned RTP data, LRA_OPEN_LOOP 0: closed loop only.
     * (Open loop would read unsigned data with 0x80 as zero and 0x00 as full reverse drive at
     * OD_CLAMP's voltage, and want OL_LRA_PERIOD: the bare-metal stage dropped it for that.) */
    const uint8_t control3 = 0x88u;
    writeRegister(REG_RATED, ratedVoltage_);
    writeRegister(REG_OD_CLAMP, overdriveClamp_);
    writeRegister(REG_FEEDBACK, feedback);
    writeRegister(REG_CONTROL1, (uint8_t)(0x80u | (driveTime_ & 0x1Fu)));
    writeRegister(REG_CONTROL2, CONTROL2);
    writeRegister(REG_CONTROL3, control3);
    writeRegister(REG_CONTROL4, CONTROL4);
}

inline void HapticDRV2605L::enterRealTimePlayback()
{
    writeRegister(REG_LIBRARY, lra_ ? 6 : 1);
    writeRegister(REG_RTP, 0);
    writeRegister(REG_MODE, MODE_RTP);
    written_ = 0;
}

inline bool HapticDRV2605L::calibrate()
{
    uint8_t kind = lra_ ? 0x80u : 0x00u;
    writeRegister(REG_MODE, MODE_AUTO_CALIBRATION);
    writeActuatorSettings((uint8_t)(kind | FEEDBACK_BASE | bemfGain_));
    writeRegister(REG_GO, 1);
    /* AUTO_CAL_TIME 3 takes at most 1.2 s; give up after 2 s */
    for (uint16_t ms = 0; ms < 2000u && (readRegister(REG_GO) & 1u); ms++) {
        delay(1);
    }
    bool ok = (readRegister(REG_STATUS) & 0x08u) == 0u && (readRegister(REG_GO) & 1u) == 0u && present_;
    calComp_ = readRegister(REG_CAL_COMP);
    calBemf_ = readRegister(REG_CAL_BEMF);
    feedback_ = readRegister(REG_FEEDBACK);
    calibrated_ = ok;
    enterRealTimePlayback();
    return ok;
}

inline bool HapticDRV2605L::begin(const HapticProfile &profile)
{
    lra_ = profile.actuator == HAPTIC_ACTUATOR_LRA;
    /* the profile's settings, else the bare-metal firmware's for the kind's built-in profile
     * (HapticProfiles: 2.0 V rms at 170 Hz, 3.0 V; 2.5 V rms, 3.6 V; half of 170 Hz, 4.8 ms) */
    ratedVoltage_ = profile.drvRatedVoltage ? profile.drvRatedVoltage : (lra_ ? 0x53 : 0x8D);
    overdriveClamp_ = profile.drvOverdriveClamp ? profile.drvOverdriveClamp : (lra_ ? 0x88 : 0xB6);
    driveTime_ = profile.drvDriveTime ? profile.drvDriveTime : (lra_ ? 24 : 19);
    wire_.begin();
    wire_.setClock(400000UL);
    delay(1); /* the DRV2605L accepts I2C 250 us after power-up */
    writeRegister(REG_MODE, MODE_INTERNAL_TRIGGER);
    present_ = (readRegister(REG_STATUS) >> 5) == DEVICE_ID;
    if (!storedCalibration_) {
        return calibrate();
    }
    feedback_ = (uint8_t)((lra_ ? 0x80u : 0x00u) | FEEDBACK_BASE | bemfGain_);
    writeActuatorSettings(feedback_);
    writeRegister(REG_CAL_COMP, calComp_);
    writeRegister(REG_CAL_BEMF, calBemf_);
    calibrated_ = present_;
    enterRealTimePlayback();
    return calibrated_;
}

inline void HapticDRV2605L::write(uint8_t amplitude, uint8_t sharpness, uint8_t flags)
{
    (void)sharpness;
    uint8_t value = (flags & 1u) ? 0u : amplitude;
    if (value != written_) {
        writeRegister(REG_RTP, value);
        written_ = value;
    }
}

inline uint16_t HapticDRV2605L::capabilities() const
{
    /* closed loop: the driver senses back-EMF and brakes the actuator at the end of drive */
    return HAPTIC_CAP_ACTIVE_BRAKE;
}

#endif
