/* HapticBridge device driving an ERM (vibration motor) with analogWrite, on a MOSFET or an
 * H-bridge.
 *
 * MOSFET (drive and coast): pin 9 -> 220 ohm -> gate of a logic-level N-MOSFET (e.g. AO3400,
 * IRLZ44N), and 100 kOhm from the gate to GND (pin 9 floats through reset and the bootloader: the
 * pull-down keeps the motor off then); source -> GND; drain -> motor (-); motor (+) -> the motor
 * supply; a flyback diode (1N4148 or Schottky) across the motor, cathode to (+).
 *
 * H-bridge (drive and brake), e.g. a DRV8833 breakout: pin 9 -> AIN1, pin 10 -> AIN2,
 * AOUT1 / AOUT2 -> the motor, VM -> the motor supply, GND -> GND, nSLEEP -> VCC.
 * Uncomment USE_H_BRIDGE below. Pins 9 and 10 are PWM pins on an Uno or Nano; use any two PWM
 * pins elsewhere.
 *
 * SUPPLY_MV is the motor supply's nominal voltage: every duty is capped so that the profile's
 * rated voltage is never exceeded at up to 5 % over it (USB's 5 V may be 5.25 V): a 3 V motor on
 * 5 V gets at most 145 / 255 duty.
 *
 * Upload, then from the host:  haptic play preset:impact.medium --port /dev/ttyACM0 */
#include <HapticBridge.h>

// #define USE_H_BRIDGE
const uint16_t SUPPLY_MV = 5000;

#ifdef USE_H_BRIDGE
HapticHBridge motor(9, 10, SUPPLY_MV);
const HapticProfile &profile = HapticProfiles::ERM_CYLINDER_7MM;
#else
HapticERM motor(9, SUPPLY_MV);
const HapticProfile &profile = HapticProfiles::ERM_COIN_10MM;
#endif
HapticBridge haptic;

void setup()
{
    haptic.begin(Serial, 500000, motor, profile);
}

void loop()
{
    haptic.poll();
}
