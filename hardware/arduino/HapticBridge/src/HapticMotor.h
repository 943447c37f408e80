/* ERM motors driven with analogWrite(), under the same voltage caps as the bare-metal PWM stage
 * (hb_drive_cap.h, hardware/README.md "Supply tolerance and the duty caps"): the sketch declares
 * the motor supply (nominal mV, default 5,000), and every duty is at most the profile's rated
 * voltage at the highest that supply may be (5 % over): amplitude code a drives
 * (a x D_R + 127) / 255, at least 1 for a non-zero code (hb_duty_scaled), D_R =
 * HB_DUTY_CAP(rated, supply). A 3 V motor on 5 V USB: D_R 145 of 255, 2.985 V at 5.25 V.
 *
 * HapticERM: one PWM pin to a logic-level MOSFET (low side, flyback diode across the motor, a
 * pull-down on the gate). It can only drive or coast: a brake sample coasts (duty 0).
 * HapticHBridge: two PWM pins to an H-bridge's two inputs (e.g. DRV8833 IN1/IN2). Drive goes to
 * the forward pin; a brake sample drives the reverse pin at the last duty driven before the
 * brake, which the rated cap already bounds (under the overdrive one).
 *
 * Both need an ERM profile with its voltages. Given an LRA (it needs an AC drive at its
 * resonance, and unipolar PWM would leave DC on its coil: use a DRV2605L) or a profile without
 * voltages, begin() returns false, the pins stay low for good and fault() reports
 * HB_ERR_UNSUPPORTED (76) to the host. The PWM frequency is the core's analogWrite() frequency
 * (Uno: 490 Hz on D9/D10, 980 Hz on D5/D6). */
#ifndef HAPTIC_MOTOR_H
#define HAPTIC_MOTOR_H

#include <Arduino.h>

#include "HapticOutput.h"

/* What both PWM stages share: the caps, the refusal, the DIAG report. */
class HapticPWMStage : public HapticOutput
{
  public:
    uint8_t fault() const override
    {
        return fault_;
    }
    void diag(uint8_t *payload) const override;
    /* The duty of amplitude code 255 (0 when the stage refused the profile). */
    uint8_t ratedDuty() const
    {
        return ratedDuty_;
    }
    uint8_t overdriveDuty() const
    {
        return overdriveDuty_;
    }

  protected:
    explicit HapticPWMStage(uint16_t supplyMillivolts) : supplyMillivolts_(supplyMillivolts)
    {
    }
    ~HapticPWMStage() = default;
    /* The caps for `profile`, or the refusal; true when the stage may drive it. */
    bool setCaps(const HapticProfile &profile);
    /* The duty of an amplitude code under the rated cap (0 while refused). */
    uint8_t duty(uint8_t amplitude) const;

    uint16_t supplyMillivolts_;
    uint16_t ratedMillivolts_ = 0;
    uint8_t ratedDuty_ = 0;
    uint8_t overdriveDuty_ = 0;
    uint8_t fault_ = 0;
};

class HapticERM : public HapticPWMStage
{
  public:
    /* `supplyMillivolts`: the motor supply's nominal voltage (5,000 for USB 5 V). */
    explicit HapticERM(uint8_t pin, uint16_t supplyMillivolts = 5000)
        : HapticPWMStage(supplyMillivolts), pin_(pin)
    {
    }
    bool begin(const HapticProfile &profile) override;
    void write(uint8_t amplitude, uint8_t sharpness, uint8_t flags) override;

  private:
    uint8_t pin_;
    uint8_t duty_ = 0;
};

class HapticHBridge : public HapticPWMStage
{
  public:
    HapticHBridge(uint8_t forwardPin, uint8_t reversePin, uint16_t supplyMillivolts = 5000)
        : HapticPWMStage(supplyMillivolts), forwardPin_(forwardPin), reversePin_(reversePin)
    {
    }
    bool begin(const HapticProfile &profile) override;
    void write(uint8_t amplitude, uint8_t sharpness, uint8_t flags) override;
    uint16_t capabilities() const override
    {
        return HAPTIC_CAP_ACTIVE_BRAKE;
    }

  private:
    uint8_t forwardPin_;
    uint8_t reversePin_;
    uint8_t forward_ = 0;
    uint8_t reverse_ = 0;
    uint8_t brakeDuty_ = 0; /* the last duty driven before a brake */
};

#endif
