/* ERM motors driven with analogWrite(): the amplitude code is the PWM duty (0..255 of the
 * default 8-bit range), written when it changes.
 *
 * HapticERM: one PWM pin to a logic-level MOSFET (low side, flyback diode across the motor). It
 * can only drive or coast: a brake sample coasts (duty 0).
 * HapticHBridge: two PWM pins to an H-bridge's two inputs (e.g. DRV8833 IN1/IN2). Drive goes to
 * the forward pin; a brake sample drives the reverse pin at the last amplitude driven before the
 * brake, the ERM case of the bare-metal PWM stage (hardware/README.md, "PWM drive synthesis").
 *
 * Both need an ERM profile (an LRA needs an AC drive at its resonance: use a DRV2605L). The PWM
 * frequency is the core's analogWrite() frequency (Uno: 490 Hz on D9/D10, 980 Hz on D5/D6). */
#ifndef HAPTIC_MOTOR_H
#define HAPTIC_MOTOR_H

#include <Arduino.h>

#include "HapticOutput.h"

class HapticERM : public HapticOutput
{
  public:
    explicit HapticERM(uint8_t pin) : pin_(pin)
    {
    }
    bool begin(const HapticProfile &profile) override;
    void write(uint8_t amplitude, uint8_t sharpness, uint8_t flags) override;

  private:
    uint8_t pin_;
    uint8_t duty_ = 0;
};

class HapticHBridge : public HapticOutput
{
  public:
    HapticHBridge(uint8_t forwardPin, uint8_t reversePin) : forwardPin_(forwardPin), reversePin_(reversePin)
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
    uint8_t brakeLevel_ = 0; /* the last amplitude driven before a brake */
};

#endif
