/* TI DRV2605L haptic driver on an I2C bus (TwoWire), in real-time playback (RTP) mode: the stage
 * of the bare-metal firmware's output_drv2605l.c in Arduino API, with the same safety contract
 * (hardware/arduino/README.md, "Faults"). Unsigned RTP amplitude, unidirectional input: in closed
 * loop the driver brakes by itself, so a brake sample writes 0; sharpness is not used.
 *
 * begin(): EN low then high (the chip's shutdown drops any drive an earlier sketch left), the bus
 * clocked free, Wire at 400 kHz with a time-out, DEV_RESET (no register of an earlier sketch survives; no
 * answer: the chip is absent), out of standby, the device id, then auto-calibration with the profile's
 * settings (about 1.2 s) or the stored values given to setCalibration(), then RTP mode at 0.
 *
 * Each tick writes the RTP register when the amplitude changes (START, 3 bytes, STOP: about 75 us
 * at 400 kHz); a value counts as written only once the chip acknowledged it, and each transfer is
 * tried 3 times. The chip is checked at the bare-metal stage's fixed rate whatever plays: every 8
 * ticks one read, in turn STATUS, MODE, STATUS and one of the settings written at begin(), each
 * compared with what was written (STATUS every 16 ms for over-temperature and over-current; MODE
 * every 32 ms: a chip that lost power is back in standby at its defaults, 58 DRIVER_RESET; every
 * setting every 256 ms). Any fault (PROTOCOL.md 2.18) puts the stage off for good: RTP 0 and
 * standby if the bus still carries them, and EN low in any case, so a stop lands even with the bus
 * lost; the host learns it from fault() and diag() (TELEMETRY FAULT, DIAG_REPORT), as from the
 * bare-metal build.
 * hardware/arduino/README.md has the wiring (EN on D4, with a pull-down). */
#ifndef HAPTIC_DRV2605L_H
#define HAPTIC_DRV2605L_H

#include <Arduino.h>
#include <Wire.h>

#include "HapticOutput.h"
#include "hb_port_config.h"

extern "C" {
#include "core/hb_messages.h"
}

/* An unconnected pin (EN tied high on the breakout: the stage then cannot drop it). */
#define HAPTIC_NO_PIN 0xFFu

/* The bare-metal board's EN pin (hardware/firmware/boards/atmega328p/board.h): Arduino D4, PD4. */
#define HAPTIC_DRV2605L_EN_PIN 4u

class HapticDRV2605L : public HapticOutput
{
  public:
    /* `enablePin`: the GPIO wired to the DRV2605L's EN (with a 10 kOhm pull-down to GND, so the chip
     * is off through reset and the bootloader), HAPTIC_NO_PIN if EN is tied high. */
    explicit HapticDRV2605L(TwoWire &wire, uint8_t enablePin = HAPTIC_DRV2605L_EN_PIN, uint8_t address = 0x5A)
        : wire_(wire), address_(address), enablePin_(enablePin)
    {
    }

    /* Before begin(): write these auto-calibration results instead of calibrating at every boot
     * (read them once from calibrationCompensation() etc. after a calibration). */
    void setCalibration(uint8_t compensation, uint8_t backEMF, uint8_t backEMFGain);
    /* Runs the auto-calibration again (about 1.2 s, blocking); true if it passed. Leaves the
     * driver in RTP mode at amplitude 0, or off with a fault. */
    bool calibrate();

