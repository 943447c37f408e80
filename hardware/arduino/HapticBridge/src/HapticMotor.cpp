#include "HapticMotor.h"

#include "hb_port_config.h" /* first: the core's headers need the port */

extern "C" {
#include "core/hb_drive_cap.h"
#include "core/hb_messages.h"
}

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
    digitalWrite(pin, LOW);
    pinMode(pin, OUTPUT);
    analogWrite(pin, 0);
}
} // namespace

bool HapticPWMStage::setCaps(const HapticProfile &profile)
{
    ratedMillivolts_ = profile.ratedMillivolts;
    /* the bare-metal stage's caps, one definition (hb_drive_cap.h) */
    ratedDuty_ = (uint8_t)HB_DUTY_CAP(profile.ratedMillivolts, supplyMillivolts_);
    overdriveDuty_ = (uint8_t)HB_DUTY_CAP(profile.overdriveMillivolts, supplyMillivolts_);
    /* unipolar PWM drives an ERM only: an LRA's coil would get DC; a profile without voltages, or a
     * supply that is not declared, cannot be capped */
    bool safe = profile.actuator == HAPTIC_ACTUATOR_ERM && supplyMillivolts_ != 0u && ratedDuty_ != 0u
                && profile.overdriveMillivolts >= profile.ratedMillivolts;
    if (!safe) {
        ratedDuty_ = overdriveDuty_ = 0;
        fault_ = HB_ERR_UNSUPPORTED;
    }
    return safe;
}

uint8_t HapticPWMStage::duty(uint8_t amplitude) const
{
    return hb_duty_scaled(amplitude, ratedDuty_);
}

void HapticPWMStage::diag(uint8_t *p) const
{
    /* as the bare-metal PWM stage: the most the caps give, duty / 255 x the highest supply */
    uint32_t highest = HB_SUPPLY_MAX_MV(supplyMillivolts_);
    uint16_t rated = (uint16_t)((uint32_t)ratedDuty_ * highest / 255UL);
    uint16_t limit = (uint16_t)((uint32_t)overdriveDuty_ * highest / 255UL);
    p[0] = HB_DIAG_STAGE_PWM;
    putU16(p + 4, supplyMillivolts_);
    putU16(p + 6, rated);
    putU16(p + 8, limit);
}

bool HapticERM::begin(const HapticProfile &profile)
{
    startSilent(pin_);
    duty_ = 0;
    return setCaps(profile);
}

void HapticERM::write(uint8_t amplitude, uint8_t sharpness, uint8_t flags)
{
    (void)sharpness;
    setDuty(pin_, duty_, (flags & 1u) ? 0u : duty(amplitude));
}

bool HapticHBridge::begin(const HapticProfile &profile)
{
    startSilent(forwardPin_);
    startSilent(reversePin_);
    forward_ = reverse_ = brakeDuty_ = 0;
    return setCaps(profile);
}

void HapticHBridge::write(uint8_t amplitude, uint8_t sharpness, uint8_t flags)
{
    (void)sharpness;
    uint8_t forward, reverse;
    if (flags & 1u) {
        forward = 0;
        reverse = brakeDuty_; /* at most the rated cap, itself under the overdrive one */
    } else {
        forward = duty(amplitude);
        reverse = 0;
        brakeDuty_ = forward;
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
