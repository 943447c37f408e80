#include "HapticMotor.h"

namespace
{
/* analogWrite() only when the duty changes: on most cores each call reprograms the timer. */
void setDuty(uint8_t pin, uint8_t &current, uint8_t duty)
{
    if (duty != current) {
        analogWrite(pin, duty);
        current = duty;
    }
}

void startSilent(uint8_t pin)
{
    pinMode(pin, OUTPUT);
    analogWrite(pin, 0);
}
} // namespace

bool HapticERM::begin(const HapticProfile &profile)
{
    startSilent(pin_);
    duty_ = 0;
    return profile.actuator == HAPTIC_ACTUATOR_ERM;
}

void HapticERM::write(uint8_t amplitude, uint8_t sharpness, uint8_t flags)
{
    (void)sharpness;
    setDuty(pin_, duty_, (flags & 1u) ? 0u : amplitude);
}

bool HapticHBridge::begin(const HapticProfile &profile)
{
    startSilent(forwardPin_);
    startSilent(reversePin_);
    forward_ = reverse_ = brakeLevel_ = 0;
    return profile.actuator == HAPTIC_ACTUATOR_ERM;
}

void HapticHBridge::write(uint8_t amplitude, uint8_t sharpness, uint8_t flags)
{
    (void)sharpness;
    uint8_t forward, reverse;
    if (flags & 1u) {
        forward = 0;
        reverse = brakeLevel_;
    } else {
        forward = amplitude;
        reverse = 0;
        brakeLevel_ = amplitude;
    }
    /* the side that turns off first, so that both inputs are never driven at once */
    if (forward == 0u) {
        setDuty(forwardPin_, forward_, 0);
        setDuty(reversePin_, reverse_, reverse);
    } else {
        setDuty(reversePin_, reverse_, 0);
        setDuty(forwardPin_, forward_, forward);
    }
}