    bool present() const
    {
        return (flags_ & HB_DIAG_PRESENT) != 0u;
    }
    bool calibrated() const
    {
        return (flags_ & HB_DIAG_CALIBRATED) != 0u;
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
    /* I2C transfers that failed since begin(), and those that succeeded on a retry. */
    uint16_t busErrors() const
    {
        return busErrors_;
    }
    uint16_t retries() const
    {
        return retries_;
    }

    bool begin(const HapticProfile &profile) override;
    void write(uint8_t amplitude, uint8_t sharpness, uint8_t flags) override;
    uint16_t capabilities() const override;
    uint8_t fault() const override
    {
        return fault_;
    }
    void diag(uint8_t *payload) const override;

    /* Ticks between the checks of the chip, one read each (the bare-metal stage's CHECK_INTERVAL). */
    static const uint8_t CHECK_INTERVAL = 8;
    /* Tries of one transfer before it counts as failed. */
    static const uint8_t ATTEMPTS = 3;
    /* Wire's time-out per transfer, us: a register access takes about 115 us at 400 kHz. With the bus
     * held, a stop costs at most 2 accesses x ATTEMPTS x 2 transfers x this (24 ms), once. */
    static const uint16_t WIRE_TIMEOUT_US = 2000;

  private:
    /* Registers (SLOS854C 8.6 Register Map; the emulator's model, Sources/CAVRHarness/
     * drv2605l_model.c, has the same map) and the values written to them. */
    enum : uint8_t {
        REG_STATUS = 0x00, /* 8.6.1: DEVICE_ID[7:5] (7 = DRV2605L), DIAG_RESULT 3, OVER_TEMP 1, OC_DETECT 0 */
        REG_MODE = 0x01,   /* 8.6.2: DEV_RESET bit 7, STANDBY bit 6, MODE[2:0] */
        REG_RTP = 0x02,    /* 8.6.3: real-time playback amplitude */
        REG_LIBRARY = 0x03,  /* 8.6.4: ROM library: 1 = ERM, 6 = LRA */
        REG_GO = 0x0C,       /* 8.6.6: GO bit 0 starts the auto-calibration in mode 7 */
        REG_RATED = 0x16,    /* 8.6.16: RATED_VOLTAGE */
        REG_OD_CLAMP = 0x17, /* 8.6.17: OD_CLAMP */
        REG_CAL_COMP = 0x18, /* 8.6.18: A_CAL_COMP */
        REG_CAL_BEMF = 0x19, /* 8.6.19: A_CAL_BEMF */
        REG_FEEDBACK = 0x1A, /* 8.6.20: N_ERM_LRA[7], FB_BRAKE_FACTOR[6:4], LOOP_GAIN[3:2], BEMF_GAIN[1:0] */
        REG_CONTROL1 = 0x1B, /* 8.6.21: STARTUP_BOOST bit 7, DRIVE_TIME[4:0] */
        REG_CONTROL2 = 0x1C, /* 8.6.22 */
        REG_CONTROL3 = 0x1D, /* 8.6.23 */
        REG_CONTROL4 = 0x1E, /* 8.6.24 */
        REG_LRA_PERIOD = 0x22,

        STATUS_OC_DETECT = 0x01,
        STATUS_OVER_TEMP = 0x02,
        STATUS_DIAG_RESULT = 0x08,
        MODE_DEV_RESET = 0x80,
        MODE_STANDBY = 0x40,
        MODE_INTERNAL_TRIGGER = 0x00, /* also leaves standby */
        MODE_RTP = 0x05,
        MODE_AUTO_CALIBRATION = 0x07,
        DEVICE_ID = 7,

        /* FEEDBACK_CONTROL without N_ERM_LRA and BEMF_GAIN: FB_BRAKE_FACTOR 3 (x4), LOOP_GAIN 1
         * (medium), as the bare-metal stage (8.6.20). */
        FEEDBACK_BASE = 0x30 | 0x04,
        /* CONTROL3: NG_THRESH 2, ERM_OPEN_LOOP 0 (its reset value is 1), DATA_FORMAT_RTP 1 (unsigned),
         * LRA_OPEN_LOOP 0: closed loop, RTP 0 no drive and 0xFF rated drive (8.6.23). */
        CONTROL3 = 0x88,
        /* CONTROL4: AUTO_CAL_TIME 3 (1000 to 1200 ms), the most robust (8.6.24). */
        CONTROL4 = 0x30,
    };
    /* CONTROL2: BIDIR_INPUT 0, BRAKE_STABILIZER 1, SAMPLE_TIME 3 (300 us), BLANKING_TIME 1, IDISS_TIME 1
     * (8.6.22): the timings the profile's RATED_VOLTAGE and OD_CLAMP were computed with
     * (tools/gen-board-profiles; the board's profiles/<name>.h, HB_PROFILE_DRV_CONTROL2). */
    static const uint8_t CONTROL2 = 0x75;

    bool access(uint8_t reg, uint8_t *value, bool read);
    bool writeRegister(uint8_t reg, uint8_t value)
    {
        return access(reg, &value, false);
    }
    bool readRegister(uint8_t reg, uint8_t &value)
    {
        return access(reg, &value, true);
    }
    void setupWrite(uint8_t reg, uint8_t value);
    uint8_t setupRead(uint8_t reg);
    bool busIdle() const;
    bool recoverBus();
    void fail(uint8_t code);
    void stop(uint8_t code);
    void setEnable(bool on);
    void writeActuatorSettings(uint8_t feedback);
    void enterRealTimePlayback();
    void check();

    TwoWire &wire_;
    uint16_t busErrors_ = 0;
    uint16_t retries_ = 0;
    uint8_t address_;
    uint8_t enablePin_;
    uint8_t written_ = 0;
    uint8_t fault_ = 0;
    uint8_t flags_ = 0; /* HB_DIAG_PRESENT, _CALIBRATED, _STORED, _STANDBY */
    uint8_t status_ = 0;
    uint8_t checkTicks_ = 0;
    uint8_t checkTurn_ = 0;
    bool hasTimeout_ = false; /* Wire has setWireTimeout: no bus check of our own */
    bool storedCalibration_ = false;
    bool lra_ = true;
    uint8_t ratedVoltage_ = 0;
    uint8_t overdriveClamp_ = 0;
    uint8_t driveTime_ = 0;
    uint16_t ratedMillivolts_ = 0;
    uint16_t overdriveMillivolts_ = 0;
    uint8_t calComp_ = 0x0C;
    uint8_t calBemf_ = 0x6C;
    uint8_t feedback_ = 0;
    uint8_t lraPeriod_ = 0;
    uint8_t bemfGain_ = 2;
};

/* Definitions here, not in a .cpp: the Arduino IDE compiles every .cpp of a library into every
 * sketch, and one that included <Wire.h> would link Wire (and its 160 bytes of buffers) into the
 * sketches that drive no DRV2605L. Included only by those that do, this header brings Wire in. */

namespace HapticWireTimeout
{
/* Wire's time-out where the core has it (AVR core 1.8.2 and later, Debian's 1.8.7 included:
 * setWireTimeout, with the TWI reset on a time-out); detected by the call itself, since 1.8.7
 * has no WIRE_HAS_TIMEOUT macro. */
template <typename W> inline auto set(W &wire, int) -> decltype(wire.setWireTimeout(1UL, true), true)
{
    wire.setWireTimeout(HapticDRV2605L::WIRE_TIMEOUT_US, true);
    return true;
}
template <typename W> inline bool set(W &, long)
{
    return false;
}
} // namespace HapticWireTimeout

inline void HapticDRV2605L::setCalibration(uint8_t compensation, uint8_t backEMF, uint8_t backEMFGain)
{
    calComp_ = compensation;
    calBemf_ = backEMF;
    bemfGain_ = (uint8_t)(backEMFGain & 3u);
    storedCalibration_ = true;
}

/* Without Wire's time-out, a held line would hang the transfer: a transfer starts only on an idle
 * bus (SDA and SCL high), the bounded wait of such a core. */
inline bool HapticDRV2605L::busIdle() const
{
#if defined(PIN_WIRE_SDA) && defined(PIN_WIRE_SCL) /* the variant's pins (SDA and SCL are constants) */
    return hasTimeout_ || (digitalRead(PIN_WIRE_SDA) == HIGH && digitalRead(PIN_WIRE_SCL) == HIGH);
#else
    return true;
#endif
}

/* I2C bus recovery before Wire takes the pins (NXP UM10204 3.1.16 "Bus clear"): a slave cut off
 * mid-byte by a reset holds SDA low until it has clocked its byte out, so SCL is pulsed 9 times
 * (low driven, high by the pull-up: open drain). True when SDA is then high. */
inline bool HapticDRV2605L::recoverBus()
{
#if defined(PIN_WIRE_SDA) && defined(PIN_WIRE_SCL)
    const uint8_t sda = PIN_WIRE_SDA, scl = PIN_WIRE_SCL;
    pinMode(sda, INPUT_PULLUP);
    pinMode(scl, INPUT_PULLUP);
    delayMicroseconds(5);
    for (uint8_t n = 0; n < 9u && digitalRead(sda) == LOW; n++) { /* 100 kHz */
        digitalWrite(scl, LOW);                                   /* the pull-up off, then driven low */
        pinMode(scl, OUTPUT);
        delayMicroseconds(5);
        pinMode(scl, INPUT_PULLUP); /* released */
        delayMicroseconds(5);
    }
    digitalWrite(sda, LOW); /* a STOP: SDA rises while SCL is high */
    pinMode(sda, OUTPUT);
    delayMicroseconds(5);
    pinMode(sda, INPUT_PULLUP);
    delayMicroseconds(5);
    return digitalRead(sda) == HIGH;
#else
    return true;
#endif
}

/* One register access, tried ATTEMPTS times: a write of *value or a read into *value (a STOP before
 * the read, not a repeated START: the same on every Arduino core). */
inline bool HapticDRV2605L::access(uint8_t reg, uint8_t *value, bool read)
{
    for (uint8_t attempt = 0; attempt < ATTEMPTS; attempt++) {
        bool ok = false;
        if (busIdle()) {
            wire_.beginTransmission(address_);
            wire_.write(reg);
            if (!read) {
                wire_.write(*value);
                ok = wire_.endTransmission() == 0;
            } else if (wire_.endTransmission() == 0 && wire_.requestFrom(address_, (uint8_t)1) == 1) {
                *value = (uint8_t)wire_.read();
                ok = true;
            }
        }
        if (ok) {
            if (attempt != 0u) {
                retries_++;
            }
            return true;
        }
        busErrors_++;
    }
    return false;
}

inline void HapticDRV2605L::fail(uint8_t code)
{
    if (fault_ == 0u) {
        fault_ = code;
    }
}

/* A write or read during set-up: a failure is a bus fault. */
inline void HapticDRV2605L::setupWrite(uint8_t reg, uint8_t value)
{
    if (!writeRegister(reg, value)) {
        fail(HB_ERR_DRIVER_BUS);
    }
}

inline uint8_t HapticDRV2605L::setupRead(uint8_t reg)
{
    uint8_t value = 0;
    if (!readRegister(reg, value)) {
        fail(HB_ERR_DRIVER_BUS);
    }
    return value;
}

inline void HapticDRV2605L::setEnable(bool on)
{
    if (enablePin_ != HAPTIC_NO_PIN) {
        digitalWrite(enablePin_, on ? HIGH : LOW);
    }
}

/* The stage off for good, with the fault reported: RTP 0 and standby while the bus carries them,
 * EN low in any case (a stop that cannot be written still lands). */
inline void HapticDRV2605L::stop(uint8_t code)
{
    fail(code);
    if (present()) {
        (void)writeRegister(REG_RTP, 0);
        if (writeRegister(REG_MODE, MODE_STANDBY)) {
            flags_ |= HB_DIAG_STANDBY;
        }
    }
    if (enablePin_ != HAPTIC_NO_PIN) {
        digitalWrite(enablePin_, LOW);
        flags_ |= HB_DIAG_DISABLED;
    }
}

inline void HapticDRV2605L::writeActuatorSettings(uint8_t feedback)
{
    setupWrite(REG_RATED, ratedVoltage_);
    setupWrite(REG_OD_CLAMP, overdriveClamp_);
    setupWrite(REG_FEEDBACK, feedback);
    /* CONTROL1: STARTUP_BOOST 1, DRIVE_TIME from the profile (8.6.21) */
    setupWrite(REG_CONTROL1, (uint8_t)(0x80u | (driveTime_ & 0x1Fu)));
    setupWrite(REG_CONTROL2, CONTROL2);
    setupWrite(REG_CONTROL3, CONTROL3);
    setupWrite(REG_CONTROL4, CONTROL4);
}

inline void HapticDRV2605L::enterRealTimePlayback()
{
    setupWrite(REG_LIBRARY, lra_ ? 6 : 1);
    setupWrite(REG_RTP, 0);
    setupWrite(REG_MODE, MODE_RTP);
    written_ = 0;
    if (fault_ != 0u) {
        stop(fault_);
    }
}

inline bool HapticDRV2605L::calibrate()
{
    if (fault_ != 0u) {
        return false; /* faults last until the board restarts */
    }
    uint8_t kind = lra_ ? 0x80u : 0x00u;
    setupWrite(REG_MODE, MODE_AUTO_CALIBRATION);
    writeActuatorSettings((uint8_t)(kind | FEEDBACK_BASE | 2u)); /* BEMF_GAIN 2 until measured */
    setupWrite(REG_GO, 1);
    /* AUTO_CAL_TIME 3 takes at most 1.2 s; give up after 2 s (a failed read ends the wait) */
    uint8_t go = 1;
    for (uint16_t ms = 0; ms < 2000u && fault_ == 0u; ms++) {
        go = setupRead(REG_GO);
        if ((go & 1u) == 0u) {
            break;
        }
        delay(1);
    }
    uint8_t status = 0;
    bool statusRead = fault_ == 0u && readRegister(REG_STATUS, status);
    if (!statusRead) {
        fail(HB_ERR_DRIVER_BUS); /* a STATUS that cannot be read is not a passed calibration */
    }
    status_ = status;
    bool ok = statusRead && (status & STATUS_DIAG_RESULT) == 0u && (go & 1u) == 0u;
    calComp_ = setupRead(REG_CAL_COMP);
    calBemf_ = setupRead(REG_CAL_BEMF);
    feedback_ = setupRead(REG_FEEDBACK);
    lraPeriod_ = lra_ ? setupRead(REG_LRA_PERIOD) : 0u;
    ok = ok && fault_ == 0u;
    if (ok) {
        flags_ |= HB_DIAG_CALIBRATED;
    } else {
        flags_ &= (uint8_t)~HB_DIAG_CALIBRATED;
        fail(HB_ERR_CALIBRATION_FAILED);
    }
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
    ratedMillivolts_ = profile.ratedMillivolts;
    overdriveMillivolts_ = profile.overdriveMillivolts;
    fault_ = flags_ = 0;
    if (enablePin_ != HAPTIC_NO_PIN) {
        /* EN low: the chip shuts down, whatever an earlier sketch left it driving; then on */
        digitalWrite(enablePin_, LOW);
        pinMode(enablePin_, OUTPUT);
        delay(1);
        setEnable(true);
    }
    if (!recoverBus()) {
        stop(HB_ERR_DRIVER_BUS); /* SDA stays low: something holds the bus */
        return false;
    }
    wire_.begin();
    wire_.setClock(400000UL);
    hasTimeout_ = HapticWireTimeout::set(wire_, 0);
    delay(1); /* the DRV2605L accepts I2C 250 us after power-up and EN */
    /* DEV_RESET (8.6.2): no register of an earlier sketch survives. No answer: not there. */
    if (!writeRegister(REG_MODE, MODE_DEV_RESET)) {
        stop(HB_ERR_DRIVER_ABSENT);
        return false;
    }
    flags_ |= HB_DIAG_PRESENT;
    for (uint8_t n = 0; n < 50u && (setupRead(REG_MODE) & MODE_DEV_RESET) && fault_ == 0u; n++) {
        delay(1);
    }
    setupWrite(REG_MODE, MODE_INTERNAL_TRIGGER); /* leave standby */
    status_ = setupRead(REG_STATUS);
    if (fault_ == 0u && (status_ >> 5) != DEVICE_ID) {
        flags_ &= (uint8_t)~HB_DIAG_PRESENT;
        stop(HB_ERR_DRIVER_ABSENT); /* something else answers at the address */
        return false;
    }
    if (!storedCalibration_) {
        return calibrate();
    }
    feedback_ = (uint8_t)((lra_ ? 0x80u : 0x00u) | FEEDBACK_BASE | bemfGain_);
    writeActuatorSettings(feedback_);
    setupWrite(REG_CAL_COMP, calComp_);
    setupWrite(REG_CAL_BEMF, calBemf_);
    if (fault_ == 0u) {
        flags_ |= HB_DIAG_CALIBRATED | HB_DIAG_STORED;
    }
    enterRealTimePlayback();
    return fault_ == 0u;
}

/* One check of the chip (CHECK_INTERVAL): turns 0 and 2 read STATUS, 1 MODE, 3 one of the settings
 * written at begin(), in turn; a value other than the one written means the chip lost power (or
 * its settings): reported, not driven blind. */
inline void HapticDRV2605L::check()
{
    uint8_t turn = checkTurn_++;
    uint8_t reg = REG_STATUS, expected = MODE_RTP, value;
    if ((turn & 3u) == 1u) {
        reg = REG_MODE;
    } else if ((turn & 3u) == 3u) {
        const uint8_t regs[8] = {REG_RATED,    REG_OD_CLAMP, REG_FEEDBACK, REG_CONTROL1,
                                 REG_CONTROL2, REG_CONTROL3, REG_CAL_COMP, REG_CAL_BEMF};
        const uint8_t values[8] = {
            ratedVoltage_, overdriveClamp_, feedback_, (uint8_t)(0x80u | (driveTime_ & 0x1Fu)),
            CONTROL2,      CONTROL3,        calComp_,  calBemf_};
        reg = regs[(turn >> 2) & 7u];
        expected = values[(turn >> 2) & 7u];
    }
    if (!readRegister(reg, value)) {
        stop(HB_ERR_DRIVER_BUS);
    } else if (reg == REG_STATUS) {
        status_ = value;
        if (value & STATUS_OVER_TEMP) {
            stop(HB_ERR_OVER_TEMPERATURE);
        } else if (value & STATUS_OC_DETECT) {
            stop(HB_ERR_OVER_CURRENT);
        }
    } else if (value != expected) {
        stop(HB_ERR_DRIVER_RESET); /* back at its defaults: it lost power */
    }
}

inline void HapticDRV2605L::write(uint8_t amplitude, uint8_t sharpness, uint8_t flags)
{
    (void)sharpness;
    if (fault_ != 0u) {
        return; /* off for good (stop): nothing more to say to it */
    }
    uint8_t value = (flags & 1u) ? 0u : amplitude;
    if (value != written_) {
        if (writeRegister(REG_RTP, value)) {
            written_ = value; /* only once acknowledged */
        } else {
            stop(HB_ERR_DRIVER_BUS); /* a value that did not get through, a stop included: off */
            return;
        }
    }
    if (++checkTicks_ >= CHECK_INTERVAL) {
        checkTicks_ = 0;
        check();
    }
}

inline uint16_t HapticDRV2605L::capabilities() const
{
    /* closed loop: the driver senses back-EMF and brakes the actuator at the end of drive */
    return HAPTIC_CAP_ACTIVE_BRAKE;
}

inline void HapticDRV2605L::diag(uint8_t *p) const
{
    p[0] = HB_DIAG_STAGE_DRV2605L;
    p[2] = flags_;
    p[3] = status_;
    putU16(p + 6, ratedMillivolts_);
    putU16(p + 8, overdriveMillivolts_);
    p[10] = calComp_;
    p[11] = calBemf_;
    p[12] = feedback_;
    p[13] = lraPeriod_;
    putU16(p + 14, busErrors_);
    putU16(p + 16, retries_);
}

#endif
