/* What drives the actuator (the output stage) and what the actuator is (its profile).
 *
 * The sketch declares one output stage (HapticDRV2605L, HapticERM, HapticHBridge, or a class of
 * its own) and passes it, with a profile, to HapticBridge::begin or HapticPlayer::begin. The
 * library calls write() once per tick with that tick's sample, right after the step that made it
 * (PROTOCOL.md 1.11: amplitude code, sharpness code, flags bit 0 = brake). */
#ifndef HAPTIC_OUTPUT_H
#define HAPTIC_OUTPUT_H

#include <stdint.h>

/* INFO's actuator codes (PROTOCOL.md 2.6; the core's HB_ACTUATOR_*). */
#define HAPTIC_ACTUATOR_LRA 1u
#define HAPTIC_ACTUATOR_ERM 2u

/* An actuator profile: the name the host compiles for (hardware/actuators/<name>.json; INFO reports
 * its first 16 characters and the host picks the profile that starts with them), the kind, the
 * DRV2605L's register values for it (hardware/README.md, "DRV2605L stage", gives the equations; 0
 * takes the stage's default for the kind) and its voltages, which cap the PWM stages' duties
 * against the supply the sketch declares (hb_drive_cap.h; 0: the PWM stages drive nothing). */
struct HapticProfile {
    const char *name;
    uint8_t actuator;             /* HAPTIC_ACTUATOR_LRA or HAPTIC_ACTUATOR_ERM */
    uint8_t drvRatedVoltage;      /* RATED_VOLTAGE (0x16) */
    uint8_t drvOverdriveClamp;    /* OD_CLAMP (0x17) */
    uint8_t drvDriveTime;         /* CONTROL1 DRIVE_TIME (LRA: (half period - 0.5 ms) / 0.1 ms) */
    uint16_t ratedMillivolts;     /* drive.ratedVolts: amplitude code 255 (RMS for an LRA) */
    uint16_t overdriveMillivolts; /* drive.overdriveVolts: the most any drive reaches */
};

/* The built-in profiles a stage of this library can drive (hardware/actuators/). */
namespace HapticProfiles
{
/* Jinlong Z10SC2B-class 10 mm LRA, 170 Hz, on a DRV2605L in closed loop: 2.0 V rms rated (0x53,
 * 1.98 V rms), 2.5 V rms overdrive (0x88, 2.89 V peak), drive time 24 (half of 170 Hz). The values
 * of hardware/firmware/boards/atmega328p/profiles/<name>.h, from the datasheet's equations. */
constexpr HapticProfile LRA_DRV2605L_170HZ_10MM = {
    "lra-drv2605l-170hz-10mm", HAPTIC_ACTUATOR_LRA, 0x53, 0x88, 24, 2000, 2500};
/* 10 mm coin ERM, 3.0 V rated (0x8D on a DRV2605L, 2.99 V), 3.6 V overdrive (0xB6, 3.58 V), drive
 * time 19 (4.8 ms, which the clamp's value assumes): a single MOSFET (no brake) or a DRV2605L. */
constexpr HapticProfile ERM_COIN_10MM = {"erm-coin-10mm", HAPTIC_ACTUATOR_ERM, 0x8D, 0xB6, 19, 3000, 3600};
/* 7 mm cylinder ERM on an H-bridge, which brakes it by reversing: 3.0 V rated, 3.6 V overdrive. */
constexpr HapticProfile ERM_CYLINDER_7MM = {
    "erm-cylinder-7mm", HAPTIC_ACTUATOR_ERM, 0x8D, 0xB6, 19, 3000, 3600};
} // namespace HapticProfiles

class HapticOutput
{
  public:
    /* Sets the stage up for the profile and leaves it silent; true when the stage works (the
     * DRV2605L answered and calibrated; a PWM stage given an ERM profile with its voltages). Called
     * once. A stage whose begin() failed outputs nothing from then on, and the device refuses every
     * play with its fault() (HapticBridge.h). */
    virtual bool begin(const HapticProfile &profile) = 0;

    /* One tick's sample (flags bit 0: brake). */
    virtual void write(uint8_t amplitude, uint8_t sharpness, uint8_t flags) = 0;

    /* INFO's capability bits the stage gives (PROTOCOL.md 2.6): HAPTIC_CAP_SHARPNESS when it
     * renders the sharpness code, HAPTIC_CAP_ACTIVE_BRAKE when brake samples drive the actuator
     * against its motion. */
    virtual uint16_t capabilities() const
    {
        return 0;
    }

    /* The stage's fault now (PROTOCOL.md 2.18: 59 driver absent .. 63 over-current; 76 UNSUPPORTED
     * for a profile the stage cannot drive safely), 0 when none. The device reports a new one at
     * its next step (TELEMETRY FAULT) and refuses plays while it lasts. */
    virtual uint8_t fault() const
    {
        return 0;
    }

    /* Fills a DIAG_REPORT payload (PROTOCOL.md 2.18, 18 bytes, zeroed by the caller; the device
     * sets byte 1, the fault): the stage kind, its flags, the voltages it is set for. */
    virtual void diag(uint8_t *payload) const
    {
        (void)payload;
    }

  protected:
    ~HapticOutput() = default; /* stages are never deleted through this class */

    /* A 16-bit field of a payload, little-endian (PROTOCOL.md 2.2.1): DIAG_REPORT's voltages and
     * counters. */
    static void putU16(uint8_t *p, uint16_t value)
    {
        p[0] = (uint8_t)(value & 0xFFu);
        p[1] = (uint8_t)(value >> 8);
    }
};

#define HAPTIC_CAP_SHARPNESS 0x0002u
#define HAPTIC_CAP_ACTIVE_BRAKE 0x0004u

#endif
